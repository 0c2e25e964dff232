"""The authoring guide says what the code does: its explorer tables are the explorers'
options, its output-question section the limits and messages of konum.programs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from konum.computed.constraints import describe
from konum.config import DEFAULTS
from konum.explorers import TEXT_OPTIONS
from konum.plugins import PluginError, load_plugins
from konum.problems import BankError
from konum.programs import MEMORY, OUTPUT, SECONDS
from konum.record import record_outputs
from tests.helpers import EXPLORERS, PE, check_header, load_banks

REPO = Path(__file__).resolve().parents[1]
GUIDE = REPO / "content" / "authoring.md"


def _section(title: str, level: str = "##") -> str:
    text = GUIDE.read_text(encoding="utf-8")
    assert f"\n{level} {title}\n" in text, title
    body = text.split(f"\n{level} {title}\n", 1)[1].split("\n## ", 1)[0]
    return body.split("\n### ", 1)[0] if level == "###" else body


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


def test_the_output_section_states_the_programs_limits() -> None:
    section = _section("`output`: write a program that prints the right thing", "###")
    limits = f"{SECONDS} seconds, {MEMORY // 1024**3} GB of memory, {OUTPUT // 1024} KB of output"
    assert limits in section


def test_the_output_section_error_is_what_check_says(tmp_path: Path) -> None:
    """The guide's example: lesson 2's exercise without its numpy import."""
    section = _section("`output`: write a program that prints the right thing", "###")
    [shown] = re.findall(r"```text\n(.*?)\n```", section, re.DOTALL)
    bank = (REPO / "content" / "banks" / "sinusoidal.yml").read_text(encoding="utf-8")
    marker = "    solution: |\n      import numpy as np\n\n"
    assert bank.count(marker) == 1
    (tmp_path / "sinusoidal.yml").write_text(bank.replace(marker, "    solution: |\n"))
    with pytest.raises(BankError) as caught:
        load_banks(tmp_path, plugins=PE, run_programs=True)
    [problem] = caught.value.problems
    got = f"{problem.line}:{problem.column}: [{problem.question_id}] {problem.field}: "
    assert shown == f"content/banks/sinusoidal.yml:{got}{problem.message}"


def test_the_output_example_carries_what_record_writes(tmp_path: Path) -> None:
    """The guide's example question, recorded by ``konum check --record`` afresh, is the
    guide's text: the hash and the output are konum's, not typed."""
    section = _section("`output`: write a program that prints the right thing", "###")
    example = section.split("```yaml\n", 1)[1].split("```", 1)[0]
    start = example.index("    recorded:\n")
    end = example.index("    tolerance:")
    bank = tmp_path / "guide.yml"
    header = "bank: guide\ntitle: Guide\nquestions:\n"
    bank.write_text(header + example[:start] + example[end:], encoding="utf-8")
    assert record_outputs([bank], tmp_path) == [str(bank)]
    assert bank.read_text(encoding="utf-8") == header + example


def test_the_plugin_error_shown_is_what_konum_says(tmp_path: Path) -> None:
    section = _section("Generators of your own, in Python", "###")
    shown = re.findall(r"```text\n(konum: konum option 'plugins': no plugin.*?)\n```", section)
    with pytest.raises(PluginError) as caught:
        load_plugins(("chemistry",), tmp_path)
    assert shown == [f"konum: {caught.value}"]


def test_the_own_site_page_lists_every_option() -> None:
    text = (REPO / "content" / "own-site.md").read_text(encoding="utf-8")
    table = text.split("The extension's options:", 1)[1].split("\n\n", 2)[1]
    listed = re.findall(r"^\| `(\w+)` \|", table, re.M)
    assert sorted(listed) == sorted(DEFAULTS) and len(listed) == len(set(listed))
