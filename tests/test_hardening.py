"""Bad input that used to end in a traceback or in silence: each is one clear line naming the
file (and line, and question where there is one), a non-zero exit, and nothing published.

The program sandbox is tests/test_programs.py, outputs tests/test_outputs.py, translation
files tests/test_translations.py, learner files tests/browser/test_progress_browser.py.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from konum import limits
from konum.config import options_from
from konum.course import load_course
from konum.problems import BankError
from tests.miniproject import REPO, konum, make_project, tree_digest


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return make_project(tmp_path)


def _one_line(result: object, *needles: str) -> str:
    stderr = getattr(result, "stderr", "")
    assert getattr(result, "returncode", 0) != 0, getattr(result, "stdout", "")
    assert "Traceback" not in stderr
    for needle in needles:
        assert needle in stderr, stderr
    return stderr


def _bank(project: Path) -> Path:
    return project / "content" / "banks" / "mini.yml"


def test_an_svg_nested_a_thousand_deep_is_refused(project: Path) -> None:
    svg = '<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9">'
    svg += "<g>" * 1000 + '<rect width="1" height="1"/>' + "</g>" * 1000 + "</svg>"
    (project / "content" / "banks" / "deep.svg").write_text(svg, encoding="utf-8")
    bank = _bank(project)
    text = bank.read_text(encoding="utf-8")
    bank.write_text(text.replace("Which function fills", "Which ![deep](deep.svg) fills", 1))
    for command in ("check", "build"):
        stderr = _one_line(konum(project, command), "[mini-choice] prompt: image deep.svg")
        assert "nests elements more than 100 deep" in stderr
    assert not (project / "site").exists()


def test_translated_math_is_checked(tmp_path: Path) -> None:
    folder = tmp_path / "tr"
    shutil.copytree(REPO / "content" / "tr" / "banks", folder)
    path = folder / "why-position.yml"
    text = path.read_text(encoding="utf-8")
    assert text.count("$1/\\sqrt{d}$") == 1
    path.write_text(text.replace("$1/\\sqrt{d}$", "$1/\\sqrt{d}^$"), encoding="utf-8")
    given = {"banks": "content/banks", "plugins": ["pe"], "language": "tr"}
    options = options_from({**given, "translations": str(folder)}, root=REPO)
    with pytest.raises(BankError) as caught:
        load_course(options)
    [problem] = caught.value.problems
    assert (problem.file, problem.question_id, problem.field) == (
        str(path),
        "why-cat-dog",
        "options[1].feedback",
    )
    assert "a ^ or _ has nothing after it" in problem.message


@pytest.mark.parametrize(
    ("files", "needle"),
    [
        ({"mkdocs.yml": "just a string\n"}, "a MkDocs configuration is a mapping of settings"),
        ({"mkdocs.yml": "- a\n- b\n"}, "not a list"),
        (
            {
                "mkdocs.yml": "INHERIT: other.yml\nsite_name: a\n",
                "other.yml": "INHERIT: mkdocs.yml\n",
            },
            "INHERIT goes round in a loop (mkdocs.yml -> other.yml -> mkdocs.yml)",
        ),
        ({"mkdocs.yml": "INHERIT: base.yml\nsite_name: a\n", "base.yml": "[1, 2]\n"}, "base.yml"),
        ({"mkdocs.yml": "INHERIT: gone.yml\nsite_name: a\n"}, "INHERIT names"),
    ],
)
def test_a_configuration_that_is_no_mapping_or_inherits_in_a_loop(
    project: Path, files: dict[str, str], needle: str
) -> None:
    for name, text in files.items():
        (project / name).write_text(text, encoding="utf-8")
    for command in ("check", "build", "export"):
        args = (command, "csv") if command == "export" else (command,)
        stderr = _one_line(konum(project, *args), needle)
        assert len(stderr.strip().splitlines()) == 1


def test_a_lesson_nested_three_hundred_deep_names_its_page(project: Path) -> None:
    # Deep enough for Markdown's list parser to pass Python's recursion limit.
    deep = "# Deep\n\n" + "".join("    " * i + "- item\n" for i in range(300))
    (project / "content" / "deep.md").write_text(deep, encoding="utf-8")
    _one_line(konum(project, "build"), "Error reading page 'deep.md'", "nests lists")
    assert not (project / "site").exists()


@pytest.mark.parametrize(
    ("block", "needle"),
    [
        (
            "/// quiz | mini\n    drw: 3\n///\n",
            "content/broken.md:3: /// quiz | mini: unknown option 'drw'; did you mean 'draw'?",
        ),
        (
            "/// quiz | mini\n    draw: [3\n///\n",
            "content/broken.md:3: /// quiz | mini: the options are not YAML",
        ),
        ("/// quiz | mini\n    - 3\n///\n", "expected options as 'name: value' lines"),
        (
            "/// quiz | mini\n    draw: 2\n\nNo end.\n",
            "content/broken.md:2: /// quiz | mini: no '///' line closes",
        ),
        ("/// study\n", "content/broken.md:2: /// study: no '///' line closes the block"),
        (
            "/// explorer | sinusoidal\n\nNo end.\n",
            "/// explorer | sinusoidal: no '///' line closes",
        ),
    ],
)
def test_a_quiz_block_that_pymdownx_would_drop_is_an_error(
    project: Path, block: str, needle: str
) -> None:
    (project / "content" / "broken.md").write_text("# Broken\n" + block, encoding="utf-8")
    _one_line(konum(project, "build"), "broken.md", needle)  # the page's path and line first


def test_a_closed_block_after_code_that_looks_like_one_is_fine(project: Path) -> None:
    page = "# Fine\n\n/// quiz | mini\n    draw: 2\n///\n\n```\n/// quiz | not-a-bank\n```\n"
    (project / "content" / "fine.md").write_text(page, encoding="utf-8")
    assert konum(project, "build").returncode == 0


LOOPING_GENERATOR = """\
from konum.computed import BaseGenerator, param, specs
from konum.model import Range


class Loops(BaseGenerator):
    name = "loops"
    title = "Never ends"
    params = specs(param("x", "int", Range(1, 9), Range(1, 99), "x"))
    misconceptions = {}

    def build(self, v, decimals):
        while True:
            pass


GENERATORS = [Loops()]
"""


def _with_plugin(project: Path, source: str) -> None:
    (project / "loops.py").write_text(source, encoding="utf-8")
    config = project / "mkdocs.yml"
    config.write_text(
        config.read_text(encoding="utf-8").replace("plugins: [pe]", "plugins: [pe, loops.py]")
    )
    with _bank(project).open("a", encoding="utf-8") as bank:
        bank.write(
            "  - id: mini-loops\n    type: computed\n    generator: loops\n"
            '    prompt: "x is {{ x }}"\n    explanation: It never ends.\n'
        )


def test_a_generator_that_never_ends_is_stopped_and_named(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(limits, "GENERATOR_SECONDS", 1)
    _with_plugin(project, LOOPING_GENERATOR)
    for args in (("check",), ("build",), ("export", "csv")):
        _one_line(
            konum(project, *args),
            "[mini-loops] generator: loops: one drawing took longer than 1 s",
        )


def test_a_plugin_that_never_finishes_importing_is_stopped_and_named(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(limits, "PLUGIN_IMPORT_SECONDS", 1)
    _with_plugin(project, "while True:\n    pass\n")
    for args in (("check",), ("build",), ("export", "csv")):
        _one_line(
            konum(project, *args),
            "konum option 'plugins': loops.py does not import: it ran longer than 1 s",
        )


def test_a_bank_linked_from_outside_the_project_is_not_read(project: Path, tmp_path: Path) -> None:
    secret = tmp_path / "secret.yml"
    secret.write_text("root:x:0:0:root:/root:/bin/bash\n", encoding="utf-8")
    (project / "content" / "banks" / "evil.yml").symlink_to(secret)
    stderr = _one_line(konum(project, "check"), "evil.yml", "a link to a file outside the project")
    assert "root:x" not in stderr


def test_a_bank_of_many_questions_names_the_limit_it_passed(project: Path) -> None:
    questions = "".join(
        f"  - {{id: q{i}, type: numeric, prompt: '{i}?', answer: {i}, explanation: x}}\n"
        for i in range(12_000)
    )
    (project / "content" / "banks" / "huge.yml").write_text(
        "bank: huge\ntitle: Huge\nquestions:\n" + questions, encoding="utf-8"
    )
    stderr = _one_line(konum(project, "check"), "huge.yml:4:3")
    assert "more than 50,000 values, past the limit of one bank" in stderr
    assert "alias" not in stderr


def test_an_alias_bomb_is_still_called_one(project: Path) -> None:
    bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
    for level in "bcdefgh":
        previous = ", ".join([f"*{chr(ord(level) - 1)}"] * 10)
        bomb += f"{level}: &{level} [{previous}]\n"
    (project / "content" / "banks" / "bomb.yml").write_text(bomb, encoding="utf-8")
    _one_line(konum(project, "check"), "bomb.yml", "aliases expand to more than 50,000 values")


def test_nothing_is_published_by_a_failed_build(project: Path) -> None:
    assert konum(project, "build").returncode == 0
    before = tree_digest(project / "site")
    (project / "content" / "broken.md").write_text("# B\n/// quiz | mini\n    drw: 1\n///\n")
    assert konum(project, "build").returncode == 1
    assert tree_digest(project / "site") == before


def test_a_pipe_is_no_bank_translation_or_image(project: Path, tmp_path: Path) -> None:
    """A named pipe would block a reader for ever: refused unread, wherever it is."""
    banks = project / "content" / "banks"
    os.mkfifo(banks / "pipe.yml")
    stderr = _one_line(konum(project, "check", str(banks / "pipe.yml")), "pipe.yml")
    assert "not a regular file" in stderr
    (banks / "pipe.yml").unlink()
    os.mkfifo(banks / "pipe.png")
    bank = _bank(project)
    bank.write_text(
        bank.read_text(encoding="utf-8").replace("Which function", "Which ![p](pipe.png)", 1)
    )
    _one_line(konum(project, "check"), "found something that is not a regular file: pipe.png")


def test_a_translation_that_is_a_pipe_or_a_link_out_is_not_read(tmp_path: Path) -> None:
    folder = tmp_path / "project" / "tr"
    shutil.copytree(REPO / "content" / "tr" / "banks", folder)
    secret = tmp_path / "secret.yml"
    secret.write_text("root:x:0:0:root:/root:/bin/bash\n", encoding="utf-8")
    given = {"banks": str(REPO / "content" / "banks"), "plugins": ["pe"], "language": "tr"}
    options = options_from({**given, "translations": str(folder)}, root=tmp_path / "project")
    for make, needle in (
        (lambda p: p.symlink_to(secret), "a link to a file outside the project"),
        (os.mkfifo, "not a regular file"),
    ):
        (folder / "rope.yml").unlink()
        make(folder / "rope.yml")
        with pytest.raises(BankError) as caught:
            load_course(options)
        [problem] = caught.value.problems
        assert problem.file == str(folder / "rope.yml") and needle in problem.message
        assert "root:x" not in problem.message
