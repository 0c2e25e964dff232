"""Reading a ``type: computed`` question's fields from its bank (:mod:`konum.types.computed`).

Besides the fields every computed question has, a formula question's param may say how it
is written, and the question may put a condition on its params::

    params:
      xbar: {min: 60, max: 80, symbol: "\\bar{x}"}   # the worked solution writes x̄
      n: {values: [10, 20, 40], symbol: n}
    where: "xbar != mu"                               # a drawing with xbar = mu is redrawn
"""

from __future__ import annotations

from typing import Any, Literal, cast

from konum import limits
from konum.computed.base import places
from konum.computed.formula import DEFAULT_DECIMALS
from konum.fields import Reader
from konum.fields import num as message_number
from konum.math import MathError, tex_to_html, unsafe_command, unsafe_message
from konum.model import Misconception, ParamConstraint
from konum.yamlsource import YMap

#: How a computed question is answered: a typed number, or a choice among computed options.
COMPUTED_ANSWERS = ("numeric", "choice")
#: The fields only a formula question (``formula:`` instead of ``generator:``) has.
FORMULA_ONLY_FIELDS = ("misconceptions", "tolerance")
MISCONCEPTION_FIELDS = ("formula", "feedback")


def read_fields(r: Reader, node: YMap, common: dict[str, Any]) -> dict[str, Any]:
    """A computed question's own fields from ``node`` (``common``: the fields every
    question has, read already), as the keyword arguments of its class; problems go to
    ``r``."""
    formula = "formula" in node.entries
    generator = None
    if formula:
        text = r.text(node, "formula", "", required=True)
        if "generator" in node.entries:
            r.problem(
                node.entries["generator"].key_mark,
                "generator",
                "give either 'generator' or 'formula', not both",
            )
        if "params" not in node.entries:
            r.missing(node, "", "params", "a mapping of the formula's names to ranges or values")
        if not common["prompt"]:
            wanted = "text that shows the drawn values as {{ name }}"
            prompt = node.get("prompt")
            if prompt is None:
                r.missing(node, "", "prompt", wanted)
            else:
                r.problem(prompt.mark, "prompt", "is empty", expected=wanted, found="nothing")
    else:
        text = None
        generator = r.text(node, "generator", "", required=False)
        if generator is None and "generator" not in node.entries:
            r.missing(node, "", "generator", "a generator's name (or a formula)")
        for key in FORMULA_ONLY_FIELDS:
            if key in node.entries:
                r.problem(
                    node.entries[key].key_mark,
                    key,
                    f"'{key}' is for formula questions (with 'formula:'); the generator "
                    f"{generator or ''} gives its own".replace("  ", " "),
                )
    params, symbols = _params(r, node, formula)
    form = cast(
        Literal["numeric", "choice"],
        r.choice(node, "answer", COMPUTED_ANSWERS, "numeric", "answer form"),
    )
    options = r.integer(node, "options", "", limits.COMPUTED_OPTIONS)
    if options is not None and form != "choice":
        r.problem(
            node.entries["options"].key_mark,
            "options",
            "'options' only applies with 'answer: choice'",
        )
    decimals = r.integer(node, "decimals", "", limits.DECIMALS)
    unit = r.text(node, "unit", "", required=False, markdown=True)
    if not formula:
        return {
            "generator": generator or "",
            "params": params,
            "answer": form,
            "decimals": decimals,
            "options": options or 4,
            "unit": unit,
            "where": r.text(node, "where", "", required=False),
        }
    tolerance = _formula_tolerance(r, node, decimals)
    misconceptions = _misconceptions(r, node)
    wrong = len(misconceptions)
    if form == "choice" and "misconceptions" not in node.entries:
        r.missing(node, "", "misconceptions", "wrong formulas, whose values are the wrong options")
    if form == "choice" and options is not None and wrong and options > wrong + 1:
        r.problem(
            node.entries["options"].value.mark,
            "options",
            f"{wrong} misconception{'s' if wrong != 1 else ''} give at most {wrong + 1} "
            "options (the answer and one per misconception)",
            expected=f"at most {wrong + 1}",
            found=str(options),
        )
    return {
        "params": params,
        "answer": form,
        "decimals": decimals,
        "options": options or max(2, min(limits.COMPUTED_OPTIONS[1], wrong + 1)),
        "formula": text,
        "misconceptions": misconceptions,
        "unit": unit,
        "tolerance": tolerance,
        "symbols": symbols,
        "where": r.text(node, "where", "", required=False),
    }


def _params(
    r: Reader, node: YMap, formula: bool
) -> tuple[dict[str, ParamConstraint], dict[str, str]]:
    """The params, and the symbols of those that give one (``symbol:`` beside a range's
    ``min``/``max``, or beside ``values:``, the list form)."""
    params_node = node.get("params")
    symbols: dict[str, str] = {}
    if not isinstance(params_node, YMap):
        return r.params(node), symbols
    params: dict[str, ParamConstraint] = {}
    for name, entry in params_node.entries.items():
        spec, path = entry.value, f"params.{name}"
        if isinstance(spec, YMap) and {"symbol", "values"} & set(spec.entries):
            symbol = r.text(spec, "symbol", path, required=False)
            if symbol is not None and not formula:
                r.problem(
                    spec.entries["symbol"].key_mark,
                    f"{path}.symbol",
                    "'symbol' is for formula questions; a generator writes its own solution",
                )
            elif symbol is not None:
                why = _symbol_problem(symbol)
                if why:
                    r.problem(spec.entries["symbol"].value.mark, f"{path}.symbol", why)
                else:
                    symbols[name] = symbol
            rest = {k: v for k, v in spec.entries.items() if k != "symbol"}
            spec = rest["values"].value if set(rest) == {"values"} else YMap(spec.mark, rest)
        constraint = r.constraint(spec, path)
        if constraint is not None:
            params[name] = constraint
    return params, symbols


def _symbol_problem(tex: str) -> str | None:
    """Why ``tex`` cannot be a param's symbol (None when it can): LaTeX whose braces pair
    up, with no refused command, that latex2mathml reads."""
    depth = 0
    for char in tex.replace("\\{", "").replace("\\}", ""):
        depth += {"{": 1, "}": -1}.get(char, 0)
        if depth < 0:
            break
    if depth:
        return f"the LaTeX '{tex}' has a {'{' if depth > 0 else '}'} without its partner"
    command = unsafe_command(tex)
    if command:
        return unsafe_message(command)
    try:
        tex_to_html(tex, display=False)
    except MathError as exc:
        return str(exc)
    return None


def _formula_tolerance(r: Reader, node: YMap, decimals: int | None) -> float | None:
    value_node = node.get("tolerance")
    tolerance = r.tolerance(node, "tolerance")
    if tolerance is None or value_node is None:
        return None
    shown = DEFAULT_DECIMALS if decimals is None else decimals
    half = 0.5 * 10.0**-shown
    if tolerance < half * (1 - 1e-9):
        r.problem(
            value_node.mark,
            "tolerance",
            f"tolerance {message_number(tolerance)} is less than half a unit of the last "
            f"decimal (at {places(shown)}), so an answer rounded correctly could be refused",
            expected=f"tolerance >= {message_number(half)}",
            found=message_number(tolerance),
        )
        return None
    return tolerance


def _misconceptions(r: Reader, node: YMap) -> tuple[Misconception, ...]:
    seq = r.sequence(node, "misconceptions", "", required=False)
    found: list[Misconception] = []
    says = "each misconception must be a mapping such as '- formula: m / a' with 'feedback: ...'"
    for _, path, item in r.mappings(seq, "misconceptions", says):
        r.check_keys(item, path, MISCONCEPTION_FIELDS)
        formula = r.text(item, "formula", path, required=True)
        feedback = r.text(item, "feedback", path, required=True, markdown=True)
        if formula is not None and feedback is not None:
            found.append(Misconception(formula, feedback))
    r.empty(
        seq,
        "misconceptions",
        "no misconceptions listed",
        "at least one wrong formula (or leave the field out)",
    )
    return tuple(found)
