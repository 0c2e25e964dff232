"""Computed questions: numbers drawn from a seed, answers computed, never typed.

This package is what a plugin's generators are written with (:mod:`konum.plugins`)::

    from konum.computed import BaseGenerator, Distractor, param, specs
    from konum.model import Range

    class ProjectileRange(BaseGenerator):
        name = "projectile_range"
        title = "How far a projectile flies on level ground"
        params = specs(param("v", "float", Range(5, 30), Range(1, 100), "launch speed, m/s"))
        misconceptions = {"no_half": "forgets that the flight time is 2 v sin(a) / g"}
        ...

    GENERATORS = [ProjectileRange()]

:mod:`~konum.computed.base` fixes the conventions (constraints, lattices, tolerance, text),
:mod:`~konum.computed.constraints` checks a bank's constraint against a param,
:mod:`~konum.computed.formula` makes a generator of a question's own formula (evaluated by
:mod:`~konum.computed.expression`, calling :mod:`~konum.computed.functions`), and
:mod:`~konum.computed.variants` draws a question's variants for a seed and checks a
generator's params.
"""

from __future__ import annotations

from konum.computed.base import (
    BOOL,
    BaseGenerator,
    Distractor,
    Generated,
    Generator,
    GeneratorError,
    ParamSpec,
    SpeakingGenerator,
    Values,
    num,
    param,
    sig,
    specs,
    tolerance_for,
)
from konum.computed.expression import FormulaError
from konum.computed.formula import FormulaGenerator, check_formula
from konum.computed.variants import PromptTemplateError, Recipe, computed_variants

__all__ = [
    "BOOL",
    "BaseGenerator",
    "Distractor",
    "FormulaError",
    "FormulaGenerator",
    "Generated",
    "Generator",
    "GeneratorError",
    "ParamSpec",
    "PromptTemplateError",
    "Recipe",
    "SpeakingGenerator",
    "Values",
    "check_formula",
    "computed_variants",
    "num",
    "param",
    "sig",
    "specs",
    "tolerance_for",
]
