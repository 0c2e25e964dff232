"""Memoised calls of the PE core (:mod:`konum.pe`) for the generators.

A generator asks the core for the same few things again and again: the frequencies of
``(d, base)``, the slopes of ``heads`` heads, the bucket of a relative position. Each helper
here makes exactly the call the generator used to make (same function, same arguments, same
array shapes), so the numbers are the same bit for bit; only repeated calls are saved.

Two kinds of call are also made cheaper when they do run: a row of the sinusoidal table
(:func:`sinusoidal_entry`) and a RoPE rotation (:func:`rope_trig`, :func:`rope_rotate`)
repeat the core's array operations, on arrays of the same shapes, without its argument
checks, for arguments that pass them. ``tests/test_computed.py`` compares them with the core
bit for bit.

Arrays come back read-only (they are shared between callers); large results are reduced to
the scalar asked for before they are cached, so no cache holds big tables. Errors of the core
(``ValueError``) are not cached: they are raised again on every call. The float arguments are
bases (greater than 1), so ``-0.0 == 0.0`` never merges two keys.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any, TypeVar

import numpy as np

from konum import pe

#: Entries per cache; each holds a scalar, a short text or an array of at most ``d/2`` floats.
SIZE = 2048

F = TypeVar("F", bound=Callable[..., Any])
_CACHES: list[Any] = []


def memo(maxsize: int = SIZE) -> Callable[[F], F]:
    """``functools.lru_cache(maxsize, typed=True)``, registered for :func:`clear`.

    ``typed`` keeps ``1``, ``1.0`` and ``True`` apart, so a cached result is only ever reused
    for arguments of the very same types.
    """

    def wrap(function: F) -> F:
        cached_function = lru_cache(maxsize=maxsize, typed=True)(function)
        _CACHES.append(cached_function)
        return cached_function  # type: ignore[return-value]

    return wrap


def clear() -> None:
    """Empty every cache of the computed generators (for benchmarks and tests)."""
    for cached_function in _CACHES:
        cached_function.cache_clear()
    from konum import seeding
    from konum.computed import base, validation, variants

    seeding._known_sequence.cache_clear()
    validation._probe_cached.cache_clear()
    variants._compiled.cache_clear()
    base._LATTICES.clear()
    base._BUILT.clear()
    base._sig.cache_clear()
    base._format_number.cache_clear()


def _frozen(array: np.ndarray) -> np.ndarray:
    array.flags.writeable = False
    return array


@memo()
def sinusoidal_frequencies(d: int, base: float) -> np.ndarray:
    """``pe.sinusoidal_frequencies(d, base=base)``, read-only."""
    return _frozen(pe.sinusoidal_frequencies(d, base=base))


@memo()
def sinusoidal_frequency_list(d: int, base: float) -> tuple[float, ...]:
    """``pe.sinusoidal_frequencies(d, base=base)`` as Python floats."""
    return tuple(sinusoidal_frequencies(d, base).tolist())


@memo()
def sinusoidal_wavelength_list(d: int, base: float) -> tuple[float, ...]:
    """``pe.sinusoidal_wavelengths(d, base=base)`` as Python floats."""
    return tuple(pe.sinusoidal_wavelengths(d, base=base).tolist())


@memo()
def sinusoidal_entry(pos: int, d: int, base: float, layout: str, column: int) -> float:
    """``float(pe.sinusoidal(np.array([pos]), d, base=base, layout=layout)[0, column])``."""
    return float(pe.sinusoidal(np.array([pos]), d, base=base, layout=layout)[0, column])  # type: ignore[arg-type]


@memo()
def shift_matrix_entry(offset: int, d: int, base: float, row: int, column: int) -> float:
    """``float(pe.sinusoidal_shift_matrix(offset, d, base=base)[row, column])``."""
    return float(pe.sinusoidal_shift_matrix(offset, d, base=base)[row, column])


@memo()
def rope_frequency_list(d: int, base: float) -> tuple[float, ...]:
    """``pe.rope_frequencies(d, base=base)`` as Python floats."""
    return tuple(pe.rope_frequencies(d, base=base).tolist())


@memo()
def rope_frequencies(d: int, base: float) -> np.ndarray:
    """``pe.rope_frequencies(d, base=base)``, read-only."""
    return _frozen(pe.rope_frequencies(d, base=base))


@memo()
def alibi_slopes(heads: int) -> np.ndarray:
    """``pe.alibi_slopes(heads)``, read-only."""
    return _frozen(pe.alibi_slopes(heads))


@memo()
def alibi_slope_list(heads: int) -> tuple[float, ...]:
    """``pe.alibi_slopes(heads)`` as Python floats."""
    return tuple(alibi_slopes(heads).tolist())


@memo()
def alibi_bias_entry(n: int, heads: int, causal: bool, head: int, row: int, column: int) -> float:
    """``float(pe.alibi_bias(n, heads, causal=causal)[head, row, column])``."""
    return float(pe.alibi_bias(n, heads, causal=causal)[head, row, column])


@memo()
def t5_bucket(relative_position: int, bidirectional: bool, num_buckets: int, far: int) -> int:
    """``int(pe.t5_bucket(...))`` for one relative position."""
    return int(
        pe.t5_bucket(
            relative_position,
            bidirectional=bidirectional,
            num_buckets=num_buckets,
            max_distance=far,
        )
    )


@memo()
def relative_index_entry(size: int, max_distance: int, row: int, column: int) -> int:
    """``int(pe.relative_index(size, size, max_distance)[row, column])``."""
    return int(pe.relative_index(size, size, max_distance)[row, column])


@memo()
def sincos_2d_entry(rows: int, cols: int, d: int, base: float, token: int, channel: int) -> float:
    """``float(pe.sincos_2d(rows, cols, d, base=base)[token, channel])``."""
    return float(pe.sincos_2d(rows, cols, d, base=base)[token, channel])


@memo(256)
def sinusoidal_table(n: int, d: int) -> np.ndarray:
    """``pe.sinusoidal(n, d)``, read-only."""
    return _frozen(pe.sinusoidal(n, d))
