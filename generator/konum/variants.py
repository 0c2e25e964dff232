"""Apply a site seed to loaded questions: fix option orders and draw computed variants.

Every random choice comes from :func:`konum.seeding.rng_for` keyed by the site seed and
the question id, so a question's order and numbers never depend on its neighbours.
"""

from __future__ import annotations

from collections.abc import Iterable

from konum.model import (
    Bank,
    ChoiceQuestion,
    ComputedQuestion,
    Concrete,
    MatchingQuestion,
    OrderingQuestion,
    Question,
)
from konum.seeding import rng_for

DEFAULT_VARIANTS = 5


def option_order(question: ChoiceQuestion, seed: int) -> tuple[int, ...]:
    """Display order of a choice question's options (indices): pinned options keep their
    place, the others are shuffled by seed unless the question says ``shuffle: false``."""
    count = len(question.options)
    if not question.shuffle:
        return tuple(range(count))
    free = [i for i, option in enumerate(question.options) if not option.pin]
    shuffled = [free[i] for i in rng_for(seed, question.id, "options").permutation(len(free))]
    order: list[int] = []
    for i, option in enumerate(question.options):
        order.append(i if option.pin else shuffled.pop(0))
    return tuple(order)


def right_items(question: MatchingQuestion, seed: int) -> tuple[str, ...]:
    """The right-hand items of a matching question (answers and distractors), shuffled."""
    items = [pair.right for pair in question.pairs] + list(question.distractors)
    if not question.shuffle:
        return tuple(items)
    permutation = rng_for(seed, question.id, "right").permutation(len(items))
    return tuple(items[i] for i in permutation)


def item_order(question: OrderingQuestion, seed: int) -> tuple[int, ...]:
    """The starting order of an ordering question's items (indices into ``items``): a seeded
    permutation, never the right order (the identity is turned into a rotation by one)."""
    count = len(question.items)
    order = tuple(int(i) for i in rng_for(seed, question.id, "items").permutation(count))
    if order == tuple(range(count)):
        order = (*order[1:], order[0])
    return order


def make_concrete(
    question: Question, seed: int, variants: int = DEFAULT_VARIANTS, language: str = "en"
) -> Concrete:
    """``question`` with ``seed`` applied (see :class:`konum.model.Concrete`); a computed
    question's generator words its variants in ``language``, with the same numbers."""
    if isinstance(question, ChoiceQuestion):
        return Concrete(question, seed, option_order=option_order(question, seed))
    if isinstance(question, MatchingQuestion):
        return Concrete(question, seed, right_items=right_items(question, seed))
    if isinstance(question, OrderingQuestion):
        return Concrete(question, seed, item_order=item_order(question, seed))
    if isinstance(question, ComputedQuestion):
        from konum.computed import computed_variants

        return Concrete(
            question, seed, variants=computed_variants(question, seed, variants, language)
        )
    return Concrete(question, seed)


def concretes_for(
    banks: Iterable[Bank], seed: int, variants: int = DEFAULT_VARIANTS
) -> dict[str, Concrete]:
    """Every question of ``banks`` made concrete, by question id."""
    return {q.id: make_concrete(q, seed, variants) for bank in banks for q in bank.questions}
