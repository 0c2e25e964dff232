"""``konum quiz``: a bank of every type taken from stdin, in English and Turkish, and built
pages of the course read back (a file, and a URL), graded as quiz.js grades them.

The right answers come from the code (the concrete questions of the bank for its seed; the
sealed data of the page, unsealed with konum.seal), the expected words from the catalogues.
"""

from __future__ import annotations

import http.server
import io
import json
import re
import threading
from pathlib import Path
from textwrap import indent

import pytest
from lxml import html as lxml_html

from konum.build import read_site_config
from konum.course import load_course
from konum.formatting import format_number
from konum.messages import message
from konum.seal import unseal
from konum.types.base import letter
from konum.types.numeric import read_number
from konum.types.output import solution_hash
from tests.miniproject import konum

SOLUTION = "for n in range(1, 4):\n    print(n, n * n)\n"
PRINTED = "1 1\n2 4\n3 9"
_SOLUTION_BLOCK, _PRINTED_BLOCK = indent(SOLUTION, " " * 6), indent(PRINTED + "\n", " " * 8)
BANK = f"""\
bank: every
title: Every type
questions:
  - id: pick
    type: choice
    explanation: Explained.
    prompt: Which planet is the largest?
    options:
      - text: Jupiter
        correct: true
      - text: Mars
        feedback: Mars is about half the size of the Earth.
      - text: Venus
  - id: several
    type: choice
    explanation: Explained.
    points: 2
    prompt: Which of these are prime?
    options:
      - {{text: "2", correct: true}}
      - {{text: "3", correct: true}}
      - {{text: "4"}}
      - {{text: "9"}}
  - id: blanks
    type: fill
    explanation: Explained.
    prompt: The capital of France is ____ and that of Italy is ____.
    blanks:
      - answers: [Paris]
      - answers: [Rome]
  - id: pairs
    type: matching
    explanation: Explained.
    prompt: Match each quantity to its unit.
    pairs:
      - {{left: force, right: newton}}
      - {{left: energy, right: joule}}
      - {{left: power, right: watt}}
    distractors: [pascal]
  - id: steps
    type: ordering
    explanation: Explained.
    prompt: Put the steps in order.
    items: [Measure, Cut, Sand, Paint]
  - id: quarter
    type: numeric
    prompt: What is a quarter turn in radians, to 2 decimals?
    answer: 1.5708
    tolerance: 0.005
    decimals: 2
    attempts: 2
    hints:
      - {{text: A full turn is two pi., cost: 0.25}}
      - {{text: Divide by four., cost: 0.5}}
    explanation: A full turn is 2π radians.
  - id: force
    type: computed
    explanation: Explained.
    formula: "m * a"
    params: {{m: {{min: 2, max: 9}}, a: {{min: 1, max: 5}}}}
    prompt: "A {{{{ m }}}} kg cart accelerates at {{{{ a }}}} m/s². What net force acts on it?"
    unit: N
  - id: prints
    type: output
    explanation: Explained.
    prompt: Print 1 to 3 and their squares.
    solution: |
{_SOLUTION_BLOCK}    recorded:
      solution: {solution_hash(SOLUTION)}
      output: |
{_PRINTED_BLOCK}"""

CONFIG = """\
site_name: Terminal quiz
docs_dir: docs
markdown_extensions:
  - konum:
      banks: banks
      seed: 7
      variants: 3
      language: {language}
"""


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("terminal")
    (root / "docs").mkdir()
    (root / "docs" / "index.md").write_text("# Terminal quiz\n", encoding="utf-8")
    (root / "banks").mkdir()
    (root / "banks" / "every.yml").write_text(BANK, encoding="utf-8")
    for name, language in (("mkdocs.yml", "en"), ("mkdocs.tr.yml", "tr")):
        (root / name).write_text(CONFIG.format(language=language), encoding="utf-8")
    return root


def _quiz(project: Path, monkeypatch: pytest.MonkeyPatch, lines: list[str], *args: str) -> str:
    typed = "".join(f"{line}\n" for line in lines).encode("utf-8")
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(typed), encoding="utf-8"))
    result = konum(project, "quiz", *args)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def _after(out: str, line: str) -> str:
    """What the quiz wrote after the answer line ``line`` was echoed behind its prompt
    (``> ``, or a blank's ``[2] > ``), up to the next prompt."""
    found = re.split(rf"> {re.escape(line)}\n", out, maxsplit=1)
    assert len(found) == 2, f"{line!r} was not asked for"
    return found[1].split("\n> ", 1)[0]


@pytest.mark.parametrize("language", ["en", "tr"])
def test_a_bank_of_every_type_from_stdin(
    project: Path, monkeypatch: pytest.MonkeyPatch, language: str
) -> None:
    config = "mkdocs.yml" if language == "en" else "mkdocs.tr.yml"
    course = load_course(read_site_config(project / config).options)
    bank = course.by_id["every"]
    c = {q.id: course.concrete(q) for q in bank.questions}

    def say(key: str, **fields: object) -> str:
        return message(language, key, **fields)

    def number(x: float) -> str:
        return format_number(x, language=language)

    def shown(qid: str, index: int) -> int:  # an option's number on screen
        return c[qid].option_order.index(index) + 1

    words = {name: say(f"terminal.{name}") for name in ("hint", "show", "new")}
    wrong_pick, right_pick = shown("pick", 1), shown("pick", 0)
    matched = " ".join(f"{i + 1}={letter(c['pairs'].right_items.index(p.right)).lower()}"
                       for i, p in enumerate(c["pairs"].question.pairs))  # fmt: skip
    order = " ".join(str(c["steps"].item_order.index(p) + 1) for p in range(4))
    quarter = c["quarter"].question.answer
    other_mark = "1.57" if language == "tr" else "1,57"  # the other convention's decimal mark
    variants = c["force"].variants
    lines = [
        str(wrong_pick),
        letter(right_pick - 1).lower(),
        str(shown("several", 0)),
        "skip",
        "Paris",
        "Rome",
        matched,
        order,
        words["hint"],
        other_mark,
        number(quarter + 1),
        number(round(quarter, 2)),
        words["show"],
        words["new"],
        number(variants[1].answer),
        "show",  # the English command word works in every language
        *PRINTED.splitlines(),
        "",
    ]
    out = _quiz(project, monkeypatch, lines, "every", "-f", config)

    assert say("quiz.question_number", number=1, total=8) in out
    # A wrong pick: its note, no answer; the right one by its letter.
    after_wrong = _after(out, str(wrong_pick))
    assert say("quiz.wrong_noted") in after_wrong and "half the size" in after_wrong
    assert say("quiz.answer") not in after_wrong
    assert say("quiz.correct") in _after(out, letter(right_pick - 1).lower())
    # Half of a multiple choice: partial credit, told.
    credit = say("quiz.credit", score=1, n=2)
    missing = say("quiz.wrong_parts", parts=say("quiz.options_missing", n=1))
    assert missing + credit in _after(out, str(shown("several", 0)))
    assert say("quiz.correct") in _after(out, "Rome")
    assert say("quiz.match_all", n=3) in _after(out, matched)
    assert say("quiz.order_all", n=4) in _after(out, order)
    # A hint, a number in the other convention (asked back), a wrong try, then right.
    assert say("quiz.hint_costs", label=words["hint"], n=number(0.25)) in out
    assert "two pi" in _after(out, words["hint"])
    asked = _after(out, other_mark)
    assert say("quiz.number_ask", typed=other_mark, value=number(1.57)) in asked
    too_high = _after(out, number(quarter + 1))
    assert say("quiz.too_high", value=number(quarter + 1)) in too_high
    assert say("quiz.attempts_left", n=1) in too_high and "2π" not in too_high
    right_after_hint = _after(out, number(round(quarter, 2)))
    assert "2π" in right_after_hint
    # Right after a hint costing a quarter: the feedback says what the check earns.
    assert say("quiz.correct") + say("quiz.credit", score=number(0.75), n=1) in right_after_hint
    # Computed: the answer shown, then new numbers, answered right: full credit.
    assert variants[0].shown_answer.replace(".", "," if language == "tr" else ".") in _after(
        out, words["show"]
    )
    assert str(variants[1].values["m"]) in _after(out, words["new"])
    assert say("quiz.correct") in _after(out, number(variants[1].answer))
    # The output shown first: right, but no points.
    assert say("quiz.right_after_reveal") in out.rsplit("3 9\n", 1)[1]
    # 1 + 1 (half of 2) + 1 + 1 + 1 + 0.75 (a quarter for the hint) + 1 + 0, of 9.
    total = say("quiz.score_points", score=number(6.75), total=9)
    assert total + say("quiz.score_hints", cost=number(0.25)) in out


def test_quit_and_the_end_of_input_end_with_the_score(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = _quiz(project, monkeypatch, ["quit"], "every")
    assert out.rstrip().endswith(message("en", "quiz.score_points", score=0, total=9))
    out = _quiz(project, monkeypatch, ["7"], "every")
    assert message("en", "terminal.no_option", value="7", n=3, last="c") in out


@pytest.mark.parametrize(
    ("language", "typed", "read"),
    [
        ("en", ["0.84", ".84", "8.4e-1", "−2", "–3", "-.5", "1E3", "1,000.5", "1 000", "2e−3"],
         [0.84, 0.84, 0.84, -2, -3, -0.5, 1000, 1000.5, 1000, 0.002]),
        ("tr", ["2.048", "1.024,5", "−0,5", "0,5"], [2048, 1024.5, -0.5, 0.5]),
    ],
)  # fmt: skip
def test_numbers_are_read_as_quiz_js_reads_them(
    language: str, typed: list[str], read: list[float]
) -> None:
    """The cases the browser tests give quiz.js's readNumber, read by its Python port."""
    assert [read_number(t, language)[0] for t in typed] == pytest.approx(read)
    for bad in ["", "abc", "1.2.3", "e5", "--1", "0x10", "1/2"]:
        assert read_number(bad, language) == (None, None), bad
    other = "0.5" if language == "tr" else "0,5"  # the other convention: asked back
    assert read_number(other, language) == (None, 0.5)


def test_an_unknown_bank_gets_one_clear_line(project: Path) -> None:
    result = konum(project, "quiz", "evry")
    assert result.returncode == 1
    assert result.stderr.strip() == "konum: no bank 'evry'; did you mean 'every'? (banks: every)"


def _sealed_number(page: Path, fraction: bool = False) -> tuple[int, str, str]:
    """The first question of the page's first quiz whose answer is a sealed interval (with
    ``fraction``, one that is not a whole number): its place in the quiz, its right answer
    (the middle of the interval, written the page's way) and the page's language."""
    tree = lxml_html.parse(str(page)).getroot()
    quiz = tree.xpath("//*[@data-konum-quiz]")[0]
    language = tree.get("lang")
    for place, question in enumerate(quiz.xpath("./*[@data-question-id]")):
        data = json.loads(question.xpath(".//script[@class='konum-data']")[0].text)
        spec = data["variants"][0] if "variants" in data else data
        if "interval" in spec:
            salt = data["salt"] + ("\x1f0" if "variants" in data else "")  # variant 0's
            low, high = json.loads(unseal(salt, spec["interval"]))
            middle = (low + high) / 2
            if not fraction or not middle.is_integer():
                return place, format_number(middle, language=language), language
    raise AssertionError(f"{page}: no sealed number in the first quiz")


def test_a_built_page_of_the_course_read_back(
    built_site: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    page = sorted((built_site / "lessons").glob("*.html"))[1]
    place, answer, language = _sealed_number(page)
    out = _quiz(tmp_path, monkeypatch, ["skip"] * place + [answer, "quit"], str(page))
    assert message(language, "quiz.correct") in _after(out, answer)

    # The Turkish edition, from a URL: its words and its decimal comma.
    turkish = sorted((built_site / "tr" / "lessons").glob("*.html"))[1]
    place, answer, language = _sealed_number(turkish, fraction=True)
    assert language == "tr" and "," in answer

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), lambda *a: Quiet(*a, directory=str(built_site))
    )
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_port}/{turkish.relative_to(built_site)}"
        out = _quiz(tmp_path, monkeypatch, ["skip"] * place + [answer, "quit"], url)
    finally:
        server.shutdown()
        server.server_close()
    assert message("tr", "quiz.correct") in _after(out, answer)
    assert message("tr", "terminal.answer_text") in out
