"""Turn banks and concrete questions into a neutral list of flashcards.

Pure: no genanki, no files written. Every exporter (:mod:`.anki`, :mod:`.text`, the study
page's embedded JSON) reads the :class:`Card` objects built here.

Conventions:

* A card's ``key`` is stable: ``question:<id>`` for a question, ``question:<id>:variant:<i>``
  for variant ``i`` of a computed question, ``flashcard:<bank>:<id>`` for a bank's
  ``flashcards`` entry. Exporters derive Anki note GUIDs from it, so a regenerated deck
  (another seed, new numbers) updates notes in place instead of adding new ones.
* Choice options appear in the quiz's order: the seed's shuffle from the question's
  :class:`konum.model.Concrete` (:func:`konum.variants.option_order`: keyed by the seed and
  the question id, pinned options in place, ``shuffle: false`` kept as written), so the
  right answer is not always "A" and the same seed gives the same card on every export.
  Computed cards and an ordering card's front (the quiz's starting order, its back the
  right order) depend on the seed too; matching pairs, fill-ins, numbers and facts never
  do. Points, hints' costs, attempts, pools and exam mode belong to the page: cards have
  none of them. A changed order changes a note's fields, not its identity: Anki updates it in place.
* ``front`` and ``back`` are HTML from :func:`konum.markup.render_markdown` with the
  ``math`` mode asked for: ``"anki"`` (MathJax delimiters ``\\( \\)`` / ``\\[ \\]``) for the
  Anki and text exports, ``"mathml"`` for the study page.
* A bank's images (:mod:`konum.images`) come out in the form asked for (:data:`ImageForm`):
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

import hashlib
import html
import re
import tempfile
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal

from konum import images, model
from konum.errors import ExportError
from konum.formatting import format_number
from konum.markup import render_markdown
from konum.messages import message
from konum.programs import code_block
from konum.variants import item_order, option_order

CardKind = Literal["basic", "cloze"]
MathMode = Literal["anki", "mathml"]
#: How a card carries its images (see the module docstring).
ImageForm = Literal["inline", "files", "names"]

#: Placeholder for a fill blank while its prompt goes through Markdown: letters and digits
#: only, so Markdown, code highlighting and escaping leave it intact, inside code or not.
_BLANK_TOKEN = "KONUMBLANK{}X"
_BLANK_RE = re.compile(model.BLANK_PATTERN)
_CLOZE_RE = re.compile(r"\{\{c\d+::(.*?)(?:::(.*?))?\}\}", re.DOTALL)


@dataclass(frozen=True)
class MediaFile:
    """A file an Anki package carries beside its notes: its flat name and its bytes."""

    name: str
    data: bytes = field(repr=False)


@dataclass(frozen=True)
class Card:
    """One flashcard, independent of the tool it is exported to.

    Attributes:
        key: Stable identity (see the module docstring); Anki GUIDs derive from it.
        bank: Id of the bank the card came from (Anki deck ids derive from it).
        deck: The bank's title; Anki puts the card in the subdeck ``Konum::<deck>``.
        kind: ``"basic"`` (front/back) or ``"cloze"`` (front holds cloze text).
        front: HTML of the front, or the cloze text for a cloze card.
        back: HTML of the back, or the "Back Extra" for a cloze card.
        tags: The bank id, then the question's tags, in order, without duplicates (not yet
            sanitised for any tool).
        media: Files the HTML names by their flat name (``<img src="name">``): images and
            figures, for the Anki package.
        language: The language of the card's words; Anki identities of other languages
            than English are derived from it too, so a learner can hold both decks.
    """

    key: str
    bank: str
    deck: str
    kind: CardKind
    front: str
    back: str
    tags: tuple[str, ...] = ()
    media: tuple[MediaFile, ...] = ()
    language: str = "en"


def _render(text: str, math: MathMode, *, inline: bool = False) -> str:
    # Images stay references until build_card_sets knows which form each set wants.
    return render_markdown(text, inline=inline, math=math, images="refs")


def _letter(index: int) -> str:
    return chr(ord("A") + index)


def _answer_line(label: str, body_html: str) -> str:
    return f'<p class="konum-answer"><strong>{label}:</strong> {body_html}</p>'


def _section(class_name: str, body_html: str, heading: str | None = None) -> str:
    head = f"<p><strong>{heading}</strong></p>" if heading else ""
    return f'<div class="{class_name}">{head}{body_html}</div>'


def _explanation(text: str, math: MathMode) -> str:
    return _section("konum-explanation", _render(text, math)) if text.strip() else ""


def _options_list(texts: Sequence[str], math: MathMode) -> str:
    items = "".join(f"<li>{_render(t, math, inline=True)}</li>" for t in texts)
    return f'<ol class="konum-options" type="A">{items}</ol>'


def _tags(bank: model.Bank, tags: Iterable[str], *extra: str) -> tuple[str, ...]:
    return tuple(dict.fromkeys(t for t in (bank.id, *tags, *extra) if t.strip()))


def _option_order(q: model.ChoiceQuestion, concrete: model.Concrete | None) -> tuple[int, ...]:
    """The quiz's order of ``q``'s options: its concrete's, else the one its seed gives
    (seed 0 when there is no concrete)."""
    if concrete is not None and concrete.option_order:
        return concrete.option_order
    return option_order(q, concrete.seed if concrete is not None else 0)


def _choice_card(
    bank: model.Bank, q: model.ChoiceQuestion, order: Sequence[int], math: MathMode, lang: str
) -> Card:
    hint = f"<p><em>{message(lang, 'cards.choose_all')}</em></p>" if q.multiple else ""
    shown = [q.options[i] for i in order]
    front = _render(q.prompt, math) + hint + _options_list([o.text for o in shown], math)
    correct = [(i, o) for i, o in enumerate(shown) if o.correct]
    label = message(lang, "cards.answers" if len(correct) > 1 else "cards.answer")
    answers = "; ".join(f"{_letter(i)}. {_render(o.text, math, inline=True)}" for i, o in correct)
    back = _answer_line(label, answers) + _explanation(q.explanation, math)
    return Card(f"question:{q.id}", bank.id, bank.title, "basic", front, back, _tags(bank, q.tags))


def _cloze_answer(q: model.FillQuestion, index: int, blank: model.Blank) -> str:
    shown = blank.answers[0] if blank.answers else blank.regex or ""
    if not shown.strip():
        raise ExportError(f"question {q.id!r}: blank {index + 1} has no answer to show")
    return shown


def _cloze_safe(answer: str) -> str:
    """``answer`` as HTML in which Anki's cloze delimiters cannot occur.

    Anki parses ``{{c1::text::hint}}`` on the field's HTML source, so ``::`` (Python's
    ``[::-1]``) or braces in an answer would cut the deletion short. As character
    references they render the same and are invisible to the cloze parser.
    """
    escaped = html.escape(answer, quote=False)
    return escaped.replace(":", "&#58;").replace("{", "&#123;").replace("}", "&#125;")


def _fill_card(bank: model.Bank, q: model.FillQuestion, math: MathMode) -> Card:
    count = len(_BLANK_RE.findall(q.prompt))
    if count != len(q.blanks):
        raise ExportError(
            f"question {q.id!r}: expected {len(q.blanks)} blanks in the prompt, found {count}"
        )
    tokens = iter(range(count))
    source = _BLANK_RE.sub(lambda _m: _BLANK_TOKEN.format(next(tokens)), q.prompt)
    text = _render(source, math)
    for i, blank in enumerate(q.blanks):
        token = _BLANK_TOKEN.format(i)
        if text.count(token) != 1:
            raise ExportError(
                f"question {q.id!r}: blank {i + 1} did not survive rendering (is it inside"
                " math? blanks in math cannot become cloze deletions)"
            )
        # The answer lands in the rendered HTML, inside <code> when the blank was in code,
        # so it keeps the code formatting; escape it like any text.
        answer = _cloze_safe(_cloze_answer(q, i, blank))
        text = text.replace(token, "{{c1::" + answer + "}}")
    return Card(
        f"question:{q.id}",
        bank.id,
        bank.title,
        "cloze",
        text,
        _explanation(q.explanation, math),
        _tags(bank, q.tags),
    )


def _matching_card(bank: model.Bank, q: model.MatchingQuestion, math: MathMode, lang: str) -> Card:
    lefts = "".join(f"<li>{_render(p.left, math, inline=True)}</li>" for p in q.pairs)
    front = _render(q.prompt, math) + f'<ul class="konum-match-items">{lefts}</ul>'
    rows = "".join(
        f"<tr><td>{_render(p.left, math, inline=True)}</td>"
        f"<td>{_render(p.right, math, inline=True)}</td></tr>"
        for p in q.pairs
    )
    table = (
        f'<table class="konum-pairs"><thead><tr><th scope="col">{message(lang, "cards.item")}'
        f'</th><th scope="col">{message(lang, "cards.matches")}</th></tr></thead>'
        f"<tbody>{rows}</tbody></table>"
    )
    back = table + _explanation(q.explanation, math)
    return Card(f"question:{q.id}", bank.id, bank.title, "basic", front, back, _tags(bank, q.tags))


def _numeric_card(bank: model.Bank, q: model.NumericQuestion, math: MathMode, lang: str) -> Card:
    shown = html.escape(format_number(q.answer, q.decimals, q.unit, lang), quote=False)
    back = _answer_line(message(lang, "cards.answer"), shown) + _explanation(q.explanation, math)
    return Card(
        f"question:{q.id}",
        bank.id,
        bank.title,
        "basic",
        _render(q.prompt, math),
        back,
        _tags(bank, q.tags),
    )


def _output_card(bank: model.Bank, q: model.OutputQuestion, math: MathMode, language: str) -> Card:
    """The task on the front; the example solution, what it prints and the explanation on
    the back."""
    printed = html.escape(q.expected, quote=False)
    back = (
        _section(
            "konum-solution",
            _render(code_block(q.solution), math),
            message(language, "cards.example_solution"),
        )
        + _section(
            "konum-output",
            f"<pre><code>{printed}</code></pre>",
            message(language, "cards.it_prints"),
        )
        + _explanation(q.explanation, math)
    )
    return Card(
        f"question:{q.id}",
        bank.id,
        bank.title,
        "basic",
        _render(q.prompt, math),
        back,
        _tags(bank, q.tags),
    )


def _variant_card(
    bank: model.Bank, q: model.ComputedQuestion, v: model.Variant, math: MathMode, lang: str
) -> Card:
    front = _render(v.prompt, math)
    shown_text = f"{v.shown_answer} {v.unit}" if v.unit else v.shown_answer
    shown = html.escape(shown_text, quote=False)
    if v.options:
        front += _options_list([o.text for o in v.options], math)
        letters = [_letter(i) for i, o in enumerate(v.options) if o.correct]
        shown = f"{', '.join(letters)}. {shown}" if letters else shown
    back = (
        _answer_line(message(lang, "cards.answer"), shown)
        + _section(
            "konum-solution",
            _render(v.solution, math),
            heading=message(lang, "cards.worked_solution"),
        )
        + _explanation(q.explanation, math)
    )
    return Card(
        f"question:{q.id}:variant:{v.index}",
        bank.id,
        bank.title,
        "basic",
        front,
        back,
        _tags(bank, q.tags, "computed"),
    )


def _ordering_card(
    bank: model.Bank, q: model.OrderingQuestion, order: Sequence[int], math: MathMode
) -> Card:
    """The items on the front in the quiz's starting order, the right order on the back."""
    shown = "".join(f"<li>{_render(q.items[i], math, inline=True)}</li>" for i in order)
    front = _render(q.prompt, math) + f'<ul class="konum-order-items">{shown}</ul>'
    right = "".join(f"<li>{_render(item, math, inline=True)}</li>" for item in q.items)
    back = f'<ol class="konum-order">{right}</ol>' + _explanation(q.explanation, math)
    return Card(f"question:{q.id}", bank.id, bank.title, "basic", front, back, _tags(bank, q.tags))


def _flashcard(bank: model.Bank, fc: model.Flashcard, math: MathMode) -> Card:
    return Card(
        f"flashcard:{bank.id}:{fc.id}",
        bank.id,
        bank.title,
        "basic",
        _render(fc.front, math),
        _render(fc.back, math),
        _tags(bank, fc.tags),
    )


def _carry_images(card: Card, form: ImageForm) -> Card:
    """``card`` with its images in ``form`` (see the module docstring)."""
    found: dict[str, MediaFile] = {}

    def write(image: images.Image, attributes: dict[str, str]) -> str:
        if form == "inline":
            return images.img_tag(image.data_uri, attributes)
        if form == "files":
            found.setdefault(image.name, MediaFile(image.name, image.data))
        return images.img_tag(image.name, attributes)

    front = images.substitute(card.front, write)
    back = images.substitute(card.back, write)
    return replace(card, front=front, back=back, media=card.media + tuple(found.values()))


def build_cards(
    banks: Iterable[model.Bank],
    concretes: Iterable[model.Concrete] = (),
    *,
    math: MathMode = "anki",
    images: ImageForm = "inline",
    language: str = "en",
) -> list[Card]:
    """All flashcards of ``banks``, in the order of ``banks`` (the caller's: the course's
    order), each bank's questions first, then its ``flashcards``.

    Args:
        banks: The loaded banks.
        concretes: Concrete questions for one seed, looked up by question id: a computed
            question's variants (one card each, required) and a choice question's option
            order (without one, the order of seed 0).
        math: ``"anki"`` for MathJax delimiters, ``"mathml"`` for the study page.
        images: how the cards carry images and figures (:data:`ImageForm`): ``"files"``
            lists them in :attr:`Card.media`.
        language: The language of the cards' own words (``cards`` messages) and numbers;
            the banks and concretes are already in it (:func:`konum.course.course_for`).

    Returns:
        The cards; questions with ``flashcard: false`` are left out.

    Raises:
        ExportError: A computed question has no concrete variants, a fill prompt's blanks do
            not match its answers or an answer cannot be a cloze deletion.
    """
    (cards,) = build_card_sets(banks, concretes, math=math, forms=(images,), language=language)
    return cards


def build_card_sets(
    banks: Iterable[model.Bank],
    concretes: Iterable[model.Concrete] = (),
    *,
    math: MathMode = "anki",
    forms: Sequence[ImageForm] = ("inline",),
    language: str = "en",
) -> list[list[Card]]:
    """:func:`build_cards` once for each of ``forms``, rendering the texts only once (the
    sets differ only in how images and figures are carried)."""
    by_id = {c.question.id: c for c in concretes}
    bare: list[Card] = []
    figures: dict[str, model.FigureRef] = {}  # question id -> its figure
    for bank in banks:
        for q in bank.questions:
            if not q.flashcard:
                continue
            if q.figure is not None:
                figures[q.id] = q.figure
            if isinstance(q, model.ChoiceQuestion):
                order = _option_order(q, by_id.get(q.id))
                bare.append(_choice_card(bank, q, order, math, language))
            elif isinstance(q, model.FillQuestion):
                bare.append(_fill_card(bank, q, math))
            elif isinstance(q, model.MatchingQuestion):
                bare.append(_matching_card(bank, q, math, language))
            elif isinstance(q, model.NumericQuestion):
                bare.append(_numeric_card(bank, q, math, language))
            elif isinstance(q, model.OutputQuestion):
                bare.append(_output_card(bank, q, math, language))
            elif isinstance(q, model.OrderingQuestion):
                start = by_id.get(q.id)
                order = start.item_order if start and start.item_order else item_order(q, 0)
                bare.append(_ordering_card(bank, q, order, math))
            else:
                concrete = by_id.get(q.id)
                if concrete is None or not concrete.variants:
                    raise ExportError(
                        f"computed question {q.id!r} in bank {bank.id!r} has no variants;"
                        " pass its Concrete to build the cards"
                    )
                bare.extend(_variant_card(bank, q, v, math, language) for v in concrete.variants)
        bare.extend(_flashcard(bank, fc, math) for fc in bank.flashcards)
    if language != "en":
        bare = [replace(card, language=language) for card in bare]
    duplicates = sorted(k for k, n in Counter(c.key for c in bare).items() if n > 1)
    if duplicates:
        raise ExportError(f"duplicate card keys (ids must be unique): {', '.join(duplicates)}")
    sets = []
    for form in forms:
        cards = [_carry_images(card, form) for card in bare]
        if figures:
            cards = [
                _with_figure(card, figures, language, as_file=form == "files") for card in cards
            ]
        sets.append(cards)
    return sets


#: Where figure files for Anki packages are written (their names are content hashes).
FIGURE_DIR = Path(tempfile.gettempdir()) / "konum-figures"
_QUESTION_KEY = re.compile(r"question:(?P<id>[^:]+)")


def figure_svg_file(ref: model.FigureRef, language: str = "en") -> Path:
    """A question's figure as a standalone SVG file named after its content, its words in
    ``language``.

    In a card the image is shown through ``<img>``, where the page's text colour does not
    reach, so ``currentColor`` becomes a mid grey that reads on light and dark card themes.
    """
    from konum.figures import render_svg

    markup = render_svg(ref.name, ref.alt, ref.caption, language=language, **ref.params)
    svg = markup[markup.index("<svg") : markup.rindex("</svg>") + len("</svg>")]
    if "xmlns=" not in svg[: svg.index(">")]:
        svg = svg.replace("<svg", '<svg xmlns="http://www.w3.org/2000/svg"', 1)
    data = svg.replace("currentColor", "#808080").encode("utf-8")
    path = FIGURE_DIR / f"konum-{ref.name}-{hashlib.sha256(data).hexdigest()[:12]}.svg"
    if not path.exists():
        FIGURE_DIR.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return path


def _with_figure(
    card: Card, figures: dict[str, model.FigureRef], language: str, *, as_file: bool
) -> Card:
    """Put the card's question figure, its words in ``language``, above its front: a media
    file for Anki packages, inline SVG elsewhere (text, CSV and the study page carry no media
    files; a figure is drawn by konum, so it needs none)."""
    m = _QUESTION_KEY.match(card.key)
    ref = figures.get(m.group("id")) if m else None
    if ref is None:
        return card
    if as_file:
        path = figure_svg_file(ref, language)
        alt = html.escape(ref.alt, quote=True)
        shown = f'<div class="konum-card-figure"><img src="{path.name}" alt="{alt}"></div>'
        media = (*card.media, MediaFile(path.name, path.read_bytes()))
    else:
        from konum.figures import render_svg

        shown = render_svg(ref.name, ref.alt, ref.caption, language=language, **ref.params)
        media = card.media
    return replace(card, front=shown + card.front, media=media)


def display_sides(card: Card) -> tuple[str, str]:
    """Front and back HTML for tools without cloze support.

    A basic card is returned as is. For a cloze card the front shows each deletion as
    ``[…]`` and the back shows the text with the answers marked, then the "Back Extra".
    """
    if card.kind == "basic":
        return card.front, card.back
    front = _CLOZE_RE.sub('<span class="konum-cloze">[…]</span>', card.front)
    back = _CLOZE_RE.sub(r'<mark class="konum-cloze">\1</mark>', card.front) + card.back
    return front, back
