"""The authoring guide says what the code does: its explorer tables are the explorers'
options, and its examples build."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from konum.computed.base import describe
from konum.mdx.explorer import EXPLORERS, TEXT_OPTIONS, check_header

GUIDE = Path(__file__).resolve().parents[1] / "content" / "authoring.md"


def _section(title: str) -> str:
    text = GUIDE.read_text(encoding="utf-8")
    assert f"\n## {title}\n" in text, title
    return text.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]


def _explorer_tables() -> dict[str, list[list[str]]]:
    """``{explorer: [[option, default, allowed, what], ...]}`` as the guide lists them."""
    tables: dict[str, list[list[str]]] = {}
    for part in _section("Explorers in a lesson").split("\n### ")[1:]:
        name = re.match(r"`([a-z0-9-]+)`", part)
        assert name, part[:40]
        rows = [line for line in part.split("\n") if line.startswith("| `")]
        tables[name.group(1)] = [[c.strip() for c in row.strip("|").split(" | ")] for row in rows]
    return tables


def test_the_guide_lists_every_explorer_in_order() -> None:
    assert list(_explorer_tables()) == list(EXPLORERS)


@pytest.mark.parametrize("name", list(EXPLORERS))
def test_each_explorer_table_is_its_options(name: str) -> None:
    explorer = EXPLORERS[name]
    rows = _explorer_tables()[name]
    assert [row[0] for row in rows] == [f"`{key}`" for key in explorer.params]
    for (option, default, allowed, what), spec in zip(rows, explorer.params.values(), strict=True):
        value = spec.default.values[0]  # type: ignore[union-attr]
        shown = f"{value:g}" if isinstance(value, float) else str(value)
        assert default == f"`{shown}`", option
        if spec.kind == "str":  # words, as code: `bidirectional` or `causal`
            expected = " or ".join(f"`{v}`" for v in spec.allowed.values)  # type: ignore[union-attr]
        else:
            expected = describe(spec)
        assert allowed.startswith(expected), (option, allowed, expected)
        assert what


def test_the_guide_example_block_and_error_are_the_checker_s() -> None:
    section = _section("Explorers in a lesson")
    example = section.split("```text\n", 1)[1].split("```", 1)[0].rstrip("\n").split("\n")
    check_header(example, 0)  # the example is valid
    [message] = re.findall(r"`(line 2: /// explorer[^`]*)`", section)
    lines = ["/// explorer | t5-buckets", "    num_buckets: 7", "///"]
    with pytest.raises(Exception, match=re.escape(message)):
        check_header(lines, 0)
    assert all(f"`{key}`" in section for key in TEXT_OPTIONS)
