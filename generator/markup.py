"""Markdown from banks to safe HTML, with the same extensions as the site.

Bank text is author input: after Markdown it goes through an nh3 allow-list, so no script, no
event handler and no ``javascript:`` link reaches a page or a card, whatever the bank says.
MathML elements are on the allow-list (the site's math is rendered at build time).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Literal

import markdown
import nh3

MathMode = Literal["mathml", "anki"]

_MATHML_TAGS = {
    "math",
    "mrow",
    "mi",
    "mn",
    "mo",
    "ms",
    "mtext",
    "mspace",
    "msup",
    "msub",
    "msubsup",
    "mfrac",
    "msqrt",
    "mroot",
    "mstyle",
    "mtable",
    "mtr",
    "mtd",
    "munder",
    "mover",
    "munderover",
    "mpadded",
    "mphantom",
    "menclose",
    "semantics",
    "annotation",
    "mfenced",
}
_MATHML_ATTRIBUTES = {
    "xmlns",
    "display",
    "alttext",
    "mathvariant",
    "stretchy",
    "fence",
    "separator",
    "lspace",
    "rspace",
    "columnalign",
    "rowalign",
    "columnspacing",
    "rowspacing",
    "columnlines",
    "rowlines",
    "accent",
    "accentunder",
    "movablelimits",
    "width",
    "height",
    "depth",
    "linethickness",
    "notation",
    "encoding",
    "displaystyle",
    "scriptlevel",
    "minsize",
    "maxsize",
    "symmetric",
    "open",
    "close",
    "separators",
    "frame",
    "framespacing",
}
ALLOWED_TAGS = (
    nh3.ALLOWED_TAGS | _MATHML_TAGS | {"span", "div", "pre", "code", "kbd", "sub", "sup", "mark"}
) - {"img"}
ALLOWED_ATTRIBUTES: dict[str, set[str]] = {
    **{tag: set(attrs) for tag, attrs in nh3.ALLOWED_ATTRIBUTES.items()},
    **{tag: set(_MATHML_ATTRIBUTES) for tag in _MATHML_TAGS},
    "span": {"class"},
    "div": {"class"},
    "pre": {"class"},
    "code": {"class"},
    "table": {"class"},
    "th": {"align", "style"},
    "td": {"align", "style"},
}
URL_SCHEMES = {"http", "https", "mailto"}

_PARAGRAPH = re.compile(r"\A<p>(.*)</p>\Z", re.DOTALL)
# Text with none of these characters renders to itself, escaped: the common case in banks.
_MARKDOWN_SYNTAX = re.compile(r"[\\`*_\[\]<>&$#|!~\n=+-]|^\s|^\d+\.|\s$")


def _extensions(math: MathMode) -> tuple[list[object], dict[str, dict[str, object]]]:
    from generator.mdx.math import MathExtension

    extensions: list[object] = [
        "tables",
        "pymdownx.superfences",
        "pymdownx.highlight",
        "pymdownx.inlinehilite",
        "pymdownx.betterem",
        MathExtension(mode=math),
    ]
    configs: dict[str, dict[str, object]] = {
        "pymdownx.highlight": {"use_pygments": True, "guess_lang": False},
    }
    return extensions, configs


@lru_cache(maxsize=2)
def _converter(math: MathMode) -> markdown.Markdown:
    extensions, configs = _extensions(math)
    return markdown.Markdown(extensions=extensions, extension_configs=configs)  # type: ignore[arg-type]


def sanitise(html: str) -> str:
    """Keep only allow-listed tags and attributes; drop scripts and their content."""
    return nh3.clean(
        html,
        tags=ALLOWED_TAGS,
        attributes=ALLOWED_ATTRIBUTES,
        url_schemes=URL_SCHEMES,
        clean_content_tags={"script", "style"},
        link_rel="noopener noreferrer",
    )


def render_markdown(text: str, *, inline: bool = False, math: MathMode = "mathml") -> str:
    """Render bank Markdown (with ``$math$`` and code) to sanitised HTML.

    Args:
        text: Markdown source as written in a bank.
        inline: unwrap a single paragraph (for option texts, table cells, labels).
        math: ``"mathml"`` for the site, ``"anki"`` for ``\\( \\)`` delimiters on cards.

    Raises:
        generator.mdx.math.MathError: the LaTeX in the text cannot be rendered.
    """
    if not _MARKDOWN_SYNTAX.search(text):
        escaped = text.replace('"', "&quot;")
        return escaped if inline else f"<p>{escaped}</p>"
    md = _converter(math)
    md.reset()
    html = sanitise(md.convert(text))
    if inline:
        m = _PARAGRAPH.match(html)
        if m and "<p>" not in m.group(1):
            return m.group(1)
    return html
