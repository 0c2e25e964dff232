"""Flashcard exports: Anki packages, Anki's text format, plain CSV and the study page's JSON.

What ``konum export`` and ``konum build`` call::

    export_banks("anki", banks, seed=42, variants=5, path="konum.apkg")
    publish_downloads(banks, seed=42, variants=5, folder=site / "downloads")

:func:`export` does the same from concrete questions already made. Cards are built once per
math mode by :func:`build_cards`: Anki's MathJax delimiters for the three export files, MathML
for the study page's ``cards.json`` (:func:`write_cards_json`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from konum import model
from konum.errors import ExportError
from konum.exports.anki import write_apkg
from konum.exports.cards import Card, build_card_sets, build_cards, display_sides
from konum.exports.text import cards_json, write_anki_text, write_cards_json, write_csv

ExportKind = Literal["anki", "text", "csv"]
DownloadPart = Literal["exports", "study"]

#: File names of the exports, as published under ``site/downloads/`` and linked from the
#: Flashcards page; ``CARDS_JSON`` is the study page's data.
DEFAULT_NAMES: dict[str, str] = {
    "anki": "konum.apkg",
    "text": "konum-anki.txt",
    "csv": "konum.csv",
}
CARDS_JSON = "cards.json"

__all__ = [
    "ALL_FILES",
    "CARDS_JSON",
    "DEFAULT_NAMES",
    "BankCards",
    "Card",
    "ExportError",
    "ExportKind",
    "FileKind",
    "bank_cards",
    "build_card_sets",
    "build_cards",
    "cards_json",
    "display_sides",
    "export",
    "export_banks",
    "publish_downloads",
    "write_anki_text",
    "write_apkg",
    "write_cards_json",
    "write_csv",
    "write_downloads",
]


def _docs_dir(banks: Sequence[model.Bank]) -> Path | None:
    """The docs dir, where images on cards are found: banks live in ``<docs>/banks/``."""
    return Path(banks[0].path).resolve().parent.parent if banks else None


def export(
    kind: ExportKind,
    banks: Iterable[model.Bank],
    concretes: Iterable[model.Concrete],
    path: str | Path,
    *,
    media_root: Path | None = None,
    timestamp: float | None = None,
) -> list[Card]:
    """Build the flashcards of ``banks`` and write them to ``path`` in the format ``kind``.

    Args:
        kind: ``"anki"`` (``.apkg``), ``"text"`` (Anki's text import format) or ``"csv"``.
        banks: The loaded banks.
        concretes: Concrete questions for one seed (computed questions need theirs).
        path: The file to write.
        media_root: The docs dir, where images referenced by cards are found; only the
            ``.apkg`` carries image files, so it only matters for ``"anki"``.
        timestamp: For ``"anki"``: the notes' modification time (see
            :func:`konum.exports.anki.write_apkg`).

    Returns:
        The cards written.

    Raises:
        ExportError: The banks cannot be turned into cards (see :func:`build_cards`) or the
            file cannot be written.
        ValueError: ``kind`` is not one of the three formats.
    """
    if kind not in DEFAULT_NAMES:
        raise ValueError(f"export kind: expected 'anki', 'text' or 'csv', received {kind!r}")
    cards = build_cards(
        banks, concretes, math="anki", media_root=media_root if kind == "anki" else None
    )
    _write(kind, cards, Path(path), timestamp)
    return cards


def _write(kind: ExportKind, cards: Sequence[Card], path: Path, timestamp: float | None) -> None:
    try:
        if kind == "anki":
            write_apkg(cards, path, timestamp=timestamp)
        elif kind == "text":
            write_anki_text(cards, path)
        else:
            write_csv(cards, path)
    except OSError as exc:
        raise ExportError(f"cannot write {path}: {exc.strerror or exc}") from exc


def _concretes(banks: Sequence[model.Bank], seed: int, variants: int) -> list[model.Concrete]:
    from konum.variants import concretes_for

    return list(concretes_for(banks, seed, variants).values())


def export_banks(
    kind: ExportKind,
    banks: Iterable[model.Bank],
    seed: int,
    variants: int,
    path: str | Path,
    *,
    timestamp: float | None = None,
) -> int:
    """Apply ``seed`` (``variants`` per computed question) and :func:`export`; the card count."""
    banks = list(banks)
    cards = export(
        kind,
        banks,
        _concretes(banks, seed, variants),
        path,
        media_root=_docs_dir(banks),
        timestamp=timestamp,
    )
    return len(cards)


@dataclass(frozen=True)
class BankCards:
    """One bank's flashcards in the three forms the downloads need.

    Attributes:
        packaged: MathJax math, images and figures as media files (the ``.apkg``).
        plain: MathJax math, figures inline (Anki's text format and CSV carry no media).
        study: MathML math (the study page's ``cards.json``); empty unless asked for.
    """

    packaged: list[Card]
    plain: list[Card]
    study: list[Card]


def bank_cards(
    bank: model.Bank,
    concretes: Sequence[model.Concrete],
    *,
    media_root: Path | None,
    parts: Collection[DownloadPart] = ("exports", "study"),
) -> BankCards:
    """The cards of one bank for the downloads ``parts``; the texts are rendered once per
    math mode, so in a process that has just rendered the bank's quiz the MathML ones come
    from the render cache."""
    packaged: list[Card] = []
    plain: list[Card] = []
    if "exports" in parts:
        packaged, plain = build_card_sets(
            [bank], concretes, math="anki", media_roots=(media_root, None)
        )
    study = build_cards([bank], concretes, math="mathml") if "study" in parts else []
    return BankCards(packaged, plain, study)


FileKind = Literal["anki", "text", "csv", "json"]
#: Every file of the downloads: the three exports, then the study page's ``cards.json``.
ALL_FILES: tuple[FileKind, ...] = ("anki", "text", "csv", "json")


def write_downloads(
    sets: Sequence[BankCards],
    folder: str | Path,
    *,
    timestamp: float | None = None,
    files: Collection[FileKind] = ALL_FILES,
) -> dict[str, Path]:
    """Write ``files`` of the downloads from the cards of every bank (in bank order) into
    ``folder``: the three exports (:data:`DEFAULT_NAMES`) and ``"json"``, ``cards.json``.

    Returns:
        The written files by kind.

    Raises:
        ExportError: two cards share a key, or a file cannot be written.
    """
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    keys = Counter(card.key for cards in sets for card in cards.plain or cards.study)
    duplicates = sorted(key for key, count in keys.items() if count > 1)
    if duplicates:
        raise ExportError(f"duplicate card keys (ids must be unique): {', '.join(duplicates)}")
    written: dict[str, Path] = {}
    for kind in ALL_FILES:
        if kind not in files:
            continue
        if kind == "json":
            path = written[kind] = out / CARDS_JSON
            try:
                write_cards_json([card for cards in sets for card in cards.study], path)
            except OSError as exc:
                raise ExportError(f"cannot write {path}: {exc.strerror or exc}") from exc
        else:
            path = written[kind] = out / DEFAULT_NAMES[kind]
            chosen = [
                card
                for cards in sets
                for card in (cards.packaged if kind == "anki" else cards.plain)
            ]
            _write(kind, chosen, path, timestamp)
    return written


def publish_downloads(
    banks: Iterable[model.Bank],
    seed: int,
    variants: int,
    folder: str | Path,
    *,
    timestamp: float | None = None,
    concretes: Sequence[model.Concrete] | None = None,
    parts: Collection[DownloadPart] = ("exports", "study"),
) -> dict[str, Path]:
    """Write the three exports (:data:`DEFAULT_NAMES`) and ``cards.json`` into ``folder``.

    ``concretes`` are the questions with ``seed`` already applied; when None they are drawn
    here. ``parts`` says which to write: ``"exports"`` (the three exports) and ``"study"``
    (``cards.json``, for the study page). ``konum build`` makes each bank's cards with
    :func:`bank_cards` as it renders the bank's quiz, and calls :func:`write_downloads`.

    Returns:
        The written files by kind (``"anki"``, ``"text"``, ``"csv"``, ``"json"``).
    """
    banks = list(banks)
    if concretes is None:
        concretes = _concretes(banks, seed, variants)
    by_id = {c.question.id: c for c in concretes}
    media_root = _docs_dir(banks)
    sets = [
        bank_cards(
            bank,
            [by_id[q.id] for q in bank.questions if q.id in by_id],
            media_root=media_root,
            parts=parts,
        )
        for bank in banks
    ]
    files: list[FileKind] = []
    if "exports" in parts:
        files += ["anki", "text", "csv"]
    if "study" in parts:
        files.append("json")
    return write_downloads(sets, folder, timestamp=timestamp, files=files)
