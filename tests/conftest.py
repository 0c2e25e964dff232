"""Shared fixtures.

- ``built_site``: the real project built once per test session, in-process, as ``konum
  build`` builds it (seed 42, ``SOURCE_DATE_EPOCH`` fixed), into a temporary folder; the site
  tests and the browser tests read it instead of building again. Beside it,
  ``real-site.conversions.json`` counts how often Python-Markdown converted each text in that build.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
EPOCH = "1767225600"


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The real site (lessons, quizzes, downloads), built once for the whole run: the
    first pytest-xdist worker to ask builds it under a lock, the others wait and read the
    same folder (no test writes into it)."""
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent  # shared by the workers of this run
    site, done = root / "real-site", root / "real-site.done"
    with open(root / "real-site.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():
            _build_real_site(site)
            done.touch()
    return site


@contextlib.contextmanager
def _environment(**values: str) -> Iterator[None]:
    saved = {key: os.environ.get(key) for key in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


@contextlib.contextmanager
def _counting_conversions(counts: Counter[str]) -> Iterator[None]:
    import markdown

    real = markdown.Markdown.convert

    def convert(self: markdown.Markdown, source: str) -> str:
        counts[source] += 1
        return real(self, source)

    markdown.Markdown.convert = convert  # type: ignore[method-assign]
    try:
        yield
    finally:
        markdown.Markdown.convert = real  # type: ignore[method-assign]


def _build_real_site(site: Path) -> None:
    from konum.build import build_site
    from konum.errors import KonumError
    from konum.markup import render_text
    from konum.problems import BankError

    # The count is the build's own: texts an earlier test of this worker rendered would
    # otherwise come from the cache and go uncounted; and in one process (jobs=1), since a
    # check worker's conversions would go uncounted too.
    render_text.cache_clear()
    counts: Counter[str] = Counter()
    try:
        with (
            _environment(NO_MKDOCS_2_WARNING="1", SOURCE_DATE_EPOCH=EPOCH),
            _counting_conversions(counts),
        ):
            build_site(REPO / "mkdocs.yml", seed=42, site_dir=site, jobs=1)
    except (KonumError, BankError) as exc:
        pytest.fail(f"konum build of the real site failed:\n{exc}")
    twice = {text[:200]: n for text, n in counts.items() if n > 1}
    report = {"texts": len(counts), "conversions": sum(counts.values()), "repeated": twice}
    (site.parent / "real-site.conversions.json").write_text(json.dumps(report), encoding="utf-8")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test that reads the real site is slow: the quick suite builds only mini projects."""
    for item in items:
        if "built_site" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.slow)
