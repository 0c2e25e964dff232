"""generator.collector: a build collects garbage less often and leaves the collector as it
found it; a forked child keeps what it inherited frozen, this process thaws it."""

from __future__ import annotations

import gc
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from generator import collector, workers
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


def test_a_process_that_froze_objects_itself_keeps_them_frozen() -> None:
    gc.freeze()
    frozen = gc.get_freeze_count()
    with collector.frozen_for_fork():
        pass
    assert gc.get_freeze_count() == frozen


def test_a_build_runs_paced_and_leaves_the_collector_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from generator import build

    seen: list[tuple[int, int, int]] = []
    mkdocs_build = build._mkdocs_build

    def recording(*args: object, **kwargs: object) -> None:
        seen.append(gc.get_threshold())
        mkdocs_build(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(build, "_mkdocs_build", recording)
    monkeypatch.setenv("NO_MKDOCS_2_WARNING", "1")
    before = gc.get_threshold()
    project = make_project(tmp_path)
    build.build_site(project / "mkdocs.yml", seed=2, site_dir=tmp_path / "out")
    assert seen == [collector.BUILD_THRESHOLDS]
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0
    assert (tmp_path / "out" / "lessons" / "quiz.html").is_file()
