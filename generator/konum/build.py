"""``konum build``: validate, build into a staging folder beside ``site/``, then swap.

The steps, in one process: read the site's configuration and its editions
(:mod:`konum.siteconfig`), refuse files that no build may read, check every bank (all
problems reported at once), run a strict MkDocs build of each edition into one staging
folder (:mod:`konum.driver`; the ``konum`` Markdown extension renders each quiz in its page,
as under ``mkdocs build``, ``mkdocs serve`` and Zensical, from the course this module hands
it), write each edition's flashcard downloads, then publish them all in one swap
(:mod:`konum.publish`), so a build that fails or is killed (SIGINT, SIGTERM or SIGKILL, at
any moment) leaves every edition as it was.

The editions are built into the same staging folder, each at its place (``site/tr`` is
staged as ``.site-tmp-*/tr``), each with its own downloads. Each edition builds alone as
well (``mkdocs build -f mkdocs.tr.yml``); under ``konum build`` its ``site_url`` is the main
one's with its folder appended, as it is served there.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from konum.config import Options, override
from konum.driver import extension_configs, mkdocs_build
from konum.errors import BuildError, KonumError, PageError
from konum.parallel import ordered_map
from konum.paths import shown
from konum.problems import BankProblem
from konum.publish import (
    MARKER,
    build_lock,
    check_target,
    inside,
    interrupts_remembered,
    recover,
    staging_prefixes,
    swap_into_place,
)
from konum.siteconfig import (
    SiteConfig,
    edition_pages,
    excluded,
    file_problems,
    find_editions,
    published_banks,
    quiet_mkdocs,
    read_site_config,
)

if TYPE_CHECKING:
    from konum.course import Course

#: What the commands and tests read from here; each has its home in the module named above.
__all__ = [
    "BuildResult",
    "SiteConfig",
    "build_site",
    "check_pages",
    "find_editions",
    "read_site_config",
]


@dataclass(frozen=True)
class BuildResult:
    """What a build published: where, from how many banks and questions, with which seed.

    ``pages`` counts the pages of every edition; ``editions`` names the folders of the
    editions besides the main one, relative to ``site`` (``("tr",)``).
    """

    site: Path
    seed: int
    banks: int
    questions: int
    pages: int
    editions: tuple[str, ...] = ()
    published_banks: tuple[tuple[Path, str], ...] = ()


_LINE = re.compile(r"^line (\d+): ")


def check_pages(settings: SiteConfig) -> list[BankProblem]:
    """Every page of the site's ``docs_dir`` (its ``exclude_docs`` aside) converted as the
    build converts it, with the site's Markdown extensions, and nothing written: a quiz,
    explorer or values block that the build would refuse (an unknown bank, a draw larger
    than its pool, a wrong option, a block not closed) as a problem at the page's line;
    first :func:`file_problems`, whose files are not read."""
    import markdown

    config = settings.mkdocs
    configs = extension_configs(config, settings.options)
    problems = file_problems(settings)
    unread = [settings.config_file.parent / p.file for p in problems]
    for page in sorted(settings.docs_dir.rglob("*.md")):
        if excluded(settings, page) or any(inside(page, path) for path in unread):
            continue
        converter = markdown.Markdown(
            extensions=config["markdown_extensions"], extension_configs=configs
        )
        try:
            with quiet_mkdocs():
                converter.convert(page.read_text(encoding="utf-8"))
        except PageError as exc:
            first, *more = str(exc).splitlines() or [""]
            said = [first]  # one line a problem ("line 3: X"); other lines continue one
            for message in more:
                if _LINE.match(message):
                    said.append(message)
                else:
                    said[-1] += f"\n{message}"
            for message in said:
                line = _LINE.match(message)
                problems.append(
                    BankProblem(
                        str(shown(page, settings.config_file.parent)),
                        int(line.group(1)) if line else None,
                        None,
                        message[line.end() :] if line else message,
                    )
                )
    return problems


def _edition_url(main: SiteConfig, folder: str) -> str | None:
    """The ``site_url`` of the edition published at ``folder`` inside the main site: the main
    ``site_url`` with the folder appended; ``None`` when the main site has none."""
    url = main.site_url
    if not url:
        return None
    return url.rstrip("/") + "/" + folder.strip("/") + "/"


def build_site(
    config_file: str | Path = "mkdocs.yml",
    *,
    seed: int | None = None,
    variants: int | None = None,
    site_dir: str | Path | None = None,
    downloads: bool = True,
    jobs: int | None = None,
) -> BuildResult:
    """Validate the banks, build the site, its editions and their downloads, and publish
    them atomically (one swap for all: see the module's docstring).

    Args:
        config_file: the ``mkdocs.yml`` to build; its editions (:func:`find_editions`) too.
        seed: site seed; default the extension's (the same for every edition).
        variants: variants per computed question; default the extension's.
        site_dir: where to publish; default ``site_dir`` of ``mkdocs.yml``. The editions go
            to their folders inside it.
        downloads: also write the flashcard exports into each edition's ``downloads/``.
        jobs: worker processes that check the banks (0: one per core, 1: none); default
            the ``jobs`` option's. The site is the same byte for byte with any number.

    Raises:
        konum.problems.BankError: a bank has problems (nothing was built).
        ConfigError: a configuration or an option is wrong (nothing was built).
        BuildError: the target is refused, or MkDocs or an export failed (the published
            folder is untouched).
    """
    from konum.course import course_for

    settings = read_site_config(config_file)
    editions = [("", settings), *find_editions(settings)]
    options = [override(s.options, seed=seed, variants=variants, jobs=jobs) for _, s in editions]
    target = Path(site_dir) if site_dir is not None else settings.site_dir
    target = Path(os.path.abspath(target))
    target = target.parent.resolve() / target.name  # a link itself is refused, not followed
    for _, edition in editions:
        check_target(target, edition)
        refused = file_problems(edition)
        if refused:
            more = f" (and {len(refused) - 1} more)" if len(refused) > 1 else ""
            raise BuildError(f"{refused[0]}{more}")
    courses = [course_for(o) for o in options]  # every bank problem at once, before writing
    urls = [None, *(_edition_url(settings, folder) for folder, _ in editions[1:])]

    with interrupts_remembered() as interrupted, build_lock(target):
        recover(target)
        for _, edition in editions:
            check_target(target, edition)  # again, now that no other build can change it
        prefix = staging_prefixes(target)[0]
        # Every edition in a staging folder of its own, so that they build at once (MkDocs
        # empties the folder it builds into), each in a process of its own (MkDocs keeps a
        # plugin from one build to the next: an edition's search took the first's language);
        # the others then go to their places in the main one's. All are where a killed
        # build's leftovers are cleaned up.
        stagings = [Path(tempfile.mkdtemp(prefix=prefix, dir=target.parent)) for _ in editions]
        staging = stagings[0]
        places = [
            s / folder if folder else s for (folder, _), s in zip(editions, stagings, strict=True)
        ]
        try:
            work = _Editions(editions, options, courses, urls, places, downloads, interrupted)
            jobs = options[0].jobs or None
            built = ordered_map(_build_edition, work, range(len(editions)), jobs, fresh=True)
            for _, said, _ in built:
                sys.stderr.write(said)
            if any(seen for _, _, seen in built):  # a worker's interrupt, seen there alone
                raise KeyboardInterrupt
            pages = 0
            for outcome, _, _ in built:
                if isinstance(outcome, KonumError):
                    raise outcome
                pages += outcome
            for (folder, _), place in zip(editions[1:], places[1:], strict=True):
                shutil.rmtree(staging / folder, ignore_errors=True)
                (staging / folder).parent.mkdir(parents=True, exist_ok=True)
                os.replace(place, staging / folder)
            if interrupted:  # and the KeyboardInterrupt was lost on the way
                raise KeyboardInterrupt
            swap_into_place(staging, target)
        except BaseException:
            for made in stagings:
                shutil.rmtree(made, ignore_errors=True)
            raise
        for made in stagings[1:]:  # emptied: their editions are in the site
            shutil.rmtree(made, ignore_errors=True)
    course = courses[0]
    return BuildResult(
        target,
        options[0].seed,
        len(course.banks),
        course.questions,
        pages,
        tuple(folder for folder, _ in editions[1:]),
        tuple(file for _, edition in editions for file in published_banks(edition)),
    )


@dataclass(frozen=True)
class _Editions:
    """What :func:`_build_edition` builds: the editions (their folders inside the site and
    configurations), each one's options, course, ``site_url`` and staging place."""

    editions: list[tuple[str, SiteConfig]]
    options: list[Options]
    courses: list[Course]
    urls: list[str | None]
    places: list[Path]
    downloads: bool
    interrupted: list[int]


def _build_edition(work: _Editions, index: int) -> tuple[int | KonumError, str, bool]:
    """Build edition ``index`` of ``work`` into its place, with its downloads. Returns its
    page count (or the error that stopped it), what it said on stderr (a worker's stderr
    may not be the command's: the caller says it) and whether it saw an interrupt."""
    edition, place = work.editions[index][1], work.places[index]
    course = work.courses[index]
    said = io.StringIO()
    with contextlib.redirect_stderr(said):
        try:
            pages = mkdocs_build(edition, place, work.options[index], work.urls[index], course)
            if work.downloads:
                _write_downloads(edition, course, place)
        except KonumError as exc:
            return exc, said.getvalue(), bool(work.interrupted)
    # In each edition's folder too: `konum build -f mkdocs.tr.yml` may replace it.
    (place / MARKER).write_text(
        "Made by konum build; konum replaces this folder on the next build.\n", encoding="utf-8"
    )
    return pages, said.getvalue(), bool(work.interrupted)


def _write_downloads(settings: SiteConfig, course: Course, place: Path) -> None:
    """The flashcard exports of one edition, in its own deck name and docs, into
    ``place/downloads``: every question but those only its exams show (unless
    ``exam_cards``), as on its study page."""
    from konum.exports import write_downloads
    from konum.quiz import exam_only
    from konum.study import card_banks

    options = settings.options
    others = edition_pages(options.editions)
    hidden = (
        frozenset() if options.exam_cards else exam_only(course, settings.docs_dir, None, others)
    )
    write_downloads(
        card_banks(course, hidden),
        course.concretes(),
        place / "downloads",
        deck=settings.deck,
        language=course.language,
        plugins=course.plugins,
        images=course.images,
    )
