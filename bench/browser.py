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


def _longest_run_task(trace: bytes) -> float:
    """Longest ``RunTask`` on a renderer main thread in a Chromium trace, in ms."""
    data = json.loads(trace)
    events = data["traceEvents"] if isinstance(data, dict) else data
    mains = {
        (e["pid"], e["tid"])
        for e in events
        if e.get("ph") == "M"
        and e.get("name") == "thread_name"
        and e.get("args", {}).get("name") == "CrRendererMain"
    }
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
