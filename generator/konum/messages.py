"""The interface's words in each language: one catalogue per language, for templates and scripts.

The catalogues are ``templates/messages/<language>/<section>.yml`` (``quiz``, ``study``, ...):
``name: text`` entries, known by the key ``section.name``. A text may name fields in braces
(``{total}``), filled in by the code, and may give a singular and a plural form as
``one|other``, chosen by the field ``n``
(English counts with both; Turkish keeps the singular after a number). Templates call
:func:`message` (as ``t``); the page's scripts get the sections they use as JSON
(:func:`page_messages`) and fill fields the same way.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache
from types import MappingProxyType

import yaml

#: The languages konum's interface is written in; the first is the default.
LANGUAGES = ("en", "tr")


@lru_cache(maxsize=len(LANGUAGES))
def catalogue(language: str) -> Mapping[str, str]:
    """The texts of ``language`` by ``section.name`` key.

    Raises:
        KeyError: ``language`` is not one of :data:`LANGUAGES`.
    """
    if language not in LANGUAGES:
        raise KeyError(language)
    from konum.render import TEMPLATES_DIR

    texts: dict[str, str] = {}
    for path in sorted((TEMPLATES_DIR / "messages" / language).glob("*.yml")):
        section = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        texts.update({f"{path.stem}.{name}": str(text) for name, text in section.items()})
    return MappingProxyType(texts)


def message(language: str, key: str, **fields: object) -> str:
    """The text of ``key`` in ``language`` with ``fields`` filled in.

    With a field ``n`` a text written ``one|other`` gives its first form for 1 and its second
    otherwise.

    Raises:
        KeyError: an unknown language or key.
    """
    text = catalogue(language)[key]
    if "|" in text:
        one, other = text.split("|", 1)
        text = one if fields.get("n") == 1 else other
    return text.format(**fields) if fields else text


def page_messages(language: str, sections: Iterable[str]) -> dict[str, str]:
    """The texts of ``sections`` (``quiz``, ``study``, ...) for a page's scripts, unfilled."""
    prefixes = tuple(f"{section}." for section in sections)
    return {key: text for key, text in catalogue(language).items() if key.startswith(prefixes)}
