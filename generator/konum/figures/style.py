"""konum's look for matplotlib figures, and the drawing helpers the figures share.

Text, axes, ticks and grid are drawn in a sentinel colour (:data:`INK`) that the SVG step
rewrites to ``currentColor``, so a figure follows the page's text colour in Material's light
and dark palettes. Backgrounds are transparent; line colours are of middle lightness (readable
on white and on the dark slate); colormaps are viridis and coolwarm, whose cells are opaque
and carry their own contrast.

Sizes are chosen for a phone: figures are :data:`WIDTH` inches wide with :data:`FONT` /
:data:`SMALL` point text, so text stays at least 10 px when the SVG shrinks to a 358 px column
and about 13 to 15 px at natural size on a desktop. Legends and colour bars sit below the
axes; panels stack when side by side they would not fit. Figures are built without pyplot
(no global state, no GUI backend) under :func:`style`.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any, Literal, cast

import numpy as np
from cycler import cycler
from numpy.typing import NDArray

# matplotlib is imported where a figure is drawn: a site without figures never loads it.
if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.colors import Colormap
    from matplotlib.figure import Figure
    from matplotlib.image import AxesImage

FloatArray = NDArray[np.float64]

#: Sentinel colour for text, axes, ticks and grid; :func:`konum.figures.svg.clean_svg` makes it
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

#: Gap in points between an axes' top and its title's baseline: the title's descenders, and
#: the page's font (which replaces matplotlib's, with other metrics), stay clear of the data.
TITLE_PAD = 8.0

_RC: dict[str, Any] = {
    "svg.fonttype": "none",
    "svg.image_inline": True,
    "font.family": "sans-serif",
    "font.size": FONT,
    "axes.titlesize": FONT,
    "axes.titlepad": TITLE_PAD,
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


def style(salt: str | None = None) -> AbstractContextManager[None]:
    """konum's matplotlib settings (plus the SVG id salt when saving)."""
    import matplotlib

    rc: dict[str, Any] = {**_RC, "svg.hashsalt": salt} if salt else dict(_RC)
    return cast(AbstractContextManager[None], matplotlib.rc_context(cast(Any, rc)))


def new_figure(
    width: float, height: float, layout: Literal["constrained", "compressed"] = "constrained"
) -> Figure:
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), layout=layout)


def colormap(name: str) -> Colormap:
    import matplotlib

    # Masked cells are transparent: the page shows through.
    return matplotlib.colormaps[name].with_extremes(bad=(0.0, 0.0, 0.0, 0.0))


def heat(
    ax: Axes, values: FloatArray, cmap: Colormap | str, vmin: float, vmax: float, **kw: Any
) -> AxesImage:
    cm = colormap(cmap) if isinstance(cmap, str) else cmap
    return ax.imshow(
        values, cmap=cm, vmin=vmin, vmax=vmax, interpolation="none", aspect="auto", **kw
    )


def annotate(
    ax: Axes, image: AxesImage, values: NDArray[Any], fmt: str, size: float, top: int = 0
) -> None:
    """Write each cell's value in black or white, whichever contrasts with the cell.

    ``values[i, j]`` is written at ``(j, top + i)``: ``top`` places a strip drawn on its own.
    """
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
        ax.text(j, top + i, text, ha="center", va="center", fontsize=size, color=colour)


def int_ticks(ax: Axes, nbins: int = 5) -> None:
    """At most ``nbins`` integer ticks per axis: enough to read a cell, few enough to fit."""
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(nbins, integer=True))
    ax.yaxis.set_major_locator(MaxNLocator(nbins, integer=True))


def below(fig: Figure, image: AxesImage, axes: list[Axes], label: str) -> None:
    """A horizontal colour bar under ``axes``: costs height, not the width a phone lacks."""
    from matplotlib.ticker import MaxNLocator

    bar = fig.colorbar(
        image, ax=axes, orientation="horizontal", label=label, shrink=0.75, aspect=30, pad=0.03
    )
    bar.ax.xaxis.set_major_locator(MaxNLocator(5))
