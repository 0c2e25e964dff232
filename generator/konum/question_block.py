"""``/// question``: one question written in the page, in the bank format.

Syntax (pymdownx Blocks; the lines inside are one question of a bank file, unindented)::

    /// question
    id: speed
    type: numeric
    prompt: A car covers 100 m in 5 s. What is its speed in m/s?
    answer: 20
    explanation: Speed is distance over time, 100 / 5 = 20.
    ///

The page is the question's bank: :func:`konum.load.load_page` reads the blocks of every
page below the ``pages`` option with the bank files, so a question written here is checked
(at the page's line), numbered, translated (each edition's page carries its own text),
exported, studied and printed like any other. The block shows it as a quiz of one question.
Its ``id`` finds it in the course; the block itself takes no option.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as etree
from collections.abc import Sequence
from typing import Any, ClassVar

import yaml
from pymdownx.blocks.block import Block

from konum.blocks import END
from konum.errors import PageError
from konum.render import render_quiz

_HEADER = re.compile(r"^ {0,3}/// *question\b(?P<rest>.*)$")


class QuestionError(PageError):
    """A ``/// question`` block that is malformed or whose question the course lacks."""


def question_header(lines: Sequence[str], index: int) -> tuple[str | None, list[PageError]] | None:
    """For a line ``lines[index]`` that starts a ``/// question`` block: the id its question
    gives (None when it cannot be read: the bank's check says why, at its line) and the
    problems of the block itself, each ``line N: ...``; None for another line."""
    header = _HEADER.match(lines[index])
    if header is None:
        return None
    number = index + 1
    if header.group("rest").strip():
        return None, [
            QuestionError(
                f"line {number}: {lines[index].strip()!r}: a question block takes nothing "
                "after its name; write '/// question', the question's lines, then '///'"
            )
        ]
    end = next((i for i in range(index + 1, len(lines)) if END.match(lines[i])), None)
    if end is None:
        return None, [QuestionError(f"line {number}: /// question: no '///' line closes it")]
    try:
        written = yaml.safe_load("\n".join(lines[index + 1 : end]))
    except yaml.YAMLError:
        written = None
    ident = written.get("id") if isinstance(written, dict) else None
    return (ident if isinstance(ident, str) else None), []


class QuestionBlock(Block):  # type: ignore[misc]  # pymdownx ships no type hints
    """``/// question`` with one question inside (see the module docstring). The extension
    (``config["extension"]``) gives the course (``course()``), the page's question blocks
    (``question_ids``: line and id, in order) and the list its problems go to."""

    NAME = "question"
    ARGUMENT = False
    OPTIONS: ClassVar[dict[str, tuple[Any, Any]]] = {}

    def on_markdown(self) -> str:
        return "raw"  # YAML, read by the load stage: Markdown must not touch it

    def on_validate(self, parent: etree.Element) -> bool:
        blocks: list[tuple[int, str | None]] = self.config["extension"].question_ids
        seen = self.tracker.setdefault("seen", [0])
        shown: tuple[int, str | None] = blocks[seen[0]] if seen[0] < len(blocks) else (0, None)
        self.line, self.question_id = shown
        seen[0] += 1
        return True

    def on_create(self, parent: etree.Element) -> etree.Element:
        return etree.SubElement(parent, "div", {"class": "konum-quiz-host"})

    def on_end(self, block: etree.Element) -> None:
        extension = self.config["extension"]
        where = f"line {self.line}: /// question" if self.line else "/// question"
        try:
            course = extension.course()
        except PageError as exc:
            extension.problems.append(exc)
            return
        found = {q.id: q for bank in course.banks for q in bank.questions}
        question = found.get(self.question_id) if self.question_id else None
        if question is None:
            extension.problems.append(
                QuestionError(
                    f"{where}: question {self.question_id!r} is not in the course: a page's "
                    "questions are read from the pages below the konum option 'pages' "
                    f"({extension.options.pages})"
                )
            )
            return
        try:
            html = render_quiz(
                [course.concrete(question)],
                question.id,
                language=extension.options.language,
                plugins=course.plugins,
                images=course.images,
            )
        except ValueError as exc:  # a generator, a prompt template or its math fails
            extension.problems.append(QuestionError(f"{where} ({question.id}): {exc}"))
            return
        for child in list(block):
            block.remove(child)
        block.text = self.md.htmlStash.store(html)
