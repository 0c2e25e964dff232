"""What a generator's, a figure's or an explorer's parameter accepts: described for
messages, and a bank's constraint checked against it (:class:`~konum.computed.base.ParamSpec`).
"""

from __future__ import annotations

import numpy as np

from konum.computed.base import Kind, ParamSpec, _is_number, _show, _typed, lattice
from konum.model import Choices, Range


def _is_int(value: object) -> bool:
    return _is_number(value) and float(value).is_integer()  # type: ignore[arg-type]


def _matches_kind(kind: Kind, value: object) -> bool:
    if kind == "int":
        return _is_int(value)
    if kind == "float":
        return _is_number(value)
    if kind == "bool":
        return isinstance(value, (bool, np.bool_))
    return isinstance(value, str)


def describe(spec: ParamSpec) -> str:
    """What ``spec`` accepts, for messages: ``an even int in 2..4096``, ``one of 4, 8``."""
    allowed = spec.allowed
    if isinstance(allowed, Choices):
        if spec.kind == "bool":
            return "true or false"
        return "one of " + ", ".join(_show(v) for v in allowed.values)
    noun = {"int": "int", "float": "number", "bool": "bool", "str": "string"}[spec.kind]
    article = "an" if noun == "int" else "a"
    bounds = f"{_show(allowed.low)}..{_show(allowed.high)}"
    if allowed.step:
        step = allowed.step
        if step == 2 and allowed.low % 2 == 0:
            return f"an even {noun} in {bounds}"
        if float(allowed.low) % step == 0:
            return f"a multiple of {_show(step)} in {bounds}"
        return f"{article} {noun} in {bounds} in steps of {_show(step)} from {_show(allowed.low)}"
    return f"{article} {noun} in {bounds}"


def _on_lattice(value: float, origin: float, step: float) -> bool:
    ratio = (value - origin) / step
    return abs(ratio - round(ratio)) < 1e-9


def _value_allowed(spec: ParamSpec, value: object) -> bool:
    if not _matches_kind(spec.kind, value):
        return False
    allowed = spec.allowed
    if isinstance(allowed, Choices):
        if spec.kind in ("int", "float"):
            return any(
                _is_number(a) and float(a) == float(value)  # type: ignore[arg-type]
                for a in allowed.values
            )
        return value in allowed.values
    number = float(value)  # type: ignore[arg-type]
    if not allowed.low <= number <= allowed.high:
        return False
    return not allowed.step or _on_lattice(number, allowed.low, allowed.step)


def check_constraint(spec: ParamSpec, constraint: object) -> str | None:
    """Why ``constraint`` is not acceptable for ``spec`` (None when it is).

    Messages say what was expected and what was found, e.g.
    ``expected an even int in 2..4096, found 7``.
    """
    expected = describe(spec)
    if isinstance(constraint, Choices):
        if not constraint.values:
            return f"expected {expected}, found an empty list of choices"
        for value in constraint.values:
            if not _value_allowed(spec, value):
                return f"expected {expected}, found {_show(value)}"
        return None
    if not isinstance(constraint, Range):
        return f"expected {expected} (a value, a list or a min/max range), found {constraint!r}"
    if spec.kind in ("bool", "str"):
        return f"expected {expected}, found a range (use a value or a list)"
    found = f"the range {_show(constraint.low)}..{_show(constraint.high)}"
    for label, bound in (("min", constraint.low), ("max", constraint.high)):
        if not _is_number(bound) or (spec.kind == "int" and not _is_int(bound)):
            return f"expected {expected}, found {label} {_show(bound)}"
    if constraint.step is not None:
        if not _is_number(constraint.step) or constraint.step <= 0:
            return f"expected a positive step, found step {_show(constraint.step)}"
        if spec.kind == "int" and not _is_int(constraint.step):
            return f"expected an integer step for an int, found step {_show(constraint.step)}"
    if constraint.low > constraint.high:
        return (
            f"empty range: min {_show(constraint.low)} is greater than max {_show(constraint.high)}"
        )
    allowed = spec.allowed
    if isinstance(allowed, Range):
        if constraint.low < allowed.low or constraint.high > allowed.high:
            return f"expected {expected}, found {found}"
        if (
            allowed.step
            and constraint.step
            and not (
                _on_lattice(constraint.low, allowed.low, allowed.step)
                and _on_lattice(constraint.step, 0.0, allowed.step)
            )
        ):
            return (
                f"expected {expected}, found {found} in steps of {_show(constraint.step)} "
                "(it includes values that are not allowed)"
            )
    points = lattice(spec, constraint)
    if points.count == 0:
        return f"empty range: {found} contains no {expected.removeprefix('a ').removeprefix('an ')}"
    if isinstance(allowed, Choices):
        if points.count > 10_000:
            return f"expected {expected}, found {found}"
        for i in range(points.count):
            if not _value_allowed(spec, _typed(spec.kind, points.value(i))):
                return f"expected {expected}, found {found} (it includes {_show(points.value(i))})"
    return None
