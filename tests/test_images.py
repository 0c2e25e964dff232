"""A teacher's own images in bank text: the files, the SVG sanitiser, the check, the pages.

Each test writes a small project into a temporary folder (a ``mkdocs.yml``-less project:
the folder passed as ``project``), with images made by Pillow or written as SVG text, and
loads its bank with :func:`konum.check.load_bank` / :func:`konum.check.check_banks` as
``konum check`` and the build do. Problems are compared as ``(line, column, question id,
field, message part)``.
"""

from __future__ import annotations

import base64
import io
import os
import re
import textwrap
from pathlib import Path

import pytest
from PIL import Image as Pillow

from konum import images, limits
from konum.htmlcheck import scan
from konum.markup import render_markdown
from konum.problems import format_text
from konum.render import page_html
from konum.svgsafe import SvgError, sanitise_svg
from konum.types import ChoiceQuestion, MatchingQuestion
from tests.helpers import check_banks, load_bank, make_concrete, render_quiz

SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20" viewBox="0 0 40 20">'
    '<rect width="40" height="20" fill="#1565c0"/></svg>'
)


def raster(kind: str = "PNG", size: tuple[int, int] = (12, 8), colour: str = "red") -> bytes:
    """A small image of ``kind`` (a Pillow format name), made here."""
    out = io.BytesIO()
    Pillow.new("RGB", size, colour).save(out, kind)
    return out.getvalue()


def project(tmp: Path, bank: str, files: dict[str, bytes | str] | None = None) -> Path:
    """A project in ``tmp``: ``banks/demo.yml`` holding ``bank`` (dedented) and ``files``
    (paths relative to ``tmp``). Returns the bank file."""
    for name, data in (files or {}).items():
        path = tmp / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data.encode() if isinstance(data, str) else data)
    path = tmp / "banks" / "demo.yml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(bank).lstrip(), encoding="utf-8")
    return path


def choice(prompt: str, explanation: str = "Because.") -> str:
    return f"""
    bank: demo
    title: Demo
    questions:
      - id: q
        type: choice
        prompt: {prompt}
        options:
          - text: "Yes"
            correct: true
          - text: "No"
        explanation: {explanation}
    """


def problems(path: Path, root: Path) -> list[tuple[int | None, int | None, str | None, str]]:
    report = check_banks([path], project=root)
    return [(p.line, p.column, p.question_id, f"{p.field}: {p.message}") for p in report.problems]


# --- the SVG sanitiser ------------------------------------------------------------------------


def test_an_svg_keeps_its_drawing_and_loses_the_editors_baggage() -> None:
    source = b"""<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"
     xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape"
     xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd"
     width="100" height="50" viewBox="0 0 100 50" inkscape:version="1.3">
  <!-- drawn by hand -->
  <sodipodi:namedview pagecolor="#fff"/>
  <metadata><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/></metadata>
  <defs><linearGradient id="g"><stop offset="0" stop-color="red"/></linearGradient></defs>
  <style>.a { fill: url(#g); }</style>
  <rect class="a" x="1" y="2" width="10" height="10" style="stroke: url('#g')"/>
  <use xlink:href="#g" x="5"/>
  <image width="1" height="1" href="data:image/png;base64,iVBORw0KGgo="/>
  <text xml:space="preserve" x="3" y="40">R<tspan>1</tspan> = 4 &#937;</text>
</svg>"""
    clean = sanitise_svg(source).decode()
    assert clean.startswith("<svg") and 'xmlns="http://www.w3.org/2000/svg"' in clean
    kept = ['viewBox="0 0 100 50"', "<linearGradient", "url(#g)", "<rect", 'href="#g"']
    kept += ['href="data:image/png;base64,', 'xml:space="preserve"', "R<tspan>1</tspan> = 4 Ω"]
    for part in kept:
        assert part in clean, part
    for dropped in ("inkscape", "sodipodi", "metadata", "rdf", "<!--", "DOCTYPE", "xlink"):
        assert dropped not in clean, dropped


ACTIVE = [
    ('<svg X onload="alert(1)"/>', "the event handler 'onload' on <svg>"),
    ("<svg X><script>alert(1)</script></svg>", "<script>"),
    ("<svg X><foreignObject><p>hi</p></foreignObject></svg>", "<foreignObject>"),
    ('<svg X><a href="https://example.com"><rect/></a></svg>', "<a>"),
    ('<svg X><set attributeName="href" to="javascript:alert(1)"/></svg>', "<set>"),
    ("<svg X><animate/></svg>", "<animate>"),
    ('<svg X><image href="https://example.com/track.png"/></svg>', "'https://example.com/track"),
    ('<svg X><image href="photo.png"/></svg>', "a reference to 'photo.png' outside the file"),
    ('<svg X><use href="other.svg#part"/></svg>', "'other.svg#part' outside the file on <use>"),
    ('<svg X><image href="data:image/svg+xml;base64,PHN2Zz4="/></svg>', "only PNG, JPEG"),
    ('<svg X><rect fill="url(https://example.com/p)"/></svg>', "url(https://example.com/p)"),
    (
        '<svg X><rect style="fill: url(javascript:x)"/></svg>',
        "url(javascript:x) (only url(#id) is allowed) in the attribute 'style'",
    ),
    ("<svg X><style>@import 'https://example.com/a.css';</style></svg>", "'@import' in CSS"),
    ("<svg X><style>rect { fill: \\75rl(x) }</style></svg>", "a CSS escape"),
    ("<svg X><style>rect { behavior: url(#x) }</style></svg>", "the CSS property 'behavior'"),
    ("<svg X><metadata><script>alert(1)</script></metadata></svg>", "<script> inside <metadata>"),
    ('<svg X><h:script xmlns:h="http://www.w3.org/1999/xhtml">x</h:script></svg>', "<script>"),
]


#: CSS that fetches, each past the cleaner before its allow-list (issue 48), by name.
FETCHING_CSS = {
    "image-set": (
        "<svg X><rect style=\"fill: image-set('http://e.example/a' 1x)\"/></svg>",
        "'image-set(' in CSS",
    ),
    "webkit-image-set": (
        "<svg X><style>rect { fill: -webkit-image-set(url(http://e.example/a) 1x) }</style></svg>",
        "'-webkit-image-set(' in CSS",
    ),
    "cursor": ('<svg X><rect style="cursor: url(http://e.example/c), auto"/></svg>', "'cursor'"),
    "cursor-sheet": (
        "<svg X><style>rect{cursor:url(http://e.example/c),auto}</style></svg>",
        "'cursor'",
    ),
    "background": ('<svg X><rect style="background: url(//e.example/b)"/></svg>', "'background'"),
    "font-face": (
        "<svg X><style>@font-face { font-family: x; src: url(http://e.example/f) }</style></svg>",
        "'@font-face' in CSS",
    ),
    "import-url": ("<svg X><style>@import url(http://e.example/a.css);</style></svg>", "'@import'"),
    "media": ("<svg X><style>@media all { rect { fill: red } }</style></svg>", "'@media' in CSS"),
    "unquoted-url-in-sheet": (
        "<svg X><style>rect { fill: url(http://e.example/p) }</style></svg>",
        "url(http://e.example/p)",
    ),
    "quoted-url": (
        "<svg X><rect style=\"fill: url('https://e.example/p')\"/></svg>",
        "url(https://e.example/p)",
    ),
    "url-in-presentation-attribute": (
        '<svg X><rect filter="url(http://e.example/f#x)"/></svg>',
        "url(http://e.example/f#x)",
    ),
    "image-set-in-presentation-attribute": (
        "<svg X><rect fill=\"image-set('http://e.example/a')\"/></svg>",
        "'image-set(' in CSS",
    ),
    "url-inside-a-function": (
        '<svg X><rect style="fill: rgb(url(http://e.example/a))"/></svg>',
        "url(http://e.example/a)",
    ),
    "expression": (
        '<svg X><rect style="fill: expression(alert(1))"/></svg>',
        "'expression(' in CSS",
    ),
    "element": ('<svg X><rect style="fill: element(#a)"/></svg>', "'element(' in CSS"),
    "custom-property": (
        '<svg X><rect style="--a: url(http://e.example/a)"/></svg>',
        "the CSS property '--a'",
    ),
    "unterminated-url": (
        '<svg X><rect style="fill: url(http://e.example/a"/></svg>',
        "url(http://e.example/a)",
    ),
}


@pytest.mark.parametrize(("svg", "named"), FETCHING_CSS.values(), ids=FETCHING_CSS.keys())
def test_css_that_can_fetch_is_refused_by_name(svg: str, named: str) -> None:
    source = svg.replace("X", 'xmlns="http://www.w3.org/2000/svg"', 1).encode()
    with pytest.raises(SvgError, match=r"remove (it|them) from the file") as caught:
        sanitise_svg(source)
    assert named in str(caught.value)


def test_css_that_paints_is_kept() -> None:
    source = b"""<svg xmlns="http://www.w3.org/2000/svg">
  <style>.a, rect > .b:hover { fill: rgb(10 20 30 / 50%); stroke: #263238 !important;
    font-family: "DejaVu Sans", sans-serif; transform: translate(2px, 3px) rotate(45deg) }
  </style>
  <rect class="a" style="fill: url(#g); stroke-width: calc(1px + 2px); opacity: .5"
        transform="matrix(1 0 0 1 0 0)" clip-path="url(#c)" font-size="16"/>
</svg>"""
    clean = sanitise_svg(source).decode()
    for kept in ("rgb(10 20 30 / 50%)", "url(#g)", "calc(1px + 2px)", 'clip-path="url(#c)"'):
        assert kept in clean, kept


@pytest.mark.parametrize(("svg", "named"), ACTIVE)
def test_anything_active_or_external_is_refused_by_name(svg: str, named: str) -> None:
    source = svg.replace("X", 'xmlns="http://www.w3.org/2000/svg"', 1).encode()
    with pytest.raises(SvgError, match=r"remove (it|them) from the file") as caught:
        sanitise_svg(source)
    assert named in str(caught.value)


@pytest.mark.parametrize(
    ("source", "message"),
    [
        (
            b'<!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;">]>'
            b'<svg xmlns="http://www.w3.org/2000/svg"><text>&b;&b;&b;</text></svg>',
            "declares XML entities",
        ),
        (
            b'<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
            b'<svg xmlns="http://www.w3.org/2000/svg"><text>&x;</text></svg>',
            "declares XML entities",
        ),
        (b'<svg xmlns="http://www.w3.org/2000/svg"><rect', "not well-formed XML"),
        (b"<svg><rect/></svg>", "found <svg> without a namespace"),
        (b"<html><body/></html>", "found <html> without a namespace"),
    ],
)
def test_svgs_konum_cannot_read_say_why(source: bytes, message: str) -> None:
    with pytest.raises(SvgError, match=re.escape(message)):
        sanitise_svg(source)


# --- image files ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "mime", "extension"),
    [
        ("PNG", "image/png", "png"),
        ("JPEG", "image/jpeg", "jpg"),
        ("GIF", "image/gif", "gif"),
        ("WEBP", "image/webp", "webp"),
    ],
)
def test_raster_images_are_read_by_their_bytes_not_their_names(
    tmp_path: Path, kind: str, mime: str, extension: str
) -> None:
    path = tmp_path / "Schaltplan Ü.bin"  # the name says nothing about the type
    path.write_bytes(raster(kind))
    image = images.read_image(path)
    assert image.mime == mime and image.data == path.read_bytes()
    assert re.fullmatch(rf"schaltplan-u-[0-9a-f]{{12}}\.{extension}", image.name)
    assert image.data_uri == f"data:{mime};base64," + base64.b64encode(image.data).decode()


def test_an_svg_is_stored_as_sanitised() -> None:
    image = images.check_image(SVG.replace("<rect", "<!-- x --><rect").encode(), "plot")
    assert image.mime == "image/svg+xml" and b"<!--" not in image.data
    assert image.data == sanitise_svg(SVG.encode())


def test_flat_names_never_collide_and_never_nest() -> None:
    one, two = raster(colour="red"), raster(colour="blue")
    names = {images.flat_name("circuit", data, "PNG") for data in (one, two)}
    assert len(names) == 2 and all("/" not in n and n.startswith("circuit-") for n in names)
    assert images.flat_name("circuit", one, "PNG") == images.flat_name("circuit", one, "PNG")
    assert images.flat_name("日本", one, "PNG").startswith("image-")
    assert len(images.flat_name("x" * 300, one, "PNG")) == len("x" * 40) + len("-") + 12 + 4


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"hello, world", "not an image: expected PNG, JPEG, GIF, WebP or SVG, found text"),
        (b"%PDF-1.7 ...", "found a PDF document"),
        (b"BM\x00\x00", "found a BMP image (save it as PNG)"),
        (b"", "found an empty file"),
        (raster("PNG")[:40], "starts like a PNG image but is not one"),
        (b"<svg><rect/></svg>", "the SVG cannot be used: expected an <svg> root element"),
        (raster("PNG", size=(limits.IMAGE_SIDE + 1, 1)), "expected at most 8,192 pixels a side"),
        (
            b"\x89PNG\r\n\x1a\n" + bytes(limits.IMAGE_BYTES),
            "expected at most 512 KiB, found 524,296 bytes",
        ),
    ],
)
def test_files_that_are_not_usable_images_say_why(data: bytes, message: str) -> None:
    with pytest.raises(images.ImageError, match=re.escape(message)):
        images.check_image(data, "x")


def test_a_large_file_is_refused_before_it_is_read(tmp_path: Path) -> None:
    path = tmp_path / "photo.jpg"
    path.write_bytes(b"\xff\xd8\xff" + bytes(2 * limits.IMAGE_BYTES))
    with pytest.raises(images.ImageError, match=r"expected at most 512 KiB, found 1\.0 MiB"):
        images.read_image(path)


def test_an_image_is_read_again_only_when_it_changes(tmp_path: Path) -> None:
    path = tmp_path / "dot.png"
    path.write_bytes(raster(colour="red"))
    first = images.read_image(path)
    assert images.read_image(path) is first
    path.write_bytes(raster(colour="blue", size=(13, 8)))
    os.utime(path, ns=(1, 1))
    assert images.read_image(path).name != first.name


# --- rendering --------------------------------------------------------------------------------


def test_pages_inline_a_checked_image_and_exports_keep_its_reference(tmp_path: Path) -> None:
    (tmp_path / "dot.png").write_bytes(raster())
    image = images.read_image(tmp_path / "dot.png")  # as loading a bank does
    text = f'Look: ![A red dot]({image.reference} "Figure 1")'
    store = {image.name: image}  # the images a course checked
    page = images.inline(render_markdown(text), store)
    assert f'src="{image.data_uri}"' in page and 'alt="A red dot"' in page
    assert 'title="Figure 1"' in page
    refs = render_markdown(text)
    assert f'src="{image.reference}"' in refs and "data:" not in refs
    assert images.images_in(refs, store) == [image]


@pytest.mark.parametrize(
    "src",
    [
        "https://example.com/a.png",
        "images/a.png",
        "konum-image/never-read-0123456789ab.png",
        "data:image/png;base64,iVBORw0KGgo=",
        "javascript:alert(1)",
    ],
)
def test_an_image_konum_did_not_check_keeps_no_source(src: str) -> None:
    """The sanitiser drops every source but a reference's, and a page shows a reference
    only to an image its course checked (the alt text otherwise)."""
    for text in (f"![x]({src})", f'<img src="{src}" alt="x">'):
        html = page_html(text, {})
        assert "src=" not in html and "x" in html, html


# --- the check: bank text to references, every problem at its line ------------------------------


def test_images_in_every_text_field_load_as_references(tmp_path: Path) -> None:
    bank = project(
        tmp_path,
        """
        bank: demo
        title: Demo
        questions:
          - id: pick
            type: choice
            prompt: "Which is red? ![A red square](images/red.png)"
            hint: <img src="images/plot.svg" alt="A blue bar">
            options:
              - text: "![A red square](images/red.png)"
                correct: true
                feedback: "![A blue bar](<images/plot.svg>) is not red."
              - text: Blue
            explanation: |
              Red, as drawn:

              ![A red square](images/red.png "The square")
          - id: pairs
            type: matching
            prompt: Match.
            pairs:
              - left: "![A red square](images/red.png)"
                right: red
              - left: "![A blue bar](images/plot.svg)"
                right: blue
            explanation: Colours.
          - id: force
            type: computed
            formula: "m * a"
            params:
              m: [2, 3, 4]
              a: [1, 2]
            prompt: |
              ![A cart pulled to the right](../docs/images/cart.png)

              A {{ m }} kg cart accelerates at {{ a }} m/s². What force acts on it?
            explanation: F = m a.
        flashcards:
          - id: card
            front: "What is drawn? ![A red square](images/red.png)"
            back: A red square.
        """,
        {
            "banks/images/red.png": raster(),
            "banks/images/plot.svg": SVG,
            "docs/images/cart.png": raster(colour="green"),
        },
    )
    loaded = load_bank(bank, project=tmp_path)
    pick, pairs, force = loaded.questions
    assert isinstance(pick, ChoiceQuestion) and isinstance(pairs, MatchingQuestion)
    texts = [pick.prompt, pick.hint, pick.options[0].text, pick.options[0].feedback]
    texts += [pick.explanation, pairs.pairs[0].left, pairs.pairs[1].left, force.prompt]
    texts.append(loaded.flashcards[0].front)
    for text in texts:
        assert text is not None and images.PREFIX in text and "images/" not in text, text
    assert pick.options[0].feedback.startswith("![A blue bar](konum-image/plot-")
    assert '<img src="konum-image/plot-' in (pick.hint or "")
    assert len({m for t in texts for m in re.findall(r"konum-image/[^)\"' ]+", t or "")}) == 3
    assert images.mentions_images(pick) and not images.mentions_images(loaded.flashcards[0].back)


def test_every_variant_of_a_computed_question_shows_its_image(tmp_path: Path) -> None:
    bank = project(
        tmp_path,
        """
        bank: demo
        title: Demo
        questions:
          - id: force
            type: computed
            formula: "m * a"
            params:
              m: {min: 2, max: 20}
              a: [1, 2, 3]
            prompt: "![A cart pulled to the right](images/cart.png) A {{ m }} kg cart accelerates at {{ a }} m/s². Force?"
            explanation: F = m a.
        """,  # noqa: E501
        {"banks/images/cart.png": raster(colour="green")},
    )
    report = check_banks(bank, project=tmp_path)
    (question,) = report.banks[0].questions
    concrete = make_concrete(question, 5, 4)
    html = render_quiz([concrete], "demo", images=report.images)
    uri = images.read_image(tmp_path / "banks" / "images" / "cart.png").data_uri
    # The first variant in the form, the others in the data "New numbers" swaps in.
    assert html.count(uri) == len(concrete.variants) == 4
    assert "konum-image/" not in html


PROBLEMS = [
    ('"![](images/red.png)"', "an image needs alt text that says what it shows"),
    ("'<img src=\"images/red.png\">'", 'expected <img src="..." alt="what it shows">'),
    (
        '"![A dot](images/rde.png)"',
        "no such image file: images/rde.png (looked for "
        "banks/images/rde.png); did you mean 'red.png'?",
    ),
    ('"![A dot](images/notes.png)"', "image images/notes.png: not an image: expected PNG, JPEG,"),
    (
        '"![A dot](images/evil.svg)"',
        "image images/evil.svg: the SVG cannot be used: it holds"
        " the event handler 'onload' on <svg>, <script>",
    ),
    ('"![A dot](https://example.com/dot.png)"', "remote images are not allowed"),
    ('"![A dot](//example.com/dot.png)"', "remote images are not allowed"),
    ('"![A dot](data:image/png;base64,iVBORw0KGgo=)"', "a data: URL is not allowed as an image"),
    ('"![A dot](javascript:alert(1))"', "a 'javascript:' image source is not allowed"),
    ('"<img src=\\"file:///etc/passwd\\" alt=\\"A dot\\">"', "a 'file:' image source"),
    ('"![A dot](/etc/passwd)"', "an absolute path is not allowed (/etc/passwd)"),
    ('"![A dot](C:/dot.png)"', "an absolute path is not allowed (C:/dot.png)"),
    ('"![A dot](../../../etc/passwd)"', "the path ../../../etc/passwd leaves the project"),
    ('"![A dot](images\\\\red.png)"', "write '/' between folders"),
    ('"![A dot](images/red.png?v=2)"', "found a query or fragment"),
    ('"![A dot](images)"', "expected an image file, found a folder: images"),
    ('"![A dot][dot]\\n\\n[dot]: images/red.png"', "an image konum cannot read (images/red.png)"),
]


@pytest.mark.parametrize(("prompt", "message"), PROBLEMS)
def test_each_unusable_image_is_a_problem_at_its_place(
    tmp_path: Path, prompt: str, message: str
) -> None:
    bank = project(
        tmp_path,
        choice(prompt),
        {
            "banks/images/red.png": raster(),
            "banks/images/notes.png": "just some notes",
            "banks/images/evil.svg": '<svg xmlns="http://www.w3.org/2000/svg" onload="x()">'
            "<script>x()</script></svg>",
        },
    )
    found = problems(bank, tmp_path)
    assert len(found) == 1, found
    line, column, qid, text = found[0]
    assert (line, qid) == (6, "q") and text.startswith("prompt: ") and message in text, found
    if not prompt.startswith('"![A dot]['):  # a reference-style image: the text's start
        assert column == 13 + (prompt.index("!") if "!" in prompt else prompt.index("<")), found


def test_problems_read_as_konum_check_prints_them(tmp_path: Path) -> None:
    bank = project(tmp_path, choice("Look."), {"banks/images/red.png": raster()})
    with bank.open("a", encoding="utf-8") as f:
        f.write("    hint: |\n      Two pictures:\n\n")
        f.write("      ![](images/red.png) ![A dot](images/no.png)\n")
    report = check_banks([bank], project=tmp_path)
    lines = format_text(report.problems, files=1, questions=0).splitlines()
    assert lines[0] == (
        f"{bank}:15:7: [q] hint: an image needs alt text that says what it shows: "
        "expected ![what it shows](path)"
    )
    assert lines[1].startswith(f"{bank}:15:27: [q] hint: no such image file: images/no.png")


def test_a_link_out_of_the_project_is_refused(tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere" / "secret.png"
    outside.parent.mkdir()
    outside.write_bytes(raster())
    root = tmp_path / "site"
    bank = project(root, choice('"![A dot](images/secret.png)"'))
    (root / "banks" / "images").mkdir()
    (root / "banks" / "images" / "secret.png").symlink_to(outside)
    ((_, _, _, message),) = problems(bank, root)
    assert f"images/secret.png is a link to {outside}, outside the project" in message


def test_a_link_inside_the_project_and_a_bank_folder_outside_it_are_fine(tmp_path: Path) -> None:
    root = tmp_path / "site"
    (root / "docs" / "images").mkdir(parents=True)
    (root / "docs" / "images" / "red.png").write_bytes(raster())
    bank = project(root, choice('"![A dot](images/red.png)"'))
    (root / "banks" / "images").mkdir()
    (root / "banks" / "images" / "red.png").symlink_to(root / "docs" / "images" / "red.png")
    assert problems(bank, root) == []
    # Banks kept outside the project (banks: ../shared) may show images of their own folder.
    shared = project(tmp_path / "shared", choice('"![A dot](images/red.png)"'))
    (shared.parent / "images").mkdir()
    (shared.parent / "images" / "red.png").write_bytes(raster())
    assert problems(shared, root) == []


@pytest.mark.parametrize(
    ("bank_text", "line", "field", "reason"),
    [
        ("title: '![A dot](images/red.png)'", 2, "title", "menus and deck names"),
        ("unit: '![A dot](images/red.png)'", 8, "unit", "after a number on one line"),
        ("right: '![A dot](images/red.png)'", 14, "pairs[0].right", "a drop-down list"),
        ("distractors: ['![A dot](images/red.png)']", 16, "distractors[0]", "a drop-down list"),
    ],
)
def test_fields_that_hold_only_text_refuse_images(
    tmp_path: Path, bank_text: str, line: int, field: str, reason: str
) -> None:
    source = """
    bank: demo
    title: Demo
    questions:
      - id: n
        type: numeric
        prompt: How far?
        answer: 3
        unit: m
        explanation: Three.
      - id: m
        type: matching
        prompt: Match.
        pairs:
          - {left: a, right: b}
          - {left: c, right: d}
        distractors: [e]
        explanation: Letters.
    """
    key = bank_text.split(":")[0]
    lines = textwrap.dedent(source).lstrip().split("\n")
    if key == "right":
        lines[13] = lines[13].replace("right: b", bank_text)
    else:
        at = next(i for i, text in enumerate(lines) if text.strip().startswith(f"{key}:"))
        lines[at] = lines[at][: len(lines[at]) - len(lines[at].lstrip())] + bank_text
    bank = project(tmp_path, "\n".join(lines), {"banks/images/red.png": raster()})
    found = problems(bank, tmp_path)
    assert [(f[0], f[3].split(":")[0]) for f in found] == [(line, field)]
    assert "images are not allowed here: " in found[0][3] and reason in found[0][3]


def test_the_html_check_leaves_image_sources_to_the_image_check() -> None:
    # One problem per image, from the image check: no second one about the link scheme.
    assert scan("![A dot](javascript:alert(1)) and <img src='javascript:x' alt='y'>") == []
    (issue,) = scan("<img src='images/a.png' alt='y' onerror='x()'>")
    assert "event handler attribute 'onerror' on <img>" in issue.message
    (link,) = scan("![A dot](images/a.png) and [a link](javascript:alert(1))")
    assert "a 'javascript:' link is not allowed" in link.message and link.offset == 36


def test_the_authoring_pages_image_example_loads(tmp_path: Path) -> None:
    page = (Path(__file__).parent.parent / "content" / "authoring.md").read_text("utf-8")
    (example,) = [b for b in re.findall(r"^```yaml\n(.*?)^```$", page, re.M | re.S) if "![" in b]
    assert example.startswith("# in banks/circuits.yml, the picture in banks/images/series.svg")
    bank = project(
        tmp_path,
        "bank: demo\ntitle: Demo\nquestions:\n" + example,
        {"banks/images/series.svg": SVG},
    )
    (question,) = load_bank(bank, project=tmp_path).questions
    assert question.prompt.startswith("![A battery and two lamps in one loop of wire](konum-image/")
