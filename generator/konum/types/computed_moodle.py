"""Moodle's calculated questions of formula questions (:mod:`konum.types.computed`).

A formula question Moodle can reproduce is written as ``calculated`` (``calculatedmulti``
for the choice form): its prompt with ``{name}`` wildcards, its formula in Moodle's syntax,
one private dataset per parameter whose items are the variants konum drew. Moodle's
formula language has no counting functions nor distributions (:func:`moodle_lacks`): a
question that calls them is written one question per variant instead.
"""

from __future__ import annotations

import ast
import xml.etree.ElementTree as ET
from collections.abc import Callable, Mapping, Sequence
from decimal import Decimal
from typing import Any

from konum.computed.base import lattice
from konum.computed.formula import spec_for
from konum.computed.functions import FUNCTIONS
from konum.formatting import with_unit
from konum.lms import (
    DECIMALS_FORMAT,
    NOMINAL,
    combined_feedback,
    literal,
    moodle_formula,
    percent,
    plain_number,
    text_element,
    units,
    value,
)
from konum.model import Choices, Misconception, ParamConstraint, Variant
from konum.sandbox import SandboxError, sandbox

_TOKEN = "KONUMPARAM{}X"


def _sub(parent: Any, tag: str) -> Any:
    return ET.SubElement(parent, tag)


def _calculated_answer(element: Any, fraction: float, text: str) -> Any:
    answer_element = _sub(element, "answer")
    answer_element.set("fraction", percent(fraction))
    _sub(answer_element, "text").text = text
    return answer_element


def _decimals_of(number: float) -> int:
    exponent = Decimal(repr(float(number))).normalize().as_tuple().exponent
    return max(0, -int(exponent))


def dataset_range(name: str, constraint: ParamConstraint) -> tuple[float, float, int]:
    """Minimum, maximum and decimals of a parameter, for Moodle's dataset definition."""
    if isinstance(constraint, Choices):
        numbers = [float(str(v)) for v in constraint.values]  # check_params(): numbers
        return min(numbers), max(numbers), max(_decimals_of(v) for v in numbers)
    spec = spec_for(name, constraint)
    points = lattice(spec, constraint)
    last = points.value(points.count - 1)
    places = 0 if spec.kind == "int" else max(_decimals_of(points.start), _decimals_of(points.step))
    return points.start, last, places


def wildcard_prompt(
    prompt: str,
    params: Mapping[str, ParamConstraint],
    symbols: Mapping[str, str],
    variants: Sequence[Variant],
    html_of: Callable[[str], str],
) -> str | None:
    """The ``prompt`` template as HTML with ``{name}`` wildcards for ``params``, or None
    when Moodle's substitution would not give konum's prompt for every one of
    ``variants`` (its template does arithmetic or formatting on the values)."""
    names = list(params)
    first = dict(variants[0].values)
    tokens = {name: _TOKEN.format(i) for i, name in enumerate(names)}
    context = {**first, **tokens, **({"symbol": dict(symbols)} if symbols else {})}
    try:
        source = sandbox().from_string(prompt).render(context)
    except SandboxError:
        return None
    text = literal(html_of(source))
    for name, token in tokens.items():
        text = text.replace(token, f"{{{name}}}")
    for variant in variants:
        shown = text
        for name in names:
            shown = shown.replace(f"{{{name}}}", str(variant.values[name]))
        shown = shown.replace("&#123;", "{").replace("&#125;", "}")
        if shown != html_of(variant.prompt):
            return None
    return text


def moodle_lacks(formulas: Sequence[str]) -> list[str]:
    """The functions ``formulas`` call that Moodle's formula language lacks (counting and
    the distributions): such a question is written one question per variant."""
    calls = (
        node.func.id
        for text in formulas
        for node in ast.walk(ast.parse(text.strip(), mode="eval"))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    )
    return sorted({name for name in calls if name in FUNCTIONS and not FUNCTIONS[name].moodle})


def write_calculated(
    element: Any,
    *,
    formula: str,
    misconceptions: Sequence[Misconception],
    params: Mapping[str, ParamConstraint],
    unit: str | None,
    variants: Sequence[Variant],
    html: Callable[[str], str],
) -> None:
    """A ``calculated`` question's body (``calculatedmulti`` when ``misconceptions`` are
    given: their formulas are the wrong answers): the formula in Moodle's syntax, the
    tolerance (the largest of the variants') and the decimals shown, ``unit`` (HTML), and
    one private dataset per parameter whose items are the ``variants`` konum drew."""
    formula_text, names, multi = formula, tuple(params), bool(misconceptions)
    value(element, "synchronize", 0)
    value(element, "single", 1 if multi else 0)
    value(element, "answernumbering", "abc")
    value(element, "shuffleanswers", 1 if multi else 0)
    combined_feedback(element)
    formula = moodle_formula(formula_text, names)
    answers: list[tuple[float, str, str]] = []
    if multi:
        answers.append((1.0, with_unit(f"{{={formula}}}", unit), ""))
        answers += [
            (
                0.0,
                with_unit(f"{{={moodle_formula(m.formula, names)}}}", unit),
                literal(html(m.feedback)),
            )
            for m in misconceptions
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
        low, high, places = dataset_range(name, params[name])
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
