"""konum.collector: a build collects garbage less often and leaves the collector as it
found it; a forked child keeps what it inherited frozen, this process thaws it."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from konum import __version__, collector, workers
from tests.miniproject import make_project


@pytest.fixture
def collector_restored() -> Iterator[None]:
    """Whatever a failing test leaves, the rest of the session keeps its collector."""
    thresholds = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)


pytestmark = pytest.mark.usefixtures("collector_restored")


def test_paced_sets_the_thresholds_for_the_block_only() -> None:
    before = gc.get_threshold()
    assert before != collector.BUILD_THRESHOLDS
    with collector.paced():
        assert gc.get_threshold() == collector.BUILD_THRESHOLDS
    assert gc.get_threshold() == before
    with pytest.raises(RuntimeError), collector.paced((5000, 7, 9)):
        assert gc.get_threshold() == (5000, 7, 9)
        raise RuntimeError("the build failed")
    assert gc.get_threshold() == before


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_child_keeps_what_it_inherited_frozen_and_this_process_thaws_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(workers, "can_fork", lambda: True)
    assert gc.get_freeze_count() == 0
    # Items at odd indices are done by the child: it reports its frozen objects.
    counts = workers.parallel_map(lambda _: (os.getpid(), gc.get_freeze_count()), [0, 1])
    (here, in_parent), (there, in_child) = counts
    assert here == os.getpid() and there != here
    assert in_parent == 0
    assert in_child > 1000  # the modules, the test session: everything this process holds
    assert gc.get_freeze_count() == 0


def test_what_a_paced_block_holds_stays_frozen_until_it_ends() -> None:
    kept = [{"card": n} for n in range(1000)]
    with collector.paced() as pace:
        assert gc.get_freeze_count() == 0
        pace.hold()
        assert gc.get_freeze_count() >= len(kept)
        assert pace.holding
    assert gc.get_freeze_count() == 0


def test_a_process_that_froze_objects_itself_keeps_them_frozen() -> None:
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        # A thaw empties the permanent generation; a frozen object that dies meanwhile (its
        # last reference dropped) leaves it alone, so the count may fall by a few.
        with collector.frozen_for_fork():
            pass
        assert gc.get_freeze_count() > frozen * 0.99
        with collector.paced() as pace:
            pace.hold()
            assert not pace.holding
        assert gc.get_freeze_count() > frozen * 0.99
    finally:
        gc.unfreeze()


def test_a_build_runs_paced_and_leaves_the_collector_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from konum import build

    seen: list[tuple[int, int, int]] = []
    frozen_while_filling: list[int] = []
    mkdocs_build, fill_quizzes = build._mkdocs_build, build._fill_quizzes

    def recording(*args: object, **kwargs: object) -> None:
        seen.append(gc.get_threshold())
        mkdocs_build(*args, **kwargs)  # type: ignore[arg-type]

    def filling(*args: object, **kwargs: object) -> None:
        frozen_while_filling.append(gc.get_freeze_count())
        fill_quizzes(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(build, "_mkdocs_build", recording)
    monkeypatch.setattr(build, "_fill_quizzes", filling)
    monkeypatch.setenv("NO_MKDOCS_2_WARNING", "1")
    before = gc.get_threshold()
    project = make_project(tmp_path)
    build.build_site(project / "mkdocs.yml", seed=2, site_dir=tmp_path / "out")
    assert seen == [collector.BUILD_THRESHOLDS]
    # Once every bank's output is here, the build holds it frozen to the end.
    assert len(frozen_while_filling) == 1 and frozen_while_filling[0] > 1000
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0
    assert (tmp_path / "out" / "lessons" / "quiz.html").is_file()


def test_the_command_line_ends_with_the_heap_frozen_and_exit_handlers_run() -> None:
    """The interpreter's last collections would walk a build's whole heap (0.8 s at
    10,000 questions); konum freezes it first, and atexit handlers still run."""
    code = (
        "import atexit, gc\n"
        "atexit.register(lambda: print('frozen at exit:', gc.get_freeze_count() > 0))\n"
        "from konum.cli import main\n"
        "main(['--version'])\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [f"konum, version {__version__}", "frozen at exit: True"]
