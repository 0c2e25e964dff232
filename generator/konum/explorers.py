"""What an explorer is: an interactive figure a plugin gives for ``/// explorer | NAME``.

An explorer has controls (its parameters, declared like a generator's with
:func:`konum.computed.param`), a rule the values must keep together, what a reader without
JavaScript sees (a figure of the plugin's, or a table), and a script that draws it live. The
script calls ``konumExplorers.define(NAME, spec)`` of konum's shared ``explorers.js``; the
block's HTML carries the starting values and every control's limits as JSON
(:mod:`konum.explorer`). Every text comes from the ``explorer`` section of the plugin's
messages (``explorer.<key>``), so the same explorer speaks each language the plugin has.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from konum.computed.base import ParamSpec, raised_at, shown_values
from konum.computed.constraints import check_constraint
from konum.errors import PageError
from konum.formatting import did_you_mean
from konum.model import Choices

Values = dict[str, Any]
#: ``say(key, **fields)``: the catalogue text ``explorer.<key>`` in the page's language.
Say = Callable[..., str]


class ExplorerError(PageError, ValueError):
    """An explorer block that names an unknown explorer or option, or gives an option a value
    outside its range; the message names the block and the option."""


@dataclass(frozen=True)
class Explorer:
    """One explorer.

    Attributes:
        name: what the block names (``/// explorer | NAME``): lowercase words and hyphens.
        question: the one question it answers, for authors.
        params: its controls, in order; each default is the control's starting value.
        check: why values do not fit together (``position`` beyond ``n``), or None.
        script: the JavaScript file that defines it (inline in the page: minified when it
            is ES5, as konum's own scripts are, carried as written otherwise).
        figure: the fallback: ``(figure name, figure parameters, alt key, alt fields)``, the
            alt text being ``explorer.<alt key>`` with the fields filled in.
        table: the fallback when there is no figure: ``(caption, column headers, rows)``.
        texts: the start of the keys of its own interface texts in the ``explorer``
            section (``sin_``); a page carries those of the explorers it shows, and every
            text whose key starts with no explorer's ``texts``. Empty: no texts of its own.
    """

    name: str
    question: str
    params: Mapping[str, ParamSpec]
    check: Callable[[Values], str | None]
    script: Path
    figure: Callable[[Values], tuple[str, dict[str, Any], str, dict[str, Any]]] | None = None
    table: Callable[[Values, Say], tuple[str, tuple[str, ...], list[tuple[Any, ...]]]] | None = None
    texts: str = ""


T = TypeVar("T")

#: Options every explorer takes besides its own: the fallback figure's text.
TEXT_OPTIONS = ("alt", "caption")


def _plain(spec: ParamSpec, value: Any) -> Any:
    if spec.kind == "int":
        return int(value)
    if spec.kind == "float":
        return float(value)
    return value


def limits(spec: ParamSpec) -> dict[str, Any]:
    """A control's limits for its script: the choices, or min, max and step."""
    allowed = spec.allowed
    if isinstance(allowed, Choices):
        return {"choices": [_plain(spec, v) for v in allowed.values]}
    return {"min": allowed.low, "max": allowed.high, "step": allowed.step or 1}


def plugin_call(name: str, function: Callable[..., T], values: Values, *args: Any) -> T:
    """``function(values, *args)``, explorer ``name``'s own code (its ``check``, ``figure``
    or ``table``).

    Raises:
        ExplorerError: it raised; the message names the plugin's file and line
            (:func:`~konum.computed.base.raised_at`) and the values.
    """
    try:
        return function(values, *args)
    except ExplorerError:
        raise
    except Exception as exc:
        at = f"{raised_at(exc, function)}, for {shown_values(values, list(values))}"
        raise ExplorerError(f"/// explorer | {name}: {type(exc).__name__}: {exc}{at}") from exc


def explorer_values(
    explorers: Mapping[str, Explorer], name: str, given: Mapping[str, Any]
) -> Values:
    """The starting values of explorer ``name``: its defaults, updated with ``given``.

    Raises:
        ExplorerError: an unknown explorer or option, a value outside its spec, or values
            that do not fit together.
    """
    where = f"/// explorer | {name}"
    explorer = explorers.get(name)
    if explorer is None:
        known = ", ".join(explorers) or "none: the site names no plugin with explorers"
        raise ExplorerError(
            f"{where}: no such explorer{did_you_mean(name, explorers)} (explorers: {known})"
        )
    values: Values = {}
    for key, spec in explorer.params.items():
        default = spec.default
        assert isinstance(default, Choices)
        values[key] = default.values[0]
    for key, value in given.items():
        found = explorer.params.get(key)
        if found is None:
            options = [*explorer.params, *TEXT_OPTIONS]
            raise ExplorerError(
                f"{where}: unknown option {key!r}{did_you_mean(key, options)} "
                f"(options: {', '.join(options)})"
            )
        problem = check_constraint(found, Choices((value,)))
        if problem:
            raise ExplorerError(f"{where}: option {key!r}: {problem}")
        values[key] = _plain(found, value)
    problem = plugin_call(name, explorer.check, values)
    if problem:
        raise ExplorerError(f"{where}: {problem}")
    return values
