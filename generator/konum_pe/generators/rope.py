"""Generators for rotary position embedding (Su et al., 2021) and its context scalings.

Conventions (those of :func:`konum_pe.pe.rope`): pair ``k`` turns by
``theta_k = m * base**(-2k/d)`` at position ``m``; rotation is by ``+theta``:
``(a, b) -> (a cos - b sin, a sin + b cos)``. ``"half"`` pairs dimension ``i`` with
``i + d/2`` (GPT-NeoX, Hugging Face); ``"interleaved"`` pairs ``(2i, 2i + 1)`` (RoFormer,
GPT-J, Meta's Llama). Scalings use Hugging Face's ``rope_scaling`` semantics.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np

from konum.computed import BaseGenerator, Distractor, Generated, Values, param, sig, specs
from konum.formatting import format_number
from konum.model import Choices, Range
from konum.seeding import rng_for
from konum_pe import pe
from konum_pe.generators.common import PairIndexed, base_param, varied, vector_seed
from konum_pe.misconceptions import described
from konum_pe.text import counted, say, speaker

HEAD_DIM = Range(2, 4096, 2)
PAIR = Range(0, 2047)
POSITION = Range(0, 10_000_000)
LLAMA3_LOW = 1.0
LLAMA3_HIGH = 4.0


def _vector(values: np.ndarray) -> str:
    return "(" + ", ".join(str(int(x)) for x in values) + ")"


class RopeAngle(PairIndexed, BaseGenerator):
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
        "pair_from_1",
        "degrees",
        "turns_for_radians",
        "position_from_1",
        "pairs_for_d",
        "frequency_inverted",
        "integer_exponent",
    )

    def build(self, v: Values, decimals: int, language: str = "en") -> Generated | None:
        d, k, m, base = v["d"], v["k"], v["m"], v["base"]
        answer = float(pe.rope_angles(np.array([m]), d, base=base)[0, k])
        if float(format_number(answer, decimals)) == 0.0:
            return None
        b = sig(base)
        inv_freq = float(pe.rope_frequencies(d, base=base)[k])
        ans = format_number(answer, decimals)

        text = speaker(language, "rope_angle")

        # Mistakes that give a smaller angle alternate with those that give a larger one.
        distractors = varied(
            [
                Distractor(m * base ** (-k / d), "i_for_2k", text("i_for_2k", b=b)),
                Distractor(
                    m * base ** (-2 * (k + 1) / d),
                    "pair_from_1",
                    text("pair_from_1", b=b, k=k, next=k + 1),
                ),
                Distractor(math.degrees(answer), "degrees", text("degrees", ans=ans)),
                Distractor(
                    answer / (2 * math.pi), "turns_for_radians", text("turns_for_radians", ans=ans)
                ),
                Distractor(
                    (m + 1) * inv_freq, "position_from_1", text("position_from_1", next=m + 1)
                ),
                Distractor(m * base ** (-4 * k / d), "pairs_for_d", text("pairs_for_d", b=b)),
                Distractor(
                    m * base ** (2 * k / d),
                    "frequency_inverted",
                    text("frequency_inverted", b=b, inv_freq=sig(inv_freq)),
                ),
                Distractor(float(m), "integer_exponent", text("integer_exponent", m=m, k=k)),
            ],
            answer,
            d,
            k,
            m,
            base,
        )
        prompt = text("prompt", d=d, b=b, m=m, k=k, decimals=decimals)
        solution = text("solution", k=k, b=b, d=d, inv_freq=sig(inv_freq), m=m, ans=ans)
        extra = {"inv_freq": inv_freq}
        unit = say(language, "units.rad")
        return self.make(v, prompt, answer, decimals, solution, distractors, unit=unit, extra=extra)


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
        vector_seed("Seed of the small integer vectors q and k (entries -3..3)."),
    )
    default_decimals = 3
    misconceptions = described(
        "rope_pairing", "rope_offset_sign", "rope_key_only", "degrees", "no_rotation"
    )

    def build(self, v: Values, decimals: int, language: str = "en") -> Generated | None:
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

        text = speaker(language, "rope_score")

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
                text(
                    "pair",
                    k=i,
                    a=a,
                    b=b,
                    theta=sig(float(theta[i])),
                    delta=delta,
                    phi=sig(phi, 5),
                    dot=int(dot),
                    cross=int(cross),
                    term=sig(term, 5),
                )
            )
        if not math.isclose(sum(terms), answer, rel_tol=1e-9, abs_tol=1e-9):
            raise AssertionError(f"rope_score: worked steps {sum(terms)} disagree with {answer}")
        ans = format_number(answer, decimals)
        distractors = [
            Distractor(
                score(other, m, n),
                "rope_pairing",
                text(
                    "rope_pairing",
                    other=say(language, f"rope.{other}"),
                    layout=say(language, f"rope.{layout}"),
                    pairs=", ".join(f"({a}, {b})" for a, b in pairs),
                ),
            ),
            Distractor(
                score(layout, n, m),
                "rope_offset_sign",
                text("rope_offset_sign", n=n, m=m, delta=delta),
            ),
            Distractor(
                float(q @ pe.rope(k, n, base=base, layout=layout)),
                "rope_key_only",
                text("rope_key_only", n=n),
            ),
            Distractor(
                score(layout, m * math.pi / 180, n * math.pi / 180), "degrees", text("degrees")
            ),
            # Last: q . k of the small integer vectors is a whole number, which a reader could
            # strike out among rounded scores without computing anything.
            Distractor(float(q @ k), "no_rotation", text("no_rotation")),
        ]
        prompt = text(
            "prompt",
            d=d,
            b=sig(base),
            layout=say(language, f"rope.layout_{layout}"),
            q=_vector(q),
            m=m,
            k=_vector(k),
            n=n,
            decimals=decimals,
        )
        solution = (
            text("solution", delta=delta, b=sig(base), d=d)
            + "\n\n"
            + "\n".join(lines)
            + "\n\n"
            + text(
                "score",
                terms=" + ".join(sig(t, 5) for t in terms).replace("+ -", "- "),
                ans=ans,
            )
        )
        extra = {"q": q, "k": k, "difference": delta}
        return self.make(v, prompt, answer, decimals, solution, distractors, extra=extra)


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
    if method == "yarn":
        return {
            "rope_type": "yarn",
            "factor": v["factor"],
            "original_max_position_embeddings": v["original_max"],
        }
    return {
        "rope_type": "llama3",
        "factor": v["factor"],
        "low_freq_factor": LLAMA3_LOW,
        "high_freq_factor": LLAMA3_HIGH,
        "original_max_position_embeddings": v["original_max"],
    }


class RopeScaling(PairIndexed, BaseGenerator):
    name = "rope_scaling"
    title = "The wavelength of RoPE pair k after linear, dynamic NTK, Llama 3 or YaRN scaling"
    params = specs(
        param(
            "method",
            "str",
            Choices(("linear", "dynamic", "llama3")),
            Choices(("linear", "dynamic", "llama3", "yarn")),
            "Scaling: 'linear' (position interpolation), 'dynamic' (NTK-aware), 'llama3' or "
            "'yarn' (the paper's betas 32 and 1).",
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
        "wavelength_degrees",
        "scaling_direction",
        "pair_from_1",
        "scale_all_pairs",
        "ntk_base_linear",
    )

    def build(self, v: Values, decimals: int, language: str = "en") -> Generated | None:
        method, d, k, base, f = v["method"], v["d"], v["k"], v["base"], v["factor"]
        l0, seq = v["original_max"], v["seq_len"]
        if method == "dynamic" and seq <= l0:
            return None  # dynamic NTK changes nothing within the trained context
        inv = float(pe.rope_frequencies(d, base=base)[k])
        scaled = float(pe.rope_frequencies(d, base=base, scaling=_scaling(method, v))[k])
        answer = 2 * math.pi / scaled
        plain_lambda = 2 * math.pi / inv
        if method not in ("llama3", "yarn") and format_number(answer, decimals) == format_number(
            plain_lambda, decimals
        ):
            return None  # e.g. pair 0 under NTK: nothing to compute
        b, fs = sig(base), sig(f)
        ans = format_number(answer, decimals)
        lam = sig(plain_lambda, 7)
        low_f, high_f = sig(LLAMA3_LOW), sig(LLAMA3_HIGH)

        text = speaker(language, "rope_scaling")

        distractors = [
            Distractor(plain_lambda, "no_scaling", text("no_scaling", b=b, lam=lam, k=k)),
            Distractor(answer / (2 * math.pi), "missing_2pi", text("missing_2pi")),
            Distractor(
                answer * 360 / (2 * math.pi), "wavelength_degrees", text("wavelength_degrees")
            ),
            Distractor(plain_lambda / f, "scaling_direction", text("scaling_direction", f=fs)),
        ]
        if k + 1 < d // 2:
            next_freq = pe.rope_frequencies(d, base=base, scaling=_scaling(method, v))[k + 1]
            distractors.append(
                Distractor(
                    2 * math.pi / float(next_freq), "pair_from_1", text("pair_from_1", next=k + 1)
                )
            )
        if method != "linear":
            distractors.append(
                Distractor(
                    plain_lambda * f,
                    "scale_all_pairs",
                    text(f"scale_all_pairs_{method}", f=fs),
                )
            )
        if method == "dynamic":
            s = f * seq / l0 - (f - 1)
            distractors.append(
                Distractor(
                    2 * math.pi * (base * s) ** (2 * k / d),
                    "ntk_base_linear",
                    text("ntk_base_linear", s=sig(s), d=d, d2=d - 2),
                )
            )
        method_text = text(f"method_{method}", f=fs, l0=l0, seq=seq, low=low_f, high=high_f)
        rounding = counted(language, "rope_scaling.round", decimals)
        prompt = text("prompt", d=d, b=b, method=method_text, k=k, round=rounding)
        start = text("unscaled", k=k, b=b, d=d, inv=sig(inv), lam=lam) + "\n\n"
        if method == "linear":
            steps = text("linear", f=fs, lam=lam, ans=ans)
        elif method == "dynamic":
            s = f * seq / l0 - (f - 1)
            new_base = base * s ** (d / (d - 2))
            steps = text(
                "dynamic",
                f=fs,
                seq=seq,
                l0=l0,
                f1=sig(f - 1),
                s=sig(s),
                b=b,
                d=d,
                d2=d - 2,
                new_base=sig(new_base, 7),
                k=k,
                ans=ans,
            )
        elif method == "yarn":
            ramp = float(pe.yarn_ramp(d, base=base, factor=f, original_max=l0)[k])

            def pair_at(turns: float) -> float:
                return float(d * math.log(l0 / (2 * math.pi * turns)) / (2 * math.log(base)))

            steps = text(
                "yarn",
                l0=l0,
                b=b,
                d=d,
                fast=sig(pair_at(32.0)),
                slow=sig(pair_at(1.0)),
                low=max(math.floor(pair_at(32.0)), 0),
                high=min(math.ceil(pair_at(1.0)), d - 1),
                k=k,
                gamma=sig(1.0 - ramp),
                scaled=sig(scaled),
                ans=ans,
            )
        else:
            high = l0 / LLAMA3_HIGH
            low = l0 / LLAMA3_LOW
            bands = text("bands", high_f=high_f, high=sig(high), low_f=low_f, low=sig(low)) + "\n\n"
            if plain_lambda < high:
                steps = bands + text("fast", lam=lam, high=sig(high), ans=ans)
            elif plain_lambda > low:
                steps = bands + text("slow", lam=lam, low=sig(low), f=fs, ans=ans)
            else:
                smooth = (l0 / plain_lambda - LLAMA3_LOW) / (LLAMA3_HIGH - LLAMA3_LOW)
                steps = bands + text(
                    "blend",
                    high=sig(high),
                    lam=lam,
                    low=sig(low),
                    low_f=low_f,
                    high_f=high_f,
                    smooth=sig(smooth),
                    scaled=sig(scaled),
                    ans=ans,
                )
        extra = {"inv_freq": inv, "scaled_inv_freq": scaled, "wavelength": plain_lambda}
        return self.make(
            v,
            prompt,
            answer,
            decimals,
            start + steps,
            varied(distractors, answer, method, d, k, base, f, l0, seq),
            unit=say(language, "units.positions"),
            extra=extra,
        )


GENERATORS = (RopeAngle(), RopeScore(), RopeScaling())
