"""Generators for relative positions: T5 buckets (Raffel et al., 2020) and Shaw et al. (2018).

Conventions (those of :func:`konum.pe.t5_bucket` and :func:`konum.pe.relative_index`):
the relative position is ``key - query``; a Shaw index is ``clip(j - i, -k, k) + k``, a row of
a table with ``2k + 1`` rows.
"""

from __future__ import annotations

import math

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
from konum.model import Choices, Range

POSITION = Range(0, 100_000)


class T5Bucket(BaseGenerator):
    name = "t5_bucket"
    title = "The T5 bucket of a relative position"
    params = specs(
        param(
            "relative_position",
            "int",
            Range(-160, 160),
            Range(-1_000_000, 1_000_000),
            "key - query (0 is skipped; for a causal model, positive values all give bucket 0).",
        ),
        param("bidirectional", "bool", True, BOOL, "Encoder (true) or causal decoder (false)."),
        param("num_buckets", "int", 32, Range(2, 1024), "Total buckets (>= 4 if bidirectional)."),
        param("max_distance", "int", 128, Range(2, 1_000_000), "Where the last bucket starts."),
    )
    default_decimals = 0
    misconceptions = described("t5_sign", "t5_direction_offset", "t5_mode_mixup", "t5_exact_all")

    def build(self, v: Values, decimals: int) -> Generated | None:
        rp, bidi, nb, far = (
            v[x] for x in ("relative_position", "bidirectional", "num_buckets", "max_distance")
        )
        if rp == 0:  # bucket 0 in every convention
            return None

        def bucket(r: int, bidirectional: bool) -> int:
            return int(
                pe.t5_bucket(r, bidirectional=bidirectional, num_buckets=nb, max_distance=far)
            )

        answer = bucket(rp, bidi)
        buckets = nb // 2 if bidi else nb
        exact = buckets // 2
        offset = buckets if bidi and rp > 0 else 0
        n = abs(rp) if bidi else max(-rp, 0)
        distractors = [
            Distractor(
                float(bucket(-rp, bidi)),
                "t5_sign",
                f"This is the bucket of {-rp}, i.e. query - key. T5 takes key - query = {rp}.",
            ),
        ]
        if bidi:
            distractors.append(
                Distractor(
                    float(answer - buckets if rp > 0 else answer + buckets),
                    "t5_direction_offset",
                    f"Keys after the query (key - query > 0) use buckets {buckets} to {nb - 1}, "
                    f"keys before it 0 to {buckets - 1}: the offset {buckets} goes with the sign "
                    "of key - query.",
                )
            )
        try:
            mixup = float(bucket(rp, not bidi))
        except ValueError:  # e.g. too few buckets for the other mode
            mixup = math.nan
        distractors.append(
            Distractor(
                mixup,
                "t5_mode_mixup",
                "This uses the "
                + ("causal" if bidi else "bidirectional")
                + " rule. "
                + (
                    "An encoder splits the buckets between the two directions."
                    if bidi
                    else "A causal model gives all buckets to past keys; future keys are "
                    "masked and share bucket 0."
                ),
            )
        )
        distractors.append(
            Distractor(
                float(min(n, buckets - 1) + offset),
                "t5_exact_all",
                f"This gives distance {n} its own bucket. Only distances below {exact} do; "
                f"beyond that buckets grow logarithmically up to {far}.",
            )
        )
        mode = "an encoder (bidirectional)" if bidi else "a causal decoder"
        prompt = (
            f"T5's relative attention bias in {mode} uses {nb} buckets and `max_distance` "
            f"{far}. A query at position $i$ looks at a key at position $j$ with "
            f"$j - i = {rp}$. Which bucket does this pair use?"
        )
        lines = [f"T5 uses $r = j - i = {rp}$ (key minus query)."]
        if bidi:
            side = (
                f"$r > 0$ (the key comes after the query), so the bucket starts at {buckets}"
                if rp > 0
                else "$r < 0$ (the key comes before the query), so the bucket starts at 0"
            )
            lines.append(
                f"Bidirectional: {buckets} buckets per direction. {side}; the distance is "
                f"$n = |r| = {n}$."
            )
        else:
            lines.append(
                f"Causal: all {nb} buckets go to keys at or before the query; "
                f"$n = \\max(-r, 0) = {n}$."
            )
        if n < exact:
            lines.append(f"$n = {n} < {exact}$: small distances get their own bucket, $n$ itself.")
        else:
            ratio = np.log(np.float32(n) / np.float32(exact))
            scaled = float(ratio / np.float32(math.log(far / exact)) * np.float32(buckets - exact))
            large = min(exact + int(scaled), buckets - 1)
            if large + offset != answer:
                raise AssertionError(f"t5_bucket steps give {large + offset}, core {answer}")
            cap = (
                f" Capped at the last bucket {buckets - 1}: {large}."
                if exact + int(scaled) > buckets - 1
                else ""
            )
            lines.append(
                f"$n = {n} \\ge {exact}$, so it shares a logarithmic bucket:\n\n"
                f"$${exact} + \\left\\lfloor \\frac{{\\log({n}/{exact})}}{{\\log({far}/{exact})}}"
                f" \\cdot {buckets - exact} \\right\\rfloor = {exact} + \\lfloor {sig(scaled, 5)}"
                f" \\rfloor = {exact + int(scaled)}$$"
            )
            if cap:
                lines.append(cap.strip())
        lines.append(f"Bucket: ${offset} + {answer - offset} = {answer}$.")
        return self.make(
            v,
            prompt=prompt,
            answer=float(answer),
            decimals=decimals,
            solution="\n\n".join(line for line in lines if line) + "\n",
            distractors=distractors,
            exact=True,
            unit=None,
            extra={"distance": n, "exact_buckets": exact},
        )


class ShawIndex(BaseGenerator):
    name = "shaw_index"
    title = "The clipped relative index of Shaw et al."
    params = specs(
        param("i", "int", Range(0, 12), POSITION, "Query position i."),
        param("j", "int", Range(0, 12), POSITION, "Key position j (differs from i)."),
        param("max_distance", "int", Choices((2, 3, 4)), Range(1, 1000), "Clipping distance k."),
    )
    default_decimals = 0
    misconceptions = described("query_minus_key", "shaw_no_offset", "shaw_no_clipping")

    def build(self, v: Values, decimals: int) -> Generated | None:
        i, j, k = v["i"], v["j"], v["max_distance"]
        if i == j:
            return None
        # The index depends on clip(j - i) only: shrink far-apart positions to distance k + 1
        # so that the (size, size) matrix stays small.
        step = int(np.sign(j - i)) * min(abs(j - i), k + 1)
        qi, kj = (0, step) if step > 0 else (-step, 0)
        size = max(qi, kj) + 1
        answer = int(pe.relative_index(size, size, k)[qi, kj])
        clipped = min(max(j - i, -k), k)
        distractors = [
            Distractor(
                float(min(max(i - j, -k), k) + k),
                "query_minus_key",
                f"This uses $i - j = {i - j}$. The distance is key minus query, $j - i = {j - i}$.",
            ),
            Distractor(
                float(clipped),
                "shaw_no_offset",
                f"This is the clipped distance {clipped} itself. Adding $k = {k}$ turns "
                f"$-k..k$ into the table rows $0..{2 * k}$.",
            ),
            Distractor(
                float(j - i + k),
                "shaw_no_clipping",
                f"This does not clip: distances beyond $\\pm {k}$ share the edge rows, so the "
                f"table has only $2k + 1 = {2 * k + 1}$ rows.",
            ),
        ]
        prompt = (
            f"Shaw et al. clip relative positions to at most $k = {k}$ and look up one of "
            f"$2k + 1 = {2 * k + 1}$ learned vectors. Which row (counted from 0) does query "
            f"$i = {i}$ use for key $j = {j}$?"
        )
        solution = (
            "The index is $\\mathrm{clip}(j - i, -k, k) + k$:\n\n"
            f"$$\\mathrm{{clip}}({j} - {i}, -{k}, {k}) + {k} = \\mathrm{{clip}}({j - i}, -{k}, "
            f"{k}) + {k} = {clipped} + {k} = {answer}$$\n"
        )
        return self.make(
            v,
            prompt=prompt,
            answer=float(answer),
            decimals=decimals,
            solution=solution,
            distractors=distractors,
            exact=True,
            extra={"distance": j - i, "clipped": clipped, "rows": 2 * k + 1},
        )


GENERATORS = (T5Bucket(), ShawIndex())
