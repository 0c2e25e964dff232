"""GIFT export, read back with gift-pegjs and compared question by question with konum's.

No GIFT parser from PyPI installs beside konum (see tests/gift/package.json's commit), so
the tests read the export with gift-pegjs, the PEG grammar of GIFT, installed from the
npm registry into a temporary folder once per session and run with Node.js.
"""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from konum import model
from konum.build import read_site_config
from konum.course import Course, course_for
from konum.exports.gift import build_gift
from konum.formatting import BLANK
from konum.lms import escape
from konum.markup import render_markdown
from konum.spoken import plain_text
from konum.types import (
    Bank,
    Blank,
    ChoiceQuestion,
    ComputedQuestion,
    Concrete,
    FillQuestion,
    MatchingQuestion,
    NumericQuestion,
    Option,
    OrderingQuestion,
    OutputQuestion,
    Pair,
    Question,
)
from tests.helpers import make_concrete
from tests.miniproject import konum
from tests.nodetools import node_tool

REPO = Path(__file__).resolve().parent.parent
PHYSICS = REPO / "examples" / "physics"
READER = Path(__file__).resolve().parent / "gift"
SRC = model.Source("demo.yml", 1, 1)

Parse = Callable[[str], list[dict[str, Any]]]


@pytest.fixture(scope="session")
def gift_parse(tmp_path_factory: pytest.TempPathFactory) -> Parse:
    """gift-pegjs's ``parse``, through ``node tests/gift/read.js``."""
    folder = tmp_path_factory.mktemp("gift-reader")
    node = node_tool(READER, ("read.js",), folder)

    def parse(text: str) -> list[dict[str, Any]]:
        result = subprocess.run(
            [node, str(folder / "read.js")],
            input=text,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert result.returncode == 0, result.stderr
        return json.loads(result.stdout)

    return parse


def html_of(text: str, *, inline: bool = False) -> str:
    return render_markdown(text, inline=inline, math="anki").strip()


def by_title(parsed: list[dict[str, Any]]) -> dict[str, tuple[str, dict[str, Any]]]:
    """Questions by title, each with the category it was read in."""
    found: dict[str, tuple[str, dict[str, Any]]] = {}
    category = ""
    for item in parsed:
        if item["type"] == "Category":
            category = item["title"]
            continue
        assert item["title"] not in found
        found[item["title"]] = (category, item)
    return found


#: gift-pegjs leaves the placeholders of Moodle's ``escapedchar_pre`` in a matching answer;
#: Moodle's importer turns them back (``escapedchar_post``), as this table does.
MOODLE_PLACEHOLDERS = {"&&058;": ":", "&&035;": "#", "&&061;": "=", "&&123;": "{"}
MOODLE_PLACEHOLDERS |= {"&&125;": "}", "&&126;": "~", "&&092;": "\\"}


def moodle_post(text: str) -> str:
    for placeholder, char in MOODLE_PLACEHOLDERS.items():
        text = text.replace(placeholder, char)
    return text


def text_of(part: dict[str, Any] | None) -> str:
    """A part's text; a leading ``&#91;`` (how the export keeps a ``[`` from being read as
    a format) as the ``[`` a browser shows."""
    text = "" if part is None else str(part["text"])
    return "[" + text[5:] if text.startswith("&#91;") else text


def _gift_cannot(q: Question) -> bool:
    if q.figure is not None or "konum-image/" in repr(q) or isinstance(q, OutputQuestion):
        return True
    if isinstance(q, ChoiceQuestion):
        return not q.shuffle or any(o.pin for o in q.options)
    if isinstance(q, FillQuestion):
        blank = q.blanks[0]
        return (
            len(q.blanks) != 1
            or blank.regex is not None
            or blank.case_sensitive
            or any(a.startswith("[") for a in blank.answers)
        )
    if isinstance(q, MatchingQuestion):
        return len(q.pairs) + len(q.distractors) < 3
    return isinstance(q, OrderingQuestion)


def expected_skips(course: Course) -> set[str]:
    """What GIFT cannot say, decided from the model."""
    return {q.id for bank in course.banks for q in bank.questions if _gift_cannot(q)}


def check_question(q: Question, item: dict[str, Any]) -> None:
    explanation = html_of(q.explanation) if q.explanation.strip() else ""
    if isinstance(q, ChoiceQuestion):
        assert item["type"] == "MC"
        assert item["stem"] == {"format": "html", "text": html_of(q.prompt)}
        right = sum(o.correct for o in q.options)
        assert len(item["choices"]) == len(q.options)
        for option, choice in zip(q.options, item["choices"], strict=True):
            assert text_of(choice["text"]) == html_of(option.text, inline=True)
            assert text_of(choice["feedback"]) == (
                html_of(option.feedback) if option.feedback else ""
            )
            if not q.multiple:
                assert choice["isCorrect"] == option.correct and choice["weight"] is None
            elif option.correct:
                assert choice["weight"] == pytest.approx(100 / right, abs=1e-4)
            else:
                assert choice["weight"] == pytest.approx(-100 / right, abs=1e-4)  # the site's
                assert choice["weight"] >= -100
    elif isinstance(q, FillQuestion):
        assert item["type"] == "Short"
        # Moodle puts "_____" where the answers were; gift-pegjs also spaces it off.
        token = "KONUMBLANK0X"
        expected = re.sub(r"\s*" + token + r"\s*", token, html_of(BLANK.sub(token, q.prompt)))
        assert item["stem"]["text"].replace(" _____ ", token) == expected
        answers = [c["text"]["text"] for c in item["choices"]]
        assert answers == [a.replace("*", "\\*") for a in q.blanks[0].answers]
        assert all(c["isCorrect"] for c in item["choices"])
    elif isinstance(q, MatchingQuestion):
        assert item["type"] == "Matching"
        pairs = [
            (p["subquestion"]["text"], moodle_post(p["subanswer"])) for p in item["matchPairs"]
        ]
        expected = [(html_of(p.left, inline=True), plain_text(p.right)) for p in q.pairs]
        assert pairs == expected + [("", plain_text(d)) for d in q.distractors]
    elif isinstance(q, NumericQuestion):
        assert item["type"] == "Numerical"
        tolerance = abs(q.answer) * q.tolerance if q.relative else q.tolerance
        assert item["choices"]["number"] == q.answer
        assert item["choices"]["range"] == pytest.approx(tolerance, rel=1e-12, abs=0)
    assert text_of(item["globalFeedback"]) == explanation


def check_variants(
    q: ComputedQuestion, concrete: Concrete, found: dict[str, Any], path: str
) -> None:
    explanation = html_of(q.explanation) if q.explanation.strip() else ""
    for variant in concrete.variants:
        category, item = found[f"{q.id} #{variant.index + 1}"]
        assert category == path
        # A numeric form's unit follows the answer, so Moodle shows it after the blank.
        after = f" _____ {html_of(variant.unit, inline=True)}" if variant.unit else ""
        stem = html_of(variant.prompt) + ("" if variant.options else after)
        assert item["stem"]["text"] == stem
        solution = f"<p><strong>Worked solution</strong></p>{html_of(variant.solution)}"
        assert text_of(item["globalFeedback"]) == solution + explanation
        if variant.options:
            assert item["type"] == "MC"
            got = [
                (c["text"]["text"], c["isCorrect"], text_of(c["feedback"])) for c in item["choices"]
            ]
            assert got == [
                (html_of(o.text, inline=True), o.correct, html_of(o.feedback) if o.feedback else "")
                for o in variant.options
            ]
        else:
            assert item["type"] == "Numerical"
            assert item["choices"]["number"] == variant.answer
            assert item["choices"]["range"] == variant.tolerance


def check_course(course: Course, deck: str, gift_parse: Parse) -> None:
    export = build_gift(course.banks, {c.question.id: c for c in course.concretes()}, deck=deck)
    found = by_title(gift_parse(export.text))
    skips = expected_skips(course)
    assert {s.question_id for s in export.skipped} == skips
    for bank in course.banks:
        for q in bank.questions:
            if q.id in skips:
                assert q.id not in found and f"{q.id} #1" not in found
                continue
            concrete = course.concrete(q)
            if isinstance(q, ComputedQuestion):
                path = f"$course$/top/{deck}/{bank.title}/{q.id}"
                check_variants(q, concrete, found, path)
                continue
            category, item = found[q.id]
            assert category == f"$course$/top/{deck}/{bank.title}"
            check_question(q, item)


@pytest.mark.external
def test_physics_reads_back(gift_parse: Parse) -> None:
    settings = read_site_config(PHYSICS / "mkdocs.yml")
    check_course(course_for(settings.options), settings.deck, gift_parse)


@pytest.mark.external
def test_own_course_reads_back(gift_parse: Parse) -> None:
    settings = read_site_config(REPO / "mkdocs.yml")
    course = course_for(settings.options)
    assert len(expected_skips(course)) > 5
    check_course(course, settings.deck, gift_parse)


@pytest.mark.external
def test_special_characters_survive(gift_parse: Parse) -> None:
    tricky = "a ~ b = c # d {e} f: g \\ h -> i % j `k::l` $\\frac{1}{2}$"
    questions: tuple[Question, ...] = (
        ChoiceQuestion(
            id="tricky-choice",
            bank="demo",
            prompt=f"{tricky}\n\n```python\nx = {{1: 2}}  # ~\n\n\ny\n```",
            explanation=tricky,
            source=SRC,
            options=(
                Option(tricky, True, feedback=tricky),
                Option("%50% not a weight", True),
                Option("= ~ #", False, feedback="#"),
                Option("[plain] not a format", False),
            ),
        ),
        FillQuestion(
            id="tricky-fill",
            bank="demo",
            prompt=f"{tricky} ____ {tricky}",
            explanation="",
            source=SRC,
            blanks=(Blank(("a=b", "c~d", "e#f", "g{h}", "i:j", "2*3")),),
        ),
        MatchingQuestion(
            id="tricky-match",
            bank="demo",
            prompt=tricky,
            explanation=tricky,
            source=SRC,
            pairs=(Pair("x -> y", "= ~ # {} :"), Pair(tricky, "p -> q")),
            distractors=("\\ backslash",),
        ),
        NumericQuestion(
            id="tricky-number",
            bank="demo",
            prompt=tricky,
            explanation="",
            source=SRC,
            answer=-0.000125,
            tolerance=0.00001,
        ),
    )
    bank = Bank("demo", "Demo: a/b", "demo.yml", questions)
    concretes = {q.id: make_concrete(q, 1) for q in questions}
    export = build_gift([bank], concretes, deck="Course")
    assert export.skipped == ()
    parsed = gift_parse(export.text)
    assert parsed[0] == {"type": "Category", "title": "$course$/top/Course/Demo: a//b"}
    found = by_title(parsed)
    for q in questions:
        check_question(q, found[q.id][1])


def test_an_answer_that_looks_like_a_format_is_left_out() -> None:
    q = FillQuestion(
        id="list-fill",
        bank="demo",
        prompt="The list: ____",
        explanation="",
        source=SRC,
        blanks=(Blank(("[1, 2]",)),),
    )
    bank = Bank("demo", "Demo", "demo.yml", (q,))
    export = build_gift([bank], {q.id: make_concrete(q, 1)})
    assert [s.question_id for s in export.skipped] == ["list-fill"]
    assert "list-fill" not in export.text


def test_escape_follows_moodle() -> None:
    assert escape("a\\b~c=d#e{f}g:h\ni\rj") == "a\\\\b\\~c\\=d\\#e\\{f\\}g\\:h\\nij"


def test_cli_lists_the_questions_left_out(tmp_path: Path) -> None:
    out = tmp_path / "own.txt"
    result = konum(REPO, "export", "gift", "-o", str(out))
    assert result.returncode == 0, result.stderr
    course = course_for(read_site_config(REPO / "mkdocs.yml").options)
    skips = expected_skips(course)
    lines = result.stderr.splitlines()
    assert (
        lines[0]
        == f"konum: {len(skips)} questions left out of the GIFT export (not expressible there):"
    )
    assert {line.split()[0] for line in lines[1:]} == skips
    assert "GIFT holds one blank per question, found 3" in result.stderr
    assert "it has a figure" in result.stderr
    assert out.read_text(encoding="utf-8").startswith("$CATEGORY: $course$/top/")
    assert (
        f"konum: wrote {course.questions - len(skips)} of {course.questions} questions"
        in result.stdout
    )


def test_ordering_questions_are_left_out() -> None:
    q = OrderingQuestion(
        id="order-steps", bank="demo", prompt="Order.", explanation="", source=SRC,
        items=("a", "b", "c"),
    )  # fmt: skip
    bank = Bank("demo", "Demo", "demo.yml", (q,))
    export = build_gift([bank], {q.id: make_concrete(q, 1)})
    assert [s.question_id for s in export.skipped] == ["order-steps"]
    assert export.skipped[0].reason == "GIFT has no ordering questions"
