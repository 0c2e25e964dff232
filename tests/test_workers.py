"""generator.workers.parallel_map: same results as a loop, failures raised where they belong."""

from __future__ import annotations

import os

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
