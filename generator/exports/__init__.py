"""Flashcard exports: Anki packages, Anki's text format, plain CSV and the study page's JSON.

What ``konum export`` and ``konum build`` call::

    export_banks("anki", banks, seed=42, variants=5, path="konum.apkg")
    publish_downloads(banks, seed=42, variants=5, folder=site / "downloads")

:func:`export` does the same from concrete questions already made. Cards are built once per
math mode by :func:`build_cards`: Anki's MathJax delimiters for the three export files, MathML
for the study page's ``cards.json`` (:func:`write_cards_json`).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from pathlib import Path
from typing import Literal

from generator import model
from generator.errors import ExportError
from generator.exports.anki import write_apkg
from generator.exports.cards import Card, build_card_sets, build_cards, display_sides
from generator.exports.text import cards_json, write_anki_text, write_cards_json, write_csv

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
    "CARDS_JSON",
    "DEFAULT_NAMES",
    "Card",
    "ExportError",
    "ExportKind",
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
            :func:`generator.exports.anki.write_apkg`).

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
    from generator.variants import concretes_for

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

    ``concretes`` are the questions with ``seed`` already applied (``konum build`` passes the
    ones its pages drew); when None they are drawn here. ``parts`` says which to write:
    ``"exports"`` (the three exports) and ``"study"`` (``cards.json``, for the study page);
    ``konum build`` writes them in whichever process is free first.

    Returns:
        The written files by kind (``"anki"``, ``"text"``, ``"csv"``, ``"json"``).
    """
    banks = list(banks)
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    if concretes is None:
        concretes = _concretes(banks, seed, variants)
    written: dict[str, Path] = {}
    if "exports" in parts:
        # The package carries figures as media files; the text formats have no media, so
        # their cards inline them; both sets come from one rendering of the texts.
        packaged, plain = build_card_sets(
            banks, concretes, math="anki", media_roots=(_docs_dir(banks), None)
        )
        by_kind: tuple[tuple[ExportKind, list[Card]], ...] = (
            ("anki", packaged),
            ("text", plain),
            ("csv", plain),
        )
        for kind, cards in by_kind:
            path = written[kind] = out / DEFAULT_NAMES[kind]
            _write(kind, cards, path, timestamp)
    if "study" in parts:
        path = written["json"] = out / CARDS_JSON
        try:
            write_cards_json(build_cards(banks, concretes, math="mathml"), path)
        except OSError as exc:
            raise ExportError(f"cannot write {path}: {exc.strerror or exc}") from exc
    return written
