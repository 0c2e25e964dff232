"""konum as a teacher gets it: the release files, installed afresh, building the page's site.

``python -m build`` makes the sdist and, from it, the wheel, as ``make dist`` and the release
workflow do; the build must print no warning and ``twine check --strict`` must pass both.
The wheel must hold every file of the packages' folders (konum, its templates, assets and
message catalogues, and the course's plugin ``konum_pe``): it was built from the sdist, so a
file the sdist lacks is missing here too. It is installed into a fresh virtualenv with
Zensical, where it builds ``examples/physics`` with MkDocs and Zensical, and the site of the
"Use konum in your own site" page (its files, :mod:`tests.guide`; ``tests/test_walkthrough.py``
runs its commands) plus a bank with every question type (``tests/fixtures/own-site``) is
checked, built with MkDocs, Zensical and ``konum build``, and answered right and wrong in
Chromium.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from tests import guide
from tests.miniproject import REPO

pytestmark = [pytest.mark.slow, pytest.mark.browser]

EVERYTHING = Path(__file__).parent / "fixtures" / "own-site" / "everything.yml"
# No PYTHONPATH: the fresh virtualenv would see the konum under test (and pip would take it
# as installed). Bytecode on: setuptools warns when it may not write it.
ENV = {
    **{k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONDONTWRITEBYTECODE")},
    "NO_MKDOCS_2_WARNING": "1",
    "PIP_DISABLE_PIP_VERSION_CHECK": "1",
}


def run(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(
        [str(a) for a in args], cwd=cwd, env=ENV, capture_output=True, text=True, timeout=600
    )
    assert result.returncode == 0, f"{args}: {result.stdout}\n{result.stderr}"
    return result


def package_files() -> set[str]:
    """What the wheel must hold: every file of the packages' folders, as installed."""
    folders = {"konum": REPO / "generator" / "konum", "konum_pe": REPO / "generator" / "konum_pe"}
    folders["konum/templates"] = REPO / "templates"
    return {
        f"{name}/{path.relative_to(folder).as_posix()}"
        for name, folder in folders.items()
        for path in folder.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    }


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder of ``python -m build``'s sdist and wheel, checked by twine."""
    root = tmp_path_factory.mktemp("dist")
    built = run(sys.executable, "-m", "build", "--outdir", root, REPO, cwd=root)
    said = (built.stdout + built.stderr).splitlines()
    assert [line for line in said if "warning" in line.lower()] == []
    run(sys.executable, "-m", "twine", "check", "--strict", *sorted(root.iterdir()), cwd=root)
    return root


def test_the_wheel_from_the_sdist_holds_every_package_file(dist: Path) -> None:
    (wheel,) = dist.glob("konum-*-py3-none-any.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        info = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
        entry_points = archive.read(info).decode()
    assert {n for n in names if ".dist-info/" not in n} == package_files()
    assert "konum = konum.cli:main" in entry_points
    for group in ("generators", "figures", "explorers", "values", "messages"):
        assert f"[konum.{group}]\npe = konum_pe" in entry_points
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)


@pytest.fixture(scope="module")
def venv(dist: Path) -> Path:
    """A fresh virtualenv with konum installed from the wheel (not editable) and Zensical."""
    (wheel,) = dist.glob("konum-*-py3-none-any.whl")
    run(sys.executable, "-m", "venv", dist / "venv", cwd=dist)
    run(dist / "venv" / "bin" / "pip", "install", "-q", wheel, "zensical", cwd=dist)
    assert (dist / "venv" / "bin" / "konum").is_file()
    return dist / "venv" / "bin"


@pytest.fixture(scope="module")
def course(venv: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The page's site (its files: tests/test_walkthrough.py runs each of its commands), plus
    the every-type bank on a page of its own."""
    site, _results = guide.follow(tmp_path_factory.mktemp("teacher"), None)
    shutil.copy(EVERYTHING, site / "docs" / "banks" / "everything.yml")
    (site / "docs" / "more.md").write_text(
        "# Every type\n\n/// quiz | everything\n///\n", encoding="utf-8"
    )
    return site


def test_check_and_both_builds(venv: Path, course: Path) -> None:
    questions = sum(
        len(yaml.safe_load(bank.read_text(encoding="utf-8"))["questions"])
        for bank in (course / "docs" / "banks").glob("*.yml")
    )
    checked = run(venv / "konum", "check", cwd=course)
    assert checked.stdout.strip() == f"2 banks, {questions} questions: all good"
    run(venv / "mkdocs", "build", "--strict", "-d", course / "by-mkdocs", cwd=course)
    run(venv / "zensical", "build", "--clean", cwd=course)
    for folder in (course / "by-mkdocs", course / "site"):
        motion = (folder / "motion" / "index.html").read_text(encoding="utf-8")
        assert 'data-question-id="motion-third-law"' in motion, folder
        assert 'data-konum-asset="quiz"' in motion, folder
        more = (folder / "more" / "index.html").read_text(encoding="utf-8")
        types = set(re.findall(r'data-type="(\w+)"', more))
        assert types == {"choice", "fill", "matching", "numeric"}, folder
    assert not (course / "by-mkdocs" / "banks").exists()  # exclude_docs keeps banks out


def test_konum_build_publishes_with_downloads(venv: Path, course: Path) -> None:
    result = run(venv / "konum", "build", "-d", course / "published", cwd=course)
    assert "(2 banks, " in result.stdout
    downloads = course / "published" / "downloads"
    assert (downloads / "physics-by-numbers.apkg").is_file()  # the site's name
    text = (downloads / "physics-by-numbers-anki.txt").read_text(encoding="utf-8")
    assert re.search(r'\t"Physics by numbers::\d+ Motion"\t', text)  # the site's name


def test_the_installed_konum_builds_the_physics_example_both_ways(
    venv: Path, tmp_path: Path
) -> None:
    """examples/physics names a generator file of its own: the installed konum imports it."""
    physics = tmp_path / "physics"
    shutil.copytree(REPO / "examples" / "physics", physics)
    run(venv / "mkdocs", "build", "--strict", "-d", physics / "by-mkdocs", cwd=physics)
    run(venv / "zensical", "build", "--clean", cwd=physics)
    for folder in (physics / "by-mkdocs", physics / "site"):
        mechanics = (folder / "mechanics.html").read_text(encoding="utf-8")
        assert 'data-question-id="projectile-range"' in mechanics, folder


def test_the_bank_in_the_terminal(venv: Path, course: Path) -> None:
    """The page's ``konum quiz motion`` in the installed wheel: the question asked, its
    answer shown on ``show``, the score."""
    result = subprocess.run(
        [str(venv / "konum"), "quiz", "motion"],
        cwd=course,
        env=ENV,
        input="show\nquit\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "partner of the book's weight" in result.stdout
    assert "The book pulling the Earth upwards." in result.stdout.split("> show", 1)[1]
    assert re.search(r"\b0 / \d+ points$", result.stdout.rstrip()), result.stdout


@pytest.fixture(scope="module")
def chromium() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS

    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM}")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.mark.parametrize("builder", ["mkdocs", "zensical"])
def test_a_reader_answers_right_and_wrong(
    venv: Path, course: Path, chromium: object, builder: str
) -> None:
    from playwright.sync_api import expect

    folder = course / ("by-mkdocs" if builder == "mkdocs" else "site")
    if not (folder / "index.html").exists():
        test_check_and_both_builds(venv, course)
    page = chromium.new_page()  # type: ignore[attr-defined]
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto((folder / "motion" / "index.html").as_uri())
    q = page.locator('[data-question-id="motion-third-law"]')
    q.get_by_label("The table pushing the book up.").check()
    q.get_by_role("button", name="Check").click()
    expect(q.locator(".konum-feedback")).to_contain_text("Not quite")
    q.get_by_label("The book pulling the Earth upwards.").check()
    q.get_by_role("button", name="Check").click()
    expect(q.locator(".konum-feedback")).to_have_text("Correct.")
    total = len(page.locator("[data-question-id]").all())
    expect(page.locator(".konum-score")).to_have_text(f"1 / {total} points")
    page.close()
    assert errors == []
