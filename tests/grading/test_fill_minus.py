"""The Python grader reads a typed answer as the page's grader does: the minus sign the page
prints (U+2212) is a hyphen to a pattern blank too, as it already was to a hashed one."""

from __future__ import annotations

from typing import Any

from konum.types import Blank, Check, Concrete, FillQuestion
from tests import quiz_samples as samples
from tests.helpers import render_quiz
from tests.sealed import question_scripts


def _say(key: str, **fields: Any) -> str:
    return key


def test_a_pattern_blank_reads_the_pages_minus_sign_as_a_hyphen() -> None:
    q = FillQuestion(
        id="t-minus",
        bank="t",
        prompt="Clip the offset to [____, k].",
        explanation="",
        source=samples.SRC,
        blanks=(Blank(answers=("-k",), regex=r"\s*-\s*k\s*"),),
    )
    data, _ = question_scripts(render_quiz([Concrete(q, 1)], "minus"))
    for typed in ("-k", "\u2212k", " \u2212 k "):
        graded = FillQuestion.grade(data, Check(values=(typed,), salt=data["salt"], say=_say))
        assert (graded.ok, graded.share) == (True, 1.0), typed
