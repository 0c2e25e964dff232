"""``konum.quiz``: the ``/// quiz``, ``/// question`` (:mod:`konum.question_block`),
``/// study``, ``/// progress`` and ``/// explorer`` blocks, and the files the pages that
show one carry.

In ``mkdocs.yml`` (its options are :mod:`konum.config`'s; ``- konum:`` turns it on with
``konum.values`` and ``konum.math``)::

    markdown_extensions:
      - konum.quiz:
          banks: docs/banks

Syntax (pymdownx Blocks)::

    /// quiz | forces
    ///

    /// quiz | forces
        questions: newton-second, free-body
    ///

    /// quiz | energy
        draw: 5
        tags: why, units
        attempts: 2
    ///

    /// quiz | forces, energy, momentum
        draw: 6
        mode: exam
        time_limit: 10 min
    ///

    /// study
    ///

    /// progress
    ///

A quiz block names a bank (``<banks>/<bank>.yml``), or several separated by commas; the
optional ``questions`` option keeps only those ids, in that order, and ``tags`` only the
questions with one of those tags. ``draw: N`` shows N of them, drawn in the reader's browser;
``attempts`` limits each question's checks (unless it sets its own); ``title`` replaces the
heading (by default the banks' titles); ``mode: exam`` gives one
submission for the whole quiz, with an optional ``time_limit`` (``90 s``, ``10 min``; a bare
number is minutes). Mistakes are errors naming the page's line, every one of a page's
(:class:`konum.blocks.PageProblems`); options are typed (pymdownx's ``type_*`` through
:func:`konum.blocks.typed`), so a value of the wrong kind is one of them. The study block
shows every card of the course, one at a time; the progress block is the course overview
(each lesson's score and cards due, the learner's data). The HTML is stashed, so Markdown
never touches it.

A page that shows a block gets konum's CSS and JavaScript inline, at the end of the page,
with the interface texts its scripts use; with the ``nav_progress`` option every page also
gets the navigation's progress marks (``progress.js``). A page with none of them passes
through unchanged. The scripts sit in the page content, which Material's instant navigation
re-runs on every page change (they are idempotent).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as etree
from collections.abc import Sequence
from functools import cached_property
from pathlib import Path
from typing import Any, ClassVar, TypedDict

from markdown import Markdown
from markdown.postprocessors import Postprocessor
from markdown.preprocessors import Preprocessor
from pymdownx.blocks import BlocksExtension, BlocksProcessor
from pymdownx.blocks.block import Block, type_string, type_string_in

from konum import limits
from konum.blocks import (
    NAMES,
    PageProblems,
    block_options,
    check_closed,
    check_empty,
    outside_fences,
    typed,
    whole,
)
from konum.config import DEFAULTS, OptionError, Options, options_from
from konum.course import Course, course_for
from konum.errors import ExportError, KonumError, PageError
from konum.explorer import ExplorerBlock, check_header, explorer_assets, unshown_texts
from konum.files import tree_problems
from konum.formatting import did_you_mean
from konum.math import PageEnd, page_math
from konum.messages import page_messages
from konum.paths import shown as shown_path
from konum.plugins import Plugins, load_plugins
from konum.problems import BankError, format_text
from konum.question_block import QuestionBlock, question_header
from konum.render import asset, part_scripts, render_quiz, script_json
from konum.siteconfig import edition_pages, option_line, refusal
from konum.study import render_progress, render_study


class QuizError(PageError):
    """A quiz block that is malformed, names a bank or question that does not exist, or
    shows banks that have problems."""


class _Settings(TypedDict):
    """A quiz block's options as :func:`konum.render.render_quiz` takes them."""

    draw: int | None
    mode: str
    time_limit: int | None
    attempts: int | None


def assets_html(widget: str, *, exam: bool = False) -> str:
    """The inline ``<style>`` and ``<script>`` of ``widget`` (``quiz``, ``flashcards``,
    ``overview``, ``progress``); with ``exam``, ``quiz-exam.css`` after the quiz's style and
    ``quiz-exam.js`` before its script (which calls it)."""
    css, js = asset(f"{widget}.css"), asset(f"{widget}.js")
    css += asset("quiz-exam.css") if exam else ""
    before = f"<script>{asset('quiz-exam.js')}</script>\n" if exam else ""
    return f'<style data-konum-asset="{widget}">{css}</style>\n{before}<script>{js}</script>\n'


def messages_html(
    language: str,
    sections: list[str],
    folders: tuple[Path, ...] = (),
    leave_out: tuple[str, ...] = (),
    overview: bool = False,
) -> str:
    """The interface texts of ``sections`` for the page's scripts (but for keys starting
    with one of ``leave_out``): JSON in a ``<template>`` (out of reach of instant
    navigation, like the quiz data), and ``messages.js``, which reads them for every konum
    script after it (``window.konumText``). The study page's help says where reviews are
    exported only on a site with a course ``overview``."""
    texts = page_messages(language, sections, folders, leave_out)
    more = texts.pop("study.help_overview", None)
    if overview and isinstance(more, str) and isinstance(texts.get("study.help"), str):
        texts["study.help"] = f"{texts['study.help']} {more}"
    data = script_json(texts)
    script = f'<script type="application/json">{data}</script>'
    reader = f"<script>{asset('messages.js')}</script>"
    return f"<template data-konum-messages>{script}</template>\n{reader}\n"


def _course(options: Options) -> Course:
    try:
        return course_for(options)
    except BankError as exc:
        # MkDocs heads this with the page it was rendering: say where the problems are.
        where = "the question banks have problems (in the bank files, not in this page):\n"
        raise QuizError(where + format_text(exc.problems)) from None
    except KonumError as exc:  # the order option, a plugin that does not import
        raise QuizError(f"in the site's configuration, not in this page: {exc}") from None


_TIME = re.compile(r"(?P<value>\d+(?:\.\d+)?)\s*(?P<unit>s|sec|seconds?|m|min|minutes?)?")


def _names(value: object) -> list[str]:
    """An option that lists names: ``a, b`` or a YAML list."""
    if isinstance(value, str):
        return [part.strip() for part in value.split(",") if part.strip()]
    if isinstance(value, (list, tuple)):
        return [str(part).strip() for part in value if str(part).strip()]
    return [] if value in (None, "") else [str(value)]


def _seconds(value: object) -> int:
    """``time_limit`` in seconds: ``90 s``, ``10 min`` or a bare number of minutes."""
    match = _TIME.fullmatch(str(value).strip()) if not isinstance(value, bool) else None
    seconds = 0.0
    if match:
        unit = match.group("unit") or "min"
        seconds = float(match.group("value")) * (1 if unit.startswith("s") else 60)
    if not match or not 1 <= seconds <= limits.TIME_LIMIT:
        raise ValueError(value)
    return round(seconds)


class QuizBlock(Block):  # type: ignore[misc]  # pymdownx ships no type hints
    """``/// quiz | <bank id>[, <bank id>...]`` with the options of the module docstring."""

    NAME = "quiz"
    ARGUMENT = True
    OPTIONS: ClassVar[dict[str, tuple[Any, Any]]] = {
        "questions": ([], NAMES),
        "tags": ([], NAMES),
        "draw": (None, whole(1, limits.MAX_DRAW)),
        "attempts": (None, whole(*limits.ATTEMPTS)),
        "mode": ("practice", typed("practice or exam", type_string_in(("practice", "exam")))),
        "time_limit": (
            None,
            typed(
                f"a time such as '90 s' or '20 min' (at most {limits.TIME_LIMIT // 60} min)",
                _seconds,
            ),
        ),
        "title": (None, typed("a text", type_string)),
    }

    def on_validate(self, parent: etree.Element) -> bool:
        extension: QuizExtension = self.config["extension"]
        seen = self.tracker.setdefault("seen", [0])
        lines, number = extension.quiz_lines, seen[0]
        seen[0] += 1
        where = f"line {lines[number]}: /// quiz" if number < len(lines) else "/// quiz"
        try:
            self._validate_quiz(extension, where)
        except QuizError as exc:
            extension.problems.append(exc)
            return False
        return True

    def _validate_quiz(self, extension: QuizExtension, where: str) -> None:
        course = extension.course()
        bank_ids = _names(self.argument)
        counts: dict[str, int] = self.tracker.setdefault("quiz_ids", {})
        if not bank_ids:
            raise QuizError(f"{where} needs a bank after a bar: /// quiz | BANK")
        where = f"{where} | {', '.join(bank_ids)}"
        for bank_id in bank_ids:
            if bank_id not in course.by_id:
                known = ", ".join(sorted(course.by_id)) or "none"
                raise QuizError(
                    f"{where}: names bank {bank_id!r}, which does not exist"
                    f"{did_you_mean(bank_id, course.by_id)} (banks: {known})"
                )
        banks = [course.by_id[b] for b in bank_ids]
        pool = {q.id: q for bank in banks for q in bank.questions}
        ids = list(self.options["questions"]) or list(pool)
        missing = [i for i in ids if i not in pool]
        if missing:
            what = "that bank" if len(banks) == 1 else "those banks"
            raise QuizError(f"{where}: no question {', '.join(map(repr, missing))} in {what}")
        tags = list(self.options["tags"])
        if tags:
            ids = [i for i in ids if set(pool[i].tags) & set(tags)]
            if not ids:
                raise QuizError(f"{where}: no question has the tags {', '.join(tags)}")
        draw = self.options["draw"]
        if draw is not None and draw > len(ids):
            raise QuizError(
                f"{where}: draw: expected at most {len(ids)} (the questions to draw from), "
                f"found {draw}"
            )
        mode, time_limit = self.options["mode"], self.options["time_limit"]
        if time_limit is not None and mode != "exam":
            raise QuizError(f"{where}: time_limit: only an exam has one (add 'mode: exam')")
        attempts, title = self.options["attempts"], self.options["title"]
        self.title = title.strip() if title else " · ".join(bank.title for bank in banks)
        self.course, self.banks, self.pool, self.ids = course, banks, pool, ids
        self.where = where
        self.settings: _Settings = {
            "draw": draw,
            "mode": mode,
            "time_limit": time_limit,
            "attempts": attempts,
        }
        base = "-".join(bank_ids)
        counts[base] = counts.get(base, 0) + 1
        self.quiz_id = base if counts[base] == 1 else f"{base}-{counts[base]}"

    def on_create(self, parent: etree.Element) -> etree.Element:
        return etree.SubElement(parent, "div", {"class": "konum-quiz-host"})

    def on_end(self, block: etree.Element) -> None:
        course = self.course
        try:
            html = render_quiz(
                [course.concrete(self.pool[i]) for i in self.ids],
                self.quiz_id,
                title=self.title,
                language=self.config["extension"].options.language,
                plugins=course.plugins,
                images=course.images,
                **self.settings,
            )
        except ValueError as exc:  # a generator, a prompt template or its math fails
            self.config["extension"].problems.append(QuizError(f"{self.where}: {exc}"))
            return
        for child in list(block):  # the block has no Markdown content of its own
            block.remove(child)
        block.text = self.md.htmlStash.store(html)


def exam_only(
    course: Course, pages: Path, project: Path | None = None, skip: Sequence[Path] = ()
) -> frozenset[str]:
    """The ids of the questions that the exam-mode quiz blocks of the Markdown pages below
    ``pages`` show and no other quiz block does (blocks inside fenced code are examples,
    not quizzes; pages below a folder of ``skip``, another edition's, are that edition's).
    A flashcard shows its answer in the page: these are left off the cards unless the site
    sets ``exam_cards: true``.

    A block whose options are wrong is not counted: converting its own page reports it,
    never the page that asked (the study page, the downloads).

    Raises:
        QuizError: a file below ``pages`` is a link leading outside ``project`` (default
            ``pages``), a pipe or a device (:func:`konum.files.tree_problems`), which is not
            read.
    """
    shown: dict[bool, set[str]] = {True: set(), False: set()}
    root = project or pages.resolve()
    refused = tree_problems(pages, root, "site")
    if refused:
        raise QuizError(f"{shown_path(refused[0][0], root)}: {refused[0][1]}")
    others = [f.resolve() for f in skip if f.resolve() != pages.resolve()]
    for page in sorted(pages.rglob("*.md")):
        if any(page.resolve().is_relative_to(other) for other in others):
            continue
        lines = page.read_text(encoding="utf-8").splitlines()
        for index, line in outside_fences(lines):
            if not (_QUIZ_START.match(line) and _WELL_FORMED.match(line)):
                continue
            try:
                given, _ = block_options(lines, index, "", _BLOCK_OPTIONS["quiz"], QuizError)
            except QuizError:
                continue
            names = _names(line.split("|", 1)[1])
            pool = {q.id: q for b in names if b in course.by_id for q in course.by_id[b].questions}
            tags = set(given.get("tags", ()))
            shown[given.get("mode") == "exam"].update(
                i
                for i in given.get("questions") or pool
                if i in pool and (not tags or tags & set(pool[i].tags))
            )
    return frozenset(shown[True] - shown[False])


def has_overview(pages: Path | None) -> bool:
    """Whether a page below ``pages`` shows the course overview (``/// progress``, outside
    fenced code), where a learner exports, imports and forgets their answers and reviews."""
    for page in sorted(pages.rglob("*.md")) if pages is not None and pages.is_dir() else ():
        lines = page.read_text(encoding="utf-8", errors="replace").splitlines()
        if any(_PROGRESS.match(line) for _, line in outside_fences(lines)):
            return True
    return False


def _left_out(options: Options, course: Course) -> frozenset[str]:
    """What the study and progress blocks leave out: :func:`exam_only` unless ``exam_cards``.

    Raises:
        QuizError: ``pages`` is not a folder.
    """
    if options.exam_cards:
        return frozenset()
    if options.pages is None or not options.pages.is_dir():
        raise QuizError(
            f"option 'pages' of konum: expected the folder of the site's pages, found "
            f"{options.pages}, which is not a folder (the study page leaves out the questions "
            "that only exams show, and reads the pages to find them; or set exam_cards: true)"
        )
    inside = options.pages.is_relative_to(options.root)
    root = options.root if inside else None
    return exam_only(course, options.pages, root, edition_pages(options.editions))


class _CourseBlock(Block):  # type: ignore[misc]
    """A block that shows something of the whole course, rendered by ``RENDER``."""

    ARGUMENT = False
    RENDER: ClassVar[Any]

    def on_create(self, parent: etree.Element) -> etree.Element:
        return etree.SubElement(parent, "div", {"class": f"konum-{self.NAME}-host"})

    def on_end(self, block: etree.Element) -> None:
        extension: QuizExtension = self.config["extension"]
        options = extension.options
        try:
            course = extension.course()
            html = type(self).RENDER(course, options.language, _left_out(options, course))
        except QuizError as exc:
            extension.problems.append(exc)
            return
        except (ValueError, ExportError) as exc:
            extension.problems.append(QuizError(f"/// {self.NAME}: {exc}"))
            return
        for child in list(block):
            block.remove(child)
        block.text = self.md.htmlStash.store(html)


class StudyBlock(_CourseBlock):
    """``/// study``: every card of the course, studied one at a time in the page."""

    NAME = "study"
    RENDER = staticmethod(render_study)


class ProgressBlock(_CourseBlock):
    """``/// progress``: the course overview, per lesson its quiz score and the cards due."""

    NAME = "progress"
    RENDER = staticmethod(render_progress)


# A line that starts like a block of konum's, and the forms pymdownx reads as one: a quiz
# names its bank after a bar, the study block takes nothing (explorers: konum.explorer).
_BLOCK_START = re.compile(r"^ {0,3}///\s*(quiz|study|progress)\b")
_WELL_FORMED = re.compile(r"^ {0,3}/// (?:quiz *\| *\S.*|study *|progress *)$")
_QUIZ_START = re.compile(r"^ {0,3}/// quiz\b")
_PROGRESS = re.compile(r"^ {0,3}/// progress *$")
#: The options each block takes (pymdownx's own ``attrs`` among them).
_ATTRS: dict[str, tuple[Any, Any]] = {"attrs": ({}, None)}
_BLOCK_OPTIONS = {
    "quiz": {**QuizBlock.OPTIONS, **_ATTRS},
    "study": _ATTRS,
    "progress": _ATTRS,
}


class MalformedBlockPreprocessor(Preprocessor):
    """A quiz, study, progress or explorer block that pymdownx would leave as text or read
    in part is a problem naming its line (every one of the page's, for
    :class:`konum.blocks.PageProblems`); the line of each well-formed quiz block is kept
    for its errors."""

    def __init__(self, md: Markdown, extension: QuizExtension) -> None:
        super().__init__(md)
        self.extension = extension

    def run(self, lines: list[str]) -> list[str]:
        if self.extension.refused:
            raise QuizError(self.extension.refused)
        quizzes, problems = self.extension.quiz_lines, self.extension.problems
        questions = self.extension.question_ids
        quizzes.clear()
        problems.clear()
        questions.clear()

        def explorers() -> Any:
            return self.extension.plugins().explorers

        for index, line in outside_fences(lines):
            number, before = index + 1, len(problems)
            try:
                started = _BLOCK_START.match(line)
                if started and not _WELL_FORMED.match(line):
                    raise QuizError(
                        f"line {number}: {line.strip()!r} is not a quiz block; "
                        "write '/// quiz | BANK' (a bar before the bank) and end it with '///'"
                    )
                if started:
                    kind = started.group(1)
                    where = line.strip() if kind == "quiz" else f"/// {kind}"
                    spec = _BLOCK_OPTIONS[kind]
                    block_options(lines, index, where, spec, QuizError)
                    check_closed(lines, index, where, QuizError)
                    problems += map(QuizError, check_empty(lines, index, where, list(spec)))
                    if kind == "quiz" and len(problems) == before:
                        quizzes.append(number)
                check_header(explorers, lines, index)
                question = question_header(lines, index)
                if question is not None:
                    problems += question[1]
                    questions += [] if question[1] else [(number, question[0])]
            except PageError as exc:
                problems.append(exc)
            if len(problems) > before:
                lines[index] = ""  # the block is reported here: pymdownx need not read it
        return lines


#: What a quiz in exam mode carries (konum.render's wrapper): such a page gets quiz-exam.js.
_EXAM_MARK = 'data-mode="exam"'
_SECTIONS = (
    ("quiz", "data-konum-quiz"),
    ("exam", _EXAM_MARK),
    ("study", "data-konum-study"),
    ("overview", "data-konum-overview"),
    ("explorer", "data-explorer="),
)


class AssetsPostprocessor(Postprocessor):
    """Adds the quiz's, the study page's, the overview's or the explorers' files to a page
    that shows one, with the interface texts they use in the extension's language, and the
    navigation's progress marks (every page, with ``nav_progress``)."""

    def __init__(self, md: Markdown, extension: QuizExtension) -> None:
        super().__init__(md)
        self.extension = extension
        self.page = False

    def run(self, text: str) -> str:
        if not self.page:
            return text  # a heading's HTML, rendered for the table of contents
        self.page = False
        text = page_math(text)  # the quizzes' formulas, on a page without konum.math too
        options = self.extension.options
        sections = [section for section, mark in _SECTIONS if mark in text]
        if not sections and not self.extension.nav_progress:
            return text
        plugins = self.extension.plugins()
        if self.extension.nav_progress:
            sections.append("progress")
        unshown = unshown_texts(plugins.explorers, text)
        overview = "study" in sections and has_overview(options.pages)
        text += "\n" + messages_html(
            options.language, sections, plugins.messages, unshown, overview
        )
        learner = ("data-konum-quiz" in text, "data-konum-overview" in text)
        if any(learner) or self.extension.nav_progress:
            # The learner's state, read by the quiz, the overview and the marks: once a page.
            text += f"<script>{asset('state.js')}</script>\n"
        if "data-konum-quiz" in text:
            text += assets_html("quiz", exam=_EXAM_MARK in text) + part_scripts(text, plugins)
        if "data-konum-study" in text:
            text += "\n" + assets_html("flashcards")
        if "data-konum-overview" in text:
            text += "\n" + assets_html("overview")
        if self.extension.nav_progress:
            text += "\n" + assets_html("progress")
        if "data-explorer=" in text:
            text += "\n" + explorer_assets(plugins.explorers, text)
        return text


class QuizExtension(BlocksExtension):  # type: ignore[misc]
    """Registers the quiz, study, progress and explorer blocks and their assets, for one
    site's options (:mod:`konum.config`). ``nav_progress`` (default: the option's, else
    ``default_progress``) puts the progress marks on every page. ``course``, given from
    Python (not an option a configuration writes), is the loaded course the blocks use."""

    def __init__(self, default_progress: bool = False, **kwargs: Any) -> None:
        self.given: Course | None = kwargs.pop("course", None)
        self.refused = refusal(kwargs)  # said when a page is converted
        self.config = {name: list(value) for name, value in DEFAULTS.items()}
        super().__init__(**{name: v for name, v in kwargs.items() if name in DEFAULTS})
        progress = kwargs.get("nav_progress")
        self.nav_progress = default_progress if progress is None else bool(progress)
        self.quiz_lines: list[int] = []
        #: The line and question id of each ``/// question`` block of the page.
        self.question_ids: list[tuple[int, str | None]] = []
        #: The problems of the page being converted (see :class:`konum.blocks.PageProblems`).
        self.problems: list[PageError] = []

    @cached_property
    def options(self) -> Options:
        """The options, checked when first used (MkDocs makes the extension while it reads
        its configuration, before ``konum build`` gives the folder paths start from)."""
        try:
            return options_from(self.getConfigs())
        except OptionError as exc:
            raise QuizError(option_line(exc, self.getConfigs())) from None

    def plugins(self) -> Plugins:
        try:
            return load_plugins(self.options.plugins, self.options.root)
        except KonumError as exc:
            raise QuizError(str(exc)) from None

    def course(self) -> Course:
        """The course the blocks draw from: the one handed in (``konum build`` hands each
        edition the course it checked), else :func:`konum.course.course_for`'s."""
        return self.given if self.given is not None else _course(self.options)

    def extendMarkdownBlocks(self, md: Markdown, block_mgr: BlocksProcessor) -> None:
        for block in (QuizBlock, StudyBlock, ProgressBlock, ExplorerBlock, QuestionBlock):
            block_mgr.register(block, {"extension": self})

    def extendMarkdown(self, md: Markdown) -> None:
        super().extendMarkdown(md)
        assets = AssetsPostprocessor(md, self)
        md.preprocessors.register(MalformedBlockPreprocessor(md, self), "konum_malformed", 31)
        md.treeprocessors.register(
            PageProblems(md, self.problems, QuizError), "konum_problems", 1000
        )
        md.treeprocessors.register(PageEnd(md, assets), "konum_page", -100)
        md.postprocessors.register(assets, "konum_assets", 0)


def makeExtension(**kwargs: Any) -> QuizExtension:
    return QuizExtension(**kwargs)
