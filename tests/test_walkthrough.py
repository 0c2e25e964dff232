"""A teacher's first site, as the "Use konum in your own site" page tells it.

From an empty folder, every file the page shows is written and every command it shows is run,
in the page's order (:mod:`tests.guide` reads them from the page itself): the site's
``mkdocs.yml``, its pages, a bank of physics questions, then ``konum check``, ``konum
preview``, ``konum build`` and the exports. What the page says they print or write is checked
against what they did. ``tests/test_own_site.py`` does the same from a fresh install of the
wheel, with MkDocs, Zensical and a reader in Chromium.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
import yaml

from tests import guide
from tests.miniproject import REPO, konum


def _konum(folder: Path, argv: tuple[str, ...]) -> subprocess.CompletedProcess[str]:
    assert argv[0] == "konum", f"the page runs {argv[0]!r}, which this test cannot run"
    return konum(folder, *argv[1:])


@pytest.fixture(scope="module")
def walked(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[Path, dict[str, subprocess.CompletedProcess[str]]]:
    return guide.follow(tmp_path_factory.mktemp("teacher"), _konum)


def _output(results: dict[str, subprocess.CompletedProcess[str]], start: str) -> str:
    """What the page's one command that starts with ``start`` printed."""
    (line,) = [line for line in results if line.startswith(start)]
    return results[line].stdout


def _bank(site: Path) -> dict[str, object]:
    (bank,) = [f for f in guide.walkthrough() if isinstance(f, guide.File) and "banks/" in f.path]
    return yaml.safe_load((site / bank.path).read_text(encoding="utf-8"))


def test_the_page_starts_from_an_empty_folder_and_shows_a_site() -> None:
    steps = guide.walkthrough()
    files = [s.path for s in steps if isinstance(s, guide.File)]
    assert files[0] == "mkdocs.yml" and any(f.startswith("docs/banks/") for f in files)
    first = next(s for s in steps if isinstance(s, guide.Command))
    assert first.argv[0] == "mkdir"


def test_check_says_what_the_page_says(walked) -> None:
    site, results = walked
    printed = _output(results, "konum check").strip()
    assert f"`konum check` prints `{printed}`" in guide.page()
    questions = _bank(site)["questions"]
    assert printed == f"1 bank, {len(questions)} questions: all good"  # type: ignore[arg-type]


def test_preview_shows_the_formula_question(walked) -> None:
    _site, results = walked
    out = _output(results, "konum preview")
    assert "m / a" in out and "m + a" in out  # each option's misconception, by its formula


def test_build_publishes_every_question_and_the_downloads_the_page_names(walked) -> None:
    site, _results = walked
    page = (site / "site" / "motion" / "index.html").read_text(encoding="utf-8")
    ids = [q["id"] for q in _bank(site)["questions"]]  # type: ignore[attr-defined]
    assert re.findall(r'data-question-id="([\w-]+)"', page) == ids
    study = (site / "site" / "cards" / "index.html").read_text(encoding="utf-8")
    assert "konum-study" in study
    named = re.findall(r"`(?:site/downloads/)?(physics-by-numbers[\w.-]*)`", guide.section(5))
    assert sorted(named) == sorted(p.name for p in (site / "site" / "downloads").iterdir())
    assert not (site / "site" / "banks").exists()  # exclude_docs keeps the banks out


def test_the_exports_are_named_after_the_site(walked) -> None:
    site, results = walked
    moodle = site / "exports" / "physics-by-numbers-moodle.xml"
    questions = len(_bank(site)["questions"])  # type: ignore[arg-type]
    assert f"wrote {questions} of {questions} questions" in _output(results, "konum export moodle")
    xml = moodle.read_text(encoding="utf-8")
    assert '<question type="calculatedmulti">' in xml  # the formula question, with its dataset
    assert (site / "exports" / "physics-by-numbers.apkg").is_file()


def test_the_install_lines_are_real() -> None:
    """A wheel from the package index or a checkout, in the page and the README alike: no
    address left for the reader to fill in."""
    install = guide.section(1)
    assert "`pip install konum`" in install and "`pip install .`" in install
    assert "pip install konum\n" in guide.page()  # the quick start's first line
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "pip install konum " in readme and "pip install . " in readme
    for text in (guide.page(), readme):
        assert "git+URL" not in text and "/path/to/konum" not in text


def test_the_quick_start_is_short() -> None:
    """One question on a page in fewer than 20 lines, commands and files together."""
    found = re.search(r"^## Quick start\b.*?(?=^## )", guide.page(), re.MULTILINE | re.DOTALL)
    assert found is not None
    blocks = re.findall(r"^```\w*\n(.*?)^```\n", found.group(0), re.MULTILINE | re.DOTALL)
    assert sum(len(block.splitlines()) for block in blocks) < 20
    files = [s for s in guide.quick_start() if isinstance(s, guide.File)]
    assert [f.path for f in files] == ["mkdocs.yml", "docs/index.md"]
    assert "/// question" in files[1].text and "banks" not in files[0].text  # no bank file


def test_the_quick_start_puts_a_question_on_a_page(tmp_path: Path) -> None:
    """Followed literally from an empty folder: the page shows its question, and the
    mistake the quick start shows is reported as it says."""
    site, results = guide.follow(tmp_path, _konum, guide.quick_start())
    assert list(results) == ["konum build"]
    page = (site / "site" / "index.html").read_text(encoding="utf-8")
    (page_file,) = [s for s in guide.quick_start() if isinstance(s, guide.File) and ".md" in s.path]
    (question_id,) = re.findall(r"^id: ([\w-]+)$", page_file.text, re.MULTILINE)
    assert re.findall(r'data-question-id="([\w-]+)"', page) == [question_id]
    said = re.search(r"\(`(docs/index\.md:\d+:\d+: [^`]*)`\)", guide.page())
    assert said is not None, "the quick start shows a mistake's message"
    source = site / "docs" / "index.md"
    source.write_text(source.read_text(encoding="utf-8").replace("answer:", "answr:"), "utf-8")
    broken = konum(site, "build")
    assert broken.returncode == 1 and broken.stderr.startswith(said.group(1)), broken.stderr


def test_no_command_s_help_speaks_of_this_course_s_files(walked) -> None:
    site, _results = walked
    for command in ("check", "preview", "build", "serve", "export", "exam"):
        shown = konum(site, command, "--help")
        assert shown.returncode == 0, command
        for course_file in ("mkdocs.tr.yml", "content/", "konum_pe"):
            assert course_file not in shown.stdout, (command, course_file)


def test_the_pages_link_the_downloads_the_build_made(walked) -> None:
    """The flashcard page's links reach the files in site/downloads/, and it shows the
    course overview, whose words the study page then names."""
    site, _results = walked
    cards = site / "site" / "cards" / "index.html"
    html = cards.read_text(encoding="utf-8")
    links = re.findall(r'<a href="([^"]+)" download>', html)
    assert links and all((cards.parent / link).resolve().is_file() for link in links), links
    assert "data-konum-overview" in html
    assert "The course overview exports, imports and forgets them." in html
