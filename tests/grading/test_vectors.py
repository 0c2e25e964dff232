"""One grading truth: the shared vectors (``vectors.json``, made by ``vectors.py`` from the
course's banks and the hotspot example's) run against the Python graders, which ``konum quiz``
uses, and through Node against quiz.js's type parts, which the page uses, a plugin's type
(the hotspot example's) as the built-in ones. Both must give each case's credit share,
whether it is an attempt, and the feedback's catalogue key."""

from __future__ import annotations

import json
import shutil
import subprocess
from typing import Any

import pytest

from konum.types import TYPES, Check, site_types
from tests.grading.vectors import PLUGIN, REPO, VECTORS, build

QUIZ_JS = REPO / "templates" / "assets" / "quiz.js"
#: The built-in types' front-end parts, which define themselves through quiz.js, then the
#: plugin's (its class's ``SCRIPT``).
PARTS_JS = [
    *sorted((REPO / "templates" / "assets" / "types").glob("*.js")),
    *(kind.SCRIPT for kind in PLUGIN.types.values()),
]
#: Every type the vectors cover: the built-in ones and the plugin's.
KINDS = site_types(PLUGIN)
RUNNER = VECTORS.with_name("graders.js")


def _vectors() -> list[dict[str, Any]]:
    return json.loads(VECTORS.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def _key(key: str, **fields: Any) -> str:
    return key


def test_the_vectors_cover_every_type_and_are_current() -> None:
    vectors = _vectors()
    forms = {
        c["spec"]["variants"][0]["form"] if c["type"] == "computed" else c["type"] for c in vectors
    }
    assert {c["type"] for c in vectors} | forms >= set(KINDS) > set(TYPES)
    assert {c["retry"] for c in vectors} == {True, False}
    assert any(0 < c["share"] < 1 for c in vectors)  # partial credit
    assert vectors == build(), "python -m tests.grading.vectors"


def test_the_python_graders_give_every_vectors_result() -> None:
    wrong = []
    for case in _vectors():
        check = Check(
            tuple(case["answer"]), case["salt"], _key, case["language"], case["variant"],
            frozenset(case["noted"]),
        )  # fmt: skip
        graded = KINDS[case["type"]].grade(case["spec"], check)
        got = (graded.message, graded.retry, round(graded.share, 9))
        if got != (case["key"], case["retry"], round(case["share"], 9)):
            wrong.append((case["id"], got))
    assert wrong == []


def test_the_pages_graders_give_every_vectors_result() -> None:
    node = shutil.which("node")
    if node is None:
        pytest.fail("the JavaScript graders run in Node.js: install Node.js")
    run = subprocess.run(
        [node, str(RUNNER), str(VECTORS), str(QUIZ_JS), *map(str, PARTS_JS)],
        capture_output=True, text=True, check=True, timeout=120,
    )  # fmt: skip
    wrong = []
    for case, got in zip(_vectors(), json.loads(run.stdout), strict=True):
        mine = (got["key"], got["retry"], round(got["share"], 9))
        if mine != (case["key"], case["retry"], round(case["share"], 9)):
            wrong.append((case["id"], mine))
    assert wrong == []
