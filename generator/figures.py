"""Lesson figures: matplotlib drawings of numbers from :mod:`konum.pe`, as inline SVG.

Every figure is a function ``name(**params) -> matplotlib.figure.Figure`` registered in
:data:`FIGURES`; :func:`render_svg` turns one into an accessible ``<figure>`` element that a
lesson page inlines with ``{{ figure("pe_heatmap", alt="...", n=64, d=64) }}``.

Conventions:

* Every number drawn comes from :mod:`konum.pe`. :func:`figure_data` returns exactly the
  arrays a figure draws, so tests can compare them with the core.
* Figures are :class:`matplotlib.figure.Figure` objects built without pyplot (no global
  state, no GUI backend) under a private ``rc_context``.
* Text, axes, ticks and grid are drawn in a sentinel colour (:data:`INK`) that
  :func:`render_svg` rewrites to ``currentColor``: the SVG then follows the page's text colour
  in Material's light and dark palettes. Backgrounds are transparent; line colours are of
  middle lightness (readable on white and on the dark slate); colormaps are viridis and
  coolwarm, whose cells are opaque and carry their own contrast.
* Output is deterministic: ``svg.hashsalt`` is derived from the figure and its parameters, no
  date is written, and matplotlib's unreferenced ``id`` attributes (``figure_1``, ``axes_1``,
  ... which would clash between two figures on one page) are removed.
* Sizes are chosen for a phone: figures are :data:`WIDTH` inches wide with :data:`FONT` /
  :data:`SMALL` point text, so text stays at least 10 px when the SVG shrinks to a 358 px
  column and about 13 to 15 px at natural size on a desktop. Legends and colour bars sit
  below the axes, panels stack when side by side they would not fit.
* Heatmaps are embedded as unsampled PNG (``interpolation="none"``) and text stays text
  (``svg.fonttype: none``) in the page's font, so each SVG stays well under 60 KB.

Unknown figures and bad parameters raise :class:`FigureError` (a :class:`ValueError`) naming
the figure and the parameter, with a "did you mean" suggestion for misspellings.
"""

from __future__ import annotations

import difflib
import functools
import hashlib
import html
import io
import math
import re
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any, Literal, cast

import matplotlib
import numpy as np
from cycler import cycler
from matplotlib.axes import Axes
from matplotlib.colors import Colormap
from matplotlib.figure import Figure
from matplotlib.image import AxesImage
from matplotlib.lines import Line2D
from matplotlib.patches import Arc, Rectangle
from matplotlib.ticker import FuncFormatter, LogLocator, MaxNLocator
from numpy.typing import NDArray

from konum import pe
from konum.errors import KonumError

__all__ = [
    "FIGURES",
    "INK",
    "PALETTE",
    "SIZE_BUDGET",
    "FigureError",
    "figure_data",
    "figure_params",
    "render_svg",
]

FloatArray = NDArray[np.float64]
Data = dict[str, Any]

#: Sentinel colour for text, axes, ticks and grid; :func:`render_svg` rewrites it to
#: ``currentColor``. Nothing else in a figure uses it.
INK = "#0a0b0c"

#: Line colours: Tailwind-like 500/600 shades with a contrast of at least 3:1 against both
#: white and Material's dark slate (#1e2129).
PALETTE = ("#3b82f6", "#ea580c", "#059669", "#a855f7", "#e11d48", "#0891b2")

#: Figure width in inches. An SVG is shown at most at its natural size (1 pt = 4/3 px, so
#: 4.8 in is 461 px on a desktop column) and shrinks to the column on a phone (about 358 px
#: at 390 px); at that width 1 pt of text is still about 1 px.
WIDTH = 4.8

#: Font sizes in points: labels and titles, then ticks, legends and cell values. At the
#: narrowest column (358 px for a 4.8 in figure) they render at about 11.4 and 10.4 px; at
#: natural size at 14.7 and 13.3 px.
FONT = 11.0
SMALL = 10.0

#: Size budget of one rendered SVG, in bytes (tests hold every default figure to it).
SIZE_BUDGET = 60_000

_RC: dict[str, Any] = {
    "svg.fonttype": "none",
    "svg.image_inline": True,
    "font.family": "sans-serif",
    "font.size": FONT,
    "axes.titlesize": FONT,
    "axes.labelsize": FONT,
    "xtick.labelsize": SMALL,
    "ytick.labelsize": SMALL,
    "legend.fontsize": SMALL,
    "legend.handlelength": 1.6,
    "legend.borderaxespad": 0.3,
    "xtick.major.size": 3,
    "ytick.major.size": 3,
    "text.color": INK,
    "axes.labelcolor": INK,
    "axes.titlecolor": INK,
    "axes.edgecolor": INK,
    "xtick.color": INK,
    "ytick.color": INK,
    "grid.color": INK,
    "grid.alpha": 0.18,
    "grid.linewidth": 0.6,
    "axes.linewidth": 0.8,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.prop_cycle": cycler(color=list(PALETTE)),
    "figure.facecolor": "none",
    "axes.facecolor": "none",
    "savefig.facecolor": "none",
    "savefig.edgecolor": "none",
    "legend.frameon": False,
    "lines.linewidth": 1.6,
    "image.interpolation": "none",
    "axes.unicode_minus": True,
    "path.simplify": True,
}


class FigureError(KonumError, ValueError):
    """An unknown figure name or a bad figure parameter; the message names both."""


class _Bad(Exception):
    """Internal: a parameter check failed; the message says what was expected."""


# --------------------------------------------------------------------------------------------
# Parameters: every figure declares its parameters, defaults and checks in one table.


@dataclass(frozen=True)
class _Param:
    default: object
    check: Callable[[object], object]
    doc: str


def _is_int(value: object) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


_MULTIPLE_NAMES = {1: "an int", 2: "an even int", 4: "a multiple of 4"}


def _int(lo: int, hi: int, *, multiple_of: int = 1) -> Callable[[object], object]:
    """A check for an int in ``lo..hi`` that is a multiple of ``multiple_of`` (1, 2 or 4)."""
    what = _MULTIPLE_NAMES[multiple_of]

    def check(value: object) -> object:
        number = int(value) if _is_int(value) else None  # type: ignore[call-overload]
        if number is None or not lo <= number <= hi or number % multiple_of:
            raise _Bad(f"must be {what} in {lo}..{hi}, got {value!r}")
        return number

    return check


def _real(lo: float, hi: float, *, above: bool = False) -> Callable[[object], object]:
    low = f"greater than {lo:g}" if above else f"at least {lo:g}"

    def check(value: object) -> object:
        ok = isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(
            value, (bool, np.bool_)
        )
        number = float(value) if ok else math.nan  # type: ignore[arg-type]
        if not (ok and math.isfinite(number)):
            raise _Bad(f"must be a number {low} and at most {hi:g}, got {value!r}")
        if number > hi or number < lo or (above and number == lo):
            raise _Bad(f"must be a number {low} and at most {hi:g}, got {value!r}")
        return number

    return check


def _ints(lo: int, hi: int, max_len: int) -> Callable[[object], object]:
    def check(value: object) -> object:
        message = f"must be a list of 1 to {max_len} ints in {lo}..{hi}, got {value!r}"
        if not isinstance(value, (list, tuple)) or not 1 <= len(value) <= max_len:
            raise _Bad(message)
        if not all(_is_int(v) and lo <= int(v) <= hi for v in value):
            raise _Bad(message)
        return tuple(int(v) for v in value)

    return check


_SPECS: dict[str, dict[str, _Param]] = {
    "pe_heatmap": {
        "n": _Param(64, _int(1, 128), "number of positions (rows)"),
        "d": _Param(64, _int(1, 128), "model dimension (columns)"),
        "base": _Param(10000.0, _real(1, 1e9, above=True), "the 10000 of the formula"),
    },
    "sine_waves": {
        "d": _Param(64, _int(1, 1024), "model dimension"),
        "columns": _Param((0, 2, 8, 16), _ints(0, 1023, 6), "columns j to plot, one panel each"),
        "n": _Param(100, _int(2, 500), "number of positions"),
    },
    "dot_vs_distance": {
        "d": _Param(64, _int(1, 1024), "model dimension"),
        "n": _Param(100, _int(2, 500), "number of positions"),
        "anchor": _Param(50, _int(0, 499), "the fixed position (must be < n)"),
    },
    "fingerprint": {
        "n": _Param(8, _int(1, 16), "number of positions (strips)"),
        "d": _Param(16, _int(1, 64), "model dimension (cells per strip)"),
    },
    "rope_rotation": {
        "m_values": _Param((0, 1, 2, 3), _ints(-1000, 1000, 6), "positions m to rotate by"),
        "k": _Param(0, _int(0, 511), "pair index (must be < d/2)"),
        "d": _Param(8, _int(2, 1024, multiple_of=2), "head dimension"),
    },
    "rope_frequencies_scaled": {
        "d": _Param(128, _int(4, 1024, multiple_of=2), "head dimension"),
        "base": _Param(10000.0, _real(1, 1e9, above=True), "RoPE base (rope_theta)"),
        "factor": _Param(8.0, _real(1, 1000), "context extension factor"),
        "original_max": _Param(8192, _int(16, 10_000_000), "original context length"),
    },
    "alibi_matrices": {
        "n": _Param(8, _int(2, 32), "sequence length"),
        "heads": _Param((1, 4, 8), _ints(1, 64, 4), "1-based heads to show"),
        "num_heads": _Param(8, _int(1, 64), "number of heads the slopes are made for"),
    },
    "t5_buckets": {
        "num_buckets": _Param(32, _int(4, 256, multiple_of=2), "total buckets"),
        "max_distance": _Param(128, _int(2, 100_000), "distance sharing the last bucket"),
        "span": _Param(160, _int(1, 4096), "relative positions -span..span are plotted"),
    },
    "shaw_clipping": {
        "n": _Param(8, _int(1, 16), "sequence length (queries = keys)"),
        "max_distance": _Param(2, _int(1, 16), "clipping distance k"),
    },
    "grid_2d": {
        "grid": _Param(8, _int(2, 32), "patches per side"),
        "d": _Param(32, _int(4, 1024, multiple_of=4), "embedding dimension (multiple of 4)"),
    },
    "attention_permutation": {
        "n": _Param(4, _int(2, 8), "number of tokens"),
        "d": _Param(6, _int(1, 8), "model dimension"),
    },
    "learned_table": {
        "n": _Param(16, _int(1, 64), "number of positions"),
        "d": _Param(32, _int(1, 128), "model dimension"),
    },
}


def _suggest(word: str, choices: list[str]) -> str:
    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.5)
    return f"; did you mean {close[0]!r}?" if close else ""


def _check_name(name: object) -> str:
    if not isinstance(name, str) or name not in _SPECS:
        names = sorted(_SPECS)
        hint = _suggest(name, names) if isinstance(name, str) else ""
        raise FigureError(f"unknown figure {name!r}{hint} (known figures: {', '.join(names)})")
    return name


def _params(name: str, given: Mapping[str, object]) -> dict[str, Any]:
    """Check ``given`` against figure ``name``'s table; return every parameter, normalised."""
    spec = _SPECS[_check_name(name)]
    out: dict[str, Any] = {}
    for key, value in given.items():
        if key not in spec:
            raise FigureError(
                f"figure {name!r}: unknown parameter {key!r}{_suggest(key, list(spec))} "
                f"(parameters: {', '.join(spec)})"
            )
        try:
            out[key] = spec[key].check(value)
        except _Bad as exc:
            raise FigureError(f"figure {name!r}: parameter {key!r} {exc}") from None
    for key, param in spec.items():
        out.setdefault(key, param.default)
    return out


def _bad(name: str, param: str, message: str) -> FigureError:
    return FigureError(f"figure {name!r}: parameter {param!r} {message}")


def figure_params(name: str) -> dict[str, tuple[object, str]]:
    """The parameters of figure ``name``: ``{param: (default, description)}``."""
    return {key: (p.default, p.doc) for key, p in _SPECS[_check_name(name)].items()}


# --------------------------------------------------------------------------------------------
# Data: one function per figure, returning exactly what is drawn (all from konum.pe).


def _data_pe_heatmap(p: Mapping[str, Any]) -> Data:
    return {"pe": pe.sinusoidal(p["n"], p["d"], base=p["base"])}


def _data_sine_waves(p: Mapping[str, Any]) -> Data:
    n, d, columns = p["n"], p["d"], list(p["columns"])
    bad = [j for j in columns if j >= d]
    if bad:
        raise _bad("sine_waves", "columns", f"must hold columns below d = {d}, got {bad}")
    positions = np.arange(n, dtype=np.float64)
    wavelengths = pe.sinusoidal_wavelengths(d)
    # A smooth curve through the integer positions: 16 samples per shortest wavelength shown.
    shortest = float(wavelengths[np.array(columns) // 2].min())
    fine = np.linspace(0.0, n - 1.0, int(np.clip(16 * (n - 1) / shortest, 50, 600)) + 1)
    return {
        "columns": np.array(columns, dtype=np.int64),
        "positions": positions,
        "values": pe.sinusoidal(n, d)[:, columns],
        "fine_positions": fine,
        "fine_values": pe.sinusoidal(fine, d)[:, columns],
        "wavelengths": wavelengths[np.array(columns) // 2],
    }


def _data_dot_vs_distance(p: Mapping[str, Any]) -> Data:
    n, d, anchor = p["n"], p["d"], p["anchor"]
    if anchor >= n:
        raise _bad("dot_vs_distance", "anchor", f"must be below n = {n}, got {anchor}")
    table = pe.sinusoidal(n, d)
    return {"positions": np.arange(n), "dots": table @ table[anchor]}


def _data_fingerprint(p: Mapping[str, Any]) -> Data:
    return {"pe": pe.sinusoidal(p["n"], p["d"])}


def _data_rope_rotation(p: Mapping[str, Any]) -> Data:
    m_values, k, d = np.array(p["m_values"], dtype=np.float64), p["k"], p["d"]
    if k >= d // 2:
        raise _bad("rope_rotation", "k", f"must be below d/2 = {d // 2}, got {k}")
    # Rotate the unit vector (1, 0) held in pair k, read the pair back after RoPE.
    x = np.zeros((len(m_values), d))
    x[:, 2 * k] = 1.0
    rotated = pe.rope(x, m_values, layout="interleaved")
    theta = float(pe.rope_frequencies(d)[k])
    return {
        "m_values": m_values,
        "points": rotated[:, [2 * k, 2 * k + 1]],
        "theta": theta,
        "angles": m_values * theta,
    }


def _rope_scalings(p: Mapping[str, Any]) -> dict[str, dict[str, object] | None]:
    factor, original = p["factor"], p["original_max"]
    seq_len = round(factor * original)
    return {
        "no scaling": None,
        f"linear (positions ÷ {factor:g})": {"rope_type": "linear", "factor": factor},
        f"dynamic NTK (at {seq_len:,} tokens)": {
            "rope_type": "dynamic",
            "factor": factor,
            "max_position_embeddings": original,
            "seq_len": seq_len,
        },
        "Llama 3 (low 1, high 4)": {
            "rope_type": "llama3",
            "factor": factor,
            "low_freq_factor": 1.0,
            "high_freq_factor": 4.0,
            "original_max_position_embeddings": original,
        },
    }


def _data_rope_frequencies_scaled(p: Mapping[str, Any]) -> Data:
    d, base = p["d"], p["base"]
    curves = {
        label: 2 * np.pi / pe.rope_frequencies(d, base=base, scaling=scaling)
        for label, scaling in _rope_scalings(p).items()
    }
    return {"pairs": np.arange(d // 2), "wavelengths": curves}


def _data_alibi_matrices(p: Mapping[str, Any]) -> Data:
    n, heads, num_heads = p["n"], list(p["heads"]), p["num_heads"]
    bad = [h for h in heads if h > num_heads]
    if bad:
        raise _bad(
            "alibi_matrices",
            "heads",
            f"must be 1-based heads up to num_heads = {num_heads}, got {bad}",
        )
    index = np.array(heads) - 1
    return {
        "heads": np.array(heads),
        "slopes": pe.alibi_slopes(num_heads)[index],
        "bias": pe.alibi_bias(n, num_heads)[index],
    }


def _data_t5_buckets(p: Mapping[str, Any]) -> Data:
    rel = np.arange(-p["span"], p["span"] + 1)
    kwargs = {"num_buckets": p["num_buckets"], "max_distance": p["max_distance"]}
    return {
        "relative": rel,
        "bidirectional": np.asarray(pe.t5_bucket(rel, bidirectional=True, **kwargs)),
        "causal": np.asarray(pe.t5_bucket(rel, bidirectional=False, **kwargs)),
    }


def _data_shaw_clipping(p: Mapping[str, Any]) -> Data:
    return {"index": pe.relative_index(p["n"], p["n"], p["max_distance"])}


def _grid_refs(grid: int) -> list[tuple[int, int]]:
    refs = [(0, 0), (grid // 2, grid // 2), (grid // 4, (3 * grid) // 4)]
    return list(dict.fromkeys(refs))


def _data_grid_2d(p: Mapping[str, Any]) -> Data:
    grid, d = p["grid"], p["d"]
    emb = pe.sincos_2d(grid, grid, d)
    unit = emb / np.linalg.norm(emb, axis=1, keepdims=True)
    refs = _grid_refs(grid)
    sims = np.stack([(unit @ unit[r * grid + c]).reshape(grid, grid) for r, c in refs])
    return {"refs": np.array(refs), "similarity": sims}


def _data_attention_permutation(p: Mapping[str, Any]) -> Data:
    n, d = p["n"], p["d"]
    # Token vectors: a fixed normal draw, on the same scale as the encoding.
    x = pe.learned(n, d, seed=1, std=1.0)
    table = pe.sinusoidal(n, d)
    rev = np.arange(n)[::-1]  # its own inverse: out[rev] puts reversed rows back in order
    outputs = {
        "no_pe": pe.self_attention(x),
        "no_pe_reversed": pe.self_attention(x[rev])[rev],
        "with_pe": pe.self_attention(x + table),
        "with_pe_reversed": pe.self_attention(x[rev] + table)[rev],
    }
    return {
        "tokens": x,
        **outputs,
        "gap_no_pe": float(np.max(np.abs(outputs["no_pe"] - outputs["no_pe_reversed"]))),
        "gap_with_pe": float(np.max(np.abs(outputs["with_pe"] - outputs["with_pe_reversed"]))),
    }


def _data_learned_table(p: Mapping[str, Any]) -> Data:
    return {"learned": pe.learned(p["n"], p["d"]), "sinusoidal": pe.sinusoidal(p["n"], p["d"])}


_DATA: dict[str, Callable[[Mapping[str, Any]], Data]] = {
    "pe_heatmap": _data_pe_heatmap,
    "sine_waves": _data_sine_waves,
    "dot_vs_distance": _data_dot_vs_distance,
    "fingerprint": _data_fingerprint,
    "rope_rotation": _data_rope_rotation,
    "rope_frequencies_scaled": _data_rope_frequencies_scaled,
    "alibi_matrices": _data_alibi_matrices,
    "t5_buckets": _data_t5_buckets,
    "shaw_clipping": _data_shaw_clipping,
    "grid_2d": _data_grid_2d,
    "attention_permutation": _data_attention_permutation,
    "learned_table": _data_learned_table,
}


def _compute(name: str, given: Mapping[str, object]) -> tuple[dict[str, Any], Data]:
    params = _params(name, given)
    try:
        return params, _DATA[name](params)
    except FigureError:
        raise
    except ValueError as exc:  # the core names its own argument; add the figure
        raise FigureError(f"figure {name!r}: {exc}") from exc


def figure_data(name: str, **params: object) -> Data:
    """The arrays figure ``name`` draws for ``params`` (defaults filled in), from the core.

    Raises:
        FigureError: unknown figure or bad parameter.
    """
    return _compute(name, params)[1]


# --------------------------------------------------------------------------------------------
# Drawing helpers.


def _style(salt: str | None = None) -> AbstractContextManager[None]:
    """konum's matplotlib settings (plus the SVG id salt when saving)."""
    rc: dict[str, Any] = {**_RC, "svg.hashsalt": salt} if salt else dict(_RC)
    return cast(AbstractContextManager[None], matplotlib.rc_context(cast(Any, rc)))


def _new_figure(
    width: float, height: float, layout: Literal["constrained", "compressed"] = "constrained"
) -> Figure:
    return Figure(figsize=(width, height), layout=layout)


def _cmap(name: str) -> Colormap:
    # Masked cells are transparent: the page shows through.
    return matplotlib.colormaps[name].with_extremes(bad=(0.0, 0.0, 0.0, 0.0))


def _heat(
    ax: Axes, values: FloatArray, cmap: Colormap | str, vmin: float, vmax: float, **kw: Any
) -> AxesImage:
    cm = _cmap(cmap) if isinstance(cmap, str) else cmap
    return ax.imshow(
        values, cmap=cm, vmin=vmin, vmax=vmax, interpolation="none", aspect="auto", **kw
    )


def _annotate(ax: Axes, image: AxesImage, values: NDArray[Any], fmt: str, size: float) -> None:
    """Write each cell's value in black or white, whichever contrasts with the cell."""
    norm = image.norm
    cmap = image.get_cmap()
    for (i, j), value in np.ndenumerate(values):
        if not np.isfinite(value):
            continue
        r, g, b, _ = cmap(norm(value))
        luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b
        colour = "#000000" if luminance > 0.45 else "#ffffff"
        text = fmt.format(value).replace("-", "−")
        if text in ("−0.00", "−0.0"):
            text = text[1:]
        ax.text(j, i, text, ha="center", va="center", fontsize=size, color=colour)


def _int_ticks(ax: Axes, nbins: int = 5) -> None:
    """At most ``nbins`` integer ticks per axis: enough to read a cell, few enough to fit."""
    ax.xaxis.set_major_locator(MaxNLocator(nbins, integer=True))
    ax.yaxis.set_major_locator(MaxNLocator(nbins, integer=True))


def _fraction(slope: float) -> str:
    inverse = 1.0 / slope
    if abs(inverse - round(inverse)) < 1e-9:
        return f"1/{round(inverse)}"
    return f"{slope:.3g}"


def _short_count(value: float, _position: object = None) -> str:
    """A log-axis tick as plain text (1, 100, 10k, 1M): no small superscript exponents."""
    for scale, suffix in ((1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")):
        if value >= scale:
            return f"{value / scale:g}{suffix}"
    return f"{value:g}"


def _below(fig: Figure, image: AxesImage, axes: list[Axes], label: str) -> None:
    """A horizontal colour bar under ``axes``: costs height, not the width a phone lacks."""
    bar = fig.colorbar(
        image, ax=axes, orientation="horizontal", label=label, shrink=0.75, aspect=30, pad=0.03
    )
    bar.ax.xaxis.set_major_locator(MaxNLocator(5))


# --------------------------------------------------------------------------------------------
# Figures. All are WIDTH inches wide (shaw_clipping, a square grid, a little narrower); legends
# and colour bars go below the axes rather than beside them, and panels stack vertically when
# side by side they would leave text too small on a phone.


def pe_heatmap(**params: object) -> Figure:
    """The sinusoidal table ``pe.sinusoidal(n, d, base=base)`` as a heatmap.

    Rows are positions ``p`` (0 at the top), columns dimensions ``j`` (interleaved layout:
    sines in even columns); colour from -1 (blue) to 1 (red).

    Params: ``n=64``, ``d=64``, ``base=10000``.
    """
    _, data = _compute("pe_heatmap", params)
    with _style():
        fig = _new_figure(WIDTH, 3.9)
        ax = fig.add_subplot()
        image = _heat(ax, data["pe"], "coolwarm", -1.0, 1.0)
        ax.set_xlabel("dimension j")
        ax.set_ylabel("position p")
        _int_ticks(ax)
        bar = fig.colorbar(image, ax=ax, label="PE[p, j]", shrink=0.9, pad=0.03, aspect=25)
        bar.set_ticks([-1.0, -0.5, 0.0, 0.5, 1.0])
    return fig


def sine_waves(**params: object) -> Figure:
    """Columns ``PE[:, j]`` of ``pe.sinusoidal(n, d)`` against position, one panel per column.

    Dots are the table's entries at integer positions; the line joins the same formula at
    fractional positions. Each panel names the column, its function, pair and wavelength.

    Params: ``d=64``, ``columns=(0, 2, 8, 16)``, ``n=100``.
    """
    p, data = _compute("sine_waves", params)
    columns = [int(j) for j in data["columns"]]
    with _style():
        fig = _new_figure(WIDTH, 0.75 + 1.15 * len(columns))
        axes = fig.subplots(len(columns), 1, sharex=True, squeeze=False)[:, 0]
        dots = p["n"] <= 120
        for i, (ax, j) in enumerate(zip(axes, columns, strict=True)):
            colour = PALETTE[i % len(PALETTE)]
            ax.plot(data["fine_positions"], data["fine_values"][:, i], color=colour, lw=1.3)
            if dots:
                ax.plot(data["positions"], data["values"][:, i], ".", color=colour, ms=3.5)
            ax.set_ylim(-1.25, 1.25)
            ax.set_yticks([-1, 0, 1])
            ax.grid(axis="y")
            kind = "sin" if j % 2 == 0 else "cos"
            ax.set_title(
                f"j = {j} ({kind}, pair {j // 2}): wavelength {data['wavelengths'][i]:,.1f}",
                loc="left",
                fontsize=SMALL,
                pad=3,
            )
        fig.supylabel("PE[p, j]", fontsize=FONT)
        axes[-1].set_xlabel("position p")
        axes[-1].xaxis.set_major_locator(MaxNLocator(6, integer=True))
        axes[-1].set_xlim(-0.5, p["n"] - 0.5)
    return fig


def dot_vs_distance(**params: object) -> Figure:
    """``PE[anchor] · PE[p]`` against ``p``: a peak of ``d/2`` at the anchor, symmetric.

    The top axis shows the offset ``p - anchor``; the value depends on it alone.

    Params: ``d=64``, ``n=100``, ``anchor=50``.
    """
    p, data = _compute("dot_vs_distance", params)
    anchor, d = p["anchor"], p["d"]
    with _style():
        fig = _new_figure(WIDTH, 3.5)
        ax = fig.add_subplot()
        ax.axvline(anchor, color=INK, alpha=0.35, lw=0.8, ls="--")
        marker = "." if p["n"] <= 120 else None
        ax.plot(data["positions"], data["dots"], marker=marker, ms=3.5, color=PALETTE[0])
        right = anchor < 0.6 * (p["n"] - 1)  # the label goes where there is room
        ax.annotate(
            f"d/2 = {data['dots'][anchor]:g}",
            xy=(anchor, data["dots"][anchor]),
            xytext=(8 if right else -8, 0),
            textcoords="offset points",
            va="center",
            ha="left" if right else "right",
            fontsize=SMALL,
        )
        ax.set_xlabel("position p")
        ax.set_ylabel(f"PE[{anchor}] · PE[p]")
        ax.grid(axis="y")
        ax.set_xlim(-0.5, p["n"] - 0.5)
        ax.xaxis.set_major_locator(MaxNLocator(6, integer=True))
        ax.yaxis.set_major_locator(MaxNLocator(5))
        top = ax.secondary_xaxis("top", functions=(lambda x: x - anchor, lambda x: x + anchor))
        top.xaxis.set_major_locator(MaxNLocator(6, integer=True))
        top.set_xlabel(f"offset p − {anchor}")
        ax.set_ylim(top=d / 2 * 1.08)
    return fig


def fingerprint(**params: object) -> Figure:
    """The first ``n`` rows of ``pe.sinusoidal(n, d)`` as strips: every position differs.

    Each strip is one position's vector, cells coloured by value (and labelled with it when
    ``d <= 8``, the most that fit legibly on a phone).

    Params: ``n=8``, ``d=16``.
    """
    p, data = _compute("fingerprint", params)
    n, d = p["n"], p["d"]
    table = data["pe"]
    with _style():
        fig = _new_figure(WIDTH, 1.25 + 0.3 * n)
        ax = fig.add_subplot()
        cmap = _cmap("coolwarm")
        image = None
        for row in range(n):
            image = ax.imshow(
                table[row : row + 1],
                cmap=cmap,
                vmin=-1.0,
                vmax=1.0,
                interpolation="none",
                aspect="auto",
                extent=(-0.5, d - 0.5, row + 0.4, row - 0.4),
            )
            if d <= 8:
                _annotate_row(ax, image, table[row], row)
        ax.set_xlim(-0.5, d - 0.5)
        ax.set_ylim(n - 0.5, -0.5)
        ax.set_yticks(range(n))
        if d <= 16:
            ax.set_xticks(range(0, d, 1 if d <= 8 else 2))
        else:
            ax.xaxis.set_major_locator(MaxNLocator(8, integer=True))
        ax.tick_params(axis="y", length=0)
        for side in ("left", "bottom"):
            ax.spines[side].set_visible(False)
        ax.set_xlabel("dimension j")
        ax.set_ylabel("position p")
        assert image is not None
        _below(fig, image, [ax], "PE[p, j]")
    return fig


def _annotate_row(ax: Axes, image: AxesImage, values: FloatArray, row: int) -> None:
    norm, cmap = image.norm, image.get_cmap()
    for j, value in enumerate(values):
        r, g, b, _ = cmap(norm(value))
        colour = "#000000" if 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.45 else "#ffffff"
        text = f"{value:.2f}".replace("-", "−")
        ax.text(
            j,
            row,
            "0.00" if text == "−0.00" else text,
            ha="center",
            va="center",
            fontsize=SMALL,
            color=colour,
        )


def rope_rotation(**params: object) -> Figure:
    """RoPE on one pair: the unit vector ``(1, 0)`` in pair ``k`` rotated by ``m·θ_k``.

    Points come from ``pe.rope`` (interleaved layout, so pair ``k`` is dimensions ``2k`` and
    ``2k + 1``); ``θ_k = pe.rope_frequencies(d)[k]``. One arrow per position ``m``.

    Params: ``m_values=(0, 1, 2, 3)``, ``k=0``, ``d=8``.
    """
    p, data = _compute("rope_rotation", params)
    k, theta = p["k"], data["theta"]
    rows = math.ceil(len(data["m_values"]) / 2)
    with _style():
        fig = _new_figure(WIDTH, 4.4 + 0.25 * rows)
        ax = fig.add_subplot()
        circle = np.linspace(0, 2 * np.pi, 181)
        ax.plot(np.cos(circle), np.sin(circle), color=INK, alpha=0.3, lw=0.8, ls="--")
        ax.axhline(0, color=INK, alpha=0.2, lw=0.6)
        ax.axvline(0, color=INK, alpha=0.2, lw=0.6)
        handles: list[Line2D] = []
        labels: list[str] = []
        for i, (m, (x, y), angle) in enumerate(
            zip(data["m_values"], data["points"], data["angles"], strict=True)
        ):
            colour = PALETTE[i % len(PALETTE)]
            ax.annotate(
                "",
                xy=(x, y),
                xytext=(0, 0),
                arrowprops={
                    "arrowstyle": "-|>",
                    "color": colour,
                    "lw": 1.8,
                    "shrinkA": 0,
                    "shrinkB": 0,
                },
            )
            handles.append(Line2D([], [], color=colour, lw=1.8))
            labels.append(f"m = {m:g}: {angle:.2f} rad ({math.degrees(angle):.0f}°)")
        if theta > 0.05:
            ax.add_patch(
                Arc((0, 0), 0.5, 0.5, theta1=0, theta2=math.degrees(theta), color=INK, lw=0.9)
            )
            half = theta / 2
            ax.text(
                0.36 * math.cos(half),
                0.36 * math.sin(half),
                "θ",
                fontsize=FONT,
                ha="center",
                va="center",
            )
        ax.set_aspect("equal")
        ax.set_xlim(-1.25, 1.25)
        ax.set_ylim(-1.25, 1.25)
        ax.set_xticks([-1, 0, 1])
        ax.set_yticks([-1, 0, 1])
        ax.set_xlabel(f"1st coordinate of pair {k}")
        ax.set_ylabel(f"2nd coordinate of pair {k}")
        ax.set_title(f"d = {p['d']}, pair k = {k}: θ = {theta:.4g} rad per step", fontsize=SMALL)
        fig.legend(
            handles,
            labels,
            loc="outside lower center",
            ncols=2,
            handlelength=1.2,
            columnspacing=1.2,
            title="rotation by m·θ",
        )
    return fig


def rope_frequencies_scaled(**params: object) -> Figure:
    """Wavelength of each RoPE pair, unscaled and under linear, dynamic NTK and Llama 3 scaling.

    Wavelength ``2π / inv_freq[k]`` from ``pe.rope_frequencies`` on a log scale; the dynamic
    curve is evaluated at ``seq_len = factor · original_max``; Llama 3 uses low/high frequency
    factors 1 and 4. A horizontal line marks the original context. The legend sits below the
    axes, where it hides no curve.

    Params: ``d=128``, ``base=10000``, ``factor=8``, ``original_max=8192``.
    """
    p, data = _compute("rope_frequencies_scaled", params)
    styles = ["-", "--", "-.", ":"]
    with _style():
        fig = _new_figure(WIDTH, 4.6)
        ax = fig.add_subplot()
        for i, (label, wavelengths) in enumerate(data["wavelengths"].items()):
            ax.plot(
                data["pairs"], wavelengths, ls=styles[i], lw=2.0 if i == 0 else 1.6, label=label
            )
        ax.set_yscale("log")
        ax.yaxis.set_major_locator(LogLocator(base=10, numticks=6))
        ax.yaxis.set_major_formatter(FuncFormatter(_short_count))
        ax.axhline(p["original_max"], color=INK, alpha=0.5, lw=0.8)
        ax.annotate(
            f"original context {p['original_max']:,}",
            xy=(p["d"] // 2 - 1, p["original_max"]),
            xytext=(0, -3),
            textcoords="offset points",
            fontsize=SMALL,
            ha="right",
            va="top",
        )
        ax.set_xlabel("pair index k (0 = fastest)")
        ax.set_ylabel("wavelength (positions)")
        ax.grid(axis="y", which="major")
        ax.set_xlim(0, p["d"] // 2 - 1)
        ax.xaxis.set_major_locator(MaxNLocator(6, integer=True))
        fig.legend(loc="outside lower center", ncols=2, handlelength=2.4, columnspacing=1.0)
    return fig


def alibi_matrices(**params: object) -> Figure:
    """ALiBi bias matrices ``pe.alibi_bias(n, num_heads)`` of a few heads, on one colour scale.

    Rows are queries ``i``, columns keys ``j``; masked (future) keys are left blank. A steeper
    slope (head 1) penalises distance more. Panels sit side by side (up to four fit a phone
    with short titles); the shared colour bar is below them.

    Params: ``n=8``, ``heads=(1, 4, 8)``, ``num_heads=8`` (heads are 1-based).
    """
    p, data = _compute("alibi_matrices", params)
    bias = data["bias"]
    finite = bias[np.isfinite(bias)]
    low = float(finite.min()) if finite.min() < 0 else -1.0
    count = len(data["heads"])
    with _style():
        fig = _new_figure(WIDTH, 3.2 if count > 1 else 4.4, layout="compressed")
        axes = fig.subplots(1, count, squeeze=False, sharey=True)[0]
        image = None
        for ax, head, slope, matrix in zip(axes, data["heads"], data["slopes"], bias, strict=True):
            masked = np.ma.masked_invalid(matrix)
            image = _heat(ax, masked, "viridis", low, 0.0)
            image.set_extent((-0.5, p["n"] - 0.5, p["n"] - 0.5, -0.5))
            ax.set_aspect("equal")
            ax.set_title(f"head {head}\nm = {_fraction(float(slope))}", fontsize=SMALL)
            ax.set_xlabel("key j")
            _int_ticks(ax, 4)
        axes[0].set_ylabel("query i")
        assert image is not None
        _below(fig, image, list(axes), "bias −m·(i − j); blank: masked")
    return fig


def t5_buckets(**params: object) -> Figure:
    """T5's bucket against relative position ``key − query``, bidirectional and causal.

    From ``pe.t5_bucket``; dashed lines mark ``±max_distance`` beyond which buckets stop
    changing. The legend sits below the axes.

    Params: ``num_buckets=32``, ``max_distance=128``, ``span=160``.
    """
    p, data = _compute("t5_buckets", params)
    with _style():
        fig = _new_figure(WIDTH, 3.9)
        ax = fig.add_subplot()
        ax.step(data["relative"], data["bidirectional"], where="mid", label="bidirectional")
        ax.step(
            data["relative"],
            data["causal"],
            where="mid",
            ls="--",
            label="causal (future keys → 0)",
        )
        for x in (-p["max_distance"], p["max_distance"]):
            if x <= p["span"]:
                ax.axvline(x, color=INK, alpha=0.35, lw=0.8, ls=":")
        if p["max_distance"] <= p["span"]:
            ax.annotate(
                "max_distance",
                xy=(p["max_distance"], p["num_buckets"] * 0.3),
                xytext=(-3, 0),
                textcoords="offset points",
                ha="right",
                va="center",
                fontsize=SMALL,
            )
        ax.set_xlabel("relative position (key − query)")
        ax.set_ylabel("bucket")
        ax.xaxis.set_major_locator(MaxNLocator(6, integer=True, symmetric=True))
        ax.yaxis.set_major_locator(MaxNLocator(5, integer=True))
        ax.set_ylim(-0.8, p["num_buckets"] - 0.2)
        ax.grid(axis="y")
        fig.legend(loc="outside lower center", ncols=2, handlelength=2.0, columnspacing=1.0)
    return fig


def shaw_clipping(**params: object) -> Figure:
    """Shaw et al.'s clipped relative index ``pe.relative_index(n, n, max_distance)``.

    Cell ``(i, j)`` is ``clip(j − i, −k, k) + k``: the row of the relative-embedding table
    that query ``i`` uses for key ``j``.

    Params: ``n=8``, ``max_distance=2``.
    """
    p, data = _compute("shaw_clipping", params)
    k = p["max_distance"]
    index = data["index"]
    with _style():
        fig = _new_figure(4.2, 4.3)
        ax = fig.add_subplot()
        cmap = matplotlib.colormaps["viridis"].resampled(2 * k + 1)
        image = _heat(ax, index, cmap, -0.5, 2 * k + 0.5)
        ax.set_aspect("equal")
        _annotate(ax, image, index, "{:d}", SMALL if p["n"] <= 10 else 8)
        ax.set_xlabel("key j")
        ax.set_ylabel("query i")
        ax.set_title(f"index = clip(j − i, −{k}, {k}) + {k}")
        step = 1 if p["n"] <= 10 else 2
        ax.set_xticks(range(0, p["n"], step))
        ax.set_yticks(range(0, p["n"], step))
    return fig


def grid_2d(**params: object) -> Figure:
    """2-D sin-cos (MAE): cosine similarity of every patch's encoding to one reference patch.

    From ``pe.sincos_2d(grid, grid, d)``; one panel per reference patch (outlined): the
    corner, the centre and an off-centre patch. Rows are patch rows, 0 at the top.

    Params: ``grid=8``, ``d=32``.
    """
    p, data = _compute("grid_2d", params)
    sims = data["similarity"]
    grid = p["grid"]
    with _style():
        fig = _new_figure(WIDTH, 3.2, layout="compressed")
        axes = fig.subplots(1, len(sims), squeeze=False, sharey=True)[0]
        image = None
        low = float(sims.min())
        for ax, (r, c), sim in zip(axes, data["refs"], sims, strict=True):
            image = _heat(ax, sim, "viridis", low, 1.0)
            ax.set_aspect("equal")
            ax.add_patch(Rectangle((c - 0.5, r - 0.5), 1, 1, fill=False, ec="#e11d48", lw=1.6))
            ax.set_title(f"patch\nrow {r}, col {c}", fontsize=SMALL)
            ax.set_xlabel("column")
            _int_ticks(ax, 4)
            ax.set_xlim(-0.5, grid - 0.5)
            ax.set_ylim(grid - 0.5, -0.5)
        axes[0].set_ylabel("row")
        assert image is not None
        _below(fig, image, list(axes), "cosine similarity to the outlined patch")
    return fig


def attention_permutation(**params: object) -> Figure:
    """Self-attention outputs before and after reversing the tokens, without and with PE.

    Token vectors are ``pe.learned(n, d, seed=1, std=1)``. Panels, top to bottom:
    ``pe.self_attention(x)``, the same for the reversed sequence with rows put back in the
    original token order, then both again for ``x + PE``. Without PE the first two are
    identical (permutation equivariance); with PE the last two differ. Stacked rather than
    side by side so that the cell values stay legible on a phone.

    Params: ``n=4``, ``d=6``.
    """
    p, data = _compute("attention_permutation", params)
    n = p["n"]
    panels = [
        ("no_pe", "no PE: original order"),
        ("no_pe_reversed", f"no PE: reversed, rows put back (max diff {data['gap_no_pe']:.3f})"),
        ("with_pe", "with PE: original order"),
        (
            "with_pe_reversed",
            f"with PE: reversed, rows put back (max diff {data['gap_with_pe']:.3f})",
        ),
    ]
    vmax = max(float(np.max(np.abs(data[key]))) for key, _ in panels)
    with _style():
        fig = _new_figure(WIDTH, 1.0 + 4 * (0.35 + 0.24 * n))
        axes = fig.subplots(4, 1, sharex=True)
        for ax, (key, title) in zip(axes, panels, strict=True):
            image = _heat(ax, data[key], "coolwarm", -vmax, vmax)
            _annotate(ax, image, data[key], "{:.2f}", SMALL if p["d"] <= 6 else 9)
            ax.set_title(title, fontsize=SMALL, loc="left", pad=3)
            ax.set_yticks(range(n))
            ax.set_xticks(range(p["d"]))
            ax.tick_params(length=0)
        fig.supylabel("token", fontsize=FONT)
        axes[-1].set_xlabel("output dimension")
    return fig


def learned_table(**params: object) -> Figure:
    """A learned table at initialisation, ``pe.learned(n, d)``, next to ``pe.sinusoidal(n, d)``.

    The learned table is noise (normal, std 0.02) until training shapes it; the sinusoidal one
    has structure from the start. Each panel has its own colour scale, drawn below it.

    Params: ``n=16``, ``d=32``.
    """
    _, data = _compute("learned_table", params)
    spread = 3 * 0.02
    with _style():
        fig = _new_figure(WIDTH, 3.6)
        axes = fig.subplots(1, 2, sharey=True)
        left = _heat(axes[0], data["learned"], "coolwarm", -spread, spread)
        right = _heat(axes[1], data["sinusoidal"], "coolwarm", -1.0, 1.0)
        axes[0].set_title("learned, at init\n(normal, std 0.02)", fontsize=SMALL)
        axes[1].set_title("sinusoidal\n(fixed formula)", fontsize=SMALL)
        for ax, image, top in ((axes[0], left, 0.05), (axes[1], right, 1.0)):
            ax.set_xlabel("dimension j")
            _int_ticks(ax, 4)
            bar = fig.colorbar(
                image, ax=ax, orientation="horizontal", shrink=0.9, aspect=15, pad=0.03
            )
            bar.set_ticks([-top, 0.0, top])
        axes[0].set_ylabel("position p")
    return fig


FIGURES: dict[str, Callable[..., Figure]] = {
    "pe_heatmap": pe_heatmap,
    "sine_waves": sine_waves,
    "dot_vs_distance": dot_vs_distance,
    "fingerprint": fingerprint,
    "rope_rotation": rope_rotation,
    "rope_frequencies_scaled": rope_frequencies_scaled,
    "alibi_matrices": alibi_matrices,
    "t5_buckets": t5_buckets,
    "shaw_clipping": shaw_clipping,
    "grid_2d": grid_2d,
    "attention_permutation": attention_permutation,
    "learned_table": learned_table,
}


# --------------------------------------------------------------------------------------------
# SVG output.

_XML_HEAD = re.compile(r"\A.*?(?=<svg\b)", re.S)
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_METADATA = re.compile(r"\s*<metadata>.*?</metadata>", re.S)
_STYLE = re.compile(r"\s*<style[^>]*>.*?</style>", re.S)
_EMPTY_DEFS = re.compile(r"<defs>\s*</defs>")
_FONT_FAMILY = re.compile(r"font-family: [^;\"]*(; )?")
_NO_ROTATE = re.compile(r' transform="rotate\(-0 [^"]*\)"')
_GEOMETRY = re.compile(r'( (?:d|x|y|width|height|transform)=")([^"]*)"')
_LONG_NUMBER = re.compile(r"-?\d+\.\d{3,}")
_REFERENCE = re.compile(r'(?:url\(#|href="#)([^")]+)')
_ID = re.compile(r' id="([^"]+)"')
_BLANK = re.compile(r">\s+<")
_G_TAG = re.compile(r"<g\b[^>]*?/>|<g\b[^>]*>|</g>")
_USE_RUN = re.compile(r'(?:<use [^>]*? style="([^"]*)"/>)(?:<use [^>]*? style="\1"/>)+')
_USE_STYLE = re.compile(r' style="[^"]*"')
_ROOT = re.compile(r"<svg\b[^>]*>")
_VIEWBOX = re.compile(r'viewBox="([^"]+)"')


def _short_number(match: re.Match[str]) -> str:
    text = f"{float(match.group(0)):.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _round_geometry(match: re.Match[str]) -> str:
    """Coordinates to 1/100 pt (about 1/75 px): half the bytes, no visible change."""
    value = " ".join(match.group(2).split())
    return f'{match.group(1)}{_LONG_NUMBER.sub(_short_number, value)}"'


def _flatten_groups(svg: str) -> str:
    """Drop attribute-less ``<g>`` wrappers (matplotlib nests them deeply) with their ends."""
    out: list[str] = []
    bare: list[bool] = []
    last = 0
    for tag in _G_TAG.finditer(svg):
        out.append(svg[last : tag.start()])
        last = tag.end()
        text = tag.group(0)
        if text.endswith("/>"):
            if text != "<g/>":
                out.append(text)
        elif text == "</g>":
            if not bare.pop():
                out.append(text)
        else:
            bare.append(text == "<g>")
            if text != "<g>":
                out.append(text)
    out.append(svg[last:])
    return "".join(out)


def _hoist_use_style(match: re.Match[str]) -> str:
    """Markers and ticks: a run of ``<use>`` with one style becomes a group with that style."""
    return f'<g style="{match.group(1)}">{_USE_STYLE.sub("", match.group(0))}</g>'


def _freeze(value: object) -> object:
    """A hashable copy of a parameter value (lists become tuples)."""
    if isinstance(value, (list, tuple)):
        return tuple(_freeze(v) for v in value)
    if isinstance(value, np.ndarray):
        return _freeze(value.tolist())
    if isinstance(value, np.generic):
        return value.item()
    try:
        hash(value)
    except TypeError:
        raise FigureError(f"parameter value {value!r} is not a number, string or list") from None
    return value


def _svg_text(fig: Figure, salt: str) -> str:
    buffer = io.StringIO()
    with _style(salt):
        fig.savefig(buffer, format="svg", metadata={"Date": None}, transparent=True)
    return buffer.getvalue()


def _clean_svg(svg: str, alt: str) -> str:
    """Make matplotlib's SVG inline-ready: no prolog, no stray ids, currentColor, scalable."""
    svg = _XML_HEAD.sub("", svg, count=1)
    svg = _COMMENT.sub("", svg)
    svg = _METADATA.sub("", svg)
    svg = _STYLE.sub("", svg)  # its global "*{...}" rule would leak into the page
    svg = _FONT_FAMILY.sub("", svg)  # inherit the page's font
    svg = _NO_ROTATE.sub("", svg)
    svg = _GEOMETRY.sub(_round_geometry, svg)
    svg = svg.replace(INK, "currentColor")
    referenced = set(_REFERENCE.findall(svg))
    svg = _ID.sub(lambda m: m.group(0) if m.group(1) in referenced else "", svg)
    svg = _BLANK.sub("><", svg)
    svg = _EMPTY_DEFS.sub("", svg)
    svg = _flatten_groups(svg)
    svg = _USE_RUN.sub(_hoist_use_style, svg)
    root = _ROOT.search(svg)
    viewbox = _VIEWBOX.search(root.group(0)) if root else None
    if root is None or viewbox is None:
        raise RuntimeError("matplotlib's SVG output has no <svg viewBox=...> root")
    width = float(viewbox.group(1).split()[2])
    label = html.escape(alt, quote=True)
    new_root = (
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        f'viewBox="{viewbox.group(1)}" role="img" aria-label="{label}" '
        f'style="width:{width * 4 / 3:.0f}px;max-width:100%;height:auto;'
        'stroke-linejoin:round;stroke-linecap:butt">'
        f"<title>{html.escape(alt, quote=False)}</title>"
    )
    return svg[: root.start()] + new_root + svg[root.end() :].strip()


@functools.lru_cache(maxsize=128)
def _render_cached(
    name: str, alt: str, caption: str | None, frozen: tuple[tuple[str, object], ...]
) -> str:
    params = dict(frozen)
    salt = "konum:" + hashlib.blake2b(repr((name, frozen)).encode(), digest_size=6).hexdigest()
    fig = FIGURES[name](**params)
    svg = _clean_svg(_svg_text(fig, salt), alt)
    caption_html = (
        f"<figcaption>{html.escape(caption, quote=False)}</figcaption>" if caption else ""
    )
    return f'<figure class="konum-figure">{svg}{caption_html}</figure>'


def render_svg(name: str, alt: str, caption: str | None = None, **params: object) -> str:
    """Render figure ``name`` as ``<figure class="konum-figure"><svg role="img" ...>``.

    The SVG has no XML prolog, a ``<title>`` and ``aria-label`` from ``alt``, a ``viewBox``,
    no width or height attributes but a CSS width of its natural size (1 pt = 4/3 px) capped
    at the column width (``max-width: 100%``), so it shrinks on a phone; text and axes in
    ``currentColor`` and a transparent background. ``caption`` (plain text, escaped) becomes
    the ``<figcaption>``. Results are cached: the same call returns the same string.

    Args:
        name: A key of :data:`FIGURES`.
        alt: Text alternative for screen readers: what the figure shows. Required.
        caption: Optional visible caption, plain text.
        **params: The figure's parameters (see :func:`figure_params`); lists may be given for
            tuple parameters.

    Returns:
        One line of HTML.

    Raises:
        FigureError: unknown figure, empty ``alt`` or a bad parameter.
    """
    _check_name(name)
    if not isinstance(alt, str) or not alt.strip():
        raise FigureError(f"figure {name!r}: alt text is required (describe what it shows)")
    if caption is not None and not isinstance(caption, str):
        raise FigureError(f"figure {name!r}: caption must be text, got {caption!r}")
    frozen = tuple(sorted((key, _freeze(value)) for key, value in params.items()))
    _params(name, dict(frozen))  # fail early, before the cache, with a clear message
    return _render_cached(name, alt.strip(), caption, frozen)
