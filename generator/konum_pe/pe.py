"""The positional-encoding core: every number konum shows is computed here.

Plain numpy, float64 throughout (except where a reference implementation computes in float32
and we must agree with it bucket for bucket, see :func:`t5_bucket`). Nothing here imports
MkDocs, Jinja or any other part of the site, so lessons, computed generators, figures and
tests can all call it.

Conventions (fixed by issue 2; lessons and generators rely on them):

* Positions start at 0. ``positions=n`` means ``0, 1, ..., n - 1``.
* Sinusoidal frequencies: pair ``k`` has angular frequency ``omega_k = base**(-2k/d)``.
* ``"interleaved"`` layout puts the sine of pair ``k`` in column ``2k`` and its cosine in
  column ``2k + 1`` (Vaswani et al., 2017); ``"concat"`` puts all sines first, then all
  cosines (MAE's 1-D helper).
* RoPE ``"half"`` pairs dimension ``k`` with ``k + d/2`` (GPT-NeoX, Hugging Face
  ``rotate_half``); ``"interleaved"`` pairs ``(2k, 2k + 1)`` (RoFormer, GPT-J, Meta's Llama).
  Rotation is by ``+theta``: ``(a, b) -> (a cos - b sin, a sin + b cos)``.
* Relative positions are ``key - query`` (T5, Shaw et al.).

Every public function validates its arguments and raises :class:`ValueError` whose message
names the argument, the value received and what is allowed.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping
from typing import Literal, overload

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = [
    "Layout",
    "RopeLayout",
    "alibi_bias",
    "alibi_slopes",
    "attention_weights",
    "learned",
    "relative_index",
    "rope",
    "rope_angles",
    "rope_decay_bound",
    "rope_frequencies",
    "rope_layout_permutation",
    "rope_nd",
    "rope_nd_angles",
    "self_attention",
    "sincos_2d",
    "sinusoidal",
    "sinusoidal_angles",
    "sinusoidal_frequencies",
    "sinusoidal_shift_matrix",
    "sinusoidal_wavelengths",
    "softmax",
    "t5_bucket",
    "yarn_attention_factor",
    "yarn_ramp",
]

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]

Layout = Literal["interleaved", "concat"]
RopeLayout = Literal["half", "interleaved"]

_LAYOUTS: tuple[str, ...] = ("interleaved", "concat")
_ROPE_LAYOUTS: tuple[str, ...] = ("half", "interleaved")
_ROPE_TYPES: tuple[str, ...] = ("default", "linear", "dynamic", "llama3", "yarn")

# Keys each Hugging Face ``rope_type`` takes here: (required, optional).
_ROPE_KEYS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "default": (frozenset(), frozenset()),
    "linear": (frozenset({"factor"}), frozenset()),
    "dynamic": (
        frozenset({"factor", "max_position_embeddings"}),
        frozenset({"seq_len"}),
    ),
    "llama3": (
        frozenset(
            {"factor", "low_freq_factor", "high_freq_factor", "original_max_position_embeddings"}
        ),
        frozenset(),
    ),
    "yarn": (
        frozenset({"factor", "original_max_position_embeddings"}),
        frozenset({"beta_fast", "beta_slow"}),
    ),
}


# --------------------------------------------------------------------------------------------
# Argument checking. Messages follow one pattern: "<name> must be <allowed>, got <value>".


def _as_int(value: object) -> int | None:
    """``value`` as an ``int`` if it is an integer (bool excluded), else ``None``."""
    # bool is an int subclass, but True as a dimension is always a mistake.
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return int(value)
    return None


def _as_float(value: object) -> float | None:
    """``value`` as a finite ``float`` if it is a real number (bool excluded), else ``None``."""
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        number = float(value)
        if math.isfinite(number):
            return number
    return None


def _int_at_least(name: str, value: object, minimum: int) -> int:
    number = _as_int(value)
    if number is None or number < minimum:
        allowed = "a positive integer" if minimum == 1 else f"an integer >= {minimum}"
        raise ValueError(f"{name} must be {allowed}, got {value!r}")
    return number


def _even_int(name: str, value: object, context: str = "") -> int:
    number = _as_int(value)
    if number is None or number < 2 or number % 2:
        raise ValueError(f"{name} must be a positive even integer{context}, got {value!r}")
    return number


def _positive_real(name: str, value: object) -> float:
    number = _as_float(value)
    if number is None or number <= 0:
        raise ValueError(f"{name} must be a positive finite number, got {value!r}")
    return number


def _base(value: object) -> float:
    number = _as_float(value)
    if number is None or number <= 1:
        raise ValueError(f"base must be a finite number greater than 1, got {value!r}")
    return number


def _choice(name: str, value: object, allowed: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in allowed:
        options = ", ".join(repr(a) for a in allowed)
        raise ValueError(f"{name} must be one of {options}, got {value!r}")
    return value


def _short(value: object) -> str:
    """A repr short enough for an error message."""
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _positions(positions: int | ArrayLike, name: str = "positions") -> FloatArray:
    """``n`` -> ``0..n-1``; a 1-D array of finite numbers -> itself as float64."""
    n = _as_int(positions)
    if n is not None:
        if n < 1:
            raise ValueError(
                f"{name} must be a positive integer count or a 1-D array of finite numbers, "
                f"got {n!r}"
            )
        return np.arange(n, dtype=np.float64)
    return _finite_array(name, positions, (1,), "1-D array", count=True)


def _float_matrix(name: str, value: ArrayLike) -> FloatArray:
    return _finite_array(name, value, (2,), "2-D array (n, d)")


def _finite_array(
    name: str, value: object, ndims: tuple[int, ...], what: str, *, count: bool = False
) -> FloatArray:
    """``value`` as a non-empty float64 array of finite numbers with ``ndims`` dimensions.

    ``what`` names that shape in the messages (``"2-D array (n, d)"``); ``count`` says that
    a positive integer count was accepted too (:func:`_positions`): the messages offer it and
    show the value given rather than its shape.

    Raises:
        ValueError: ``value`` is not such an array; the message names ``name``.
    """
    either = "a positive integer count or " if count else ""
    try:
        array = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(
            f"{name} must be {either}a {what} of finite numbers, got {_short(value)}"
        ) from None
    if array.ndim not in ndims or array.size == 0 or not np.all(np.isfinite(array)):
        got = _short(value) if count else f"shape {array.shape}"
        raise ValueError(f"{name} must be {either}a non-empty {what} of finite numbers, got {got}")
    return array


# --------------------------------------------------------------------------------------------
# Sinusoidal (Vaswani et al., 2017) and learned tables.


def sinusoidal_frequencies(d: int, *, base: float = 10000.0) -> FloatArray:
    """Angular frequency of each sine/cosine pair of the sinusoidal encoding.

    ``omega_k = base**(-2k/d)`` for ``k = 0 .. ceil(d/2) - 1`` (radians per position). For odd
    ``d`` the last entry belongs to the lone sine column ``d - 1`` (DistilBERT's rule).

    Args:
        d: Model dimension, a positive integer.
        base: The ``10000`` of the paper; must be greater than 1.

    Returns:
        Array of shape ``(ceil(d/2),)``, float64, decreasing from 1.
    """
    d = _int_at_least("d", d, 1)
    base = _base(base)
    k = np.arange((d + 1) // 2, dtype=np.float64)
    return np.asarray(base ** (-2.0 * k / d), dtype=np.float64)


def sinusoidal_wavelengths(d: int, *, base: float = 10000.0) -> FloatArray:
    """Wavelength, in positions, of each pair: ``2*pi / omega_k = 2*pi * base**(2k/d)``.

    Args:
        d: Model dimension, a positive integer.
        base: Must be greater than 1.

    Returns:
        Array of shape ``(ceil(d/2),)``, float64, increasing from ``2*pi``.
    """
    return np.asarray(2.0 * np.pi / sinusoidal_frequencies(d, base=base), dtype=np.float64)


def sinusoidal_angles(positions: int | ArrayLike, d: int, *, base: float = 10000.0) -> FloatArray:
    """The angles ``p * omega_k`` fed to sine and cosine.

    Args:
        positions: ``n`` (positions ``0..n-1``) or a 1-D array of positions, possibly
            fractional.
        d: Model dimension, a positive integer.
        base: Must be greater than 1.

    Returns:
        Array of shape ``(len(positions), ceil(d/2))``: row ``p``, column ``k`` is
        ``p / base**(2k/d)`` in radians.
    """
    pos = _positions(positions)
    omega = sinusoidal_frequencies(d, base=base)
    return np.asarray(np.outer(pos, omega), dtype=np.float64)


def sinusoidal(
    positions: int | ArrayLike,
    d: int,
    *,
    base: float = 10000.0,
    layout: Layout = "interleaved",
) -> FloatArray:
    """The fixed sinusoidal position encoding of "Attention Is All You Need".

    ``"interleaved"`` (the paper): ``PE[p, 2k] = sin(p / base**(2k/d))`` and
    ``PE[p, 2k+1] = cos(p / base**(2k/d))``. For odd ``d`` this follows DistilBERT's
    ``create_sinusoidal_embeddings``: column ``j`` uses the exponent ``2*(j//2)/d``, so the last
    column is a sine with no cosine partner.

    ``"concat"``: the same frequencies with all ``d/2`` sines first, then all ``d/2`` cosines
    (MAE's ``get_1d_sincos_pos_embed_from_grid``); ``d`` must be even.

    Args:
        positions: ``n`` (meaning positions ``0..n-1``) or a 1-D array of positions, which may
            be fractional.
        d: Model dimension, a positive integer (even for ``"concat"``).
        base: The ``10000`` of the paper; must be greater than 1.
        layout: ``"interleaved"`` or ``"concat"``.

    Returns:
        Array of shape ``(len(positions), d)``, float64.

    Raises:
        ValueError: for a bad argument; the message names it.
    """
    layout_ = _choice("layout", layout, _LAYOUTS)
    if layout_ == "concat":
        d = _even_int("d", d, " for layout='concat'")
    else:
        d = _int_at_least("d", d, 1)
    angles = sinusoidal_angles(positions, d, base=base)
    out = np.empty((angles.shape[0], d), dtype=np.float64)
    half = angles.shape[1]
    # Writing sin and cos straight into their columns saves two temporary tables.
    if layout_ == "concat":
        np.sin(angles, out=out[:, :half])
        np.cos(angles, out=out[:, half:])
    else:
        np.sin(angles, out=out[:, 0::2])
        np.cos(angles[:, : d // 2], out=out[:, 1::2])
    return out


def sinusoidal_shift_matrix(offset: float, d: int, *, base: float = 10000.0) -> FloatArray:
    """The block-diagonal rotation ``M`` with ``PE[p + offset] = M @ PE[p]`` for every ``p``.

    Interleaved layout, even ``d``. Block ``k`` (rows and columns ``2k, 2k+1``) is
    ``[[cos(w*offset), sin(w*offset)], [-sin(w*offset), cos(w*offset)]]`` with
    ``w = omega_k``; it maps ``(sin wp, cos wp)`` to ``(sin w(p+offset), cos w(p+offset))`` by
    the angle-addition formulas. It depends on ``offset`` only, never on ``p``.

    Args:
        offset: The shift ``k`` in positions (any finite number).
        d: Model dimension, a positive even integer.
        base: Must be greater than 1.

    Returns:
        Array of shape ``(d, d)``, float64.
    """
    shift = _as_float(offset)
    if shift is None:
        raise ValueError(f"offset must be a finite number, got {offset!r}")
    d = _even_int("d", d, " for the shift matrix")
    phi = shift * sinusoidal_frequencies(d, base=base)
    m = np.zeros((d, d), dtype=np.float64)
    c, s = np.cos(phi), np.sin(phi)
    idx = np.arange(d // 2)
    m[2 * idx, 2 * idx] = c
    m[2 * idx, 2 * idx + 1] = s
    m[2 * idx + 1, 2 * idx] = -s
    m[2 * idx + 1, 2 * idx + 1] = c
    return m


def learned(n: int, d: int, *, seed: int = 0, std: float = 0.02) -> FloatArray:
    """A learned position-embedding table as it is at initialisation.

    Entries are independent ``Normal(0, std**2)`` draws (BERT and GPT-2 initialise with
    ``std = 0.02``) from ``numpy.random.default_rng(seed)``, so the same seed always gives the
    same table. Training would then move it; konum only shows the starting point.

    Args:
        n: Number of positions (rows), a positive integer.
        d: Model dimension, a positive integer.
        seed: A non-negative integer.
        std: Standard deviation, a positive finite number.

    Returns:
        Array of shape ``(n, d)``, float64.
    """
    n = _int_at_least("n", n, 1)
    d = _int_at_least("d", d, 1)
    seed = _int_at_least("seed", seed, 0)
    std = _positive_real("std", std)
    rng = np.random.default_rng(seed)
    return np.asarray(rng.normal(0.0, std, size=(n, d)), dtype=np.float64)


# --------------------------------------------------------------------------------------------
# Attention.


def softmax(z: ArrayLike, axis: int = -1) -> FloatArray:
    """Numerically stable softmax along ``axis``.

    Subtracts the maximum of each slice before exponentiating, so inputs like ``1000`` do not
    overflow. ``-inf`` entries (masked positions) get weight 0; every slice needs at least one
    finite entry.

    Args:
        z: Array of any shape with at least one dimension; entries finite or ``-inf``.
        axis: The axis to normalise over.

    Returns:
        float64 array of the same shape; each slice along ``axis`` sums to 1.
    """
    try:
        arr = np.asarray(z, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"z must be an array of numbers, got {_short(z)}") from None
    if arr.ndim == 0 or arr.size == 0:
        raise ValueError(f"z must be a non-empty array with at least 1 dimension, got {_short(z)}")
    axis_ = _as_int(axis)
    if axis_ is None or not -arr.ndim <= axis_ < arr.ndim:
        raise ValueError(
            f"axis must be an integer in [{-arr.ndim}, {arr.ndim - 1}] for an array with "
            f"{arr.ndim} dimensions, got {axis!r}"
        )
    if np.any(np.isnan(arr)) or np.any(arr == np.inf):
        raise ValueError("z must contain only finite numbers or -inf, got NaN or +inf")
    peak = np.max(arr, axis=axis, keepdims=True)
    if np.any(np.isneginf(peak)):
        raise ValueError(
            "z must have at least one finite entry in every slice along axis "
            f"{axis}, got a slice that is entirely -inf"
        )
    e = np.exp(arr - peak)
    return np.asarray(e / np.sum(e, axis=axis, keepdims=True), dtype=np.float64)


def attention_weights(x: ArrayLike) -> FloatArray:
    """Scaled dot-product self-attention weights ``softmax(x @ x.T / sqrt(d))``.

    Queries, keys and values are the rows of ``x`` itself (no projections), which is all the
    lessons need to show what position does to attention.

    Args:
        x: Array of shape ``(n, d)``, finite.

    Returns:
        Array of shape ``(n, n)``; row ``i`` is query ``i``'s weights over the keys.
    """
    arr = _float_matrix("x", x)
    return softmax(arr @ arr.T / math.sqrt(arr.shape[1]), axis=-1)


def self_attention(x: ArrayLike) -> FloatArray:
    """Projection-free self-attention ``softmax(x @ x.T / sqrt(d)) @ x``.

    Without position information this is permutation-equivariant: permuting the rows of ``x``
    permutes the rows of the output the same way. Adding a position encoding to ``x`` first
    breaks that symmetry.

    Args:
        x: Array of shape ``(n, d)``, finite.

    Returns:
        Array of shape ``(n, d)``, float64.
    """
    arr = _float_matrix("x", x)
    return np.asarray(attention_weights(arr) @ arr, dtype=np.float64)


# --------------------------------------------------------------------------------------------
# RoPE (Su et al., 2021) and its context-extension scalings.


def _scaling_number(
    key: str, value: object, *, minimum: float | None = None, integer: bool = False
) -> float:
    name = f"scaling[{key!r}]"
    if integer:
        whole = _as_int(value)
        if whole is None or whole < 1:
            raise ValueError(f"{name} must be a positive integer, got {value!r}")
        return float(whole)
    number = _as_float(value)
    if number is None:
        raise ValueError(f"{name} must be a finite number, got {value!r}")
    if minimum is not None and number < minimum:
        raise ValueError(f"{name} must be a number >= {minimum:g}, got {value!r}")
    return number


def rope_frequencies(
    d: int,
    *,
    base: float = 10000.0,
    scaling: Mapping[str, object] | None = None,
) -> FloatArray:
    """RoPE inverse frequencies ``inv_freq[k] = base**(-2k/d)``, optionally rescaled.

    ``scaling`` uses Hugging Face transformers' ``rope_scaling`` spelling and follows the
    semantics of its ``modeling_rope_utils.py``:

    * ``None`` or ``{"rope_type": "default"}``: unscaled.
    * ``{"rope_type": "linear", "factor": f}``: position interpolation (kaiokendev; Chen et
      al., 2023): every ``inv_freq`` is divided by ``f``, the same as dividing positions by
      ``f``.
    * ``{"rope_type": "dynamic", "factor": f, "max_position_embeddings": m, "seq_len": L}``:
      dynamic NTK-aware scaling (bloc97, emozilla). When ``L > m`` the base grows to
      ``base * ((f*L/m) - (f-1)) ** (d/(d-2))``; when ``L <= m`` or ``seq_len`` is absent
      nothing changes. Needs ``d >= 4``.
    * ``{"rope_type": "llama3", "factor": f, "low_freq_factor": lo, "high_freq_factor": hi,
      "original_max_position_embeddings": L0}``: Llama 3.1's smoothing. With wavelength
      ``lam = 2*pi/inv_freq``: pairs with ``lam < L0/hi`` (high frequency) are kept; pairs with
      ``lam > L0/lo`` (low frequency) are divided by ``f``; in between,
      ``s = (L0/lam - lo) / (hi - lo)`` blends ``(1 - s) * inv_freq/f + s * inv_freq``.
    * ``{"rope_type": "yarn", "factor": f, "original_max_position_embeddings": L0}``, optional
      ``"beta_fast"`` (32) and ``"beta_slow"`` (1): YaRN (Peng et al., 2023), as its reference
      code and transformers' ``_compute_yarn_parameters`` compute it:
      ``(1 - g) * inv_freq + g * inv_freq/f`` with ``g = yarn_ramp(...)``, 0 for the pairs kept,
      1 for those interpolated. The attention temperature is :func:`yarn_attention_factor`.

    Args:
        d: The rotated dimension (head dimension, or ``rotary_dim``), a positive even integer.
        base: RoPE's ``theta`` (``rope_theta``), greater than 1.
        scaling: ``None`` or a mapping as above. Unknown keys are an error.

    Returns:
        Array of shape ``(d/2,)``, float64, in radians per position.
    """
    d = _even_int("d", d)
    base = _base(base)
    k = np.arange(d // 2, dtype=np.float64)
    if scaling is None:
        return np.asarray(base ** (-2.0 * k / d), dtype=np.float64)
    if not isinstance(scaling, Mapping):
        raise ValueError(
            "scaling must be None or a mapping with a 'rope_type' key (one of "
            f"{', '.join(repr(t) for t in _ROPE_TYPES)}), got {_short(scaling)}"
        )
    rope_type = _choice("scaling['rope_type']", scaling.get("rope_type"), _ROPE_TYPES)
    required, optional = _ROPE_KEYS[rope_type]
    keys = set(scaling) - {"rope_type"}
    missing = sorted(required - keys)
    if missing:
        raise ValueError(
            f"scaling for rope_type={rope_type!r} is missing key(s) "
            f"{', '.join(repr(m) for m in missing)}; it needs "
            f"{', '.join(repr(r) for r in sorted(required))}"
        )
    unknown = sorted(keys - required - optional, key=str)
    if unknown:
        allowed = sorted(required | optional) or ["no other keys"]
        raise ValueError(
            f"scaling for rope_type={rope_type!r} has unknown key(s) "
            f"{', '.join(repr(u) for u in unknown)}; allowed: "
            f"{', '.join(repr(a) if a != 'no other keys' else a for a in allowed)}"
        )
    inv_freq = base ** (-2.0 * k / d)
    if rope_type == "default":
        return np.asarray(inv_freq, dtype=np.float64)
    factor = _scaling_number("factor", scaling["factor"], minimum=1.0)
    if rope_type == "linear":
        return np.asarray(inv_freq / factor, dtype=np.float64)
    if rope_type == "dynamic":
        if d < 4:
            raise ValueError(
                f"d must be an even integer >= 4 for rope_type='dynamic' (the exponent is "
                f"d/(d-2)), got {d}"
            )
        max_pos = _scaling_number(
            "max_position_embeddings", scaling["max_position_embeddings"], integer=True
        )
        seq_len_raw = scaling.get("seq_len")
        seq_len = (
            max_pos
            if seq_len_raw is None
            else _scaling_number("seq_len", seq_len_raw, integer=True)
        )
        # Only a sequence longer than the trained context changes anything (Hugging Face uses
        # max_position_embeddings whenever seq_len is not larger).
        seq_len = max(seq_len, max_pos)
        grown = base * ((factor * seq_len / max_pos) - (factor - 1.0)) ** (d / (d - 2))
        return np.asarray(grown ** (-2.0 * k / d), dtype=np.float64)
    if rope_type == "yarn":
        ramp = yarn_ramp(
            d,
            base=base,
            factor=factor,
            original_max=_scaling_number(
                "original_max_position_embeddings",
                scaling["original_max_position_embeddings"],
                integer=True,
            ),
            beta_fast=_scaling_number("beta_fast", scaling.get("beta_fast", 32.0)),
            beta_slow=_scaling_number("beta_slow", scaling.get("beta_slow", 1.0)),
        )
        return np.asarray((1.0 - ramp) * inv_freq + ramp * inv_freq / factor, dtype=np.float64)
    # llama3
    low = _scaling_number("low_freq_factor", scaling["low_freq_factor"])
    high = _scaling_number("high_freq_factor", scaling["high_freq_factor"])
    if low <= 0:
        raise ValueError(f"scaling['low_freq_factor'] must be a positive number, got {low!r}")
    if high <= low:
        raise ValueError(
            "scaling['high_freq_factor'] must be greater than scaling['low_freq_factor'] "
            f"({low:g}), got {high:g}"
        )
    old_context = _scaling_number(
        "original_max_position_embeddings",
        scaling["original_max_position_embeddings"],
        integer=True,
    )
    wavelength = 2.0 * np.pi / inv_freq
    low_freq_wavelength = old_context / low  # longer than this: interpolate fully
    high_freq_wavelength = old_context / high  # shorter than this: leave alone
    smooth = (old_context / wavelength - low) / (high - low)
    blended = (1.0 - smooth) * inv_freq / factor + smooth * inv_freq
    out = np.where(
        wavelength < high_freq_wavelength,
        inv_freq,
        np.where(wavelength > low_freq_wavelength, inv_freq / factor, blended),
    )
    return np.asarray(out, dtype=np.float64)


def yarn_ramp(
    d: int,
    *,
    base: float = 10000.0,
    factor: float,
    original_max: float,
    beta_fast: float = 32.0,
    beta_slow: float = 1.0,
) -> FloatArray:
    """YaRN's interpolation weight per RoPE pair: 0 keeps the pair, 1 divides it by the factor.

    Pair ``k`` makes ``r_k = L0 / lambda_k = L0 * base**(-2k/d) / (2*pi)`` turns within the
    original context ``L0``. The paper ramps on ``r``: pairs with more than ``beta_fast``
    turns are kept, those with fewer than ``beta_slow`` interpolated. Its reference code
    (``jquesnelle/yarn``, ``find_correction_range`` and ``linear_ramp_mask``; transformers'
    ``_compute_yarn_parameters`` with ``truncate``) solves ``r_k = beta`` for ``k``,
    ``k(beta) = d * ln(L0 / (2*pi*beta)) / (2 * ln(base))``, takes ``low = floor(k(beta_fast))``
    and ``high = ceil(k(beta_slow))`` clamped to ``[0, d - 1]``, and ramps linearly in the pair
    index between them: ``clip((k - low) / (high - low), 0, 1)`` (``high`` moved by 0.001 when
    the two meet). This function follows the reference code.

    Args:
        d: The rotated dimension, a positive even integer.
        base: RoPE's ``theta``, greater than 1.
        factor: The extension factor ``s`` (new context / original), at least 1.
        original_max: The trained context ``L0`` (``original_max_position_embeddings``).
        beta_fast: Turns above which a pair is kept (32 in the paper).
        beta_slow: Turns below which a pair is fully interpolated (1 in the paper).

    Returns:
        float64 array of shape ``(d/2,)`` with values in ``[0, 1]``.
    """
    d = _even_int("d", d)
    base = _base(base)
    _positive_real("factor", factor)
    original = _positive_real("original_max", original_max)
    fast = _positive_real("beta_fast", beta_fast)
    slow = _positive_real("beta_slow", beta_slow)
    if slow >= fast:
        raise ValueError(f"beta_slow must be below beta_fast ({fast:g}), got {slow:g}")

    def pair_at(turns: float) -> float:
        return d * math.log(original / (turns * 2 * math.pi)) / (2 * math.log(base))

    low = max(math.floor(pair_at(fast)), 0)
    high = min(math.ceil(pair_at(slow)), d - 1)
    span = high - low if high != low else 0.001
    ramp = (np.arange(d // 2, dtype=np.float64) - low) / span
    return np.asarray(np.clip(ramp, 0.0, 1.0), dtype=np.float64)


def yarn_attention_factor(factor: float) -> float:
    """YaRN's attention scale ``0.1 * ln(s) + 1`` (1 for ``s <= 1``).

    The reference code multiplies both the cosines and the sines by it (``mscale``), so the
    rotated query and key are each scaled and the logits grow by its square; the paper
    writes the same as a temperature ``sqrt(1/t) = 0.1 ln s + 1``. transformers calls it
    ``attention_factor`` (``get_mscale``).

    Args:
        factor: The extension factor ``s``, a positive number.

    Returns:
        The scale, a float >= 1.
    """
    s = _positive_real("factor", factor)
    return 1.0 if s <= 1 else 0.1 * math.log(s) + 1.0


def rope_angles(
    positions: int | ArrayLike,
    d: int,
    *,
    base: float = 10000.0,
    scaling: Mapping[str, object] | None = None,
) -> FloatArray:
    """RoPE rotation angles ``theta[m, k] = m * inv_freq[k]``.

    Args:
        positions: ``n`` (positions ``0..n-1``) or a 1-D array of positions.
        d: Rotated dimension, a positive even integer.
        base: RoPE's ``theta``, greater than 1.
        scaling: As in :func:`rope_frequencies`.

    Returns:
        Array of shape ``(len(positions), d/2)`` in radians.
    """
    pos = _positions(positions)
    inv_freq = rope_frequencies(d, base=base, scaling=scaling)
    return np.asarray(np.outer(pos, inv_freq), dtype=np.float64)


def rope_decay_bound(distances: int | ArrayLike, d: int, *, base: float = 10000.0) -> FloatArray:
    """RoFormer's long-range decay term: ``(1/(d/2)) * sum_{j=1}^{d/2} |S_j(r)|``.

    With ``h_k`` the query's pair ``k`` times the conjugate of the key's (complex numbers),
    summation by parts bounds a RoPE score at distance ``r``:
    ``|sum_k h_k e^{i r theta_k}| <= max_k |h_{k+1} - h_k| * sum_j |S_j|``, where
    ``S_j = sum_{k<j} e^{i r theta_k}`` (Su et al., 2021, section 3.4.3). The second factor
    depends on ``r`` alone; the paper plots it divided by ``d/2``, which this returns. At
    ``r = 0`` every ``|S_j| = j``, so the value is ``(d/2 + 1) / 2``.

    Args:
        distances: ``n`` (distances ``0..n-1``) or a 1-D array of distances ``r``.
        d: Rotated dimension, a positive even integer.
        base: RoPE's ``theta``, greater than 1.

    Returns:
        float64 array of shape ``(len(distances),)``.
    """
    r = _positions(distances, "distances")
    theta = rope_frequencies(d, base=base)
    partial = np.cumsum(np.exp(1j * np.outer(r, theta)), axis=1)
    return np.asarray(np.abs(partial).mean(axis=1), dtype=np.float64)


def rope_layout_permutation(d: int) -> IntArray:
    """Column order that turns a ``"half"``-layout vector into the ``"interleaved"`` layout.

    ``perm = [0, d/2, 1, d/2 + 1, ..., d/2 - 1, d - 1]``: for any ``x`` (n, d),
    ``rope(x[:, perm], layout="interleaved") == rope(x, layout="half")[:, perm]``. Hugging
    Face's conversion of Meta's Llama checkpoints applies the inverse,
    ``np.argsort(perm) = [0, 2, 4, ..., 1, 3, 5, ...]``, to the rows of each head's
    query and key projections.

    Args:
        d: A positive even integer.

    Returns:
        int64 array of shape ``(d,)``.
    """
    d = _even_int("d", d)
    half = d // 2
    perm = np.empty(d, dtype=np.int64)
    perm[0::2] = np.arange(half)
    perm[1::2] = np.arange(half) + half
    return perm


def rope(
    x: ArrayLike,
    positions: int | ArrayLike | None = None,
    *,
    base: float = 10000.0,
    layout: RopeLayout = "half",
    scaling: Mapping[str, object] | None = None,
    rotary_dim: int | None = None,
) -> FloatArray:
    """Rotary position embedding: rotate each row of ``x`` by its position.

    For pair ``k`` with angle ``theta = m * inv_freq[k]`` (see :func:`rope_frequencies`), the
    pair ``(a, b)`` becomes ``(a cos theta - b sin theta, a sin theta + b cos theta)``.
    ``layout="half"`` pairs dimension ``k`` with ``k + r/2`` (GPT-NeoX, Hugging Face Llama's
    ``rotate_half``); ``layout="interleaved"`` pairs ``2k`` with ``2k + 1`` (RoFormer, GPT-J,
    Meta's Llama). Only the first ``r = rotary_dim`` dimensions are rotated (partial rotary, as
    in GPT-NeoX); the rest pass through unchanged.

    Args:
        x: Array of shape ``(n, d)``, or a single vector of shape ``(d,)``.
        positions: ``None`` for ``0..n-1``; otherwise ``n`` positions as a 1-D array (possibly
            fractional). For a single vector, one number (default 0).
        base: RoPE's ``theta``, greater than 1.
        layout: ``"half"`` or ``"interleaved"``.
        scaling: As in :func:`rope_frequencies`, computed for ``rotary_dim``.
        rotary_dim: Number of leading dimensions to rotate, a positive even integer ``<= d``;
            ``None`` means all of ``d`` (then ``d`` must be even).

    Returns:
        float64 array of the same shape as ``x``.
    """
    layout_ = _choice("layout", layout, _ROPE_LAYOUTS)
    arr = _finite_array("x", x, (1, 2), "2-D array (n, d) or 1-D vector")
    single = arr.ndim == 1
    rows = arr[None, :] if single else arr
    n, d = rows.shape
    if single and positions is not None:
        where = _as_float(positions)
        if where is None:
            raise ValueError(
                f"positions must be a single finite number when x is a vector, got "
                f"{_short(positions)}"
            )
        pos = np.array([where])
    elif positions is None:
        pos = np.arange(n, dtype=np.float64)
    else:
        if _as_int(positions) is not None:
            raise ValueError(
                f"positions must be None or a 1-D array of {n} positions (one per row of x), "
                f"got the integer {positions!r}"
            )
        pos = _positions(positions)
        if pos.shape[0] != n:
            raise ValueError(
                f"positions must hold one position per row of x ({n}), got {pos.shape[0]}"
            )
    if rotary_dim is None:
        if d % 2:
            raise ValueError(
                f"x must have an even last dimension when rotary_dim is None, got d={d}"
            )
        r = d
    else:
        r = _even_int("rotary_dim", rotary_dim)
        if r > d:
            raise ValueError(f"rotary_dim must be <= d ({d}), got {r}")
    theta = np.outer(pos, rope_frequencies(r, base=base, scaling=scaling))
    out = _rotate(rows, theta, layout_)
    return np.asarray(out[0] if single else out, dtype=np.float64)


def _rotate(rows: FloatArray, theta: FloatArray, layout: str) -> FloatArray:
    """``rows`` (n, d) with pair ``k`` of its first ``2 * theta.shape[1]`` dimensions turned
    by ``theta[:, k]`` (the rest unchanged), in the ``"half"`` or ``"interleaved"`` layout."""
    r = 2 * theta.shape[1]
    cos, sin = np.cos(theta), np.sin(theta)
    out: FloatArray = rows.copy()
    if layout == "half":
        a, b = rows[:, : r // 2], rows[:, r // 2 : r]
        out[:, : r // 2] = a * cos - b * sin
        out[:, r // 2 : r] = a * sin + b * cos
    else:
        a, b = rows[:, 0:r:2], rows[:, 1:r:2]
        out[:, 0:r:2] = a * cos - b * sin
        out[:, 1:r:2] = a * sin + b * cos
    return out


def rope_nd_angles(
    positions: ArrayLike,
    d: int,
    sections: ArrayLike,
    *,
    base: float = 10000.0,
    per_axis: bool = True,
) -> FloatArray:
    """Angles of RoPE over several position axes (image rows and columns; time, height, width).

    The ``d/2`` pairs are split into consecutive blocks, ``sections[a]`` pairs following
    axis ``a``: pair ``k`` of block ``a`` turns by ``positions[:, a]`` times its frequency.

    * ``per_axis=True``: axial RoPE for images (RoPE-Axial of Heo et al., 2024,
      ``compute_axial_cis`` in naver-ai/rope-vit): each block has the frequencies of a 1-D
      RoPE of its own size, ``base**(-j/s_a)`` for its ``j``-th pair (``s_a = sections[a]``),
      so every axis runs from fast to slow. rope-vit gives the first block to the column and
      the second to the row, so pass a patch's coordinates as ``(x, y)``: column first.
    * ``per_axis=False``: multimodal RoPE (M-RoPE, Qwen2-VL's ``mrope_section``, e.g.
      ``(16, 24, 24)`` for time, height and width in a head of 128): the frequencies of a
      1-D RoPE of size ``d``, ``base**(-2k/d)``, each pair reading the position of its block's
      axis. With all coordinates equal this is 1-D RoPE.

    Args:
        positions: ``(n, A)`` array: one coordinate per axis for each of ``n`` tokens.
        d: The rotated dimension, a positive even integer.
        sections: ``A`` positive integers, pairs per axis, summing to ``d/2``.
        base: RoPE's ``theta``, greater than 1.
        per_axis: As above.

    Returns:
        float64 array of shape ``(n, d/2)`` in radians.
    """
    d = _even_int("d", d)
    base = _base(base)
    counts = [_as_int(c) for c in np.atleast_1d(np.asarray(sections, dtype=object))]
    if (
        not counts
        or any(c is None or c < 1 for c in counts)
        or sum(c or 0 for c in counts) != d // 2
    ):
        raise ValueError(
            f"sections must be positive integers summing to d/2 = {d // 2}, got {_short(sections)}"
        )
    blocks = [int(c or 0) for c in counts]
    pos = _float_matrix("positions", positions)
    if pos.shape[1] != len(blocks):
        raise ValueError(
            f"positions must have one column per section ({len(blocks)}), got shape {pos.shape}"
        )
    if per_axis:
        freq = np.concatenate([base ** (-np.arange(s, dtype=np.float64) / s) for s in blocks])
    else:
        freq = rope_frequencies(d, base=base)
    axis = np.repeat(np.arange(len(blocks)), blocks)
    return np.asarray(pos[:, axis] * freq, dtype=np.float64)


def rope_nd(
    x: ArrayLike,
    positions: ArrayLike,
    sections: ArrayLike,
    *,
    base: float = 10000.0,
    per_axis: bool = True,
    layout: RopeLayout = "half",
) -> FloatArray:
    """Rotate each row of ``x`` by its position on several axes (see :func:`rope_nd_angles`).

    Args:
        x: Array of shape ``(n, d)``, ``d = 2 * sum(sections)``.
        positions: ``(n, A)`` coordinates, one row per row of ``x``.
        sections: Pairs per axis, as in :func:`rope_nd_angles`.
        base: RoPE's ``theta``, greater than 1.
        per_axis: As in :func:`rope_nd_angles`.
        layout: ``"half"`` or ``"interleaved"``, as in :func:`rope`.

    Returns:
        float64 array of the same shape as ``x``.
    """
    layout_ = _choice("layout", layout, _ROPE_LAYOUTS)
    rows = _float_matrix("x", x)
    theta = rope_nd_angles(positions, rows.shape[1], sections, base=base, per_axis=per_axis)
    if theta.shape[0] != rows.shape[0]:
        raise ValueError(
            f"positions must hold one row per row of x ({rows.shape[0]}), got {theta.shape[0]}"
        )
    return np.asarray(_rotate(rows, theta, layout_), dtype=np.float64)


# --------------------------------------------------------------------------------------------
# ALiBi (Press et al., 2022).


def alibi_slopes(num_heads: int) -> FloatArray:
    """ALiBi head slopes by the paper's rule.

    For a power of two ``n``, head ``h = 1..n`` gets ``2**(-8h/n)`` (8 heads: 1/2 ... 1/256).
    Otherwise, with ``p`` the largest power of two below ``n``, the slopes are the ``p`` slopes
    for ``p`` heads followed by the first ``n - p`` of the odd-numbered slopes for ``2p`` heads
    (the paper's reference ``get_slopes``); 6 heads give 1/4, 1/16, 1/64, 1/256, 1/2, 1/8.

    Args:
        num_heads: A positive integer.

    Returns:
        Array of shape ``(num_heads,)``, float64, in head order.
    """
    n = _int_at_least("num_heads", num_heads, 1)

    def power_of_two(count: int) -> FloatArray:
        h = np.arange(1, count + 1, dtype=np.float64)
        return np.asarray(2.0 ** (-8.0 * h / count), dtype=np.float64)

    p = 1 << (n.bit_length() - 1)
    if p == n:
        return power_of_two(n)
    extra = power_of_two(2 * p)[0::2][: n - p]
    return np.concatenate([power_of_two(p), extra])


def alibi_bias(n: int, num_heads: int, *, causal: bool = True) -> FloatArray:
    """ALiBi attention biases, added to the query-key scores before the softmax.

    ``bias[h, i, j] = -m_h * (i - j)`` for keys ``j <= i`` and ``-inf`` for ``j > i`` (the
    causal mask) when ``causal``; ``-m_h * |i - j|`` everywhere otherwise (the symmetric form
    used for encoders). ``m_h`` comes from :func:`alibi_slopes`.

    Args:
        n: Sequence length, a positive integer.
        num_heads: A positive integer.
        causal: Whether to mask future keys.

    Returns:
        Array of shape ``(num_heads, n, n)``, float64; query ``i`` is the row, key ``j`` the
        column.
    """
    n = _int_at_least("n", n, 1)
    slopes = alibi_slopes(num_heads)
    if not isinstance(causal, (bool, np.bool_)):
        raise ValueError(f"causal must be True or False, got {causal!r}")
    i = np.arange(n)[:, None]
    j = np.arange(n)[None, :]
    distance = (i - j).astype(np.float64)
    if causal:
        # Future keys get distance +inf, so -m * inf = -inf (m > 0): the causal mask.
        masked = np.where(j > i, np.inf, distance)
        bias = -slopes[:, None, None] * masked[None, :, :]
    else:
        bias = -slopes[:, None, None] * np.abs(distance)[None, :, :]
    # Adding 0.0 turns the -0.0 on the diagonal into 0.0, so it never prints as "-0".
    return np.asarray(bias + 0.0, dtype=np.float64)


# --------------------------------------------------------------------------------------------
# Relative positions: T5 buckets (Raffel et al., 2020) and Shaw et al. (2018).


@overload
def t5_bucket(
    relative_position: int,
    *,
    bidirectional: bool = ...,
    num_buckets: int = ...,
    max_distance: int = ...,
) -> int: ...


@overload
def t5_bucket(
    relative_position: ArrayLike,
    *,
    bidirectional: bool = ...,
    num_buckets: int = ...,
    max_distance: int = ...,
) -> IntArray: ...


def t5_bucket(
    relative_position: int | ArrayLike,
    *,
    bidirectional: bool = True,
    num_buckets: int = 32,
    max_distance: int = 128,
) -> int | IntArray:
    """T5's relative-position bucket, vectorised.

    Matches ``_relative_position_bucket`` of Mesh TensorFlow's T5 and Hugging Face's
    ``T5Attention`` bucket for bucket, with ``relative_position = key - query``:

    * bidirectional: half the buckets for keys at or before the query, half (offset by
      ``num_buckets // 2``) for keys after it; then ``n = |relative_position|``.
      Causal: ``n = max(-relative_position, 0)``, so every future key lands in bucket 0.
    * With ``B`` the buckets left and ``e = B // 2``: distances ``n < e`` get their own
      bucket; larger ones share logarithmically sized buckets
      ``e + int(log(n / e) / log(max_distance / e) * (B - e))``, capped at ``B - 1``.

    The arithmetic is float32, as in both references (Mesh TensorFlow's ``mtf.to_float(n)``
    and Hugging Face's ``relative_position.float()`` are float32 tensors), so that the
    truncation at exact bucket boundaries agrees with them. The float32 logarithm is the
    correctly rounded one (taken in float64, then rounded): the references' float32 ``log``
    kernels, like numpy's SIMD one, may be an ulp off, which at a boundary such as
    ``log(5/3)`` (72 causal buckets, max_distance 100, distance 60) makes the bucket depend
    on the CPU; the correctly rounded value is the same everywhere, and the same as
    JavaScript's ``Math.fround(Math.log(x))`` in the explorer.

    Args:
        relative_position: An integer or an integer array (``key - query``).
        bidirectional: ``True`` for encoders, ``False`` for causal decoders.
        num_buckets: Total buckets (at least 4 when bidirectional, 2 when causal).
        max_distance: Distance from which everything shares the last bucket; must exceed
            the number of exact buckets.

    Returns:
        An ``int`` for an ``int`` input, else an int64 array of the input's shape.
    """
    if not isinstance(bidirectional, (bool, np.bool_)):
        raise ValueError(f"bidirectional must be True or False, got {bidirectional!r}")
    minimum = 4 if bidirectional else 2
    total = _as_int(num_buckets)
    if total is None or total < minimum:
        kind = "bidirectional=True" if bidirectional else "bidirectional=False"
        raise ValueError(
            f"num_buckets must be an integer >= {minimum} for {kind}, got {num_buckets!r}"
        )
    buckets = total // 2 if bidirectional else total
    max_exact = buckets // 2
    far = _as_int(max_distance)
    if far is None or far <= max_exact:
        raise ValueError(
            f"max_distance must be an integer greater than the {max_exact} exact buckets, "
            f"got {max_distance!r}"
        )
    scalar = _as_int(relative_position) is not None
    try:
        raw = np.asarray(relative_position)
    except (TypeError, ValueError):
        raw = np.asarray(None)
    integral_floats = (
        raw.dtype.kind == "f"
        and bool(np.all(np.isfinite(raw)))
        and bool(np.all(raw == np.round(raw)))
    )
    if raw.dtype.kind not in "iu" and not integral_floats:
        raise ValueError(
            "relative_position must be an integer or an array of integers (key - query), "
            f"got {_short(relative_position)}"
        )
    rel = raw.astype(np.int64)
    result = np.zeros(rel.shape, dtype=np.int64)
    if bidirectional:
        result += (rel > 0).astype(np.int64) * buckets
        n = np.abs(rel)
    else:
        n = np.maximum(-rel, 0)
    is_small = n < max_exact
    # float32 like the references; max() keeps log away from 0 where the value is unused.
    ratio = np.maximum(n, max_exact).astype(np.float32) / np.float32(max_exact)
    log = np.log(ratio.astype(np.float64)).astype(np.float32)  # correctly rounded, any CPU
    scaled = log / np.float32(math.log(far / max_exact)) * np.float32(buckets - max_exact)
    if_large = np.minimum(max_exact + scaled.astype(np.int64), buckets - 1)
    result += np.where(is_small, n, if_large)
    if scalar:
        return int(result)
    return result


def relative_index(n_q: int, n_k: int, max_distance: int) -> IntArray:
    """Shaw et al. (2018) clipped relative-position index into a table of ``2k + 1`` rows.

    ``index[i, j] = clip(j_pos - i_pos, -k, k) + k`` with ``k = max_distance``. Keys sit at
    positions ``0..n_k-1``; queries are aligned to the last ``n_q`` keys, so query ``i`` sits at
    position ``i + n_k - n_q`` (the usual case when new queries attend to a cache of earlier
    keys).

    Args:
        n_q: Number of queries, a positive integer ``<= n_k``.
        n_k: Number of keys, a positive integer.
        max_distance: The clipping distance ``k``, a positive integer.

    Returns:
        int64 array of shape ``(n_q, n_k)`` with values in ``0..2k``.
    """
    n_q = _int_at_least("n_q", n_q, 1)
    n_k = _int_at_least("n_k", n_k, 1)
    k = _int_at_least("max_distance", max_distance, 1)
    if n_q > n_k:
        raise ValueError(f"n_q must be <= n_k ({n_k}), got {n_q}")
    query_pos = np.arange(n_q, dtype=np.int64) + (n_k - n_q)
    key_pos = np.arange(n_k, dtype=np.int64)
    rel = key_pos[None, :] - query_pos[:, None]
    return np.asarray(np.clip(rel, -k, k) + k, dtype=np.int64)


# --------------------------------------------------------------------------------------------
# Images: MAE / ViT 2-D sin-cos.


def sincos_2d(
    grid_h: int,
    grid_w: int,
    d: int,
    *,
    base: float = 10000.0,
    cls_token: bool = False,
) -> FloatArray:
    """The fixed 2-D sin-cos patch embedding of MAE (He et al., 2022) and MoCo v3.

    Patches are numbered row-major (token ``t`` is row ``t // grid_w``, column
    ``t % grid_w``). The first ``d/2`` channels are the 1-D concat-layout encoding (see
    :func:`sinusoidal`, with dimension ``d/2``) of the column coordinate; the last ``d/2``
    channels encode the row coordinate the same way. This follows MAE's
    ``get_2d_sincos_pos_embed``, whose meshgrid puts the width coordinate first.

    Args:
        grid_h: Number of patch rows, a positive integer.
        grid_w: Number of patch columns, a positive integer.
        d: Embedding dimension, a positive multiple of 4.
        base: Must be greater than 1.
        cls_token: Prepend an all-zero row for the class token.

    Returns:
        Array of shape ``(grid_h * grid_w + cls_token, d)``, float64.
    """
    grid_h = _int_at_least("grid_h", grid_h, 1)
    grid_w = _int_at_least("grid_w", grid_w, 1)
    dim = _as_int(d)
    if dim is None or dim < 4 or dim % 4:
        raise ValueError(f"d must be a positive multiple of 4, got {d!r}")
    d = dim
    if not isinstance(cls_token, (bool, np.bool_)):
        raise ValueError(f"cls_token must be True or False, got {cls_token!r}")
    rows, cols = np.divmod(np.arange(grid_h * grid_w), grid_w)
    half = d // 2
    emb = np.concatenate(
        [
            sinusoidal(cols.astype(np.float64), half, base=base, layout="concat"),
            sinusoidal(rows.astype(np.float64), half, base=base, layout="concat"),
        ],
        axis=1,
    )
    if cls_token:
        emb = np.concatenate([np.zeros((1, d), dtype=np.float64), emb], axis=0)
    return np.asarray(emb, dtype=np.float64)
