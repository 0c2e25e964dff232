"""What every question type is: its common fields, and the one protocol the stages call.

A question type is one module of this package (``choice.py``, ...): a frozen dataclass
subclassing :class:`Question` with the type's own fields, and the methods below. The stages
never ask which type a question is; each calls the method it needs:

=====================  ==========================  ==========================================
stage                  method                      gives
=====================  ==========================  ==========================================
load (konum.load)      :meth:`Question.read`       the question from its YAML node, or None
translate, check       :meth:`Question.texts`,     its Markdown texts by field path, and the
                       :meth:`Question.replaced`   question with some of them replaced
check (konum.check)    :meth:`Question.probe`      what drawing, running or evaluating finds,
                                                   and the question it completes
variants (course)      :meth:`Question.concrete`   the question with a seed applied
render (konum.render)  :meth:`Question.view`       the view its template ``quiz/<type>.html.j2``
                                                   renders, and the checker's data for quiz.js
cards                  :meth:`Question.cards`      its flashcards
Moodle XML, GIFT, QTI  :meth:`Question.moodle`,    its part of each file, or why it cannot be
                       :meth:`Question.gift`,      there (``*_problem``)
                       :meth:`Question.qti`
printed exams          :meth:`Question.printed`    one version's printed question and key
terminal quiz          :meth:`Question.grade`      quiz.js's verdict on an answer, from the
                                                   checker's data (``konum quiz``)
=====================  ==========================  ==========================================

Each stage hands its method a small context (:class:`Draw`, :class:`Page`, :class:`Cards`,
:class:`Print`) with what the method may use: the seed and plugins, and the functions that
turn Markdown into the stage's HTML. Field paths are those of the bank (``options[1].text``);
a path that ends at an object with a ``text`` (a hint) means that text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, is_dataclass, replace
from pathlib import Path
from typing import Any, ClassVar, Literal, TypeVar

from markupsafe import Markup

from konum import limits
from konum.fields import Reader
from konum.lms import GiftWriter, MoodleDocument
from konum.model import FigureRef, Flashcard, Hint, Source, Variant
from konum.plugins import Plugins
from konum.qti_items import QtiDocument
from konum.yamlsource import YMap, YSeq

Q = TypeVar("Q", bound="Question")
_PART = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def _get(obj: object, path: str) -> object:
    for name, index in _PART.findall(path):
        obj = obj[int(index)] if index else getattr(obj, name)  # type: ignore[index]
    return getattr(obj, "text", obj) if is_dataclass(obj) else obj


def _set(obj: Any, parts: list[tuple[str, str]], value: object) -> Any:
    """``obj`` with the thing at ``parts`` replaced by ``value`` (dataclasses and tuples are
    copied along the way; an object with a ``text`` at the end gets its text replaced)."""
    if not parts:
        return (
            replace(obj, text=value) if is_dataclass(obj) and not isinstance(obj, type) else value
        )
    (name, index), rest = parts[0], parts[1:]
    if index:
        items = list(obj)
        items[int(index)] = _set(items[int(index)], rest, value)
        return tuple(items)
    return replace(obj, **{name: _set(getattr(obj, name), rest, value)})


def expand(obj: object, pattern: str) -> list[str]:
    """The paths ``pattern`` names in ``obj``: ``options[].text`` gives ``options[0].text``,
    ``options[1].text``, ... (one ``[]`` per level of lists)."""
    if "[]" not in pattern:
        return [pattern]
    head, _, tail = pattern.partition("[]")
    items = _get(obj, head)
    assert isinstance(items, tuple)
    return [path for i in range(len(items)) for path in expand(obj, f"{head}[{i}]{tail}")]


@dataclass(frozen=True)
class Finding:
    """Something the check stage found in a question: the field path, the message, and the
    0-based place inside the field's text when it is at one place of it (``offset``; or its
    1-based ``line``, for a program)."""

    field: str
    message: str
    offset: int | None = None
    line: int | None = None


@dataclass(frozen=True)
class Probe:
    """What :meth:`Question.probe` may use: the site's plugins, whether example programs may
    run (``konum check --run-programs``, or the site's ``run_programs`` option), and the
    variants the site draws of each computed question."""

    plugins: Plugins
    run_programs: bool = False
    variants: int = limits.DEFAULT_VARIANTS


@dataclass(frozen=True)
class Draw:
    """What :meth:`Question.concrete` draws with: the seed, the variants of a computed
    question, the language its generator words them in, and the plugins it comes from."""

    seed: int
    variants: int = limits.DEFAULT_VARIANTS
    language: str = "en"
    plugins: Plugins = field(default_factory=Plugins)


@dataclass(frozen=True)
class Page:
    """What :meth:`Question.view` renders with, for one question in a quiz page.

    Attributes:
        dom_id: the question's element id, ``konum-<quiz>-<question>``.
        salt: the salt of its hashes and sealed parts (:mod:`konum.seal`).
        language: the interface's language.
        md: Markdown to the page's HTML (MathML, images inline); ``inline`` unwraps one
            paragraph.
        blank: the HTML of fill-in blank ``index`` of ``total``, element id given.
    """

    dom_id: str
    salt: str
    language: str
    md: Callable[..., Markup]
    blank: Callable[[str, int, int], str]


CardKind = Literal["basic", "cloze"]


@dataclass(frozen=True)
class MediaFile:
    """A file an Anki package carries beside its notes: its flat name and its bytes."""

    name: str
    data: bytes = field(repr=False)


@dataclass(frozen=True)
class Card:
    """One flashcard, independent of the tool it is exported to.

    Attributes:
        key: Stable identity (``question:<id>``, ``question:<id>:variant:<i>``,
            ``flashcard:<bank>:<id>``); Anki GUIDs derive from it.
        bank: Id of the bank the card came from (Anki deck ids derive from it).
        deck: The bank's title; Anki puts the card in the subdeck ``<deck>::<title>``.
        kind: ``"basic"`` (front/back) or ``"cloze"`` (front holds cloze text).
        front: HTML of the front, or the cloze text for a cloze card.
        back: HTML of the back, or the "Back Extra" for a cloze card.
        tags: The bank id, then the question's tags, in order, without duplicates.
        media: Files the HTML names by their flat name (``<img src="name">``).
        language: The language of the card's words; Anki identities of languages other
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


@dataclass(frozen=True)
class Cards:
    """What :meth:`Question.cards` makes cards with: the bank, the language of the cards'
    own words, ``md`` (Markdown to the cards' HTML: the math mode asked for, images as
    references the exporter carries) and ``say`` (konum's ``cards`` texts)."""

    bank: Bank
    language: str
    md: Callable[..., str]
    say: Callable[..., str]

    def card(self, q: Question, front: str, back: str, **more: Any) -> Card:
        """A card of question ``q``, keyed ``question:<id>`` unless ``key`` is given."""
        key = more.pop("key", f"question:{q.id}")
        tags = self.bank.card_tags(*q.tags, *more.pop("tags", ()))
        return Card(
            key, self.bank.id, self.bank.title, more.pop("kind", "basic"), front, back, tags
        )

    def explanation(self, q: Question) -> str:
        """The explanation's block on a back (empty when there is none)."""
        return section("konum-explanation", self.md(q.explanation)) if q.explanation.strip() else ""

    def options(self, texts: list[str]) -> str:
        """Options lettered A, B, ... on a front."""
        items = "".join(f"<li>{self.md(t, inline=True)}</li>" for t in texts)
        return f'<ol class="konum-options" type="A">{items}</ol>'


def section(class_name: str, body_html: str, heading: str | None = None) -> str:
    """A titled block of a card's back."""
    head = f"<p><strong>{heading}</strong></p>" if heading else ""
    return f'<div class="{class_name}">{head}{body_html}</div>'


def answer_line(label: str, body_html: str) -> str:
    """The answer's line on a card's back."""
    return f'<p class="konum-answer"><strong>{label}:</strong> {body_html}</p>'


def letter(index: int) -> str:
    """Option ``index``'s letter: A, B, ..."""
    return chr(ord("A") + index)


@dataclass(frozen=True)
class PrintedQuestion:
    """One question as a version of a printed exam shows it, and its entry in the key.

    ``kind`` picks its layout in ``templates/exam/``: ``choice``, ``fill``, ``matching``,
    ``numeric``, ``ordering`` or ``output`` (the task and ``lines`` ruled lines to write
    on; the key holds what the example solution prints, and the example as its worked
    solution). ``options`` and ``rights`` are lettered A, B, ... in the version's order;
    ``answer`` is the key's answer, HTML.
    """

    number: int
    id: str
    kind: str
    prompt: Markup
    answer: Markup
    figure: Markup | None = None
    options: tuple[Markup, ...] = ()
    multiple: bool = False
    lefts: tuple[Markup, ...] = ()
    rights: tuple[Markup, ...] = ()
    unit: str | None = None
    solution: Markup | None = None
    explanation: Markup | None = None
    lines: int = 0


@dataclass(frozen=True)
class Print:
    """What :meth:`Question.printed` prints with: the question's number, the version (from
    1) and its seed, ``md`` (Markdown to the paper's HTML), ``figure`` (a question's figure
    as inline SVG), ``say`` (the ``print`` texts as HTML, fields filled in as given) and
    ``variant`` (the version's variant of a computed question: the same numbers as the
    Moodle export's dataset item for that version)."""

    number: int
    version: int
    seed: int
    language: str
    md: Callable[..., Markup]
    figure: Callable[[FigureRef | None], Markup | None]
    say: Callable[..., Markup]
    variant: Callable[[Question], Variant]

    def printed(
        self, q: Question, answer: Markup, prompt: Markup | None = None, **own: Any
    ) -> PrintedQuestion:
        """``q`` on paper with the key's ``answer``: its number, id, type, prompt (``prompt``
        where the type writes its own), figure and explanation (None when it has none) as
        every type prints them; ``own`` holds the type's own fields of the printed question."""
        return PrintedQuestion(
            self.number,
            q.id,
            q.type,
            self.md(q.prompt) if prompt is None else prompt,
            answer,
            figure=self.figure(q.figure),
            explanation=self.md(q.explanation) if q.explanation.strip() else None,
            **own,
        )


@dataclass(frozen=True)
class Check:
    """An answer to grade, as quiz.js's grader finds it in the page.

    Attributes:
        values: the form's controls in page order, as quiz.js's ``answer()`` reads them: a
            box's text, a tick as a bool, a drop-down's value (``""`` for none); for items
            to order, their places in the starting order, in the reader's order.
        salt: the question's salt (a computed question's variant has its own: the type's
            grader finds it).
        say: a catalogue text (:mod:`konum.messages`) by key, its fields filled in, numbers
            written the page's way.
        language: the page's language, in which typed numbers are read.
        variant: the variant shown, counted from 0.
        noted: the options (by index) that have a note.
    """

    values: tuple[Any, ...]
    salt: str
    say: Callable[..., str]
    language: str = "en"
    variant: int = 0
    noted: frozenset[int] = frozenset()


@dataclass(frozen=True)
class Graded:
    """A grader's verdict, quiz.js's ``[ok, message, retry, share]``: ``retry`` when the
    answer is not one yet (nothing entered, a number to type again): no attempt counted,
    nothing revealed; ``share`` is the part of the points the answer earns (0 to 1)."""

    ok: bool
    message: str
    retry: bool = False
    share: float = 0.0


def enough_items(r: Reader, seq: YSeq, field: str, least: int, says: str) -> bool:
    """Whether the list ``seq`` (the field ``field``) has at least ``least`` items; when not,
    ``says`` is reported at it with what was expected and found."""
    if len(seq.items) >= least:
        return True
    r.problem(seq.mark, field, says, expected=f"at least {least}", found=str(len(seq.items)))
    return False


def graded_parts(
    right: int, count: int, say: Callable[..., str], all_right: str, some_right: str
) -> Graded:
    """The verdict on an answer of ``count`` parts (rows, places) with ``right`` of them
    right, a share per right part: the message ``all_right`` (with ``n``) when all are,
    else ``some_right`` (with ``right`` and ``n``)."""
    if right == count:
        return Graded(True, say(all_right, n=right), share=1.0)
    return Graded(False, say(some_right, right=right, n=count), share=right / count)


@dataclass(frozen=True)
class Question:
    """Fields every question has.

    ``id`` is a slug unique across all banks; ``bank`` is the id of the bank it came from.
    ``flashcard`` is False when the author opted the question out of the flashcard exports.
    ``points`` is what the question is worth (partial credit is a share of it); ``hints``
    are shown one at a time, each costing its share of the points (the older single
    ``hint`` is a free hint: see :attr:`all_hints`). ``attempts`` limits the checks (None:
    as many as the reader likes).
    """

    id: str
    bank: str
    prompt: str
    explanation: str
    source: Source
    hint: str | None = None
    tags: tuple[str, ...] = ()
    difficulty: int | None = None
    flashcard: bool = True
    figure: FigureRef | None = None
    points: float = 1.0
    hints: tuple[Hint, ...] = ()
    attempts: int | None = None

    #: The name banks write (``type: choice``).
    type: ClassVar[str]
    #: The type's own bank fields, in the authoring page's order.
    FIELDS: ClassVar[tuple[str, ...]] = ()
    #: The type's own Markdown texts, as paths with ``[]`` for every item of a list.
    TEXTS: ClassVar[tuple[str, ...]] = ()
    #: False for a type whose prompt may be left out (a computed question's generator has one).
    PROMPT_REQUIRED: ClassVar[bool] = True
    #: A plugin type's template folder (``quiz/<type>.html.j2``, and ``exam/<type>.html.j2``
    #: for a printed exam's answer space); None: konum's own ``templates/``.
    TEMPLATES: ClassVar[Path | None] = None
    #: A plugin type's front-end part, a ``.js`` file calling ``konumQuiz.define("<type>",
    #: {...})``; None: konum's own ``templates/assets/types/<type>.js``.
    SCRIPT: ClassVar[Path | None] = None

    @property
    def all_hints(self) -> tuple[Hint, ...]:
        """The hints in the order they are shown: ``hints``, or ``hint`` as one free hint."""
        if self.hints:
            return self.hints
        return (Hint(self.hint),) if self.hint else ()

    # --- load ----------------------------------------------------------------------------

    @classmethod
    def read(cls, r: Reader, node: YMap, common: dict[str, Any]) -> Question | None:
        """The question from its node, ``common`` holding the fields every question has
        (:meth:`konum.fields.Reader.common`); problems go to ``r``. None when it cannot be
        made at all."""
        raise NotImplementedError

    # --- texts -----------------------------------------------------------------------------

    def texts(self) -> dict[str, str]:
        """Every Markdown text of the question by field path (empty ones left out)."""
        paths = ["prompt", "hint", *expand(self, "hints[]")]
        paths += [p for pattern in self.TEXTS for p in expand(self, pattern)]
        paths.append("explanation")
        found = {path: _get(self, path) for path in paths}
        return {
            path: text for path, text in found.items() if isinstance(text, str) and text.strip()
        }

    def translatable(self) -> dict[str, object]:
        """What a translation of the question gives: :meth:`texts` and the figure's text."""
        found: dict[str, object] = dict(self.texts())
        if self.figure is not None:
            found["figure.alt"] = self.figure.alt
            if self.figure.caption:
                found["figure.caption"] = self.figure.caption
        return found

    def replaced(self: Q, texts: Mapping[str, object]) -> Q:
        """The question with the texts at the paths of ``texts`` replaced (translated, or with
        their images' paths made references)."""
        out: Any = self
        for path, value in texts.items():
            out = _set(out, _PART.findall(path), value)
        return out  # type: ignore[no-any-return]

    # --- check, draw ----------------------------------------------------------------------

    def probe(self: Q, ctx: Probe) -> tuple[list[Finding], Q]:
        """What drawing, evaluating or running the question finds wrong, and the question as
        the check stage completes it (an output question's expected output); most types
        have nothing to probe."""
        return [], self

    def record(self) -> tuple[str, str] | None:
        """What ``konum check --record`` writes into the bank (``(hash, output)`` of an
        output question whose recording is missing or out of date), or None."""
        return None

    def concrete(self, draw: Draw) -> Concrete:
        """The question with ``draw``'s seed applied (its orders and variants)."""
        return Concrete(self, draw.seed)

    # --- outputs -------------------------------------------------------------------------

    def view(self, concrete: Concrete, page: Page) -> dict[str, Any]:
        """The type's part of the question's view for ``quiz/<type>.html.j2`` (``prompt``
        and ``legend`` included, ``data`` the checker's JSON for quiz.js's grader)."""
        raise NotImplementedError

    def cards(self, concrete: Concrete, ctx: Cards) -> list[Card]:
        """The question's flashcards (one, or one per variant)."""
        raise NotImplementedError

    def moodle_problem(self) -> str | None:
        """Why Moodle XML cannot hold the question (None when it can)."""
        return None

    def moodle(self, doc: MoodleDocument, concrete: Concrete) -> None:
        """Write the question into ``doc``."""
        raise NotImplementedError

    def gift_problem(self) -> str | None:
        """Why GIFT cannot hold the question (None when it can)."""
        return None

    def gift(self, w: GiftWriter, concrete: Concrete) -> None:
        """Write the question's GIFT blocks into ``w``."""
        raise NotImplementedError

    def qti_problem(self) -> str | None:
        """Why a QTI 1.2 package for Canvas cannot hold the question (None when it can; a type
        without :meth:`qti` cannot)."""
        written = type(self).qti is not Question.qti
        return None if written else f"konum's {self.type} questions have no QTI form"

    def qti(self, doc: QtiDocument, concrete: Concrete) -> None:
        """Write the question's items into ``doc``."""
        raise NotImplementedError

    def printed(self, ctx: Print) -> PrintedQuestion:
        """The question in one version of a printed exam, and its key."""
        raise NotImplementedError

    @classmethod
    def grade(cls, spec: Mapping[str, Any], check: Check) -> Graded:
        """The type's quiz.js grader in Python: ``check`` judged by ``spec``, the checker's
        data a page carries (what :meth:`view` gives as ``data``), so that a page read back
        grades as the browser does."""
        raise NotImplementedError

    def preview(self, concrete: Concrete, plugins: Plugins) -> str | None:
        """What ``konum preview`` prints of the question's variants (None: it has none)."""
        return None


@dataclass(frozen=True)
class Concrete:
    """A question with the site seed applied: option order fixed, computed variants drawn.

    For choice and matching questions ``option_order`` / ``right_items`` hold the shuffled
    order (indices into the question's ``options`` / right-hand items); for an ordering
    question ``item_order`` is the starting order (indices into its ``items``). ``variants``
    is non-empty only for computed questions.
    """

    question: Question
    seed: int
    option_order: tuple[int, ...] = ()
    right_items: tuple[str, ...] = ()
    variants: tuple[Variant, ...] = ()
    item_order: tuple[int, ...] = ()


@dataclass(frozen=True)
class Bank:
    """One bank file: a lesson's questions and extra flashcards.

    ``title`` names the lesson (and the Anki subdeck ``<deck>::<title>``); ``tag_names`` are
    its cards' tags in its language (a translation's ``tags``, tag and name pairs): quizzes
    and exams choose by the tags themselves, a tag not named keeps its name on the cards.
    """

    id: str
    title: str
    path: str
    questions: tuple[Question, ...]
    flashcards: tuple[Flashcard, ...] = ()
    tag_names: tuple[tuple[str, str], ...] = ()

    def card_tags(self, *tags: str) -> tuple[str, ...]:
        """The bank's id and ``tags`` as its cards carry them: named, once each, in order."""
        names = dict(self.tag_names)
        named = (names.get(t, t) for t in (self.id, *tags) if t.strip())
        return tuple(dict.fromkeys(named))

    def with_texts(self, texts: Mapping[tuple[str | None, str], object]) -> Bank:
        """The bank with the given texts in place of its own, keyed by question id (None for
        the bank) and field path: each question's (its :meth:`Question.replaced` takes its
        fields by path), each flashcard's ``front`` and ``back``, then the ``title``. A text
        not given stays as it was."""
        questions = tuple(
            q.replaced({path: text for (qid, path), text in texts.items() if qid == q.id})
            for q in self.questions
        )
        cards = tuple(
            replace(
                fc,
                front=str(texts.get((fc.id, "front"), fc.front)),
                back=str(texts.get((fc.id, "back"), fc.back)),
            )
            for fc in self.flashcards
        )
        title = str(texts.get((None, "title"), self.title))
        return replace(self, title=title, questions=questions, flashcards=cards)

    def question(self, question_id: str) -> Question:
        for q in self.questions:
            if q.id == question_id:
                return q
        raise KeyError(question_id)


def own_fields(kind: type[Question]) -> tuple[str, ...]:
    """The dataclass fields ``kind`` adds to :class:`Question`'s."""
    common = {f.name for f in fields(Question)}
    return tuple(f.name for f in fields(kind) if f.name not in common)
