"""The check stage: what loading cannot see, found once for every command and build.

``konum check``, ``konum build``, ``mkdocs build`` and ``zensical build`` all come here
(through :func:`konum.course.course_for` or :func:`check_banks`). After the pure load
(:mod:`konum.load`) it:

* looks into every Markdown text (:mod:`konum.htmlcheck`): HTML the sanitiser would drop,
  unsafe math commands, formulas that cannot render, texts beyond the renderer's limits;
* reads every image a text shows (:mod:`konum.imagerefs`), and makes its path a reference
  to the checked image, kept in the report's :attr:`CheckReport.images`;
* draws each question's figure with its plugin, and asks each question's type what drawing,
  evaluating or running it finds (:meth:`konum.types.Question.probe`: a generator's params,
  a formula on many drawings, an example program's recorded output);

and reports every problem at the line where it was written, with the question id and field.
A bank is in the report only when its file has no problem at all.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from konum import htmlcheck, imagerefs, limits
from konum.figures import FigureError
from konum.files import Stamp, stamps
from konum.images import Image
from konum.load import DEFAULT_ROOT, Loaded, PathLike, load_files
from konum.load import Kept as LoadKept
from konum.located import Written, place, walk
from konum.markup import MarkupError, Rendered, Spot, remember, render_text
from konum.parallel import chunks, ordered_map, workers
from konum.plugins import NONE, Plugins
from konum.problems import BankError, BankProblem, sort_problems
from konum.types import Bank, Finding, Probe, Question
from konum.yamlsource import Mark, YMap, YNode, YScalar, YSeq


@dataclass(frozen=True)
class CheckReport:
    """The outcome of checking banks: every file, the banks that passed (their texts with
    image references, their output questions' expected outputs), the images their texts
    show by flat name (and the files they were read from), and every problem."""

    files: tuple[str, ...]
    banks: tuple[Bank, ...]
    problems: tuple[BankProblem, ...]
    image_files: Mapping[Path, Image]

    @property
    def images(self) -> dict[str, Image]:
        """The images by flat name."""
        return {image.name: image for image in self.image_files.values()}

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def questions(self) -> int:
        return sum(len(bank.questions) for bank in self.banks)


def _problem(
    file: str, mark: Mark, message: str, qid: str | None, field: str | None
) -> BankProblem:
    return BankProblem(file, mark.line, mark.column, message, question_id=qid, field=field)


#: Invisible characters that change what a reader sees without showing: bidi controls (they
#: reorder a line, as in "Trojan Source") and zero-width characters.
_INVISIBLE = re.compile("[\u061c\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]")
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def hidden_characters(text: str) -> tuple[int, int, str] | None:
    """The first character of ``text`` that it must not carry: a control character (an
    escape sequence can set a terminal's title, write its clipboard or hide text; tabs and
    line breaks are fine), a bidi control or a zero-width character. Its line (1-based) and
    offset in that line (0-based), and a message naming it and how many there are; None
    when there is none."""
    found = [*_CONTROL.finditer(text), *_INVISIBLE.finditer(text)]
    if not found:
        return None
    first = min(found, key=lambda m: m.start())
    char, before = first.group(), text[: first.start()]
    name = unicodedata.name(char, "")
    kind = "a control character" if _CONTROL.match(char) else "an invisible character"
    more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
    return (
        before.count("\n") + 1,
        len(before) - (before.rfind("\n") + 1),
        f"U+{ord(char):04X}{f' ({name})' if name else ''} is {kind}{more}, which would act on a "
        "reader's terminal or change what they see without showing: remove it",
    )


Texts = dict[tuple[str | None, str], str]


def check_texts(
    written: Written, project: Path
) -> tuple[Texts, list[BankProblem], dict[Path, Image]]:
    """Look into every text of ``written``: the localised texts by (id, path), the problems
    at the line and column where they are, and the images read, by file."""
    folder = Path(written.file).absolute().parent  # where the texts' image paths start
    texts: Texts = {}
    problems: list[BankProblem] = []
    found: dict[Path, Image] = {}
    for use in written.texts:
        localised, image_problems, read = imagerefs.localise(use.text, use.path, folder, project)
        issues: list[htmlcheck.HtmlIssue | Spot] = [*htmlcheck.scan(use.text), *image_problems]
        for issue in issues:
            mark = place(written.lines, use.node, issue.line, issue.offset, use.text)
            problems.append(_problem(written.file, mark, issue.message, use.qid, use.path))
        hidden = hidden_characters(use.text)
        if hidden is not None:
            mark = place(written.lines, use.node, hidden[0], hidden[1], use.text)
            problems.append(_problem(written.file, mark, hidden[2], use.qid, use.path))
        found.update(read)
        texts[(use.qid, use.path)] = localised
    return texts, problems, found


def _question_nodes(root: YNode | None) -> dict[str, YMap]:
    nodes: dict[str, YMap] = {}
    seq = root.get("questions") if isinstance(root, YMap) else None
    for item in seq.items if isinstance(seq, YSeq) else ():
        ident = item.get("id") if isinstance(item, YMap) else None
        if isinstance(item, YMap) and isinstance(ident, YScalar):
            nodes.setdefault(str(ident.value), item)
    return nodes


def _finding_mark(lines: Sequence[str], node: YMap, finding: Finding) -> Mark:
    target, whole = walk(node, finding.field)
    if whole and isinstance(target, YScalar):
        text = str(target.value)
        if finding.line is not None and target.style == "|":  # a program's own line
            return place(lines, target, finding.line, 0, text)
        if finding.offset is not None:
            return place(lines, target, 1, finding.offset, text)
    return target.mark


def _figure_problem(q: Question, plugins: Plugins, node: YMap) -> tuple[Mark, str] | None:
    if q.figure is None:
        return None
    fig = node.get("figure")
    try:
        plugins.figure(q.figure.name).compute(q.figure.params)
    except FigureError as exc:
        where = fig.get("params") if isinstance(fig, YMap) and "parameter" in str(exc) else None
        if where is None and isinstance(fig, YMap):
            where = fig.get("name")
        return (where or fig or node).mark, str(exc)
    return None


def check_loaded(
    loaded: Sequence[Loaded],
    *,
    plugins: Plugins = NONE,
    project: Path | None = None,
    run_programs: bool = False,
    variants: int = limits.DEFAULT_VARIANTS,
) -> tuple[list[Bank], list[BankProblem], dict[Path, Image]]:
    """Check what :func:`konum.load.load_files` loaded (``variants``: what the site draws
    of each computed question): the banks with no problem left (as checked), every
    problem the check found, and the images the texts show, by file."""
    project = (project or Path.cwd()).absolute()
    probe = Probe(plugins, run_programs, variants)
    banks: list[Bank] = []
    problems: list[BankProblem] = []
    images: dict[Path, Image] = {}
    for item in loaded:
        written = Written(item.file, item.lines, item.texts)
        texts, found, read = check_texts(written, project)
        images.update(read)
        bank = item.bank
        ids = [q.id for q in bank.questions] + [fc.id for fc in bank.flashcards] if bank else []
        if bank is None or len(set(ids)) < len(ids):
            # Texts are found by id: a duplicate (reported with both lines by load) would
            # mix two questions' texts.
            problems += found
            continue
        nodes = _question_nodes(item.root)
        # Texts are found by id: a question that shares its id (the load reported it) would
        # take the other's texts, so it is not probed, and its bank does not pass.
        used = Counter(use.id for use in item.ids)
        bank = bank.with_texts({key: t for key, t in texts.items() if used[key[0] or ""] < 2})
        questions = []
        for q in bank.questions:
            if used[q.id] > 1:
                continue
            node = nodes[q.id]
            figure = _figure_problem(q, plugins, node)
            if figure is not None:
                found.append(_problem(item.file, figure[0], figure[1], q.id, "figure"))
            try:
                findings, q = q.probe(probe)
            except Exception as exc:  # a plugin's bug must still not hide the bank
                findings = [Finding("", f"checking it failed ({type(exc).__name__}: {exc})")]
            for finding in findings:
                mark = _finding_mark(item.lines, node, finding)
                field = finding.field or None
                found.append(_problem(item.file, mark, finding.message, q.id, field))
            questions.append(q)
        problems += found
        if not item.problems and not found:
            banks.append(replace(bank, questions=tuple(questions)))
    return banks, problems, images


Checked = tuple[list[Bank], list[BankProblem], dict[Path, Image]]


@dataclass
class Kept:
    """What :func:`check_banks` may reuse across calls (``konum serve``'s rebuilds): each
    file's load (:data:`konum.load.Kept`) and its check, the check kept while the file, the
    images it shows and the check's settings are unchanged.

    Attributes:
        loaded: the loads, by file (see :func:`konum.load.load_files`).
        checks: by file, what was loaded, the settings and images' stamp it was checked
            with, and what the check found.
        checked: the files the last call checked (the others' checks were reused).
    """

    loaded: LoadKept = field(default_factory=dict)
    checks: dict[str, tuple[Loaded, tuple[object, ...], Stamp, Checked]] = field(
        default_factory=dict
    )
    checked: list[str] = field(default_factory=list)


def _check_kept(
    loaded: Sequence[Loaded], kept: Kept, how: dict[str, Any], variants: int
) -> Checked:
    """:func:`check_loaded` of ``loaded``, each file's check reused from ``kept`` when the
    same load was checked with the same settings and its images are unchanged."""
    settings = (how["plugins"], how["project"], how["run_programs"], variants)
    banks: list[Bank] = []
    found: list[BankProblem] = []
    images: dict[Path, Image] = {}
    kept.checked = []
    for item in loaded:
        entry = kept.checks.get(item.file)
        if (
            entry is None
            or entry[0] is not item
            or entry[1] != settings
            or stamps(entry[3][2]) != entry[2]
        ):
            result = check_loaded([item], variants=variants, **how)
            entry = (item, settings, stamps(result[2]), result)
            kept.checks[item.file] = entry
            kept.checked.append(item.file)
        banks += entry[3][0]
        found += entry[3][1]
        images.update(entry[3][2])
    return banks, found, images


def _check_part(
    given: tuple[Sequence[Loaded], dict[str, Any], int], part: range
) -> tuple[Checked, dict[str, Rendered]]:
    """:func:`check_loaded` of the files at the indices ``part`` (a worker's share), with the
    texts it converted, for the calling process to reuse rather than convert again."""
    loaded, how, variants = given
    items = [loaded[i] for i in part]
    checked = check_loaded(items, variants=variants, **how)
    converted: dict[str, Rendered] = {}
    for item in items:
        for use in item.texts:
            try:
                converted[use.text] = render_text(use.text)
            except MarkupError:  # reported by the HTML check
                continue
    return checked, converted


def check_banks(
    paths: PathLike | Sequence[PathLike] | None = None,
    root: PathLike = DEFAULT_ROOT,
    *,
    plugins: Plugins = NONE,
    project: Path | None = None,
    run_programs: bool = False,
    variants: int = limits.DEFAULT_VARIANTS,
    pages: Path | None = None,
    skip_pages: Sequence[Path] = (),
    jobs: int | None = 1,
    kept: Kept | None = None,
) -> CheckReport:
    """Load and check banks without raising (see :func:`load_banks` for the arguments;
    ``variants``: what the site draws of each computed question; ``pages``: the site's
    pages, whose ``/// question`` blocks are banks too, but for those below ``skip_pages``,
    the other editions' pages; ``jobs``: the worker processes that check them,
    :mod:`konum.parallel`'s, the report the same for any number; ``kept``: what earlier
    calls loaded and checked, reused where nothing changed, in this process)."""
    loaded, files, cross = load_files(
        paths,
        root,
        project=project,
        pages=pages,
        skip_pages=skip_pages,
        kept=kept.loaded if kept else None,
        plugins=plugins,
    )
    how: dict[str, Any] = {"plugins": plugins, "project": project, "run_programs": run_programs}
    count = workers(jobs, len(loaded))
    if kept is not None:
        banks, found, images = _check_kept(loaded, kept, how, variants)
    elif count == 1:
        banks, found, images = check_loaded(loaded, variants=variants, **how)
    else:
        banks, found, images = [], [], {}
        parts = chunks(len(loaded), count)
        for part, converted in ordered_map(_check_part, (loaded, how, variants), parts, count):
            banks += part[0]
            found += part[1]
            images.update(part[2])
            remember(converted)
    problems = [p for item in loaded for p in item.problems] + found + list(cross)
    return CheckReport(files, tuple(banks), tuple(sort_problems(problems, files)), images)


def load_banks(
    paths_or_dir: PathLike | Sequence[PathLike] | None = None,
    root: PathLike = DEFAULT_ROOT,
    *,
    plugins: Plugins = NONE,
    project: Path | None = None,
    run_programs: bool = False,
) -> tuple[Bank, ...]:
    """Load and check every bank, or raise one :class:`BankError` listing every problem.

    Args:
        paths_or_dir: a bank file, a directory of ``*.yml`` banks, or a list of either;
            None means ``root``.
        root: the default directory (``content/banks``).
        plugins: the plugins whose generators and figures the banks use.
        project: the folder the banks' images must lie in, besides each bank's own folder
            (the folder of ``mkdocs.yml``; default the working directory).
        run_programs: run output questions' example solutions instead of reading their
            recorded output (the site trusts them: see the authoring page).

    Returns:
        The banks, in file order (sorted by name within a directory).

    Raises:
        BankError: any content problem, including ids used twice across banks.
    """
    report = check_banks(
        paths_or_dir, root, plugins=plugins, project=project, run_programs=run_programs
    )
    if report.problems:
        raise BankError(report.problems, report.files)
    return report.banks


def load_bank(path: PathLike, **options: object) -> Bank:
    """Load and check one bank file (options: see :func:`load_banks`).

    Raises:
        BankError: every problem in that file.
    """
    banks = load_banks([path], **options)  # type: ignore[arg-type]
    if not banks:
        raise BankError([BankProblem(str(path), None, None, "not a bank")], [str(path)])
    return banks[0]
