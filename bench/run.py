"""konum's benchmark: ``make bench`` (``.venv/bin/python bench/run.py``).

Measures, side by side in one run, the figures of issue 7 and writes ``bench/RESULTS.md``:

1. ``build``   konum build of the shipped site vs mkdocs build of the same pages, quizzes removed
2. ``scale``   synthetic sites of 100, 1,000, 10,000 questions: validate, variants, render, build
3. ``peer``    the same 1,000 choice and fill-in questions: konum vs mkdocs-quiz (own virtualenv)
4. ``weight``  gzipped konum JS + CSS on a quiz page and on pages without a quiz
5. ``browser`` a 200-question page in Chromium: DOMContentLoaded until every question is mounted
6. ``exports`` 10,000 flashcards to .apkg and to Anki text
7. ``pe``      konum.pe.sinusoidal(8192, 1024) vs a straightforward numpy version

Usage::

    .venv/bin/python bench/run.py                 # everything (about 10 minutes on 2 cores)
    .venv/bin/python bench/run.py --quick         # one repetition, smaller sizes (smoke run)
    .venv/bin/python bench/run.py --only peer --only browser

Builds run as fresh processes (imports and cold caches included, as an author sees them);
in-process stages run in a fresh worker process per repetition for the same reason. Every
figure reports the median and the min of its repetitions. Scratch files go to
``bench/work/`` (git-ignored); the peer's virtualenv lives there too and is reused.
A hand-written section of RESULTS.md between ``<!-- notes -->`` and ``<!-- /notes -->`` is
kept when the file is rewritten.
"""

from __future__ import annotations

import argparse
import datetime as dt
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
FIGURES = ("build", "scale", "peer", "weight", "browser", "exports", "pe")
QUIZ_BLOCK = re.compile(r"^/// quiz\b.*?^///[ \t]*$\n?", re.MULTILINE | re.DOTALL)


# --- results ----------------------------------------------------------------------------


class Report:
    """Collects one section per figure, the targets with PASS/MISS, and the context."""

    def __init__(self) -> None:
        self.sections: dict[str, list[str]] = {}
        self.targets: list[tuple[str, str, str, str]] = []  # figure, target, measured, verdict
        self.data: dict[str, Any] = {}
        self.sites: dict[str, Path] = {}

    def add(self, figure: str, *lines: str) -> None:
        self.sections.setdefault(figure, []).extend(lines)
        for line in lines:
            print(f"  {line}")

    def target(self, figure: str, target: str, measured: str, ok: bool | None) -> None:
        verdict = "n/a" if ok is None else ("PASS" if ok else "MISS")
        self.targets.append((figure, target, measured, verdict))
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


def strip_quizzes(project: Path) -> int:
    """Remove every ``/// quiz ... ///`` block from the pages under ``project/content``."""
    removed = 0
    for page in (project / "content").rglob("*.md"):
        text = page.read_text(encoding="utf-8")
        new, count = QUIZ_BLOCK.subn("", text)
        if count:
            page.write_text(new, encoding="utf-8")
            removed += count
    return removed


def fig_build(report: Report, reps: Reps) -> None:
    where = common.fresh_dir(WORK / "build")
    plain = where / "plain"
    shutil.copytree(REPO / "content", plain / "content")
    shutil.copytree(REPO / "templates", plain / "templates")
    shutil.copy(REPO / "mkdocs.yml", plain / "mkdocs.yml")
    removed = strip_quizzes(plain)
    konum_site, plain_site = where / "konum-site", where / "plain-site"
    t = interleaved(
        reps,
        konum=lambda: konum_build(REPO, konum_site),
        plain=lambda: mkdocs_build(VENV_PYTHON, plain, plain_site),
    )
    k, p = t["konum"], t["plain"]
    report.sites["shipped"] = konum_site
    pages = len(list(konum_site.rglob("*.html")))
    report.add(
        "build",
        f"Shipped site: {pages} HTML pages; {removed} `/// quiz` blocks removed for the plain build.",  # noqa: E501
        f"- `konum build -d DIR` (validate, build strict, flashcard downloads, swap): {k.text()}",
        f"- `mkdocs build` of the same pages without quiz blocks: {p.text()}",
        f"- ratio konum / plain: {paired_ratio(k, p):.2f}x (median of the rounds' ratios;"
        f" of the medians {k.median / p.median:.2f}x)",
    )
    report.data["build"] = {"konum": k.runs, "plain": p.runs}
    ratio = paired_ratio(k, p)
    report.target(
        "build",
        "konum build <= 1.3x plain mkdocs build",
        f"{ratio:.2f}x (medians {k.median / p.median:.2f}x)",
        ratio <= 1.3,
    )


# --- 2. scale ---------------------------------------------------------------------------


def worker_stages(project: Path) -> dict[str, Any]:
    """In a fresh process: time loading, variants and rendering of every bank in ``project``."""
    from konum.banks import load_banks
    from konum.render import render_quiz
    from konum.variants import make_concrete

    folder = project / "content" / "banks"
    t0 = time.perf_counter()
    banks = load_banks(folder)
    t1 = time.perf_counter()
    concretes = [[make_concrete(q, 42, 5) for q in bank.questions] for bank in banks]
    t2 = time.perf_counter()
    size = 0
    for bank, items in zip(banks, concretes, strict=True):
        size += len(render_quiz(items, bank.id, title=bank.title))
    t3 = time.perf_counter()
    return {
        "questions": sum(len(b.questions) for b in banks),
        "validate": t1 - t0,
        "variants": t2 - t1,
        "render": t3 - t2,
        "html_bytes": size,
    }


def floor_note(build: Timing, cpu: Timing, cores: int) -> str:
    """What the 10,000-question build's CPU says: the least time it can take on ``cores``,
    and how far its repetitions spread (the machine's speed drifts from minute to minute,
    CPU time with it)."""
    return (
        f"The 10,000-question build used {cpu.median:.1f} s of CPU in all its processes: on"
        f" {cores} cores it cannot finish in less than {cpu.median / cores:.1f} s, however its"
        f" work is shared. Its {len(build.runs)} builds took {build.min:.1f} to"
        f" {max(build.runs):.1f} s and {cpu.min:.1f} to {max(cpu.runs):.1f} s of CPU. Figure 1's"
        " plain MkDocs build, which konum's code does not touch, says how fast the machine"
        " was in this run."
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
                for k in ("validate", "variants", "render", "build")
            )
            + f" | {timings['build CPU'].median:.1f} s | {len(timings['build'].runs)} |"
        )
        print(f"  {n}: " + ", ".join(f"{k} {t.median:.2f}s" for k, t in timings.items()))
    report.add(
        "scale",
        "Synthetic banks, every type, one question in three computed (5 variants each), 100"
        " questions per page. Stages run in a fresh process per repetition (imports excluded);"
        " the build is `konum build -d DIR` in a fresh process (including the flashcard"
        " downloads). Medians, with the cost per question; the build's CPU is user plus"
        " system time of konum and every process it forked:",
        "",
        "| questions | pages | validate (load_banks) | variants (make_concrete)"
        " | render (render_quiz) | whole konum build | its CPU | reps |",
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
    done = sorted(results)
    if len(done) >= 2:
        a, b = done[-2], done[-1]
        worst = max(
            (results[b][k].median / b) / (results[a][k].median / a)
            for k in ("validate", "variants", "render")
        )
        lines = [f"Per-question cost of the stages at {b:,} vs {a:,}: worst ratio {worst:.2f}."]
        measured = f"stages {worst:.2f}x ({a:,} -> {b:,})"
        ok = worst <= 1.25
        if len(done) >= 3:
            z = done[-3]
            marginal_lo = (results[a]["build"].median - results[z]["build"].median) / (a - z)
            marginal_hi = (results[b]["build"].median - results[a]["build"].median) / (b - a)
            growth = marginal_hi / marginal_lo
            lines.append(
                f"Marginal build cost per question: {marginal_lo * 1e3:.1f} ms ({z:,} -> {a:,})"
                f" vs {marginal_hi * 1e3:.1f} ms ({a:,} -> {b:,}), ratio {growth:.2f}."
            )
            measured += f", build marginal {growth:.2f}x"
            ok = ok and growth <= 1.25
        report.add("scale", "", *lines)
        report.target(
            "scale",
            "linear growth (cost per question at the larger size <= 1.25x the smaller)",
            measured,
            ok,
        )
    if 10_000 in results:
        t = results[10_000]["build"].median
        report.add(
            "scale",
            "",
            floor_note(results[10_000]["build"], results[10_000]["build CPU"], os.cpu_count() or 1),
        )
        report.target("scale", "10,000-question site built in < 10 s", f"{t:.1f} s", t < 10)
    elif skipped and skipped[0] == 10_000:
        report.target(
            "scale",
            "10,000-question site built in < 10 s",
            f"not run; the {max(results):,}-question build alone took {skipped[2]:.1f} s"
            + (" (so more than 10 s for certain)" if skipped[2] >= 10 else "")
            + f"; projected build about {skipped[3]:.0f} s",
            False if skipped[2] >= 10 else None,
        )
    else:
        report.target("scale", "10,000-question site built in < 10 s", "not run (--quick)", None)


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
    report.add(
        "peer",
        f"{total:,} questions (half choice with per-option feedback, half fill-in with two"
        f" blanks; plain text), {per_page} per page on {pages} pages, plus an index page."
        f" mkdocs-quiz {report.data['peer_versions']['mkdocs_quiz']} in `bench/work/peer`,"
        " MkDocs and Material pinned to konum's versions; both sites use Material with"
        " `navigation.instant` and the search plugin.",
        "",
        f"- mkdocs-quiz `mkdocs build`: {p.text()}",
        f"- konum `konum build -d DIR` (includes writing the .apkg/text/CSV/JSON downloads): {k.text()}",  # noqa: E501
        f"- ratio konum / mkdocs-quiz: {ratio:.2f}x (median of the rounds' ratios; of the"
        f" medians {k.median / p.median:.2f}x)",
        f"- for scale, `mkdocs build` of the same pages without any quiz: {floor.text()},"
        f" {floor.median / p.median:.2f}x mkdocs-quiz's time; konum adds"
        f" {k.median - floor.median:.2f} s to it for {total:,} questions, mkdocs-quiz"
        f" {p.median - floor.median:.2f} s",
        f"- CPU (user and system, all processes), medians: konum {k_cpu.median:.2f} s (it"
        f" works on two cores), mkdocs-quiz {p_cpu.median:.2f} s, the quiz-free pages"
        f" {floor_cpu.median:.2f} s",
        "",
        f"Bytes transferred for `{page}` ({per_page} questions), gzip level"
        f" {common.GZIP_LEVEL}, each file once:",
        "",
        "| | HTML | JS + CSS files | total | the site's index page (no quiz) | over a plain page |",
        "|---|---:|---:|---:|---:|---:|",
        f"| konum | {kw.html:,} | {kw.total - kw.html:,} | {kw.total:,} | {ki.total:,} | {k_quiz:,} |",  # noqa: E501
        f"| mkdocs-quiz | {pw.html:,} | {pw.total - pw.html:,} | {pw.total:,} | {pi.total:,} | {p_quiz:,} |",  # noqa: E501
        "",
        "Both pages load Material's own bundle and stylesheet"
        f" ({kw.assets_matching('assets/javascripts') + kw.assets_matching('assets/stylesheets'):,} B),"  # noqa: E501
        ' which no quiz tool can shrink. "Over a plain page" is the quiz page minus konum\'s'
        " index page, a Material page with the same navigation and no quiz files (the peer's"
        " own index page is heavier: mkdocs-quiz inlines its CSS and JS into every page)."
        "",
        f"A reader who goes on to `{later}` has Material's and konum's files in the browser"
        " cache; mkdocs-quiz's CSS and JS are inside its HTML and travel again. Transferred"
        f" for that page: konum {kl.html:,} B, mkdocs-quiz {pl.html:,} B"
        f" ({kl.html / pl.html:.2f}); of which the quiz (over konum's index page HTML,"
        f" {ki.html:,} B): konum {kl.html - ki.html:,} B, mkdocs-quiz {pl.html - ki.html:,} B.",
    )
    report.data["peer"] = {
        "konum_build": k.runs,
        "peer_build": p.runs,
        "plain_build": floor.runs,
        "konum_page": kw.__dict__,
        "peer_page": pw.__dict__,
        "konum_index": ki.total,
        "peer_index": pi.total,
        "konum_later_html": kl.html,
        "peer_later_html": pl.html,
    }
    report.target(
        "peer",
        "konum build <= 0.6x mkdocs-quiz build",
        f"{ratio:.2f}x (medians {k.median / p.median:.2f}x)",
        ratio <= 0.6,
    )
    bytes_ratio = kw.total / pw.total
    report.target(
        "peer",
        "konum quiz page <= 1/5 of mkdocs-quiz's bytes (whole page: HTML + all JS/CSS)",
        f"{kw.total:,} / {pw.total:,} B = {bytes_ratio:.2f}",
        bytes_ratio <= 0.2,
    )
    share = k_quiz / p_quiz if p_quiz > 0 else float("nan")
    report.target(
        "peer",
        "(supplementary) bytes over a plain Material page <= 1/5 of mkdocs-quiz's",
        f"{k_quiz:,} / {p_quiz:,} B = {share:.2f}",
        share <= 0.2,
    )
    warm = (kl.html - ki.html) / (pl.html - ki.html)
    report.target(
        "peer",
        "(supplementary) the next quiz page, cache warm: bytes the quiz adds <= 1/5 of"
        " mkdocs-quiz's",
        f"{kl.html - ki.html:,} / {pl.html - ki.html:,} B = {warm:.2f}",
        warm <= 0.2,
    )


# --- 4. weight --------------------------------------------------------------------------


def fig_weight(report: Report) -> None:
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
    quiz_pages, other_pages = [], []
    for page in sorted(site.rglob("*.html")):
        text = page.read_text(encoding="utf-8")
        (quiz_pages if "data-konum-quiz" in text else other_pages).append(page)
    rows = []
    worst_quiz = 0
    for page in quiz_pages:
        w = common.page_weight(page, site)
        mine = {k: v for k, v in w.assets.items() if "assets/konum/" in k}
        worst_quiz = max(worst_quiz, sum(mine.values()))
        if page == quiz_pages[0]:
            rows.append(
                f"- quiz page `{page.relative_to(site)}`: konum files "
                + ", ".join(f"`{k}` {v:,} B" for k, v in mine.items())
                + f" = **{sum(mine.values()):,} B** gzipped"
            )
    others = {}
    for page in other_pages:
        w = common.page_weight(page, site)
        others[str(page.relative_to(site))] = {
            k: v for k, v in w.assets.items() if "assets/konum/" in k
        }
    quiz_asset_bytes = {k: v for page, a in others.items() for k, v in a.items() if "quiz" in k}
    loaded = {p: a for p, a in others.items() if a}
    rows.append(
        f"- {len(other_pages)} pages without a quiz; konum quiz files loaded on them:"
        f" {sum(quiz_asset_bytes.values()):,} B"
    )
    for page, assets in loaded.items():
        rows.append(
            f"  - `{page}` loads its own konum files (not the quiz's): "
            + ", ".join(f"`{k}` {v:,} B" for k, v in assets.items())
        )
    report.add(
        "weight", f"Read from the {which} site's HTML (gzip level {common.GZIP_LEVEL}).", *rows
    )
    report.target(
        "weight",
        "konum JS + CSS on a quiz page <= 10 KB gzipped",
        f"{worst_quiz:,} B",
        worst_quiz <= 10 * 1024,
    )
    no_quiz = [p for p, a in others.items() if "flashcards" not in p]
    leaked = sum(sum(others[p].values()) for p in no_quiz)
    report.target(
        "weight",
        "konum JS + CSS on a page without a quiz = 0 (the flashcard study page excepted)",
        f"{leaked:,} B over {len(no_quiz)} pages",
        leaked == 0,
    )


# --- 5. browser -------------------------------------------------------------------------


def fig_browser(report: Report, repeat: int) -> None:
    import browser
    from synthetic import write_project

    project = write_project(common.fresh_dir(WORK / "browser"), 200, per_page=200)
    site = project / "site-out"
    konum_build(project, site)
    page = "lessons/page-000.html"
    r = browser.measure(site, page, repeat=repeat)
    report.add(
        "browser",
        f"`{page}`: {r['questions']} questions (every type, a third computed with 5 variants"
        f" each), served from 127.0.0.1, Chromium headless, {repeat} loads after a warm-up.",
        f"- DOMContentLoaded -> every question mounted (`data-konum-mounted`): median"
        f" {r['mount_median']:.1f} ms, min {r['mount_min']:.1f} ms"
        " (anything else that runs first in that event included)",
        f"- quiz.js alone (`konumQuiz.mountAll` on a fresh copy of the quiz): median"
        f" {r['mount_only_median']:.1f} ms, min {r['mount_only_min']:.1f} ms",
        "- longest main-thread task of a load: median over the timed loads"
        f" {r['longtask_median_ms']:.0f} ms (per load:"
        f" {', '.join(f'{x:.0f}' for x in r['longtask_max_per_load_ms'])} ms, from `longtask`"
        f" entries); {r['longest_task_ms']:.0f} ms in a traced load (Chromium trace `RunTask`)",
        f"- page errors: {len(r['page_errors'])}",
    )
    report.data["browser"] = r
    report.target(
        "browser",
        "every question of a 200-question page interactive < 50 ms after DOMContentLoaded",
        f"{r['mount_median']:.1f} ms",
        r["mount_median"] < 50,
    )


# --- 6. exports -------------------------------------------------------------------------


def cards_for(questions: int, variants: int = 5) -> int:
    from synthetic import question_types

    types = question_types(questions)
    return sum(variants if t == "computed" else 1 for t in types)


def worker_exports(folder: Path, out: Path) -> dict[str, Any]:
    """In a fresh process: build concretes, then time each export."""
    from konum.banks import load_banks
    from konum.exports import export
    from konum.variants import concretes_for

    banks = load_banks(folder)
    concretes = list(concretes_for(banks, 42, 5).values())
    result: dict[str, Any] = {}
    for kind, name in (("anki", "cards.apkg"), ("text", "cards.txt")):
        start = time.perf_counter()
        cards = export(kind, banks, concretes, out / name, timestamp=0)  # type: ignore[arg-type]
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
        "exports", f"{last['cards']:,} cards to .apkg < 3 s", f"{a.median:.2f} s", a.median < 3
    )
    report.target(
        "exports", f"{last['cards']:,} cards to text < 3 s", f"{t.median:.2f} s", t.median < 3
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

    from konum import pe

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
    )


# --- the report file --------------------------------------------------------------------

TITLES = {
    "build": "1. Build: the shipped site vs a plain MkDocs build",
    "scale": "2. Scale: synthetic banks",
    "peer": "3. The peer: mkdocs-quiz",
    "weight": "4. Page weight",
    "browser": "5. The browser: a 200-question page in Chromium",
    "exports": "6. Exports",
    "pe": "7. The PE core",
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
    return [
        f"- Machine: {m['cores']} cores ({m['cpu']}), {m['os']}",
        f"- Python {m['python']}, MkDocs {common.dist_version('mkdocs')}, Material"
        f" {common.dist_version('mkdocs-material')}, Markdown {common.dist_version('markdown')},"
        f" pymdown-extensions {common.dist_version('pymdown-extensions')}, numpy"
        f" {common.dist_version('numpy')}, genanki {common.dist_version('genanki')}",
        f"- mkdocs-quiz {peer_v.get('mkdocs_quiz', 'not installed')} (own virtualenv, MkDocs"
        f" {peer_v.get('mkdocs', '?')}, Material {peer_v.get('mkdocs-material', '?')})",
        f"- {common.chromium_version()}, Playwright {common.dist_version('playwright')}",
    ]


def write_results(report: Report, args: argparse.Namespace, started: float) -> None:
    """Write RESULTS.md for a full run; a partial run (``--quick`` or ``--only``) writes
    ``bench/work/RESULTS-partial.md`` so that it never replaces the full figures."""
    out = WORK / "RESULTS-partial.md" if (args.quick or args.only) else RESULTS
    notes = ""
    if RESULTS.exists():
        found = re.search(
            r"<!-- notes -->.*?<!-- /notes -->", RESULTS.read_text(encoding="utf-8"), re.DOTALL
        )
        notes = found.group(0) if found else ""
    now = dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    mode = "quick smoke run (`--quick`)" if args.quick else "full run"
    lines = [
        "# konum benchmark results",
        "",
        f"Written by `make bench` (`bench/run.py`) on {now}: {mode}, figures"
        f" {', '.join(report.sections) or 'none'}, {time.perf_counter() - started:.0f} s in all."
        " Times are wall-clock medians of repetitions in one run (min in brackets);"
        " builds run as fresh processes, with konum's bytecode compiled first (as Python"
        " does on a user's first run; the Makefile turns writing it off). Contenders run"
        " in rounds, one after the other; a ratio is the median of the rounds' ratios.",
        "",
        *versions(report),
        "",
        "## Targets",
        "",
        "| figure | target | measured | verdict |",
        "|---|---|---|---|",
        *(f"| {f} | {t} | {m} | **{v}** |" for f, t, m, v in report.targets),
        "",
    ]
    for figure in FIGURES:
        if figure in report.sections:
            lines += [f"## {TITLES[figure]}", "", *report.sections[figure], ""]
    if notes:
        lines += ["## Hot spots and proposals", "", notes, ""]
    out.write_text("\n".join(lines), encoding="utf-8")
    (WORK / "results.json").write_text(
        json.dumps(report.data, indent=1, default=str), encoding="utf-8"
    )
    print(f"wrote {out.relative_to(REPO)}")


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
            reps(120, low=1),
            (60, 240) if args.quick else (100, 1000, 10_000),
            largest_budget=None if args.full_scale else 240.0,
        ),
        "peer": lambda: fig_peer(
            report, reps(120), 200 if args.quick else 1000, 20, args.upgrade_peer
        ),
        "weight": lambda: fig_weight(report),
        "browser": lambda: fig_browser(report, 2 if args.quick else 5),
        "exports": lambda: fig_exports(report, reps(90, low=1), 1000 if args.quick else 10_000),
        "pe": lambda: fig_pe(report, 3 if args.quick else 15),
    }
    failed = 0
    for figure in FIGURES:
        if figure not in only:
            continue
        print(f"== {TITLES[figure]}", flush=True)
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
    write_results(report, args, started)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
