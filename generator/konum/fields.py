"""Reading a bank's located YAML nodes field by field: the typed getters every question type's
``read`` uses, and where a problem inside a value was written.

:class:`Reader` walks one file's nodes, collecting every problem it finds (it never stops at
the first) and returning typed values for whatever is valid. Each getter says what it
expected and what it found, in the manner of MkDocs' config options. The Markdown texts it
reads are listed in :attr:`Reader.texts`, with their nodes, for the check stage
(:mod:`konum.check`), which reports what is wrong inside them at the line where it is.

Conventions: problems inside a question whose id is valid carry ``question_id`` and a field
path relative to the question (``options[1].text``); elsewhere the path starts at the top of
the file (``questions[3].id``). List indices count from 0.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TypeGuard

from konum import limits
from konum.formatting import SLUG, slugify, suggest, you_mean
from konum.model import Choices, FigureRef, Hint, ParamConstraint, Range, Source
from konum.problems import BankProblem
from konum.yamlsource import Mark, YMap, YNode, YScalar, YSeq

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
RANGE_FIELDS = ("min", "max", "step")

_NUMBER_TEXT = re.compile(r"[-+]?(?:\d[\d_]*\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def describe(node: YNode | None) -> str:
    """How a value looks to an author, for "found ..." messages."""
    if node is None:
        return "nothing"
    if isinstance(node, YMap):
        return "a mapping (key: value lines)"
    if isinstance(node, YSeq):
        return "a list"
    value = node.value
    if value is None:
        return "nothing (an empty value)"
    if isinstance(value, bool):
        return f"{node.text} (a true/false value)"
    if isinstance(value, (int, float)):
        return f"the number {_short(node.text)}"
    shown = str(value) if len(str(value)) <= 40 else str(value)[:37] + "..."
    return f'text "{shown}"'


def _short(text: str) -> str:
    """A long number's text cut for a message: ``1000000000... (401 characters)``."""
    return text if len(text) <= 24 else f"{text[:12]}... ({len(text)} characters)"


def written(node: YNode) -> str:
    """A value as written, for messages."""
    return _short(node.text) if isinstance(node, YScalar) else describe(node)


def join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def num(value: float) -> str:
    """A number in a message."""
    return f"{value:.10g}"


def norm(text: str, *, case: bool = False) -> str:
    """``text`` as duplicates are compared: spaces collapsed, Unicode NFC, caseless unless
    ``case`` (so NFC "Sinüs", NFD "Sinüs" and "sinüs " are the same option)."""
    text = unicodedata.normalize("NFC", " ".join(text.split()))
    return text if case else unicodedata.normalize("NFC", text.casefold())


def plain(node: YNode) -> object:
    """A YAML node as plain Python data (figure parameters)."""
    if isinstance(node, YScalar):
        return node.value
    if isinstance(node, YSeq):
        return [plain(item) for item in node.items]
    return {key: plain(entry.value) for key, entry in node.entries.items()}


@dataclass(frozen=True)
class IdUse:
    """Where an id was defined (for duplicate reports within and across banks)."""

    id: str
    file: str
    mark: Mark

    def where(self) -> str:
        return f"{self.file}:{self.mark.line}:{self.mark.column}"


@dataclass(frozen=True)
class TextUse:
    """A Markdown text as it was read: the question (or flashcard) it belongs to, its field
    path, the text and the scalar it was written as."""

    qid: str | None
    path: str
    text: str
    node: YScalar


@dataclass(frozen=True)
class Written:
    """The Markdown texts one file holds (a bank, or a translation): the file, its lines and
    each text with its node, for the check stage to look into and place what it finds."""

    file: str
    lines: tuple[str, ...]
    texts: tuple[TextUse, ...]


# --- where a place inside a value was written ---------------------------------------------------


def place(lines: Sequence[str], node: YScalar, line: int, offset: int, text: str) -> Mark:
    """The file position of line ``line`` (1-based), character ``offset`` (0-based) of the text
    ``text`` written as ``node``: its own line in a literal block, its own column on a
    one-line plain or quoted scalar, the value's start otherwise."""
    if node.style == "|":
        number = node.mark.line + line
        source = lines[number - 1] if number - 1 < len(lines) else ""
        return Mark(number, len(source) - len(source.lstrip(" ")) + offset + 1)
    if line == 1 and node.style in (None, '"', "'") and "\n" not in text:
        return Mark(node.mark.line, node.mark.column + offset + (1 if node.style else 0))
    return node.mark


def walk(node: YNode, path: str) -> tuple[YNode, bool]:
    """The deepest node that ``path`` (``params.d``, ``options[1].text``) reaches, and whether
    it reached all of it."""
    current: YNode = node
    for part in re.findall(r"[^.\[\]]+|\[\d+\]", path):
        nxt: YNode | None = None
        if part.startswith("[") and isinstance(current, YSeq):
            index = int(part[1:-1])
            nxt = current.items[index] if index < len(current.items) else None
        elif isinstance(current, YMap):
            nxt = current.get(part)
        if nxt is None:
            return current, False
        current = nxt
    return current, True


class Reader:
    """Reads one bank file's nodes; see :attr:`problems`, :attr:`ids` and :attr:`texts`.

    Args:
        file: the file name used in problems (as the user gave it).
        text: the decoded file text (to place problems inside block scalars).
    """

    def __init__(self, file: str, text: str = "") -> None:
        self.file = file
        self.lines = text.split("\n")
        self.problems: list[BankProblem] = []
        self.ids: list[IdUse] = []
        self.texts: list[TextUse] = []
        self.qid: str | None = None
        self.prefix = ""
        #: (mapping, key) for each misspelt key whose likely meaning is ``key``: that key is
        #: then not reported missing too (:meth:`meant`).
        self.misspelt: set[tuple[int, str]] = set()

    # --- reporting ------------------------------------------------------------------------

    def mapping(
        self, node: YNode, path: str, message: str, expected: str = "a mapping"
    ) -> TypeGuard[YMap]:
        """Whether ``node`` is a mapping; when not, ``message`` is its problem."""
        if isinstance(node, YMap):
            return True
        self.problem(node.mark, path, message, expected=expected, found=describe(node))
        return False

    def problem(
        self,
        mark: Mark,
        path: str,
        message: str,
        expected: str | None = None,
        found: str | None = None,
    ) -> None:
        if expected is not None and found is not None:
            message = f"{message}: expected {expected}, found {found}"
        field = path if self.qid else (self.prefix + path if path else self.prefix.rstrip("."))
        self.problems.append(
            BankProblem(
                self.file,
                mark.line,
                mark.column,
                message,
                question_id=self.qid,
                field=field or None,
                expected=expected,
                found=found,
            )
        )

    def check_keys(
        self, node: YMap, path: str, allowed: Sequence[str], elsewhere: Mapping[str, str] = {}
    ) -> None:
        """Report every key of ``node`` not in ``allowed`` (``elsewhere``: why a key that
        another kind of thing has is not this one's)."""
        for key, entry in node.entries.items():
            if key in allowed:
                continue
            where = join(path, key)
            if key in elsewhere:
                self.problem(
                    entry.key_mark, where, f"'{key}' is not a field here; {elsewhere[key]}"
                )
                continue
            close = suggest(key, allowed)
            if close is not None:
                self.misspelt.add((id(node), close))
            self.problem(
                entry.key_mark,
                where,
                f"unknown key '{key}'{you_mean(close)}",
                expected="one of " + ", ".join(allowed),
                found=f"'{key}'",
            )

    def meant(self, node: YMap, key: str) -> bool:
        """Whether a key of ``node`` reported unknown is most likely ``key`` misspelt: what
        depends on ``key`` then goes unreported, the misspelling being the one problem."""
        return (id(node), key) in self.misspelt

    def missing(self, node: YMap, path: str, key: str, expected: str) -> None:
        if self.meant(node, key):
            return
        self.problem(
            node.mark,
            join(path, key),
            f"missing required field '{key}'",
            expected=expected,
            found="nothing",
        )

    def count(self) -> int:
        """How many problems so far: a step that added none succeeded."""
        return len(self.problems)

    # --- typed getters (None means absent or already reported) ---------------------------

    def text(
        self, node: YMap, key: str, path: str, *, required: bool, markdown: bool = False
    ) -> str | None:
        """Text at ``node[key]``; with ``markdown`` it is a Markdown text the check stage
        looks into."""
        value = node.get(key)
        if value is None:
            if required:
                self.missing(node, path, key, "text")
            return None
        return self.as_text(value, join(path, key), required=required, markdown=markdown)

    def as_text(
        self, node: YNode, path: str, *, required: bool = True, markdown: bool = False
    ) -> str | None:
        if not isinstance(node, YScalar):
            self.problem(node.mark, path, "wrong type", expected="text", found=describe(node))
            return None
        if node.value is None or (isinstance(node.value, str) and not node.value.strip()):
            if required:
                self.problem(node.mark, path, "is empty", expected="text", found="nothing")
            return None
        # Numbers and true/false are taken as written: `text: No` means the word "No".
        result = node.value if isinstance(node.value, str) else node.text
        if markdown:
            full = path if self.qid else self.prefix + path
            self.texts.append(TextUse(self.qid, full, result, node))
        return result

    def boolean(self, node: YMap, key: str, path: str, default: bool) -> bool:
        value = node.get(key)
        if value is None:
            return default
        if isinstance(value, YScalar) and isinstance(value.value, bool):
            return value.value
        self.problem(
            value.mark,
            join(path, key),
            "wrong type",
            expected="true or false",
            found=describe(value),
        )
        return default

    def integer(self, node: YMap, key: str, path: str, bounds: tuple[int, int]) -> int | None:
        value = node.get(key)
        if value is None:
            return None
        low, high = bounds
        wanted = f"a whole number from {low} to {high}"
        if (
            not isinstance(value, YScalar)
            or not isinstance(value.value, int)
            or isinstance(value.value, bool)
        ):
            self.problem(
                value.mark, join(path, key), "wrong type", expected=wanted, found=describe(value)
            )
            return None
        if not low <= value.value <= high:
            self.problem(
                value.mark,
                join(path, key),
                "out of range",
                expected=wanted,
                found=_short(value.text),
            )
            return None
        return value.value

    def number(self, node: YNode, path: str) -> float | None:
        """A YAML number; a plain (unquoted) ``1e-3`` counts too (YAML 1.1 reads it as text).

        Infinities and NaN are returned (callers say why they do not fit); numbers larger
        in size than :data:`konum.limits.MAX_NUMBER` are reported here.
        """
        value: float | None = None
        if isinstance(node, YScalar):
            raw = node.value
            if isinstance(raw, (int, float)) and not isinstance(raw, bool):
                value = raw
            elif (
                isinstance(raw, str) and node.style is None and _NUMBER_TEXT.fullmatch(raw.strip())
            ):
                value = float(raw.replace("_", ""))
        if value is None:
            hint = " (remove the quotes)" if isinstance(node, YScalar) and node.style else ""
            self.problem(
                node.mark, path, f"wrong type{hint}", expected="a number", found=describe(node)
            )
            return None
        return None if self.too_large(node, path, value) else value

    def tolerance(self, node: YMap, key: str) -> float | None:
        """A tolerance at ``node[key]``: a finite number >= 0 (None: absent or reported)."""
        value_node = node.get(key)
        if value_node is None:
            return None
        value = self.number(value_node, key)
        if value is not None and (not math.isfinite(value) or value < 0):
            self.problem(
                value_node.mark,
                key,
                "a tolerance must be zero or positive",
                expected="a finite number >= 0",
                found=written(value_node),
            )
            return None
        return value

    def too_large(self, node: YNode, path: str, value: object) -> bool:
        """Report ``value`` when it is a number larger in size than :data:`limits.MAX_NUMBER`.

        Compared as written (a Python int is exact at any size), so a 400-digit integer is a
        message here rather than an ``OverflowError`` wherever it would meet a float.
        """
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return False
        if isinstance(value, float) and not math.isfinite(value):
            return False
        if abs(value) <= limits.MAX_NUMBER:
            return False
        bound = f"{float(limits.MAX_NUMBER):g}".replace("e+", "e")
        self.problem(
            node.mark,
            path,
            "the number is too large",
            expected=f"a number from -{bound} to {bound}",
            found=describe(node),
        )
        return True

    def large_numbers(self, node: YNode, path: str) -> bool:
        """Report every number inside ``node`` that is too large; True when there was one."""
        if isinstance(node, YScalar):
            return self.too_large(node, path, node.value)
        if isinstance(node, YSeq):
            children = [(f"{path}[{i}]", item) for i, item in enumerate(node.items)]
        else:
            children = [(join(path, key), entry.value) for key, entry in node.entries.items()]
        found = False
        for where, child in children:  # not any(): report every one
            found = self.large_numbers(child, where) or found
        return found

    def sequence(self, node: YMap, key: str, path: str, *, required: bool) -> YSeq | None:
        value = node.get(key)
        if value is None:
            if required:
                self.missing(node, path, key, "a list")
            return None
        if not isinstance(value, YSeq):
            self.problem(
                value.mark, join(path, key), "wrong type", expected="a list", found=describe(value)
            )
            return None
        return value

    def mappings(self, seq: YSeq | None, key: str, says: str) -> list[tuple[int, str, YMap]]:
        """The items of the list ``seq`` (``node[key]``) that are mappings, as ``(index,
        path, item)``; each other item is a problem saying ``says``."""
        found = []
        for i, item in enumerate(seq.items if seq is not None else ()):
            path = f"{key}[{i}]"
            if isinstance(item, YMap):
                found.append((i, path, item))
            else:
                self.problem(item.mark, path, says, expected="a mapping", found=describe(item))
        return found

    def text_list(
        self, node: YMap, key: str, path: str, *, required: bool, markdown: bool = False
    ) -> tuple[str, ...] | None:
        seq = self.sequence(node, key, path, required=required)
        if seq is None:
            return None
        items = [
            self.as_text(item, f"{join(path, key)}[{i}]", markdown=markdown)
            for i, item in enumerate(seq.items)
        ]
        return tuple(item for item in items if item is not None)

    def unique(
        self,
        seq: YSeq,
        path: str,
        texts: Sequence[str],
        what: str,
        name: str,
        *,
        case: bool = False,
        why: str = "",
    ) -> None:
        """Report each of ``texts`` (the items of ``seq``, at ``path``) equal to an earlier
        one (``name[k]`` in the message; ``why``: what the duplicate would cause)."""
        first: dict[str, int] = {}
        for j, text in enumerate(texts):
            earlier = first.setdefault(norm(text, case=case), j)
            if earlier != j:
                self.problem(
                    seq.items[j].mark,
                    f"{path}[{j}]",
                    f"duplicate {what}: the same as {name}[{earlier}] "
                    f"(line {seq.items[earlier].mark.line}){why}",
                )

    def tags(self, node: YMap, path: str) -> tuple[str, ...]:
        values = self.text_list(node, "tags", path, required=False) or ()
        seq = node.get("tags")
        for i, tag in enumerate(values):
            if any(ch.isspace() for ch in tag.strip()):
                mark = seq.items[i].mark if isinstance(seq, YSeq) else node.mark
                self.problem(
                    mark,
                    f"{join(path, 'tags')}[{i}]",
                    "a tag cannot contain spaces (flashcard apps split tags at spaces); "
                    f"write '{'-'.join(tag.split())}'",
                )
        return tuple(tag.strip() for tag in values)

    def identifier(self, node: YMap, path: str, kind: str) -> str | None:
        value = node.get("id")
        if value is None:
            self.missing(node, path, "id", "a slug such as 'sin-why-pairs'")
            return None
        ident = self.as_text(value, join(path, "id"))
        if ident is None:
            return None
        if not SLUG.fullmatch(ident):
            suggestion = slugify(ident)
            hint = f" (for example '{suggestion}')" if suggestion else ""
            self.problem(
                value.mark,
                join(path, "id"),
                f"{kind} id is not a slug{hint}",
                expected="lowercase letters a-z, digits and single hyphens",
                found=f"'{ident}'",
            )
            return None
        self.ids.append(IdUse(ident, self.file, value.mark))
        return ident

    def choice(self, node: YMap, key: str, allowed: Sequence[str], default: str, what: str) -> str:
        """One of ``allowed`` at ``node[key]`` (``default`` when absent or wrong); ``what``
        names the field in the message."""
        value = self.text(node, key, "", required=False) or default
        if value not in allowed:
            where = node.get(key)
            self.problem(
                (where or node).mark,
                key,
                f"unknown {what}",
                expected=" or ".join(allowed),
                found=f"'{value}'",
            )
            return default
        return value

    # --- the fields every question has ---------------------------------------------------

    def common(self, node: YMap, bank: str, *, prompt_required: bool) -> dict[str, object]:
        """The fields every question has, as keyword arguments of a question type."""
        prompt = self.text(node, "prompt", "", required=prompt_required, markdown=True)
        explanation = self.text(node, "explanation", "", required=prompt_required, markdown=True)
        return {
            "id": self.qid or "",
            "bank": bank,
            "prompt": prompt or "",
            "explanation": explanation or "",
            "source": Source(self.file, node.mark.line, node.mark.column),
            "hint": self.text(node, "hint", "", required=False, markdown=True),
            "tags": self.tags(node, ""),
            "difficulty": self.integer(node, "difficulty", "", limits.DIFFICULTY),
            "flashcard": self.boolean(node, "flashcard", "", True),
            "figure": self.figure_ref(node),
            "points": self.points(node),
            "hints": self.hint_list(node),
            "attempts": self.integer(node, "attempts", "", limits.ATTEMPTS),
        }

    def points(self, node: YMap) -> float:
        value = node.get("points")
        if value is None:
            return 1.0
        number = self.number(value, "points")
        if number is not None and not 0 < number <= limits.MAX_POINTS:
            self.problem(
                value.mark,
                "points",
                "out of range",
                expected=f"a number above 0 and at most {limits.MAX_POINTS}",
                found=written(value),
            )
            return 1.0
        return 1.0 if number is None else float(number)

    def hint_list(self, node: YMap) -> tuple[Hint, ...]:
        if "hint" in node.entries and "hints" in node.entries:
            self.problem(
                node.entries["hints"].key_mark,
                "hints",
                "give either 'hint' (one free hint) or 'hints' (a list), not both",
            )
        seq = self.sequence(node, "hints", "", required=False)
        hints: list[Hint] = []
        for i, item in enumerate(seq.items if seq is not None else ()):
            path = f"hints[{i}]"
            if isinstance(item, YScalar):
                text = self.as_text(item, path, markdown=True)
                if text is not None:
                    hints.append(Hint(text))
                continue
            if not self.mapping(
                item,
                path,
                "each hint must be text or a mapping such as '- {text: ..., cost: 0.25}'",
                "text or a mapping",
            ):
                continue
            self.check_keys(item, path, HINT_FIELDS)
            text = self.text(item, "text", path, required=True, markdown=True)
            cost = 0.0
            cost_node = item.get("cost")
            if cost_node is not None:
                number = self.number(cost_node, f"{path}.cost")
                if number is not None and not 0 <= number <= 1:
                    self.problem(
                        cost_node.mark,
                        f"{path}.cost",
                        "a hint's cost is a share of the question's points",
                        expected="a number from 0 to 1",
                        found=written(cost_node),
                    )
                elif number is not None:
                    cost = float(number)
            if text is not None:
                hints.append(Hint(text, cost))
        if seq is not None and not seq.items:
            self.problem(
                seq.mark,
                "hints",
                "no hints listed",
                expected="at least one hint (or leave the field out)",
                found="an empty list",
            )
        return tuple(hints)

    def figure_ref(self, node: YMap) -> FigureRef | None:
        """The optional ``figure``: a plugin's figure, its alt text, an optional caption and
        parameters (the check stage draws it: :mod:`konum.check`)."""
        fig = node.get("figure")
        if fig is None:
            return None
        if not self.mapping(
            fig, "figure", "wrong type", "a mapping with name, alt, caption and params"
        ):
            return None
        self.check_keys(fig, "figure", FIGURE_FIELDS)
        name = self.text(fig, "name", "figure", required=True)
        alt = self.text(fig, "alt", "figure", required=True)
        caption = self.text(fig, "caption", "figure", required=False)
        params: dict[str, object] = {}
        params_node = fig.get("params")
        if isinstance(params_node, YMap):
            if self.large_numbers(params_node, "figure.params"):
                return None
            params = {key: plain(entry.value) for key, entry in params_node.entries.items()}
        elif params_node is not None:
            self.problem(
                params_node.mark,
                "figure.params",
                "wrong type",
                expected="a mapping of parameter names to values",
                found=describe(params_node),
            )
        if name is None or alt is None:
            return None
        return FigureRef(name, alt, caption, params)

    # --- a computed question's parameters ------------------------------------------------

    def constraint(self, node: YNode, path: str) -> ParamConstraint | None:
        """A range (``{min, max, step}``) or a list of values (or one value)."""
        if isinstance(node, YMap):
            return self._range(node, path)
        items = node.items if isinstance(node, YSeq) else [node]
        if isinstance(node, YSeq) and not items:
            self.problem(
                node.mark,
                path,
                "no values to choose from",
                expected="at least one value",
                found="an empty list",
            )
            return None
        values: list[object] = []
        for i, item in enumerate(items):
            where = f"{path}[{i}]" if isinstance(node, YSeq) else path
            if not isinstance(item, YScalar) or item.value is None:
                self.problem(
                    item.mark,
                    where,
                    "wrong type",
                    expected="a number, true/false or text",
                    found=describe(item),
                )
                continue
            raw = item.value
            if isinstance(raw, str) and item.style is None and _NUMBER_TEXT.fullmatch(raw):
                raw = float(raw.replace("_", ""))  # YAML 1.1 reads a plain 1.5e4 as text
            if self.too_large(item, where, raw):
                continue
            values.append(raw)
        if len(values) != len(items):
            return None
        return Choices(tuple(values))

    def _range(self, node: YMap, path: str) -> Range | None:
        self.check_keys(node, path, RANGE_FIELDS)
        bounds: dict[str, float] = {}
        for key in RANGE_FIELDS:
            value_node = node.get(key)
            if value_node is None:
                if key != "step":
                    self.missing(node, path, key, "a number")
                continue
            value = self.number(value_node, f"{path}.{key}")
            if value is not None and not math.isfinite(value):
                self.problem(
                    value_node.mark,
                    f"{path}.{key}",
                    "not a finite number",
                    expected="a finite number",
                    found=written(value_node),
                )
            elif value is not None:
                bounds[key] = value
        if "step" in bounds and bounds["step"] <= 0:
            self.problem(
                node.entries["step"].value.mark,
                f"{path}.step",
                "the step must be positive",
                expected="a number > 0",
                found=num(bounds["step"]),
            )
            return None
        if "min" not in bounds or "max" not in bounds:
            return None
        if bounds["min"] > bounds["max"]:
            self.problem(
                node.mark,
                path,
                "min is larger than max",
                expected="min <= max",
                found=f"min {num(bounds['min'])}, max {num(bounds['max'])}",
            )
            return None
        return Range(bounds["min"], bounds["max"], bounds.get("step"))

    def params(self, node: YMap) -> dict[str, ParamConstraint]:
        params: dict[str, ParamConstraint] = {}
        params_node = node.get("params")
        if params_node is None:
            return params
        if not self.mapping(
            params_node, "params", "wrong type", "a mapping of parameter names to values"
        ):
            return params
        for name, entry in params_node.entries.items():
            constraint = self.constraint(entry.value, f"params.{name}")
            if constraint is not None:
                params[name] = constraint
        return params
