"""Numbers from the PE core in lesson pages: a sandboxed Jinja pass before Markdown.

Every number a lesson states about positional encoding is computed at build time::

    Row 1 of $PE$ for $d = 6$ is {{ vec(pe.sinusoidal(4, 6)[1]) }}.
    {% set slopes = pe.alibi_slopes(6) %}
    The fifth head's slope is {{ fmt(slopes[4], 4) }}.
    {{ figure("pe_heatmap", alt="Heatmap of sinusoidal(64, 64)", n=64, d=64) }}

Globals: ``pe`` (:mod:`konum.pe`), ``np`` (numpy), :func:`fmt`, :func:`vec`,
:func:`table`, ``figure`` (an inline SVG from :mod:`konum.figures`) and ``generators``
(:func:`generator_catalogue`) and ``figures`` (:func:`figure_catalogue`), for pages that
document what banks may use. The sandbox
(``jinja2.sandbox.SandboxedEnvironment``) refuses private attributes, and ``StrictUndefined``
turns a misspelt name into an error instead of an empty string. The pass runs over the whole
page before any other Markdown processing, fenced code included, so printed outputs in code
blocks are computed too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from jinja2 import StrictUndefined, TemplateError
from jinja2.sandbox import SandboxedEnvironment
from markdown import Extension, Markdown
from markdown.preprocessors import Preprocessor


class ValuesError(ValueError):
    """A template expression in a page failed; the message names the line."""


def fmt(x: Any, decimals: int = 4) -> str:
    """A number as text with ``decimals`` places; ``-0.000`` becomes ``0.000``.

    Integers (and integral numpy values with ``decimals=0``) print without a decimal point.
    """
    value = float(x)
    text = f"{value:.{decimals}f}"
    if text.lstrip("-").strip("0.") == "":
        text = text.lstrip("-")
    return text


def vec(values: Any, decimals: int = 3) -> str:
    """A 1-D array as numpy prints it rounded: ``[0.841 0.54 0.046 0.999 0.002 1.]``-like,
    but with trailing zeros trimmed per entry and ``-0`` shown as ``0``."""
    array = np.asarray(values, dtype=float).ravel()
    parts = []
    for x in np.round(array, decimals):
        text = fmt(x, decimals).rstrip("0").rstrip(".") if decimals else fmt(x, 0)
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
    array = np.asarray(values, dtype=float)
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
        cells = [fmt(x, decimals) if np.isfinite(x) else str(x) for x in row]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


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


class ValuesPreprocessor(Preprocessor):
    """Renders the page source as a sandboxed Jinja template."""

    def __init__(self, md: Markdown) -> None:
        super().__init__(md)
        self.env = SandboxedEnvironment(
            undefined=StrictUndefined, autoescape=False, keep_trailing_newline=True
        )

    def figure(self, name: str, alt: str, caption: str | None = None, **params: Any) -> str:
        from konum.figures import render_svg

        return self.md.htmlStash.store(render_svg(name, alt, caption, **params))

    def run(self, lines: list[str]) -> list[str]:
        source = "\n".join(lines)
        if "{{" not in source and "{%" not in source:
            return lines
        from konum import pe

        try:
            template = self.env.from_string(source)
            text = template.render(
                pe=pe,
                np=np,
                fmt=fmt,
                vec=vec,
                table=table,
                figure=self.figure,
                generators=generator_catalogue,
                figures=figure_catalogue,
            )
        except TemplateError as exc:
            line = getattr(exc, "lineno", None)
            where = f"line {line}: " if line else ""
            raise ValuesError(f"in a {{{{ ... }}}} expression, {where}{exc}") from exc
        except Exception as exc:
            raise ValuesError(
                f"in a {{{{ ... }}}} expression: {type(exc).__name__}: {exc}"
            ) from exc
        return text.split("\n")


class ValuesExtension(Extension):
    """Registers the values pass ahead of fenced code and HTML blocks."""

    def extendMarkdown(self, md: Markdown) -> None:
        # After whitespace normalisation (30), which would strip the stash markers of figures,
        # and before fenced code (25) is stashed, so printed outputs in code are computed.
        md.preprocessors.register(ValuesPreprocessor(md), "konum_values", 29)


def makeExtension(**kwargs: Any) -> ValuesExtension:
    return ValuesExtension(**kwargs)
