"""The ``output`` question type through every stage: the bank checker (the example solution
run, its failures at their line), the quiz markup, the flashcards of every export (a real
Anki import), the LMS exports that leave it out, and the printed exam.

The browser side (answering right and wrong in Chromium) is tests/browser/test_output_browser.py;
the bounded process is tests/test_programs.py.
"""

from __future__ import annotations

import html
import json
import re
import textwrap
from pathlib import Path

import pytest
import quiz_samples as samples
from anki.collection import Collection
from test_exports import import_apkg, import_text, notes_by_guid
from test_render import has_class, parse

from konum import seal
from konum.course import Course
from konum.exam import build_versions, render_pages
from konum.exports.anki import guid
from konum.exports.gift import build_gift
from konum.exports.text import cards_json
from konum.problems import BankError
from konum.types import Bank, Concrete, OutputQuestion
from konum.types.output import OUTPUT_TOLERANCE
from tests import helpers
from tests.helpers import PE, build_cards, build_moodle, export, render_quiz

SOLUTION = """\
import numpy as np

PE = np.zeros((4, 6))
print(PE.shape)
print(np.round(np.sin(np.arange(3)), 3))
"""


def bank_text(solution: str = SOLUTION, *, extra: str = "", style: str = "|") -> str:
    body = textwrap.indent(solution, "      ")
    return (
        "bank: progs\n"
        "title: Programs\n"
        "questions:\n"
        "  - id: prog-shape\n"
        "    type: output\n"
        "    prompt: Print the shape of a 4 by 6 table, then three sines rounded.\n"
        f"    solution: {style}\n{body}"
        "    explanation: A shape is a tuple.\n"
        f"{extra}"
    )


def load_bank(path: Path, **options: object) -> Bank:
    """The bank, its example programs run (these tests are about running them)."""
    return helpers.load_bank(path, run_programs=True, **options)


def text_of(fragment: str) -> str:
    """HTML without its tags (highlighted code is a span per token)."""
    return html.unescape(re.sub(r"<[^>]+>", "", fragment))


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "progs.yml"
    path.write_text(text, encoding="utf-8")
    return path


def problems(path: Path) -> list[str]:
    with pytest.raises(BankError) as caught:
        load_bank(path)
    return [
        f"{p.line}:{p.column} [{p.question_id}] {p.field}: {p.message}"
        for p in caught.value.problems
    ]


@pytest.fixture(scope="module")
def question(tmp_path_factory: pytest.TempPathFactory) -> OutputQuestion:
    bank = load_bank(
        write(tmp_path_factory.mktemp("bank"), bank_text(extra="    tolerance: 0.01\n"))
    )
    (q,) = bank.questions
    assert isinstance(q, OutputQuestion)
    return q


# --- the bank checker -------------------------------------------------------------------------


def test_the_expected_output_is_what_the_solution_prints(question: OutputQuestion) -> None:
    assert question.expected == "(4, 6)\n[0.    0.841 0.909]"
    assert question.solution == SOLUTION
    assert question.tolerance == 0.01
    default = load_bank(write(Path(question.source.file).parent, bank_text())).questions[0]
    assert isinstance(default, OutputQuestion) and default.tolerance == OUTPUT_TOLERANCE


def test_a_failing_solution_is_a_problem_at_its_own_line(tmp_path: Path) -> None:
    broken = SOLUTION.replace("print(PE.shape)", "print(pe.shape)")
    # Line 7 holds "solution: |"; the program's line 4 is the file's line 11, indented 7.
    assert problems(write(tmp_path, bank_text(broken))) == [
        "11:7 [prog-shape] solution: the example solution failed at its line 4: "
        "NameError: name 'pe' is not defined"
    ]


def test_a_solution_that_runs_too_long_or_reaches_out_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from konum import programs

    looping = "while True:\n    pass\n"
    fast = programs.run_program.__wrapped__
    monkeypatch.setattr("konum.types.output.run_program", lambda source: fast(source, 1))
    (message,) = problems(write(tmp_path, bank_text(looping)))
    assert message.startswith("7:15 [prog-shape] solution: the example solution failed: it ")
    # The next program must fail by the guard, not by a 1 s limit on a busy machine.
    monkeypatch.undo()
    (network,) = problems(write(tmp_path, bank_text("import socket\nsocket.socket()\n")))
    assert network.startswith(
        "9:7 [prog-shape] solution: the example solution failed at its line 2"
    )
    assert "may not use socket" in network


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            bank_text("print(1)\n", style=">"),
            "7:15 [prog-shape] solution: a folded block joins the program's lines: expected a "
            "literal block ('solution: |'), found a folded block ('solution: >')",
        ),
        (
            bank_text("x = 1\n"),
            "7:15 [prog-shape] solution: the example solution printed nothing: an output "
            "question checks what a program prints",
        ),
        (
            bank_text(extra="    tolerance: -1\n"),
            "14:16 [prog-shape] tolerance: a tolerance must be zero or positive: expected a "
            "finite number >= 0, found -1",
        ),
        (
            bank_text(extra="    answer: 3\n"),
            "14:5 [prog-shape] answer: 'answer' is not a field here; only numeric and computed "
            "questions have it (this question is 'output')",
        ),
        (
            bank_text().replace("    solution: |\n", "    code: |\n"),
            "7:5 [prog-shape] code: unknown key 'code'; did you mean 'recorded'?: expected one of "
            "id, type, prompt, "
            "explanation, hint, hints, points, attempts, tags, difficulty, flashcard, figure, "
            "solution, tolerance, recorded, found 'code'",
        ),
        (
            bank_text("print('x')\n" * 400),
            "7:15 [prog-shape] solution: the example solution is too long to show: expected at "
            "most 4,000 characters, found 4,400",
        ),
    ],
)
def test_schema_problems_name_the_line_question_and_field(
    tmp_path: Path, text: str, expected: str
) -> None:
    assert expected in problems(write(tmp_path, text))


def test_a_missing_solution_is_reported(tmp_path: Path) -> None:
    text = bank_text().split("    solution: |")[0] + "    explanation: x\n"
    assert problems(write(tmp_path, text)) == [
        "4:5 [prog-shape] solution: missing required field 'solution': expected text, found nothing"
    ]


# --- the quiz -----------------------------------------------------------------------------------


def test_the_quiz_shows_the_task_and_a_labelled_box(question: OutputQuestion) -> None:
    root = parse(render_quiz([Concrete(question, 1)], "q"))
    (el,) = root.find_all(lambda e: "data-question-id" in e.attrs)
    assert el.attrs["data-type"] == "output"
    (box,) = el.find_all(lambda e: e.tag == "textarea")
    (label,) = el.find_all(lambda e: e.tag == "label")
    assert label.attrs["for"] == box.attrs["id"] == "konum-q-prog-shape-output"
    assert box.attrs["spellcheck"] == "false" and box.attrs["rows"] == "3"
    data, later = (json.loads(s.text) for s in el.find_all(lambda e: e.tag == "script"))
    assert (data["type"], data["tolerance"], data["explanation"]) == ("output", 0.01, True)
    assert question.expected not in json.dumps(data)  # sealed: only a check unseals it
    assert seal.unseal(data["salt"], data["expected"]) == question.expected
    if "sealed" in later:
        later.update(json.loads(seal.unseal(data["seal"], later.pop("sealed"))))
    answer = later["answer"]
    assert html.escape(question.expected, quote=False) in answer
    assert "<div class=highlight>" in answer and "np</span>" in answer  # the code, highlighted
    assert answer.count("<code tabindex=0>") == 2  # both may scroll: focusable, as Material's
    assert not el.find_all(lambda e: e.tag == "button" or "aria-live" in e.attrs)
    assert el.find_all(has_class("konum-prompt"))


def test_the_box_grows_with_the_expected_output_within_bounds() -> None:
    base = samples.output().question
    assert isinstance(base, OutputQuestion)
    for lines, rows in ((1, 3), (5, 6), (40, 12)):
        expected = "\n".join(str(i) for i in range(lines))
        q = OutputQuestion(**{**base.__dict__, "expected": expected})
        root = parse(render_quiz([Concrete(q, 1)], "q"))
        (box,) = root.find_all(lambda e: e.tag == "textarea")
        assert box.attrs["rows"] == str(rows)


# --- flashcards ---------------------------------------------------------------------------------


def _bank(q: OutputQuestion) -> Bank:
    return Bank("progs", "Programs", "progs.yml", (q,))


def test_the_card_has_the_task_in_front_and_the_solution_behind(
    question: OutputQuestion,
) -> None:
    (card,) = build_cards([_bank(question)])
    assert (card.key, card.kind) == ("question:prog-shape", "basic")
    assert "Print the shape of a 4 by 6 table" in card.front and "np.zeros" not in card.front
    assert "Example solution" in card.back and "np.zeros((4, 6))" in text_of(card.back)
    assert "It prints" in card.back and "[0.    0.841 0.909]" in card.back
    assert "A shape is a tuple." in card.back
    (study,) = cards_json(build_cards([_bank(question)], math="mathml"))["cards"]  # type: ignore[index]
    assert study["front"] == card.front and "np.zeros" in text_of(study["back"])


def test_every_flashcard_export_carries_it(question: OutputQuestion, tmp_path: Path) -> None:
    bank = _bank(question)
    folder = tmp_path / "anki"
    folder.mkdir()
    col = Collection(str(folder / "collection.anki2"))
    try:
        cards = export("anki", [bank], [], tmp_path / "progs.apkg", timestamp=1_700_000_000)
        import_apkg(col, tmp_path / "progs.apkg")
        _, notetype, deck, fields, _ = notes_by_guid(col)[guid(cards[0])]
        assert notetype == "Konum Basic" and deck.endswith("Programs")
        assert "4 by 6 table" in fields[0] and "np.zeros" in text_of(fields[1])
        shown = col.get_note(col.find_notes("")[0]).cards()[0].answer()
        assert "[0.    0.841 0.909]" in shown
    finally:
        col.close()
    export("text", [bank], [], tmp_path / "progs.txt")
    text = (tmp_path / "progs.txt").read_text(encoding="utf-8")
    assert "4 by 6 table" in text and "np.zeros" in text_of(text)
    export("csv", [bank], [], tmp_path / "progs.csv")
    assert "It prints" in (tmp_path / "progs.csv").read_text(encoding="utf-8")
    folder2 = tmp_path / "anki-text"
    folder2.mkdir()
    col = Collection(str(folder2 / "collection.anki2"))
    try:
        log = import_text(col, tmp_path / "progs.txt")
        assert len(log.new) == 1
    finally:
        col.close()


# --- LMS exports and the printed exam -----------------------------------------------------------


def test_the_lms_exports_leave_it_out_and_say_why(question: OutputQuestion) -> None:
    bank = _bank(question)
    concretes = {question.id: Concrete(question, 1)}
    for build in (build_moodle, build_gift):
        exported = build([bank], concretes)
        assert exported.exported == ()
        (skipped,) = exported.skipped
        assert skipped.question_id == "prog-shape"
        assert "checks what the reader's program prints" in skipped.reason
        assert "np.zeros" not in exported.text


def test_the_exam_prints_the_task_and_its_key_the_output_and_the_solution(
    question: OutputQuestion,
) -> None:
    course = Course((_bank(question),), 1, 1, PE)
    (version,) = build_versions(course, [question], seed=1, versions=1)
    (printed,) = version.questions
    assert printed.kind == "output"
    exam, key = render_pages(version, title="Programs")
    assert "4 by 6 table" in exam and "np.zeros" not in exam and "0.841" not in exam
    assert "It prints" in key and "<code>[0.    0.841 0.909]</code>" in key
    assert re.search(r"np</span>.*zeros", key)


# --- recordings: a bank alone never makes a build run code -----------------------------------

#: A solution that would leave a trace if it ran (the kernel's walls stop the write itself,
#: so its failure is what a run would report).
LOUD = "import sys\nprint('ran')\nraise SystemExit('I ran')\n"


def test_without_a_recording_the_solution_is_not_run(tmp_path: Path) -> None:
    path = write(tmp_path, bank_text(LOUD))
    with pytest.raises(BankError) as caught:
        helpers.load_bank(path)  # as a build loads it: no run_programs
    [problem] = caught.value.problems
    assert (problem.line, problem.field) == (7, "solution")
    assert problem.message.startswith("no recorded output: run 'konum check --record'")


def test_a_recording_of_another_solution_stops_the_check(tmp_path: Path) -> None:
    recorded = "    recorded:\n      solution: 0badc0de\n      output: |\n        ran\n"
    path = write(
        tmp_path, bank_text(LOUD).replace("    explanation:", recorded + "    explanation:")
    )
    with pytest.raises(BankError) as caught:
        helpers.load_bank(path)
    [problem] = caught.value.problems
    assert (
        problem.field == "recorded"
        and "recorded from another solution (0badc0de" in problem.message
    )
    assert problem.line == 12


def test_record_then_build_uses_the_recording(tmp_path: Path) -> None:
    from konum.record import record_outputs

    path = write(tmp_path, bank_text())
    assert record_outputs([path], tmp_path) == [str(path)]
    text = path.read_text(encoding="utf-8")
    assert "    recorded:\n      solution: " in text and "        (4, 6)\n" in text
    question = helpers.load_bank(path).questions[0]  # no program runs
    assert isinstance(question, OutputQuestion)
    assert question.expected == "(4, 6)\n[0.    0.841 0.909]"
    assert record_outputs([path], tmp_path) == []  # recorded already: nothing changes

    changed = text.replace("print(PE.shape)", "print(PE.shape[0])")
    path.write_text(changed, encoding="utf-8")
    with pytest.raises(BankError, match="recorded from another solution"):
        helpers.load_bank(path)
    with pytest.raises(BankError, match="the recorded output is not what the solution prints"):
        load_bank(path)  # --run-programs compares


def test_the_site_opts_in_to_running_solutions(tmp_path: Path) -> None:
    from tests.miniproject import konum, make_project

    project = make_project(tmp_path)
    (project / "content" / "banks" / "progs.yml").write_text(bank_text(LOUD), encoding="utf-8")
    quiet = konum(project, "build")
    assert quiet.returncode == 1 and "no recorded output" in quiet.stderr
    assert "I ran" not in quiet.stderr
    config = project / "mkdocs.yml"
    config.write_text(
        config.read_text(encoding="utf-8").replace(
            "      seed: 42\n", "      seed: 42\n      run_programs: true\n"
        )
    )
    loud = konum(project, "build")
    assert loud.returncode == 1 and "the example solution failed" in loud.stderr
    assert "I ran" in loud.stderr and "Traceback" not in loud.stderr
