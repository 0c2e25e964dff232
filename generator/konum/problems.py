"""Problems found in question banks, the exception that carries them, and their report.

A :class:`BankProblem` is one mistake an author made, located as precisely as the source
allows. Lines and columns are 1-based (as editors count); ``line``/``column`` are None for
problems about a whole file (missing, not UTF-8 at all, too large). Field paths count list
items from 0: ``options[1].text`` is the text of the second option. Inside a question whose
id is known, ``field`` is relative to that question and ``question_id`` names it; otherwise
the path starts at the top of the bank (``questions[3].id``).

Reports are text (one line each, like a compiler: ``FILE:LINE:COL: [question-id] field:
message``, then a summary such as ``2 problems in 1 of 9 banks`` or ``9 banks, 87
questions: all good``) or JSON (for editors and CI).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass


def printable(text: str) -> str:
    """``text`` with every character that is not printable escaped as Python writes it
    (``\\x1b``, ``\\u202e``, ``\\n``): terminal escape codes, bidi controls, line breaks and
    other invisible characters from a bank then show as what they are instead of acting on
    the terminal or reordering the line. Spaces and every visible letter stay as they are."""
    if text.isprintable():
        return text
    return "".join(
        ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in text
    )


@dataclass(frozen=True)
class BankProblem:
    """One content error in one bank file.

    ``message`` is the complete sentence shown to authors (it already says what was expected
    and what was found); ``expected`` and ``found`` repeat those parts for tools.
    """

    file: str
    line: int | None
    column: int | None
    message: str
    question_id: str | None = None
    field: str | None = None
    expected: str | None = None
    found: str | None = None

    def location(self) -> str:
        """``FILE:LINE:COL``, or just ``FILE`` for whole-file problems."""
        if self.line is None:
            return self.file
        return f"{self.file}:{self.line}:{self.column or 1}"

    def __str__(self) -> str:
        """One line, every part passed through :func:`printable`."""
        parts = [f"{self.location()}:"]
        if self.question_id:
            parts.append(f"[{self.question_id}]")
        if self.field:
            parts.append(f"{self.field}:")
        parts.append(self.message)
        return printable(" ".join(parts))

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready mapping of every field."""
        return asdict(self)


def sort_problems(problems: Iterable[BankProblem], files: Sequence[str] = ()) -> list[BankProblem]:
    """Problems ordered by file (in ``files`` order, then by name) and position in the file."""
    order = {name: i for i, name in enumerate(files)}
    return sorted(
        problems,
        key=lambda p: (order.get(p.file, len(order)), p.file, p.line or 0, p.column or 0),
    )


class BankError(Exception):
    """Raised when one or more banks have content errors; carries every problem found.

    ``files`` lists every bank file that was checked (for the "N of M banks" summary).
    """

    def __init__(self, problems: Sequence[BankProblem], files: Sequence[str] = ()) -> None:
        self.problems: tuple[BankProblem, ...] = tuple(problems)
        self.files: tuple[str, ...] = tuple(files)
        count = len(self.problems)
        first = f": {self.problems[0]}" if self.problems else ""
        more = f" (and {count - 1} more)" if count > 1 else ""
        plural = "s" if count != 1 else ""
        super().__init__(f"{count} problem{plural} in question banks{first}{more}")


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def summary(
    problems: Sequence[BankProblem], *, files: int | None = None, questions: int | None = None
) -> str:
    """The summary line.

    Args:
        problems: every problem found.
        files: how many bank files were checked (defaults to the files with problems);
            problems in pages (``.md``) are counted apart, as pages, and those in other
            files (a site's static file, a folder) as other files.
        questions: how many questions loaded (only shown when all is well).
    """
    if problems:
        pages = {p.file for p in problems if p.file.endswith(".md")}
        banks = {p.file for p in problems if p.file.endswith((".yml", ".yaml"))}
        others = {p.file for p in problems} - pages - banks
        total = files if files is not None else len(banks)
        where = [f"{len(banks)} of {_plural(total, 'bank')}"] if banks else []
        where += [_plural(len(pages), "page")] if pages else []
        where += [_plural(len(others), "other file")] if others or not where else []
        return f"{_plural(len(problems), 'problem')} in {' and '.join(where)}"
    parts = []
    if files is not None:
        parts.append(_plural(files, "bank"))
    if questions is not None:
        parts.append(_plural(questions, "question"))
    return (", ".join(parts) + ": all good") if parts else "all good"


def format_text(
    problems: Sequence[BankProblem], *, files: int | None = None, questions: int | None = None
) -> str:
    """Every problem on its own line, then the :func:`summary` line (no trailing newline)."""
    lines = [str(problem) for problem in problems]
    lines.append(summary(problems, files=files, questions=questions))
    return "\n".join(lines)


def format_json(
    problems: Sequence[BankProblem], *, files: int | None = None, questions: int | None = None
) -> str:
    """A JSON object: ``ok``, ``summary``, ``banks``, ``questions`` and ``problems``.

    Each problem has ``file``, ``line``, ``column`` (null for whole-file problems),
    ``question_id``, ``field``, ``message``, ``expected`` and ``found``. Control and format
    characters are written as ``\\uXXXX`` escapes: the values are unchanged, the text is
    safe to print.
    """
    payload = {
        "ok": not problems,
        "summary": summary(problems, files=files, questions=questions),
        "banks": files,
        "questions": questions,
        "problems": [problem.to_dict() for problem in problems],
    }
    text = json.dumps(payload, ensure_ascii=False, indent=2)
    # json leaves C1 controls, bidi and other format characters raw without ensure_ascii.
    return "".join(ch if ch.isprintable() or ch == "\n" else json.dumps(ch)[1:-1] for ch in text)
