"""Generators for relative positions: T5 buckets (Raffel et al., 2020) and Shaw et al. (2018).

Conventions (those of :func:`konum_pe.pe.t5_bucket` and :func:`konum_pe.pe.relative_index`):
the relative position is ``key - query``; a Shaw index is ``clip(j - i, -k, k) + k``, a row of
a table with ``2k + 1`` rows.
"""

from __future__ import annotations

import math

import numpy as np

from konum.computed import BOOL, BaseGenerator, Distractor, Generated, Values, param, sig, specs
from konum.model import Choices, Range
from konum_pe import pe
from konum_pe.misconceptions import described
from konum_pe.text import speaker

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

    def build(self, v: Values, decimals: int, language: str = "en") -> Generated | None:
        rp, bidi, nb, far = (
            v[x] for x in ("relative_position", "bidirectional", "num_buckets", "max_distance")
        )
        if rp == 0:  # bucket 0 in every convention
            return None

        def bucket(r: int, bidirectional: bool) -> int:
            return int(
                pe.t5_bucket(r, bidirectional=bidirectional, num_buckets=nb, max_distance=far)
            )

        text = speaker(language, "t5_bucket")

        answer = bucket(rp, bidi)
        buckets = nb // 2 if bidi else nb
        exact = buckets // 2
        offset = buckets if bidi and rp > 0 else 0
        n = abs(rp) if bidi else max(-rp, 0)
        distractors = [
            Distractor(float(bucket(-rp, bidi)), "t5_sign", text("t5_sign", neg=-rp, rp=rp)),
        ]
        if bidi:
            distractors.append(
                Distractor(
                    float(answer - buckets if rp > 0 else answer + buckets),
                    "t5_direction_offset",
                    text("t5_direction_offset", buckets=buckets, last=nb - 1, before=buckets - 1),
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
                text("t5_mode_mixup_causal" if bidi else "t5_mode_mixup_bidirectional"),
            )
        )
        distractors.append(
            Distractor(
                float(min(n, buckets - 1) + offset),
                "t5_exact_all",
                text("t5_exact_all", n=n, exact=exact, far=far),
            )
        )
        mode = text("encoder" if bidi else "decoder")
        prompt = text("prompt", mode=mode, nb=nb, far=far, rp=rp)
        lines = [text("key_minus_query", rp=rp)]
        if bidi:
            side = text("after" if rp > 0 else "before", buckets=buckets)
            lines.append(text("bidirectional", buckets=buckets, side=side, n=n))
        else:
            lines.append(text("causal", nb=nb, n=n))
        if n < exact:
            lines.append(text("small", n=n, exact=exact))
        else:
            ratio = np.log(np.float32(n) / np.float32(exact))
            scaled = float(ratio / np.float32(math.log(far / exact)) * np.float32(buckets - exact))
            large = min(exact + int(scaled), buckets - 1)
            if large + offset != answer:
                raise AssertionError(f"t5_bucket steps give {large + offset}, core {answer}")
            lines.append(
                text(
                    "large",
                    n=n,
                    exact=exact,
                    far=far,
                    width=buckets - exact,
                    scaled=sig(scaled, 5),
                    bucket=exact + int(scaled),
                )
            )
            if exact + int(scaled) > buckets - 1:
                lines.append(text("cap", last=buckets - 1, large=large))
        lines.append(text("bucket", offset=offset, rest=answer - offset, answer=answer))
        extra = {"distance": n, "exact_buckets": exact}
        solution = "\n\n".join(line for line in lines if line) + "\n"
        return self.make(
            v,
            prompt,
            float(answer),
            decimals,
            solution,
            distractors,
            exact=True,
            unit=None,
            extra=extra,
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

    def build(self, v: Values, decimals: int, language: str = "en") -> Generated | None:
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

        text = speaker(language, "shaw_index")

        swapped = min(max(i - j, -k), k)
        candidates = [
            Distractor(
                float(swapped + k),
                "query_minus_key",
                text("query_minus_key", ij=i - j, ji=j - i),
            ),
            Distractor(
                float(clipped),
                "shaw_no_offset",
                text("shaw_no_offset", clipped=clipped, k=k, last=2 * k),
            ),
            # Both slips at once (i - j, and no + k): for a key before the query this is the
            # row-like number that forgetting the offset gives, where clip(j - i) is negative.
            Distractor(
                float(swapped),
                "shaw_no_offset",
                text("query_minus_key", ij=i - j, ji=j - i)
                + " "
                + text("shaw_no_offset", clipped=swapped, k=k, last=2 * k),
            ),
            Distractor(
                float(j - i + k),
                "shaw_no_clipping",
                text("shaw_no_clipping", k=k, rows=2 * k + 1),
            ),
        ]
        # Rows the table has (0..2k) come first: a negative row or one past 2k is ruled out
        # without computing anything, so it is offered only when a question asks for more
        # options than there are such rows (a bank with an odd k and 3 options never needs it:
        # the two rows left differ whenever clip(j - i) is not k/2).
        distractors = sorted(candidates, key=lambda d: not 0 <= d.value <= 2 * k)
        prompt = text("prompt", k=k, rows=2 * k + 1, i=i, j=j)
        solution = text("solution", i=i, j=j, k=k, ji=j - i, clipped=clipped, answer=answer)
        extra = {"distance": j - i, "clipped": clipped, "rows": 2 * k + 1}
        return self.make(
            v, prompt, float(answer), decimals, solution, distractors, exact=True, extra=extra
        )


GENERATORS = (T5Bucket(), ShawIndex())
