"""A bank's own images in every export: the Anki package (read by Anki itself), Anki text and
CSV, the study page's cards, Moodle XML and GIFT.

The bank is loaded from YAML in a temporary project, so its images go through the same
check and naming as in ``konum build``: a PNG and two different SVGs that are both called
``circuit.svg`` (one beside the bank, one in the docs folder), which must become two media
files, never one overwriting the other.
"""

from __future__ import annotations

import base64
import csv
import io
import re
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from anki import import_export_pb2
from anki.collection import Collection, ImportAnkiPackageOptions, ImportAnkiPackageRequest
from lxml import etree
from PIL import Image as Pillow

from konum import images
from konum.exports.gift import build_gift
from konum.svgsafe import sanitise_svg
from konum.types import Bank, Concrete
from tests.helpers import (
    build_cards,
    build_moodle,
    export,
    load_bank,
    make_concrete,
    write_downloads,
)

T1 = 1_700_000_000
BESIDE = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><!-- beside the bank -->'
    '<rect width="40" height="20" fill="#1565c0"/></svg>'
)
IN_DOCS = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20">'
    '<circle cx="10" cy="10" r="8" fill="#c62828"/></svg>'
)
BANK = """
bank: wiring
title: Wiring
questions:
  - id: which-lamp
    type: choice
    prompt: "Which lamp lights? ![A battery, a switch and two lamps](images/circuit.svg)"
    options:
      - text: "![The left lamp](images/lamp.png)"
        correct: true
        feedback: "Yes: ![The closed loop](../docs/images/circuit.svg)"
      - text: The right lamp
        feedback: Its switch is open.
    explanation: The loop through the left lamp is closed.
  - id: plain
    type: numeric
    prompt: How many lamps are there?
    answer: 2
    explanation: Two lamps.
  - id: ohm
    type: computed
    formula: "V / R"
    params:
      V: [3, 6, 9]
      R: [10, 20]
    prompt: "![A battery across one resistor](images/circuit.svg) A {{ V }} V battery, a {{ R }} Ω resistor: what current flows?"
    decimals: 2
    explanation: "![The loop again](../docs/images/circuit.svg) Ohm's law."
flashcards:
  - id: lamp
    front: "What is this? ![A lamp](images/lamp.png)"
    back: A lamp.
"""  # noqa: E501


Course = tuple[Bank, dict[str, Concrete], dict[str, images.Image]]


def _png() -> bytes:
    data = io.BytesIO()
    Pillow.new("RGB", (16, 16), "gold").save(data, "PNG")
    return data.getvalue()


@pytest.fixture
def course(tmp_path: Path) -> Course:
    """The bank, its concretes (seed 3, two variants), and its images by file."""
    files = {
        "banks/images/circuit.svg": BESIDE.encode(),
        "banks/images/lamp.png": _png(),
        "docs/images/circuit.svg": IN_DOCS.encode(),
    }
    for name, data in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(data)
    (tmp_path / "banks" / "wiring.yml").write_text(textwrap.dedent(BANK), encoding="utf-8")
    bank = load_bank(tmp_path / "banks" / "wiring.yml", project=tmp_path)
    concretes = {q.id: make_concrete(q, 3, 2) for q in bank.questions}
    found = {name: images.read_image(tmp_path / name) for name in files}
    return bank, concretes, found


def test_the_images_have_flat_names_that_do_not_collide(course: Course) -> None:
    _, _, found = course
    beside, lamp, in_docs = (found[n].name for n in found)
    assert beside != in_docs and beside.startswith("circuit-") and in_docs.startswith("circuit-")
    assert lamp.startswith("lamp-") and lamp.endswith(".png")
    assert all("/" not in name for name in (beside, lamp, in_docs))


@pytest.fixture
def collection(tmp_path: Path) -> Iterator[Collection]:
    folder = tmp_path / "anki"
    folder.mkdir()
    col = Collection(str(folder / "collection.anki2"))
    try:
        yield col
    finally:
        col.close()


def store(found: dict[str, images.Image]) -> dict[str, images.Image]:
    """The images a course checked, by flat name."""
    return {image.name: image for image in found.values()}


def _import(col: Collection, path: Path) -> None:
    newer = import_export_pb2.IMPORT_ANKI_PACKAGE_UPDATE_CONDITION_IF_NEWER
    options = ImportAnkiPackageOptions(
        merge_notetypes=False,
        update_notes=newer,
        update_notetypes=newer,
        with_scheduling=False,
        with_deck_configs=False,
    )
    col.import_anki_package(ImportAnkiPackageRequest(package_path=str(path), options=options))


def test_anki_imports_every_image_as_media_its_cards_reference(
    course: Course, collection: Collection, tmp_path: Path
) -> None:
    bank, concretes, found = course
    path = tmp_path / "wiring.apkg"
    export(
        "anki",
        [bank],
        list(concretes.values()),
        path,
        deck="Physics",
        timestamp=T1,
        images=store(found),
    )
    _import(collection, path)
    media = Path(collection.media.dir())
    assert sorted(p.name for p in media.iterdir()) == sorted(i.name for i in found.values())
    for image in found.values():
        assert (media / image.name).read_bytes() == image.data
    assert b"<!--" not in (media / found["banks/images/circuit.svg"].name).read_bytes()
    # Anki's own media check: every file a note names is there, and every file is used.
    check = collection.media.check()
    assert list(check.missing) == [] and list(check.unused) == []
    fields = " ".join(
        field for nid in collection.find_notes("") for field in collection.get_note(nid).fields
    )
    assert "konum-image/" not in fields and "data:" not in fields
    assert f'<img src="{found["banks/images/lamp.png"].name}" alt="The left lamp">' in fields
    assert fields.count(found["banks/images/circuit.svg"].name) >= 3  # the prompt, each variant


def test_text_and_csv_name_the_packages_files_with_the_alt_text(
    course: Course, tmp_path: Path
) -> None:
    bank, concretes, found = course
    written = write_downloads(
        [bank], list(concretes.values()), tmp_path / "dl", timestamp=T1, images=store(found)
    )
    lamp = found["banks/images/lamp.png"].name
    for kind in ("text", "csv"):
        text = written[kind].read_text(encoding="utf-8")
        assert "data:" not in text and "konum-image/" not in text, kind
        assert f'<img src=""{lamp}"" alt=""A lamp"">' in text, kind  # quoted by csv
    with written["csv"].open(encoding="utf-8", newline="") as handle:
        fronts = [row[0] for row in csv.reader(handle)]
    assert any(f'<img src="{lamp}" alt="A lamp">' in front for front in fronts)


def test_the_study_pages_cards_carry_data_uris(course: Course) -> None:
    bank, concretes, found = course
    cards = build_cards([bank], list(concretes.values()), math="mathml", store=store(found))
    html = " ".join(card.front + card.back for card in cards)
    assert all(image.data_uri in html for image in found.values())
    assert "konum-image/" not in html and all(card.media == () for card in cards)


def _moodle(course: Course) -> etree._Element:
    bank, concretes, found = course
    text = build_moodle([bank], concretes, deck="Physics", images=store(found)).text
    return etree.fromstring(text.encode())


def test_moodle_carries_each_image_beside_the_text_that_shows_it(course: Course) -> None:
    _, _, found = course
    root = _moodle(course)
    question = root.find("question[idnumber='konum:which-lamp']")
    assert question is not None

    def files(element: etree._Element) -> dict[str, bytes]:
        return {f.get("name"): base64.b64decode(f.text) for f in element.findall("file")}

    beside, lamp, in_docs = (found[n] for n in found)
    prompt = question.find("questiontext")
    assert f'src="@@PLUGINFILE@@/{beside.name}"' in prompt.findtext("text")
    assert files(prompt) == {beside.name: beside.data}
    right = question.find("answer[@fraction='100']")
    assert f'<img src="@@PLUGINFILE@@/{lamp.name}" alt="The left lamp">' in right.findtext("text")
    assert files(right) == {lamp.name: lamp.data}
    feedback = right.find("feedback")
    assert files(feedback) == {in_docs.name: in_docs.data}
    assert files(question.find("generalfeedback")) == {}
    assert sanitise_svg(base64.b64decode(prompt.find("file").text)) == beside.data
    text = etree.tostring(root, encoding="unicode")
    assert "konum-image/" not in text and "data:image" not in text
    # Every file element is named in its own text, and each text's files are listed once.
    for element in root.iter():
        names = [f.get("name") for f in element.findall("file")]
        assert len(names) == len(set(names))
        for name in names:
            assert f"@@PLUGINFILE@@/{name}" in (element.findtext("text") or "")


def test_a_computed_question_in_moodle_shows_its_image_in_every_form(course: Course) -> None:
    _, _, found = course
    root = _moodle(course)
    texts = [
        q.find("questiontext")
        for q in root.iter("question")
        if (q.findtext("idnumber") or "").startswith("konum:ohm")
    ]
    assert texts
    for element in texts:
        assert f"@@PLUGINFILE@@/{found['banks/images/circuit.svg'].name}" in element.findtext(
            "text"
        )
        assert element.find("file") is not None


def test_gift_leaves_out_the_questions_with_images_and_says_why(course: Course) -> None:
    bank, concretes, _ = course
    result = build_gift([bank], concretes, deck="Physics")
    assert result.exported == ("plain",)
    reasons = {s.question_id: s.reason for s in result.skipped}
    assert set(reasons) == {"which-lamp", "ohm"}
    assert all(
        "GIFT files carry no images (Moodle XML carries them)" in r for r in reasons.values()
    )
    assert "<img" not in result.text and re.search(r"::plain::", result.text)


#: The SVGs issue 48 saw pass the cleaner into the site and the QTI, Moodle and Anki files.
FETCHING = {
    "image-set": "fill: image-set('http://e.example/a' 1x)",
    "webkit-image-set": "fill: -webkit-image-set(url(http://e.example/b) 1x)",
    "cursor": "cursor: url(http://e.example/c), auto",
}


@pytest.mark.parametrize("css", FETCHING.values(), ids=FETCHING.keys())
def test_an_svg_whose_css_fetches_reaches_no_page_and_no_export(tmp_path: Path, css: str) -> None:
    """The site and every export take a bank's images from the checked course: the check
    refuses the image at the text that shows it, and each command stops with that line."""
    from tests.miniproject import konum, make_project

    project = make_project(tmp_path)
    banks = project / "content" / "banks"
    (banks / "images").mkdir()
    svg = f'<svg xmlns="http://www.w3.org/2000/svg"><rect style="{css}"/></svg>'
    (banks / "images" / "a.svg").write_text(svg, encoding="utf-8")
    bank = banks / "mini.yml"
    text = bank.read_text(encoding="utf-8")
    old = "    prompt: Which function fills the even columns of the sinusoidal table?\n"
    new = '    prompt: "Which function? ![A drawing](images/a.svg)"\n'
    bank.write_text(text.replace(old, new), encoding="utf-8")
    for command in (["check"], ["export", "qti"], ["export", "moodle"], ["export", "anki"]):
        result = konum(project, *command)
        assert result.returncode == 1, (command, result.stdout, result.stderr)
        assert "mini.yml:6:" in result.stderr and "[mini-choice]" in result.stderr, command
        assert css.split(":")[0] in result.stderr or "(' in CSS" in result.stderr, command
    assert not (project / "exports").exists() or not any((project / "exports").iterdir())
