"""``konum.values``: numbers computed at build time in pages, a sandboxed Jinja pass before
Markdown.

In ``mkdocs.yml`` (on its own, or as part of ``konum``), with the plugins whose values the
pages use (:mod:`konum.plugins`)::

    markdown_extensions:
      - konum.values:
          plugins: [phys]

Then every number a page states is computed, never typed::

    A 2 kg cart pushed with 6 N accelerates at {{ fmt(phys.acceleration(6, 2), 1) }} m/s².
    {% set periods = phys.orbit_periods([1, 2, 4]) %}
    The outermost orbit takes {{ fmt(periods[2], 2) }} years.
    {{ figure("orbits", alt="Three circular orbits", radii=[1, 2, 4]) }}

The page is a template of :func:`konum.sandbox.sandbox` (contributors write pages; CI builds
their pull requests), so it sees only the names of :func:`page_namespace`, values and pure
functions, never a module:

* ``fmt`` (:func:`konum.sandbox.fmt`), :func:`vec`, :func:`table`, :func:`thousands`;
* ``figure``: a plugin's figure as inline SVG (:mod:`konum.figures`); ``generators``
  (:func:`generator_catalogue`) and ``figures`` (:func:`figure_catalogue`), for pages that
  document what banks may use;
* every name the plugins' ``VALUES`` give (a :class:`konum.sandbox.FunctionSet` of a
  subject's functions, such as ``phys`` above, and any numbers or numpy functions it adds).

A page with no ``{{`` and no ``{%`` passes through unchanged.
The pass runs over the whole page before any other Markdown processing, fenced code
included, so printed outputs in code blocks are computed too. On a page in another language
(the extension's ``language``) the numbers that ``fmt``, ``vec`` and ``table`` print take its
decimal mark in prose (``0,841``; ``0{,}841`` in math) and keep Python's dot in code, and
``thousands`` groups with the language's separator (``786.432`` in Turkish) outside code; a
bare number (``{{ n * d }}``) is written as ``fmt`` writes it.
A failure is a :class:`ValuesError` naming the line; MkDocs names the page and stops
without a traceback. A page holds at most :data:`konum.limits.TEMPLATE_TAGS` tags (counted
before anything is compiled).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from functools import cached_property
from typing import Any

import numpy as np
from markdown import Extension, Markdown
from markdown.preprocessors import Preprocessor

from konum import limits
from konum.blocks import question_blocks
from konum.bounds import PRINT_NUMBER, SandboxError, check_decimals
from konum.config import DEFAULTS, OptionError, Options, options_from
from konum.errors import KonumError, PageError
from konum.figures import figure_params, render_svg
from konum.formatting import format_number, group_digits, groups_always, math_group, number_marks
from konum.model import Choices, Range
from konum.plugins import Plugins, load_plugins
from konum.sandbox import fmt, sandbox
from konum.siteconfig import option_line, refusal


class ValuesError(PageError):
    """A template expression in a page failed or was refused; the message names the line."""


def _printable(array: Any, function: str) -> None:
    if array.size > limits.PRINTED_NUMBERS:
        raise ValueError(
            f"{function}() of {array.size:,} numbers: at most {limits.PRINTED_NUMBERS:,}"
        )


def vec(values: Any, decimals: int = 3) -> str:
    """A 1-D array as numpy prints it rounded: ``[0.841 0.54 0.046 0.999 0.002 1.]``-like,
    but with trailing zeros trimmed per entry and ``-0`` shown as ``0``."""
    check_decimals(decimals)
    array = np.asarray(values, dtype=float).ravel()
    _printable(array, "vec")
    parts = []
    for x in np.round(array, decimals):
        text = format_number(x, decimals)
        text = text.rstrip("0").rstrip(".") if decimals else text
        parts.append(text if text not in ("", "-0") else "0")
    return "[" + " ".join(parts) + "]"


def table(
    values: Any,
    decimals: int = 3,
    row_label: str = "pos",
    col_label: str = "j",
    rows: Sequence[Any] | None = None,
    cols: Sequence[Any] | None = None,
) -> str:
    """A 2-D array as a Markdown table, rows and columns labelled by index (or ``rows`` /
    ``cols``); non-finite entries show as ``-inf`` / ``inf`` / ``nan``."""
    check_decimals(decimals)
    array = np.asarray(values, dtype=float)
    _printable(array, "table")
    if array.ndim == 1:
        array = array[None, :]
    if array.ndim != 2:
        raise ValueError(f"table() takes a 1-D or 2-D array, got shape {array.shape}")
    row_names = list(rows) if rows is not None else list(range(array.shape[0]))
    col_names = list(cols) if cols is not None else list(range(array.shape[1]))
    header = f"| {row_label} \\ {col_label} | " + " | ".join(str(c) for c in col_names) + " |"
    rule = "|---|" + "---:|" * len(col_names)
    lines = [header, rule]
    for name, row in zip(row_names, array, strict=True):
        cells = [format_number(x, decimals) if np.isfinite(x) else str(x) for x in row]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def thousands(value: Any) -> str:
    """A whole number with commas between groups of three digits: ``786,432``."""
    number = float(value)
    if not number.is_integer():
        raise ValueError(f"thousands() takes a whole number, got {value!r}")
    return f"{int(number):,}"


def constraint_text(constraint: object) -> str:
    """A generator parameter's constraint as an author would write it in a bank."""

    def number(x: object) -> str:
        return f"{x:g}" if isinstance(x, float) else str(x)

    if isinstance(constraint, Range):
        step = f", step: {number(constraint.step)}" if constraint.step not in (None, 1) else ""
        return f"{{min: {number(constraint.low)}, max: {number(constraint.high)}{step}}}"
    if isinstance(constraint, Choices):
        values = [str(v).lower() if isinstance(v, bool) else number(v) for v in constraint.values]
        return "[" + ", ".join(values) + "]"
    return str(constraint)


def generator_catalogue(plugins: Plugins) -> list[dict[str, Any]]:
    """The plugins' computed-question generators, for documentation pages: name, title,
    default decimals, and each parameter with its default and allowed constraint (bank
    syntax)."""
    return [
        {
            "name": name,
            "title": generator.title,
            "decimals": generator.default_decimals,
            "params": [
                {
                    "name": spec.name,
                    "doc": spec.doc,
                    "default": constraint_text(spec.default),
                    "allowed": constraint_text(spec.allowed),
                }
                for spec in generator.params.values()
            ],
        }
        for name, generator in sorted(plugins.generators.items())
    ]


def figure_catalogue(plugins: Plugins) -> dict[str, dict[str, tuple[object, str]]]:
    """The figures a page or a question may show: ``{name: {param: (default, doc)}}``."""
    return {name: figure_params(plugins.figures[name]) for name in sorted(plugins.figures)}


#: Around a number printed in Python's form, on pages whose language writes numbers
#: otherwise: private-use characters, which no page contains (:func:`localize_values`).
NUMBER, GROUPED, END = "\ue000", "\ue001", "\ue002"
#: Where a page keeps Python's form (fenced and inline code) and where TeX needs a braced
#: mark (math): the spans :func:`localize_values` tells apart, code first.
_SPANS = re.compile(r"(```.*?```|`[^`\n]*`|\$\$.*?\$\$|\$[^$\n]*\$)", re.DOTALL)
_MARKED = re.compile(f"([{NUMBER}{GROUPED}])([^{END}]*){END}")


def _marked(function: Callable[..., str], mark: str) -> Callable[..., str]:
    @functools.wraps(function)
    def wrapped(*args: Any, **kwargs: Any) -> str:
        return mark + function(*args, **kwargs) + END

    return wrapped


def localize_values(text: str, language: str) -> str:
    """A rendered page with its marked numbers (:data:`NUMBER`, :data:`GROUPED`) written for
    ``language``: its decimal mark in prose, braced in math, Python's form in code; in prose
    a minus sign (U+2212) for the hyphen, and long numbers grouped where the language always
    groups (:func:`konum.formatting.groups_always`)."""
    decimal, grouping = number_marks(language)

    def span(part: str, code: bool, brace: bool) -> str:
        def number(match: re.Match[str]) -> str:
            kind, digits = match.groups()
            if code:
                return digits
            if kind == GROUPED:
                return digits.replace(
                    ",", math_group(grouping) if brace and grouping != "," else grouping
                )
            mark = "{" + decimal + "}" if brace and decimal != "." else decimal
            digits = re.sub(r"(?<=\d)\.(?=\d)", mark, digits)
            if groups_always(language):
                digits = group_digits(digits, math_group(grouping) if brace else grouping, language)
            return digits if brace else re.sub(r"(?<![\w.])-(?=\d)", "\u2212", digits)

        return _MARKED.sub(number, part)

    parts = _SPANS.split(text)
    for i, part in enumerate(parts):
        if i % 2 == 0:
            parts[i] = span(part, code=False, brace=False)
        else:
            parts[i] = span(part, code=part.startswith("`"), brace=part.startswith("$"))
    return "".join(parts)


def page_namespace(
    plugins: Plugins, figure: Callable[..., str], language: str = "en"
) -> dict[str, object]:
    """The names a page's expressions see (the module docstring lists them).

    Args:
        plugins: The site's plugins, whose ``VALUES`` the page sees too.
        figure: ``figure(name, alt, caption=None, **params)``, returning the page's text for
            the figure (the Markdown instance's stash placeholder).
        language: The page's language; in a language other than English the numbers that
            ``fmt``, ``vec``, ``table`` and ``thousands`` print are marked for
            :func:`localize_values`.
    """
    printers: dict[str, Callable[..., str]] = {
        "fmt": fmt,
        "vec": vec,
        "table": table,
        "thousands": thousands,
    }
    if language != "en":
        printers = {
            name: _marked(function, GROUPED if name == "thousands" else NUMBER)
            for name, function in printers.items()
        }
    return {
        **plugins.values,
        **printers,
        "figure": figure,
        "generators": functools.partial(generator_catalogue, plugins),
        "figures": functools.partial(figure_catalogue, plugins),
    }


def too_many(lines: Sequence[str]) -> None:
    """Refuse a page with more than :data:`konum.limits.TEMPLATE_TAGS` template tags before
    it is compiled: compiling takes time in proportion to the tags, so a page of hundreds
    of thousands ran for minutes before the sandbox's steps stopped it.

    Raises:
        ValuesError: naming the line of the first tag past the limit.
    """
    past = limits.tags_past_limit("\n".join(lines))
    if past is not None:
        count, line = past
        raise ValuesError(
            f"line {line}: the page holds {count:,} {{{{ ... }}}} and {{% ... %}} tags, more "
            f"than the {limits.TEMPLATE_TAGS:,} a page may hold (passed on this line); print "
            "many numbers with one vec() or table(), or a loop"
        )


class ValuesPreprocessor(Preprocessor):
    """Renders the page source as a template of the sandbox, its numbers written for the
    extension's language."""

    def __init__(self, md: Markdown, extension: ValuesExtension) -> None:
        super().__init__(md)
        self.extension = extension

    def figure(self, name: str, alt: str, caption: str | None = None, **params: Any) -> str:
        language = self.extension.options.language
        figure = self.extension.plugins().figure(name)
        return self.md.htmlStash.store(
            render_svg(figure, alt, caption, language=language, **params)
        )

    def run(self, lines: list[str]) -> list[str]:
        if self.extension.refused:
            raise ValuesError(self.extension.refused)
        source = "\n".join(lines)
        if "{{" not in source and "{%" not in source:
            return lines
        # A question written in the page is a bank's: its {{ }} are its own, drawn per variant.
        raw, own = list(lines), list(lines)
        for first, end in question_blocks(lines):
            if end < len(lines):
                raw[first], raw[end] = raw[first] + "{% raw %}", "{% endraw %}" + raw[end]
                own[first : end + 1] = [""] * (end + 1 - first)
        too_many(own)
        source = "\n".join(raw)
        language = self.extension.options.language
        # Bare numbers too ({{ n * d }}) are written the page's way in another language.
        token = PRINT_NUMBER.set((lambda t: NUMBER + t + END) if language != "en" else None)
        try:
            namespace = page_namespace(self.extension.plugins(), self.figure, language)
            text = sandbox().from_string(source).render(namespace)
        except SandboxError as exc:
            where = f"line {exc.lineno}: " if exc.lineno else ""
            raise ValuesError(f"in a {{{{ ... }}}} expression, {where}{exc.message}") from exc
        finally:
            PRINT_NUMBER.reset(token)
        if language != "en":
            text = localize_values(text, language)
        return text.split("\n")


class ValuesExtension(Extension):
    """Registers the values pass ahead of fenced code and HTML blocks, for one site's
    options (:mod:`konum.config`: its plugins and language)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.pop("course", None)  # the quiz part's (konum.quiz.QuizExtension)
        self.refused = refusal(kwargs)  # said when a page is converted
        self.config = {name: list(value) for name, value in DEFAULTS.items()}
        super().__init__(**{name: v for name, v in kwargs.items() if name in DEFAULTS})

    @cached_property
    def options(self) -> Options:
        """The options, checked when first used (see :class:`konum.quiz.QuizExtension`)."""
        try:
            return options_from(self.getConfigs())
        except OptionError as exc:
            raise ValuesError(option_line(exc, self.getConfigs())) from None

    def plugins(self) -> Plugins:
        try:
            return load_plugins(self.options.plugins, self.options.root)
        except KonumError as exc:
            raise ValuesError(str(exc)) from None

    def extendMarkdown(self, md: Markdown) -> None:
        # After whitespace normalisation (30), which would strip the stash markers of figures,
        # and before fenced code (25) is stashed, so printed outputs in code are computed.
        md.preprocessors.register(ValuesPreprocessor(md, self), "konum_values", 29)


def makeExtension(**kwargs: Any) -> ValuesExtension:
    return ValuesExtension(**kwargs)
