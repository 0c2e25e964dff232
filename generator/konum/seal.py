"""Answers out of plain sight: salted hashes and sealed text for the quiz page.

The page's checker must tell right from wrong without the answer written in it. Two tools,
each computed here at build time and again by ``templates/assets/quiz.js`` in the reader's
browser (the two must agree bit for bit; ``tests/test_seal.py`` runs both):

* :func:`answer_hash`: a salted 53-bit hash (cyrb53 by bryc, a public-domain string hash)
  of an answer normalised as the check normalises the reader's input (:func:`normal_text`).
  The page holds the hash; the check hashes what the reader typed and compares.
* :func:`seal`: text the check or "Show answer" needs in full (a numeric answer's accepted
  interval, a blank's regular expression, the answer box, explanations, option notes)
  XOR-ed with a keystream (mulberry32, seeded from the salt) and base64-encoded.

This stops peeking (reading the page source, searching it, a glance at the dev tools); it
cannot stop a determined reader who runs the page's own check, or its unsealing, by hand:
the salt and the method are in the page. The authoring page says so.
"""

from __future__ import annotations

import base64
import unicodedata
from collections.abc import Iterable

import numpy as np
import numpy.typing as npt

_MASK = 0xFFFFFFFF


def _imul(a: int, b: int) -> int:
    return (a * b) & _MASK


def cyrb53(text: str, seed: int = 0) -> int:
    """The cyrb53 hash of ``text`` (over its UTF-16 code units, as JavaScript's
    ``charCodeAt``), a non-negative integer below 2**53."""
    h1 = 0xDEADBEEF ^ seed
    h2 = 0x41C6CE57 ^ seed
    data = text.encode("utf-16-le")
    for i in range(0, len(data), 2):
        ch = data[i] | (data[i + 1] << 8)
        h1 = _imul(h1 ^ ch, 2654435761)
        h2 = _imul(h2 ^ ch, 1597334677)
    h1 = _imul(h1 ^ (h1 >> 16), 2246822507)
    h1 ^= _imul(h2 ^ (h2 >> 13), 3266489909)
    h2 = _imul(h2 ^ (h2 >> 16), 2246822507)
    h2 ^= _imul(h1 ^ (h1 >> 13), 3266489909)
    return 4294967296 * (2097151 & h2) + (h1 & _MASK)


def normal_text(text: str, *, case_sensitive: bool = False, language: str = "en") -> str:
    """A typed answer as checks compare it: Unicode NFC, surrounding spaces removed, and
    lowercase unless ``case_sensitive``, by the rules of ``language`` (quiz.js:
    ``normalize("NFC").trim().toLocaleLowerCase(lang)``; Turkish lowers I to ı and İ to i)."""
    text = unicodedata.normalize("NFC", text).strip()
    if case_sensitive:
        return text
    if language in ("tr", "az"):
        text = text.replace("I", "ı").replace("İ", "i")
    return text.lower()


def answer_hash(salt: str, *parts: object) -> str:
    """The hex hash of ``parts`` (their ``str``, joined by U+001F) under ``salt``."""
    return format(cyrb53("\x1f".join([salt, *(str(p) for p in parts)])), "x")


def hashes(salt: str, answers: Iterable[object]) -> list[str]:
    """:func:`answer_hash` of each answer, sorted (so the list shows no order)."""
    return sorted({answer_hash(salt, a) for a in answers})


def _keystream(salt: str, length: int) -> npt.NDArray[np.uint8]:
    """``length`` bytes of mulberry32 (its low byte per call), seeded from ``salt``."""
    seed = cyrb53(salt + "\x1fseal") % 2**32
    k = np.arange(1, length + 1, dtype=np.uint64)
    a = (np.uint64(seed) + k * np.uint64(0x6D2B79F5)) & np.uint64(_MASK)
    t = ((a ^ (a >> np.uint64(15))) * (a | np.uint64(1))) & np.uint64(_MASK)
    t = ((t + (((t ^ (t >> np.uint64(7))) * (t | np.uint64(61))) & np.uint64(_MASK)))
         & np.uint64(_MASK)) ^ t  # fmt: skip
    out = t ^ (t >> np.uint64(14))
    # numpy >= 2.3's stubs import typing.Self, which python_version 3.10 (mypy's target)
    # lacks, so there np.uint64(...) and all computed from it are Any.
    return (out & np.uint64(0xFF)).astype(np.uint8)  # type: ignore[no-any-return]


def seal(salt: str, text: str) -> str:
    """``text`` (UTF-8) XOR-ed with the keystream of ``salt``, in base64."""
    data = np.frombuffer(text.encode("utf-8"), dtype=np.uint8)
    return base64.b64encode((data ^ _keystream(salt, len(data))).tobytes()).decode("ascii")


def unseal(salt: str, sealed: str) -> str:
    """The text :func:`seal` sealed (for tests and tools; the page does it in quiz.js)."""
    data = np.frombuffer(base64.b64decode(sealed), dtype=np.uint8)
    return (data ^ _keystream(salt, len(data))).tobytes().decode("utf-8")
