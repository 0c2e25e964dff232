"""``type: ordering``: items to put in order, written in the right order.

In a bank::

    - id: titration-steps
      type: ordering
      prompt: Put the steps of a titration in order.
      items:
        - Fill the burette with the titrant.
        - Add the titrant drop by drop.
        - Read the volume at the colour change.

They start in a seeded order that is never the right one (:func:`item_order`); Move up and
Move down buttons reorder them. quiz.js's grader ``ordering`` checks that the item at
position ``p`` (known by its place ``k`` in the starting order) has
``answer_hash(salt, "p", p, k)`` in the data's ``positions``. Moodle XML and GIFT are left out
(ordering is not in every Moodle); QTI writes what Canvas makes of an ordering question, a
matching question from positions to items.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from markupsafe import Markup

from konum import limits, seal
from konum.fields import Reader
from konum.lms import GiftWriter, MoodleDocument
from konum.qti_items import QtiDocument
from konum.seeding import rng_for
from konum.spoken import plain_text
from konum.types import base
from konum.types.base import letter
from konum.yamlsource import YMap, YSeq


def item_order(question: OrderingQuestion, seed: int) -> tuple[int, ...]:
    """The starting order of an ordering question's items (indices into ``items``): a seeded
    permutation, never the right order (the identity is turned into a rotation by one)."""
    count = len(question.items)
    order = tuple(int(i) for i in rng_for(seed, question.id, "items").permutation(count))
    if order == tuple(range(count)):
        order = (*order[1:], order[0])
    return order


@dataclass(frozen=True)
class OrderingQuestion(base.Question):
    """Put ``items`` (written in the right order) in order."""

    items: tuple[str, ...] = ()

    type: ClassVar[str] = "ordering"
    FIELDS: ClassVar[tuple[str, ...]] = ("items",)
    TEXTS: ClassVar[tuple[str, ...]] = ("items[]",)

    @classmethod
    def read(cls, r: Reader, node: YMap, common: dict[str, Any]) -> OrderingQuestion | None:
        items = r.text_list(node, "items", "", required=True, markdown=True)
        seq = node.get("items")
        if items is None or not isinstance(seq, YSeq):
            return None
        if len(items) == len(seq.items):
            r.unique(seq, "items", items, "item", "items", why=", so two orders would be right")
        says = "too few items to order (with two, the starting order gives the answer away)"
        base.enough_items(r, seq, "items", limits.MIN_ITEMS, says)
        return cls(**common, items=items)

    def concrete(self, draw: base.Draw) -> base.Concrete:
        return base.Concrete(self, draw.seed, item_order=item_order(self, draw.seed))

    def view(self, concrete: base.Concrete, page: base.Page) -> dict[str, Any]:
        order = concrete.item_order or tuple(range(len(self.items)))
        start_of = {item: k for k, item in enumerate(order)}
        htmls = [page.md(text, inline=True) for text in self.items]
        positions = [
            seal.answer_hash(page.salt, "p", p, start_of[p]) for p in range(len(self.items))
        ]
        return {
            "order_items": [{"index": k, "html": htmls[i]} for k, i in enumerate(order)],
            "answers": htmls,
            "data": {"type": "ordering", "positions": positions},
        }

    @classmethod
    def grade(cls, spec: Mapping[str, Any], check: base.Check) -> base.Graded:
        """quiz.js's ``gradeOrdering``: ``check.values`` are the items' places in the
        starting order, in the reader's order; a share per item in its place."""
        say, order = check.say, [int(k) for k in check.values]
        if order == list(range(len(order))):
            return base.Graded(False, say("quiz.order_first"), retry=True)
        right = sum(
            seal.answer_hash(check.salt, "p", p, k) == spec["positions"][p]
            for p, k in enumerate(order)
        )
        return base.graded_parts(right, len(order), say, "quiz.order_all", "quiz.order_some")

    def cards(self, concrete: base.Concrete, ctx: base.Cards) -> list[base.Card]:
        """The items on the front in the quiz's starting order, the right order on the back."""
        order = concrete.item_order or item_order(self, 0)
        shown = "".join(f"<li>{ctx.md(self.items[i], inline=True)}</li>" for i in order)
        front = ctx.md(self.prompt) + f'<ul class="konum-order-items">{shown}</ul>'
        right = "".join(f"<li>{ctx.md(item, inline=True)}</li>" for item in self.items)
        back = f'<ol class="konum-order">{right}</ol>' + ctx.explanation(self)
        return [ctx.card(self, front, back)]

    def moodle_problem(self) -> str | None:
        return (
            "an ordering question: Moodle's ordering type is not in every Moodle, and konum "
            "writes only the types every Moodle reads"
        )

    def gift_problem(self) -> str | None:
        return "GIFT has no ordering questions"

    def qti(self, doc: QtiDocument, concrete: base.Concrete) -> None:
        """What Canvas makes of the ordering questions it imports (QTI 1.2 as it reads it has
        none): a ``matching_question`` from each position, 1, 2, ..., to its item, the items
        as plain text in the starting order; each position an equal share, as on the site."""
        order = concrete.item_order or item_order(self, concrete.seed)
        shown = [plain_text(self.items[i], doc.language) for i in order]
        rows = [(str(p + 1), shown, [order.index(p)]) for p in range(len(self.items))]
        doc.item("matching_question", self, doc.html(self.prompt)).lists(rows, "m")

    def moodle(self, doc: MoodleDocument, concrete: base.Concrete) -> None:  # pragma: no cover
        raise AssertionError(self.moodle_problem())

    def gift(self, w: GiftWriter, concrete: base.Concrete) -> None:  # pragma: no cover
        raise AssertionError(self.gift_problem())

    def printed(self, ctx: base.Print) -> base.PrintedQuestion:
        """The items lettered in the version's starting order; the key gives the letters in
        the right order."""
        order = item_order(self, ctx.seed)
        letters = [letter(order.index(place)) for place in range(len(self.items))]
        return ctx.printed(
            self,
            Markup("<strong>{}</strong>").format(", ".join(letters)),
            options=tuple(ctx.md(self.items[i], inline=True) for i in order),
        )
