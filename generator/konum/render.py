"""Render concrete questions to quiz HTML through the Jinja templates in ``templates/quiz/``.

One call, :func:`render_quiz`, turns a sequence of :class:`konum.model.Concrete` questions
into the markup that ``templates/assets/quiz.js`` mounts. HTML comes only from the
templates (autoescape on, ``StrictUndefined``); this module builds plain view dictionaries,
converts Markdown fields with :func:`konum.markup.render_markdown`, and hands the
checker's data to the templates, which serialise it with ``tojson``.

Conventions (the markup contract, relied on by the JS and by tests elsewhere):

* The wrapper is ``<section class="konum-quiz" data-konum-quiz data-quiz-id="...">``; each
  question is ``<div class="konum-question no-copy" data-question-id="..." data-type="...">``
  (``no-copy``: no Material copy button in its code) holding
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
import re
from collections.abc import Mapping, Sequence
from functools import lru_cache, partial
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from markupsafe import Markup

from konum import model, seal
from konum.formatting import format_number
from konum.markup import render_markdown
from konum.messages import message
from konum.programs import code_block
from konum.seeding import derive_seed

__all__ = [
    "TEMPLATES_DIR",
    "RenderError",
    "environment",
    "html_text",
    "plain_text",
    "render_quiz",
    "script_json",
    "typeset_number",
]

_HERE = Path(__file__).resolve().parent
#: The Jinja templates: inside the installed package, or beside the source folder.
TEMPLATES_DIR = next(p for p in (_HERE / "templates", _HERE.parents[1] / "templates") if p.is_dir())

_SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
# Placeholder for blank number N: plain ASCII letters and digits survive Markdown, the HTML
# sanitiser and syntax highlighting unchanged (a highlighter sees one identifier).
_TOKEN = "KONUMBLANK{}X"
_TOKEN_RE = re.compile(r"KONUMBLANK(\d+)X")
_SINGLE_PARAGRAPH = re.compile(r"\A<p>(?P<inner>(?:(?!</?p[ >]).)*)</p>\Z", re.DOTALL)


class RenderError(ValueError):
    """A question cannot be rendered; the message names the question id and the problem."""


def environment(language: str = "en") -> Environment:
    """The Jinja environment for quiz templates in ``language``.

    Returns:
        A cached environment loading from :data:`TEMPLATES_DIR`, autoescaping ``.html``,
        ``.j2`` and ``.html.j2`` templates, with ``StrictUndefined`` and ``trim_blocks``; its
        global ``t(key, **fields)`` is :func:`konum.messages.message` in ``language``.
    """
    return _environment(language)


@lru_cache(maxsize=4)
def _environment(language: str) -> Environment:
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
    env.filters["later_json"] = later_json
    env.globals["t"] = partial(message, language)
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

#: Keys of a question's ``later`` map whose HTML gives the answer away: sealed in the page.
_REVEALING = re.compile(r"^(?:answer|explanation|solution)(?:-\d+)?$|note-\d+$")


def later_json(later: Mapping[str, Any], salt: str) -> Markup:
    """:func:`script_json` of a question's ``later`` map, with the parts that give the
    answer away (the answer, explanation, worked solutions and option notes) sealed
    together under the key ``sealed`` (:func:`konum.seal.seal`); the rest (hints, the
    other variants' prompts and options) stays as it is."""
    from konum.mdx.math import bind_punctuation  # as the page's other formulas (konum.mdx)

    hidden = {k: bind_punctuation(str(v)) for k, v in later.items() if _REVEALING.search(k)}
    shown: dict[str, Any] = {k: v for k, v in later.items() if k not in hidden}
    if hidden:
        text = json.dumps(hidden, ensure_ascii=False, separators=(",", ":"))
        shown["sealed"] = seal.seal(salt, text)
    return script_json(shown)


def question_salt(seed: int, quiz_id: str, question_id: str) -> str:
    """The salt of a question's hashes and sealed parts on one page: from the site seed,
    the quiz and the question (stable across builds with the same seed)."""
    return format(derive_seed(seed, "salt", quiz_id, question_id), "x")


def _markdown(text: str, *, inline: bool = False) -> Markup:
    """Markdown (with math) to sanitised HTML, marked safe for the templates."""
    return Markup(str(render_markdown(text, inline=inline)).strip())


def _optional_markdown(text: str | None, *, inline: bool = False) -> Markup | None:
    return _markdown(text, inline=inline) if text else None


def _legend_html(html: Markup) -> Markup | None:
    """The inner HTML of a prompt that is one plain paragraph, else None."""
    match = _SINGLE_PARAGRAPH.match(str(html))
    return Markup(match.group("inner")) if match else None


def _figure(ref: model.FigureRef | None, language: str) -> Markup | None:
    """A question's figure as inline SVG, its words in ``language`` (drawn from the core,
    cached per figure)."""
    if ref is None:
        return None
    from konum.figures import render_svg

    return Markup(render_svg(ref.name, ref.alt, ref.caption, language=language, **ref.params))


# --- plain text, for places that cannot hold markup ----------------------------------------

#: Operators written with a space on each side (as a reader says them), unless they are signs.
_SPACED = frozenset("+−=≠≈≤≥<>·×→↦∈∉⊂⊆∪∩±∓∝≡")
#: Scripts that read well as Unicode characters: numbers and signs (x², x⁻¹, x₁, xⁿ, qᵀ).
_SUPERSCRIPT = str.maketrans("0123456789+−=()n⊤T", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿᵀᵀ")
_SUBSCRIPT = str.maketrans("0123456789+−=()", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎")
_LARGE_OPERATORS = frozenset("∑∏∫∮⋃⋂")
_ACCENTS = {"^": "\u0302", "ˆ": "\u0302", "¯": "\u0304", "‾": "\u0304", "→": "\u20d7",
            "~": "\u0303", "˜": "\u0303", "˙": "\u0307", "¨": "\u0308"}  # fmt: skip
_FUNCTIONS = frozenset({"sin", "cos", "tan", "exp", "log", "ln", "max", "min", "arg", "softmax"})
_SCRIPTED = frozenset({"msup", "msub", "msubsup", "munder", "mover", "munderover"})


class _Node:
    """An element of the MathML tree :class:`_TextParser` builds."""

    __slots__ = ("attrs", "children", "tag")

    def __init__(self, tag: str, attrs: dict[str, str | None]) -> None:
        self.tag, self.attrs = tag, attrs
        self.children: list[_Node | str] = []

    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def elements(self) -> list[_Node]:
        return [c for c in self.children if isinstance(c, _Node)]


class _TextParser(HTMLParser):
    """HTML to text: tags dropped, each ``<math>`` replaced by :func:`_spoken` of it."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.math: list[_Node] = []  # the open MathML elements, outermost first

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "math" or self.math:
            node = _Node(tag, dict(attrs))
            if self.math:
                self.math[-1].children.append(node)
            self.math.append(node)

    def handle_endtag(self, tag: str) -> None:
        if self.math:
            node = self.math.pop()
            if not self.math:
                self.out.append(_spoken(node))

    def handle_data(self, data: str) -> None:
        if self.math:
            self.math[-1].children.append(data)
        else:
            self.out.append(data)


def _group(text: str, *, words: bool = False) -> str:
    """``text`` in parentheses when it is more than one term: more than one word (in a
    script, ``words``), or anything but a name or a number (in a fraction)."""
    if text.startswith("(") and text.endswith(")") and text.count("(") == 1:
        return text
    several = " " in text if words else not re.fullmatch(r"[\w.′]+", text)
    return f"({text})" if several else text


def _spoken(node: _Node, compact: bool = False) -> str:
    """A MathML element as a reader says it in one line: ``sin(0)``, ``2π · 10000``,
    ``s to the power d/(d−2)``, ``W sub q``, ``x₁``, ``−1``. Inside scripts and fractions
    operators take no spaces (``compact``)."""
    tag, parts = node.tag, node.elements()
    if tag in _SCRIPTED:  # latex2mathml puts a thin space inside \log_2
        parts = [p for p in parts if p.tag != "mspace"]
    if tag in ("mi", "mn", "mo", "mtext", "ms"):
        return node.text().strip()
    if tag in ("annotation", "annotation-xml", "mphantom"):
        return ""
    if tag == "mspace":
        return " "
    if tag == "semantics":
        return _spoken(parts[0], compact) if parts else ""
    if tag in _SCRIPTED and len(parts) >= 2:
        return _scripted(tag, parts, compact)
    if tag == "mfrac" and len(parts) == 2:
        return f"{_group(_spoken(parts[0], True))}/{_group(_spoken(parts[1], True))}"
    if tag == "msqrt":
        return "√" + _group(_row(parts, True))
    if tag == "mroot" and len(parts) == 2:
        return f"{_spoken(parts[1], True)}√{_group(_spoken(parts[0], True))}"
    if tag == "mtable":
        return "; ".join(_spoken(row, compact) for row in parts)
    if tag == "mtr":
        return ", ".join(_spoken(cell, compact) for cell in parts)
    return _row(parts, compact)


def _as_script(text: str, table: dict[int, int]) -> str | None:
    """``text`` in Unicode super- or subscript characters, if each one has such a form."""
    return text.translate(table) if text and all(ord(c) in table for c in text) else None


def _scripted(tag: str, parts: list[_Node], compact: bool) -> str:
    base = _spoken(parts[0], compact)
    scripts = [_spoken(p, True) for p in parts[1:3]]
    if tag == "mover" and scripts[0] in _ACCENTS:
        return base + _ACCENTS[scripts[0]]
    if base in _LARGE_OPERATORS:  # a sum's limits
        words = ("from", "to") if len(scripts) == 2 else ("over",)
        return " ".join([base] + [f"{w} {s}" for w, s in zip(words, scripts, strict=False)])
    if tag in ("munder", "mover", "munderover"):
        return " ".join([base, *scripts])
    low = scripts[0] if tag in ("msub", "msubsup") else None
    high = scripts[-1] if tag in ("msup", "msubsup") else None
    out = base
    if low is not None:
        out += _as_script(low, _SUBSCRIPT) or f" sub {_group(low, words=True)}"
    if high is not None:
        primes = set(high) <= set("′″‴")
        spoken = f" to the power {_group(high, words=True)}"
        out += high if primes else _as_script(high, _SUPERSCRIPT) or spoken
    return out


def _row(parts: list[_Node], compact: bool) -> str:
    out: list[str] = []
    previous: _Node | None = None
    word = False  # the previous item ends in a word: a function name, or a spoken script
    for node in parts:
        text = _spoken(node, compact)
        if node.tag == "mo" and text in _SPACED:
            sign = (
                previous is None
                or node.attrs.get("form") == "prefix"
                or (previous.tag == "mo" and _spoken(previous) not in ")]|⌋⌉")
            )
            text = text if sign or compact else f" {text} "
        elif node.tag == "mo" and text in (",", ";"):
            text += " "
        elif word and text[:1].isalnum():
            text = " " + text
        out.append(text)
        word = text in _FUNCTIONS or (
            node.tag in _SCRIPTED
            and (_spoken(node.elements()[0]) in _FUNCTIONS or " " in text.strip())
        )
        previous = node
    return "".join(out)


def html_text(html: str) -> str:
    """Sanitised HTML as one line of plain text, each formula as a reader says it (see
    :func:`_spoken`): for places that cannot hold markup, such as ``<option>``."""
    parser = _TextParser()
    parser.feed(html)
    parser.close()
    text = re.sub(r"\s+", " ", "".join(parser.out)).strip()
    return re.sub(r"\(\s+", "(", re.sub(r"\s+([),;:])", r"\1", text))


def plain_text(text: str) -> str:
    """Inline Markdown as plain text (:func:`html_text` of its HTML): no markup, no TeX,
    ``$\\sin(0)$`` as ``sin(0)`` and ``$s^{d/(d-2)}$`` as ``s to the power d/(d−2)``."""
    return html_text(str(render_markdown(text, inline=True)))


# --- view models ----------------------------------------------------------------------------


_SIGNED_NUMBER = re.compile(r"-(?=\d|\.\d)(?:[\d.,]+(?:[eE][+-]?\d+)?)(?: [^<>&]+)?")


def typeset_number(text: str) -> str:
    """A number shown to the reader with a real minus sign (U+2212), as the prose's math has
    it: ``-0.84`` and ``-1 rad`` become ``−0.84`` and ``−1 rad``; other text is unchanged."""
    return "\u2212" + text[1:] if _SIGNED_NUMBER.fullmatch(text) else text


def _choice_options(options: Sequence[model.ConcreteOption], dom_id: str) -> list[dict[str, Any]]:
    return [
        {
            "index": i,
            "id": f"{dom_id}-opt-{i}",
            "text": Markup(typeset_number(_markdown(o.text, inline=True))),
            "correct": o.correct,
            "feedback": _optional_markdown(o.feedback),
        }
        for i, o in enumerate(options)
    ]


def _correct_texts(options: list[dict[str, Any]]) -> list[Markup]:
    """The texts of the correct options, for the answer box (a Jinja filter chain costs more
    than rendering them)."""
    return [o["text"] for o in options if o["correct"]]


def _choice_data(options: Sequence[model.ConcreteOption], salt: str) -> dict[str, Any]:
    """How quiz.js checks a choice: option ``i`` (in display order) is right when
    ``answer_hash(salt, "o", i)`` is in ``right``."""
    return {
        "count": len(options),
        "multiple": sum(o.correct for o in options) > 1,
        "right": seal.hashes(salt, [f"o\x1f{i}" for i, o in enumerate(options) if o.correct]),
    }


def _choice(
    concrete: model.Concrete, q: model.ChoiceQuestion, dom_id: str, salt: str
) -> dict[str, Any]:
    order = concrete.option_order or tuple(range(len(q.options)))
    shown = [q.options[i] for i in order]
    opts = [model.ConcreteOption(o.text, o.correct, o.feedback) for o in shown]
    multiple = sum(o.correct for o in opts) > 1
    options = _choice_options(opts, dom_id)
    return {
        "multiple": multiple,
        "options": options,
        "answers": _correct_texts(options),
        "data": {"type": "choice", **_choice_data(opts, salt)},
    }


def _blank_data(blank: model.Blank, salt: str, index: int, language: str) -> dict[str, Any]:
    """How quiz.js checks blank ``index``: a regular expression cannot be hashed (it
    accepts endless texts), so it is sealed and unsealed by the check; listed answers are
    hashed as the check normalises what the reader types."""
    case = blank.case_sensitive
    if blank.regex is not None:
        return {"case_sensitive": case, "regex": seal.seal(f"{salt}\x1f{index}", blank.regex)}
    texts = [seal.normal_text(a, case_sensitive=case, language=language) for a in blank.answers]
    return {
        "case_sensitive": case,
        "answers": seal.hashes(salt, [f"b\x1f{index}\x1f{a}" for a in texts]),
    }


def _fill(q: model.FillQuestion, dom_id: str, language: str, salt: str) -> dict[str, Any]:
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
    macros = environment(language).get_template("quiz/_macros.html.j2").module
    total = len(q.blanks)

    def to_input(match: re.Match[str]) -> str:
        index = int(match.group(1))
        return str(
            macros.blank(  # type: ignore[attr-defined]
                id=f"{dom_id}-blank-{index}",
                label=message(language, "quiz.blank_label", number=index + 1, total=total),
            )
        ).strip()

    blanks = [_blank_data(b, salt, i, language) for i, b in enumerate(q.blanks)]
    return {
        "prompt": Markup(_TOKEN_RE.sub(to_input, html)),
        "blanks": [
            {"shown": b.answers[0] if b.answers else None, "regex": b.regex} for b in q.blanks
        ],
        "data": {"type": "fill", "blanks": blanks},
    }


def _matching(
    concrete: model.Concrete, q: model.MatchingQuestion, dom_id: str, salt: str
) -> dict[str, Any]:
    right = list(concrete.right_items) or [p.right for p in q.pairs] + list(q.distractors)
    answers: list[int] = []
    for pair in q.pairs:
        if pair.right not in right:
            raise RenderError(f"question {q.id}: right item {pair.right!r} is not shown")
        answers.append(right.index(pair.right))
    letters = [chr(ord("A") + i) for i in range(len(right))]
    return {
        "rights": [
            {"index": i, "letter": letters[i], "html": html, "plain": html_text(html)}
            for i, html in enumerate(_markdown(text, inline=True) for text in right)
        ],
        "rows": [
            {
                "id": f"{dom_id}-left-{i}",
                "left": _markdown(p.left, inline=True),
                "answer": letters[answers[i]],
            }
            for i, p in enumerate(q.pairs)
        ],
        "data": {
            "type": "matching",
            "rows": [seal.answer_hash(salt, "m", i, a) for i, a in enumerate(answers)],
        },
    }


def sealed_interval(salt: str, answer: float, tolerance: float) -> str:
    """The numbers a numeric check accepts, ``[low, high]`` (``tolerance`` absolute, with
    the slack of a double's rounding), sealed: only a check unseals them."""
    slack = tolerance + 1e-9 * max(1.0, abs(answer))
    return seal.seal(salt, json.dumps([answer - slack, answer + slack]))


def _numeric(q: model.NumericQuestion, salt: str, language: str) -> dict[str, Any]:
    shown = format_number(q.answer, q.decimals, language=language)
    tolerance = q.tolerance * abs(q.answer) if q.relative else q.tolerance
    return {
        "unit": q.unit,
        "decimals": q.decimals,
        "shown": typeset_number(shown),
        "data": {"type": "numeric", "interval": sealed_interval(salt, q.answer, tolerance)},
    }


def _computed(
    concrete: model.Concrete, q: model.ComputedQuestion, dom_id: str, salt: str
) -> dict[str, Any]:
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
                "shown": typeset_number(v.shown_answer),
                "solution": _markdown(v.solution),
            }
        )
        vsalt = f"{salt}\x1f{k}"
        entry: dict[str, Any] = {"form": form, "salt": vsalt}
        if form == "choice":
            entry.update(_choice_data(v.options, vsalt))
        else:
            entry["interval"] = sealed_interval(vsalt, v.answer, v.tolerance)
        data_variants.append(entry)
    first = _form_shape(variants[0])
    for view in variants[1:]:
        view["like_first"] = _form_shape(view) == first
    return {"variants": variants, "data": {"type": "computed", "variants": data_variants}}


_CODE = re.compile(r"(<pre>(?:<span></span>)?)<code>")
#: Rows of an output question's text box: the expected output's, within these bounds.
OUTPUT_ROWS = (3, 12)


def _output(q: model.OutputQuestion, salt: str) -> dict[str, Any]:
    """The view of an output question: its box sized to the expected output, the example
    solution as highlighted code, and the checker's data (the expected text, sealed, and the
    tolerance; ``templates/assets/quiz.js`` unseals it on a check and compares line by line)."""
    low, high = OUTPUT_ROWS
    return {
        "rows": min(high, max(low, q.expected.count("\n") + 2)),
        "expected": q.expected,
        # Focusable, as Material makes the page's own code blocks: it may scroll sideways.
        "solution": Markup(
            _CODE.sub(r'\1<code tabindex="0">', str(_markdown(code_block(q.solution))))
        ),
        "data": {
            "type": "output",
            "expected": seal.seal(salt, q.expected),
            "tolerance": q.tolerance,
        },
    }


def _ordering(
    concrete: model.Concrete, q: model.OrderingQuestion, dom_id: str, salt: str
) -> dict[str, Any]:
    """Items in their starting order; item ``k`` (its place in that order) is checked at
    position ``p`` by ``answer_hash(salt, "p", p, k)`` against ``positions[p]``."""
    order = concrete.item_order or tuple(range(len(q.items)))
    start_of = {item: k for k, item in enumerate(order)}
    htmls = [_markdown(text, inline=True) for text in q.items]
    return {
        "order_items": [{"index": k, "html": htmls[i]} for k, i in enumerate(order)],
        "answers": htmls,
        "data": {
            "type": "ordering",
            "positions": [seal.answer_hash(salt, "p", p, start_of[p]) for p in range(len(q.items))],
        },
    }


def _form_shape(variant: dict[str, Any]) -> tuple[object, ...]:
    """What a variant's form is made of besides its prompt and option texts: two variants
    of the same shape differ only in those (and in their ids)."""
    if variant["form"] == "choice":
        return ("choice", len(variant["options"]), variant["multiple"])
    return ("numeric", variant["unit"], variant["decimals"])


def _question(
    concrete: model.Concrete, quiz_id: str, number: int, total: int, language: str
) -> dict[str, Any]:
    q = concrete.question
    if not _SLUG.fullmatch(q.id):
        raise RenderError(f"question {q.id!r}: expected a slug id like 'sin-why-pairs'")
    dom_id = f"konum-{quiz_id}-{q.id}"
    salt = question_salt(concrete.seed, quiz_id, q.id)
    view: dict[str, Any] = {
        "id": q.id,
        "dom_id": dom_id,
        "type": q.type,
        "number": number,
        "total": total,
        "salt": salt,
        "hints": [_markdown(h.text) for h in q.all_hints],
        "figure": _figure(q.figure, language),
        "explanation": _optional_markdown(q.explanation),
        "scoring": {
            "salt": salt,
            "worth": q.points,
            "hint_shares": [h.cost for h in q.all_hints],
            "attempts": q.attempts,
        },
    }
    if isinstance(q, model.ChoiceQuestion):
        view.update(_choice(concrete, q, dom_id, salt))
    elif isinstance(q, model.FillQuestion):
        view.update(_fill(q, dom_id, language, salt))
    elif isinstance(q, model.MatchingQuestion):
        view.update(_matching(concrete, q, dom_id, salt))
    elif isinstance(q, model.NumericQuestion):
        view.update(_numeric(q, salt, language))
    elif isinstance(q, model.ComputedQuestion):
        view.update(_computed(concrete, q, dom_id, salt))
    elif isinstance(q, model.OutputQuestion):
        view.update(_output(q, salt))
    elif isinstance(q, model.OrderingQuestion):
        view.update(_ordering(concrete, q, dom_id, salt))
    else:  # pragma: no cover - the Question union is closed
        raise RenderError(f"question {q.id}: unknown type {type(q).__name__}")
    if q.type not in ("fill", "computed"):
        prompt = _markdown(q.prompt)
        view["prompt"] = prompt
        view["legend"] = _legend_html(prompt)
    return view


def render_quiz(
    concretes: Sequence[model.Concrete],
    quiz_id: str,
    *,
    title: str | None = None,
    language: str = "en",
    draw: int | None = None,
    mode: str = "practice",
    time_limit: int | None = None,
    attempts: int | None = None,
) -> str:
    """Render a quiz: the wrapper with score line and Reset button, then each question.

    Args:
        concretes: The questions, in the order shown, with the site seed applied.
        quiz_id: A slug unique on the page (e.g. the bank id); prefixes every element id and
            the localStorage keys of the reader's progress.
        title: Optional heading text (plain text, escaped) shown above the questions.
        language: The interface's language (:data:`konum.messages.LANGUAGES`).
        draw: Show only this many of the questions, drawn in the reader's browser (every
            question is in the page, for readers without JavaScript).
        mode: ``"practice"`` (feedback on every check) or ``"exam"`` (one submission).
        time_limit: An exam's time in seconds (None: no limit).
        attempts: The checks each question allows unless it says otherwise (None: any).

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
            questions.append(_question(concrete, quiz_id, number, total, language))
        except ValueError as exc:  # RenderError, MathError: where the question was written
            q = concrete.question
            raise RenderError(f"{q.source}: [{q.id}] {exc}") from None
    context: Mapping[str, Any] = {
        "quiz_id": quiz_id,
        "dom_id": f"konum-{quiz_id}",
        "title": title,
        "questions": questions,
        "draw": draw,
        "mode": mode,
        "time_limit": time_limit,
        "attempts": attempts,
    }
    return environment(language).get_template("quiz/quiz.html.j2").render(context).strip() + "\n"


def render_study(course: Any, language: str = "en") -> str:
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

    cards = build_cards(course.banks, course.concretes(), math="mathml", language=course.language)
    data = script_json(cards_json(cards))
    template = environment(language).get_template("quiz/study.html.j2")
    return template.render(data=data).strip() + "\n"


def render_progress(course: Any, language: str = "en") -> str:
    """The course overview block: the lessons of ``course`` (a :class:`konum.course.Course`)
    in its order as JSON for ``overview.js``: ``{"lessons": [{"bank", "title", "questions":
    [question ids], "cards": [card keys]}]}``. The scores and due cards are the learner's, so
    the browser adds them; without JavaScript the block says so.

    Raises:
        konum.errors.ExportError: a question cannot be made into a card.
    """
    from konum.exports.cards import build_cards

    keys: dict[str, list[str]] = {}
    for card in build_cards(course.banks, course.concretes(), math="mathml"):
        keys.setdefault(card.bank, []).append(card.key)
    lessons = [
        {
            "bank": bank.id,
            "title": bank.title,
            "questions": [q.id for q in bank.questions],
            "cards": keys.get(bank.id, []),
        }
        for bank in course.banks
    ]
    data = script_json({"lessons": lessons})
    template = environment(language).get_template("quiz/progress.html.j2")
    return template.render(data=data).strip() + "\n"
