"""The bank format as data: which fields each part of a bank has (limits: :mod:`konum.limits`).

Kept apart from the validator so the documentation page, the validator and the tests agree
on one list. Field names are listed in the order the authoring page presents them.
"""

from __future__ import annotations

import re

from konum.formatting import SLUG as SLUG  # the id rule, re-exported for the loader
from konum.model import QUESTION_TYPES, QuestionType

BANK_FIELDS = ("bank", "title", "questions", "flashcards")
COMMON_FIELDS = (
    "id",
    "type",
    "prompt",
    "explanation",
    "hint",
    "hints",
    "points",
    "attempts",
    "tags",
    "difficulty",
    "flashcard",
    "figure",
)
FIGURE_FIELDS = ("name", "alt", "caption", "params")
TYPE_FIELDS: dict[QuestionType, tuple[str, ...]] = {
    "choice": ("options", "shuffle"),
    "fill": ("blanks",),
    "matching": ("pairs", "distractors", "shuffle"),
    "numeric": ("answer", "tolerance", "relative_tolerance", "decimals", "unit"),
    "computed": (
        "generator",
        "formula",
        "params",
        "answer",
        "options",
        "decimals",
        "misconceptions",
        "unit",
        "tolerance",
    ),
    "output": ("solution", "tolerance"),
    "ordering": ("items",),
}
#: The fields only a formula question (``formula:`` instead of ``generator:``) has.
FORMULA_ONLY_FIELDS = ("misconceptions", "unit", "tolerance")
MISCONCEPTION_FIELDS = ("formula", "feedback")
HINT_FIELDS = ("text", "cost")
OPTION_FIELDS = ("text", "correct", "feedback", "pin")
BLANK_FIELDS = ("answers", "answer", "regex", "case_sensitive")
PAIR_FIELDS = ("left", "right")
RANGE_FIELDS = ("min", "max", "step")
FLASHCARD_FIELDS = ("id", "front", "back", "tags")


def all_question_fields() -> tuple[str, ...]:
    """Every field any question type accepts (common fields first)."""
    seen = dict.fromkeys(COMMON_FIELDS)
    for qtype in QUESTION_TYPES:
        seen.update(dict.fromkeys(TYPE_FIELDS[qtype]))
    return tuple(seen)


def owners(field: str) -> tuple[QuestionType, ...]:
    """The question types that have ``field`` (empty for common or unknown fields)."""
    return tuple(t for t in QUESTION_TYPES if field in TYPE_FIELDS[t])


def slugify(text: str) -> str:
    """A slug suggestion for ``text`` (may be empty): lowercase, non-alphanumerics to ``-``."""
    table = str.maketrans("çğıöşüâîû", "cgiosuaiu")
    ascii_text = text.lower().translate(table)
    return "-".join(re.findall(r"[a-z0-9]+", ascii_text))
