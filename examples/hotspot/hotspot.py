"""``type: hotspot``: click the region of a picture, a question type shipped as a plugin.

konum names no such type: this file gives it (``TYPES``), with its template
(``parts/quiz/hotspot.html.j2``), its printed answer space (``parts/exam/hotspot.html.j2``)
and its front-end part (``parts/hotspot.js``). A site names the file in its ``plugins``
option and its banks may then write::

    - id: fastest-column
      type: hotspot
      prompt: Click the column whose colours change fastest from row to row.
      frequencies: [0.15, 1.3, 0.5, 0.05]   # one column of the heat map each
      regions: [A, B, C, D]                  # the columns' names, in order
      answer: B

The picture is a heat map the plugin draws: row ``r`` of column ``c`` is coloured by
``cos(r * frequencies[c])``, so a column of a higher frequency changes faster from row to
row. Each column is a region the reader clicks (or reaches with Tab and the arrow keys and
picks with Space or Enter); on the page each region is a radio button named by the region,
so `konum quiz` lists the regions by name. The right region's place is hashed under the
page's salt (``answer_hash(salt, "r", index)``), never written in clear. Moodle, GIFT and QTI
hold the question as a choice over the regions' names.
"""

from __future__ import annotations

import html
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from markupsafe import Markup

from konum import seal
from konum.fields import Reader
from konum.lms import GiftWriter, MoodleDocument, answer, multichoice
from konum.qti_items import QtiDocument
from konum.types.base import (
    Card,
    Cards,
    Check,
    Concrete,
    Graded,
    Page,
    Print,
    PrintedQuestion,
    Question,
    answer_line,
)
from konum.yamlsource import YMap

HERE = Path(__file__).resolve().parent
#: The picture's rows, and the columns a question may have.
ROWS = 16
COLUMNS = (2, 8)
#: One cell's size in the picture's units.
CELL_WIDTH, CELL_HEIGHT = 40, 12


def heat_map(frequencies: Sequence[float], names: Sequence[str], right: int | None = None) -> str:
    """The picture: one column per frequency, row ``r`` of column ``c`` drawn in the text's
    colour at an opacity from ``cos(r * frequencies[c])`` (so it reads in light and dark
    schemes); with ``right``, that column outlined (a card's back, the exam's key)."""
    width, height = CELL_WIDTH * len(frequencies), CELL_HEIGHT * ROWS
    cells = []
    for c, frequency in enumerate(frequencies):
        for r in range(ROWS):
            shade = 0.1 + 0.8 * (1 + math.cos(r * frequency)) / 2
            cells.append(
                f'<rect x="{c * CELL_WIDTH}" y="{r * CELL_HEIGHT}" width="{CELL_WIDTH}" '
                f'height="{CELL_HEIGHT}" fill="currentColor" fill-opacity="{shade:.2f}"/>'
            )
    if right is not None:
        cells.append(
            f'<rect x="{right * CELL_WIDTH + 2}" y="2" width="{CELL_WIDTH - 4}" '
            f'height="{height - 4}" fill="none" stroke="#e53935" stroke-width="4"/>'
        )
    label = ", ".join(names)
    return (
        f'<svg class="konum-hotspot-map" viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="{html.escape(label)}" xmlns="http://www.w3.org/2000/svg">'
        f"{''.join(cells)}</svg>"
    )


@dataclass(frozen=True)
class HotspotQuestion(Question):
    """A heat map's columns as regions to click; ``answer`` names the right one."""

    frequencies: tuple[float, ...] = ()
    regions: tuple[str, ...] = ()
    answer: str = ""

    type: ClassVar[str] = "hotspot"
    FIELDS: ClassVar[tuple[str, ...]] = ("frequencies", "regions", "answer")
    TEXTS: ClassVar[tuple[str, ...]] = ("regions[]", "answer")
    TEMPLATES: ClassVar[Path | None] = HERE / "parts"
    SCRIPT: ClassVar[Path | None] = HERE / "parts" / "hotspot.js"

    @property
    def right(self) -> int:
        """The right region's place."""
        return self.regions.index(self.answer)

    @classmethod
    def read(cls, r: Reader, node: YMap, common: dict[str, Any]) -> HotspotQuestion | None:
        seq = r.sequence(node, "frequencies", "", required=True)
        items = seq.items if seq is not None else []
        frequencies = [r.number(item, f"frequencies[{i}]") for i, item in enumerate(items)]
        regions = r.text_list(node, "regions", "", required=True)
        answer_text = r.text(node, "answer", "", required=True)
        if seq is None or regions is None or answer_text is None or None in frequencies:
            return None
        low, high = COLUMNS
        if not low <= len(seq.items) <= high:
            r.problem(
                seq.mark, "frequencies", "wrong number of columns",
                expected=f"{low} to {high} frequencies", found=str(len(seq.items)),
            )  # fmt: skip
            return None
        if len(regions) != len(frequencies):
            r.problem(
                (node.get("regions") or node).mark, "regions", "one name per column is needed",
                expected=f"{len(frequencies)} names", found=str(len(regions)),
            )  # fmt: skip
            return None
        if answer_text not in regions:
            r.problem(
                (node.get("answer") or node).mark, "answer", "not one of the regions",
                expected="one of " + ", ".join(regions), found=f"'{answer_text}'",
            )  # fmt: skip
            return None
        numbers = tuple(float(f) for f in frequencies if f is not None)
        return cls(**common, frequencies=numbers, regions=regions, answer=answer_text)

    # --- the page ------------------------------------------------------------------------

    def view(self, concrete: Concrete, page: Page) -> dict[str, Any]:
        """The picture, a region per column (its place as a share of the width) and the
        grader's data: how many regions, and the hash of the right one's place."""
        share = 100 / len(self.regions)
        return {
            "picture": Markup(heat_map(self.frequencies, self.regions)),
            "regions": [
                {
                    "index": i,
                    "id": f"{page.dom_id}-region-{i}",
                    "name": name,
                    "left": round(i * share, 4),
                    "width": round(share, 4),
                }
                for i, name in enumerate(self.regions)
            ],
            "answer": self.answer,
            "data": {
                "type": "hotspot",
                "count": len(self.regions),
                "right": seal.answer_hash(page.salt, "r", self.right),
            },
        }

    @classmethod
    def grade(cls, spec: Mapping[str, Any], check: Check) -> Graded:
        """hotspot.js's ``grade`` in Python (``konum quiz``): ``check.values`` are the
        regions' radio buttons, ticked or not, in the picture's order."""
        picked = [i for i, on in enumerate(check.values) if on]
        if not picked:
            return Graded(False, check.say("quiz.choose_first"), retry=True)
        ok = seal.answer_hash(check.salt, "r", picked[0]) == spec["right"]
        return Graded(ok, check.say("quiz.correct" if ok else "quiz.wrong_try"), share=float(ok))

    # --- cards, exports, print ---------------------------------------------------------

    def cards(self, concrete: Concrete, ctx: Cards) -> list[Card]:
        """Front: the prompt, the picture and the regions' names; back: the picture with
        the right region outlined, and its name."""
        names = ", ".join(html.escape(n) for n in self.regions)
        front = f"{ctx.md(self.prompt)}{heat_map(self.frequencies, self.regions)}<p>{names}</p>"
        picture = heat_map(self.frequencies, self.regions, self.right)
        back = picture + answer_line(ctx.say("cards.answer"), html.escape(self.answer))
        return [ctx.card(self, front, back + ctx.explanation(self))]

    def moodle(self, doc: MoodleDocument, concrete: Concrete) -> None:
        """A ``multichoice`` question over the regions' names, the picture in its text."""
        text = doc.html(self.prompt) + heat_map(self.frequencies, self.regions)
        element = doc.question("multichoice", self, text=text)
        multichoice(element, single=True, shuffle=False)
        for i, name in enumerate(self.regions):
            answer(element, 1 if i == self.right else 0, html.escape(name))

    def gift(self, w: GiftWriter, concrete: Concrete) -> None:
        """``{=right ~other ...}`` over the regions' names."""
        lines = [f"  {'=' if i == self.right else '~'}{w.part(html.escape(name))}"
                 for i, name in enumerate(self.regions)]  # fmt: skip
        body = "\n".join(lines)
        prompt = w.html(self.prompt) + heat_map(self.frequencies, self.regions)
        w.add(f"{w.head(self.id, prompt)}{{\n{body}{w.general(self)}\n}}")

    def qti(self, doc: QtiDocument, concrete: Concrete) -> None:
        """A ``multiple_choice_question`` over the regions' names, in the picture's order."""
        options = [(name, i == self.right, None, True) for i, name in enumerate(self.regions)]
        text = doc.html(self.prompt) + heat_map(self.frequencies, self.regions)
        doc.item("multiple_choice_question", self, text).choice(options)
        doc.keeps_order = True

    def printed(self, ctx: Print) -> PrintedQuestion:
        """The picture, the regions to tick (parts/exam/hotspot.html.j2); the key names
        the right region."""
        return PrintedQuestion(
            ctx.number,
            self.id,
            "hotspot",
            ctx.md(self.prompt),
            Markup("<strong>{}</strong>").format(self.answer),
            figure=Markup(heat_map(self.frequencies, self.regions)),
            options=tuple(Markup.escape(name) for name in self.regions),
            explanation=ctx.md(self.explanation) if self.explanation.strip() else None,
        )


#: What this plugin gives konum.
TYPES = [HotspotQuestion]
