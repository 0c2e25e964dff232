"""The statistics example (examples/statistics, issue 45): built with MkDocs and Zensical.

Its banks use the formulas' statistics functions, a param's symbol and a ``where``, and its
own generator (``generators/intervals.py``) works out a confidence interval. Every page must
carry its bank's questions, and each computed answer must be what SciPy computes from the
drawn values: in the course konum draws, and in the quiz data of each built page (the
numeric form's sealed interval holds SciPy's value; the choice form marks the option that
shows it).
"""

from __future__ import annotations

import math
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from konum.build import read_site_config
from konum.course import Course, course_for
from konum.formatting import format_number
from tests.miniproject import konum
from tests.sealed import interval, question_scripts, right_options

stats = pytest.importorskip("scipy.stats")
special = pytest.importorskip("scipy.special")

pytestmark = pytest.mark.slow

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "statistics"
BIN = Path(sys.executable).parent

#: Per computed question, what SciPy says its answer is, from the drawn values.
SCIPY: dict[str, Callable[..., float]] = {
    "orders": lambda n, k: special.comb(n, k, exact=True),
    "exactly-k": lambda n, k, p: stats.binom.pmf(k, n, p),
    "at-most-k": lambda n, k, p: stats.binom.cdf(k, n, p),
    "z-score": lambda x, mu, sigma: (x - mu) / sigma,
    "below": lambda x, mu, sigma: stats.norm.cdf(x, loc=mu, scale=sigma),
    "top-scores": lambda top, mu, sigma: stats.norm.ppf(1 - top / 100, loc=mu, scale=sigma),
    "critical-t": lambda n, level: stats.t.ppf((1 + level) / 2, n - 1),
    "margin-of-error": lambda n, s, level: stats.t.ppf((1 + level) / 2, n - 1) * s / math.sqrt(n),
}


def project_in(where: Path) -> Path:
    """A copy of the example in ``where``, without anything a build left in it."""
    target = where / "statistics"
    shutil.copytree(EXAMPLE, target, ignore=shutil.ignore_patterns("site", "__pycache__"))
    return target


def built(where: Path, command: list[str]) -> Path:
    project = project_in(where)
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    result = subprocess.run(
        command, cwd=project, env=env, capture_output=True, text=True, timeout=900, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return project / "site"


@pytest.fixture(scope="module")
def course() -> Course:
    return course_for(read_site_config(EXAMPLE / "mkdocs.yml").options)


@pytest.fixture(scope="module", params=["mkdocs", "zensical"])
def site(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    tool = request.param
    command = [str(BIN / tool), "build", "--strict" if tool == "mkdocs" else "--clean"]
    return built(tmp_path_factory.mktemp(f"{tool}-build"), command)


def test_konum_check_passes(tmp_path: Path) -> None:
    result = konum(project_in(tmp_path), "check")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "3 banks, 10 questions: all good"


def test_the_computed_answers_are_scipys(course: Course) -> None:
    computed = [q for bank in course.banks for q in bank.questions if q.type == "computed"]
    assert sorted(q.id for q in computed) == sorted(SCIPY)
    for question in computed:
        variants = course.concrete(question).variants
        assert len({repr(v.values) for v in variants}) == len(variants) == 3
        for variant in variants:
            drawn = {k: v for k, v in variant.values.items() if k != "decimals"}
            expected = float(SCIPY[question.id](**drawn))
            assert math.isclose(variant.answer, expected, rel_tol=1e-9), (question.id, drawn)
            shown = format_number(expected, variant.decimals)
            if variant.options:
                (right,) = [o.text for o in variant.options if o.correct]
                assert right == shown, (question.id, drawn)


def test_the_condition_and_the_symbols_reach_the_page(course: Course) -> None:
    (z,) = [q for bank in course.banks for q in bank.questions if q.id == "z-score"]
    for variant in course.concrete(z).variants:
        assert variant.values["x"] != variant.values["mu"]
        assert variant.prompt.startswith("Scores are normal with mean $\\mu = 70$")
        assert variant.solution.startswith("$$\\frac{x - {\\mu}}{{\\sigma}} = ")


def test_every_page_carries_its_bank_with_scipys_answers(site: Path, course: Course) -> None:
    for bank in course.banks:
        html = (site / f"{bank.id}.html").read_text(encoding="utf-8")
        blocks = re.split(r'(?=<[^<>]*data-question-id=")', html)[1:]
        ids = [re.search(r'data-question-id="([^"]+)"', b).group(1) for b in blocks]  # type: ignore[union-attr]
        assert ids == [q.id for q in bank.questions]
        for question, block in zip(bank.questions, blocks, strict=True):
            if question.type != "computed":
                continue
            data, _ = question_scripts(block)
            concrete = course.concrete(question).variants
            for k, (entry, variant) in enumerate(zip(data["variants"], concrete, strict=True)):
                salt = f"{data['salt']}\x1f{k}"  # a variant's salt (konum.types.computed)
                drawn = {n: v for n, v in variant.values.items() if n != "decimals"}
                expected = float(SCIPY[question.id](**drawn))
                if entry["form"] == "numeric":
                    low, high = interval(entry, salt)
                    assert low < expected < high, (question.id, k)
                else:
                    marked = [o.correct for o in variant.options]
                    assert right_options(entry, salt) == marked, (question.id, k)
    assert "<math" in (site / "binomial.html").read_text(encoding="utf-8")
    index = (site / "index.html").read_text(encoding="utf-8")
    assert 'data-konum-asset="quiz"' not in index
