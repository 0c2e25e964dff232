"""IMS QTI 1.2 packages, as Canvas's "QTI .zip" import reads them.

Blackboard Learn's QTI import reads QTI 2.1 packages, which this module does not write.

The package is what text2qti (github.com/gpoore/text2qti, 0.8.0) writes, which Canvas
imports, checked against Canvas's importer (``gems/plugins/qti_exporter/lib/qti/`` of
github.com/instructure/canvas-lms: ``fill_in_the_blank.rb`` at
05e9653c12ef7afc65815ca84e5da7aa2e4c3bd3, ``associate_interaction.rb`` and
``numeric_interaction.rb`` at 0c31361aec160ac52365fd3d3a6cdc2aa42fa0bd,
``choice_interaction.rb`` at 03f405c9c2e10e0d973d9e5978e91169b9f8f122,
``assessment_test_converter.rb`` at 03199fe4e5a8bb12dd7aa3a6808a5100b3014db8): a zip with
``imsmanifest.xml`` (IMS Content Packaging 1.1.4, namespace
``http://www.imsglobal.org/xsd/imscp_v1p1``) and, per bank, a folder ``konum-<bank id>/``
holding the QTI 1.2 assessment ``konum-<bank id>.xml`` (``ims_qtiasiv1p2``) and Canvas's quiz
settings ``assessment_meta.xml`` (``http://canvas.instructure.com/xsd/cccv1p0``: the title,
the points, whether answers are shuffled), a resource of type
``associatedcontent/imscc_xmlv1p1/learning-application-resource`` the assessment depends on.
Each bank becomes one quiz named by its title; each question's type writes its items
(:meth:`konum.types.Question.qti`, the helpers in :mod:`konum.qti_items`), named by the
question's id (``konum-<id>``, ``konum-<id>-<n>`` for variant ``n``), each with Canvas's
``question_type`` and ``points_possible`` (the question's ``points``) in its ``itemmetadata``:

=========================  ==================================================================
konum                      Canvas (QTI 1.2)
=========================  ==================================================================
choice, one right option   ``multiple_choice_question``: ``response_lid`` ``Single``, feedback
                           per option (``itemfeedback`` shown by a ``displayfeedback``).
choice, several right      ``multiple_answers_question`` (``Multiple``): right for exactly the
                           right ticks; Canvas's partial credit is the site's (each right tick
                           ``1/k`` of the points, each wrong one ``-1/k``, never below 0).
fill                       ``fill_in_multiple_blanks_question``: blank ``i`` (from 0) is
                           ``[blank<i>]`` in place, its accepted answers the choices of
                           ``response_blank<i>`` (Canvas's blank ``blank<i>``); each blank an
                           equal share of the points, as on the site.
matching                   ``matching_question``: one ``response_lid`` per left item whose
                           choices are every right-hand item (distractors too), as plain text,
                           idents ``1``, ``2``, ... in every row (Canvas numbers the items by
                           their idents' first number); each pair an equal share.
numeric                    ``numerical_question``: the answer, or within its tolerance
                           (absolute; a relative one times the answer); the unit, which Canvas
                           has no field for, in brackets after the prompt.
ordering                   what Canvas makes of an ordering question it imports (QTI 1.2 as
                           it reads it has none): a ``matching_question`` from each position,
                           ``1``, ``2``, ..., to its item; each position an equal share.
computed (formula or       a question group (a ``section`` with ``selection_number`` 1 and
generator)                 ``points_per_item``, Canvas's "pick 1"), one item per variant
                           drawn for the seed: each student gets other numbers.
=========================  ==================================================================

Options are written in konum's order for the seed; pinned options (and every option of a
``shuffle: false`` question) carry ``rshuffle="No"``, and a bank with any such question is a
quiz that does not shuffle answers (Canvas shuffles per quiz, not per question). An
option's feedback is a condition before the one that scores the right options (Canvas gives
an option the weight of the last condition naming it); a number's answer is the first
condition. The explanation is each item's general feedback (``general_fb``); a computed
variant's adds its worked solution. Hints are not carried (Canvas's quizzes have none).

Text is HTML, math as MathML (konum's own, the LaTeX as ``alttext`` where it says more than
the formula's characters): Canvas's HTML allow-list keeps MathML and the browser draws it,
so formulas read as on the site. A question's figure (SVG) and the bank's own images
travel as ``images/<flat name>`` in the package, each a ``webcontent`` resource of the
manifest, and the HTML shows them from ``$IMS-CC-FILEBASE$/images/<name>``, which Canvas
points at the course's files on import.

Not written, and reported by id (:class:`~konum.lms.Skipped`): blanks with a regular
expression or case-sensitive (Canvas's blanks match listed answers, ignoring case) and output
questions.

The package is reproducible: the same seed gives the same bytes (entries in a fixed order,
each dated 1980-01-01).
"""

from __future__ import annotations

import html
import io
import xml.etree.ElementTree as ET
import zipfile
from collections.abc import Mapping, Sequence
from functools import partial
from operator import methodcaller
from typing import TYPE_CHECKING

from konum import images as image_refs
from konum.images import Images
from konum.lms import (
    ExportOptions,
    ExportSettings,
    LmsExport,
    Skipped,
    one_line,
    plain_number,
    writable,
    write_export,
    xml_text,
)
from konum.messages import message
from konum.qti_items import QTI_FILES, QTI_NAMESPACE, QtiDocument, node
from konum.types import Bank, Concrete

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = ["build_qti", "write_qti"]

#: IMS Content Packaging 1.1's namespace (``imscp_v1p1.xsd``).
CP_NAMESPACE = "http://www.imsglobal.org/xsd/imscp_v1p1"
#: Canvas's namespace of a quiz's settings.
CANVAS_NAMESPACE = "http://canvas.instructure.com/xsd/cccv1p0"
_META = "associatedcontent/imscc_xmlv1p1/learning-application-resource"


def build_qti(
    banks: Sequence[Bank],
    concretes: Mapping[str, Concrete],
    **options: Unpack[ExportOptions],
) -> LmsExport:
    """The QTI package of ``banks``, with the numbers of ``concretes`` (by question id).

    Args:
        banks: the course's banks, in order; each with a question Canvas can hold is a quiz.
        concretes: every question with the seed applied (computed ones with their variants).
        options: :class:`konum.lms.ExportOptions`; ``deck`` is in each quiz's description.

    Returns:
        The zip's bytes (``text``) and what they hold; ``categories`` counts the quizzes.

    Raises:
        KeyError: a question has no entry in ``concretes``.
    """
    o = ExportSettings(**options)
    files: dict[str, bytes] = {}
    exported: list[str] = []
    skipped: list[Skipped] = []
    resources = node("resources")
    items = quizzes = 0
    for bank in banks:
        ident, section = f"konum-{bank.id}", node("section", ident="root_section")
        doc = QtiDocument(o.plugins, section, files, o.language)
        for q in writable(bank.id, bank.questions, methodcaller("qti_problem"), exported, skipped):
            q.qti(doc, concretes[q.id])
        if not len(section):
            continue
        title = one_line(bank.title, bank.id)
        assessment = node("assessment", None, section, ident=ident, title=title)
        _carry(assessment, o.images or {}, files)
        qti, meta = f"{ident}/{ident}.xml", f"{ident}/assessment_meta.xml"
        files[qti] = _xml(node("questestinterop", None, assessment), QTI_NAMESPACE)
        files[meta] = _xml(_settings(bank, o.deck, doc, exported), CANVAS_NAMESPACE)
        requires = node("dependency", identifierref=f"{ident}-meta")
        resources.append(_resource(ident, "imsqti_xmlv1p2", qti, requires))
        resources.append(_resource(f"{ident}-meta", _META, meta))
        items, quizzes = items + len(list(section.iter("item"))), quizzes + 1
    for number, name in enumerate(sorted(n for n in files if n.startswith("images/")), 1):
        resources.append(_resource(f"konum-file-{number}", "webcontent", name))
    schema = node("metadata", None, node("schema", "IMS Content"), node("schemaversion", "1.1.4"))
    manifest = node("manifest", None, schema, node("organizations"), resources, identifier="konum")
    package = {"imsmanifest.xml": _xml(manifest, CP_NAMESPACE), **dict(sorted(files.items()))}
    return LmsExport(_zip(package), tuple(exported), items, quizzes, tuple(skipped))


#: Build the QTI package (:func:`build_qti`, with its keyword options) and write it to a
#: path atomically: ``write_qti(banks, concretes, path, plugins=...)``.
write_qti = partial(write_export, build_qti)


def _resource(identifier: str, kind: str, href: str, *more: ET.Element) -> ET.Element:
    attributes = {"identifier": identifier, "type": kind, "href": href}
    return node("resource", None, node("file", href=href), *more, **attributes)


def _settings(bank: Bank, deck: str, doc: QtiDocument, exported: Sequence[str]) -> ET.Element:
    """Canvas's settings of the bank's quiz: its title, description, points (its questions',
    each computed question once), whether it shuffles answers, a graded quiz."""
    points = sum(q.points for q in bank.questions if q.id in exported)
    said = message(doc.language, "cards.bank_questions", name=one_line(deck), bank=bank.id)
    description = f"<p>{html.escape(said)}</p>"
    shuffle = "false" if doc.keeps_order else "true"
    values = (
        one_line(bank.title, bank.id),
        description,
        shuffle,
        "assignment",
        plain_number(points),
        "true",
    )
    tags = ("title", "description", "shuffle_answers", "quiz_type", "points_possible")
    children = map(node, (*tags, "show_correct_answers"), values)
    return node("quiz", None, *children, identifier=f"konum-{bank.id}")


def _carry(root: ET.Element, store: Images, files: dict[str, bytes]) -> None:
    """Each bank image an item's HTML shows: a file ``images/<name>``, shown from Canvas's
    ``$IMS-CC-FILEBASE$``."""

    def write(image: image_refs.Image, attributes: dict[str, str]) -> str:
        files[f"images/{image.name}"] = image.data
        return image_refs.img_tag(f"{QTI_FILES}images/{image.name}", attributes)

    for text in root.iter("mattext"):
        if text.text and image_refs.PREFIX in text.text:
            text.text = image_refs.substitute(text.text, store, write)


def _xml(root: ET.Element, namespace: str) -> bytes:
    """The document of ``root``, its elements in ``namespace``."""
    root.set("xmlns", namespace)
    ET.indent(root, space="  ")
    body = xml_text(ET.tostring(root, encoding="unicode"))
    return f'<?xml version="1.0" encoding="UTF-8"?>\n{body}\n'.encode()


def _zip(files: Mapping[str, bytes]) -> bytes:
    """The package: ``files`` in their order, each dated 1980-01-01 (the same bytes for the
    same questions)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as package:
        for name, data in files.items():
            entry = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            entry.external_attr = 0o644 << 16
            package.writestr(entry, data, compress_type=zipfile.ZIP_DEFLATED)
    return buffer.getvalue()
