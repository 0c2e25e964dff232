"""The site's configuration: ``mkdocs.yml``, what it inherits, and its editions.

konum reads a configuration in two ways. Its own reads (:func:`raw_config`: the ``INHERIT``
chain, the extension's options checked before MkDocs loads them) treat the file as bank
files are treated: at most ``limits.YAML_BYTES``, a regular file, UTF-8, bounded nesting,
and a YAML loader that constructs nothing (MkDocs' ``!ENV`` read as MkDocs reads it, every
other tag as plain data). Then MkDocs' own loader reads the files the site names
(:func:`load_mkdocs_config`), as ``mkdocs build`` would: those are trusted like plugins.

A site may have **editions** (a translation): the configurations the ``editions`` option
of the config's konum extension names, each publishing inside its ``site_dir``
(``editions: [mkdocs.tr.yml]``; ``mkdocs.tr.yml``: ``site_dir: site/tr``). No other file
beside the config is read as one.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from konum import limits
from konum.config import OptionError, Options, check_names, options_from
from konum.errors import ConfigError
from konum.paths import shown
from konum.problems import BankProblem

#: The names in ``markdown_extensions`` under which konum's options are written: the whole of
#: konum, or its quiz part alone (whose options the commands read).
EXTENSIONS = ("konum", "konum.quiz")


@dataclass(frozen=True)
class SiteConfig:
    """What the commands need from ``mkdocs.yml``.

    Attributes:
        config_file: the configuration, absolute.
        site_dir: where MkDocs publishes.
        docs_dir: the docs folder, absolute.
        site_name: the site's name (the decks' name unless ``title`` is set).
        options: the ``konum`` extension's options.
        sources: folders a build must never touch (docs, banks, theme folders).
        site_url: the site's address ("" for none).
        mkdocs: MkDocs' configuration as loaded, which the build then runs (so a build
            reads each configuration once).
    """

    config_file: Path
    site_dir: Path
    docs_dir: Path
    site_name: str
    options: Options
    sources: tuple[Path, ...]
    extension: str = "konum"
    site_url: str = ""
    mkdocs: Any = field(default=None, compare=False, repr=False)

    def protected(self, *more: Path) -> list[Path]:
        """What no output may overwrite or write into: the sources, the site's
        configurations (``mkdocs*.yml`` beside this one and what it inherits), the project's
        ``.git``, konum's package and templates, and ``more`` (the plugins' files)."""
        from konum.paths import TEMPLATES_DIR

        project = self.config_file.parent
        configs = [*project.glob("mkdocs*.yml"), *project.glob("mkdocs*.yaml")]
        gits = [folder / ".git" for folder in (project, *project.parents)]
        return [
            *self.sources,
            self.config_file,
            *_inherits(self.config_file),
            *configs,
            *(git for git in gits if git.exists()),
            Path(__file__).parent,
            TEMPLATES_DIR,
            *more,
        ]

    @property
    def deck(self) -> str:
        """The flashcard decks' parent name: the ``title`` option, else the site name."""
        return self.options.title or self.site_name or "konum"


def published_banks(settings: SiteConfig) -> list[tuple[Path, str]]:
    """Each bank or translation folder inside ``docs_dir`` with files its ``exclude_docs``
    does not leave out (MkDocs copies them into the site as they are, answers and all), and
    the ``exclude_docs`` line that would: ``(docs/banks, "banks/")``."""
    found = []
    for folder in (settings.options.banks, settings.options.translations):
        if folder is None or not folder.is_relative_to(settings.docs_dir):
            continue
        if not all(excluded(settings, file) for file in folder.rglob("*.y*ml")):
            found.append((folder, f"{folder.relative_to(settings.docs_dir).as_posix()}/"))
    return found


def excluded(settings: SiteConfig, file: Path) -> bool:
    """Whether the site's ``exclude_docs`` leaves ``file`` (inside ``docs_dir``) out."""
    spec = settings.mkdocs["exclude_docs"]
    return spec is not None and bool(
        spec.match_file(file.relative_to(settings.docs_dir).as_posix())
    )


@contextlib.contextmanager
def quiet_mkdocs() -> Iterator[None]:
    logger = logging.getLogger("mkdocs")
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        yield
    finally:
        logger.setLevel(level)


def load_mkdocs_config(path: Path, **overrides: Any) -> Any:
    """MkDocs' configuration at ``path``, with ``overrides``; a ConfigError if it is wrong."""
    from mkdocs.config import load_config
    from mkdocs.exceptions import ConfigurationError

    if not path.is_file():
        raise ConfigError(
            f"no MkDocs configuration at {path} (run konum where mkdocs.yml is, or give -f)"
        )
    _check_inherit_chain(path)
    try:
        with quiet_mkdocs():
            return load_config(str(path), **overrides)
    except ConfigurationError as exc:
        raise ConfigError(f"{path}: {exc}") from None
    except (AttributeError, TypeError, ValueError, KeyError, RecursionError, OSError) as exc:
        raise ConfigError(f"{path}: MkDocs cannot read it: {type(exc).__name__}: {exc}") from None


def _describe(value: object) -> str:
    if isinstance(value, list):
        return "a list"
    if value is None:
        return "nothing"
    return f"{type(value).__name__} {str(value)[:40]!r}"


def _config_loader() -> Any:
    """YAML's safe loader that reads MkDocs' tags without constructing anything: ``!ENV``
    as MkDocs reads it (the environment's value, else the default), and every other tag
    (``!relative``, ``!!python/name:...``, ``!!python/object/apply:...``) as the plain
    text, list or mapping written after it. konum's own reads of configurations use it;
    only MkDocs' loader, on the files the site names, builds Python objects."""
    import yaml
    from mkdocs.utils.yaml import get_yaml_loader

    loader: Any = get_yaml_loader(yaml.SafeLoader)

    def plain(loader: Any, suffix: str, node: Any) -> object:
        if isinstance(node, yaml.ScalarNode):
            return loader.construct_scalar(node)
        if isinstance(node, yaml.SequenceNode):
            return loader.construct_sequence(node, deep=True)
        return loader.construct_mapping(node, deep=True)

    for prefix in ("!", "tag:yaml.org,2002:python/"):
        loader.add_multi_constructor(prefix, plain)
    return loader


def _config_text(path: Path) -> str:
    """The text of the configuration ``path``, read as bank files are read: a regular file
    of at most ``limits.YAML_BYTES``, UTF-8, nested at most ``limits.YAML_DEPTH`` deep.

    Raises:
        ConfigError: one of those refused, in one line naming the file.
    """
    from konum import yamlsource
    from konum.files import input_problem

    # The site names its configurations: a link may lead anywhere the site chose.
    refused = input_problem(path, Path(path.anchor), "configuration", limits.YAML_BYTES)
    if refused is not None:
        raise ConfigError(f"{path}: {refused}")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read the file: {exc.strerror or exc}") from None
    text, problems = yamlsource.decode(data, str(path))
    if text is not None and "\0" in text:
        raise ConfigError(
            f"{path}: file is not UTF-8 text: it holds NUL characters (was it saved as "
            "UTF-16?); save it again with the UTF-8 encoding"
        )
    problem = problems[0] if text is None else yamlsource.check_depth(text, str(path))
    if problem is not None or text is None:
        raise ConfigError(str(problem))
    return text


def raw_config(path: Path) -> object:
    """The YAML of ``path`` itself (``INHERIT`` not followed), read by :func:`_config_text`
    with :func:`_config_loader`: nothing in it runs.

    Raises:
        ConfigError: what :func:`_config_text` refuses, or a YAML syntax error in one line
            with the file, its line and column and the hint banks get ("put it in quotes").
    """
    import yaml

    from konum import yamlsource

    text = _config_text(path)
    try:
        return yaml.load(text, Loader=_config_loader())
    except yaml.YAMLError as exc:
        raise ConfigError(str(yamlsource.syntax_problem(exc, _name(path)))) from None


def _name(path: Path) -> str:
    """``path`` as a reader in the working folder names it."""
    return str(shown(path, Path.cwd().resolve()))


def locate_option(config_file: Path, name: str) -> tuple[Path, int] | None:
    """Where konum's option ``name`` is written: the first file of ``config_file``'s
    ``INHERIT`` chain (itself first) whose konum options hold it, and the line; else where
    the first konum options begin; None when there are none or a file cannot be read."""
    import yaml

    found = None
    current: Path | None = config_file.resolve()
    for _ in range(limits.YAML_DEPTH):  # a loop of INHERITs is refused elsewhere
        if current is None:
            break
        try:
            root = yaml.compose(_config_text(current), Loader=_config_loader())
        except (ConfigError, yaml.YAMLError):
            break
        top = {key.value: value for key, value in _pairs(root)}
        for key, options in _konum_options(top.get("markdown_extensions")):
            found = found or (current, key.start_mark.line + 1)
            for option, _ in _pairs(options):
                if option.value == name:
                    return current, option.start_mark.line + 1
        inherit = top.get("INHERIT")
        folder, current = current.parent, None
        if isinstance(inherit, yaml.ScalarNode):
            current = (folder / inherit.value).resolve()
    return found


def _pairs(node: Any) -> Iterator[tuple[Any, Any]]:
    """A YAML mapping node's ``(key node, value node)`` pairs, text keys only."""
    import yaml

    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            if isinstance(key, yaml.ScalarNode):
                yield key, value


def _konum_options(extensions: Any) -> Iterator[tuple[Any, Any]]:
    """konum's entries in a ``markdown_extensions`` node, as a mapping or a list."""
    import yaml

    items = extensions.value if isinstance(extensions, yaml.SequenceNode) else [extensions]
    for item in items:
        for key, value in _pairs(item):
            if key.value in EXTENSIONS:
                yield key, value


def refusal(given: Mapping[str, Any]) -> str | None:
    """What an extension says of its options ``given`` when one of them is an option konum
    does not have (:func:`option_line`); None when all are known. MkDocs makes the
    extensions while it checks its configuration and prints a failure there with a
    traceback, so the extensions say this when they convert a page instead."""
    try:
        check_names(given)
    except OptionError as exc:
        return option_line(exc, given)
    return None


def option_line(error: OptionError, given: Mapping[str, Any]) -> str:
    """``error`` of an extension's options ``given``, headed by where the ``mkdocs.yml`` in
    the ``root`` option's folder (else the working one) writes the option."""
    return located(error, Path(str(given.get("root") or ".")) / "mkdocs.yml")


def located(error: OptionError, config_file: Path) -> str:
    """``error`` headed by the file and line of ``config_file``'s chain where its option is
    written (``mkdocs.yml:19: ...``), as a bank's problems are headed."""
    place = locate_option(config_file, error.name) if config_file.is_file() else None
    return f"{_name(place[0])}:{place[1]}: {error}" if place else str(error)


def _check_inherit_chain(path: Path) -> None:
    """Refuse, naming the file, a configuration (or one it ``INHERIT``s) that is not a
    mapping, an ``INHERIT`` of a missing file, a loop of ``INHERIT``s, and what
    :func:`raw_config` refuses."""
    seen: list[Path] = []
    current: Path | None = path.resolve()
    while current is not None:
        if current in seen:
            loop = " -> ".join(p.name for p in [*seen[seen.index(current) :], current])
            raise ConfigError(f"{path}: INHERIT goes round in a loop ({loop})")
        seen.append(current)
        if not current.is_file():
            parent = seen[-2] if len(seen) > 1 else path
            raise ConfigError(f"{parent}: INHERIT names {current}, which does not exist")
        raw = raw_config(current)
        if not isinstance(raw, dict):
            raise ConfigError(
                f"{current}: a MkDocs configuration is a mapping of settings (site_name: ..., "
                f"docs_dir: ...), not {_describe(raw)}"
            )
        inherit = raw.get("INHERIT")
        current = (current.parent / inherit).resolve() if isinstance(inherit, str) else None


def read_site_config(config_file: str | Path = "mkdocs.yml") -> SiteConfig:
    """Read ``mkdocs.yml`` with MkDocs' own loader (so its validation applies) and check the
    ``konum`` extension's options.

    Raises:
        ConfigError: no such file, MkDocs rejects it, it does not use the ``konum``
            extension, or an option is wrong.
    """
    path = Path(config_file).resolve()
    if path.is_file():
        _check_inherit_chain(path)
    _check_options_early(path)
    config = load_mkdocs_config(path)
    name = next((n for n in EXTENSIONS if n in config["markdown_extensions"]), None)
    if name is None:
        raise ConfigError(
            f"{path}: markdown_extensions does not list konum "
            "(add '- konum:' with 'banks: FOLDER' under it)"
        )
    options = options_from(config["mdx_configs"].get(name, {}), root=path.parent)
    # The pages folder the extension gets in a build (konum.driver.extension_configs).
    options = replace(options, pages=Path(config["docs_dir"]).resolve())
    theme_dir = config["theme"].custom_dir
    folders = (config["docs_dir"], options.banks, options.translations, theme_dir)
    sources = tuple(Path(p).resolve() for p in folders if p)
    return SiteConfig(
        config_file=path,
        site_dir=Path(config["site_dir"]),
        docs_dir=Path(config["docs_dir"]).resolve(),
        site_name=str(config["site_name"] or ""),
        options=options,
        sources=sources,
        extension=name,
        site_url=str(config["site_url"] or ""),
        mkdocs=config,
    )


def _raw_config(path: Path) -> dict[str, Any]:
    """The top-level keys ``path`` itself writes (``INHERIT`` not followed); ``{}`` for a file
    that is not a YAML mapping."""
    try:
        raw = raw_config(path)
    except ConfigError:
        return {}
    return raw if isinstance(raw, dict) else {}


def _merged_config(path: Path, depth: int = 0) -> dict[str, Any]:
    """``path``'s keys merged onto those of the files it ``INHERIT``s, as MkDocs merges
    them (mappings merged, lists replaced), read with :func:`_config_loader`."""
    import mergedeep

    raw = dict(_raw_config(path))
    inherit = raw.pop("INHERIT", None)
    if not isinstance(inherit, str) or depth > 20:  # a loop is refused before this is read
        return raw
    parent = _merged_config((path.parent / inherit).resolve(), depth + 1)
    return dict(mergedeep.merge(parent, raw))


def _inherits(path: Path) -> list[Path]:
    """The file ``path``'s ``INHERIT`` names, resolved (``[]`` for none)."""
    inherit = _raw_config(path).get("INHERIT")
    return [(path.parent / inherit).resolve()] if isinstance(inherit, str) else []


def find_editions(settings: SiteConfig) -> list[tuple[str, SiteConfig]]:
    """The site's other editions: ``(folder, settings)`` for every configuration the
    ``editions`` option names (the config itself aside), each of which publishes inside
    the config's ``site_dir``; ``folder`` is that place, relative (``"tr"``). Sorted by
    folder. No other file beside the config is read: one the site does not name is no
    edition, whatever it ``INHERIT``s.

    Raises:
        ConfigError: an edition does not exist, publishes outside the site, or its
            configuration or options are wrong.
    """
    site = settings.site_dir.resolve()
    project = settings.config_file.parent
    found = []
    for path in settings.options.editions:
        if path == settings.config_file:
            continue
        name = shown(path, project)
        if not path.is_file():
            raise ConfigError(
                f"{settings.config_file}: option 'editions' of konum names {name}, "
                "which is not a file"
            )
        edition = read_site_config(path)
        place = edition.site_dir.resolve()
        if site not in place.parents:
            raise ConfigError(
                f"{path}: an edition publishes inside the site's folder ({shown(site, project)}/"
                f"tr, say), not into {shown(place, project)}; give it that site_dir, or take "
                f"it out of the editions option"
            )
        found.append((place.relative_to(site).as_posix(), edition))
    return sorted(found, key=lambda item: item[0])


def edition_pages(editions: Sequence[Path]) -> tuple[Path, ...]:
    """The pages folders (``docs_dir``, absolute) of the configurations ``editions`` (the
    ``editions`` option's), which the main edition's page reader skips
    (:func:`konum.blocks.question_pages`). Each is read with the safe loader, ``INHERIT``
    followed, MkDocs' default ``docs`` where none is written; a file that cannot be read
    gives none (:func:`find_editions` says why)."""
    found = []
    for path in editions:
        docs = _merged_config(path).get("docs_dir", "docs") if path.is_file() else None
        if isinstance(docs, str) and "\0" not in docs:
            found.append((path.parent / docs).resolve())
    return tuple(found)


def _check_options_early(path: Path) -> None:
    """Check the extension's options before MkDocs does: MkDocs reports an extension that
    fails to load with lines of its traceback; this says only what is wrong, at the file
    and line where the option is written (:func:`located`)."""
    if not path.is_file():
        return  # load_mkdocs_config says so
    raw = _merged_config(path)  # a broken file: MkDocs' own loader reports it next
    extensions = raw.get("markdown_extensions") or []
    if isinstance(extensions, dict):  # the mapping form, which INHERIT merges
        extensions = [extensions]
    if not isinstance(extensions, list):
        return
    for item in extensions:
        for name in EXTENSIONS:
            if isinstance(item, dict) and name in item:
                try:
                    options_from(item[name] or {}, root=path.parent)
                except OptionError as exc:
                    raise ConfigError(located(exc, path)) from None


def file_problems(settings: SiteConfig) -> list[BankProblem]:
    """Each page, static file or folder under ``docs_dir`` that no build may read or
    publish (:func:`konum.files.tree_problems`): a link leading outside the project (the
    config's folder, or ``docs_dir`` when that lies elsewhere), a pipe or a device."""
    from konum.files import tree_problems

    project = settings.config_file.parent
    docs = settings.docs_dir
    root = project if docs.is_relative_to(project) else docs
    return [
        BankProblem(str(shown(path, project)), None, None, problem)
        for path, problem in tree_problems(docs, root, "site")
    ]
