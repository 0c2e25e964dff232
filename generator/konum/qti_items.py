"""QTI 1.2 items as Canvas's importer reads them (what text2qti writes): the section, item and
response-processing elements the question types write their part with
(:meth:`konum.types.Question.qti`); :mod:`konum.exports.qti` puts the package together.
Apart from :mod:`konum.lms`, which holds what Moodle XML and GIFT need.
"""

from __future__ import annotations

import html
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from konum.figures import figure_file
from konum.lms import plain_number
from konum.markup import render_markdown
from konum.plugins import Plugins

#: The namespace of QTI 1.2 assessments (what Canvas's importer and text2qti use).
QTI_NAMESPACE = "http://www.imsglobal.org/xsd/ims_qtiasiv1p2"
#: Where a question's HTML finds the package's files: Canvas's ``$IMS-CC-FILEBASE$``.
QTI_FILES = "%24IMS-CC-FILEBASE%24/"


def qti_html(text: str, *, inline: bool = False) -> str:
    """Bank Markdown as Canvas shows it: math as MathML (its allow-list keeps it, the browser
    draws it), images as references the package carries."""
    return render_markdown(text, inline=inline).strip()


def node(tag: str, text: str | None = None, *children: ET.Element, **attributes: str) -> ET.Element:
    """``<tag attributes>text children</tag>``."""
    made = ET.Element(tag, attributes)
    made.text = text
    made.extend(children)
    return made


def mattext(parent: ET.Element, text: str, kind: str = "text/html") -> None:
    """``<material><mattext texttype="kind">text</mattext></material>`` inside ``parent``."""
    parent.append(node("material", None, node("mattext", text, texttype=kind)))


def varequal(value: str, respident: str = "response1") -> ET.Element:
    return node("varequal", value, respident=respident)


@dataclass
class QtiItem:
    """One QTI item being written: its ident, element, presentation and response processing
    (the score ``SCORE`` from 0 to 100, which Canvas scales to the item's points)."""

    ident: str
    element: ET.Element
    presentation: ET.Element
    processing: ET.Element

    def feedback(self, ident: str, html_text: str) -> str:
        """An ``itemfeedback`` that a condition shows by its ``ident``, which it returns."""
        flow = ET.SubElement(ET.SubElement(self.element, "itemfeedback", ident=ident), "flow_mat")
        mattext(flow, html_text)
        return ident

    def condition(
        self,
        test: ET.Element,
        score: float | None = None,
        show: str = "",
        *,
        add: bool = False,
        first: bool = False,
    ) -> None:
        """A ``respcondition``: when ``test`` holds, ``SCORE`` is set to ``score`` (or ``score``
        is added to it, ``add=True``) and feedback ``show`` is shown; every condition lets
        processing go on. It goes after the others (Canvas takes an option's weight from the
        last condition that names it, so an option's feedback comes before the scoring), or
        first (``first=True``: a number's answer, where readers that take the first
        condition for the answer look)."""
        made = node("respcondition", None, node("conditionvar", None, test), **{"continue": "Yes"})
        if score is not None:
            action = "Add" if add else "Set"
            made.append(
                node("setvar", plain_number(round(score, 4)), action=action, varname="SCORE")
            )
        if show:
            made.append(node("displayfeedback", feedbacktype="Response", linkrefid=show))
        self.processing.insert(1 if first else len(self.processing), made)

    def choice(self, options: Sequence[tuple[str, bool, str | None, bool]]) -> None:
        """Options ``(Markdown, right, feedback Markdown, kept in place)`` in the order given,
        each with its feedback: ``SCORE`` 100 for the right one, or (several right) for ticking
        exactly the right ones (Canvas gives multiple answers the site's partial credit)."""
        multiple = sum(option[1] for option in options) > 1
        labels = node("render_choice", shuffle="No" if all(o[3] for o in options) else "Yes")
        kind = "Multiple" if multiple else "Single"
        self.presentation.append(
            node("response_lid", None, labels, ident="response1", rcardinality=kind)
        )
        tests = []
        for i, (text, right, feedback, kept) in enumerate(options):
            ident = f"{self.ident}-o{i}"
            label = ET.SubElement(
                labels, "response_label", ident=ident, rshuffle="No" if kept else "Yes"
            )
            mattext(label, qti_html(text, inline=True))
            if feedback:
                self.condition(
                    varequal(ident), show=self.feedback(f"{ident}_fb", qti_html(feedback))
                )
            if right or multiple:
                tests.append(varequal(ident) if right else node("not", None, varequal(ident)))
        self.condition(node("and", None, *tests) if multiple else tests[0], 100)

    def numeric(self, answer: float, tolerance: float, unit: str | None) -> None:
        """A number box: ``SCORE`` 100 for ``answer`` or a number within ``tolerance`` of it;
        the unit, which Canvas has no field for, after the prompt in brackets."""
        prompt = self.presentation[0][0]
        prompt.text = (
            f"{prompt.text}<p>({qti_html(unit, inline=True)})</p>" if unit else prompt.text
        )
        box = node("render_fib", None, node("response_label", ident="answer1"), fibtype="Decimal")
        self.presentation.append(
            node("response_str", None, box, ident="response1", rcardinality="Single")
        )
        low, high = (plain_number(float(f"{answer + d:.12g}")) for d in (-tolerance, tolerance))
        within = node(
            "and",
            None,
            node("vargte", low, respident="response1"),
            node("varlte", high, respident="response1"),
        )
        self.condition(node("or", None, varequal(plain_number(answer)), within), 100, first=True)

    def lists(self, rows: Sequence[tuple[str, Sequence[str], Sequence[int]]], key: str) -> None:
        """One drop-down or blank per row ``(label, choices as plain text, the right ones)``,
        each an equal share of ``SCORE``: Canvas's blanks (``response_blank0`` labelled
        ``blank0``, each choice an accepted answer) and matching rows (``m``: every row the
        same choices, numbered from 1)."""
        for i, (label, choices, right) in enumerate(rows):
            respident = f"response_{key}{i}"
            # Canvas numbers a matching question's right-hand items by their idents' first
            # number: plain numbers, the same in every row
            prefix = "" if key == "m" else f"{self.ident}-{key}{i}-"
            labels = node("render_choice")
            response = ET.SubElement(self.presentation, "response_lid", ident=respident)
            mattext(response, label, "text/plain")
            response.append(labels)
            idents = [f"{prefix}{k + 1}" for k in range(len(choices))]
            for ident, choice in zip(idents, choices, strict=True):
                mattext(ET.SubElement(labels, "response_label", ident=ident), choice, "text/plain")
            tests = [varequal(idents[k], respident) for k in right]
            test = tests[0] if len(tests) == 1 else node("or", None, *tests)
            self.condition(test, 100 / len(rows), add=True)


@dataclass
class QtiDocument:
    """A QTI 1.2 section being written (a bank's, or a question group's): where its items go,
    the package's files (``images/<name>``) its figures add, the language of konum's own
    words, and whether an item keeps its options in place (the quiz then does not shuffle
    answers)."""

    plugins: Plugins
    section: ET.Element
    files: dict[str, bytes]
    language: str = "en"
    keeps_order: bool = False

    html = staticmethod(qti_html)

    def group(self, q: Any) -> QtiDocument:
        """A question group of ``q``'s variants (Canvas gives each student one, worth
        ``q.points``), to write them into."""
        group = ET.SubElement(self.section, "section", ident=f"konum-{q.id}", title=q.id)
        picked = node("selection_extension", None, node("points_per_item", plain_number(q.points)))
        selection = node("selection", None, node("selection_number", "1"), picked)
        group.append(node("selection_ordering", None, selection))
        return QtiDocument(self.plugins, group, self.files, self.language)

    def item(self, kind: str, q: Any, text: str, number: int = 0, feedback: str = "") -> QtiItem:
        """An item of Canvas's ``question_type`` ``kind`` worth the question's points, named by
        its id (``<id> #<number>`` for a variant), its figure after ``text``, its general
        feedback the explanation unless given."""
        ident, title = (
            (f"konum-{q.id}-{number}", f"{q.id} #{number}") if number else (f"konum-{q.id}", q.id)
        )
        element = ET.SubElement(self.section, "item", ident=ident, title=title)
        fields = ET.SubElement(ET.SubElement(element, "itemmetadata"), "qtimetadata")
        for label, entry in (("question_type", kind), ("points_possible", plain_number(q.points))):
            pair = node("fieldlabel", label), node("fieldentry", entry)
            fields.append(node("qtimetadatafield", None, *pair))
        if (ref := q.figure) is not None:
            drawing = self.plugins.figure(ref.name)
            name, data = figure_file(
                drawing, ref.alt, ref.caption, language=self.language, **ref.params
            )
            self.files[f"images/{name}"] = data
            text += f'<p><img src="{QTI_FILES}images/{name}" alt="{html.escape(ref.alt)}"></p>'
        presentation = ET.SubElement(element, "presentation")
        mattext(presentation, text)
        score = node("decvar", maxvalue="100", minvalue="0", varname="SCORE", vartype="Decimal")
        processing = node("resprocessing", None, node("outcomes", None, score))
        element.append(processing)
        made = QtiItem(ident, element, presentation, processing)
        if general := feedback or (qti_html(q.explanation) if q.explanation.strip() else ""):
            made.condition(node("other"), show=made.feedback("general_fb", general))
        return made
