"""Lesson figures: matplotlib drawings of numbers from :mod:`konum.pe`, as inline SVG.

A lesson page inlines one with ``{{ figure("pe_heatmap", alt="...", n=64, d=64) }}``, a
question with its ``figure`` field; both call :func:`render_svg`. The package has one module
per concern:

* :mod:`~konum.figures.catalogue`: one class per figure (parameters, data, drawing), in
  :data:`FIGURES`;
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

from konum.figures.base import Data, FigureError
from konum.figures.catalogue import FIGURES
from konum.figures.style import INK, PALETTE
from konum.figures.svg import clean_svg, localize_text, svg_text
from konum.formatting import did_you_mean

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

#: Size budget of one rendered SVG, in bytes (tests hold every default figure to it).
SIZE_BUDGET = 60_000


def _known(name: object) -> str:
    if not isinstance(name, str) or name not in FIGURES:
        names = sorted(FIGURES)
        hint = did_you_mean(name, names, cutoff=0.5) if isinstance(name, str) else ""
        raise FigureError(f"unknown figure {name!r}{hint} (known figures: {', '.join(names)})")
    return name


def figure_params(name: str) -> dict[str, tuple[object, str]]:
    """The parameters of figure ``name``: ``{param: (default, description)}``."""
    figure = FIGURES[_known(name)]
    defaults = figure.defaults()
    return {key: (defaults[key], spec.doc) for key, spec in figure.params.items()}


def figure_data(name: str, **params: object) -> Data:
    """The arrays figure ``name`` draws for ``params`` (defaults filled in), from the core.

    Raises:
        FigureError: unknown figure or bad parameter.
    """
    return FIGURES[_known(name)].compute(params)[1]


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
    name: str,
    alt: str,
    caption: str | None,
    frozen: tuple[tuple[str, object], ...],
    language: str,
) -> str:
    # Cached: pages, cards and exports show the same figures, and matplotlib is slow.
    salt = "konum:" + hashlib.blake2b(repr((name, frozen)).encode(), digest_size=6).hexdigest()
    drawn = FIGURES[name](language=language, **dict(frozen))
    svg = localize_text(clean_svg(svg_text(drawn, salt), alt), language)
    caption_html = (
        f"<figcaption>{html.escape(caption, quote=False)}</figcaption>" if caption else ""
    )
    return f'<figure class="konum-figure">{svg}{caption_html}</figure>'


def render_svg(
    name: str, alt: str, caption: str | None = None, *, language: str = "en", **params: object
) -> str:
    """Render figure ``name`` as ``<figure class="konum-figure"><svg role="img" ...>``.

    The SVG has no XML prolog, a ``<title>`` and ``aria-label`` from ``alt``, a ``viewBox``,
    no width or height attributes but a CSS width of its natural size (1 pt = 4/3 px) capped
    at the column width (``max-width: 100%``), so it shrinks on a phone; text and axes in
    ``currentColor`` and a transparent background. ``caption`` (plain text, escaped) becomes
    the ``<figcaption>``. The figure's own words (axis labels, titles, legends) and the marks
    of its numbers are ``language``'s, as are, by the caller, ``alt`` and ``caption``. Results
    are cached: the same call returns the same string.

    Args:
        name: A key of :data:`FIGURES`.
        alt: Text alternative for screen readers: what the figure shows. Required.
        caption: Optional visible caption, plain text.
        language: The page's language, one of :data:`konum.messages.LANGUAGES`.
        **params: The figure's parameters (see :func:`figure_params`); lists may be given for
            tuple parameters.

    Returns:
        One line of HTML.

    Raises:
        FigureError: unknown figure or language, empty ``alt`` or a bad parameter.
    """
    FIGURES[_known(name)].labels(language)  # checks the language
    if not isinstance(alt, str) or not alt.strip():
        raise FigureError(f"figure {name!r}: alt text is required (describe what it shows)")
    if caption is not None and not isinstance(caption, str):
        raise FigureError(f"figure {name!r}: caption must be text, got {caption!r}")
    frozen = tuple(sorted((key, _freeze(value)) for key, value in params.items()))
    FIGURES[name].checked(dict(frozen))  # fail early, before the cache, with a clear message
    return _render_cached(name, alt.strip(), caption, frozen, language)
