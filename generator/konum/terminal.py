"""The quiz in the terminal (``konum quiz``): a bank of the site's, or the quizzes of a page.

Both go through a quiz page's markup. A bank is rendered in-process as its quiz block
renders it (:func:`bank_quiz`, through :func:`konum.render.render_quiz`; no site build); a
built page is read from its file or URL within limits (:func:`konum.webpage.read_page`).
Each question is then read as quiz.js reads it, and checked before use
(:func:`konum.pagequiz.read_quizzes`): the checker's JSON, the ``later`` map (what it
reveals) unsealed under the quiz's key, the form's controls; its prompt and form are shown
as text (control characters from the page shown as ``\\x1b``, never sent to the terminal),
one answer is read a line, and the type's grader judges it
(:meth:`konum.types.Question.grade`, quiz.js's in Python, given :data:`GRADE_SECONDS`), so
a bank and a page grade alike. The scoring is :mod:`konum.scoring`'s, the page's rules in
Python (the authoring page's, run by both on the same cases): a wrong try reveals
nothing, a right answer after "show" earns nothing, hints cost their share of the points
once credit is earned after them, the best credit is kept, the last of limited attempts
shows the answer, "new" moves a computed question to its next variant and keeps what it
earned. The words are the catalogue's (:mod:`konum.messages`) in the page's language.

Answers, one a line: an option by number or letter (``2``, ``b``), several as ``1 3``;
matches as ``1=b 2=a``; an order as ``3 1 2``; each blank on a line of its own; a program's
output up to an empty line. Commands: ``hint``, ``show``, ``new``, ``skip``, ``quit`` (or
their words in the page's language). rich writes the text: styled on a terminal, plain and
unwrapped when the output is a file or a pipe, so the quiz runs from stdin as well.
"""

from __future__ import annotations

import random
import re
import sys
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from konum import scoring
from konum.course import Course
from konum.errors import KonumError
from konum.formatting import did_you_mean, format_number
from konum.limits import TimeLimitError, time_limit
from konum.messages import LANGUAGES, message
from konum.pagequiz import DIGITS, PageQuiz, controls_of, read_quizzes, whole
from konum.problems import printable
from konum.render import render_quiz
from konum.spoken import html_text
from konum.types import TYPES, Check, Question
from konum.webpage import Node, html_of, parse

#: Seconds a grader may take over one answer (a fill blank's pattern can backtrack without
#: end on some answers).
GRADE_SECONDS = 2.0
_BLOCKS = frozenset(
    """blockquote dd details div dl dt fieldset figcaption figure h1 h2 h3 h4 h5 h6 hr legend
    li ol p pre section summary table tr ul""".split()  # noqa: SIM905
)
_SKIPPED = frozenset("button head option script style template title".split())  # noqa: SIM905
_STYLES = {"strong": "bold", "b": "bold", "em": "italic", "i": "italic", "code": "cyan"}
_STYLES.update({"kbd": "cyan", "pre": "cyan", "a": "underline", "h1": "bold", "h2": "bold"})
_COMMANDS = ("hint", "show", "new", "skip", "quit")


class _Writer:
    """Styled text with its line breaks: a block starts a line, spaces collapse outside
    ``<pre>``; text boxes are ``____`` (numbered ``[1]____`` when there are several), the
    options' controls their numbers in order, ``(1)`` for one to choose, ``[1]`` for several."""

    def __init__(self, boxes: int = 0) -> None:
        self.out, self.last, self.boxes, self.box, self.rows, self.ticks = (
            Text(),
            "\n",
            boxes,
            0,
            0,
            0,
        )

    def line(self) -> None:
        if self.last == " ":
            self.out.right_crop(1)
        if self.last != "\n":
            self.out.append("\n")
        self.last = "\n"

    def put(self, text: str, style: str = "", pre: bool = False) -> None:
        if not pre:
            text = re.sub(r"\s+", " ", text)
            text = text.lstrip(" ") if self.last in " \n" else text
        text = _safe(text)
        if text:
            self.out.append(text, style)
            self.last = text[-1]


def _label(node: Node) -> str:
    title = node.find(lambda n: n.tag == "title")
    return node.attrs.get("aria-label") or node.attrs.get("alt") or (title and title.text()) or ""


def _bullet(li: Node) -> str:
    """An item's mark: its number in an ``<ol>``, a bullet in a ``<ul>``; none where the
    item carries its own (an option's control, a letter)."""
    first = next((c for c in li.children if isinstance(c, Node)), None)
    if first is not None and (first.tag == "input" or "konum-letter" in first.classes()):
        return ""
    parent = li.parent
    if parent is None or parent.tag != "ol":
        return "• "
    items = [c for c in parent.children if isinstance(c, Node) and c.tag == "li"]
    return f"{(whole(parent.attrs.get('start') or '1') or 1) + items.index(li)}. "


def _walk(node: Node, w: _Writer, style: str = "", pre: bool = False) -> None:
    for child in node.children:
        if isinstance(child, str):
            w.put(child, style, pre)
            continue
        tag, classes = child.tag, child.classes()
        if tag in _SKIPPED or "hidden" in child.attrs or tag == "textarea":
            continue
        if tag == "math":
            w.put(html_text(html_of(child)), f"{style} italic")
        elif tag in ("svg", "img"):
            w.put(f"[{_label(child)}]", "dim")
        elif tag == "br":
            w.put("\n", pre=True)
        elif tag == "input" and child.attrs.get("type") in ("radio", "checkbox"):
            w.ticks += 1
            w.put(f"({w.ticks}) " if child.attrs["type"] == "radio" else f"[{w.ticks}] ", "bold")
        elif tag == "input":
            w.box += 1
            w.put(f"[{w.box}]____" if w.boxes > 1 else "____", "bold", pre=True)
        elif tag == "select":
            w.put(" → ?", "bold")
        else:
            block = tag in _BLOCKS
            if block:
                w.line()
            if tag == "li":
                w.put(_bullet(child), "bold")
            if any(isinstance(c, Node) and c.tag == "select" for c in child.children):
                w.rows += 1
                w.put(f"{w.rows}. ", "bold")
            inner = " ".join(filter(None, (style, _STYLES.get(tag, ""))))
            _walk(child, w, "bold" if "konum-number" in classes else inner, pre or tag == "pre")
            if "konum-letter" in classes:
                w.put(")", "bold")
            if block or "konum-number" in classes:
                w.line()


def text_of(node: Node) -> Text:
    """A piece of a page as the terminal shows it (math as it is said, figures by their
    text, controls as marks)."""
    w = _Writer(sum(1 for n in node.elements() if n.tag == "input" and _boxed(n)))
    _walk(node, w)
    w.out.rstrip()
    return w.out


def _boxed(node: Node) -> bool:
    return node.attrs.get("type", "text") == "text"


@dataclass
class _Question(scoring.Progress):
    """A question of a page and what the reader did with it (quiz.js's ``api``), scored by
    :mod:`konum.scoring`."""

    node: Node
    qid: str
    data: dict[str, Any]
    later: dict[str, str]
    limit: int
    told: set[str] = field(default_factory=set)

    @property
    def points(self) -> float:
        return float(self.data.get("worth") or 1)

    @property
    def costs(self) -> list[float]:
        return list(self.data.get("hint_shares") or [])

    @property
    def count(self) -> int:
        return len(self.data.get("variants") or [0])

    def suffix(self, key: str) -> str:
        """``key`` of the variant shown (``answer-2``) or of a one-form question."""
        return f"{key}-{self.variant}" if "variants" in self.data else key

    @property
    def limits(self) -> scoring.Limits:
        return scoring.Limits(self.points, tuple(self.costs), self.limit, self.count)

    def locked(self) -> bool:
        return scoring.locked(self, self.limits)

    def score(self) -> float:
        return scoring.credit(self, self.limits)

    def form(self) -> Node:
        """The form of the variant shown: the page's first, one the page carries in full,
        or a copy of the first with the variant's prompt and option texts (as quiz.js)."""
        first = self.node.find(lambda n: n.attrs.get("data-variant") == "0")
        k = self.variant
        if first is None or k == 0:
            return first or self.node
        if f"variant-{k}" in self.later:
            return parse(self.later[f"variant-{k}"])
        form = parse(html_of(first))
        prompt = form.find(lambda n: "konum-prompt" in n.classes())
        if prompt is not None:
            prompt.children = parse(self.later.get(f"prompt-{k}", "")).children
        labels = [
            n for n in form.elements() if n.tag == "label" and n.parent and n.parent.tag == "li"
        ]
        for i, label in enumerate(labels):
            label.children = parse(self.later.get(f"option-{k}-{i}", "")).children
        return form


class _Unclear(Exception):
    """An answer line that says no answer (its message, in the page's language)."""


class Runner:
    """Takes the quizzes of one page in the terminal: ``ask`` reads a line (None at the
    end of the input), ``console`` writes, ``language`` is the page's, ``types`` grade its
    questions (:func:`konum.types.site_types`; default the built-in ones)."""

    def __init__(
        self,
        console: Console,
        language: str,
        ask: Callable[[str], str | None],
        seed: int | None,
        types: Mapping[str, type[Question]] = TYPES,
    ) -> None:
        self.console, self.language, self.ask, self.types = console, language, ask, types
        self.rng = random.Random(seed)
        words = {name: name for name in _COMMANDS}
        words.update({self.say(f"terminal.{name}").casefold(): name for name in _COMMANDS})
        self.commands = words

    def say(self, key: str, **fields: object) -> str:
        """Catalogue text ``key`` with numbers written as quiz.js's ``fmt`` writes them."""

        def shown(value: object) -> object:
            if not isinstance(value, (int, float)) or isinstance(value, bool):
                return value
            rounded = round(float(value), 2)
            return (
                int(rounded)
                if rounded.is_integer()
                else format_number(rounded, language=self.language)
            )

        return message(self.language, key, **{k: shown(v) for k, v in fields.items()})

    def show(self, text: Text | str, style: str = "", indent: bool = False) -> None:
        shown = Text(_safe(text), style) if isinstance(text, str) else text
        if indent:
            shown = Text("\n").join(Text("  ") + line for line in shown.split("\n"))
        self.console.print(shown, style=style)

    def later(self, q: _Question, key: str) -> None:
        if key in q.later:
            self.show(text_of(parse(q.later[key])), "dim" if key.startswith("hint") else "", True)

    # --- a question ------------------------------------------------------------------------

    def present(self, q: _Question) -> None:
        """The question with the variant shown, and how to answer it."""
        form = q.form()
        shown = Node("div", {})
        shown.children = [
            form if isinstance(c, Node) and "data-variant" in c.attrs else c
            for c in q.node.children
        ]
        self.console.print()
        self.show(text_of(shown))
        controls = controls_of(form)
        words = [self.hint_word(q) or self.say("terminal.hint")] if q.costs else []
        words += [self.say("terminal.show")]
        words += [self.say("terminal.new")] if q.count > 1 else []
        words += [self.say(f"terminal.{name}") for name in ("skip", "quit")]
        commands = self.say(
            "terminal.commands", commands=self.say("quiz.list_separator").join(words)
        )
        self.show(f"{self.say(_how(controls), example=_example(len(controls)))} {commands}", "dim")

    def hint_word(self, q: _Question) -> str | None:
        """The hint command with the next hint's cost (quiz.js's ``hintLabel``)."""
        if q.hints >= len(q.costs):
            return None
        cost = scoring.hint_cost(q, q.limits)
        word = self.say("terminal.hint")
        return self.say("quiz.hint_costs", label=word, n=cost) if cost > 0 else word

    def take(self, q: _Question) -> bool:
        """Ask ``q`` until it is right, its attempts are over, or the reader moves on;
        False when the reader quits."""
        self.present(q)
        while not q.locked():
            line = self.ask("> ")
            command = self.commands.get((line or "").strip().casefold(), "")
            if line is None or command == "quit":
                return False
            if command == "skip":
                return True
            if command == "hint" and scoring.take_hint(q, q.limits):
                self.later(q, f"hint-{q.hints - 1}")
            elif command == "hint":
                self.show(self.say("terminal.no_hint"), "yellow")
            elif command == "show":
                self.reveal(q)
            elif command == "new" and q.count > 1:
                scoring.new_variant(q, q.limits)
                q.told = set()
                self.present(q)
                self.after(q)
            elif command == "new":
                self.show(self.say("terminal.no_new"), "yellow")
            else:
                try:
                    values = self.read(controls_of(q.form()), line)
                except _Unclear as exc:
                    self.show(str(exc), "yellow")
                    continue
                self.check(q, values)
                if q.ok:
                    return True
        return True

    def read(self, controls: list[Node], line: str) -> tuple[Any, ...]:
        """The controls' values from an answer line (and the lines after it, for several
        blanks or a program's output)."""
        first, count = controls[0], len(controls)
        if "data-item" in first.attrs:
            numbers = [_typed(n) for n in re.findall(r"[0-9]+", line)]
            if not line.strip():
                numbers = list(range(1, count + 1))
            if sorted(numbers) != list(range(1, count + 1)):
                raise _Unclear(self.say("terminal.bad_order", n=count, example=_example(count)))
            return tuple(whole(controls[n - 1].attrs["data-item"]) or 0 for n in numbers)
        if first.tag == "select":
            return self.matches(controls, line)
        if first.tag == "textarea":
            lines = [line]
            while lines[-1].strip() and (more := self.ask("")) is not None:
                lines.append(more)
            return ("\n".join(lines),)
        if _boxed(first):
            return (line, *(self.ask(f"[{i}] > ") or "" for i in range(2, count + 1)))
        picks = []
        for token in re.findall(r"[0-9]+|[A-Za-z]", line):
            index = _typed(token) - 1 if token.isdigit() else ord(token.lower()) - ord("a")
            if not 0 <= index < count:
                last, value = chr(ord("a") + count - 1), token[: DIGITS + 1]
                raise _Unclear(self.say("terminal.no_option", value=value, n=count, last=last))
            picks.append(index)
        if first.attrs.get("type") == "radio" and len(set(picks)) > 1:
            raise _Unclear(self.say("terminal.one_only"))
        return tuple(i in picks for i in range(count))

    def matches(self, rows: list[Node], line: str) -> tuple[str, ...]:
        """Drop-down values from ``1=b 2=a`` (or ``b a``, a letter per row in order)."""
        values = [
            o.attrs["value"]
            for o in rows[0].elements()
            if o.tag == "option" and o.attrs.get("value")
        ]
        pairs = [(_typed(r), c) for r, c in re.findall(r"([0-9]+)\s*[=:]\s*([A-Za-z])\b", line)]
        letters = re.findall(r"[A-Za-z]", line)
        if not pairs and len(letters) == len(rows):
            pairs = list(enumerate(letters, start=1))
        chosen = [""] * len(rows)
        for row, letter in pairs:
            index = ord(letter.lower()) - ord("a")
            if not (1 <= row <= len(rows) and 0 <= index < len(values)):
                pairs = []
                break
            chosen[row - 1] = values[index]
        if not pairs and line.strip():
            last = chr(ord("a") + len(values) - 1)
            raise _Unclear(self.say("terminal.bad_match", n=len(rows), last=last))
        return tuple(chosen)

    def check(self, q: _Question, values: tuple[Any, ...]) -> None:
        """quiz.js's ``check``: grade, keep the best credit, tell the result."""
        kind = self.types[q.data["type"]]
        notes = f"{q.variant}-" if "variants" in q.data else ""
        noted = frozenset(i for i in range(len(values)) if f"{notes}note-{i}" in q.later)
        check = Check(values, q.data["salt"], self.say, self.language, q.variant, noted)
        try:
            with time_limit(GRADE_SECONDS, "grading took too long"):
                graded = kind.grade(q.data, check)
        except TimeLimitError:
            self.show(self.say("terminal.too_slow"), "yellow")
            return
        except (LookupError, TypeError, ValueError, AttributeError, ArithmeticError) as exc:
            # The data's common fields were checked before the quiz; the rest is the type's.
            raise KonumError(
                f"question {printable(q.qid)}: its quiz data is not what a konum "
                f"{q.data['type']} question holds ({type(exc).__name__})"
            ) from None
        if graded.retry:
            self.show(graded.message, "yellow")
            return
        told = scoring.check(q, q.limits, graded.share, graded.ok)
        if told is None:
            return
        text = self.say(told.instead) if told.instead else graded.message
        if told.earned is not None:
            text += self.say("quiz.credit", score=told.earned, n=q.points)
        if told.kept is not None:
            text += " " + self.say("quiz.kept", score=told.kept, n=q.points)
        if told.left is not None:
            left = self.say("quiz.attempts_left", n=told.left)
            text += " " + (left if told.left else self.say("quiz.attempts_over"))
        self.show(text, "bold green" if q.ok else "bold red")
        for i, on in enumerate(values):
            if on is True:
                self.later(q, f"{notes}note-{i}")
        if told.reveal:
            self.later(q, q.suffix("answer"))
        self.after(q)

    def reveal(self, q: _Question) -> None:
        scoring.show(q)
        self.later(q, q.suffix("answer"))
        self.after(q)

    def after(self, q: _Question) -> None:
        """The explanation and worked solution, once: after a right answer, the last
        attempt or a reveal; never after a wrong try."""
        if not ((q.checked and q.ok) or q.revealed or q.locked()):
            return
        for key in ("explanation", f"solution-{q.variant}"):
            if key not in q.told:
                q.told.add(key)
                self.later(q, key)

    # --- a quiz ----------------------------------------------------------------------------

    def quiz(self, quiz: PageQuiz) -> bool:
        """Take one quiz of the page; its score at the end. False when the reader quit."""
        if quiz.title:
            self.console.rule(Text(printable(quiz.title), "bold"))
        picked = quiz.questions
        draw = min(quiz.draw, len(picked))
        if draw:
            self.show(self.say("quiz.drawn", n=draw, total=len(picked)), "dim")
            picked = [picked[i] for i in sorted(self.rng.sample(range(len(picked)), draw))]
            for j, pq in enumerate(picked, start=1):
                number = pq.node.find(lambda n: "konum-number" in n.classes())
                if number is not None:
                    number.children = [self.say("quiz.question_number", number=j, total=draw)]
        questions = [_Question(p.node, p.qid, p.data, p.later, p.attempts) for p in picked]
        going = True
        for q in questions:
            going = going and self.take(q)
        total = sum(q.points for q in questions)
        got = sum(q.score() for q in questions)
        cost = sum(scoring.hints_took(q, q.limits) for q in questions)
        line = self.say("quiz.score_points", score=got, total=total)
        line += self.say("quiz.score_hints", cost=cost) if cost > 0 else ""
        self.console.print()
        self.show(line, "bold")
        return going


def _how(controls: list[Node]) -> str:
    """The key of the text that says how to answer a form with these controls."""
    first = controls[0]
    if "data-item" in first.attrs:
        return "terminal.answer_order"
    if first.tag in ("select", "textarea"):
        return "terminal.answer_match" if first.tag == "select" else "terminal.answer_output"
    if _boxed(first):
        return "terminal.answer_blanks" if len(controls) > 1 else "terminal.answer_text"
    return "terminal.answer_one" if first.attrs.get("type") == "radio" else "terminal.answer_all"


def _typed(token: str) -> int:
    """A number typed in an answer line; -1 (no item's, option's or row's) when it is
    longer than any of them."""
    number = whole(token)
    return -1 if number is None else number


def _safe(text: str) -> str:
    """``text`` with its line breaks, every other control character (an escape sequence
    that sets the title, writes the clipboard or hides text; bidi controls) shown as
    ``\\x1b`` and the like, so nothing from a page or a bank acts on the terminal. Spaces
    of every width (a no-break space in ``1 000``) stay spaces."""
    text = text.expandtabs(4)
    if text.isprintable():
        return text
    return "".join(
        ch if ch == "\n" or ch.isprintable() or unicodedata.category(ch) == "Zs" else printable(ch)
        for ch in text
    )


def _example(count: int) -> str:
    """An order of ``count`` items to show how one is written: ``3 1 2``."""
    return " ".join(str(n) for n in [count, *range(1, count)])


def page_language(page: Node) -> str:
    """The interface language of a page: its ``<html lang>`` when konum speaks it (``tr``,
    ``tr-TR``), else the first of :data:`konum.messages.LANGUAGES`."""
    root = page.find(lambda n: n.tag == "html")
    lang = (root.attrs.get("lang", "") if root is not None else "").lower().split("-")[0]
    return lang if lang in LANGUAGES else LANGUAGES[0]


def bank_quiz(course: Course, name: str) -> str:
    """The quiz of bank ``name`` (its id, or its file) as a quiz block renders it.

    Raises:
        KonumError: no such bank, or a question that cannot be rendered.
    """
    banks = {bank.id: bank for bank in course.banks}
    named = Path(name).resolve()
    bank = banks.get(name) or next(
        (b for b in course.banks if Path(b.path).resolve() == named), None
    )
    if bank is None:
        raise KonumError(
            f"no bank {name!r}{did_you_mean(name, banks)} (banks: {', '.join(banks) or 'none'})"
        )
    try:
        return render_quiz(
            course.concretes((bank,)),
            bank.id,
            title=bank.title,
            language=course.language,
            plugins=course.plugins,
            images=course.images,
        )
    except ValueError as exc:
        raise KonumError(str(exc)) from None


def take(
    page: str,
    *,
    source: str,
    language: str | None = None,
    seed: int | None = None,
    types: Mapping[str, type[Question]] = TYPES,
) -> None:
    """Take every quiz of ``page`` (HTML) in the terminal, reading answers from stdin;
    ``language`` overrides the page's own (a bank's quiz has no ``<html>``); ``types``: the
    question types it may hold (a site's plugins add theirs).

    Raises:
        KonumError: ``page`` (read from ``source``) has no konum quiz, or one that is not
            as konum writes it (:func:`konum.pagequiz.read_quizzes`).
    """
    try:
        tree = parse(page)
    except KonumError as exc:
        raise KonumError(f"{printable(source)}: {exc}") from None
    quizzes = read_quizzes(tree, source, types)
    console = Console(highlight=False, markup=False, emoji=False)
    console.soft_wrap = not console.is_terminal
    echo = not sys.stdin.isatty()

    def ask(prompt: str) -> str | None:
        try:
            line = console.input(Text(prompt, "bold"))
        except (EOFError, KeyboardInterrupt):
            console.print()
            return None
        if echo:  # a transcript reads like the terminal
            console.print(Text(printable(line)))
        return line

    runner = Runner(console, language or page_language(tree), ask, seed, types)
    for quiz in quizzes:
        if not runner.quiz(quiz):
            break
