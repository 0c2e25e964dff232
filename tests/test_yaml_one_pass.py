"""The one-pass YAML reader gives what the full reader gives, or leaves the file to it.

``yamlsource.parse`` first reads a bank straight from libyaml's events (``_one_pass``); a
file holding anything unusual (aliases, anchors, tags, merge keys, duplicate keys, several
documents, syntax errors, limits) is declined and read the full way (``_full_parse``: the
composed node graph, checked for depth and alias expansion, then converted), which also
writes every problem message. Whatever the input, the two must agree: same nodes, marks,
values and styles whenever the one-pass reader answers, and a decline whenever the full
reader finds a problem.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from konum.banks import yamlsource

ROOT = Path(__file__).resolve().parent.parent


def _text(path: Path) -> str | None:
    text, problems = yamlsource.decode(path.read_bytes(), path.name)
    return text if not problems else None


# Every bank file of the tests and the course that decodes (a UTF-16 one is refused first).
CORPUS = [
    path
    for path in sorted((ROOT / "tests" / "banks").rglob("*.yml"))
    + sorted((ROOT / "content" / "banks").glob("*.yml"))
    if _text(path) is not None
]


def _one_pass(text: str) -> str | None:
    """The one-pass reader's nodes as text (``repr``: NaN equals NaN there), or None when
    it declines."""
    try:
        return repr(yamlsource._one_pass(text))
    except yamlsource._Unusual:
        return None


def _agree(text: str) -> bool:
    """Check one text; True when the one-pass reader answered (rather than declined)."""
    fast = _one_pass(text)
    full, problems = yamlsource._full_parse(text, "bank.yml")
    if problems:
        assert fast is None, f"answered although the full reader found {problems[0].message}"
    if fast is None:
        return False
    assert fast == repr(full)
    return True


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_bank_of_the_corpus(path: Path) -> None:
    text = _text(path)
    assert text is not None
    answered = _agree(text)
    if "broken" not in path.parts:
        assert answered, "a valid bank should not need the full reader"


@pytest.mark.parametrize(
    "text",
    [
        "a: &x 1\nb: *x\n",  # anchor and alias
        "a: !!str 1\n",  # explicit tag
        "a: !custom x\n",
        "<<: {b: 1}\n",  # merge key
        "a: =\n",  # the value tag
        "a: 1\na: 2\n",  # duplicate key
        "? [a, b]\n: 1\n",  # a key that is a list
        "? {a: 1}\n: 1\n",
        "a: 1\n---\nb: 2\n",  # two documents
        "a: [1, 2\n",  # syntax error
        "a:\n\tb: 1\n",  # tab
        "[" * 41 + "x" + "]" * 41,  # too deep, by one level
        "- " * 45 + "x\n",
        "a: <<\n",  # the merge tag as a value
    ],
)
def test_unusual_texts_are_left_to_the_full_reader(text: str) -> None:
    assert _one_pass(text) is None
    _agree(text)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "# only a comment\n",
        "---\n",
        "~\n",
        "plain\n",
        "a:\nb: ''\nc: ~\n",
        "a: yes\nb: No\nc: on\nd: 1_000\ne: 0x1F\nf: 1:20\ng: .inf\nh: -.NaN\ni: 1e3\n",
        "a: 2001-12-14\nb: 2001-12-14t21:59:43.10-05:00\n",
        "1: x\ntrue: y\nnull: z\n'quoted': w\n",
        'a: |\n  two\n  lines\nb: >\n  folded\n  text\nc: "x\\ny"\n',
        "a: {b: [1, {c: d}], e: []}\nf: {}\n",
        "- - - x\n  - y\n- z\n",
        "a: plain text\n  that continues\n",
        "ı: ğ\nİ: 'ş'\n",
        "[" * 40 + "x" + "]" * 40,  # as deep as allowed
    ],
)
def test_usual_texts_are_read_in_one_pass(text: str) -> None:
    assert _agree(text)


# Plain scalars the YAML 1.1 resolver reads as something other than text, or nearly does.
_TRICKY = [
    "yes", "No", "ON", "~", "null", "0x1F", "0o17", "0b101", "1_000", "+12", "1:20", "1e3",
    ".inf", "-.Inf", ".nan", "2001-12-14", "2001-12-14 21:59:43.10 -5", "<<", "=", "",
    "true", "False", "01", "-0", "3.", ".5",
]  # fmt: skip
_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**9), max_value=10**9),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(alphabet="ab :-#'\"\n\\ıİ01.e+_~", max_size=8),
    st.sampled_from(_TRICKY),
)
_KEYS = st.one_of(st.text(alphabet="abxy:-# 01", max_size=5), _SCALARS)
_DOCUMENTS = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_KEYS, inner, max_size=4),
    max_leaves=25,
)


@settings(max_examples=300, deadline=None)
@given(
    document=_DOCUMENTS,
    flow=st.sampled_from([None, True, False]),
    style=st.sampled_from([None, "'", '"']),
)
def test_dumped_documents_agree(document: Any, flow: bool | None, style: str | None) -> None:
    try:
        text = yaml.safe_dump(
            document, default_flow_style=flow, default_style=style, allow_unicode=True
        )
    except yaml.YAMLError:  # e.g. a mapping key that is itself unhashable: not a document
        return
    _agree(text)


_VALID = (ROOT / "tests" / "banks" / "valid" / "everything.yml").read_text(encoding="utf-8")
_EDIT_CHARS = ":-[]{}&*!|>'\"#%@`,?\n <$\\ı0123456789abxyz"


@settings(max_examples=300, deadline=None)
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
def test_edited_banks_agree(edits: list[tuple[int, int, str]]) -> None:
    text = _VALID
    for at, cut, insert in edits:
        text = text[:at] + insert + text[at + cut :]
    _agree(text)
