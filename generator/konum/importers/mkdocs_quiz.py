"""mkdocs-quiz pages read into drafts, and the pages rewritten to ask them with konum.

mkdocs-quiz 1.7's syntax (its ``parsing.py`` and README): a ``<quiz>`` ... ``</quiz>``
block outside fenced code holds the question, then ``- [x]`` / ``- [ ]`` answer lines
(``*`` bullets too; ``x`` marks a right one; ``> text`` lines right under an answer are its
feedback), then free Markdown shown after answering (the content section). A fill-in
question writes each blank as ``[[answer]]`` in its text, and a line ``---`` starts its
content section. ``<!-- mkdocs-quiz intro -->`` and ``<!-- mkdocs-quiz results -->`` mark
where the plugin puts its intro and score; konum's quiz blocks carry their own score line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from textwrap import dedent

from konum.importers.model import Draft, Left

_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,}).*?\n.*?^[ \t]*\1[ \t]*$", re.M | re.S)
_QUIZ = re.compile(r"<quiz>(.*?)</quiz>", re.S)
_CHECKBOX = re.compile(r"^[-*] \[(.?)\] (.*)$")
_FEEDBACK = re.compile(r"^\s*>\s?(.*)$")
_BLANK = re.compile(r"\[\[([^\]]+)\]\]")
_MARKERS = re.compile(
    r"^[ \t]*<!--\s*mkdocs-quiz\s+(?:intro|results)\s*-->[ \t]*(?:\n[ \t]*(?=\n))?\n?", re.M
)
_HEADING = re.compile(r"^#\s+(.+?)\s*#*\s*$", re.M)


@dataclass
class Page:
    """One page's quizzes: its drafts (in page order), the spans of text they replace, and
    what could not be converted."""

    path: Path
    text: str
    title: str
    drafts: list[Draft] = field(default_factory=list)
    spans: list[tuple[int, int]] = field(default_factory=list)
    left: list[Left] = field(default_factory=list)

    def rewritten(self) -> str:
        """The page with each quiz a ``/// question`` block holding its question (the
        drafts have their ids by then) and mkdocs-quiz's markers gone."""
        from konum.importers.write import question_text

        out, end = [], 0
        for (start, stop), draft in zip(self.spans, self.drafts, strict=True):
            out.append(self.text[end:start])
            out.append(f"/// question\n{question_text(draft)}///")
            end = stop
        out.append(self.text[end:])
        return _MARKERS.sub("", "".join(out))


def _outside_fences(text: str) -> list[re.Match[str]]:
    fences = [(m.start(), m.end()) for m in _FENCE.finditer(text)]
    quizzes = list(_QUIZ.finditer(text))
    # A fence inside a quiz belongs to the quiz (mkdocs-quiz masks only fences outside).
    inside = [(s, e) for s, e in fences if not any(q.start() < s < q.end() for q in quizzes)]
    return [q for q in quizzes if not any(s <= q.start() < e for s, e in inside)]


def read_page(path: Path, text: str) -> Page:
    """The quizzes of the page ``path`` (whose text is ``text``)."""
    heading = _HEADING.search(text)
    page = Page(path, text, heading.group(1) if heading else path.stem.replace("-", " ").title())
    for match in _outside_fences(text):
        line = text.count("\n", 0, match.start()) + 1
        body = dedent(match.group(1)).strip("\n")
        try:
            draft = _fill(body, line) if _BLANK.search(body) else _choice(body, line)
        except ValueError as exc:
            page.left.append(Left(str(path), _name(body), line, str(exc)))
            continue
        page.drafts.append(draft)
        page.spans.append((match.start(), match.end()))
    return page


def _name(body: str) -> str:
    first = next((ln.strip() for ln in body.splitlines() if ln.strip()), "quiz")
    return " ".join(_BLANK.sub(r"\1", first).split()[:8])


def _explained(draft: Draft, content: str, said: str) -> None:
    if content.strip():
        draft.fields["explanation"] = content.strip()
    else:
        draft.fields["explanation"] = said
        draft.notes.append(
            "the quiz had no content section: the explanation only states the answer; say why"
        )


def _choice(body: str, line: int) -> Draft:
    lines = body.split("\n")
    first = next((i for i, ln in enumerate(lines) if _CHECKBOX.match(ln)), None)
    if first is None:
        raise ValueError("a quiz with no answers (- [x] ...) is not a question")
    options, i = [], first
    while i < len(lines):
        box = _CHECKBOX.match(lines[i])
        if box:
            if box.group(1) not in ("x", "X", " ", ""):
                raise ValueError(f"'[{box.group(1)}]' is no checkbox: [x] or [ ]")
            option: dict[str, object] = {"text": box.group(2).strip()}
            if box.group(1).lower() == "x":
                option["correct"] = True
            feedback, i = [], i + 1
            while i < len(lines) and _FEEDBACK.match(lines[i]):
                feedback.append(_FEEDBACK.match(lines[i]).group(1))  # type: ignore[union-attr]
                i += 1
            if feedback:
                option["feedback"] = "\n".join(feedback).strip()
            options.append(option)
        elif not lines[i].strip():
            i += 1
        else:
            break
    rights = [str(o["text"]) for o in options if o.get("correct")]
    if not rights:
        raise ValueError("no answer is marked right ([x])")
    draft = Draft(_name(body), line, {"type": "choice", "prompt": "\n".join(lines[:first]).strip()})
    draft.fields["options"] = options
    _explained(draft, "\n".join(lines[i:]), "; ".join(rights) + ".")
    return draft


def _fill(body: str, line: int) -> Draft:
    lines = body.split("\n")
    cut = next((i for i, ln in enumerate(lines) if ln.strip() == "---"), len(lines))
    question = "\n".join(lines[:cut]).strip()
    answers = [m.group(1).strip() for m in _BLANK.finditer(question)]
    if not answers:
        raise ValueError("its blanks ([[answer]]) are in the content section, not the question")
    draft = Draft(_name(body), line, {"type": "fill", "prompt": _BLANK.sub("____", question)})
    draft.fields["blanks"] = [{"answers": [answer]} for answer in answers]
    _explained(draft, "\n".join(lines[cut + 1 :]), "; ".join(answers) + ".")
    return draft
