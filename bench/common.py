"""Shared helpers for the benchmarks: timing, subprocesses, page weight, versions.

Conventions: every time is wall-clock seconds from :func:`time.perf_counter`; a measurement
is a list of repetitions summarised as median and min (:class:`Timing`). Bytes "as a server
would send them" are gzip at level 6 (the usual default of web servers' compression
modules), each file counted once per page. konum's CSS and JS travel inside a quiz page's
HTML; what they cost there is the page gzipped with them less the page gzipped without
(:func:`inline_weight`).
"""

from __future__ import annotations

import gzip
import html.parser
import json
import os
import platform
import re
import resource
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from urllib.parse import urlsplit

REPO = Path(__file__).resolve().parent.parent
WORK = REPO / "bench" / "work"
VENV_PYTHON = REPO / ".venv" / "bin" / "python"
GZIP_LEVEL = 6


@dataclass(frozen=True)
class Timing:
    """Repetitions of one measurement, in seconds."""

    runs: tuple[float, ...]

    @property
    def median(self) -> float:
        return statistics.median(self.runs)

    @property
    def min(self) -> float:
        return min(self.runs)

    def text(self, unit: str = "s") -> str:
        """``"1.23 s (min 1.20, n=3)"`` or in ms with ``unit="ms"``."""
        scale = 1000.0 if unit == "ms" else 1.0
        return f"{self.median * scale:.3g} {unit} (min {self.min * scale:.3g}, n={len(self.runs)})"


def time_call(fn: Callable[[], object], repeat: int) -> Timing:
    """Call ``fn`` ``repeat`` times and time each call."""
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        runs.append(time.perf_counter() - start)
    return Timing(tuple(runs))


class CommandFailed(RuntimeError):
    """A benchmarked command exited non-zero; the message holds the end of its stderr."""


def clean_env(**extra: str) -> dict[str, str]:
    """The environment for benchmarked commands: no seed override, no MkDocs 2 banner."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONDONTWRITEBYTECODE": "1", **extra}
    for key in ("KONUM_SEED", "KONUM_VARIANTS"):
        env.pop(key, None)
    return env


def compile_konum() -> None:
    """Compile konum's modules to bytecode in place (``__pycache__``, ignored by git).

    The Makefile and :func:`clean_env` set ``PYTHONDONTWRITEBYTECODE``, so without this
    every timed ``konum`` process would compile the package from source (about 0.25 s),
    which a user's Python does once, on the first run. The peers' packages were compiled
    by pip when they were installed.
    """
    subprocess.run(
        [str(VENV_PYTHON), "-m", "compileall", "-q", str(REPO / "generator" / "konum")],
        check=True,
        capture_output=True,
    )


#: CPU seconds (user + system) of every :func:`run_timed` command, in order: the command
#: and every process below it that was waited for (``RUSAGE_CHILDREN``).
CPU_SECONDS: list[float] = []


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_timed(cmd: Sequence[str | Path], cwd: Path, *, timeout: float = 600) -> float:
    """Run ``cmd`` in ``cwd`` and return its wall time (its CPU time is appended to
    :data:`CPU_SECONDS`); raise :class:`CommandFailed` on error."""
    cpu = _children_cpu()
    start = time.perf_counter()
    proc = subprocess.run(
        [str(c) for c in cmd],
        cwd=cwd,
        env=clean_env(),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    elapsed = time.perf_counter() - start
    CPU_SECONDS.append(_children_cpu() - cpu)
    if proc.returncode != 0:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-12:]
        raise CommandFailed(
            f"{' '.join(map(str, cmd))} exited {proc.returncode}:\n" + "\n".join(tail)
        )
    return elapsed


def run_json(cmd: Sequence[str | Path], cwd: Path, *, timeout: float = 900) -> dict[str, object]:
    """Run a worker command whose last stdout line is JSON, and return that object."""
    proc = subprocess.run(
        [str(c) for c in cmd],
        cwd=cwd,
        env=clean_env(),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    if proc.returncode != 0:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-15:]
        raise CommandFailed(
            f"{' '.join(map(str, cmd))} exited {proc.returncode}:\n" + "\n".join(tail)
        )
    return json.loads(proc.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def fresh_dir(path: Path) -> Path:
    """``path`` emptied (created when missing)."""
    if path.exists():
        shutil.rmtree(path)
    path.mkdir(parents=True)
    return path


# --- page weight ------------------------------------------------------------------------


def gzip_size(data: bytes) -> int:
    """Bytes of ``data`` gzipped as a server would send it."""
    return len(gzip.compress(data, compresslevel=GZIP_LEVEL, mtime=0))


class _Assets(html.parser.HTMLParser):
    """Collects the local scripts and stylesheets a page loads, in order."""

    def __init__(self) -> None:
        super().__init__()
        self.scripts: list[str] = []
        self.styles: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "script" and a.get("src"):
            self.scripts.append(str(a["src"]))
        elif tag == "link" and (a.get("rel") or "").lower() == "stylesheet" and a.get("href"):
            self.styles.append(str(a["href"]))


def page_assets(page: Path, site: Path) -> list[Path]:
    """The local JS and CSS files ``page`` loads (each once), resolved inside ``site``."""
    parser = _Assets()
    parser.feed(page.read_text(encoding="utf-8"))
    seen: list[Path] = []
    for ref in parser.scripts + parser.styles:
        parts = urlsplit(ref)
        if parts.scheme or parts.netloc:
            continue  # external: nothing konum or the peer serves (fonts are off)
        path = (page.parent / parts.path).resolve()
        if path.is_file() and path not in seen and path.is_relative_to(site.resolve()):
            seen.append(path)
    return seen


@dataclass(frozen=True)
class PageWeight:
    """Gzipped bytes of one page: its HTML and each JS/CSS file it loads."""

    html: int
    assets: dict[str, int]

    @property
    def total(self) -> int:
        return self.html + sum(self.assets.values())

    def assets_matching(self, needle: str) -> int:
        return sum(size for name, size in self.assets.items() if needle in name)


def page_weight(page: Path, site: Path) -> PageWeight:
    """The gzipped weight of ``page`` (HTML plus every local JS/CSS file it references)."""
    assets = {
        str(p.relative_to(site.resolve())): gzip_size(p.read_bytes())
        for p in page_assets(page, site)
    }
    return PageWeight(gzip_size(page.read_bytes()), assets)


#: A quiz in a page: the element that carries the attribute (the scripts every page carries
#: name it in their selectors, so the bare string is no sign of a quiz).
QUIZ_ELEMENT = re.compile(r"<[a-z]+\b[^<>]*\sdata-konum-quiz[\s>=]")

#: konum's inline assets: ``<style data-konum-asset="WIDGET">`` and the ``<script>`` after it.
KONUM_INLINE = re.compile(
    r'<style data-konum-asset="(?P<widget>[a-z]+)">(?P<css>.*?)</style>\s*'
    r"<script>(?P<js>.*?)</script>\n?",
    re.DOTALL,
)


@dataclass(frozen=True)
class InlineWeight:
    """konum's inline CSS and JS on one page, gzipped.

    Attributes:
        widgets: whose assets the page carries (``quiz``, ``flashcards``), in page order.
        page: the whole HTML, gzipped.
        without: the HTML with konum's inline ``<style>`` and ``<script>`` removed, gzipped.
        alone: the removed CSS and JS texts gzipped one by one, as separate files would be.
    """

    widgets: tuple[str, ...]
    page: int
    without: int
    alone: int

    @property
    def added(self) -> int:
        """What the inline assets add to the page as transferred."""
        return self.page - self.without


def inline_weight(page: Path) -> InlineWeight:
    """The gzipped bytes konum's inline assets add to ``page`` (an HTML file)."""
    html = page.read_bytes().decode("utf-8")
    found = list(KONUM_INLINE.finditer(html))
    alone = sum(gzip_size(m.group(part).encode("utf-8")) for m in found for part in ("css", "js"))
    return InlineWeight(
        widgets=tuple(m.group("widget") for m in found),
        page=gzip_size(html.encode("utf-8")),
        without=gzip_size(KONUM_INLINE.sub("", html).encode("utf-8")),
        alone=alone,
    )


# --- versions ---------------------------------------------------------------------------


def dist_version(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "not installed"


def chromium_version() -> str:
    exe = shutil.which("chromium") or "/usr/bin/chromium"
    try:
        out = subprocess.run(
            [exe, "--version"], capture_output=True, text=True, timeout=30, check=False
        ).stdout
    except OSError:
        return "not found"
    return out.strip().splitlines()[-1] if out.strip() else "unknown"


def machine() -> dict[str, str]:
    """Core count, CPU model, OS and Python: the context every figure is read in."""
    model = platform.processor() or "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "cores": str(os.cpu_count()),
        "cpu": model,
        "os": f"{platform.system()} {platform.release()}",
        "python": sys.version.split()[0],
    }
