"""What many tests share: the course's plugin, and questions with a seed applied.

``PE`` is the course's plugin (``konum_pe``, the entry point ``pe``), loaded as any site's
``plugins: [pe]`` loads it; :func:`make_concrete` applies a seed as a course does.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from konum import check, explorer, explorers, exports, figures, render
from konum.computed import computed_variants as draw_variants
from konum.exports import cards, moodle
from konum.lms import LmsExport
from konum.messages import Text, catalogue, fill
from konum.model import ParamConstraint, Source, Variant
from konum.plugins import load_plugins
from konum.types import Bank, Card, ComputedQuestion, Concrete, Draw, Probe, Question
from konum.types.computed import format_preview as preview

#: The course's plugin: its generators, figures, explorers and page values.
PE = load_plugins(("pe",), Path.cwd())


def make_concrete(
    question: Question, seed: int, variants: int = 5, language: str = "en"
) -> Concrete:
    """``question`` with ``seed`` applied, drawn with the course's generators."""
    return question.concrete(Draw(seed, variants, language, PE))


def concretes_for(banks: Iterable[Bank], seed: int, variants: int = 5) -> dict[str, Concrete]:
    """Every question of ``banks`` with ``seed`` applied, by question id."""
    return {q.id: make_concrete(q, seed, variants) for bank in banks for q in bank.questions}


#: The course's generators, by name.
GENERATORS = PE.generators


def computed_variants(
    question: Question, seed: int, count: int = 5, language: str = "en"
) -> tuple[Variant, ...]:
    """The variants of a computed ``question`` for ``seed``, drawn with the course's plugin."""
    return draw_variants(question.recipe(PE), seed, count, language)  # type: ignore[attr-defined]


def format_preview(question: Question, variants: tuple[Variant, ...]) -> str:
    """``konum preview``'s text of ``variants`` of ``question``."""
    return preview(question, variants, PE)  # type: ignore[arg-type]


def validate_computed(
    generator: str,
    params: Mapping[str, ParamConstraint],
    answer: str = "numeric",
    decimals: int | None = None,
    options: int = 4,
) -> list[tuple[str, str]]:
    """What the check stage finds in a computed question naming ``generator`` with these
    fields, as ``(field path, message)`` pairs."""
    q = ComputedQuestion(
        id="q-check",
        bank="b",
        prompt="",
        explanation="",
        source=Source("b.yml", 1, 1),
        generator=generator,
        params=params,
        answer=answer,  # type: ignore[arg-type]
        decimals=decimals,
        options=options,
    )
    findings, _ = q.probe(Probe(PE))
    return [(f.field, f.message) for f in findings]


#: The course's figures, by name.
FIGURES = PE.figures


def render_svg(name: str, alt: str, caption: str | None = None, **params: object) -> str:
    """The course's figure ``name`` as inline SVG (:func:`konum.figures.render_svg`)."""
    return figures.render_svg(PE.figure(name), alt, caption, **params)  # type: ignore[arg-type]


def figure_data(name: str, **params: object) -> dict[str, object]:
    """The data the course's figure ``name`` draws (:func:`konum.figures.figure_data`)."""
    return figures.figure_data(PE.figure(name), **params)


def figure_params(name: str) -> dict[str, tuple[object, str]]:
    return figures.figure_params(PE.figure(name))


#: The course's explorers, by name.
EXPLORERS = PE.explorers


def render_explorer(name: str, given: Mapping[str, object], *args: object, **kwargs: object) -> str:
    """The HTML of the course's explorer block ``name`` (:func:`konum.explorer.render_explorer`)."""
    return explorer.render_explorer(PE, name, given, *args, **kwargs)  # type: ignore[arg-type]


def explorer_values(name: str, given: Mapping[str, object]) -> dict[str, object]:
    return explorers.explorer_values(PE.explorers, name, given)


def check_header(lines: list[str], index: int) -> None:
    explorer.check_header(lambda: PE.explorers, lines, index)


def render_quiz(concretes: Sequence[Concrete], quiz_id: str, **options: Any) -> str:
    """:func:`konum.render.render_quiz` with the course's plugin."""
    return render.render_quiz(concretes, quiz_id, **{"plugins": PE, **options})


def forms(text: Text) -> list[str]:
    """A catalogue text's forms: the text itself, or each of its plural forms."""
    return [text] if isinstance(text, str) else list(text.values())


def all_texts(language: str) -> str:
    """Every form of every text of konum's and the course's catalogue, joined."""
    return " ".join(f for text in catalogue(language, PE.messages).values() for f in forms(text))


def message(language: str, key: str, **fields: object) -> str:
    """A text of konum's or of the course's catalogue."""
    return fill(catalogue(language, PE.messages)[key], language, **fields)


def load_banks(*args: Any, **options: Any) -> tuple[Bank, ...]:
    """:func:`konum.check.load_banks` with the course's plugin."""
    return check.load_banks(*args, **{"plugins": PE, **options})


def load_bank(*args: Any, **options: Any) -> Bank:
    """:func:`konum.check.load_bank` with the course's plugin."""
    return check.load_bank(*args, **{"plugins": PE, **options})


def check_banks(*args: Any, **options: Any) -> check.CheckReport:
    """:func:`konum.check.check_banks` with the course's plugin."""
    return check.check_banks(*args, **{"plugins": PE, **options})


def build_cards(*args: Any, **options: Any) -> list[Card]:
    """:func:`konum.exports.cards.build_cards` with the course's plugin."""
    return cards.build_cards(*args, **{"plugins": PE, **options})


def export(*args: Any, **options: Any) -> list[Card]:
    """:func:`konum.exports.export` with the course's plugin."""
    return exports.export(*args, **{"plugins": PE, **options})


def write_downloads(*args: Any, **options: Any) -> dict[str, Path]:
    """:func:`konum.exports.write_downloads` with the course's plugin."""
    return exports.write_downloads(*args, **{"plugins": PE, **options})  # type: ignore[return-value]


def build_moodle(*args: Any, **options: Any) -> LmsExport:
    """:func:`konum.exports.moodle.build_moodle` with the course's plugin."""
    return moodle.build_moodle(*args, **{"plugins": PE, **options})
