"""Numbers in lesson pages come from the core through the sandboxed Jinja pass."""

from __future__ import annotations

import markdown
import numpy as np
import pytest
from babel import numbers

from konum.formatting import format_number, localize_numbers
from konum.messages import LANGUAGES
from konum.sandbox import fmt
from konum.values import ValuesError, table, thousands, vec
from konum_pe import pe


def convert(text: str) -> str:
    md = markdown.Markdown(
        extensions=["konum.values", "konum.math", "tables", "pymdownx.superfences"],
        extension_configs={"konum.values": {"plugins": ["pe"]}},
    )
    return md.convert(text)


def test_fmt_normalises_negative_zero_and_rounds() -> None:
    assert fmt(-0.00001, 3) == "0.000"
    assert fmt(np.float64(0.29552020666), 4) == "0.2955"
    assert fmt(-1.5, 1) == "-1.5"
    assert fmt(32.0) == "32"


def test_thousands_groups_digits() -> None:
    assert thousands(np.int64(786432)) == "786,432"
    assert thousands(12.0) == "12"
    with pytest.raises(ValueError, match="whole number"):
        thousands(1.5)


def test_vec_prints_like_rounded_numpy() -> None:
    assert vec([0.0, 1.0, -0.0004, 0.8414709], 3) == "[0 1 0 0.841]"


def test_table_is_markdown_with_labels() -> None:
    text = table([[0.0, 1.0], [0.5, float("-inf")]], decimals=1, row_label="i", col_label="j")
    lines = text.splitlines()
    assert lines[0] == "| i \\ j | 0 | 1 |"
    assert lines[2] == "| 0 | 0.0 | 1.0 |"
    assert lines[3] == "| 1 | 0.5 | -inf |"


def test_expressions_use_the_core() -> None:
    html = convert("Row 1 is {{ vec(pe.sinusoidal(4, 6)[1]) }}.")
    assert f"Row 1 is {vec(pe.sinusoidal(4, 6)[1])}." in html
    assert "[0.841 0.54 0.046 0.999 0.002 1]" in html


def test_expressions_run_inside_fenced_code() -> None:
    html = convert("```python\nprint(PE[1, 0])  # {{ fmt(pe.sinusoidal(2, 4)[1, 0], 3) }}\n```\n")
    assert "# 0.841" in html


def test_set_and_loops_work() -> None:
    html = convert(
        "{% set s = pe.alibi_slopes(8) %}{% for x in s[:2] %}{{ fmt(x, 2) }};{% endfor %}"
    )
    assert "0.50;0.25;" in html


def test_undefined_names_fail_loudly() -> None:
    with pytest.raises(ValuesError, match="undefined"):
        convert("{{ no_such_name }}")


def test_sandbox_refuses_private_attributes() -> None:
    with pytest.raises(ValuesError, match="line 1: private attribute '__dict__'"):
        convert("{{ pe.__dict__ }}")


def test_errors_are_build_errors_that_mkdocs_prints_as_one_line() -> None:
    from mkdocs.exceptions import BuildError

    with pytest.raises(BuildError) as info:
        convert("ok\n{{ pe.sinusoidal(4, -2) }}")
    assert str(info.value) == (
        "in a {{ ... }} expression, line 2: ValueError: d must be a positive integer, got -2"
    )


def test_block_assignments_capture_loop_output() -> None:
    html = convert(
        "{% set failures %}{% for k in range(1, 4) %}{% if k == 2 %}{{ k }}{% endif %}"
        "{% endfor %}{% endset %}[{{ failures }}] {{ not failures }}"
    )
    assert "[2] False" in html


def test_syntax_error_names_the_line() -> None:
    with pytest.raises(ValuesError, match="line 3"):
        convert("a\n\n{{ fmt( }}\n")


def test_pages_without_expressions_are_untouched() -> None:
    assert convert("Plain *text*.") == "<p>Plain <em>text</em>.</p>"


def test_figures_are_inlined_as_svg_with_their_alt_text() -> None:
    html = convert('Before.\n\n{{ figure("pe_heatmap", alt="A heatmap", n=8, d=8) }}\n\nAfter.')
    assert '<figure class="konum-figure"' in html
    assert 'aria-label="A heatmap"' in html
    assert "wzxhzdk" not in html and "<p><figure" not in html


def test_constraints_read_as_bank_syntax() -> None:
    from konum.model import Choices, Range
    from konum.values import constraint_text

    assert constraint_text(Range(1, 50)) == "{min: 1, max: 50}"
    assert constraint_text(Range(2, 4096, 2)) == "{min: 2, max: 4096, step: 2}"
    assert constraint_text(Choices((4, 8, True, "half"))) == "[4, 8, true, half]"


def test_the_generator_catalogue_is_rendered_from_the_registry() -> None:
    from tests.helpers import GENERATORS

    html = convert("{% for g in generators() %}`{{ g.name }}`:{{ g.params | length }};{% endfor %}")
    for name, generator in GENERATORS.items():
        assert f"<code>{name}</code>:{len(generator.params)};" in html


# --- a page in Turkish -------------------------------------------------------------------------

PAGE = """\
Açı {{ fmt(0.8414, 3) }}, $x = {{ fmt(1.5, 1) }}$, {{ vec([0.5, 1.25]) }}; {{ thousands(786432) }}.

```python
print({{ fmt(0.8414, 3) }}, {{ vec([0.5]) }})  # {{ thousands(786432) }}
```

Kod içinde `{{ fmt(2.5, 1) }}`; yazarın 3.10 sürümü ve 0.5 sayısı olduğu gibi kalır.

{{ table([[0.25, -1.5]], decimals=2) }}

Taban {{ fmt(500000) }}, $b = {{ fmt(20473564.1, 1) }}$ ve {{ fmt(-3.5, 1) }}; {{ 512 * 768 }} sayı.
"""


def convert_in(text: str, language: str) -> str:
    md = markdown.Markdown(
        extensions=["konum", "tables", "pymdownx.superfences"],
        extension_configs={
            "konum": {"banks": "content/banks", "language": language, "plugins": ["pe"]}
        },
    )
    return md.convert(text)


def test_turkish_values_take_a_decimal_comma_in_prose_and_a_dot_in_code() -> None:
    html = convert_in(PAGE, "tr")
    assert "Açı 0,841," in html and "[0,5 1,25]; 786.432." in html
    assert 'alttext="x = 1{,}5"' in html  # math sets the comma without a space after it
    assert ">0,25</td>" in html and ">\u22121,50</td>" in html  # a minus sign, not a hyphen
    # CLDR's Turkish groups every long number: prose by a point, math by a braced point.
    assert "Taban 500.000," in html and 'alttext="b = 20{.}473{.}564{,}1"' in html
    assert "ve \u22123,5;" in html and "; 393.216 sayı." in html  # a bare number too
    code = html[html.index("<pre") : html.index("</pre>")]
    assert ">0.841<" in code and ">0.5<" in code and "# 786,432" in code
    assert "<code>2.5</code>" in html
    assert "3.10 sürümü ve 0.5 sayısı" in html  # only printed values change, not the prose
    assert "\ue000" not in html and "\ue002" not in html


def test_english_values_are_unchanged() -> None:
    html = convert_in(PAGE, "en")
    assert "Açı 0.841," in html and "[0.5 1.25]; 786,432." in html
    assert (
        "<mi>x</mi><mo>=</mo><mn>1.5</mn>" in html
        and ">0.25</td>" in html
        and ">-1.50</td>" in html
    )
    assert "Taban 500000," in html and "; 393216 sayı." in html


@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if lang != "en"])
def test_every_language_groups_digits_as_babel_does(language: str) -> None:
    """Whole numbers of four digits or more are grouped as CLDR writes them (through Babel)
    in every language but English, whose numbers stay as their authors wrote them."""
    for value, decimals, pattern in ((8192, None, "#,##0"), (-20473564.125, 2, "#,##0.00")):
        expected = numbers.format_decimal(value, format=pattern, locale=language)
        assert format_number(value, decimals, language=language) == expected
        written = f"{value:.{decimals}f}" if decimals else str(value)
        assert localize_numbers(f"({written} rows)", language) == f"({expected} rows)"
    assert format_number(8192, language="en") == localize_numbers("8192", "en") == "8192"
