"""Loading bank files: one file, or every bank at once with cross-bank checks.

:func:`load_banks` reads every file, validates each, then checks what needs all of them
(ids unique across banks), and raises one :class:`BankError` with every problem of every
file. :func:`check_banks` does the same without raising, for ``konum check``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from konum import model
from konum.banks import yamlsource
from konum.banks.errors import BankError, BankProblem, sort_problems
from konum.banks.schema import SLUG
from konum.banks.validate import BankValidator, IdUse

PathLike = str | Path

#: Where banks live, relative to the project root.
DEFAULT_ROOT = "content/banks"


#: The suffix of a bank file. Other spellings (``.yaml``, ``.YML``) are found and reported,
#: never read and never ignored: the quiz blocks and ``konum serve`` know banks by
#: ``<bank>.yml``, and a bank one command reads and another ignores would be worse.
BANK_SUFFIX = ".yml"


def is_bank_candidate(path: Path) -> bool:
    """True for a visible regular file (symlinks followed) named like a bank, in any case and
    with ``.yml`` or ``.yaml``. Hidden files (an editor's ``.#rope.yml`` lock, often a dangling
    link, ``.rope.yml.swp``...) and dangling links are not banks."""
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


@dataclass
class _FileResult:
    file: str
    bank: model.Bank | None
    problems: list[BankProblem]
    ids: list[IdUse] = field(default_factory=list)
    bank_id: IdUse | None = None


def _read(path: Path, name: str) -> tuple[bytes | None, list[BankProblem]]:
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
        size = path.stat().st_size
        if size > yamlsource.MAX_BYTES:
            return None, [
                BankProblem(
                    name,
                    None,
                    None,
                    f"file is too large: {size:,} bytes, the limit is {yamlsource.MAX_BYTES:,}",
                    expected=f"at most {yamlsource.MAX_BYTES:,} bytes",
                    found=f"{size:,} bytes",
                )
            ]
        return path.read_bytes(), []
    except FileNotFoundError:
        return None, [BankProblem(name, None, None, "no such file or directory")]
    except OSError as exc:
        return None, [BankProblem(name, None, None, f"cannot read the file: {exc.strerror}")]


_ITEM_PATH = re.compile(r"(questions|flashcards)\[(\d+)\](?:\.(.*))?")


def _attach_ids(problems: list[BankProblem], root: yamlsource.YNode | None) -> list[BankProblem]:
    """Give YAML-level problems (duplicate keys, tags) the id of the question they are in,
    and a field path relative to it, like the validator's own problems."""
    if not isinstance(root, yamlsource.YMap):
        return problems
    ids: dict[tuple[str, int], str] = {}
    for section in ("questions", "flashcards"):
        seq = root.get(section)
        for i, item in enumerate(seq.items if isinstance(seq, yamlsource.YSeq) else ()):
            node = item.get("id") if isinstance(item, yamlsource.YMap) else None
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


def _load_file(path: PathLike, project: Path | None = None) -> _FileResult:
    path = Path(path)
    name = str(path)
    data, problems = _read(path, name)
    if data is None:
        return _FileResult(name, None, problems)
    root, text, problems = yamlsource.load(data, name)
    if text is None:
        return _FileResult(name, None, problems)
    problems = _attach_ids(problems, root)
    validator = BankValidator(name, path.stem, text, project)
    # Validate what parsed even after YAML-level problems (duplicate keys, tags), so that
    # one run reports everything; a document that did not parse at all is not validated.
    bank = validator.run(root) if root is not None or not problems else None
    problems = problems + validator.problems
    bank_id = None
    if isinstance(root, yamlsource.YMap):
        node = root.get("bank")
        if isinstance(node, yamlsource.YScalar) and isinstance(node.value, str):
            bank_id = IdUse(node.value, name, node.mark)
    return _FileResult(name, bank if not problems else None, problems, validator.ids, bank_id)


def _cross_bank(results: Sequence[_FileResult]) -> list[BankProblem]:
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
                problems.append(
                    BankProblem(
                        use.file,
                        use.mark.line,
                        use.mark.column,
                        f"duplicate id '{use.id}': already used at {earlier.where()}",
                        question_id=use.id,
                        field="id",
                        expected="an id used once across all banks",
                        found=f"'{use.id}' twice",
                    )
                )
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


@dataclass(frozen=True)
class CheckReport:
    """The outcome of checking banks: every file, the banks that loaded, every problem."""

    files: tuple[str, ...]
    banks: tuple[model.Bank, ...]
    problems: tuple[BankProblem, ...]

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def questions(self) -> int:
        return sum(len(bank.questions) for bank in self.banks)


def check_banks(
    paths: PathLike | Sequence[PathLike] | None = None,
    root: PathLike = DEFAULT_ROOT,
    *,
    project: Path | None = None,
) -> CheckReport:
    """Load and validate banks without raising; see :func:`load_banks` for the arguments."""
    if isinstance(paths, (str, Path)):
        paths = [paths]
    files = discover(paths, root)
    # Files are independent until the cross-bank checks: two cores read them where possible.
    results = [_load_file(f, project) for f in files]
    names = [r.file for r in results]
    problems = [p for r in results for p in r.problems] + _cross_bank(results)
    banks = tuple(r.bank for r in results if r.bank is not None)
    return CheckReport(tuple(names), banks, tuple(sort_problems(problems, names)))


def load_banks(
    paths_or_dir: PathLike | Sequence[PathLike] | None = None,
    root: PathLike = DEFAULT_ROOT,
    *,
    project: Path | None = None,
) -> tuple[model.Bank, ...]:
    """Load every bank, or raise one :class:`BankError` listing every problem in every bank.

    Args:
        paths_or_dir: a bank file, a directory of ``*.yml`` banks, or a list of either;
            None means ``root``.
        root: the default directory (``content/banks``).
        project: the folder the banks' images must lie in, besides each bank's own folder
            (the folder of ``mkdocs.yml``; default the working directory).

    Returns:
        The banks, in file order (sorted by name within a directory).

    Raises:
        BankError: any content problem, including ids used twice across banks.
    """
    report = check_banks(paths_or_dir, root, project=project)
    if report.problems:
        raise BankError(report.problems, report.files)
    return report.banks


def load_bank(path: PathLike, *, project: Path | None = None) -> model.Bank:
    """Load and validate one bank file (``project``: see :func:`load_banks`).

    Raises:
        BankError: every problem in that file (ids are checked within the file only).
    """
    result = _load_file(path, project)
    if result.bank is None:
        problems = result.problems or [BankProblem(result.file, None, None, "not a bank")]
        raise BankError(sort_problems(problems), [result.file])
    return result.bank
