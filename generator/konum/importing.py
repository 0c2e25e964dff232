"""``konum import``: another tool's questions as a bank that ``konum check`` accepts.

The readers (:mod:`konum.importers`) turn a Moodle XML, GIFT or Aiken file into drafts;
this module writes them as a bank, checks that bank with konum's own checker in a scratch
folder (with its images), leaves out each question the checker refuses (saying why, at the
question's line in its source), and only then writes the bank and its images into place. A
question is whole or absent, never half-imported; an existing bank or image is never
replaced unless ``--force`` says so.
"""

from __future__ import annotations

import difflib
import io
import re
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib import import_module
from pathlib import Path

import click

from konum.errors import KonumError
from konum.files import write_atomically
from konum.importers.model import Draft, Found, Left
from konum.paths import shown

#: The formats, each read by ``read_<kind>`` in ``konum.importers.<kind>`` (imported when
#: used: ``konum --help`` needs none of them).
KINDS = ("aiken", "gift", "moodle")
_BANK_ID = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$")
#: Rounds of check-and-leave-out: each round leaves out every question the checker refused.
_ROUNDS = 5


@dataclass
class Imported:
    """What an import wrote (or would write): the bank's text, its images by file name,
    the questions kept, and those left out."""

    text: str
    images: dict[str, bytes]
    drafts: list[Draft]
    left: list[Left] = field(default_factory=list)


def import_bank(kind: str, sources: Sequence[Path], bank: Path) -> Imported:
    """Read ``sources`` (files of ``kind``) into a bank for the file ``bank``, checked.

    Raises:
        KonumError: a source cannot be read as ``kind``, the bank's name is not an id, or no
            question could be imported.
    """
    from konum.formatting import slugify

    if not _BANK_ID.match(bank.stem):
        raise KonumError(
            f"{bank}: a bank's file name is its id: lowercase words with hyphens, such as "
            f"{slugify(bank.stem) or 'my-bank'}.yml"
        )
    from konum.importers.write import bank_text

    read: Callable[[Path], Found] = getattr(
        import_module(f"konum.importers.{kind}"), f"read_{kind}"
    )
    found = Found()
    for source in sources:
        if not source.is_file():
            raise KonumError(f"{source}: no such file")
        part = read(source)
        found.drafts += part.drafts
        found.left += part.left
        found.files.update(part.files)
        found.title = found.title or part.title
    title = found.title or bank.stem.replace("-", " ").capitalize()
    names = ", ".join(s.name for s in sources)
    _tag_categories(found.drafts)
    drafts = found.drafts
    for _ in range(_ROUNDS):
        if not drafts:
            break
        text = bank_text(bank.stem, title, drafts, source=names)
        refused = _refused(bank.stem, text, found.files)
        if not refused:
            break
        by_id = {d.fields["id"]: d for d in drafts}
        for qid, reason in refused.items():
            draft = by_id.get(qid)
            if draft is None:  # a problem of the whole bank: nothing to leave out
                raise KonumError(f"{bank}: the imported bank was refused: {reason}")
            found.left.append(Left(_source_of(draft, sources), draft.name, draft.line, reason))
        drafts = [d for d in drafts if d.fields["id"] not in refused]
    else:  # pragma: no cover - each round leaves out at least one question
        raise KonumError(f"{bank}: the imported bank still has problems after {_ROUNDS} rounds")
    if not drafts:
        raise KonumError(f"{names}: no question could be imported (see above)")
    found.left.sort(key=lambda left: (left.file, left.line))
    used = {name: data for name, data in found.files.items() if f"images/{name}" in text}
    return Imported(text, used, drafts, found.left)


@dataclass
class SiteImport:
    """An mkdocs-quiz site's conversion: each file's new text (banks, pages and the site's
    configuration), what each page kept, and the quizzes that could not be converted."""

    files: dict[Path, str]
    questions: int
    left: list[Left]


def import_site(docs: Path) -> SiteImport:
    """The pages of ``docs`` with their mkdocs-quiz quizzes as konum questions: each quiz a
    ``/// question`` block holding its question, where it was (the page is its bank), and
    the site's ``mkdocs.yml`` (beside ``docs``) with konum in place of the plugin. Each
    page's questions are checked by konum's checker first. Nothing is written here.

    Raises:
        KonumError: ``docs`` is no folder, it holds no quiz, or a quiz cannot be converted
            (every such quiz is in the message: a site is converted whole or not at all).
    """
    from konum.formatting import slugify
    from konum.importers.mkdocs_quiz import read_page
    from konum.importers.write import bank_text, make_id

    if not docs.is_dir():
        raise KonumError(f"{docs}: no such folder (give the site's docs_dir)")
    files: dict[Path, str] = {}
    left: list[Left] = []
    taken: set[str] = set()
    questions = 0
    for path in sorted(docs.rglob("*.md")):
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise KonumError(f"{path}: cannot be read as UTF-8 text ({exc})") from None
        page = read_page(path, text)
        left += page.left
        if not page.drafts:
            continue
        name = slugify(str(path.relative_to(docs).with_suffix("")).replace("/", "-")) or "page"
        for draft in page.drafts:
            draft.fields["id"] = make_id(f"{name} {draft.name}", taken)
        checked = bank_text(name, page.title, page.drafts, source=str(path))
        for qid, reason in _refused(name, checked, {}).items():
            where = next((d for d in page.drafts if d.fields["id"] == qid), page.drafts[0])
            left.append(Left(str(path), where.name, where.line, reason))
        files[path] = page.rewritten()
        questions += len(page.drafts)
    if left:
        listed = "; ".join(f"{item.file}:{item.line}: {item.reason}" for item in left)
        count = f"{len(left)} quiz" if len(left) == 1 else f"{len(left)} quizzes"
        raise KonumError(f"nothing was changed: {count} cannot be converted: {listed}")
    if not questions:
        raise KonumError(f"{docs}: no <quiz> block in any page")
    config = docs.parent / "mkdocs.yml"
    if config.is_file():
        files[config] = _konum_config(config)
    return SiteImport(files, questions, left)


def _konum_config(config: Path) -> str:
    """``config`` with the mkdocs-quiz plugin taken out and the konum extension put in; the
    rest (comments, order, MkDocs' tags) as it was."""
    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError

    yaml = YAML()  # round-trip: comments, order and tags such as !ENV are kept
    yaml.preserve_quotes = True
    yaml.indent(mapping=2, sequence=4, offset=2)
    try:
        data = yaml.load(config.read_text(encoding="utf-8"))
    except (YAMLError, UnicodeDecodeError) as exc:
        raise KonumError(f"{config}: cannot be read to add konum ({exc})") from None
    if not isinstance(data, dict):
        raise KonumError(f"{config}: not a MkDocs configuration (a mapping)")
    plugins = data.get("plugins")
    if isinstance(plugins, list):
        for item in list(plugins):
            name = next(iter(item), "") if isinstance(item, dict) else item
            if str(name).replace("_", "-") == "mkdocs-quiz":
                plugins.remove(item)
    elif isinstance(plugins, dict):
        for name in [n for n in plugins if str(n).replace("_", "-") == "mkdocs-quiz"]:
            del plugins[name]
    extensions = data.setdefault("markdown_extensions", [])
    names = [next(iter(e), "") if isinstance(e, dict) else e for e in extensions or []]
    if isinstance(extensions, list) and not {"konum", "konum.quiz"} & set(map(str, names)):
        extensions.append("konum")
    out = io.StringIO()
    yaml.dump(data, out)
    return out.getvalue()


def _source_of(draft: Draft, sources: Sequence[Path]) -> str:
    return str(sources[0]) if len(sources) == 1 else ", ".join(map(str, sources))


def _tag_categories(drafts: list[Draft]) -> None:
    """Where the questions come from several categories, each gets its category's last
    part as a tag, so a quiz block can still pick them apart."""
    from konum.formatting import slugify

    if len({d.category for d in drafts}) < 2:
        return
    for draft in drafts:
        tag = slugify(draft.category.rsplit("/", 1)[-1])
        tags = draft.fields.setdefault("tags", [])
        if tag and tag not in tags:
            tags.append(tag)


def _refused(bank: str, text: str, files: dict[str, bytes]) -> dict[str | None, str]:
    """The checker's problems with the bank ``text``, by question id (None for the bank)."""
    from konum.check import check_banks

    with tempfile.TemporaryDirectory(prefix="konum-import-") as scratch:
        folder = Path(scratch)
        (folder / "images").mkdir()
        for name, data in files.items():
            (folder / "images" / name).write_bytes(data)
        path = folder / f"{bank}.yml"
        path.write_text(text, encoding="utf-8")
        report = check_banks([path], project=folder)
    refused: dict[str | None, str] = {}
    for problem in report.problems:
        # Lines of the scratch bank mean nothing to the reader of the source.
        message = re.sub(r" \(line \d+\)", "", problem.message)
        reason = message if not problem.field else f"{problem.field}: {message}"
        refused.setdefault(problem.question_id, f"konum's check refused it ({reason})")
    return refused


def write(imported: Imported, bank: Path, *, force: bool) -> None:
    """Write the bank and its images beside it, each atomically; refuse to replace a file
    that differs unless ``force``."""
    images = bank.parent / "images"
    clashes = [bank] if bank.exists() and not force else []
    clashes += [
        images / name
        for name, data in imported.images.items()
        if (images / name).exists() and (images / name).read_bytes() != data and not force
    ]
    if clashes:
        raise KonumError(
            f"{shown(clashes[0], Path.cwd())} exists: "
            "choose another -o, or add --force to replace it"
        )
    if imported.images:
        images.mkdir(parents=True, exist_ok=True)
    for name, data in imported.images.items():
        write_atomically(images / name, data)
    bank.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(bank, imported.text)


@click.command(name="import")
@click.argument("kind", type=click.Choice([*KINDS, "mkdocs-quiz"]))
@click.argument("sources", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option(
    "-o",
    "--output",
    "bank",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="The bank file to write (default: the first file's name, as .yml, here).",
)
@click.option("--force", is_flag=True, help="Replace the bank (and its images) if they exist.")
@click.option("--dry-run", is_flag=True, help="Show what would be written, and write nothing.")
def import_command(
    kind: str,
    sources: tuple[Path, ...],
    bank: Path | None,
    force: bool,
    dry_run: bool,
) -> None:
    """Turn questions from Moodle XML, GIFT or Aiken FILES into a konum bank, or an
    mkdocs-quiz site's pages (DOCS_DIR) into konum quizzes.

    Questions konum cannot hold are listed on stderr by file, line and name; the bank is
    written only when konum's own check accepts every question in it. An mkdocs-quiz site
    is converted whole or not at all: each <quiz> becomes a /// question block where it
    was, and mkdocs.yml gets konum in place of the plugin."""
    if kind == "mkdocs-quiz":
        if len(sources) != 1:
            raise click.UsageError("mkdocs-quiz takes one folder: the site's docs_dir")
        _import_site(sources[0], dry_run=dry_run)
        return
    if bank is None:
        from konum.formatting import slugify

        stem = slugify(sources[0].stem) or "imported"
        bank = Path(f"{stem if stem[0].isalpha() else 'bank-' + stem}.yml")
    imported = import_bank(kind, sources, bank)
    for left in imported.left:
        click.echo(
            f"konum: {left.file}:{left.line}: '{left.name}' left out: {left.reason}", err=True
        )
    if dry_run:
        click.echo(imported.text, nl=False)
        return
    write(imported, bank, force=force)
    extra = (
        f" and {len(imported.images)} image(s) in {shown(bank.parent / 'images', Path.cwd())}"
        if imported.images
        else ""
    )
    out = f"; {len(imported.left)} left out (above)" if imported.left else ""
    click.echo(
        f"konum: wrote {len(imported.drafts)} questions to {shown(bank, Path.cwd())}{extra}{out}",
        err=True,
    )


def _import_site(docs: Path, *, dry_run: bool) -> None:
    converted = import_site(docs)
    for path, text in converted.files.items():
        if dry_run:
            old = path.read_text(encoding="utf-8")
            where = str(shown(path, Path.cwd()))
            diff = difflib.unified_diff(
                old.splitlines(keepends=True), text.splitlines(keepends=True), where, where
            )
            click.echo("".join(diff), nl=False)
    if dry_run:
        return
    for path, text in converted.files.items():
        write_atomically(path, text)
    pages = sum(p.suffix == ".md" for p in converted.files)
    click.echo(
        f"konum: {converted.questions} quizzes in {pages} pages are now konum questions, "
        "written in the pages; check them with 'konum check'",
        err=True,
    )
