"""What the LMS formats (Moodle XML, GIFT, QTI) and their question types share: the document,
its elements, the escapes, the numbers (QTI's own elements are :mod:`konum.qti_items`).

The question types (:mod:`konum.types`) write their part through :class:`MoodleDocument`,
:class:`GiftWriter` and :class:`konum.qti_items.QtiDocument`; :mod:`konum.exports.moodle`,
:mod:`konum.exports.gift` and :mod:`konum.exports.qti` put the files together. Moodle XML
is written as Moodle's importer reads it (``question/format/xml/format.php``, qformat_xml, at
commit 00055ef6abc837f53259217d5de9dd45641fb74f of github.com/moodle/moodle); GIFT as its
GIFT importer does (``question/format/gift/format.php``, at
00e93a993910e03083056a11bec1b68f95e34436); QTI 1.2 items as Canvas's importer reads them
(what text2qti writes), see :mod:`konum.exports.qti`.

Text is HTML with math as ``\\( \\)`` / ``\\[ \\]`` for Moodle's MathJax filter. In Moodle
XML a question's figure is embedded as an SVG ``file`` element (base64) shown after the
prompt, and a bank's own images as a ``file`` element beside the ``text`` that shows them,
where Moodle's importer looks for that text's files (``import_text_with_files``), named
``@@PLUGINFILE@@/<flat name>`` in its HTML. GIFT's special characters ``~ = # { } :`` and the
backslash are escaped with a backslash, line breaks as ``\\n``.

* :class:`Skipped`: a question an export cannot hold, with the reason; exports list them and
  never write such a question in a form that would grade differently from konum.
* :class:`LmsExport`: the text of an export, what it holds and what it left out (written
  with :func:`konum.files.write_atomically`).
"""

from __future__ import annotations

import ast
import base64
import html
import re
import unicodedata
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any, Protocol, TypedDict, TypeVar

from konum import images
from konum.computed.expression import parse
from konum.figures import figure_file
from konum.files import write_atomically
from konum.images import Images
from konum.markup import render_markdown
from konum.model import FigureRef
from konum.plugins import NONE, Plugins

#: Why an output question is left out of the LMS exports.
OUTPUT_PROBLEM = (
    "it checks what the reader's program prints, which no Moodle question type grades (it "
    "stays in the site, the flashcards and the printed exams)"
)
#: File names of the LMS exports for a deck called "konum", in ``exports/`` beside
#: ``mkdocs.yml`` (:func:`konum.exports.file_names` names them after the site).
LMS_NAMES: dict[str, str] = {
    "moodle": "konum-moodle.xml",
    "gift": "konum-gift.txt",
    "qti": "konum-qti.zip",
}
#: Moodle's grades for an answer (``question_bank::fraction_options_full``): a right option
#: of a multiple-answer question is worth ``1/k`` of the mark, which is in the list for
#: ``k`` up to 10.
MAX_SHARES = 10
#: Tolerance types of Moodle's numerical answers: 2 is "nominal", an absolute tolerance.
NOMINAL = "2"
#: ``correctanswerformat`` 1: the answer is shown with ``correctanswerlength`` decimals.
DECIMALS_FORMAT = "1"
#: Moodle's GIFT importer reads a weight as ``%`` and at most two digits before the point.
_FULL_PENALTY = "-99.99999"
_CLOZE_SPECIAL = {ord(char): f"&#{ord(char)};" for char in "{}~#"}


@dataclass(frozen=True)
class Skipped:
    """A question left out of an export: its id, its bank and why."""

    question_id: str
    bank: str
    reason: str

    def __str__(self) -> str:
        return f"{self.question_id} (bank {self.bank}): {self.reason}"


@dataclass(frozen=True)
class LmsExport:
    """An export's text and what went into it.

    Attributes:
        text: the file's content (a QTI package's bytes).
        exported: ids of the konum questions written, in order.
        items: how many LMS questions were written (a computed question exported one
            question per variant counts once per variant).
        categories: how many categories (QTI: quizzes, one per bank) were written.
        skipped: the questions left out, with the reason.
    """

    text: str | bytes
    exported: tuple[str, ...]
    items: int
    categories: int
    skipped: tuple[Skipped, ...]


class ExportOptions(TypedDict, total=False):
    """The keyword options of the Moodle XML and QTI exports (:class:`ExportSettings` gives
    their defaults): ``deck``, the course's name (Moodle's parent category, each QTI quiz's
    description); ``plugins``, what draws the questions' figures; ``images``, the checked
    images the texts show (carried as files); ``language``, that of the words konum adds (a
    category's description, a worked solution's heading) and of the figures."""

    deck: str
    plugins: Plugins
    images: Images | None
    language: str


@dataclass(frozen=True)
class ExportSettings:
    """:class:`ExportOptions` with what is not given at its default."""

    deck: str = "konum"
    plugins: Plugins = NONE
    images: Images | None = None
    language: str = "en"


class _Identified(Protocol):
    @property
    def id(self) -> str: ...


_Q = TypeVar("_Q", bound=_Identified)


def writable(
    bank: str,
    questions: Iterable[_Q],
    problem_of: Callable[[_Q], str | None],
    exported: list[str],
    skipped: list[Skipped],
) -> Iterator[_Q]:
    """The questions of bank ``bank`` a format can hold, in order, each added to ``exported``
    as it is yielded; one ``problem_of`` gives a reason for goes to ``skipped`` instead.
    Every exporter's loop over a bank."""
    for q in questions:
        problem = problem_of(q)
        if problem is not None:
            skipped.append(Skipped(q.id, bank, problem))
            continue
        exported.append(q.id)
        yield q


def write_export(
    build: Callable[..., LmsExport],
    banks: Sequence[Any],
    concretes: Mapping[str, Any],
    path: str | Path,
    **options: Any,
) -> LmsExport:
    """``build(banks, concretes, **options)`` written to ``path`` atomically: what each
    format's ``write_*`` is, with its own ``build_*``.

    Raises:
        konum.errors.ExportError: the file cannot be written.
    """
    export = build(banks, concretes, **options)
    write_atomically(path, export.text)
    return export


def plain_number(value: float) -> str:
    """``value`` in positional notation, shortest form that reads back as the same float:
    ``0.00006`` rather than ``6e-05`` (the GIFT grammar has no exponents), ``12`` for 12.0."""
    text = format(Decimal(repr(float(value))), "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def one_line(name: str, empty: str = "-") -> str:
    """``name`` (a bank title, a deck) as one line of printable text: every run of
    whitespace, line or paragraph separators and control characters one space (``empty``
    when nothing is left), in Unicode's composed form (NFC). A name ends at its line in
    GIFT's ``$CATEGORY`` line, Anki's text columns and deck list; Anki keeps deck names
    composed, so a decomposed one would be a new deck at every import."""
    text = unicodedata.normalize("NFC", name)
    return " ".join("".join(c if c.isprintable() else " " for c in text).split()) or empty


#: What XML 1.0 cannot hold, even as a character reference.
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_text(text: str) -> str:
    """``text`` with each character XML 1.0 cannot hold (a NUL, ESC or other C0 control, a
    lone surrogate, U+FFFE) as U+FFFD, so that the document parses."""
    return _NOT_XML.sub("\ufffd", text)


def category_path(*names: str) -> str:
    """A Moodle category path below the course's top category: ``$course$/top/A/B``, each
    name on one line (:func:`one_line`).

    Moodle splits paths at ``/``; a ``/`` inside a name is written ``//``.
    """
    return "/".join(["$course$", "top", *(one_line(name).replace("/", "//") for name in names)])


def skipped_report(kind: str, skipped: Sequence[Skipped]) -> str:
    """The lines a command prints on stderr for the questions left out."""
    head = f"konum: {len(skipped)} question{'s' if len(skipped) != 1 else ''} left out"
    lines = [f"{head} of the {kind} export (not expressible there):"]
    lines += [f"  {item}" for item in skipped]
    return "\n".join(lines)


def lms_html(text: str, *, inline: bool = False) -> str:
    """Bank Markdown as an LMS shows it: math for MathJax, images as references (each
    format carries or refuses them)."""
    return render_markdown(text, inline=inline, math="anki").strip()


def literal(html_text: str) -> str:
    """HTML in which Moodle's calculated questions see no wildcard or ``{=...}`` formula."""
    return html_text.replace("{", "&#123;").replace("}", "&#125;")


def percent(fraction: float) -> str:
    """A fraction as Moodle's ``fraction`` attribute: a percentage, 7 significant digits."""
    return plain_number(float(f"{fraction * 100:.7g}"))


def shortanswer_text(answer: str) -> str:
    """A short answer as Moodle matches it: ``*`` is a wildcard there, ``\\*`` a star."""
    return answer.replace("*", "\\*")


def cloze_answer(answer: str) -> str:
    """An answer inside a cloze marker: HTML-escaped (Moodle decodes entities), and the
    characters that end an alternative (``~ # }``) and ``{`` as character references."""
    return html.escape(shortanswer_text(answer), quote=False).translate(_CLOZE_SPECIAL)


# --- Moodle XML ---------------------------------------------------------------------------------


def text_element(parent: ET.Element, tag: str, text: str, fmt: str | None = "html") -> ET.Element:
    """``<tag format="fmt"><text>text</text></tag>`` inside ``parent``."""
    element = ET.SubElement(parent, tag, {"format": fmt} if fmt else {})
    ET.SubElement(element, "text").text = text
    return element


def value(parent: ET.Element, tag: str, content: object) -> ET.Element:
    """``<tag>content</tag>`` inside ``parent``."""
    element = ET.SubElement(parent, tag)
    element.text = str(content)
    return element


def file_element(parent: ET.Element, name: str, data: bytes) -> None:
    file = ET.SubElement(parent, "file", {"name": name, "path": "/", "encoding": "base64"})
    file.text = base64.b64encode(data).decode("ascii")


def answer(
    parent: ET.Element, fraction: float, text: str, feedback: str = "", fmt: str = "html"
) -> ET.Element:
    """One ``<answer>`` worth ``fraction`` of the mark, with its feedback."""
    element = ET.SubElement(parent, "answer", {"fraction": percent(fraction), "format": fmt})
    ET.SubElement(element, "text").text = text
    text_element(element, "feedback", feedback)
    return element


def combined_feedback(element: ET.Element) -> None:
    for tag in ("correctfeedback", "partiallycorrectfeedback", "incorrectfeedback"):
        text_element(element, tag, "")


def multichoice(element: ET.Element, *, single: bool, shuffle: bool) -> None:
    """The settings of a ``multichoice`` question."""
    value(element, "single", "true" if single else "false")
    value(element, "shuffleanswers", "true" if shuffle else "false")
    value(element, "answernumbering", "abc")
    value(element, "showstandardinstruction", 0)
    combined_feedback(element)


def units(element: ET.Element, unit: str | None) -> None:
    """The unit, optional for the student (``unitgradingtype`` 0): "37.5" and "37.5 J"
    are both right; without a unit Moodle shows no unit field (``showunits`` 3)."""
    if unit:
        entry = ET.SubElement(ET.SubElement(element, "units"), "unit")
        value(entry, "multiplier", 1)
        value(entry, "unit_name", unit)
    value(element, "unitgradingtype", 0)
    value(element, "unitpenalty", "0.1000000")
    value(element, "showunits", 0 if unit else 3)
    value(element, "unitsleft", 0)


def numerical_answer(element: ET.Element, answer_value: float, tolerance: float) -> None:
    """The one right answer of a ``numerical`` question, with its absolute tolerance."""
    right = answer(element, 1.0, plain_number(answer_value), fmt="moodle_auto_format")
    value(right, "tolerance", plain_number(tolerance))


@dataclass
class MoodleDocument:
    """A Moodle XML document being written: its categories and questions, and what a question
    type writes them with (its figures drawn by ``plugins``, its images from ``store``)."""

    plugins: Plugins
    store: images.Images
    deck: str = "konum"
    #: The language of konum's own words (a worked solution's heading) and of the figures.
    language: str = "en"
    root: ET.Element = field(default_factory=lambda: ET.Element("quiz"))
    items: int = 0
    categories: int = 0
    #: The bank being written: its id and title, and what goes after its questions.
    bank_id: str = ""
    bank_title: str = ""
    later: list[Callable[[], None]] = field(default_factory=list)

    html = staticmethod(lms_html)

    def category(self, path: str, idnumber: str, info: str) -> None:
        question = ET.SubElement(self.root, "question", {"type": "category"})
        ET.SubElement(ET.SubElement(question, "category"), "text").text = path
        text_element(question, "info", info)
        value(question, "idnumber", idnumber)
        self.categories += 1

    def explanation(self, q: Any) -> str:
        return lms_html(q.explanation) if q.explanation.strip() else ""

    def question(
        self,
        kind: str,
        q: Any,
        *,
        text: str,
        feedback: str | None = None,
        name: str | None = None,
        idnumber: str | None = None,
        figure: FigureRef | None = None,
        literal_text: bool = False,
    ) -> ET.Element:
        """The elements every question has (``import_headers``), in the exporter's order:
        named by the question's id (``name``/``idnumber`` for one of several variants), its
        figure (the question's unless given), its general feedback (the explanation unless
        given)."""
        element = ET.SubElement(self.root, "question", {"type": kind})
        ET.SubElement(ET.SubElement(element, "name"), "text").text = name or q.id
        ref = figure if figure is not None else q.figure
        drawn = None
        if ref is not None:
            drawing = self.plugins.figure(ref.name)
            drawn = figure_file(drawing, ref.alt, ref.caption, language=self.language, **ref.params)
            alt = html.escape(ref.alt, quote=True)
            text += f'<p><img src="@@PLUGINFILE@@/{html.escape(drawn[0])}" alt="{alt}"></p>'
        questiontext = text_element(element, "questiontext", text)
        if drawn is not None:
            file_element(questiontext, *drawn)
        text_element(
            element, "generalfeedback", self.explanation(q) if feedback is None else feedback
        )
        if kind != "cloze":  # a cloze question's grade is the sum of its gaps' weights
            value(element, "defaultgrade", f"{q.points:.7f}")
        value(element, "penalty", "0.3333333")
        value(element, "hidden", 0)
        value(element, "idnumber", idnumber or f"konum:{q.id}")
        if q.hint:
            hint = lms_html(q.hint)
            text_element(element, "hint", literal(hint) if literal_text else hint)
        container = ET.SubElement(element, "tags")
        for tag in dict.fromkeys([q.bank, *q.tags]):
            ET.SubElement(ET.SubElement(container, "tag"), "text").text = tag
        self.items += 1
        return element

    def serialise(self) -> str:
        self._carry_images()
        ET.indent(self.root, space="  ")
        body = ET.tostring(self.root, encoding="unicode", short_empty_elements=False)
        return '<?xml version="1.0" encoding="UTF-8"?>\n' + xml_text(body) + "\n"

    def _carry_images(self) -> None:
        """Each bank image a text shows: ``@@PLUGINFILE@@/<name>`` in its HTML, and the file
        once beside that ``text`` element."""
        for parent in list(self.root.iter()):
            text = parent.find("text")
            if text is None or not text.text or images.PREFIX not in text.text:
                continue
            found: dict[str, images.Image] = {}

            def write(image: images.Image, attributes: dict[str, str]) -> str:
                found.setdefault(image.name, image)  # noqa: B023 - called before the loop goes on
                return images.img_tag(f"@@PLUGINFILE@@/{image.name}", attributes)

            text.text = images.substitute(text.text, self.store, write)
            present = {file.get("name") for file in parent.findall("file")}
            for image in found.values():
                if image.name not in present:
                    file_element(parent, image.name, image.data)


_FUNCTIONS = {
    "sqrt": "sqrt", "exp": "exp", "log": "log", "log10": "log10", "sin": "sin", "cos": "cos",
    "tan": "tan", "arcsin": "asin", "arccos": "acos", "arctan": "atan", "arctan2": "atan2",
    "sinh": "sinh", "cosh": "cosh", "tanh": "tanh", "radians": "deg2rad",
    "degrees": "rad2deg", "abs": "abs", "floor": "floor", "ceil": "ceil", "round": "round",
    "min": "min", "max": "max",
}  # fmt: skip


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
    return _moodle(ast.parse(formula.strip(), mode="eval").body)


def _moodle(node: ast.AST) -> str:
    if isinstance(node, ast.Constant):
        number: float = node.value  # type: ignore[assignment]  # parse() let only numbers in
        return plain_number(number)
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


# --- GIFT ---------------------------------------------------------------------------------------


def escape(text: str) -> str:
    """``text`` with GIFT's special characters escaped (Moodle's ``repchar``), and NUL, which
    GIFT's readers stop at, shown as U+FFFD (as HTML parsers show it)."""
    text = text.replace("\x00", "\ufffd").replace("\\", "\\\\")
    for char in "~=#{}:":
        text = text.replace(char, "\\" + char)
    return text.replace("\r", "").replace("\n", "\\n")


@dataclass
class GiftWriter:
    """A GIFT file being written: its blocks (questions and ``$CATEGORY`` lines), what a
    question type writes them with, the bank being written and what goes after its
    questions."""

    deck: str = "konum"
    #: The language of konum's own words (a worked solution's heading, math said in words).
    language: str = "en"
    blocks: list[str] = field(default_factory=list)
    items: int = 0
    categories: int = 0
    bank_title: str = ""
    later: list[Callable[[], None]] = field(default_factory=list)

    html = staticmethod(lms_html)
    escape = staticmethod(escape)

    def category(self, *names: str) -> None:
        """A ``$CATEGORY`` line below the course's top category."""
        self.blocks.append(f"$CATEGORY: {category_path(*names)}")
        self.categories += 1

    def add(self, block: str) -> None:
        """One question."""
        self.blocks.append(block)
        self.items += 1

    @staticmethod
    def part(html_text: str) -> str:
        """An answer, feedback or matching item, escaped; a leading ``[`` as ``&#91;``,
        since Moodle reads ``[plain]`` (or any ``[format]``) at the start of a part as its
        format."""
        if html_text.startswith("["):
            html_text = "&#91;" + html_text[1:]
        return escape(html_text)

    @staticmethod
    def weight(fraction: float) -> str:
        """A weight in percent (-100 % as -99.99999 %, which Moodle's grade matching takes
        as -100 %)."""
        percentage = float(f"{fraction * 100:.7g}")
        if percentage <= -100:
            return _FULL_PENALTY
        return plain_number(round(percentage, 5))

    def feedback(self, text: str | None) -> str:
        return f"#{self.part(lms_html(text))}" if text else ""

    def general(self, q: Any, extra: str = "") -> str:
        """The general feedback: ``extra`` HTML, then the explanation."""
        shown = extra + (lms_html(q.explanation) if q.explanation.strip() else "")
        return f"\n####{self.part(shown)}" if shown else ""

    @staticmethod
    def head(name: str, text_html: str) -> str:
        return f"::{escape(name)}::[html]{escape(text_html)}"

    @staticmethod
    def shortanswer(answer_text: str) -> str:
        return escape(answer_text.replace("*", "\\*"))  # * is Moodle's wildcard, \* a star
