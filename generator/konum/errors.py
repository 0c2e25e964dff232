"""The exception tree of konum's commands: each kind of failure has its own type.

Content errors in banks are :class:`konum.problems.BankError`; everything a command reports
as one clear line without a traceback derives from :class:`KonumError`.
"""

from __future__ import annotations

import errno


class KonumError(Exception):
    """A failure the user can fix; the CLI prints its message as one line and exits 1."""


class ConfigError(KonumError):
    """An option of the konum extension or a command has a wrong name, kind or range."""


class BuildError(KonumError):
    """The site build failed; the published ``site/`` was left as it was."""


class ExportError(KonumError):
    """A flashcard export could not be written."""


try:  # MkDocs prints its BuildError as one line; Zensical and plain Markdown need no base.
    from mkdocs.exceptions import BuildError as _PageBase
except ImportError:  # pragma: no cover - without MkDocs
    _PageBase = Exception  # type: ignore[misc,assignment]


class PageError(_PageBase):
    """A page's konum syntax is wrong (a quiz, explorer or values block); the message names
    the line. Under MkDocs it is one line naming the page, never a traceback."""


def os_error(exc: OSError) -> str:
    """An OSError as one line; for a full disk, the place being written (MkDocs' copies name
    the source first and the target second)."""
    if exc.errno == errno.ENOSPC:
        where = exc.filename2 or exc.filename
        return f"no space left on the device while writing {where}" if where else "no space left"
    return f"{exc.strerror or exc}: {exc.filename or ''}".rstrip(": ")
