"""``konum quiz`` against hostile pages, sources and servers (issue 48): the corpus in
``tests/hostile_quiz/`` run case by case, each reported by its name.

Every case must end within :data:`CASE_SECONDS` (a watchdog interrupts a run that does not,
which then fails), without a traceback, with nothing that acts on a terminal (escape
sequences, C1 controls, bidi controls) in what it writes, and with its expected line. The
HTTP cases run against a server this module starts on 127.0.0.1 and stops. A hypothesis
fuzz test feeds the page reader pages spliced from a real quiz page, each with a time and
a memory budget.
"""

from __future__ import annotations

import _thread
import contextlib
import io
import os
import re
import socket
import socketserver
import sys
import threading
import time
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from konum.errors import KonumError
from tests.miniproject import konum

CORPUS = Path(__file__).parent / "hostile_quiz"
#: Seconds any one case may run (the slow servers' cases wait for the 2 s page deadline).
CASE_SECONDS = 15.0
#: What must never reach the terminal: C0 controls but the line break, DEL, C1 controls,
#: bidi controls and zero-width characters.
UNSAFE = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u202a-\u202e\u2066-\u2069]")


def _cases(name: str) -> list[Any]:
    cases = yaml.safe_load((CORPUS / name).read_text(encoding="utf-8"))
    return [pytest.param(case, id=case["name"]) for case in cases]


@contextlib.contextmanager
def _watchdog() -> Iterator[None]:
    """Interrupt the main thread (a KeyboardInterrupt, which konum reports as exit 130)
    once the case has run :data:`CASE_SECONDS`."""
    timer = threading.Timer(CASE_SECONDS, _thread.interrupt_main)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()


def _run(
    folder: Path, monkeypatch: pytest.MonkeyPatch, source: str, answers: list[str]
) -> tuple[int, str, str, float]:
    """``konum quiz SOURCE`` in ``folder``, ``answers`` on stdin: its exit code, stdout,
    stderr and how long it took."""
    typed = "".join(f"{line}\n" for line in answers).encode("utf-8")
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(typed), encoding="utf-8"))
    start = time.monotonic()
    with _watchdog():
        result = konum(folder, "quiz", source)
    return result.returncode, result.stdout, result.stderr, time.monotonic() - start


def _judge(case: dict[str, Any], code: int, out: str, err: str, took: float) -> None:
    assert took < CASE_SECONDS and code != 130, f"ran {took:.1f} s, past the case's bound"
    assert "Traceback" not in out + err, err
    unsafe = UNSAFE.search(out + err)
    assert unsafe is None, f"{unsafe.group()!r} reached the terminal"
    assert code == case.get("exit", 1), (code, out[-2000:], err)
    if code == 1:
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("konum: "), err
        assert case["expect"] in lines[0], lines[0]
    else:
        assert case["expect"] in out, out[-3000:]


def _typed(answer: str | dict[str, Any]) -> str:
    if isinstance(answer, str):
        return answer
    return answer["typed"] * answer["times"] + answer.get("then", "")


@pytest.mark.parametrize("case", _cases("pages.yml"))
def test_a_hostile_page(
    case: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = (CORPUS / case.get("base", "choice.html")).read_text(encoding="utf-8")
    for edit in case["edits"]:
        assert edit["old"] in page, f"the case edits {edit['old']!r}, which is not in the page"
        page = page.replace(edit["old"], edit["new"] * edit.get("times", 1))
    (tmp_path / "page.html").write_text(page, encoding="utf-8")
    answers = [_typed(a) for a in case.get("answers", ["quit"])]
    _judge(case, *_run(tmp_path, monkeypatch, "page.html", answers))


def _make(kind: str | None, path: Path) -> None:
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "big":
        with path.open("wb") as file:
            file.truncate(9 * 1024 * 1024)
    elif kind == "latin":
        path.write_bytes("<p>Türkçe</p>".encode("latin-1"))
    elif kind == "folder":
        path.mkdir()


@pytest.mark.parametrize("case", _cases("sources.yml"))
def test_a_source_that_is_no_page(
    case: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if case.get("make"):
        _make(case["make"], tmp_path / case["name_of_it"])
    source = case["source"].replace("{folder}", str(tmp_path))
    _judge(case, *_run(tmp_path, monkeypatch, source, []))


class _Hostile(socketserver.BaseRequestHandler):
    """Answers a GET of ``/NAME`` as the case NAME of ``http.yml`` says."""

    cases: ClassVar[dict[str, dict[str, Any]]] = {}

    def handle(self) -> None:
        request = b""
        while b"\r\n\r\n" not in request and len(request) < 65536:
            piece = self.request.recv(4096)
            if not piece:
                return
            request += piece
        name = request.split(b" ", 2)[1].decode("ascii", "replace").strip("/")
        case = self.cases[name]
        send = case["send"]
        if "many" in case:
            send = send.replace("{many}", case["many"]["text"] * case["many"]["times"])
        data = send.encode("latin-1")
        with contextlib.suppress(OSError):
            if "drip" in case:
                for i in range(len(data)):
                    self.request.sendall(data[i : i + 1])
                    time.sleep(case["drip"])
                return
            self.request.sendall(data)
            forever = case.get("forever", "").encode("latin-1") * 1000
            while forever:
                self.request.sendall(forever)


class _Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    block_on_close = False
    allow_reuse_address = True


@pytest.fixture(scope="module")
def hostile_server() -> Iterator[str]:
    """A server on 127.0.0.1 playing every case of ``http.yml``; its base URL."""
    cases = yaml.safe_load((CORPUS / "http.yml").read_text(encoding="utf-8"))
    _Hostile.cases = {case["name"]: case for case in cases}
    server = _Server(("127.0.0.1", 0), _Hostile)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize("case", _cases("http.yml"))
def test_a_hostile_server(
    case: dict[str, Any], hostile_server: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("konum.webpage.PAGE_SECONDS", 2.0)
    _judge(case, *_run(tmp_path, monkeypatch, f"{hostile_server}/{case['name']}", []))


def test_a_page_from_a_server_is_taken(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The limits leave a good page alone: served whole, in its charset, it is asked."""
    page = (CORPUS / "choice.html").read_text(encoding="utf-8").encode("utf-8")

    class Good(socketserver.BaseRequestHandler):
        def handle(self) -> None:
            self.request.recv(65536)
            kind, length = "text/html; charset=UTF-8", len(page)
            head = f"HTTP/1.1 200 OK\r\nContent-Type: {kind}\r\nContent-Length: {length}\r\n\r\n"
            self.request.sendall(head.encode("ascii") + page)

    server = _Server(("127.0.0.1", 0), Good)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/choice.html"
        code, out, err, _ = _run(tmp_path, monkeypatch, url, ["quit"])
    finally:
        server.shutdown()
        server.server_close()
    assert code == 0, err
    assert "Question 1 of 2" in out and "Pick" in out


def test_a_page_through_the_environments_proxy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """http_proxy is honoured as urllib honours it: the proxy is asked for the whole URL."""
    page = (CORPUS / "choice.html").read_bytes()
    asked: list[bytes] = []

    class Proxy(socketserver.BaseRequestHandler):
        def handle(self) -> None:
            asked.append(self.request.recv(65536).split(b"\r\n", 1)[0])
            head = f"HTTP/1.1 200 OK\r\nContent-Length: {len(page)}\r\n\r\n"
            self.request.sendall(head.encode("ascii") + page)

    server = _Server(("127.0.0.1", 0), Proxy)
    threading.Thread(target=server.serve_forever, args=(0.01,), daemon=True).start()
    try:
        proxy = f"http://127.0.0.1:{server.server_address[1]}"
        env = {"http_proxy": proxy, "no_proxy": ""}
        typed = io.TextIOWrapper(io.BytesIO(b"quit\n"), encoding="utf-8")
        monkeypatch.setattr("sys.stdin", typed)
        result = konum(tmp_path, "quiz", "http://konum.invalid/quiz.html", env=env)
    finally:
        server.shutdown()
        server.server_close()
    assert result.returncode == 0, result.stderr
    assert asked == [b"GET http://konum.invalid/quiz.html HTTP/1.1"]
    assert "Question 1 of 2" in result.stdout


# --- the page reader, fuzzed ------------------------------------------------------------------

_BASE = (CORPUS / "choice.html").read_text(encoding="utf-8")
_PIECES = st.sampled_from(
    [
        "<div>", "</div>", "<b>", "<ol start='x'>", "<li>", "<input type='radio'>",
        "<input>", "<select><option value='a'>a</option></select>", "<textarea></textarea>",
        '<script class="konum-data">', '<script class="konum-later">', "</script>",
        "data-konum-quiz", 'data-question-id="z"', 'data-draw="', 'data-item="', '"',
        '{"type":"choice","salt":"s"', '{"sealed":"', "[", "]", "{", "}", ":", ",", "null",
        "1e999", "-1", "NaN", '"worth":', '"variants":', '"hint_shares":', "\x1b]0;t\x07",
        "\u202e", "&#27;", "&#x9b;", "<!--", "-->", "<![CDATA[", "<math><mi>x</mi></math>",
    ]
)  # fmt: skip


@st.composite
def _pages(draw: st.DrawFn) -> str:
    """The quiz page with pieces spliced in at random places, or cut short."""
    page = _BASE
    for _ in range(draw(st.integers(0, 8))):
        at = draw(st.integers(0, len(page)))
        piece = draw(st.one_of(_PIECES, st.text(max_size=20)))
        page = page[:at] + piece * draw(st.integers(1, 300)) + page[at:]
    if draw(st.booleans()):
        page = page[: draw(st.integers(0, len(page)))]
    return page


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    page=_pages(),
    answers=st.lists(
        st.sampled_from(["1", "b", "2 1 3", "1=a", "x", "", "show", "new"]), max_size=6
    ),
)
def test_the_page_reader_fuzzed(page: str, answers: list[str]) -> None:
    """A page and answers: the quiz runs, or says what is wrong in one KonumError; each
    within 5 s and 64 MB of new memory."""
    from konum.terminal import take

    typed = "".join(f"{line}\n" for line in answers)
    saved = sys.stdin, sys.stdout
    sys.stdin, sys.stdout = io.StringIO(typed), io.StringIO()
    tracemalloc.start()
    start = time.monotonic()
    try:
        with _watchdog(), contextlib.suppress(KonumError):
            take(page, source="fuzz.html", seed=1)
        written = sys.stdout.getvalue()
    finally:
        sys.stdin, sys.stdout = saved
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    assert time.monotonic() - start < 5, "a page took more than 5 s"
    assert peak < 64 * 2**20, f"a page took {peak / 2**20:.0f} MB"
    assert UNSAFE.search(written) is None


_HEAD_PIECES = st.sampled_from(
    [
        "HTTP/1.1 200 OK\r\n", "HTTP/1.0 302 Found\r\n", "HTTP/1.1 99999999999 X\r\n",
        "Content-Length: 5\r\n", "Content-Length: -1\r\n", "Content-Length: 99999999999999\r\n",
        "Transfer-Encoding: chunked\r\n", "Content-Type: text/html; charset=utf-16\r\n",
        "Content-Type: text/html; charset=\r\n", "Content-Type: text/html; charset*=x''y\r\n",
        "Location: /\r\n", "Location: http://[::1/\r\n", "Location: gopher://x\r\n",
        "\r\n", "5\r\n<p>x</p>\r\n", "0\r\n\r\n", "ffffffffffffffff\r\n", "\x00", "\xff",
    ]
)  # fmt: skip


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(answer=st.lists(st.one_of(_HEAD_PIECES, st.text(max_size=30)), max_size=12))
def test_the_url_reader_fuzzed(answer: list[str]) -> None:
    """A server's answer spliced from pieces of real and broken ones: read_page returns a
    text or raises one KonumError, within the deadline and 64 MB."""
    from konum.webpage import read_page

    data = "".join(answer).encode("utf-8", "surrogateescape")

    class Once(socketserver.BaseRequestHandler):
        def handle(self) -> None:
            with contextlib.suppress(OSError):
                self.request.recv(65536)
                self.request.sendall(data)

    server = _Server(("127.0.0.1", 0), Once)
    threading.Thread(target=server.serve_forever, args=(0.01,), daemon=True).start()
    tracemalloc.start()
    start = time.monotonic()
    try:
        with _watchdog(), contextlib.suppress(KonumError):
            read_page(f"http://127.0.0.1:{server.server_address[1]}/")
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        server.shutdown()
        server.server_close()
    assert time.monotonic() - start < CASE_SECONDS
    assert peak < 64 * 2**20, f"an answer took {peak / 2**20:.0f} MB"


def test_the_server_socket_is_closed_by_the_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    """The deadline covers the whole download: a server that never answers is cut off at
    the page deadline, not after a read timeout per byte."""
    from konum.webpage import read_page

    monkeypatch.setattr("konum.webpage.PAGE_SECONDS", 1.0)
    listener = socket.create_server(("127.0.0.1", 0))
    try:
        start = time.monotonic()
        with pytest.raises(KonumError, match="no whole page in 1 s"):
            read_page(f"http://127.0.0.1:{listener.getsockname()[1]}/")
        assert time.monotonic() - start < 3
    finally:
        listener.close()


# --- bank texts that would act on a terminal ---------------------------------------------------

_TEXT_BANK = """\
bank: texts
title: Texts
questions:
  - id: look
    type: choice
    explanation: Explained.
    prompt: "{text}"
    options:
      - {{text: "Yes", correct: true}}
      - {{text: "No"}}
"""


@pytest.mark.parametrize("case", _cases("texts.yml"))
def test_a_bank_text_that_would_act_on_a_terminal(case: dict[str, Any], tmp_path: Path) -> None:
    """``konum check`` reports the text at the character, and writes nothing raw."""
    written = case["text"].encode("unicode_escape").decode("ascii")  # as YAML escapes
    (tmp_path / "texts.yml").write_text(_TEXT_BANK.format(text=written), encoding="utf-8")
    result = konum(tmp_path, "check", "texts.yml")
    assert result.returncode == 1, result.stdout + result.stderr
    assert UNSAFE.search(result.stdout + result.stderr) is None
    lines = result.stderr.strip().splitlines()
    assert lines[0].startswith(f"texts.yml:7:19: [look] prompt: {case['first']} is "), lines
    assert lines[-1] == "1 problem in 1 of 1 bank"
