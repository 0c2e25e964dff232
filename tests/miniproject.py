"""A small copy of the project (two pages, one bank) for tests that run whole builds.

The real site takes long to build; this one exercises the same stages (values, math, quiz
block, assets, downloads) in a couple of seconds.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
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
    project: Path,
    *args: str,
    env: dict[str, str] | None = None,
    timeout: float = 300,
    process: bool = False,
) -> subprocess.CompletedProcess[str]:
    """Run ``konum ARGS`` in ``project`` and capture its output and exit code.

    In this process (the CLI's own entry, :func:`konum.cli._run`, with the working folder,
    the environment and the standard streams swapped for the call), unless ``process`` asks
    for ``python -m konum`` in a process of its own: for what only a process shows (its
    exit on a signal, what it inherits).
    """
    full_env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", **(env or {})}
    full_env.pop("KONUM_SEED", None)
    if process:
        return subprocess.run(
            [sys.executable, "-m", "konum", *args],
            cwd=project,
            env=full_env,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
    from konum.cli import _run

    out, err = io.StringIO(), io.StringIO()
    saved_env, saved_cwd = dict(os.environ), os.getcwd()
    os.environ.clear()
    os.environ.update(full_env)
    os.chdir(project)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = _run(list(args))
    finally:
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)
    return subprocess.CompletedProcess(["konum", *args], code, out.getvalue(), err.getvalue())


def tree_digest(folder: Path) -> dict[str, str]:
    """SHA-256 of every file below ``folder``, by relative path."""
    return {
        str(path.relative_to(folder)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }
