"""The hotspot plugin type (examples/hotspot) answered in Chromium, in the example site as
``mkdocs build --strict`` writes it: by mouse and by keyboard alone, each region named by
its region, the verdict announced in the question's live region, the picked region drawn in
Material's colours of the light and the dark scheme."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import serve_folder, set_scheme
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "hotspot"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    project = tmp_path_factory.mktemp("hotspot") / "hotspot"
    shutil.copytree(EXAMPLE, project, ignore=shutil.ignore_patterns("site", "__pycache__"))
    mkdocs = Path(sys.executable).parent / "mkdocs"
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    result = subprocess.run(
        [str(mkdocs), "build", "--strict"], cwd=project, env=env,
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    with serve_folder(project / "site") as url:
        yield url


@pytest.fixture
def page(browser: Any, site: str) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1000, "height": 900})
    opened = context.new_page()
    errors: list[str] = []
    opened.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    opened.on("pageerror", lambda e: errors.append(str(e)))
    opened.goto(site + "/heatmaps.html")
    try:
        yield opened
    finally:
        context.close()
    assert errors == []


def _question(page: Page, qid: str) -> Any:
    return page.locator(f'[data-question-id="{qid}"]')


def test_a_region_is_answered_by_mouse(page: Page) -> None:
    q = _question(page, "fastest-column")
    expect(q).to_have_attribute("data-konum-mounted", "")
    regions = q.get_by_role("radio")
    expect(regions).to_have_count(4)
    q.locator("label", has_text="Column A").click()
    q.get_by_role("button", name="Check").click()
    feedback = q.locator(".konum-feedback")
    expect(feedback).to_have_attribute("aria-live", "polite")
    expect(feedback).to_have_text("Not quite. Try another option.")
    wrong = q.locator("label", has_text="Column A")
    expect(wrong).to_have_class(re_class("is-wrong"))
    assert wrong.evaluate("l => getComputedStyle(l).borderTopColor") == "rgb(229, 57, 53)"
    q.locator("label", has_text="Column B").click()
    expect(q.get_by_role("radio", name="Column B")).to_be_checked()
    q.get_by_role("button", name="Check").click()
    expect(feedback).to_have_text("Correct.")
    expect(q.locator("label", has_text="Column B")).to_have_class(re_class("is-right"))
    expect(page.locator(".konum-score")).to_have_text("1 / 2 points")


def test_a_region_is_answered_by_keyboard_alone(page: Page) -> None:
    q = _question(page, "slowest-column")
    expect(q).to_have_attribute("data-konum-mounted", "")
    first = q.get_by_role("radio", name="First")
    first.focus()
    page.keyboard.press("Enter")  # Enter picks the focused region, as Space does
    expect(first).to_be_checked()
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    fourth = q.get_by_role("radio", name="Fourth")
    expect(fourth).to_be_checked()
    expect(fourth).to_be_focused()
    check = q.get_by_role("button", name="Check")
    while not check.evaluate("b => b === document.activeElement"):
        page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    expect(q.locator(".konum-feedback")).to_have_text("Correct.")
    page.reload()  # the answer is the learner's state: it comes back checked
    expect(_question(page, "slowest-column").get_by_role("radio", name="Fourth")).to_be_checked()


def test_the_picked_region_follows_the_colour_scheme(page: Page) -> None:
    q = _question(page, "fastest-column")
    label = q.locator("label", has_text="Column C")
    label.click()

    def border() -> str:
        return str(label.evaluate("l => getComputedStyle(l).borderTopColor"))

    light = border()
    set_scheme(page, "slate")
    dark = border()
    text = page.evaluate(
        "getComputedStyle(document.body).getPropertyValue('--md-default-fg-color')"
    )
    assert light != dark and text.strip()


def re_class(name: str) -> Any:
    import re

    return re.compile(rf"(^|\s){name}(\s|$)")
