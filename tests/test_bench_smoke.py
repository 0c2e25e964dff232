"""The benchmark cannot silently rot: its modules import and its synthetic banks load.

No timing is asserted here (the figures live in ``bench/RESULTS.md``, written by
``make bench``); these tests only check that the pieces the benchmark relies on still fit
konum's loader, its one-line extension and inline assets, and mkdocs-quiz's syntax, and
that the verdicts are reckoned as ``bench/NOTES.md`` says. One tiny synthetic build runs.
"""

from __future__ import annotations

import importlib
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

BENCH = Path(__file__).resolve().parent.parent / "bench"


def _shipped_asset(name: str) -> bytes:
    """One of the CSS and JS files konum ships (``templates/assets/``), as pages carry it."""
    from konum.render import asset

    return asset(name).encode("utf-8")


@pytest.fixture(scope="module", autouse=True)
def bench_on_path() -> Iterator[None]:
    sys.path.insert(0, str(BENCH))
    yield
    sys.path.remove(str(BENCH))


@pytest.mark.parametrize("name", ["common", "synthetic", "peer", "browser", "run"])
def test_bench_modules_import(name: str) -> None:
    module = importlib.import_module(name)
    assert module.__doc__


def test_synthetic_bank_loads_through_konum(tmp_path: Path) -> None:
    from konum.types import ComputedQuestion
    from tests.helpers import load_banks

    synthetic = importlib.import_module("synthetic")
    ids = synthetic.write_banks(tmp_path, 30, per_page=12)
    banks = load_banks(tmp_path)
    assert [b.id for b in banks] == ids
    questions = [q for b in banks for q in b.questions]
    assert len(questions) == 30
    types = Counter(q.type for q in questions)
    assert set(types) == {"choice", "fill", "matching", "numeric", "computed"}
    assert types["computed"] == 10  # a third
    computed = [q for q in questions if isinstance(q, ComputedQuestion)]
    assert {q.answer for q in computed} == {"numeric", "choice"}
    assert len({q.generator for q in computed}) > 1


def test_every_synthetic_computed_question_passes_the_draw_checks(tmp_path: Path) -> None:
    """The bench's smallest site (100 questions) holds each generator with both answer
    kinds, and konum's checks (the draw checks included) accept every one."""
    from konum.types import ComputedQuestion
    from tests.helpers import load_banks

    synthetic = importlib.import_module("synthetic")
    synthetic.write_banks(tmp_path, 100, per_page=50)
    computed = [
        q for b in load_banks(tmp_path) for q in b.questions if isinstance(q, ComputedQuestion)
    ]
    kinds = {(q.generator, q.answer) for q in computed}
    assert kinds == {(name, a) for name, _ in synthetic.COMPUTED for a in ("numeric", "choice")}


def test_synthetic_project_has_one_quiz_page_per_bank(tmp_path: Path) -> None:
    synthetic = importlib.import_module("synthetic")
    project = synthetic.write_project(tmp_path / "p", 25, per_page=10)
    pages = sorted((project / "content" / "lessons").glob("*.md"))
    assert len(pages) == 3
    assert "/// quiz | bank-002" in pages[-1].read_text(encoding="utf-8")
    config = yaml.safe_load((project / "mkdocs.yml").read_text(encoding="utf-8"))
    assert config["markdown_extensions"][0] == {
        "konum": {"banks": "content/banks", "plugins": ["pe"], "seed": 42, "variants": 5}
    }
    assert "custom_dir" not in config["theme"]
    assert not (project / "templates").exists()  # nothing is copied into a project
    assert not (project / "content" / "assets").exists()


def test_synthetic_project_builds_with_konum_inline(tmp_path: Path) -> None:
    """A tiny synthetic project builds with the one-line extension, and the bench finds
    konum's inline CSS and JS on its quiz page, and only the progress marks' on its page
    without a quiz."""
    from konum.build import build_site

    synthetic = importlib.import_module("synthetic")
    common = importlib.import_module("common")
    project = synthetic.write_project(tmp_path / "p", 6, per_page=6)
    site = tmp_path / "site"
    build_site(project / "mkdocs.yml", site_dir=site, downloads=False)
    quiz = common.inline_weight(site / "lessons" / "page-000.html")
    assert quiz.widgets == ("quiz", "progress")
    assert 0 < quiz.added < quiz.page
    assert quiz.alone == sum(
        common.gzip_size(_shipped_asset(name))
        for name in ("quiz.css", "quiz.js", "progress.css", "progress.js")
    )
    index = common.inline_weight(site / "index.html")  # only the navigation's progress marks
    assert index.widgets == ("progress",)
    assert index.alone == sum(
        common.gzip_size(_shipped_asset(name)) for name in ("progress.css", "progress.js")
    )


def test_inline_weight_is_the_page_with_less_the_page_without(tmp_path: Path) -> None:
    common = importlib.import_module("common")
    css, js = "p{color:red}" * 50, "var x = 1;" * 80
    body = "<main>" + "<p>text</p>" * 40 + "</main>"
    page = tmp_path / "p.html"
    page.write_text(
        f'{body}\n<style data-konum-asset="quiz">{css}</style>\n<script>{js}</script>\n</body>'
    )
    weight = common.inline_weight(page)
    assert weight.widgets == ("quiz",)
    assert weight.without == common.gzip_size(f"{body}\n</body>".encode())
    assert weight.added == weight.page - weight.without > 0
    assert weight.alone == common.gzip_size(css.encode()) + common.gzip_size(js.encode())


def test_shared_questions_say_the_same_to_both_tools(tmp_path: Path) -> None:
    from tests.helpers import load_banks

    peer = importlib.import_module("peer")
    konum, other = peer.write_pair(tmp_path, 6, per_page=4)
    banks = load_banks(konum / "content" / "banks")
    assert [len(b.questions) for b in banks] == [4, 2]
    page = (other / "docs" / "lessons" / "page-000.md").read_text(encoding="utf-8")
    assert page.count("<quiz>") == 4
    assert "- [x] Column 0, an even one" in page
    assert "[[2]]nd column, from column [[0]]" in page


def test_konum_blocks_are_stripped_for_the_plain_build(tmp_path: Path) -> None:
    run = importlib.import_module("run")
    page = tmp_path / "content" / "a.md"
    page.parent.mkdir(parents=True)
    page.write_text(
        "# A\n\nText.\n\n/// quiz | x\n    questions: a, b\n///\n\nMore.\n\n/// study\n///\n"
        "\n```text\n/// quiz | shown\n///\n```\n",
        encoding="utf-8",
    )
    assert run.strip_quizzes(tmp_path) == 2
    assert page.read_text(encoding="utf-8") == (
        "# A\n\nText.\n\n\nMore.\n\n\n```text\n/// quiz | shown\n///\n```\n"
    )


def test_page_weight_counts_each_local_asset_once(tmp_path: Path) -> None:
    common = importlib.import_module("common")
    (tmp_path / "a.js").write_text("var x = 1;" * 100)
    (tmp_path / "a.css").write_text("p{color:red}" * 100)
    page = tmp_path / "p.html"
    page.write_text(
        '<link rel="stylesheet" href="a.css"><script src="a.js"></script>'
        '<script src="a.js"></script><script src="https://cdn.example/x.js"></script>'
    )
    weight = common.page_weight(page, tmp_path)
    assert sorted(weight.assets) == ["a.css", "a.js"]
    assert weight.total == weight.html + sum(weight.assets.values())


def test_naive_sinusoidal_matches_the_core() -> None:
    import numpy as np

    from konum_pe import pe

    run = importlib.import_module("run")
    assert np.allclose(run.naive_sinusoidal(16, 8), pe.sinusoidal(16, 8))


def test_ratios_are_taken_round_by_round() -> None:
    """Interleaved contenders share each round's speed of the machine: the ratio is the
    median of the rounds' ratios, not the ratio of two medians from different rounds."""
    common = importlib.import_module("common")
    run = importlib.import_module("run")
    # The third full run of the sixth session: konum's peer builds, mkdocs-quiz's.
    konum = common.Timing((1.49, 1.17, 1.15, 1.56, 1.62))
    peer = common.Timing((2.45, 2.42, 2.41, 2.73, 3.49))
    assert run.paired_ratio(konum, peer) == pytest.approx(1.17 / 2.42)  # the middle round
    assert konum.median / peer.median == pytest.approx(1.49 / 2.45)  # what it had said
    with pytest.raises(ValueError):  # unpaired timings are a mistake, not a ratio
        run.paired_ratio(konum, common.Timing((1.0, 2.0)))


def test_the_cpu_note_gives_the_cores_used_and_the_spread() -> None:
    common = importlib.import_module("common")
    run = importlib.import_module("run")
    build = common.Timing((9.08, 9.72, 9.23, 10.05, 10.14))
    cpu = common.Timing((9.10, 9.32, 9.43, 9.68, 9.88))
    note = run.cpu_note(build, cpu)
    assert "used 9.4 s of CPU" in note and "in 9.7 s of wall time: 0.97 cores" in note
    assert "Its 5 builds took 9.1 to 10.1 s and 9.1 to 9.9 s of CPU." in note


def _timings(**medians: float) -> dict[str, object]:
    common = importlib.import_module("common")
    return {k: common.Timing((v,)) for k, v in medians.items()}


@pytest.mark.parametrize(
    ("big_build_cpu", "verdict"),
    # 3.0 ms of CPU a question from 100 to 1,000; then 2.8 ms (0.94x) or 4.5 ms (1.49x)
    [(30.0, "PASS"), (45.0, "MISS")],
)
def test_linear_growth_judges_the_marginal_build_cpu(big_build_cpu: float, verdict: str) -> None:
    run = importlib.import_module("run")
    report = run.Report()
    stages = {"validate": 0.01, "variants": 0.01, "render": 0.02}
    # The wall clock's marginal (2.2 ms, then 10 ms a question) is reported, not judged.
    results = {
        100: _timings(**stages, build=2.0, **{"build CPU": 2.0}),
        1000: _timings(**{k: v * 10 for k, v in stages.items()}, build=4.0, **{"build CPU": 4.7}),
        10_000: _timings(
            **{k: v * 100 for k, v in stages.items()}, build=94.0, **{"build CPU": big_build_cpu}
        ),
    }
    lines = run.linear_growth(report, results)  # type: ignore[arg-type]
    assert any("worst ratio 1.00" in line for line in lines)
    assert any("by the wall clock 2.22 ms vs 10.00 ms, ratio 4.50" in line for line in lines)
    (figure, target, _measured, got, supplementary) = report.targets[-1]
    assert (figure, got, supplementary) == ("scale", verdict, False)
    assert "from 100 to 10,000 questions" in target


def test_stage_growth_between_any_two_sizes_can_miss() -> None:
    run = importlib.import_module("run")
    report = run.Report()
    results = {
        100: _timings(validate=0.01, variants=0.01, render=0.02, build=2.0),
        1000: _timings(validate=0.2, variants=0.1, render=0.2, build=4.0),  # validate 2x
    }
    run.linear_growth(report, results)  # type: ignore[arg-type]
    assert report.targets[-1][2] == "stages 2.00x"
    assert report.targets[-1][3] == "MISS"


def test_results_put_the_targets_apart_from_supplementary_figures(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import argparse

    run = importlib.import_module("run")
    monkeypatch.setattr(run, "WORK", tmp_path)
    report = run.Report()
    report.target("build", "konum <= 1.15x plain", "1.30x", False)
    report.target("exports", "cards < 3 s", "0.5 s", True, supplementary=True)
    report.target("scale", "10,000 questions (no target)", "21 s", None, supplementary=True)
    args = argparse.Namespace(quick=True, only=None)
    run.write_results(report, args, started=0.0)
    text = (tmp_path / "RESULTS-partial.md").read_text(encoding="utf-8")
    targets, extra = text.split("## Supplementary figures")
    assert "| build | konum <= 1.15x plain | 1.30x | **MISS** |" in targets
    assert "cards < 3 s" not in targets
    assert "| exports | cards < 3 s | 0.5 s | **PASS** |" in extra
    assert "| scale | 10,000 questions (no target) | 21 s | **reported** |" in extra


def test_timed_commands_record_their_cpu(tmp_path: Path) -> None:
    common = importlib.import_module("common")
    before = len(common.CPU_SECONDS)
    busy = "sum(i * i for i in range(3_000_000))"
    common.run_timed([sys.executable, "-c", busy], tmp_path)
    assert len(common.CPU_SECONDS) == before + 1
    assert common.CPU_SECONDS[-1] > 0.05  # the child's CPU, not this process's


def test_the_previous_layout_is_rebuilt_with_konum_files(tmp_path: Path) -> None:
    """The browser figure's comparison page loads konum's CSS and JS as files, as before."""
    run = importlib.import_module("run")
    common = importlib.import_module("common")
    (tmp_path / "lessons").mkdir()
    (tmp_path / "lessons" / "q.html").write_text(
        "<html><head><title>q</title></head><body><main>quiz</main>\n"
        '<style data-konum-asset="quiz">p{color:red}</style>\n<script>var x = 1;</script>\n'
        "</body></html>",
        encoding="utf-8",
    )
    copy = run.as_files(tmp_path, "lessons/q.html")
    assert copy == "lessons/q-files.html"
    html = (tmp_path / copy).read_text(encoding="utf-8")
    assert not common.KONUM_INLINE.search(html)
    assert '<link rel="stylesheet" href="konum-quiz.css">\n</head>' in html
    assert '<main>quiz</main>\n<script src="konum-quiz.js"></script>\n</body>' in html
    assert (tmp_path / "lessons" / "konum-quiz.css").read_text() == "p{color:red}"
    assert (tmp_path / "lessons" / "konum-quiz.js").read_text() == "var x = 1;"
    with pytest.raises(ValueError, match="no inline konum assets"):
        run.as_files(tmp_path, copy)


def test_the_browser_figure_says_whether_quiz_js_changed(monkeypatch: pytest.MonkeyPatch) -> None:
    import hashlib

    run = importlib.import_module("run")
    from konum.paths import TEMPLATES_DIR

    digest = hashlib.sha256((TEMPLATES_DIR / "assets" / "quiz.js").read_bytes()).hexdigest()
    monkeypatch.setitem(run.PREVIOUS, "quiz_js_sha256", digest)
    assert "byte for byte" in run.quiz_js_then()
    monkeypatch.setitem(run.PREVIOUS, "quiz_js_sha256", "0" * 64)
    assert run.quiz_js_then() == "quiz.js has changed since the previous figure."


def test_the_study_figure_writes_pages_with_the_cards_asked(tmp_path: Path) -> None:
    """The study figure's pages carry the cards asked for, the study widget and the progress
    marks inline; its weights are the shipped files gzipped."""
    import json
    import re

    run = importlib.import_module("run")
    common = importlib.import_module("common")
    page = run.study_page(tmp_path, 25)
    html = page.read_text(encoding="utf-8")
    cards = re.search(r'class="konum-cards">(.*?)</script>', html)
    assert cards is not None and len(json.loads(cards.group(1))["cards"]) == 25
    assert common.inline_weight(page).widgets == ("flashcards", "progress")
    weights = run.study_weights()
    assert weights["flashcards.js"] == common.gzip_size(_shipped_asset("flashcards.js"))
    assert weights["progress"] == sum(
        common.gzip_size(_shipped_asset(name)) for name in ("progress.js", "progress.css")
    )
    assert "study" in run.FIGURES and "study" in run.TITLES
