"""How a build paces CPython's cyclic garbage collector.

A build allocates millions of container objects that live until it ends: the banks' models,
the drawn variants, the render caches' entries, the flashcards, MkDocs' pages. With the
default thresholds (700, 10, 10) CPython runs a young collection every 700 net allocations
and a full one each time the survivors have grown by a quarter, and every full collection
walks the whole heap again: at 10,000 questions that was about 4 s of a build's 23 s of CPU,
to find the few reference cycles a build makes (MkDocs' page objects, tracebacks).
:func:`paced` collects less often for the duration of a build, as mypy does
(``gc.set_threshold(200 * 1000, 30, 30)``), and lets the build freeze what it keeps to its
end once it has it (:meth:`Pace.hold`). :func:`frozen_for_fork` keeps a forked child's
collections off what it inherits, as the :mod:`gc` documentation advises for ``fork()``
without ``exec()``: a child that walked those objects would also write to their headers and
copy the parent's pages.

Nothing here changes what is built; only when memory is reclaimed.
"""

from __future__ import annotations

import contextlib
import gc
import os
from collections.abc import Iterator

__all__ = ["BUILD_THRESHOLDS", "Pace", "frozen_for_fork", "paced"]

#: Young collections every 200,000 net allocations; older ones every 30 of the one below.
BUILD_THRESHOLDS = (200_000, 30, 30)


class Pace:
    """What :func:`paced` yields: :meth:`hold` freezes what the build keeps to its end."""

    def __init__(self) -> None:
        # A process that froze objects itself is left alone: unfreezing would undo that.
        self._may_freeze = gc.get_freeze_count() == 0
        self.holding = False

    def hold(self) -> None:
        """Freeze every object the collector tracks now, until the paced block ends. For a
        point where the build holds what it keeps to the end (every bank's quiz and
        flashcards, once received): no later collection walks them again. Cycles among
        them that became garbage meanwhile wait for the end of the block."""
        if self._may_freeze:
            gc.freeze()
            self.holding = True


@contextlib.contextmanager
def paced(thresholds: tuple[int, int, int] = BUILD_THRESHOLDS) -> Iterator[Pace]:
    """Run the block with the collector's ``thresholds``; the previous ones are restored
    afterwards (``konum serve`` and the tests build many times in one process), and what
    :meth:`Pace.hold` froze is thawed."""
    previous = gc.get_threshold()
    gc.set_threshold(*thresholds)
    pace = Pace()
    try:
        yield pace
    finally:
        if pace.holding:
            gc.unfreeze()
        gc.set_threshold(*previous)


@contextlib.contextmanager
def frozen_for_fork() -> Iterator[None]:
    """Freeze every object the collector tracks while the block forks a child: the child
    keeps them frozen (they are the parent's state, and it lives only for the build), this
    process thaws them on the way out. A process that froze objects itself is left as it is:
    thawing would undo its freeze."""
    if gc.get_freeze_count():
        yield
        return
    parent = os.getpid()
    gc.freeze()
    try:
        yield
    finally:
        if os.getpid() == parent:
            gc.unfreeze()
