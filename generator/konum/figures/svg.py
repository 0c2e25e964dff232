"""matplotlib's SVG made into the inline SVG a page carries.

:func:`clean_svg` drops the XML prolog, comments, metadata, the global ``<style>`` (whose
``*{...}`` rule would leak into the page) and the font family (text takes the page's font);
rewrites :data:`~konum.figures.style.INK` to ``currentColor``; keeps only the ``id``
attributes something refers to (``figure_1``, ``axes_1``, ... would clash between two figures
on one page); rounds coordinates to 1/100 pt and writes paths with relative steps
(:func:`relative_path`); writes raster images (heatmaps) as the smallest PNG of the same
pixels (:func:`smallest_png`); flattens matplotlib's bare ``<g>`` nesting;
and gives the root a ``viewBox``, ``role="img"``, an ``aria-label`` and ``<title>`` from the
alt text, and a CSS width of its natural size capped at the column.

:func:`localize_text` writes the numbers of a figure's text (ticks, labels, cell values) in a
page language's marks: with ``svg.fonttype: none`` every text is a real ``<text>``.
"""

from __future__ import annotations

import base64
import html
import io
import re
from typing import TYPE_CHECKING

from konum.figures.style import INK, style
from konum.formatting import number_marks

if TYPE_CHECKING:
    from matplotlib.figure import Figure

_XML_HEAD = re.compile(r"\A.*?(?=<svg\b)", re.S)
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_METADATA = re.compile(r"\s*<metadata>.*?</metadata>", re.S)
_STYLE = re.compile(r"\s*<style[^>]*>.*?</style>", re.S)
_EMPTY_DEFS = re.compile(r"<defs>\s*</defs>")
_FONT_FAMILY = re.compile(r"font-family: [^;\"]*(; )?")
#: The smallest text a figure shows, in CSS px: on a phone a figure stops shrinking at the
#: width where its smallest label is this size, and its box scrolls (issue 42).
SMALLEST_TEXT_PX = 11
_NO_ROTATE = re.compile(r' transform="rotate\(-0 [^"]*\)"')
_GEOMETRY = re.compile(r'( (?:d|x|y|width|height|transform)=")([^"]*)"')
_LONG_NUMBER = re.compile(r"-?\d+\.\d{3,}")
_REFERENCE = re.compile(r'(?:url\(#|href="#)([^")]+)')
_ID = re.compile(r' id="([^"]+)"')
_BLANK = re.compile(r">\s+<")
_PATH_DATA = re.compile(r' d="([^"]*)"')
_PNG_URI = re.compile(r'(href=")data:image/png;base64,([^"]*)"')
_PATH_TOKEN = re.compile(r"[A-Za-z]|-?\d+(?:\.\d+)?")
#: How many numbers each of matplotlib's path commands takes.
_ARITY = {"M": 2, "L": 2, "Q": 4, "C": 6, "z": 0}
_G_TAG = re.compile(r"<g\b[^>]*?/>|<g\b[^>]*>|</g>")
_USE_RUN = re.compile(r'(?:<use [^>]*? style="([^"]*)"/>)(?:<use [^>]*? style="\1"/>)+')
_USE_STYLE = re.compile(r' style="[^"]*"')
_ROOT = re.compile(r"<svg\b[^>]*>")
_VIEWBOX = re.compile(r'viewBox="([^"]+)"')
_TEXT = re.compile(r"(<text\b[^>]*>)(.*?)(</text>)", re.S)
_TAG = re.compile(r"(<[^>]*>)")
#: A mark between digits: Python's decimal point or digit-group comma.
_NUMBER_MARK = re.compile(r"(?<=\d)[.,](?=\d)")


def _short_number(match: re.Match[str]) -> str:
    text = f"{float(match.group(0)):.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _round_geometry(match: re.Match[str]) -> str:
    """Coordinates to 1/100 pt (about 1/75 px): half the bytes, no visible change."""
    value = " ".join(match.group(2).split())
    return f'{match.group(1)}{_LONG_NUMBER.sub(_short_number, value)}"'


def _hundredths(value: int) -> str:
    """``value`` hundredths as the shortest SVG number: ``-.5``, ``12.3``, ``0``."""
    whole, part = divmod(abs(value), 100)
    text = f"{whole}.{part:02d}".rstrip("0").rstrip(".").removeprefix("0")
    return ("-" if value < 0 else "") + (text or "0")


def relative_path(d: str) -> str:
    """matplotlib's path data (absolute ``M L Q C z`` on numbers with at most two decimals)
    as the same path in relative steps: each point as its step from the one before, in
    whole hundredths, so the points are where they were; a command letter only where it
    changes, and no separator before a sign or a second decimal point. Other data (already
    short, or from elsewhere) is returned as it is."""
    tokens = _PATH_TOKEN.findall(d)
    if not tokens or tokens[0] != "M" or any(t.isalpha() and t not in _ARITY for t in tokens):
        return d
    out: list[str] = []
    last = ""  # the last command letter or number written
    x = y = start_x = start_y = 0
    implied = ""  # the command a run of numbers continues without its letter
    i = 0
    while i < len(tokens):
        command, n = tokens[i], _ARITY[tokens[i]]
        values = [round(float(v) * 100) for v in tokens[i + 1 : i + 1 + n]]
        i += 1 + n
        if command == "z":
            out.append(last := "z")
            x, y, implied = start_x, start_y, ""
            continue
        letter = command.lower()
        if letter != implied:
            out.append(last := letter)
        for k, value in enumerate(values):
            step = _hundredths(value - (x if k % 2 == 0 else y))
            glued = last.isalpha() or step[0] == "-" or (step[0] == "." and "." in last)
            out.append(step if glued else " " + step)
            last = step
        x, y = values[-2], values[-1]
        if command == "M":
            start_x, start_y, implied = x, y, "l"
        else:
            implied = letter
    return "".join(out)


def smallest_png(data: bytes) -> bytes:
    """``data`` (a PNG) as the fewest bytes Pillow writes the same pixels in: indexed colour
    when there are at most 256 colours (a heatmap's colour map has 256), else optimised
    RGBA; ``data`` itself when neither is smaller. Every pixel keeps its colour and alpha."""
    import numpy as np
    from PIL import Image

    with Image.open(io.BytesIO(data)) as image:
        pixels = np.asarray(image.convert("RGBA"))
    colours, index = np.unique(pixels.reshape(-1, 4), axis=0, return_inverse=True)
    if len(colours) <= 256:
        smaller = Image.fromarray(index.reshape(pixels.shape[:2]).astype(np.uint8), "P")
        smaller.putpalette(colours[:, :3].tobytes())
        alpha = colours[:, 3]
        options = {} if (alpha == 255).all() else {"transparency": alpha.tobytes()}
    else:
        smaller, options = Image.fromarray(pixels, "RGBA"), {}
    buffer = io.BytesIO()
    smaller.save(buffer, format="png", optimize=True, **options)
    return min(data, buffer.getvalue(), key=len)


def _smaller_image(match: re.Match[str]) -> str:
    png = smallest_png(base64.b64decode(match.group(2)))
    return f'{match.group(1)}data:image/png;base64,{base64.b64encode(png).decode("ascii")}"'


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


def svg_text(fig: Figure, salt: str) -> str:
    """matplotlib's SVG of ``fig``, its ids salted with ``salt``, no date written."""
    buffer = io.StringIO()
    with style(salt):
        fig.savefig(buffer, format="svg", metadata={"Date": None}, transparent=True)
    return buffer.getvalue()


def clean_svg(svg: str, alt: str) -> str:
    """Make matplotlib's SVG inline-ready: no prolog, no stray ids, currentColor, scalable."""
    svg = _XML_HEAD.sub("", svg, count=1)
    svg = _COMMENT.sub("", svg)
    svg = _METADATA.sub("", svg)
    svg = _STYLE.sub("", svg)  # its global "*{...}" rule would leak into the page
    svg = _FONT_FAMILY.sub("", svg)  # inherit the page's font
    svg = _NO_ROTATE.sub("", svg)
    svg = _GEOMETRY.sub(_round_geometry, svg)
    svg = _PATH_DATA.sub(lambda m: f' d="{relative_path(m.group(1))}"', svg)
    svg = _PNG_URI.sub(_smaller_image, svg)
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
    # Font sizes are in the viewBox's units: the smallest is SMALLEST_TEXT_PX at this width.
    sizes = [float(size) for size in re.findall(r"font-size: ?([0-9.]+)px", svg)] or [width]
    least = f"min-width:{SMALLEST_TEXT_PX * width / min(sizes) + 0.5:.0f}px;"
    new_root = (
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        f'viewBox="{viewbox.group(1)}" role="img" aria-label="{label}" '
        f'style="width:{width * 4 / 3:.0f}px;max-width:100%;{least}height:auto;'
        'stroke-linejoin:round;stroke-linecap:butt">'
        f"<title>{html.escape(alt, quote=False)}</title>"
    )
    return svg[: root.start()] + new_root + svg[root.end() :].strip()


def localize_text(svg: str, language: str) -> str:
    """``svg`` with the numbers in its ``<text>`` written in ``language``'s marks.

    The figures print numbers in Python's form (``0.5``, ``8,192``); in Turkish these become
    ``0,5`` and ``8.192`` (:func:`~konum.formatting.number_marks`). Only text between tags
    changes, never an attribute. English is returned as is.
    """
    marks = dict(zip(".,", number_marks(language), strict=True))
    if marks == {".": ".", ",": ","}:
        return svg

    def number(match: re.Match[str]) -> str:
        return marks[match.group(0)]

    def text(match: re.Match[str]) -> str:
        parts = _TAG.split(match.group(2))
        parts[::2] = [_NUMBER_MARK.sub(number, part) for part in parts[::2]]
        return match.group(1) + "".join(parts) + match.group(3)

    return _TEXT.sub(text, svg)
