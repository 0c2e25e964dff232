"""An mkdocs-quiz site converted by ``konum import mkdocs-quiz``, built by ``konum build`` and
answered in Chromium: the answers mkdocs-quiz marked right ([x], [[answer]]) are right, the
others wrong with the notes the site gave them, and the content sections are the
explanations."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import serve_folder
from playwright.sync_api import Locator, Page, expect

from tests.miniproject import konum

pytestmark = pytest.mark.browser

SITE = Path(__file__).resolve().parents[1] / "fixtures" / "import" / "mkdocs-quiz-site"


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    project = tmp_path_factory.mktemp("mkdocs-quiz") / "project"
    shutil.copytree(SITE, project)
    converted = konum(project, "import", "mkdocs-quiz", "docs")
    assert converted.returncode == 0, converted.stderr
    built = konum(project, "build")
    assert built.returncode == 0, built.stderr
    with serve_folder(project / "site") as base:
        yield base


@pytest.fixture
def page(browser: Any, url: str) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1000, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(url + "index.html")
    expect(page.locator("[data-konum-mounted]")).to_have_count(3)
    try:
        yield page
    finally:
        context.close()
    assert errors == []


def question(page: Page, n: int) -> Locator:
    return page.locator("[data-konum-mounted]").nth(n)


def check(q: Locator) -> Locator:
    q.get_by_role("button", name="Check").click()
    return q.locator(".konum-feedback")


def test_the_single_answer_question_answers_as_on_mkdocs_quiz(page: Page) -> None:
    q = question(page, 0)
    q.get_by_label("5", exact=True).check()
    expect(check(q)).not_to_have_text("Correct.")
    expect(q).to_contain_text("One too many: count again.")  # the note under the choice
    q.get_by_label("4", exact=True).check()
    expect(check(q)).to_have_text("Correct.")
    expect(q).to_contain_text("Adding two to two gives four.")


def test_the_several_answer_question_wants_every_right_one(page: Page) -> None:
    q = question(page, 1)
    q.get_by_label("2", exact=True).check()
    expect(check(q)).not_to_have_text("Correct.")
    q.get_by_label("3", exact=True).check()
    expect(check(q)).to_have_text("Correct.")


def test_the_fill_in_question_takes_its_blanks(page: Page) -> None:
    q = question(page, 2)
    blanks = q.get_by_role("textbox")
    expect(blanks).to_have_count(2)
    blanks.nth(0).fill("Paris")
    blanks.nth(1).fill("Milan")
    expect(check(q)).not_to_have_text("Correct.")
    blanks.nth(1).fill("rome")  # mkdocs-quiz ignores case, and so does konum's blank
    expect(check(q)).to_have_text("Correct.")
    expect(q).to_contain_text("Both have been capitals for centuries.")
