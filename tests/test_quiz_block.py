"""The ``/// quiz`` block's options for teachers: several banks, tags, draw, attempts, exam
mode and its time limit; each mistake is one error naming the page's line."""

from __future__ import annotations

import json
import re
from pathlib import Path

import markdown
import pytest

from konum.quiz import QuizError

BANK = """bank: {name}
title: {title}
questions:
  - id: {name}-one
    type: numeric
    prompt: One?
    answer: 1
    explanation: One.
    tags: [easy]
  - id: {name}-two
    type: numeric
    prompt: Two?
    answer: 2
    explanation: Two.
  - id: {name}-order
    type: ordering
    prompt: Order.
    items: [a, b, c]
    explanation: Alphabet.
    tags: [easy]
"""


@pytest.fixture
def banks(tmp_path: Path) -> Path:
    for name, title in (("alpha", "Alpha"), ("beta", "Beta")):
        (tmp_path / f"{name}.yml").write_text(BANK.format(name=name, title=title), "utf-8")
    return tmp_path


def convert(banks: Path, text: str, **options: object) -> str:
    config = {"banks": str(banks), "plugins": ["pe"], "pages": str(banks), **options}
    md = markdown.Markdown(extensions=["konum"], extension_configs={"konum": config})
    return md.convert(text)


def ids(html: str) -> list[str]:
    return re.findall(r'<div class="konum-question[^"]*"[^>]* data-question-id="([^"]+)"', html)


def test_several_banks_tags_and_a_draw(banks: Path) -> None:
    html = convert(banks, "/// quiz | alpha, beta\n    tags: easy\n    draw: 3\n///\n")
    assert ids(html) == ["alpha-one", "alpha-order", "beta-one", "beta-order"]  # all in the page
    assert 'data-quiz-id="alpha-beta"' in html and 'data-draw="3"' in html
    assert '<p class="konum-quiz-title">Alpha · Beta</p>' in html
    assert "New questions" in html  # the catalogue's texts for quiz.js
    titled = convert(banks, "/// quiz | alpha, beta\n    title: Final exam\n///\n")
    assert '<p class="konum-quiz-title">Final exam</p>' in titled and "Alpha · Beta" not in titled
    with pytest.raises(QuizError, match=r"title: expected a text, found \[1\]"):
        convert(banks, "/// quiz | alpha\n    title: [1]\n///\n")


def test_exam_mode_time_limit_and_attempts_reach_the_page(banks: Path) -> None:
    html = convert(banks, "/// quiz | alpha\n    mode: exam\n    time_limit: 90 s\n///\n")
    assert 'data-mode="exam"' in html and 'data-time-limit="90"' in html
    assert "window.konumExam" in html and "Submit answers" in html  # quiz-exam.js and exam.*
    assert html.index("window.konumExam=") < html.index("window.konumQuiz=")
    assert html.index(".konum-quiz{") < html.index(".konum-exam-foot{") < html.index("</style>")
    minutes = convert(banks, "/// quiz | alpha\n    mode: exam\n    time_limit: 20\n///\n")
    assert 'data-time-limit="1200"' in minutes
    practice = convert(banks, "/// quiz | alpha\n    attempts: 2\n///\n")
    assert 'data-attempts="2"' in practice and "window.konumExam=" not in practice
    assert ".konum-exam-foot" not in practice  # exam mode's style: exam pages only


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ("    draw: 4", "line 3: /// quiz | alpha: draw: expected at most 3 (the questions to"),
        ("    draw: 0", "draw: expected a whole number from 1 to 200, found 0"),
        ("    tags: hard", "no question has the tags hard"),
        ("    mode: test", "mode: expected practice or exam, found 'test'"),
        ("    mode: exam\n    time_limit: soon", "time_limit: expected a time such as '90 s'"),
        ("    time_limit: 10 min", "time_limit: only an exam has one (add 'mode: exam')"),
        ("    attempts: 0", "attempts: expected a whole number from 1 to 20, found 0"),
        ("    questions: alpha-three", "no question 'alpha-three' in that bank"),
    ],
)  # fmt: skip
def test_mistakes_name_the_line_and_the_option(banks: Path, options: str, message: str) -> None:
    text = f"# Page\n\n/// quiz | alpha\n{options}\n///\n"
    with pytest.raises(QuizError, match=re.escape(message)):
        convert(banks, text)


def test_the_line_is_the_blocks_own(banks: Path) -> None:
    text = "/// quiz | alpha\n///\n\ntext\n\n/// quiz | beta\n    draw: 9\n///\n"
    with pytest.raises(QuizError, match=r"^line 6: /// quiz \| beta: draw"):
        convert(banks, text)


def _cards_of(html: str) -> list[str]:
    data = re.search(r'class="konum-cards">(.*?)</script>', html, re.S)
    assert data is not None, html[:300]
    return [card["key"] for card in json.loads(data.group(1))["cards"]]


def test_the_study_page_and_the_overview_carry_a_computed_question_once(tmp_path: Path) -> None:
    """One card per question on the study page, a computed question by its first variant;
    the overview counts the same cards. The Anki deck keeps every variant (test_exports)."""
    (tmp_path / "gas.yml").write_text(
        "bank: gas\ntitle: Gas\nquestions:\n"
        "  - id: pv\n    type: computed\n    params:\n      n: {min: 1, max: 9}\n"
        "    formula: 2 * n\n    prompt: 'Twice {{ n }}?'\n    explanation: Doubling.\n"
        "  - id: plain\n    type: numeric\n    prompt: One?\n    answer: 1\n"
        "    explanation: One.\n",
        "utf-8",
    )
    study = convert(tmp_path, "/// study\n///\n")
    assert _cards_of(study) == ["question:pv:variant:0", "question:plain"]
    overview = convert(tmp_path, "/// progress\n///\n")
    lessons = re.search(r"data-konum-overview>\s*<template><script[^>]*>(.*?)</script>", overview)
    assert lessons is not None, overview[:400]
    assert json.loads(lessons.group(1))["lessons"][0]["cards"] == _cards_of(study)


def test_the_study_page_leaves_out_what_only_exams_show(banks: Path) -> None:
    """A question that an exam-mode quiz shows and no practice quiz does has no card on the
    study page or the overview, unless ``exam_cards: true``; an exam's question that a
    practice quiz also shows keeps its card, and a block in fenced code is an example."""
    pages = banks / "pages"
    (pages / "lessons").mkdir(parents=True)
    (pages / "exam.md").write_text(
        "/// quiz | alpha, beta\n    questions: alpha-one, alpha-two, beta-one\n"
        "    mode: exam\n///\n\n```text\n/// quiz | beta\n    mode: exam\n///\n```\n",
        "utf-8",
    )
    (pages / "lessons" / "a.md").write_text(
        "/// quiz | alpha\n    tags: easy\n///\n\n/// quiz | beta\n///\n", "utf-8"
    )
    every = ["alpha-one", "alpha-two", "alpha-order", "beta-one", "beta-two", "beta-order"]
    for key, shown in ((False, set(every) - {"alpha-two"}), (True, set(every))):
        study = convert(banks, "/// study\n///\n", pages=str(pages), exam_cards=key)
        assert {c.split(":")[1] for c in _cards_of(study)} == shown
        overview = convert(banks, "/// progress\n///\n", pages=str(pages), exam_cards=key)
        assert ("question:alpha-two" in overview) is key
    with pytest.raises(QuizError, match=r"option 'pages' of konum: expected the folder"):
        convert(banks, "/// study\n///\n", pages=str(banks / "nowhere"))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("/// quiz | alpha\n  draw: 3\n///\n",
         "line 2: /// quiz | alpha: option 'draw' is indented 2 spaces: options are indented 4"),
        ("/// quiz | alpha\n    draw: 2\n\n    tags: easy\n///\n",
         "line 4: /// quiz | alpha: option 'tags' is after a blank line"),
        ("/// quiz | alpha\nSome words.\n///\n",
         "line 2: /// quiz | alpha: the block holds nothing but its options (indented 4 spaces),"
         " found 'Some words.'"),
        ("/// study\n  attrs: {class: x}\n///\n", "option 'attrs' is indented 2 spaces"),
        ("/// progress\n    draw: 2\n///\n", "line 2: /// progress: unknown option 'draw'"),
        ("/// quiz | alpha\n    draw: yes\n///\n",
         "line 2: /// quiz | alpha: draw: expected a whole number from 1 to 200, found True"),
        ("/// quiz | alpha\n    title: [a]\n///\n", "title: expected a text, found ['a']"),
        ("/// quiz | alpha\n    tags: {a: 1}\n///\n",
         "tags: expected names separated by commas, found {'a': 1}"),
    ],
    ids=["two-spaces", "blank-line", "text", "study", "unknown", "bool", "title", "tags"],
)  # fmt: skip
def test_no_block_is_read_in_part(banks: Path, text: str, message: str) -> None:
    """An option pymdownx would not read as one (misindented, after a blank line), text in a
    block that shows none, and a value of the wrong kind are errors at their line: none is
    dropped while the block shows every question."""
    with pytest.raises(QuizError, match=re.escape(message)):
        convert(banks, text)


def test_every_problem_of_a_page_is_reported(banks: Path) -> None:
    text = (
        "/// quiz | alpha\n  draw: 3\n///\n\n"  # line 1: a misindented option
        "/// quiz | gamma\n///\n\n"  # line 5: an unknown bank
        "/// quiz | beta\n    draw: 9\n///\n\n"  # line 8: a draw beyond the pool (its block's)
        "/// quiz | alpha\n    mode: quick\n///\n"  # line 12: a wrong mode
    )
    with pytest.raises(QuizError) as caught:
        convert(banks, text)
    lines = str(caught.value).splitlines()
    assert [line.split(":")[0] for line in lines] == ["line 2", "line 5", "line 8", "line 13"]
    assert "names bank 'gamma', which does not exist" in lines[1]
    assert "/// quiz | beta: draw: expected at most 3" in lines[2]


def test_a_study_page_is_not_blamed_for_another_pages_block(banks: Path) -> None:
    """The study block reads every page for its exams; a bad block there is its own page's
    error (reported when that page is converted), never the study page's."""
    pages = banks / "pages"
    pages.mkdir()
    (pages / "normal.md").write_text("/// quiz | alpha\n    drw: 2\n///\n", "utf-8")
    study = convert(banks, "/// study\n///\n", pages=str(pages))
    assert "alpha-one" in study
    with pytest.raises(QuizError, match=r"^line 2: /// quiz \| alpha: unknown option 'drw'"):
        convert(banks, (pages / "normal.md").read_text("utf-8"), pages=str(pages))


def _study_help(html: str) -> str:
    data = re.search(r"<template data-konum-messages><script[^>]*>(.*?)</script>", html, re.S)
    assert data is not None
    return str(json.loads(data.group(1))["study.help"])


def test_the_study_page_says_where_reviews_are_exported_only_where_a_site_does(
    banks: Path,
) -> None:
    """The study page's help names the course overview, where a learner exports, imports
    and forgets their reviews, only on a site with one (a /// progress block)."""
    pages = banks / "pages"
    pages.mkdir()
    (pages / "cards.md").write_text("/// study\n///\n", "utf-8")
    (pages / "notes.md").write_text("```text\n/// progress\n///\n```\n", "utf-8")  # an example
    alone = _study_help(convert(banks, "/// study\n///\n", pages=str(pages)))
    assert alone.endswith("Reviews stay in this browser.") and "overview" not in alone
    (pages / "index.md").write_text("# Home\n\n/// progress\n///\n", "utf-8")
    with_overview = _study_help(convert(banks, "/// study\n///\n", pages=str(pages)))
    assert with_overview == f"{alone} The course overview exports, imports and forgets them."


def test_the_site_s_own_mistake_is_not_the_page_s(banks: Path) -> None:
    """Under plain MkDocs the page being read carries the error; it says the mistake is in
    the site's configuration (the order option naming no bank), not in that page."""
    with pytest.raises(QuizError) as caught:
        convert(banks, "/// quiz | alpha\n///\n", order=["alpha", "gamma"])
    assert str(caught.value).startswith(
        "in the site's configuration, not in this page: option 'order' of konum names bank"
        " 'gamma', which does not exist"
    )
