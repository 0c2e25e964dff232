"""Figures: matplotlib drawings of computed numbers, as inline SVG.

The figures themselves come from plugins (:mod:`konum.plugins`). A page inlines one with
``{{ figure("orbits", alt="...", radii=[1, 2]) }}``,
a question with its ``figure`` field; both call :func:`render_svg`. The package has one module
per concern:

* :mod:`~konum.figures.base`: what a figure is, and its parameter checks (the computed
  generators' parameter specs);
* :mod:`~konum.figures.style`: the look (colours, sizes, shared drawing helpers);
* :mod:`~konum.figures.svg`: matplotlib's SVG made into the page's inline SVG.

Output is deterministic: ``svg.hashsalt`` is derived from the figure and its parameters and
no date is written. Unknown figures and bad parameters raise :class:`FigureError` (a
:class:`ValueError`) naming the figure and the parameter, with a "did you mean" suggestion for
misspellings.
"""

from __future__ import annotations

import functools
import hashlib
import html

import numpy as np

from konum.figures.base import Data, FigureError, Label, LessonFigure, Params
from konum.figures.style import INK, PALETTE
from konum.figures.svg import clean_svg, localize_text, svg_text

__all__ = [
    "INK",
    "PALETTE",
    "SIZE_BUDGET",
    "Data",
    "FigureError",
    "Label",
    "LessonFigure",
    "Params",
    "figure_data",
    "figure_file",
    "figure_params",
    "render_svg",
]

#: Size budget of one rendered SVG, in bytes (tests hold every default figure to it).
SIZE_BUDGET = 60_000


def figure_params(figure: LessonFigure) -> dict[str, tuple[object, str]]:
    """The parameters of ``figure``: ``{param: (default, description)}``."""
    defaults = figure.defaults()
    return {key: (defaults[key], spec.doc) for key, spec in figure.params.items()}


def figure_data(figure: LessonFigure, **params: object) -> Data:
    """The arrays ``figure`` draws for ``params`` (defaults filled in).

    Raises:
        FigureError: a bad parameter.
    """
    return figure.compute(params)[1]


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


@functools.lru_cache(maxsize=128)
def _render_cached(
    figure: LessonFigure,
    alt: str,
    caption: str | None,
    frozen: tuple[tuple[str, object], ...],
    language: str,
) -> str:
    # Cached: pages, cards and exports show the same figures, and matplotlib is slow.
    digest = hashlib.blake2b(repr((figure.name, frozen)).encode(), digest_size=6).hexdigest()
    salt = "konum:" + digest
    drawn = figure(language=language, **dict(frozen))
    svg = localize_text(clean_svg(svg_text(drawn, salt), alt), language)
    caption_html = (
        f"<figcaption>{html.escape(caption, quote=False)}</figcaption>" if caption else ""
    )
    return f'<figure class="konum-figure">{svg}{caption_html}</figure>'


def render_svg(
    figure: LessonFigure,
    alt: str,
    caption: str | None = None,
    *,
    language: str = "en",
    **params: object,
) -> str:
    """Render ``figure`` as ``<figure class="konum-figure"><svg role="img" ...>``.

    The SVG has no XML prolog, a ``<title>`` and ``aria-label`` from ``alt``, a ``viewBox``,
    no width or height attributes but a CSS width of its natural size (1 pt = 4/3 px) capped
    at the column width (``max-width: 100%``), so it shrinks on a phone, but not below the
    width at which its smallest text is 11 px (``min-width``; the page's stylesheet lets the
    figure scroll sideways in a narrower column); text and axes in
    ``currentColor`` and a transparent background. ``caption`` (plain text, escaped) becomes
    the ``<figcaption>``. The figure's own words (axis labels, titles, legends) and the marks
    of its numbers are ``language``'s, as are, by the caller, ``alt`` and ``caption``. Results
    are cached: the same call returns the same string.

    Args:
        figure: A plugin's figure (:meth:`konum.plugins.Plugins.figure` finds it by name).
        alt: Text alternative for screen readers: what the figure shows. Required.
        caption: Optional visible caption, plain text.
        language: The page's language, one of :data:`konum.messages.LANGUAGES`.
        **params: The figure's parameters (see :func:`figure_params`); lists may be given for
            tuple parameters.

    Returns:
        One line of HTML.

    Raises:
        FigureError: an unknown language, empty ``alt`` or a bad parameter.
    """
    name = figure.name
    figure.labels(language)  # checks the language
    if not isinstance(alt, str) or not alt.strip():
        raise FigureError(f"figure {name!r}: alt text is required (describe what it shows)")
    if caption is not None and not isinstance(caption, str):
        raise FigureError(f"figure {name!r}: caption must be text, got {caption!r}")
    frozen = tuple(sorted((key, _freeze(value)) for key, value in params.items()))
    figure.checked(dict(frozen))  # fail early, before the cache, with a clear message
    return _render_cached(figure, alt.strip(), caption, frozen, language)


def figure_file(
    figure: LessonFigure,
    alt: str,
    caption: str | None = None,
    *,
    language: str = "en",
    **params: object,
) -> tuple[str, bytes]:
    """``figure`` as a standalone SVG file for a card or an LMS: its name (after its
    content) and its bytes.

    Shown through ``<img>``, where the page's text colour does not reach, so
    ``currentColor`` becomes a mid grey that reads on light and dark card themes.
    """
    markup = render_svg(figure, alt, caption, language=language, **params)
    svg = markup[markup.index("<svg") : markup.rindex("</svg>") + len("</svg>")]
    if "xmlns=" not in svg[: svg.index(">")]:
        svg = svg.replace("<svg", '<svg xmlns="http://www.w3.org/2000/svg"', 1)
    data = svg.replace("currentColor", "#808080").encode("utf-8")
    return f"konum-{figure.name}-{hashlib.sha256(data).hexdigest()[:12]}.svg", data
