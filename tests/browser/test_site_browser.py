"""The real built site in a real Chromium: every lesson's quiz, instant navigation, file://,
a whole quiz answered from the page's own data, axe-core in both palettes, the study page.

The site is the session's ``built_site`` (``konum build --seed 42``), served by a
``http.server`` thread on 127.0.0.1 that the module starts and stops. One browser (the
module-scoped ``browser`` fixture of ``conftest.py``) serves every test; each test opens a
fresh context (own localStorage) that records every request, aborts any request that is not
for 127.0.0.1, and fails the test on a page error, a console error, or a console warning
from konum's own assets.

Instant navigation: Material intercepts a click only for pages listed in ``sitemap.xml``,
and it maps the sitemap's host name to the current one but keeps the sitemap's port and
path. The session's site lists its pages at the default ``site_url`` (``konum serve``'s
address, port 8000), and this module's server has a random port; so for the tests of
quizzes under instant navigation the context answers ``sitemap.xml`` with the built pages
at the local address, as the site at its ``site_url`` would. That the real sitemap does it
is shown by ``konum serve`` on a random port (it lists its own address) and by the
defaults agreeing.
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from html import unescape
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from conftest import settle_colours
from playwright.sync_api import Locator, Page, expect

from konum import seal

pytestmark = pytest.mark.browser

MOUNTED = "[data-konum-mounted]"  # quiz.js sets it on each question it has mounted
OURS = "/assets/konum/"
LESSON = "lessons/02-sinusoidal.html"
OTHER = "lessons/03-learned.html"


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def real(built_site: Path) -> Iterator[tuple[Path, str]]:
    """(site folder, base URL) of the built site served on 127.0.0.1 (a free port)."""
    handler = functools.partial(_Quiet, directory=str(built_site))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield built_site, f"http://127.0.0.1:{httpd.server_address[1]}/"
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join()


def lessons(root: Path, folder: str = "lessons", suffix: str = ".html") -> list[str]:
    """The lessons in ``root/folder`` as built pages (``lessons/01-why-position.html``)."""
    found = sorted(f"{folder}/{p.stem}.html" for p in (root / folder).glob(f"*{suffix}"))
    assert len(found) >= 8
    return found


def sitemap(root: Path, base: str) -> str:
    locs = "".join(
        f"<url><loc>{base}{p.relative_to(root).as_posix()}</loc></url>"
        for p in sorted(root.rglob("*.html"))
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>'
        f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{locs}</urlset>'
    )


@dataclass
class Session:
    """A page plus what it did."""

    page: Page
    base: str
    requests: list[str] = field(default_factory=list)
    blocked: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def open(self, path: str) -> Page:
        self.page.goto(self.base + path, wait_until="domcontentloaded")
        return self.page

    def ours(self) -> list[str]:
        return [u for u in self.requests if OURS in u]


def _watch(page: Page, s: Session) -> None:
    def console(msg: Any) -> None:
        url = (msg.location or {}).get("url", "")
        if msg.type == "error" or (msg.type == "warning" and OURS in url):
            s.problems.append(f"console {msg.type}: {msg.text} ({url})")

    page.on("console", console)
    page.on("pageerror", lambda e: s.problems.append(f"page error: {e}"))


@pytest.fixture
def session(browser: Any, real: tuple[Path, str]) -> Iterator[Session]:
    root, base = real
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    s = Session(page, base)
    xml = sitemap(root, base)

    def route(r: Any) -> None:
        url = r.request.url
        if urlsplit(url).hostname != "127.0.0.1":
            s.blocked.append(url)
            r.abort()
        elif urlsplit(url).path == "/sitemap.xml":
            r.fulfill(status=200, content_type="application/xml", body=xml)
        else:
            r.continue_()

    context.route("**/*", route)
    context.on("request", lambda r: s.requests.append(r.url))
    _watch(page, s)
    try:
        yield s
    finally:
        context.close()
    assert s.problems == []
    assert s.blocked == [], f"requests leaving 127.0.0.1: {s.blocked}"


def question(page: Page, qid: str) -> Locator:
    return page.locator(f'[data-question-id="{qid}"]')


def feedback(q: Locator) -> Locator:
    return q.locator(".konum-feedback")


def data_of(q: Locator) -> dict[str, Any]:
    """The checker's JSON that the page ships for question ``q``."""
    raw = q.locator("template.konum-data-box").evaluate(
        "t => t.content.querySelector('script.konum-data').textContent"
    )
    data: dict[str, Any] = json.loads(raw)
    return data


def scope_of(q: Locator, data: dict[str, Any]) -> tuple[Locator, dict[str, Any]]:
    """The visible part and the spec that Check grades: the question, or its shown variant."""
    if data["type"] != "computed":
        return q, data
    k = int(str(q.locator(".konum-variant:visible").get_attribute("data-variant")))
    return q.locator(f'.konum-variant[data-variant="{k}"]'), data["variants"][k]


def _later_of(q: Locator, data: dict[str, Any]) -> dict[str, Any]:
    """The question's later map with its sealed part opened by the page's own unseal()."""
    later: dict[str, Any] = json.loads(
        q.locator("template.konum-data-box").evaluate(
            "t => t.content.querySelector('script.konum-later').textContent"
        )
    )
    if "sealed" in later:
        later.update(json.loads(seal.unseal(data["seal"], later["sealed"])))
    return later


def answer_right(q: Locator, check: str = "Check") -> None:
    """Fill in the right answer from the page's own data, found as a determined reader
    would: hashing each choice and unsealing with the method the page uses (konum.seal,
    which test_teach_browser.py checks against quiz.js), the visible variant if computed."""
    data = data_of(q)
    scope, spec = scope_of(q, data)
    form = spec.get("form", data["type"])
    salt = salt_of(data, scope)

    def hashed(*parts: object) -> str:
        return seal.answer_hash(salt, *parts)

    if form == "choice":
        boxes = scope.locator("input.konum-choice")
        for i in range(spec["count"]):
            if hashed("o", i) in spec["right"]:
                boxes.nth(i).check()
            elif spec["multiple"]:
                boxes.nth(i).uncheck()
    elif form == "fill":
        answer = _later_of(q, data)["answer"]
        shown = re.findall(r"<li><code>(.*?)</code></li>", answer)
        assert len(shown) == len(spec["blanks"]), "a regex-only blank: pick a lesson without one"
        for i, text in enumerate(shown):
            scope.locator("input.konum-blank").nth(i).fill(unescape(text))
    elif form == "matching":
        selects = scope.locator("select.konum-select")
        choices = selects.first.locator("option").count() - 1
        for i, row in enumerate(spec["rows"]):
            right = next(v for v in range(choices) if hashed("m", i, v) == row)
            selects.nth(i).select_option(str(right))
    elif form == "ordering":
        items = len(spec["positions"])
        order = [
            next(k for k in range(items) if hashed("p", p, k) == spec["positions"][p])
            for p in range(items)
        ]
        q.evaluate(
            "(el, order) => { const ol = el.querySelector('ol[id$=\"-order\"]');"
            ' order.forEach(k => ol.appendChild(ol.querySelector(`li[data-item="${k}"]`))); }',
            order,
        )
    elif form == "output":
        expected = seal.unseal(salt, spec["expected"])
        scope.locator("textarea.konum-output-input").fill(expected)
    else:
        low, high = json.loads(seal.unseal(salt, spec["interval"]))
        scope.locator("input.konum-number-input").fill(repr((low + high) / 2))
    q.get_by_role("button", name=check).click()


def salt_of(data: dict[str, Any], scope: Locator) -> str:
    """The salt Check grades ``scope`` under: the question's, or for a computed question's
    variant the question's, U+001F and the variant's index (quiz.js's)."""
    if data["type"] != "computed":
        return str(data["salt"])
    return f"{data['salt']}\x1f{scope.get_attribute('data-variant')}"


def _range(salt: str, spec: dict[str, Any]) -> tuple[float, float]:
    """The numbers a numeric spec accepts, unsealed by the page."""
    low, high = json.loads(seal.unseal(salt, spec["interval"]))
    return float(low), float(high)


def points_of(page: Page) -> str:
    """What the page's questions are worth in all, as the score line writes it."""
    total = page.locator("[data-question-id]").evaluate_all(
        "qs => qs.reduce((a, q) => a + (JSON.parse(q.querySelector('template')"
        ".content.querySelector('script.konum-data').textContent).worth || 1), 0)"
    )
    return f"{total:g}"


def mounted_page(s: Session, path: str) -> Page:
    page = s.open(path)
    questions = page.locator("[data-question-id]")
    expect(page.locator(MOUNTED)).to_have_count(questions.count())
    return page


# --- (1) every lesson, and (5) axe-core ----------------------------------------------------


@pytest.mark.slow
def test_every_lesson_mounts_every_question(session: Session, real: tuple[Path, str]) -> None:
    """Each lesson: every question mounted, all five types (and ordering where a lesson has
    it), the score line in points. konum's files are inline: nothing of ours is fetched, and
    every request goes to 127.0.0.1. (axe-core on every lesson: :func:`_axe_lesson`.)"""
    root, _ = real
    for path in lessons(root):
        page = session.open(path)
        questions = page.locator("[data-question-id]")
        total = questions.count()
        assert total >= 8, path
        expect(page.locator(MOUNTED)).to_have_count(total)
        expect(page.locator(".konum-score")).to_have_text(f"0 / {points_of(page)} points")
        types = set(questions.evaluate_all("qs => qs.map(q => q.dataset.type)"))
        assert {"choice", "fill", "matching", "numeric", "computed"} <= types, path
        known = {"choice", "fill", "matching", "numeric", "computed", "output", "ordering"}
        assert types <= known, path
    assert session.ours() == []
    assert all(urlsplit(u).hostname == "127.0.0.1" for u in session.requests)


# --- (2) instant navigation -----------------------------------------------------------------


def _nav(page: Page, href: str, arrived: str) -> None:
    """Click the primary nav link to ``href``; wait for the URL and for ``arrived`` (a
    selector only that page has: Material updates the URL before it swaps the content)."""
    page.locator(f"nav.md-nav--primary a[href$='{href.split('/')[-1]}']").first.click()
    expect(page).to_have_url(re.compile(re.escape(href) + r"(#.*)?$"))
    expect(page.locator(arrived).first).to_be_attached()


def test_instant_navigation(session: Session) -> None:
    page = session.open("index.html")
    expect(page.locator("nav.md-nav--primary")).to_have_count(1)
    page.wait_for_load_state("networkidle")  # Material has fetched the sitemap
    assert page.locator("[data-konum-quiz]").count() == 0
    assert page.locator('[data-konum-asset="quiz"]').count() == 0, "no quiz: no quiz assets"
    page.evaluate("window.__sameDocument = true")

    _nav(page, LESSON, '[data-question-id="sin-why-pairs"]')
    total = page.locator("[data-question-id]").count()
    expect(page.locator(MOUNTED)).to_have_count(total)
    assert page.evaluate("window.__sameDocument") is True, "a full reload, not instant"
    assert page.locator('[data-konum-asset="quiz"]').count() == 1

    choice = question(page, "sin-why-pairs")
    answer_right(choice)
    expect(feedback(choice)).to_have_text("Correct.")
    numeric = question(page, "sin-num-frequencies")
    numeric.locator("input").fill("1")
    numeric.get_by_role("button", name="Check").click()
    expect(feedback(numeric)).to_have_text("Not quite: 1 is too low.")
    expect(page.locator(".konum-score")).to_have_text(f"1 / {points_of(page)} points")

    _nav(page, OTHER, '[data-question-id^="learned-"]')
    expect(page.locator(MOUNTED)).to_have_count(page.locator("[data-question-id]").count())
    _nav(page, LESSON, '[data-question-id="sin-why-pairs"]')
    expect(page.locator(MOUNTED)).to_have_count(total)
    assert page.evaluate("window.__sameDocument") is True
    # Progress restored, mounted once: one Check click is one feedback update.
    expect(page.locator(".konum-score")).to_have_text(f"1 / {points_of(page)} points")
    expect(feedback(choice)).to_have_text("Correct.")
    expect(numeric.locator("input")).to_have_value("1")
    updates = numeric.locator(".konum-feedback").evaluate(
        """el => new Promise(done => {
        let n = 0;
        new MutationObserver(rs => { n += rs.filter(r => r.type === 'childList').length; })
          .observe(el, {childList: true});
        el.closest('[data-question-id]').querySelector('.konum-check').click();
        setTimeout(() => done(n), 200);
    })"""
    )
    assert updates == 1
    expect(feedback(numeric)).to_have_text("Not quite: 1 is too low.")

    # The study widget also mounts on an instant page change.
    _nav(page, "flashcards.html", "[data-konum-study]")
    expect(page.locator(".konum-study__card[data-key]")).to_have_count(1)
    assert page.evaluate("window.__sameDocument") is True


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.mark.slow
def test_instant_navigation_under_konum_serve_on_any_port(browser: Any) -> None:
    """``konum serve -a 127.0.0.1:PORT`` on a random port: its sitemap lists the pages at
    that address, so a click in the nav swaps the page in place (no reload), with no help
    from the test; quizzes mount on the new page."""
    repo = Path(__file__).resolve().parents[2]
    port = _free_port()
    base = f"http://127.0.0.1:{port}/"
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "konum", "serve", "-a", f"127.0.0.1:{port}"],
        cwd=repo, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    context = browser.new_context()
    try:
        deadline = time.monotonic() + 300
        while True:
            assert proc.poll() is None, proc.communicate()[1]
            try:
                with urllib.request.urlopen(base + "sitemap.xml", timeout=5) as response:
                    sitemap = response.read().decode("utf-8")
                break
            except OSError:
                assert time.monotonic() < deadline, "konum serve never answered"
                time.sleep(1)
        assert f"<loc>{base}lessons/02-sinusoidal.html</loc>" in sitemap
        page = context.new_page()
        with page.expect_response(lambda r: r.url == base + "sitemap.xml"):
            page.goto(base + "index.html")
        page.evaluate("window.__sameDocument = true")
        _nav(page, LESSON, '[data-question-id="sin-why-pairs"]')
        expect(page.locator(MOUNTED)).to_have_count(page.locator("[data-question-id]").count())
        assert page.evaluate("window.__sameDocument") is True, "a full reload, not instant"
    finally:
        context.close()
        proc.terminate()
        proc.communicate(timeout=60)


def test_the_default_site_url_is_where_konum_serve_serves(built_site: Path) -> None:
    """A site built with the defaults lists its pages at ``konum serve``'s default address
    (also ``python3 -m http.server -d site``'s port), so instant navigation works there;
    anywhere else, ``KONUM_SITE_URL`` names the address at build time."""
    from konum.cli import serve

    (option,) = [p for p in serve.params if p.name == "dev_addr"]
    if "KONUM_SITE_URL" in os.environ:
        pytest.skip("the site was built for KONUM_SITE_URL")
    sitemap = (built_site / "sitemap.xml").read_text(encoding="utf-8")
    assert option.default == "127.0.0.1:8000"
    assert "<loc>http://127.0.0.1:8000/lessons/02-sinusoidal.html</loc>" in sitemap


# --- (3) file:// ----------------------------------------------------------------------------


def test_file_url_quiz_and_progress(browser: Any, real: tuple[Path, str]) -> None:
    root, _ = real
    context = browser.new_context()
    page = context.new_page()
    s = Session(page, root.as_uri() + "/")
    page.on("request", lambda r: s.requests.append(r.url))
    _watch(page, s)
    try:
        page = mounted_page(s, LESSON)
        total = page.locator("[data-question-id]").count()
        q = question(page, "sin-entry")
        answer_right(q)
        expect(feedback(q)).to_have_text("Correct.")
        expect(q.locator(".konum-solution:visible")).to_have_count(1)
        page.reload()
        expect(page.locator(MOUNTED)).to_have_count(total)
        expect(page.locator(".konum-score")).to_have_text(f"1 / {points_of(page)} points")
        expect(feedback(q)).to_have_text("Correct.")
    finally:
        context.close()
    assert s.problems == []
    assert s.requests and all(u.startswith("file://") for u in s.requests), s.requests


# --- (4) a whole quiz from the page's data, then New numbers ----------------------------------


def test_whole_quiz_right_then_new_numbers(session: Session) -> None:
    page = mounted_page(session, LESSON)
    ids = page.locator("[data-question-id]").evaluate_all("qs => qs.map(q => q.dataset.questionId)")
    total = float(points_of(page))  # every question is worth 1 but the ordering one
    for qid in ids:
        q = question(page, qid)
        answer_right(q)
        expect(feedback(q)).to_contain_text("Correct")
    expect(page.locator(".konum-score")).to_have_text(f"{total:g} / {total:g} points")

    computed = [qid for qid in ids if question(page, qid).get_attribute("data-type") == "computed"]
    assert len(computed) >= 3
    for qid in computed:
        q = question(page, qid)
        data = data_of(q)
        old_scope, old_spec = scope_of(q, data)
        prompt = old_scope.locator(".konum-prompt").inner_text()
        q.get_by_role("button", name="New numbers").click()
        expect(feedback(q)).to_have_text("")
        # The credit earned stays: New numbers asks the same question again.
        expect(page.locator(".konum-score")).to_have_text(f"{total:g} / {total:g} points")
        new_scope, new_spec = scope_of(q, data)
        assert new_spec is not old_spec
        assert new_scope.locator(".konum-prompt").inner_text() != prompt, qid
        old_range = (
            _range(salt_of(data, old_scope), old_spec)
            if old_spec.get("form") == "numeric"
            else None
        )
        new_range = (
            _range(salt_of(data, new_scope), new_spec)
            if new_spec.get("form") == "numeric"
            else None
        )
        if old_range and new_range and not new_range[0] <= sum(old_range) / 2 <= new_range[1]:
            # the old answer no longer fits
            new_scope.locator("input").fill(repr(sum(old_range) / 2))
            q.get_by_role("button", name="Check").click()
            expect(feedback(q)).to_contain_text("Not quite")
        answer_right(q)
        expect(feedback(q)).to_have_text("Correct.")
        expect(page.locator(".konum-score")).to_have_text(f"{total:g} / {total:g} points")


# --- (5) axe-core on every quiz, light and dark -----------------------------------------------


#: Material's own widgets in which axe-core finds something, each with its rule; they are the
#: theme's, not konum's or the course's: the search dialog has no name, every copy button's
#: <nav> has the same (no) name, a wide table's scrolling wrapper takes no focus.
MATERIAL = {
    "aria-dialog-name": ".md-search",
    "landmark-unique": ".md-code__nav",
    "scrollable-region-focusable": ".md-typeset__scrollwrap",
}


#: Where colour contrast is checked: konum's quizzes, and what the course colours beyond
#: Material's palette (overrides/main.html): code highlighting, links, the footer. The rest
#: of the page is Material's text on Material's background, and the slowest part to check.
COLOURED = [["[data-konum-quiz]"], [".md-content .highlight"], [".md-content a"], [".md-footer"]]


def _axe(page: Page, contrast: bool) -> list[dict[str, Any]]:
    """axe-core violations in the whole page but Material's widgets (:data:`MATERIAL`):
    every rule but colour contrast, or colour contrast only (the slow rule: several seconds
    on a lesson) in :data:`COLOURED`. Code highlighting is checked too: the course and
    quiz.css move Material's token colours that fall under 4.5:1."""
    from axe_playwright_python.sync_playwright import Axe

    options: dict[str, Any] = {"resultTypes": ["violations"]}
    if contrast:
        options["runOnly"] = {"type": "rule", "values": ["color-contrast"]}
        result = Axe().run(page, context={"include": COLOURED}, options=options)
    else:
        options["rules"] = {"color-contrast": {"enabled": False}}
        result = Axe().run(page, options=options)
    found = []
    for v in result.response["violations"]:
        widget = MATERIAL.get(v["id"])
        nodes = [
            n["target"]
            for n in v["nodes"]
            if not widget
            or not page.evaluate(
                "([t, w]) => !!document.querySelector(t).closest(w)", [n["target"][-1], widget]
            )
        ]
        if nodes:
            found.append({"id": v["id"], "nodes": nodes})
    return found


def _answer_everything(page: Page, check: str = "Check") -> None:
    """The first question right, then Check, Show answer and Hint everywhere: right and wrong
    feedback, marks, answers, hints, explanations and solutions are all on screen."""
    answer_right(page.locator("[data-question-id]").first, check)
    page.evaluate(
        """() => document.querySelectorAll(
        '[data-konum-quiz] .konum-check, [data-konum-quiz] .konum-show,'
        + ' [data-konum-quiz] .konum-hint-button').forEach(b => b.click())"""
    )
    expect(page.locator(".konum-feedback.is-wrong").first).to_be_visible()
    expect(page.locator(".konum-feedback.is-right").first).to_be_visible()


def test_quiz_code_has_no_copy_button_before_its_blanks(session: Session) -> None:
    """Material puts a copy button (in a <nav>) in every code block of the page, but none
    in a question's code: from the prompt, Tab goes straight to the first blank."""
    page = mounted_page(session, LESSON)
    expect(page.locator(".md-code__nav").first).to_be_attached()  # prose code keeps its own
    expect(page.locator("[data-konum-quiz] .md-code__nav")).to_have_count(0)
    expect(page.locator("[data-konum-quiz] button:not([data-konum-made])")).to_have_count(0)
    blank = page.locator("[data-konum-quiz] pre input.konum-blank").first
    q = blank.locator("xpath=ancestor::*[@data-question-id][1]")
    q.locator(".konum-legend").click()  # focus starts in the question, before its code
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == blank.get_attribute("id")


def _toggle_scheme(page: Page) -> None:
    """Click Material's palette toggle, its colours settled (``settle_colours``)."""
    body = page.locator("body")
    before = body.get_attribute("data-md-color-scheme") or ""
    page.locator("form[data-md-component=palette] label:visible").click()
    expect(body).not_to_have_attribute("data-md-color-scheme", before)
    settle_colours(page)


#: The lessons of each edition, by the Markdown pages the build makes them from.
CONTENT = Path(__file__).resolve().parents[2] / "content"
ENGLISH_LESSONS = lessons(CONTENT, "lessons", ".md")
TURKISH_LESSONS = lessons(CONTENT, "tr/lessons", ".md")


def _axe_lesson(session: Session, path: str, lang: str, check: str, right: str) -> None:
    """One lesson, opened in the light scheme with its quiz answered (the first question
    right, ``check`` being the Check button's name in the edition and ``right`` how its
    feedback begins) and all the rest shown: every axe rule but colour contrast on the whole
    page (those rules read the markup, which the scheme does not change), then colour
    contrast in light and again after Material's palette toggle, in dark. Nothing is
    allowed but Material's widgets' own rule each (:data:`MATERIAL`)."""
    page = mounted_page(session, path)
    expect(page.locator("html")).to_have_attribute("lang", lang)
    expect(page.locator("body")).to_have_attribute("data-md-color-scheme", "default")
    _answer_everything(page, check=check)
    expect(page.locator(".konum-feedback.is-right").first).to_have_text(re.compile(right))
    found = {"other rules": _axe(page, contrast=False), "default": _axe(page, contrast=True)}
    _toggle_scheme(page)
    expect(page.locator("body")).to_have_attribute("data-md-color-scheme", "slate")
    found["slate"] = _axe(page, contrast=True)
    assert {k: v for k, v in found.items() if v} == {}


# Each edition a class: pytest-xdist's --dist loadscope runs a class's tests on one worker,
# so the two sweeps can run beside each other (and beside the rest of this module).
@pytest.mark.slow
class TestAxeEnglish:
    """axe-core on every English lesson in both colour schemes (:func:`_axe_lesson`)."""

    @pytest.mark.parametrize("path", ENGLISH_LESSONS)
    def test_lesson(self, session: Session, path: str) -> None:
        _axe_lesson(session, path, "en", "Check", "^Correct")

    def test_every_lesson_is_swept(self, real: tuple[Path, str]) -> None:
        assert lessons(real[0]) == ENGLISH_LESSONS


@pytest.mark.slow
class TestAxeTurkish:
    """axe-core on every Turkish lesson in both colour schemes (:func:`_axe_lesson`)."""

    @pytest.mark.parametrize("path", TURKISH_LESSONS)
    def test_lesson(self, session: Session, path: str) -> None:
        _axe_lesson(session, path, "tr", "Denetle", "^Doğru")

    def test_every_lesson_is_swept(self, real: tuple[Path, str]) -> None:
        assert lessons(real[0], "tr/lessons") == TURKISH_LESSONS


# --- (6) the study page -----------------------------------------------------------------------


def test_flashcards_page(session: Session, real: tuple[Path, str]) -> None:
    root, _ = real
    html = (root / "flashcards.html").read_text(encoding="utf-8")
    embedded = re.search(
        r'<script type="application/json" class="konum-cards">(.*?)</script>', html
    )
    assert embedded is not None, "the study block carries its cards in the page"
    cards = json.loads(embedded.group(1))
    keys = [c["key"] for c in cards["cards"]]
    variants = [k for k in keys if ":variant:" in k]
    assert variants and all(k.endswith(":variant:0") for k in variants)  # one per question
    page = session.open("flashcards.html")
    card = page.locator(".konum-study__card[data-key]")
    expect(card).to_have_count(1)
    assert card.get_attribute("data-key") in {c["key"] for c in cards["cards"]}
    for name in ("konum.apkg", "konum-anki.txt", "konum.csv"):
        assert (root / "downloads" / name).is_file()
    back = page.locator(".konum-study__back")
    expect(page.locator(".konum-study__front")).to_be_visible()
    expect(back).to_be_hidden()
    page.keyboard.press("Space")
    expect(back).to_be_visible()
    expect(page.locator(".konum-study__status")).to_have_text(re.compile(r"^Answer side\. Again "))
    page.keyboard.press("Space")
    expect(back).to_be_hidden()


def test_matrix_brackets_grow_and_inline_formulas_stay_on_their_line(session: Session) -> None:
    """Lesson 5's rotation matrix: its brackets stretch to the height of its rows. That takes
    a font with an OpenType MATH table; with the generic `math` family alone, Chromium on
    Linux found none and drew one-line brackets beside a many-row matrix."""
    page = session.open("lessons/05-rope.html")
    matrix = page.locator('math[alttext^="R(\\\\alpha) = \\\\begin{pmatrix}"]').first
    expect(matrix).to_be_attached()
    heights = matrix.evaluate(
        """m => ({
            table: m.querySelector("mtable").getBoundingClientRect().height,
            brackets: Array.from(
                m.querySelectorAll("mo[form]"), o => o.getBoundingClientRect().height
            ),
        })"""
    )
    assert len(heights["brackets"]) == 2, heights
    assert all(h >= 0.9 * heights["table"] for h in heights["brackets"]), heights
    # Inline formulas of several parts (d / 2, θ_k) sit on their line, not stacked (a sum
    # with its limits is taller than a line, but not two).
    tall = page.evaluate(
        """() => Array.from(document.querySelectorAll("article p math"))
            .filter(m => !m.querySelector("mtable, mfrac"))
            .map(m => [m.textContent, m.getBoundingClientRect().height,
                       parseFloat(getComputedStyle(m.closest("p")).lineHeight)])
            .filter(([, height, line]) => height > 1.75 * line)"""
    )
    assert tall == [], tall


# --- (7) phones -------------------------------------------------------------------------------

PHONE = {"width": 390, "height": 844}

# Elements of a question that stick out of it, unless a box inside it scrolls them.
_OVERFLOWING = """() => {
    const out = [];
    for (const q of document.querySelectorAll("[data-question-id]")) {
        const box = q.getBoundingClientRect();
        for (const el of q.querySelectorAll("*")) {
            const r = el.getBoundingClientRect();
            if (!r.width || (r.left >= box.left - 0.5 && r.right <= box.right + 0.5)) continue;
            let up = el.parentElement, scrolled = false;
            for (; up && up !== q && !scrolled; up = up.parentElement) {
                scrolled = getComputedStyle(up).overflowX !== "visible"
                    && up.getBoundingClientRect().right <= box.right + 0.5;
            }
            if (!scrolled) out.push(`${q.dataset.questionId}: <${el.localName}> ${
                (el.getAttribute("alttext") || el.textContent).slice(0, 50)}`);
        }
    }
    return out;
}"""

# Punctuation that starts a line right after an inline formula ("$x$, and" broken before ",").
_STRAY_PUNCTUATION = """() => {
    const out = [];
    for (const m of document.querySelectorAll("math:not([display=block])")) {
        let next = m.nextSibling;
        if (!next || next.nodeType !== 3 || !/^[,.;:!?)]/.test(next.data)) continue;
        if (!m.getClientRects().length) continue;
        const range = document.createRange();
        range.setStart(next, 0);
        range.setEnd(next, 1);
        const mark = range.getBoundingClientRect(), formula = m.getBoundingClientRect();
        if (mark.top >= formula.bottom - 1) out.push(`${m.getAttribute("alttext")}${next.data[0]}`);
    }
    return out;
}"""


# konum's controls (quizzes, explorers, the study page, the overview) that are shown and
# smaller than 24 x 24 CSS pixels (WCAG 2.5.8); a checkbox or radio counts as its box.
_SMALL_TARGETS = """() => {
    const out = [];
    const ours = ["[data-konum-quiz]", ".konum-explorer", "[data-konum-study]",
        "[data-konum-overview]"].flatMap(s => ["input", "select", "button", "textarea"]
        .map(c => `${s} ${c}`)).join(", ");
    for (const el of document.querySelectorAll(ours)) {
        const r = el.getBoundingClientRect();
        if (!r.width || !r.height || getComputedStyle(el).visibility === "hidden") continue;
        if (el.type === "file" && el.labels.length) continue;  // its label is the target
        if (r.width < 24 || r.height < 24) {
            out.push(`${el.localName}.${el.className || el.type}: ${Math.round(r.width)} x ${
                Math.round(r.height)}`);
        }
    }
    return [...new Set(out)];
}"""


def _pages(root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*.html"))


@pytest.mark.slow
def test_on_a_phone_nothing_is_wider_than_the_screen(browser: Any, real: tuple[Path, str]) -> None:
    """Every page of the course at 390 x 844, before and after every question is checked
    and shown (answers, worked solutions, explanations, hints): the page is never wider
    than the screen, no part of a question sticks out of it (wide math, matrices, tables
    and code scroll in their own box), and the flashcards fit with a card turned over.
    The lessons and the study page also at 320 px (the narrowest phones, and 400% zoom of
    a 1280 px screen). Every control of konum's is at least 24 x 24 px, in both editions. No
    line of an answered lesson starts with the comma or full stop that follows a formula, at
    phone widths from 340 to 412 px (one sweep of the pages for all of it)."""
    root, base = real
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    s = Session(page, base)
    _watch(page, s)
    found: dict[str, Any] = {}
    width = "() => [document.documentElement.scrollWidth, window.innerWidth]"
    try:
        for path in _pages(root):
            s.open(path)
            page.wait_for_load_state("load")
            wide = page.evaluate(width)
            if path.startswith("lessons/"):
                expect(page.locator(MOUNTED)).to_have_count(
                    page.locator("[data-question-id]").count()
                )
                _answer_everything(page)
                wide += page.evaluate(width)
                if sticking_out := page.evaluate(_OVERFLOWING):
                    found[f"{path} questions"] = sticking_out
                for phone in (340, 360, 375, 390, 412):  # each breaks lines somewhere else
                    page.set_viewport_size({"width": phone, "height": 844})
                    if stray := page.evaluate(_STRAY_PUNCTUATION):
                        found[f"{path} at {phone} px: a line starts with punctuation"] = stray
                page.set_viewport_size(PHONE)
            if path.endswith("flashcards.html"):
                page.locator(".konum-study__flip").click()
                wide += page.evaluate(width)
            if small := page.evaluate(_SMALL_TARGETS):
                found[f"{path} controls"] = small
            if path.startswith(("lessons/", "tr/lessons/")) or path.endswith("flashcards.html"):
                page.set_viewport_size({"width": 320, "height": 700})
                wide += page.evaluate(width)
                page.set_viewport_size(PHONE)
            if any(wide[i] > wide[i + 1] for i in range(0, len(wide), 2)):
                found[path] = wide
    finally:
        context.close()
    assert found == {}
    assert s.problems == []


@pytest.mark.parametrize(("width", "height"), [(1280, 900), (390, 844)])
def test_the_study_card_is_in_view_on_load(
    browser: Any, real: tuple[Path, str], width: int, height: int
) -> None:
    """The flashcard page opens with the card on screen (its top in the window), on a
    desktop and on a phone, in both editions."""
    _, base = real
    context = browser.new_context(viewport={"width": width, "height": height})
    try:
        page = context.new_page()
        for path in ("flashcards.html", "tr/flashcards.html"):
            page.goto(base + path)
            card = page.locator(".konum-study__card[data-key]")
            expect(card).to_have_count(1)
            box = card.bounding_box()
            assert box is not None and 0 <= box["y"] < height - 120, (path, box)
            key = page.locator(".konum-study__flip kbd").text_content()
            assert key == ("Boşluk" if path.startswith("tr/") else "Space")  # the page's words
    finally:
        context.close()
