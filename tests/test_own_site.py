"""The "Use konum in your own site" page, followed step by step as a teacher would.

A wheel of konum is built and installed into a fresh virtualenv (with Zensical), ``mkdocs
new`` makes a site, and the page's own code blocks are used as they stand: the lines added to
``mkdocs.yml``, the bank, the quiz block. A second bank (``tests/fixtures/own-site``) adds every
question type. The site is checked, built with MkDocs and with Zensical, and a question is
answered right and wrong in Chromium.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.miniproject import REPO

pytestmark = [pytest.mark.slow, pytest.mark.browser]

PAGE = REPO / "content" / "own-site.md"
EVERYTHING = Path(__file__).parent / "fixtures" / "own-site" / "everything.yml"
ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1"}


def blocks(step: str) -> list[str]:
    """The fenced code blocks of the page's section whose heading starts with ``step``."""
    text = PAGE.read_text(encoding="utf-8")
    section = re.search(rf"^## {re.escape(step)}.*?(?=^## |\Z)", text, re.DOTALL | re.MULTILINE)
    assert section is not None, step
    return [m.group(1) for m in re.finditer(r"^```\w*\n(.*?)^```", section.group(0), re.M | re.S)]


def run(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(
        [str(a) for a in args], cwd=cwd, env=ENV, capture_output=True, text=True, timeout=600
    )
    assert result.returncode == 0, f"{args}: {result.stdout}\n{result.stderr}"
    return result


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtualenv with konum installed from a wheel (not editable) and Zensical."""
    root = tmp_path_factory.mktemp("install")
    run(
        sys.executable,
        "-m",
        "pip",
        "wheel",
        "-q",
        "--no-deps",
        "-w",
        root / "wheels",
        REPO,
        cwd=root,
    )
    (wheel,) = (root / "wheels").glob("konum-*.whl")
    run(sys.executable, "-m", "venv", root / "venv", cwd=root)
    pip = root / "venv" / "bin" / "pip"
    run(pip, "install", "-q", wheel, "zensical", cwd=root)
    return root / "venv" / "bin"


@pytest.fixture(scope="module")
def course(venv: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site made by the page's steps 2 to 5, plus the every-type bank on a second page."""
    where = tmp_path_factory.mktemp("teacher")
    (start,) = blocks("2.")
    assert start.splitlines()[0] == "mkdocs new my-course"
    run(venv / "mkdocs", "new", "my-course", cwd=where)
    site = where / "my-course"
    (config,) = [b for b in blocks("3.") if "markdown_extensions" in b]
    assert (site / "mkdocs.yml").read_text(encoding="utf-8").strip() == "site_name: My Docs"
    (site / "mkdocs.yml").write_text(config, encoding="utf-8")
    (bank,) = [b for b in blocks("4.") if b.startswith("bank:")]
    (site / "docs" / "banks").mkdir()
    (site / "docs" / "banks" / "basics.yml").write_text(bank, encoding="utf-8")
    shutil.copy(EVERYTHING, site / "docs" / "banks" / "everything.yml")
    whole, _partial, _study = blocks("5.")
    index = site / "docs" / "index.md"
    index.write_text(index.read_text(encoding="utf-8") + "\n" + whole, encoding="utf-8")
    (site / "docs" / "more.md").write_text(
        "# Every type\n\n/// quiz | everything\n///\n", encoding="utf-8"
    )
    return site


def test_check_and_both_builds(venv: Path, course: Path) -> None:
    checked = run(venv / "konum", "check", cwd=course)
    assert checked.stdout.strip() == "2 banks, 5 questions: all good"
    run(venv / "mkdocs", "build", "--strict", "-d", course / "by-mkdocs", cwd=course)
    run(venv / "zensical", "build", "--clean", cwd=course)
    for folder in (course / "by-mkdocs", course / "site"):
        index = (folder / "index.html").read_text(encoding="utf-8")
        assert 'data-question-id="basics-capital"' in index, folder
        assert 'data-konum-asset="quiz"' in index, folder
        more = (folder / "more" / "index.html").read_text(encoding="utf-8")
        types = set(re.findall(r'data-type="(\w+)"', more))
        assert types == {"choice", "fill", "matching", "numeric"}, folder
    assert not (course / "by-mkdocs" / "banks").exists()  # exclude_docs keeps banks out


def test_konum_build_publishes_with_downloads(venv: Path, course: Path) -> None:
    result = run(venv / "konum", "build", "-d", course / "published", cwd=course)
    assert "(2 banks, 5 questions, seed 42)" in result.stdout
    assert (course / "published" / "downloads" / "my-course.apkg").is_file()  # the site's name
    text = (course / "published" / "downloads" / "my-course-anki.txt").read_text(encoding="utf-8")
    assert '\t"My course::01 The basics"\t' in text  # the deck takes the site's name


def test_the_bank_in_the_terminal(venv: Path, course: Path) -> None:
    """The page's ``konum quiz basics`` in the installed wheel: the question asked, its
    answer shown on ``show``, the score."""
    result = subprocess.run(
        [str(venv / "konum"), "quiz", "basics"],
        cwd=course,
        env=ENV,
        input="show\nquit\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "Which city is the capital of Turkey?" in result.stdout
    assert "Ankara" in result.stdout.split("> show", 1)[1]
    assert result.stdout.rstrip().endswith("0 / 1 points")


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
    page.goto((folder / "index.html").as_uri())
    q = page.locator('[data-question-id="basics-capital"]')
    q.get_by_label("Istanbul").check()
    q.get_by_role("button", name="Check").click()
    expect(q.locator(".konum-feedback")).to_contain_text("Not quite")
    q.get_by_label("Ankara").check()
    q.get_by_role("button", name="Check").click()
    expect(q.locator(".konum-feedback")).to_have_text("Correct.")
    expect(page.locator(".konum-score")).to_have_text("1 / 1 points")
    page.close()
    assert errors == []
