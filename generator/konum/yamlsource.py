"""Safe YAML reading that remembers where every value was written.

PyYAML's safe loader is still too trusting for author files: it silently keeps the last of
two equal keys, expands "billion laughs" aliases without limit, and its plain-Python output
forgets line numbers. This module composes the node graph with PyYAML's composer (over
libyaml when PyYAML has it), checks it for depth and alias expansion, and converts it into
:class:`YScalar` / :class:`YSeq` / :class:`YMap` nodes that carry 1-based line and column
marks, refusing anything but the plain YAML types (no tag is ever constructed into an
object). Every problem becomes a :class:`BankProblem`; nothing raises.

Limits (:mod:`konum.limits`' table): :data:`konum.limits.YAML_BYTES` per file,
:data:`konum.limits.YAML_DEPTH` nesting levels and :data:`konum.limits.YAML_NODES` values
after alias expansion.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import yaml
from yaml.composer import Composer
from yaml.constructor import SafeConstructor

from konum import limits
from konum.problems import BankProblem

_TAG = "tag:yaml.org,2002:"
_SCALAR_TAGS = {f"{_TAG}{name}" for name in ("str", "int", "float", "bool", "null", "timestamp")}


@dataclass(frozen=True)
class Mark:
    """A 1-based position in a file."""

    line: int
    column: int


@dataclass
class YScalar:
    """A scalar: ``value`` is str, int, float, bool or None; ``text`` is what was written.

    ``style`` is the YAML scalar style: None (plain), ``'"'``, ``"'"``, ``"|"`` or ``">"``.
    Timestamps stay text (``value`` is the written string). ``span`` is where the scalar is
    in the decoded text (start and end index), for edits that keep the rest as written.
    """

    mark: Mark
    value: object
    text: str
    style: str | None = None
    span: tuple[int, int] = field(default=(0, 0), compare=False)


@dataclass
class YSeq:
    """A sequence (list)."""

    mark: Mark
    items: list[YNode] = field(default_factory=list)


@dataclass
class YEntry:
    """A mapping entry: where the key was written, and its value."""

    key_mark: Mark
    value: YNode


@dataclass
class YMap:
    """A mapping with text keys (the key as written), in source order."""

    mark: Mark
    entries: dict[str, YEntry] = field(default_factory=dict)

    def get(self, key: str) -> YNode | None:
        entry = self.entries.get(key)
        return entry.value if entry is not None else None

    def __iter__(self) -> Iterator[str]:
        return iter(self.entries)


YNode = YScalar | YSeq | YMap


def _span(node: yaml.Node) -> tuple[int, int]:
    return (node.start_mark.index, node.end_mark.index)


def _mark(mark: Any) -> Mark:
    if mark is None:
        return Mark(1, 1)
    return Mark(mark.line + 1, mark.column + 1)


def decode(data: bytes, file: str) -> tuple[str | None, list[BankProblem]]:
    """Decode ``data`` as UTF-8 (an initial BOM is allowed), or explain why it is not."""
    if len(data) > limits.YAML_BYTES:
        return None, [
            BankProblem(
                file,
                None,
                None,
                f"file is too large: {len(data):,} bytes, the limit is {limits.YAML_BYTES:,}",
                expected=f"at most {limits.YAML_BYTES:,} bytes",
                found=f"{len(data):,} bytes",
            )
        ]
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return None, [
            BankProblem(
                file,
                None,
                None,
                "file is UTF-16, not UTF-8: save it again with the UTF-8 encoding",
                expected="UTF-8",
                found="UTF-16",
            )
        ]
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8"), []
    except UnicodeDecodeError as exc:
        before = data[: exc.start]
        line = before.count(b"\n") + 1
        column = exc.start - (before.rfind(b"\n") + 1) + 1
        byte = data[exc.start]
        return None, [
            BankProblem(
                file,
                line,
                column,
                f"file is not UTF-8: byte 0x{byte:02x} cannot be decoded (was it saved as "
                "Windows-1254 or Latin-1?); save it again with the UTF-8 encoding",
                expected="UTF-8",
                found=f"byte 0x{byte:02x}",
            )
        ]


def syntax_problem(exc: yaml.YAMLError, file: str) -> BankProblem:
    """PyYAML's error as a problem at its line and column, with a hint for the mistakes
    authors make most (an unquoted colon, an indentation)."""
    if isinstance(exc, _TooDeep):
        pos = _mark(exc.mark)
        return BankProblem(file, pos.line, pos.column, str(exc))
    if isinstance(exc, yaml.MarkedYAMLError):
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or "invalid YAML"
        if "'\\t'" in problem:
            problem = "a tab character; YAML indentation must use spaces, not tabs"
        text = f"YAML syntax error: {problem}"
        if exc.context:
            where = f" started at line {exc.context_mark.line + 1}" if exc.context_mark else ""
            text += f" ({exc.context}{where})"
        pos = _mark(mark)
        hint = _plain_hint(problem, exc.context or "", pos.line, exc.context_mark)
        return BankProblem(file, pos.line, pos.column, text + hint)
    return BankProblem(file, 1, 1, f"YAML syntax error: {exc}")


def _plain_hint(problem: str, context: str, line: int, context_mark: Any) -> str:
    """A sentence saying what PyYAML's words most probably mean, for the two an author meets
    most: a line indented differently from the ones it belongs with, and an unquoted colon."""
    if problem.startswith("mapping values are not allowed"):
        return (
            f". Probably a colon followed by a space inside an unquoted text on line {line} "
            '(put the whole text in quotes: "..."), or that line is indented deeper than '
            "the key above it"
        )
    if "expected <block end>" in context or problem.startswith("expected <block end>"):
        started = f" line {context_mark.line + 1}" if context_mark is not None else " above"
        return (
            f". Probably the indentation: line {line} is indented differently from the lines "
            f"it belongs with (see{started}); keys of one question line up under each other"
        )
    if "did not find expected key" in problem or "did not find expected '-'" in problem:
        return f". Probably the indentation of line {line}, or a missing '- ' before an item"
    return ""


#: libyaml's parser when PyYAML was built with it (fast); the pure-Python one otherwise.
_FastLoader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def check_depth(text: str, file: str) -> BankProblem | None:
    """Nesting deeper than :data:`konum.limits.YAML_DEPTH`, as a problem: the event stream walked
    (iteratively) so deep nesting never reaches the recursive composer.

    Syntax errors are left to the pure-Python composer, whose messages are the ones reported.
    """
    depth = 0
    try:
        for event in yaml.parse(text, Loader=_FastLoader):
            if isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
                depth += 1
                if depth > limits.YAML_DEPTH:
                    pos = _mark(event.start_mark)
                    return BankProblem(
                        file,
                        pos.line,
                        pos.column,
                        f"nesting is too deep (more than {limits.YAML_DEPTH} levels)",
                    )
            elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
                depth -= 1
    except yaml.YAMLError:
        pass
    return None


class _TooDeep(yaml.YAMLError):
    def __init__(self, mark: Any) -> None:
        super().__init__(f"nesting is too deep (more than {limits.YAML_DEPTH} levels)")
        self.mark = mark


class _DepthComposer(Composer):
    """PyYAML's composer, refusing collections nested deeper than
    :data:`konum.limits.YAML_DEPTH` before its recursion could exhaust the stack."""

    depth = 0

    def _nested(self, compose: Any, anchor: Any) -> Any:
        if self.depth >= limits.YAML_DEPTH:
            raise _TooDeep(self.peek_event().start_mark)  # type: ignore[attr-defined]
        self.depth += 1
        try:
            return compose(anchor)
        finally:
            self.depth -= 1

    def compose_sequence_node(self, anchor: Any) -> Any:
        return self._nested(super().compose_sequence_node, anchor)

    def compose_mapping_node(self, anchor: Any) -> Any:
        return self._nested(super().compose_mapping_node, anchor)


class _PythonLoader(_DepthComposer, yaml.SafeLoader):
    """The pure-Python safe loader, for its syntax error messages (clearer than libyaml's)."""


class _Converter:
    def __init__(self, file: str) -> None:
        self.file = file
        self.problems: list[BankProblem] = []
        self.count = 0
        self.exhausted = False
        self.constructor = SafeConstructor()
        self.here = ""

    def problem(
        self, mark: Mark, message: str, *, field: str | None = None, **kw: str | None
    ) -> None:
        self.problems.append(
            BankProblem(
                self.file, mark.line, mark.column, message, field=field or self.here or None, **kw
            )
        )

    def convert(self, node: yaml.Node, depth: int, path: str = "") -> YNode:
        """Convert ``node``; ``path`` is its field path from the top (``questions[2].prompt``)."""
        self.here = path
        mark = _mark(node.start_mark)
        self.count += 1
        if self.count > limits.YAML_NODES or depth > limits.YAML_DEPTH:
            if not self.exhausted:
                self.exhausted = True
                what = (
                    f"more than {limits.YAML_NODES:,} values"
                    if self.count > limits.YAML_NODES
                    else f"nesting deeper than {limits.YAML_DEPTH} levels"
                )
                self.problem(mark, _too_big(what, aliased=True))
            return YScalar(mark, None, "")
        if isinstance(node, yaml.ScalarNode):
            return self.scalar(node, mark)
        if isinstance(node, yaml.SequenceNode):
            self.check_tag(node, f"{_TAG}seq", mark)
            return YSeq(
                mark,
                [
                    self.convert(item, depth + 1, f"{path}[{i}]")
                    for i, item in enumerate(node.value)
                ],
            )
        assert isinstance(node, yaml.MappingNode)
        self.check_tag(node, f"{_TAG}map", mark)
        result = YMap(mark)
        for key_node, value_node in node.value:
            self.here = path
            key_mark = _mark(key_node.start_mark)
            if key_node.tag == f"{_TAG}merge":
                self.problem(key_mark, "merge keys (<<) are not supported; write the fields out")
                continue
            if not isinstance(key_node, yaml.ScalarNode) or key_node.tag not in _SCALAR_TAGS:
                self.problem(
                    key_mark,
                    "a key must be plain text",
                    expected="text",
                    found="a list, mapping or tagged value",
                )
                continue
            key = str(key_node.value)
            if key_node.tag != f"{_TAG}str":
                # YAML reads `~:`, an empty key, `1:` or `yes:` as null, a number or a bool
                self.problem(
                    key_mark,
                    f"the key '{key}' is not text to YAML; name the field, or quote it"
                    if key
                    else "a key is empty; name the field before the colon",
                    expected="a field name",
                    found=f"'{key}'" if key else "nothing",
                )
                continue
            where = f"{path}.{key}" if path else key
            value = self.convert(value_node, depth + 1, where)
            if key in result.entries:
                first = result.entries[key].key_mark
                self.problem(
                    key_mark,
                    f"duplicate key '{key}' (first written at line {first.line}); YAML would "
                    "silently keep only the last one",
                    expected="each key once",
                    found=f"'{key}' twice",
                    field=where,
                )
                continue
            result.entries[key] = YEntry(key_mark, value)
        return result

    def check_tag(self, node: yaml.Node, expected: str, mark: Mark) -> None:
        if node.tag != expected:
            self.problem(
                mark,
                f"unsupported YAML tag {_short(node.tag)}",
                expected="plain YAML",
                found=_short(node.tag),
            )

    def scalar(self, node: yaml.ScalarNode, mark: Mark) -> YScalar:
        text = str(node.value)
        tag = node.tag
        if tag not in _SCALAR_TAGS:
            self.problem(
                mark,
                f"unsupported YAML tag {_short(tag)}; only plain text, numbers, "
                "true/false, lists and mappings are allowed",
                expected="plain YAML",
                found=_short(tag),
            )
            return YScalar(mark, None, text, node.style or None, _span(node))
        value: object
        try:
            if tag == f"{_TAG}null":
                value = None
            elif tag == f"{_TAG}bool":
                value = self.constructor.construct_yaml_bool(node)
            elif tag == f"{_TAG}int":
                value = self.constructor.construct_yaml_int(node)
            elif tag == f"{_TAG}float":
                value = self.constructor.construct_yaml_float(node)
            else:
                value = text
        except (ValueError, KeyError, yaml.YAMLError):
            self.problem(
                mark, f"cannot read '{text}' as {_short(tag)}", expected=_short(tag), found=text
            )
            value = None
        return YScalar(mark, value, text, node.style or None, _span(node))


def _check_expansion(root: yaml.Node, file: str) -> BankProblem | None:
    """Refuse alias bombs before expanding anything.

    Aliases make the composed graph share nodes; this counts the values the fully expanded
    document would have (memoised per shared node, so it costs one visit per node) and the
    depth the expansion reaches (which also catches an alias inside its own anchor).
    """
    sizes: dict[int, int] = {}

    def size(node: yaml.Node, depth: int) -> int:
        if depth > limits.YAML_DEPTH:
            raise _Refused(node, f"nesting deeper than {limits.YAML_DEPTH} levels")
        known = sizes.get(id(node))
        if known is not None:
            return known
        total = 1
        if isinstance(node, yaml.SequenceNode):
            total += sum(size(item, depth + 1) for item in node.value)
        elif isinstance(node, yaml.MappingNode):
            total += sum(size(k, depth + 1) + size(v, depth + 1) for k, v in node.value)
        if total > limits.YAML_NODES:
            raise _Refused(node, f"more than {limits.YAML_NODES:,} values")
        sizes[id(node)] = total
        return total

    try:
        size(root, 0)
    except _Refused as exc:
        pos = _mark(exc.node.start_mark)
        return BankProblem(file, pos.line, pos.column, _too_big(exc.what, _has_aliases(root)))
    return None


def _has_aliases(root: yaml.Node) -> bool:
    """Whether any node is reached twice (an alias) in the composed graph."""
    seen: set[int] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            return True
        seen.add(id(node))
        if isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)
        elif isinstance(node, yaml.MappingNode):
            stack.extend(part for pair in node.value for part in pair)
    return False


def _too_big(what: str, aliased: bool) -> str:
    """The refusal of a document past :data:`konum.limits.YAML_NODES` or
    :data:`konum.limits.YAML_DEPTH`: an alias bomb when aliases made it so, else a bank to split."""
    if aliased:
        return f"refused: aliases expand to {what} (an alias bomb?)"
    return f"refused: the file has {what}, past the limit of one bank: split it into smaller banks"


class _Refused(Exception):
    def __init__(self, node: yaml.Node, what: str) -> None:
        super().__init__(what)
        self.node = node
        self.what = what


def _short(tag: str) -> str:
    return "!!" + tag[len(_TAG) :] if tag.startswith(_TAG) else tag


def parse(text: str, file: str) -> tuple[YNode | None, list[BankProblem]]:
    """Parse YAML ``text`` into located nodes; None when the document is empty or unreadable.

    Only a single document is allowed. Problems (syntax, duplicate keys, tags, limits) are
    returned, never raised.
    """
    try:
        deep = check_depth(text, file)
        if deep is not None:
            return None, [deep]
        node = yaml.compose(text, Loader=_FastLoader)
    except yaml.YAMLError as fast_exc:
        # Report the pure-Python parser's message: it is clearer than libyaml's.
        try:
            yaml.compose(text, Loader=_PythonLoader)
        except yaml.YAMLError as exc:
            return None, [syntax_problem(exc, file)]
        return None, [syntax_problem(fast_exc, file)]
    except RecursionError:  # pragma: no cover - the depth check above should prevent it
        return None, [
            BankProblem(file, 1, 1, f"nesting is too deep (more than {limits.YAML_DEPTH} levels)")
        ]
    if node is None:
        return None, []
    refused = _check_expansion(node, file)
    if refused is not None:
        return None, [refused]
    converter = _Converter(file)
    root = converter.convert(node, 0)
    if converter.exhausted:  # what was built is truncated: validating it would only add noise
        return None, converter.problems
    return root, converter.problems


def load(data: bytes, file: str) -> tuple[YNode | None, str | None, list[BankProblem]]:
    """Decode and parse a bank file's bytes: ``(root node, decoded text, problems)``."""
    text, problems = decode(data, file)
    if text is None:
        return None, None, problems
    root, problems = parse(text, file)
    return root, text, problems
