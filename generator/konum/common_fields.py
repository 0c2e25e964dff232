"""The fields every question has, whatever its type: its id and texts, points, hints,
tags, difficulty, attempts and figure, read through a :class:`konum.fields.Reader` (which
records each problem with its file, line, question id and field).
"""

from __future__ import annotations

from konum import limits
from konum.fields import Reader
from konum.located import describe, plain
from konum.model import FigureRef, Hint, Source
from konum.yamlsource import YMap, YScalar

#: The fields every question has.
COMMON_FIELDS = (
    "id",
    "type",
    "prompt",
    "explanation",
    "hint",
    "hints",
    "points",
    "attempts",
    "tags",
    "difficulty",
    "flashcard",
    "figure",
)
FIGURE_FIELDS = ("name", "alt", "caption", "params")
HINT_FIELDS = ("text", "cost")


def common(r: Reader, node: YMap, bank: str, *, prompt_required: bool) -> dict[str, object]:
    """The fields every question has, as keyword arguments of a question type."""
    prompt = r.text(node, "prompt", "", required=prompt_required, markdown=True)
    explanation = r.text(node, "explanation", "", required=prompt_required, markdown=True)
    return {
        "id": r.qid or "",
        "bank": bank,
        "prompt": prompt or "",
        "explanation": explanation or "",
        "source": Source(r.file, node.mark.line, node.mark.column),
        "hint": r.text(node, "hint", "", required=False, markdown=True),
        "tags": r.tags(node, ""),
        "difficulty": r.integer(node, "difficulty", "", limits.DIFFICULTY),
        "flashcard": r.boolean(node, "flashcard", "", True),
        "figure": figure_ref(r, node),
        "points": points(r, node),
        "hints": hint_list(r, node),
        "attempts": r.integer(node, "attempts", "", limits.ATTEMPTS),
    }


def points(r: Reader, node: YMap) -> float:
    """``points``: above 0 and at most :data:`konum.limits.MAX_POINTS`, 1 when absent."""
    value = node.get("points")
    if value is None:
        return 1.0
    number = r.number_where(
        value,
        "points",
        lambda v: 0 < v <= limits.MAX_POINTS,
        "out of range",
        f"a number above 0 and at most {limits.MAX_POINTS}",
    )
    return 1.0 if number is None else float(number)


def hint_list(r: Reader, node: YMap) -> tuple[Hint, ...]:
    """``hint`` (one free hint) or ``hints``: texts, or mappings of a text and its cost."""
    if "hint" in node.entries and "hints" in node.entries:
        r.problem(
            node.entries["hints"].key_mark,
            "hints",
            "give either 'hint' (one free hint) or 'hints' (a list), not both",
        )
    seq = r.sequence(node, "hints", "", required=False)
    hints: list[Hint] = []
    for i, item in enumerate(seq.items if seq is not None else ()):
        path = f"hints[{i}]"
        if isinstance(item, YScalar):
            text = r.as_text(item, path, markdown=True)
            if text is not None:
                hints.append(Hint(text))
            continue
        if not r.mapping(
            item,
            path,
            "each hint must be text or a mapping such as '- {text: ..., cost: 0.25}'",
            "text or a mapping",
        ):
            continue
        r.check_keys(item, path, HINT_FIELDS)
        text = r.text(item, "text", path, required=True, markdown=True)
        cost = 0.0
        cost_node = item.get("cost")
        if cost_node is not None:
            number = r.number_where(
                cost_node,
                f"{path}.cost",
                lambda v: 0 <= v <= 1,
                "a hint's cost is a share of the question's points",
                "a number from 0 to 1",
            )
            if number is not None:
                cost = float(number)
        if text is not None:
            hints.append(Hint(text, cost))
    r.empty(seq, "hints", "no hints listed", "at least one hint (or leave the field out)")
    return tuple(hints)


def figure_ref(r: Reader, node: YMap) -> FigureRef | None:
    """The optional ``figure``: a plugin's figure, its alt text, an optional caption and
    parameters (the check stage draws it: :mod:`konum.check`)."""
    fig = node.get("figure")
    if fig is None:
        return None
    if not r.mapping(fig, "figure", "wrong type", "a mapping with name, alt, caption and params"):
        return None
    r.check_keys(fig, "figure", FIGURE_FIELDS)
    name = r.text(fig, "name", "figure", required=True)
    alt = r.text(fig, "alt", "figure", required=True)
    caption = r.text(fig, "caption", "figure", required=False)
    params: dict[str, object] = {}
    params_node = fig.get("params")
    if isinstance(params_node, YMap):
        if r.large_numbers(params_node, "figure.params"):
            return None
        params = {key: plain(entry.value) for key, entry in params_node.entries.items()}
    elif params_node is not None:
        r.problem(
            params_node.mark,
            "figure.params",
            "wrong type",
            expected="a mapping of parameter names to values",
            found=describe(params_node),
        )
    if name is None or alt is None:
        return None
    return FigureRef(name, alt, caption, params)
