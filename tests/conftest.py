"""Shared fixtures.

- ``built_site``: the real project built once per test session with ``konum build`` (seed 42,
  ``SOURCE_DATE_EPOCH`` fixed) into a temporary folder; the site tests and the browser tests
  read it instead of building again.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
EPOCH = "1767225600"


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The real site (lessons, quizzes, downloads), built once for the session."""
    site = tmp_path_factory.mktemp("real") / "site"
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
    return site


def node_tool(source: Path, files: tuple[str, ...], folder: Path) -> str:
    """Node.js's path, with the npm package of ``source`` (its ``package.json`` and lock file,
    and ``files``) installed from the npm registry into ``folder``: the GIFT reader and
    MathJax, which no PyPI package replaces."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        pytest.fail(f"the tests of {source.name} run with Node.js: install Node.js and npm")
    for name in ("package.json", "package-lock.json", *files):
        shutil.copy(source / name, folder / name)
    subprocess.run(
        [npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--silent"],
        cwd=folder,
        check=True,
        timeout=300,
        capture_output=True,
    )
    return node
