"""Plain-text exports: Anki's text import format, a plain CSV and the study page's JSON.

Anki text format (File > Import of a ``.txt``): header lines first, then one tab-separated
row per note, fields quoted as the :mod:`csv` module quotes them when they hold tabs, quotes
or newlines (code blocks keep their line breaks). Columns:

1. GUID (the same as in the ``.apkg``), so importing again updates notes in place;
2. note type: Anki's stock ``Basic`` (Front, Back) or ``Cloze`` (Text, Back Extra), which
   every (English-language) collection has;
3. deck ``Konum::<bank title>``;
4. and 5. the two fields, HTML;
6. tags, separated by spaces.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path

from konum.exports.anki import anki_tags, deck_name, guid
from konum.exports.cards import Card, display_sides

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


def delimited_row(fields: Sequence[str], delimiter: str) -> str:
    """One row as :mod:`csv` writes it by default (``QUOTE_MINIMAL``, ``"`` doubled): a
    field holding the delimiter, a double quote or a line break is quoted; the row ends
    with ``"\\n"``.

    The csv module copies every character through its own buffer one at a time: for the
    flashcard exports (15 MB of HTML at 10,000 questions) that took 0.35-0.5 s a file,
    against a tenth of it for these string methods.
    """
    return delimiter.join(_quoted(field, delimiter) for field in fields) + "\n"


def _quoted(field: str, delimiter: str) -> str:
    if delimiter in field or '"' in field or "\n" in field or "\r" in field:
        return '"' + field.replace('"', '""') + '"'
    return field


def write_anki_text(cards: Iterable[Card], path: str | Path) -> None:
    """Write ``cards`` in Anki's plain-text import format (UTF-8, tab separated)."""
    rows = [
        delimited_row(
            (
                guid(card),
                TEXT_NOTETYPES[card.kind],
                deck_name(card),
                card.front,
                card.back,
                " ".join(anki_tags(card)),
            ),
            "\t",
        )
        for card in cards
    ]
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write("".join(line + "\n" for line in TEXT_HEADER))
        f.writelines(rows)


def write_csv(cards: Iterable[Card], path: str | Path) -> None:
    """Write a plain CSV with a header row ``front,back,tags`` for other flashcard tools.

    Fronts and backs are HTML; cloze cards are written as front/back pairs (blanks shown as
    ``[…]`` on the front, the answers marked on the back). Tags are space separated.
    """
    rows = [delimited_row((*display_sides(card), " ".join(anki_tags(card))), ",") for card in cards]
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(delimited_row(("front", "back", "tags"), ","))
        f.writelines(rows)


def cards_json(cards: Iterable[Card]) -> dict[str, object]:
    """The study page's data: ``{"version": 1, "decks": [...], "cards": [...]}``.

    Each card is ``{"key", "kind", "deck", "bank", "tags", "front", "back"}`` with cloze cards
    turned into front/back pairs (their back repeats the text with the answers filled in, so
    the study page shows it instead of the front); ``decks`` lists the deck titles in order of
    first appearance.
    """
    items: list[dict[str, object]] = []
    decks: dict[str, None] = {}
    for card in cards:
        front, back = display_sides(card)
        decks.setdefault(card.deck)
        items.append(
            {
                "key": card.key,
                "kind": card.kind,
                "deck": card.deck,
                "bank": card.bank,
                "tags": list(card.tags),
                "front": front,
                "back": back,
            }
        )
    return {"version": 1, "decks": list(decks), "cards": items}


def write_cards_json(cards: Iterable[Card], path: str | Path) -> None:
    """Write :func:`cards_json` to ``path`` (build the cards with ``math="mathml"``).

    ASCII, with ``\\u`` escapes for the rest (the MathML's ω, −, ·): json's ASCII encoder
    is a quarter faster on these strings, for about 1 % more bytes before compression.
    """
    data = cards_json(cards)
    Path(path).write_text(
        json.dumps(data, ensure_ascii=True, indent=None, separators=(",", ":")) + "\n",
        encoding="ascii",
    )
