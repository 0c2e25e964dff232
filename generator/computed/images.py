"""Generators for position in images: the MAE / ViT 2-D sin-cos embedding.

Conventions (those of :func:`konum.pe.sincos_2d`): patches are numbered row-major; the
first ``d/2`` channels encode the column coordinate and the last ``d/2`` the row coordinate,
each as a 1-D sinusoidal encoding of dimension ``d/2`` in the concat layout (``d/4`` sines,
then ``d/4`` cosines, frequency ``base**(-2k/(d/2))``).
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
from konum.formatting import format_number
from konum.model import Choices, Range


def _trig(name: str, angle: float) -> float:
    return math.sin(angle) if name == "sin" else math.cos(angle)


class SinCos2dEntry(BaseGenerator):
    name = "sincos_2d_entry"
    title = "One channel of the MAE 2-D sin-cos embedding of a patch"
    params = specs(
        param("grid", "int", Choices((4, 8, 14)), Range(1, 64), "Patches per side."),
        param("row", "int", Range(0, 13), Range(0, 63), "Patch row, 0 <= row < grid."),
        param("col", "int", Range(0, 13), Range(0, 63), "Patch column, 0 <= col < grid."),
        param("d", "int", Choices((16, 32)), Range(4, 1024, 4), "Embedding dim (multiple of 4)."),
        param("channel", "int", Range(0, 31), Range(0, 1023), "Channel, 0 <= channel < d."),
        base_param(),
    )
    default_decimals = 4
    misconceptions = described(
        "axes_swapped", "layout_mixup", "sin_cos_swapped", "flat_1d", "degrees"
    )

    def bounds(self, name: str, drawn: Values) -> tuple[float, float] | None:
        if name in ("row", "col"):
            return (0, drawn["grid"] - 1)
        if name == "channel":
            return (0, drawn["d"] - 1)
        return None

    def build(self, v: Values, decimals: int) -> Generated | None:
        grid, row, col, d, channel, base = (
            v[x] for x in ("grid", "row", "col", "d", "channel", "base")
        )
        token = row * grid + col
        # A patch's embedding depends on its (row, col) only, not on the grid size: use the
        # smallest grid that contains it.
        small = pe.sincos_2d(row + 1, col + 1, d, base=base)
        answer = float(small[row * (col + 1) + col, channel])
        if float(format_number(answer, decimals).lstrip("-")) in (0.0, 1.0):
            return None
        half, quarter = d // 2, d // 4
        second = channel >= half
        axis, coord, other_coord = ("row", row, col) if second else ("column", col, row)
        within = channel - half if second else channel
        fn, other_fn = ("sin", "cos") if within < quarter else ("cos", "sin")
        k = within % quarter
        omega = float(pe.sinusoidal_frequencies(half, base=base)[k])
        angle = coord * omega
        ans = format_number(answer, decimals)
        b = sig(base)
        flat = float(pe.sinusoidal(np.array([token]), d, base=base)[0, channel])
        interleaved = float(pe.sinusoidal(np.array([coord]), half, base=base)[0, within])
        distractors = [
            Distractor(
                _trig(fn, other_coord * omega),
                "axes_swapped",
                f"This encodes the {'column' if second else 'row'} coordinate {other_coord}. "
                "MAE's first half of the channels encodes the column (width) coordinate, the "
                f"second half the row; channel {channel} is in the "
                f"{'second' if second else 'first'} half.",
            ),
            Distractor(
                interleaved,
                "layout_mixup",
                f"This reads the half as interleaved (sine, cosine, sine, ...). MAE's 1-D "
                f"helper puts the {quarter} sines first, then the {quarter} cosines.",
            ),
            Distractor(
                _trig(other_fn, angle),
                "sin_cos_swapped",
                f"This is $\\{other_fn}$; within its half, channel {within} is among the "
                f"{'first' if fn == 'sin' else 'last'} {quarter}, the "
                f"{'sines' if fn == 'sin' else 'cosines'}.",
            ),
            Distractor(
                flat,
                "flat_1d",
                f"This encodes the flattened index {token} with the 1-D encoding of dimension "
                f"{d}. The 2-D embedding encodes row and column separately, each with half the "
                "channels.",
            ),
            Distractor(
                _trig(fn, math.radians(angle)),
                "degrees",
                f"This takes the angle ${sig(angle)}$ as degrees; it is in radians.",
            ),
        ]
        prompt = (
            f"An image is cut into a ${grid} \\times {grid}$ grid of patches and each patch gets "
            f"the fixed 2-D sin-cos embedding of MAE with $d = {d}$ channels and base ${b}$. "
            f"What is channel {channel} (counted from 0) of the embedding of the patch in row "
            f"{row}, column {col}? Round to {decimals} decimals."
        )
        solution = (
            f"Channels 0 to {half - 1} encode the column coordinate and {half} to {d - 1} the "
            f"row coordinate, each with a 1-D encoding of dimension {half}: first {quarter} "
            f"sines, then {quarter} cosines.\n\n"
            f"Channel {channel} is channel {within} of the {axis} half, so it is "
            f"$\\{fn}$ with frequency index $k = {k}$ of the {axis} coordinate ${coord}$:\n\n"
            f"$$\\omega_{{{k}}} = {b}^{{-2 \\cdot {k}/{half}}} = {sig(omega)}$$\n\n"
            f"$$\\{fn}({coord} \\cdot {sig(omega)}) = \\{fn}({sig(angle)}) = {ans}$$\n"
        )
        return self.make(
            v,
            prompt=prompt,
            answer=answer,
            decimals=decimals,
            solution=solution,
            distractors=distractors,
            extra={"axis": axis, "coordinate": coord, "k": k, "omega": omega, "token": token},
        )


GENERATORS = (SinCos2dEntry(),)
