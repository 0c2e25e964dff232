"""Quiz start-up in a real browser: Debian's Chromium driven by Playwright.

What is measured on one quiz page (served by a local ``http.server`` thread on 127.0.0.1):

* ``mount``: from ``DOMContentLoaded`` (the navigation entry's ``domContentLoadedEventStart``)
  until every ``[data-question-id]`` element carries ``data-konum-mounted``, the attribute
  ``quiz.js`` sets at the end of ``mountQuestion`` once the question's listeners are attached
  (so it answers clicks). A ``MutationObserver`` installed before any page script notes the
  moment; mounting is synchronous, so its callback runs right after the mounting task.
* ``mount_only``: the time ``konumQuiz.mountAll`` takes on a fresh copy of the quiz inserted
  into the loaded page, i.e. quiz.js's own share, without Material's start-up.
* ``longest_task``: the longest main-thread task of the page load, from a Chromium trace
  (``RunTask`` events of the renderer's main thread) of one extra traced load, and per
  timed load the longest ``longtask`` entry (>= 50 ms; 0 when none) a ``PerformanceObserver``
  saw.

:func:`measure_pages` loads several pages in turns, for a comparison within one run.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import json
import re
import statistics
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

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

INIT_SCRIPT = """
(() => {
  const b = (window.__bench = { done: null, longtasks: [] });
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) b.longtasks.push(e.duration);
    }).observe({ type: "longtask", buffered: true });
  } catch (e) { /* no longtask support */ }
  new MutationObserver(() => {
    if (b.done !== null) return;
    const all = document.querySelectorAll("[data-question-id]").length;
    const mounted = document.querySelectorAll("[data-question-id][data-konum-mounted]").length;
    if (all > 0 && mounted === all) b.done = performance.now();
  }).observe(document, {
    subtree: true, attributes: true, attributeFilter: ["data-konum-mounted"],
  });
})();
"""

MOUNT_ONLY = """
() => {
  const quiz = document.querySelector("[data-konum-quiz]");
  const copy = quiz.cloneNode(true);
  copy.setAttribute("data-quiz-id", "bench-copy");
  quiz.parentNode.appendChild(copy);
  const t0 = performance.now();
  window.konumQuiz.mountAll(copy.parentNode);
  const t1 = performance.now();
  const n = copy.querySelectorAll("[data-question-id]").length;
  copy.remove();
  return { ms: t1 - t0, questions: n };
}
"""


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextlib.contextmanager
def serve(folder: Path) -> Iterator[str]:
    """Serve ``folder`` on 127.0.0.1 (a free port) in a thread; yields the base URL."""
    handler = functools.partial(_QuietHandler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def _renderer_mains(trace: bytes) -> tuple[list[dict[str, Any]], set[tuple[int, int]]]:
    """A Chromium trace's events and its renderer main threads, as (pid, tid)."""
    data = json.loads(trace)
    events = data["traceEvents"] if isinstance(data, dict) else data
    mains = {
        (e["pid"], e["tid"])
        for e in events
        if e.get("ph") == "M"
        and e.get("name") == "thread_name"
        and e.get("args", {}).get("name") == "CrRendererMain"
    }
    return events, mains


def _longest_run_task(trace: bytes) -> float:
    """Longest ``RunTask`` on a renderer main thread in a Chromium trace, in ms."""
    events, mains = _renderer_mains(trace)
    durations = [
        e.get("dur", 0) / 1000.0
        for e in events
        if e.get("ph") == "X" and e.get("name") == "RunTask" and (e["pid"], e["tid"]) in mains
    ]
    return max(durations, default=0.0)


def measure(site: Path, page: str, repeat: int = 5) -> dict[str, Any]:
    """Load ``site/page`` ``repeat`` times in fresh contexts; medians and mins in ms."""
    return measure_pages(site, [page], repeat)[page]


def measure_pages(site: Path, pages: Sequence[str], repeat: int = 5) -> dict[str, dict[str, Any]]:
    """Load each of ``pages`` (paths inside ``site``) ``repeat`` times in fresh contexts, the
    pages taking turns so that the machine's drift hits them alike; per page, medians and
    mins in ms."""
    from playwright.sync_api import sync_playwright

    runs: dict[str, dict[str, Any]] = {
        page: {"mount": [], "mount_only": [], "longtasks": [], "questions": 0, "errors": []}
        for page in pages
    }
    traces: dict[str, float] = {}
    with serve(site) as base, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            # One warm-up load each (disk cache of the server's files, V8 code cache off anyway).
            for run in range(repeat + 1):
                for page in pages:
                    r = runs[page]
                    context = browser.new_context()
                    page_ = context.new_page()
                    page_.on("pageerror", lambda exc, r=r: r["errors"].append(str(exc)))
                    page_.add_init_script(INIT_SCRIPT)
                    page_.goto(f"{base}/{page}", wait_until="load")
                    # A page without konum's scripts (a floor to compare with) mounts nothing.
                    page_.wait_for_function(
                        "window.__bench.done !== null || !window.konumQuiz", timeout=30000
                    )
                    page_.wait_for_timeout(100)  # long tasks that end the load
                    result = page_.evaluate(
                        """() => {
                          const nav = performance.getEntriesByType("navigation")[0];
                          return { dcl: nav.domContentLoadedEventStart, done: window.__bench.done,
                                   longtasks: window.__bench.longtasks,
                                   questions:
                                     document.querySelectorAll("[data-question-id]").length };
                        }"""
                    )
                    quiz = page_.evaluate("!!window.konumQuiz")
                    only = page_.evaluate(MOUNT_ONLY) if quiz else None
                    context.close()
                    if run == 0:
                        continue
                    if quiz:
                        r["mount"].append(result["done"] - result["dcl"])
                        r["mount_only"].append(only["ms"])
                    r["longtasks"].append(max(result["longtasks"], default=0.0))
                    r["questions"] = result["questions"]
            # One traced load each for the longest main-thread task.
            for page in pages:
                context = browser.new_context()
                page_ = context.new_page()
                browser.start_tracing(
                    page=page_,
                    categories=["devtools.timeline", "disabled-by-default-devtools.timeline"],
                )
                page_.goto(f"{base}/{page}", wait_until="load")
                page_.wait_for_timeout(500)
                traces[page] = _longest_run_task(browser.stop_tracing())
                context.close()
        finally:
            browser.close()
    return {
        page: {
            "questions": r["questions"],
            "mount_ms": r["mount"],
            "mount_median": statistics.median(r["mount"]) if r["mount"] else float("nan"),
            "mount_min": min(r["mount"], default=float("nan")),
            "mount_only_median": (
                statistics.median(r["mount_only"]) if r["mount_only"] else float("nan")
            ),
            "mount_only_min": min(r["mount_only"], default=float("nan")),
            "longtask_max_per_load_ms": r["longtasks"],
            "longtask_median_ms": statistics.median(r["longtasks"]),
            "longest_task_ms": traces[page],
            "page_errors": r["errors"],
        }
        for page, r in runs.items()
    }


#: Material's bundle and every script in the page: a long task is konum's when the script
#: it runs is one of konum's inline scripts (the page's own URL) rather than Material's file.
LESSON_INIT = """
(() => {
  const b = (window.__bench = { done: null, armed: null, longtasks: [] });
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) b.longtasks.push([e.startTime, e.duration]);
    }).observe({ type: "longtask", buffered: true });
  } catch (e) { /* no longtask support */ }
  new MutationObserver(() => {
    const quizzes = document.querySelectorAll("[data-konum-quiz]").length;
    const lines = document.querySelectorAll("[data-konum-quiz] > .konum-quiz-head .konum-score");
    /* quiz.js has run: every quiz has its score line */
    if (b.armed === null && quizzes > 0 && lines.length === quizzes) b.armed = performance.now();
    if (b.done !== null) return;
    const all = document.querySelectorAll("[data-question-id]").length;
    const mounted = document.querySelectorAll("[data-question-id][data-konum-mounted]").length;
    if (all > 0 && mounted === all) b.done = performance.now();
  }).observe(document, { subtree: true, childList: true, attributes: true,
                         attributeFilter: ["data-konum-mounted"] });
})();
"""

#: The trace events in which a script runs: its evaluation, a call from the event loop
#: (listeners, observers), a timer and an idle callback.
SCRIPT_EVENTS = {"EvaluateScript", "FunctionCall", "TimerFire", "FireIdleCallback"}


def _script_labels(html: str) -> list[tuple[int, str]]:
    """(1-based line, name) of each inline script of a page: konum's asset name
    (``data-konum-asset`` or the global it defines), else ``inline``."""
    labels = []
    for found in re.finditer(r"<script(?![^>]*\bsrc=)([^>]*)>(.{0,400})", html, re.DOTALL):
        attrs, head = found.group(1), found.group(2)
        named = re.search(r'data-konum-asset="([^"]+)"', attrs)
        defines = re.search(r"if\s*\(window\.(konum\w+)\)", head)
        name = named.group(1) if named else defines.group(1) if defines else "inline"
        labels.append((html.count("\n", 0, found.start()) + 1, name))
    return labels


def _own_tasks(trace: bytes, url: str, labels: list[tuple[int, str]]) -> dict[str, float]:
    """The longest run of each of the page's inline scripts in a trace, in ms, by name."""
    events, mains = _renderer_mains(trace)
    longest: dict[str, float] = {}
    for e in events:
        if e.get("ph") != "X" or e.get("name") not in SCRIPT_EVENTS:
            continue
        if (e["pid"], e["tid"]) not in mains:
            continue
        info = e.get("args", {}).get("data", {}) or {}
        if info.get("url") != url:
            continue
        line = (info.get("lineNumber") or 0) + (0 if e["name"] == "EvaluateScript" else 1)
        name = max((lab for lab in labels if lab[0] <= line), default=(0, "inline"))[1]
        longest[name] = max(longest.get(name, 0.0), e.get("dur", 0) / 1000.0)
    return longest


def lesson_load(
    site: Path, pages: Sequence[str], repeat: int = 5, cpu: float = 4.0
) -> dict[str, dict[str, Any]]:
    """Load each of ``pages`` ``repeat`` times in turns (after a warm-up), the CPU slowed
    ``cpu`` times (DevTools' throttling), then once traced. Per page, medians in ms from
    navigation start:

    * ``interactive``: the end of the load's last long task (>= 50 ms), and no earlier than
      quiz.js has run (every quiz has its score line; every question is then mounted or
      mounts at once when the reader reaches it): from then on a click on any question is
      answered without waiting for a long task;
    * ``all_mounted``: every question carries ``data-konum-mounted``;
    * ``dcl``: ``domContentLoadedEventStart``;
    * ``konum_task``: the longest run of one of konum's inline scripts in the traced load,
      and ``konum_tasks`` the same by script.
    """
    from playwright.sync_api import sync_playwright

    runs: dict[str, dict[str, list[float]]] = {
        page: {"interactive": [], "all_mounted": [], "dcl": [], "longest": []} for page in pages
    }
    errors: dict[str, list[str]] = {page: [] for page in pages}
    own: dict[str, dict[str, float]] = {}
    with serve(site) as base, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)

        def open_page(page: str) -> tuple[Any, Any]:
            context = browser.new_context()
            tab = context.new_page()
            cdp = context.new_cdp_session(tab)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": cpu})
            tab.on("pageerror", lambda exc, page=page: errors[page].append(str(exc)))
            tab.add_init_script(LESSON_INIT)
            return context, tab

        try:
            for run in range(repeat + 1):
                for page in pages:
                    context, tab = open_page(page)
                    tab.goto(f"{base}/{page}", wait_until="load")
                    tab.wait_for_function("window.__bench.done !== null", timeout=120000)
                    tab.wait_for_timeout(1500)  # long tasks after the last mount
                    r = tab.evaluate(
                        """() => {
                          const nav = performance.getEntriesByType("navigation")[0];
                          const lt = window.__bench.longtasks;
                          return { dcl: nav.domContentLoadedEventStart, done: window.__bench.done,
                                   end: Math.max(0, ...lt.map(x => x[0] + x[1])),
                                   longest: Math.max(0, ...lt.map(x => x[1])),
                                   armed: window.__bench.armed };
                        }"""
                    )
                    context.close()
                    if run == 0:
                        continue
                    runs[page]["dcl"].append(r["dcl"])
                    runs[page]["all_mounted"].append(r["done"])
                    runs[page]["longest"].append(r["longest"])
                    runs[page]["interactive"].append(max(r["end"], r["armed"]))
            for page in pages:
                context, tab = open_page(page)
                browser.start_tracing(page=tab, categories=["devtools.timeline"])
                tab.goto(f"{base}/{page}", wait_until="load")
                tab.wait_for_function("window.__bench.done !== null", timeout=120000)
                tab.wait_for_timeout(1500)
                trace = browser.stop_tracing()
                context.close()
                html = (site / page).read_text(encoding="utf-8")
                own[page] = _own_tasks(trace, f"{base}/{page}", _script_labels(html))
        finally:
            browser.close()
    out: dict[str, dict[str, Any]] = {}
    for page, r in runs.items():
        out[page] = {key: statistics.median(values) for key, values in r.items()}
        out[page]["runs"] = r
        out[page]["konum_tasks"] = own[page]
        out[page]["konum_task"] = max(own[page].values(), default=0.0)
        out[page]["page_errors"] = errors[page]
    return out


#: Lesson 2 as main built it before lazy mounting (4e10380), the baseline of issue 47's
#: browser target; written beside the built lesson, its links to Material's files hold
#: while Material's version is the same.
BASELINE = Path(__file__).resolve().parent / "baseline" / "02-sinusoidal.html.gz"
LESSON_TWO = "lessons/02-sinusoidal.html"


def lesson_two(site: Path, repeat: int = 5) -> dict[str, Any]:
    """Lesson 2 of the built course ``site`` against the saved copy (:data:`BASELINE`),
    loaded in turns with the CPU slowed 4x (:func:`lesson_load`). ``ratio``: the median of
    the rounds' ratios of ``interactive``; ``mounted_ratio`` the same of ``all_mounted``."""
    import gzip

    copy = "lessons/02-sinusoidal-baseline.html"
    (site / copy).write_bytes(gzip.decompress(BASELINE.read_bytes()))
    measured = lesson_load(site, [LESSON_TWO, copy], repeat)
    now, before = measured[LESSON_TWO], measured[copy]

    def ratio(key: str) -> float:
        pairs = zip(now["runs"][key], before["runs"][key], strict=True)
        return statistics.median(a / b for a, b in pairs)

    return {
        "now": now,
        "before": before,
        "ratio": ratio("interactive"),
        "mounted_ratio": ratio("all_mounted"),
    }
