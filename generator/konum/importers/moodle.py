"""Moodle XML (Moodle's own question export format) read into drafts.

The format is Moodle's "Moodle XML format" documentation page: a ``<quiz>`` of
``<question type="...">`` elements; ``category`` entries set the category of those after
them. Read here: ``multichoice`` (one or several right answers, fractions as partial credit),
``truefalse``, ``shortanswer`` (a fill-in blank, ``*`` as a wildcard), ``numerical`` (with
its tolerance and unit), ``matching`` (a subquestion with no text is an extra right-hand
item), ``ordering`` (the plugin's answers in their right order), ``calculated``,
``calculatedsimple`` (formula questions) and ``calculatedmulti`` (a formula question answered
by choice). Files embedded in a text (``@@PLUGINFILE@@/name``) are written beside the bank.
Anything else (essay, description, cloze, drag and drop, random short-answer matching) is left
out and listed by name and line.
"""

from __future__ import annotations

import ast
import base64
import binascii
import re
from pathlib import Path
from typing import Any

from konum.importers.markdown import plain, to_markdown
from konum.importers.model import UNEQUAL_SHARES, Draft, Found, Left, SourceError, no_credit
from konum.importers.xmltree import Node, read_xml

_PLUGINFILE = "@@PLUGINFILE@@/"
#: Moodle's formula functions and konum's names for them (konum.computed.expression).
_FUNCTIONS = {
    "abs": "abs",
    "ceil": "ceil",
    "floor": "floor",
    "round": "round",
    "sqrt": "sqrt",
    "exp": "exp",
    "log": "log",
    "log10": "log10",
    "sin": "sin",
    "cos": "cos",
    "tan": "tan",
    "asin": "arcsin",
    "acos": "arccos",
    "atan": "arctan",
    "atan2": "arctan2",
    "sinh": "sinh",
    "cosh": "cosh",
    "tanh": "tanh",
    "min": "min",
    "max": "max",
    "deg2rad": "radians",
    "rad2deg": "degrees",
}
#: Moodle question types konum has no type for, said in the reason for leaving them out.
_NOT_HELD = {
    "essay": "an essay is graded by a person, and konum checks answers in the browser",
    "description": "a description is text, not a question (put it in the page)",
    "randomsamatch": "random short-answer matching draws from other questions at quiz time",
    "ddwtos": "drag and drop into text has no konum type",
    "ddimageortext": "drag and drop onto an image has no konum type",
    "ddmarker": "drag and drop markers have no konum type",
    "gapselect": "select missing words has no konum type",
}


def read_moodle(path: Path) -> Found:
    """The questions of the Moodle XML file at ``path``.

    Raises:
        SourceError: the file is not Moodle XML (not XML, or no ``<quiz>``).
    """
    root = read_xml(path)
    if root.tag != "quiz":
        raise SourceError(
            f"{path}:{root.line}: a Moodle XML file starts with <quiz>, not <{root.tag}>"
        )
    found, category = Found(), ""
    for node in root.findall("question"):
        kind = node.attrs.get("type", "")
        if kind == "category":
            category = _category(node.value("category"))
            found.title = found.title or category.rsplit("/", 1)[-1]
            continue
        name = plain(node.value("name")) or f"question {node.line}"
        reader = _READERS.get(kind)
        if reader is None:
            why = _NOT_HELD.get(kind, f"Moodle's question type '{kind}' has no konum type")
            found.left.append(Left(str(path), name, node.line, why))
            continue
        draft = Draft(name, node.line, {}, category=category)
        files = _files(node)
        try:
            reader(node, draft, _Text(files, found))
        except _Unheld as exc:
            found.left.append(Left(str(path), name, node.line, str(exc)))
            continue
        _common(node, draft, _Text(files, found))
        found.drafts.append(draft)
    return found


class _Unheld(Exception):
    """This question cannot be held by konum: the message says why."""


class _Text:
    """Turns a question's HTML into Markdown, its embedded files into files beside the bank."""

    def __init__(self, files: dict[str, bytes], found: Found) -> None:
        self.files, self.found = files, found

    def __call__(self, node: Node | None, *, line: bool = False) -> str:
        if node is None:
            return ""
        inner = node.find("text")
        text = (inner.text if inner is not None else node.text).strip()
        if node.attrs.get("format") == "markdown":
            return text
        return plain(text) if line else to_markdown(text, image=self.image)

    def image(self, src: str, alt: str) -> tuple[str, str]:
        if src.startswith(_PLUGINFILE):
            name = Path(src[len(_PLUGINFILE) :].split("?")[0]).name
            if name in self.files:
                self.found.files[name] = self.files[name]
                src = f"images/{name}"
        return src, alt or Path(src).stem.replace("-", " ").replace("_", " ")


def _category(path: str) -> str:
    """``$course$/top/Physics/Circuits`` as ``Physics/Circuits``."""
    parts = [p for p in path.split("/") if p and not p.startswith("$")]
    return "/".join(parts[1:] if parts[:1] == ["top"] else parts)


def _files(node: Node) -> dict[str, bytes]:
    """Every base64 ``<file>`` inside ``node``, by its name."""
    files: dict[str, bytes] = {}
    stack = [node]
    while stack:
        current = stack.pop()
        stack.extend(current.children)
        if current.tag == "file" and current.attrs.get("encoding") == "base64":
            try:
                files[current.attrs.get("name", "")] = base64.b64decode(
                    current.text, validate=False
                )
            except (binascii.Error, ValueError):
                continue
    return files


def _fraction(answer: Node) -> float:
    try:
        return float(answer.attrs.get("fraction", "0"))
    except ValueError:
        return 0.0


def _number(text: str, what: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise _Unheld(f"its {what} '{text}' is not a number") from None


def _common(node: Node, draft: Draft, text: _Text) -> None:
    """The fields every type has: explanation, points, hints, tags."""
    explanation = text(node.find("generalfeedback"))
    if explanation:
        draft.fields["explanation"] = explanation
    elif draft.fields.get("type") != "computed":
        draft.fields["explanation"] = draft.fields.pop("_answer_said", "")
        draft.notes.append(
            "the source has no general feedback: the explanation only states the answer; say why"
        )
    draft.fields.pop("_answer_said", None)
    grade = node.value("defaultgrade", default="1")
    try:
        points = float(grade)
    except ValueError:
        points = 1.0
    if 0 < points <= 100 and points != 1:
        draft.fields["points"] = int(points) if points.is_integer() else points
    elif not 0 < points <= 100:
        draft.notes.append(
            f"its grade {grade} is outside konum's points (above 0, at most 100): 1 point"
        )
    hints = [text(h) for h in node.findall("hint")]
    hints = [h for h in hints if h]
    if len(hints) == 1:
        draft.fields["hint"] = hints[0]
    elif hints:
        draft.fields["hints"] = hints
    tags = [t.value("text") for t in (node.find("tags") or Node("tags", {}, 0)).findall("tag")]
    if tags:
        draft.fields["tags"] = tags
    idnumber = node.value("idnumber")
    if idnumber.startswith("konum:"):
        draft.name = idnumber[len("konum:") :]


def _choice(node: Node, draft: Draft, text: _Text) -> None:
    answers = list(node.findall("answer"))
    single = node.value("single", default="true").lower() in ("true", "1")
    options, rights = [], []
    for answer in answers:
        fraction = _fraction(answer)
        option: dict[str, Any] = {"text": text(answer)}
        right = fraction >= 99.99 if single else fraction > 0
        if right:
            option["correct"] = True
            rights.append(fraction)
        elif single and fraction > 0:
            draft.notes.append(no_credit(option["text"], fraction, "Moodle"))
        feedback = text(answer.find("feedback"))
        if feedback:
            option["feedback"] = feedback
        options.append(option)
    if not rights:
        raise _Unheld("no answer earns full marks")
    if not single and any(abs(f - 100 / len(rights)) > 0.5 for f in rights):
        draft.notes.append(UNEQUAL_SHARES)
    if not single and any(
        -100 < _fraction(a) < 0 and abs(_fraction(a) + 100 / len(rights)) > 0.5 for a in answers
    ):
        draft.notes.append(
            "a wrong tick takes one right option's share here, whatever Moodle's penalty was"
        )
    draft.fields.update(type="choice", prompt=text(node.find("questiontext")), options=options)
    if node.value("shuffleanswers", default="1") in ("0", "false"):
        draft.fields["shuffle"] = False
    draft.fields["_answer_said"] = "; ".join(o["text"] for o in options if o.get("correct")) + "."


def _truefalse(node: Node, draft: Draft, text: _Text) -> None:
    options = []
    for answer in node.findall("answer"):
        option: dict[str, Any] = {"text": plain(answer.value("text")).capitalize()}
        if _fraction(answer) >= 99.99:
            option["correct"] = True
        feedback = text(answer.find("feedback"))
        if feedback:
            option["feedback"] = feedback
        options.append(option)
    if sum(bool(o.get("correct")) for o in options) != 1:
        raise _Unheld("a true/false question needs exactly one of its answers at 100%")
    draft.fields.update(
        type="choice", prompt=text(node.find("questiontext")), options=options, shuffle=False
    )
    draft.fields["_answer_said"] = next(o["text"] for o in options if o.get("correct")) + "."


_BLANK = re.compile(r"_{4,}")


def _literal(text: str) -> str:
    """``text`` as a regular expression matching itself (spaces left as they are)."""
    return re.sub(r"([.^$*+?{}\[\]\\|()])", r"\\\1", text)


def _wildcard(answer: str) -> str:
    """A short answer with Moodle's ``*`` wildcard as a regular expression."""
    return ".*".join(_literal(part) for part in answer.split("*"))


def _shortanswer(node: Node, draft: Draft, text: _Text) -> None:
    prompt = text(node.find("questiontext"))
    answers, patterns = [], []
    for answer in node.findall("answer"):
        value = plain(answer.value("text"))
        fraction = _fraction(answer)
        if fraction < 99.99:
            if fraction > 0:
                draft.notes.append(
                    f"'{value}' earned {fraction:g}% in Moodle: here it is not accepted"
                )
            continue
        if "*" in value:
            patterns.append(_wildcard(value))
        else:
            answers.append(value)
    if not answers and not patterns:
        raise _Unheld("no answer earns full marks")
    if patterns and answers:
        patterns += [_literal(a) for a in answers]
    blank: dict[str, Any] = (
        {"regex": "|".join(f"(?:{p})" for p in patterns)} if patterns else {"answers": answers}
    )
    if node.value("usecase", default="0") == "1":
        blank["case_sensitive"] = True
    blanks = _BLANK.findall(prompt)
    if len(blanks) > 1:
        raise _Unheld("its text has several blanks (____) but a short answer has one answer")
    if not blanks:
        prompt = f"{prompt}\n\n____"
    draft.fields.update(type="fill", prompt=prompt, blanks=[blank])
    draft.fields["_answer_said"] = (answers or patterns)[0] + "."


#: An embedded answer (Moodle's Cloze syntax): ``{weight:TYPE:answers}``.
_CLOZE = re.compile(r"\{(\d*):([A-Z_]+):((?:\\.|[^}\\])*)\}")
_CLOZE_TEXT = ("SHORTANSWER", "SA", "MW", "SHORTANSWER_C", "SAC", "MWC")


def _cloze_answers(kind: str, body: str, draft: Draft) -> dict[str, Any]:
    """One embedded answer as a blank: its full-marks answers (``=`` or ``%100%``)."""
    answers = []
    for piece in re.split(r"(?<!\\)~", body):
        right = piece.startswith("=") or piece.startswith("%100%")
        piece = re.sub(r"^(=|%-?\d+(?:\.\d+)?%)", "", piece)
        piece = re.split(r"(?<!\\)#", piece)[0]
        value = re.sub(r"\\(.)", r"\1", plain(piece)).strip()
        if kind in ("NUMERICAL", "NM"):
            value, _, tolerance = value.partition(":")
            if tolerance.strip() and _number(tolerance, "tolerance") != 0:
                raise _Unheld("an embedded number with a tolerance has no konum blank")
        if right and value:
            answers.append(value)
        elif value:
            draft.notes.append(
                f"'{value}' did not earn full marks in Moodle: here it is not accepted"
            )
    if not answers:
        raise _Unheld("an embedded answer has no answer at full marks")
    blank: dict[str, Any] = {"answers": answers}
    if kind.endswith("C"):
        blank["case_sensitive"] = True
    return blank


def _cloze(node: Node, draft: Draft, text: _Text) -> None:
    question = node.find("questiontext")
    inner = question.find("text") if question else None
    source = (inner.text if inner is not None else question.text if question else "").strip()
    blanks: list[dict[str, Any]] = []

    def blank(match: re.Match[str]) -> str:
        kind = match.group(2)
        if kind not in (*_CLOZE_TEXT, "NUMERICAL", "NM"):
            raise _Unheld(
                f"an embedded {kind.lower()} answer has no konum type (konum's blanks are typed)"
            )
        blanks.append(_cloze_answers(kind, match.group(3), draft))
        return "____"

    prompt = to_markdown(_CLOZE.sub(blank, source), image=text.image)
    if not blanks:
        raise _Unheld("embedded answers (Cloze) with no answer in {...}")
    draft.fields.update(type="fill", prompt=prompt, blanks=blanks)
    draft.fields["_answer_said"] = "; ".join(b["answers"][0] for b in blanks) + "."


def _numerical(node: Node, draft: Draft, text: _Text) -> None:
    right = [
        a for a in node.findall("answer") if _fraction(a) >= 99.99 and plain(a.value("text")) != "*"
    ]
    if not right:
        raise _Unheld("no numeric answer earns full marks")
    answer = right[0]
    value = _number(plain(answer.value("text")), "answer")
    tolerance = _number(answer.value("tolerance", default="0") or "0", "tolerance")
    if len(right) > 1:
        draft.notes.append("Moodle accepted several numbers at 100%: only the first is kept")
    for other in node.findall("answer"):
        if 0 < _fraction(other) < 99.99:
            draft.notes.append(no_credit(plain(other.value("text")), _fraction(other), "Moodle"))
    draft.fields.update(type="numeric", prompt=text(node.find("questiontext")), answer=_tidy(value))
    if tolerance:
        draft.fields["tolerance"] = _tidy(abs(tolerance))
    unit = _unit(node)
    if unit:
        draft.fields["unit"] = unit
    draft.fields["_answer_said"] = f"{_tidy(value)}{' ' + unit if unit else ''}."


def _unit(node: Node) -> str:
    units = node.find("units")
    for unit in units.findall("unit") if units else ():
        if unit.value("multiplier", default="1") in ("1", "1.0", "1.0000000"):
            return plain(unit.value("unit_name"))
    return ""


def _tidy(value: float) -> int | float:
    return int(value) if float(value).is_integer() and abs(value) < 2**53 else value


def _matching(node: Node, draft: Draft, text: _Text) -> None:
    pairs, distractors = [], []
    for sub in node.findall("subquestion"):
        right = plain(sub.value("answer"))
        left = text(sub)
        if left:
            pairs.append({"left": left, "right": right})
        elif right:
            distractors.append(right)
    if len(pairs) < 2:
        raise _Unheld("a matching question needs at least two pairs")
    draft.fields.update(type="matching", prompt=text(node.find("questiontext")), pairs=pairs)
    if distractors:
        draft.fields["distractors"] = distractors
    if node.value("shuffleanswers", default="1") in ("0", "false"):
        draft.fields["shuffle"] = False
    draft.fields["_answer_said"] = "; ".join(f"{p['left']}: {p['right']}" for p in pairs) + "."


def _ordering(node: Node, draft: Draft, text: _Text) -> None:
    answers = sorted(node.findall("answer"), key=_fraction)
    items = [text(a) for a in answers]
    if len(items) < 3:
        raise _Unheld("an ordering question needs at least three items")
    draft.fields.update(type="ordering", prompt=text(node.find("questiontext")), items=items)
    draft.fields["_answer_said"] = "; ".join(items) + "."


def formula(moodle: str) -> str:
    """A Moodle formula (``{x} * pow({y}, 2)``) as a konum formula (``x * y**2``).

    Raises:
        _Unheld: it uses a function konum's formulas lack, or is not a formula.
    """
    source = moodle.strip()
    if source.startswith("{=") and source.endswith("}"):  # calculatedmulti's answers
        source = source[2:-1]
    source = re.sub(r"\{([A-Za-z_]\w*)\}", r"\1", source)
    source = re.sub(r"\bpi\(\s*\)", "pi", source)
    try:
        tree = ast.parse(source, mode="eval")
    except SyntaxError:
        raise _Unheld(f"its formula '{moodle}' could not be read") from None

    class Rename(ast.NodeTransformer):
        def visit_Call(self, call: ast.Call) -> ast.AST:  # ast's name
            self.generic_visit(call)
            name = call.func.id if isinstance(call.func, ast.Name) else ""
            if name == "pow" and len(call.args) == 2:
                return ast.BinOp(call.args[0], ast.Pow(), call.args[1])
            if name not in _FUNCTIONS:
                raise _Unheld(
                    f"its formula uses {name or 'a call'}(), which konum's formulas do not have"
                )
            call.func = ast.Name(_FUNCTIONS[name], ast.Load())
            return call

    return ast.unparse(Rename().visit(tree))


def _calculated(node: Node, draft: Draft, text: _Text) -> None:
    answers = sorted(node.findall("answer"), key=_fraction, reverse=True)
    if not answers or _fraction(answers[0]) < 99.99:
        raise _Unheld("no answer formula earns full marks")
    right = answers[0]
    params: dict[str, Any] = {}
    sets = node.find("dataset_definitions")
    for dataset in sets.findall("dataset_definition") if sets else ():
        name = dataset.value("name")
        low = _number(dataset.value("minimum"), f"minimum of {name}")
        high = _number(dataset.value("maximum"), f"maximum of {name}")
        decimals = int(
            _number(dataset.value("decimals", default="0") or "0", f"decimals of {name}")
        )
        param: dict[str, Any] = {"min": _tidy(low), "max": _tidy(high)}
        if decimals > 0:
            param["step"] = _tidy(round(10.0**-decimals, decimals))
        params[name] = param
    if not params:
        raise _Unheld("it has no dataset definitions (its wildcards' ranges)")
    draft.notes.append(
        "each wildcard is drawn from Moodle's range at its decimals, not from its saved dataset"
    )
    prompt = re.sub(r"\{([A-Za-z_]\w*)\}", r"{{ \1 }}", text(node.find("questiontext")))
    fields: dict[str, Any] = {
        "type": "computed",
        "formula": formula(right.value("text")),
        "params": params,
        "prompt": prompt,
    }
    decimals = int(_number(right.value("correctanswerlength", default="2") or "2", "answer length"))
    if right.value("correctanswerformat", default="1") == "2":
        draft.notes.append(
            f"Moodle showed {decimals} significant figures: here {decimals} decimals"
        )
    fields["decimals"] = decimals
    tolerance = _number(right.value("tolerance", default="0") or "0", "tolerance")
    kind = right.value("tolerancetype", default="1")
    if kind == "2" and tolerance:
        least = 0.5 * 10.0**-decimals
        if tolerance < least:
            draft.notes.append(
                f"Moodle's tolerance {tolerance:g} is below half the last decimal: {least:g} here"
            )
        fields["tolerance"] = _tidy(max(tolerance, least))
    elif tolerance:
        draft.notes.append(
            "Moodle's tolerance was relative or geometric: here half the last decimal"
        )
    if node.attrs.get("type") == "calculatedmulti":
        wrong = [a for a in answers[1:] if _fraction(a) <= 0]
        if not wrong:
            raise _Unheld("a calculated multichoice question needs a wrong answer formula")
        fields["answer"] = "choice"
        fields["misconceptions"] = [
            {
                "formula": formula(a.value("text")),
                "feedback": text(a.find("feedback"))
                or "This is not the formula the question asks for.",
            }
            for a in wrong
        ]
    unit = _unit(node)
    if unit:
        fields["unit"] = unit
    draft.fields.update(fields)


#: A reader for each of Moodle's question types, by Moodle's name for it.
_READERS = dict(  # noqa: C408  # Moodle's names: a literal's keys read as konum's types
    multichoice=_choice,
    truefalse=_truefalse,
    shortanswer=_shortanswer,
    numerical=_numerical,
    matching=_matching,
    ordering=_ordering,
    cloze=_cloze,
    multianswer=_cloze,
    calculated=_calculated,
    calculatedsimple=_calculated,
    calculatedmulti=_calculated,
)
