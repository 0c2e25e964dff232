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
from collections.abc import Callable, Mapping, Sequence
from typing import TypeGuard

from konum import limits
from konum.formatting import SLUG, slugify, suggest, you_mean
from konum.located import IdUse, TextUse, short
from konum.located import describe as describe  # re-exported: the types read with these
from konum.located import join as join
from konum.located import norm as norm
from konum.located import num as num
from konum.located import written as written
from konum.model import Choices, ParamConstraint, Range
from konum.problems import BankProblem
from konum.yamlsource import Mark, YMap, YNode, YScalar, YSeq

RANGE_FIELDS = ("min", "max", "step")

_NUMBER_TEXT = re.compile(r"[-+]?(?:\d[\d_]*\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


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
                found=short(value.text),
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

    def number_where(
        self, node: YNode, path: str, fits: Callable[[float], bool], message: str, expected: str
    ) -> float | None:
        """A number at ``node`` (:meth:`number`) for which ``fits`` is true; one that is not
        is reported with ``message`` and ``expected`` (found: the number as written).

        Returns:
            The number, or None when it is not one or was reported.
        """
        value = self.number(node, path)
        if value is not None and not fits(value):
            self.problem(node.mark, path, message, expected=expected, found=written(node))
            return None
        return value

    def empty(self, seq: YSeq | None, path: str, message: str, expected: str) -> bool:
        """Report the list ``seq`` (at ``path``) when it has no items, with ``message`` and
        ``expected`` (what it should hold); True when it was reported."""
        if seq is None or seq.items:
            return False
        self.problem(seq.mark, path, message, expected=expected, found="an empty list")
        return True

    def tolerance(self, node: YMap, key: str) -> float | None:
        """A tolerance at ``node[key]``: a finite number >= 0 (None: absent or reported)."""
        value_node = node.get(key)
        if value_node is None:
            return None
        return self.number_where(
            value_node,
            key,
            lambda v: math.isfinite(v) and v >= 0,
            "a tolerance must be zero or positive",
            "a finite number >= 0",
        )

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

    # --- a computed question's parameters ------------------------------------------------

    def constraint(self, node: YNode, path: str) -> ParamConstraint | None:
        """A range (``{min, max, step}``) or a list of values (or one value)."""
        if isinstance(node, YMap):
            return self._range(node, path)
        items = node.items if isinstance(node, YSeq) else [node]
        if isinstance(node, YSeq) and self.empty(
            node, path, "no values to choose from", "at least one value"
        ):
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
            value = self.number_where(
                value_node, f"{path}.{key}", math.isfinite, "not a finite number", "a finite number"
            )
            if value is not None:
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
