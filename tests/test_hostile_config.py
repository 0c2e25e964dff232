"""The hostile site configurations of ``tests/hostile/`` (its README says the format), each
run under every command it names on its own copy of the mini project: nothing it carries
runs, nothing outside the project is read or published, and bad input ends in one line."""

from __future__ import annotations

import errno
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.miniproject import konum, make_project

pytestmark = pytest.mark.slow
CORPUS = Path(__file__).resolve().parent / "hostile"


def _cases() -> list[Any]:
    params = []
    for path in sorted(CORPUS.glob("*.yml")):
        case = yaml.safe_load(path.read_text(encoding="utf-8"))
        for command in case["commands"]:
            name = command if isinstance(command, str) else command[0]
            params.append(pytest.param(case, command, id=f"{path.stem}[{name}]"))
    return params


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _prepare(case: dict[str, Any], tmp_path: Path) -> Path:
    """The mini project with the case's files, edits, links and pipes in it."""
    project = make_project(tmp_path)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text("# A file outside the project\n", encoding="utf-8")
    for name, text in (case.get("files") or {}).items():
        path = project / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    for name, old, new in case.get("edit") or []:
        path = project / name
        text = path.read_text(encoding="utf-8")
        assert old in text, f"{name} has no {old!r}"
        path.write_text(text.replace(old, new), encoding="utf-8")
    for name, text, times in case.get("repeat") or []:
        path = project / name
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a", encoding="utf-8") as handle:
            handle.write(text * times)
    for name, size in (case.get("grow") or {}).items():
        line = b"#" + b"x" * 99 + b"\n"
        with (project / name).open("ab") as handle:
            for _ in range(size // len(line) + 1):
                handle.write(line)
    for name, encoding in (case.get("encoding") or {}).items():
        path = project / name
        path.write_bytes(path.read_text(encoding="utf-8").encode(encoding))
    for name, target in (case.get("links") or {}).items():
        path = project / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.symlink_to(target.replace("{outside}", str(outside)))
    for name in case.get("fifos") or []:
        os.mkfifo(project / name)
    return project


def _serve(project: Path, args: list[str]) -> subprocess.CompletedProcess[str]:
    """Run ``konum serve ARGS`` until it serves its home page (then stop it: exit code 0)
    or exits (its own code)."""
    port = _free_port()
    args = [a.replace("{port}", str(port)) for a in args] or ["-a", f"127.0.0.1:{port}"]
    log = project.parent / "serve.log"
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    with log.open("w", encoding="utf-8") as stderr:
        proc = subprocess.Popen(
            [sys.executable, "-m", "konum", "serve", *args],
            cwd=project,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=stderr,
            text=True,
        )
        served = False
        try:
            deadline = time.monotonic() + 120
            while not served and proc.poll() is None and time.monotonic() < deadline:
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5):
                        served = True
                except (urllib.error.URLError, ConnectionError, TimeoutError):
                    time.sleep(0.5)
            if not served and proc.poll() is None:
                pytest.fail("konum serve neither served nor stopped")
        finally:
            if proc.poll() is None:
                proc.terminate()
            code = proc.wait(timeout=30)
    said = log.read_text(encoding="utf-8")
    return subprocess.CompletedProcess(["konum", "serve"], 0 if served else code, "", said)


def _unlistable(folders: list[Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """Make ``folders`` refuse to be listed, as a folder of mode 000 does to a user other
    than root: ``os.scandir`` (what ``os.walk``, ``pathlib`` and MkDocs list folders with)
    raises ``PermissionError`` for them, which works when the tests run as root too."""
    real, refused = os.scandir, {os.path.realpath(f) for f in folders}

    def scandir(path: Any = ".") -> Any:
        if not isinstance(path, int) and os.path.realpath(os.fspath(path)) in refused:
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), os.fspath(path))
        return real(path)

    monkeypatch.setattr(os, "scandir", scandir)


@pytest.mark.parametrize(("case", "command"), _cases())
def test_a_hostile_configuration(
    case: dict[str, Any], command: str | list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = _prepare(case, tmp_path)
    _unlistable([project / name for name in case.get("unlistable") or []], monkeypatch)
    args = [command] if isinstance(command, str) else list(command)
    started = time.monotonic()
    run = _serve if args[0] == "serve" else lambda p, a: konum(p, args[0], *a, timeout=120)
    result = run(project, args[1:])
    said = result.stdout + result.stderr
    assert "Traceback" not in said, said
    if case["expect"] == "ok":
        assert result.returncode == 0, said
    else:
        assert result.returncode != 0, said
        lines = [line for line in result.stderr.splitlines() if line.strip()]
        # The build says that it stopped; a report of problems ends with their count.
        if len(lines) > 1 and re.match(r"konum: (the site )?build stopped", lines[-1]):
            lines.pop()
        if len(lines) > 1 and re.fullmatch(
            r"1 problem in (1 page|1 other file|1 of 1 bank)", lines[-1]
        ):
            lines.pop()
        assert len(lines) == 1, said
        assert case["expect"] in lines[0], said
        assert case.get("where", "") in lines[0], said
    if "seconds" in case:
        assert time.monotonic() - started < case["seconds"], said
    for name in case.get("absent") or []:
        assert not (project / name).exists(), f"{name} exists: {said}"
