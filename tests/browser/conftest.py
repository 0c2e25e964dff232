"""Fixtures for the real-browser quiz tests (Playwright driving Debian's Chromium).

* ``site`` (session): a standalone folder with ``index.html`` = the sample quiz from
  ``tests/quiz_samples.py`` rendered by :func:`konum.render.render_quiz`, the static
  ``quiz.js`` / ``quiz.css``, and Material's own stylesheets (copied from the installed theme)
  so that colours, fonts and contrast are those of the real site. ``twice.html`` loads the
  script twice under a fake Material ``document$`` (idempotent mounting).
* ``server`` (session): a ``http.server`` thread on 127.0.0.1 (free port) serving ``site``;
  stopped at the end of the session. Yields the base URL.
* ``browser`` (module): Chromium at ``/usr/bin/chromium``, headless, no network extras.
* ``quiz`` (function): a fresh context and page with every request recorded (anything not on
  127.0.0.1 is aborted) and console errors / page errors collected; at teardown it asserts
  that there were none of either. ``quiz.open(name="index.html")`` loads a page.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import os
import shutil
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, for quiz_samples

import quiz_samples as samples

from konum.quiz import messages_html
from tests.helpers import render_quiz

playwright_sync = pytest.importorskip("playwright.sync_api")

REPO = Path(__file__).resolve().parents[2]
ASSETS = REPO / "templates" / "assets"
CHROMIUM = "/usr/bin/chromium"
#: The learner-state script, which the quiz, overview and progress scripts read through.
STATE = '<script src="assets/konum/state.js"></script>\n'
#: The quiz's page controls, then each built-in type's front-end part, in a page's order.
QUIZ_FILES = (ASSETS / "quiz.js", *sorted((ASSETS / "types").glob("*.js")))


def quiz_source() -> str:
    """The quiz's scripts as one text: quiz.js, then the parts that define themselves
    through it (a page carries them as separate scripts in this order)."""
    return "\n".join(path.read_text(encoding="utf-8") for path in QUIZ_FILES)


def copy_asset(name: str, folder: Path) -> None:
    """Copy ``templates/assets/<name>`` into ``folder``; ``quiz.js`` as :func:`quiz_source`."""
    if name == "quiz.js":
        (folder / name).write_text(quiz_source(), encoding="utf-8")
    else:
        shutil.copy(ASSETS / name, folder / name)


CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip

PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>konum quiz fixture</title>
{material}
<link rel="stylesheet" href="assets/konum/quiz.css">
{head}
</head>
<body dir="ltr" data-md-color-scheme="default" data-md-color-primary="indigo"
 data-md-color-accent="indigo">
<div class="md-container"><main class="md-main"><div class="md-main__inner md-grid">
<div class="md-content"><article class="md-content__inner md-typeset">
<h1>Sinusoidal encoding</h1>
<p>A page with a quiz, rendered by konum.</p>
{quiz}
{scripts}
</article></div></div></main></div>
</body>
</html>
"""

# A stand-in for Material's document$ (an RxJS ReplaySubject(1) emitting on each page load).
FAKE_DOCUMENT = """<script>
window.document$ = {subs: [], last: null,
  subscribe: function (fn) { this.subs.push(fn); if (this.last) fn(this.last); },
  next: function (d) { this.last = d; this.subs.forEach(function (fn) { fn(d); }); }};
document.addEventListener("DOMContentLoaded", function () { window.document$.next(document); });
</script>"""


def _material_css(dest: Path) -> str:
    try:
        import material
    except ImportError:  # pragma: no cover - the theme is a project dependency
        return ""
    sheets = Path(material.__file__).parent / "templates" / "assets" / "stylesheets"
    links = []
    for pattern in ("main.*.min.css", "palette.*.min.css"):
        for css in sorted(sheets.glob(pattern)):
            shutil.copy(css, dest / css.name)
            links.append(f'<link rel="stylesheet" href="material/{css.name}">')
    return "\n".join(links)


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("konum-site")
    (root / "material").mkdir()
    (root / "assets" / "konum").mkdir(parents=True)
    for name in ("state.js", "quiz.js", "quiz.css"):
        copy_asset(name, root / "assets" / "konum")
    material = _material_css(root / "material")
    quiz = render_quiz(samples.all_samples(), samples.QUIZ_ID, title="Sinusoidal encoding")
    quiz += messages_html("en", ["quiz"])  # as the extension adds them to a quiz's page
    script = STATE + '<script src="assets/konum/quiz.js"></script>'
    (root / "index.html").write_text(
        PAGE.format(material=material, head="", quiz=quiz, scripts=script), encoding="utf-8"
    )
    (root / "twice.html").write_text(
        PAGE.format(
            material=material, head=FAKE_DOCUMENT, quiz=quiz, scripts=script + "\n" + script
        ),
        encoding="utf-8",
    )
    return root


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@contextlib.contextmanager
def serve_folder(folder: Path) -> Iterator[str]:
    """Serve ``folder`` on a free port of 127.0.0.1 for the ``with`` block; yields its URL."""
    handler = functools.partial(_QuietHandler, directory=str(folder))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join()


@pytest.fixture(scope="session")
def server(site: Path) -> Iterator[str]:
    with serve_folder(site) as url:
        yield url


def settle_colours(page: Any) -> None:
    """Wait until Material's colour transitions into a new scheme have run: read mid-way,
    code tokens are neither scheme's colour (axe then flags their contrast)."""
    page.evaluate("() => Promise.all(document.getAnimations().map(a => a.finished))")


def set_scheme(page: Any, scheme: str) -> None:
    """Switch Material's colour scheme, its colours settled (:func:`settle_colours`)."""
    page.evaluate("s => document.body.setAttribute('data-md-color-scheme', s)", scheme)
    settle_colours(page)


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """Module-scoped: only one sync Playwright may run per thread, and other test modules
    here start their own; module scope stops ours before the next module begins."""
    if not Path(CHROMIUM).exists():
        # On a developer's machine without Debian's chromium the browser tests are skipped;
        # in CI (.ci/run installs it) a missing browser must fail, never pass silently.
        if os.environ.get("CI"):
            pytest.fail(f"no Chromium at {CHROMIUM}: .ci/run should have installed it")
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    with playwright_sync.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@dataclass
class QuizPage:
    """A page plus what it did: ``requests`` (URLs), ``errors`` (console and page errors)."""

    page: object
    base: str
    requests: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    blocked: list[str] = field(default_factory=list)

    def open(self, name: str = "index.html") -> object:
        self.page.goto(self.base + name)  # type: ignore[attr-defined]
        return self.page


@pytest.fixture
def quiz(browser: object, server: str) -> Iterator[QuizPage]:
    context = browser.new_context(viewport={"width": 1000, "height": 900})  # type: ignore[attr-defined]
    page = context.new_page()
    qp = QuizPage(page, server)

    def route(r: object) -> None:
        url = r.request.url  # type: ignore[attr-defined]
        qp.requests.append(url)
        if urlsplit(url).hostname == "127.0.0.1":
            r.continue_()  # type: ignore[attr-defined]
        else:
            qp.blocked.append(url)
            r.abort()  # type: ignore[attr-defined]

    context.route("**/*", route)
    page.on("console", lambda m: qp.errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: qp.errors.append(str(e)))
    try:
        yield qp
    finally:
        context.close()
    assert qp.errors == [], f"console errors: {qp.errors}"
    assert qp.blocked == [], f"requests leaving 127.0.0.1: {qp.blocked}"
