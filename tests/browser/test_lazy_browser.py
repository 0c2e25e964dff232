"""Lazy mounting (issue 47): a page's questions near the viewport mount first, one the reader
reaches (keyboard, pointer, the page's anchor) at once, the rest when the page is idle; until
then a question is the page's own HTML (find-in-page reads it) and the score line counts its
stored credit.

Idle callbacks are held in a queue (``window.__idle``) that a test releases, so what mounts
without them is what the reader's moves and the viewport made mount.
"""

from __future__ import annotations

from typing import Any

import quiz_samples as samples

HOLD_IDLE = """
window.__idle = [];
window.requestIdleCallback = function (fn) { window.__idle.push(fn); return window.__idle.length; };
window.__runIdle = function () {
  const queued = window.__idle.splice(0);
  queued.forEach(function (fn) { fn({ didTimeout: false, timeRemaining: () => 50 }); });
  return queued.length;
};
"""

MOUNTED = "el => el.hasAttribute('data-konum-mounted')"


def _open_small(quiz: Any, name: str = "index.html") -> Any:
    """The sample quiz in a short viewport, idle callbacks held."""
    quiz.page.set_viewport_size({"width": 400, "height": 300})
    quiz.page.add_init_script(HOLD_IDLE)
    page = quiz.open(name)
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    return page


def _ids() -> list[str]:
    return [c.question.id for c in samples.all_samples()]


def test_far_questions_wait_until_reached_or_idle(quiz: Any) -> None:
    page = _open_small(quiz)
    ids = _ids()
    first, last = (page.locator(f'[data-question-id="{q}"]') for q in (ids[0], ids[-1]))
    assert first.evaluate(MOUNTED)
    assert not last.evaluate(MOUNTED)
    # Not mounted, it is still the page's text: find-in-page finds and shows it.
    assert last.evaluate("el => el.checkVisibility() && el.innerText.trim().length > 20")
    # Keyboard: Tab into a far question mounts it before the reader reads it.
    target = page.locator(f'[data-question-id="{ids[-2]}"]')
    assert not target.evaluate(MOUNTED)
    page.locator(f'[data-question-id="{ids[-3]}"] input, [data-question-id="{ids[-3]}"] select, '
                 f'[data-question-id="{ids[-3]}"] textarea').last.focus()  # fmt: skip
    for _ in range(40):
        page.keyboard.press("Tab")
        if target.evaluate("el => el.contains(document.activeElement)"):
            break
    assert target.evaluate("el => el.contains(document.activeElement)")
    assert target.evaluate(MOUNTED)
    assert target.locator("button.konum-check").count() == 1
    # The rest mount when the page is idle.
    for _ in range(200):
        if not page.evaluate("window.__runIdle()"):
            break
    left = "document.querySelectorAll('[data-question-id]:not([data-konum-mounted])').length"
    assert page.evaluate(left) == 0


def test_anchor_question_mounts_at_once(quiz: Any) -> None:
    ids = _ids()
    quiz.page.add_init_script(
        """document.addEventListener("DOMContentLoaded", () => {
          const q = id => document.querySelector(`[data-question-id="${id}"]`);
          if (!q(TARGET)) return;  /* about:blank */
          window.__atDcl = [q(TARGET).hasAttribute("data-konum-mounted"),
                            q(OTHER).hasAttribute("data-konum-mounted")];
        });""".replace("TARGET", repr(ids[-1])).replace("OTHER", repr(ids[-3]))
    )
    page = _open_small(quiz)
    anchor = page.evaluate(f"document.querySelector('[data-question-id=\"{ids[-1]}\"]').id")
    page.goto("about:blank")  # a new load, not a move within the page
    page = quiz.open(f"index.html#{anchor}")
    target, other = page.evaluate("window.__atDcl")
    assert (target, other) == (True, False), anchor


def test_score_line_counts_questions_not_yet_mounted(quiz: Any) -> None:
    page = _open_small(quiz)
    ids = _ids()
    last = page.locator(f'[data-question-id="{ids[-1]}"]')
    # The last question's full credit, stored as a check would have stored it.
    page.evaluate(
        """id => {
          const el = document.querySelector(`[data-question-id="${id}"]`);
          const quiz = el.closest("[data-konum-quiz]").getAttribute("data-quiz-id");
          window.konumState.restoreQuestion(`konum:${location.pathname}:${quiz}:${id}`,
            { v: 0, a: [], c: false, ok: true, r: false, b: 1, p: 0, h: 0, n: 1, s: [] });
        }""",
        ids[-1],
    )
    page.reload()
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    assert not last.evaluate(MOUNTED)
    before = page.locator(".konum-score").first.inner_text()
    assert before.startswith(str(samples.all_samples()[-1].question.points)), before
    last.scroll_into_view_if_needed()
    page.wait_for_function(f"document.querySelector('[data-question-id=\"{ids[-1]}\"]')"
                           ".hasAttribute('data-konum-mounted')")  # fmt: skip
    assert page.locator(".konum-score").first.inner_text() == before
    # Reset while questions are still unmounted clears their stored credit too.
    page.reload()
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    page.locator("button.konum-reset").click()
    page.locator("button.konum-reset-yes").click()
    assert page.locator(".konum-score").first.inner_text().startswith("0 ")
