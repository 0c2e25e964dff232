"""``konum build``: validate, build into a temporary folder beside ``site/``, then swap.

The published folder is never written in place. A build renders everything into
``.site-tmp-<random>`` next to it; only a complete, strict build with its downloads is
swapped in, atomically where the kernel allows (Linux ``renameat2(RENAME_EXCHANGE)``), so a
build that fails or is killed (SIGINT or SIGKILL, at any moment) leaves the old site exactly
as it was. Leftover temporary folders of killed builds are removed by the next build. A lock
file serialises concurrent builds: the second one waits for the first.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import fcntl
import logging
import os
import shutil
import signal
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any

from konum.collector import paced
from konum.errors import BuildError
from konum.libc import libc
from konum.mdx.quiz import (
    SEED_ENV,
    VARIANTS_ENV,
    defer_whole_banks,
    drawn_concretes,
    fill_pending,
    has_pending,
    promise_banks,
    render_bank_quiz,
    stop_deferring,
)
from konum.model import Bank
from konum.workers import Preparation, run_jobs

if TYPE_CHECKING:
    from konum.exports import BankCards, DownloadPart, FileKind

QUIZ_EXTENSION = "konum.mdx.quiz"


def _staging_prefixes(target: Path) -> tuple[str, str]:
    """Names of a target's temporary folders: ``.site-tmp-*`` and ``.site-old-*`` for ``site``."""
    return f".{target.name}-tmp-", f".{target.name}-old-"


@dataclass(frozen=True)
class BuildResult:
    """What a build published: where, from how many banks and questions, with which seed."""

    site: Path
    seed: int
    banks: int
    questions: int
    pages: int


@dataclass(frozen=True)
class SiteConfig:
    """What a build needs from ``mkdocs.yml``."""

    config_file: Path
    site_dir: Path
    banks_dir: Path
    seed: int
    variants: int


def read_site_config(config_file: str | Path = "mkdocs.yml") -> SiteConfig:
    """Read ``mkdocs.yml`` with MkDocs' own loader (so its validation applies)."""
    from mkdocs.config import load_config
    from mkdocs.exceptions import ConfigurationError

    path = Path(config_file)
    if not path.is_file():
        raise BuildError(f"no MkDocs configuration at {path} (run konum from the project folder)")
    try:
        with _quiet_mkdocs():
            config = load_config(str(path))
    except ConfigurationError as exc:
        raise BuildError(f"{path}: {exc}") from None
    quiz = dict(config["mdx_configs"].get(QUIZ_EXTENSION, {}))
    if QUIZ_EXTENSION not in config["markdown_extensions"]:
        raise BuildError(f"{path}: markdown_extensions does not list {QUIZ_EXTENSION}")
    root = path.resolve().parent
    return SiteConfig(
        config_file=path.resolve(),
        site_dir=Path(config["site_dir"]),
        banks_dir=(root / str(quiz.get("banks", "content/banks"))),
        seed=int(quiz.get("seed", 42)),
        variants=int(quiz.get("variants", 5)),
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


def remove_leftovers(target: Path) -> list[Path]:
    """Delete the temporary folders that killed builds of ``target`` left behind (call with
    the lock held, so none of them belongs to a running build)."""
    removed = []
    for child in target.parent.iterdir():
        if child.is_dir() and child.name.startswith(_staging_prefixes(target)):
            shutil.rmtree(child, ignore_errors=True)
            removed.append(child)
    return removed


_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def _exchange(a: Path, b: Path) -> bool:
    """Atomically swap two folders (Linux renameat2); False when the system cannot."""
    if not sys.platform.startswith("linux"):
        return False
    renameat2 = getattr(libc(), "renameat2", None)
    if renameat2 is None:
        return False
    result = renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE)
    if result == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.ENOSYS, errno.EINVAL, errno.EOPNOTSUPP):
        return False
    raise OSError(err, os.strerror(err), str(b))


def swap_into_place(new: Path, site: Path) -> None:
    """Make ``new`` the folder at ``site``; the old content is deleted afterwards."""
    if not site.exists():
        os.rename(new, site)
        return
    if _exchange(new, site):
        shutil.rmtree(new)  # now holds the old site
        return
    # Fallback: two renames; a kill between them leaves the old site in .site-old-*.
    old = Path(tempfile.mkdtemp(prefix=_staging_prefixes(site)[1], dir=site.parent))
    os.rename(site, old / "site")
    os.rename(new, site)
    shutil.rmtree(old)


def _mkdocs_build(
    config_file: Path, site_dir: Path, quiet: Callable[[], bool] = lambda: False
) -> None:
    """Build with MkDocs in strict mode, its warnings and errors on stderr unless ``quiet()``
    (konum reports the failure itself then, e.g. every problem of the banks)."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    from mkdocs.exceptions import Abort, ConfigurationError, MkDocsException

    handler = logging.StreamHandler(sys.stderr)
    handler.setLevel(logging.WARNING)
    handler.setFormatter(logging.Formatter("%(levelname)s - %(message)s"))
    handler.addFilter(lambda _record: not quiet())
    logger = logging.getLogger("mkdocs")
    logger.addHandler(handler)
    try:
        config = load_config(str(config_file), site_dir=str(site_dir), strict=True)
        build(config)
    except (Abort, ConfigurationError, MkDocsException) as exc:
        raise BuildError(f"the site build failed: {exc}") from None
    except (ValueError, KeyError, TypeError) as exc:
        # Content errors raised inside Markdown extensions (a bad {{ }} expression, LaTeX
        # that cannot be rendered); MkDocs has already logged which page it was reading.
        raise BuildError(f"the site build failed: {type(exc).__name__}: {exc}") from None
    finally:
        logger.removeHandler(handler)


def build_site(
    config_file: str | Path = "mkdocs.yml",
    *,
    seed: int | None = None,
    variants: int | None = None,
    site_dir: str | Path | None = None,
    downloads: bool = True,
) -> BuildResult:
    """Validate the banks, build the site and its downloads, and publish it atomically.

    Args:
        config_file: the ``mkdocs.yml`` to build.
        seed: site seed; default the one in ``mkdocs.yml``.
        variants: variants per computed question; default the one in ``mkdocs.yml``.
        site_dir: where to publish; default ``site_dir`` of ``mkdocs.yml``.
        downloads: also write the flashcard exports into ``<site>/downloads/``.

    Returns:
        The published folder and what went into it.

    Raises:
        konum.banks.BankError: a bank has problems (nothing was built).
        BuildError: MkDocs or an export failed (the published folder is untouched).
    """
    from konum.banks import load_banks

    settings = read_site_config(config_file)
    seed = settings.seed if seed is None else seed
    variants = settings.variants if variants is None else variants
    target = Path(site_dir) if site_dir is not None else settings.site_dir
    target = target.resolve()

    environment = {SEED_ENV: str(seed), VARIANTS_ENV: str(variants)}
    # Paths in mkdocs.yml (the quiz block's banks folder) are relative to its folder.
    with (
        _interrupts_remembered() as interrupted,
        paced() as pace,
        build_lock(target),
        _environment(environment),
        _working_directory(settings.config_file.parent),
    ):
        remove_leftovers(target)
        staging = Path(tempfile.mkdtemp(prefix=_staging_prefixes(target)[0], dir=target.parent))
        # The child's work folder, beside the staging folder (which MkDocs empties when it
        # starts) and named like it, so a killed build's is removed too.
        work_folder = staging.with_name(staging.name + "-work")
        written = staging.with_name(staging.name + "-downloads")
        docs_dir = settings.banks_dir.resolve().parent
        parts: tuple[DownloadPart, ...] = ("exports", "study") if downloads else ()

        def work(bank: Bank) -> BankOutput:
            """Draw a bank's variants, render its quiz and make its flashcards."""
            return _bank_output(bank, seed, variants, docs_dir, parts)

        def write_ahead(outputs: list[BankOutput]) -> bool:
            """In the child, when it made every bank's output while MkDocs was busy: write
            the downloads meanwhile (not when a quiz failed: the build reports it)."""
            if any(o.quiz is None or o.cards is None for o in outputs):
                return False
            from konum.exports import write_downloads

            write_downloads([o.cards for o in outputs if o.cards is not None], written)
            return True

        # Banks validated, then each bank's quiz and cards made, beside MkDocs where it can.
        prep = Preparation(
            load=lambda: load_banks(settings.banks_dir),
            work=work,
            folder=work_folder,
            finish=write_ahead if downloads else None,
        )
        try:
            # MkDocs starts while the banks are validated; the first quiz block waits for
            # them. Problems fail the build with every one of them listed, as BankError.
            # Blocks showing a whole bank leave a marker; the child renders those quizzes
            # meanwhile, and they are filled into the written pages below.
            promise_banks(settings.banks_dir, prep.banks)
            defer_whole_banks(seed, variants)
            try:
                _mkdocs_build(settings.config_file, staging, quiet=lambda: bool(prep.problems))
            except BuildError:
                if prep.problems:
                    raise prep.problems from None
                raise
            banks = prep.banks()  # also when no page shows a quiz
            outputs = prep.results()
            pace.hold()  # every bank's quiz and cards: kept until the build ends
            sets = [o.cards for o in outputs if o.cards is not None]

            from konum.exports import write_downloads

            def fill() -> None:
                _fill_quizzes(staging, banks, [o.quiz for o in outputs], seed, variants)
                if downloads:
                    for bank, output in zip(banks, outputs, strict=True):
                        if output.quiz is None:  # shown on no page, but on the cards
                            _render_again(bank, seed, variants)

            def download(kind: FileKind) -> Callable[[], object]:
                return lambda: write_downloads(sets, written, files={kind})

            # The child starts on the longest job, this process on the next longest from the
            # other end (CPU at 10,000 questions: the Anki package 1.5-2 s, cards.json 0.45 s,
            # the Anki text 0.3 s, filling the quizzes in 0.2 s, the CSV 0.15 s).
            files = [download(kind) for kind in ("anki", "csv", "text", "json")]
            jobs: list[Callable[[], object]] = [files[0], fill, *files[1:]]
            if not downloads:
                jobs = [fill]
            elif prep.finishing:  # the child is writing the downloads
                fill()
                jobs = [] if prep.finished() else files
            work_folder.mkdir(parents=True, exist_ok=True)
            run_jobs(jobs, work_folder / "jobs.lock")
            if downloads:
                _move_into(written, staging / "downloads")
            pages = sum(1 for _ in staging.rglob("*.html"))
            if interrupted():  # and the KeyboardInterrupt was lost on the way
                raise KeyboardInterrupt
            swap_into_place(staging, target)
        except BaseException:
            prep.abandon()
            shutil.rmtree(staging, ignore_errors=True)
            raise
        finally:
            stop_deferring()
            shutil.rmtree(written, ignore_errors=True)
            shutil.rmtree(work_folder, ignore_errors=True)
    questions = sum(len(bank.questions) for bank in banks)
    return BuildResult(target, seed, len(banks), questions, pages)


@dataclass(frozen=True)
class BankOutput:
    """What a build makes of one bank: its whole quiz (None when it cannot be rendered; a
    page showing it renders it again to report why) and its flashcards (None without
    downloads)."""

    quiz: str | None
    cards: BankCards | None


def _bank_output(
    bank: Bank, seed: int, variants: int, docs_dir: Path, parts: tuple[DownloadPart, ...]
) -> BankOutput:
    try:
        quiz = render_bank_quiz(bank, seed, variants)
    except ValueError:  # reported by _render_again, naming the question
        return BankOutput(None, None)
    cards = None
    if parts:
        from konum.exports import bank_cards

        # After the quiz: its variants are drawn and its MathML texts in the render cache.
        concretes = drawn_concretes((bank,), seed, variants)
        cards = bank_cards(bank, concretes, media_root=docs_dir, parts=parts)
    return BankOutput(quiz, cards)


def _render_again(bank: Bank, seed: int, variants: int) -> str:
    """A bank's quiz rendered here, when rendering ahead failed: it raises the error, with
    the question's file, line and id, as a BuildError."""
    try:
        return render_bank_quiz(bank, seed, variants)
    except ValueError as exc:
        raise BuildError(f"the site build failed: /// quiz | {bank.id}: {exc}") from None


def _fill_quizzes(
    site: Path,
    banks: tuple[Bank, ...],
    quizzes: Sequence[str | None],
    seed: int,
    variants: int,
) -> None:
    """Put each bank's quiz where the pages of ``site`` left its marker.

    ``quizzes`` are the banks' whole quizzes, in bank order; one that is None (it could not
    be rendered) is rendered again here, to report the error, if a page shows it.
    """
    by_id = {bank.id: (bank, quiz) for bank, quiz in zip(banks, quizzes, strict=True)}

    def quiz(bank_id: str) -> str:
        bank, html = by_id[bank_id]
        return _render_again(bank, seed, variants) if html is None else html

    for page in sorted(site.rglob("*.html")):
        text = page.read_bytes().decode("utf-8")
        if has_pending(text):
            # Encoded as MkDocs writes its pages, so the result is what it would have written.
            page.write_bytes(fill_pending(text, quiz).encode("utf-8", "xmlcharrefreplace"))


def _move_into(source: Path, folder: Path) -> None:
    """Move the files of ``source`` into ``folder`` (created if needed), then drop ``source``."""
    folder.mkdir(parents=True, exist_ok=True)
    for item in source.iterdir():
        os.replace(item, folder / item.name)
    source.rmdir()


@contextlib.contextmanager
def _interrupts_remembered() -> Iterator[Callable[[], bool]]:
    """Ctrl-C (SIGINT) raises KeyboardInterrupt as usual, and is remembered: Python drops
    an exception raised while a finaliser runs (a ``__del__``, a generator the garbage
    collector closes) with only a warning, so an interrupted build could go on to publish.
    Yields whether an interrupt came. Python's default handler only is replaced (not an
    ignored SIGINT, nor one a caller handles), and only in the main thread."""
    seen: list[int] = []
    previous = signal.getsignal(signal.SIGINT)
    if (
        previous is not signal.default_int_handler
        or threading.current_thread() is not threading.main_thread()
    ):
        yield lambda: False
        return

    def handler(signum: int, frame: FrameType | None) -> None:
        seen.append(signum)
        signal.default_int_handler(signum, frame)

    signal.signal(signal.SIGINT, handler)
    try:
        yield lambda: bool(seen)
    finally:
        signal.signal(signal.SIGINT, previous)


@contextlib.contextmanager
def _working_directory(folder: Path) -> Iterator[None]:
    previous = Path.cwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(previous)


@contextlib.contextmanager
def _environment(values: dict[str, str]) -> Iterator[None]:
    saved: dict[str, Any] = {key: os.environ.get(key) for key in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for key, old in saved.items():
            if old is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = old
