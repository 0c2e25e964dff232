"""Hostile bank input (issue 26): each class is reported by the check at file:line, and
dropped, refused or bounded when the build renders it.

The corpus in tests/banks/broken/hostile/ holds one bank per class (styles, reserved
classes, math that reaches outside a formula, disguised link schemes, nesting, broken LaTeX,
escape codes); the other tests try variants of each class against the checker
(:func:`konum.htmlcheck.scan`), the renderer (:func:`konum.markup.render_markdown`,
also through a whole quiz), the reports and the discovery of bank files.
"""

from __future__ import annotations

import dataclasses
import json
import re
import time
from pathlib import Path

import pytest

from konum.htmlcheck import scan, scan_generated, url_scheme
from konum.limits import TEXT_NESTING
from konum.load import discover
from konum.markup import MarkupError, render_markdown
from konum.math import MathError
from konum.problems import BankProblem, format_json, format_text
from konum.types import ComputedQuestion
from tests.helpers import check_banks, computed_variants, load_bank, make_concrete, render_quiz

HERE = Path(__file__).parent
HOSTILE = HERE / "banks" / "broken" / "hostile"
CONTENT = HERE.parent / "content" / "banks"

# (file stem, line, column, field, message substring); every problem of the file is listed.
CORPUS = [
    ("class-konum", 6, 42, "prompt", "class 'konum-buttons' is not allowed in a bank"),
    ("class-konum", 11, 19, "options[1].feedback", "class 'md-sidebar' is not allowed"),
    ("control-chars", 9, 5, "\\x1b[2J\\x1b]8;;https://evil.example\\x07explanation\\u202e",
     "unknown key '\x1b[2J"),
    ("latex-broken", 6, 21, "prompt", "cannot render the math $x^$: a ^ or _ has nothing"),
    ("latex-broken", 6, 31, "prompt", "$\\left( y$: a \\left or \\right without its partner"),
    ("latex-broken", 9, 13, "explanation", "$\\mathrm{$: it ends too early"),
    ("latex-broken", 12, 7, "explanation", "$\\frac{1}{$: it ends too early"),
    ("link-encoded", 6, 30, "prompt", "a 'javascript:' link is not allowed"),
    ("link-encoded", 6, 70, "prompt", "a 'javascript:' link is not allowed"),
    ("link-encoded", 8, 17, "hint", "a 'vbscript:' link is not allowed"),
    ("link-encoded", 8, 50, "hint", "a 'data:' link is not allowed"),
    ("link-encoded", 12, 12, "explanation", "a 'javascript:' link is not allowed"),
    ("math-href", 6, 21, "prompt", "the math command \\href is not allowed in a bank"),
    ("math-href", 6, 58, "prompt", "the math command \\style is not allowed"),
    ("math-href", 8, 24, "explanation", "the math command \\unicode is not allowed"),
    ("math-href", 8, 60, "explanation", "the math command \\cssId is not allowed"),
    ("nested-brackets", 6, 14, "prompt", "the text is too long: expected at most 5,000"),
    ("nested-brackets", 8, 39, "explanation", "brackets nested too deep: expected at most 20"),
    ("nested-list", 8, 19, "explanation", "lists and quotes nested too deep"),
    ("style-cell", 9, 18, "prompt", "a style attribute on <td> is not allowed in a bank"),
    ("style-template", 8, 13, "prompt",
     "a style attribute on <td> is not allowed in a bank (it could restyle or cover the page,"
     " or load from another site) (in the text the template wrote)"),
]  # fmt: skip


def test_the_corpus_covers_every_file() -> None:
    assert {p.stem for p in HOSTILE.glob("*.yml")} == {row[0] for row in CORPUS}


@pytest.mark.parametrize("stem", sorted({row[0] for row in CORPUS}))
def test_hostile_bank(stem: str) -> None:
    path = HOSTILE / f"{stem}.yml"
    report = check_banks([path])
    expected = [row for row in CORPUS if row[0] == stem]
    assert len(report.problems) == len(expected), "\n".join(map(str, report.problems))
    for problem, (_, line, column, where, message) in zip(report.problems, expected, strict=True):
        assert (problem.file, problem.line, problem.column) == (str(path), line, column)
        assert problem.question_id == f"{stem}-q"
        assert str(problem).startswith(f"{path}:{line}:{column}: [{stem}-q] {where}: ")
        assert message in problem.message, problem


# --- a. style, everywhere -------------------------------------------------------------------

STYLES = [
    '<td style="position:fixed">x</td>',
    "<table><tr><TH STYLE='background:url(https://evil.example/x)'>x</TH></tr></table>",
    "<span style=color:red>x</span>",
    '<div style="">x</div>',
    '<p style = "display:none">x</p>',
    '<a href="https://example.org" style="position:fixed;inset:0">x</a>',
]


@pytest.mark.parametrize("text", STYLES)
def test_style_attributes_are_reported_and_dropped(text: str) -> None:
    (issue,) = scan(text)
    assert "a style attribute on <" in issue.message
    html = render_markdown(text)
    assert "style" not in html.lower() and "position" not in html


def test_markup_a_template_assembles_is_reported_and_dropped_from_the_quiz() -> None:
    bank = load_bank(CONTENT / "sinusoidal.yml")
    question = next(q for q in bank.questions if isinstance(q, ComputedQuestion))
    tricks = {
        "{{ '\\x3ctable\\x3e\\x3ctr\\x3e\\x3ctd st' ~ 'yle=position:fixed\\x3ex' }}": "style",
        "{{ '\\x3cspan cl' ~ 'ass=konum-feedback\\x3ex\\x3c/span\\x3e' }}": "class:konum-feedback",
        "{{ '\\x3ca href=java' ~ 'script:alert(1)\\x3ex\\x3c/a\\x3e' }}": "url:javascript",
    }
    plain = render_quiz([make_concrete(question, 1, 2)], "q")
    for trick, kind in tricks.items():
        tricked = dataclasses.replace(question, prompt=f"{trick} What is it?")
        assert scan(tricked.prompt) == []  # the source shows nothing
        (variant,) = computed_variants(tricked, 0, 1)
        assert [i.kind for i in scan_generated(tricked.prompt, variant.prompt)] == [kind]
        html = render_quiz([make_concrete(tricked, 1, 2)], "q")
        assert "position:fixed" not in html and "javascript" not in html
        assert html.count("konum-feedback") == plain.count("konum-feedback")


def test_math_a_template_assembles_is_reported() -> None:
    source = "{{ '\\\\' ~ 'href{javascript:alert(1)}{x}' }} and {{ d }}"
    (issue,) = scan_generated(source, "\\href{javascript:alert(1)}{x} and 4")
    assert issue.kind == "tex"


def test_only_what_the_template_added_is_reported_for_its_output() -> None:
    source = "A <span style=x>cell</span> {{ extra }}"
    assert [i.kind for i in scan(source)] == ["style"]
    (issue,) = scan_generated(source, "A <span style=x>cell</span> <b style=y>")
    assert issue.kind == "style" and issue.offset == 28
    assert scan_generated(source, "A <span style=x>cell</span> <b>") == []


def test_tables_align_without_a_style() -> None:
    text = "| a | b |\n|:--|--:|\n| 1 | 2 |"
    assert scan(text) == []
    assert 'align="right"' in render_markdown(text)


# --- b. reserved classes --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "reserved"),
    [
        ('<div class="konum-buttons">x</div>', "konum-buttons"),
        ('<span class="x konum-feedback">x</span>', "konum-feedback"),
        ("<p class='KONUM-answer'>x</p>", "KONUM-answer"),
        ('<span class="konum">x</span>', "konum"),
        ('<div class="md-typeset">x</div>', "md-typeset"),
        ('<code class="md-clipboard">x</code>', "md-clipboard"),
        ('<div class="konum-math">x</div>', "konum-math"),
    ],
)
def test_reserved_classes_are_reported_and_stripped(text: str, reserved: str) -> None:
    (issue,) = scan(text)
    assert f"class '{reserved}' is not allowed in a bank" in issue.message
    html = render_markdown(text)
    assert reserved.lower() not in html.lower() or reserved == "konum-math"


def test_other_classes_and_konums_own_stay() -> None:
    html = render_markdown('<span class="note">x</span>\n\n$$\nx\n$$\n\n```python\nx = 1\n```')
    assert '<span class="note">' in html
    assert '<div class="konum-math" tabindex="0"><math' in html
    assert '<div class="highlight">' in html
    assert scan('<span class="note">x</span>') == []


# --- c. math that reaches outside the formula -------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        r"$\href{javascript:alert(1)}{x}$",
        r"$$\url{https://evil.example}$$",
        "$$\n\\style{position:fixed}{x}\n$$",
        r"$\class{konum-buttons}{x}$ and more",
        r"$\cssId{a}{b}$",
        r"$\htmlData{x=y}{z}$",
        r"$\htmlClass{a}{b}$",
        r"$\htmlId{a}{b}$",
        r"$\htmlStyle{color:red}{b}$",
        r"$\require{action}$",
        r"$\mmlToken{mi}{x}$",
        r"$\unicode{x41}$",
        r"$\bbox[background:url(x)]{y}$",
        r"$\let\h\href \h{javascript:x}{y}$",
        r"text \\(\href{javascript:alert(1)}{x}\\) around",
        r"text \\[\style{position:fixed}{x}\\]",
        r"&#92;(&#92;href{javascript:alert(1)}{x}&#92;)",
        r"\\(\hr<wbr>ef{javascript:alert(1)}{x}\\)",
        r"\\(\hr<!-- -->ef{javascript:alert(1)}{x}\\)",
    ],
)
def test_math_commands_that_reach_outside_are_reported(text: str) -> None:
    issues = scan(text)
    assert len(issues) == 1, issues
    assert "is not allowed in a bank: Anki's MathJax would" in issues[0].message


def test_such_math_is_refused_by_the_renderer_in_both_modes() -> None:
    for math in ("mathml", "anki"):
        with pytest.raises(MathError, match="not allowed in a bank"):
            render_markdown(r"$\href{javascript:alert(1)}{x}$", math=math)  # type: ignore[arg-type]


def test_code_may_show_such_commands() -> None:
    assert scan("Write `\\href{url}{text}` in LaTeX, or\n\n```tex\n\\url{x}\n```") == []


# --- d. disguised link schemes --------------------------------------------------------------

LINKS = [
    "[x](javascript:alert(1))",
    "[x](&#106;avascript:alert(1))",
    "[x](&#x6A;avascript:alert(1))",
    "[x](java&#x09;script:alert(1))",
    "[x](javascript&#58;alert(1))",
    "[x](JaVaScRiPt:alert(1))",
    "[x]( javascript:alert(1) )",
    "[x](<javascript:alert(1)>)",
    '[x](javascript:alert(1) "title")',
    "[a [b]](javascript:alert(1))",
    "[x][r]\n\n[r]: javascript:alert(1)",
    "[x][r]\n\n   [r]: <&#106;avascript:alert(1)> 'title'",
    "[x]\n\n[x]: vbscript:msgbox(1)",
    "<javascript:alert(1)>",
    "<vbscript:msgbox(1)>",
    "<data:text/html;base64,PHNjcmlwdD4=>",
    "[x](data:text/html;base64,PHNjcmlwdD4=)",
    "[x](vbscript:msgbox(1))",
    "[x](file:///etc/passwd)",
    '<a href="&#x6A;avascript&colon;alert(1)">x</a>',
    '<a href="java\tscript:alert(1)">x</a>',
    "<a href='data:text/plain,hi'>x</a>",
    '<a href=" vbscript:x">x</a>',
]


@pytest.mark.parametrize("text", LINKS)
def test_disguised_link_schemes_are_reported(text: str) -> None:
    issues = [i for i in scan(text) if i.kind.startswith("url:")]
    assert issues, scan(text)
    assert all("link" in i.message or "URL" in i.message for i in issues)
    hrefs = re.findall(r'href="([^"]*)"', render_markdown(text))
    assert all(url_scheme(href) is None for href in hrefs), hrefs


@pytest.mark.parametrize(
    "text",
    [
        "[x](https://example.org)",
        "[x](mailto:a@example.org)",
        "[x](#section)",
        "[x](page.html)",
        "<https://example.org>",
        "<a@example.org>",
        "see [x]: javascript:alert(1)",  # not a reference definition: only a line starting so
        "a (b [c] d) e",
    ],
)
def test_harmless_links_pass(text: str) -> None:
    assert scan(text) == []


def test_url_scheme() -> None:
    assert url_scheme("\x00 &#106;ava\tscr&#x0A;ipt:x") == "javascript"
    assert url_scheme("java\x00script:x") is None  # not a scheme: the browser reads a path
    assert url_scheme("HTTPS://example.org") is None
    assert url_scheme("relative/path:with-colon") is None
    assert url_scheme("#top") is None


# --- e. nesting and Markdown's work ---------------------------------------------------------

DEEP = [
    "- " * 800 + "x",
    "> " * 800 + "x",
    "\n".join("    " * i + "- x" for i in range(60)),
    "1. " * 30 + "x",
    "[" * 40_000,
    "[" * 5_000 + "]" * 5_000,
    "[" * 2_000 + "x",
    "[a](" * 1_000,
    "<span>" * 30 + "x",
    "<a " * 1_000,
    "x" * 50_000,
]


@pytest.mark.parametrize("text", DEEP, ids=lambda t: f"{t[:12]}...{len(t)}")
def test_deep_or_long_texts_are_reported_and_never_rendered(text: str) -> None:
    start = time.perf_counter()
    (issue,) = scan(text)
    assert issue.kind == "limit"
    assert re.search(r"too (deep|long|many)", issue.message)
    with pytest.raises(MarkupError):
        render_markdown(text)
    assert time.perf_counter() - start < 5


def test_nesting_up_to_the_limit_renders() -> None:
    text = "\n".join("    " * i + "- x" for i in range(TEXT_NESTING))
    assert scan(text) == []
    assert render_markdown(text).count("<ul>") == TEXT_NESTING


def test_a_computed_prompt_beyond_the_limits_is_an_error_not_a_traceback() -> None:
    with pytest.raises(MarkupError, match="nested too deep"):
        render_markdown("- " * 800 + "x", math="anki")


# --- f. broken LaTeX --------------------------------------------------------------------------


def test_every_bad_formula_of_a_text_is_reported_where_it_is() -> None:
    text = "Give $x^$ and\n$\\left( y$ then $ok$ and $\\mathrm{$.\n\n$$\nz_1_2\n$$"
    issues = scan(text)
    assert [(i.line, i.offset) for i in issues] == [(1, 5), (2, 0), (2, 25), (5, 0)]
    assert "MissingSuperScriptOrSubscriptError" in issues[0].message
    assert "two subscripts in a row" in issues[3].message


# --- g. escape codes in messages --------------------------------------------------------------

NASTY = "\x1b[2J\x1b]8;;https://evil.example\x07click\x1b]8;;\x07\u202eevil\u2066\x9b31m\u2028"


def test_problems_print_control_characters_escaped() -> None:
    problem = BankProblem("b.yml", 3, 5, f"unknown key '{NASTY}'", question_id="q", field=NASTY)
    text = format_text([problem])
    assert all(ch.isprintable() for ch in text.replace("\n", ""))
    assert "\\x1b[2J" in text and "\\u202e" in text and "\\x9b" in text
    assert str(problem).startswith("b.yml:3:5: [q] \\x1b[2J")
    data = format_json([problem])
    assert all(ch.isprintable() for ch in data.replace("\n", ""))
    assert json.loads(data)["problems"][0]["field"] == NASTY  # the value itself is kept


def test_readable_text_is_unchanged() -> None:
    problem = BankProblem("türkçe.yml", 1, 1, "'Sinüs' ≈ 0.5 — ok")
    assert str(problem) == "türkçe.yml:1:1: 'Sinüs' ≈ 0.5 — ok"
    assert "'Sinüs' ≈ 0.5 — ok" in format_json([problem])


# --- h. discovering bank files --------------------------------------------------------------

QUESTION = (
    "bank: {stem}\ntitle: T\nquestions:\n  - id: {stem}-q\n    type: numeric\n"
    "    prompt: Two?\n    answer: 2\n    explanation: Two.\n"
)


def test_hidden_files_and_dangling_links_are_not_banks(tmp_path: Path) -> None:
    (tmp_path / "rope.yml").write_text(QUESTION.format(stem="rope"), encoding="utf-8")
    (tmp_path / ".#rope.yml").symlink_to("user@host.1234:1700000000")  # emacs's lock file
    (tmp_path / ".rope.yml.swp").write_bytes(b"\x00vim swap")
    (tmp_path / ".hidden.yml").write_text("not: [a bank", encoding="utf-8")
    (tmp_path / "gone.yml").symlink_to(tmp_path / "nowhere.yml")
    (tmp_path / "folder.yml").mkdir()
    assert discover([tmp_path]) == [tmp_path / "rope.yml"]
    report = check_banks([tmp_path])
    assert report.ok and report.files == (str(tmp_path / "rope.yml"),)


@pytest.mark.parametrize("name", ["rope.yaml", "rope.YML", "rope.Yaml"])
def test_other_spellings_of_yml_are_reported(tmp_path: Path, name: str) -> None:
    (tmp_path / "alibi.yml").write_text(QUESTION.format(stem="alibi"), encoding="utf-8")
    (tmp_path / name).write_text(QUESTION.format(stem="rope"), encoding="utf-8")
    report = check_banks([tmp_path])
    (problem,) = report.problems
    assert problem.file == str(tmp_path / name) and problem.line is None
    suffix = name.split(".")[1]
    assert problem.message == (
        f"not read: bank files end in .yml, found .{suffix}; rename it to rope.yml"
    )
    assert [b.id for b in report.banks] == ["alibi"]
