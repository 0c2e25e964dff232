"""Progress across the course in the real built site (Chromium): the navigation's marks, the
home page's overview, the learner's data file, and axe-core on the overview and the study
page in both palettes.

The site is the session's ``built_site``, served on 127.0.0.1 by ``serve_folder``; as in
test_site_browser.py, the context answers ``sitemap.xml`` with the pages at the local
address so that Material's instant navigation follows the links.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from conftest import serve_folder, set_scheme
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

LESSON = "lessons/01-why-position.html"
MARK = "nav.md-nav--primary a[href$='01-why-position.html'] .konum-mark"


@pytest.fixture(scope="module")
def real(built_site: Path) -> Iterator[tuple[Path, str]]:
    with serve_folder(built_site) as base:
        yield built_site, base


def _context(browser: Any, real: tuple[Path, str], problems: list[str]) -> Any:
    root, base = real
    locs = "".join(
        f"<url><loc>{base}{p.relative_to(root).as_posix()}</loc></url>"
        for p in sorted(root.rglob("*.html"))
    )
    xml = f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{locs}</urlset>'
    context = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True)

    def route(r: Any) -> None:
        parts = urlsplit(r.request.url)
        if parts.hostname != "127.0.0.1":
            problems.append(f"request left 127.0.0.1: {r.request.url}")
            r.abort()
        elif parts.path == "/sitemap.xml":
            r.fulfill(status=200, content_type="application/xml", body=xml)
        else:
            r.continue_()

    context.route("**/*", route)
    context.on("weberror", lambda e: problems.append(f"page error: {e.error}"))
    return context


@pytest.fixture
def page(browser: Any, real: tuple[Path, str]) -> Iterator[Page]:
    problems: list[str] = []
    context = _context(browser, real, problems)
    page = context.new_page()
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.konum_base = real[1]  # type: ignore[attr-defined]
    yield page
    context.close()
    assert problems == []


def _open(page: Page, path: str) -> Page:
    page.goto(page.konum_base + path)  # type: ignore[attr-defined]
    return page


def _answer_first(page: Page) -> None:
    question = page.locator("[data-question-id][data-konum-mounted]").first
    question.locator("input").first.check()
    question.locator("button.konum-check").click()


def _konum_storage(page: Page) -> dict[str, Any]:
    return page.evaluate(
        """() => Object.fromEntries(Object.keys(localStorage)
             .filter(k => k.startsWith("konum")).map(k => [k, JSON.parse(localStorage[k])]))"""
    )


def test_marks_follow_the_quiz_through_instant_navigation_and_reload(page: Page) -> None:
    _open(page, LESSON)
    expect(page.locator("[data-konum-mounted]").first).to_be_attached()
    expect(page.locator(MARK)).to_have_count(0)
    _answer_first(page)
    expect(page.locator(MARK)).to_have_attribute("data-state", "partly")
    expect(page.locator(MARK)).to_have_attribute("aria-label", "Quiz partly done")
    assert page.locator("nav.md-nav--primary .md-nav--secondary .konum-mark").count() == 0

    page.wait_for_load_state("networkidle")  # Material has read the sitemap
    page.evaluate("window.__sameDocument = true")
    page.locator("nav.md-nav--primary a[href$='flashcards.html']").first.click()
    expect(page.locator("[data-konum-study]")).to_be_attached()
    assert page.evaluate("window.__sameDocument") is True, "a full reload, not instant"
    expect(page.locator(MARK)).to_have_attribute("data-state", "partly")  # a new nav, marked

    page.reload()
    expect(page.locator(MARK)).to_have_attribute("data-state", "partly")
    # Every question answered (a check's credit, as state.js stores it): the lesson is done.
    page.evaluate(
        """path => { const n = JSON.parse(localStorage["konum-progress-v1"]).pages[path];
             for (let i = 0; i < n; i++) localStorage[`konum:${path}:why-position:q${i}`] =
               JSON.stringify({v: 0, c: true, r: false, a: [], b: 0}); }""",
        "/" + LESSON,
    )
    page.reload()
    expect(page.locator(MARK)).to_have_attribute("data-state", "done")


def test_the_overview_scores_each_lesson_and_counts_due_cards(page: Page) -> None:
    _open(page, LESSON)
    expect(page.locator("[data-konum-mounted]").first).to_be_attached()
    _answer_first(page)
    score = page.locator(".konum-score").first
    expect(score).to_have_text(re.compile(r"^[01] / \d+ points"))  # one point a question
    right = (score.text_content() or "").split(" / ")[0]
    _open(page, "flashcards.html")
    expect(page.locator(".konum-study__card[data-key]")).to_have_count(1)
    page.keyboard.press("Space")
    page.keyboard.press("1")  # due again in a minute: today
    _open(page, "index.html")
    row = page.locator(".konum-overview__table tr[data-bank='why-position']")
    expect(row.locator("td").nth(1)).to_have_text(
        re.compile(rf"^{right} of \d+ points, 1 of \d+ answered$")
    )
    expect(row.locator("td").nth(2)).to_have_text("1")
    expect(row.locator("a")).to_have_attribute("href", "/" + LESSON)
    expect(page.locator(".konum-overview__total")).to_have_text("1 card due today in all.")
    assert page.locator(".konum-overview__table tbody tr").count() == 8


def test_the_overview_counts_its_own_editions_answers_and_links_to_the_lesson(
    page: Page,
) -> None:
    """An answer given on the Turkish edition does not count in the English overview; one
    from the exam on another page counts but does not make the row link there: the row
    links to the lesson's own page once it holds an answer."""
    _open(page, "index.html")
    html = page.request.get(page.url).text()
    found = re.search(r"data-konum-overview>\s*<template><script[^>]*>(.*?)</script>", html)
    assert found is not None
    lessons = json.loads(found.group(1))["lessons"]
    first, second = next(x for x in lessons if x["bank"] == "sinusoidal")["questions"][:2]
    page.evaluate(
        """([a, b]) => {
          const v = l => JSON.stringify({v: 0, c: true, r: false, a: [], b: 0, l: l});
          localStorage[`konum:/tr/lessons/02-sinusoidal.html:sinusoidal:${a}`] = v("tr");
          localStorage[`konum:/summary.html:why-position-sinusoidal:${b}`] = v("en");
        }""",
        [first, second],
    )
    page.reload()
    row = page.locator(".konum-overview__table tr[data-bank='sinusoidal']")
    expect(row.locator("td").nth(1)).to_have_text(
        re.compile(r"^0 of \d+ points, 1 of \d+ answered$")
    )
    expect(row.locator("a")).to_have_count(0)
    page.evaluate(
        "a => { localStorage[`konum:/lessons/02-sinusoidal.html:sinusoidal:${a}`] ="
        " JSON.stringify({v: 0, c: true, r: false, a: [], b: 0, l: 'en'}); }",
        first,
    )
    page.reload()
    expect(row.locator("td").nth(1)).to_have_text(
        re.compile(r"^0 of \d+ points, 2 of \d+ answered$")
    )
    expect(row.locator("a")).to_have_attribute("href", "/lessons/02-sinusoidal.html")


def test_export_in_one_browser_and_import_in_another(
    browser: Any, real: tuple[Path, str], page: Page, tmp_path: Path
) -> None:
    _open(page, LESSON)
    expect(page.locator("[data-konum-mounted]").first).to_be_attached()
    _answer_first(page)
    _open(page, "flashcards.html")
    expect(page.locator(".konum-study__card[data-key]")).to_have_count(1)
    page.keyboard.press("Space")
    page.keyboard.press("3")
    _open(page, "index.html")
    with page.expect_download() as download:
        page.click(".konum-overview__export")
    path = tmp_path / download.value.suggested_filename
    download.value.save_as(path)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert (data["format"], data["version"]) == ("konum-learner-data", 2)
    assert next(iter(data["quizzes"])).startswith(LESSON + ":why-position:")
    before = _konum_storage(page)

    problems: list[str] = []
    other = _context(browser, real, problems)
    try:
        second = other.new_page()
        second.goto(real[1] + "index.html")
        second.set_input_files(".konum-overview__file", str(path))
        status = second.locator(".konum-overview__status")
        expect(status).to_have_text(
            re.compile(r"Newer than what was here, and kept: answers 1, cards 1\.$")
        )
        assert _konum_storage(second) == before
        second.set_input_files(".konum-overview__file", str(path))  # again: nothing newer
        expect(status).to_have_text(re.compile(r"and kept: answers 0, cards 0\.$"))
        assert _konum_storage(second) == before
    finally:
        other.close()
    assert problems == []


#: Files that are not what the overview imports, by name, with what it says of each.
BAD_FILES = dict(
    zip(
        ["json", "format", "newer", "older", "corrupt"],
        [
            ("{not json", "is not a konum data file: it is not valid JSON. Nothing was changed."),
            ('{"format": "other"}', "is not a konum data file. Nothing was changed."),
            (
                '{"format": "konum-learner-data", "version": 3}',
                "comes from a newer konum (data version 3); this page reads version 2. Update",
            ),
            (
                '{"format": "konum-learner-data", "version": 0}',
                "comes from an older konum (data version 0); this page reads version 2.",
            ),
            (
                '{"format": "konum-learner-data", "version": 1, "quizzes": {}, "pages": {},'
                ' "settings": {}, "cards": {"question:x": {"state": 9}}}',
                'is damaged: cards["question:x"] is not what konum writes. Nothing was changed.',
            ),
        ],
        strict=True,
    )
)

#: A card as flashcards.js writes one, as JSON text with ``{field}`` to replace.
CARD = (
    '{{"state": 2, "step": null, "s": {s}, "d": {d}, "due": 1767225600000, '
    '"last": 1767139200000, "first": 1767139200000, "log": {log}}}'
)
GOOD = {"s": "3.2", "d": "5.1", "log": "[[1767139200000, 3]]"}


def _data_file(card: str = "", pages: str = "{}", settings: str = "{}") -> str:
    cards = f'{{"question:why-embeddings": {card}}}' if card else "{}"
    return (
        '{"format": "konum-learner-data", "version": 1, "quizzes": {}, '
        f'"pages": {pages}, "cards": {cards}, "settings": {settings}}}'
    )


#: Numbers a study page cannot go on from: each file is refused whole.
BAD_NUMBERS = {
    "negative-stability": (
        _data_file(CARD.format(**{**GOOD, "s": "-1"})),
        'cards["question:why-embeddings"]',
    ),
    "infinite-stability": (
        _data_file(CARD.format(**{**GOOD, "s": "1e999"})),
        'cards["question:why-embeddings"]',
    ),
    "difficulty-11": (
        _data_file(CARD.format(**{**GOOD, "d": "11"})),
        'cards["question:why-embeddings"]',
    ),
    "infinite-difficulty": (
        _data_file(CARD.format(**{**GOOD, "d": "-1e999"})),
        'cards["question:why-embeddings"]',
    ),
    "grade-7": (
        _data_file(CARD.format(**{**GOOD, "log": "[[1767139200000, 7]]"})),
        'cards["question:why-embeddings"]',
    ),
    "infinite-page": (_data_file(pages='{"lessons/x.html": 1e999}'), 'pages["lessons/x.html"]'),
    "infinite-new-cards": (_data_file(settings='{"newPerDay": 1e999}'), "settings.newPerDay"),
}


def test_numbers_that_cannot_be_are_refused(page: Page, tmp_path: Path) -> None:
    _open(page, "index.html")
    expect(page.locator("[data-konum-mounted]").first).to_be_attached()
    good = tmp_path / "good.json"
    good.write_text(_data_file(CARD.format(**GOOD)), encoding="utf-8")
    page.set_input_files(".konum-overview__file", str(good))
    status = page.locator(".konum-overview__status")
    expect(status).to_have_attribute("data-result", "ok")
    before = _konum_storage(page)
    for name, (content, where) in BAD_NUMBERS.items():
        bad = tmp_path / f"{name}.json"
        bad.write_text(content, encoding="utf-8")
        page.set_input_files(".konum-overview__file", str(bad))
        expect(status).to_have_text(
            f"{name}.json is damaged: {where} is not what konum writes. Nothing was changed."
        )
        assert _konum_storage(page) == before, name
    # What was imported is the learner's own again: their export reads back.
    with page.expect_download() as download:
        page.click(".konum-overview__export")
    again = tmp_path / "again.json"
    download.value.save_as(again)
    page.set_input_files(".konum-overview__file", str(again))
    expect(status).to_have_attribute("data-result", "ok")


def test_an_import_past_the_storage_quota_writes_nothing(page: Page, tmp_path: Path) -> None:
    _open(page, LESSON)
    expect(page.locator("[data-konum-mounted]").first).to_be_attached()
    _answer_first(page)
    _open(page, "index.html")
    before = _konum_storage(page)
    # Fill the site's storage to the brim with another page's data.
    left = page.evaluate(
        """() => { let size = 1 << 20, n = 0;
             while (size >= 1024) {
               try { localStorage.setItem("filler-" + n, "x".repeat(size)); n++; }
               catch (e) { size = size >> 1; } }
             return n; }"""
    )
    assert left > 0
    cards = ", ".join(f'"question:c{i}": ' + CARD.format(**GOOD) for i in range(2000))
    big = tmp_path / "big.json"
    big.write_text(_data_file().replace('"cards": {}', f'"cards": {{{cards}}}'), encoding="utf-8")
    page.set_input_files(".konum-overview__file", str(big))
    status = page.locator(".konum-overview__status")
    expect(status).to_have_text(
        "big.json does not fit in the space this browser keeps for this site. Nothing was changed."
    )
    expect(status).to_have_attribute("data-result", "error")
    assert _konum_storage(page) == before


def test_a_bad_file_changes_nothing(page: Page, tmp_path: Path) -> None:
    """Each bad file, one after the other on the same page: its message, and the learner's
    data unchanged."""
    _open(page, LESSON)
    expect(page.locator("[data-konum-mounted]").first).to_be_attached()
    _answer_first(page)
    _open(page, "index.html")
    before = _konum_storage(page)
    status = page.locator(".konum-overview__status")
    for name, (content, message) in BAD_FILES.items():
        bad = tmp_path / f"{name}.json"
        bad.write_text(content, encoding="utf-8")
        page.set_input_files(".konum-overview__file", str(bad))
        expect(status).to_contain_text(f"{name}.json " + message)
        expect(status).to_have_attribute("data-result", "error")
        assert _konum_storage(page) == before, name


def test_forget_everything_asks_first(page: Page) -> None:
    _open(page, LESSON)
    expect(page.locator("[data-konum-mounted]").first).to_be_attached()
    _answer_first(page)
    _open(page, "index.html")
    page.click(".konum-overview__forget")
    expect(page.locator(".konum-overview__ask")).to_contain_text("Forget every quiz answer")
    expect(page.locator(".konum-overview__no")).to_be_focused()
    page.click(".konum-overview__no")
    assert _konum_storage(page) != {}
    page.click(".konum-overview__forget")
    page.click(".konum-overview__yes")
    expect(page.locator(".konum-overview__status")).to_have_text("Everything is forgotten.")
    assert _konum_storage(page) == {}
    expect(page.locator(MARK)).to_have_count(0)
    expect(page.locator(".konum-overview__table td").nth(1)).to_have_text(
        re.compile(r"^0 of \d+ points, 0 of 11 answered$")
    )


@pytest.mark.slow
@pytest.mark.parametrize("scheme", ["default", "slate"])
def test_overview_and_study_page_are_axe_clean(page: Page, scheme: str) -> None:
    from axe_playwright_python.sync_playwright import Axe

    for path, widget in (("index.html", ".konum-overview"), ("flashcards.html", ".konum-study")):
        _open(page, path)
        set_scheme(page, scheme)
        expect(page.locator(f"{widget}[data-konum-mounted]")).to_be_attached()
        if widget == ".konum-study":
            page.keyboard.press("Space")  # the grade buttons with their intervals
        result = Axe().run(
            page, context={"include": [[widget]]}, options={"resultTypes": ["violations"]}
        )
        found = [
            (v["id"], [n["target"] for n in v["nodes"]]) for v in result.response["violations"]
        ]
        assert found == [], (path, scheme)
