"""``konum check --record``: run output questions' example solutions and record what they
print in their banks.

Each output question gets (or has replaced) its ``recorded`` entry::

      recorded:
        solution: 3fa4c2d1     # the hash of the solution it was recorded from
        output: |
          [0.8415 0.5403]

The entry is written by ruamel.yaml's emitter: a literal block where one holds the output
exactly, otherwise an escaped double-quoted scalar (a NUL, ESC, CR, DEL, a C1 control, a
line or paragraph separator, a tab, trailing spaces, ...). The rest of the file stays as it
was written, byte for byte: comments, quotes, flow lists, other entries, line endings. A
whole-document round trip through ruamel.yaml would not keep it (it joins flow lists and
rewrites a hash such as ``27e56584`` as ``.inf``), so only the new entry is emitted and
the file is read back with the reader konum loads banks with: nothing is written unless
every recording reads back as it was printed and every other value is unchanged.

A solution that fails or prints nothing is not recorded; ``konum check`` reports it at its
line.
"""

from __future__ import annotations

import io
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import Any

import yaml
from ruamel.yaml import YAML
from ruamel.yaml.scalarstring import DoubleQuotedScalarString, LiteralScalarString

from konum import yamlsource
from konum.errors import KonumError
from konum.files import write_atomically
from konum.load import PathLike, discover, load_file
from konum.yamlsource import YMap, YSeq


def _emitter() -> YAML:
    """ruamel.yaml's round-trip emitter, writing the house layout (two-space mappings) and
    never folding a line."""
    emitter = YAML(typ="rt")
    emitter.width = 1 << 30
    emitter.indent(mapping=2, sequence=4, offset=2)
    return emitter


def _fits_a_block(output: str) -> bool:
    """Whether a literal block scalar holds ``output`` exactly: printable characters only
    (a tab, CR, NEL, U+2028, a BOM or any control is not), no trailing spaces on a line
    (a block keeps them, but editors and linters strip them). The file is read back
    whatever this says."""
    lines = output.split("\n")
    return all(line.isprintable() and line == line.rstrip(" ") for line in lines)


def _entry(indent: str, digest: str, output: str, quoted: bool) -> list[str]:
    """The ``recorded`` entry's lines (ending in ``\\n``), each indented by ``indent``."""
    text: Any = (
        DoubleQuotedScalarString(output)
        if quoted or not _fits_a_block(output)
        else LiteralScalarString(output + "\n")
    )
    value: dict[str, Any] = {"solution": DoubleQuotedScalarString(digest) if quoted else digest}
    value["output"] = text
    stream = io.StringIO()
    _emitter().dump({"recorded": value}, stream)
    lines = stream.getvalue().rstrip("\n").split("\n")
    return [f"{indent}{line}\n" if line else "\n" for line in lines]


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


def _pop_recorded(data: Any, ids: Collection[str]) -> dict[str, Any]:
    """Take the ``recorded`` entries of the questions ``ids`` out of the bank data ``data``."""
    items = data.get("questions") if isinstance(data, dict) else None
    return {
        str(item.get("id")): item.pop("recorded", None)
        for item in (items if isinstance(items, list) else [])
        if isinstance(item, dict) and str(item.get("id")) in ids
    }


def _reads_back(old: str, new: str, recordings: dict[str, tuple[str, str]]) -> bool:
    """Whether the bank text ``new`` holds each recording (id: hash, output) as printed,
    read as konum reads banks, and every other value of ``old`` unchanged."""
    before, after = yaml.safe_load(old), yaml.safe_load(new)
    _pop_recorded(before, recordings)
    got = _pop_recorded(after, recordings)
    return before == after and all(
        isinstance(got.get(qid), dict)
        and got[qid].get("solution") == digest
        and str(got[qid].get("output")).replace("\r\n", "\n").rstrip("\n") == output
        for qid, (digest, output) in recordings.items()
    )


def _recorded_text(
    text: str, root: YMap, recordings: dict[str, tuple[str, str]], quoted: bool
) -> str:
    """``text`` with each question of ``recordings`` (id: hash, output) given its entry."""
    lines = text.splitlines(keepends=True)
    newline = "\r\n" if "\r\n" in text else "\n"
    seq = root.get("questions")
    items = seq.items if isinstance(seq, YSeq) else []
    edits: list[tuple[int, int, list[str]]] = []
    for index, node in enumerate(items):
        value = node.get("id") if isinstance(node, YMap) else None
        if not isinstance(node, YMap) or not isinstance(value, yamlsource.YScalar):
            continue
        qid = str(value.value)
        if qid not in recordings or "solution" not in node.entries:
            continue
        digest, output = recordings[qid]
        end = items[index + 1].mark.line - 1 if index + 1 < len(items) else len(lines)
        indent = " " * (node.entries["solution"].key_mark.column - 1)
        block = [line[:-1] + newline for line in _entry(indent, digest, output, quoted)]
        if "recorded" in node.entries:
            start, stop = _entry_lines(node, "recorded", end, lines)
        else:
            _, stop = _entry_lines(node, "solution", end, lines)
            start = stop
        if stop == len(lines) and lines and not lines[-1].endswith(("\n", "\r")):
            lines[-1] += newline
        edits.append((start, stop, block))
    for start, stop, block in sorted(edits, reverse=True):
        lines[start:stop] = block
    return "".join(lines)


def record_outputs(paths: Sequence[PathLike], project: Path | None = None) -> list[str]:
    """Run the example solution of every output question of the banks at ``paths`` (files
    or folders) and record its output; the files changed.

    Raises:
        KonumError: a recording would not read back as printed (naming the file, the
            question's line and id); that file is left as it was.
    """
    changed: list[str] = []
    for path in discover(paths):
        loaded = load_file(path, project)
        if loaded.bank is None or not isinstance(loaded.root, YMap):
            continue
        recordings: dict[str, tuple[str, str]] = {}
        for q in loaded.bank.questions:
            recording = q.record()
            # An empty output is left to konum check, which refuses it at its line.
            if recording is not None and recording[1].strip():
                recordings[q.id] = recording
        if not recordings:
            continue
        data = Path(path).read_bytes()
        text, _ = yamlsource.decode(data, str(path))
        if text is None:
            continue
        # A literal block where it reads back, else every entry double-quoted and escaped.
        written = (_recorded_text(text, loaded.root, recordings, q) for q in (False, True))
        new = next((new for new in written if _reads_back(text, new, recordings)), None)
        if new is None:
            first = next(q for q in loaded.bank.questions if q.id in recordings)
            raise KonumError(
                f"{path}:{first.source.line}: [{first.id}] recorded: the output could not be "
                "written so that it reads back as printed; the bank is left as it was"
            )
        bom = b"\xef\xbb\xbf" if data.startswith(b"\xef\xbb\xbf") else b""
        write_atomically(path, bom + new.encode("utf-8"))
        changed.append(str(path))
    return changed
