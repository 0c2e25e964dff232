"""The figures in the page's language: words from the ``figures`` catalogue section, numbers in
the language's marks, English unchanged.

Every figure is checked with its defaults and with each lesson's parameters. The English
texts are pinned by ``tests/golden/figure_texts.en.json`` (written before the figures took a
language, so it holds the English they always showed) and the Turkish ones by
``figure_texts.tr.json``; regenerate both after an intended change with
``KONUM_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/test_figures_language.py`` and review
the diff.
"""

from __future__ import annotations

import html
import json
import os
import re
from pathlib import Path

import markdown
import pytest
from test_figure_titles import lesson_calls

from konum import figures, model
from konum.figures import FigureError
from konum.figures.svg import localize_text
from konum.messages import LANGUAGES, catalogue
from konum.types import Bank, Concrete, NumericQuestion
from tests.helpers import FIGURES, PE, export, render_explorer, render_quiz, render_svg

GOLDEN = Path(__file__).parent / "golden"
TEXT = re.compile(r"<text\b[^>]*>(.*?)</text>", re.S)
#: Every figure with its defaults, and with each lesson's parameters, once each.
_CALLS = [(name, {}) for name in FIGURES] + lesson_calls()
CASES = sorted({repr((n, sorted(p.items()))): (n, p) for n, p in _CALLS}.values(), key=repr)
IDS = [f"{name}{sorted(p.items())}" for name, p in CASES]


def texts(svg: str) -> list[str]:
    """The ``<text>`` contents of ``svg``, unescaped, in document order."""
    return [html.unescape(re.sub(r"<[^>]*>", "", t)) for t in TEXT.findall(svg)]


def english_words() -> list[str]:
    """The English ``figures`` texts as pieces between their fields and line breaks, those with
    a word in them, minus any the Turkish catalogue also uses (``Llama 3``)."""
    turkish = " ".join(
        v for k, v in catalogue("tr", PE.messages).items() if k.startswith("figures.")
    )
    pieces = set()
    for key, text in catalogue("en", PE.messages).items():
        if key.startswith("figures."):
            for piece in re.split(r"\{[^}]*\}|\n", text):
                piece = piece.strip(" .,:;()")
                if re.search(r"[A-Za-z]{3}", piece) and piece not in turkish:
                    pieces.add(piece)
    return sorted(pieces)


@pytest.fixture(scope="module")
def english() -> list[str]:
    words = english_words()
    assert {"position p", "bidirectional", "cosine similarity to the outlined patch"} <= set(words)
    return words


@pytest.mark.parametrize(("name", "params"), CASES, ids=IDS)
def test_a_turkish_figure_shows_no_english_label(
    english: list[str], name: str, params: dict[str, object]
) -> None:
    shown = texts(render_svg(name, "Şekil", language="tr", **params))
    assert any(re.search(r"[^\W\d_]{3}", t) for t in shown), shown  # it has words
    found = [
        word for word in english for t in shown if re.search(rf"(?<!\w){re.escape(word)}(?!\w)", t)
    ]
    assert found == []


@pytest.mark.slow  # draws every case of every figure
@pytest.mark.parametrize("language", ["en", "tr"])
def test_figure_texts_match_the_golden(language: str) -> None:
    shown = {
        f"{name} {sorted(params.items())}": texts(
            render_svg(name, "Alt", language=language, **params)
        )
        for name, params in CASES
    }
    path = GOLDEN / f"figure_texts.{language}.json"
    if os.environ.get("KONUM_UPDATE_GOLDEN") == "1":
        path.write_text(json.dumps(shown, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    assert path.exists(), f"missing {path}; run with KONUM_UPDATE_GOLDEN=1"
    assert shown == json.loads(path.read_text(encoding="utf-8")), f"{path} differs"


def test_english_is_the_default_and_turkish_numbers_take_turkish_marks() -> None:
    english = render_svg("rope_frequencies_scaled", "Alt")
    assert english == render_svg("rope_frequencies_scaled", "Alt", language="en")
    turkish = texts(render_svg("rope_frequencies_scaled", "Alt", language="tr"))
    assert "özgün bağlam 8.192" in turkish and "dinamik NTK (65.536 belirteç)" in turkish
    assert "original context 8,192" in texts(english)
    heatmap = texts(render_svg("pe_heatmap", "Alt", language="tr", n=8, d=8))
    assert {"−0,5", "0,0", "0,5", "konum p", "boyut j"} <= set(heatmap)
    assert not [t for t in heatmap if re.search(r"\d\.\d", t)]


def test_the_cache_keeps_the_languages_apart() -> None:
    figures._render_cached.cache_clear()
    turkish = render_svg("shaw_clipping", "Alt", language="tr")
    english = render_svg("shaw_clipping", "Alt")
    assert "anahtar j" in texts(turkish) and "key j" in texts(english)
    assert render_svg("shaw_clipping", "Alt", language="tr") is turkish


def test_an_unknown_language_names_the_figure() -> None:
    expected = f"figure 'pe_heatmap': language: expected one of {', '.join(LANGUAGES)}, found 'sv'"
    with pytest.raises(FigureError, match=expected):
        render_svg("pe_heatmap", "Alt", language="sv")
    with pytest.raises(FigureError, match="language"):
        FIGURES["pe_heatmap"](language="sv")


def test_a_language_the_course_does_not_speak_has_its_english_words_and_its_own_marks() -> None:
    german = set(texts(render_svg("pe_heatmap", "Alt", language="de", n=8, d=8)))
    english = set(texts(render_svg("pe_heatmap", "Alt", n=8, d=8)))
    assert {"−0,5", "0,5"} <= german and {"−0.5", "0.5"} <= english
    assert {t for t in english if re.search("[a-z]{3}", t)} <= german
    french = localize_text("<svg><text>0.5 of 8,192</text></svg>", "fr")
    assert french == "<svg><text>0,5 of 8\u202f192</text></svg>"


def test_localize_text_rewrites_text_only() -> None:
    svg = (
        '<svg><path d="M 1.5 2,5"/><text x="1.5" style="a:0.5">0.5 of 8,192; 1,000.25'
        '<tspan dy="1.2">3.75</tspan></text></svg>'
    )
    assert localize_text(svg, "en") is svg
    assert localize_text(svg, "tr") == (
        '<svg><path d="M 1.5 2,5"/><text x="1.5" style="a:0.5">0,5 of 8.192; 1.000,25'
        '<tspan dy="1.2">3,75</tspan></text></svg>'
    )


# --- where figures are shown ----------------------------------------------------------------


def test_a_turkish_lesson_page_shows_turkish_labels() -> None:
    md = markdown.Markdown(
        extensions=["konum"],
        extension_configs={
            "konum": {"banks": "content/banks", "language": "tr", "plugins": ["pe"]}
        },
    )
    page = md.convert('{{ figure("t5_buckets", alt="Kovalar", span=40) }}\n')
    shown = texts(page)
    assert "çift yönlü" in shown and "göreli konum (anahtar − sorgu)" in shown
    assert "bidirectional" not in shown


def _figure_question() -> NumericQuestion:
    return NumericQuestion(
        id="fig-slope",
        bank="fig",
        prompt="1. kafanın eğimi nedir?",
        explanation="Yarım.",
        source=model.Source("fig.yml", 1, 1),
        figure=model.FigureRef("alibi_matrices", "Sapma matrisleri", None, {"heads": [1, 8]}),
        answer=0.5,
        tolerance=0.001,
    )


@pytest.mark.parametrize(("language", "label"), [("en", "key j"), ("tr", "anahtar j")])
def test_a_quiz_figure_is_in_the_quiz_language(language: str, label: str) -> None:
    quiz = render_quiz([Concrete(_figure_question(), 1)], "fig", language=language)
    assert label in texts(quiz)


def test_a_turkish_card_export_draws_the_turkish_figure(tmp_path: Path) -> None:
    bank = Bank("fig", "Şekiller", "fig.yml", (_figure_question(),))
    (card,) = export("text", [bank], [], tmp_path / "fig.txt", language="tr", plugins=PE)
    assert "anahtar j" in texts(card.front) and "key j" not in texts(card.front)


def test_an_explorer_fallback_figure_is_in_the_page_language() -> None:
    turkish = texts(render_explorer("sinusoidal", {}, language="tr"))
    assert "konum p" in turkish and "position p" not in turkish
