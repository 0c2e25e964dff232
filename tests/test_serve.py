"""konum serve: the preview rebuilds when a bank changes (banks are part of live reload)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.miniproject import make_project

pytestmark = pytest.mark.slow


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _fetch(url: str) -> str | None:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return str(response.read().decode("utf-8"))
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return None


def _wait_for(url: str, needle: str, proc: subprocess.Popen[str], timeout: float = 120) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            _, err = proc.communicate()
            pytest.fail(f"konum serve exited early: {err}")
        page = _fetch(url)
        if page is not None and needle in page:
            return page
        time.sleep(0.5)
    pytest.fail(f"{needle!r} never appeared at {url}")


def test_serve_reloads_when_a_bank_changes(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    port = _free_port()
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "konum", "serve", "-a", f"127.0.0.1:{port}"],
        cwd=project,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        url = f"http://127.0.0.1:{port}/lessons/quiz.html"
        _wait_for(url, "Which function fills the even columns", proc)
        bank = project / "content" / "banks" / "mini.yml"
        bank.write_text(bank.read_text().replace("Which function fills", "Which curve fills"))
        _wait_for(url, "Which curve fills the even columns", proc)
    finally:
        proc.terminate()
        _, said = proc.communicate(timeout=30)
    # It says where it serves and when a build is done, as `mkdocs serve` does.
    assert f"Serving on http://127.0.0.1:{port}/" in said, said
    assert "Documentation built in" in said, said
