"""Authoring-time check of raw HTML inside bank text fields.

Markdown in banks may contain a little raw HTML (``<sub>``, ``<br>``, ``<kbd>``...). The
renderer sanitises everything with an allow-list anyway; this check exists so that an author
who writes ``<script>``, an ``onclick=`` attribute or a ``javascript:`` link hears about it
at ``konum check`` time instead of seeing it silently dropped. Code (fenced blocks and inline
code spans) and math (``$...$``, ``$$...$$``) are blanked out first, because ``a < b`` and
``i<j`` are legitimate there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html.parser import HTMLParser

#: Tags an author may write in a bank (anything else is reported).
ALLOWED_TAGS = frozenset(
    """a abbr b bdi bdo blockquote br caption cite code dd del details dfn div dl dt em
    figcaption figure h1 h2 h3 h4 h5 h6 hr i ins kbd li mark ol p pre q s samp small span
    strong sub summary sup table tbody td tfoot th thead tr u ul var wbr""".split()  # noqa: SIM905
)
_URL_ATTRS = frozenset({"href", "src", "action", "formaction", "xlink:href", "poster", "srcset"})
_BAD_SCHEME = re.compile(r"^(javascript|vbscript|data\s*:\s*text/html)", re.IGNORECASE)
_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})")
_CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.DOTALL)
_MATH = re.compile(r"\$\$.+?\$\$|\$[^$\n]+\$", re.DOTALL)
#: Images would reach neither the page (the sanitiser drops them) nor a card; say so.
NO_IMAGES = (
    "images are not supported in bank text (they would be dropped): give the question a"
    " 'figure' from the course's figures, or describe the picture in words"
)
_MD_IMAGE = re.compile(r"!\[[^\]]*\]\(")
_MD_LINK = re.compile(
    r"\]\(\s*<?\s*(?P<url>[^)\s>]*)"  # inline link: [text](url)
    r"|^\s*\[[^\]]+\]:\s*<?(?P<ref>\S+)",  # reference definition: [label]: url
    re.MULTILINE,
)


@dataclass(frozen=True)
class HtmlIssue:
    """A forbidden construct: 1-based line within the text, 0-based offset in that line."""

    line: int
    offset: int
    message: str


def _blank(match: re.Match[str]) -> str:
    return re.sub(r"[^\n]", " ", match.group(0))


def strip_code_and_math(text: str) -> str:
    """``text`` with fenced code, code spans and math replaced by spaces (newlines kept)."""
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
    stripped = "\n".join(out)
    stripped = _CODE_SPAN.sub(_blank, stripped)
    return _MATH.sub(_blank, stripped)


def _bad_url(value: str) -> bool:
    cleaned = re.sub(r"[\x00-\x20]", "", value)
    return bool(_BAD_SCHEME.match(cleaned))


class _Scanner(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.issues: list[HtmlIssue] = []

    def _add(self, message: str) -> None:
        line, offset = self.getpos()
        self.issues.append(HtmlIssue(line, offset, message))

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "img":
            self._add(NO_IMAGES)
        elif tag not in ALLOWED_TAGS:
            self._add(f"raw HTML tag <{tag}> is not allowed in a bank")
        for name, value in attrs:
            if name.startswith("on"):
                self._add(f"event handler attribute '{name}' on <{tag}> is not allowed")
            elif name in _URL_ATTRS and value and _bad_url(value):
                self._add(f"a '{value.split(':')[0].strip()}:' URL in '{name}' is not allowed")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)


def scan(text: str) -> list[HtmlIssue]:
    """Every forbidden HTML construct (or ``javascript:`` Markdown link) in ``text``."""
    if "<" not in text and "]" not in text:
        return []  # no tag, image or link; blanking code and math only removes text
    visible = strip_code_and_math(text)
    issues: list[HtmlIssue] = []
    if "<" in visible:
        scanner = _Scanner()
        try:
            scanner.feed(visible)
            scanner.close()
        except (AssertionError, ValueError):  # pragma: no cover - malformed markup
            pass
        issues.extend(scanner.issues)
    for m in _MD_IMAGE.finditer(visible):
        line = visible.count("\n", 0, m.start()) + 1
        issues.append(
            HtmlIssue(line, m.start() - (visible.rfind("\n", 0, m.start()) + 1), NO_IMAGES)
        )
    for m in _MD_LINK.finditer(visible):
        group = "url" if m.group("url") is not None else "ref"
        url = m.group(group) or ""
        if _bad_url(url):
            start = m.start(group)
            line = visible.count("\n", 0, start) + 1
            offset = start - (visible.rfind("\n", 0, start) + 1)
            issues.append(HtmlIssue(line, offset, f"a '{url.split(':')[0]}:' link is not allowed"))
    return sorted(issues, key=lambda i: (i.line, i.offset))
