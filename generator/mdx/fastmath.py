r"""A fast path for simple formulas: the MathML that ``latex2mathml`` would write, without it.

Why: ``latex2mathml.converter.convert`` costs 0.1 to 0.6 ms per formula (a tokenizer, a tree
walk and an ElementTree round trip), and a large quiz bank is full of tiny, unique formulas
(``d = 32``, ``PE_{6,2}``, ``\omega_k``, ``10000^{-2k/d}``, ``-0.2304``) that the cache in
:func:`konum.mdx.math.tex_to_html` cannot share. :func:`fast_convert` writes the same
string directly for a small subset of LaTeX and returns ``None`` for anything else, so the
caller falls back to ``latex2mathml``; on the simple formulas it is 10 to 15 times faster.
The output must be byte-for-byte what ``latex2mathml`` writes (3.81): ``tests/test_fastmath.py``
holds the two equal with a property test over this grammar, another over LaTeX-like noise,
and every formula of the real content.

Grammar accepted (everything else returns ``None``)::

    formula  := item+                       (ASCII whitespace between tokens is ignored)
    item     := atom [ "'" ] [ script [ script ] ]
              | atom "_" atom "'"           (the same as atom "'" "_" atom)
    script   := ("_" | "^") atom            (at most one of each; with a prime, only one;
                                             no prime on \sum or \prod)
    atom     := letter | number | symbol | "{" item* "}"
    letter   := [a-zA-Z]
    number   := [0-9]+ ( "." [0-9]+ )?      (not followed by a TeX unit such as "em")
    symbol   := one of + - = , / ( ) [ ] < > | * ! ? ~
              | "." not followed by a digit
              | \{ \} \| \, \: \; \> \! "\ "
              | \mathrm{ two or more letters } | \mathbb{R} | \mathbb{N} | \mathbb{Z}
              | a command of _COMMANDS: Greek letters, \cdot \times \le \in \infty \top ...,
                \sin \cos \log \ln \exp \tan \max \min \bmod, \ldots \cdots, \quad \qquad,
                \sum \prod (limits under and over in display mode, at the top level only)

Some quirks of ``latex2mathml`` are reproduced on purpose: a script argument is one token
(``x_12`` is ``x_1`` then ``2``; ``x^-1`` is ``x^{-}`` then ``1``), ``\pm`` and ``\ldots``
are ``<mi>`` (their code points lie outside the operator blocks it checks), a group is an
``<mrow>`` (empty: ``<mrow />``), and ``\sum_k`` gets ``munder`` only in display mode and
only outside braces. Constructs whose output has not been checked against ``latex2mathml``
(``\frac``, ``\sqrt``, ``\left``, environments, other fonts, ``.5`` (an ``<mi>`` there), TeX
dimensions, non-ASCII characters, double primes, a third script) are left to it.
"""

from __future__ import annotations

import re
import string
from typing import Final

__all__ = ["fast_convert"]

# Token kinds.
_ATOM: Final = 0  # a rendered leaf: <mi>, <mn>, <mo>, <mspace>, <mtext> or \mathrm's <mrow>
_BIGOP: Final = 1  # \sum or \prod: limits in display mode
_OPEN: Final = 2
_CLOSE: Final = 3
_SUB: Final = 4
_SUP: Final = 5
_PRIME: Final = 6

_Token = tuple[int, str]

# Deeper nesting than this is left to latex2mathml (and keeps the recursion bounded).
_MAX_DEPTH: Final = 40

_HEAD: Final = '<math xmlns="http://www.w3.org/1998/Math/MathML" display="'
_PRIME_MI: Final = "<mi>&#x02032;</mi>"

# The alternatives come in latex2mathml's tokenizer order, so that both split the subset the
# same way (e.g. "^2" is one match there, and "-2em" a dimension). ASCII whitespace matches
# nothing, so finditer skips it, as latex2mathml does. A dimension, a dot before a digit,
# an unknown command and any other character end the fast path.
_TOKEN_RE: Final = re.compile(
    r"""
      (?P<letter>[a-zA-Z])
    | (?P<script>[_^])(?P<script_digit>[0-9])?    # x_1 takes one digit: x_12 is x_1 2
    | (?P<dimension>-?[0-9]+(?:\.[0-9]+)?[ \t\n\r]*(?:in|mm|cm|pt|em|ex|pc|bp|dd|cc|sp|mu))
    | (?P<number>[0-9]+(?:\.[0-9]+)?)
    | (?P<dot>\.[0-9]*)                          # "." is an <mo>; ".5" an <mi> there: declined
    | (?P<mathrm>\\mathrm\{(?P<roman>[a-zA-Z]{2,})\})  # one letter maps to a symbol instead
    | (?P<mathbb>\\mathbb\{[RNZ]\})
    | (?P<escaped>\\[,:;>!\ {}|])
    | (?P<command>\\[a-zA-Z]+)                    # a leaf if in _COMMANDS, or \sum, \prod
    | (?P<open>\{)
    | (?P<close>\})
    | (?P<prime>')
    | (?P<char>[-+=,/()\[\]<>|*!?~])
    | (?P<other>[^ \t\n\r])                      # anything else: not in the subset
    """,
    re.VERBOSE,
)


def _mo(code: str) -> str:
    return f"<mo>&#x{code};</mo>"


def _fence(code: str) -> str:
    return f'<mo stretchy="false">&#x{code};</mo>'


def _mi(code: str) -> str:
    return f"<mi>&#x{code};</mi>"


_CHARS: Final[dict[str, str]] = {
    "+": _mo("0002B"),
    "-": _mo("02212"),  # a true minus sign
    "=": _mo("0003D"),
    ",": _mo("0002C"),
    "/": _mo("0002F"),
    "<": _mo("0003C"),
    ">": _mo("0003E"),
    "*": _mo("0002A"),
    "!": _mo("00021"),
    "?": _mo("0003F"),
    "(": _fence("00028"),
    ")": _fence("00029"),
    "|": _fence("0007C"),
    "[": '<mo stretchy="false">[</mo>',  # no entity: "[" has no symbol of its own there
    "]": '<mo stretchy="false">]</mo>',
    "~": "<mtext>&#x000A0;</mtext>",
    ".": _mo("0002E"),
}

_ESCAPED: Final[dict[str, str]] = {
    "\\,": '<mspace width="0.167em" />',
    "\\:": '<mspace width="0.222em" />',
    "\\>": '<mspace width="0.222em" />',
    "\\;": '<mspace width="0.278em" />',
    "\\!": '<mspace width="negativethinmathspace" />',
    "\\ ": "<mtext>&#x000A0;</mtext>",
    "\\{": _fence("0007B"),
    "\\}": _fence("0007D"),
    "\\|": '<mo fence="false" stretchy="false">&#x02016;</mo>',
}

_GREEK: Final[dict[str, str]] = {
    "alpha": "003B1",
    "beta": "003B2",
    "gamma": "003B3",
    "delta": "003B4",
    "epsilon": "003F5",
    "varepsilon": "003B5",
    "zeta": "003B6",
    "eta": "003B7",
    "theta": "003B8",
    "vartheta": "003D1",
    "iota": "003B9",
    "kappa": "003BA",
    "lambda": "003BB",
    "mu": "003BC",
    "nu": "003BD",
    "xi": "003BE",
    "pi": "003C0",
    "varpi": "003D6",
    "rho": "003C1",
    "varrho": "003F1",
    "sigma": "003C3",
    "varsigma": "003C2",
    "tau": "003C4",
    "upsilon": "003C5",
    "phi": "003D5",
    "varphi": "003C6",
    "chi": "003C7",
    "psi": "003C8",
    "omega": "003C9",
    "Gamma": "00393",
    "Delta": "00394",
    "Theta": "00398",
    "Lambda": "0039B",
    "Xi": "0039E",
    "Pi": "003A0",
    "Sigma": "003A3",
    "Upsilon": "003A5",
    "Phi": "003A6",
    "Psi": "003A8",
    "Omega": "003A9",
}

# Symbols latex2mathml writes as <mo>: its operator list, or a code point in U+2190-U+22FF.
_MO_SYMBOLS: Final[dict[str, str]] = {
    "cdot": "000B7",
    "times": "000D7",
    "div": "000F7",
    "mp": "02213",
    "le": "02264",
    "leq": "02264",
    "ge": "02265",
    "geq": "02265",
    "ne": "02260",
    "neq": "02260",
    "approx": "02248",
    "equiv": "02261",
    "propto": "0221D",
    "in": "02208",
    "to": "02192",
    "rightarrow": "02192",
    "leftarrow": "02190",
    "Rightarrow": "021D2",
    "mapsto": "021A6",
    "infty": "0221E",
    "partial": "02202",
    "nabla": "02207",
    "top": "022A4",
    "circ": "02218",
    "mid": "02223",
    "cdots": "022EF",
    "dots": "02026",
}

# Symbols it writes as <mi>: outside those blocks, so not recognised as operators.
_MI_SYMBOLS: Final[dict[str, str]] = {
    "pm": "000B1",
    "sim": "0007E",
    "ldots": "02026",
    "lfloor": "0230A",
    "rfloor": "0230B",
    "lceil": "02308",
    "rceil": "02309",
    "ell": "02113",
}

_COMMANDS: Final[dict[str, str]] = {
    **{f"\\{name}": _mi(code) for name, code in _GREEK.items()},
    **{f"\\{name}": _mo(code) for name, code in _MO_SYMBOLS.items()},
    **{f"\\{name}": _mi(code) for name, code in _MI_SYMBOLS.items()},
    **{f"\\{name}": f"<mi>{name}</mi>" for name in ("sin", "cos", "tan", "exp", "log", "ln")},
    **{f"\\{name}": f"<mo>{name}</mo>" for name in ("max", "min")},
    "\\bmod": "<mo>mod</mo>",
    "\\quad": '<mspace width="1em" />',
    "\\qquad": '<mspace width="2em" />',
}

_BIGOPS: Final[dict[str, str]] = {"\\sum": _mo("02211"), "\\prod": _mo("0220F")}

_DOUBLE_STRUCK: Final[dict[str, str]] = {
    "\\mathbb{R}": _mi("0211D"),
    "\\mathbb{N}": _mi("02115"),
    "\\mathbb{Z}": _mi("02124"),
}


# Every token that stands for itself, with its MathML.
_LEAVES: Final[dict[str, str]] = {
    **{c: f"<mi>{c}</mi>" for c in string.ascii_letters},
    **_CHARS,
    **_ESCAPED,
    **_COMMANDS,
    **_DOUBLE_STRUCK,
}

_SCRIPTS: Final = frozenset((_SUB, _SUP, _PRIME))


class _Outside(Exception):
    """The formula leaves the subset: the caller falls back to latex2mathml."""


def _tokenize(tex: str) -> list[_Token]:
    """The tokens of ``tex``, leaves already rendered; raises _Outside outside the subset."""
    tokens: list[_Token] = []
    append = tokens.append
    for m in _TOKEN_RE.finditer(tex):
        text = m.group()
        leaf = _LEAVES.get(text)  # a key of _LEAVES only ever matches as that leaf
        if leaf is not None:
            append((_ATOM, leaf))
            continue
        kind = m.lastgroup
        if kind == "number":
            append((_ATOM, f"<mn>{text}</mn>"))
        elif kind in ("script", "script_digit"):  # lastgroup is the last one that matched
            append((_SUB if text[0] == "_" else _SUP, ""))
            if len(text) == 2:
                append((_ATOM, f"<mn>{text[1]}</mn>"))
        elif kind == "open":
            append((_OPEN, ""))
        elif kind == "close":
            append((_CLOSE, ""))
        elif kind == "prime":
            append((_PRIME, ""))
        elif text in _BIGOPS:
            append((_BIGOP, _BIGOPS[text]))
        elif kind == "mathrm":
            letters = "".join(f'<mi mathvariant="normal">{c}</mi>' for c in m.group("roman"))
            append((_ATOM, f"<mrow>{letters}</mrow>"))
        else:  # an unknown command, a dimension, ".5", anything else
            raise _Outside
    return tokens


def _atom(tokens: list[_Token], pos: int, depth: int) -> tuple[str, int]:
    """One atom at ``pos`` (a leaf or a braced group) and the position after it."""
    if pos >= len(tokens):
        raise _Outside  # a script with nothing after it
    kind, text = tokens[pos]
    if kind in (_ATOM, _BIGOP):
        return text, pos + 1
    if kind == _OPEN:
        inner, pos = _row(tokens, pos + 1, depth + 1, limits=False)
        return (f"<mrow>{inner}</mrow>" if inner else "<mrow />"), pos
    raise _Outside  # "}", or a script or prime with no base


def _item(tokens: list[_Token], pos: int, depth: int, limits: bool) -> tuple[str, int]:
    """An atom with its optional prime and sub/superscripts."""
    big = tokens[pos][0] == _BIGOP
    base, pos = _atom(tokens, pos, depth)
    prime, sub, sup, pos = _scripts(tokens, pos, depth, big)
    return _render(base, sub, sup, prime=prime, under=big and limits), pos


def _scripts(
    tokens: list[_Token], pos: int, depth: int, big: bool
) -> tuple[bool, str | None, str | None, int]:
    """The prime, subscript and superscript after a base, and the position after them."""
    end = len(tokens)
    prime = pos < end and tokens[pos][0] == _PRIME
    if prime:
        if big:
            raise _Outside
        pos += 1
    sub = sup = None
    allowed = 1 if prime else 2
    while allowed and pos < end and tokens[pos][0] in (_SUB, _SUP):
        if tokens[pos][0] == _SUB:
            if sub is not None:
                raise _Outside  # a double subscript is an error there
            sub, pos = _atom(tokens, pos + 1, depth)
        else:
            if sup is not None:
                raise _Outside  # so is a double superscript
            sup, pos = _atom(tokens, pos + 1, depth)
        allowed -= 1
    if not prime and sup is None and pos < end and tokens[pos][0] == _PRIME:
        if big or sub is None:
            raise _Outside
        prime = True  # x_k' is x_k with a prime above, like x'_k
        pos += 1
    if pos < end and tokens[pos][0] in (_SUB, _SUP, _PRIME):
        raise _Outside  # a third script, or a second prime
    return prime, sub, sup, pos


def _render(base: str, sub: str | None, sup: str | None, *, prime: bool, under: bool) -> str:
    """The MathML of a base with its scripts (at most one script with a prime)."""
    if prime:
        if sub is not None:
            return f"<msubsup>{base}{sub}{_PRIME_MI}</msubsup>"
        if sup is not None:  # x'^2: the prime and the 2 share one superscript
            return f"<msup>{base}<mrow>{_PRIME_MI}{sup}</mrow></msup>"
        return f"<msup>{base}{_PRIME_MI}</msup>"
    if sub is not None and sup is not None:
        tag = "munderover" if under else "msubsup"
        return f"<{tag}>{base}{sub}{sup}</{tag}>"
    if sub is not None:
        tag = "munder" if under else "msub"
        return f"<{tag}>{base}{sub}</{tag}>"
    if sup is not None:
        tag = "mover" if under else "msup"
        return f"<{tag}>{base}{sup}</{tag}>"
    return base


def _row(tokens: list[_Token], pos: int, depth: int, *, limits: bool) -> tuple[str, int]:
    """Items up to the closing brace (``depth > 0``) or the end (``depth == 0``)."""
    if depth > _MAX_DEPTH:
        raise _Outside
    parts: list[str] = []
    end = len(tokens)
    while pos < end:
        kind = tokens[pos][0]
        if kind == _ATOM and (pos + 1 == end or tokens[pos + 1][0] not in _SCRIPTS):
            parts.append(tokens[pos][1])  # the common case: a leaf without scripts
            pos += 1
        elif kind == _CLOSE:
            if depth == 0:
                raise _Outside  # an unopened "}"
            return "".join(parts), pos + 1
        else:
            part, pos = _item(tokens, pos, depth, limits)
            parts.append(part)
    if depth > 0:
        raise _Outside  # an unclosed "{"
    return "".join(parts), pos


def fast_convert(tex: str, *, display: bool) -> str | None:
    """``latex2mathml.converter.convert(tex, display=...)`` for the simple subset, else None.

    ``display`` selects ``display="block"`` (True) or ``display="inline"`` (False).
    """
    try:
        tokens = _tokenize(tex)
        if not tokens:
            return None  # latex2mathml raises on an empty formula
        # Limits under \sum apply in display mode, and only outside braces and scripts.
        body, _ = _row(tokens, 0, 0, limits=display)
    except _Outside:
        return None
    mode = "block" if display else "inline"
    return f'{_HEAD}{mode}"><mrow>{body}</mrow></math>'
