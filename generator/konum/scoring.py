"""The scoring rules of a question and of an exam's attempts, written once for ``konum quiz``.

The rules are the authoring page's "Scoring" section (``content/authoring.md``; each rule
has an id there, ``rule-best`` and the like, named below). The page computes the same rules
in state.js's ``konumState.rules`` (an exam's attempts in quiz-exam.js's
``konumExam.rules``); ``tests/grading/rules.json`` holds cases (a question's limits, a
sequence of events, the state after each) that both run.

Conventions: ``best`` and hint costs are shares of the question's points (0 to 1); what
:func:`credit`, :func:`hints_took`, :func:`hint_cost` and :class:`Told`'s ``earned`` and
``kept`` give is in points. A variant is a set of numbers of a computed question (0 for a
question without). A stored record is state.js's schema: ``v`` variant, ``c`` checked,
``ok`` last check right, ``r`` answer shown now, ``b`` best share (None: never checked),
``p`` hints taken when it was earned, ``h`` hints taken, ``n`` checks made, ``s`` the
variants whose answer was shown, ``g`` the credit as a share.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

#: What no page counts past where the question sets no bound (state.js's ``MANY``).
MANY = 1000


@dataclass(frozen=True)
class Limits:
    """What a question allows: its ``points``, each hint's ``costs`` (shares), ``attempts``
    (0: any number) and its ``variants`` (1: a question without New numbers)."""

    points: float = 1.0
    costs: tuple[float, ...] = ()
    attempts: int = 0
    variants: int = 1


@dataclass(kw_only=True)
class Progress:
    """What a reader did with a question (quiz.js's ``api``): the ``variant`` shown, the
    ``best`` share a check earned (None before any check), the hints taken when it was
    earned (``paid``) and in all (``hints``), the checks made (``tries``), the variants
    whose answer was shown (``seen``), and whether the answer is shown now (``revealed``),
    a check was made (``checked``) and the last one was right (``ok``)."""

    variant: int = 0
    best: float | None = None
    paid: int = 0
    hints: int = 0
    tries: int = 0
    seen: set[int] = field(default_factory=set)
    revealed: bool = False
    checked: bool = False
    ok: bool = False


@dataclass(frozen=True)
class Told:
    """What a check's feedback says beside the grader's message: ``instead`` (a catalogue
    key that replaces it: right after a shown answer), the points this check ``earned``
    when less than all, the points ``kept`` from an earlier check when more, the attempts
    ``left`` after a wrong one (None: no limit; 0: none left) and ``reveal`` (the
    answer is shown now, the last attempt being wrong)."""

    instead: str | None = None
    earned: float | None = None
    kept: float | None = None
    left: int | None = None
    reveal: bool = False


def _paid(limits: Limits, hints: int) -> float:
    paid = 0.0
    for cost in limits.costs[:hints]:
        paid += cost
    return paid


def credit(p: Progress, limits: Limits) -> float:
    """The points ``p`` counts (rule-best, rule-hints): its best check less the hints taken
    before it, never below 0; nothing before a check."""
    if p.best is None:
        return 0.0
    return max(0.0, p.best - _paid(limits, p.paid)) * limits.points


def hints_took(p: Progress, limits: Limits) -> float:
    """The points the hints took from ``p``'s best check (the score line's "hints took")."""
    return (p.best or 0.0) * limits.points - credit(p, limits)


def locked(p: Progress, limits: Limits) -> bool:
    """Whether ``p``'s attempts are used up (rule-attempts)."""
    return limits.attempts > 0 and p.tries >= limits.attempts


def tries_left(p: Progress, limits: Limits) -> int | None:
    """Checks ``p`` still has; None without a limit."""
    return max(0, limits.attempts - p.tries) if limits.attempts else None


def hint_cost(p: Progress, limits: Limits) -> float:
    """The points the next hint would cost (rule-hints): 0 when none is left or the
    question is solved."""
    if p.hints >= len(limits.costs) or (p.best or 0.0) >= 1:
        return 0.0
    return limits.costs[p.hints] * limits.points


def show_costs(p: Progress, limits: Limits) -> bool:
    """Whether Show answer says it costs the points (rule-reveal): while they are still to
    be earned on numbers whose answer was not shown."""
    return not p.revealed and credit(p, limits) < limits.points and p.variant not in p.seen


def check(
    p: Progress, limits: Limits, share: float, ok: bool, restoring: bool = False
) -> Told | None:
    """A graded check of ``p`` (a ``share`` of the points, ``ok`` fully right); None when
    its attempts are used up. The best share is kept (rule-best) unless the answer to
    these numbers was shown (rule-reveal); the hints taken then are paid (rule-hints); the
    last wrong attempt shows the answer (rule-attempts). ``restoring`` (a reload shows the
    stored check again) counts no attempt and keeps the stored best."""
    if not restoring and locked(p, limits):
        return None
    shown, kept = p.variant in p.seen, credit(p, limits)
    now = max(0.0, share - _paid(limits, p.hints)) * limits.points
    if not restoring:
        p.tries += 1
        if not shown and share > (p.best or 0.0):
            p.best, p.paid = share, p.hints
    elif p.best is None:
        p.best = 0.0 if shown else share
    p.best = p.best or 0.0
    p.checked, p.ok = True, ok
    instead, earned = None, None
    if shown and share > 0:
        instead = "quiz.right_after_reveal" if ok else "quiz.part_after_reveal"
    elif share > 0 and now < limits.points:
        earned = now
    left = tries_left(p, limits) if not ok else None
    reveal = locked(p, limits) and not ok and not p.revealed
    if reveal:
        show(p)
    return Told(
        instead=instead,
        earned=earned,
        kept=kept if kept > 0 and (shown or now < kept) else None,
        left=left,
        reveal=reveal,
    )


def take_hint(p: Progress, limits: Limits) -> bool:
    """Takes the next hint (paid for only by a better check after it); False when none is
    left."""
    if p.hints >= len(limits.costs):
        return False
    p.hints += 1
    return True


def show(p: Progress) -> None:
    """Show answer: these numbers earn nothing from now on (rule-reveal)."""
    p.revealed = True
    p.seen.add(p.variant)


def new_variant(p: Progress, limits: Limits) -> None:
    """New numbers (rule-new): the next variant, the answer cleared; credit, hints and
    attempts stay the question's."""
    p.variant = (p.variant + 1) % max(1, limits.variants)
    p.checked = p.ok = p.revealed = False


def reset(p: Progress) -> None:
    """Reset: the credit, hints and checks go; the variants whose answer was shown stay
    shown (rule-reveal)."""
    p.variant, p.best, p.paid, p.hints, p.tries = 0, None, 0, 0, 0
    p.revealed = p.checked = p.ok = False


# --- stored records ---------------------------------------------------------------------


def record(p: Progress, limits: Limits) -> dict[str, Any]:
    """``p`` as state.js stores it (the scoring part of its schema)."""
    share = credit(p, limits) / limits.points if p.best is not None else 0.0
    return {
        "v": p.variant, "c": p.checked, "ok": p.ok, "r": p.revealed, "b": p.best,
        "p": p.paid, "h": p.hints, "n": p.tries, "s": sorted(p.seen), "g": share,
    }  # fmt: skip


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _count(value: Any, most: int) -> bool:
    return _number(value) and 0 <= value <= most and int(value) == value


def load(value: Any, limits: Limits) -> Progress | None:
    """A stored record as progress, or None when a field has the wrong type or claims
    more than the question allows (rule-stored): a share above 1, more hints, checks or
    variants than it has. Unknown fields are ignored."""
    if not isinstance(value, dict):
        return None
    hints = len(limits.costs)
    variants = max(1, limits.variants)
    tests: dict[str, Callable[[Any], bool]] = {
        "v": lambda v: _count(v, variants - 1),
        "c": lambda v: isinstance(v, bool),
        "ok": lambda v: isinstance(v, bool),
        "r": lambda v: isinstance(v, bool),
        "b": lambda v: v is None or (_number(v) and 0 <= v <= 1),
        "h": lambda v: _count(v, hints),
        "p": lambda v: _count(v, hints),
        "n": lambda v: _count(v, limits.attempts or MANY),
        "g": lambda v: _number(v) and 0 <= v <= 1,
        "s": lambda v: (
            isinstance(v, list)
            and len(v) <= variants
            and all(_count(k, variants - 1) for k in v)
            and len(set(v)) == len(v)
        ),
    }
    if any(k in value and not test(value[k]) for k, test in tests.items()):
        return None
    p = Progress(
        variant=int(value.get("v", 0)),
        best=None if value.get("b") is None else float(value["b"]),
        paid=int(value.get("p", 0)),
        hints=int(value.get("h", 0)),
        tries=int(value.get("n", 0)),
        seen={int(k) for k in value.get("s", [])},
        revealed=value.get("r", False),
        checked=value.get("c", False),
        ok=value.get("ok", False),
    )
    if p.paid > p.hints:
        return None
    if p.revealed:
        p.seen.add(p.variant)
    return p


def saved(before: dict[str, Any] | None, new: dict[str, Any]) -> dict[str, Any]:
    """What storage holds after ``new`` is written over ``before`` (another tab's or this
    one's): the variants shown on either side stay shown (rule-reveal)."""
    seen = set(new.get("s", [])) | set((before or {}).get("s", []))
    return {**new, "s": sorted(seen)}


# --- an exam's attempts -----------------------------------------------------------------


@dataclass(kw_only=True)
class Attempt:
    """An exam's attempt (state.js's ``konum:exam:`` record): its number, whether it was
    submitted (``done``) and its ``score`` of ``total`` points then, and the ``past``
    attempts' (score, total)."""

    attempt: int = 1
    done: bool = False
    score: float | None = None
    total: float | None = None
    past: list[tuple[float, float]] = field(default_factory=list)


def submit(a: Attempt, score: float, total: float) -> None:
    """Submitting ends the attempt with its score (rule-exam)."""
    a.done, a.score, a.total = True, score, total


def retake(a: Attempt, total: float) -> Attempt:
    """The next attempt (Reset after submitting, or New questions during one): the one
    before is kept with its score, 0 if it was not submitted (rule-exam)."""
    score = (a.score or 0.0) if a.done else 0.0
    return Attempt(attempt=a.attempt + 1, past=[*a.past, (score, a.total or total)])


def time_left(start: float, now: float, limit: float) -> float:
    """Seconds an exam with a ``limit`` (seconds) started at ``start`` has at ``now`` (both
    in seconds): none when the clock reads past the limit or before the start (rule-exam)."""
    left = limit - (now - start)
    return 0.0 if start > now or left > limit else max(0.0, left)
