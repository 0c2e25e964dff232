"""``konum build``: validate, build into a staging folder beside ``site/``, then swap.

The steps, in one process: check every bank (all problems reported at once), run a strict
MkDocs build into ``.site-tmp-<random>`` (the ``konum`` Markdown extension renders each quiz
in its page, as under ``mkdocs build``, ``mkdocs serve`` and Zensical), write the flashcard
downloads into it, then swap it into place. The published folder is never written in place,
so a build that fails or is killed (SIGINT, SIGTERM or SIGKILL, at any moment) leaves the old
site as it was; a lock file serialises concurrent builds.

The swap is two renames (the old site aside, the new one in); a build killed between them
leaves the old site in ``.site-old-*``, and the next build puts it back before anything else.

A site may have **editions** (a translation): every configuration in the config's folder
that inherits it, or the base it inherits, and publishes inside its ``site_dir``
(``mkdocs.tr.yml``: ``INHERIT: mkdocs.base.yml``, ``site_dir: site/tr``). The editions are
built into the same staging folder, each at its place (``site/tr`` is staged as
``.site-tmp-*/tr``), each with its own downloads,
so one swap publishes them all: a failure or a kill in any edition leaves every edition as it
was. Each edition builds alone as well (``mkdocs build -f mkdocs.tr.yml``); under ``konum
build`` its ``site_url`` is the main one's with its folder appended, as it is served there.

konum refuses to publish where it could destroy something it did not make: a folder that is,
holds, or lies inside the project's sources (the config's folder, the docs, the banks, a theme
folder), a git work tree, or a non-empty folder without konum's marker file from an earlier
build.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import re
import shutil
import signal
import sys
import tempfile
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any

from konum.config import Options, options_from, override
from konum.errors import BuildError, ConfigError, PageError
from konum.paths import shown
from konum.problems import BankProblem

if TYPE_CHECKING:
    from konum.course import Course

#: The names in ``markdown_extensions`` under which konum's options are written: the whole of
#: konum, or its quiz part alone (whose options the commands read).
EXTENSIONS = ("konum", "konum.quiz")
#: The file that marks a folder as a site konum built (and may replace).
MARKER = ".konum-site"


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
        import konum
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
            Path(konum.__file__).parent,
            TEMPLATES_DIR,
            *more,
        ]

    @property
    def deck(self) -> str:
        """The flashcard decks' parent name: the ``title`` option, else the site name."""
        return self.options.title or self.site_name or "konum"


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
def _quiet_mkdocs() -> Iterator[None]:
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
        with _quiet_mkdocs():
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


def _check_inherit_chain(path: Path) -> None:
    """Refuse, naming the file, a configuration (or one it ``INHERIT``s) that is not a
    mapping, an ``INHERIT`` of a missing file, and a loop of ``INHERIT``s."""
    import yaml
    from mkdocs.utils.yaml import get_yaml_loader

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
        try:
            with open(current, encoding="utf-8") as handle:
                raw = yaml.load(handle, Loader=get_yaml_loader())
        except (OSError, UnicodeDecodeError, yaml.YAMLError):
            return  # MkDocs' own loader reports the file and its line next
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
    # The options the extension gets in the build (see _extension_configs), so that the
    # course loaded before the build is the one the build's pages find in the cache.
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
    import yaml
    from mkdocs.utils.yaml import get_yaml_loader

    try:
        with open(path, encoding="utf-8") as handle:
            raw = yaml.load(handle, Loader=get_yaml_loader())
    except (OSError, yaml.YAMLError):
        return {}
    return raw if isinstance(raw, dict) else {}


def _inherits(path: Path) -> list[Path]:
    """The file ``path``'s ``INHERIT`` names, resolved (``[]`` for none)."""
    inherit = _raw_config(path).get("INHERIT")
    return [(path.parent / inherit).resolve()] if isinstance(inherit, str) else []


def find_editions(settings: SiteConfig) -> list[tuple[str, SiteConfig]]:
    """The site's other editions: ``(folder, settings)`` for every ``*.yml`` or ``*.yaml``
    beside the config (dot files aside) whose ``INHERIT`` names the config, or the file the
    config itself inherits (the editions' shared base), and whose ``site_dir`` lies inside
    the config's; ``folder`` is that place, relative (``"tr"``).
    Sorted by folder. A configuration that inherits the site's but publishes elsewhere (a
    preview variant, say) is not an edition.

    Raises:
        ConfigError: an edition's configuration or options are wrong.
    """
    project = settings.config_file.parent
    site = settings.site_dir.resolve()
    parents = {settings.config_file, *_inherits(settings.config_file)}
    found = []
    for path in sorted([*project.glob("*.yml"), *project.glob("*.yaml")]):
        if path.name.startswith(".") or path.resolve() in parents:
            continue
        if not parents & set(_inherits(path)):
            continue
        edition = read_site_config(path)
        place = edition.site_dir.resolve()
        if site in place.parents:
            found.append((place.relative_to(site).as_posix(), edition))
    return sorted(found, key=lambda item: item[0])


def _check_options_early(path: Path) -> None:
    """Check the extension's options before MkDocs does: MkDocs reports an extension that
    fails to load with lines of its traceback; this says only what is wrong."""
    from mkdocs.utils.yaml import yaml_load

    if not path.is_file():
        return  # load_mkdocs_config says so
    try:
        with open(path, encoding="utf-8") as handle:
            raw = yaml_load(handle)
    except Exception:  # MkDocs' own loader reports a broken file next
        return
    extensions = (raw or {}).get("markdown_extensions") or []
    if isinstance(extensions, dict):  # the mapping form, which INHERIT merges
        extensions = [extensions]
    for item in extensions:
        for name in EXTENSIONS:
            if isinstance(item, dict) and name in item:
                options_from(item[name] or {}, root=path.parent)


# --- where a build may publish -----------------------------------------------------------------


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def check_target(target: Path, settings: SiteConfig) -> None:
    """Refuse (``BuildError``, nothing touched) a target a build could destroy.

    A target may not be, hold or lie inside a source folder, nor be or hold the config's
    folder; an existing one must be a folder that is empty, carries :data:`MARKER` or holds
    only what a MkDocs or Zensical build writes (the order the docs' own steps lead to), and
    not a git work tree.
    """
    project = settings.config_file.parent
    for source in settings.sources:
        if _inside(target, source) or _inside(source, target):
            raise BuildError(
                f"refusing to publish into {target}: it is, holds or lies inside {source}, "
                "which the site is built from; choose another folder"
            )
    if _inside(project, target):
        raise BuildError(
            f"refusing to publish into {target}: it holds the project folder {project}; "
            "choose a folder of its own, such as site/"
        )
    if target.is_symlink() or (target.exists() and not target.is_dir()):
        raise BuildError(f"refusing to publish into {target}: it is not a folder")
    if not target.is_dir():
        return
    entries = os.listdir(target)
    if (target / ".git").exists():
        raise BuildError(f"refusing to publish into {target}: it is a git work tree")
    if entries and MARKER not in entries and not _built_by_mkdocs(target):
        raise BuildError(
            f"refusing to publish into {target}: it is not empty and was not made by konum "
            f"build (no {MARKER} file in it); if it is a site built before, delete it once, "
            "or choose another folder"
        )


#: What a MkDocs or Zensical build writes (pages, feeds, assets, fonts, media, konum's
#: downloads); a folder holding anything else is not only build output.
_OUTPUT_SUFFIXES = frozenset({
    ".html", ".xml", ".gz", ".json", ".js", ".mjs", ".css", ".map", ".txt",
    ".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".avif", ".ico",
    ".woff", ".woff2", ".ttf", ".otf", ".eot", ".wasm",
    ".apkg", ".csv", ".pdf", ".mp4", ".webm", ".mp3", ".ogg",
})  # fmt: skip


def _built_by_mkdocs(target: Path) -> bool:
    """Whether ``target`` holds only what a MkDocs or Zensical build writes: its
    ``index.html`` and ``sitemap.xml`` at the top, and no file of another kind (no Markdown,
    YAML or code: nothing a person wrote)."""
    if not ((target / "index.html").is_file() and (target / "sitemap.xml").is_file()):
        return False
    for folder, folders, files in os.walk(target):
        if any(f.startswith(".") for f in (*folders, *files)):
            return False  # .git, .DS_Store, an editor's files: someone works here
        for name in files:
            path = Path(folder, name)
            if path.is_symlink() or path.suffix.lower() not in _OUTPUT_SUFFIXES:
                return False
    return True


# --- the lock, leftovers and the swap ----------------------------------------------------------


def _staging_prefixes(target: Path) -> tuple[str, str]:
    """Names of a target's temporary folders: ``.site-tmp-*`` and ``.site-old-*`` for ``site``."""
    return f".{target.name}-tmp-", f".{target.name}-old-"


@contextlib.contextmanager
def build_lock(target: Path) -> Iterator[None]:
    """Hold an exclusive lock for publishing ``target`` (``.site-lock`` beside ``site``),
    waiting while another build holds it. Builds of other folders are not held up."""
    target.parent.mkdir(parents=True, exist_ok=True)
    with open(target.parent / f".{target.name}-lock", "a+") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            print("konum: another build is writing the site; waiting for it", file=sys.stderr)
            fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def recover(target: Path) -> list[Path]:
    """With the lock held: put back an old site a killed swap left aside, then delete what
    killed builds of ``target`` left behind (files or folders). Returns what was removed."""
    staging, old = _staging_prefixes(target)
    asides = sorted(p for p in target.parent.glob(old + "*") if (p / "site").is_dir())
    if asides and not target.exists():
        os.rename(asides[-1] / "site", target)
    removed = []
    for child in target.parent.iterdir():
        if child.name.startswith((staging, old)):
            if child.is_dir() and not child.is_symlink():
                shutil.rmtree(child, ignore_errors=True)
            else:
                child.unlink(missing_ok=True)
            removed.append(child)
    return removed


def swap_into_place(new: Path, site: Path) -> None:
    """Make ``new`` the folder at ``site``; the old content is deleted afterwards."""
    if not site.exists():
        os.rename(new, site)
        return
    aside = Path(tempfile.mkdtemp(prefix=_staging_prefixes(site)[1], dir=site.parent))
    os.rename(site, aside / "site")
    os.rename(new, site)
    shutil.rmtree(aside)


# --- signals -----------------------------------------------------------------------------------


@contextlib.contextmanager
def _interrupts_remembered() -> Iterator[list[int]]:
    """SIGINT and SIGTERM raise KeyboardInterrupt, and are remembered: Python drops an
    exception raised while a finaliser runs with only a warning, so an interrupted build
    could otherwise go on to publish. Yields the signals seen. Only default handlers are
    replaced, and only in the main thread."""
    seen: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield seen
        return

    def handler(signum: int, frame: FrameType | None) -> None:
        seen.append(signum)
        raise KeyboardInterrupt

    previous = {}
    for signum, default in (
        (signal.SIGINT, signal.default_int_handler),
        (signal.SIGTERM, signal.SIG_DFL),
    ):
        if signal.getsignal(signum) is default:
            previous[signum] = signal.signal(signum, handler)
    try:
        yield seen
    finally:
        for signum, handler_before in previous.items():
            signal.signal(signum, handler_before)


# --- the build ---------------------------------------------------------------------------------


def _mkdocs_build(
    settings: SiteConfig, site_dir: Path, options: Options, site_url: str | None = None
) -> int:
    """Build with MkDocs in strict mode into ``site_dir`` with the extension's ``options``
    (the command line's seed and variants) and, when given, ``site_url``; its warnings go to
    stderr. Returns the page count, the pages of editions inside ``site_dir`` aside."""
    from mkdocs.commands.build import build
    from mkdocs.exceptions import Abort, MkDocsException

    handler = logging.StreamHandler(sys.stderr)
    handler.setLevel(logging.WARNING)
    handler.setFormatter(logging.Formatter("%(levelname)s - %(message)s"))
    handler.addFilter(PageLine(settings))
    logger = logging.getLogger("mkdocs")
    logger.addHandler(handler)
    try:
        config = settings.mkdocs
        config["site_dir"], config["strict"] = str(site_dir), True
        if site_url is not None:
            config["site_url"] = site_url
        config["mdx_configs"] = _extension_configs(config, options)
        build(config)
    except Abort as exc:
        # MkDocs has logged the error (a page's at its line); its own words add nothing.
        at = "at the error above" if "BuildError" in str(exc) else f"({exc})"
        raise BuildError(f"the site build stopped {at}; the published site is as it was") from None
    except MkDocsException as exc:
        raise BuildError(f"the site build failed: {exc}") from None
    except RecursionError:
        # Markdown's parsers recurse into nested lists and quotes; MkDocs has logged the page.
        raise BuildError(
            "the site build failed: a page nests lists, quotes or blocks too deeply for "
            "Markdown (see the page named above)"
        ) from None
    except (ValueError, KeyError, TypeError) as exc:
        # Content errors raised inside Markdown extensions (a bad {{ }} expression, LaTeX
        # that cannot be rendered); MkDocs has already logged which page it was reading.
        raise BuildError(f"the site build failed: {type(exc).__name__}: {exc}") from None
    finally:
        logger.removeHandler(handler)
    return sum(1 for _ in site_dir.rglob("*.html"))


_READING = re.compile(r"Error reading page '(.+)':")
_AT_LINE = re.compile(r"(^|, )line (\d+): ")


class PageLine(logging.Filter):
    """MkDocs logs a page's konum error as two lines, ``Error reading page 'a.md':`` and
    ``line 3: ...``: one instead, ``docs/a.md:3: ...``, as ``konum check`` writes it (the
    docs folder relative to ``mkdocs.yml`` when inside its folder)."""

    def __init__(self, settings: SiteConfig) -> None:
        super().__init__()
        self.docs = shown(settings.docs_dir, settings.config_file.parent).as_posix()
        self.page = ""

    def filter(self, record: logging.LogRecord) -> bool:
        text = record.getMessage()
        if reading := _READING.fullmatch(text):
            self.page = reading.group(1)
            return False  # said with the next record
        if self.page:
            page = f"{self.docs}/{self.page}"
            first, *more = text.splitlines() or [""]
            # One line a problem of the page ("line 3: X"); other lines continue the first.
            said = [self._at(page, first)]
            said += [self._at(page, line) if _LINE.match(line) else line for line in more]
            record.msg, record.args, self.page = "\n".join(said), (), ""
        return True

    @staticmethod
    def _at(page: str, text: str) -> str:
        where, line = page, _AT_LINE.search(text)
        if line:  # "line 3: X" or "in a {{ }} expression, line 3: X"
            where += f":{line.group(2)}"
            text = text[: line.start()] + (": " if line.group(1) else "") + text[line.end() :]
        return f"{where}: {text}"


def _extension_configs(config: Any, options: Options) -> dict[str, Any]:
    """MkDocs' ``mdx_configs`` with konum's extensions given the command's seed and variants
    and the project folder their paths start from."""
    configs = dict(config["mdx_configs"])
    for name in ("konum", "konum.quiz", "konum.values"):
        if name in config["markdown_extensions"]:
            configs[name] = {
                **configs.get(name, {}),
                "seed": options.seed,
                "variants": options.variants,
                "root": str(options.root),
                "pages": str(config["docs_dir"]),
            }
    return configs


_LINE = re.compile(r"^line (\d+): ")


def check_pages(settings: SiteConfig) -> list[BankProblem]:
    """Every page of the site's ``docs_dir`` (its ``exclude_docs`` aside) converted as the
    build converts it, with the site's Markdown extensions, and nothing written: a quiz,
    explorer or values block that the build would refuse (an unknown bank, a draw larger
    than its pool, a wrong option, a block not closed) as a problem at the page's line."""
    import markdown

    config = settings.mkdocs
    configs = _extension_configs(config, settings.options)
    problems = []
    for page in sorted(settings.docs_dir.rglob("*.md")):
        if excluded(settings, page):
            continue
        converter = markdown.Markdown(
            extensions=config["markdown_extensions"], extension_configs=configs
        )
        try:
            with _quiet_mkdocs():
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

    Raises:
        konum.problems.BankError: a bank has problems (nothing was built).
        ConfigError: a configuration or an option is wrong (nothing was built).
        BuildError: the target is refused, or MkDocs or an export failed (the published
            folder is untouched).
    """
    from konum.course import course_for

    settings = read_site_config(config_file)
    editions = [("", settings), *find_editions(settings)]
    options = [override(s.options, seed=seed, variants=variants) for _, s in editions]
    target = Path(site_dir) if site_dir is not None else settings.site_dir
    target = Path(os.path.abspath(target))
    target = target.parent.resolve() / target.name  # a link itself is refused, not followed
    for _, edition in editions:
        check_target(target, edition)
    courses = [course_for(o) for o in options]  # every bank problem at once, before writing
    urls = [None, *(_edition_url(settings, folder) for folder, _ in editions[1:])]

    with _interrupts_remembered() as interrupted, build_lock(target):
        recover(target)
        for _, edition in editions:
            check_target(target, edition)  # again, now that no other build can change it
        staging = Path(tempfile.mkdtemp(prefix=_staging_prefixes(target)[0], dir=target.parent))
        try:
            pages = 0
            # The main edition first: MkDocs empties its site_dir, the editions' folders too.
            for (folder, edition), opts, course, url in zip(
                editions, options, courses, urls, strict=True
            ):
                place = staging / folder if folder else staging
                pages += _mkdocs_build(edition, place, opts, url)
                if downloads:
                    _write_downloads(edition, course, place)
                # In each edition's folder too: `konum build -f mkdocs.tr.yml` may replace it.
                (place / MARKER).write_text(
                    "Made by konum build; konum replaces this folder on the next build.\n",
                    encoding="utf-8",
                )
            if interrupted:  # and the KeyboardInterrupt was lost on the way
                raise KeyboardInterrupt
            swap_into_place(staging, target)
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
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


def _write_downloads(settings: SiteConfig, course: Course, place: Path) -> None:
    """The flashcard exports of one edition, in its own deck name and docs, into
    ``place/downloads``: every question but those only its exams show (unless
    ``exam_cards``), as on its study page."""
    from konum.exports import write_downloads
    from konum.quiz import exam_only
    from konum.study import card_banks

    options = settings.options
    hidden = frozenset() if options.exam_cards else exam_only(course, settings.docs_dir)
    write_downloads(
        card_banks(course, hidden),
        course.concretes(),
        place / "downloads",
        deck=settings.deck,
        language=course.language,
        plugins=course.plugins,
        images=course.images,
    )
