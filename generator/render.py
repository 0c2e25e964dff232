"""Render concrete questions to quiz HTML through the Jinja templates in ``templates/quiz/``.

One call, :func:`render_quiz`, turns a sequence of :class:`konum.model.Concrete` questions
into the markup that ``content/assets/konum/quiz.js`` mounts. HTML comes only from the
templates (autoescape on, ``StrictUndefined``); this module builds plain view dictionaries,
converts Markdown fields with :func:`konum.markup.render_markdown`, and hands the
checker's data to the templates, which serialise it with ``tojson``.

Conventions (the markup contract, relied on by the JS and by tests elsewhere):

* The wrapper is ``<section class="konum-quiz" data-konum-quiz data-quiz-id="...">``; each
  question is ``<div class="konum-question" data-question-id="..." data-type="...">`` holding
  a ``<template>`` with the checker's JSON (``script.konum-data``) and the HTML shown later
  (``script.konum-later``), then its prompt and controls; quiz.js adds the buttons and an
  ``aria-live`` feedback region whose text starts with "Correct" or "Not quite".
* Element ids are ``konum-<quiz_id>-<question_id>`` plus a suffix: deterministic and unique
  on a page as long as quiz ids are unique on that page.
* Fill blanks: every run of four or more underscores (:data:`konum.model.BLANK_PATTERN`)
  becomes an ``<input>``. The runs are swapped for ASCII placeholder tokens before Markdown
  and the tokens for inputs afterwards, so blanks also work inside inline code and fenced
  code blocks. Blanks inside ``$math$`` are not supported (a :class:`RenderError` says so).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from markupsafe import Markup

from konum import model
from konum.markup import render_markdown

__all__ = [
    "TEMPLATES_DIR",
    "RenderError",
    "environment",
    "plain_text",
    "render_quiz",
    "script_json",
]

_HERE = Path(__file__).resolve().parent
#: The Jinja templates: inside the installed package, or beside the source folder.
TEMPLATES_DIR = next(p for p in (_HERE / "templates", _HERE.parent / "templates") if p.is_dir())

_SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
# Placeholder for blank number N: plain ASCII letters and digits survive Markdown, the HTML
# sanitiser and syntax highlighting unchanged (a highlighter sees one identifier).
_TOKEN = "KONUMBLANK{}X"
_TOKEN_RE = re.compile(r"KONUMBLANK(\d+)X")
_SINGLE_PARAGRAPH = re.compile(r"\A<p>(?P<inner>(?:(?!</?p[ >]).)*)</p>\Z", re.DOTALL)


class RenderError(ValueError):
    """A question cannot be rendered; the message names the question id and the problem."""


@lru_cache(maxsize=1)
def environment() -> Environment:
    """The Jinja environment for quiz templates.

    Returns:
        A cached environment loading from :data:`TEMPLATES_DIR`, autoescaping ``.html``,
        ``.j2`` and ``.html.j2`` templates, with ``StrictUndefined`` and ``trim_blocks``.
    """
    env = Environment(
        loader=FileSystemLoader(TEMPLATES_DIR),
        autoescape=select_autoescape(enabled_extensions=("html", "j2", "html.j2")),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=False,
        extensions=["jinja2.ext.do"],
    )
    env.filters["script_json"] = script_json
    return env


def script_json(value: Any) -> Markup:
    """JSON for the inside of a ``<script type="application/json">`` element.

    Compact, and not ASCII-escaped: the quiz data carries pre-rendered HTML for everything
    revealed later, and Jinja's ``tojson`` would spell every ``<``, ``>``, ``&`` and ``'`` as
    a six-character ``\\u`` escape. A script element's raw text ends only at ``</script``
    (any case), and ``<!--`` then ``<script`` would switch that off (the HTML standard's
    "script data escaped" states); all three can occur only inside JSON strings, where
    ``\\u003c`` for their ``<`` keeps the value. Every other ``</`` (the closing tags of
    the HTML strings) is left as it is.
    """
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return Markup(_SCRIPT_UNSAFE.sub(r"\\u003c", text))


_SCRIPT_UNSAFE = re.compile(r"<(?=!--|/?script)", re.IGNORECASE)


def _markdown(text: str, *, inline: bool = False) -> Markup:
    """Markdown (with math) to sanitised HTML, marked safe for the templates."""
    return Markup(str(render_markdown(text, inline=inline)).strip())


def _optional_markdown(text: str | None, *, inline: bool = False) -> Markup | None:
    return _markdown(text, inline=inline) if text else None


def _legend_html(html: Markup) -> Markup | None:
    """The inner HTML of a prompt that is one plain paragraph, else None."""
    match = _SINGLE_PARAGRAPH.match(str(html))
    return Markup(match.group("inner")) if match else None


def _figure(ref: model.FigureRef | None) -> Markup | None:
    """A question's figure as inline SVG (drawn from the core, cached per figure)."""
    if ref is None:
        return None
    from konum.figures import render_svg

    return Markup(render_svg(ref.name, ref.alt, ref.caption, **ref.params))


def format_number(value: float, decimals: int | None) -> str:
    """A number as the reader would type it.

    Args:
        value: The number.
        decimals: Fixed decimals, or None for the shortest exact-looking form
            (up to 12 significant digits).

    Returns:
        The text, with ``-0.00`` normalised to ``0.00``.
    """
    if not math.isfinite(value):
        raise ValueError(f"value: expected a finite number, found {value!r}")
    text = f"{value:.{decimals}f}" if decimals is not None else f"{value:.12g}"
    if text.startswith("-") and float(text) == 0:
        text = text[1:]
    return text


_LATEX_WORDS = {
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "theta": "θ",
    "lambda": "λ", "mu": "μ", "pi": "π", "sigma": "σ", "tau": "τ", "phi": "φ", "omega": "ω",
    "Theta": "Θ", "Omega": "Ω", "Sigma": "Σ", "cdot": "·", "times": "×", "le": "≤", "leq": "≤",
    "ge": "≥", "geq": "≥", "ne": "≠", "neq": "≠", "approx": "≈", "infty": "∞", "pm": "±",
    "to": "→", "rightarrow": "→", "mapsto": "↦", "ldots": "…", "dots": "…", "cdots": "⋯",
    "sum": "Σ", "in": "∈", "sin": "sin", "cos": "cos", "tan": "tan", "log": "log",
    "exp": "exp", "max": "max", "min": "min",
}  # fmt: skip


def plain_text(text: str) -> str:
    """Inline Markdown as plain text, for places that cannot hold HTML (``<option>``).

    Backticks and emphasis marks are dropped; inside ``$...$`` common LaTeX commands become
    Unicode (``\\sin 0`` to ``sin 0``, ``\\theta`` to ``θ``), ``\\frac{a}{b}`` becomes
    ``a/b`` and braces go.

    Args:
        text: Inline Markdown source.

    Returns:
        Readable text; never HTML (the template escapes it).
    """

    def latex(match: re.Match[str]) -> str:
        src = match.group(1)
        src = re.sub(r"\\(?:left|right|,|;|!|quad)", " ", src)
        for _ in range(4):  # innermost groups first: x^{2i/d} -> x^(2i/d), then \frac{a}{b}
            src = re.sub(r"([\^_])\{([^{}]*)\}", r"\1(\2)", src)
            src = re.sub(r"\\frac\{([^{}]*)\}\{([^{}]*)\}", r"(\1)/(\2)", src)
        src = re.sub(r"\(([A-Za-z0-9.]+)\)", r"\1", src)
        src = re.sub(r"\\([A-Za-z]+)", lambda m: _LATEX_WORDS.get(m.group(1), m.group(1)), src)
        src = src.replace("{", "").replace("}", "").replace("\\", "")
        return re.sub(r"\s+", " ", src).strip()

    text = re.sub(r"\$\$?(.+?)\$\$?", latex, text)
    text = text.replace("`", "")
    text = re.sub(r"(\*\*|__|\*)(.+?)\1", r"\2", text)
    return re.sub(r"\s+", " ", text).strip()


# --- view models ----------------------------------------------------------------------------


def _choice_options(options: Sequence[model.ConcreteOption], dom_id: str) -> list[dict[str, Any]]:
    return [
        {
            "index": i,
            "id": f"{dom_id}-opt-{i}",
            "text": _markdown(o.text, inline=True),
            "correct": o.correct,
            "feedback": _optional_markdown(o.feedback),
        }
        for i, o in enumerate(options)
    ]


def _correct_texts(options: list[dict[str, Any]]) -> list[Markup]:
    """The texts of the correct options, for the answer box (a Jinja filter chain costs more
    than rendering them)."""
    return [o["text"] for o in options if o["correct"]]


def _choice(concrete: model.Concrete, q: model.ChoiceQuestion, dom_id: str) -> dict[str, Any]:
    order = concrete.option_order or tuple(range(len(q.options)))
    shown = [q.options[i] for i in order]
    opts = [model.ConcreteOption(o.text, o.correct, o.feedback) for o in shown]
    multiple = sum(o.correct for o in opts) > 1
    options = _choice_options(opts, dom_id)
    return {
        "multiple": multiple,
        "options": options,
        "answers": _correct_texts(options),
        "data": {"type": "choice", "multiple": multiple, "options": [o.correct for o in opts]},
    }


def _fill(q: model.FillQuestion, dom_id: str) -> dict[str, Any]:
    runs = len(re.findall(model.BLANK_PATTERN, q.prompt))
    if runs != len(q.blanks):
        raise RenderError(
            f"question {q.id}: prompt has {runs} blank(s) (runs of 4+ underscores), "
            f"expected {len(q.blanks)} to match `blanks`"
        )
    counter = iter(range(runs))
    source = re.sub(model.BLANK_PATTERN, lambda _m: _TOKEN.format(next(counter)), q.prompt)
    html = str(_markdown(source))
    found = [int(n) for n in _TOKEN_RE.findall(html)]
    if sorted(found) != list(range(runs)):
        raise RenderError(
            f"question {q.id}: {runs - len(set(found))} blank(s) were lost in Markdown "
            "(blanks inside $math$ are not supported)"
        )
    macros = environment().get_template("quiz/_macros.html.j2").module
    total = len(q.blanks)

    def to_input(match: re.Match[str]) -> str:
        index = int(match.group(1))
        return str(
            macros.blank(  # type: ignore[attr-defined]
                id=f"{dom_id}-blank-{index}", label=f"Blank {index + 1} of {total}"
            )
        ).strip()

    blanks = [
        {
            "answers": list(b.answers),
            "regex": b.regex,
            "case_sensitive": b.case_sensitive,
        }
        for b in q.blanks
    ]
    return {
        "prompt": Markup(_TOKEN_RE.sub(to_input, html)),
        "blanks": [
            {"shown": b.answers[0] if b.answers else None, "regex": b.regex} for b in q.blanks
        ],
        "data": {"type": "fill", "blanks": blanks},
    }


def _matching(concrete: model.Concrete, q: model.MatchingQuestion, dom_id: str) -> dict[str, Any]:
    right = list(concrete.right_items) or [p.right for p in q.pairs] + list(q.distractors)
    answers: list[int] = []
    for pair in q.pairs:
        if pair.right not in right:
            raise RenderError(f"question {q.id}: right item {pair.right!r} is not shown")
        answers.append(right.index(pair.right))
    letters = [chr(ord("A") + i) for i in range(len(right))]
    return {
        "rights": [
            {
                "index": i,
                "letter": letters[i],
                "html": _markdown(text, inline=True),
                "plain": plain_text(text),
            }
            for i, text in enumerate(right)
        ],
        "rows": [
            {
                "id": f"{dom_id}-left-{i}",
                "left": _markdown(p.left, inline=True),
                "answer": letters[answers[i]],
            }
            for i, p in enumerate(q.pairs)
        ],
        "data": {"type": "matching", "answers": answers},
    }


def _numeric(q: model.NumericQuestion) -> dict[str, Any]:
    shown = format_number(q.answer, q.decimals)
    return {
        "unit": q.unit,
        "decimals": q.decimals,
        "shown": shown,
        "data": {
            "type": "numeric",
            "answer": q.answer,
            "tolerance": q.tolerance,
            "relative": q.relative,
            "shown": shown,
        },
    }


def _computed(concrete: model.Concrete, q: model.ComputedQuestion, dom_id: str) -> dict[str, Any]:
    if not concrete.variants:
        raise RenderError(f"question {q.id}: a computed question needs at least one variant")
    variants = []
    data_variants = []
    for k, v in enumerate(concrete.variants):
        vid = f"{dom_id}-v{k}"
        form = "choice" if v.options else "numeric"
        options = _choice_options(v.options, vid)
        variants.append(
            {
                "index": k,
                "id": vid,
                "form": form,
                "prompt": _markdown(v.prompt),
                "options": options,
                "answers": _correct_texts(options),
                "multiple": sum(o.correct for o in v.options) > 1,
                "unit": v.unit,
                "decimals": v.decimals,
                "shown": v.shown_answer,
                "solution": _markdown(v.solution),
            }
        )
        entry: dict[str, Any] = {"form": form, "shown": v.shown_answer}
        if form == "choice":
            entry["options"] = [o.correct for o in v.options]
            entry["multiple"] = sum(o.correct for o in v.options) > 1
        else:
            entry.update(answer=v.answer, tolerance=v.tolerance, relative=False)
        data_variants.append(entry)
    first = _form_shape(variants[0])
    for view in variants[1:]:
        view["like_first"] = _form_shape(view) == first
    return {"variants": variants, "data": {"type": "computed", "variants": data_variants}}


def _form_shape(variant: dict[str, Any]) -> tuple[object, ...]:
    """What a variant's form is made of besides its prompt and option texts: two variants
    of the same shape differ only in those (and in their ids)."""
    if variant["form"] == "choice":
        return ("choice", len(variant["options"]), variant["multiple"])
    return ("numeric", variant["unit"], variant["decimals"])


def _question(concrete: model.Concrete, quiz_id: str, number: int, total: int) -> dict[str, Any]:
    q = concrete.question
    if not _SLUG.fullmatch(q.id):
        raise RenderError(f"question {q.id!r}: expected a slug id like 'sin-why-pairs'")
    dom_id = f"konum-{quiz_id}-{q.id}"
    view: dict[str, Any] = {
        "id": q.id,
        "dom_id": dom_id,
        "type": q.type,
        "number": number,
        "total": total,
        "hint": _optional_markdown(q.hint),
        "figure": _figure(q.figure),
        "explanation": _optional_markdown(q.explanation),
    }
    if isinstance(q, model.ChoiceQuestion):
        view.update(_choice(concrete, q, dom_id))
    elif isinstance(q, model.FillQuestion):
        view.update(_fill(q, dom_id))
    elif isinstance(q, model.MatchingQuestion):
        view.update(_matching(concrete, q, dom_id))
    elif isinstance(q, model.NumericQuestion):
        view.update(_numeric(q))
    elif isinstance(q, model.ComputedQuestion):
        view.update(_computed(concrete, q, dom_id))
    else:  # pragma: no cover - the Question union is closed
        raise RenderError(f"question {q.id}: unknown type {type(q).__name__}")
    if q.type not in ("fill", "computed"):
        prompt = _markdown(q.prompt)
        view["prompt"] = prompt
        view["legend"] = _legend_html(prompt)
    return view


def render_quiz(
    concretes: Sequence[model.Concrete], quiz_id: str, *, title: str | None = None
) -> str:
    """Render a quiz: the wrapper with score line and Reset button, then each question.

    Args:
        concretes: The questions, in the order shown, with the site seed applied.
        quiz_id: A slug unique on the page (e.g. the bank id); prefixes every element id and
            the localStorage keys of the reader's progress.
        title: Optional heading text (plain text, escaped) shown above the questions.

    Returns:
        HTML for the page (a single ``<section class="konum-quiz">`` element).

    Raises:
        RenderError: ``quiz_id`` or a question id is not a slug, two questions share an id,
            a fill prompt's blanks do not match its ``blanks``, or a computed question has
            no variants.
    """
    if not _SLUG.fullmatch(quiz_id):
        raise RenderError(f"quiz id {quiz_id!r}: expected a slug like 'sinusoidal'")
    ids = [c.question.id for c in concretes]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise RenderError(f"quiz {quiz_id}: duplicate question ids {', '.join(duplicates)}")
    total = len(concretes)
    questions = []
    for number, concrete in enumerate(concretes, start=1):
        try:
            questions.append(_question(concrete, quiz_id, number, total))
        except ValueError as exc:  # RenderError, MathError: where the question was written
            q = concrete.question
            raise RenderError(f"{q.source}: [{q.id}] {exc}") from None
    context: Mapping[str, Any] = {
        "quiz_id": quiz_id,
        "dom_id": f"konum-{quiz_id}",
        "title": title,
        "questions": questions,
    }
    return environment().get_template("quiz/quiz.html.j2").render(context).strip() + "\n"


def render_study(course: Any) -> str:
    """The study block: every card of ``course`` (a :class:`konum.course.Course`) as JSON
    inside the page, for ``flashcards.js``.

    The JSON sits in a ``<script type="application/json">`` inside a ``<template>``, out of
    reach of Material's instant navigation (which re-creates scripts without their type).
    Without JavaScript the block says so.

    Raises:
        konum.errors.ExportError: a question cannot be made into a card.
    """
    from konum.exports.cards import build_cards
    from konum.exports.text import cards_json

    cards = build_cards(course.banks, course.concretes(), math="mathml")
    data = script_json(cards_json(cards))
    return environment().get_template("quiz/study.html.j2").render(data=data).strip() + "\n"
