"""Question text from other tools, as a bank's Markdown.

Moodle and GIFT write HTML (or Moodle's auto-format, plain text that may hold HTML), with
math between MathJax's delimiters: ``\\(...\\)`` inline, ``\\[...\\]`` or ``$$...$$`` on
its own. A bank writes Markdown with ``$...$`` and ``$$...$$``. markdownify turns the HTML
into Markdown; math is set aside first (markdownify would escape its ``_`` and ``*``) and put
back with konum's delimiters. Tags konum allows as HTML (``<sub>``, ``<sup>``, ``<kbd>``,
``<mark>``, ``<small>``) stay tags; images keep their alt text and get their new path from
the caller (Moodle's ``@@PLUGINFILE@@/name`` becomes a file beside the bank).
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from typing import Any

from markdownify import MarkdownConverter

#: MathJax's delimiters as Moodle writes them, and konum's for the same math.
_MATH = re.compile(
    r"\\\((?P<inline>.+?)\\\)|\\\[(?P<display>.+?)\\\]|\$\$(?P<dollars>.+?)\$\$", re.S
)
_TOKEN = "KONUMMATH{}X"
_TOKEN_RE = re.compile(r"KONUMMATH(\d+)X")
_GAP = re.compile(r"_{4,}")
_KEPT_TAGS = ("sub", "sup", "kbd", "mark", "small")
_TAG = re.compile(r"</?[a-zA-Z][^>]*>")


class _Converter(MarkdownConverter):
    """markdownify with konum's allowed inline tags kept and image paths rewritten."""

    def __init__(self, image: Callable[[str, str], tuple[str, str]], **options: Any) -> None:
        super().__init__(**options)
        self._image = image

    def convert_img(self, el: Any, text: str, parent_tags: set[str]) -> str:
        src, alt = self._image(el.attrs.get("src", ""), el.attrs.get("alt", "") or "")
        alt = alt.replace("[", "(").replace("]", ")")
        return f"![{alt}]({src})"

    def _kept(self, el: Any, text: str, parent_tags: set[str]) -> str:
        return f"<{el.name}>{text}</{el.name}>" if text.strip() else text

    convert_sub = convert_sup = convert_kbd = convert_mark = convert_small = _kept


def _no_image(src: str, alt: str) -> tuple[str, str]:
    return src, alt


def to_markdown(text: str, *, image: Callable[[str, str], tuple[str, str]] = _no_image) -> str:
    """``text`` (HTML, or plain text that may hold some) as Markdown, math as ``$...$``.

    Args:
        text: the source's text.
        image: called with each image's ``src`` and ``alt``; returns the path and the alt
            text to write (the caller records the file and fills a missing alt).
    """
    maths: list[str] = []

    def aside(match: re.Match[str]) -> str:
        maths.append(_konum_math(match))
        return _TOKEN.format(len(maths) - 1)

    text = _MATH.sub(aside, text)
    text = _GAP.sub(_TOKEN.format("GAP"), text)  # a blank stays a blank (not \_\_\_\_)
    if not _TAG.search(text):
        # Plain text: its line breaks are the author's (markdownify would join them).
        text = "<br>".join(html.escape(line, quote=False) for line in text.split("\n"))
    converter = _Converter(
        image, heading_style="ATX", bullets="-", escape_misc=False, strip=["span", "div"]
    )
    markdown = converter.convert(text)
    markdown = re.sub(r"[ \t]+\n", "\n", markdown)
    markdown = re.sub(r"\n{3,}", "\n\n", markdown).strip()
    markdown = markdown.replace(_TOKEN.format("GAP"), "____")
    return _TOKEN_RE.sub(lambda m: maths[int(m.group(1))], markdown)


def _konum_math(match: re.Match[str]) -> str:
    """One math span in konum's delimiters, its TeX freed of HTML entities and tags."""
    if match.group("inline") is not None:
        return "$" + html.unescape(_TAG.sub("", match.group("inline"))).strip() + "$"
    body = match.group("display") if match.group("display") is not None else match.group("dollars")
    return "$$" + html.unescape(_TAG.sub("", body)).strip() + "$$"


def plain(text: str) -> str:
    """``text`` as one line of plain text (matching items, names): tags removed, entities
    read, math written between ``$``."""
    return " ".join(html.unescape(_TAG.sub(" ", _MATH.sub(_konum_math, text))).split())
