"""Work done once per installed version: texts kept in the user's cache folder.

What is the same for every build of every site (a minified script, a minified style, a
compiled template) is
made once and kept on disk, keyed by konum's version, the producer's own version (the
minifier's) and the hash of the source it was made from, so that an edited source, an
upgraded konum or an upgraded minifier makes it again. The folder is the platform's user
cache folder (``$XDG_CACHE_HOME/konum`` on Linux, through platformdirs), never inside a
site. The cache is only an aid: a folder that cannot be read or written, or an entry that
does not match its own checksum (a crash mid-write, a disk error, an edit by hand), is
passed over and the text made again.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from importlib import metadata
from pathlib import Path

from jinja2.bccache import Bucket, BytecodeCache

from konum.errors import ExportError
from konum.files import write_atomically

#: An entry is ``HEADER``, the SHA-256 of the text in hex, a newline, then the text (UTF-8).
HEADER = b"konum-cache 1 "


def cache_folder() -> Path:
    """The folder konum keeps its cache in: the platform's user cache folder for
    ``konum`` (``$XDG_CACHE_HOME/konum``, else ``~/.cache/konum``, on Linux)."""
    import platformdirs

    return Path(platformdirs.user_cache_dir("konum", appauthor=False))


def cache_key(kind: str, source: bytes, *depends: str) -> str:
    """The key of what ``kind`` makes from ``source``: konum's installed version, ``depends``
    (whatever else the result depends on, such as :func:`version` of the minifier) and the
    source's bytes, hashed."""
    digest = hashlib.sha256()
    for part in (version("konum"), kind, *depends):
        digest.update(part.encode("utf-8") + b"\0")
    digest.update(source)
    return digest.hexdigest()


def code_hash(module_file: str) -> str:
    """The hash of a producer's own source file (its ``__file__``): in a source checkout,
    where the version stays the same while the code changes, an edit to how a text is made
    makes it again."""
    try:
        return hashlib.sha256(Path(module_file).read_bytes()).hexdigest()
    except OSError:
        return ""


def version(distribution: str) -> str:
    """The installed version of ``distribution``, ``"source"`` when it is not installed."""
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:  # run from a source tree, not installed
        return "source"


def _read(file: Path) -> bytes | None:
    try:
        data = file.read_bytes()
    except OSError:
        return None
    head, newline, body = data.partition(b"\n")
    if not newline or not head.startswith(HEADER):
        return None
    if head[len(HEADER) :].decode("ascii", "replace") != hashlib.sha256(body).hexdigest():
        return None
    return body


def _write(file: Path, body: bytes) -> None:
    data = HEADER + hashlib.sha256(body).hexdigest().encode("ascii") + b"\n" + body
    try:
        file.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(file, data)
    except (OSError, ExportError):
        pass  # an unwritable cache costs the next build the same work, nothing else


def cached_text(
    kind: str,
    source: bytes,
    make: Callable[[], str],
    *depends: str,
    folder: Path | None = None,
) -> str:
    """The text ``make()`` returns for ``source``, from the cache when an earlier run of
    this version made it, else made now and kept.

    Args:
        kind: what is made (a folder name: ``"asset"``).
        source: the bytes the text is made from (a script's file).
        make: makes the text; called only when the cache has no good entry.
        depends: the versions of the other things the text depends on (the minifier's).
        folder: the cache folder; default :func:`cache_folder`.
    """
    try:
        root = folder if folder is not None else cache_folder()
    except Exception:  # no home folder to find a cache in: work without one
        return make()
    file = root / kind / f"{cache_key(kind, source, *depends)}.txt"
    kept = _read(file)
    if kept is not None:
        try:
            return kept.decode("utf-8")
        except UnicodeDecodeError:
            pass
    text = make()
    _write(file, text.encode("utf-8"))
    return text


class TemplateCache(BytecodeCache):
    """Jinja's compiled templates kept in the cache folder, as :func:`cached_text` keeps
    texts: Jinja keys each by the template's name and file and checks its source's hash;
    the folder is keyed by konum's and Jinja's versions and ``depends`` (the environment's
    options, which shape the compiled code). A damaged entry is compiled again."""

    def __init__(self, *depends: str, folder: Path | None = None) -> None:
        self.depends = depends
        self.folder = folder

    def _file(self, bucket: Bucket) -> Path | None:
        try:
            root = self.folder if self.folder is not None else cache_folder()
        except Exception:  # no home folder to find a cache in: work without one
            return None
        key = cache_key("templates", b"", version("jinja2"), *self.depends)[:32]
        return root / "templates" / key / f"{bucket.key}.bin"

    def load_bytecode(self, bucket: Bucket) -> None:
        file = self._file(bucket)
        data = _read(file) if file is not None else None
        if data is None:
            return
        try:
            bucket.bytecode_from_string(data)
        except Exception:  # an entry Jinja cannot read: compiled again, and written anew
            bucket.reset()

    def dump_bytecode(self, bucket: Bucket) -> None:
        file = self._file(bucket)
        if file is not None:
            _write(file, bucket.bytecode_to_string())
