"""What the LMS exports (:mod:`.moodle`, :mod:`.gift`) and the printable exam share.

* :class:`Skipped`: a question an export cannot hold, with the reason; exports list them
  and never write such a question in a form that would grade differently from konum.
* :class:`LmsExport`: the text of an export, what it holds and what it left out.
* :func:`write_atomically`: a file written beside its target and moved into place with
  :func:`os.replace`, so an interrupted export leaves the old file or none, never half.
* :func:`plain_number`: a number as LMS formats read it (positional, no exponent).
* :func:`category_path`: a Moodle category path, with ``/`` in names escaped.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

from konum.errors import ExportError

#: Why an output question is left out of the LMS exports.
OUTPUT_PROBLEM = (
    "it checks what the reader's program prints, which no Moodle question type grades (it "
    "stays in the site, the flashcards and the printed exams)"
)

#: Default file names of the LMS exports, beside ``mkdocs.yml`` in ``exports/``.
LMS_NAMES: dict[str, str] = {"moodle": "konum-moodle.xml", "gift": "konum-gift.txt"}


@dataclass(frozen=True)
class Skipped:
    """A question left out of an export: its id, its bank and why."""

    question_id: str
    bank: str
    reason: str

    def __str__(self) -> str:
        return f"{self.question_id} (bank {self.bank}): {self.reason}"


@dataclass(frozen=True)
class LmsExport:
    """An export's text and what went into it.

    Attributes:
        text: the file's content.
        exported: ids of the konum questions written, in order.
        items: how many LMS questions were written (a computed question exported one
            question per variant counts once per variant).
        categories: how many categories were written.
        skipped: the questions left out, with the reason.
    """

    text: str
    exported: tuple[str, ...]
    items: int
    categories: int
    skipped: tuple[Skipped, ...]


def write_atomically(path: str | Path, data: str | bytes) -> None:
    """Write ``data`` (text as UTF-8) to ``path`` through a temporary file in the same folder.

    Raises:
        ExportError: the folder cannot be written.
    """
    target = Path(path)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    try:
        fd, temporary = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(payload)
            os.chmod(temporary, 0o666 & ~_umask())  # mkstemp makes it private
            os.replace(temporary, target)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise
    except OSError as exc:
        raise ExportError(f"cannot write {target}: {exc.strerror or exc}") from exc


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def plain_number(value: float) -> str:
    """``value`` in positional notation, shortest form that reads back as the same float:
    ``0.00006`` rather than ``6e-05`` (the GIFT grammar has no exponents), ``12`` for 12.0."""
    text = format(Decimal(repr(float(value))), "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def category_path(*names: str) -> str:
    """A Moodle category path below the course's top category: ``$course$/top/A/B``.

    Moodle splits paths at ``/``; a ``/`` inside a name is written ``//``.
    """
    return "/".join(["$course$", "top", *(name.replace("/", "//") for name in names)])


def skipped_report(kind: str, skipped: Sequence[Skipped]) -> str:
    """The lines a command prints on stderr for the questions left out."""
    head = f"konum: {len(skipped)} question{'s' if len(skipped) != 1 else ''} left out"
    lines = [f"{head} of the {kind} export (not expressible there):"]
    lines += [f"  {item}" for item in skipped]
    return "\n".join(lines)
