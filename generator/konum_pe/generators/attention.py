"""Generators about learned tables and why attention needs position at all.

Conventions: a learned table (:func:`konum_pe.pe.learned`) has one row of ``d`` numbers per
position ``0..n-1``; attention is :func:`konum_pe.pe.self_attention` (no projections,
``softmax(x x^T / sqrt(d)) x``); position encodings are added by position, after reordering.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from konum.computed import (
    BOOL,
    BaseGenerator,
    Distractor,
    Generated,
    Values,
    param,
    sig,
    specs,
)
from konum.formatting import format_number
from konum.model import Choices, Range
from konum.seeding import rng_for
from konum_pe import pe
from konum_pe.generators.common import varied
from konum_pe.misconceptions import described
from konum_pe.text import say

SEED = Range(0, 2**31 - 1)
Attend = Callable[[np.ndarray], np.ndarray]


class LearnedParams(BaseGenerator):
    name = "learned_params"
    title = "The number of parameters of a learned position table"
    params = specs(
        param("n", "int", Choices((512, 1024, 2048)), Range(1, 10_000_000), "Maximum positions."),
        param("d", "int", Choices((256, 512, 768, 1024)), Range(1, 100_000), "Model dimension."),
    )
    default_decimals = 0
    misconceptions = described(
        "n_plus_1_rows", "sum_not_product", "pairwise_table", "half_table", "float32_bytes"
    )

    def build(self, v: Values, decimals: int, language: str = "en") -> Generated | None:
        n, d = v["n"], v["d"]
        # The table is pe.learned(n, d): shape (n, d). Its size is n * d; building it just to
        # count would allocate n * d floats, so the shape is used directly.
        answer = n * d

        def text(key: str, **fields: object) -> str:
            return say(language, f"learned_params.{key}", **fields)

        distractors = [
            Distractor(
                float((n + 1) * d),
                "n_plus_1_rows",
                text("n_plus_1_rows", rows=n + 1, last=n - 1, n=n),
            ),
            Distractor(float(n + d), "sum_not_product", text("sum_not_product", n=n, d=d)),
            Distractor(float(n * n), "pairwise_table", text("pairwise_table")),
            Distractor(float(n * d // 2), "half_table", text("half_table")),
            Distractor(float(4 * n * d), "float32_bytes", text("float32_bytes")),
        ]
        return self.make(
            v,
            prompt=text("prompt", n=n, d=d),
            answer=float(answer),
            decimals=decimals,
            solution=text("solution", n=n, d=d, answer=answer),
            distractors=varied(distractors, answer, n, d),
            unit=text("unit"),
            exact=True,
        )


def _matrix(x: np.ndarray) -> str:
    rows = " \\\\ ".join(" & ".join(str(int(a)) for a in row) for row in x)
    return f"\\begin{{pmatrix}} {rows} \\end{{pmatrix}}"


def _paren(value: float) -> str:
    """A number for after a minus sign: negative ones in parentheses."""
    text = sig(value, 5)
    return f"\\left({text}\\right)" if value < 0 else text


def _attention_unscaled(x: np.ndarray) -> np.ndarray:
    return np.asarray(pe.softmax(x @ x.T) @ x)


class PermutationGap(BaseGenerator):
    name = "permutation_gap"
    title = "Does self-attention output follow a permutation? With and without PE"
    params = specs(
        param("n", "int", Range(3, 6), Range(2, 16), "Number of tokens."),
        param("d", "int", Choices((4, 6, 8)), Range(2, 16, 2), "Model dimension (even)."),
        param("with_pe", "bool", BOOL, BOOL, "Add sinusoidal encodings after reordering."),
        param(
            "vector_seed",
            "int",
            Range(0, 999_999),
            SEED,
            "Seed of the integer token vectors (entries -2..2).",
        ),
    )
    default_decimals = 3
    misconceptions = described(
        "pe_moves_with_token",
        "invariance_for_equivariance",
        "attention_sees_order",
        "missing_sqrt_d",
    )

    def build(self, v: Values, decimals: int, language: str = "en") -> Generated | None:
        n, d, with_pe, vseed = v["n"], v["d"], v["with_pe"], v["vector_seed"]
        x = rng_for(vseed, "permutation_gap", n, d).integers(-2, 3, size=(n, d)).astype(np.float64)
        if len({tuple(row) for row in x}) < n:
            return None  # repeated tokens blur the point of the question
        perm = np.arange(n)[::-1]
        enc = pe.sinusoidal(n, d)

        def gap(add_pe: bool, attend: Attend = pe.self_attention, follow: bool = True) -> float:
            e = enc if add_pe else np.zeros_like(x)
            moved = attend(x[perm] + e)
            base_out = attend(x + e)
            target = base_out[perm] if follow else base_out
            return float(np.max(np.abs(moved - target)))

        def text(key: str, **fields: object) -> str:
            return say(language, f"permutation_gap.{key}", **fields)

        answer = gap(with_pe)
        if with_pe and float(format_number(answer, decimals)) == 0.0:
            return None
        e = enc if with_pe else np.zeros_like(x)
        moved = pe.self_attention(x[perm] + e)
        target = pe.self_attention(x + e)[perm]
        r, c = np.unravel_index(int(np.argmax(np.abs(moved - target))), moved.shape)
        ans = format_number(answer, decimals)
        if with_pe:
            distractors = [
                Distractor(0.0, "pe_moves_with_token", text("pe_moves_with_token")),
                Distractor(
                    gap(True, follow=False),
                    "invariance_for_equivariance",
                    text("invariance_for_equivariance_pe"),
                ),
                Distractor(
                    gap(True, attend=_attention_unscaled),
                    "missing_sqrt_d",
                    text("missing_sqrt_d", d=d),
                ),
            ]
        else:
            distractors = [
                Distractor(gap(True), "attention_sees_order", text("attention_sees_order")),
                Distractor(
                    gap(False, follow=False),
                    "invariance_for_equivariance",
                    text("invariance_for_equivariance"),
                ),
            ]
        prompt = text(
            "prompt",
            n=n,
            d=d,
            matrix=_matrix(x),
            pe_text=text("with_pe" if with_pe else "without_pe"),
            e=" + E" if with_pe else "",
            decimals=decimals,
        )
        if with_pe:
            solution = text(
                "solution_pe",
                r=r,
                c=c,
                moved=sig(float(moved[r, c]), 5),
                target=_paren(float(target[r, c])),
                ans=ans,
            )
        else:
            solution = text("solution", rounded=sig(answer, 2) if answer else "0", ans=ans)
        return self.make(
            v,
            prompt=prompt,
            answer=answer,
            decimals=decimals,
            solution=solution,
            distractors=distractors,
            extra={"x": x, "permutation": perm},
        )


GENERATORS = (LearnedParams(), PermutationGap())
