"""Field-by-field validation of one bank's located YAML nodes into :mod:`konum.model` objects.

:class:`BankValidator` walks the node tree once, collecting every problem it finds (it never
stops at the first) and building the typed objects from whatever is valid. A bank becomes a
:class:`~konum.model.Bank` only when its file has no problem at all. Checks that need
every bank (ids unique across banks) live in :mod:`konum.banks.load`.

Conventions: problems inside a question whose id is valid carry ``question_id`` and a field
path relative to the question (``options[1].text``); elsewhere the path starts at the top of
the file (``questions[3].id``). List indices count from 0.
"""

from __future__ import annotations

import importlib
import math
import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation, localcontext
from pathlib import Path
from typing import Any, cast

from konum import limits, model
from konum.banks import htmlcheck, imagerefs
from konum.banks.errors import BankProblem
from konum.banks.schema import (
    BANK_FIELDS,
    BLANK_FIELDS,
    COMMON_FIELDS,
    FIGURE_FIELDS,
    FLASHCARD_FIELDS,
    FORMULA_ONLY_FIELDS,
    HINT_FIELDS,
    MISCONCEPTION_FIELDS,
    OPTION_FIELDS,
    PAIR_FIELDS,
    RANGE_FIELDS,
    SLUG,
    TYPE_FIELDS,
    all_question_fields,
    owners,
    slugify,
)
from konum.banks.yamlsource import Mark, YMap, YNode, YScalar, YSeq
from konum.formatting import BLANK, did_you_mean
from konum.markup import Spot
from konum.programs import MAX_CHARS as MAX_PROGRAM_CHARS
from konum.programs import ProgramError

ComputedCheck = Callable[
    [str, Mapping[str, model.ParamConstraint], str, "int | None", int],
    "list[tuple[str, str]]",
]

# Blanks are checked by JavaScript in the reader's browser, so a pattern must mean the same
# there: these Python-only constructs would make every answer wrong (or throw).
_PYTHON_ONLY_REGEX = re.compile(r"\(\?P[<=>]|\(\?#|\\[AZ]|\(\?[aiLmsux]+[):-]|\*\+|\+\+|\?\+")
_NUMBER_TEXT = re.compile(r"[-+]?(?:\d[\d_]*\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def _elsewhere(qtype: model.QuestionType) -> dict[str, str]:
    """For a question of type ``qtype``: why each field of the other types is not its own."""
    allowed = COMMON_FIELDS + TYPE_FIELDS[qtype]
    return {
        key: f"only {' and '.join(owners(key))} questions have it (this question is '{qtype}')"
        for key in all_question_fields()
        if key not in allowed
    }


def _plain(node: YNode) -> object:
    """A YAML node as plain Python data (figure parameters)."""
    if isinstance(node, YScalar):
        return node.value
    if isinstance(node, YSeq):
        return [_plain(item) for item in node.items]
    return {key: _plain(entry.value) for key, entry in node.entries.items()}


def computed_validator() -> ComputedCheck | None:
    """``konum.computed.validate_computed``, or None while that package does not exist.

    Imported lazily: the computed generators live in their own package, and banks without
    computed questions must load without it. Tests replace this function.
    """
    try:
        module = importlib.import_module("konum.computed")
    except ModuleNotFoundError as exc:
        if exc.name != "konum.computed":
            raise  # the package exists but is broken: that is a bug to see, not to skip
        return None
    check = getattr(module, "validate_computed", None)
    return cast(ComputedCheck, check) if callable(check) else None


def program_runner() -> Callable[[str], str]:
    """What runs an output question's example program: :func:`konum.programs.run_program`
    (tests replace this function)."""
    from konum.programs import run_program

    return run_program


@dataclass(frozen=True)
class IdUse:
    """Where an id was defined (for duplicate reports within and across banks)."""

    id: str
    file: str
    mark: Mark

    def where(self) -> str:
        return f"{self.file}:{self.mark.line}:{self.mark.column}"


def describe(node: YNode | None) -> str:
    """How a value looks to an author, for "found ..." messages."""
    if node is None:
        return "nothing"
    if isinstance(node, YMap):
        return "a mapping (key: value lines)"
    if isinstance(node, YSeq):
        return "a list"
    value = node.value
    if value is None:
        return "nothing (an empty value)"
    if isinstance(value, bool):
        return f"{node.text} (a true/false value)"
    if isinstance(value, (int, float)):
        return f"the number {_short(node.text)}"
    shown = str(value) if len(str(value)) <= 40 else str(value)[:37] + "..."
    return f'text "{shown}"'


def _short(text: str) -> str:
    """A long number's text cut for a message: ``1000000000... (401 characters)``."""
    return text if len(text) <= 24 else f"{text[:12]}... ({len(text)} characters)"


def _written(node: YNode) -> str:
    return _short(node.text) if isinstance(node, YScalar) else describe(node)


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _num(value: float) -> str:
    return f"{value:.10g}"


def _norm(text: str, *, case: bool = False) -> str:
    """``text`` as duplicates are compared: spaces collapsed, Unicode NFC, caseless unless
    ``case`` (so NFC "Sinüs", NFD "Sinüs" and "sinüs " are the same option)."""
    text = unicodedata.normalize("NFC", " ".join(text.split()))
    return text if case else unicodedata.normalize("NFC", text.casefold())


class BankValidator:
    """Validates one bank file; read :attr:`problems`, :attr:`ids` and the result of :meth:`run`.

    Args:
        file: the file name used in problems (as the user gave it).
        stem: the file name without directory and extension (the bank id must equal it).
        text: the decoded file text (used to place problems inside block scalars).
        project: the folder images must lie in (that of ``mkdocs.yml``; default the working
            directory), besides the bank's own folder.
    """

    def __init__(self, file: str, stem: str, text: str = "", project: Path | None = None) -> None:
        self.file = file
        self.stem = stem
        self.project = (project or Path.cwd()).absolute()
        self.folder = Path(file).absolute().parent  # where the bank's image paths start
        self.lines = text.split("\n")
        self.problems: list[BankProblem] = []
        self.ids: list[IdUse] = []
        self.qid: str | None = None
        self.prefix = ""

    # --- reporting ------------------------------------------------------------------------

    def problem(
        self,
        mark: Mark,
        path: str,
        message: str,
        expected: str | None = None,
        found: str | None = None,
    ) -> None:
        if expected is not None and found is not None:
            message = f"{message}: expected {expected}, found {found}"
        field = path if self.qid else (self.prefix + path if path else self.prefix.rstrip("."))
        self.problems.append(
            BankProblem(
                self.file,
                mark.line,
                mark.column,
                message,
                question_id=self.qid,
                field=field or None,
                expected=expected,
                found=found,
            )
        )

    def check_keys(
        self, node: YMap, path: str, allowed: Sequence[str], elsewhere: Mapping[str, str] = {}
    ) -> None:
        for key, entry in node.entries.items():
            if key in allowed:
                continue
            where = _join(path, key)
            if key in elsewhere:
                self.problem(
                    entry.key_mark, where, f"'{key}' is not a field here; {elsewhere[key]}"
                )
                continue
            self.problem(
                entry.key_mark,
                where,
                f"unknown key '{key}'{did_you_mean(key, allowed)}",
                expected="one of " + ", ".join(allowed),
                found=f"'{key}'",
            )

    def missing(self, node: YMap, path: str, key: str, expected: str) -> None:
        self.problem(
            node.mark,
            _join(path, key),
            f"missing required field '{key}'",
            expected=expected,
            found="nothing",
        )

    # --- typed getters (None means absent or already reported) ---------------------------

    def text(
        self, node: YMap, key: str, path: str, *, required: bool, markdown: bool = False
    ) -> str | None:
        value = node.get(key)
        if value is None:
            if required:
                self.missing(node, path, key, "text")
            return None
        return self.as_text(value, _join(path, key), required=required, markdown=markdown)

    def as_text(
        self, node: YNode, path: str, *, required: bool = True, markdown: bool = False
    ) -> str | None:
        if not isinstance(node, YScalar):
            self.problem(node.mark, path, "wrong type", expected="text", found=describe(node))
            return None
        if node.value is None or (isinstance(node.value, str) and not node.value.strip()):
            if required:
                self.problem(node.mark, path, "is empty", expected="text", found="nothing")
            return None
        # Numbers and true/false are taken as written: `text: No` means the word "No".
        result = node.value if isinstance(node.value, str) else node.text
        if markdown:
            result = self.check_html(node, path, result)
        return result

    def check_html(self, node: YScalar, path: str, text: str) -> str:
        """Report what the renderer would drop or refuse in ``text``, and each image that
        cannot be used; return ``text`` with its images' paths replaced by references to
        the checked images (:func:`konum.banks.imagerefs.localise`)."""
        localised, image_problems = imagerefs.localise(text, path, self.folder, self.project)
        issues: list[htmlcheck.HtmlIssue | Spot] = [*htmlcheck.scan(text), *image_problems]
        for issue in issues:
            line, column = node.mark.line, node.mark.column
            if node.style == "|":
                line = node.mark.line + issue.line
                source = self.lines[line - 1] if line - 1 < len(self.lines) else ""
                column = len(source) - len(source.lstrip(" ")) + issue.offset + 1
            elif issue.line == 1 and node.style in (None, '"', "'") and "\n" not in text:
                column = node.mark.column + issue.offset + (1 if node.style else 0)
            self.problem(Mark(line, column), path, issue.message)
        return localised

    def boolean(self, node: YMap, key: str, path: str, default: bool) -> bool:
        value = node.get(key)
        if value is None:
            return default
        if isinstance(value, YScalar) and isinstance(value.value, bool):
            return value.value
        self.problem(
            value.mark,
            _join(path, key),
            "wrong type",
            expected="true or false",
            found=describe(value),
        )
        return default

    def integer(self, node: YMap, key: str, path: str, bounds: tuple[int, int]) -> int | None:
        value = node.get(key)
        if value is None:
            return None
        low, high = bounds
        if (
            not isinstance(value, YScalar)
            or not isinstance(value.value, int)
            or isinstance(value.value, bool)
        ):
            self.problem(
                value.mark,
                _join(path, key),
                "wrong type",
                expected=f"a whole number from {low} to {high}",
                found=describe(value),
            )
            return None
        if not low <= value.value <= high:
            self.problem(
                value.mark,
                _join(path, key),
                "out of range",
                expected=f"a whole number from {low} to {high}",
                found=_short(value.text),
            )
            return None
        return value.value

    def number(self, node: YNode, path: str) -> float | None:
        """A YAML number; a plain (unquoted) ``1e-3`` counts too (YAML 1.1 reads it as text).

        Infinities and NaN are returned (callers say why they do not fit); numbers larger
        in size than :data:`konum.limits.MAX_NUMBER` are reported here.
        """
        value: float | None = None
        if isinstance(node, YScalar):
            raw = node.value
            if isinstance(raw, (int, float)) and not isinstance(raw, bool):
                value = raw
            elif (
                isinstance(raw, str) and node.style is None and _NUMBER_TEXT.fullmatch(raw.strip())
            ):
                value = float(raw.replace("_", ""))
        if value is None:
            hint = " (remove the quotes)" if isinstance(node, YScalar) and node.style else ""
            self.problem(
                node.mark, path, f"wrong type{hint}", expected="a number", found=describe(node)
            )
            return None
        return None if self.too_large(node, path, value) else value

    def too_large(self, node: YNode, path: str, value: object) -> bool:
        """Report ``value`` when it is a number larger in size than :data:`limits.MAX_NUMBER`.

        Compared as written (a Python int is exact at any size), so a 400-digit integer is a
        message here rather than an ``OverflowError`` wherever it would meet a float.
        """
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return False
        if isinstance(value, float) and not math.isfinite(value):
            return False
        if abs(value) <= limits.MAX_NUMBER:
            return False
        bound = f"{float(limits.MAX_NUMBER):g}".replace("e+", "e")
        self.problem(
            node.mark,
            path,
            "the number is too large",
            expected=f"a number from -{bound} to {bound}",
            found=describe(node),
        )
        return True

    def large_numbers(self, node: YNode, path: str) -> bool:
        """Report every number inside ``node`` that is too large; True when there was one."""
        if isinstance(node, YScalar):
            return self.too_large(node, path, node.value)
        if isinstance(node, YSeq):
            children = [(f"{path}[{i}]", item) for i, item in enumerate(node.items)]
        else:
            children = [(_join(path, key), entry.value) for key, entry in node.entries.items()]
        found = False
        for where, child in children:  # not any(): report every one
            found = self.large_numbers(child, where) or found
        return found

    def sequence(self, node: YMap, key: str, path: str, *, required: bool) -> YSeq | None:
        value = node.get(key)
        if value is None:
            if required:
                self.missing(node, path, key, "a list")
            return None
        if not isinstance(value, YSeq):
            self.problem(
                value.mark, _join(path, key), "wrong type", expected="a list", found=describe(value)
            )
            return None
        return value

    def text_list(
        self, node: YMap, key: str, path: str, *, required: bool, markdown: bool = False
    ) -> tuple[str, ...] | None:
        seq = self.sequence(node, key, path, required=required)
        if seq is None:
            return None
        items = [
            self.as_text(item, f"{_join(path, key)}[{i}]", markdown=markdown)
            for i, item in enumerate(seq.items)
        ]
        return tuple(item for item in items if item is not None)

    def tags(self, node: YMap, path: str) -> tuple[str, ...]:
        values = self.text_list(node, "tags", path, required=False) or ()
        seq = node.get("tags")
        for i, tag in enumerate(values):
            if any(ch.isspace() for ch in tag.strip()):
                mark = seq.items[i].mark if isinstance(seq, YSeq) else node.mark
                self.problem(
                    mark,
                    f"{_join(path, 'tags')}[{i}]",
                    "a tag cannot contain spaces (flashcard apps split tags at spaces); "
                    f"write '{'-'.join(tag.split())}'",
                )
        return tuple(tag.strip() for tag in values)

    def identifier(self, node: YMap, path: str, kind: str) -> str | None:
        value = node.get("id")
        if value is None:
            self.missing(node, path, "id", "a slug such as 'sin-why-pairs'")
            return None
        ident = self.as_text(value, _join(path, "id"))
        if ident is None:
            return None
        if not SLUG.fullmatch(ident):
            suggestion = slugify(ident)
            hint = f" (for example '{suggestion}')" if suggestion else ""
            self.problem(
                value.mark,
                _join(path, "id"),
                f"{kind} id is not a slug{hint}",
                expected="lowercase letters a-z, digits and single hyphens",
                found=f"'{ident}'",
            )
            return None
        self.ids.append(IdUse(ident, self.file, value.mark))
        return ident

    # --- the bank -------------------------------------------------------------------------

    def run(self, root: YNode | None) -> model.Bank | None:
        """Validate the whole file; the bank when it has no problem (so far), else None."""
        start = len(self.problems)
        bank = self.bank(root)
        self.check_duplicate_ids()
        return bank if len(self.problems) == start else None

    def bank(self, root: YNode | None) -> model.Bank | None:
        if root is None:
            self.problems.append(
                BankProblem(
                    self.file,
                    1,
                    1,
                    "the file is empty: a bank needs 'bank', 'title' and 'questions'",
                    expected="a bank",
                    found="nothing",
                )
            )
            return None
        if not isinstance(root, YMap):
            self.problem(
                root.mark,
                "",
                "a bank file must be a mapping with 'bank', 'title' and 'questions'",
                expected="a mapping",
                found=describe(root),
            )
            return None
        self.check_keys(root, "", BANK_FIELDS)
        bank_id = self.text(root, "bank", "", required=True)
        bank_node = root.get("bank")
        if bank_id is not None and bank_node is not None:
            if not SLUG.fullmatch(bank_id):
                self.problem(
                    bank_node.mark,
                    "bank",
                    "bank id is not a slug",
                    expected="lowercase letters a-z, digits and single hyphens",
                    found=f"'{bank_id}'",
                )
            elif bank_id != self.stem:
                self.problem(
                    bank_node.mark,
                    "bank",
                    "the bank id must equal the file name without .yml",
                    expected=f"'{self.stem}'",
                    found=f"'{bank_id}'",
                )
        title = self.text(root, "title", "", required=True, markdown=True)
        questions: list[model.Question] = []
        seq = self.sequence(root, "questions", "", required=True)
        if seq is not None:
            if not seq.items:
                self.problem(
                    seq.mark,
                    "questions",
                    "the bank has no questions",
                    expected="at least one question",
                    found="an empty list",
                )
            for i, item in enumerate(seq.items):
                question = self.question(item, i, bank_id or self.stem)
                if question is not None:
                    questions.append(question)
        cards: list[model.Flashcard] = []
        card_seq = self.sequence(root, "flashcards", "", required=False)
        if card_seq is not None:
            for i, item in enumerate(card_seq.items):
                card = self.flashcard(item, i, bank_id or self.stem)
                if card is not None:
                    cards.append(card)
        if bank_id is None or title is None:
            return None
        return model.Bank(bank_id, title, self.file, tuple(questions), tuple(cards))

    def check_duplicate_ids(self) -> None:
        seen: dict[str, IdUse] = {}
        for use in self.ids:
            first = seen.setdefault(use.id, use)
            if first is not use:
                self.problems.append(
                    BankProblem(
                        self.file,
                        use.mark.line,
                        use.mark.column,
                        f"duplicate id '{use.id}': already used at line {first.mark.line}",
                        question_id=use.id,
                        field="id",
                        expected="an id used once across all banks",
                        found=f"'{use.id}' twice",
                    )
                )

    def flashcard(self, node: YNode, index: int, bank: str) -> model.Flashcard | None:
        self.qid, self.prefix = None, f"flashcards[{index}]."
        try:
            if not isinstance(node, YMap):
                self.problem(
                    node.mark,
                    "",
                    "each flashcard must be a mapping with id, front and back",
                    expected="a mapping",
                    found=describe(node),
                )
                return None
            ident = self.identifier(node, "", "flashcard")
            self.qid = ident
            self.check_keys(node, "", FLASHCARD_FIELDS)
            front = self.text(node, "front", "", required=True, markdown=True)
            back = self.text(node, "back", "", required=True, markdown=True)
            tags = self.tags(node, "")
            if ident is None or front is None or back is None:
                return None
            source = model.Source(self.file, node.mark.line, node.mark.column)
            return model.Flashcard(ident, bank, front, back, source, tags)
        finally:
            self.qid, self.prefix = None, ""

    # --- questions ------------------------------------------------------------------------

    def question(self, node: YNode, index: int, bank: str) -> model.Question | None:
        self.qid, self.prefix = None, f"questions[{index}]."
        try:
            return self._question(node, bank)
        finally:
            self.qid, self.prefix = None, ""

    def _question(self, node: YNode, bank: str) -> model.Question | None:
        if not isinstance(node, YMap):
            self.problem(
                node.mark,
                "",
                "each question must be a mapping (id, type, prompt, ...)",
                expected="a mapping",
                found=describe(node),
            )
            return None
        start = len(self.problems)
        ident = self.identifier(node, "", "question")
        self.qid = ident
        qtype = self.question_type(node)
        if qtype is None:
            self.check_keys(node, "", all_question_fields())
        else:
            self.check_keys(node, "", COMMON_FIELDS + TYPE_FIELDS[qtype], _elsewhere(qtype))
        computed = qtype == "computed"
        prompt = self.text(node, "prompt", "", required=not computed, markdown=True)
        explanation = self.text(node, "explanation", "", required=not computed, markdown=True)
        hint = self.text(node, "hint", "", required=False, markdown=True)
        tags = self.tags(node, "")
        difficulty = self.integer(node, "difficulty", "", limits.DIFFICULTY)
        flashcard = self.boolean(node, "flashcard", "", True)
        figure = self.figure_ref(node)
        points, hints, attempts = self.scoring(node)
        common: dict[str, Any] = {
            "id": ident or "",
            "bank": bank,
            "prompt": prompt or "",
            "explanation": explanation or "",
            "source": model.Source(self.file, node.mark.line, node.mark.column),
            "hint": hint,
            "tags": tags,
            "difficulty": difficulty,
            "flashcard": flashcard,
            "figure": figure,
            "points": points,
            "hints": hints,
            "attempts": attempts,
        }
        built: model.Question | None = None
        if qtype == "choice":
            built = self.choice(node, common)
        elif qtype == "fill":
            built = self.fill(node, common, prompt)
        elif qtype == "matching":
            built = self.matching(node, common)
        elif qtype == "numeric":
            built = self.numeric(node, common)
        elif qtype == "computed":
            built = self.computed(node, common)
        elif qtype == "output":
            built = self.output(node, common)
        elif qtype == "ordering":
            built = self.ordering(node, common)
        return built if len(self.problems) == start else None

    def scoring(self, node: YMap) -> tuple[float, tuple[model.Hint, ...], int | None]:
        """A question's ``points`` (default 1), costed ``hints`` and ``attempts``."""
        points = 1.0
        value = node.get("points")
        if value is not None:
            number = self.number(value, "points")
            if number is not None and not 0 < number <= limits.MAX_POINTS:
                self.problem(
                    value.mark,
                    "points",
                    "out of range",
                    expected=f"a number above 0 and at most {limits.MAX_POINTS}",
                    found=_written(value),
                )
            elif number is not None:
                points = float(number)
        attempts = self.integer(node, "attempts", "", limits.ATTEMPTS)
        if "hint" in node.entries and "hints" in node.entries:
            self.problem(
                node.entries["hints"].key_mark,
                "hints",
                "give either 'hint' (one free hint) or 'hints' (a list), not both",
            )
        return points, self.hint_list(node), attempts

    def hint_list(self, node: YMap) -> tuple[model.Hint, ...]:
        seq = self.sequence(node, "hints", "", required=False)
        hints: list[model.Hint] = []
        for i, item in enumerate(seq.items if seq is not None else ()):
            path = f"hints[{i}]"
            if isinstance(item, YScalar):
                text = self.as_text(item, path, markdown=True)
                if text is not None:
                    hints.append(model.Hint(text))
                continue
            if not isinstance(item, YMap):
                self.problem(
                    item.mark,
                    path,
                    "each hint must be text or a mapping such as '- {text: ..., cost: 0.25}'",
                    expected="text or a mapping",
                    found=describe(item),
                )
                continue
            self.check_keys(item, path, HINT_FIELDS)
            text = self.text(item, "text", path, required=True, markdown=True)
            cost = 0.0
            cost_node = item.get("cost")
            if cost_node is not None:
                number = self.number(cost_node, f"{path}.cost")
                if number is not None and not 0 <= number <= 1:
                    self.problem(
                        cost_node.mark,
                        f"{path}.cost",
                        "a hint's cost is a share of the question's points",
                        expected="a number from 0 to 1",
                        found=_written(cost_node),
                    )
                elif number is not None:
                    cost = float(number)
            if text is not None:
                hints.append(model.Hint(text, cost))
        if seq is not None and not seq.items:
            self.problem(
                seq.mark,
                "hints",
                "no hints listed",
                expected="at least one hint (or leave the field out)",
                found="an empty list",
            )
        return tuple(hints)

    def ordering(self, node: YMap, common: dict[str, Any]) -> model.OrderingQuestion | None:
        """Items written in their right order, each different from the others."""
        items = self.text_list(node, "items", "", required=True, markdown=True)
        seq = node.get("items")
        if items is None or not isinstance(seq, YSeq):
            return None
        first: dict[str, int] = {}
        for j, text in enumerate(items):
            earlier = first.setdefault(_norm(text), j)
            if earlier != j and len(items) == len(seq.items):
                self.problem(
                    seq.items[j].mark,
                    f"items[{j}]",
                    f"duplicate item: the same as items[{earlier}] "
                    f"(line {seq.items[earlier].mark.line}), so two orders would be right",
                )
        if len(seq.items) < limits.MIN_ITEMS:
            self.problem(
                seq.mark,
                "items",
                "too few items to order (with two, the starting order gives the answer away)",
                expected=f"at least {limits.MIN_ITEMS}",
                found=str(len(seq.items)),
            )
        return model.OrderingQuestion(**common, items=items)

    def question_type(self, node: YMap) -> model.QuestionType | None:
        value = node.get("type")
        if value is None:
            self.missing(node, "", "type", "one of " + ", ".join(model.QUESTION_TYPES))
            return None
        qtype = self.as_text(value, "type")
        if qtype is None:
            return None
        if qtype not in model.QUESTION_TYPES:
            hint = did_you_mean(qtype, model.QUESTION_TYPES, cutoff=0.5)
            self.problem(
                value.mark,
                "type",
                f"unknown question type '{qtype}'{hint}",
                expected="one of " + ", ".join(model.QUESTION_TYPES),
                found=f"'{qtype}'",
            )
            return None
        return qtype

    def choice(self, node: YMap, common: dict[str, Any]) -> model.ChoiceQuestion | None:
        shuffle = self.boolean(node, "shuffle", "", True)
        seq = self.sequence(node, "options", "", required=True)
        if seq is None:
            return None
        options: list[model.Option] = []
        first_text: dict[str, tuple[int, Mark]] = {}
        any_correct = False
        for j, item in enumerate(seq.items):
            path = f"options[{j}]"
            if not isinstance(item, YMap):
                self.problem(
                    item.mark,
                    path,
                    "each option must be a mapping such as "
                    "'- text: ...' with optional correct, feedback and pin",
                    expected="a mapping",
                    found=describe(item),
                )
                continue
            self.check_keys(item, path, OPTION_FIELDS)
            text = self.text(item, "text", path, required=True, markdown=True)
            correct = self.boolean(item, "correct", path, False)
            any_correct = any_correct or correct
            feedback = self.text(item, "feedback", path, required=False, markdown=True)
            pin = self.boolean(item, "pin", path, False)
            if text is None:
                continue
            text_node = item.get("text")
            mark = text_node.mark if text_node is not None else item.mark
            earlier = first_text.setdefault(_norm(text), (j, mark))
            if earlier[0] != j:
                self.problem(
                    mark,
                    f"{path}.text",
                    f"duplicate option: the same text as "
                    f"options[{earlier[0]}] (line {earlier[1].line})",
                )
            options.append(model.Option(text, correct, feedback, pin))
        if len(seq.items) < limits.MIN_OPTIONS:
            self.problem(
                seq.mark,
                "options",
                "too few options",
                expected=f"at least {limits.MIN_OPTIONS}",
                found=str(len(seq.items)),
            )
        elif not any_correct:
            self.problem(
                seq.mark,
                "options",
                "no option is marked 'correct: true'",
                expected="at least one correct option",
                found="none",
            )
        return model.ChoiceQuestion(**common, options=tuple(options), shuffle=shuffle)

    def fill(
        self, node: YMap, common: dict[str, Any], prompt: str | None
    ) -> model.FillQuestion | None:
        seq = self.sequence(node, "blanks", "", required=True)
        blanks: list[model.Blank] = []
        for j, item in enumerate(seq.items if seq is not None else ()):
            blank = self.blank(item, f"blanks[{j}]")
            if blank is not None:
                blanks.append(blank)
        if prompt is not None and seq is not None:
            count = len(BLANK.findall(prompt))
            if count == 0:
                self.problem(
                    seq.mark,
                    "blanks",
                    "the prompt has no blank: write ____ (4 or "
                    "more underscores) where each answer goes",
                    expected=f"{len(seq.items)} blank(s) in the prompt",
                    found="none",
                )
            elif count != len(seq.items):
                self.problem(
                    seq.mark,
                    "blanks",
                    "the prompt's blanks (runs of 4 or more "
                    "underscores) and the 'blanks' entries do not line up",
                    expected=f"{count} entries (one per blank in the prompt)",
                    found=f"{len(seq.items)}",
                )
        return model.FillQuestion(**common, blanks=tuple(blanks))

    def blank(self, node: YNode, path: str) -> model.Blank | None:
        if not isinstance(node, YMap):
            self.problem(
                node.mark,
                path,
                "each blank must be a mapping such as '- answers: [\"2\"]' or '- answer: \"2\"'",
                expected="a mapping",
                found=describe(node),
            )
            return None
        self.check_keys(node, path, BLANK_FIELDS)
        answers = self.text_list(node, "answers", path, required=False)
        single = self.text(node, "answer", path, required=False)
        regex = self.text(node, "regex", path, required=False)
        case_sensitive = self.boolean(node, "case_sensitive", path, False)
        answers_node = node.get("answers")
        if "answers" in node.entries and "answer" in node.entries:
            self.problem(
                node.entries["answer"].key_mark,
                _join(path, "answer"),
                "give either 'answer' or 'answers', not both",
            )
        elif isinstance(answers_node, YSeq) and not answers_node.items:
            self.problem(
                answers_node.mark,
                _join(path, "answers"),
                "no accepted answer",
                expected="at least one answer",
                found="an empty list",
            )
        if isinstance(answers_node, YSeq) and answers and len(answers) == len(answers_node.items):
            self.check_duplicate_answers(answers, answers_node, path, case_sensitive)
        accepted = answers if answers else ((single,) if single is not None else ())
        if (
            "answers" not in node.entries
            and "answer" not in node.entries
            and "regex" not in node.entries
        ):
            self.problem(
                node.mark,
                path,
                "a blank needs 'answers' (or 'answer') or 'regex'",
                expected="answers or regex",
                found="neither",
            )
        if regex is not None:
            regex_node = node.get("regex")
            mark = regex_node.mark if regex_node is not None else node.mark
            # Asked before compiling: Python before 3.11 rejects possessive quantifiers
            # itself, and the message should not depend on the Python that builds.
            python_only = _PYTHON_ONLY_REGEX.search(regex)
            if python_only:
                self.problem(
                    mark,
                    _join(path, "regex"),
                    f"'{python_only.group(0)}' works in Python but not in the reader's"
                    " browser (JavaScript regular expressions); write it another way",
                )
            else:
                self.regex_accepts(regex, case_sensitive, accepted, mark, _join(path, "regex"))
        return model.Blank(tuple(a.strip() for a in accepted), regex, case_sensitive)

    def check_duplicate_answers(
        self, answers: Sequence[str], seq: YSeq, path: str, case_sensitive: bool
    ) -> None:
        """A blank's accepted answers are all different (as the blank compares them)."""
        first: dict[str, int] = {}
        for k, text in enumerate(answers):
            earlier = first.setdefault(_norm(text, case=case_sensitive), k)
            if earlier != k:
                self.problem(
                    seq.items[k].mark,
                    f"{_join(path, 'answers')}[{k}]",
                    f"duplicate answer: the same as answers[{earlier}] "
                    f"(line {seq.items[earlier].mark.line})",
                )

    def regex_accepts(
        self, regex: str, case_sensitive: bool, accepted: Sequence[str], mark: Mark, path: str
    ) -> None:
        """A blank's pattern compiles and matches each of its listed answers."""
        try:
            compiled = re.compile(regex, 0 if case_sensitive else re.IGNORECASE)
        except re.error as exc:
            self.problem(mark, path, f"invalid regular expression: {exc}")
            return
        for answer in accepted:
            if not compiled.fullmatch(answer.strip()):
                self.problem(
                    mark, path, f"the answer '{answer}' does not match this regular expression"
                )

    def matching(self, node: YMap, common: dict[str, Any]) -> model.MatchingQuestion | None:
        shuffle = self.boolean(node, "shuffle", "", True)
        seq = self.sequence(node, "pairs", "", required=True)
        pairs: list[model.Pair] = []
        seen: dict[str, dict[str, tuple[int, Mark]]] = {"left": {}, "right": {}}
        for j, item in enumerate(seq.items if seq is not None else ()):
            path = f"pairs[{j}]"
            if not isinstance(item, YMap):
                self.problem(
                    item.mark,
                    path,
                    "each pair must be a mapping with 'left' and 'right'",
                    expected="a mapping",
                    found=describe(item),
                )
                continue
            self.check_keys(item, path, PAIR_FIELDS)
            sides = {}
            for side in ("left", "right"):
                value = self.text(item, side, path, required=True, markdown=True)
                sides[side] = value
                side_node = item.get(side)
                if value is None or side_node is None:
                    continue
                earlier = seen[side].setdefault(_norm(value), (j, side_node.mark))
                if earlier[0] != j:
                    self.problem(
                        side_node.mark,
                        f"{path}.{side}",
                        f"duplicate {side} item: "
                        f"the same as pairs[{earlier[0]}].{side} "
                        f"(line {earlier[1].line})",
                    )
            if sides["left"] is not None and sides["right"] is not None:
                pairs.append(model.Pair(sides["left"], sides["right"]))
        if seq is not None and len(seq.items) < limits.MIN_PAIRS:
            self.problem(
                seq.mark,
                "pairs",
                "too few pairs",
                expected=f"at least {limits.MIN_PAIRS}",
                found=str(len(seq.items)),
            )
        distractors = self.text_list(node, "distractors", "", required=False, markdown=True) or ()
        dseq = node.get("distractors")
        for j, text in enumerate(distractors):
            mark = dseq.items[j].mark if isinstance(dseq, YSeq) else node.mark
            earlier = seen["right"].setdefault(_norm(text), (-1 - j, mark))
            if earlier[0] != -1 - j:
                what = (
                    f"pairs[{earlier[0]}].right"
                    if earlier[0] >= 0
                    else f"distractors[{-1 - earlier[0]}]"
                )
                self.problem(
                    mark,
                    f"distractors[{j}]",
                    f"duplicate right-hand item: the same as {what} (line {earlier[1].line})",
                )
        return model.MatchingQuestion(
            **common, pairs=tuple(pairs), distractors=tuple(distractors), shuffle=shuffle
        )

    def numeric(self, node: YMap, common: dict[str, Any]) -> model.NumericQuestion | None:
        answer_node = node.get("answer")
        answer: float | None = None
        if answer_node is None:
            self.missing(node, "", "answer", "a number")
        else:
            answer = self.number(answer_node, "answer")
            if answer is not None and not math.isfinite(answer):
                self.problem(
                    answer_node.mark,
                    "answer",
                    "the answer must be a finite number",
                    expected="a finite number",
                    found=_written(answer_node),
                )
                answer = None
        tolerances: dict[str, float] = {}
        for key in ("tolerance", "relative_tolerance"):
            value_node = node.get(key)
            if value_node is None:
                continue
            value = self.number(value_node, key)
            if value is None:
                continue
            if not math.isfinite(value) or value < 0:
                self.problem(
                    value_node.mark,
                    key,
                    "a tolerance must be zero or positive",
                    expected="a finite number >= 0",
                    found=_written(value_node),
                )
                continue
            tolerances[key] = value
        relative = "relative_tolerance" in node.entries
        if "tolerance" in node.entries and relative:
            self.problem(
                node.entries["relative_tolerance"].key_mark,
                "relative_tolerance",
                "give either 'tolerance' (absolute) or 'relative_tolerance', not both",
            )
        tolerance = tolerances.get("relative_tolerance" if relative else "tolerance", 0.0)
        decimals = self.integer(node, "decimals", "", limits.DECIMALS)
        unit = self.text(node, "unit", "", required=False, markdown=True)
        both = "tolerance" in node.entries and relative
        key = "relative_tolerance" if relative else "tolerance"
        usable = not both and (key in tolerances or key not in node.entries)
        if answer is not None and relative and answer == 0:
            self.problem(
                node.entries["relative_tolerance"].key_mark,
                "relative_tolerance",
                "a relative tolerance cannot work when the answer is 0; use 'tolerance'",
            )
        elif answer is not None and decimals is not None and usable:
            self.check_rounding(node, answer, decimals, tolerance, relative)
        return model.NumericQuestion(
            **common,
            answer=float(answer or 0.0),
            tolerance=float(tolerance),
            relative=relative,
            unit=unit,
            decimals=decimals,
        )

    def check_rounding(
        self, node: YMap, answer: float, decimals: int, tolerance: float, relative: bool
    ) -> None:
        """The tolerance must admit the answer rounded half-up to ``decimals`` (as a reader
        rounds it)."""
        try:
            with localcontext() as ctx:
                ctx.prec = 400
                rounded = float(
                    Decimal(repr(answer)).quantize(
                        Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP
                    )
                )
        except (InvalidOperation, OverflowError, ValueError):
            return
        gap = abs(rounded - answer)
        allowed = tolerance * abs(answer) if relative else tolerance
        if gap <= allowed + 1e-12 * max(1.0, abs(answer)):
            return
        key = "relative_tolerance" if relative else "tolerance"
        need = gap / abs(answer) if relative else gap
        mark = node.entries[key].value.mark if key in node.entries else node.mark
        self.problem(
            mark,
            key,
            f"{key} {_num(tolerance)} does not admit {rounded:.{decimals}f}, the answer "
            f"{_num(answer)} rounded to {decimals} decimals; use at least {_num(need)}",
            expected=f"{key} >= {_num(need)}",
            found=_num(tolerance),
        )

    def output(self, node: YMap, common: dict[str, Any]) -> model.OutputQuestion | None:
        """An output question. Its example program is run (:func:`program_runner`) and what it
        prints is the expected output; a failure is reported at the program's own line."""
        tolerance = model.OUTPUT_TOLERANCE
        tolerance_node = node.get("tolerance")
        if tolerance_node is not None:
            number = self.number(tolerance_node, "tolerance")
            if number is not None and (not math.isfinite(number) or number < 0):
                self.problem(
                    tolerance_node.mark,
                    "tolerance",
                    "a tolerance must be zero or positive",
                    expected="a finite number >= 0",
                    found=_written(tolerance_node),
                )
            elif number is not None:
                tolerance = number
        solution = self.text(node, "solution", "", required=True)
        value = node.get("solution")
        if solution is None or not isinstance(value, YScalar):
            return None
        if value.style == ">":
            self.problem(
                value.mark,
                "solution",
                "a folded block joins the program's lines",
                expected="a literal block ('solution: |')",
                found="a folded block ('solution: >')",
            )
            return None
        if len(solution) > MAX_PROGRAM_CHARS:
            self.problem(
                value.mark,
                "solution",
                "the example solution is too long to show",
                expected=f"at most {MAX_PROGRAM_CHARS:,} characters",
                found=f"{len(solution):,}",
            )
            return None
        try:
            expected = program_runner()(solution)
        except ProgramError as exc:
            self.problem(
                self.program_mark(value, exc.line),
                "solution",
                f"the example solution failed{f' at its line {exc.line}' if exc.line else ''}: "
                f"{exc.message}",
            )
            return None
        if not expected.strip():
            self.problem(
                value.mark,
                "solution",
                "the example solution printed nothing: an output question checks what a "
                "program prints",
            )
            return None
        return model.OutputQuestion(
            **common, solution=solution, expected=expected, tolerance=tolerance
        )

    def program_mark(self, value: YScalar, line: int | None) -> Mark:
        """Where line ``line`` of a program written as ``value`` is in the file: its own line
        in a literal block, the value's start otherwise."""
        if line is None or value.style != "|":
            return value.mark
        number = value.mark.line + line
        source = self.lines[number - 1] if number - 1 < len(self.lines) else ""
        return Mark(number, len(source) - len(source.lstrip(" ")) + 1)

    def computed(self, node: YMap, common: dict[str, Any]) -> model.ComputedQuestion | None:
        if "formula" in node.entries:
            return self.formula_question(node, common)
        start = len(self.problems)
        generator = self.text(node, "generator", "", required=False)
        if generator is None and "generator" not in node.entries:
            self.missing(node, "", "generator", "a generator's name (or a formula)")
        for key in FORMULA_ONLY_FIELDS:
            if key in node.entries:
                self.problem(
                    node.entries[key].key_mark,
                    key,
                    f"'{key}' is for formula questions (with 'formula:'); the generator "
                    f"{generator or ''} gives its own".replace("  ", " "),
                )
        params = self.computed_params(node)
        answer = self.computed_answer(node)
        options = self.computed_options(node, answer)
        decimals = self.integer(node, "decimals", "", limits.DECIMALS)
        if generator is not None and len(self.problems) == start:
            self.run_computed_check(node, generator, params, answer, decimals, options or 4)
        question = model.ComputedQuestion(
            **common,
            generator=generator or "",
            params=params,
            answer=answer,
            decimals=decimals,
            options=options or 4,
        )
        if question.prompt and len(self.problems) == start:
            self.check_prompt_template(node, question)
        return question

    def computed_params(self, node: YMap) -> dict[str, model.ParamConstraint]:
        params: dict[str, model.ParamConstraint] = {}
        params_node = node.get("params")
        if params_node is not None:
            if isinstance(params_node, YMap):
                for name, entry in params_node.entries.items():
                    constraint = self.constraint(entry.value, f"params.{name}")
                    if constraint is not None:
                        params[name] = constraint
            else:
                self.problem(
                    params_node.mark,
                    "params",
                    "wrong type",
                    expected="a mapping of parameter names to values",
                    found=describe(params_node),
                )
        return params

    def computed_answer(self, node: YMap) -> model.ComputedAnswer:
        answer_text = self.text(node, "answer", "", required=False) or "numeric"
        if answer_text not in model.COMPUTED_ANSWERS:
            answer_node = node.get("answer")
            mark = answer_node.mark if answer_node is not None else node.mark
            self.problem(
                mark,
                "answer",
                "unknown answer form",
                expected="numeric or choice",
                found=f"'{answer_text}'",
            )
            answer_text = "numeric"
        return cast(model.ComputedAnswer, answer_text)

    def computed_options(self, node: YMap, answer: model.ComputedAnswer) -> int | None:
        options = self.integer(node, "options", "", limits.COMPUTED_OPTIONS)
        if options is not None and answer != "choice":
            self.problem(
                node.entries["options"].key_mark,
                "options",
                "'options' only applies with 'answer: choice'",
            )
        return options

    def formula_question(self, node: YMap, common: dict[str, Any]) -> model.ComputedQuestion | None:
        """A computed question with its own ``formula``, ``params`` and ``misconceptions``
        (:mod:`konum.computed.formula`), its formulas checked on many drawn variants."""
        start = len(self.problems)
        formula = self.text(node, "formula", "", required=True)
        if "generator" in node.entries:
            self.problem(
                node.entries["generator"].key_mark,
                "generator",
                "give either 'generator' or 'formula', not both",
            )
        if "params" not in node.entries:
            self.missing(node, "", "params", "a mapping of the formula's names to ranges or values")
        if not common["prompt"]:
            wanted = "text that shows the drawn values as {{ name }}"
            prompt_node = node.get("prompt")
            if prompt_node is None:
                self.missing(node, "", "prompt", wanted)
            else:
                self.problem(
                    prompt_node.mark, "prompt", "is empty", expected=wanted, found="nothing"
                )
        params = self.computed_params(node)
        answer = self.computed_answer(node)
        options = self.computed_options(node, answer)
        decimals = self.integer(node, "decimals", "", limits.DECIMALS)
        unit = self.text(node, "unit", "", required=False, markdown=True)
        tolerance = self.formula_tolerance(node, decimals)
        misconceptions = self.formula_misconceptions(node)
        wrong = len(misconceptions)
        if answer == "choice" and "misconceptions" not in node.entries:
            self.missing(
                node, "", "misconceptions", "wrong formulas, whose values are the wrong options"
            )
        high = limits.COMPUTED_OPTIONS[1]
        if answer == "choice" and options is not None and wrong and options > wrong + 1:
            self.problem(
                node.entries["options"].value.mark,
                "options",
                f"{wrong} misconception{'s' if wrong != 1 else ''} give at most {wrong + 1} "
                "options (the answer and one per misconception)",
                expected=f"at most {wrong + 1}",
                found=str(options),
            )
        question = model.ComputedQuestion(
            **common,
            params=params,
            answer=answer,
            decimals=decimals,
            options=options or max(2, min(high, wrong + 1)),
            formula=formula,
            misconceptions=misconceptions,
            unit=unit,
            tolerance=tolerance,
        )
        if formula is not None and len(self.problems) == start:
            self.run_formula_check(node, question)
        if len(self.problems) == start:
            self.check_prompt_template(node, question)
        return question

    def formula_tolerance(self, node: YMap, decimals: int | None) -> float | None:
        value_node = node.get("tolerance")
        if value_node is None:
            return None
        value = self.number(value_node, "tolerance")
        if value is None:
            return None
        if not math.isfinite(value) or value < 0:
            self.problem(
                value_node.mark,
                "tolerance",
                "a tolerance must be zero or positive",
                expected="a finite number >= 0",
                found=_written(value_node),
            )
            return None
        places = model.FORMULA_DECIMALS if decimals is None else decimals
        half = 0.5 * 10.0**-places
        if value < half * (1 - 1e-9):
            self.problem(
                value_node.mark,
                "tolerance",
                f"tolerance {_num(value)} is less than half a unit of the last of {places} "
                "decimals, so an answer rounded correctly could be refused",
                expected=f"tolerance >= {_num(half)}",
                found=_num(value),
            )
            return None
        return value

    def formula_misconceptions(self, node: YMap) -> tuple[model.FormulaMisconception, ...]:
        seq = self.sequence(node, "misconceptions", "", required=False)
        found: list[model.FormulaMisconception] = []
        for i, item in enumerate(seq.items if seq is not None else ()):
            path = f"misconceptions[{i}]"
            if not isinstance(item, YMap):
                self.problem(
                    item.mark,
                    path,
                    "each misconception must be a mapping such as "
                    "'- formula: m / a' with 'feedback: ...'",
                    expected="a mapping",
                    found=describe(item),
                )
                continue
            self.check_keys(item, path, MISCONCEPTION_FIELDS)
            formula = self.text(item, "formula", path, required=True)
            feedback = self.text(item, "feedback", path, required=True, markdown=True)
            if formula is not None and feedback is not None:
                found.append(model.FormulaMisconception(formula, feedback))
        if seq is not None and not seq.items:
            self.problem(
                seq.mark,
                "misconceptions",
                "no misconceptions listed",
                expected="at least one wrong formula (or leave the field out)",
                found="an empty list",
            )
        return tuple(found)

    def run_formula_check(self, node: YMap, question: model.ComputedQuestion) -> None:
        """The formulas parse and hold on many drawn variants (see
        :func:`konum.computed.formula.check_formula`); problems at the formula's column."""
        if computed_validator() is None:  # no computed package: nothing to evaluate with
            return
        from konum.computed.formula import check_formula

        try:
            found = check_formula(question)
        except Exception as exc:  # a bug in the checker must still not hide the bank
            self.problem(
                node.mark, "formula", f"the formula check failed ({type(exc).__name__}: {exc})"
            )
            return
        for problem in found:
            target, whole = self.walk(node, problem.field)
            mark = target.mark
            if problem.offset is not None and whole and isinstance(target, YScalar):
                mark = self.inside(target, problem.offset)
            self.problem(mark, problem.field, problem.message)

    def inside(self, scalar: YScalar, offset: int) -> Mark:
        """The position of character ``offset`` of a one-line plain or quoted scalar
        (a block scalar's problems stay at its start)."""
        if scalar.style not in (None, '"', "'") or "\n" in str(scalar.value):
            return scalar.mark
        return Mark(scalar.mark.line, scalar.mark.column + offset + (1 if scalar.style else 0))

    def figure_ref(self, node: YMap) -> model.FigureRef | None:
        """The optional ``figure`` of a question: a catalogued figure, its alt text, an
        optional caption and parameters, checked by computing the figure's data."""
        fig = node.get("figure")
        if fig is None:
            return None
        if not isinstance(fig, YMap):
            self.problem(
                fig.mark,
                "figure",
                "wrong type",
                expected="a mapping with name, alt, caption and params",
                found=describe(fig),
            )
            return None
        self.check_keys(fig, "figure", FIGURE_FIELDS)
        name = self.text(fig, "name", "figure", required=True)
        alt = self.text(fig, "alt", "figure", required=True)
        caption = self.text(fig, "caption", "figure", required=False)
        params: dict[str, object] = {}
        params_node = fig.get("params")
        if isinstance(params_node, YMap):
            if self.large_numbers(params_node, "figure.params"):
                return None
            params = {key: _plain(entry.value) for key, entry in params_node.entries.items()}
        elif params_node is not None:
            self.problem(
                params_node.mark,
                "figure.params",
                "wrong type",
                expected="a mapping of parameter names to values",
                found=describe(params_node),
            )
        if name is None or alt is None:
            return None
        from konum.figures import FigureError, figure_data

        try:
            figure_data(name, **params)
        except FigureError as exc:
            where = fig.get("params") if "parameter" in str(exc) else fig.get("name")
            self.problem((where or fig).mark, "figure", str(exc))
            return None
        return model.FigureRef(name, alt, caption, params)

    def check_prompt_template(self, node: YMap, question: model.ComputedQuestion) -> None:
        """Render an author's prompt template once, so a misspelt value is a bank problem
        (at the prompt's line) instead of a failure in the middle of a site build."""
        if computed_validator() is None:  # no generators to draw from: nothing to render
            return
        from konum.computed.variants import PromptTemplateError, computed_variants

        prompt = node.get("prompt")
        try:
            (variant,) = computed_variants(question, 0, 1)
            for issue in htmlcheck.scan_generated(question.prompt, variant.prompt):
                message = f"{issue.message} (in the text the template wrote)"
                self.problem(prompt.mark if prompt is not None else node.mark, "prompt", message)
        except PromptTemplateError as exc:
            self.problem(prompt.mark if prompt is not None else node.mark, "prompt", str(exc))
        except Exception as exc:  # a generator failure must still not hide the bank
            field = "formula" if question.formula is not None else "generator"
            self.problem(
                node.mark, field, f"drawing a variant failed ({type(exc).__name__}: {exc})"
            )

    def constraint(self, node: YNode, path: str) -> model.ParamConstraint | None:
        if isinstance(node, YMap):
            self.check_keys(node, path, RANGE_FIELDS)
            bounds: dict[str, float] = {}
            for key in RANGE_FIELDS:
                value_node = node.get(key)
                if value_node is None:
                    if key != "step":
                        self.missing(node, path, key, "a number")
                    continue
                value = self.number(value_node, f"{path}.{key}")
                if value is not None and not math.isfinite(value):
                    self.problem(
                        value_node.mark,
                        f"{path}.{key}",
                        "not a finite number",
                        expected="a finite number",
                        found=_written(value_node),
                    )
                elif value is not None:
                    bounds[key] = value
            if "step" in bounds and bounds["step"] <= 0:
                self.problem(
                    node.entries["step"].value.mark,
                    f"{path}.step",
                    "the step must be positive",
                    expected="a number > 0",
                    found=_num(bounds["step"]),
                )
                return None
            if "min" not in bounds or "max" not in bounds:
                return None
            if bounds["min"] > bounds["max"]:
                self.problem(
                    node.mark,
                    path,
                    "min is larger than max",
                    expected="min <= max",
                    found=f"min {_num(bounds['min'])}, max {_num(bounds['max'])}",
                )
                return None
            return model.Range(bounds["min"], bounds["max"], bounds.get("step"))
        items = node.items if isinstance(node, YSeq) else [node]
        if isinstance(node, YSeq) and not items:
            self.problem(
                node.mark,
                path,
                "no values to choose from",
                expected="at least one value",
                found="an empty list",
            )
            return None
        values: list[object] = []
        for i, item in enumerate(items):
            where = f"{path}[{i}]" if isinstance(node, YSeq) else path
            if not isinstance(item, YScalar) or item.value is None:
                self.problem(
                    item.mark,
                    where,
                    "wrong type",
                    expected="a number, true/false or text",
                    found=describe(item),
                )
                continue
            raw = item.value
            if isinstance(raw, str) and item.style is None and _NUMBER_TEXT.fullmatch(raw):
                raw = float(raw.replace("_", ""))  # YAML 1.1 reads a plain 1.5e4 as text
            if self.too_large(item, where, raw):
                continue
            values.append(raw)
        if len(values) != len(items):
            return None
        return model.Choices(tuple(values))

    def run_computed_check(
        self,
        node: YMap,
        generator: str,
        params: Mapping[str, model.ParamConstraint],
        answer: str,
        decimals: int | None,
        options: int,
    ) -> None:
        check = computed_validator()
        if check is None:
            return
        try:
            found = check(generator, params, answer, decimals, options)
        except Exception as exc:  # the generator's own bug must still not hide the bank
            self.problem(
                node.mark, "generator", f"the generator check failed ({type(exc).__name__}: {exc})"
            )
            return
        for path, message in found:
            self.problem(self.resolve(node, path), path, message)

    def resolve(self, node: YMap, path: str) -> Mark:
        """The mark of the deepest node that ``path`` (``params.d``, ``x[1].y``) reaches."""
        return self.walk(node, path)[0].mark

    def walk(self, node: YMap, path: str) -> tuple[YNode, bool]:
        """The deepest node that ``path`` reaches, and whether it reached all of it."""
        current: YNode = node
        for part in re.findall(r"[^.\[\]]+|\[\d+\]", path):
            nxt: YNode | None = None
            if part.startswith("[") and isinstance(current, YSeq):
                index = int(part[1:-1])
                nxt = current.items[index] if index < len(current.items) else None
            elif isinstance(current, YMap):
                nxt = current.get(part)
            if nxt is None:
                return current, False
            current = nxt
        return current, True
