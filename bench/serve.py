"""Save to reloaded page: ``konum serve`` against mkdocs-quiz's ``mkdocs serve``.

Both serve the same 1,000 questions (:func:`peer.write_pair`). A round saves one question's
prompt with a new word in it (konum: in its bank file; mkdocs-quiz: in its page, where its
questions are written) and polls the served page until the word is there; the figure is
the time from the save to that answer. The two servers take turns, round by round, so that
the machine's drift hits both alike (a ratio is the median of the rounds' ratios).
"""

from __future__ import annotations

import os
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from pathlib import Path

from common import Timing, clean_env

#: How often the served page is asked for while a rebuild runs.
POLL = 0.02


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def fetch(url: str) -> str | None:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return str(response.read().decode("utf-8"))
    except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
        return None


def wait_for(url: str, needle: str, proc: subprocess.Popen[str], timeout: float = 300) -> float:
    """Poll ``url`` until it holds ``needle``; the time it took (seconds)."""
    start = time.perf_counter()
    while time.perf_counter() - start < timeout:
        if proc.poll() is not None:
            raise RuntimeError(
                f"the server exited early: {proc.stderr.read() if proc.stderr else ''}"
            )
        page = fetch(url)
        if page is not None and needle in page:
            return time.perf_counter() - start
        time.sleep(POLL)
    raise RuntimeError(f"{needle!r} never appeared at {url}")


class Server:
    """A preview server started in ``project``, serving ``page`` at ``url``; ``source`` is the
    file a save edits and ``prompt`` the text in it a save replaces."""

    def __init__(
        self, cmd: Sequence[str | Path], project: Path, page: str, source: Path, prompt: str
    ) -> None:
        self.port = free_port()
        self.proc = subprocess.Popen(
            [*map(str, cmd), "-a", f"127.0.0.1:{self.port}"],
            cwd=project,
            env=clean_env(),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.url = f"http://127.0.0.1:{self.port}/{page}"
        self.source, self.prompt = source, prompt
        self.original = source.read_text(encoding="utf-8")
        self.shown = prompt

    def ready(self) -> float:
        return wait_for(self.url, self.shown, self.proc)

    def save(self, word: str) -> float:
        """Save the prompt with ``word`` in it; seconds until the served page shows it."""
        text = self.original.replace(self.prompt, f"{self.prompt} {word}", 1)
        assert text != self.original
        self.source.write_text(text, encoding="utf-8")
        self.shown = word
        return wait_for(self.url, word, self.proc)

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.source.write_text(self.original, encoding="utf-8")


def save_to_reload(
    konum_cmd: Sequence[str | Path],
    konum_project: Path,
    peer_cmd: Sequence[str | Path],
    peer_project: Path,
    rounds: int,
) -> dict[str, Timing]:
    """Rounds of one save each in both servers, taking turns; their times to the reload."""
    prompt = "Question 0: which column of row 0 holds a sine?"
    page = "lessons/page-000.html"
    konum = Server(
        konum_cmd, konum_project, page, konum_project / "content" / "banks" / "bank-000.yml", prompt
    )
    peer = Server(
        peer_cmd, peer_project, page, peer_project / "docs" / "lessons" / "page-000.md", prompt
    )
    runs: dict[str, list[float]] = {"konum": [], "peer": []}
    try:
        konum.ready()
        peer.ready()
        for n in range(rounds + 1):
            for name, server in (("konum", konum), ("peer", peer)):
                seconds = server.save(f"saved{os.getpid()}x{n}{name}")
                if n:  # the first round warms each server (its first rebuild)
                    runs[name].append(seconds)
                time.sleep(0.5)  # the other server's watcher settles
    finally:
        konum.stop()
        peer.stop()
    return {name: Timing(tuple(r)) for name, r in runs.items()}
