"""The "Use konum in your own site" page (``content/own-site.md``) read as a script.

A teacher follows the page's blocks in order; so do ``tests/test_walkthrough.py`` (in this
process) and ``tests/test_own_site.py`` (from a fresh install). The page's conventions, which
make it a script without making it read like one:

* a fenced block right after a paragraph that ends with a path in backticks and a colon
  (``Create `docs/banks/motion.yml`:``) is that whole file;
* a ``sh`` block is commands, one a line, each with an optional ``# comment``; a comment that
  is a path (``# exports/physics-by-numbers-moodle.xml``) names the file the command writes;
* every other block (``text``, an option's example) is illustration, not a step.

Section 1 (the install) is what the tests do their own way: the fast test imports the
konum under test, the slow one installs the wheel that ``python -m build`` made. The quick
start at the top (``## Quick start: ...``) is a walkthrough of its own (:func:`quick_start`),
its ``pip install`` line the install's.
"""

from __future__ import annotations

import re
import shlex
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from tests.miniproject import REPO

PAGE = REPO / "content" / "own-site.md"
_BLOCK = re.compile(r"^```(\w*)\n(.*?)^```\n", re.MULTILINE | re.DOTALL)
_FILE = re.compile(r"`([\w./-]+)`:\s*\Z")
_WRITES = re.compile(r"[\w.-]+(?:/[\w.-]+)+\.\w+")


@dataclass(frozen=True)
class File:
    """A whole file the page shows: its path from the folder the commands run in."""

    path: str
    text: str


@dataclass(frozen=True)
class Command:
    """A command line of a ``sh`` block, split as the shell would, and the file it writes
    (its comment, when that is a path)."""

    argv: tuple[str, ...]
    writes: str | None


Step = File | Command


def page() -> str:
    return PAGE.read_text(encoding="utf-8")


def _headings_only(text: str) -> str:
    """``text`` with its fenced blocks' lines blanked out (the same length), so that a page's
    own headings in an example are not the guide's."""
    return _BLOCK.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def section(number: int) -> str:
    """The text of the page's section ``## N. ...``."""
    text = page()
    found = re.search(
        rf"^## {number}\. .*?(?=^## |\Z)", _headings_only(text), re.MULTILINE | re.DOTALL
    )
    assert found is not None, f"the page has no section {number}"
    return text[found.start() : found.end()]


def steps(text: str) -> list[Step]:
    """The files and commands of ``text`` (the page, or one section), in the page's order."""
    found: list[Step] = []
    for block in _BLOCK.finditer(text):
        language, body = block.groups()
        before = text[: block.start()].rstrip("\n").rsplit("\n\n", 1)[-1]
        path = _FILE.search(before)
        if path:
            found.append(File(path.group(1), body))
        elif language == "sh":
            for line in body.splitlines():
                command, _, comment = line.partition("#")
                writes = _WRITES.fullmatch(comment.strip())
                if command.strip():
                    argv = tuple(shlex.split(command))
                    found.append(Command(argv, writes.group(0) if writes else None))
    return found


def quick_start() -> list[Step]:
    """The quick start's files and commands, from an empty folder (its install aside)."""
    text = page()
    found = re.search(r"^## Quick start\b.*?(?=^## )", _headings_only(text), re.M | re.S)
    assert found is not None, "the page has no quick start"
    quick = steps(text[found.start() : found.end()])
    return [s for s in quick if not (isinstance(s, Command) and s.argv[0] == "pip")]


def walkthrough() -> list[Step]:
    """Every step after the install (sections 2 on), from an empty folder."""
    numbers = [int(n) for n in re.findall(r"^## (\d+)\. ", _headings_only(page()), re.M)]
    return [step for number in numbers if number > 1 for step in steps(section(number))]


#: Runs a command of the page (``konum ...``) in a folder.
Runner = Callable[[Path, tuple[str, ...]], "subprocess.CompletedProcess[str]"]


def follow(
    start: Path, run: Runner | None, path: list[Step] | None = None
) -> tuple[Path, dict[str, subprocess.CompletedProcess[str]]]:
    """Follow the page (or the steps of ``path``, such as :func:`quick_start`'s) from the
    empty folder ``start``: write its files, make and enter its folders (``mkdir``, ``cd``)
    and ``run`` every other command, each of which must succeed and write the file its
    comment names (``run`` None: the files alone).

    Returns:
        The folder the page ends in (the site's), and each command's result by its line
        (``"konum export moodle"``).
    """
    here = start
    results: dict[str, subprocess.CompletedProcess[str]] = {}
    for step in walkthrough() if path is None else path:
        if isinstance(step, File):
            path = here / step.path
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(step.text, encoding="utf-8")
            continue
        name, *args = step.argv
        if name in ("mkdir", "cd"):
            assert len(args) == 1, step
            if name == "mkdir":
                (here / args[0]).mkdir()
            else:
                here = here / args[0]
                assert here.is_dir(), step
            continue
        if run is None:
            continue
        result = run(here, step.argv)
        shown = " ".join(step.argv)
        assert result.returncode == 0, f"{shown}: {result.stdout}\n{result.stderr}"
        assert step.writes is None or (here / step.writes).is_file(), (shown, step.writes)
        results[shown] = result
    return here, results
