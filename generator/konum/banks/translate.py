"""Translations of banks: one file per bank and language, keyed by question id.

A translation of ``content/banks/rope.yml`` is ``<translations>/rope.yml`` (the Turkish
edition's are ``content/tr/banks/``, named by the extension's ``translations`` option in
``mkdocs.tr.yml``). It mirrors the bank's shape and holds only the words::

    bank: rope
    en: 5d41402a          # hash of the English title
    title: Döner konum gömmesi (RoPE)
    questions:
      - id: rope-where
        en: 9b2c0f1e      # hash of the English this entry translates
        prompt: RoPE bir transformer'ın neresinde etki eder?
        options:          # as many as the English, in the English order
          - text: ...
            feedback: ...
        explanation: ...
    flashcards:
      - id: rope-fc-relative
        en: 0c1d2e3f
        front: ...
        back: ...

Conventions:

* Every English question and flashcard has one entry, and every text field the English has
  is translated (:func:`english_fields` lists them); a field the English lacks, an id it
  lacks or a different number of options, pairs or blanks is an error, as is a field left
  in English (the same text with English words outside math and code).
* Ids, numbers, answers, option order and everything else stay the English bank's, so both
  editions draw the same numbers for a seed. Fill-in ``blanks`` answers may be given (words
  a reader types in the language); without them the English answers are accepted.
* ``en`` is a short hash of the English fields the entry translates (:func:`source_hash`).
  When the English changes, the hash no longer matches and the entry is reported as older
  than its English; :func:`update_hashes` (``konum check --update-hashes``) records the
  current hashes once the translator has brought the entries up to date.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from konum import model
from konum.banks import yamlsource
from konum.banks.errors import BankProblem
from konum.formatting import BLANK

#: Length of the hashes stored in translation files (hex digits of SHA-256).
HASH_LENGTH = 8

#: The keys a translation file's top level may have.
TOP_KEYS = ("bank", "en", "title", "questions", "flashcards")

_MATH_OR_CODE = re.compile(
    r"```.*?```|`[^`\n]*`|\$\$.*?\$\$|\$[^$\n]*\$|\\\(.*?\\\)|<[^>\n]*>", re.DOTALL
)
_WORD = re.compile(r"\b[a-z]{3,}\b")


def english_fields(item: model.Question | model.Flashcard) -> dict[str, object]:
    """The English text fields a translation of ``item`` gives, by field path.

    Paths are those of the bank (``options[1].feedback``), but a hint is ``hints[i]`` (its
    text: a cost is not translated); ``blanks[i].answers`` (a list) are the only optional
    ones. Empty or absent English fields are not listed.
    """
    fields: dict[str, object] = {}

    def put(path: str, text: str | None) -> None:
        if text is not None and text.strip():
            fields[path] = text

    if isinstance(item, model.Flashcard):
        put("front", item.front)
        put("back", item.back)
        return fields
    put("prompt", item.prompt)
    put("hint", item.hint)
    for i, hint in enumerate(item.hints):
        put(f"hints[{i}]", hint.text)
    if isinstance(item, model.OrderingQuestion):
        for i, text in enumerate(item.items):
            put(f"items[{i}]", text)
    if isinstance(item, model.ChoiceQuestion):
        for i, option in enumerate(item.options):
            put(f"options[{i}].text", option.text)
            put(f"options[{i}].feedback", option.feedback)
    elif isinstance(item, model.FillQuestion):
        for i, blank in enumerate(item.blanks):
            fields[f"blanks[{i}].answers"] = list(blank.answers)
    elif isinstance(item, model.MatchingQuestion):
        for i, pair in enumerate(item.pairs):
            put(f"pairs[{i}].left", pair.left)
            put(f"pairs[{i}].right", pair.right)
        for i, distractor in enumerate(item.distractors):
            put(f"distractors[{i}]", distractor)
    elif isinstance(item, (model.NumericQuestion, model.ComputedQuestion)):
        put("unit", item.unit)
        if isinstance(item, model.ComputedQuestion):
            for i, wrong in enumerate(item.misconceptions):
                put(f"misconceptions[{i}].feedback", wrong.feedback)
    if item.figure is not None:
        put("figure.alt", item.figure.alt)
        put("figure.caption", item.figure.caption)
    put("explanation", item.explanation)
    return fields


def source_hash(fields: Mapping[str, object] | str) -> str:
    """The short hash of English text (:data:`HASH_LENGTH` hex digits of SHA-256 of its
    JSON), stored as ``en`` beside a translation."""
    data = json.dumps(fields, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(data.encode("utf-8")).hexdigest()[:HASH_LENGTH]


def left_in_english(english: str, translated: str) -> bool:
    """True when ``translated`` is ``english`` unchanged and the English has words outside
    math, code and HTML tags: two lowercase words, or a text that is one word (a unit). A
    name (``BERT-base``, ``Hugging Face``) or a formula may stay as it is."""
    if translated.strip() != english.strip():
        return False
    prose = _MATH_OR_CODE.sub(" ", english).strip()
    # Two lowercase words, or one word alone (a unit): names such as BERT-base stay.
    return len(_WORD.findall(prose)) >= 2 or bool(_WORD.fullmatch(prose))


def _optional(path: str) -> bool:
    return path.startswith("blanks[")


@dataclass(frozen=True)
class Entry:
    """One entry of a translation file: its id, stored hash and texts by field path."""

    id: str
    hash: str | None
    texts: dict[str, object]
    line: int
    marks: dict[str, yamlsource.Mark]
    column: int = 1


@dataclass(frozen=True)
class TranslationReport:
    """Checking translations: the translated banks, every problem, and the entries older
    than their English (``stale``; the texts are still used)."""

    banks: tuple[model.Bank, ...]
    problems: tuple[BankProblem, ...]
    stale: tuple[BankProblem, ...]
    files: tuple[str, ...]


class _Reader:
    """Turns one translation file's nodes into entries, collecting shape problems."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.problems: list[BankProblem] = []

    def problem(
        self,
        mark: yamlsource.Mark,
        message: str,
        *,
        question_id: str | None = None,
        field: str | None = None,
        expected: str | None = None,
        found: str | None = None,
    ) -> None:
        self.problems.append(
            BankProblem(
                self.file, mark.line, mark.column, message, question_id, field, expected, found
            )
        )

    def texts(
        self,
        node: yamlsource.YNode,
        path: str,
        ident: str,
        out: dict[str, object],
        marks: dict[str, yamlsource.Mark],
    ) -> None:
        """Flatten ``node`` into ``out`` by field path (``options[0].text``)."""
        if isinstance(node, yamlsource.YMap):
            for key, entry in node.entries.items():
                self.texts(entry.value, f"{path}.{key}" if path else key, ident, out, marks)
        elif isinstance(node, yamlsource.YSeq):
            if path.endswith(".answers") or path == "answers":
                values = []
                for item in node.items:
                    if isinstance(item, yamlsource.YScalar) and item.value is not None:
                        values.append(str(item.value))
                    else:
                        self.problem(
                            item.mark,
                            "expected an answer (text)",
                            question_id=ident,
                            field=path,
                            expected="text",
                            found=type(item).__name__,
                        )
                out[path] = values
                marks[path] = node.mark
                return
            for i, item in enumerate(node.items):
                self.texts(item, f"{path}[{i}]", ident, out, marks)
        elif isinstance(node.value, str):
            out[path] = node.value
            marks[path] = node.mark
        else:
            self.problem(
                node.mark,
                f"expected text, found {node.text!r}",
                question_id=ident,
                field=path,
                expected="text",
                found=node.text,
            )

    def entries(self, root: yamlsource.YMap, section: str) -> list[Entry]:
        seq = root.get(section)
        if seq is None:
            return []
        if not isinstance(seq, yamlsource.YSeq):
            self.problem(
                seq.mark,
                f"expected a list of entries with ids, found {_kind(seq)}",
                field=section,
                expected="a list",
                found=_kind(seq),
            )
            return []
        result = []
        for i, item in enumerate(seq.items):
            ident_node = item.get("id") if isinstance(item, yamlsource.YMap) else None
            if not isinstance(item, yamlsource.YMap) or not isinstance(
                ident_node, yamlsource.YScalar
            ):
                self.problem(
                    item.mark,
                    "expected an entry with an id",
                    field=f"{section}[{i}]",
                    expected="id: QUESTION-ID",
                    found=_kind(item),
                )
                continue
            ident = str(ident_node.value)
            hash_node = item.get("en")
            stored = None
            if isinstance(hash_node, yamlsource.YScalar):
                stored = str(hash_node.value)
            texts: dict[str, object] = {}
            marks: dict[str, yamlsource.Mark] = {}
            for key, entry in item.entries.items():
                if key not in ("id", "en"):
                    self.texts(entry.value, key, ident, texts, marks)
            result.append(Entry(ident, stored, texts, item.mark.line, marks, item.mark.column))
        return result


def _kind(node: yamlsource.YNode) -> str:
    if isinstance(node, yamlsource.YMap):
        return "a mapping"
    if isinstance(node, yamlsource.YSeq):
        return "a list"
    return repr(node.text)


def _compare(
    reader: _Reader, entry: Entry, english: Mapping[str, object], stale: list[BankProblem]
) -> None:
    """Report fields missing, extra or left in English, and a stale hash."""
    where = yamlsource.Mark(entry.line, entry.column)
    for path, text in english.items():
        if path not in entry.texts:
            if not _optional(path):
                reader.problem(
                    where,
                    f"missing translation of '{path}'",
                    question_id=entry.id,
                    field=path,
                    expected="a translation of every English field",
                    found="none",
                )
        elif isinstance(text, str) and left_in_english(text, str(entry.texts[path])):
            reader.problem(
                entry.marks.get(path, where),
                "untranslated: the same text as the English",
                question_id=entry.id,
                field=path,
                expected="a translation",
                found="the English",
            )
    for path in entry.texts:
        if path not in english:
            reader.problem(
                entry.marks.get(path, where),
                f"no English field '{path}' to translate",
                question_id=entry.id,
                field=path,
                expected=_expected_fields(english),
                found=path,
            )
    prompt = entry.texts.get("prompt")
    blanks = sum(1 for p in english if p.startswith("blanks["))
    if blanks and isinstance(prompt, str) and len(BLANK.findall(prompt)) != blanks:
        reader.problem(
            entry.marks.get("prompt", where),
            f"expected {blanks} blanks (____) like the English, found {len(BLANK.findall(prompt))}",
            question_id=entry.id,
            field="prompt",
            expected=f"{blanks} blanks",
            found=str(len(BLANK.findall(prompt))),
        )
    current = source_hash(english)
    if entry.hash != current:
        found = f"en: {entry.hash}" if entry.hash else "no en hash"
        stale.append(
            BankProblem(
                reader.file,
                entry.line,
                entry.column,
                f"older than its English ({found}, the English is now {current}): bring the "
                "translation up to date, then run konum check --update-hashes",
                entry.id,
                "en",
                current,
                entry.hash,
            )
        )


def _expected_fields(english: Mapping[str, object]) -> str:
    return "one of " + ", ".join(english) if english else "no fields"


def _apply(item: model.Question, texts: Mapping[str, object]) -> model.Question:
    """``item`` with its texts replaced by ``texts`` (checked paths; absent ones kept)."""

    def get(path: str, default: str) -> str:
        value = texts.get(path, default)
        return value if isinstance(value, str) else default

    def opt(path: str, default: str | None) -> str | None:
        return default if default is None else get(path, default)

    # The fields every question has first, then the type's own: one replace() per step, so
    # that each call's keywords are checked against the type the isinstance() narrowed to.
    item = replace(
        item,
        prompt=get("prompt", item.prompt),
        explanation=get("explanation", item.explanation),
        hint=opt("hint", item.hint),
        hints=tuple(replace(h, text=get(f"hints[{i}]", h.text)) for i, h in enumerate(item.hints)),
        figure=None
        if item.figure is None
        else replace(
            item.figure,
            alt=get("figure.alt", item.figure.alt),
            caption=opt("figure.caption", item.figure.caption),
        ),
    )
    if isinstance(item, model.OrderingQuestion):
        return replace(item, items=tuple(get(f"items[{i}]", t) for i, t in enumerate(item.items)))
    if isinstance(item, model.ChoiceQuestion):
        return replace(
            item,
            options=tuple(
                replace(
                    o,
                    text=get(f"options[{i}].text", o.text),
                    feedback=opt(f"options[{i}].feedback", o.feedback),
                )
                for i, o in enumerate(item.options)
            ),
        )
    if isinstance(item, model.FillQuestion):
        blanks = []
        for i, blank in enumerate(item.blanks):
            answers = texts.get(f"blanks[{i}].answers")
            if isinstance(answers, list) and answers:
                # The English answers stay accepted: code and names are the same in both.
                merged = tuple(dict.fromkeys([*map(str, answers), *blank.answers]))
                blank = replace(blank, answers=merged)
            blanks.append(blank)
        return replace(item, blanks=tuple(blanks))
    if isinstance(item, model.MatchingQuestion):
        return replace(
            item,
            pairs=tuple(
                model.Pair(get(f"pairs[{i}].left", p.left), get(f"pairs[{i}].right", p.right))
                for i, p in enumerate(item.pairs)
            ),
            distractors=tuple(get(f"distractors[{i}]", d) for i, d in enumerate(item.distractors)),
        )
    if isinstance(item, model.NumericQuestion):
        return replace(item, unit=opt("unit", item.unit))
    if isinstance(item, model.ComputedQuestion):
        return replace(
            item,
            unit=opt("unit", item.unit),
            misconceptions=tuple(
                replace(m, feedback=get(f"misconceptions[{i}].feedback", m.feedback))
                for i, m in enumerate(item.misconceptions)
            ),
        )
    return item


def _translate_bank(
    bank: model.Bank, path: Path, stale: list[BankProblem]
) -> tuple[model.Bank | None, list[BankProblem]]:
    name = str(path)
    reader = _Reader(name)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None, [
            BankProblem(
                name,
                None,
                None,
                f"no translation of bank '{bank.id}' ({bank.path}): expected this file",
                field="bank",
            )
        ]
    root, _text, problems = yamlsource.load(data, name)
    if not isinstance(root, yamlsource.YMap):
        if not problems:
            problems = [
                BankProblem(
                    name,
                    1,
                    1,
                    "expected a mapping with bank, title and questions",
                    expected="a mapping",
                )
            ]
        return None, problems
    reader.problems.extend(problems)
    for key, top in root.entries.items():
        if key not in TOP_KEYS:
            reader.problem(
                top.key_mark,
                f"unknown key '{key}' (keys: {', '.join(TOP_KEYS)})",
                field=key,
                expected=", ".join(TOP_KEYS),
                found=key,
            )
    bank_node = root.get("bank")
    if not isinstance(bank_node, yamlsource.YScalar) or bank_node.value != bank.id:
        found = bank_node.text if isinstance(bank_node, yamlsource.YScalar) else "none"
        reader.problem(
            bank_node.mark if bank_node else root.mark,
            f"expected bank: {bank.id} (the English bank's id), found {found}",
            field="bank",
            expected=bank.id,
            found=found,
        )
    title = root.get("title")
    title_hash = root.get("en")
    if not isinstance(title, yamlsource.YScalar) or not isinstance(title.value, str):
        reader.problem(
            root.mark,
            "missing translation of 'title'",
            field="title",
            expected="the bank's title",
            found="none",
        )
        translated_title = bank.title
    else:
        translated_title = title.value
        if left_in_english(bank.title, title.value):
            reader.problem(
                title.mark,
                "untranslated: the same text as the English",
                field="title",
                expected="a translation",
                found="the English",
            )
        stored = str(title_hash.value) if isinstance(title_hash, yamlsource.YScalar) else None
        if stored != source_hash(bank.title):
            stale.append(
                BankProblem(
                    name,
                    title.mark.line,
                    title.mark.column,
                    f"older than its English (the English title is now {source_hash(bank.title)}):"
                    " bring it up to date, then run konum check --update-hashes",
                    None,
                    "en",
                    source_hash(bank.title),
                    stored,
                )
            )

    items: dict[str, model.Question | model.Flashcard] = {q.id: q for q in bank.questions}
    items.update({fc.id: fc for fc in bank.flashcards})
    seen: dict[str, Entry] = {}
    for section in ("questions", "flashcards"):
        for entry in reader.entries(root, section):
            original = items.get(entry.id)
            at = yamlsource.Mark(entry.line, entry.column)
            if entry.id in seen:
                reader.problem(
                    at,
                    f"duplicate entry: '{entry.id}' is translated at line "
                    f"{seen[entry.id].line} already",
                    question_id=entry.id,
                    field="id",
                )
                continue
            if original is None or (section == "flashcards") != isinstance(
                original, model.Flashcard
            ):
                reader.problem(
                    at,
                    f"no English {section[:-1]} '{entry.id}' in {bank.path}",
                    question_id=entry.id,
                    field="id",
                    expected=f"an id of {bank.path}",
                    found=entry.id,
                )
                continue
            seen[entry.id] = entry
            _compare(reader, entry, english_fields(original), stale)
    for ident in items:
        if ident not in seen:
            reader.problem(
                root.mark,
                f"no translation of '{ident}'",
                question_id=ident,
                expected=f"an entry for every id of {bank.path}",
                found="none",
            )
    if reader.problems:
        return None, reader.problems
    questions = tuple(_apply(q, seen[q.id].texts) for q in bank.questions)
    flashcards = tuple(
        replace(
            fc,
            front=str(seen[fc.id].texts.get("front", fc.front)),
            back=str(seen[fc.id].texts.get("back", fc.back)),
        )
        for fc in bank.flashcards
    )
    return replace(bank, title=translated_title, questions=questions, flashcards=flashcards), []


def translation_path(folder: Path, bank: model.Bank) -> Path:
    """Where ``bank``'s translation lives in ``folder``: ``<folder>/<bank file name>``."""
    return folder / Path(bank.path).name


def check_translations(
    banks: Iterable[model.Bank], folder: Path, *, complete: bool = True
) -> TranslationReport:
    """Check the translations of ``banks`` in ``folder`` and apply them; with ``complete``
    (``banks`` are all the course's), a file in ``folder`` that translates none is reported.

    Returns:
        The translated banks (in ``banks``' order; a bank whose translation has problems is
        left out), every problem, and the entries older than their English.
    """
    banks = tuple(banks)
    translated: list[model.Bank] = []
    problems: list[BankProblem] = []
    stale: list[BankProblem] = []
    files: list[str] = []
    known = {translation_path(folder, b).name for b in banks}
    for bank in banks:
        path = translation_path(folder, bank)
        files.append(str(path))
        result, found = _translate_bank(bank, path, stale)
        problems.extend(found)
        if result is not None:
            translated.append(result)
    for path in sorted(folder.glob("*.yml")) if complete and folder.is_dir() else []:
        if path.name not in known:
            files.append(str(path))
            problems.append(
                BankProblem(
                    str(path),
                    None,
                    None,
                    f"a translation of no bank: there is no {path.name} among the English banks",
                    field="bank",
                )
            )
    return TranslationReport(tuple(translated), tuple(problems), tuple(stale), tuple(files))


def update_hashes(banks: Sequence[model.Bank], folder: Path) -> list[str]:
    """Record the current English hash (``en``) of every entry of the translations of
    ``banks`` in ``folder``, keeping the rest of each file as written.

    Returns:
        The files changed.
    """
    changed = []
    for bank in banks:
        path = translation_path(folder, bank)
        if not path.is_file():
            continue
        text = path.read_text(encoding="utf-8")
        root, _ = yamlsource.parse(text, str(path))
        if not isinstance(root, yamlsource.YMap):
            continue
        items: dict[str, model.Question | model.Flashcard] = {q.id: q for q in bank.questions}
        items.update({fc.id: fc for fc in bank.flashcards})
        edits: list[tuple[int, str, yamlsource.YMap, str]] = []  # line, id, entry, hash
        title = root.get("title")
        if isinstance(title, yamlsource.YScalar):
            edits.append((title.mark.line, "", root, source_hash(bank.title)))
        for section in ("questions", "flashcards"):
            seq = root.get(section)
            for item in seq.items if isinstance(seq, yamlsource.YSeq) else ():
                if not isinstance(item, yamlsource.YMap):
                    continue
                ident = item.get("id")
                if isinstance(ident, yamlsource.YScalar) and str(ident.value) in items:
                    value = source_hash(english_fields(items[str(ident.value)]))
                    edits.append((ident.mark.line, str(ident.value), item, value))
        lines = text.splitlines(keepends=True)
        for line, _ident, node, value in sorted(edits, key=lambda e: -e[0]):
            stored = node.get("en")
            if isinstance(stored, yamlsource.YScalar):
                i = stored.mark.line - 1
                lines[i] = re.sub(r"(\ben:\s*)\S+", rf"\g<1>{value}", lines[i], count=1)
            else:
                # After the id line (an entry) or before the title (the bank), same indent.
                anchor = node.entries["id" if _ident else "title"].key_mark
                indent = " " * (anchor.column - 1)
                at = line if _ident else line - 1
                lines.insert(at, f"{indent}en: {value}\n")
        new = "".join(lines)
        if new != text:
            path.write_text(new, encoding="utf-8")
            changed.append(str(path))
    return changed
