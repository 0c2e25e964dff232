"""The ``/// quiz``, ``/// study`` and ``/// progress`` blocks: a course's questions, rendered
into the page.

Syntax (pymdownx Blocks)::

    /// quiz | sinusoidal
    ///

    /// quiz | sinusoidal
        questions: sin-entry, sin-why-pairs
    ///

    /// study
    ///

    /// progress
    ///

A quiz block names a bank (``<banks>/<bank>.yml``); the optional ``questions`` option keeps
only those ids, in that order. The study block shows every card of the course, one at a time;
the progress block is the course overview (each lesson's score and cards due, the learner's
data). The HTML comes from :func:`konum.render.render_quiz` (or ``render_study``,
``render_progress``)
and is stashed, so Markdown never touches it. The blocks take the course from
:func:`konum.course.course_for` with the extension's options (see :mod:`konum.config`).
"""

from __future__ import annotations

import xml.etree.ElementTree as etree
from typing import Any, ClassVar

from markdown import Markdown
from pymdownx.blocks import BlocksExtension, BlocksProcessor
from pymdownx.blocks.block import Block, type_any

from konum.config import Options
from konum.course import Course, course_for

try:  # MkDocs prints a BuildError as one clean line; Zensical and plain Markdown need no base.
    from mkdocs.exceptions import BuildError as _Base
except ImportError:  # pragma: no cover - without MkDocs
    _Base = Exception  # type: ignore[misc,assignment]


class QuizError(_Base):
    """A quiz block that is malformed, names a bank or question that does not exist, or
    shows banks that have problems."""


def _course(options: Options) -> Course:
    from konum.banks import BankError, format_text
    from konum.errors import KonumError

    try:
        return course_for(options)
    except BankError as exc:
        raise QuizError("the question banks have problems:\n" + format_text(exc.problems)) from None
    except KonumError as exc:  # the order option, a `generators` entry that does not import
        raise QuizError(str(exc)) from None


class QuizBlock(Block):  # type: ignore[misc]  # pymdownx ships no type hints
    """``/// quiz | <bank id>`` with an optional ``questions`` option."""

    NAME = "quiz"
    ARGUMENT = True
    OPTIONS: ClassVar[dict[str, tuple[Any, Any]]] = {"questions": ("", type_any)}

    def on_validate(self, parent: etree.Element) -> bool:
        options: Options = self.config["options"]
        course = _course(options)
        bank_id = str(self.argument or "").strip()
        if not bank_id:
            raise QuizError("/// quiz needs a bank after a bar: /// quiz | BANK")
        if bank_id not in course.by_id:
            from konum.formatting import did_you_mean

            known = ", ".join(sorted(course.by_id)) or "none"
            raise QuizError(
                f"/// quiz names bank {bank_id!r}, which does not exist"
                f"{did_you_mean(bank_id, course.by_id)} (banks: {known})"
            )
        bank = course.by_id[bank_id]
        wanted = self.options["questions"]
        if isinstance(wanted, str):
            wanted = [part.strip() for part in wanted.split(",") if part.strip()]
        ids = [str(w) for w in wanted] if wanted else [q.id for q in bank.questions]
        in_bank = {q.id for q in bank.questions}
        missing = [i for i in ids if i not in in_bank]
        if missing:
            raise QuizError(
                f"/// quiz | {bank_id}: no question {', '.join(map(repr, missing))} in that bank"
            )
        self.course, self.bank, self.ids = course, bank, ids
        counts: dict[str, int] = self.tracker.setdefault("quiz_ids", {})
        counts[bank_id] = counts.get(bank_id, 0) + 1
        self.quiz_id = bank_id if counts[bank_id] == 1 else f"{bank_id}-{counts[bank_id]}"
        return True

    def on_create(self, parent: etree.Element) -> etree.Element:
        return etree.SubElement(parent, "div", {"class": "konum-quiz-host"})

    def on_end(self, block: etree.Element) -> None:
        from konum.render import render_quiz

        try:
            concretes = [self.course.concrete(self.bank.question(i)) for i in self.ids]
            html = render_quiz(
                concretes,
                self.quiz_id,
                title=self.bank.title,
                language=self.config["options"].language,
            )
        except ValueError as exc:  # a generator, a prompt template or its math fails
            raise QuizError(f"/// quiz | {self.bank.id}: {exc}") from None
        for child in list(block):  # the block has no Markdown content of its own
            block.remove(child)
        block.text = self.md.htmlStash.store(html)


class StudyBlock(Block):  # type: ignore[misc]
    """``/// study``: every card of the course, studied one at a time in the page."""

    NAME = "study"
    ARGUMENT = False

    def on_create(self, parent: etree.Element) -> etree.Element:
        return etree.SubElement(parent, "div", {"class": "konum-study-host"})

    def on_end(self, block: etree.Element) -> None:
        from konum.errors import ExportError
        from konum.render import render_study

        options: Options = self.config["options"]
        course = _course(options)
        try:
            html = render_study(course, options.language)
        except (ValueError, ExportError) as exc:
            raise QuizError(f"/// study: {exc}") from None
        for child in list(block):
            block.remove(child)
        block.text = self.md.htmlStash.store(html)


class ProgressBlock(Block):  # type: ignore[misc]
    """``/// progress``: the course overview, per lesson its quiz score and the cards due."""

    NAME = "progress"
    ARGUMENT = False

    def on_create(self, parent: etree.Element) -> etree.Element:
        return etree.SubElement(parent, "div", {"class": "konum-progress-host"})

    def on_end(self, block: etree.Element) -> None:
        from konum.errors import ExportError
        from konum.render import render_progress

        options: Options = self.config["options"]
        try:
            html = render_progress(_course(options), options.language)
        except (ValueError, ExportError) as exc:
            raise QuizError(f"/// progress: {exc}") from None
        for child in list(block):
            block.remove(child)
        block.text = self.md.htmlStash.store(html)


class QuizExtension(BlocksExtension):  # type: ignore[misc]
    """Registers ``/// quiz``, ``/// study`` and ``/// progress`` for a course's options."""

    def __init__(self, options: Options) -> None:
        self.options = options
        super().__init__()

    def extendMarkdownBlocks(self, md: Markdown, block_mgr: BlocksProcessor) -> None:
        block_mgr.register(QuizBlock, {"options": self.options})
        block_mgr.register(StudyBlock, {"options": self.options})
        block_mgr.register(ProgressBlock, {"options": self.options})
