"""Answers out of plain sight: salted hashes and sealed text for the quiz page.

The page's checker must tell right from wrong without the answer written in it. Two tools,
each computed here at build time and again by ``templates/assets/quiz.js`` in the reader's
browser (the two must agree bit for bit; ``tests/test_seal.py`` runs both):

* :func:`answer_hash`: a salted 53-bit hash (cyrb53 by bryc, a public-domain string hash)
  of an answer normalised as the check normalises the reader's input (:func:`normal_text`).
  The page holds the hash; the check hashes what the reader typed and compares.
* :func:`seal`: text the check or "Show answer" needs in full (a numeric answer's accepted
  interval, a blank's regular expression, the answer box, explanations, option notes) with
  each character of :data:`SEALED` (letters, digits and punctuation) replaced by another of
  them, by a permutation drawn from the salt (a Fisher-Yates shuffle driven by mulberry32,
  seeded from the salt's cyrb53). What markup and JSON would spell longer (``" \\ < > & '``)
  and every other character stay as they are. The sealed text repeats where the text does,
  so the page's gzip compresses it as it compresses the text itself, and it stays text: no
  base64, no escapes.

This stops peeking (reading the page source, searching it, a glance at the dev tools); it
cannot stop a determined reader who runs the page's own check, or its unsealing, by hand:
the salt and the method are in the page. The authoring page says so.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from functools import lru_cache

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


def normal_text(text: str, *, case_sensitive: bool = False) -> str:
    """A typed answer as checks compare it: Unicode NFC, surrounding spaces removed, the
    minus sign U+2212 (which pages print) read as ``-``, and unless ``case_sensitive``
    case-folded the same way in every language: I, İ and ı read as i, the rest lowercased
    (quiz.js's ``normal``). So "SIN" is ``sin`` on a Turkish page too, where Turkish
    lowercasing would give "sın"; the price, that "ı" and "i" are one letter to a
    case-insensitive blank, is written on the authoring page."""
    text = unicodedata.normalize("NFC", text).strip().replace("\u2212", "-")
    if case_sensitive:
        return text
    for letter in "Iİı":
        text = text.replace(letter, "i")
    return text.lower()


def answer_hash(salt: str, *parts: object) -> str:
    """The hex hash of ``parts`` (their ``str``, joined by U+001F) under ``salt``."""
    return format(cyrb53("\x1f".join([salt, *(str(p) for p in parts)])), "x")


def hashes(salt: str, answers: Iterable[object]) -> list[str]:
    """:func:`answer_hash` of each answer, sorted (so the list shows no order)."""
    return sorted({answer_hash(salt, a) for a in answers})


#: The characters sealing permutes: printable ASCII but for what JSON and HTML would spell
#: longer, and the letters Turkish adds (so that a Turkish answer is sealed as well).
SEALED = "".join(
    [chr(c) for c in range(0x20, 0x7F) if chr(c) not in "\"\\<>&'"] + list("ÇĞİÖŞÜçğıöşü")
)


def _mulberry(seed: int) -> Iterable[int]:
    """mulberry32's outputs from ``seed`` (quiz.js's ``mulberry``)."""
    a = seed & _MASK
    while True:
        a = (a + 0x6D2B79F5) & _MASK
        x = _imul(a ^ (a >> 15), 1 | a)
        x = ((x + _imul(x ^ (x >> 7), 61 | x)) & _MASK) ^ x
        yield (x ^ (x >> 14)) & _MASK


@lru_cache(maxsize=4096)
def _tables(salt: str) -> tuple[dict[int, int], dict[int, int]]:
    """The permutation of :data:`SEALED` for ``salt``, as ``str.translate`` tables (seal,
    unseal): Fisher-Yates from the last place down, swapping place ``i`` with ``next % (i+1)``."""
    draws = iter(_mulberry(cyrb53(salt + "\x1fseal") % 2**32))
    shuffled = list(SEALED)
    for i in range(len(shuffled) - 1, 0, -1):
        j = next(draws) % (i + 1)
        shuffled[i], shuffled[j] = shuffled[j], shuffled[i]
    image = "".join(shuffled)
    return str.maketrans(SEALED, image), str.maketrans(image, SEALED)


def seal(salt: str, text: str) -> str:
    """``text`` with the characters of :data:`SEALED` permuted by ``salt``'s permutation."""
    return text.translate(_tables(salt)[0])


def unseal(salt: str, sealed: str) -> str:
    """The text :func:`seal` sealed (for tests and tools; the page does it in quiz.js)."""
    return sealed.translate(_tables(salt)[1])
