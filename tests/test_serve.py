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


def _wait_in(path: Path, needle: str, timeout: float = 120) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        said = path.read_text(encoding="utf-8")
        if needle in said:
            return said
        time.sleep(0.5)
    pytest.fail(f"{needle!r} never appeared in {path.read_text(encoding='utf-8')}")


def test_serve_reloads_when_a_bank_changes(tmp_path: Path) -> None:
    """Rebuilt on a bank's change; a page's error said on one line at the page and its line,
    as konum check and konum build say it, and the next good change served again."""
    project = make_project(tmp_path)
    port = _free_port()
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    log = tmp_path / "serve.log"
    with log.open("w", encoding="utf-8") as stderr:
        proc = subprocess.Popen(
            [sys.executable, "-m", "konum", "serve", "-a", f"127.0.0.1:{port}"],
            cwd=project,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=stderr,
            text=True,
        )
        try:
            url = f"http://127.0.0.1:{port}/lessons/quiz.html"
            _wait_for(url, "Which function fills the even columns", proc)
            bank = project / "content" / "banks" / "mini.yml"
            bank.write_text(bank.read_text().replace("Which function fills", "Which curve fills"))
            _wait_for(url, "Which curve fills the even columns", proc)
            page = project / "content" / "lessons" / "quiz.md"
            good = page.read_text(encoding="utf-8")
            page.write_text(good + "\n/// quiz | minni\n///\n", encoding="utf-8")
            _wait_in(log, "names bank 'minni'")
            page.write_text(good.replace("# A quiz", "# A quiz again"), encoding="utf-8")
            _wait_for(url, "A quiz again", proc)
        finally:
            proc.terminate()
            proc.communicate(timeout=30)
    said = log.read_text(encoding="utf-8")
    # It says where it serves and when a build is done, as `mkdocs serve` does.
    assert f"Serving on http://127.0.0.1:{port}/" in said, said
    assert "Documentation built in" in said, said
    error = [line for line in said.splitlines() if "'minni'" in line]
    assert error == [
        "ERROR   -  content/lessons/quiz.md:8: /// quiz | minni: names bank 'minni', which does"
        " not exist; did you mean 'mini'? (banks: mini)"
    ], said
    assert "Error reading page" not in said


def test_serve_shows_a_broken_bank_in_the_page_and_recovers(tmp_path: Path) -> None:
    """While a bank is broken the preview answers: the page the reader is on shows the
    problem's line (file, line, question id) instead of waiting for a build that never
    comes, and the next good save serves the page again. ``--seed`` reaches the build
    without a file written beside mkdocs.yml."""
    project = make_project(tmp_path)
    port = _free_port()
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    log = tmp_path / "serve.log"
    before = sorted(p.name for p in project.iterdir())
    with log.open("w", encoding="utf-8") as stderr:
        proc = subprocess.Popen(
            [sys.executable, "-m", "konum", "serve", "--seed", "3", "-a", f"127.0.0.1:{port}"],
            cwd=project,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=stderr,
            text=True,
        )
        try:
            url = f"http://127.0.0.1:{port}/lessons/quiz.html"
            _wait_for(url, "Which function fills the even columns", proc)
            assert sorted(p.name for p in project.iterdir()) == before
            bank = project / "content" / "banks" / "mini.yml"
            good = bank.read_text(encoding="utf-8")
            bank.write_text(good.replace("type: fill", "type: filll"), encoding="utf-8")
            page = _wait_for(url, "[mini-fill]", proc, timeout=60)
            assert "content/banks/mini.yml:" in page and "filll" in page
            assert "livereload" in page  # and it reloads itself on the next build
            bank.write_text(good.replace("Which function fills", "Which curve fills"))
            _wait_for(url, "Which curve fills the even columns", proc)
        finally:
            proc.terminate()
            proc.communicate(timeout=30)
    said = log.read_text(encoding="utf-8")
    assert "Traceback" not in said and "appear stuck" not in said, said
