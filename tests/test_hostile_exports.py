"""Issue 48's hostile inputs for recordings and exports, each a named case: what
``konum check --record`` writes reads back, exports escape or refuse what their formats
reserve, and what is refused is refused with one line.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from konum.record import record_outputs
from konum.types import OutputQuestion
from tests import helpers

# --- konum check --record: every output reads back ------------------------------------------

#: Outputs a block scalar cannot hold as they are, by name: what the solution prints.
PRINTED = {
    "nul": "a\x00b",
    "escape": "\x1b[31mred\x1b[0m",
    "vertical-tab": "a\vb",
    "form-feed": "a\fb",
    "delete": "a\x7fb",
    "next-line": "a\x85b",
    "carriage-return": "a\rb",
    "line-separator": "a\u2028b",
    "paragraph-separator": "a\u2029b",
    "leading-tab": "\tindented",
    "leading-space": "   3\n  42",
    "trailing-spaces": "a   \nb",
    "blank-lines-inside": "a\n\n\nb",
    "byte-order-mark": "\ufeffa",
    "quote-and-hash": "\"a\" # not a comment: 'b'",
}


def _bank(printed: str) -> str:
    solution = f"import sys\nsys.stdout.write({printed!r})\n"
    return (
        "bank: progs\n"
        "title: Programs\n"
        "questions:\n"
        "  - id: prog-odd  # a comment that stays\n"
        "    type: output\n"
        "    prompt: Print it.\n"
        f"    solution: |\n{textwrap.indent(solution, '      ')}"
        "    explanation: It prints.\n"
    )


@pytest.mark.parametrize("printed", PRINTED.values(), ids=PRINTED.keys())
def test_a_recording_reads_back_as_printed(tmp_path: Path, printed: str) -> None:
    path = tmp_path / "progs.yml"
    path.write_text(_bank(printed), encoding="utf-8")
    assert record_outputs([path], tmp_path) == [str(path)]
    text = path.read_text(encoding="utf-8")
    assert "  - id: prog-odd  # a comment that stays\n" in text
    [question] = helpers.load_bank(path).questions  # as a build reads it: no program runs
    assert isinstance(question, OutputQuestion)
    assert question.expected == printed.replace("\r\n", "\n").rstrip("\n")
    assert record_outputs([path], tmp_path) == []  # and it is what the solution prints


def test_a_solution_that_prints_nothing_is_not_recorded(tmp_path: Path) -> None:
    path = tmp_path / "progs.yml"
    path.write_text(_bank(""), encoding="utf-8")
    before = path.read_bytes()
    assert record_outputs([path], tmp_path) == []
    assert path.read_bytes() == before
    report = helpers.check_banks([path], run_programs=True)
    [problem] = report.problems
    assert (problem.line, problem.question_id, problem.field) == (7, "prog-odd", "solution")
    assert "printed nothing" in problem.message


def test_a_recording_keeps_the_rest_of_the_file(tmp_path: Path) -> None:
    """Flow lists, quotes, a hash ruamel.yaml's round trip would turn into ``.inf``, CRLF
    line ends: only the new entry is new."""
    rest = (
        "  - id: other\n"
        "    type: choice\n"
        "    prompt: 'Which?'   # quoted\n"
        "    options: [\n"
        "      a, b]\n"
        "    answer: a\n"
        "    en: 27e56584\n"
    )
    path = tmp_path / "progs.yml"
    original = (_bank("x") + rest).replace("\n", "\r\n")
    path.write_bytes(original.encode("utf-8"))
    assert record_outputs([path], tmp_path) == [str(path)]
    text = path.read_bytes().decode("utf-8")
    assert text.endswith(rest.replace("\n", "\r\n"))
    assert text.startswith(original.split("    explanation:")[0])
    assert "\r\n    recorded:\r\n      solution: " in text and "\n\n" not in text
