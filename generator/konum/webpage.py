"""A built page for ``konum quiz``: read from a file or an http(s) URL within limits, and
parsed into a tree of :class:`Node`.

A page comes from anywhere (any konum site, or a server that means harm), so reading it is
bounded: a page is a regular file the user named (a folder: its ``index.html``; never a
device, a FIFO or a terminal) or an ``http``/``https`` URL; one deadline
(:data:`PAGE_SECONDS`) covers the whole of a download, headers and redirects included, and
at most :data:`PAGE_BYTES` are read. The tree nests at most :data:`konum.limits.PAGE_DEPTH`
elements, so
walking it never runs out of stack. Every failure is a :class:`konum.errors.KonumError`
of one line that names the page.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import re
import socket
import stat
import threading
import time
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from html import escape
from html.parser import HTMLParser
from pathlib import Path

from konum import __version__, limits
from konum.errors import KonumError
from konum.problems import printable

#: Most bytes of a page read from a file or a URL (the course's largest page is far below).
PAGE_BYTES = 8 * 1024 * 1024

#: Seconds a page's whole download may take, from connecting to its last byte.
PAGE_SECONDS = 20.0


#: Redirects followed before a URL is given up.
REDIRECTS = 5

_VOID = frozenset("area base br col embed hr img input link meta source track wbr".split())  # noqa: SIM905
_SYSTEM = ("/dev/", "/proc/", "/sys/")  # devices and the kernel's files, never pages
_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://")


class Node:
    """An element of a page: its tag, attributes (a bare attribute's value is ``""``),
    children (elements and text), parent and the line of the page it starts on (1-based)."""

    __slots__ = ("attrs", "children", "depth", "line", "parent", "tag")

    def __init__(
        self, tag: str, attrs: dict[str, str], parent: Node | None = None, line: int = 1
    ) -> None:
        self.tag, self.attrs, self.parent, self.line = tag, attrs, parent, line
        self.depth: int = parent.depth + 1 if parent is not None else 0
        self.children: list[Node | str] = []

    def classes(self) -> list[str]:
        return self.attrs.get("class", "").split()

    def elements(self) -> Iterator[Node]:
        """Every element below this one, in document order."""
        stack = [iter(self.children)]
        while stack:
            child = next(stack[-1], None)
            if child is None:
                stack.pop()
            elif isinstance(child, Node):
                yield child
                stack.append(iter(child.children))

    def find(self, test: Callable[[Node], bool]) -> Node | None:
        return next((n for n in self.elements() if test(n)), None)

    def text(self) -> str:
        own = [c for c in self.children if isinstance(c, str)]
        if len(own) == len(self.children):
            return "".join(own)
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)


class _Builder(HTMLParser):
    """HTML to a tree of :class:`Node`; an end tag closes the elements left open in it."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = self.open = Node("#root", {})

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {k: v or "" for k, v in attrs}, self.open, self.getpos()[0])
        if node.depth > limits.PAGE_DEPTH:
            raise KonumError(
                f"line {node.line}: elements nested more than {limits.PAGE_DEPTH} deep; "
                "not a page konum wrote"
            )
        self.open.children.append(node)
        if tag not in _VOID:
            self.open = node

    def handle_endtag(self, tag: str) -> None:
        node: Node | None = self.open
        while node is not None and node is not self.root and node.tag != tag:
            node = node.parent
        if node is not None and node is not self.root:
            self.open = node.parent or self.root

    def handle_data(self, data: str) -> None:
        self.open.children.append(data)


def parse(text: str) -> Node:
    """``text`` (a page, or a piece of one) as a tree under a ``#root`` node.

    Raises:
        KonumError: elements nest deeper than :data:`konum.limits.PAGE_DEPTH`, or a ``<![``
            section is malformed.
    """
    builder = _Builder()
    try:
        builder.feed(text)
        builder.close()
    except AssertionError as exc:  # how html.parser says a <![ section is malformed
        line = builder.getpos()[0]
        raise KonumError(
            f"line {line}: HTML konum cannot read ({printable(str(exc))[:60]})"
        ) from None
    return builder.root


def html_of(node: Node | str) -> str:
    """A tree written back as HTML (to read math as spoken, or to copy a form)."""
    if isinstance(node, str):
        return escape(node, quote=False)
    attrs = "".join(f' {k}="{escape(v)}"' for k, v in node.attrs.items())
    inner = "".join(map(html_of, node.children))
    return inner if node.tag == "#root" else f"<{node.tag}{attrs}>{inner}</{node.tag}>"


def is_page(source: str) -> bool:
    """Whether ``konum quiz SOURCE`` names a page (a URL, an HTML file, a built folder, any
    other file but a bank's YAML) rather than a bank."""
    if _URL.match(source) or source.lower().endswith((".html", ".htm")):
        return True
    try:
        named = Path(source).exists()
    except (OSError, ValueError):  # a name too long, or with a NUL: no file
        return False
    return named and not source.lower().endswith((".yml", ".yaml"))


def read_page(source: str) -> str:
    """The HTML of a page: an http(s) URL, a ``file:`` URL or a file the user named (a
    folder: its ``index.html``), within :data:`PAGE_BYTES` and, for a URL,
    :data:`PAGE_SECONDS`.

    Raises:
        KonumError: it cannot be read, is not a regular file, is too large or too slow.
    """
    shown = printable(source)
    scheme = source.split("://", 1)[0].lower() if _URL.match(source) else ""
    if scheme in ("http", "https"):
        return _download(source, shown)
    if scheme == "file":
        parts = urllib.parse.urlsplit(source)
        if parts.netloc not in ("", "localhost"):
            raise KonumError(f"cannot read {shown}: a file URL names a file on this computer")
        source = urllib.request.url2pathname(parts.path)
    elif scheme:
        raise KonumError(f"cannot read {shown}: konum quiz reads http(s) URLs and files")
    path = Path(source) / "index.html" if Path(source).is_dir() else Path(source)
    if str(path.absolute()).startswith(_SYSTEM):
        raise KonumError(f"cannot read {printable(str(path))}: konum quiz reads pages, not devices")
    data = _read_file(path)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise KonumError(f"cannot read {printable(str(path))}: not UTF-8 text") from None


def _read_file(path: Path) -> bytes:
    """The bytes of ``path``, a regular file (checked before it is opened, and again on the
    open file, so a FIFO or a device is never read and never blocks the open)."""
    shown = printable(str(path))
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise KonumError(f"cannot read {shown}: not a regular file")
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
        with os.fdopen(fd, "rb") as file:
            if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):
                raise KonumError(f"cannot read {shown}: not a regular file")
            data = file.read(PAGE_BYTES + 1)
    except (OSError, ValueError) as exc:
        raise KonumError(f"cannot read {shown}: {getattr(exc, 'strerror', None) or exc}") from None
    if len(data) > PAGE_BYTES:
        raise KonumError(f"cannot read {shown}: larger than {PAGE_BYTES // 2**20} MB")
    return data


class _Deadline:
    """Cuts a connection's socket once :data:`PAGE_SECONDS` have passed, so a server that
    sends a byte at a time, or headers without end, cannot hold the download open."""

    def __init__(self) -> None:
        self.end = time.monotonic() + PAGE_SECONDS
        self.connection: http.client.HTTPConnection | None = None
        self.timer = threading.Timer(PAGE_SECONDS, self.cut)
        self.timer.daemon = True

    def left(self) -> float:
        return max(0.01, self.end - time.monotonic())

    def passed(self) -> bool:
        return time.monotonic() >= self.end

    def cut(self) -> None:
        sock = self.connection.sock if self.connection is not None else None
        if sock is not None:
            with contextlib.suppress(OSError):  # already closed
                sock.shutdown(socket.SHUT_RDWR)


def _download(url: str, shown: str) -> str:
    deadline = _Deadline()
    deadline.timer.start()
    try:
        for _ in range(REDIRECTS + 1):
            try:
                location, body = _get(url, deadline)
                if location is not None:
                    url = urllib.parse.urljoin(url, location)
                    scheme = urllib.parse.urlsplit(url).scheme.lower()
            except (http.client.HTTPException, OSError, ValueError) as exc:
                if deadline.passed():
                    raise KonumError(
                        f"cannot read {shown}: no whole page in {PAGE_SECONDS:g} s"
                    ) from None
                why = printable(str(exc) or type(exc).__name__)
                raise KonumError(f"cannot read {shown}: {why[:200]}") from None
            if location is None:
                return body
            if scheme not in ("http", "https"):
                raise KonumError(f"cannot read {shown}: redirected to a URL that is not http(s)")
        raise KonumError(f"cannot read {shown}: more than {REDIRECTS} redirects")
    finally:
        deadline.timer.cancel()


def _get(url: str, deadline: _Deadline) -> tuple[str | None, str]:
    """One GET of ``url``: where it redirects (None when it does not) and its
    text, decoded in the charset it names.

    Raises:
        ValueError: the URL, the status or the page is not what it should be.
        http.client.HTTPException, OSError: the server's answer broke off or is malformed.
    """
    parts = urllib.parse.urlsplit(url)
    if not parts.hostname:
        raise ValueError("the URL names no host")
    secure = parts.scheme.lower() == "https"
    kind = http.client.HTTPSConnection if secure else http.client.HTTPConnection
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    # The proxy of the environment (http_proxy, https_proxy, no_proxy), as urllib takes it.
    proxy = urllib.request.getproxies().get(parts.scheme.lower())
    if proxy and not urllib.request.proxy_bypass(parts.hostname):
        via = urllib.parse.urlsplit(proxy if "://" in proxy else f"http://{proxy}")
        connection = kind(via.hostname or "", via.port, timeout=deadline.left())
        if secure:
            connection.set_tunnel(parts.hostname, parts.port)
        else:
            target = url
    else:
        connection = kind(parts.hostname, parts.port, timeout=deadline.left())
    deadline.connection = connection
    try:
        headers = {"User-Agent": f"konum/{__version__}", "Accept": "text/html"}
        connection.request("GET", target, headers=headers)
        response = connection.getresponse()
        if response.status in (301, 302, 303, 307, 308) and response.getheader("Location"):
            return response.getheader("Location"), ""
        if not 200 <= response.status < 300:
            raise ValueError(f"HTTP {response.status} {response.reason}".strip())
        if response.getheader("Content-Encoding", "identity").lower() != "identity":
            raise ValueError("the page is compressed, which konum did not ask for")
        body = bytearray()
        while piece := response.read(64 * 1024):
            body += piece
            if len(body) > PAGE_BYTES:
                raise ValueError(f"larger than {PAGE_BYTES // 2**20} MB")
        if response.length:  # the connection closed before Content-Length bytes came
            raise ValueError(f"the page broke off after {len(body)} bytes")
        charset = response.headers.get_content_charset() or "utf-8"
        try:  # a codec that is not a text encoding (zlib, hex) is a LookupError too
            return None, bytes(body).decode(charset, "replace")
        except LookupError:
            raise ValueError(f"unknown charset {printable(charset)[:40]!r}") from None
    finally:
        connection.close()
