"""``type: output``: a program to write, checked by what it prints.

In a bank::

    - id: squares-print
      type: output
      prompt: Print the squares of 1 to 4 and their mean, rounded to 2 decimals.
      solution: |
        import numpy as np
        squares = np.arange(1, 5) ** 2
        print(squares, np.round(squares.mean(), 2))
      tolerance: 1e-6            # numbers in the output count as equal within this
      recorded:                  # written by `konum check --record`
        solution: 3fa4c2d1       # the hash of the solution it was recorded from
        output: |
          [ 1  4  9 16] 7.5

The example solution is code, and runs only where the site trusts it (see the authoring
page, "what konum trusts"): ``konum check --record`` runs it and writes what it printed into
the bank, with a hash of the solution; every build uses that recording. A build runs the
solutions itself only when ``mkdocs.yml`` says ``run_programs: true``, and ``konum check
--run-programs`` runs them to compare with the recording. quiz.js's grader ``output``
compares the reader's output line by line with the expected one, as :func:`difference` does.
"""

from __future__ import annotations

import hashlib
import html
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from functools import partial
from typing import Any, ClassVar

from markupsafe import Markup

from konum import seal
from konum.fields import Reader, describe
from konum.formatting import code_block
from konum.lms import OUTPUT_PROBLEM, GiftWriter, MoodleDocument
from konum.messages import message
from konum.programs import MAX_CHARS, ProgramError, run_program
from konum.types import base
from konum.types.base import section
from konum.yamlsource import YMap, YScalar

#: Numbers of an output question's lines count as equal within this, unless it says otherwise.
OUTPUT_TOLERANCE = 1e-6
#: Rows of an output question's text box: the expected output's, within these bounds.
OUTPUT_ROWS = (3, 12)
RECORDED_FIELDS = ("solution", "output")
_CODE = re.compile(r"(<pre>(?:<span></span>)?)<code>")
_TOKEN = re.compile(r"[A-Za-z_]\w*|[+\-\u2212]?(?:\d+\.?\d*|\.\d+)(?:e[+\-]?\d+)?|\S", re.I)
_NUMBER = re.compile(r"[+\-\u2212]?\.?\d")


def solution_hash(solution: str) -> str:
    """The hash that ties a recorded output to the solution it came from: 8 hex digits of
    the SHA-256 of its text (line endings and trailing spaces aside)."""
    text = "\n".join(line.rstrip() for line in solution.strip("\n").splitlines())
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:8]


def _lines(text: str) -> list[tuple[str, list[str]]]:
    found = ((line.strip(), _TOKEN.findall(line)) for line in re.split(r"\r?\n", text))
    return [(line, tokens) for line, tokens in found if tokens]


def difference(
    expected: str, got: str, tolerance: float, say: Callable[..., str] | None = None
) -> str | None:
    """Where ``got`` first differs from ``expected`` as an output question compares them
    (quiz.js's grader): line by line, blank lines and spacing aside, numbers within
    ``tolerance`` times the expected number when that is larger than 1; None when it does
    not. The message is ``say``'s (a catalogue's ``quiz.output_*`` text; English unless
    given)."""
    say = say or partial(message, "en")
    want, have = _lines(expected), _lines(got)
    for i, (text, tokens) in enumerate(want):
        if i >= len(have):
            return say("quiz.output_missing", line=i + 1, expected=text)
        problem = _line_difference(i + 1, tokens, have[i][1], tolerance, say)
        if problem:
            return problem
    if len(have) > len(want):
        return say("quiz.output_extra", line=len(want) + 1, found=have[len(want)][0])
    return None


def _line_difference(
    n: int, want: list[str], got: list[str], tolerance: float, say: Callable[..., str]
) -> str | None:
    """How the reader's line ``n`` (its tokens) differs from the expected one, or None
    (quiz.js's ``lineDifference``)."""
    index = 0
    for k, w in enumerate(want):
        numeric = bool(_NUMBER.match(w))
        index += numeric
        if k >= len(got):
            return say("quiz.output_short", line=n, expected=" ".join(want[k:]))
        g = got[k]
        if numeric and _NUMBER.match(g):
            x, y = (float(t.replace("\u2212", "-")) for t in (w, g))
            if not abs(x - y) <= tolerance * max(1.0, abs(x)):
                return say("quiz.output_number", line=n, index=index, expected=w, found=g)
        elif w != g:
            return say("quiz.output_word", line=n, expected=w, found=g)
    return (
        say("quiz.output_long", line=n, found=" ".join(got[len(want) :]))
        if len(got) > len(want)
        else None
    )


@dataclass(frozen=True)
class OutputQuestion(base.Question):
    """A program to write, checked by what it prints.

    ``solution`` is an example program (Python, numpy available); ``expected`` what it
    prints (lines joined by ``\\n``, no final newline): the recording, or what the check
    stage ran it to get; ``recorded`` the hash of the solution the recording came from
    (None: no recording). A reader's output matches when it has the same lines, blank lines
    and spacing aside, each with the same words and signs and the same numbers, ``a`` and
    ``b`` counting as the same when ``|a - b| <= tolerance * max(1, |b|)`` (``b`` the
    expected one).
    """

    solution: str = ""
    expected: str = ""
    tolerance: float = OUTPUT_TOLERANCE
    recorded: str | None = None

    type: ClassVar[str] = "output"
    FIELDS: ClassVar[tuple[str, ...]] = ("solution", "tolerance", "recorded")

    @classmethod
    def read(cls, r: Reader, node: YMap, common: dict[str, Any]) -> OutputQuestion | None:
        tolerance = r.tolerance(node, "tolerance")
        solution = r.text(node, "solution", "", required=True)
        value = node.get("solution")
        if solution is None or not isinstance(value, YScalar):
            return None
        if value.style == ">":
            r.problem(
                value.mark,
                "solution",
                "a folded block joins the program's lines",
                expected="a literal block ('solution: |')",
                found="a folded block ('solution: >')",
            )
            return None
        if len(solution) > MAX_CHARS:
            r.problem(
                value.mark,
                "solution",
                "the example solution is too long to show",
                expected=f"at most {MAX_CHARS:,} characters",
                found=f"{len(solution):,}",
            )
            return None
        expected, recorded = "", None
        record = node.get("recorded")
        if isinstance(record, YMap):
            r.check_keys(record, "recorded", RECORDED_FIELDS)
            recorded = r.text(record, "solution", "recorded", required=True)
            output = r.text(record, "output", "recorded", required=True)
            expected = (output or "").replace("\r\n", "\n").rstrip("\n")
        elif record is not None:
            r.problem(
                record.mark,
                "recorded",
                "wrong type (konum check --record writes it)",
                expected="a mapping with the solution's hash and its output",
                found=describe(record),
            )
        return cls(
            **common,
            solution=solution,
            expected=expected,
            tolerance=OUTPUT_TOLERANCE if tolerance is None else tolerance,
            recorded=recorded,
        )

    def probe(self, ctx: base.Probe) -> tuple[list[base.Finding], OutputQuestion]:
        """What the check stage finds, and the question with its expected output: the
        recording, or (where programs may run) what the solution prints."""
        current = solution_hash(self.solution)
        if not ctx.run_programs:
            if self.recorded is None:
                return [
                    base.Finding(
                        "solution",
                        "no recorded output: run 'konum check --record' to run the example "
                        "solution and record what it prints in the bank",
                    )
                ], self
            if self.recorded != current:
                return [
                    base.Finding(
                        "recorded",
                        f"recorded from another solution ({self.recorded}; this one is "
                        f"{current}): run 'konum check --record' to record its output again",
                    )
                ], self
            return [], self
        try:
            printed = run_program(self.solution)
        except ProgramError as exc:
            where = f" at its line {exc.line}" if exc.line else ""
            message = f"the example solution failed{where}: {exc.message}"
            return [base.Finding("solution", message, line=exc.line)], self
        if not printed.strip():
            return [
                base.Finding(
                    "solution",
                    "the example solution printed nothing: an output question checks what a "
                    "program prints",
                )
            ], self
        if self.recorded is not None:
            wrong = difference(self.expected, printed, self.tolerance)
            if self.recorded != current or wrong:
                why = wrong or "the solution changed since"
                return [
                    base.Finding(
                        "recorded",
                        f"the recorded output is not what the solution prints ({why}): run "
                        "'konum check --record' to record it again",
                    )
                ], self
        return [], replace(self, expected=printed)

    def record(self) -> tuple[str, str] | None:
        """Run the solution: its hash and what it prints, unless that is what is recorded
        (None also when it fails: ``konum check`` reports that)."""
        try:
            output = run_program(self.solution)
        except ProgramError:
            return None
        digest = solution_hash(self.solution)
        if self.recorded == digest and self.expected == output:
            return None
        return digest, output

    def view(self, concrete: base.Concrete, page: base.Page) -> dict[str, Any]:
        """The box sized to the expected output, the example solution as highlighted code,
        and the checker's data (the expected text, sealed, and the tolerance)."""
        low, high = OUTPUT_ROWS
        solution = str(page.md(code_block(self.solution)))
        return {
            "rows": min(high, max(low, self.expected.count("\n") + 2)),
            "expected": self.expected,
            # Focusable, as Material makes the page's own code blocks: it may scroll sideways.
            "solution": Markup(_CODE.sub(r'\1<code tabindex="0">', solution)),
            "data": {
                "type": "output",
                "expected": seal.seal(page.salt, self.expected),
                "tolerance": self.tolerance,
            },
        }

    @classmethod
    def grade(cls, spec: Mapping[str, Any], check: base.Check) -> base.Graded:
        """quiz.js's ``gradeOutput``: the pasted output (``check.values[0]``) against the
        unsealed expected one, line by line; the first difference is told."""
        say, box = check.say, str(check.values[0])
        if not box.strip():
            return base.Graded(False, say("quiz.output_empty"), retry=True)
        problem = difference(seal.unseal(check.salt, spec["expected"]), box, spec["tolerance"], say)
        return (
            base.Graded(False, problem)
            if problem
            else base.Graded(True, say("quiz.output_right"), share=1.0)
        )

    def cards(self, concrete: base.Concrete, ctx: base.Cards) -> list[base.Card]:
        """The task on the front; the example solution, what it prints and the
        explanation on the back."""
        printed = html.escape(self.expected, quote=False)
        back = (
            section(
                "konum-solution",
                ctx.md(code_block(self.solution)),
                ctx.say("cards.example_solution"),
            )
            + section(
                "konum-output", f"<pre><code>{printed}</code></pre>", ctx.say("cards.it_prints")
            )
            + ctx.explanation(self)
        )
        return [ctx.card(self, ctx.md(self.prompt), back)]

    def moodle_problem(self) -> str | None:
        return OUTPUT_PROBLEM

    def gift_problem(self) -> str | None:
        return OUTPUT_PROBLEM

    def qti_problem(self) -> str | None:
        return OUTPUT_PROBLEM.replace("Moodle", "Canvas")

    def moodle(self, doc: MoodleDocument, concrete: base.Concrete) -> None:  # pragma: no cover
        raise AssertionError(OUTPUT_PROBLEM)

    def gift(self, w: GiftWriter, concrete: base.Concrete) -> None:  # pragma: no cover
        raise AssertionError(OUTPUT_PROBLEM)

    def printed(self, ctx: base.Print) -> base.PrintedQuestion:
        """The task on the exam; what the example prints, line by line, and the example
        itself in the key."""
        lines = Markup("<br>").join(
            Markup("<code>{}</code>").format(line) for line in self.expected.split("\n")
        )
        return ctx.printed(
            self,
            Markup("<strong>{}</strong><br>{}").format(ctx.say("print.prints"), lines),
            solution=ctx.md(code_block(self.solution)),
            lines=self.expected.count("\n") + 2,
        )
