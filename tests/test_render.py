"""Quiz HTML from konum.render: golden files per type, the markup contract, escaping.

Golden files live in ``tests/golden/<type>.html``; regenerate them after an intended change
with ``KONUM_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/test_render.py`` and review the
diff. They are rendered with the real :func:`konum.markup.render_markdown`.
"""

from __future__ import annotations

import dataclasses
import gzip
import json
import os
import re
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
import quiz_samples as samples
from hypothesis import given, settings
from hypothesis import strategies as st
from jinja2 import Environment

import konum_pe
from konum import seal
from konum.formatting import typeset_number
from konum.paths import TEMPLATES_DIR
from konum.render import RenderError, asset, script_json
from konum.spoken import plain_text
from konum.types import (
    TYPES,
    Blank,
    ChoiceQuestion,
    Concrete,
    FillQuestion,
    MatchingQuestion,
    NumericQuestion,
    Option,
)
from konum.types.computed import variant_salt
from tests.helpers import render_quiz

GOLDEN = Path(__file__).parent / "golden"
ASSETS = TEMPLATES_DIR / "assets"

GOLDEN_CASES: dict[str, Callable[[], list[Concrete]]] = {
    "choice": lambda: [samples.choice(), samples.choice_multiple()],
    "fill": lambda: [samples.fill()],
    "matching": lambda: [samples.matching()],
    "numeric": lambda: [samples.numeric()],
    "computed": lambda: [samples.computed_numeric(), samples.computed_choice()],
    "output": lambda: [samples.output()],
    "ordering": lambda: [samples.ordering()],
}


class _Element:
    def __init__(self, tag: str, attrs: dict[str, str | None], parent: _Element | None) -> None:
        self.tag, self.attrs, self.parent = tag, attrs, parent
        self.children: list[_Element] = []
        self.text = ""

    def classes(self) -> list[str]:
        return (self.attrs.get("class") or "").split()

    def iter(self) -> list[_Element]:
        out = [self]
        for child in self.children:
            out.extend(child.iter())
        return out

    def find_all(self, pred: Callable[[_Element], bool]) -> list[_Element]:
        return [e for e in self.iter() if pred(e)]

    def ancestors(self) -> list[_Element]:
        node, out = self.parent, []
        while node is not None:
            out.append(node)
            node = node.parent
        return out


_VOID = {"input", "br", "hr", "img", "meta", "link", "col", "area", "source", "wbr"}


class _TreeBuilder(HTMLParser):
    """A small DOM from the stdlib parser (enough to check structure and attributes)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = _Element("#root", {}, None)
        self.node = self.root

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        el = _Element(tag, dict(attrs), self.node)
        self.node.children.append(el)
        if tag not in _VOID:
            self.node = el

    def handle_endtag(self, tag: str) -> None:
        node: _Element | None = self.node
        while node is not None and node.tag != tag:
            node = node.parent
        assert node is not None and node.parent is not None, f"unbalanced </{tag}>"
        self.node = node.parent

    def handle_data(self, data: str) -> None:
        self.node.text += data


def parse(html: str) -> _Element:
    builder = _TreeBuilder()
    builder.feed(html)
    builder.close()
    assert builder.node is builder.root, "unclosed elements"
    return builder.root


def has_class(name: str) -> Callable[[_Element], bool]:
    return lambda e: name in e.classes()


@pytest.fixture(scope="module")
def quiz_html() -> str:
    return render_quiz(samples.all_samples(), samples.QUIZ_ID, title="Sample quiz")


# --- golden files ---------------------------------------------------------------------------


@pytest.mark.parametrize("kind", sorted(GOLDEN_CASES))
def test_golden(kind: str) -> None:
    html = render_quiz(GOLDEN_CASES[kind](), "golden", title="Golden")
    path = GOLDEN / f"{kind}.html"
    if os.environ.get("KONUM_UPDATE_GOLDEN") == "1":
        path.parent.mkdir(exist_ok=True)
        path.write_text(html, encoding="utf-8")
    assert path.exists(), f"missing {path}; run with KONUM_UPDATE_GOLDEN=1"
    assert html == path.read_text(encoding="utf-8"), f"{path} differs (KONUM_UPDATE_GOLDEN=1)"


def test_golden_covers_every_type() -> None:
    assert set(GOLDEN_CASES) == set(TYPES)


# --- markup contract ------------------------------------------------------------------------


def test_wrapper(quiz_html: str) -> None:
    root = parse(quiz_html)
    (quiz,) = root.find_all(has_class("konum-quiz"))
    assert quiz.tag == "section"  # see quiz.html.j2: keeps search out
    assert "data-konum-quiz" in quiz.attrs and "data-search-exclude" in quiz.attrs
    assert quiz.attrs["data-quiz-id"] == samples.QUIZ_ID
    (head,) = quiz.find_all(has_class("konum-quiz-head"))
    assert [e.text for e in head.find_all(has_class("konum-quiz-title"))] == ["Sample quiz"]


def test_every_question_follows_the_contract(quiz_html: str) -> None:
    """Markup is what reads without JavaScript; the data says what quiz.js adds."""
    root = parse(quiz_html)
    questions = root.find_all(lambda e: "data-question-id" in e.attrs)
    expected = samples.all_samples()
    assert [q.attrs["data-question-id"] for q in questions] == [c.question.id for c in expected]
    for q, concrete in zip(questions, expected, strict=True):
        question = concrete.question
        assert q.attrs["data-type"] == question.type
        assert q.attrs["id"] == f"konum-{samples.QUIZ_ID}-{question.id}"
        assert "konum-question" in q.classes()
        data, extra = q.find_all(lambda e: e.tag == "script")
        assert data.attrs == {"type": "application/json", "class": "konum-data"}
        assert extra.attrs == {"type": "application/json", "class": "konum-later"}
        assert [e.tag for e in data.ancestors()[:1]] == [e.tag for e in extra.ancestors()[:1]]
        assert [e.tag for e in data.ancestors()[:1]] == ["template"]
        parsed, later = json.loads(data.text), _later(q)
        assert parsed["type"] == question.type
        hints = [k for k in later if k.startswith("hint-")]
        # Scoring fields at their defaults are left out (1 point, no hints, any attempts).
        assert len(hints) == len(question.all_hints) == len(parsed.get("hint_shares", []))
        assert parsed.get("hint_shares", []) == [h.cost for h in question.all_hints]
        assert parsed.get("worth", 1) == question.points
        assert parsed.get("attempts") == question.attempts
        assert 1 not in [parsed.get("worth")] and [] not in [parsed.get("hint_shares")]
        assert ("explanation" in later) == bool(question.explanation) == parsed["explanation"]
        if question.type == "computed":
            count = len(concrete.variants)
            assert len(parsed["variants"]) == count
            assert {f"answer-{k}" for k in range(count)} <= set(later)
            assert {f"solution-{k}" for k in range(count)} <= set(later)
            for k, variant in enumerate(concrete.variants[1:], start=1):
                # A form shaped like the first is its prompt and option texts, else whole.
                texts = {f"prompt-{k}", *(f"option-{k}-{i}" for i in range(len(variant.options)))}
                assert f"variant-{k}" in later or texts <= set(later)
        else:
            assert "answer" in later
        # Nothing that only works with JavaScript is in the markup.
        assert not q.find_all(lambda e: e.tag == "button" or "aria-live" in e.attrs)
        for fieldset in q.find_all(lambda e: e.tag == "fieldset"):
            assert fieldset.children[0].tag == "legend"


def test_every_control_has_a_label(quiz_html: str) -> None:
    root = parse(quiz_html)
    label_for = {e.attrs.get("for") for e in root.find_all(lambda e: e.tag == "label")}
    controls = root.find_all(lambda e: e.tag in ("input", "select"))
    assert controls
    for control in controls:
        named = control.attrs.get("id") in label_for or control.attrs.get("aria-label")
        assert named, f"control without a label: {control.attrs}"


def test_ids_unique_deterministic_and_references_resolve(quiz_html: str) -> None:
    root = parse(quiz_html)
    ids = [e.attrs["id"] for e in root.iter() if e.attrs.get("id")]
    assert len(ids) == len(set(ids))
    assert all(i and i.startswith(f"konum-{samples.QUIZ_ID}") for i in ids)
    for e in root.iter():
        for attr in ("for", "aria-controls", "aria-describedby"):
            for ref in (e.attrs.get(attr) or "").split():
                assert ref in ids, f"{attr}={ref} points nowhere"
    assert render_quiz(samples.all_samples(), samples.QUIZ_ID, title="Sample quiz") == quiz_html


def test_choice_radio_or_checkbox() -> None:
    root = parse(render_quiz([samples.choice(), samples.choice_multiple()], "q"))
    single, multiple = root.find_all(lambda e: "data-question-id" in e.attrs)
    assert {i.attrs["type"] for i in single.find_all(lambda e: e.tag == "input")} == {"radio"}
    types = {i.attrs["type"] for i in multiple.find_all(lambda e: e.tag == "input")}
    assert types == {"checkbox"}
    data = json.loads(single.find_all(has_class("konum-data"))[0].text)
    concrete = samples.choice()
    q = concrete.question
    assert isinstance(q, ChoiceQuestion)
    right = [seal.answer_hash(data["salt"], "o", i) in data["right"] for i in range(data["count"])]
    assert right == [q.options[i].correct for i in concrete.option_order]
    assert data["multiple"] is False


def test_fill_blanks_become_inputs_also_in_code() -> None:
    root = parse(render_quiz([samples.fill()], "q"))
    blanks = root.find_all(has_class("konum-blank"))
    assert [b.attrs["aria-label"] for b in blanks] == ["Blank 1 of 2", "Blank 2 of 2"]
    assert any(a.tag == "pre" for a in blanks[1].ancestors()), "second blank is in the code"
    assert "____" not in render_quiz([samples.fill()], "q")
    assert "KONUMBLANK" not in render_quiz([samples.fill()], "q")


def test_fill_blank_in_inline_code() -> None:
    q = FillQuestion(
        id="inline", bank="t", prompt="Slice `PE[:, 1::______]` for cosines.",
        explanation="", source=samples.SRC, blanks=(Blank(answers=("2",)),),
    )  # fmt: skip
    root = parse(render_quiz([Concrete(q, 1)], "q"))
    (blank,) = root.find_all(has_class("konum-blank"))
    assert blank.parent is not None and blank.parent.tag == "code"


def test_fill_blank_count_must_match() -> None:
    q = FillQuestion(
        id="bad", bank="t", prompt="Only ____ one", explanation="", source=samples.SRC,
        blanks=(Blank(answers=("a",)), Blank(answers=("b",))),
    )  # fmt: skip
    with pytest.raises(RenderError, match=r"\[bad\] expected 2 blanks in the prompt, found 1"):
        render_quiz([Concrete(q, 1)], "q")


def test_matching_selects() -> None:
    concrete = samples.matching()
    root = parse(render_quiz([concrete], "q"))
    selects = root.find_all(lambda e: e.tag == "select")
    q = concrete.question
    assert isinstance(q, MatchingQuestion)
    assert len(selects) == len(q.pairs)
    for select in selects:
        options = [o for o in select.children if o.tag == "option"]
        assert options[0].attrs["value"] == ""
        assert len(options) == len(concrete.right_items) + 1
    data = json.loads(root.find_all(has_class("konum-data"))[0].text)
    rows = [
        seal.answer_hash(data["salt"], "m", i, concrete.right_items.index(p.right))
        for i, p in enumerate(q.pairs)
    ]
    assert data["rows"] == rows


def test_numeric_input() -> None:
    root = parse(render_quiz([samples.numeric()], "q"))
    (inp,) = root.find_all(lambda e: e.tag == "input")
    assert inp.attrs["type"] == "text" and inp.attrs["inputmode"] == "decimal"
    (unit,) = root.find_all(has_class("konum-unit"))
    assert unit.text == "(no unit)" and inp.attrs["aria-describedby"] == unit.attrs["id"]


def _later(root: _Element) -> dict[str, str]:
    """A question's `later` map with its sealed part opened (under the data's salt)."""
    (script,) = root.find_all(has_class("konum-later"))
    (data,) = root.find_all(has_class("konum-data"))
    later: dict[str, str] = json.loads(script.text)
    if "sealed" in later:
        later.update(json.loads(seal.unseal(json.loads(data.text)["seal"], later.pop("sealed"))))
    return later


def test_computed_ships_every_variant_one_visible() -> None:
    for concrete in (samples.computed_numeric(4), samples.computed_choice(3)):
        root = parse(render_quiz([concrete], "q"))
        later = _later(root)
        # The first variant is markup; the others wait in `later`.
        (variant,) = root.find_all(has_class("konum-variant"))
        assert variant.attrs["data-variant"] == "0" and "hidden" not in variant.attrs
        # Their forms are shaped like the first: each is its prompt and option texts.
        assert not any(key.startswith("variant-") for key in later)
        prompts = [
            variant.find_all(has_class("konum-prompt"))[0],
            *(parse(later[f"prompt-{k}"]) for k in range(1, len(concrete.variants))),
        ]
        assert len({"".join(e.text for e in p.iter()) for p in prompts}) == len(prompts)
        for k, v in enumerate(concrete.variants[1:], start=1):
            for i, option in enumerate(v.options):
                assert later[f"option-{k}-{i}"] == option.text
        for k, v in enumerate(concrete.variants):
            assert "Worked solution" in later[f"solution-{k}"]
            assert typeset_number(v.shown_answer) in later[f"answer-{k}"]
            notes = {key for key in later if key.startswith(f"{k}-note-")}
            assert notes == {f"{k}-note-{i}" for i, o in enumerate(v.options) if o.feedback}
        data = json.loads(root.find_all(has_class("konum-data"))[0].text)
        assert len(data["variants"]) == len(concrete.variants)
        for k, (entry, variant_) in enumerate(
            zip(data["variants"], concrete.variants, strict=True)
        ):
            salt = variant_salt(data["salt"], k)
            assert salt == f"{data['salt']}\x1f{k}" and "salt" not in entry
            if variant_.options:
                right = [
                    seal.answer_hash(salt, "o", i) in entry["right"] for i in range(entry["count"])
                ]
                assert right == [o.correct for o in variant_.options]
            else:
                low, high = json.loads(seal.unseal(salt, entry["interval"]))
                assert low <= variant_.answer - variant_.tolerance < variant_.answer
                assert variant_.answer < variant_.answer + variant_.tolerance <= high


def test_a_variant_shaped_unlike_the_first_ships_its_whole_form() -> None:
    """Another unit or decimals (numeric), another option count or multiple (choice): the
    variant's form cannot be a copy of the first one, so it is in `later` whole."""
    numeric = samples.computed_numeric(4)
    v = numeric.variants
    numeric = dataclasses.replace(
        numeric,
        variants=(
            v[0],
            v[1],
            dataclasses.replace(v[2], unit="rad"),
            dataclasses.replace(v[3], decimals=2),
        ),
    )
    choice = samples.computed_choice(3)
    c = choice.variants
    choice = dataclasses.replace(
        choice,
        variants=(c[0], dataclasses.replace(c[1], options=c[1].options[:2]), c[2]),
    )
    for concrete, whole in ((numeric, {2, 3}), (choice, {1})):
        later = _later(parse(render_quiz([concrete], "q")))
        for k, variant in enumerate(concrete.variants[1:], start=1):
            if k in whole:
                form = parse(later[f"variant-{k}"])
                assert form.find_all(has_class("konum-prompt"))
                assert f"prompt-{k}" not in later
                ids = [e.attrs["id"] for e in form.iter() if "id" in e.attrs]
                assert ids and all(f"-v{k}-" in i for i in ids)
            else:
                assert f"variant-{k}" not in later and f"prompt-{k}" in later
                assert len([key for key in later if key.startswith(f"option-{k}-")]) == len(
                    variant.options
                )


def test_later_html_is_well_formed_and_only_later(quiz_html: str) -> None:
    """Every piece in `later` is balanced HTML; choice notes are keyed by shown option."""
    root = parse(quiz_html)
    for q, concrete in zip(
        root.find_all(lambda e: "data-question-id" in e.attrs), samples.all_samples(), strict=True
    ):
        later = _later(q)
        for html in later.values():
            parse(html)
        question = concrete.question
        if isinstance(question, ChoiceQuestion):
            shown = [question.options[i] for i in concrete.option_order]
            assert {k for k in later if "note-" in k} == {
                f"note-{i}" for i, o in enumerate(shown) if o.feedback
            }


def test_what_is_revealed_later_is_not_markup(quiz_html: str) -> None:
    root = parse(quiz_html)
    for kind in ("answer", "explanation", "hint", "solution", "option-feedback", "buttons"):
        assert not root.find_all(has_class(f"konum-{kind}")), kind
    assert "Worked solution" not in re.sub(r"<script.*?</script>", "", quiz_html, flags=re.S)


def test_computed_without_variants_is_an_error() -> None:
    concrete = samples.computed_numeric()
    with pytest.raises(RenderError, match=r"\[s-entry\] a computed question needs"):
        render_quiz([Concrete(concrete.question, 1)], "q")


def test_quiz_and_question_ids_are_checked() -> None:
    with pytest.raises(RenderError, match="quiz id"):
        render_quiz([samples.choice()], "Bad Id")
    with pytest.raises(RenderError, match="duplicate question ids s-why-pairs"):
        render_quiz([samples.choice(), samples.choice()], "q")


# --- escaping -------------------------------------------------------------------------------


def test_data_cannot_break_out_of_the_json_script() -> None:
    evil = "</script><script>alert(1)</script>"
    q = FillQuestion(
        id="evil", bank="t", prompt="Type ____ and ____.", explanation="", source=samples.SRC,
        blanks=(Blank(answers=(evil,)), Blank(answers=("x",), regex="a<b&c'd")),
    )  # fmt: skip
    html = render_quiz([Concrete(q, 1)], "q", title=evil)
    assert html.count("<script") == 2 and html.count("</script>") == 2  # data, later
    root = parse(html)
    (script,) = root.find_all(has_class("konum-data"))
    data = json.loads(script.text)
    assert "alert(1)" in _later(root)["answer"]  # the evil answer, escaped inside the JSON
    assert data["blanks"][0]["answers"] == [seal.answer_hash(data["salt"], "b", 0, evil)]
    assert seal.unseal(data["salt"] + "\x1f1", data["blanks"][1]["regex"]) == "a<b&c'd"
    (title,) = root.find_all(has_class("konum-quiz-title"))
    assert title.text == evil and title.children == []


@pytest.mark.parametrize(
    ("language", "shown"),
    [
        ("en", "text matching <code>v[0-9](?&lt;!v0)</code>"),
        ("tr", "<code>v[0-9](?&lt;!v0)</code> düzenli ifadesine uyan metin"),
    ],
)
def test_a_pattern_blanks_answer_is_written_in_the_pages_language(
    language: str, shown: str
) -> None:
    """A blank whose pattern gives no example answer (a look-behind here) shows the pattern
    in the revealed answer, in the page's language and word order."""
    q = FillQuestion(
        id="pat", bank="t", prompt="Version ____.", explanation="", source=samples.SRC,
        blanks=(Blank(answers=(), regex="v[0-9](?<!v0)"),),
    )  # fmt: skip
    answer = _later(parse(render_quiz([Concrete(q, 1)], "q", language=language)))["answer"]
    assert f"<li>{shown}</li>" in answer


def test_markdown_html_is_sanitised() -> None:
    q = ChoiceQuestion(
        id="x", bank="t", prompt='Pick <img src=x onerror="alert(1)"> one', explanation="",
        source=samples.SRC,
        options=(Option("<script>alert(1)</script>ok", True), Option("no", False)),
    )  # fmt: skip
    html = render_quiz([Concrete(q, 1, option_order=(0, 1))], "q")
    assert "onerror" not in html and "alert(1)" not in html


@pytest.mark.parametrize(
    ("source", "text"),
    [
        ("all 0 ($\\sin 0$)", "all 0 (sin 0)"),
        ("all 0 ($\\sin(0)$)", "all 0 (sin(0))"),
        ("`PE[0, 1::2]` is **one**", "PE[0, 1::2] is one"),
        ("$\\frac{p}{10000^{2i/d}}$", "p/(10000 to the power 2i/d)"),
        ("$\\theta \\cdot m$", "θ · m"),
        ("$\\mathrm{base} \\cdot s^{d/(d-2)}$: fast", "base · s to the power d/(d−2): fast"),
        ("rows of $W_q$ and $x_1$", "rows of W sub q and x₁"),
        ("all $-1$, $y = -0.5$, $a - b$", "all −1, y = −0.5, a − b"),
        ("$x^2 + x^{-1}$, $f'(x)$, $q^\\top k$", "x² + x⁻¹, f′(x), qᵀk"),
        ("$\\log_2 n$ and $\\sqrt{d/2}$", "log₂ n and √(d/2)"),
        ("$\\sum_{i=0}^{n} x_i$", "∑ from i=0 to n x sub i"),
        ("$\\hat{q}$, $2\\pi \\cdot 10000$", "q̂, 2π · 10000"),
        ("$PE_{(p, 2k)}$", "PE sub (p, 2k)"),
    ],
)  # fmt: skip
def test_plain_text_says_formulas_as_a_reader_would(source: str, text: str) -> None:
    assert plain_text(source) == text


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("tr", "∑, i=0 ile n arası x alt i; s üzeri d/2"),
        ("de", "∑ von i=0 bis n x Index i; s hoch d/2"),
        ("ja", "∑ i=0 から n まで x 添字 i; s の d/2 乗"),
    ],
)
def test_plain_text_says_formulas_in_the_pages_language(language: str, text: str) -> None:
    """A formula a select's option cannot show is said in the page's own words (each
    language's ``spoken`` texts), not in English."""
    assert plain_text("$\\sum_{i=0}^{n} x_i$; $s^{d/2}$", language) == text


def test_numbers_shown_to_the_reader_have_a_real_minus_sign() -> None:
    """Choice values and shown answers that are negative numbers use U+2212, as the prose's
    math does; the checker's data keeps what a reader types."""
    assert typeset_number("-0.84") == "\u22120.84" and typeset_number("-1 rad") == "\u22121 rad"
    assert typeset_number("0.5") == "0.5" and typeset_number("-x") == "-x"
    assert typeset_number("a-1") == "a-1" and typeset_number("-1 <b>") == "-1 <b>"
    concrete = samples.computed_choice()
    v = concrete.variants[0]
    negative = [dataclasses.replace(o, text=f"-{o.text}") for o in v.options]
    variants = (dataclasses.replace(v, options=tuple(negative)), *concrete.variants[1:])
    root = parse(render_quiz([dataclasses.replace(concrete, variants=variants)], "q"))
    labels = [e.text for e in root.find_all(lambda e: e.tag == "label") if e.text.strip()]
    assert labels and all(t.startswith("\u2212") for t in labels), labels
    numeric = samples.numeric()
    assert isinstance(numeric.question, NumericQuestion)
    shown = dataclasses.replace(numeric.question, answer=-abs(numeric.question.answer))
    html = render_quiz([dataclasses.replace(numeric, question=shown)], "q")
    data = json.loads(parse(html).find_all(has_class("konum-data"))[0].text)
    low, high = json.loads(seal.unseal(data["salt"], data["interval"]))
    assert low < shown.answer < high < 0  # what the reader types is checked against it
    assert "<p>\u2212" in _later(parse(html))["answer"]


TEX_LEFTOVERS = re.compile(r"\\|mathrm|\^\(|_\{|\$|[{}]")


def test_no_matching_option_of_the_course_shows_tex() -> None:
    """Every dropdown option of every matching question of the course: readable text, no
    TeX left (a backslash, ``mathrm``, ``^(``, braces, dollars)."""
    from tests.helpers import load_banks, make_concrete

    banks = load_banks(Path(__file__).resolve().parent.parent / "content" / "banks")
    matching = [make_concrete(q, 42) for b in banks for q in b.questions if q.type == "matching"]
    assert len(matching) >= 8
    root = parse(render_quiz(matching, "course"))
    options = [o.text for o in root.find_all(lambda e: e.tag == "option")]
    assert len(options) > 5 * len(matching)
    assert [o for o in options if TEX_LEFTOVERS.search(o)] == []
    assert any("s to the power d/(d−2)" in o for o in options)


# --- static assets and the theme override ---------------------------------------------------


def test_assets_fit_in_15_kb_gzipped() -> None:
    """Every quiz page's script and style as the page carries them (minified: seven question
    types, scoring with its rules for reveals, hints and attempts, numbers read in the page's
    language, pools, sealed answers, the output check, and the learner state that checks
    what it loads), and exam mode's script on the pages with one. Each type's part is a
    script of its own (``types/``, with what SCORM needs of its answers); a page with every
    built-in type carries them all, about 0.6 KB more than when they were one script; the
    mounting of far questions when idle, with their stand-ins for the score line, about
    0.5 KB (issue 47's)."""
    parts = sorted(p.relative_to(ASSETS).as_posix() for p in (ASSETS / "types").glob("*.js"))
    js = "".join(asset(name) for name in ("state.js", "quiz.js", *parts)).encode()
    css = asset("quiz.css").encode()
    assert len(gzip.compress(js, 9)) + len(gzip.compress(css, 9)) <= 15 * 1024
    exam = asset("quiz-exam.js") + asset("quiz-exam.css")
    assert len(gzip.compress(exam.encode(), 9)) <= 2 * 1024


def test_minifying_keeps_every_string_and_drops_the_comments() -> None:
    """The minifier takes out comments and spaces and renames locals, nothing else: every
    string literal of the source is still in what pages carry (a mangled regex or template
    literal would lose one)."""
    literal = re.compile(r"'(?:[^'\\\n]|\\.)*'" + r'|"(?:[^"\\\n]|\\.)*"')
    for name in sorted(p.relative_to(ASSETS).as_posix() for p in ASSETS.rglob("*.js")):
        source, shipped = (ASSETS / name).read_text(encoding="utf-8"), asset(name)
        code = re.sub(r"/\*.*?\*/", "", source, flags=re.DOTALL)
        code = "\n".join(line for line in code.split("\n") if not line.lstrip().startswith("//"))
        missing = [s for s in literal.findall(code) if s not in shipped]
        assert missing == [], name
        assert "/*" not in shipped and len(shipped) < len(source), name


def test_every_script_of_konum_and_its_course_has_its_locals_renamed() -> None:
    """konum's scripts and the course's explorers are ES5, so none is carried as written."""
    from calmjs.parse import es5

    plugin = Path(konum_pe.__file__).parent / "assets"
    scripts = [*sorted(ASSETS.rglob("*.js")), *sorted(plugin.glob("*.js"))]
    assert len(scripts) > 10
    for path in scripts:
        es5(path.read_text(encoding="utf-8"))  # raises on anything but ES5
        shipped = asset(path)
        assert not re.search(r"function [\w$]{3,}\(", shipped), path.name  # names renamed


def test_a_plugin_script_in_later_javascript_is_carried_as_written(tmp_path: Path) -> None:
    script = tmp_path / "modern.js"
    script.write_text("const twice = (x) => 2 * x;  // ES2015\n", encoding="utf-8")
    assert asset(script) == script.read_text(encoding="utf-8")


def test_a_page_carries_the_parts_of_the_types_it_shows() -> None:
    """After quiz.js, each front-end part its questions use, once, in first use's order: a
    computed question's are its variants' forms; a type the page does not show is left out."""
    from konum.plugins import NONE
    from konum.render import part_scripts

    html = render_quiz([samples.computed_numeric(), samples.choice(), samples.numeric()], "parts")
    scripts = part_scripts(html, NONE)
    found = re.findall(r'<script data-konum-asset="part-([a-z_]+)">', scripts)
    assert found == ["numeric", "choice"]
    assert scripts.count("konumQuiz.define(") == 2
    assert part_scripts("<p>no quiz</p>", NONE) == ""


def test_assets_make_no_requests() -> None:
    js = "".join(p.read_text(encoding="utf-8") for p in (ASSETS / "types").glob("*.js"))
    js += (ASSETS / "quiz.js").read_text(encoding="utf-8")
    js += (ASSETS / "quiz-exam.js").read_text(encoding="utf-8")
    css = (ASSETS / "quiz.css").read_text(encoding="utf-8")
    css += (ASSETS / "quiz-exam.css").read_text(encoding="utf-8")
    for needle in ("fetch(", "XMLHttpRequest", "import(", "sendBeacon", "WebSocket", "http"):
        assert needle not in js, needle
    assert "url(" not in css and "@import" not in css


def test_inline_assets_cannot_end_their_elements() -> None:
    """The files go into pages inline: nothing in them may close their element early."""
    for name in (
        "state.js",
        "quiz.js",
        "quiz-exam.js",
        "flashcards.js",
        "overview.js",
        "progress.js",
        "messages.js",
        *(f"types/{p.name}" for p in (ASSETS / "types").glob("*.js")),
    ):
        for text in ((ASSETS / name).read_text(encoding="utf-8").lower(), asset(name).lower()):
            assert "</script" not in text and "<!--" not in text, name
    for name in ("quiz.css", "quiz-exam.css", "flashcards.css", "overview.css", "progress.css"):
        assert "</style" not in asset(name).lower(), name
        assert "</style" not in (ASSETS / name).read_text(encoding="utf-8").lower(), name


@pytest.mark.parametrize(
    ("content", "quiz", "study", "overview", "math"),
    [
        ("<p>Hi</p>", False, False, False, False),
        ('<p><math alttext="x"><mi>x</mi></math></p>', False, False, False, True),
        ('<section class="konum-quiz" data-konum-quiz></section>', True, False, False, False),
        ('<div class="konum-study" data-konum-study></div>', False, True, False, False),
        ('<div class="konum-overview" data-konum-overview></div>', False, False, True, False),
    ],
    ids=["plain", "math", "quiz", "study", "overview"],
)
def test_pages_get_the_assets_they_show_and_no_others(
    content: str, quiz: bool, study: bool, overview: bool, math: bool
) -> None:
    """A page with a quiz, the study block or the overview carries its CSS and JS once, at
    its end (in Material's content container, whose scripts instant navigation re-runs); a
    page with formulas names a math font; every page carries the navigation's progress marks
    (their script, style and two texts), and a page with nothing else carries only those."""
    import json

    import markdown

    from konum.quiz import AssetsPostprocessor, QuizExtension

    processor = AssetsPostprocessor(markdown.Markdown(), QuizExtension(default_progress=True))
    processor.page = True
    html = processor.run(content)
    assert html.count('data-konum-asset="quiz"') == int(quiz)
    assert html.count('data-konum-asset="flashcards"') == int(study)
    assert html.count('data-konum-asset="overview"') == int(overview)
    assert html.count('data-konum-asset="progress"') == 1
    assert ("window.konumQuiz" in html) is quiz and ("window.konumStudy" in html) is study
    assert ("window.konumOverview" in html) is overview
    assert html.count("window.konumProgress=") == 1
    assert ("<style>math{font-family:" in html) is math
    if math:  # named OpenType MATH fonts first, the generic family last
        stack = re.search(r"math\{font-family:([^}]*)\}", html)
        assert stack is not None
        fonts = stack.group(1).split(",")
        assert '"DejaVu Math TeX Gyre"' in fonts and fonts[-1] == "math"
    texts = re.search(r'<template data-konum-messages><script type="application/json">(.*?)<', html)
    assert texts is not None
    sections = {key.split(".")[0] for key in json.loads(texts.group(1))}
    wanted = {"quiz": quiz, "study": study, "overview": overview}
    assert sections == {"progress"} | {name for name, on in wanted.items() if on}
    if not (quiz or study or overview or math):
        assert html.startswith(content + "\n") and "<math" not in html


def test_a_heading_with_math_keeps_its_id_and_name_clean() -> None:
    """The toc extension runs every postprocessor on each heading's HTML: the page's math
    style went into the heading's id and its table-of-contents name. It goes into the page
    only, once, and inline formulas there keep the punctuation after them."""
    import markdown

    from konum.math import MathExtension

    md = markdown.Markdown(extensions=["toc", MathExtension()])
    for _ in range(2):  # a Markdown instance reused for a second page
        html = md.reset().convert("## Why only $m - n$ counts\n\nThe score, $m - n$, counts.")
        assert '<h2 id="why-only-mn-counts">' in html
        (token,) = md.toc_tokens  # type: ignore[attr-defined]
        assert token["name"] == "Why only m−n counts" and "<style" not in token["html"]
        assert html.count("<style>") == 1 and html.index("<style>") == 0
        assert "<span class=konum-nobreak><math" in html and "</math>,</span> counts" in html


def test_a_question_figure_is_drawn_at_the_top_of_its_card() -> None:
    from konum import model

    question = NumericQuestion(
        id="fig-slope",
        bank="fig",
        prompt="What is the slope of head 1?",
        explanation="One half.",
        source=model.Source("fig.yml", 1, 1),
        figure=model.FigureRef("alibi_matrices", "Bias matrices", "Two heads", {"heads": [1, 8]}),
        answer=0.5,
        tolerance=0.001,
    )
    html = render_quiz([Concrete(question, 1)], "fig")
    card = html[html.index('data-question-id="fig-slope"') :]
    assert card.index('<figure class="konum-figure">') < card.index("Question 1 of 1")
    assert 'aria-label="Bias matrices"' in card and "<figcaption>Two heads</figcaption>" in card


@settings(max_examples=300, deadline=None)
@given(
    st.recursive(
        st.text(alphabet=st.sampled_from(list('<>/!-scriptSCRIPT"\\& \u2028')), max_size=30)
        | st.integers()
        | st.none(),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner),
        max_leaves=12,
    )
)
def test_script_json_round_trips_and_cannot_end_its_script(value: object) -> None:
    text = str(script_json(value))
    assert json.loads(text) == value
    lowered = text.lower()
    assert "</script" not in lowered and "<!--" not in lowered and "<script" not in lowered


def test_script_json_leaves_other_closing_tags_alone() -> None:
    """Only what could end or derail a script element is escaped: HTML's closing tags stay."""
    text = str(script_json({"answer": '<p class="a">x</p><math><mi>k</mi></math>'}))
    assert text == '{"answer":"<p class=\\"a\\">x</p><math><mi>k</mi></math>"}'


# --- templates read from disk -----------------------------------------------------------------


def test_an_edited_template_is_used_by_the_next_quiz(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import shutil

    from jinja2 import FileSystemLoader

    from konum.render import environment

    copy = tmp_path / "templates"
    shutil.copytree(TEMPLATES_DIR, copy)
    monkeypatch.setattr(environment(), "loader", FileSystemLoader(copy))
    before = render_quiz([samples.numeric()], "edited")
    numeric = copy / "quiz" / "numeric.html.j2"
    numeric.write_text(numeric.read_text(encoding="utf-8") + "<!-- edited -->\n", encoding="utf-8")
    stat = numeric.stat()
    os.utime(numeric, (stat.st_atime, stat.st_mtime + 10))
    after = render_quiz([samples.numeric()], "edited")
    assert "<!-- edited -->" not in before
    assert "<!-- edited -->" in after


def test_rendering_a_quiz_leaves_no_reference_cycles() -> None:
    """What a quiz render allocates is freed as soon as it is dropped: a build renders tens
    of thousands of questions, and a cycle per question (a macro defined in the template
    that calls it closes over the render's context) kept each one's later-shown HTML alive
    until the garbage collector walked the whole heap to find it."""
    import gc

    quiz = samples.all_samples()
    render_quiz(quiz, "warm")  # templates compiled and modules imported first
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        render_quiz(quiz, "cycles")
        gc.collect()
        left = [type(o).__name__ for o in gc.garbage]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert {q.question.type for q in quiz} >= {"choice", "fill", "matching", "numeric", "computed"}
    assert left == []


def test_quiz_environment_calls_keep_jinjas_meaning() -> None:
    """The quiz environment's fast call path (macros, built-in functions and methods) and
    Jinja's own path (callables that ask for the context or the environment, callable
    objects) give what a plain Jinja environment gives."""
    from jinja2 import pass_context, pass_environment

    from konum.render import environment

    @pass_context
    def seen(context: Any, name: str) -> str:
        return f"{name}={context.get(name)}"

    @pass_environment
    def escaping(env: Environment) -> str:
        return f"autoescape={env.autoescape}"

    class Doubler:
        def __call__(self, x: int) -> int:
            return x * 2

    source = (
        "{% macro m(x, y=2) %}[{{ x }}{{ y }}]{% endmacro %}{% set k = 7 %}"
        "{% set d = {} %}{% for i in [1, 2] %}{% do d.update({i: m(i)}) %}{% endfor %}"
        "{{ d | dictsort }}|{{ m(3, y=4) }}|{{ len('abc') }}|{{ double(5) }}"
        "|{{ seen('k') }}|{{ escaping() }}|{{ next(empty) is undefined }}"
    )

    def render(env: Environment) -> str:
        values = {"seen": seen, "len": len, "double": Doubler(), "escaping": escaping}
        return env.from_string(source).render(values, next=next, empty=iter(()))

    quiz_env = environment().overlay(autoescape=False)
    got = render(quiz_env)
    assert got == render(Environment(autoescape=False, extensions=["jinja2.ext.do"]))
    assert got == "[(1, '[12]'), (2, '[22]')]|[34]|3|10|k=7|autoescape=False|True"
