"""The figures of the lessons, one class each: its parameters, its data and its drawing.

Every number drawn comes from :mod:`konum_pe.pe`; :meth:`LessonFigure.data` returns exactly
the arrays a figure draws, so tests can compare them with the core. All figures are
:data:`~konum.figures.style.WIDTH` inches wide (shaw_clipping, a square grid, a little
narrower). Heatmaps are embedded as unsampled PNG (``interpolation="none"``) and text stays
text (``svg.fonttype: none``), so each SVG stays well under 60 KB. A figure's words are
``label(key, **fields)`` texts of the ``figures`` catalogue section, in the figure's language.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import ClassVar

import matplotlib
import numpy as np
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Arc, Rectangle
from matplotlib.ticker import FuncFormatter, LogLocator, MaxNLocator

from konum.computed import param, specs
from konum.figures import Data, Label, LessonFigure, Params
from konum.figures.style import (
    FONT,
    INK,
    PALETTE,
    SMALL,
    WIDTH,
    annotate,
    below,
    heat,
    int_ticks,
    new_figure,
    style,
)
from konum.model import Choices, Range
from konum_pe import pe
from konum_pe.generators.common import base_param
from konum_pe.text import MESSAGES


class CourseFigure(LessonFigure):
    """A figure of the course: its words from the course's messages."""

    messages = (MESSAGES,)


class PEHeatmap(CourseFigure):
    """The sinusoidal table ``pe.sinusoidal(n, d, base=base)`` as a heatmap.

    Rows are positions ``p`` (0 at the top), columns dimensions ``j`` (interleaved layout:
    sines in even columns); colour from -1 (blue) to 1 (red).
    """

    name = "pe_heatmap"
    params = specs(
        param("n", "int", 64, Range(1, 128), "number of positions (rows)"),
        param("d", "int", 64, Range(1, 128), "model dimension (columns)"),
        base_param("the 10000 of the formula"),
    )

    def data(self, p: Params) -> Data:
        return {"pe": pe.sinusoidal(p["n"], p["d"], base=p["base"])}

    def draw(self, p: Params, data: Data, label: Label) -> Figure:
        with style():
            fig = new_figure(WIDTH, 3.9)
            ax = fig.add_subplot()
            image = heat(ax, data["pe"], "coolwarm", -1.0, 1.0)
            ax.set_xlabel(label("dimension_j"))
            ax.set_ylabel(label("position_p"))
            int_ticks(ax)
            bar = fig.colorbar(image, ax=ax, label="PE[p, j]", shrink=0.9, pad=0.03, aspect=25)
            bar.set_ticks([-1.0, -0.5, 0.0, 0.5, 1.0])
        return fig


class SineWaves(CourseFigure):
    """Columns ``PE[:, j]`` of ``pe.sinusoidal(n, d)`` against position, one panel per column.

    Dots are the table's entries at integer positions; the line joins the same formula at
    fractional positions. Each panel names the column, its function, pair and wavelength.
    """

    name = "sine_waves"
    params = specs(
        param("d", "int", 64, Range(1, 1024), "model dimension"),
        param(
            "columns",
            "int",
            Choices((0, 2, 8, 16)),
            Range(0, 1023),
            "columns j to plot, one panel each",
        ),
        param("n", "int", 100, Range(2, 500), "number of positions"),
    )
    lists: ClassVar[Mapping[str, int]] = {"columns": 6}

    def data(self, p: Params) -> Data:
        n, d, columns = p["n"], p["d"], list(p["columns"])
        bad = [j for j in columns if j >= d]
        if bad:
            raise self.bad("columns", f"expected columns below d = {d}, found {bad}")
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

    def draw(self, p: Params, data: Data, label: Label) -> Figure:
        columns = [int(j) for j in data["columns"]]
        wavelengths = [float(w) for w in data["wavelengths"]]
        with style():
            fig = new_figure(WIDTH, 0.75 + 1.15 * len(columns))
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
                    label("sine_panel", j=j, kind=kind, pair=j // 2, wavelength=wavelengths[i]),
                    loc="left",
                    fontsize=SMALL,
                )
            fig.supylabel("PE[p, j]", fontsize=FONT)
            axes[-1].set_xlabel(label("position_p"))
            axes[-1].xaxis.set_major_locator(MaxNLocator(6, integer=True))
            axes[-1].set_xlim(-0.5, p["n"] - 0.5)
        return fig


class DotVsDistance(CourseFigure):
    """``PE[anchor] · PE[p]`` against ``p``: a peak of ``d/2`` at the anchor, symmetric.

    The top axis shows the offset ``p - anchor``; the value depends on it alone.
    """

    name = "dot_vs_distance"
    params = specs(
        param("d", "int", 64, Range(1, 1024), "model dimension"),
        param("n", "int", 100, Range(2, 500), "number of positions"),
        param("anchor", "int", 50, Range(0, 499), "the fixed position (must be < n)"),
    )

    def data(self, p: Params) -> Data:
        n, d, anchor = p["n"], p["d"], p["anchor"]
        if anchor >= n:
            raise self.bad("anchor", f"expected a position below n = {n}, found {anchor}")
        table = pe.sinusoidal(n, d)
        return {"positions": np.arange(n), "dots": table @ table[anchor]}

    def draw(self, p: Params, data: Data, label: Label) -> Figure:
        anchor, d = p["anchor"], p["d"]
        with style():
            fig = new_figure(WIDTH, 3.5)
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
            ax.set_xlabel(label("position_p"))
            ax.set_ylabel(f"PE[{anchor}] · PE[p]")
            ax.grid(axis="y")
            ax.set_xlim(-0.5, p["n"] - 0.5)
            ax.xaxis.set_major_locator(MaxNLocator(6, integer=True))
            ax.yaxis.set_major_locator(MaxNLocator(5))
            top = ax.secondary_xaxis("top", functions=(lambda x: x - anchor, lambda x: x + anchor))
            top.xaxis.set_major_locator(MaxNLocator(6, integer=True))
            top.set_xlabel(label("offset", anchor=anchor))
            ax.set_ylim(top=d / 2 * 1.08)
        return fig


class Fingerprint(CourseFigure):
    """The first ``n`` rows of ``pe.sinusoidal(n, d)`` as strips: every position differs.

    Each strip is one position's vector, cells coloured by value (and labelled with it when
    ``d <= 8``, the most that fit legibly on a phone).
    """

    name = "fingerprint"
    params = specs(
        param("n", "int", 8, Range(1, 16), "number of positions (strips)"),
        param("d", "int", 16, Range(1, 64), "model dimension (cells per strip)"),
    )

    def data(self, p: Params) -> Data:
        return {"pe": pe.sinusoidal(p["n"], p["d"])}

    def draw(self, p: Params, data: Data, label: Label) -> Figure:
        n, d = p["n"], p["d"]
        table = data["pe"]
        with style():
            fig = new_figure(WIDTH, 1.25 + 0.3 * n)
            ax = fig.add_subplot()
            image = None
            for row in range(n):
                extent = (-0.5, d - 0.5, row + 0.4, row - 0.4)
                image = heat(ax, table[row : row + 1], "coolwarm", -1.0, 1.0, extent=extent)
                if d <= 8:
                    annotate(ax, image, table[row : row + 1], "{:.2f}", SMALL, top=row)
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
            ax.set_xlabel(label("dimension_j"))
            ax.set_ylabel(label("position_p"))
            assert image is not None
            below(fig, image, [ax], "PE[p, j]")
        return fig


class RopeRotation(CourseFigure):
    """RoPE on one pair: the unit vector ``(1, 0)`` in pair ``k`` rotated by ``m·θ_k``.

    Points come from ``pe.rope`` (interleaved layout, so pair ``k`` is dimensions ``2k`` and
    ``2k + 1``); ``θ_k = pe.rope_frequencies(d)[k]``. One arrow per position ``m``.
    """

    name = "rope_rotation"
    params = specs(
        param(
            "m_values", "int", Choices((0, 1, 2, 3)), Range(-1000, 1000), "positions m to rotate by"
        ),
        param("k", "int", 0, Range(0, 511), "pair index (must be < d/2)"),
        param("d", "int", 8, Range(2, 1024, 2), "head dimension"),
    )
    lists: ClassVar[Mapping[str, int]] = {"m_values": 6}

    def data(self, p: Params) -> Data:
        m_values, k, d = np.array(p["m_values"], dtype=np.float64), p["k"], p["d"]
        if k >= d // 2:
            raise self.bad("k", f"expected a pair below d/2 = {d // 2}, found {k}")
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

    def draw(self, p: Params, data: Data, label: Label) -> Figure:
        k, theta = p["k"], data["theta"]
        rows = math.ceil(len(data["m_values"]) / 2)
        with style():
            fig = new_figure(WIDTH, 4.4 + 0.25 * rows)
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
            ax.set_xlabel(label("pair_first", k=k))
            ax.set_ylabel(label("pair_second", k=k))
            ax.set_title(label("rotation_title", d=p["d"], k=k, theta=theta), fontsize=SMALL)
            fig.legend(
                handles,
                labels,
                loc="outside lower center",
                ncols=2,
                handlelength=1.2,
                columnspacing=1.2,
                title=label("rotation_legend"),
            )
        return fig


def _rope_scalings(p: Params) -> dict[str, tuple[dict[str, object], dict[str, object] | None]]:
    """The scalings drawn, by kind: the fields of its label (``figures.scaling_<kind>``) and
    its ``scaling`` argument of :func:`konum_pe.pe.rope_frequencies`."""
    factor, original = p["factor"], p["original_max"]
    seq_len = round(factor * original)
    low, high = 1.0, 4.0
    return {
        "none": ({}, None),
        "linear": ({"factor": factor}, {"rope_type": "linear", "factor": factor}),
        "dynamic": (
            {"seq_len": seq_len},
            {
                "rope_type": "dynamic",
                "factor": factor,
                "max_position_embeddings": original,
                "seq_len": seq_len,
            },
        ),
        "llama3": (
            {"low": low, "high": high},
            {
                "rope_type": "llama3",
                "factor": factor,
                "low_freq_factor": low,
                "high_freq_factor": high,
                "original_max_position_embeddings": original,
            },
        ),
        "yarn": (
            {"beta_fast": 32, "beta_slow": 1},
            {
                "rope_type": "yarn",
                "factor": factor,
                "original_max_position_embeddings": original,
            },
        ),
    }


def _short_count(value: float, label: Label) -> str:
    """A log-axis tick as plain text, short as the language writes it: 10K and 1M in
    English (CLDR's compact numbers), 10 bin and 1 milyon in Turkish (CLDR's 10 B reads as
    billions to a reader of English ML texts); no superscript exponents."""
    units = label("count_units").split()
    for power, unit in reversed(list(enumerate(units, start=1))):
        if value >= 1000**power:
            return label("count_short", n=value / 1000**power, unit=unit)
    return f"{value:g}"


class RopeFrequenciesScaled(CourseFigure):
    """Wavelength of each RoPE pair, unscaled and under linear, dynamic NTK, Llama 3 and YaRN.

    Wavelength ``2π / inv_freq[k]`` from ``pe.rope_frequencies`` on a log scale, by kind of
    scaling (``none``, ``linear``, ``dynamic``, ``llama3``, ``yarn``, the keys of the data's
    ``wavelengths``); the dynamic curve is evaluated at ``seq_len = factor · original_max``;
    Llama 3 uses low/high frequency factors 1 and 4, YaRN the paper's betas 32 and 1. A
    horizontal line marks the original context. The legend sits below the axes, where it
    hides no curve.
    """

    name = "rope_frequencies_scaled"
    params = specs(
        param("d", "int", 128, Range(4, 1024, 2), "head dimension"),
        base_param("RoPE base (rope_theta)"),
        param("factor", "float", 8.0, Range(1, 1000), "context extension factor"),
        param("original_max", "int", 8192, Range(16, 10_000_000), "original context length"),
    )

    def data(self, p: Params) -> Data:
        d, base = p["d"], p["base"]
        curves = {
            kind: 2 * np.pi / pe.rope_frequencies(d, base=base, scaling=scaling)
            for kind, (_, scaling) in _rope_scalings(p).items()
        }
        return {"pairs": np.arange(d // 2), "wavelengths": curves}

    def draw(self, p: Params, data: Data, label: Label) -> Figure:
        styles = ["-", "--", "-.", ":", (0, (5, 1, 1, 1))]
        with style():
            fig = new_figure(WIDTH, 5.6)
            ax = fig.add_subplot()
            fields = {kind: given for kind, (given, _) in _rope_scalings(p).items()}
            for i, (kind, wavelengths) in enumerate(data["wavelengths"].items()):
                ax.plot(
                    data["pairs"],
                    wavelengths,
                    ls=styles[i],
                    lw=2.0 if i == 0 else 1.6,
                    label=label(f"scaling_{kind}", **fields[kind]),
                )
            ax.set_yscale("log")
            ax.yaxis.set_major_locator(LogLocator(base=10, numticks=6))
            ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: _short_count(v, label)))
            ax.axhline(p["original_max"], color=INK, alpha=0.5, lw=0.8)
            ax.annotate(
                label("original_context", n=p["original_max"]),
                xy=(p["d"] // 2 - 1, p["original_max"]),
                xytext=(0, -3),
                textcoords="offset points",
                fontsize=SMALL,
                ha="right",
                va="top",
            )
            ax.set_xlabel(label("pair_index"))
            ax.set_ylabel(label("wavelength_positions"))
            ax.grid(axis="y", which="major")
            ax.set_xlim(0, p["d"] // 2 - 1)
            ax.xaxis.set_major_locator(MaxNLocator(6, integer=True))
            fig.legend(loc="outside lower center", ncols=1, handlelength=2.4, fontsize=SMALL)
        return fig


class RopeDecay(CourseFigure):
    """RoFormer's decay term and the mean ``|score|`` of RoPE, against the distance.

    Three curves over distances ``r`` from 1 to ``max_distance`` (log scale), each divided
    by its value at ``r = 0``: ``pe.rope_decay_bound`` (the mean ``|S_j|`` that the paper's
    bound multiplies); the mean ``|q . R(r) k|`` over ``samples`` random queries and keys
    (independent standard normal vectors, ``np.random.default_rng(seed)``), which does not
    decay, since a rotation leaves their distribution as it was; and the same with the key
    equal to the query, which does. Scores are ``rope(q at r) . rope(k at 0)`` from
    ``pe.rope`` (half layout).
    """

    name = "rope_decay"
    params = specs(
        param("d", "int", 128, Range(2, 512, 2), "head dimension"),
        base_param("RoPE base (rope_theta)"),
        param("max_distance", "int", 10000, Range(10, 1_000_000), "largest distance drawn"),
        param("samples", "int", 256, Range(8, 2048), "random query-key pairs averaged"),
        param("seed", "int", 0, Range(0, 2**31 - 1), "seed of the random vectors"),
    )

    def data(self, p: Params) -> Data:
        d, base = p["d"], p["base"]
        distances = np.unique(np.round(np.geomspace(1, p["max_distance"], 48)))
        at = np.concatenate([[0.0], distances])
        rng = np.random.default_rng(p["seed"])
        q = rng.normal(size=(p["samples"], d))
        k = rng.normal(size=(p["samples"], d))
        keys = {"random": k, "same": q}
        scores = {
            kind: np.array(
                [
                    np.abs((pe.rope(q, np.full(len(q), r), base=base) * key).sum(axis=1)).mean()
                    for r in at
                ]
            )
            for kind, key in keys.items()
        }
        bound = pe.rope_decay_bound(at, d, base=base)
        return {
            "distances": distances,
            "bound": bound[1:] / bound[0],
            "random": scores["random"][1:] / scores["random"][0],
            "same": scores["same"][1:] / scores["same"][0],
        }

    def draw(self, p: Params, data: Data, label: Label) -> Figure:
        with style():
            fig = new_figure(WIDTH, 4.0)
            ax = fig.add_subplot()
            for i, kind in enumerate(("bound", "random", "same")):
                ax.plot(
                    data["distances"],
                    data[kind],
                    ls=["-", "--", "-."][i],
                    lw=2.0 if i == 0 else 1.6,
                    label=label(f"decay_{kind}", d=p["d"], samples=p["samples"]),
                )
            ax.set_xscale("log")
            ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: _short_count(v, label)))
            ax.axhline(1.0, color=INK, alpha=0.3, lw=0.8)
            ax.set_ylim(bottom=0)
            ax.set_xlabel(label("decay_distance"))
            ax.set_ylabel(label("decay_relative"))
            ax.grid(axis="y")
            fig.legend(loc="outside lower center", ncols=1, handlelength=2.4)
        return fig


def _fraction(slope: float) -> str:
    inverse = 1.0 / slope
    if abs(inverse - round(inverse)) < 1e-9:
        return f"1/{round(inverse)}"
    return f"{slope:.3g}"


class AlibiMatrices(CourseFigure):
    """ALiBi bias matrices ``pe.alibi_bias(n, num_heads)`` of a few heads, on one colour scale.

    Rows are queries ``i``, columns keys ``j``; masked (future) keys are left blank. A steeper
    slope (head 1) penalises distance more. Panels sit side by side (up to four fit a phone
    with short titles); the shared colour bar is below them.
    """

    name = "alibi_matrices"
    params = specs(
        param("n", "int", 8, Range(2, 32), "sequence length"),
        param("heads", "int", Choices((1, 4, 8)), Range(1, 64), "1-based heads to show"),
        param("num_heads", "int", 8, Range(1, 64), "number of heads the slopes are made for"),
    )
    lists: ClassVar[Mapping[str, int]] = {"heads": 4}

    def data(self, p: Params) -> Data:
        n, heads, num_heads = p["n"], list(p["heads"]), p["num_heads"]
        bad = [h for h in heads if h > num_heads]
        if bad:
            raise self.bad(
                "heads",
                f"expected 1-based heads up to num_heads = {num_heads}, found {bad}",
            )
        index = np.array(heads) - 1
        return {
            "heads": np.array(heads),
            "slopes": pe.alibi_slopes(num_heads)[index],
            "bias": pe.alibi_bias(n, num_heads)[index],
        }

    def draw(self, p: Params, data: Data, label: Label) -> Figure:
        bias = data["bias"]
        finite = bias[np.isfinite(bias)]
        low = float(finite.min()) if finite.min() < 0 else -1.0
        count = len(data["heads"])
        with style():
            fig = new_figure(WIDTH, 3.2 if count > 1 else 4.4, layout="compressed")
            axes = fig.subplots(1, count, squeeze=False, sharey=True)[0]
            image = None
            for ax, head, slope, matrix in zip(
                axes, data["heads"], data["slopes"], bias, strict=True
            ):
                masked = np.ma.masked_invalid(matrix)
                image = heat(ax, masked, "viridis", low, 0.0)
                image.set_extent((-0.5, p["n"] - 0.5, p["n"] - 0.5, -0.5))
                ax.set_aspect("equal")
                ax.set_title(
                    label("alibi_head", head=head, slope=_fraction(float(slope))), fontsize=SMALL
                )
                ax.set_xlabel(label("key_j"))
                int_ticks(ax, 4)
            axes[0].set_ylabel(label("query_i"))
            assert image is not None
            below(fig, image, list(axes), label("alibi_bias"))
        return fig


class T5Buckets(CourseFigure):
    """T5's bucket against relative position ``key − query``, bidirectional and causal.

    From ``pe.t5_bucket``; dashed lines mark ``±max_distance`` beyond which buckets stop
    changing. The legend sits below the axes.
    """

    name = "t5_buckets"
    params = specs(
        param("num_buckets", "int", 32, Range(4, 256, 2), "total buckets"),
        param(
            "max_distance",
            "int",
            128,
            Range(2, 100_000),
            (
                "distance at which the logarithmic buckets would reach the next bucket (the "
                "last bucket starts one step earlier)"
            ),
        ),
        param("span", "int", 160, Range(1, 4096), "relative positions -span..span are plotted"),
    )

    def data(self, p: Params) -> Data:
        rel = np.arange(-p["span"], p["span"] + 1)
        kwargs = {"num_buckets": p["num_buckets"], "max_distance": p["max_distance"]}
        return {
            "relative": rel,
            "bidirectional": np.asarray(pe.t5_bucket(rel, bidirectional=True, **kwargs)),
            "causal": np.asarray(pe.t5_bucket(rel, bidirectional=False, **kwargs)),
        }

    def draw(self, p: Params, data: Data, label: Label) -> Figure:
        with style():
            fig = new_figure(WIDTH, 3.9)
            ax = fig.add_subplot()
            ax.step(
                data["relative"], data["bidirectional"], where="mid", label=label("bidirectional")
            )
            ax.step(
                data["relative"],
                data["causal"],
                where="mid",
                ls="--",
                label=label("causal"),
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
            ax.set_xlabel(label("relative_position"))
            ax.set_ylabel(label("bucket"))
            ax.xaxis.set_major_locator(MaxNLocator(6, integer=True, symmetric=True))
            ax.yaxis.set_major_locator(MaxNLocator(5, integer=True))
            ax.set_ylim(-0.8, p["num_buckets"] - 0.2)
            ax.grid(axis="y")
            fig.legend(loc="outside lower center", ncols=2, handlelength=2.0, columnspacing=1.0)
        return fig


class ShawClipping(CourseFigure):
    """Shaw et al.'s clipped relative index ``pe.relative_index(n, n, max_distance)``.

    Cell ``(i, j)`` is ``clip(j − i, −k, k) + k``: the row of the relative-embedding table
    that query ``i`` uses for key ``j``.
    """

    name = "shaw_clipping"
    params = specs(
        param("n", "int", 8, Range(1, 16), "sequence length (queries = keys)"),
        param("max_distance", "int", 2, Range(1, 16), "clipping distance k"),
    )

    def data(self, p: Params) -> Data:
        return {"index": pe.relative_index(p["n"], p["n"], p["max_distance"])}

    def draw(self, p: Params, data: Data, label: Label) -> Figure:
        k = p["max_distance"]
        index = data["index"]
        with style():
            fig = new_figure(4.2, 4.3)
            ax = fig.add_subplot()
            cmap = matplotlib.colormaps["viridis"].resampled(2 * k + 1)
            image = heat(ax, index, cmap, -0.5, 2 * k + 0.5)
            ax.set_aspect("equal")
            annotate(ax, image, index, "{:d}", SMALL if p["n"] <= 10 else 8)
            ax.set_xlabel(label("key_j"))
            ax.set_ylabel(label("query_i"))
            ax.set_title(label("shaw_index", k=k))
            step = 1 if p["n"] <= 10 else 2
            ax.set_xticks(range(0, p["n"], step))
            ax.set_yticks(range(0, p["n"], step))
        return fig


def _grid_refs(grid: int) -> list[tuple[int, int]]:
    refs = [(0, 0), (grid // 2, grid // 2), (grid // 4, (3 * grid) // 4)]
    return list(dict.fromkeys(refs))


class Grid2D(CourseFigure):
    """2-D sin-cos (MAE): cosine similarity of every patch's encoding to one reference patch.

    From ``pe.sincos_2d(grid, grid, d)``; one panel per reference patch (outlined): the
    corner, the centre and an off-centre patch. Rows are patch rows, 0 at the top.
    """

    name = "grid_2d"
    params = specs(
        param("grid", "int", 8, Range(2, 32), "patches per side"),
        param("d", "int", 32, Range(4, 1024, 4), "embedding dimension (multiple of 4)"),
    )

    def data(self, p: Params) -> Data:
        grid, d = p["grid"], p["d"]
        emb = pe.sincos_2d(grid, grid, d)
        unit = emb / np.linalg.norm(emb, axis=1, keepdims=True)
        refs = _grid_refs(grid)
        sims = np.stack([(unit @ unit[r * grid + c]).reshape(grid, grid) for r, c in refs])
        return {"refs": np.array(refs), "similarity": sims}

    def draw(self, p: Params, data: Data, label: Label) -> Figure:
        sims = data["similarity"]
        grid = p["grid"]
        with style():
            fig = new_figure(WIDTH, 3.2, layout="compressed")
            axes = fig.subplots(1, len(sims), squeeze=False, sharey=True)[0]
            image = None
            low = float(sims.min())
            for ax, (r, c), sim in zip(axes, data["refs"], sims, strict=True):
                image = heat(ax, sim, "viridis", low, 1.0)
                ax.set_aspect("equal")
                ax.add_patch(Rectangle((c - 0.5, r - 0.5), 1, 1, fill=False, ec="#e11d48", lw=1.6))
                ax.set_title(label("patch", row=r, col=c), fontsize=SMALL)
                ax.set_xlabel(label("column"))
                int_ticks(ax, 4)
                ax.set_xlim(-0.5, grid - 0.5)
                ax.set_ylim(grid - 0.5, -0.5)
            axes[0].set_ylabel(label("row"))
            assert image is not None
            below(fig, image, list(axes), label("cosine_similarity"))
        return fig


class AttentionPermutation(CourseFigure):
    """Self-attention outputs before and after reversing the tokens, without and with PE.

    Token vectors are ``pe.learned(n, d, seed=1, std=1)``. Panels, top to bottom:
    ``pe.self_attention(x)``, the same for the reversed sequence with rows put back in the
    original token order, then both again for ``x + PE``. Without PE the first two are
    identical (permutation equivariance); with PE the last two differ. Stacked rather than
    side by side so that the cell values stay legible on a phone.
    """

    name = "attention_permutation"
    params = specs(
        param("n", "int", 4, Range(2, 8), "number of tokens"),
        param("d", "int", 6, Range(1, 8), "model dimension"),
    )

    def data(self, p: Params) -> Data:
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

    def draw(self, p: Params, data: Data, label: Label) -> Figure:
        n = p["n"]
        panels = [
            ("no_pe", label("no_pe")),
            ("no_pe_reversed", label("no_pe_reversed", gap=data["gap_no_pe"])),
            ("with_pe", label("with_pe")),
            ("with_pe_reversed", label("with_pe_reversed", gap=data["gap_with_pe"])),
        ]
        vmax = max(float(np.max(np.abs(data[key]))) for key, _ in panels)
        with style():
            fig = new_figure(WIDTH, 1.0 + 4 * (0.35 + 0.24 * n))
            axes = fig.subplots(4, 1, sharex=True)
            for ax, (key, title) in zip(axes, panels, strict=True):
                image = heat(ax, data[key], "coolwarm", -vmax, vmax)
                annotate(ax, image, data[key], "{:.2f}", SMALL if p["d"] <= 6 else 9)
                ax.set_title(title, fontsize=SMALL, loc="left")
                ax.set_yticks(range(n))
                ax.set_xticks(range(p["d"]))
                ax.tick_params(length=0)
            fig.supylabel(label("token"), fontsize=FONT)
            axes[-1].set_xlabel(label("output_dimension"))
        return fig


class LearnedTable(CourseFigure):
    """A learned table at initialisation, ``pe.learned(n, d)``, next to ``pe.sinusoidal(n, d)``.

    The learned table is noise (normal, std 0.02) until training shapes it; the sinusoidal one
    has structure from the start. Each panel has its own colour scale, drawn below it.
    """

    name = "learned_table"
    params = specs(
        param("n", "int", 16, Range(1, 64), "number of positions"),
        param("d", "int", 32, Range(1, 128), "model dimension"),
    )

    def data(self, p: Params) -> Data:
        return {"learned": pe.learned(p["n"], p["d"]), "sinusoidal": pe.sinusoidal(p["n"], p["d"])}

    def draw(self, p: Params, data: Data, label: Label) -> Figure:
        std = 0.02  # pe.learned's default
        spread = 3 * std
        with style():
            fig = new_figure(WIDTH, 3.6)
            axes = fig.subplots(1, 2, sharey=True)
            left = heat(axes[0], data["learned"], "coolwarm", -spread, spread)
            right = heat(axes[1], data["sinusoidal"], "coolwarm", -1.0, 1.0)
            axes[0].set_title(label("learned_init", std=std), fontsize=SMALL)
            axes[1].set_title(label("sinusoidal_fixed"), fontsize=SMALL)
            for ax, image, top in ((axes[0], left, 0.05), (axes[1], right, 1.0)):
                ax.set_xlabel(label("dimension_j"))
                int_ticks(ax, 4)
                bar = fig.colorbar(
                    image, ax=ax, orientation="horizontal", shrink=0.9, aspect=15, pad=0.03
                )
                bar.set_ticks([-top, 0.0, top])
            axes[0].set_ylabel(label("position_p"))
        return fig


FIGURES = (
    PEHeatmap(),
    SineWaves(),
    DotVsDistance(),
    Fingerprint(),
    RopeRotation(),
    RopeFrequenciesScaled(),
    RopeDecay(),
    AlibiMatrices(),
    T5Buckets(),
    ShawClipping(),
    Grid2D(),
    AttentionPermutation(),
    LearnedTable(),
)
