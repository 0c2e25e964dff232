"""Markdown from banks to safe HTML, with the same extensions as the site.

Bank text is author input: after Markdown it goes through an nh3 allow-list, so no script, no
event handler and no ``javascript:`` link reaches a page or a card, whatever the bank says.
MathML elements are on the allow-list (the site's math is rendered at build time).
"""

from __future__ import annotations

import re
from functools import lru_cache
from html import escape as html_escape
from typing import Literal

import markdown
import nh3

from konum.mdx.math import DISPLAY_BLOCK_RE, INLINE_MATH, MathExtension, tex_to_html

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
    "form",
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
# Outside math, a paragraph with none of these renders to itself: the common case in banks.
# Line-level syntax (headings, lists, quotes, code indents) only counts at its start.
_INLINE_SYNTAX = re.compile(r"[\\`*_\[\]<>&!|~\n\t]")
# A sign or a number starts no list ("-0.25", "3.14" are text; "- a", "1. a" are lists).
_BLOCK_START = re.compile(r"^(?:\s|[#>=*]|[+-](?!\d)|\d+[.)](?!\S))")
_CODE_SPAN = re.compile(r"(?<![`\\])`(?P<code>[^`]+)`(?!`)")
_BLANK_LINES = re.compile(r"\n[ \t]*\n\s*")


def _extensions(math: MathMode) -> tuple[list[object], dict[str, dict[str, object]]]:
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


@lru_cache(maxsize=1)
def _cleaner() -> nh3.Cleaner:
    # Built once: nh3.clean() would convert the allow-lists on every call.
    return nh3.Cleaner(
        tags=ALLOWED_TAGS,
        attributes=ALLOWED_ATTRIBUTES,
        url_schemes=URL_SCHEMES,
        clean_content_tags={"script", "style"},
        link_rel="noopener noreferrer",
    )


def sanitise(html: str) -> str:
    """Keep only allow-listed tags and attributes; drop scripts and their content."""
    return _cleaner().clean(html)


@lru_cache(maxsize=8192)
def _math(tex: str, display: bool, math: MathMode) -> str:
    """One formula, rendered and sanitised once per build however often it appears."""
    markup = tex_to_html(tex, display=display, mode=math)
    return sanitise(markup) if math == "mathml" else markup


_Part = str | tuple[str, bool]  # plain HTML, or a formula: (TeX, display)
#: How a fast paragraph is wrapped: "display" (one display formula on its own), "lone"
#: (one inline formula, unwrapped by Markdown in MathML mode) or "paragraph".
_Plan = tuple[str, tuple[_Part, ...]]


def _fast_inline(text: str) -> list[_Part] | None:
    """Plain text with ``$math$`` as parts, or None when it holds other Markdown."""
    if "`" in text:  # a backtick left over from the code spans: Markdown's rules, not ours
        return None
    parts: list[_Part] = []
    end = 0
    for m in INLINE_MATH.finditer(text):
        parts.append(text[end : m.start()])
        parts.append((m.group("tex"), m.group("delim") == "$$"))
        end = m.end()
    parts.append(text[end:])
    if any(isinstance(part, str) and _INLINE_SYNTAX.search(part) for part in parts):
        return None
    return parts


@lru_cache(maxsize=32768)
def _fast_plan(paragraph: str) -> _Plan | None:
    """How a paragraph of plain text, ``code`` and ``$math$`` becomes HTML in either math
    mode, or None when it needs Markdown. Code spans are taken first, as Python-Markdown
    does (backticks outrank math). Cached apart from the math mode, which only changes how
    formulas and a lone display formula are written: the site's texts and the flashcards'
    share the work."""
    whole = DISPLAY_BLOCK_RE.fullmatch(paragraph)
    if whole and not whole.group("indent") and "\n" not in paragraph:
        return ("display", ((whole.group("tex"), True),))
    if "\n" in paragraph or _BLOCK_START.match(paragraph) or paragraph[-1].isspace():
        return None
    parts: list[_Part] = []
    end = 0
    for m in _CODE_SPAN.finditer(paragraph):
        before = _fast_inline(paragraph[end : m.start()])
        code = m.group("code").strip()
        if before is None or not code:
            return None
        parts += before
        parts.append(f"<code>{html_escape(code, quote=False)}</code>")
        end = m.end()
    rest = _fast_inline(paragraph[end:])
    if rest is None:
        return None
    parts += rest
    lone = len(parts) == 3 and parts[0] == parts[2] == "" and not isinstance(parts[1], str)
    kind = "lone" if lone else "paragraph"
    return (kind, tuple(parts))


def _fast_paragraph(paragraph: str, math: MathMode) -> str | None:
    """A paragraph of plain text, ``code`` and ``$math$`` as HTML, or None when it needs
    Markdown (see :func:`_fast_plan`)."""
    plan = _fast_plan(paragraph)
    if plan is None:
        return None
    kind, parts = plan
    if kind == "display":
        formula_part = parts[0]
        assert not isinstance(formula_part, str)
        tex = formula_part[0]
        formula = _math(tex, True, math)
        return (
            f'<div class="konum-math">{formula}</div>' if math == "mathml" else f"<p>{formula}</p>"
        )
    inner = "".join(part if isinstance(part, str) else _math(*part, math) for part in parts)
    if math == "mathml" and kind == "lone":
        return inner  # Markdown unwraps a paragraph that is one block-level <math>
    return f"<p>{inner}</p>"


def render_markdown(text: str, *, inline: bool = False, math: MathMode = "mathml") -> str:
    """Render bank Markdown (with ``$math$`` and code) to sanitised HTML.

    Pure and cached: the same text is rendered once per build (quiz pages and flashcards
    share it). Paragraphs of plain text and math take a fast path that gives the same HTML
    as Markdown would (a property test holds the two together).

    Args:
        text: Markdown source as written in a bank.
        inline: unwrap a single paragraph (for option texts, table cells, labels).
        math: ``"mathml"`` for the site, ``"anki"`` for ``\\( \\)`` delimiters on cards.

    Raises:
        konum.mdx.math.MathError: the LaTeX in the text cannot be rendered.
    """
    # One cache key however the arguments are spelt (lru_cache keys on the spelling).
    return _render_markdown(text, inline, math)


@lru_cache(maxsize=16384)
def _render_markdown(text: str, inline: bool, math: MathMode) -> str:
    paragraphs = [p for p in _BLANK_LINES.split(text.strip("\n")) if p]
    fast = [_fast_paragraph(p, math) for p in paragraphs]
    if paragraphs and all(html is not None for html in fast):
        html = "\n".join(h for h in fast if h is not None)
    else:
        html = markdown_html(text, math)
    if inline:
        m = _PARAGRAPH.match(html)
        if m and "<p>" not in m.group(1):
            return m.group(1)
    return html


def markdown_html(text: str, math: MathMode = "mathml") -> str:
    """Full Python-Markdown rendering and sanitising (the slow path of render_markdown)."""
    md = _converter(math)
    md.reset()
    return sanitise(md.convert(text))
