"""Flashcard exports, checked with the real Anki library.

The banks come from ``tests/fixtures/export_banks/banks.py`` (model objects covering every
question type); computed variants are drawn there from the seed, so two seeds give two sets of
numbers. Expected counts are derived from the bank objects, not from the exporter.
"""

from __future__ import annotations

import csv
import dataclasses
import html
import importlib.util
import json
import os
import re
import subprocess
import sys
import zipfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from anki import import_export_pb2
from anki.collection import (
    Collection,
    ImportAnkiPackageOptions,
    ImportAnkiPackageRequest,
    ImportCsvRequest,
)
from anki.consts import CARD_TYPE_REV, QUEUE_TYPE_REV
from anki.notes import NoteId

from konum import model
from konum.course import Course
from konum.exports import DEFAULT_NAMES, Card, write_apkg
from konum.exports.anki import deck_id, guid, model_ids, sanitize_tag
from konum.exports.text import TEXT_HEADER, cards_json
from konum.markup import render_markdown
from konum.messages import LANGUAGES, catalogue
from konum.types import (
    Bank,
    Blank,
    ChoiceQuestion,
    ComputedQuestion,
    Concrete,
    FillQuestion,
    MediaFile,
    Option,
    OrderingQuestion,
)
from konum.types.choice import option_order
from tests.helpers import build_cards, export, make_concrete, write_downloads

REPO = Path(__file__).resolve().parent.parent
_FIXTURE = Path(__file__).parent / "fixtures" / "export_banks" / "banks.py"


def _load_fixture() -> ModuleType:
    spec = importlib.util.spec_from_file_location("konum_export_banks", _FIXTURE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


fx = _load_fixture()
T1 = 1_700_000_000
T2 = T1 + 3600


@pytest.fixture
def banks() -> list[Bank]:
    return list(fx.make_banks())


@pytest.fixture
def collection(tmp_path: Path) -> Iterator[Collection]:
    """A fresh, empty Anki collection in its own folder (Anki adds a media folder beside it)."""
    folder = tmp_path / "anki"
    folder.mkdir()
    col = Collection(str(folder / "collection.anki2"))
    try:
        yield col
    finally:
        col.close()


def expected_notes(bank: Bank, concretes: list[Concrete]) -> int:
    variants = {c.question.id: len(c.variants) for c in concretes}
    count = 0
    for q in bank.questions:
        if q.flashcard:
            count += variants[q.id] if isinstance(q, ComputedQuestion) else 1
    return count + len(bank.flashcards)


def import_apkg(col: Collection, path: Path) -> import_export_pb2.ImportResponse.Log:
    """Import as Anki's import dialog does by default: update notes and note types if newer."""
    newer = import_export_pb2.IMPORT_ANKI_PACKAGE_UPDATE_CONDITION_IF_NEWER
    options = ImportAnkiPackageOptions(
        merge_notetypes=False,
        update_notes=newer,
        update_notetypes=newer,
        with_scheduling=False,
        with_deck_configs=False,
    )
    response = col.import_anki_package(
        ImportAnkiPackageRequest(package_path=str(path), options=options)
    )
    return response.log


def import_text(col: Collection, path: Path) -> import_export_pb2.ImportResponse.Log:
    """Import with the metadata Anki reads from the file's header lines (as its dialog does)."""
    metadata = col.get_csv_metadata(str(path), None)
    return col.import_csv(ImportCsvRequest(path=str(path), metadata=metadata)).log


def notes_by_guid(col: Collection) -> dict[str, tuple[NoteId, str, str, list[str], str]]:
    """guid -> (note id, note type name, deck name, fields, tags) for every note."""
    out: dict[str, tuple[NoteId, str, str, list[str], str]] = {}
    for nid in col.find_notes(""):
        note = col.get_note(nid)
        card = note.cards()[0]
        notetype = note.note_type()
        assert notetype is not None
        deck = col.decks.name(card.did)
        out[note.guid] = (nid, notetype["name"], deck, list(note.fields), " ".join(note.tags))
    return out


def deck_counts(col: Collection, deck: str) -> tuple[int, int]:
    query = f'"deck:{deck}"'
    return len(col.find_notes(query)), len(col.find_cards(query))


# --- the cards themselves --------------------------------------------------------------------


def letter(bank: Bank, qid: str, written: int, seed: int) -> str:
    """The letter a card shows for option number ``written`` (as the author wrote them)."""
    q = next(q for q in bank.questions if q.id == qid)
    assert isinstance(q, ChoiceQuestion)
    return chr(ord("A") + option_order(q, seed).index(written))


def test_cards_per_question_type(banks: list[Bank]) -> None:
    concretes = fx.make_concretes(banks, seed=1)
    cards = {c.key: c for c in build_cards(banks, concretes)}
    sinusoidal, rope = banks

    assert "question:sin-not-a-card" not in cards
    assert [c.key for c in build_cards(banks, concretes)][:2] == [
        "question:sin-why-pairs",
        "question:sin-true-facts",
    ]

    choice = cards["question:sin-why-pairs"]
    assert choice.kind == "basic" and choice.deck == sinusoidal.title
    assert choice.front.count("<li>") == 3 and 'type="A"' in choice.front
    assert "\\(PE_p\\)" in choice.front and "$" not in choice.front
    assert f"{letter(sinusoidal, 'sin-why-pairs', 0, seed=1)}. So that a fixed" in choice.back
    assert "rotation of \\(PE_p\\)" in choice.back  # the explanation
    assert choice.tags == ("sinusoidal", "why pairs")

    several = cards["question:sin-true-facts"]
    assert "Choose all that apply" in several.front
    for i, (start, right) in enumerate((("It has", True), ("Every", True), ("It only", False))):
        text = f"{letter(sinusoidal, 'sin-true-facts', i, seed=1)}. {start}"
        assert (text in several.back) is right

    fill = cards["question:sin-fill-even"]
    assert fill.kind == "cloze"
    assert fill.front.count("{{c1::") == 2 and "____" not in fill.front
    code = fill.front[fill.front.index("<code") : fill.front.index("</code>")]
    assert "{{c1::2}}" in code  # the blank in the code block stays inside <code>
    assert "column {{c1::1}}" in fill.front
    assert "Even columns hold sines" in fill.back

    matching = cards["question:sin-match"]
    assert "<table" not in matching.front and "<code>PE[0, 0::2]</code>" in matching.front
    rows = matching.back.split("<tr>")[2:]
    assert len(rows) == 2 and "\\(\\sin 0\\)" in rows[0] and "\\(\\cos 0\\)" in rows[1]
    assert "-1" not in matching.back  # distractors are not pairs

    assert "32\u00a0columns" in cards["question:sin-num-columns"].back
    assert "0.50" in cards["question:rope-num-half"].back

    computed = next(c for c in concretes if c.question.id == "sin-entry")
    for v in computed.variants:
        card = cards[f"question:sin-entry:variant:{v.index}"]
        assert str(v.values["pos"]) in card.front
        assert v.shown_answer in card.back and "Worked solution" in card.back
        assert "\\[\\frac{" in card.back and "Even column" in card.back
        assert card.tags == ("sinusoidal", "computed-entry", "computed")
    choice_form = next(c for c in concretes if c.question.id == "rope-angle-choice")
    first = cards["question:rope-angle-choice:variant:0"]
    assert first.front.count("<li>") == len(choice_form.variants[0].options)
    assert f"A. {choice_form.variants[0].shown_answer}\u00a0rad" in first.back

    fact = cards["flashcard:rope:fc-rotation"]
    assert fact.deck == rope.title and "\\[m\\theta_k\\]" in fact.back

    assert len(cards) == sum(expected_notes(b, concretes) for b in banks)


def test_only_computed_and_choice_cards_depend_on_seed(banks: list[Bank]) -> None:
    """A new seed draws new numbers and reorders choice options (a note's fields change,
    never its identity); every other card stays as it was."""
    one = build_cards(banks, fx.make_concretes(banks, seed=1))
    two = build_cards(banks, fx.make_concretes(banks, seed=2))
    assert [c.key for c in one] == [c.key for c in two]
    changed = {a.key for a, b in zip(one, two, strict=True) if a != b}
    choice = {f"question:{q.id}" for b in banks for q in b.questions if q.type == "choice"}
    assert changed - choice == {c.key for c in one if "computed" in c.tags}
    assert build_cards(banks, fx.make_concretes(banks, seed=1)) == one  # the same seed: the same


def _options_of_field(front: str) -> list[str]:
    return re.findall(r"<li>(.*?)</li>", front.split('class="konum-options"')[1])


def _options_of(card: Card) -> list[str]:
    return _options_of_field(card.front)


def test_choice_cards_show_the_quiz_order(banks: list[Bank]) -> None:
    """A choice card lists its options in the quiz's order for the seed (pinned options in
    place), and its answer letters follow that order."""
    for seed in (1, 2, 3):
        concretes = [make_concrete(q, seed) for b in banks for q in b.questions]
        cards = {c.key: c for c in build_cards(banks, concretes)}
        for concrete in concretes:
            q = concrete.question
            if not isinstance(q, ChoiceQuestion) or not q.flashcard:
                continue
            card = cards[f"question:{q.id}"]
            shown = [q.options[i] for i in concrete.option_order]
            assert _options_of(card) == [
                render_markdown(o.text, inline=True, math="anki") for o in shown
            ]
            letters = [chr(ord("A") + i) for i, o in enumerate(shown) if o.correct]
            assert re.findall(r"(?:</strong> |; )([A-Z])\. ", card.back) == letters
            pinned = [i for i, o in enumerate(q.options) if o.pin]
            assert all(concrete.option_order[i] == i for i in pinned)


def test_a_choice_card_without_a_concrete_uses_seed_0() -> None:
    question = ChoiceQuestion(
        id="order",
        bank="b",
        prompt="Pick",
        explanation="",
        source=fx.SRC,
        options=tuple(Option(f"o{i}", i == 0) for i in range(6)),
    )
    bank = Bank("b", "B", "b.yml", (question,))
    (card,) = build_cards([bank], [])
    assert _options_of(card) == [f"o{i}" for i in option_order(question, 0)]
    fixed = dataclasses.replace(question, shuffle=False)
    (card,) = build_cards([dataclasses.replace(bank, questions=(fixed,))], [])
    assert _options_of(card) == [f"o{i}" for i in range(6)]


def test_cards_and_decks_keep_the_order_of_the_banks_given(banks: list[Bank]) -> None:
    """The course's order (the caller's), not file names: the study page's lesson list,
    its "All lessons" and every export list the banks as they are passed."""
    for order in (banks, banks[::-1]):
        cards = build_cards(order, fx.make_concretes(banks, seed=1))
        assert list(dict.fromkeys(c.bank for c in cards)) == [b.id for b in order]
        assert cards_json(cards)["decks"] == [b.title for b in order]


@pytest.fixture(scope="module")
def course() -> Course:
    from konum.config import options_from
    from konum.course import course_for

    return course_for(
        options_from({"banks": "content/banks", "seed": 42, "plugins": ["pe"]}, root=REPO)
    )


def test_the_courses_choice_cards_do_not_give_the_answer_away(course: Course) -> None:
    """Authors write the right option first; on the course's cards (Anki, text, CSV and the
    study page share them) the right answer's letter is spread over the options, and in
    the quizzes (authored and computed) the right option is not mostly first either."""
    for math in ("anki", "mathml"):
        cards = build_cards(course.banks, course.concretes(), math=math)  # type: ignore[arg-type]
        letters = Counter(
            m.group(1)
            for c in cards
            if 'class="konum-options"' in c.front
            and (m := re.search(r"</strong> ([A-Z])[.,]", c.back))
        )
        total = sum(letters.values())
        assert total >= 60 and set("ABCD") <= set(letters)
        assert letters["A"] / total < 0.5, letters
    first: Counter[bool] = Counter()
    for concrete in course.concretes():
        q = concrete.question
        if isinstance(q, ChoiceQuestion):
            first[q.options[concrete.option_order[0]].correct] += 1
        for v in concrete.variants:
            if v.options:
                first[v.options[0].correct] += 1
    assert first[True] / sum(first.values()) < 0.5, first


def test_build_cards_errors(banks: list[Bank]) -> None:
    # A question without its concrete is drawn with seed 0.
    keys = {card.key for card in build_cards(banks, [])}
    assert "question:sin-entry:variant:0" in keys
    bank = Bank(
        "b",
        "B",
        "b.yml",
        (
            FillQuestion(
                id="two-blanks",
                bank="b",
                prompt="one ____ only",
                explanation="",
                source=fx.SRC,
                blanks=(Blank(("x",)), Blank(("y",))),
            ),
        ),
    )
    with pytest.raises(ValueError, match=r"expected 2 blanks in the prompt, found 1"):
        build_cards([bank], [])


def test_cloze_answers_with_colons_and_braces_survive_anki(
    collection: Collection, tmp_path: Path
) -> None:
    """Python slices (``[::-1]``) and braces must not cut Anki's {{c1::...}} short."""
    question = FillQuestion(
        id="slices",
        bank="b",
        prompt="Reverse the rows: `x____` and build a set: `____`",
        explanation="",
        source=fx.SRC,
        blanks=(Blank(("[::-1]",)), Blank(("{1, 2}}",))),
    )
    path = tmp_path / "slices.apkg"
    export("anki", [Bank("b", "B", "b.yml", (question,))], [], path, timestamp=T1)
    import_apkg(collection, path)
    (note_id,) = collection.find_notes("")
    card = collection.get_note(note_id).cards()[0]
    assert card.question().count("[...]") == 2
    answer = card.answer()
    assert "[::-1]" in html.unescape(answer) and "{1, 2}}" in html.unescape(answer)


def test_export_rejects_unknown_kind(banks: list[Bank], tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="expected 'anki', 'text' or 'csv', received 'pdf'"):
        export("pdf", banks, fx.make_concretes(banks, 1), tmp_path / "x")  # type: ignore[arg-type]


def test_tags_and_ids_are_stable() -> None:
    assert sanitize_tag(" why  pairs ") == "why_pairs"
    code = "from konum.exports.anki import deck_id; print(deck_id('sinusoidal'))"
    env = {**os.environ, "PYTHONHASHSEED": "123"}
    other = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    )
    assert int(other.stdout) == deck_id("sinusoidal")
    assert deck_id("sinusoidal") != deck_id("rope")
    assert 2**30 <= deck_id("rope") < 2**31


# --- .apkg through real Anki -----------------------------------------------------------------


def test_apkg_imports_with_decks_fields_and_math(
    banks: list[Bank], collection: Collection, tmp_path: Path
) -> None:
    concretes = fx.make_concretes(banks, seed=1)
    path = tmp_path / "konum.apkg"
    cards = export("anki", banks, concretes, path, timestamp=T1)
    log = import_apkg(collection, path)

    assert len(log.new) == len(cards)
    for number, bank in enumerate(banks, start=1):  # numbered in the course's order
        n = expected_notes(bank, concretes)
        assert deck_counts(collection, f"konum::{number:02d} {bank.title}") == (n, n)

    notes = notes_by_guid(collection)
    assert set(notes) == {guid(c) for c in cards}
    by_key = {c.key: notes[guid(c)] for c in cards}

    _, notetype, deck, fields, tags = by_key["question:sin-fill-even"]
    assert notetype == "Konum Cloze" and deck == "konum::01 Sinusoidal encoding"
    assert "{{c1::2}}" in fields[0] and "<code>" in fields[0]
    assert "Even columns hold sines" in fields[1]
    fill_note = collection.get_note(by_key["question:sin-fill-even"][0])
    rendered = fill_note.cards()[0].question()
    assert "[...]" in rendered and "{{c1::" not in rendered

    _, notetype, _, fields, tags = by_key["question:sin-why-pairs"]
    assert notetype == "Konum Basic"
    right = letter(banks[0], "sin-why-pairs", 0, seed=1)
    assert "\\(PE_{p+k}\\)" in fields[0] and f"{right}. So that" in fields[1]
    assert tags.split() == ["sinusoidal", "why_pairs"]

    _, _, deck, fields, _ = by_key["question:sin-entry:variant:1"]
    variant = next(c for c in concretes if c.question.id == "sin-entry").variants[1]
    assert deck == "konum::01 Sinusoidal encoding"
    assert f"\\(p = {variant.values['pos']}\\)" in fields[0]
    assert variant.shown_answer in fields[1] and "\\[\\frac{" in fields[1]

    assert "<table" in by_key["question:sin-match"][3][1]
    assert all(collection.get_note(n[0]).mod == T1 for n in notes.values())


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_decks_note_types_are_named_in_its_language(
    banks: list[Bank], collection: Collection, tmp_path: Path, language: str
) -> None:
    """Read by Anki: each note type, its fields and its card template carry the words of
    the deck's language (its ``anki`` catalogue), and its cards still render from them."""
    concretes = fx.make_concretes(banks, seed=1)
    path = tmp_path / "konum.apkg"
    export("anki", banks, concretes, path, timestamp=T1, language=language)
    import_apkg(collection, path)
    words = catalogue(language)
    expected = {
        words["anki.basic"]: ([words["anki.front"], words["anki.back"]], words["anki.card"]),
        words["anki.cloze"]: ([words["anki.text"], words["anki.extra"]], words["anki.cloze_card"]),
    }
    found = {
        n["name"]: ([f["name"] for f in n["flds"]], *[t["name"] for t in n["tmpls"]])
        for n in collection.models.all()
        if n["id"] in model_ids(language)
    }
    assert found == expected
    for note_id in collection.find_notes(""):
        card = collection.get_note(note_id).cards()[0]
        assert card.question().strip() and card.answer().strip()
        assert "{{" not in card.answer()


def test_each_language_has_its_own_note_types() -> None:
    """Distinct ids in every language (Anki tells note types apart by id alone), and the
    ids English and Turkish decks were first written with, kept."""
    ids = [i for language in LANGUAGES for i in model_ids(language)]
    assert len(set(ids)) == len(ids) and all((1 << 30) <= i < (1 << 31) for i in ids)
    assert model_ids("en") == (1_732_905_311, 1_732_905_312)
    assert model_ids("tr") == (1_732_905_313, 1_732_905_314)


def test_apkg_regenerated_updates_in_place(
    banks: list[Bank], collection: Collection, tmp_path: Path
) -> None:
    first, second = tmp_path / "seed1.apkg", tmp_path / "seed2.apkg"
    export("anki", banks, fx.make_concretes(banks, seed=1), first, timestamp=T1)
    new_cards = export("anki", banks, fx.make_concretes(banks, seed=2), second, timestamp=T2)
    import_apkg(collection, first)
    before = notes_by_guid(collection)

    # The reader has studied a card: its scheduling must survive the update.
    studied = collection.get_card(collection.find_cards('"deck:konum::01 Sinusoidal encoding"')[0])
    studied.type, studied.queue = CARD_TYPE_REV, QUEUE_TYPE_REV
    studied.ivl, studied.due, studied.reps = 12, 400, 3
    collection.update_card(studied)

    log = import_apkg(collection, second)
    after = notes_by_guid(collection)
    reordered = {f"question:{q.id}" for b in banks for q in b.questions if q.type == "choice"}

    assert len(log.new) == 0
    assert collection.note_count() == len(before) == len(new_cards)
    assert {g: n[0] for g, n in after.items()} == {g: n[0] for g, n in before.items()}
    for card in new_cards:
        note = after[guid(card)]
        assert note[3] == [card.front, card.back]
        if "computed" in card.tags:
            assert note[3] != before[guid(card)][3], card.key
        elif card.key in reordered:  # the options in the new seed's order
            assert sorted(_options_of(card)) == sorted(_options_of_field(before[guid(card)][3][0]))
        else:
            assert note[1:] == before[guid(card)][1:], card.key
    kept = collection.get_card(studied.id)
    assert (kept.ivl, kept.due, kept.reps) == (12, 400, 3)


def test_apkg_older_package_does_not_overwrite(
    banks: list[Bank], collection: Collection, tmp_path: Path
) -> None:
    newer, older = tmp_path / "newer.apkg", tmp_path / "older.apkg"
    export("anki", banks, fx.make_concretes(banks, seed=2), newer, timestamp=T2)
    export("anki", banks, fx.make_concretes(banks, seed=1), older, timestamp=T1)
    import_apkg(collection, newer)
    before = notes_by_guid(collection)
    log = import_apkg(collection, older)
    assert len(log.new) == len(log.updated) == 0
    assert notes_by_guid(collection) == before


def test_apkg_timestamp_from_source_date_epoch(
    banks: list[Bank], collection: Collection, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(T2))
    path = tmp_path / "konum.apkg"
    export("anki", banks, fx.make_concretes(banks, seed=1), path)
    import_apkg(collection, path)
    mods = {collection.get_note(nid).mod for nid in collection.find_notes("")}
    assert mods == {T2}


def test_apkg_is_reproducible(banks: list[Bank], tmp_path: Path) -> None:
    concretes = fx.make_concretes(banks, seed=1)
    one, two, later = tmp_path / "one.apkg", tmp_path / "two.apkg", tmp_path / "later.apkg"
    export("anki", banks, concretes, one, timestamp=T1)
    export("anki", banks, concretes, two, timestamp=T1)
    export("anki", banks, concretes, later, timestamp=T2)
    assert one.read_bytes() == two.read_bytes()
    assert one.read_bytes() != later.read_bytes()


def test_apkg_carries_media(collection: Collection, tmp_path: Path) -> None:
    card = Card(
        key="flashcard:rope:picture",
        bank="rope",
        deck="Rotary position embedding (RoPE)",
        kind="basic",
        front=f'<p>What is drawn?</p><p><img src="{fx.IMAGE_NAME}" alt="a unit circle"></p>',
        back="<p>A unit circle.</p>",
        media=(MediaFile(fx.IMAGE_NAME, fx.PNG_BYTES),),
    )
    path = tmp_path / "media.apkg"
    write_apkg([card], path, deck="konum", timestamp=T1)
    import_apkg(collection, path)
    stored = Path(collection.media.dir()) / fx.IMAGE_NAME
    assert stored.read_bytes() == fx.PNG_BYTES
    assert fx.IMAGE_NAME in collection.get_note(collection.find_notes("")[0]).fields[0]


# --- text and CSV ----------------------------------------------------------------------------


def test_text_export_imports_and_updates_in_place(
    banks: list[Bank], collection: Collection, tmp_path: Path
) -> None:
    first, second = tmp_path / "seed1.txt", tmp_path / "seed2.txt"
    concretes = fx.make_concretes(banks, seed=1)
    cards = export("text", banks, concretes, first)
    new_cards = export("text", banks, fx.make_concretes(banks, seed=2), second)

    lines = first.read_text(encoding="utf-8").splitlines()
    assert tuple(lines[: len(TEXT_HEADER)]) == TEXT_HEADER
    metadata = collection.get_csv_metadata(str(first), None)
    assert metadata.is_html
    assert (metadata.guid_column, metadata.notetype_column, metadata.deck_column) == (1, 2, 3)
    assert metadata.tags_column == 6

    log = import_text(collection, first)
    assert len(log.new) == len(cards)
    for number, bank in enumerate(banks, start=1):  # numbered in the course's order
        n = expected_notes(bank, concretes)
        assert deck_counts(collection, f"konum::{number:02d} {bank.title}") == (n, n)
    before = notes_by_guid(collection)
    fill = before[guid(next(c for c in cards if c.key == "question:sin-fill-even"))]
    assert fill[1] == "Cloze" and "{{c1::2}}" in fill[3][0]
    assert ">angle<" in fill[3][0] and "\n</code>" in fill[3][0]  # the code block keeps its lines
    for card in cards:
        assert before[guid(card)][3] == [card.front, card.back]

    log = import_text(collection, second)
    after = notes_by_guid(collection)
    assert len(log.new) == 0
    assert {g: n[0] for g, n in after.items()} == {g: n[0] for g, n in before.items()}
    updated = {c.key for c in new_cards if after[guid(c)][3] != before[guid(c)][3]}
    reordered = {f"question:{q.id}" for b in banks for q in b.questions if q.type == "choice"}
    assert updated == {c.key for c in new_cards if "computed" in c.tags or c.key in reordered}
    for card in new_cards:
        assert after[guid(card)][3] == [card.front, card.back]


def test_csv_rows(banks: list[Bank], tmp_path: Path) -> None:
    path = tmp_path / "konum.csv"
    cards = export("csv", banks, fx.make_concretes(banks, seed=1), path)
    with open(path, encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f))
    assert rows[0] == ["front", "back", "tags"]
    assert len(rows) == len(cards) + 1
    by_key = dict(zip((c.key for c in cards), rows[1:], strict=True))
    front, back, tags = by_key["question:sin-why-pairs"]
    right = letter(banks[0], "sin-why-pairs", 0, seed=1)
    assert front.startswith("<p>Why does each frequency") and f"{right}. So that" in back
    assert tags == "sinusoidal why_pairs"
    front, back, _ = by_key["question:sin-fill-even"]
    assert "{{c1::" not in front + back and front.count("[…]") == 2
    assert '<mark class="konum-cloze">2</mark>' in back and "Even columns" in back


def test_cards_json_uses_mathml(banks: list[Bank], tmp_path: Path) -> None:
    cards = build_cards(banks, fx.make_concretes(banks, seed=1), math="mathml")
    data = cards_json(cards)
    assert data["decks"] == [b.title for b in banks]
    items = data["cards"]
    assert isinstance(items, list) and len(items) == len(cards)
    first = items[0]
    assert set(first) == {"key", "deck", "front", "back"}
    (cloze,) = [c for c in items if "cloze" in c]
    assert set(cloze) == {"key", "deck", "cloze", "back"}
    assert "<mark class=konum-cloze>" in cloze["cloze"] and "[…]" not in cloze["cloze"]
    assert [data["decks"][c["deck"]] for c in items] == [c.deck for c in cards]
    text = json.dumps(data)
    assert "<math" in text and "\\\\(" not in text and "{{c1::" not in text


def test_write_downloads_writes_every_file(banks: list[Bank], tmp_path: Path) -> None:
    concretes = fx.make_concretes(banks, 7, 2)
    written = write_downloads(banks, concretes, tmp_path / "downloads", deck="Course", timestamp=T1)
    assert {p.name for p in written.values()} == {"course.apkg", "course-anki.txt", "course.csv"}
    assert all(p.parent == tmp_path / "downloads" and p.stat().st_size for p in written.values())
    with written["csv"].open(encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f))[1:]
    again = export("csv", banks, concretes, tmp_path / "again.csv")
    assert len(rows) == len(again)
    text = written["text"].read_text(encoding="utf-8")
    assert '\t"Course::01 Sinusoidal encoding"\t' in text


def _figure_bank() -> Bank:
    figure = model.FigureRef(
        "alibi_matrices", "Three ALiBi bias matrices", None, {"n": 6, "heads": [1, 8]}
    )
    question = ChoiceQuestion(
        id="fig-heads",
        bank="fig",
        prompt="Which head is the most local?",
        explanation="The largest slope.",
        source=fx.SRC,
        figure=figure,
        options=(Option("head 1", True), Option("head 8", False)),
    )
    return Bank("fig", "Figures", "fig.yml", (question,))


def test_a_question_figure_travels_as_media_in_the_package(
    collection: Collection, tmp_path: Path
) -> None:
    path = tmp_path / "fig.apkg"
    export("anki", [_figure_bank()], [], path, timestamp=T1)
    import_apkg(collection, path)
    (note_id,) = collection.find_notes("")
    front = collection.get_note(note_id).fields[0]
    name = re.search(r'<img src="(konum-alibi_matrices-[0-9a-f]{12}\.svg)"', front).group(1)
    stored = (Path(collection.media.dir()) / name).read_text(encoding="utf-8")
    assert stored.startswith("<svg") and 'xmlns="http://www.w3.org/2000/svg"' in stored
    assert "currentColor" not in stored and 'aria-label="Three ALiBi bias matrices"' in stored
    assert "Which head is the most local?" in front


def test_a_question_figure_is_inline_svg_in_text_exports(tmp_path: Path) -> None:
    cards = export("text", [_figure_bank()], [], tmp_path / "fig.txt")
    assert cards[0].front.startswith('<figure class="konum-figure"><svg')
    assert cards[0].media == ()


def test_published_text_downloads_inline_figures_and_the_package_ships_files(
    tmp_path: Path,
) -> None:
    written = write_downloads([_figure_bank()], [], tmp_path / "dl", timestamp=T1)
    for kind in ("text", "csv"):
        text = written[kind].read_text(encoding="utf-8")
        assert "<svg" in text and "<img" not in text, kind
    with zipfile.ZipFile(written["anki"]) as package:
        media = json.loads(package.read("media"))
    assert any(name.startswith("konum-alibi_matrices-") for name in media.values())


# --- identities Anki keeps (hardening) ---------------------------------------------------------


def _choice(qid: str, prompt: str = "Which column holds sines?") -> ChoiceQuestion:
    return ChoiceQuestion(
        id=qid,
        bank="ids",
        prompt=prompt,
        explanation="Even columns.",
        source=fx.SRC,
        options=(Option("even", True), Option("odd", False)),
    )


def test_no_note_is_lost_to_a_guid_that_starts_with_a_hash(
    collection: Collection, tmp_path: Path
) -> None:
    """genanki's GUIDs are base91: about one in a few thousand starts with "#", which Anki's
    text format reads as a comment line. These ids' GUIDs do."""
    ids = ["q6428", "q15366", "q18473", "plain"]
    questions = tuple(_choice(i) for i in ids)
    bank = Bank("ids", "Ids", "ids.yml", questions)
    cards = export("text", [bank], [], tmp_path / "ids.txt")
    assert sum(guid(c).startswith("#") for c in cards) == 3
    log = import_text(collection, tmp_path / "ids.txt")
    assert len(log.new) == len(ids)
    assert set(notes_by_guid(collection)) == {guid(c) for c in cards}


@pytest.mark.parametrize("kind", ["anki", "text"])
def test_a_question_that_changes_type_imports_as_a_new_note(
    collection: Collection, tmp_path: Path, kind: str
) -> None:
    """Choice to fill with the same id: Anki cannot merge a cloze note into a basic one (it
    refused the whole package), so the new type's note has an identity of its own."""
    before = Bank("ids", "Ids", "ids.yml", (_choice("ids-change"),))
    fill = FillQuestion(
        id="ids-change",
        bank="ids",
        prompt="Sines fill the ____ columns.",
        explanation="Even columns.",
        source=fx.SRC,
        blanks=(Blank(("even",)),),
    )
    after = Bank("ids", "Ids", "ids.yml", (fill,))
    first, second = tmp_path / f"a.{kind}", tmp_path / f"b.{kind}"
    (old,) = export(kind, [before], [], first, timestamp=T1)  # type: ignore[arg-type]
    (new,) = export(kind, [after], [], second, timestamp=T2)  # type: ignore[arg-type]
    importer = import_apkg if kind == "anki" else import_text
    importer(collection, first)
    log = importer(collection, second)
    assert len(log.new) == 1
    notes = notes_by_guid(collection)
    assert set(notes) == {guid(old), guid(new)}
    assert notes[guid(new)][1] in ("Cloze", "konum Cloze", "Konum Cloze")


def test_download_names_follow_the_deck() -> None:
    from konum.exports import file_names
    from konum.lms import LMS_NAMES

    assert file_names("konum") == {**DEFAULT_NAMES, **LMS_NAMES}
    assert file_names("My course")["anki"] == "my-course.apkg"
    assert file_names("My course")["moodle"] == "my-course-moodle.xml"
    assert file_names("My course")["gift"] == "my-course-gift.txt"
    assert file_names("Fizik: Kuvvet ve İvme")["text"] == "fizik-kuvvet-ve-ivme-anki.txt"
    assert file_names("物理")["csv"] == "konum.csv"


def test_an_ordering_card_shows_the_starting_order_and_the_right_order_on_the_back() -> None:
    """Front: the items as the quiz starts them (the seed's order, never the right one);
    back: the right order, numbered, then the explanation."""
    from tests.helpers import make_concrete

    q = OrderingQuestion(
        id="order-steps", bank="demo", prompt="Order the steps.", explanation="First things first.",
        source=model.Source("demo.yml", 1, 1), items=("one", "two", "three", "four"),
    )  # fmt: skip
    bank = Bank("demo", "Demo", "demo.yml", (q,))
    concrete = make_concrete(q, 7)
    (card,) = build_cards([bank], [concrete])
    front = re.findall(r"<li>(.*?)</li>", card.front)
    assert front == [q.items[i] for i in concrete.item_order] != list(q.items)
    assert re.findall(r"<li>(.*?)</li>", card.back) == list(q.items)
    assert '<ol class="konum-order">' in card.back and "First things first." in card.back
    (without,) = build_cards([bank])  # no concrete: the order of seed 0
    assert without.back == card.back
