"""The generators' own words in each language: the ``generators`` section of the message
catalogue (``templates/messages/<language>/generators.yml``).

A generator asks for its texts by key with the numbers as fields, so every language words
the same draw: ``say("tr", "learned_params.prompt", n=512, d=768)``. Texts are
:meth:`str.format` templates: ``{n}`` is a field, ``{{`` and ``}}`` are LaTeX's braces.
"""

from __future__ import annotations

from konum.messages import catalogue


def say(language: str, key: str, **fields: object) -> str:
    """The text ``generators.<key>`` in ``language`` with ``fields`` filled in.

    Raises:
        KeyError: an unknown language, key or field.
    """
    return str(catalogue(language)[f"generators.{key}"]).format(**fields)
