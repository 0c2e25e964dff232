"""The registry of computed-question generators, by name.

Banks name a generator (``generator: sinusoidal_entry``); :func:`get_generator` looks it up
and suggests the closest name for a typo. Generators are Python objects: nothing in a bank is
evaluated as an expression.
"""

from __future__ import annotations

from konum.computed import alibi, attention, images, relative, rope, sinusoidal
from konum.computed.base import Generator
from konum.formatting import did_you_mean

GENERATORS: dict[str, Generator] = {
    g.name: g
    for family in (sinusoidal, rope, alibi, relative, images, attention)
    for g in family.GENERATORS
}


class UnknownGeneratorError(KeyError):
    """A bank names a generator that does not exist."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0])


def unknown_generator_message(name: str) -> str:
    """``unknown generator 'x'; did you mean 'y'?`` plus the list of known names."""
    hint = did_you_mean(name, GENERATORS)
    return f"unknown generator {name!r}{hint} (known: {', '.join(sorted(GENERATORS))})"


def get_generator(name: str) -> Generator:
    """The generator called ``name``.

    Raises:
        UnknownGeneratorError: no such generator; the message suggests the closest name.
    """
    try:
        return GENERATORS[name]
    except KeyError:
        raise UnknownGeneratorError(unknown_generator_message(name)) from None
