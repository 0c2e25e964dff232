"""Plain-text exports: Anki's text import format, a plain CSV and the study page's data.

Anki text format (File > Import of a ``.txt``): header lines first, then one tab-separated
row per note, every field quoted as the :mod:`csv` module quotes (so no row starts with
``#``, which Anki reads as a comment, and code blocks keep their line breaks). Columns:

1. GUID (the same as in the ``.apkg``), so importing again updates notes in place;
2. note type: Anki's stock ``Basic`` (Front, Back) or ``Cloze`` (Text, Back Extra), which
   every (English-language) collection has;
3. deck ``<deck>::<NN> <bank title>``, numbered in the course's order;
4. and 5. the two fields, HTML;
6. tags, separated by spaces.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable
from pathlib import Path

from konum.exports.anki import anki_tags, deck_names, guid
from konum.exports.cards import display_sides, marked_cloze
from konum.markup import json_html
from konum.types import Card

#: Anki's stock note types used by the text export, by card kind.
TEXT_NOTETYPES = {"basic": "Basic", "cloze": "Cloze"}

TEXT_HEADER = (
    "#separator:tab",
    "#html:true",
    "#guid column:1",
    "#notetype column:2",
    "#deck column:3",
    "#tags column:6",
)


def write_anki_text(cards: Iterable[Card], path: str | Path, *, deck: str) -> None:
    """Write ``cards`` in Anki's plain-text import format (UTF-8, tab separated), each bank
    in the subdeck ``<deck>::<bank title>``."""
    cards = list(cards)
    names = deck_names(cards, deck)
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write("".join(line + "\n" for line in TEXT_HEADER))
        # Every field quoted: a row whose GUID starts with "#" would be a comment to Anki.
        writer = csv.writer(f, delimiter="\t", lineterminator="\n", quoting=csv.QUOTE_ALL)
        for card in cards:
            writer.writerow(
                _cells(
                    guid(card),
                    TEXT_NOTETYPES[card.kind],
                    names[card.bank],
                    card.front,
                    card.back,
                    " ".join(anki_tags(card)),
                )
            )


def _cells(*cells: str) -> list[str]:
    """A row's cells with NUL shown as U+FFFD, as HTML parsers show it: the csv module of
    Python before 3.11 cannot write NUL (konum check refuses it in banks; a plugin's text is
    not checked)."""
    return [cell.replace("\x00", "\ufffd") for cell in cells]


#: What a spreadsheet reads as the start of a formula (OWASP's CSV injection advice).
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
#: A plain number, which a spreadsheet reads as that number and never as a formula.
_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")


def spreadsheet_cell(text: str) -> str:
    """``text`` as a CSV cell a spreadsheet shows as text: one that starts with ``=``, ``+``,
    ``-``, ``@``, a tab or a CR gets a leading ``'`` (OWASP's advice: the spreadsheet then
    takes it as text and does not show the quote), unless the whole cell is a plain number
    (``-3``, ``+1.5``, ``2e-3``), which a teacher expects to read as that number."""
    if text.startswith(FORMULA_START) and not _NUMBER.fullmatch(text):
        return "'" + text
    return text


def write_csv(cards: Iterable[Card], path: str | Path) -> None:
    """Write a plain CSV with a header row ``front,back,tags`` for other flashcard tools.

    Fronts and backs are HTML; cloze cards are written as front/back pairs (blanks shown as
    ``[…]`` on the front, the answers marked on the back). Tags are space separated. Each
    cell is a :func:`spreadsheet_cell`.
    """
    with open(path, "w", encoding="utf-8", newline="") as f:
        # Every cell quoted: a CR, which lineterminator "\n" does not make csv quote, would
        # end the row for a reader.
        writer = csv.writer(f, lineterminator="\n", quoting=csv.QUOTE_ALL)
        writer.writerow(("front", "back", "tags"))
        for card in cards:
            cells = (*display_sides(card), " ".join(anki_tags(card)))
            writer.writerow(_cells(*(spreadsheet_cell(cell) for cell in cells)))


def cards_json(cards: Iterable[Card]) -> dict[str, object]:
    """The study page's data: ``{"version": 2, "decks": [...], "cards": [...]}``.

    ``decks`` lists the deck titles in order of first appearance. A card is ``{"key",
    "deck", "front", "back"}``, ``deck`` its deck's index in ``decks``; a cloze card is
    ``{"key", "deck", "cloze", "back"}``, ``cloze`` its text with the answers marked
    (:func:`~konum.exports.cards.marked_cloze`), which the page shows with each mark as
    ``[…]`` for the front and then in full above the "Back Extra" ``back``: the text once,
    not twice. What the page does not read (the card's bank and tags) is left to the
    downloads; the HTML is written as :func:`konum.markup.json_html` (no quote for the
    JSON to escape).
    """
    items: list[dict[str, object]] = []
    decks: dict[str, int] = {}
    for card in cards:
        item: dict[str, object] = {"key": card.key, "deck": decks.setdefault(card.deck, len(decks))}
        if card.kind == "cloze":
            item["cloze"] = json_html(marked_cloze(card))
        else:
            item["front"] = json_html(card.front)
        item["back"] = json_html(card.back)
        items.append(item)
    return {"version": 2, "decks": list(decks), "cards": items}
