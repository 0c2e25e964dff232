"""What one sandboxed render may do, and the counting that holds it to that.

:class:`Limits` are the bounds; :class:`Budget` is one render's count against them, kept in
:data:`BUDGET` while :class:`konum.sandbox.SandboxedTemplate` renders; :func:`measure` and
:func:`deep_size` size a value before an operator, a call or a filter builds something from
it (containers counted deep, strings by their characters, arrays by their elements);
:data:`FILTERS` are the filters a template may use, each one measured first. The Jinja
environment that calls all this is :mod:`konum.sandbox`.
"""

from __future__ import annotations

import functools
import math
import numbers
import operator
import time
from collections.abc import Callable, Iterable, Mapping
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

import numpy as np
from jinja2.filters import FILTERS as JINJA_FILTERS
from jinja2.filters import do_join, do_replace
from jinja2.nodes import EvalContext
from jinja2.runtime import Context
from jinja2.utils import pass_eval_context

from konum import limits
from konum.errors import KonumError


class SandboxError(KonumError, ValueError):
    """A template did something the sandbox refuses, ran past a bound, or failed.

    Attributes:
        message: What went wrong, without the line.
        lineno: The template line (1-based), or None when unknown.
    """

    def __init__(self, message: str, lineno: int | None = None) -> None:
        super().__init__(f"line {lineno}: {message}" if lineno else message)
        self.message = message
        self.lineno = lineno

    def __reduce__(self) -> tuple[type[SandboxError], tuple[str, int | None]]:
        # Errors cross to and from konum build's worker processes whole.
        return (type(self), (self.message, self.lineno))


@dataclass(frozen=True)
class Limits:
    """Bounds on one render.

    Attributes:
        range: Items one ``range()`` may produce.
        steps: Work units per render (see :data:`ITEMS_PER_STEP`).
        items: Elements one value may hold: characters of a string, items of a list,
            elements of an array; also the product of the integer arguments of a
            :class:`FunctionSet`'s function (sizes such as ``n * d``).
        int_bits: Bits of an integer result (``10 ** (10 ** 10)`` is refused).
        output: Characters one render may print.
        seconds: Wall-clock time per render, checked at every step (a backstop for work that
            steps measure badly, such as one large matrix product).
    """

    range: int = 10_000
    steps: int = 100_000
    items: int = 5_000_000
    int_bits: int = 4_096
    output: int = 10_000_000
    seconds: float = 30.0


#: Array elements (inputs and result) of one call or operator that count as one step more.
ITEMS_PER_STEP = 1_000


def check_decimals(decimals: object) -> None:
    """Refuse ``decimals`` outside ``0..MAX_DECIMALS`` (a billion places is a gigabyte)."""
    if decimals is None:
        return
    if not isinstance(decimals, numbers.Integral) or isinstance(decimals, bool):
        raise SandboxError(f"decimals: expected a whole number, found {decimals!r}")
    if not 0 <= int(decimals) <= limits.TEMPLATE_DECIMALS:
        raise SandboxError(f"decimals: expected 0 to {limits.TEMPLATE_DECIMALS}, found {decimals}")


@dataclass
class Budget:
    limits: Limits
    deadline: float
    steps: int = 0
    printed: int = 0

    def charge(self, steps: int) -> None:
        self.steps += steps
        if self.steps > self.limits.steps:
            raise SandboxError(
                f"too much work: a template may take {self.limits.steps:,} steps (loop "
                "iterations, calls, operations, printed pieces) and this one takes more; "
                "look for nested loops or large arrays"
            )
        if time.monotonic() > self.deadline:
            raise SandboxError(f"too slow: a template may run for {self.limits.seconds:g} s")


BUDGET: ContextVar[Budget | None] = ContextVar("konum_sandbox_budget", default=None)
#: How a render prints a bare number (``{{ n * d }}``): as ``str`` does, unless its caller
#: marks them (:mod:`konum.values`, so that a page in another language writes them its way).
PRINT_NUMBER: ContextVar[Callable[[str], str] | None] = ContextVar("konum_number", default=None)


def active() -> Budget:
    budget = BUDGET.get()
    if budget is None:
        raise SandboxError("a sandboxed template renders only through its render() method")
    return budget


#: Types that hold one element (checked by type first: ABC checks are slow on every call).
_ATOMS = frozenset({int, float, bool, complex, type(None)})


def deep_size(value: object, limit: int, array_cap: int | None = None) -> int:
    """Elements ``value`` holds, counting into lists, tuples, sets and mappings (a list of
    the same large list a thousand times holds a thousand times its elements), strings by
    their characters, arrays by their elements (at most ``array_cap`` of them: what numpy
    prints of a large array); at least 1. The walk stops once the count passes ``limit``.
    """
    if type(value) in _ATOMS:
        return 1
    if isinstance(value, np.ndarray):
        size = int(value.size)
        return max(1, size if array_cap is None else min(size, array_cap))
    if isinstance(value, (str, bytes)):
        return max(1, len(value))
    items: Iterable[object]
    if isinstance(value, (list, tuple, set, frozenset)):
        items = value
    elif isinstance(value, Context):  # Jinja's own, handed to some filters: not template data
        return 1
    elif isinstance(value, (dict, Mapping)):
        items = (*value.keys(), *value.values())
    else:
        return 1
    total = 0
    for item in items:
        total += deep_size(item, limit - total, array_cap)
        if total > limit:
            break
    return max(1, total)


def check_count(count: int, what: str, limits: Limits) -> None:
    if count > limits.items:
        raise SandboxError(f"{what} would hold {count:,} elements: at most {limits.items:,}")


def measure(value: object, limits: Limits, what: str) -> int:
    """``value``'s elements (:func:`deep_size`), refused past :attr:`Limits.items` (an
    integer past :attr:`Limits.int_bits`)."""
    if type(value) is int:  # numpy's integers have fixed sizes
        bits = value.bit_length()
        if bits > limits.int_bits:
            raise SandboxError(
                f"{what} is an integer of {bits:,} bits: at most {limits.int_bits:,}"
            )
        return 1
    size = deep_size(value, limits.items)
    check_count(size, what, limits)
    return size


def steps_for(elements: int) -> int:
    """Steps for work touching ``elements`` values: one, and one per :data:`ITEMS_PER_STEP`."""
    return 1 + elements // ITEMS_PER_STEP


def check_size(count: float, what: str) -> None:
    """Refuse building ``what`` of ``count`` elements in the render under way: for template
    functions that allocate by a size argument (``arange``, ``ones``), before they do.

    Raises:
        SandboxError: ``count`` passes :attr:`Limits.items`, or no render is under way.
    """
    check_count(math.ceil(count), what, active().limits)


def broadcast_check(left: object, right: object, limits: Limits) -> None:
    """Refuse an array operation whose broadcast result would be too large, before numpy
    allocates it."""
    if not (isinstance(left, np.ndarray) or isinstance(right, np.ndarray)):
        return
    try:
        shape = np.broadcast_shapes(np.shape(left), np.shape(right))  # type: ignore[call-overload]
    except ValueError:
        return  # numpy reports the shape mismatch itself
    check_count(math.prod(shape), "an array operation's result", limits)


def fancy_index_check(array: np.ndarray, index: object, limits: Limits) -> None:
    """Refuse indexing with lists or integer arrays whose result could be too large."""
    parts = index if isinstance(index, tuple) else (index,)
    factor = 1
    for part in parts:
        if not isinstance(part, (list, np.ndarray)):
            continue
        count = deep_size(part, limits.items)
        check_count(count, "an index", limits)
        if np.asarray(part).dtype != np.bool_:  # a mask selects at most the array itself
            factor *= max(1, count)
    if factor > 1:
        check_count(factor * int(array.size), "an indexed array", limits)


def bounded_range(*args: int) -> range:
    limits = active().limits
    numbers_range = range(*args)
    try:
        count = len(numbers_range)
    except OverflowError:  # more than sys.maxsize
        count = (numbers_range.stop - numbers_range.start) // numbers_range.step
    if count > limits.range:
        raise SandboxError(f"range() of {count:,} items: at most {limits.range:,}")
    return numbers_range


COMPARISONS: dict[str, Callable[[Any, Any], Any]] = {
    "eq": operator.eq,
    "ne": operator.ne,
    "gt": operator.gt,
    "gteq": operator.ge,
    "lt": operator.lt,
    "lteq": operator.le,
    "in": lambda a, b: a in b,
    "notin": lambda a, b: a not in b,
}


@pass_eval_context
def _replace(eval_ctx: EvalContext, s: str, old: str, new: str, count: int | None = None) -> Any:
    text, old_text, new_text = str(s), str(old), str(new)
    hits = text.count(old_text)
    if count is not None and count >= 0:
        hits = min(hits, count)
    length = len(text) + hits * (len(new_text) - len(old_text))
    check_count(length, "replace's result", active().limits)
    return do_replace(eval_ctx, s, old, new, count)


@pass_eval_context
def _join(eval_ctx: EvalContext, value: Iterable[Any], d: str = "") -> str:
    texts = [str(item) for item in value]
    length = sum(map(len, texts)) + max(0, len(texts) - 1) * len(str(d))
    check_count(length, "join's result", active().limits)
    return str(do_join(eval_ctx, texts, d))


def measured(function: Callable[..., Any]) -> Callable[..., Any]:
    """Filter ``function`` with its arguments sized and counted first (filters are called
    directly, not through :meth:`Sandbox.call`); Jinja's pass-context marker is kept."""

    @functools.wraps(function)
    def filtered(*args: Any, **kwargs: Any) -> Any:
        budget = active()
        values = (*args, *kwargs.values())
        budget.charge(steps_for(sum(measure(v, budget.limits, "a filter's input") for v in values)))
        return function(*args, **kwargs)

    return filtered


#: The filters templates may use: pure text and sequence helpers whose result is no larger
#: than their input (``join`` and ``replace`` check theirs before building it).
FILTERS: dict[str, Callable[..., Any]] = {
    **{
        name: measured(JINJA_FILTERS[name])
        for name in (
            "abs",
            "capitalize",
            "count",
            "d",
            "default",
            "e",
            "escape",
            "first",
            "float",
            "int",
            "last",
            "length",
            "list",
            "lower",
            "map",
            "max",
            "min",
            "reject",
            "rejectattr",
            "reverse",
            "round",
            "select",
            "selectattr",
            "sort",
            "sum",
            "string",
            "title",
            "trim",
            "truncate",
            "unique",
            "upper",
            "wordcount",
        )
    },
    "join": measured(_join),
    "replace": measured(_replace),
}
