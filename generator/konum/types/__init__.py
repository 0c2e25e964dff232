"""The question types, one module each (see :mod:`konum.types.base` for what a type gives).

:data:`TYPES` is every built-in type by the name banks write (``type: choice``), read-only.
A site's types are :func:`site_types`: the built-in ones and those of the plugins it names
(``TYPES`` in a plugin, ARCHITECTURE.md's "Adding a question type"); every stage looks a
question's type up there, never in a process-wide table.
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from functools import lru_cache
from types import MappingProxyType

from konum.plugins import PluginError, Plugins
from konum.types.base import (
    Bank,
    Card,
    Cards,
    Check,
    Concrete,
    Draw,
    Finding,
    Graded,
    MediaFile,
    Page,
    Print,
    PrintedQuestion,
    Probe,
    Question,
)
from konum.types.choice import ChoiceQuestion, Option
from konum.types.computed import ComputedQuestion
from konum.types.fill import Blank, FillQuestion
from konum.types.matching import MatchingQuestion, Pair
from konum.types.numeric import NumericQuestion
from konum.types.ordering import OrderingQuestion
from konum.types.output import OutputQuestion

#: Every built-in question type, by the name banks write (read-only: a site adds its own
#: through a plugin).
TYPES: Mapping[str, type[Question]] = MappingProxyType(
    {
        kind.type: kind
        for kind in (
            ChoiceQuestion,
            FillQuestion,
            MatchingQuestion,
            NumericQuestion,
            ComputedQuestion,
            OutputQuestion,
            OrderingQuestion,
        )
    }
)


def site_types(plugins: Plugins) -> Mapping[str, type[Question]]:
    """The question types of a site whose plugins are ``plugins``: the built-in ones, then
    the plugins' (each checked: a :class:`Question` whose name is not a built-in one's).

    Raises:
        konum.plugins.PluginError: one line naming the plugin's file and the type.
    """
    return _site_types(plugins) if plugins.types else TYPES


@lru_cache(maxsize=8)
def _site_types(plugins: Plugins) -> Mapping[str, type[Question]]:
    found = dict(TYPES)
    for name, kind in plugins.types.items():
        origin = _origin(plugins, name, kind)
        if not issubclass(kind, Question):
            raise PluginError(
                f"{origin}: TYPES: {kind.__name__} is not a question type (subclass "
                "konum.types.Question)"
            )
        if name in TYPES:
            raise PluginError(
                f"{origin}: question type {name!r} has the name of a built-in type; rename it"
            )
        found[name] = kind
    return MappingProxyType(found)


def _origin(plugins: Plugins, name: str, kind: type) -> str:
    """Where a plugin's type came from: the plugin's file (its class's, for an installed
    package's entry point)."""
    origin = plugins.origins.get(name, name)
    if origin.startswith("entry point"):
        try:
            return f"{inspect.getsourcefile(kind)} ({origin})"
        except TypeError:
            return origin
    return origin


__all__ = [
    "TYPES",
    "Bank",
    "Blank",
    "Card",
    "Cards",
    "Check",
    "ChoiceQuestion",
    "ComputedQuestion",
    "Concrete",
    "Draw",
    "FillQuestion",
    "Finding",
    "Graded",
    "MatchingQuestion",
    "MediaFile",
    "NumericQuestion",
    "Option",
    "OrderingQuestion",
    "OutputQuestion",
    "Page",
    "Pair",
    "Print",
    "PrintedQuestion",
    "Probe",
    "Question",
    "site_types",
]
