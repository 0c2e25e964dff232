"""The scoring rules written once: the shared cases (``rules.json``, written by ``rules.py``
from the authoring page's rules) run against ``konum.scoring``, which ``konum quiz`` scores
with, and through Node against state.js's ``konumState.rules`` and its storage and
quiz-exam.js's ``konumExam.rules``, which the page scores with. Both must give the state
after every step of every case, and the cases must name every rule the authoring page gives
an id."""

from __future__ import annotations

import dataclasses
import json
import re
import shutil
import subprocess
from typing import Any

import pytest

from konum import scoring
from tests.grading.rules import RULES, build
from tests.grading.vectors import REPO, VECTORS

STATE_JS = REPO / "templates" / "assets" / "state.js"
EXAM_JS = STATE_JS.with_name("quiz-exam.js")
RUNNER = RULES.with_name("rules.js")
AUTHORING = REPO / "content" / "authoring.md"


def _cases() -> dict[str, Any]:
    return json.loads(RULES.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def _limits(case: dict[str, Any]) -> scoring.Limits:
    lim = case["limits"]
    return scoring.Limits(lim["points"], tuple(lim["costs"]), lim["attempts"], lim["variants"])


def _question(case: dict[str, Any]) -> list[dict[str, Any]]:
    """The case's steps as konum.scoring takes them, storage kept as state.js keeps it."""
    limits, p, stored = _limits(case), scoring.Progress(), None
    out = []

    def save() -> None:
        nonlocal stored
        p.seen |= set((stored or {}).get("s", []))
        stored = scoring.saved(stored, scoring.record(p, limits))

    def restored(keep: set[int]) -> scoring.Progress:
        q = scoring.load(stored, limits) or scoring.Progress()
        q.seen |= keep
        return q

    for step in case["steps"]:
        kind, *args = step["event"]
        got: dict[str, Any] = {}
        if kind == "check":
            p.seen |= set((stored or {}).get("s", []))
            told = scoring.check(p, limits, args[0], args[1])
            got["told"] = None if told is None else dataclasses.asdict(told)
            save()
        elif kind in ("hint", "show", "hide", "new"):
            if kind == "hint":
                scoring.take_hint(p, limits)
            elif kind == "show":
                scoring.show(p)
            elif kind == "hide":
                p.revealed = False
            else:
                scoring.new_variant(p, limits)
            save()
        elif kind == "reset":
            scoring.reset(p)
            seen = sorted((stored or {}).get("s", []))
            stored = {"s": seen} if seen else None
            p.seen |= set(seen)
        elif kind in ("reload", "load"):
            if kind == "load":
                stored = args.pop(0)
            p = restored(set())
            if args and p.checked:  # the stored answer, graded again, is shown as checked
                told = scoring.check(p, limits, args[0], args[1], restoring=True)
                got["told"] = None if told is None else dataclasses.asdict(told)
        elif kind == "tab":
            stored = scoring.saved(stored, args[0])
            p = restored(p.seen)
        else:
            raise AssertionError(f"no event {kind}")
        got.update(
            credit=scoring.credit(p, limits), best=p.best, left=scoring.tries_left(p, limits),
            locked=scoring.locked(p, limits), revealed=p.revealed, seen=sorted(p.seen),
            variant=p.variant, hints=p.hints, hint_cost=scoring.hint_cost(p, limits),
            show_costs=scoring.show_costs(p, limits), took=scoring.hints_took(p, limits),
        )  # fmt: skip
        out.append(got)
    return out


def _exam(case: dict[str, Any]) -> list[dict[str, Any]]:
    a, out = scoring.Attempt(), []
    for step in case["steps"]:
        kind, *args = step["event"]
        if kind == "clock":
            out.append({"left": scoring.time_left(*args)})
            continue
        if kind == "submit":
            scoring.submit(a, args[0], args[1])
        else:
            a = scoring.retake(a, args[0])
        past = [list(x) for x in a.past]
        out.append({"attempt": a.attempt, "done": a.done, "score": a.score, "past": past})
    return out


def _same(want: Any, got: Any) -> bool:
    """Equal, numbers to 9 decimals (a share times the points is a float)."""
    if isinstance(want, dict) and isinstance(got, dict):
        return want.keys() == got.keys() and all(_same(want[k], got[k]) for k in want)
    if isinstance(want, list) and isinstance(got, list):
        return len(want) == len(got) and all(_same(w, g) for w, g in zip(want, got, strict=True))
    numbers = (int, float)
    if (
        isinstance(want, numbers)
        and isinstance(got, numbers)
        and bool not in (type(want), type(got))
    ):
        return round(want - got, 9) == 0
    return bool(want == got and type(want) is type(got))


def _wrong(runs: dict[str, list[list[dict[str, Any]]]]) -> list[str]:
    cases, wrong = _cases(), []
    for part in ("questions", "exams"):
        for case, got in zip(cases[part], runs[part], strict=True):
            for n, (step, mine) in enumerate(zip(case["steps"], got, strict=True)):
                if not _same(step["expected"], mine):
                    wrong.append(f"{case['id']} step {n} {step['event']}: {mine}")
    return wrong


def test_the_cases_are_current_and_name_every_rule_of_the_authoring_page() -> None:
    cases = _cases()
    assert cases == json.loads(json.dumps(build())), "python -m tests.grading.rules"
    section = AUTHORING.read_text(encoding="utf-8").split("## Scoring", 1)[1].split("\n## ")[0]
    written = set(re.findall(r"\{#(rule-[a-z-]+)\}", section))
    assert len(written) >= 10
    named = {r for part in ("questions", "exams") for c in cases[part] for r in c["rules"]}
    assert written == named | set(cases["graded"])
    endings = {case["id"].rsplit("/", 1)[1] for case in json.loads(VECTORS.read_text("utf-8"))}
    for rule, shown_by in cases["graded"].items():
        assert set(shown_by) <= endings, rule


def test_konum_quiz_scores_every_case_as_written() -> None:
    cases = _cases()
    runs = {"questions": [_question(c) for c in cases["questions"]]}
    runs["exams"] = [_exam(c) for c in cases["exams"]]
    assert _wrong(runs) == []


def test_the_page_scores_every_case_as_written() -> None:
    node = shutil.which("node")
    if node is None:
        pytest.fail("the page's rules run in Node.js: install Node.js")
    run = subprocess.run(
        [node, str(RUNNER), str(STATE_JS), str(EXAM_JS), str(RULES)],
        capture_output=True, text=True, check=True, timeout=120,
    )  # fmt: skip
    assert _wrong(json.loads(run.stdout)) == []
