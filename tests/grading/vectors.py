"""The shared grading vectors: cases of (type, the question's page data, an answer, its salt,
the expected credit share, whether it is no attempt yet, and the feedback's catalogue key),
made from the course's real banks with the project's own functions, for every type, and from
the hotspot example's bank (``examples/hotspot``) with its plugin, loaded as its site loads it,
so that a plugin type's Python grader and its front-end part answer to the same cases.

Each question of ``content/banks`` is drawn (``tests.helpers.make_concrete``), rendered as a
page renders it (``konum.render.render_quiz``) and read back as the browser reads it
(``tests.sealed``); its answers are built from what the page can check (the hashed options,
rows and places, the sealed interval and output) or from the bank (a fill blank's answer), and
what each should earn follows from the scoring rules on the authoring page: right earns all,
a wrong single choice or number nothing, a partial answer its share, nothing entered or a
number written the other way is no attempt. ``test_vectors.py`` runs them against the Python
graders (``Question.grade``, used by ``konum quiz``) and, through Node, against quiz.js's type
parts; ``python -m tests.grading.vectors`` writes ``vectors.json`` again.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from konum import seal
from konum.plugins import Plugins, load_plugins
from konum.render import render_quiz
from konum.types import Bank, Draw, FillQuestion, Question
from konum.types.fill import regex_example
from tests.helpers import PE, load_banks
from tests.sealed import interval, question_scripts, right_options

REPO = Path(__file__).resolve().parents[2]
VECTORS = Path(__file__).with_name("vectors.json")
EXAMPLE = REPO / "examples" / "hotspot"
#: The hotspot example's plugin, as its ``mkdocs.yml`` names it: a type no engine file names.
PLUGIN = load_plugins((str(EXAMPLE / "hotspot.py"),), EXAMPLE)


def _case(q: Question, name: str, data: dict[str, Any], variant: int, values: list[Any],
          share: float, key: str, retry: bool = False) -> dict[str, Any]:  # fmt: skip
    return {
        "id": f"{q.id}/{variant}/{name}", "type": q.type, "spec": data, "variant": variant,
        "salt": data["salt"], "noted": [], "language": "en", "answer": values,
        "share": share, "retry": retry, "key": key,
    }  # fmt: skip


def _choice(spec: dict[str, Any], salt: str) -> list[tuple[str, list[Any], float, str, bool]]:
    right = right_options(spec, salt)
    n, rights = len(right), sum(right)
    wrong = [i for i, r in enumerate(right) if not r]
    cases = [("right", list(right), 1.0, "quiz.correct", False)]
    cases.append(("empty", [False] * n, 0.0, "quiz.choose_first", True))
    if wrong:
        one = [i == wrong[0] for i in range(n)]
        if spec["multiple"]:
            cases.append(("wrong", one, 0.0, "quiz.wrong_parts", False))
        else:
            cases.append(("wrong", one, 0.0, "quiz.wrong_try", False))
    if spec["multiple"] and rights > 1:
        first = right.index(True)
        cases.append(
            ("partly", [i == first for i in range(n)], 1 / rights, "quiz.wrong_parts", False)
        )
    return cases


def _numeric(spec: dict[str, Any], salt: str) -> list[tuple[str, list[Any], float, str, bool]]:
    low, high = interval(spec, salt)
    middle = (low + high) / 2
    text = repr(middle)
    cases = [
        ("right", [text], 1.0, "quiz.correct", False),
        ("high", [repr(high + abs(high) + 1)], 0.0, "quiz.too_high", False),
        ("low", [repr(low - abs(low) - 1)], 0.0, "quiz.too_low", False),
        ("empty", [""], 0.0, "quiz.number_first", True),
        ("not-a-number", ["abc"], 0.0, "quiz.number_bad", True),
        ("minus-sign", [text.replace("-", "\u2212")], 1.0, "quiz.correct", False),
    ]
    if "." in text and "e" not in text and abs(middle) < 1000 and len(text.split(".")[1]) != 3:
        cases.append(("decimal-comma", [text.replace(".", ",")], 0.0, "quiz.number_ask", True))
    return cases


def _fill(q: FillQuestion) -> list[tuple[str, list[Any], float, str, bool]]:
    right = [
        b.answers[0] if b.answers else regex_example(b.regex or "", b.case_sensitive)
        for b in q.blanks
    ]
    if any(r is None for r in right):
        return []
    n = len(right)
    upper = [
        r if b.case_sensitive else str(r).upper() for r, b in zip(right, q.blanks, strict=True)
    ]
    cases = [
        ("right", list(right), 1.0, "quiz.correct", False),
        ("empty", [""] * n, 0.0, "quiz.fill_first", True),
        ("upper", upper, 1.0, "quiz.correct", False),
    ]
    if n > 1:
        cases.append(("partly", ["@@", *right[1:]], (n - 1) / n, "quiz.blanks_wrong", False))
    return cases


def _found(salt: str, tag: str, place: int, target: str, choices: range) -> int:
    return next(k for k in choices if seal.answer_hash(salt, tag, place, k) == target)


def _matching(spec: dict[str, Any], salt: str) -> list[tuple[str, list[Any], float, str, bool]]:
    rows = spec["rows"]
    right = [str(_found(salt, "m", i, h, range(50))) for i, h in enumerate(rows)]
    n = len(rows)
    cases = [
        ("right", right, 1.0, "quiz.match_all", False),
        ("empty", [""] * n, 0.0, "quiz.match_first", True),
        ("partly", [right[0]] + [""] * (n - 1), 1 / n, "quiz.match_some", False),
    ]
    return cases


def _ordering(spec: dict[str, Any], salt: str) -> list[tuple[str, list[Any], float, str, bool]]:
    places = spec["positions"]
    n = len(places)
    right = [_found(salt, "p", p, h, range(n)) for p, h in enumerate(places)]
    swapped = [right[1], right[0], *right[2:]]
    cases = [("right", right, 1.0, "quiz.order_all", False)]
    if right != list(range(n)):
        cases.append(("start", list(range(n)), 0.0, "quiz.order_first", True))
    if swapped != list(range(n)):
        cases.append(("partly", swapped, (n - 2) / n, "quiz.order_some", False))
    return cases


def _output(spec: dict[str, Any], salt: str) -> list[tuple[str, list[Any], float, str, bool]]:
    expected = seal.unseal(salt, spec["expected"])
    lines = expected.splitlines()
    return [
        ("right", [expected], 1.0, "quiz.output_right", False),
        ("spaced", ["\n" + "\n".join("  " + line for line in lines) + "\n\n"], 1.0,
         "quiz.output_right", False),
        ("empty", [""], 0.0, "quiz.output_empty", True),
        ("extra", [expected + "\nmore"], 0.0, "quiz.output_extra", False),
    ]  # fmt: skip


def _hotspot(spec: dict[str, Any], salt: str) -> list[tuple[str, list[Any], float, str, bool]]:
    count = spec["count"]
    right = next(i for i in range(count) if seal.answer_hash(salt, "r", i) == spec["right"])
    wrong = (right + 1) % count
    return [
        ("right", [i == right for i in range(count)], 1.0, "quiz.correct", False),
        ("wrong", [i == wrong for i in range(count)], 0.0, "quiz.wrong_try", False),
        ("empty", [False] * count, 0.0, "quiz.choose_first", True),
    ]


def _sources() -> list[tuple[tuple[Bank, ...], Plugins]]:
    """The banks the vectors come from, each with the plugins its site loads."""
    course = load_banks(REPO / "content" / "banks", REPO, project=REPO)
    example = load_banks(EXAMPLE / "banks", EXAMPLE, project=EXAMPLE, plugins=PLUGIN)
    return [(course, PE), (example, PLUGIN)]


def build() -> list[dict[str, Any]]:
    """Every case, in bank and question order."""
    cases: list[dict[str, Any]] = []
    for bank, plugins in ((b, p) for banks, p in _sources() for b in banks):
        for q in bank.questions:
            concrete = q.concrete(Draw(1, 2, "en", plugins))
            data, later = question_scripts(render_quiz([concrete], bank.id, plugins=plugins))
            variants = data.get("variants") or [data]
            for k, spec in enumerate(variants):
                salt = f"{data['salt']}\x1f{k}" if "variants" in data else data["salt"]
                form = spec.get("form", data["type"])
                prefix = f"{k}-" if "variants" in data else ""
                noted = sorted(
                    int(key[len(prefix) + 5 :]) for key in later if key.startswith(prefix + "note-")
                )
                made = {
                    "choice": lambda s=spec, a=salt: _choice(s, a),
                    "numeric": lambda s=spec, a=salt: _numeric(s, a),
                    "matching": lambda s=spec, a=salt: _matching(s, a),
                    "ordering": lambda s=spec, a=salt: _ordering(s, a),
                    "output": lambda s=spec, a=salt: _output(s, a),
                    "fill": lambda q=q: _fill(q),  # type: ignore[arg-type]
                    "hotspot": lambda s=spec, a=salt: _hotspot(s, a),
                }[form]()
                for name, values, share, key, retry in made:
                    chose_noted = any(v is True and i in noted for i, v in enumerate(values))
                    if (
                        name == "wrong"
                        and form == "choice"
                        and not spec["multiple"]
                        and chose_noted
                    ):
                        key = "quiz.wrong_noted"
                    case = _case(q, name, dict(data), k, values, share, key, retry)
                    case["noted"] = noted
                    cases.append(case)
    return cases


def main() -> None:
    """Writes ``vectors.json`` from the banks as they are."""
    lines = [json.dumps(case, ensure_ascii=False, separators=(",", ":")) for case in build()]
    VECTORS.write_text("[\n" + ",\n".join(lines) + "\n]\n", encoding="utf-8")  # a case a line


if __name__ == "__main__":
    main()
