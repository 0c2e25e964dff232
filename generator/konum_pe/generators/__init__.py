"""The course's generators, one module per family of positional encodings."""

from __future__ import annotations

from konum_pe.generators import alibi, attention, images, relative, rope, sinusoidal

#: Every generator of the course, family by family.
GENERATORS = [
    generator
    for family in (sinusoidal, rope, alibi, relative, images, attention)
    for generator in family.GENERATORS
]
