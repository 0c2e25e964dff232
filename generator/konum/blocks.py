"""What every konum block's header needs checked before pymdownx sees it.

pymdownx Blocks leaves a block whose options it cannot read (an unknown option, options
that are not YAML) as plain text, takes a block with no closing ``///`` to the end of the
page, and knows no line numbers. :func:`block_options` and :func:`check_closed` read a
block's option lines and its end as pymdownx does and say, with the page's line, what is
wrong; the quiz, study, progress and explorer blocks all use them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import yaml

from konum.formatting import did_you_mean

_OPTION = re.compile(r"^ {4}(?P<key>[^\s:#][^:]*?)\s*:")
_END = re.compile(r"^ {0,3}///\s*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")

Error = Callable[[str], Exception]


def block_options(
    lines: Sequence[str], index: int, where: str, known: Sequence[str], error: Error
) -> tuple[dict[str, Any], dict[str, int]]:
    """The options of the block opening at ``lines[index]`` (the lines indented by four
    spaces right after it, read as YAML as pymdownx reads them) and the page line of each.

    Raises:
        ``error(message)``: an unknown option (with the closest known one), options that
            are not YAML, or options that are not ``name: value`` lines.
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
    return given, keys


def check_closed(lines: Sequence[str], index: int, where: str, error: Error) -> None:
    """Refuse a block opening at ``lines[index]`` (with three slashes) that no ``///`` line
    closes; fenced code is skipped. (A block inside it would need fewer slashes, so the
    first ``///`` line is its end.)

    Raises:
        ``error(message)``: naming the block's line.
    """
    if any(_END.match(line) for _, line in outside_fences(lines[index + 1 :])):
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
