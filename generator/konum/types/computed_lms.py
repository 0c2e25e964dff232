"""A computed question in Moodle XML, GIFT and QTI (what :class:`ComputedQuestion`'s
``moodle``, ``gift`` and ``qti`` write): a formula question as Moodle's ``calculated`` (or
``calculatedmulti``) with a dataset of konum's variants where Moodle can reproduce its prompt,
otherwise, as for a generator question, one question per variant in a category of its own;
in GIFT that category, in QTI a question group. konum's own words in the course's language.
"""

from __future__ import annotations

import html
from decimal import Decimal
from typing import Any

from konum.computed.base import lattice
from konum.computed.formula import spec_for
from konum.formatting import with_unit
from konum.lms import (
    DECIMALS_FORMAT,
    NOMINAL,
    GiftWriter,
    MoodleDocument,
    answer,
    category_path,
    combined_feedback,
    literal,
    moodle_formula,
    multichoice,
    numerical_answer,
    percent,
    plain_number,
    text_element,
    units,
    value,
)
from konum.messages import message
from konum.model import Choices, ParamConstraint, Variant
from konum.qti_items import QtiDocument
from konum.sandbox import SandboxError, sandbox
from konum.types.base import Concrete

#: What stands for parameter ``i`` while the prompt is rendered with wildcards.
_TOKEN = "KONUMPARAM{}X"


def moodle(q: Any, doc: MoodleDocument, concrete: Concrete) -> None:
    """A formula question as ``calculated`` (``calculatedmulti`` for the choice form):
    the formula in Moodle's syntax (``{m} * {a}``), one private dataset per parameter
    whose items are the variants konum drew, the tolerance (the largest of the
    variants') and the decimals shown; written one question per variant instead when
    Moodle cannot reproduce its prompt or options. A generator question: a category of
    its own holding one ``numerical`` (or ``multichoice``) question per variant, after
    the bank's questions, so that a quiz's "random question from category" gives each
    student other numbers."""
    text = calculated_form(q, concrete)
    if text is not None:
        _calculated(q, doc, concrete, text)
    else:
        doc.later.append(lambda: _per_variant(q, doc, concrete))


def _per_variant(q: Any, doc: MoodleDocument, concrete: Concrete) -> None:
    n = len(concrete.variants)
    said = message(doc.language, "cards.variants_category", question=q.id, n=n)
    path = category_path(doc.deck, doc.bank_title, q.id)
    doc.category(path, f"konum:{doc.bank_id}:{q.id}", f"<p>{html.escape(said)}</p>")
    for variant in concrete.variants:
        number = variant.index + 1
        element = doc.question(
            "multichoice" if variant.options else "numerical",
            q,
            name=f"{q.id} #{number}",
            idnumber=f"konum:{q.id}:{number}",
            text=doc.html(variant.prompt),
            feedback=_variant_feedback(
                doc.html, q, variant, message(doc.language, "cards.worked_solution")
            ),
        )
        if variant.options:
            multichoice(element, single=True, shuffle=True)
            for option in variant.options:
                feedback = doc.html(option.feedback) if option.feedback else ""
                text = doc.html(option.text, inline=True)
                answer(element, 1.0 if option.correct else 0.0, text, feedback)
        else:
            numerical_answer(element, variant.answer, variant.tolerance)
            units(element, variant.unit)


def _calculated(q: Any, doc: MoodleDocument, concrete: Concrete, text: str) -> None:
    assert q.formula is not None
    names = tuple(q.params)
    variants = concrete.variants
    multi = q.answer == "choice"
    element = doc.question(
        "calculatedmulti" if multi else "calculated",
        q,
        text=text,
        feedback=literal(doc.explanation(q)),
        literal_text=True,
    )
    value(element, "synchronize", 0)
    value(element, "single", 1 if multi else 0)
    value(element, "answernumbering", "abc")
    value(element, "shuffleanswers", 1 if multi else 0)
    combined_feedback(element)
    formula = moodle_formula(q.formula, names)
    unit = doc.html(q.unit, inline=True) if q.unit else None
    answers: list[tuple[float, str, str]] = []
    if multi:
        answers.append((1.0, with_unit(f"{{={formula}}}", unit), ""))
        answers += [
            (
                0.0,
                with_unit(f"{{={moodle_formula(m.formula, names)}}}", unit),
                literal(doc.html(m.feedback)),
            )
            for m in q.misconceptions
        ]
    else:
        answers.append((1.0, formula, ""))
    tolerance = max(v.tolerance for v in variants)
    for fraction, answer_text, feedback in answers:
        element_answer = _calculated_answer(element, fraction, answer_text)
        value(element_answer, "tolerance", plain_number(tolerance))
        value(element_answer, "tolerancetype", NOMINAL)
        value(element_answer, "correctanswerformat", DECIMALS_FORMAT)
        value(element_answer, "correctanswerlength", variants[0].decimals)
        text_element(element_answer, "feedback", feedback)
    units(element, variants[0].unit)
    definitions = _sub(element, "dataset_definitions")
    for name in names:
        low, high, places = _dataset_range(name, q.params[name])
        definition = _sub(definitions, "dataset_definition")
        _sub(_sub(definition, "status"), "text").text = "private"
        _sub(_sub(definition, "name"), "text").text = name
        value(definition, "type", "calculated")
        _sub(_sub(definition, "distribution"), "text").text = "uniform"
        _sub(_sub(definition, "minimum"), "text").text = plain_number(low)
        _sub(_sub(definition, "maximum"), "text").text = plain_number(high)
        _sub(_sub(definition, "decimals"), "text").text = str(places)
        value(definition, "itemcount", len(variants))
        items = _sub(definition, "dataset_items")
        for variant in variants:
            item = _sub(items, "dataset_item")
            value(item, "number", variant.index + 1)
            value(item, "value", str(variant.values[name]))
        value(definition, "number_of_items", len(variants))


def gift(q: Any, w: GiftWriter, concrete: Concrete) -> None:
    """A category of its own (``.../<bank title>/<question id>``) after the bank's
    questions, with one numeric (or choice) question per variant, as in the Moodle XML
    export."""
    w.later.append(lambda: _gift_variants(q, w, concrete))


def _gift_variants(q: Any, w: GiftWriter, concrete: Concrete) -> None:
    w.category(w.deck, w.bank_title, q.id)
    for variant in concrete.variants:
        heading = message(w.language, "cards.worked_solution")
        solution = f"<p><strong>{heading}</strong></p>{w.html(variant.solution)}"
        head = w.head(f"{q.id} #{variant.index + 1}", w.html(variant.prompt))
        if variant.options:
            lines = [
                f"  {'=' if o.correct else '~'}{w.part(w.html(o.text, inline=True))}"
                f"{w.feedback(o.feedback)}"
                for o in variant.options
            ]
            body = "\n".join(lines)
            w.add(f"{head}{{\n{body}{w.general(q, solution)}\n}}")
        else:
            shown = f"#{plain_number(variant.answer)}:{plain_number(variant.tolerance)}"
            # Moodle shows text after the answer after a blank: "_____ kPa".
            unit = f" {w.escape(w.html(variant.unit, inline=True))}" if variant.unit else ""
            w.add(f"{head}{{{shown}{w.general(q, solution)}\n}}{unit}")


def qti(q: Any, doc: QtiDocument, concrete: Concrete) -> None:
    """A question group of its variants, of which Canvas gives each student one ("pick
    1"), worth the question's points: each variant a ``numerical_question`` (or a
    ``multiple_choice_question`` with the misconceptions' feedback), its worked solution
    and the explanation as its general feedback. Formula and generator questions alike."""
    group, heading = doc.group(q), message(doc.language, "cards.worked_solution")
    for v in concrete.variants:
        feedback = _variant_feedback(doc.html, q, v, heading)
        kind = "multiple_choice_question" if v.options else "numerical_question"
        item = group.item(kind, q, doc.html(v.prompt), v.index + 1, feedback)
        if v.options:
            item.choice([(o.text, o.correct, o.feedback, False) for o in v.options])
        else:
            item.numeric(v.answer, v.tolerance, v.unit)


def _variant_feedback(md: Any, q: Any, variant: Variant, heading: str) -> str:
    explanation = md(q.explanation) if q.explanation.strip() else ""
    return f"<p><strong>{heading}</strong></p>{md(variant.solution)}" + explanation


def _sub(parent: Any, tag: str) -> Any:
    import xml.etree.ElementTree as ET

    return ET.SubElement(parent, tag)


def _calculated_answer(element: Any, fraction: float, text: str) -> Any:
    answer_element = _sub(element, "answer")
    answer_element.set("fraction", percent(fraction))
    _sub(answer_element, "text").text = text
    return answer_element


def _decimals_of(number: float) -> int:
    exponent = Decimal(repr(float(number))).normalize().as_tuple().exponent
    return max(0, -int(exponent))


def _dataset_range(name: str, constraint: ParamConstraint) -> tuple[float, float, int]:
    """Minimum, maximum and decimals of a parameter, for Moodle's dataset definition."""
    if isinstance(constraint, Choices):
        numbers = [float(str(v)) for v in constraint.values]  # check_params(): numbers
        return min(numbers), max(numbers), max(_decimals_of(v) for v in numbers)
    spec = spec_for(name, constraint)
    points = lattice(spec, constraint)
    last = points.value(points.count - 1)
    places = 0 if spec.kind == "int" else max(_decimals_of(points.start), _decimals_of(points.step))
    return points.start, last, places


def wildcard_prompt(q: Any, concrete: Concrete, html_of: Any) -> str | None:
    """The prompt as HTML with ``{name}`` wildcards, or None when Moodle's substitution
    would not give konum's prompt for every variant (its template does arithmetic or
    formatting on the values)."""
    names = list(q.params)
    first = dict(concrete.variants[0].values)
    tokens = {name: _TOKEN.format(i) for i, name in enumerate(names)}
    try:
        source = sandbox().from_string(q.prompt).render({**first, **tokens})
    except SandboxError:
        return None
    text = literal(html_of(source))
    for name, token in tokens.items():
        text = text.replace(token, f"{{{name}}}")
    for variant in concrete.variants:
        shown = text
        for name in names:
            shown = shown.replace(f"{{{name}}}", str(variant.values[name]))
        shown = shown.replace("&#123;", "{").replace("&#125;", "}")
        if shown != html_of(variant.prompt):
            return None
    return text


def _multi_ready(q: Any, concrete: Concrete) -> bool:
    """Every variant shows the answer and one option per misconception, nothing else."""
    wanted = {m.formula for m in q.misconceptions}
    for variant in concrete.variants:
        shown = [o.misconception for o in variant.options if not o.correct]
        if len(shown) != len(wanted) or set(shown) != wanted:
            return False
    return True


def calculated_form(q: Any, concrete: Concrete) -> str | None:
    """The prompt with wildcards when ``q`` is written as a calculated question (a formula
    question whose prompt and options Moodle can reproduce), else None."""
    from konum.lms import lms_html

    if q.formula is None or not concrete.variants:
        return None
    if q.answer == "choice" and not _multi_ready(q, concrete):
        return None
    return wildcard_prompt(q, concrete, lms_html)
