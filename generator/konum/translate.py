"""Translations of banks: one file per bank and language, keyed by question id.

A translation of ``content/banks/forces.yml`` is ``<translations>/forces.yml`` (a Turkish
edition's are, say, ``content/tr/banks/``, named by the extension's ``translations`` option
in ``mkdocs.tr.yml``). It mirrors the bank's shape and holds only the words::

    bank: forces
    en: 5d41402a          # hash of the English title
    title: Kuvvetler
    questions:
      - id: forces-second-law
        en: 9b2c0f1e      # hash of the English this entry translates
        prompt: Newton'un ikinci yasası neyi söyler?
        options:          # as many as the English, in the English order
          - text: ...
            feedback: ...
        explanation: ...
    flashcards:
      - id: forces-fc-unit
        en: 0c1d2e3f
        front: ...
        back: ...
    tags:                 # optional: the cards' tags in the language, by tag
      forces: kuvvetler

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
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from konum import limits, yamlsource
from konum.fields import Reader
from konum.files import input_problem
from konum.formatting import BLANK
from konum.located import TextUse, Written, describe
from konum.model import Flashcard
from konum.problems import BankProblem
from konum.types import Bank, Question

#: Length of the hashes stored in translation files (hex digits of SHA-256).
HASH_LENGTH = 8

#: The keys a translation file's top level may have.
TOP_KEYS = ("bank", "en", "title", "tags", "questions", "flashcards")

_MATH_OR_CODE = re.compile(
    r"```.*?```|`[^`\n]*`|\$\$.*?\$\$|\$[^$\n]*\$|\\\(.*?\\\)|<[^>\n]*>", re.DOTALL
)
_WORD = re.compile(r"\b[a-z]{3,}\b")


def english_fields(item: Question | Flashcard) -> dict[str, object]:
    """The English text fields a translation of ``item`` gives, by field path.

    Paths are those of the bank (``options[1].feedback``), but a hint is ``hints[i]`` (its
    text: a cost is not translated); ``blanks[i].answers`` (a list) are the only optional
    ones. Empty or absent English fields are not listed.
    """
    if isinstance(item, Flashcard):
        return {
            path: text
            for path, text in (("front", item.front), ("back", item.back))
            if text.strip()
        }
    return item.translatable()


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
    nodes: dict[str, yamlsource.YNode]
    column: int = 1

    def mark(self, path: str) -> yamlsource.Mark:
        """Where field ``path`` was written (the entry's start when it was not)."""
        node = self.nodes.get(path)
        return node.mark if node is not None else yamlsource.Mark(self.line, self.column)


@dataclass(frozen=True)
class TranslationReport:
    """Checking translations: the translated banks, every problem, and the entries older
    than their English (``stale``; the texts are still used)."""

    banks: tuple[Bank, ...]
    problems: tuple[BankProblem, ...]
    stale: tuple[BankProblem, ...]
    files: tuple[str, ...]
    #: The translated Markdown texts, where they were written (for the check stage).
    written: tuple[Written, ...] = ()


class _Reader(Reader):
    """Turns one translation file's nodes into entries, collecting shape problems: the bank
    reader (:class:`konum.fields.Reader`), its problems placed the same way."""

    def about(self, qid: str | None) -> _Reader:
        """This reader, its next problems about entry ``qid`` (None: the file's top)."""
        self.qid = qid
        return self

    def flatten(
        self,
        node: yamlsource.YNode,
        path: str,
        ident: str,
        out: dict[str, object],
        nodes: dict[str, yamlsource.YNode],
    ) -> None:
        """Flatten ``node`` into ``out`` by field path (``options[0].text``)."""
        if isinstance(node, yamlsource.YMap):
            for key, entry in node.entries.items():
                self.flatten(entry.value, f"{path}.{key}" if path else key, ident, out, nodes)
        elif isinstance(node, yamlsource.YSeq):
            if path.endswith(".answers") or path == "answers":
                values = []
                for item in node.items:
                    if isinstance(item, yamlsource.YScalar) and item.value is not None:
                        values.append(str(item.value))
                    else:
                        self.about(ident).problem(
                            item.mark, path, "wrong type", "an answer (text)", describe(item)
                        )
                out[path] = values
                nodes[path] = node
                return
            for i, item in enumerate(node.items):
                self.flatten(item, f"{path}[{i}]", ident, out, nodes)
        elif isinstance(node.value, str):
            out[path] = node.value
            nodes[path] = node
        else:
            self.about(ident).problem(node.mark, path, "wrong type", "text", repr(node.text))

    def entries(self, root: yamlsource.YMap, section: str) -> list[Entry]:
        seq = root.get(section)
        if seq is None:
            return []
        if not isinstance(seq, yamlsource.YSeq):
            self.about(None).problem(
                seq.mark, section, "wrong type", "a list of entries with ids", _kind(seq)
            )
            return []
        result = []
        for i, item in enumerate(seq.items):
            ident_node = item.get("id") if isinstance(item, yamlsource.YMap) else None
            if not isinstance(item, yamlsource.YMap) or not isinstance(
                ident_node, yamlsource.YScalar
            ):
                self.about(None).problem(
                    item.mark,
                    f"{section}[{i}]",
                    "each entry needs an id",
                    "id: QUESTION-ID",
                    _kind(item),
                )
                continue
            ident = str(ident_node.value)
            hash_node = item.get("en")
            # As written: a hash of digits 0-7 after a 0 would read back as an octal number.
            stored = hash_node.text if isinstance(hash_node, yamlsource.YScalar) else None
            texts: dict[str, object] = {}
            nodes: dict[str, yamlsource.YNode] = {}
            for key, entry in item.entries.items():
                if key not in ("id", "en"):
                    self.flatten(entry.value, key, ident, texts, nodes)
            result.append(Entry(ident, stored, texts, item.mark.line, nodes, item.mark.column))
        return result


#: A text left as the English wrote it: the problem, what was expected and what was found.
_UNTRANSLATED = ("untranslated", "a translation", "the same text as the English")


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
                reader.about(entry.id).problem(
                    where,
                    path,
                    f"missing translation of '{path}'",
                    "a translation of every English field",
                    "none",
                )
        elif isinstance(text, str) and left_in_english(text, str(entry.texts[path])):
            reader.about(entry.id).problem(entry.mark(path), path, *_UNTRANSLATED)
    for path in entry.texts:
        if path not in english:
            reader.about(entry.id).problem(
                entry.mark(path),
                path,
                f"no English field '{path}' to translate",
                _expected_fields(english),
                path,
            )
    prompt = entry.texts.get("prompt")
    blanks = sum(1 for p in english if p.startswith("blanks["))
    if blanks and isinstance(prompt, str) and len(BLANK.findall(prompt)) != blanks:
        reader.about(entry.id).problem(
            entry.mark("prompt"),
            "prompt",
            "not the English's blanks (____)",
            f"{blanks} blanks",
            str(len(BLANK.findall(prompt))),
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


def _translate_bank(
    bank: Bank, path: Path, stale: list[BankProblem], project: Path
) -> tuple[Bank | None, list[BankProblem], Written | None]:
    name = str(path)
    reader = _Reader(name)
    problem = input_problem(path, project, "translation", limits.YAML_BYTES)
    if problem is not None and path.exists():
        return None, [BankProblem(name, None, None, problem)], None
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return (
            None,
            [
                BankProblem(
                    name,
                    None,
                    None,
                    f"no translation of bank '{bank.id}' ({bank.path}): expected this file",
                    field="bank",
                )
            ],
            None,
        )
    root, text, problems = yamlsource.load(data, name)
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
        return None, problems, None
    reader.problems.extend(problems)
    reader.about(None).check_keys(root, "", TOP_KEYS)
    bank_node = root.get("bank")
    if not isinstance(bank_node, yamlsource.YScalar) or bank_node.value != bank.id:
        found = bank_node.text if isinstance(bank_node, yamlsource.YScalar) else "none"
        reader.about(None).problem(
            bank_node.mark if bank_node else root.mark,
            "bank",
            "wrong bank",
            f"{bank.id} (the English bank's id)",
            found,
        )
    title = root.get("title")
    title_hash = root.get("en")
    if not isinstance(title, yamlsource.YScalar) or not isinstance(title.value, str):
        reader.about(None).problem(
            root.mark, "title", "missing translation of 'title'", "the bank's title", "none"
        )
        translated_title = bank.title
    else:
        translated_title = title.value
        if left_in_english(bank.title, title.value):
            reader.about(None).problem(title.mark, "title", *_UNTRANSLATED)
        stored = title_hash.text if isinstance(title_hash, yamlsource.YScalar) else None
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

    items: dict[str, Question | Flashcard] = {q.id: q for q in bank.questions}
    items.update({fc.id: fc for fc in bank.flashcards})
    seen: dict[str, Entry] = {}
    for section in ("questions", "flashcards"):
        for entry in reader.entries(root, section):
            original = items.get(entry.id)
            at = yamlsource.Mark(entry.line, entry.column)
            if entry.id in seen:
                reader.about(entry.id).problem(
                    at,
                    "id",
                    f"duplicate entry: '{entry.id}' is translated at line "
                    f"{seen[entry.id].line} already",
                )
                continue
            if original is None or (section == "flashcards") != isinstance(original, Flashcard):
                reader.about(entry.id).problem(
                    at,
                    "id",
                    f"no English {section[:-1]} '{entry.id}' in {bank.path}",
                    f"an id of {bank.path}",
                    entry.id,
                )
                continue
            seen[entry.id] = entry
            _compare(reader, entry, english_fields(original), stale)
    for ident in items:
        if ident not in seen:
            reader.about(ident).problem(
                root.mark,
                "",
                f"no translation of '{ident}'",
                f"an entry for every id of {bank.path}",
                "none",
            )
    if reader.problems:
        return None, reader.problems, None
    texts = (
        [TextUse(None, "title", str(title.value), title)]
        if isinstance(title, yamlsource.YScalar)
        else []
    )
    originals: tuple[Question | Flashcard, ...] = (*bank.questions, *bank.flashcards)
    for original in originals:
        entry = seen[original.id]
        markdown = set(original.texts()) if isinstance(original, Question) else {"front", "back"}
        for field_path, node in entry.nodes.items():
            value = entry.texts.get(field_path)
            if (
                field_path in markdown
                and isinstance(value, str)
                and isinstance(node, yamlsource.YScalar)
            ):
                texts.append(TextUse(entry.id, field_path, value, node))
    written = Written(name, tuple((text or "").split("\n")), tuple(texts))
    names = root.get("tags")
    named = {t: names.get(t) for t in names} if isinstance(names, yamlsource.YMap) else {}
    tag_names = tuple(
        (tag, str(name.value))
        for tag, name in named.items()
        if isinstance(name, yamlsource.YScalar)
    )
    given: dict[tuple[str | None, str], object] = {(None, "title"): translated_title}
    given.update(((i, path), text) for i, e in seen.items() for path, text in e.texts.items())
    translated = replace(bank.with_texts(given), tag_names=tag_names)
    return translated, [], written


def translation_path(folder: Path, bank: Bank) -> Path:
    """Where ``bank``'s translation lives in ``folder``: ``<folder>/<bank file name>``."""
    return folder / Path(bank.path).name


def check_translations(
    banks: Iterable[Bank], folder: Path, *, complete: bool = True, project: Path | None = None
) -> TranslationReport:
    """Check the translations of ``banks`` in ``folder`` and apply them; with ``complete``
    (``banks`` are all the course's), a file in ``folder`` that translates none is reported.
    A file that is a link out of ``project`` (default: the folder above ``folder``), or not
    a regular file, is refused unread.

    Returns:
        The translated banks (in ``banks``' order; a bank whose translation has problems is
        left out), every problem, and the entries older than their English.
    """
    banks = tuple(banks)
    translated: list[Bank] = []
    written: list[Written] = []
    problems: list[BankProblem] = []
    stale: list[BankProblem] = []
    files: list[str] = []
    known = {translation_path(folder, b).name for b in banks}
    root = (project or folder.parent).resolve()
    for bank in banks:
        path = translation_path(folder, bank)
        files.append(str(path))
        result, found, texts = _translate_bank(bank, path, stale, root)
        problems.extend(found)
        if result is not None:
            translated.append(result)
        if texts is not None:
            written.append(texts)
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
    return TranslationReport(
        tuple(translated), tuple(problems), tuple(stale), tuple(files), tuple(written)
    )
