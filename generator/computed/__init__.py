"""Computed questions: named generators that draw numbers and ask the PE core for answers.

Public API::

    from generator.computed import GENERATORS, MISCONCEPTIONS, get_generator
    from generator.computed import computed_variants, validate_computed, format_preview

See :mod:`generator.computed.base` for the conventions (constraints, tolerance, text) and each
family module (``sinusoidal``, ``rope``, ``alibi``, ``relative``, ``images``, ``attention``)
for the generators.
"""

from __future__ import annotations

from generator.computed.base import (
    Distractor,
    Generated,
    Generator,
    GeneratorError,
    ParamSpec,
    format_number,
    tolerance_for,
)
from generator.computed.misconceptions import MISCONCEPTIONS
from generator.computed.preview import format_preview
from generator.computed.registry import GENERATORS, UnknownGeneratorError, get_generator
from generator.computed.validation import validate_computed
from generator.computed.variants import PromptTemplateError, computed_variants

__all__ = [
    "GENERATORS",
    "MISCONCEPTIONS",
    "Distractor",
    "Generated",
    "Generator",
    "GeneratorError",
    "ParamSpec",
    "PromptTemplateError",
    "UnknownGeneratorError",
    "computed_variants",
    "format_number",
    "format_preview",
    "get_generator",
    "tolerance_for",
    "validate_computed",
]
