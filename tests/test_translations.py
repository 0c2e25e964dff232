"""Bank translations (konum.translate): the course's Turkish files are complete and
current; missing, extra, untranslated and stale entries are reported at their file and line;
both editions draw the same numbers; Turkish decks are other notes than English ones."""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from anki.collection import Collection
from click.testing import CliRunner

from konum import model
from konum.cli import cli
from konum.config import options_from
from konum.course import course_for
from konum.exports.anki import deck_id, guid, model_ids
from konum.formatting import format_number, localize_numbers, with_unit
from konum.messages import catalogue
from konum.rehash import update_hashes
from konum.translate import (
    check_translations,
    english_fields,
    left_in_english,
    source_hash,
)
from konum.types import Bank, ChoiceQuestion, ComputedQuestion, MatchingQuestion, NumericQuestion
from tests.helpers import GENERATORS, PE, all_texts, build_cards, export, forms, load_banks

REPO = Path(__file__).resolve().parent.parent
BANKS = REPO / "content" / "banks"
TURKISH = REPO / "content" / "tr" / "banks"

BANK = """\
bank: demo
title: Demo bank
questions:
  - id: q-choice
    type: choice
    prompt: Which column holds the sines?
    options:
      - text: The even columns
        correct: true
      - text: The odd columns
        feedback: Those hold the cosines.
    explanation: Sines go into the even columns.
  - id: q-number
    type: numeric
    prompt: How many rows does the table have?
    answer: 514
    unit: rows
    explanation: Two more than the tokens.
flashcards:
  - id: q-card
    front: What is a position embedding?
    back: A learned table of rows.
"""

TRANSLATION = """\
# A translator's comment, kept by --update-hashes.
bank: demo
title: Deneme bankası
questions:
  - id: q-choice
    prompt: Sinüsler hangi sütunlardadır?
    options:
      - text: Çift sütunlarda
      - text: Tek sütunlarda
        feedback: Oralarda kosinüsler vardır.
    explanation: Sinüsler çift sütunlara gider.
  - id: q-number
    prompt: Tablonun kaç satırı vardır?
    unit: satır
    explanation: Belirteçlerden iki fazla.
flashcards:
  - id: q-card
    front: Konum gömmesi nedir?
    back: Öğrenilmiş bir satır tablosu.
"""


@pytest.fixture
def demo(tmp_path: Path) -> tuple[Bank, Path]:
    (tmp_path / "en").mkdir()
    (tmp_path / "tr").mkdir()
    (tmp_path / "en" / "demo.yml").write_text(BANK, encoding="utf-8")
    (tmp_path / "tr" / "demo.yml").write_text(TRANSLATION, encoding="utf-8")
    (bank,) = load_banks(tmp_path / "en")
    return bank, tmp_path / "tr"


def _messages(bank: Bank, folder: Path) -> list[str]:
    report = check_translations([bank], folder)
    return [str(p) for p in report.problems]


def test_the_courses_turkish_translations_are_complete_and_current() -> None:
    banks = load_banks(BANKS)
    report = check_translations(banks, TURKISH)
    assert report.problems == ()
    assert report.stale == ()
    assert len(report.banks) == len(banks)
    english = {q.id: q for b in banks for q in b.questions}
    for bank in report.banks:
        for q in bank.questions:
            assert q.id in english and type(q) is type(english[q.id])
            if q.prompt.strip():
                assert q.prompt != english[q.id].prompt, q.id


def test_a_translation_applies_and_keeps_ids_answers_and_order(
    demo: tuple[Bank, Path],
) -> None:
    bank, folder = demo
    report = check_translations([bank], folder)
    assert report.problems == () and len(report.stale) == 4  # no hashes recorded yet
    (translated,) = report.banks
    assert translated.title == "Deneme bankası"
    choice, number = translated.questions
    assert isinstance(choice, ChoiceQuestion) and isinstance(number, NumericQuestion)
    assert [o.text for o in choice.options] == ["Çift sütunlarda", "Tek sütunlarda"]
    assert [o.correct for o in choice.options] == [True, False]
    assert choice.options[1].feedback == "Oralarda kosinüsler vardır."
    assert (number.answer, number.unit) == (514, "satır")
    assert translated.flashcards[0].front == "Konum gömmesi nedir?"


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("    explanation: Sinüsler çift sütunlara gider.\n", "",
         "demo.yml:5:5: [q-choice] explanation: missing translation of 'explanation'"),
        ("    unit: satır\n", "    unit: satır\n    hint: Sayın.\n",
         "demo.yml:15:11: [q-number] hint: no English field 'hint' to translate"),
        ("      - text: Tek sütunlarda\n", "      - text: The odd columns\n",
         "demo.yml:9:15: [q-choice] options[1].text: untranslated: expected a translation, "
         "found the same text as the English"),
        ("    unit: satır\n", "    unit: rows\n",
         "demo.yml:14:11: [q-number] unit: untranslated: expected a translation, found the "
         "same text as the English"),
        ("  - id: q-number\n", "  - id: q-numbers\n",
         "demo.yml:12:5: [q-numbers] id: no English question 'q-numbers' in"),
        ("      - text: Tek sütunlarda\n        feedback: Oralarda kosinüsler vardır.\n", "",
         "demo.yml:5:5: [q-choice] options[1].text: missing translation of 'options[1].text'"),
    ],
)  # fmt: skip
def test_problems_name_file_line_id_and_field(
    demo: tuple[Bank, Path], old: str, new: str, expected: str
) -> None:
    bank, folder = demo
    path = folder / "demo.yml"
    path.write_text(TRANSLATION.replace(old, new, 1), encoding="utf-8")
    found = _messages(bank, folder)
    assert any(expected in message for message in found), found


def test_an_english_entry_without_translation_and_a_file_of_no_bank(
    demo: tuple[Bank, Path],
) -> None:
    bank, folder = demo
    text = TRANSLATION.split("flashcards:")[0]
    (folder / "demo.yml").write_text(text, encoding="utf-8")
    (folder / "other.yml").write_text("bank: other\n", encoding="utf-8")
    found = _messages(bank, folder)
    assert any("[q-card] no translation of 'q-card'" in m for m in found), found
    assert any("other.yml: bank: a translation of no bank" in m for m in found), found


def test_untranslated_allows_names_and_formulas() -> None:
    assert not left_in_english("BERT-base", "BERT-base")
    assert not left_in_english(
        "GPT-NeoX and Hugging Face `rotate_half`"[:21], "GPT-NeoX and Hugging"
    )
    assert not left_in_english("$R(n - m)$", "$R(n - m)$")
    assert left_in_english("positions", "positions")
    assert left_in_english("The even columns", "The even columns")


def test_stale_entries_are_reported_and_update_hashes_marks_them_current(
    demo: tuple[Bank, Path],
) -> None:
    bank, folder = demo
    assert update_hashes([bank], folder) == [str(folder / "demo.yml")]
    text = (folder / "demo.yml").read_text(encoding="utf-8")
    assert text.startswith("# A translator's comment")
    assert f"    en: {source_hash(english_fields(bank.questions[0]))}\n" in text
    assert check_translations([bank], folder).stale == ()
    assert update_hashes([bank], folder) == []  # nothing left to change

    edited = BANK.replace("Those hold the cosines.", "The odd columns hold the cosines.")
    (folder.parent / "en" / "demo.yml").write_text(edited, encoding="utf-8")
    (newer,) = load_banks(folder.parent / "en")
    (stale,) = check_translations([newer], folder).stale
    assert (stale.question_id, stale.line) == ("q-choice", 6)
    assert "older than its English" in str(stale) and "--update-hashes" in str(stale)


def test_konum_check_reports_translations_and_updates_hashes(
    demo: tuple[Bank, Path],
) -> None:
    _, folder = demo
    config = folder.parent / "mkdocs.yml"
    config.write_text(
        textwrap.dedent(
            f"""\
            site_name: demo
            docs_dir: {folder}
            markdown_extensions:
              - konum:
                  banks: {folder.parent / "en"}
                  translations: {folder}
                  language: tr
            """
        ),
        encoding="utf-8",
    )
    runner = CliRunner()
    result = runner.invoke(cli, ["check", "-f", str(config)])
    assert result.exit_code == 1 and "older than its English" in result.output
    result = runner.invoke(cli, ["check", "-f", str(config), "--update-hashes"])
    assert result.exit_code == 0, result.output
    (folder / "demo.yml").write_text(
        (folder / "demo.yml").read_text(encoding="utf-8").replace("unit: satır", "unit: rows"),
        encoding="utf-8",
    )
    result = runner.invoke(cli, ["check", "-f", str(config)])
    assert result.exit_code == 1 and "[q-number] unit: untranslated" in result.output


def _course(language: str, seed: int = 42, variants: int = 2):  # type: ignore[no-untyped-def]
    given: dict[str, object] = {
        "banks": str(BANKS),
        "seed": seed,
        "variants": variants,
        "plugins": ["pe"],
    }
    if language != "en":
        given |= {"language": language, "translations": str(TURKISH)}
    return course_for(options_from(given, REPO))


def _drawn(course) -> dict[str, object]:  # type: ignore[no-untyped-def]
    out: dict[str, object] = {}
    for concrete in course.concretes():
        q = concrete.question
        out[q.id] = (
            concrete.option_order,
            [course.concrete(q).right_items.index(p.right) for p in q.pairs]
            if isinstance(q, MatchingQuestion)
            else None,
            [
                (v.values, v.answer, v.tolerance, v.decimals, [o.correct for o in v.options])
                for v in concrete.variants
            ],
        )
    return out


def test_both_editions_draw_the_same_numbers_per_question_id() -> None:
    english, turkish = _course("en"), _course("tr")
    assert _drawn(english) == _drawn(turkish)
    assert len(_drawn(english)) == english.questions
    computed = [c for c in turkish.concretes() if c.variants]
    shown = [v.shown_answer for c in computed for v in c.variants]
    assert any("," in s for s in shown)
    # A point only groups the digits of a long number (CLDR's Turkish: 131.328, 1.256,3944).
    assert all(re.fullmatch(r"-?\d{1,3}(?:\.\d{3})*(?:,\d+)?", s.split()[0]) for s in shown)


def test_numbers_in_turkish_take_the_decimal_comma() -> None:
    assert format_number(0.84147, 3, language="tr") == "0,841"
    assert format_number(-0.0001, 2, "rad", language="tr") == "0,00\u00a0rad"
    assert format_number(0.84147, 3) == "0.841"
    assert format_number(20473564.125, 1, language="tr") == "20.473.564,1"
    assert format_number(8192, language="tr") == "8.192" and format_number(8192) == "8192"
    text = "Açı 0.5 rad, $x = 0.25$, `a = 0.5`, ```\nb = 1.5\n```"
    assert localize_numbers(text, "tr") == "Açı 0,5 rad, $x = 0{,}25$, `a = 0.5`, ```\nb = 1.5\n```"
    assert localize_numbers(text, "en") == text
    grouped = "Taban 10000, $b = 500000.5$, `b = 10000`"
    assert localize_numbers(grouped, "tr") == "Taban 10.000, $b = 500{.}000{,}5$, `b = 10000`"


@pytest.fixture
def collection(tmp_path: Path) -> Iterator[Collection]:
    folder = tmp_path / "anki"
    folder.mkdir()
    col = Collection(str(folder / "collection.anki2"))
    try:
        yield col
    finally:
        col.close()


def test_turkish_cards_are_other_notes_stable_across_seeds(
    collection: Collection, tmp_path: Path
) -> None:
    from test_exports import import_apkg

    english, turkish = _course("en", variants=1), _course("tr", variants=1)
    en_cards = export("anki", english.banks, english.concretes(), tmp_path / "en.apkg",
                      deck="konum", timestamp=1_700_000_000)  # fmt: skip
    tr_cards = export("anki", turkish.banks, turkish.concretes(), tmp_path / "tr.apkg",
                      deck="konum (Türkçe)", timestamp=1_700_000_000,
                      language="tr")  # fmt: skip
    assert {c.key for c in en_cards} == {c.key for c in tr_cards}
    assert not {guid(c) for c in en_cards} & {guid(c) for c in tr_cards}
    assert deck_id("rope") != deck_id("rope", "tr")
    import_apkg(collection, tmp_path / "en.apkg")
    import_apkg(collection, tmp_path / "tr.apkg")
    assert collection.note_count() == len(en_cards) + len(tr_cards)
    # The Turkish notes' types, fields and card templates are named in Turkish.
    turkish_types = {
        n["name"]: ([f["name"] for f in n["flds"]], [t["name"] for t in n["tmpls"]])
        for n in collection.models.all()
        if n["id"] in model_ids("tr")
    }
    assert turkish_types == {
        "konum Temel": (["Ön yüz", "Arka yüz"], ["Kart 1"]),
        "konum Boşluk doldurma": (["Metin", "Ek bilgi"], ["Boşluk doldurma"]),
    }

    other = _course("tr", seed=7, variants=1)
    again = export("anki", other.banks, other.concretes(), tmp_path / "tr7.apkg",
                   deck="konum (Türkçe)", timestamp=1_700_003_600,
                   language="tr")  # fmt: skip
    assert {guid(c) for c in again} == {guid(c) for c in tr_cards}
    log = import_apkg(collection, tmp_path / "tr7.apkg")
    assert len(log.new) == 0 and collection.note_count() == len(en_cards) + len(tr_cards)


def test_turkish_cards_speak_turkish() -> None:
    english, turkish = _course("en", variants=1), _course("tr", variants=1)
    cards = build_cards(turkish.banks, turkish.concretes(), language="tr")
    backs = " ".join(c.back for c in cards)
    assert "Cevap:" in backs and "Answer:" not in backs
    assert all(c.language == "tr" for c in cards)
    # Their tags are the translations' names; a name Turkish says as English does stays.
    same = {
        "alibi",
        "fairseq",
        "llama3",
        "nope",
        "ntk",
        "rope",
        "shaw",
        "softmax",
        "t5",
        "vit",
        "yarn",
    }
    english_tags = {t for c in build_cards(english.banks, english.concretes()) for t in c.tags}
    assert {t for c in cards for t in c.tags} & english_tags == same
    assert {"neden-konum", "sinüs", "hesaplanan"} <= {t for c in cards for t in c.tags}


def _english_prose() -> list[str]:
    """The prose of the English generator texts: each text split at its fields and its math,
    the pieces of two words or more that no Turkish text shares (``Llama 3``)."""
    turkish = all_texts("tr")
    pieces = set()
    for key, text in catalogue("en", PE.messages).items():
        if not key.startswith("generators."):
            continue
        for form in forms(text):
            for piece in re.split(r"\{\w+\}|\$\$.*?\$\$|\$[^$]*\$|`[^`]*`", form, flags=re.S):
                piece = piece.strip(" .,:;()-\n")
                if re.search(r"[A-Za-z]{2,} [A-Za-z]{2,}", piece) and piece not in turkish:
                    pieces.add(piece)
    return sorted(pieces)


@pytest.mark.parametrize("generator", sorted(g.name for g in GENERATORS.values()))
def test_generators_word_the_same_draw_in_turkish(generator: str) -> None:
    """Every course generator: the Turkish variants draw what the English ones draw (values,
    answers, options, misconceptions) and word prompt, solution and feedback in Turkish,
    with no piece of the English texts left."""
    from tests.helpers import computed_variants

    q = ComputedQuestion(
        id=f"demo-{generator}", bank="demo", prompt="", explanation="",
        source=model.Source("x", 1, 1), generator=generator, answer="choice",
        options=min(4, len(GENERATORS[generator].misconceptions)),
    )  # fmt: skip
    english, turkish = computed_variants(q, 42, 8), computed_variants(q, 42, 8, "tr")
    prose = _english_prose()
    for en, tr in zip(english, turkish, strict=True):
        assert (en.values, en.answer, en.tolerance) == (tr.values, tr.answer, tr.tolerance)
        assert [o.correct for o in en.options] == [o.correct for o in tr.options]
        assert [o.misconception for o in en.options] == [o.misconception for o in tr.options]
        # The same numbers (Turkish groups long ones with "." and writes the decimal ","),
        # the unit after them the language's own.
        assert [
            with_unit(o.text.split("\u00a0")[0].replace(".", "").replace(",", "."), en.unit)
            for o in tr.options
        ] == [o.text for o in en.options]
        assert tr.prompt != en.prompt and tr.solution != en.solution
        feedback = [o.feedback for o in tr.options if o.feedback]
        assert len(feedback) == len([o for o in en.options if o.feedback])
        for text in (tr.prompt, tr.solution, tr.unit or "", *feedback):
            left = [piece for piece in prose if piece in text]
            assert not left, (generator, left, text)


def test_the_english_prose_check_finds_english() -> None:
    """The check above reads what it should: English generator prose is found in English."""
    from tests.helpers import computed_variants

    q = ComputedQuestion(
        id="demo-alibi", bank="demo", prompt="", explanation="",
        source=model.Source("x", 1, 1), generator="alibi_slope", answer="choice",
    )  # fmt: skip
    (en,) = computed_variants(q, 42, 1)
    assert any(piece in en.prompt for piece in _english_prose())
    assert "attention heads a fixed slope" in _english_prose()


def test_formula_solutions_in_turkish() -> None:
    from tests.helpers import computed_variants

    q = ComputedQuestion(
        id="demo-formula", bank="demo", prompt="$a / 3$?", explanation="",
        source=model.Source("x", 1, 1), formula="a / 3",
        params={"a": model.Range(1, 9)},
    )  # fmt: skip
    (en,), (tr,) = computed_variants(q, 1, 1), computed_variants(q, 1, 1, "tr")
    assert "2 decimals" in en.solution and "2 ondalık basamak" in tr.solution
    assert tr.shown_answer == en.shown_answer.replace(".", ",")


#: The demo translation in flow style, with comments, a BOM-free CRLF file.
FLOW = (
    "bank: demo  # flow style below\r\n"
    "title: Deneme bankası\r\n"
    "questions:\r\n"
    "  - {id: q-choice, prompt: 'Sinüsler hangi sütunlardadır?', options: [{text: Çift sütunlarda},"
    " {text: Tek sütunlarda, feedback: Oralarda kosinüsler vardır.}],"
    " explanation: Sinüsler çift sütunlara gider.}\r\n"
    "  # the number question\r\n"
    "  - {id: q-number, prompt: 'Tablonun kaç satırı vardır?', unit: satır,"
    " explanation: Belirteçlerden iki fazla.}\r\n"
    "flashcards:\r\n"
    "  - {id: q-card, front: 'Konum gömmesi nedir?', back: Öğrenilmiş bir satır tablosu.}\r\n"
)


def test_update_hashes_keeps_flow_style_comments_and_crlf(demo: tuple[Bank, Path]) -> None:
    import yaml

    bank, folder = demo
    path = folder / "demo.yml"
    path.write_bytes(FLOW.encode("utf-8"))
    assert update_hashes([bank], folder) == [str(path)]
    data = path.read_bytes()
    text = data.decode("utf-8")
    assert "\r\n" in text and "\n" not in text.replace("\r\n", "")  # every line still CRLF
    assert "# flow style below" in text and "  # the number question\r\n" in text
    assert "  - {id: q-choice, en: " in text  # the hash joins the flow mapping
    loaded = yaml.safe_load(text)
    assert loaded["en"] == source_hash(bank.title)
    assert [q["en"] for q in loaded["questions"]] == [
        source_hash(english_fields(q)) for q in bank.questions
    ]
    report = check_translations([bank], folder)
    assert report.problems == () and report.stale == ()
    assert update_hashes([bank], folder) == []


def test_a_hash_that_looks_like_an_octal_number_is_read_as_text(
    demo: tuple[Bank, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A hash of eight digits 0-7 (``01234567``) reads in YAML 1.1 as an octal number; the
    file keeps it as the text it is, written and read back."""
    import konum.translate as translate

    bank, folder = demo
    monkeypatch.setattr(translate, "source_hash", lambda fields: "01234567")
    assert update_hashes([bank], folder)
    text = (folder / "demo.yml").read_text(encoding="utf-8")
    assert "en: 01234567" in text or "en: '01234567'" in text or 'en: "01234567"' in text
    report = check_translations([bank], folder)
    assert report.stale == (), [str(p) for p in report.stale]
    assert update_hashes([bank], folder) == []


def test_a_translation_is_read_by_the_bank_reader(demo: tuple[Bank, Path]) -> None:
    """A translation file's problems are the bank reader's (konum.fields.Reader): a
    misspelt key is named with what it likely meant, a wrong value says what was expected
    and what was found, in the one form every bank problem has."""
    bank, folder = demo
    text = TRANSLATION.replace("title: Deneme", "titel: Deneme").replace(
        "flashcards:", "flashcards: 3\nunused:"
    )
    (folder / "demo.yml").write_text(text, encoding="utf-8")
    found = _messages(bank, folder)
    assert any(
        m.endswith(
            ":3:1: titel: unknown key 'titel'; did you mean 'title'?: expected one of "
            "bank, en, title, tags, questions, flashcards, found 'titel'"
        )
        for m in found
    ), found
    assert any(
        m.endswith(": flashcards: wrong type: expected a list of entries with ids, found '3'")
        for m in found
    ), found
