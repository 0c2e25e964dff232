"""Driving MkDocs: a strict build of one edition with konum's options, and its log made
konum's (a page's error on one line at the page and its line, as ``konum check`` says it)."""

from __future__ import annotations

import logging
import re
import sys
from pathlib import Path
from typing import Any

from konum.config import Options
from konum.errors import BuildError
from konum.paths import shown
from konum.siteconfig import SiteConfig


def mkdocs_build(
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
        config["mdx_configs"] = extension_configs(config, options)
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
            where, line = f"{self.docs}/{self.page}", _AT_LINE.search(text)
            if line:  # "line 3: X" or "in a {{ }} expression, line 3: X"
                where += f":{line.group(2)}"
                text = text[: line.start()] + (": " if line.group(1) else "") + text[line.end() :]
            record.msg, record.args, self.page = f"{where}: {text}", (), ""
        return True


def extension_configs(config: Any, options: Options) -> dict[str, Any]:
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
