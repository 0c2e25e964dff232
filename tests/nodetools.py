"""Node.js tools the tests read exports back with, installed from the npm registry.

A module of its own, not conftest.py: ``tests/browser`` has a conftest.py too, and which of
the two ``import conftest`` finds depends on the order pytest collects them in.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest


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
