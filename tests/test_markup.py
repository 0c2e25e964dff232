"""Bank Markdown to safe HTML: math, code, and the sanitiser's allow-list."""

from __future__ import annotations

import re
import xml.etree.ElementTree as etree
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest
import yaml

from konum.markup import json_html, render_markdown, render_text
from konum.math import MathError, tex_to_html
from tests.helpers import GENERATORS


def test_inline_math_becomes_mathml() -> None:
    html = render_markdown(r"The angle $\theta = p / 10000^{2k/d}$ grows.")
    # HTML parsers put <math> in the MathML namespace and default it to inline.
    assert '<math alttext="\\theta = p / 10000^{2k/d}">' in html
    assert "xmlns" not in html and "display=" not in html
    assert "<msup><mn>10000</mn>" in html


def test_display_math_block_on_its_own_lines() -> None:
    html = render_markdown("Before.\n\n$$\na^2 + b^2\n$$\n\nAfter.")
    assert '<div class="konum-math" tabindex="0"><math' in html
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


def test_mathml_is_compact() -> None:
    """latex2mathml's longer spellings are shortened, never what the formula says."""
    html = tex_to_html(r"\mathrm{Attn}(x_{1}) < \mathrm{d} + {y}", display=False)
    body = html.split(">", 1)[1]
    assert body == (
        '<mrow><mi>Attn</mi><mo stretchy="false">(</mo><msub><mi>x</mi><mn>1</mn></msub>'
        '<mo stretchy="false">)</mo><mo>&#x0003C;</mo><mi>d</mi><mo>+</mo><mi>y</mi></mrow></math>'
    )
    # A row that groups more than one token stays, and so does the row around the whole
    # formula (Chromium lays an inline formula out on one line only inside it).
    grouped = tex_to_html(r"\left(a+b\right)^2", display=False)
    assert grouped.count("<mrow>") == 2 and "<msup><mrow><mo" in grouped
    assert tex_to_html("x", display=False) == "<math><mi>x</mi></math>"


@pytest.mark.parametrize(
    ("tex", "alttext"),
    [
        ("j - i", None),  # the formula's own characters: nothing for alttext to add
        ("d = 8", None),
        ("a < b", None),
        ("x_i", "x_i"),  # the TeX says what the characters do not (a subscript)
        ("\\alpha", "\\alpha"),
        ("10{,}5", "10{,}5"),
    ],
)
def test_alttext_only_where_the_tex_says_more(tex: str, alttext: str | None) -> None:
    html = tex_to_html(tex, display=False)
    found = re.match(r'<math(?: alttext="([^"]*)")?>', html)
    assert found is not None and found.group(1) == alttext


def test_matrix_brackets_stretch() -> None:
    html = tex_to_html(r"\begin{pmatrix} a & b \\ c & d \end{pmatrix}", display=True)
    assert '<mo stretchy="true" fence="true" form="prefix">(</mo><mtable>' in html
    assert '</mtable><mo stretchy="true" fence="true" form="postfix">)</mo>' in html
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


@pytest.mark.parametrize(
    ("tex", "numbers"),
    [
        (r"\omega_1 = 0{,}1000", ["1", "0,1000"]),  # Turkish: one number, no list spacing
        (r"-0{,}5 + 12{,}25", ["0,5", "12,25"]),
        (r"(0, 1)", ["0", "1"]),  # a comma between numbers, not braced: a list's comma
        (r"x_{0,1}", ["0", "1"]),
        (r"0{,}", ["0"]),  # no digit after it: nothing to join
    ],
)
def test_a_braced_comma_between_digits_is_a_decimal_comma(tex: str, numbers: list[str]) -> None:
    html = tex_to_html(tex, display=False)
    assert re.findall(r"<mn>([^<]*)</mn>", html) == numbers


@pytest.mark.parametrize(
    ("text", "html"),
    [
        ("-0.9538", "<p>-0.9538</p>"),  # a computed option: a sign and a number start no list
        ("+3 more", "<p>+3 more</p>"),
        ("3.14 is close to pi", "<p>3.14 is close to pi</p>"),
        ("10) not a list here", "<p>10) not a list here</p>"),
        ("1. a list", "<ol>\n<li>a list</li>\n</ol>"),
        ("- a list", "<ul>\n<li>a list</li>\n</ul>"),
        ("`a` and ``b`` and `c`", "<p><code>a</code> and <code>b</code> and <code>c</code></p>"),
        (
            "$`code``code`a-b$x$",
            "<p>$<code>code``code</code>a-b<math><mi>x</mi></math></p>",
        ),
    ],
)
def test_markdown_cases(text: str, html: str) -> None:
    assert render_markdown(text) == html


def test_table_alignment_uses_the_align_attribute() -> None:
    html = render_markdown("| a | b |\n|:--|--:|\n| 1 | 2 |")
    assert '<th align="left">a</th>' in html and '<td align="right">2</td>' in html
    assert "style" not in html


# --- every formula of the course renders --------------------------------------------------

REPO = Path(__file__).resolve().parent.parent
CONTENT = REPO / "content"
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


def real_formulas() -> set[str]:
    """Every formula of the banks, the lessons and the computed questions."""
    found: set[str] = set()
    for bank in sorted((CONTENT / "banks").glob("*.yml")):
        for text in strings_in(yaml.safe_load(bank.read_text(encoding="utf-8"))):
            found.update(formulas_in(text))
    for page in sorted([*(CONTENT / "lessons").glob("*.md"), *CONTENT.glob("*.md")]):
        found.update(formulas_in(page.read_text(encoding="utf-8")))
    for name in sorted(GENERATORS):
        for seed in range(8):
            generated = GENERATORS[name].generate(np.random.default_rng(seed), {})
            for text in [generated.prompt, generated.solution]:
                found.update(formulas_in(text))
            for d in generated.distractors:
                found.update(formulas_in(d.feedback))
    return {f for f in found if f and "{{" not in f}


def test_every_formula_of_the_course_renders() -> None:
    formulas = real_formulas()
    assert len(formulas) > 300
    for tex in sorted(formulas):
        for display in (False, True):
            html = tex_to_html(tex, display=display)
            assert html.startswith("<math") and html.endswith("</math>")


# --- broken and unsafe LaTeX ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("tex", "reason"),
    [
        ("x^", "a ^ or _ has nothing after it (latex2mathml: MissingSuperScriptOrSubscriptError)"),
        (r"\left( y", "a \\left or \\right without its partner"),
        (r"\mathrm{", "it ends too early"),
        ("a_1_2", "two subscripts in a row"),
        (r"\begin{matrix} a", "a \\begin without its \\end"),
    ],
)
def test_bad_latex_says_why(tex: str, reason: str) -> None:
    with pytest.raises(MathError) as info:
        tex_to_html(tex, display=False)
    assert str(info.value).startswith(f"cannot render the math ${tex}$: ")
    assert reason in str(info.value)


@pytest.mark.parametrize(
    "tex",
    [
        r"\href{javascript:alert(1)}{x}",
        r"\url{https://example.org}",
        r"\style{position:fixed}{x}",
        r"\unicode{x41}",
        r"\class{konum-buttons}{x}",
        r"\cssId{x}{y}",
        r"\htmlData{a=b}{x}",
        r"\htmlStyle{color:red}{x}",
        r"\require{action}",
        r"\mmlToken{mi}{x}",
        r"\bbox[background:url(x)]{y}",
        r"\def\h{x} \h",
        r"\let\h=\href",
        r"\newcommand{\h}{x}",
        r"a + \texttip{x}{y}",
    ],
)
@pytest.mark.parametrize("mode", ["mathml", "anki"])
def test_math_that_reaches_outside_the_formula_is_refused(tex: str, mode: str) -> None:
    with pytest.raises(MathError, match="is not allowed in a bank"):
        tex_to_html(tex, display=False, mode=mode)


@pytest.mark.parametrize("tex", [r"\hrefx", r"\urlencoded", r"\styles", r"\define", r"\text{url}"])
def test_longer_commands_and_words_are_not_refused(tex: str) -> None:
    tex_to_html(tex, display=False, mode="anki")


def test_math_errors_can_be_collected_instead_of_raised() -> None:
    rendered = render_text("$x^$ then $\\mathrm{$ and $y$ and\n\n$$\n\\left( z\n$$")
    errors = rendered.formula_errors()
    assert sorted(tex for tex, _ in errors) == ["\n\\left( z\n", "\\mathrm{", "x^"]
    assert ("y", False) in rendered.formulas  # the good formula is found too
    with pytest.raises(MathError):
        render_markdown("$x^$ then $\\mathrm{$")


class _Events(HTMLParser):
    """Every tag, its attributes and every text, as an HTML parser reads them."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.events: list[object] = []
        self.feed(html)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.events.append((tag, attrs))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.events.append((tag, attrs, "/"))

    def handle_endtag(self, tag: str) -> None:
        self.events.append(("/", tag))

    def handle_data(self, data: str) -> None:
        self.events.append(data)


@pytest.mark.parametrize(
    "html",
    [
        render_markdown(
            "A *b* with `c = 1` and $a > b, a<b$ and [a link](https://x.org/?a=1&b=2)."
        ),
        render_markdown('```python\nprint("it\'s", x[::2])\n```'),
        render_markdown("$$\\begin{pmatrix} a \\\\ b \\end{pmatrix}$$"),
        '<p class="a b" title="it\'s &quot;q&quot;">x = "y"</p><img alt="" src="data:a;b,c=">',
        '<svg><use xlink:href="#m1" x="1" y="2"/><path d="M 0 0 L 1 1" style="fill: none"/></svg>',
        '<input type="text" id="q-1" aria-label="Blank 1 of 2" autocomplete="off">',
    ],
)
def test_json_html_keeps_every_element_and_attribute(html: str) -> None:
    compact = json_html(html)
    assert '"' not in re.sub(r">[^<]*<", "><", compact)  # none left in a tag
    assert _Events(compact).events == _Events(html).events
