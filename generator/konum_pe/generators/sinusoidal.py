"""Generators for the fixed sinusoidal encoding (Vaswani et al., 2017).

Conventions (those of :func:`konum_pe.pe.sinusoidal`): positions count from 0; the
interleaved layout puts ``sin(p * omega_k)`` in column ``2k`` and ``cos(p * omega_k)`` in
column ``2k + 1``, with ``omega_k = base**(-2k/d)``; angles are in radians.
"""

from __future__ import annotations

import math

import numpy as np

from konum.computed import BOOL, BaseGenerator, Distractor, Generated, Values, param, sig, specs
from konum.formatting import format_number
from konum.model import Choices, Range
from konum_pe import pe
from konum_pe.generators.common import PairIndexed, base_param, trig, varied
from konum_pe.misconceptions import described
from konum_pe.text import say, speaker

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

        text = speaker(language, "sinusoidal_entry")

        distractors = [
            Distractor(
                trig(fn, pos * wrong_omega), "i_for_2k", text("i_for_2k", j=j, b=b, d=d, k=k)
            ),
            Distractor(
                trig(other, angle),
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
                trig(fn, math.radians(angle)),
                "degrees",
                text("degrees", angle=sig(angle), fn=fn, ans=ans),
            ),
            Distractor(
                trig(fn, (pos + 1) * omega),
                "position_from_1",
                text("position_from_1", next=pos + 1, pos=pos, k=k),
            ),
            Distractor(
                concat,
                "layout_mixup",
                text("layout_mixup", j=j, half=half, concat_fn=concat_fn, concat_k=concat_k),
            ),
            Distractor(
                trig(fn, float(pos)),
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
        extra = {"k": k, "omega": omega, "angle": angle, "function": fn}
        return self.make(v, prompt, answer, decimals, solution, distractors, extra=extra)


class SinusoidalAngle(PairIndexed, BaseGenerator):
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
        "pair_from_1",
        "frequency_inverted",
        "turns_for_radians",
        "degrees",
        "position_from_1",
        "integer_exponent",
    )

    def build(self, v: Values, decimals: int, language: str = "en") -> Generated | None:
        d, k, pos, base = v["d"], v["k"], v["pos"], v["base"]
        answer = float(pe.sinusoidal_angles(np.array([pos]), d, base=base)[0, k])
        if float(format_number(answer, decimals)) == 0.0:
            return None
        b = sig(base)
        denom = base ** (2 * k / d)
        ans = format_number(answer, decimals)
        den = sig(denom)

        text = speaker(language, "sinusoidal_angle")

        # Mistakes that give a smaller angle alternate with those that give a larger one.
        distractors = varied(
            [
                Distractor(pos / base ** (k / d), "i_for_2k", text("i_for_2k", k=k, d=d)),
                Distractor(
                    pos / base ** (2 * (k + 1) / d),
                    "pair_from_1",
                    text("pair_from_1", k=k, next=k + 1, d=d),
                ),
                Distractor(
                    pos * denom,
                    "frequency_inverted",
                    text("frequency_inverted", b=b, denom=den, pos=pos, ans=ans),
                ),
                Distractor(
                    answer / (2 * math.pi), "turns_for_radians", text("turns_for_radians", ans=ans)
                ),
                Distractor(math.degrees(answer), "degrees", text("degrees", ans=ans)),
                Distractor(
                    (pos + 1) / denom,
                    "position_from_1",
                    text("position_from_1", next=pos + 1, pos=pos, denom=den),
                ),
                Distractor(
                    float(pos),
                    "integer_exponent",
                    text("integer_exponent", k=k, d=d, ratio=sig(2 * k / d)),
                ),
            ],
            answer,
            d,
            k,
            pos,
        )
        prompt = text("prompt", intro=_intro(d, base, language), pos=pos, k=k, decimals=decimals)
        solution = text(
            "solution", k=k, b=b, d=d, denom=den, omega=sig(1 / denom), pos=pos, ans=ans
        )
        extra = {"omega": 1 / denom}
        unit = say(language, "units.rad")
        return self.make(v, prompt, answer, decimals, solution, distractors, unit=unit, extra=extra)


class SinusoidalWavelength(PairIndexed, BaseGenerator):
    name = "sinusoidal_wavelength"
    title = "The wavelength 2*pi*base^(2k/d) of pair k"
    params = specs(
        param("d", "int", Choices((16, 32, 64, 128)), D_EVEN, "Model dimension (even)."),
        param("k", "int", Range(0, 15), PAIR, "Pair index k, 0 <= k < d/2."),
        base_param(),
    )
    default_decimals = 2
    misconceptions = described(
        "missing_2pi",
        "i_for_2k",
        "wavelength_degrees",
        "frequency_for_wavelength",
        "pair_from_1",
        "odd_column_exponent",
    )

    def build(self, v: Values, decimals: int, language: str = "en") -> Generated | None:
        d, k, base = v["d"], v["k"], v["base"]
        answer = float(pe.sinusoidal_wavelengths(d, base=base)[k])
        b = sig(base)
        factor = base ** (2 * k / d)
        ans = format_number(answer, decimals)
        omega = float(pe.sinusoidal_frequencies(d, base=base)[k])

        text = speaker(language, "sinusoidal_wavelength")

        distractors = [
            Distractor(factor, "missing_2pi", text("missing_2pi", b=b, factor=sig(factor))),
            Distractor(
                2 * math.pi * base ** (k / d), "i_for_2k", text("i_for_2k", k=k, d=d, k2=2 * k)
            ),
            Distractor(
                360 * factor,
                "wavelength_degrees",
                text("wavelength_degrees", factor=sig(factor), ans=ans),
            ),
            Distractor(omega, "frequency_for_wavelength", text("frequency_for_wavelength", k=k)),
            Distractor(
                2 * math.pi * base ** (2 * (k + 1) / d),
                "pair_from_1",
                text("pair_from_1", k=k, next=k + 1, d=d),
            ),
            Distractor(
                2 * math.pi * base ** ((2 * k + 1) / d),
                "odd_column_exponent",
                text("odd_column_exponent", k=k, odd=2 * k + 1, k2=2 * k, d=d),
            ),
        ]
        distractors = varied(distractors, answer, d, k, base)
        prompt = text("prompt", intro=_intro(d, base, language), k=k, decimals=decimals)
        solution = text("solution", k=k, b=b, d=d, factor=sig(factor), ans=ans)
        extra = {"omega": omega}
        unit = say(language, "units.positions")
        return self.make(v, prompt, answer, decimals, solution, distractors, unit=unit, extra=extra)


class FasterDimension(BaseGenerator):
    name = "faster_dimension"
    title = "Which of two columns oscillates faster (or more slowly)"
    params = specs(
        param("d", "int", Choices((8, 16, 32, 64)), D_EVEN, "Model dimension (even)."),
        param("j1", "int", Range(0, 63), COLUMN, "First column (kept below d)."),
        param("j2", "int", Range(0, 63), COLUMN, "Second column, in another pair than j1."),
        param("slower", "bool", Choices((False,)), BOOL, "Ask for the slower column instead."),
        base_param(),
    )
    default_decimals = 0
    misconceptions = described("fast_slow_reversed", "pair_for_column")

    def bounds(self, name: str, drawn: Values) -> tuple[float, float] | None:
        return (0, drawn["d"] - 1) if name in ("j1", "j2") else None

    def build(self, v: Values, decimals: int, language: str = "en") -> Generated | None:
        d, j1, j2, base, slower = v["d"], v["j1"], v["j2"], v["base"], v["slower"]
        if j1 // 2 == j2 // 2:  # same pair: same frequency, no answer
            return None
        omega = pe.sinusoidal_frequencies(d, base=base)
        w1, w2 = float(omega[j1 // 2]), float(omega[j2 // 2])
        fast, slow = (j1, j2) if w1 > w2 else (j2, j1)
        answer, other = (slow, fast) if slower else (fast, slow)
        lam = pe.sinusoidal_wavelengths(d, base=base)
        b = sig(base)
        ask = "_slower" if slower else ""

        text = speaker(language, "faster_dimension")

        distractors = [
            Distractor(
                float(other),
                "fast_slow_reversed",
                text(f"fast_slow_reversed{ask}", other=other, pair=other // 2, b=b),
            ),
            Distractor(
                float(answer // 2),
                "pair_for_column",
                text("pair_for_column", pair=answer // 2, column=answer),
            ),
        ]
        prompt = text(f"prompt{ask}", intro=_intro(d, base, language, columns=True), j1=j1, j2=j2)
        rows = [
            text(
                "row",
                j=j,
                k=j // 2,
                b=b,
                d=d,
                omega=sig(w),
                wavelength=sig(float(lam[j // 2]), 5),
            )
            for j, w in ((j1, w1), (j2, w2))
        ]
        solution = "\n\n".join(rows) + "\n\n" + text(f"conclusion{ask}", answer=answer)
        extra = {"other": other}
        return self.make(
            v, prompt, float(answer), decimals, solution, distractors, exact=True, extra=extra
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

    def build(self, v: Values, decimals: int, language: str = "en") -> Generated | None:
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

        text = speaker(language, "sinusoidal_dot")

        distractors = [
            Distractor(
                float(np.sum(np.cos(omega * (p + q)))),
                "sum_not_difference",
                text("sum_not_difference", sum=p + q, delta=delta),
            ),
            Distractor(
                float(np.sum(np.sin(omega * p) * np.sin(omega * q))), "sin_only", text("sin_only")
            ),
            Distractor(
                float(np.sum(np.cos(np.radians(omega * delta)))), "degrees", text("degrees")
            ),
            Distractor(
                float(np.sum(np.cos(delta / base ** (k_half / d)))), "i_for_2k", text("i_for_2k")
            ),
        ]
        prompt = text("prompt", intro=_intro(d, base, language), p=p, q=q, decimals=decimals)
        solution = text(
            "solution",
            delta=delta,
            p=p,
            q=q,
            last=d // 2 - 1,
            b=sig(base),
            d=d,
            terms=_terms([sig(float(c), 4) for c in cosines]),
            ans=ans,
        )
        extra = {"difference": delta}
        return self.make(v, prompt, answer, decimals, solution, distractors, extra=extra)


class ShiftMatrixEntry(PairIndexed, BaseGenerator):
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

    def build(self, v: Values, decimals: int, language: str = "en") -> Generated | None:
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

        text = speaker(language, "shift_matrix_entry")

        symbols = [["\\cos\\varphi", "\\sin\\varphi"], ["-\\sin\\varphi", "\\cos\\varphi"]]
        ans = format_number(answer, decimals)
        j = 2 * k + col
        b = sig(base)
        distractors = [
            Distractor(block(phi)[col][row], "rotation_direction", text("rotation_direction")),
            Distractor(
                swapped(phi)[row][col],
                "sin_cos_swapped",
                text("sin_cos_swapped", row=row, col=col, symbol=symbols[row][col]),
            ),
            Distractor(
                block(math.radians(phi))[row][col], "degrees", text("degrees", phi=sig(phi))
            ),
            Distractor(
                block(offset * base ** (-2 * j / d))[row][col],
                "i_for_2k",
                text("i_for_2k", j=j, k=k, b=b, d=d),
            ),
        ]
        prompt = text(
            "prompt",
            intro=_intro(d, base, language),
            offset=offset,
            k=k,
            row=row,
            col=col,
            decimals=decimals,
        )
        entry = symbols[row][col].replace("varphi", f"left({sig(phi)}\\right)")
        solution = text(
            "solution",
            k=k,
            b=b,
            d=d,
            omega=sig(omega),
            offset=offset,
            phi=sig(phi),
            row=row,
            col=col,
            entry=entry,
            ans=ans,
        )
        extra = {"omega": omega, "phi": phi}
        return self.make(v, prompt, answer, decimals, solution, distractors, extra=extra)


GENERATORS = (
    SinusoidalEntry(),
    SinusoidalAngle(),
    SinusoidalWavelength(),
    FasterDimension(),
    SinusoidalDot(),
    ShiftMatrixEntry(),
)
