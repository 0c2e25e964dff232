"""konum.workers: parallel_map gives a loop's results and raises where it should; a
build's banks are each done once, by one of two processes, their results in bank order."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from konum import workers

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")


@pytest.fixture(autouse=True)
def forking(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fork path even when the test session runs threads (the browser tests' driver);
    these children run plain functions only, which is safe after a fork."""
    monkeypatch.setattr(workers, "can_fork", lambda: True)


def test_parallel_map_equals_the_loop_in_order() -> None:
    items = list(range(17))
    results = workers.parallel_map(lambda x: (x * x, os.getpid()), items)
    assert [r[0] for r in results] == [x * x for x in items]
    # Every other item was done by another process.
    assert {r[1] for r in results[1::2]} != {os.getpid()}
    assert {r[1] for r in results[0::2]} == {os.getpid()}


def test_parallel_map_of_nothing_or_one() -> None:
    assert workers.parallel_map(str, []) == []
    assert workers.parallel_map(str, [5]) == ["5"]


def test_an_exception_in_the_child_is_raised_here() -> None:
    def func(x: int) -> int:
        if x == 3:  # an odd index: the child's item
            raise ValueError("item 3 is bad")
        return x

    with pytest.raises(ValueError, match="item 3 is bad"):
        workers.parallel_map(func, [0, 1, 2, 3, 4])


def test_a_child_that_dies_costs_time_not_results() -> None:
    parent = os.getpid()

    def func(x: int) -> int:
        if os.getpid() != parent:
            os._exit(7)
        return x + 1

    assert workers.parallel_map(func, [1, 2, 3, 4]) == [2, 3, 4, 5]


def _preparation(tmp_path: Path, work: Any, names: str = "abcdefgh") -> workers.Preparation[Any]:
    banks = tuple(SimpleNamespace(id=name) for name in names)
    return workers.Preparation(
        load=lambda: banks,  # type: ignore[arg-type,return-value]
        work=work,
        folder=tmp_path / "work",
    )


def test_each_bank_is_done_once_and_the_results_come_in_bank_order(tmp_path: Path) -> None:
    """The child works from the first bank, this process from the last: each bank once."""
    log = tmp_path / "done.txt"

    def work(bank: Any) -> tuple[str, int]:
        time.sleep(0.05)
        with open(log, "a", encoding="utf-8") as out:
            out.write(f"{bank.id}\n")
        return bank.id.upper(), os.getpid()

    prep = _preparation(tmp_path, work)
    try:
        prep.banks()
        time.sleep(0.12)  # MkDocs busy: the child has begun at the front
        results = prep.results()
    finally:
        prep.abandon()
    assert [r[0] for r in results] == list("ABCDEFGH")
    assert sorted(log.read_text(encoding="utf-8").split()) == list("abcdefgh")
    pids = [r[1] for r in results]
    assert pids[0] != os.getpid() and pids[-1] == os.getpid()
    # Each process did a contiguous run: the child's from the front, this one's from the back.
    split = pids.index(os.getpid())
    assert set(pids[:split]) == {pids[0]} and set(pids[split:]) == {os.getpid()}
    assert list((tmp_path / "work").iterdir()) == []  # the child's results were taken


def test_the_childs_results_are_taken_between_this_processs_banks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Loading what the child made overlaps its work: not all of it after this process's
    last bank, while the child may be done and one core idle."""
    parent = os.getpid()
    events: list[str] = []
    take = workers.Preparation._take

    def logged_take(self: Any, message: tuple[Any, ...], results: dict[int, Any]) -> None:
        if message[0] == "done":
            events.append("taken")
        take(self, message, results)

    def work(bank: Any) -> str:
        if os.getpid() == parent:
            events.append("mine")
            time.sleep(0.3)
        else:
            time.sleep(0.05)
        return bank.id

    monkeypatch.setattr(workers.Preparation, "_take", logged_take)
    prep = _preparation(tmp_path, work, "abcdefghijklmnop")
    try:
        assert prep.results() == list("abcdefghijklmnop")
    finally:
        prep.abandon()
    last_mine = len(events) - 1 - events[::-1].index("mine")
    assert events.count("mine") >= 2 and "taken" in events[:last_mine], events


def test_a_bank_that_fails_in_the_child_raises_here(tmp_path: Path) -> None:
    """What the child cannot do is done again here, where its exception is raised."""
    parent = os.getpid()

    def work(bank: Any) -> str:
        if bank.id == "b":
            raise ValueError(
                f"bank b fails (in {'this' if os.getpid() == parent else 'a'} process)"
            )
        return bank.id

    prep = _preparation(tmp_path, work, "abc")
    try:
        prep.banks()
        time.sleep(0.3)  # the child takes every bank
        with pytest.raises(ValueError, match=r"bank b fails \(in this process\)"):
            prep.results()
    finally:
        prep.abandon()


def test_a_child_that_dies_costs_time_not_bank_results(tmp_path: Path) -> None:
    parent = os.getpid()

    def work(bank: Any) -> str:
        if os.getpid() != parent and bank.id == "c":
            os._exit(3)
        return bank.id

    prep = _preparation(tmp_path, work, "abcdef")
    try:
        prep.banks()
        time.sleep(0.3)
        assert prep.results() == list("abcdef")
    finally:
        prep.abandon()


def test_without_fork_the_work_is_done_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(workers, "can_fork", lambda: False)
    prep = _preparation(tmp_path, lambda bank: (bank.id, os.getpid()), "xyz")
    assert prep.results() == [("x", os.getpid()), ("y", os.getpid()), ("z", os.getpid())]
    assert not (tmp_path / "work").exists()


def test_a_child_that_dies_while_taking_a_bank_does_not_hold_this_process_up(
    tmp_path: Path,
) -> None:
    """The ends are guarded by a lock the kernel releases when its holder dies."""
    ends = workers._Ends(tmp_path / "ends.lock")
    ends.set_count(3)

    def die_holding_the_lock(_channel: int) -> None:
        with ends._locked():
            os._exit(9)

    child = workers._Child(die_holding_the_lock)
    assert child.wait() == "killed"

    def hung(_signum: int, _frame: object) -> None:
        raise TimeoutError("the ends' lock was left held by a dead child")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(20)  # a lock left held would hang here: fail instead
    try:
        assert [ends.back(), ends.front(), ends.back(), ends.front()] == [2, 0, 1, None]
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
        ends.close()
    assert list(tmp_path.iterdir()) == []


def _finishing(tmp_path: Path, finish: Any, names: str = "abcd") -> workers.Preparation[Any]:
    banks = tuple(SimpleNamespace(id=name) for name in names)
    return workers.Preparation(
        load=lambda: banks,  # type: ignore[arg-type,return-value]
        work=lambda bank: bank.id.upper(),
        folder=tmp_path / "work",
        finish=finish,
    )


def test_a_child_that_made_every_result_finishes_with_them(tmp_path: Path) -> None:
    mark = tmp_path / "finished.txt"

    def finish(results: list[str]) -> bool:
        mark.write_text(f"{os.getpid()} {''.join(results)}", encoding="utf-8")
        return True

    prep = _finishing(tmp_path, finish)
    try:
        prep.banks()
        time.sleep(0.3)  # MkDocs busy: the child takes every bank
        assert prep.results() == list("ABCD")
        assert prep.finishing
        assert prep.finished()
        assert not prep.finishing and not prep.finished()  # once
    finally:
        prep.abandon()
    pid, results = mark.read_text(encoding="utf-8").split()
    assert pid != str(os.getpid()) and results == "ABCD"  # in the child, in bank order


def test_no_finish_when_this_process_took_banks(tmp_path: Path) -> None:
    mark = tmp_path / "finished.txt"

    def finish(results: list[str]) -> bool:
        mark.write_text("finished", encoding="utf-8")
        return True

    banks = tuple(SimpleNamespace(id=name) for name in "abcdef")
    prep = workers.Preparation(
        load=lambda: banks,  # type: ignore[arg-type,return-value]
        work=lambda bank: (time.sleep(0.1), bank.id)[1],
        folder=tmp_path / "work",
        finish=finish,
    )
    try:
        prep.banks()
        assert prep.results() == list("abcdef")  # at once: this process takes the last ones
        assert not prep.finishing and not prep.finished()
    finally:
        prep.abandon()
    assert not mark.exists()


@pytest.mark.parametrize("how", ["declines", "raises", "dies"])
def test_a_finish_that_does_not_happen_is_left_to_this_process(tmp_path: Path, how: str) -> None:
    def finish(results: list[str]) -> bool:
        if how == "raises":
            raise OSError(28, "No space left on device")
        if how == "dies":
            os._exit(9)
        return False

    prep = _finishing(tmp_path, finish)
    try:
        prep.banks()
        time.sleep(0.3)
        assert prep.results() == list("ABCD")
        assert not prep.finished()
    finally:
        prep.abandon()


# --- run_jobs: the tail of a build, shared by two processes -----------------------------------


def _marking_jobs(
    folder: Path, count: int, *, fail: int | None = None, after: Path | None = None
) -> list[Any]:
    """Jobs that each append their process id to their own file, ``<index>.txt``, once
    ``after`` exists (job ``fail`` raises in a child)."""
    parent = os.getpid()

    def job(index: int) -> Any:
        def run() -> None:
            deadline = time.monotonic() + 30
            while after is not None and not after.exists() and time.monotonic() < deadline:
                time.sleep(0.01)
            if index == fail and os.getpid() != parent:
                raise ValueError(f"job {index} failed in the child")
            with open(folder / f"{index}.txt", "a") as f:
                f.write(f"{os.getpid()}\n")

        return run

    return [job(index) for index in range(count)]


def _runs(folder: Path, count: int) -> list[list[int]]:
    return [
        [int(line) for line in (folder / f"{index}.txt").read_text().split()]
        if (folder / f"{index}.txt").exists()
        else []
        for index in range(count)
    ]


def test_run_jobs_runs_each_once_and_the_child_takes_the_first(tmp_path: Path) -> None:
    started = tmp_path / "started"

    def first() -> None:
        started.touch()
        (tmp_path / "first.txt").write_text(str(os.getpid()))

    # This process's jobs wait for the first to start: the child must have taken it.
    jobs = [first, *_marking_jobs(tmp_path, 4, after=started)]
    workers.run_jobs(jobs, tmp_path / "jobs.lock")
    assert int((tmp_path / "first.txt").read_text()) != os.getpid()
    assert [len(r) for r in _runs(tmp_path, 4)] == [1, 1, 1, 1]
    assert not (tmp_path / "jobs.lock").exists()


def test_run_jobs_shares_work_between_the_two_processes(tmp_path: Path) -> None:
    started = tmp_path / "started"

    def job(index: int) -> Any:
        def run() -> None:
            if index == 0:
                started.touch()
            deadline = time.monotonic() + 30  # until the child has taken the first job
            while not started.exists() and time.monotonic() < deadline:
                time.sleep(0.01)
            time.sleep(0.05)
            (tmp_path / f"{index}.txt").write_text(f"{os.getpid()}\n")

        return run

    workers.run_jobs([job(index) for index in range(12)], tmp_path / "jobs.lock")
    pids = [r[0] for r in _runs(tmp_path, 12)]
    assert pids[0] != os.getpid() and pids[-1] == os.getpid()
    # The child took a prefix and this process the rest, each job once.
    split = pids.index(os.getpid())
    assert set(pids[:split]) == {pids[0]} and set(pids[split:]) == {os.getpid()}


def test_a_job_that_fails_in_the_child_is_run_again_and_raises_here(tmp_path: Path) -> None:
    jobs = _marking_jobs(tmp_path, 3, fail=0)
    parent = os.getpid()
    real = jobs[0]

    def first() -> None:
        real()
        if os.getpid() == parent:
            raise ValueError("job 0 failed here")

    with pytest.raises(ValueError, match="job 0 failed here"):
        workers.run_jobs([first, *jobs[1:]], tmp_path / "jobs.lock")
    assert [len(r) for r in _runs(tmp_path, 3)] == [1, 1, 1]  # job 0 once, here


def test_jobs_of_a_child_that_dies_are_run_here(tmp_path: Path) -> None:
    parent = os.getpid()

    def die() -> None:
        if os.getpid() != parent:
            os._exit(3)
        (tmp_path / "0.txt").write_text(f"{os.getpid()}\n")

    jobs = [die, *_marking_jobs(tmp_path, 3)[1:]]
    workers.run_jobs(jobs, tmp_path / "jobs.lock")
    assert _runs(tmp_path, 3) == [[parent], [parent], [parent]]


def test_run_jobs_without_fork_or_with_one_job_runs_them_here_in_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    done: list[tuple[int, int]] = []
    workers.run_jobs([lambda: done.append((0, os.getpid()))], tmp_path / "jobs.lock")
    monkeypatch.setattr(workers, "can_fork", lambda: False)
    jobs = [lambda i=i: done.append((i, os.getpid())) for i in range(1, 4)]
    workers.run_jobs(jobs, tmp_path / "jobs.lock")
    assert done == [(i, os.getpid()) for i in range(4)]
