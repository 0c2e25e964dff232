"""Moodle XML: every question Moodle can hold, with the numbers konum drew for the seed.

Checked against Moodle's importer, ``question/format/xml/format.php`` (qformat_xml, the
version at commit 00055ef6abc837f53259217d5de9dd45641fb74f of github.com/moodle/moodle),
with ``question/type/calculated/question.php`` (how a calculated question substitutes its
wildcards and evaluates its formula), ``question/type/numerical/question.php``
(``tolerancetype`` 2 is "nominal", an absolute tolerance), ``question/type/multianswer``
(the cloze syntax) and ``question/format.php`` (fractions must be in Moodle's list of
grades). What each konum question becomes:

=========================  ==================================================================
konum                      Moodle
=========================  ==================================================================
choice                     ``multichoice``: one right option is ``single``; several share
                           100 % (each right one ``100/k``) and each wrong one takes
                           ``-100/w``, so that ticking everything scores 0. Per-option
                           feedback. Pinned options or ``shuffle: false``: written in
                           konum's order for the seed with shuffling off.
fill, one blank            ``shortanswer`` (``usecase`` 1 when case-sensitive).
fill, several blanks       ``cloze``: one ``{1:SHORTANSWER:=a~=b}`` (``SHORTANSWER_C`` when
                           case-sensitive) per blank.
matching                   ``matching``: pairs as subquestions, distractors as answers with
                           no subquestion. Answers are plain text (Moodle shows them in a
                           drop-down), math as Unicode.
numeric                    ``numerical`` with an absolute tolerance (a relative one times
                           the answer) and the unit, optional for the student.
formula question, numeric  ``calculated``: the formula in Moodle's syntax (``{m} * {a}``),
                           one private dataset per parameter (its range and decimals) whose
                           items are the variants konum drew, the tolerance (the largest
                           of the variants', absolute) and the decimals shown.
formula question, choice   ``calculatedmulti``: the formula and each misconception as
                           ``{=...}`` answers, when every variant shows exactly those
                           options; otherwise as a generator question.
generator question         a category of its own holding one ``numerical`` (or, for the
                           choice form, ``multichoice`` with the misconception feedback)
                           question per variant: a quiz's "random question from category"
                           gives each student other numbers.
=========================  ==================================================================

A formula question is also written one question per variant when its prompt cannot be
written with wildcards (its template does arithmetic or formatting on the values): the
prompt with ``{name}`` in place of each value must read, for every variant, exactly as
konum's own prompt for it.

Not written, and reported by id (:class:`~konum.exports.lms.Skipped`): fill blanks with a
``regex`` (Moodle's short answers match listed answers and ``*`` wildcards, never regular
expressions) and matching questions with fewer than three answers (Moodle requires
three). A question's figure is embedded as an SVG ``file`` element (base64) and shown after
the prompt; a bank's own images (:mod:`konum.images`), wherever they are in the texts, as a
``file`` element beside the ``text`` that shows them, where Moodle's importer looks for that
text's files (``import_text_with_files``), named ``@@PLUGINFILE@@/<flat name>`` in its HTML.

Text is HTML with math as ``\\( \\)`` / ``\\[ \\]`` for Moodle's MathJax filter. In the
texts of calculated questions every literal ``{`` and ``}`` is written as a character
reference, so that Moodle substitutes only the wildcards konum put there (LaTeX such as
``\\frac{V}{R}`` would otherwise have ``{V}`` replaced by a number).

Names and ids: categories are ``$course$/top/<deck>/<bank title>`` with idnumber
``konum:<bank id>`` (a generator question's own category adds ``/<question id>`` and
``:<question id>``); questions are named by their id (``<id> #<n>`` for variant ``n``) with
idnumber ``konum:<id>`` (``konum:<id>:<n>``), the same in every export.
"""

from __future__ import annotations

import ast
import base64
import html
import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

from konum import images, model
from konum.computed.base import lattice
from konum.computed.expression import parse
from konum.computed.formula import spec_for
from konum.exports.cards import figure_svg_file
from konum.exports.lms import (
    OUTPUT_PROBLEM,
    LmsExport,
    Skipped,
    category_path,
    plain_number,
    write_atomically,
)
from konum.formatting import BLANK
from konum.markup import render_markdown
from konum.render import plain_text
from konum.sandbox import Sandbox, SandboxError, fmt

#: Moodle's grades for an answer (``question_bank::fraction_options_full``): a right option
#: of a multiple-answer question is worth ``1/k`` of the mark, which is in the list for
#: ``k`` up to 10.
MAX_SHARES = 10
#: Tolerance types of Moodle's numerical answers.
NOMINAL = "2"
#: ``correctanswerformat`` 1: the answer is shown with ``correctanswerlength`` decimals.
DECIMALS_FORMAT = "1"
_TOKEN = "KONUMPARAM{}X"
_CLOZE_SPECIAL = {ord(char): f"&#{ord(char)};" for char in "{}~#"}
_BLANK_TOKEN = "KONUMBLANK{}X"


# --- text -------------------------------------------------------------------------------------


def _html(text: str, *, inline: bool = False) -> str:
    # Images stay references until the document is serialised (_carry_images).
    return render_markdown(text, inline=inline, math="anki", images="refs").strip()


def _literal(html_text: str) -> str:
    """HTML in which Moodle's calculated questions see no wildcard or ``{=...}`` formula."""
    return html_text.replace("{", "&#123;").replace("}", "&#125;")


def _text(parent: ET.Element, tag: str, text: str, fmt_name: str | None = "html") -> ET.Element:
    element = ET.SubElement(parent, tag, {"format": fmt_name} if fmt_name else {})
    ET.SubElement(element, "text").text = text
    return element


def _value(parent: ET.Element, tag: str, value: object) -> None:
    ET.SubElement(parent, tag).text = str(value)


def _percent(fraction: float) -> str:
    """A fraction as Moodle's ``fraction`` attribute: a percentage, 7 significant digits."""
    return plain_number(float(f"{fraction * 100:.7g}"))


@dataclass
class _Figure:
    """A question's figure as an ``<img>`` and the ``file`` element that carries it."""

    name: str
    data: bytes
    alt: str

    def img(self) -> str:
        return (
            f'<p><img src="@@PLUGINFILE@@/{html.escape(self.name)}" '
            f'alt="{html.escape(self.alt, quote=True)}"></p>'
        )


def _figure(ref: model.FigureRef | None) -> _Figure | None:
    if ref is None:
        return None
    path = figure_svg_file(ref)
    return _Figure(path.name, path.read_bytes(), ref.alt)


# --- the document -------------------------------------------------------------------------------


@dataclass
class _Document:
    root: ET.Element = field(default_factory=lambda: ET.Element("quiz"))
    items: int = 0
    categories: int = 0

    def category(self, path: str, idnumber: str, info: str) -> None:
        question = ET.SubElement(self.root, "question", {"type": "category"})
        category = ET.SubElement(question, "category")
        ET.SubElement(category, "text").text = path
        _text(question, "info", info)
        _value(question, "idnumber", idnumber)
        self.categories += 1

    def question(
        self,
        kind: str,
        q: model.QuestionBase,
        *,
        name: str,
        idnumber: str,
        text: str,
        feedback: str,
        figure: _Figure | None,
        literal: bool = False,
    ) -> ET.Element:
        """The elements every question has (``import_headers``), in the exporter's order."""
        element = ET.SubElement(self.root, "question", {"type": kind})
        ET.SubElement(ET.SubElement(element, "name"), "text").text = name
        questiontext = _text(element, "questiontext", text + (figure.img() if figure else ""))
        if figure is not None:
            _file(questiontext, figure.name, figure.data)
        _text(element, "generalfeedback", feedback)
        if kind != "cloze":
            _value(element, "defaultgrade", "1.0000000")
        _value(element, "penalty", "0.3333333")
        _value(element, "hidden", 0)
        _value(element, "idnumber", idnumber)
        if q.hint:
            hint = _html(q.hint)
            _text(element, "hint", _literal(hint) if literal else hint)
        tags = [q.bank, *q.tags]
        if tags:
            container = ET.SubElement(element, "tags")
            for tag in dict.fromkeys(tags):
                ET.SubElement(ET.SubElement(container, "tag"), "text").text = tag
        self.items += 1
        return element

    def serialise(self) -> str:
        _carry_images(self.root)
        ET.indent(self.root, space="  ")
        body = ET.tostring(self.root, encoding="unicode", short_empty_elements=False)
        return '<?xml version="1.0" encoding="UTF-8"?>\n' + body + "\n"


def _file(parent: ET.Element, name: str, data: bytes) -> None:
    file = ET.SubElement(parent, "file", {"name": name, "path": "/", "encoding": "base64"})
    file.text = base64.b64encode(data).decode("ascii")


def _carry_images(root: ET.Element) -> None:
    """Each bank image a text shows: ``@@PLUGINFILE@@/<name>`` in its HTML, and the file
    once beside that ``text`` element."""
    for parent in list(root.iter()):
        text = parent.find("text")
        if text is None or not text.text or images.PREFIX not in text.text:
            continue
        found: dict[str, images.Image] = {}

        def write(image: images.Image, attributes: dict[str, str]) -> str:
            found.setdefault(image.name, image)  # noqa: B023 - called before the loop goes on
            return images.img_tag(f"@@PLUGINFILE@@/{image.name}", attributes)

        text.text = images.substitute(text.text, write)
        present = {file.get("name") for file in parent.findall("file")}
        for image in found.values():
            if image.name not in present:
                _file(parent, image.name, image.data)


def _combined_feedback(element: ET.Element) -> None:
    for tag in ("correctfeedback", "partiallycorrectfeedback", "incorrectfeedback"):
        _text(element, tag, "")


def _answer(
    parent: ET.Element,
    fraction: float,
    text: str,
    feedback: str = "",
    fmt_name: str = "html",
) -> ET.Element:
    answer = ET.SubElement(parent, "answer", {"fraction": _percent(fraction), "format": fmt_name})
    ET.SubElement(answer, "text").text = text
    _text(answer, "feedback", feedback)
    return answer


def _units(element: ET.Element, unit: str | None) -> None:
    """The unit, optional for the student (``unitgradingtype`` 0): "37.5" and "37.5 J"
    are both right; without a unit Moodle shows no unit field (``showunits`` 3)."""
    if unit:
        units = ET.SubElement(element, "units")
        entry = ET.SubElement(units, "unit")
        _value(entry, "multiplier", 1)
        _value(entry, "unit_name", unit)
    _value(element, "unitgradingtype", 0)
    _value(element, "unitpenalty", "0.1000000")
    _value(element, "showunits", 0 if unit else 3)
    _value(element, "unitsleft", 0)


# --- one question per type --------------------------------------------------------------------


def _explanation(q: model.QuestionBase) -> str:
    return _html(q.explanation) if q.explanation.strip() else ""


def _choice(doc: _Document, q: model.ChoiceQuestion, concrete: model.Concrete) -> None:
    right = [o for o in q.options if o.correct]
    wrong = [o for o in q.options if not o.correct]
    fixed = not q.shuffle or any(o.pin for o in q.options)
    order = concrete.option_order or tuple(range(len(q.options)))
    element = doc.question(
        "multichoice",
        q,
        name=q.id,
        idnumber=f"konum:{q.id}",
        text=_html(q.prompt),
        feedback=_explanation(q),
        figure=_figure(q.figure),
    )
    _value(element, "single", "false" if q.multiple else "true")
    _value(element, "shuffleanswers", "false" if fixed else "true")
    _value(element, "answernumbering", "abc")
    _value(element, "showstandardinstruction", 0)
    _combined_feedback(element)
    for index in order if fixed else range(len(q.options)):
        option = q.options[index]
        # Each right option earns its share; each wrong one costs one share of the wrong.
        fraction = 1 / len(right) if option.correct else (-1 / len(wrong) if q.multiple else 0)
        feedback = _html(option.feedback) if option.feedback else ""
        _answer(element, fraction, _html(option.text, inline=True), feedback)


def _choice_problem(q: model.ChoiceQuestion) -> str | None:
    right = sum(o.correct for o in q.options)
    wrong = len(q.options) - right
    if right > MAX_SHARES or (q.multiple and wrong > MAX_SHARES):
        return (
            f"Moodle's grades split a mark in at most {MAX_SHARES} shares: expected at most "
            f"{MAX_SHARES} right and {MAX_SHARES} wrong options, found {right} and {wrong}"
        )
    return None


def _fill_problem(q: model.FillQuestion) -> str | None:
    for i, blank in enumerate(q.blanks):
        if blank.regex is not None:
            return (
                f"blank {i + 1} accepts a regular expression; Moodle's short answers match "
                "listed answers only"
            )
    return None


def _shortanswer_text(answer: str) -> str:
    """A short answer as Moodle matches it: ``*`` is a wildcard there, ``\\*`` a star."""
    return answer.replace("*", "\\*")


def _cloze_answer(answer: str) -> str:
    """An answer inside a cloze marker: HTML-escaped (Moodle decodes entities), and the
    characters that end an alternative (``~ # }``) and ``{`` as character references."""
    return html.escape(_shortanswer_text(answer), quote=False).translate(_CLOZE_SPECIAL)


def _fill(doc: _Document, q: model.FillQuestion) -> None:
    if len(q.blanks) == 1:
        blank = q.blanks[0]
        element = doc.question(
            "shortanswer",
            q,
            name=q.id,
            idnumber=f"konum:{q.id}",
            text=_html(q.prompt),
            feedback=_explanation(q),
            figure=_figure(q.figure),
        )
        _value(element, "usecase", 1 if blank.case_sensitive else 0)
        for answer in blank.answers:
            _answer(element, 1.0, _shortanswer_text(answer), fmt_name="moodle_auto_format")
        return
    tokens = iter(range(len(q.blanks)))
    source = BLANK.sub(lambda _m: _BLANK_TOKEN.format(next(tokens)), q.prompt)
    text = _html(source)
    for i, blank in enumerate(q.blanks):
        kind = "SHORTANSWER_C" if blank.case_sensitive else "SHORTANSWER"
        alternatives = "~".join(f"={_cloze_answer(a)}" for a in blank.answers)
        text = text.replace(_BLANK_TOKEN.format(i), f"{{1:{kind}:{alternatives}}}", 1)
    doc.question(
        "cloze",
        q,
        name=q.id,
        idnumber=f"konum:{q.id}",
        text=text,
        feedback=_explanation(q),
        figure=_figure(q.figure),
    )


def _matching_problem(q: model.MatchingQuestion) -> str | None:
    answers = len(q.pairs) + len(q.distractors)
    if answers < 3:
        return (
            "Moodle's matching questions need at least three answers (pairs and "
            f"distractors), found {answers}"
        )
    return None


def _matching(doc: _Document, q: model.MatchingQuestion) -> None:
    element = doc.question(
        "matching",
        q,
        name=q.id,
        idnumber=f"konum:{q.id}",
        text=_html(q.prompt),
        feedback=_explanation(q),
        figure=_figure(q.figure),
    )
    _value(element, "shuffleanswers", "true" if q.shuffle else "false")
    _combined_feedback(element)
    for left, right in [(_html(p.left, inline=True), p.right) for p in q.pairs] + [
        ("", d) for d in q.distractors
    ]:
        sub = _text(element, "subquestion", left)
        ET.SubElement(ET.SubElement(sub, "answer"), "text").text = plain_text(right)


def absolute_tolerance(q: model.NumericQuestion) -> float:
    """A numeric question's tolerance as an absolute one (Moodle has no relative one)."""
    return abs(q.answer) * q.tolerance if q.relative else q.tolerance


def _numeric(doc: _Document, q: model.NumericQuestion) -> None:
    element = doc.question(
        "numerical",
        q,
        name=q.id,
        idnumber=f"konum:{q.id}",
        text=_html(q.prompt),
        feedback=_explanation(q),
        figure=_figure(q.figure),
    )
    answer = _answer(element, 1.0, plain_number(q.answer), fmt_name="moodle_auto_format")
    _value(answer, "tolerance", plain_number(absolute_tolerance(q)))
    _units(element, q.unit)


# --- computed questions -------------------------------------------------------------------------


def _variant_feedback(q: model.ComputedQuestion, variant: model.Variant) -> str:
    solution = _html(variant.solution)
    return f"<p><strong>Worked solution</strong></p>{solution}" + _explanation(q)


def _per_variant(
    doc: _Document, bank: model.Bank, q: model.ComputedQuestion, concrete: model.Concrete, deck: str
) -> None:
    """A category of its own with one question per variant."""
    doc.category(
        category_path(deck, bank.title, q.id),
        f"konum:{bank.id}:{q.id}",
        f"<p>The {len(concrete.variants)} variants of question {html.escape(q.id)}: "
        "draw one at random per student.</p>",
    )
    figure = _figure(q.figure)
    for variant in concrete.variants:
        number = variant.index + 1
        element = doc.question(
            "multichoice" if variant.options else "numerical",
            q,
            name=f"{q.id} #{number}",
            idnumber=f"konum:{q.id}:{number}",
            text=_html(variant.prompt),
            feedback=_variant_feedback(q, variant),
            figure=figure,
        )
        if variant.options:
            _value(element, "single", "true")
            _value(element, "shuffleanswers", "true")
            _value(element, "answernumbering", "abc")
            _value(element, "showstandardinstruction", 0)
            _combined_feedback(element)
            for option in variant.options:
                feedback = _html(option.feedback) if option.feedback else ""
                text = _html(option.text, inline=True)
                _answer(element, 1.0 if option.correct else 0.0, text, feedback)
        else:
            answer = _answer(
                element, 1.0, plain_number(variant.answer), fmt_name="moodle_auto_format"
            )
            _value(answer, "tolerance", plain_number(variant.tolerance))
            _units(element, variant.unit)


_FUNCTIONS = {
    "sqrt": "sqrt",
    "exp": "exp",
    "log": "log",
    "log10": "log10",
    "sin": "sin",
    "cos": "cos",
    "tan": "tan",
    "arcsin": "asin",
    "arccos": "acos",
    "arctan": "atan",
    "arctan2": "atan2",
    "sinh": "sinh",
    "cosh": "cosh",
    "tanh": "tanh",
    "radians": "deg2rad",
    "degrees": "rad2deg",
    "abs": "abs",
    "floor": "floor",
    "ceil": "ceil",
    "round": "round",
    "min": "min",
    "max": "max",
}


def moodle_formula(formula: str, params: frozenset[str] | set[str] | tuple[str, ...]) -> str:
    """A konum formula in the syntax of Moodle's calculated questions.

    Parameters become wildcards (``m`` is ``{m}``); every operation is bracketed, so
    Moodle's PHP evaluation cannot bind it otherwise; ``**`` is ``pow()``, ``//`` is
    ``floor(a / b)`` and ``%`` is ``a - b * floor(a / b)`` (Python's remainder, which
    takes the sign of ``b``; PHP's ``%`` truncates to integers); ``pi`` is ``pi()``, ``e``
    is ``exp(1)``, ``log2(x)`` is ``log(x, 2)`` and ``hypot(a, b)`` is
    ``sqrt(pow(a, 2) + pow(b, 2))``; the other functions keep their names or take PHP's
    (``arcsin`` is ``asin``, ``radians`` is ``deg2rad``, ...). PHP's ``round`` rounds
    halves away from zero, as konum's does.

    Raises:
        konum.computed.FormulaError: ``formula`` is not a valid konum formula.
    """
    parse(formula, params)  # konum's own checks first: only allowed nodes below
    tree = ast.parse(formula.strip(), mode="eval").body
    return _moodle(tree)


def _moodle(node: ast.AST) -> str:
    if isinstance(node, ast.Constant):
        value: float = node.value  # type: ignore[assignment]  # parse() let only numbers in
        return plain_number(value)
    if isinstance(node, ast.Name):
        constants = {"pi": "pi()", "e": "exp(1)"}
        return constants.get(node.id, f"{{{node.id}}}")
    if isinstance(node, ast.UnaryOp):
        operand = _moodle(node.operand)
        return f"(-{operand})" if isinstance(node.op, ast.USub) else operand
    if isinstance(node, ast.BinOp):
        a, b = _moodle(node.left), _moodle(node.right)
        if isinstance(node.op, ast.Pow):
            return f"pow({a}, {b})"
        if isinstance(node.op, ast.FloorDiv):
            return f"floor({a} / {b})"
        if isinstance(node.op, ast.Mod):
            return f"({a} - {b} * floor({a} / {b}))"
        symbol = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/"}[type(node.op)]
        return f"({a} {symbol} {b})"
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        args = [_moodle(arg) for arg in node.args]
        name = node.func.id
        if name == "log2":
            return f"log({args[0]}, 2)"
        if name == "hypot":
            return f"sqrt(pow({args[0]}, 2) + pow({args[1]}, 2))"
        return f"{_FUNCTIONS[name]}({', '.join(args)})"
    raise AssertionError(f"unexpected node {type(node).__name__}")  # parse() refused it


def _decimals_of(value: float) -> int:
    exponent = Decimal(repr(float(value))).normalize().as_tuple().exponent
    return max(0, -int(exponent))


def _dataset_range(name: str, constraint: model.ParamConstraint) -> tuple[float, float, int]:
    """Minimum, maximum and decimals of a parameter, for Moodle's dataset definition."""
    if isinstance(constraint, model.Choices):
        values = [float(str(v)) for v in constraint.values]  # check_params(): numbers
        return min(values), max(values), max(_decimals_of(v) for v in values)
    spec = spec_for(name, constraint)
    points = lattice(spec, constraint)
    last = points.value(points.count - 1)
    places = 0 if spec.kind == "int" else max(_decimals_of(points.start), _decimals_of(points.step))
    return points.start, last, places


def _dataset_value(value: object) -> str:
    """A drawn value as the prompt shows it (``{{ m }}`` prints ``str()``)."""
    return str(value)


def wildcard_prompt(q: model.ComputedQuestion, concrete: model.Concrete) -> str | None:
    """The prompt as HTML with ``{name}`` wildcards, or None when Moodle's substitution
    would not give konum's prompt for every variant."""
    names = list(q.params)
    first = dict(concrete.variants[0].values)
    tokens = {name: _TOKEN.format(i) for i, name in enumerate(names)}
    env = Sandbox()
    env.globals["fmt"] = fmt
    try:
        source = env.from_string(q.prompt).render({**first, **tokens})
    except SandboxError:
        return None
    text = _literal(_html(source))
    for name, token in tokens.items():
        text = text.replace(token, f"{{{name}}}")
    for variant in concrete.variants:
        shown = text
        for name in names:
            shown = shown.replace(f"{{{name}}}", _dataset_value(variant.values[name]))
        shown = shown.replace("&#123;", "{").replace("&#125;", "}")
        if shown != _html(variant.prompt):
            return None
    return text


def _multi_ready(q: model.ComputedQuestion, concrete: model.Concrete) -> bool:
    """Every variant shows the answer and one option per misconception, nothing else."""
    wanted = {m.formula for m in q.misconceptions}
    for variant in concrete.variants:
        shown = [o.misconception for o in variant.options if not o.correct]
        if len(shown) != len(wanted) or set(shown) != wanted:
            return False
    return True


def _calculated(
    doc: _Document, q: model.ComputedQuestion, concrete: model.Concrete, text: str
) -> None:
    assert q.formula is not None
    names = tuple(q.params)
    variants = concrete.variants
    multi = q.answer == "choice"
    decimals = variants[0].decimals
    tolerance = max(v.tolerance for v in variants)
    element = doc.question(
        "calculatedmulti" if multi else "calculated",
        q,
        name=q.id,
        idnumber=f"konum:{q.id}",
        text=text,
        feedback=_literal(_explanation(q)),
        figure=_figure(q.figure),
        literal=True,
    )
    _value(element, "synchronize", 0)
    _value(element, "single", 1 if multi else 0)
    _value(element, "answernumbering", "abc")
    _value(element, "shuffleanswers", 1 if multi else 0)
    _combined_feedback(element)
    formula = moodle_formula(q.formula, names)
    answers: list[tuple[float, str, str]] = []
    if multi:
        answers.append((1.0, f"{{={formula}}}", ""))
        answers += [
            (0.0, f"{{={moodle_formula(m.formula, names)}}}", _literal(_html(m.feedback)))
            for m in q.misconceptions
        ]
    else:
        answers.append((1.0, formula, ""))
    for fraction, answer_text, feedback in answers:
        answer = ET.SubElement(element, "answer", {"fraction": _percent(fraction)})
        ET.SubElement(answer, "text").text = answer_text
        _value(answer, "tolerance", plain_number(tolerance))
        _value(answer, "tolerancetype", NOMINAL)
        _value(answer, "correctanswerformat", DECIMALS_FORMAT)
        _value(answer, "correctanswerlength", decimals)
        _text(answer, "feedback", feedback)
    _units(element, variants[0].unit)
    definitions = ET.SubElement(element, "dataset_definitions")
    for name in names:
        low, high, places = _dataset_range(name, q.params[name])
        definition = ET.SubElement(definitions, "dataset_definition")
        ET.SubElement(ET.SubElement(definition, "status"), "text").text = "private"
        ET.SubElement(ET.SubElement(definition, "name"), "text").text = name
        _value(definition, "type", "calculated")
        ET.SubElement(ET.SubElement(definition, "distribution"), "text").text = "uniform"
        ET.SubElement(ET.SubElement(definition, "minimum"), "text").text = plain_number(low)
        ET.SubElement(ET.SubElement(definition, "maximum"), "text").text = plain_number(high)
        ET.SubElement(ET.SubElement(definition, "decimals"), "text").text = str(places)
        _value(definition, "itemcount", len(variants))
        items = ET.SubElement(definition, "dataset_items")
        for variant in variants:
            item = ET.SubElement(items, "dataset_item")
            _value(item, "number", variant.index + 1)
            _value(item, "value", _dataset_value(variant.values[name]))
        _value(definition, "number_of_items", len(variants))


def calculated_form(q: model.ComputedQuestion, concrete: model.Concrete) -> str | None:
    """The prompt with wildcards when ``q`` is written as a calculated question (a formula
    question whose prompt and options Moodle can reproduce), else None."""
    if q.formula is None or not concrete.variants:
        return None
    if q.answer == "choice" and not _multi_ready(q, concrete):
        return None
    return wildcard_prompt(q, concrete)


# --- the export -----------------------------------------------------------------------------------


def _problem(q: model.Question) -> str | None:
    if isinstance(q, model.ChoiceQuestion):
        return _choice_problem(q)
    if isinstance(q, model.FillQuestion):
        return _fill_problem(q)
    if isinstance(q, model.MatchingQuestion):
        return _matching_problem(q)
    if isinstance(q, model.OutputQuestion):
        return OUTPUT_PROBLEM
    if isinstance(q, model.OrderingQuestion):
        return (
            "an ordering question: Moodle's ordering type is not in every Moodle, and konum "
            "writes only the types every Moodle reads"
        )
    return None


def build_moodle(
    banks: Sequence[model.Bank], concretes: Mapping[str, model.Concrete], *, deck: str = "konum"
) -> LmsExport:
    """The Moodle XML of ``banks``, with the numbers of ``concretes`` (by question id).

    Args:
        banks: the course's banks, in order; each becomes a category under ``deck``.
        concretes: every question with the seed applied (computed ones with their variants).
        deck: the name of the parent category (the site's deck name).

    Returns:
        The XML and what it holds; questions Moodle cannot hold are listed, not written.

    Raises:
        KeyError: a question has no entry in ``concretes``.
    """
    doc = _Document()
    exported: list[str] = []
    skipped: list[Skipped] = []
    for bank in banks:
        doc.category(
            category_path(deck, bank.title),
            f"konum:{bank.id}",
            f"<p>{html.escape(bank.title)}: the questions of konum's bank "
            f"{html.escape(bank.id)}.</p>",
        )
        later: list[tuple[model.ComputedQuestion, model.Concrete]] = []
        for q in bank.questions:
            problem = _problem(q)
            if problem is not None:
                skipped.append(Skipped(q.id, bank.id, problem))
                continue
            concrete = concretes[q.id]
            exported.append(q.id)
            if isinstance(q, model.ChoiceQuestion):
                _choice(doc, q, concrete)
            elif isinstance(q, model.FillQuestion):
                _fill(doc, q)
            elif isinstance(q, model.MatchingQuestion):
                _matching(doc, q)
            elif isinstance(q, model.NumericQuestion):
                _numeric(doc, q)
            else:
                assert isinstance(q, model.ComputedQuestion)  # _problem() refuses the rest
                text = calculated_form(q, concrete)
                if text is not None:
                    _calculated(doc, q, concrete, text)
                else:
                    later.append((q, concrete))
        for q, concrete in later:  # their own categories come after the bank's questions
            _per_variant(doc, bank, q, concrete, deck)
    return LmsExport(doc.serialise(), tuple(exported), doc.items, doc.categories, tuple(skipped))


def write_moodle(
    banks: Sequence[model.Bank],
    concretes: Mapping[str, model.Concrete],
    path: str | Path,
    *,
    deck: str = "konum",
) -> LmsExport:
    """Build the Moodle XML (:func:`build_moodle`) and write it to ``path`` atomically.

    Raises:
        konum.errors.ExportError: the file cannot be written.
    """
    export = build_moodle(banks, concretes, deck=deck)
    write_atomically(path, export.text)
    return export


__all__ = [
    "absolute_tolerance",
    "build_moodle",
    "calculated_form",
    "moodle_formula",
    "wildcard_prompt",
    "write_moodle",
]
