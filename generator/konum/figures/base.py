"""What a lesson figure is: named parameters, the data drawn from the core, the drawing.

Parameters are declared with the computed generators' :class:`~konum.computed.base.ParamSpec`
(``param(name, kind, default, allowed, doc)``) and checked by the same
:func:`~konum.computed.base.check_constraint`, so a figure's ``d`` is described and refused
exactly as a generator's is. A parameter named in :attr:`LessonFigure.lists` takes a list of
values (each checked against its spec) instead of one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from konum.computed.base import ParamSpec, raised_at, shown_values
from konum.computed.constraints import check_constraint, describe
from konum.errors import KonumError
from konum.formatting import did_you_mean
from konum.messages import LANGUAGES, catalogue, fill
from konum.model import Choices

if TYPE_CHECKING:
    from matplotlib.figure import Figure

Params = dict[str, Any]
Data = dict[str, Any]
#: ``label(name, **fields)``: the catalogue text ``figures.<name>`` in a figure's language
#: (the ``figures`` section of its plugin's messages).
Label = Callable[..., str]


class FigureError(KonumError, ValueError):
    """An unknown figure name or a bad figure parameter; the message names both."""


class LessonFigure:
    """A figure a plugin gives (:mod:`konum.plugins`), for pages and questions.

    Subclasses set :attr:`name`, :attr:`params` (and :attr:`lists`, :attr:`messages`), and
    implement :meth:`data`, which returns exactly the arrays drawn (computed, never typed),
    and :meth:`draw`, which draws them with matplotlib (:mod:`konum.figures.style` gives
    konum's look). Calling the object with parameters (and ``language``, English by default)
    returns the matplotlib figure.
    """

    name: ClassVar[str]
    params: ClassVar[Mapping[str, ParamSpec]]
    #: List parameters: the most values each takes (at least one).
    lists: ClassVar[Mapping[str, int]] = {}
    #: The message folders the figure's words (``figures.<name>``) are read from.
    messages: ClassVar[tuple[Path, ...]] = ()

    def data(self, p: Params) -> Data:
        """The arrays drawn for the checked parameters ``p``."""
        raise NotImplementedError

    def draw(self, p: Params, data: Data, label: Label) -> Figure:
        """The figure for ``p`` and its :meth:`data`, its words from ``label``."""
        raise NotImplementedError

    def __call__(self, *, language: str = "en", **given: object) -> Figure:
        p, data = self.compute(given)
        try:
            return self.draw(p, data, self.labels(language))
        except FigureError:
            raise
        except Exception as exc:  # the plugin's own code: name its line and the values
            raise self.failure(exc, p) from exc

    def failure(self, exc: Exception, p: Params) -> FigureError:
        """``exc``, raised by the figure's own code for ``p``, as one line naming the
        plugin's file and line (:func:`~konum.computed.base.raised_at`) and the values."""
        error = str(exc) if isinstance(exc, ValueError) else f"{type(exc).__name__}: {exc}"
        where = raised_at(exc, type(self))
        return FigureError(f"figure {self.name!r}: {error}{where}, for {shown_values(p, list(p))}")

    def labels(self, language: str) -> Label:
        """The :data:`Label` of ``language`` (one of :data:`konum.messages.LANGUAGES`).

        Raises:
            FigureError: an unknown language.
        """
        if language not in LANGUAGES:
            raise FigureError(
                f"figure {self.name!r}: language: expected one of {', '.join(LANGUAGES)}, "
                f"found {language!r}"
            )

        texts = catalogue(language, self.messages)

        def label(name: str, **fields: object) -> str:
            return fill(texts[f"figures.{name}"], language, **fields)

        return label

    def defaults(self) -> Params:
        """Every parameter's default (a tuple for list parameters)."""
        out: Params = {}
        for key, spec in self.params.items():
            assert isinstance(spec.default, Choices)
            values = spec.default.values
            out[key] = tuple(values) if key in self.lists else values[0]
        return out

    def bad(self, param: str, message: str) -> FigureError:
        """The error for parameter ``param``, e.g. ``expected ..., found ...``."""
        return FigureError(f"figure {self.name!r}: parameter {param!r}: {message}")

    def checked(self, given: Mapping[str, object]) -> Params:
        """``given`` checked against :attr:`params`, normalised, defaults filled in.

        Raises:
            FigureError: an unknown parameter or a value outside its spec.
        """
        p = self.defaults()
        for key, value in given.items():
            spec = self.params.get(key)
            if spec is None:
                raise FigureError(
                    f"figure {self.name!r}: unknown parameter {key!r}"
                    f"{did_you_mean(key, self.params, cutoff=0.5)} "
                    f"(parameters: {', '.join(self.params)})"
                )
            p[key] = self._value(key, spec, value)
        return p

    def _value(self, key: str, spec: ParamSpec, value: object) -> object:
        most = self.lists.get(key)
        if most is None:
            message = check_constraint(spec, Choices((value,)))
            if message:
                raise self.bad(key, message)
            return _plain(spec, value)
        items = tuple(value) if isinstance(value, (list, tuple)) else None
        if not items or len(items) > most or check_constraint(spec, Choices(items)):
            raise self.bad(
                key,
                f"expected a list of 1 to {most} values, each {describe(spec)}, found {value!r}",
            )
        return tuple(_plain(spec, item) for item in items)

    def compute(self, given: Mapping[str, object]) -> tuple[Params, Data]:
        """The checked parameters and the data for ``given``.

        Raises:
            FigureError: a bad parameter, or one the core rejects (its message, named).
        """
        p = self.checked(given)
        try:
            return p, self.data(p)
        except FigureError:
            raise
        except Exception as exc:  # a ValueError names its own argument; add the figure
            raise self.failure(exc, p) from exc


def _plain(spec: ParamSpec, value: Any) -> object:
    """A checked value as a plain int or float (``8.0`` is the int 8)."""
    if spec.kind == "int":
        return int(value)
    if spec.kind == "float":
        return float(value)
    return value
