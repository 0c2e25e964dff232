"""konum.programs: an output question's example program runs in its own bounded process.

Each refusal is checked by what the program would have done (a file it would have written,
a variable it would have read); the messages name the program's own line.
"""

from __future__ import annotations

import ast
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from konum.formatting import code_block
from konum.program_child import OPEN_FILES
from konum.programs import OUTPUT, ProgramError, run_program


def failure(source: str, seconds: float = 5) -> ProgramError:
    with pytest.raises(ProgramError) as caught:
        run_program(source, seconds)
    return caught.value


def test_what_the_program_prints_with_numpy() -> None:
    source = "import numpy as np\n\nprint(np.arange(3))\nprint(np.zeros((4, 6)).shape)\n\n"
    assert run_program(source) == "[0 1 2]\n(4, 6)"


def test_errors_name_the_program_line() -> None:
    error = failure("a = 1\nb = 0\nprint(a / b)\n")
    assert (error.line, error.message) == (3, "ZeroDivisionError: division by zero")
    assert str(error) == "line 3: ZeroDivisionError: division by zero"
    syntax = failure("x = 1\ny = (\n")
    assert syntax.line == 2 and syntax.message.startswith("SyntaxError: ")
    inner = failure("def f():\n    return undefined\n\nf()\n")
    assert inner.line == 2 and "NameError" in inner.message  # the innermost line of its own


def test_a_non_zero_exit_fails_and_zero_does_not() -> None:
    assert failure("import sys\nprint(1)\nsys.exit(3)\n").message == "it exited with status 3"
    assert run_program("import sys\nprint('done')\nsys.exit(0)\n") == "done"


def test_a_program_that_runs_too_long_is_stopped() -> None:
    error = failure("while True:\n    pass\n", seconds=1)
    assert error.line is None and error.message in (
        "it ran longer than 1 s",
        "it used more than 1 s of CPU time",
    )


@pytest.mark.skipif(not hasattr(signal, "SIGXCPU"), reason="POSIX CPU-time limits")
def test_a_program_at_its_cpu_limit_is_said_to_have_used_it() -> None:
    """The child alone, no wall-clock limit (as when the parent is too busy to see its
    timeout): the CPU limit stops it with SIGXCPU, said as CPU time, not as a kill."""
    from konum import programs

    child = [sys.executable, "-I", "-B", "-c", programs._CHILD, "1"]
    done = subprocess.run(
        [*child, str(programs.MEMORY), str(programs.OUTPUT)],
        input=b"while True:\n    pass\n",
        capture_output=True,
        env=programs.child_environment(),
        timeout=60,
        check=False,
    )
    assert done.returncode == -signal.SIGXCPU
    failed = programs._failure(done.returncode, done.stderr.decode(), 1)
    assert failed.message == "it used more than 1 s of CPU time"


def test_output_and_memory_are_bounded() -> None:
    big = failure(f"print('x' * {OUTPUT + 1})\n")
    assert big.message == f"it printed more than {OUTPUT // 1024} KB"
    lines = failure("for i in range(100_000):\n    print(i)\n")
    assert lines.message == big.message and lines.line in (2, None)  # None: at the last flush
    memory = failure("block = bytearray(3 * 1024**3)\n")
    assert (memory.line, memory.message) == (1, "MemoryError")


@pytest.mark.parametrize(
    ("source", "refused"),
    [
        ("import socket\nsocket.create_connection(('127.0.0.1', 9))\n", "socket."),
        ("import os\nos.system('true')\n", "os.system"),
        ("import os\nos.fork()\n", "os.fork"),
        ("import subprocess\n", "import subprocess"),
        ("import ctypes\nctypes.CDLL(None)\n", "ctypes.dlopen"),
        ("import os\nos.remove('/tmp/anything')\n", "os.remove"),
        ("print(open('/etc/hostname').read())\n", "read files outside"),
        ("import numpy as np\nnp.save('/tmp/x.npy', np.zeros(2))\n", "write files"),
    ],
)
def test_the_guard_refuses_network_processes_native_code_and_files(
    source: str, refused: str
) -> None:
    error = failure(source)
    assert error.message.startswith("PermissionError: an example solution may not")
    assert refused in error.message
    assert error.line == source.count("\n")  # the program's last line did it


def test_no_file_is_written_anywhere(tmp_path: Path) -> None:
    target = tmp_path / "written.txt"
    error = failure(f"with open({str(target)!r}, 'w') as f:\n    f.write('x')\n")
    assert error.line == 1 and "write files" in error.message
    assert not target.exists()


def test_the_program_sees_none_of_the_build_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KONUM_TEST_SECRET", "do-not-leak")
    names = run_program("import os\nprint(' '.join(sorted(os.environ)))\n").split()
    assert "KONUM_TEST_SECRET" not in names and "HOME" not in names
    assert set(names) <= {
        "PATH",
        "LC_ALL",
        "LC_CTYPE",
        "PYTHONIOENCODING",
        "OPENBLAS_NUM_THREADS",
        "OMP_NUM_THREADS",
        "MKL_NUM_THREADS",
        "SYSTEMROOT",
    }


def test_it_runs_in_an_empty_folder_of_its_own() -> None:
    folder, entries = run_program("import os\nprint(os.getcwd())\nprint(os.listdir('.'))\n").split(
        "\n"
    )
    assert entries == "[]" and Path(folder) != Path.cwd()
    assert not Path(folder).exists()  # removed after the run


def test_results_are_cached_per_text() -> None:
    source = "import random\nprint(random.random())\n"
    assert run_program(source) == run_program(source)
    assert run_program(source + "\n") != run_program(source)


def test_code_block_fences_outlast_the_code() -> None:
    assert code_block("print(1)\n") == "```python\nprint(1)\n```"
    assert code_block("s = '````'") == "`````python\ns = '````'\n`````"


@pytest.mark.skipif(os.name != "posix", reason="process groups are POSIX")
def test_what_the_program_started_dies_with_it() -> None:
    # No process can start (the guard), so a timeout leaves nothing behind either way.
    error = failure("import time\ntime.sleep(30)\n", seconds=1)
    assert error.message == "it ran longer than 1 s"


# --- the walls the kernel keeps --------------------------------------------------------------

#: What a hostile solution can do to the audit hook: empty its lists, allow every path and
#: make its refusal a no-op (closure cells are writable). The kernel's walls must still hold.
DISARM = """\
import gc, __main__
__main__._inside = lambda *a: True
for f in gc.get_objects():
    if getattr(f, "__name__", "") == "hook" and getattr(f, "__closure__", None):
        for cell in f.__closure__:
            v = cell.cell_contents
            if callable(v):
                cell.cell_contents = lambda *a: None
            elif isinstance(v, tuple):
                cell.cell_contents = ("/",) if v and v[0].startswith("/") else ("\\0",)
            elif isinstance(v, frozenset):
                cell.cell_contents = frozenset()
"""


def _walls() -> dict[str, bool]:
    return dict(ast.literal_eval(run_program("import __main__\nprint(__main__.WALLS)\n")))


@pytest.fixture(scope="module")
def walls() -> dict[str, bool]:
    found = _walls()
    if not sys.platform.startswith("linux"):
        pytest.skip("the kernel's walls are Linux's")
    missing = [name for name, up in found.items() if not up]
    if missing:
        pytest.skip(f"this system does not offer: {', '.join(missing)}")
    return found


def test_a_disarmed_guard_lets_the_program_past_itself(walls: dict[str, bool]) -> None:
    """The disarming works: what the hook refused (importing subprocess) now imports."""
    assert run_program(DISARM + "import subprocess\nprint('imported')\n") == "imported"


@pytest.mark.parametrize(
    ("attack", "effect"),
    [
        ("import os\nos.system('id > {out}/system')\n", "system"),
        ("import ctypes\nctypes.CDLL(None).system(b'id > {out}/ctypes')\n", "ctypes"),
        ("import subprocess\nsubprocess.run(['touch', '{out}/run'])\n", "run"),
        ("import os\nif os.fork() == 0:\n    open('{out}/fork', 'w')\n", "fork"),
        ("open('{out}/written', 'w').write('x')\n", "written"),
        ("import sqlite3\nsqlite3.connect('{out}/db').execute('create table t(x)')\n", "db"),
        ("import socket\nsocket.create_connection(('127.0.0.1', {port}))\n", None),
        ("print(open('{secret}').read())\n", None),
        ("import os\nprint(os.listdir('{out}'))\n", None),
    ],
)
def test_the_kernel_walls_hold_when_the_guard_is_disarmed(
    walls: dict[str, bool], tmp_path: Path, attack: str, effect: str | None
) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("uid-of-the-builder", encoding="utf-8")
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        source = DISARM + attack.format(out=tmp_path, port=server.getsockname()[1], secret=secret)
        try:  # os.system() returns a status rather than raising
            seen = run_program(source)
        except ProgramError as error:
            assert error.line is not None and error.line > DISARM.count("\n")
            seen = error.message
        server.setblocking(False)
        with pytest.raises(BlockingIOError):
            server.accept()  # nobody connected
    assert "uid-of-the-builder" not in seen and "uid=" not in seen
    assert sorted(p.name for p in tmp_path.iterdir()) == ["secret.txt"], effect


def test_an_appended_source_file_is_refused(walls: dict[str, bool], tmp_path: Path) -> None:
    lesson = tmp_path / "index.md"
    lesson.write_text("# Home\n", encoding="utf-8")
    error = failure(DISARM + f"open({str(lesson)!r}, 'a').write('pwned')\n")
    assert "Permission denied" in error.message
    assert lesson.read_text(encoding="utf-8") == "# Home\n"


def test_no_descriptor_of_konum_reaches_the_program(tmp_path: Path) -> None:
    kept = tmp_path / "kept.txt"
    with kept.open("w") as handle:
        os.set_inheritable(handle.fileno(), True)
        source = f"import os\nos.fstat({handle.fileno()})\n"
        error = failure(source)
    assert error.line == 2 and "Bad file descriptor" in error.message


def test_open_files_are_bounded() -> None:
    error = failure(
        f"import os\nfiles = [os.open('.', os.O_RDONLY) for _ in range({OPEN_FILES})]\n"
    )
    assert error.line == 2 and "Too many open files" in error.message


@pytest.mark.parametrize(
    ("line", "status"),
    [
        (b"konum-program-error {not json", 2),
        (b"konum-program-error [1, 2]", 4),
        (b'konum-program-error {"message": 3, "line": "x"}', 3),
    ],
)
def test_a_forged_error_line_is_the_programs_failure(line: bytes, status: int) -> None:
    written = line + b"\n"
    error = failure(f"import os\nos.write(2, {written!r})\nos._exit({status})\n")
    assert error.line is None
    assert error.message == f"it failed with status {status}: {line.decode()}"
