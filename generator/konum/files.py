"""Writing what konum makes without destroying anything: atomic files and folders, and the
places an output may not go.

* :func:`atomic_file` and :func:`write_atomically`: a file is written under a temporary name
  beside its target and renamed over it only when complete, so a kill or a full disk leaves
  the earlier file whole (and at most a hidden ``.<name>.*`` temporary file, removed on every
  exit Python sees).
* :func:`atomic_folder`: a folder of files (a printed exam) is made beside its target and
  swapped in as a whole; an existing target must be empty or one konum made (it holds
  :data:`FOLDER_MARK`).
* :func:`stamps`: what tells that files changed since they were read (``konum serve``).
* :func:`check_target`: an output path may be a new name or a regular file, never a folder,
  a device, a link to one, or anything inside what the site is made from (its sources).
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import stat
import sys
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

from konum.errors import ExportError

#: Each file's name, modification time (ns) and size, in the order given.
Stamp = tuple[tuple[str, int, int], ...]


def stamps(files: Iterable[Path]) -> Stamp:
    """The :data:`Stamp` of ``files``: a file that cannot be read (gone, a dangling link)
    counts as ``(name, 0, 0)``, so that its return is a change too."""
    found = []
    for path in files:
        try:
            info = path.stat()
        except OSError:
            found.append((str(path), 0, 0))
        else:
            found.append((str(path), info.st_mtime_ns, info.st_size))
    return tuple(found)


#: The file that marks a folder konum made (so that the next run may replace it).
FOLDER_MARK = ".konum-output"
#: The file in a folder being made that names the process making it.
_MAKER = ".konum-maker"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # another user's process
    return True


def _remove_stale(target: Path) -> None:
    """Remove the staging folders of ``target`` that a killed run left (their maker's
    process is gone); one another run is filling is left alone."""
    for staging in target.parent.glob(f".{glob.escape(target.name)}.*"):
        with contextlib.suppress(OSError, ValueError):
            if not _alive(int((staging / _MAKER).read_text(encoding="utf-8"))):
                shutil.rmtree(staging)


#: Any write permission: a file with none is read-only, and konum leaves it as it is.
_WRITABLE = stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH
_READ_ONLY = "the file is read-only, so konum leaves it as it is"


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@contextlib.contextmanager
def atomic_file(path: str | Path) -> Iterator[Path]:
    """A temporary path beside ``path`` to write; renamed over ``path`` when the block ends
    without an exception, removed otherwise.

    Raises:
        ExportError: the folder cannot be written, or ``path`` is a read-only file (the
            earlier file is untouched).
    """
    target = Path(path)
    with contextlib.suppress(OSError):  # a rename would replace it without a word
        if stat.S_ISREG(mode := os.stat(target).st_mode) and not mode & _WRITABLE:
            raise ExportError(f"cannot write {target}: {_READ_ONLY}")
    try:
        fd, name = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    except OSError as exc:
        raise ExportError(f"cannot write {target}: {exc.strerror or exc}") from exc
    os.close(fd)
    temporary = Path(name)
    try:
        yield temporary
        os.chmod(temporary, 0o666 & ~_umask())  # mkstemp makes it private
        os.replace(temporary, target)
    except OSError as exc:
        raise ExportError(f"cannot write {target}: {exc.strerror or exc}") from exc
    finally:
        with contextlib.suppress(OSError):
            temporary.unlink()


def write_atomically(path: str | Path, data: str | bytes) -> None:
    """Write ``data`` (text as UTF-8) to ``path`` through :func:`atomic_file`.

    Raises:
        ExportError: the folder cannot be written (the earlier file is untouched).
    """
    payload = data.encode("utf-8") if isinstance(data, str) else data
    with atomic_file(path) as temporary:
        temporary.write_bytes(payload)


@contextlib.contextmanager
def atomic_folder(path: str | Path) -> Iterator[Path]:
    """A new folder beside ``path`` to fill; when the block ends without an exception it
    replaces ``path`` whole (the earlier folder is removed), otherwise it is removed. A
    killed run's folder is removed by the next run.

    Raises:
        ExportError: ``path`` is a folder konum did not make, or cannot be replaced.
    """
    target = Path(path)
    if target.is_dir() and any(target.iterdir()) and not (target / FOLDER_MARK).is_file():
        raise ExportError(f"{target} holds files konum did not write: name a new or empty folder")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        _remove_stale(target)
        staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    except OSError as exc:
        raise ExportError(f"cannot create {target}: {exc.strerror or exc}") from exc
    old = target.with_name(f"{staging.name}-old")
    try:
        (staging / _MAKER).write_text(str(os.getpid()), encoding="utf-8")
        yield staging
        (staging / _MAKER).unlink()
        (staging / FOLDER_MARK).write_text(
            "Made by konum; konum replaces this folder the next time it writes here.\n",
            encoding="utf-8",
        )
        os.chmod(staging, 0o777 & ~_umask())
        if target.exists():
            os.rename(target, old)
        os.rename(staging, target)
    except OSError as exc:
        if old.exists() and not target.exists():
            os.rename(old, target)  # put the earlier folder back
        raise ExportError(f"cannot write {target}: {exc.strerror or exc}") from exc
    finally:
        shutil.rmtree(staging, ignore_errors=True)
        shutil.rmtree(old, ignore_errors=True)


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def check_target(
    path: str | Path, sources: Sequence[Path], *, what: str = "-o", folder: bool = False
) -> Path:
    """``path`` (links followed), if an output may be written there: a new name or a regular
    file (a new, empty or konum-made folder when ``folder``), and not one of ``sources`` or
    inside one.

    Raises:
        ExportError: the refusal, naming the path and why.
    """
    given = Path(path)
    if not folder and str(path).endswith(("/", os.sep)):
        raise ExportError(f"{what} {path}: that names a folder (it ends in '/'); name a file")
    real = Path(os.path.realpath(given))
    for source in sources:
        source = Path(os.path.realpath(source))
        if _inside(real, source):
            raise ExportError(
                f"{what} {given}: that is {'inside ' if real != source else ''}{source}, "
                "which the site is made from; write the output somewhere else"
            )
    try:
        mode = os.stat(real).st_mode
    except FileNotFoundError:
        return real
    except OSError as exc:
        raise ExportError(f"{what} {given}: {exc.strerror or exc}") from None
    if folder and stat.S_ISDIR(mode):
        return real
    if not folder and stat.S_ISREG(mode):
        if not mode & _WRITABLE:
            raise ExportError(f"{what} {given}: {_READ_ONLY}; make it writable or name another")
        return real
    kind = "a folder" if stat.S_ISDIR(mode) else "not a regular file"
    wanted = "a folder" if folder else "a file"
    raise ExportError(f"{what} {given}: that is {kind}; name {wanted} to write")


def input_problem(path: Path, project: Path, what: str, limit: int) -> str | None:
    """Why the input file ``path`` (a bank, a translation) must not be read, or None: a link
    to a file outside ``project`` (nothing of it is read or quoted, as with images), not a
    regular file (a folder, a pipe that would never end, a device), or more than ``limit``
    bytes."""
    if path.is_symlink():
        real = Path(os.path.realpath(path))
        if not (real == project or project in real.parents):
            return (
                f"not read: the {what} file is a link to a file outside the project; copy "
                "it into the project"
            )
    try:
        mode = os.stat(path)
    except FileNotFoundError:
        return "no such file or directory"
    except OSError as exc:
        return f"cannot read the file: {exc.strerror}"
    if stat.S_ISDIR(mode.st_mode):
        return None  # the caller says what a folder means to it
    if not stat.S_ISREG(mode.st_mode):
        return f"not read: the {what} is not a regular file (a pipe or a device?)"
    if mode.st_size > limit:
        return f"file is too large: {mode.st_size:,} bytes, the limit is {limit:,}"
    return None


def tree_problems(folder: Path, project: Path, what: str) -> list[tuple[Path, str]]:
    """Every entry below ``folder`` (pages, static files, folders) that must not be read or
    published, with :func:`input_problem`'s reason: a link leading outside ``project``, or
    not a regular file or folder (a pipe, a device). A linked folder is judged, not entered.
    Sizes are not limited here: a site's media may be large. A folder that cannot be listed
    (no permission), ``folder`` itself included, is one too: nothing in it would be read or
    published, and a check that skipped it would pass a site it never saw."""
    found = []

    def unlisted(error: OSError) -> None:
        reason = error.strerror or str(error)
        found.append((Path(error.filename), f"not read: the folder cannot be listed ({reason})"))

    for parent, folders, files in os.walk(folder, onerror=unlisted):
        for name in sorted([*folders, *files]):
            path = Path(parent, name)
            problem = input_problem(path, project, what, limit=sys.maxsize)
            if problem is not None:
                found.append((path, problem))
    return found
