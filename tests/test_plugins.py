"""Plugins: what a subject's own package or file adds to konum (generators, figures,
explorers, page values, messages), named in the ``plugins`` option (``generators`` is its
older name).

A site lists modules or ``.py`` files (relative to mkdocs.yml), or the names under which
installed packages register their parts in the ``konum.*`` entry-point groups. Every entry
is loaded by the same function, the course's own plugin (``pe``) included, and every command
sees them; an entry that does not import is one line naming it and the exception's message.
"""

from __future__ import annotations

import dataclasses
import os
import re
import shutil
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import markdown
import numpy as np
import pytest

from konum import plugins as plugin_module
from konum.check import check_banks
from konum.computed import GeneratorError, param, specs
from konum.config import options_from
from konum.course import course_for
from konum.model import Range
from konum.plugins import PluginError, installed_plugins, load_plugins
from tests.helpers import PE
from tests.miniproject import REPO, konum

DOUBLING = '''\
"""A generator of the site's own: twice a number."""

from konum.computed import BaseGenerator, Distractor, param, specs
from konum.model import Range


class Doubling(BaseGenerator):
    name = "{name}"
    title = "{title}"
    params = specs(param("x", "int", Range(3, 9), Range(1, 100), "The number."))
    default_decimals = 0
    misconceptions = {{
        "squared": "squares the number instead of doubling it",
        "plus_two": "adds two instead of doubling",
    }}

    def build(self, v, decimals):
        x = v["x"]
        return self.make(
            v,
            prompt=f"What is twice {{x}}?",
            answer=2 * x,
            decimals=decimals,
            solution=f"$$2 \\\\cdot {{x}} = {{2 * x}}$$",
            distractors=[
                Distractor(x * x, "squared", "That is the square."),
                Distractor(x + 2, "plus_two", "That adds two."),
            ],
            exact=True,
        )


GENERATORS = [Doubling()]
'''

BANK = """\
bank: numbers
title: Numbers
questions:
  - id: twice
    type: computed
    generator: doubling
    answer: choice
    options: 3
"""


def doubling(name: str = "doubling", title: str = "Twice a number") -> str:
    return DOUBLING.format(name=name, title=title)


def make_site(where: Path, generators: str, files: dict[str, str], bank: str = BANK) -> Path:
    """A site with ``files`` (relative paths) and the ``generators`` option as written."""
    site = where / "site-src"
    (site / "docs").mkdir(parents=True)
    (site / "banks").mkdir()
    (site / "docs" / "index.md").write_text("# Numbers\n\n/// quiz | numbers\n///\n")
    (site / "banks" / "numbers.yml").write_text(bank, encoding="utf-8")
    (site / "mkdocs.yml").write_text(
        "site_name: Numbers\ntheme:\n  name: material\n  font: false\n"
        "markdown_extensions:\n  - konum:\n      banks: banks\n"
        f"      generators: {generators}\n",
        encoding="utf-8",
    )
    for name, text in files.items():
        path = site / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return site


def options_of(site: Path, generators: list[str]):  # type: ignore[no-untyped-def]
    return options_from({"banks": "banks", "generators": generators}, root=site)


@pytest.fixture(autouse=True)
def fresh_plugins() -> Iterator[None]:
    """Files and entry points are read once per process; each test reads them afresh."""
    plugin_module._load.cache_clear()
    yield
    plugin_module._load.cache_clear()


# --- the course's own plugin goes through the same loader ------------------------------------


def test_the_course_is_a_plugin_loaded_like_a_users() -> None:
    course = load_plugins(["pe"], REPO)
    assert (len(course.generators), len(course.figures), len(course.explorers)) == (16, 13, 6)
    assert course.origin("rope_angle") == "entry point 'pe' (konum_pe) of konum.generators"
    assert course.origin("pe_heatmap") == "entry point 'pe' (konum_pe) of konum.figures"
    assert {"pe", "arange"} <= set(course.values) and course.messages
    for generator in course.generators.values():  # each carries its own misconceptions
        assert generator.misconceptions and all(generator.misconceptions.values())
    assert "pe" in installed_plugins()


def test_installed_plugins_stay_out_of_a_site_that_does_not_name_them() -> None:
    nothing = load_plugins([], REPO)
    assert not nothing.generators and not nothing.figures and not nothing.explorers
    problems = check_banks(REPO / "content" / "banks" / "rope.yml", project=REPO).problems
    assert any("the site names no plugin" in p.message for p in problems)


# --- a site's own plugins ----------------------------------------------------------------------


def test_a_generator_file_joins_the_course_with_its_own_misconceptions(tmp_path: Path) -> None:
    site = make_site(
        tmp_path, "[pe, generators/doubling.py]", {"generators/doubling.py": doubling()}
    )
    options = options_of(site, ["pe", "generators/doubling.py"])
    found = load_plugins(options.plugins, options.root)
    assert set(found.generators) == set(PE.generators) | {"doubling"}
    assert found.origin("doubling") == "generators/doubling.py"
    course = course_for(options)
    assert course.plugins is found
    (variant,) = course.concrete(course.banks[0].questions[0]).variants[:1]
    x = variant.values["x"]
    assert variant.prompt == f"What is twice {x}?" and variant.answer == 2 * x
    keys = {o.misconception for o in variant.options if not o.correct}
    assert keys <= set(found.generators["doubling"].misconceptions) and len(keys) == 2


def test_a_module_name_is_imported_from_the_folder_of_mkdocs_yml(tmp_path: Path) -> None:
    module = "konum_test_site_generators"
    site = make_site(tmp_path, f"[{module}]", {f"{module}/__init__.py": doubling()})
    try:
        found = load_plugins((module,), site)
        assert found.origin("doubling") == module
        assert str(site) not in sys.path  # only while importing
    finally:
        sys.modules.pop(module, None)


FIGURE_AND_VALUES = """\
from konum.computed import param, specs
from konum.figures import LessonFigure
from konum.figures.style import new_figure
from konum.model import Range


class Squares(LessonFigure):
    name = "squares"
    params = specs(param("n", "int", 4, Range(1, 10), "how many"))

    def data(self, p):
        return {"y": [i * i for i in range(p["n"])]}

    def draw(self, p, data, label):
        fig = new_figure(4, 3)
        fig.add_subplot().plot(data["y"])
        return fig


def square(x):
    return x * x


FIGURES = [Squares()]
VALUES = {"square": square}
"""


def test_a_plugin_gives_figures_and_page_values(tmp_path: Path) -> None:
    site = make_site(tmp_path, "[chem.py]", {"chem.py": FIGURE_AND_VALUES})
    found = load_plugins([str(site / "chem.py")], site)
    assert set(found.figures) == {"squares"} and set(found.values) == {"square"}
    md = markdown.Markdown(
        extensions=["konum.values", "konum.math"],
        extension_configs={"konum.values": {"plugins": ["chem.py"], "root": str(site)}},
    )
    html = md.convert('{{ square(12) }} and {{ figure("squares", alt="Four squares", n=4) }}')
    assert html.startswith("<p>144 and") and 'aria-label="Four squares"' in html


def test_a_packaged_plugin_is_used_where_a_site_names_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "konum_test_plugin.py").write_text(doubling("plugin_doubling"), encoding="utf-8")
    info = tmp_path / "konum_test_plugin-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: konum-test-plugin\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[konum.generators]\ndoubling = konum_test_plugin\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        assert "doubling" in installed_plugins()
        found = load_plugins(["doubling"], tmp_path)
        assert found.generators["plugin_doubling"].title == "Twice a number"
        assert found.origin("plugin_doubling") == (
            "entry point 'doubling' (konum_test_plugin) of konum.generators"
        )
        report = check_banks([make_bank(tmp_path, "plugin_doubling")], plugins=found)
        assert report.ok, report.problems
        assert not check_banks([make_bank(tmp_path, "plugin_doubling")]).ok  # not named
        (info / "entry_points.txt").write_text("[konum.generators]\nbroken = no_such_plugin\n")
        plugin_module._load.cache_clear()
        with pytest.raises(PluginError) as caught:
            load_plugins(["broken"], tmp_path)
        assert str(caught.value) == (
            "entry point 'broken' (no_such_plugin) of konum.generators does not load: "
            "ModuleNotFoundError: No module named 'no_such_plugin'"
        )
    finally:
        sys.modules.pop("konum_test_plugin", None)


def make_bank(where: Path, generator: str) -> Path:
    path = where / "numbers.yml"
    path.write_text(BANK.replace("generator: doubling", f"generator: {generator}"))
    return path


def test_one_sites_generators_are_not_another_sites(tmp_path: Path) -> None:
    site = make_site(tmp_path, "[gen.py]", {"gen.py": doubling()})
    found = load_plugins((str(site / "gen.py"),), site)
    assert check_banks([site / "banks" / "numbers.yml"], plugins=found).ok
    problems = check_banks([site / "banks" / "numbers.yml"]).problems
    assert [p.field for p in problems] == ["generator"]
    assert problems[0].message.startswith("unknown generator 'doubling'")


def test_an_edited_generator_file_is_loaded_again(tmp_path: Path) -> None:
    site = make_site(tmp_path, "[gen.py]", {"gen.py": doubling()})
    options = options_of(site, ["gen.py"])
    first = course_for(options)
    assert course_for(options) is first
    (site / "gen.py").write_text(doubling(title="Two times a number, edited"))
    second = course_for(options)
    assert second is not first
    assert second.plugins.generators["doubling"].title == "Two times a number, edited"
    assert first.plugins.generators["doubling"].title == "Twice a number"


# --- bad entries: one line naming the entry and the exception's message ----------------------

BAD_ENTRIES = [
    (
        {},
        "[generators/missing.py]",
        "konum option 'plugins': no such file generators/missing.py",
    ),
    (
        {"gen.py": "def broken(:\n"},
        "[gen.py]",
        "konum option 'plugins': gen.py does not import: SyntaxError: invalid syntax",
    ),
    (
        {"gen.py": "import konum_no_such_module\n"},
        "[gen.py]",
        "konum option 'plugins': gen.py does not import: ModuleNotFoundError: No module "
        "named 'konum_no_such_module' (line 1)",
    ),
    (
        {"gen.py": "x = 1\n\nraise RuntimeError('no network here')\n"},
        "[gen.py]",
        "konum option 'plugins': gen.py does not import: RuntimeError: no network here (line 3)",
    ),
    (
        {"gen.py": "import sys\nsys.exit(3)\n"},
        "[gen.py]",
        "konum option 'plugins': gen.py does not import: SystemExit: 3 (line 2)",
    ),
    (
        {"gen.py": "GENERATOR = []\n"},
        "[gen.py]",
        "gen.py gives nothing konum uses: define one of GENERATORS, FIGURES, EXPLORERS, VALUES, "
        "MESSAGES",
    ),
    ({"gen.py": "GENERATORS = 'doubling'\n"}, "[gen.py]", "gen.py: GENERATORS must be a list"),
    (
        {"gen.py": "GENERATORS = [object()]\n"},
        "[gen.py]",
        "gen.py: GENERATORS[0] is not usable: a 'name' of lowercase letters, digits and _ "
        "is needed, found None",
    ),
    (
        {"gen.py": doubling() + "GENERATORS[0].misconceptions = ('squared', 'plus_two')\n"},
        "[gen.py]",
        "gen.py: GENERATORS[0] is not usable: 'misconceptions' must map each "
        "misconception's key to a one-line description, found tuple",
    ),
    (
        {"gen.py": "FIGURES = [object()]\n"},
        "[gen.py]",
        "gen.py: FIGURES[0] is not usable: a LessonFigure (konum.figures) is needed, found object",
    ),
    (
        {"gen.py": doubling("rope_angle")},
        "[pe, gen.py]",
        "generator 'rope_angle' of gen.py has the name of one of entry point 'pe' (konum_pe) of "
        "konum.generators; rename one of them",
    ),
    (
        {"a.py": doubling(), "b.py": doubling()},
        "[a.py, b.py]",
        "generator 'doubling' of b.py has the name of one of a.py; rename one of them",
    ),
    (
        {},
        "[konum_no_such_site_module]",
        "konum option 'plugins': no plugin 'konum_no_such_site_module': not an installed "
        "plugin's name (installed: pe), a module beside mkdocs.yml or a .py file",
    ),
    (
        {},
        "['not a module']",
        "'not a module' is neither a plugin's name, a module name nor a .py file",
    ),
]


@pytest.mark.parametrize(("files", "entries", "message"), BAD_ENTRIES)
def test_a_bad_entry_is_one_clear_error(
    tmp_path: Path, files: dict[str, str], entries: str, message: str
) -> None:
    site = make_site(tmp_path, entries, files)
    listed = [e.strip(" '") for e in entries.strip("[]").split(",")]
    options = options_of(site, listed)
    with pytest.raises(PluginError) as caught:
        course_for(options)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_a_file_that_fails_to_import_leaves_no_module_behind(tmp_path: Path) -> None:
    site = make_site(tmp_path, "[gen.py]", {"gen.py": "raise RuntimeError('no')\n"})
    before = set(sys.modules)
    with pytest.raises(PluginError):
        load_plugins((str(site / "gen.py"),), site)
    assert set(sys.modules) == before
    assert str(site) not in sys.path


@pytest.mark.slow
def test_every_command_sees_the_sites_generators(tmp_path: Path) -> None:
    site = make_site(tmp_path, "[generators/doubling.py]", {"generators/doubling.py": doubling()})
    result = konum(site, "check")
    assert result.returncode == 0, result.stderr
    assert "1 bank, 1 question: all good" in result.stdout
    result = konum(site, "check", "banks/numbers.yml")
    assert result.returncode == 0, result.stderr
    result = konum(site, "preview", "twice", "--variants", "1")
    assert result.returncode == 0, result.stderr
    assert "generator doubling" in result.stdout
    assert "squares the number instead of doubling it" in result.stdout
    out = tmp_path / "cards.csv"
    result = konum(site, "export", "csv", "-o", str(out))
    assert result.returncode == 0, result.stderr
    assert "What is twice" in out.read_text(encoding="utf-8")
    result = konum(site, "build", "-d", str(tmp_path / "built"))
    assert result.returncode == 0, result.stderr
    page = (tmp_path / "built" / "index.html").read_text(encoding="utf-8")
    assert 'data-question-id="twice"' in page and "What is twice" in page


@pytest.mark.slow
@pytest.mark.parametrize(
    "args", [("check",), ("preview", "twice"), ("export", "csv", "-o", "x.csv"), ("build",)]
)
def test_a_broken_entry_is_one_line_for_every_command(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    site = make_site(tmp_path, "[gen.py]", {"gen.py": "import konum_no_such_module\n"})
    result = konum(site, *args)
    assert result.returncode == 1
    assert "Traceback" not in result.stdout + result.stderr
    assert result.stderr.splitlines() == [
        "konum: konum option 'plugins': gen.py does not import: ModuleNotFoundError: No "
        "module named 'konum_no_such_module' (line 1)"
    ]


@pytest.mark.slow
def test_mkdocs_reports_a_broken_entry_without_a_traceback(tmp_path: Path) -> None:
    site = make_site(tmp_path, "[gen.py]", {"gen.py": "import konum_no_such_module\n"})
    mkdocs = shutil.which("mkdocs", path=str(Path(sys.executable).parent))
    assert mkdocs is not None
    result = subprocess.run(
        [mkdocs, "build", "--strict"],
        cwd=site,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    assert "gen.py does not import: ModuleNotFoundError" in result.stderr


def test_the_authoring_pages_generator_example_works(tmp_path: Path) -> None:
    text = (REPO / "content" / "authoring.md").read_text(encoding="utf-8")
    start = text.index("```python\nimport math") + len("```python\n")
    source = text[start : text.index("```", start)]
    site = make_site(
        tmp_path,
        "[generators/projectile.py]",
        {"generators/projectile.py": source},
        BANK.replace("doubling", "projectile_range"),
    )
    course = course_for(options_of(site, ["generators/projectile.py"]))
    for variant in course.concrete(course.banks[0].questions[0]).variants:
        assert variant.values["angle"] != 45
        assert variant.unit == "m" and len(variant.options) == 3


# --- a plugin's own errors, at its own line (issue 45) ---------------------------------------


def line_of(text: str, needle: str) -> int:
    """The 1-based line of ``text`` that holds ``needle``."""
    (number,) = [i for i, line in enumerate(text.splitlines(), 1) if needle in line]
    return number


def checked_site(site: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    monkeypatch.chdir(site)  # konum runs in the site's folder: paths are shown from there
    found = load_plugins([str(site / "generators" / "doubling.py")], site)
    report = check_banks([site / "banks" / "numbers.yml"], plugins=found, root=site)
    return [str(p) for p in report.problems]


def test_an_exception_in_a_generator_names_its_line_and_values(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    broken = doubling().replace('x = v["x"]', 'x = v["x"] / (v["x"] - v["x"])')
    site = make_site(tmp_path, "[generators/doubling.py]", {"generators/doubling.py": broken})
    line = line_of(broken, "/ (v[")
    (problem,) = checked_site(site, monkeypatch)
    assert re.search(
        r"numbers\.yml:6:16: \[twice\] generator: the generator check failed \(ZeroDivisionError: "
        rf"division by zero\) at generators/doubling\.py:{line}, for x = [3-9]$",
        problem,
    ), problem
    # Drawn for a page, the same line and values.
    found = load_plugins([str(site / "generators" / "doubling.py")], site)
    with pytest.raises(GeneratorError) as caught:
        found.generators["doubling"].generate(np.random.default_rng(1), {})
    assert f"at generators/doubling.py:{line}, for x = " in str(caught.value)


def test_a_distractor_that_always_equals_the_answer_is_the_generators_mistake(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    broken = doubling().replace("Distractor(x + 2,", "Distractor(2 * x,")
    site = make_site(tmp_path, "[generators/doubling.py]", {"generators/doubling.py": broken})
    (problem,) = checked_site(site, monkeypatch)
    assert problem.endswith(
        "[twice] generator: doubling's distractor for the misconception 'plus_two' equals the "
        "answer on every drawing checked, with these params and with its own defaults: a "
        "mistake in the generator (generators/doubling.py), not in the bank's options"
    ), problem


def test_an_exception_in_a_figure_or_an_explorer_names_its_line_and_values(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from konum.explorers import Explorer, ExplorerError, explorer_values
    from konum.figures import FigureError

    broken = FIGURE_AND_VALUES.replace("i * i for", "i / (p['n'] - 4) for")
    site = make_site(tmp_path, "[chem.py]", {"chem.py": broken})
    monkeypatch.chdir(site)
    found = load_plugins([str(site / "chem.py")], site)
    with pytest.raises(FigureError) as caught:
        found.figures["squares"].compute({"n": 4})
    assert str(caught.value) == (
        "figure 'squares': ZeroDivisionError: division by zero at "
        f"chem.py:{line_of(broken, 'i / (p')}, for n = 4"
    )
    (site / "shapes.py").write_text("def check(values):\n    return values['missing']\n")
    monkeypatch.syspath_prepend(str(site))
    from shapes import check  # type: ignore[import-not-found]

    explorer = Explorer(
        name="shapes",
        question="How many?",
        params=specs(param("n", "int", 4, Range(1, 10), "how many")),
        check=check,
        script=site / "shapes.js",
    )
    with pytest.raises(ExplorerError) as raised:
        explorer_values({"shapes": explorer}, "shapes", {})
    assert str(raised.value) == (
        "/// explorer | shapes: KeyError: 'missing' at shapes.py:2, for n = 4"
    )
    # Its fallback figure is its own code too.
    from konum.explorer import render_explorer

    (site / "shapes2.py").write_text(
        "def check(values):\n    return None\n\n\ndef figure(values):\n"
        "    return 1 / (values['n'] - 4)\n"
    )
    from shapes2 import check as fits  # type: ignore[import-not-found]
    from shapes2 import figure

    drawn = dataclasses.replace(explorer, check=fits, figure=figure)
    plugins = plugin_module.Plugins(explorers={"shapes": drawn})
    with pytest.raises(ExplorerError) as raised:
        render_explorer(plugins, "shapes", {})
    assert str(raised.value) == (
        "/// explorer | shapes: ZeroDivisionError: division by zero at shapes2.py:6, for n = 4"
    )


# --- a question type from a plugin -------------------------------------------------------------

#: A plugin file with one question type; ``{type}``, ``{templates}`` and ``{script}`` filled in.
TYPE_PLUGIN = """\
from pathlib import Path
from typing import ClassVar

from konum.types import ChoiceQuestion


class Pick(ChoiceQuestion):
    type: ClassVar[str] = "{type}"
    TEMPLATES: ClassVar[Path | None] = {templates}
    SCRIPT: ClassVar[Path | None] = {script}


TYPES = [Pick]
"""


def _type_site(tmp_path: Path, name: str = "pick", *, template: bool = True, script: bool = True,
               base: str = "ChoiceQuestion") -> tuple[Path, str]:  # fmt: skip
    here = "Path(__file__).parent"
    files = {
        "kinds.py": TYPE_PLUGIN.format(
            type=name, templates=f"{here} / 'parts'", script=f"{here} / 'parts' / 'pick.js'"
        ).replace("ChoiceQuestion", base)
    }
    if template:
        files[f"parts/quiz/{name}.html.j2"] = (REPO / "templates/quiz/choice.html.j2").read_text()
    if script:
        files["parts/pick.js"] = "konumQuiz.define('pick', function (kit) { return {}; });\n"
    site = make_site(tmp_path, "[kinds.py]", files)
    return site, str(site / "kinds.py")


def test_a_plugin_adds_a_question_type_to_the_site_that_names_it(tmp_path: Path) -> None:
    from konum.types import TYPES, site_types

    site, plugin = _type_site(tmp_path)
    bank = site / "banks" / "numbers.yml"
    bank.write_text(
        "bank: numbers\ntitle: Numbers\nquestions:\n  - id: two\n    type: pick\n"
        "    prompt: Which is two?\n    explanation: Two.\n    options:\n"
        "      - {text: '2', correct: true}\n      - {text: '3'}\n",
        encoding="utf-8",
    )
    plugins = load_plugins([plugin], site)
    assert set(site_types(plugins)) == {*TYPES, "pick"} and "pick" not in TYPES
    assert check_banks(bank, plugins=plugins).ok
    [problem] = check_banks(bank).problems  # a site without the plugin does not know it
    assert problem.message.startswith("unknown question type 'pick'")


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        (
            {"name": "choice"},
            "kinds.py: question type 'choice' has the name of a built-in type; rename it",
        ),
        ({"template": False}, "type 'pick' lacks its template quiz/pick.html.j2: no file"),
        ({"script": False}, "type 'pick' lacks its front-end part: no file"),
        ({"base": "object"}, "kinds.py: TYPES: Pick is not a question type"),
    ],
)
def test_a_plugin_type_konum_cannot_use_is_one_line_naming_the_file(
    tmp_path: Path, settings: dict[str, Any], message: str
) -> None:
    site, plugin = _type_site(tmp_path, **settings)
    if settings.get("base") == "object":
        (site / "kinds.py").write_text(
            (site / "kinds.py").read_text().replace("from konum.types import object\n", "")
        )
    with pytest.raises(PluginError) as caught:
        course_for(options_from({"banks": "banks", "plugins": [plugin]}, root=site))
    assert message in str(caught.value) and "kinds.py" in str(caught.value)
    assert "\n" not in str(caught.value)
