"""Generators for position in images: the MAE / ViT 2-D sin-cos embedding.

Conventions (those of :func:`konum_pe.pe.sincos_2d`): patches are numbered row-major; the
first ``d/2`` channels encode the column coordinate and the last ``d/2`` the row coordinate,
each as a 1-D sinusoidal encoding of dimension ``d/2`` in the concat layout (``d/4`` sines,
then ``d/4`` cosines, frequency ``base**(-2k/(d/2))``).
"""

from __future__ import annotations

import math

import numpy as np

from konum.computed import BaseGenerator, Distractor, Generated, Values, param, sig, specs
from konum.formatting import format_number
from konum.model import Choices, Range
from konum_pe import pe
from konum_pe.generators.common import base_param, trig
from konum_pe.misconceptions import described
from konum_pe.text import speaker


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

    def build(self, v: Values, decimals: int, language: str = "en") -> Generated | None:
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

        text = speaker(language, "sincos_2d_entry")

        distractors = [
            Distractor(
                trig(fn, other_coord * omega),
                "axes_swapped",
                text(
                    "axes_swapped_second" if second else "axes_swapped_first",
                    other=other_coord,
                    channel=channel,
                ),
            ),
            Distractor(interleaved, "layout_mixup", text("layout_mixup", quarter=quarter)),
            Distractor(
                trig(other_fn, angle),
                "sin_cos_swapped",
                text(f"sin_cos_swapped_{fn}", other_fn=other_fn, within=within, quarter=quarter),
            ),
            Distractor(flat, "flat_1d", text("flat_1d", token=token, d=d)),
            Distractor(trig(fn, math.radians(angle)), "degrees", text("degrees", angle=sig(angle))),
        ]
        prompt = text(
            "prompt", grid=grid, d=d, b=b, channel=channel, row=row, col=col, decimals=decimals
        )
        solution = text(
            f"solution_{axis}",
            last=half - 1,
            half=half,
            d1=d - 1,
            quarter=quarter,
            channel=channel,
            within=within,
            fn=fn,
            k=k,
            coord=coord,
            b=b,
            omega=sig(omega),
            angle=sig(angle),
            ans=ans,
        )
        extra = {"axis": axis, "coordinate": coord, "k": k, "omega": omega, "token": token}
        return self.make(v, prompt, answer, decimals, solution, distractors, extra=extra)


GENERATORS = (SinCos2dEntry(),)
