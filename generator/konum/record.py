"""``konum check --record``: run output questions' example solutions and record what they
print in their banks.

Each output question gets (or has replaced) its ``recorded`` entry::

      recorded:
        solution: 3fa4c2d1     # the hash of the solution it was recorded from
        output: |
          [0.8415 0.5403]

The rest of the file stays as it was written: comments, quotes, other entries, line endings.
A solution that fails is not recorded; ``konum check`` reports it at its line.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import yaml

from konum import yamlsource
from konum.files import write_atomically
from konum.load import PathLike, discover, load_file
from konum.yamlsource import YMap, YSeq


def _block(indent: str, digest: str, output: str, newline: str) -> list[str]:
    quote = "" if isinstance(yaml.safe_load(digest), str) else '"'
    lines = output.split("\n")
    # A first line that starts with a space needs the block's indentation said.
    style = "|2" if lines and lines[0][:1] == " " else "|"
    text = [
        f"{indent}recorded:",
        f"{indent}  solution: {quote}{digest}{quote}",
        f"{indent}  output: {style}",
    ]
    text += [f"{indent}    {line}".rstrip() if line.strip() else "" for line in lines]
    return [line + newline for line in text]


def _entry_lines(node: YMap, key: str, end: int, lines: list[str]) -> tuple[int, int]:
    """The 0-based line range ``[start, stop)`` of ``node``'s entry ``key``, ``end`` being
    the line after the mapping (without the blank and comment lines before it)."""
    keys = list(node.entries)
    start = node.entries[key].key_mark.line - 1
    at = keys.index(key)
    stop = node.entries[keys[at + 1]].key_mark.line - 1 if at + 1 < len(keys) else end
    while stop > start + 1 and (
        not lines[stop - 1].strip() or lines[stop - 1].lstrip().startswith("#")
    ):
        stop -= 1
    return start, stop


def record_outputs(paths: Sequence[PathLike], project: Path | None = None) -> list[str]:
    """Run the example solution of every output question of the banks at ``paths`` (files
    or folders) and record its output; the files changed."""
    changed = []
    for path in discover(paths):
        loaded = load_file(path, project)
        if loaded.bank is None or not isinstance(loaded.root, YMap):
            continue
        data = Path(path).read_bytes()
        text, _ = yamlsource.decode(data, str(path))
        if text is None:
            continue
        lines = text.splitlines(keepends=True)
        newline = "\r\n" if "\r\n" in text else "\n"
        seq = loaded.root.get("questions")
        items = seq.items if isinstance(seq, YSeq) else []
        nodes = {
            str(item.get("id").value): (i, item)  # type: ignore[union-attr]
            for i, item in enumerate(items)
            if isinstance(item, YMap) and isinstance(item.get("id"), yamlsource.YScalar)
        }
        edits: list[tuple[int, int, list[str]]] = []
        for q in loaded.bank.questions:
            recording = q.record() if q.id in nodes else None
            if recording is None:
                continue
            digest, output = recording
            index, node = nodes[q.id]
            end = items[index + 1].mark.line - 1 if index + 1 < len(items) else len(lines)
            indent = " " * (node.entries["solution"].key_mark.column - 1)
            block = _block(indent, digest, output, newline)
            if "recorded" in node.entries:
                start, stop = _entry_lines(node, "recorded", end, lines)
            else:
                _, stop = _entry_lines(node, "solution", end, lines)
                start = stop
            if stop == len(lines) and lines and not lines[-1].endswith(("\n", "\r")):
                lines[-1] += newline
            edits.append((start, stop, block))
        if not edits:
            continue
        for start, stop, block in sorted(edits, reverse=True):
            lines[start:stop] = block
        bom = b"\xef\xbb\xbf" if data.startswith(b"\xef\xbb\xbf") else b""
        write_atomically(path, bom + "".join(lines).encode("utf-8"))
        changed.append(str(path))
    return changed
