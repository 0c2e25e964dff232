"""Output questions in Chromium: lesson 2's exercise answered right (spacing and number
formats aside) and wrong (each kind of difference named), Show answer, progress, axe, phone.

The page holds the course's own question (``sin-exercise-pe46`` from the sinusoidal bank,
its expected output printed by its example solution when the bank loaded), rendered by
:func:`konum.render.render_quiz` with the site's quiz.js and quiz.css.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import PAGE, STATE, _material_css, copy_asset, serve_folder, set_scheme
from playwright.sync_api import Locator, Page, expect

from konum.quiz import messages_html
from konum.types import Concrete, OutputQuestion
from tests.helpers import load_banks, render_quiz

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
QID = "sin-exercise-pe46"
NO_ICON = '<link rel="icon" href="data:,">'  # no favicon request, so no 404 in the console


def exercise() -> OutputQuestion:
    bank = next(b for b in load_banks(REPO / "content" / "banks") if b.id == "sinusoidal")
    question = bank.question(QID)
    assert isinstance(question, OutputQuestion)
    return question


@pytest.fixture(scope="module")
def expected() -> str:
    return exercise().expected


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root = tmp_path_factory.mktemp("output-site")
    (root / "assets" / "konum").mkdir(parents=True)
    (root / "material").mkdir()
    material = _material_css(root / "material")  # the site's colours, fonts and code boxes
    for name in ("state.js", "quiz.js", "quiz.css"):
        copy_asset(name, root / "assets" / "konum")
    quiz = render_quiz([Concrete(exercise(), 1)], "sinusoidal", title="Check yourself")
    quiz += messages_html("en", ["quiz"])  # as the extension adds them to a quiz's page
    script = STATE + '<script src="assets/konum/quiz.js"></script>'
    (root / "index.html").write_text(
        PAGE.format(material=material, head=NO_ICON, quiz=quiz, scripts=script), encoding="utf-8"
    )
    with serve_folder(root) as base:
        yield base + "index.html"


@pytest.fixture
def page(browser: Any, url: str) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1000, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(url)
    expect(page.locator("[data-konum-mounted]")).to_have_count(1)
    try:
        yield page
    finally:
        context.close()
    assert errors == []


def box(page: Page) -> Locator:
    return page.get_by_label("What your program printed")


def answer(page: Page, text: str) -> Locator:
    box(page).fill(text)
    page.get_by_role("button", name="Check").click()
    return page.locator(".konum-feedback")


def test_the_example_output_and_the_same_with_other_spacing_are_right(
    page: Page, expected: str
) -> None:
    assert expected.split("\n")[0] == "(4, 6)"
    expect(answer(page, expected)).to_have_text("Correct: every line matches.")
    expect(page.locator(".konum-score")).to_have_text("1 / 1 points")
    expect(page.locator(".konum-output .konum-mark")).to_have_text("Right")
    expect(box(page)).to_have_attribute("aria-invalid", "false")
    # Another program's print: other spacing, 0 for 0., blank lines, Windows line ends.
    lines = expected.split("\n")
    other = [
        "(4,6)",
        lines[1].replace("0.", "0").replace("1.", "1"),
        "",
        "  " + "   ".join(lines[2].strip("[]").split()).join("[]") + "  ",
        "True  False",
    ]
    expect(answer(page, "\r\n".join(other) + "\n\n")).to_have_text("Correct: every line matches.")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda lines: [lines[0], lines[1], lines[2].replace("0.841", "0.843"), lines[3]],
            "Not quite: line 3, number 1: expected 0.841, found 0.843.",
        ),
        (
            lambda lines: [*lines[:3], "True True"],
            "Not quite: line 4: expected \u201cFalse\u201d, found \u201cTrue\u201d.",
        ),
        (
            lambda lines: lines[:3],
            "Not quite: your output stops before line 4, \u201cTrue False\u201d.",
        ),
        (
            lambda lines: [*lines, "done"],
            "Not quite: line 5 is one too many: \u201cdone\u201d.",
        ),
        (
            lambda lines: ["(4, 6, 1)", *lines[1:]],
            "Not quite: line 1: expected \u201c)\u201d, found \u201c,\u201d.",
        ),
        (
            lambda lines: ["(4,", *lines[1:]],
            "Not quite: line 1 stops before \u201c6 )\u201d.",
        ),
        (
            lambda lines: [*lines[:3], "True False True"],
            "Not quite: line 4 goes on after the expected end: \u201cTrue\u201d.",
        ),
    ],
)
def test_a_wrong_output_is_told_which_line_differs_and_how(
    page: Page, expected: str, change: Any, message: str
) -> None:
    feedback = answer(page, "\n".join(change(expected.split("\n"))))
    expect(feedback).to_have_text(message)
    expect(page.locator(".konum-output .konum-mark")).to_have_text("Wrong")
    expect(box(page)).to_have_attribute("aria-invalid", "true")
    expect(page.locator(".konum-score")).to_have_text("0 / 1 points")
    expect(page.locator(".konum-explanation")).to_be_hidden()  # until right or shown


def test_numbers_count_as_equal_within_the_tolerance(page: Page, expected: str) -> None:
    lines = expected.split("\n")
    close = lines[2].replace("0.841", "0.8410000001")  # within 1e-6 of 0.841
    expect(answer(page, "\n".join([*lines[:2], close, lines[3]]))).to_contain_text("Correct")
    far = lines[2].replace("0.841", "0.84101")
    expect(answer(page, "\n".join([*lines[:2], far, lines[3]]))).to_have_text(
        "Not quite: line 3, number 1: expected 0.841, found 0.84101."
        " Kept from an earlier check: 1 / 1 points."  # the right check before it
    )


def test_an_empty_box_asks_first_and_enter_starts_a_new_line(page: Page) -> None:
    expect(answer(page, "   \n ")).to_have_text("Not quite: paste what your program printed first.")
    expect(page.locator(".konum-output .konum-mark")).to_have_count(0)
    box(page).fill("(4, 6)")
    box(page).press("End")
    box(page).press("Enter")
    box(page).type("[0. 1. 0. 1. 0. 1.]")
    assert box(page).input_value() == "(4, 6)\n[0. 1. 0. 1. 0. 1.]"
    expect(page.locator(".konum-feedback")).to_have_text(
        "Not quite: paste what your program printed first."
    )  # Enter did not check


def test_show_answer_gives_the_output_and_the_example_solution(page: Page, expected: str) -> None:
    page.get_by_role("button", name="Show answer").click()
    shown = page.locator(".konum-answer")
    expect(shown).to_be_visible()
    expect(shown.locator(".konum-output-expected")).to_have_text(expected)
    expect(shown.locator(".highlight")).to_contain_text("def sinusoidal(n, d):")
    expect(page.locator(".konum-explanation")).to_be_visible()


def test_the_pasted_output_is_kept_across_a_reload(page: Page, expected: str) -> None:
    answer(page, expected)
    page.reload()
    expect(page.locator("[data-konum-mounted]")).to_have_count(1)
    assert box(page).input_value() == expected
    expect(page.locator(".konum-feedback")).to_have_text("Correct: every line matches.")


@pytest.mark.slow
@pytest.mark.parametrize("scheme", ["default", "slate"])
def test_axe_finds_nothing_wrong_or_right(page: Page, expected: str, scheme: str) -> None:
    from axe_playwright_python.sync_playwright import Axe

    set_scheme(page, scheme)
    axe = Axe()
    for text in ("", "(4, 6)", expected):
        if text:
            answer(page, text)
        page.get_by_role("button", name="Show answer").click()
        found = axe.run(page, context={"include": [[".konum-quiz"]], "exclude": [[".highlight"]]})
        assert found.response["violations"] == [], text


def test_at_phone_width_nothing_overflows(browser: Any, url: str, expected: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        page.goto(url)
        answer(page, expected.replace("True False", "True True"))
        page.get_by_role("button", name="Show answer").click()
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
        question = page.locator("[data-question-id]").bounding_box()
        textarea = box(page).bounding_box()
        assert question and textarea
        assert textarea["x"] + textarea["width"] <= question["x"] + question["width"]
    finally:
        context.close()
