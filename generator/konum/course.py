"""A course: the banks of one folder with one seed applied, shared by everything in a build.

The quiz blocks of every page, the study block, the downloads and the commands ask
:func:`course_for` for the course of their options. It is loaded (and validated) once and
kept while the bank files stay as they are, so a build loads each bank once and draws each
question's variants once; when a bank file changes (``konum serve``), the next call loads the
folder again.
"""

from __future__ import annotations

import os
from functools import cached_property, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from konum.config import Options
from konum.model import Bank, Concrete, Question
from konum.variants import make_concrete

if TYPE_CHECKING:
    from konum.computed.registry import Registry


class Course:
    """The banks of a folder and their questions with ``seed`` applied.

    Attributes:
        banks: every bank, in the order option's order, then by file name.
        seed: the site seed.
        variants: variants per computed question.
        generators: the computed-question generators the banks were checked with (the
            course's, the installed packages' and the ``generators`` option's).
        language: the language of the banks' texts and of the generators' wording; the
            numbers, ids and option orders are the same in every language.
    """

    def __init__(
        self,
        banks: tuple[Bank, ...],
        seed: int,
        variants: int,
        generators: Registry,
        language: str = "en",
    ) -> None:
        self.banks = banks
        self.seed = seed
        self.variants = variants
        self.generators = generators
        self.language = language
        self._concretes: dict[str, Concrete] = {}

    @cached_property
    def by_id(self) -> dict[str, Bank]:
        """The banks by bank id."""
        return {bank.id: bank for bank in self.banks}

    @property
    def questions(self) -> int:
        """How many questions the banks hold."""
        return sum(len(bank.questions) for bank in self.banks)

    def concrete(self, question: Question) -> Concrete:
        """``question`` with the seed applied, drawn once per course.

        Raises:
            ValueError: a computed question's generator or prompt fails for the seed.
        """
        if question.id not in self._concretes:
            from konum.computed.registry import use_generators

            with use_generators(self.generators):
                self._concretes[question.id] = make_concrete(
                    question, self.seed, self.variants, self.language
                )
        return self._concretes[question.id]

    def concretes(self, banks: tuple[Bank, ...] | None = None) -> list[Concrete]:
        """Every question of ``banks`` (default all) with the seed applied, in bank order."""
        return [self.concrete(q) for bank in banks or self.banks for q in bank.questions]


def _stamp(folder: Path) -> tuple[tuple[str, int, int], ...]:
    """Name, modification time and size of each entry of ``folder``: any edit changes it."""
    try:
        with os.scandir(folder) as entries:
            found = []
            for entry in entries:
                try:
                    stat = entry.stat()
                except OSError:  # a dangling link: its name still counts
                    found.append((entry.name, 0, 0))
                else:
                    found.append((entry.name, stat.st_mtime_ns, stat.st_size))
    except OSError:
        return ()
    return tuple(sorted(found))


@lru_cache(maxsize=4)
def _banks(
    folder: Path,
    stamp: tuple[tuple[str, int, int], ...],
    generators: Registry,
    project: Path | None,
) -> tuple[Bank, ...]:
    from konum.banks import load_banks
    from konum.computed.registry import use_generators

    with use_generators(generators):
        return tuple(load_banks(folder, project=project))


@lru_cache(maxsize=4)
def _translated(
    banks_folder: Path,
    stamp: tuple[tuple[str, int, int], ...],
    generators: Registry,
    project: Path | None,
    folder: Path,
    translations_stamp: tuple[tuple[str, int, int], ...],
) -> tuple[Bank, ...]:
    import logging

    from konum.banks import BankError
    from konum.banks.translate import check_translations

    banks = _banks(banks_folder, stamp, generators, project)
    report = check_translations(banks, folder)
    if report.problems:
        raise BankError(report.problems, report.files)
    log = logging.getLogger("konum.translations")
    for problem in report.stale:  # still usable: the translator's to-do, not an error
        log.warning("%s", problem)
    return report.banks


@lru_cache(maxsize=4)
def _course(
    folder: Path,
    stamp: tuple[tuple[str, int, int], ...],
    seed: int,
    variants: int,
    order: tuple[str, ...],
    generators: Registry,
    translations: tuple[Path, tuple[tuple[str, int, int], ...]] | None = None,
    language: str = "en",
    project: Path | None = None,
) -> Course:
    if translations is None:
        banks = _banks(folder, stamp, generators, project)
    else:
        banks = _translated(folder, stamp, generators, project, *translations)
    known = {bank.id for bank in banks}
    unknown = [bank_id for bank_id in order if bank_id not in known]
    if unknown:
        from konum.errors import ConfigError
        from konum.formatting import did_you_mean

        raise ConfigError(
            f"option 'order' of konum names bank {unknown[0]!r}, which does not exist"
            f"{did_you_mean(unknown[0], known)} (banks: {', '.join(sorted(known))})"
        )
    rank = {bank_id: i for i, bank_id in enumerate(order)}
    ordered = sorted(banks, key=lambda bank: rank.get(bank.id, len(rank)))  # stable
    return Course(tuple(ordered), seed, variants, generators, language)


def course_for(options: Options) -> Course:
    """The course of ``options``' bank folder, seed and generators, loaded when first asked
    for or when a bank file or a generator file has changed since.

    Raises:
        konum.banks.BankError: the banks or their translations (the ``translations``
            option) have problems (every one of them listed).
        konum.errors.ConfigError: the ``order`` option names a bank that does not exist.
        konum.computed.registry.GeneratorLoadError: a ``generators`` entry does not import
            or clashes with another generator's name.
    """
    from konum.computed.registry import registry_for

    generators = registry_for(options.generators, options.root)
    folder = options.banks
    translations = None
    if options.translations is not None:
        translations = (options.translations, _stamp(options.translations))
    return _course(
        folder,
        _stamp(folder),
        options.seed,
        options.variants,
        options.order,
        generators,
        translations,
        options.language,
        options.root,
    )
