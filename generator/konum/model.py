"""The small data every stage shares: where a thing was written, parameter constraints, hints,
figure references, flashcards, and one drawing of a computed question.

The questions themselves are :mod:`konum.types` (one module per type); these are the parts
they are made of. Nothing here imports YAML, MkDocs, Jinja or genanki. Text fields hold
Markdown source with ``$...$`` / ``$$...$$`` math, exactly as the author wrote it; rendering
to HTML happens later.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Source:
    """Where a thing was written: 1-based line and column in a bank file."""

    file: str
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


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
    """A plugin's figure shown with a question (after its prompt) and on its flashcard,
    drawn at build time like the lessons' figures."""

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
class Misconception:
    """A wrong formula a learner uses instead of the right one; its value is a distractor.

    ``formula`` is written like the question's (same params, same functions); ``feedback``
    is Markdown naming the mistake, shown when a reader picks its value.
    """

    formula: str
    feedback: str


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

    ``answer`` is the exact value; ``shown_answer`` is it rounded to ``decimals`` as text.
    ``tolerance`` is absolute. ``options`` is non-empty only for the choice form, already
    shuffled. ``solution`` is Markdown with math: the worked steps.
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
