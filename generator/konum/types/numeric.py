"""``type: numeric``: a number, accepted within a tolerance.

In a bank::

    - id: quarter-turn
      type: numeric
      prompt: What is a quarter turn in radians?
      answer: 1.5708
      tolerance: 0.005            # absolute; or relative_tolerance: 0.01
      decimals: 2                 # what the prompt asks for; the tolerance must admit it
      unit: rad

quiz.js's grader ``numeric`` unseals the accepted interval (:func:`sealed_interval`) on a
check and compares what the reader typed, read as the page's language writes numbers.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation, localcontext
from typing import Any, ClassVar

from markupsafe import Markup

from konum import limits, seal
from konum.computed.base import places
from konum.fields import Reader, num
from konum.formatting import format_number, localize_numbers, typeset_number
from konum.lms import GiftWriter, MoodleDocument, numerical_answer, plain_number, units
from konum.qti_items import QtiDocument
from konum.types import base
from konum.types.base import answer_line
from konum.yamlsource import YMap


def sealed_interval(salt: str, answer: float, tolerance: float) -> str:
    """The numbers a numeric check accepts, ``[low, high]`` (``tolerance`` absolute, with
    the slack of a double's rounding), sealed: only a check unseals them."""
    slack = tolerance + 1e-9 * max(1.0, abs(answer))
    return seal.seal(salt, json.dumps([answer - slack, answer + slack]))


_TYPED = re.compile(r"([+-]?)([0-9.,]+)(e[+-]?[0-9]+)?", re.IGNORECASE)


def _read_as(body: str, decimal: str, group: str) -> str | None:
    """``body`` (digits, points, commas) read with these marks, as Python's number text."""
    at = body.rfind(decimal)
    whole, fraction = (body, "") if at < 0 else (body[:at], body[at + 1 :])
    if group in whole:
        if not re.fullmatch(rf"[1-9][0-9]{{0,2}}(\{group}[0-9]{{3}})+", whole):
            return None
        whole = whole.replace(group, "")
    if not re.fullmatch(r"[0-9]*", whole + fraction) or not whole + fraction:
        return None
    return (whole or "0") + ("." + fraction if fraction else "")


def read_number(text: str, language: str) -> tuple[float | None, float | None]:
    """A typed number as quiz.js's ``readNumber`` reads it on a page in ``language``: its
    decimal mark and digit grouping (``1,234.5``; Turkish ``1.234,5``), spaces anywhere,
    either minus sign, an exponent. ``(value, None)`` when it reads the page's way,
    ``(None, value)`` when only the other way (to be asked back), ``(None, None)`` when it
    is no number."""
    plain = re.sub(r"[\s\u00a0\u202f]", "", text).replace("\u2212", "-").replace("\u2013", "-")
    found = _TYPED.fullmatch(plain)
    if not found:
        return None, None
    sign, body, tail = found.group(1), found.group(2), found.group(3) or ""
    marks = (",", ".") if "," in format_number(1.5, 1, language=language) else (".", ",")
    mine, theirs = _read_as(body, *marks), _read_as(body, *marks[::-1])
    if mine is not None:
        return float(sign + mine + tail), None
    return None, (float(sign + theirs + tail) if theirs is not None else None)


def grade_numeric(spec: Mapping[str, Any], check: base.Check) -> base.Graded:
    """quiz.js's ``gradeNumeric``: the typed text (``check.values[0]``) against the sealed
    interval; a number written the other way, or none, is asked again."""
    say, typed = check.say, str(check.values[0]).strip()
    value, other = read_number(typed, check.language)
    if not typed:
        return base.Graded(False, say("quiz.number_first"), retry=True)
    if other is not None:
        shown = format_number(other, language=check.language)
        return base.Graded(False, say("quiz.number_ask", typed=typed, value=shown), retry=True)
    if value is None:
        return base.Graded(False, say("quiz.number_bad"), retry=True)
    low, high = json.loads(seal.unseal(check.salt, spec["interval"]))
    if low <= value <= high:
        return base.Graded(True, say("quiz.correct"), share=1.0)
    return base.Graded(False, say("quiz.too_high" if value > high else "quiz.too_low", value=typed))


def tolerance_text(tolerance: float, language: str = "en") -> str:
    """A tolerance for a printed key: two significant digits, positional, with
    ``language``'s decimal mark (``0.0055``, in Turkish ``0,0055``)."""
    return localize_numbers(plain_number(float(f"{tolerance:.2g}")), language)


@dataclass(frozen=True)
class NumericQuestion(base.Question):
    """A number, accepted within ``tolerance`` (absolute, or relative to ``answer``).

    ``decimals`` is how many decimals the prompt asks for; the loader checks that the
    tolerance admits ``round(answer, decimals)``.
    """

    answer: float = 0.0
    tolerance: float = 0.0
    relative: bool = False
    unit: str | None = None
    decimals: int | None = None

    type: ClassVar[str] = "numeric"
    FIELDS: ClassVar[tuple[str, ...]] = (
        "answer",
        "tolerance",
        "relative_tolerance",
        "decimals",
        "unit",
    )
    TEXTS: ClassVar[tuple[str, ...]] = ("unit",)

    @property
    def absolute_tolerance(self) -> float:
        """The tolerance as an absolute one (Moodle and GIFT have no relative one)."""
        return abs(self.answer) * self.tolerance if self.relative else self.tolerance

    @classmethod
    def read(cls, r: Reader, node: YMap, common: dict[str, Any]) -> NumericQuestion | None:
        answer_node = node.get("answer")
        answer: float | None = None
        if answer_node is None:
            r.missing(node, "", "answer", "a number")
        else:
            answer = r.number_where(
                answer_node,
                "answer",
                _finite,
                "the answer must be a finite number",
                "a finite number",
            )
        relative = "relative_tolerance" in node.entries
        both = "tolerance" in node.entries and relative
        if both:
            r.problem(
                node.entries["relative_tolerance"].key_mark,
                "relative_tolerance",
                "give either 'tolerance' (absolute) or 'relative_tolerance', not both",
            )
        key = "relative_tolerance" if relative else "tolerance"
        start = r.count()
        tolerances = {k: r.tolerance(node, k) for k in ("tolerance", "relative_tolerance")}
        tolerance = tolerances[key] or 0.0
        usable = not both and r.count() == start
        decimals = r.integer(node, "decimals", "", limits.DECIMALS)
        unit = r.text(node, "unit", "", required=False, markdown=True)
        if answer is not None and relative and answer == 0:
            r.problem(
                node.entries["relative_tolerance"].key_mark,
                "relative_tolerance",
                "a relative tolerance cannot work when the answer is 0; use 'tolerance'",
            )
        elif answer is not None and decimals is not None and usable:
            _check_rounding(r, node, answer, decimals, tolerance, relative)
        return cls(
            **common,
            answer=float(answer or 0.0),
            tolerance=float(tolerance),
            relative=relative,
            unit=unit,
            decimals=decimals,
        )

    def view(self, concrete: base.Concrete, page: base.Page) -> dict[str, Any]:
        shown = format_number(self.answer, self.decimals, language=page.language)
        return {
            "unit": self.unit,
            "decimals": self.decimals,
            "shown": typeset_number(shown),
            "data": {
                "type": "numeric",
                "interval": sealed_interval(page.salt, self.answer, self.absolute_tolerance),
            },
        }

    @classmethod
    def grade(cls, spec: Mapping[str, Any], check: base.Check) -> base.Graded:
        return grade_numeric(spec, check)

    def cards(self, concrete: base.Concrete, ctx: base.Cards) -> list[base.Card]:
        shown = html.escape(
            format_number(self.answer, self.decimals, self.unit, ctx.language), quote=False
        )
        back = answer_line(ctx.say("cards.answer"), shown) + ctx.explanation(self)
        return [ctx.card(self, ctx.md(self.prompt), back)]

    def moodle(self, doc: MoodleDocument, concrete: base.Concrete) -> None:
        """``numerical`` with an absolute tolerance (a relative one times the answer) and
        the unit, optional for the student."""
        element = doc.question("numerical", self, text=doc.html(self.prompt))
        numerical_answer(element, self.answer, self.absolute_tolerance)
        units(element, self.unit)

    def gift(self, w: GiftWriter, concrete: base.Concrete) -> None:
        """``{#answer:tolerance}``, the tolerance absolute (the prompt says the unit)."""
        answer = f"#{plain_number(self.answer)}:{plain_number(self.absolute_tolerance)}"
        w.add(f"{w.head(self.id, w.html(self.prompt))}{{{answer}{w.general(self)}\n}}")

    def qti(self, doc: QtiDocument, concrete: base.Concrete) -> None:
        """``numerical_question``: the answer and the numbers within its tolerance (a relative
        one times the answer); Canvas has no unit field, so the unit follows the prompt."""
        item = doc.item("numerical_question", self, doc.html(self.prompt))
        item.numeric(self.answer, self.absolute_tolerance, self.unit)

    def printed(self, ctx: base.Print) -> base.PrintedQuestion:
        shown = typeset_number(
            format_number(self.answer, self.decimals, self.unit, language=ctx.language)
        )
        answer = Markup("<strong>{}</strong> (± {})").format(
            shown, tolerance_text(self.absolute_tolerance, ctx.language)
        )
        return ctx.printed(self, answer, unit=self.unit)


def _finite(value: float) -> bool:
    return value == value and abs(value) != float("inf")


def _check_rounding(
    r: Reader, node: YMap, answer: float, decimals: int, tolerance: float, relative: bool
) -> None:
    """The tolerance must admit the answer rounded half-up to ``decimals`` (as a reader
    rounds it)."""
    try:
        with localcontext() as ctx:
            ctx.prec = 400
            rounded = float(
                Decimal(repr(answer)).quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)
            )
    except (InvalidOperation, OverflowError, ValueError):
        return
    gap = abs(rounded - answer)
    allowed = tolerance * abs(answer) if relative else tolerance
    if gap <= allowed + 1e-12 * max(1.0, abs(answer)):
        return
    key = "relative_tolerance" if relative else "tolerance"
    need = gap / abs(answer) if relative else gap
    mark = node.entries[key].value.mark if key in node.entries else node.mark
    r.problem(
        mark,
        key,
        f"{key} {num(tolerance)} does not admit {rounded:.{decimals}f}, the answer "
        f"{num(answer)} rounded to {places(decimals)}; use at least {num(need)}",
        expected=f"{key} >= {num(need)}",
        found=num(tolerance),
    )
