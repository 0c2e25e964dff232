"""What every konum block's header needs checked before pymdownx sees it.

pymdownx Blocks leaves a block whose options it cannot read (an unknown option, options
that are not YAML, a value its typed option refuses) as plain text, takes a block with no
closing ``///`` to the end of the page, and knows no line numbers. :func:`block_options`,
:func:`check_closed` and :func:`check_empty` read a block's option lines, its end and its
content as pymdownx does and say, with the page's line, what is wrong; the quiz, study,
progress, question and explorer blocks all use them. :func:`typed` gives a block's
``OPTIONS`` pymdownx's typed converters with messages that say what was expected.
:func:`question_blocks` and :func:`question_pages` find the ``/// question`` blocks a page
holds and the pages that hold any.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

import yaml
from markdown import Markdown
from markdown.treeprocessors import Treeprocessor
from pymdownx.blocks.block import type_multi, type_ranged_integer, type_string_delimiter

from konum import limits
from konum.errors import PageError
from konum.formatting import did_you_mean
from konum.yamlsource import check_depth

_OPTION = re.compile(r"^ {4}(?P<key>[^\s:#][^:]*?)\s*:")
#: A block's last line.
END = re.compile(r"^ {0,3}///\s*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")

Error = Callable[[str], Exception]
T = TypeVar("T")
#: A block's ``OPTIONS`` as pymdownx takes them: name to (default, converter).
Spec = Mapping[str, tuple[Any, Callable[[Any], Any]]]


def typed(expected: str, convert: Callable[[Any], T]) -> Callable[[Any], T]:
    """A block option's converter (pymdownx's ``type_*`` ones where they fit) whose failure
    says ``expected <expected>, found <value>`` instead of the converter's own words."""

    def checked(value: Any) -> T:
        try:
            return convert(value)
        except (ValueError, TypeError) as exc:
            raise ValueError(f"expected {expected}, found {value!r}") from exc

    return checked


def _listed(value: object) -> list[str]:
    """A YAML list of names (each a text or a number)."""
    if not isinstance(value, list) or not all(isinstance(v, (str, int)) for v in value):
        raise ValueError(value)
    return [str(part).strip() for part in value if str(part).strip()]


#: An option that lists names: ``a, b`` or a YAML list.
NAMES = typed("names separated by commas", type_multi(type_string_delimiter(","), _listed))


def whole(low: int, high: int) -> Callable[[Any], int]:
    """An option that is a whole number from ``low`` to ``high`` (not YAML's true or false)."""
    ranged = type_ranged_integer(low, high)

    def number(value: object) -> int:
        if isinstance(value, bool):
            raise ValueError(value)
        return int(ranged(value))

    return typed(f"a whole number from {low} to {high}", number)


class PageProblems(Treeprocessor):
    """Raises every problem the page's blocks had (``problems``, which the blocks fill and
    this empties), one line each in the page's order, once the page is read: one problem as
    it is (an explorer's keeps its type), several as one ``error``."""

    def __init__(self, md: Markdown, problems: list[PageError], error: Error) -> None:
        super().__init__(md)
        self.problems, self.error = problems, error

    def run(self, root: Any) -> None:
        found = list(self.problems)
        self.problems.clear()
        if len(found) == 1:
            raise found[0]
        if found:
            said = sorted(dict.fromkeys(map(str, found)), key=_line_of)
            raise self.error("\n".join(said))


def _line_of(problem: str) -> int:
    """The page line a problem starts with (``line 3: ...``), 0 for one without."""
    found = re.match(r"line (\d+): ", problem)
    return int(found.group(1)) if found else 0


def block_options(
    lines: Sequence[str], index: int, where: str, known: Sequence[str] | Spec, error: Error
) -> tuple[dict[str, Any], dict[str, int]]:
    """The options of the block opening at ``lines[index]`` (the lines indented by four
    spaces right after it, read as YAML as pymdownx reads them) and the page line of each;
    with a block's ``OPTIONS`` as ``known``, each value as its converter makes it.

    Raises:
        ``error(message)``: an unknown option (with the closest known one), options that
            are not YAML (or nest deeper than :data:`konum.limits.YAML_DEPTH`), options
            that are not ``name: value`` lines, or a value its converter refuses.
    """
    number = index + 1
    block: list[str] = []
    keys: dict[str, int] = {}
    for line in lines[index + 1 :]:
        if not line.startswith("    ") or not line.strip():
            break
        option = _OPTION.match(line)
        if option:
            key = option.group("key")
            keys[key] = number + 1 + len(block)
            if key not in known:
                listed = ", ".join(known) or "none"
                raise error(
                    f"line {keys[key]}: {where}: unknown option {key!r}"
                    f"{did_you_mean(key, known)} (options: {listed})"
                )
        block.append(line[4:])
    # PyYAML's composer recurses once per level: hundreds of levels exhaust the stack.
    deep = check_depth("\n".join(block), where)
    if deep is not None:
        at = number + (deep.line or 1)
        raise error(
            f"line {at}: {where}: the options nest more than {limits.YAML_DEPTH} levels deep"
        )
    try:
        given = yaml.safe_load("\n".join(block)) if block else {}
    except yaml.YAMLError as exc:
        # Only a MarkedYAMLError has a problem; a ReaderError (a control character) has not.
        problem = exc.problem if isinstance(exc, yaml.MarkedYAMLError) else str(exc)
        raise error(f"line {number + 1}: {where}: the options are not YAML ({problem})") from None
    if not isinstance(given, dict):
        raise error(
            f"line {number + 1}: {where}: expected options as 'name: value' lines, "
            f"found {block[0].strip()!r}"
        )
    if isinstance(known, Mapping):
        for key, value in list(given.items()):
            convert = known[key][1] if key in known else None
            try:
                given[key] = convert(value) if convert is not None else value
            except ValueError as exc:
                raise error(f"line {keys.get(key, number)}: {where}: {key}: {exc}") from None
    return given, keys


def check_empty(lines: Sequence[str], index: int, where: str, known: Sequence[str]) -> list[str]:
    """The problems of what stands inside the block opening at ``lines[index]`` besides its
    options, for a block that holds nothing else (pymdownx would drop it unread): an option
    indented by other than four spaces, or after a blank line, and any other text. Each
    problem is ``line N: ...``."""
    number, problems = index + 1, []
    body = list(outside_fences(lines[index + 1 :]))
    options = True
    for offset, line in body:
        if END.match(line):
            break
        options = options and line.startswith("    ") and bool(line.strip())
        if options or not line.strip():
            continue
        at = number + 1 + offset
        option = re.match(r"^(?P<space> *)(?P<key>[A-Za-z_]\w*)\s*:", line)
        if option and option.group("key") in known:
            spaces = len(option.group("space"))
            how = f"indented {spaces} spaces" if spaces != 4 else "after a blank line"
            problems.append(
                f"line {at}: {where}: option {option.group('key')!r} is {how}: options are "
                "indented 4 spaces, on the lines right after the block's first line"
            )
        else:
            problems.append(
                f"line {at}: {where}: the block holds nothing but its options (indented 4 "
                f"spaces), found {line.strip()[:40]!r}"
            )
    return problems


def check_closed(lines: Sequence[str], index: int, where: str, error: Error) -> None:
    """Refuse a block opening at ``lines[index]`` (with three slashes) that no ``///`` line
    closes; fenced code is skipped. (A block inside it would need fewer slashes, so the
    first ``///`` line is its end.)

    Raises:
        ``error(message)``: naming the block's line.
    """
    if any(END.match(line) for _, line in outside_fences(lines[index + 1 :])):
        return
    raise error(f"line {index + 1}: {where}: no '///' line closes the block")


def outside_fences(lines: Sequence[str]) -> Iterator[tuple[int, str]]:
    """The lines of a page (index, text) that are not in fenced code, fences aside."""
    fence: str | None = None
    for index, line in enumerate(lines):
        opened = _FENCE.match(line)
        if opened:
            mark = opened.group(1)
            if fence is None:
                fence = mark
            elif mark.startswith(fence[0]) and len(mark) >= len(fence):
                fence = None
        elif fence is None:
            yield index, line


#: The first line of a ``/// question`` block (its end is a ``///`` line).
QUESTION_START = re.compile(r"^ {0,3}/// *question *$")


def question_blocks(lines: Sequence[str]) -> list[tuple[int, int]]:
    """The ``/// question`` blocks of a page outside fenced code, as ``(first, end)``: the
    index of the block's first line and of its closing ``///`` line (``len(lines)`` when
    none closes it)."""
    found = []
    for index, line in outside_fences(lines):
        if QUESTION_START.match(line):
            ends = (i for i in range(index + 1, len(lines)) if END.match(lines[i]))
            found.append((index, next(ends, len(lines))))
    return found


def question_pages(pages: Path | None, skip: Sequence[Path] = ()) -> list[Path]:
    """The Markdown pages below ``pages`` with a ``/// question`` line, sorted, none of them
    below a folder of ``skip`` (another edition's pages, inside these as ``docs/tr`` in
    ``docs``: its questions are that edition's). Only regular files inside ``pages`` are
    read: a pipe, a device or a link leading out is refused by the site's own check
    (:func:`konum.files.tree_problems`), and reading it could hang."""
    if pages is None or not pages.is_dir():
        return []
    inside = pages.resolve()
    others = [folder.resolve() for folder in skip]
    others = [f for f in others if f != inside and f.is_relative_to(inside)]

    def readable(page: Path) -> bool:
        try:
            real = page.resolve()
        except (OSError, RuntimeError):
            return False
        return (
            real.is_relative_to(inside)
            and real.is_file()
            and not any(real.is_relative_to(other) for other in others)
        )

    return [
        page
        for page in sorted(pages.rglob("*.md"))
        if not any(part.startswith(".") for part in page.relative_to(pages).parts)
        and readable(page)
        and "/// question" in page.read_text(encoding="utf-8", errors="replace")
    ]
