"""``konum import``: Moodle XML, GIFT and Aiken files as banks that ``konum check`` accepts.

Three kinds of source: konum's own Moodle and GIFT exports of the course and of
``examples/physics`` (which must read back to the same questions: text, options, right
answers, feedback, points), files in the shape of the formats' documentation
(``tests/fixtures/import/``, each construct the documentation shows, written for these
tests), and hostile or broken files, which get one line and change nothing.
"""

from __future__ import annotations

import base64
import html
import io
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from konum import check
from konum.check import load_bank
from konum.load import load_page
from konum.markup import render_markdown
from konum.plugins import load_plugins
from konum.spoken import plain_text
from konum.types import (
    Bank,
    ChoiceQuestion,
    ComputedQuestion,
    FillQuestion,
    MatchingQuestion,
    NumericQuestion,
    Question,
)
from tests.helpers import load_banks
from tests.miniproject import konum
from tests.test_gift import Parse
from tests.test_gift import gift_parse as gift_parse  # the session fixture, shared

REPO = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures" / "import"
PHYSICS = REPO / "examples" / "physics"


def words(markdown: str) -> str:
    """What a reader sees of bank Markdown: its text, math as TeX, spaces collapsed."""
    rendered = str(render_markdown(markdown, math="anki"))
    # Without spaces: highlighted code splits its tokens into spans, plain code does not.
    return "".join(html.unescape(re.sub(r"<[^>]+>", "", rendered)).split())


def imported(tmp_path: Path, kind: str, *sources: Path, name: str = "imported") -> tuple[Bank, str]:
    """``konum import KIND SOURCES`` into ``tmp_path``: the bank (loaded by konum's own
    checker, which must accept it) and what the command wrote on stderr."""
    result = konum(tmp_path, "import", kind, *map(str, sources), "-o", f"{name}.yml")
    assert result.returncode == 0, result.stderr
    return load_bank(tmp_path / f"{name}.yml", project=tmp_path), result.stderr


def _same_choice(original: ChoiceQuestion, back: Question) -> None:
    assert isinstance(back, ChoiceQuestion)
    assert [words(o.text) for o in back.options] == [words(o.text) for o in original.options]
    assert [o.correct for o in back.options] == [o.correct for o in original.options]
    for mine, theirs in zip(original.options, back.options, strict=True):
        if mine.feedback:
            assert words(theirs.feedback or "") == words(mine.feedback)


def _same_fill(original: FillQuestion, back: Question) -> None:
    assert isinstance(back, FillQuestion)
    assert [b.answers for b in back.blanks] == [b.answers for b in original.blanks]
    assert [b.case_sensitive for b in back.blanks] == [b.case_sensitive for b in original.blanks]


def _same_matching(original: MatchingQuestion, back: Question) -> None:
    assert isinstance(back, MatchingQuestion)
    # Right-hand items are plain text in Moodle and GIFT: math in them is written out.
    assert [(words(p.left), plain_text(p.right)) for p in back.pairs] == [
        (words(p.left), plain_text(p.right)) for p in original.pairs
    ]
    assert sorted(map(plain_text, back.distractors)) == sorted(
        map(plain_text, original.distractors)
    )


def _same_numeric(original: NumericQuestion, back: Question) -> None:
    assert isinstance(back, NumericQuestion)
    assert back.answer == pytest.approx(original.answer)
    assert back.tolerance == pytest.approx(original.tolerance or 0.0)


SAME = {
    ChoiceQuestion: _same_choice,
    FillQuestion: _same_fill,
    MatchingQuestion: _same_matching,
    NumericQuestion: _same_numeric,
}


def read_back(originals: tuple[Bank, ...], back: Bank, *, points: bool = True) -> int:
    """Check that every question of ``originals`` of a type both sides hold came back the
    same (prompt, explanation, points and the type's own parts); how many were compared."""
    found = {q.id: q for q in back.questions}
    compared = 0
    for bank in originals:
        for q in bank.questions:
            same = SAME.get(type(q))
            if same is None or q.id not in found:
                continue
            theirs = found[q.id]
            assert words(theirs.prompt) == words(q.prompt), q.id
            assert words(theirs.explanation or "").endswith(words(q.explanation or "")), q.id
            assert theirs.points == q.points or not points, q.id
            same(q, theirs)
            compared += 1
    return compared


@pytest.mark.parametrize("kind", ["moodle", "gift"])
def test_the_physics_examples_exports_read_back(tmp_path: Path, kind: str) -> None:
    export = tmp_path / f"physics.{'xml' if kind == 'moodle' else 'gift'}"
    project = tmp_path / "physics"
    shutil.copytree(PHYSICS, project)
    assert konum(project, "export", kind, "-o", str(export)).returncode == 0
    back, _ = imported(tmp_path, kind, export)
    plugins = load_plugins([str(project / "generators" / "projectile.py")], project)
    originals = check.load_banks(project / "banks", plugins=plugins, project=project)
    # GIFT has no syntax for a question's points.
    assert read_back(originals, back, points=kind == "moodle") >= 3


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["moodle", "gift"])
def test_the_courses_own_exports_read_back(tmp_path: Path, kind: str) -> None:
    """Every question of the course's Moodle export comes back (Cloze as fill-in blanks,
    calculated questions as formula questions), and every question both sides hold is the
    same question."""
    export = tmp_path / f"course.{'xml' if kind == 'moodle' else 'gift'}"
    assert konum(REPO, "export", kind, "-o", str(export)).returncode == 0
    back, stderr = imported(tmp_path, kind, export)
    assert "left out" not in stderr
    originals = load_banks(REPO / "content" / "banks", project=REPO)
    held = sum(type(q) in SAME for b in originals for q in b.questions)
    assert read_back(originals, back, points=kind == "moodle") >= held * 0.8


def _by_id(bank: Bank) -> dict[str, Question]:
    return {q.id: q for q in bank.questions}


def test_moodle_xml_of_every_kind(tmp_path: Path) -> None:
    back, stderr = imported(tmp_path, "moodle", FIXTURES / "moodle-sample.xml", name="chemistry")
    qs = _by_id(back)
    assert back.title == "Basics"
    noble = qs["noble-gas"]
    assert isinstance(noble, ChoiceQuestion) and not noble.multiple
    assert [(o.text, o.correct) for o in noble.options] == [
        ("Argon", True),
        ("Oxygen", False),
        ("Sodium", False),
    ]
    assert noble.points == 2 and noble.prompt == "Which of these is a **noble gas**?"
    assert [h.text for h in noble.all_hints] == ["Look at the last column of the table."]
    metals = qs["metals"]
    assert isinstance(metals, ChoiceQuestion) and metals.multiple and not metals.shuffle
    assert metals.options[2].feedback == "Sulfur is brittle and does not conduct."
    water = qs["water-boils"]
    assert isinstance(water, ChoiceQuestion)
    assert [(o.text, o.correct) for o in water.options] == [("True", True), ("False", False)]
    gold = qs["symbol-of-gold"]
    assert isinstance(gold, FillQuestion)
    assert gold.prompt == "The symbol of gold is ____."
    assert gold.blanks[0].answers == ("Au",) and gold.blanks[0].case_sensitive
    acid = qs["any-acid"]
    assert isinstance(acid, FillQuestion)
    assert re.fullmatch(acid.blanks[0].regex or "", "sulfuric acid")
    assert not re.fullmatch(acid.blanks[0].regex or "", "sulfur")
    mass = qs["avogadro-exponent"]
    assert isinstance(mass, NumericQuestion)
    assert (mass.answer, mass.tolerance, mass.unit) == (18, 0.05, "g/mol")
    assert "$M(\\mathrm{H_2O})$" in mass.prompt
    formulas = qs["formulas"]
    assert isinstance(formulas, MatchingQuestion)
    assert [(p.left, p.right) for p in formulas.pairs] == [
        ("Water", "H2O"),
        ("Salt", "NaCl"),
        ("Ammonia", "NH3"),
    ]
    assert formulas.distractors == ("CO2",)
    gas = qs["ideal-gas"]
    assert isinstance(gas, ComputedQuestion)
    assert gas.formula == "n * 8.314 * T / V" and gas.decimals == 1
    assert "{{ n }} mol of gas at {{ T }} K" in (gas.prompt or "")
    # Approximations are said above the question they concern.
    text = (tmp_path / "chemistry.yml").read_text(encoding="utf-8")
    assert (
        "# imported: 'au' earned 50% in Moodle: here it is not accepted\n  - id: symbol-of-gold"
        in text
    )
    # What konum cannot hold: named, with its line, and not in the bank.
    sample = FIXTURES / "moodle-sample.xml"
    lines = sample.read_text(encoding="utf-8").splitlines()
    left = re.findall(r"moodle-sample\.xml:(\d+): '([^']+)' left out: (.*)", stderr)
    assert [name for _, name, _ in left] == ["Explain bonding", "Read this first", "Same twice"]
    for line, name, _ in left:
        assert "<question" in lines[int(line) - 1] and name not in qs
    assert "essay" in left[0][2] and "duplicate option" in left[2][2]


def test_gift_of_every_kind_as_gift_pegjs_reads_it(tmp_path: Path, gift_parse: Parse) -> None:
    """Each question the GIFT documentation's constructs make is read as gift-pegjs (the
    PEG grammar of GIFT) reads it: the same kind of question and the same right answers."""
    source = FIXTURES / "sample.gift"
    back, stderr = imported(tmp_path, "gift", source, name="geography")
    qs = _by_id(back)
    parsed = gift_parse(source.read_text(encoding="utf-8"))
    theirs = {
        item["title"]: item for item in parsed if item.get("title") and item["type"] != "Category"
    }
    kinds = {
        "MC": ChoiceQuestion,
        "TF": ChoiceQuestion,
        "Short": FillQuestion,
        "Matching": MatchingQuestion,
        "Numerical": NumericQuestion,
    }
    compared = 0
    for title, item in theirs.items():
        qid = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")
        if item["type"] in ("Essay", "Description"):
            assert qid not in qs and f"'{title}' left out" in stderr
            continue
        q = qs[qid]
        assert isinstance(q, kinds[item["type"]]), title
        if isinstance(q, ChoiceQuestion) and item["type"] == "MC":
            rights = [
                plain_text(c["text"]["text"])
                for c in item["choices"]
                if c["isCorrect"] or (c["weight"] or 0) > 0
            ]
            assert [plain_text(o.text) for o in q.options if o.correct] == rights, title
        elif isinstance(q, ChoiceQuestion):
            assert [o.text for o in q.options if o.correct] == [
                "True" if item["isTrue"] else "False"
            ]
        elif isinstance(q, FillQuestion):
            assert list(q.blanks[0].answers) == [c["text"]["text"] for c in item["choices"]]
        elif isinstance(q, MatchingQuestion):
            pairs = [(p["subquestion"]["text"], p["subanswer"]) for p in item["matchPairs"]]
            assert [(p.left, p.right) for p in q.pairs] == [
                (left, right) for left, right in pairs if left
            ]
        elif isinstance(q, NumericQuestion):
            choice: dict[str, Any] = (
                item["choices"] if isinstance(item["choices"], dict) else item["choices"][0]["text"]
            )
            if choice["type"] == "range":
                low, high = choice["number"] - choice["range"], choice["number"] + choice["range"]
            else:
                low, high = choice["numberLow"], choice["numberHigh"]
            assert (q.answer - q.tolerance, q.answer + q.tolerance) == pytest.approx((low, high))
        compared += 1
    assert compared == 9
    assert qs["missing-word"].prompt == "The river … flows through Paris."
    assert isinstance(qs["escapes"], ChoiceQuestion)
    assert qs["escapes"].prompt == "Which sign separates a title: in GIFT?"
    assert qs["escapes"].options[0].text == "::"


def test_aiken(tmp_path: Path) -> None:
    back, stderr = imported(tmp_path, "aiken", FIXTURES / "sample.aiken", name="planets")
    first, second = back.questions
    assert isinstance(first, ChoiceQuestion) and isinstance(second, ChoiceQuestion)
    assert [o.text for o in first.options if o.correct] == ["Mercury"]
    assert [o.text for o in second.options] == ["3", "4", "5", "22"]
    assert (
        "sample.aiken:14: 'A question with no answer line' left out: "
        "its last line is not 'ANSWER: <letter>'" in stderr
    )


BROKEN = {
    "not-xml": ("moodle", "quiz.xml", "<quiz><question>", "not well-formed XML"),
    "not-moodle": ("moodle", "quiz.xml", "<html></html>", "starts with <quiz>, not <html>"),
    "billion-laughs": (
        "moodle",
        "quiz.xml",
        '<?xml version="1.0"?><!DOCTYPE q [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;">]>'
        "<quiz>&b;</quiz>",
        "refused",
    ),
    "external-entity": (
        "moodle",
        "quiz.xml",
        '<?xml version="1.0"?><!DOCTYPE q [<!ENTITY x SYSTEM "file:///etc/passwd">]><quiz>&x;</quiz>',
        "refused",
    ),
    "gift-not-utf8": ("gift", "quiz.gift", b"::a::\xff{=b}", "not UTF-8"),
    "gift-unclosed": ("gift", "quiz.gift", "::a::Question {=b ~c", "never close"),
    "nothing-held": (
        "gift",
        "quiz.gift",
        "::a::Tell me about it.{}",
        "no question could be imported",
    ),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_a_broken_file_gets_one_line_and_writes_nothing(tmp_path: Path, case: str) -> None:
    kind, name, content, said = BROKEN[case]
    source = tmp_path / name
    source.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    result = konum(tmp_path, "import", kind, name, "-o", "bank.yml")
    assert result.returncode == 1
    assert said in result.stderr and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) <= 2
    assert not (tmp_path / "bank.yml").exists()


def test_an_existing_bank_is_kept_unless_forced(tmp_path: Path) -> None:
    shutil.copy(FIXTURES / "sample.aiken", tmp_path / "planets.txt")
    (tmp_path / "planets.yml").write_text("mine\n", encoding="utf-8")
    result = konum(tmp_path, "import", "aiken", "planets.txt")
    assert result.returncode == 1 and "planets.yml exists" in result.stderr
    assert (tmp_path / "planets.yml").read_text(encoding="utf-8") == "mine\n"
    assert konum(tmp_path, "import", "aiken", "planets.txt", "--force").returncode == 0
    assert load_bank(tmp_path / "planets.yml", project=tmp_path).questions


def test_a_dry_run_prints_the_bank_and_writes_nothing(tmp_path: Path) -> None:
    result = konum(tmp_path, "import", "aiken", str(FIXTURES / "sample.aiken"), "--dry-run")
    assert result.returncode == 0 and result.stdout.startswith(
        "# Imported by konum from sample.aiken"
    )
    assert "bank: sample" in result.stdout and not list(tmp_path.iterdir())


def test_a_bank_name_must_be_an_id(tmp_path: Path) -> None:
    result = konum(tmp_path, "import", "aiken", str(FIXTURES / "sample.aiken"), "-o", "My Bank.yml")
    assert result.returncode == 1 and "lowercase words with hyphens" in result.stderr


def test_images_in_moodle_xml_are_written_beside_the_bank(tmp_path: Path) -> None:
    picture = io.BytesIO()
    Image.new("RGB", (8, 8), "teal").save(picture, format="PNG")
    data = picture.getvalue()
    xml = f"""<quiz><question type="truefalse"><name><text>Pictured</text></name>
<questiontext format="html"><text><![CDATA[<p><img src="@@PLUGINFILE@@/cell.png"
alt="A cell"> Is this a cell?</p>]]></text><file name="cell.png" path="/" encoding="base64">
{base64.b64encode(data).decode()}</file></questiontext>
<generalfeedback><text>It is.</text></generalfeedback>
<answer fraction="100"><text>true</text></answer><answer fraction="0"><text>false</text></answer>
</question></quiz>"""
    (tmp_path / "quiz.xml").write_text(xml, encoding="utf-8")
    imported(tmp_path, "moodle", tmp_path / "quiz.xml", name="cells")
    text = (tmp_path / "cells.yml").read_text(encoding="utf-8")
    assert "prompt: '![A cell](images/cell.png) Is this a cell?'" in text
    assert (tmp_path / "images" / "cell.png").read_bytes() == data


SITE = FIXTURES / "mkdocs-quiz-site"


def mkdocs_quiz_site(where: Path) -> Path:
    project = where / "site-project"
    shutil.copytree(SITE, project)
    return project


def page_questions(project: Path, page: str) -> tuple[Question, ...]:
    """The questions written in ``docs/PAGE``, as konum's loader reads them."""
    loaded = load_page(project / "docs" / page, project / "docs")
    assert loaded is not None and loaded.bank is not None and not loaded.problems
    return loaded.bank.questions


def _files(project: Path) -> dict[str, bytes]:
    return {str(p.relative_to(project)): p.read_bytes() for p in project.rglob("*") if p.is_file()}


def test_an_mkdocs_quiz_site_becomes_a_konum_site(tmp_path: Path) -> None:
    project = mkdocs_quiz_site(tmp_path)
    result = konum(project, "import", "mkdocs-quiz", "docs")
    assert result.returncode == 0, result.stderr
    assert "4 quizzes in 2 pages are now konum questions" in result.stderr
    index = (project / "docs" / "index.md").read_text(encoding="utf-8")
    assert "<quiz>\nNot a quiz: it is inside a code block." in index  # code stays code
    assert "mkdocs-quiz" not in index and index.count("/// question\n") == 3
    assert "# imported: the quiz had no content section" not in index.split("/// question")[1]
    assert not (project / "banks").exists()  # the page is the questions' bank
    checked = konum(project, "check")
    assert checked.returncode == 0 and "2 banks, 4 questions: all good" in checked.stdout
    two, primes, capitals = page_questions(project, "index.md")
    assert isinstance(two, ChoiceQuestion) and not two.multiple
    assert [(o.text, o.correct, o.feedback) for o in two.options] == [
        ("4", True, "Yes: two and two make four."),
        ("5", False, "One too many: count again."),
        ("3", False, None),
    ]
    assert two.explanation == "Adding two to two gives **four**."
    assert isinstance(primes, ChoiceQuestion) and primes.multiple
    assert isinstance(capitals, FillQuestion)
    assert capitals.prompt == "The capital of France is ____ and of Italy ____."
    assert [b.answers for b in capitals.blanks] == [("Paris",), ("Rome",)]
    assert capitals.explanation == "Both have been capitals for centuries."
    (sky,) = page_questions(project, "part/sky.md")
    assert isinstance(sky, ChoiceQuestion)
    assert [o.text for o in sky.options if o.correct] == ["Blue"]
    config = (project / "mkdocs.yml").read_text(encoding="utf-8")
    assert config.startswith("# A small site written for mkdocs-quiz")  # comments kept
    assert "mkdocs_quiz" not in config and "markdown_extensions:\n  - konum\n" in config


def test_a_dry_run_shows_the_changes_and_makes_none(tmp_path: Path) -> None:
    project = mkdocs_quiz_site(tmp_path)
    before = _files(project)
    result = konum(project, "import", "mkdocs-quiz", "docs", "--dry-run")
    assert result.returncode == 0, result.stderr
    assert "+++ docs/index.md" in result.stdout and "-<quiz>" in result.stdout
    assert "+/// question" in result.stdout
    assert "-  - mkdocs_quiz" in result.stdout
    assert _files(project) == before


def test_one_quiz_that_cannot_be_converted_changes_nothing(tmp_path: Path) -> None:
    project = mkdocs_quiz_site(tmp_path)
    broken = project / "docs" / "broken.md"
    broken.write_text("# Broken\n\n<quiz>\nWhich?\n- [ ] a\n- [ ] b\n</quiz>\n", encoding="utf-8")
    before = _files(project)
    result = konum(project, "import", "mkdocs-quiz", "docs")
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "nothing was changed" in result.stderr
    assert (
        "1 quiz cannot be converted: docs/broken.md:3: no answer is marked right" in result.stderr
    )
    assert _files(project) == before
