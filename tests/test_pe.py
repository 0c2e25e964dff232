"""Tests for the positional-encoding core, ``konum_pe.pe``.

Expected values are worked out here independently of the code under test: from the papers'
formulas with ``math``, from small hand-assembled arrays, or from straightforward scalar
re-implementations of the reference algorithms (T5's bucketing, ALiBi's ``get_slopes``).
Property tests (hypothesis) check the structure the lessons teach.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from konum_pe import pe

# Modest example counts keep the suite fast; no deadline because the first numpy call of a
# run can be slow for reasons unrelated to the code under test.
FAST = settings(max_examples=30, deadline=None)

even_d = st.integers(min_value=1, max_value=32).map(lambda k: 2 * k)
small_pos = st.integers(min_value=0, max_value=200)
bases = st.sampled_from([100.0, 10000.0, 500000.0])


def interleaved_by_hand(positions: list[float], d: int, base: float = 10000.0) -> np.ndarray:
    """The paper / DistilBERT formula, one entry at a time."""
    out = np.zeros((len(positions), d))
    for row, p in enumerate(positions):
        for j in range(d):
            angle = p / base ** (2 * (j // 2) / d)
            out[row, j] = math.sin(angle) if j % 2 == 0 else math.cos(angle)
    return out


# --------------------------------------------------------------------------------------------
# sinusoidal


def test_sinusoidal_classic_rows() -> None:
    table = pe.sinusoidal(4, 6)
    assert table.shape == (4, 6)
    assert table.dtype == np.float64
    np.testing.assert_array_equal(table[0], [0, 1, 0, 1, 0, 1])
    np.testing.assert_array_equal(np.round(table[1], 3), [0.841, 0.54, 0.046, 0.999, 0.002, 1.0])


def test_sinusoidal_matches_formula_entry_by_entry() -> None:
    expected = [
        [
            math.sin(1.0),
            math.cos(1.0),
            math.sin(1 / 10000 ** (2 / 6)),
            math.cos(1 / 10000 ** (2 / 6)),
            math.sin(1 / 10000 ** (4 / 6)),
            math.cos(1 / 10000 ** (4 / 6)),
        ]
    ]
    np.testing.assert_allclose(pe.sinusoidal([1], 6), expected, rtol=0, atol=1e-15)
    np.testing.assert_allclose(
        pe.sinusoidal(10, 8, base=100.0),
        interleaved_by_hand(list(range(10)), 8, base=100.0),
        atol=1e-13,
    )


def test_sinusoidal_odd_d_follows_distilbert() -> None:
    table = pe.sinusoidal(7, 5)
    assert table.shape == (7, 5)
    np.testing.assert_allclose(table, interleaved_by_hand(list(range(7)), 5), atol=1e-13)
    # The last column is a sine with exponent 2*(4//2)/5 = 4/5.
    np.testing.assert_allclose(table[:, 4], [math.sin(p / 10000**0.8) for p in range(7)])
    np.testing.assert_allclose(pe.sinusoidal(3, 1)[:, 0], [0.0, math.sin(1.0), math.sin(2.0)])


def test_sinusoidal_fractional_and_array_positions() -> None:
    positions = [0.5, 2.25, 7.0]
    np.testing.assert_allclose(
        pe.sinusoidal(positions, 6), interleaved_by_hand(positions, 6), atol=1e-13
    )
    np.testing.assert_array_equal(pe.sinusoidal(np.arange(5), 8), pe.sinusoidal(5, 8))
    np.testing.assert_array_equal(pe.sinusoidal(np.int64(5), 8), pe.sinusoidal(5, 8))


def test_sinusoidal_concat_layout() -> None:
    table = pe.sinusoidal(3, 4, layout="concat")
    w = 10000 ** (-2 / 4)
    expected = [[math.sin(p), math.sin(w * p), math.cos(p), math.cos(w * p)] for p in range(3)]
    np.testing.assert_allclose(table, expected, atol=1e-15)
    # Same numbers as the interleaved layout, columns regrouped: sines first, then cosines.
    inter = pe.sinusoidal(9, 10)
    order = [0, 2, 4, 6, 8, 1, 3, 5, 7, 9]
    np.testing.assert_array_equal(pe.sinusoidal(9, 10, layout="concat"), inter[:, order])


def test_frequencies_and_wavelengths() -> None:
    np.testing.assert_allclose(pe.sinusoidal_frequencies(4), [1.0, 0.01])
    np.testing.assert_allclose(pe.sinusoidal_wavelengths(4), [2 * math.pi, 200 * math.pi])
    np.testing.assert_allclose(pe.sinusoidal_frequencies(5), [1.0, 10000**-0.4, 10000**-0.8])
    np.testing.assert_allclose(pe.sinusoidal_angles([3.0], 4, base=100.0), [[3.0, 0.3]])


def test_shift_block_by_hand() -> None:
    # d = 2: one pair with omega = 1; the block maps (sin p, cos p) to (sin(p+k), cos(p+k)).
    k = 3.0
    block = pe.sinusoidal_shift_matrix(k, 2)
    expected = [[math.cos(k), math.sin(k)], [-math.sin(k), math.cos(k)]]
    np.testing.assert_allclose(block, expected)


@FAST
@given(p=small_pos, k=st.integers(min_value=-50, max_value=50), d=even_d, base=bases)
def test_shift_is_a_fixed_block_rotation(p: int, k: int, d: int, base: float) -> None:
    # Build the block-diagonal matrix from the frequencies by hand; it depends on k only.
    m = np.zeros((d, d))
    for i in range(d // 2):
        phi = k / base ** (2 * i / d)
        m[2 * i : 2 * i + 2, 2 * i : 2 * i + 2] = [
            [math.cos(phi), math.sin(phi)],
            [-math.sin(phi), math.cos(phi)],
        ]
    table = pe.sinusoidal([p, p + k, p + 2 * k + 7, p + 3 * k + 7], d, base=base)
    np.testing.assert_allclose(m @ table[0], table[1], atol=1e-9)
    np.testing.assert_allclose(m @ table[2], table[3], atol=1e-9)  # same M, another p
    np.testing.assert_allclose(m.T @ m, np.eye(d), atol=1e-12)  # a rotation
    np.testing.assert_allclose(pe.sinusoidal_shift_matrix(k, d, base=base), m, atol=1e-12)


@FAST
@given(p=small_pos, q=small_pos, s=small_pos, d=even_d, base=bases)
def test_dot_product_depends_only_on_offset(p: int, q: int, s: int, d: int, base: float) -> None:
    table = pe.sinusoidal([p, q, p + s, q + s], d, base=base)
    dot = table[0] @ table[1]
    assert dot == pytest.approx(table[2] @ table[3], abs=1e-9)
    by_hand = sum(math.cos((p - q) / base ** (2 * i / d)) for i in range(d // 2))
    assert dot == pytest.approx(by_hand, abs=1e-9)


# --------------------------------------------------------------------------------------------
# learned


def test_learned_is_deterministic_per_seed() -> None:
    a = pe.learned(16, 8, seed=3)
    assert a.shape == (16, 8)
    assert a.dtype == np.float64
    np.testing.assert_array_equal(a, pe.learned(16, 8, seed=3))
    assert not np.array_equal(a, pe.learned(16, 8, seed=4))


def test_learned_std() -> None:
    table = pe.learned(512, 64)  # 32768 draws: the sample std is within ~1e-4 of 0.02
    assert table.std() == pytest.approx(0.02, abs=5e-4)
    assert abs(table.mean()) < 1e-3
    assert pe.learned(512, 64, std=1.0).std() == pytest.approx(1.0, abs=0.03)


# --------------------------------------------------------------------------------------------
# softmax and attention


def test_softmax_values_and_stability() -> None:
    z = np.array([1.0, 2.0, 3.0])
    e = np.exp(z)
    np.testing.assert_allclose(pe.softmax(z), e / e.sum())
    big = pe.softmax([1000.0, 1001.0, 1002.0])  # exp(1000) overflows; must not matter
    assert np.all(np.isfinite(big))
    np.testing.assert_allclose(big, e / e.sum())
    np.testing.assert_allclose(pe.softmax([-1000.0, -1000.0]), [0.5, 0.5])


def test_softmax_axis_and_masking() -> None:
    z = np.array([[0.0, 0.0], [0.0, math.log(3.0)]])
    np.testing.assert_allclose(pe.softmax(z, axis=0), [[0.5, 0.25], [0.5, 0.75]])
    np.testing.assert_allclose(pe.softmax([0.0, -np.inf, 0.0]), [0.5, 0.0, 0.5])


def test_self_attention_by_hand() -> None:
    x = np.array([[1.0, 0.0], [0.0, 1.0]])
    a = math.exp(1 / math.sqrt(2))
    w = np.array([[a, 1.0], [1.0, a]]) / (a + 1)
    np.testing.assert_allclose(pe.attention_weights(x), w)
    np.testing.assert_allclose(pe.self_attention(x), w @ x)


@FAST
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 8), d=even_d)
def test_self_attention_is_permutation_equivariant(seed: int, n: int, d: int) -> None:
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, d))
    perm = rng.permutation(n)
    np.testing.assert_allclose(pe.self_attention(x[perm]), pe.self_attention(x)[perm], atol=1e-12)


def test_position_breaks_permutation_equivariance() -> None:
    # The seed lesson's demonstration: reverse the tokens. Without PE the output rows are just
    # reversed; with PE added to the inputs they are not.
    x = np.random.default_rng(0).normal(size=(4, 6))
    rev = slice(None, None, -1)
    np.testing.assert_allclose(pe.self_attention(x[rev]), pe.self_attention(x)[rev], atol=1e-12)
    p = pe.sinusoidal(4, 6)
    gap = np.abs(pe.self_attention(x[rev] + p) - pe.self_attention(x + p)[rev]).max()
    assert gap > 1e-2


# --------------------------------------------------------------------------------------------
# RoPE


def test_rope_frequencies_default() -> None:
    np.testing.assert_allclose(pe.rope_frequencies(4), [1.0, 0.01])
    np.testing.assert_allclose(
        pe.rope_frequencies(6, base=64.0), [1.0, 64 ** (-2 / 6), 64 ** (-4 / 6)]
    )
    np.testing.assert_array_equal(
        pe.rope_frequencies(8, scaling={"rope_type": "default"}), pe.rope_frequencies(8)
    )


def test_rope_frequencies_linear_divides_by_factor() -> None:
    scaled = pe.rope_frequencies(8, scaling={"rope_type": "linear", "factor": 4.0})
    np.testing.assert_allclose(scaled, [1 / 4, 0.1 / 4, 0.01 / 4, 0.001 / 4])


def test_rope_frequencies_dynamic() -> None:
    plain = pe.rope_frequencies(4)
    cfg: dict[str, object] = {"rope_type": "dynamic", "factor": 2.0, "max_position_embeddings": 100}
    # Within the trained context (or with no seq_len) nothing changes.
    np.testing.assert_allclose(pe.rope_frequencies(4, scaling=cfg), plain)
    np.testing.assert_allclose(pe.rope_frequencies(4, scaling={**cfg, "seq_len": 100}), plain)
    np.testing.assert_allclose(pe.rope_frequencies(4, scaling={**cfg, "seq_len": 50}), plain)
    # L = 200 > m = 100: base' = 10000 * (2*200/100 - 1) ** (4/2) = 90000,
    # so inv_freq = [1, 90000 ** (-1/2)] = [1, 1/300].
    np.testing.assert_allclose(
        pe.rope_frequencies(4, scaling={**cfg, "seq_len": 200}), [1, 1 / 300]
    )
    # d = 8: base' = 10000 * 3 ** (8/6); inv_freq[k] = base' ** (-2k/8).
    grown = 10000 * 3 ** (8 / 6)
    np.testing.assert_allclose(
        pe.rope_frequencies(8, scaling={**cfg, "seq_len": 200}),
        [grown ** (-k / 4) for k in range(4)],
    )


LLAMA3: dict[str, object] = {
    "rope_type": "llama3",
    "factor": 8.0,
    "low_freq_factor": 1.0,
    "high_freq_factor": 4.0,
    "original_max_position_embeddings": 8192,
}


def test_rope_frequencies_llama3_regimes() -> None:
    # d = 8, base = 10000: inv_freq = [1, 0.1, 0.01, 0.001], wavelengths 2*pi*[1, 10, 100, 1000].
    # L0 = 8192: high-frequency cut 8192/4 = 2048, low-frequency cut 8192/1 = 8192.
    # The first three wavelengths are < 2048 (kept); 6283.2 lies between (blended).
    s = (8192 / (2 * math.pi * 1000) - 1) / (4 - 1)
    expected = [1.0, 0.1, 0.01, (1 - s) * 0.001 / 8 + s * 0.001]
    np.testing.assert_allclose(pe.rope_frequencies(8, scaling=LLAMA3), expected)
    # L0 = 2048: cuts at 512 and 2048. 628.3 is blended, 6283.2 > 2048 is divided by 8.
    cfg = {**LLAMA3, "original_max_position_embeddings": 2048}
    s = (2048 / (2 * math.pi * 100) - 1) / 3
    expected = [1.0, 0.1, (1 - s) * 0.01 / 8 + s * 0.01, 0.001 / 8]
    np.testing.assert_allclose(pe.rope_frequencies(8, scaling=cfg), expected)
    # L0 = 32: cuts at 8 and 32: the first pair (wavelength 6.28) is kept, the rest divided.
    cfg = {**LLAMA3, "original_max_position_embeddings": 32}
    np.testing.assert_allclose(
        pe.rope_frequencies(8, scaling=cfg), [1.0, 0.1 / 8, 0.01 / 8, 0.001 / 8]
    )


def test_rope_frequencies_llama3_blend_is_continuous() -> None:
    # At the two cut-offs the blend equals the neighbouring regime (s = 1 and s = 0).
    d, base = 128, 500000.0
    inv = pe.rope_frequencies(d, base=base)
    scaled = pe.rope_frequencies(d, base=base, scaling=LLAMA3)
    ratio = scaled / inv
    assert np.all(ratio <= 1 + 1e-12)
    assert np.all(ratio >= 1 / 8 - 1e-12)
    assert np.all(np.diff(ratio) <= 1e-12)  # lower frequencies are scaled at least as much


YARN = {"rope_type": "yarn", "factor": 8.0, "original_max_position_embeddings": 8192}


def _turns(d: int, base: float, original: float) -> np.ndarray:
    """r_k = L0 / lambda_k, the turns pair k makes in the original context (YaRN's r)."""
    return original / (2 * math.pi * base ** (np.arange(0, d, 2) / d))


@pytest.mark.parametrize(
    ("d", "base", "factor", "original", "low", "high"),
    [
        # Worked by hand from find_correction_dim, d * ln(L0 / (2 pi beta)) / (2 ln base):
        # 128 * ln(8192 / (64 pi)) / (2 ln 500000) = 18.08 -> floor 18;
        # 128 * ln(8192 / (2 pi)) / (2 ln 500000) = 34.98 -> ceil 35.
        (128, 500000.0, 8.0, 8192, 18, 35),
        # The YaRN paper's Llama 2 at 64k (s = 16, L0 = 4096, base 10000): 20.94 -> 20 and
        # 45.03 -> 46.
        (128, 10000.0, 16.0, 4096, 20, 46),
    ],
)
def test_yarn_ramp_matches_the_reference_code(
    d: int, base: float, factor: float, original: int, low: int, high: int
) -> None:
    ramp = pe.yarn_ramp(d, base=base, factor=factor, original_max=original)
    k = np.arange(d // 2)
    np.testing.assert_array_equal(ramp[k <= low], 0.0)
    np.testing.assert_array_equal(ramp[k >= high], 1.0)
    middle = (k > low) & (k < high)
    np.testing.assert_allclose(ramp[middle], (k[middle] - low) / (high - low), rtol=1e-15)
    # The paper's reading: every kept pair turned more than beta_fast = 32 times, and every
    # pair that turned fewer than beta_slow = 1 times is interpolated in full.
    turns = _turns(d, base, original)
    assert np.all(turns[ramp == 0] > 32) and np.all(ramp[turns < 1] == 1)
    inv = pe.rope_frequencies(d, base=base)
    scaled = pe.rope_frequencies(
        d,
        base=base,
        scaling={
            "rope_type": "yarn",
            "factor": factor,
            "original_max_position_embeddings": original,
        },
    )
    np.testing.assert_allclose(scaled, (1 - ramp) * inv + ramp * inv / factor, rtol=1e-15)
    np.testing.assert_array_equal(scaled[: low + 1], inv[: low + 1])


def test_yarn_betas_and_their_errors() -> None:
    wide = pe.yarn_ramp(128, base=500000.0, factor=8, original_max=8192, beta_fast=64)
    assert (wide == 0).sum() < (
        pe.yarn_ramp(128, base=500000.0, factor=8, original_max=8192) == 0
    ).sum()
    cfg = {**YARN, "beta_fast": 64.0, "beta_slow": 2.0}
    ramp = pe.yarn_ramp(128, base=10000.0, factor=8, original_max=8192, beta_fast=64, beta_slow=2)
    inv = pe.rope_frequencies(128)
    np.testing.assert_allclose(
        pe.rope_frequencies(128, scaling=cfg), (1 - ramp) * inv + ramp * inv / 8
    )
    with pytest.raises(ValueError, match="beta_slow must be below beta_fast"):
        pe.yarn_ramp(128, factor=8, original_max=8192, beta_fast=1, beta_slow=32)
    with pytest.raises(ValueError, match="missing key"):
        pe.rope_frequencies(128, scaling={"rope_type": "yarn", "factor": 8.0})
    with pytest.raises(ValueError, match="unknown key"):
        pe.rope_frequencies(128, scaling={**YARN, "low_freq_factor": 1.0})


def test_yarn_attention_factor() -> None:
    # 0.1 ln s + 1: 1.2772588722 for s = 16 (the paper's 64k Llama 2), 1 for s <= 1.
    assert pe.yarn_attention_factor(16) == pytest.approx(1.2772588722239782, rel=1e-15)
    assert pe.yarn_attention_factor(8) == pytest.approx(1 + 0.1 * math.log(8))
    assert pe.yarn_attention_factor(1) == pe.yarn_attention_factor(0.5) == 1.0
    with pytest.raises(ValueError, match="factor"):
        pe.yarn_attention_factor(0)


def test_rope_decay_bound_is_roformers_term() -> None:
    # r = 0: |S_j| = j, so the mean over j = 1..d/2 is (d/2 + 1)/2.
    assert pe.rope_decay_bound([0], 128)[0] == pytest.approx(32.5)
    # Against the partial sums written out, one term at a time.
    theta = 10000.0 ** (-np.arange(0, 16, 2) / 16)
    for r in (1.0, 7.0, 250.0):
        partial, total = 0j, 0.0
        for t in theta:
            partial += complex(math.cos(r * t), math.sin(r * t))
            total += abs(partial)
        assert pe.rope_decay_bound([r], 16)[0] == pytest.approx(total / 8, rel=1e-12)
    assert pe.rope_decay_bound(3, 8).shape == (3,)
    with pytest.raises(ValueError, match="d must be"):
        pe.rope_decay_bound([1], 7)


def test_rope_nd_angles_by_hand() -> None:
    # Axial (per axis), sections (2, 2), base 100: each axis has frequencies 100^(-j/2) = 1, 0.1.
    np.testing.assert_allclose(
        pe.rope_nd_angles([[3, 5]], 8, [2, 2], base=100.0), [[3.0, 0.3, 5.0, 0.5]]
    )
    # M-RoPE: the frequencies of one 1-D RoPE of size 8 (1, 0.1, 0.01, 0.001), pairs 0 and 1
    # following time, 2 following height, 3 following width.
    np.testing.assert_allclose(
        pe.rope_nd_angles([[2, 3, 5]], 8, [2, 1, 1], per_axis=False),
        [[2.0, 0.2, 0.03, 0.005]],
    )
    # Qwen2-VL's sections for a head of 128: a text token (t = h = w) is rotated as by RoPE.
    same = pe.rope_nd_angles([[7, 7, 7]], 128, [16, 24, 24], base=1e6, per_axis=False)
    np.testing.assert_allclose(same, pe.rope_angles([7], 128, base=1e6))


def test_rope_nd_scores_depend_on_the_offset_per_axis() -> None:
    rng = np.random.default_rng(3)
    q, k = rng.normal(size=(1, 16)), rng.normal(size=(1, 16))

    def score(a: tuple[int, int], b: tuple[int, int], layout: pe.RopeLayout) -> float:
        rq = pe.rope_nd(q, [a], [4, 4], base=100.0, layout=layout)
        rk = pe.rope_nd(k, [b], [4, 4], base=100.0, layout=layout)
        return float((rq * rk).sum())

    for layout in ("half", "interleaved"):
        assert score((1, 2), (3, 5), layout) == pytest.approx(score((4, 0), (6, 3), layout))
        assert score((1, 2), (3, 5), layout) != pytest.approx(score((1, 2), (5, 3), layout))
    x = rng.normal(size=(3, 8))
    np.testing.assert_allclose(pe.rope_nd(x, [[0], [1], [2]], [4], per_axis=False), pe.rope(x))


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: pe.rope_nd_angles([[1, 2]], 16, [3, 4]), "summing to d/2 = 8"),
        (lambda: pe.rope_nd_angles([[1, 2]], 16, [8, 0]), "positive integers"),
        (lambda: pe.rope_nd_angles([[1, 2, 3]], 16, [4, 4]), "one column per section"),
        (lambda: pe.rope_nd(np.ones((2, 16)), [[1, 2]], [4, 4]), "one row per row of x"),
    ],
)
def test_rope_nd_errors(call: Callable[[], object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call()


def test_rope_hand_values() -> None:
    # d = 2: one pair, inv_freq = 1, so position m rotates by m radians.
    np.testing.assert_allclose(pe.rope(np.array([1.0, 0.0]), 1), [math.cos(1), math.sin(1)])
    np.testing.assert_allclose(pe.rope(np.array([0.0, 1.0]), 2), [-math.sin(2), math.cos(2)])
    x = np.array([[1.0, 0.0, 0.0, 0.0]] * 3)
    half = pe.rope(x)  # positions 0, 1, 2; pair (0, 2) has inv_freq 1
    np.testing.assert_allclose(half[:, [0, 2]], [[math.cos(m), math.sin(m)] for m in range(3)])
    np.testing.assert_allclose(half[:, [1, 3]], 0.0, atol=0)
    inter = pe.rope(x, layout="interleaved")  # pair (0, 1)
    np.testing.assert_allclose(inter[:, [0, 1]], [[math.cos(m), math.sin(m)] for m in range(3)])
    np.testing.assert_allclose(inter[:, [2, 3]], 0.0, atol=0)
    # Second pair: inv_freq = 0.01, fractional position 2.5.
    y = np.array([[0.0, 1.0, 0.0, 0.0]])
    np.testing.assert_allclose(
        pe.rope(y, [2.5]), [[0.0, math.cos(0.025), 0.0, math.sin(0.025)]], atol=1e-15
    )


vectors = st.integers(0, 2**32 - 1)


@FAST
@given(
    seed=vectors,
    m=small_pos,
    n=small_pos,
    s=st.integers(-100, 100),
    d=even_d,
    layout=st.sampled_from(["half", "interleaved"]),
)
def test_rope_score_depends_only_on_offset(
    seed: int, m: int, n: int, s: int, d: int, layout: Any
) -> None:
    rng = np.random.default_rng(seed)
    q, k = rng.normal(size=(2, d))
    score = pe.rope(q, m, layout=layout) @ pe.rope(k, n, layout=layout)
    shifted = pe.rope(q, m + s, layout=layout) @ pe.rope(k, n + s, layout=layout)
    assert score == pytest.approx(shifted, abs=1e-9)
    assert score == pytest.approx(pe.rope(q, m - n, layout=layout) @ k, abs=1e-9)


@FAST
@given(seed=vectors, n=st.integers(1, 6), d=even_d, base=bases)
def test_rope_layouts_agree_after_permutation(seed: int, n: int, d: int, base: float) -> None:
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, d))
    positions = rng.uniform(0, 1000, size=n)
    # Interleaved pair (2k, 2k+1) holds what half-layout pair (k, k + d/2) holds.
    perm = [i for k in range(d // 2) for i in (k, k + d // 2)]
    half = pe.rope(x, positions, base=base, layout="half")
    inter = pe.rope(x[:, perm], positions, base=base, layout="interleaved")
    np.testing.assert_allclose(inter, half[:, perm], atol=1e-12)
    np.testing.assert_array_equal(pe.rope_layout_permutation(d), perm)


@FAST
@given(seed=vectors, n=st.integers(1, 6), r=even_d, tail=st.integers(0, 5))
def test_rope_rotary_dim_passes_tail_through(seed: int, n: int, r: int, tail: int) -> None:
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, r + tail))
    for layout in ("half", "interleaved"):
        out = pe.rope(x, rotary_dim=r, layout=layout)
        np.testing.assert_array_equal(out[:, r:], x[:, r:])
        np.testing.assert_allclose(out[:, :r], pe.rope(x[:, :r], layout=layout), atol=1e-12)
        # A rotation keeps every row's length.
        np.testing.assert_allclose(np.linalg.norm(out, axis=1), np.linalg.norm(x, axis=1))


def test_rope_scaling_is_passed_through() -> None:
    x = np.random.default_rng(1).normal(size=(3, 8))
    positions = np.array([0.0, 40.0, 1000.0])
    linear = pe.rope(x, positions, scaling={"rope_type": "linear", "factor": 4.0})
    np.testing.assert_allclose(linear, pe.rope(x, positions / 4.0), atol=1e-12)
    np.testing.assert_allclose(
        pe.rope_angles([2.0], 4, scaling={"rope_type": "linear", "factor": 2.0}), [[1.0, 0.01]]
    )


# --------------------------------------------------------------------------------------------
# ALiBi


def paper_slopes(n: int) -> list[float]:
    """ALiBi's reference ``get_slopes``, written out again."""

    def power_of_2(count: int) -> list[float]:
        start = 2 ** (-(2 ** -(math.log2(count) - 3)))
        return [start * start**i for i in range(count)]

    if math.log2(n).is_integer():
        return power_of_2(n)
    closest = 2 ** math.floor(math.log2(n))
    return power_of_2(closest) + paper_slopes(2 * closest)[0::2][: n - closest]


def test_alibi_slopes_named_cases() -> None:
    np.testing.assert_allclose(pe.alibi_slopes(8), [1 / 2**h for h in range(1, 9)])
    np.testing.assert_allclose(pe.alibi_slopes(6), [1 / 4, 1 / 16, 1 / 64, 1 / 256, 1 / 2, 1 / 8])
    twelve = [2.0**-h for h in range(1, 9)] + [2**-0.5, 2**-1.5, 2**-2.5, 2**-3.5]
    np.testing.assert_allclose(pe.alibi_slopes(12), twelve)
    np.testing.assert_allclose(pe.alibi_slopes(1), [1 / 256])


@pytest.mark.parametrize("heads", range(1, 65))
def test_alibi_slopes_match_reference(heads: int) -> None:
    np.testing.assert_allclose(pe.alibi_slopes(heads), paper_slopes(heads), rtol=1e-13)


def test_alibi_bias_causal() -> None:
    bias = pe.alibi_bias(3, 2)
    assert bias.shape == (2, 3, 3)
    m = 1 / 16  # head 1 of 2: 2 ** (-8 * 1 / 2)
    inf = -np.inf
    expected_head0 = [[0, inf, inf], [-m, 0, inf], [-2 * m, -m, 0]]
    np.testing.assert_array_equal(bias[0], expected_head0)
    m = 1 / 256
    np.testing.assert_array_equal(bias[1], [[0, inf, inf], [-m, 0, inf], [-2 * m, -m, 0]])
    assert not np.any(np.signbit(bias[bias == 0]))  # no -0.0 to print as "-0"


def test_alibi_bias_symmetric() -> None:
    bias = pe.alibi_bias(4, 8, causal=False)
    assert bias.shape == (8, 4, 4)
    assert np.all(np.isfinite(bias))
    np.testing.assert_array_equal(bias, np.transpose(bias, (0, 2, 1)))
    np.testing.assert_allclose(bias[0, 3, 1], -0.5 * 2)
    np.testing.assert_allclose(bias[0, 1, 3], -0.5 * 2)
    # Below the diagonal both forms agree.
    causal = pe.alibi_bias(4, 8)
    lower = np.tril(np.ones((4, 4), dtype=bool))
    np.testing.assert_array_equal(causal[:, lower], bias[:, lower])


def test_alibi_bias_rows_after_softmax_ignore_future() -> None:
    weights = pe.softmax(pe.alibi_bias(5, 4), axis=-1)
    np.testing.assert_array_equal(np.triu(weights[0], k=1), 0.0)
    np.testing.assert_allclose(weights.sum(axis=-1), 1.0)


# --------------------------------------------------------------------------------------------
# T5 buckets


def t5_reference(rel: int, bidirectional: bool, num_buckets: int, max_distance: int) -> int:
    """T5's ``_relative_position_bucket`` for one integer, step by step.

    The references (Mesh TensorFlow, Hugging Face) take the logarithm of a float32 tensor, so
    the arithmetic here is float32 too, with the float32 logarithm correctly rounded (from
    Python's float64 ``math.log``), which their kernels give within an ulp.
    """
    bucket = 0
    if bidirectional:
        num_buckets //= 2
        if rel > 0:
            bucket += num_buckets
        n = abs(rel)
    else:
        n = -min(rel, 0)
    max_exact = num_buckets // 2
    if n < max_exact:
        return bucket + n
    ratio = np.float32(n) / np.float32(max_exact)
    value = (
        np.float32(math.log(float(ratio)))
        / np.float32(math.log(max_distance / max_exact))
        * np.float32(num_buckets - max_exact)
    )
    return bucket + min(max_exact + int(value), num_buckets - 1)


def test_t5_known_values() -> None:
    assert pe.t5_bucket(0) == 0
    assert pe.t5_bucket(-1) == 1
    assert pe.t5_bucket(1) == 17
    assert pe.t5_bucket(-20) == 10
    assert pe.t5_bucket(20) == 26
    for far in (128, 129, 500, 10**6):
        assert pe.t5_bucket(-far) == 15
        assert pe.t5_bucket(far) == 31
    # Causal: future keys (key > query) all share bucket 0; the past uses all 32 buckets.
    np.testing.assert_array_equal(pe.t5_bucket(np.arange(0, 50), bidirectional=False), 0)
    assert pe.t5_bucket(-5, bidirectional=False) == 5
    assert pe.t5_bucket(-1000, bidirectional=False) == 31
    assert isinstance(pe.t5_bucket(3), int)


@pytest.mark.parametrize(
    ("bidirectional", "num_buckets", "max_distance"),
    [
        (True, 32, 128),
        (False, 32, 128),
        (True, 16, 64),
        (False, 8, 20),
        (True, 64, 256),
        (True, 10, 50),
        (False, 7, 100),
    ],
)
def test_t5_matches_reference_bucket_for_bucket(
    bidirectional: bool, num_buckets: int, max_distance: int
) -> None:
    rel = np.arange(-400, 401)
    got = pe.t5_bucket(
        rel, bidirectional=bidirectional, num_buckets=num_buckets, max_distance=max_distance
    )
    expected = [t5_reference(int(r), bidirectional, num_buckets, max_distance) for r in rel]
    np.testing.assert_array_equal(got, expected)
    assert got.dtype == np.int64


def test_t5_default_buckets_agree_with_float64_arithmetic() -> None:
    # With the default sizes no distance sits on a float32/float64 rounding edge.
    def bucket64(n: int) -> int:
        return min(8 + int(math.log(n / 8) / math.log(128 / 8) * 8), 15)

    got = pe.t5_bucket(-np.arange(8, 300))
    np.testing.assert_array_equal(got, [bucket64(n) for n in range(8, 300)])


def test_t5_default_buckets_begin_where_hugging_face_tabulates_them() -> None:
    """Bidirectional T5 (32 buckets, max_distance 128): 0-7 a bucket each, then 8-11, 12-15,
    16-22, 23-31, 32-45, 46-63, 64-90 and 91 on. 16, 32 and 64 sit exactly on a boundary
    (the scaled log is 2, 4 and 6 exactly); float32 lands them on the upper side."""
    starts = [8, 12, 16, 23, 32, 46, 64, 91]
    for bucket, first in enumerate(starts, start=8):
        assert pe.t5_bucket(-first) == bucket, first
        assert pe.t5_bucket(-(first - 1)) == bucket - 1, first
        assert pe.t5_bucket(first) == 16 + bucket, first


@pytest.mark.parametrize(
    ("bidirectional", "num_buckets", "max_distance", "distance", "bucket"),
    [
        # log(60/36) / log(100/36) * 36 is 18 exactly; in float32 it is 17.999998 with the
        # correctly rounded log(5/3) and 18.0 with numpy's AVX2 float32 log, an ulp high.
        (False, 72, 100, 60, 53),
        (False, 72, 100, 59, 53),
        (False, 72, 100, 61, 54),
        # Bidirectional, 16 buckets, max_distance 64: log2(n / 4) exactly 1, 2 and 3.
        (True, 16, 64, 8, 5),
        (True, 16, 64, 16, 6),
        (True, 16, 64, 31, 6),
        (True, 16, 64, 32, 7),
        (True, 64, 256, 31, 19),
        (True, 64, 256, 32, 20),  # e = 16: log(2) / log(16) * 16 = 4 exactly
    ],
)
def test_t5_boundaries_take_the_correctly_rounded_float32_log(
    bidirectional: bool, num_buckets: int, max_distance: int, distance: int, bucket: int
) -> None:
    kwargs = {
        "bidirectional": bidirectional,
        "num_buckets": num_buckets,
        "max_distance": max_distance,
    }
    assert pe.t5_bucket(-distance, **kwargs) == bucket
    assert pe.t5_bucket(-np.array([distance]), **kwargs).tolist() == [bucket]
    assert t5_reference(-distance, bidirectional, num_buckets, max_distance) == bucket


def test_t5_keeps_shape() -> None:
    rel = np.arange(12).reshape(3, 4) - 6
    out = pe.t5_bucket(rel)
    assert out.shape == (3, 4)
    np.testing.assert_array_equal(out.ravel(), [pe.t5_bucket(int(r)) for r in rel.ravel()])
    np.testing.assert_array_equal(pe.t5_bucket([2.0, -3.0]), [18, 3])


# --------------------------------------------------------------------------------------------
# Shaw et al. relative index


def test_relative_index_square() -> None:
    idx = pe.relative_index(4, 4, 2)
    expected = [
        [2, 3, 4, 4],
        [1, 2, 3, 4],
        [0, 1, 2, 3],
        [0, 0, 1, 2],
    ]
    np.testing.assert_array_equal(idx, expected)
    assert idx.dtype == np.int64


def test_relative_index_queries_align_to_last_keys() -> None:
    idx = pe.relative_index(2, 5, 1)
    # Queries sit at key positions 3 and 4.
    np.testing.assert_array_equal(idx, [[0, 0, 0, 1, 2], [0, 0, 0, 0, 1]])
    full = pe.relative_index(6, 6, 3)
    np.testing.assert_array_equal(pe.relative_index(2, 6, 3), full[-2:])
    assert pe.relative_index(1, 7, 2).shape == (1, 7)


# --------------------------------------------------------------------------------------------
# MAE 2-D sin-cos


def test_sincos_2d_two_by_two_by_hand() -> None:
    # d = 8: each half has 4 channels in concat layout with frequencies [1, 10000**(-2/4)].
    w = 0.01

    def enc(c: float) -> list[float]:
        return [math.sin(c), math.sin(w * c), math.cos(c), math.cos(w * c)]

    # Row-major tokens (row, col): (0,0), (0,1), (1,0), (1,1); column first, then row.
    expected = [enc(col) + enc(row) for row in (0, 1) for col in (0, 1)]
    np.testing.assert_allclose(pe.sincos_2d(2, 2, 8), expected, atol=1e-15)
    with_cls = pe.sincos_2d(2, 2, 8, cls_token=True)
    assert with_cls.shape == (5, 8)
    np.testing.assert_array_equal(with_cls[0], 0.0)
    np.testing.assert_allclose(with_cls[1:], expected, atol=1e-15)


def test_sincos_2d_rectangular_grid() -> None:
    grid_h, grid_w, d = 3, 5, 16
    emb = pe.sincos_2d(grid_h, grid_w, d, base=100.0)
    assert emb.shape == (15, 16)
    for t in range(grid_h * grid_w):
        row, col = divmod(t, grid_w)
        np.testing.assert_array_equal(
            emb[t, :8], pe.sinusoidal([col], 8, base=100.0, layout="concat")[0]
        )
        np.testing.assert_array_equal(
            emb[t, 8:], pe.sinusoidal([row], 8, base=100.0, layout="concat")[0]
        )


# --------------------------------------------------------------------------------------------
# Argument errors: every one names the argument, the value and what is allowed.

BAD: list[tuple[str, Callable[[], object], str]] = [
    ("sin-d-zero", lambda: pe.sinusoidal(4, 0), r"d must be a positive integer, got 0"),
    (
        "sin-d-float",
        lambda: pe.sinusoidal(4, 2.5),  # type: ignore[arg-type]
        r"d must be a positive integer, got 2\.5",
    ),
    ("sin-d-bool", lambda: pe.sinusoidal(4, True), r"d must be a positive integer, got True"),
    (
        "sin-concat-odd",
        lambda: pe.sinusoidal(4, 7, layout="concat"),
        r"d must be a positive even integer for layout='concat', got 7",
    ),
    (
        "sin-layout",
        lambda: pe.sinusoidal(4, 6, layout="rows"),  # type: ignore[arg-type]
        r"layout must be one of 'interleaved', 'concat', got 'rows'",
    ),
    (
        "sin-base",
        lambda: pe.sinusoidal(4, 6, base=1.0),
        r"base must be a finite number greater than 1, got 1\.0",
    ),
    (
        "sin-base-inf",
        lambda: pe.sinusoidal(4, 6, base=math.inf),
        r"base must be a finite number greater than 1, got inf",
    ),
    (
        "sin-positions-zero",
        lambda: pe.sinusoidal(0, 6),
        r"positions must be a positive integer count or a 1-D array of finite numbers, got 0",
    ),
    (
        "sin-positions-2d",
        lambda: pe.sinusoidal([[0, 1]], 6),
        r"positions must be a positive integer count or a non-empty 1-D array",
    ),
    (
        "sin-positions-nan",
        lambda: pe.sinusoidal([0.0, math.nan], 6),
        r"positions must be .* finite numbers, got \[0\.0, nan\]",
    ),
    (
        "sin-positions-text",
        lambda: pe.sinusoidal("abc", 6),
        r"positions must be .*, got 'abc'",
    ),
    ("freq-d", lambda: pe.sinusoidal_frequencies(-2), r"d must be a positive integer, got -2"),
    (
        "wavelength-base",
        lambda: pe.sinusoidal_wavelengths(4, base=0.5),
        r"base must be a finite number greater than 1, got 0\.5",
    ),
    (
        "shift-offset",
        lambda: pe.sinusoidal_shift_matrix(math.nan, 4),
        r"offset must be a finite number, got nan",
    ),
    (
        "shift-d",
        lambda: pe.sinusoidal_shift_matrix(1, 5),
        r"d must be a positive even integer for the shift matrix, got 5",
    ),
    ("learned-n", lambda: pe.learned(0, 4), r"n must be a positive integer, got 0"),
    (
        "learned-d",
        lambda: pe.learned(4, "8"),  # type: ignore[arg-type]
        r"d must be a positive integer, got '8'",
    ),
    ("learned-seed", lambda: pe.learned(4, 4, seed=-1), r"seed must be an integer >= 0, got -1"),
    (
        "learned-std",
        lambda: pe.learned(4, 4, std=0.0),
        r"std must be a positive finite number, got 0\.0",
    ),
    (
        "softmax-scalar",
        lambda: pe.softmax(3.0),
        r"z must be a non-empty array with at least 1 dimension, got 3\.0",
    ),
    (
        "softmax-axis",
        lambda: pe.softmax([1.0, 2.0], axis=1),
        r"axis must be an integer in \[-1, 0\] for an array with 1 dimensions, got 1",
    ),
    (
        "softmax-nan",
        lambda: pe.softmax([1.0, math.nan]),
        r"z must contain only finite numbers or -inf, got NaN or \+inf",
    ),
    (
        "softmax-all-masked",
        lambda: pe.softmax([-math.inf, -math.inf]),
        r"z must have at least one finite entry in every slice along axis -1",
    ),
    (
        "attention-1d",
        lambda: pe.self_attention([1.0, 2.0]),
        r"x must be a non-empty 2-D array \(n, d\) of finite numbers, got shape \(2,\)",
    ),
    (
        "weights-inf",
        lambda: pe.attention_weights([[1.0, math.inf]]),
        r"x must be a non-empty 2-D array \(n, d\) of finite numbers, got shape \(1, 2\)",
    ),
    (
        "rope-freq-d",
        lambda: pe.rope_frequencies(5),
        r"d must be a positive even integer, got 5",
    ),
    (
        "rope-scaling-type",
        lambda: pe.rope_frequencies(8, scaling={"rope_type": "longrope", "factor": 2.0}),
        r"scaling\['rope_type'\] must be one of 'default', 'linear', 'dynamic', 'llama3', "
        r"'yarn', got 'longrope'",
    ),
    (
        "rope-scaling-not-mapping",
        lambda: pe.rope_frequencies(8, scaling=2.0),  # type: ignore[arg-type]
        r"scaling must be None or a mapping with a 'rope_type' key .*, got 2\.0",
    ),
    (
        "rope-scaling-missing",
        lambda: pe.rope_frequencies(8, scaling={"rope_type": "linear"}),
        r"scaling for rope_type='linear' is missing key\(s\) 'factor'; it needs 'factor'",
    ),
    (
        "rope-scaling-unknown",
        lambda: pe.rope_frequencies(8, scaling={"rope_type": "linear", "factor": 2.0, "f": 1}),
        r"scaling for rope_type='linear' has unknown key\(s\) 'f'; allowed: 'factor'",
    ),
    (
        "rope-scaling-factor",
        lambda: pe.rope_frequencies(8, scaling={"rope_type": "linear", "factor": 0.5}),
        r"scaling\['factor'\] must be a number >= 1, got 0\.5",
    ),
    (
        "rope-scaling-factor-text",
        lambda: pe.rope_frequencies(8, scaling={"rope_type": "linear", "factor": "2"}),
        r"scaling\['factor'\] must be a finite number, got '2'",
    ),
    (
        "rope-dynamic-d2",
        lambda: pe.rope_frequencies(
            2, scaling={"rope_type": "dynamic", "factor": 2.0, "max_position_embeddings": 8}
        ),
        r"d must be an even integer >= 4 for rope_type='dynamic' .*, got 2",
    ),
    (
        "rope-dynamic-seq-len",
        lambda: pe.rope_frequencies(
            8,
            scaling={
                "rope_type": "dynamic",
                "factor": 2.0,
                "max_position_embeddings": 8,
                "seq_len": 2.5,
            },
        ),
        r"scaling\['seq_len'\] must be a positive integer, got 2\.5",
    ),
    (
        "rope-llama3-order",
        lambda: pe.rope_frequencies(8, scaling={**LLAMA3, "high_freq_factor": 1.0}),
        r"scaling\['high_freq_factor'\] must be greater than scaling\['low_freq_factor'\] "
        r"\(1\), got 1",
    ),
    (
        "rope-llama3-low",
        lambda: pe.rope_frequencies(8, scaling={**LLAMA3, "low_freq_factor": 0.0}),
        r"scaling\['low_freq_factor'\] must be a positive number, got 0\.0",
    ),
    (
        "rope-llama3-context",
        lambda: pe.rope_frequencies(8, scaling={**LLAMA3, "original_max_position_embeddings": 0}),
        r"scaling\['original_max_position_embeddings'\] must be a positive integer, got 0",
    ),
    (
        "rope-layout",
        lambda: pe.rope(np.ones((2, 4)), layout="neox"),  # type: ignore[arg-type]
        r"layout must be one of 'half', 'interleaved', got 'neox'",
    ),
    (
        "rope-x-3d",
        lambda: pe.rope(np.ones((2, 2, 4))),
        r"x must be a non-empty 2-D array \(n, d\) or 1-D vector of finite numbers, "
        r"got shape \(2, 2, 4\)",
    ),
    (
        "rope-odd-d",
        lambda: pe.rope(np.ones((2, 5))),
        r"x must have an even last dimension when rotary_dim is None, got d=5",
    ),
    (
        "rope-rotary-dim-odd",
        lambda: pe.rope(np.ones((2, 6)), rotary_dim=3),
        r"rotary_dim must be a positive even integer, got 3",
    ),
    (
        "rope-rotary-dim-large",
        lambda: pe.rope(np.ones((2, 6)), rotary_dim=8),
        r"rotary_dim must be <= d \(6\), got 8",
    ),
    (
        "rope-positions-count",
        lambda: pe.rope(np.ones((2, 4)), [0.0, 1.0, 2.0]),
        r"positions must hold one position per row of x \(2\), got 3",
    ),
    (
        "rope-positions-int",
        lambda: pe.rope(np.ones((2, 4)), 2),
        r"positions must be None or a 1-D array of 2 positions \(one per row of x\), "
        r"got the integer 2",
    ),
    (
        "rope-vector-positions",
        lambda: pe.rope(np.ones(4), [1.0, 2.0]),
        r"positions must be a single finite number when x is a vector, got \[1\.0, 2\.0\]",
    ),
    ("rope-angles-d", lambda: pe.rope_angles(3, 3), r"d must be a positive even integer, got 3"),
    (
        "rope-perm-d",
        lambda: pe.rope_layout_permutation(0),
        r"d must be a positive even integer, got 0",
    ),
    ("alibi-heads", lambda: pe.alibi_slopes(0), r"num_heads must be a positive integer, got 0"),
    (
        "alibi-heads-float",
        lambda: pe.alibi_slopes(8.0),  # type: ignore[arg-type]
        r"num_heads must be a positive integer, got 8\.0",
    ),
    ("alibi-n", lambda: pe.alibi_bias(0, 8), r"n must be a positive integer, got 0"),
    (
        "alibi-causal",
        lambda: pe.alibi_bias(4, 8, causal="yes"),  # type: ignore[arg-type]
        r"causal must be True or False, got 'yes'",
    ),
    (
        "t5-position",
        lambda: pe.t5_bucket(1.5),
        r"relative_position must be an integer or an array of integers \(key - query\), "
        r"got 1\.5",
    ),
    (
        "t5-position-text",
        lambda: pe.t5_bucket("3"),
        r"relative_position must be an integer .*, got '3'",
    ),
    (
        "t5-buckets",
        lambda: pe.t5_bucket(3, num_buckets=2),
        r"num_buckets must be an integer >= 4 for bidirectional=True, got 2",
    ),
    (
        "t5-buckets-causal",
        lambda: pe.t5_bucket(3, bidirectional=False, num_buckets=1),
        r"num_buckets must be an integer >= 2 for bidirectional=False, got 1",
    ),
    (
        "t5-max-distance",
        lambda: pe.t5_bucket(3, max_distance=8),
        r"max_distance must be an integer greater than the 8 exact buckets, got 8",
    ),
    (
        "t5-bidirectional",
        lambda: pe.t5_bucket(3, bidirectional=1),  # type: ignore[call-overload]
        r"bidirectional must be True or False, got 1",
    ),
    ("shaw-n-q", lambda: pe.relative_index(0, 4, 2), r"n_q must be a positive integer, got 0"),
    ("shaw-n-k", lambda: pe.relative_index(1, -1, 2), r"n_k must be a positive integer, got -1"),
    (
        "shaw-k",
        lambda: pe.relative_index(2, 4, 0),
        r"max_distance must be a positive integer, got 0",
    ),
    ("shaw-order", lambda: pe.relative_index(5, 4, 2), r"n_q must be <= n_k \(4\), got 5"),
    ("2d-d", lambda: pe.sincos_2d(2, 2, 6), r"d must be a positive multiple of 4, got 6"),
    ("2d-h", lambda: pe.sincos_2d(0, 2, 8), r"grid_h must be a positive integer, got 0"),
    (
        "2d-w",
        lambda: pe.sincos_2d(2, 1.5, 8),  # type: ignore[arg-type]
        r"grid_w must be a positive integer, got 1\.5",
    ),
    (
        "2d-cls",
        lambda: pe.sincos_2d(2, 2, 8, cls_token=None),  # type: ignore[arg-type]
        r"cls_token must be True or False, got None",
    ),
    (
        "2d-base",
        lambda: pe.sincos_2d(2, 2, 8, base=-3),
        r"base must be a finite number greater than 1, got -3",
    ),
]


@pytest.mark.parametrize(("call", "message"), [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_argument_errors(call: Callable[[], object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call()


# --- statements of the lessons, computed (issue 44) -------------------------------------------


def _causal_rows(x: np.ndarray) -> np.ndarray:
    """Causal self-attention: row ``i`` attends over rows ``0..i``, as lesson 1 computes it."""
    return np.stack([pe.self_attention(x[: i + 1])[i] for i in range(len(x))])


def test_a_causal_row_over_identical_inputs_averages_copies_of_one_vector() -> None:
    """Lesson 1: the mask alone shows no position when every token is the same vector; a
    start token that differs is what makes the rows differ."""
    la = np.array([[0.0, 1.0]] * 5)
    np.testing.assert_allclose(_causal_rows(la), la, rtol=0, atol=1e-15)
    with_start = np.vstack([[[1.0, 0.0]], la])
    first = _causal_rows(with_start)[1:, 0]
    assert np.all(np.diff(first) < 0) and len(set(np.round(first, 12))) == 5


def _rope_vit_axial_angles(dim: int, end_x: int, end_y: int, theta: float) -> np.ndarray:
    """naver-ai/rope-vit's ``compute_axial_cis``, its angles in numpy: ``t_x = t % end_x``
    (the column) gets the first ``dim/4`` pairs, ``t_y = t // end_x`` (the row) the rest."""
    freqs = 1.0 / theta ** (np.arange(0, dim, 4)[: dim // 4] / dim)
    t = np.arange(end_x * end_y)
    t_x, t_y = t % end_x, t // end_x
    return np.concatenate([np.outer(t_x, freqs), np.outer(t_y, freqs)], axis=-1)


def test_axial_rope_turns_the_first_half_of_the_pairs_by_the_column() -> None:
    """Lesson 8: RoPE-Axial's first half of the pairs follows x (the column), as rope-vit."""
    dim, end_x, end_y = 16, 5, 3
    t = np.arange(end_x * end_y)
    xy = np.stack([t % end_x, t // end_x], axis=1)  # (column, row) of each patch, row-major
    ours = pe.rope_nd_angles(xy, dim, [dim // 4, dim // 4], base=100.0)
    np.testing.assert_allclose(ours, _rope_vit_axial_angles(dim, end_x, end_y, 100.0))
    # Patch 1 is row 0, column 1: only the first half turns.
    assert ours[1, : dim // 4].any() and not ours[1, dim // 4 :].any()


def _block_diagonal(blocks: list[np.ndarray]) -> np.ndarray:
    out = np.zeros((2 * len(blocks), 2 * len(blocks)))
    for k, block in enumerate(blocks):
        out[2 * k : 2 * k + 2, 2 * k : 2 * k + 2] = block
    return out


def test_only_scaled_rotation_blocks_keep_sinusoidal_scores_relative() -> None:
    """Lesson 2: p W q^T with a block-diagonal W depends on p - q alone only when each 2 x 2
    block is a scaled rotation [[a, b], [-b, a]]; a general block adds terms in p + q."""
    d, table = 8, pe.sinusoidal(60, 8)
    rng = np.random.default_rng(3)

    def scores(w: np.ndarray) -> tuple[float, float]:
        return float(table[10] @ w @ table[13]), float(table[40] @ w @ table[43])

    general = _block_diagonal([rng.normal(size=(2, 2)) for _ in range(d // 2)])
    a, b = rng.normal(size=(2, d // 2))
    rotations = _block_diagonal([np.array([[a[k], b[k]], [-b[k], a[k]]]) for k in range(d // 2)])
    assert not math.isclose(*scores(general), abs_tol=1e-6)
    assert math.isclose(*scores(rotations), abs_tol=1e-12)


def test_sines_alone_cannot_be_shifted_by_a_linear_map() -> None:
    """Lesson 2: the sine-only vector of position 0 is zero, which no linear map can send to
    the non-zero sine-only vector of position o."""
    table = pe.sinusoidal(5, 8)
    assert not table[0, 0::2].any()
    assert all(table[o, 0::2].any() for o in range(1, 5))


def test_which_scalings_change_the_fast_pairs() -> None:
    """Lesson 6: Llama 3 keeps the fast pairs and NTK-aware barely moves them (short prompts
    cannot tell), while linear interpolation divides every pair and YaRN scales every score."""
    d, base = 128, 500000.0
    plain = pe.rope_frequencies(d, base=base)
    llama3 = pe.rope_frequencies(
        d,
        base=base,
        scaling={
            "rope_type": "llama3",
            "factor": 8,
            "low_freq_factor": 1,
            "high_freq_factor": 4,
            "original_max_position_embeddings": 8192,
        },
    )
    linear = pe.rope_frequencies(d, base=base, scaling={"rope_type": "linear", "factor": 8})
    assert llama3[0] == plain[0] and llama3[-1] == pytest.approx(plain[-1] / 8)
    np.testing.assert_allclose(linear, plain / 8)
    assert pe.yarn_attention_factor(8) > 1


def test_the_interpolation_bound_of_lesson_6_holds() -> None:
    """Lesson 6 (after Chen et al., 2023, Theorem 2.1): between two whole offsets the score
    a(s) = Re sum_k h_k e^(i s theta_k) strays from the straight line through its values there
    by at most max|h_k| * sum_k theta_k^2 / 8."""
    theta = pe.rope_frequencies(128)
    bound_per_h = float((theta**2).sum() / 8)
    rng = np.random.default_rng(5)
    h = rng.normal(size=64) + 1j * rng.normal(size=64)
    s = np.linspace(100.0, 101.0, 201)

    def a(x: np.ndarray) -> np.ndarray:
        return np.real(np.exp(1j * np.outer(x, theta)) @ h)

    line = a(np.array([100.0])) + (s - 100.0) * (a(np.array([101.0])) - a(np.array([100.0])))
    worst = float(np.abs(a(s) - line).max())
    assert 0 < worst <= bound_per_h * np.abs(h).max()
    assert bound_per_h == pytest.approx(0.5, abs=0.01)
