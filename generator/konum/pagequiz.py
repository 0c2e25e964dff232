"""The quizzes of a page, checked against what konum writes before ``konum quiz`` uses them.

A page's quiz is read as quiz.js reads it: the quiz element (``data-konum-quiz``, with its
``data-draw`` and ``data-attempts``), each question element (``data-question-id``) with its
checker's JSON (``script.konum-data``), the ``later`` map (``script.konum-later``, sealed
under the question's ``seal``) and the form's controls. A page can be anything, so each of
these is checked here first: JSON objects where objects belong, whole numbers in their
ranges (:mod:`konum.limits`, as the bank and the quiz block accept them), texts where texts
belong, a form with controls, the later HTML within :data:`konum.limits.PAGE_DEPTH`. What
each type keeps in its data beyond these is the type's grader's to read
(:meth:`konum.types.Question.grade`). A problem is one :class:`konum.errors.KonumError`
line: the page, the line of the element and the question's id.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from konum import limits
from konum.errors import KonumError
from konum.problems import printable
from konum.seal import unseal
from konum.types import TYPES, Question
from konum.webpage import Node, parse

#: Most characters of a whole number read from a page or an answer line.
DIGITS = 6


@dataclass
class PageQuestion:
    """A question of a page, its data checked: its element, id, checker's data, the
    ``later`` texts (unsealed) and the attempts it allows (0: no limit)."""

    node: Node
    qid: str
    data: dict[str, Any]
    later: dict[str, str]
    attempts: int


@dataclass
class PageQuiz:
    """A quiz of a page: its element, title, how many questions it draws (0: all) and its
    questions."""

    node: Node
    title: str
    draw: int
    questions: list[PageQuestion]


def whole(text: str) -> int | None:
    """``text`` as a whole number of at most :data:`DIGITS` digits, or None."""
    text = text.strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) <= DIGITS else None


def controls_of(form: Node) -> list[Node]:
    """The form's controls in page order, as quiz.js finds them, or its items to order."""
    items = [n for n in form.elements() if "data-item" in n.attrs]
    return items or [n for n in form.elements() if n.tag in ("input", "select", "textarea")]


def _shown(value: object) -> str:
    text = value if isinstance(value, str) else json.dumps(value)[:60]
    return repr(printable(text[:60]))


class _Place:
    """Where a page's problem is: its file, an element's line, a question's id."""

    def __init__(self, source: str, node: Node, qid: str | None = None) -> None:
        self.where = f"{printable(source)}:{node.line}:"
        self.where += f" question {printable(qid)}:" if qid is not None else ""

    def error(self, message: str) -> KonumError:
        return KonumError(f"{self.where} {message}")


def _attribute(node: Node, name: str, high: int, place: _Place) -> int:
    value = node.attrs.get(name, "")
    number = whole(value) if value.strip() else 0
    if number is None or number > high:
        raise place.error(
            f"{name} should be a whole number from 0 to {high}, found {_shown(value)}"
        )
    return number


def _json(text: str | None, what: str, place: _Place) -> dict[str, Any]:
    """``text`` read as a JSON object (none: an empty one)."""
    if text is None:
        return {}
    try:
        value = json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError) as exc:
        raise place.error(f"its {what} is not JSON ({printable(str(exc))[:80]})") from None
    if not isinstance(value, dict):
        raise place.error(f"its {what} should be a JSON object, found {_shown(value)}")
    return value


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not a number JSON allows")


def _within(value: object, low: float, high: float) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and low <= value <= high


def _number(data: dict[str, Any], key: str, low: float, high: float, place: _Place) -> None:
    value = data.get(key)
    if value is not None and not _within(value, low, high):
        raise place.error(
            f"{key} should be a number from {low:g} to {high:g}, found {_shown(value)}"
        )


def _data(node: Node, place: _Place, types: Mapping[str, type[Question]]) -> dict[str, Any]:
    script = node.find(lambda n: n.tag == "script" and "konum-data" in n.classes())
    if script is None:
        raise place.error("the question has no quiz data (script.konum-data)")
    data = _json(script.text(), "quiz data", place)
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in types:
        plugin = " (a plugin's type? run where its site's mkdocs.yml is, or name it with -f)"
        raise place.error(f"unknown question type {_shown(kind)}{plugin}")
    if not isinstance(data.get("salt"), str):
        raise place.error(f"salt should be a text, found {_shown(data.get('salt'))}")
    _number(data, "worth", 0, limits.MAX_POINTS, place)
    _number(data, "attempts", 0, limits.ATTEMPTS[1], place)
    if isinstance(data.get("attempts"), float) and not data["attempts"].is_integer():
        raise place.error(f"attempts should be a whole number, found {_shown(data['attempts'])}")
    shares = data.get("hint_shares") or []
    if not isinstance(shares, list) or not all(_within(s, 0, 1) for s in shares):
        raise place.error(
            f"hint_shares should be a list of shares (0 to 1), found {_shown(shares)}"
        )
    variants = data.get("variants")
    if variants is not None and (
        not isinstance(variants, list) or not 1 <= len(variants) <= limits.VARIANTS[1]
    ):
        count = limits.VARIANTS[1]
        raise place.error(f"variants should be a list of 1 to {count}, found {_shown(variants)}")
    return data


def _later(node: Node, data: dict[str, Any], place: _Place) -> dict[str, str]:
    script = node.find(lambda n: n.tag == "script" and "konum-later" in n.classes())
    later = _json(script.text() if script is not None else None, "later data", place)
    if "sealed" in later:
        sealed, seal = later.pop("sealed"), data.get("seal")
        if not isinstance(sealed, str) or not isinstance(seal, str):
            raise place.error("its sealed data needs a text and the data's seal")
        later.update(_json(unseal(seal, sealed), "sealed data", place))
    for key, value in later.items():
        if not isinstance(value, str):
            raise place.error(
                f"its later text {_shown(key)} should be a text, found {_shown(value)}"
            )
        try:
            form = parse(value)
        except KonumError as exc:
            raise place.error(f"its later text {_shown(key)}: {exc}") from None
        if key.startswith("variant-"):
            _form(form, place)
    return later


def _form(form: Node, place: _Place) -> None:
    """A form has controls for a grader to read, and its items to order are numbered."""
    found = controls_of(form)
    if not found:
        raise place.error("the question has no answer controls (inputs, options or items)")
    for item in found:
        if "data-item" in item.attrs and whole(item.attrs["data-item"]) is None:
            raise place.error(
                f"data-item should be a whole number, found {_shown(item.attrs['data-item'])}"
            )


def read_quizzes(
    tree: Node, source: str, types: Mapping[str, type[Question]] = TYPES
) -> list[PageQuiz]:
    """Every konum quiz of the page ``tree`` (read from ``source``), checked; ``types``: the
    question types it may hold (:func:`konum.types.site_types`; default the built-in ones).

    Raises:
        KonumError: the page has no konum quiz, or a quiz or question is not as konum
            writes it (one line: the page, the element's line, the question).
    """
    quizzes = []
    for element in (n for n in tree.elements() if "data-konum-quiz" in n.attrs):
        place = _Place(source, element)
        draw = _attribute(element, "data-draw", limits.MAX_DRAW, place)
        attempts = _attribute(element, "data-attempts", limits.ATTEMPTS[1], place)
        title = element.find(lambda n: "konum-quiz-title" in n.classes())
        questions = []
        for node in element.children:
            if not isinstance(node, Node) or "data-question-id" not in node.attrs:
                continue
            qid = node.attrs["data-question-id"]
            place = _Place(source, node, qid)
            data = _data(node, place, types)
            later = _later(node, data, place)
            first = node.find(lambda n: n.attrs.get("data-variant") == "0")
            _form(first or node, place)
            limit = int(data.get("attempts") or attempts or 0)
            questions.append(PageQuestion(node, qid, data, later, limit))
        text = re.sub(r"\s+", " ", title.text()).strip() if title is not None else ""
        quizzes.append(PageQuiz(element, text, draw, questions))
    if not quizzes:
        raise KonumError(f"{printable(source)}: no konum quiz in this page")
    return quizzes
