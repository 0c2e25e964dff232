"""Random generators derived from stable keys, never from call order.

The numbers of a question depend only on ``(site seed, question id, variant index)``: adding,
removing or reordering questions changes nobody else's numbers. Keys are hashed with BLAKE2b,
which (unlike Python's ``hash``) is the same in every process and on every machine.

:func:`rng_for` returns exactly ``numpy.random.default_rng(derive_seed(seed, *key))``. It is
called once per drawn variant, so it builds that generator the fast way: numpy's
``SeedSequence`` (NEP 19, a fixed, documented algorithm) costs more than the drawing itself
for a single 64-bit seed, so the four 64-bit words it would hand to PCG64 are computed here in
plain Python (:func:`_pcg64_seed_words`) and passed to ``PCG64`` through a seed sequence that
already knows them. A self-check at import falls back to numpy's own seeding should the two
ever disagree.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from functools import lru_cache
from typing import Any, cast

import numpy as np
from numpy.random.bit_generator import ISpawnableSeedSequence


def derive_seed(seed: int, *key: object) -> int:
    """A 64-bit integer determined by ``seed`` and the parts of ``key`` (their ``str``)."""
    text = "\x1f".join(map(str, (int(seed), *key)))
    digest = hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "big")


# --- numpy's SeedSequence for one 64-bit entropy word, in plain Python --------------------------
# Constants of numpy.random.SeedSequence (pool of 4 uint32 words).
_M32 = 0xFFFFFFFF
_INIT_A, _MULT_A = 0x43B0D7E5, 0x931E8875
_INIT_B, _MULT_B = 0x8B51F9DD, 0x58F38DED
_MIX_L, _MIX_R = 0xCA01F9DD, 0x4973F715


def _hash_constants(init: int, mult: int, count: int) -> list[int]:
    """The successive hash constants: they do not depend on the data, so precompute them."""
    out = [init]
    for _ in range(count):
        out.append(out[-1] * mult & _M32)
    return out


_A = _hash_constants(_INIT_A, _MULT_A, 16)
_B = _hash_constants(_INIT_B, _MULT_B, 8)


def _hashmix(value: int, index: int) -> int:
    value = ((value ^ _A[index]) * _A[index + 1]) & _M32
    return value ^ (value >> 16)


# Pool words 2 and 3 hash the zero padding: constants.
_POOL2, _POOL3 = _hashmix(0, 2), _hashmix(0, 3)
# Cross-mixing: (source word, destination word, xor constant, multiplier), in numpy's order.
_CROSS = tuple(
    (src, dst, _A[4 + n], _A[5 + n])
    for n, (src, dst) in enumerate((s, d) for s in range(4) for d in range(4) if s != d)
)
# Output words: (pool word, xor constant, multiplier).
_OUT = tuple((i & 3, _B[i], _B[i + 1]) for i in range(8))


def _pcg64_seed_words(entropy: int) -> list[int]:
    """``SeedSequence(entropy).generate_state(4, np.uint64)`` for ``0 <= entropy < 2**64``."""
    lo = ((entropy & _M32) ^ _A[0]) * _A[1] & _M32
    hi = ((entropy >> 32) ^ _A[1]) * _A[2] & _M32
    pool = [lo ^ (lo >> 16), hi ^ (hi >> 16), _POOL2, _POOL3]
    for src, dst, xor, mult in _CROSS:
        t = ((pool[src] ^ xor) * mult) & _M32
        t = (_MIX_L * pool[dst] - _MIX_R * (t ^ (t >> 16))) & _M32
        pool[dst] = t ^ (t >> 16)
    out = []
    for src, xor, mult in _OUT:
        t = ((pool[src] ^ xor) * mult) & _M32
        out.append(t ^ (t >> 16))
    return [
        out[0] | out[1] << 32,
        out[2] | out[3] << 32,
        out[4] | out[5] << 32,
        out[6] | out[7] << 32,
    ]


class _KnownSeedSequence(ISpawnableSeedSequence):
    """``SeedSequence(entropy)`` with the state PCG64 asks for already computed.

    Other requests (other sizes, ``spawn``) go to a real ``SeedSequence``, made on first use,
    so the generator behaves like ``default_rng(entropy)``'s.
    """

    def __init__(self, entropy: int, words: Sequence[int]) -> None:
        self.entropy = entropy
        self._words = words

    def _sequence(self) -> np.random.SeedSequence:
        real = self.__dict__.get("_real")
        if real is None:
            real = self.__dict__["_real"] = np.random.SeedSequence(self.entropy)
        return real

    def generate_state(self, n_words: int, dtype: Any = np.uint32) -> np.ndarray:
        if n_words == 4 and dtype is np.uint64:
            return np.array(self._words, dtype=np.uint64)
        return self._sequence().generate_state(n_words, dtype)

    def spawn(self, n_children: int) -> list[np.random.SeedSequence]:
        return self._sequence().spawn(n_children)


def _known_generator(entropy: int, words: Sequence[int]) -> np.random.Generator:
    """``np.random.default_rng(entropy)``, given ``words = _pcg64_seed_words(entropy)``."""
    # numpy's stubs only list SeedSequence, but PCG64 takes any ISeedSequence.
    sequence = cast(np.random.SeedSequence, _KnownSeedSequence(entropy, words))
    return np.random.Generator(np.random.PCG64(sequence))


def _generator(entropy: int) -> np.random.Generator:
    """``np.random.default_rng(entropy)`` for a 64-bit ``entropy``, built the fast way."""
    return _known_generator(entropy, _pcg64_seed_words(entropy))


def _fast_seeding_agrees() -> bool:
    for entropy in (0, 1, 0xFFFFFFFF, 1 << 32, 0x9E3779B97F4A7C15, (1 << 64) - 1):
        fast = _generator(entropy).bit_generator.state
        if fast != np.random.default_rng(entropy).bit_generator.state:
            return False
    return True


_FAST_SEEDING = _fast_seeding_agrees()


def generator_for_seed(entropy: int) -> np.random.Generator:
    """``np.random.default_rng(entropy)``, faster for a 64-bit ``entropy``."""
    if _FAST_SEEDING and 0 <= entropy < 1 << 64:
        return _generator(entropy)
    return np.random.default_rng(entropy)


def rng_for(seed: int, *key: object) -> np.random.Generator:
    """A numpy generator (PCG64) for ``seed`` and ``key``, e.g. ``rng_for(42, "q-id", 3)``."""
    return generator_for_seed(derive_seed(seed, *key))


@lru_cache(maxsize=8192, typed=True)
def _known_sequence(seed: int, *key: object) -> tuple[int, tuple[int, ...]] | None:
    entropy = derive_seed(seed, *key)
    if _FAST_SEEDING and 0 <= entropy < 1 << 64:
        return entropy, tuple(_pcg64_seed_words(entropy))
    return None


def rng_for_recurring(seed: int, *key: object) -> np.random.Generator:
    """:func:`rng_for` for keys that come back again and again (the validation probe's fixed
    keys): the seeding is remembered, so only the generator itself is built anew.

    ``typed`` caching keeps ``1``, ``1.0`` and ``True`` apart, as their ``str`` differ.
    """
    known = _known_sequence(seed, *key)
    if known is None:
        return rng_for(seed, *key)
    return _known_generator(*known)
