"""Flashcard exports: Anki packages, Anki's text format and plain CSV.

What ``konum export`` and ``konum build`` call::

    export("anki", banks, concretes, "konum.apkg", deck="Chemistry")
    write_downloads(banks, concretes, site / "downloads", deck="Chemistry")

Cards are built by :func:`konum.exports.cards.build_cards`, with Anki's MathJax delimiters
for the three files (the study page builds its own, with MathML, in
:func:`konum.render.render_study`). ``deck`` is the parent deck: each bank becomes the subdeck
``<deck>::<bank title>``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal, TypedDict

from konum.errors import ExportError
from konum.exports.anki import write_apkg
from konum.exports.cards import Card, ImageForm, build_card_sets, build_cards, display_sides
from konum.exports.text import write_anki_text, write_csv
from konum.files import atomic_file
from konum.images import Images
from konum.lms import LMS_NAMES
from konum.plugins import NONE, Plugins
from konum.types import Bank, Concrete

if TYPE_CHECKING:
    from typing_extensions import Unpack

ExportKind = Literal["anki", "text", "csv"]
KINDS: tuple[ExportKind, ...] = ("anki", "text", "csv")

#: File names of the exports for a deck called "konum", as published under
#: ``site/downloads/`` and linked from the course's Flashcards page (see :func:`file_names`).
DEFAULT_NAMES: dict[str, str] = {
    "anki": "konum.apkg",
    "text": "konum-anki.txt",
    "csv": "konum.csv",
}


def file_names(deck: str) -> dict[str, str]:
    """The exports' file names for ``deck``, flashcards and LMS files alike: its name as a
    slug (``My course`` gives ``my-course.apkg``, ``my-course-anki.txt``, ``my-course.csv``,
    ``my-course-moodle.xml`` and ``my-course-gift.txt``; :func:`konum.formatting.slugify`
    keeps its letters: ``İstatistik: Olasılık`` gives ``istatistik-olasilik.apkg``), or
    ``konum``'s names when no letter of it has an ASCII form."""
    from konum.formatting import slugify

    slug = slugify(deck) or "konum"
    names = {**DEFAULT_NAMES, **LMS_NAMES}
    return {kind: name.replace("konum", slug, 1) for kind, name in names.items()}


__all__ = [
    "DEFAULT_NAMES",
    "KINDS",
    "Card",
    "ExportError",
    "ExportKind",
    "build_cards",
    "display_sides",
    "export",
    "file_names",
    "write_downloads",
]


class CardFileOptions(TypedDict, total=False):
    """The keyword options of the flashcard files (:class:`CardFileSettings` gives their
    defaults): ``deck``, the parent deck's name (Anki and text); ``timestamp``, the Anki
    notes' modification time (see :func:`konum.exports.anki.write_apkg`); ``language``, the
    course's (``Course.language``: the cards' own words and their Anki identities, see
    :mod:`konum.exports.anki`); ``plugins``, what draws the questions' figures; ``images``,
    the checked images the texts show (``Course.images``)."""

    deck: str
    timestamp: float | None
    language: str
    plugins: Plugins
    images: Images | None


@dataclass(frozen=True)
class CardFileSettings:
    """:class:`CardFileOptions` with what is not given at its default."""

    deck: str = "konum"
    timestamp: float | None = None
    language: str = "en"
    plugins: Plugins = NONE
    images: Images | None = None


def _write(kind: ExportKind, cards: Sequence[Card], path: Path, o: CardFileSettings) -> None:
    """Write one export beside ``path`` and rename it over ``path`` when complete
    (:func:`konum.files.atomic_file`): a kill or a full disk leaves the earlier file."""
    with atomic_file(path) as temporary:
        if kind == "anki":
            write_apkg(cards, temporary, deck=o.deck, timestamp=o.timestamp)
        elif kind == "text":
            write_anki_text(cards, temporary, deck=o.deck)
        else:
            write_csv(cards, temporary)


def export(
    kind: ExportKind,
    banks: Iterable[Bank],
    concretes: Iterable[Concrete],
    path: str | Path,
    **options: Unpack[CardFileOptions],
) -> list[Card]:
    """Build the flashcards of ``banks`` and write them to ``path`` in the format ``kind``.

    Args:
        kind: ``"anki"`` (``.apkg``), ``"text"`` (Anki's text import format) or ``"csv"``.
        banks: The loaded banks.
        concretes: Concrete questions for one seed (computed questions need theirs).
        path: The file to write.
        options: :class:`CardFileOptions`.

    Returns:
        The cards written.

    Raises:
        ExportError: The banks cannot be turned into cards or the file cannot be written.
        ValueError: ``kind`` is not one of the three formats.
    """
    if kind not in DEFAULT_NAMES:
        raise ValueError(f"export kind: expected 'anki', 'text' or 'csv', received {kind!r}")
    # Only the package carries files; text and CSV name them as the package does.
    form: ImageForm = "files" if kind == "anki" else "names"
    o = CardFileSettings(**options)
    cards = build_cards(
        banks,
        concretes,
        math="anki",
        images=form,
        language=o.language,
        plugins=o.plugins,
        store=o.images,
    )
    _write(kind, cards, Path(path), o)
    return cards


def write_downloads(
    banks: Sequence[Bank],
    concretes: Sequence[Concrete],
    folder: str | Path,
    **options: Unpack[CardFileOptions],
) -> dict[ExportKind, Path]:
    """Write the three exports (:func:`file_names` of ``deck``) into ``folder``, rendering each
    card's texts once for all three; images and figures travel as files in the Anki package,
    and the text and CSV files name them as the package does.

    Returns:
        The written files by kind.

    Raises:
        ExportError: the banks cannot be turned into cards, or a file cannot be written.
    """
    o = CardFileSettings(**options)
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    packaged, plain = build_card_sets(
        banks,
        concretes,
        math="anki",
        forms=("files", "names"),
        language=o.language,
        plugins=o.plugins,
        store=o.images,
    )
    written: dict[ExportKind, Path] = {}
    names = file_names(o.deck)
    for kind in KINDS:
        path = written[kind] = out / names[kind]
        _write(kind, packaged if kind == "anki" else plain, path, o)
    return written
