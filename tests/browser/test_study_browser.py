"""The study page's widget (templates/assets/flashcards.js) in a real Chromium.

A standalone page in a temporary folder holds the study block as konum renders it (the cards
of the export test banks, ``tests/fixtures/export_banks/banks.py``, as JSON inside the page,
seed 1; ``seed2.html`` the same banks drawn with seed 2), the interface texts and the static
JS and CSS. A local ``http.server`` thread on 127.0.0.1 serves it; every test checks that no
request leaves that server and that the console stays clean. The scheduling is checked
against the Python reference, ``fsrs`` (py-fsrs) with its default parameters and no fuzz:
random histories reviewed by both, and a week of reviews through the page under a clock the
test sets.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import random
import shutil
import threading
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from konum.exports.text import cards_json
from konum.paths import TEMPLATES_DIR
from konum.quiz import messages_html
from konum.render import environment, script_json
from tests.helpers import build_cards

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
STORE = "konum-study-v2"
EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
START = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)  # a Monday, 09:00 (UTC pages)

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Study</title>
<link rel="icon" href="data:,"><link rel="stylesheet" href="flashcards.css"></head>
<body><main>{stub}
{block}
{messages}
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
def study_folder(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """The fixture pages in a folder: (folder, the cards' data of index.html)."""
    folder = tmp_path_factory.mktemp("study")
    fx = _load_fixture()
    banks = fx.make_banks()
    data = cards_json(build_cards(banks, fx.make_concretes(banks, seed=1), math="mathml"))
    again = cards_json(build_cards(banks, fx.make_concretes(banks, seed=2), math="mathml"))
    again["cards"] = again["cards"][1:]  # a card removed from the course
    template = environment().get_template("quiz/study.html.j2")
    block = template.render(data=script_json(data))
    texts = messages_html("en", ["study"])
    for name in ("flashcards.js", "flashcards.css"):
        shutil.copy(ASSETS / name, folder / name)
    pages = {
        "index.html": PAGE.format(stub="", block=block, messages=texts),
        "instant.html": PAGE.format(stub=DOCUMENT_STUB, block=block, messages=texts),
        "seed2.html": PAGE.format(
            stub="", block=template.render(data=script_json(again)), messages=texts
        ),
    }
    for name, html in pages.items():
        (folder / name).write_text(html, encoding="utf-8")
    return folder, data


@pytest.fixture(scope="module")
def study_site(study_folder: tuple[Path, dict[str, Any]]) -> Iterator[tuple[str, dict[str, Any]]]:
    """Serve the fixture pages; yields (base URL, the cards' data)."""
    folder, data = study_folder
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
    context = chromium.new_context(timezone_id="UTC")
    page = context.new_page()
    page.clock.set_fixed_time(START)
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


def stored(page: Any) -> dict[str, Any]:
    state = page.evaluate(f"JSON.parse(localStorage.getItem('{STORE}') || 'null')")
    return dict((state or {}).get("cards", {}))


def ms(when: datetime) -> int:
    return (when - EPOCH) // timedelta(milliseconds=1)


def reference(reviews: list[tuple[int, int]]) -> list[tuple[int, int | None, float, float, int]]:
    """py-fsrs on ``reviews`` ((time in ms, grade 1-4), in order): (state, step, stability,
    difficulty, due in ms) after each, as flashcards.js stores them."""
    fsrs = pytest.importorskip("fsrs")
    scheduler = fsrs.Scheduler(enable_fuzzing=False)
    card = fsrs.Card(card_id=1)
    out = []
    for time, grade in reviews:
        when = EPOCH + timedelta(milliseconds=time)
        card, _ = scheduler.review_card(card, fsrs.Rating(grade), when)
        out.append((int(card.state), card.step, card.stability, card.difficulty, ms(card.due)))
    return out


def same_schedule(got: list[Any], want: list[Any]) -> bool:
    return len(got) == len(want) and all(
        (g[0], g[1], g[4]) == (w[0], w[1], w[4])
        and g[2] == pytest.approx(w[2], rel=1e-12)
        and g[3] == pytest.approx(w[3], rel=1e-12)
        for g, w in zip(got, want, strict=True)
    )


def test_fsrs_matches_the_python_reference_on_random_histories(page: Any) -> None:
    """300 random histories (grades, and reviews early, on time and late, at any time of
    day): the port gives the reference's states, steps and due dates to the millisecond, and
    its stabilities and difficulties to 12 digits."""
    rng = random.Random(24)
    histories: list[list[tuple[int, int]]] = []
    for _ in range(300):
        time, reviews = ms(START) + rng.randrange(10**10), []
        for _ in range(rng.randint(1, 15)):
            grade = rng.choice((1, 2, 3, 3, 3, 4))
            reviews.append((time, grade))
            due = reference(reviews)[-1][4]
            time += max(1, int((due - time) * rng.uniform(0.3, 2.5)))
            time += rng.choice((0, rng.randrange(86_400_000)))
        histories.append(reviews)
    got = page.evaluate(
        """hs => hs.map(h => { let c = null; return h.map(([time, grade]) => {
             c = konumStudy.fsrs.review(c, grade, time);
             return [c.state, c.step, c.s, c.d, c.due]; }); })""",
        histories,
    )
    bad = [h for h, g in zip(histories, got, strict=True) if not same_schedule(g, reference(h))]
    assert bad == [], f"{len(bad)} of 300 histories differ, first {bad[:1]}"
    assert sum(len(h) for h in histories) > 1500


def test_a_scripted_week_gives_the_reference_due_dates(
    page: Any, study_site: tuple[str, dict[str, Any]]
) -> None:
    """Seven mornings of study through the page (keyboard only, three new cards a day, the
    clock set by the test): each card's due date, stability and difficulty are the
    reference's for the grades it got; due cards come before new ones; each button's
    interval is the one its grade gives."""
    page.fill(".konum-study__limit", "3")
    page.dispatch_event(".konum-study__limit", "change")
    done: dict[str, list[tuple[int, int]]] = {}
    pattern = [3, 3, 1, 4, 2, 3, 3]
    for day in range(7):
        now = START + timedelta(days=day)
        page.clock.set_fixed_time(now)
        page.reload()
        page.wait_for_selector(".konum-study")
        for turn in range(40):
            key = page.get_attribute(".konum-study__card", "data-key")
            if key is None:
                break
            state, picked = stored(page), ms(now)  # the card was chosen at this time
            if any(e["due"] <= picked for e in state.values()):  # due cards before new ones
                assert key in state and state[key]["due"] <= picked, (day, key)
            now += timedelta(minutes=25)  # past the learn-ahead limit of the next step
            page.clock.set_fixed_time(now)
            page.keyboard.press("Space")
            grade = pattern[(turn + day) % len(pattern)]
            interval = page.get_attribute(
                f".konum-study__grade >> nth={grade - 1}", "data-interval"
            )
            page.keyboard.press(str(grade))
            done.setdefault(key, []).append((ms(now), grade))
            assert reference(done[key])[-1][4] - ms(now) == int(float(interval))
        else:
            pytest.fail("the queue did not empty in a morning")
    state = stored(page)
    cards = len(study_site[1]["cards"])
    assert set(state) == set(done) and len(done) == min(21, cards)  # three new cards a day
    for key, reviews in done.items():
        want = reference(reviews)[-1]
        entry = state[key]
        got = (entry["state"], entry["step"], entry["s"], entry["d"], entry["due"])
        assert same_schedule([got], [want]), key
        assert entry["log"] == [list(r) for r in reviews]
        assert entry["first"] == reviews[0][0]
    assert any(len(r) > 2 for r in done.values())  # cards came back on later days


def test_grades_wait_for_the_answer_and_speak_their_intervals(page: Any) -> None:
    status = page.locator(".konum-study__status")
    assert status.get_attribute("aria-live") == "polite"
    assert page.get_attribute(".konum-study__card", "aria-label") == "Flashcard"
    assert page.locator("label:has(select.konum-study__filter)").count() == 1
    assert page.locator("label:has(input.konum-study__limit)").count() == 1
    first = shown_key(page)
    assert "New card from" in status.text_content()
    page.keyboard.press("3")  # grading before the answer shows does nothing
    assert shown_key(page) == first and stored(page) == {}
    assert page.locator(".konum-study__good").is_disabled()

    page.keyboard.press("Space")
    assert page.locator(".konum-study__back").is_visible()
    assert status.text_content() == (
        "Answer side. Again 1 minute, Hard 6 minutes, Good 10 minutes, Easy 8 days."
    )
    labels = page.locator(".konum-study__interval").all_text_contents()
    assert labels == ["1 min", "6 min", "10 min", "8 d"]
    shortcuts = page.locator(".konum-study__grade").evaluate_all(
        "bs => bs.map(b => b.getAttribute('aria-keyshortcuts'))"
    )
    assert shortcuts == ["1", "2", "3", "4"]
    page.keyboard.press("4")
    assert stored(page)[first]["state"] == 2
    assert status.text_content().startswith("Easy: next review in 8 days. New card from")

    page.focus(".konum-study__flip")
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")  # Again, then Hard
    second = shown_key(page)
    page.keyboard.press("Space")  # Space on a focused button activates it (and flips nothing)
    assert stored(page)[second]["step"] == 0 and shown_key(page) != second
    assert page.evaluate("document.activeElement.className").endswith("konum-study__flip")
    page.focus(".konum-study__filter")
    page.keyboard.press("Space")  # a focused field keeps its own keys
    assert page.locator(".konum-study__back").is_hidden()


def test_new_cards_stop_at_the_daily_limit_and_learning_cards_come_back(page: Any) -> None:
    progress = page.locator(".konum-study__progress")
    page.fill(".konum-study__limit", "2")
    page.dispatch_event(".konum-study__limit", "change")
    page.keyboard.press("Space")  # the field has focus and keeps its keys
    assert page.locator(".konum-study__back").is_hidden()
    page.evaluate("document.activeElement.blur()")
    page.keyboard.press("Space")  # nothing in the widget has focus: Space scrolls the page
    assert page.locator(".konum-study__back").is_hidden()
    page.focus(".konum-study__card")
    assert progress.text_content().startswith("0 due, 2 new today, 0 of ")
    keys = []
    for _ in range(2):
        keys.append(shown_key(page))
        page.keyboard.press("Space")
        page.keyboard.press("1")  # Again: back in a minute (within the learn-ahead limit)
    assert shown_key(page) == keys[0]  # nothing new left today: the learning card, early
    page.keyboard.press("Space")
    page.keyboard.press("4")
    page.keyboard.press("Space")
    page.keyboard.press("4")
    assert page.get_attribute(".konum-study__card", "data-key") is None
    assert page.locator(".konum-study__front").text_content() == (
        "Nothing more to study now. The next card is due in 1 day."
    )
    assert progress.text_content().startswith("0 due, 0 new today, 2 of ")
    page.clock.set_fixed_time(START + timedelta(days=1))
    page.reload()
    page.wait_for_selector(".konum-study__card[data-key]")
    assert shown_key(page) in keys  # a new day: the two cards are due, before two new ones
    assert progress.text_content().startswith("2 due, 2 new today, 2 of ")


def test_a_new_seed_keeps_histories_and_drops_removed_cards(
    page: Any, study_site: tuple[str, dict[str, Any]]
) -> None:
    """seed2.html is the course rebuilt with another seed and one card fewer: every card
    keeps its key (a computed card per variant slot), so its history stays, and the
    removed card's entry is neither shown nor counted, nor an error."""
    base, data = study_site
    first = shown_key(page)
    assert first == data["cards"][0]["key"]
    page.keyboard.press("Space")
    page.keyboard.press("4")
    second = shown_key(page)
    page.keyboard.press("Space")
    page.keyboard.press("4")
    page.goto(base + "seed2.html")
    page.wait_for_selector(".konum-study__card[data-key]")
    total = len(data["cards"]) - 1
    assert page.locator(".konum-study__progress").text_content() == (
        f"0 due, {total - 1} new today, 1 of {total} studied"
    )
    assert shown_key(page) not in (first, second)
    assert set(stored(page)) == {first, second}  # kept, for a course that shows it again
    html = page.request.get(base + "seed2.html").text()
    again = json.loads(html.split('class="konum-cards">')[1].split("</script>")[0])
    variants = {c["key"]: c["front"] for c in again["cards"] if ":variant:" in c["key"]}
    before = {c["key"]: c["front"] for c in data["cards"] if c["key"] in variants}
    assert variants and set(before) == set(variants)  # the same slots, other numbers
    assert any(before[k] != variants[k] for k in variants)


def test_math_renders_as_mathml(page: Any) -> None:
    page.select_option(".konum-study__filter", "Sinusoidal encoding")
    assert page.locator(".konum-study__front math").count() >= 1
    assert "\\(" not in page.locator(".konum-study__card").inner_text()


def test_the_lesson_filter_is_remembered(page: Any, study_site: tuple[str, dict[str, Any]]) -> None:
    _, data = study_site
    deck = data["decks"][1]
    in_deck = [c["key"] for c in data["cards"] if data["decks"][c["deck"]] == deck]
    page.select_option(".konum-study__filter", deck)
    assert shown_key(page) in in_deck and deck in page.locator(".konum-study__meta").text_content()
    page.reload()
    page.wait_for_selector(".konum-study__card[data-key]")
    assert page.input_value(".konum-study__filter") == deck
    assert (
        page.locator(".konum-study__progress")
        .text_content()
        .endswith(f"0 of {len(in_deck)} studied")
    )


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


def test_works_from_a_folder_on_disk(chromium: Any, study_folder: tuple[Path, Any]) -> None:
    context = chromium.new_context()
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(study_folder[0].as_uri() + "/index.html")
    page.wait_for_selector(".konum-study__card[data-key]")
    key = shown_key(page)
    page.keyboard.press("Space")
    page.keyboard.press("3")
    page.reload()
    page.wait_for_selector(".konum-study__card[data-key]")
    assert key in stored(page)
    context.close()
    assert errors == []


def test_cloze_card_shows_the_filled_text_instead_of_the_front(page: Any) -> None:
    page.select_option(".konum-study__filter", "Sinusoidal encoding")
    for _ in range(20):
        if shown_key(page) == "question:sin-fill-even":
            break
        page.keyboard.press("Space")
        page.keyboard.press("4")
    assert shown_key(page) == "question:sin-fill-even"
    front = page.locator(".konum-study__front")
    assert front.locator("code .konum-cloze").inner_text() == "[…]"
    assert front.locator("mark").count() == 0 and "Even columns" not in front.inner_text()
    page.keyboard.press("Space")
    assert front.is_hidden()
    assert page.locator(".konum-study__back code mark").inner_text() == "2"
    assert "Even columns" in page.locator(".konum-study__back").inner_text()  # the extra
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
    body += messages_html("en", ["study"])
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
