"""What the course's generator families share: the frequency base, spelt once, the bound on a
pair index, and the order in which a drawing offers its distractors."""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence

from konum.computed import Distractor, ParamSpec, Values, param
from konum.model import Range

#: The frequency bases a question may draw (the 10000 of the paper, RoPE's rope_theta).
BASE_ALLOWED = Range(1.5, 1e9)
#: The seeds a drawing's small random vectors may come from.
SEED = Range(0, 2**31 - 1)


def base_param(doc: str = "The frequency base (the 10000 of the paper).") -> ParamSpec:
    """The ``base`` parameter, every family's the same way."""
    return param("base", "float", 10000.0, BASE_ALLOWED, doc)


def vector_seed(doc: str) -> ParamSpec:
    """The ``vector_seed`` parameter of a family whose drawings make small random vectors
    (``doc``: which vectors, and their entries)."""
    return param("vector_seed", "int", Range(0, 999_999), SEED, doc)


def trig(name: str, angle: float) -> float:
    """``sin(angle)`` when ``name`` is ``"sin"``, else ``cos(angle)`` (radians): the entry a
    sinusoidal column holds, named as the column's function."""
    return math.sin(angle) if name == "sin" else math.cos(angle)


class PairIndexed:
    """A family whose parameter ``k`` indexes a pair of columns of the drawn dimension ``d``
    (a sinusoidal pair, a RoPE rotation): ``k`` is kept below ``d / 2``. Listed before
    :class:`~konum.computed.BaseGenerator` among the bases."""

    def bounds(self, name: str, drawn: Values) -> tuple[float, float] | None:
        """``(0, d/2 - 1)`` for ``k``; no bound on any other parameter."""
        return (0, drawn["d"] // 2 - 1) if name == "k" else None


def varied(distractors: Sequence[Distractor], answer: float, *key: object) -> list[Distractor]:
    """``distractors`` reordered so that the answer's rank among the options varies.

    A choice question shows the first distractors that stand apart from the answer. When most
    mistakes move the number the same way, the answer would nearly always sit at one rank
    among its options (the smallest, the second smallest), and a reader could pick by rank.
    Here each place in the order takes the next distractor below the answer or the next one
    above it (each side in the generator's order of preference), as the bits of a BLAKE2 hash of
    the drawing's ``key`` say: the same drawing always shows the same options, and across
    drawings the number of options below the answer is spread as by coin flips.
    """
    below = [d for d in distractors if d.value < answer]
    above = [d for d in distractors if d.value >= answer]
    bits = int.from_bytes(hashlib.blake2b(repr(key).encode(), digest_size=8).digest(), "big")
    out: list[Distractor] = []
    while below or above:
        side = below if (bits & 1 and below) or not above else above
        out.append(side.pop(0))
        bits >>= 1
    return out
