"""No computed choice question can be answered without doing the work (issue 37).

Every computed question of the course with ``answer: choice`` is drawn for many site seeds,
with the course's own loaders (:func:`tests.helpers.load_banks`, :func:`make_concrete`) and
as many variants as the site shows. A question is guessable when, across those variants,

* the right option sits in the same slot too often (pick "the first one");
* the right option is too often the smallest or the largest shown (pick "the smallest");
* one value answers too many variants (remember the number, not the method);
* a wrong option is impossible by sign: negative when every answer is non-negative (a count,
  a row or a column), so it can be ruled out without computing anything.
"""

from __future__ import annotations

from collections import Counter
from functools import cache, lru_cache
from pathlib import Path

import pytest
import yaml

from konum.model import Variant
from konum.types import Bank, ComputedQuestion
from tests.helpers import load_banks, make_concrete

REPO = Path(__file__).resolve().parent.parent
SEEDS = range(40)
#: As many variants per seed as the site shows (mkdocs.base.yml, konum's ``variants``).
VARIANTS = int(
    yaml.safe_load((REPO / "mkdocs.base.yml").read_text(encoding="utf-8"))["markdown_extensions"][
        "konum"
    ]["variants"]
)

#: Largest share of variants whose right option is in one slot, or is the smallest (or the
#: largest) option.
MAX_POSITION_SHARE = 0.60
#: Largest share of variants that one shown answer may answer.
MAX_ANSWER_SHARE = 0.40

#: Questions whose answer is legitimately one of a small set, with the reason (none yet: a
#: question added here must say why remembering its answers is knowing the method).
SMALL_ANSWER_SETS: dict[str, str] = {}

#: Questions whose right option is always at one end of the options by the nature of the
#: question or of the misconceptions available, with the reason. These are known to be
#: guessable by rank; each is an expected failure (strict: fixing one makes the test say so).
KNOWN_RANK_GUESSABLE: dict[str, str] = {
    "sin-faster": (
        "of two columns in different pairs the faster is always the smaller column (frequencies "
        "fall with the pair index for any base > 1); same-pair draws, where the answer would "
        "be 'the same', cannot be asked: a computed option is a number"
    ),
    "sin-angle": (
        "every misconception of sinusoidal_angle (2k -> k, inverted frequency, degrees, "
        "position + 1, exponent 0) gives a larger angle; a smaller one needs a new "
        "misconception and its texts in generator/konum_pe/messages/"
    ),
    "rope-sinusoidal-angle": "rope_angle's misconceptions all give larger angles (as sin-angle)",
    "rope-angle-choice": "rope_angle's misconceptions all give larger angles (as sin-angle)",
    "ext-scaled-freq-choice": (
        "under linear scaling (and Llama 3's slow pairs) the answer is the wavelength times f, "
        "larger than every wrong option rope_scaling has (unscaled, divided by f, no 2*pi)"
    ),
    "alibi-bias-choice": (
        "a causal bias is negative and two of alibi_bias's misconceptions (sign, official "
        "code +m*j) are positive, so the answer is the smallest option in about 2 of 3"
    ),
}


@lru_cache(maxsize=1)
def _banks() -> tuple[Bank, ...]:
    return tuple(load_banks(REPO / "content" / "banks"))


def _choice_questions() -> list[ComputedQuestion]:
    return [
        q
        for b in _banks()
        for q in b.questions
        if isinstance(q, ComputedQuestion) and q.answer == "choice"
    ]


@cache
def _variants(qid: str) -> tuple[Variant, ...]:
    [question] = [q for q in _choice_questions() if q.id == qid]
    return tuple(v for seed in SEEDS for v in make_concrete(question, seed, VARIANTS).variants)


def _value(text: str) -> float:
    return float(text.split("\u00a0")[0].replace(",", "."))  # the unit after a no-break space


def _ids() -> list[str]:
    return [q.id for q in _choice_questions()]


def test_every_choice_question_is_checked() -> None:
    ids = _ids()
    assert len(ids) >= 10
    assert set(SMALL_ANSWER_SETS) <= set(ids)
    assert set(KNOWN_RANK_GUESSABLE) <= set(ids)


@pytest.mark.parametrize("qid", _ids())
def test_the_right_option_does_not_keep_one_slot(qid: str) -> None:
    variants = _variants(qid)
    slots = Counter(next(i for i, o in enumerate(v.options) if o.correct) for v in variants)
    slot, count = slots.most_common(1)[0]
    share = count / len(variants)
    assert share <= MAX_POSITION_SHARE, (
        f"{qid}: the right option is option {slot + 1} in {count} of {len(variants)} variants"
    )


@pytest.mark.parametrize(
    "qid",
    [
        pytest.param(qid, marks=pytest.mark.xfail(strict=True, reason=KNOWN_RANK_GUESSABLE[qid]))
        if qid in KNOWN_RANK_GUESSABLE
        else qid
        for qid in _ids()
    ],
)
def test_the_right_option_is_not_always_the_smallest_or_the_largest(qid: str) -> None:
    variants = _variants(qid)
    smallest = largest = 0
    for v in variants:
        values = [_value(o.text) for o in v.options]
        right = next(_value(o.text) for o in v.options if o.correct)
        smallest += right == min(values)
        largest += right == max(values)
    n = len(variants)
    assert smallest / n <= MAX_POSITION_SHARE, f"{qid}: the smallest option in {smallest}/{n}"
    assert largest / n <= MAX_POSITION_SHARE, f"{qid}: the largest option in {largest}/{n}"


@pytest.mark.parametrize("qid", _ids())
def test_no_value_answers_most_variants(qid: str) -> None:
    if qid in SMALL_ANSWER_SETS:
        pytest.skip(SMALL_ANSWER_SETS[qid])
    variants = _variants(qid)
    answers = Counter(v.shown_answer for v in variants)
    answer, count = answers.most_common(1)[0]
    assert count / len(variants) <= MAX_ANSWER_SHARE, (
        f"{qid}: {answer} answers {count} of {len(variants)} variants"
    )


@pytest.mark.parametrize("qid", _ids())
def test_no_wrong_option_is_impossible_by_sign(qid: str) -> None:
    variants = _variants(qid)
    if any(v.answer < 0 for v in variants):
        return  # answers of either sign: a negative option may be right
    negative = [
        (v.index, o.text, o.misconception)
        for v in variants
        for o in v.options
        if not o.correct and _value(o.text) < 0
    ]
    assert not negative, (
        f"{qid}: every answer is >= 0, yet {len(negative)} wrong options are negative, "
        f"e.g. {negative[:3]}"
    )
