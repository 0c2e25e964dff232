"""Plain-text preview of a computed question's variants for authors (``konum preview``).

Per variant: the drawn values, the prompt, the answer with its tolerance, the options with the
misconception behind each distractor, and the worked solution, as Markdown source.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from konum.computed.base import num
from konum.computed.formula import generator_for
from konum.model import ComputedQuestion, Variant

_INDENT = "    "


def _value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return num(value, 6)
    return str(value)


def _block(text: str) -> str:
    return textwrap.indent(text.strip("\n"), _INDENT)


def format_preview(question: ComputedQuestion, variants: Sequence[Variant]) -> str:
    """A terminal-friendly description of ``variants`` of ``question``.

    The misconceptions are described by the question's generator (the registry in force
    for a named one, see :func:`konum.computed.registry.active`).
    """
    described = generator_for(question).misconceptions
    source = (
        f"formula {question.formula}"
        if question.formula is not None
        else f"generator {question.generator}"
    )
    header = (
        f"{question.id}  (bank {question.bank}, {source}, "
        f"answer {question.answer}"
        + (f", {question.options} options" if question.answer == "choice" else "")
        + f", {len(variants)} variant{'s' if len(variants) != 1 else ''})"
    )
    lines = [header, "=" * min(len(header), 100)]
    for variant in variants:
        lines.append("")
        lines.append(f"--- variant {variant.index} ---")
        values = ", ".join(f"{k}={_value(v)}" for k, v in variant.values.items())
        lines.append("values:")
        lines.append(_block(textwrap.fill(values, 92)))
        lines.append("prompt:")
        lines.append(_block(variant.prompt))
        unit = f" {variant.unit}" if variant.unit else ""
        lines.append(
            f"answer: {variant.shown_answer}{unit}   (exact {variant.answer!r}, "
            f"tolerance +/- {variant.tolerance:.3g}, {variant.decimals} decimals)"
        )
        if variant.options:
            lines.append("options:")
            for i, option in enumerate(variant.options):
                letter = chr(ord("A") + i)
                if option.correct:
                    lines.append(f"{_INDENT}{letter}) {option.text}   <- correct")
                    continue
                key = option.misconception or "authored"
                about = described.get(key, "")
                lines.append(f"{_INDENT}{letter}) {option.text}   [{key}] {about}".rstrip())
                if option.feedback and option.feedback != about:
                    lines.append(textwrap.indent(option.feedback, _INDENT * 2 + "feedback: "))
        lines.append("solution:")
        lines.append(_block(variant.solution))
    return "\n".join(lines) + "\n"
