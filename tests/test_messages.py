"""The interface's message catalogues: every language has every key of konum's own
catalogues, with the English fields and its CLDR plural forms; every key the templates, the
scripts and the code name exists and every key is named; the plural and number rules are
CLDR's; and a Turkish page's quiz carries Turkish texts only."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

from konum.config import options_from
from konum.errors import ConfigError
from konum.formatting import format_number, number_marks
from konum.messages import (
    BUILD_ONLY,
    LANGUAGES,
    OWN,
    Text,
    catalogue,
    fill,
    message,
    page_messages,
    plural_category,
)
from konum.paths import TEMPLATES_DIR
from tests.helpers import PE, all_texts, forms

SOURCE = Path(__file__).resolve().parent.parent / "generator"
#: A key written out where a text is asked for: ``t("quiz.answer")`` in a template or a
#: script, ``message(language, "cards.answer")`` in the code (``say`` is the exam's HTML form).
_KEY_USED = re.compile(
    r"""\b(?:t|message|say)\(\s*(?:\w+,\s*)?["']([a-z_]+\.[a-z_]+)["'](?!\s*\+)"""
)
#: A script's own reader, which puts its section before the names it is given.
_SECTION_READER = re.compile(
    r"""function (\w+)\(key\b[^)]*\)\s*\{\s*return window\.konumText\("(\w+)\." \+ key"""
)
#: A script's reader that puts a key's start before the names it is given (quiz.js's
#: ``say``: ``t("quiz.output_" + key, v)``).
_PREFIX_READER = re.compile(r"""function (\w+)\(key\b[^)]*\)\s*\{\s*return t\("([\w.]+)" \+ key""")
#: The quoted words of a source, from which the scripts build some keys
#: (``"quiz.output_" + kind``, ``unit + "_long"``).
_WORD = re.compile(r"""["']([\w.]+)["']""")


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def _sources() -> list[Path]:
    return [
        *TEMPLATES_DIR.rglob("*.j2"),
        *TEMPLATES_DIR.rglob("*.js"),
        *(SOURCE / "konum").rglob("*.py"),
    ]


def _named() -> dict[str, str]:
    """Every key the templates, scripts and code write out, with a file that does."""
    used: dict[str, str] = {}
    for path in _sources():
        source = path.read_text(encoding="utf-8")
        for match in _KEY_USED.finditer(source):
            used.setdefault(match.group(1), path.name)
        for reader, section in _SECTION_READER.findall(source):
            for name in re.findall(rf"""\b{reader}\(\s*["'](\w+)["'](?!\s*\+)""", source):
                used.setdefault(f"{section}.{name}", path.name)
    return used


def _counts(language: str) -> set[str]:
    """The CLDR categories whole counts 0 to 1000 fall into in ``language``."""
    return {plural_category(language, n) for n in range(1001)}


@pytest.mark.parametrize("language", LANGUAGES[1:])
def test_every_language_has_the_english_keys_fields_and_plural_forms(language: str) -> None:
    """Read from the language's own folder alone (no fallback): the keys of every section,
    each form's fields among the English ones, ``other``'s the same, none left out, and a
    text that counts has a form for every category a whole count takes (or one text)."""
    english, other, counts = catalogue("en"), catalogue(language), _counts(language)
    assert sorted(path.name for path in (OWN / language).glob("*.yml")) == sorted(
        path.name for path in (OWN / "en").glob("*.yml")
    )
    assert set(other) - set(english) == set(), "keys English does not have"
    assert set(english) - set(other) == set(), "keys missing"
    for key, text in english.items():
        theirs = other[key]
        mine = set().union(*map(_fields, forms(text)))
        assert set().union(*map(_fields, forms(theirs))) == mine, key
        assert all(_fields(form) <= mine and form.strip() for form in forms(theirs)), key
        assert _fields(_other(theirs)) == _fields(_other(text)), key
        if not isinstance(theirs, str):
            assert counts <= set(theirs), key


def _other(text: Text) -> str:
    return text if isinstance(text, str) else text["other"]


def test_the_course_speaks_english_and_turkish_and_english_elsewhere() -> None:
    """The course plugin's catalogues are course-specific: complete in its two languages;
    a site in another language gets its English texts, in the language's plural rules."""
    english, turkish = catalogue("en", PE.messages), catalogue("tr", PE.messages)
    assert set(english) == set(turkish)
    for key, text in english.items():
        assert _fields(_other(turkish[key])) == _fields(_other(text)), key
    german = catalogue("de", PE.messages)
    assert german["quiz.check"] == catalogue("de")["quiz.check"] != english["quiz.check"]
    assert german["explorer.alibi_nearest"] == english["explorer.alibi_nearest"]


def test_every_key_the_templates_the_scripts_and_the_code_name_exists() -> None:
    used = _named()
    # The course's own texts: say(language, "key") is the section generators.
    for path in (SOURCE / "konum_pe").rglob("*.py"):
        for match in _KEY_USED.finditer(path.read_text(encoding="utf-8")):
            used.setdefault(f"generators.{match.group(1)}", path.name)
    assert {"print.question", "cards.answer", "quiz.blank_label", "study.done_next"} <= set(used)
    assert {"exam.minutes", "overview.forget", "quiz.check"} <= set(used)
    missing = {key: name for key, name in used.items() if key not in catalogue("en", PE.messages)}
    assert missing == {}


def test_every_key_of_konum_s_catalogues_is_named() -> None:
    """A key is named when its full key or its name is a quoted word of the sources, or two
    of their words make it (``"quiz.output_" + kind``)."""
    words = {w for path in _sources() for w in _WORD.findall(path.read_text(encoding="utf-8"))}

    def named(whole: str) -> bool:
        return whole in words or any(
            whole[:i] in words and whole[i:] in words for i in range(1, len(whole))
        )

    unused = [key for key in catalogue("en") if not (named(key) or named(key.split(".")[1]))]
    assert unused == []


def test_plural_forms_follow_cldr() -> None:
    assert message("en", "quiz.choices_wrong", n=1) == "1 choice marked wrong"
    assert message("en", "quiz.choices_wrong", n=3) == "3 choices marked wrong"
    assert message("tr", "quiz.choices_wrong", n=3) == "3 seçim yanlış"
    polish = [message("pl", "print.questions", n=n) for n in (1, 2, 5, 22, 12, 112)]
    assert polish == ["1 pytanie", "2 pytania", "5 pytań", "22 pytania", "12 pytań", "112 pytań"]
    russian = [message("ru", "print.questions", n=n) for n in (1, 3, 5, 21, 11)]
    assert russian == ["1 вопрос", "3 вопроса", "5 вопросов", "21 вопрос", "11 вопросов"]
    assert [message("ja", "print.questions", n=n) for n in (1, 5)] == ["1 問", "5 問"]
    forms_ = {"one": "{n} jour", "other": "{n} jours"}
    assert [fill(forms_, "fr", n=n) for n in (0, 1, 1.5, 2)] == [
        "0 jour",
        "1 jour",
        "1.5 jour",
        "2 jours",
    ]
    assert fill(forms_, "en", n=0) == "0 jours"  # English counts none in the plural


def test_plural_forms_are_the_language_s_categories(tmp_path: Path) -> None:
    folder = tmp_path / "de"
    folder.mkdir()
    (folder / "extra.yml").write_text('cards: {one: "{n} Karte", few: "{n} Karten"}\n')
    with pytest.raises(
        ConfigError,
        match=r"extra.yml: cards: expected plural forms among one, other with 'other', found few",
    ):
        catalogue("de", (tmp_path,))


def test_numbers_are_written_with_cldr_marks() -> None:
    marks = {lang: number_marks(lang) for lang in ("en", "tr", "de", "fr", "pl", "ja")}
    assert marks == {
        "en": (".", ","), "tr": (",", "."), "de": (",", "."),
        "fr": (",", "\u202f"), "pl": (",", "\xa0"), "ja": (".", ","),
    }  # fmt: skip
    assert [format_number(-0.5, 2, language=lang) for lang in ("en", "ru", "zh")] == [
        "-0.50", "-0,50", "-0.50"
    ]  # fmt: skip


def test_page_messages_hold_only_the_sections_asked() -> None:
    texts = page_messages("tr", ["study"])
    assert texts and all(key.startswith("study.") for key in texts)
    assert page_messages("pl", ["exam"])["exam.minutes"] == dict(catalogue("pl")["exam.minutes"])


def test_the_language_option_is_checked() -> None:
    assert options_from({"language": "tr"}).language == "tr"
    with pytest.raises(ConfigError, match=r"option 'language'.*found 'turkish'"):
        options_from({"language": "turkish"})
    with pytest.raises(ConfigError, match="did you mean 'tr'"):
        options_from({"language": "trr"})
    assert [options_from({"language": lang}).language for lang in LANGUAGES] == list(LANGUAGES)
    with pytest.raises(
        ConfigError, match="expected one of " + ", ".join(LANGUAGES) + ", found 'sv'"
    ):
        options_from({"language": "sv"})
    assert len(LANGUAGES) >= 12


def test_a_turkish_quiz_has_no_english_interface_text(tmp_path) -> None:
    import markdown

    bank = tmp_path / "banks" / "demo.yml"
    bank.parent.mkdir()
    bank.write_text(
        "bank: demo\ntitle: Deneme\nquestions:\n"
        "  - id: q1\n    type: numeric\n    prompt: 'İki kere iki?'\n    answer: 4\n"
        "    decimals: 1\n    hint: Çarpın.\n    explanation: Dört.\n"
        "  - id: q2\n    type: fill\n    prompt: 'Boşluk ____ burada'\n"
        "    blanks: [{answers: [bir]}]\n    explanation: Bir.\n"
        "  - id: q3\n    type: computed\n    generator: alibi_slope\n    answer: choice\n"
        "    params: {heads: [5, 6, 7, 12], head: {min: 1, max: 12}}\n"
        "    explanation: Eğim.\n"
        "  - id: q4\n    type: computed\n    generator: rope_scaling\n    explanation: Ölçek.\n",
        encoding="utf-8",
    )
    md = markdown.Markdown(
        extensions=["konum"],
        extension_configs={
            "konum": {"banks": str(bank.parent), "language": "tr", "plugins": ["pe"]}
        },
    )
    html = md.convert("/// quiz | demo\n///\n")
    english = [
        form
        for text in catalogue("en", PE.messages).values()
        for form in forms(text)
        if re.search(r"[A-Za-z]{3}", form)
    ]
    page, _, assets = html.partition("<template data-konum-messages>")
    assert "<script>" in assets  # the quiz's script follows, with no English of its own
    turkish = all_texts("tr")
    visible = re.sub(r'class="[^"]*"|id="[^"]*"|data-[\w-]+(="[^"]*")?', "", page)
    for text in english:
        # Math and code are the same in every language (the page shows them as MathML).
        for piece in re.split(r"\{\w+\}|\$\$.*?\$\$|\$[^$]*\$|`[^`]*`", text, flags=re.S):
            piece = piece.strip(" .,;:/()-\n")
            # A name or term the Turkish texts use too ("NTK-aware", "Llama 3") is not English.
            if len(piece) > 3 and piece not in turkish:
                # As a whole word: "base" is no English in a style's "baseline".
                assert not re.search(rf"(?<![\w-]){re.escape(piece)}(?![\w-])", visible), piece
    assert message("tr", "quiz.check") in html  # the scripts' texts ride along
    assert "ALiBi" in visible and "ondalık basamağa yuvarlayın" in visible
    assert "Soru 1 / 4" in html


def test_the_own_site_page_lists_every_language() -> None:
    page = (Path(__file__).resolve().parent.parent / "content" / "own-site.md").read_text("utf-8")
    section = page.split(". The interface in your language\n", 1)[1].split("\n\n**", 1)[0]
    assert sorted(re.findall(r"\| `(\w+)` \|", section)) == sorted(LANGUAGES)


def test_a_page_carries_no_text_only_the_templates_write() -> None:
    """The texts a page leaves out (:data:`BUILD_ONLY`) are ones no script asks for: not
    as a quoted key (``t("quiz.check")``, ``ok ? "quiz.right" : ...``), nor as one a reader
    builds (``say("missing")``: ``"quiz.output_" + key``); and each is a quiz text."""
    asked: set[str] = set()
    for path in [*TEMPLATES_DIR.rglob("*.js"), *(SOURCE / "konum_pe").rglob("*.js")]:
        source = path.read_text(encoding="utf-8")
        asked |= {w for w in _WORD.findall(source) if re.fullmatch(r"[a-z]+\.\w+", w)}
        for reader, prefix in _PREFIX_READER.findall(source):
            asked |= {prefix + name for name in re.findall(rf"\b{reader}\(\s*\"(\w+)\"", source)}
    assert {"quiz.check", "quiz.output_missing"} <= asked
    assert set(catalogue("en")) >= BUILD_ONLY and not BUILD_ONLY & asked
    carried = page_messages("en", ["quiz"])
    assert carried and not BUILD_ONLY & set(carried)
