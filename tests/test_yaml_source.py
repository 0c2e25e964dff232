"""The located YAML reader: values as the safe loader reads them, marks, and refusals.

``yamlsource.parse`` composes the node graph with PyYAML's composer and converts it into
located nodes. Its values must be what ``yaml.safe_load`` gives (timestamps excepted: they stay
text), its marks where the value was written, and anything unusual (aliases that expand too
far, tags, merge keys, duplicate keys, several documents, syntax errors, depth) a problem,
never an exception.
"""

from __future__ import annotations

import datetime
import math
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from konum import yamlsource
from konum.yamlsource import Mark, YMap, YNode, YScalar, YSeq

ROOT = Path(__file__).resolve().parent.parent


def plain(node: YNode | None) -> Any:
    """The located nodes as plain Python data."""
    if node is None or isinstance(node, YScalar):
        return None if node is None else node.value
    if isinstance(node, YSeq):
        return [plain(item) for item in node.items]
    return {key: plain(entry.value) for key, entry in node.entries.items()}


def safe_load(text: str) -> Any:
    """The safe loader's data (libyaml's, as the reader uses), timestamps set apart."""

    def textual(value: Any) -> Any:
        if isinstance(value, (datetime.date, datetime.datetime)):
            return None  # compared apart: the reader keeps the written text
        if isinstance(value, list):
            return [textual(v) for v in value]
        if isinstance(value, dict):
            return {str(k): textual(v) for k, v in value.items()}
        return value

    return textual(yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)))


def same(a: Any, b: Any) -> bool:
    """Equality where NaN equals NaN and a timestamp (None on the right) matches its text."""
    if b is None and isinstance(a, str):
        return True
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def read(text: str) -> tuple[YNode | None, list[str]]:
    root, problems = yamlsource.parse(text, "bank.yml")
    return root, [problem.message for problem in problems]


@pytest.mark.parametrize(
    "text",
    [
        "a:\nb: ''\nc: ~\n",
        "a: yes\nb: No\nc: on\nd: 1_000\ne: 0x1F\nf: 1:20\ng: .inf\nh: -.NaN\ni: 1e3\n",
        'a: |\n  two\n  lines\nb: >\n  folded\n  text\nc: "x\\ny"\n',
        "a: {b: [1, {c: d}], e: []}\nf: {}\n",
        "- - - x\n  - y\n- z\n",
        "a: plain text\n  that continues\n",
        "ı: ğ\nİ: 'ş'\n",
        "a: &x 1\nb: *x\n",  # a small alias is fine
        "[" * 40 + "x" + "]" * 40,  # as deep as allowed
    ],
)
def test_values_are_what_the_safe_loader_reads(text: str) -> None:
    root, problems = read(text)
    assert problems == []
    assert same(plain(root), safe_load(text))


def test_quoted_keys_are_text_and_timestamps_stay_text() -> None:
    root, problems = read("'1': x\n\"true\": y\nwhen: 2001-12-14\n")
    assert problems == []
    assert isinstance(root, YMap)
    assert list(root) == ["1", "true", "when"]
    assert root.get("when") == YScalar(Mark(3, 7), "2001-12-14", "2001-12-14")


def test_marks_and_styles() -> None:
    root, _ = read("a: plain\nb:\n  - 'single'\n  - |\n    block\nc: {d: \"double\"}\n")
    assert isinstance(root, YMap)
    assert root.entries["b"].key_mark == Mark(2, 1)
    b = root.get("b")
    assert isinstance(b, YSeq) and b.mark == Mark(3, 3)
    assert [(item.mark, item.style) for item in b.items if isinstance(item, YScalar)] == [
        (Mark(3, 5), "'"),
        (Mark(4, 5), "|"),
    ]
    c = root.get("c")
    assert isinstance(c, YMap) and c.get("d") == YScalar(Mark(6, 8), "double", "double", '"')
    assert root.get("a") == YScalar(Mark(1, 4), "plain", "plain", None)


@pytest.mark.parametrize("text", ["", "# only a comment\n"])
def test_empty_documents(text: str) -> None:
    assert read(text) == (None, [])


def test_a_document_of_nothing_is_a_null() -> None:
    root, problems = read("---\n")
    assert isinstance(root, YScalar) and root.value is None and problems == []


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("a: !!binary aGk=\n", "unsupported YAML tag !!binary"),
        ("a: !!python/object:os.system x\n", "unsupported YAML tag !!python/object:os.system"),
        ("a: !custom x\n", "unsupported YAML tag !custom"),
        ("<<: {b: 1}\n", "merge keys (<<) are not supported"),
        ("a: =\n", "unsupported YAML tag !!value"),
        ("a: <<\n", "unsupported YAML tag !!merge"),
        ("a: 1\na: 2\n", "duplicate key 'a' (first written at line 1)"),
        ("? [a, b]\n: 1\n", "a key must be plain text"),
        ("? {a: 1}\n: 1\n", "a key must be plain text"),
        ("a:\n  &p: Why\n", "a key is empty; name the field before the colon"),
        ("? \n: 1\n", "a key is empty"),
        ("1: x\n", "the key '1' is not text to YAML"),
        ("yes: x\n", "the key 'yes' is not text to YAML"),
        ("~: x\n", "the key '~' is not text to YAML"),
        ("a: 1\n---\nb: 2\n", "expected a single document"),
        ("a: [1, 2\n", "YAML syntax error: expected ',' or ']'"),
        ("a:\n\tb: 1\n", "indentation must use spaces, not tabs"),
        ("[" * 41 + "x" + "]" * 41, "nesting is too deep (more than 40 levels)"),
        ("- " * 45 + "x\n", "nesting is too deep"),
        ("[" * 100_000, "nesting is too deep"),  # beyond libyaml's own limit
        ("{a: " * 2_000, "nesting is too deep"),
        ("q: &a [*a]\n", "aliases expand to nesting deeper than 40 levels"),
        ('a: &a ["x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\n'
         "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\n"
         "e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: [*e,*e,*e]\n",
         "aliases expand to more than 50,000 values"),
    ],
)  # fmt: skip
def test_unusual_texts_are_problems(text: str, message: str) -> None:
    _, problems = read(text)
    assert any(message in problem for problem in problems), problems


_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**9), max_value=10**9),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(alphabet="ab :-#'\"\n\\ıİ01.e+_~", max_size=8),
    st.sampled_from(["yes", "No", "~", "0x1F", "0o17", "1_000", "+12", "1:20", ".inf", "01"]),
)
_DOCUMENTS = st.recursive(
    _SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(alphabet="abxy:-# 01", max_size=5), inner, max_size=4)
    ),
    max_leaves=25,
)


@settings(max_examples=200, deadline=None)
@given(
    document=_DOCUMENTS,
    flow=st.sampled_from([None, True, False]),
    style=st.sampled_from([None, "'", '"']),
)
def test_dumped_documents_read_back(document: Any, flow: bool | None, style: str | None) -> None:
    text = yaml.safe_dump(
        document, default_flow_style=flow, default_style=style, allow_unicode=True
    )
    root, problems = read(text)
    assert problems == []
    assert same(plain(root), safe_load(text))


_VALID = (ROOT / "tests" / "banks" / "valid" / "everything.yml").read_text(encoding="utf-8")
_EDIT_CHARS = ":-[]{}&*!|>'\"#%@`,?\n <$\\ı0123456789abxyz"


@settings(max_examples=200, deadline=None)
@given(
    edits=st.lists(
        st.tuples(
            st.integers(min_value=0, max_value=len(_VALID)),
            st.integers(min_value=0, max_value=3),
            st.text(alphabet=_EDIT_CHARS, max_size=3),
        ),
        max_size=4,
    )
)
def test_edited_banks_give_nodes_or_problems(edits: list[tuple[int, int, str]]) -> None:
    """Whatever an edit does to a bank, the reader answers: the safe loader's values when it
    finds no problem, problems with positions otherwise."""
    text = _VALID
    for at, cut, insert in edits:
        text = text[:at] + insert + text[at + cut :]
    root, problems = yamlsource.parse(text, "bank.yml")
    if problems:
        assert all(p.line is not None and p.line >= 1 for p in problems)
    else:
        assert same(plain(root), safe_load(text))


@pytest.mark.parametrize(
    ("text", "where", "words"),
    [
        (
            "bank: x\nquestions:\n  - id: x-a\n    prompt: Note: this breaks\n",
            4,
            ["mapping values are not allowed", "colon followed by a space", 'quotes: "..."'],
        ),
        (
            "bank: y\nquestions:\n  - id: y-a\n    type: choice\n   prompt: off by one\n",
            5,
            ["expected <block end>", "Probably the indentation: line 5", "(see line 3)"],
        ),
    ],
    ids=["unquoted-colon", "indentation"],
)
def test_yaml_errors_say_in_plain_words_what_is_probably_wrong(
    text: str, where: int, words: list[str]
) -> None:
    """PyYAML's words stay (with the position); a plain sentence says what they mean."""
    _, problems = yamlsource.parse(text, "bank.yml")
    assert len(problems) == 1
    assert problems[0].line == where, problems[0]
    for word in words:
        assert word in problems[0].message, problems[0].message
