"""Work that splits by bank or by page, spread over the machine's cores.

:func:`ordered_map` runs one function over many items in worker processes (the check's
Python work holds the GIL, so threads would take turns) and returns the results in the
items' order, so that what a build writes does not depend on how many workers made it or
which finished first. The workers are forked from the calling process: they start with
everything it has loaded (the plugins, the banks read so far, the compiled templates), and
only the items and the results travel between processes, pickled. Where forking is not
available or not safe (another platform's default, a process with threads running, such as
``konum serve``'s server), the items are worked through here, one after the other, with the
same results.

``jobs`` is how many workers to use: ``None`` for one per core this process may run on
(:func:`available_cores`), ``1`` for none (everything in this process).
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")
C = TypeVar("C")


def available_cores() -> int:
    """The cores this process may run on (its CPU affinity where the platform says it)."""
    counted = getattr(os, "process_cpu_count", None)  # Python 3.13
    if counted is not None:
        return int(counted() or 1)
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


def workers(jobs: int | None, tasks: int) -> int:
    """How many workers ``tasks`` pieces of work get with ``jobs`` (see the module): never
    more than there are pieces, and 1 (this process) when forking is unavailable."""
    wanted = available_cores() if jobs is None else jobs
    wanted = min(wanted, tasks)
    if wanted <= 1 or not _can_fork():
        return 1
    return wanted


def _can_fork() -> bool:
    # Forking copies only the calling thread: a lock another thread holds (logging's, the
    # import lock) would stay held forever in the child.
    return "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1


#: In a worker only: the function and context :func:`ordered_map` forked it with.
_GIVEN: tuple[Callable[[Any, Any], Any], Any] | None = None


def _receive(fn: Callable[[Any, Any], Any], context: Any, parent: int) -> None:
    global _GIVEN
    _GIVEN = (fn, context)
    _die_with(parent)


def _die_with(parent: int) -> None:
    """End this worker when the process that forked it ends: a build killed (SIGKILL leaves
    no time to stop its workers) must not leave one writing into the folders the next
    build cleans up. Linux's parent-death signal; elsewhere the worker finishes its item."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # it ended before the signal was asked for
        os._exit(1)


def _run(item: Any) -> Any:
    assert _GIVEN is not None
    fn, context = _GIVEN
    return fn(context, item)


def ordered_map(
    fn: Callable[[C, T], R],
    context: C,
    items: Sequence[T],
    jobs: int | None = None,
    *,
    fresh: bool = False,
) -> list[R]:
    """``[fn(context, item) for item in items]``, computed by up to ``jobs`` forked workers.

    Args:
        fn: a module-level function (workers find it in their copy of the module).
        context: what every call shares, inherited by the workers (never pickled).
        items: the pieces of work; each is pickled to a worker, its result back.
        jobs: workers to use (``None``: one per core; ``1``: this process only, unless
            ``fresh``).
        fresh: with more than one item, each in a process of its own, forked from this
            one, even with one job (where forking is possible): what one item leaves in a
            library's state (MkDocs keeps its plugins from build to build) cannot reach the
            next.

    Returns:
        The results in the order of ``items``. An exception raised by ``fn`` in a worker is
        raised here as it was raised there.
    """
    count = workers(jobs, len(items))
    if fresh and len(items) > 1 and _can_fork():
        results: list[R] = []
        for start in range(0, len(items), count):
            pools = [_pool(1, fn, context) for _ in items[start : start + count]]
            try:
                futures = [
                    pool.submit(_run, item)
                    for pool, item in zip(pools, items[start : start + count], strict=True)
                ]
                results += [future.result() for future in futures]
            finally:
                for pool in pools:
                    pool.shutdown()
        return results
    if count == 1:
        return [fn(context, item) for item in items]
    with _pool(count, fn, context) as pool:
        return list(pool.map(_run, items))


def _pool(count: int, fn: Callable[[Any, Any], Any], context: Any) -> ProcessPoolExecutor:
    return ProcessPoolExecutor(
        max_workers=count,
        mp_context=multiprocessing.get_context("fork"),
        initializer=_receive,
        initargs=(fn, context, os.getpid()),
    )


def chunks(count: int, parts: int) -> list[range]:
    """``range(count)`` cut into ``parts`` runs of consecutive indices, as even as can be
    (fewer when there are fewer indices), in order."""
    parts = max(1, min(parts, count))
    size, extra = divmod(count, parts)
    out, start = [], 0
    for n in range(parts):
        end = start + size + (1 if n < extra else 0)
        out.append(range(start, end))
        start = end
    return [r for r in out if r]
