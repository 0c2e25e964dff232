"""The ``konum`` command line: check banks, preview computed questions, build, serve, export.

Every command reads the site's ``mkdocs.yml`` (``-f`` names another) and the ``konum``
extension's options in it: the banks folder, the seed, the variants. Every failure the user
can fix prints one clear line (or one line per bank problem) and exits non-zero; no
traceback reaches the terminal for bad input.
"""

from __future__ import annotations

import logging
import signal
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from konum import __version__, limits
from konum.commandline import (
    VARIANTS,
    address,
    config_file_option,
    config_option,
    course_or_exit,
    flag_option,
    plural,
    seed_option,
    warn_published,
)
from konum.errors import ExportError, KonumError, os_error
from konum.importing import import_command
from konum.scorm import scorm_options

if TYPE_CHECKING:
    from konum.course import Course
    from konum.siteconfig import SiteConfig


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="konum")
def cli() -> None:
    """konum: self-checking quizzes and flashcards from YAML question banks.

    Run where the site's mkdocs.yml is, or name it with -f.
    """


@cli.command()
@click.argument("paths", nargs=-1, type=click.Path())
@config_option
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="Problems as lines (FILE:LINE:COL: [id] field: message) or JSON.",
)
@flag_option(
    "--update-hashes",
    "Mark every translation (the translations option) as made from the current English.",
)
@flag_option(
    "--run-programs",
    "Run output questions' example solutions and compare them with their recordings.",
)
@flag_option(
    "--record",
    "Run output questions' example solutions and record what they print in the banks.",
)
@click.option(
    "-p",
    "--plugin",
    "extra_plugins",
    multiple=True,
    metavar="NAME",
    help="A plugin the banks use besides the site's (repeat it; without a site, the only ones).",
)
def check(
    paths: tuple[str, ...],
    config_file: str,
    output_format: str,
    update_hashes: bool,
    run_programs: bool,
    record: bool,
    extra_plugins: tuple[str, ...],
) -> None:
    """Validate question banks (default: the banks folder of the konum extension and the
    questions written in the site's pages) and, when the extension has a translations
    folder, their translations.

    Example programs (output questions) are code: they run only with --run-programs or
    --record, or where mkdocs.yml says run_programs: true; otherwise their recorded output
    is checked against their solution's hash."""
    from konum.check import check_banks
    from konum.plugins import NONE, load_plugins
    from konum.problems import format_json, format_text
    from konum.siteconfig import edition_pages, find_editions, published_banks, read_site_config

    # The site's plugins, when there is a site: banks given by path are checked with them
    # too, and without a mkdocs.yml with those the command names.
    plugins = load_plugins(extra_plugins, Path.cwd()) if extra_plugins else NONE
    site = None  # the whole site is checked, its pages too
    translations = None
    complete = not paths  # the whole banks folder: a translation of no bank is reported
    project = None  # without a mkdocs.yml, images must lie in the working directory
    variants = limits.DEFAULT_VARIANTS
    if not paths or Path(config_file).is_file():
        settings = read_site_config(config_file)
        site = settings if not paths else None
        options = settings.options
        plugins = load_plugins((*options.plugins, *extra_plugins), options.root)
        paths = paths or (str(options.banks),)
        translations = options.translations
        project = options.root
        run_programs = run_programs or options.run_programs
        variants = options.variants
    if record:
        from konum.record import record_outputs

        for changed in record_outputs(list(paths), project=project):
            click.echo(f"konum: recorded the example solutions' output in {changed}", err=True)
    report = check_banks(
        list(paths),
        plugins=plugins,
        project=project,
        run_programs=run_programs or record,
        variants=variants,
        pages=site.options.pages if site is not None else None,  # the questions written there
        skip_pages=edition_pages(site.options.editions) if site is not None else (),
    )
    problems, files = list(report.problems), list(report.files)
    editions = [] if site is None else [site, *(e for _, e in find_editions(site))]
    if not problems and editions:
        from konum.build import check_pages
        from konum.course import course_problems

        # The pages' blocks, each edition's with its own banks, as the build would take them;
        # what keeps an edition's course from loading (its configuration, its translations)
        # is said once, not again by each of its pages.
        for edition in editions:
            problems += course_problems(edition.options, edition.config_file) or check_pages(
                edition
            )
    if translations is not None:
        from konum.load import is_page_bank
        from konum.rehash import update_hashes as record_hashes
        from konum.translate import check_translations

        if update_hashes:
            for changed in record_hashes(report.banks, translations):
                click.echo(f"konum: recorded the English hashes in {changed}", err=True)
        english = [bank for bank in report.banks if not is_page_bank(bank)]
        translated = check_translations(english, translations, complete=complete, project=project)
        problems += [*translated.problems, *translated.stale]
        files += translated.files
    elif update_hashes:
        raise KonumError(f"{config_file}: the konum extension has no translations folder to update")
    problems = list(dict.fromkeys(problems))  # an edition's translations are checked above too
    counts = {"files": len(report.files), "questions": report.questions}
    if output_format == "json":
        click.echo(format_json(problems, **counts))
    else:
        click.echo(format_text(problems, **counts), err=bool(problems))
    warn_published([found for edition in editions for found in published_banks(edition)])
    if problems:
        raise click.exceptions.Exit(1)


@cli.command()
@click.argument("question_id")
@config_option
@seed_option
@click.option(
    "--variants", type=VARIANTS, default=3, show_default=True, help="How many variants to print."
)
def preview(question_id: str, config_file: str, seed: int | None, variants: int) -> None:
    """Print the variants of a computed question: prompt, answer, options, solution."""
    from konum.formatting import did_you_mean
    from konum.problems import printable
    from konum.siteconfig import read_site_config

    course = course_or_exit(read_site_config(config_file), seed, variants)
    questions = {q.id: q for bank in course.banks for q in bank.questions}
    if question_id not in questions:
        raise KonumError(
            f"no question with id {question_id!r}{did_you_mean(question_id, questions)}"
        )
    question = questions[question_id]
    text = question.preview(course.concrete(question), course.plugins)
    if text is None:
        raise KonumError(
            f"question {question_id!r} is a {question.type} question; "
            "preview shows computed questions"
        )
    click.echo("\n".join(map(printable, text.split("\n"))))  # no escape sequence acts


@cli.command()
@config_option
@seed_option
@click.option("--variants", type=VARIANTS, default=None, help="Variants per computed question.")
@click.option(
    "-d",
    "--site-dir",
    type=click.Path(),
    default=None,
    help="Publish here instead of mkdocs.yml's site_dir.",
)
@click.option(
    "-j", "--jobs", type=click.IntRange(*limits.JOBS), metavar="N", help="Processes checking banks."
)
def build(
    seed: int | None, variants: int | None, site_dir: str | None, config_file: str, jobs: int | None
) -> None:
    """Validate the banks (-j processes; default the jobs option's, 0: one per core), build
    the site, its editions (the configurations its konum options name in editions, each
    inside its site_dir) and their downloads, published together; the same for any -j."""
    from konum.build import build_site
    from konum.paths import shown
    from konum.problems import BankError, format_text

    try:
        started = time.perf_counter()
        result = build_site(config_file, seed=seed, variants=variants, site_dir=site_dir, jobs=jobs)
    except BankError as exc:
        click.echo(format_text(exc.problems, files=len(exc.files)), err=True)
        click.echo("konum: build stopped; the published site was not touched", err=True)
        raise click.exceptions.Exit(1) from None
    seconds = time.perf_counter() - started
    here = Path.cwd()
    site = shown(result.site, here)
    counts = ", ".join(
        plural(n, word) for n, word in ((result.banks, "bank"), (result.questions, "question"))
    )
    editions = "".join(f", {site / folder}/" for folder in result.editions)
    click.echo(
        f"konum: built {plural(result.pages, 'page')} ({counts}, seed {result.seed})"
        f" into {site}/{editions} in {seconds:.1f} s"
    )
    warn_published(result.published_banks)


@cli.command()
@config_option
@seed_option
@click.option(
    "-a",
    "--dev-addr",
    default="127.0.0.1:8000",
    show_default=True,
    metavar="IP:PORT",
    callback=lambda ctx, param, value: address(value),
)
def serve(config_file: str, seed: int | None, dev_addr: str) -> None:
    """Preview one edition with live reload (banks, pages, templates and code): the site's
    mkdocs.yml, or another edition's configuration with -f, served under its own path.
    While the site does not build, its pages show why, until a save fixes it."""
    from konum.config import override
    from konum.driver import PageLine
    from konum.driver import serve as serve_site
    from konum.paths import TEMPLATES_DIR
    from konum.siteconfig import file_problems, find_editions, read_site_config

    settings = read_site_config(config_file)
    refused = file_problems(settings)
    if refused:
        raise KonumError(str(refused[0]))
    others = [edition.config_file.name for _, edition in find_editions(settings)]
    if others:
        # One server, one edition: the language switcher's other links are not served.
        click.echo(
            f"konum: serving {settings.config_file.name} only; preview another edition with "
            f"-f ({', '.join(others)}), or konum build both and serve site/",
            err=True,
        )
    options = override(settings.options, seed=seed)
    # The banks may live outside docs_dir, and konum's own templates and code change too,
    # as do the folders of the site's own generator files.
    package = Path(__file__).resolve().parent
    plugin_folders = [Path(g).parent for g in options.plugins if g.endswith(".py")]
    folders = (options.banks, TEMPLATES_DIR, package, *plugin_folders)
    watch = sorted({str(p) for p in folders if p.is_dir()})

    def stop(signum: int, frame: object) -> None:
        raise KeyboardInterrupt  # as Ctrl-C: the server stops and its folder goes

    signal.signal(signal.SIGTERM, stop)
    # What `mkdocs serve` says: each build, its warnings, and "Serving on http://...".
    page_line = PageLine(settings)
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(levelname)-7s -  %(message)s"))
    handler.addFilter(page_line)
    mkdocs_log = logging.getLogger("mkdocs")
    mkdocs_log.addHandler(handler)
    mkdocs_log.setLevel(logging.INFO)
    serve_site(settings.config_file, page_line, seed=seed, dev_addr=dev_addr, watch=watch)


#: Exports for learning management systems, beside the flashcard ones.
LMS_KINDS = ("moodle", "gift", "qti")


@cli.command()
@click.argument("kind", type=click.Choice(["anki", "text", "csv", *LMS_KINDS, "scorm"]))
@config_option
@seed_option
@click.option("--variants", type=VARIANTS, default=None, help="Variants per computed question.")
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False),
    default=None,
    help="File to write (default: in exports/ beside mkdocs.yml, named after the site: "
    "NAME.apkg, NAME-anki.txt, NAME.csv, NAME-moodle.xml, NAME-gift.txt, NAME-qti.zip or "
    "NAME-scorm12.zip).",
)
@scorm_options
def export(
    kind: str,
    config_file: str,
    seed: int | None,
    variants: int | None,
    output: str | None,
    **scorm: Any,
) -> None:
    """Export flashcards (an Anki package, Anki's text format, plain CSV), questions for an
    LMS (Moodle XML, GIFT, a QTI 1.2 package for Canvas), or the quiz pages as a SCORM
    package that reports each learner's score to the LMS."""
    if kind in LMS_KINDS:
        _export_lms(kind, config_file, seed, variants, output)
        return
    from konum.exports import export as write_export
    from konum.exports import file_names
    from konum.siteconfig import read_site_config

    settings = read_site_config(config_file)
    course = course_or_exit(settings, seed, variants)
    if kind == "scorm":
        from konum.scorm import run_export

        click.echo(run_export(settings, course, output, choose=_output, seed=seed, **scorm))
        return
    default = settings.config_file.parent / "exports" / file_names(settings.deck)[kind]
    path = _output(settings, course, output, default)
    cards = write_export(
        kind,  # type: ignore[arg-type]
        course.banks,
        course.concretes(),
        path,
        deck=settings.deck,
        language=course.language,
        plugins=course.plugins,
        images=course.images,
    )
    click.echo(f"konum: wrote {plural(len(cards), 'card')} to {path}")


def _output(
    settings: SiteConfig, course: Course, output: str | None, default: Path, *, folder: bool = False
) -> Path:
    """Where an export or the exam goes: ``-o`` if given, else ``default`` (its ``exports/``
    folder made); refused if it would overwrite what the site is made from
    (:func:`konum.files.check_target`)."""
    from konum.files import check_target

    protected = settings.protected(*course.plugins.sources)
    if output:
        return check_target(output, protected, folder=folder)
    try:
        default.parent.mkdir(exist_ok=True)
    except OSError as exc:
        raise ExportError(f"cannot create {default.parent}: {exc.strerror or exc}") from None
    return check_target(default, protected, what="the output", folder=folder)


def _export_lms(
    kind: str, config_file: str, seed: int | None, variants: int | None, output: str | None
) -> None:
    """``konum export moodle|gift|qti``: the questions, the ones left out listed on stderr."""
    from konum.exports import file_names
    from konum.exports.gift import write_gift
    from konum.exports.moodle import write_moodle
    from konum.exports.qti import write_qti
    from konum.lms import skipped_report
    from konum.siteconfig import read_site_config

    settings = read_site_config(config_file)
    course = course_or_exit(settings, seed, variants)
    default = settings.config_file.parent / "exports" / file_names(settings.deck)[kind]
    path = _output(settings, course, output, default)
    concretes = {c.question.id: c for c in course.concretes()}
    files = {"plugins": course.plugins, "images": course.images}
    if kind == "moodle":
        result = write_moodle(
            course.banks, concretes, path, deck=settings.deck, language=course.language, **files
        )
    elif kind == "qti":
        result = write_qti(
            course.banks, concretes, path, deck=settings.deck, language=course.language, **files
        )
    else:
        result = write_gift(
            course.banks, concretes, path, deck=settings.deck, language=course.language
        )
    if result.skipped:
        name = {"moodle": "Moodle XML", "gift": "GIFT", "qti": "QTI"}[kind]
        click.echo(skipped_report(name, result.skipped), err=True)
    many = result.categories != 1
    categories = f"{result.categories} " + (
        ("quizzes" if many else "quiz") if kind == "qti" else ("categories" if many else "category")
    )
    click.echo(
        f"konum: wrote {len(result.exported)} of {course.questions} questions "
        f"({plural(result.items, 'question')} in {categories}, seed {course.seed}) to {path}"
    )


@cli.command()
@click.argument("source", metavar="BANK|PAGE")
@config_file_option("The site's MkDocs configuration (for a BANK).", "--config")
@seed_option
def quiz(source: str, config_file: str, seed: int | None) -> None:
    """Take a quiz in the terminal: a bank of the site's (its id or file), or the quizzes of
    a built page (an HTML file, a built folder or an http(s) URL of any konum site).

    One answer a line (also from a pipe): an option by number or letter, several as "1 3",
    matches as "1=b 2=a", an order as "3 1 2", each blank on its own line, a program's
    output up to an empty line; or hint, show, new, skip, quit. A page's questions of a
    plugin's type are graded with the plugins of the site's configuration, when there is one."""
    from konum.plugins import load_plugins
    from konum.siteconfig import read_site_config
    from konum.terminal import bank_quiz, take
    from konum.types import TYPES, site_types
    from konum.webpage import is_page, read_page

    if is_page(source):
        types = TYPES
        if Path(config_file).is_file():
            options = read_site_config(config_file).options
            types = site_types(load_plugins(options.plugins, options.root))
        take(read_page(source), source=source, seed=seed, types=types)
        return
    course = course_or_exit(read_site_config(config_file), seed, None)
    types = site_types(course.plugins)
    take(bank_quiz(course, source), source=source, language=course.language, seed=seed, types=types)


@cli.command()
@config_option
@seed_option
@click.option(
    "--versions", type=int, default=1, show_default=True, help="How many versions to print."
)
@click.option(
    "--questions",
    "picks",
    multiple=True,
    metavar="BANK|TAG",
    help="Draw from these banks or tags (repeat it, or separate with commas; default: all).",
)
@click.option("--count", type=int, default=None, help="How many questions (default: all picked).")
@click.option(
    "-o",
    "--output",
    type=click.Path(file_okay=False),
    default=None,
    help="Folder to write (default: exports/exam beside mkdocs.yml).",
)
def exam(
    config_file: str,
    seed: int | None,
    versions: int,
    picks: tuple[str, ...],
    count: int | None,
    output: str | None,
) -> None:
    """Print an exam: versions with their own numbers and order, each with an answer key,
    as HTML and PDF."""
    from konum.exam import find_chromium, write_exam
    from konum.siteconfig import read_site_config

    settings = read_site_config(config_file)
    course = course_or_exit(settings, seed, None)
    default = settings.config_file.parent / "exports" / "exam"
    folder = _output(settings, course, output, default, folder=True)
    chromium = find_chromium()
    names = tuple(name.strip() for pick in picks for name in pick.split(",") if name.strip())
    result = write_exam(
        course,
        folder,
        seed=course.seed,
        versions=versions,
        picks=names,
        count=count,
        title=settings.deck,
        chromium=chromium,
    )
    if chromium is None:
        click.echo(
            "konum: no Chromium found (chromium, chromium-browser or google-chrome on PATH): "
            "wrote the HTML only, no PDF",
            err=True,
        )
    click.echo(
        f"konum: wrote {plural(versions, 'version')} of {plural(result.questions, 'question')}"
        f" (seed {course.seed}, {len(result.files)} files) to {folder}"
    )


cli.add_command(import_command)


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point: run the CLI, turning every user error into one line and an exit code."""
    sys.exit(_run(argv))


def _run(argv: Sequence[str] | None) -> int:
    """Run the CLI; the exit code (2 for usage errors, 130 for an interrupt, 1 for others)."""
    try:
        code = cli.main(
            args=list(argv) if argv is not None else None, prog_name="konum", standalone_mode=False
        )
    except click.UsageError as exc:
        message = exc.format_message()
        hint = (
            f" (see 'konum {exc.ctx.info_name} --help')"
            if exc.ctx and exc.ctx.parent
            else " (see 'konum --help')"
        )
        click.echo(f"konum: {message}{hint}", err=True)
        return 2
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except click.Abort:
        click.echo("konum: interrupted", err=True)
        return 130
    except click.ClickException as exc:
        click.echo(f"konum: {exc.format_message()}", err=True)
        return exc.exit_code
    except KonumError as exc:
        click.echo(f"konum: {exc}", err=True)
        return 1
    except KeyboardInterrupt:
        click.echo("konum: interrupted", err=True)
        return 130
    except OSError as exc:
        click.echo(f"konum: {os_error(exc)}", err=True)
        return 1
    return code if isinstance(code, int) else 0
