"""The course's questions test what they say, and the source lesson's pieces are all there.

Computed questions are checked over many site seeds with konum's own loaders
(:func:`konum.check.load_banks`, :func:`konum.types.Question.concrete`): a question whose drawn
answers are all the same teaches one number, not a method; a choice question whose options
collapse (or differ only in the last digit shown) tests rounding, not the idea.
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import pairwise
from pathlib import Path

import pytest
from test_lesson_code import fenced_blocks, rendered

from konum.computed.variants import MIN_RELATIVE_GAP
from konum.types import (
    Bank,
    ChoiceQuestion,
    ComputedQuestion,
    FillQuestion,
    MatchingQuestion,
    OutputQuestion,
    Question,
)
from tests.helpers import load_banks, make_concrete

REPO = Path(__file__).resolve().parent.parent
LESSONS = REPO / "content" / "lessons"
SEEDS = range(40)
QUIZ = re.compile(r"^/// quiz \| (?P<bank>[\w-]+)\s*$", re.MULTILINE)


@lru_cache(maxsize=1)
def _banks() -> tuple[Bank, ...]:
    return tuple(load_banks(REPO / "content" / "banks"))


def _computed() -> list[ComputedQuestion]:
    return [q for b in _banks() for q in b.questions if isinstance(q, ComputedQuestion)]


def _questions_on(lesson: str) -> list[Question]:
    """The questions of every bank that the lesson page ``lesson`` shows in a quiz."""
    text = (LESSONS / lesson).read_text(encoding="utf-8")
    shown = set(QUIZ.findall(text))
    assert shown, f"{lesson} shows no quiz"
    return [q for b in _banks() if b.id in shown for q in b.questions]


@pytest.mark.parametrize("question", _computed(), ids=lambda q: q.id)
def test_a_computed_question_does_not_always_draw_the_same_answer(
    question: ComputedQuestion,
) -> None:
    answers = {v.shown_answer for seed in SEEDS for v in make_concrete(question, seed).variants}
    assert len(answers) > 1, f"{question.id}: every variant answers {answers}"


@pytest.mark.parametrize(
    "question", [q for q in _computed() if q.answer == "choice"], ids=lambda q: q.id
)
def test_computed_options_stay_distinct_beyond_rounding(question: ComputedQuestion) -> None:
    """As many options as asked, one correct, no two showing the same number, and (with
    decimals) no two within one unit of the last decimal or 2 % of each other: 0.9998 /
    0.9999 / 1.0000 asks the reader to round, not to know."""
    for seed in SEEDS:
        for v in make_concrete(question, seed).variants:
            texts = [o.text for o in v.options]
            where = f"{question.id}, seed {seed}, variant {v.index}: options {texts}"
            assert len(texts) == question.options, where
            assert len(set(texts)) == len(texts), where
            assert sum(o.correct for o in v.options) == 1, where
            if v.decimals:
                values = sorted(float(t.split("\u00a0")[0]) for t in texts)
                for a, b in pairwise(values):
                    assert b - a > 1.5 * 10.0**-v.decimals, where
                    assert b - a >= 0.999 * MIN_RELATIVE_GAP * max(abs(a), abs(b)), where


def test_the_position_0_question_draws_position_0() -> None:
    [question] = [q for q in _computed() if q.id == "learned-pos0-entry"]
    drawn = {v.values["pos"] for seed in SEEDS for v in make_concrete(question, seed).variants}
    assert 0 in drawn and len(drawn) > 1


# --- the source lesson, in the course ---------------------------------------------------------


def test_the_cat_and_dog_question_is_asked_in_lesson_1() -> None:
    [question] = [
        q
        for q in _questions_on("01-why-position.md")
        if "cat chased dog" in q.prompt and "dog chased cat" in q.prompt
    ]
    assert isinstance(question, ChoiceQuestion)
    [right] = [o.text for o in question.options if o.correct]
    assert "order" in right and "same" in right
    assert len(question.options) == 4


def test_the_even_columns_fill_in_is_asked_in_lesson_2() -> None:
    fills = [q for q in _questions_on("02-sinusoidal.md") if isinstance(q, FillQuestion)]
    [question] = [q for q in fills if "PE[:, 0::____] = np.sin(" in q.prompt]
    assert question.blanks[0].answers[0] == "2"


def test_the_four_pair_matching_with_rope_is_asked_in_lesson_5() -> None:
    matchings = [q for q in _questions_on("05-rope.md") if isinstance(q, MatchingQuestion)]
    [question] = [q for q in matchings if any(p.left == "RoPE" for p in q.pairs)]
    pairs = {p.left: p.right for p in question.pairs}
    assert len(pairs) == 4
    assert pairs["RoPE"] == "Relative position"
    assert pairs["Low dimension"] == "Fast oscillation"
    assert {"`PE[0, 0::2]`", "`PE[0, 1::2]`"} <= set(pairs)


def test_lesson_2_sets_the_source_exercise_with_its_four_printed_lines() -> None:
    """Shape, first row, second row rounded to three decimals, and the two np.allclose checks
    (equivariant without the encoding, not with it) on one line; in a collapsible solution."""
    blocks = fenced_blocks(rendered(LESSONS / "02-sinusoidal.md"))
    solutions = [b for b in blocks if b.standalone and b.output and "np.round(PE[1], 3)" in b.code]
    assert solutions, "no example solution prints np.round(PE[1], 3)"
    lines = solutions[0].output.strip().split("\n")  # type: ignore[union-attr]
    assert len(lines) == 4
    assert lines[0] == "(4, 6)" and lines[3].split() == ["True", "False"]


def test_lesson_2_exercise_checks_itself_as_an_output_question() -> None:
    """The last question of lesson 2's quiz runs the page's own example solution: the same
    code, and as many printed lines as the page shows."""
    [question] = [q for q in _questions_on("02-sinusoidal.md") if isinstance(q, OutputQuestion)]
    assert question is _questions_on("02-sinusoidal.md")[-1]
    blocks = fenced_blocks(rendered(LESSONS / "02-sinusoidal.md"))
    [solution] = [b for b in blocks if b.standalone and b.output and "np.round(PE[1], 3)" in b.code]
    assert question.solution.strip() == solution.code.strip()
    shown = solution.output.strip().split("\n")  # type: ignore[union-attr]
    assert len(question.expected.split("\n")) == len(shown) == 4
    assert question.expected.split("\n")[0] == shown[0] == "(4, 6)"
    assert question.expected.split("\n")[3] == shown[3] == "True False"


def test_a_worked_sentence_counts_positions_from_0() -> None:
    text = (LESSONS / "01-why-position.md").read_text(encoding="utf-8")
    assert "| position | 0 | 1 | 2 | 3 | 4 |" in text
    assert "counts positions from 0" in text


@pytest.mark.parametrize("lesson", sorted(LESSONS.glob("*.md")), ids=lambda p: p.stem)
def test_every_lesson_ends_with_further_reading(lesson: Path) -> None:
    text = lesson.read_text(encoding="utf-8")
    assert "\n## Further reading\n" in text, lesson.name
    reading = text.split("\n## Further reading\n", 1)[1].split("\n## ", 1)[0]
    entries = [line for line in reading.split("\n") if line.startswith("- ")]
    assert len(entries) >= 3, f"{lesson.name}: {len(entries)} entries"
    assert all(re.search(r"\(\d{4}\)", e) or "`" in e for e in entries), lesson.name


@pytest.mark.parametrize(
    ("lesson", "count"), [("02-sinusoidal.md", 1), ("04-relative.md", 1), ("05-rope.md", 1)]
)
def test_lessons_where_a_sequence_is_the_point_ask_for_an_order(lesson: str, count: int) -> None:
    from konum.types import OrderingQuestion

    found = [q for q in _questions_on(lesson) if isinstance(q, OrderingQuestion)]
    assert len(found) == count and all(len(q.items) >= 4 and q.hints for q in found)


def test_the_t5_bucket_order_is_the_cores() -> None:
    """The offsets of the bucket-ordering question are in the order pe.t5_bucket gives."""
    from konum.types import OrderingQuestion
    from konum_pe import pe

    [question] = [q for q in _questions_on("04-relative.md") if isinstance(q, OrderingQuestion)]
    offsets = [int(item.strip("$").replace("+", "")) for item in question.items]
    buckets = [pe.t5_bucket(offset) for offset in offsets]
    assert buckets == sorted(buckets) and len(set(buckets)) == len(buckets)
