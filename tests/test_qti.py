"""QTI export: every package checked against the IMS schemas and read back by qti2txt.

The manifest is validated with xmlschema against IMS Content Packaging 1.1.4's
``imscp_v1p1.xsd``. No package on PyPI, npm or Debian ships the QTI 1.2.1 ASI schema
``ims_qtiasiv1p2p1.xsd``; pyslet (PyPI) ships the same binding as IMS's DTD,
``ims_qtiasiv1p2p1.dtd``, which lxml validates each assessment against
(``tests/fixtures/qti/README.md`` names the sources and licences).

qti2txt (PyPI), which reads the QTI packages Canvas exports, reads every package back: its
manifest reader, namespace stripper and question parser, as its command does. It declares
Python 3.13 and its text writer needs 3.12, but the reading half runs on any Python konum
supports, so the tests install it (without its writer's Python) into a temporary folder once
per session, as the GIFT tests install their npm reader; its dependencies are in the
``test`` extra. qti2txt reads a question group's first ``selection_number`` items, as one
student sees them; the tests ask it for every variant.
"""

from __future__ import annotations

import io
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import xmlschema
from lxml import etree

from konum import model
from konum.build import read_site_config
from konum.course import Course, course_for
from konum.errors import ExportError
from konum.exports.qti import build_qti, write_qti
from konum.images import mentions_images
from konum.markup import render_markdown
from konum.messages import message
from konum.qti_items import QTI_FILES, QTI_NAMESPACE
from konum.spoken import plain_text
from konum.types import (
    Bank,
    ChoiceQuestion,
    ComputedQuestion,
    FillQuestion,
    MatchingQuestion,
    NumericQuestion,
    Option,
    OrderingQuestion,
    Question,
)
from tests.helpers import make_concrete
from tests.miniproject import konum

REPO = Path(__file__).resolve().parent.parent
PHYSICS = REPO / "examples" / "physics"
SCHEMAS = Path(__file__).resolve().parent / "fixtures" / "qti"
QTI2TXT = "qti2txt==0.1.0"
NS = {"q": QTI_NAMESPACE}


# --- the courses, their packages and the reader -------------------------------------------------


class Package:
    """A course's QTI package: the export, its files, and each question with the seed applied."""

    def __init__(self, course: Course, deck: str, **options: Any) -> None:
        self.course, self.deck = course, deck
        self.concretes = {c.question.id: c for c in course.concretes()}
        self.export = build_qti(
            course.banks,
            self.concretes,
            deck=deck,
            plugins=course.plugins,
            images=course.images,
            **{"language": course.language, **options},
        )
        assert isinstance(self.export.text, bytes)
        with zipfile.ZipFile(io.BytesIO(self.export.text)) as package:
            self.files = {name: package.read(name) for name in package.namelist()}
        #: Each quiz's assessment, by its bank's id.
        self.assessments = {
            name.split("/")[0][len("konum-") :]: ET.fromstring(data)
            for name, data in self.files.items()
            if re.fullmatch(r"konum-[^/]+/konum-[^/]+\.xml", name)
        }

    def questions(self) -> Iterator[tuple[Bank, Question]]:
        for bank in self.course.banks:
            for q in bank.questions:
                if q.id in self.export.exported:
                    yield bank, q


def _package(config: Path) -> Package:
    settings = read_site_config(config)
    return Package(course_for(settings.options), settings.deck)


@pytest.fixture(scope="module")
def physics() -> Package:
    return _package(PHYSICS / "mkdocs.yml")


@pytest.fixture(scope="module")
def own() -> Package:
    return _package(REPO / "mkdocs.yml")


@pytest.fixture(scope="module", params=["physics", "own"])
def package(request: pytest.FixtureRequest) -> Package:
    return request.getfixturevalue(request.param)  # type: ignore[no-any-return]


@pytest.fixture(scope="session")
def qti2txt(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """qti2txt's reading modules, installed from PyPI into a temporary folder."""
    folder = tmp_path_factory.mktemp("qti2txt")
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
         "--ignore-requires-python", "--disable-pip-version-check", "--target", str(folder),
         QTI2TXT],
        check=True, timeout=300, capture_output=True,
    )  # fmt: skip
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(folder))
        import qti2txt.helpers
        import qti2txt.parsers
        import qti2txt.processors

        yield qti2txt


def read_back(qti2txt: Any, pkg: Package, folder: Path) -> list[dict[str, Any]]:
    """Every question qti2txt reads from ``pkg``, quiz by quiz in the manifest's order, each
    with its quiz's title (``quiz``)."""
    with zipfile.ZipFile(io.BytesIO(pkg.export.text)) as package:  # type: ignore[arg-type]
        package.extractall(folder)
    found = []
    strip = qti2txt.processors.NamespaceStripper().remove_namespace_from_file
    for quiz, settings in qti2txt.processors.FileProcessor.get_resource_hrefs(
        folder / "imsmanifest.xml"
    ):
        tree = ET.parse(folder / quiz)
        for section in tree.iter(f"{{{QTI_NAMESPACE}}}section"):
            number = section.find("q:selection_ordering/q:selection/q:selection_number", NS)
            if number is not None:  # every variant, not one student's
                number.text = str(len(section.findall("q:item", NS)))
        tree.write(folder / quiz)
        strip(folder / quiz, folder / "read.xml")
        strip(folder / settings, folder / "settings.xml")
        title = ET.parse(folder / "settings.xml").getroot().findtext("title")
        details = qti2txt.parsers.XMLCanvasParser(folder / "read.xml").extract_question_details()
        found += [{**d, "quiz": title} for d in details]
    return found


# --- the schemas --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def manifest_schema() -> xmlschema.XMLSchema:
    return xmlschema.XMLSchema(str(SCHEMAS / "imscp_v1p1.xsd"))


@pytest.fixture(scope="module")
def qti_dtd() -> etree.DTD:
    """The QTI 1.2.1 ASI DTD. Its extension points (``selection_extension``) are ``ANY``, which
    a DTD reads as any element it declares; Canvas's ``points_per_item`` is declared for it."""
    text = (SCHEMAS / "ims_qtiasiv1p2p1.dtd").read_text(encoding="utf-8")
    return etree.DTD(io.StringIO(text + "\n<!ELEMENT points_per_item (#PCDATA)>\n"))


def test_every_package_is_valid_ims_content_and_qti(
    package: Package, manifest_schema: xmlschema.XMLSchema, qti_dtd: etree.DTD
) -> None:
    files = package.files
    assert next(iter(files)) == "imsmanifest.xml"
    manifest_schema.validate(files["imsmanifest.xml"].decode("utf-8"))
    manifest = ET.fromstring(files["imsmanifest.xml"])
    cp = {"cp": manifest.tag[1:].split("}")[0]}
    resources = manifest.findall("cp:resources/cp:resource", cp)
    listed = {f.get("href") for r in resources for f in r.findall("cp:file", cp)}
    assert listed == set(files) - {"imsmanifest.xml"}
    quizzes = [r for r in resources if r.get("type") == "imsqti_xmlv1p2"]
    assert len(quizzes) == package.export.categories
    ids = {r.get("identifier") for r in resources}
    for quiz in quizzes:
        (href,) = [f.get("href") for f in quiz.findall("cp:file", cp)]
        tree = etree.fromstring(files[href])
        for element in tree.iter():
            element.tag = etree.QName(element).localname
        etree.cleanup_namespaces(tree)
        assert qti_dtd.validate(tree), qti_dtd.error_log.filter_from_errors()
        (depends,) = quiz.findall("cp:dependency", cp)
        assert depends.get("identifierref") in ids
        settings = ET.fromstring(files[href.rsplit("/", 1)[0] + "/assessment_meta.xml"])
        assert settings.tag == "{http://canvas.instructure.com/xsd/cccv1p0}quiz"


def test_images_and_figures_travel_in_the_package(package: Package) -> None:
    shown: set[str] = set()
    texts = {}
    for root in package.assessments.values():
        for item in root.iter(f"{{{QTI_NAMESPACE}}}item"):
            html = "".join(m.text or "" for m in item.iter(f"{{{QTI_NAMESPACE}}}mattext"))
            texts[item.get("ident")] = html
            shown |= set(re.findall(re.escape(QTI_FILES) + r'(images/[^"]+)"', html))
    assert shown == {name for name in package.files if name.startswith("images/")}
    assert all("konum-image/" not in html for html in texts.values())
    for _, q in package.questions():
        if q.figure is not None or mentions_images(q):
            shown_by = [t for ident, t in texts.items() if ident.startswith(f"konum-{q.id}")]
            assert shown_by and all(QTI_FILES in t for t in shown_by), q.id


# --- read back by qti2txt -----------------------------------------------------------------------


def test_qti2txt_reads_every_question_with_its_answers(
    package: Package, qti2txt: Any, tmp_path: Path
) -> None:
    read = read_back(qti2txt, package, tmp_path)
    clean = qti2txt.helpers.html_to_cleantext
    expected = []
    for bank in package.course.banks:
        kept = [q for q in bank.questions if q.id in package.export.exported]
        expected += [(bank, q, None) for q in kept if not isinstance(q, ComputedQuestion)]
        for q in kept:
            if isinstance(q, ComputedQuestion):
                expected += [(bank, q, v) for v in package.concretes[q.id].variants]
    assert len(read) == len(expected) == package.export.items
    for got, (bank, q, variant) in zip(read, expected, strict=True):
        assert got["quiz"] == bank.title
        assert float(got["points_possible"]) == q.points, q.id
        concrete = package.concretes[q.id]
        if variant is not None:
            solution = clean(render_markdown(variant.solution)).replace("*", "")
            assert solution in got["feedback_general"].replace("*", ""), q.id  # html2text's **
            if variant.options:
                check_choice(got, [(o.text, o.correct) for o in variant.options], clean)
            else:
                check_number(got, variant.answer, variant.tolerance)
            continue
        if q.explanation.strip():
            assert got["feedback_general"] == clean(render_markdown(q.explanation)), q.id
        if isinstance(q, ChoiceQuestion):
            kind = "multiple_answers_question" if q.multiple else "multiple_choice_question"
            assert got["question_type"] == kind
            check_choice(got, [(o.text, o.correct) for o in q.shown(concrete)], clean)
        elif isinstance(q, FillQuestion):
            check_fill(got, q, clean)
        elif isinstance(q, MatchingQuestion):
            assert got["question_type"] == "matching_question"
            pairs = [f"{plain_text(p.left)} -> {plain_text(p.right)}" for p in q.pairs]
            assert got["correct_answers"] == pairs
        elif isinstance(q, OrderingQuestion):  # a matching question from positions to items
            assert got["question_type"] == "matching_question"
            places = [f"{k} -> {plain_text(item)}" for k, item in enumerate(q.items, 1)]
            assert got["correct_answers"] == places
        else:
            assert isinstance(q, NumericQuestion)
            check_number(got, q.answer, q.absolute_tolerance)


def check_choice(got: dict[str, Any], options: list[tuple[str, bool]], clean: Any) -> None:
    texts = [clean(render_markdown(text, inline=True)) for text, _ in options]
    assert [c["text"] for c in got["choices"]] == texts
    right = [i for i, c in enumerate(got["choices"]) if c["ident"] in got["correct_choices"]]
    assert right == [i for i, (_, correct) in enumerate(options) if correct]


def check_fill(got: dict[str, Any], q: FillQuestion, clean: Any) -> None:
    assert got["question_type"] == "fill_in_multiple_blanks_question"
    answers = got["multiple_blanks_answers"]
    assert list(answers) == [f"blank{i}" for i in range(len(q.blanks))]
    for i, blank in enumerate(q.blanks):
        assert f"[blank{i}]" in got["question_text"]
        shown = answers[f"blank{i}"]
        assert (shown if isinstance(shown, list) else [shown]) == list(map(clean, blank.answers))


def check_number(got: dict[str, Any], answer: float, tolerance: float) -> None:
    assert got["question_type"] == "numerical_question"
    (read,) = got["correct_answers"]
    assert read["exact"] == answer
    if tolerance:
        low, high = read["range"]
        assert low == pytest.approx(answer - tolerance, rel=1e-9)
        assert high == pytest.approx(answer + tolerance, rel=1e-9)


def test_computed_questions_are_groups_that_pick_one_variant(package: Package) -> None:
    groups = {
        section.get("ident"): section
        for root in package.assessments.values()
        for section in root.iterfind(".//q:section/q:section", NS)
    }
    computed = [q for _, q in package.questions() if isinstance(q, ComputedQuestion)]
    assert set(groups) == {f"konum-{q.id}" for q in computed}
    for q in computed:
        group = groups[f"konum-{q.id}"]
        selection = group.find("q:selection_ordering/q:selection", NS)
        assert selection is not None
        assert selection.findtext("q:selection_number", namespaces=NS) == "1"
        points = selection.findtext("q:selection_extension/q:points_per_item", namespaces=NS)
        assert float(points or "nan") == q.points
        assert len(group.findall("q:item", NS)) == len(package.concretes[q.id].variants)


def test_each_option_is_scored_by_the_last_condition_that_names_it(package: Package) -> None:
    """Canvas's importer gives an option the weight of the last condition naming it, so the
    condition that scores the right options comes after the options' feedback."""
    rights: dict[str, bool] = {}
    for _, q in package.questions():
        concrete = package.concretes[q.id]
        if isinstance(q, ChoiceQuestion):
            rights |= {f"konum-{q.id}-o{i}": o.correct for i, o in enumerate(q.shown(concrete))}
        for v in concrete.variants:
            rights |= {
                f"konum-{q.id}-{v.index + 1}-o{i}": o.correct for i, o in enumerate(v.options)
            }
    weights: dict[str, float] = {}
    for root in package.assessments.values():
        for condition in root.iterfind(".//q:respcondition", NS):
            score = float(condition.findtext("q:setvar", "0", NS))
            for named in condition.iterfind("q:conditionvar/q:varequal", NS):
                weights[named.text or ""] = score
            for named in condition.iterfind("q:conditionvar/q:and/q:varequal", NS):
                weights[named.text or ""] = score
    assert rights
    assert {ident: weights.get(ident, 0) == 100 for ident in rights} == rights


def test_matching_rows_offer_every_right_hand_item(package: Package) -> None:
    """Canvas takes a matching question's items (the distractors among them) from a row's
    choices, numbered by their idents."""
    matching = [(b, q) for b, q in package.questions() if isinstance(q, MatchingQuestion)]
    assert matching
    for bank, q in matching:
        item = package.assessments[bank.id].find(f".//q:item[@ident='konum-{q.id}']", NS)
        assert item is not None
        rows = item.findall("q:presentation/q:response_lid", NS)
        assert len(rows) == len(q.pairs)
        rights = sorted(plain_text(text) for text in (*(p.right for p in q.pairs), *q.distractors))
        for row in rows:
            labels = row.findall("q:render_choice/q:response_label", NS)
            texts = [label.findtext("q:material/q:mattext", namespaces=NS) for label in labels]
            assert sorted(t or "" for t in texts) == rights
            assert [label.get("ident") for label in labels] == [
                str(k + 1) for k in range(len(rights))
            ]


# --- what is left out, the settings, the file ---------------------------------------------------


def test_questions_canvas_cannot_hold_are_listed_and_not_written(own: Package) -> None:
    skipped = {s.question_id: s.reason for s in own.export.skipped}
    assert skipped
    everything = b"".join(own.files.values()).decode("utf-8", "replace")
    for bank in own.course.banks:
        for q in bank.questions:
            assert (q.id in skipped) == (q.qti_problem() is not None)
            assert (q.id in skipped) != (q.id in own.export.exported)
            if q.id in skipped:
                assert f'ident="konum-{q.id}"' not in everything
    assert any("program prints" in reason for reason in skipped.values())
    ordering = [
        q.id for b in own.course.banks for q in b.questions if isinstance(q, OrderingQuestion)
    ]
    assert ordering and set(ordering) <= set(own.export.exported)
    assert any("regular expression" in reason for reason in skipped.values())


def test_kept_options_stay_in_place_and_the_quiz_does_not_shuffle() -> None:
    src = model.Source("demo.yml", 1, 1)
    options = (Option("Right.", True), Option("Wrong.", False), Option("None.", False, pin=True))
    pinned = ChoiceQuestion(
        id="pinned", bank="demo", prompt="Which?", explanation="", source=src, options=options
    )
    bank = Bank("demo", "Demo", "demo.yml", (pinned,))
    export = build_qti([bank], {"pinned": make_concrete(pinned, 3)})
    assert isinstance(export.text, bytes)
    with zipfile.ZipFile(io.BytesIO(export.text)) as package:
        settings = ET.fromstring(package.read("konum-demo/assessment_meta.xml"))
        labels = ET.fromstring(package.read("konum-demo/konum-demo.xml")).iter(
            f"{{{QTI_NAMESPACE}}}response_label"
        )
        kept = [label.get("rshuffle") for label in labels]
    assert settings.findtext("{http://canvas.instructure.com/xsd/cccv1p0}shuffle_answers") == (
        "false"
    )
    assert kept == ["No" if o.pin else "Yes" for o in pinned.shown(make_concrete(pinned, 3))]


def test_a_variant_says_worked_solution_in_the_course_language(physics: Package) -> None:
    turkish = Package(physics.course, physics.deck, language="tr")
    heading = message("tr", "cards.worked_solution")
    assert heading != message("en", "cards.worked_solution")
    assert heading.encode() in b"".join(turkish.files.values())


def test_same_seed_same_bytes(physics: Package) -> None:
    assert Package(physics.course, physics.deck).export.text == physics.export.text


def test_write_is_atomic(physics: Package, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "quiz.zip"
    target.write_bytes(b"old")

    def fail(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("konum.files.os.replace", fail)
    with pytest.raises(ExportError, match="cannot write"):
        write_qti(physics.course.banks, physics.concretes, target)
    assert target.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["quiz.zip"]
    monkeypatch.undo()
    write_qti(physics.course.banks, physics.concretes, target, plugins=physics.course.plugins)
    assert zipfile.is_zipfile(target)


def test_cli_writes_the_package(physics: Package, tmp_path: Path) -> None:
    out = tmp_path / "physics.zip"
    result = konum(PHYSICS, "export", "qti", "-o", str(out))
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    total = sum(len(bank.questions) for bank in physics.course.banks)
    assert f"konum: wrote {len(physics.export.exported)} of {total} questions" in result.stdout
    assert f"in {physics.export.categories} quizzes" in result.stdout and str(out) in result.stdout
    assert out.read_bytes() == physics.export.text
