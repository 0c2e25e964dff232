"""``type: fill``: blanks in a text (inside code too), each with its accepted answers.

In a bank::

    - id: sin-code-blank
      type: fill
      prompt: |
        ```python
        angle = pos / ____ ** (2 * k / d)
        ```
      blanks:
        - answers: ["10000", "10_000"]
        - regex: "1e4|10\\*\\*4"          # or a regular expression, as JavaScript reads it

Every run of four or more underscores is a blank (:data:`konum.formatting.BLANK`); the page,
the cards, the exports and the paper all find them with :func:`konum.formatting.blank_tokens`:
placeholders through Markdown, then an input, a cloze or a numbered gap. Blanks inside
``$math$`` are not supported (``konum check`` says so). quiz.js's grader ``fill`` hashes what
the reader typed, normalised as :func:`konum.seal.normal_text` does, against the data's
``answers`` (or unseals the ``regex``).
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from markupsafe import Markup

from konum import seal
from konum.fields import Reader, join
from konum.formatting import BLANK, BLANK_TOKEN, BLANK_TOKEN_RE, blank_tokens
from konum.lms import GiftWriter, MoodleDocument, answer, cloze_answer, shortanswer_text, value
from konum.markup import MarkupError, render_text
from konum.qti_items import QtiDocument
from konum.types import base
from konum.yamlsource import Mark, YMap, YNode, YSeq

BLANK_FIELDS = ("answers", "answer", "regex", "case_sensitive")
# Blanks are checked by JavaScript in the reader's browser, so a pattern must mean the same
# there: these Python-only constructs would make every answer wrong (or throw).
_PYTHON_ONLY_REGEX = re.compile(r"\(\?P[<=>]|\(\?#|\\[AZ]|\(\?[aiLmsux]+[):-]|\*\+|\+\+|\?\+")


class BlankError(ValueError):
    """A fill-in whose blanks do not survive Markdown (written inside math)."""


@dataclass(frozen=True)
class Blank:
    """One blank: the reader's answer, stripped of surrounding whitespace, must equal one of
    ``answers`` (case-insensitively unless ``case_sensitive``), or fully match ``regex``."""

    answers: tuple[str, ...]
    regex: str | None = None
    case_sensitive: bool = False

    @property
    def shown(self) -> str | None:
        """The answer "Show answer", the flashcard and the exam key show: ``answers[0]``,
        else a text the ``regex`` matches (:func:`regex_example`), else None."""
        if self.answers or self.regex is None:
            return self.answers[0] if self.answers else None
        return regex_example(self.regex, self.case_sensitive)


#: A regular expression's parts: an escape, a class, a group's start, ``)``, ``|``, an
#: anchor, a quantifier (group 1: a counted one's least count, group 2 its most, empty when
#: unbounded, None for an exact count) or one character.
_REGEX_PART = re.compile(
    r"\\.|\[\^?\]?(?:\\.|[^\]])*\]|\(\?:|[()|^$]|[*+?]\??|\{(\d+)(?:,(\d*))?\}\??|.", re.S
)
#: The most times a blank's pattern may repeat a part (``\\d{4}`` is what answers need).
MAX_REPEAT = 100
#: The longest example answer :func:`regex_example` builds.
MAX_EXAMPLE = 1000
_CLASS_EXAMPLE = {"\\d": "0", "\\w": "a", "\\s": " ", ".": "a"}


def regex_example(regex: str, case_sensitive: bool = False) -> str | None:
    """A short text that ``regex`` fully matches, for a reader (``6\\.02[0-9]*`` gives
    ``6.02``): each part once, the least count of a repeated part, the first alternative
    and the first character of a class; None when that text does not match (a pattern
    beyond these rules)."""
    groups: list[list[list[str]]] = [[[]]]  # open groups, their alternatives, their parts
    for match in _REGEX_PART.finditer(regex):
        part, parts = match.group(), groups[-1][-1]
        if part in ("(", "(?:"):
            groups.append([[]])
        elif part == ")" and len(groups) > 1:
            done = groups.pop()
            groups[-1][-1].append("".join(done[0]))
        elif part == "|":
            groups[-1].append([])
        elif part[0] in "*+?{" and parts:
            times = 1 if part[0] == "+" else int(match.group(1) or 0)
            if len(parts[-1]) * times > MAX_EXAMPLE:
                return None
            parts[-1] *= times
        elif part not in ("^", "$"):
            if part[0] == "[" and part[1] != "^":  # a class: its first character
                part = part[1:3] if part[1] == "\\" else part[1]
            parts.append(_CLASS_EXAMPLE.get(part, part[-1]))
    text = "".join(groups[0][0])
    flags = 0 if case_sensitive else re.IGNORECASE
    return text if len(groups) == 1 and re.fullmatch(regex, text, flags) else None


#: A part of a pattern as :func:`regex_problem` weighs it: the character it must begin with
#: (None: one of several), whether it may match texts of different lengths, and, for a
#: group, its alternatives.
_Part = tuple[str | None, bool, "list[list[_Part]] | None"]


def _group_problem(group: list[list[_Part]]) -> str | None:
    """Why repeating ``group`` (its alternatives' parts) may try exponentially many ways."""
    firsts = [alt[0][0] if alt else None for alt in group]
    if len(group) > 1 and (None in firsts or len(set(firsts)) < len(firsts)):
        return "a repeated group whose alternatives can begin alike, such as '(a|aa)+'"
    if all(all(variable for _, variable, _ in alt) for alt in group):
        return "nested repetition, such as '(a+)+' or '(\\w+\\s?)*'"
    return None


def regex_problem(regex: str) -> str | None:
    """Why a blank's pattern could keep the reader's browser or ``konum quiz`` matching for
    seconds or years (None when it cannot): a count above :data:`MAX_REPEAT`, or a repeated
    group that can match one text in exponentially many ways (catastrophic backtracking):
    alternatives that may begin alike, or parts that are all repeated or optional."""
    stack: list[list[list[_Part]]] = [[[]]]
    for match in _REGEX_PART.finditer(regex):
        part, parts = match.group(), stack[-1][-1]
        counts = [int(n) for n in match.group(1, 2) if n]
        if max(counts, default=0) > MAX_REPEAT:
            return f"a part repeated {max(counts):,} times (at most {MAX_REPEAT})"
        if part in ("(", "(?:"):
            stack.append([[]])
        elif part == ")" and len(stack) > 1:
            done = stack.pop()
            stack[-1][-1].append((None, any(any(p[1] for p in alt) for alt in done), done))
        elif part == "|":
            stack[-1].append([])
        elif part[0] in "*+?{" and parts:
            first, _, inner = parts[-1]
            more = part[0] in "*+" or (part[0] == "{" and match.group(2) is not None)
            if inner is not None and (part[0] in "*+" or (counts and max(counts) > 1)):
                problem = _group_problem(inner)
                if problem:
                    return problem
            parts[-1] = (first, more or part[0] == "?", inner)
        elif part not in ("^", "$"):
            single = (len(part) == 1 and part != ".") or (part[0] == "\\" and not part[1].isalpha())
            parts.append((part[-1].lower() if single else None, False, None))
    return None


def with_blanks(html_text: str, count: int, fill: Any) -> str:
    """Rendered HTML with blank ``i``'s placeholder replaced by ``fill(i)``.

    Raises:
        BlankError: a placeholder did not survive Markdown.
    """
    found = [int(n) for n in BLANK_TOKEN_RE.findall(html_text)]
    if sorted(found) != list(range(count)):
        lost = count - len(set(found))
        raise BlankError(
            f"{lost} blank(s) were lost in Markdown (blanks inside $math$ are not supported)"
        )
    return BLANK_TOKEN_RE.sub(lambda m: fill(int(m.group(1))), html_text)


def _cloze_safe(text: str) -> str:
    """``text`` as HTML in which Anki's cloze delimiters cannot occur: Anki parses
    ``{{c1::text::hint}}`` on the field's HTML source, so ``::`` (Python's ``[::-1]``) or
    braces in an answer would cut the deletion short; as character references they render
    the same and are invisible to the cloze parser."""
    escaped = html.escape(text, quote=False)
    return escaped.replace(":", "&#58;").replace("{", "&#123;").replace("}", "&#125;")


@dataclass(frozen=True)
class FillQuestion(base.Question):
    """Fill in the blanks; ``prompt`` holds one blank (``____``) per entry of ``blanks``."""

    blanks: tuple[Blank, ...] = ()

    type: ClassVar[str] = "fill"
    FIELDS: ClassVar[tuple[str, ...]] = ("blanks",)

    @classmethod
    def read(cls, r: Reader, node: YMap, common: dict[str, Any]) -> FillQuestion | None:
        seq = r.sequence(node, "blanks", "", required=True)
        blanks = [
            b
            for j, item in enumerate(seq.items if seq else ())
            if (b := _blank(r, item, f"blanks[{j}]"))
        ]
        prompt = common["prompt"]
        if prompt and seq is not None:
            count = len(BLANK.findall(prompt))
            if count == 0:
                r.problem(
                    seq.mark,
                    "blanks",
                    "the prompt has no blank: write ____ (4 or more underscores) where each "
                    "answer goes",
                    expected=f"{len(seq.items)} blank(s) in the prompt",
                    found="none",
                )
            elif count != len(seq.items):
                r.problem(
                    seq.mark,
                    "blanks",
                    "the prompt's blanks (runs of 4 or more underscores) and the 'blanks' "
                    "entries do not line up",
                    expected=f"{count} entries (one per blank in the prompt)",
                    found=f"{len(seq.items)}",
                )
        return cls(**common, blanks=tuple(blanks))

    def translatable(self) -> dict[str, object]:
        found = super().translatable()
        for i, blank in enumerate(self.blanks):
            found[f"blanks[{i}].answers"] = list(blank.answers)
        return found

    def replaced(self, texts: Any) -> FillQuestion:
        """The English answers stay accepted beside a translation's (code and names are the
        same in both)."""
        answers = {k: v for k, v in texts.items() if k.startswith("blanks[")}
        out = super().replaced({k: v for k, v in texts.items() if k not in answers})
        blanks = list(out.blanks)
        for i, blank in enumerate(blanks):
            given = answers.get(f"blanks[{i}].answers")
            if isinstance(given, list) and given:
                merged = tuple(dict.fromkeys([*map(str, given), *blank.answers]))
                blanks[i] = replace(blank, answers=merged)
        return replace(out, blanks=tuple(blanks))

    def tokenised(self) -> str:
        """The prompt with its blanks as placeholders (the text every output renders).

        Raises:
            BlankError: the prompt has another number of blanks than ``blanks``.
        """
        source, count = blank_tokens(self.prompt)
        if count != len(self.blanks):
            raise BlankError(f"expected {len(self.blanks)} blanks in the prompt, found {count}")
        return source

    def probe(self, ctx: base.Probe) -> tuple[list[base.Finding], FillQuestion]:
        try:
            with_blanks(render_text(self.tokenised()).html, len(self.blanks), str)
        except BlankError as exc:
            return [base.Finding("prompt", str(exc))], self
        except MarkupError:  # reported with the prompt's other problems
            pass
        return [], self

    def view(self, concrete: base.Concrete, page: base.Page) -> dict[str, Any]:
        total = len(self.blanks)
        prompt = with_blanks(
            str(page.md(self.tokenised())),
            total,
            lambda i: page.blank(f"{page.dom_id}-blank-{i}", i, total),
        )
        return {
            "prompt": Markup(prompt),
            "blanks": [{"shown": b.shown, "regex": b.regex} for b in self.blanks],
            "data": {
                "type": "fill",
                "blanks": [_blank_data(b, page.salt, i) for i, b in enumerate(self.blanks)],
            },
        }

    @classmethod
    def grade(cls, spec: Mapping[str, Any], check: base.Check) -> base.Graded:
        """quiz.js's ``gradeFill``: each blank's text (``check.values``) against its hashes
        or its unsealed pattern; a decimal comma that a point would make right is asked
        again."""
        say, typed, blanks = check.say, [str(v) for v in check.values], spec["blanks"]
        if not any(v.strip() for v in typed):
            return base.Graded(False, say("quiz.fill_first"), retry=True)

        def right(i: int, text: str) -> bool:
            blank, case = blanks[i], blanks[i]["case_sensitive"]
            if blank.get("regex"):
                pattern = seal.unseal(f"{check.salt}\x1f{i}", blank["regex"])
                try:
                    typed = text.strip().replace("\u2212", "-")  # the minus the page prints
                    return bool(re.fullmatch(f"(?:{pattern})", typed, 0 if case else re.I))
                except re.error:
                    return False
            hashed = seal.answer_hash(
                check.salt, "b", i, seal.normal_text(text, case_sensitive=case)
            )
            return hashed in blank["answers"]

        for i, text in enumerate(typed):
            if (
                re.search("[0-9],[0-9]", text)
                and not right(i, text)
                and right(i, text.replace(",", "."))
            ):
                return base.Graded(False, say("quiz.point_not_comma"), retry=True)
        bad = [str(i + 1) for i, text in enumerate(typed) if not right(i, text)]
        if not bad:
            return base.Graded(True, say("quiz.correct"), share=1.0)
        listed = say("quiz.list_separator").join(bad)
        return base.Graded(
            False,
            say("quiz.blanks_wrong", n=len(bad), list=listed),
            share=1 - len(bad) / len(typed),
        )

    def cards(self, concrete: base.Concrete, ctx: base.Cards) -> list[base.Card]:
        def cloze(i: int) -> str:
            blank = self.blanks[i]
            shown = blank.shown or blank.regex or ""
            # Inside <code> when the blank was in code, so it keeps the code's formatting.
            return "{{c1::" + _cloze_safe(shown) + "}}"

        front = with_blanks(ctx.md(self.tokenised()), len(self.blanks), cloze)
        return [ctx.card(self, front, ctx.explanation(self), kind="cloze")]

    def moodle_problem(self) -> str | None:
        for i, blank in enumerate(self.blanks):
            if blank.regex is not None:
                return (
                    f"blank {i + 1} accepts a regular expression; Moodle's short answers match "
                    "listed answers only"
                )
        return None

    def moodle(self, doc: MoodleDocument, concrete: base.Concrete) -> None:
        """One blank: ``shortanswer`` (``usecase`` 1 when case-sensitive); several:
        ``cloze``, one ``{1:SHORTANSWER:=a~=b}`` (``SHORTANSWER_C``) per blank."""
        if len(self.blanks) == 1:
            blank = self.blanks[0]
            element = doc.question("shortanswer", self, text=doc.html(self.prompt))
            value(element, "usecase", 1 if blank.case_sensitive else 0)
            for accepted in blank.answers:
                answer(element, 1.0, shortanswer_text(accepted), fmt="moodle_auto_format")
            return

        def marker(i: int) -> str:
            blank = self.blanks[i]
            kind = "SHORTANSWER_C" if blank.case_sensitive else "SHORTANSWER"
            return f"{{1:{kind}:{'~'.join(f'={cloze_answer(a)}' for a in blank.answers)}}}"

        text = with_blanks(doc.html(self.tokenised()), len(self.blanks), marker)
        doc.question("cloze", self, text=text)

    def gift_problem(self) -> str | None:
        if len(self.blanks) != 1:
            return f"GIFT holds one blank per question, found {len(self.blanks)}"
        blank = self.blanks[0]
        if blank.regex is not None:
            return "its blank accepts a regular expression; GIFT short answers list answers"
        if blank.case_sensitive:
            return "its blank is case-sensitive; GIFT short answers ignore case"
        if any(a.startswith("[") for a in blank.answers):
            return "an answer starts with '[', which Moodle's GIFT reader takes for a format"
        return None

    def gift(self, w: GiftWriter, concrete: base.Concrete) -> None:
        """A short answer in place of the blank ("missing word"): ``{=metre =meter}``."""
        token = BLANK_TOKEN.format(0)
        before, _, after = w.html(BLANK.sub(token, self.prompt, count=1)).partition(token)
        answers = " ".join(f"={w.shortanswer(a)}" for a in self.blanks[0].answers)
        head = f"::{w.escape(self.id)}::[html]{w.escape(before)}"
        w.add(f"{head}{{{answers}{w.general(self)}\n}}{w.escape(after)}")

    def qti_problem(self) -> str | None:
        for i, blank in enumerate(self.blanks, 1):
            if blank.regex is not None or blank.case_sensitive:
                why = "accepts a regular expression" if blank.regex else "is case-sensitive"
                return f"blank {i} {why}; Canvas's blanks match listed answers, ignoring case"
        return None

    def qti(self, doc: QtiDocument, concrete: base.Concrete) -> None:
        """``fill_in_multiple_blanks_question``: blank ``i`` (from 0) is ``[blank<i>]`` where the
        prompt has it (in code too), with its accepted answers; each blank an equal share."""
        text = with_blanks(doc.html(self.tokenised()), len(self.blanks), "[blank{}]".format)
        rows = [(f"blank{i}", b.answers, range(len(b.answers))) for i, b in enumerate(self.blanks)]
        doc.item("fill_in_multiple_blanks_question", self, text).lists(rows, "blank")

    def printed(self, ctx: base.Print) -> base.PrintedQuestion:
        prompt = with_blanks(
            str(ctx.md(self.tokenised())),
            len(self.blanks),
            lambda i: f'<span class="konum-exam-gap">({i + 1})</span>',
        )
        answers = Markup("<br>").join(_printed_answer(ctx, i, b) for i, b in enumerate(self.blanks))
        return ctx.printed(self, answers, Markup(prompt))


def _blank(r: Reader, node: YNode, path: str) -> Blank | None:
    if not r.mapping(
        node,
        path,
        "each blank must be a mapping such as '- answers: [\"2\"]' or '- answer: \"2\"'",
    ):
        return None
    r.check_keys(node, path, BLANK_FIELDS)
    answers = r.text_list(node, "answers", path, required=False)
    single = r.text(node, "answer", path, required=False)
    regex = r.text(node, "regex", path, required=False)
    case_sensitive = r.boolean(node, "case_sensitive", path, False)
    answers_node = node.get("answers")
    if "answers" in node.entries and "answer" in node.entries:
        r.problem(
            node.entries["answer"].key_mark,
            join(path, "answer"),
            "give either 'answer' or 'answers', not both",
        )
    elif isinstance(answers_node, YSeq):
        r.empty(answers_node, join(path, "answers"), "no accepted answer", "at least one answer")
    if isinstance(answers_node, YSeq) and answers and len(answers) == len(answers_node.items):
        r.unique(
            answers_node, join(path, "answers"), answers, "answer", "answers", case=case_sensitive
        )
    accepted = answers if answers else ((single,) if single is not None else ())
    if not {"answers", "answer", "regex"} & set(node.entries):
        r.problem(
            node.mark,
            path,
            "a blank needs 'answers' (or 'answer') or 'regex'",
            expected="answers or regex",
            found="neither",
        )
    if regex is not None:
        mark = (node.get("regex") or node).mark
        # Asked before compiling: Python before 3.11 rejects possessive quantifiers itself,
        # and the message should not depend on the Python that builds.
        python_only = _PYTHON_ONLY_REGEX.search(regex)
        if python_only:
            r.problem(
                mark,
                join(path, "regex"),
                f"'{python_only.group(0)}' works in Python but not in the reader's browser "
                "(JavaScript regular expressions); write it another way",
            )
        elif problem := regex_problem(regex):
            r.problem(
                mark,
                join(path, "regex"),
                f"{problem} could keep a reader's browser matching for minutes; write it so "
                "that each text matches one way",
            )
        else:
            _regex_accepts(r, regex, case_sensitive, accepted, mark, join(path, "regex"))
    return Blank(tuple(a.strip() for a in accepted), regex, case_sensitive)


def _regex_accepts(
    r: Reader, regex: str, case: bool, accepted: tuple[str, ...], mark: Mark, path: str
) -> None:
    """A blank's pattern compiles and matches each of its listed answers."""
    try:
        compiled = re.compile(regex, 0 if case else re.IGNORECASE)
    except re.error as exc:
        r.problem(mark, path, f"invalid regular expression: {exc}")
        return
    for accepted_answer in accepted:
        if not compiled.fullmatch(accepted_answer.strip()):
            r.problem(
                mark, path, f"the answer '{accepted_answer}' does not match this regular expression"
            )


def _blank_data(blank: Blank, salt: str, index: int) -> dict[str, Any]:
    """How quiz.js checks blank ``index``: a regular expression cannot be hashed (it accepts
    endless texts), so it is sealed and unsealed by the check; listed answers are hashed as
    the check normalises what the reader types."""
    case = blank.case_sensitive
    if blank.regex is not None:
        return {"case_sensitive": case, "regex": seal.seal(f"{salt}\x1f{index}", blank.regex)}
    texts = [seal.normal_text(a, case_sensitive=case) for a in blank.answers]
    return {
        "case_sensitive": case,
        "answers": seal.hashes(salt, [f"b\x1f{index}\x1f{a}" for a in texts]),
    }


def _printed_answer(ctx: base.Print, index: int, blank: Blank) -> Markup:
    """Blank ``index``'s accepted answers as code, as written (no decimal mark changed)."""
    words = []
    first = blank.shown
    if first is not None:
        words.append(Markup("<code>{}</code>").format(first))
        if len(blank.answers) > 1:
            others = Markup(", ").join(
                Markup("<code>{}</code>").format(a) for a in blank.answers[1:]
            )
            words.append(ctx.say("print.also", answers=others))
    if blank.regex is not None:
        pattern = Markup("<code>{}</code>").format(blank.regex)
        key = "print.or_matching" if first is not None else "print.matching"
        words.append(ctx.say(key, pattern=pattern))
    shown = Markup(" ").join(words)
    if blank.case_sensitive:
        shown = Markup(", ").join([shown, ctx.say("print.case_matters")])
    return Markup("<strong>({})</strong> {}").format(index + 1, shown)
