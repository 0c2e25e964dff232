"""Shared fixtures.

- ``built_site``: the real project built once per test session with ``konum build`` (seed 42,
  ``SOURCE_DATE_EPOCH`` fixed) into a temporary folder; the site tests and the browser tests
  read it instead of building again.
"""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
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


def _build_real_site(site: Path) -> None:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "SOURCE_DATE_EPOCH": EPOCH}
    env.pop("KONUM_SEED", None)
    result = subprocess.run(
        [sys.executable, "-m", "konum", "build", "--seed", "42", "-d", str(site)],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    if result.returncode != 0:
        pytest.fail(f"konum build of the real site failed:\n{result.stderr}")
