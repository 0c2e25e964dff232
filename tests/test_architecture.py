"""The engine's shape, as ARCHITECTURE.md draws it.

* Imports run down the stages ARCHITECTURE.md lists, with no cycle (read with ``ast``, lazy
  imports inside functions included).
* Nothing outside ``konum/types/`` branches on a question type's name, in Python or in the
  templates; the engine imports nothing from the course, and names none of its subject.
* The engine stays within its line budget, and no module of it past 600 lines.
* A new question type is one module, one template and one grader: the worked example
  (tests/fixtures/newtype/) goes through every stage.
* One build of the course converts each distinct text with Python-Markdown once.
"""

from __future__ import annotations

import ast
import graphlib
import io
import json
import re
import tokenize
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from rich.console import Console

import konum
from konum.types import TYPES

REPO = Path(__file__).resolve().parents[1]
SOURCE = REPO / "generator"
ENGINE = SOURCE / "konum"
TEMPLATES = REPO / "templates"
NEWTYPE = REPO / "tests" / "fixtures" / "newtype"

#: Lines of Python the engine may have: code lines, not blank lines, comments or docstrings.
#: 12,000 held the engine of issue 31; issue 36's QTI export and terminal quiz (with a Python
#: grader per type) and issue 33's draw checks brought their own lines, then Anki note types
#: in every language, one problem per misspelt key, the warning for published bank files and
#: a page's build error on one line (about 50); then issue 46's `konum import` (Moodle XML,
#: GIFT, Aiken and mkdocs-quiz readers, the bank writer and the command: about 1,390) and
#: `konum export scorm` (about 330); issue 48's safe and bounded reading of configurations,
#: editions named in the options, docs files outside the project refused (about 120) and its
#: hardening of recordings and exports; issue 43's three homes of the build (about 55);
#: issue 45's option errors at their line, serve answering while broken, blocks that never
#: fail silently, questions written in the page (about 415) and formula functions for
#: statistics with their symbols, `where` and plugin errors at their line (about 590); issue
#: 48's bounded terminal quiz (its page reader, URL fetcher and control characters) and issue
#: 42's spoken names of formulas in quizzes (16,834 in all). Then: issue 48's last points (a
#: page's and a prompt's tags counted, block options' depth, constant formulas, folders that
#: cannot be listed, another edition's pages and quizzes left to it, a NUL in an image path:
#: about 90); issue 42's scoring rules in one Python module (`konum.scoring`, about 160,
#: that the shared cases of tests/grading/rules.json run) and figure text kept at 11 px on a
#: phone (3); issue 43's `konum.types` plugin group (the site's types handed to loading,
#: rendering, the exam and `konum quiz`, a page's scripts of the types it shows: about 130),
#: the imports of the modules that took the second jobs of sandbox, fields, translate and cli
#: and the extension's declarative option table (about 110), less the blocks written once
#: (the exports' driver, the types' shared checks, one bank reader: about 150); issue 47's
#: build on every core and work done once per installed version (`konum.parallel`,
#: `konum.diskcache`, the `jobs` option, the check's shares for the workers: about 215),
#: konum serve's rebuilds checking and drawing only what a save changed (about 105) and the
#: editions built at once, each in a process of its own (about 75); and nothing else may.
ENGINE_BUDGET = 17_593


def module_files() -> dict[str, Path]:
    """Every module of the engine by its name below ``konum.`` (the package itself:
    ``konum``; a package's ``__init__``: the package's name)."""
    found = {}
    for path in sorted(ENGINE.rglob("*.py")):
        parts = list(path.relative_to(ENGINE).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts) or "konum"] = path
    return found


def imported(name: str, path: Path, known: set[str]) -> set[str]:
    """The engine modules ``path`` imports (``from konum.x import y`` is ``x.y`` when that
    is a module, else ``x``), relative imports resolved."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".") if package != "konum" else []
                parts = parts[: len(parts) - node.level + 1]
                base = ".".join(["konum", *parts, *([base] if base else [])])
            targets = [f"{base}.{a.name}" for a in node.names]
        for target in targets:
            if not target.startswith("konum."):
                continue
            short = target.removeprefix("konum.")
            while short not in known and "." in short:
                short = short.rpartition(".")[0]
            found.add(short if short in known else "konum")
    found.discard(name)
    return found


def import_graph() -> dict[str, set[str]]:
    files = module_files()
    return {name: imported(name, path, set(files)) for name, path in files.items()}


def stages() -> dict[str, tuple[int, str]]:
    """The stage of every module named in ARCHITECTURE.md's "Stages" list: (its number,
    its name)."""
    text = (REPO / "ARCHITECTURE.md").read_text(encoding="utf-8")
    section = text.split("## Stages", 1)[1].split("\n## ", 1)[0]
    found = {}
    for number, stage, names in re.findall(r"^(\d+)\. \*\*(\w+)\*\*: (.+)$", section, re.M):
        for module in re.findall(r"`([\w.]+)`", names):
            found[module] = (int(number), stage)
    return found


def test_architecture_lists_every_module_once() -> None:
    listed = stages()
    files = set(module_files())
    assert sorted(files - set(listed)) == [], "modules ARCHITECTURE.md does not place"
    assert sorted(set(listed) - files) == [], "ARCHITECTURE.md places modules that do not exist"


def test_imports_run_down_the_stages() -> None:
    listed = stages()
    upward = [
        f"{name} ({listed[name][1]}) imports {dep} ({listed[dep][1]})"
        for name, deps in import_graph().items()
        for dep in sorted(deps)
        if listed[dep][0] > listed[name][0]
    ]
    assert upward == []


def test_imports_have_no_cycle() -> None:
    graph = import_graph()
    try:
        tuple(graphlib.TopologicalSorter(graph).static_order())
    except graphlib.CycleError as exc:
        pytest.fail(f"import cycle: {' -> '.join(exc.args[1])}")


def test_the_reader_sees_real_imports() -> None:
    """The graph reader itself: it finds what a few modules are known to import."""
    graph = import_graph()
    assert {"types", "located", "load"} <= graph["check"]
    assert "types.base" in graph["types.ordering"]
    assert {"math", "quiz", "values"} <= graph["konum"]


def test_the_engine_imports_nothing_from_the_course() -> None:
    offenders = []
    for path in ENGINE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            offenders += [
                f"{path.relative_to(REPO)}:{node.lineno}" for n in names if "konum_pe" in n
            ]
    assert offenders == []


#: Words of the course's subject; the engine is for any subject.
COURSE_WORDS = re.compile(
    r"sinusoid|\brope\b|alibi|rotary|positional.encoding|konum_pe|\bt5\b", re.IGNORECASE
)


def test_the_engine_names_nothing_of_the_course() -> None:
    files = [*ENGINE.rglob("*.py"), *(p for p in TEMPLATES.rglob("*") if p.is_file())]
    found = [
        f"{path.relative_to(REPO)}:{number}: {line.strip()}"
        for path in files
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if COURSE_WORDS.search(line)
    ]
    assert found == []


TYPE_NAMES = frozenset(TYPES)
#: What a branch on a question's type compares: ``q.type``, ``kind``, ``question_type``...
TYPE_HOLDERS = frozenset({"type", "kind", "question_type", "qtype"})


def _holds_type(node: ast.expr) -> bool:
    if isinstance(node, ast.Attribute):
        return node.attr in TYPE_HOLDERS
    return isinstance(node, ast.Name) and node.id in TYPE_HOLDERS


def _names_types(node: ast.expr) -> bool:
    if isinstance(node, ast.Constant):
        return node.value in TYPE_NAMES
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return any(_names_types(e) for e in node.elts)
    return False


def type_branches(source: str) -> list[int]:
    """Lines of ``source`` that branch on a question type's name: a comparison of a
    ``type``/``kind`` with a type's name, a ``match`` on one, an ``isinstance`` with one of
    the types' classes, a mapping keyed by types' names."""
    classes = {kind.__name__ for kind in TYPES.values()}
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            if any(map(_holds_type, operands)) and any(map(_names_types, operands)):
                lines.append(node.lineno)
        elif isinstance(node, ast.Match) and _holds_type(node.subject):
            lines.append(node.lineno)
        elif isinstance(node, ast.Call) and getattr(node.func, "id", None) == "isinstance":
            named = {n.id for n in ast.walk(node.args[1]) if isinstance(n, ast.Name)}
            named |= {n.attr for n in ast.walk(node.args[1]) if isinstance(n, ast.Attribute)}
            if named & classes:
                lines.append(node.lineno)
        elif isinstance(node, ast.Dict):
            keys = [k for k in node.keys if isinstance(k, ast.Constant)]
            if sum(k.value in TYPE_NAMES for k in keys) >= 2:
                lines.append(node.lineno)
    return lines


def test_the_branch_finder_finds_branches() -> None:
    source = (
        'if q.type == "choice": pass\n'
        'if kind in ("fill", "numeric"): pass\n'
        "if isinstance(q, ChoiceQuestion): pass\n"
        'writers = {"choice": 1, "matching": 2}\n'
        "match q.type:\n    case _: pass\n"
        'if form == "choice": pass\n'  # a computed question's answer form, not a type
    )
    assert sorted(type_branches(source)) == [1, 2, 3, 4, 5]


def test_no_branch_on_a_type_name_outside_the_types_package() -> None:
    found = [
        f"{path.relative_to(REPO)}:{line}"
        for path in sorted(ENGINE.rglob("*.py"))
        if ENGINE / "types" not in path.parents
        for line in type_branches(path.read_text(encoding="utf-8"))
    ]
    assert found == []


def test_no_template_branches_on_a_type_name() -> None:
    """Templates pick a type's part by its name (``include "quiz/" ~ q.type``), never test
    it."""
    names = "|".join(sorted(TYPE_NAMES))
    branch = re.compile(rf"\b(?:type|kind)\s*(?:==|!=)\s*[\"'](?:{names})[\"']")
    found = [
        f"{path.relative_to(REPO)}:{number}"
        for path in sorted(TEMPLATES.rglob("*.j2"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if branch.search(line)
    ]
    assert found == []


def js_type_branches(source: str) -> list[int]:
    """Lines of a script that name a question type in a string (``q.type === "choice"``,
    ``PARTS["ordering"]``), comments aside: what a type does in the page is its part's."""
    names = "|".join(sorted(TYPE_NAMES))
    literal = re.compile(rf"""(["'`])(?:{names})\1""")
    code = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), source, flags=re.S)
    code = re.sub(r"(?m)^\s*//.*$", "", code)
    return [n for n, line in enumerate(code.splitlines(), 1) if literal.search(line)]


def test_the_script_branch_finder_finds_branches() -> None:
    source = (
        'if (q.type === "choice") x();\n'
        "var part = PARTS['ordering'];\n"
        '/* the "choice" type\'s part\n   is its own file */\n'
        'if (c.type === "radio") y();\n'  # a control's type, not a question's
        "return [ 'numeric', String(a) ];\n"
    )
    assert js_type_branches(source) == [1, 2, 6]


#: The page's scripts that are no type's part: the controls, the exam, the learner state,
#: the marks, the overview and the SCORM runtime.
PAGE_SCRIPTS = ("quiz.js", "quiz-exam.js", "state.js", "progress.js", "overview.js", "scorm.js")


def test_no_page_script_branches_on_a_type_name() -> None:
    found = [
        f"templates/assets/{name}:{line}"
        for name in PAGE_SCRIPTS
        for line in js_type_branches((TEMPLATES / "assets" / name).read_text(encoding="utf-8"))
    ]
    assert found == []


def test_each_built_in_type_has_its_part_and_defines_only_it() -> None:
    parts = TEMPLATES / "assets" / "types"
    assert sorted(p.stem for p in parts.glob("*.js")) == sorted(
        {"choice", "fill", "matching", "numeric", "output", "ordering"}
    )
    for path in parts.glob("*.js"):
        defined = re.findall(r'konumQuiz\.define\("([a-z_]+)"', path.read_text(encoding="utf-8"))
        assert defined == [path.stem]


def code_lines(source: str) -> int:
    """Lines holding code: not blank, not only a comment, not part of a docstring."""
    tree = ast.parse(source)
    docstrings: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            first = node.body[0] if node.body else None
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                docstrings.update(range(first.lineno, (first.end_lineno or first.lineno) + 1))
    kept: set[int] = set()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type in (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT):
            continue
        if token.type in (tokenize.DEDENT, tokenize.ENDMARKER):
            continue
        kept.update(n for n in range(token.start[0], token.end[0] + 1) if n not in docstrings)
    return len(kept)


def test_code_lines_counts_what_it_says() -> None:
    source = (
        '"""Doc\nstring."""\n\n# a comment\nx = (\n    1,  # one\n)\n\n\n'
        'def f():\n    """Doc."""\n    return x\n'
    )
    assert code_lines(source) == 5  # x = (, 1, ), def f, return x


def test_the_engine_keeps_to_its_line_budget() -> None:
    total = sum(code_lines(p.read_text(encoding="utf-8")) for p in ENGINE.rglob("*.py"))
    assert total <= ENGINE_BUDGET, f"the engine has {total:,} lines of code"


#: Lines (every line, as an editor counts them) one engine module may have: past it a module
#: holds more than one job.
MODULE_LINES = 600


def test_no_engine_module_is_over_its_line_limit() -> None:
    long = {
        name: count
        for name, path in module_files().items()
        if (count := len(path.read_text(encoding="utf-8").splitlines())) > MODULE_LINES
    }
    assert long == {}, f"modules over {MODULE_LINES} lines"


def test_the_default_variant_count_is_written_once() -> None:
    """``limits.DEFAULT_VARIANTS`` is the one place that says how many variants a site draws
    when it does not say: no ``variants`` parameter, field or option defaults to a number
    of them (1, one form and no New numbers, is not a count drawn)."""
    written = []
    for name, path in module_files().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            pairs: list[tuple[str, ast.expr | None]] = []
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                args = node.args
                positional = [*args.posonlyargs, *args.args]
                defaults = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
                pairs += [(a.arg, d) for a, d in zip(positional, defaults, strict=True)]
                keywords = zip(args.kwonlyargs, args.kw_defaults, strict=True)
                pairs += [(a.arg, d) for a, d in keywords]
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                pairs.append((node.target.id, node.value))
            elif isinstance(node, ast.Assign):
                pairs += [(t.id, node.value) for t in node.targets if isinstance(t, ast.Name)]
            elif isinstance(node, ast.Dict):
                pairs += [
                    (k.value, v.elts[0] if isinstance(v, ast.List) and v.elts else v)
                    for k, v in zip(node.keys, node.values, strict=True)
                    if isinstance(k, ast.Constant) and isinstance(k.value, str)
                ]
            written += [
                f"{name}:{value.lineno} {key}"
                for key, value in pairs
                if key == "variants"
                and isinstance(value, ast.Constant)
                and type(value.value) is int
                and value.value != 1
            ]
    assert written == []


#: ``MAX_*`` limits still outside :mod:`konum.limits`, and why.
LIMITS_ELSEWHERE = {
    "lms.MAX_SHARES": "Moodle's own grade list, not konum's limit (types branch: lms.py)",
    "programs.MAX_CHARS": "imported by types/output.py (types branch moves it)",
    "types.fill.MAX_REPEAT": "types branch moves it",
    "types.fill.MAX_EXAMPLE": "types branch moves it",
}


def test_every_limit_is_in_the_limits_table() -> None:
    """A bound konum sets is a name in :mod:`konum.limits`, so that two entry points cannot
    hold two different values of it (or two different bounds under one name)."""
    found = {
        f"{name}.{target.id}"
        for name, path in module_files().items()
        if name != "limits"
        for node in ast.parse(path.read_text(encoding="utf-8")).body
        if isinstance(node, (ast.Assign, ast.AnnAssign))
        for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
        if isinstance(target, ast.Name) and target.id.startswith("MAX_")
    }
    assert sorted(found - set(LIMITS_ELSEWHERE)) == []
    assert sorted(set(LIMITS_ELSEWHERE) - found) == [], "limits moved: take them off the list"


# --- no block written twice --------------------------------------------------------------

#: Lines of a block that may not appear twice.
REPEAT_LINES = 6

#: Runs of :data:`REPEAT_LINES` identical lines that may stand in two places, by the files
#: (sorted) and the run's first line, and why.
ALLOWED_REPEATS: dict[tuple[str, str, str], str] = {
    # Python spells a protocol's method signature again in each class that implements it.
    (
        "generator/konum/computed/base.py",
        "generator/konum/computed/base.py",
        "def generate(",
    ): "SpeakingGenerator.generate and BaseGenerator.generate: a protocol and its implementation",
    (
        "generator/konum/computed/base.py",
        "generator/konum/computed/variants.py",
        "def generate(",
    ): "SpeakingGenerator.generate and WhereGenerator.generate: a protocol and its implementation",
    # The two renderings of a figure take the same arguments: the page's SVG and a file's.
    (
        "generator/konum/figures/__init__.py",
        "generator/konum/figures/__init__.py",
        "figure: LessonFigure,",
    ): "render_svg and figure_file: one figure's arguments, for a page and for a file",
}


def folded_lines(path: Path) -> list[tuple[int, str]]:
    """``path``'s lines that count, each with its number, its runs of whitespace folded to
    one space: not blank, not a comment (``#`` in Python; ``//``, ``/*``, ``*`` in
    JavaScript and CSS; ``{# ... #}`` in Jinja)."""
    comments = {".py": ("#",), ".js": ("//", "/*", "*"), ".css": ("/*", "*"), ".j2": ("{#",)}
    kept = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        text = " ".join(line.split())
        if text and not text.startswith(comments[path.suffix]):
            kept.append((number, text))
    return kept


def repeated_runs(paths: list[Path], root: Path) -> dict[tuple[str, str, str], str]:
    """Each run of at least :data:`REPEAT_LINES` folded lines that stands in two places (in
    one file or two), as ``(file, file, its first line)`` to ``"file:line ~ file:line"``;
    windows that continue one run are that run."""
    lines = {path.relative_to(root).as_posix(): folded_lines(path) for path in paths}
    places: dict[tuple[str, ...], list[tuple[str, int]]] = {}
    for name, kept in lines.items():
        for i in range(len(kept) - REPEAT_LINES + 1):
            run = tuple(text for _, text in kept[i : i + REPEAT_LINES])
            places.setdefault(run, []).append((name, i))
    pairs: set[tuple[str, int, str, int]] = set()
    for where in places.values():
        for i, (file_a, at_a) in enumerate(where):
            pairs.update((file_a, at_a, file_b, at_b) for file_b, at_b in where[i + 1 :])
    found: dict[tuple[str, str, str], str] = {}
    for file_a, at_a, file_b, at_b in sorted(pairs):
        if (file_a, at_a - 1, file_b, at_b - 1) in pairs:
            continue  # inside a run that starts earlier
        (line_a, first), (line_b, _) = lines[file_a][at_a], lines[file_b][at_b]
        key = (*sorted((file_a, file_b)), first)
        found.setdefault(key, f"{file_a}:{line_a} ~ {file_b}:{line_b}")
    return found


def source_files() -> list[Path]:
    """The files whose blocks must not repeat: Python, JavaScript, CSS and Jinja templates
    under generator/ and templates/."""
    return sorted(
        path
        for folder in (SOURCE, TEMPLATES)
        for path in folder.rglob("*")
        if path.suffix in (".py", ".js", ".css", ".j2") and path.is_file()
    )


def test_the_repeat_finder_finds_repeats(tmp_path: Path) -> None:
    block = "".join(f"x{i} = {i}  # {i}\n" for i in range(REPEAT_LINES))
    (tmp_path / "a.py").write_text(f"# a\n{block}", encoding="utf-8")
    (tmp_path / "b.py").write_text(block.replace(" = ", "  =  ").replace("x3", "\n\nx3"))
    (tmp_path / "c.py").write_text(block.replace("x5", "y5"), encoding="utf-8")
    found = repeated_runs(sorted(tmp_path.glob("*.py")), tmp_path)
    assert found == {("a.py", "b.py", "x0 = 0 # 0"): "a.py:2 ~ b.py:1"}


def test_no_block_of_six_lines_is_written_twice() -> None:
    found = repeated_runs(source_files(), REPO)
    unexplained = {key: where for key, where in found.items() if key not in ALLOWED_REPEATS}
    assert unexplained == {}, "blocks written twice: make one of them serve both"
    assert sorted(set(ALLOWED_REPEATS) - set(found)) == [], "allowed repeats that are gone"


# --- a new question type, as ARCHITECTURE.md says -------------------------------------------

TRUEFALSE_BANK = """\
bank: units
title: Units
questions:
  - id: force-unit
    type: truefalse
    prompt: The newton is the unit of force.
    answer: true
    explanation: One newton accelerates one kilogram at one metre per second squared.
  - id: force-unit-wrong
    type: truefalse
    prompt: The joule is the unit of force.
    answer: maybe
    explanation: The joule is the unit of energy.
"""


def test_the_types_are_not_a_table_to_patch() -> None:
    """A site's types come from the plugins it names (konum.types.site_types), so the
    built-in table cannot be added to from outside."""
    with pytest.raises(TypeError):
        TYPES["truefalse"] = TYPES["choice"]  # type: ignore[index]


def test_the_new_type_example_is_the_files_architecture_md_names() -> None:
    """ "Adding a question type" walks through examples/hotspot: every file it names there
    exists, and its part's code is the file's (the snippet's lines are the file's)."""
    text = (REPO / "ARCHITECTURE.md").read_text(encoding="utf-8")
    section = text.split("## Adding a question type", 1)[1].split("\n## ", 1)[0]
    example = REPO / "examples" / "hotspot"
    named = set(re.findall(r"`([\w/.]+\.(?:py|j2|js))`", section)) - {"quiz.js"}
    named = {n for n in named if "<" not in n and not n.startswith("quiz/")}
    assert {"hotspot.py", "parts/quiz/hotspot.html.j2", "parts/hotspot.js"} <= named
    missing = [
        name
        for name in named
        if "hotspot" in name and not (example / name).is_file() and not (REPO / name).is_file()
    ]
    assert missing == []
    part = (example / "parts" / "hotspot.js").read_text(encoding="utf-8")
    snippet = section.split("```js", 1)[1].split("```", 1)[0]
    lines = [line.strip() for line in snippet.splitlines() if line.strip()]
    shown = [
        line
        for line in lines
        if "..." not in line and not line.startswith(("return {", "};", "});"))
    ]
    assert [line for line in shown if line not in part] == []


def test_a_new_type_goes_through_every_stage(tmp_path: Path) -> None:
    """The plugin type of tests/fixtures/newtype/, named by a site's ``plugins`` option as a
    ``.py`` file: read, checked, rendered with its own template, carded, exported, printed
    and taken in the terminal, with nothing registered by hand."""
    from konum.check import check_banks
    from konum.config import options_from
    from konum.course import load_course
    from konum.exam import build_versions
    from konum.exports.cards import build_cards
    from konum.exports.gift import build_gift
    from konum.exports.moodle import build_moodle
    from konum.pagequiz import read_quizzes
    from konum.plugins import load_plugins
    from konum.render import render_quiz
    from konum.terminal import Runner, parse
    from konum.types import site_types

    banks = tmp_path / "banks"
    banks.mkdir()
    (banks / "units.yml").write_text(TRUEFALSE_BANK, encoding="utf-8")
    plugin = str(NEWTYPE / "truefalse.py")
    plugins = load_plugins([plugin], tmp_path)
    truefalse = plugins.types["truefalse"]
    assert "truefalse" not in TYPES
    report = check_banks(banks)
    assert report.problems[0].message.startswith("unknown question type 'truefalse'")
    report = check_banks(banks, plugins=plugins)
    assert [(p.line, p.question_id, p.field, p.message) for p in report.problems] == [
        (12, "force-unit-wrong", "answer", 'wrong type: expected true or false, found text "maybe"')
    ]

    (banks / "units.yml").write_text(TRUEFALSE_BANK.rsplit("  - id: force-unit-wrong", 1)[0])
    course = load_course(options_from({"banks": str(banks), "plugins": [plugin]}, root=tmp_path))
    [question] = course.banks[0].questions
    assert isinstance(question, truefalse) and question.answer is True
    concretes = {c.question.id: c for c in course.concretes()}

    page = render_quiz(list(concretes.values()), "units", plugins=course.plugins)
    assert 'data-type="truefalse"' in page and 'type="radio"' in page
    assert "The newton is the unit of force." in page
    [card] = build_cards(course.banks, concretes.values())
    assert card.back == "<p><strong>True</strong></p>"
    moodle = build_moodle(course.banks, concretes)
    assert moodle.exported == ("force-unit",)
    [written] = ET.fromstring(moodle.text).iterfind("question[@type='truefalse']")
    answers = {a.findtext("text"): a.get("fraction") for a in written.iterfind("answer")}
    assert answers == {"true": "100", "false": "0"}
    gift = build_gift(course.banks, concretes)
    assert "::force-unit::[html]" in gift.text and "{T}" in gift.text
    [version] = build_versions(course, [question], seed=1, versions=1)
    assert str(version.questions[0].answer) == "<strong>True</strong>"
    # konum quiz: the page's question, taken in the terminal with the type's grader.
    typed, shown = iter(["2", "1"]), io.StringIO()
    types = site_types(course.plugins)
    runner = Runner(Console(file=shown), "en", lambda prompt: next(typed, None), None, types)
    runner.quiz(read_quizzes(parse(page), "page.html", types)[0])
    assert "(1) True (2) False" in shown.getvalue()
    said = shown.getvalue().split("Not quite. Try another option.\n", 1)[1]
    assert said.startswith("Correct.\n")


# --- each text converted once ---------------------------------------------------------------


@pytest.mark.slow
def test_one_build_converts_each_text_once(built_site: Path) -> None:
    report = json.loads((built_site.parent / "real-site.conversions.json").read_text())
    assert report["texts"] > 1000, "the count saw the course's texts"
    assert report["repeated"] == {}


def test_konum_is_the_engine() -> None:
    assert Path(konum.__file__).resolve().parent == ENGINE
