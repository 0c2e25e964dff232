"""Generators about learned tables and why attention needs position at all.

Conventions: a learned table (:func:`konum_pe.pe.learned`) has one row of ``d`` numbers per
position ``0..n-1``; attention is :func:`konum_pe.pe.self_attention` (no projections,
``softmax(x x^T / sqrt(d)) x``), and an attention score is an entry of ``x x^T``, before the
scaling; position vectors are added by position (counted from 0), after any reordering.
"""

from __future__ import annotations

from itertools import product

import numpy as np

from konum.computed import BOOL, BaseGenerator, Distractor, Generated, Values, param, specs
from konum.model import Choices, Range
from konum.seeding import rng_for
from konum_pe.generators.common import varied, vector_seed
from konum_pe.misconceptions import described
from konum_pe.text import speaker


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

        text = speaker(language, "learned_params")

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
        solution = text("solution", n=n, d=d, answer=answer)
        distractors = varied(distractors, answer, n, d)
        return self.make(
            v,
            text("prompt", n=n, d=d),
            float(answer),
            decimals,
            solution,
            distractors,
            unit=text("unit"),
            exact=True,
        )


#: What the tokens are called in a question: A, B, C, ... (as many as ``n`` allows).
LETTERS = "ABCDEF"


def _vector(values: np.ndarray) -> str:
    return "(" + ", ".join(str(int(x)) for x in values) + ")"


def _factor(value: int) -> str:
    """An integer for a product in a worked sum: negative ones in parentheses."""
    return f"({value})" if value < 0 else str(value)


def _dot(u: np.ndarray, w: np.ndarray) -> str:
    """``u . w`` worked out in LaTeX, term by term: ``(1, 3) . (3, -1) = 1 . 3 + 3 . (-1) = 0``
    with ``\\cdot`` for each dot."""
    terms = " + ".join(
        f"{_factor(int(a))} \\cdot {_factor(int(b))}" for a, b in zip(u, w, strict=True)
    )
    return f"{_vector(u)} \\cdot {_vector(w)} = {terms} = {int(u @ w)}"


def _distinct_rows(rng: np.random.Generator, n: int, d: int, bound: int) -> np.ndarray:
    """``n`` different non-zero integer vectors of length ``d``, entries ``-bound..bound``: a
    repeated token or position, or a zero one, would blur the point of the question."""
    grid = np.array(list(product(range(-bound, bound + 1), repeat=d)))
    grid = grid[np.any(grid, axis=1)]
    return grid[rng.choice(len(grid), size=n, replace=False)]


class PermutationGap(BaseGenerator):
    """One attention score before and after the tokens are reordered.

    Tokens ``A, B, ...`` (integer vectors, entries -2..2) stand at positions ``0..n-1`` in
    alphabetical order; ``order[k]`` is the token at position ``k`` after the reordering. With
    ``with_pe`` the model adds row ``k`` of a position table (integer entries -1..1) to
    whatever token stands at position ``k``; the score of two tokens is the dot product of
    their inputs (an entry of the ``x x^T`` of :func:`konum_pe.pe.self_attention`, before its
    ``1/sqrt(d)`` scaling and its softmax). Without position vectors the score of a pair does
    not change when the tokens move (equivariance); with them it does. Without them the only
    mistake to compute is reading the score matrix in place, so the choice form (two wrong
    options) draws the variants with position vectors.
    """

    name = "permutation_gap"
    title = "An attention score after the tokens are reordered, with and without position vectors"
    params = specs(
        param("n", "int", Range(3, 4), Range(2, len(LETTERS)), "Number of tokens (A, B, ...)."),
        param("d", "int", Choices((2, 3)), Range(2, 4), "Dimension of the vectors."),
        param(
            "with_pe",
            "bool",
            BOOL,
            BOOL,
            "Add to each token the position vector of the place it stands at after reordering.",
        ),
        vector_seed(
            "Seed of the vectors (tokens -2..2, positions -1..1), the new order and the pair."
        ),
    )
    default_decimals = 0
    misconceptions = described("pe_moves_with_token", "invariance_for_equivariance")

    def build(self, v: Values, decimals: int, language: str = "en") -> Generated | None:
        n, d, with_pe, vseed = v["n"], v["d"], v["with_pe"], v["vector_seed"]
        rng = rng_for(vseed, "permutation_gap", n, d)
        x = _distinct_rows(rng, n, d, 2)
        table = _distinct_rows(rng, n, d, 1)
        order = rng.permutation(n)
        a, b = sorted(int(t) for t in rng.choice(n, size=2, replace=False))
        place = np.argsort(order)  # place[t]: where token t stands after the reordering
        if {int(place[a]), int(place[b])} == {a, b}:
            return None  # the pair kept (or swapped) its places: reading in place would be right
        enc = table if with_pe else np.zeros_like(x)
        before = x + enc  # token t at position t
        after = x[order] + enc  # token order[k] at position k
        old_scores, new_scores = before @ before.T, after @ after.T
        pa, pb = int(place[a]), int(place[b])
        answer, old = int(new_scores[pa, pb]), int(old_scores[a, b])
        if answer == 0 or (with_pe and answer == old):
            return None  # 0 is the order-blind gap; with position vectors the score must move

        text = speaker(language, "permutation_gap")

        ta, tb = LETTERS[a], LETTERS[b]
        names = {"ta": ta, "tb": tb, "pa": pa, "pb": pb, "a": a, "b": b}
        # The score matrix kept in place: the old score at the places the pair holds now.
        in_place = Distractor(
            float(old_scores[pa, pb]),
            "invariance_for_equivariance",
            text(
                "invariance_for_equivariance_pe" if with_pe else "invariance_for_equivariance",
                sa=LETTERS[pa],
                sb=LETTERS[pb],
                **names,
            ),
        )
        distractors = [in_place]
        if with_pe:
            moved = text("pe_moves_with_token", **names)
            distractors.insert(0, Distractor(float(old), "pe_moves_with_token", moved))
        vectors = r", \quad ".join(f"x_{LETTERS[t]} = {_vector(x[t])}" for t in range(n))
        positions = r", \quad ".join(f"p_{{{k}}} = {_vector(table[k])}" for k in range(n))
        prompt = text(
            "prompt",
            sequence=", ".join(LETTERS[:n]),
            reordered=", ".join(LETTERS[t] for t in order),
            vectors=vectors,
            pe_text=text("with_pe", positions=positions) if with_pe else text("without_pe"),
            **names,
        )
        if with_pe:
            solution = text(
                "solution_pe",
                input_a=(
                    f"x_{ta} + p_{{{pa}}} = {_vector(x[a])} + {_vector(table[pa])} "
                    f"= {_vector(after[pa])}"
                ),
                input_b=(
                    f"x_{tb} + p_{{{pb}}} = {_vector(x[b])} + {_vector(table[pb])} "
                    f"= {_vector(after[pb])}"
                ),
                dot=_dot(after[pa], after[pb]),
                old=old,
                **names,
            )
        else:
            solution = text("solution", dot=_dot(x[a], x[b]), **names)
        extra = {"x": x, "table": table, "order": order, "pair": [a, b]}
        distractors = varied(distractors, answer, vseed, n, d, with_pe)
        return self.make(
            v, prompt, float(answer), decimals, solution, distractors, exact=True, extra=extra
        )


GENERATORS = (LearnedParams(), PermutationGap())
