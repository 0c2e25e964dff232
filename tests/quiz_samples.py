"""Hand-built concrete questions, one or more per type, for the render and browser tests.

They are built directly from :mod:`konum.model` (no bank files, no variant generator) so
the rendering tests depend only on the model. Computed answers come from ``math`` here, not
from hard-coded numbers.
"""

from __future__ import annotations

import math

from konum import model
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
    OutputQuestion,
    Pair,
)
from tests.helpers import make_concrete

SRC = model.Source("tests/quiz_samples.py", 1, 1)
QUIZ_ID = "sample"


def sin_entry(pos: int, j: int, d: int, base: float = 10000.0) -> float:
    """PE[pos, j] in the interleaved layout: sin for even j, cos for odd j."""
    angle = pos / base ** (2 * (j // 2) / d)
    return math.sin(angle) if j % 2 == 0 else math.cos(angle)


def choice() -> Concrete:
    q = ChoiceQuestion(
        id="s-why-pairs",
        bank="sample",
        prompt="Why does each frequency get both a sine and a cosine?",
        explanation="A (sin, cos) pair turns a shift by $k$ into a **rotation** of the pair.",
        source=SRC,
        hint="Think about what a fixed offset $k$ does to the angle.",
        options=(
            Option("So that a fixed rotation maps $PE_p$ to $PE_{p+k}$", True),
            Option(
                "Sines are for even positions, cosines for odd ones",
                False,
                feedback="Every position gets both; the pair is what makes the shift linear.",
            ),
            Option("To double the width of `d_model`", False),
            Option("None of the above", False, pin=True),
        ),
    )
    return Concrete(q, seed=42, option_order=(2, 0, 1, 3))


def choice_multiple() -> Concrete:
    q = ChoiceQuestion(
        id="s-which-fast",
        bank="sample",
        prompt="Which columns of $PE$ (with $d = 8$) share the wavelength $2\\pi$?\n\n"
        "```python\nPE = sinusoidal(16, 8)\n```",
        explanation="Columns 0 and 1 form pair $i = 0$, whose frequency is 1.",
        source=SRC,
        options=(
            Option("column 0", True),
            Option("column 1", True),
            Option("column 7", False, feedback="Column 7 is the slowest cosine."),
        ),
        shuffle=False,
    )
    return Concrete(q, seed=42, option_order=(0, 1, 2))


def fill() -> Concrete:
    q = FillQuestion(
        id="s-fill-even",
        bank="sample",
        prompt="Put the sines in the even columns, then name the function for the odd ones "
        "(____):\n\n```python\nPE[:, 0::____] = np.sin(angle)\n```",
        explanation="`0::2` takes every second column from 0; odd columns use `np.cos`.",
        source=SRC,
        blanks=(
            Blank(answers=("cos", "cosine", "np.cos")),
            Blank(answers=("2",)),
        ),
    )
    return Concrete(q, seed=42)


def matching() -> Concrete:
    q = MatchingQuestion(
        id="s-match",
        bank="sample",
        prompt="Match each slice of $PE$ at position 0 with its values.",
        explanation="At position 0 every angle is 0, so sines are 0 and cosines are 1.",
        source=SRC,
        pairs=(
            Pair("`PE[0, 0::2]`", "all 0 ($\\sin 0$)"),
            Pair("`PE[0, 1::2]`", "all 1 ($\\cos 0$)"),
        ),
        distractors=("all $-1$",),
    )
    right = ("all 1 ($\\cos 0$)", "all $-1$", "all 0 ($\\sin 0$)")
    return Concrete(q, seed=42, right_items=right)


def numeric() -> Concrete:
    q = NumericQuestion(
        id="s-num-sin1",
        bank="sample",
        prompt="What is $\\sin(1)$, to 2 decimals?",
        explanation="$\\sin(1) \\approx 0.8415$.",
        source=SRC,
        answer=math.sin(1.0),
        tolerance=0.005,
        decimals=2,
        unit="(no unit)",
    )
    return Concrete(q, seed=42)


def computed_numeric(count: int = 3) -> Concrete:
    variants = []
    for k in range(count):
        pos, j, d = 1 + 2 * k, k % 4, 8
        value = sin_entry(pos, j, d)
        variants.append(
            model.Variant(
                index=k,
                values={"pos": pos, "j": j, "d": d},
                prompt=f"With $d = {d}$, what is $PE[{pos}, {j}]$? Give 4 decimals.",
                answer=value,
                shown_answer=f"{value:.4f}",
                decimals=4,
                tolerance=0.00005,
                unit=None,
                solution=f"Pair $i = {j // 2}$, angle ${pos} / 10000^{{{2 * (j // 2)}/{d}}}$, "
                f"so the entry is `{value:.4f}`.\n\n"
                f"$$\\omega_{{{j // 2}}} = \\frac{{1}}{{10000^{{{2 * (j // 2)}/{d}}}}}$$\n\n"
                f"$$\\theta = {pos} \\cdot \\omega_{{{j // 2}}}$$",
            )
        )
    q = ComputedQuestion(
        id="s-entry",
        bank="sample",
        prompt="",
        explanation="Even columns hold sines, odd columns cosines of the pair's angle.",
        source=SRC,
        generator="sinusoidal_entry",
    )
    return Concrete(q, seed=42, variants=tuple(variants))


def computed_choice(count: int = 3) -> Concrete:
    variants = []
    for k in range(count):
        pos = 2 + k
        right = pos * 1.0  # column 0 has frequency 1: the angle is the position itself
        degrees = math.degrees(right)
        options = [
            model.ConcreteOption(f"{right:.2f}", True),
            model.ConcreteOption(
                f"{degrees:.2f}",
                False,
                feedback=f"That is {right:.0f} radians in degrees; the formula uses radians.",
                misconception="degrees",
            ),
            model.ConcreteOption(
                f"{pos + 1:.2f}",
                False,
                feedback="Positions count from 0.",
                misconception="position_from_1",
            ),
        ]
        order = [(k + i) % 3 for i in range(3)]
        variants.append(
            model.Variant(
                index=k,
                values={"pos": pos},
                prompt=f"What is the angle of pair 0 at position {pos} (radians)?",
                answer=right,
                shown_answer=f"{right:.2f}",
                decimals=2,
                tolerance=0.005,
                unit="rad",
                solution=f"$\\omega_0 = 1$, so the angle is ${pos} \\cdot 1 = {pos}$.",
                options=tuple(options[i] for i in order),
            )
        )
    q = ComputedQuestion(
        id="s-angle",
        bank="sample",
        prompt="",
        explanation="The angle of pair $i$ is $p / 10000^{2i/d}$.",
        source=SRC,
        generator="sinusoidal_angle",
        answer="choice",
        options=3,
    )
    return Concrete(q, seed=42, variants=tuple(variants))


def output() -> Concrete:
    """An output question; ``expected`` is what its solution prints (the loader runs it)."""
    q = OutputQuestion(
        id="s-print-shape",
        bank="sample",
        prompt="Print the shape of `np.zeros((4, 6))`, then $1/3$ to three decimals.",
        explanation="A shape is a tuple, rows first.",
        source=SRC,
        hint="`.shape`, then `round`.",
        solution="import numpy as np\n\nprint(np.zeros((4, 6)).shape)\nprint(round(1 / 3, 3))\n",
        expected="(4, 6)\n0.333",
        tolerance=0.001,
    )
    return Concrete(q, seed=42)


def ordering() -> Concrete:
    """The steps of one sinusoidal entry; it starts in the order the seed gives."""
    q = OrderingQuestion(
        id="s-order-entry",
        bank="sample",
        prompt="Put the steps of computing $PE[p, 2i]$ in order.",
        explanation="The exponent comes first, then the frequency, the angle and its sine.",
        source=SRC,
        items=(
            "Compute the exponent $2i/d$",
            "Raise the base to it: $10000^{2i/d}$",
            "Divide the position by that: the angle",
            "Take `sin` of the angle",
        ),
        hints=(
            model.Hint("The last step gives the entry itself."),
            model.Hint("The base is raised before anything is divided.", cost=0.5),
        ),
        points=2,
    )
    return make_concrete(q, 42)


def all_samples() -> list[Concrete]:
    """One quiz's worth: every type, computed in both forms."""
    return [
        choice(),
        choice_multiple(),
        fill(),
        matching(),
        numeric(),
        computed_numeric(),
        computed_choice(),
        ordering(),
    ]


def total_points() -> float:
    """What :func:`all_samples` is worth: the score line's total."""
    return sum(c.question.points for c in all_samples())
