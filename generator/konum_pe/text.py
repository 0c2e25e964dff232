"""The course's own words in each language: ``messages/<language>/<section>.yml`` beside this
file, the plugin's ``MESSAGES`` (:mod:`konum.plugins`).

Sections: ``generators`` (the generators' prompts, worked solutions and misconception
feedback), ``figures`` (the figures' labels) and ``explorer`` (every text of the explorers).
A generator asks for its texts by key with the numbers as fields, so every language words the
same draw: ``say("tr", "learned_params.prompt", n=512, d=768)``. Texts are
:meth:`str.format` templates: ``{n}`` is a field, ``{{`` and ``}}`` are LaTeX's braces.
"""

from __future__ import annotations

from pathlib import Path

from konum.messages import catalogue, fill

#: The course's message folder.
MESSAGES = Path(__file__).resolve().parent / "messages"


def say(language: str, key: str, **fields: object) -> str:
    """The text ``generators.<key>`` in ``language`` with ``fields`` filled in.

    Raises:
        KeyError: an unknown language, key or field.
    """
    return str(catalogue(language, (MESSAGES,))[f"generators.{key}"]).format(**fields)


def counted(language: str, key: str, n: int) -> str:
    """The text ``generators.<key>`` in its CLDR plural form for ``n`` in ``language``."""
    return fill(catalogue(language, (MESSAGES,))[f"generators.{key}"], language, n=n)
