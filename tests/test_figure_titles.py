"""No figure's title sits on its data: every title, grown by :data:`MARGIN`, stays clear of
every plotted line, image, patch and collection, in every figure the lessons draw, in every
language (the words change, the layout does not); and no text runs off its figure.

Extents come from matplotlib's renderer (``get_window_extent``). The margin stands for the
page's font, which replaces matplotlib's in the SVG and has other metrics. A line is tested
along its path, not its bounding box (a sine's box covers its whole panel), and only where it
is visible: inside its own axes.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.cbook import STEP_LOOKUP_MAP
from matplotlib.figure import Figure
from matplotlib.path import Path as MplPath
from matplotlib.text import Text
from matplotlib.transforms import Bbox

from konum.figures.style import new_figure, style
from tests.helpers import FIGURES

# A sweep of every figure in every language, drawn by matplotlib: with the slow tests.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
#: Clearance asked around a title, in points.
MARGIN = 2.0
CALL = re.compile(r"\{\{\s*(figure\(.*?\))\s*\}\}", re.DOTALL)


def lesson_calls() -> list[tuple[str, dict[str, object]]]:
    """Every ``{{ figure("name", ..., k=v) }}`` of the course's pages, with its parameters (not
    those shown as written, between ``{% raw %}`` and ``{% endraw %}``)."""
    calls = []
    for page in sorted((ROOT / "content").rglob("*.md")):
        text = re.sub(
            r"\{% raw %\}.*?\{% endraw %\}", "", page.read_text(encoding="utf-8"), flags=re.S
        )
        for source in CALL.findall(text):
            call = ast.parse(source, mode="eval").body
            assert isinstance(call, ast.Call), source
            name = ast.literal_eval(call.args[0])
            params = {
                kw.arg: ast.literal_eval(kw.value)
                for kw in call.keywords
                if kw.arg not in ("alt", "caption")
            }
            calls.append((name, params))
    return calls


CASES = sorted(
    {
        (name, repr(sorted(params.items())))
        for name, params in [
            *[(name, {}) for name in FIGURES],
            *lesson_calls(),
            ("sine_waves", {"columns": (0, 1, 2, 3, 62, 63), "n": 500}),
            ("alibi_matrices", {"heads": (1, 2, 3, 4), "n": 32, "num_heads": 8}),
            ("attention_permutation", {"n": 8, "d": 8}),
            ("rope_rotation", {"m_values": (0, 1, 2, 3, 4, 5), "k": 1, "d": 8}),
        ]
    }
)


def titles(fig: Figure) -> Iterator[Text]:
    """The non-empty titles (left, centre, right) of every axes of ``fig``."""
    for ax in fig.axes:
        texts = {ax.get_title(loc) for loc in ("left", "center", "right")} - {""}
        for child in ax.get_children():
            if isinstance(child, Text) and child.get_text() in texts:
                yield child


def _line_hits(ax: Axes, region: Bbox) -> Iterator[str]:
    for line in ax.lines:
        if not line.get_visible():
            continue
        x = np.asarray(line.get_xdata(orig=False), dtype=float)
        y = np.asarray(line.get_ydata(orig=False), dtype=float)
        drawstyle = line.get_drawstyle()
        if drawstyle != "default":
            x, y = STEP_LOOKUP_MAP[drawstyle](x, y)
        xy = line.get_transform().transform(np.column_stack([x, y]))
        xy = xy[np.isfinite(xy).all(axis=1)]
        marker = line.get_marker() not in (None, "None", "none", "", " ")
        grown = region.padded(line.get_markersize() / 2 * ax.figure.dpi / 72) if marker else region
        if marker and grown.count_contains(xy):
            yield f"markers of line {line.get_label()!r}"
        elif line.get_linestyle() not in ("None", "none", "", " ") and MplPath(xy).intersects_bbox(
            region, filled=False
        ):
            yield f"line {line.get_label()!r}"


def overlaps(fig: Figure) -> list[str]:
    """What each title of ``fig`` (grown by :data:`MARGIN`) touches, as readable strings."""
    canvas = FigureCanvasAgg(fig)
    fig.draw_without_rendering()
    renderer = canvas.get_renderer()
    margin = MARGIN * fig.dpi / 72
    found = []
    for title in titles(fig):
        box = title.get_window_extent(renderer).padded(margin)
        for ax in fig.axes:
            region = Bbox.intersection(box, ax.get_window_extent(renderer))
            if region is None:
                continue
            hits = list(_line_hits(ax, region))
            for artist in (*ax.images, *ax.patches, *ax.collections):
                extent = Bbox.intersection(
                    artist.get_window_extent(renderer), ax.get_window_extent(renderer)
                )
                if extent is not None and Bbox.intersection(extent, region) is not None:
                    hits.append(type(artist).__name__)
            found += [f"title {title.get_text()!r} overlaps {hit}" for hit in hits]
    return found


def off_the_figure(fig: Figure) -> list[str]:
    """The texts of ``fig`` with words that reach past its edges (tick labels outside the axes'
    limits, which are not drawn, aside)."""
    canvas = FigureCanvasAgg(fig)
    fig.draw_without_rendering()
    renderer = canvas.get_renderer()
    edge = fig.bbox.padded(1.0)
    undrawn = {
        id(label)
        for ax in fig.axes
        for axis in (ax.xaxis, ax.yaxis)
        for tick in axis.get_major_ticks() + axis.get_minor_ticks()
        if not min(axis.get_view_interval()) <= tick.get_loc() <= max(axis.get_view_interval())
        for label in (tick.label1, tick.label2)
    }
    found = []
    for text in fig.findobj(Text):
        if id(text) in undrawn:
            continue
        if text.get_visible() and re.search(r"[^\W\d_]{2}", text.get_text()):
            box = text.get_window_extent(renderer)
            if not (edge.contains(box.x0, box.y0) and edge.contains(box.x1, box.y1)):
                found.append(text.get_text())
    return found


#: The course's languages: its figures are worded in these (its English elsewhere).
COURSE_LANGUAGES = ("en", "tr")


@pytest.mark.parametrize("language", COURSE_LANGUAGES)
@pytest.mark.parametrize(("name", "params"), CASES, ids=[f"{n}{p}" for n, p in CASES])
def test_no_title_overlaps_the_data_and_no_text_runs_off(
    name: str, params: str, language: str
) -> None:
    fig = FIGURES[name](language=language, **dict(ast.literal_eval(params)))
    assert {"overlaps": overlaps(fig), "off the figure": off_the_figure(fig)} == {
        "overlaps": [],
        "off the figure": [],
    }


def test_the_lessons_figures_are_among_the_cases() -> None:
    calls = lesson_calls()
    assert {name for name, _ in calls} == set(FIGURES)
    assert ("sine_waves", {"d": 64, "columns": (0, 2, 8, 16), "n": 100}) in calls


def test_a_title_on_a_curve_or_a_heatmap_is_reported() -> None:
    with style():
        fig = new_figure(4.8, 3.0)
        left, right = fig.subplots(1, 2)
        t = np.linspace(0, 10, 200)
        left.plot(t, np.sin(t), label="sine")
        left.set_ylim(-1.05, 1.05)
        left.set_title("on the peaks", y=0.93)
        right.imshow(np.eye(3))
        right.set_title("on the cells", y=0.9)
        right.set_title("clear", loc="left", y=1.2)
    found = overlaps(fig)
    assert "title 'on the peaks' overlaps line 'sine'" in found
    assert "title 'on the cells' overlaps AxesImage" in found
    assert not [f for f in found if f.startswith("title 'clear'")]


def test_a_text_off_the_figure_is_reported() -> None:
    with style():
        fig = new_figure(2.0, 1.5)
        ax = fig.add_subplot()
        ax.set_title("a title far too long for a figure this narrow", loc="left")
        ax.set_xlabel("fits")
    assert off_the_figure(fig) == ["a title far too long for a figure this narrow"]
