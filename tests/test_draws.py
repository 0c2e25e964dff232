"""Draws without surprises, a computed question's unit on every output, and the small points
of issue 33 (a teacher's trial on a chemistry site).

One small site is written once per module (``site``): a bank whose questions are sound, with
a generator of its own (``gen.py``, a plugin file beside ``mkdocs.yml``) and units. The check
errors come from a second bank beside it, read with the same plugin.
"""

from __future__ import annotations

import re
from pathlib import Path

import markdown
import pytest
from lxml import etree

from konum.build import read_site_config
from konum.check import check_banks
from konum.computed import GeneratorError, computed_variants
from konum.course import Course, course_for
from konum.exam import ExamError, build_versions, render_pages
from konum.exports.cards import build_cards
from konum.exports.gift import build_gift
from konum.exports.moodle import build_moodle
from konum.formatting import format_number, with_unit
from konum.problems import format_text
from konum.quiz import QuizError
from konum.render import render_quiz
from konum.types import ComputedQuestion, Concrete
from konum.types.computed import format_preview
from konum.types.fill import regex_example

GENERATOR = '''
from konum.computed import BaseGenerator, Distractor, param, specs
from konum.model import Range


class Moles(BaseGenerator):
    """Gas volume at STP; kind 1 has two misconceptions only, kind 2 three."""

    name = "moles"
    title = "The volume of n moles of a gas"
    params = specs(
        param("n", "float", Range(0.5, 3, 0.25), Range(0.25, 10), "amount, mol"),
        param("kind", "int", Range(1, 2), Range(1, 5), "how many mistakes apply"),
    )
    default_decimals = 2
    misconceptions = {"rt": "uses 24 L at room temperature", "half": "halves", "double": "doubles"}

    def build(self, v, decimals):
        n = v["n"]
        wrong = [Distractor(n * 24.0, "rt", "Room temperature."),
                 Distractor(n * 11.2, "half", "Half.")]
        if v["kind"] == 2:
            wrong.append(Distractor(n * 44.8, "double", "Double."))
        return self.make(v, prompt=f"What volume do {n} mol of gas take at STP?", answer=n * 22.4,
                         decimals=decimals, solution=f"$V = {n} \\\\cdot 22.4$", distractors=wrong,
                         unit="litres")


GENERATORS = [Moles()]
'''

SOUND = """\
bank: gas
title: Gas
questions:
  - id: volume-choice
    type: computed
    generator: moles
    params: {kind: 2}
    answer: choice
    unit: L
  - id: volume-typed
    type: computed
    generator: moles
    unit: dm³
  - id: pressure
    type: computed
    formula: "n * 8.314 * t / V"
    params: {n: {min: 1, max: 3}, t: [273.15, 298], V: [10, 20]}
    prompt: "{{ n }} mol at {{ t }} K in {{ V }} L: what pressure?"
    decimals: 1
    unit: kPa
  - id: pressure-choice
    type: computed
    formula: "n * 8.314 * t / V"
    params: {n: {min: 1, max: 3}, t: [273, 298], V: [10, 20]}
    prompt: "{{ n }} mol at {{ t }} K in {{ V }} L: what pressure?"
    answer: choice
    decimals: 1
    unit: kPa
    misconceptions:
      - {formula: "n * 8.314 * (t - 273) / V", feedback: Kelvin.}
      - {formula: "n * 8.314 * t * V", feedback: Divide.}
  - id: avogadro
    type: fill
    prompt: "Avogadro's number is ____ times 10²³ per mole."
    blanks:
      - regex: '6\\.02[0-9]*'
    explanation: 6.02 times 10²³.
  - id: two-lines
    type: output
    prompt: What does it print?
    solution: "print(1 + 1)"
    recorded:
      solution: ecd9b3fb
      output: |
        2
    explanation: Two.
"""

BROKEN = """\
bank: broken
title: Broken
questions:
  - id: never-kind-1
    type: computed
    generator: moles
    params: {kind: [1, 2]}
    answer: choice
  - id: rounds-to-zero
    type: computed
    formula: "n / 1000"
    params: {n: {min: 1, max: 3}}
    prompt: "{{ n }} mL in litres?"
    decimals: 2
  - id: three-variants
    type: computed
    formula: "2 * n"
    params: {n: [1, 2, 3]}
    prompt: "Twice {{ n }}?"
  - id: caret
    type: computed
    formula: "n * t / V^2"
    params: {n: {min: 1, max: 3}, t: [273, 298], V: [10, 20]}
    prompt: "{{ n }} {{ t }} {{ V }}?"
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("chemistry")
    (root / "banks").mkdir()
    (root / "broken").mkdir()
    (root / "docs").mkdir()
    (root / "gen.py").write_text(GENERATOR, encoding="utf-8")
    (root / "banks" / "gas.yml").write_text(SOUND, encoding="utf-8")
    (root / "broken" / "broken.yml").write_text(BROKEN, encoding="utf-8")
    (root / "mkdocs.yml").write_text(
        "site_name: Chemistry\nmarkdown_extensions:\n  - konum:\n      banks: banks\n"
        "      seed: 7\n      variants: 5\n      generators: [gen.py]\n",
        encoding="utf-8",
    )
    return root


@pytest.fixture(scope="module")
def course(site: Path) -> Course:
    return course_for(read_site_config(site / "mkdocs.yml").options)


@pytest.fixture(scope="module")
def concretes(course: Course) -> dict[str, Concrete]:
    return {q.id: course.concrete(q) for bank in course.banks for q in bank.questions}


# --- draws --------------------------------------------------------------------------------


def test_draw_problems_are_check_errors_at_their_lines(site: Path, course: Course) -> None:
    bank = site / "broken" / "broken.yml"
    report = check_banks([bank], plugins=course.plugins, project=site)
    shown = format_text(report.problems).splitlines()
    assert shown[:4] == [
        f"{bank}:7:20: [never-kind-1] params.kind: with kind = 1, moles never gave 3 distractors "
        "that differ from the answer and each other at 2 decimals (12 drawings or more each), "
        "so no reader sees it: leave it (and any like it) out of params.kind, ask for fewer "
        "options or show more decimals",
        f"{bank}:14:15: [rounds-to-zero] decimals: the answer 0.001 for n = 1 shows as 0.00 at "
        "2 decimals, so 0 counts as right; ask for 3 decimals or change the params",
        f"{bank}:18:13: [three-variants] params: the params (n) allow at most 3 different "
        "variants, fewer than the 5 the site draws of each computed question: widen a range or "
        "add values (or lower the site's 'variants')",
        f"{bank}:22:24: [caret] formula: '^' is not an operator of formulas: use ** for powers, "
        "as in x**2",
    ]
    line = bank.read_text(encoding="utf-8").splitlines()[21]
    assert line[23:25] == "^2"  # the column is the operator's
    fewer = check_banks([bank], plugins=course.plugins, variants=3)
    assert "three-variants" not in {p.question_id for p in fewer.problems}


def test_variants_are_distinct_or_the_draw_says_why(course: Course) -> None:
    q = next(q for b in course.banks for q in b.questions if q.id == "pressure")
    assert isinstance(q, ComputedQuestion)
    recipe = q.recipe(course.plugins)
    for seed in range(20):  # 12 combinations: five distinct ones every time
        values = [tuple(v.values.items()) for v in computed_variants(recipe, seed, 5)]
        assert len(set(values)) == 5
    every = computed_variants(recipe, 1, 12)
    assert len({tuple(v.values.items()) for v in every}) == 12
    with pytest.raises(GeneratorError, match="drew no values unlike those of the 12 variants"):
        computed_variants(recipe, 1, 13)
    with pytest.raises(ExamError, match=r"^--versions 13: question pressure: .* 12 variants"):
        build_versions(course, [q], seed=7, versions=13)  # konum exam says it in one line


# --- the unit on every output ---------------------------------------------------------------


def test_the_unit_follows_every_number(course: Course, concretes: dict[str, Concrete]) -> None:
    units = {"volume-choice": "L", "volume-typed": "dm³", "pressure": "kPa"}
    for qid, unit in (*units.items(), ("pressure-choice", "kPa")):
        for v in concretes[qid].variants:
            assert v.unit == unit
            assert all(o.text == with_unit(o.text.split("\u00a0")[0], unit) for o in v.options)
            assert all(o.text.endswith(f"\u00a0{unit}") for o in v.options)
    typed, choice = concretes["pressure"].variants[0], concretes["volume-choice"].variants[0]
    assert typed.solution.rstrip().endswith(f"**{typed.shown_answer}**\u00a0kPa.")

    page = render_quiz([concretes[q] for q in units], "gas", plugins=course.plugins)
    assert all(f"{o.text.split(chr(160))[0]}&nbsp;L" in page for o in choice.options)
    assert 'class="konum-unit" id="konum-gas-pressure-v0-number-unit">kPa<' in page

    cards = {c.key: c.back for c in build_cards(course.banks, concretes.values())}
    assert f"{typed.shown_answer}\u00a0kPa" in cards["question:pressure:variant:0"]
    assert f"{choice.shown_answer}\u00a0L" in cards["question:volume-choice:variant:0"]

    moodle = build_moodle(course.banks, concretes, plugins=course.plugins).text
    xml = etree.fromstring(moodle.encode("utf-8"))
    assert set(xml.xpath("//unit_name/text()")) >= {"dm³", "kPa"}
    options = xml.xpath("//question[name/text='volume-choice #1']/answer/text/text()")
    assert sorted(options) == sorted(o.text.replace("\u00a0", "&nbsp;") for o in choice.options)
    multi = xml.xpath("//question[@type='calculatedmulti']/answer/text/text()")
    assert multi and all(t.endswith("\u00a0kPa") for t in multi)

    gift = build_gift(course.banks, concretes).text
    assert re.search(r"\{#[\d.]+:[\d.]+\n####.*?\n\} kPa\n", gift, re.S)
    assert "=" + choice.shown_answer + "&nbsp;L" in gift

    (version,) = build_versions(course, list(course.banks[0].questions), seed=7, versions=1)
    paper, key = render_pages(version, title="Chemistry")
    printed = {q.id: q for q in version.questions}
    assert printed["volume-choice"].options
    assert all(o.endswith("&nbsp;L") for o in printed["volume-choice"].options)
    assert "\u00a0kPa</strong>" in key and "&nbsp;L</li>" in paper


# --- the small points -------------------------------------------------------------------------


def test_preview_shows_values_as_the_prompt_does(
    course: Course, concretes: dict[str, Concrete]
) -> None:
    q = next(q for b in course.banks for q in b.questions if q.id == "pressure")
    variants = concretes["pressure"].variants
    text = format_preview(q, variants, course.plugins)  # type: ignore[arg-type]
    assert "t=273.15," in text
    for v in variants:
        assert f"t={v.values['t']}," in text and f"at {v.values['t']} K" in v.prompt
    assert not re.search(r"=\d+\.\d{6}\b", text)
    assert "1 decimal)" in text and f"{variants[0].shown_answer}\u00a0kPa" in text


def test_a_regex_blank_prints_a_readable_answer(course: Course) -> None:
    assert regex_example(r"6\.02[0-9]*") == "6.02"
    assert regex_example(r"\s*len\(\s*ids\s*\)\s*|\s*ids\.size\s*") == "len(ids)"
    assert regex_example(r"(ab|cd){2}e?") == "abab"
    assert regex_example(r"[\d]+(\.\d+)?") == "0"
    assert regex_example(r"\bword") is None  # beyond the rules: the pattern is shown
    questions = [q for b in course.banks for q in b.questions if q.id in ("avogadro", "two-lines")]
    (version,) = build_versions(course, questions, seed=7, versions=1)
    paper, key = render_pages(version, title="Chemistry")
    assert "<code>6.02</code> or any answer matching <code>6\\.02[0-9]*</code>" in key
    # The output question leaves a line per printed line and one more to write on.
    lines = re.search(r'<div class="konum-exam-lines">(.*?)</div>', paper)
    assert lines is not None and lines.group(1).count('class="konum-exam-line"') == 2
    assert "It prints:" in paper


def test_bank_errors_on_a_page_say_they_are_in_the_banks(site: Path) -> None:
    md = markdown.Markdown(
        extensions=["konum"],
        extension_configs={
            "konum": {"banks": str(site / "broken"), "generators": [str(site / "gen.py")]}
        },
    )
    with pytest.raises(QuizError) as caught:
        md.convert("/// quiz | broken\n///\n")
    first, second = str(caught.value).splitlines()[:2]
    assert first == "the question banks have problems (in the bank files, not in this page):"
    assert second.startswith(f"{site / 'broken' / 'broken.yml'}:7:20: [never-kind-1] params.kind:")


def test_messages_count_decimals_with_the_catalogue(site: Path) -> None:
    shown = format_number(0, 1)
    bank = site / "one.yml"
    bank.write_text(
        "bank: one\ntitle: One\nquestions:\n  - id: tenth\n    type: computed\n"
        "    formula: 'n / 100'\n    params: {n: {min: 1, max: 4}}\n    prompt: '{{ n }}'\n"
        "    decimals: 1\n",
        encoding="utf-8",
    )
    (problem,) = check_banks([bank]).problems
    assert f"shows as {shown} at 1 decimal," in problem.message
    assert "ask for 2 decimals" in problem.message
