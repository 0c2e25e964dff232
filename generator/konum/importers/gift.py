"""GIFT (Moodle's plain-text question format) read into drafts.

The grammar is Moodle's "GIFT format" documentation page: questions apart by blank lines;
``//`` comment lines; ``$CATEGORY: path``; an optional ``::title::`` and ``[html]``,
``[markdown]``, ``[plain]`` or ``[moodle]`` format; the answers between ``{`` and ``}``
(text after them makes a "missing word" question); ``\\`` escapes ``~ = # { } :`` and
itself. Inside the braces: ``=right ~wrong`` (multiple choice, ``~%50%`` partial credit,
several right ones by positive percentages), ``=a =b`` alone (short answer), ``=l -> r``
(matching; ``= -> r`` an extra right item), ``T``/``F`` (true/false), ``#n:tol`` or
``#lo..hi`` (numerical), ``{}`` (essay); ``#`` gives an answer's feedback and ``####`` the
general feedback. No Python library kept up to date reads GIFT (pygiftparser's last
release is from 2017), so this module does; the tests check it against gift-pegjs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from konum.importers.markdown import plain, to_markdown
from konum.importers.model import (
    UNEQUAL_SHARES,
    Draft,
    Found,
    Left,
    SourceError,
    no_credit,
    read_text,
)

_ESCAPED = "~=#{}:\\"
_PERCENT = re.compile(r"^%(-?\d+(?:\.\d+)?)%")


@dataclass
class _Answer:
    right: bool
    text: str  # as Markdown
    raw: str  # as written, escapes read (a blank's answer, a matching pair's parts)
    feedback: str
    percent: float | None


def _unescape(text: str) -> str:
    out, i = [], 0
    while i < len(text):
        if text[i] == "\\" and i + 1 < len(text):
            nxt = text[i + 1]
            out.append("\n" if nxt == "n" else nxt if nxt in _ESCAPED else "\\" + nxt)
            i += 2
            continue
        out.append(text[i])
        i += 1
    return "".join(out)


def _split(text: str, marks: str) -> list[tuple[str, str]]:
    """``text`` cut before each unescaped character of ``marks``: (mark, piece) pairs; the
    first piece's mark is ""."""
    pieces, start, mark, i = [], 0, "", 0
    while i < len(text):
        if text[i] == "\\":
            i += 2
            continue
        if text[i] in marks:
            pieces.append((mark, text[start:i]))
            mark, start = text[i], i + 1
        i += 1
    pieces.append((mark, text[start:]))
    return pieces


def _find(text: str, char: str, start: int = 0) -> int:
    """The index of the first unescaped ``char`` at or after ``start``, or -1."""
    i = start
    while i < len(text):
        if text[i] == "\\":
            i += 2
            continue
        if text[i] == char:
            return i
        i += 1
    return -1


def _blocks(source: str) -> list[tuple[int, str]]:
    """The file's questions and category lines, each with its first line, comments out."""
    blocks: list[tuple[int, str]] = []
    lines: list[str] = []
    first = 0
    for number, line in enumerate(source.splitlines(), start=1):
        stripped = line.strip()
        if stripped.startswith("//"):
            continue
        if not stripped and not _open(lines):
            if lines:
                blocks.append((first, "\n".join(lines)))
            lines = []
            continue
        if stripped.startswith("$CATEGORY:") and not _open(lines):
            if lines:
                blocks.append((first, "\n".join(lines)))
            blocks.append((number, stripped))
            lines = []
            continue
        if not lines:
            first = number
        lines.append(line)
    if lines:
        blocks.append((first, "\n".join(lines)))
    return blocks


def _open(lines: list[str]) -> bool:
    """Whether the question so far has a ``{`` not yet closed (a blank line inside the
    braces does not end it)."""
    text, depth = "\n".join(lines), 0
    for mark, _ in _split(text, "{}")[1:]:
        depth += 1 if mark == "{" else -1
    return depth > 0


def read_gift(path: Path) -> Found:
    """The questions of the GIFT file at ``path``.

    Raises:
        SourceError: the file is not UTF-8 text.
    """
    source = read_text(path)
    found, category = Found(), ""
    for line, block in _blocks(source):
        if block.startswith("$CATEGORY:"):
            category = "/".join(
                p for p in block.split(":", 1)[1].strip().split("/") if p and not p.startswith("$")
            )
            category = category[4:] if category.startswith("top/") else category
            found.title = found.title or category.rsplit("/", 1)[-1]
            continue
        name, text = _title(block)
        name = name or " ".join(plain(_unescape(text.split("{", 1)[0])).split()[:8])
        try:
            draft = _question(name, line, text)
        except _Unheld as exc:
            found.left.append(Left(str(path), name or f"question {line}", line, str(exc)))
            continue
        draft.category = category
        found.drafts.append(draft)
    return found


class _Unheld(Exception):
    """This question cannot be held by konum: the message says why."""


def _title(block: str) -> tuple[str, str]:
    text = block.strip()
    if text.startswith("::"):
        end = _find(text, ":", 2)
        while end >= 0 and text[end : end + 2] != "::":
            end = _find(text, ":", end + 1)
        if end >= 0:
            return _unescape(text[2:end]).strip(), text[end + 2 :].strip()
    return "", text


def _markdown(text: str, form: str) -> str:
    text = _unescape(text).strip()
    return text if form == "markdown" else to_markdown(text)


def _question(name: str, line: int, text: str) -> Draft:
    form = "moodle"
    match = re.match(r"^\[(html|markdown|plain|moodle)\]", text)
    if match:
        form, text = match.group(1), text[match.end() :]
    start = _find(text, "{")
    if start < 0:
        raise _Unheld("a description (text with no answers) is not a question")
    end = _find(text, "}", start)
    if end < 0:
        raise SourceError(f"question at line {line}: its answers open with {{ but never close")
    before, inside, after = (
        text[:start].strip(),
        text[start + 1 : end].strip(),
        text[end + 1 :].strip(),
    )
    general = ""
    cut = inside.find("####")
    if cut >= 0:
        inside, general = inside[:cut].strip(), _markdown(inside[cut + 4 :], form)
    draft = Draft(name or " ".join(plain(_unescape(before or after)).split()[:8]), line, {})
    fields = _answers(inside, form, draft)
    said, kind = fields.pop("_answer_said"), fields.pop("type")
    # A "missing word" question: the answers stood where the gap is; the text around them
    # is converted as one (HTML may open before the braces and close after them). A blank
    # must be in the prompt; a choice's gap is only shown where text follows it.
    gap, blank = fields.pop("_gap", "…"), fields.pop("_blank", False)
    tail = _markdown(after, form) if after else ""
    if fields.pop("_unit_after", False) and tail and len(tail) <= 12 and " " not in tail:
        fields["unit"] = plain(_unescape(after))  # konum's own export writes the unit there
        prompt = _markdown(before, form)
    elif tail:
        prompt = _markdown(f"{before} {gap} {after}", form)
    else:
        prompt = _markdown(f"{before} {gap if blank else ''} {after}", form)
        if blank and gap not in prompt:
            prompt = f"{prompt}\n\n{gap}"
    draft.fields = {"type": kind, "prompt": prompt, **fields}
    if general:
        draft.fields["explanation"] = general
    else:
        draft.fields["explanation"] = said
        draft.notes.append(
            "the source has no general feedback: the explanation only states the answer; say why"
        )
    return draft


def _feedback(piece: str, form: str) -> tuple[str, str]:
    cut = _find(piece, "#")
    if cut < 0:
        return _markdown(piece, form), ""
    return _markdown(piece[:cut], form), _markdown(piece[cut + 1 :], form)


def _answers(inside: str, form: str, draft: Draft) -> dict[str, Any]:
    if not inside:
        raise _Unheld("an essay is graded by a person, and konum checks answers in the browser")
    if re.fullmatch(r"(?i)(T|TRUE|F|FALSE)(#.*)?", inside, re.S):
        return _truefalse(inside, form)
    if inside.startswith("#"):
        return _numeric(inside[1:], draft)
    answers = [_answer(mark, piece, form) for mark, piece in _split(inside, "=~")[1:]]
    if not answers:
        raise _Unheld("its answers start with neither = nor ~")
    if any("->" in a.text for a in answers):
        return _matching(answers)
    if all(a.right for a in answers) and not any(a.percent for a in answers):
        said = answers[0].text
        blanks = [{"answers": [plain(a.raw) for a in answers]}]
        return {
            "type": "fill",
            "blanks": blanks,
            "_answer_said": said + ".",
            "_gap": "____",
            "_blank": True,
        }
    return _choice(answers, draft)


def _answer(mark: str, piece: str, form: str) -> _Answer:
    piece = piece.strip()
    percent = None
    match = _PERCENT.match(piece)
    if match:
        percent, piece = float(match.group(1)), piece[match.end() :]
    cut = _find(piece, "#")
    raw = _unescape(piece if cut < 0 else piece[:cut]).strip()
    text, feedback = _feedback(piece, form)
    return _Answer(mark == "=", text, raw, feedback, percent)


def _truefalse(inside: str, form: str) -> dict[str, Any]:
    value, *feedbacks = [p for _, p in _split(inside, "#")]
    truth = value.strip().upper().startswith("T")
    wrong_fb = _markdown(feedbacks[0], form) if feedbacks else ""
    right_fb = _markdown(feedbacks[1], form) if len(feedbacks) > 1 else ""
    options: list[dict[str, Any]] = [{"text": "True"}, {"text": "False"}]
    options[0 if truth else 1].update(correct=True)
    for option in options:
        note = right_fb if option.get("correct") else wrong_fb
        if note:
            option["feedback"] = note
    return {
        "type": "choice",
        "options": options,
        "shuffle": False,
        "_answer_said": ("True" if truth else "False") + ".",
    }


def _numeric(inside: str, draft: Draft) -> dict[str, Any]:
    answers = [p for m, p in _split(inside, "=")] if "=" in inside else [inside]
    right = [
        a
        for a in answers
        if (a.strip() and not _PERCENT.match(a.strip())) or a.strip().startswith("%100%")
    ]
    if not right:
        raise _Unheld("no numeric answer earns full marks")
    value = _PERCENT.sub("", right[0].strip())
    value = value[: _find(value, "#")] if _find(value, "#") >= 0 else value
    value = value.strip()
    if len([a for a in answers if a.strip()]) > 1:
        draft.notes.append(
            "GIFT gave several numeric answers: only the first with full marks is kept"
        )
    try:
        if ".." in value:
            low, high = (float(v) for v in value.split(".."))
            answer, tolerance = (low + high) / 2, (high - low) / 2
        elif ":" in value:
            number, tol = value.split(":", 1)
            answer, tolerance = float(number), abs(float(tol))
        else:
            answer, tolerance = float(value), 0.0
    except ValueError:
        raise _Unheld(f"its numeric answer '{value}' is not a number") from None
    fields: dict[str, Any] = {"type": "numeric", "answer": _tidy(answer), "_unit_after": True}
    if tolerance:
        fields["tolerance"] = _tidy(tolerance)
    fields["_answer_said"] = f"{_tidy(answer)}."
    return fields


def _tidy(value: float) -> int | float:
    return int(value) if float(value).is_integer() and abs(value) < 2**53 else value


def _matching(answers: list[_Answer]) -> dict[str, Any]:
    pairs, distractors = [], []
    for answer in answers:
        left, _, right = answer.raw.partition("->")
        if left.strip():
            pairs.append({"left": to_markdown(left.strip()), "right": plain(right)})
        else:
            distractors.append(plain(right))
    if len(pairs) < 2:
        raise _Unheld("a matching question needs at least two pairs")
    fields: dict[str, Any] = {"type": "matching", "pairs": pairs}
    if distractors:
        fields["distractors"] = distractors
    fields["_answer_said"] = "; ".join(f"{p['left']}: {p['right']}" for p in pairs) + "."
    return fields


def _choice(answers: list[_Answer], draft: Draft) -> dict[str, Any]:
    multiple = any(a.percent and a.percent > 0 for a in answers) and not any(
        a.right for a in answers
    )
    options = []
    for answer in answers:
        right = (answer.percent or 0) > 0 if multiple else answer.right
        if not multiple and not answer.right and answer.percent and answer.percent > 0:
            draft.notes.append(no_credit(answer.text, answer.percent, "GIFT"))
        option: dict[str, Any] = {"text": answer.text}
        if right:
            option["correct"] = True
        if answer.feedback:
            option["feedback"] = answer.feedback
        options.append(option)
    rights = [a.percent for a in answers if multiple and (a.percent or 0) > 0]
    if multiple and any(abs((p or 0) - 100 / len(rights)) > 0.5 for p in rights):
        draft.notes.append(UNEQUAL_SHARES)
    if not any(o.get("correct") for o in options):
        raise _Unheld("no answer is right")
    said = "; ".join(o["text"] for o in options if o.get("correct")) + "."
    return {"type": "choice", "options": options, "_answer_said": said}
