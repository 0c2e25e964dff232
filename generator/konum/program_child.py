"""The child side of :func:`konum.programs.run_program`: run one example program, walled in
by the operating system.

Run as ``python -I -B -c <this file's text> SECONDS MEMORY OUTPUT`` with the program on
stdin, its stdout and stderr going to files, in an empty folder, in a process group of its
own, with a cleared environment and no other descriptor. In order:

1. resource limits (POSIX): CPU seconds, address space, bytes written to any file (stdout
   included), open files, no core file;
2. a network namespace of its own (Linux: ``unshare``, as root or in a user namespace), so
   there is no network to reach;
3. numpy is imported (it reads its files and starts no thread with one BLAS thread);
4. Landlock (Linux 5.13 and later): nothing written, created or removed anywhere, nothing
   read outside the folders Python and numpy load from and the system's libraries, no
   program executed, no TCP (Linux 6.7), no signal to a process outside (Linux 6.12);
5. a seccomp filter (through libseccomp, where installed): no new process (threads may
   start), no program executed, no socket, no tracing, no namespace or mount changes;
6. no new process (RLIMIT_NPROC 0, where the OS enforces it) and an audit hook (PEP 578)
   that reports a program's mistakes (a socket, a file written, ctypes) by name. The hook is
   not the wall: a program can reach around it, not around 1 to 5, which the kernel keeps;
7. the program runs as ``__main__``, compiled as ``<solution>``.

Each of 2, 4 and 5 is used where the system offers it and silently skipped where not
(another OS, an older kernel, a container that forbids it); :data:`WALLS` says which hold.

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
#: Files a program may have open at once (numpy's import needs a few).
OPEN_FILES = 64
#: Folders of the system's shared libraries, which Python's extension modules load from.
LIBRARY_FOLDERS = ("/lib", "/lib64", "/usr/lib", "/usr/lib64", "/usr/local/lib")


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
        ("RLIMIT_NOFILE", OPEN_FILES),
    ):
        kind = getattr(resource, name, None)
        if kind is not None:
            # CPU time: SIGXCPU at the limit (said as such), SIGKILL only a second later; at
            # one limit the kernel sends SIGKILL first, which reads as "out of memory".
            resource.setrlimit(kind, (value, value + 1 if name == "RLIMIT_CPU" else value))


def _no_new_processes() -> None:
    try:
        import resource
    except ImportError:
        return
    kind = getattr(resource, "RLIMIT_NPROC", None)
    if kind is not None:
        resource.setrlimit(kind, (0, 0))


# --- the walls the kernel keeps (Linux) ------------------------------------------------------

_CLONE_NEWUSER = 0x10000000
_CLONE_NEWNET = 0x40000000
_CLONE_THREAD = 0x00010000


def _libc() -> Any:
    import ctypes

    return ctypes.CDLL(None, use_errno=True)


def _own_network() -> bool:
    """A network namespace with nothing in it: as root directly, otherwise inside a user
    namespace of its own. Must run while the process has one thread."""
    if not sys.platform.startswith("linux"):
        return False
    libc = _libc()
    for flags in (_CLONE_NEWNET, _CLONE_NEWUSER | _CLONE_NEWNET):
        if libc.unshare(flags) == 0:
            return True
    return False


# Landlock's access rights (include/uapi/linux/landlock.h), by the ABI that added them.
_FS_ABI = ((1, 0b1_1111_1111_1111), (2, 1 << 13), (3, 1 << 14), (5, 1 << 15))
_FS_READ = (1 << 2) | (1 << 3)  # READ_FILE, READ_DIR
_NET_TCP = 0b11  # BIND_TCP, CONNECT_TCP (ABI 4)
_SCOPED = 0b11  # ABSTRACT_UNIX_SOCKET, SIGNAL (ABI 6)
_SYS_CREATE_RULESET, _SYS_ADD_RULE, _SYS_RESTRICT_SELF = 444, 445, 446
_PR_SET_NO_NEW_PRIVS = 38


def _landlock(readable: Sequence[str]) -> bool:
    """Forbid, for good: every change to the file system, reading outside ``readable``,
    executing programs, TCP and signals outside (each as far as the kernel's ABI goes)."""
    if not sys.platform.startswith("linux"):
        return False
    import ctypes

    libc = _libc()
    libc.syscall.restype = ctypes.c_long
    abi = libc.syscall(_SYS_CREATE_RULESET, None, ctypes.c_size_t(0), ctypes.c_uint32(1))
    if abi < 1:
        return False

    class Ruleset(ctypes.Structure):
        _fields_ = (("fs", ctypes.c_uint64), ("net", ctypes.c_uint64), ("scoped", ctypes.c_uint64))

    class PathBeneath(ctypes.Structure):
        _pack_ = 1
        _fields_ = (("allowed", ctypes.c_uint64), ("parent_fd", ctypes.c_int32))

    handled = 0
    for since, rights in _FS_ABI:
        handled |= rights if abi >= since else 0
    ruleset = Ruleset(handled, _NET_TCP if abi >= 4 else 0, _SCOPED if abi >= 6 else 0)
    size = ctypes.sizeof(Ruleset) if abi >= 6 else 16 if abi >= 4 else 8
    fd = libc.syscall(_SYS_CREATE_RULESET, ctypes.byref(ruleset), ctypes.c_size_t(size), 0)
    if fd < 0:
        return False
    try:
        for folder in readable:
            try:
                parent = os.open(folder, os.O_PATH | os.O_CLOEXEC)
            except OSError:
                continue
            rights = _FS_READ if os.path.isdir(folder) else 1 << 2
            rule = PathBeneath(rights, parent)
            libc.syscall(_SYS_ADD_RULE, fd, 1, ctypes.byref(rule), 0)
            os.close(parent)
        if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            return False
        return bool(libc.syscall(_SYS_RESTRICT_SELF, fd, 0) == 0)
    finally:
        os.close(fd)


#: Refused by the seccomp filter: new processes, programs, sockets, tracing, namespaces.
SECCOMP_REFUSED = (
    "fork",
    "vfork",
    "execve",
    "execveat",
    "socket",
    "socketpair",
    "ptrace",
    "process_vm_readv",
    "process_vm_writev",
    "unshare",
    "setns",
    "mount",
    "umount2",
    "pivot_root",
    "chroot",
    "keyctl",
    "add_key",
    "bpf",
    "perf_event_open",
    "io_uring_setup",
    "userfaultfd",
)


def _seccomp() -> bool:
    """Load a filter that answers EPERM to :data:`SECCOMP_REFUSED` and to ``clone`` without
    ``CLONE_THREAD``, and ENOSYS to ``clone3`` (so threads start through ``clone``)."""
    if not sys.platform.startswith("linux"):
        return False
    import ctypes

    try:
        lib = ctypes.CDLL("libseccomp.so.2")
    except OSError:
        return False

    class Compare(ctypes.Structure):
        _fields_ = (
            ("arg", ctypes.c_uint),
            ("op", ctypes.c_int),
            ("a", ctypes.c_uint64),
            ("b", ctypes.c_uint64),
        )

    lib.seccomp_init.restype = ctypes.c_void_p
    lib.seccomp_init.argtypes = (ctypes.c_uint32,)
    lib.seccomp_rule_add_array.argtypes = (
        ctypes.c_void_p,
        ctypes.c_uint32,
        ctypes.c_int,
        ctypes.c_uint,
        ctypes.POINTER(Compare),
    )
    lib.seccomp_load.argtypes = lib.seccomp_release.argtypes = (ctypes.c_void_p,)
    lib.seccomp_syscall_resolve_name.argtypes = (ctypes.c_char_p,)
    eperm, enosys = 0x00050000 | errno.EPERM, 0x00050000 | errno.ENOSYS
    context = lib.seccomp_init(0x7FFF0000)  # allow what no rule refuses
    if not context:
        return False
    try:
        rules: list[tuple[str, int, tuple[Compare, ...]]] = [
            (name, eperm, ()) for name in SECCOMP_REFUSED
        ]
        rules.append(("clone", eperm, (Compare(0, 7, _CLONE_THREAD, 0),)))  # MASKED_EQ 0
        rules.append(("clone3", enosys, ()))
        for name, action, compares in rules:
            number = lib.seccomp_syscall_resolve_name(name.encode())
            if number < 0:  # not on this architecture
                continue
            array = (Compare * max(1, len(compares)))(*compares)
            if lib.seccomp_rule_add_array(context, action, number, len(compares), array) != 0:
                return False
        return bool(lib.seccomp_load(context) == 0)
    finally:
        lib.seccomp_release(context)


#: Which of the kernel's walls :func:`main` put up around this run (a program may print it).
WALLS: dict[str, bool] = {}


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
    """The audit hook: raises PermissionError, naming it, for what an example program may not
    do. Its lists are its own copies (a program that rebinds this module's names changes
    nothing here), but it is a report of mistakes, not the wall: see the module docstring."""
    prefixes, events, imports = (
        tuple(BLOCKED_PREFIXES),
        frozenset(BLOCKED_EVENTS),
        frozenset(BLOCKED_IMPORTS),
    )
    roots = tuple(roots)

    def refuse(what: str) -> None:
        raise PermissionError(f"an example solution may not {what}")

    def hook(event: str, args: tuple[Any, ...]) -> None:
        if event.startswith(prefixes) or event in events:
            refuse(f"use {event} (no network, processes, native code or file changes)")
        elif event == "import" and args and args[0] in imports:
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


#: The most of a failure's message the report carries (a report is one line of a problem;
#: a whole message could also pass the output limit, and the report would be lost).
SHOWN = 200


def _fail(line: int | None, message: str) -> None:
    with contextlib.suppress(OSError):  # past the output limit: the rest is dropped
        sys.stdout.flush()
    if len(message) > SHOWN:
        message = f"{message[:SHOWN]}… ({len(message):,} characters)"
    sys.stderr.write("\n" + ERROR_MARK + json.dumps({"line": line, "message": message}) + "\n")
    sys.stderr.flush()
    os._exit(1)


def main(argv: Sequence[str]) -> None:
    seconds, memory, output = (int(a) for a in argv[:3])
    source = sys.stdin.read()
    _limit(seconds, memory, output)
    WALLS["network"] = _own_network()
    import numpy  # noqa: F401

    roots = sorted(
        {os.path.realpath(p) for p in sys.path if p and os.path.isdir(p)}
        | {os.path.realpath(os.getcwd())}
    )
    readable = [*roots, *LIBRARY_FOLDERS, "/etc/ld.so.cache", os.devnull]
    WALLS["landlock"] = _landlock(readable)
    WALLS["seccomp"] = _seccomp()
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
