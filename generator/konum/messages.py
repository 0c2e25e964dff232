"""The interface's words in each language: one catalogue per language, for templates and scripts.

konum's own texts are ``templates/messages/<language>/<section>.yml`` (``quiz``, ``study``,
...), a plugin's are in its own ``MESSAGES`` folder of the same shape
(:mod:`konum.plugins`): ``name: text`` entries, known by the key ``section.name``. A text may
name fields in braces (``{total}``), filled in by the code, and may give a singular and a
plural form as ``one|other``, chosen by the field ``n`` (English counts with both; Turkish
keeps the singular after a number). Templates call :func:`message` (as ``t``); the page's
scripts get the sections they use as JSON (:func:`page_messages`) and fill fields the same way.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType

import yaml

from konum.paths import TEMPLATES_DIR

#: The languages konum's interface is written in; the first is the default.
LANGUAGES = ("en", "tr")
#: konum's own texts.
OWN = TEMPLATES_DIR / "messages"


@lru_cache(maxsize=16)
def catalogue(language: str, folders: tuple[Path, ...] = ()) -> Mapping[str, str]:
    """The texts of ``language`` by ``section.name`` key: konum's own, then those of each of
    ``folders`` (plugins' message folders; a later one's key replaces an earlier one's).

    Raises:
        KeyError: ``language`` is not one of :data:`LANGUAGES`.
    """
    if language not in LANGUAGES:
        raise KeyError(language)
    files = [
        (path.stem, i, path)
        for i, folder in enumerate((OWN, *folders))
        for path in (folder / language).glob("*.yml")
    ]
    texts: dict[str, str] = {}
    for stem, _, path in sorted(files):  # by section, then konum's before the plugins'
        section = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        texts.update({f"{stem}.{name}": str(text) for name, text in section.items()})
    return MappingProxyType(texts)


def fill(text: str, **fields: object) -> str:
    """A catalogue text with ``fields`` filled in; with a field ``n`` a text written
    ``one|other`` gives its first form for 1 and its second otherwise."""
    if "|" in text:
        one, other = text.split("|", 1)
        text = one if fields.get("n") == 1 else other
    return text.format(**fields) if fields else text


def message(language: str, key: str, **fields: object) -> str:
    """konum's own text ``key`` in ``language`` with ``fields`` filled in (see :func:`fill`).

    Raises:
        KeyError: an unknown language or key.
    """
    return fill(catalogue(language)[key], **fields)


def page_messages(
    language: str,
    sections: Iterable[str],
    folders: tuple[Path, ...] = (),
    leave_out: tuple[str, ...] = (),
) -> dict[str, str]:
    """The texts of ``sections`` (``quiz``, ``study``, ...) for a page's scripts, unfilled,
    but for those whose full key starts with one of ``leave_out`` (``explorer.sin_``)."""
    prefixes = tuple(f"{section}." for section in sections)
    texts = catalogue(language, folders)
    return {
        key: text
        for key, text in texts.items()
        if key.startswith(prefixes) and not (leave_out and key.startswith(leave_out))
    }
