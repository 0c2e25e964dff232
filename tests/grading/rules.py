"""The shared scoring-rule cases: a question's limits and a sequence of what a reader does,
with the state the rules give after each step, written out by hand from the authoring page's
"Scoring" section (``content/authoring.md``, whose rules carry the ids the cases name).

``test_rules.py`` runs them against ``konum.scoring`` (what ``konum quiz`` scores with) and,
through Node, against state.js's ``konumState.rules`` with its storage (what the page scores
with); ``python -m tests.grading.rules`` writes ``rules.json`` again.

A question case's steps, each ``[event, expected]``:

- ``["check", share, ok]``: a graded check (the grader's share of the points, fully right);
- ``["hint"]``, ``["show"]`` (Show answer), ``["hide"]`` (Show answer pressed again),
  ``["new"]`` (New numbers), ``["reset"]``;
- ``["reload"]``, or ``["reload", share, ok]`` when the stored answer grades so: the page
  shows a stored check again (a check that counts no attempt);
- ``["tab", record]``: another tab of the page writes ``record``; this one follows it;
- ``["load", record]`` (or with ``share, ok`` as a reload): storage holds ``record`` (edited
  by hand) and the page is reloaded.

What is expected after each: the ``credit`` (points), the ``best`` share (None before a
check), the checks ``left`` (None without a limit), ``locked``, ``revealed``, the variants
``seen`` (their answer shown), the ``variant``, ``hints`` taken, the next hint's cost
(``hint_cost``, points), whether Show answer says it costs the points (``show_costs``),
what the hints ``took`` (the score line's "hints took", points) and, after a check, what
the feedback ``told`` beside the grader's message (``konum.scoring.Told``; None: refused).
An exam case's steps are ``["submit", score, total]``, ``["retake", total]`` and ``["clock",
start, now, limit]`` (seconds), with the attempt's state or the seconds ``left``.

``GRADED`` names the rules the grading vectors (``vectors.json``) cover, by their cases'
last id part.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

RULES = Path(__file__).with_name("rules.json")

#: Rules of the authoring page that are the graders': the vectors' cases that show them.
GRADED = {
    "rule-partial": ["partly"],
    "rule-not-an-attempt": ["empty", "not-a-number", "decimal-comma"],
    "rule-numbers": ["decimal-comma", "minus-sign"],
    "rule-capitals": ["upper"],
}


def limits(
    points: float = 1, costs: tuple[float, ...] = (), attempts: int = 0, variants: int = 1
) -> dict[str, Any]:
    return {"points": points, "costs": list(costs), "attempts": attempts, "variants": variants}


def told(
    instead: str | None = None,
    earned: float | None = None,
    kept: float | None = None,
    left: int | None = None,
    reveal: bool = False,
) -> dict[str, Any]:
    """A check's feedback beyond the grader's message (``left`` 0: no attempt left)."""
    return {"instead": instead, "earned": earned, "kept": kept, "left": left, "reveal": reveal}


AFTER_REVEAL = told(instead="quiz.right_after_reveal")


Step = tuple[list[Any], dict[str, Any]]


def case(name: str, rules: list[str], lim: dict[str, Any], *steps: Step) -> dict[str, Any]:
    """A question case: each step's expectation is a fresh question's state (under
    ``lim``) with the fields the step names changed."""
    fresh = {
        "credit": 0, "best": None, "left": lim["attempts"] or None, "locked": False,
        "revealed": False, "seen": [], "variant": 0, "hints": 0,
        "hint_cost": lim["costs"][0] * lim["points"] if lim["costs"] else 0,
        "show_costs": True, "took": 0,
    }  # fmt: skip
    out = []
    for event, changed in steps:
        unknown = set(changed) - set(fresh) - {"told"}
        assert not unknown, f"{name}: {unknown}"
        if event[0] == "check":
            assert "told" in changed, f"{name}: a check says what it told"
        out.append({"event": event, "expected": {**fresh, **changed}})
    return {"id": name, "rules": rules, "limits": lim, "steps": out}


def _record(**fields: Any) -> dict[str, Any]:
    """A stored record as another tab or a hand edit writes it (state.js's schema)."""
    base: dict[str, Any] = {"v": 0, "c": False, "ok": False, "r": False, "b": None}
    return {**base, "p": 0, "h": 0, "n": 0, "s": [], **fields}


SOLVED = {"credit": 1, "best": 1, "show_costs": False}

QUESTIONS = [
    case(
        "show-answer-then-right-earns-nothing-and-says-so", ["rule-reveal"], limits(),
        (["show"], {"revealed": True, "seen": [0], "show_costs": False}),
        (["check", 1, True], {"revealed": True, "seen": [0], "show_costs": False, "best": 0,
                              "told": AFTER_REVEAL}),
        (["check", 0.5, False], {"revealed": True, "seen": [0], "show_costs": False, "best": 0,
                                 "told": told(instead="quiz.part_after_reveal")}),
    ),
    case(
        "right-then-wrong-keeps-the-point", ["rule-best", "rule-reveal"], limits(),
        (["check", 1, True], {**SOLVED, "told": told()}),
        (["check", 0, False], {**SOLVED, "told": told(kept=1)}),
        (["show"], {**SOLVED, "revealed": True, "seen": [0]}),
        (["check", 1, True], {**SOLVED, "revealed": True, "seen": [0],
                              "told": {**AFTER_REVEAL, "kept": 1}}),
        (["reload"], {**SOLVED, "revealed": True, "seen": [0]}),
    ),
    case(
        "a-wrong-check-reveals-nothing", ["rule-wrong-reveals-nothing", "rule-best"],
        limits(points=2),
        (["check", 0, False], {"best": 0, "told": told()}),
        (["check", 0.5, False], {"best": 0.5, "credit": 1, "told": told(earned=1)}),
        (["check", 0.25, False], {"best": 0.5, "credit": 1, "told": told(earned=0.5, kept=1)}),
    ),
    case(
        "partial-ordering-3-of-5-earns-its-share", ["rule-partial", "rule-best"],
        limits(points=2),
        (["check", 0.6, False], {"best": 0.6, "credit": 1.2, "told": told(earned=1.2)}),
        (["check", 1, True], {"best": 1, "credit": 2, "show_costs": False, "told": told()}),
    ),
    case(
        "new-numbers-never-lowers-the-credit", ["rule-new", "rule-best"], limits(variants=3),
        (["check", 1, True], {**SOLVED, "told": told()}),
        (["new"], {**SOLVED, "variant": 1}),
        (["check", 0, False], {**SOLVED, "variant": 1, "told": told(kept=1)}),
        (["new"], {**SOLVED, "variant": 2}),
        (["new"], {**SOLVED, "variant": 0}),
        (["reload"], {**SOLVED, "variant": 0}),
    ),
    case(
        "a-shown-answer-leaves-other-numbers-to-earn", ["rule-reveal", "rule-new"],
        limits(variants=2),
        (["show"], {"revealed": True, "seen": [0], "show_costs": False}),
        (["check", 1, True], {"revealed": True, "seen": [0], "show_costs": False, "best": 0,
                              "told": AFTER_REVEAL}),
        (["new"], {"variant": 1, "seen": [0], "best": 0}),
        (["check", 1, True], {**SOLVED, "variant": 1, "seen": [0], "told": told()}),
        (["new"], {**SOLVED, "seen": [0]}),
    ),
    case(
        "a-hint-then-right-earns-the-points-less-its-cost", ["rule-hints"],
        limits(points=2, costs=(0.5,)),
        (["hint"], {"hints": 1, "hint_cost": 0}),
        (["check", 1, True], {"hints": 1, "hint_cost": 0, "best": 1, "credit": 1, "took": 1,
                              "told": told(earned=1)}),
        (["reload"], {"hints": 1, "hint_cost": 0, "best": 1, "credit": 1, "took": 1}),
        (["new"], {"hints": 1, "hint_cost": 0, "best": 1, "credit": 1, "took": 1}),
    ),
    case(
        "only-hints-before-the-best-check-are-paid", ["rule-hints", "rule-best"],
        limits(costs=(0.25, 0.25)),
        (["check", 0.5, False], {"best": 0.5, "credit": 0.5, "told": told(earned=0.5)}),
        (["hint"], {"best": 0.5, "credit": 0.5, "hints": 1}),
        (["check", 1, True], {"best": 1, "credit": 0.75, "took": 0.25, "hints": 1,
                              "hint_cost": 0, "told": told(earned=0.75)}),
        (["hint"], {"best": 1, "credit": 0.75, "took": 0.25, "hints": 2, "hint_cost": 0}),
        (["check", 0, False], {"best": 1, "credit": 0.75, "took": 0.25, "hints": 2,
                               "hint_cost": 0, "told": told(kept=0.75)}),
    ),
    case(
        "a-hint-after-solving-is-free", ["rule-hints"], limits(costs=(0.25,)),
        (["check", 1, True], {**SOLVED, "hint_cost": 0, "told": told()}),
        (["hint"], {**SOLVED, "hint_cost": 0, "hints": 1}),
    ),
    case(
        "the-attempt-limit-then-reset-keeps-the-reveal",
        ["rule-attempts", "rule-reveal", "rule-wrong-reveals-nothing"], limits(attempts=3),
        (["check", 0, False], {"best": 0, "left": 2, "told": told(left=2)}),
        (["check", 0.5, False], {"best": 0.5, "credit": 0.5, "left": 1,
                                 "told": told(earned=0.5, left=1)}),
        (["check", 0, False], {"best": 0.5, "credit": 0.5, "left": 0, "locked": True,
                               "revealed": True, "seen": [0], "show_costs": False,
                               "told": told(kept=0.5, left=0, reveal=True)}),
        (["check", 1, True], {"best": 0.5, "credit": 0.5, "left": 0, "locked": True,
                              "revealed": True, "seen": [0], "show_costs": False,
                              "told": None}),
        (["reload"], {"best": 0.5, "credit": 0.5, "left": 0, "locked": True,
                      "revealed": True, "seen": [0], "show_costs": False}),
        (["reset"], {"seen": [0], "show_costs": False}),
        (["check", 1, True], {"best": 0, "left": 2, "seen": [0], "show_costs": False,
                              "told": AFTER_REVEAL}),
    ),
    case(
        "a-reload-shows-the-stored-check-again-and-earns-nothing-new",
        ["rule-best", "rule-reveal", "rule-attempts"], limits(attempts=2),
        (["check", 0.5, False], {"best": 0.5, "credit": 0.5, "left": 1,
                                 "told": told(earned=0.5, left=1)}),
        (["reload", 0.5, False], {"best": 0.5, "credit": 0.5, "left": 1,
                                  "told": told(earned=0.5, left=1)}),
        (["load", {"c": True, "s": [0]}, 1, True], {"best": 0, "seen": [0], "show_costs": False,
                                                   "told": AFTER_REVEAL}),
        (["load", {"c": True, "ok": True}, 1, True], {**SOLVED, "told": told()}),
    ),
    case(
        "right-within-the-limit-says-nothing-of-attempts", ["rule-attempts"], limits(attempts=2),
        (["check", 1, True], {**SOLVED, "left": 1, "told": told()}),
    ),
    case(
        "a-reveal-survives-reset-and-reload", ["rule-reveal"], limits(points=2),
        (["show"], {"revealed": True, "seen": [0], "show_costs": False}),
        (["hide"], {"seen": [0], "show_costs": False}),
        (["reset"], {"seen": [0], "show_costs": False}),
        (["reload"], {"seen": [0], "show_costs": False}),
        (["check", 1, True], {"best": 0, "seen": [0], "show_costs": False,
                              "told": AFTER_REVEAL}),
    ),
    case(
        "another-tabs-save-keeps-the-reveal", ["rule-reveal"], limits(),
        (["show"], {"revealed": True, "seen": [0], "show_costs": False}),
        (["tab", _record()], {"seen": [0], "show_costs": False}),
        (["check", 1, True], {"best": 0, "seen": [0], "show_costs": False,
                              "told": AFTER_REVEAL}),
        (["tab", _record(b=1, c=True, ok=True, n=1)], {**SOLVED, "seen": [0]}),
    ),
    case(
        "stored-records-are-bounded-by-the-question", ["rule-stored"],
        limits(points=2, costs=(0.5,), attempts=3, variants=2),
        (["load", {"b": 100}], {}),
        (["load", {"b": 1, "c": True, "ok": True, "n": 1}],
         {"best": 1, "credit": 2, "left": 2, "show_costs": False, "hint_cost": 0}),
        (["load", {"b": -0.5}], {}),
        (["load", {"b": "1"}], {}),
        (["load", {"b": 1, "g": 5}], {}),
        (["load", {"b": 1, "h": 2}], {}),
        (["load", {"b": 1, "p": 1, "h": 0}], {}),
        (["load", {"b": 1, "n": 4}], {}),
        (["load", {"v": 2}], {}),
        (["load", {"s": [1, 1]}], {}),
        (["load", {"b": 0.5, "p": 1, "h": 1, "x": 5}],
         {"best": 0.5, "hints": 1, "hint_cost": 0, "took": 1}),
        (["load", {"v": 1, "r": True}],
         {"variant": 1, "revealed": True, "seen": [1], "show_costs": False}),
    ),
]  # fmt: skip


def exam(name: str, *steps: Step) -> dict[str, Any]:
    fresh = {"attempt": 1, "done": False, "score": None, "past": []}
    out = []
    for event, changed in steps:
        out.append(
            {"event": event, "expected": changed if event[0] == "clock" else {**fresh, **changed}}
        )
    return {"id": name, "rules": ["rule-exam"], "steps": out}


EXAMS = [
    exam(
        "a-submitted-exam-is-attempt-1-and-a-retake-attempt-2",
        (["submit", 0, 9], {"done": True, "score": 0}),
        (["retake", 9], {"attempt": 2, "past": [[0, 9]]}),
        (["submit", 9, 9], {"attempt": 2, "done": True, "score": 9, "past": [[0, 9]]}),
        (["retake", 9], {"attempt": 3, "past": [[0, 9], [9, 9]]}),
        (["retake", 9], {"attempt": 4, "past": [[0, 9], [9, 9], [0, 9]]}),
    ),
    exam(
        "the-clock-cannot-be-moved",
        (["clock", 1000, 1060, 900], {"left": 840}),
        (["clock", 1000, 1000, 900], {"left": 900}),
        (["clock", 1000, 2000, 900], {"left": 0}),
        (["clock", 5000, 1000, 900], {"left": 0}),
    ),
]  # fmt: skip


def build() -> dict[str, Any]:
    return {"graded": GRADED, "questions": QUESTIONS, "exams": EXAMS}


def write() -> None:
    RULES.write_text(json.dumps(build(), indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    write()
