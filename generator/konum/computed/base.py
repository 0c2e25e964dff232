"""Building blocks shared by every computed-question generator.

A generator is a named recipe: it declares its parameters (:class:`ParamSpec`), draws values
for them from a seeded ``numpy`` generator inside the constraints a bank gives (a
:class:`~konum.model.Range` or :class:`~konum.model.Choices` per parameter), asks the
subject's own code for the answer, and returns a :class:`Generated`: the values,
a default prompt, the answer, a tolerance, a worked solution and misconception distractors.

Conventions fixed here:

* A ``Range`` is inclusive. Values lie on the lattice ``origin + i * step``: the range's own
  ``step`` when it has one (origin ``low``); otherwise the step of the parameter's *allowed*
  range (origin its low end, so ``d: {min: 4, max: 16}`` draws even ``d`` when ``d`` must be
  even); otherwise 1 for ints and 0.01 for floats (origin ``low``).
* Draws are uniform over the lattice points or the listed choices.
* Tolerance: half a unit of the last decimal asked for plus 10 % slack (``0.55 * 10**-dec``),
  never less than the distance from the exact answer to its rounded form. Answers that are
  integers by nature (bucket indices, parameter counts, columns) get tolerance 0.
* Text: prompts and solutions are Markdown with ``$...$`` / ``$$...$$`` LaTeX that
  latex2mathml renders; every number is filled in.
"""

from __future__ import annotations

import inspect
import math
import sysconfig
import traceback
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Protocol

import numpy as np

from konum import limits
from konum.formatting import format_number
from konum.messages import message
from konum.model import Choices, ParamConstraint, Range

#: A parameter's kind: a whole number, a number, true or false, or a word. Ranges are for
#: ``int`` and ``float`` only; ``bool`` and ``str`` take a value or a list (a
#: :class:`~konum.model.Choices`).
Kind = Literal["int", "float", "bool", "str"]

#: Slack on top of half a unit of the last decimal (a reader who rounds intermediate steps
#: should still be accepted).
TOLERANCE_SLACK = 0.1
#: Step of a float range that gives none (values with two decimals).
FLOAT_STEP = 0.01


class GeneratorError(ValueError):
    """A generator cannot produce a question from the constraints it was given."""


class GeneratorFailure(GeneratorError):
    """A generator's own code raised ``error`` while building a question from the drawn
    values (``values``, as text); ``where`` is its line in the plugin (:func:`raised_at`)."""

    def __init__(self, name: str, error: Exception, where: str, values: str) -> None:
        self.error, self.where, self.values = error, where, values
        self.detail = f"{type(error).__name__}: {error}"
        super().__init__(f"{name} raised {self.detail}{where}, for {values}")


def raised_at(exc: BaseException, source: object) -> str:
    """`` at generators/stats.py:42``: the last line of ``source``'s file (a plugin's class
    or function) in ``exc``'s traceback, relative to the working folder when inside it;
    else the last line outside konum; empty when neither is found."""
    try:
        file = inspect.getsourcefile(source)  # type: ignore[arg-type]
    except TypeError:
        file = None
    frames = traceback.extract_tb(exc.__traceback__)
    others = (str(Path(__file__).resolve().parents[1]), *sysconfig.get_paths().values())
    own = [f for f in frames if f.filename == file] or [
        f for f in frames if not f.filename.startswith(others)
    ]
    if not own:
        return ""
    path = Path(own[-1].filename)
    cwd = Path.cwd()
    return f" at {path.relative_to(cwd) if path.is_relative_to(cwd) else path}:{own[-1].lineno}"


class GeneratorTimeout(GeneratorError):
    """One drawing of a generator ran past :data:`konum.limits.GENERATOR_SECONDS`."""


@dataclass(frozen=True)
class ParamSpec:
    """A parameter a generator declares.

    ``default`` is used when the bank does not constrain the parameter; ``allowed`` is the hard
    bound every bank constraint must fall inside (a ``Range`` with a ``step`` also fixes the
    lattice: ``Range(2, 4096, 2)`` means an even int).
    """

    name: str
    kind: Kind
    default: ParamConstraint
    allowed: ParamConstraint
    doc: str


@dataclass(frozen=True)
class Distractor:
    """A wrong answer that a named misconception produces.

    ``misconception`` is a key of the generator's own ``misconceptions``; ``feedback`` is
    Markdown naming the mistake, with the numbers, shown to a reader who picks the value.
    A distractor whose value is not finite is dropped; one that equals the answer or
    another distractor at the question's decimals is not offered (:meth:`BaseGenerator.make`
    keeps them all; the choice form picks among them).
    """

    value: float
    misconception: str
    feedback: str


@dataclass(frozen=True)
class Generated:
    """One drawing of a generator: what a variant is made of.

    ``values`` holds the drawn parameters and derived numbers (plain ints, floats, bools,
    strings and lists, integral floats as ints), available to prompt templates. ``answer`` is
    exact (the subject's code computed it); ``tolerance`` is absolute and admits
    ``round(answer, decimals)``. ``distractors`` are in the generator's order of preference.
    """

    values: Mapping[str, object]
    prompt: str
    answer: float
    decimals: int
    tolerance: float
    unit: str | None
    solution: str
    distractors: tuple[Distractor, ...]


class Generator(Protocol):
    """What the registry holds: a named recipe for computed questions.

    ``name`` is what banks write (``generator: NAME``): lowercase letters, digits and ``_``.
    ``misconceptions`` maps each misconception key the generator's distractors carry to a
    one-line description for authors (``konum preview``). The course's own generators and
    a user's (:mod:`konum.plugins`) are held alike.
    """

    name: str
    title: str
    params: Mapping[str, ParamSpec]
    default_decimals: int
    misconceptions: Mapping[str, str]

    def generate(
        self,
        rng: np.random.Generator,
        constraints: Mapping[str, ParamConstraint],
        decimals: int | None = None,
    ) -> Generated: ...


class SpeakingGenerator(Generator, Protocol):
    """A :class:`Generator` whose ``generate`` also takes a ``language`` to word the question
    in (the course's generators, by :class:`BaseGenerator`; a user's generator written
    before languages existed is a plain :class:`Generator` and speaks English)."""

    def generate(
        self,
        rng: np.random.Generator,
        constraints: Mapping[str, ParamConstraint],
        decimals: int | None = None,
        language: str = "en",
    ) -> Generated: ...


# --- numbers as text ---------------------------------------------------------------------------


def num(value: float, decimals: int = 4) -> str:
    """A number for a solution or prompt: integers plainly, others with ``decimals``."""
    value = float(value)
    if value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return format_number(value, decimals)


def plain(value: object) -> object:
    """``value`` as plain Python for templates and JSON: numpy scalars unwrapped, integral
    floats as ints, arrays and tuples as lists."""
    if isinstance(value, np.ndarray):
        return [plain(v) for v in value.tolist()]
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        number = float(value)
        if number.is_integer() and abs(number) < 1e15:
            return int(number)
        return number
    return value


def tolerance_for(answer: float, decimals: int, *, exact: bool = False) -> float:
    """Absolute tolerance for an answer asked to ``decimals`` decimals.

    ``exact`` answers (integers by nature) get 0. Otherwise half a unit of the last decimal
    plus :data:`TOLERANCE_SLACK` of a unit, and at least what admits the rounded answer.
    """
    if exact:
        return 0.0
    unit = 10.0 ** (-decimals)
    rounded = float(format_number(answer, decimals))
    needed = abs(rounded - answer) * (1 + 1e-9) + 1e-12
    return max((0.5 + TOLERANCE_SLACK) * unit, needed)


def places(decimals: int) -> str:
    """``1 decimal``, ``2 decimals``: the catalogue's English plural, for messages."""
    return message("en", "formula.places", n=decimals)


def hidden_answer(answer: float, decimals: int, values: str) -> str | None:
    """Why ``answer`` (drawn for ``values``, as text) cannot be asked at ``decimals``: it
    shows as 0 there but not at the most decimals a question may ask
    (:data:`konum.limits.DECIMALS`), so a reader who types 0 is right. None when it shows,
    or is 0 (rounding noise of a zero included)."""
    shown = (d for d in range(decimals, limits.DECIMALS[1] + 1) if float(format_number(answer, d)))
    first = next(shown, decimals)
    if first == decimals:
        return None
    return (
        f"the answer {sig(answer)} for {values} shows as {format_number(0, decimals)} at "
        f"{places(decimals)}, so 0 counts as right; ask for {places(first)} or change the params"
    )


# --- describing and checking constraints -------------------------------------------------------


def _is_number(value: object) -> bool:
    """A finite int or float (not a bool) within :data:`konum.limits.MAX_NUMBER` in size."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(
        value, (int, float, np.integer, np.floating)
    ):
        return False
    # Compared before any float(): a 400-digit int would overflow it.
    return bool(abs(value) <= limits.MAX_NUMBER)


def _show(value: object) -> str:
    if isinstance(value, (bool, np.bool_)):
        return "true" if value else "false"
    if isinstance(value, str):
        return repr(value)
    if _is_number(value):
        return sig(float(value))  # type: ignore[arg-type]
    text = repr(value)
    return text if len(text) <= 24 else f"{text[:12]}... ({len(text)} characters)"


def shown_values(values: Mapping[str, object], names: Sequence[str]) -> str:
    """``m = 12, a = 2.5`` for messages: the drawn ``values`` of ``names``."""
    return ", ".join(f"{name} = {_show(values[name])}" for name in names if name in values)


@dataclass(frozen=True)
class Lattice:
    """The values a ``Range`` constraint draws from: ``start + i * step``, ``i < count``."""

    start: float
    step: float
    count: int

    def value(self, index: int) -> float:
        return self.start + index * self.step

    def clip(self, low: float, high: float) -> Lattice:
        """The part of the lattice inside ``[low, high]`` (possibly empty)."""
        eps = 1e-9 * max(1.0, abs(self.step))
        first = max(0, math.ceil((low - self.start) / self.step - eps))
        last = min(self.count - 1, math.floor((high - self.start) / self.step + eps))
        return Lattice(self.value(first), self.step, max(0, last - first + 1))


def lattice(spec: ParamSpec, constraint: Range) -> Lattice:
    """The lattice a ``Range`` constraint on ``spec`` draws from (see the module docstring)."""
    allowed = spec.allowed
    if constraint.step:
        origin, step = float(constraint.low), float(constraint.step)
    elif isinstance(allowed, Range) and allowed.step:
        origin, step = float(allowed.low), float(allowed.step)
    else:
        origin, step = float(constraint.low), 1.0 if spec.kind == "int" else FLOAT_STEP
    full = Lattice(origin, step, 1 + math.floor((constraint.high - origin) / step + 1e-9))
    return full.clip(constraint.low, constraint.high)


# --- drawing -----------------------------------------------------------------------------------


def _typed(kind: Kind, value: object) -> object:
    if kind == "int":
        return round(float(value))  # type: ignore[arg-type]
    if kind == "float":
        return round(float(value), 10)  # type: ignore[arg-type]
    if kind == "bool":
        return bool(value)
    return str(value)


Bounds = tuple[float, float]


def draw_value(
    rng: np.random.Generator,
    spec: ParamSpec,
    constraint: ParamConstraint,
    bounds: Bounds | None = None,
) -> tuple[bool, object]:
    """Draw one value of ``spec`` inside ``constraint`` and the dynamic ``bounds``.

    Returns ``(True, value)``, or ``(False, None)`` when nothing lies inside the bounds (the
    caller then redraws the parameters it depends on).
    """
    if isinstance(constraint, Choices):
        values = list(constraint.values)
        if bounds is not None:
            values = [v for v in values if bounds[0] <= float(v) <= bounds[1]]  # type: ignore[arg-type]
        if not values:
            return False, None
        return True, _typed(spec.kind, values[int(rng.integers(len(values)))])
    points = lattice(spec, constraint)
    if bounds is not None:
        points = points.clip(*bounds)
    if points.count == 0:
        return False, None
    return True, _typed(spec.kind, points.value(int(rng.integers(points.count))))


Values = dict[str, Any]


class BaseGenerator:
    """Common machinery: draw the parameters in declared order, redraw degenerate cases.

    Subclasses set the class attributes, may override :meth:`bounds` (a parameter's range
    depending on earlier ones, e.g. ``j < d``), and implement :meth:`build`, which returns
    None for a degenerate draw (trivial or ill-posed question) so that another is drawn.
    A plugin lists instances: ``GENERATORS = [ProjectileRange()]``. konum refuses, when it
    loads the plugin, a generator whose attributes are not as below, naming the file and
    the attribute.

    Attributes:
        name: what banks write after ``generator:``: lowercase letters, digits and ``_``,
            starting with a letter, unique among the site's plugins.
        title: one line for authors, shown in the generators' tables.
        params: the parameters by name, in drawing order (:func:`specs` of :func:`param`).
        default_decimals: the answer's decimals when the question does not say, 0 to 8.
        misconceptions: each key a :class:`Distractor` may carry, with a one-line
            description of the mistake (``konum preview`` shows it beside the option).
    """

    name: str = ""
    title: str = ""
    params: Mapping[str, ParamSpec] = {}
    default_decimals: int = 4
    misconceptions: Mapping[str, str] = {}

    def bounds(self, name: str, drawn: Values) -> Bounds | None:
        """Extra inclusive bounds on parameter ``name`` given the values drawn before it."""
        return None

    def build(self, v: Values, decimals: int, language: str = "en") -> Generated | None:
        """The question for the drawn values ``v``, worded in ``language``, or None if the
        draw is degenerate. A subclass may leave ``language`` out: it then speaks English.

        Args:
            v: the drawn value of every parameter, by name (ints, floats, bools, strings).
            decimals: the decimals the answer is rounded to: the question's, or
                :attr:`default_decimals`.
            language: the language of the page (``en``, ``tr``).

        Returns:
            A :class:`Generated`, usually made by :meth:`make`; None asks for another draw
            (at most :data:`konum.limits.GENERATOR_DRAWS` in all).

        Raises:
            ValueError: the subject's code refuses these values; ``konum check`` reports
                it at the question's ``params`` ("the generator rejects values these
                params allow: ...") so that the bank's ranges can be narrowed.
        """
        raise NotImplementedError

    def draw(
        self, rng: np.random.Generator, constraints: Mapping[str, ParamConstraint]
    ) -> Values | None:
        """One set of parameter values, or None when the dependent bounds leave nothing."""
        values: Values = {}
        for name, spec in self.params.items():
            constraint = constraints.get(name, spec.default)
            ok, value = draw_value(rng, spec, constraint, self.bounds(name, values))
            if not ok:
                return None
            values[name] = value
        return values

    def generate(
        self,
        rng: np.random.Generator,
        constraints: Mapping[str, ParamConstraint],
        decimals: int | None = None,
        language: str = "en",
    ) -> Generated:
        """Draw values and build the question, redrawing degenerate cases.

        ``language`` words the prompt, solution and feedback (:mod:`konum.computed.text`);
        it never changes what is drawn.

        Raises:
            GeneratorError: the constraints leave no usable draw (after
                :data:`konum.limits.GENERATOR_DRAWS`).
        """
        unknown = sorted(set(constraints) - set(self.params))
        if unknown:
            raise GeneratorError(f"{self.name}: unknown parameter(s) {', '.join(unknown)}")
        dec = self.default_decimals if decimals is None else int(decimals)
        for _ in range(limits.GENERATOR_DRAWS):
            values = self.draw(rng, constraints)
            if values is None:
                continue
            try:
                if language != "en" and _build_takes_language(type(self)):
                    generated = self.build(values, dec, language)
                else:
                    generated = self.build(values, dec)
            except (GeneratorError, limits.TimeLimitError):
                raise
            except Exception as exc:  # the plugin's own code: name its line and the values
                shown = shown_values(values, list(self.params))
                raise GeneratorFailure(self.name, exc, raised_at(exc, type(self)), shown) from exc
            if generated is not None:
                return generated
        raise GeneratorError(
            f"{self.name}: the parameter constraints leave no usable draw in "
            f"{limits.GENERATOR_DRAWS} tries "
            "(each draw was inconsistent, e.g. a column outside d, or trivial, e.g. an answer "
            "of exactly 0); widen the ranges"
        )

    # helpers for subclasses ----------------------------------------------------------------

    def make(
        self,
        v: Values,
        prompt: str,
        answer: float,
        decimals: int,
        solution: str,
        distractors: Sequence[Distractor],
        *,
        unit: str | None = None,
        exact: bool = False,
        extra: Mapping[str, object] | None = None,
    ) -> Generated:
        """Assemble a :class:`Generated` (values made plain, tolerance from the decimals)."""
        values = {k: plain(x) for k, x in {**v, **(extra or {})}.items()}
        values["decimals"] = decimals
        return Generated(
            values=values,
            prompt=prompt,
            answer=float(answer),
            decimals=decimals,
            tolerance=tolerance_for(float(answer), decimals, exact=exact),
            unit=unit,
            solution=solution,
            distractors=tuple(d for d in distractors if math.isfinite(d.value)),
        )


def _build_takes_language(kind: type[BaseGenerator]) -> bool:
    """True when ``kind.build`` takes a ``language`` (a generator written before languages
    existed words its questions in English only)."""
    return "language" in inspect.signature(kind.build).parameters


def param(
    name: str,
    kind: Kind,
    default: ParamConstraint | object,
    allowed: ParamConstraint,
    doc: str,
) -> ParamSpec:
    """A parameter of a generator, a figure or an explorer.

    Args:
        name: the parameter's name, as banks (``params: {v: ...}``), figure calls and
            explorer blocks write it, and as :meth:`BaseGenerator.build` finds it in ``v``.
        kind: ``"int"``, ``"float"``, ``"bool"`` or ``"str"`` (:data:`Kind`).
        default: what is drawn when a bank gives no constraint: a :class:`~konum.model.Range`,
            :class:`~konum.model.Choices`, or a bare value, which means ``Choices((value,))``.
            A figure's or an explorer's default is its starting value (one value).
        allowed: the bound every bank constraint must stay inside: a ``Range`` (its
            ``step``, when given, makes the lattice, so ``Range(2, 4096, 2)`` is an even
            int) or ``Choices``. ``konum check`` reports a constraint outside it as
            ``expected an even int in 2..4096, found 7``, at the bank's line.
        doc: one line for authors: the tables of generators and figures show it.

    Returns:
        The :class:`ParamSpec`; :func:`specs` makes a generator's ``params`` of several.
    """
    if not isinstance(default, (Range, Choices)):
        default = Choices((default,))
    return ParamSpec(name, kind, default, allowed, doc)


def specs(*items: ParamSpec) -> dict[str, ParamSpec]:
    """Parameter specs by name, in declared (drawing) order."""
    return {item.name: item for item in items}


#: A true/false parameter's constraint: either value.
BOOL = Choices((False, True))


def sig(value: float, digits: int = 6) -> str:
    """``value`` with about ``digits`` significant digits, trailing zeros dropped, as text that
    is safe inside ``$...$`` (very small or large numbers as ``m \\cdot 10^{e}``)."""
    x = float(value)
    if x == 0 or not math.isfinite(x):
        return "0" if x == 0 else str(x)
    if x.is_integer() and abs(x) < 1e15:
        return str(int(x))
    exponent = math.floor(math.log10(abs(x)))
    if -4 <= exponent < 12:
        places = max(0, digits - 1 - exponent)
        text = f"{x:.{places}f}"
        if "." in text:
            text = text.rstrip("0").rstrip(".")
        return "0" if text in ("-0", "") else text
    mantissa = x / 10.0**exponent
    m = f"{mantissa:.{max(0, digits - 1)}f}".rstrip("0").rstrip(".")
    # Parenthesised so that the number can carry an exponent: \left(...\right)^{2k/d}.
    return f"\\left({m} \\cdot 10^{{{exponent}}}\\right)"
