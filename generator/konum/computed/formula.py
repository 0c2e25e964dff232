"""Formula questions: computed questions whose author writes the formula, not Python.

In a bank::

    - id: newton-force
      type: computed
      formula: "m * a"
      params:
        m: {min: 2, max: 20}
        a: {min: 0.5, max: 5, step: 0.5}
      prompt: "A {{ m }} kg cart accelerates at {{ a }} m/s². What net force acts on it?"
      answer: choice
      decimals: 2
      misconceptions:
        - formula: "m / a"
          feedback: Force is mass times acceleration, not mass divided by it.

A :class:`FormulaGenerator` is made from each such question and drawn like any generator:
the params are drawn as a generator's are (:mod:`konum.computed.base`: a range's lattice,
or one of a list; whole-number ranges give ints), from ``rng_for(seed, question id,
variant)``; the formula (:mod:`konum.computed.expression`) gives the answer, each
misconception's formula a distractor with its feedback, and the worked solution shows the
formula, the same with the drawn numbers, and the result.

:func:`check_formula` is what ``konum check`` runs: every formula parses, and on
:data:`PROBES` drawings (every combination when there are no more) none fails, the answer
is not the same on all of them, no misconception gives the answer (at the decimals shown),
and for the choice form the options differ.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np

from konum import limits
from konum.computed.base import (
    BaseGenerator,
    Distractor,
    Generated,
    GeneratorError,
    Kind,
    ParamSpec,
    Values,
    _typed,
    hidden_answer,
    lattice,
    places,
    shown_values,
    sig,
    specs,
    tolerance_for,
)
from konum.computed.expression import Formula, FormulaError, parse
from konum.formatting import format_number
from konum.messages import message
from konum.model import Choices, Misconception, ParamConstraint, Range
from konum.seeding import rng_for

#: Decimals of a formula question's answer unless it says otherwise.
DEFAULT_DECIMALS = 2
#: Drawings ``konum check`` evaluates every formula on.
PROBES = 200


class FormulaFailure(GeneratorError):
    """A formula that fails (division by zero, overflow, nan) for values its params allow."""


def _integral(value: object) -> bool:
    return (
        isinstance(value, (int, float))
        and not isinstance(value, bool)
        and float(value).is_integer()
    )


def param_kind(constraint: ParamConstraint) -> Kind:
    """``int`` for a range of whole numbers with a whole step (or none), or a list of
    whole numbers; ``float`` otherwise."""
    parts: list[object]
    if isinstance(constraint, Range):
        parts = [constraint.low, constraint.high, constraint.step or 1]
    else:
        parts = list(constraint.values)
    return "int" if all(_integral(p) for p in parts) else "float"


def spec_for(name: str, constraint: ParamConstraint) -> ParamSpec:
    """The parameter of a formula question: the author's constraint is its own bound."""
    return ParamSpec(name, param_kind(constraint), constraint, constraint, f"the value {name}")


@dataclass(frozen=True)
class _Parsed:
    answer: Formula
    wrong: tuple[tuple[Misconception, Formula], ...]


class FormulaGenerator(BaseGenerator):
    """The generator of one formula question (see the module docstring): question ``qid``'s
    ``formula`` of its ``params``, its ``misconceptions``, ``unit`` and ``tolerance``
    (absolute; None: the default for the decimals).

    Raises (when made):
        FormulaError: a formula that does not parse; :func:`check_formula` reports it with
            its field first.
    """

    default_decimals = DEFAULT_DECIMALS

    def __init__(
        self,
        qid: str,
        formula: str,
        params: Mapping[str, ParamConstraint],
        misconceptions: Sequence[Misconception] = (),
        unit: str | None = None,
        tolerance: float | None = None,
        *,
        symbols: Mapping[str, str] | None = None,
        where: str | None = None,
    ) -> None:
        self.qid, self.unit, self.fixed_tolerance = qid, unit, tolerance
        self.symbols = dict(symbols or {})
        self.name = f"formula of {qid}"
        self.title = formula
        self.params = specs(*(spec_for(n, c) for n, c in params.items()))
        names = frozenset(params)
        self.parsed = _Parsed(
            parse(formula, names), tuple((m, parse(m.formula, names)) for m in misconceptions)
        )
        self.where = parse(where, names, condition=True) if where else None
        # The key of a formula's misconception is its formula; the feedback describes it.
        self.misconceptions = {m.formula: m.feedback for m in misconceptions}

    def evaluate(self, formula: Formula, values: Values, field: str) -> float:
        """``formula`` for ``values``.

        Raises:
            FormulaFailure: it fails; the message names the question, field and values.
        """
        try:
            return formula.evaluate(values)
        except FormulaError as exc:
            raise FormulaFailure(
                f"question {self.qid}: {field} '{formula.text}' fails for "
                f"{shown_values(values, list(self.params))}: {exc.reason}"
            ) from None

    def admits(self, values: Values) -> bool:
        """Whether ``values`` satisfy the question's ``where`` (always, without one).

        Raises:
            FormulaFailure: the condition fails for them (a division by zero in it).
        """
        return self.where is None or bool(self.evaluate(self.where, values, "where"))

    def draw(
        self, rng: np.random.Generator, constraints: Mapping[str, ParamConstraint]
    ) -> Values | None:
        """One drawing, or None when it breaks the ``where`` (another is then drawn)."""
        values = super().draw(rng, constraints)
        return values if values is not None and self.admits(values) else None

    def tolerance(self, answer: float, decimals: int) -> float:
        """The author's tolerance, widened to admit the rounded answer; else the default."""
        default = tolerance_for(answer, decimals)
        if self.fixed_tolerance is None:
            return default
        rounded = float(format_number(answer, decimals))
        return max(self.fixed_tolerance, abs(rounded - answer) * (1 + 1e-9) + 1e-12)

    def solution(self, values: Values, answer: float, decimals: int, language: str = "en") -> str:
        """The formula, the same with the drawn numbers, the result; and the rounding."""
        formula = self.parsed.answer
        named, numbers = formula.latex(symbols=self.symbols), formula.latex(values)
        exact = sig(answer)
        try:
            relation = "=" if float(exact) == answer else "\\approx"
        except ValueError:  # a number written as m \cdot 10^{e}
            relation = "\\approx"
        steps = [named] + ([numbers] if numbers != named else [])
        text = f"$${' = '.join(steps)} {relation} {exact}$$\n"
        shown = format_number(answer, decimals)
        unit = f"\u00a0{self.unit}" if self.unit else ""
        places = message(language, "formula.places", n=decimals)
        how = "formula.exact" if float(shown) == answer else "formula.rounded"
        return text + "\n" + message(language, how, places=places, shown=shown, unit=unit) + "\n"

    def build(self, v: Values, decimals: int, language: str = "en") -> Generated | None:
        answer = self.evaluate(self.parsed.answer, v, "formula")
        distractors = [
            Distractor(
                self.evaluate(wrong, v, f"misconceptions[{i}].formula"), m.formula, m.feedback
            )
            for i, (m, wrong) in enumerate(self.parsed.wrong)
        ]
        generated = self.make(
            v,
            prompt="",
            answer=answer,
            decimals=decimals,
            solution=self.solution(v, answer, decimals, language),
            distractors=distractors,
            unit=self.unit,
        )
        return replace(generated, tolerance=self.tolerance(answer, decimals))


# --- checking ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class FormulaProblem:
    """A problem with a formula question: the field path, the message, and the 0-based
    column inside the formula's text when the problem is at one place of it."""

    field: str
    message: str
    offset: int | None = None


def _values_of(spec: ParamSpec) -> list[object] | None:
    """Every value ``spec`` may take, or None when there are more than :data:`PROBES`."""
    constraint = spec.allowed
    if isinstance(constraint, Choices):
        return list(constraint.values)
    points = lattice(spec, constraint)
    if points.count > PROBES:
        return None
    return [_typed(spec.kind, points.value(i)) for i in range(points.count)]


def probe_values(generator: FormulaGenerator, probes: int = PROBES) -> list[Values]:
    """The drawings a check evaluates: every combination of the params' values when there
    are at most ``probes``; else each param at its lowest and at its highest, and
    ``probes - 2`` seeded draws (the same on every run). Only drawings the question's
    ``where`` admits are kept.

    Raises:
        FormulaFailure: the ``where`` fails for a drawing."""
    specs_ = list(generator.params.values())
    every = [_values_of(spec) for spec in specs_]
    complete = [v for v in every if v is not None]
    if len(complete) == len(every) and math.prod(len(v) for v in complete) <= probes:
        every_one = [
            dict(zip(generator.params, combination, strict=True))
            for combination in itertools.product(*complete)
        ]
        return [values for values in every_one if generator.admits(values)]
    drawn: list[Values] = []
    for end in (0, -1):
        ends: Values = {}
        for spec in specs_:
            c = spec.allowed
            if isinstance(c, Range):
                points = lattice(spec, c)
                ends[spec.name] = _typed(
                    spec.kind, points.value(0 if end == 0 else points.count - 1)
                )
            else:
                ends[spec.name] = sorted(c.values, key=lambda x: float(x))[end]  # type: ignore[arg-type,unused-ignore]
        if generator.admits(ends):
            drawn.append(ends)
    for index in range(probes - 2):
        values = generator.draw(rng_for(0, "konum-check", generator.qid, index), {})
        if values is not None:
            drawn.append(values)
    return drawn


def check_params(params: Mapping[str, ParamConstraint]) -> list[FormulaProblem]:
    """Params a formula can use: named as formulas allow, numbers only, ranges of a size
    that can be drawn from."""
    from konum.computed.expression import valid_param_name

    problems = []
    for name, constraint in params.items():
        why = valid_param_name(name)
        if name == "decimals":  # prompts see the decimals under that name
            why = "'decimals' is the number of decimals in prompts; choose another name"
        if name == "symbol":  # ... and the params' symbols
            why = "'symbol' holds the params' symbols in prompts; choose another name"
        if why:
            problems.append(FormulaProblem(f"params.{name}", f"a parameter's name: {why}"))
            continue
        if isinstance(constraint, Choices):
            for i, value in enumerate(constraint.values):
                if isinstance(value, bool) or not isinstance(value, (int, float)):
                    shown = f"{value!r}" if not isinstance(value, bool) else str(value).lower()
                    problems.append(
                        FormulaProblem(
                            f"params.{name}" + (f"[{i}]" if len(constraint.values) > 1 else ""),
                            f"a formula's values are numbers: expected a number, found {shown}",
                        )
                    )
                elif not math.isfinite(value):
                    problems.append(
                        FormulaProblem(f"params.{name}", f"expected a finite number, found {value}")
                    )
            continue
        spec = spec_for(name, constraint)
        count = lattice(spec, constraint).count if constraint.low <= constraint.high else 0
        if count == 0:
            problems.append(
                FormulaProblem(
                    f"params.{name}", "the range holds no value: check min, max and step"
                )
            )
        elif count > limits.RANGE_VALUES:
            problems.append(
                FormulaProblem(
                    f"params.{name}",
                    f"the range holds {count:.3g} values, more than "
                    f"{limits.RANGE_VALUES:.0e}: use a larger step",
                )
            )
    return problems


def check_formula(
    qid: str,
    formula: str,
    params: Mapping[str, ParamConstraint],
    misconceptions: Sequence[Misconception],
    *,
    choice: bool,
    options: int,
    decimals: int | None,
    where: str | None = None,
) -> list[FormulaProblem]:
    """Everything ``konum check`` asks of question ``qid``'s formulas (see the module
    docstring; ``choice``: the choice form, with ``options`` options); an empty list when
    it is sound. Param names and values are checked by :func:`check_params` first: when
    they have problems, the formulas are not drawn. The misconceptions that parse are
    drawn even when another does not. A ``where`` (a condition on the params) must parse,
    hold for some drawings and never fail."""
    problems = check_params(params)
    if problems:
        return problems
    names = frozenset(params)
    answer: Formula | None = None
    try:
        answer = parse(formula, names)
    except FormulaError as exc:
        problems.append(FormulaProblem("formula", exc.reason, exc.offset))
    seen = {"".join(formula.split()): "the question's formula"}
    wrong: list[tuple[int, Misconception, Formula]] = []
    for i, misconception in enumerate(misconceptions):
        field = f"misconceptions[{i}].formula"
        try:
            parsed = parse(misconception.formula, names)
        except FormulaError as exc:
            problems.append(FormulaProblem(field, exc.reason, exc.offset))
            continue
        key = "".join(misconception.formula.split())
        if key in seen:
            problems.append(
                FormulaProblem(field, f"the same formula as {seen[key]}: a misconception is wrong")
            )
            continue
        seen[key] = f"misconceptions[{i}]"
        wrong.append((i, misconception, parsed))
    if where is not None:
        try:
            parse(where, names, condition=True)
        except FormulaError as exc:
            problems.append(FormulaProblem("where", exc.reason, exc.offset))
            return problems
    if answer is None:  # nothing to draw the misconceptions against
        return problems
    try:
        drawings = probe_values(FormulaGenerator(qid, formula, params, where=where))
    except FormulaFailure as exc:
        return [*problems, FormulaProblem("where", str(exc).partition(": where ")[2] or str(exc))]
    if not drawings:
        return [
            *problems,
            FormulaProblem(
                "where",
                f"no drawing of the params satisfies '{where}' (every one checked breaks "
                "it): widen the params or loosen the condition",
            ),
        ]
    places = DEFAULT_DECIMALS if decimals is None else decimals
    found = _probe(answer, wrong, drawings, list(params), places)
    if problems or found or not choice:
        return problems + found
    return _distinct(wrong, drawings, list(params), places, options - 1)


def _fails(field: str, values: Values, names: Sequence[str], exc: FormulaError) -> FormulaProblem:
    return FormulaProblem(
        field, f"fails for {shown_values(values, names)}: {exc.reason}", exc.offset
    )


def _probe(
    answer: Formula,
    wrong: Sequence[tuple[int, Misconception, Formula]],
    drawings: Sequence[Values],
    names: Sequence[str],
    decimals: int,
) -> list[FormulaProblem]:
    """The formulas on every drawing: none fails, the answer shows (not 0 at the decimals
    when it is not 0) and is not the same on every drawing (a constant such as
    ``arctan2(0, 0)``, or params that cancel), no misconception gives the answer."""
    shown: list[str] = []
    hidden: str | None = None
    for values in drawings:
        try:
            value = answer.evaluate(values)
        except FormulaError as exc:
            return [_fails("formula", values, names, exc)]
        shown.append(format_number(value, decimals))
        hidden = hidden or hidden_answer(value, decimals, shown_values(values, names))
    problems = [FormulaProblem("decimals", hidden)] if hidden else []
    differ = len({tuple(sorted(values.items())) for values in drawings}) > 1
    if differ and len(set(shown)) == 1 and not hidden:  # hidden says why, and what to do
        uses = (
            "uses none of the params"
            if not answer.names
            else f"gives {shown[0]} for every drawing of the params ({len(drawings)} checked)"
        )
        problems.append(
            FormulaProblem(
                "formula",
                f"'{answer.text}' {uses}, so every variant has the answer {shown[0]}: write "
                "the formula so that the params change its value",
            )
        )
    for i, misconception, formula in wrong:
        field = f"misconceptions[{i}].formula"
        same: list[int] = []
        for k, values in enumerate(drawings):
            try:
                value = formula.evaluate(values)
            except FormulaError as exc:
                problems.append(_fails(field, values, names, exc))
                break
            if format_number(value, decimals) == shown[k]:
                same.append(k)
        else:
            if len(same) == len(drawings):
                problems.append(
                    FormulaProblem(
                        field,
                        f"'{misconception.formula}' always gives the answer (on all "
                        f"{len(drawings)} variants checked, at {places(decimals)}): it is the "
                        "right formula written another way, not a misconception",
                    )
                )
            elif same:
                k = same[0]
                problems.append(
                    FormulaProblem(
                        field,
                        f"'{misconception.formula}' gives {shown[k]}, the answer, for "
                        f"{shown_values(drawings[k], names)} ({len(same)} of the "
                        f"{len(drawings)} variants checked): narrow the params or show more "
                        "decimals, so that a wrong formula never gives the right number",
                    )
                )
    return problems


def _distinct(
    wrong: Sequence[tuple[int, Misconception, Formula]],
    drawings: Sequence[Values],
    names: Sequence[str],
    decimals: int,
    needed: int,
) -> list[FormulaProblem]:
    """For the choice form: every drawing has ``needed`` different wrong options."""
    for values in drawings:
        texts = [format_number(formula.evaluate(values), decimals) for _, _, formula in wrong]
        if len(set(texts)) < needed:
            return [
                FormulaProblem(
                    "misconceptions",
                    f"for {shown_values(values, names)} the misconceptions give "
                    f"{', '.join(texts)}: fewer than the {needed} different wrong options "
                    "this choice question shows; change a formula, ask for fewer options "
                    "or show more decimals",
                )
            ]
    return []
