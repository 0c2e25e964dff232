"""Bank Markdown to safe HTML: math, code, and the sanitiser's allow-list."""

from __future__ import annotations

import re
import xml.etree.ElementTree as etree

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from konum.markup import render_markdown
from konum.mdx.math import MathError, tex_to_html


def test_inline_math_becomes_mathml() -> None:
    html = render_markdown(r"The angle $\theta = p / 10000^{2k/d}$ grows.")
    # HTML parsers put <math> in the MathML namespace and default it to inline.
    assert '<math alttext="\\theta = p / 10000^{2k/d}">' in html
    assert "xmlns" not in html and "display=" not in html
    assert "<msup><mn>10000</mn>" in html


def test_display_math_block_on_its_own_lines() -> None:
    html = render_markdown("Before.\n\n$$\na^2 + b^2\n$$\n\nAfter.")
    assert '<div class="konum-math"><math' in html
    assert 'display="block"' in html
    assert html.index("Before") < html.index("<math") < html.index("After")


def test_money_is_not_math() -> None:
    assert render_markdown("It costs $5 and $6.", inline=True) == "It costs $5 and $6."


def test_code_spans_and_fences_keep_dollars_and_underscores() -> None:
    html = render_markdown("Run `x = $a$` then\n\n```python\nPE[:, 0::____] = np.sin(angle)\n```\n")
    assert "<code>x = $a$</code>" in html
    assert "____" in html
    assert "<math" not in html


def test_anki_mode_keeps_latex_between_mathjax_delimiters() -> None:
    assert render_markdown(r"$x_1$ and $$y$$", inline=True, math="anki") == r"\(x_1\) and \[y\]"


def test_escaped_latex_braces_survive_markdown_escapes() -> None:
    html = render_markdown(r"$\{1, 2\}$", inline=True)
    assert '<mo stretchy="false">{</mo>' in html or "{" in html
    assert "\\{" not in html.split("alttext")[0]


@pytest.mark.parametrize(
    "dangerous",
    [
        "<script>alert(1)</script>",
        '<img src="x" onerror="alert(1)">',
        '<a href="javascript:alert(1)">x</a>',
        '<span onclick="alert(1)">x</span>',
        "<iframe src='https://example.org'></iframe>",
        "<style>body{display:none}</style>",
    ],
)
def test_sanitiser_removes_scripts_handlers_and_javascript_links(dangerous: str) -> None:
    html = render_markdown(f"Text {dangerous} end")
    lowered = html.lower()
    for bad in ("<script", "onerror", "onclick", "javascript:", "<iframe", "<style", "alert(1)</"):
        assert bad not in lowered


def test_allow_listed_html_passes() -> None:
    html = render_markdown("Press <kbd>Tab</kbd>, H<sub>2</sub>O")
    assert "<kbd>Tab</kbd>" in html and "<sub>2</sub>" in html


def test_inline_unwraps_one_paragraph_only() -> None:
    assert render_markdown("**bold**", inline=True) == "<strong>bold</strong>"
    assert render_markdown("one\n\ntwo", inline=True).count("<p>") == 2


def test_output_is_well_formed_xml() -> None:
    html = render_markdown(r"A $\frac{1}{2}$ and `code` and *em*.")
    etree.fromstring(f"<root>{html}</root>")


def test_bad_latex_raises_math_error() -> None:
    with pytest.raises(MathError, match="cannot render the math"):
        tex_to_html(r"\frac{1}{", display=False)


def test_function_names_keep_a_thin_space_before_their_argument() -> None:
    html = tex_to_html(r"\cos 0 + \sin(x)", display=False)
    assert '<mi>cos</mi><mspace width="0.1667em"></mspace><mn>0</mn>' in html
    assert "<mi>sin</mi><mo" in html  # a bracket needs no extra space


def test_matrix_brackets_stretch() -> None:
    html = tex_to_html(r"\begin{pmatrix} a & b \\ c & d \end{pmatrix}", display=True)
    assert '<mo stretchy="true" fence="true" form="prefix">&#x00028;</mo><mtable>' in html
    assert '</mtable><mo stretchy="true" fence="true" form="postfix">&#x00029;</mo>' in html
    assert "<mspace" in render_markdown(r"$\cos 0$")  # and the sanitiser keeps it
    site = render_markdown(r"$$\begin{pmatrix} a \\ b \end{pmatrix}$$")
    assert '<mo stretchy="true" fence="true" form="prefix">(</mo><mtable>' in site


def _bar_forms(tex: str) -> list[str]:
    """The form of each | operator in the site's MathML for ``tex`` ("" when none)."""
    html = render_markdown(f"${tex}$")
    return re.findall(r'<mo stretchy="false"(?: form="(\w+)")?>\|</mo>', html)


@pytest.mark.parametrize(
    ("tex", "forms"),
    [
        (r"n = |r| = 26", ["prefix", "postfix"]),
        (r"-m_h\,|i - j|", ["prefix", "postfix"]),
        (r"|a| + |b|", ["prefix", "postfix", "prefix", "postfix"]),
        (r"|\frac{a}{|b|}|", ["prefix", "prefix", "postfix", "postfix"]),
        (r"|a| + |b", ["prefix", "postfix", ""]),  # an odd one out stays an operator
        (r"\{x | x > 0\}", [""]),  # such that
        (r"P(A|B)", [""]),
    ],
)
def test_absolute_value_bars_are_fences(tex: str, forms: list[str]) -> None:
    assert _bar_forms(tex) == forms


def _minus_forms(tex: str) -> list[str]:
    """The form of each minus in the site's MathML for ``tex`` ("" when none)."""
    html = render_markdown(f"${tex}$")
    return re.findall(r'<mo(?: form="(\w+)")?>−</mo>', html)


@pytest.mark.parametrize(
    ("tex", "forms"),
    [
        (r"y = -0.9165", ["prefix"]),
        (r"\sin(-0.5)", ["prefix"]),
        (r"a, -b", ["prefix"]),
        (r"[-1, 1]", ["prefix"]),
        (r"\theta \cdot -1", ["prefix"]),
        (r"a = -b - c", ["prefix", ""]),  # a sign, then a subtraction
        (r"\left( -x \right)", ["prefix"]),
        (r"|-a| - |b|", ["prefix", ""]),  # after an opening bar; after a closing one
        (r"x - y", [""]),
        (r"(a) - b", [""]),  # after a closing bracket: a subtraction
        (r"|x| - 1", [""]),
        (r"n! - 1", [""]),
        (r"-x", [""]),  # first in its row: Chromium makes it a prefix itself
        (r"x^{-1}", [""]),
    ],
)
def test_a_minus_after_an_operator_is_a_sign(tex: str, forms: list[str]) -> None:
    assert _minus_forms(tex) == forms


PIECES = [
    "word",
    "two words",
    " ",
    "x",
    "$x$",
    "$x_1 + y$",
    "$$\\sum_k k$$",
    "`code`",
    "`a $b$`",
    "$5",
    "costs",
    ".",
    ",",
    "(",
    ")",
    "-",
    "1.",
    "#",
    "_",
    "*",
    "\n",
    "\n\n",
    "Türkçe",
    "'",
    '"',
    "é",
    "$\\frac{a}{b}$",
    "a-b",
    "=",
    "0",
    "42",
    "0.5",
    "-0.9538",
    "+",
    "+3",
    "2)",
    "7. ",
    "$",
    "`",
    "``",
    "$$y$$",
]


@given(
    st.lists(st.sampled_from(PIECES), min_size=1, max_size=12),
    st.booleans(),
    st.sampled_from(["mathml", "anki"]),
)
@settings(max_examples=300, deadline=None)
def test_fast_path_renders_exactly_like_markdown(
    pieces: list[str], inline: bool, math: str
) -> None:
    """render_markdown's shortcut for plain text, code and math must equal full Markdown."""
    from konum.markup import markdown_html

    text = "".join(pieces)
    if not text.strip():
        return
    try:
        slow = markdown_html(text, math)  # type: ignore[arg-type]
    except MathError:
        return
    fast = render_markdown(text, inline=inline, math=math)  # type: ignore[arg-type]
    if inline and slow.startswith("<p>") and slow.endswith("</p>") and slow.count("<p>") == 1:
        slow = slow[3:-4]
    assert fast == slow


@pytest.mark.parametrize(
    "text",
    [
        "-0.9538",  # a computed option: a sign and a number start no list
        "0.3006",
        "+3 more",
        "3.14 is close to pi",
        "1. a list",
        "- a list",
        "10) not a list here",
        "$x$7. $x$",  # one formula holding dollars, alone in its paragraph
        "$`code``code`a-b$x$",  # a double-backtick code span the fast path declines
        "`a` and ``b`` and `c`",
    ],
)
@pytest.mark.parametrize("math", ["mathml", "anki"])
def test_fast_path_cases_found_by_search(text: str, math: str) -> None:
    """Texts where the shortcut once declined for nothing, or differed from Markdown."""
    from konum.markup import markdown_html

    assert render_markdown(text, math=math) == markdown_html(text, math)  # type: ignore[arg-type]


def test_numbers_take_the_fast_path() -> None:
    """Computed options are numbers: they must not pay for a full Markdown run."""
    from konum import markup

    for number in ("-0.9538", "0.3006", "+2", "42"):
        assert markup._fast_plan(number) == ("paragraph", (number,))
