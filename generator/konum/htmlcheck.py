"""Authoring-time check of bank text: what the renderer would drop, refuse or choke on.

Bank text is Markdown with a little raw HTML (``<sub>``, ``<br>``, ``<kbd>``...) and math.
The renderer (:mod:`konum.markup`) sanitises everything with an allow-list anyway; this check
exists so that an author hears at ``konum check`` time, at the line where it was written,
about everything that would otherwise be dropped silently or break the build:

- HTML the sanitiser drops: tags outside :data:`konum.markup.AUTHOR_TAGS`, event handlers,
  ``style``, attributes that tag may not have, classes that are konum's or Material's own,
  and URLs whose scheme is not http, https or mailto, however they are written (entities,
  control characters, Markdown inline and reference links, autolinks); an image's source is
  not a link: :mod:`konum.imagerefs` checks it, with the file it names;
- the MathJax commands that reach outside a formula (:data:`konum.math.UNSAFE_COMMANDS`),
  in math and in the text around it (on a card, Anki's MathJax reads ``\\(...\\)`` there);
- every formula latex2mathml cannot render, each with its reason;
- texts beyond the renderer's limits (size, nesting, tags).

Code (fenced blocks and code spans) is blanked out first, because ``a < b`` and ``<script>``
are legitimate there, and math too where only HTML is looked for. After the scan of the
source, the text is rendered as the build would, and the HTML Markdown made is checked by the
same rules: what that finds and the source scan did not (a construct written in a form the
scan does not know) is reported at the text's first line.
"""

from __future__ import annotations

import html
import re
from collections import Counter
from dataclasses import dataclass, field
from html.parser import HTMLParser

from konum.imagerefs import image_spans
from konum.markup import (
    ALLOWED_ATTRIBUTES,
    ALLOWED_TAGS,
    AUTHOR_TAGS,
    GENERIC_ATTRIBUTES,
    URL_ATTRIBUTES,
    URL_SCHEMES,
    MarkupError,
    limit_problem,
    position,
    render_text,
    reserved_class,
    strip_code_and_math,
)
from konum.math import UNSAFE_COMMANDS, unsafe_message

_MD_LINK = re.compile(
    r"\]\(\s*<?\s*(?P<url>[^)\s>]*)"  # inline link: [text](url)
    r"|^[ ]{0,3}\[[^\]]+\]:\s*<?(?P<ref>\S+)"  # reference definition: [label]: url
    r"|<(?P<auto>[A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]*)>",  # autolink: <scheme:...>
    re.MULTILINE,
)
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*):")
_C0_AND_SPACE = "".join(map(chr, range(0x21)))
# What MathJax joins into one string on a card: text across <br>, <wbr> and comments.
_JOINED = re.compile(r"<!--.*?-->|<(?:wbr|br)\s*/?>", re.IGNORECASE | re.DOTALL)


@dataclass(frozen=True)
class HtmlIssue:
    """A forbidden construct: 1-based line within the text, 0-based offset in that line.

    ``kind`` names the construct (``"url:javascript"``, ``"style"``...) so that the scan of
    the rendered HTML can tell what the scan of the source already reported.
    """

    line: int
    offset: int
    message: str
    kind: str = field(default="", compare=False)


def _issue(where: tuple[int, int], message: str, kind: str) -> HtmlIssue:
    return HtmlIssue(where[0], where[1], message, kind)


def url_scheme(value: str) -> str | None:
    """The scheme of a URL as a browser reads it (entities decoded, leading and trailing
    spaces and control characters stripped, tabs and newlines removed), when it is not one
    of :data:`konum.markup.URL_SCHEMES`; else None. Relative URLs and fragments have no
    scheme and pass."""
    cleaned = re.sub(r"[\t\n\r]", "", html.unescape(value).strip(_C0_AND_SPACE))
    m = _SCHEME.match(cleaned)
    if m is None or m.group(1).lower() in URL_SCHEMES:
        return None
    return m.group(1)


def _url_message(scheme: str, where: str) -> str:
    return f"a '{scheme}:' {where} is not allowed (only http, https and mailto links are)"


class _Scanner(HTMLParser):
    """Raw HTML against the sanitiser's rules. ``author``: the source (only
    :data:`AUTHOR_TAGS`, and raw MathML reported at its ``<math>``), else Markdown's output
    (where MathML is the math extension's, and left alone)."""

    def __init__(self, *, author: bool) -> None:
        super().__init__(convert_charrefs=True)
        self.author = author
        self.in_math = 0
        self.issues: list[HtmlIssue] = []

    def _add(self, message: str, kind: str) -> None:
        line, offset = self.getpos()
        self.issues.append(HtmlIssue(line, offset, message, kind))

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.in_math or ":" in tag or "@" in tag:
            return  # inside MathML (reported once, at <math>); an autolink (a link)
        if tag == "math":
            self.in_math += 1
            if not self.author:
                return  # written by the math extension
        if tag not in (AUTHOR_TAGS if self.author else ALLOWED_TAGS):
            self._add(f"raw HTML tag <{tag}> is not allowed in a bank", f"tag:{tag}")
        allowed = ALLOWED_ATTRIBUTES.get(tag, frozenset()) | GENERIC_ATTRIBUTES
        for name, value in attrs:
            if name.startswith("on"):
                self._add(f"event handler attribute '{name}' on <{tag}> is not allowed", "on")
            elif name == "style":
                self._add(
                    f"a style attribute on <{tag}> is not allowed in a bank (it could restyle"
                    " or cover the page, or load from another site)",
                    "style",
                )
            elif (tag, name) == ("img", "src"):
                continue  # an image's source: konum.imagerefs checks the file
            elif (tag, name, self.author) == ("div", "tabindex", False):
                continue  # konum's formula box, which a keyboard scrolls
            elif name in URL_ATTRIBUTES and value and (scheme := url_scheme(value)):
                self._add(_url_message(scheme, f"URL in '{name}'"), f"url:{scheme.lower()}")
            elif name == "class" and value:
                for reserved in [c for c in value.split() if reserved_class(c)]:
                    if self.author or (tag, reserved) != ("div", "konum-math"):
                        self._add(
                            f"class '{reserved}' is not allowed in a bank: classes starting"
                            " with 'konum' or 'md-' belong to konum and to the theme",
                            f"class:{reserved}",
                        )
            elif name not in allowed and tag in ALLOWED_TAGS:
                self._add(
                    f"attribute '{name}' on <{tag}> is not allowed (it would be dropped)",
                    f"attr:{name}",
                )

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag == "math" and self.in_math:
            self.in_math -= 1

    def handle_endtag(self, tag: str) -> None:
        if tag == "math" and self.in_math:
            self.in_math -= 1


def _html_issues(markup: str, *, author: bool) -> list[HtmlIssue]:
    if "<" not in markup:
        return []
    scanner = _Scanner(author=author)
    try:
        scanner.feed(markup)
        scanner.close()
    except (AssertionError, ValueError):  # pragma: no cover - malformed markup
        pass
    return scanner.issues


def _source_issues(text: str) -> list[HtmlIssue]:
    visible = strip_code_and_math(text)
    # A Markdown image is neither a link nor HTML (its <path> form is no tag).
    for start, end in image_spans(text):
        visible = visible[:start] + re.sub(r"[^\n]", " ", visible[start:end]) + visible[end:]
    issues = _html_issues(visible, author=True)
    for m in _MD_LINK.finditer(visible):
        group = next(g for g in ("url", "ref", "auto") if m.group(g) is not None)
        scheme = url_scheme(m.group(group))
        if scheme:
            where = position(visible, m.start(group))
            issues.append(_issue(where, _url_message(scheme, "link"), f"url:{scheme.lower()}"))
    # Outside math: on a card, MathJax would typeset a \( \href... \) written as text.
    found = set()
    for m in UNSAFE_COMMANDS.finditer(visible):
        found.add(m.group("name"))
        command = "\\" + m.group("name")
        issues.append(_issue(position(visible, m.start()), unsafe_message(command), "tex"))
    joined = html.unescape(_JOINED.sub("", visible))
    for m in UNSAFE_COMMANDS.finditer(joined):
        if m.group("name") not in found:
            found.add(m.group("name"))
            issues.append(HtmlIssue(1, 0, unsafe_message("\\" + m.group("name")), "tex"))
    return issues


def _formula_issues(text: str) -> tuple[str, list[HtmlIssue]]:
    """The text rendered (before sanitising), and an issue for each formula that cannot be
    rendered, at the line where it is written."""
    rendered = render_text(text)
    errors = rendered.formula_errors()
    issues = []
    cursor = 0
    for tex, error in errors:
        first = next((line.strip() for line in tex.split("\n") if line.strip()), tex)
        at = text.find(first, cursor)
        if at < 0:
            at = text.find(first)
        if at >= 0:
            cursor = at + len(first)
            while at > 0 and text[at - 1] == "$" and tex.startswith(first):
                at -= 1  # point at the opening dollar(s) of an inline formula
            issues.append(_issue(position(text, at), str(error), "math"))
        else:
            issues.append(HtmlIssue(1, 0, str(error), "math"))
    return rendered.source, issues


def scan(text: str) -> list[HtmlIssue]:
    """Everything in bank text ``text`` that the renderer would drop, refuse or choke on."""
    limit = limit_problem(text)
    if limit is not None:  # nothing more is looked at: that is what the limit bounds
        return [HtmlIssue(limit.line, limit.offset, limit.message, "limit")]
    issues = _source_issues(text)
    try:
        rendered, formulas = _formula_issues(text)
    except MarkupError as exc:  # pragma: no cover - the limits above should prevent it
        return [*issues, HtmlIssue(1, 0, str(exc), "limit")]
    issues += formulas
    known = {issue.kind for issue in issues}
    for issue in _html_issues(rendered, author=False):
        if issue.kind not in known:
            known.add(issue.kind)
            issues.append(HtmlIssue(1, 0, issue.message, issue.kind))
    return sorted(issues, key=lambda i: (i.line, i.offset))


def scan_generated(source: str, output: str) -> list[HtmlIssue]:
    """The issues of ``output`` (what a computed prompt's template ``source`` wrote) beyond
    those ``source`` itself shows: markup that only the template assembled. Positions are
    within ``output``."""
    known = Counter(issue.kind for issue in scan(source))
    extra = []
    for issue in scan(output):
        if known[issue.kind] > 0:
            known[issue.kind] -= 1
        else:
            extra.append(issue)
    return extra
