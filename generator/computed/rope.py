"""Generators for rotary position embedding (Su et al., 2021) and its context scalings.

Conventions (those of :func:`konum.pe.rope`): pair ``k`` turns by
``theta_k = m * base**(-2k/d)`` at position ``m``; rotation is by ``+theta``:
``(a, b) -> (a cos - b sin, a sin + b cos)``. ``"half"`` pairs dimension ``i`` with
``i + d/2`` (GPT-NeoX, Hugging Face); ``"interleaved"`` pairs ``(2i, 2i + 1)`` (RoFormer,
GPT-J, Meta's Llama). Scalings use Hugging Face's ``rope_scaling`` semantics.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

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
from konum.seeding import rng_for

HEAD_DIM = Range(2, 4096, 2)
PAIR = Range(0, 2047)
POSITION = Range(0, 10_000_000)
SEED = Range(0, 2**31 - 1)
LAYOUT_TEXT = {
    "half": "the half layout of GPT-NeoX and Hugging Face: dimension $i$ pairs with $i + d/2$",
    "interleaved": "the interleaved layout of RoFormer and Meta's Llama: dimensions $2i$ and "
    "$2i+1$ form a pair",
}
LLAMA3_LOW = 1.0
LLAMA3_HIGH = 4.0


def _vector(values: np.ndarray) -> str:
    return "(" + ", ".join(str(int(x)) for x in values) + ")"


class RopeAngle(BaseGenerator):
    name = "rope_angle"
    title = "The RoPE rotation angle m * base^(-2k/d)"
    params = specs(
        param("d", "int", Choices((16, 32, 64, 128)), HEAD_DIM, "Head dimension (even)."),
        param("k", "int", Range(1, 7), PAIR, "Pair index k, 0 <= k < d/2."),
        param("m", "int", Range(1, 100), POSITION, "Token position m, counted from 0."),
        base_param("RoPE's theta (rope_theta)."),
    )
    default_decimals = 4
    misconceptions = described(
        "i_for_2k",
        "degrees",
        "position_from_1",
        "frequency_inverted",
        "integer_exponent",
    )

    def bounds(self, name: str, drawn: Values) -> tuple[float, float] | None:
        return (0, drawn["d"] // 2 - 1) if name == "k" else None

    def build(self, v: Values, decimals: int) -> Generated | None:
        d, k, m, base = v["d"], v["k"], v["m"], v["base"]
        answer = float(pe.rope_angles(np.array([m]), d, base=base)[0, k])
        if float(format_number(answer, decimals)) == 0.0:
            return None
        b = sig(base)
        inv_freq = float(pe.rope_frequencies(d, base=base)[k])
        ans = format_number(answer, decimals)
        distractors = [
            Distractor(
                m * base ** (-k / d),
                "i_for_2k",
                f"This uses the exponent $-k/d$. RoPE's pair $k$ turns at "
                f"${b}^{{-2k/d}}$: the exponent counts dimensions, two per pair.",
            ),
            Distractor(
                math.degrees(answer),
                "degrees",
                f"This is the angle in degrees; RoPE's angles are radians: ${ans}$.",
            ),
            Distractor(
                (m + 1) * inv_freq,
                "position_from_1",
                f"This is the angle for position {m + 1}. Positions count from 0, and the "
                "token at position 0 is not rotated at all.",
            ),
            Distractor(
                m * base ** (2 * k / d),
                "frequency_inverted",
                f"This multiplies by ${b}^{{2k/d}}$; the angle is $m$ times "
                f"${b}^{{-2k/d}} = {sig(inv_freq)}$.",
            ),
            Distractor(
                float(m),
                "integer_exponent",
                f"This is $m = {m}$ itself, the angle of pair 0 only: the exponent $2k/d$ "
                f"collapsed to 0. Pair {k} turns more slowly.",
            ),
        ]
        prompt = (
            f"RoPE with head dimension $d = {d}$ and base ${b}$ rotates pair $k$ of the query "
            f"or key at position $m$ by $\\theta = m \\cdot {b}^{{-2k/d}}$. What is the angle, "
            f"in radians, for $m = {m}$ and pair $k = {k}$? Round to {decimals} decimals."
        )
        solution = (
            f"$$\\theta_{{{k}}} = {b}^{{-2 \\cdot {k}/{d}}} = {sig(inv_freq)}$$\n\n"
            f"$$m\\,\\theta_{{{k}}} = {m} \\cdot {sig(inv_freq)} = {ans}$$\n"
        )
        return self.make(
            v,
            prompt=prompt,
            answer=answer,
            decimals=decimals,
            solution=solution,
            distractors=distractors,
            unit="rad",
            extra={"inv_freq": inv_freq},
        )


class RopeScore(BaseGenerator):
    name = "rope_score"
    title = "The RoPE score rope(q, m) . rope(k, n), a function of n - m"
    params = specs(
        param("d", "int", Choices((4, 8)), Choices((2, 4, 6, 8)), "Head dimension: 2, 4, 6 or 8."),
        param("m", "int", Range(0, 20), POSITION, "Position m of the query."),
        param("n", "int", Range(0, 20), POSITION, "Position n of the key (differs from m)."),
        base_param("RoPE's theta (rope_theta)."),
        param(
            "layout",
            "str",
            Choices(("half", "interleaved")),
            Choices(("half", "interleaved")),
            "Pairing: 'half' (k, k + d/2) or 'interleaved' (2k, 2k + 1).",
        ),
        param(
            "vector_seed",
            "int",
            Range(0, 999_999),
            SEED,
            "Seed of the small integer vectors q and k (entries -3..3).",
        ),
    )
    default_decimals = 3
    misconceptions = described("rope_pairing", "no_rotation", "rope_offset_sign", "degrees")

    def build(self, v: Values, decimals: int) -> Generated | None:
        names = ("d", "m", "n", "base", "layout", "vector_seed")
        d, m, n, base, layout, vseed = (v[x] for x in names)
        if m == n:  # no relative rotation: the score is the plain dot product
            return None
        vrng = rng_for(vseed, "rope_score", d)
        q = vrng.integers(-3, 4, size=d).astype(np.float64)
        k = vrng.integers(-3, 4, size=d).astype(np.float64)
        if not q.any() or not k.any():
            return None

        def score(lay: str, qm: float, kn: float) -> float:
            rq = pe.rope(q, qm, base=base, layout=lay)  # type: ignore[arg-type]
            rk = pe.rope(k, kn, base=base, layout=lay)  # type: ignore[arg-type]
            return float(rq @ rk)

        answer = score(layout, m, n)
        other = "interleaved" if layout == "half" else "half"
        theta = pe.rope_frequencies(d, base=base)
        half = d // 2
        pairs = (
            [(i, i + half) for i in range(half)]
            if layout == "half"
            else [(2 * i, 2 * i + 1) for i in range(half)]
        )
        delta = n - m
        terms = []
        lines = []
        for i, (a, b) in enumerate(pairs):
            phi = delta * float(theta[i])
            dot = q[a] * k[a] + q[b] * k[b]
            cross = q[b] * k[a] - q[a] * k[b]
            term = math.cos(phi) * dot + math.sin(phi) * cross
            terms.append(term)
            lines.append(
                f"- pair {i}, dimensions $({a}, {b})$: $\\theta_{{{i}}} = {sig(float(theta[i]))}$, "
                f"$\\varphi_{{{i}}} = {delta} \\cdot {sig(float(theta[i]))} = {sig(phi, 5)}$, "
                f"$\\cos\\varphi_{{{i}}} \\cdot ({int(dot)}) + \\sin\\varphi_{{{i}}} \\cdot "
                f"({int(cross)}) = {sig(term, 5)}$"
            )
        if not math.isclose(sum(terms), answer, rel_tol=1e-9, abs_tol=1e-9):
            raise AssertionError(f"rope_score: worked steps {sum(terms)} disagree with {answer}")
        ans = format_number(answer, decimals)
        distractors = [
            Distractor(
                score(other, m, n),
                "rope_pairing",
                f"This pairs the dimensions the {other} way. In the {layout} layout the pairs "
                f"are {', '.join(f'({a}, {b})' for a, b in pairs)}; mixing layouts gives a "
                "different number without any error.",
            ),
            Distractor(
                float(q @ k),
                "no_rotation",
                "This is $q \\cdot k$ without rotating. RoPE rotates both the query and the key "
                "before the dot product.",
            ),
            Distractor(
                score(layout, n, m),
                "rope_offset_sign",
                f"This rotates the query by position {n} and the key by {m}: the offset has the "
                f"wrong sign. The score depends on $n - m = {delta}$.",
            ),
            Distractor(
                score(layout, m * math.pi / 180, n * math.pi / 180),
                "degrees",
                "This treats the rotation angles as degrees; they are radians.",
            ),
        ]
        prompt = (
            f"RoPE with head dimension $d = {d}$, base ${sig(base)}$ and "
            f"{LAYOUT_TEXT[layout]}. The query $q = {_vector(q)}$ is at position $m = {m}$ "
            f"and the key $k = {_vector(k)}$ at position $n = {n}$. What is the score "
            f"$\\mathrm{{RoPE}}(q, m) \\cdot \\mathrm{{RoPE}}(k, n)$ (no $1/\\sqrt{{d}}$ "
            f"scaling)? Round to {decimals} decimals."
        )
        solution = (
            "Rotating $q$ by $m\\theta_i$ and $k$ by $n\\theta_i$ leaves, in each pair "
            "$(a, b)$, a rotation by $\\varphi_i = (n - m)\\theta_i$ between them:\n\n"
            "$$\\sum_i \\left[ \\cos\\varphi_i \\left(q_a k_a + q_b k_b\\right) + "
            "\\sin\\varphi_i \\left(q_b k_a - q_a k_b\\right) \\right]$$\n\n"
            f"with $n - m = {delta}$ and $\\theta_i = {sig(base)}^{{-2i/{d}}}$:\n\n"
            + "\n".join(lines)
            + f"\n\n$$\\text{{score}} = {' + '.join(sig(t, 5) for t in terms).replace('+ -', '- ')}"
            f" = {ans}$$\n"
        )
        return self.make(
            v,
            prompt=prompt,
            answer=answer,
            decimals=decimals,
            solution=solution,
            distractors=distractors,
            extra={"q": q, "k": k, "difference": delta},
        )


def _scaling(method: str, v: Values) -> Mapping[str, object]:
    if method == "linear":
        return {"rope_type": "linear", "factor": v["factor"]}
    if method == "dynamic":
        return {
            "rope_type": "dynamic",
            "factor": v["factor"],
            "max_position_embeddings": v["original_max"],
            "seq_len": v["seq_len"],
        }
    return {
        "rope_type": "llama3",
        "factor": v["factor"],
        "low_freq_factor": LLAMA3_LOW,
        "high_freq_factor": LLAMA3_HIGH,
        "original_max_position_embeddings": v["original_max"],
    }


class RopeScaling(BaseGenerator):
    name = "rope_scaling"
    title = "The wavelength of RoPE pair k after linear, dynamic NTK or Llama 3 scaling"
    params = specs(
        param(
            "method",
            "str",
            Choices(("linear", "dynamic", "llama3")),
            Choices(("linear", "dynamic", "llama3")),
            "Scaling: 'linear' (position interpolation), 'dynamic' (NTK-aware) or 'llama3'.",
        ),
        param("d", "int", Choices((64, 128)), Range(4, 4096, 2), "Head dimension (even)."),
        param("k", "int", Range(0, 63), PAIR, "Pair index k, 0 <= k < d/2."),
        base_param("RoPE's theta (rope_theta)."),
        param("factor", "float", Choices((2.0, 4.0, 8.0)), Range(1, 1000), "Scaling factor f."),
        param(
            "original_max",
            "int",
            Choices((2048, 4096, 8192)),
            Range(16, 10_000_000),
            "Trained context length (max_position_embeddings / original_max_position_embeddings).",
        ),
        param(
            "seq_len",
            "int",
            Choices((16384, 32768, 65536)),
            Range(1, 100_000_000),
            "Current sequence length (used by 'dynamic' only; must exceed original_max).",
        ),
    )
    default_decimals = 1
    misconceptions = described(
        "no_scaling",
        "missing_2pi",
        "scaling_direction",
        "scale_all_pairs",
        "ntk_base_linear",
    )

    def bounds(self, name: str, drawn: Values) -> tuple[float, float] | None:
        return (0, drawn["d"] // 2 - 1) if name == "k" else None

    def build(self, v: Values, decimals: int) -> Generated | None:
        method, d, k, base, f = v["method"], v["d"], v["k"], v["base"], v["factor"]
        l0, seq = v["original_max"], v["seq_len"]
        if method == "dynamic" and seq <= l0:
            return None  # dynamic NTK changes nothing within the trained context
        inv = float(pe.rope_frequencies(d, base=base)[k])
        scaled = float(pe.rope_frequencies(d, base=base, scaling=_scaling(method, v))[k])
        answer = 2 * math.pi / scaled
        plain_lambda = 2 * math.pi / inv
        if method != "llama3" and format_number(answer, decimals) == format_number(
            plain_lambda, decimals
        ):
            return None  # e.g. pair 0 under NTK: nothing to compute
        b, fs = sig(base), sig(f)
        ans = format_number(answer, decimals)
        distractors = [
            Distractor(
                plain_lambda,
                "no_scaling",
                f"This is the unscaled wavelength $2\\pi \\cdot {b}^{{2k/d}} = "
                f"{sig(plain_lambda, 7)}$; the scaling changes pair {k}.",
            ),
            Distractor(
                answer / (2 * math.pi),
                "missing_2pi",
                "This is $1/\\theta_k'$; a full turn is $2\\pi$, so the wavelength is "
                "$2\\pi/\\theta_k'$.",
            ),
            Distractor(
                plain_lambda / f,
                "scaling_direction",
                f"This divides the wavelength by the factor {fs}. Scaling slows rotations down "
                "so that longer contexts reuse the trained angles: wavelengths grow.",
            ),
        ]
        if method != "linear":
            distractors.append(
                Distractor(
                    plain_lambda * f,
                    "scale_all_pairs",
                    f"This multiplies the wavelength by {fs}, as linear interpolation does for "
                    f"every pair. {'Dynamic NTK' if method == 'dynamic' else 'Llama 3'} scaling "
                    "treats pairs differently: fast pairs change little or not at all.",
                )
            )
        if method == "dynamic":
            s = f * seq / l0 - (f - 1)
            distractors.append(
                Distractor(
                    2 * math.pi * (base * s) ** (2 * k / d),
                    "ntk_base_linear",
                    f"This grows the base by $s = {sig(s)}$; NTK-aware scaling grows it by "
                    f"$s^{{d/(d-2)}} = {sig(s)}^{{{d}/{d - 2}}}$.",
                )
            )
        method_text = {
            "linear": f"linear scaling (position interpolation) with factor $f = {fs}$",
            "dynamic": (
                f"dynamic NTK-aware scaling with factor $f = {fs}$, trained context "
                f"$L_0 = {l0}$ and current sequence length $L = {seq}$"
            ),
            "llama3": (
                f"Llama 3 scaling with factor $f = {fs}$, `low_freq_factor` {sig(LLAMA3_LOW)}, "
                f"`high_freq_factor` {sig(LLAMA3_HIGH)} and original context $L_0 = {l0}$"
            ),
        }[method]
        prompt = (
            f"A RoPE model has head dimension $d = {d}$ and base ${b}$. With {method_text}, "
            f"what is the wavelength $2\\pi/\\theta_k'$ (in positions) of pair $k = {k}$ after "
            f"scaling? Round to {decimals} decimal{'s' if decimals != 1 else ''}."
        )
        start = (
            f"Unscaled: $\\theta_{{{k}}} = {b}^{{-2 \\cdot {k}/{d}}} = {sig(inv)}$, a wavelength "
            f"$\\lambda = 2\\pi/\\theta_{{{k}}} = {sig(plain_lambda, 7)}$.\n\n"
        )
        if method == "linear":
            steps = (
                "Linear scaling divides every frequency by $f$, so every wavelength grows by "
                f"$f$:\n\n$$\\lambda' = {fs} \\cdot {sig(plain_lambda, 7)} = {ans}$$\n"
            )
        elif method == "dynamic":
            s = f * seq / l0 - (f - 1)
            new_base = base * s ** (d / (d - 2))
            steps = (
                "Dynamic NTK scaling grows the base because $L > L_0$:\n\n"
                f"$$s = \\frac{{f L}}{{L_0}} - (f - 1) = \\frac{{{fs} \\cdot {seq}}}{{{l0}}} - "
                f"{sig(f - 1)} = {sig(s)}$$\n\n"
                f"$$\\text{{base}}' = {b} \\cdot {sig(s)}^{{{d}/{d - 2}}} = "
                f"{sig(new_base, 7)}$$\n\n"
                f"$$\\lambda' = 2\\pi \\cdot {sig(new_base, 7)}^{{2 \\cdot {k}/{d}}} = {ans}$$\n"
            )
        else:
            high = l0 / LLAMA3_HIGH
            low = l0 / LLAMA3_LOW
            bands = (
                f"Llama 3 keeps pairs whose wavelength is below $L_0/{sig(LLAMA3_HIGH)} = "
                f"{sig(high)}$, stretches those above $L_0/{sig(LLAMA3_LOW)} = {sig(low)}$ by "
                "$f$, and blends in between.\n\n"
            )
            if plain_lambda < high:
                steps = bands + (
                    f"${sig(plain_lambda, 7)} < {sig(high)}$: a fast pair, left alone:\n\n"
                    f"$$\\lambda' = \\lambda = {ans}$$\n"
                )
            elif plain_lambda > low:
                steps = bands + (
                    f"${sig(plain_lambda, 7)} > {sig(low)}$: a slow pair, stretched by $f$:\n\n"
                    f"$$\\lambda' = {fs} \\cdot {sig(plain_lambda, 7)} = {ans}$$\n"
                )
            else:
                smooth = (l0 / plain_lambda - LLAMA3_LOW) / (LLAMA3_HIGH - LLAMA3_LOW)
                steps = bands + (
                    f"${sig(high)} \\le {sig(plain_lambda, 7)} \\le {sig(low)}$: blended with\n\n"
                    f"$$s = \\frac{{L_0/\\lambda - {sig(LLAMA3_LOW)}}}{{{sig(LLAMA3_HIGH)} - "
                    f"{sig(LLAMA3_LOW)}}} = {sig(smooth)}$$\n\n"
                    f"$$\\theta' = (1 - s)\\frac{{\\theta}}{{f}} + s\\,\\theta = "
                    f"{sig(scaled)}$$\n\n"
                    f"$$\\lambda' = 2\\pi/\\theta' = {ans}$$\n"
                )
        return self.make(
            v,
            prompt=prompt,
            answer=answer,
            decimals=decimals,
            solution=start + steps,
            distractors=distractors,
            unit="positions",
            extra={
                "inv_freq": inv,
                "scaled_inv_freq": scaled,
                "wavelength": plain_lambda,
            },
        )


GENERATORS = (RopeAngle(), RopeScore(), RopeScaling())
