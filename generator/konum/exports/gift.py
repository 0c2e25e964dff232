"""GIFT, Moodle's plain-text question format, for the questions it can express.

Written as Moodle's own GIFT importer reads it; each question's type writes its part
(:meth:`konum.types.Question.gift`, the helpers in :mod:`konum.lms`). Written
(``question/format/gift/format.php`` in github.com/moodle/moodle, version
00e93a993910e03083056a11bec1b68f95e34436): each bank is a
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
from functools import partial

from konum.images import mentions_images
from konum.lms import GiftWriter, LmsExport, Skipped, one_line, writable, write_export
from konum.types import Bank, Concrete, Question

__all__ = ["build_gift", "gift_problem", "write_gift"]


def gift_problem(q: Question) -> str | None:
    """Why GIFT cannot express ``q`` (None when it can)."""
    if q.figure is not None:
        return "it has a figure, and GIFT files carry no images"
    if mentions_images(q):
        return "it shows an image, and GIFT files carry no images (Moodle XML carries them)"
    return q.gift_problem()


def build_gift(
    banks: Sequence[Bank],
    concretes: Mapping[str, Concrete],
    *,
    deck: str = "konum",
    language: str = "en",
) -> LmsExport:
    """The GIFT text of ``banks`` with the numbers of ``concretes`` (by question id), konum's
    own words (a worked solution's heading, math said in words) in ``language``.

    Returns:
        The text and what it holds; the questions GIFT cannot express are listed in
        ``skipped`` and not written.
    """
    w = GiftWriter(deck, language)
    exported: list[str] = []
    skipped: list[Skipped] = []
    for bank in banks:
        w.bank_title, w.later = one_line(bank.title, bank.id), []
        w.category(deck, w.bank_title)
        for q in writable(bank.id, bank.questions, gift_problem, exported, skipped):
            q.gift(w, concretes[q.id])
        for write in w.later:  # questions of their own categories, after the bank's
            write()
    text = "\n\n".join(w.blocks) + "\n"
    return LmsExport(text, tuple(exported), w.items, w.categories, tuple(skipped))


#: Build the GIFT text (:func:`build_gift`, with its keyword options ``deck`` and
#: ``language``) and write it to a path atomically: ``write_gift(banks, concretes, path)``.
write_gift = partial(write_export, build_gift)
