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

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from konum import limits
from konum.errors import ConfigError
from konum.formatting import did_you_mean
from konum.messages import LANGUAGES


class _Wrong(ValueError):
    """A value an option does not take: what was expected, and what was found (the value
    itself unless said)."""

    def __init__(self, expected: str, found: object = None, more: str = "") -> None:
        super().__init__(expected)
        self.expected, self.found, self.more = expected, found, more


def _kind(kinds: type | tuple[type, ...], expected: str) -> Callable[[object], Any]:
    """A reader of a value of ``kinds`` (a folder, a flag, a text)."""

    def read(value: object) -> object:
        if not isinstance(value, kinds):
            raise _Wrong(expected)
        return value

    return read


_folder, _flag, _text = (
    _kind((str, Path), "a folder"),
    _kind(bool, "true or false"),
    _kind(str, "text"),
)


def _bank_folder(value: object) -> object:
    if not str(_folder(value)).strip():
        raise _Wrong("a folder")
    return value


def _named(what: str) -> Callable[[object], list[Any]]:
    """A reader of a list of non-empty names (one name alone is a list of one)."""

    def read(value: object) -> list[Any]:
        items = [value] if isinstance(value, str) else value
        if not isinstance(items, (list, tuple)) or not all(
            isinstance(item, (str, Path)) and str(item).strip() for item in items
        ):
            raise _Wrong(what)
        return list(items)

    return read


def _plugins(value: object) -> list[Any]:
    items = _named("a list of plugins' names, module names or .py files")(value)
    if not all(isinstance(item, str) for item in items):
        raise _Wrong("a list of plugins' names, module names or .py files")
    return items


def _ids(value: object) -> list[str]:
    if not isinstance(value, (list, tuple)) or not all(isinstance(b, str) for b in value):
        raise _Wrong("a list of bank ids")
    return list(value)


def _language(value: object) -> str:
    if value not in LANGUAGES:
        raise _Wrong(f"one of {', '.join(LANGUAGES)}", more=did_you_mean(str(value), LANGUAGES))
    return str(value)


def _whole_in(bounds: tuple[int, int]) -> Callable[[object], int]:
    """A reader of a whole number within ``bounds`` (YAML gives ints; callers from Python
    may give text)."""
    low, high = bounds

    def read(value: object) -> int:
        number = None
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        elif isinstance(value, str) and value.strip().lstrip("-").isdigit() and len(value) < 30:
            number = int(value)
        if number is None:
            raise _Wrong("a whole number")
        if not low <= number <= high:
            raise _Wrong(f"a whole number from {low} to {high:,}", number)
        return number

    return read


def _any(value: object) -> object:
    return value


@dataclass(frozen=True)
class Option:
    """One option of the extension: its default, what it means (Python-Markdown's config
    help), how a value is read (a reader returns it checked or raises :class:`_Wrong`) and
    whether it names files (a NUL in any of them is refused first)."""

    default: Any
    help: str
    read: Callable[[Any], Any] = _any
    paths: bool = False


#: The options, in the order they are checked.
OPTIONS: dict[str, Option] = {
    "banks": Option(
        "docs/banks",
        "folder of bank files, relative to the folder of mkdocs.yml",
        _bank_folder,
        paths=True,
    ),
    "seed": Option(
        42, "the site seed: the same seed draws the same numbers", _whole_in(limits.SEED)
    ),
    "variants": Option(
        limits.DEFAULT_VARIANTS,
        "variants shipped per computed question (New numbers cycles them)",
        _whole_in(limits.VARIANTS),
    ),
    "plugins": Option(
        [],
        "plugins: installed plugins' names, modules or .py files (konum.plugins)",
        _plugins,
        paths=True,
    ),
    "generators": Option([], "the older name of plugins", _plugins, paths=True),
    "title": Option(
        "", "name of the flashcard decks and downloads (default: the site name)", _kind(str, "text")
    ),
    "order": Option(
        [], "bank ids in the course's order (decks, the study page); others follow", _ids
    ),
    "root": Option(
        "", "folder that relative paths start from (default: the working directory)", paths=True
    ),
    "language": Option(
        "en", "language of the quiz, study and explorer interface (konum.messages)", _language
    ),
    "translations": Option(
        "", "folder of the banks' translations into the language (default: none)", _folder, True
    ),
    "run_programs": Option(
        False, "run output questions' example solutions instead of their recordings", _flag
    ),
    "pages": Option(
        "docs", "folder of the site's pages, where the study block finds the exams", _folder, True
    ),
    "exam_cards": Option(
        False, "cards for the questions that only exams show (study page, decks)", _flag
    ),
    "editions": Option(
        [],
        "the site's other editions: their configuration files, which konum build publishes "
        "inside this site_dir (only the main configuration's list is read)",
        _named("a list of configuration files ([mkdocs.tr.yml])"),
        paths=True,
    ),
    "jobs": Option(
        0,
        "worker processes that check the banks: 0 one per core, 1 none (this one)",
        _whole_in(limits.JOBS),
    ),
    "nav_progress": Option(
        None, "progress marks in every page's navigation (konum: on, konum.quiz: off)"
    ),
}

#: The option names, their defaults and what they mean (Python-Markdown's config format).
DEFAULTS: dict[str, list[Any]] = {name: [o.default, o.help] for name, o in OPTIONS.items()}


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


def _checked(name: str, value: object) -> Any:
    """``value`` of option ``name`` as its reader makes it; the one message of a wrong one."""
    try:
        return OPTIONS[name].read(value)
    except _Wrong as wrong:
        found = value if wrong.found is None else wrong.found
        raise OptionError(
            name,
            f"option {name!r} of konum in markdown_extensions: expected {wrong.expected}, "
            f"found {found!r}{wrong.more}",
        ) from None


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
    values = {name: option.default for name, option in OPTIONS.items()} | dict(given)
    for name in (name for name, option in OPTIONS.items() if option.paths):
        written = values[name] if isinstance(values[name], (list, tuple)) else [values[name]]
        if any("\0" in str(item) for item in written):
            raise OptionError(
                name,
                f"option {name!r} of konum in markdown_extensions: a path cannot hold a NUL "
                f"character (\\0), found {values[name]!r}",
            )
    v = {name: _checked(name, value) for name, value in values.items()}
    base = Path(root or v["root"] or ".").resolve()
    translations, pages, plugins = v["translations"], v["pages"], v["plugins"] + v["generators"]
    return Options(
        banks=(base / str(v["banks"])).resolve(),
        seed=v["seed"],
        variants=v["variants"],
        plugins=tuple(
            dict.fromkeys(
                str((base / g).resolve()) if g.endswith(".py") else g.strip() for g in plugins
            )
        ),
        title=v["title"].strip(),
        order=tuple(v["order"]),
        root=base,
        language=v["language"],
        translations=(base / str(translations)).resolve() if str(translations).strip() else None,
        run_programs=v["run_programs"],
        pages=(base / str(pages)).resolve() if str(pages).strip() else None,
        exam_cards=v["exam_cards"],
        editions=tuple(dict.fromkeys((base / str(e)).resolve() for e in v["editions"])),
        jobs=v["jobs"],
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
        seed=options.seed if seed is None else _checked("seed", seed),
        variants=options.variants if variants is None else _checked("variants", variants),
        jobs=options.jobs if jobs is None else _checked("jobs", jobs),
    )
