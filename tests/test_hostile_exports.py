"""Issue 48's hostile inputs for recordings, exports and blanks' patterns, each a named
case: what ``konum check --record`` writes reads back, exports escape or refuse what their
formats reserve, a pattern that could run for long is refused, and what is refused is
refused with one line; bank and translation inputs that ended in a traceback or changed a
read-only file are problems or refusals.
"""

from __future__ import annotations

import csv
import html
import io
import re
import tempfile
import textwrap
import time
import tracemalloc
import zipfile
from pathlib import Path
from typing import Any

import pytest
from anki.collection import Collection
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from lxml import etree
from test_exports import import_apkg, import_text, notes_by_guid
from test_gift import Parse, gift_parse  # noqa: F401 (a fixture)

from konum import exports, model, record
from konum.build import read_site_config
from konum.course import course_for
from konum.errors import KonumError
from konum.exports.gift import build_gift
from konum.exports.moodle import build_moodle
from konum.exports.qti import build_qti
from konum.exports.text import write_csv
from konum.messages import catalogue
from konum.model import Flashcard
from konum.problems import BankError
from konum.record import record_outputs
from konum.rehash import update_hashes
from konum.translate import check_translations
from konum.types import (
    Bank,
    Blank,
    Card,
    ChoiceQuestion,
    FillQuestion,
    MatchingQuestion,
    NumericQuestion,
    Option,
    OutputQuestion,
    Pair,
    Question,
)
from konum.types.fill import regex_example
from tests import helpers

REPO = Path(__file__).resolve().parents[1]

# --- konum check --record: every output reads back ------------------------------------------

#: Outputs a block scalar cannot hold as they are, by name: what the solution prints.
PRINTED = {
    "nul": "a\x00b",
    "escape": "\x1b[31mred\x1b[0m",
    "vertical-tab": "a\vb",
    "form-feed": "a\fb",
    "delete": "a\x7fb",
    "next-line": "a\x85b",
    "carriage-return": "a\rb",
    "line-separator": "a\u2028b",
    "paragraph-separator": "a\u2029b",
    "leading-tab": "\tindented",
    "leading-space": "   3\n  42",
    "trailing-spaces": "a   \nb",
    "blank-lines-inside": "a\n\n\nb",
    "byte-order-mark": "\ufeffa",
    "quote-and-hash": "\"a\" # not a comment: 'b'",
}


def _bank(printed: str) -> str:
    solution = f"import sys\nsys.stdout.write({printed!r})\n"
    return (
        "bank: progs\n"
        "title: Programs\n"
        "questions:\n"
        "  - id: prog-odd  # a comment that stays\n"
        "    type: output\n"
        "    prompt: Print it.\n"
        f"    solution: |\n{textwrap.indent(solution, '      ')}"
        "    explanation: It prints.\n"
    )


@pytest.mark.parametrize("printed", PRINTED.values(), ids=PRINTED.keys())
def test_a_recording_reads_back_as_printed(tmp_path: Path, printed: str) -> None:
    path = tmp_path / "progs.yml"
    path.write_text(_bank(printed), encoding="utf-8")
    assert record_outputs([path], tmp_path) == [str(path)]
    text = path.read_text(encoding="utf-8")
    assert "  - id: prog-odd  # a comment that stays\n" in text
    [question] = helpers.load_bank(path).questions  # as a build reads it: no program runs
    assert isinstance(question, OutputQuestion)
    assert question.expected == printed.replace("\r\n", "\n").rstrip("\n")
    assert record_outputs([path], tmp_path) == []  # and it is what the solution prints


def test_nothing_is_written_unless_it_reads_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A recording that would not read back (here: as if no form did) leaves the bank as it
    was and says so in one line naming the file, the question's line and its id."""
    path = tmp_path / "progs.yml"
    path.write_text(_bank("x"), encoding="utf-8")
    before = path.read_bytes()
    monkeypatch.setattr(record, "_reads_back", lambda *args: False)
    with pytest.raises(KonumError) as caught:
        record_outputs([path], tmp_path)
    assert str(caught.value) == (
        f"{path}:4: [prog-odd] recorded: the output could not be written so that it reads "
        "back as printed; the bank is left as it was"
    )
    assert path.read_bytes() == before


def test_a_solution_that_prints_nothing_is_not_recorded(tmp_path: Path) -> None:
    path = tmp_path / "progs.yml"
    path.write_text(_bank(""), encoding="utf-8")
    before = path.read_bytes()
    assert record_outputs([path], tmp_path) == []
    assert path.read_bytes() == before
    report = helpers.check_banks([path], run_programs=True)
    [problem] = report.problems
    assert (problem.line, problem.question_id, problem.field) == (7, "prog-odd", "solution")
    assert "printed nothing" in problem.message


def test_a_recording_keeps_the_rest_of_the_file(tmp_path: Path) -> None:
    """Flow lists, quotes, a hash ruamel.yaml's round trip would turn into ``.inf``, CRLF
    line ends: only the new entry is new."""
    rest = (
        "  - id: other\n"
        "    type: choice\n"
        "    prompt: 'Which?'   # quoted\n"
        "    options: [\n"
        "      a, b]\n"
        "    answer: a\n"
        "    en: 27e56584\n"
    )
    path = tmp_path / "progs.yml"
    original = (_bank("x") + rest).replace("\n", "\r\n")
    path.write_bytes(original.encode("utf-8"))
    assert record_outputs([path], tmp_path) == [str(path)]
    text = path.read_bytes().decode("utf-8")
    assert text.endswith(rest.replace("\n", "\r\n"))
    assert text.startswith(original.split("    explanation:")[0])
    assert "\r\n    recorded:\r\n      solution: " in text and "\n\n" not in text


# --- exports: what each format reserves -----------------------------------------------------

SRC = model.Source("demo.yml", 1, 1)

#: Hostile texts by name: (the field they go into, the text).
HOSTILE = {
    "title-adds-a-gift-question": ("title", "Demo\n\n::evil::Injected{=yes ~no}\n\nx"),
    "title-adds-a-category": ("title", "Demo\n$CATEGORY: $course$/top/evil\n"),
    "title-crlf-category": ("title", "Demo\r\n$CATEGORY: $course$/top/evil"),
    "title-line-separator": ("title", "Demo\u2028$CATEGORY: evil\u2029x\x85y"),
    "title-anki-subdeck": ("title", "Demo::evil::deeper"),
    "title-control-characters": ("title", "Demo\x1b[31m\x00\x0b\x0c\x7f"),
    "title-only-a-nul": ("title", "\x00"),
    "title-anki-separator-only": ("title", "::"),
    "title-colons-at-the-ends": ("title", ":Demo:"),
    "deck-only-controls": ("deck", "\x1b\x07"),
    "deck-newline": ("deck", "Course\n$CATEGORY: $course$/top/evil"),
    "deck-control": ("deck", "Course\x1b]0;owned\x07"),
    "prompt-control-characters": ("prompt", "Which \x00\x1b[8m\x0b\x0c\ufffe one?"),
    "prompt-xml-markup": ("prompt", "]]></text></questiontext><question type='x'>"),
    "prompt-gift-braces": ("prompt", "} ::evil::x{=a}\n\n$CATEGORY: evil\n\n{"),
    "option-control-characters": ("option", "ok\x00\x1b[2J"),
    "option-spreadsheet-formula": ("option", '=HYPERLINK("http://evil.example/","x")'),
    "front-spreadsheet-formula": ("front", "=cmd|' /C calc'!A0"),
    "front-carriage-return": ("front", "a\rb\r=1+2"),
    "back-spreadsheet-plus": ("back", "+1+cmd|' /C calc'!A0"),
    "tag-spreadsheet-at": ("tag", "@SUM(1+1)*cmd|' /C calc'!A0"),
    "tag-spreadsheet-minus": ("tag", "-2+3+cmd|' /C calc'!A0"),
    "tag-tab": ("tag", "\t=1+2"),
    "explanation-cr": ("explanation", "a\rb\r\n\r\n$CATEGORY: evil"),
    "hint-gift-and-xml": ("hint", "}\n\n$CATEGORY: evil\x00 ]]>"),
    "unit-gift-question": ("unit", "kPa\n\n::evil::x{T}"),
    "answer-gift-braces": ("answer", "a}=b{~c#d"),
    "answer-format-bracket": ("answer", "[plain] x"),
    "matching-left-arrow": ("left", "x -> y = z\n\n$CATEGORY: evil"),
    "matching-right-control": ("right", "=1+2\x1b\x00 -> {}"),
}

#: What a spreadsheet reads as a formula at the start of a cell (OWASP, CSV injection).
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _hostile_bank(field: str, text: str) -> tuple[Bank, str]:
    """A bank with ``text`` in ``field`` (elsewhere plain), and the deck name."""
    prompt = text if field == "prompt" else "Which one?"
    explanation = text if field == "explanation" else "Because."
    option = text if field == "option" else "this one"
    left, right = (text if field == side else side for side in ("left", "right"))
    questions: tuple[Question, ...] = (
        ChoiceQuestion(
            id="q-choice",
            bank="demo",
            prompt=prompt,
            explanation=explanation,
            source=SRC,
            options=(Option(option, True, feedback=option), Option("that one", False)),
            tags=(text,) if field == "tag" else (),
            hint=text if field == "hint" else None,
        ),
        NumericQuestion(
            id="q-number",
            bank="demo",
            prompt=prompt,
            explanation=explanation,
            source=SRC,
            answer=-2.5,
            tolerance=0.1,
            unit=text if field == "unit" else None,
        ),
        FillQuestion(
            id="q-fill",
            bank="demo",
            prompt=f"{prompt} ____",
            explanation=explanation,
            source=SRC,
            blanks=(Blank((text if field == "answer" else "answer",)),),
        ),
        MatchingQuestion(
            id="q-match",
            bank="demo",
            prompt=prompt,
            explanation=explanation,
            source=SRC,
            pairs=(Pair(left, right), Pair("one", "1"), Pair("two", "2")),
        ),
    )
    card = Flashcard(
        "fc-1",
        "demo",
        text if field == "front" else "Front",
        text if field == "back" else "-3",
        SRC,
    )
    title = text if field == "title" else "Demo"
    deck = text if field == "deck" else "Course"
    return Bank("demo", title, "demo.yml", questions, (card,)), deck


@pytest.mark.parametrize("field, text", HOSTILE.values(), ids=HOSTILE.keys())
def test_an_export_holds_what_its_format_reserves(
    tmp_path: Path,
    gift_parse: Parse,  # noqa: F811 (the fixture imported above)
    field: str,
    text: str,
) -> None:
    _every_export_reads_back(tmp_path, gift_parse, *_hostile_bank(field, text))


def _every_export_reads_back(folder: Path, read_gift: Parse, bank: Bank, deck: str) -> None:
    """Each export of ``bank`` under ``deck``, read back by a parser of its own: the GIFT
    file by gift-pegjs, Moodle XML and QTI by lxml, the CSV by csv, the Anki text file and
    package by Anki; each holds the bank's questions and one category or deck, no more."""
    tmp_path = folder
    concretes = {q.id: helpers.make_concrete(q, 1) for q in bank.questions}
    ids = {q.id for q in bank.questions}

    gift = build_gift([bank], concretes, deck=deck)
    assert (
        set(gift.exported) | {s.question_id for s in gift.skipped} == ids
    )  # each written or listed
    parsed = read_gift(gift.text)
    categories = [item["title"] for item in parsed if item["type"] == "Category"]
    assert len(categories) == 1 and "\n" not in categories[0]
    assert categories[0].startswith("$course$/top/")
    assert {item["title"] for item in parsed if item["type"] != "Category"} == set(gift.exported)

    moodle = helpers.build_moodle([bank], concretes, deck=deck)
    assert set(moodle.exported) | {s.question_id for s in moodle.skipped} == ids
    root = etree.fromstring(moodle.text.encode("utf-8"))  # well-formed, or this raises
    kinds = [q.get("type") for q in root.iter("question")]
    assert kinds.count("category") == 1 and len(kinds) == 1 + len(moodle.exported)
    [path] = root.xpath("//question[@type='category']/category/text/text()")
    assert "\n" not in path and path.startswith("$course$/top/")

    qti = build_qti([bank], concretes, deck=deck, plugins=helpers.PE)
    assert set(qti.exported) | {s.question_id for s in qti.skipped} == ids
    with zipfile.ZipFile(io.BytesIO(qti.text)) as archive:  # type: ignore[arg-type]
        names = [n for n in archive.namelist() if n.endswith(".xml")]
        trees = [etree.fromstring(archive.read(n)) for n in names]
    items = sum(len(tree.xpath("//*[local-name()='item']")) for tree in trees)
    assert items == len(qti.exported)

    cards = helpers.export("csv", [bank], concretes.values(), tmp_path / "c.csv", deck=deck)
    with open(tmp_path / "c.csv", encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f))
    assert len(rows) == 1 + len(cards)
    for cell in (cell for row in rows for cell in row):
        assert not cell.startswith(FORMULA_START) or _is_number(cell), cell

    helpers.export("text", [bank], concretes.values(), tmp_path / "t.txt", deck=deck)
    helpers.export("anki", [bank], concretes.values(), tmp_path / "p.apkg", deck=deck)
    for name, reader in (("t.txt", import_text), ("p.apkg", import_apkg)):
        col = Collection(str(tmp_path / f"{name}.anki2"))
        try:
            reader(col, tmp_path / name)
            notes = notes_by_guid(col)
            assert len(notes) == len(cards)
            decks = {deck for _, _, deck, _, _ in notes.values()}
            assert len(decks) == 1
            [shown] = decks
            assert shown.count("::") == 1 and shown.isprintable(), shown
        finally:
            col.close()


#: Texts a format reserves something in, mixed into the fuzzed texts.
RESERVED = ["\n", "\r", "\x85", "\u2028", "\x00", "\x1b", "::", "$CATEGORY:", "{", "}", "=", "~",
            "#", ":", "\\", "->", "[", "<", "&", "]]>", '"', "\t", "@", "+", "-", "%"]  # fmt: skip
FIELDS = ["title", "deck", "prompt", "option", "explanation", "front", "back", "tag", "hint"]
FIELDS += ["unit", "answer", "left", "right"]


@settings(
    max_examples=15,
    deadline=20_000,  # each case's time budget: its six exports and their six readers
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    field=st.sampled_from(FIELDS),
    text=st.lists(
        st.one_of(st.sampled_from(RESERVED), st.text(st.characters(codec="utf-8"), max_size=8)),
        min_size=1,
        max_size=8,
    ).map("".join),
)
# A title in decomposed form: Anki keeps deck names composed, so each import made a new deck.
@example(field="title", text="\u1f71")
@example(field="prompt", text="a\x1fb")
@example(field="back", text="a\x1fb")
@example(field="option", text="a\x1fb")
# NUL: the csv module of Python 3.10 cannot write it; gift-pegjs stops at it.
@example(field="tag", text="\x00")
@example(field="option", text="\x00")
def test_any_text_in_any_field_reads_back_from_every_export(
    gift_parse: Parse,  # noqa: F811 (the fixture imported above)
    field: str,
    text: str,
) -> None:
    """No traceback, no hang, no more than a memory budget, and every export reads back."""
    if not text.replace("\x00", "").strip():
        text += "x"  # the bank reader refuses an empty text (Markdown drops NUL)
    tracemalloc.start()
    try:
        with tempfile.TemporaryDirectory() as folder:
            _every_export_reads_back(Path(folder), gift_parse, *_hostile_bank(field, text))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 200_000_000


def _is_number(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return False
    return True


#: CSV cells by name: (what a card holds, what the CSV cell says).
CELLS = {
    "equals-formula": ("=1+2", "'=1+2"),
    "hyperlink": ('=HYPERLINK("http://evil.example/")', '\'=HYPERLINK("http://evil.example/")'),
    "plus-formula": ("+1+cmd|' /C calc'!A0", "'+1+cmd|' /C calc'!A0"),
    "minus-formula": ("-2+3", "'-2+3"),
    "at-formula": ("@SUM(A1)", "'@SUM(A1)"),
    "tab": ("\t=1", "'\t=1"),
    "carriage-return": ("\r=1", "'\r=1"),
    "negative-number": ("-3", "-3"),
    "positive-number": ("+1.5", "+1.5"),
    "exponent": ("-2e-3", "-2e-3"),
    "html": ("<p>=1+2</p>", "<p>=1+2</p>"),
}


@pytest.mark.parametrize("text, cell", CELLS.values(), ids=CELLS.keys())
def test_csv_cells_are_not_formulas(tmp_path: Path, text: str, cell: str) -> None:
    """A cell a spreadsheet would run as a formula starts with a quote; numbers stay."""
    card = Card("flashcard:demo:x", "demo", "Demo", "basic", text, text, ("demo",))
    write_csv([card], tmp_path / "c.csv")
    with open(tmp_path / "c.csv", encoding="utf-8", newline="") as f:
        [_, row] = list(csv.reader(f))
    assert row == [cell, cell, "demo"]


# --- each export of the Turkish edition is in Turkish ------------------------------------------


def _english_words() -> set[str]:
    """The fixed words of the English catalogue's export texts (cards and spoken math) that
    the Turkish catalogue says otherwise: two words or more, fields cut out."""
    english, turkish = catalogue("en"), catalogue("tr")
    words: set[str] = set()
    for key, text in english.items():
        if not key.startswith(("cards.", "spoken.")) or text == turkish[key]:
            continue
        for form in [text] if isinstance(text, str) else text.values():
            words |= {p.strip(" .:,") for p in re.split(r"\{\w+\}", form)}
    return {w for w in words if " " in w}


def test_every_export_of_the_turkish_edition_is_in_turkish(tmp_path: Path) -> None:
    settings = read_site_config(REPO / "mkdocs.tr.yml")
    course = course_for(settings.options)
    assert course.language == "tr"
    concretes = {c.question.id: c for c in course.concretes()}
    common: dict[str, Any] = {"deck": settings.deck, "language": "tr"}
    files = {"plugins": course.plugins, "images": course.images}
    texts = {
        "moodle": build_moodle(course.banks, concretes, **common, **files).text,
        "gift": build_gift(course.banks, concretes, **common).text,
    }
    with zipfile.ZipFile(
        io.BytesIO(build_qti(course.banks, concretes, **common, **files).text)
    ) as z:  # type: ignore[arg-type]
        texts["qti"] = "\n".join(
            z.read(n).decode("utf-8") for n in z.namelist() if n.endswith(".xml")
        )
    for kind in ("csv", "text"):
        path = tmp_path / kind
        exports.export(
            kind, course.banks, concretes.values(), path, deck=settings.deck, language="tr", **files
        )  # type: ignore[arg-type]
        texts[kind] = path.read_text(encoding="utf-8")
    words = _english_words()
    assert "Worked solution" in words and "to the power" in words
    found = {
        kind: sorted(w for w in words if re.search(rf"\b{re.escape(w)}\b", html.unescape(text)))
        for kind, text in texts.items()
    }
    assert found == {kind: [] for kind in texts}


# --- a blank's pattern: bounded work ----------------------------------------------------------

#: Patterns a blank may not have, by name: (the pattern, what the line says).
PATTERNS = {
    "a-billion-repeats": ("a{1000000000}", "a part repeated 1,000,000,000 times (at most 100)"),
    "a-billion-at-most": ("a{0,1000000000}", "a part repeated 1,000,000,000 times"),
    "alternatives-alike": ("(a|aa)+b", "a repeated group whose alternatives can begin alike"),
    "same-alternative": ("(?:x|x)*y", "a repeated group whose alternatives can begin alike"),
    "class-alternative": ("(\\d|1)+", "a repeated group whose alternatives can begin alike"),
    "nested-plus": ("(a+)+b", "nested repetition"),
    "nested-star": ("(a*)*", "nested repetition"),
    "words-and-spaces": ("(\\w+\\s?)*$", "nested repetition"),
    "nested-counted": ("(a?){20}", "nested repetition"),
}


def _pattern_bank(tmp_path: Path, pattern: str) -> Path:
    path = tmp_path / "blanks.yml"
    path.write_text(
        "bank: blanks\n"
        "title: Blanks\n"
        "questions:\n"
        "  - id: q-pattern\n"
        "    type: fill\n"
        "    prompt: Type it ____.\n"
        "    blanks:\n"
        f"      - regex: '{pattern}'\n"
        "    explanation: It is.\n",
        encoding="utf-8",
    )
    return path


@pytest.mark.parametrize("pattern, said", PATTERNS.values(), ids=PATTERNS.keys())
def test_a_pattern_that_could_run_for_long_is_refused_at_its_line(
    tmp_path: Path, pattern: str, said: str
) -> None:
    path = _pattern_bank(tmp_path, pattern)
    tracemalloc.start()
    started = time.monotonic()
    try:
        with pytest.raises(BankError) as caught:
            helpers.load_bank(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert time.monotonic() - started < 10 and peak < 50_000_000
    [problem] = caught.value.problems
    assert (problem.line, problem.question_id, problem.field) == (8, "q-pattern", "blanks[0].regex")
    assert said in problem.message


#: Patterns that match each text one way, kept, by name.
FINE_PATTERNS = ["0?\\.02", "(\\d+,)*\\d+", "(ab|cd)+", "\\d{4}", "(x|y){2}", "10_?000"]


@pytest.mark.parametrize("pattern", FINE_PATTERNS)
def test_a_pattern_that_matches_one_way_is_kept(tmp_path: Path, pattern: str) -> None:
    [question] = helpers.load_bank(_pattern_bank(tmp_path, pattern)).questions
    assert isinstance(question, FillQuestion) and question.blanks[0].regex == pattern


def test_the_example_answer_of_a_pattern_is_bounded() -> None:
    assert regex_example("((((a{100}){100}){100}){100})") is None
    assert regex_example("\\d{4}") == "0000"


# --- a duplicate id -------------------------------------------------------------------------

#: Banks with an id twice, by name: the second entry (after a choice of six options) and the
#: line of its id.
DUPLICATES = {
    "two-questions": (
        21,
        "  - id: q-twice\n    type: numeric\n    prompt: How many?\n"
        "    answer: 2\n    explanation: Two.\n",
    ),
    "question-and-flashcard": (
        22,
        "flashcards:\n  - id: q-twice\n    front: A front\n    back: A back\n",
    ),
}


@pytest.mark.parametrize("line, second", DUPLICATES.values(), ids=DUPLICATES.keys())
def test_a_duplicate_id_is_one_line_naming_both(tmp_path: Path, line: int, second: str) -> None:
    path = tmp_path / "twice.yml"
    options = "".join(f"      - text: o{i}\n        correct: {i == 0}\n" for i in range(6))
    path.write_text(
        "bank: twice\ntitle: Twice\nquestions:\n  - id: q-twice\n    type: choice\n"
        f"    prompt: Which?\n    options:\n{options}    explanation: The first.\n{second}",
        encoding="utf-8",
    )
    report = helpers.check_banks([path])
    [problem] = report.problems
    assert problem.question_id == "q-twice" and problem.field == "id"
    assert problem.line == line and "already used at line 4" in problem.message


def test_a_solutions_long_stderr_is_trimmed(tmp_path: Path) -> None:
    path = tmp_path / "progs.yml"
    path.write_text(
        _bank("x").replace(
            "sys.stdout.write('x')\n", "sys.stdout.write('x')\n      sys.exit('e' * 65536)\n"
        ),
        encoding="utf-8",
    )
    report = helpers.check_banks([path], run_programs=True)
    [problem] = report.problems
    assert problem.question_id == "prog-odd" and problem.field == "solution"
    assert problem.message.endswith("… (65,558 characters)") and len(problem.message) < 400
    assert "it exited with status eeee" in problem.message and "status 120" not in problem.message


def test_a_read_only_bank_is_not_recorded_into(tmp_path: Path) -> None:
    path = tmp_path / "progs.yml"
    path.write_text(_bank("x"), encoding="utf-8")
    path.chmod(0o444)
    with pytest.raises(KonumError, match=r"progs\.yml: the file is read-only"):
        record_outputs([path], tmp_path)
    assert path.read_text(encoding="utf-8") == _bank("x")


# --- bank inputs that ended in a traceback or changed a file without a word ------------------


@pytest.mark.parametrize("written", ["table\\0.png", "table%00.png"], ids=["nul", "percent-00"])
def test_a_nul_in_an_image_path_is_a_problem_at_the_image(tmp_path: Path, written: str) -> None:
    path = tmp_path / "nul.yml"
    path.write_text(
        "bank: nul\ntitle: NUL\nquestions:\n  - id: q-nul\n    type: numeric\n"
        f'    prompt: "How many? ![the table]({written})"\n    answer: 2\n'
        "    explanation: Two.\n",
        encoding="utf-8",
    )
    report = helpers.check_banks([path])
    [problem, *more] = report.problems
    assert (problem.question_id, problem.field, problem.line) == ("q-nul", "prompt", 6)
    assert "an image path cannot hold a NUL character" in problem.message
    assert all("U+0000" in p.message for p in more)  # a raw NUL is a control character too


def _translated(tmp_path: Path, translation: str) -> tuple[Bank, Path]:
    from test_translations import BANK

    (tmp_path / "en").mkdir()
    (tmp_path / "tr").mkdir()
    (tmp_path / "en" / "demo.yml").write_text(BANK, encoding="utf-8")
    (tmp_path / "tr" / "demo.yml").write_text(translation, encoding="utf-8")
    (bank,) = helpers.load_banks(tmp_path / "en")
    return bank, tmp_path / "tr"


def test_a_duplicate_id_in_a_translation_is_one_problem_naming_both(tmp_path: Path) -> None:
    from test_translations import TRANSLATION

    twice = "  - id: q-number\n    prompt: Yine kaç?\n    explanation: İki.\nflashcards:"
    bank, folder = _translated(tmp_path, TRANSLATION.replace("flashcards:", twice))
    [problem] = [p for p in check_translations([bank], folder).problems if p.field == "id"]
    assert (problem.question_id, problem.line) == ("q-number", 16)
    assert "duplicate entry: 'q-number' is translated at line 12 already" in problem.message


def test_a_read_only_translation_is_not_rewritten(tmp_path: Path) -> None:
    from test_translations import TRANSLATION

    bank, folder = _translated(tmp_path, TRANSLATION)
    (folder / "demo.yml").chmod(0o444)
    with pytest.raises(KonumError, match=r"demo\.yml: the file is read-only"):
        update_hashes([bank], folder)
    assert (folder / "demo.yml").read_text(encoding="utf-8") == TRANSLATION


def test_a_prompt_of_100000_tags_is_refused_before_it_is_compiled(tmp_path: Path) -> None:
    """A 0.8 MB prompt (a bank may be 1 MB) of ``{{ x }}`` compiled for minutes: check ran
    past two. Its tags are counted first (the length is a problem of its own)."""
    path = tmp_path / "tags.yml"
    path.write_text(
        "bank: tags\ntitle: Tags\nquestions:\n  - id: q-tags\n    type: computed\n"
        '    formula: "2 * x"\n    params:\n      x: {min: 1, max: 9}\n'
        f'    prompt: "{"{{ x }} " * 100_000}"\n    answer: numeric\n    explanation: Twice.\n',
        encoding="utf-8",
    )
    started = time.monotonic()
    report = helpers.check_banks([path])
    assert time.monotonic() - started < 30
    said = [str(p) for p in report.problems if p.question_id == "q-tags" and p.line == 9]
    assert any(
        "it holds 100,000 {{ ... }} and {% ... %} tags, more than the 10,000 a prompt may hold" in s
        for s in said
    ), said
