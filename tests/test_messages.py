"""The interface's message catalogues: every language has every key, with the same fields,
every key the templates and the code name exists, and a Turkish page's quiz carries Turkish
texts only."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

from konum.config import options_from
from konum.errors import ConfigError
from konum.messages import LANGUAGES, catalogue, message, page_messages
from konum.paths import TEMPLATES_DIR
from tests.helpers import PE

#: A key written out where a text is asked for: ``t("quiz.answer")`` in a template,
#: ``message(language, "cards.answer")`` in the code (``_say`` is the exam's HTML form).
#: The scripts build some of their keys (``"quiz.output_" + kind``), so they are left out.
_KEY_USED = re.compile(r"""\b(?:t|message|say)\(\s*(?:\w+,\s*)?["']([a-z_]+\.[a-z_]+)["']""")


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("language", LANGUAGES[1:])
def test_every_language_has_the_english_keys_and_fields(language: str) -> None:
    english, other = catalogue("en", PE.messages), catalogue(language, PE.messages)
    assert set(other) == set(english)
    for key, text in english.items():
        assert _fields(other[key]) == _fields(text), key
        assert other[key].strip(), key


def test_every_key_the_templates_and_the_code_name_exists() -> None:
    source = Path(__file__).resolve().parent.parent / "generator"
    used: dict[str, str] = {}
    for path in [*TEMPLATES_DIR.rglob("*.j2"), *(source / "konum").rglob("*.py")]:
        for match in _KEY_USED.finditer(path.read_text(encoding="utf-8")):
            used.setdefault(match.group(1), path.name)
    # The course's own texts: say(language, "key") is the section generators.
    for path in (source / "konum_pe").rglob("*.py"):
        for match in _KEY_USED.finditer(path.read_text(encoding="utf-8")):
            used.setdefault(f"generators.{match.group(1)}", path.name)
    assert {"print.question", "print.also", "cards.answer", "quiz.blank_label"} <= set(used)
    missing = {key: name for key, name in used.items() if key not in catalogue("en", PE.messages)}
    assert missing == {}


def test_plural_forms_follow_n() -> None:
    assert message("en", "quiz.choices_wrong", n=1) == "1 choice marked wrong"
    assert message("en", "quiz.choices_wrong", n=3) == "3 choices marked wrong"
    assert message("tr", "quiz.choices_wrong", n=3) == "3 seçim yanlış"


def test_page_messages_hold_only_the_sections_asked() -> None:
    texts = page_messages("tr", ["study"])
    assert texts and all(key.startswith("study.") for key in texts)


def test_the_language_option_is_checked() -> None:
    assert options_from({"language": "tr"}).language == "tr"
    with pytest.raises(ConfigError, match=r"option 'language'.*found 'turkish'"):
        options_from({"language": "turkish"})
    with pytest.raises(ConfigError, match="did you mean 'tr'"):
        options_from({"language": "trr"})


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
        text
        for key, text in catalogue("en", PE.messages).items()
        if re.search(r"[A-Za-z]{3}", text)
    ]
    page, _, assets = html.partition("<template data-konum-messages>")
    assert "<script>" in assets  # the quiz's script follows, with no English of its own
    turkish = " ".join(catalogue("tr", PE.messages).values())
    visible = re.sub(r'class="[^"]*"|id="[^"]*"|data-[\w-]+(="[^"]*")?', "", page)
    for text in english:
        # Math and code are the same in every language (the page shows them as MathML).
        for piece in re.split(r"\{\w+\}|\||\$\$.*?\$\$|\$[^$]*\$|`[^`]*`", text, flags=re.S):
            piece = piece.strip(" .,;:/()-\n")
            # A name or term the Turkish texts use too ("NTK-aware", "Llama 3") is not English.
            if len(piece) > 3 and piece not in turkish:
                # As a whole word: "base" is no English in a style's "baseline".
                assert not re.search(rf"(?<![\w-]){re.escape(piece)}(?![\w-])", visible), piece
    assert message("tr", "quiz.check") in html  # the scripts' texts ride along
    assert "ALiBi" in visible and "ondalık basamağa yuvarlayın" in visible
    assert "Soru 1 / 4" in html
