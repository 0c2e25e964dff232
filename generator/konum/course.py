"""A course: the banks of one folder, checked, translated and ordered, with one seed applied.

:func:`load_course` is the whole pipeline for one set of options: load (:mod:`konum.load`),
check (:mod:`konum.check`), translate (:mod:`konum.translate`) and check the translations'
texts, order. The quiz blocks of every page, the study block, the downloads and the commands
ask :func:`course_for`, which keeps a course while the files it was made from stay as they
are: a build loads each bank once and draws each question's variants once, and ``konum
serve`` loads again when a bank, a translation, an image or a plugin's file changes.
"""

from __future__ import annotations

import logging
import os
import re
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path

from konum.check import CheckReport, check_banks, check_texts
from konum.check import Kept as CheckKept
from konum.config import Options
from konum.errors import ConfigError, KonumError
from konum.files import Stamp, stamps
from konum.formatting import did_you_mean
from konum.images import Image
from konum.load import is_page_bank
from konum.paths import shown
from konum.plugins import Plugins, load_plugins
from konum.problems import BankError, BankProblem
from konum.siteconfig import edition_pages
from konum.translate import check_translations
from konum.types import Bank, Concrete, Draw, Question

Drawn = dict[str, tuple[Question, Draw, Concrete]]


@dataclass
class Kept:
    """What one ``konum serve`` keeps from build to build, so that a save checks and draws
    again only what it changed: each bank file's load and check (:class:`konum.check.Kept`;
    a page's ``/// question`` blocks are a bank file too) and each question's variants, for
    as long as the question is the same object (its file unchanged) and drawn the same way.
    A translated edition reads its translations again at each build."""

    check: CheckKept = field(default_factory=CheckKept)
    drawn: Drawn = field(default_factory=dict)


class Course:
    """Checked banks and their questions with ``seed`` applied.

    Attributes:
        banks: every bank, in the ``order`` option's order, then by file name.
        seed: the site seed.
        variants: variants per computed question.
        plugins: the plugins the banks were checked with (generators, figures).
        language: the language of the banks' texts and of the generators' wording; the
            numbers, ids and option orders are the same in every language.
        images: the checked images the texts show, by flat name (:mod:`konum.images`).
        sources: the image files read, for :func:`course_for` to notice an edit.
    """

    def __init__(
        self,
        banks: tuple[Bank, ...],
        seed: int,
        variants: int,
        plugins: Plugins,
        language: str = "en",
        images: dict[str, Image] | None = None,
        sources: tuple[Path, ...] = (),
        drawn: Drawn | None = None,
    ) -> None:
        self.banks = banks
        self.seed = seed
        self.variants = variants
        self.plugins = plugins
        self.language = language
        self.images = images or {}
        self.sources = sources
        self.stamp = stamps(sources)
        # By question id: the question, how it was drawn and what it gave; shared with the
        # next course of a `konum serve` (Kept), which reuses what is the same question.
        self._drawn: Drawn = {} if drawn is None else drawn

    @cached_property
    def by_id(self) -> dict[str, Bank]:
        """The banks by bank id."""
        return {bank.id: bank for bank in self.banks}

    @property
    def questions(self) -> int:
        """How many questions the banks hold."""
        return sum(len(bank.questions) for bank in self.banks)

    def draw(self, seed: int | None = None, variants: int | None = None) -> Draw:
        """How this course draws (another ``seed`` or number of ``variants`` if given)."""
        return Draw(
            self.seed if seed is None else seed,
            self.variants if variants is None else variants,
            self.language,
            self.plugins,
        )

    def concrete(self, question: Question) -> Concrete:
        """``question`` with the seed applied, drawn once per course.

        Raises:
            ValueError: a computed question's generator or prompt fails for the seed.
        """
        draw = self.draw()
        prior = self._drawn.get(question.id)
        if prior is not None and prior[0] is question and prior[1] == draw:
            return prior[2]
        concrete = question.concrete(draw)
        self._drawn[question.id] = (question, draw, concrete)
        return concrete

    def concretes(self, banks: tuple[Bank, ...] | None = None) -> list[Concrete]:
        """Every question of ``banks`` (default all) with the seed applied, in bank order."""
        return [self.concrete(q) for bank in banks or self.banks for q in bank.questions]


def _tree_stamp(folder: Path | None) -> Stamp:
    """Name, modification time and size of every file below ``folder``: any edit changes it."""
    if folder is None:
        return ()
    found = []
    for path, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in files:
            full = os.path.join(path, name)
            try:
                stat = os.stat(full)
            except OSError:  # a dangling link: its name still counts
                found.append((full, 0, 0))
            else:
                found.append((full, stat.st_mtime_ns, stat.st_size))
    return tuple(sorted(found))


def _translated(
    report: CheckReport, options: Options
) -> tuple[tuple[Bank, ...], dict[Path, Image]]:
    """The checked banks in the ``translations`` option's language, their texts checked."""
    assert options.translations is not None
    # A page's questions are written in its edition's language: that page is the translation.
    english = tuple(b for b in report.banks if not is_page_bank(b))
    translated = check_translations(english, options.translations, project=options.root)
    problems: list[BankProblem] = list(translated.problems)
    by_file = {str(options.translations / Path(b.path).name): b.id for b in report.banks}
    banks = {bank.id: bank for bank in translated.banks}
    images: dict[Path, Image] = {}
    for written in translated.written:
        texts, found, read = check_texts(written, options.root)
        problems += found
        images.update(read)
        bank = banks.get(by_file.get(written.file, ""))
        if bank is None:
            continue
        banks[bank.id] = bank.with_texts(texts)
    if problems:
        raise BankError(problems, translated.files)
    log = logging.getLogger("konum.translations")
    for problem in translated.stale:  # still usable: the translator's to-do, not an error
        log.warning("%s", problem)
    kept = (banks.get(b.id) if not is_page_bank(b) else b for b in report.banks)
    return tuple(bank for bank in kept if bank is not None), images


def load_course(
    options: Options, plugins: Plugins | None = None, kept: Kept | None = None
) -> Course:
    """The course of ``options`` (its plugins loaded when not given), loaded afresh, or from
    what ``kept`` holds of earlier loads where their files are unchanged.

    Raises:
        konum.problems.BankError: the banks or their translations have problems (every
            one of them listed).
        ConfigError: the ``order`` option names a bank that does not exist.
        konum.plugins.PluginError: a plugin does not import or clashes with another.
    """
    if plugins is None:
        plugins = load_plugins(options.plugins, options.root)
    report = check_banks(
        options.banks,
        plugins=plugins,
        project=options.root,
        run_programs=options.run_programs,
        variants=options.variants,
        pages=options.pages,
        skip_pages=edition_pages(options.editions),
        jobs=options.jobs or None,
        kept=kept.check if kept is not None else None,
    )
    if report.problems:
        raise BankError(report.problems, report.files)
    banks, images = report.banks, dict(report.image_files)
    if options.translations is not None:
        banks, more = _translated(report, options)
        images.update(more)
    known = {bank.id for bank in banks}
    unknown = [bank_id for bank_id in options.order if bank_id not in known]
    if unknown:
        raise ConfigError(
            f"option 'order' of konum names bank {unknown[0]!r}, which does not exist"
            f"{did_you_mean(unknown[0], known)} (banks: {', '.join(sorted(known))})"
        )
    rank = {bank_id: i for i, bank_id in enumerate(options.order)}
    ordered = sorted(banks, key=lambda bank: rank.get(bank.id, len(rank)))  # stable
    return Course(
        tuple(ordered),
        options.seed,
        options.variants,
        plugins,
        options.language,
        {image.name: image for image in images.values()},
        tuple(images),
        kept.drawn if kept is not None else None,
    )


@lru_cache(maxsize=8)
def _course(options: Options, plugins: Plugins, stamp: Stamp) -> Course:
    return load_course(options, plugins)


def course_for(options: Options) -> Course:
    """The course of ``options``, loaded when first asked for or when a file it was made of
    (a bank, a translation, an image, a plugin's file) has changed since.

    Raises:
        konum.problems.BankError, ConfigError, konum.plugins.PluginError: see
            :func:`load_course`.
    """
    plugins = load_plugins(options.plugins, options.root)
    stamp = _tree_stamp(options.banks) + _tree_stamp(options.translations)
    stamp += _tree_stamp(options.pages)  # a page's /// question blocks are a bank
    course = _course(options, plugins, stamp)
    now = stamps(course.sources)
    if now != course.stamp:  # an image outside the bank folders changed
        course = _course(options, plugins, stamp + now)
    return course


def course_problems(options: Options, config_file: Path) -> list[BankProblem]:
    """What keeps the course of ``options`` (the konum extension's, in ``config_file``) from
    loading: the problems of its banks and translations, each one line as
    :func:`load_course` found it, or what the options get wrong about the course (the
    ``order`` option naming no bank, a plugin that does not import), at the option's line
    of ``config_file`` when it is written there; nothing when the course loads."""
    try:
        course_for(options)
    except BankError as exc:
        return list(exc.problems)
    except KonumError as exc:
        named = re.match(r"option '(\w+)' of konum", str(exc))
        lines = config_file.read_text(encoding="utf-8").splitlines()
        option = re.compile(rf"\s*{named.group(1) if named else '$^'}\s*:")
        at = next((n for n, line in enumerate(lines, 1) if option.match(line)), None)
        return [BankProblem(str(shown(config_file, Path.cwd())), at, None, str(exc))]
    return []
