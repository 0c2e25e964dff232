"""The registry of computed-question generators, by name.

Banks name a generator (``generator: sinusoidal_entry``); :func:`get_generator` looks it up
and suggests the closest name for a typo. Generators are Python objects: nothing in a bank is
evaluated as an expression.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

from konum.computed import alibi, attention, images, relative, rope, sinusoidal
from konum.computed.base import Generator

GENERATORS: dict[str, Generator] = {
    g.name: g
    for family in (sinusoidal, rope, alibi, relative, images, attention)
    for g in family.GENERATORS
}


class UnknownGeneratorError(KeyError):
    """A bank names a generator that does not exist."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0])


def suggest(name: str, candidates: Iterable[str]) -> str | None:
    """The candidate closest to ``name`` (a likely typo), or None."""
    names = list(candidates)
    matches = difflib.get_close_matches(name, names, n=1, cutoff=0.6)
    if matches:
        return matches[0]
    # "position" for "pos", "head_count" for "heads": a shared start of 3+ characters.
    prefixed = [c for c in names if len(c) >= 3 and (name.startswith(c) or c.startswith(name))]
    return max(prefixed, key=len) if prefixed else None


def unknown_generator_message(name: str) -> str:
    """``unknown generator 'x'; did you mean 'y'?`` plus the list of known names."""
    hint = suggest(name, GENERATORS)
    did_you_mean = f"; did you mean {hint!r}?" if hint else ""
    return f"unknown generator {name!r}{did_you_mean} (known: {', '.join(sorted(GENERATORS))})"


def get_generator(name: str) -> Generator:
    """The generator called ``name``.

    Raises:
        UnknownGeneratorError: no such generator; the message suggests the closest name.
    """
    try:
        return GENERATORS[name]
    except KeyError:
        raise UnknownGeneratorError(unknown_generator_message(name)) from None
