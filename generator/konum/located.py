"""Values as an author wrote them: how a YAML value reads in a message ("found the number
12"), how texts are compared for duplicates, and where a place inside a value was written.

The records of what a file holds (:class:`IdUse`, :class:`TextUse`, :class:`Written`) are
what :class:`konum.fields.Reader` collects and what the check stage (:mod:`konum.check`)
looks into, placing what it finds with :func:`place` and :func:`walk`.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from konum.yamlsource import Mark, YMap, YNode, YScalar, YSeq


def describe(node: YNode | None) -> str:
    """How a value looks to an author, for "found ..." messages."""
    if node is None:
        return "nothing"
    if isinstance(node, YMap):
        return "a mapping (key: value lines)"
    if isinstance(node, YSeq):
        return "a list"
    value = node.value
    if value is None:
        return "nothing (an empty value)"
    if isinstance(value, bool):
        return f"{node.text} (a true/false value)"
    if isinstance(value, (int, float)):
        return f"the number {short(node.text)}"
    shown = str(value) if len(str(value)) <= 40 else str(value)[:37] + "..."
    return f'text "{shown}"'


def short(text: str) -> str:
    """A long number's text cut for a message: ``1000000000... (401 characters)``."""
    return text if len(text) <= 24 else f"{text[:12]}... ({len(text)} characters)"


def written(node: YNode) -> str:
    """A value as written, for messages."""
    return short(node.text) if isinstance(node, YScalar) else describe(node)


def join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def num(value: float) -> str:
    """A number in a message."""
    return f"{value:.10g}"


def norm(text: str, *, case: bool = False) -> str:
    """``text`` as duplicates are compared: spaces collapsed, Unicode NFC, caseless unless
    ``case`` (so NFC "Sinüs", NFD "Sinüs" and "sinüs " are the same option)."""
    text = unicodedata.normalize("NFC", " ".join(text.split()))
    return text if case else unicodedata.normalize("NFC", text.casefold())


def plain(node: YNode) -> object:
    """A YAML node as plain Python data (figure parameters)."""
    if isinstance(node, YScalar):
        return node.value
    if isinstance(node, YSeq):
        return [plain(item) for item in node.items]
    return {key: plain(entry.value) for key, entry in node.entries.items()}


@dataclass(frozen=True)
class IdUse:
    """Where an id was defined (for duplicate reports within and across banks)."""

    id: str
    file: str
    mark: Mark

    def where(self) -> str:
        return f"{self.file}:{self.mark.line}:{self.mark.column}"


@dataclass(frozen=True)
class TextUse:
    """A Markdown text as it was read: the question (or flashcard) it belongs to, its field
    path, the text and the scalar it was written as."""

    qid: str | None
    path: str
    text: str
    node: YScalar


@dataclass(frozen=True)
class Written:
    """The Markdown texts one file holds (a bank, or a translation): the file, its lines and
    each text with its node, for the check stage to look into and place what it finds."""

    file: str
    lines: tuple[str, ...]
    texts: tuple[TextUse, ...]


# --- where a place inside a value was written ---------------------------------------------------


def place(lines: Sequence[str], node: YScalar, line: int, offset: int, text: str) -> Mark:
    """The file position of line ``line`` (1-based), character ``offset`` (0-based) of the text
    ``text`` written as ``node``: its own line in a literal block, its own column on a
    one-line plain or quoted scalar, the value's start otherwise."""
    if node.style == "|":
        number = node.mark.line + line
        source = lines[number - 1] if number - 1 < len(lines) else ""
        return Mark(number, len(source) - len(source.lstrip(" ")) + offset + 1)
    if line == 1 and node.style in (None, '"', "'") and "\n" not in text:
        return Mark(node.mark.line, node.mark.column + offset + (1 if node.style else 0))
    return node.mark


def walk(node: YNode, path: str) -> tuple[YNode, bool]:
    """The deepest node that ``path`` (``params.d``, ``options[1].text``) reaches, and whether
    it reached all of it."""
    current: YNode = node
    for part in re.findall(r"[^.\[\]]+|\[\d+\]", path):
        nxt: YNode | None = None
        if part.startswith("[") and isinstance(current, YSeq):
            index = int(part[1:-1])
            nxt = current.items[index] if index < len(current.items) else None
        elif isinstance(current, YMap):
            nxt = current.get(part)
        if nxt is None:
            return current, False
        current = nxt
    return current, True
