"""Publishing a built site: where a build may publish, the lock, the swap, recovery, signals.

The published folder is never written in place: a build writes into ``.site-tmp-<random>``
beside ``site/``, then :func:`swap_into_place` makes it the site with two renames (the old
site aside, the new one in). A build killed between them leaves the old site in
``.site-old-*``, and the next build's :func:`recover` puts it back before anything else; a
lock file (:func:`build_lock`) serialises concurrent builds, and SIGINT or SIGTERM while a
build runs is remembered (:func:`interrupts_remembered`) so it never goes on to publish.

konum refuses to publish where it could destroy something it did not make
(:func:`check_target`): a folder that is, holds, or lies inside the project's sources (the
config's folder, the docs, the banks, a theme folder), a git work tree, or a non-empty
folder without konum's marker file from an earlier build.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import signal
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from types import FrameType

from konum.errors import BuildError
from konum.siteconfig import SiteConfig

#: The file that marks a folder as a site konum built (and may replace).
MARKER = ".konum-site"


def inside(path: Path, folder: Path) -> bool:
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
        if inside(target, source) or inside(source, target):
            raise BuildError(
                f"refusing to publish into {target}: it is, holds or lies inside {source}, "
                "which the site is built from; choose another folder"
            )
    if inside(project, target):
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


def staging_prefixes(target: Path) -> tuple[str, str]:
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
    staging, old = staging_prefixes(target)
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
    aside = Path(tempfile.mkdtemp(prefix=staging_prefixes(site)[1], dir=site.parent))
    os.rename(site, aside / "site")
    os.rename(new, site)
    shutil.rmtree(aside)


# --- signals -----------------------------------------------------------------------------------


@contextlib.contextmanager
def interrupts_remembered() -> Iterator[list[int]]:
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
