"""generator.workers: parallel_map gives a loop's results and raises where it should; the
downloads of a build are written once, by whichever process is free first."""

from __future__ import annotations

import os
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from generator import workers

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


def test_a_token_goes_to_exactly_one_of_two_processes() -> None:
    for _ in range(20):
        token = workers._Token()
        child = workers._Child(
            lambda channel, token=token: os.write(channel, b"1" if token.take() else b"0")
        )
        mine = token.take()
        with os.fdopen(child.channel, "rb", closefd=False) as stream:
            theirs = stream.read() == b"1"
        assert child.wait() is None
        token.close()
        assert mine != theirs


def _preparation(tmp_path: Path, render_seconds: float) -> workers.Preparation:
    """Three banks; two download parts that note which process wrote them."""
    log = tmp_path / "written.txt"

    def part(name: str) -> Any:
        def write(banks: Any, concretes: Any) -> None:
            with open(log, "a", encoding="utf-8") as out:
                out.write(f"{name} {os.getpid()}\n")

        return write

    def render(bank: Any) -> str:
        time.sleep(render_seconds)
        return bank.id

    banks = tuple(SimpleNamespace(id=i) for i in ("a", "b", "c"))
    return workers.Preparation(
        load=lambda: banks,  # type: ignore[arg-type,return-value]
        draw=lambda _banks: [],
        render=render,
        write=[part("exports"), part("study")],
        folder=tmp_path / "quizzes",
    )


def _writers(tmp_path: Path) -> list[tuple[str, int]]:
    lines = (tmp_path / "written.txt").read_text(encoding="utf-8").split("\n")
    return sorted((name, int(pid)) for name, pid in (line.split() for line in lines if line))


def test_downloads_go_to_this_process_while_the_child_renders(tmp_path: Path) -> None:
    """MkDocs done first (many questions): this process writes both parts, once each."""
    prep = _preparation(tmp_path, render_seconds=0.3)
    try:
        prep.banks()
        prep.write_if_free()
        prep.finish()
    finally:
        prep.abandon()
    assert _writers(tmp_path) == [("exports", os.getpid()), ("study", os.getpid())]


def test_downloads_go_to_the_child_once_its_quizzes_are_done(tmp_path: Path) -> None:
    """The child done first (few questions, many pages): it writes both parts, once each."""
    prep = _preparation(tmp_path, render_seconds=0)
    child = prep._child.pid if prep._child else None
    try:
        prep.banks()
        time.sleep(1)  # MkDocs still busy
        prep.finish()
    finally:
        prep.abandon()
    assert _writers(tmp_path) == [("exports", child), ("study", child)]
