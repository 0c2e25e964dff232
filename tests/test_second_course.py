"""A second course proves konum is for any subject: examples/physics, built three ways.

The course (four pages, two banks of formula questions and other types, a page with its
questions written in it, and one generator of its own in examples/physics/generators/) is
built by ``konum build``, ``mkdocs build --strict`` and ``zensical build``. Every page with
a quiz must carry every question of its bank, and the numbers must be right: for each
shipped variant, the test reads the drawn values from the prompt, evaluates the formula
itself, and compares with the answer in the page's quiz data.
"""

from __future__ import annotations

import base64
import json
import math
import os
import re
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

from konum.build import read_site_config
from konum.course import course_for
from tests.miniproject import konum
from tests.sealed import interval, question_scripts, right_options

REPO = Path(__file__).resolve().parent.parent
COURSE = REPO / "examples" / "physics"
BIN = Path(sys.executable).parent

pytestmark = pytest.mark.slow

#: Per computed question: its page, the answer from the numbers in its prompt (in the
#: order the prompt shows them), and the decimals it is shown to.
EXPECTED: dict[str, tuple[str, Callable[..., float], int]] = {
    "newton-force": ("mechanics", lambda m, a: m * a, 2),
    "kinetic-energy": ("mechanics", lambda m, v: 0.5 * m * v**2, 1),
    "projectile-range": (
        "mechanics",
        lambda v, angle, g: v**2 * math.sin(2 * math.radians(angle)) / g,
        1,
    ),
    "ohm-current": ("circuits", lambda v, r: v / r, 4),
    "resistor-power": ("circuits", lambda r, v: v**2 / r, 2),
    "parallel-resistors": ("circuits", lambda r1, r2: r1 * r2 / (r1 + r2), 1),
    "average-speed": ("units", lambda d, t: d / t, 2),  # written in the page (/// question)
}
NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)?")


def _copy(where: Path) -> Path:
    project = where / "physics"
    shutil.copytree(COURSE, project, ignore=shutil.ignore_patterns("site", "__pycache__"))
    return project


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        args,
        cwd=cwd,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )


@pytest.fixture(scope="module")
def konum_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    project = _copy(tmp_path_factory.mktemp("konum-build"))
    result = konum(project, "build")
    assert result.returncode == 0, result.stderr
    assert "built 5 pages (3 banks, 12 questions, seed 2024)" in result.stdout
    return project / "site"


@pytest.fixture(scope="module")
def mkdocs_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    project = _copy(tmp_path_factory.mktemp("mkdocs-build"))
    result = _run([str(BIN / "mkdocs"), "build", "--strict"], project)
    assert result.returncode == 0, result.stderr
    return project / "site"


@pytest.fixture(scope="module")
def zensical_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    project = _copy(tmp_path_factory.mktemp("zensical-build"))
    result = _run([str(BIN / "zensical"), "build", "--clean"], project)
    assert result.returncode == 0, result.stdout + result.stderr
    return project / "site"


SITES = ["konum_site", "mkdocs_site", "zensical_site"]


def _page(site: Path, name: str) -> str:
    page = next(site.rglob(f"{name}.html"), None) or next(site.rglob(f"{name}/index.html"))
    return page.read_text(encoding="utf-8")


def _block(html: str, question_id: str) -> str:
    start = html.index(f'data-question-id="{question_id}"')
    end = html.find('data-question-id="', start + 1)
    return html[start : end if end != -1 else len(html)]


def _text(fragment: str) -> str:
    return re.sub(r"<[^>]+>", " ", fragment)


def _variants(block: str) -> list[tuple[dict[str, object], str, str, list[str]]]:
    """Each shipped variant of a computed question: its quiz data, its prompt as text, its
    worked solution (HTML) and its option texts (none for the numeric form)."""
    data, later = question_scripts(block)
    found = []
    for k, entry in enumerate(data["variants"]):
        entry = {**entry, "salt": f"{data['salt']}\x1f{k}"}  # a variant's salt, as quiz.js makes it
        if k == 0 or f"variant-{k}" in later:  # in the markup, or a whole form of its own
            form = block if k == 0 else later[f"variant-{k}"]
            # (a whole form in the later parts is written without quotes: markup.json_html)
            prompt = _group(r'<div class="?konum-prompt"? id="?[^">]*"?>(.*?)</div>', form)
            options = re.findall(r'-opt-\d+"?>(.*?)</label>', form)
        else:  # shaped like the first: its prompt and option texts only
            prompt = later[f"prompt-{k}"]
            options = [later[key] for key in sorted(later) if key.startswith(f"option-{k}-")]
        found.append((entry, _text(prompt), later[f"solution-{k}"], options))
    return found


def _group(pattern: str, text: str) -> str:
    match = re.search(pattern, text, re.DOTALL)
    assert match, pattern
    return match.group(1)


def test_konum_check_passes_and_counts_the_course(tmp_path: Path) -> None:
    result = konum(_copy(tmp_path), "check")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "3 banks, 12 questions: all good"


@pytest.mark.parametrize("site_fixture", SITES)
def test_every_question_is_on_its_page(site_fixture: str, request: pytest.FixtureRequest) -> None:
    site: Path = request.getfixturevalue(site_fixture)
    for bank in course_for(read_site_config(COURSE / "mkdocs.yml").options).banks:
        html = _page(site, bank.id)
        shown = re.findall(r'data-question-id="([^"]+)"', html)
        assert shown == [q.id for q in bank.questions]
        assert 'data-konum-asset="quiz"' in html and "<math" in html
    assert 'data-konum-asset="quiz"' not in _page(site, "index")


@pytest.mark.parametrize("site_fixture", SITES)
def test_computed_answers_match_the_formulas_on_the_drawn_numbers(
    site_fixture: str, request: pytest.FixtureRequest
) -> None:
    site: Path = request.getfixturevalue(site_fixture)
    for question_id, (page, formula, decimals) in EXPECTED.items():
        variants = _variants(_block(_page(site, page), question_id))
        assert len(variants) == 3  # variants: 3 in mkdocs.yml
        prompts = set()
        for entry, prompt, _, options in variants:
            numbers = [float(n) for n in NUMBER.findall(prompt)]
            shown = f"{formula(*numbers):.{decimals}f}"
            salt = str(entry["salt"])
            if entry["form"] == "numeric":
                low, high = interval(entry, salt)
                assert low < formula(*numbers) < high
                assert f"{(low + high) / 2:.{decimals}f}" == shown
            else:  # the option marked correct shows the answer, and no option repeats
                marks = right_options(entry, salt)
                # An option shows its unit after the number, a no-break space between.
                texts = [t.split("&nbsp;")[0] for t in options]
                correct = [t for t, ok in zip(texts, marks, strict=True) if ok]
                assert correct == [shown] and len(set(options)) == len(options)
            prompts.add(prompt)
        assert len(prompts) > 1, f"{question_id}: the variants draw different numbers"


@pytest.mark.parametrize("site_fixture", SITES)
def test_the_teachers_own_diagram_shows_in_every_variant(
    site_fixture: str, request: pytest.FixtureRequest
) -> None:
    """parallel-resistors shows docs/images/parallel.svg (the Circuits page's own diagram,
    named from the bank as ../docs/images/parallel.svg): sanitised, as a data: URI in the
    first variant's form and in every variant "New numbers" swaps in."""
    site: Path = request.getfixturevalue(site_fixture)
    block = _block(_page(site, "circuits"), "parallel-resistors")
    alt = "Two resistors, R₁ and R₂, side by side between the same two wires A and B"
    uris = set(re.findall(r'<img src=\\?"?data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)', block))
    assert len(uris) == 1, "one image, the same in every variant"
    drawing = base64.b64decode(uris.pop()).decode()
    assert drawing.startswith("<svg") and "<title>Two resistors in parallel</title>" in drawing
    later = json.loads(_group(r'class="konum-later">(.*?)</script>', block))
    for k in (1, 2):  # a variant shaped like the first ships its prompt, else its whole form
        shown = later.get(f"prompt-{k}", later.get(f"variant-{k}", ""))
        assert f"alt='{alt}'" in shown  # written without double quotes: markup.json_html
    assert f'alt="{alt}"' in _group(r'<div class="konum-prompt" id="[^"]*">(.*?)</div>', block)


def test_the_anki_download_carries_the_diagram(konum_site: Path) -> None:
    (package,) = (konum_site / "downloads").glob("*.apkg")
    with zipfile.ZipFile(package) as archive:
        names = list(json.loads(archive.read("media")).values())
    assert len(names) == 1 and re.fullmatch(r"parallel-[0-9a-f]{12}\.svg", names[0])


def test_the_worked_solution_shows_the_formula_with_the_numbers(konum_site: Path) -> None:
    _, current, decimals = EXPECTED["ohm-current"]
    for _, prompt, solution, _ in _variants(_block(_page(konum_site, "circuits"), "ohm-current")):
        volts, ohms = NUMBER.findall(prompt)
        assert f"alttext='\\frac{{V}}{{R}} = \\frac{{{volts}}}{{{ohms}}}" in solution
        shown = f"{current(float(volts), float(ohms)):.{decimals}f}"
        assert f"<strong>{shown}</strong>&nbsp;A" in solution


def test_the_courses_generator_gives_its_own_distractors(konum_site: Path) -> None:
    """The projectile question comes from examples/physics/generators/projectile.py: its
    options are the answer and three values of the generator's own misconceptions."""
    for _, prompt, _, options in _variants(
        _block(_page(konum_site, "mechanics"), "projectile-range")
    ):
        v, angle, g = (float(n) for n in NUMBER.findall(prompt))
        theta = math.radians(angle)
        candidates = {
            f"{v**2 * math.sin(2 * theta) / g:.1f}",  # the answer
            f"{v**2 * math.sin(theta) / g:.1f}",  # angle_not_doubled
            f"{v**2 * math.sin(2 * angle) / g:.1f}",  # degrees_as_radians
            f"{(v * math.sin(theta)) ** 2 / (2 * g):.1f}",  # height_for_range
            f"{v * math.sin(2 * theta) / g:.1f}",  # speed_not_squared
        }
        assert all(option.endswith("&nbsp;m") for option in options)  # the generator's unit
        # A real minus sign on the page.
        shown = {option.removesuffix("&nbsp;m").replace("\u2212", "-") for option in options}
        assert len(options) == 4 and shown <= candidates, (prompt, options)


def test_konum_preview_and_export_see_the_courses_generator(tmp_path: Path) -> None:
    project = _copy(tmp_path)
    result = konum(project, "preview", "projectile-range", "--variants", "1")
    assert result.returncode == 0, result.stderr
    assert "generator projectile_range" in result.stdout
    assert "feeds the angle in degrees to a sine that expects radians" in result.stdout
    out = tmp_path / "cards.csv"
    result = konum(project, "export", "csv", "-o", str(out))
    assert result.returncode == 0, result.stderr
    cards = out.read_text(encoding="utf-8")
    assert "cart accelerates" in cards and "A ball leaves the ground" in cards
