"""Drafts written as a bank file, as a teacher would write it.

ruamel.yaml writes the YAML: texts of several lines as ``|`` blocks, every other value in
the plainest form that reads back the same, and each approximation an importer made as a
comment above its question. Ids are made from the questions' names (slugs, unique in the
bank: a second "Ohm's law" is ``ohms-law-2``), so importing the same file again gives the
same ids.
"""

from __future__ import annotations

import io
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.scalarstring import LiteralScalarString

from konum import limits
from konum.formatting import slugify
from konum.importers.model import Draft

#: Where each field goes in a question, after ``id``; fields not named here follow.
ORDER = (
    "type",
    "prompt",
    "formula",
    "params",
    "answer",
    "options",
    "blanks",
    "pairs",
    "distractors",
    "items",
    "tolerance",
    "decimals",
    "unit",
    "misconceptions",
    "shuffle",
    "explanation",
    "hint",
    "hints",
    "points",
    "tags",
)


def make_id(name: str, taken: set[str]) -> str:
    """A slug id for ``name`` not in ``taken`` (which it joins)."""
    slug = slugify(name)
    if len(slug) > limits.IMPORTED_ID_CHARS:
        slug = slug[: limits.IMPORTED_ID_CHARS].rsplit("-", 1)[0]
    slug = slug or "question"
    if not slug[0].isalpha():
        slug = f"q-{slug}"
    new, n = slug, 2
    while new in taken:
        new, n = f"{slug}-{n}", n + 1
    taken.add(new)
    return new


def _value(value: Any) -> Any:
    if isinstance(value, str):
        text = value.replace("\r\n", "\n")
        return LiteralScalarString(text) if "\n" in text else text
    if isinstance(value, dict):
        out = CommentedMap()
        for key, inner in value.items():
            out[key] = _value(inner)
        if len(value) <= 3 and all(isinstance(v, (int, float)) for v in value.values()):
            out.fa.set_flow_style()  # a range, {min: 1, max: 9}, on one line
        return out
    if isinstance(value, list):
        seq = CommentedSeq(_value(v) for v in value)
        if value and all(isinstance(v, str) and "\n" not in v and len(v) < 30 for v in value):
            seq.fa.set_flow_style()
        return seq
    return value


def _question(draft: Draft) -> CommentedMap:
    """A draft (with its id) as the mapping a bank writes, its fields in :data:`ORDER`."""
    item = CommentedMap()
    item["id"] = draft.fields["id"]
    for key in sorted(draft.fields, key=lambda k: ORDER.index(k) if k in ORDER else len(ORDER)):
        if key != "id":
            item[key] = _value(draft.fields[key])
    return item


def _yaml() -> YAML:
    yaml = YAML()
    yaml.width = 4096  # texts stay on their lines; blocks keep the author's breaks
    yaml.indent(mapping=2, sequence=4, offset=2)
    return yaml


def question_text(draft: Draft) -> str:
    """One draft (with its id) as a ``/// question`` block holds it: the bank's fields of
    one question, unindented, each approximation a comment above them."""
    out = io.StringIO()
    _yaml().dump(_question(draft), out)
    notes = "".join(f"# imported: {note}\n" for note in draft.notes)
    return notes + out.getvalue()


def bank_text(bank: str, title: str, drafts: list[Draft], *, source: str) -> str:
    """The bank file for ``drafts`` (which get their ids here, in ``draft.fields["id"]``).

    Args:
        bank: the bank's id (its file name without ``.yml``).
        title: the bank's title.
        drafts: the questions, in order.
        source: what they were imported from, said in the file's first comment.
    """
    taken: set[str] = set()
    questions = CommentedSeq()
    for i, draft in enumerate(drafts):
        qid = draft.fields.get("id") or make_id(draft.name, taken)
        taken.add(qid)
        draft.fields["id"] = qid
        questions.append(_question(draft))
        if draft.notes:
            questions.yaml_set_comment_before_after_key(
                i, before="\n".join(f"imported: {note}" for note in draft.notes), indent=2
            )
    doc = CommentedMap()
    doc["bank"] = bank
    doc["title"] = title
    doc["questions"] = questions
    doc.yaml_set_start_comment(f"Imported by konum from {source}: check it with `konum check`.")
    out = io.StringIO()
    _yaml().dump(doc, out)
    # A blank line before each question (and its comments), as the course's banks have.
    lines, previous = [], ""
    for line in out.getvalue().split("\n"):
        starts = line.startswith("  - id: ") or line.startswith("  # imported: ")
        if starts and not previous.startswith("  # imported: ") and previous != "questions:":
            lines.append("")
        lines.append(line)
        previous = line
    return "\n".join(lines).rstrip("\n") + "\n"
