"""Aiken (Moodle's simplest question format) read into drafts.

Each question is its text on one line, its options on the lines after it, each starting
with a capital letter and ``.`` or ``)`` (``A. Paris``, ``B) Lyon``), and a line
``ANSWER: B`` naming the right one; questions are apart by blank lines. Aiken has no
feedback, no titles and no other types.
"""

from __future__ import annotations

import re
from pathlib import Path

from konum.importers.markdown import plain, to_markdown
from konum.importers.model import Draft, Found, Left, read_text

_OPTION = re.compile(r"^([A-Z])[.)]\s+(.*)$")
_ANSWER = re.compile(r"^ANSWER:\s*([A-Z])\s*$")


def read_aiken(path: Path) -> Found:
    """The questions of the Aiken file at ``path``.

    Raises:
        SourceError: the file is not UTF-8 text.
    """
    source = read_text(path)
    found = Found()
    block: list[tuple[int, str]] = []
    for number, line in enumerate([*source.splitlines(), ""], start=1):
        if line.strip():
            block.append((number, line.strip()))
            continue
        if block:
            _question(path, block, found)
        block = []
    return found


def _question(path: Path, block: list[tuple[int, str]], found: Found) -> None:
    first = block[0][0]
    answer = _ANSWER.match(block[-1][1])
    options = [(line, _OPTION.match(text)) for line, text in block[1:-1]]
    prompt = to_markdown(block[0][1])
    name = " ".join(plain(prompt).split()[:8]) or f"question {first}"
    bad = next((line for line, match in options if match is None), None)
    if answer is None or bad is not None or len(options) < 2:
        why = (
            "its last line is not 'ANSWER: <letter>'"
            if answer is None
            else f"line {bad} is not an option ('A. text')"
            if bad is not None
            else "it has fewer than two options"
        )
        found.left.append(Left(str(path), name, first, why))
        return
    letters = [m.group(1) for _, m in options if m]
    if answer.group(1) not in letters:
        found.left.append(
            Left(str(path), name, first, f"ANSWER names {answer.group(1)}, which is no option")
        )
        return
    texts = [to_markdown(m.group(2)) for _, m in options if m]
    right = texts[letters.index(answer.group(1))]
    draft = Draft(name, first, {"type": "choice", "prompt": prompt})
    draft.fields["options"] = [
        {"text": t, "correct": True} if t == right else {"text": t} for t in texts
    ]
    draft.fields["explanation"] = f"{right}."
    draft.notes.append("Aiken has no feedback: the explanation only states the answer; say why")
    found.drafts.append(draft)
