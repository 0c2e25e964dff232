"""Every program a lesson shows runs with numpy alone and prints what the page says it prints.

The convention the lessons follow (content/authoring.md may point here):

* A fenced block with the language ``python`` is a program the reader can run. Blocks in the
  body of a page run in page order in one Python process, like cells of a notebook: a block
  may use what earlier blocks of the *same page* defined, never another page's. A block inside
  a collapsible example solution (``??? example "..."``) is a complete program and runs alone.
* A block's output is the fenced ``text`` block that follows it with only blank lines between
  (usually written ```` ```text title="Output" ````). Its content may be computed with
  ``{{ ... }}`` from the PE core or written by hand; either way this test compares it, line by
  line, with what the program prints. A ``python`` block with no output block must print
  nothing.
* The output block is what the program prints, character for character: numpy's
  ``[0. 1. 0. 1.]`` and its column padding ``[0.841 0.54  0.046]``, Python's ``16.0``. Only
  spaces at the end of a line and blank lines at the end do not count. Pages compute an
  output with ``{{ printed(x, decimals) }}`` (the course's values), which prints as numpy and
  Python do; ``fmt`` and ``vec`` are for prose.
* The programs may import numpy and the standard library only; konum is not available to them.

The page text is taken after konum's ``{{ ... }}`` pass (the ``konum.values`` extension,
configured as in mkdocs.yml), which is what the built page shows.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import markdown
import pytest
from markdown.preprocessors import Preprocessor

REPO = Path(__file__).resolve().parent.parent
LESSONS = sorted((REPO / "content" / "lessons").glob("*.md"))
TIMEOUT = 180  # seconds per process; the machine is shared

FENCE = re.compile(r"^(?P<indent> *)(?P<fence>`{3,}|~{3,}) *(?P<lang>[\w+.-]*)(?P<attrs>.*)$")
EXAMPLE = re.compile(r"^ *\?{3}\+? +example\b")
SEPARATOR = "\x1e konum block end \x1e"


@dataclass(frozen=True)
class Block:
    """A fenced block of a rendered page: ``line`` is 1-based in the rendered text."""

    line: int
    lang: str
    code: str
    standalone: bool
    output: str | None = None


# --- reading pages ---------------------------------------------------------------------------


class _Capture(Preprocessor):
    def __init__(self, md: markdown.Markdown) -> None:
        super().__init__(md)
        self.lines: list[str] = []

    def run(self, lines: list[str]) -> list[str]:
        self.lines = list(lines)
        return lines


@lru_cache(maxsize=1)
def _values_config() -> dict[str, object]:
    from mkdocs.config import load_config

    config = load_config(str(REPO / "mkdocs.yml"))
    return dict(config["mdx_configs"].get("konum", {}))


def rendered(page: Path) -> str:
    """``page`` after the ``{{ ... }}`` pass, before any other Markdown processing."""
    md = markdown.Markdown(
        extensions=["konum.values"],
        extension_configs={"konum.values": _values_config()},
    )
    capture = _Capture(md)
    md.preprocessors.register(capture, "capture_after_values", 28)
    lines = page.read_text(encoding="utf-8").split("\n")
    for preprocessor in md.preprocessors:
        lines = preprocessor.run(lines)
        if preprocessor is capture:
            break
    return "\n".join(capture.lines)


def fenced_blocks(text: str) -> list[Block]:
    """The fenced blocks of ``text`` with their outputs attached (see the module docstring)."""
    lines = text.split("\n")
    raw: list[tuple[int, int, str, str, bool]] = []  # start, end, lang, code, standalone
    i = 0
    while i < len(lines):
        opened = FENCE.match(lines[i])
        if not opened:
            i += 1
            continue
        indent, fence = opened["indent"], opened["fence"]
        closing = re.compile(rf"^{indent}{re.escape(fence[0])}{{{len(fence)},}} *$")
        end = i + 1
        while end < len(lines) and not closing.match(lines[end]):
            end += 1
        body = [
            line[len(indent) :] if line.startswith(indent) else line.lstrip()
            for line in lines[i + 1 : end]
        ]
        raw.append((i, end, opened["lang"], "\n".join(body), _in_example(lines, i, len(indent))))
        i = end + 1
    blocks: list[Block] = []
    skip = set()
    for n, (start, end, lang, code, standalone) in enumerate(raw):
        if n in skip:
            continue
        output = None
        if lang == "python" and n + 1 < len(raw):
            nxt = raw[n + 1]
            between = lines[end + 1 : nxt[0]]
            if nxt[2] == "text" and all(not line.strip() for line in between):
                output = nxt[3]
                skip.add(n + 1)
        blocks.append(Block(start + 1, lang, code, standalone, output))
    return blocks


def _in_example(lines: list[str], index: int, indent: int) -> bool:
    """Whether the fence at ``lines[index]`` sits inside a ``??? example`` block."""
    for line in reversed(lines[:index]):
        if not line.strip():
            continue
        own = len(line) - len(line.lstrip(" "))
        if own < indent:
            if EXAMPLE.match(line):
                return True
            indent = own
            if own == 0:
                return False
    return False


# --- comparing outputs -----------------------------------------------------------------------


def _lines(text: str) -> list[str]:
    return [line.rstrip() for line in text.rstrip().split("\n")] if text.strip() else []


def output_difference(shown: str, printed: str) -> str | None:
    """Why ``printed`` is not the output ``shown`` on the page (None when it is)."""
    want, got = _lines(shown), _lines(printed)
    for number, (a, b) in enumerate(zip(want, got, strict=False), start=1):
        if a != b:
            return f"output line {number}: the page shows {a!r}, the code prints {b!r}"
    if len(want) != len(got):
        extra = got[len(want)] if len(got) > len(want) else want[len(got)]
        return (
            f"the page shows {len(want)} output line(s), the code prints {len(got)} "
            f"(first unmatched: {extra.strip()!r})"
        )
    return None


# --- running ---------------------------------------------------------------------------------

RUNNER = textwrap.dedent(
    """
    import importlib.abc, json, sys, traceback

    ALLOWED = set(sys.stdlib_module_names) | {"numpy"}

    class NumpyOnly(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.partition(".")[0] not in ALLOWED:
                raise ModuleNotFoundError(
                    f"lesson code may import numpy and the standard library only, not {name!r}"
                )
            return None

    sys.meta_path.insert(0, NumpyOnly())
    blocks = json.load(open(sys.argv[1], encoding="utf-8"))
    namespace = {"__name__": "__main__"}
    for index, (where, code) in enumerate(blocks):
        try:
            exec(compile(code, where, "exec"), namespace)
        except BaseException:
            sys.stdout.flush()
            traceback.print_exc()
            sys.exit(3)
        sys.stdout.write(SEPARATOR)
        sys.stdout.flush()
    """
).replace("SEPARATOR", repr(SEPARATOR))


def run_blocks(blocks: list[tuple[str, str]], tmp: Path) -> list[str]:
    """Run ``(label, code)`` blocks in one process; the stdout of each, in order.

    Fails the test with the label of the block that raised or timed out.
    """
    (tmp / "runner.py").write_text(RUNNER, encoding="utf-8")
    (tmp / "blocks.json").write_text(json.dumps(blocks), encoding="utf-8")
    try:
        result = subprocess.run(
            [sys.executable, "-I", str(tmp / "runner.py"), str(tmp / "blocks.json")],
            cwd=tmp,
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
            check=False,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"{blocks[0][0]}...: did not finish in {TIMEOUT} s")
    outputs = result.stdout.split(SEPARATOR)
    if result.returncode != 0:
        failed = blocks[len(outputs) - 1][0]
        pytest.fail(f"{failed} raised:\n{result.stderr}")
    return outputs[: len(blocks)]


def _label(page: Path, block: Block) -> str:
    return f"{page.relative_to(REPO)}, the block at rendered line {block.line}"


def _check(page: Path, pairs: list[Block], tmp: Path) -> list[str]:
    printed = run_blocks([(_label(page, b), b.code) for b in pairs], tmp)
    problems = []
    for block, out in zip(pairs, printed, strict=True):
        why = output_difference(block.output or "", out)
        if why:
            shown = "no output block" if block.output is None else "its output block"
            problems.append(f"{_label(page, block)} ({shown}): {why}")
    return problems


# --- the tests -------------------------------------------------------------------------------


@pytest.mark.parametrize("page", LESSONS, ids=lambda p: p.stem)
def test_lesson_body_runs_and_prints_what_the_page_shows(page: Path, tmp_path: Path) -> None:
    body = [b for b in fenced_blocks(rendered(page)) if b.lang == "python" and not b.standalone]
    assert body, f"{page.name} has no runnable code block"
    assert _check(page, body, tmp_path) == []


@pytest.mark.parametrize("page", LESSONS, ids=lambda p: p.stem)
def test_example_solutions_run_alone_and_print_what_the_page_shows(
    page: Path, tmp_path: Path
) -> None:
    solutions = [b for b in fenced_blocks(rendered(page)) if b.lang == "python" and b.standalone]
    assert solutions, f"{page.name} has no example solution"
    problems = []
    for n, block in enumerate(solutions):
        folder = tmp_path / str(n)
        folder.mkdir()
        problems += _check(page, [block], folder)
    assert problems == []


@pytest.mark.parametrize("page", ["index.md", "tr/index.md"])
def test_the_home_page_shows_only_outputs_its_programs_print(page: str, tmp_path: Path) -> None:
    """The home page promises that every program prints exactly its Output: it holds it too."""
    path = REPO / "content" / page
    blocks = fenced_blocks(rendered(path))
    programs = [b for b in blocks if b.lang == "python"]
    assert [b.line for b in blocks if b.lang == "text"] == []
    assert (_check(path, programs, tmp_path) if programs else []) == []


def test_text_blocks_follow_a_program() -> None:
    """A ``text`` block right after a program is its output; one anywhere else in a lesson is
    most likely an output whose program moved away."""
    for page in LESSONS:
        text = rendered(page)
        blocks = fenced_blocks(text)
        outputs = sum(b.output is not None for b in blocks)
        loose = [b.line for b in blocks if b.lang == "text"]
        assert loose == [], f"{page.name}: text blocks at rendered lines {loose} follow no program"
        assert outputs, f"{page.name} shows no output of any program"


# --- the machinery itself --------------------------------------------------------------------


def test_blocks_outputs_and_example_solutions_are_recognised() -> None:
    text = textwrap.dedent(
        """\
        Some prose.

        ```python
        print(1)
        ```

        ```text title="Output"
        1
        ```

        ```python
        x = 2
        ```

        ??? example "Example solution"
            ```python
            print(3)
            ```
            ```text
            3
            ```
        """
    )
    first, second, third = fenced_blocks(text)
    assert (first.code, first.output, first.standalone) == ("print(1)", "1", False)
    assert (second.code, second.output, second.standalone) == ("x = 2", None, False)
    assert (third.code, third.output, third.standalone) == ("print(3)", "3", True)


@pytest.mark.parametrize(
    ("shown", "printed"),
    [
        ("[0. 1. 0. 1.]", "[0. 1. 0. 1.]"),
        ("[0.841 0.54  0.046]", "[0.841 0.54  0.046]"),
        ("(4, 6)  \n", "(4, 6)\n\n"),
        ("True False", "True False"),
    ],
)
def test_outputs_that_agree(shown: str, printed: str) -> None:
    assert output_difference(shown, printed) is None


@pytest.mark.parametrize(
    ("shown", "printed", "why"),
    [
        ("[0 1 0 1]", "[0. 1. 0. 1.]", "output line 1"),
        ("[0.841 0.54 0.046]", "[0.841 0.54  0.046]", "output line 1"),
        ("16.000", "16.0", "output line 1"),
        ("0.540", "0.54", "output line 1"),
        ("0.841", "0.8415", "output line 1"),
        ("True", "False", "output line 1"),
        ("1\n2", "1", "2 output line(s), the code prints 1"),
        ("", "hello", "0 output line(s), the code prints 1"),
    ],
)
def test_outputs_that_differ(shown: str, printed: str, why: str) -> None:
    difference = output_difference(shown, printed)
    assert difference is not None and why in difference


def test_lesson_code_cannot_import_konum(tmp_path: Path) -> None:
    with pytest.raises(pytest.fail.Exception, match="numpy and the standard library only"):
        run_blocks([("a block", "from konum import pe")], tmp_path)


def test_numpy_and_the_standard_library_are_available(tmp_path: Path) -> None:
    assert run_blocks([("a", "import math, numpy as np\nprint(np.arange(3))")], tmp_path) == [
        "[0 1 2]\n"
    ]


# --- what the lessons' programs compute, against references (issue 44) -----------------------


def _body_then(page: str, check: str, tmp: Path) -> str:
    """Run the body of lesson ``page``, then ``check`` in the same process; what it prints."""
    path = REPO / "content" / "lessons" / page
    body = [b for b in fenced_blocks(rendered(path)) if b.lang == "python" and not b.standalone]
    blocks = [(_label(path, b), b.code) for b in body] + [(f"{page}: the check", check)]
    return run_blocks(blocks, tmp)[-1].strip()


def test_lesson_8_axial_rope_turns_the_column_first_as_rope_vit(tmp_path: Path) -> None:
    """naver-ai/rope-vit's compute_axial_cis: the first d/4 angles follow t % end_x, the
    column x; lesson 8's axial_angles takes the column x first and gives the same angles."""
    check = textwrap.dedent(
        """
        d, end_x, end_y = 16, 5, 3
        freqs = 1.0 / 100.0 ** (np.arange(0, d, 4)[: d // 4] / d)
        t = np.arange(end_x * end_y)
        ref = np.concatenate([np.outer(t % end_x, freqs), np.outer(t // end_x, freqs)], -1)
        ours = np.stack([axial_angles(x, y, d) for x, y in zip(t % end_x, t // end_x)])
        import inspect
        print(list(inspect.signature(axial_angles).parameters)[:2], np.allclose(ours, ref))
        """
    )
    assert _body_then("08-images.md", check, tmp_path) == "['x', 'y'] True"


def test_lesson_1_causal_attention_over_identical_tokens_gives_one_output(
    tmp_path: Path,
) -> None:
    """Lesson 1 shows, with its own causal_self_attention, that the mask alone shows no
    position over identical inputs: every row averages copies of one vector."""
    check = "print(np.allclose(causal_self_attention(np.ones((5, 2))), np.ones((5, 2))))"
    assert _body_then("01-why-position.md", check, tmp_path) == "True"
    page = rendered(REPO / "content" / "lessons" / "01-why-position.md")
    assert "causal_self_attention(x[1:])" in page
