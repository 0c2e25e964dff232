"""No choice question can be answered without knowing the topic (issues 37 and 44).

Every computed question of the course with ``answer: choice`` is drawn for many site seeds,
with the course's own loaders (:func:`tests.helpers.load_banks`, :func:`make_concrete`) and
as many variants as the site shows. A question is guessable when, across those variants,

* the right option sits in the same slot too often (pick "the first one");
* the right option is too often at one rank among the options by value: the smallest, the
  largest, or any rank between (pick "the smallest", "the second largest");
* one value answers too many variants (remember the number, not the method);
* a wrong option is impossible by sign: negative when every answer is non-negative (a count,
  a row or a column), so it can be ruled out without computing anything.

* a wrong option shows a whole number where the answer does not (strike out "7.000");
* the right option is the longest too often (pick "the longest").

The exported variants (the site's seed) of each such question put the right option in more
than one slot. The authored choice questions of both editions (English and the Turkish
translation) are held to rules of length and wording:

* the right option of a single-answer question is the longest in at most
  :data:`MAX_LONGEST_SHARE` of the questions, and longer than every other option by
  :data:`MUCH_LONGER` or more in at most :data:`MAX_MUCH_LONGER` of them;
* absolute words ("always", "guarantees") and hedges ("usually", "can") are not concentrated
  on one side: options with them are right about as often as options are at all, and no
  single-answer question is answered by picking the one option that sounds least absolute.

A matching question gives nothing free at the end: it has a distractor (more right-hand items
than pairs) or at least :data:`MIN_PAIRS_WITHOUT_DISTRACTOR` pairs.

Each rule is a function of the variants or of the options; the last tests feed each one a
made-up guessable question, so a rule that stops catching what it should fails too.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Protocol

import pytest
import yaml

from konum.model import Variant
from konum.translate import check_translations
from konum.types import Bank, ChoiceQuestion, ComputedQuestion, MatchingQuestion
from tests.helpers import load_banks, make_concrete

REPO = Path(__file__).resolve().parent.parent
SEEDS = range(40)
#: As many variants per seed as the site shows (mkdocs.base.yml, konum's ``variants``).
_SITE = yaml.safe_load((REPO / "mkdocs.base.yml").read_text(encoding="utf-8"))[
    "markdown_extensions"
]["konum"]
VARIANTS = int(_SITE["variants"])
#: The site's seed: the variants the pages and the downloads show.
SITE_SEED = int(_SITE["seed"])

#: Largest share of variants whose right option is in one slot, or at one rank among the
#: options sorted by value (the smallest, the second smallest, ...).
MAX_POSITION_SHARE = 0.60
#: Largest share of variants that one shown answer may answer.
MAX_ANSWER_SHARE = 0.40

#: Where answers are mostly not whole numbers: a kind of wrong option shown in at least
#: MIN_WHOLE_SHOWN of the variants may be a whole number in less than MAX_WHOLE_SHARE of those.
MIN_WHOLE_SHOWN = 0.25
MAX_WHOLE_SHARE = 0.90
#: Largest share of single-answer questions (or of a computed question's variants) whose
#: right option is the longest.
MAX_LONGEST_SHARE = 0.40
#: How much longer than every other option the right one is when it stands out at a glance.
MUCH_LONGER = 1.20
#: Most single-answer questions of an edition whose right option stands out by length.
MAX_MUCH_LONGER = 2
#: How far (as a factor either way) the share of right options among options with absolute
#: words, or with hedges, may stray from the share of right options among all options.
WORDING_FACTOR = 1.5
#: Fewest options with such words for their share to say anything.
MIN_WORDED = 4
#: A matching question without distractors needs this many pairs, so that the last match
#: is not the only guess left after a few easy ones.
MIN_PAIRS_WITHOUT_DISTRACTOR = 5

#: Absolute words and hedges, per language (Turkish "can/may" is the suffix -abil/-ebil).
ABSOLUTE = {
    "en": r"\b(?:perfectly|guarantee\w*|always|never|any|every\w*)\b",
    "tr": r"(?:mükemmel\w*|garanti\w*|her zaman|asla|hiçbir|herhangi\w*|\bher\b|tüm\w*)",
}
HEDGE = {
    "en": r"\b(?:usually|some|can|may|might|often|mostly)\b",
    "tr": r"(?:genellikle|genelde|\bbazı\w*|bazen|\w+[ae]bil\w*|çoğu\w*)",
}
EDITIONS = ("en", "tr")

#: Questions whose answer is legitimately one of a small set, with the reason (none yet: a
#: question added here must say why remembering its answers is knowing the method).
SMALL_ANSWER_SETS: dict[str, str] = {}


class _Option(Protocol):
    @property
    def text(self) -> str: ...
    @property
    def correct(self) -> bool: ...
    @property
    def misconception(self) -> str | None: ...


class _Variant(Protocol):
    @property
    def index(self) -> int: ...
    @property
    def answer(self) -> float: ...
    @property
    def shown_answer(self) -> str: ...
    @property
    def options(self) -> Sequence[_Option]: ...


@lru_cache(maxsize=1)
def _banks() -> tuple[Bank, ...]:
    return tuple(load_banks(REPO / "content" / "banks"))


@cache
def _edition(language: str) -> tuple[Bank, ...]:
    """The course's banks in ``language``: the English ones, or their translation."""
    if language == "en":
        return _banks()
    return tuple(check_translations(_banks(), REPO / "content" / language / "banks").banks)


def _authored(language: str) -> list[ChoiceQuestion]:
    return [q for b in _edition(language) for q in b.questions if isinstance(q, ChoiceQuestion)]


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


@cache
def _site_variants(qid: str) -> tuple[Variant, ...]:
    """The variants the site (and its downloads) show: the site's seed."""
    [question] = [q for q in _choice_questions() if q.id == qid]
    return make_concrete(question, SITE_SEED, VARIANTS).variants


def _value(text: str) -> float:
    return float(text.split("\u00a0")[0].replace(",", "."))  # the unit after a no-break space


def _ids() -> list[str]:
    return [q.id for q in _choice_questions()]


# --- the rules: each returns why the variants are guessable, or None -------------------------


def slot_problem(variants: Sequence[_Variant]) -> str | None:
    """The right option sits in one slot too often ("pick the first one")."""
    slots = Counter(next(i for i, o in enumerate(v.options) if o.correct) for v in variants)
    slot, count = slots.most_common(1)[0]
    if count / len(variants) > MAX_POSITION_SHARE:
        return f"the right option is option {slot + 1} in {count} of {len(variants)} variants"
    return None


def rank_problem(variants: Sequence[_Variant]) -> str | None:
    """The right option has one rank among the options by value too often ("pick the
    smallest", "pick the second largest")."""
    ranks: Counter[tuple[int, int]] = Counter()
    for v in variants:
        values = sorted(_value(o.text) for o in v.options)
        right = next(_value(o.text) for o in v.options if o.correct)
        ranks[values.index(right), len(values)] += 1
    (rank, size), count = ranks.most_common(1)[0]
    if count / len(variants) > MAX_POSITION_SHARE:
        return (
            f"the right option is number {rank + 1} of {size} from the smallest in {count} of "
            f"{len(variants)} variants"
        )
    return None


def answer_problem(variants: Sequence[_Variant]) -> str | None:
    """One value answers too many variants (remember the number, not the method)."""
    answer, count = Counter(v.shown_answer for v in variants).most_common(1)[0]
    if count / len(variants) > MAX_ANSWER_SHARE:
        return f"{answer} answers {count} of {len(variants)} variants"
    return None


def sign_problem(variants: Sequence[_Variant]) -> str | None:
    """A wrong option is negative where every answer is >= 0 (a count, a row, a column)."""
    if any(v.answer < 0 for v in variants):
        return None  # answers of either sign: a negative option may be right
    negative = [
        (v.index, o.text, o.misconception)
        for v in variants
        for o in v.options
        if not o.correct and _value(o.text) < 0
    ]
    if negative:
        return (
            f"every answer is >= 0, yet {len(negative)} wrong options are negative, "
            f"e.g. {negative[:3]}"
        )
    return None


def whole_problem(variants: Sequence[_Variant]) -> str | None:
    """One kind of wrong option (one misconception) is a whole number almost wherever it is
    shown, where the answer mostly is not ("7.000" among "6.412", "-2.871", "3.356": strike
    it out without computing)."""

    def whole(text: str) -> bool:
        return _value(text) == round(_value(text))

    if sum(whole(v.shown_answer) for v in variants) >= len(variants) / 2:
        return None  # whole answers are the rule: a whole wrong option says nothing
    shown: Counter[str | None] = Counter()
    wholes: Counter[str | None] = Counter()
    for v in variants:
        for o in v.options:
            if not o.correct:
                shown[o.misconception] += 1
                wholes[o.misconception] += whole(o.text)
    given = [
        f"{kind} ({wholes[kind]} of {count})"
        for kind, count in shown.items()
        if count >= MIN_WHOLE_SHOWN * len(variants) and wholes[kind] >= MAX_WHOLE_SHARE * count
    ]
    if given:
        return "a wrong option that is always a whole number: " + ", ".join(given)
    return None


def _shown_length(text: str) -> int:
    """The length a reader sees: Markdown and TeX markup left out, spaces collapsed."""
    bare = re.sub(r"\\[A-Za-z]+|[$`*_{}\\]", "", text)
    return len(" ".join(bare.split()))


def _lead(texts: Sequence[str], right: int) -> float:
    """How many times longer the right option (index ``right``) is than the longest other."""
    others = [_shown_length(t) for i, t in enumerate(texts) if i != right]
    return _shown_length(texts[right]) / max(1, *others)


def longest_problem(variants: Sequence[_Variant]) -> str | None:
    """The right option is the longest in too many variants of a computed question."""
    longest = 0
    for v in variants:
        right = next(i for i, o in enumerate(v.options) if o.correct)
        longest += _lead([o.text for o in v.options], right) > 1
    if longest / len(variants) > MAX_LONGEST_SHARE:
        return f"the right option is the longest in {longest} of {len(variants)} variants"
    return None


def length_problem(questions: Sequence[tuple[str, Sequence[str], int]]) -> str | None:
    """Across single-answer questions ``(id, option texts, index of the right one)``, the
    right option is the longest too often, or stands out by length in too many."""
    leads = {qid: _lead(texts, right) for qid, texts, right in questions}
    longest = sorted(q for q, lead in leads.items() if lead > 1)
    much = sorted(q for q, lead in leads.items() if lead >= MUCH_LONGER)
    problems = []
    if len(longest) > MAX_LONGEST_SHARE * len(leads):
        problems.append(f"the right option is the longest in {len(longest)} of {len(leads)}")
    if len(much) > MAX_MUCH_LONGER:
        problems.append(
            f"it is {MUCH_LONGER:g} times as long as any other in {len(much)}: "
            + ", ".join(f"{q} ({leads[q]:.1f}x)" for q in much)
        )
    return "; ".join(problems) or None


def _tone(text: str, language: str) -> int:
    """Absolute words minus hedges: above 0 sounds sure, below 0 cautious."""
    absolute = len(re.findall(ABSOLUTE[language], text, re.IGNORECASE))
    return absolute - len(re.findall(HEDGE[language], text, re.IGNORECASE))


def wording_problem(
    questions: Sequence[tuple[str, Sequence[tuple[str, bool]], bool]], language: str
) -> str | None:
    """Absolute words or hedges side with wrong or right options: across ``questions``
    ``(id, options as (text, right), single-answer)``, options with absolute words are right
    much less often than options are, or options with hedges much more often; or a
    single-answer question's right option is the one that sounds least sure."""
    options = [o for _, opts, _ in questions for o in opts]
    base = sum(right for _, right in options) / len(options)
    problems = []
    for name, pattern, sign in (("absolute", ABSOLUTE, 1), ("hedged", HEDGE, -1)):
        worded = [right for text, right in options if re.search(pattern[language], text, re.I)]
        if len(worded) < MIN_WORDED:
            continue
        share = sum(worded) / len(worded)
        if (sign > 0 and share * WORDING_FACTOR < base) or (
            sign < 0 and share > base * WORDING_FACTOR
        ):
            problems.append(
                f"{sum(worded)} of {len(worded)} {name} options are right, against "
                f"{base:.0%} of all options"
            )
    for qid, opts, single in questions:
        tones = [_tone(text, language) for text, _ in opts]
        least = [i for i, tone in enumerate(tones) if tone == min(tones)]
        if single and len(least) == 1 and opts[least[0]][1]:
            problems.append(f"{qid}: the right option is the only one that sounds least sure")
    return "; ".join(problems) or None


def opening_problem(questions: Sequence[tuple[str, Sequence[str], int]]) -> str | None:
    """In single-answer questions ``(id, option texts, index of the right one)`` of three
    options or more, every wrong option opens with one word and the right one with another
    ("It ...", "It ...", "It ...", "Every ...": pick the odd one out)."""

    def opening(text: str) -> str:
        return text.split()[0].strip(":;,.").lower() if text.split() else ""

    odd = []
    for qid, texts, right in questions:
        wrong = {opening(t) for i, t in enumerate(texts) if i != right}
        if len(texts) >= 3 and len(wrong) == 1 and opening(texts[right]) not in wrong:
            odd.append(qid)
    return f"only the right option opens differently in {', '.join(odd)}" if odd else None


def matching_problem(pairs: int, distractors: int) -> str | None:
    """The last match is free: no distractor and too few pairs."""
    if distractors == 0 and pairs < MIN_PAIRS_WITHOUT_DISTRACTOR:
        return (
            f"{pairs} pairs and no distractor: add a right-hand item that matches nothing, or "
            f"pairs up to {MIN_PAIRS_WITHOUT_DISTRACTOR}"
        )
    return None


# --- the course's questions ------------------------------------------------------------------


def test_every_choice_question_is_checked() -> None:
    ids = _ids()
    assert len(ids) >= 10
    assert set(SMALL_ANSWER_SETS) <= set(ids)


@pytest.mark.parametrize("qid", _ids())
def test_the_right_option_does_not_keep_one_slot(qid: str) -> None:
    assert slot_problem(_variants(qid)) is None, qid


@pytest.mark.parametrize("qid", _ids())
def test_the_right_option_does_not_keep_one_rank(qid: str) -> None:
    assert rank_problem(_variants(qid)) is None, qid


@pytest.mark.parametrize("qid", _ids())
def test_no_value_answers_most_variants(qid: str) -> None:
    if qid in SMALL_ANSWER_SETS:
        pytest.skip(SMALL_ANSWER_SETS[qid])
    assert answer_problem(_variants(qid)) is None, qid


@pytest.mark.parametrize("qid", _ids())
def test_no_wrong_option_is_impossible_by_sign(qid: str) -> None:
    assert sign_problem(_variants(qid)) is None, qid


@pytest.mark.parametrize("qid", _ids())
def test_no_wrong_option_is_given_away_by_being_whole(qid: str) -> None:
    assert whole_problem(_variants(qid)) is None, qid


@pytest.mark.parametrize("qid", _ids())
def test_the_right_computed_option_is_not_the_longest(qid: str) -> None:
    assert longest_problem(_variants(qid)) is None, qid


@pytest.mark.parametrize("qid", _ids())
def test_the_site_shows_the_right_option_in_more_than_one_slot(qid: str) -> None:
    slots = {next(i for i, o in enumerate(v.options) if o.correct) for v in _site_variants(qid)}
    assert len(slots) > 1, f"{qid}: the right option is option {slots} in every shown variant"


@pytest.mark.parametrize("language", EDITIONS)
def test_the_right_option_does_not_stand_out_by_length(language: str) -> None:
    single = [
        (q.id, [o.text for o in q.options], next(i for i, o in enumerate(q.options) if o.correct))
        for q in _authored(language)
        if not q.multiple
    ]
    assert len(single) >= 20
    assert length_problem(single) is None, language


@pytest.mark.parametrize("language", EDITIONS)
def test_the_right_option_does_not_open_differently(language: str) -> None:
    single = [
        (q.id, [o.text for o in q.options], next(i for i, o in enumerate(q.options) if o.correct))
        for q in _authored(language)
        if not q.multiple
    ]
    assert opening_problem(single) is None, language


@pytest.mark.parametrize("language", EDITIONS)
def test_absolute_words_and_hedges_take_no_side(language: str) -> None:
    questions = [
        (q.id, [(o.text, o.correct) for o in q.options], not q.multiple)
        for q in _authored(language)
    ]
    assert wording_problem(questions, language) is None, language


def test_no_match_is_free() -> None:
    found = {
        q.id: matching_problem(len(q.pairs), len(q.distractors))
        for b in _banks()
        for q in b.questions
        if isinstance(q, MatchingQuestion)
    }
    assert found and {q: p for q, p in found.items() if p} == {}


# --- the rules themselves --------------------------------------------------------------------


@dataclass(frozen=True)
class _FakeOption:
    text: str
    correct: bool = False
    misconception: str | None = None


@dataclass(frozen=True)
class _FakeVariant:
    index: int
    answer: float
    shown_answer: str
    options: tuple[_FakeOption, ...]


def _fake(answer: float, wrong: Sequence[float], slot: int, index: int = 0) -> _FakeVariant:
    options = [_FakeOption(f"{w:g}", misconception=f"m{i}") for i, w in enumerate(wrong)]
    options.insert(slot, _FakeOption(f"{answer:g}", correct=True))
    return _FakeVariant(index, answer, f"{answer:g}", tuple(options))


def _fair(n: int = 40) -> list[_FakeVariant]:
    """Answers all different, at every slot and every rank in turn."""
    out = []
    for i in range(n):
        answer = 10.0 + i
        below = [answer - 1 - j for j in range(i % 4)]
        above = [answer + 1 + j for j in range(3 - i % 4)]
        out.append(_fake(answer, below + above, (i // 4) % 4, i))
    return out


def test_the_rules_pass_a_fair_question() -> None:
    fair = _fair()
    rules = (slot_problem, rank_problem, answer_problem, sign_problem, whole_problem)
    assert [rule(fair) for rule in (*rules, longest_problem)] == [None] * 6


@pytest.mark.parametrize(
    ("rule", "variants", "why"),
    [
        (slot_problem, [_fake(10 + i, [1, 2, 3], 0, i) for i in range(20)], "option 1"),
        (rank_problem, [_fake(10 + i, [1, 2, 3], i % 4, i) for i in range(20)], "4 of 4"),
        (rank_problem, [_fake(10 + i, [1, 99, 98], i % 4, i) for i in range(20)], "2 of 4"),
        (answer_problem, [_fake(7, [1, 2, 90 + i], i % 4, i) for i in range(20)], "7 answers"),
        (sign_problem, [_fake(3 + i, [-1, 1, 99], i % 4, i) for i in range(20)], "negative"),
        (whole_problem, [_fake(3.5 + i, [7, 1.25, 9.75], i % 4, i) for i in range(20)], "always"),
        (longest_problem, [_fake(-10.5 - i, [1, 2, 3], i % 4, i) for i in range(20)], "longest"),
    ],
    ids=["slot", "largest", "second-smallest", "one-answer", "sign", "whole", "longest"],
)
def test_the_rules_catch_a_guessable_question(
    rule: Callable[[Sequence[_Variant]], str | None], variants: list[_FakeVariant], why: str
) -> None:
    problem = rule(variants)
    assert problem is not None and why in problem


_FAIR_TEXTS = ["A short right one", "A wrong one, longer", "Wrong again", "Another wrong"]


def test_the_length_rule_passes_fair_options_and_catches_long_right_ones() -> None:
    fair = [(f"q{i}", _FAIR_TEXTS, i % 4) for i in range(20)]
    assert length_problem(fair) is None
    long_right = [
        (f"l{i}", ["Right, and said at greater length", "No", "Nope"], 0) for i in range(3)
    ]
    problem = length_problem(fair + long_right)
    assert problem is not None and "l0 (" in problem and "the longest in" not in problem
    mostly = [(f"m{i}", ["Right one!", "Wrong one", "Wrong two"], 0) for i in range(10)]
    problem = length_problem(fair + mostly)
    assert problem is not None and "the longest in 15 of 30" in problem and "m0" not in problem


def test_the_wording_rule_catches_absolutes_on_wrong_options_and_hedges_on_right_ones() -> None:
    fair = [
        ("q1", [("It always holds", True), ("It can fail", False), ("Never", False)], True),
        ("q2", [("Every one of them", True), ("Some of them", False), ("None", False)], True),
        ("q3", [("Any of them", True), ("It may", False), ("No", False)], True),
    ]
    assert wording_problem(fair, "en") is None
    strike = [
        (f"s{i}", [("It can help", True), ("It always works", False), ("It never works", False)],
         True)
        for i in range(6)
    ]  # fmt: skip
    problem = wording_problem(fair + strike, "en")
    assert problem is not None
    assert "absolute options are right" in problem and "hedged options are right" in problem
    assert "s0: the right option is the only one that sounds least sure" in problem
    turkish = [("t", [("Bazen işe yarar", True), ("Her zaman çalışır", False)], True)]
    assert "t: the right option" in (wording_problem(turkish, "tr") or "")


def test_the_opening_rule_catches_the_odd_one_out() -> None:
    assert opening_problem([("q", ["It holds", "Every one", "Because of x"], 0)]) is None
    assert opening_problem([("q", ["It holds", "It fails", "Nothing"], 0)]) is None
    problem = opening_problem([("q", ["Every one", "It fails", "It crashes"], 0)])
    assert problem == "only the right option opens differently in q"


def test_the_matching_rule_wants_a_distractor_or_five_pairs() -> None:
    assert matching_problem(4, 1) is None and matching_problem(5, 0) is None
    assert "4 pairs and no distractor" in (matching_problem(4, 0) or "")
