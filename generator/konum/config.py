"""The options of the ``konum`` Markdown extension, validated once for every entry point.

In ``mkdocs.yml`` (or Zensical's reading of it)::

    markdown_extensions:
      - konum:
          banks: docs/banks        # folder of bank files, relative to the folder of mkdocs.yml
          seed: 42                 # the site seed
          variants: 5              # variants shipped per computed question
          plugins: [generators/chem.py]   # generators, figures, explorers (konum.plugins)
          title: Chemistry         # deck and download names (default: the site name)
          order: [atoms, bonds]    # the banks in the course's order (default: file names)
          language: tr             # the interface's language (konum.messages.LANGUAGES)
          translations: docs/tr/banks   # the banks' texts in that language (konum.translate)
          run_programs: false      # run output questions' example solutions (trusted code)
          pages: docs              # the site's pages (konum build passes docs_dir)
          exam_cards: false        # cards of questions that only exam-mode quizzes show
          editions: [mkdocs.tr.yml]  # the site's other editions, which konum build publishes
          jobs: 0                  # worker processes for the check: 0 one per core, 1 none

The extension, ``konum build`` (which passes its ``--seed``/``--variants`` in as options) and
every other command read these through :func:`options_from`, so a bad value gets the same
message wherever it is written.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from konum import limits
from konum.errors import ConfigError
from konum.formatting import did_you_mean
from konum.messages import LANGUAGES

#: The option names, their defaults and what they mean (Python-Markdown's config format).
DEFAULTS: dict[str, list[Any]] = {
    "banks": ["docs/banks", "folder of bank files, relative to the folder of mkdocs.yml"],
    "seed": [42, "the site seed: the same seed draws the same numbers"],
    "variants": [
        limits.DEFAULT_VARIANTS,
        "variants shipped per computed question (New numbers cycles them)",
    ],
    "plugins": [[], "plugins: installed plugins' names, modules or .py files (konum.plugins)"],
    "generators": [[], "the older name of plugins"],
    "title": ["", "name of the flashcard decks and downloads (default: the site name)"],
    "order": [[], "bank ids in the course's order (decks, the study page); others follow"],
    "root": ["", "folder that relative paths start from (default: the working directory)"],
    "language": ["en", "language of the quiz, study and explorer interface (konum.messages)"],
    "translations": ["", "folder of the banks' translations into the language (default: none)"],
    "run_programs": [False, "run output questions' example solutions instead of their recordings"],
    "pages": ["docs", "folder of the site's pages, where the study block finds the exams"],
    "exam_cards": [False, "cards for the questions that only exams show (study page, decks)"],
    "editions": [
        [],
        "the site's other editions: their configuration files, which konum build publishes "
        "inside this site_dir (only the main configuration's list is read)",
    ],
    "jobs": [0, "worker processes that check the banks: 0 one per core, 1 none (this one)"],
    "nav_progress": [
        None,
        "progress marks in every page's navigation (konum: on, konum.quiz: off)",
    ],
}


@dataclass(frozen=True)
class Options:
    """The extension's options, checked.

    Attributes:
        banks: the bank folder, absolute.
        seed: the site seed, ``limits.SEED``.
        variants: variants per computed question, ``limits.VARIANTS``.
        plugins: the site's plugins: entry-point names, modules (dotted names) or files
            (absolute paths), the ``plugins`` option's and then the ``generators`` option's.
        title: deck and download name; empty means the site name.
        order: bank ids in the course's order; banks not listed follow in file order.
        root: the folder that relative paths were resolved against.
        language: the interface's language, one of :data:`konum.messages.LANGUAGES`.
        translations: the folder of the banks' translations into ``language``, absolute
            (:mod:`konum.translate`); None: the banks' own text.
        run_programs: output questions' example solutions run at every check and build
            (the site trusts them); otherwise their recorded output is used.
        pages: the folder of the site's Markdown pages, absolute (``docs_dir``).
        exam_cards: the study page, the overview and the downloaded decks carry the questions
            that only exam-mode quizzes show (by default they are left out).
        editions: the configuration files of the site's other editions, absolute, in the
            order written; konum reads no other file beside ``mkdocs.yml`` as an edition.
        jobs: worker processes that check the banks (:mod:`konum.parallel`): 0 one per core
            the process may use, 1 none (the check runs in this process); the course is
            the same either way.
    """

    banks: Path
    seed: int
    variants: int
    plugins: tuple[str, ...]
    title: str
    order: tuple[str, ...]
    root: Path
    language: str = "en"
    translations: Path | None = None
    run_programs: bool = False
    pages: Path | None = None
    exam_cards: bool = False
    editions: tuple[Path, ...] = ()
    jobs: int = 0


class OptionError(ConfigError):
    """An option of konum's that it does not have, or whose value is wrong: ``name`` is the
    option, for a reader of the configuration to say where it is written."""

    def __init__(self, name: str, message: str) -> None:
        super().__init__(message)
        self.name = name


def _wrong(name: str, expected: str, found: object, more: str = "") -> OptionError:
    return OptionError(
        name,
        f"option {name!r} of konum in markdown_extensions: expected {expected}, "
        f"found {found!r}{more}",
    )


def _whole(name: str, value: object, low: int, high: int) -> int:
    # YAML gives ints; callers from Python may give text.
    number = None
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif isinstance(value, str) and value.strip().lstrip("-").isdigit() and len(value) < 30:
        number = int(value)
    if number is None:
        raise _wrong(name, "a whole number", value)
    if not low <= number <= high:
        raise _wrong(name, f"a whole number from {low} to {high:,}", number)
    return number


def check_names(given: Mapping[str, Any]) -> None:
    """Raise :class:`OptionError` for an option konum does not have, naming it."""
    for name in given:
        if name not in DEFAULTS:
            raise OptionError(
                str(name),
                f"markdown_extensions: konum has no option {name!r}"
                f"{did_you_mean(str(name), DEFAULTS)} "
                f"(options: {', '.join(DEFAULTS)})",
            )


def options_from(given: Mapping[str, Any], root: str | Path | None = None) -> Options:
    """Check the extension's options and resolve its paths.

    Args:
        given: the options as written (missing ones take :data:`DEFAULTS`).
        root: folder that relative paths start from; default the ``root`` option, else the
            working directory (MkDocs and Zensical run in the folder of ``mkdocs.yml``).

    Raises:
        OptionError: an unknown option or a value of the wrong kind or range.
    """
    check_names(given)
    values = {name: default for name, (default, _) in DEFAULTS.items()} | dict(given)
    for name in ("banks", "plugins", "generators", "root", "translations", "pages", "editions"):
        written = values[name] if isinstance(values[name], (list, tuple)) else [values[name]]
        if any("\0" in str(item) for item in written):
            raise OptionError(
                name,
                f"option {name!r} of konum in markdown_extensions: a path cannot hold a NUL "
                f"character (\\0), found {values[name]!r}",
            )
    base = Path(root or values["root"] or ".").resolve()
    banks = values["banks"]
    if not isinstance(banks, (str, Path)) or not str(banks).strip():
        raise _wrong("banks", "a folder", banks)
    plugins: list[str] = []
    for name in ("plugins", "generators"):
        given = values[name]
        if isinstance(given, str):
            given = [given]
        if not isinstance(given, (list, tuple)) or not all(
            isinstance(g, str) and g.strip() for g in given
        ):
            raise _wrong(name, "a list of plugins' names, module names or .py files", given)
        plugins += given
    for name in ("run_programs", "exam_cards"):
        if not isinstance(values[name], bool):
            raise _wrong(name, "true or false", values[name])
    order = values["order"]
    if not isinstance(order, (list, tuple)) or not all(isinstance(b, str) for b in order):
        raise _wrong("order", "a list of bank ids", order)
    title = values["title"]
    if not isinstance(title, str):
        raise _wrong("title", "text", title)
    language = values["language"]
    if language not in LANGUAGES:
        more = did_you_mean(str(language), LANGUAGES)
        raise _wrong("language", f"one of {', '.join(LANGUAGES)}", language, more)
    translations, pages = values["translations"], values["pages"]
    for name in ("translations", "pages"):
        if not isinstance(values[name], (str, Path)):
            raise _wrong(name, "a folder", values[name])
    editions = values["editions"]
    if isinstance(editions, str):
        editions = [editions]
    if not isinstance(editions, (list, tuple)) or not all(
        isinstance(e, (str, Path)) and str(e).strip() for e in editions
    ):
        raise _wrong("editions", "a list of configuration files ([mkdocs.tr.yml])", editions)
    return Options(
        banks=(base / str(banks)).resolve(),
        seed=_whole("seed", values["seed"], *limits.SEED),
        variants=_whole("variants", values["variants"], *limits.VARIANTS),
        plugins=tuple(
            dict.fromkeys(
                str((base / g).resolve()) if g.endswith(".py") else g.strip() for g in plugins
            )
        ),
        title=title.strip(),
        order=tuple(order),
        root=base,
        language=language,
        translations=(base / str(translations)).resolve() if str(translations).strip() else None,
        run_programs=values["run_programs"],
        pages=(base / str(pages)).resolve() if str(pages).strip() else None,
        exam_cards=values["exam_cards"],
        editions=tuple(dict.fromkeys((base / str(e)).resolve() for e in editions)),
        jobs=_whole("jobs", values["jobs"], *limits.JOBS),
    )


def override(
    options: Options,
    *,
    seed: int | None = None,
    variants: int | None = None,
    jobs: int | None = None,
) -> Options:
    """``options`` with the seed, variants and jobs a command gives (None keeps the
    configured one).

    Raises:
        ConfigError: a value out of range.
    """
    return replace(
        options,
        seed=options.seed if seed is None else _whole("seed", seed, *limits.SEED),
        variants=(
            options.variants if variants is None else _whole("variants", variants, *limits.VARIANTS)
        ),
        jobs=options.jobs if jobs is None else _whole("jobs", jobs, *limits.JOBS),
    )
