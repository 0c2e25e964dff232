"""The named wrong beliefs behind computed distractors (see ``/work/shared/LEARNERS.md``).

Each key names one mistake a learner makes; the generators compute the number that mistake
produces and attach feedback that names it. The one-line descriptions here are for authors
(``konum preview``) and for analytics; readers see the generator's own feedback. Each of the
course's generators carries the ones it produces (``misconceptions = described(...)``), as a
user's generator carries its own.
"""

from __future__ import annotations

MISCONCEPTIONS: dict[str, str] = {
    # sinusoidal encoding
    "i_for_2k": (
        "uses the column index j (or k) where the exponent needs 2k, the pair index doubled"
    ),
    "integer_exponent": (
        "the exponent 2k/d collapses to 0 (integer division), so every frequency is 1"
    ),
    "sin_cos_swapped": "puts cosines in the even columns and sines in the odd ones",
    "degrees": "mixes up degrees and radians (angles in PE and RoPE are radians)",
    "position_from_1": "counts positions from 1, so the first token already has a non-zero angle",
    "pair_from_1": "counts pairs from 1, so pair k turns at the speed of pair k + 1",
    "pairs_for_d": "divides the exponent by the number of pairs d/2 instead of the dimension d",
    "odd_column_exponent": "puts the cosine's column 2k + 1 in the exponent, where both use 2k",
    "turns_for_radians": "gives the angle in full turns (divided by 2*pi) where radians were asked",
    "layout_mixup": (
        "reads the interleaved layout as the concatenated one (all sines first) or back"
    ),
    "frequency_inverted": (
        "multiplies by base^(2k/d) instead of dividing (frequency for wavelength)"
    ),
    "missing_2pi": "takes the wavelength as base^(2k/d), forgetting the factor 2*pi of a full turn",
    "wavelength_degrees": "measures a full turn as 360 instead of 2*pi when computing a wavelength",
    "frequency_for_wavelength": (
        "gives the angular frequency omega_k where the wavelength was asked"
    ),
    "fast_slow_reversed": "believes the high dimensions oscillate fastest (it is the low ones)",
    "pair_for_column": "answers with the pair index k = j // 2 instead of the column j",
    "sin_only": "keeps only the sine columns in PE[p] . PE[q], dropping the cosine half",
    "sum_not_difference": "thinks PE[p] . PE[q] depends on p + q rather than p - q",
    "rotation_direction": (
        "uses R(omega*offset), written for (cos, sin), where the table's (sin, cos) order needs "
        "its transpose: the pair moves back by the offset"
    ),
    "position_zero_vector": "takes the encoding of position 0 to be the zero vector",
    # RoPE
    "rope_pairing": (
        "pairs the wrong dimensions: half layout (k, k + d/2) vs interleaved (2k, 2k + 1)"
    ),
    "no_rotation": "forgets to rotate q and k, so the score is the plain dot product",
    "rope_key_only": (
        "rotates the key but not the query, as explainers that put RoPE on keys and values do"
    ),
    "rope_offset_sign": (
        "swaps the positions of query and key, rotating by (m - n) instead of (n - m)"
    ),
    "no_scaling": "ignores the RoPE scaling configuration and uses the original frequency",
    "scaling_direction": "divides the wavelength by the factor instead of stretching it",
    "scale_all_pairs": "scales every pair by the factor, as linear interpolation does",
    "ntk_base_linear": "grows the NTK base by the scale s instead of s^(d/(d-2))",
    # ALiBi
    "alibi_naive_slope": "uses 2^(-8h/n) for a head count n that is not a power of two",
    "alibi_sorted": "assumes slopes fall monotonically across heads (they do not for odd counts)",
    "alibi_fixed_ratio": "uses 2^(-h) for every head count (the 8-head rule), ignoring 8/n",
    "alibi_head_order": "gives head 1 the smallest slope, reversing the head order",
    "head_off_by_one": "counts heads from 0, reading the slope of the neighbouring head",
    "alibi_distance_plus_one": "counts the tokens from key to query, both ends, as the distance",
    "alibi_sign": "forgets the minus sign: distant keys get a bonus instead of a penalty",
    "alibi_official_code": "uses the official code's +m*j, which differs from -m*(i - j) by m*i",
    # relative positions
    "t5_sign": "takes the relative position as query - key instead of key - query",
    "t5_direction_offset": "forgets the num_buckets/2 offset that T5 gives keys after the query",
    "t5_mode_mixup": (
        "uses the bidirectional rule for a causal model or the causal rule for an encoder"
    ),
    "t5_exact_all": "believes every distance has its own bucket (no logarithmic sharing)",
    "query_minus_key": "takes the Shaw distance as query - key instead of key - query",
    "shaw_no_offset": "forgets the + k that turns the clipped distance into a table row",
    "shaw_no_clipping": "does not clip distances to [-k, k] (one embedding per distance)",
    # images
    "axes_swapped": (
        "puts the row coordinate in the first half of the channels (MAE puts the column)"
    ),
    "flat_1d": "encodes the patch by its flattened 1-D index instead of its (row, column)",
    # learned tables and attention
    "n_plus_1_rows": "adds a row, as fairseq and RoBERTa do for padding, when the table has n rows",
    "sum_not_product": "adds n and d instead of multiplying them",
    "pairwise_table": (
        "counts one parameter per pair of positions (n^2) instead of a vector per row"
    ),
    "half_table": "counts one parameter per sine/cosine pair (n*d/2)",
    "float32_bytes": "gives the table's size in bytes (4 per float32 number), not in parameters",
    "invariance_for_equivariance": (
        "thinks attention scores and outputs stay in place under a permutation"
    ),
    "pe_moves_with_token": "lets the position encoding travel with the token, so nothing changes",
}


def described(*keys: str) -> dict[str, str]:
    """The misconceptions ``keys`` with their descriptions, for a generator's
    ``misconceptions`` (a generator carries its own; the course's take theirs from here).

    Raises:
        KeyError: a key that :data:`MISCONCEPTIONS` does not describe.
    """
    return {key: MISCONCEPTIONS[key] for key in keys}
