"""Turn banks and concrete questions into a neutral list of flashcards.

Pure: no genanki, no files written. Every exporter (:mod:`.anki`, :mod:`.text`, the study
page's embedded JSON) reads the :class:`Card` objects built here.

Conventions:

* A card's ``key`` is stable: ``question:<id>`` for a question, ``question:<id>:variant:<i>``
  for variant ``i`` of a computed question, ``flashcard:<bank>:<id>`` for a bank's
  ``flashcards`` entry. Exporters derive Anki note GUIDs from it, so a regenerated deck
  (another seed, new numbers) updates notes in place instead of adding new ones.
* Choice options appear in the quiz's order: the seed's shuffle from the question's
  :class:`konum.types.Concrete` (keyed by the seed and the question id, pinned options in
  place, ``shuffle: false`` kept as written), so the right answer is not always "A" and
  the same seed gives the same card on every export.
  Computed cards and an ordering card's front (the quiz's starting order, its back the
  right order) depend on the seed too; matching pairs, fill-ins, numbers and facts never
  do. Points, hints' costs, attempts, pools and exam mode belong to the page: cards have
  none of them. A changed order changes a note's fields, not its identity: Anki updates it in place.
* Each question's type makes its cards (:meth:`konum.types.Question.cards`). ``front`` and
  ``back`` are HTML from :func:`konum.markup.render_markdown` with the ``math`` mode asked
  for: ``"anki"`` (MathJax delimiters ``\\( \\)`` / ``\\[ \\]``) for the Anki and text
  exports, ``"mathml"`` for the study page.
* A course's images (:mod:`konum.images`) come out in the form asked for (:data:`ImageForm`):
  ``"inline"`` as ``data:`` URIs (the study page), ``"files"`` as ``<img src="NAME">`` with
  each file in :attr:`Card.media` (the Anki package; ``NAME`` is the image's flat name,
  ``<stem>-<hash>.<ext>``, since Anki's media folder has no subfolders), ``"names"`` as the
  same ``<img src="NAME">`` without the files (Anki text and CSV: the names the package gives
  them, so the images show once the package has been imported; the alt text otherwise).
* A ``cloze`` card holds Anki cloze text in ``front`` (every blank is ``{{c1::answer}}``, so
  the note makes one card that hides all blanks at once) and the "Back Extra" in ``back``;
  :func:`display_sides` turns it into a plain front/back pair for tools without cloze support.
"""

from __future__ import annotations

import html
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import replace
from functools import partial
from typing import Literal

from konum import images as image_files
from konum.errors import ExportError
from konum.figures import figure_file, render_svg
from konum.images import Images
from konum.markup import MathMode, render_markdown
from konum.messages import message
from konum.model import FigureRef, Flashcard
from konum.plugins import NONE, Plugins
from konum.types import Bank, Card, Cards, Concrete, Draw, MediaFile

__all__ = [
    "Card",
    "ImageForm",
    "MediaFile",
    "build_card_sets",
    "build_cards",
    "display_sides",
    "marked_cloze",
]

#: How a card carries its images (see the module docstring).
ImageForm = Literal["inline", "files", "names"]
_QUESTION_KEY = re.compile(r"question:(?P<id>[^:]+)")
_CLOZE_RE = re.compile(r"\{\{c\d+::(.*?)(?:::(.*?))?\}\}", re.DOTALL)


def _flashcard(ctx: Cards, fc: Flashcard) -> Card:
    tags = ctx.bank.card_tags(*fc.tags)
    return Card(
        f"flashcard:{ctx.bank.id}:{fc.id}",
        ctx.bank.id,
        ctx.bank.title,
        "basic",
        ctx.md(fc.front),
        ctx.md(fc.back),
        tags,
    )


def _carry_images(card: Card, form: ImageForm, store: Images) -> Card:
    """``card`` with its images in ``form`` (see the module docstring)."""
    found: dict[str, MediaFile] = {}

    def write(image: image_files.Image, attributes: dict[str, str]) -> str:
        if form == "inline":
            return image_files.img_tag(image.data_uri, attributes)
        if form == "files":
            found.setdefault(image.name, MediaFile(image.name, image.data))
        return image_files.img_tag(image.name, attributes)

    front = image_files.substitute(card.front, store, write)
    back = image_files.substitute(card.back, store, write)
    return replace(card, front=front, back=back, media=card.media + tuple(found.values()))


def _with_figure(
    card: Card, figures: dict[str, FigureRef], plugins: Plugins, language: str, *, as_file: bool
) -> Card:
    """Put the card's question figure, its words in ``language``, above its front: a media
    file for Anki packages, inline SVG elsewhere (text, CSV and the study page carry no media
    files; a figure is drawn by konum, so it needs none)."""
    m = _QUESTION_KEY.match(card.key)
    ref = figures.get(m.group("id")) if m else None
    if ref is None:
        return card
    figure = plugins.figure(ref.name)
    if as_file:
        name, data = figure_file(figure, ref.alt, ref.caption, language=language, **ref.params)
        alt = html.escape(ref.alt, quote=True)
        shown = f'<div class="konum-card-figure"><img src="{name}" alt="{alt}"></div>'
        return replace(card, front=shown + card.front, media=(*card.media, MediaFile(name, data)))
    shown = render_svg(figure, ref.alt, ref.caption, language=language, **ref.params)
    return replace(card, front=shown + card.front)


def build_cards(
    banks: Iterable[Bank],
    concretes: Iterable[Concrete] = (),
    *,
    math: MathMode = "anki",
    images: ImageForm = "inline",
    language: str = "en",
    plugins: Plugins = NONE,
    store: Images | None = None,
) -> list[Card]:
    """All flashcards of ``banks``, in the order of ``banks`` (the caller's: the course's
    order), each bank's questions first, then its ``flashcards``.

    Args:
        banks: The checked banks.
        concretes: The questions with one seed applied, looked up by question id (a
            computed question's variants, one card each; a choice question's option order);
            a question without one is drawn with seed 0.
        math: ``"anki"`` for MathJax delimiters, ``"mathml"`` for the study page.
        images: how the cards carry images and figures (:data:`ImageForm`): ``"files"``
            lists them in :attr:`Card.media`.
        language: The language of the cards' own words (``cards`` messages) and numbers;
            the banks and concretes are already in it (:func:`konum.course.course_for`).
        plugins: What draws the questions' figures.
        store: The checked images the texts show (a course's ``images``).

    Returns:
        The cards; questions with ``flashcard: false`` are left out.

    Raises:
        ExportError: Two cards share a key.
    """
    (cards,) = build_card_sets(
        banks,
        concretes,
        math=math,
        forms=(images,),
        language=language,
        plugins=plugins,
        store=store,
    )
    return cards


def build_card_sets(
    banks: Iterable[Bank],
    concretes: Iterable[Concrete] = (),
    *,
    math: MathMode = "anki",
    forms: Sequence[ImageForm] = ("inline",),
    language: str = "en",
    plugins: Plugins = NONE,
    store: Images | None = None,
) -> list[list[Card]]:
    """:func:`build_cards` once for each of ``forms``, rendering the texts only once (the
    sets differ only in how images and figures are carried)."""
    by_id = {c.question.id: c for c in concretes}
    md = partial(render_markdown, math=math)
    say = partial(message, language)
    bare: list[Card] = []
    figures: dict[str, FigureRef] = {}  # question id -> its figure
    for bank in banks:
        ctx = Cards(bank, language, md, say)
        for q in bank.questions:
            if not q.flashcard:
                continue
            if q.figure is not None:
                figures[q.id] = q.figure
            concrete = by_id.get(q.id) or q.concrete(Draw(0, language=language, plugins=plugins))
            bare.extend(q.cards(concrete, ctx))
        bare.extend(_flashcard(ctx, fc) for fc in bank.flashcards)
    if language != "en":
        bare = [replace(card, language=language) for card in bare]
    duplicates = sorted(k for k, n in Counter(c.key for c in bare).items() if n > 1)
    if duplicates:
        raise ExportError(f"duplicate card keys (ids must be unique): {', '.join(duplicates)}")
    sets = []
    for form in forms:
        cards = [_carry_images(card, form, store or {}) for card in bare]
        if figures:
            cards = [
                _with_figure(card, figures, plugins, language, as_file=form == "files")
                for card in cards
            ]
        sets.append(cards)
    return sets


def display_sides(card: Card) -> tuple[str, str]:
    """Front and back HTML for tools without cloze support: a basic card as it is; for a
    cloze card the front shows each deletion as ``[…]`` and the back the text with the
    answers marked (:func:`marked_cloze`), then the "Back Extra"."""
    if card.kind == "basic":
        return card.front, card.back
    front = _CLOZE_RE.sub('<span class="konum-cloze">[…]</span>', card.front)
    return front, marked_cloze(card) + card.back


def marked_cloze(card: Card) -> str:
    """A cloze card's text with each deletion's answer in ``<mark class="konum-cloze">``."""
    return _CLOZE_RE.sub(r'<mark class="konum-cloze">\1</mark>', card.front)
