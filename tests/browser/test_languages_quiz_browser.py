"""The interface's languages in a real browser, one quiz page per language rendered in-process
and served together (one Chromium for the module).

* Every language: the buttons carry the language's catalogue words, a number typed with the
  language's decimal mark is read right and one with the other mark is asked back, and the
  page's plural forms (``Intl.PluralRules``) are those Python's (Babel's) gives.
* Turkish conventions: decimal comma shown and accepted, fill-ins compared with Turkish case
  rules on a ``lang="tr"`` page (and English rules on an English one)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import quiz_samples as samples
from conftest import PAGE, STATE, copy_asset, serve_folder
from playwright.sync_api import Page, expect

from konum import model, seal
from konum.formatting import format_number, number_marks
from konum.messages import LANGUAGES, catalogue, message
from konum.quiz import messages_html
from konum.types import Blank, Concrete, FillQuestion, NumericQuestion
from tests.helpers import forms, render_quiz

pytestmark = pytest.mark.browser

SOURCE = model.Source("demo.yml", 1, 1)
FILL = FillQuestion(
    id="tr-fill",
    bank="demo",
    prompt="Işığın Türkçesi: ____; ipucunun: ____",
    explanation="Işık ve ipucu.",
    source=SOURCE,
    blanks=(Blank(answers=("ışık",)), Blank(answers=("ipucu",))),
)
NUMERIC = NumericQuestion(
    id="tr-number",
    bank="demo",
    prompt="$\\sin(1)$ kaçtır?",
    explanation="Radyan cinsinden.",
    source=SOURCE,
    answer=0.8414709848,
    tolerance=0.00055,
    decimals=3,
)


#: The sample quiz's numeric question (every page has one of each type).
SAMPLE_NUMERIC = samples.numeric()
#: Counts whose plural category differs somewhere in CLDR (Polish 2, 5, 22, 12; Russian 21;
#: French 0 and 1.5).
COUNTS = [0, 1, 2, 3, 5, 11, 12, 21, 22, 25, 101, 112, 1.5]
#: Texts with plural forms in most languages, and the fields they need besides ``n``.
PLURALS = {"quiz.attempts_left": {}, "quiz.hint_costs": {"label": "x"}, "exam.minutes": {}}


def _page(language: str) -> str:
    samples_quiz = render_quiz(
        [*samples.all_samples(), samples.output()], samples.QUIZ_ID, language=language
    )
    concretes = [Concrete(FILL, 0), Concrete(NUMERIC, 0)]
    quiz = samples_quiz + render_quiz(concretes, "demo", language=language)
    quiz += messages_html(language, ["quiz", "exam"])
    page = PAGE.replace('<html lang="en">', f'<html lang="{language}">')
    return page.format(
        material="",
        head="",
        quiz=quiz,
        scripts=STATE + '<script src="assets/konum/quiz.js"></script>',
    )


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root: Path = tmp_path_factory.mktemp("konum-languages")
    (root / "assets" / "konum").mkdir(parents=True)
    for name in ("state.js", "quiz.js", "quiz.css"):
        copy_asset(name, root / "assets" / "konum")
    for language in LANGUAGES:
        (root / f"{language}.html").write_text(_page(language), encoding="utf-8")
    with serve_folder(root) as url:
        yield url


def _check(page: Page, qid: str, language: str) -> str:
    scope = page.locator(f'[data-question-id="{qid}"]')
    scope.get_by_role("button", name=message(language, "quiz.check")).click()
    return str(scope.locator(".konum-feedback").text_content())


@pytest.mark.parametrize(("first", "second"), [("IŞIK", "İPUCU"), ("Işık", "İpucu")])
def test_turkish_case_rules_on_a_turkish_page(
    browser: Any, pages: str, first: str, second: str
) -> None:
    page = browser.new_page()
    page.goto(pages + "tr.html")
    blanks = page.locator('[data-question-id="tr-fill"] input')
    blanks.nth(0).fill(first)
    blanks.nth(1).fill(second)
    assert _check(page, "tr-fill", "tr") == message("tr", "quiz.correct")
    page.close()


def test_the_same_case_fold_on_an_english_page(browser: Any, pages: str) -> None:
    """Blanks fold case the same way in every edition (I, İ and ı are i): "IŞIK" and
    "İPUCU" are right on the English page too, and "SIN" is "sin" on the Turkish page,
    where Turkish lowercasing alone would make it "sın" (a code blank's answer)."""
    page = browser.new_page()
    page.goto(pages + "en.html")
    blanks = page.locator('[data-question-id="tr-fill"] input')
    blanks.nth(0).fill("IŞIK")
    blanks.nth(1).fill("İPUCU")
    assert _check(page, "tr-fill", "en") == message("en", "quiz.correct")
    page.goto(pages + "tr.html")
    folded = page.evaluate("ws => ws.map(w => window.konumQuiz.normal(w))", ["SIN", "Sin", "sın"])
    assert folded == ["sin"] * 3 == [seal.normal_text(w) for w in ("SIN", "Sin", "sın")]
    page.close()


@pytest.mark.parametrize(
    ("typed", "said"),
    [("0,841", "quiz.correct"), ("0,8415", "quiz.correct"), ("0.841", "demek istediniz: 0,841?")],
)
def test_turkish_numbers_take_a_comma(browser: Any, pages: str, typed: str, said: str) -> None:
    """A Turkish page reads 0,841; "0.841" (the English way) is asked back, not judged."""
    page = browser.new_page()
    page.goto(pages + "tr.html")
    scope = page.locator('[data-question-id="tr-number"]')
    scope.locator("input").fill(typed)
    got = _check(page, "tr-number", "tr")
    assert got == message("tr", said) if said.startswith("quiz.") else said in got
    assert scope.evaluate("q => q.konum.tries") == (1 if said.startswith("quiz.") else 0)
    page.close()


def test_turkish_grouping_reads_thousands(browser: Any, pages: str) -> None:
    page = browser.new_page()
    page.goto(pages + "tr.html")
    got = page.evaluate(
        "ws => ws.map(w => window.konumQuiz.parseNumber(w))", ["2.048", "1.024,5", "−0,5", "0,5"]
    )
    assert got == pytest.approx([2048, 1024.5, -0.5, 0.5])
    page.close()


def test_the_turkish_answer_is_shown_with_a_decimal_comma(browser: Any, pages: str) -> None:
    page = browser.new_page()
    page.goto(pages + "tr.html")
    scope = page.locator('[data-question-id="tr-number"]')
    scope.get_by_role("button", name=message("tr", "quiz.show_answer")).click()
    expect(scope.locator(".konum-answer")).to_contain_text("0,841")
    expect(scope.locator(".konum-answer")).not_to_contain_text("0.841")
    page.close()


def _words(language: str) -> set[str]:
    return {form for text in catalogue(language).values() for form in forms(text)}


def _typed(language: str, other: bool) -> str:
    """The numeric sample's answer as a reader types it: the language's own mark, or the
    other convention's (a comma where the language writes a point, and the reverse)."""
    text = format_number(
        SAMPLE_NUMERIC.question.answer, SAMPLE_NUMERIC.question.decimals, language=language
    )
    mine = number_marks(language)[0]
    return text.replace(mine, "." if mine == "," else ",") if other else text


def test_every_language_s_quiz_page(browser: Any, pages: str) -> None:
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    scope = page.locator(f'[data-question-id="{SAMPLE_NUMERIC.question.id}"]')
    for language in LANGUAGES:
        page.goto(f"{pages}{language}.html")
        # Questions mount near the viewport first, the rest when the page is idle.
        page.wait_for_function(
            "!document.querySelector('[data-question-id]:not([data-konum-mounted])')"
        )
        buttons = set(page.locator("button:visible").all_inner_texts())
        words = _words(language)
        assert message(language, "quiz.check") in buttons, language
        # No English word on a button, but for those the language shares ("Quiz", "Hint").
        english = {w for w in _words("en") - words if re.search(r"[A-Za-z]{3}", w)}
        assert buttons & english == set(), language

        box, check = scope.locator("input"), scope.locator(".konum-check")
        box.fill(_typed(language, other=True))
        check.click()
        before, after = message(language, "quiz.number_ask", value="\0").split("\0")
        said = str(scope.locator(".konum-feedback").text_content())
        assert said.startswith(before) and said.endswith(after), (language, said)
        assert scope.evaluate("q => q.konum.tries") == 0, language
        box.fill(_typed(language, other=False))
        check.click()
        assert scope.locator(".konum-feedback").text_content() == message(
            language, "quiz.correct"
        ), language

        got = page.evaluate(
            """([keys, counts]) => keys.map(([key, fields]) => counts.map(
                 n => window.konumText(key, Object.assign({n: n}, fields))))""",
            [list(PLURALS.items()), COUNTS],
        )
        want = [[message(language, k, n=n, **f) for n in COUNTS] for k, f in PLURALS.items()]
        assert got == want, language
    page.close()
    assert errors == []
