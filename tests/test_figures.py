"""Tests for konum.figures: every figure renders to accessible, deterministic, small SVG
whose numbers are the PE core's.

The data checks compare what a figure draws (its artists, and ``figure_data``) with direct
calls to ``konum_pe.pe``; the core's own tests pin the core to hand-worked values.
"""

from __future__ import annotations

import base64
import hashlib
import io
import math
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from konum import figures
from konum.figures import SIZE_BUDGET, svg
from konum_pe import pe
from tests.helpers import FIGURES, figure_data, figure_params, render_svg

SVG = "{http://www.w3.org/2000/svg}"
NAMES = sorted(FIGURES)
ROOT = Path(__file__).resolve().parents[1]

# The catalogue of the shared contract (SPEC.md): lesson pages use these names and defaults.
SPEC_DEFAULTS = {
    "pe_heatmap": {"n": 64, "d": 64, "base": 10000},
    "sine_waves": {"d": 64, "columns": (0, 2, 8, 16), "n": 100},
    "dot_vs_distance": {"d": 64, "n": 100, "anchor": 50},
    "fingerprint": {"n": 8, "d": 16},
    "rope_rotation": {"m_values": (0, 1, 2, 3), "k": 0, "d": 8},
    "rope_frequencies_scaled": {"d": 128, "base": 10000, "factor": 8, "original_max": 8192},
    "rope_decay": {"d": 128, "base": 10000, "max_distance": 10000, "samples": 256, "seed": 0},
    "alibi_matrices": {"n": 8, "heads": (1, 4, 8)},
    "t5_buckets": {"num_buckets": 32, "max_distance": 128, "span": 160},
    "shaw_clipping": {"n": 8, "max_distance": 2},
    "grid_2d": {"grid": 8, "d": 32},
    "attention_permutation": {"n": 4, "d": 6},
    "learned_table": {"n": 16, "d": 32},
}


def fresh(name: str, alt: str = "A figure", caption: str | None = None, **params: object) -> str:
    """Render without the cache, so that determinism tests really render twice."""
    figures._render_cached.cache_clear()
    return render_svg(name, alt, caption, **params)


@pytest.fixture(scope="module")
def rendered() -> dict[str, str]:
    """Every figure rendered once with its defaults."""
    return {name: render_svg(name, alt=f"Alt text for {name}") for name in NAMES}


# --------------------------------------------------------------------------------------------
# The catalogue.


def test_catalogue_matches_the_spec() -> None:
    assert set(FIGURES) == set(SPEC_DEFAULTS)
    for name, defaults in SPEC_DEFAULTS.items():
        params = figure_params(name)
        for key, value in defaults.items():
            assert key in params, (name, key)
            assert params[key][0] == value, (name, key)


@pytest.mark.parametrize("name", NAMES)
def test_figure_functions_return_figures(name: str) -> None:
    from matplotlib.figure import Figure

    fig = FIGURES[name]()
    assert isinstance(fig, Figure)
    assert fig.get_facecolor()[3] == 0  # transparent background
    assert fig.axes


# --------------------------------------------------------------------------------------------
# The SVG markup.


@pytest.mark.parametrize("name", NAMES)
def test_svg_is_valid_accessible_and_scalable(rendered: dict[str, str], name: str) -> None:
    html = rendered[name]
    assert "<?xml" not in html and "<!DOCTYPE" not in html
    root = ET.fromstring(html)  # the whole <figure> is well-formed XML
    assert root.tag == "figure" and root.get("class") == "konum-figure"
    svg = root.find(f"{SVG}svg")
    assert svg is not None
    assert svg.get("role") == "img"
    assert svg.get("aria-label") == f"Alt text for {name}"
    title = svg.find(f"{SVG}title")
    assert title is not None and title.text == f"Alt text for {name}"
    assert svg.get("width") is None and svg.get("height") is None
    assert re.fullmatch(r"0 0 [\d.]+ [\d.]+", svg.get("viewBox", ""))
    assert "max-width" in svg.get("style", "")
    assert root.find("figcaption") is None  # no caption given


@pytest.mark.parametrize("name", NAMES)
def test_svg_is_small(rendered: dict[str, str], name: str) -> None:
    assert len(rendered[name].encode("utf-8")) < SIZE_BUDGET


#: The content column of Material on a 390 px phone (the page has 16 px side padding).
PHONE_COLUMN_PX = 358


@pytest.mark.parametrize("name", NAMES)
def test_text_is_readable_on_a_phone_and_not_oversized_on_a_desktop(
    rendered: dict[str, str], name: str
) -> None:
    """Text sizes in the SVG are in viewBox units (pt); the SVG is shown at its natural width
    (1 pt = 4/3 px) or, on a phone, at the column width, whichever is smaller."""
    html = rendered[name]
    svg = ET.fromstring(html).find(f"{SVG}svg")
    assert svg is not None
    viewbox_width = float(svg.get("viewBox", "").split()[2])
    natural = float(re.search(r"(?:^|;)width:([\d.]+)px", svg.get("style", "")).group(1))  # type: ignore[union-attr]
    assert natural == pytest.approx(viewbox_width * 4 / 3, abs=1)
    sizes = [float(size) for size in re.findall(r"font-size: ([\d.]+)px", html)]
    assert sizes
    phone_scale = min(1.0, PHONE_COLUMN_PX / natural) * 4 / 3
    assert min(sizes) * phone_scale >= 10, "text below 10 px on a phone"
    assert max(sizes) * 4 / 3 <= 16, "text larger than body text on a desktop"


@pytest.mark.parametrize("name", NAMES)
def test_svg_follows_the_page_colour(rendered: dict[str, str], name: str) -> None:
    html = rendered[name]
    assert "currentColor" in html
    assert figures.INK not in html
    assert "font-family" not in html  # text uses the page's font
    assert "<style" not in html  # no global CSS leaks into the page
    # The figure's own background (the first shape drawn) is transparent.
    first = ET.fromstring(html).find(f"{SVG}svg/{SVG}path")
    assert first is not None and first.get("style") == "fill: none"


@pytest.mark.parametrize("name", NAMES)
def test_svg_ids_are_all_referenced_and_resolve(rendered: dict[str, str], name: str) -> None:
    html = rendered[name]
    ids = re.findall(r' id="([^"]+)"', html)
    refs = set(re.findall(r'(?:url\(#|href="#)([^")]+)', html))
    assert len(ids) == len(set(ids))
    assert set(ids) == refs


def test_two_figures_on_one_page_share_no_id(rendered: dict[str, str]) -> None:
    seen: dict[str, str] = {}
    for name, html in rendered.items():
        for ident in re.findall(r' id="([^"]+)"', html):
            assert ident not in seen, (ident, name, seen.get(ident))
            seen[ident] = name


@pytest.mark.parametrize("name", NAMES)
def test_render_is_deterministic(name: str) -> None:
    first = fresh(name, "Same alt")
    second = fresh(name, "Same alt")
    assert first == second


def test_render_is_identical_in_another_process() -> None:
    """No per-process state (hash seeds, dates, counters) leaks into the SVG."""
    code = (
        "import sys, hashlib\n"
        "from tests.helpers import render_svg\n"
        "assert 'matplotlib.pyplot' not in sys.modules\n"
        "svg = render_svg('rope_rotation', 'Arrows', caption='c')\n"
        "print(hashlib.sha256(svg.encode()).hexdigest())\n"
    )
    digests = {
        subprocess.run(
            [sys.executable, "-c", code],
            cwd=ROOT,
            env={"PYTHONHASHSEED": seed, "PATH": "/usr/bin:/bin"},
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        for seed in ("1", "2")
    }
    here = hashlib.sha256(fresh("rope_rotation", "Arrows", "c").encode()).hexdigest()
    assert digests == {here}


def test_caption_and_alt_are_escaped() -> None:
    caption = 'Bias <b>matrix</b> & "slopes"'
    alt = 'Heads "1" & <2>'
    html = render_svg("shaw_clipping", alt, caption=caption)
    assert "<b>" not in html
    root = ET.fromstring(html)
    assert root.findtext("figcaption") == caption
    svg = root.find(f"{SVG}svg")
    assert svg is not None and svg.get("aria-label") == alt
    assert root.findtext(f"{SVG}svg/{SVG}title") == alt


def test_renders_are_cached() -> None:
    first = render_svg("t5_buckets", "Buckets", span=40)
    assert render_svg("t5_buckets", "Buckets", span=40) is first


def test_lists_are_accepted_for_tuple_params() -> None:
    as_list = render_svg("sine_waves", "Waves", columns=[0, 5])
    as_tuple = render_svg("sine_waves", "Waves", columns=(0, 5))
    assert as_list == as_tuple
    assert len(figure_data("sine_waves", columns=[0, 5])["columns"]) == 2


@pytest.mark.parametrize(
    ("name", "params"),
    [
        ("pe_heatmap", {"n": 1, "d": 1}),
        ("pe_heatmap", {"n": 128, "d": 128, "base": 100.5}),
        ("sine_waves", {"columns": [0, 1, 2, 3, 62, 63], "n": 500}),
        ("dot_vs_distance", {"n": 500, "d": 1024, "anchor": 499}),
        ("dot_vs_distance", {"n": 2, "d": 1, "anchor": 0}),
        ("fingerprint", {"n": 1, "d": 64}),
        ("rope_rotation", {"m_values": [0, 100], "k": 3, "d": 8}),
        ("rope_frequencies_scaled", {"d": 4, "factor": 1, "original_max": 16}),
        ("alibi_matrices", {"heads": [3], "num_heads": 6, "n": 32}),
        ("t5_buckets", {"num_buckets": 4, "max_distance": 3, "span": 1}),
        ("t5_buckets", {"num_buckets": 256, "max_distance": 100_000, "span": 4096}),
        ("shaw_clipping", {"n": 16, "max_distance": 16}),
        ("grid_2d", {"grid": 2, "d": 4}),
        ("attention_permutation", {"n": 8, "d": 1}),
        ("learned_table", {"n": 1, "d": 1}),
        ("learned_table", {"n": 64, "d": 128}),
        ("grid_2d", {"grid": 32, "d": 1024}),
        ("rope_frequencies_scaled", {"d": 1024, "factor": 1000, "original_max": 10_000_000}),
    ],
)
def test_extreme_params_render_without_warnings(name: str, params: dict[str, object]) -> None:
    html = render_svg(name, "Edge case", **params)  # warnings are errors in this suite
    ET.fromstring(html)
    assert len(html.encode()) < 2 * SIZE_BUDGET


# --------------------------------------------------------------------------------------------
# Errors.


def test_unknown_figure_suggests_a_name() -> None:
    with pytest.raises(ValueError, match=r"unknown figure 'pe_heatmpa'; did you mean 'pe_heatmap'"):
        render_svg("pe_heatmpa", "x")
    with pytest.raises(ValueError, match="unknown figure"):
        figure_data("nothing_like_it")


def test_unknown_parameter_names_figure_and_suggests() -> None:
    expected = r"figure 'pe_heatmap': unknown parameter 'dd'; did you mean 'd'"
    with pytest.raises(ValueError, match=expected):
        render_svg("pe_heatmap", "x", dd=8)
    expected = r"figure 't5_buckets': unknown parameter 'num_bucket'.*'num_buckets'"
    with pytest.raises(ValueError, match=expected):
        FIGURES["t5_buckets"](num_bucket=8)


@pytest.mark.parametrize(
    ("name", "params", "param", "expected"),
    [
        ("pe_heatmap", {"n": 0}, "n", "expected an int in 1..128, found 0"),
        ("pe_heatmap", {"base": 1}, "base", "expected a number in 1.5..1000000000, found 1"),
        ("pe_heatmap", {"d": True}, "d", "expected an int in 1..128, found true"),
        ("pe_heatmap", {"d": 8.5}, "d", "expected an int in 1..128, found 8.5"),
        ("pe_heatmap", {"n": 10**400}, "n", "found 100000000000... (401 characters)"),
        ("sine_waves", {"columns": (0, 64)}, "columns", "expected columns below d = 64"),
        ("sine_waves", {"columns": ()}, "columns", "expected a list of 1 to 6 values, each an int"),
        ("sine_waves", {"columns": "0,2"}, "columns", "list of 1 to 6 values"),
        ("dot_vs_distance", {"anchor": 100}, "anchor", "below n = 100, found 100"),
        ("rope_rotation", {"k": 4}, "k", "below d/2 = 4, found 4"),
        ("rope_rotation", {"d": 7}, "d", "expected an even int in 2..1024, found 7"),
        ("rope_frequencies_scaled", {"factor": 0.5}, "factor", "a number in 1..1000, found 0.5"),
        ("rope_frequencies_scaled", {"factor": math.inf}, "factor", "number in 1..1000"),
        ("alibi_matrices", {"heads": (1, 9)}, "heads", "num_heads = 8, found [9]"),
        ("alibi_matrices", {"heads": (0,)}, "heads", "each an int in 1..64, found (0,)"),
        ("t5_buckets", {"num_buckets": 7}, "num_buckets", "expected an even int in 4..256"),
        ("grid_2d", {"d": 30}, "d", "expected a multiple of 4 in 4..1024, found 30"),
        ("attention_permutation", {"n": 1}, "n", "expected an int in 2..8, found 1"),
    ],
)
def test_bad_values_name_figure_and_parameter(
    name: str, params: dict[str, object], param: str, expected: str
) -> None:
    prefix = re.escape(f"figure {name!r}: parameter {param!r}")
    with pytest.raises(ValueError, match=prefix) as info:
        render_svg(name, "x", **params)
    assert expected in str(info.value)
    with pytest.raises(ValueError, match=re.escape(f"figure {name!r}")):
        FIGURES[name](**params)


def test_integral_numbers_are_ints_as_for_the_generators() -> None:
    # One rule for every parameter spec: 8.0 is the int 8 (as a YAML figure param can be).
    np.testing.assert_array_equal(
        figure_data("pe_heatmap", n=4, d=8.0)["pe"], figure_data("pe_heatmap", n=4, d=8)["pe"]
    )
    assert figure_data("sine_waves", columns=[0.0, 5])["columns"].tolist() == [0, 5]


def test_errors_from_the_core_name_the_figure() -> None:
    # t5_bucket requires max_distance to exceed the exact range; the core says so.
    with pytest.raises(ValueError, match=r"figure 't5_buckets': .*max_distance"):
        figure_data("t5_buckets", num_buckets=256, max_distance=2)


def test_alt_text_is_required() -> None:
    with pytest.raises(ValueError, match="alt text is required"):
        render_svg("pe_heatmap", "   ")


def test_figure_error_is_a_value_error() -> None:
    assert issubclass(figures.FigureError, ValueError)


# --------------------------------------------------------------------------------------------
# The numbers drawn are the core's.


def images(fig: object) -> list[np.ndarray]:
    return [np.ma.getdata(im.get_array()) for ax in fig.axes for im in ax.images]  # type: ignore[attr-defined]


def test_pe_heatmap_draws_the_sinusoidal_table() -> None:
    expected = pe.sinusoidal(10, 12, base=100.0)
    np.testing.assert_array_equal(figure_data("pe_heatmap", n=10, d=12, base=100)["pe"], expected)
    (image,) = images(FIGURES["pe_heatmap"](n=10, d=12, base=100))
    np.testing.assert_array_equal(image, expected)


def test_sine_waves_draw_columns_of_the_table() -> None:
    data = figure_data("sine_waves", d=16, columns=(1, 6), n=30)
    table = pe.sinusoidal(30, 16)
    np.testing.assert_array_equal(data["values"], table[:, [1, 6]])
    np.testing.assert_allclose(
        data["fine_values"], pe.sinusoidal(data["fine_positions"], 16)[:, [1, 6]]
    )
    np.testing.assert_allclose(data["wavelengths"], pe.sinusoidal_wavelengths(16)[[0, 3]])
    fig = FIGURES["sine_waves"](d=16, columns=(1, 6), n=30)
    assert len(fig.axes) == 2
    for ax, j in zip(fig.axes, (1, 6), strict=True):
        dots = ax.lines[1]
        np.testing.assert_array_equal(dots.get_ydata(), table[:, j])
        assert f"j = {j}" in ax.get_title(loc="left")


def test_dot_vs_distance_peaks_at_the_anchor() -> None:
    data = figure_data("dot_vs_distance", d=32, n=41, anchor=20)
    table = pe.sinusoidal(41, 32)
    np.testing.assert_allclose(data["dots"], table @ table[20])
    assert int(np.argmax(data["dots"])) == 20
    assert data["dots"][20] == pytest.approx(32 / 2)
    np.testing.assert_allclose(data["dots"][:20], data["dots"][21:][::-1])  # symmetric
    fig = FIGURES["dot_vs_distance"](d=32, n=41, anchor=20)
    np.testing.assert_allclose(fig.axes[0].lines[-1].get_ydata(), data["dots"])


def test_fingerprint_strips_are_the_rows() -> None:
    strips = images(FIGURES["fingerprint"](n=5, d=6))
    table = pe.sinusoidal(5, 6)
    assert len(strips) == 5
    for row, strip in enumerate(strips):
        np.testing.assert_array_equal(strip[0], table[row])


def test_rope_rotation_points_come_from_rope() -> None:
    data = figure_data("rope_rotation", m_values=(0, 2, 5), k=1, d=8)
    theta = pe.rope_frequencies(8)[1]
    expected = np.array([[math.cos(m * theta), math.sin(m * theta)] for m in (0, 2, 5)])
    np.testing.assert_allclose(data["points"], expected, atol=1e-12)
    assert data["theta"] == pytest.approx(theta)
    x = np.zeros((3, 8))
    x[:, 2] = 1.0
    np.testing.assert_allclose(
        data["points"], pe.rope(x, [0, 2, 5], layout="interleaved")[:, [2, 3]]
    )


def test_rope_frequencies_scaled_curves_come_from_the_core() -> None:
    data = figure_data("rope_frequencies_scaled", d=64, base=500000, factor=4, original_max=2048)
    curves = list(data["wavelengths"].values())
    assert len(curves) == 5
    plain = 2 * np.pi / pe.rope_frequencies(64, base=500000.0)
    np.testing.assert_allclose(curves[0], plain)
    np.testing.assert_allclose(curves[1], 4 * plain)
    dynamic = pe.rope_frequencies(
        64,
        base=500000.0,
        scaling={
            "rope_type": "dynamic",
            "factor": 4.0,
            "max_position_embeddings": 2048,
            "seq_len": 8192,
        },
    )
    np.testing.assert_allclose(curves[2], 2 * np.pi / dynamic)
    llama3 = pe.rope_frequencies(
        64,
        base=500000.0,
        scaling={
            "rope_type": "llama3",
            "factor": 4.0,
            "low_freq_factor": 1.0,
            "high_freq_factor": 4.0,
            "original_max_position_embeddings": 2048,
        },
    )
    np.testing.assert_allclose(curves[3], 2 * np.pi / llama3)
    ramp = pe.yarn_ramp(64, base=500000.0, factor=4.0, original_max=2048)
    plain_inv = pe.rope_frequencies(64, base=500000.0)
    np.testing.assert_allclose(
        curves[4], 2 * np.pi / ((1 - ramp) * plain_inv + ramp * plain_inv / 4)
    )
    fig = FIGURES["rope_frequencies_scaled"](d=64, base=500000, factor=4, original_max=2048)
    drawn = [line.get_ydata() for line in fig.axes[0].lines[:5]]
    for line, curve in zip(drawn, curves, strict=True):
        np.testing.assert_allclose(line, curve)
    (legend,) = fig.legends  # below the axes, where it hides no curve
    assert list(data["wavelengths"]) == ["none", "linear", "dynamic", "llama3", "yarn"]
    assert [t.get_text() for t in legend.get_texts()] == [
        "no scaling",
        "linear (positions ÷ 4)",
        "dynamic NTK (at 8,192 tokens)",
        "Llama 3 (low 1, high 4)",
        "YaRN (32 → 1 turns)",
    ]


def test_rope_decay_draws_the_bound_and_scores_of_the_core() -> None:
    data = figure_data("rope_decay", d=16, base=10000, max_distance=1000, samples=32, seed=5)
    r = data["distances"]
    assert r[0] == 1 and r[-1] == 1000 and np.all(np.diff(r) > 0)
    bound = pe.rope_decay_bound(np.concatenate([[0.0], r]), 16)
    np.testing.assert_allclose(data["bound"], bound[1:] / bound[0])
    rng = np.random.default_rng(5)
    q, k = rng.normal(size=(32, 16)), rng.normal(size=(32, 16))

    def mean_abs(key: np.ndarray, at: float) -> float:
        scores = pe.rope(q, np.full(32, at)) @ key.T
        return float(np.abs(np.diag(scores)).mean())

    for i in (0, len(r) // 2, len(r) - 1):
        assert data["random"][i] == pytest.approx(mean_abs(k, r[i]) / mean_abs(k, 0), rel=1e-12)
        assert data["same"][i] == pytest.approx(mean_abs(q, r[i]) / mean_abs(q, 0), rel=1e-12)
    fig = FIGURES["rope_decay"](d=16, base=10000, max_distance=1000, samples=32, seed=5)
    for line, kind in zip(fig.axes[0].lines[:3], ("bound", "random", "same"), strict=True):
        np.testing.assert_allclose(line.get_ydata(), data[kind])


def test_alibi_matrices_are_the_biases_of_the_chosen_heads() -> None:
    data = figure_data("alibi_matrices", n=5, heads=(2, 6), num_heads=6)
    full = pe.alibi_bias(5, 6)
    np.testing.assert_array_equal(data["bias"], full[[1, 5]])
    np.testing.assert_array_equal(data["slopes"], pe.alibi_slopes(6)[[1, 5]])
    drawn = [
        ax.images[0].get_array()
        for ax in FIGURES["alibi_matrices"](n=5, heads=(2, 6), num_heads=6).axes
        if ax.images
    ]
    assert len(drawn) == 2
    for image, matrix in zip(drawn, full[[1, 5]], strict=True):
        finite = np.isfinite(matrix)
        np.testing.assert_array_equal(np.ma.getmaskarray(image), ~finite)
        np.testing.assert_array_equal(np.ma.getdata(image)[finite], matrix[finite])


def test_t5_buckets_come_from_the_core() -> None:
    data = figure_data("t5_buckets", num_buckets=16, max_distance=64, span=80)
    rel = np.arange(-80, 81)
    np.testing.assert_array_equal(data["relative"], rel)
    np.testing.assert_array_equal(
        data["bidirectional"], pe.t5_bucket(rel, num_buckets=16, max_distance=64)
    )
    np.testing.assert_array_equal(
        data["causal"],
        pe.t5_bucket(rel, bidirectional=False, num_buckets=16, max_distance=64),
    )
    lines = FIGURES["t5_buckets"](num_buckets=16, max_distance=64, span=80).axes[0].lines
    np.testing.assert_array_equal(lines[0].get_ydata(), data["bidirectional"])


def test_shaw_clipping_shows_the_relative_index() -> None:
    expected = pe.relative_index(6, 6, 3)
    np.testing.assert_array_equal(
        figure_data("shaw_clipping", n=6, max_distance=3)["index"], expected
    )
    ax = FIGURES["shaw_clipping"](n=6, max_distance=3).axes[0]
    np.testing.assert_array_equal(np.ma.getdata(ax.images[0].get_array()), expected)
    labels = [int(t.get_text()) for t in ax.texts]
    assert labels == expected.ravel().tolist()


def test_grid_2d_is_cosine_similarity_of_sincos_2d() -> None:
    data = figure_data("grid_2d", grid=4, d=16)
    emb = pe.sincos_2d(4, 4, 16)
    for (r, c), sim in zip(data["refs"], data["similarity"], strict=True):
        ref = emb[r * 4 + c]
        expected = emb @ ref / (np.linalg.norm(emb, axis=1) * np.linalg.norm(ref))
        np.testing.assert_allclose(sim.ravel(), expected)
        assert sim[r, c] == pytest.approx(1.0)


def test_attention_permutation_shows_equivariance_and_its_loss() -> None:
    data = figure_data("attention_permutation", n=5, d=4)
    x = data["tokens"]
    np.testing.assert_array_equal(x, pe.learned(5, 4, seed=1, std=1.0))
    np.testing.assert_allclose(data["no_pe"], pe.self_attention(x))
    np.testing.assert_allclose(data["no_pe_reversed"], data["no_pe"], atol=1e-12)
    assert data["gap_no_pe"] < 1e-12
    np.testing.assert_allclose(data["with_pe"], pe.self_attention(x + pe.sinusoidal(5, 4)))
    assert data["gap_with_pe"] > 1e-3
    drawn = images(FIGURES["attention_permutation"](n=5, d=4))
    for image, key in zip(
        drawn, ["no_pe", "no_pe_reversed", "with_pe", "with_pe_reversed"], strict=True
    ):
        np.testing.assert_array_equal(image, data[key])


def test_learned_table_sits_next_to_the_sinusoidal_one() -> None:
    left, right = images(FIGURES["learned_table"](n=6, d=10))
    np.testing.assert_array_equal(left, pe.learned(6, 10))
    np.testing.assert_array_equal(right, pe.sinusoidal(6, 10))


def test_markup_survives_markdown() -> None:
    """Pages put the figure on a line of its own; Markdown must pass it through untouched."""
    import markdown

    html = render_svg("alibi_matrices", "Bias matrices", caption="Heads & *slopes*")
    assert "\n\n" not in html  # a blank line would end Markdown's raw HTML block
    out = markdown.markdown(f"Before.\n\n{html}\n\nAfter.", extensions=["pymdownx.superfences"])
    assert html in out


# --- relative path data -----------------------------------------------------------------------

_SVG_NUMBER = re.compile(r"[A-Za-z]|-?(?:\d+\.?\d*|\.\d+)")


def _absolute_points(d: str) -> list[tuple[str, float, float]]:
    """Every point of SVG path data (absolute or relative, letters implied or written), as
    ``(command, x, y)`` in absolute coordinates: an independent reading of the grammar."""
    arity = {"m": 2, "l": 2, "q": 4, "c": 6, "z": 0}
    tokens = _SVG_NUMBER.findall(d)
    points: list[tuple[str, float, float]] = []
    x = y = sx = sy = 0.0
    command, i = "", 0
    while i < len(tokens):
        if tokens[i].isalpha():
            command, i = tokens[i], i + 1
        elif command.lower() == "m":  # numbers after a moveto continue as lineto
            command = "l" if command == "m" else "L"
        lower, relative = command.lower(), command.islower()
        if lower == "z":
            x, y = sx, sy
            points.append(("z", x, y))
            continue
        numbers = [float(v) for v in tokens[i : i + arity[lower]]]
        i += arity[lower]
        for k in range(0, len(numbers), 2):
            px = numbers[k] + (x if relative else 0)
            py = numbers[k + 1] + (y if relative else 0)
            points.append((lower, px, py))
        x, y = points[-1][1], points[-1][2]
        if lower == "m":
            sx, sy = x, y
    return points


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from("MLQCz"),
            st.lists(st.integers(-100_000, 100_000), min_size=6, max_size=6),
        ),
        min_size=1,
        max_size=12,
    )
)
def test_relative_path_keeps_every_point(commands: list[tuple[str, list[int]]]) -> None:
    arity = {"M": 2, "L": 2, "Q": 4, "C": 6, "z": 0}
    parts = ["M 1.5 -2"]
    for command, values in commands:
        numbers = [f"{v / 100:.2f}".rstrip("0").rstrip(".") for v in values[: arity[command]]]
        parts.append(" ".join([command, *numbers]))
    d = " ".join(parts)
    short = svg.relative_path(d)
    assert short[0] == "m"
    before, after = _absolute_points(d), _absolute_points(short)
    assert [p[0] for p in after] == [p[0] for p in before]
    for (_, x0, y0), (_, x1, y1) in zip(before, after, strict=True):
        assert x1 == pytest.approx(x0, abs=1e-6) and y1 == pytest.approx(y0, abs=1e-6)


def test_figures_write_relative_paths(rendered: dict[str, str]) -> None:
    for name, html in rendered.items():
        assert ' d="M ' not in html, name
        assert re.search(r' d="m[-.\d]', html), name


def _pixels(data: bytes) -> np.ndarray:
    from PIL import Image

    with Image.open(io.BytesIO(data)) as image:
        return np.asarray(image.convert("RGBA"))


@pytest.mark.parametrize("colours", [3, 256, 4096])
def test_smallest_png_keeps_every_pixel(colours: int) -> None:
    from PIL import Image

    rng = np.random.default_rng(colours)
    palette = rng.integers(0, 256, size=(colours, 4), dtype=np.uint8)
    palette[: colours // 2, 3] = 255  # opaque and translucent colours
    pixels = palette[rng.integers(0, colours, size=(64, 64))]
    buffer = io.BytesIO()
    Image.fromarray(pixels, "RGBA").save(buffer, format="png")
    small = svg.smallest_png(buffer.getvalue())
    assert len(small) <= len(buffer.getvalue())
    np.testing.assert_array_equal(_pixels(small), pixels)


def test_figures_carry_indexed_images(rendered: dict[str, str]) -> None:
    """A heatmap's pixels come from a colour map of 256: the largest, the PE heatmap's, is
    indexed (colour type 3), the small ones whichever is shorter."""
    pngs = [
        base64.b64decode(uri)
        for html in rendered.values()
        for uri in re.findall(r'href="data:image/png;base64,([^"]*)"', html)
    ]
    assert pngs and max(pngs, key=len)[25] == 3
