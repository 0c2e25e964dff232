"""Typed question objects: what loading a bank produces and what everything downstream reads.

Data flows one way (see STYLE.md): ``content/banks/*.yml`` is loaded and validated by
:mod:`konum.banks` into the frozen dataclasses below; :mod:`konum.variants` turns them
into :class:`Concrete` questions for one site seed; rendering and exports read only those.
Nothing here imports YAML, MkDocs, Jinja or genanki.

Text fields (``prompt``, ``explanation``, option texts, ...) hold Markdown source with
``$...$`` / ``$$...$$`` math, exactly as the author wrote it; rendering to HTML happens later.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from konum.formatting import BLANK_PATTERN as BLANK_PATTERN  # re-exported: a blank's rule

QuestionType = Literal["choice", "fill", "matching", "numeric", "computed", "output", "ordering"]
QUESTION_TYPES: tuple[QuestionType, ...] = (
    "choice",
    "fill",
    "matching",
    "numeric",
    "computed",
    "output",
    "ordering",
)
#: The types an exam-mode quiz can hold: each has a check that gives a score without the
#: reader's own judgement. A type that is not here is refused in an exam block.
EXAM_TYPES: frozenset[QuestionType] = frozenset(
    ("choice", "fill", "matching", "numeric", "computed", "output", "ordering")
)

ComputedAnswer = Literal["numeric", "choice"]
#: How a computed question is answered: a typed number, or a choice among computed options.
COMPUTED_ANSWERS: tuple[ComputedAnswer, ...] = ("numeric", "choice")


@dataclass(frozen=True)
class Source:
    """Where a thing was written: 1-based line and column in a bank file."""

    file: str
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


@dataclass(frozen=True)
class Option:
    """One option of a choice question.

    ``pin`` keeps the option in place when the others are shuffled ("all of the above"
    options are pinned last by their authors). ``feedback`` says why the option is wrong (or
    right), shown after checking.
    """

    text: str
    correct: bool
    feedback: str | None = None
    pin: bool = False


@dataclass(frozen=True)
class Blank:
    """One blank of a fill question.

    The reader's answer, stripped of surrounding whitespace, must equal one of ``answers``
    (case-insensitively unless ``case_sensitive``), or fully match ``regex`` when given.
    ``answers[0]`` is the one shown by "Show answer" and on flashcards.
    """

    answers: tuple[str, ...]
    regex: str | None = None
    case_sensitive: bool = False


@dataclass(frozen=True)
class Pair:
    """A matching pair: ``left`` is shown in order, ``right`` among the shuffled choices."""

    left: str
    right: str


@dataclass(frozen=True)
class Range:
    """An inclusive numeric range constraint on a generator parameter.

    ``step`` applies to integers and floats alike: values are ``low + k * step``.
    """

    low: float
    high: float
    step: float | None = None


@dataclass(frozen=True)
class Choices:
    """A constraint that draws a generator parameter from a fixed list of values."""

    values: tuple[object, ...]


ParamConstraint = Range | Choices


@dataclass(frozen=True)
class FigureRef:
    """A figure from :mod:`konum.figures` shown with a question (after its prompt) and on
    its flashcard: drawn from the PE core at build time, like the lessons' figures."""

    name: str
    alt: str
    caption: str | None = None
    params: Mapping[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class Hint:
    """One of a question's hints, shown one at a time; ``cost`` is the share of the
    question's points that taking it costs (0 to 1)."""

    text: str
    cost: float = 0.0


@dataclass(frozen=True)
class QuestionBase:
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

    @property
    def all_hints(self) -> tuple[Hint, ...]:
        """The hints in the order they are shown: ``hints``, or ``hint`` as one free hint."""
        if self.hints:
            return self.hints
        return (Hint(self.hint),) if self.hint else ()


@dataclass(frozen=True)
class ChoiceQuestion(QuestionBase):
    """Multiple choice; one correct option renders as radio buttons, several as checkboxes."""

    type: Literal["choice"] = "choice"
    options: tuple[Option, ...] = ()
    shuffle: bool = True

    @property
    def multiple(self) -> bool:
        return sum(o.correct for o in self.options) > 1


@dataclass(frozen=True)
class FillQuestion(QuestionBase):
    """Fill in the blanks; ``prompt`` holds one :data:`BLANK_PATTERN` run per blank, in order."""

    type: Literal["fill"] = "fill"
    blanks: tuple[Blank, ...] = ()


@dataclass(frozen=True)
class MatchingQuestion(QuestionBase):
    """Match each left item to its right item; ``distractors`` are extra right-side items."""

    type: Literal["matching"] = "matching"
    pairs: tuple[Pair, ...] = ()
    distractors: tuple[str, ...] = ()
    shuffle: bool = True


@dataclass(frozen=True)
class NumericQuestion(QuestionBase):
    """A number, accepted within ``tolerance`` (absolute, or relative to ``answer``).

    ``decimals`` is how many decimals the prompt asks for; the loader checks that the
    tolerance admits ``round(answer, decimals)``.
    """

    type: Literal["numeric"] = "numeric"
    answer: float = 0.0
    tolerance: float = 0.0
    relative: bool = False
    unit: str | None = None
    decimals: int | None = None


#: Decimals a formula question's answer is asked to unless it says otherwise.
FORMULA_DECIMALS = 2


@dataclass(frozen=True)
class FormulaMisconception:
    """A wrong formula a learner uses instead of the right one; its value is a distractor.

    ``formula`` is written like the question's (same params, same functions); ``feedback``
    is Markdown naming the mistake, shown when a reader picks its value.
    """

    formula: str
    feedback: str


@dataclass(frozen=True)
class ComputedQuestion(QuestionBase):
    """Numbers drawn from a seed, the answer computed: by a named generator or a formula.

    Exactly one of ``generator`` and ``formula`` is set. A generator (from the course's code
    or the user's own, :mod:`konum.computed.registry`) declares its parameters, prompt,
    solution and misconceptions; ``params`` constrains them. A formula question
    (:mod:`konum.computed.formula`) declares its own: ``params`` names every value the
    ``formula`` uses, ``misconceptions`` are wrong formulas whose values are the
    distractors, and ``unit``/``tolerance`` are the author's (tolerance absolute; None means
    half a unit of the last decimal plus slack).

    ``prompt`` may be empty for a generator question: the generator's own prompt is used.
    When given it is a Jinja template rendered with the drawn values. ``answer`` asks for a
    typed number or a choice among computed options (the answer and misconception
    distractors). ``decimals`` overrides the default precision (a generator's own, 2 for a
    formula).
    """

    type: Literal["computed"] = "computed"
    generator: str = ""
    params: Mapping[str, ParamConstraint] = field(default_factory=dict)
    answer: ComputedAnswer = "numeric"
    decimals: int | None = None
    options: int = 4
    formula: str | None = None
    misconceptions: tuple[FormulaMisconception, ...] = ()
    unit: str | None = None
    tolerance: float | None = None


#: Numbers of an output question's lines count as equal within this, unless it says otherwise.
OUTPUT_TOLERANCE = 1e-6


@dataclass(frozen=True)
class OutputQuestion(QuestionBase):
    """A program to write, checked by what it prints.

    ``prompt`` is the task; ``solution`` an example program (Python, numpy available);
    ``expected`` what that program printed when the bank was loaded
    (:func:`konum.programs.run_program`): lines joined by ``\n``, no final newline. A
    reader's output matches when it has the same lines, blank lines and spacing aside, each
    with the same words and signs and the same numbers, ``a`` and ``b`` counting as the same
    when ``|a - b| <= tolerance * max(1, |b|)`` (``b`` the expected one).
    """

    type: Literal["output"] = "output"
    solution: str = ""
    expected: str = ""
    tolerance: float = OUTPUT_TOLERANCE


@dataclass(frozen=True)
class OrderingQuestion(QuestionBase):
    """Put ``items`` (written in the right order) in order; they start in a seeded order
    that is never the right one (:func:`konum.variants.item_order`)."""

    type: Literal["ordering"] = "ordering"
    items: tuple[str, ...] = ()


Question = (
    ChoiceQuestion
    | FillQuestion
    | MatchingQuestion
    | NumericQuestion
    | ComputedQuestion
    | OutputQuestion
    | OrderingQuestion
)


@dataclass(frozen=True)
class Flashcard:
    """A fact card that is not a question (a bank's ``flashcards`` list)."""

    id: str
    bank: str
    front: str
    back: str
    source: Source
    tags: tuple[str, ...] = ()


@dataclass(frozen=True)
class Bank:
    """One bank file: a lesson's questions and extra flashcards.

    ``title`` names the lesson (and the Anki subdeck ``Konum::<title>``).
    """

    id: str
    title: str
    path: str
    questions: tuple[Question, ...]
    flashcards: tuple[Flashcard, ...] = ()

    def question(self, question_id: str) -> Question:
        for q in self.questions:
            if q.id == question_id:
                return q
        raise KeyError(question_id)


# --- Concrete questions: one seed applied ---------------------------------------------------


@dataclass(frozen=True)
class ConcreteOption:
    """An option in display order; ``misconception`` names the wrong belief behind a
    computed distractor (None for the right answer and for authored options)."""

    text: str
    correct: bool
    feedback: str | None = None
    misconception: str | None = None


@dataclass(frozen=True)
class Variant:
    """One drawing of a computed question: everything a reader sees for that set of numbers.

    ``answer`` is the exact value from the core; ``shown_answer`` is it rounded to
    ``decimals`` as text. ``tolerance`` is absolute. ``options`` is non-empty only for the
    choice form, already shuffled. ``solution`` is Markdown with math: the worked steps.
    """

    index: int
    values: Mapping[str, object]
    prompt: str
    answer: float
    shown_answer: str
    decimals: int
    tolerance: float
    unit: str | None
    solution: str
    options: tuple[ConcreteOption, ...] = ()


@dataclass(frozen=True)
class Concrete:
    """A question with the site seed applied: option order fixed, computed variants drawn.

    For choice and matching questions ``options`` / ``right_order`` hold the shuffled order
    (indices into the question's ``options`` / right-hand items); for an ordering question
    ``item_order`` is the starting order (indices into its ``items``). ``variants`` is
    non-empty only for computed questions.
    """

    question: Question
    seed: int
    option_order: tuple[int, ...] = ()
    right_items: tuple[str, ...] = ()
    variants: tuple[Variant, ...] = ()
    item_order: tuple[int, ...] = ()
