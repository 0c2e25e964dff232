"""The benchmark cannot silently rot: its modules import and its synthetic banks load.

No timing is asserted here (the figures live in ``bench/RESULTS.md``, written by
``make bench``); these tests only check that the pieces the benchmark relies on still fit
konum's loader, its quiz block and mkdocs-quiz's syntax.
"""

from __future__ import annotations

import importlib
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"


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
    from konum.banks import load_banks
    from konum.model import ComputedQuestion

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


def test_synthetic_project_has_one_quiz_page_per_bank(tmp_path: Path) -> None:
    synthetic = importlib.import_module("synthetic")
    project = synthetic.write_project(tmp_path / "p", 25, per_page=10)
    pages = sorted((project / "content" / "lessons").glob("*.md"))
    assert len(pages) == 3
    assert "/// quiz | bank-002" in pages[-1].read_text(encoding="utf-8")
    assert (project / "content" / "assets" / "konum" / "quiz.js").is_file()
    assert "konum.mdx.quiz" in (project / "mkdocs.yml").read_text(encoding="utf-8")


def test_shared_questions_say_the_same_to_both_tools(tmp_path: Path) -> None:
    from konum.banks import load_banks

    peer = importlib.import_module("peer")
    konum, other = peer.write_pair(tmp_path, 6, per_page=4)
    banks = load_banks(konum / "content" / "banks")
    assert [len(b.questions) for b in banks] == [4, 2]
    page = (other / "docs" / "lessons" / "page-000.md").read_text(encoding="utf-8")
    assert page.count("<quiz>") == 4
    assert "- [x] Column 0, an even one" in page
    assert "[[2]]nd column, from column [[0]]" in page


def test_quiz_blocks_are_stripped_for_the_plain_build(tmp_path: Path) -> None:
    run = importlib.import_module("run")
    page = tmp_path / "content" / "a.md"
    page.parent.mkdir(parents=True)
    page.write_text(
        "# A\n\nText.\n\n/// quiz | x\n    questions: a, b\n///\n\nMore.\n", encoding="utf-8"
    )
    assert run.strip_quizzes(tmp_path) == 1
    assert page.read_text(encoding="utf-8") == "# A\n\nText.\n\n\nMore.\n"


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

    from konum import pe

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


def test_the_floor_note_gives_the_spread_of_the_builds() -> None:
    """The seventh session's second full run: five builds of 9.1 to 10.1 s."""
    common = importlib.import_module("common")
    run = importlib.import_module("run")
    build = common.Timing((9.08, 9.72, 9.23, 10.05, 10.14))
    cpu = common.Timing((17.10, 18.32, 17.43, 18.68, 18.88))
    note = run.floor_note(build, cpu, 2)
    assert "used 18.3 s of CPU" in note and "less than 9.2 s" in note
    assert "Its 5 builds took 9.1 to 10.1 s and 17.1 to 18.9 s of CPU." in note


def test_timed_commands_record_their_cpu(tmp_path: Path) -> None:
    common = importlib.import_module("common")
    before = len(common.CPU_SECONDS)
    busy = "sum(i * i for i in range(3_000_000))"
    common.run_timed([sys.executable, "-c", busy], tmp_path)
    assert len(common.CPU_SECONDS) == before + 1
    assert common.CPU_SECONDS[-1] > 0.05  # the child's CPU, not this process's
