"""Driving MkDocs: a strict build of one edition with konum's options (:func:`mkdocs_build`),
a live preview that builds the same way (:func:`serve`), and MkDocs' log made konum's (a
page's error on one line at the page and its line, as ``konum check`` says it)."""

from __future__ import annotations

import html
import logging
import re
import shutil
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from konum.config import Options, override
from konum.errors import BuildError, KonumError
from konum.paths import shown
from konum.problems import BankError, format_text
from konum.siteconfig import SiteConfig, read_site_config

if TYPE_CHECKING:
    from konum.course import Course, Kept


def mkdocs_build(
    settings: SiteConfig,
    site_dir: Path,
    options: Options,
    site_url: str | None = None,
    course: Course | None = None,
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
        config["mdx_configs"] = extension_configs(config, options, course)
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
_LINE = re.compile(r"^line (\d+): ")


class PageLine(logging.Filter):
    """MkDocs logs a page's konum error as two lines, ``Error reading page 'a.md':`` and
    ``line 3: ...``: one instead, ``docs/a.md:3: ...``, as ``konum check`` writes it (the
    docs folder relative to ``mkdocs.yml`` when inside its folder)."""

    def __init__(self, settings: SiteConfig) -> None:
        super().__init__()
        self.docs = shown(settings.docs_dir, settings.config_file.parent).as_posix()
        self.page = ""
        self.said = ""  # the last error, as said: what a preview shows in its pages

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
        if record.levelno >= logging.ERROR:
            self.said = record.getMessage()
        return True

    @staticmethod
    def _at(page: str, text: str) -> str:
        where, line = page, _AT_LINE.search(text)
        if line:  # "line 3: X" or "in a {{ }} expression, line 3: X"
            where += f":{line.group(2)}"
            text = text[: line.start()] + (": " if line.group(1) else "") + text[line.end() :]
        return f"{where}: {text}"


def extension_configs(
    config: Any, options: Options, course: Course | None = None
) -> dict[str, Any]:
    """MkDocs' ``mdx_configs`` with konum's extensions given the command's seed and variants,
    the project folder their paths start from and, when given, the loaded ``course`` (the
    one the command checked, so that its pages draw from it and load nothing again)."""
    configs = dict(config["mdx_configs"])
    handed = {} if course is None else {"course": course}
    for name in ("konum", "konum.quiz", "konum.values"):
        if name in config["markdown_extensions"]:
            configs[name] = {
                **configs.get(name, {}),
                "seed": options.seed,
                "variants": options.variants,
                "root": str(options.root),
                "pages": str(config["docs_dir"]),
                **handed,
            }
    return configs


def serve_config(
    config_file: Path, site_dir: Path, seed: int | None, kept: Kept | None = None
) -> Any:
    """MkDocs' configuration of ``config_file`` for one preview build into ``site_dir``,
    konum's extensions given the seed (``None``: the configured one) as a build gives it
    and, with ``kept``, the course loaded from it (only what changed since its last load
    is checked and drawn again).

    Raises:
        ConfigError: the configuration or an option is wrong.
        konum.problems.BankError: with ``kept``, a bank has problems.
    """
    from konum.course import load_course

    settings = read_site_config(config_file)
    config = settings.mkdocs
    config["site_dir"] = str(site_dir)
    options = override(settings.options, seed=seed)
    course = load_course(options, kept=kept) if kept is not None else None
    config["mdx_configs"] = extension_configs(config, options, course)
    return config


def serve(
    config_file: Path, page_line: PageLine, *, seed: int | None, dev_addr: str, watch: list[str]
) -> None:
    """Preview one edition with live reload, as ``mkdocs serve`` does (MkDocs' server, its
    watching and its plugins' events, and the folders in ``watch``), with the configuration
    read afresh and konum's options given the command's ``seed`` on every build. A build
    that fails (a bank, a page, the configuration) is said once (``page_line`` keeps what
    MkDocs logged) and each page the browser may be on shows it, until a save fixes it and
    the browser reloads: the server never waits for a build that did not come.

    Raises:
        ConfigError: the configuration is wrong before the first build.
    """
    from mkdocs.commands.build import build
    from mkdocs.config.config_options import IpAddress
    from mkdocs.exceptions import Abort, MkDocsException
    from mkdocs.livereload import LiveReloadServer

    from konum.course import Kept

    site_dir = Path(tempfile.mkdtemp(prefix="konum-serve-"))
    kept = Kept()  # what each build loaded, checked and drew, for the next one to reuse
    try:
        config = serve_config(config_file, site_dir, seed, kept)
    except BankError:  # the first build says what is wrong, in the pages
        config = serve_config(config_file, site_dir, seed)
    config["dev_addr"] = IpAddress().validate(dev_addr)  # type: ignore[no-untyped-call]
    host, port = config["dev_addr"]
    mount = urlsplit(config["site_url"] or "/").path
    url = f"http://{f'[{host}]' if ':' in host else host}:{port}{mount}"
    pages = ["index.html", "404.html"]  # the pages of the last good build
    log = logging.getLogger("mkdocs.konum")

    def builder(config: Any = None) -> None:
        page_line.said = ""
        try:
            if config is None:
                config = serve_config(config_file, site_dir, seed, kept)
            config["site_url"] = url
            build(config, serve_url=url)
        except BankError as exc:
            said = format_text(exc.problems, files=len(exc.files))
            log.error(said)
        except (KonumError, Abort, MkDocsException, RecursionError, ValueError) as exc:
            if not isinstance(exc, Abort):  # MkDocs has logged a page's error, at its line
                log.error(f"konum: {exc}")
            said = page_line.said or str(exc)
        else:
            pages[:] = sorted(
                {p.relative_to(site_dir).as_posix() for p in site_dir.rglob("*.html")}
            )
            return
        for page in pages:
            (site_dir / page).parent.mkdir(parents=True, exist_ok=True)
            (site_dir / page).write_text(_error_page(said), encoding="utf-8")

    server = LiveReloadServer(
        builder=builder, host=host, port=port, root=str(site_dir), mount_path=mount
    )
    server.error_handler = lambda code: (
        (site_dir / "404.html").read_bytes() if (site_dir / "404.html").is_file() else None
    )
    config.plugins.on_startup(command="serve", dirty=False)
    try:
        builder(config)
        server.watch(config["docs_dir"])
        server.watch(config.config_file_path)
        server = config.plugins.on_serve(server, config=config, builder=builder)
        for item in [*config["watch"], *watch]:
            server.watch(item)
        try:
            server.serve()
        except KeyboardInterrupt:
            log.info("Shutting down...")
        finally:
            server.shutdown()
    finally:
        config.plugins.on_shutdown()
        shutil.rmtree(site_dir, ignore_errors=True)


def _error_page(said: str) -> str:
    """The page a preview shows while its site does not build: what konum said."""
    return (
        '<!doctype html>\n<html><head><meta charset="utf-8">'
        "<title>konum: the site does not build</title></head><body>"
        "<h1>The site does not build</h1>"
        f"<pre>{html.escape(said)}</pre>"
        "<p>Save a fix: this page reloads with the site.</p></body></html>\n"
    )
