"""What an importer makes of another tool's file: questions as plain bank data.

An importer reads one file and returns a :class:`Found`: the questions konum can hold, each
a :class:`Draft` whose ``fields`` are exactly what the bank file will say (in bank order:
``id``, ``type``, ``prompt``, ... with Markdown texts), and the ones it cannot hold, each a
:class:`Left` with its name, line and the reason. Nothing here knows YAML or the source
format; :mod:`konum.importers.write` turns drafts into a bank file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from konum.errors import KonumError


class SourceError(KonumError):
    """A file that cannot be read as the format it was given as: the message says which
    file, where, and why."""


def read_text(path: Path) -> str:
    """The text of the file at ``path``, UTF-8 (a byte order mark is dropped).

    Raises:
        SourceError: the file is not UTF-8 text.
    """
    try:
        return path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise SourceError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None


@dataclass
class Draft:
    """One question konum can hold.

    Attributes:
        name: the question's name in the source (its title, or its first words), from which
            its id is made.
        line: the 1-based line in the source where the question starts.
        fields: the bank's fields for it, without ``id`` (the writer gives the id, unique in
            the bank); values are plain data: str, int, float, bool, lists and dicts.
        notes: what was approximated, each a sentence; written as comments above it.
        category: the source's category path (``Physics/Circuits``), or "".
    """

    name: str
    line: int
    fields: dict[str, Any]
    notes: list[str] = field(default_factory=list)
    category: str = ""


@dataclass(frozen=True)
class Left:
    """A question left out: its ``name`` and ``line`` in ``file``, and why."""

    file: str
    name: str
    line: int
    reason: str


@dataclass
class Found:
    """All that one or more source files gave: drafts in source order, what was left out,
    and the files (images) the questions name, by their name in the bank's folder."""

    drafts: list[Draft] = field(default_factory=list)
    left: list[Left] = field(default_factory=list)
    files: dict[str, bytes] = field(default_factory=dict)
    title: str = ""


#: The note for options whose shares of the marks were not equal in the source.
UNEQUAL_SHARES = "the source's shares were not equal: here each right option earns an equal share"


def no_credit(text: str, percent: float, tool: str) -> str:
    """The note for an answer that earned ``percent`` of the marks in ``tool`` and earns
    nothing here (konum's one-answer questions and blanks are right or wrong)."""
    return f"'{text}' earned {percent:g}% in {tool}: here it earns nothing"
