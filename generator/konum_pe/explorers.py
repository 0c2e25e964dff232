"""The course's explorers: six interactive figures over the PE core, for ``/// explorer``.

Each answers one question (:attr:`konum.explorers.Explorer.question`); its script in
``assets/`` ports the arithmetic of :mod:`konum_pe.pe` to JavaScript (the browser tests compare
the two), and without JavaScript the reader sees the core's own figure for the starting
values (for ``rope-layouts``, the core's permutation as a table). Their texts are the
``explorer`` section of the course's messages.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from konum.computed import ParamSpec, param, specs
from konum.explorers import Explorer, Say, Values
from konum.formatting import format_number
from konum.model import Choices, Range
from konum_pe import pe

ASSETS = Path(__file__).resolve().parent / "assets"


def _below(name: str, value: int, limit_name: str, limit: int) -> str | None:
    if value < limit:
        return None
    return f"option {name!r}: expected a value below {limit_name} = {limit}, found {value}"


def _sinusoidal_check(v: Values) -> str | None:
    if abs(v["offset"]) >= v["n"]:
        return (
            f"option 'offset': expected an offset from -{v['n'] - 1} to {v['n'] - 1} "
            f"(|offset| < n), found {v['offset']}"
        )
    return _below("position", v["position"], "n", v["n"]) or _below(
        "column", v["column"], "d", v["d"]
    )


def _shift_check(v: Values) -> str | None:
    if v["position"] + v["offset"] < 0:
        return (
            "option 'offset': expected an offset to a position from 0 on "
            f"(offset >= -position = {-v['position']}), found {v['offset']}"
        )
    return _below("pair", v["pair"], "d/2", v["d"] // 2)


def _t5_check(v: Values) -> str | None:
    try:
        pe.t5_bucket(
            0,
            bidirectional=v["direction"] == "bidirectional",
            num_buckets=v["num_buckets"],
            max_distance=v["max_distance"],
        )
    except ValueError as exc:  # the core names the option and what it allows
        return str(exc)
    return None


def _alibi_check(v: Values) -> str | None:
    if v["head"] > v["num_heads"]:
        return (
            f"option 'head': expected a head from 1 to num_heads = {v['num_heads']}, "
            f"found {v['head']}"
        )
    return _below("query", v["query"], "n", v["n"])


def _pair_check(v: Values) -> str | None:
    return _below("pair", v["pair"], "d/2", v["d"] // 2)


def _layouts_table(v: Values, say: Say) -> tuple[str, tuple[str, ...], list[tuple[int, ...]]]:
    """(interleaved dimension i, half-layout dimension perm[i], pair) for each i."""
    half = v["d"] // 2
    rows: list[tuple[int, ...]] = [
        (i, int(j), int(j) % half) for i, j in enumerate(pe.rope_layout_permutation(v["d"]))
    ]
    headers = (say("layouts_col_interleaved"), say("layouts_col_half"), say("layouts_col_pair"))
    return say("layouts_caption", d=v["d"]), headers, rows


def _explorer(
    name: str,
    question: str,
    params: Mapping[str, ParamSpec],
    check: Callable[[Values], str | None],
    **shown: Any,
) -> Explorer:
    """The explorer ``name`` with its script ``assets/<name>.js``; ``shown`` are
    :class:`~konum.explorers.Explorer`'s other fields (the fallback, the texts' prefix)."""
    return Explorer(name, question, params, check, script=ASSETS / f"{name}.js", **shown)


_BASES = Choices((100.0, 1000.0, 10000.0, 100000.0, 500000.0))

#: The explorers, by block name.
EXPLORERS = (
    _explorer(
        "sinusoidal",
        "What does each cell of the sinusoidal table hold, and why does PE[p] · PE[p + o] "
        "depend on the offset o alone?",
        specs(
            param("n", "int", 32, Range(2, 64), "number of positions (rows)"),
            param("d", "int", 32, Range(2, 64, 2), "model dimension (columns)"),
            param("base", "float", 10000.0, _BASES, "the 10000 of the formula"),
            param("position", "int", 5, Range(0, 63), "the position p read out (< n)"),
            param("column", "int", 6, Range(0, 63), "the column j read out (< d)"),
            param("offset", "int", 3, Range(-63, 63), "the offset o of PE[p] · PE[p + o]"),
        ),
        _sinusoidal_check,
        texts="sin_",
        figure=lambda v: (
            "pe_heatmap",
            {"n": v["n"], "d": v["d"], "base": v["base"]},
            "sin_alt",
            {"n": v["n"], "d": v["d"]},
        ),
    ),
    _explorer(
        "shift-rotation",
        "Why is moving by o positions a rotation, and why does RoPE's score depend on n - m only?",
        specs(
            param("d", "int", 8, Range(2, 128, 2), "model (or head) dimension"),
            param("pair", "int", 0, Range(0, 63), "the pair shown (< d/2)"),
            param("position", "int", 3, Range(0, 200), "the position p (the query's m)"),
            param("offset", "int", 2, Range(-50, 50), "the offset o (the key's n = p + o)"),
        ),
        _shift_check,
        texts="shift_",
        figure=lambda v: (
            "rope_rotation",
            {
                "m_values": (v["position"], v["position"] + v["offset"]),
                "k": v["pair"],
                "d": v["d"],
            },
            "shift_alt",
            {
                "pair": v["pair"],
                "p": v["position"],
                "q": v["position"] + v["offset"],
                "o": v["offset"],
            },
        ),
    ),
    _explorer(
        "rope-layouts",
        "How do RoPE's half and interleaved layouts pair a head's dimensions, and why do "
        "they give the same score once the weights are permuted?",
        specs(
            param("d", "int", 8, Range(4, 16, 2), "head dimension"),
            param("pair", "int", 1, Range(0, 7), "the pair highlighted (< d/2)"),
            param("m", "int", 5, Range(0, 100), "the query's position"),
            param("n", "int", 2, Range(0, 100), "the key's position"),
        ),
        _pair_check,
        texts="layouts_",
        table=_layouts_table,
    ),
    _explorer(
        "t5-buckets",
        "Which bucket does each relative distance fall into, where do the exact buckets "
        "end, and from which distance on is everything in the last bucket?",
        specs(
            param("num_buckets", "int", 32, Range(4, 128, 2), "total buckets"),
            param("max_distance", "int", 128, Range(4, 1024), "distance of the last bucket"),
            param(
                "direction",
                "str",
                "bidirectional",
                Choices(("bidirectional", "causal")),
                "bidirectional (encoder) or causal (decoder)",
            ),
            param("relative", "int", -20, Range(-1024, 1024), "key - query read out"),
            param("tokens", "int", 24, Range(4, 48), "tokens in the query-by-key matrix"),
        ),
        _t5_check,
        texts="t5_",
        figure=lambda v: (
            "t5_buckets",
            {
                "num_buckets": v["num_buckets"],
                "max_distance": v["max_distance"],
                "span": max(16, v["max_distance"] + v["max_distance"] // 4),
            },
            "t5_alt",
            {"buckets": v["num_buckets"], "distance": v["max_distance"]},
        ),
    ),
    _explorer(
        "alibi",
        "What slope does each head get, for any head count, and what does the softmax do "
        "to a row as the slope grows?",
        specs(
            param("num_heads", "int", 8, Range(1, 64), "number of heads"),
            param("head", "int", 1, Range(1, 64), "the head shown, from 1 (<= num_heads)"),
            param("n", "int", 12, Range(2, 32), "sequence length"),
            param("query", "int", 11, Range(0, 31), "the query row of the softmax (< n)"),
        ),
        _alibi_check,
        texts="alibi_",
        figure=lambda v: (
            "alibi_matrices",
            {"n": v["n"], "heads": (v["head"],), "num_heads": v["num_heads"]},
            "alibi_alt",
            {"head": v["head"], "heads": v["num_heads"], "n": v["n"]},
        ),
    ),
    _explorer(
        "context-extension",
        "How long is each RoPE pair's wavelength under position interpolation, NTK-aware "
        "scaling, Llama 3 and YaRN, against the original context?",
        specs(
            param("d", "int", 128, Range(8, 256, 2), "head dimension"),
            param("base", "float", 10000.0, _BASES, "RoPE base (rope_theta)"),
            param("factor", "float", 4.0, Choices((2.0, 4.0, 8.0, 16.0, 32.0)), "factor"),
            param(
                "original",
                "int",
                4096,
                Choices((2048, 4096, 8192, 32768)),
                "original context length",
            ),
            param("pair", "int", 48, Range(0, 127), "the pair read out (< d/2)"),
        ),
        _pair_check,
        texts="ctx_",
        figure=lambda v: (
            "rope_frequencies_scaled",
            {
                "d": v["d"],
                "base": v["base"],
                "factor": v["factor"],
                "original_max": v["original"],
            },
            "ctx_alt",
            {
                "d": v["d"],
                "base": format_number(v["base"]),
                "factor": format_number(v["factor"]),
                "original": v["original"],
            },
        ),
    ),
)
