"""Moodle XML export, read back with lxml and compared question by question with konum's.

The elements checked are those Moodle's importer reads (question/format/xml/format.php,
moodle/moodle 00055ef6abc837f53259217d5de9dd45641fb74f): the calculated questions' answer
fields it reads without a default, their dataset definitions and items. Formulas are
evaluated the way Moodle does it (wildcards replaced by ``(value)``, then the PHP
expression) by a small evaluator below, on every dataset item, and compared with
konum's answer for that variant.
"""

from __future__ import annotations

import ast
import base64
import html
import math
import os
import re
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from lxml import etree

from konum import images, model
from konum.build import read_site_config
from konum.computed.expression import parse
from konum.config import override
from konum.course import Course, course_for
from konum.errors import ExportError
from konum.exports.moodle import write_moodle
from konum.figures import figure_file
from konum.formatting import BLANK
from konum.lms import moodle_formula
from konum.markup import render_markdown
from konum.model import Misconception
from konum.spoken import plain_text
from konum.types import (
    Bank,
    ChoiceQuestion,
    ComputedQuestion,
    Concrete,
    FillQuestion,
    MatchingQuestion,
    NumericQuestion,
    OrderingQuestion,
    OutputQuestion,
    Pair,
    Question,
)
from tests.helpers import build_moodle, make_concrete
from tests.miniproject import konum as run_konum

REPO = Path(__file__).resolve().parent.parent
PHYSICS = REPO / "examples" / "physics"
#: Moodle's list of grades (question_bank::fraction_options_full), as fractions.
GRADES = [1, 0.9, 0.8333333, 0.8, 0.75, 0.7, 0.6666667, 0.6, 0.5, 0.4, 0.3333333, 0.3, 0.25]
GRADES += [0.2, 0.1666667, 0.1428571, 0.125, 0.1111111, 0.1, 0.05, 0]
GRADES += [-g for g in GRADES]


#: The images of the courses the tests read (their fixtures add them).
STORE: dict[str, images.Image] = {}


def html_of(text: str, *, inline: bool = False) -> str:
    """konum's HTML of ``text`` as Moodle XML holds it: images as ``@@PLUGINFILE@@/NAME``."""
    markup = render_markdown(text, inline=inline, math="anki").strip()
    return images.substitute(
        markup, STORE, lambda image, attrs: images.img_tag(f"@@PLUGINFILE@@/{image.name}", attrs)
    )


# --- Moodle's formulas, evaluated as PHP would -----------------------------------------------


def _php_round(x: float, places: float = 0) -> float:
    scale = 10.0 ** int(places)
    return math.copysign(math.floor(abs(x) * scale + 0.5) / scale, x)


PHP: dict[str, Callable[..., float]] = {
    "pow": math.pow,
    "sqrt": math.sqrt,
    "exp": math.exp,
    "log": lambda x, base=math.e: math.log(x, base),
    "log10": math.log10,
    "sin": math.sin,
    "cos": math.cos,
    "tan": math.tan,
    "asin": math.asin,
    "acos": math.acos,
    "atan": math.atan,
    "atan2": math.atan2,
    "sinh": math.sinh,
    "cosh": math.cosh,
    "tanh": math.tanh,
    "deg2rad": math.radians,
    "rad2deg": math.degrees,
    "abs": abs,
    "floor": math.floor,
    "ceil": math.ceil,
    "round": _php_round,
    "min": min,
    "max": max,
    "pi": lambda: math.pi,
}
PLACEHOLDER = re.compile(r"\{([A-Za-z][A-Za-z0-9_]*)\}")


def check_moodle_syntax(formula: str) -> None:
    """What qtype_calculated_find_formula_errors allows: after the wildcards, only numbers,
    + - * / % operators, brackets, commas and the functions above; no // comment."""
    assert "//" not in formula and "#" not in formula
    bare = PLACEHOLDER.sub("1.0", formula).replace(" ", "")
    words = set(re.findall(r"[a-z_][a-z0-9_]*(?=\()", bare))
    assert words <= set(PHP), words - set(PHP)
    rest = re.sub(r"[a-z_][a-z0-9_]*\(", "(", bare)
    assert re.fullmatch(r"[-+*/%().,0-9eE]*", rest), rest


def evaluate_moodle(formula: str, values: dict[str, str]) -> float:
    """``formula`` with each ``{name}`` replaced by ``(value)``, evaluated."""
    check_moodle_syntax(formula)
    substituted = PLACEHOLDER.sub(lambda m: f"({values[m.group(1)]})", formula)
    return _evaluate(ast.parse(substituted, mode="eval").body)


def _evaluate(node: ast.AST) -> float:
    if isinstance(node, ast.Constant):
        return float(node.value)
    if isinstance(node, ast.UnaryOp):
        value = _evaluate(node.operand)
        return -value if isinstance(node.op, ast.USub) else value
    if isinstance(node, ast.BinOp):
        a, b = _evaluate(node.left), _evaluate(node.right)
        operations = {ast.Add: a + b, ast.Sub: a - b, ast.Mult: a * b}
        if isinstance(node.op, ast.Div):
            return a / b
        return operations[type(node.op)]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        return float(PHP[node.func.id](*(_evaluate(arg) for arg in node.args)))
    raise AssertionError(f"not a Moodle formula: {ast.dump(node)}")


def replace_text_formulas(text: str, values: dict[str, str], decimals: int) -> str:
    """Moodle's replace_expressions_in_text: ``{=...}`` evaluated and shown with
    ``decimals`` decimals (``%.NF``), then the wildcards."""

    def formula(match: re.Match[str]) -> str:
        return f"{evaluate_moodle(match.group(1), values):.{decimals}f}"

    text = re.sub(r"\{=([^{}]*(?:\{[^{}]+\}[^{}]*)*)\}", formula, text)
    return PLACEHOLDER.sub(lambda m: values[m.group(1)], text)


# --- the export, parsed ---------------------------------------------------------------------------


@dataclass
class Read:
    """One ``<question>`` of the file and the category it was read in."""

    element: etree._Element
    category: str

    @property
    def kind(self) -> str:
        return str(self.element.get("type"))

    def text(self, path: str) -> str:
        found = self.element.find(path)
        assert found is not None, path
        return found.text or ""

    @property
    def answers(self) -> list[etree._Element]:
        return list(self.element.findall("answer"))


def read_export(text: str) -> tuple[dict[str, Read], list[tuple[str, str]]]:
    """The questions by idnumber, and the categories (path, idnumber) in order."""
    root = etree.fromstring(text.encode("utf-8"))
    assert root.tag == "quiz"
    questions: dict[str, Read] = {}
    categories: list[tuple[str, str]] = []
    current = ""
    for element in root.findall("question"):
        if element.get("type") == "category":
            current = element.findtext("category/text") or ""
            categories.append((current, element.findtext("idnumber") or ""))
            assert element.find("info").get("format") == "html"
            continue
        idnumber = element.findtext("idnumber")
        assert idnumber and idnumber not in questions
        assert element.findtext("name/text")
        assert element.find("questiontext").get("format") == "html"
        questions[idnumber] = Read(element, current)
    return questions, categories


@pytest.fixture(scope="module")
def physics() -> tuple[Course, str]:
    settings = read_site_config(PHYSICS / "mkdocs.yml")
    course = course_for(settings.options)
    STORE.update(course.images)
    return course, settings.deck


@pytest.fixture(scope="module")
def own_course() -> tuple[Course, str]:
    settings = read_site_config(REPO / "mkdocs.yml")
    course = course_for(settings.options)
    STORE.update(course.images)
    return course, settings.deck


def export_of(course: Course, deck: str) -> str:
    concretes = {c.question.id: c for c in course.concretes()}
    return build_moodle(
        course.banks, concretes, deck=deck, plugins=course.plugins, images=course.images
    ).text


@pytest.fixture(scope="module")
def physics_read(physics: tuple[Course, str]) -> tuple[dict[str, Read], list[tuple[str, str]]]:
    return read_export(export_of(*physics))


@pytest.fixture(scope="module")
def own_read(own_course: tuple[Course, str]) -> tuple[dict[str, Read], list[tuple[str, str]]]:
    return read_export(export_of(*own_course))


def questions_of(course: Course) -> Iterator[tuple[Bank, Question]]:
    for bank in course.banks:
        for q in bank.questions:
            yield bank, q


# --- the checks, one per konum type ---------------------------------------------------------------


def check_choice(read: Read, q: ChoiceQuestion) -> None:
    assert read.kind == "multichoice"
    assert read.text("single") == ("false" if q.multiple else "true")
    right = sum(o.correct for o in q.options)
    answers = {html_of(o.text, inline=True): o for o in q.options}
    assert len(read.answers) == len(q.options)
    total = 0.0
    for answer in read.answers:
        option = answers[answer.findtext("text")]
        fraction = float(answer.get("fraction")) / 100
        assert any(abs(fraction - grade) < 1e-5 for grade in GRADES), fraction
        if option.correct:
            assert fraction == pytest.approx(1 / right, abs=1e-6)
            total += fraction
        else:
            # the site's rule: each wrong tick takes away what a right one gives
            assert fraction == pytest.approx(-1 / right if q.multiple else 0, abs=1e-6)
        assert answer.findtext("feedback/text") == (
            html_of(option.feedback) if option.feedback else ""
        )
    assert total == pytest.approx(1, abs=1e-6)
    fixed = not q.shuffle or any(o.pin for o in q.options)
    assert read.text("shuffleanswers") == ("false" if fixed else "true")


def check_fill(read: Read, q: FillQuestion) -> None:
    if len(q.blanks) == 1:
        assert read.kind == "shortanswer"
        assert read.text("questiontext/text") == html_of(q.prompt)
        assert read.text("usecase") == ("1" if q.blanks[0].case_sensitive else "0")
        got = [a.findtext("text") for a in read.answers]
        assert got == [a.replace("*", "\\*") for a in q.blanks[0].answers]
        assert all(a.get("fraction") == "100" for a in read.answers)
        return
    assert read.kind == "cloze"
    text = read.text("questiontext/text")
    markers = re.findall(r"\{1:(SHORTANSWER|SHORTANSWER_C):([^}]*)\}", text)
    assert len(markers) == len(q.blanks)
    for (kind, alternatives), blank in zip(markers, q.blanks, strict=True):
        assert kind == ("SHORTANSWER_C" if blank.case_sensitive else "SHORTANSWER")
        answers = [html.unescape(a.removeprefix("=")) for a in alternatives.split("~")]
        assert answers == [a.replace("*", "\\*") for a in blank.answers]
    tokens = iter(range(len(q.blanks)))
    expected = html_of(BLANK.sub(lambda _m: f"KONUMBLANK{next(tokens)}X", q.prompt))
    replaced = iter(range(len(q.blanks)))
    marked = re.sub(
        r"\{1:SHORTANSWER(?:_C)?:[^}]*\}", lambda _m: f"KONUMBLANK{next(replaced)}X", text
    )
    assert marked == expected


def check_matching(read: Read, q: MatchingQuestion) -> None:
    assert read.kind == "matching"
    subs = [
        (s.findtext("text"), s.findtext("answer/text")) for s in read.element.findall("subquestion")
    ]
    expected = [(html_of(p.left, inline=True), plain_text(p.right)) for p in q.pairs]
    expected += [("", plain_text(d)) for d in q.distractors]
    assert subs == expected


def check_numeric(read: Read, q: NumericQuestion) -> None:
    assert read.kind == "numerical"
    (answer,) = read.answers
    assert float(answer.findtext("text")) == q.answer
    tolerance = abs(q.answer) * q.tolerance if q.relative else q.tolerance
    assert float(answer.findtext("tolerance")) == pytest.approx(tolerance, rel=1e-12, abs=0)
    assert read.element.findtext("units/unit/unit_name") == q.unit


def check_calculated(read: Read, q: ComputedQuestion, concrete: Concrete) -> None:
    variants = concrete.variants
    assert read.kind == ("calculatedmulti" if q.answer == "choice" else "calculated")
    datasets = read.element.findall("dataset_definitions/dataset_definition")
    assert [d.findtext("name/text") for d in datasets] == list(q.params)
    items: dict[str, list[str]] = {}
    for definition in datasets:
        name = definition.findtext("name/text")
        for tag in ("status/text", "type", "distribution/text", "decimals/text"):
            assert definition.findtext(tag) is not None, tag
        assert definition.findtext("status/text") == "private"
        assert int(definition.findtext("itemcount")) == len(variants)
        low, high = (
            float(definition.findtext("minimum/text")),
            float(definition.findtext("maximum/text")),
        )
        numbers = [
            int(i.findtext("number")) for i in definition.findall("dataset_items/dataset_item")
        ]
        assert numbers == list(range(1, len(variants) + 1))
        items[name] = [
            i.findtext("value") for i in definition.findall("dataset_items/dataset_item")
        ]
        assert all(low <= float(v) <= high for v in items[name])
    answers = read.answers
    for answer in answers:  # read by the importer without a default
        for tag in ("tolerance", "tolerancetype", "correctanswerformat", "correctanswerlength"):
            assert answer.findtext(tag) is not None, tag
        assert answer.findtext("tolerancetype") == "2"  # nominal: absolute
        assert answer.findtext("correctanswerformat") == "1"
        assert int(answer.findtext("correctanswerlength")) == variants[0].decimals
        assert float(answer.findtext("tolerance")) == pytest.approx(
            max(v.tolerance for v in variants)
        )
        assert float(answer.findtext("tolerance")) >= max(v.tolerance for v in variants)
    prompt = read.text("questiontext/text")
    for k, variant in enumerate(variants):
        values = {name: items[name][k] for name in q.params}
        assert {n: float(v) for n, v in values.items()} == {
            n: float(variant.values[n]) for n in q.params
        }
        shown = PLACEHOLDER.sub(lambda m: values[m.group(1)], prompt)  # noqa: B023
        assert html.unescape(shown) == html.unescape(html_of(variant.prompt))
        if q.answer == "numeric":
            (answer,) = answers
            value = evaluate_moodle(answer.findtext("text"), values)
            assert value == pytest.approx(variant.answer, rel=1e-12, abs=1e-300)
            continue
        texts = {o.misconception: o.text for o in variant.options}
        right = next(o.text for o in variant.options if o.correct)
        shown_options = []
        for answer in answers:
            formula = answer.findtext("text")
            assert formula.startswith("{=") and formula.endswith("}")
            shown_options.append(replace_text_formulas(formula, values, variant.decimals))
        assert answers[0].get("fraction") == "100"
        assert shown_options[0] == right
        for m, answer, text in zip(q.misconceptions, answers[1:], shown_options[1:], strict=True):
            assert answer.get("fraction") == "0"
            assert text == texts[m.formula]
            assert html.unescape(answer.findtext("feedback/text")) == html_of(m.feedback)


def check_per_variant(
    found: dict[str, Read], q: ComputedQuestion, concrete: Concrete, bank_title: str
) -> None:
    for variant in concrete.variants:
        read = found[f"konum:{q.id}:{variant.index + 1}"]
        assert read.category.endswith(f"/{bank_title}/{q.id}")
        assert read.text("name/text") == f"{q.id} #{variant.index + 1}"
        assert read.text("questiontext/text").startswith(html_of(variant.prompt))
        feedback = read.text("generalfeedback/text")
        assert html_of(variant.solution) in feedback
        if variant.options:
            assert read.kind == "multichoice"
            got = [
                (a.findtext("text"), a.get("fraction"), a.findtext("feedback/text"))
                for a in read.answers
            ]
            expected = [
                (
                    html_of(o.text, inline=True),
                    "100" if o.correct else "0",
                    html_of(o.feedback) if o.feedback else "",
                )
                for o in variant.options
            ]
            assert got == expected
        else:
            assert read.kind == "numerical"
            (answer,) = read.answers
            assert float(answer.findtext("text")) == variant.answer
            assert float(answer.findtext("tolerance")) == variant.tolerance


def check_course(course: Course, found: dict[str, Read]) -> set[str]:
    """Every exportable question checked; returns the ids of the questions not found."""
    missing = set()
    for bank, q in questions_of(course):
        concrete = course.concrete(q)
        read = found.get(f"konum:{q.id}")
        if isinstance(q, ComputedQuestion):
            if read is None:
                check_per_variant(found, q, concrete, bank.title)
            else:
                assert q.formula is not None
                check_calculated(read, q, concrete)
            continue
        if read is None:
            missing.add(q.id)
            continue
        assert read.text("name/text") == q.id
        assert read.category.endswith(f"/{bank.title}")
        feedback = html_of(q.explanation) if q.explanation.strip() else ""
        assert read.text("generalfeedback/text") == feedback
        if isinstance(q, ChoiceQuestion):
            check_choice(read, q)
        elif isinstance(q, FillQuestion):
            check_fill(read, q)
        elif isinstance(q, MatchingQuestion):
            check_matching(read, q)
        else:
            assert isinstance(q, NumericQuestion)
            check_numeric(read, q)
        if q.figure is None and not isinstance(q, FillQuestion):
            assert read.text("questiontext/text") == html_of(q.prompt)
        if read.kind != "cloze":  # a cloze question's grade is its gaps' sum
            assert float(read.text("defaultgrade")) == pytest.approx(q.points)
    return missing


# --- tests ---------------------------------------------------------------------------------------


def test_physics_export_holds_every_question(physics, physics_read) -> None:
    course, _ = physics
    found, categories = physics_read
    assert check_course(course, found) == set()
    kinds = {r.kind for r in found.values()}
    assert {
        "calculated",
        "calculatedmulti",
        "multichoice",
        "shortanswer",
        "matching",
        "numerical",
    } <= kinds
    assert ("$course$/top/Physics/Mechanics", "konum:mechanics") in categories
    # The generator question has a category of its own, one question per variant.
    assert (
        "$course$/top/Physics/Mechanics/projectile-range",
        "konum:mechanics:projectile-range",
    ) in categories
    assert [k for k in found if k.startswith("konum:projectile-range:")] == [
        f"konum:projectile-range:{i}" for i in range(1, course.variants + 1)
    ]


def test_own_course_export_skips_regex_blanks_and_ordering(own_course, own_read) -> None:
    course, _ = own_course
    found, _ = own_read
    expected_missing = {
        q.id
        for _, q in questions_of(course)
        if (isinstance(q, FillQuestion) and any(b.regex is not None for b in q.blanks))
        or isinstance(q, (OutputQuestion, OrderingQuestion))
    }
    assert expected_missing  # the course has some
    assert check_course(course, found) == expected_missing
    assert {r.kind for r in found.values()} >= {"cloze", "shortanswer", "multichoice"}


def test_a_figure_travels_as_a_base64_file(own_course, own_read) -> None:
    course, _ = own_course
    found, _ = own_read
    with_figure = [q for _, q in questions_of(course) if q.figure is not None]
    assert with_figure
    for q in with_figure:
        read = found[f"konum:{q.id}"]
        ref = q.figure
        name, data = figure_file(
            course.plugins.figure(ref.name), ref.alt, ref.caption, **ref.params
        )
        file = read.element.find("questiontext/file")
        assert file.get("name") == name and file.get("encoding") == "base64"
        assert base64.b64decode(file.text) == data
        assert f'src="@@PLUGINFILE@@/{name}"' in read.text("questiontext/text")


def test_formulas_in_moodle_syntax_compute_what_konum_computes() -> None:
    cases = [
        ("m * a", {"m": 7, "a": 1.5}),
        ("0.5 * m * v**2", {"m": 2.5, "v": 12}),
        ("V**2 / R - -3", {"V": 9, "R": 47}),
        ("a % b + a // b", {"a": -7.5, "b": 2}),
        ("sqrt(2 * g * h) + log2(h) + log10(h) + log(h)", {"g": 9.81, "h": 20}),
        ("v**2 * sin(2 * radians(theta)) / g", {"v": 20, "theta": 35, "g": 9.81}),
        (
            "hypot(x, y) + arctan2(y, x) + degrees(arcsin(0.5)) + arccos(0.2) + arctan(x)",
            {"x": 3, "y": 4},
        ),
        ("pi * r**2 + e**x + exp(-x) + abs(-x) + floor(r) + ceil(r)", {"r": 1.5, "x": 0.25}),
        (
            "round(x, 2) + round(y) + min(x, y, 3) + max(x, y) + sinh(x) + cosh(x) + tanh(y)",
            {"x": 2.345, "y": -2.5},
        ),
        ("tan(x) + cos(x)", {"x": 0.3}),
    ]
    for text, values in cases:
        formula = moodle_formula(text, tuple(values))
        expected = parse(text, tuple(values)).evaluate(values)
        shown = {name: str(value) for name, value in values.items()}
        assert evaluate_moodle(formula, shown) == pytest.approx(expected, rel=1e-12), (
            text,
            formula,
        )
    assert moodle_formula("m * a", ("m", "a")) == "({m} * {a})"


def _formula_bank(**changes: object) -> Bank:
    question = ComputedQuestion(
        id="twice",
        bank="demo",
        prompt="A {{ m }} kg mass and {{ a }} m/s². Literal braces: $\\frac{m}{a}$.",
        explanation="$F = m a$, not $\\frac{m}{a}$.",
        source=model.Source("demo.yml", 1, 1),
        formula="m * a",
        params={"m": model.Range(2, 9), "a": model.Choices((1.5, 2.5))},
        misconceptions=(Misconception("m / a", "Multiply, do not divide."),),
    )
    return Bank("demo", "Demo", "demo.yml", (replace(question, **changes),))  # type: ignore[arg-type]


Exported = tuple[dict[str, Read], list[tuple[str, str]], dict[str, Concrete]]


def _export(bank: Bank, seed: int = 3, variants: int = 4) -> Exported:
    concretes = {q.id: make_concrete(q, seed, variants) for q in bank.questions}
    found, categories = read_export(build_moodle([bank], concretes, deck="Course").text)
    return found, categories, concretes


def test_literal_braces_are_not_wildcards() -> None:
    bank = _formula_bank()
    found, _, concretes = _export(bank)
    read = found["konum:twice"]
    assert read.kind == "calculated"
    check_calculated(read, bank.questions[0], concretes["twice"])
    text = read.text("questiontext/text")
    assert "{m}" in text and "\\frac&#123;m&#125;&#123;a&#125;" in text
    assert "{" not in read.text("generalfeedback/text")


def test_prompts_moodle_cannot_reproduce_go_per_variant() -> None:
    cases = {
        "arithmetic in the template": _formula_bank(
            prompt="Twice the mass, {{ m * 2 }} kg, at {{ a }} m/s²?"
        ),
        "formatting in the template": _formula_bank(prompt="{{ fmt(m, 2) }} kg at {{ a }} m/s²?"),
        "fewer options than misconceptions": _formula_bank(
            answer="choice",
            options=2,
            misconceptions=(
                Misconception("m / a", "Multiply."),
                Misconception("m + a", "Multiply, do not add."),
            ),
        ),
    }
    for why, bank in cases.items():
        found, categories, concretes = _export(bank)
        assert "konum:twice" not in found, why
        assert ("$course$/top/Course/Demo/twice", "konum:demo:twice") in categories, why
        check_per_variant(found, bank.questions[0], concretes["twice"], "Demo")
    # One option per misconception in every variant: a calculated multichoice question.
    bank = _formula_bank(answer="choice", options=2)
    found, _, concretes = _export(bank)
    check_calculated(found["konum:twice"], bank.questions[0], concretes["twice"])


def test_matching_with_two_answers_is_skipped_by_id() -> None:
    src = model.Source("demo.yml", 1, 1)
    small = MatchingQuestion(
        id="two-pairs",
        bank="demo",
        prompt="Match.",
        explanation="",
        source=src,
        pairs=(Pair("a", "1"), Pair("b", "2")),
    )
    bank = Bank("demo", "Demo", "demo.yml", (small,))
    export = build_moodle([bank], {"two-pairs": make_concrete(small, 1)})
    assert export.exported == ()
    assert [s.question_id for s in export.skipped] == ["two-pairs"]
    assert "at least three answers" in export.skipped[0].reason
    assert "two-pairs" not in export.text


def test_same_seed_same_file_other_seed_same_ids(physics) -> None:
    course, deck = physics
    first = export_of(course, deck)
    assert export_of(course, deck) == first
    other = course_for(override(read_site_config(PHYSICS / "mkdocs.yml").options, seed=99))
    second = export_of(other, deck)
    assert second != first
    assert set(read_export(second)[0]) == set(read_export(first)[0])


def test_write_is_atomic(physics, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    course, deck = physics
    target = tmp_path / "quiz.xml"
    target.write_text("old", encoding="utf-8")
    concretes = {c.question.id: c for c in course.concretes()}

    def fail(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("konum.files.os.replace", fail)
    with pytest.raises(ExportError, match="cannot write"):
        write_moodle(course.banks, concretes, target, deck=deck)
    assert target.read_text(encoding="utf-8") == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["quiz.xml"]
    monkeypatch.undo()
    write_moodle(course.banks, concretes, target, deck=deck)
    assert target.read_text(encoding="utf-8").startswith("<?xml")
    assert oct(target.stat().st_mode & 0o777) == oct(0o666 & ~_umask())


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def konum(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return run_konum(cwd, *args)


def test_cli_writes_and_lists_what_it_left_out(tmp_path: Path) -> None:
    out = tmp_path / "physics.xml"
    result = konum("export", "moodle", "-o", str(out), cwd=PHYSICS)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    # The two banks and the questions written in units.md
    assert "konum: wrote 12 of 12 questions" in result.stdout and str(out) in result.stdout
    read_export(out.read_text(encoding="utf-8"))
    own = tmp_path / "own.xml"
    result = konum("export", "moodle", "--seed", "5", "-o", str(own), cwd=REPO)
    assert result.returncode == 0, result.stderr
    lines = result.stderr.splitlines()
    assert lines[0].startswith("konum: 7 questions left out of the Moodle XML export")
    kinds = sorted(
        ("regular expression" in line, "ordering" in line, "program prints" in line)
        for line in lines[1:]
    )
    assert kinds == [(False, False, True)] + [(False, True, False)] * 3 + [(True, False, False)] * 3


def test_ordering_questions_are_listed_as_left_out() -> None:
    src = model.Source("demo.yml", 1, 1)
    q = OrderingQuestion(
        id="order-steps", bank="demo", prompt="Order.", explanation="", source=src,
        items=("a", "b", "c"),
    )  # fmt: skip
    bank = Bank("demo", "Demo", "demo.yml", (q,))
    export = build_moodle([bank], {q.id: make_concrete(q, 1)})
    assert export.exported == () and "order-steps" not in export.text
    assert [s.question_id for s in export.skipped] == ["order-steps"]
    assert "ordering" in export.skipped[0].reason
