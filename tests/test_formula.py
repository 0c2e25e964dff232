"""Formula questions: the safe evaluator, the drawn variants, and what ``konum check`` reports.

The evaluator (konum.computed.expression) must compute what Python's math computes for the
formulas it allows, and refuse everything else before anything runs; a bank's formula
question must draw its numbers from the seed, compute its answer and distractors from its
formulas, and show the formula with the numbers in its worked solution. Every bad input the
issue lists is a problem at the formula's file:line (and column), naming the question and
the field, with no traceback; the ones that would run code leave no trace on disk.
"""

from __future__ import annotations

import math
import subprocess
import sys
import time
from pathlib import Path

import pytest

from konum import model
from konum.computed import sig
from konum.computed.expression import FormulaError, parse
from konum.computed.formula import PROBES, probe_values
from konum.limits import FORMULA_CHARS, FORMULA_DEPTH
from konum.types import ComputedQuestion
from tests.helpers import (
    PE,
    check_banks,
    computed_variants,
    format_preview,
    load_bank,
    make_concrete,
    render_quiz,
)

# --- the evaluator ---------------------------------------------------------------------------

ANYWHERE = object()
VALUES = {"m": 3.0, "a": 2.5, "v": 12.0, "theta": 30.0, "g": 9.81, "x": 0.4}


@pytest.mark.parametrize(
    ("formula", "expected"),
    [
        ("m * a", 3.0 * 2.5),
        ("0.5 * m * v**2", 0.5 * 3.0 * 12.0**2),
        ("-m**2", -(3.0**2)),
        ("(m + a) / (v - m)", (3.0 + 2.5) / (12.0 - 3.0)),
        ("v // m + v % 5", 12.0 // 3.0 + 12.0 % 5),
        ("v**2 * sin(2 * radians(theta)) / g", 12.0**2 * math.sin(2 * math.radians(30)) / 9.81),
        ("sqrt(2 * g * v)", math.sqrt(2 * 9.81 * 12.0)),
        (
            "exp(x) + log(m) + log10(v) + log2(a)",
            math.exp(0.4) + math.log(3) + math.log10(12) + math.log2(2.5),
        ),
        ("arcsin(x) + arccos(x) + arctan(x)", math.asin(0.4) + math.acos(0.4) + math.atan(0.4)),
        ("arctan2(m, a) + hypot(m, a)", math.atan2(3, 2.5) + math.hypot(3, 2.5)),
        ("sinh(x) * cosh(x) / tanh(x)", math.sinh(0.4) * math.cosh(0.4) / math.tanh(0.4)),
        ("abs(a - v) + floor(a) + ceil(a)", abs(2.5 - 12) + 2 + 3),
        ("round(a) + round(m / 7, 3)", 3 + 0.429),  # halves away from zero, as people round
        ("min(m, a, v) + max(m, a)", 2.5 + 3.0),
        ("degrees(pi) + e", 180 + math.e),
        ("+m - -a", 3.0 + 2.5),
    ],
)
def test_allowed_formulas_compute_what_math_computes(formula: str, expected: float) -> None:
    parsed = parse(formula, set(VALUES))
    assert parsed.evaluate(VALUES) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize(
    ("formula", "needle", "offset"),
    [
        ("m +", "not a valid formula", 3),
        ("2m", "write a product with *", 0),
        ("m * g", "unknown name 'g'", 4),
        ("m * aa", "did you mean 'a'?", 4),
        ("m.real", "attribute access ('m.real') is not allowed", 0),
        ("os.system('touch pwned')", "attribute access ('os.system') is not allowed", 0),
        ("__import__('os')", "calling __import__() is not allowed", 0),
        ("open('pwned', 'w')", "calling open() is not allowed", 0),
        ("eval('1')", "calling eval() is not allowed", 0),
        ("m[0]", "indexing", 0),
        ("m < a", "a comparison", 0),
        ("m if a else 1", "a conditional", 0),
        ("(lambda: 1)()", "a lambda", 1),
        ("[x for x in m]", "a comprehension", 0),
        ("'text'", "a string is not allowed", 0),
        ("2j", "an imaginary number", 0),
        ("True", "True is not allowed", 0),
        ("sqrt", "sqrt is a function", 0),
        ("m(2)", "m is a parameter, not a function", 0),
        ("sin(x=1)", "no keyword arguments", 0),
        ("sqrt(m, a)", "sqrt() takes 1 argument, found 2", 0),
        ("round(m, a)", "places must be a whole number", 9),
        ("1e999 * m", "too large for a float", 0),
        ("x" * (FORMULA_CHARS + 1), "too long", None),
        ("-" * (FORMULA_DEPTH + 1) + "m", "too deep", FORMULA_DEPTH),
        ("(" * 300 + "m" + ")" * 300, "not a valid formula", ANYWHERE),
    ],
)
def test_everything_outside_the_allow_list_is_refused_when_parsed(
    formula: str, needle: str, offset: object
) -> None:
    with pytest.raises(FormulaError) as caught:
        parse(formula, {"m", "a"})
    assert needle in str(caught.value)
    if offset is not ANYWHERE:  # Python's parser places its own errors as it sees fit
        assert caught.value.offset == offset


@pytest.mark.parametrize(
    ("formula", "needle"),
    [
        ("m / (a - a)", "division by zero in 'm / (a - a)'"),
        ("m // (a - a)", "division by zero"),
        ("m % (a - a)", "an undefined value (nan)"),
        ("log(a - a)", "division by zero in 'log(a - a)'"),
        ("sqrt(-m)", "an undefined value (nan)"),
        ("arcsin(m)", "an undefined value (nan)"),
        ("(-m) ** 0.5", "an undefined value (nan)"),
        ("10**10**10", "a value too large for a float"),
        ("9**9**9**9", "a value too large for a float"),
        ("exp(m * 1000)", "a value too large for a float"),
    ],
)
def test_failures_while_evaluating_name_the_part_that_failed(formula: str, needle: str) -> None:
    parsed = parse(formula, {"m", "a"})
    started = time.perf_counter()
    with pytest.raises(FormulaError) as caught:
        parsed.evaluate({"m": 3.0, "a": 2.0})
    assert needle in str(caught.value)
    # float64 throughout: a huge exponent overflows at once instead of growing an int
    assert time.perf_counter() - started < 1


def test_the_longest_and_deepest_formulas_allowed_parse_and_evaluate_quickly() -> None:
    long_sum = "+".join(["m"] * (FORMULA_DEPTH))  # FORMULA_DEPTH - 1 additions, one inside another
    deep = "(" * (FORMULA_DEPTH - 2) + "m" + ")" * (FORMULA_DEPTH - 2)
    started = time.perf_counter()
    assert parse(long_sum, {"m"}).evaluate({"m": 1}) == FORMULA_DEPTH
    assert parse(deep, {"m"}).evaluate({"m": 2}) == 2
    assert time.perf_counter() - started < 1


def test_latex_shows_the_formula_and_the_numbers_with_the_brackets_needed() -> None:
    f = parse("m * (a - v) / 2 + -a**2", {"m", "a", "v"})
    assert f.latex() == "\\frac{m \\cdot \\left(a - v\\right)}{2} + \\left(-{a}^{2}\\right)"
    assert f.latex({"m": 3, "a": -2, "v": 5}) == (
        "\\frac{3 \\cdot \\left(-2 - 5\\right)}{2} + \\left(-{\\left(-2\\right)}^{2}\\right)"
    )
    assert parse("v0 * theta + v_max", {"v0", "theta", "v_max"}).latex() == (
        "v_{0} \\cdot \\theta + v_{\\mathrm{max}}"
    )
    assert parse("sqrt(m) + pi", {"m"}).latex() == "\\sqrt{m} + \\pi"


# --- banks with formula questions ------------------------------------------------------------

NEWTON = """\
bank: phys
title: Physics
questions:
  - id: newton-force
    type: computed
    formula: "m * a"
    params:
      m: {min: 4, max: 20}
      a: {min: 1.5, max: 5, step: 0.5}
    prompt: "A {{ m }} kg cart accelerates at {{ a }} m/s². What net force acts on it, in newtons?"
    answer: choice
    decimals: 2
    misconceptions:
      - formula: "m / a"
        feedback: Force is mass times acceleration, not mass divided by it.
      - formula: "m + a"
        feedback: Mass and acceleration multiply; adding them mixes units.
    explanation: "Newton's second law, F = m a."
"""


def bank_file(tmp_path: Path, text: str, stem: str = "phys") -> Path:
    path = tmp_path / f"{stem}.yml"
    path.write_text(text.replace("bank: phys", f"bank: {stem}"), encoding="utf-8")
    return path


def question_of(tmp_path: Path, text: str = NEWTON) -> ComputedQuestion:
    question = load_bank(bank_file(tmp_path, text)).questions[0]
    assert isinstance(question, ComputedQuestion)
    return question


def test_the_issues_question_loads_with_every_field(tmp_path: Path) -> None:
    q = question_of(tmp_path)
    assert (q.formula, q.generator, q.answer, q.decimals, q.options) == (
        "m * a",
        "",
        "choice",
        2,
        3,
    )
    assert q.params == {"m": model.Range(4, 20), "a": model.Range(1.5, 5, 0.5)}
    assert [m.formula for m in q.misconceptions] == ["m / a", "m + a"]
    assert q.misconceptions[0].feedback.startswith("Force is mass times acceleration")


def test_variants_compute_the_answer_and_distractors_from_the_drawn_numbers(tmp_path: Path) -> None:
    q = question_of(tmp_path)
    variants = computed_variants(q, seed=42, count=8)
    assert len({(v.values["m"], v.values["a"]) for v in variants}) > 1
    for v in variants:
        m, a = v.values["m"], v.values["a"]
        assert isinstance(m, int) and 4 <= m <= 20  # a range of whole numbers draws ints
        assert 1.5 <= a <= 5 and float(a * 2).is_integer()
        assert v.prompt == (
            f"A {m} kg cart accelerates at {a} m/s². What net force acts on it, in newtons?"
        )
        assert v.answer == m * a and v.shown_answer == f"{m * a:.2f}"
        texts = {o.text: o for o in v.options}
        assert set(texts) == {f"{m * a:.2f}", f"{m / a:.2f}", f"{m + a:.2f}"}
        assert texts[f"{m * a:.2f}"].correct
        assert texts[f"{m / a:.2f}"].misconception == "m / a"
        assert "not mass divided by it" in (texts[f"{m / a:.2f}"].feedback or "")
        # The worked solution: the formula, the same with the drawn numbers, the result.
        assert f"m \\cdot a = {m} \\cdot {sig(a)}" in v.solution
        assert f"**{m * a:.2f}**" in v.solution


def test_numbers_depend_on_the_seed_the_id_and_the_variant_only(tmp_path: Path) -> None:
    q = question_of(tmp_path)
    first = [v.values for v in computed_variants(q, seed=7, count=4)]
    assert first == [v.values for v in computed_variants(q, seed=7, count=4)]
    assert first[:2] == [v.values for v in computed_variants(q, seed=7, count=2)]
    assert first != [v.values for v in computed_variants(q, seed=8, count=4)]


def test_numeric_form_carries_the_unit_and_the_authors_tolerance(tmp_path: Path) -> None:
    text = """\
bank: phys
title: Physics
questions:
  - id: ke
    type: computed
    formula: "0.5 * m * v**2"
    params:
      m: [0.5, 1.5, 2]
      v: {min: 2, max: 9}
    prompt: "Energy of {{ m }} kg at {{ v }} m/s?"
    decimals: 1
    unit: J
    tolerance: 0.5
"""
    q = question_of(tmp_path, text)
    for v in computed_variants(q, seed=1, count=5):
        assert v.answer == 0.5 * v.values["m"] * v.values["v"] ** 2
        assert (v.unit, v.tolerance, v.options) == ("J", 0.5, ())
        assert v.solution.rstrip().endswith("**\u00a0J.")


def test_the_default_tolerance_admits_the_rounded_answer(tmp_path: Path) -> None:
    swapped = NEWTON.replace('"m * a"', '"m / a"').replace(
        '- formula: "m / a"', '- formula: "m * a"'
    )
    q = question_of(tmp_path, swapped.replace("answer: choice", "answer: numeric"))
    variants = computed_variants(q, seed=3, count=10)
    assert any(float(v.shown_answer) != v.answer for v in variants)  # some need rounding
    for v in variants:
        assert abs(float(v.shown_answer) - v.answer) <= v.tolerance


def test_a_formula_question_renders_and_previews(tmp_path: Path) -> None:
    q = question_of(tmp_path)
    from tests.sealed import question_scripts

    html = render_quiz([make_concrete(q, 42, 3)], "phys")
    _, later = question_scripts(html)
    assert 'data-type="computed"' in html and "<math" in later["solution-0"]
    text = format_preview(q, computed_variants(q, 42, 2))
    assert "formula m * a" in text
    assert "[m / a] Force is mass times acceleration" in text


def test_probes_cover_every_combination_when_there_are_few(tmp_path: Path) -> None:
    q = question_of(tmp_path)  # 17 masses x 8 accelerations
    drawings = probe_values(q.recipe(PE).generator)
    assert len(drawings) == 17 * 8 <= PROBES
    assert {(d["m"], d["a"]) for d in drawings} == {
        (m, 1.5 + k / 2) for m in range(4, 21) for k in range(8)
    }
    wide = question_of(tmp_path, NEWTON.replace("max: 20}", "max: 2000}"))
    drawings = probe_values(wide.recipe(PE).generator)
    assert len(drawings) == PROBES
    assert {"m": 4, "a": 1.5} in drawings and {"m": 2000, "a": 5} in drawings


# --- konum check: every bad input at its place ------------------------------------------------

FORMULA_LINE = 6  # the line of `formula:` in NEWTON
FORMULA_COLUMN = 14  # the column of its opening quote; its text starts at 15


def problems_for(tmp_path: Path, text: str) -> list[str]:
    report = check_banks([bank_file(tmp_path, text)])
    return [str(p) for p in report.problems]


def with_formula(formula: str) -> str:
    escaped = formula.replace("\\", "\\\\").replace('"', '\\"')
    return NEWTON.replace('formula: "m * a"', f'formula: "{escaped}"')


@pytest.mark.parametrize(
    ("formula", "column", "needle"),
    [
        ("m *", 18, "not a valid formula"),
        ("m * g", 19, "unknown name 'g'"),
        ("m.real * a", 15, "attribute access ('m.real') is not allowed"),
        ("__import__('os').system('touch pwned') * m", 15, "attribute access"),
        ("__import__('os') * m", 15, "calling __import__() is not allowed"),
        ("open('pwned', 'w') * m", 15, "calling open() is not allowed"),
        ("os.system('touch pwned')", 15, "attribute access ('os.system') is not allowed"),
        ("10**10**10 * m * a", 15, "a value too large for a float"),
        ("m" + " + m" * 2000, None, "the formula is too long"),
        ("m / (a - 1.5)", 15, "fails for m = 4, a = 1.5: division by zero in 'm / (a - 1.5)'"),
        ("sqrt(2 - a) * m", 15, "fails for m = 4, a = 2.5: an undefined value (nan)"),
    ],
)
def test_bad_formulas_are_problems_at_the_formula(
    tmp_path: Path, formula: str, column: int | None, needle: str
) -> None:
    problems = problems_for(tmp_path, with_formula(formula))
    where = f"{tmp_path / 'phys.yml'}:{FORMULA_LINE}:{column or FORMULA_COLUMN}:"
    assert [p for p in problems if needle in p] == [p for p in problems if p.startswith(where)]
    assert any(p.startswith(f"{where} [newton-force] formula: ") and needle in p for p in problems)


def test_a_misconception_equal_to_the_answer_for_some_variant_is_a_problem(
    tmp_path: Path,
) -> None:
    # The issue's own params: m / a is m * a when a = 1, m + a is m * a when m = a = 2.
    text = NEWTON.replace("min: 4, max: 20", "min: 2, max: 20").replace("min: 1.5,", "min: 0.5,")
    problems = problems_for(tmp_path, text)
    file = tmp_path / "phys.yml"
    assert len(problems) == 2, problems
    assert problems[0].startswith(f"{file}:14:18: [newton-force] misconceptions[0].formula: ")
    assert "'m / a' gives 2.00, the answer, for m = 2, a = 1 (19 of the" in problems[0]
    assert problems[1].startswith(f"{file}:16:18: [newton-force] misconceptions[1].formula: ")
    assert "for m = 2, a = 2" in problems[1]


def test_a_misconception_always_equal_to_the_answer_is_a_problem(tmp_path: Path) -> None:
    problems = problems_for(tmp_path, NEWTON.replace('"m / a"', '"a * m"'))
    assert len(problems) == 1
    assert "misconceptions[0].formula: 'a * m' always gives the answer" in problems[0]
    same = problems_for(tmp_path, NEWTON.replace('"m / a"', '"m*a"'))
    assert "the same formula as the question's formula" in same[0]


def test_a_bad_misconception_formula_is_a_problem_at_its_column(tmp_path: Path) -> None:
    problems = problems_for(tmp_path, NEWTON.replace('"m + a"', '"m + open(1)"'))
    assert problems == [
        f"{tmp_path / 'phys.yml'}:16:23: [newton-force] misconceptions[1].formula: calling "
        "open() is not allowed: a formula may call only sqrt, exp, log, log10, log2, sin, cos, "
        "tan, arcsin, arccos, arctan, arctan2, sinh, cosh, tanh, hypot, radians, degrees, abs, "
        "floor, ceil, round, min, max, comb, perm, factorial, gamma, lgamma, erf, erfc, "
        "norm_pdf, norm_cdf, norm_ppf, binom_pmf, binom_cdf, poisson_pmf, poisson_cdf, t_cdf, "
        "t_ppf, chi2_cdf, chi2_ppf"
    ]
    failing = problems_for(tmp_path, NEWTON.replace('"m + a"', '"m / (a - 2)"'))
    assert "misconceptions[1].formula: fails for m = 4, a = 2: division by zero" in failing[0]


def test_choice_options_must_differ(tmp_path: Path) -> None:
    text = NEWTON.replace('"m + a"', '"a / m * m * m / a / a"')  # equals m / a
    problems = problems_for(tmp_path, text)
    assert len(problems) == 1
    assert "misconceptions: for m = 4, a = 1.5 the misconceptions give 2.67, 2.67" in problems[0]
    assert "fewer than the 2 different wrong options" in problems[0]
    # With one wrong option shown, two misconceptions that agree are fine.
    assert problems_for(tmp_path, text.replace("decimals: 2", "decimals: 2\n    options: 2")) == []


@pytest.mark.parametrize(
    ("change", "needle"),
    [
        (('prompt: "A {{ m }}', 'hint: "A {{ m }}'), "missing required field 'prompt'"),
        (('prompt: "A {{ m }}', 'prompt: ""\n    hint: "A {{ m }}'), "prompt: is empty"),
        (("      m: {min", "      decimals: {min"), "'decimals' is the number of decimals"),
        (
            ("    params:\n", "    parameters:\n"),
            "unknown key 'parameters'; did you mean 'params'?",
        ),
        (("type: computed", "type: computed\n    generator: rope_angle"), "not both"),
        (("      m: {min", "      e: {min"), "'e' is the constant"),
        (("      m: {min", "      sqrt: {min"), "'sqrt' is a function in formulas"),
        (("      m: {min", "      lambda: {min"), "'lambda' is a Python keyword"),
        (("      a: {min: 1.5, max: 5, step: 0.5}", "      a: [1, x]"), "expected a number"),
        (
            ("      a: {min: 1.5, max: 5, step: 0.5}", "      a: {min: 0, max: 1e12, step: 1e-6}"),
            "use a larger step",
        ),
        (("decimals: 2", "decimals: 2\n    options: 4"), "give at most 3 options"),
        (("decimals: 2", "decimals: 2\n    tolerance: 0.001"), "less than half a unit"),
        (("    misconceptions:\n", "    wrong:\n"), "unknown key 'wrong'"),
        (("        feedback: Force", "        text: Force"), "missing required field 'feedback'"),
        (("{{ m }} kg", "{{ mass }} kg"), "'mass' is undefined"),
    ],
)
def test_other_mistakes_in_formula_questions(
    tmp_path: Path, change: tuple[str, str], needle: str
) -> None:
    text = NEWTON.replace(*change)
    assert text != NEWTON
    problems = problems_for(tmp_path, text)
    assert any(needle in p for p in problems), problems
    assert all("[newton-force]" in p for p in problems), problems


def test_formula_only_fields_are_refused_on_generator_questions(tmp_path: Path) -> None:
    text = """\
bank: phys
title: Physics
questions:
  - id: rope-q
    type: computed
    generator: rope_angle
    tolerance: 0.1
"""
    problems = problems_for(tmp_path, text)
    assert problems == [
        f"{tmp_path / 'phys.yml'}:7:5: [rope-q] tolerance: 'tolerance' is for formula questions "
        "(with 'formula:'); the generator rope_angle gives its own"
    ]


def test_konum_check_runs_nothing_that_a_formula_says(tmp_path: Path) -> None:
    """The formulas that would write a file if they were run: `konum check` reports each at
    its line and no file appears."""
    target = tmp_path / "pwned"
    attacks = [
        f"__import__('os').system('touch {target}')",
        f"open('{target}', 'w').write('x')",
        f"os.system('touch {target}')",
        f"exec(\\\"open('{target}', 'w')\\\")",
    ]
    questions = "".join(
        NEWTON.split("questions:\n")[1]
        .replace("newton-force", f"attack-{i}")
        .replace('formula: "m * a"', f'formula: "{attack}"')
        for i, attack in enumerate(attacks)
    )
    project = tmp_path / "site"
    (project / "banks").mkdir(parents=True)
    (project / "docs").mkdir()
    (project / "mkdocs.yml").write_text(
        "site_name: t\nmarkdown_extensions:\n  - konum:\n      banks: banks\n", encoding="utf-8"
    )
    (project / "banks" / "phys.yml").write_text(
        "bank: phys\ntitle: Physics\nquestions:\n" + questions, encoding="utf-8"
    )
    result = subprocess.run(
        [sys.executable, "-m", "konum", "check"],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 1
    assert "Traceback" not in result.stderr + result.stdout
    lines = result.stderr.splitlines()
    for i in range(len(attacks)):
        assert any(f"[attack-{i}] formula: " in line and "is not allowed" in line for line in lines)
    assert lines[-1] == "4 problems in 1 of 1 bank"
    assert not target.exists()


# --- the authoring page ------------------------------------------------------------------------

AUTHORING = Path(__file__).resolve().parent.parent / "content" / "authoring.md"


def test_the_authoring_pages_formula_example_passes_the_checks(tmp_path: Path) -> None:
    text = AUTHORING.read_text(encoding="utf-8")
    start = text.index("  # a formula question")
    example = text[start : text.index("```", start)]
    path = bank_file(tmp_path, "bank: phys\ntitle: Physics\nquestions:\n" + example)
    report = check_banks([path])
    assert report.ok, report.problems
    (question,) = report.banks[0].questions
    assert isinstance(question, ComputedQuestion) and question.formula == "m * a"


def test_the_authoring_page_lists_every_function_a_formula_may_call() -> None:
    from konum.computed.expression import CONSTANTS, FUNCTIONS

    text = AUTHORING.read_text(encoding="utf-8")
    section = text[text.index("### Formula questions") : text.index("### The generators")]
    for name in [*FUNCTIONS, *CONSTANTS]:
        assert f"`{name}" in section, name


# --- statistics and counting (issue 45) --------------------------------------------------------

scipy_stats = pytest.importorskip("scipy.stats")
scipy_special = pytest.importorskip("scipy.special")

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

WHOLE = st.integers(0, 60)
REAL = st.floats(-8, 8, allow_nan=False)
PROBABILITY = st.floats(0.001, 0.999)
POSITIVE = st.floats(0.1, 40)
DF = st.floats(0.5, 80)


def value_of(formula: str, **values: float) -> float:
    return parse(formula, set(values)).evaluate(values)


def close(found: float, expected: float) -> bool:
    return math.isclose(found, float(expected), rel_tol=1e-9, abs_tol=1e-12)


@settings(max_examples=60, deadline=None)
@given(n=WHOLE, k=WHOLE, x=st.floats(0.05, 30))
def test_counting_and_special_functions_agree_with_scipy(n: int, k: int, x: float) -> None:
    special = scipy_special
    assert close(value_of("comb(n, k)", n=n, k=k), special.comb(n, k, exact=True))
    assert close(value_of("perm(n, k)", n=n, k=k), special.perm(n, k, exact=True))
    assert close(value_of("factorial(n)", n=n), special.factorial(n, exact=True))
    assert math.isclose(value_of("gamma(x)", x=x), special.gamma(x), rel_tol=1e-12)
    assert math.isclose(value_of("lgamma(x)", x=x), special.gammaln(x), rel_tol=1e-9, abs_tol=1e-12)
    assert close(value_of("erf(x - 3)", x=x), special.erf(x - 3))
    assert math.isclose(value_of("erfc(x / 4)", x=x), special.erfc(x / 4), rel_tol=1e-12)


@settings(max_examples=60, deadline=None)
@given(x=REAL, mu=REAL, sigma=POSITIVE, q=PROBABILITY, df=DF)
def test_the_continuous_distributions_agree_with_scipy(
    x: float, mu: float, sigma: float, q: float, df: float
) -> None:
    s = scipy_stats
    v = {"x": x, "mu": mu, "sigma": sigma, "q": q, "df": df}
    expected = {
        "norm_pdf(x, mu, sigma)": s.norm.pdf(x, loc=mu, scale=sigma),
        "norm_cdf(x, mu, sigma)": s.norm.cdf(x, loc=mu, scale=sigma),
        "norm_ppf(q, mu, sigma)": s.norm.ppf(q, loc=mu, scale=sigma),
        "norm_cdf(x)": s.norm.cdf(x),
        "norm_ppf(q)": s.norm.ppf(q),
        "norm_pdf(x, mu)": s.norm.pdf(x, loc=mu),
        "t_cdf(x, df)": s.t.cdf(x, df),
        "t_ppf(q, df)": s.t.ppf(q, df),
        "chi2_cdf(abs(x), df)": s.chi2.cdf(abs(x), df),
        "chi2_ppf(q, df)": s.chi2.ppf(q, df),
    }
    for formula, want in expected.items():
        assert math.isclose(parse(formula, set(v)).evaluate(v), want, rel_tol=1e-9, abs_tol=1e-15)


@settings(max_examples=60, deadline=None)
@given(k=WHOLE, n=WHOLE, p=PROBABILITY, lam=POSITIVE)
def test_the_discrete_distributions_agree_with_scipy_and_their_formulas(
    k: int, n: int, p: float, lam: float
) -> None:
    s = scipy_stats
    v = {"k": k, "n": n, "p": p, "lam": lam}

    def at(formula: str) -> float:
        return parse(formula, set(v)).evaluate(v)

    tolerance = {"rel_tol": 1e-9, "abs_tol": 1e-15}
    assert math.isclose(at("binom_pmf(k, n, p)"), s.binom.pmf(k, n, p), **tolerance)
    assert math.isclose(at("binom_cdf(k, n, p)"), s.binom.cdf(k, n, p), **tolerance)
    assert math.isclose(at("poisson_pmf(k, lam)"), s.poisson.pmf(k, lam), **tolerance)
    assert math.isclose(at("poisson_cdf(k, lam)"), s.poisson.cdf(k, lam), **tolerance)
    # ... and the textbook's formulas, computed another way.
    if k <= n:
        by_hand = math.comb(n, k) * p**k * (1 - p) ** (n - k)
        assert math.isclose(at("binom_pmf(k, n, p)"), by_hand, rel_tol=1e-7, abs_tol=1e-15)
    by_hand = math.exp(k * math.log(lam) - lam - math.lgamma(k + 1))
    assert math.isclose(at("poisson_pmf(k, lam)"), by_hand, rel_tol=1e-7, abs_tol=1e-15)


@pytest.mark.parametrize(
    ("formula", "needle"),
    [
        ("factorial(10**9)", "factorial(n): n must be a whole number from 0 to 170"),
        ("factorial(2.5)", "must be a whole number"),
        ("comb(10**6, 500000)", "too large for a float"),
        ("perm(10**15, 10**6)", "too large for a float"),
        ("comb(-1, 2)", "comb(n, k): n must be a whole number"),
        ("gamma(-2)", "gamma(x) is undefined at 0 and the negative whole numbers"),
        ("binom_pmf(2, 10, 1.5)", "binom_pmf(k, n, p) needs a whole n >= 0 and 0 <= p <= 1"),
        ("norm_cdf(1, 0, -1)", "norm_cdf(x, mu, sigma) needs sigma > 0"),
        ("norm_ppf(1)", "norm_ppf(q, mu, sigma) needs 0 < q < 1"),
        ("t_ppf(0.5, 0)", "t_ppf(q, df) needs 0 < q < 1 and df > 0"),
    ],
)
def test_arguments_outside_a_functions_domain_are_refused_at_once(
    formula: str, needle: str
) -> None:
    start = time.perf_counter()
    with pytest.raises(FormulaError) as caught:
        parse(formula, set()).evaluate({})
    assert needle in caught.value.reason and f"in '{formula}'" in caught.value.reason
    assert time.perf_counter() - start < 1  # refused, not computed


def test_without_scipy_a_distribution_is_one_error_naming_the_extra(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "scipy", None)
    monkeypatch.setitem(sys.modules, "scipy.stats", None)
    with pytest.raises(FormulaError) as caught:
        parse("x + norm_cdf(x)", {"x"})
    assert caught.value.reason == (
        "norm_cdf() needs SciPy, which konum installs as the extra konum[stats]: "
        "pip install 'konum[stats]'"
    )
    assert caught.value.offset == 4
    assert parse("comb(x, 2) + erf(x)", {"x"}).evaluate({"x": 4}) == 6 + math.erf(4)


@pytest.mark.parametrize(
    ("formula", "latex", "numbers"),
    [
        ("comb(n, k)", "\\binom{n}{k}", "\\binom{12}{2}"),
        ("factorial(n)", "n!", "12!"),
        ("factorial(n - k)", "\\left(n - k\\right)!", "\\left(12 - 2\\right)!"),
        ("norm_cdf(z)", "\\Phi\\left(z\\right)", "\\Phi\\left(1.5\\right)"),
        (
            "norm_cdf(x, mu, sigma)",
            "\\Phi\\left(\\frac{x - \\mu}{\\sigma}\\right)",
            "\\Phi\\left(\\frac{3 - 1}{2}\\right)",
        ),
        ("norm_ppf(p)", "\\Phi^{-1}\\left(p\\right)", "\\Phi^{-1}\\left(0.3\\right)"),
        (
            "binom_pmf(k, n, p)",
            "\\binom{n}{k} {p}^{k} {\\left(1 - p\\right)}^{n - k}",
            "\\binom{12}{2} {0.3}^{2} {\\left(1 - 0.3\\right)}^{12 - 2}",
        ),
        ("t_ppf(p, n)", "t_{p,\\,n}", "t_{0.3,\\,12}"),
        ("chi2_ppf(p, k)", "\\chi^{2}_{p,\\,k}", "\\chi^{2}_{0.3,\\,2}"),
        (
            "2 * factorial(k)**2",
            "2 \\cdot {\\left(k!\\right)}^{2}",
            "2 \\cdot {\\left(2!\\right)}^{2}",
        ),
    ],
)
def test_worked_solutions_write_the_functions_as_a_textbook_does(
    formula: str, latex: str, numbers: str
) -> None:
    values = {"n": 12, "k": 2, "z": 1.5, "x": 3, "mu": 1, "sigma": 2, "p": 0.3}
    parsed = parse(formula, set(values))
    assert parsed.latex() == latex
    assert parsed.latex(values) == numbers


def test_a_binomial_reads_as_c_of_n_and_k_in_plain_text() -> None:
    from konum.spoken import plain_text

    assert plain_text("$\\binom{12}{2} = 66$") == "C(12, 2) = 66"
    assert plain_text("$\\binom{n + 1}{k}$") == "C(n+1, k)"
    assert plain_text("$\\left(\\frac{12}{2}\\right)$") == "(12/2)"  # a fraction stays one


BINOMIAL = """\
bank: phys
title: Statistics
questions:
  - id: two-heads
    type: computed
    formula: "binom_pmf(k, n, p)"
    params:
      n: [10, 12, 15]
      k: [2, 3]
      p: [0.3, 0.4]
    prompt: "A coin lands heads with probability {{ p }}. What is P(X = {{ k }}) in {{ n }} throws?"
    answer: choice
    decimals: 4
    misconceptions:
      - formula: "p**k * (1 - p)**(n - k)"
        feedback: The binomial coefficient counts the orders in which the heads can come.
      - formula: "comb(n, k) * p**k"
        feedback: The other throws must be tails, with probability 1 - p each.
"""


def test_a_statistics_formula_question_is_drawn_and_worked(tmp_path: Path) -> None:
    question = question_of(tmp_path, BINOMIAL)
    (variant,) = computed_variants(question, 3, 1)
    n, k, p = (variant.values[name] for name in "nkp")
    assert variant.answer == pytest.approx(scipy_stats.binom.pmf(k, n, p), rel=1e-12)
    assert f"\\binom{{{n}}}{{{k}}}" in variant.solution
    assert "\\binom{n}{k} {p}^{k}" in variant.solution
    assert check_banks([bank_file(tmp_path, BINOMIAL)]).ok


def test_moodle_and_gift_write_such_a_question_one_question_per_variant(tmp_path: Path) -> None:
    from konum.exports.gift import build_gift
    from tests.helpers import build_moodle

    bank = load_bank(bank_file(tmp_path, BINOMIAL))
    concrete = make_concrete(bank.questions[0], 5, 3)
    xml = build_moodle([bank], {"two-heads": concrete}).text
    assert 'type="calculated' not in xml  # Moodle's formulas have no binomial
    assert xml.count('<question type="multichoice">') == 3
    gift = build_gift([bank], {"two-heads": concrete}).text
    assert gift.count("::two-heads \\#") == 3
    plain = load_bank(bank_file(tmp_path, NEWTON))
    newton = make_concrete(plain.questions[0], 5, 3)
    assert 'type="calculatedmulti"' in build_moodle([plain], {"newton-force": newton}).text


# --- symbols, hints and conditions (issue 45) -------------------------------------------------

ZSCORE = """\
bank: phys
title: Statistics
questions:
  - id: z-score
    type: computed
    formula: "(xbar - mu) / sigma"
    params:
      xbar: {min: 96, max: 104, step: 0.5, symbol: "\\\\bar{x}"}
      mu: {values: [100], symbol: "\\\\mu_0"}
      sigma: [8, 10]
    where: "xbar != mu"
    prompt: "The sample mean is ${{ symbol.xbar }} = {{ xbar }}$. What is its z-score?"
    decimals: 3
"""


def test_a_param_says_how_it_is_written(tmp_path: Path) -> None:
    from konum.spoken import plain_text

    question = question_of(tmp_path, ZSCORE)
    assert question.symbols == {"xbar": "\\bar{x}", "mu": "\\mu_0"}
    assert question.params["mu"] == model.Choices((100,))
    (variant,) = computed_variants(question, 1, 1)
    assert (
        variant.prompt
        == f"The sample mean is $\\bar{{x}} = {variant.values['xbar']}$. What is its z-score?"
    )
    assert variant.solution.startswith("$$\\frac{{\\bar{x}} - {\\mu_0}}{\\sigma} = ")
    assert plain_text("$" + variant.solution.split("=")[0].strip("$ ") + "$").startswith("(x̄−μ₀)/σ")
    assert check_banks([bank_file(tmp_path, ZSCORE)]).ok


def test_the_authoring_pages_symbol_example_is_sound(tmp_path: Path) -> None:
    text = AUTHORING.read_text(encoding="utf-8")
    start = text.index("  - id: z-score")
    example = text[start : text.index("```", start)]
    path = bank_file(tmp_path, "bank: phys\ntitle: Stats\nquestions:\n" + example)
    report = check_banks([path])
    assert report.ok, report.problems


@pytest.mark.parametrize(
    ("change", "needle"),
    [
        (
            ('symbol: "\\\\bar{x}"', 'symbol: "\\\\frac{x"'),
            "phys.yml:8:52: [z-score] params.xbar.symbol: the LaTeX '\\frac{x' has a { "
            "without its partner",
        ),
        (
            ('where: "xbar != mu"', 'where: "xbar > 200"'),
            "phys.yml:11:12: [z-score] where: no drawing of the params satisfies 'xbar > 200'",
        ),
        (
            ('where: "xbar != mu"', 'where: "xbar + mu"'),
            "phys.yml:11:13: [z-score] where: a condition compares values",
        ),
        (
            ('where: "xbar != mu"', 'where: "xbar / (mu - 100) > 1"'),
            "phys.yml:11:12: [z-score] where: 'xbar / (mu - 100) > 1' fails for xbar = 96, "
            "mu = 100, sigma = 8: division by zero in 'xbar / (mu - 100)'",
        ),
        (
            ('formula: "(xbar - mu) / sigma"', 'formula: "sigma(xbar - mu)"'),
            "sigma is a parameter, not a function; did you mean sigma * (xbar - mu)?",
        ),
    ],
)
def test_symbols_and_conditions_are_checked_at_their_lines(
    tmp_path: Path, change: tuple[str, str], needle: str
) -> None:
    assert change[0] in ZSCORE
    found = problems_for(tmp_path, ZSCORE.replace(*change))
    assert any(needle in p for p in found), found


def test_a_condition_keeps_a_coincidence_out_of_every_drawing(tmp_path: Path) -> None:
    question = question_of(tmp_path, ZSCORE)
    drawn = [v.values["xbar"] for v in computed_variants(question, 0, 16)]
    assert 100 not in drawn and len(drawn) == 16
    condition = parse("x != mu and not (k < 2 or k >= n)", {"x", "mu", "k", "n"}, condition=True)
    assert condition.evaluate({"x": 1, "mu": 2, "k": 3, "n": 5}) == 1.0
    assert condition.evaluate({"x": 2, "mu": 2, "k": 3, "n": 5}) == 0.0
    assert condition.evaluate({"x": 1, "mu": 2, "k": 5, "n": 5}) == 0.0


def test_a_symbol_on_a_generator_question_is_refused(tmp_path: Path) -> None:
    bank = bank_file(
        tmp_path,
        "bank: phys\ntitle: P\nquestions:\n  - id: g\n    type: computed\n"
        "    generator: sinusoidal_entry\n    params:\n      d: {values: [8], symbol: D}\n",
    )
    found = [str(p) for p in check_banks([bank], plugins=PE).problems]
    assert any("params.d.symbol: 'symbol' is for formula questions" in p for p in found), found


@pytest.mark.parametrize(
    ("formula", "message"),
    [
        ("sqrt(np(1 - p))", "calling np() is not allowed; did you mean n * p * (1 - p)?"),
        ("sqrt(n(1 - p))", "n is a parameter, not a function; did you mean n * (1 - p)?"),
        ("sqrt(np * (1 - p))", "a product is written with *: n * p"),
    ],
)
def test_a_param_called_as_a_function_gets_a_hint(formula: str, message: str) -> None:
    with pytest.raises(FormulaError) as caught:
        parse(formula, {"n", "p"})
    assert message in caught.value.reason
    assert caught.value.offset == 5
