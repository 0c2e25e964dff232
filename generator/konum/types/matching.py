"""``type: matching``: each left item matched to its right item, among distractors.

In a bank::

    - id: laws-match
      type: matching
      prompt: Match each quantity to its unit.
      pairs:
        - {left: force, right: newton}
        - {left: energy, right: joule}
      distractors: [pascal]

The right-hand items are shuffled by seed and lettered; each left item has a drop-down of
the letters (its options as plain text, formulas as a reader says them:
:func:`konum.spoken.html_text`). quiz.js's grader ``matching`` checks row ``i``'s letter
``a`` against ``answer_hash(salt, "m", i, a)``.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from markupsafe import Markup

from konum import limits, seal
from konum.fields import Reader, norm
from konum.lms import GiftWriter, MoodleDocument, combined_feedback, text_element, value
from konum.qti_items import QtiDocument
from konum.seeding import rng_for
from konum.spoken import html_text, plain_text
from konum.types import base
from konum.types.base import letter
from konum.yamlsource import Mark, YMap, YSeq

PAIR_FIELDS = ("left", "right")


@dataclass(frozen=True)
class Pair:
    """A matching pair: ``left`` is shown in order, ``right`` among the shuffled choices."""

    left: str
    right: str


def right_items(question: MatchingQuestion, seed: int) -> tuple[str, ...]:
    """The right-hand items of a matching question (answers and distractors), shuffled."""
    items = [pair.right for pair in question.pairs] + list(question.distractors)
    if not question.shuffle:
        return tuple(items)
    permutation = rng_for(seed, question.id, "right").permutation(len(items))
    return tuple(items[i] for i in permutation)


@dataclass(frozen=True)
class MatchingQuestion(base.Question):
    """Match each left item to its right item; ``distractors`` are extra right-side items."""

    pairs: tuple[Pair, ...] = ()
    distractors: tuple[str, ...] = ()
    shuffle: bool = True

    type: ClassVar[str] = "matching"
    FIELDS: ClassVar[tuple[str, ...]] = ("pairs", "distractors", "shuffle")
    TEXTS: ClassVar[tuple[str, ...]] = ("pairs[].left", "pairs[].right", "distractors[]")

    @classmethod
    def read(cls, r: Reader, node: YMap, common: dict[str, Any]) -> MatchingQuestion | None:
        shuffle = r.boolean(node, "shuffle", "", True)
        seq = r.sequence(node, "pairs", "", required=True)
        pairs: list[Pair] = []
        seen: dict[str, dict[str, tuple[int, Mark]]] = {"left": {}, "right": {}}
        says = "each pair must be a mapping with 'left' and 'right'"
        for j, path, item in r.mappings(seq, "pairs", says):
            r.check_keys(item, path, PAIR_FIELDS)
            sides = {}
            for side in ("left", "right"):
                text = r.text(item, side, path, required=True, markdown=True)
                sides[side] = text
                side_node = item.get(side)
                if text is None or side_node is None:
                    continue
                earlier = seen[side].setdefault(norm(text), (j, side_node.mark))
                if earlier[0] != j:
                    r.problem(
                        side_node.mark,
                        f"{path}.{side}",
                        f"duplicate {side} item: the same as pairs[{earlier[0]}].{side} "
                        f"(line {earlier[1].line})",
                    )
            if sides["left"] is not None and sides["right"] is not None:
                pairs.append(Pair(sides["left"], sides["right"]))
        if seq is not None:
            base.enough_items(r, seq, "pairs", limits.MIN_PAIRS, "too few pairs")
        distractors = r.text_list(node, "distractors", "", required=False, markdown=True) or ()
        dseq = node.get("distractors")
        for j, text in enumerate(distractors):
            mark = dseq.items[j].mark if isinstance(dseq, YSeq) else node.mark
            earlier = seen["right"].setdefault(norm(text), (-1 - j, mark))
            if earlier[0] != -1 - j:
                what = (
                    f"pairs[{earlier[0]}].right"
                    if earlier[0] >= 0
                    else f"distractors[{-1 - earlier[0]}]"
                )
                r.problem(
                    mark,
                    f"distractors[{j}]",
                    f"duplicate right-hand item: the same as {what} (line {earlier[1].line})",
                )
        return cls(**common, pairs=tuple(pairs), distractors=tuple(distractors), shuffle=shuffle)

    def concrete(self, draw: base.Draw) -> base.Concrete:
        return base.Concrete(self, draw.seed, right_items=right_items(self, draw.seed))

    def view(self, concrete: base.Concrete, page: base.Page) -> dict[str, Any]:
        right = list(concrete.right_items) or [p.right for p in self.pairs] + list(self.distractors)
        answers = [right.index(pair.right) for pair in self.pairs]
        return {
            "rights": [
                {
                    "index": i,
                    "letter": letter(i),
                    "html": html,
                    "plain": html_text(html, page.language),
                }
                for i, html in enumerate(page.md(text, inline=True) for text in right)
            ],
            "rows": [
                {
                    "id": f"{page.dom_id}-left-{i}",
                    "left": page.md(p.left, inline=True),
                    "answer": letter(answers[i]),
                }
                for i, p in enumerate(self.pairs)
            ],
            "data": {
                "type": "matching",
                "rows": [seal.answer_hash(page.salt, "m", i, a) for i, a in enumerate(answers)],
            },
        }

    @classmethod
    def grade(cls, spec: Mapping[str, Any], check: base.Check) -> base.Graded:
        """quiz.js's ``gradeMatching``: each row's chosen right item (``check.values``, its
        index as text, ``""`` for none); a share per row matched."""
        say, chosen = check.say, check.values
        if all(v == "" for v in chosen):
            return base.Graded(False, say("quiz.match_first"), retry=True)
        right = sum(
            v != "" and seal.answer_hash(check.salt, "m", i, v) == spec["rows"][i]
            for i, v in enumerate(chosen)
        )
        return base.graded_parts(right, len(chosen), say, "quiz.match_all", "quiz.match_some")

    def cards(self, concrete: base.Concrete, ctx: base.Cards) -> list[base.Card]:
        lefts = "".join(f"<li>{ctx.md(p.left, inline=True)}</li>" for p in self.pairs)
        front = ctx.md(self.prompt) + f'<ul class="konum-match-items">{lefts}</ul>'
        rows = "".join(
            f"<tr><td>{ctx.md(p.left, inline=True)}</td>"
            f"<td>{ctx.md(p.right, inline=True)}</td></tr>"
            for p in self.pairs
        )
        table = (
            f'<table class="konum-pairs"><thead><tr><th scope="col">{ctx.say("cards.item")}'
            f'</th><th scope="col">{ctx.say("cards.matches")}</th></tr></thead>'
            f"<tbody>{rows}</tbody></table>"
        )
        return [ctx.card(self, front, table + ctx.explanation(self))]

    def _too_few(self) -> str | None:
        answers = len(self.pairs) + len(self.distractors)
        if answers < 3:
            return (
                "Moodle's matching questions need at least three answers (pairs and "
                f"distractors), found {answers}"
            )
        return None

    moodle_problem = _too_few
    gift_problem = _too_few

    def moodle(self, doc: MoodleDocument, concrete: base.Concrete) -> None:
        """``matching``: pairs as subquestions, distractors as answers with no subquestion;
        answers are plain text (Moodle shows them in a drop-down), math as Unicode."""
        element = doc.question("matching", self, text=doc.html(self.prompt))
        value(element, "shuffleanswers", "true" if self.shuffle else "false")
        combined_feedback(element)
        rows = [(doc.html(p.left, inline=True), p.right) for p in self.pairs]
        for left, right in rows + [("", d) for d in self.distractors]:
            sub = text_element(element, "subquestion", left)
            answer = ET.SubElement(ET.SubElement(sub, "answer"), "text")
            answer.text = plain_text(right, doc.language)

    def gift(self, w: GiftWriter, concrete: base.Concrete) -> None:
        """``{=left -> right = -> distractor}``, the right sides as plain text."""
        lines = [
            f"  ={w.part(w.html(p.left, inline=True).replace('->', '-&gt;'))} -> "
            f"{w.escape(plain_text(p.right, w.language))}"
            for p in self.pairs
        ]
        lines += [f"  = -> {w.escape(plain_text(d, w.language))}" for d in self.distractors]
        body = "\n".join(lines)
        w.add(f"{w.head(self.id, w.html(self.prompt))}{{\n{body}{w.general(self)}\n}}")

    def qti(self, doc: QtiDocument, concrete: base.Concrete) -> None:
        """``matching_question``: each left item with a drop-down of the right-hand items
        (distractors among them, in konum's order for the seed), both as plain text with math
        as a reader says it (Canvas shows no markup there); each pair an equal share."""
        rights = list(concrete.right_items or right_items(self, concrete.seed))
        said = [plain_text(right, doc.language) for right in rights]
        rows = [
            (plain_text(p.left, doc.language), said, [rights.index(p.right)]) for p in self.pairs
        ]
        doc.item("matching_question", self, doc.html(self.prompt)).lists(rows, "m")

    def printed(self, ctx: base.Print) -> base.PrintedQuestion:
        items = right_items(self, ctx.seed)
        rights = tuple(ctx.md(item, inline=True) for item in items)
        rows = [
            Markup("{} → <strong>{}</strong> {}").format(
                k + 1, letter(items.index(p.right)), rights[items.index(p.right)]
            )
            for k, p in enumerate(self.pairs)
        ]
        return ctx.printed(
            self,
            Markup("<br>").join(rows),
            lefts=tuple(ctx.md(p.left, inline=True) for p in self.pairs),
            rights=rights,
        )
