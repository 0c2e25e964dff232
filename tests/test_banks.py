"""Loading and checking banks (konum.load, konum.check): the valid bank round trip, the
broken-bank corpus, reports.

Banks are checked with the course's plugin and a generator that explodes (``PLUGINS``).
Broken banks live in tests/banks/broken/, one file per kind of mistake, each named after its
bank id.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import ClassVar

import pytest

from konum import check, htmlcheck, limits, model, yamlsource
from konum.computed import BaseGenerator, param, specs
from konum.load import discover, load_file
from konum.model import Range
from konum.plugins import Plugins
from konum.problems import BankError, BankProblem, format_json, format_text
from konum.types import (
    TYPES,
    Bank,
    Blank,
    ChoiceQuestion,
    ComputedQuestion,
    FillQuestion,
    MatchingQuestion,
    NumericQuestion,
    Option,
    OrderingQuestion,
    OutputQuestion,
    Pair,
)
from tests.helpers import PE

HERE = Path(__file__).parent / "banks"
VALID = HERE / "valid" / "everything.yml"
BROKEN = HERE / "broken"


class Boom(BaseGenerator):
    """A plugin's generator with a bug: its draw raises."""

    name = "boom"
    title = "Boom"
    params = specs(param("x", "int", 1, Range(1, 9), "x"))
    misconceptions: ClassVar[dict[str, str]] = {"none": "no misconception"}

    def build(self, v: dict[str, object], decimals: int) -> None:
        raise RuntimeError("generator exploded")


#: The course's plugin, and a generator that explodes.
PLUGINS = Plugins({**PE.generators, "boom": Boom()}, PE.figures)


def load_bank(path: Path, **options: object) -> Bank:
    return check.load_bank(path, plugins=PLUGINS, **options)


def load_banks(path: object, **options: object) -> tuple[Bank, ...]:
    return check.load_banks(path, plugins=PLUGINS, **options)  # type: ignore[arg-type]


def check_banks(*args: object, **options: object) -> check.CheckReport:
    return check.check_banks(*args, plugins=PLUGINS, **options)  # type: ignore[arg-type]


def write(tmp_path: Path, stem: str, text: str) -> Path:
    path = tmp_path / f"{stem}.yml"
    path.write_text(text, encoding="utf-8")
    return path


def problems_of(path: Path) -> list[BankProblem]:
    with pytest.raises(BankError) as info:
        load_bank(path)
    return list(info.value.problems)


QUESTION = """bank: {stem}
title: T
questions:
  - id: q1
    type: numeric
    prompt: Two?
    answer: 2
    explanation: Two.
"""


# --- the valid bank, field by field ----------------------------------------------------------


@pytest.fixture
def bank() -> Bank:
    return load_bank(VALID)


def test_valid_bank_header(bank: Bank) -> None:
    assert bank.id == "everything"
    assert bank.title == "Every question type"
    assert bank.path == str(VALID)
    assert [q.id for q in bank.questions] == [
        "choice-all-fields",
        "choice-minimal",
        "fill-all-fields",
        "fill-shorthand",
        "matching-all-fields",
        "numeric-absolute",
        "numeric-relative",
        "numeric-default-tolerance",
        "computed-all-fields",
        "computed-minimal",
        "output-all-fields",
        "ordering-all-fields",
    ]
    assert {q.type for q in bank.questions} == set(TYPES)
    assert all(q.bank == "everything" for q in bank.questions)


def test_valid_choice_every_field(bank: Bank) -> None:
    q = bank.question("choice-all-fields")
    assert isinstance(q, ChoiceQuestion)
    assert q.prompt == "Why does each frequency get both a sine and a cosine?"
    assert q.explanation == r"The pair $(\sin, \cos)$ of one angle rotates as a unit."
    assert q.hint == "Think of a point on a circle."
    assert q.tags == ("sinusoidal", "why")
    assert q.difficulty == 2
    assert q.flashcard is False
    assert q.shuffle is False
    assert q.source == model.Source(str(VALID), 5, 5)
    assert q.options == (
        Option(
            "So that a fixed rotation maps $PE_p$ to $PE_{p+k}$",
            True,
            "Yes, the pair turns a shift into a rotation.",
            False,
        ),
        Option(
            "Sines encode even positions, cosines odd positions",
            False,
            "Every position gets both.",
            False,
        ),
        Option("No", False, None, False),  # YAML's `No` stays the word, not false
        Option("All of the above", False, None, True),
    )
    assert not q.multiple


def test_valid_choice_defaults_and_turkish(bank: Bank) -> None:
    q = bank.question("choice-minimal")
    assert isinstance(q, ChoiceQuestion)
    assert q.prompt == "Konum kodlaması neden gerekir? <sub>(Türkçe)</sub>"
    assert q.explanation == "Öz-dikkat permütasyona eşdeğişkendir; şğüöçı İ."
    assert (q.hint, q.tags, q.difficulty, q.flashcard, q.shuffle) == (None, (), None, True, True)
    assert [o.correct for o in q.options] == [True, True]
    assert q.options[1].text == "Çünkü `a < b` her zaman doğrudur"
    assert q.multiple


def test_valid_fill(bank: Bank) -> None:
    q = bank.question("fill-all-fields")
    assert isinstance(q, FillQuestion)
    assert "PE[:, 0::____] = np.sin(angle)" in q.prompt
    assert q.blanks == (
        Blank(("2", "two"), None, True),
        Blank((), "10_?000", False),
    )
    short = bank.question("fill-shorthand")
    assert isinstance(short, FillQuestion)
    assert short.blanks == (Blank(("0",), r"0(\.0*)?", False),)


def test_valid_matching(bank: Bank) -> None:
    q = bank.question("matching-all-fields")
    assert isinstance(q, MatchingQuestion)
    assert q.pairs == (
        Pair("`PE[0, 0::2]`", r"all 0 ($\sin 0$)"),
        Pair("`PE[0, 1::2]`", r"all 1 ($\cos 0$)"),
    )
    assert q.distractors == ("all $-1$", "alternating 0 and 1")
    assert q.shuffle is False


def test_valid_numeric(bank: Bank) -> None:
    q = bank.question("numeric-absolute")
    assert isinstance(q, NumericQuestion)
    assert (q.answer, q.tolerance, q.relative, q.decimals, q.unit) == (
        32.0,
        0.0,
        False,
        0,
        "buckets",
    )
    assert isinstance(q.answer, float)
    rel = bank.question("numeric-relative")
    assert isinstance(rel, NumericQuestion)
    assert rel.answer == pytest.approx(math.sin(1), abs=1e-10)
    assert (rel.tolerance, rel.relative, rel.decimals, rel.unit) == (1e-3, True, 3, None)
    default = bank.question("numeric-default-tolerance")
    assert isinstance(default, NumericQuestion)
    assert (default.answer, default.tolerance, default.relative, default.decimals) == (
        1024.0,
        0.0,
        False,
        None,
    )


def test_valid_computed(bank: Bank) -> None:
    q = bank.question("computed-all-fields")
    assert isinstance(q, ComputedQuestion)
    assert q.generator == "sinusoidal_entry"
    assert dict(q.params) == {
        "pos": model.Range(1, 50, None),
        "j": model.Range(1, 7, 1),
        "d": model.Choices((4, 8, 16)),
        "base": model.Choices((10000,)),
    }
    assert (q.answer, q.options, q.decimals) == ("choice", 5, 3)
    assert q.prompt == "What is $PE[{{ pos }}, {{ j }}]$ for $d = {{ d }}$?"
    assert (q.hint, q.tags, q.difficulty) == ("The angle is in radians.", ("computed",), 3)
    minimal = bank.question("computed-minimal")
    assert isinstance(minimal, ComputedQuestion)
    assert (
        minimal.prompt,
        minimal.explanation,
        dict(minimal.params),
        minimal.answer,
        minimal.options,
        minimal.decimals,
    ) == ("", "", {}, "numeric", 4, None)


def test_valid_output_every_field(bank: Bank) -> None:
    """The example solution was run: what it printed is the expected output."""
    q = bank.question("output-all-fields")
    assert isinstance(q, OutputQuestion)
    assert q.solution.startswith("import numpy as np\n\nprint(") and q.solution.endswith(")\n")
    assert q.expected == f"(4, 6)\n{1 / 3}"
    assert q.tolerance == 0.001
    assert (q.hint, q.tags, q.difficulty) == ("`.shape`", ("output",), 1)


def test_valid_ordering_points_hints_attempts(bank: Bank) -> None:
    q = bank.question("ordering-all-fields")
    assert isinstance(q, OrderingQuestion)
    assert q.items[0] == "The exponent $2i/d$" and len(q.items) == 4
    assert (q.points, q.attempts) == (2.0, 3)
    assert q.hints == (
        model.Hint("The angle comes late."),
        model.Hint("The frequency needs the exponent.", 0.25),
    )
    assert q.all_hints == q.hints
    plain = bank.question("choice-all-fields")
    assert (plain.points, plain.attempts, plain.hints) == (1.0, None, ())
    assert plain.all_hints == (model.Hint(plain.hint or ""),)  # `hint:` is one free hint


def test_valid_flashcards(bank: Bank) -> None:
    assert bank.flashcards == (
        model.Flashcard(
            "fc-base-10000",
            "everything",
            "What is the 10000 in the sinusoidal formula?",
            "A hyperparameter that sets the longest wavelength.",
            model.Source(str(VALID), 136, 5),
            ("sinusoidal",),
        ),
        model.Flashcard(
            "fc-minimal", "everything", "Ön yüz", "Arka yüz", model.Source(str(VALID), 140, 5), ()
        ),
    )


# --- the broken corpus -------------------------------------------------------------------------

# (file stem, line, column, question id, field, message substring, number of problems)
CORPUS = [
    ("yaml-syntax", 7, 11, None, None, "YAML syntax error: expected ',' or ']'", 1),
    ("tab-indent", 5, 1, None, None, "indentation must use spaces, not tabs", 1),
    ("duplicate-key", 8, 5, "q1", "answer", "duplicate key 'answer' (first written at line 7)", 1),
    (
        "python-tag",
        6,
        13,
        "q1",
        "prompt",
        "unsupported YAML tag !!python/object/apply:os.system",
        2,
    ),
    ("alias-bomb", 7, 4, None, None, "refused: aliases expand to more than 50,000 values", 1),
    ("merge-key", 10, 5, "q2", None, "merge keys (<<) are not supported", 2),
    ("multiple-documents", 9, 1, None, None, "expected a single document", 1),
    ("nesting-too-deep", 4, 46, None, None, "nesting is too deep", 1),
    ("empty-file", 1, 1, None, None, "the file is empty", 1),
    ("empty-bank", 3, 12, None, "questions", "the bank has no questions", 1),
    ("not-a-mapping", 1, 1, None, None, "a bank file must be a mapping", 1),
    (
        "bank-id-mismatch",
        1,
        7,
        None,
        "bank",
        "must equal the file name without .yml: expected 'bank-id-mismatch', found 'sinusoidal'",
        1,
    ),
    (
        "unknown-key",
        8,
        5,
        "q1",
        "explenation",
        "unknown key 'explenation'; did you mean 'explanation'?",
        1,  # not also "missing required field 'explanation'"
    ),
    ("unknown-top-key", 2, 1, None, "titel", "unknown key 'titel'; did you mean 'title'?", 1),
    (
        "key-of-other-type",
        11,
        5,
        "q1",
        "blanks",
        "only fill questions have it (this question is 'choice')",
        1,
    ),
    (
        "missing-field",
        4,
        5,
        "q1",
        "explanation",
        "missing required field 'explanation': expected text, found nothing",
        1,
    ),
    ("missing-id", 4, 5, None, "questions[0].id", "missing required field 'id'", 1),
    ("wrong-type-text", 6, 13, "q1", "prompt", "expected text, found a list", 1),
    ("wrong-type-bool", 7, 14, "q1", "shuffle", 'expected true or false, found text "no"', 1),
    ("question-not-mapping", 4, 5, None, "questions[0]", "each question must be a mapping", 1),
    (
        "bad-slug",
        4,
        9,
        None,
        "questions[0].id",
        "question id is not a slug (for example 'sin-why')",
        1,
    ),
    ("duplicate-id", 9, 9, "ok-same", "id", "duplicate id 'ok-same': already used at line 4", 1),
    (
        "unknown-type",
        5,
        11,
        "q1",
        "type",
        "unknown question type 'choise'; did you mean 'choice'?",
        1,
    ),
    (
        "unknown-type-no-prompt",
        7,
        11,
        "q1",
        "type",
        "unknown question type 'computd'; did you mean 'computed'?",
        1,
    ),
    ("choice-no-correct", 8, 7, "q1", "options", "no option is marked 'correct: true'", 1),
    # A misspelt key is the one problem: what depends on the key it meant is not reported.
    ("misspelt-prompt", 7, 5, "q1", "promt", "unknown key 'promt'; did you mean 'prompt'?", 1),
    (
        "misspelt-correct",
        11,
        9,
        "q1",
        "options[0].corect",
        "unknown key 'corect'; did you mean 'correct'?",
        1,
    ),
    ("misspelt-type", 6, 5, "q1", "tpye", "unknown key 'tpye'; did you mean 'type'?", 1),
    ("misspelt-answer", 7, 5, "q1", "answr", "unknown key 'answr'; did you mean 'answer'?", 1),
    (
        "choice-duplicate-options",
        10,
        15,
        "q1",
        "options[1].text",
        "duplicate option: the same text as options[0] (line 8)",
        1,
    ),
    # NFC "Sinüs" and NFD "Sinüs" (u + combining diaeresis) look alike: one option.
    (
        "choice-duplicate-nfd",
        10,
        15,
        "q1",
        "options[1].text",
        "duplicate option: the same text as options[0] (line 8)",
        1,
    ),
    (
        "matching-duplicate-nfd",
        10,
        15,
        "q1",
        "pairs[1].left",
        "duplicate left item: the same as pairs[0].left (line 8)",
        2,
    ),
    (
        "fill-duplicate-answers",
        8,
        32,
        "q1",
        "blanks[0].answers[2]",
        "duplicate answer: the same as answers[0] (line 8)",
        1,
    ),
    (
        "choice-one-option",
        8,
        7,
        "q1",
        "options",
        "too few options: expected at least 2, found 1",
        1,
    ),
    ("choice-option-string", 10, 9, "q1", "options[1]", "each option must be a mapping", 1),
    (
        "fill-mismatch",
        8,
        7,
        "q1",
        "blanks",
        "do not line up: expected 2 entries (one per blank in the prompt), found 1",
        1,
    ),
    ("fill-no-blank", 8, 7, "q1", "blanks", "the prompt has no blank", 1),
    (
        "fill-blank-empty",
        8,
        9,
        "q1",
        "blanks[0]",
        "a blank needs 'answers' (or 'answer') or 'regex'",
        1,
    ),
    (
        "fill-bad-regex",
        8,
        16,
        "q1",
        "blanks[0].regex",
        "invalid regular expression: missing ), unterminated subpattern at position 4",
        1,
    ),
    (
        "fill-regex-rejects-answer",
        9,
        16,
        "q1",
        "blanks[0].regex",
        "the answer 'two' does not match this regular expression",
        1,
    ),
    (
        "fill-answer-and-answers",
        9,
        9,
        "q1",
        "blanks[0].answer",
        "give either 'answer' or 'answers', not both",
        1,
    ),
    (
        "matching-duplicate-left",
        10,
        15,
        "q1",
        "pairs[1].left",
        "duplicate left item: the same as pairs[0].left (line 8)",
        1,
    ),
    (
        "matching-duplicate-right",
        11,
        16,
        "q1",
        "pairs[1].right",
        "duplicate right item: the same as pairs[0].right (line 9)",
        1,
    ),
    (
        "matching-distractor-duplicate",
        12,
        25,
        "q1",
        "distractors[1]",
        "duplicate right-hand item: the same as pairs[1].right (line 11)",
        1,
    ),
    ("matching-one-pair", 8, 7, "q1", "pairs", "too few pairs: expected at least 2, found 1", 1),
    ("numeric-not-finite", 7, 13, "q1", "answer", "the answer must be a finite number", 1),
    # A 401-digit answer, tolerance, range bound, choice and figure parameter: one problem
    # each at its own line, no OverflowError.
    (
        "number-too-large",
        7,
        13,
        "q1",
        "answer",
        "the number is too large: expected a number from -1e15 to 1e15, "
        "found the number 100000000000... (401 characters)",
        5,
    ),
    (
        "numeric-answer-text",
        7,
        13,
        "q1",
        "answer",
        'wrong type (remove the quotes): expected a number, found text "2"',
        1,
    ),
    (
        "numeric-negative-tolerance",
        8,
        16,
        "q1",
        "tolerance",
        "a tolerance must be zero or positive: expected a finite number >= 0, found -0.5",
        1,
    ),
    (
        "numeric-both-tolerances",
        9,
        5,
        "q1",
        "relative_tolerance",
        "give either 'tolerance' (absolute) or 'relative_tolerance', not both",
        1,
    ),
    (
        "numeric-rounding",
        8,
        16,
        "q1",
        "tolerance",
        "tolerance 0.001 does not admit 3.14, the answer 3.14159 rounded to 2 decimals; "
        "use at least 0.00159",
        1,
    ),
    (
        "numeric-relative-zero",
        8,
        5,
        "q1",
        "relative_tolerance",
        "a relative tolerance cannot work when the answer is 0",
        1,
    ),
    (
        "difficulty-range",
        8,
        17,
        "q1",
        "difficulty",
        "out of range: expected a whole number from 1 to 3, found 4",
        1,
    ),
    ("tags-not-list", 8, 11, "q1", "tags", 'expected a list, found text "sinusoidal"', 1),
    ("tag-with-space", 8, 18, "q1", "tags[1]", "a tag cannot contain spaces", 1),
    ("html-script", 6, 18, "q1", "prompt", "raw HTML tag <script> is not allowed", 1),
    (
        "html-onclick",
        10,
        7,
        "q1",
        "explanation",
        "event handler attribute 'onclick' on <span> is not allowed",
        1,
    ),
    (
        "html-javascript-url",
        11,
        20,
        "q1",
        "options[1].feedback",
        "a 'javascript:' URL in 'href' is not allowed",
        1,
    ),
    ("html-iframe", 9, 11, "q1", "hint", "raw HTML tag <iframe> is not allowed", 1),
    ("html-style", 8, 18, "q1", "explanation", "raw HTML tag <style> is not allowed", 1),
    ("markdown-javascript-link", 6, 34, "q1", "prompt", "a 'javascript:' link is not allowed", 1),
    (
        "computed-bad-answer",
        7,
        13,
        "q1",
        "answer",
        "unknown answer form: expected numeric or choice, found 'text'",
        1,
    ),
    (
        "computed-options-range",
        8,
        14,
        "q1",
        "options",
        "out of range: expected a whole number from 2 to 6, found 9",
        1,
    ),
    (
        "computed-options-numeric",
        7,
        5,
        "q1",
        "options",
        "'options' only applies with 'answer: choice'",
        1,
    ),
    (
        "computed-range-min-max",
        8,
        10,
        "q1",
        "params.m",
        "min is larger than max: expected min <= max, found min 50, max 1",
        1,
    ),
    ("computed-range-step", 8, 34, "q1", "params.m.step", "the step must be positive", 1),
    (
        "computed-range-missing-max",
        8,
        19,
        "q1",
        "params.m.mx",
        "unknown key 'mx'; did you mean 'max'?",
        1,
    ),
    ("computed-empty-choices", 8, 10, "q1", "params.d", "no values to choose from", 1),
    (
        "computed-generator-rejects",
        8,
        10,
        "q1",
        "params.d",
        "expected an even int in 2..4096, found 7",
        1,
    ),
    ("flashcard-missing-back", 10, 5, "fc-one", "back", "missing required field 'back'", 1),
    ("not-utf8", 6, 27, None, None, "file is not UTF-8: byte 0xfd cannot be decoded", 1),
    ("utf16", None, None, None, None, "file is UTF-16, not UTF-8", 1),
    (
        "points-negative",
        6,
        13,
        "q1",
        "points",
        "out of range: expected a number above 0 and at most 100, found -1",
        1,
    ),
    ("ordering-one-item", 7, 12, "q1", "items", "too few items to order", 1),
    ("ordering-duplicate-item", 10, 9, "q1", "items[2]", "duplicate item: the same as items[0]", 1),
    (
        "hint-cost-above-one",
        10,
        35,
        "q1",
        "hints[1].cost",
        "a hint's cost is a share of the question's points: expected a number from 0 to 1,"
        " found 1.5",
        1,
    ),
    ("hint-and-hints", 8, 5, "q1", "hints", "give either 'hint' (one free hint) or 'hints'", 1),
    (
        "attempts-zero",
        8,
        15,
        "q1",
        "attempts",
        "out of range: expected a whole number from 1 to 20, found 0",
        1,
    ),
]


def test_corpus_covers_every_file() -> None:
    assert {path.stem for path in BROKEN.glob("*.yml")} == {row[0] for row in CORPUS}


@pytest.mark.parametrize(
    ("stem", "line", "column", "question_id", "field", "message", "count"),
    CORPUS,
    ids=[row[0] for row in CORPUS],
)
def test_broken_bank(
    stem: str,
    line: int | None,
    column: int | None,
    question_id: str | None,
    field: str | None,
    message: str,
    count: int,
) -> None:
    path = BROKEN / f"{stem}.yml"
    problems = problems_of(path)
    matching = [p for p in problems if message in p.message]
    assert matching, "\n".join(map(str, problems))
    problem = matching[0]
    assert problem.file == str(path)
    assert (problem.line, problem.column) == (line, column)
    assert (problem.question_id, problem.field) == (question_id, field)
    assert len(problems) == count, "\n".join(map(str, problems))


def test_every_too_large_number_is_reported_at_its_field() -> None:
    problems = problems_of(BROKEN / "number-too-large.yml")
    assert [(p.line, p.question_id, p.field) for p in problems] == [
        (7, "q1", "answer"),
        (8, "q1", "tolerance"),
        (14, "q2", "params.m.max"),
        (15, "q2", "params.d[1]"),
        (27, "q3", "figure.params.base"),
    ]
    assert all(p.message.startswith("the number is too large") for p in problems)


def test_numbers_up_to_the_limit_are_accepted(tmp_path: Path) -> None:
    from konum import limits

    at_limit = QUESTION.format(stem="limit").replace("answer: 2", f"answer: {limits.MAX_NUMBER}")
    assert load_bank(write(tmp_path, "limit", at_limit)).questions[0].answer == 1e15  # type: ignore[union-attr]
    over = at_limit.replace(str(limits.MAX_NUMBER), f"-{limits.MAX_NUMBER + 1}")
    (problem,) = problems_of(write(tmp_path, "over", over.replace("bank: limit", "bank: over")))
    assert problem.message.startswith("the number is too large")
    assert problem.found == "the number -1000000000000001"


def test_decimals_have_one_range_for_numeric_and_computed_questions(tmp_path: Path) -> None:
    from konum import limits

    low, high = limits.DECIMALS
    numeric = QUESTION.format(stem="dec").replace(
        "answer: 2", f"answer: 2\n    decimals: {high + 1}"
    )
    (problem,) = problems_of(write(tmp_path, "dec", numeric))
    assert problem.field == "decimals"
    assert problem.expected == f"a whole number from {low} to {high}"
    computed = computed_bank(tmp_path, f"    generator: rope_angle\n    decimals: {high + 1}\n")
    (problem,) = problems_of(computed)
    assert (problem.field, problem.expected) == ("decimals", f"a whole number from {low} to {high}")


def test_unicode_forms_are_one_text_everywhere_duplicates_are_checked(tmp_path: Path) -> None:
    import unicodedata

    nfc, nfd = (unicodedata.normalize(form, "Kosinüs") for form in ("NFC", "NFD"))
    problems = problems_of(BROKEN / "matching-duplicate-nfd.yml")
    assert [(p.field, p.line) for p in problems] == [("pairs[1].left", 10), ("distractors[2]", 12)]
    assert "the same as distractors[1]" in problems[1].message
    # A case-sensitive blank keeps "kosinüs" and "Kosinüs" apart, not two forms of one word.
    fill = f"""bank: cased
title: T
questions:
  - id: q1
    type: fill
    prompt: Even columns hold ____.
    blanks:
      - answers: [{nfc}, {nfc.lower()}, {nfd}]
        case_sensitive: true
    explanation: x
"""
    (problem,) = problems_of(write(tmp_path, "cased", fill))
    assert (problem.field, problem.message) == (
        "blanks[0].answers[2]",
        "duplicate answer: the same as answers[0] (line 8)",
    )


def test_expected_and_found_are_separate_fields() -> None:
    (problem,) = problems_of(BROKEN / "numeric-answer-text.yml")
    assert (problem.expected, problem.found) == ("a number", 'text "2"')


def test_recursive_alias_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "loop", "bank: loop\ntitle: T\nquestions: &a [*a]\n")
    problems = problems_of(path)
    assert len(problems) == 1
    assert "nesting deeper than" in problems[0].message


def test_python_tag_is_never_constructed(tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    path = write(
        tmp_path,
        "evil",
        QUESTION.format(stem="evil").replace(
            "prompt: Two?",
            f"prompt: !!python/object/apply:pathlib.Path.touch [!!python/object/apply:pathlib.Path "
            f"['{marker}']]",
        ),
    )
    problems = problems_of(path)
    assert not marker.exists()
    assert any("unsupported YAML tag" in p.message for p in problems)


def test_too_large_file_is_refused_without_parsing(tmp_path: Path) -> None:
    path = tmp_path / "huge.yml"
    path.write_bytes(b"bank: huge\n" + b"#" * limits.YAML_BYTES)
    (problem,) = problems_of(path)
    assert problem.line is None
    assert "file is too large" in problem.message
    assert str(problem).startswith(f"{path}: file is too large: ")


def test_decode_limit_applies_to_bytes_too() -> None:
    text, problems = yamlsource.decode(b"x" * (limits.YAML_BYTES + 1), "f.yml")
    assert text is None
    assert "too large" in problems[0].message


def test_utf8_bom_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "bom.yml"
    path.write_bytes(b"\xef\xbb\xbf" + QUESTION.format(stem="bom").encode())
    assert load_bank(path).id == "bom"


def test_problem_path_uses_index_when_id_is_unusable(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "b",
        QUESTION.format(stem="b")
        + """  - id: 12 Bad
    type: fill
    prompt: x
    blanks: []
    explanation: y
""",
    )
    problems = problems_of(path)
    assert {p.field for p in problems} == {"questions[1].id", "questions[1].blanks"}
    assert all(p.question_id is None for p in problems)


def test_all_problems_in_one_file_are_reported(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "many",
        """bank: many
title: Many
questions:
  - id: a
    type: choice
    prompt: P
    options:
      - text: x
      - text: x
    explanation: E
  - id: b
    type: numeric
    prompt: P
    answer: nan
    explanation: E
  - id: c
    type: matching
    prompt: P
    pairs: [{left: a, right: b}]
    explanation: E
""",
    )
    problems = problems_of(path)
    assert [(p.question_id, p.line) for p in problems] == [
        ("a", 8),
        ("a", 9),
        ("b", 14),
        ("c", 19),
    ]


def test_plain_exponent_numbers_are_numbers_but_quoted_ones_are_not(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "exp",
        QUESTION.format(stem="exp").replace("answer: 2", "answer: 2.5e-3\n    tolerance: 1e-4"),
    )
    q = load_bank(path).questions[0]
    assert isinstance(q, NumericQuestion)
    assert (q.answer, q.tolerance) == (0.0025, 0.0001)
    quoted = write(
        tmp_path,
        "quoted",
        QUESTION.format(stem="quoted").replace("answer: 2", "answer: 2\n    tolerance: '1e-4'"),
    )
    (problem,) = problems_of(quoted)
    assert problem.field == "tolerance"


@pytest.mark.parametrize(
    ("answer", "decimals", "tolerance", "ok"),
    [
        (0.8414709848, 4, 0.00005, True),  # 0.8415 is 0.0000290152 away
        (0.8414709848, 4, 0.00002, False),
        (2.5, 0, 0.5, True),  # a reader rounds half up to 3
        (2.5, 0, 0.4, False),
        (-1.25, 1, 0.05, True),
        (7, 2, 0, True),
    ],
)
def test_tolerance_must_admit_rounded_answer(
    tmp_path: Path, answer: float, decimals: int, tolerance: float, ok: bool
) -> None:
    path = write(
        tmp_path,
        "r",
        QUESTION.format(stem="r").replace(
            "answer: 2", f"answer: {answer}\n    decimals: {decimals}\n    tolerance: {tolerance}"
        ),
    )
    if ok:
        load_bank(path)
    else:
        (problem,) = problems_of(path)
        assert "does not admit" in problem.message


def test_relative_tolerance_rounding_check(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "r",
        QUESTION.format(stem="r").replace(
            "answer: 2", "answer: 1234.5678\n    decimals: 0\n    relative_tolerance: 0.0001"
        ),
    )
    (problem,) = problems_of(path)
    assert problem.field == "relative_tolerance"
    assert "does not admit 1235" in problem.message


# --- computed questions ---------------------------------------------------------------------


def computed_bank(tmp_path: Path, body: str) -> Path:
    return write(
        tmp_path,
        "comp",
        "bank: comp\ntitle: C\nquestions:\n  - id: c1\n    type: computed\n" + body,
    )


def test_computed_unknown_generator_reported_at_generator(tmp_path: Path) -> None:
    path = computed_bank(tmp_path, "    generator: rope_angel\n")
    (problem,) = problems_of(path)
    assert (problem.line, problem.column, problem.field) == (6, 16, "generator")
    assert problem.message.startswith("unknown generator 'rope_angel'; did you mean 'rope_angle'?")


def test_computed_params_forms(tmp_path: Path) -> None:
    path = computed_bank(
        tmp_path,
        """    generator: rope_angle
    params:
      m: {min: 0, max: 10, step: 2}
      k: [0, 1, 2]
      layout: half
      causal: true
      base: 1.5e4
""",
    )
    # The forms as loaded (the generator's check of its own params comes after).
    q = load_file(path).bank.questions[0]  # type: ignore[union-attr]
    assert isinstance(q, ComputedQuestion)
    assert dict(q.params) == {
        "m": model.Range(0, 10, 2),
        "k": model.Choices((0, 1, 2)),
        "layout": model.Choices(("half",)),
        "causal": model.Choices((True,)),
        "base": model.Choices((15000.0,)),  # plain 1.5e4 is a number, though YAML 1.1 says text
    }
    quoted = computed_bank(
        tmp_path, "    generator: rope_angle\n    params:\n      layout: '1e4'\n"
    )
    q = load_file(quoted).bank.questions[0]  # type: ignore[union-attr]
    assert isinstance(q, ComputedQuestion)
    assert q.params["layout"] == model.Choices(("1e4",))


def test_computed_params_must_be_mapping_and_values_scalars(tmp_path: Path) -> None:
    path = computed_bank(tmp_path, "    generator: rope_angle\n    params: [m]\n")
    (problem,) = problems_of(path)
    assert problem.field == "params"
    path = computed_bank(tmp_path, "    generator: rope_angle\n    params:\n      m: [[1]]\n")
    (problem,) = problems_of(path)
    assert problem.field == "params.m[0]"


def test_computed_validator_crash_is_a_problem_not_a_traceback(tmp_path: Path) -> None:
    path = computed_bank(tmp_path, "    generator: boom\n")
    (problem,) = problems_of(path)
    assert "the generator check failed (RuntimeError: generator exploded)" in problem.message


def test_a_generator_no_plugin_gives_is_a_problem(tmp_path: Path) -> None:
    path = computed_bank(tmp_path, "    generator: anything\n")
    with pytest.raises(BankError) as caught:
        check.load_bank(path)
    (problem,) = caught.value.problems
    assert (problem.field, problem.line) == ("generator", 6)
    assert "known: none: the site names no plugin" in problem.message


def test_real_generators(tmp_path: Path) -> None:
    assert len(load_bank(VALID).questions) == 12
    good = computed_bank(
        tmp_path,
        """    generator: sinusoidal_entry
    params:
      pos: {min: 1, max: 20}
      d: [4, 8]
    answer: choice
    options: 4
""",
    )
    assert load_bank(good).questions[0].id == "c1"
    bad = computed_bank(
        tmp_path,
        """    generator: sinusoidal_entry
    params:
      d: [7]
""",
    )
    problems = problems_of(bad)
    assert any(p.field == "params.d" and p.line == 8 for p in problems), problems
    unknown = computed_bank(tmp_path, "    generator: sinusoidal_entyr\n")
    problems = problems_of(unknown)
    assert any(p.field == "generator" and p.line == 6 for p in problems), problems


# --- HTML ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "x<sub>2</sub> and <br/> and <kbd>Ctrl</kbd>",
        "if `a<b` then `<script>` is only code",
        "```html\n<script>alert(1)</script>\n```\nafter",
        "~~~\n<iframe>\n~~~",
        "causal mask: $i<j$ and $$a<b$$",
        "3 < 4 and 5 > 4",
        '<a href="https://example.org" title="x">link</a> and [ok](https://example.org)',
        "<!-- a comment -->",
    ],
)
def test_allowed_html(text: str) -> None:
    assert htmlcheck.scan(text) == []


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("<SCRIPT>x</SCRIPT>", "<script>"),
        ('<img src=x onerror="alert(1)">', "'onerror'"),
        ('<a href=" JaVaScRiPt:alert(1)">x</a>', "'JaVaScRiPt:' URL"),
        ('<a href="&#106;avascript:alert(1)">x</a>', "javascript:"),
        ("<object data=x></object>", "<object>"),
        ("see [x]: javascript:alert(1)", ""),
        ("[x]\n\n[x]: javascript:alert(1)", "javascript:"),
        ("`code` then <embed src=x>", "<embed>"),
    ],
)
def test_forbidden_html(text: str, message: str) -> None:
    issues = htmlcheck.scan(text)
    if message:
        assert any(message in issue.message for issue in issues), issues
    else:
        assert issues == []  # not a reference definition: only a line starting with [label]:


# --- many banks, discovery, reports ----------------------------------------------------------


def test_cross_bank_duplicate_ids_name_both_locations() -> None:
    a, b = BROKEN / "cross" / "cross-a.yml", BROKEN / "cross" / "cross-b.yml"
    with pytest.raises(BankError) as info:
        load_banks(BROKEN / "cross")
    (problem,) = info.value.problems
    assert (problem.file, problem.line, problem.column) == (str(b), 9, 9)
    assert problem.question_id == "shared-id"
    assert problem.message.startswith(f"duplicate id 'shared-id': already used at {a}:9:9")
    assert info.value.files == (str(a), str(b))
    assert load_bank(a).id == "cross-a"  # alone, each bank is fine


def test_load_banks_reports_all_problems_of_all_banks(tmp_path: Path) -> None:
    good = write(tmp_path, "good", QUESTION.format(stem="good").replace("q1", "g1"))
    with pytest.raises(BankError) as info:
        load_banks(
            [
                BROKEN / "html-script.yml",
                good,
                BROKEN / "fill-mismatch.yml",
                tmp_path / "missing.yml",
            ]
        )
    files = [p.file for p in info.value.problems]
    assert files == [
        str(BROKEN / "html-script.yml"),
        str(BROKEN / "fill-mismatch.yml"),
        str(BROKEN / "fill-mismatch.yml"),
        str(tmp_path / "missing.yml"),
    ]
    assert "duplicate id 'q1'" in info.value.problems[1].message
    assert info.value.problems[3].message == "no such file or directory"
    assert "4 problems in question banks" in str(info.value)


def test_load_banks_success(tmp_path: Path) -> None:
    for stem in ("b", "a"):
        write(tmp_path, stem, QUESTION.format(stem=stem).replace("q1", f"q-{stem}"))
    (tmp_path / "notes.txt").write_text("not a bank")
    banks = load_banks(tmp_path)
    assert [b.id for b in banks] == ["a", "b"]
    assert load_banks(str(tmp_path / "a.yml"))[0].id == "a"


def test_discover(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "content" / "banks"
    root.mkdir(parents=True)
    write(root, "z", "")
    write(root, "a", "")
    monkeypatch.chdir(tmp_path)
    assert discover(None) == [Path("content/banks/a.yml"), Path("content/banks/z.yml")]
    assert discover([]) == discover(None)
    assert discover(["content/banks/z.yml", "content/banks", "nope.yml"]) == [
        Path("content/banks/z.yml"),
        Path("content/banks/a.yml"),
        Path("nope.yml"),
    ]
    empty = tmp_path / "empty"
    empty.mkdir()
    assert discover([empty]) == [empty]
    report = check_banks([empty, "nope.yml"])
    assert [p.message for p in report.problems] == [
        "a directory without any .yml bank file",
        "no such file or directory",
    ]


def test_format_text_lines_and_summary() -> None:
    problems = [
        BankProblem(
            "content/banks/rope.yml",
            12,
            7,
            "too few options: expected at least 2, found 1",
            question_id="rope-q",
            field="options",
        ),
        BankProblem("content/banks/rope.yml", 3, 1, "duplicate key 'title'"),
        BankProblem("content/banks/x.yml", None, None, "no such file or directory"),
    ]
    assert format_text(problems, files=9) == "\n".join(
        [
            "content/banks/rope.yml:12:7: [rope-q] options: too few options: expected at least 2, "
            "found 1",
            "content/banks/rope.yml:3:1: duplicate key 'title'",
            "content/banks/x.yml: no such file or directory",
            "3 problems in 2 of 9 banks",
        ]
    )
    assert format_text(problems[:1]).endswith("\n1 problem in 1 of 1 bank")
    # A page's problems (konum check reads the pages too) are counted as pages, not banks.
    page = BankProblem("docs/index.md", 3, 1, "/// quiz | motoin: names bank 'motoin'")
    assert format_text([page], files=1).endswith("\n1 problem in 1 page")
    assert format_text([*problems, page], files=9).endswith(
        "\n4 problems in 2 of 9 banks and 1 page"
    )
    assert format_text([], files=9, questions=87) == "9 banks, 87 questions: all good"
    assert format_text([], files=1, questions=1) == "1 bank, 1 question: all good"


def test_format_json() -> None:
    problem = BankProblem(
        "f.yml",
        2,
        3,
        'wrong type: expected a number, found text "2"',
        question_id="q",
        field="answer",
        expected="a number",
        found='text "2"',
    )
    data = json.loads(format_json([problem], files=2))
    assert data["ok"] is False
    assert data["summary"] == "1 problem in 1 of 2 banks"
    assert data["problems"] == [
        {
            "file": "f.yml",
            "line": 2,
            "column": 3,
            "question_id": "q",
            "field": "answer",
            "message": 'wrong type: expected a number, found text "2"',
            "expected": "a number",
            "found": 'text "2"',
        }
    ]
    ok = json.loads(format_json([], files=9, questions=87))
    assert (ok["ok"], ok["problems"], ok["questions"]) == (True, [], 87)


def test_check_report_on_corpus_counts_every_file() -> None:
    report = check_banks([BROKEN])
    assert len(report.files) == len(CORPUS)
    assert not report.ok
    assert {p.file for p in report.problems} == set(report.files)
    assert format_text(report.problems, files=len(report.files)).endswith(
        f"in {len(CORPUS)} of {len(CORPUS)} banks"
    )


# --- the authoring page's examples are valid -------------------------------------------------

AUTHORING = Path(__file__).parent.parent / "content" / "authoring.md"


def _authoring_examples() -> list[str]:
    import re

    text = (
        AUTHORING.read_text(encoding="utf-8")
        .replace("{% raw %}\n", "")
        .replace("{% endraw %}\n", "")
    )
    blocks = re.findall(r"^(`{3,})yaml\n(.*?)^\1$", text, re.DOTALL | re.MULTILINE)
    return [body for _, body in blocks if "..." not in body]


def test_authoring_page_examples_load(tmp_path: Path) -> None:
    examples = _authoring_examples()
    questions = [e for e in examples if e.startswith("  - id:")]
    cards = [e for e in examples if e.startswith("flashcards:")]
    assert len(questions) == len(TYPES) and len(cards) == 1
    path = write(
        tmp_path, "docs", "bank: docs\ntitle: Docs\nquestions:\n" + "".join(questions) + cards[0]
    )
    bank = load_bank(path, run_programs=True)  # the page's output example has no recording
    assert [q.type for q in bank.questions] == list(TYPES)
    assert [c.id for c in bank.flashcards] == ["fc-base-10000"]


def test_computed_prompt_template_with_an_unknown_value_is_a_bank_problem(tmp_path: Path) -> None:
    bank = tmp_path / "badprompt.yml"
    bank.write_text(
        "bank: badprompt\n"
        "title: Bad prompt\n"
        "questions:\n"
        "  - id: bp-entry\n"
        "    type: computed\n"
        "    generator: sinusoidal_entry\n"
        "    params: {pos: {min: 1, max: 9}, d: [4, 8]}\n"
        '    prompt: "PE at position {{ postion }} for d = {{ d }}?"\n'
        "    explanation: x\n",
        encoding="utf-8",
    )
    report = check_banks([bank])
    (problem,) = report.problems
    assert (problem.line, problem.column, problem.question_id) == (8, 13, "bp-entry")
    assert problem.field == "prompt"
    assert "'postion' is undefined" in problem.message and "pos" in problem.message


@pytest.mark.parametrize("pattern", [r"(?P<n>2)", r"2\Z", r"(?i)two", r"2*+"])
def test_fill_regex_must_also_work_in_the_browser(tmp_path: Path, pattern: str) -> None:
    bank = tmp_path / "pyregex.yml"
    bank.write_text(
        "bank: pyregex\n"
        "title: Python-only regex\n"
        "questions:\n"
        "  - id: py-blank\n"
        "    type: fill\n"
        '    prompt: "PE[:, 0::____] = np.sin(angle)"\n'
        "    blanks:\n"
        f"      - regex: '{pattern}'\n"
        "    explanation: x\n",
        encoding="utf-8",
    )
    (problem,) = check_banks([bank]).problems
    assert (problem.line, problem.question_id, problem.field) == (8, "py-blank", "blanks[0].regex")
    assert "not in the reader's browser" in problem.message


FIGURE_QUESTION = (
    "bank: figs\n"
    "title: Figures\n"
    "questions:\n"
    "  - id: figs-q\n"
    "    type: choice\n"
    "    prompt: Which head is the most local?\n"
    "    figure:\n"
    "{figure}"
    "    options:\n"
    "      - text: head 1\n"
    "        correct: true\n"
    "      - text: head 8\n"
    "    explanation: x\n"
)


def test_a_question_may_show_a_figure(tmp_path: Path) -> None:
    bank = tmp_path / "figs.yml"
    figure = "      name: alibi_matrices\n      alt: Bias matrices\n"
    figure += "      params: {n: 6, heads: [1, 8]}\n"
    bank.write_text(FIGURE_QUESTION.format(figure=figure), encoding="utf-8")
    (question,) = load_bank(bank).questions
    assert question.figure == model.FigureRef(
        "alibi_matrices", "Bias matrices", None, {"n": 6, "heads": [1, 8]}
    )


@pytest.mark.parametrize(
    ("figure", "line", "needle"),
    [
        ("      name: alibi_matrix\n      alt: x\n", 8, "did you mean 'alibi_matrices'"),
        (
            "      name: pe_heatmap\n      alt: x\n      params: {dd: 3}\n",
            10,
            "unknown parameter 'dd'",
        ),
        ("      name: pe_heatmap\n", 8, "alt"),
    ],
)
def test_figure_mistakes_are_bank_problems(
    tmp_path: Path, figure: str, line: int, needle: str
) -> None:
    bank = tmp_path / "figs.yml"
    bank.write_text(FIGURE_QUESTION.format(figure=figure), encoding="utf-8")
    (problem,) = check_banks([bank]).problems
    assert problem.question_id == "figs-q" and problem.line == line
    assert needle in problem.message
