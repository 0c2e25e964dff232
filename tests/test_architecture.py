"""The engine's shape, as ARCHITECTURE.md draws it.

* Imports run down the stages ARCHITECTURE.md lists, with no cycle (read with ``ast``, lazy
  imports inside functions included).
* Nothing outside ``konum/types/`` branches on a question type's name, in Python or in the
  templates; the engine imports nothing from the course, and names none of its subject.
* The engine stays within its line budget.
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
import sys
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
#: 42's spoken names of formulas in quizzes; issue 47's build on every core and work done
#: once per installed version (`konum.parallel`, `konum.diskcache`, the `jobs` option and the
#: check's shares for the workers, the compiled templates kept: about 215) and konum serve's
#: rebuilds checking and drawing only what a save changed (about 105) and the editions built
#: at once, each in a process of its own, saying what its worker said (about 75); and nothing
#: else may.
ENGINE_BUDGET = 17_231


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
    assert {"types", "fields", "load"} <= graph["check"]
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


@pytest.fixture
def truefalse(monkeypatch: pytest.MonkeyPatch) -> type:
    """The worked example registered as ARCHITECTURE.md says: in ``TYPES``, its template
    where quiz.html.j2 includes it."""
    from jinja2 import ChoiceLoader, FileSystemLoader

    from konum.render import environment

    monkeypatch.syspath_prepend(str(NEWTYPE))
    sys.modules.pop("truefalse", None)
    from truefalse import TrueFalseQuestion  # type: ignore[import-not-found]

    monkeypatch.setitem(TYPES, "truefalse", TrueFalseQuestion)
    env = environment("en")
    monkeypatch.setattr(env, "loader", ChoiceLoader([env.loader, FileSystemLoader(NEWTYPE)]))
    return TrueFalseQuestion


def test_a_new_type_goes_through_every_stage(truefalse: type, tmp_path: Path) -> None:
    from konum.check import check_banks
    from konum.config import options_from
    from konum.course import load_course
    from konum.exam import build_versions
    from konum.exports.cards import build_cards
    from konum.exports.gift import build_gift
    from konum.exports.moodle import build_moodle
    from konum.pagequiz import read_quizzes
    from konum.render import render_quiz
    from konum.terminal import Runner, parse

    banks = tmp_path / "banks"
    banks.mkdir()
    (banks / "units.yml").write_text(TRUEFALSE_BANK, encoding="utf-8")
    report = check_banks(banks)
    assert [(p.line, p.question_id, p.field, p.message) for p in report.problems] == [
        (12, "force-unit-wrong", "answer", 'wrong type: expected true or false, found text "maybe"')
    ]

    (banks / "units.yml").write_text(TRUEFALSE_BANK.rsplit("  - id: force-unit-wrong", 1)[0])
    course = load_course(options_from({"banks": str(banks)}, root=tmp_path))
    [question] = course.banks[0].questions
    assert isinstance(question, truefalse) and question.answer is True
    concretes = {c.question.id: c for c in course.concretes()}

    page = render_quiz(list(concretes.values()), "units")
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
    runner = Runner(Console(file=shown), "en", lambda prompt: next(typed, None), None)
    runner.quiz(read_quizzes(parse(page), "page.html")[0])
    assert "(1) True (2) False" in shown.getvalue()
    assert shown.getvalue().split("Wrong\n", 1)[1].startswith("Right\n")


# --- each text converted once ---------------------------------------------------------------


@pytest.mark.slow
def test_one_build_converts_each_text_once(built_site: Path) -> None:
    report = json.loads((built_site.parent / "real-site.conversions.json").read_text())
    assert report["texts"] > 1000, "the count saw the course's texts"
    assert report["repeated"] == {}


def test_konum_is_the_engine() -> None:
    assert Path(konum.__file__).resolve().parent == ENGINE
