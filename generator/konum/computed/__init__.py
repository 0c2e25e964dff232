"""Computed questions: numbers drawn from a seed, answers computed, never typed.

Public API::

    from konum.computed import GENERATORS, MISCONCEPTIONS, get_generator
    from konum.computed import computed_variants, validate_computed, format_preview

A question names a generator or writes a formula (:mod:`konum.computed.formula`, evaluated
by :mod:`konum.computed.expression`). See :mod:`konum.computed.base` for the conventions
(constraints, tolerance, text), each family module (``sinusoidal``, ``rope``, ``alibi``,
``relative``, ``images``, ``attention``) for the course's generators, and
:mod:`konum.computed.registry` for how a site's own generators join them. A site's
generator module imports its building blocks from here::

    from konum.computed import BaseGenerator, Distractor, Generated, param, sig, specs
    from konum.model import Choices, Range

    class ProjectileRange(BaseGenerator):
        name = "projectile_range"
        ...

    GENERATORS = [ProjectileRange()]
"""

from __future__ import annotations

from konum.computed.base import (
    BaseGenerator,
    Distractor,
    Generated,
    Generator,
    GeneratorError,
    ParamSpec,
    Values,
    num,
    param,
    sig,
    specs,
    tolerance_for,
)
from konum.computed.expression import FormulaError
from konum.computed.formula import FormulaGenerator, check_formula, generator_for
from konum.computed.misconceptions import MISCONCEPTIONS
from konum.computed.preview import format_preview
from konum.computed.registry import (
    GENERATORS,
    GeneratorLoadError,
    Registry,
    UnknownGeneratorError,
    get_generator,
    registry_for,
    use_generators,
)
from konum.computed.validation import validate_computed
from konum.computed.variants import PromptTemplateError, computed_variants
from konum.formatting import format_number

__all__ = [
    "GENERATORS",
    "MISCONCEPTIONS",
    "BaseGenerator",
    "Distractor",
    "FormulaError",
    "FormulaGenerator",
    "Generated",
    "Generator",
    "GeneratorError",
    "GeneratorLoadError",
    "ParamSpec",
    "PromptTemplateError",
    "Registry",
    "UnknownGeneratorError",
    "Values",
    "check_formula",
    "computed_variants",
    "format_number",
    "format_preview",
    "generator_for",
    "get_generator",
    "num",
    "param",
    "registry_for",
    "sig",
    "specs",
    "tolerance_for",
    "use_generators",
    "validate_computed",
]
