"""``konum check --update-hashes``: record the current English hash (``en``) beside each
entry of a bank's translations, once the translator has brought them up to date.

Only the hashes change: every other character of a translation file stays as it was written
(comments, flow style, quotes, line endings), so a translator's diff is the hashes alone.
What a hash is, and the file's layout, is :mod:`konum.translate`'s.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path

from ruamel.yaml import YAML
from ruamel.yaml.scalarstring import DoubleQuotedScalarString, SingleQuotedScalarString

from konum import limits, translate, yamlsource
from konum.files import input_problem, write_atomically
from konum.model import Flashcard
from konum.types import Bank, Question


def update_hashes(banks: Sequence[Bank], folder: Path) -> list[str]:
    """Record the current English hash (``en``) of every entry of the translations of
    ``banks`` in ``folder``, every other character of each file as it was written (comments,
    flow style, quotes, line endings).

    Returns:
        The files changed.
    """
    changed = []
    for bank in banks:
        path = translate.translation_path(folder, bank)
        if not path.is_file() or input_problem(
            path, folder.parent.resolve(), "translation", limits.YAML_BYTES
        ):
            continue
        data = path.read_bytes()
        text, _ = yamlsource.decode(data, str(path))
        if text is None:
            continue
        root, _ = yamlsource.parse(text, str(path))
        if not isinstance(root, yamlsource.YMap):
            continue
        items: dict[str, Question | Flashcard] = {q.id: q for q in bank.questions}
        items.update({fc.id: fc for fc in bank.flashcards})
        wanted: list[tuple[yamlsource.YMap, str, str]] = []  # entry, key it follows, hash
        if "title" in root.entries:
            wanted.append((root, "title", translate.source_hash(bank.title)))
        for section in ("questions", "flashcards"):
            seq = root.get(section)
            for item in seq.items if isinstance(seq, yamlsource.YSeq) else ():
                ident = item.get("id") if isinstance(item, yamlsource.YMap) else None
                if (
                    isinstance(item, yamlsource.YMap)
                    and isinstance(ident, yamlsource.YScalar)
                    and ident.text in items
                ):
                    wanted.append(
                        (
                            item,
                            "id",
                            translate.source_hash(translate.english_fields(items[ident.text])),
                        )
                    )
        lines = text.split("\n")
        newline = "\r\n" if "\r\n" in text else "\n"
        edits = [
            e
            for node, key, value in wanted
            if (e := _hash_edit(text, lines, newline, node, key, value))
        ]
        new = text
        for start, end, replacement in sorted(edits, reverse=True):
            new = new[:start] + replacement + new[end:]
        if new != text:
            bom = b"\xef\xbb\xbf" if data.startswith(b"\xef\xbb\xbf") else b""
            write_atomically(path, bom + new.encode("utf-8"))
            changed.append(str(path))
    return changed


def _offset(lines: Sequence[str], mark: yamlsource.Mark) -> int:
    """The index in the text of ``mark`` (1-based line and column)."""
    return sum(len(line) + 1 for line in lines[: mark.line - 1]) + mark.column - 1


def _scalar(value: str, style: str | None) -> str:
    """``value`` as ruamel.yaml writes it under YAML 1.1's rules, konum's reader's: in the
    quotes of the entry it replaces (``style``), else quoted only when it would read back as
    something other than text (``01234567``, an octal number; ``0b101101``, a binary one)."""
    emitter = YAML(typ="rt")
    emitter.version = (1, 1)
    quoted = {"'": SingleQuotedScalarString, '"': DoubleQuotedScalarString}.get(style or "", str)
    stream = io.StringIO()
    emitter.dump({"en": quoted(value)}, stream)
    return stream.getvalue().rstrip("\n").rsplit("\n", 1)[-1].removeprefix("en: ")


def _hash_edit(
    text: str,
    lines: Sequence[str],
    newline: str,
    node: yamlsource.YMap,
    key: str,
    value: str,
) -> tuple[int, int, str] | None:
    """The edit that makes ``node``'s ``en`` hash ``value``: its scalar replaced where it is,
    or, when it has none, an ``en`` entry beside ``key`` in the mapping's own style (quoted:
    a hash of digits must stay text: :func:`_scalar`)."""
    stored = node.get("en")
    written = _scalar(value, stored.style if isinstance(stored, yamlsource.YScalar) else None)
    if isinstance(stored, yamlsource.YScalar):
        if stored.text == value:
            return None
        start, end = stored.span
        return start, end, written
    anchor = node.entries[key]
    start = _offset(lines, node.mark)
    if text.startswith("{", start):  # a flow mapping: {id: x, prompt: ...}
        value_node = anchor.value
        if not isinstance(value_node, yamlsource.YScalar):
            return None
        at = value_node.span[1]
        return at, at, f", en: {written}"
    indent = " " * (anchor.key_mark.column - 1)
    if key == "title":  # before the title, at the top of the file
        at = _offset(lines, yamlsource.Mark(anchor.key_mark.line, 1))
        return at, at, f"{indent}en: {written}{newline}"
    line = lines[anchor.key_mark.line - 1]
    at = _offset(lines, yamlsource.Mark(anchor.key_mark.line, 1)) + len(line.rstrip("\r"))
    return at, at, f"{newline}{indent}en: {written}"
