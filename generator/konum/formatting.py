"""Small rules that every stage shares: numbers as text, slugs, blanks, "did you mean".

One definition each, imported by the validator, the generators, the renderer and the
exports, so that a number is written the same way in a quiz, a card and a message.
"""

from __future__ import annotations

import difflib
import math
import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

from babel import Locale, numbers

#: Ids of banks, questions and quizzes: lowercase words joined by single hyphens.
SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")

#: Lowercase letters that Unicode's decomposition does not turn into an ASCII letter and a
#: mark: the dotless ı (Turkish), and the few Latin letters that are letters of their own.
_TRANSLITERATE = str.maketrans(
    {"ı": "i", "ß": "ss", "æ": "ae", "œ": "oe", "þ": "th", "ø": "o", "ł": "l", "đ": "d"}
)


def slugify(text: str, *, limit: int | None = None) -> str:
    """``text`` as a slug (:data:`SLUG`, or empty when no letter or digit is left): letters
    transliterated to ASCII (``İstatistik: Olasılık ve Çıkarım`` gives
    ``istatistik-olasilik-ve-cikarim``: lowercased, ı and ß by a table, then Unicode's
    compatibility decomposition drops the accents of ç, ş, ğ, ö, ü, é...), every other run
    of characters one hyphen. ``limit``: at most that many characters, never ending in a
    hyphen. The one slug of every name made into an id or a file name (decks, exports,
    images, id suggestions)."""
    plain = unicodedata.normalize("NFKD", text.lower().translate(_TRANSLITERATE))
    slug = "-".join(re.findall(r"[a-z0-9]+", plain.encode("ascii", "ignore").decode("ascii")))
    return slug if limit is None else slug[:limit].strip("-")


#: A blank in a fill-in prompt: a run of four or more underscores.
BLANK_PATTERN = r"_{4,}"
BLANK = re.compile(BLANK_PATTERN)

#: Placeholder for blank number N while Markdown runs: plain ASCII letters and digits survive
#: Markdown, the HTML sanitiser and syntax highlighting unchanged (one identifier).
BLANK_TOKEN = "KONUMBLANK{}X"
BLANK_TOKEN_RE = re.compile(r"KONUMBLANK(\d+)X")


@lru_cache(maxsize=64)
def number_marks(language: str) -> tuple[str, str]:
    """The decimal mark and the digit-group separator of ``language``'s prose, from CLDR
    through Babel: ``(".", ",")`` in English, ``(",", ".")`` in Turkish and German,
    ``(",", "\u202f")`` in French. Code and the numbers in data keep Python's form."""
    locale = Locale.parse(language)
    return numbers.get_decimal_symbol(locale), numbers.get_group_symbol(locale)


#: The language banks and lessons are written in: its numbers stay as their authors wrote
#: them (a page groups one with ``thousands()``); every other language groups its whole
#: numbers as CLDR writes them, through Babel (``8.192`` in Turkish, ``8\u202f192`` in French).
SOURCE_LANGUAGE = "en"
_WHOLE = re.compile(r"(?<![\d.,}])\d{4,}")


def groups_always(language: str) -> bool:
    """Whether ``language``'s text groups every whole number of four digits or more."""
    return language != SOURCE_LANGUAGE


def group_digits(text: str, mark: str, language: str) -> str:
    """``text`` with each run of four or more digits that is not a decimal part grouped as
    Babel groups it in ``language``, its separator written ``mark`` (braced in math, say):
    ``group_digits("8192 ve 0,5000", ".", "tr")`` is ``"8.192 ve 0,5000"``."""
    symbol = numbers.get_group_symbol(Locale.parse(language))
    return _WHOLE.sub(
        lambda m: numbers.format_decimal(int(m[0]), locale=language).replace(symbol, mark), text
    )


def math_group(mark: str) -> str:
    """A group separator ``mark`` as math writes it: braced (``8{.}192``, so TeX sets no space
    after it), or TeX's thin space for a space."""
    return "\\," if mark.isspace() else "{" + mark + "}"


def format_number(
    value: float, decimals: int | None = None, unit: str | None = None, language: str = "en"
) -> str:
    """A number as the reader would type it.

    Args:
        value: The number (finite).
        decimals: Fixed decimals, or None for the shortest exact-looking form (up to 12
            significant digits, so ``32.0`` is ``32``).
        unit: Appended after a non-breaking space when given (:func:`with_unit`).
        language: Whose decimal mark to write (:func:`number_marks`: ``0,841`` in
            Turkish); whole numbers are grouped where :func:`groups_always` says.

    Returns:
        The text, with ``-0.00`` written ``0.00``.

    Raises:
        ValueError: ``value`` is not finite.
    """
    value = float(value)
    if not math.isfinite(value):
        raise ValueError(f"value: expected a finite number, found {value!r}")
    text = f"{value:.{decimals}f}" if decimals is not None else f"{value:.12g}"
    if text.startswith("-") and float(text) == 0:
        text = text[1:]
    mark = number_marks(language)[0]
    if mark != ".":
        text = text.replace(".", mark)
    if groups_always(language):
        text = group_digits(text, number_marks(language)[1], language)
    return with_unit(text, unit)


def with_unit(text: str, unit: str | None) -> str:
    """A shown number ``text`` and its ``unit`` after a non-breaking space (a line never
    breaks between them), or ``text`` alone: the one way every output writes a unit."""
    return f"{text}\u00a0{unit}" if unit else text


#: Code (fenced or inline), math (display or inline) and HTML tags, in that priority.
_SPANS = re.compile(r"(```.*?```|`[^`\n]*`|\$\$.*?\$\$|\$[^$\n]*\$|<[^>\n]*>)", re.DOTALL)
_DECIMAL_POINT = re.compile(r"(?<=\d)\.(?=\d)")


def localize_numbers(text: str, language: str) -> str:
    """Markdown ``text`` with the decimal points of its numbers in ``language``'s mark.

    Prose gets the mark itself (``0,841``), math gets it braced (``0{,}841``, so TeX sets
    no space after it), code and HTML tags keep the dot. A language that
    :func:`groups_always` groups long whole numbers too (``8.192``, ``8{.}192`` in math).
    Text in the source language is returned as is.
    """
    if not groups_always(language):
        return text
    mark, group = number_marks(language)
    parts = _SPANS.split(text)
    for i, part in enumerate(parts):
        braced = i % 2 == 1 and part.startswith("$")
        if i % 2 == 0 or braced:
            if mark != ".":
                part = _DECIMAL_POINT.sub("{" + mark + "}" if braced else mark, part)
            parts[i] = group_digits(part, math_group(group) if braced else group, language)
    return "".join(parts)


def suggest(name: str, candidates: Iterable[str], cutoff: float = 0.6) -> str | None:
    """The candidate closest to ``name`` (a likely typo), or None.

    ``difflib`` first; failing that, a candidate of three or more characters that ``name``
    starts with or that starts with ``name`` ("position" for "pos").
    """
    names = list(candidates)
    matches = difflib.get_close_matches(name, names, n=1, cutoff=cutoff)
    if matches:
        return matches[0]
    prefixed = [c for c in names if len(c) >= 3 and (name.startswith(c) or c.startswith(name))]
    return max(prefixed, key=len) if prefixed else None


def did_you_mean(name: str, candidates: Iterable[str], cutoff: float = 0.6) -> str:
    """``"; did you mean 'x'?"`` for the closest candidate, or ``""``."""
    return you_mean(suggest(name, candidates, cutoff))


def you_mean(close: str | None) -> str:
    """``"; did you mean 'x'?"`` for ``close``, a :func:`suggest` result, or ``""`` for None."""
    return f"; did you mean {close!r}?" if close else ""


_SIGNED_NUMBER = re.compile(r"-(?=\d|\.\d)(?:[\d.,]+(?:[eE][+-]?\d+)?)(?: [^<>&]+)?")


def typeset_number(text: str) -> str:
    """A number shown to the reader with a real minus sign (U+2212), as the prose's math has
    it: ``-0.84`` and ``-1 rad`` become ``−0.84`` and ``−1 rad``; other text is unchanged."""
    return "\u2212" + text[1:] if _SIGNED_NUMBER.fullmatch(text) else text


def code_block(source: str, language: str = "python") -> str:
    """``source`` as a fenced Markdown code block, its fence longer than any run of
    backticks inside it."""
    longest = max((len(run) for run in re.findall(r"`+", source)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{language}\n{source.rstrip()}\n{fence}"


def blank_tokens(text: str) -> tuple[str, int]:
    """``text`` with its blanks (:data:`BLANK`) made :data:`BLANK_TOKEN` placeholders,
    numbered from 0, and how many there were: the one way every output finds a fill-in's
    blanks after Markdown (inside code too)."""
    count = 0

    def token(_match: re.Match[str]) -> str:
        nonlocal count
        count += 1
        return BLANK_TOKEN.format(count - 1)

    return BLANK.sub(token, text), count
