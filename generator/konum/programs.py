"""Example programs of ``output`` questions: run in a separate process walled in by the
operating system, and shown as code.

An output question's ``solution`` is a Python program (numpy available), that is, code:
konum runs it only where the site opted in (``konum check --record`` and ``--run-programs``,
or ``run_programs: true``); every other build uses the recorded output. :func:`run_program`
runs one as ``python -I -B -c <konum.program_child> ...``, by konum's own interpreter:

* apart: a new process group and session, an empty temporary folder, a cleared environment
  (:func:`child_environment`: none of the build's variables, so no tokens or home folder), no
  descriptor but its stdin (the program), stdout and stderr (files);
* bounded: :data:`SECONDS` of wall-clock time (then its process group is killed) and of CPU,
  :data:`MEMORY` bytes of address space, :data:`OUTPUT` bytes written (stdout included),
  a few open files, no new process (POSIX resource limits; elsewhere the wall clock alone);
* walled in by the kernel where it offers it (Linux): a network namespace with nothing in
  it, Landlock (no file written anywhere, nothing read outside Python's and the system's
  library folders, nothing executed, no TCP, no signals out) and a seccomp filter (no new
  process, no program, no socket): :mod:`konum.program_child` says which and how. Its audit
  hook then only names a program's mistakes.

A failure is a :class:`ProgramError` carrying the program's line when there is one.
"""

from __future__ import annotations

import functools
import json
import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

from konum.errors import KonumError
from konum.program_child import ERROR_MARK, SHOWN

#: Wall-clock and CPU seconds an example program may take.
SECONDS = 10
#: Bytes of address space (numpy and its BLAS need about 300 MB of it at import).
MEMORY = 2 * 1024**3
#: Bytes an example program may print (and write to stderr).
OUTPUT = 64 * 1024
#: Characters of an example program (it is shown as a code block, within Markdown's limits).
MAX_CHARS = 4_000

_CHILD = Path(__file__).with_name("program_child.py").read_text(encoding="utf-8")
_SIGNALS = {
    getattr(signal, "SIGXCPU", None): "it used more than {cpu} s of CPU time",
    getattr(signal, "SIGKILL", None): "it was killed (out of memory?)",
}


class ProgramError(KonumError):
    """An example program failed, ran too long or did what it may not.

    Attributes:
        message: What went wrong, e.g. ``ZeroDivisionError: division by zero``.
        line: The program's line (1-based) where it failed, or None.
    """

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(f"line {line}: {message}" if line else message)
        self.message = message
        self.line = line

    def __reduce__(self) -> tuple[type[ProgramError], tuple[str, int | None]]:
        return (type(self), (self.message, self.line))


def child_environment() -> dict[str, str]:
    """The whole environment of an example program: a path, UTF-8, one BLAS thread."""
    env = {
        "PATH": os.defpath,
        "LC_ALL": "C.UTF-8",
        "PYTHONIOENCODING": "utf-8",
        "OPENBLAS_NUM_THREADS": "1",
        "OMP_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
    }
    if os.name == "nt":  # Python cannot start on Windows without it
        env["SYSTEMROOT"] = os.environ.get("SYSTEMROOT", r"C:\Windows")
    return env


def _stop(process: subprocess.Popen[bytes]) -> None:
    """Kill the program and anything it started (its own process group on POSIX)."""
    try:
        if os.name == "posix":
            os.killpg(process.pid, signal.SIGKILL)
        else:
            process.kill()
    except (ProcessLookupError, PermissionError):
        pass
    process.wait()


def _report(line: str) -> ProgramError | None:
    """The child's report on one stderr line; None when the line is not one (a program may
    print anything to stderr, a line that merely looks like a report too)."""
    try:
        report = json.loads(line[len(ERROR_MARK) :])
    except ValueError:
        return None
    if not isinstance(report, dict) or not isinstance(report.get("message"), str):
        return None
    number = report.get("line")
    valid = isinstance(number, int) and not isinstance(number, bool) and number > 0
    return ProgramError(report["message"], number if valid else None)


def _failure(returncode: int, stderr: str, cpu: int = SECONDS) -> ProgramError:
    for line in reversed(stderr.splitlines()):
        if line.startswith(ERROR_MARK) and (report := _report(line)) is not None:
            return report
    if returncode < 0 and -returncode in _SIGNALS:
        return ProgramError(_SIGNALS[-returncode].format(cpu=cpu))
    last = next((line for line in reversed(stderr.splitlines()) if line.strip()), "")
    if len(last) > SHOWN:  # a message is one line of a report, not the program's whole stderr
        last = f"{last[:SHOWN]}… ({len(last):,} characters)"
    return ProgramError(f"it failed with status {returncode}" + (f": {last}" if last else ""))


@functools.lru_cache(maxsize=256)
def run_program(source: str, seconds: float = SECONDS) -> str:
    """Run the Python program ``source`` in a bounded process (see the module docstring).

    Args:
        source: The program's text.
        seconds: Wall-clock (and CPU) seconds it may take.

    Returns:
        What it printed, newlines as ``\\n``, without the final newline(s). Cached per text.

    Raises:
        ProgramError: it raised, exited with a non-zero status, printed too much, ran out of
            time or memory, or tried what the guard refuses; with its line when known.
    """
    cpu = max(1, int(seconds + 0.999))
    with tempfile.TemporaryDirectory(prefix="konum-program-") as folder:
        home = Path(folder)
        (home / "run").mkdir()
        out_path, err_path = home / "stdout", home / "stderr"
        with out_path.open("wb") as out, err_path.open("wb") as err:
            process = subprocess.Popen(
                [sys.executable, "-I", "-B", "-c", _CHILD, str(cpu), str(MEMORY), str(OUTPUT)],
                stdin=subprocess.PIPE,
                stdout=out,
                stderr=err,
                cwd=home / "run",
                env=child_environment(),
                start_new_session=True,
                close_fds=True,
            )
            try:
                process.communicate(source.encode("utf-8"), timeout=seconds)
            except subprocess.TimeoutExpired:
                _stop(process)
                raise ProgramError(f"it ran longer than {seconds:g} s") from None
        stdout = out_path.read_bytes().decode("utf-8", errors="replace")
        stderr = err_path.read_bytes().decode("utf-8", errors="replace")
    if process.returncode != 0:
        raise _failure(process.returncode, stderr, cpu)
    return stdout.replace("\r\n", "\n").rstrip("\n")
