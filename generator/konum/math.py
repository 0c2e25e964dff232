r"""``konum.math``: math in Markdown, rendered at build time, ``$...$`` inline and ``$$...$$``
display.

In ``mkdocs.yml`` (on its own, or as part of ``konum``)::

    markdown_extensions:
      - konum.math

Syntax::

    The angle is $\theta = p / 10000^{2k/d}$.

    $$
    PE_{(p, 2k)} = \sin\left(\frac{p}{10000^{2k/d}}\right)
    $$

``mode="mathml"`` (the site) converts the LaTeX to MathML with ``latex2mathml``: no JavaScript
to ship, nothing to typeset again when the numbers change, and read by screen readers.
``mode="anki"`` keeps the LaTeX between Anki's MathJax delimiters ``\( \)`` and ``\[ \]``.
``mode="token"`` (bank texts, :mod:`konum.markup`) leaves a placeholder for each formula and
lists the formulas, so that one conversion serves every output.
Both modes refuse the MathJax commands that reach outside a formula (``\href``, ``\style``,
``\unicode``...: :data:`UNSAFE_COMMANDS`), and each formula is converted once (cached).

A dollar opens math only when the next character is not a space, and closes it only when the
previous one is not a space and no digit follows ("costs $5 and $6" stays text). Write ``\$``
for a literal dollar. Code spans and fenced code are never touched: the inline pattern runs
after backticks, and display blocks are found after fenced code has been stashed.
"""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as etree
from functools import lru_cache
from typing import Any

from latex2mathml.converter import convert
from markdown import Extension, Markdown
from markdown.inlinepatterns import InlineProcessor
from markdown.postprocessors import Postprocessor
from markdown.preprocessors import Preprocessor
from markdown.treeprocessors import Treeprocessor

MODES = ("mathml", "anki", "token")

INLINE_MATH_RE = r"""
    (?<![\\$])               # not escaped, not the second dollar of $$
    (?P<delim>\$\$?)         # $ or $$
    (?!\s)(?P<tex>[^\x02\x03]+?)(?<!\s)(?<!\\)  # never across a stashed code span
    (?P=delim)
    (?![\d$])                # "$5 and $6" is money, not math
"""

INLINE_MATH = re.compile(INLINE_MATH_RE, re.DOTALL | re.UNICODE | re.VERBOSE)

# A display block: a line that starts with $$, up to the line that ends with $$, within
# one paragraph (never across a blank line).
DISPLAY_BLOCK_RE = re.compile(
    r"^(?P<indent>[ \t]*)\$\$(?P<tex>(?:(?!\n[ \t]*\n).)*?)\$\$[ \t]*$", re.MULTILINE | re.DOTALL
)


# latex2mathml leaves two things to the browser that it does not do well: a function name
# followed directly by its argument (\cos 0 would touch: "cos0"), and the brackets of a
# pmatrix/bmatrix, which must be marked stretchy to grow with the matrix.
_FUNCTION_THEN_ARGUMENT = re.compile(
    r"(<mi>(?:sin|cos|tan|exp|log|ln|max|min|arg)</mi>)(?=<m[in][ >])"
)
_FENCE_BEFORE_TABLE = re.compile(r"<mo>([^<]{1,10})</mo>(?=<mtable)")
_FENCE_AFTER_TABLE = re.compile(r"(?<=</mtable>)<mo>([^<]{1,10})</mo>")


_MATH_HEAD = re.compile(
    r'<math xmlns="http://www\.w3\.org/1998/Math/MathML" display="(inline|block)">'
)


# Absolute-value bars: latex2mathml writes both bars of |x| as the same operator, which a
# browser spaces like a relation ("| r |"). Two bars in the same row are an opening and a
# closing fence; a lone bar (a set-builder "such that", P(A|B)) keeps its spacing.
_BAR = '<mo stretchy="false">&#x0007C;</mo>'
_TAG = re.compile(r"<(/?)[a-z]+[^>]*?(/?)>")


def _absolute_value_bars(mathml: str) -> str:
    if mathml.count(_BAR) < 2:
        return mathml
    rows: list[list[int]] = [[]]  # per open element, where its bars start
    forms: dict[int, str] = {}
    for tag in _TAG.finditer(mathml):
        if tag.group(1):  # a closing tag: pair its element's bars, first with second, ...
            bars = rows.pop()
            for opening, closing in zip(bars[0::2], bars[1::2], strict=False):
                forms[opening], forms[closing] = "prefix", "postfix"
        elif not tag.group(2):  # an opening tag (not self-closing)
            if mathml.startswith(_BAR, tag.start()):
                rows[-1].append(tag.start())
            rows.append([])
    pieces, end = [], 0
    for at in sorted(forms):
        pieces += [mathml[end:at], f'<mo stretchy="false" form="{forms[at]}">&#x0007C;</mo>']
        end = at + len(_BAR)
    return "".join(pieces) + mathml[end:]


# A minus right after a relation, an opening bracket, a comma or another operator is a sign
# ("= -0.92", "(-3)", "a, -b"): latex2mathml writes it like a subtraction, and Chromium then
# spaces it as one ("= − 0.92"). Marked prefix, it sits against its number. After anything
# else (a closing bracket or bar, "!") it is left alone: there it may subtract.
_MINUS = "<mo>&#x02212;</mo>"
_SIGN_AFTER = re.compile(r"<mo(?P<attrs>[^>]*)>(?P<op>[^<]*)</mo>" + re.escape(_MINUS))
# Relations, operators and opening brackets, spelt as latex2mathml writes them ("[" as is).
_BEFORE_A_SIGN = frozenset(f"&#x{ord(c):05X};" for c in "=+−,({<>·×÷/:;∓≤≥≠≈≡∝∈→←⇒↦") | {"["}


def _signs(mathml: str) -> str:
    if _MINUS not in mathml:
        return mathml

    def mark(m: re.Match[str]) -> str:
        attrs = m.group("attrs")
        opening = 'form="prefix"' in attrs  # \left( or the first bar of |x|
        if not opening and ("form=" in attrs or m.group("op") not in _BEFORE_A_SIGN):
            return m.group(0)
        return m.group(0)[: -len(_MINUS)] + '<mo form="prefix">&#x02212;</mo>'

    return _SIGN_AFTER.sub(mark, mathml)


# A decimal comma: TeX's 0{,}841 (a braced comma takes no space), which latex2mathml writes
# as a separate operator that browsers space like a list's comma ("0, 841"). One number.
_DECIMAL_COMMA = re.compile(r"<mn>(\d+)</mn><mrow><mo>&#x0002C;</mo></mrow><mn>(\d+)</mn>")


# What latex2mathml spells longer than the same MathML needs (:func:`_compact`).
_CHARACTER_REFERENCE = re.compile(r"&#x([0-9A-Fa-f]+);")
_KEPT_REFERENCES = frozenset("<>&\"'")
_UPRIGHT_WORD = re.compile(r'<mrow>((?:<mi mathvariant="normal">[^<]</mi>){2,})</mrow>')
_UPRIGHT_LETTER = re.compile(r'<mi mathvariant="normal">([^<])</mi>')
_ONE_TOKEN_ROW = re.compile(r"<mrow>(<(mi|mn|mtext)\b[^>]*>[^<]*</\2>)</mrow>")


def _character(match: re.Match[str]) -> str:
    char = chr(int(match.group(1), 16))
    return match.group(0) if char in _KEPT_REFERENCES else char


def _compact(mathml: str) -> str:
    """The same formula in fewer bytes, drawn as before: character references as the
    characters (but ``< > & " '``); an upright word (``\\mathrm{Attn}``: a row of one-letter
    upright ``<mi>``) as one ``<mi>``, which is upright by default (and read as a word, as
    TeX sets it); a row around a single token as the token. The row around the whole
    formula stays: without it Chromium stacks an inline formula's parts one above the
    other. ``mathml`` is the content of ``<math>``."""
    mathml = _CHARACTER_REFERENCE.sub(_character, mathml)
    mathml = _UPRIGHT_WORD.sub(
        lambda m: "<mi>" + "".join(_UPRIGHT_LETTER.findall(m.group(1))) + "</mi>", mathml
    )
    return _ONE_TOKEN_ROW.sub(r"\1", mathml)


def _polish(mathml: str) -> str:
    mathml = _DECIMAL_COMMA.sub(r"<mn>\1,\2</mn>", mathml)
    mathml = _FUNCTION_THEN_ARGUMENT.sub(r'\1<mspace width="0.1667em"></mspace>', mathml)
    mathml = _absolute_value_bars(mathml)
    mathml = _signs(mathml)
    if "<mtable" in mathml:
        mathml = _FENCE_BEFORE_TABLE.sub(
            r'<mo stretchy="true" fence="true" form="prefix">\1</mo>', mathml
        )
        mathml = _FENCE_AFTER_TABLE.sub(
            r'<mo stretchy="true" fence="true" form="postfix">\1</mo>', mathml
        )
    return _compact(mathml)


class MathError(ValueError):
    """LaTeX that latex2mathml cannot convert, or that a bank may not hold."""


#: MathJax commands that reach outside the formula: links, CSS, HTML attributes, fonts,
#: extensions and macro definitions (which could rename any of them). latex2mathml keeps
#: some of them as attributes the sanitiser then drops, but Anki's cards carry the LaTeX
#: itself, and there MathJax would run them.
UNSAFE_COMMANDS = re.compile(
    r"""\\(?P<name>
        href | url | style | unicode | class | cssId | data
      | htmlData | htmlClass | htmlId | htmlStyle
      | require | mmlToken | bbox | enclose | texttip | mathtip | toggle | tooltip
      | def | gdef | edef | xdef | let | futurelet
      | newcommand | renewcommand | providecommand | newenvironment | renewenvironment
    )(?![A-Za-z])""",
    re.VERBOSE,
)

# latex2mathml's exceptions carry no message: what each means, in an author's words.
_REASONS = {
    "NoAvailableTokensError": "it ends too early (an unclosed { or a command without its argument)",
    "MissingSuperScriptOrSubscriptError": "a ^ or _ has nothing after it",
    "DoubleSubscriptsError": "two subscripts in a row (write a_{12} or {a_1}_2)",
    "DoubleSuperscriptsError": "two superscripts in a row (write a^{12} or {a^1}^2)",
    "ExtraLeftOrMissingRightError": "a \\left or \\right without its partner",
    "MissingEndError": "a \\begin without its \\end",
    "NumeratorNotFoundError": "a fraction without its numerator",
    "DenominatorNotFoundError": "a fraction without its denominator",
    "InvalidStyleForGenfracError": "\\genfrac's style must be 0, 1, 2 or 3",
    "InvalidAlignmentError": "a column alignment other than l, c or r",
    "InvalidWidthError": "a width that is not a TeX length",
    "LimitsMustFollowMathOperatorError": "\\limits must follow an operator such as \\sum",
}


def unsafe_command(tex: str) -> str | None:
    """The first command of :data:`UNSAFE_COMMANDS` in ``tex`` (``"\\href"``), or None."""
    m = UNSAFE_COMMANDS.search(tex)
    return f"\\{m.group('name')}" if m else None


def unsafe_message(command: str) -> str:
    """Why ``command`` (``"\\href"``) is refused, as a sentence for authors."""
    return (
        f"the math command {command} is not allowed in a bank: Anki's MathJax would turn it"
        " into a link, a style or an HTML attribute on the cards"
    )


@lru_cache(maxsize=16384)
def tex_to_html(tex: str, *, display: bool, mode: str = "mathml") -> str:
    """One formula as HTML: MathML for the site, MathJax-delimited LaTeX for Anki.

    Raises:
        MathError: latex2mathml cannot convert ``tex`` (the message says why), or it holds
            one of :data:`UNSAFE_COMMANDS` (refused in both modes).
    """
    tex = tex.strip()
    command = unsafe_command(tex)
    if command is not None:
        raise MathError(f"cannot render the math ${tex}$: {unsafe_message(command)}")
    if mode == "anki":
        return html.escape(rf"\[{tex}\]" if display else rf"\({tex}\)", quote=False)
    try:
        mathml = convert(tex, display="block" if display else "inline")
    except Exception as exc:  # latex2mathml raises many exception types, without messages
        name = type(exc).__name__
        reason = _REASONS.get(name) or str(exc) or name
        raise MathError(f"cannot render the math ${tex}$: {reason} (latex2mathml: {name})") from exc
    # The LaTeX source rides along (alttext) for the tools that read it instead of the
    # MathML, unless it says no more than the formula's own characters ("j - i", "10000"),
    # which is what they read without it (quiz.js's spoken names too). The MathML namespace
    # and display="inline" are what an HTML parser assumes for <math>, so they are dropped.
    head = _MATH_HEAD.match(mathml)
    if head is None:  # pragma: no cover - latex2mathml always writes this head
        raise MathError(f"unexpected MathML for ${tex}$: {mathml[:60]}")
    block = ' display="block"' if head.group(1) == "block" else ""
    body = _polish(mathml[head.end() :])
    if _bare(tex) == _bare(html.unescape(_ANY_TAG.sub("", body))):
        return f"<math{block}>" + body
    return f'<math alttext="{html.escape(tex, quote=True)}"{block}>' + body


_ANY_TAG = re.compile(r"<[^>]*>")


def _bare(text: str) -> str:
    """``text`` without spaces, the minus sign as a hyphen: a formula's TeX and its
    characters compare equal when the TeX adds nothing to them."""
    return "".join(text.split()).replace("\u2212", "-")


#: The class of an inline formula bound to the punctuation after it (styled nowrap).
NOBREAK_CLASS = "konum-nobreak"
# Browsers may break a line between a formula and the comma after it, so that the next line
# starts with the comma. The wrapper has no quotes: the pass also runs over HTML kept in JSON
# strings (a quiz's later parts, the study page's cards), where a quote would end the string.
_NOBREAK_OPEN = f"<span class={NOBREAK_CLASS}>"
_PUNCTUATED = re.compile(
    r"(?<!" + re.escape(_NOBREAK_OPEN) + r")"
    r"""(<math\b(?![^>]*display=\\?["']?block)[^>]*>(?:(?!</math>).)*</math>)"""
    r"([,.;:!?)\]’”…]+)",
    re.DOTALL,
)


def bind_punctuation(html: str) -> str:
    """Wrap each inline formula and the punctuation that follows it in one element that
    does not break (``<span class=konum-nobreak>``, styled ``white-space: nowrap``).

    Idempotent; display formulas are left alone. Safe on a whole page, including HTML held
    in JSON strings, since the wrapper holds no quote, backslash or ``</script``.
    """
    return _PUNCTUATED.sub(_NOBREAK_OPEN + r"\1\2</span>", html)


#: Browsers stretch brackets, bars and radicals only with a font that has an OpenType MATH
#: table, and the generic ``math`` family does not always find one (Chromium on Linux).
#: A formula wider than its line scrolls in its own box (phones): a display one in its
#: <div> (focusable, so that a keyboard can scroll it), an inline one as an inline block
#: that keeps its baseline (where browsers can; the padding keeps fraction bars and
#: scripts from being clipped). An inline formula keeps the punctuation after it on its
#: line (:func:`bind_punctuation`).
MATH_FONTS = (
    '<style>math{font-family:"STIX Two Math","Cambria Math","Latin Modern Math",'
    '"DejaVu Math TeX Gyre","Noto Sans Math",math}'
    ".konum-math{overflow-x:auto;overflow-y:hidden}.konum-nobreak{white-space:nowrap}"
    "@supports (baseline-source:first){math:not([display=block]){display:inline-block;"
    "max-width:100%;overflow-x:auto;overflow-y:hidden;baseline-source:first;padding:.4em 0;"
    "margin:-.4em 0}.konum-nobreak>math{max-width:calc(100% - 1em)}}</style>"
)


def page_math(text: str) -> str:
    """A whole page's HTML with the formulas' style in front (once) and each inline formula
    bound to the punctuation after it; a page without MathML is returned as it is."""
    if "<math" not in text or text.startswith(MATH_FONTS):
        return text
    return MATH_FONTS + "\n" + bind_punctuation(text)


class PageEnd(Treeprocessor):
    """Tells a page postprocessor (``target``) that the tree is done, so its next run is
    the page's: the toc extension runs every postprocessor on each heading's HTML before
    that (for its names and ids), where the page's styles and scripts must not go."""

    def __init__(self, md: Markdown, target: Any) -> None:
        super().__init__(md)
        self.target = target

    def run(self, root: Any) -> None:
        self.target.page = True


class PagePostprocessor(Postprocessor):
    """:func:`page_math` on the page, once."""

    page = False

    def run(self, text: str) -> str:
        if not self.page:
            return text
        self.page = False
        return page_math(text)


class InlineMathProcessor(InlineProcessor):
    """``$...$`` and one-line ``$$...$$`` inside a paragraph."""

    def __init__(self, pattern: str, md: Markdown, extension: MathExtension) -> None:
        super().__init__(pattern, md)
        self.compiled_re = (
            INLINE_MATH
            if pattern == INLINE_MATH_RE
            else re.compile(pattern, re.DOTALL | re.UNICODE | re.VERBOSE)
        )
        self.extension = extension

    def handleMatch(  # type: ignore[override]
        self, m: re.Match[str], data: str
    ) -> tuple[etree.Element | str | None, int | None, int | None]:
        display = m.group("delim") == "$$"
        markup = self.extension.render(m.group("tex"), display)
        return self.md.htmlStash.store(markup), m.start(0), m.end(0)


class DisplayMathPreprocessor(Preprocessor):
    """Multi-line ``$$ ... $$`` blocks become one stashed block of HTML."""

    def __init__(self, md: Markdown, extension: MathExtension) -> None:
        super().__init__(md)
        self.extension = extension

    def run(self, lines: list[str]) -> list[str]:
        text = "\n".join(lines)
        if "$$" not in text:
            return lines

        def replace(m: re.Match[str]) -> str:
            markup = self.extension.render(m.group("tex"), True)
            if self.extension.getConfig("mode") != "anki":  # its own box, that may scroll
                markup = f'<div class="konum-math" tabindex="0">{markup}</div>'
            placeholder = self.md.htmlStash.store(markup)
            return f"{m.group('indent')}\n{m.group('indent')}{placeholder}\n"

        return DISPLAY_BLOCK_RE.sub(replace, text).split("\n")


class MathExtension(Extension):
    """Registers the math processors.

    Config: ``mode`` is ``"mathml"``, ``"anki"`` or ``"token"``. In token mode each formula
    is the placeholder ``KONUMMATH<n>X`` (a displayed block of its own inside ``<div
    class="konum-math">``, as in MathML mode) and :attr:`formulas` lists ``(tex, display)``
    in that order; ``Markdown.reset()`` empties it.
    """

    def __init__(self, **kwargs: Any) -> None:
        self.config = {"mode": ["mathml", "mathml (pages), anki (MathJax delimiters) or token"]}
        super().__init__(**kwargs)
        self.formulas: list[tuple[str, bool]] = []

    def render(self, tex: str, display: bool) -> str:
        """One formula as HTML (see :func:`tex_to_html`), or its placeholder in token mode."""
        mode = self.getConfig("mode")
        if mode != "token":
            return tex_to_html(tex, display=display, mode=mode)
        self.formulas.append((tex, display))
        return f"KONUMMATH{len(self.formulas) - 1}X"

    def reset(self) -> None:
        self.formulas = []

    def extendMarkdown(self, md: Markdown) -> None:
        mode = self.getConfig("mode")
        if mode not in MODES:
            raise ValueError(f"math mode must be one of {MODES}, got {mode!r}")
        md.registerExtension(self)
        # After fenced code (superfences: 25) is stashed, before the HTML block parser (20).
        md.preprocessors.register(DisplayMathPreprocessor(md, self), "konum_display_math", 24)
        # After code spans (190), before backslash escapes (180) eat LaTeX's \{ and \\.
        md.inlinePatterns.register(InlineMathProcessor(INLINE_MATH_RE, md, self), "konum_math", 185)
        if mode == "mathml":  # a page: its formulas' style, once (before konum.quiz's files)
            page = PagePostprocessor(md)
            md.treeprocessors.register(PageEnd(md, page), "konum_math_page", -100)
            md.postprocessors.register(page, "konum_math_page", 1)


def makeExtension(**kwargs: Any) -> MathExtension:
    return MathExtension(**kwargs)
