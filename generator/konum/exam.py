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
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from markupsafe import Markup, escape

from konum import limits, model
from konum.course import Course
from konum.errors import ExportError, KonumError
from konum.exports.lms import plain_number, write_atomically
from konum.exports.moodle import absolute_tolerance
from konum.formatting import BLANK, did_you_mean, format_number, localize_numbers
from konum.markup import render_markdown
from konum.messages import message
from konum.programs import code_block
from konum.render import TEMPLATES_DIR, environment, typeset_number
from konum.seeding import derive_seed, rng_for
from konum.variants import item_order, make_concrete, option_order, right_items

#: Browsers that print the PDFs, looked up on ``PATH`` in this order.
CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
#: Seconds one PDF may take to print.
PRINT_TIMEOUT = 120
_BLANK_TOKEN = "KONUMBLANK{}X"


class ExamError(KonumError):
    """The exam cannot be made as asked: no such bank or tag, too many questions, ..."""


@dataclass(frozen=True)
class PrintedQuestion:
    """One question as a version prints it, and its entry in the key (template view).

    ``kind`` is ``choice``, ``fill``, ``matching``, ``numeric``, ``ordering`` (a computed
    question prints as ``choice`` or ``numeric``) or ``output`` (the task alone; the key holds
    what the example solution prints, and the example as its worked solution). ``options`` and
    ``rights`` are lettered A, B, ... in the version's order; ``answer`` is the key's answer,
    HTML.
    """

    number: int
    id: str
    kind: str
    prompt: Markup
    answer: Markup
    figure: Markup | None = None
    options: tuple[Markup, ...] = ()
    multiple: bool = False
    lefts: tuple[Markup, ...] = ()
    rights: tuple[Markup, ...] = ()
    unit: str | None = None
    solution: Markup | None = None
    explanation: Markup | None = None


@dataclass(frozen=True)
class ExamVersion:
    """One version: its number (from 1), its seed, its questions in order and the language
    they are written in (the pages' words and numbers follow it)."""

    number: int
    seed: int
    questions: tuple[PrintedQuestion, ...]
    language: str = "en"


@dataclass(frozen=True)
class ExamResult:
    """What :func:`write_exam` wrote: the files in order, and whether PDFs were printed."""

    files: tuple[Path, ...]
    printed: bool
    questions: int


# --- choosing the questions ---------------------------------------------------------------------


def select_questions(
    course: Course, picks: Sequence[str], count: int | None, seed: int
) -> list[model.Question]:
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


# --- one version ----------------------------------------------------------------------------------


def _md(text: str, *, inline: bool = False) -> Markup:
    return Markup(render_markdown(text, inline=inline).strip())


def _optional(text: str | None) -> Markup | None:
    return _md(text) if text and text.strip() else None


def _letter(index: int) -> str:
    return chr(ord("A") + index)


def _say(language: str, key: str, **fields: Markup) -> Markup:
    """The catalogue text of ``key`` in ``language`` as HTML: its words escaped, the fields
    (HTML) filled in as they are. For texts with no plural forms."""
    return escape(message(language, key)).format(**fields)


def _figure(ref: model.FigureRef | None, language: str) -> Markup | None:
    if ref is None:
        return None
    from konum.figures import render_svg

    return Markup(render_svg(ref.name, ref.alt, ref.caption, language=language, **ref.params))


def tolerance_text(tolerance: float, language: str = "en") -> str:
    """A tolerance for the key: two significant digits, positional, with ``language``'s
    decimal mark (``0.0055``, in Turkish ``0,0055``)."""
    return localize_numbers(plain_number(float(f"{tolerance:.2g}")), language)


def _with_unit(text: str, unit: str | None) -> str:
    return f"{text} {unit}" if unit else text


def _choice(q: model.ChoiceQuestion, number: int, seed: int, language: str) -> PrintedQuestion:
    order = option_order(q, seed)
    options = tuple(_md(q.options[i].text, inline=True) for i in order)
    right = [
        Markup("<strong>{}</strong> {}").format(_letter(k), options[k])
        for k, i in enumerate(order)
        if q.options[i].correct
    ]
    return PrintedQuestion(
        number,
        q.id,
        "choice",
        _md(q.prompt),
        Markup("; ").join(right),
        figure=_figure(q.figure, language),
        options=options,
        multiple=q.multiple,
        explanation=_optional(q.explanation),
    )


def _blank_answer(index: int, blank: model.Blank, language: str) -> Markup:
    """Blank ``index``'s accepted answers as code, as written (no decimal mark changed)."""
    words = []
    if blank.answers:
        words.append(Markup("<code>{}</code>").format(blank.answers[0]))
        if len(blank.answers) > 1:
            others = Markup(", ").join(
                Markup("<code>{}</code>").format(a) for a in blank.answers[1:]
            )
            words.append(_say(language, "print.also", answers=others))
    if blank.regex is not None:
        pattern = Markup("<code>{}</code>").format(blank.regex)
        if blank.answers:
            words.append(_say(language, "print.or_matching", pattern=pattern))
        else:
            words.append(_say(language, "print.matching", pattern=pattern))
    answer = Markup(" ").join(words)
    if blank.case_sensitive:
        answer = Markup(", ").join([answer, _say(language, "print.case_matters")])
    return Markup("<strong>({})</strong> {}").format(index + 1, answer)


def _fill(q: model.FillQuestion, number: int, language: str) -> PrintedQuestion:
    tokens = iter(range(len(q.blanks)))
    source = BLANK.sub(lambda _m: _BLANK_TOKEN.format(next(tokens)), q.prompt)
    prompt = str(_md(source))
    for i in range(len(q.blanks)):
        gap = f'<span class="konum-exam-gap">({i + 1})</span>'
        prompt = prompt.replace(_BLANK_TOKEN.format(i), gap, 1)
    answers = Markup("<br>").join(_blank_answer(i, b, language) for i, b in enumerate(q.blanks))
    return PrintedQuestion(
        number,
        q.id,
        "fill",
        Markup(prompt),
        answers,
        figure=_figure(q.figure, language),
        explanation=_optional(q.explanation),
    )


def _matching(q: model.MatchingQuestion, number: int, seed: int, language: str) -> PrintedQuestion:
    items = right_items(q, seed)
    rights = tuple(_md(item, inline=True) for item in items)
    lefts = tuple(_md(p.left, inline=True) for p in q.pairs)
    rows = [
        Markup("{} → <strong>{}</strong> {}").format(
            k + 1, _letter(items.index(p.right)), rights[items.index(p.right)]
        )
        for k, p in enumerate(q.pairs)
    ]
    return PrintedQuestion(
        number,
        q.id,
        "matching",
        _md(q.prompt),
        Markup("<br>").join(rows),
        figure=_figure(q.figure, language),
        lefts=lefts,
        rights=rights,
        explanation=_optional(q.explanation),
    )


def _ordering(q: model.OrderingQuestion, number: int, seed: int, language: str) -> PrintedQuestion:
    """The items lettered in the version's starting order; the key gives the letters in
    the right order."""
    order = item_order(q, seed)
    options = tuple(_md(q.items[i], inline=True) for i in order)
    letters = [_letter(order.index(place)) for place in range(len(q.items))]
    answer = Markup("<strong>{}</strong>").format(", ".join(letters))
    return PrintedQuestion(
        number,
        q.id,
        "ordering",
        _md(q.prompt),
        answer,
        figure=_figure(q.figure, language),
        options=options,
        explanation=_optional(q.explanation),
    )


def _numeric(q: model.NumericQuestion, number: int, language: str) -> PrintedQuestion:
    shown = typeset_number(format_number(q.answer, q.decimals, q.unit, language=language))
    answer = Markup("<strong>{}</strong> (± {})").format(
        shown, tolerance_text(absolute_tolerance(q), language)
    )
    return PrintedQuestion(
        number,
        q.id,
        "numeric",
        _md(q.prompt),
        answer,
        figure=_figure(q.figure, language),
        unit=q.unit,
        explanation=_optional(q.explanation),
    )


def _output(q: model.OutputQuestion, number: int, language: str) -> PrintedQuestion:
    """A program to write: the task on the exam; what the example prints, line by line, and
    the example itself in the key."""
    lines = Markup("<br>").join(
        Markup("<code>{}</code>").format(line) for line in q.expected.split("\n")
    )
    return PrintedQuestion(
        number,
        q.id,
        "output",
        _md(q.prompt),
        Markup("<strong>{}</strong><br>{}").format(_say(language, "print.prints"), lines),
        figure=_figure(q.figure, language),
        solution=_md(code_block(q.solution)),
        explanation=_optional(q.explanation),
    )


def _computed(
    q: model.ComputedQuestion, variant: model.Variant, number: int, language: str
) -> PrintedQuestion:
    """A computed question's variant, drawn in ``language`` (its prompt, solution, options and
    shown answer already have the language's decimal mark)."""
    shown = typeset_number(_with_unit(variant.shown_answer, variant.unit))
    prompt, figure = _md(variant.prompt), _figure(q.figure, language)
    solution, explanation = _md(variant.solution), _optional(q.explanation)
    if variant.options:
        options = tuple(Markup(typeset_number(_md(o.text, inline=True))) for o in variant.options)
        letter = next(_letter(k) for k, o in enumerate(variant.options) if o.correct)
        answer = Markup("<strong>{}</strong> {}").format(letter, shown)
        return PrintedQuestion(
            number,
            q.id,
            "choice",
            prompt,
            answer,
            figure=figure,
            options=options,
            solution=solution,
            explanation=explanation,
        )
    tolerance = tolerance_text(variant.tolerance, language)
    answer = Markup("<strong>{}</strong> (± {})").format(shown, tolerance)
    return PrintedQuestion(
        number,
        q.id,
        "numeric",
        prompt,
        answer,
        figure=figure,
        unit=variant.unit,
        solution=solution,
        explanation=explanation,
    )


def build_versions(
    course: Course, questions: Sequence[model.Question], *, seed: int, versions: int
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
    from konum.computed.registry import use_generators

    language = course.language
    with use_generators(course.generators):
        drawn = {
            q.id: make_concrete(q, seed, versions, language)
            for q in questions
            if isinstance(q, model.ComputedQuestion)
        }
    out = []
    for version in range(1, versions + 1):
        version_seed = derive_seed(seed, "exam", version)
        order = rng_for(seed, "exam", "order", version).permutation(len(questions))
        printed = []
        for number, index in enumerate(order.tolist(), start=1):
            q = questions[index]
            if isinstance(q, model.ChoiceQuestion):
                printed.append(_choice(q, number, version_seed, language))
            elif isinstance(q, model.FillQuestion):
                printed.append(_fill(q, number, language))
            elif isinstance(q, model.MatchingQuestion):
                printed.append(_matching(q, number, version_seed, language))
            elif isinstance(q, model.NumericQuestion):
                printed.append(_numeric(q, number, language))
            elif isinstance(q, model.OutputQuestion):
                printed.append(_output(q, number, language))
            elif isinstance(q, model.OrderingQuestion):
                printed.append(_ordering(q, number, version_seed, language))
            else:
                variant = drawn[q.id].variants[version - 1]
                printed.append(_computed(q, variant, number, language))
        out.append(ExamVersion(version, seed, tuple(printed), language))
    return out


# --- pages and PDFs ------------------------------------------------------------------------------


@lru_cache(maxsize=1)
def _stylesheet() -> Markup:
    from konum.mdx import MATH_FONTS

    css = (TEMPLATES_DIR / "exam" / "print.css").read_text(encoding="utf-8")
    return Markup(f"<style>{css}</style>\n{MATH_FONTS}")


def render_pages(version: ExamVersion, *, title: str) -> tuple[str, str]:
    """The exam page and the key page of ``version``, HTML in ``version.language``."""
    env = environment(version.language)
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
    :func:`os.replace`); each call has a profile of its own, so calls can run at once.

    Raises:
        ExportError: Chromium fails or writes nothing.
    """
    partial = pdf.with_name(f".{pdf.name}.part")
    with tempfile.TemporaryDirectory(prefix="konum-chromium-") as profile:
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
            result = subprocess.run(
                command, capture_output=True, text=True, timeout=PRINT_TIMEOUT, check=False
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            partial.unlink(missing_ok=True)
            raise ExportError(f"cannot print {page.name} with {chromium}: {exc}") from exc
    if result.returncode != 0 or not partial.is_file():
        partial.unlink(missing_ok=True)
        last = (result.stderr.strip().splitlines() or ["no output"])[-1]
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
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ExportError(f"cannot create {out}: {exc.strerror or exc}") from exc
    pages: list[Path] = []
    for version in built:
        exam, key = render_pages(version, title=title)
        for name, text in (
            (f"version-{version.number}", exam),
            (f"version-{version.number}-key", key),
        ):
            path = out / f"{name}.html"
            write_atomically(path, text)
            pages.append(path)
    files = list(pages)
    if chromium is not None:
        pdfs = [page.with_suffix(".pdf") for page in pages]
        with ThreadPoolExecutor(max_workers=2) as pool:
            list(pool.map(lambda page, pdf: print_pdf(chromium, page, pdf), pages, pdfs))
        files += pdfs
    return ExamResult(tuple(files), chromium is not None, len(questions))
