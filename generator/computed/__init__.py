"""Computed questions: named generators that draw numbers and ask the PE core for answers.

Public API::

    from konum.computed import GENERATORS, MISCONCEPTIONS, get_generator
    from konum.computed import computed_variants, validate_computed, format_preview

See :mod:`konum.computed.base` for the conventions (constraints, tolerance, text) and each
family module (``sinusoidal``, ``rope``, ``alibi``, ``relative``, ``images``, ``attention``)
for the generators.
"""

from __future__ import annotations

from konum.computed.base import (
    Distractor,
    Generated,
    Generator,
    GeneratorError,
    ParamSpec,
    tolerance_for,
)
from konum.computed.misconceptions import MISCONCEPTIONS
from konum.computed.preview import format_preview
from konum.computed.registry import GENERATORS, UnknownGeneratorError, get_generator
from konum.computed.validation import validate_computed
from konum.computed.variants import PromptTemplateError, computed_variants
from konum.formatting import format_number

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
