"""Printable exams: versions with their own numbers and order, each with an answer key.

``konum exam --seed S --versions N`` writes, for each version ``v``:

* ``version-v.html`` and ``version-v.pdf``: a cover (the course, the version, fields for
  the student's name and number), then the questions;
* ``version-v-key.html`` and ``version-v-key.pdf``: the answer key (the right options and
  matches, the accepted answers of each blank, every number with its tolerance) with the
  worked solutions and explanations.

What differs between versions, every choice seeded by ``S`` and stable:

* the order of the questions (``rng_for(S, "exam", "order", v)``);
* the order of choice options (pinned options stay, ``shuffle: false`` keeps the authored
  order) and of matching answers, from the version's seed ``derive_seed(S, "exam", v)``;
* the numbers: version ``v`` of a computed question is its variant ``v - 1`` for the seed
  ``S``, the same numbers as Moodle's dataset item ``v`` in ``konum export moodle --seed S
  --variants N``.

``--questions`` picks banks or tags (default: every question); ``--count K`` draws ``K`` of
them (``rng_for(S, "exam", "pick")``), the same questions in every version.

The pages are in the course's language (``course.language``): their words come from the
``print`` section of konum's interface catalogue (:mod:`konum.messages`), their numbers have
its decimal mark (code keeps the dot), and the figures are drawn in it.

The pages are print-ready HTML: a print stylesheet, a page break after the cover, no page
break inside a question, no form controls and no scripts; math is MathML and figures are
inline SVG. The PDF engine is headless Chromium's print-to-PDF, chosen because Chromium
lays out MathML natively (since version 109) with the same fonts as the site's pages;
WeasyPrint does not lay out MathML (it shows the bare token text), and Typst would need
every formula turned from LaTeX into Typst's math syntax. When no Chromium is found the
HTML is still written and the command says so in one line.

The files are written into a folder beside the target and swapped in together
(:func:`konum.files.atomic_folder`): a failure or a kill leaves the earlier exam whole.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import lru_cache, partial
from pathlib import Path

from markupsafe import Markup, escape

from konum import limits
from konum.computed import GeneratorError
from konum.course import Course
from konum.errors import ExportError, KonumError
from konum.files import atomic_folder
from konum.formatting import did_you_mean
from konum.math import MATH_FONTS
from konum.messages import message
from konum.model import Variant
from konum.paths import TEMPLATES_DIR
from konum.render import environment, figure_html, page_html, template_folders
from konum.seeding import derive_seed, rng_for
from konum.types import Print, PrintedQuestion, Question

#: Browsers that print the PDFs, looked up on ``PATH`` in this order.
CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
#: Seconds one PDF may take to print.
PRINT_TIMEOUT = 120


class ExamError(KonumError):
    """The exam cannot be made as asked: no such bank or tag, too many questions, ..."""


@dataclass(frozen=True)
class ExamVersion:
    """One version: its number (from 1), its seed, its questions in order and the language
    they are written in (the pages' words and numbers follow it)."""

    number: int
    seed: int
    questions: tuple[PrintedQuestion, ...]
    language: str = "en"
    #: The template folders of the site's plugin types (their answer spaces).
    templates: tuple[Path, ...] = ()


@dataclass(frozen=True)
class ExamResult:
    """What :func:`write_exam` wrote: the files in order, and whether PDFs were printed."""

    files: tuple[Path, ...]
    printed: bool
    questions: int


# --- choosing the questions ---------------------------------------------------------------------


def select_questions(
    course: Course, picks: Sequence[str], count: int | None, seed: int
) -> list[Question]:
    """The exam's questions, in course order.

    Args:
        course: the loaded course.
        picks: bank ids or tags; empty for every question.
        count: how many to draw from those (None: all of them).
        seed: the exam seed.

    Raises:
        ExamError: a pick names no bank and no tag, or ``count`` is not between 1 and the
            number of questions picked.
    """
    every = [q for bank in course.banks for q in bank.questions]
    if picks:
        tags = {tag for q in every for tag in q.tags}
        chosen: set[str] = set()
        for pick in picks:
            if pick in course.by_id:
                chosen.update(q.id for q in course.by_id[pick].questions)
            elif pick in tags:
                chosen.update(q.id for q in every if pick in q.tags)
            else:
                known = sorted(course.by_id) + sorted(tags)
                raise ExamError(
                    f"--questions {pick!r}: no bank or tag of that name"
                    f"{did_you_mean(pick, known)} (banks: {', '.join(sorted(course.by_id))})"
                )
        pool = [q for q in every if q.id in chosen]
    else:
        pool = every
    if count is None:
        return pool
    if not 1 <= count <= len(pool):
        raise ExamError(f"--count: expected 1 to {len(pool)} (the questions picked), found {count}")
    drawn = rng_for(seed, "exam", "pick").choice(len(pool), size=count, replace=False)
    keep = {int(i) for i in drawn}
    return [q for i, q in enumerate(pool) if i in keep]


def build_versions(
    course: Course, questions: Sequence[Question], *, seed: int, versions: int
) -> list[ExamVersion]:
    """The ``versions`` versions of an exam of ``questions`` for ``seed``, in the course's
    language.

    Raises:
        ExamError: ``versions`` is outside :data:`konum.limits.VARIANTS`.
        ValueError: a computed question cannot draw its variants.
    """
    low, high = limits.VARIANTS
    if not low <= versions <= high:
        raise ExamError(f"--versions: expected {low} to {high}, found {versions}")
    language = course.language
    drawn: dict[str, tuple[Variant, ...]] = {}

    def md(text: str, inline: bool = False) -> Markup:
        return Markup(str(page_html(text, course.images, one_line=inline)).strip())

    def say(key: str, **fields: Markup) -> Markup:
        # The catalogue's words escaped, the fields (HTML) filled in as they are.
        return escape(message(language, key)).format(**fields)

    def variants(q: Question) -> tuple[Variant, ...]:
        if q.id not in drawn:
            try:  # a version's numbers are the question's variant of that number
                drawn[q.id] = q.concrete(course.draw(seed, versions)).variants
            except GeneratorError as exc:
                raise ExamError(f"--versions {versions}: {exc}") from None
        return drawn[q.id]

    out = []
    for version in range(1, versions + 1):
        order = rng_for(seed, "exam", "order", version).permutation(len(questions))
        printed = []
        for number, index in enumerate(order.tolist(), start=1):
            ctx = Print(
                number,
                version,
                derive_seed(seed, "exam", version),
                language,
                md,
                lambda ref: figure_html(ref, course.plugins, language),
                say,
                partial(_version_variant, variants, version),
            )
            printed.append(questions[index].printed(ctx))
        folders = template_folders(course.plugins)
        out.append(ExamVersion(version, seed, tuple(printed), language, folders))
    return out


# --- pages and PDFs ------------------------------------------------------------------------------


def _version_variant(
    variants: Callable[[Question], tuple[Variant, ...]], version: int, question: Question
) -> Variant:
    return variants(question)[version - 1]


@lru_cache(maxsize=1)
def _stylesheet() -> Markup:
    css = (TEMPLATES_DIR / "exam" / "print.css").read_text(encoding="utf-8")
    return Markup(f"<style>{css}</style>\n{MATH_FONTS}")


def render_pages(version: ExamVersion, *, title: str) -> tuple[str, str]:
    """The exam page and the key page of ``version``, HTML in ``version.language``."""
    env = environment(version.language, version.templates)
    context = {"version": version, "title": title, "style": _stylesheet()}
    exam = env.get_template("exam/exam.html.j2").render(context)
    key = env.get_template("exam/key.html.j2").render(context)
    return exam, key


def find_chromium() -> str | None:
    """The first of :data:`CHROMIUM_NAMES` on ``PATH``, or None."""
    for name in CHROMIUM_NAMES:
        found = shutil.which(name)
        if found:
            return found
    return None


def print_pdf(chromium: str, page: Path, pdf: Path) -> None:
    """Print ``page`` to ``pdf`` with headless Chromium (a temporary file, then
    :func:`os.replace`); each call has a profile of its own, so calls can run at once. The
    profile, the temporary file and every Chromium process are gone when it returns or raises.

    Raises:
        ExportError: Chromium fails, runs too long or writes nothing.
    """
    partial = pdf.with_name(f".{pdf.name}.part")
    with tempfile.TemporaryDirectory(
        prefix="konum-chromium-", ignore_cleanup_errors=True
    ) as profile:
        command = [
            chromium,
            "--headless",
            "--no-sandbox",  # needed as root, and the page is our own file
            "--disable-gpu",
            "--no-first-run",
            "--no-pdf-header-footer",
            f"--user-data-dir={profile}",
            f"--print-to-pdf={partial}",
            page.resolve().as_uri(),
        ]
        try:
            process = subprocess.Popen(
                command,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                text=True,
                start_new_session=True,  # its helpers die with it
            )
        except OSError as exc:
            raise ExportError(f"cannot print {page.name} with {chromium}: {exc}") from exc
        try:
            _, stderr = process.communicate(timeout=PRINT_TIMEOUT)
        except BaseException as exc:  # a timeout, or Ctrl-C while it prints
            with contextlib.suppress(OSError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            partial.unlink(missing_ok=True)
            if isinstance(exc, subprocess.TimeoutExpired):
                raise ExportError(
                    f"{chromium} took longer than {PRINT_TIMEOUT} s to print {page.name}"
                ) from None
            raise
        with contextlib.suppress(OSError):  # helpers left behind by a crash
            os.killpg(process.pid, signal.SIGKILL)
    if process.returncode != 0 or not partial.is_file():
        partial.unlink(missing_ok=True)
        last = (stderr.strip().splitlines() or ["no output"])[-1]
        raise ExportError(f"{chromium} could not print {page.name}: {last}")
    os.replace(partial, pdf)


def write_exam(
    course: Course,
    folder: str | Path,
    *,
    seed: int,
    versions: int,
    picks: Sequence[str] = (),
    count: int | None = None,
    title: str = "konum",
    chromium: str | None = None,
) -> ExamResult:
    """Write every version's exam and key into ``folder`` (see the module docstring).

    Args:
        course: the loaded course.
        folder: where the files go (created if missing).
        seed: the exam seed.
        versions: how many versions.
        picks: banks or tags to draw from (empty: all).
        count: how many questions (None: all that were picked).
        title: the course's name on the cover.
        chromium: the browser that prints the PDFs; None writes only the HTML.

    Raises:
        ExamError: bad picks, count or versions.
        ExportError: a file cannot be written or printed.
    """
    questions = select_questions(course, picks, count, seed)
    built = build_versions(course, questions, seed=seed, versions=versions)
    out = Path(folder)
    names: list[str] = []
    with atomic_folder(out) as staging:  # every file appears at once, or none
        pages: list[Path] = []
        for version in built:
            exam, key = render_pages(version, title=title)
            for name, text in (
                (f"version-{version.number}", exam),
                (f"version-{version.number}-key", key),
            ):
                path = staging / f"{name}.html"
                path.write_text(text, encoding="utf-8")
                pages.append(path)
        names = [page.name for page in pages]
        if chromium is not None:
            pdfs = [page.with_suffix(".pdf") for page in pages]
            with ThreadPoolExecutor(max_workers=2) as pool:
                list(pool.map(lambda page, pdf: print_pdf(chromium, page, pdf), pages, pdfs))
            names += [pdf.name for pdf in pdfs]
    files = [out / name for name in names]
    return ExamResult(tuple(files), chromium is not None, len(questions))
