"""Property test: whatever an author does to a valid bank, loading never raises a traceback.

Random mutations of tests/banks/valid/everything.yml, both of its text (characters deleted,
inserted, lines duplicated, re-indented) and of its structure (keys dropped, renamed, values
replaced by values of other types), must end in a loaded bank or a BankError whose problems
are all well formed. Any other exception fails the test.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from konum.load import load_file
from konum.problems import format_json, format_text
from konum.types import Bank

VALID = Path(__file__).parent / "banks" / "valid" / "everything.yml"
TEXT = VALID.read_text(encoding="utf-8")
DATA = yaml.safe_load(TEXT)

YAML_CHARS = ":-[]{}&*!|>'\"#%@`,?\t\n <>$_\\ışğüöçİ0123456789abcxyz"

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**6), max_value=10**6),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(alphabet=YAML_CHARS, max_size=12),
    st.sampled_from(
        [
            "choice",
            "fill",
            "matching",
            "numeric",
            "computed",
            "____",
            "<script>",
            "true",
            "rope_angle",
            "",
            "q1",
        ]
    ),
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.sampled_from(
                ["text", "correct", "min", "max", "answers", "left", "right", "id", "x"]
            ),
            inner,
            max_size=3,
        )
    ),
    max_leaves=6,
)


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(node, dict):
        for key, value in node.items():
            found += _paths(value, (*prefix, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            found += _paths(value, (*prefix, i))
    return found


def _parent(root: Any, path: tuple[Any, ...]) -> Any:
    for part in path[:-1]:
        root = root[part]
    return root


@st.composite
def structural(draw: st.DrawFn) -> str:
    data = json.loads(json.dumps(DATA))  # a deep copy
    for _ in range(draw(st.integers(1, 3))):
        paths = [p for p in _paths(data) if p]
        path = draw(st.sampled_from(paths))
        parent = _parent(data, path)
        action = draw(st.sampled_from(["replace", "delete", "rename", "add"]))
        if action == "replace":
            parent[path[-1]] = draw(values)
        elif action == "delete":
            del parent[path[-1]]
        elif action == "rename" and isinstance(parent, dict):
            parent[
                draw(st.text(alphabet="abcdefghijklmnopqrstuvwxyz_", min_size=1, max_size=12))
            ] = parent.pop(path[-1])
        elif action == "add" and isinstance(parent, list):
            parent.append(draw(values))
    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    return yaml.dump(data, Dumper=dumper, allow_unicode=True, sort_keys=False)


@st.composite
def textual(draw: st.DrawFn) -> str:
    text = TEXT
    for _ in range(draw(st.integers(1, 3))):
        lines = text.split("\n")
        action = draw(st.sampled_from(["delete", "insert", "dup-line", "indent", "swap"]))
        if action in ("delete", "insert") and text:
            start = draw(st.integers(0, len(text) - 1))
            if action == "delete":
                text = text[:start] + text[start + draw(st.integers(1, 20)) :]
            else:
                text = (
                    text[:start]
                    + draw(st.text(alphabet=YAML_CHARS, min_size=1, max_size=8))
                    + text[start:]
                )
        elif action == "dup-line":
            i = draw(st.integers(0, len(lines) - 1))
            lines.insert(i, lines[i])
            text = "\n".join(lines)
        elif action == "indent":
            i = draw(st.integers(0, len(lines) - 1))
            lines[i] = " " * draw(st.integers(0, 3)) + lines[i]
            text = "\n".join(lines)
        else:
            i, j = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
            text = "\n".join(lines)
    return text


@settings(max_examples=200, deadline=None)
@given(st.one_of(structural(), textual()))
def test_mutated_bank_loads_or_reports_problems(text: str) -> None:
    # The load alone, which runs nothing (tests/test_banks.py covers the check stage).
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "everything.yml"
        path.write_text(text, encoding="utf-8")
        loaded = load_file(path)
        if loaded.problems:
            for problem in loaded.problems:
                assert problem.file == str(path)
                assert problem.message
                assert problem.line is None or problem.line >= 1
                assert problem.column is None or problem.column >= 1
            format_text(loaded.problems, files=1)
            json.loads(format_json(loaded.problems, files=1))
        else:
            assert isinstance(loaded.bank, Bank)
            assert loaded.bank.questions
