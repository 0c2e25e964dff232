"""What the course's pages compute with: ``pe`` (the core's functions) and the few numpy
functions lessons use, for ``{{ }}`` expressions (:mod:`konum.values`).

* ``pe``: the public functions of :mod:`konum_pe.pe`, and nothing else;
* plain functions of arrays (no ``out=``, no ``dtype``, no I/O), each sized before it
  allocates: ``abs``, ``allclose``, ``arange``, ``argmax``, ``array``, ``concatenate``,
  ``cos``, ``cumsum``, ``dot``, ``floor``, ``log2``, ``norm`` (``np.linalg.norm``), ``ones``,
  ``round``, ``sin``, ``take``, ``unique``, the number ``pi``, and ``rng(seed)``
  (``np.random.default_rng(seed)`` with only ``normal(size=...)`` and ``permutation(n)``).
  Broadcasting replaces ``np.subtract.outer``: ``a.reshape(-1, 1) - b`` (Jinja has no
  ``a[:, none]``).
* ``printed(x, decimals)``: what a lesson's program prints for ``x`` rounded, character for
  character, for the output blocks (``[0. 1. 0. 1.]``, ``16.0``), where ``vec`` and ``fmt``
  write prose.
"""

from __future__ import annotations

import functools
import inspect
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from konum.sandbox import FunctionSet, check_size
from konum_pe import pe


def _arange(start: float, stop: float | None = None, step: float | None = None) -> Any:
    """``np.arange``, its length checked first."""
    low, high = (0.0, start) if stop is None else (start, stop)
    by = 1.0 if step is None else step
    if by == 0:
        raise ValueError("arange(): step must not be 0")
    check_size(max(0, math.ceil((high - low) / by)), "arange()")
    return np.arange(start, stop, step)


def _ones(shape: int | Sequence[int]) -> Any:
    """``np.ones(shape)``, its size checked first."""
    dims = shape if isinstance(shape, (tuple, list)) else (shape,)
    check_size(math.prod(int(d) for d in dims), "ones()")
    return np.ones(shape)


def _array(values: Any) -> Any:
    """``np.array(values)`` (the dtype numpy infers; the sandbox has sized ``values``)."""
    return np.array(values)


def _concatenate(arrays: Sequence[Any], axis: int = 0) -> Any:
    """``np.concatenate(arrays, axis=axis)`` (the sandbox has sized ``arrays``)."""
    return np.concatenate(arrays, axis=axis)


def _take(values: Any, indices: Any, axis: int | None = None) -> Any:
    """``np.take(values, indices, axis=axis)``, its size checked first."""
    array = np.asarray(values)
    per_index = 1 if axis is None else array.size // max(1, array.shape[axis])
    check_size(np.size(indices) * per_index, "take()")
    return np.take(array, indices, axis=axis)


def _allclose(a: Any, b: Any, rtol: float = 1e-05, atol: float = 1e-08) -> bool:
    """``np.allclose(a, b)``, the broadcast shape checked first."""
    check_size(math.prod(np.broadcast_shapes(np.shape(a), np.shape(b))), "allclose()")
    return bool(np.allclose(a, b, rtol=rtol, atol=atol))


def _rng(seed: int) -> FunctionSet:
    """``np.random.default_rng(seed)`` with only ``normal(size)`` and ``permutation(n)``."""
    generator = np.random.default_rng(seed)

    def normal(size: int | Sequence[int] | None = None) -> Any:
        dims = size if isinstance(size, (tuple, list)) else (1 if size is None else size,)
        check_size(math.prod(int(d) for d in dims), "rng().normal()")
        return generator.normal(size=size)

    def permutation(x: Any) -> Any:
        return generator.permutation(x)

    return FunctionSet("rng", {"normal": normal, "permutation": permutation})


def _unary(function: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """``function`` of one array and nothing else (a ufunc's second argument is ``out``)."""

    @functools.wraps(function)
    def one(x: Any) -> Any:
        return function(x)

    return one


def _with_axis(function: Callable[..., Any]) -> Callable[..., Any]:
    """``function(x, axis=axis)`` and nothing else."""

    @functools.wraps(function)
    def reduce(x: Any, axis: int | None = None) -> Any:
        return function(x, axis=axis)

    return reduce


def _round(x: Any, decimals: int = 0) -> Any:
    """``np.round(x, decimals)``."""
    return np.round(x, decimals)


def _dot(a: Any, b: Any) -> Any:
    """``np.dot(a, b)``."""
    return np.dot(a, b)


#: numpy's default print options, so a page shows what a fresh ``python`` prints.
_NUMPY_PRINT = {
    "precision": 8,
    "threshold": 1000,
    "edgeitems": 3,
    "linewidth": 75,
    "suppress": False,
    "floatmode": "maxprec",
    "sign": "-",
    "legacy": False,
}


def _printed(x: Any, decimals: int | None = None) -> str:
    """What ``print(np.round(x, decimals))`` prints for an array (a list or tuple of numbers is
    one), ``print(round(x, decimals))`` for a number; ``decimals=None`` prints ``x`` as it is.
    A number is printed as Python prints a ``float`` or an ``int`` (``16.0``, ``7``).
    """
    if isinstance(x, (np.ndarray, list, tuple)):
        array = np.asarray(x)  # numpy's threshold summarises a large one
        with np.printoptions(**_NUMPY_PRINT):  # type: ignore[arg-type]
            return str(array if decimals is None else np.round(array, decimals))
    number = x.item() if isinstance(x, np.generic) else x
    if isinstance(number, bool) or not isinstance(number, (int, float)):
        raise ValueError(f"printed() takes a number or an array, got {type(x).__name__}")
    return str(number if decimals is None else round(number, decimals))


#: The numpy functions lessons compute with, by the names lessons call them.
NUMERIC: dict[str, object] = {
    "abs": _unary(np.abs),
    "allclose": _allclose,
    "arange": _arange,
    "argmax": _with_axis(np.argmax),
    "array": _array,
    "concatenate": _concatenate,
    "cos": _unary(np.cos),
    "cumsum": _with_axis(np.cumsum),
    "dot": _dot,
    "floor": _unary(np.floor),
    "log2": _unary(np.log2),
    "norm": _with_axis(np.linalg.norm),
    "ones": _ones,
    "pi": math.pi,
    "printed": _printed,
    "rng": _rng,
    "round": _round,
    "sin": _unary(np.sin),
    "take": _take,
    "unique": _with_axis(np.unique),
}


#: The names the course's pages see.
VALUES: dict[str, object] = {
    "pe": FunctionSet(
        "pe",
        {name: getattr(pe, name) for name in pe.__all__ if inspect.isfunction(getattr(pe, name))},
    ),
    **NUMERIC,
}
