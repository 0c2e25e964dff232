"""Write cards as an Anki package (``.apkg``) with genanki.

Identities are stable so a regenerated package updates a reader's notes in place and keeps
their review history:

* the two note types of English and of Turkish have hard-coded ids (:data:`MODEL_IDS`), and
  those of the other languages ids derived from the language (:func:`model_ids`); their
  names, fields and card templates are the language's ``anki`` catalogue texts;
* each bank becomes the subdeck ``<deck>::<bank title>`` whose id is derived from the bank id
  (:func:`deck_id`), the same in every run and on every machine;
* note GUIDs are ``genanki.guid_for(card.key)``;
* another language than English (:attr:`Card.language`) adds itself to the deck ids and the
  GUIDs, so its notes are other notes: a learner can hold the English and the Turkish deck,
  and each updates in place.

Anki replaces an existing note only when the imported one is newer, judged by its
modification time, which genanki sets from the package timestamp: :func:`write_apkg` uses
``SOURCE_DATE_EPOCH`` when set (reproducible builds), else the current time.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
import os
import re
import sqlite3
import tempfile
import time
import zipfile
from collections.abc import Iterable, Sequence
from pathlib import Path

import genanki

from konum.lms import one_line
from konum.messages import message
from konum.types import Card, MediaFile

#: The basic and the cloze note type's ids of the languages konum's decks began with.
#: Hard-coded, never change: Anki recognises note types by id.
MODEL_IDS = {"en": (1_732_905_311, 1_732_905_312), "tr": (1_732_905_313, 1_732_905_314)}


#: The ``anki`` catalogue keys: each note type's name, its fields and its card template.
ANKI_NAMES = ("basic", "front", "back", "card", "cloze", "text", "extra", "cloze_card")


def model_ids(language: str) -> tuple[int, int]:
    """The basic and the cloze note type's ids of ``language``: :data:`MODEL_IDS`, or
    derived from the language by BLAKE2b as :func:`deck_id` derives a deck's."""
    if language in MODEL_IDS:
        return MODEL_IDS[language]
    basic, cloze = (
        f"konum-note-type\x1f{kind}\x1f{language}".encode() for kind in ("basic", "cloze")
    )
    return _in_genanki_range(basic), _in_genanki_range(cloze)


def _in_genanki_range(key: bytes) -> int:
    """An id made from ``key`` by BLAKE2b, in ``[2**30, 2**31)``: the range genanki draws
    its own ids from."""
    digest = hashlib.blake2b(key, digest_size=8).digest()
    return (1 << 30) + int.from_bytes(digest, "big") % (1 << 30)


CSS = """\
.card { font-family: system-ui, sans-serif; font-size: 19px; line-height: 1.5;
  color: #1d1d1f; background: #fff; text-align: left; max-width: 42em; margin: 0 auto; }
.nightMode.card, .night_mode .card { color: #e6e6e6; background: #1f2128; }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 0.9em; }
pre { background: rgba(127, 127, 127, 0.12); padding: 0.5em 0.75em; border-radius: 4px;
  overflow-x: auto; }
table { border-collapse: collapse; }
th, td { border: 1px solid rgba(127, 127, 127, 0.4); padding: 0.25em 0.6em; text-align: left; }
.konum-answer { font-size: 1.1em; }
.konum-solution, .konum-explanation { margin-top: 0.75em; }
img { max-width: 100%; height: auto; }
.cloze { font-weight: bold; color: #1565c0; }
.nightMode .cloze, .night_mode .cloze { color: #82b1ff; }
"""


@functools.lru_cache(maxsize=16)
def note_types(language: str) -> tuple[genanki.Model, genanki.Model]:
    """The basic and the cloze note type of ``language``, named in its words (its ``anki``
    catalogue texts: the type, its two fields and its card template)."""
    basic_id, cloze_id = model_ids(language)
    name = {key: message(language, f"anki.{key}") for key in ANKI_NAMES}
    front, back, text, extra = name["front"], name["back"], name["text"], name["extra"]
    return (
        genanki.Model(basic_id, name["basic"], fields=[{"name": front}, {"name": back}], css=CSS,
                      templates=[{"name": name["card"], "qfmt": f"{{{{{front}}}}}",
                                  "afmt": f'{{{{FrontSide}}}}<hr id="answer">{{{{{back}}}}}'}]),
        genanki.Model(cloze_id, name["cloze"], fields=[{"name": text}, {"name": extra}], css=CSS,
                      templates=[{"name": name["cloze_card"], "qfmt": f"{{{{cloze:{text}}}}}",
                                  "afmt": f"{{{{cloze:{text}}}}}<br>{{{{{extra}}}}}"}],
                      model_type=genanki.Model.CLOZE),
    )  # fmt: skip


def deck_names(cards: Iterable[Card], root: str) -> dict[str, str]:
    """The Anki deck of each bank, by bank id: ``<root>::<NN> <bank title>``, numbered in
    the order the banks first appear in ``cards`` (the course's order), since Anki lists
    subdecks by name. ``::`` in a title would nest deeper, so it is written as one colon;
    each name is one line (:func:`konum.lms.one_line`)."""
    names: dict[str, str] = {}
    parent = _deck_part(root, "konum")
    for card in cards:
        if card.bank not in names:
            title = _deck_part(card.deck, card.bank)
            names[card.bank] = f"{parent}::{len(names) + 1:02d} {title}"
    return names


def _deck_part(name: str, empty: str) -> str:
    """``name`` as one part of an Anki deck's name: one line, ``::`` as one colon, no colon
    at either end (Anki would take it for part of a separator); ``empty`` if nothing is left."""
    return one_line(name, "").replace("::", ":").strip(": ") or empty


def deck_id(bank_id: str, language: str = "en") -> int:
    """A deck id derived from ``bank_id`` (and ``language`` other than English): BLAKE2b,
    so constant across runs and machines.

    In ``[2**30, 2**31)``, the range genanki draws its own ids from.
    """
    key = bank_id if language == "en" else f"{bank_id}\x1f{language}"
    return _in_genanki_range(f"konum-deck\x1f{key}".encode())


def sanitize_tag(tag: str) -> str:
    """A tag Anki accepts: whitespace runs become ``_``, double quotes are dropped."""
    return re.sub(r"\s+", "_", tag.strip()).replace('"', "")


def anki_tags(card: Card) -> list[str]:
    """The card's tags, sanitised for Anki, empty ones dropped, order kept."""
    return list(_anki_tags(card.tags))


def _anki_tags(tags: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(t for t in map(sanitize_tag, tags) if t))


def guid(card: Card) -> str:
    """The note GUID of ``card``: ``genanki.guid_for`` of its stable key, and of its note
    type for cloze cards. Anki cannot turn a note of one type into the other (a package
    holding such a change is refused whole), so a question that changes type (choice to
    fill, same id) becomes a new note and its old one stays as it was."""
    extra = ("cloze",) if card.kind == "cloze" else ()
    if card.language != "en":
        extra = (*extra, card.language)
    return str(genanki.guid_for(card.key, *extra))


def resolve_timestamp(timestamp: float | None = None) -> float:
    """``timestamp`` if given, else ``SOURCE_DATE_EPOCH`` when set, else the current time."""
    if timestamp is not None:
        return float(timestamp)
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    return float(epoch) if epoch else time.time()


def build_package(cards: Sequence[Card], deck: str) -> genanki.Package:
    """A genanki package with one subdeck of ``deck`` per bank, in the order the banks
    first appear (the media files are :func:`media_files`)."""
    decks: dict[str, genanki.Deck] = {}
    names = deck_names(cards, deck)
    for card in cards:
        subdeck = decks.get(card.bank)
        if subdeck is None:
            subdeck = decks[card.bank] = genanki.Deck(
                deck_id(card.bank, card.language), names[card.bank]
            )
        is_cloze = int(card.kind == "cloze")
        subdeck.add_note(
            genanki.Note(
                model=note_types(card.language)[is_cloze],
                # Anki stores a note's fields joined by U+001F: one inside a field splits it.
                fields=[card.front.replace("\x1f", ""), card.back.replace("\x1f", "")],
                tags=anki_tags(card),
                guid=guid(card),
            )
        )
    return genanki.Package(list(decks.values()))


def media_files(cards: Iterable[Card]) -> list[MediaFile]:
    """Every file the cards name, each once, in order of first use. Names are flat and
    carry their content's hash (:mod:`konum.images`), so one name is one content."""
    media: dict[str, MediaFile] = {}
    for card in cards:
        for file in card.media:
            media.setdefault(file.name, file)
    return list(media.values())


def _zip_entry(name: str, date_time: tuple[int, int, int, int, int, int]) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name, date_time=date_time)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = 0o644 << 16
    return info


def write_apkg(
    cards: Iterable[Card], path: str | Path, *, deck: str, timestamp: float | None = None
) -> None:
    """Write ``cards`` to the Anki package ``path``, byte for byte the same for the same
    cards and timestamp.

    genanki's ``Package.write_to_file`` stamps zip entries with the current time (and leaves
    its temporary database behind), so the package is assembled here: genanki fills the
    database, the zip entries carry ``timestamp`` as their date.

    Args:
        cards: Cards from :func:`konum.exports.cards.build_cards` with ``math="anki"``
            and ``images="files"``, so images are listed in :attr:`Card.media`.
        path: The ``.apkg`` file to write.
        deck: The parent deck's name.
        timestamp: Seconds since the epoch given to notes and cards as their modification
            time; by default ``SOURCE_DATE_EPOCH`` when set, else now. Anki only updates an
            existing note from a package whose notes are newer.
    """
    stamp = resolve_timestamp(timestamp)
    cards = list(cards)
    package = build_package(cards, deck)
    # Zip dates run from 1980 and have a two-second resolution; UTC keeps them machine-free.
    date_time = time.gmtime(max(stamp, 315_532_800))[:6]
    with tempfile.TemporaryDirectory(prefix="konum-apkg-") as folder:
        database = Path(folder) / "collection.anki2"
        connection = sqlite3.connect(database)
        try:
            package.write_to_db(connection.cursor(), stamp, itertools.count(int(stamp * 1000)))
            connection.commit()
        finally:
            connection.close()
        media = media_files(cards)
        with zipfile.ZipFile(path, "w") as archive:
            archive.writestr(_zip_entry("collection.anki2", date_time), database.read_bytes())
            names = {str(i): file.name for i, file in enumerate(media)}
            archive.writestr(_zip_entry("media", date_time), json.dumps(names))
            for i, file in enumerate(media):
                archive.writestr(_zip_entry(str(i), date_time), file.data)
