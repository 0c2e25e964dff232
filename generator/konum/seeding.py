"""Random generators derived from stable keys, never from call order.

The numbers of a question depend only on ``(site seed, question id, variant index)``: adding,
removing or reordering questions changes nobody else's numbers. Keys are hashed with BLAKE2b,
which (unlike Python's ``hash``) is the same in every process and on every machine.
"""

from __future__ import annotations

import hashlib

import numpy as np


def derive_seed(seed: int, *key: object) -> int:
    """A 64-bit integer determined by ``seed`` and the parts of ``key`` (their ``str``)."""
    text = "\x1f".join([str(int(seed)), *(str(part) for part in key)])
    digest = hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def rng_for(seed: int, *key: object) -> np.random.Generator:
    """``np.random.default_rng(derive_seed(seed, *key))``, e.g. ``rng_for(42, "q-id", 3)``.

    numpy seeds PCG64 from that 64-bit integer through ``SeedSequence`` (NEP 19).
    """
    return np.random.default_rng(derive_seed(seed, *key))
