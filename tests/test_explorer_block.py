"""The ``/// explorer | NAME`` block: its HTML, its options and their errors, the files a page
gets, and the explorers in the built lessons.

The explorers themselves (their numbers against the core, controls, axe, phone width, instant
navigation, no JavaScript) are driven in Chromium by ``tests/browser/test_explorers.py``.
"""

from __future__ import annotations

import gzip
import html
import json
import re
from pathlib import Path
from typing import Any

import markdown
import pytest

from konum.explorer import explorer_assets
from konum.explorers import ExplorerError
from konum.formatting import localize_numbers
from konum.messages import catalogue as messages_catalogue
from konum.paths import TEMPLATES_DIR
from konum_pe import pe
from tests.helpers import EXPLORERS, PE, explorer_values, message, render_svg

REPO = Path(__file__).resolve().parent.parent
#: konum's shared explorer files, and the course's explorers' scripts.
COURSE_ASSETS = REPO / "generator" / "konum_pe" / "assets"
EXPLORER_FILES = sorted(
    [*(TEMPLATES_DIR / "assets" / "explorers").iterdir(), *COURSE_ASSETS.glob("*.js")]
)
CONTAINER = re.compile(
    r"<div class=\"konum-explorer\" data-explorer=\"(?P<name>[a-z0-9-]+)\" "
    r"data-explorer-params='(?P<params>[^']*)'>"
)
#: The explorer each lesson shows, in page order.
LESSON_EXPLORERS = {
    "02-sinusoidal": ["sinusoidal"],
    "04-relative": ["t5-buckets"],
    "05-rope": ["shift-rotation", "rope-layouts"],
    "06-extending-context": ["context-extension"],
    "07-alibi": ["alibi"],
}


def convert(text: str, language: str = "en") -> str:
    config = {"banks": str(REPO / "content" / "banks"), "language": language, "plugins": ["pe"]}
    return markdown.Markdown(extensions=["konum"], extension_configs={"konum": config}).convert(
        text
    )


def fallback_alt(name: str, values: dict[str, Any], language: str = "en") -> str:
    """The fallback figure's alt text of explorer ``name``: its catalogue text, filled in,
    its numbers written in ``language`` (Turkish: 10.000, 0,5)."""
    figure = EXPLORERS[name].figure
    assert figure is not None
    _, _, key, fields = figure(values)
    return localize_numbers(message(language, f"explorer.{key}", **fields), language)


def blocks(page: str) -> list[tuple[str, dict[str, Any]]]:
    """(name, params) of every explorer container in ``page``."""
    return [
        (m.group("name"), json.loads(html.unescape(m.group("params"))))
        for m in CONTAINER.finditer(page)
    ]


# --- the block's HTML -------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(EXPLORERS))
def test_block_renders_container_values_limits_and_the_fallback(name: str) -> None:
    """Each explorer with its defaults: one container naming it, its starting values and the
    limits of every control as JSON, and the core's figure for those values inside."""
    page = convert(f"/// explorer | {name}\n///\n")
    [(found, params)] = blocks(page)
    explorer = EXPLORERS[name]
    assert found == name
    assert params["values"] == explorer_values(name, {})
    assert set(params["limits"]) == set(explorer.params) == set(params["values"])
    for key, spec in explorer.params.items():
        limit = params["limits"][key]
        if "choices" in limit:
            assert limit["choices"] == list(spec.allowed.values)  # type: ignore[union-attr]
        else:
            assert (limit["min"], limit["max"]) == (spec.allowed.low, spec.allowed.high)  # type: ignore[union-attr]
    if explorer.figure is None:  # rope-layouts: the core's permutation as a table
        d = params["values"]["d"]
        rows = re.findall(r"<tr><td>(\d+)</td><td>(\d+)</td><td>(\d+)</td></tr>", page)
        assert [int(j) for _, j, _ in rows] == pe.rope_layout_permutation(d).tolist()
        assert [int(k) for _, _, k in rows] == [int(j) % (d // 2) for _, j, _ in rows]
    else:
        figure_name, figure_params, _, _ = explorer.figure(params["values"])
        alt = fallback_alt(name, params["values"])
        assert render_svg(figure_name, alt, None, **figure_params) in page
    assert page.count('class="konum-explorer__fallback"') == 1


def test_options_set_the_starting_values_and_the_figure() -> None:
    page = convert(
        "/// explorer | t5-buckets\n    num_buckets: 16\n    max_distance: 40\n"
        "    direction: causal\n///\n"
    )
    [(_, params)] = blocks(page)
    assert params["values"] == {
        "num_buckets": 16,
        "max_distance": 40,
        "direction": "causal",
        "relative": -20,
        "tokens": 24,
    }
    alt = fallback_alt("t5-buckets", params["values"])
    svg = render_svg("t5_buckets", alt, None, num_buckets=16, max_distance=40, span=50)
    assert svg in page


@pytest.mark.parametrize("name", sorted(EXPLORERS))
def test_a_turkish_page_gets_the_fallback_in_turkish(name: str) -> None:
    """With ``language: tr`` the fallback's alt text (or the table's caption and headers)
    comes from the Turkish catalogue, and the page carries the Turkish explorer section for
    the scripts."""
    from konum.messages import catalogue

    page = convert(f"/// explorer | {name}\n///\n", language="tr")
    [(_, params)] = blocks(page)
    if EXPLORERS[name].figure is None:
        for key in ("layouts_col_interleaved", "layouts_col_half", "layouts_col_pair"):
            assert f">{catalogue('tr', PE.messages)[f'explorer.{key}']}</th>" in page
        caption = catalogue("tr", PE.messages)["explorer.layouts_caption"].format(
            d=params["values"]["d"]
        )
        assert f"<caption>{caption}</caption>" in page
    else:
        alt = fallback_alt(name, params["values"], "tr")
        assert alt != fallback_alt(name, params["values"], "en")
        assert f'aria-label="{alt}"' in page
        if name == "context-extension":  # its numbers as Turkish writes them
            assert "taban 10.000)" in alt and "4.096 belirteçlik" in alt
    assert f'"explorer.settings":"{catalogue("tr", PE.messages)["explorer.settings"]}"' in page


def test_alt_and_caption_replace_the_fallback_text() -> None:
    """A translated page gives the fallback figure its own words."""
    page = convert(
        '/// explorer | alibi\n    alt: "Bir başın ALiBi matrisi"\n    caption: "Baş 1"\n///\n'
    )
    assert 'aria-label="Bir başın ALiBi matrisi"' in page
    assert "<figcaption>Baş 1</figcaption>" in page
    table = convert('/// explorer | rope-layouts\n    caption: "İki düzen"\n///\n')
    assert "<caption>İki düzen</caption>" in table


def test_two_blocks_on_a_page_and_markdown_around_them() -> None:
    page = convert(
        "Before.\n\n/// explorer | shift-rotation\n///\n\nBetween.\n\n"
        "/// explorer | rope-layouts\n    d: 12\n///\n\nAfter.\n"
    )
    assert [name for name, _ in blocks(page)] == ["shift-rotation", "rope-layouts"]
    assert blocks(page)[1][1]["values"]["d"] == 12
    for text in ("<p>Before.</p>", "<p>Between.</p>", "<p>After.</p>"):
        assert text in page


def test_a_block_inside_fenced_code_is_left_as_code() -> None:
    page = convert("```text\n/// explorer | nope\n    bogus: 1\n///\n```\n")
    assert "data-explorer=" not in page
    assert "/// explorer | nope" in page


# --- errors -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "message"),
    [
        (
            "Text.\n\n/// explorer | t5-bucket\n///\n",
            "line 3: /// explorer | t5-bucket: no such explorer; did you mean 't5-buckets'? "
            "(explorers: sinusoidal, shift-rotation, rope-layouts, t5-buckets, alibi, "
            "context-extension)",
        ),
        (
            "/// explorer t5-buckets\n///\n",
            "line 1: '/// explorer t5-buckets' is not an explorer block; write "
            "'/// explorer | NAME' (a bar before the name) and end it with '///'",
        ),
        (
            "/// explorer | t5-buckets\n    num_bucket: 16\n///\n",
            "line 2: /// explorer | t5-buckets: unknown option 'num_bucket'; did you mean "
            "'num_buckets'? (options: num_buckets, max_distance, direction, relative, tokens, "
            "alt, caption)",
        ),
        (
            "/// explorer | sinusoidal\n    d: 7\n///\n",
            "line 2: /// explorer | sinusoidal: option 'd': expected an even int in 2..64, found 7",
        ),
        (
            "/// explorer | t5-buckets\n    direction: both\n///\n",
            "line 2: /// explorer | t5-buckets: option 'direction': expected one of "
            "'bidirectional', 'causal', found 'both'",
        ),
        (
            "/// explorer | sinusoidal\n    n: 8\n    position: 8\n///\n",
            "line 3: /// explorer | sinusoidal: option 'position': expected a value below "
            "n = 8, found 8",
        ),
        (
            "/// explorer | alibi\n    num_heads: 4\n    head: 5\n///\n",
            "line 3: /// explorer | alibi: option 'head': expected a head from 1 to "
            "num_heads = 4, found 5",
        ),
        (
            "/// explorer | shift-rotation\n    position: 2\n    offset: -3\n///\n",
            "line 3: /// explorer | shift-rotation: option 'offset': expected an offset to a "
            "position from 0 on (offset >= -position = -2), found -3",
        ),
        (
            "/// explorer | t5-buckets\n    num_buckets: 64\n    max_distance: 16\n///\n",
            "line 3: /// explorer | t5-buckets: max_distance must be an integer greater than "
            "the 16 exact buckets, got 16",
        ),
        (
            "/// explorer | alibi\n    alt: 3\n///\n",
            "line 2: /// explorer | alibi: option 'alt': expected text, found 3",
        ),
        (
            "/// explorer | alibi\n    n: [3\n///\n",
            "line 2: /// explorer | alibi: the options are not YAML (expected ',' or ']', but "
            "got '<stream end>')",
        ),
        (
            "/// explorer | alibi\n    - n\n///\n",
            "line 2: /// explorer | alibi: expected options as 'name: value' lines, found '- n'",
        ),
    ],
    ids=[
        "unknown-explorer",
        "no-bar",
        "unknown-option",
        "odd-d",
        "bad-choice",
        "position-beyond-n",
        "head-beyond-heads",
        "offset-before-0",
        "core-rejects",
        "alt-not-text",
        "not-yaml",
        "not-options",
    ],
)
def test_errors_name_the_block_the_option_and_what_was_expected(source: str, message: str) -> None:
    with pytest.raises(ExplorerError) as caught:
        convert(source)
    assert str(caught.value) == message


def test_a_block_inside_an_admonition_works_and_is_checked() -> None:
    """Indented inside another block, the header is not seen line by line; the block itself
    checks its options (the message then has no line)."""

    def admonition(text: str) -> str:
        config = {"banks": str(REPO / "content" / "banks"), "plugins": ["pe"]}
        return markdown.Markdown(
            extensions=["konum", "admonition"], extension_configs={"konum": config}
        ).convert(text)

    page = admonition("!!! note\n\n    /// explorer | alibi\n        head: 3\n    ///\n")
    [(name, params)] = blocks(page)
    assert (name, params["values"]["head"]) == ("alibi", 3)
    with pytest.raises(ExplorerError) as caught:
        admonition("!!! note\n\n    /// explorer | alibi\n        head: 9\n    ///\n")
    assert str(caught.value) == (
        "/// explorer | alibi: option 'head': expected a head from 1 to num_heads = 8, found 9"
    )


def test_errors_stop_a_mkdocs_build_as_one_line() -> None:
    """An ExplorerError is MkDocs' BuildError: MkDocs prints it, names the page and stops."""
    from mkdocs.exceptions import BuildError

    assert issubclass(ExplorerError, BuildError)


# --- the files a page gets --------------------------------------------------------------------


def _assets(page: str) -> list[str]:
    return re.findall(r'data-konum-asset="(explorers?[a-z0-9-]*)"', page)


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("<p>Hi</p>", []),
        ('<div data-explorer="alibi"></div>', ["explorers", "explorers", "explorer-alibi"]),
        (
            '<div data-explorer="alibi"></div><div data-explorer="t5-buckets"></div>'
            '<div data-explorer="alibi"></div>',
            ["explorers", "explorers", "explorer-alibi", "explorer-t5-buckets"],
        ),
        ('<div data-explorer="nope"></div>', []),
    ],
    ids=["none", "one", "two-and-a-repeat", "unknown"],
)
def test_pages_get_the_explorer_files_they_use_once(content: str, expected: list[str]) -> None:
    """The shared CSS and JS once, then each explorer's own script once; nothing of the
    explorers on a page without one, and no quiz files either."""
    page = content + explorer_assets(EXPLORERS, content)
    assert _assets(page) == expected
    assert 'data-konum-asset="quiz"' not in page
    for name in EXPLORERS:
        assert (f'.define("{name}"' in page) is (f"explorer-{name}" in expected)
    assert ("window.konumExplorers" in page) is bool(expected)


def _page_texts(page: str) -> set[str]:
    """The keys of the interface texts a converted page carries for its scripts."""
    found = re.search(r"<template data-konum-messages><script[^>]*>(.*?)</script>", page, re.S)
    return set(json.loads(found.group(1))) if found else set()


def test_pages_carry_the_texts_of_the_explorers_they_show_only() -> None:
    """A page with the sinusoidal explorer carries its ``sin_`` texts and the shared ones,
    not the other explorers'; a page with two carries both."""
    keys = _page_texts(convert("/// explorer | sinusoidal\n///\n"))
    assert {"explorer.settings", "explorer.sin_n"} <= keys
    assert not [key for key in keys if key.startswith(("explorer.t5_", "explorer.alibi_"))]
    both = _page_texts(convert("/// explorer | alibi\n///\n\n/// explorer | t5-buckets\n///\n"))
    prefixes = {key.split("_")[0] for key in both if key.startswith("explorer.")}
    assert prefixes == {"explorer.alibi", "explorer.t5", "explorer.settings"}
    assert not [key for key in _page_texts(convert("No explorer.")) if "explorer" in key]


def test_each_explorer_script_reads_only_its_own_and_shared_texts() -> None:
    """What lets a page leave out the texts of explorers it does not show: no script reads
    another explorer's texts, and every key a script names is in the catalogue."""
    catalogue = {
        key.removeprefix("explorer.")
        for lang in ("en", "tr")
        for key in messages_catalogue(lang, PE.messages)
        if key.startswith("explorer.")
    }
    for name, explorer in EXPLORERS.items():
        text = explorer.script.read_text(encoding="utf-8")
        others = tuple(e.texts for n, e in EXPLORERS.items() if n != name)
        named = re.findall(r'\bt\("([a-z0-9_]+)"', text)
        assert named, name
        for key in named:
            assert not key.startswith(others), (name, key)
            whole = key in catalogue or any(k.startswith(key) for k in catalogue)
            assert whole, (name, key)


def test_each_explorer_script_fits_in_4_kb_gzipped() -> None:
    for path in EXPLORER_FILES:
        assert len(gzip.compress(path.read_bytes(), 9)) <= 4 * 1024, path.name
    assert {explorer.script for explorer in EXPLORERS.values()} == set(COURSE_ASSETS.glob("*.js"))


def test_explorer_files_make_no_requests_and_cannot_end_their_element() -> None:
    for path in EXPLORER_FILES:
        text = path.read_text(encoding="utf-8")
        for needle in ("fetch(", "XMLHttpRequest", "import(", "sendBeacon", "WebSocket", "</"):
            assert needle not in text, (path.name, needle)
        assert "url(" not in text and "@import" not in text, path.name


# --- the built lessons ------------------------------------------------------------------------


def test_lessons_show_their_explorers(built_site: Path) -> None:
    for stem, names in LESSON_EXPLORERS.items():
        page = (built_site / "lessons" / f"{stem}.html").read_text(encoding="utf-8")
        assert [name for name, _ in blocks(page)] == names, stem


def test_explorer_files_only_where_an_explorer_is(built_site: Path) -> None:
    """Every page carries exactly the scripts of the explorers it shows: none elsewhere."""
    pages = sorted(built_site.rglob("*.html"))
    without = 0
    for path in pages:
        page = path.read_text(encoding="utf-8")
        names = list(dict.fromkeys(name for name, _ in blocks(page)))
        expected = ["explorers", "explorers", *(f"explorer-{n}" for n in names)] if names else []
        assert _assets(page) == expected, path
        without += not names
    assert without >= 8
