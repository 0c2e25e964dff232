"""Tests for the computed-question generators (generator/computed/).

Every stored answer is recomputed here from konum_pe.pe by a route of the test's own (a
different core function or a property of the encoding), never through the generator's code.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from konum.computed import GeneratorError, PromptTemplateError, tolerance_for
from konum.computed.base import Distractor, Generated
from konum.computed.variants import apart, pick_distractors
from konum.formatting import format_number, with_unit
from konum.model import Choices, ParamConstraint, Range, Source
from konum.plugins import UnknownGeneratorError
from konum.seeding import rng_for
from konum.types import Bank, ComputedQuestion
from konum_pe import pe
from konum_pe.misconceptions import MISCONCEPTIONS
from tests.helpers import (
    GENERATORS,
    PE,
    check_banks,
    computed_variants,
    format_preview,
    validate_computed,
)

SEEDS = range(200)
RENDER_SEEDS = range(12)

# The catalogue fixed by the SPEC: lesson banks are written against these names.
CATALOGUE: dict[str, set[str]] = {
    "sinusoidal_entry": {"pos", "j", "d", "base"},
    "sinusoidal_angle": {"pos", "k", "d", "base"},
    "sinusoidal_wavelength": {"k", "d", "base"},
    "faster_dimension": {"j1", "j2", "d", "base", "slower"},
    "sinusoidal_dot": {"p", "q", "d", "base"},
    "shift_matrix_entry": {"offset", "k", "d", "base", "row", "col"},
    "rope_angle": {"m", "k", "d", "base"},
    "rope_score": {"m", "n", "d", "base", "layout", "vector_seed"},
    "rope_scaling": {"method", "k", "d", "base", "factor", "original_max", "seq_len"},
    "alibi_slope": {"heads", "head"},
    "alibi_bias": {"heads", "head", "i", "j", "causal"},
    "t5_bucket": {"relative_position", "bidirectional", "num_buckets", "max_distance"},
    "shaw_index": {"i", "j", "max_distance"},
    "sincos_2d_entry": {"grid", "row", "col", "d", "channel", "base"},
    "learned_params": {"n", "d"},
    "permutation_gap": {"n", "d", "with_pe", "vector_seed"},
}
REQUIRED_MISCONCEPTIONS = {
    "i_for_2k",
    "sin_cos_swapped",
    "degrees",
    "position_from_1",
    "layout_mixup",
    "rope_pairing",
    "alibi_naive_slope",
    "t5_sign",
}


def question(
    generator: str,
    *,
    qid: str | None = None,
    answer: str = "numeric",
    options: int = 4,
    params: Mapping[str, ParamConstraint] | None = None,
    decimals: int | None = None,
    prompt: str = "",
) -> ComputedQuestion:
    return ComputedQuestion(
        id=qid or "q-" + generator.replace("_", "-"),
        bank="test",
        prompt=prompt,
        explanation="",
        source=Source("test.yml", 1, 1),
        generator=generator,
        params=dict(params or {}),
        answer=answer,  # type: ignore[arg-type]
        decimals=decimals,
        options=options,
    )


def choice_options(name: str) -> int:
    """The largest option count (<= 4) the generator supports with default params."""
    return min(4, 1 + len(GENERATORS[name].misconceptions))


# --- independent recomputation from the core ---------------------------------------------------


def _angle_mod(a: float, b: float) -> float:
    """Distance between two angles modulo 2*pi."""
    return abs((a - b + math.pi) % (2 * math.pi) - math.pi)


def _sinusoidal_entry(v: Mapping[str, Any]) -> float:
    table = pe.sinusoidal(v["pos"] + 1, v["d"], base=v["base"])
    return float(table[v["pos"], v["j"]])


def _sinusoidal_angle(v: Mapping[str, Any]) -> float:
    pos, k, d, base = v["pos"], v["k"], v["d"], v["base"]
    angle = float(pe.rope_angles(np.array([pos]), d, base=base)[0, k])
    row = pe.sinusoidal(np.array([pos]), d, base=base)[0]
    assert _angle_mod(math.atan2(row[2 * k], row[2 * k + 1]), angle) < 1e-6
    return angle


def _sinusoidal_wavelength(v: Mapping[str, Any]) -> float:
    return float(2 * math.pi / pe.rope_frequencies(v["d"], base=v["base"])[v["k"]])


def _faster_dimension(v: Mapping[str, Any]) -> float:
    lam = pe.sinusoidal_wavelengths(v["d"], base=v["base"])
    j1, j2 = v["j1"], v["j2"]
    faster, slower = (j1, j2) if lam[j1 // 2] < lam[j2 // 2] else (j2, j1)
    return float(slower if v.get("slower") else faster)


def _sinusoidal_dot(v: Mapping[str, Any]) -> float:
    table = pe.sinusoidal(max(v["p"], v["q"]) + 1, v["d"], base=v["base"])
    return float(table[v["p"]] @ table[v["q"]])


def _shift_matrix_entry(v: Mapping[str, Any]) -> float:
    # Fit the 2x2 map from pairs at quarter-turn positions to the same pairs shifted.
    d, k, base, offset = v["d"], v["k"], v["base"], v["offset"]
    omega = pe.sinusoidal_frequencies(d, base=base)[k]
    positions = np.arange(4) * (math.pi / 2) / omega
    before = pe.sinusoidal(positions, d, base=base)[:, 2 * k : 2 * k + 2]
    after = pe.sinusoidal(positions + offset, d, base=base)[:, 2 * k : 2 * k + 2]
    m = np.linalg.lstsq(before, after, rcond=None)[0].T
    return float(m[v["row"], v["col"]])


def _rope_angle(v: Mapping[str, Any]) -> float:
    d, k, m, base = v["d"], v["k"], v["m"], v["base"]
    angle = float(pe.sinusoidal_angles(np.array([m]), d, base=base)[0, k])
    unit = np.zeros(d)
    unit[k] = 1.0
    rotated = pe.rope(unit, m, base=base, layout="half")
    assert _angle_mod(math.atan2(rotated[k + d // 2], rotated[k]), angle) < 1e-6
    return angle


def _rope_score(v: Mapping[str, Any]) -> float:
    q, k = np.array(v["q"], dtype=float), np.array(v["k"], dtype=float)
    m, n, base, layout = v["m"], v["n"], v["base"], v["layout"]
    rq = pe.rope(q[None, :], np.array([m], dtype=float), base=base, layout=layout)[0]
    rk = pe.rope(k[None, :], np.array([n], dtype=float), base=base, layout=layout)[0]
    score = float(rq @ rk)
    # RoPE's point: only n - m matters.
    shifted = pe.rope(q, 0.0, base=base, layout=layout) @ pe.rope(
        k, n - m, base=base, layout=layout
    )
    assert abs(score - shifted) < 1e-9
    return score


def _rope_scaling(v: Mapping[str, Any]) -> float:
    method, f, l0 = v["method"], v["factor"], v["original_max"]
    scaling: dict[str, object] = {"rope_type": method, "factor": f}
    if method == "dynamic":
        scaling.update(max_position_embeddings=l0, seq_len=v["seq_len"])
    elif method == "llama3":
        scaling.update(
            low_freq_factor=1.0, high_freq_factor=4.0, original_max_position_embeddings=l0
        )
    elif method == "yarn":
        scaling.update(original_max_position_embeddings=l0)
    inv = pe.rope_frequencies(v["d"], base=v["base"], scaling=scaling)[v["k"]]
    return float(2 * math.pi / inv)


def _alibi_slope(v: Mapping[str, Any]) -> float:
    return float(pe.alibi_slopes(v["heads"])[v["head"] - 1])


def _alibi_bias(v: Mapping[str, Any]) -> float:
    m = pe.alibi_slopes(v["heads"])[v["head"] - 1]
    i, j = v["i"], v["j"]
    if v["causal"]:
        assert j <= i
        return float(-m * (i - j))
    return float(-m * abs(i - j))


def _t5_reference(rp: int, bidirectional: bool, num_buckets: int, max_distance: int) -> int:
    """Hugging Face's _relative_position_bucket, scalar, written out again (float32 log)."""
    bucket = 0
    if bidirectional:
        num_buckets //= 2
        bucket += num_buckets if rp > 0 else 0
        n = abs(rp)
    else:
        n = -min(rp, 0)
    exact = num_buckets // 2
    if n < exact:
        return bucket + n
    large = np.log(np.float32(n) / np.float32(exact)) / np.float32(math.log(max_distance / exact))
    value = exact + int(large * np.float32(num_buckets - exact))
    return bucket + min(value, num_buckets - 1)


def _t5_bucket(v: Mapping[str, Any]) -> float:
    args = v["relative_position"], v["bidirectional"], v["num_buckets"], v["max_distance"]
    core = int(
        pe.t5_bucket(
            np.array([args[0]]), bidirectional=args[1], num_buckets=args[2], max_distance=args[3]
        )[0]
    )
    assert core == _t5_reference(*args)
    return float(core)


def _shaw_index(v: Mapping[str, Any]) -> float:
    i, j, k = v["i"], v["j"], v["max_distance"]
    size = max(i, j) + 3
    return float(pe.relative_index(size, size, k)[i, j])


def _sincos_2d_entry(v: Mapping[str, Any]) -> float:
    grid, row, col, d, channel, base = (
        v[x] for x in ("grid", "row", "col", "d", "channel", "base")
    )
    value = float(pe.sincos_2d(grid, grid, d, base=base)[row * grid + col, channel])
    half = d // 2
    coord, c = (row, channel - half) if channel >= half else (col, channel)
    assert (
        abs(value - pe.sinusoidal(np.array([coord]), half, base=base, layout="concat")[0, c])
        < 1e-12
    )
    return value


def _learned_params(v: Mapping[str, Any]) -> float:
    rows = pe.learned(v["n"], 1).shape[0]
    cols = pe.learned(1, v["d"]).shape[1]
    return float(rows * cols)


def _permutation_gap(v: Mapping[str, Any]) -> float:
    x = np.array(v["x"], dtype=float)
    enc = np.array(v["table"], dtype=float) if v["with_pe"] else np.zeros_like(x)
    move = np.eye(len(x))[v["order"]]  # the permutation matrix: row k picks token order[k]
    z = move @ x + enc
    a, b = v["pair"]
    # The reordered scores put back in token order: Pi^T S Pi, read at the pair.
    score = float((move.T @ (z @ z.T) @ move)[a, b])
    if not v["with_pe"]:
        assert score == float(x[a] @ x[b])  # equivariance: the pair keeps its score
    return score


RECOMPUTE: dict[str, Callable[[Mapping[str, Any]], float]] = {
    "sinusoidal_entry": _sinusoidal_entry,
    "sinusoidal_angle": _sinusoidal_angle,
    "sinusoidal_wavelength": _sinusoidal_wavelength,
    "faster_dimension": _faster_dimension,
    "sinusoidal_dot": _sinusoidal_dot,
    "shift_matrix_entry": _shift_matrix_entry,
    "rope_angle": _rope_angle,
    "rope_score": _rope_score,
    "rope_scaling": _rope_scaling,
    "alibi_slope": _alibi_slope,
    "alibi_bias": _alibi_bias,
    "t5_bucket": _t5_bucket,
    "shaw_index": _shaw_index,
    "sincos_2d_entry": _sincos_2d_entry,
    "learned_params": _learned_params,
    "permutation_gap": _permutation_gap,
}

_UNFILLED = re.compile(r"\{\{|\{%|\bNone\b|\bnan\b|\binf\b", re.IGNORECASE)


# --- catalogue ---------------------------------------------------------------------------------


def test_catalogue_names_and_params_are_the_fixed_ones() -> None:
    for name, params in CATALOGUE.items():
        assert name in GENERATORS, name
        assert set(GENERATORS[name].params) == params, name
        assert PE.generator(name).name == name
    assert set(RECOMPUTE) == set(GENERATORS)


def test_misconceptions_are_declared_and_described() -> None:
    assert set(MISCONCEPTIONS) >= REQUIRED_MISCONCEPTIONS
    for gen in GENERATORS.values():
        assert gen.misconceptions, gen.name
        assert set(gen.misconceptions) <= set(MISCONCEPTIONS), gen.name
    used = {key for gen in GENERATORS.values() for key in gen.misconceptions}
    assert used == set(MISCONCEPTIONS), "every described misconception is produced somewhere"


def test_every_default_constraint_passes_its_own_check() -> None:
    for gen in GENERATORS.values():
        assert validate_computed(gen.name, {}, "numeric", None, 4) == [], gen.name
        for spec in gen.params.values():
            assert validate_computed(gen.name, {spec.name: spec.default}, "numeric", None, 4) == []
            assert spec.doc


def test_unknown_generator_suggests_a_name() -> None:
    with pytest.raises(UnknownGeneratorError, match="did you mean 'alibi_slope'"):
        PE.generator("alibi_slop")


# --- every generator, many seeds ---------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(GENERATORS))
def test_answers_tolerances_and_distractors_over_many_seeds(name: str) -> None:
    gen = GENERATORS[name]
    options = choice_options(name)
    numeric = question(name)
    choice = question(name, answer="choice", options=options)
    for seed in SEEDS:
        (variant,) = computed_variants(numeric, seed, count=1)
        expected = RECOMPUTE[name](variant.values)
        assert variant.answer == pytest.approx(expected, rel=1e-9, abs=1e-9), (seed, variant)
        rounded = round(variant.answer, variant.decimals)
        assert abs(rounded - variant.answer) <= variant.tolerance
        assert variant.tolerance <= 10.0 ** (-variant.decimals)
        assert variant.shown_answer == format_number(variant.answer, variant.decimals)
        assert not variant.shown_answer.startswith("-0") or float(variant.shown_answer) != 0
        assert not variant.options
        assert variant.decimals == gen.default_decimals
        for text in (variant.prompt, variant.solution):
            assert text.strip()
            assert not _UNFILLED.search(text), (seed, text)
            assert text.count("$") % 2 == 0, text
        assert variant.shown_answer in variant.solution, (seed, variant.solution)

        (cv,) = computed_variants(choice, seed, count=1)
        assert RECOMPUTE[name](cv.values) == pytest.approx(cv.answer, rel=1e-9, abs=1e-9)
        texts = [o.text for o in cv.options]
        assert len(texts) == options
        assert len(set(texts)) == options, (seed, texts)
        correct = [o for o in cv.options if o.correct]
        assert len(correct) == 1 and correct[0].text == with_unit(cv.shown_answer, cv.unit)
        assert correct[0].misconception is None
        for option in cv.options:
            if option.correct:
                continue
            assert option.misconception in gen.misconceptions
            assert option.feedback and not _UNFILLED.search(option.feedback)
            assert option.feedback.count("$") % 2 == 0


@pytest.mark.parametrize("name", sorted(GENERATORS))
def test_prompts_solutions_and_feedback_render_as_markdown(name: str) -> None:
    markup = pytest.importorskip("konum.markup")
    q = question(name, answer="choice", options=choice_options(name))
    for seed in RENDER_SEEDS:
        (variant,) = computed_variants(q, seed, count=1)
        texts = [variant.prompt, variant.solution]
        texts += [o.feedback for o in variant.options if o.feedback]
        for text in texts:
            html = markup.render_markdown(text)
            assert "$" not in html, (seed, text)
            if "$" in text:
                assert "<math" in html


def test_degenerate_draws_are_avoided() -> None:
    for seed in range(100):
        rng = rng_for(seed, "degenerate")
        fd = GENERATORS["faster_dimension"].generate(rng, {})
        assert fd.values["j1"] // 2 != fd.values["j2"] // 2
        dot = GENERATORS["sinusoidal_dot"].generate(rng, {})
        assert dot.values["p"] != dot.values["q"]
        bias = GENERATORS["alibi_bias"].generate(rng, {})
        assert bias.values["i"] != bias.values["j"]
        assert float(format_number(bias.answer, 4)) != 0
        t5 = GENERATORS["t5_bucket"].generate(rng, {})
        assert t5.values["relative_position"] != 0
        entry = GENERATORS["sinusoidal_entry"].generate(rng, {})
        assert abs(float(format_number(entry.answer, 4))) not in (0.0, 1.0)
        score = GENERATORS["rope_score"].generate(rng, {})
        assert score.values["m"] != score.values["n"]


def test_position_0_is_a_question_when_a_bank_asks_for_it() -> None:
    # Row 0 is (0, 1, 0, 1, ...): the answers are exact, and the zero-vector belief is an option.
    # Not j = 3, 5 or 7: there row 0's mistakes give fewer than two other numbers.
    row0 = {"pos": Choices((0,)), "j": Choices((0, 1, 2, 4, 6))}
    q = question("sinusoidal_entry", answer="choice", options=3, params=row0)
    assert validate_computed("sinusoidal_entry", q.params, "choice", None, 3) == []
    answers = set()
    for variant in computed_variants(q, 5, count=12):
        j = variant.values["j"]
        assert variant.answer == (0.0 if j % 2 == 0 else 1.0)
        assert "$(0, 1, 0, 1, \\ldots)$" in variant.solution
        answers.add(variant.shown_answer)
        if j % 2:
            [zero] = [o for o in variant.options if o.misconception == "position_zero_vector"]
            assert zero.text == "0.0000" and "zero vector" in (zero.feedback or "")
    assert answers == {"0.0000", "1.0000"}


def test_entries_that_round_to_0_or_1_are_redrawn_away_from_position_0() -> None:
    # d = 16, p = 1..3: the slow pairs' cosines round to 1.0000; those draws are redrawn.
    params = {"d": Choices((16,)), "pos": Range(1, 3)}
    for seed in range(40):
        entry = GENERATORS["sinusoidal_entry"].generate(rng_for(seed, "slow"), params)
        assert abs(float(format_number(entry.answer, 4))) not in (0.0, 1.0)


def test_the_shift_rotation_feedback_names_the_matrix_it_computed() -> None:
    """The rotation_direction option is an entry of R(phi), the counterclockwise matrix of
    lesson 2; the right block is its transpose, which moves the (sin, cos) pair forward."""
    q = question("shift_matrix_entry", answer="choice")
    seen = 0
    for variant in computed_variants(q, 11, count=20):
        v = variant.values
        phi = v["phi"]
        rotation = [[math.cos(phi), -math.sin(phi)], [math.sin(phi), math.cos(phi)]]
        for option in variant.options:
            if option.misconception != "rotation_direction":
                continue
            seen += 1
            assert option.text == format_number(rotation[v["row"]][v["col"]], 4)
            assert "entry of $R(\\varphi)$" in (option.feedback or "")
            assert "transpose $R(\\varphi)^\\top$" in (option.feedback or "")
    assert seen


def test_default_prompts_open_with_the_table_in_a_few_words() -> None:
    """The conventions are stated once, above the lesson's quiz; a default prompt names d and
    the base, and the layout only where the question turns on which column holds what."""
    for name in ("sinusoidal_angle", "sinusoidal_wavelength", "sinusoidal_dot"):
        (v,) = computed_variants(question(name), 3, count=1)
        assert v.prompt.startswith(f"In the sinusoidal encoding with $d = {v.values['d']}$ and ")
        assert "interleaved" not in v.prompt and "counted from 0" not in v.prompt
    (v,) = computed_variants(question("sinusoidal_entry"), 3, count=1)
    assert "column $2k$ holds the sine of pair $k$" in v.prompt
    assert len(v.prompt.split()) < 45


def test_decimals_override_changes_precision_and_tolerance() -> None:
    (v,) = computed_variants(question("sinusoidal_entry", decimals=2), 3, count=1)
    assert v.decimals == 2 and len(v.shown_answer.split(".")[1]) == 2
    assert 0.005 <= v.tolerance <= 0.01
    assert "Round to 2 decimals" in v.prompt


# --- hand-worked values ------------------------------------------------------------------------


def _one(name: str, **fixed: object) -> Any:
    params = {k: Choices((value,)) for k, value in fixed.items()}
    (v,) = computed_variants(question(name, params=params), 0, count=1)
    return v


def test_hand_worked_values() -> None:
    v = _one("sinusoidal_entry", pos=3, j=2, d=8)
    assert v.shown_answer == "0.2955"  # 3 / 10000^(2/8) = 0.3, sin(0.3) = 0.29552
    assert "0.3" in v.solution and "\\sin(0.3)" in v.solution
    assert _one("alibi_slope", heads=6, head=5).shown_answer == "0.5000"
    assert _one("alibi_slope", heads=8, head=8).shown_answer == "0.0039"  # 2^-8
    for rp, bucket in ((20, "26"), (-1, "1"), (1, "17"), (-20, "10"), (200, "31"), (-200, "15")):
        assert _one("t5_bucket", relative_position=rp).shown_answer == bucket
    assert _one("t5_bucket", relative_position=5, bidirectional=False).shown_answer == "0"
    assert _one("shaw_index", i=2, j=5, max_distance=2).shown_answer == "4"
    assert _one("shaw_index", i=5, j=4, max_distance=2).shown_answer == "1"
    assert _one("learned_params", n=1024, d=768).shown_answer == "786432"
    assert _one("rope_angle", m=10, k=1, d=4).shown_answer == "0.1000"  # 10 / 10000^(1/2)
    assert _one("sinusoidal_wavelength", k=0, d=16).shown_answer == "6.28"
    assert _one("sinusoidal_angle", pos=5, k=1, d=4).shown_answer == "0.0500"
    assert _one("faster_dimension", j1=9, j2=2, d=16).shown_answer == "2"
    assert _one("alibi_bias", heads=8, head=1, i=5, j=1, causal=True).shown_answer == "-2.0000"
    # YaRN, d = 16, base 10000, L0 = 4096: k(32) = 2.62 -> 2 and k(1) = 5.63 -> 6 (by hand).
    # Pair 2 is kept (2 pi * 10), pair 7 divided by 4, pair 4 halfway: theta' = 0.01 * 5/8.
    yarn = {"method": "yarn", "d": 16, "base": 10000.0, "factor": 4.0, "original_max": 4096}
    assert _one("rope_scaling", k=2, **yarn).shown_answer == "62.8"
    assert _one("rope_scaling", k=4, **yarn).shown_answer == "1005.3"
    assert _one("rope_scaling", k=7, **yarn).shown_answer == f"{4 * 2 * math.pi * 10**3.5:.1f}"
    assert "rounded down to 2" in _one("rope_scaling", k=4, **yarn).solution
    linear = _one("rope_scaling", method="linear", k=0, d=64, factor=4.0)
    assert linear.shown_answer == "25.1"  # 4 * 2 pi
    # A, B, C reordered to C, B, A: A moves to position 2, B stays at 1. With position vectors
    # (1, 1) + p_2 = (2, 0) and (1, 2) + p_1 = (2, 3) give 4; without them (1, 1) . (1, 2) = 3.
    gap = _one("permutation_gap", n=3, d=2, with_pe=True, vector_seed=1)
    assert gap.values["order"] == [2, 1, 0] and gap.values["pair"] == [0, 1]
    assert gap.shown_answer == "4"
    plain = _one("permutation_gap", n=3, d=2, with_pe=False, vector_seed=1)
    assert plain.values["x"] == gap.values["x"] and plain.shown_answer == "3"


def test_hand_worked_distractors() -> None:
    params = {"pos": Choices((3,)), "j": Choices((2,)), "d": Choices((8,))}
    g = GENERATORS["sinusoidal_entry"].generate(rng_for(0, "x"), params)
    by_key = {d.misconception: d.value for d in g.distractors}
    assert by_key["sin_cos_swapped"] == pytest.approx(math.cos(0.3))
    assert by_key["degrees"] == pytest.approx(math.sin(math.radians(0.3)))
    assert by_key["position_from_1"] == pytest.approx(math.sin(0.4))
    assert by_key["i_for_2k"] == pytest.approx(math.sin(3 / 10000 ** (4 / 8)))
    g = GENERATORS["alibi_slope"].generate(
        rng_for(0, "x"), {"heads": Choices((6,)), "head": Choices((5,))}
    )
    by_key = {d.misconception: d.value for d in g.distractors}
    assert by_key["alibi_naive_slope"] == pytest.approx(2 ** (-40 / 6))
    g = GENERATORS["t5_bucket"].generate(rng_for(0, "x"), {"relative_position": Choices((20,))})
    assert {d.misconception: d.value for d in g.distractors}["t5_sign"] == 10
    # The draw of test_hand_worked_values: the old score keeps p_0 for A, (0, 1) . (2, 3) = 3;
    # the score matrix kept in place reads C and B, (0, 1) + p_2 = (1, 0) and (2, 3): 2.
    gap = {"n": 3, "d": 2, "with_pe": True, "vector_seed": 1}
    g = GENERATORS["permutation_gap"].generate(
        rng_for(0, "x"), {k: Choices((x,)) for k, x in gap.items()}
    )
    by_key = {d.misconception: d.value for d in g.distractors}
    assert by_key == {"pe_moves_with_token": 3, "invariance_for_equivariance": 2}


# --- seeds and variants ------------------------------------------------------------------------


def _numbers(variants: tuple[Any, ...]) -> list[tuple[object, ...]]:
    return [(v.answer, tuple(sorted((k, str(x)) for k, x in v.values.items()))) for v in variants]


def test_numbers_depend_only_on_seed_id_and_variant() -> None:
    from tests.helpers import concretes_for

    q1 = question("sinusoidal_entry", qid="sin-entry", answer="choice")
    q2 = question("rope_score", qid="rope-score")
    alone = Bank("b", "B", "b.yml", (q1,))
    crowded = Bank("b", "B", "b.yml", (q2, question("alibi_bias", qid="a-bias"), q1))
    before = concretes_for([alone], 42)["sin-entry"].variants
    after = concretes_for([crowded], 42)["sin-entry"].variants
    assert before == after
    # The variant count does not shift the numbers of earlier variants.
    assert computed_variants(q1, 42, count=2) == computed_variants(q1, 42, count=5)[:2]
    assert computed_variants(q1, 42) == computed_variants(q1, 42)


@pytest.mark.parametrize("name", sorted(GENERATORS))
def test_different_seeds_give_different_numbers(name: str) -> None:
    q = question(name)
    assert _numbers(computed_variants(q, 1)) != _numbers(computed_variants(q, 2))
    assert _numbers(computed_variants(q, 42)) != _numbers(computed_variants(q, 7))


def test_correct_option_position_is_spread_evenly() -> None:
    for options in (3, 4):
        counts: Counter[int] = Counter()
        names = [n for n in sorted(GENERATORS) if choice_options(n) >= options]
        for name in names:
            q = question(name, answer="choice", options=options)
            for seed in range(20):
                for v in computed_variants(q, seed, count=3):
                    counts[next(i for i, o in enumerate(v.options) if o.correct)] += 1
        total = sum(counts.values())
        expected = total / options
        chi2 = sum((counts[i] - expected) ** 2 / expected for i in range(options))
        # 99.9th percentile of chi-square with 2 and 3 degrees of freedom.
        assert chi2 < {3: 13.82, 4: 16.27}[options], (options, counts)
        assert set(counts) == set(range(options))


def test_choice_retries_until_distractors_differ_at_the_precision_shown() -> None:
    # alibi_slope with 8 heads: the naive and sorted rules equal the answer, so they are skipped.
    q = question("alibi_slope", answer="choice", options=3, params={"heads": Choices((8,))})
    for v in computed_variants(q, 5, count=5):
        keys = {o.misconception for o in v.options if not o.correct}
        assert keys.isdisjoint({"alibi_naive_slope", "alibi_sorted"})
        assert len({o.text for o in v.options}) == 3


def test_impossible_choice_raises_a_clear_error() -> None:
    q = question(
        "t5_bucket",
        answer="choice",
        options=4,
        params={"relative_position": Choices((3,))},
    )
    with pytest.raises(GeneratorError, match="q-t5-bucket"):
        computed_variants(q, 1)


# --- prompt templates --------------------------------------------------------------------------


def test_prompt_template_uses_the_drawn_values() -> None:
    q = question(
        "sinusoidal_entry",
        prompt="Find $PE_{ {{- pos }},{{ j -}} }$ for $d = {{ d }}$, to {{ decimals }} places.",
    )
    for v in computed_variants(q, 11):
        assert v.prompt == (
            f"Find $PE_{{{v.values['pos']},{v.values['j']}}}$ for $d = {v.values['d']}$, "
            "to 4 places."
        )


def test_prompt_template_errors_name_the_question() -> None:
    for prompt in ("{{ nope }}", "{{ pos ", "{{ pos.__class__.__mro__ }}"):
        q = question("sinusoidal_entry", qid="bad-template", prompt=prompt)
        with pytest.raises(PromptTemplateError, match="bad-template") as info:
            computed_variants(q, 1)
        assert isinstance(info.value, ValueError)


def test_prompt_template_is_not_html_escaped() -> None:
    q = question("alibi_bias", prompt="Is {{ i }} < {{ j }} & so on?")
    assert "<" in computed_variants(q, 1, count=1)[0].prompt


# --- validation ----------------------------------------------------------------------------------


def _messages(problems: list[tuple[str, str]]) -> dict[str, str]:
    return dict(problems)


def test_validate_unknown_generator_and_param() -> None:
    got = _messages(validate_computed("sinusoidal_entri", {}, "numeric", None, 4))
    assert "did you mean 'sinusoidal_entry'" in got["generator"]
    got = _messages(
        validate_computed("sinusoidal_entry", {"position": Range(1, 5)}, "numeric", None, 4)
    )
    assert "unknown parameter 'position'" in got["params.position"]
    assert "did you mean 'pos'" in got["params.position"]


@pytest.mark.parametrize(
    ("generator", "param", "constraint", "fragment"),
    [
        ("sinusoidal_entry", "d", Choices((7,)), "expected an even int in 2..4096, found 7"),
        ("sinusoidal_entry", "d", Range(4, 5000), "expected an even int in 2..4096"),
        ("sinusoidal_entry", "d", Range(2, 16, 3), "not allowed"),
        ("sinusoidal_entry", "pos", Choices((1.5,)), "expected an int"),
        ("sinusoidal_entry", "pos", Range(-3, 4), "found the range -3..4"),
        ("sinusoidal_entry", "pos", Range(10, 5), "empty range"),
        ("sinusoidal_entry", "d", Range(5, 5), "empty range"),
        ("sinusoidal_entry", "pos", Choices(()), "empty list"),
        ("rope_score", "layout", Range(1, 2), "found a range"),
        ("rope_score", "layout", Choices(("rotate_half",)), "one of 'half', 'interleaved'"),
        ("rope_score", "d", Range(2, 16), "expected one of 2, 4, 6, 8"),
        ("alibi_bias", "causal", Choices(("yes",)), "expected true or false"),
        ("sincos_2d_entry", "d", Choices((18,)), "multiple of 4"),
        ("rope_scaling", "factor", Choices(("big",)), "expected a number"),
        ("shaw_index", "max_distance", Range(1, 3, 0.5), "integer step"),
    ],
)
def test_validate_constraint_errors(
    generator: str, param: str, constraint: ParamConstraint, fragment: str
) -> None:
    got = _messages(validate_computed(generator, {param: constraint}, "numeric", None, 4))
    assert fragment in got[f"params.{param}"], got


def test_validate_answer_decimals_and_options(tmp_path: Path) -> None:
    def problems(fields: str) -> dict[str, str]:
        bank = tmp_path / "b.yml"
        bank.write_text(
            "bank: b\ntitle: B\nquestions:\n  - id: q\n    type: computed\n"
            f"    generator: alibi_slope\n{fields}",
            encoding="utf-8",
        )
        report = check_banks(bank, plugins=PE)
        return {p.field or "": p.message for p in report.problems}

    assert "expected numeric or choice" in problems("    answer: text\n")["answer"]
    for decimals in (9, -1, "true"):
        assert "from 0 to 8" in problems(f"    decimals: {decimals}\n")["decimals"]
    for options in (1, 7):
        got = problems(f"    answer: choice\n    options: {options}\n")
        assert "from 2 to 6" in got["options"]
    assert "from 2 to 6" not in problems("    answer: choice\n    options: 6\n").get("options", "")


def test_validate_huge_numbers_without_overflow() -> None:
    huge = 10**400
    params: dict[str, ParamConstraint] = {
        "d": Choices((huge,)),
        "pos": Range(0, huge),
        "base": Choices((1e300,)),
    }
    got = _messages(validate_computed("sinusoidal_entry", params, "numeric", None, 4))
    assert (
        got["params.d"] == "expected an even int in 2..4096, found 100000000000... (401 characters)"
    )
    assert "found max 100000000000..." in got["params.pos"]
    assert "expected a number in 1.5..1000000000" in got["params.base"]


def test_validate_choice_needs_enough_distractors() -> None:
    got = _messages(validate_computed("faster_dimension", {}, "choice", None, 4))
    assert "at most 3 options" in got["options"]
    assert validate_computed("faster_dimension", {}, "choice", None, 2) == []
    small = {"relative_position": Choices((3, 4, 5, 6, 7))}
    got = _messages(validate_computed("t5_bucket", small, "choice", None, 4))
    assert "cannot give 3 distractors" in got["options"]
    assert validate_computed("t5_bucket", small, "numeric", None, 4) == []


def test_validate_reports_constraints_with_no_usable_draw() -> None:
    params = {"d": Choices((4,)), "j": Choices((9,))}
    got = _messages(validate_computed("sinusoidal_entry", params, "numeric", None, 4))
    assert "no usable draw" in got["params"]


def test_ranges_respect_the_allowed_lattice() -> None:
    gen = GENERATORS["sincos_2d_entry"]
    for seed in range(50):
        g = gen.generate(rng_for(seed, "lattice"), {"d": Range(4, 40)})
        assert g.values["d"] % 4 == 0
    floats = GENERATORS["rope_scaling"]
    for seed in range(50):
        g = floats.generate(
            rng_for(seed, "f"), {"factor": Range(1.5, 3), "method": Choices(("linear",))}
        )
        factor = g.values["factor"]
        assert 1.5 <= factor <= 3 and abs(round(factor * 100) - factor * 100) < 1e-6


# --- numbers as text and preview -----------------------------------------------------------------


def test_format_number_and_tolerance() -> None:
    assert format_number(-0.0001, 3) == "0.000"
    assert format_number(-0.0006, 3) == "-0.001"
    assert format_number(26.0, 0) == "26"
    tol = tolerance_for(0.2955202, 4)
    assert 0.00005 < tol < 0.0001
    assert abs(0.2955 - 0.2955202) <= tol
    assert tolerance_for(26.0, 0, exact=True) == 0.0
    assert tolerance_for(0.125, 2) >= abs(round(0.125, 2) - 0.125)


def test_preview_shows_every_part() -> None:
    q = question("sinusoidal_entry", answer="choice", options=4)
    variants = computed_variants(q, 42, count=2)
    text = format_preview(q, variants)
    for v in variants:
        assert v.prompt.splitlines()[0] in text
        assert f"answer: {v.shown_answer}" in text
        for option in v.options:
            assert option.text in text
            if option.misconception:
                assert f"[{option.misconception}]" in text
        assert v.solution.splitlines()[0] in text
    assert "tolerance" in text and "<- correct" in text


def test_far_apart_positions_stay_cheap_and_right() -> None:
    assert _one("shaw_index", i=90_000, j=10, max_distance=5).shown_answer == "0"
    assert _one("shaw_index", i=10, j=90_000, max_distance=5).shown_answer == "10"
    far = _one("alibi_bias", heads=256, head=256, i=100_000, j=0, causal=True)
    assert far.answer == pytest.approx(-(2.0**-8) * 100_000)
    patch = _one("sincos_2d_entry", grid=64, row=63, col=62, d=1024, channel=1000)
    assert patch.answer == pytest.approx(pe.sincos_2d(64, 64, 1024)[63 * 64 + 62, 1000])


# --- pinned numbers ------------------------------------------------------------------------------

# Drawn by the code as it was before the speedups of the variant drawing and the probe (seed 42,
# default params, first two variants): (answer, shown answer, drawn parameters). A change here
# means a site's questions change for every reader, so optimisations must keep these exact.
PINNED_SEED_42: dict[str, list[tuple[float, str, dict[str, object]]]] = {
    "alibi_bias": [
        (-0.625, "-0.6250", {"heads": 12, "head": 3, "causal": True, "i": 5, "j": 0}),
        (-0.015625, "-0.0156", {"heads": 4, "head": 3, "causal": False, "i": 0, "j": 1}),
    ],
    "alibi_slope": [
        (0.25, "0.2500", {"heads": 16, "head": 4}),
        (0.25, "0.2500", {"heads": 6, "head": 1}),
    ],
    "faster_dimension": [
        (16.0, "16", {"d": 32, "j1": 16, "j2": 21, "slower": False, "base": 10000}),
        (0.0, "0", {"d": 8, "j1": 0, "j2": 6, "slower": False, "base": 10000}),
    ],
    "learned_params": [
        (262144.0, "262144", {"n": 512, "d": 512}),
        # The same values came again: the variant is drawn anew (variants are distinct).
        (1048576.0, "1048576", {"n": 2048, "d": 512}),
    ],
    # Redrawn when the question became one score worked by hand (issue 37).
    "permutation_gap": [
        (-1.0, "-1", {"n": 4, "d": 3, "with_pe": True, "vector_seed": 333931}),
        (5.0, "5", {"n": 4, "d": 3, "with_pe": False, "vector_seed": 692493}),
    ],
    "rope_angle": [
        (13.514923516295815, "13.5149", {"d": 64, "k": 6, "m": 76, "base": 10000}),
        (0.025, "0.0250", {"d": 16, "k": 6, "m": 25, "base": 10000}),
    ],
    "rope_scaling": [
        (
            376937.9422413392,
            "376937.9",
            {
                "method": "llama3",
                "d": 64,
                "k": 31,
                "base": 10000,
                "factor": 8,
                "original_max": 8192,
                "seq_len": 32768,
            },
        ),
        (
            13.944301096319203,
            "13.9",
            {
                "method": "dynamic",
                "d": 64,
                "k": 2,
                "base": 10000,
                "factor": 2,
                "original_max": 4096,
                "seq_len": 65536,
            },
        ),
    ],
    "rope_score": [
        (
            -5.296015280182404,
            "-5.296",
            {"d": 8, "m": 1, "n": 4, "base": 10000, "layout": "interleaved", "vector_seed": 289401},
        ),
        (
            0.9631202441965612,
            "0.963",
            {"d": 4, "m": 6, "n": 2, "base": 10000, "layout": "half", "vector_seed": 277789},
        ),
    ],
    "shaw_index": [
        (3.0, "3", {"i": 10, "j": 11, "max_distance": 2}),
        (1.0, "1", {"i": 7, "j": 6, "max_distance": 2}),
    ],
    "shift_matrix_entry": [
        (
            -0.14550003380861354,
            "-0.1455",
            {"d": 16, "k": 0, "offset": 8, "row": 0, "col": 0, "base": 10000},
        ),
        (
            0.8438539587324921,
            "0.8439",
            {"d": 16, "k": 0, "offset": 12, "row": 0, "col": 0, "base": 10000},
        ),
    ],
    "sincos_2d_entry": [
        (
            0.02999550020249566,
            "0.0300",
            {"grid": 14, "row": 3, "col": 6, "d": 16, "channel": 10, "base": 10000},
        ),
        (
            0.9998200053999352,
            "0.9998",
            {"grid": 8, "row": 2, "col": 6, "d": 32, "channel": 13, "base": 10000},
        ),
    ],
    "sinusoidal_angle": [
        (0.97, "0.9700", {"d": 8, "k": 2, "pos": 97, "base": 10000}),
        (0.091, "0.0910", {"d": 16, "k": 6, "pos": 91, "base": 10000}),
    ],
    "sinusoidal_dot": [
        (0.9252350580032781, "0.925", {"d": 8, "p": 26, "q": 5, "base": 10000}),
        (1.6961849424863784, "1.696", {"d": 8, "p": 3, "q": 13, "base": 10000}),
    ],
    "sinusoidal_entry": [
        (0.3801884151231614, "0.3802", {"d": 4, "pos": 39, "j": 2, "base": 10000}),
        (0.017701925105413577, "0.0177", {"d": 8, "pos": 44, "j": 0, "base": 10000}),
    ],
    "sinusoidal_wavelength": [
        (83.78762269377677, "83.79", {"d": 64, "k": 9, "base": 10000}),
        (6283.185307179586, "6283.19", {"d": 16, "k": 6, "base": 10000}),
    ],
    "t5_bucket": [
        (
            25.0,
            "25",
            {
                "relative_position": 14,
                "bidirectional": True,
                "num_buckets": 32,
                "max_distance": 128,
            },
        ),
        (
            30.0,
            "30",
            {
                "relative_position": 67,
                "bidirectional": True,
                "num_buckets": 32,
                "max_distance": 128,
            },
        ),
    ],
}


@pytest.mark.parametrize("name", sorted(PINNED_SEED_42))
def test_drawn_numbers_are_pinned(name: str) -> None:
    variants = computed_variants(question(name), 42, count=2)
    got = [
        (
            v.answer,
            v.shown_answer,
            {k: x for k, x in v.values.items() if k in GENERATORS[name].params},
        )
        for v in variants
    ]
    # What a reader sees, and the drawn parameters with their types, exactly; the answer
    # within a relative tolerance (another CPU's numpy may round its last bit otherwise).
    pinned = PINNED_SEED_42[name]
    assert [(shown, values) for _, shown, values in got] == [(s, v) for _, s, v in pinned]
    assert [a for a, _, _ in got] == pytest.approx([a for a, _, _ in pinned], rel=1e-12, abs=1e-15)
    for (_, _, values), (_, _, pinned_values) in zip(got, pinned, strict=True):
        assert [type(x) for x in values.values()] == [type(x) for x in pinned_values.values()]


def test_seeded_streams_and_options_are_pinned() -> None:
    from konum.seeding import derive_seed

    assert derive_seed(42, "q", 3) == 9036268480559664436
    rng = rng_for(42, "q", 3)
    assert rng.integers(1000, size=5).tolist() == [679, 408, 228, 955, 724]
    assert rng_for(42, "q", 3).random() == 0.40837807876052157
    variants = computed_variants(question("sinusoidal_entry", answer="choice"), 7, count=3)
    assert [[o.text for o in v.options] for v in variants] == [
        ["-0.4000", "-0.4903", "-0.9165", "0.7431"],
        ["0.0087", "0.0050", "0.4794", "0.8776"],
        # 0.9602 and 0.9615 (0.1 % apart) are no longer both shown: see MIN_RELATIVE_GAP.
        ["0.9945", "0.9602", "-0.2794", "0.7539"],
    ]


def _generated(answer: float, values: list[float], decimals: int, tolerance: float) -> Generated:
    return Generated(
        values={},
        prompt="",
        answer=answer,
        decimals=decimals,
        tolerance=tolerance,
        unit=None,
        solution="",
        distractors=tuple(Distractor(x, f"m{i}", "") for i, x in enumerate(values)),
    )


def test_distractors_too_close_to_a_shown_option_are_skipped() -> None:
    # 0.5001 is one unit from the answer, 0.5050 1 % of it, 0.7010 1.4 % from 0.7110.
    generated = _generated(0.5, [0.5001, 0.505, 0.7110, 0.7010, 0.3, 0.1], 4, 0.000055)
    picked = pick_distractors(generated, 3)
    assert picked is not None
    assert [d.value for d in picked] == [0.7110, 0.3, 0.1]
    assert pick_distractors(generated, 4) is None


def test_exact_answers_take_any_distractor_that_shows_differently() -> None:
    # A count off by one row is the mistake the option stands for, however large the count.
    generated = _generated(98304, [98304, 98432, 98305], 0, 0.0)
    picked = pick_distractors(generated, 2)
    assert picked is not None and [d.value for d in picked] == [98432, 98305]


@pytest.mark.parametrize(
    ("a", "b", "decimals", "expected"),
    [
        ("0.9998", "1.0000", 4, False),
        ("0.0100", "0.0101", 4, False),
        ("0.0000", "0.0002", 4, True),
        ("0.0100", "0.0130", 4, True),
        ("3.1416", "3.1419", 4, False),
        ("3.1416", "3.2100", 4, True),
        ("-0.0100", "0.0100", 4, True),
        ("12", "13", 0, False),
        ("12", "14", 0, True),
    ],
)
def test_apart_needs_two_units_and_two_percent(
    a: str, b: str, decimals: int, expected: bool
) -> None:
    assert apart(a, b, decimals, exact=False) is expected
    assert apart(b, a, decimals, exact=False) is expected


def test_probe_outcomes_are_pinned() -> None:
    def check(name: str, params: Mapping[str, ParamConstraint], *args: Any) -> object:
        return validate_computed(name, params, *args)

    assert check("sinusoidal_entry", {"j": Range(1, 7)}, "choice", None, 5) == []
    assert check("alibi_slope", {"heads": Choices((8,))}, "choice", 0, 4) == [
        (
            "decimals",
            "the answer 0.25 for heads = 8, head = 2 shows as 0 at 0 decimals, so 0 counts as "
            "right; ask for 1 decimal or change the params",
        )
    ]
    row0 = {"pos": Choices((0,)), "j": Choices((5,))}
    assert check("sinusoidal_entry", row0, "choice", None, 3) == [
        (
            "options",
            "with these params sinusoidal_entry cannot give 2 distractors that differ from the "
            "answer and each other at 4 decimals; ask for fewer options, more decimals or "
            "wider params",
        )
    ]
    rejected = {"num_buckets": Choices((64,)), "max_distance": Choices((8,))}
    ((field, message),) = check("t5_bucket", rejected, "numeric", None, 4)
    # The generator's message, then its line in the plugin and the values that made it fail.
    assert field == "params" and re.fullmatch(
        "the generator rejects values these params allow: max_distance must be an integer "
        r"greater than the 16 exact buckets, got 8 at generator/konum_pe/generators/\w+\.py:\d+, "
        r"for relative_position = -?\d+, bidirectional = \w+, num_buckets = 64, max_distance = 8",
        message,
    ), message
    assert check("sinusoidal_entry", {"d": Choices((4,)), "j": Range(10, 12)}, "numeric", None, 4)[
        0
    ][1].startswith("sinusoidal_entry: the parameter constraints leave no usable draw")


# --- seeding -----------------------------------------------------------------------------------


@settings(max_examples=100, deadline=None)
@given(st.integers(min_value=0, max_value=2**63 - 1), st.text(max_size=12), st.integers(0, 99))
def test_rng_for_is_default_rng_of_the_derived_seed(seed: int, qid: str, index: int) -> None:
    from konum.seeding import derive_seed

    expected = np.random.default_rng(np.random.SeedSequence(derive_seed(seed, qid, index)))
    got = rng_for(seed, qid, index)
    assert got.bit_generator.state == expected.bit_generator.state
    assert got.integers(1000, size=8).tolist() == expected.integers(1000, size=8).tolist()


def test_keys_of_different_types_are_different_streams() -> None:
    # 1 and True are different keys (their str differ); 1 and "1" are the same key.
    assert rng_for(0, 1).random() != rng_for(0, True).random()
    assert rng_for(0, 1).random() == rng_for(0, "1").random()


def test_a_variant_changed_by_its_caller_changes_no_later_draw() -> None:
    q = question("rope_score", answer="choice")
    first = computed_variants(q, 42, count=3)
    first[0].values["q"].append(99)  # type: ignore[attr-defined]
    again = computed_variants(q, 42, count=3)
    assert 99 not in again[0].values["q"]  # type: ignore[operator]
    assert again[1:] == first[1:]


def test_int_and_float_spellings_of_a_range_probe_alike() -> None:
    for spelling in (Range(1, 50), Range(1.0, 50.0)):
        params = {"pos": spelling, "d": Choices((8, 16))}
        assert validate_computed("sinusoidal_entry", params, "choice", 4, 4) == []


# Produced by the code before rng_for became plain default_rng (commit 3d3de1a, which seeded
# PCG64 through its own copy of SeedSequence): option and right-hand orders must not move.
PINNED_ORDERS = {
    0: ((0, 4, 1, 2, 3, 5), ("r0", "r3", "x", "y", "r2", "r1")),
    7: ((3, 4, 0, 2, 1, 5), ("r2", "r1", "r3", "y", "x", "r0")),
    2**63 - 1: ((0, 1, 4, 2, 3, 5), ("r3", "r1", "x", "r2", "r0", "y")),
}


@pytest.mark.parametrize("seed", sorted(PINNED_ORDERS))
def test_option_and_matching_orders_are_pinned(seed: int) -> None:
    from konum.types import ChoiceQuestion, MatchingQuestion, Option, Pair
    from konum.types.choice import option_order
    from konum.types.matching import right_items

    src = Source("x", 1, 1)
    options = tuple(Option(str(i), i == 0, pin=i == 5) for i in range(6))
    choice = ChoiceQuestion("pinned-choice", "b", "p", "e", src, options=options)
    pairs = tuple(Pair(f"l{i}", f"r{i}") for i in range(4))
    matching = MatchingQuestion(
        "pinned-matching", "b", "p", "e", src, pairs=pairs, distractors=("x", "y")
    )
    assert (option_order(choice, seed), right_items(matching, seed)) == PINNED_ORDERS[seed]


# --- a condition on a generator's params (issue 45) -------------------------------------------


def test_a_where_keeps_a_generators_drawings_apart() -> None:
    from dataclasses import replace

    from konum.types.base import Probe

    params = {"d": Choices((8,)), "pos": Range(1, 6), "j": Range(0, 3)}
    q = replace(question("sinusoidal_entry", params=params), where="pos != j + 1 and pos > 2")
    drawn = [(v.values["pos"], v.values["j"]) for v in computed_variants(q, 11, 12)]
    assert len(drawn) == 12 and all(pos != j + 1 and pos > 2 for pos, j in drawn)
    assert q.probe(Probe(PE))[0] == []
    never = replace(q, where="pos > 6")
    ((field, message),) = [(f.field, f.message) for f in never.probe(Probe(PE))[0]]
    assert (field, message) == (
        "where",
        "no drawing of sinusoidal_entry meets 'pos > 6' (200 tried): widen the params or "
        "loosen the condition",
    )
    failing = replace(q, where="pos / (j - j) > 1")
    (finding,) = failing.probe(Probe(PE))[0]
    assert finding.field == "where" and re.fullmatch(
        r"'pos / \(j - j\) > 1' fails for pos = \d, j = \d: division by zero in 'pos / \(j - j\)'",
        finding.message,
    ), finding.message
    unknown = replace(q, where="pos > base2")
    (finding,) = unknown.probe(Probe(PE))[0]
    assert finding.field == "where" and finding.offset == 6
    assert finding.message.startswith("unknown name 'base2'; did you mean 'base'?")
