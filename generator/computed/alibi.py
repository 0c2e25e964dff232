"""Generators for ALiBi (Press et al., 2022): head slopes and bias entries.

Conventions (those of :func:`konum.pe.alibi_slopes` and :func:`konum.pe.alibi_bias`):
heads are numbered from 1 in prompts; the slope rule is the paper's ``get_slopes``, including
its interpolation for head counts that are not powers of two; the bias of query ``i`` for key
``j`` is ``-m * (i - j)`` (causal, ``j <= i``) or ``-m * |i - j|`` (bidirectional).
"""

from __future__ import annotations

import numpy as np

from konum import pe
from konum.computed.base import (
    BOOL,
    BaseGenerator,
    Distractor,
    Generated,
    Values,
    param,
    sig,
    specs,
)
from konum.computed.misconceptions import described
from konum.formatting import format_number
from konum.model import Choices, Range

HEADS = Range(1, 256)
POSITION = Range(0, 100_000)


def _slope_steps(heads: int, head: int) -> tuple[str, float]:
    """The worked derivation of slope ``head`` of ``heads`` (Markdown) and its exponent."""
    p = 1 << (heads.bit_length() - 1)
    if p == heads:
        exponent = 8 * head / heads
        text = (
            f"$n = {heads}$ is a power of two, so the slopes are a geometric sequence that "
            f"starts at $2^{{-8/{heads}}}$ with ratio $2^{{-8/{heads}}}$:\n\n"
            f"$$m_{{{head}}} = 2^{{-8 \\cdot {head}/{heads}}} = 2^{{-{sig(exponent)}}}$$\n\n"
        )
        return text, exponent
    text = (
        f"$n = {heads}$ is not a power of two. The largest power of two below it is "
        f"$p = {p}$: heads 1 to {p} get the {p}-head slopes $2^{{-8h/{p}}}$; the other "
        f"{heads - p} take every other slope of the {2 * p}-head sequence "
        f"$2^{{-8h/{2 * p}}}$, starting with the first ($h = 1, 3, 5, \\ldots$).\n\n"
    )
    if head <= p:
        exponent = 8 * head / p
        text += f"$$m_{{{head}}} = 2^{{-8 \\cdot {head}/{p}}} = 2^{{-{sig(exponent)}}}$$\n\n"
    else:
        extra = head - p
        odd = 2 * extra - 1
        exponent = 8 * odd / (2 * p)
        text += (
            f"Head {head} is extra head {extra}, so it takes slope $h = {odd}$ of that sequence:"
            f"\n\n$$m_{{{head}}} = 2^{{-8 \\cdot {odd}/{2 * p}}} = 2^{{-{sig(exponent)}}}$$\n\n"
        )
    return text, exponent


class AlibiSlope(BaseGenerator):
    name = "alibi_slope"
    title = "The ALiBi slope of head h of n (powers of two and not)"
    params = specs(
        param("heads", "int", Choices((4, 6, 8, 12, 16)), HEADS, "Number of heads n."),
        param("head", "int", Range(1, 16), HEADS, "Head h, counted from 1 (kept <= heads)."),
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

    def build(self, v: Values, decimals: int) -> Generated | None:
        heads, head = v["heads"], v["head"]
        slopes = pe.alibi_slopes(heads)
        answer = float(slopes[head - 1])
        ans = format_number(answer, decimals)
        neighbour = head + 1 if head < heads else head - 1
        distractors = [
            Distractor(
                2.0 ** (-8 * head / heads),
                "alibi_naive_slope",
                f"This is $2^{{-8 \\cdot {head}/{heads}}}$. That rule holds only when the head "
                f"count is a power of two; for {heads} heads the reference code takes the slopes "
                "for the largest power of two below it, then every other slope for twice that "
                "many.",
            ),
            Distractor(
                float(np.sort(slopes)[::-1][head - 1]),
                "alibi_sorted",
                "This assumes the slopes fall from head to head. For a head count that is not "
                "a power of two the extra heads come last and fall between earlier slopes.",
            ),
            Distractor(
                2.0 ** (-head),
                "alibi_fixed_ratio",
                f"This is $2^{{-{head}}}$, the 8-head rule. The ratio is $2^{{-8/n}}$, which "
                f"depends on the head count.",
            ),
            Distractor(
                float(slopes[heads - head]),
                "alibi_head_order",
                f"This is the slope of head {heads - head + 1}, the head order reversed. Slopes "
                "are listed in head order: the power-of-two block first (falling from head 1), "
                "then the extra heads.",
            ),
            Distractor(
                float(slopes[neighbour - 1]),
                "head_off_by_one",
                f"This is the slope of head {neighbour}. Heads are numbered from 1 here.",
            ),
        ]
        steps, exponent = _slope_steps(heads, head)
        listing = ""
        if heads <= 16:
            listing = (
                f"All {heads} slopes, in head order: "
                + ", ".join(f"${sig(float(s), 4)}$" for s in slopes)
                + ".\n\n"
            )
        prompt = (
            f"ALiBi gives each of the $n = {heads}$ attention heads a fixed slope $m_h$. What "
            f"is the slope of head $h = {head}$ (heads counted from 1)? Round to {decimals} "
            "decimals."
        )
        solution = steps + f"$$2^{{-{sig(exponent)}}} = {ans}$$\n\n" + listing
        return self.make(
            v,
            prompt=prompt,
            answer=answer,
            decimals=decimals,
            solution=solution,
            distractors=distractors,
            extra={"exponent": exponent},
        )


class AlibiBias(BaseGenerator):
    name = "alibi_bias"
    title = "One ALiBi bias entry -m * (i - j)"
    params = specs(
        param("heads", "int", Choices((4, 6, 8, 12)), HEADS, "Number of heads n."),
        param("head", "int", Range(1, 12), HEADS, "Head h, counted from 1 (kept <= heads)."),
        param("causal", "bool", BOOL, BOOL, "Causal (j <= i, -m(i - j)) or bidirectional."),
        param("i", "int", Range(0, 20), POSITION, "Query position i."),
        param("j", "int", Range(0, 20), POSITION, "Key position j (j < i when causal)."),
    )
    default_decimals = 4
    misconceptions = described(
        "alibi_sign", "alibi_official_code", "alibi_naive_slope", "head_off_by_one"
    )

    def bounds(self, name: str, drawn: Values) -> tuple[float, float] | None:
        if name == "head":
            return (1, drawn["heads"])
        if name == "j" and drawn["causal"]:
            return (0, drawn["i"] - 1)
        return None

    def build(self, v: Values, decimals: int) -> Generated | None:
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
        neighbour = head + 1 if head < heads else head - 1
        naive = 2.0 ** (-8 * head / heads)
        dist_text = f"({i} - {j})" if causal else f"|{i} - {j}|"
        distractors = [
            Distractor(
                -answer,
                "alibi_sign",
                "This drops the minus sign: ALiBi penalises distant keys, so the bias is "
                f"$-m \\cdot {dist_text}$, never positive.",
            ),
            Distractor(
                m * j,
                "alibi_official_code",
                "This is $+m \\cdot j$ from the official code. It differs from "
                "$-m(i - j)$ by $m \\cdot i$, the same for every key of a query, so softmax "
                "gives the same weights; the bias the paper defines is $-m(i - j)$.",
            ),
            Distractor(
                -naive * distance,
                "alibi_naive_slope",
                f"This uses the slope $2^{{-8 \\cdot {head}/{heads}}} = {sig(naive, 4)}$, a rule "
                "that holds only for powers of two.",
            ),
            Distractor(
                -float(slopes[neighbour - 1]) * distance,
                "head_off_by_one",
                f"This uses the slope of head {neighbour}; heads are counted from 1.",
            ),
        ]
        steps, exponent = _slope_steps(heads, head)
        mode = (
            "causal (query $i$ sees keys $j \\le i$; the bias is $-m_h (i - j)$)"
            if causal
            else "bidirectional (the bias is $-m_h |i - j|$)"
        )
        prompt = (
            f"An ALiBi model with $n = {heads}$ heads is {mode}. What bias does head "
            f"$h = {head}$ (counted from 1) add to the score of query $i = {i}$ for key "
            f"$j = {j}$? Round to {decimals} decimals."
        )
        solution = (
            steps
            + f"$$m_{{{head}}} = {sig(m, 6)}$$\n\n"
            + f"$$-m_{{{head}}} \\cdot {dist_text} = -{sig(m, 6)} \\cdot {distance} = {ans}$$\n"
        )
        return self.make(
            v,
            prompt=prompt,
            answer=answer,
            decimals=decimals,
            solution=solution,
            distractors=distractors,
            extra={"slope": m, "distance": distance, "exponent": exponent},
        )


GENERATORS = (AlibiSlope(), AlibiBias())
