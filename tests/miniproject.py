"""A small copy of the project (two pages, one bank) for tests that run whole builds.

The real site takes long to build; this one exercises the same stages (values, math, quiz
block, assets, downloads) in a couple of seconds.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
FIXTURE = Path(__file__).resolve().parent / "fixtures" / "miniproject"


def make_project(where: Path) -> Path:
    """Copy the mini project into ``where`` (konum's templates and assets come with the
    installed package)."""
    project = where / "project"
    shutil.copytree(FIXTURE, project)
    return project


def konum(
    project: Path, *args: str, env: dict[str, str] | None = None, timeout: float = 300
) -> subprocess.CompletedProcess[str]:
    """Run ``python -m konum ARGS`` in ``project`` and capture its output."""
    full_env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", **(env or {})}
    full_env.pop("KONUM_SEED", None)
    return subprocess.run(
        [sys.executable, "-m", "konum", *args],
        cwd=project,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def tree_digest(folder: Path) -> dict[str, str]:
    """SHA-256 of every file below ``folder``, by relative path."""
    return {
        str(path.relative_to(folder)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }
