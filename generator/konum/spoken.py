"""Rendered HTML as one line of plain text, each formula as a reader says it.

For the places that cannot hold markup: a matching question's ``<option>`` (quiz pages), the
right-hand items of Moodle XML and GIFT matching questions. ``$\\sin(0)$`` reads
``sin(0)``, ``$s^{d/(d-2)}$`` reads ``s to the power d/(d−2)``, ``$x_1$`` reads ``x₁``,
``$\\binom{12}{2}$`` reads ``C(12, 2)`` (not a fraction in brackets), in
the words of the page's language (its catalogue's ``spoken`` texts: ``s üzeri d/(d−2)`` in
Turkish).
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

from konum.markup import render_markdown
from konum.messages import catalogue

#: Operators written with a space on each side (as a reader says them), unless they are signs.
_SPACED = frozenset("+−=≠≈≤≥<>·×→↦∈∉⊂⊆∪∩±∓∝≡")
#: Scripts that read well as Unicode characters: numbers and signs (x², x⁻¹, x₁, xⁿ, qᵀ).
_SUPERSCRIPT = str.maketrans("0123456789+−=()n⊤T", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿᵀᵀ")
_SUBSCRIPT = str.maketrans("0123456789+−=()", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎")
_LARGE_OPERATORS = frozenset("∑∏∫∮⋃⋂")
_ACCENTS = {"^": "\u0302", "ˆ": "\u0302", "¯": "\u0304", "‾": "\u0304", "→": "\u20d7",
            "~": "\u0303", "˜": "\u0303", "˙": "\u0307", "¨": "\u0308"}  # fmt: skip
_FUNCTIONS = frozenset({"sin", "cos", "tan", "exp", "log", "ln", "max", "min", "arg", "softmax"})
_SCRIPTED = frozenset({"msup", "msub", "msubsup", "munder", "mover", "munderover"})


def _words(language: str) -> dict[str, str]:
    """How a reader of ``language`` says a power, an index and a sum's limits: the
    ``spoken`` texts of its catalogue (``{base} üzeri {exponent}`` in Turkish)."""
    texts = catalogue(language)
    return {key: str(texts[f"spoken.{key}"]) for key in ("power", "sub", "range", "over")}


class _Node:
    """An element of the MathML tree :class:`_TextParser` builds."""

    __slots__ = ("attrs", "children", "tag")

    def __init__(self, tag: str, attrs: dict[str, str | None]) -> None:
        self.tag, self.attrs = tag, attrs
        self.children: list[_Node | str] = []

    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def elements(self) -> list[_Node]:
        return [c for c in self.children if isinstance(c, _Node)]


class _TextParser(HTMLParser):
    """HTML to text: tags dropped, each ``<math>`` replaced by :func:`_spoken` of it."""

    def __init__(self, language: str) -> None:
        super().__init__(convert_charrefs=True)
        self.words = _words(language)
        self.out: list[str] = []
        self.math: list[_Node] = []  # the open MathML elements, outermost first

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "math" or self.math:
            node = _Node(tag, dict(attrs))
            if self.math:
                self.math[-1].children.append(node)
            self.math.append(node)

    def handle_endtag(self, tag: str) -> None:
        if self.math:
            node = self.math.pop()
            if not self.math:
                self.out.append(_spoken(node, self.words))

    def handle_data(self, data: str) -> None:
        if self.math:
            self.math[-1].children.append(data)
        else:
            self.out.append(data)


def _group(text: str, *, words: bool = False) -> str:
    """``text`` in parentheses when it is more than one term: more than one word (in a
    script, ``words``), or anything but a name or a number (in a fraction)."""
    if text.startswith("(") and text.endswith(")") and text.count("(") == 1:
        return text
    several = " " in text if words else not re.fullmatch(r"[\w.′]+", text)
    return f"({text})" if several else text


def _spoken(node: _Node, words: dict[str, str], compact: bool = False) -> str:
    """A MathML element as a reader says it in one line: ``sin(0)``, ``2π · 10000``,
    ``s to the power d/(d−2)``, ``W sub q``, ``x₁``, ``−1``. Inside scripts and fractions
    operators take no spaces (``compact``)."""
    tag, parts = node.tag, node.elements()
    if tag in _SCRIPTED:  # latex2mathml puts a thin space inside \log_2
        parts = [p for p in parts if p.tag != "mspace"]
    if tag in ("mi", "mn", "mo", "mtext", "ms"):
        return node.text().strip()
    if tag in ("annotation", "annotation-xml", "mphantom"):
        return ""
    if tag == "mspace":
        return " "
    if tag == "semantics":
        return _spoken(parts[0], words, compact) if parts else ""
    if tag in _SCRIPTED and len(parts) >= 2:
        return _scripted(tag, parts, words, compact)
    if tag == "mfrac" and len(parts) == 2 and "binomial" in node.attrs:
        return f"C({_spoken(parts[0], words, True)}, {_spoken(parts[1], words, True)})"
    if tag == "mfrac" and len(parts) == 2:
        return f"{_group(_spoken(parts[0], words, True))}/{_group(_spoken(parts[1], words, True))}"
    if tag == "msqrt":
        return "√" + _group(_row(parts, words, True))
    if tag == "mroot" and len(parts) == 2:
        return f"{_spoken(parts[1], words, True)}√{_group(_spoken(parts[0], words, True))}"
    if tag == "mtable":
        return "; ".join(_spoken(row, words, compact) for row in parts)
    if tag == "mtr":
        return ", ".join(_spoken(cell, words, compact) for cell in parts)
    return _row(parts, words, compact)


def _as_script(text: str, table: dict[int, int]) -> str | None:
    """``text`` in Unicode super- or subscript characters, if each one has such a form."""
    return text.translate(table) if text and all(ord(c) in table for c in text) else None


def _scripted(tag: str, parts: list[_Node], words: dict[str, str], compact: bool) -> str:
    base = _spoken(parts[0], words, compact)
    scripts = [_spoken(p, words, True) for p in parts[1:3]]
    if tag == "mover" and scripts[0] in _ACCENTS:
        return base + _ACCENTS[scripts[0]]
    if base in _LARGE_OPERATORS:  # a sum's limits
        if len(scripts) == 2:
            return words["range"].format(operator=base, low=scripts[0], high=scripts[1])
        return words["over"].format(operator=base, below=scripts[0])
    if tag in ("munder", "mover", "munderover"):
        return " ".join([base, *scripts])
    low = scripts[0] if tag in ("msub", "msubsup") else None
    high = scripts[-1] if tag in ("msup", "msubsup") else None
    out = base
    if low is not None:
        sub = _as_script(low, _SUBSCRIPT)
        out = out + sub if sub else words["sub"].format(base=out, index=_group(low, words=True))
    if high is not None:
        power = _as_script(high, _SUPERSCRIPT)
        if set(high) <= set("′″‴") or power:
            out += high if set(high) <= set("′″‴") else str(power)
        else:
            out = words["power"].format(base=out, exponent=_group(high, words=True))
    return out


def _binomials(parts: list[_Node]) -> list[_Node]:
    """``parts`` with each binomial coefficient (a fraction without a bar between
    brackets, as ``\\binom`` writes it) made one node read as ``C(n, k)``."""
    found: list[_Node] = []
    for node in parts:
        found.append(node)
        last = found[-3:]
        if (
            len(last) == 3
            and [n.tag for n in last] == ["mo", "mfrac", "mo"]
            and (last[0].text().strip(), last[2].text().strip()) == ("(", ")")
            and last[1].attrs.get("linethickness") == "0"
            and len(last[1].elements()) == 2
        ):
            binomial = _Node("mfrac", {**last[1].attrs, "binomial": "1"})
            binomial.children = last[1].children
            found[-3:] = [binomial]
    return found


def _row(parts: list[_Node], words: dict[str, str], compact: bool) -> str:
    out: list[str] = []
    previous: _Node | None = None
    word = False  # the previous item ends in a word: a function name, or a spoken script
    for node in _binomials(parts):
        text = _spoken(node, words, compact)
        if node.tag == "mo" and text in _SPACED:
            sign = (
                previous is None
                or node.attrs.get("form") == "prefix"
                or (previous.tag == "mo" and _spoken(previous, words) not in ")]|⌋⌉")
            )
            text = text if sign or compact else f" {text} "
        elif node.tag == "mo" and text in (",", ";"):
            text += " "
        elif word and text[:1].isalnum():
            text = " " + text
        out.append(text)
        word = text in _FUNCTIONS or (
            node.tag in _SCRIPTED
            and (_spoken(node.elements()[0], words) in _FUNCTIONS or " " in text.strip())
        )
        previous = node
    return "".join(out)


def html_text(html: str, language: str = "en") -> str:
    """Sanitised HTML as one line of plain text, each formula as a reader says it (see
    :func:`_spoken`, in ``language``'s :data:`WORDS`): for places that cannot hold markup,
    such as ``<option>``."""
    parser = _TextParser(language)
    parser.feed(html)
    parser.close()
    text = re.sub(r"\s+", " ", "".join(parser.out)).strip()
    return re.sub(r"\(\s+", "(", re.sub(r"\s+([),;:])", r"\1", text))


def plain_text(text: str, language: str = "en") -> str:
    """Inline Markdown as plain text (:func:`html_text` of its HTML): no markup, no TeX,
    ``$\\sin(0)$`` as ``sin(0)`` and ``$s^{d/(d-2)}$`` as ``s to the power d/(d−2)``."""
    return html_text(str(render_markdown(text, inline=True)), language)
