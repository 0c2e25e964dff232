"""GIFT, Moodle's plain-text question format, for the questions it can express.

Written as Moodle's own GIFT importer reads it (``question/format/gift/format.php`` in
github.com/moodle/moodle, version 00e93a993910e03083056a11bec1b68f95e34436): each bank is a
``$CATEGORY: $course$/top/<deck>/<bank title>`` line, each question
``::<id>::[html]<prompt>{<answers>####<general feedback>}``, questions apart by a blank line.

* choice: ``=right#feedback ~wrong#feedback``; with several right options, weights
  ``~%50%right`` (each right one ``100/k``) and ``~%-50%wrong`` (each wrong one
  ``-100/w``; Moodle reads at most two digits before the point, so -100 % is written
  -99.99999 %, which its grade matching takes as -100 %), as in the Moodle XML export;
* fill with one blank: a short answer in place of the blank ("missing word"),
  ``{=metre =meter}``;
* numeric: ``{#answer:tolerance}``, the tolerance absolute;
* matching: ``{=left -> right = -> distractor}``, the right sides as plain text;
* computed questions: a category of their own (``.../<bank title>/<question id>``) with
  one numeric (or choice) question per variant drawn for the seed, as in the Moodle XML
  export.

Texts are HTML (``[html]``) with math as ``\\( \\)``; GIFT's special characters
``~ = # { } :`` and the backslash are escaped with a backslash, line breaks as ``\\n``
(a blank line would end the question), ``->`` in a matching item as ``-&gt;``.

GIFT cannot say what these need, so the questions are left out and listed
(:class:`~konum.exports.lms.Skipped`): options kept in place (``shuffle: false`` or a
pinned option: Moodle shuffles GIFT options), several blanks, a case-sensitive blank or
a regular expression, matching questions with fewer than three answers, figures and a
bank's own images (GIFT carries no files; the Moodle XML export carries both). Hints and
units are not carried (the prompt says the unit; Moodle then grades the bare number).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from konum import images, model
from konum.exports.lms import (
    OUTPUT_PROBLEM,
    LmsExport,
    Skipped,
    category_path,
    plain_number,
    write_atomically,
)
from konum.exports.moodle import MAX_SHARES, absolute_tolerance
from konum.formatting import BLANK
from konum.markup import render_markdown
from konum.render import plain_text

_BLANK_TOKEN = "KONUMBLANK0X"
#: Moodle's GIFT importer reads a weight as ``%`` and at most two digits before the point.
_FULL_PENALTY = "-99.99999"


def escape(text: str) -> str:
    """``text`` with GIFT's special characters escaped (Moodle's ``repchar``)."""
    text = text.replace("\\", "\\\\")
    for char in "~=#{}:":
        text = text.replace(char, "\\" + char)
    return text.replace("\r", "").replace("\n", "\\n")


def _html(text: str, *, inline: bool = False) -> str:
    return render_markdown(text, inline=inline, math="anki").strip()


def _part(html_text: str) -> str:
    """An answer, feedback or matching item, escaped; a leading ``[`` as ``&#91;``, since
    Moodle reads ``[plain]`` (or any ``[format]``) at the start of a part as its format."""
    if html_text.startswith("["):
        html_text = "&#91;" + html_text[1:]
    return escape(html_text)


def _weight(fraction: float) -> str:
    percent = float(f"{fraction * 100:.7g}")
    if percent <= -100:
        return _FULL_PENALTY
    return plain_number(round(percent, 5))


def _feedback(text: str | None) -> str:
    return f"#{_part(_html(text))}" if text else ""


def _general(q: model.QuestionBase, extra: str = "") -> str:
    shown = extra + (_html(q.explanation) if q.explanation.strip() else "")
    return f"\n####{_part(shown)}" if shown else ""


def _head(name: str, text_html: str) -> str:
    return f"::{escape(name)}::[html]{escape(text_html)}"


def _choice(q: model.ChoiceQuestion) -> str:
    right = sum(o.correct for o in q.options)
    wrong = len(q.options) - right
    lines = []
    for option in q.options:
        text = _part(_html(option.text, inline=True))
        if not q.multiple:
            mark = "=" if option.correct else "~"
        elif option.correct:
            mark = f"~%{_weight(1 / right)}%"
        else:
            mark = f"~%{_weight(-1 / wrong)}%"
        lines.append(f"  {mark}{text}{_feedback(option.feedback)}")
    body = "\n".join(lines)
    return f"{_head(q.id, _html(q.prompt))}{{\n{body}{_general(q)}\n}}"


def _shortanswer(answer: str) -> str:
    return escape(answer.replace("*", "\\*"))  # * is Moodle's wildcard, \* a star


def _fill(q: model.FillQuestion) -> str:
    blank = q.blanks[0]
    text = _html(BLANK.sub(_BLANK_TOKEN, q.prompt, count=1))
    before, _, after = text.partition(_BLANK_TOKEN)
    answers = " ".join(f"={_shortanswer(a)}" for a in blank.answers)
    return f"::{escape(q.id)}::[html]{escape(before)}{{{answers}{_general(q)}\n}}{escape(after)}"


def _matching(q: model.MatchingQuestion) -> str:
    lines = [
        f"  ={_part(_html(p.left, inline=True).replace('->', '-&gt;'))} -> "
        f"{escape(plain_text(p.right))}"
        for p in q.pairs
    ]
    lines += [f"  = -> {escape(plain_text(d))}" for d in q.distractors]
    body = "\n".join(lines)
    return f"{_head(q.id, _html(q.prompt))}{{\n{body}{_general(q)}\n}}"


def _numeric(q: model.NumericQuestion) -> str:
    answer = f"#{plain_number(q.answer)}:{plain_number(absolute_tolerance(q))}"
    return f"{_head(q.id, _html(q.prompt))}{{{answer}{_general(q)}\n}}"


def _variants(q: model.ComputedQuestion, concrete: model.Concrete) -> list[str]:
    out = []
    for variant in concrete.variants:
        solution = f"<p><strong>Worked solution</strong></p>{_html(variant.solution)}"
        head = _head(f"{q.id} #{variant.index + 1}", _html(variant.prompt))
        if variant.options:
            lines = [
                f"  {'=' if o.correct else '~'}{_part(_html(o.text, inline=True))}"
                f"{_feedback(o.feedback)}"
                for o in variant.options
            ]
            body = "\n".join(lines)
            out.append(f"{head}{{\n{body}{_general(q, solution)}\n}}")
        else:
            answer = f"#{plain_number(variant.answer)}:{plain_number(variant.tolerance)}"
            out.append(f"{head}{{{answer}{_general(q, solution)}\n}}")
    return out


def gift_problem(q: model.Question) -> str | None:
    """Why GIFT cannot express ``q`` (None when it can)."""
    if q.figure is not None:
        return "it has a figure, and GIFT files carry no images"
    if images.mentions_images(q):
        return "it shows an image, and GIFT files carry no images (Moodle XML carries them)"
    if isinstance(q, model.OutputQuestion):
        return OUTPUT_PROBLEM
    if isinstance(q, model.OrderingQuestion):
        return "GIFT has no ordering questions"
    if isinstance(q, model.ChoiceQuestion):
        if not q.shuffle or any(o.pin for o in q.options):
            return (
                "its options keep their places (shuffle: false or a pinned option), and "
                "Moodle shuffles the options of GIFT questions"
            )
        right = sum(o.correct for o in q.options)
        if right > MAX_SHARES or (q.multiple and len(q.options) - right > MAX_SHARES):
            return f"Moodle's grades split a mark in at most {MAX_SHARES} shares"
    if isinstance(q, model.FillQuestion):
        if len(q.blanks) != 1:
            return f"GIFT holds one blank per question, found {len(q.blanks)}"
        blank = q.blanks[0]
        if blank.regex is not None:
            return "its blank accepts a regular expression; GIFT short answers list answers"
        if blank.case_sensitive:
            return "its blank is case-sensitive; GIFT short answers ignore case"
        if any(answer.startswith("[") for answer in blank.answers):
            return "an answer starts with '[', which Moodle's GIFT reader takes for a format"
    if isinstance(q, model.MatchingQuestion) and len(q.pairs) + len(q.distractors) < 3:
        answers = len(q.pairs) + len(q.distractors)
        return (
            "Moodle's matching questions need at least three answers (pairs and "
            f"distractors), found {answers}"
        )
    return None


def build_gift(
    banks: Sequence[model.Bank], concretes: Mapping[str, model.Concrete], *, deck: str = "konum"
) -> LmsExport:
    """The GIFT text of ``banks`` with the numbers of ``concretes`` (by question id).

    Returns:
        The text and what it holds; the questions GIFT cannot express are listed in
        ``skipped`` and not written.
    """
    blocks: list[str] = []
    exported: list[str] = []
    skipped: list[Skipped] = []
    items = categories = 0
    for bank in banks:
        blocks.append(f"$CATEGORY: {category_path(deck, bank.title)}")
        categories += 1
        later: list[tuple[model.ComputedQuestion, model.Concrete]] = []
        for q in bank.questions:
            problem = gift_problem(q)
            if problem is not None:
                skipped.append(Skipped(q.id, bank.id, problem))
                continue
            exported.append(q.id)
            if isinstance(q, model.ComputedQuestion):
                later.append((q, concretes[q.id]))
                continue
            if isinstance(q, model.ChoiceQuestion):
                blocks.append(_choice(q))
            elif isinstance(q, model.FillQuestion):
                blocks.append(_fill(q))
            elif isinstance(q, model.MatchingQuestion):
                blocks.append(_matching(q))
            else:
                assert isinstance(q, model.NumericQuestion)  # gift_problem() refuses the rest
                blocks.append(_numeric(q))
            items += 1
        for q, concrete in later:
            blocks.append(f"$CATEGORY: {category_path(deck, bank.title, q.id)}")
            categories += 1
            variants = _variants(q, concrete)
            blocks += variants
            items += len(variants)
    text = "\n\n".join(blocks) + "\n"
    return LmsExport(text, tuple(exported), items, categories, tuple(skipped))


def write_gift(
    banks: Sequence[model.Bank],
    concretes: Mapping[str, model.Concrete],
    path: str | Path,
    *,
    deck: str = "konum",
) -> LmsExport:
    """Build the GIFT text (:func:`build_gift`) and write it to ``path`` atomically.

    Raises:
        konum.errors.ExportError: the file cannot be written.
    """
    export = build_gift(banks, concretes, deck=deck)
    write_atomically(path, export.text)
    return export
