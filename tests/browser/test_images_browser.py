"""A bank's own images in a real Chromium: in a quiz, through "New numbers", on the study page.

The page is built here from a bank loaded from YAML in a temporary project (a PNG beside the
bank, an SVG in the docs folder), rendered by :func:`konum.render.render_quiz` and
:func:`konum.render.render_study` with the static quiz and flashcard assets, and served on
127.0.0.1. An image shows when Chromium has decoded it (``complete`` and ``naturalWidth >
0``); each must carry its alt text. No request may leave the server, and the console must
stay clean.
"""

from __future__ import annotations

import io
import textwrap
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest
from PIL import Image as Pillow
from playwright.sync_api import Page, expect

from konum.course import Course
from konum.quiz import messages_html, render_study
from tests.browser.conftest import PAGE, STATE, copy_asset, serve_folder
from tests.helpers import PE, check_banks, render_quiz

pytestmark = pytest.mark.browser

SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="60" viewBox="0 0 120 60">'
    '<rect width="120" height="60" fill="#fff"/><path d="M10 30 H110" stroke="#263238"'
    ' stroke-width="4"/></svg>'
)
BANK = """
bank: pictures
title: Pictures
questions:
  - id: lamp
    type: choice
    prompt: "Which lamp is lit? ![Two lamps, the left one glowing](images/lamps.png)"
    options:
      - text: "![The left lamp](images/lamps.png)"
        correct: true
      - text: The right lamp
    explanation: "![A closed wire](../docs/images/wire.svg)"
  - id: current
    type: computed
    formula: "V / R"
    params:
      V: [3, 6, 9, 12]
      R: [10, 20, 30]
    prompt: "![A closed wire](../docs/images/wire.svg) A {{ V }} V battery drives a {{ R }} Ω resistor. What current flows, in amperes?"
    decimals: 2
    explanation: Ohm's law.
flashcards:
  - id: lamps
    front: "What is drawn? ![Two lamps, the left one glowing](images/lamps.png)"
    back: Two lamps.
"""  # noqa: E501
#: Whether each image on the page has loaded: its alt, and whether it has pixels.
LOADED = """(root) => [...root.querySelectorAll("img")].filter(i => i.offsetParent !== null)
  .map(i => [i.alt, i.complete && i.naturalWidth > 0])"""


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root = tmp_path_factory.mktemp("images")
    project = root / "project"
    (project / "banks" / "images").mkdir(parents=True)
    (project / "docs" / "images").mkdir(parents=True)
    png = io.BytesIO()
    Pillow.new("RGB", (80, 40), "gold").save(png, "PNG")
    (project / "banks" / "images" / "lamps.png").write_bytes(png.getvalue())
    (project / "docs" / "images" / "wire.svg").write_text(SVG, encoding="utf-8")
    (project / "banks" / "pictures.yml").write_text(textwrap.dedent(BANK), encoding="utf-8")
    report = check_banks(project / "banks" / "pictures.yml", project=project)
    (bank,) = report.banks
    course = Course((bank,), seed=4, variants=3, plugins=PE, images=report.images)
    site = root / "site"
    (site / "assets" / "konum").mkdir(parents=True)
    for name in ("state.js", "quiz.js", "quiz.css", "flashcards.js", "flashcards.css"):
        copy_asset(name, site / "assets" / "konum")
    quiz = render_quiz(course.concretes(), "pictures", title="Pictures", images=course.images)
    quiz += messages_html("en", ["quiz"])  # as the extension adds them to a quiz's page
    script = STATE + '<script src="assets/konum/quiz.js"></script>'
    (site / "index.html").write_text(
        PAGE.format(material="", head="", quiz=quiz, scripts=script), encoding="utf-8"
    )
    study = render_study(course) + messages_html("en", ["study"])
    (site / "study.html").write_text(
        PAGE.format(
            material="",
            head='<link rel="stylesheet" href="assets/konum/flashcards.css">',
            quiz=study,
            scripts='<script src="assets/konum/flashcards.js"></script>',
        ),
        encoding="utf-8",
    )
    with serve_folder(site) as url:
        yield url


@pytest.fixture
def page(browser: Any, served: str) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1000, "height": 900})
    tab = context.new_page()
    errors: list[str] = []
    outside: list[str] = []

    def route(r: Any) -> None:
        if urlsplit(r.request.url).hostname == "127.0.0.1":
            r.continue_()
        else:
            outside.append(r.request.url)
            r.abort()

    context.route("**/*", route)
    tab.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    tab.on("pageerror", lambda e: errors.append(str(e)))
    try:
        yield tab
    finally:
        context.close()
    assert errors == [] and outside == []


def loaded(page: Page, selector: str) -> list[list[object]]:
    """``[alt, has pixels]`` for each visible image inside ``selector``, once decoded."""
    page.wait_for_function(
        f"[...document.querySelectorAll({selector!r} + ' img')].every(i => i.complete)"
    )
    return page.locator(selector).evaluate(LOADED)  # type: ignore[no-any-return]


def test_a_quiz_shows_its_images_with_their_alt_text(page: Page, served: str) -> None:
    page.goto(served + "index.html")
    lamp = '[data-question-id="lamp"]'
    expect(page.locator(f"{lamp} .konum-prompt img")).to_have_attribute(
        "alt", "Two lamps, the left one glowing"
    )
    assert loaded(page, lamp) == [
        ["Two lamps, the left one glowing", True],
        ["The left lamp", True],
    ]
    page.locator(f"{lamp} label", has=page.locator('img[alt="The left lamp"]')).click()
    page.locator(lamp).get_by_role("button", name="Check").click()
    expect(page.locator(f"{lamp} .konum-feedback")).to_have_text("Correct.")
    expect(page.locator(f"{lamp} .konum-explanation img")).to_be_visible()
    assert ["A closed wire", True] in loaded(page, lamp)


def test_new_numbers_keep_the_computed_questions_image(page: Page, served: str) -> None:
    page.goto(served + "index.html")
    current = page.locator('[data-question-id="current"]')
    prompt = current.locator(".konum-variant:visible .konum-prompt")
    seen = []
    for k in range(3):
        if k:
            current.get_by_role("button", name="New numbers").click()
        seen.append(prompt.inner_text())
        assert loaded(page, '[data-question-id="current"] .konum-variant:not([hidden])') == [
            ["A closed wire", True]
        ]
    assert len(set(seen)) > 1  # the numbers changed, the picture stayed


def test_the_study_page_shows_a_cards_image(page: Page, served: str) -> None:
    page.goto(served + "study.html")
    page.wait_for_selector(".konum-study__card[data-key]")
    for _ in range(5):  # the cards: lamp, three variants of current, then the flashcard
        if page.get_attribute(".konum-study__card", "data-key") == "flashcard:pictures:lamps":
            break
        page.click(".konum-study__flip")
        page.click(".konum-study__good")
    assert loaded(page, ".konum-study__front") == [["Two lamps, the left one glowing", True]]
