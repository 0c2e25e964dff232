"""A child process that lets ``konum build`` use a second core while MkDocs builds pages.

MkDocs renders pages one after another in one process. konum's own work (validating the
banks, drawing the variants, rendering each bank's quiz, writing the flashcard downloads)
needs none of MkDocs, so :class:`Preparation` forks it off: MkDocs waits only for the
validated banks, and each whole-bank quiz is rendered meanwhile (``konum build`` fills them
in once MkDocs has written the pages). The flashcard downloads go to whichever process is
free first: the child once its quizzes are rendered, or this one once MkDocs is done.

Each child dies with its parent (Linux ``PR_SET_PDEATHSIG``), so a killed build leaves
nothing running, holds the inherited build lock until it exits, and reports a failure as
one line. Where ``fork`` is missing, or this process runs threads (forking those is
unsafe), the same work runs in this process instead and the build is as before.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import os
import pickle
import signal
import struct
import sys
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, TypeVar

from generator.errors import BuildError, KonumError
from generator.model import Bank, Concrete

if TYPE_CHECKING:
    from generator.banks import BankError

__all__ = ["Preparation", "can_fork", "parallel_map"]

_PR_SET_PDEATHSIG = 1
_T = TypeVar("_T")
_R = TypeVar("_R")
_LENGTH = struct.Struct("!I")
_Writer = Callable[[tuple[Bank, ...], Sequence[Concrete]], None]


def can_fork() -> bool:
    """Whether work can go to a forked child process."""
    return hasattr(os, "fork") and threading.active_count() == 1


def _die_with_parent(parent: int) -> None:
    """In a child: be killed when the parent dies (Linux); exit if it is already gone."""
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:
        os._exit(1)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


class _Token:
    """One token for two processes: created before a fork, taken by whichever asks first.

    A pipe holding one byte, its writing end closed: a read of one byte is atomic, so
    exactly one :meth:`take` gets it; every later read finds the pipe at its end.
    """

    def __init__(self) -> None:
        self._fd, end = os.pipe()
        os.write(end, b"\0")
        os.close(end)
        os.set_blocking(self._fd, False)

    def take(self) -> bool:
        """Whether this call got the token."""
        try:
            return os.read(self._fd, 1) == b"\0"
        except OSError:  # BlockingIOError: another process has it
            return False

    def close(self) -> None:
        os.close(self._fd)


class _Child:
    """A forked process running ``job(channel)``; ``channel`` is a pipe to the parent.

    A failure is sent on a second pipe as one line and the child exits 1.
    """

    def __init__(self, job: Callable[[int], None]) -> None:
        sys.stdout.flush()
        sys.stderr.flush()
        parent = os.getpid()
        channel_read, channel_write = os.pipe()
        errors_read, errors_write = os.pipe()
        pid = os.fork()
        if pid:
            os.close(channel_write)
            os.close(errors_write)
            self.pid: int | None = pid
            self.channel, self._errors = channel_read, errors_read
            return
        code = 0
        try:  # the child: do the job, report a failure as one line, never return
            os.close(channel_read)
            os.close(errors_read)
            _die_with_parent(parent)
            job(channel_write)
        except BaseException as exc:
            message = str(exc) if isinstance(exc, KonumError) else f"{type(exc).__name__}: {exc}"
            os.write(errors_write, message.encode("utf-8", "replace"))
            code = 1
        finally:
            os._exit(code)

    def wait(self) -> str | None:
        """Wait for the child; None when it succeeded, else what went wrong."""
        if self.pid is None:
            return None
        pid, self.pid = self.pid, None
        with os.fdopen(self._errors, "rb") as errors:
            message = errors.read().decode("utf-8", "replace")
        os.close(self.channel)
        _, status = os.waitpid(pid, 0)
        if os.waitstatus_to_exitcode(status) == 0:
            return None
        return message or "killed"

    def kill(self) -> None:
        """Stop the child now (the build failed or was interrupted)."""
        if self.pid is None:
            return
        pid, self.pid = self.pid, None
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        os.close(self._errors)
        os.close(self.channel)


def parallel_map(func: Callable[[_T], _R], items: Sequence[_T]) -> list[_R]:
    """``[func(item) for item in items]``, with every other item done by a forked child.

    The results come back as one pickle. Should the child fail or die, its items are done
    again here, so that whatever ``func`` raises is raised in this process as usual.
    Without ``fork`` (or with threads running), or for fewer than two items, all is done
    here.
    """
    if len(items) < 2 or not can_fork():
        return [func(item) for item in items]
    theirs = items[1::2]

    def job(channel: int) -> None:
        _write_all(channel, pickle.dumps([func(item) for item in theirs], pickle.HIGHEST_PROTOCOL))

    child = _Child(job)
    try:
        mine = [func(item) for item in items[0::2]]
        with os.fdopen(child.channel, "rb", closefd=False) as stream:
            data = stream.read()
    except BaseException:
        child.kill()
        raise
    if child.wait() is None:
        other: list[_R] = pickle.loads(data)
    else:
        other = [func(item) for item in theirs]
    results: list[_R] = []
    for index in range(len(items)):
        results.append(mine[index // 2] if index % 2 == 0 else other[index // 2])
    return results


class Preparation:
    """Validates the banks, draws the questions, renders each bank's quiz and writes the
    downloads, beside MkDocs.

    With ``fork``, a child process does the work and MkDocs (in this process) never waits
    for it except for the validated banks: the child sends them first (or their problems),
    then renders the banks' quizzes in order (drawing each bank's variants as it goes).
    Each quiz goes to ``folder/<n>.html`` and is announced on the pipe as ``(bank id, file
    name)``; a bank whose quiz cannot be rendered is announced with no file, so that the
    caller renders it again and reports the error. Messages are length-prefixed pickles
    between two processes of the same program. The banks are read by :func:`parallel_map`
    (this process is idle meanwhile). The downloads are written by whichever of the two
    processes is free first (a :class:`_Token`): the child after its last quiz, with the
    variants and texts it has just drawn and rendered, or this process at
    :meth:`write_if_free`, called when MkDocs is done (first where the questions far
    outweigh the pages).

    Without ``fork`` the work is done in this process when asked: :meth:`banks` loads,
    :meth:`get` returns None (the caller renders the quiz itself), :meth:`finish`
    writes the downloads.

    Args:
        load: validates and returns the banks (raises ``BankError``).
        draw: applies the seed to every question (the pages and downloads reuse the result).
        render: one bank's whole quiz as HTML.
        write: the parts of the downloads, each written by the first process free for it
            (one callable, or None for none).
        folder: where the child puts rendered quizzes (removed by the caller).
    """

    def __init__(
        self,
        load: Callable[[], tuple[Bank, ...]],
        draw: Callable[[tuple[Bank, ...]], Sequence[Concrete]],
        render: Callable[[Bank], str],
        write: _Writer | Sequence[_Writer] | None,
        folder: Path,
    ) -> None:
        self._load, self._draw, self._render = load, draw, render
        writers = [] if write is None else [write] if callable(write) else list(write)
        #: The parts of the downloads not yet written by this process, each with its token.
        self._writers: list[tuple[_Writer, _Token | None]] = []
        self._folder = folder
        self._banks: tuple[Bank, ...] | None = None
        #: The banks' problems, once :meth:`banks` has found them.
        self.problems: BankError | None = None
        self._ready: dict[str, str | None] = {}
        self._stream: BinaryIO | None = None
        self._child: _Child | None = None
        if can_fork():
            folder.mkdir(parents=True, exist_ok=True)
            self._writers = [(writer, _Token()) for writer in writers]
            self._child = _Child(self._run)
            self._stream = os.fdopen(self._child.channel, "rb", closefd=False)
        else:
            self._writers = [(writer, None) for writer in writers]

    # --- the child -------------------------------------------------------------------------

    def _run(self, channel: int) -> None:
        from generator.banks import BankError

        def send(message: object) -> None:
            record = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
            _write_all(channel, _LENGTH.pack(len(record)) + record)

        try:
            banks = self._load()
        except BankError as exc:
            send(("problems", exc.problems, exc.files))
            return
        send(("banks", banks))
        for index, bank in enumerate(banks):
            name: str | None = f"{index}.html"
            try:
                html = self._render(bank)
            except ValueError:
                name = None
            else:
                (self._folder / str(name)).write_text(html, encoding="utf-8")
            send(("quiz", bank.id, name))
        for writer, token in self._writers:
            if token is not None and token.take():
                # The variants drawn for the quizzes are reused, and their texts cached.
                writer(banks, self._draw(banks))

    # --- the parent ------------------------------------------------------------------------

    def _receive(self) -> tuple[Any, ...] | None:
        stream = self._stream
        if stream is None:
            return None
        header = stream.read(_LENGTH.size)
        size = _LENGTH.unpack(header)[0] if len(header) == _LENGTH.size else -1
        record = stream.read(size) if size >= 0 else b""
        if size < 0 or len(record) < size:  # the child is done (or died)
            self._stream = None
            stream.close()
            return None
        message: tuple[Any, ...] = pickle.loads(record)
        return message

    def banks(self) -> tuple[Bank, ...]:
        """The validated banks (waits for the child).

        Raises:
            generator.banks.BankError: the banks have problems.
            BuildError: the child died before it could say.
        """
        from generator.banks import BankError

        if self._banks is not None:
            return self._banks
        if self.problems is not None:
            raise self.problems
        try:
            if self._child is None:
                self._banks = self._load()
                return self._banks
            message = self._receive()
            if message is None:
                problem = self._child.wait() or "no answer"
                raise BuildError(f"the bank checker failed: {problem}")
            if message[0] == "problems":
                raise BankError(message[1], message[2])
        except BankError as exc:
            self.problems = exc
            raise
        self._banks = message[1]
        return self._banks

    def get(self, bank_id: str) -> str | None:
        """The whole quiz of ``bank_id`` as rendered by the child, or None (render it)."""
        while bank_id not in self._ready:
            message = self._receive()
            if message is None:
                break
            self._ready[message[1]] = message[2]
        name = self._ready.pop(bank_id, None)
        return None if name is None else (self._folder / name).read_text(encoding="utf-8")

    def write_if_free(self) -> None:
        """Write each part of the downloads the child has not begun (call when idle: where
        MkDocs finishes first, as with many questions, this process takes them)."""
        while self._writers:
            writer, token = self._writers.pop(0)
            try:
                if token is None or token.take():
                    banks = self.banks()
                    writer(banks, self._draw(banks))
            finally:
                if token is not None:
                    token.close()

    def finish(self) -> None:
        """Wait until the downloads are written (or write them now); raise what failed."""
        self.write_if_free()
        if self._child is None:
            return
        while self._receive() is not None:  # what the pages did not ask for
            pass
        problem = self._child.wait()
        if problem is not None:
            raise BuildError(problem)

    def _close_tokens(self) -> None:
        for _writer, token in self._writers:
            if token is not None:
                token.close()
        self._writers = []

    def abandon(self) -> None:
        """Stop the child now (the build failed or was interrupted)."""
        self._close_tokens()
        if self._stream is not None:
            self._stream.close()
            self._stream = None
        if self._child is not None:
            self._child.kill()
