"""A child process that lets ``konum build`` use a second core while MkDocs builds pages.

MkDocs renders pages one after another in one process. konum's own work (validating the
banks, then for each bank drawing its variants, rendering its quiz and making its
flashcards) needs none of MkDocs, so :class:`Preparation` forks it off: MkDocs waits only
for the validated banks, and the child works through the banks from the first meanwhile.
Once MkDocs is done, this process takes banks from the last one back until the two meet,
so both cores stay busy whether a site has many pages or many questions. ``konum build``
fills the quizzes into the written pages and writes the downloads from the cards; on a
site of few questions the child has made every bank's output while MkDocs is still busy,
and writes the downloads itself meanwhile.

Each child dies with its parent (Linux ``PR_SET_PDEATHSIG``), so a killed build leaves
nothing running and holds the inherited build lock until it exits. Where ``fork`` is
missing, or this process runs threads (forking those is unsafe), the same work runs in
this process instead and the build is as before.
"""

from __future__ import annotations

import contextlib
import fcntl
import mmap
import os
import pickle
import select
import signal
import struct
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from konum.collector import frozen_for_fork
from konum.errors import BuildError, KonumError
from konum.libc import libc
from konum.model import Bank

if TYPE_CHECKING:
    from konum.banks import BankError

__all__ = ["Preparation", "can_fork", "parallel_map", "run_jobs"]

_PR_SET_PDEATHSIG = 1
_T = TypeVar("_T")
_R = TypeVar("_R")
_LENGTH = struct.Struct("!I")


def can_fork() -> bool:
    """Whether work can go to a forked child process."""
    return hasattr(os, "fork") and threading.active_count() == 1


def _die_with_parent(parent: int) -> None:
    """In a child: be killed when the parent dies (Linux); exit if it is already gone."""
    if sys.platform.startswith("linux"):
        libc().prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:
        os._exit(1)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


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
        with frozen_for_fork():
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


def run_jobs(jobs: Sequence[Callable[[], object]], lock_file: Path) -> None:
    """Run each of ``jobs`` once (their results are dropped): a forked child takes them from
    the first on, this process from the last back, each job once, until none is left.

    Put the longest first and the rest shortest first: the child starts on the longest,
    this process on the next longest from the other end, and whichever is free takes the
    next, so that the last jobs taken are the short ones. A job the child did not finish
    (it raised, or the child died) is run again here, so that whatever it raises is raised
    in this process. Without ``fork`` (or with threads running), or for fewer than two
    jobs, all are run here, in order.

    Args:
        jobs: the longest job, then the others from the shortest to the longest.
        lock_file: a path for the claims' lock (removed at once; its folder must exist).
    """
    if len(jobs) < 2 or not can_fork():
        for job in jobs:
            job()
        return
    ends = _Ends(lock_file)
    ends.set_count(len(jobs))

    def take_from_the_front(channel: int) -> None:
        while (index := ends.front()) is not None:
            jobs[index]()
            _write_all(channel, _LENGTH.pack(index))

    child = _Child(take_from_the_front)
    try:
        mine: set[int] = set()
        while (index := ends.back()) is not None:
            jobs[index]()
            mine.add(index)
        with os.fdopen(child.channel, "rb", closefd=False) as stream:
            report = stream.read()
    except BaseException:
        child.kill()
        raise
    finally:
        ends.close()
    child.wait()  # a failure shows as a job it did not report done: run again below
    whole = len(report) - len(report) % _LENGTH.size  # a child killed mid-write
    theirs = {index for (index,) in _LENGTH.iter_unpack(report[:whole])}
    for index, job in enumerate(jobs):
        if index not in mine and index not in theirs:
            job()


class _Ends:
    """The indices ``0 .. n-1`` handed out from both ends to two processes (made before the
    fork): the child takes from the front, this process from the back, each index once.

    The pair of ends lives in an anonymous shared mapping, guarded by a POSIX record lock
    on ``lock_file``: the kernel releases such a lock when its holder dies, so a child
    killed while taking an index cannot leave this process waiting forever (a
    ``multiprocessing`` lock would). ``n`` is set later by whichever process learns it (the
    child, once it has the banks).
    """

    _PAIR = struct.Struct("qq")  # next index from the front, one past the last

    def __init__(self, lock_file: Path) -> None:
        self._memory = mmap.mmap(-1, self._PAIR.size)  # MAP_SHARED: a forked child sees it
        self._lock = os.open(lock_file, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        os.unlink(lock_file)  # the open file is all the lock needs

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        fcntl.lockf(self._lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.lockf(self._lock, fcntl.LOCK_UN)

    def set_count(self, count: int) -> None:
        with self._locked():
            self._PAIR.pack_into(self._memory, 0, 0, count)

    def front(self) -> int | None:
        with self._locked():
            first, end = self._PAIR.unpack_from(self._memory)
            if first >= end:
                return None
            self._PAIR.pack_into(self._memory, 0, first + 1, end)
            return int(first)

    def back(self) -> int | None:
        with self._locked():
            first, end = self._PAIR.unpack_from(self._memory)
            if first >= end:
                return None
            self._PAIR.pack_into(self._memory, 0, first, end - 1)
            return int(end - 1)

    def close(self) -> None:
        os.close(self._lock)
        self._memory.close()


class _Messages:
    """Length-prefixed pickles read from a child's pipe, waiting for them or not.

    :meth:`ready` takes what has arrived without waiting, so that a process with work of
    its own can deal with the child's messages between its own steps.
    """

    def __init__(self, fd: int) -> None:
        self._fd: int | None = fd
        self._buffer = bytearray()

    def next(self) -> tuple[Any, ...] | None:
        """The next message, waiting for it; None once the pipe is closed."""
        while (message := self._whole()) is None and self._read():
            pass
        return message

    def ready(self) -> list[tuple[Any, ...]]:
        """Every whole message that has arrived, without waiting."""
        messages = []
        while True:
            while (message := self._whole()) is not None:
                messages.append(message)
            if self._fd is None or not select.select([self._fd], [], [], 0)[0]:
                return messages
            self._read()

    def _whole(self) -> tuple[Any, ...] | None:
        if len(self._buffer) < _LENGTH.size:
            return None
        end = _LENGTH.size + _LENGTH.unpack_from(self._buffer)[0]
        if len(self._buffer) < end:
            return None
        message: tuple[Any, ...] = pickle.loads(self._buffer[_LENGTH.size : end])
        del self._buffer[:end]
        return message

    def _read(self) -> bool:
        """Read what the pipe holds (waiting for something); False once it is closed."""
        if self._fd is None:
            return False
        chunk = os.read(self._fd, 1 << 16)
        if not chunk:
            self._fd = None
            self._buffer.clear()  # a message cut short by the child's death
        self._buffer += chunk
        return bool(chunk)

    def close(self) -> None:
        self._fd = None
        self._buffer.clear()


class Preparation(Generic[_R]):
    """Validates the banks beside MkDocs, then does each bank's work (``work(bank)``: for
    ``konum build``, draw its variants, render its quiz, make its flashcards) in whichever
    of two processes is free.

    With ``fork``, a child process validates the banks (with :func:`parallel_map`, this
    process being idle in MkDocs' first quiz block meanwhile) and sends them, or their
    problems, first. Then it works through the banks from the first on, while MkDocs builds
    the pages here. Each result is pickled to ``folder/<n>.pickle`` (a pipe would stall the
    child until MkDocs is done) and announced on the pipe. :meth:`results`, called once
    MkDocs is done, takes the banks left from the last one back, so the two processes meet
    where their work balances, whatever the ratio of pages to questions. Messages are
    length-prefixed pickles between two processes of the same program.

    Should ``work`` raise in the child, or the child die, its banks are done again here, so
    that whatever ``work`` raises is raised in this process as usual.

    When the child has done every bank itself (a site of few questions: MkDocs is still
    busy), it also runs ``finish`` with all the results, in bank order (for ``konum build``:
    write the downloads). :attr:`finishing` then says so once :meth:`results` returns, and
    :meth:`finished` waits for it; should ``finish`` decline, raise or the child die, the
    caller does that work itself.

    Without ``fork`` the work is done in this process when asked.

    Args:
        load: validates and returns the banks (raises ``BankError``).
        work: one bank's work; its result must pickle.
        folder: where the child puts its results (removed by the caller).
        finish: what the child does with every result when it made them all; True when
            it did the job.
    """

    def __init__(
        self,
        load: Callable[[], tuple[Bank, ...]],
        work: Callable[[Bank], _R],
        folder: Path,
        finish: Callable[[list[_R]], bool] | None = None,
    ) -> None:
        self._load, self._work = load, work
        self._finish_job = finish
        #: The child did every bank and runs ``finish`` (known once :meth:`results` returns).
        self.finishing = False
        self._folder = folder
        self._banks: tuple[Bank, ...] | None = None
        #: The banks' problems, once :meth:`banks` has found them.
        self.problems: BankError | None = None
        self._messages: _Messages | None = None
        self._child: _Child | None = None
        self._ends: _Ends | None = None
        if can_fork():
            folder.mkdir(parents=True, exist_ok=True)
            self._ends = _Ends(folder / "ends.lock")
            self._child = _Child(self._run)
            self._messages = _Messages(self._child.channel)

    # --- the child -------------------------------------------------------------------------

    def _run(self, channel: int) -> None:
        from konum.banks import BankError

        def send(message: object) -> None:
            record = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
            _write_all(channel, _LENGTH.pack(len(record)) + record)

        try:
            banks = self._load()
        except BankError as exc:
            send(("problems", exc.problems, exc.files))
            return
        assert self._ends is not None
        self._ends.set_count(len(banks))
        send(("banks", banks))
        kept: dict[int, _R] = {}  # for finish
        while (index := self._ends.front()) is not None:
            try:
                result = self._work(banks[index])
            except Exception:  # done again by the parent, which raises it there
                send(("failed", index))
                continue
            data = pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL)
            (self._folder / f"{index}.pickle").write_bytes(data)
            if self._finish_job is not None:
                kept[index] = result
            send(("done", index))
        if self._finish_job is not None and len(kept) == len(banks):
            send(("finishing",))
            try:
                done = self._finish_job([kept[index] for index in range(len(banks))])
            except Exception:  # done again by the parent, which raises it there
                done = False
            send(("finished", bool(done)))

    # --- the parent ------------------------------------------------------------------------

    def _receive(self) -> tuple[Any, ...] | None:
        if self._messages is None:
            return None
        message = self._messages.next()
        if message is None:  # the child is done (or died)
            self._messages = None
        return message

    def _take_ready(self, results: dict[int, _R]) -> None:
        """Load the results the child has announced so far, without waiting for more: the
        loading then overlaps the child's work instead of following it."""
        if self._messages is not None:
            for message in self._messages.ready():
                self._take(message, results)

    def _take(self, message: tuple[Any, ...], results: dict[int, _R]) -> None:
        if message[0] == "done":
            path = self._folder / f"{message[1]}.pickle"
            results[message[1]] = pickle.loads(path.read_bytes())
            path.unlink()

    def banks(self) -> tuple[Bank, ...]:
        """The validated banks (waits for the child).

        Raises:
            konum.banks.BankError: the banks have problems.
            BuildError: the child died before it could say.
        """
        from konum.banks import BankError

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

    def results(self) -> list[_R]:
        """Every bank's result, in bank order: this process works from the last bank back
        until it meets the child, then collects the child's (doing again what it failed)."""
        banks = self.banks()
        results: dict[int, _R] = {}
        if self._ends is None:
            return [self._work(bank) for bank in banks]
        mine = 0
        while (index := self._ends.back()) is not None:
            results[index] = self._work(banks[index])
            mine += 1
            self._take_ready(results)
        while len(results) < len(banks) and (message := self._receive()) is not None:
            self._take(message, results)
        if self._finish_job is not None and not mine and len(results) == len(banks):
            message = self._receive()  # the child made them all: it says whether it finishes
            self.finishing = message is not None and message[0] == "finishing"
        if not self.finishing:
            self._finish()
        for index, bank in enumerate(banks):
            if index not in results:  # the child failed on it, or died
                results[index] = self._work(bank)
        return [results[index] for index in range(len(banks))]

    def finished(self) -> bool:
        """Wait for the child's ``finish``; True when it did the job (False when there was
        none, it declined, raised, or the child died: the caller does it then)."""
        done = False
        if self.finishing:
            while (message := self._receive()) is not None:
                if message[0] == "finished":
                    done = bool(message[1])
            self.finishing = False
            self._finish()
        return done

    def _finish(self) -> None:
        """Wait for the child to exit (its failures are redone by :meth:`results`)."""
        if self._child is not None:
            while self._receive() is not None:
                pass
            self._child.wait()
            self._child = None
        self._close_ends()

    def abandon(self) -> None:
        """Stop the child now (the build failed or was interrupted)."""
        if self._messages is not None:
            self._messages.close()
            self._messages = None
        if self._child is not None:
            self._child.kill()
            self._child = None
        self._close_ends()

    def _close_ends(self) -> None:
        if self._ends is not None:
            self._ends.close()
            self._ends = None
