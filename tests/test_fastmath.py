r"""The fast path for simple formulas writes exactly what latex2mathml writes, or declines.

- A property test draws formulas from the grammar that :mod:`konum.mdx.fastmath` accepts
  and checks byte equality with ``latex2mathml.converter.convert`` (inline and display).
- A second one throws LaTeX-ish noise at it (fractions, dots, stray braces, units, primes,
  unknown commands): whatever the fast path accepts must still be equal.
- Every formula of the real content (banks, lessons, and the prompts and solutions of the
  computed generators) is either declined or converted identically.
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from latex2mathml.converter import convert

from konum.computed.registry import GENERATORS
from konum.mdx import fastmath
from konum.mdx.fastmath import fast_convert

REPO = Path(__file__).resolve().parent.parent
CONTENT = REPO / "content"
UNITS = ("in", "mm", "cm", "pt", "em", "ex", "pc", "bp", "dd", "cc", "sp", "mu")
# latex2mathml reads "2 em" as a TeX dimension: the fast path declines those.
DIMENSION = re.compile(r"[0-9][ \t\n\r]*(?:" + "|".join(UNITS) + ")")


def reference(tex: str, display: bool) -> str | None:
    """latex2mathml's output, or None where it raises."""
    try:
        return convert(tex, display="block" if display else "inline")
    except Exception:  # it raises many exception types
        return None


def assert_same_or_declined(tex: str) -> bool:
    """Checks both display modes; True when the fast path took the formula."""
    taken = []
    for display in (False, True):
        fast = fast_convert(tex, display=display)
        if fast is not None:
            assert fast == reference(tex, display), (tex, display)
        taken.append(fast is not None)
    assert taken[0] == taken[1], tex  # the subset does not depend on the mode
    return taken[0]


# --- the grammar of the subset ----------------------------------------------------------------

SEPARATORS = st.sampled_from(["", "", "", " ", "  ", "\n", "\t"])
LETTERS = st.sampled_from("abcdijkmnpqsxyzAELPQRWX")
DIGITS = st.integers(min_value=0, max_value=9).map(str)
NUMBERS = st.one_of(
    st.integers(min_value=0, max_value=100000).map(str),
    st.builds(
        lambda whole, frac: f"{whole}.{frac}",
        st.integers(min_value=0, max_value=99999),
        st.text(alphabet="0123456789", min_size=1, max_size=5),
    ),
)
CHARS = st.sampled_from(sorted(fastmath._CHARS))
ESCAPED = st.sampled_from(sorted(fastmath._ESCAPED))
COMMANDS = st.sampled_from(sorted(fastmath._COMMANDS))
BIGOPS = st.sampled_from(sorted(fastmath._BIGOPS))
DOUBLE_STRUCK = st.sampled_from(sorted(fastmath._DOUBLE_STRUCK))
ROMAN = st.text(alphabet=string.ascii_letters, min_size=2, max_size=6).map(
    lambda word: f"\\mathrm{{{word}}}"
)

LEAVES = st.one_of(
    LETTERS, LETTERS, DIGITS, NUMBERS, CHARS, ESCAPED, COMMANDS, BIGOPS, ROMAN, DOUBLE_STRUCK
)


def join(pieces: list[str], separators: list[str]) -> str:
    """Concatenate without merging tokens: a command and a letter (\\sin x), two numbers,
    a dot and a digit (".5" is outside the subset)."""
    out = ""
    for piece, sep in zip(pieces, separators, strict=True):
        command_then_letter = re.search(r"\\[a-zA-Z]+$", out) and piece[:1].isalpha()
        number_then_digit = out[-1:].isdigit() or out.endswith(".")
        number_then_digit = number_then_digit and piece[:1].isdigit()
        out += (sep or " " if command_then_letter or number_then_digit else sep) + piece
    return out


@st.composite
def atoms(draw: st.DrawFn, depth: int) -> str:
    if depth <= 0 or draw(st.integers(0, 3)) > 0:
        return draw(LEAVES)
    return "{" + draw(rows(depth - 1, max_size=3)) + draw(SEPARATORS) + "}"


@st.composite
def items(draw: st.DrawFn, depth: int) -> str:
    base = draw(atoms(depth))
    prime = not base.startswith(("\\sum", "\\prod")) and draw(st.integers(0, 5)) == 0
    orders = ["", "", "_", "^"] if prime else ["", "", "", "_", "^", "_^", "^_", "_'"]
    scripts = draw(st.sampled_from(orders))
    if base.startswith(("\\sum", "\\prod")):
        scripts = scripts.rstrip("'")
    pieces = [base, "'"] if prime else [base]
    separators = [""] + [draw(SEPARATORS) for _ in pieces[1:]]
    for op in scripts:
        if op == "'":
            pieces.append(op)
            separators.append(draw(SEPARATORS))
            continue
        argument = draw(atoms(depth))
        # "_2.5" would be "_2" then ".5": a decimal argument needs a space.
        space = " " if re.match(r"[0-9]+\.", argument) else draw(SEPARATORS)
        pieces += [op, argument]
        separators += [draw(SEPARATORS), space]
    return join(pieces, separators)


@st.composite
def rows(draw: st.DrawFn, depth: int, min_size: int = 0, max_size: int = 6) -> str:
    pieces = draw(st.lists(items(depth), min_size=min_size, max_size=max_size))
    return join(pieces, [draw(SEPARATORS) for _ in pieces])


FORMULAS = rows(3, min_size=1)


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(FORMULAS)
def test_formulas_of_the_subset_convert_exactly_like_latex2mathml(tex: str) -> None:
    taken = assert_same_or_declined(tex)
    # Inside the grammar, only a number followed by a TeX unit ("2 em") is declined.
    assert taken or DIMENSION.search(tex), tex


# --- noise around the subset ------------------------------------------------------------------

NOISE = st.lists(
    st.one_of(
        LEAVES,
        st.sampled_from(
            [
                "{",
                "}",
                "_",
                "^",
                "'",
                "''",
                " ",
                ".",
                ".5",
                "2em",
                "-3 pt",
                "1.",
                "1.5.3",
                "3..5",
                "\\",
                "\\\\",
                "\\frac",
                "\\frac12",
                "\\sqrt",
                "\\left(",
                "\\right)",
                "\\text{a b}",
                "\\mathrm{d}",
                "\\mathrm {ab}",
                "\\mathbb{R}",
                "\\mathbb{C}",
                "\\mathbb {R}",
                "\\mathbf{x}",
                "\\operatorname{f}",
                "\\begin{pmatrix}",
                "\\end{pmatrix}",
                "&",
                "%",
                "#",
                "$",
                ":",
                ";",
                "\\over",
                "\\limits",
                "\\not",
                "\\lim",
                "\\sum",
                "\\det",
                "\\prime",
                "\\sinx",
                "\\color",
                "\\displaystyle",
                "\u2212",
                "\u00a0",
                "\\_",
                "\\%",
                "\\ ",
                "\\\n",
                "\\omicron",
            ]
        ),
    ),
    min_size=1,
    max_size=12,
).map("".join)


@settings(max_examples=600, deadline=None)
@given(NOISE)
def test_whatever_the_fast_path_takes_matches_latex2mathml(tex: str) -> None:
    assert_same_or_declined(tex)


# --- the tables, one entry at a time ----------------------------------------------------------


TABLE = sorted(
    {
        *fastmath._CHARS,
        *fastmath._ESCAPED,
        *fastmath._COMMANDS,
        *fastmath._BIGOPS,
        *fastmath._DOUBLE_STRUCK,
    }
)


@pytest.mark.parametrize("symbol", TABLE)
def test_every_symbol_alone_and_in_context(symbol: str) -> None:
    for tex in (
        symbol,
        f"x_{symbol}",
        f"{symbol}^2",
        f"{symbol}{{x}}",
        f"{symbol} 1",
        f"{{{symbol}}}_a^b",
    ):
        assert assert_same_or_declined(tex), tex


# --- outside the subset -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "tex",
    [
        "",
        "   ",
        r"\frac{1}{2}",
        r"\frac12",
        r"\begin{pmatrix} a & b \\ c & d \end{pmatrix}",
        r"\sqrt{x}",
        r"\left( x \right)",
        r"\unknowncommand",
        r"\sinx",
        r"\text{word}",
        r"\mathbb{C}",
        r"\mathbb {R}",
        r"\mathrm{d}",
        "{a",
        "a}",
        "{{a}",
        "_a",
        "a^",
        "a_{1",
        "a_1_2",
        "a^1^2",
        "a_1^2_3",
        "a''",
        "a_1'^2",
        "a_1''",
        r"\sum'",
        r"\sum_k'",
        "a^2'",
        "a'_1^2",
        ".5",
        "1.5.3",
        "3..5",
        "0..4",
        "2em",
        "d = 2 mm",
        "x-3pt",
        "a % comment",
        "a & b",
        "x \u2212 1",
        "x\u00a0y",
        "\\\\",
        "{" * 60 + "x" + "}" * 60,
    ],
)
def test_formulas_outside_the_subset_are_declined(tex: str) -> None:
    assert fast_convert(tex, display=False) is None
    assert fast_convert(tex, display=True) is None


# --- the real content -------------------------------------------------------------------------

DISPLAY = re.compile(r"\$\$(.+?)\$\$", re.DOTALL)
INLINE = re.compile(r"(?<![\\$])\$([^$\n]+?)(?<!\\)\$")


def formulas_in(text: str) -> Iterator[str]:
    for m in DISPLAY.finditer(text):
        yield m.group(1).strip()
    for m in INLINE.finditer(DISPLAY.sub(" ", text)):
        yield m.group(1).strip()


def strings_in(node: object) -> Iterator[str]:
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for value in node.values():
            yield from strings_in(value)
    elif isinstance(node, list):
        for value in node:
            yield from strings_in(value)


def real_formulas() -> list[str]:
    """Every formula of the banks, the lessons and the computed questions (with repeats)."""
    found: list[str] = []
    for bank in sorted((CONTENT / "banks").glob("*.yml")):
        for text in strings_in(yaml.safe_load(bank.read_text(encoding="utf-8"))):
            found += formulas_in(text)
    for page in sorted([*(CONTENT / "lessons").glob("*.md"), *CONTENT.glob("*.md")]):
        found += formulas_in(page.read_text(encoding="utf-8"))
    for name in sorted(GENERATORS):
        for seed in range(8):
            generated = GENERATORS[name].generate(np.random.default_rng(seed), {})
            texts = [generated.prompt, generated.solution]
            texts += [d.feedback for d in generated.distractors]
            for text in texts:
                found += formulas_in(text)
    return [f for f in found if f]


REAL = real_formulas()


def test_the_real_content_has_formulas() -> None:
    assert len(set(REAL)) > 300


def test_every_real_formula_is_declined_or_converted_exactly() -> None:
    for tex in sorted(set(REAL)):
        assert_same_or_declined(tex)


@pytest.mark.parametrize(
    "tex",
    [
        "d = 32",
        "p = 6",
        "PE_{6,2}",
        "j = 2",
        r"\omega_k",
        "2k+1",
        "10000^{-2k/d}",
        "-0.2304",
        r"\theta_k = \mathrm{base}^{-2k/d}",
        r"PE_p \cdot PE_q",
        r"-m_h\,|i - j|",
        r"W_Q W_K^\top",
        r"\theta'_k = \theta_k / s",
        r"\sum_k \cos(\omega_k(p-q))",
        r"\omega_0 = 1, \ldots",
    ],
)
def test_common_simple_formulas_take_the_fast_path(tex: str) -> None:
    assert assert_same_or_declined(tex)


def fast_share() -> tuple[float, float]:
    """Share of the real formulas on the fast path: (distinct, with repeats)."""
    distinct = set(REAL)
    taken = {tex for tex in distinct if fast_convert(tex, display=False) is not None}
    weighted = sum(tex in taken for tex in REAL) / len(REAL)
    return len(taken) / len(distinct), weighted


if __name__ == "__main__":  # python tests/test_fastmath.py: how much of the content is fast
    distinct, weighted = fast_share()
    print(f"fast path: {distinct:.1%} of distinct formulas, {weighted:.1%} of all occurrences")
