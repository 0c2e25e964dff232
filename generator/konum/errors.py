"""The exception tree of konum's commands: each kind of failure has its own type.

Content errors in banks are :class:`konum.problems.BankError`; everything a command reports
as one clear line without a traceback derives from :class:`KonumError`.
"""

from __future__ import annotations


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
