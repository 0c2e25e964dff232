"""Markdown from banks to safe HTML, with the same extensions as the site: each text once.

Bank text is author input. Python-Markdown renders it (tables, superfences, highlighting,
betterem and konum's math), then an nh3 allow-list cleans the result, so no script, no event
handler, no ``style``, no ``javascript:`` link and no class of konum's or Material's own
(``konum-*``, ``md-*``) reaches a page or a card, whatever the bank says; an ``<img>`` keeps
its source only when it is a reference to a checked image (:mod:`konum.images`), which the
output that shows it turns into a ``data:`` URI or a file. Computed prompts come here after
their template ran, so what a template assembles is cleaned too.

Every output of a text comes from one conversion (:func:`render_text`): Markdown leaves a
placeholder where each formula is, and each output fills in the formulas as it shows them,
MathML for pages (:func:`konum.math.tex_to_html`, itself cleaned by the same allow-list) or
MathJax's ``\\( \\)`` for Anki and the LMS exports.

This module is also where what bank text may hold is written down: :data:`AUTHOR_TAGS`,
:data:`ALLOWED_ATTRIBUTES`, :data:`URL_SCHEMES`, :func:`reserved_class` and the limits below.
``konum check`` (:mod:`konum.htmlcheck`) reports, at the line it was written, whatever
:func:`sanitise` would drop, and whatever exceeds a limit.

Limits per text, so that Markdown's work stays bounded (Python-Markdown recurses on nested
blocks, and scans the rest of the text again for each ``[`` or link ``(`` left open):
:data:`konum.limits.TEXT_CHARS` characters; :data:`konum.limits.TEXT_NESTING` levels of
nested lists and quotes, of open ``[``, of open ``(`` and of HTML elements;
:data:`konum.limits.TEXT_TAGS` HTML tags. Code and math do
not count for brackets and tags (Markdown sets them apart before it looks for links and HTML).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

import markdown
import nh3

from konum import images, limits
from konum.math import MathError, MathExtension, tex_to_html

MathMode = Literal["mathml", "anki"]

#: Tags an author may write in a bank.
AUTHOR_TAGS = frozenset(
    """a abbr b bdi bdo blockquote br caption cite code dd del details dfn div dl dt em
    figcaption figure h1 h2 h3 h4 h5 h6 hr i img ins kbd li mark ol p pre q s samp small span
    strong sub summary sup table tbody td tfoot th thead tr u ul var wbr""".split()  # noqa: SIM905
)
#: MathML elements and attributes: what the math extension writes (authors write ``$...$``).
MATHML_TAGS = frozenset(
    """math mrow mi mn mo ms mtext mspace msup msub msubsup mfrac msqrt mroot mstyle mtable
    mtr mtd munder mover munderover mpadded mphantom menclose semantics annotation
    mfenced""".split()  # noqa: SIM905
)
MATHML_ATTRIBUTES = frozenset(
    """xmlns display alttext mathvariant stretchy fence form separator lspace rspace
    columnalign rowalign columnspacing rowspacing columnlines rowlines accent accentunder
    movablelimits width height depth linethickness notation encoding displaystyle
    scriptlevel minsize maxsize symmetric open close separators frame framespacing""".split()  # noqa: SIM905
)
ALLOWED_TAGS = AUTHOR_TAGS | MATHML_TAGS
#: Attributes kept on every allowed tag.
GENERIC_ATTRIBUTES = frozenset({"lang", "title"})
#: Attributes kept per tag: nh3's defaults (no ``style`` anywhere), ``class`` where the
#: Markdown extensions write one (checked by :func:`reserved_class`), and MathML's.
ALLOWED_ATTRIBUTES: dict[str, frozenset[str]] = {
    **{
        tag: frozenset(attrs) for tag, attrs in nh3.ALLOWED_ATTRIBUTES.items() if tag in AUTHOR_TAGS
    },
    **dict.fromkeys(MATHML_TAGS, MATHML_ATTRIBUTES),
    **{tag: frozenset({"class"}) for tag in ("span", "div", "pre", "code")},
    "table": frozenset(nh3.ALLOWED_ATTRIBUTES["table"]) | {"class"},
}
#: Attributes that hold a URL, whose scheme must be one of :data:`URL_SCHEMES`.
URL_ATTRIBUTES = frozenset({"href", "src", "cite", "action", "formaction", "poster"})
URL_SCHEMES = frozenset({"http", "https", "mailto"})

_RESERVED_CLASS = re.compile(r"konum|md-", re.IGNORECASE)
#: Classes this module's own extensions write, on the element they write them on.
_OWN_CLASSES = frozenset({("div", "konum-math")})


class MarkupError(ValueError):
    """Bank text that cannot be rendered within the limits."""


def reserved_class(name: str) -> bool:
    """True for a class konum's quiz code or Material's theme uses (``konum*``, ``md-*``,
    in any case): a bank may not write it, or it could hide buttons or restyle the page."""
    return bool(_RESERVED_CLASS.match(name))


def _attribute_filter(element: str, attribute: str, value: str) -> str | None:
    if element == "img" and attribute == "src":
        return value if images.is_reference(value) else None  # only references to images
    if attribute != "class":
        return value
    kept = [c for c in value.split() if not reserved_class(c) or (element, c) in _OWN_CLASSES]
    return " ".join(kept) or None


@lru_cache(maxsize=1)
def _cleaner() -> nh3.Cleaner:
    # Built once: nh3.clean() would convert the allow-lists on every call.
    return nh3.Cleaner(
        tags=set(ALLOWED_TAGS),
        attributes={
            "*": set(GENERIC_ATTRIBUTES),
            **{tag: set(attrs) for tag, attrs in ALLOWED_ATTRIBUTES.items()},
        },
        attribute_filter=_attribute_filter,
        url_schemes=set(URL_SCHEMES),
        clean_content_tags={"script", "style"},
        link_rel="noopener noreferrer",
    )


def sanitise(html: str) -> str:
    """Keep only allow-listed tags, attributes and URL schemes, and no reserved class; drop
    scripts and styles with their content, and every image source that is not a reference
    to a checked image (:func:`konum.images.is_reference`)."""
    return _cleaner().clean(html)


# --- limits ---------------------------------------------------------------------------------

_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})")
_CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.DOTALL)
_MATH = re.compile(r"\$\$.+?\$\$|\$[^$\n]+\$", re.DOTALL)
# One container at the start of a line: a quote marker, or a list marker and its space.
_CONTAINER = re.compile(r"[ \t]*(?:>|(?:[-+*]|\d{1,9}[.)])(?=[ \t]|$))[ \t]?")
_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9-]*)[^<>]*?(/?)>|<[!?/A-Za-z]")
_VOID = frozenset({"br", "hr", "wbr", "img", "input", "col", "area", "meta", "link", "source"})


def _blank(match: re.Match[str]) -> str:
    return re.sub(r"[^\n]", " ", match.group(0))


def strip_code(text: str) -> str:
    """``text`` with fenced code and code spans replaced by spaces (newlines kept)."""
    out: list[str] = []
    fence: str | None = None
    for line in text.split("\n"):
        m = _FENCE.match(line)
        if fence is None and m:
            fence = m.group(1)
            out.append(" " * len(line))
        elif fence is not None:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                fence = None
            out.append(" " * len(line))
        else:
            out.append(line)
    return _CODE_SPAN.sub(_blank, "\n".join(out))


def strip_code_and_math(text: str) -> str:
    """``text`` with fenced code, code spans and math replaced by spaces (newlines kept)."""
    return _MATH.sub(_blank, strip_code(text))


@dataclass(frozen=True)
class Spot:
    """A place in a text: 1-based line, 0-based offset in that line, and what is wrong."""

    line: int
    offset: int
    message: str


def position(text: str, index: int) -> tuple[int, int]:
    """``(line, offset)`` of ``text[index]``: 1-based line, 0-based offset in the line."""
    return text.count("\n", 0, index) + 1, index - (text.rfind("\n", 0, index) + 1)


def _block_nesting(line: str) -> int:
    depth, at = 0, 0
    while True:
        indent = len(line) - at - len(line[at:].lstrip(" \t"))
        depth += line[at : at + indent].expandtabs(4).count("    ")
        m = _CONTAINER.match(line, at)
        if m is None or m.end() == at:
            return depth
        depth, at = depth + 1, m.end()


def limit_problem(text: str) -> Spot | None:
    """Where ``text`` first exceeds a limit of this module, or None when it keeps them all."""
    if len(text) > limits.TEXT_CHARS:
        return Spot(
            1,
            0,
            f"the text is too long: expected at most {limits.TEXT_CHARS:,} characters, found "
            f"{len(text):,} (split it, or shorten it)",
        )
    index = 0
    for line in text.split("\n"):
        if line.strip() and _block_nesting(line) > limits.TEXT_NESTING:
            return Spot(
                *position(text, index),
                f"lists and quotes nested too deep: expected at most {limits.TEXT_NESTING} levels",
            )
        index += len(line) + 1
    visible = strip_code_and_math(text)
    open_brackets = {"[": 0, "(": 0}
    for m in re.finditer(r"(?<!\\)[][()]", visible):
        bracket = m.group()
        if bracket in open_brackets:
            open_brackets[bracket] += 1
            if open_brackets[bracket] > limits.TEXT_NESTING:
                return Spot(
                    *position(text, m.start()),
                    f"brackets nested too deep: expected at most {limits.TEXT_NESTING} open"
                    f" '{bracket}' at once",
                )
        else:
            opening = "[" if bracket == "]" else "("
            open_brackets[opening] = max(open_brackets[opening] - 1, 0)
    depth = tags = 0
    for m in _TAG.finditer(visible):
        tags += 1
        if tags > limits.TEXT_TAGS:
            return Spot(
                *position(text, m.start()),
                f"too many HTML tags: expected at most {limits.TEXT_TAGS} in one text",
            )
        name = (m.group(2) or "").lower()
        if not name or name in _VOID or m.group(3):
            continue
        depth = max(depth - 1, 0) if m.group(1) else depth + 1
        if depth > limits.TEXT_NESTING:
            return Spot(
                *position(text, m.start()),
                f"HTML elements nested too deep: expected at most {limits.TEXT_NESTING} levels",
            )
    return None


# --- rendering ------------------------------------------------------------------------------


@lru_cache(maxsize=1)
def _converter() -> markdown.Markdown:
    return markdown.Markdown(
        extensions=[
            "tables",
            "pymdownx.superfences",
            "pymdownx.highlight",
            "pymdownx.inlinehilite",
            "pymdownx.betterem",
            MathExtension(mode="token"),
        ],
        extension_configs={
            "tables": {"use_align_attribute": True},  # align=, not a style attribute
            "pymdownx.highlight": {"use_pygments": True, "guess_lang": False},
        },
    )


_PARAGRAPH = re.compile(r"\A<p>(.*)</p>\Z", re.DOTALL)
_FORMULA = re.compile(r'<div class="konum-math">KONUMMATH(\d+)X</div>|KONUMMATH(\d+)X')


@dataclass(frozen=True)
class Rendered:
    """One text, converted once.

    Attributes:
        source: the HTML Markdown made, before :func:`sanitise` (for the checks).
        html: that HTML sanitised, a placeholder where each formula is.
        formulas: each formula's TeX and whether it is displayed, in placeholder order.
    """

    source: str
    html: str
    formulas: tuple[tuple[str, bool], ...]

    def out(self, *, inline: bool = False, math: MathMode = "mathml") -> str:
        """The HTML with its formulas as ``math`` asks; ``inline`` unwraps one paragraph.

        Raises:
            konum.math.MathError: a formula cannot be rendered.
        """
        return _out(self, inline, math)

    def formula_errors(self) -> list[tuple[str, MathError]]:
        """Every formula that cannot be rendered, as ``(TeX, error)``."""
        errors = []
        for tex, display in self.formulas:
            try:
                _formula(tex, display, "mathml", False)
            except MathError as exc:
                errors.append((tex, exc))
        return errors


@lru_cache(maxsize=4096)
def _formula(tex: str, display: bool, math: MathMode, block: bool) -> str:
    """One formula as ``math`` shows it; a ``block`` of its own is in its box (MathML) or
    paragraph (Anki), as Markdown would have put it."""
    if math == "anki":
        shown = tex_to_html(tex, display=display, mode="anki")
        return f"<p>{shown}</p>" if block else shown
    mathml = sanitise(tex_to_html(tex, display=display))
    return f'<div class="konum-math" tabindex="0">{mathml}</div>' if block else mathml


@lru_cache(maxsize=32768)
def _out(rendered: Rendered, inline: bool, math: MathMode) -> str:
    def fill(match: re.Match[str]) -> str:
        block = match.group(1) is not None
        tex, display = rendered.formulas[int(match.group(1) or match.group(2))]
        return _formula(tex, display, math, block)

    html = _FORMULA.sub(fill, rendered.html) if rendered.formulas else rendered.html
    if inline:
        m = _PARAGRAPH.match(html)
        if m and "<p>" not in m.group(1):
            return m.group(1)
    return html


#: Texts another process converted (a worker of the check, :mod:`konum.parallel`), waiting
#: for :func:`render_text` to take each into its cache instead of converting it again.
_HANDED: dict[str, Rendered] = {}


def remember(converted: Mapping[str, Rendered]) -> None:
    """Take texts converted by :func:`render_text` in another process as converted here."""
    _HANDED.update(converted)


@lru_cache(maxsize=32768)
def render_text(text: str) -> Rendered:
    """``text`` converted by Markdown once, for every output (see :class:`Rendered`).

    Raises:
        MarkupError: ``text`` exceeds a limit (see :func:`limit_problem`).
    """
    handed = _HANDED.pop(text, None)
    if handed is not None:
        return handed
    problem = limit_problem(text)
    if problem is not None:
        raise MarkupError(problem.message)
    md = _converter()
    md.reset()
    try:
        source = md.convert(text)
    except RecursionError:  # the limits should prevent it; never a traceback in a build
        raise MarkupError("the Markdown is nested too deeply to render") from None
    extension = next(e for e in md.registeredExtensions if isinstance(e, MathExtension))
    return Rendered(source, sanitise(source).strip(), tuple(extension.formulas))


def render_markdown(text: str, *, inline: bool = False, math: MathMode = "mathml") -> str:
    """Bank Markdown (with ``$math$`` and code) as sanitised HTML: ``math`` is
    ``"mathml"`` for pages, ``"anki"`` for MathJax's delimiters; its images are references
    (:func:`konum.images.inline` makes them ``data:`` URIs); ``inline`` unwraps a single
    paragraph (option texts, table cells, labels).

    Raises:
        MarkupError: ``text`` exceeds a limit (see :func:`limit_problem`).
        konum.math.MathError: a formula cannot be rendered.
    """
    return render_text(text).out(inline=inline, math=math)


# --- HTML inside JSON -----------------------------------------------------------------------

# A start tag, its attribute values quoted or bare; text never holds a raw "<" (sanitised
# and template HTML escape it), so every match is a tag.
_START_TAG = re.compile(
    r"""<[A-Za-z][^\s/>]*(?:\s+[^\s"'=<>/]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*\s*/?>"""
)
_QUOTED = re.compile(r'(\s[^\s"\'=<>/]+)="([^"]*)"(?=(\s*/>)?)')
_BARE = re.compile(r"[^\s\"'=<>`]+")


def _quote_less(match: re.Match[str]) -> str:
    name, value, closing = match.groups()
    if _BARE.fullmatch(value) and not closing:
        return f"{name}={value}"
    return f"{name}='{value.replace(chr(39), '&#39;')}'"


def json_html(html: str) -> str:
    """``html`` as it travels in a page's JSON (read back through ``innerHTML``): the same
    elements and attributes, without a double quote for JSON to escape. Attribute values
    lose their quotes where HTML allows it (no space, quote, ``=``, ``<``, ``>`` or
    backtick, and not the last value before ``/>``); the others are single-quoted."""
    return _START_TAG.sub(lambda tag: _QUOTED.sub(_quote_less, tag.group(0)), html)
