"""konum.programs: an output question's example program runs in its own bounded process.

Each refusal is checked by what the program would have done (a file it would have written,
a variable it would have read); the messages name the program's own line.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from konum.formatting import code_block
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
