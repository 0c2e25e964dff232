"""Moodle XML: every question Moodle can hold, with the numbers konum drew for the seed.

Checked against Moodle's importer, ``question/format/xml/format.php`` (qformat_xml, the
version at commit 00055ef6abc837f53259217d5de9dd45641fb74f of github.com/moodle/moodle),
with ``question/type/calculated/question.php`` (how a calculated question substitutes its
wildcards and evaluates its formula), ``question/type/numerical/question.php``
(``tolerancetype`` 2 is "nominal", an absolute tolerance), ``question/type/multianswer``
(the cloze syntax) and ``question/format.php`` (fractions must be in Moodle's list of
grades). Each question's type writes its part (:meth:`konum.types.Question.moodle`, the
helpers in :mod:`konum.lms`); what each konum question becomes:

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

import html
from collections.abc import Mapping, Sequence
from functools import partial
from operator import methodcaller
from typing import TYPE_CHECKING

from konum.lms import (
    ExportOptions,
    ExportSettings,
    LmsExport,
    MoodleDocument,
    Skipped,
    category_path,
    one_line,
    writable,
    write_export,
)
from konum.messages import message
from konum.types import Bank, Concrete

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = ["build_moodle", "write_moodle"]


def build_moodle(
    banks: Sequence[Bank],
    concretes: Mapping[str, Concrete],
    **options: Unpack[ExportOptions],
) -> LmsExport:
    """The Moodle XML of ``banks``, with the numbers of ``concretes`` (by question id).

    Args:
        banks: the course's banks, in order; each becomes a category under ``deck``.
        concretes: every question with the seed applied (computed ones with their variants).
        options: :class:`konum.lms.ExportOptions`; ``deck`` names the parent category.

    Returns:
        The XML and what it holds; questions Moodle cannot hold are listed, not written.

    Raises:
        KeyError: a question has no entry in ``concretes``.
    """
    o = ExportSettings(**options)
    deck, language = o.deck, o.language
    doc = MoodleDocument(o.plugins, o.images or {}, deck, language)
    exported: list[str] = []
    skipped: list[Skipped] = []
    for bank in banks:
        title = one_line(bank.title, bank.id)
        said = message(language, "cards.bank_questions", name=title, bank=bank.id)
        doc.category(category_path(deck, title), f"konum:{bank.id}", f"<p>{html.escape(said)}</p>")
        doc.bank_id, doc.bank_title, doc.later = bank.id, title, []
        for q in writable(
            bank.id, bank.questions, methodcaller("moodle_problem"), exported, skipped
        ):
            q.moodle(doc, concretes[q.id])
        for write in doc.later:  # questions of their own categories, after the bank's
            write()
    return LmsExport(doc.serialise(), tuple(exported), doc.items, doc.categories, tuple(skipped))


#: Build the Moodle XML (:func:`build_moodle`, with its keyword options) and write it to a
#: path atomically: ``write_moodle(banks, concretes, path, deck=...)``.
write_moodle = partial(write_export, build_moodle)
