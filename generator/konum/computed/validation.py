"""Checking a computed question's generator, params, answer form, decimals and options.

The bank loader calls :func:`validate_computed` and turns each ``(field path, message)`` pair
into a located problem. Messages say what was expected and what was found.
"""

from __future__ import annotations

from collections.abc import Mapping

from konum import limits
from konum.computed.base import GeneratorError, check_constraint
from konum.computed.registry import active, unknown_generator_message
from konum.computed.variants import MAX_ATTEMPTS, draw_variant
from konum.formatting import did_you_mean
from konum.model import COMPUTED_ANSWERS, ComputedAnswer, ParamConstraint
from konum.seeding import rng_for

#: Variants drawn (with a fixed seed) to check that the params really give usable questions.
PROBE_VARIANTS = 6


def _int_in(value: object, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def validate_computed(
    generator: str,
    params: Mapping[str, ParamConstraint],
    answer: str,
    decimals: int | None,
    options: int,
) -> list[tuple[str, str]]:
    """Problems with a computed question, as ``(field path, message)`` pairs.

    The generator is looked up in the registry in force
    (:func:`konum.computed.registry.active`). Field paths: ``generator``,
    ``params.<name>`` (or ``params`` for the combination),
    ``answer``, ``decimals``, ``options``. Checks: the generator exists (with a "did you
    mean"); every param is declared (with a suggestion) and its constraint has the right kind,
    is not empty and lies inside the allowed bounds; ``answer`` is numeric or choice;
    ``decimals`` and ``options`` lie in :data:`konum.limits.DECIMALS` and
    :data:`konum.limits.COMPUTED_OPTIONS`; and, when nothing else is wrong, a few
    variants are drawn with a fixed seed to check that the params leave usable draws and (for
    the choice form) enough distinct distractors.
    """
    problems: list[tuple[str, str]] = []
    if answer not in COMPUTED_ANSWERS:
        problems.append(("answer", f"expected 'numeric' or 'choice', found {answer!r}"))
    low, high = limits.DECIMALS
    if decimals is not None and not _int_in(decimals, low, high):
        problems.append(("decimals", f"expected an int in {low}..{high}, found {decimals!r}"))
    low, high = limits.COMPUTED_OPTIONS
    options_ok = _int_in(options, low, high)
    if not options_ok:
        problems.append(("options", f"expected an int in {low}..{high}, found {options!r}"))
    gen = active().get(generator)
    if gen is None:
        problems.append(("generator", unknown_generator_message(generator)))
        return problems
    for name, constraint in params.items():
        spec = gen.params.get(name)
        if spec is None:
            problems.append(
                (
                    f"params.{name}",
                    f"unknown parameter {name!r} of {gen.name}{did_you_mean(name, gen.params)} "
                    f"(parameters: {', '.join(gen.params)})",
                )
            )
            continue
        message = check_constraint(spec, constraint)
        if message:
            problems.append((f"params.{name}", message))
    if answer == "choice" and options_ok and options - 1 > len(gen.misconceptions):
        kinds = len(gen.misconceptions)
        problems.append(
            (
                "options",
                f"{gen.name} can produce at most {kinds} distinct distractor"
                f"{'s' if kinds != 1 else ''} ({', '.join(gen.misconceptions)}), so a choice "
                f"question takes at most {kinds + 1} options; found {options}",
            )
        )
    if problems:
        return problems
    return _probe(generator, params, answer, decimals, options)


def _probe(
    generator: str,
    params: Mapping[str, ParamConstraint],
    answer: str,
    decimals: int | None,
    options: int,
) -> list[tuple[str, str]]:
    """Draw a few variants with a fixed seed; report params that cannot give questions."""
    gen = active()[generator]
    form: ComputedAnswer = "choice" if answer == "choice" else "numeric"
    for index in range(PROBE_VARIANTS):
        result = None
        for attempt in range(MAX_ATTEMPTS):
            rng = rng_for(0, "konum-validate", generator, index, attempt)
            try:
                result = draw_variant(
                    gen, params, form=form, options=options, decimals=decimals, rng=rng
                )
            except GeneratorError as exc:
                return [("params", str(exc))]
            except ValueError as exc:  # the PE core rejected a drawn combination
                return [("params", f"the PE core rejects values these params allow: {exc}")]
            if result is not None:
                break
        if result is None:
            shown = gen.default_decimals if decimals is None else decimals
            return [
                (
                    "options",
                    f"with these params {gen.name} cannot give {options - 1} distractors that "
                    f"differ from the answer and each other at {shown} decimals; ask for fewer "
                    "options, more decimals or wider params",
                )
            ]
    return []
