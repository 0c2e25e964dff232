"""The quiz in a real browser: feedback per type, New numbers, progress, keyboard, a11y.

The page is the standalone fixture from ``conftest.py`` (the sample quiz from
``tests/quiz_samples.py``); the ``quiz`` fixture fails a test that logs a console error or
sends a request anywhere but 127.0.0.1. Expected answers are computed from the samples.
"""

from __future__ import annotations

import dataclasses
import math
import os
import re
from pathlib import Path
from typing import Any

import pytest
import quiz_samples as samples
from conftest import set_scheme
from playwright.sync_api import Locator, Page, expect

from konum import model
from konum.quiz import messages_html
from konum.types import (
    Blank,
    ChoiceQuestion,
    ComputedQuestion,
    Concrete,
    FillQuestion,
    MatchingQuestion,
    NumericQuestion,
    Option,
    OrderingQuestion,
)

pytestmark = pytest.mark.browser

Q = f"#konum-{samples.QUIZ_ID}"


def question(page: Page, qid: str) -> Locator:
    return page.locator(f'[data-question-id="{qid}"]')


def feedback(page: Page, qid: str) -> Locator:
    return question(page, qid).locator(".konum-feedback")


def check(page: Page, qid: str) -> None:
    question(page, qid).get_by_role("button", name="Check").click()


def score(page: Page) -> Locator:
    return page.locator(".konum-score")


def label_of(option: Option | model.ConcreteOption) -> str:
    return option.text.replace("`", "")


def choice_options(concrete: Concrete) -> list[Option]:
    q = concrete.question
    assert isinstance(q, ChoiceQuestion)
    return [q.options[i] for i in concrete.option_order]


# --- each type: right and wrong -------------------------------------------------------------


def test_check_with_nothing_entered_asks_and_reveals_nothing(quiz: Any) -> None:
    """An empty Check is no attempt: it asks for an answer, and shows no explanation, no
    worked solution, no marks; the score and the saved progress do not change."""
    page = quiz.open()
    total = f"{samples.total_points():g}"
    for concrete in samples.all_samples():
        qid = concrete.question.id
        check(page, qid)
        expect(feedback(page, qid)).to_have_text(re.compile(r"^Not quite: .+ first\.$"))
        q = question(page, qid)
        for part in (".konum-explanation", ".konum-solution", ".konum-answer"):
            expect(q.locator(part)).to_be_hidden()
        expect(q.locator(".is-wrong:not(.konum-feedback), .konum-mark")).to_have_count(0)
    expect(score(page)).to_have_text(f"0 / {total} points")
    assert page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('konum:'))") == []


def test_choice_single(quiz: Any) -> None:
    page = quiz.open()
    concrete = samples.choice()
    qid = concrete.question.id
    options = question(page, qid).locator("input.konum-choice")
    shown = choice_options(concrete)
    wrong = next(i for i, o in enumerate(shown) if not o.correct and o.feedback)
    right = next(i for i, o in enumerate(shown) if o.correct)
    check(page, qid)
    expect(feedback(page, qid)).to_have_text("Not quite: choose an answer first.")
    options.nth(wrong).check()
    check(page, qid)
    expect(feedback(page, qid)).to_contain_text("Not quite")
    item = question(page, qid).locator("li.konum-option").nth(wrong)
    expect(item).to_have_class("konum-option is-wrong")
    expect(item.locator(".konum-mark")).to_have_text("Wrong")
    assert shown[wrong].feedback is not None
    expect(item.locator(".konum-option-feedback")).to_have_text(shown[wrong].feedback)
    expect(question(page, qid).locator(".konum-explanation")).to_be_hidden()  # not yet
    expect(score(page)).to_have_text(f"0 / {samples.total_points():g} points")
    options.nth(right).check()
    check(page, qid)
    expect(feedback(page, qid)).to_have_text("Correct.")
    expect(question(page, qid).locator(".konum-explanation")).to_be_visible()
    expect(item.locator(".konum-option-feedback")).to_be_hidden()
    expect(question(page, qid).locator("li.konum-option").nth(right)).to_have_class(
        "konum-option is-right"
    )
    expect(score(page)).to_have_text(f"1 / {samples.total_points():g} points")


def test_choice_multiple(quiz: Any) -> None:
    page = quiz.open()
    concrete = samples.choice_multiple()
    qid = concrete.question.id
    boxes = question(page, qid).locator("input[type=checkbox]")
    correct = [i for i, o in enumerate(choice_options(concrete)) if o.correct]
    boxes.nth(correct[0]).check()
    check(page, qid)
    expect(feedback(page, qid)).to_have_text(
        "Not quite: 1 correct option not selected. (0.5 of 1 point)"
    )
    for i in correct[1:]:
        boxes.nth(i).check()
    check(page, qid)
    expect(feedback(page, qid)).to_have_text("Correct.")


def test_fill(quiz: Any) -> None:
    page = quiz.open()
    qid = samples.fill().question.id
    blanks = question(page, qid).locator("input.konum-blank")
    expect(blanks).to_have_count(2)
    expect(question(page, qid).locator("pre input.konum-blank")).to_have_count(1)
    blanks.nth(0).fill("  COSINE ")  # trimmed, case-insensitive
    blanks.nth(1).fill("3")
    check(page, qid)
    expect(feedback(page, qid)).to_have_text(
        "Not quite: blank 2 is not right yet. (0.5 of 1 point)"
    )
    expect(blanks.nth(1)).to_have_attribute("aria-invalid", "true")
    blanks.nth(1).fill("2")
    check(page, qid)
    expect(feedback(page, qid)).to_have_text("Correct.")


def test_fill_regex_and_case(quiz: Any) -> None:
    """A regular expression (sealed in the page) and a case-sensitive answer (hashed)."""
    from konum.render import render_quiz

    page = quiz.open()
    q = FillQuestion(
        id="t-regex", bank="t", prompt="Type ____ and ____.", explanation="", source=samples.SRC,
        blanks=(
            Blank(answers=(".5",), regex=r"0?\.5", case_sensitive=True),
            Blank(answers=("PE",), case_sensitive=True),
        ),
    )  # fmt: skip
    html = render_quiz([Concrete(q, 1)], "regex")
    result = page.evaluate(
        """async html => {
        const el = document.createElement('div');
        el.innerHTML = html;
        document.body.appendChild(el);
        window.konumQuiz.mountAll(el);
        const q = el.querySelector('[data-question-id]');
        q.scrollIntoView();  /* a question mounts when it comes near the viewport */
        while (!q.hasAttribute('data-konum-mounted')) await new Promise(r => setTimeout(r, 10));
        const [a, b] = q.querySelectorAll('input'), out = [];
        for (const [x, y] of [['.5', 'PE'], ['0.5', 'pe'], ['0.55', 'PE'], [' 0.5 ', 'PE']]) {
          a.value = x; b.value = y; q.querySelector('button.konum-check').click();
          out.push(q.querySelector('.konum-feedback').classList.contains('is-right'));
        }
        el.remove();
        return out;
    }""",
        html,
    )
    assert result == [True, False, False, True]


def test_matching(quiz: Any) -> None:
    page = quiz.open()
    concrete = samples.matching()
    q = concrete.question
    assert isinstance(q, MatchingQuestion)
    selects = question(page, q.id).locator("select")
    answers = [concrete.right_items.index(p.right) for p in q.pairs]
    selects.nth(0).select_option(str(answers[0]))
    selects.nth(1).select_option(str(answers[0]))
    check(page, q.id)
    share = f"{1 / len(q.pairs):.2f}".rstrip("0").rstrip(".")
    expect(feedback(page, q.id)).to_have_text(
        f"Not quite: 1 of {len(q.pairs)} pairs are right. ({share} of 1 point)"
    )
    rows = question(page, q.id).locator(".konum-match-row")
    expect(rows.nth(0).locator(".konum-mark")).to_have_text("Right")
    expect(rows.nth(1).locator(".konum-mark")).to_have_text("Wrong")
    selects.nth(1).select_option(str(answers[1]))
    check(page, q.id)
    expect(feedback(page, q.id)).to_contain_text("Correct")
    expect(rows.nth(1)).to_have_class("konum-match-row is-right")


@pytest.mark.parametrize(
    ("typed", "said"),
    [("0.84", "Correct"), (".84", "Correct"), ("8.4e-1", "Correct"), (" 0.8415 ", "Correct"),
     ("−0.84", "too low"), ("0.83", "too low"), ("0.85", "too high"),
     ("0,84", "Did you mean 0.84?"), ("abc", "Not a number yet"), ("", "type a number first")],
)  # fmt: skip
def test_numeric(quiz: Any, typed: str, said: str) -> None:
    """Right, wrong, or asked again: a number in the other convention ("0,84" on an English
    page) or no number is not an attempt, and reveals nothing."""
    page = quiz.open()
    qid = samples.numeric().question.id
    question(page, qid).locator("input").fill(typed)
    check(page, qid)
    expect(feedback(page, qid)).to_contain_text(said)
    tried = said in ("Correct", "too low", "too high")
    assert question(page, qid).evaluate("q => q.konum.tries") == (1 if tried else 0)
    shown = question(page, qid).locator(".konum-explanation")
    expect(shown).to_be_visible() if said == "Correct" else expect(shown).to_be_hidden()


@pytest.mark.parametrize("width", [390, 1000])
def test_the_wrong_mark_keeps_clear_of_the_number_box(quiz: Any, width: int) -> None:
    """The "Wrong" mark after a numeric box (with or without a unit between): a clear gap to
    the box and its coloured ring."""
    page = quiz.open()
    page.set_viewport_size({"width": width, "height": 900})
    for concrete in (samples.numeric(), samples.computed_numeric()):
        q = question(page, concrete.question.id)
        box = q.locator("input:visible")
        box.fill("12345")
        check(page, concrete.question.id)
        line = box.locator("xpath=..")
        mark = line.locator(".konum-mark")
        expect(mark).to_have_text("Wrong")
        gap = mark.evaluate(
            """m => m.getBoundingClientRect().left
                - m.previousElementSibling.getBoundingClientRect().right"""
        )
        bottom = box.evaluate("b => b.getBoundingClientRect().bottom")
        if mark.evaluate("m => m.getBoundingClientRect().top") >= bottom:
            continue  # wrapped to a line of its own: nothing beside it
        assert gap >= 8, (concrete.question.id, gap)


def test_number_parsing(quiz: Any) -> None:
    page = quiz.open()
    cases = {
        "0.84": 0.84, ".84": 0.84, "8.4e-1": 0.84, "-0.84": -0.84, "−2": -2, "–3": -3,
        "-.5": -0.5, "1E3": 1000, "12": 12, "1,000": 1000, "1,000.5": 1000.5, "1 000": 1000,
        "12,345,678": 12345678, "2e−3": 0.002,
    }  # fmt: skip
    got = page.evaluate("cs => cs.map(c => window.konumQuiz.parseNumber(c))", list(cases))
    assert got == pytest.approx(list(cases.values()))
    bad = ["", "abc", "1.2.3", "0,84", "1,5", "1,00", "e5", "--1", "0x10", "1/2"]
    assert page.evaluate("cs => cs.map(c => isNaN(window.konumQuiz.parseNumber(c)))", bad) == [
        True
    ] * len(bad)


def _prompt(page: Page, qid: str) -> Locator:
    return question(page, qid).locator(".konum-variant:visible .konum-prompt")


def test_computed_numeric_new_numbers(quiz: Any) -> None:
    page = quiz.open()
    concrete = samples.computed_numeric()
    qid = concrete.question.id
    first, second = concrete.variants[0], concrete.variants[1]
    expect(_prompt(page, qid)).to_have_count(1)
    prompt0 = _prompt(page, qid).inner_text()
    question(page, qid).locator(".konum-variant:visible input").fill(first.shown_answer)
    check(page, qid)
    expect(feedback(page, qid)).to_have_text("Correct.")
    expect(question(page, qid).locator(".konum-solution:visible")).to_have_count(1)
    question(page, qid).get_by_role("button", name="New numbers").click()
    expect(feedback(page, qid)).to_have_text("")
    assert _prompt(page, qid).inner_text() != prompt0
    expect(question(page, qid).locator(".konum-solution:visible")).to_have_count(0)
    field = question(page, qid).locator(".konum-variant:visible input")
    expect(field).to_have_value("")
    field.fill(first.shown_answer)  # the old answer is wrong for the new numbers
    check(page, qid)
    expect(feedback(page, qid)).to_contain_text("Not quite")
    expect(question(page, qid).locator(".konum-solution:visible")).to_have_count(0)
    field.fill(second.shown_answer)
    check(page, qid)
    expect(feedback(page, qid)).to_have_text("Correct.")
    expect(question(page, qid).locator(".konum-solution:visible")).to_contain_text(
        second.shown_answer
    )
    for _ in range(len(concrete.variants) - 1):  # cycles back to the first variant
        question(page, qid).get_by_role("button", name="New numbers").click()
    assert _prompt(page, qid).inner_text() == prompt0


def test_display_formulas_of_a_solution_do_not_touch(quiz: Any) -> None:
    """Worked solutions stack display formulas (a fraction, then the next line): each one
    keeps its own line, with room between, as the reader sees them after Check."""
    page = quiz.open()
    concrete = samples.computed_numeric()
    qid = concrete.question.id
    question(page, qid).get_by_role("button", name="Show answer").click()
    formulas = question(page, qid).locator(".konum-solution:visible .konum-math math")
    expect(formulas).to_have_count(2)
    first, second = (formulas.nth(i).bounding_box() for i in range(2))
    assert first is not None and second is not None
    assert second["y"] - (first["y"] + first["height"]) >= 6, (first, second)


def _gaps_after_second_operator(browser: Any, fixed: str, plain: str) -> tuple[float, float]:
    """The space between the formula's second <mo> and what follows it, in Chromium: with
    the forms konum writes (``fixed``) and without them (``plain``)."""
    page = browser.new_page()
    try:
        page.set_content(f'<p id="fixed">{fixed}</p><p id="plain">{plain}</p>')
        gaps = [
            float(
                page.evaluate(
                    """(id) => {
                        const op = document.querySelector(`#${id} mo:nth-of-type(2)`);
                        return op.nextElementSibling.getBoundingClientRect().left
                            - op.getBoundingClientRect().right;
                    }""",
                    which,
                )
            )
            for which in ("fixed", "plain")
        ]
    finally:
        page.close()
    return gaps[0], gaps[1]


def test_absolute_value_bars_hug_their_content(browser: Any) -> None:
    """$n = |r|$: the bars of an absolute value sit against what they enclose, as fences;
    written as latex2mathml writes them (the same operator twice), Chromium spaces them
    like a relation ("n = | r |")."""
    from konum.markup import render_markdown

    fixed = render_markdown("$n = |r| = 26$", inline=True)
    assert 'form="prefix"' in fixed and 'form="postfix"' in fixed
    plain = re.sub(r' form="(?:prefix|postfix)"', "", fixed)
    with_forms, without = _gaps_after_second_operator(browser, fixed, plain)
    assert with_forms <= 1.0
    assert without >= with_forms + 2.0  # what the test guards against


def test_a_sign_sits_against_its_number(browser: Any) -> None:
    """$y = -0.9165$: a minus after a relation is a sign; written as latex2mathml writes it
    (the operator of a subtraction), Chromium spaces it like one ("y = − 0.9165")."""
    from konum.markup import render_markdown

    fixed = render_markdown("$y = -0.9165$", inline=True)
    assert '<mo form="prefix">−</mo>' in fixed
    plain = fixed.replace(' form="prefix"', "")
    with_forms, without = _gaps_after_second_operator(browser, fixed, plain)
    assert with_forms <= 1.0
    assert without >= with_forms + 2.0  # what the test guards against


def test_text_that_looks_like_a_script_end_stays_inside_its_data(browser: Any) -> None:
    """A fill answer (data written as is, not HTML) holding ``</script>``, ``<!--`` and
    ``<script>``: the question's JSON still ends where its template ends it, the question
    mounts, and typing that answer is right (every other ``</`` of the data, the closing
    tags of the HTML shown later, is written as it is)."""
    from conftest import ASSETS, quiz_source

    from konum.render import render_quiz

    answer = "</script><!--<SCRIPT>"
    concrete = samples.fill()
    q = concrete.question
    assert isinstance(q, FillQuestion)
    tricky = dataclasses.replace(q, blanks=(Blank(answers=(answer,)), q.blanks[1]))
    html = render_quiz([dataclasses.replace(concrete, question=tricky)], "tricky")
    box_html = html.split("<template", 1)[1].split("</template>", 1)[0].lower()
    assert box_html.count("</script") == 2 and "<!--" not in box_html  # the two scripts' ends
    script = (ASSETS / "state.js").read_text(encoding="utf-8") + quiz_source()
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.set_content(f"{html}{messages_html('en', ['quiz'])}<script>{script}</script>")
        box = page.locator(f'[data-question-id="{q.id}"]')
        expect(box).to_have_attribute("data-konum-mounted", "")
        box.locator("input.konum-blank").nth(0).fill(answer)
        box.locator("input.konum-blank").nth(1).fill("2")
        box.get_by_role("button", name="Check").click()
        expect(box.locator(".konum-feedback")).to_have_text("Correct.")
        assert page.locator("[data-question-id]").count() == 1
    finally:
        page.close()
    assert errors == []


#: Every class quiz.js ever used to find its parts, on one element that bank HTML could hold.
DECOY = (
    '<span class="konum-buttons konum-feedback konum-mark konum-option-feedback konum-answer'
    " konum-hint konum-explanation konum-solution konum-variant konum-variant-answer"
    " konum-prompt konum-quiz-head konum-score konum-score-value konum-reset konum-check"
    ' konum-show konum-new konum-data-box konum-options is-right">decoy</span>'
)


def test_bank_html_with_konums_own_class_names_changes_nothing(browser: Any) -> None:
    """Prompts, option labels and the HTML shown later are bank text: even with every class
    name quiz.js has used (written past the sanitiser here), each question keeps its
    buttons, its feedback line, its marks and its score, and the decoys stay as written."""
    from conftest import ASSETS, quiz_source

    from konum.render import render_quiz

    concretes = samples.all_samples()
    html = render_quiz(concretes, samples.QUIZ_ID, title="Decoys")
    html = re.sub(
        r'(<label for="[^"]+">|<div class="konum-prompt"[^>]*>|<span class="konum-order-text">)',
        r"\1" + DECOY,
        html,
    )
    title = "<p class=konum-hint-title>"  # inside the JSON of what shows later
    html = html.replace(title, DECOY.replace('"', '\\"') + "<p>")
    assert html.count("decoy") >= 2 * len(concretes)
    script = (ASSETS / "state.js").read_text(encoding="utf-8") + quiz_source()
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.set_content(f"{html}{messages_html('en', ['quiz'])}<script>{script}</script>")
        expect(page.locator("[data-konum-mounted]")).to_have_count(len(concretes))
        expect(page.get_by_role("button", name="Check")).to_have_count(len(concretes))
        choice = samples.choice()
        right = next(i for i, o in enumerate(choice_options(choice)) if o.correct)
        wrong = next(i for i, o in enumerate(choice_options(choice)) if o.feedback)
        q = question(page, choice.question.id)
        q.locator("input").nth(wrong).check()
        q.get_by_role("button", name="Check").click()
        expect(q.locator("[data-konum-made].konum-feedback")).to_contain_text("Not quite")
        expect(q.locator("[data-konum-made].konum-mark")).to_have_text("Wrong")
        expect(q.locator("[data-konum-made].konum-explanation")).to_be_hidden()
        q.locator("input").nth(right).check()
        q.get_by_role("button", name="Check").click()
        expect(q.locator("[data-konum-made].konum-feedback")).to_have_text("Correct.")
        expect(q.locator("[data-konum-made].konum-explanation")).to_be_visible()
        computed = samples.computed_choice()
        cq = question(page, computed.question.id)
        cq.get_by_role("button", name="New numbers").click()
        variant = computed.variants[1]
        form = cq.locator('[data-variant="1"]')
        prompt = form.locator(f'[id="konum-{samples.QUIZ_ID}-{computed.question.id}-v1-prompt"]')
        expect(prompt).to_be_visible()
        form.get_by_role("radio", name=next(o.text for o in variant.options if o.correct)).check()
        cq.get_by_role("button", name="Check").click()
        expect(cq.locator("[data-konum-made].konum-feedback")).to_have_text("Correct.")
        expect(page.locator("[data-konum-made].konum-score")).to_have_text(
            f"2 / {samples.total_points():g} points"
        )
        page.get_by_role("button", name="Reset").click()
        page.get_by_role("button", name="Clear answers").click()
        expect(page.locator("[data-konum-made].konum-score")).to_have_text(
            f"0 / {samples.total_points():g} points"
        )
        decoys = page.locator("span.konum-buttons")
        assert decoys.count() >= 2 * len(concretes)
        assert set(decoys.all_inner_texts()) == {"decoy"}
    finally:
        page.close()
    assert errors == []


def test_variant_forms_copied_from_the_first_are_its_own(quiz: Any) -> None:
    """The build sends a variant shaped like the first as its prompt and option texts;
    quiz.js copies the first form as the page had it: each copy has the variant's ids (none
    twice on the page), labels tied to its own controls, its own radio group, prompt and
    option names, and none of the first form's state."""
    page = quiz.open()
    concrete = samples.computed_choice()
    qid = concrete.question.id
    q = question(page, qid)
    q.locator(".konum-variant:visible input[type=radio]").first.check()
    check(page, qid)  # marks, a note and an aria-invalid state in the first form
    for k, variant in enumerate(concrete.variants[1:], start=1):
        q.get_by_role("button", name="New numbers").click()
        form = q.locator(f'.konum-variant[data-variant="{k}"]')
        expect(form).to_be_visible()
        prefix = f"konum-{samples.QUIZ_ID}-{qid}-v{k}"
        facts = form.evaluate(
            """(box) => {
                const ids = [...document.querySelectorAll("[id]")].map((e) => e.id);
                const radios = [...box.querySelectorAll("input[type=radio]")];
                return {
                    duplicates: ids.filter((id, i) => ids.indexOf(id) !== i),
                    ids: [...box.querySelectorAll("[id]")].map((e) => e.id),
                    names: [...new Set(radios.map((r) => r.name))],
                    labelled: [...box.querySelectorAll("label")].every(
                        (l) => box.contains(l.control)
                    ),
                    described: box.querySelector("fieldset").getAttribute("aria-describedby"),
                    checked: radios.filter((r) => r.checked).length,
                    marks: box.querySelectorAll(".konum-mark, .konum-option-feedback").length,
                };
            }"""
        )
        assert facts["duplicates"] == []
        assert facts["ids"] and all(i.startswith(prefix + "-") for i in facts["ids"])
        assert facts["names"] == [f"{prefix}-choice"]
        assert facts["labelled"] and facts["described"] == f"{prefix}-prompt"
        assert facts["checked"] == 0 and facts["marks"] == 0
        expect(form.locator(".konum-prompt")).to_have_text(variant.prompt)
        for option in variant.options:
            expect(form.get_by_role("radio", name=option.text)).to_have_count(1)
        right = next(o for o in variant.options if o.correct)
        form.get_by_role("radio", name=right.text).check()
        check(page, qid)
        expect(feedback(page, qid)).to_have_text("Correct.")


def test_a_variant_shaped_unlike_the_first_comes_whole(browser: Any) -> None:
    """A variant with another unit ships its whole form, and the copies of the first still
    work beside it."""
    from conftest import ASSETS, quiz_source

    from konum.render import render_quiz

    concrete = samples.computed_numeric(3)
    v = concrete.variants
    odd = dataclasses.replace(v[2], unit="rad")
    html = render_quiz([dataclasses.replace(concrete, variants=(v[0], v[1], odd))], "odd")
    assert '"variant-2"' in html and '"prompt-1"' in html
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        script = (ASSETS / "state.js").read_text(encoding="utf-8") + quiz_source()
        page.set_content(f"{html}{messages_html('en', ['quiz'])}<script>{script}</script>")
        q = page.locator(f'[data-question-id="{concrete.question.id}"]')
        for k, variant in enumerate(v[1:], start=1):
            q.get_by_role("button", name="New numbers").click()
            form = q.locator(f'.konum-variant[data-variant="{k}"]')
            pos, j = variant.values["pos"], variant.values["j"]
            expect(form.locator(".konum-prompt")).to_contain_text(f"PE[{pos},{j}]")
            form.locator("input").fill(variant.shown_answer)
            q.get_by_role("button", name="Check").click()
            expect(q.locator(".konum-feedback")).to_have_text("Correct.")
        expect(q.locator('.konum-variant[data-variant="2"] .konum-unit')).to_have_text("rad")
        expect(q.locator('.konum-variant[data-variant="1"] .konum-unit')).to_have_count(0)
    finally:
        page.close()
    assert errors == []


def test_computed_choice(quiz: Any) -> None:
    page = quiz.open()
    concrete = samples.computed_choice()
    qid = concrete.question.id
    for k, variant in enumerate(concrete.variants):
        if k:
            question(page, qid).get_by_role("button", name="New numbers").click()
        radios = question(page, qid).locator(".konum-variant:visible input[type=radio]")
        wrong = next(i for i, o in enumerate(variant.options) if not o.correct)
        right = next(i for i, o in enumerate(variant.options) if o.correct)
        radios.nth(wrong).check()
        check(page, qid)
        expect(feedback(page, qid)).to_contain_text("Not quite")
        note = question(page, qid).locator(".konum-variant:visible .konum-option-feedback")
        expect(note.locator("visible=true")).to_have_count(1)
        radios.nth(right).check()
        check(page, qid)
        expect(feedback(page, qid)).to_have_text("Correct.")


def test_later_parts_arrive_on_first_show(quiz: Any) -> None:
    """Answers, notes and other variants are empty boxes until shown; they are filled once,
    and then are ordinary markup whose controls have accessible names."""
    page = quiz.open()
    empty = page.evaluate(
        "() => [...document.querySelectorAll('[data-later]')].every(b => !b.innerHTML)"
    )
    assert empty and page.locator("[data-later]").count() > 0
    expect(page.locator("[hidden] math")).to_have_count(0)
    qid = samples.choice().question.id
    q = question(page, qid)
    answer = q.locator(".konum-answer")
    q.get_by_role("button", name="Show answer").click()
    expect(answer.locator("math")).to_have_count(2)
    expect(answer).not_to_have_attribute("data-later", "")
    q.get_by_role("button", name="Show answer").click()
    q.get_by_role("button", name="Show answer").click()
    expect(answer.locator("math")).to_have_count(2)  # filled once, not again
    concrete = samples.computed_choice()
    cq = question(page, concrete.question.id)
    cq.get_by_role("button", name="New numbers").click()
    variant = concrete.variants[1]
    for option in variant.options:
        expect(cq.get_by_role("radio", name=option.text)).to_have_count(1)


def test_show_answer_and_hint(quiz: Any) -> None:
    page = quiz.open()
    qid = samples.choice().question.id
    q = question(page, qid)
    show = q.get_by_role("button", name="Show answer")
    expect(q.locator(".konum-answer")).to_be_hidden()
    show.click()
    expect(q.locator(".konum-answer")).to_be_visible()
    expect(show).to_have_attribute("aria-expanded", "true")
    expect(q.locator(".konum-explanation")).to_be_visible()
    hint = q.get_by_role("button", name="Hint")
    hint.click()
    expect(q.locator(".konum-hint")).to_be_visible()
    expect(hint).to_have_attribute("aria-expanded", "true")
    cqid = samples.computed_numeric().question.id
    cq = question(page, cqid)
    cq.get_by_role("button", name="New numbers").click()
    cq.get_by_role("button", name="Show answer").click()
    shown = samples.computed_numeric().variants[1].shown_answer
    expect(cq.locator(".konum-answer:visible")).to_contain_text(shown.replace("-", "\u2212"))


# --- progress, reset, idempotency -----------------------------------------------------------


def test_progress_survives_reload_and_reset_clears_it(quiz: Any) -> None:
    page = quiz.open()
    total = f"{samples.total_points():g}"
    fill_id = samples.fill().question.id
    num = samples.computed_numeric()
    question(page, fill_id).locator("input.konum-blank").nth(0).fill("cos")
    question(page, fill_id).locator("input.konum-blank").nth(1).fill("2")
    check(page, fill_id)
    question(page, num.question.id).get_by_role("button", name="New numbers").click()
    question(page, num.question.id).locator(".konum-variant:visible input").fill(
        num.variants[1].shown_answer
    )
    check(page, num.question.id)
    expect(score(page)).to_have_text(f"2 / {total} points")
    prompt = _prompt(page, num.question.id).inner_text()
    page.reload()
    expect(score(page)).to_have_text(f"2 / {total} points")
    expect(question(page, fill_id).locator("input.konum-blank").nth(1)).to_have_value("2")
    expect(feedback(page, fill_id)).to_have_text("Correct.")
    assert _prompt(page, num.question.id).inner_text() == prompt
    expect(feedback(page, num.question.id)).to_have_text("Correct.")
    keys = page.evaluate("Object.keys(localStorage)")
    assert f"konum:/index.html:{samples.QUIZ_ID}:{fill_id}" in keys
    page.get_by_role("button", name="Reset").click()
    expect(score(page)).to_have_text(f"2 / {total} points")  # it asks first
    page.get_by_role("button", name="Clear answers").click()
    expect(score(page)).to_have_text(f"0 / {total} points")
    expect(feedback(page, fill_id)).to_have_text("")
    page.reload()
    expect(score(page)).to_have_text(f"0 / {total} points")
    expect(question(page, fill_id).locator("input.konum-blank").nth(1)).to_have_value("")
    assert page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('konum:'))") == []


def test_reset_asks_first_and_undo_puts_every_answer_back(quiz: Any) -> None:
    """Reset clears nothing until asked again ("Keep them" keeps everything); once cleared,
    Undo brings back the answers, marks, feedback and score, and saves them again. Both
    work from the keyboard, and focus goes where the next step is."""
    page = quiz.open()
    total = f"{samples.total_points():g}"
    fill_id, num = samples.fill().question.id, samples.numeric()
    blanks = question(page, fill_id).locator("input.konum-blank")
    blanks.nth(0).fill("cos")
    blanks.nth(1).fill("2")
    check(page, fill_id)
    question(page, num.question.id).locator("input").fill("7")
    check(page, num.question.id)
    expect(score(page)).to_have_text(f"1 / {total} points")
    stored = page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('konum:')).length")
    assert stored == 2

    reset = page.get_by_role("button", name="Reset")
    reset.focus()
    page.keyboard.press("Enter")
    group = page.get_by_role("group", name="Reset")
    expect(group).to_contain_text("Clear every answer on this page?")
    keep = group.get_by_role("button", name="Keep them")
    expect(keep).to_be_focused()
    page.keyboard.press("Enter")
    expect(group).to_be_hidden()
    expect(reset).to_be_focused()
    expect(score(page)).to_have_text(f"1 / {total} points")
    expect(blanks.nth(1)).to_have_value("2")

    reset.click()
    page.get_by_role("button", name="Clear answers").click()
    expect(score(page)).to_have_text(f"0 / {total} points")
    expect(blanks.nth(1)).to_have_value("")
    expect(page.get_by_role("status").filter(has_text="Answers cleared.")).to_have_count(1)
    assert page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('konum:'))") == []
    undo = page.get_by_role("button", name="Undo")
    expect(undo).to_be_focused()
    page.keyboard.press("Enter")
    expect(score(page)).to_have_text(f"1 / {total} points")
    expect(blanks.nth(1)).to_have_value("2")
    expect(feedback(page, fill_id)).to_have_text("Correct.")
    expect(feedback(page, num.question.id)).to_contain_text("Not quite: 7 is too")
    expect(undo).to_be_hidden()
    page.reload()  # restored answers are saved again
    expect(score(page)).to_have_text(f"1 / {total} points")
    expect(question(page, num.question.id).locator("input")).to_have_value("7")


def test_enter_in_a_text_box_checks_the_answer(quiz: Any) -> None:
    """Enter in a fill-in blank or a numeric box checks the question, as in any form; in a
    blank that is empty it asks for an answer, and nothing else on the page changes."""
    page = quiz.open()
    fill_id = samples.fill().question.id
    blanks = question(page, fill_id).locator("input.konum-blank")
    blanks.nth(0).fill("cos")
    blanks.nth(0).press("Enter")
    expect(feedback(page, fill_id)).to_have_text(
        "Not quite: blank 2 is not right yet. (0.5 of 1 point)"
    )
    blanks.nth(1).fill("2")
    blanks.nth(1).press("Enter")
    expect(feedback(page, fill_id)).to_have_text("Correct.")
    num = samples.numeric()
    assert isinstance(num.question, NumericQuestion)
    box = question(page, num.question.id).locator("input")
    box.press("Enter")
    expect(feedback(page, num.question.id)).to_have_text("Not quite: type a number first.")
    box.fill(f"{num.question.answer:.2f}")
    box.press("Enter")
    expect(feedback(page, num.question.id)).to_have_text("Correct.")
    computed = samples.computed_numeric()
    field = question(page, computed.question.id).locator(".konum-variant:visible input")
    field.fill(computed.variants[0].shown_answer)
    field.press("Enter")
    expect(feedback(page, computed.question.id)).to_have_text("Correct.")
    expect(score(page)).to_have_text(f"3 / {samples.total_points():g} points")
    assert page.url.endswith("index.html")  # no form was submitted


def test_loaded_twice_mounts_once_via_document_observable(quiz: Any) -> None:
    page = quiz.open("twice.html")
    qid = samples.choice().question.id
    assert page.evaluate("window.document$.subs.length") == 1
    question(page, qid).get_by_role("button", name="Show answer").click()  # a toggle
    expect(question(page, qid).locator(".konum-answer")).to_be_visible()
    # Instant navigation: new content replaces the old, document$ emits, the quiz mounts.
    page.evaluate(
        """() => {
        const article = document.querySelector('article');
        article.innerHTML = article.innerHTML;
        window.document$.next(document);
    }"""
    )
    check(page, qid)
    expect(feedback(page, qid)).to_contain_text("Not quite")


# --- keyboard, accessibility, print ---------------------------------------------------------


def _tab_to(page: Page, selector: str, limit: int = 80) -> None:
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("s => document.activeElement.matches(s)", selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


def _press_button(page: Page, qid: str, name: str) -> None:
    _tab_to(page, f'[data-question-id="{qid}"] button.konum-{name}')
    page.keyboard.press("Enter")


def test_whole_quiz_by_keyboard(quiz: Any) -> None:
    page = quiz.open()
    all_ = samples.all_samples()
    for concrete in all_:
        q = concrete.question
        sel = f'[data-question-id="{q.id}"]'
        if isinstance(q, ChoiceQuestion):
            shown = choice_options(concrete)
            _tab_to(page, f"{sel} input.konum-choice")
            if concrete.question.multiple:  # checkboxes: Tab between them, Space toggles
                for i, option in enumerate(shown):
                    if i:
                        page.keyboard.press("Tab")
                    if option.correct:
                        page.keyboard.press("Space")
            else:  # radios: arrows move and select
                for _ in range(next(i for i, o in enumerate(shown) if o.correct)):
                    page.keyboard.press("ArrowDown")
                page.keyboard.press("Space")
        elif isinstance(q, FillQuestion):
            for blank in q.blanks:
                _tab_to(page, f"{sel} input.konum-blank")
                page.keyboard.type(blank.answers[0])
        elif isinstance(q, MatchingQuestion):
            for pair in q.pairs:
                _tab_to(page, f"{sel} select")
                letter = chr(ord("A") + concrete.right_items.index(pair.right))
                page.keyboard.type(letter)  # type-ahead picks "A: ...", "B: ..."
        elif isinstance(q, NumericQuestion):
            _tab_to(page, f"{sel} input")
            page.keyboard.type(f"{q.answer:.2f}")
        elif isinstance(q, ComputedQuestion):
            variant = concrete.variants[0]
            if variant.options:
                _tab_to(page, f"{sel} input.konum-choice")
                for _ in range(next(i for i, o in enumerate(variant.options) if o.correct)):
                    page.keyboard.press("ArrowDown")
                page.keyboard.press("Space")
            else:
                _tab_to(page, f"{sel} input")
                page.keyboard.type(variant.shown_answer)
        elif isinstance(q, OrderingQuestion):  # Move up, from the first place down
            current = list(range(len(q.items)))  # data-item (starting place) of each place
            for place in range(len(q.items)):
                item = concrete.item_order.index(place)
                steps = current.index(item) - place
                if steps:
                    _tab_to(page, f'{sel} li[data-item="{item}"] button.konum-move-up')
                    for _ in range(steps):
                        page.keyboard.press("Enter")
                    current.insert(place, current.pop(current.index(item)))
                    moved = re.compile(rf": now {place + 1} of {len(q.items)}\.$")
                    expect(question(page, q.id).locator(".konum-order-status")).to_have_text(moved)
        _press_button(page, q.id, "check")
        expected = {
            "matching": f"Correct: all {len(getattr(q, 'pairs', ()))} pairs match.",
            "ordering": f"Correct: all {len(getattr(q, 'items', ()))} items are in place.",
        }
        expect(feedback(page, q.id)).to_have_text(expected.get(q.type, "Correct."))
    total = f"{samples.total_points():g}"
    expect(score(page)).to_have_text(f"{total} / {total} points")


def test_focus_is_visible(quiz: Any) -> None:
    page = quiz.open()
    _tab_to(page, "button.konum-reset")
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline == "solid"


def _axe(page: Page) -> list[dict[str, Any]]:
    """axe-core violations inside the quiz, every rule (colour contrast of syntax-highlighted
    code included: quiz.css moves Material's token colours that fall under 4.5:1)."""
    from axe_playwright_python.sync_playwright import Axe

    result = Axe().run(page, context={"include": [[Q]]})
    return [
        {"id": v["id"], "nodes": [n["target"] for n in v["nodes"]]}
        for v in result.response["violations"]
    ]


@pytest.mark.parametrize("scheme", ["default", "slate"])
def test_axe_no_violations(quiz: Any, scheme: str) -> None:
    page = quiz.open()
    set_scheme(page, scheme)
    assert _axe(page) == []
    # Also with feedback, marks, hints, answers and explanations on screen.
    choice = samples.choice()
    qid = choice.question.id
    wrong = next(i for i, o in enumerate(choice_options(choice)) if o.feedback)
    question(page, qid).locator("input.konum-choice").nth(wrong).check()
    for concrete in samples.all_samples():
        cq = question(page, concrete.question.id)
        check(page, concrete.question.id)
        cq.get_by_role("button", name="Show answer").click()
        if concrete.question.hint:
            cq.get_by_role("button", name="Hint").click()
    expect(feedback(page, qid)).to_contain_text("Not quite")
    assert _axe(page) == []
    # And with the next variant of each computed question: a copy of its first form.
    for concrete in samples.all_samples():
        if concrete.question.type == "computed":
            cq = question(page, concrete.question.id)
            cq.get_by_role("button", name="New numbers").click()
            check(page, concrete.question.id)
            expect(cq.locator('.konum-variant[data-variant="1"]')).to_be_visible()
    assert _axe(page) == []


def test_print_hides_answers_and_buttons(quiz: Any) -> None:
    page = quiz.open()
    qid = samples.choice().question.id
    question(page, qid).get_by_role("button", name="Show answer").click()
    page.emulate_media(media="print")
    expect(question(page, qid).locator(".konum-answer")).to_be_hidden()
    expect(question(page, qid).locator("button")).to_have_count(3)
    for button in question(page, qid).locator("button").all():
        expect(button).to_be_hidden()
    expect(question(page, qid).locator(".konum-prompt")).to_be_visible()


def test_all_requests_stay_local(quiz: Any) -> None:
    page = quiz.open()
    page.reload()
    assert quiz.requests
    assert all(r.startswith(quiz.base) for r in quiz.requests)


# --- screenshots for a human reader ---------------------------------------------------------


SHOTS = os.environ.get("KONUM_SHOTS")


@pytest.mark.skipif(not SHOTS, reason="set KONUM_SHOTS=<folder> to save screenshots")
@pytest.mark.parametrize("scheme", ["default", "slate"])
@pytest.mark.parametrize("width", [390, 1100])
def test_screenshots(quiz: Any, scheme: str, width: int) -> None:
    page = quiz.open()
    page.set_viewport_size({"width": width, "height": 900})
    set_scheme(page, scheme)
    choice = samples.choice()
    wrong = next(i for i, o in enumerate(choice_options(choice)) if o.feedback)
    question(page, choice.question.id).locator("input.konum-choice").nth(wrong).check()
    check(page, choice.question.id)
    question(page, samples.fill().question.id).locator("input.konum-blank").nth(1).fill("2")
    check(page, samples.fill().question.id)
    matching = samples.matching()
    question(page, matching.question.id).locator("select").nth(0).select_option("2")
    check(page, matching.question.id)
    numeric = samples.numeric()
    assert isinstance(numeric.question, NumericQuestion)
    question(page, numeric.question.id).locator("input").fill(
        f"{math.floor(numeric.question.answer * 100) / 100}"
    )
    check(page, numeric.question.id)
    question(page, samples.computed_numeric().question.id).get_by_role(
        "button", name="Show answer"
    ).click()
    folder = Path(str(SHOTS))
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"quiz-{scheme}-{width}.png"), full_page=True)


def test_without_javascript_the_questions_read_and_no_dead_button_shows(
    browser: Any, server: str
) -> None:
    """Progressive enhancement: the markup is the readable part; every button, the score
    and the feedback line exist only once quiz.js has mounted the question."""
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(server + "index.html")
        for concrete in samples.all_samples():
            q = question(page, concrete.question.id)
            expect(q.locator(".konum-legend")).to_be_visible()
        expect(page.locator(f"{Q} button")).to_have_count(0)
        expect(page.locator(f"{Q} .konum-score")).to_have_count(0)
        expect(page.get_by_role("radio").first).to_be_visible()
    finally:
        context.close()
