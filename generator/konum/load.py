"""Loading bank files into typed questions: pure (files read, nothing run, nothing stored).

:func:`load_files` reads every file, reads each question with its type's
:meth:`~konum.types.Question.read`, then checks what needs all of them (ids unique across
banks), and reports every problem of every file. What running, drawing and rendering find
is the check stage's (:mod:`konum.check`), which takes what this returns.

A page is a bank too when it holds ``/// question`` blocks (:func:`load_page`): each block
is one question written in the bank format, the page's questions are the bank's, its id is
the page's path (:func:`page_bank_id`) and its title the page's first heading.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path

from konum import limits, yamlsource
from konum.blocks import question_blocks, question_pages
from konum.common_fields import COMMON_FIELDS, common
from konum.fields import Reader
from konum.files import input_problem
from konum.formatting import SLUG, did_you_mean, slugify
from konum.located import IdUse, TextUse
from konum.model import Flashcard, Source
from konum.paths import shown
from konum.plugins import NONE, Plugins
from konum.problems import BankProblem
from konum.types import TYPES, Bank, Question, site_types
from konum.yamlsource import YMap, YNode

PathLike = str | Path

#: Where banks live, relative to the project root.
DEFAULT_ROOT = "content/banks"


#: The suffix of a bank file. Other spellings (``.yaml``, ``.YML``) are found and reported,
#: never read and never ignored: the quiz blocks and ``konum serve`` know banks by
#: ``<bank>.yml``, and a bank one command reads and another ignores would be worse.
BANK_SUFFIX = ".yml"


def is_bank_candidate(path: Path) -> bool:
    """True for a visible regular file (symlinks followed) named like a bank, in any case and
    with ``.yml`` or ``.yaml``. Hidden files (an editor's ``.#forces.yml`` lock, often a dangling
    link, ``.forces.yml.swp``...) and dangling links are not banks."""
    return (
        not path.name.startswith(".")
        and path.suffix.lower() in {".yml", ".yaml"}
        and path.is_file()
    )


def bank_files(folder: PathLike) -> list[Path]:
    """The bank candidates of ``folder`` (see :func:`is_bank_candidate`), sorted by name;
    none when the folder cannot be listed."""
    try:
        return sorted(p for p in Path(folder).iterdir() if is_bank_candidate(p))
    except OSError:
        return []


def discover(paths: Sequence[PathLike] | None = None, root: PathLike = DEFAULT_ROOT) -> list[Path]:
    """The bank files to check.

    Args:
        paths: files or directories; None (or empty) means ``root``.
        root: the default directory.

    Returns:
        Directories expanded to their bank candidates (:func:`bank_files`: ``*.yml``, and
        ``*.yaml`` so that loading reports it, without hidden files or dangling links); files
        kept as given. A missing path, or a directory without bank files, is returned
        unchanged so that loading reports it as a problem (never a traceback). Duplicates
        are dropped.
    """
    result: list[Path] = []
    seen: set[Path] = set()
    for item in paths or [root]:
        path = Path(item)
        found = bank_files(path) if path.is_dir() else []
        for candidate in found or [path]:
            key = candidate.resolve()
            if key not in seen:
                seen.add(key)
                result.append(candidate)
    return result


BANK_FIELDS = ("bank", "title", "questions", "flashcards")
FLASHCARD_FIELDS = ("id", "front", "back", "tags")


@dataclass(frozen=True)
class Loaded:
    """One bank file as loaded.

    Attributes:
        file: the file's name, as given.
        bank: the bank with every question that was read without a problem (None when the
            file has no bank at all); whole only when ``problems`` is empty.
        problems: every problem in the file.
        texts: every Markdown text read, with where it was written (for the check stage).
        root: the file's YAML nodes (to place the check stage's problems); lines: its text.
    """

    file: str
    bank: Bank | None
    problems: tuple[BankProblem, ...]
    texts: tuple[TextUse, ...] = ()
    root: YNode | None = None
    lines: tuple[str, ...] = ()
    ids: tuple[IdUse, ...] = ()
    bank_id: IdUse | None = None


def _read(path: Path, name: str, project: Path) -> tuple[bytes | None, list[BankProblem]]:
    problem = input_problem(path, project.resolve(), "bank", limits.YAML_BYTES)
    if problem is not None:
        limit = f"at most {limits.YAML_BYTES:,} bytes"
        large = problem.startswith("file is too large")
        found = f"{path.stat().st_size:,} bytes" if large else None
        return None, [
            BankProblem(name, None, None, problem, expected=limit if large else None, found=found)
        ]
    if path.is_dir():
        return None, [BankProblem(name, None, None, "a directory without any .yml bank file")]
    if path.suffix != BANK_SUFFIX and path.suffix.lower() in {".yml", ".yaml"}:
        rename = path.with_suffix(BANK_SUFFIX).name
        return None, [
            BankProblem(
                name,
                None,
                None,
                f"not read: bank files end in {BANK_SUFFIX}, found {path.suffix}; rename it"
                f" to {rename}",
                expected=BANK_SUFFIX,
                found=path.suffix,
            )
        ]
    try:
        return path.read_bytes(), []
    except OSError as exc:
        return None, [BankProblem(name, None, None, f"cannot read the file: {exc.strerror}")]


_ITEM_PATH = re.compile(r"(questions|flashcards)\[(\d+)\](?:\.(.*))?")


def _attach_ids(problems: list[BankProblem], root: YNode | None) -> list[BankProblem]:
    """Give YAML-level problems (duplicate keys, tags) the id of the question they are in,
    and a field path relative to it, like the readers' own problems."""
    if not isinstance(root, YMap):
        return problems
    ids: dict[tuple[str, int], str] = {}
    for section in ("questions", "flashcards"):
        seq = root.get(section)
        for i, item in enumerate(seq.items if isinstance(seq, yamlsource.YSeq) else ()):
            node = item.get("id") if isinstance(item, YMap) else None
            if isinstance(node, yamlsource.YScalar) and SLUG.fullmatch(str(node.value)):
                ids[(section, i)] = str(node.value)
    result = []
    for problem in problems:
        match = _ITEM_PATH.fullmatch(problem.field or "")
        ident = ids.get((match.group(1), int(match.group(2)))) if match else None
        if match and ident and problem.question_id is None:
            problem = replace(problem, question_id=ident, field=match.group(3))
        result.append(problem)
    return result


#: The question types a reader knows, by the name banks write (:func:`konum.types.site_types`).
Types = Mapping[str, type[Question]]


def _elsewhere(kind: type[Question], types: Types) -> dict[str, str]:
    """For a question of type ``kind``: why each field of the other types is not its own."""
    allowed = COMMON_FIELDS + kind.FIELDS
    owners: dict[str, list[str]] = {}
    for name, other in types.items():
        for key in other.FIELDS:
            owners.setdefault(key, []).append(name)
    return {
        key: f"only {' and '.join(names)} questions have it (this question is '{kind.type}')"
        for key, names in owners.items()
        if key not in allowed
    }


def _all_fields(types: Types) -> tuple[str, ...]:
    return tuple(dict.fromkeys([*COMMON_FIELDS, *(f for k in types.values() for f in k.FIELDS)]))


def _duplicate_id(use: IdUse, file: str, first: str) -> BankProblem:
    """The problem of ``use``, an id already used at ``first`` (``line 4``, or the file and
    line of another bank), reported in ``file``."""
    return BankProblem(
        file,
        use.mark.line,
        use.mark.column,
        f"duplicate id '{use.id}': already used at {first}",
        question_id=use.id,
        field="id",
        expected="an id used once across all banks",
        found=f"'{use.id}' twice",
    )


class _BankReader(Reader):
    """Reads a whole bank file: its top level, its questions (each by its type), its
    flashcards; ``types``: the site's question types."""

    def __init__(self, file: str, stem: str, text: str, types: Types = TYPES) -> None:
        super().__init__(file, text)
        self.stem = stem
        self.types = types

    def bank(self, root: YNode | None) -> Bank | None:
        if root is None:
            self.problems.append(
                BankProblem(
                    self.file,
                    1,
                    1,
                    "the file is empty: a bank needs 'bank', 'title' and 'questions'",
                    expected="a bank",
                    found="nothing",
                )
            )
            return None
        if not self.mapping(
            root, "", "a bank file must be a mapping with 'bank', 'title' and 'questions'"
        ):
            return None
        self.check_keys(root, "", BANK_FIELDS)
        bank_id = self.text(root, "bank", "", required=True)
        bank_node = root.get("bank")
        if bank_id is not None and bank_node is not None:
            if not SLUG.fullmatch(bank_id):
                self.problem(
                    bank_node.mark,
                    "bank",
                    "bank id is not a slug",
                    expected="lowercase letters a-z, digits and single hyphens",
                    found=f"'{bank_id}'",
                )
            elif bank_id != self.stem:
                self.problem(
                    bank_node.mark,
                    "bank",
                    "the bank id must equal the file name without .yml",
                    expected=f"'{self.stem}'",
                    found=f"'{bank_id}'",
                )
        title = self.text(root, "title", "", required=True, markdown=True)
        questions: list[Question] = []
        seq = self.sequence(root, "questions", "", required=True)
        if seq is not None:
            self.empty(seq, "questions", "the bank has no questions", "at least one question")
            for i, item in enumerate(seq.items):
                question = self.question(item, i, bank_id or self.stem)
                if question is not None:
                    questions.append(question)
        cards: list[Flashcard] = []
        card_seq = self.sequence(root, "flashcards", "", required=False)
        for i, item in enumerate(card_seq.items if card_seq is not None else ()):
            card = self.flashcard(item, i, bank_id or self.stem)
            if card is not None:
                cards.append(card)
        self.check_duplicate_ids()
        if bank_id is None or title is None:
            return None
        return Bank(bank_id, title, self.file, tuple(questions), tuple(cards))

    def check_duplicate_ids(self) -> None:
        seen: dict[str, IdUse] = {}
        for use in self.ids:
            first = seen.setdefault(use.id, use)
            if first is not use:
                self.problems.append(_duplicate_id(use, self.file, f"line {first.mark.line}"))

    def flashcard(self, node: YNode, index: int, bank: str) -> Flashcard | None:
        self.qid, self.prefix = None, f"flashcards[{index}]."
        try:
            if not self.mapping(
                node, "", "each flashcard must be a mapping with id, front and back"
            ):
                return None
            ident = self.identifier(node, "", "flashcard")
            self.qid = ident
            self.check_keys(node, "", FLASHCARD_FIELDS)
            front = self.text(node, "front", "", required=True, markdown=True)
            back = self.text(node, "back", "", required=True, markdown=True)
            tags = self.tags(node, "")
            if ident is None or front is None or back is None:
                return None
            source = Source(self.file, node.mark.line, node.mark.column)
            return Flashcard(ident, bank, front, back, source, tags)
        finally:
            self.qid, self.prefix = None, ""

    def question(self, node: YNode, index: int, bank: str) -> Question | None:
        self.qid, self.prefix = None, f"questions[{index}]."
        try:
            if not self.mapping(
                node, "", "each question must be a mapping (id, type, prompt, ...)"
            ):
                return None
            start = self.count()
            self.qid = self.identifier(node, "", "question")
            kind = self.question_type(node)
            if kind is None:
                self.check_keys(node, "", _all_fields(self.types))
            else:
                fields = COMMON_FIELDS + kind.FIELDS
                self.check_keys(node, "", fields, _elsewhere(kind, self.types))
            if node.get("type") is None:  # after the keys: 'tpye' is the one problem
                self.missing(node, "", "type", "one of " + ", ".join(self.types))
            # With no known type, a field only some types require is not reported missing:
            # the type's own problem says what is wrong.
            shared = common(
                self, node, bank, prompt_required=kind is not None and kind.PROMPT_REQUIRED
            )
            built = kind.read(self, node, shared) if kind is not None else None
            return built if self.count() == start else None
        finally:
            self.qid, self.prefix = None, ""

    def question_type(self, node: YMap) -> type[Question] | None:
        names = tuple(self.types)
        value = node.get("type")
        if value is None:  # reported by question(), after the keys
            return None
        name = self.as_text(value, "type")
        if name is None:
            return None
        if name not in self.types:
            self.problem(
                value.mark,
                "type",
                f"unknown question type '{name}'{did_you_mean(name, names, cutoff=0.5)}",
                expected="one of " + ", ".join(names),
                found=f"'{name}'",
            )
            return None
        return self.types[name]


def load_file(path: PathLike, project: Path | None = None, types: Types = TYPES) -> Loaded:
    """One bank file, read and loaded (:class:`Loaded`); ids are checked within the file
    only. ``project``: the folder a bank file may not leave through a link (that of
    ``mkdocs.yml``; default the working directory); ``types``: the site's question types
    (:func:`konum.types.site_types`; default the built-in ones)."""
    path = Path(path)
    name = str(path)
    data, problems = _read(path, name, (project or Path.cwd()).resolve())
    if data is None:
        return Loaded(name, None, tuple(problems))
    root, text, problems = yamlsource.load(data, name)
    if text is None:
        return Loaded(name, None, tuple(problems))
    problems = _attach_ids(problems, root)
    reader = _BankReader(name, path.stem, text, types)
    # Read what parsed even after YAML-level problems (duplicate keys, tags), so that one
    # run reports everything; a document that did not parse at all is not read.
    bank = reader.bank(root) if root is not None or not problems else None
    bank_id = None
    if isinstance(root, YMap):
        node = root.get("bank")
        if isinstance(node, yamlsource.YScalar) and isinstance(node.value, str):
            bank_id = IdUse(node.value, name, node.mark)
    return Loaded(
        name,
        bank,
        tuple(problems + reader.problems),
        tuple(reader.texts),
        root,
        tuple(reader.lines),
        tuple(reader.ids),
        bank_id,
    )


def _cross_bank(results: Sequence[Loaded]) -> list[BankProblem]:
    problems: list[BankProblem] = []
    first: dict[str, IdUse] = {}
    for result in results:
        local: set[str] = set()
        for use in result.ids:
            if use.id in local:
                continue  # reported by the file's own check
            local.add(use.id)
            earlier = first.setdefault(use.id, use)
            if earlier is not use:
                problems.append(_duplicate_id(use, use.file, earlier.where()))
    banks: dict[str, IdUse] = {}
    for result in results:
        if result.bank_id is None:
            continue
        earlier = banks.setdefault(result.bank_id.id, result.bank_id)
        if earlier is not result.bank_id:
            problems.append(
                BankProblem(
                    result.file,
                    result.bank_id.mark.line,
                    result.bank_id.mark.column,
                    f"duplicate bank id '{earlier.id}': already used by {earlier.file}",
                    field="bank",
                )
            )
    return problems


def page_bank_id(page: Path, pages: Path) -> str:
    """The bank id of the questions written in ``page`` (a file below ``pages``): its path
    without ``.md`` as a slug, ``lessons/Motion.md`` gives ``lessons-motion``. The same
    path in another edition's pages gives the same id."""
    return slugify(page.relative_to(pages).with_suffix("").as_posix()) or "page"


def is_page_bank(bank: Bank) -> bool:
    """Whether ``bank`` holds the questions written in a page (a translation's edition has
    its own page, so such a bank is never translated from a file)."""
    return Path(bank.path).suffix == ".md"


def load_page(page: Path, pages: Path, types: Types = TYPES) -> Loaded | None:
    """The questions written in ``page`` as a bank (None when it has no ``/// question``
    block): each block's lines read as one question of a bank file, every problem at the
    page's own line and column. The page is named from the working folder when inside it
    (``docs/index.md:7:1: ...``), as MkDocs' pages are."""
    name = str(shown(page.absolute(), Path.cwd()))
    try:
        text = page.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return Loaded(name, None, (BankProblem(name, None, None, f"cannot read the page: {exc}"),))
    lines = text.splitlines()
    blocks = question_blocks(lines)
    if not blocks:
        return None
    bank_id = page_bank_id(page, pages)
    reader = _BankReader(name, bank_id, text, types)
    problems: list[BankProblem] = []
    nodes: list[YNode] = []
    questions: list[Question] = []
    for first, end in blocks:
        if end == len(lines):
            problems.append(BankProblem(name, first + 1, 1, "no '///' line closes the block"))
        # Blank lines above the block's own keep the page's line numbers in every mark.
        body = "\n" * (first + 1) + "\n".join(lines[first + 1 : end]) + "\n"
        node, _, found = yamlsource.load(body.encode("utf-8"), name)
        problems += found
        if node is None and not found:
            problems.append(
                BankProblem(
                    name,
                    first + 1,
                    1,
                    "the block holds no question: write one "
                    "question in the bank format (id, type, prompt, ...) inside it",
                )
            )
            continue
        if node is not None:
            question = reader.question(node, len(nodes), bank_id)
            nodes.append(node)
            questions += [question] if question is not None else []
    reader.check_duplicate_ids()
    heading = next((line[2:].strip() for line in lines if line.startswith("# ")), "")
    mark = yamlsource.Mark(1, 1)
    root = YMap(mark, {"questions": yamlsource.YEntry(mark, yamlsource.YSeq(mark, nodes))})
    return Loaded(
        name,
        Bank(bank_id, heading or page.stem, name, tuple(questions)),
        tuple(problems + reader.problems),
        tuple(reader.texts),
        root,
        tuple(reader.lines),
        tuple(reader.ids),
        IdUse(bank_id, name, mark),
    )


#: What :func:`load_files` may reuse across calls (``konum serve``'s rebuilds): by file and
#: the folders it was loaded with, the file's stamp (modification time, size, inode) when it
#: was loaded and what loading it gave (None: a page without questions).
Kept = dict[tuple[object, ...], tuple[tuple[int, int, int], "Loaded | None"]]


def _kept(
    kept: Kept | None,
    path: Path,
    where: tuple[Path | None, Path | None, Types],
    load: Callable[[], Loaded | None],
) -> Loaded | None:
    if kept is None:
        return load()
    try:
        stat = path.stat()
    except OSError:
        return load()
    key, stamp = (
        (str(path), str(where[0]), str(where[1]), *((k, id(v)) for k, v in where[2].items())),
        (stat.st_mtime_ns, stat.st_size, stat.st_ino),
    )
    if key in kept and kept[key][0] == stamp:
        return kept[key][1]
    item = load()
    kept[key] = (stamp, item)
    return item


def load_files(
    paths: PathLike | Sequence[PathLike] | None = None,
    root: PathLike = DEFAULT_ROOT,
    *,
    project: Path | None = None,
    pages: Path | None = None,
    skip_pages: Sequence[Path] = (),
    kept: Kept | None = None,
    plugins: Plugins = NONE,
) -> tuple[tuple[Loaded, ...], tuple[str, ...], tuple[BankProblem, ...]]:
    """Every bank file of ``paths`` (files or folders; None: ``root``) and every page below
    ``pages`` (but those below ``skip_pages``: see :func:`question_pages`) that holds
    questions loaded, the files' names, and the problems of what needs them all (ids unique
    across banks). With questions in pages, a missing banks folder is no problem: such a
    site needs no bank file. Questions are read by the types of the site's ``plugins``
    (:func:`konum.types.site_types`). With ``kept``, a file unchanged since it was loaded
    into it (by the same types) is not read again: the same :class:`Loaded` is returned.

    Raises:
        konum.plugins.PluginError: a plugin's type that konum cannot use.
    """
    if isinstance(paths, (str, Path)):
        paths = [paths]
    types = site_types(plugins)
    where = (project, pages, types)
    found = (
        (
            _kept(kept, f, where, partial(load_page, f, pages, types))
            for f in question_pages(pages, skip_pages)
        )
        if pages is not None
        else ()
    )
    in_pages = [page for page in found if page is not None]
    files = [f for f in discover(paths, root) if f.exists() or not in_pages]
    read = (_kept(kept, f, where, partial(load_file, f, project, types)) for f in files)
    loaded = (*(item for item in read if item is not None), *in_pages)
    names = tuple(item.file for item in loaded)
    return loaded, names, tuple(_cross_bank(loaded))
