"""What teachers ask of quizzes, in Chromium: ordering by keyboard, partial credit, costed
hints, attempts, pools, exam mode with a timer, the konum:submit event, sealed answers, axe.

The pages are written here (the sample questions of ``tests/quiz_samples.py`` rendered with
the options each test needs) into a folder served on 127.0.0.1; every page gets the quiz's
files as separate scripts and styles, and ``quiz-exam.js`` before ``quiz.js`` (its style
after ``quiz.css``) as the extension inlines them. Ordering by keyboard alone is in
``test_quiz_browser.py``'s whole-quiz test; answers in the built site's page source are
checked at the end.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import replace
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
import quiz_samples as samples
from conftest import (
    ASSETS,
    PAGE,
    STATE,
    _material_css,
    copy_asset,
    quiz_source,
    serve_folder,
    set_scheme,
)
from playwright.sync_api import Page, expect

from konum import seal
from konum.model import Hint
from konum.quiz import messages_html
from konum.types import (
    TYPES,
    ChoiceQuestion,
    Concrete,
    FillQuestion,
    MatchingQuestion,
    NumericQuestion,
    OrderingQuestion,
)
from tests.helpers import render_quiz

pytestmark = pytest.mark.browser

SCRIPTS = (
    STATE + '<script src="assets/konum/quiz-exam.js"></script>\n'
    '<script src="assets/konum/quiz.js"></script>'
)
NO_ICON = (
    '<link rel="icon" href="data:,">'  # no favicon request (a 404 is a console error)
    '<link rel="stylesheet" href="assets/konum/quiz-exam.css">'
)
EXAM_LIMIT = 3  # seconds: the timer test waits for it to run out


def _ordering(points: float = 2, attempts: int | None = None) -> Concrete:
    concrete = samples.ordering()
    q = concrete.question
    assert isinstance(q, OrderingQuestion)
    return Concrete(
        OrderingQuestion(**{**q.__dict__, "points": points, "attempts": attempts}),
        concrete.seed,
        item_order=concrete.item_order,
    )


def _computed_with_hints() -> Concrete:
    """The sample computed question worth 2 points, with a hint costing a quarter, and three
    attempts."""
    concrete = samples.computed_numeric()
    q = replace(concrete.question, points=2.0, hints=(Hint("Radians.", 0.25),), attempts=3)
    return replace(concrete, question=q)


def _pages() -> dict[str, str]:
    practice = [samples.choice_multiple(), samples.matching(), _ordering(), samples.numeric()]
    exam = [samples.choice(), samples.numeric(), _ordering(points=1)]
    return {
        "practice.html": render_quiz(practice, "practice", title="Practice"),
        "attempts.html": render_quiz([samples.numeric()], "tries", title="Tries", attempts=2),
        "numbers.html": render_quiz([_computed_with_hints()], "numbers", title="Numbers"),
        "locked.html": render_quiz([_ordering(attempts=1)], "locked", title="Locked"),
        "pool.html": render_quiz(samples.all_samples(), "pool", title="Pool", draw=3),
        "exam.html": render_quiz(exam, "exam", title="Exam", mode="exam"),
        "timed.html": render_quiz(exam, "timed", title="Timed", mode="exam", time_limit=EXAM_LIMIT),
        "long.html": render_quiz(exam, "long", title="Long", mode="exam", time_limit=600),
    }


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root = tmp_path_factory.mktemp("teach")
    (root / "material").mkdir()
    (root / "assets" / "konum").mkdir(parents=True)
    for name in ("state.js", "quiz.js", "quiz-exam.js", "quiz.css", "quiz-exam.css"):
        copy_asset(name, root / "assets" / "konum")
    material = _material_css(root / "material")
    texts = messages_html("en", ["quiz", "exam"])
    for name, quiz in _pages().items():
        page = PAGE.format(material=material, head=NO_ICON, quiz=quiz + texts, scripts=SCRIPTS)
        (root / name).write_text(page, encoding="utf-8")
    with serve_folder(root) as url:
        yield url


@pytest.fixture
def page(browser: Any, base: str) -> Iterator[Page]:
    """A fresh context (own localStorage); a page error or console error fails the test."""
    context = browser.new_context(viewport={"width": 1000, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.base = base  # type: ignore[attr-defined]
    try:
        yield page
    finally:
        context.close()
    assert errors == []


def _open(page: Page, name: str) -> Page:
    page.goto(page.base + name)  # type: ignore[attr-defined]
    expect(page.locator("[data-konum-quiz]")).to_have_count(1)
    return page


def question(page: Page, qid: str) -> Any:
    return page.locator(f'[data-question-id="{qid}"]')


def score(page: Page) -> Any:
    return page.locator(".konum-score")


def _solve_ordering(page: Page, concrete: Concrete) -> None:
    """Click Move up until the items are in their right order."""
    q = question(page, concrete.question.id)
    current = [
        int(k) for k in q.locator("li[data-item]").evaluate_all("ls => ls.map(l => l.dataset.item)")
    ]
    for place in range(len(current)):
        item = concrete.item_order.index(place)
        for _ in range(current.index(item) - place):
            q.locator(f'li[data-item="{item}"] button.konum-move-up').click()
        current.insert(place, current.pop(current.index(item)))


def _swap_first_two(page: Page, qid: str) -> None:
    question(page, qid).locator("li[data-item] button.konum-move-down").first.click()


# --- scoring ------------------------------------------------------------------------------


def test_partial_credit_sums_into_the_score(page: Page) -> None:
    """Checkboxes: right minus wrong ticks over the right options; matching: the share of
    right pairs; ordering: the share of items in place, of its 2 points."""
    _open(page, "practice.html")
    total = 1 + 1 + 2 + 1
    expect(score(page)).to_have_text(f"0 / {total} points")
    multiple = samples.choice_multiple()
    question(page, multiple.question.id).locator("input").nth(0).check()
    question(page, multiple.question.id).get_by_role("button", name="Check").click()
    expect(score(page)).to_have_text(f"0.5 / {total} points")
    matching = samples.matching()
    q = matching.question
    assert isinstance(q, MatchingQuestion)
    first = concrete_letter(matching, 0)
    question(page, q.id).locator("select").nth(0).select_option(str(first))
    question(page, q.id).get_by_role("button", name="Check").click()
    share = 1 / len(q.pairs)
    expect(score(page)).to_have_text(f"{_num(0.5 + share)} / {total} points")
    ordering = _ordering()
    _solve_ordering(page, ordering)
    # Two neighbours swapped: every item but those two in place.
    _swap_first_two(page, ordering.question.id)
    oq = question(page, ordering.question.id)
    oq.get_by_role("button", name="Check").click()
    n = len(ordering.item_order)
    expect(oq.locator(".konum-feedback")).to_have_text(
        f"Not quite: {n - 2} of {n} items are in the right place. "
        f"({_num(2 * (n - 2) / n)} of 2 points)"
    )
    expect(oq.locator("li.is-wrong")).to_have_count(2)
    expect(oq.locator("li.is-right")).to_have_count(n - 2)
    got = 0.5 + share + 2 * (n - 2) / n
    expect(score(page)).to_have_text(f"{_num(got)} / {total} points")
    # A better check raises a question to its best; a worse one does not lower it.
    _solve_ordering(page, ordering)
    oq.get_by_role("button", name="Check").click()
    expect(score(page)).to_have_text(f"{_num(got - 2 * (n - 2) / n + 2)} / {total} points")
    _swap_first_two(page, ordering.question.id)
    oq.get_by_role("button", name="Check").click()
    expect(score(page)).to_have_text(f"{_num(got - 2 * (n - 2) / n + 2)} / {total} points")


def concrete_letter(concrete: Concrete, row: int) -> int:
    q = concrete.question
    assert isinstance(q, MatchingQuestion)
    return concrete.right_items.index(q.pairs[row].right)


def _num(x: float) -> str:
    return f"{round(x, 2):g}"


def test_hints_cost_their_share_and_the_score_says_so(page: Page) -> None:
    """The first hint is free, the second costs half of the question's 2 points; they show
    one at a time, and the score line says what the hints took."""
    _open(page, "practice.html")
    ordering = _ordering()
    q = question(page, ordering.question.id)
    hint = q.locator("button.konum-hint-button")
    expect(hint).to_have_text("Hint 1 of 2")
    hint.click()
    expect(q.locator(".konum-hint")).to_have_count(1)
    expect(q.locator(".konum-hint")).to_contain_text("The last step gives the entry itself.")
    expect(hint).to_have_text("Hint 2 of 2 (costs 1 point)")
    hint.click()
    expect(q.locator(".konum-hint")).to_have_count(2)
    expect(hint).to_have_attribute("aria-expanded", "true")
    _solve_ordering(page, ordering)
    q.get_by_role("button", name="Check").click()
    expect(score(page)).to_have_text("1 / 5 points (hints took 1)")
    page.reload()
    expect(score(page)).to_have_text("1 / 5 points (hints took 1)")
    expect(question(page, ordering.question.id).locator(".konum-hint")).to_have_count(2)


def test_attempts_run_out_and_the_answer_is_shown(page: Page) -> None:
    _open(page, "attempts.html")
    num = samples.numeric()
    q = question(page, num.question.id)
    box = q.locator("input")
    box.fill("1e9")
    q.get_by_role("button", name="Check").click()
    expect(q.locator(".konum-feedback")).to_have_text("Not quite: 1e9 is too high. 1 attempt left.")
    box.fill("-1e9")
    q.get_by_role("button", name="Check").click()
    expect(q.locator(".konum-feedback")).to_contain_text("No attempts left: the answer is shown.")
    expect(q.locator(".konum-answer")).to_be_visible()
    expect(q.get_by_role("button", name="Check")).to_be_disabled()
    page.reload()
    expect(question(page, num.question.id).get_by_role("button", name="Check")).to_be_disabled()
    expect(score(page)).to_have_text("0 / 1 points")


def test_used_up_attempts_freeze_the_answer_even_an_orderings(page: Page) -> None:
    """The last attempt used: the checked answer stays on screen as it was (the number box
    and the move buttons are disabled, a click on one moves nothing and the feedback
    stays), also after a reload."""
    _open(page, "locked.html")
    qid = _ordering(attempts=1).question.id
    q = question(page, qid)
    _swap_first_two(page, qid)
    q.get_by_role("button", name="Check").click()
    said = q.locator(".konum-feedback")
    expect(said).to_contain_text("No attempts left")
    order = q.locator("li[data-item]").evaluate_all("ls => ls.map(l => l.dataset.item)")
    for _ in range(2):
        moves = q.locator("button.konum-move")
        assert moves.evaluate_all("bs => bs.every(b => b.disabled)")
        moves.nth(1).click(force=True)
        assert q.locator("li[data-item]").evaluate_all("ls => ls.map(l => l.dataset.item)") == order
        expect(said).to_contain_text("No attempts left")
        page.reload()
        q = question(page, qid)
        said = q.locator(".konum-feedback")
    _open(page, "attempts.html")
    num = question(page, samples.numeric().question.id)
    for typed in ("1e9", "-1e9"):
        num.locator("input").fill(typed)
        num.get_by_role("button", name="Check").click()
    expect(num.locator("input")).to_be_disabled()
    expect(num.locator(".konum-feedback")).to_contain_text("No attempts left")


def test_show_answer_before_a_right_check_earns_nothing(page: Page) -> None:
    _open(page, "attempts.html")
    num = samples.numeric()
    q = question(page, num.question.id)
    assert isinstance(num.question, NumericQuestion)
    q.get_by_role("button", name="Show answer").click()
    q.locator("input").fill(f"{num.question.answer:.2f}")
    q.get_by_role("button", name="Check").click()
    expect(q.locator(".konum-feedback")).to_have_text(
        "Right, but the answer was shown first: no points for this one."
    )
    expect(score(page)).to_have_text("0 / 1 points")


def test_a_wrong_try_reveals_nothing(page: Page) -> None:
    """A wrong check tells what is wrong, not the answer: the answer, the explanation and
    the worked solution stay hidden until a right answer, the last attempt or Show answer."""
    _open(page, "numbers.html")
    concrete = _computed_with_hints()
    q = question(page, concrete.question.id)
    box = q.locator(".konum-variant:visible input")
    box.fill("12345")
    q.get_by_role("button", name="Check").click()
    expect(q.locator(".konum-feedback")).to_contain_text("too high")
    for hidden in (".konum-answer", ".konum-explanation", ".konum-solution"):
        expect(q.locator(f"{hidden}:visible")).to_have_count(0)
    assert concrete.variants[0].shown_answer not in q.inner_text()
    box.fill(concrete.variants[0].shown_answer)
    q.get_by_role("button", name="Check").click()
    expect(q.locator(".konum-feedback")).to_have_text("Correct.")
    expect(q.locator(".konum-explanation")).to_be_visible()
    expect(q.locator(".konum-solution:visible")).to_have_count(1)


def test_new_numbers_keeps_hints_attempts_and_credit(page: Page) -> None:
    """Hint, New numbers, right: 1.5 of 2 (the hint still costs); credit earned stays
    through New numbers and a reload; a hint after solving is free; attempts count on."""
    _open(page, "numbers.html")
    concrete = _computed_with_hints()
    q = question(page, concrete.question.id)
    q.locator("button.konum-hint-button").click()
    q.get_by_role("button", name="New numbers").click()
    box = q.locator(".konum-variant:visible input")
    box.fill("12345")
    q.get_by_role("button", name="Check").click()
    expect(q.locator(".konum-feedback")).to_contain_text("2 attempts left")
    box.fill(concrete.variants[1].shown_answer)
    q.get_by_role("button", name="Check").click()
    expect(score(page)).to_have_text("1.5 / 2 points (hints took 0.5)")
    q.get_by_role("button", name="New numbers").click()
    expect(score(page)).to_have_text("1.5 / 2 points (hints took 0.5)")
    box = q.locator(".konum-variant:visible input")
    box.fill("12345")
    q.get_by_role("button", name="Check").click()
    expect(q.locator(".konum-feedback")).to_contain_text("No attempts left")
    expect(score(page)).to_have_text("1.5 / 2 points (hints took 0.5)")
    page.reload()
    expect(score(page)).to_have_text("1.5 / 2 points (hints took 0.5)")
    q = question(page, concrete.question.id)
    q.get_by_role("button", name="New numbers").click()
    expect(q.get_by_role("button", name="Check")).to_be_disabled()  # the attempts stay used


def test_a_hint_after_solving_is_free(page: Page) -> None:
    _open(page, "numbers.html")
    concrete = _computed_with_hints()
    q = question(page, concrete.question.id)
    q.locator(".konum-variant:visible input").fill(concrete.variants[0].shown_answer)
    q.get_by_role("button", name="Check").click()
    expect(score(page)).to_have_text("2 / 2 points")
    hint = q.locator("button.konum-hint-button")
    expect(hint).to_have_text("Hint")
    hint.click()
    expect(q.locator(".konum-hint")).to_contain_text("Radians.")
    expect(score(page)).to_have_text("2 / 2 points")


def test_a_revealed_variant_earns_nothing_other_numbers_do(page: Page) -> None:
    """Show answer, then the shown number: no credit and a word why; New numbers gives a
    question whose answer was not shown, and that earns its points."""
    _open(page, "numbers.html")
    concrete = _computed_with_hints()
    q = question(page, concrete.question.id)
    q.get_by_role("button", name="Show answer").click()
    q.locator(".konum-variant:visible input").fill(concrete.variants[0].shown_answer)
    q.get_by_role("button", name="Check").click()
    expect(q.locator(".konum-feedback")).to_contain_text("no points")
    expect(score(page)).to_have_text("0 / 2 points")
    q.get_by_role("button", name="New numbers").click()
    q.locator(".konum-variant:visible input").fill(concrete.variants[1].shown_answer)
    q.get_by_role("button", name="Check").click()
    expect(q.locator(".konum-feedback")).to_have_text("Correct.")
    expect(score(page)).to_have_text("2 / 2 points")


# --- pools --------------------------------------------------------------------------------


def _drawn(page: Page) -> list[str]:
    return page.locator("[data-question-id]:visible").evaluate_all(
        "qs => qs.map(q => q.dataset.questionId)"
    )


def test_a_pools_draw_is_stable_and_new_questions_draws_again(page: Page) -> None:
    _open(page, "pool.html")
    first = _drawn(page)
    assert len(first) == 3
    expect(page.locator(".konum-drawn")).to_have_text("3 of 8 questions, drawn for you.")
    numbers = page.locator("[data-question-id]:visible .konum-legend > .konum-number")
    expect(numbers).to_have_text(["Question 1 of 3", "Question 2 of 3", "Question 3 of 3"])
    total = sum(c.question.points for c in samples.all_samples() if c.question.id in first)
    expect(score(page)).to_have_text(f"0 / {total:g} points")
    page.reload()
    assert _drawn(page) == first
    draws = {tuple(first)}
    page.get_by_role("button", name="New questions").click()  # asks first
    expect(page.locator(".konum-confirm")).to_contain_text("Draw other questions?")
    page.get_by_role("button", name="Keep them").click()
    assert _drawn(page) == first
    for _ in range(6):  # 56 possible draws: six in a row equal to the first is 1 in 3e10
        page.get_by_role("button", name="New questions").click()
        page.get_by_role("button", name="Draw again").click()
        draws.add(tuple(_drawn(page)))
        assert len(_drawn(page)) == 3
        # The status says what happened; how many were drawn is said once, under the head.
        expect(page.locator(".konum-reset-status")).to_have_text("Other questions drawn.")
        expect(page.get_by_text("3 of 8 questions, drawn for you.")).to_have_count(1)
    assert len(draws) > 1
    latest = _drawn(page)
    page.reload()
    assert _drawn(page) == latest


# --- exam mode ----------------------------------------------------------------------------


def _events(page: Page) -> None:
    page.evaluate(
        "() => { window.submits = []; document.addEventListener('konum:submit',"
        " e => window.submits.push(e.detail)); }"
    )


def test_exam_shows_nothing_until_submitted_then_everything(page: Page) -> None:
    _open(page, "exam.html")
    _events(page)
    choice = samples.choice()
    q = question(page, choice.question.id)
    expect(q.get_by_role("button", name="Check")).to_be_hidden()
    expect(q.get_by_role("button", name="Show answer")).to_be_hidden()
    right = next(
        i for i, i_ in enumerate(choice.option_order) if choice.question.options[i_].correct
    )  # type: ignore[union-attr]
    q.locator("input").nth(right).check()
    num = samples.numeric()
    question(page, num.question.id).locator("input").fill("1e9")
    expect(q.locator(".konum-feedback")).to_have_text("")
    submit = page.get_by_role("button", name="Submit answers")
    submit.click()  # the ordering question is untouched: it asks once
    expect(page.locator(".konum-exam-status")).to_have_text(
        "1 question has no answer yet: Submit again to hand in anyway."
    )
    assert page.evaluate("window.submits") == []
    submit.click()
    expect(page.locator(".konum-exam-result")).to_have_text("Submitted: 1 of 3 points.")
    expect(page.locator(".konum-exam-status")).to_have_text("")  # no stale warning
    untouched = question(page, _ordering(points=1).question.id)
    expect(untouched.locator(".konum-feedback")).to_have_text("No answer given.")
    expect(page.locator("[data-konum-quiz] .konum-quiz-title")).to_have_text("Exam")
    expect(q.locator(".konum-feedback")).to_have_text("Correct.")
    expect(question(page, num.question.id).locator(".konum-feedback")).to_contain_text("too high")
    for qid in (choice.question.id, num.question.id):
        expect(question(page, qid).locator(".konum-answer")).to_be_visible()
        expect(question(page, qid).locator(".konum-explanation")).to_be_visible()
    expect(q.locator("input").first).to_be_disabled()
    expect(submit).to_be_hidden()
    (detail,) = page.evaluate("window.submits")
    assert (detail["mode"], detail["quiz"], detail["score"], detail["total"]) == (
        "exam",
        "exam",
        1,
        3,
    )
    by_id = {e["id"]: e for e in detail["questions"]}
    assert by_id[choice.question.id]["correct"] is True
    assert by_id[num.question.id]["answer"] == ["1e9"] and by_id[num.question.id]["points"] == 0
    page.reload()
    expect(page.locator(".konum-exam-result")).to_have_text("Submitted: 1 of 3 points.")
    expect(question(page, choice.question.id).locator("input").first).to_be_disabled()
    # Reset starts the exam over.
    page.get_by_role("button", name="Reset").click()
    page.get_by_role("button", name="Clear answers").click()
    expect(page.get_by_role("button", name="Submit answers")).to_be_visible()
    expect(question(page, choice.question.id).locator("input").first).to_be_enabled()


def test_a_submitted_exam_asks_nothing_of_the_locked_questions(page: Page) -> None:
    """After submitting, no question asks for an answer ("choose an answer first", "type a
    number"): an unreadable entry ("abc") is graded as no answer, before and after a reload."""
    _open(page, "exam.html")
    num = question(page, samples.numeric().question.id)
    num.locator("input").fill("abc")
    submit = page.get_by_role("button", name="Submit answers")
    submit.click()
    submit.click()
    for _ in range(2):
        said = page.locator("[data-konum-quiz] .konum-feedback")
        expect(said).to_have_count(3)
        assert said.all_text_contents() == ["No answer given."] * 3
        expect(num.locator("input")).to_be_disabled()
        page.reload()


def test_a_timed_exam_submits_when_the_time_runs_out_and_survives_a_reload(page: Page) -> None:
    _open(page, "timed.html")
    first = samples.choice().question.id
    expect(question(page, first)).to_be_hidden()
    expect(page.locator(".konum-exam-note").nth(1)).to_contain_text("You have 3 seconds")
    page.get_by_role("button", name="Start the exam").click()
    expect(question(page, first)).to_be_visible()
    expect(page.locator(".konum-timer")).to_have_text(re.compile(r"^Time left: 0:0[1-3]$"))
    expect(page.get_by_role("timer")).to_have_count(1)
    question(page, first).locator("input").first.check()
    page.reload()  # the clock keeps running, and the answer stays
    expect(question(page, first).locator("input").first).to_be_checked()
    expect(page.locator(".konum-exam-result")).to_have_text(
        re.compile(r"^Time is up: your answers were submitted\. Submitted: \d of 3 points\.$"),
        timeout=(EXAM_LIMIT + 3) * 1000,
    )
    expect(page.locator(".konum-timer")).to_be_hidden()
    page.reload()
    expect(page.locator(".konum-exam-result")).to_contain_text("Time is up")
    expect(question(page, first).locator("input").first).to_be_disabled()


def test_a_long_exams_clock_counts_down_across_reloads(page: Page) -> None:
    _open(page, "long.html")
    page.get_by_role("button", name="Start the exam").click()
    expect(page.locator(".konum-timer")).to_have_text(re.compile(r"^Time left: (10:00|9:5\d)$"))
    page.evaluate(
        "() => { const k = Object.keys(localStorage).find(k => k.startsWith('konum:exam:'));"
        " const s = JSON.parse(localStorage.getItem(k)); s.start -= 290000;"
        " localStorage.setItem(k, JSON.stringify(s)); }"
    )
    page.reload()
    expect(page.locator(".konum-timer")).to_have_text(re.compile(r"^Time left: 5:[01]\d$"))
    expect(page.get_by_role("button", name="Start the exam")).to_be_hidden()


def test_reset_in_a_running_exam_asks_and_keeps_the_clock(page: Page) -> None:
    """Reset asks first; it clears the answers of a running exam but not its start time,
    so the clock goes on where it was (and after a reload too)."""
    _open(page, "long.html")
    page.get_by_role("button", name="Start the exam").click()
    page.evaluate(
        "() => { const k = Object.keys(localStorage).find(k => k.startsWith('konum:exam:'));"
        " const s = JSON.parse(localStorage.getItem(k)); s.start -= 290000;"
        " localStorage.setItem(k, JSON.stringify(s)); }"
    )
    page.reload()
    first = question(page, samples.choice().question.id).locator("input").first
    first.check()
    page.get_by_role("button", name="Reset").click()
    expect(page.locator(".konum-confirm")).to_contain_text("Clear every answer")
    page.get_by_role("button", name="Clear answers").click()
    expect(first).not_to_be_checked()
    expect(page.get_by_role("button", name="Start the exam")).to_be_hidden()
    expect(page.locator(".konum-timer")).to_have_text(re.compile(r"^Time left: 5:[01]\d$"))
    page.reload()
    expect(page.locator(".konum-timer")).to_have_text(re.compile(r"^Time left: 5:[01]\d$"))


def test_practice_checks_send_konum_submit(page: Page) -> None:
    _open(page, "practice.html")
    _events(page)
    multiple = samples.choice_multiple()
    q = question(page, multiple.question.id)
    q.get_by_role("button", name="Check").click()  # nothing chosen: no attempt, no event
    q.locator("input").nth(0).check()
    q.get_by_role("button", name="Check").click()
    (detail,) = page.evaluate("window.submits")
    assert detail["mode"] == "practice" and detail["page"].endswith("practice.html")
    (entry,) = detail["questions"]
    assert entry == {
        "id": multiple.question.id, "type": "choice", "answer": [True, False, False],
        "interaction": {"type": "choice", "response": ["a"]},
        "correct": False, "points": 0.5, "max": 1, "hints": 0, "attempts": 1,
    }  # fmt: skip
    assert (detail["score"], detail["total"]) == (0.5, 5)


# --- the page's checker agrees with the build's ---------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["sin", "Sinüs", "İstanbul", "e\u0301", "𝑥 ≥ 2π", "emoji 🧭", "", "  spaced  ", "a\x1fb"],
)
def test_hashes_and_sealing_agree_with_python(page: Page, text: str) -> None:
    """quiz.js's hashOf and unseal, which the page does not expose, reached by loading its
    source with one line added that hands them to the test."""
    page.set_content("<html lang='en'><body></body></html>")
    source = quiz_source()
    hook = "window.__konumInternals = { hashOf: hashOf, unseal: unseal, normal: normal };\n"
    anchor = "  window.konumQuiz = {"
    assert source.count(anchor) == 1
    page.add_script_tag(content=(ASSETS / "state.js").read_text(encoding="utf-8"))
    page.add_script_tag(content=source.replace(anchor, hook + anchor))
    assert page.evaluate("Object.keys(window.konumQuiz).sort()") == [
        "define", "mountAll", "normal", "parseNumber",
    ]  # fmt: skip
    salt = "5eed"
    js = page.evaluate(
        "([s, x, sealed]) => { const k = window.__konumInternals;"
        " return [k.hashOf(s, ['b', 0, k.normal(x, false)]),"
        " k.normal(x, true), k.unseal(s, sealed)]; }",
        [salt, text, seal.seal(salt, text)],
    )
    assert js == [
        seal.answer_hash(salt, "b", 0, seal.normal_text(text)),
        seal.normal_text(text, case_sensitive=True),
        text,
    ]


# --- axe ----------------------------------------------------------------------------------


def _axe(page: Page) -> list[dict[str, Any]]:
    """axe-core in the quiz, every rule."""
    from axe_playwright_python.sync_playwright import Axe

    result = Axe().run(page, context={"include": [["[data-konum-quiz]"]]})
    return [
        {"id": v["id"], "nodes": [n["target"] for n in v["nodes"]]}
        for v in result.response["violations"]
    ]


@pytest.mark.slow
@pytest.mark.parametrize("scheme", ["default", "slate"])
def test_axe_finds_nothing_in_ordering_pools_and_exams(page: Page, scheme: str) -> None:
    def scheme_on() -> None:
        # Material eases colours into a new scheme: axe must read the settled ones.
        page.add_style_tag(content="*, *::before, *::after { transition: none !important; }")
        set_scheme(page, scheme)

    _open(page, "practice.html")
    scheme_on()
    assert _axe(page) == []
    ordering = _ordering()
    oq = question(page, ordering.question.id)
    _swap_first_two(page, ordering.question.id)
    oq.locator("button.konum-hint-button").click()
    oq.get_by_role("button", name="Check").click()
    oq.get_by_role("button", name="Show answer").click()
    assert _axe(page) == []
    _open(page, "pool.html")
    scheme_on()
    assert _axe(page) == []
    _open(page, "timed.html")
    scheme_on()
    assert _axe(page) == []
    page.get_by_role("button", name="Start the exam").click()
    assert _axe(page) == []
    expect(page.locator(".konum-exam-result")).to_contain_text(
        "Time is up", timeout=(EXAM_LIMIT + 3) * 1000
    )
    assert _axe(page) == []


# --- the built site holds no answer in clear -----------------------------------------------


class _Scripts(HTMLParser):
    """The JSON of each question's data and later scripts, by question id."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: dict[str, dict[str, Any]] = {}
        self.question: str | None = None
        self.script: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if "data-question-id" in found:
            self.question = found["data-question-id"]
        if tag == "script" and found.get("class") in ("konum-data", "konum-later"):
            self.script = found["class"]

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self.script = None

    def handle_data(self, data: str) -> None:
        if self.script and self.question:
            self.found.setdefault(self.question, {})[self.script] = json.loads(data)


#: Ciphertext (sealed) and what the reader sees anyway: hints, other variants' prompts.
_NOT_SEARCHED = re.compile(
    r"^(?:sealed|interval|regex|salt|hint-\d+|prompt-\d+|option-.*|variant-\d+)$"
)


def _texts(value: Any, key: str = "") -> Iterator[str]:
    from konum.spoken import html_text

    if _NOT_SEARCHED.match(key):
        return
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _texts(v, str(k))
    elif isinstance(value, list):
        for v in value:
            yield from _texts(v, key)
    elif isinstance(value, str):
        yield html_text(value) if "<" in value else value


def _answers(concrete: Concrete) -> list[str]:
    """The texts that would give ``concrete``'s answer away."""
    from konum.formatting import format_number
    from konum.spoken import plain_text

    q = concrete.question
    if isinstance(q, ChoiceQuestion):
        return [plain_text(o.text) for o in q.options if o.correct]
    if isinstance(q, FillQuestion):
        return [a for b in q.blanks for a in b.answers] + [b.regex for b in q.blanks if b.regex]
    if isinstance(q, NumericQuestion):
        return [format_number(q.answer, q.decimals), repr(q.answer)]
    if isinstance(q, MatchingQuestion):
        return [f"{plain_text(p.left)} → {plain_text(p.right)}" for p in q.pairs]
    if isinstance(q, OrderingQuestion):
        return [" ".join(plain_text(i) for i in q.items)]
    answers = [v.shown_answer for v in concrete.variants] + [
        repr(v.answer) for v in concrete.variants
    ]
    return answers + [plain_text(o.text) for v in concrete.variants for o in v.options if o.correct]


def test_the_built_pages_hold_no_answer_in_clear(built_site: Path) -> None:
    """Every question of every page: its right answer's text (option, blank, number, pairs,
    order, every variant's) is nowhere in its data or in what it shows later, except where
    sealed; what a reader sees anyway (prompt, options, hints) is not searched."""
    from konum.build import read_site_config
    from konum.config import override
    from konum.course import course_for

    root = Path(__file__).resolve().parents[2]
    course = course_for(override(read_site_config(root / "mkdocs.yml").options, seed=42))
    concretes = {c.question.id: c for c in course.concretes()}
    seen: set[str] = set()
    for path in sorted(built_site.rglob("*.html")):
        parser = _Scripts()
        parser.feed(path.read_text(encoding="utf-8"))
        for qid, scripts in parser.found.items():
            texts = list(_texts(scripts))
            for answer in _answers(concretes[qid]):
                token = re.compile(rf"(?<![\w.]){re.escape(answer.strip())}(?![\w.])")
                hits = [t for t in texts if answer.strip() and token.search(t)]
                assert hits == [], f"{path.name}: {qid}: {answer!r} in clear"
            seen.add(qid)
    assert len(seen) > 50 and {concretes[i].question.type for i in seen} == set(TYPES)
