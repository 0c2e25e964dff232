"""konum's benchmark: ``make bench`` (``.venv/bin/python bench/run.py``).

Measures, side by side in one run, the figures of issue 32 and writes ``bench/RESULTS.md``:

1. ``build``   konum build of the shipped course vs mkdocs build of the same pages, quizzes removed
2. ``scale``   synthetic sites of 100, 1,000, 10,000 questions: validate, variants, render, build
3. ``peer``    the same 1,000 choice and fill-in questions: konum vs mkdocs-quiz (own virtualenv)
4. ``weight``  konum's inline CSS + JS, gzipped, on quiz pages and on pages without a quiz
5. ``browser`` a 200-question page in Chromium: DOMContentLoaded until every question is mounted
6. ``exports`` 10,000 flashcards to .apkg and to Anki text
7. ``pe``      konum.pe.sinusoidal(8192, 1024) vs a straightforward numpy version
8. ``study``   the study page with 10,000 cards vs 100: load until the first card shows;
   flashcards.js gzipped, and what the progress marks add to every page
9. ``serve``   the same 1,000 questions: a saved question until the served page shows it,
   konum serve vs mkdocs-quiz's mkdocs serve (``bench/serve.py``)

Usage::

    .venv/bin/python bench/run.py                 # everything (about 10 minutes on 2 cores)
    .venv/bin/python bench/run.py --quick         # one repetition, smaller sizes (smoke run)
    .venv/bin/python bench/run.py --only peer --only browser

How it measures and why the targets are ratios: ``bench/NOTES.md``. Scratch files go to
``bench/work/`` (git-ignored); the peer's virtualenv lives there too and is reused.
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import itertools
import json
import math
import os
import re
import shutil
import statistics
import sys
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common
from common import REPO, VENV_PYTHON, WORK, Timing

RESULTS = REPO / "bench" / "RESULTS.md"
FIGURES = ("build", "scale", "peer", "serve", "weight", "browser", "study", "exports", "pe")
# konum's blocks, and fenced code (where a block is only shown, not used).
KONUM_BLOCK = re.compile(r"^ {0,3}///\s*(?:quiz|study)\b")
BLOCK_END = re.compile(r"^ {0,3}///[ \t]*$")
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")

#: The figures of the last RESULTS.md before the build was simplified (commit 2b37e19,
#: 2026-11-30 22:40 UTC): what "at least as good as before" is measured against.
PREVIOUS = {
    "commit": "2b37e19",
    "plain_build": 6.49,  # s, the shipped course's plain mkdocs build (the machine's speed)
    "build_ratio": 0.92,  # konum build / plain build of the shipped course
    "peer_ratio": 0.53,  # konum build / mkdocs-quiz build, 1,000 questions
    "quiz_js_css": 8186,  # B gzipped, quiz.js 6,400 + quiz.css 1,786 as files
    "no_quiz_js_css": 0,  # B on pages without a quiz
    "mount_ms": 24.6,  # DOMContentLoaded -> 200 questions mounted, median
    "mount_only_ms": 23.5,  # konumQuiz.mountAll on a copy of the quiz, median
    "quiz_js_sha256": "1af5641d0d13b8c403ece144351e7ed2de9e9971070eeb48446b4d1ff8ae2d0c",
}


# --- results ----------------------------------------------------------------------------


class Report:
    """Collects one section per figure, the verdicts, and the context.

    A verdict is a target of issue 32 (``supplementary=False``) or a supplementary figure
    (an older target kept for comparison, or a figure reported without one).
    """

    def __init__(self) -> None:
        self.sections: dict[str, list[str]] = {}
        # figure, target, measured, verdict, supplementary
        self.targets: list[tuple[str, str, str, str, bool]] = []
        self.data: dict[str, Any] = {}
        self.sites: dict[str, Path] = {}

    def add(self, figure: str, *lines: str) -> None:
        self.sections.setdefault(figure, []).extend(lines)
        for line in lines:
            print(f"  {line}")

    def target(
        self,
        figure: str,
        target: str,
        measured: str,
        ok: bool | None,
        *,
        supplementary: bool = False,
    ) -> None:
        """Record a verdict: PASS or MISS, or "reported" when ``ok`` is None (no target)."""
        verdict = "reported" if ok is None else ("PASS" if ok else "MISS")
        self.targets.append((figure, target, measured, verdict, supplementary))
        print(f"  [{verdict}] {target}: {measured}")


@dataclass(frozen=True)
class Reps:
    """How often to repeat a measurement: at least ``low`` times, at most ``high``, and no
    further repetition once another would push the figure past ``budget`` seconds."""

    low: int
    high: int
    budget: float


def interleaved(reps: Reps, **measure: Callable[[], float]) -> dict[str, Timing]:
    """Run each ``measure`` (returning seconds) once per round, round after round, so drift
    in the machine's load hits every contender alike; stop as ``reps`` says."""
    runs: dict[str, list[float]] = {name: [] for name in measure}
    start = time.perf_counter()
    rounds = 0
    while True:
        for name, fn in measure.items():
            runs[name].append(fn())
        rounds += 1
        elapsed = time.perf_counter() - start
        if rounds >= reps.high or (
            rounds >= reps.low and elapsed * (rounds + 1) / rounds > reps.budget
        ):
            break
    return {name: Timing(tuple(r)) for name, r in runs.items()}


def paired_ratio(a: Timing, b: Timing) -> float:
    """The median of ``a``'s time over ``b``'s, round by round, for timings taken with
    :func:`interleaved`: each round runs both back to back, so the drift of this shared
    machine's speed (a third, from one minute to the next) cancels in each round's ratio,
    where a ratio of the two medians can take them from different minutes."""
    return statistics.median(x / y for x, y in zip(a.runs, b.runs, strict=True))


def per_q(seconds: float, count: int) -> str:
    return f"{seconds / count * 1e6:.0f} µs/question"


def konum_build(project: Path, site: Path) -> float:
    """Wall time of ``konum build -d site`` run in ``project``."""
    if site.exists():
        shutil.rmtree(site)
    return common.run_timed([VENV_PYTHON, "-m", "konum", "build", "-d", site], project)


def mkdocs_build(python: Path, project: Path, site: Path) -> float:
    """Wall time of ``mkdocs build -d site`` run in ``project`` with ``python``."""
    if site.exists():
        shutil.rmtree(site)
    return common.run_timed([python, "-m", "mkdocs", "build", "-q", "-d", site], project)


# --- 1. build ---------------------------------------------------------------------------

#: The shipped course's editions, which `konum build` publishes together (site/, site/tr/).
EDITIONS = ("mkdocs.yml", "mkdocs.tr.yml")


def plain_editions_build(project: Path, site: Path) -> float:
    """Wall time of ``mkdocs build`` of every edition of ``project`` into ``site`` (the
    Turkish one into ``site/tr``), one after the other; their CPU time is summed."""
    seconds, cpu = 0.0, 0.0
    for config in EDITIONS:
        place = site / "tr" if config != "mkdocs.yml" else site
        if config == "mkdocs.yml" and site.exists():
            shutil.rmtree(site)
        seconds += common.run_timed(
            [VENV_PYTHON, "-m", "mkdocs", "build", "-q", "-f", config, "-d", place], project
        )
        cpu += common.CPU_SECONDS.pop()
    common.CPU_SECONDS.append(cpu)
    return seconds


def strip_konum_blocks(text: str) -> tuple[str, int]:
    """``text`` without its ``/// quiz`` and ``/// study`` blocks, and how many went; a block
    shown inside fenced code (an example on the authoring page) stays."""
    out: list[str] = []
    removed, fence, inside = 0, "", False
    for line in text.splitlines(keepends=True):
        if inside:
            inside = not BLOCK_END.match(line)
            continue
        opened = FENCE.match(line)
        if opened:
            mark = opened.group(1)
            if not fence:
                fence = mark
            elif mark[0] == fence[0] and len(mark) >= len(fence):
                fence = ""
        elif not fence and KONUM_BLOCK.match(line):
            inside, removed = True, removed + 1
            continue
        out.append(line)
    return "".join(out), removed


def strip_quizzes(project: Path) -> int:
    """Remove konum's blocks (:func:`strip_konum_blocks`) from the pages under
    ``project/content``; how many were removed."""
    removed = 0
    for page in (project / "content").rglob("*.md"):
        new, count = strip_konum_blocks(page.read_text(encoding="utf-8"))
        if count:
            page.write_text(new, encoding="utf-8")
            removed += count
    return removed


def fig_build(report: Report, reps: Reps) -> None:
    where = common.fresh_dir(WORK / "build")
    plain = where / "plain"
    shutil.copytree(REPO / "content", plain / "content")
    shutil.copytree(REPO / "overrides", plain / "overrides")
    for config in EDITIONS:
        shutil.copy(REPO / config, plain / config)
    shutil.copy(REPO / "mkdocs.base.yml", plain / "mkdocs.base.yml")
    removed = strip_quizzes(plain)
    konum_site, plain_site = where / "konum-site", where / "plain-site"
    cpu: dict[str, list[float]] = {"konum": [], "plain": []}

    def with_cpu(name: str, build: Callable[[], float]) -> Callable[[], float]:
        def run() -> float:
            seconds = build()
            cpu[name].append(common.CPU_SECONDS[-1])
            return seconds

        return run

    t = interleaved(
        reps,
        konum=with_cpu("konum", lambda: konum_build(REPO, konum_site)),
        plain=with_cpu("plain", lambda: plain_editions_build(plain, plain_site)),
    )
    k, p = t["konum"], t["plain"]
    k_cpu, p_cpu = Timing(tuple(cpu["konum"])), Timing(tuple(cpu["plain"]))
    ratio = paired_ratio(k, p)
    report.sites["shipped"] = konum_site
    pages = len(list(konum_site.rglob("*.html")))
    report.add(
        "build",
        f"Shipped course, both editions (English and Turkish): {pages} HTML pages; {removed}"
        " `/// quiz` and `/// study` blocks removed for the plain build, which runs `mkdocs"
        " build` for each edition (its pages keep konum's values and math, so the `konum`"
        " extension stays in the configuration).",
        f"- `konum build -d DIR` (validate, build strict, flashcard downloads, swap): {k.text()}",
        "- `mkdocs build` of the same pages without konum's blocks, edition by edition:"
        f" {p.text()}",
        f"- ratio konum / plain: {ratio:.2f}x (median of the rounds' ratios;"
        f" of the medians {k.median / p.median:.2f}x); before: {PREVIOUS['build_ratio']}x",
        f"- CPU (user and system), medians: konum {k_cpu.median:.2f} s, plain"
        f" {p_cpu.median:.2f} s; ratio {k_cpu.median / p_cpu.median:.2f}x",
        f"- the machine's speed in this run: the plain build took {p.median:.2f} s of wall time"
        f" for {p_cpu.median:.2f} s of CPU; in the previous RESULTS.md"
        f" {PREVIOUS['plain_build']} s of wall time ({p.median / PREVIOUS['plain_build']:.2f}x"
        " now)",
    )
    report.data["build"] = {
        "konum": k.runs,
        "plain": p.runs,
        "konum_cpu": k_cpu.runs,
        "plain_cpu": p_cpu.runs,
    }
    report.target(
        "build",
        "shipped course: konum build <= 1.15x plain mkdocs build",
        f"{ratio:.2f}x (medians {k.median / p.median:.2f}x)",
        ratio <= 1.15,
    )


# --- 2. scale ---------------------------------------------------------------------------


def worker_stages(project: Path) -> dict[str, Any]:
    """In a fresh process: the CPU time (``time.process_time``) of loading, variants and
    rendering of every bank in ``project``."""
    from konum.check import load_banks
    from konum.plugins import load_plugins
    from konum.render import render_quiz
    from konum.types import Draw

    folder = project / "content" / "banks"
    plugins = load_plugins(["pe"], project)
    t0 = time.process_time()
    banks = load_banks(folder, plugins=plugins)
    t1 = time.process_time()
    draw = Draw(42, 5, "en", plugins)
    concretes = [[q.concrete(draw) for q in bank.questions] for bank in banks]
    t2 = time.process_time()
    size = 0
    for bank, items in zip(banks, concretes, strict=True):
        size += len(render_quiz(items, bank.id, title=bank.title, plugins=plugins))
    t3 = time.process_time()
    return {
        "questions": sum(len(b.questions) for b in banks),
        "validate": t1 - t0,
        "variants": t2 - t1,
        "render": t3 - t2,
        "html_bytes": size,
    }


def cpu_note(build: Timing, cpu: Timing) -> str:
    """What the 10,000-question build's CPU says beside its wall time: how many cores it
    kept busy, and how far its repetitions spread (the machine's speed drifts from minute
    to minute, CPU time with it)."""
    return (
        f"The 10,000-question build used {cpu.median:.1f} s of CPU (user and system, all its"
        f" processes) in {build.median:.1f} s of wall time: {cpu.median / build.median:.2f}"
        f" cores busy on average. Its {len(build.runs)} builds took {build.min:.1f} to"
        f" {max(build.runs):.1f} s and {cpu.min:.1f} to {max(cpu.runs):.1f} s of CPU."
    )


def fig_scale(
    report: Report, reps: Reps, sizes: tuple[int, ...], *, largest_budget: float | None
) -> None:
    """Stages in a worker process and whole builds, per size; the largest size is skipped
    when the next smaller one projects (linearly) past ``largest_budget`` seconds."""
    from synthetic import write_project

    rows = []
    results: dict[int, dict[str, Timing]] = {}
    # size, projected s (stages and build), the smaller size's build s, projected build s
    skipped: tuple[int, float, float, float] | None = None
    for n in sizes:
        if n == sizes[-1] and largest_budget is not None and results:
            prev = max(results)
            cost = sum(t.median for k, t in results[prev].items() if k != "build CPU") * n / prev
            if cost > largest_budget:
                build = results[prev]["build"].median
                skipped = (n, cost, build, build * n / prev)
                print(f"  {n}: skipped, projected {cost:.0f} s > budget {largest_budget:.0f} s")
                continue
        project = write_project(common.fresh_dir(WORK / "scale" / str(n)), n, per_page=100)
        stage_runs: dict[str, list[float]] = {"validate": [], "variants": [], "render": []}
        build_cpu: list[float] = []

        def build(project: Path = project, build_cpu: list[float] = build_cpu) -> float:
            seconds = konum_build(project, project / "site-out")
            build_cpu.append(common.CPU_SECONDS[-1])
            return seconds

        def stages(
            project: Path = project, stage_runs: dict[str, list[float]] = stage_runs
        ) -> float:
            out = common.run_json(
                [VENV_PYTHON, Path(__file__).resolve(), "--worker", "stages", str(project)], REPO
            )
            for key in stage_runs:
                stage_runs[key].append(float(out[key]))  # type: ignore[arg-type]
            return 0.0

        built = interleaved(reps, stages=stages, build=build)
        timings = {k: Timing(tuple(v)) for k, v in stage_runs.items()}
        timings["build"] = built["build"]
        timings["build CPU"] = Timing(tuple(build_cpu))
        results[n] = timings
        rows.append(
            f"| {n:,} | {math.ceil(n / 100)} | "
            + " | ".join(
                f"{timings[k].median:.2f} s ({per_q(timings[k].median, n)})"
                for k in ("validate", "variants", "render", "build", "build CPU")
            )
            + f" | {len(timings['build'].runs)} |"
        )
        print(f"  {n}: " + ", ".join(f"{k} {t.median:.2f}s" for k, t in timings.items()))
    report.add(
        "scale",
        "Synthetic banks, every type, one question in three computed (5 variants each), 100"
        " questions per page. Stages run in a fresh process per repetition (imports excluded)"
        " and are timed by the CPU time of that process; the build is `konum build -d DIR` in"
        " a fresh process (including the flashcard downloads), timed by the wall clock and by"
        " its CPU (user plus system time of konum and every process it waited for). Medians,"
        " with the cost per question:",
        "",
        "| questions | pages | validate (load_banks), CPU | variants (make_concrete), CPU"
        " | render (render_quiz), CPU | whole konum build, wall | its CPU | reps |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|",
        *rows,
    )
    if skipped:
        n, cost, _, _ = skipped
        report.add(
            "scale",
            "",
            f"The {n:,}-question size was **not run**: at the speed measured for"
            f" {max(results):,} questions it would take about {cost:.0f} s (stages and build),"
            f" past this run's budget of {largest_budget:.0f} s. Run"
            " `bench/run.py --only scale --full-scale` to measure it.",
        )
    report.data["scale"] = {str(n): {k: t.runs for k, t in r.items()} for n, r in results.items()}
    report.add("scale", "", *linear_growth(report, results))
    if 10_000 in results:
        t = results[10_000]["build"]
        report.add(
            "scale",
            "",
            cpu_note(t, results[10_000]["build CPU"]),
        )
        report.target(
            "scale",
            "10,000-question site: konum build time (no target)",
            f"{t.median:.1f} s (its builds {t.min:.1f} to {max(t.runs):.1f} s)",
            None,
            supplementary=True,
        )
    elif skipped and skipped[0] == 10_000:
        report.target(
            "scale",
            "10,000-question site: konum build time (no target)",
            f"not run; projected about {skipped[3]:.0f} s",
            None,
            supplementary=True,
        )


def linear_growth(report: Report, results: dict[int, dict[str, Timing]]) -> list[str]:
    """The verdict on linear growth, and the lines that explain it.

    Two figures, each the larger size's cost per question over the smaller's, both in CPU
    time (the sizes run minutes apart, and on a shared machine their wall times depend on
    who else ran then): every stage between consecutive sizes (the worst pair counts), and
    the whole build's marginal cost per question (what one more question adds, so that the
    fixed cost of starting Python and MkDocs does not flatter the larger size). The wall
    clock's marginal cost is printed beside it.
    """
    done = sorted(results)
    if len(done) < 2:
        report.target(
            "scale",
            "linear growth: cost per question at the larger size <= 1.25x the smaller's",
            "not run (fewer than two sizes)",
            None,
        )
        return []
    worst, pair = 0.0, (done[0], done[1])
    for a, b in itertools.pairwise(done):
        for k in ("validate", "variants", "render"):
            growth = (results[b][k].median / b) / (results[a][k].median / a)
            if growth > worst:
                worst, pair = growth, (a, b)
    lines = [
        f"Per-question CPU cost of the stages, each size against the next smaller: worst ratio"
        f" {worst:.2f} ({pair[0]:,} -> {pair[1]:,})."
    ]
    measured = f"stages {worst:.2f}x"
    ok = worst <= 1.25
    if len(done) >= 3:
        z, a, b = done[0], done[-2], done[-1]

        def marginal(key: str) -> tuple[float, float]:
            t = {n: results[n][key].median for n in (z, a, b)}
            return (t[a] - t[z]) / (a - z), (t[b] - t[a]) / (b - a)

        lo, hi = marginal("build CPU")
        wall_lo, wall_hi = marginal("build")
        lines.append(
            f"Marginal build cost per question, CPU: {lo * 1e3:.2f} ms ({z:,} -> {a:,}) vs"
            f" {hi * 1e3:.2f} ms ({a:,} -> {b:,}), ratio {hi / lo:.2f}; by the wall clock"
            f" {wall_lo * 1e3:.2f} ms vs {wall_hi * 1e3:.2f} ms, ratio {wall_hi / wall_lo:.2f}."
        )
        measured += f", build marginal CPU {hi / lo:.2f}x ({z:,} -> {a:,} -> {b:,})"
        ok = ok and hi / lo <= 1.25
    report.target(
        "scale",
        f"linear growth from {done[0]:,} to {done[-1]:,} questions: cost per question at the"
        " larger size <= 1.25x the smaller's (CPU)",
        measured,
        ok,
    )
    return lines


# --- 3. peer ----------------------------------------------------------------------------


def fig_peer(report: Report, reps: Reps, total: int, per_page: int, upgrade: bool) -> None:
    import peer
    from synthetic import split

    python = peer.ensure_venv(upgrade=upgrade)
    report.data["peer_versions"] = peer.peer_versions()
    konum_project, peer_project = peer.write_pair(WORK / "peer-bench", total, per_page)
    k_site, p_site = konum_project / "site-out", peer_project / "site-out"
    # The floor: the same pages, no quiz at all, built by MkDocs with konum's configuration.
    plain_project = WORK / "peer-bench" / "plain"
    if plain_project.exists():
        shutil.rmtree(plain_project)
    shutil.copytree(konum_project, plain_project, ignore=shutil.ignore_patterns("site-out"))
    strip_quizzes(plain_project)
    cpu: dict[str, list[float]] = {"peer": [], "konum": [], "plain": []}

    def with_cpu(name: str, build: Callable[[], float]) -> Callable[[], float]:
        def run() -> float:
            seconds = build()
            cpu[name].append(common.CPU_SECONDS[-1])
            return seconds

        return run

    t = interleaved(
        reps,
        peer=with_cpu("peer", lambda: mkdocs_build(python, peer_project, p_site)),
        konum=with_cpu("konum", lambda: konum_build(konum_project, k_site)),
        plain=with_cpu(
            "plain", lambda: mkdocs_build(VENV_PYTHON, plain_project, plain_project / "site-out")
        ),
    )
    k, p, floor = t["konum"], t["peer"], t["plain"]
    k_cpu, p_cpu, floor_cpu = (Timing(tuple(cpu[name])) for name in ("konum", "peer", "plain"))
    ratio = paired_ratio(k, p)
    pages = len(split(total, per_page))
    report.sites["peer-konum"] = k_site
    page = "lessons/page-000.html"
    kw, pw = common.page_weight(k_site / page, k_site), common.page_weight(p_site / page, p_site)
    ki, pi = (
        common.page_weight(k_site / "index.html", k_site),
        common.page_weight(p_site / "index.html", p_site),
    )
    # Overhead over a plain Material page: konum's index page loads no quiz file, and both
    # sites have the same navigation, so it serves as the common baseline. (The peer's own
    # index page is no baseline: mkdocs-quiz inlines its assets into every page.)
    k_quiz, p_quiz = kw.total - ki.total, pw.total - ki.total
    later = "lessons/page-001.html"
    kl, pl = common.page_weight(k_site / later, k_site), common.page_weight(p_site / later, p_site)
    k_inline, kl_inline = common.inline_weight(k_site / page), common.inline_weight(k_site / later)
    material = kw.assets_matching("assets/javascripts") + kw.assets_matching("assets/stylesheets")
    report.add(
        "peer",
        f"{total:,} questions (half choice with per-option feedback, half fill-in with two"
        f" blanks; plain text), {per_page} per page on {pages} pages, plus an index page."
        f" mkdocs-quiz {report.data['peer_versions']['mkdocs_quiz']} in `bench/work/peer`,"
        " MkDocs and Material pinned to konum's versions; both sites use Material with"
        " `navigation.instant` and the search plugin.",
        "",
        f"- mkdocs-quiz `mkdocs build`: {p.text()}",
        f"- konum `konum build -d DIR` (includes writing the .apkg/text/CSV downloads): {k.text()}",
        f"- ratio konum / mkdocs-quiz: {ratio:.2f}x (median of the rounds' ratios; of the"
        f" medians {k.median / p.median:.2f}x); before: {PREVIOUS['peer_ratio']}x",
        f"- the same by CPU (user and system), medians: {k_cpu.median / p_cpu.median:.2f}x",
        f"- for scale, `mkdocs build` of the same pages without any quiz: {floor.text()},"
        f" {floor.median / p.median:.2f}x mkdocs-quiz's time; konum adds"
        f" {k.median - floor.median:.2f} s to it for {total:,} questions, mkdocs-quiz"
        f" {p.median - floor.median:.2f} s",
        f"- CPU (user and system, all processes), medians: konum {k_cpu.median:.2f} s,"
        f" mkdocs-quiz {p_cpu.median:.2f} s, the quiz-free pages {floor_cpu.median:.2f} s",
        "",
        f"Bytes transferred for `{page}` ({per_page} questions), gzip level"
        f" {common.GZIP_LEVEL}, each file once; both tools now put their CSS and JS inside"
        " the HTML:",
        "",
        "| | HTML | of which the quiz's CSS + JS | JS + CSS files | total"
        " | the site's index page (no quiz) | over a plain page |",
        "|---|---:|---:|---:|---:|---:|---:|",
        f"| konum | {kw.html:,} | {k_inline.added:,} | {kw.total - kw.html:,} | {kw.total:,}"
        f" | {ki.total:,} | {k_quiz:,} |",
        f"| mkdocs-quiz | {pw.html:,} | | {pw.total - pw.html:,} | {pw.total:,}"
        f" | {pi.total:,} | {p_quiz:,} |",
        "",
        f"Both pages load Material's own bundle and stylesheet ({material:,} B), which no quiz"
        ' tool can shrink. "Over a plain page" is the quiz page minus konum\'s index page, a'
        " Material page with the same navigation and nothing of konum's (the peer's own index"
        " page is heavier: mkdocs-quiz inlines its CSS and JS into every page, konum only"
        " into pages with a quiz).",
        "",
        f"A reader who goes on to `{later}` has Material's files in the browser cache, but not"
        " the quiz's: konum's CSS and JS are inside each quiz page and travel again"
        f" ({kl_inline.added:,} B of that page), as mkdocs-quiz's do. Transferred for that page:"
        f" konum {kl.html:,} B, mkdocs-quiz {pl.html:,} B ({kl.html / pl.html:.2f}); of which"
        f" the quiz (over konum's index page HTML, {ki.html:,} B): konum"
        f" {kl.html - ki.html:,} B, mkdocs-quiz {pl.html - ki.html:,} B. (In the previous"
        " RESULTS.md konum's quiz.js and quiz.css were cached files, and that page's quiz"
        " added 2,222 B.)",
    )
    report.data["peer"] = {
        "konum_build": k.runs,
        "peer_build": p.runs,
        "plain_build": floor.runs,
        "konum_page": kw.__dict__,
        "konum_page_inline": k_inline.__dict__,
        "peer_page": pw.__dict__,
        "konum_index": ki.total,
        "peer_index": pi.total,
        "konum_later_html": kl.html,
        "peer_later_html": pl.html,
    }
    report.target(
        "peer",
        f"{total:,} choice and fill-in questions: konum build <= 0.75x mkdocs-quiz build",
        f"{ratio:.2f}x (medians {k.median / p.median:.2f}x)",
        ratio <= 0.75,
    )
    k_cost, p_cost = k.median - floor.median, p.median - floor.median
    report.target(
        "peer",
        "what konum adds over the quiz-free pages <= 0.5x what mkdocs-quiz adds",
        f"{k_cost:.2f} s / {p_cost:.2f} s = {k_cost / p_cost:.2f}x",
        k_cost <= 0.5 * p_cost,
    )
    bytes_ratio = kw.total / pw.total
    report.target(
        "peer",
        "konum quiz page <= 1/5 of mkdocs-quiz's bytes (whole page: HTML + all JS/CSS)",
        f"{kw.total:,} / {pw.total:,} B = {bytes_ratio:.2f}",
        bytes_ratio <= 0.2,
        supplementary=True,
    )
    share = k_quiz / p_quiz if p_quiz > 0 else float("nan")
    report.target(
        "peer",
        "bytes over a plain Material page <= 1/5 of mkdocs-quiz's",
        f"{k_quiz:,} / {p_quiz:,} B = {share:.2f}",
        share <= 0.2,
        supplementary=True,
    )
    warm = (kl.html - ki.html) / (pl.html - ki.html)
    report.target(
        "peer",
        "the next quiz page, Material's files cached (konum's inline CSS + JS travel again):"
        " bytes the quiz adds <= 1/5 of mkdocs-quiz's",
        f"{kl.html - ki.html:,} / {pl.html - ki.html:,} B = {warm:.2f}",
        warm <= 0.2,
        supplementary=True,
    )


# --- 9. serve ---------------------------------------------------------------------------


def fig_serve(report: Report, rounds: int, total: int, per_page: int) -> None:
    import peer
    import serve

    python = peer.ensure_venv()
    konum_project, peer_project = peer.write_pair(WORK / "serve-bench", total, per_page)
    t = serve.save_to_reload(
        [VENV_PYTHON, "-m", "konum", "serve"],
        konum_project,
        [python, "-m", "mkdocs", "serve"],
        peer_project,
        rounds,
    )
    k, p = t["konum"], t["peer"]
    ratio = paired_ratio(k, p)
    report.add(
        "serve",
        f"The peer figure's {total:,} questions ({per_page} per page), each tool's preview server"
        " running (`konum serve`, mkdocs-quiz's `mkdocs serve`, both MkDocs' live-reload"
        " server rebuilding the whole site). A round saves the first question's prompt with a"
        " new word (konum: in its bank file; mkdocs-quiz: in its page) and asks for the served"
        f" page every {serve.POLL * 1000:.0f} ms until the word is there; the servers take"
        " turns, and a first round that warms each is not counted.",
        "",
        f"- konum serve, save to reloaded page: {k.text()}",
        f"- mkdocs-quiz's mkdocs serve: {p.text()}",
        f"- ratio konum / mkdocs-quiz: {ratio:.2f}x (median of the rounds' ratios; of the"
        f" medians {k.median / p.median:.2f}x)",
    )
    report.data["serve"] = {"konum": k.runs, "peer": p.runs}
    report.target(
        "serve",
        f"{total:,} questions, save to reloaded page: konum serve <= 0.5x mkdocs-quiz's mkdocs"
        " serve",
        f"{ratio:.2f}x (medians {k.median:.2f} s / {p.median:.2f} s)",
        ratio <= 0.5,
    )


# --- 4. weight --------------------------------------------------------------------------


STUDY_CARDS = re.compile(
    r'<script type="application/json" class="konum-cards">.*?</script>', re.DOTALL
)


#: The shipped course's figures the weight targets of issue 32 halve (at 960f94b).
WEIGHT_BEFORE = {"lessons_gz": 798_000, "flashcards_html": 740_000}


def shipped_site(report: Report) -> Path:
    """The shipped course built by figure 1, or built here when it did not run."""
    site = report.sites.get("shipped")
    if site is None or not site.is_dir():
        site = common.fresh_dir(WORK / "weight") / "shipped"
        konum_build(REPO, site)
        report.sites["shipped"] = site
    return site


def lesson_weights(report: Report) -> None:
    """Issue 32's targets: the eight English lessons, gzipped, and the flashcard page."""
    site = shipped_site(report)
    lessons = sorted((site / "lessons").glob("*.html"))
    sizes = {p.name: (p.stat().st_size, common.gzip_size(p.read_bytes())) for p in lessons}
    total_gz = sum(gz for _, gz in sizes.values())
    cards = site / "flashcards.html"
    cards_html = cards.stat().st_size
    cards_json = STUDY_CARDS.search(cards.read_text(encoding="utf-8"))
    cards_json_size = len(cards_json.group(0).encode("utf-8")) if cards_json else 0
    report.add(
        "weight",
        f"The shipped course's eight English lessons (`lessons/*.html`), gzip level"
        f" {common.GZIP_LEVEL}, the HTML only (Material's own files are shared by every page"
        " and unchanged):",
        "",
        "| lesson | HTML | gzipped |",
        "|---|---:|---:|",
        *(f"| `{name}` | {raw:,} | {gz:,} |" for name, (raw, gz) in sizes.items()),
        f"| all | {sum(raw for raw, _ in sizes.values()):,} | {total_gz:,} |",
        "",
        f"- the flashcard page `flashcards.html`: {cards_html:,} B of HTML, of which the cards'"
        f" JSON {cards_json_size:,} B; {common.gzip_size(cards.read_bytes()):,} B gzipped",
    )
    report.data["lessons"] = {"sizes": sizes, "flashcards_html": cards_html}
    report.target(
        "weight",
        "the eight English lessons, gzipped: at most half of before"
        f" ({WEIGHT_BEFORE['lessons_gz'] // 2000:,} KB)",
        f"{total_gz / 1000:,.1f} KB ({total_gz / WEIGHT_BEFORE['lessons_gz']:.0%} of before)",
        len(lessons) == 8 and 2 * total_gz <= WEIGHT_BEFORE["lessons_gz"],
    )
    report.target(
        "weight",
        "the flashcard page: at most 300 KB of HTML",
        f"{cards_html / 1000:,.1f} KB ({cards_html / WEIGHT_BEFORE['flashcards_html']:.0%}"
        " of before)",
        cards_html <= 300_000,
    )


def fig_weight(report: Report) -> None:
    lesson_weights(report)
    site = None
    for key in ("shipped", "peer-konum"):
        if key in report.sites and report.sites[key].is_dir():
            site = report.sites[key]
            which = key
            break
    if site is None:
        site = WORK / "weight" / "site-out"
        from synthetic import write_project

        project = write_project(common.fresh_dir(WORK / "weight"), 20, per_page=10)
        konum_build(project, site)
        which = "synthetic"
    quiz: dict[str, common.InlineWeight] = {}
    others: dict[str, common.InlineWeight] = {}
    math_pages = 0
    for page in sorted(site.rglob("*.html")):
        text = page.read_text(encoding="utf-8")
        name = str(page.relative_to(site))
        (quiz if common.QUIZ_ELEMENT.search(text) else others)[name] = common.inline_weight(page)
        math_pages += "<style>math{font-family:" in text
    wrong = sorted(name for name, w in quiz.items() if w.widgets.count("quiz") != 1)
    added = [w.added for w in quiz.values()]
    worst = max(added, default=0)
    first = next(iter(quiz), None)
    rows = [
        f"Read from the {which} site's HTML (gzip level {common.GZIP_LEVEL}). konum's CSS and"
        ' JS travel inside each quiz page (`<style data-konum-asset="quiz">` and the'
        " `<script>` after it), so they are measured as the page gzipped with them less the"
        " page gzipped without. Inline, they are not cached: every quiz page carries them"
        " again (figure 3 counts that for the next page a reader opens).",
    ]
    if first is not None:
        w = quiz[first]
        rows.append(
            f"- {len(quiz)} quiz pages; konum's inline CSS + JS add {min(added):,} to"
            f" {worst:,} B to their gzipped HTML (**{worst:,} B** at most); on `{first}`"
            f" {w.page:,} B with them, {w.without:,} B without: {w.added:,} B. The same texts"
            f" gzipped as two files: {w.alone:,} B (the previous run's quiz.js + quiz.css:"
            f" {PREVIOUS['quiz_js_css']:,} B)"
        )
    if wrong:
        rows.append(f"- quiz pages without konum's quiz assets once: {', '.join(wrong)}")
    study = {name: w for name, w in others.items() if "flashcards" in w.widgets}
    plain = {name: w for name, w in others.items() if name not in study}
    leaked = sum(w.added for w in plain.values())
    rows.append(
        f"- {len(plain)} pages without a quiz or the study block: konum's inline CSS + JS"
        f" on them {leaked:,} B"
    )
    for name, w in study.items():
        cards = STUDY_CARDS.search((site / name).read_text(encoding="utf-8"))
        cards_gz = common.gzip_size(cards.group(0).encode("utf-8")) if cards else 0
        rows.append(
            f"  - the study page `{name}` carries its own: flashcards.css + flashcards.js add"
            f" {w.added:,} B ({w.alone:,} B as two files), and the cards it embeds (the old"
            f" `cards.json` download) {cards_gz:,} B gzipped on their own"
        )
    rows.append(
        f"- {math_pages} pages with formulas carry konum's 128-byte inline math-font style"
        " (as before; not counted above)"
    )
    report.add("weight", *rows)
    report.data["weight"] = {
        "quiz": {k: v.__dict__ for k, v in quiz.items()},
        "others": {k: v.__dict__ for k, v in others.items()},
    }
    report.target(
        "weight",
        "konum CSS + JS on a quiz page, gzipped, no more than before"
        f" ({PREVIOUS['quiz_js_css']:,} B)",
        f"{worst:,} B at most (inline; {min(added, default=0):,} B at least)"
        + (f"; {len(wrong)} quiz pages without them" if wrong else ""),
        bool(quiz) and not wrong and worst <= PREVIOUS["quiz_js_css"],
        supplementary=True,
    )
    report.target(
        "weight",
        "konum CSS + JS on a page without a quiz = 0 B, as before (the study page excepted)",
        f"{leaked:,} B over {len(plain)} pages",
        leaked == PREVIOUS["no_quiz_js_css"],
        supplementary=True,
    )


# --- 5. browser -------------------------------------------------------------------------


def as_files(site: Path, page: str) -> str:
    """A copy of ``page`` that loads konum's CSS and JS as files, as the previous layout did
    (the stylesheet in the head, the script where the inline one was); its path in ``site``."""
    html = (site / page).read_text(encoding="utf-8")
    found = common.KONUM_INLINE.search(html)
    if found is None:
        raise ValueError(f"{page}: no inline konum assets to move into files")
    folder = (site / page).parent
    (folder / "konum-quiz.css").write_text(found.group("css"), encoding="utf-8")
    (folder / "konum-quiz.js").write_text(found.group("js"), encoding="utf-8")
    html = html[: found.start()] + '<script src="konum-quiz.js"></script>\n' + html[found.end() :]
    html = html.replace("</head>", '<link rel="stylesheet" href="konum-quiz.css">\n</head>', 1)
    copy = str(Path(page).with_name(Path(page).stem + "-files.html"))
    (site / copy).write_text(html, encoding="utf-8")
    return copy


def quiz_js_then() -> str:
    """Whether quiz.js is the file the previous figures were measured with."""
    from konum.paths import TEMPLATES_DIR

    digest = hashlib.sha256((TEMPLATES_DIR / "assets" / "quiz.js").read_bytes()).hexdigest()
    if digest == PREVIOUS["quiz_js_sha256"]:
        return "quiz.js is byte for byte the one the previous figure was measured with."
    return "quiz.js has changed since the previous figure."


def fig_browser(report: Report, repeat: int) -> None:
    import browser
    from synthetic import write_project

    project = write_project(common.fresh_dir(WORK / "browser"), 200, per_page=200)
    site = project / "site-out"
    konum_build(project, site)
    page = "lessons/page-000.html"
    files = as_files(site, page)
    both = browser.measure_pages(site, [page, files], repeat=repeat)
    r, f = both[page], both[files]
    report.add(
        "browser",
        f"`{page}`: {r['questions']} questions (every type, a third computed with 5 variants"
        f" each), served from 127.0.0.1, Chromium headless, {repeat} loads after a warm-up.",
        f"- DOMContentLoaded -> every question mounted (`data-konum-mounted`): median"
        f" {r['mount_median']:.1f} ms, min {r['mount_min']:.1f} ms"
        " (anything else that runs first in that event included); before:"
        f" {PREVIOUS['mount_ms']} ms",
        f"- quiz.js alone (`konumQuiz.mountAll` on a fresh copy of the quiz): median"
        f" {r['mount_only_median']:.1f} ms, min {r['mount_only_min']:.1f} ms; before:"
        f" {PREVIOUS['mount_only_ms']} ms",
        "- longest main-thread task of a load: median over the timed loads"
        f" {r['longtask_median_ms']:.0f} ms (per load:"
        f" {', '.join(f'{x:.0f}' for x in r['longtask_max_per_load_ms'])} ms, from `longtask`"
        f" entries); {r['longest_task_ms']:.0f} ms in a traced load (Chromium trace `RunTask`)",
        f"- page errors: {len(r['page_errors']) + len(f['page_errors'])}",
        f"- the same page loading konum's CSS and JS as files, as the previous layout did"
        f" (`{files}`, loads taking turns with the inline page): mounted after median"
        f" {f['mount_median']:.1f} ms, min {f['mount_min']:.1f} ms; quiz.js alone median"
        f" {f['mount_only_median']:.1f} ms. {quiz_js_then()} This pair says what the layout"
        " changes; the distance to the previous figure, what else changed.",
    )
    report.data["browser"] = r
    report.data["browser_files"] = f
    report.target(
        "browser",
        "every question of a 200-question page interactive <= 35 ms after DOMContentLoaded"
        " (negative: before it)",
        f"{r['mount_median']:.1f} ms (min {r['mount_min']:.1f})",
        r["mount_median"] <= 35,
    )
    report.target(
        "browser",
        f"the same, no slower than before the simplification ({PREVIOUS['mount_ms']} ms)",
        f"{r['mount_median']:.1f} ms (min {r['mount_min']:.1f})",
        r["mount_median"] <= PREVIOUS["mount_ms"],
        supplementary=True,
    )
    lesson_tasks(report, repeat)
    lesson_two(report, repeat)
    report.target(
        "browser",
        "the same, inline assets no slower than the previous layout's files, in this run"
        " (5 % allowed)",
        f"{r['mount_median']:.1f} ms vs {f['mount_median']:.1f} ms"
        f" ({r['mount_median'] / f['mount_median']:.2f}x)",
        r["mount_median"] <= 1.05 * f["mount_median"],
        supplementary=True,
    )
    report.target(
        "browser",
        "every question of a 200-question page interactive < 50 ms after DOMContentLoaded",
        f"{r['mount_median']:.1f} ms",
        r["mount_median"] < 50,
        supplementary=True,
    )


KONUM_PARTS = re.compile(
    r'<template class="konum-data-box">.*?</template>|<template data-konum-messages>.*?</template>'
    r'|<script>\(function\(\)\{"use strict";.*?</script>|<script data-konum-asset[^>]*>.*?</script>'
    r"|<style data-konum-asset[^>]*>.*?</style>",
    re.DOTALL,
)


def without_konum(site: Path, page: str) -> str:
    """A copy of ``page`` without konum's scripts, styles and quiz data; its path."""
    html = KONUM_PARTS.sub("", (site / page).read_text(encoding="utf-8"))
    copy = str(Path(page).with_name(Path(page).stem + "-without-konum.html"))
    (site / copy).write_text(html, encoding="utf-8")
    return copy


def lesson_tasks(report: Report, repeat: int) -> None:
    """Issue 32's target: no main-thread task over 50 ms while a lesson page loads."""
    import browser

    site = shipped_site(report)
    pages = [f"lessons/{p.name}" for p in sorted((site / "lessons").glob("*.html"))]
    # The floor: each lesson without konum's scripts, styles and data (its HTML kept).
    bare = {page: without_konum(site, page) for page in pages}
    measured = browser.measure_pages(site, [*pages, *bare.values()], repeat=max(1, repeat // 2))
    floors = {page: measured.pop(copy) for page, copy in bare.items()}
    rows = [
        f"| `{page}` | {m['questions']} | {m['mount_median']:.1f} |"
        f" {max(m['longtask_max_per_load_ms']):.0f} | {m['longest_task_ms']:.0f} |"
        f" {max(floors[page]['longtask_max_per_load_ms']):.0f} |"
        for page, m in measured.items()
    ]
    floor = max(max(m["longtask_max_per_load_ms"]) for m in floors.values())
    worst = max(max(m["longtask_max_per_load_ms"]) for m in measured.values())
    traced = max(m["longest_task_ms"] for m in measured.values())
    errors = sum(len(m["page_errors"]) for m in measured.values())
    report.add(
        "browser",
        "",
        f"The shipped course's English lessons, each loaded {max(1, repeat // 2)} times (after"
        " a warm-up) taking turns: DOMContentLoaded to every question mounted, the longest"
        " `longtask` entry of any load (0 when none reached 50 ms), and the longest"
        " main-thread task of a traced load:",
        "",
        "| lesson | questions | mounted after (ms, median) | longest long task (ms) |"
        " longest task, traced (ms) | the same without konum's scripts and data (ms) |",
        "|---|---:|---:|---:|---:|---:|",
        *rows,
        "",
        f"- page errors: {errors}",
        f"- the lessons without konum's scripts, styles and data (their HTML otherwise the"
        f" same: Material's start-up and the browser's parsing and layout): longest long task"
        f" {floor:.0f} ms",
    )
    report.data["lesson_tasks"] = measured
    report.data["lesson_tasks_without_konum"] = floors
    report.target(
        "browser",
        "no main-thread task over 50 ms while a lesson page loads (long-task entries)",
        f"longest {worst:.0f} ms over {len(pages)} lessons (traced: {traced:.0f} ms)",
        worst <= 50 and errors == 0,
    )


def lesson_two(report: Report, repeat: int) -> None:
    """Issue 47's browser targets: lesson 2 against its saved copy from before lazy mounting."""
    import browser

    two = browser.lesson_two(shipped_site(report), repeat)
    now, before = two["now"], two["before"]
    own = ", ".join(f"{name} {ms:.0f}" for name, ms in sorted(now["konum_tasks"].items()))
    report.add(
        "browser",
        "",
        f"Lesson 2 against `bench/baseline/02-sinusoidal.html.gz` (main before lazy mounting),"
        f" {repeat} loads each in turns, the CPU slowed 4x (DevTools), ms from navigation:",
        f"- interactive (the last long task over, quiz.js run): {now['interactive']:.0f} against"
        f" {before['interactive']:.0f} ({two['ratio']:.2f}x, the median of the rounds' ratios)",
        f"- every question mounted: {now['all_mounted']:.0f} against {before['all_mounted']:.0f}"
        f" ({two['mounted_ratio']:.2f}x); DOMContentLoaded {now['dcl']:.0f} against"
        f" {before['dcl']:.0f}; longest long task {now['longest']:.0f} against"
        f" {before['longest']:.0f}",
        f"- konum's scripts' longest runs in a traced load: {own} (before: quiz.js"
        f" {before['konum_tasks'].get('konumQuiz', 0):.0f})",
    )
    report.data["lesson_two"] = two
    report.target(
        "browser",
        "lesson 2: every question interactive <= 0.5x the saved page's, CPU 4x, in one run",
        f"{two['ratio']:.2f}x",
        two["ratio"] <= 0.5,
    )
    report.target(
        "browser",
        "lesson 2: no run of konum's own scripts over 50 ms (CPU 4x, traced)",
        f"longest {now['konum_task']:.0f} ms",
        now["konum_task"] <= 50,
    )


# --- 8. the study page ----------------------------------------------------------------


def study_page(folder: Path, cards: int) -> Path:
    """A study page with ``cards`` synthetic cards, as the extension writes it (the block,
    its texts, flashcards.js and the progress marks inline): ``folder/study-<cards>.html``."""
    from konum.exports.cards import Card
    from konum.exports.text import cards_json
    from konum.quiz import assets_html, messages_html
    from konum.render import environment, script_json

    made = [
        Card(f"question:q{i}", f"bank-{i // 100}", f"Lesson {i // 100}", "basic",
             f"<p>Question {i}: what is {i} + 1?</p>", f"<p>{i + 1}</p>")
        for i in range(cards)
    ]  # fmt: skip
    block = (
        environment().get_template("quiz/study.html.j2").render(data=script_json(cards_json(made)))
    )
    body = "\n".join(
        (block, messages_html("en", ["study", "progress"]), assets_html("flashcards"),
         assets_html("progress"))
    )  # fmt: skip
    page = folder / f"study-{cards}.html"
    page.write_text(
        f"<!doctype html><html lang=en><head><meta charset=utf-8><title>Study</title></head>"
        f"<body><main>{body}</main></body></html>",
        encoding="utf-8",
    )
    return page


def study_weights() -> dict[str, int]:
    """Gzipped bytes, as pages carry them (minified): flashcards.js (+ its CSS) on the study
    page, and the progress marks' script and style that every page carries."""
    from konum.render import asset

    def size(name: str) -> int:
        return common.gzip_size(asset(name).encode("utf-8"))

    return {
        "flashcards.js": size("flashcards.js"),
        "flashcards.css": size("flashcards.css"),
        "progress": size("progress.js") + size("progress.css"),
    }


FIRST_CARD = """() => new Promise(done => {
  const seen = () => document.querySelector(".konum-study__card[data-key]");
  const stop = () => done(performance.now());
  if (seen()) return stop();
  new MutationObserver((_, o) => { if (seen()) { o.disconnect(); stop(); } })
    .observe(document, {subtree: true, childList: true, attributes: true});
})"""


def fig_study(report: Report, repeat: int) -> None:
    import browser as bench_browser
    from playwright.sync_api import sync_playwright

    folder = common.fresh_dir(WORK / "study")
    pages = {n: study_page(folder, n).name for n in (100, 10_000)}
    times: dict[int, list[float]] = {n: [] for n in pages}
    with bench_browser.serve(folder) as base, sync_playwright() as p:
        chromium = p.chromium.launch(
            executable_path="/usr/bin/chromium", args=["--headless", "--no-sandbox"]
        )
        page = chromium.new_page()
        for round_ in range(repeat + 1):  # the first round warms up
            for n, name in pages.items():
                page.goto(f"{base}/{name}", wait_until="domcontentloaded")
                shown = page.evaluate(FIRST_CARD)
                if round_:
                    times[n].append(shown)
        chromium.close()
    small, big = Timing(tuple(times[100])), Timing(tuple(times[10_000]))
    ratio = paired_ratio(big, small)
    weights = study_weights()
    report.add(
        "study",
        f"Synthetic study pages with 100 and 10,000 cards (the cards inline as JSON), served"
        f" from 127.0.0.1, Chromium headless, {repeat} loads each, taking turns.",
        f"- navigation start -> first card shown: 100 cards median {small.median:.0f} ms,"
        f" 10,000 cards median {big.median:.0f} ms; ratio (round by round) {ratio:.2f}",
        f"- flashcards.js gzipped {weights['flashcards.js']:,} B (its CSS"
        f" {weights['flashcards.css']:,} B); the progress marks on every page"
        f" {weights['progress']:,} B gzipped",
    )
    report.data["study"] = {"ms_100": small.median, "ms_10000": big.median, **weights}
    report.target(
        "study",
        "the study page with 10,000 cards shows its first card within 3x the time of 100 cards",
        f"{ratio:.2f}x",
        ratio <= 3,
    )
    report.target(
        "study",
        "flashcards.js stays small: < 8 KB gzipped",
        f"{weights['flashcards.js']:,} B",
        weights["flashcards.js"] < 8192,
        supplementary=True,
    )


# --- 6. exports -------------------------------------------------------------------------


def cards_for(questions: int, variants: int = 5) -> int:
    from synthetic import question_types

    types = question_types(questions)
    return sum(variants if t == "computed" else 1 for t in types)


def worker_exports(folder: Path, out: Path) -> dict[str, Any]:
    """In a fresh process: build concretes, then time each export."""
    from konum.check import load_banks
    from konum.exports import export
    from konum.plugins import load_plugins
    from konum.types import Draw

    plugins = load_plugins(["pe"], folder)
    banks = load_banks(folder, plugins=plugins)
    draw = Draw(42, 5, "en", plugins)
    concretes = [q.concrete(draw) for bank in banks for q in bank.questions]
    result: dict[str, Any] = {}
    for kind, name in (("anki", "cards.apkg"), ("text", "cards.txt")):
        start = time.perf_counter()
        cards = export(kind, banks, concretes, out / name, timestamp=0, plugins=plugins)  # type: ignore[arg-type]
        result[kind] = time.perf_counter() - start
        result["cards"] = len(cards)
        result[f"{kind}_bytes"] = (out / name).stat().st_size
    return result


def fig_exports(report: Report, reps: Reps, target_cards: int) -> None:
    from synthetic import write_banks

    questions = 1
    while cards_for(questions) < target_cards:
        questions += 1
    where = common.fresh_dir(WORK / "exports")
    write_banks(where / "banks", questions, per_page=500)
    runs: dict[str, list[float]] = {"anki": [], "text": []}
    last: dict[str, Any] = {}
    worker = [VENV_PYTHON, Path(__file__).resolve(), "--worker", "exports", where / "banks", where]

    def once() -> float:
        last.update(common.run_json(worker, REPO))
        runs["anki"].append(float(last["anki"]))
        runs["text"].append(float(last["text"]))
        return 0.0

    interleaved(reps, exports=once)
    a, t = Timing(tuple(runs["anki"])), Timing(tuple(runs["text"]))
    report.add(
        "exports",
        f"{last['cards']:,} cards from {questions:,} synthetic questions (computed ones give one"
        " card per variant); each export call builds the cards (Markdown and math for Anki)"
        " and writes the file, timed in a fresh process per repetition.",
        f"- `.apkg` (genanki): {a.text()}, {last['anki_bytes']:,} B",
        f"- Anki text: {t.text()}, {last['text_bytes']:,} B",
    )
    report.data["exports"] = {"cards": last["cards"], **runs}
    report.target(
        "exports",
        f"{last['cards']:,} cards to .apkg < 3 s",
        f"{a.median:.2f} s",
        a.median < 3,
        supplementary=True,
    )
    report.target(
        "exports",
        f"{last['cards']:,} cards to text < 3 s",
        f"{t.median:.2f} s",
        t.median < 3,
        supplementary=True,
    )


# --- 7. PE core -------------------------------------------------------------------------


def naive_sinusoidal(n: int, d: int, base: float = 10000.0) -> Any:
    """The textbook version: angle table, sines into even columns, cosines into odd ones."""
    import numpy as np

    position = np.arange(n, dtype=np.float64)[:, None]
    i = np.arange(0, d, 2, dtype=np.float64)
    angle = position / base ** (i / d)
    pe = np.empty((n, d), dtype=np.float64)
    pe[:, 0::2] = np.sin(angle)
    pe[:, 1::2] = np.cos(angle)
    return pe


def fig_pe(report: Report, repeat: int) -> None:
    import numpy as np

    from konum_pe import pe

    n, d = 8192, 1024
    same = np.allclose(pe.sinusoidal(n, d), naive_sinusoidal(n, d), atol=1e-9)
    core_runs, naive_runs = [], []
    for _ in range(repeat):  # interleaved
        core_runs.append(common.time_call(lambda: pe.sinusoidal(n, d), 1).runs[0])
        naive_runs.append(common.time_call(lambda: naive_sinusoidal(n, d), 1).runs[0])
    c, v = Timing(tuple(core_runs)), Timing(tuple(naive_runs))
    ratio = c.median / v.median
    best = c.min / v.min
    report.add(
        "pe",
        f"`sinusoidal({n}, {d})` ({n * d * 8 / 2**20:.0f} MiB float64), in process, {repeat} interleaved runs;"  # noqa: E501
        f" results equal to 1e-9: {same}.",
        f"- konum.pe.sinusoidal: {c.text('ms')}",
        f"- straightforward numpy: {v.text('ms')}",
        f"- ratio core / straightforward: {ratio:.2f}x (medians), {best:.2f}x (mins)",
    )
    report.data["pe"] = {"core": c.runs, "naive": v.runs, "equal": bool(same)}
    # "No slower": judged on the fastest run of each (the least disturbed estimate of a
    # CPU-bound kernel on a shared 2-core machine), with 5 % allowed for timer noise.
    report.target(
        "pe",
        "sinusoidal no slower than the straightforward version (min vs min, 5 % noise allowed)",
        f"{best:.2f}x (medians {ratio:.2f}x)",
        best <= 1.05,
        supplementary=True,
    )


# --- the report file --------------------------------------------------------------------

TITLES = {
    "build": "1. Build: the shipped site vs a plain MkDocs build",
    "scale": "2. Scale: synthetic banks",
    "peer": "3. The peer: mkdocs-quiz",
    "weight": "4. Page weight",
    "browser": "5. The browser: a 200-question page in Chromium",
    "study": "8. The study page: 10,000 cards vs 100",
    "exports": "6. Exports",
    "pe": "7. The PE core",
    "serve": "9. Serve: a save until the page shows it, vs mkdocs-quiz",
}


def versions(report: Report) -> list[str]:
    m = common.machine()
    peer_v = report.data.get("peer_versions") or {}
    if not peer_v:
        try:
            import peer

            peer_v = peer.peer_versions()
        except Exception:
            peer_v = {}
    loads = report.data.get("load", [])
    load = ", ".join(f"{when} {one:.1f}" for when, one in loads)
    return [
        f"- Machine: {m['cores']} cores ({m['cpu']}), {m['os']}; 1-minute load average"
        f" {load or 'not read'} (shared with other engineers' work)",
        f"- Python {m['python']}, MkDocs {common.dist_version('mkdocs')}, Material"
        f" {common.dist_version('mkdocs-material')}, Markdown {common.dist_version('markdown')},"
        f" pymdown-extensions {common.dist_version('pymdown-extensions')}, numpy"
        f" {common.dist_version('numpy')}, genanki {common.dist_version('genanki')}",
        f"- mkdocs-quiz {peer_v.get('mkdocs_quiz', 'not installed')} (own virtualenv, MkDocs"
        f" {peer_v.get('mkdocs', '?')}, Material {peer_v.get('mkdocs-material', '?')})",
        f"- {common.chromium_version()}, Playwright {common.dist_version('playwright')}",
    ]


def targets_table(rows: list[tuple[str, str, str, str, bool]]) -> list[str]:
    """The verdicts as a Markdown table."""
    return [
        "| figure | target | measured | verdict |",
        "|---|---|---|---|",
        *(f"| {f} | {t} | {m} | **{v}** |" for f, t, m, v, _ in rows),
    ]


def write_results(report: Report, args: argparse.Namespace, started: float) -> None:
    """Write RESULTS.md for a full run; a partial run (``--quick`` or ``--only``) writes
    ``bench/work/RESULTS-partial.md`` so that it never replaces the full figures."""
    out = WORK / "RESULTS-partial.md" if (args.quick or args.only) else RESULTS
    now = dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    mode = "quick smoke run (`--quick`)" if args.quick else "full run"
    main_rows = [row for row in report.targets if not row[4]]
    extra_rows = [row for row in report.targets if row[4]]
    lines = [
        "# konum benchmark results",
        "",
        f"Written by `make bench` (`bench/run.py`) on {now}: {mode}, figures"
        f" {', '.join(report.sections) or 'none'}, {time.perf_counter() - started:.0f} s in all."
        " Times are wall-clock medians of repetitions in one run (min in brackets);"
        " contenders run in rounds, one after the other, and a ratio is the median of the"
        " rounds' ratios. How the bench measures, and the machine's noise: `bench/NOTES.md`."
        f' "Before" is the last run of the previous design ({PREVIOUS["commit"]}).',
        "",
        *versions(report),
        "",
        "## Targets (issue 32)",
        "",
        *targets_table(main_rows),
        "",
        "## Supplementary figures",
        "",
        *targets_table(extra_rows),
        "",
    ]
    for figure in FIGURES:
        if figure in report.sections:
            lines += [f"## {TITLES[figure]}", "", *report.sections[figure], ""]
    out.write_text("\n".join(lines), encoding="utf-8")
    (WORK / "results.json").write_text(
        json.dumps(report.data, indent=1, default=str), encoding="utf-8"
    )
    print(f"wrote {out}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="one repetition, smaller sizes")
    parser.add_argument(
        "--only", action="append", choices=FIGURES, help="run only this figure (repeatable)"
    )
    parser.add_argument(
        "--repeat", type=int, default=None, help="repetitions (default 3; --quick 1)"
    )
    parser.add_argument(
        "--upgrade-peer", action="store_true", help="reinstall the latest mkdocs-quiz"
    )
    parser.add_argument(
        "--full-scale",
        action="store_true",
        help="measure the 10,000-question size even when it would take long",
    )
    parser.add_argument("--worker", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.worker:
        kind, *rest = args.worker
        if kind == "stages":
            out = worker_stages(Path(rest[0]))
        elif kind == "exports":
            out = worker_exports(Path(rest[0]), Path(rest[1]))
        else:
            parser.error(f"unknown worker {kind}")
        print(json.dumps(out))
        return 0

    os.environ["NO_MKDOCS_2_WARNING"] = "1"
    high = args.repeat or (1 if args.quick else 3)
    low = 1 if args.quick else min(2, high)

    def reps(budget: float, low: int = low) -> Reps:
        return Reps(min(low, high), high, budget)

    only = tuple(args.only or FIGURES)
    WORK.mkdir(parents=True, exist_ok=True)
    common.compile_konum()
    report = Report()
    started = time.perf_counter()
    runs: dict[str, Callable[[], None]] = {
        "build": lambda: fig_build(report, reps(150)),
        "scale": lambda: fig_scale(
            report,
            reps(150, low=2),
            (60, 240) if args.quick else (100, 1000, 10_000),
            largest_budget=None if args.full_scale else 240.0,
        ),
        "peer": lambda: fig_peer(
            report, reps(120), 200 if args.quick else 1000, 20, args.upgrade_peer
        ),
        "serve": lambda: fig_serve(report, 2 if args.quick else 5, 200 if args.quick else 1000, 20),
        "weight": lambda: fig_weight(report),
        "browser": lambda: fig_browser(report, 2 if args.quick else 5),
        "study": lambda: fig_study(report, 3 if args.quick else 9),
        "exports": lambda: fig_exports(report, reps(90, low=1), 1000 if args.quick else 10_000),
        "pe": lambda: fig_pe(report, 3 if args.quick else 15),
    }
    failed = 0
    for figure in FIGURES:
        if figure not in only:
            continue
        print(f"== {TITLES[figure]}", flush=True)
        report.data.setdefault("load", []).append((f"before {figure}", os.getloadavg()[0]))
        t0 = time.perf_counter()
        try:
            runs[figure]()
        except Exception as exc:
            failed += 1
            detail = str(exc).strip().splitlines()
            report.add(
                figure,
                "**Could not be measured:** " + (detail[0] if detail else type(exc).__name__),
                "",
                "```",
                *detail[1:15],
                "```",
            )
            report.target(figure, "(figure failed)", type(exc).__name__, False)
            traceback.print_exc()
        print(f"   ({time.perf_counter() - t0:.0f} s)", flush=True)
    report.data.setdefault("load", []).append(("at the end", os.getloadavg()[0]))
    write_results(report, args, started)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
