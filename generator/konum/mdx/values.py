"""Numbers from the PE core in lesson pages: a sandboxed Jinja pass before Markdown.

Every number a lesson states about positional encoding is computed at build time::

    Row 1 of $PE$ for $d = 6$ is {{ vec(pe.sinusoidal(4, 6)[1]) }}.
    {% set slopes = pe.alibi_slopes(6) %}
    The fifth head's slope is {{ fmt(slopes[4], 4) }}.
    {{ figure("pe_heatmap", alt="Heatmap of sinusoidal(64, 64)", n=64, d=64) }}

The page is a template of :class:`konum.sandbox.Sandbox` (contributors write lessons; CI
builds their pull requests), so it sees only the names of :func:`lesson_namespace`, values
and pure functions, never a module:

* ``pe``: the public functions of :mod:`konum.pe`, and nothing else.
* ``fmt`` (:func:`konum.sandbox.fmt`), :func:`vec`, :func:`table`, :func:`thousands`.
* ``figure``: an inline SVG from :mod:`konum.figures`; ``generators``
  (:func:`generator_catalogue`) and ``figures`` (:func:`figure_catalogue`), for pages that
  document what banks may use.
* The few numpy functions lessons compute with, as plain functions of arrays (no ``out=``,
  no ``dtype``, no I/O): ``abs``, ``allclose``, ``arange``, ``argmax``, ``array``,
  ``concatenate``, ``cos``, ``cumsum``, ``dot``, ``floor``, ``log2``, ``norm``
  (``np.linalg.norm``), ``ones``, ``round``, ``sin``, ``take``, ``unique``, the number ``pi``,
  and ``rng(seed)`` (``np.random.default_rng(seed)`` with only ``normal(size=...)`` and
  ``permutation(n)``). Broadcasting replaces ``np.subtract.outer``:
  ``a.reshape(-1, 1) - b`` (Jinja has no ``a[:, none]``).

The pass runs over the whole page before any other Markdown processing, fenced code
included, so printed outputs in code blocks are computed too. On a page in another language
(the extension's ``language``) the numbers that ``fmt``, ``vec`` and ``table`` print take its
decimal mark in prose (``0,841``; ``0{,}841`` in math) and keep Python's dot in code, and
``thousands`` groups with the language's separator (``786.432`` in Turkish) outside code.
A failure is a :class:`ValuesError` naming the line; MkDocs names the page and stops
without a traceback.
"""

from __future__ import annotations

import functools
import inspect
import math
import re
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from markdown import Extension, Markdown
from markdown.preprocessors import Preprocessor

from konum.formatting import DECIMAL_MARKS, THOUSANDS_MARKS, format_number
from konum.sandbox import (
    FunctionSet,
    Sandbox,
    SandboxError,
    check_decimals,
    check_size,
    fmt,
)

try:  # MkDocs prints a BuildError as one clean line; Zensical and plain Markdown need no base.
    from mkdocs.exceptions import BuildError as _Base
except ImportError:  # pragma: no cover - without MkDocs
    _Base = Exception  # type: ignore[misc,assignment]


class ValuesError(_Base):
    """A template expression in a page failed or was refused; the message names the line."""


#: Numbers one vec() or table() may print: more is no longer a sentence or a table.
MAX_NUMBERS = 100_000


def _printable(array: Any, function: str) -> None:
    if array.size > MAX_NUMBERS:
        raise ValueError(f"{function}() of {array.size:,} numbers: at most {MAX_NUMBERS:,}")


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


def _arange(start: float, stop: float | None = None, step: float | None = None) -> Any:
    """``np.arange``, its length checked first."""
    low, high = (0.0, start) if stop is None else (start, stop)
    by = 1.0 if step is None else step
    if by == 0:
        raise ValueError("arange(): step must not be 0")
    check_size(max(0, math.ceil((high - low) / by)), "arange()")
    return np.arange(start, stop, step)


def _ones(shape: int | Sequence[int]) -> Any:
    """``np.ones(shape)``, its size checked first."""
    dims = shape if isinstance(shape, (tuple, list)) else (shape,)
    check_size(math.prod(int(d) for d in dims), "ones()")
    return np.ones(shape)


def _array(values: Any) -> Any:
    """``np.array(values)`` (the dtype numpy infers; the sandbox has sized ``values``)."""
    return np.array(values)


def _concatenate(arrays: Sequence[Any], axis: int = 0) -> Any:
    """``np.concatenate(arrays, axis=axis)`` (the sandbox has sized ``arrays``)."""
    return np.concatenate(arrays, axis=axis)


def _take(values: Any, indices: Any, axis: int | None = None) -> Any:
    """``np.take(values, indices, axis=axis)``, its size checked first."""
    array = np.asarray(values)
    per_index = 1 if axis is None else array.size // max(1, array.shape[axis])
    check_size(np.size(indices) * per_index, "take()")
    return np.take(array, indices, axis=axis)


def _allclose(a: Any, b: Any, rtol: float = 1e-05, atol: float = 1e-08) -> bool:
    """``np.allclose(a, b)``, the broadcast shape checked first."""
    check_size(math.prod(np.broadcast_shapes(np.shape(a), np.shape(b))), "allclose()")
    return bool(np.allclose(a, b, rtol=rtol, atol=atol))


def _rng(seed: int) -> FunctionSet:
    """``np.random.default_rng(seed)`` with only ``normal(size)`` and ``permutation(n)``."""
    generator = np.random.default_rng(seed)

    def normal(size: int | Sequence[int] | None = None) -> Any:
        dims = size if isinstance(size, (tuple, list)) else (1 if size is None else size,)
        check_size(math.prod(int(d) for d in dims), "rng().normal()")
        return generator.normal(size=size)

    def permutation(x: Any) -> Any:
        return generator.permutation(x)

    return FunctionSet("rng", {"normal": normal, "permutation": permutation})


def _unary(function: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """``function`` of one array and nothing else (a ufunc's second argument is ``out``)."""

    @functools.wraps(function)
    def one(x: Any) -> Any:
        return function(x)

    return one


def _with_axis(function: Callable[..., Any]) -> Callable[..., Any]:
    """``function(x, axis=axis)`` and nothing else."""

    @functools.wraps(function)
    def reduce(x: Any, axis: int | None = None) -> Any:
        return function(x, axis=axis)

    return reduce


def _round(x: Any, decimals: int = 0) -> Any:
    """``np.round(x, decimals)``."""
    return np.round(x, decimals)


def _dot(a: Any, b: Any) -> Any:
    """``np.dot(a, b)``."""
    return np.dot(a, b)


#: The numpy functions lessons compute with, by the names lessons call them.
NUMERIC: dict[str, object] = {
    "abs": _unary(np.abs),
    "allclose": _allclose,
    "arange": _arange,
    "argmax": _with_axis(np.argmax),
    "array": _array,
    "concatenate": _concatenate,
    "cos": _unary(np.cos),
    "cumsum": _with_axis(np.cumsum),
    "dot": _dot,
    "floor": _unary(np.floor),
    "log2": _unary(np.log2),
    "norm": _with_axis(np.linalg.norm),
    "ones": _ones,
    "pi": math.pi,
    "rng": _rng,
    "round": _round,
    "sin": _unary(np.sin),
    "take": _take,
    "unique": _with_axis(np.unique),
}


def constraint_text(constraint: object) -> str:
    """A generator parameter's constraint as an author would write it in a bank."""
    from konum.model import Choices, Range

    def number(x: object) -> str:
        return f"{x:g}" if isinstance(x, float) else str(x)

    if isinstance(constraint, Range):
        step = f", step: {number(constraint.step)}" if constraint.step not in (None, 1) else ""
        return f"{{min: {number(constraint.low)}, max: {number(constraint.high)}{step}}}"
    if isinstance(constraint, Choices):
        values = [str(v).lower() if isinstance(v, bool) else number(v) for v in constraint.values]
        return "[" + ", ".join(values) + "]"
    return str(constraint)


def generator_catalogue() -> list[dict[str, Any]]:
    """The computed-question generators, for documentation pages: name, title, default
    decimals, and each parameter with its default and allowed constraint (bank syntax)."""
    from konum.computed import GENERATORS

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
        for name, generator in sorted(GENERATORS.items())
    ]


def figure_catalogue() -> dict[str, dict[str, tuple[object, str]]]:
    """The figures a page or a question may show: ``{name: {param: (default, doc)}}``."""
    from konum.figures import FIGURES, figure_params

    return {name: figure_params(name) for name in sorted(FIGURES)}


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
    ``language``: its decimal mark in prose, braced in math, Python's form in code."""
    decimal = DECIMAL_MARKS.get(language, ".")
    grouping = THOUSANDS_MARKS.get(language, ",")

    def span(part: str, code: bool, brace: bool) -> str:
        def number(match: re.Match[str]) -> str:
            kind, digits = match.groups()
            if code:
                return digits
            if kind == GROUPED:
                sep = "{" + grouping + "}" if brace and grouping != "," else grouping
                return digits.replace(",", sep)
            mark = "{" + decimal + "}" if brace and decimal != "." else decimal
            return re.sub(r"(?<=\d)\.(?=\d)", mark, digits)

        return _MARKED.sub(number, part)

    parts = _SPANS.split(text)
    for i, part in enumerate(parts):
        if i % 2 == 0:
            parts[i] = span(part, code=False, brace=False)
        else:
            parts[i] = span(part, code=part.startswith("`"), brace=part.startswith("$"))
    return "".join(parts)


def lesson_namespace(figure: Callable[..., str], language: str = "en") -> dict[str, object]:
    """The names a lesson's expressions see (the module docstring lists them).

    Args:
        figure: ``figure(name, alt, caption=None, **params)``, returning the page's text for
            the figure (the Markdown instance's stash placeholder).
        language: The page's language; in a language other than English the numbers that
            ``fmt``, ``vec``, ``table`` and ``thousands`` print are marked for
            :func:`localize_values`.
    """
    from konum import pe

    core = {name: getattr(pe, name) for name in pe.__all__ if inspect.isfunction(getattr(pe, name))}
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
        "pe": FunctionSet("pe", core),
        **printers,
        "figure": figure,
        "generators": generator_catalogue,
        "figures": figure_catalogue,
        **NUMERIC,
    }


@functools.lru_cache(maxsize=1)
def _sandbox() -> Sandbox:
    return Sandbox()


class ValuesPreprocessor(Preprocessor):
    """Renders the page source as a template of :class:`konum.sandbox.Sandbox`, its
    numbers written for ``language``."""

    def __init__(self, md: Markdown, language: str = "en") -> None:
        super().__init__(md)
        self.language = language

    def figure(self, name: str, alt: str, caption: str | None = None, **params: Any) -> str:
        from konum.figures import render_svg

        return self.md.htmlStash.store(
            render_svg(name, alt, caption, language=self.language, **params)
        )

    def run(self, lines: list[str]) -> list[str]:
        source = "\n".join(lines)
        if "{{" not in source and "{%" not in source:
            return lines
        try:
            namespace = lesson_namespace(self.figure, self.language)
            text = _sandbox().from_string(source).render(namespace)
        except SandboxError as exc:
            where = f"line {exc.lineno}: " if exc.lineno else ""
            raise ValuesError(f"in a {{{{ ... }}}} expression, {where}{exc.message}") from exc
        if self.language != "en":
            text = localize_values(text, self.language)
        return text.split("\n")


class ValuesExtension(Extension):
    """Registers the values pass ahead of fenced code and HTML blocks; ``language`` is the
    page's (the konum extension's option)."""

    def __init__(self, language: str = "en", **kwargs: Any) -> None:
        self.language = language
        super().__init__(**kwargs)

    def extendMarkdown(self, md: Markdown) -> None:
        # After whitespace normalisation (30), which would strip the stash markers of figures,
        # and before fenced code (25) is stashed, so printed outputs in code are computed.
        md.preprocessors.register(ValuesPreprocessor(md, self.language), "konum_values", 29)


def makeExtension(**kwargs: Any) -> ValuesExtension:
    return ValuesExtension(**kwargs)
