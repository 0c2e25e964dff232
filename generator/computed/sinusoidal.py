"""Generators for the fixed sinusoidal encoding (Vaswani et al., 2017).

Conventions (those of :func:`konum.pe.sinusoidal`): positions count from 0; the
interleaved layout puts ``sin(p * omega_k)`` in column ``2k`` and ``cos(p * omega_k)`` in
column ``2k + 1``, with ``omega_k = base**(-2k/d)``; angles are in radians.
"""

from __future__ import annotations

import math

import numpy as np

from konum import pe
from konum.computed.base import (
    BaseGenerator,
    Distractor,
    Generated,
    Values,
    base_param,
    param,
    sig,
    specs,
)
from konum.computed.misconceptions import described
from konum.computed.text import say
from konum.formatting import format_number
from konum.model import Choices, Range

D_EVEN = Range(2, 4096, 2)
POSITION = Range(0, 100_000)
COLUMN = Range(0, 4095)
PAIR = Range(0, 2047)


def _intro(d: int, base: float, language: str = "en", *, columns: bool = False) -> str:
    """The opening of a default prompt: the table's size and base and, when the question
    turns on which column holds what (``columns``), the interleaved layout in a few words.
    The lessons state the rest of the conventions once, above their quizzes."""
    key = "sinusoidal.intro_columns" if columns else "sinusoidal.intro"
    return say(language, key, d=d, base=sig(base))


def _trivial(value: float, decimals: int) -> bool:
    """True when the answer shows as 0 or +-1: a question that needs no computing."""
    text = format_number(value, decimals).lstrip("-")
    return float(text) in (0.0, 1.0)


def _trig(name: str, angle: float) -> float:
    return math.sin(angle) if name == "sin" else math.cos(angle)


class SinusoidalEntry(BaseGenerator):
    name = "sinusoidal_entry"
    title = "One entry PE[pos, j] of the sinusoidal table"
    params = specs(
        param("d", "int", Choices((4, 6, 8, 16)), D_EVEN, "Model dimension (even)."),
        param("pos", "int", Range(1, 50), POSITION, "Position p, counted from 0."),
        param("j", "int", Range(0, 15), COLUMN, "Column j, 0 <= j < d (kept below d)."),
        base_param(),
    )
    default_decimals = 4
    misconceptions = described(
        "i_for_2k",
        "sin_cos_swapped",
        "degrees",
        "position_from_1",
        "layout_mixup",
        "integer_exponent",
        "position_zero_vector",
    )

    def bounds(self, name: str, drawn: Values) -> tuple[float, float] | None:
        return (0, drawn["d"] - 1) if name == "j" else None

    def build(self, v: Values, decimals: int, language: str = "en") -> Generated | None:
        """The entry ``PE[pos, j]``; None for a rounding accident (see below).

        Position 0 is drawn only when a bank asks for it, for the question it makes: its row
        is ``(0, 1, 0, 1, ...)``, not the zero vector. At any other position an answer that
        shows as 0 or +-1 (a tiny angle in a slow pair, or one near a multiple of pi/2) is
        redrawn: it would need no computing.
        """
        d, pos, j, base = v["d"], v["pos"], v["j"], v["base"]
        k = j // 2
        omega = float(pe.sinusoidal_frequencies(d, base=base)[k])
        angle = pos * omega
        answer = float(pe.sinusoidal(np.array([pos]), d, base=base)[0, j])
        if pos != 0 and _trivial(answer, decimals):
            return None
        fn, other = ("sin", "cos") if j % 2 == 0 else ("cos", "sin")
        b = sig(base)
        ans = format_number(answer, decimals)
        wrong_omega = base ** (-2 * j / d)
        concat = float(pe.sinusoidal(np.array([pos]), d, base=base, layout="concat")[0, j])
        half = d // 2
        concat_fn, concat_k = ("sin", j) if j < half else ("cos", j - half)
        even = j % 2 == 0

        def text(key: str, **fields: object) -> str:
            return say(language, f"sinusoidal_entry.{key}", **fields)

        distractors = [
            Distractor(
                _trig(fn, pos * wrong_omega), "i_for_2k", text("i_for_2k", j=j, b=b, d=d, k=k)
            ),
            Distractor(
                _trig(other, angle),
                "sin_cos_swapped",
                text(
                    "sin_cos_swapped",
                    other=other,
                    angle=sig(angle),
                    j=j,
                    parity=text("even" if even else "odd"),
                    fn=fn,
                ),
            ),
            Distractor(
                _trig(fn, math.radians(angle)),
                "degrees",
                text("degrees", angle=sig(angle), fn=fn, ans=ans),
            ),
            Distractor(
                _trig(fn, (pos + 1) * omega),
                "position_from_1",
                text("position_from_1", next=pos + 1, pos=pos, k=k),
            ),
            Distractor(
                concat,
                "layout_mixup",
                text("layout_mixup", j=j, half=half, concat_fn=concat_fn, concat_k=concat_k),
            ),
            Distractor(
                _trig(fn, float(pos)),
                "integer_exponent",
                text("integer_exponent", fn=fn, pos=pos, k=k, d=d, ratio=sig(2 * k / d)),
            ),
        ]
        if pos == 0:  # the belief this position tests comes first
            distractors.insert(
                0, Distractor(0.0, "position_zero_vector", text("position_zero_vector"))
            )
        intro = _intro(d, base, language, columns=True)
        prompt = text("prompt", intro=intro, pos=pos, j=j, decimals=decimals)
        solution = text(
            "solution",
            j=j,
            parity=text("parity_even" if even else "parity_odd"),
            k=k,
            b=b,
            d=d,
            omega=sig(omega),
            pos=pos,
            angle=sig(angle),
            fn=fn,
            ans=ans,
        )
        if pos == 0:
            solution += text("position_zero_solution")
        return self.make(
            v,
            prompt=prompt,
            answer=answer,
            decimals=decimals,
            solution=solution,
            distractors=distractors,
            extra={"k": k, "omega": omega, "angle": angle, "function": fn},
        )


class SinusoidalAngle(BaseGenerator):
    name = "sinusoidal_angle"
    title = "The angle p / base^(2k/d) of pair k"
    params = specs(
        param("d", "int", Choices((8, 16, 32, 64)), D_EVEN, "Model dimension (even)."),
        param("k", "int", Range(1, 7), PAIR, "Pair index k, 0 <= k < d/2."),
        param("pos", "int", Range(1, 100), POSITION, "Position p, counted from 0."),
        base_param(),
    )
    default_decimals = 4
    misconceptions = described(
        "i_for_2k",
        "frequency_inverted",
        "degrees",
        "position_from_1",
        "integer_exponent",
    )

    def bounds(self, name: str, drawn: Values) -> tuple[float, float] | None:
        return (0, drawn["d"] // 2 - 1) if name == "k" else None

    def build(self, v: Values, decimals: int) -> Generated | None:
        d, k, pos, base = v["d"], v["k"], v["pos"], v["base"]
        answer = float(pe.sinusoidal_angles(np.array([pos]), d, base=base)[0, k])
        if float(format_number(answer, decimals)) == 0.0:
            return None
        b = sig(base)
        denom = base ** (2 * k / d)
        ans = format_number(answer, decimals)
        distractors = [
            Distractor(
                pos / base ** (k / d),
                "i_for_2k",
                f"This uses the exponent ${k}/{d}$. The exponent is $2k/d = 2 \\cdot {k}/{d}$: "
                "k counts pairs of columns, not columns.",
            ),
            Distractor(
                pos * denom,
                "frequency_inverted",
                f"This multiplies by ${b}^{{2k/d}} = {sig(denom)}$ (a wavelength factor); the "
                f"angle divides by it: ${pos} / {sig(denom)} = {ans}$.",
            ),
            Distractor(
                math.degrees(answer),
                "degrees",
                f"This converts the angle to degrees. The encoding feeds radians to sine and "
                f"cosine: ${ans}$ rad.",
            ),
            Distractor(
                (pos + 1) / denom,
                "position_from_1",
                f"This is the angle for position {pos + 1}. Positions count from 0, so the "
                f"angle is ${pos} / {sig(denom)}$.",
            ),
            Distractor(
                float(pos),
                "integer_exponent",
                f"This is the angle with exponent 0 (integer division of $2k$ by $d$). The "
                f"exponent is $2 \\cdot {k}/{d} = {sig(2 * k / d)}$.",
            ),
        ]
        prompt = (
            f"{_intro(d, base)}, what is the angle $\\theta = p\\,\\omega_k$, in radians, for "
            f"position $p = {pos}$ and pair $k = {k}$? Round to {decimals} decimals."
        )
        solution = (
            f"$$\\omega_{{{k}}} = {b}^{{-2 \\cdot {k}/{d}}} = \\frac{{1}}{{{sig(denom)}}}"
            f" = {sig(1 / denom)}$$\n\n"
            f"$$\\theta = {pos} \\cdot {sig(1 / denom)} = {ans}$$\n"
        )
        return self.make(
            v,
            prompt=prompt,
            answer=answer,
            decimals=decimals,
            solution=solution,
            distractors=distractors,
            unit="rad",
            extra={"omega": 1 / denom},
        )


class SinusoidalWavelength(BaseGenerator):
    name = "sinusoidal_wavelength"
    title = "The wavelength 2*pi*base^(2k/d) of pair k"
    params = specs(
        param("d", "int", Choices((16, 32, 64, 128)), D_EVEN, "Model dimension (even)."),
        param("k", "int", Range(0, 15), PAIR, "Pair index k, 0 <= k < d/2."),
        base_param(),
    )
    default_decimals = 2
    misconceptions = described(
        "missing_2pi", "i_for_2k", "wavelength_degrees", "frequency_for_wavelength"
    )

    def bounds(self, name: str, drawn: Values) -> tuple[float, float] | None:
        return (0, drawn["d"] // 2 - 1) if name == "k" else None

    def build(self, v: Values, decimals: int) -> Generated | None:
        d, k, base = v["d"], v["k"], v["base"]
        answer = float(pe.sinusoidal_wavelengths(d, base=base)[k])
        b = sig(base)
        factor = base ** (2 * k / d)
        ans = format_number(answer, decimals)
        omega = float(pe.sinusoidal_frequencies(d, base=base)[k])
        distractors = [
            Distractor(
                factor,
                "missing_2pi",
                f"This is ${b}^{{2k/d}} = {sig(factor)}$ without the $2\\pi$: one full turn of "
                f"the angle takes $2\\pi/\\omega_k$ positions, not $1/\\omega_k$.",
            ),
            Distractor(
                2 * math.pi * base ** (k / d),
                "i_for_2k",
                f"This uses the exponent $k/d = {k}/{d}$; pair $k$ uses $2k/d = {2 * k}/{d}$.",
            ),
            Distractor(
                360 * factor,
                "wavelength_degrees",
                "This takes a full turn as 360. The angle is in radians, so a full turn is "
                f"$2\\pi$: $2\\pi \\cdot {sig(factor)} = {ans}$.",
            ),
            Distractor(
                omega,
                "frequency_for_wavelength",
                f"This is the angular frequency $\\omega_{{{k}}}$ (radians per position). The "
                f"wavelength is its reciprocal times $2\\pi$.",
            ),
        ]
        prompt = (
            f"{_intro(d, base)}, after how many positions does pair $k = {k}$ complete one "
            f"full cycle (its wavelength)? Round to {decimals} decimals."
        )
        solution = (
            f"$$\\lambda_{{{k}}} = \\frac{{2\\pi}}{{\\omega_{{{k}}}}} = 2\\pi \\cdot "
            f"{b}^{{2 \\cdot {k}/{d}}} = 2\\pi \\cdot {sig(factor)} = {ans}$$\n"
        )
        return self.make(
            v,
            prompt=prompt,
            answer=answer,
            decimals=decimals,
            solution=solution,
            distractors=distractors,
            unit="positions",
            extra={"omega": omega},
        )


class FasterDimension(BaseGenerator):
    name = "faster_dimension"
    title = "Which of two columns oscillates faster"
    params = specs(
        param("d", "int", Choices((8, 16, 32, 64)), D_EVEN, "Model dimension (even)."),
        param("j1", "int", Range(0, 63), COLUMN, "First column (kept below d)."),
        param("j2", "int", Range(0, 63), COLUMN, "Second column, in another pair than j1."),
        base_param(),
    )
    default_decimals = 0
    misconceptions = described("fast_slow_reversed", "pair_for_column")

    def bounds(self, name: str, drawn: Values) -> tuple[float, float] | None:
        return (0, drawn["d"] - 1) if name in ("j1", "j2") else None

    def build(self, v: Values, decimals: int) -> Generated | None:
        d, j1, j2, base = v["d"], v["j1"], v["j2"], v["base"]
        if j1 // 2 == j2 // 2:  # same pair: same frequency, no answer
            return None
        omega = pe.sinusoidal_frequencies(d, base=base)
        w1, w2 = float(omega[j1 // 2]), float(omega[j2 // 2])
        fast, slow = (j1, j2) if w1 > w2 else (j2, j1)
        lam = pe.sinusoidal_wavelengths(d, base=base)
        distractors = [
            Distractor(
                float(slow),
                "fast_slow_reversed",
                f"Column {slow} is the slower one: its pair $k = {slow // 2}$ has the longer "
                f"wavelength. Frequencies $\\omega_k = {sig(base)}^{{-2k/d}}$ shrink as the "
                "column index grows.",
            ),
            Distractor(
                float(fast // 2),
                "pair_for_column",
                f"{fast // 2} is the pair index of column {fast}; the question asks for the "
                "column.",
            ),
        ]
        prompt = (
            f"{_intro(d, base, columns=True)}, which column oscillates faster as the "
            "position grows: "
            f"$j = {j1}$ or $j = {j2}$? Answer with the column number."
        )
        rows = []
        for j, w in ((j1, w1), (j2, w2)):
            k = j // 2
            rows.append(
                f"Column ${j}$ is in pair $k = {k}$: $\\omega_{{{k}}} = {sig(base)}^{{-2 \\cdot "
                f"{k}/{d}}} = {sig(w)}$, a wavelength of ${sig(float(lam[k]), 5)}$ positions."
            )
        solution = (
            "\n\n".join(rows)
            + f"\n\nThe larger frequency turns faster, so the answer is column ${fast}$: "
            "the lower the pair index, the faster the column.\n"
        )
        return self.make(
            v,
            prompt=prompt,
            answer=float(fast),
            decimals=decimals,
            solution=solution,
            distractors=distractors,
            exact=True,
            extra={"slow": slow},
        )


def _terms(values: list[str]) -> str:
    """``a + b + ... + z``, shortened with ``\\cdots`` when long."""
    if len(values) > 8:
        values = [*values[:3], "\\cdots", values[-1]]
    return " + ".join(values).replace("+ -", "- ")


class SinusoidalDot(BaseGenerator):
    name = "sinusoidal_dot"
    title = "The dot product PE[p] . PE[q], a function of p - q"
    params = specs(
        param("d", "int", Choices((4, 6, 8)), D_EVEN, "Model dimension (even)."),
        param("p", "int", Range(0, 30), POSITION, "First position."),
        param("q", "int", Range(0, 30), POSITION, "Second position (differs from p)."),
        base_param(),
    )
    default_decimals = 3
    misconceptions = described("sum_not_difference", "sin_only", "degrees", "i_for_2k")

    def build(self, v: Values, decimals: int) -> Generated | None:
        d, p, q, base = v["d"], v["p"], v["q"], v["base"]
        if p == q:  # the squared norm d/2: no computing needed
            return None
        rows = pe.sinusoidal(np.array([p, q]), d, base=base)
        answer = float(rows[0] @ rows[1])
        omega = pe.sinusoidal_frequencies(d, base=base)
        delta = p - q
        cosines = np.cos(omega * delta)
        ans = format_number(answer, decimals)
        k_half = np.arange(d // 2)
        distractors = [
            Distractor(
                float(np.sum(np.cos(omega * (p + q)))),
                "sum_not_difference",
                f"This sums $\\cos(\\omega_k (p + q))$ with $p + q = {p + q}$. The product "
                "$\\sin a \\sin b + \\cos a \\cos b$ is $\\cos(a - b)$: only the difference "
                f"$p - q = {delta}$ matters.",
            ),
            Distractor(
                float(np.sum(np.sin(omega * p) * np.sin(omega * q))),
                "sin_only",
                "This keeps only the sine columns. Every pair has a cosine column too, and "
                "together they give $\\cos(\\omega_k (p - q))$.",
            ),
            Distractor(
                float(np.sum(np.cos(np.radians(omega * delta)))),
                "degrees",
                "This takes the angles $\\omega_k (p - q)$ as degrees; they are radians.",
            ),
            Distractor(
                float(np.sum(np.cos(delta / base ** (k_half / d)))),
                "i_for_2k",
                "This uses the exponent $k/d$ instead of $2k/d$ for the frequencies.",
            ),
        ]
        prompt = (
            f"{_intro(d, base)}, what is the dot product $PE_{{{p}}} \\cdot PE_{{{q}}}$ of the "
            f"encodings of positions {p} and {q}? Round to {decimals} decimals."
        )
        term_text = _terms([sig(float(c), 4) for c in cosines])
        solution = (
            "Each pair contributes $\\sin(\\omega_k p)\\sin(\\omega_k q) + "
            "\\cos(\\omega_k p)\\cos(\\omega_k q) = \\cos(\\omega_k (p - q))$, so only "
            f"$p - q = {delta}$ matters:\n\n"
            f"$$PE_{{{p}}} \\cdot PE_{{{q}}} = \\sum_{{k=0}}^{{{d // 2 - 1}}} "
            f"\\cos\\left({delta} \\cdot {sig(base)}^{{-2k/{d}}}\\right)$$\n\n"
            f"$$= {term_text} = {ans}$$\n"
        )
        return self.make(
            v,
            prompt=prompt,
            answer=answer,
            decimals=decimals,
            solution=solution,
            distractors=distractors,
            extra={"difference": delta},
        )


class ShiftMatrixEntry(BaseGenerator):
    name = "shift_matrix_entry"
    title = "An entry of the 2x2 rotation taking PE[p] to PE[p + offset]"
    params = specs(
        param("d", "int", Choices((8, 16)), D_EVEN, "Model dimension (even)."),
        param("k", "int", Range(0, 2), PAIR, "Pair index k, 0 <= k < d/2."),
        param("offset", "int", Range(1, 30), Range(-100_000, 100_000), "The shift in positions."),
        param("row", "int", Choices((0, 1)), Choices((0, 1)), "Row of the 2x2 block (0 or 1)."),
        param("col", "int", Choices((0, 1)), Choices((0, 1)), "Column of the block (0 or 1)."),
        base_param(),
    )
    default_decimals = 4
    misconceptions = described("rotation_direction", "sin_cos_swapped", "degrees", "i_for_2k")

    def bounds(self, name: str, drawn: Values) -> tuple[float, float] | None:
        return (0, drawn["d"] // 2 - 1) if name == "k" else None

    def build(self, v: Values, decimals: int) -> Generated | None:
        d, k, offset, row, col, base = (v[n] for n in ("d", "k", "offset", "row", "col", "base"))
        matrix = pe.sinusoidal_shift_matrix(offset, d, base=base)
        answer = float(matrix[2 * k + row, 2 * k + col])
        if _trivial(answer, decimals):
            return None
        omega = float(pe.sinusoidal_frequencies(d, base=base)[k])
        phi = omega * offset

        def block(angle: float) -> list[list[float]]:
            return [[math.cos(angle), math.sin(angle)], [-math.sin(angle), math.cos(angle)]]

        def swapped(angle: float) -> list[list[float]]:
            return [[math.sin(angle), math.cos(angle)], [-math.cos(angle), math.sin(angle)]]

        symbols = [["\\cos\\varphi", "\\sin\\varphi"], ["-\\sin\\varphi", "\\cos\\varphi"]]
        ans = format_number(answer, decimals)
        j = 2 * k + col
        distractors = [
            Distractor(
                block(phi)[col][row],
                "rotation_direction",
                "This is the entry of $R(\\varphi)$, the counterclockwise rotation that moves "
                "the point $(\\cos \\omega_k p, \\sin \\omega_k p)$ forward. The table "
                "stores the sine first, and in that order $R(\\varphi)$ moves the pair back by "
                "the offset; the step forward is its transpose $R(\\varphi)^\\top$. Check it "
                "against $\\sin(a + b) = \\sin a \\cos b + \\cos a \\sin b$.",
            ),
            Distractor(
                swapped(phi)[row][col],
                "sin_cos_swapped",
                f"This swaps sine and cosine. Entry $({row}, {col})$ of the block is "
                f"${symbols[row][col]}$.",
            ),
            Distractor(
                block(math.radians(phi))[row][col],
                "degrees",
                f"This takes $\\varphi = {sig(phi)}$ as degrees; it is in radians.",
            ),
            Distractor(
                block(offset * base ** (-2 * j / d))[row][col],
                "i_for_2k",
                f"This uses the column index {j} as the pair index in the frequency. Pair "
                f"$k = {k}$ has $\\omega_{{{k}}} = {sig(base)}^{{-2 \\cdot {k}/{d}}}$.",
            ),
        ]
        prompt = (
            f"{_intro(d, base)}, shifting by $o = {offset}$ positions maps the pair "
            f"$(\\sin \\omega_k p, \\cos \\omega_k p)$ to "
            f"$(\\sin \\omega_k (p + o), \\cos \\omega_k (p + o))$ by a $2 \\times 2$ matrix "
            f"$M$ that does not depend on $p$. For pair $k = {k}$, what is the entry "
            f"$M_{{{row},{col}}}$ (row {row}, column {col}, counting from 0)? "
            f"Round to {decimals} decimals."
        )
        entry = symbols[row][col].replace("varphi", f"left({sig(phi)}\\right)")
        solution = (
            "By the angle-addition formulas, with $\\varphi = \\omega_k o$, the block is "
            "$R(\\varphi)^\\top$ (the sine comes first in the table):\n\n"
            "$$\\begin{pmatrix} \\sin \\omega_k (p+o) \\\\ \\cos \\omega_k (p+o) \\end{pmatrix}"
            " = \\begin{pmatrix} \\cos\\varphi & \\sin\\varphi \\\\ -\\sin\\varphi & "
            "\\cos\\varphi \\end{pmatrix} \\begin{pmatrix} \\sin \\omega_k p \\\\ "
            "\\cos \\omega_k p \\end{pmatrix}$$\n\n"
            f"$$\\omega_{{{k}}} = {sig(base)}^{{-2 \\cdot {k}/{d}}} = {sig(omega)}, \\quad "
            f"\\varphi = {offset} \\cdot {sig(omega)} = {sig(phi)}$$\n\n"
            f"$$M_{{{row},{col}}} = {entry} = {ans}$$\n"
        )
        return self.make(
            v,
            prompt=prompt,
            answer=answer,
            decimals=decimals,
            solution=solution,
            distractors=distractors,
            extra={"omega": omega, "phi": phi},
        )


GENERATORS = (
    SinusoidalEntry(),
    SinusoidalAngle(),
    SinusoidalWavelength(),
    FasterDimension(),
    SinusoidalDot(),
    ShiftMatrixEntry(),
)
