"""The course's own words in each language: ``messages/<language>/<section>.yml`` beside this
file, the plugin's ``MESSAGES`` (:mod:`konum.plugins`).

Sections: ``generators`` (the generators' prompts, worked solutions and misconception
feedback), ``figures`` (the figures' labels) and ``explorer`` (every text of the explorers).
A generator asks for its texts by key with the numbers as fields, so every language words the
same draw: ``say("tr", "learned_params.prompt", n=512, d=768)``. Texts are
:meth:`str.format` templates: ``{n}`` is a field, ``{{`` and ``}}`` are LaTeX's braces. A
Turkish text writes an ending after a field in any of its forms (``{d}'yi``): the filled text
gets the form the drawn number takes (:func:`konum_pe.turkish.harmonize`: ``64'ü``, ``128'i``),
its numbers read in Python's form (``12.0``), as the generators write them.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from konum.messages import catalogue, fill
from konum_pe.turkish import harmonize

#: The course's message folder.
MESSAGES = Path(__file__).resolve().parent / "messages"


def say(language: str, key: str, **fields: object) -> str:
    """The text ``generators.<key>`` in ``language`` with ``fields`` filled in.

    Raises:
        KeyError: an unknown language, key or field.
    """
    text = str(catalogue(language, (MESSAGES,))[f"generators.{key}"]).format(**fields)
    return harmonize(text, point=".") if language == "tr" else text


def speaker(language: str, prefix: str) -> Callable[..., str]:
    """:func:`say` in ``language`` for the keys under ``prefix`` (a generator's name):
    ``speaker("tr", "rope_angle")("prompt", k=2)`` is ``say("tr", "rope_angle.prompt", k=2)``."""

    def text(key: str, **fields: object) -> str:
        return say(language, f"{prefix}.{key}", **fields)

    return text


def counted(language: str, key: str, n: int) -> str:
    """The text ``generators.<key>`` in its CLDR plural form for ``n`` in ``language``."""
    text = fill(catalogue(language, (MESSAGES,))[f"generators.{key}"], language, n=n)
    return harmonize(text, point=".") if language == "tr" else text
