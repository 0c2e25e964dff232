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

    /// quiz | rope
        draw: 5
        tags: why, long-context
        attempts: 2
    ///

    /// quiz | sinusoidal, relative, rope
        draw: 6
        mode: exam
        time_limit: 10 min
    ///

A quiz block names a bank (``<banks>/<bank>.yml``), or several separated by commas; the
optional ``questions`` option keeps only those ids, in that order, and ``tags`` only the
questions with one of those tags. ``draw: N`` shows N of them, drawn in the reader's browser;
``attempts`` limits each question's checks (unless it sets its own); ``mode: exam`` gives one
submission for the whole quiz, with an optional ``time_limit`` (``90 s``, ``10 min``; a bare
number is minutes). Mistakes in the options are errors naming the page's line. The study
block shows every card of the course, one at a time; the progress block is the course
overview (each lesson's score and cards due, the learner's data). The HTML comes from
:func:`konum.render.render_quiz` (or ``render_study``, ``render_progress``)
and is stashed, so Markdown never touches it. The blocks take the course from
:func:`konum.course.course_for` with the extension's options (see :mod:`konum.config`).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as etree
from typing import Any, ClassVar, TypedDict

from markdown import Markdown
from pymdownx.blocks import BlocksExtension, BlocksProcessor
from pymdownx.blocks.block import Block, type_any

from konum import limits, model
from konum.config import Options
from konum.course import Course, course_for

try:  # MkDocs prints a BuildError as one clean line; Zensical and plain Markdown need no base.
    from mkdocs.exceptions import BuildError as _Base
except ImportError:  # pragma: no cover - without MkDocs
    _Base = Exception  # type: ignore[misc,assignment]


class QuizError(_Base):
    """A quiz block that is malformed, names a bank or question that does not exist, or
    shows banks that have problems."""


class _Settings(TypedDict):
    """A quiz block's options as :func:`konum.render.render_quiz` takes them."""

    draw: int | None
    mode: str
    time_limit: int | None
    attempts: int | None


def _course(options: Options) -> Course:
    from konum.banks import BankError, format_text
    from konum.errors import KonumError

    try:
        return course_for(options)
    except BankError as exc:
        raise QuizError("the question banks have problems:\n" + format_text(exc.problems)) from None
    except KonumError as exc:  # the order option, a `generators` entry that does not import
        raise QuizError(str(exc)) from None


_TIME = re.compile(r"(?P<value>\d+(?:\.\d+)?)\s*(?P<unit>s|sec|seconds?|m|min|minutes?)?")


def _names(value: object) -> list[str]:
    """An option that lists names: ``a, b`` or a YAML list."""
    if isinstance(value, str):
        return [part.strip() for part in value.split(",") if part.strip()]
    if isinstance(value, (list, tuple)):
        return [str(part).strip() for part in value if str(part).strip()]
    return [] if value in (None, "") else [str(value)]


def _whole(where: str, name: str, value: object, low: int, high: int) -> int | None:
    """A whole-number option from ``low`` to ``high`` (None when not given)."""
    if value in (None, ""):
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise QuizError(
            f"{where}: {name}: expected a whole number from {low} to {high}, found {value!r}"
        )
    return value


def _time_limit(where: str, value: object) -> int | None:
    """``time_limit`` in seconds: ``90 s``, ``10 min`` or a bare number of minutes."""
    if value in (None, ""):
        return None
    match = _TIME.fullmatch(str(value).strip()) if not isinstance(value, bool) else None
    seconds = 0.0
    if match:
        unit = match.group("unit") or "min"
        seconds = float(match.group("value")) * (1 if unit.startswith("s") else 60)
    if not match or not 1 <= seconds <= limits.TIME_LIMIT:
        raise QuizError(
            f"{where}: time_limit: expected a time such as '90 s' or '20 min' (at most "
            f"{limits.TIME_LIMIT // 60} min), found {value!r}"
        )
    return round(seconds)


class QuizBlock(Block):  # type: ignore[misc]  # pymdownx ships no type hints
    """``/// quiz | <bank id>[, <bank id>...]`` with the options of the module docstring."""

    NAME = "quiz"
    ARGUMENT = True
    OPTIONS: ClassVar[dict[str, tuple[Any, Any]]] = {
        "questions": ("", type_any),
        "tags": ("", type_any),
        "draw": (None, type_any),
        "attempts": (None, type_any),
        "mode": ("practice", type_any),
        "time_limit": (None, type_any),
    }

    def on_validate(self, parent: etree.Element) -> bool:
        options: Options = self.config["options"]
        course = _course(options)
        bank_ids = _names(self.argument)
        counts: dict[str, int] = self.tracker.setdefault("quiz_ids", {})
        lines: list[int] = getattr(self.md, "konum_quiz_lines", [])
        number = sum(counts.values())
        where = f"line {lines[number]}: /// quiz" if number < len(lines) else "/// quiz"
        if not bank_ids:
            raise QuizError(f"{where} needs a bank after a bar: /// quiz | BANK")
        where = f"{where} | {', '.join(bank_ids)}"
        for bank_id in bank_ids:
            if bank_id not in course.by_id:
                from konum.formatting import did_you_mean

                known = ", ".join(sorted(course.by_id)) or "none"
                raise QuizError(
                    f"{where}: names bank {bank_id!r}, which does not exist"
                    f"{did_you_mean(bank_id, course.by_id)} (banks: {known})"
                )
        banks = [course.by_id[b] for b in bank_ids]
        pool = {q.id: q for bank in banks for q in bank.questions}
        wanted = _names(self.options["questions"])
        ids = wanted or list(pool)
        missing = [i for i in ids if i not in pool]
        if missing:
            what = "that bank" if len(banks) == 1 else "those banks"
            raise QuizError(f"{where}: no question {', '.join(map(repr, missing))} in {what}")
        tags = _names(self.options["tags"])
        if tags:
            ids = [i for i in ids if set(pool[i].tags) & set(tags)]
            if not ids:
                raise QuizError(f"{where}: no question has the tags {', '.join(tags)}")
        draw = _whole(where, "draw", self.options["draw"], 1, limits.MAX_DRAW)
        if draw is not None and draw > len(ids):
            raise QuizError(
                f"{where}: draw: expected at most {len(ids)} (the questions to draw from), "
                f"found {draw}"
            )
        mode = str(self.options["mode"] or "practice").strip()
        if mode not in ("practice", "exam"):
            raise QuizError(f"{where}: mode: expected practice or exam, found {mode!r}")
        time_limit = _time_limit(where, self.options["time_limit"])
        if time_limit is not None and mode != "exam":
            raise QuizError(f"{where}: time_limit: only an exam has one (add 'mode: exam')")
        if mode == "exam":
            unscored = [i for i in ids if pool[i].type not in model.EXAM_TYPES]
            if unscored:
                kinds = sorted({pool[i].type for i in unscored})
                raise QuizError(
                    f"{where}: mode: exam: expected questions that can be scored, found "
                    f"{', '.join(map(repr, unscored))} (type {', '.join(kinds)})"
                )
        attempts = _whole(where, "attempts", self.options["attempts"], *limits.ATTEMPTS)
        self.course, self.banks, self.pool, self.ids = course, banks, pool, ids
        self.settings: _Settings = {
            "draw": draw,
            "mode": mode,
            "time_limit": time_limit,
            "attempts": attempts,
        }
        base = "-".join(bank_ids)
        counts[base] = counts.get(base, 0) + 1
        self.quiz_id = base if counts[base] == 1 else f"{base}-{counts[base]}"
        return True

    def on_create(self, parent: etree.Element) -> etree.Element:
        return etree.SubElement(parent, "div", {"class": "konum-quiz-host"})

    def on_end(self, block: etree.Element) -> None:
        from konum.render import render_quiz

        try:
            concretes = [self.course.concrete(self.pool[i]) for i in self.ids]
            html = render_quiz(
                concretes,
                self.quiz_id,
                title=" · ".join(bank.title for bank in self.banks),
                language=self.config["options"].language,
                **self.settings,
            )
        except ValueError as exc:  # a generator, a prompt template or its math fails
            names = ", ".join(bank.id for bank in self.banks)
            raise QuizError(f"/// quiz | {names}: {exc}") from None
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
