"""The study page's widget (templates/assets/flashcards.js) in a real Chromium.

A standalone page in a temporary folder holds the study block as konum renders it (the cards
of the export test banks, ``tests/fixtures/export_banks/banks.py``, as JSON inside the page)
and the static JS and CSS. A local ``http.server`` thread on 127.0.0.1 serves
it; every test checks that no request leaves that server and that the console stays clean.
"""

from __future__ import annotations

import functools
import importlib.util
import shutil
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from konum.exports import build_cards
from konum.exports.text import cards_json
from konum.render import TEMPLATES_DIR, environment, script_json

playwright_sync = pytest.importorskip("playwright.sync_api")

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
ASSETS = TEMPLATES_DIR / "assets"
FIXTURE = ROOT / "tests" / "fixtures" / "export_banks" / "banks.py"
CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
STORE = "konum-study-v1"

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Study</title>
<link rel="icon" href="data:,"><link rel="stylesheet" href="flashcards.css"></head>
<body><main>{stub}
{block}
<script src="flashcards.js"></script>
</main></body></html>
"""

# A stand-in for Material's document$ (an RxJS subject): it records subscribers so a test can
# emit "page changed" as instant navigation does.
DOCUMENT_STUB = """<script>
window.document$ = { subs: [], subscribe: function (f) { this.subs.push(f); f(); },
  emit: function () { this.subs.forEach(function (f) { f(); }); } };
</script>"""


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


def _load_fixture() -> Any:
    spec = importlib.util.spec_from_file_location("konum_export_banks_browser", FIXTURE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def study_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, Any]]]:
    """Serve the fixture page; yields (base URL, the cards' data)."""
    folder = tmp_path_factory.mktemp("study")
    fx = _load_fixture()
    banks = fx.make_banks()
    data = cards_json(build_cards(banks, fx.make_concretes(banks, seed=1), math="mathml"))
    block = environment().get_template("quiz/study.html.j2").render(data=script_json(data))
    for name in ("flashcards.js", "flashcards.css"):
        shutil.copy(ASSETS / name, folder / name)
    (folder / "index.html").write_text(PAGE.format(stub="", block=block), encoding="utf-8")
    (folder / "instant.html").write_text(
        PAGE.format(stub=DOCUMENT_STUB, block=block), encoding="utf-8"
    )
    handler = functools.partial(_Quiet, directory=str(folder))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/", data
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} not found")
    with playwright_sync.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def page(chromium: Any, study_site: tuple[str, dict[str, Any]]) -> Iterator[Any]:
    """A fresh page (own localStorage); fails the test on console errors or outside requests."""
    base, _ = study_site
    context = chromium.new_context()
    page = context.new_page()
    errors: list[str] = []
    requests: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("request", lambda r: requests.append(r.url))
    page.goto(base + "index.html")
    page.wait_for_selector(".konum-study__card[data-key]")
    yield page
    context.close()
    assert errors == []
    assert requests and all(url.startswith(base) for url in requests), requests


def shown_key(page: Any) -> str:
    return str(page.get_attribute(".konum-study__card", "data-key"))


def boxes(page: Any) -> dict[str, int]:
    state = page.evaluate(f"JSON.parse(localStorage.getItem('{STORE}') || 'null')")
    return {key: entry[0] for key, entry in (state or {}).get("cards", {}).items()}


def test_flip_grade_and_reload_keeps_boxes(
    page: Any, study_site: tuple[str, dict[str, Any]]
) -> None:
    _, data = study_site
    cards = data["cards"]
    status = page.locator(".konum-study__status")
    back = page.locator(".konum-study__back")

    first = shown_key(page)
    assert first == cards[0]["key"]  # all in box 1: the first card in order
    assert back.is_hidden() and "Question side" in status.text_content()
    assert page.locator(".konum-study__good").is_disabled()

    page.keyboard.press("2")  # grading before the answer shows does nothing
    assert shown_key(page) == first and boxes(page) == {}

    page.keyboard.press("Space")
    assert back.is_visible() and status.text_content() == "Answer side."
    assert page.locator(".konum-study__flip").get_attribute("aria-expanded") == "true"
    page.keyboard.press("2")
    assert boxes(page) == {first: 2}
    second = shown_key(page)
    assert second != first and back.is_hidden()
    assert "Good: box 2" in status.text_content()

    page.click(".konum-study__flip")
    page.click(".konum-study__again")
    assert boxes(page) == {first: 2, second: 1}
    third = shown_key(page)
    assert third not in (first, second)  # unseen box-1 cards come before the one just missed

    page.reload()
    page.wait_for_selector(".konum-study__card[data-key]")
    assert boxes(page) == {first: 2, second: 1}
    assert shown_key(page) == third
    progress = page.locator(".konum-study__progress")
    assert progress.text_content() == f"2 of {len(cards)} seen, 1 known"


def test_filter_by_lesson_and_progress(page: Any, study_site: tuple[str, dict[str, Any]]) -> None:
    _, data = study_site
    deck = data["decks"][1]
    in_deck = [c["key"] for c in data["cards"] if c["deck"] == deck]
    assert 1 < len(in_deck) < len(data["cards"])

    page.select_option(".konum-study__filter", deck)
    seen = []
    for _ in range(len(in_deck) + 1):  # every card to box 2, then the first one on to box 3
        key = shown_key(page)
        assert key in in_deck
        assert deck in page.locator(".konum-study__meta").text_content()
        seen.append(key)
        page.keyboard.press("Space")
        page.keyboard.press("2")
    assert sorted(seen[:-1]) == sorted(in_deck) and seen[-1] == seen[0]
    progress = page.locator(".konum-study__progress")
    n = len(in_deck)
    assert progress.text_content() == f"{n} of {n} seen, {n} known"
    assert progress.get_attribute("title") == f"Cards per box: 1: 0, 2: {n - 1}, 3: 1, 4: 0, 5: 0"

    page.reload()
    page.wait_for_selector(".konum-study__card[data-key]")
    assert page.input_value(".konum-study__filter") == deck  # the filter is remembered
    assert progress.text_content() == f"{n} of {n} seen, {n} known"
    page.select_option(".konum-study__filter", "")
    assert progress.text_content() == f"{n} of {len(data['cards'])} seen, {n} known"


def test_progress_moves_from_the_first_card(
    page: Any, study_site: tuple[str, dict[str, Any]]
) -> None:
    """A first session: every grade moves the line (seen), every Good too (known); the
    line says in words what it counts, and the help below says what the words mean."""
    _, data = study_site
    total = len(data["cards"])
    progress = page.locator(".konum-study__progress")
    assert progress.text_content() == f"0 of {total} seen, 0 known"
    for key, seen, known in (("2", 1, 1), ("1", 2, 1), ("2", 3, 2)):
        page.keyboard.press("Space")
        page.keyboard.press(key)
        assert progress.text_content() == f"{seen} of {total} seen, {known} known"
    help_text = page.locator(".konum-study__help").text_content()
    assert "Seen counts the cards you have graded" in help_text
    assert "known those you last graded Good" in help_text


def test_keyboard_and_screen_reader_hooks(page: Any) -> None:
    status = page.locator(".konum-study__status")
    assert status.get_attribute("aria-live") == "polite"
    assert page.get_attribute(".konum-study__card", "aria-label") == "Flashcard"
    assert page.locator("label:has(select.konum-study__filter)").count() == 1

    page.focus(".konum-study__flip")
    page.keyboard.press("Enter")
    assert page.locator(".konum-study__back").is_visible()
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")  # Again, then Good
    assert page.evaluate("document.activeElement.className").endswith("konum-study__good")
    key = shown_key(page)
    page.keyboard.press("Space")  # Space on a focused button activates it (and flips nothing)
    assert shown_key(page) != key and boxes(page) == {key: 2}
    assert page.evaluate("document.activeElement.className").endswith("konum-study__flip")

    page.focus(".konum-study__filter")
    page.keyboard.press("Space")  # a focused field keeps its own keys
    assert page.locator(".konum-study__back").is_hidden()


def test_math_renders_as_mathml(page: Any) -> None:
    page.select_option(".konum-study__filter", "Sinusoidal encoding")
    assert page.locator(".konum-study__front math").count() >= 1
    assert "\\(" not in page.locator(".konum-study__card").inner_text()


def test_instant_navigation_mounts_once(
    chromium: Any, study_site: tuple[str, dict[str, Any]]
) -> None:
    base, _ = study_site
    context = chromium.new_context()
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(base + "instant.html")
    page.wait_for_selector(".konum-study__card[data-key]")
    page.evaluate("document$.emit(); document$.emit()")
    page.add_script_tag(url=base + "flashcards.js")  # the script re-runs on a page change
    page.evaluate("document$.emit()")
    assert page.locator(".konum-study__card").count() == 1
    assert page.evaluate("document$.subs.length") == 1
    page.keyboard.press("Space")
    assert page.locator(".konum-study__back").is_visible()  # one listener: flipped once
    context.close()
    assert errors == []


def test_cloze_card_shows_the_filled_text_instead_of_the_front(page: Any) -> None:
    for _ in range(20):
        if shown_key(page) == "question:sin-fill-even":
            break
        page.keyboard.press("Space")
        page.keyboard.press("2")
    assert shown_key(page) == "question:sin-fill-even"
    front = page.locator(".konum-study__front")
    assert front.locator("code .konum-cloze").inner_text() == "[…]"
    page.keyboard.press("Space")
    assert front.is_hidden()
    assert page.locator(".konum-study__back code mark").inner_text() == "2"
    page.keyboard.press("Space")
    assert front.is_visible() and page.locator(".konum-study__back").is_hidden()


@pytest.mark.parametrize(("links", "where"), [("after", "below"), ("before", "above"), ("", "")])
def test_unreadable_cards_point_to_the_downloads_where_they_are(
    chromium: Any, tmp_path: Path, links: str, where: str
) -> None:
    """Broken card data: the widget says so, and sends the reader to the page's download
    links in the direction they are (or to none when the page has none)."""
    block = environment().get_template("quiz/study.html.j2").render(data="{not json")
    assert "JavaScript" in block and "below" not in block and "above" not in block
    anchor = '<p><a href="downloads/konum.apkg" download>konum.apkg</a></p>'
    body = {"after": block + anchor, "before": anchor + block, "": block}[links]
    script = (ASSETS / "flashcards.js").read_text(encoding="utf-8")
    page = chromium.new_page()
    try:
        page.set_content(f"<main>{body}</main><script>{script}</script>")
        message = page.locator(".konum-study__error")
        assert message.text_content().startswith("The flashcards could not be read (")
        tail = f" Use the downloads {where} instead." if where else ")."
        assert message.text_content().endswith(tail)
    finally:
        page.close()
