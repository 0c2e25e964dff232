"""The child side of :func:`konum.programs.run_program`: run one example program, bounded.

Run as ``python -I -B -c <this file's text> SECONDS MEMORY OUTPUT`` with the program on
stdin, its stdout and stderr going to files, in an empty folder. In order:

1. resource limits (POSIX): CPU seconds, address space, bytes written to any file (stdout
   included), no core file;
2. numpy is imported (it reads its files and loads ctypes at import, before the guard);
3. no new process or thread (RLIMIT_NPROC 0, where the OS enforces it), and an audit hook
   (PEP 578) that refuses, for the rest of the process, sockets, new processes, ctypes
   calls, changes to files and folders, opening a file for writing and reading one outside
   the folders Python imports from;
4. the program runs as ``__main__``, compiled as ``<solution>``.

A failure ends the process with status 1 and, as the last line of stderr, ``ERROR_MARK``
then JSON ``{"line": N or null, "message": "..."}``: the program's line comes from the
innermost frame of ``<solution>``.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import sys
from collections.abc import Callable, Sequence
from types import TracebackType
from typing import Any

ERROR_MARK = "konum-program-error "
FILENAME = "<solution>"

#: Events refused whatever their arguments: the network, processes, native code, file changes.
BLOCKED_PREFIXES = (
    "socket.",
    "subprocess.",
    "os.exec",
    "os.spawn",
    "os.posix_spawn",
    "os.fork",
    "os.system",
    "os.kill",
    "os.startfile",
    "pty.",
    "ctypes.",
    "shutil.",
    "webbrowser.",
    "resource.setrlimit",
    "_winapi.",
    "winreg.",
)
BLOCKED_EVENTS = frozenset(
    {
        "os.remove",
        "os.rename",
        "os.rmdir",
        "os.mkdir",
        "os.chmod",
        "os.chown",
        "os.chflags",
        "os.link",
        "os.symlink",
        "os.truncate",
        "os.utime",
        "os.putenv",
        "os.unsetenv",
        "os.setxattr",
        "os.removexattr",
        "os.chdir",
    }
)
#: Modules that only reach processes from around the events above.
BLOCKED_IMPORTS = frozenset({"_posixsubprocess", "subprocess", "multiprocessing", "_winapi"})
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_TRUNC


def _limit(seconds: int, memory: int, output: int) -> None:
    try:
        import resource
    except ImportError:  # Windows: the parent's wall-clock limit still holds
        return
    for name, value in (
        ("RLIMIT_CPU", seconds),
        ("RLIMIT_AS", memory),
        ("RLIMIT_FSIZE", output),
        ("RLIMIT_CORE", 0),
    ):
        kind = getattr(resource, name, None)
        if kind is not None:
            resource.setrlimit(kind, (value, value))


def _no_new_processes() -> None:
    try:
        import resource
    except ImportError:
        return
    kind = getattr(resource, "RLIMIT_NPROC", None)
    if kind is not None:
        resource.setrlimit(kind, (0, 0))


def _inside(path: object, roots: Sequence[str]) -> bool:
    if isinstance(path, int):  # a descriptor already open (stdin, stdout)
        return True
    if isinstance(path, bytes):
        path = os.fsdecode(path)
    if not isinstance(path, str):
        return False
    real = os.path.realpath(path)
    return any(real == root or real.startswith(root + os.sep) for root in roots)


def guard(roots: Sequence[str]) -> Callable[[str, tuple[Any, ...]], None]:
    """The audit hook: raises PermissionError for what an example program may not do."""

    def refuse(what: str) -> None:
        raise PermissionError(f"an example solution may not {what}")

    def hook(event: str, args: tuple[Any, ...]) -> None:
        if event.startswith(BLOCKED_PREFIXES) or event in BLOCKED_EVENTS:
            refuse(f"use {event} (no network, processes, native code or file changes)")
        elif event == "import" and args and args[0] in BLOCKED_IMPORTS:
            refuse(f"import {args[0]}")
        elif event == "open":
            path, mode, flags = (*args, None, None, None)[:3]
            writing = (isinstance(mode, str) and any(c in mode for c in "wax+")) or (
                mode is None and isinstance(flags, int) and flags & _WRITE_FLAGS
            )
            if writing:
                refuse(f"write files (open {path!r})")
            if not _inside(path, roots):
                refuse(f"read files outside Python's own folders (open {path!r})")
        elif event in ("os.listdir", "os.scandir", "glob.glob") and args:
            folder = args[0] if args[0] is not None else "."
            if not _inside(folder, roots):
                refuse(f"list folders outside Python's own ({folder!r})")

    return hook


def _line(tb: TracebackType | None) -> int | None:
    line = None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == FILENAME:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def _described(exc: BaseException) -> str:
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _fail(line: int | None, message: str) -> None:
    with contextlib.suppress(OSError):  # past the output limit: the rest is dropped
        sys.stdout.flush()
    sys.stderr.write("\n" + ERROR_MARK + json.dumps({"line": line, "message": message}) + "\n")
    sys.stderr.flush()
    os._exit(1)


def main(argv: Sequence[str]) -> None:
    seconds, memory, output = (int(a) for a in argv[:3])
    source = sys.stdin.read()
    _limit(seconds, memory, output)
    import numpy  # noqa: F401

    roots = sorted(
        {os.path.realpath(p) for p in sys.path if p and os.path.isdir(p)}
        | {os.path.realpath(os.getcwd())}
    )
    _no_new_processes()
    # Some numpy versions import subprocess themselves: forgotten here, a solution's own
    # import of it is a real import, which the guard sees and refuses.
    for name in [m for m in sys.modules if m.split(".")[0] in BLOCKED_IMPORTS]:
        del sys.modules[name]
    sys.addaudithook(guard(roots))
    try:
        code = compile(source, FILENAME, "exec")
    except SyntaxError as exc:
        _fail(exc.lineno, f"SyntaxError: {exc.msg}")
        return
    try:
        try:
            exec(code, {"__name__": "__main__", "__builtins__": __builtins__})
        finally:
            sys.stdout.flush()  # a write past the output limit fails here at the latest
    except SystemExit as exc:
        if exc.code not in (None, 0):
            _fail(_line(exc.__traceback__), f"it exited with status {exc.code}")
    except OSError as exc:
        if exc.errno != errno.EFBIG:
            _fail(_line(exc.__traceback__), _described(exc))
        _fail(_line(exc.__traceback__), f"it printed more than {output // 1024} KB")
    except BaseException as exc:  # everything the program raised is its failure
        _fail(_line(exc.__traceback__), _described(exc))


if __name__ == "__main__":
    main(sys.argv[1:])
