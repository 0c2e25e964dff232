"""Render concrete questions to quiz HTML through the Jinja templates in ``templates/quiz/``.

One call, :func:`render_quiz`, turns a sequence of :class:`konum.types.Concrete` questions
into the markup that ``templates/assets/quiz.js`` mounts. HTML comes only from the
templates (autoescape on, ``StrictUndefined``); this module builds the view every question
has, asks the question's type for the rest (:meth:`konum.types.Question.view`), and hands
the checker's data to the templates, which serialise it with ``script_json``.

Conventions (the markup contract, relied on by the JS and by tests elsewhere):

* The wrapper is ``<section class="konum-quiz" data-konum-quiz data-quiz-id="...">``; each
  question is ``<div class="konum-question no-copy" data-question-id="..." data-type="...">``
  (``no-copy``: no Material copy button in its code) holding
  a ``<template>`` with the checker's JSON (``script.konum-data``) and the HTML shown later
  (``script.konum-later``), then its prompt and controls; quiz.js adds the buttons and an
  ``aria-live`` feedback region whose text starts with "Correct" or "Not quite".
* Element ids are ``konum-<quiz_id>-<question_id>`` plus a suffix: deterministic and unique
  on a page as long as quiz ids are unique on that page.
* Fill blanks: every run of four or more underscores becomes an ``<input>``, inside code
  too (:mod:`konum.types.fill`).
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Mapping, Sequence
from functools import lru_cache, partial
from pathlib import Path
from typing import Any

from jinja2 import ChoiceLoader, Environment, FileSystemLoader, StrictUndefined, select_autoescape
from markupsafe import Markup

from konum import seal
from konum.diskcache import TemplateCache, cached_text, code_hash, version
from konum.figures import render_svg
from konum.formatting import SLUG
from konum.images import Images, inline
from konum.markup import json_html, render_markdown
from konum.math import bind_punctuation
from konum.messages import message
from konum.model import FigureRef
from konum.paths import TEMPLATES_DIR
from konum.plugins import NONE, Plugins
from konum.seeding import derive_seed
from konum.spoken import html_text
from konum.types import Concrete, Page

__all__ = [
    "RenderError",
    "asset",
    "environment",
    "part_scripts",
    "render_quiz",
    "script_json",
    "template_folders",
]

_SINGLE_PARAGRAPH = re.compile(r"\A<p>(?P<inner>(?:(?!</?p[ >]).)*)</p>\Z", re.DOTALL)


class RenderError(ValueError):
    """A question cannot be rendered; the message names the question id and the problem."""


def environment(language: str = "en", folders: tuple[Path, ...] = ()) -> Environment:
    """The Jinja environment for quiz templates in ``language``.

    Args:
        language: the interface's language.
        folders: the plugin types' template folders (:func:`template_folders`), searched
            after konum's own.

    Returns:
        A cached environment loading from :data:`TEMPLATES_DIR` and ``folders``,
        autoescaping ``.html``, ``.j2`` and ``.html.j2`` templates, with ``StrictUndefined``
        and ``trim_blocks``; its global ``t(key, **fields)`` is
        :func:`konum.messages.message` in ``language``.
    """
    return _environment(language, folders)


#: How the quiz templates are read: what shapes their compiled code.
_SYNTAX: dict[str, Any] = {
    "trim_blocks": True,
    "lstrip_blocks": True,
    "keep_trailing_newline": False,
    "extensions": ["jinja2.ext.do"],
}


def template_folders(plugins: Plugins) -> tuple[Path, ...]:
    """The template folders of the question types ``plugins`` give, in their order."""
    found = (getattr(kind, "TEMPLATES", None) for kind in plugins.types.values())
    return tuple(dict.fromkeys(Path(folder) for folder in found if folder))


@lru_cache(maxsize=8)
def _environment(language: str, folders: tuple[Path, ...]) -> Environment:
    own = FileSystemLoader(TEMPLATES_DIR)
    env = Environment(
        loader=ChoiceLoader([own, *map(FileSystemLoader, folders)]) if folders else own,
        autoescape=select_autoescape(enabled_extensions=("html", "j2", "html.j2")),
        undefined=StrictUndefined,
        bytecode_cache=TemplateCache(repr(_SYNTAX), code_hash(__file__)),  # once per version
        **_SYNTAX,
    )
    env.filters["script_json"] = script_json
    env.filters["later_json"] = partial(later_json, language=language)
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


#: A formula as konum.math writes it (``<math alttext="TeX" ...>``), whole.
_MATH = re.compile(r'<math alttext="[^"]*"[^>]*>.*?</math>', re.DOTALL)
#: The checker's data and later HTML of a question, which :func:`later_json` names itself.
_TEMPLATE = re.compile(r"(<template\b.*?</template>)", re.DOTALL)


def spoken_math(text: str, language: str) -> str:
    """``text`` (HTML) with every formula named by what a reader says (konum.spoken, in
    ``language``: ``j ≤ i``, not the TeX ``j \\le i``) in ``aria-label``: a screen reader
    speaks it, and quiz.js names a control whose label holds math by it."""
    return _MATH.sub(lambda m: _named(m.group(0), language), text)


@lru_cache(maxsize=4096)
def _named(math: str, language: str) -> str:
    said = html.escape(html_text(math, language), quote=True)
    return math.replace("<math ", f'<math aria-label="{said}" ', 1)


def later_json(later: Mapping[str, Any], salt: str, language: str = "en") -> Markup:
    """:func:`script_json` of a question's ``later`` map, with the parts that give the
    answer away (the answer, explanation, worked solutions and option notes) sealed
    together under the key ``sealed`` (:func:`konum.seal.seal`); the rest (hints, the
    other variants' prompts and options) stays as it is; their formulas keep the
    punctuation after them on their line, as the page's other formulas do. Every part is
    written as :func:`konum.markup.json_html` (no quote for the JSON to escape)."""
    hidden = {
        k: json_html(bind_punctuation(spoken_math(str(v), language)))
        for k, v in later.items()
        if _REVEALING.search(k)
    }
    shown: dict[str, Any] = {
        k: json_html(spoken_math(str(v), language)) for k, v in later.items() if k not in hidden
    }
    if hidden:
        text = json.dumps(hidden, ensure_ascii=False, separators=(",", ":"))
        shown["sealed"] = seal.seal(salt, text)
    return script_json(shown)


@lru_cache(maxsize=64)
def asset(path: str | Path) -> str:
    """A script or style as pages carry it: minified (comments and spaces out, and a
    script's local names shortened by calmjs.parse), since it travels inline in every page
    that uses it and is not cached between pages. ``path`` is relative to
    ``templates/assets/`` (konum's own), or absolute (a plugin's). calmjs.parse reads ES5
    (``var`` and ``function``), as konum's scripts are written; a plugin's script in later
    JavaScript is carried as written. Minified once per installed version and source, and
    kept in the user's cache folder (:mod:`konum.diskcache`)."""
    file = TEMPLATES_DIR / "assets" / path
    source = file.read_bytes()
    minifier = "rcssmin" if file.suffix != ".js" else "calmjs.parse"
    made = partial(_minified, source.decode("utf-8"), file.suffix)
    depends = (minifier, version(minifier), file.suffix, code_hash(__file__))
    return cached_text("asset", source, made, *depends)


def _minified(text: str, suffix: str) -> str:
    if suffix != ".js":
        import rcssmin

        return str(rcssmin.cssmin(text))
    from calmjs.parse import es5
    from calmjs.parse.exceptions import ECMASyntaxError
    from calmjs.parse.unparsers.es5 import minify_print

    try:
        tree = es5(text)
    except ECMASyntaxError:
        return text
    return str(minify_print(tree, obfuscate=True, obfuscate_globals=False))


def front_parts(data: Mapping[str, Any]) -> list[str]:
    """The front-end parts a question's checker data asks for: its type's, or the forms of
    its variants (a computed question's are other types' parts), in first use's order."""
    variants = data.get("variants")
    if isinstance(variants, list):
        return list(dict.fromkeys(str(v["form"]) for v in variants))
    return [str(data["type"])]


#: The parts a page's questions use (written by ``quiz/_macros.html.j2``'s ``open``).
_PARTS = re.compile(r'\bdata-parts="([a-z0-9_ ]*)"')


def part_scripts(html: str, plugins: Plugins) -> str:
    """The ``<script>`` elements of the front-end parts the questions in ``html`` use, each
    once, in first use's order: konum's own (``templates/assets/types/<type>.js``) or a
    plugin type's ``SCRIPT``; they come after ``quiz.js``, whose ``konumQuiz.define`` they
    call. ``""`` for a page without a question."""
    names = dict.fromkeys(n for found in _PARTS.findall(html) for n in found.split())
    scripts = []
    for name in names:
        script = getattr(plugins.types.get(name), "SCRIPT", None)
        path = Path(script) if script else TEMPLATES_DIR / "assets" / "types" / f"{name}.js"
        if path.is_file():
            scripts.append(f'<script data-konum-asset="part-{name}">{asset(path)}</script>\n')
    return "".join(scripts)


def question_salt(seed: int, quiz_id: str, question_id: str) -> str:
    """The salt of a question's hashes and sealed parts on one page: from the site seed,
    the quiz and the question (stable across builds with the same seed)."""
    return format(derive_seed(seed, "salt", quiz_id, question_id), "x")


def page_html(text: str, store: Images, *, one_line: bool = False) -> Markup:
    """Bank Markdown as a page shows it: sanitised, math as MathML, images inline
    (``one_line``: a single paragraph unwrapped)."""
    return Markup(inline(render_markdown(text, inline=one_line), store))


def figure_html(ref: FigureRef | None, plugins: Plugins, language: str) -> Markup | None:
    """A question's figure as inline SVG, its words in ``language`` (drawn by its plugin)."""
    if ref is None:
        return None
    figure = plugins.figure(ref.name)
    return Markup(render_svg(figure, ref.alt, ref.caption, language=language, **ref.params))


def _legend_html(html: Markup) -> Markup | None:
    """The inner HTML of a prompt that is one plain paragraph, else None."""
    match = _SINGLE_PARAGRAPH.match(str(html))
    return Markup(match.group("inner")) if match else None


def _scoring(
    salt: str, worth: float, hint_shares: list[float], attempts: int | None
) -> dict[str, Any]:
    """The checker's scoring fields, each left out at its default (worth 1 point, no hints,
    any number of attempts), which quiz.js and ``konum quiz`` read in its place."""
    scoring: dict[str, Any] = {"salt": salt}
    if worth != 1:
        scoring["worth"] = worth
    if hint_shares:
        scoring["hint_shares"] = hint_shares
    if attempts is not None:
        scoring["attempts"] = attempts
    return scoring


def _question(
    concrete: Concrete,
    quiz_id: str,
    number: int,
    total: int,
    language: str,
    plugins: Plugins,
    store: Images,
    env: Environment,
) -> dict[str, Any]:
    q = concrete.question
    if not SLUG.fullmatch(q.id):
        raise RenderError(f"question {q.id!r}: expected a slug id like 'sin-why-pairs'")
    dom_id = f"konum-{quiz_id}-{q.id}"
    salt = question_salt(concrete.seed, quiz_id, q.id)

    def md(text: str, inline: bool = False) -> Markup:
        return page_html(text, store, one_line=inline)

    macros = env.get_template("quiz/_macros.html.j2").module

    def blank(element_id: str, index: int, count: int) -> str:
        label = message(language, "quiz.blank_label", number=index + 1, total=count)
        return str(macros.blank(id=element_id, label=label)).strip()  # type: ignore[attr-defined]

    view: dict[str, Any] = {
        "id": q.id,
        "dom_id": dom_id,
        # What is revealed later is sealed under the quiz's key: one permutation for the
        # block's questions, so the page's gzip finds what they repeat of each other.
        "seal": question_salt(concrete.seed, quiz_id, ""),
        "type": q.type,
        "number": number,
        "total": total,
        "salt": salt,
        "hints": [md(h.text) for h in q.all_hints],
        "figure": figure_html(q.figure, plugins, language),
        "explanation": md(q.explanation) if q.explanation else None,
        "scoring": _scoring(salt, q.points, [h.cost for h in q.all_hints], q.attempts),
    }
    view.update(q.view(concrete, Page(dom_id, salt, language, md, blank)))
    view["parts"] = front_parts(view["data"])
    if "prompt" not in view and "variants" not in view:
        view["prompt"] = md(q.prompt)
        view["legend"] = _legend_html(view["prompt"])
    return view


def render_quiz(
    concretes: Sequence[Concrete],
    quiz_id: str,
    *,
    title: str | None = None,
    language: str = "en",
    draw: int | None = None,
    mode: str = "practice",
    time_limit: int | None = None,
    attempts: int | None = None,
    plugins: Plugins = NONE,
    images: Images | None = None,
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
        plugins: What draws the questions' figures, and the templates of its types.
        images: The checked images the texts show (a course's :attr:`~konum.course.Course.images`).

    Returns:
        HTML for the page (a single ``<section class="konum-quiz">`` element).

    Raises:
        RenderError: ``quiz_id`` or a question id is not a slug, two questions share an id,
            or a question cannot be rendered (its source and id named).
    """
    if not SLUG.fullmatch(quiz_id):
        raise RenderError(f"quiz id {quiz_id!r}: expected a slug like 'forces'")
    ids = [c.question.id for c in concretes]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise RenderError(f"quiz {quiz_id}: duplicate question ids {', '.join(duplicates)}")
    total = len(concretes)
    store = images or {}
    env = environment(language, template_folders(plugins))
    questions = []
    for number, concrete in enumerate(concretes, start=1):
        try:
            view = _question(concrete, quiz_id, number, total, language, plugins, store, env)
            questions.append(view)
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
    out = env.get_template("quiz/quiz.html.j2").render(context).strip()
    parts = _TEMPLATE.split(out)  # odd parts: the templates, whose HTML later_json named
    return "".join(p if i % 2 else spoken_math(p, language) for i, p in enumerate(parts)) + "\n"
