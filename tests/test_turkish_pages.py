"""The Turkish edition's pages are counterparts of the English ones.

Every page in the Turkish nav (``mkdocs.tr.yml``) is a page of the English nav, in the same
order, and has its Turkish text at the same path under ``content/tr/``. A counterpart
translates the prose and keeps everything a reader computes or answers with:

* the same ``/// quiz`` blocks, and the same ``/// explorer`` blocks with the same options
  (their ``alt`` and ``caption`` may be translated; the explorer's own texts come from the
  interface catalogue);
* the same ``figure(...)`` calls, with ``alt`` and ``caption`` translated;
* the same fenced blocks: programs equal token for token once comments, docstrings and the
  texts they print or raise are dropped (so the English page's run of its programs, in
  test_lesson_code.py, vouches for the Turkish ones), outputs equal, block titles translated;
  a page whose programs print or raise Turkish texts has its own programs run, and shows
  what they print;
* numbers in a figure's ``alt`` and ``caption`` written the Turkish way (10.000, 0,5, 8 × 8);
* the same ``{{ ... }}`` and ``{% ... %}`` expressions, so every number still comes from the
  core (their string literals may be translated: a table's row label is prose);
* the same heading levels and admonition kinds in the same order, and a link to every page of
  the Turkish edition that the English page links to;
* no decimal result typed by hand (with a decimal point or comma), as test_site.py asks of the
  English pages.

Every page in ``content/tr/`` is in the Turkish nav, so a misnamed file does not go unseen.

While the Turkish pages are being written, ``KONUM_TR_PARTIAL=1`` lets a nav page without its
Turkish text skip instead of fail; the comparisons run on every counterpart that exists.
"""

from __future__ import annotations

import ast
import io
import os
import posixpath
import re
import tokenize
from collections import Counter
from functools import lru_cache
from pathlib import Path

import pytest
from mkdocs.config import load_config
from test_lesson_code import FENCE, _check, fenced_blocks, rendered

REPO = Path(__file__).resolve().parent.parent
ENGLISH = REPO / "content"
TURKISH = ENGLISH / "tr"
PARTIAL = os.environ.get("KONUM_TR_PARTIAL") == "1"

EXPRESSION = re.compile(r"\{\{(.*?)\}\}|\{%(.*?)%\}", re.DOTALL)
STRING = re.compile(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'')
QUIZ_START = re.compile(r"^ {0,3}/// *quiz\b")
QUIZ_END = re.compile(r"^ {0,3}/// *$")
EXPLORER_START = re.compile(r"^ {0,3}/// *explorer\b")
TEXT_OPTION = re.compile(r"^ {4}(alt|caption) *:")
HEADING = re.compile(r"^(#{1,6}) +\S")
ADMONITION = re.compile(r"^( *)(!!!|\?\?\?\+?) +([\w-]+)")
FENCE_TITLE = re.compile(r'^ *(?:`{3,}|~{3,}) *[\w+.-]* +title="([^"]*)"', re.MULTILINE)
LINK = re.compile(r"\]\(([^)\s]+)\)")
# As in test_site.py, with the decimal comma of Turkish prose as well as the point.
TYPED_RESULT = re.compile(r"(?<![\w.,^_{])-?\d+[.,]\d{3,}(?![\w.,])")
GROUPED_WHOLE = re.compile(r"-?\d{1,3}(?:\.\d{3})+")


@lru_cache(maxsize=2)
def _nav_pages(config: str) -> tuple[str, ...]:
    """The pages of ``config``'s nav, in nav order, as paths relative to its docs_dir."""

    def walk(entry: object) -> list[str]:
        if isinstance(entry, str):
            return [entry]
        if isinstance(entry, dict):
            return [page for value in entry.values() for page in walk(value)]
        if isinstance(entry, list):
            return [page for item in entry for page in walk(item)]
        return []

    return tuple(walk(load_config(str(REPO / config))["nav"]))


def _turkish_nav() -> tuple[str, ...]:
    return _nav_pages("mkdocs.tr.yml")


def _counterparts() -> list[str]:
    return [page for page in _turkish_nav() if (TURKISH / page).is_file()]


def _pair(page: str) -> tuple[str, str]:
    return (
        (ENGLISH / page).read_text(encoding="utf-8"),
        (TURKISH / page).read_text(encoding="utf-8"),
    )


def _prose(text: str) -> list[str]:
    """The lines of ``text`` outside fenced blocks (a ``#`` in a program is no heading)."""
    lines, inside = [], None
    for line in text.split("\n"):
        if inside is not None:
            if inside.match(line):
                inside = None
            continue
        opened = FENCE.match(line)
        if opened:
            fence = opened["fence"]
            inside = re.compile(rf"^{opened['indent']}{re.escape(fence[0])}{{{len(fence)},}} *$")
            continue
        lines.append(line)
    return lines


def _expressions(text: str) -> tuple[list[str], list[str]]:
    """The ``figure(...)`` calls, and the other expressions and statements of ``text`` with
    each string literal written as ``"…"``."""
    figures, others = [], []
    for match in EXPRESSION.finditer(text):
        inner = " ".join((match[1] if match[1] is not None else match[2]).split())
        if inner.startswith("figure("):
            figures.append(inner)
        else:
            inner = STRING.sub('"…"', inner)
            others.append(("{{ %s }}" if match[1] is not None else "{%% %s %%}") % inner)
    return figures, others


def _figure(call: str) -> tuple[str, dict[str, object], str | None, str | None]:
    """``figure(NAME, alt=..., caption=..., **params)`` as (name, params, alt, caption)."""
    node = ast.parse(call, mode="eval").body
    assert isinstance(node, ast.Call) and node.args, call
    params = {k.arg: ast.literal_eval(k.value) for k in node.keywords if k.arg}
    alt, caption = params.pop("alt", None), params.pop("caption", None)
    return ast.literal_eval(node.args[0]), params, alt, caption


def _code_tokens(code: str) -> list[tuple[int, str]]:
    """The tokens of a Python program without its comments and blank lines, its docstrings
    and the arguments of its ``raise X(...)`` written ``…``, and each string literal among
    ``print(...)``'s arguments written ``…``: those are prose, translated (what a translated
    ``print`` or ``raise`` shows is held by
    :func:`test_translated_outputs_are_what_the_programs_print`)."""
    return _read_code(code)[0]


def _shown_texts(code: str) -> list[str]:
    """The texts a program prints or raises: the prose :func:`_code_tokens` leaves out, its
    docstrings aside."""
    return _read_code(code)[1]


def _read_code(code: str) -> tuple[list[tuple[int, str]], list[str]]:
    skipped = {tokenize.COMMENT, tokenize.NL}
    tokens = [
        (tok.type, tok.string)
        for tok in tokenize.generate_tokens(io.StringIO(code + "\n").readline)
        if tok.type not in skipped
    ]
    out: list[tuple[int, str]] = []
    shown: list[str] = []
    depth = 0  # inside a raise's parentheses: how deep
    printing = 0  # inside a print's parentheses: how deep
    for i, (kind, text) in enumerate(tokens):
        if depth:
            depth += {"(": 1, ")": -1}.get(text, 0)
            if depth == 0:
                out += [(tokenize.STRING, "…"), (kind, text)]
            else:
                shown.append(text)
            continue
        if printing:
            printing += {"(": 1, ")": -1, "[": 1, "]": -1, "{": 1, "}": -1}.get(text, 0)
            if kind == tokenize.STRING:
                shown.append(text)
                text = "…"
        statement = i == 0 or tokens[i - 1][0] in (tokenize.NEWLINE, tokenize.INDENT)
        if kind == tokenize.STRING and statement and tokens[i + 1][0] == tokenize.NEWLINE:
            text = "…"
        elif text == "(" and len(out) >= 2 and out[-2][1] == "raise":
            depth = 1
        elif text == "(" and not printing and out and out[-1] == (tokenize.NAME, "print"):
            printing = 1
        out.append((kind, text))
    return out, shown


def _quizzes(text: str) -> list[list[str]]:
    """Each quiz block's lines, its heading (``title``, translated) left out."""
    blocks: list[list[str]] = []
    current: list[str] | None = None
    for line in text.split("\n"):
        if current is None and QUIZ_START.match(line):
            current = [line.strip()]
        elif current is not None and not line.strip().startswith("title:"):
            current.append(line.strip())
            if QUIZ_END.match(line):
                blocks.append(current)
                current = None
    return blocks


def _explorers(text: str) -> list[list[str]]:
    """Each explorer block's header and option lines, its text options left out."""
    blocks: list[list[str]] = []
    current: list[str] | None = None
    for line in text.split("\n"):
        if current is None and EXPLORER_START.match(line):
            current = [line.strip()]
        elif current is not None:
            if QUIZ_END.match(line):
                blocks.append(current)
                current = None
            elif not TEXT_OPTION.match(line):
                current.append(line.strip())
    return blocks


def _page_links(page: str, text: str) -> set[str]:
    """The pages (and anchors) that ``text`` links to, relative to the docs folder."""
    targets = set()
    for line in _prose(text):
        for target in LINK.findall(line):
            path, _, anchor = target.partition("#")
            if "://" in path or not path.endswith(".md"):
                continue
            resolved = posixpath.normpath(posixpath.join(posixpath.dirname(page), path))
            targets.add(resolved + ("#" + anchor if anchor else ""))
    return targets


# --- the nav -----------------------------------------------------------------------------------


def test_the_turkish_nav_lists_english_pages_in_english_order() -> None:
    english = _nav_pages("mkdocs.yml")
    missing = [page for page in _turkish_nav() if page not in english]
    assert missing == [], f"mkdocs.tr.yml lists pages the English nav does not have: {missing}"
    order = [english.index(page) for page in _turkish_nav()]
    assert order == sorted(order), f"mkdocs.tr.yml lists pages out of the English order: {order}"


@pytest.mark.parametrize("page", _turkish_nav())
def test_every_page_in_the_turkish_nav_is_written(page: str) -> None:
    if not (TURKISH / page).is_file():
        if PARTIAL:
            pytest.skip(f"content/tr/{page} is not written yet (KONUM_TR_PARTIAL=1)")
        pytest.fail(f"mkdocs.tr.yml lists {page}, but content/tr/{page} does not exist")


def test_every_turkish_page_is_in_the_turkish_nav() -> None:
    written = sorted(p.relative_to(TURKISH).as_posix() for p in TURKISH.rglob("*.md"))
    stray = [page for page in written if page not in _turkish_nav()]
    assert stray == [], f"pages in content/tr/ that mkdocs.tr.yml does not list: {stray}"


# --- each counterpart --------------------------------------------------------------------------

counterpart = pytest.mark.parametrize("page", _counterparts())


@counterpart
def test_same_quiz_blocks(page: str) -> None:
    english, turkish = _pair(page)
    assert _quizzes(turkish) == _quizzes(english)


@counterpart
def test_same_explorer_blocks(page: str) -> None:
    english, turkish = _pair(page)
    assert _explorers(turkish) == _explorers(english)


@counterpart
def test_same_figures_with_translated_alt_and_caption(page: str) -> None:
    english, turkish = (_expressions(text)[0] for text in _pair(page))
    assert len(turkish) == len(english), f"{page}: {len(turkish)} figures, expected {len(english)}"
    for n, (en, tr) in enumerate(zip(english, turkish, strict=True), start=1):
        en_name, en_params, en_alt, en_caption = _figure(en)
        tr_name, tr_params, tr_alt, tr_caption = _figure(tr)
        assert (tr_name, tr_params) == (en_name, en_params), f"{page}, figure {n}"
        assert tr_alt and tr_alt != en_alt, f"{page}, figure {n} ({en_name}): alt not translated"
        if en_caption:
            assert tr_caption and tr_caption != en_caption, (
                f"{page}, figure {n} ({en_name}): caption not translated"
            )


@counterpart
def test_same_programs_and_outputs(page: str) -> None:
    english, turkish = (fenced_blocks(text) for text in _pair(page))
    assert [b.lang for b in turkish] == [b.lang for b in english], f"{page}: fenced blocks"
    for en, tr in zip(english, turkish, strict=True):
        where = f"content/tr/{page}, the block at line {tr.line} (English line {en.line})"
        assert tr.standalone == en.standalone, f"{where}: inside an example solution or not"
        if en.lang == "python":
            assert _code_tokens(tr.code) == _code_tokens(en.code), f"{where}: the code differs"
        else:
            assert tr.code == en.code, where
        if en.lang == "python" and _translated_strings(en.code, tr.code):
            continue  # its output is run and compared by the next test
        shown = [
            [line.rstrip() for line in (b.output or "").rstrip().split("\n")] for b in (en, tr)
        ]
        assert shown[1] == shown[0], f"{where}: the output differs (character for character)"


def _translated_strings(english: str, turkish: str) -> bool:
    """Whether a Turkish program prints or raises other texts than the English one."""
    return _shown_texts(english) != _shown_texts(turkish)


@pytest.mark.parametrize(
    "page", [p for p in _counterparts() if p.startswith("lessons/")], ids=lambda p: p
)
def test_translated_outputs_are_what_the_programs_print(page: str, tmp_path: Path) -> None:
    """A Turkish program whose ``print`` or ``raise`` speaks Turkish shows its own output: the
    page's programs run (as test_lesson_code.py runs the English ones) and print what it
    shows. Pages whose programs print what the English ones print are vouched for by the
    English run."""
    english, turkish = (fenced_blocks(rendered(path)) for path in (ENGLISH / page, TURKISH / page))
    pairs = list(zip(english, turkish, strict=True))
    if not any(en.lang == "python" and _translated_strings(en.code, tr.code) for en, tr in pairs):
        pytest.skip(f"{page}: its programs print what the English ones print")
    body = [b for b in turkish if b.lang == "python" and not b.standalone]
    solutions = [b for b in turkish if b.lang == "python" and b.standalone]
    problems = []
    for n, blocks in enumerate([body, *([block] for block in solutions)]):
        if blocks:
            (tmp_path / str(n)).mkdir()
            problems += _check(TURKISH / page, blocks, tmp_path / str(n))
    assert problems == []


#: In a figure's alt or caption: a whole number of five digits or more not grouped by points
#: (10000 for 10.000), a decimal point (0.5 for 0,5), or a letter x for the times sign.
UNTURKISH_NUMBER = re.compile(r"(?<![\w.,])\d{5,}(?![\w])|\d\.\d(?!\d{2})|\d ?x ?\d")


@counterpart
def test_figure_texts_write_numbers_the_turkish_way(page: str) -> None:
    """A figure's alt and caption are prose: 10.000 with a point, 0,1 with a comma, 8 × 8."""
    found = []
    for call in _expressions(_pair(page)[1])[0]:
        _, _, alt, caption = _figure(call)
        for text in (alt, caption):
            found += UNTURKISH_NUMBER.findall(text or "")
    assert found == [], f"content/tr/{page}: numbers in figure texts: {found}"


def test_the_figure_number_check_reads_turkish() -> None:
    assert UNTURKISH_NUMBER.findall("1 ile 10000 arasında, 0.5 ve 8 x 8") == [
        "10000",
        "0.5",
        "8 x 8",
    ]
    assert UNTURKISH_NUMBER.findall("1 ile 10.000 arasında, 0,5 ve 8 × 8, 8.192") == []


@counterpart
def test_block_titles_are_translated(page: str) -> None:
    english, turkish = (FENCE_TITLE.findall(text) for text in _pair(page))
    assert len(turkish) == len(english), f"{page}: titled blocks"
    kept = sorted(set(english) & set(turkish))
    assert kept == [], f"{page}: block titles left in English: {kept}"


@counterpart
def test_same_expressions(page: str) -> None:
    english, turkish = (Counter(_expressions(text)[1]) for text in _pair(page))
    assert turkish - english == Counter(), f"{page}: expressions the English page does not have"
    assert english - turkish == Counter(), f"{page}: expressions missing from the Turkish page"


@counterpart
def test_same_sections_and_admonitions(page: str) -> None:
    english, turkish = (_prose(text) for text in _pair(page))

    def levels(lines: list[str]) -> list[int]:
        return [len(m[1]) for m in map(HEADING.match, lines) if m]

    def admonitions(lines: list[str]) -> list[tuple[int, str, str]]:
        return [(len(m[1]), m[2], m[3]) for m in map(ADMONITION.match, lines) if m]

    assert levels(turkish) == levels(english), f"{page}: heading levels"
    assert admonitions(turkish) == admonitions(english), f"{page}: admonitions"


@counterpart
def test_links_to_turkish_pages_are_kept(page: str) -> None:
    english, turkish = (_page_links(page, text) for text in _pair(page))
    pages = set(_turkish_nav())
    expected = {target for target in english if target.partition("#")[0] in pages}
    assert sorted(expected - turkish) == [], f"{page}: links the English page has"


@counterpart
def test_no_hand_typed_results(page: str) -> None:
    text = re.sub(EXPRESSION, "", _pair(page)[1])
    # A whole number grouped by points (1.000) is not a decimal.
    typed = [n for n in TYPED_RESULT.findall(text) if not GROUPED_WHOLE.fullmatch(n)]
    assert typed == [], f"numbers typed by hand in content/tr/{page}: {typed}"


# --- the comparisons themselves ----------------------------------------------------------------


def test_comments_do_not_count_but_code_does() -> None:
    english = "x = f(1)   # one\n# a note\ny = x\n"
    assert _code_tokens("x = f(1)   # bir\ny = x\n") == _code_tokens(english)
    assert _code_tokens("x = f(2)   # one\n# a note\ny = x\n") != _code_tokens(english)


def test_docstrings_and_error_messages_are_prose() -> None:
    program = (
        'def f(n):\n    """{}"""\n    if n < 0:\n        raise ValueError(f"{} {{n}}")\n'
        "    return 2 * n\n"
    )
    english, turkish = program.format("Twice n.", "bad"), program.format("n'nin iki katı.", "kötü")
    assert _code_tokens(turkish) == _code_tokens(english)
    assert _code_tokens(turkish.replace("2 * n", "3 * n")) != _code_tokens(english)
    assert _code_tokens('print("one", x)\n') == _code_tokens('print("bir", x)\n')
    assert _code_tokens('print("one", x)\n') != _code_tokens('print("one", y)\n')


def test_figures_compare_by_name_and_parameters() -> None:
    call = 'figure("sine_waves", alt="Dört eğri", caption="Sütunlar", d=64, columns=(0, 2))'
    assert _figure(call) == ("sine_waves", {"d": 64, "columns": (0, 2)}, "Dört eğri", "Sütunlar")


def test_expressions_split_figures_from_values() -> None:
    text = '{% set P = pe.sinusoidal(4, 6) %}\n{{ vec(P[0]) }} {{ figure("x", alt="a") }}'
    assert _expressions(text) == (
        ['figure("x", alt="a")'],
        ["{% set P = pe.sinusoidal(4, 6) %}", "{{ vec(P[0]) }}"],
    )


def test_expressions_compare_without_their_strings() -> None:
    english = """{% set t = [("ViT at 224 pixels", 197)] %}{{ pe.x(2, layout='concat') }}"""
    turkish = """{% set t = [("224 pikselde ViT", 197)] %}{{ pe.x(2, layout="sütun") }}"""
    assert _expressions(turkish)[1] == _expressions(english)[1]
    assert _expressions(turkish.replace("197", "196"))[1] != _expressions(english)[1]


def test_headings_inside_programs_do_not_count() -> None:
    text = "# Title\n\n```python\n# a comment\n```\n\n## Section\n"
    assert _prose(text) == ["# Title", "", "", "## Section", ""]


def test_links_resolve_against_the_page() -> None:
    text = "[a](05-rope.md#x), [b](../summary.md), [c](https://example.org/a.md)"
    assert _page_links("lessons/01-why-position.md", text) == {
        "lessons/05-rope.md#x",
        "summary.md",
    }


def test_block_titles_are_found_on_every_line() -> None:
    text = 'Prose.\n\n```text title="Çıktı"\n1\n```\n\n    ```text title="Output"\n    2\n    ```\n'
    assert FENCE_TITLE.findall(text) == ["Çıktı", "Output"]


# --- the language: endings and the glossary ----------------------------------------------------

BANKS = TURKISH / "banks"
CATALOGUES = (REPO / "templates/messages/tr", REPO / "generator/konum_pe/messages/tr")
GLOSS = re.compile(r"\([^()]*\)")
CODE_SPAN = re.compile(r"`[^`\n]*`")
URL = re.compile(r"\]\([^)]*\)|https?://\S+")
#: The glossary's rule: each chosen term, and the variants it replaces (a pattern each).
GLOSSARY = {
    "NTK-duyarlı (NTK-aware)": r"NTK-aware|NTK'y[ae] duyarlı",
    "ara değerleme (interpolation)": r"[ei]nterpolasyon",
    "kontrol noktası (checkpoint)": r"denetim noktas",
    "istem (prompt)": r"\bkomut",
    "bikübik (bicubic)": r"çift kübik",
    "konumsal kodlama (positional encoding)": r"konum kodlama",
    "cevap (answer)": r"\b[Yy]anıt",
    "Transformer": r"\btransformer(?!s\b)",
    "test (quiz), alıştırma (exercise)": r"\bUygulama\b|[Aa]lıştırma (?:sorus|puan|cevap|yok"
    r"|tamamlandı|kısmen)|[Aa]lıştırmalar nasıl|[Aa]lıştırmanın üst|bir alıştırmayla",
    "çift numaralı, tek numaralı (even, odd)": r"\b[ÇçTt](?:ift|ek) (?:sütun|boyut)(?!lu)",
    "Bağlamı uzatmak (extending the context)": r"[Bb]ağlam\w* genişlet|genişletilmiş|genişletme "
    r"çarpan",
}


def _strings(node: object) -> list[str]:
    if isinstance(node, str):
        return [node]
    if isinstance(node, dict):  # not the English source hashes (en:), which no reader sees
        return [s for key, value in node.items() if key != "en" for s in _strings(value)]
    if isinstance(node, list):
        return [s for item in node for s in _strings(item)]
    return []


@lru_cache(maxsize=1)
def _turkish_texts() -> tuple[tuple[str, str], ...]:
    """Every Turkish text a reader sees, by where it is: the pages' prose (no programs, no
    ``{{ }}`` expressions), the banks' and the catalogues' strings (no fenced programs)."""
    import yaml

    texts = []
    for path in sorted(TURKISH.rglob("*.md")):
        prose = "\n".join(_prose(path.read_text(encoding="utf-8")))
        texts.append((f"content/tr/{path.relative_to(TURKISH)}", EXPRESSION.sub("", prose)))
    for path in [*sorted(BANKS.glob("*.yml")), *(p for c in CATALOGUES for p in c.glob("*.yml"))]:
        loaded = yaml.safe_load(path.read_text(encoding="utf-8"))
        strings = ["\n".join(_prose(s)) for s in _strings(loaded)]
        texts.append((str(path.relative_to(REPO)), "\n".join(strings)))
    return tuple(texts)


def test_every_ending_is_the_one_its_word_takes() -> None:
    """Each ending behind an apostrophe has the form the word before it takes, said as
    konum_pe.turkish reads it (the generators' texts get theirs when they are filled in)."""
    from konum_pe.turkish import ENDING, harmonize

    wrong = []
    for where, text in _turkish_texts():
        for match in ENDING.finditer(text):
            if match["ending"] and not re.search(r"\{\w*\}", match[0]):
                right = harmonize(match[0])
                wrong += [f"{where}: {match[0]} (not {right})"] if right != match[0] else []
    assert wrong == []


def test_one_term_for_each_glossary_entry() -> None:
    """The glossary's chosen terms everywhere (an English term in parentheses after its
    Turkish one is its gloss; code and links are not prose)."""
    found = []
    for where, text in _turkish_texts():
        prose = URL.sub("", CODE_SPAN.sub("", GLOSS.sub("", text)))
        for term, variants in GLOSSARY.items():
            found += [
                f"{where}: {m[0]!r}, the glossary says {term}" for m in re.finditer(variants, prose)
            ]
    assert found == []


def test_each_lesson_and_its_bank_have_one_title() -> None:
    import yaml

    def title(page: Path) -> str:
        return re.sub(r"\s*\{[^}]*\}\s*$", "", page.read_text(encoding="utf-8").split("\n")[0])[2:]

    english = {yaml.safe_load(p.read_text(encoding="utf-8"))["title"]: p.name
               for p in (ENGLISH / "banks").glob("*.yml")}  # fmt: skip
    for page in sorted((TURKISH / "lessons").glob("*.md")):
        bank = english[title(ENGLISH / "lessons" / page.name)]
        assert yaml.safe_load((BANKS / bank).read_text(encoding="utf-8"))["title"] == title(page)


#: A whole number of four digits or more written without its groups (CLDR's Turkish groups
#: from 1.000 on); a year (2000-2029) and an issue number (#24653) are names, not amounts.
UNGROUPED = re.compile(r"(?<![\w.,#{}\\/-])(?!20[0-2]\d(?!\d))\d{4,}(?![\w/}]|[.,]\d)")
#: A hyphen for a minus in a table cell.
TABLE_HYPHEN = re.compile(r"^\|.*\|\s*-\d", re.MULTILINE)


def test_one_number_convention() -> None:
    """Turkish prose writes numbers as CLDR's ``tr`` does: a decimal comma and a point
    between the groups of every whole number from 1.000 on (``8.192``, ``500.000``, not
    ``8192`` or ``500 bin``); a table's minus is a minus sign."""
    found = []
    for where, text in _turkish_texts():
        prose = URL.sub("", CODE_SPAN.sub("", text))
        found += [f"{where}: {m[0]}" for m in UNGROUPED.finditer(prose)]
        found += [f"{where}: {m[0]}" for m in re.finditer(r"\d+ bin\b", prose)]
        found += [f"{where}: {m[0]}" for m in TABLE_HYPHEN.finditer(prose)]
    assert found == []
