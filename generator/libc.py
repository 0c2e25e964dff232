"""The C library, for the Linux calls Python does not wrap.

konum makes two: ``prctl(PR_SET_PDEATHSIG)`` in each forked worker
(:mod:`konum.workers`) and ``renameat2(RENAME_EXCHANGE)`` when it publishes a build
(:mod:`konum.build`).
"""

from __future__ import annotations

import ctypes
from functools import cache

__all__ = ["libc"]


@cache
def libc() -> ctypes.CDLL:
    """The C library's functions, with ``errno`` kept for :func:`ctypes.get_errno`.

    Loaded as the process's own symbols (``dlopen(NULL)``): the interpreter is linked
    against the C library, so nothing needs finding. ``ctypes.util.find_library("c")``
    would run ``ldconfig -p`` in a subprocess, 2-40 ms each time it is asked, and a build
    asked in four processes. A forked child inherits the loaded handle.
    """
    return ctypes.CDLL(None, use_errno=True)
