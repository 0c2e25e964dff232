"""Generators for ALiBi (Press et al., 2022): head slopes and bias entries.

Conventions (those of :func:`konum_pe.pe.alibi_slopes` and :func:`konum_pe.pe.alibi_bias`):
heads are numbered from 1 in prompts; the slope rule is the paper's ``get_slopes``, including
its interpolation for head counts that are not powers of two; the bias of query ``i`` for key
``j`` is ``-m * (i - j)`` (causal, ``j <= i``) or ``-m * |i - j|`` (bidirectional).
"""

from __future__ import annotations

import numpy as np

from konum.computed import (
    BOOL,
    BaseGenerator,
    Distractor,
    Generated,
    ParamSpec,
    Values,
    param,
    sig,
    specs,
)
from konum.formatting import format_number
from konum.model import Choices, Range
from konum_pe import pe
from konum_pe.generators.common import varied
from konum_pe.misconceptions import described
from konum_pe.text import say, speaker

HEADS = Range(1, 256)
POSITION = Range(0, 100_000)


def _slope_steps(heads: int, head: int, language: str = "en") -> tuple[str, float]:
    """The worked derivation of slope ``head`` of ``heads`` (Markdown) and its exponent."""

    def text(key: str, **fields: object) -> str:
        return say(language, f"alibi.{key}", **fields) + "\n\n"

    p = 1 << (heads.bit_length() - 1)
    if p == heads:
        exponent = 8 * head / heads
        return text("power_of_two", heads=heads, head=head, exponent=sig(exponent)), exponent
    rest = (
        say(language, "alibi.rest_one", head=heads, p2=2 * p)
        if heads - p == 1
        else say(language, "alibi.rest_many", first=p + 1, last=heads, p2=2 * p)
    )
    steps = text("not_power_of_two", heads=heads, p=p, rest=rest)
    if head <= p:
        exponent = 8 * head / p
        steps += text("first_block", head=head, p=p, exponent=sig(exponent))
    else:
        extra = head - p
        odd = 2 * extra - 1
        exponent = 8 * odd / (2 * p)
        steps += text(
            "extra_head", head=head, extra=extra, odd=odd, p2=2 * p, exponent=sig(exponent)
        )
    return steps, exponent


def _heads(counts: tuple[int, ...]) -> tuple[ParamSpec, ParamSpec]:
    """The ``heads`` parameter (n, drawn from ``counts``) and ``head`` (h, counted from 1,
    drawn up to the largest count; each generator's ``bounds`` keeps it <= heads)."""
    return (
        param("heads", "int", Choices(counts), HEADS, "Number of heads n."),
        param(
            "head", "int", Range(1, max(counts)), HEADS, "Head h, counted from 1 (kept <= heads)."
        ),
    )


class AlibiSlope(BaseGenerator):
    name = "alibi_slope"
    title = "The ALiBi slope of head h of n (powers of two and not)"
    params = specs(
        *_heads((4, 6, 8, 12, 16)),
    )
    default_decimals = 4
    misconceptions = described(
        "alibi_naive_slope",
        "alibi_sorted",
        "alibi_fixed_ratio",
        "alibi_head_order",
        "head_off_by_one",
    )

    def bounds(self, name: str, drawn: Values) -> tuple[float, float] | None:
        return (1, drawn["heads"]) if name == "head" else None

    def build(self, v: Values, decimals: int, language: str = "en") -> Generated | None:
        heads, head = v["heads"], v["head"]
        slopes = pe.alibi_slopes(heads)
        answer = float(slopes[head - 1])
        ans = format_number(answer, decimals)
        # h counted from 0 in 2^(-8h/n) reads the slope of head h - 1 (h + 1 for head 1).
        neighbour = head - 1 if head > 1 else head + 1

        text = speaker(language, "alibi_slope")

        distractors = [
            Distractor(
                2.0 ** (-8 * head / heads),
                "alibi_naive_slope",
                text("alibi_naive_slope", head=head, heads=heads),
            ),
            Distractor(
                float(np.sort(slopes)[::-1][head - 1]), "alibi_sorted", text("alibi_sorted")
            ),
            Distractor(2.0 ** (-head), "alibi_fixed_ratio", text("alibi_fixed_ratio", head=head)),
            Distractor(
                float(slopes[heads - head]),
                "alibi_head_order",
                text("alibi_head_order", reversed=heads - head + 1),
            ),
            Distractor(
                float(slopes[neighbour - 1]),
                "head_off_by_one",
                text("head_off_by_one", neighbour=neighbour),
            ),
        ]
        steps, exponent = _slope_steps(heads, head, language)
        listing = ""
        if heads <= 16:
            shown = ", ".join(f"${sig(float(s), 4)}$" for s in slopes)
            listing = text("listing", heads=heads, slopes=shown) + "\n\n"
        prompt = text("prompt", heads=heads, head=head, decimals=decimals)
        solution = steps + text("power", exponent=sig(exponent), ans=ans) + "\n\n" + listing
        extra = {"exponent": exponent}
        return self.make(v, prompt, answer, decimals, solution, distractors, extra=extra)


class AlibiBias(BaseGenerator):
    name = "alibi_bias"
    title = "One ALiBi bias entry -m * (i - j)"
    params = specs(
        *_heads((4, 6, 8, 12)),
        param("causal", "bool", BOOL, BOOL, "Causal (j <= i, -m(i - j)) or bidirectional."),
        param("i", "int", Range(0, 20), POSITION, "Query position i."),
        param("j", "int", Range(0, 20), POSITION, "Key position j (j < i when causal)."),
    )
    default_decimals = 4
    misconceptions = described(
        "alibi_sign",
        "alibi_official_code",
        "alibi_naive_slope",
        "head_off_by_one",
        "alibi_distance_plus_one",
    )

    def bounds(self, name: str, drawn: Values) -> tuple[float, float] | None:
        if name == "head":
            return (1, drawn["heads"])
        if name == "j" and drawn["causal"]:
            return (0, drawn["i"] - 1)
        return None

    def build(self, v: Values, decimals: int, language: str = "en") -> Generated | None:
        heads, head, causal, i, j = (v[x] for x in ("heads", "head", "causal", "i", "j"))
        if i == j:  # bias 0 for every head: nothing to compute
            return None
        slopes = pe.alibi_slopes(heads)
        m = float(slopes[head - 1])
        distance = abs(i - j)
        if heads * (distance + 1) ** 2 <= 1_000_000:
            # The bias depends on i - j only: read it from the smallest matrix that has it.
            low = min(i, j)
            bias = pe.alibi_bias(distance + 1, heads, causal=causal)
            answer = float(bias[head - 1, i - low, j - low])
        else:  # the (heads, n, n) tensor would be too large to build
            answer = -m * distance
        ans = format_number(answer, decimals)
        # h counted from 0 in 2^(-8h/n) reads the slope of head h - 1 (h + 1 for head 1).
        neighbour = head - 1 if head > 1 else head + 1
        naive = 2.0 ** (-8 * head / heads)
        dist_text = f"({i} - {j})" if causal else f"|{i} - {j}|"

        text = speaker(language, "alibi_bias")

        distractors = [
            Distractor(-answer, "alibi_sign", text("alibi_sign", distance=dist_text)),
            Distractor(m * j, "alibi_official_code", text("alibi_official_code")),
            Distractor(
                -naive * distance,
                "alibi_naive_slope",
                text("alibi_naive_slope", head=head, heads=heads, naive=sig(naive, 4)),
            ),
            Distractor(
                -float(slopes[neighbour - 1]) * distance,
                "head_off_by_one",
                text("head_off_by_one", neighbour=neighbour),
            ),
            Distractor(
                -m * (distance + 1),
                "alibi_distance_plus_one",
                text(
                    "distance_plus_one",
                    tokens=distance + 1,
                    distance_text=dist_text,
                    distance=distance,
                ),
            ),
        ]
        steps, exponent = _slope_steps(heads, head, language)
        mode = text("causal" if causal else "bidirectional")
        prompt = text("prompt", heads=heads, mode=mode, head=head, i=i, j=j, decimals=decimals)
        solution = steps + text(
            "solution",
            head=head,
            m=sig(m, 6),
            distance_text=dist_text,
            distance=distance,
            ans=ans,
        )
        extra = {"slope": m, "distance": distance, "exponent": exponent}
        distractors = varied(distractors, answer, heads, head, causal, i, j)
        return self.make(v, prompt, answer, decimals, solution, distractors, extra=extra)


GENERATORS = (AlibiSlope(), AlibiBias())
