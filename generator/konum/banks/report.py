"""Problems as text (one line each, like a compiler) and as JSON (for editors and CI).

Text lines have the form ``FILE:LINE:COL: [question-id] field: message``; the id and field
parts are left out when they do not apply, and whole-file problems print ``FILE: message``.
The last line is a summary: ``2 problems in 1 of 9 banks`` or
``9 banks, 87 questions: all good``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from konum.banks.errors import BankProblem


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def summary(
    problems: Sequence[BankProblem], *, files: int | None = None, questions: int | None = None
) -> str:
    """The summary line.

    Args:
        problems: every problem found.
        files: how many bank files were checked (defaults to the files with problems).
        questions: how many questions loaded (only shown when all is well).
    """
    if problems:
        bad = len({p.file for p in problems})
        total = files if files is not None else bad
        return f"{_plural(len(problems), 'problem')} in {bad} of {_plural(total, 'bank')}"
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
