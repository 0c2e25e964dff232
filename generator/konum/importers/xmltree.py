"""A small XML tree that knows the line of each element, read safely.

Moodle XML files come from other people's servers: they are read with defusedxml's SAX
parser (no entity expansion, no external entities or DTDs), and each element keeps the line
it starts on, so a question left out can be named by its line.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from xml.sax import SAXParseException
from xml.sax.handler import ContentHandler
from xml.sax.xmlreader import AttributesImpl, Locator

import defusedxml.sax
from defusedxml import DefusedXmlException

from konum.importers.model import SourceError


@dataclass
class Node:
    """An element: its ``tag``, attributes, text (its own, children's not included), line."""

    tag: str
    attrs: dict[str, str]
    line: int
    children: list[Node] = field(default_factory=list)
    parts: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        return "".join(self.parts)

    def find(self, *path: str) -> Node | None:
        """The first element at ``path`` below this one (tags, one per level)."""
        node: Node | None = self
        for tag in path:
            node = next((c for c in node.children if c.tag == tag), None) if node else None
        return node

    def findall(self, tag: str) -> Iterator[Node]:
        """The children named ``tag``."""
        return (c for c in self.children if c.tag == tag)

    def value(self, *path: str, default: str = "") -> str:
        """The text at ``path``, or at ``path`` + ``text`` (Moodle wraps most values in a
        ``<text>``), stripped; ``default`` where there is none."""
        node = self.find(*path)
        if node is None:
            return default
        inner = node.find("text")
        return (inner.text if inner is not None else node.text).strip()


class _Builder(ContentHandler):
    def __init__(self) -> None:
        super().__init__()
        self.stack: list[Node] = []
        self.root: Node | None = None
        self.locator: Locator | None = None

    def setDocumentLocator(self, locator: Locator) -> None:  # SAX's name
        self.locator = locator

    def startElement(self, name: str, attrs: AttributesImpl) -> None:
        line = (self.locator.getLineNumber() or 0) if self.locator else 0
        node = Node(name, dict(attrs.items()), line)
        if self.stack:
            self.stack[-1].children.append(node)
        else:
            self.root = node
        self.stack.append(node)

    def endElement(self, name: str) -> None:
        self.stack.pop()

    def characters(self, content: str) -> None:
        if self.stack:
            self.stack[-1].parts.append(content)


def read_xml(path: Path) -> Node:
    """The root element of the XML file at ``path``.

    Raises:
        SourceError: the file is not well-formed XML, or uses what defusedxml forbids.
    """
    builder = _Builder()
    try:
        defusedxml.sax.parse(str(path), builder, forbid_dtd=True)
    except SAXParseException as exc:
        raise SourceError(
            f"{path}:{exc.getLineNumber()}: not well-formed XML ({exc.getMessage()})"
        ) from None
    except DefusedXmlException as exc:
        raise SourceError(f"{path}: refused: {exc}") from None
    if builder.root is None:
        raise SourceError(f"{path}: no XML element in the file")
    return builder.root
