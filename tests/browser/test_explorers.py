"""The explorers of the built lessons in a real Chromium: their arithmetic against the core,
controls and read-out, axe-core in light and dark, phone width, no JavaScript, file:// and
Material's instant navigation.

The arithmetic test is the reference check the explorers promise: each one's functions,
exposed as ``window.konumExplorers[name]``, are evaluated in the page on a grid of parameters
and compared with :mod:`konum_pe.pe` (values to 1e-9, buckets and permutations exactly).

Pages come from the session's ``built_site`` (``konum build --seed 42``): from ``file://``
for most tests (the explorers need no server), from a ``http.server`` thread on 127.0.0.1 for
instant navigation, which Material runs only over HTTP with the pages in ``sitemap.xml`` (the
context answers it, as ``test_site_browser.py`` explains).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import numpy as np
import pytest
from playwright.sync_api import Page, expect

from konum_pe import pe
from tests.browser.conftest import serve_folder, set_scheme

pytestmark = pytest.mark.browser

#: A slider whose every step changes the read-out, per explorer.
READ_OUT_BY = {
    "sinusoidal": "column",
    "shift-rotation": "offset",
    "rope-layouts": "m",
    "t5-buckets": "relative",
    "alibi": "head",
    "context-extension": "pair",
}
#: The lesson that shows each explorer.
LESSON = {
    "sinusoidal": "lessons/02-sinusoidal.html",
    "shift-rotation": "lessons/05-rope.html",
    "rope-layouts": "lessons/05-rope.html",
    "t5-buckets": "lessons/04-relative.html",
    "alibi": "lessons/07-alibi.html",
    "context-extension": "lessons/06-extending-context.html",
}
MOUNTED = "[data-explorer][data-explorer-mounted]"


def close(got: Any, want: Any) -> None:
    np.testing.assert_allclose(np.asarray(got, dtype=float), want, rtol=1e-9, atol=1e-9)


class Watched:
    """A page whose console errors, page errors and requests are recorded."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.problems: list[str] = []
        self.requests: list[str] = []
        page.on("console", lambda m: self.problems.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.problems.append(str(e)))
        page.on("request", lambda r: self.requests.append(r.url))


@pytest.fixture(scope="module")
def served(built_site: Path) -> Iterator[str]:
    with serve_folder(built_site) as url:
        yield url


@pytest.fixture
def opened(browser: Any, built_site: Path, served: str) -> Iterator[Callable[..., Page]]:
    """``opened(path, width=1280, javascript=True, http=False)``: the built page in a fresh
    context, from file:// (or from the local server: axe-core reads the stylesheets, which
    Chromium refuses from file://); at teardown, no console or page errors and no request
    elsewhere."""
    contexts: list[tuple[Any, Watched, str]] = []

    def open_page(
        path: str, width: int = 1280, javascript: bool = True, http: bool = False
    ) -> Page:
        context = browser.new_context(
            viewport={"width": width, "height": 900}, java_script_enabled=javascript
        )
        watched = Watched(context.new_page())
        base = served if http else built_site.as_uri() + "/"
        contexts.append((context, watched, base))
        watched.page.goto(base + path)
        return watched.page

    yield open_page
    for context, watched, base in contexts:
        context.close()
        assert watched.problems == []
        assert all(u.startswith(base) for u in watched.requests), watched.requests


def mounted(page: Page, count: int | None = None) -> Page:
    expected = page.locator("[data-explorer]").count() if count is None else count
    assert expected >= 1
    expect(page.locator(MOUNTED)).to_have_count(expected)
    return page


# --- the arithmetic against the core ----------------------------------------------------------


def sinusoidal(page: Page) -> None:
    js = "window.konumExplorers.sinusoidal"
    for d in (1, 2, 3, 7, 8, 32, 64, 128):
        for base in (100.0, 10000.0, 500000.0):
            freq, waves, table = page.evaluate(
                f"([d, b]) => [{js}.frequencies(d, b), {js}.wavelengths(d, b), "
                f"{js}.table(150, d, b)]",
                [d, base],
            )
            close(freq, pe.sinusoidal_frequencies(d, base=base))
            close(waves, pe.sinusoidal_wavelengths(d, base=base))
            core = pe.sinusoidal(150, d, base=base)
            close(table, core)
            if d % 2 == 0:  # the dot product depends on the offset alone
                offsets = list(range(-149, 150))
                dots = page.evaluate(
                    f"([d, b, os]) => os.map(o => {js}.dot(d, b, o))", [d, base, offsets]
                )
                for p in (0, 40, 149):
                    valid = [i for i, o in enumerate(offsets) if 0 <= p + o < 150]
                    rows = core[[p + offsets[i] for i in valid]]
                    close(np.take(dots, valid), rows @ core[p])


def shift_rotation(page: Page) -> None:
    js = "window.konumExplorers['shift-rotation']"
    rng = np.random.default_rng(7)
    for d in (2, 8, 64, 128):
        pairs = sorted({0, 1 % (d // 2), d // 4, d // 2 - 1})
        for pair in pairs:
            positions = [0, 1, 3, 17, 100, 200]
            got = page.evaluate(
                f"([d, k, ps]) => [{js}.frequency(k, d), ps.map(p => {js}.point(p, k, d)),"
                f" ps.map(o => {js}.shiftBlock(o - 50, k, d))]",
                [d, pair, positions],
            )
            close(got[0], pe.rope_frequencies(d)[pair])
            close(got[0], pe.sinusoidal_frequencies(d)[pair])
            table = pe.sinusoidal(np.array(positions, dtype=float), d)
            close(got[1], table[:, 2 * pair : 2 * pair + 2])
            for o, block in zip(positions, got[2], strict=True):
                matrix = pe.sinusoidal_shift_matrix(o - 50, d)
                close(block, matrix[2 * pair : 2 * pair + 2, 2 * pair : 2 * pair + 2])
            q, k = rng.normal(size=2), rng.normal(size=2)
            for m, n in [(0, 0), (3, 5), (5, 3), (103, 105), (200, 150)]:
                score = page.evaluate(
                    f"([q, k, m, n, p, d]) => {js}.pairScore(q, k, m, n, p, d)",
                    [q.tolist(), k.tolist(), m, n, pair, d],
                )
                xq, xk = np.zeros(d), np.zeros(d)
                xq[2 * pair : 2 * pair + 2], xk[2 * pair : 2 * pair + 2] = q, k
                want = pe.rope(xq, m, layout="interleaved") @ pe.rope(xk, n, layout="interleaved")
                close(score, want)
                rotated = page.evaluate(f"([q, t]) => {js}.rotate(q, t)", [q.tolist(), m * 0.37])
                close(rotated, pe.rope(q, m * 0.37))  # d = 2: one pair, theta 1


def rope_layouts(page: Page) -> None:
    js = "window.konumExplorers['rope-layouts']"
    rng = np.random.default_rng(3)
    for d in (2, 4, 6, 8, 12, 16, 64, 128):
        perm = page.evaluate(f"d => {js}.permutation(d)", d)
        assert perm == pe.rope_layout_permutation(d).tolist()
        q, k = rng.normal(size=d), rng.normal(size=d)
        for layout in ("half", "interleaved"):
            for m in (0, 1, 5, 100, 4096):
                got = page.evaluate(f"([x, m, l]) => {js}.rope(x, m, l)", [q.tolist(), m, layout])
                close(got, pe.rope(q, m, layout=layout))
        for m, n in [(5, 2), (2, 5), (105, 102)]:
            half, permuted, wrong = page.evaluate(
                f"""([q, k, m, n]) => {{
                    const K = {js}, p = K.permutation(q.length);
                    return [K.score(q, k, m, n, "half"),
                            K.score(K.permute(q, p), K.permute(k, p), m, n, "interleaved"),
                            K.score(q, k, m, n, "interleaved")];
                }}""",
                [q.tolist(), k.tolist(), m, n],
            )
            idx = pe.rope_layout_permutation(d)
            close(half, pe.rope(q, m, layout="half") @ pe.rope(k, n, layout="half"))
            close(
                permuted,
                pe.rope(q[idx], m, layout="interleaved") @ pe.rope(k[idx], n, layout="interleaved"),
            )
            close(wrong, pe.rope(q, m, layout="interleaved") @ pe.rope(k, n, layout="interleaved"))
            close(permuted, half)


def t5_buckets(page: Page) -> None:
    """Every even bucket count of the explorer, several maximum distances (all of them for
    T5's 32 buckets), both directions, key - query from -1100 to 1100: the core's bucket
    everywhere. Both take the correctly rounded float32 logarithm, so they agree on a
    boundary such as num_buckets 72 causal, max_distance 100, distance 60 on any CPU."""
    js = "window.konumExplorers['t5-buckets']"
    rel = np.arange(-1100, 1101)
    configs = []
    for nb in range(4, 129, 2):
        for bidirectional in (True, False):
            e = (nb // 2 if bidirectional else nb) // 2
            fars = range(e + 1, 1025) if nb == 32 else {e + 1, 2 * e, 100, 128, 500, 1024}
            configs += [(bidirectional, nb, far) for far in sorted(fars) if far > e]
    configs.append((False, 72, 100))
    for start in range(0, len(configs), 200):
        chunk = configs[start : start + 200]
        got = page.evaluate(  # buckets as one character each: far quicker to hand over
            f"""([cs, lo, hi]) => cs.map(([bi, nb, far]) => {{
                const K = {js}, out = [];
                for (let r = lo; r <= hi; r++)
                    out.push(String.fromCharCode(48 + K.bucket(r, bi, nb, far)));
                return [out.join(""), K.exactBuckets(nb, bi), K.lastStart(bi, nb, far)];
            }})""",
            [chunk, int(rel[0]), int(rel[-1])],
        )
        for (bidirectional, nb, far), (buckets, exact, last_start) in zip(chunk, got, strict=True):
            kwargs = {"bidirectional": bidirectional, "num_buckets": nb, "max_distance": far}
            core = pe.t5_bucket(rel, **kwargs)
            mine = np.frombuffer(buckets.encode("latin-1"), dtype=np.uint8).astype(np.int64) - 48
            np.testing.assert_array_equal(mine, core, err_msg=str(kwargs))
            past = pe.t5_bucket(-np.arange(far + 1), **kwargs)
            assert exact == (nb // 2 if bidirectional else nb) // 2
            np.testing.assert_array_equal(past[:exact], np.arange(exact))  # a bucket each
            assert last_start == int(np.argmax(past == past.max()))


def alibi(page: Page) -> None:
    js = "window.konumExplorers.alibi"
    heads = list(range(1, 65))
    slopes = page.evaluate(f"hs => hs.map(h => {js}.slopes(h))", heads)
    for h, got in zip(heads, slopes, strict=True):
        np.testing.assert_array_equal(got, pe.alibi_slopes(h))
    for n in (1, 2, 7, 32):
        for num_heads in (1, 5, 8, 12, 64):
            core = pe.alibi_bias(n, num_heads)
            got = page.evaluate(
                f"""([n, hs]) => {js}.slopes(hs).map(s => {js}.bias(n, s).map(row => {{
                    const w = {js}.softmax(row);
                    return [row.map(x => isFinite(x) ? x : null), w];
                }}))""",
                [n, num_heads],
            )
            for h in range(num_heads):
                rows = got[h]
                bias = np.array([[np.nan if x is None else x for x in r[0]] for r in rows])
                np.testing.assert_array_equal(np.isnan(bias), np.isinf(core[h]))
                finite = np.isfinite(core[h])
                close(bias[finite], core[h][finite])
                close([r[1] for r in rows], pe.softmax(core[h], axis=-1))


def context_extension(page: Page) -> None:
    js = "window.konumExplorers['context-extension']"
    grid = [
        (d, base, method, factor, original)
        for d in (8, 64, 128, 256)
        for base in (100.0, 10000.0, 500000.0)
        for method in ("none", "linear", "ntk", "llama3", "yarn")
        for factor in (2.0, 8.0, 32.0)
        for original in (2048, 8192, 32768)
    ]
    got = page.evaluate(
        f"gs => gs.map(g => [{js}.frequencies(...g), {js}.wavelengths(...g)])",
        [list(g) for g in grid],
    )
    for (d, base, method, factor, original), (freq, waves) in zip(grid, got, strict=True):
        if method == "ntk":
            core = pe.rope_frequencies(d, base=base * factor ** (d / (d - 2)))
        else:
            scaling: dict[str, object] | None = {
                "none": None,
                "linear": {"rope_type": "linear", "factor": factor},
                "llama3": {
                    "rope_type": "llama3",
                    "factor": factor,
                    "low_freq_factor": 1.0,
                    "high_freq_factor": 4.0,
                    "original_max_position_embeddings": original,
                },
                "yarn": {
                    "rope_type": "yarn",
                    "factor": factor,
                    "original_max_position_embeddings": original,
                },
            }[method]
            core = pe.rope_frequencies(d, base=base, scaling=scaling)
        close(freq, core)
        np.testing.assert_allclose(waves, 2 * np.pi / core, rtol=1e-9)


CHECKS: dict[str, Callable[[Page], None]] = {
    "sinusoidal": sinusoidal,
    "shift-rotation": shift_rotation,
    "rope-layouts": rope_layouts,
    "t5-buckets": t5_buckets,
    "alibi": alibi,
    "context-extension": context_extension,
}


@pytest.mark.parametrize(
    "name",
    # One explorer in the quick suite, the others (whole grids) with the slow tests.
    [n if n == "shift-rotation" else pytest.param(n, marks=pytest.mark.slow) for n in CHECKS],
)
def test_numbers_match_the_core(opened: Callable[..., Page], name: str) -> None:
    page = mounted(opened(LESSON[name]))
    CHECKS[name](page)


# --- controls, read-out -----------------------------------------------------------------------


@pytest.mark.parametrize("name", list(LESSON))
def test_controls_are_labelled_keyboard_driven_and_read_out(
    opened: Callable[..., Page], name: str
) -> None:
    """Every control is a native input or select with a visible label; the arrow keys move a
    slider, its value beside it and the aria-live read-out follow, and the drawing changes."""
    page = mounted(opened(LESSON[name]))
    box = page.locator(f'[data-explorer="{name}"]')
    expect(box.locator(".konum-explorer__fallback")).to_be_hidden()
    readout = box.locator(".konum-explorer__readout")
    expect(readout).to_have_attribute("aria-live", "polite")
    controls = box.locator(".konum-explorer__controls input, .konum-explorer__controls select")
    assert controls.count() >= 4
    for i in range(controls.count()):
        control = controls.nth(i)
        label = box.locator(f'label[for="{control.get_attribute("id")}"]')
        expect(label).to_be_visible()
        assert label.inner_text().strip()
    slider = box.locator(f"input[type=range][name={READ_OUT_BY[name]}]")
    views = box.locator(".konum-explorer__views")
    before = (slider.input_value(), readout.inner_text(), views.inner_html())
    slider.focus()
    page.keyboard.press(
        "ArrowLeft" if slider.input_value() == slider.get_attribute("max") else "ArrowRight"
    )
    after = (slider.input_value(), readout.inner_text(), views.inner_html())
    assert after[0] != before[0]
    output = box.locator(f'output[for="{slider.get_attribute("id")}"]')
    expect(output).to_have_text(after[0])
    assert after[1] != before[1]
    assert after[2] != before[2]


def test_readouts_state_the_cores_numbers(opened: Callable[..., Page]) -> None:
    """What each explorer says at its starting values is what the core computes."""
    t5 = mounted(opened(LESSON["t5-buckets"])).locator(".konum-explorer__readout")
    far = pe.t5_bucket(-np.arange(200))
    expect(t5).to_contain_text(f"key − query = -20: bucket {pe.t5_bucket(-20)}, shared by")
    expect(t5).to_contain_text(f"from distance {int(np.argmax(far == 15))} on every key")
    slopes = pe.alibi_slopes(8)
    alibi = mounted(opened(LESSON["alibi"])).locator(".konum-explorer__readout")
    weights = pe.softmax(pe.alibi_bias(12, 8)[0][11])
    expect(alibi).to_contain_text(f"slope 1/{round(1 / slopes[0])}")
    expect(alibi).to_contain_text(f"the query itself gets {100 * weights[11]:.3g}%")
    sin = mounted(opened(LESSON["sinusoidal"])).locator(".konum-explorer__readout")
    table = pe.sinusoidal(32, 32)
    # an entry to four decimals, as the lesson's questions ask it
    expect(sin).to_contain_text(f"value {table[5, 6]:.4f}.")
    expect(sin).to_contain_text(f"= {float(f'{table[5] @ table[8]:.4g}'):g} for every p")


def test_hovering_the_heatmap_picks_a_cell(opened: Callable[..., Page]) -> None:
    page = mounted(opened(LESSON["sinusoidal"]))
    box = page.locator('[data-explorer="sinusoidal"]')
    heat = box.locator(".konum-explorer__views svg").first
    heat.scroll_into_view_if_needed()
    frame = heat.bounding_box()
    assert frame is not None
    scale = frame["width"] / 320  # viewBox units: the table spans x 34..314, y 4..204
    page.mouse.move(
        frame["x"] + (34 + 280 * 20.5 / 32) * scale, frame["y"] + (4 + 200 * 9.5 / 32) * scale
    )
    expect(box.locator("input[name=column]")).to_have_value("20")
    expect(box.locator("input[name=position]")).to_have_value("9")
    expect(box.locator(".konum-explorer__readout")).to_contain_text(
        "Position 9, column 20: sine of pair 10"
    )


# --- accessibility, phone width, no JavaScript ------------------------------------------------


@pytest.mark.slow
def test_axe_finds_nothing_in_light_and_dark(opened: Callable[..., Page]) -> None:
    """Every explorer of the course, in the light and the dark scheme (one page load each)."""
    from axe_playwright_python.sync_playwright import Axe

    found = {}
    for path in sorted(set(LESSON.values())):
        page = mounted(opened(path, http=True))
        for scheme in ("default", "slate"):
            set_scheme(page, scheme)
            result = Axe().run(
                page,
                context={"include": [["[data-explorer]"]]},
                options={"resultTypes": ["violations"]},
            )
            violations = [
                (v["id"], [n["target"] for n in v["nodes"]]) for v in result.response["violations"]
            ]
            if violations:
                found[f"{path} ({scheme})"] = violations
    assert found == {}


@pytest.mark.slow
def test_phone_width(opened: Callable[..., Page]) -> None:
    """At 390 px every explorer fits the column (nothing in it scrolls sideways), its controls
    wrap inside it, and the text of its drawings is at least 10 px high and inside it. (Some display
    formulas of the lessons are wider than a phone; that is the page's, not the explorers'.)"""
    for path in sorted(set(LESSON.values())):
        page = mounted(opened(path, width=390))
        boxes = page.evaluate(
            """() => [...document.querySelectorAll('[data-explorer]')].map(b => ({
            left: b.getBoundingClientRect().left,
            right: b.getBoundingClientRect().right,
            inner: b.scrollWidth - b.clientWidth,
            fields: Math.max(...[...b.querySelectorAll('.konum-explorer__field')].map(
                f => f.getBoundingClientRect().right)),
            text: Math.min(...[...b.querySelectorAll('.konum-explorer__views svg')].map(s =>
                12 * s.getBoundingClientRect().width / s.viewBox.baseVal.width)),
            labels: [...b.querySelectorAll('svg text')].filter(t => {
                const r = t.getBoundingClientRect(), o = b.getBoundingClientRect();
                return r.width && (r.left < o.left || r.right > o.right);
            }).map(t => t.textContent),
        }))"""
        )
        for box in boxes:
            assert box["left"] >= 0 and box["right"] <= 390, (path, box)
            assert box["inner"] == 0 and box["fields"] <= box["right"], (path, box)
            assert box["text"] >= 10, (path, box)
            assert box["labels"] == [], (path, box)


@pytest.mark.slow
def test_without_javascript_the_lessons_show_the_cores_figure(
    opened: Callable[..., Page],
) -> None:
    for path in sorted(set(LESSON.values())):
        page = opened(path, javascript=False)
        boxes = page.locator("[data-explorer]")
        assert boxes.count() >= 1
        for i in range(boxes.count()):
            box = boxes.nth(i)
            fallback = box.locator(".konum-explorer__fallback")
            expect(fallback).to_be_visible()
            expect(fallback.locator("svg[role=img], table").first).to_be_visible()
            expect(box.locator(".konum-explorer__controls")).to_have_count(0)


# --- instant navigation -----------------------------------------------------------------------


def test_instant_navigation_mounts_each_explorer_once(
    browser: Any, built_site: Path, served: str
) -> None:
    locs = "".join(
        f"<url><loc>{served}{p.relative_to(built_site).as_posix()}</loc></url>"
        for p in sorted(built_site.rglob("*.html"))
    )
    sitemap = f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{locs}</urlset>'
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    watched = Watched(context.new_page())
    page = watched.page

    def route(r: Any) -> None:
        url = urlsplit(r.request.url)
        if url.hostname != "127.0.0.1":
            r.abort()
        elif url.path == "/sitemap.xml":
            r.fulfill(status=200, content_type="application/xml", body=sitemap)
        else:
            r.continue_()

    def go(href: str, explorers: int) -> None:
        page.locator(f"nav.md-nav--primary a[href$='{href.split('/')[-1]}']").first.click()
        expect(page).to_have_url(re.compile(re.escape(href) + r"(#.*)?$"))
        expect(page.locator("[data-explorer]")).to_have_count(explorers)
        expect(page.locator(MOUNTED)).to_have_count(explorers)
        expect(page.locator(".konum-explorer__controls")).to_have_count(explorers)

    context.route("**/*", route)
    try:
        page.goto(served + "index.html")
        page.wait_for_load_state("networkidle")
        page.evaluate("window.__sameDocument = true")
        go(LESSON["shift-rotation"], 2)
        go(LESSON["t5-buckets"], 1)
        go(LESSON["shift-rotation"], 2)
        assert page.evaluate("window.__sameDocument") is True, "a full reload, not instant"
        assert page.evaluate("typeof window.konumExplorers['t5-buckets'].bucket") == "function"
        box = page.locator('[data-explorer="rope-layouts"]')
        slider = box.locator("input[name=m]")
        slider.focus()
        page.keyboard.press("ArrowRight")
        expect(box.locator("output[for$='-m']")).to_have_text("6")
    finally:
        context.close()
    assert watched.problems == []
