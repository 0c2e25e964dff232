"""One bounded Jinja sandbox for every template text that comes from a bank or a lesson.

Lesson pages (``{{ fmt(phys.orbit_period(2.5), 2) }}``) and computed questions' prompts
(``{{ pos }}``) are written by contributors and rendered by ``konum check``, ``konum build``
and ``mkdocs build``, in CI too. :class:`Sandbox` renders them with
``jinja2.sandbox.ImmutableSandboxedEnvironment`` and its documented hooks
(``is_safe_attribute``, ``is_safe_callable``, ``call``, ``call_binop``, ``getattr``,
``getitem``, ``globals``, ``filters``):

* **Nothing reaches a module, a file or ctypes.** The names a template sees are the values
  it is given; attributes are allowed only on a :class:`FunctionSet` (its functions), numpy
  arrays and scalars (:data:`ARRAY_ATTRIBUTES`: ``shape``, ``T``, ``sum``, ... never
  ``tofile``, ``ctypes``, ``data`` or ``base``), mappings (``items``, ``keys``, ``values``,
  ``get``) and Jinja's ``loop``; any other attribute, and any name starting with ``_``,
  is refused with an error. Classes cannot be called, array methods take no array argument
  (no ``out=``), strings have no methods (so no ``str.format`` field tricks), ``%`` does
  not format strings, and only the filters in :data:`FILTERS` exist (no ``attr``,
  ``format``, ``center``, ``indent``, ``batch``, ...).
  Jinja's globals ``cycler``, ``joiner``, ``lipsum`` and ``dict`` are removed;
  ``namespace`` (the one way to carry a value from one loop iteration to the next) stays,
  as a function: its attributes are only the values a template stored, and whatever it
  stores was sized by the operator that built it, so a loop cannot double a string past
  the bounds; ``{% include %}``,
  ``{% import %}``, ``{% extends %}``, ``{% autoescape %}`` and recursive loops are refused
  when compiling.
* **Every render ends, soon.** :class:`Limits` bounds ``range()``, the work of one render
  (steps: loop iterations, calls, filters, operators, comparisons and printed pieces, each
  element touched counting ``1 / ITEMS_PER_STEP``), the size of every value (containers
  counted deep, so ``[x] * 1000`` holds a thousand ``x``; checked before ``*``, ``**``,
  ``~``, broadcasting, fancy indexing and printing can build it), integers' bits, the
  characters printed and the wall-clock time. The template is parsed, its ``for`` loops,
  comparisons, ``~`` and printed pieces are routed through counting callbacks
  (``nodes.EnvironmentAttribute``), and it is compiled from that tree.

Every failure, at compile time or while rendering, is a :class:`SandboxError` whose
``lineno`` is the template line (1-based) when known.
"""

from __future__ import annotations

import functools
import math
import numbers
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, MutableMapping
from typing import Any

import numpy as np
from jinja2 import StrictUndefined, Template, TemplateError, TemplateSyntaxError, nodes
from jinja2.runtime import Context, LoopContext, Undefined
from jinja2.sandbox import ImmutableSandboxedEnvironment
from jinja2.utils import Namespace

from konum.bounds import (
    BUDGET,
    COMPARISONS,
    FILTERS,
    PRINT_NUMBER,
    Budget,
    active,
    bounded_range,
    broadcast_check,
    check_count,
    check_decimals,
    deep_size,
    fancy_index_check,
    measure,
    steps_for,
)
from konum.bounds import Limits as Limits  # re-exported: callers and plugins import these here
from konum.bounds import SandboxError as SandboxError
from konum.bounds import check_size as check_size
from konum.formatting import did_you_mean, format_number

#: Attributes of numpy arrays and scalars a template may use: shape and pure reductions.
ARRAY_ATTRIBUTES = frozenset(
    {
        "T",
        "all",
        "any",
        "argmax",
        "argmin",
        "cumsum",
        "max",
        "mean",
        "min",
        "ndim",
        "reshape",
        "round",
        "shape",
        "size",
        "std",
        "sum",
    }
)

#: Attributes of mappings (``figures().items()``); other names are looked up as keys.
MAPPING_ATTRIBUTES = frozenset({"get", "items", "keys", "values"})

#: Attributes of Jinja's ``loop`` variable.
LOOP_ATTRIBUTES = frozenset(
    {
        "changed",
        "cycle",
        "depth",
        "depth0",
        "first",
        "index",
        "index0",
        "last",
        "length",
        "nextitem",
        "previtem",
        "revindex",
        "revindex0",
    }
)


def fmt(value: float, decimals: int | None = None, unit: str | None = None) -> str:
    """:func:`konum.formatting.format_number` for templates, ``decimals`` checked."""
    check_decimals(decimals)
    return format_number(value, decimals, unit)


class FunctionSet:
    """A group of functions as templates see it: ``phys.orbit_period(2.5)``.

    Its only attributes, for a template, are the functions it was given: no module, no
    ``__dict__``, no numpy behind it. Each function refuses integer arguments whose
    product passes :attr:`Limits.items` (sizes such as ``n * d``) before it runs. A
    plugin's ``VALUES`` maps the names pages see to such sets and to plain numbers::

        VALUES = {"phys": FunctionSet("phys", {"orbit_period": orbit_period}), "g": 9.81}

    Args:
        name: the name pages write before the dot, for messages.
        functions: each function by the name pages call it with.
    """

    __slots__ = ("_functions", "_name")

    def __init__(self, name: str, functions: Mapping[str, Callable[..., Any]]) -> None:
        self._name = name
        self._functions = {key: _sized(f"{name}.{key}", f) for key, f in functions.items()}

    @property
    def names(self) -> frozenset[str]:
        """The functions' names."""
        return frozenset(self._functions)

    def function(self, name: str) -> Callable[..., Any]:
        """The function called ``name``.

        Raises:
            SandboxError: there is none (the message lists close names).
        """
        try:
            return self._functions[name]
        except KeyError:
            known = ", ".join(sorted(self._functions))
            raise SandboxError(
                f"{self._name} has no function {name!r}{did_you_mean(name, self._functions)}; "
                f"it has: {known}"
            ) from None

    def __repr__(self) -> str:
        return f"<functions {self._name}: {', '.join(sorted(self._functions))}>"


def _sized(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
    """``function`` refusing, before it runs, sizes whose product is too large."""

    @functools.wraps(function)
    def guarded(*args: Any, **kwargs: Any) -> Any:
        limits = active().limits
        values = (*args, *kwargs.values())
        sizes = [
            max(1, abs(int(v)))
            for v in values
            if isinstance(v, numbers.Integral) and not isinstance(v, bool)
        ]
        product = math.prod(sizes)
        if product > limits.items:
            raise SandboxError(
                f"{name}(): its whole-number arguments multiply to {product:,}: "
                f"at most {limits.items:,} (they are sizes)"
            )
        return function(*args, **kwargs)

    return guarded


def _type_name(value: object) -> str:
    return type(value).__name__


def _namespace(**values: Any) -> Namespace:
    """Jinja's ``namespace(...)``, without calling a class from a template."""
    return Namespace(**values)


def _allowed_attributes(obj: object) -> frozenset[str]:
    if isinstance(obj, FunctionSet):
        return obj.names
    if isinstance(obj, (np.ndarray, np.generic)):
        return ARRAY_ATTRIBUTES
    if isinstance(obj, Mapping):
        return MAPPING_ATTRIBUTES
    if isinstance(obj, LoopContext):
        return LOOP_ATTRIBUTES
    return frozenset()


#: Tags a template may not use, and why.
_REFUSED_TAGS: dict[type[nodes.Node], str] = {
    nodes.Extends: "{% extends %} is not available: templates here have no other files",
    nodes.Include: "{% include %} is not available: templates here have no other files",
    nodes.Import: "{% import %} is not available: templates here have no other files",
    nodes.FromImport: "{% from ... import %} is not available: templates here have no other files",
    nodes.EvalContextModifier: "{% autoescape %} is not available: templates here are "
    "Markdown text, escaped when it is rendered",
}

#: Elements of a large array that ``str()`` prints (numpy summarises past its threshold).
_PRINTED_ARRAY_ITEMS = 1_000


class SandboxedTemplate(Template):
    """A template of a :class:`Sandbox`: :meth:`render` runs it within the sandbox's
    :class:`Limits` and reports any failure as a :class:`SandboxError` with its line."""

    def render(self, *args: Any, **kwargs: Any) -> str:
        environment = self.environment
        assert isinstance(environment, Sandbox)
        limits = environment.limits
        token = BUDGET.set(Budget(limits, time.monotonic() + limits.seconds))
        try:
            return str(super().render(*args, **kwargs))
        except Exception as exc:
            raise SandboxError(_describe(exc), _template_line(exc)) from exc
        finally:
            BUDGET.reset(token)


def _describe(exc: BaseException) -> str:
    if isinstance(exc, SandboxError):
        return exc.message
    text = str(exc)
    if isinstance(exc, TemplateError):
        return text
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _template_line(exc: BaseException) -> int | None:
    """The innermost template line in ``exc``'s traceback (Jinja rewrites template frames
    to point at the template's own lines)."""
    line = None
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == "<template>":
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


class Sandbox(ImmutableSandboxedEnvironment):
    """The Jinja environment for bank and lesson text: refuses, bounds, reports.

    Text templates (Markdown, escaped later by the Markdown renderer): no HTML autoescape,
    ``StrictUndefined``, trailing newlines kept.

    Args:
        limits: The bounds on each render.
    """

    template_class = SandboxedTemplate
    intercepted_binops = frozenset({"+", "-", "*", "/", "//", "%", "**"})

    def __init__(self, limits: Limits | None = None) -> None:
        super().__init__(undefined=StrictUndefined, autoescape=False, keep_trailing_newline=True)
        self.limits = limits or Limits()
        self.globals.clear()
        self.globals["range"] = bounded_range
        self.globals["namespace"] = _namespace
        self.filters = dict(FILTERS)

    # --- compiling -------------------------------------------------------------------------

    def from_string(  # type: ignore[override]
        self,
        source: str,
        globals: MutableMapping[str, Any] | None = None,
        template_class: type[Any] | None = None,
    ) -> SandboxedTemplate:
        """``source`` parsed, bounded (see the module docstring) and compiled.

        Raises:
            SandboxError: a syntax error, a refused tag or an unknown filter, with its line.
        """
        try:
            tree = self.parse(source)
            self._bound(tree)
            tree.set_environment(self)
            template = super().from_string(tree, globals, template_class)
        except SandboxError:
            raise
        except TemplateSyntaxError as exc:
            raise SandboxError(exc.message or str(exc), exc.lineno) from exc
        except Exception as exc:  # e.g. RecursionError from thousands of nested brackets
            raise SandboxError(_describe(exc)) from exc
        assert isinstance(template, SandboxedTemplate)
        return template

    def _bound(self, node: nodes.Node) -> nodes.Node:
        """``node`` with its children bounded, then itself (post-order, in place)."""
        for name, value in node.iter_fields():
            if isinstance(value, list):
                setattr(
                    node,
                    name,
                    [self._bound(v) if isinstance(v, nodes.Node) else v for v in value],
                )
            elif isinstance(value, nodes.Node):
                setattr(node, name, self._bound(value))
        for tag_type, reason in _REFUSED_TAGS.items():
            if isinstance(node, tag_type):
                raise SandboxError(reason, node.lineno)
        if isinstance(node, nodes.For):
            if node.recursive:
                raise SandboxError("recursive loops are not available", node.lineno)
            node.iter = self._callback("konum_iterate", [node.iter], node.lineno)
        elif isinstance(node, nodes.Output):
            node.nodes = [
                self._callback(
                    "konum_print",
                    [nodes.Const(child.data) if isinstance(child, nodes.TemplateData) else child],
                    child.lineno,
                )
                for child in node.nodes
            ]
        elif isinstance(node, nodes.Concat):
            return self._callback("konum_concat", list(node.nodes), node.lineno)
        elif isinstance(node, nodes.Compare):
            args: list[nodes.Node] = [node.expr]
            for operand in node.ops:
                args += [nodes.Const(operand.op), operand.expr]
            return self._callback("konum_compare", args, node.lineno)
        return node

    @staticmethod
    def _callback(name: str, args: list[nodes.Node], lineno: int) -> nodes.Call:
        return nodes.Call(nodes.EnvironmentAttribute(name), args, [], None, None, lineno=lineno)

    # --- the callbacks the bounded tree calls ----------------------------------------------

    def konum_iterate(self, iterable: Iterable[Any]) -> Iterator[Any]:
        """``iterable``, one step per item."""
        budget = active()
        budget.charge(1)
        for item in iterable:
            budget.charge(1)
            yield item

    def konum_print(self, value: object) -> str:
        """``value`` as printed, its characters counted against :attr:`Limits.output`
        (estimated before ``str()`` builds them: at least one per element)."""
        budget = active()
        output = budget.limits.output
        if not isinstance(value, str):
            estimate = deep_size(value, output - budget.printed, _PRINTED_ARRAY_ITEMS)
            if budget.printed + estimate > output:
                raise SandboxError(f"too much output: a template may print {output:,} characters")
        text = value if isinstance(value, str) else str(value)
        mark = PRINT_NUMBER.get()
        if mark and isinstance(value, numbers.Real) and not isinstance(value, bool):
            text = mark(text)
        budget.printed += len(text)
        if budget.printed > output:
            raise SandboxError(f"too much output: a template may print {output:,} characters")
        budget.charge(steps_for(len(text)))
        return text

    def konum_concat(self, *values: object) -> str:
        """``a ~ b ~ ...``: the operands as text, joined, sized before ``str()`` builds them."""
        budget = active()
        limits = budget.limits
        total = sum(deep_size(v, limits.items, _PRINTED_ARRAY_ITEMS) for v in values)
        check_count(total, "a ~ concatenation", limits)
        budget.charge(steps_for(total))
        return "".join(str(v) for v in values)

    def konum_compare(self, first: object, *rest: object) -> Any:
        """A comparison chain (``a < b``, ``a in b``, ``a < b <= c``), sizes checked first;
        every operand is evaluated (the chain has no side effects to skip)."""
        budget = active()
        limits = budget.limits
        left = first
        result: Any = True
        for op, right in zip(rest[::2], rest[1::2], strict=True):
            broadcast_check(left, right, limits)
            touched = measure(left, limits, "an operand") + measure(right, limits, "an operand")
            result = COMPARISONS[str(op)](left, right)
            budget.charge(steps_for(touched + measure(result, limits, "a comparison's result")))
            if len(rest) > 2 and not result:
                return result
            left = right
        return result

    # --- Jinja's sandbox hooks -------------------------------------------------------------

    def is_safe_attribute(self, obj: Any, attr: str, value: Any) -> bool:
        """Only the allow-listed attributes of :class:`FunctionSet`, arrays, mappings and
        ``loop``; never a private one (Jinja's own rules still apply)."""
        return super().is_safe_attribute(obj, attr, value) and attr in _allowed_attributes(obj)

    def is_safe_callable(self, obj: Any) -> bool:
        """Anything a template can reach may be called, except a class."""
        return super().is_safe_callable(obj) and not isinstance(obj, type)

    def unsafe_undefined(self, obj: Any, attribute: str) -> Undefined:
        """Refused attributes are an error at once, even under ``is defined``."""
        raise SandboxError(self._refusal(obj, attribute))

    @staticmethod
    def _refusal(obj: object, attribute: str) -> str:
        if attribute.startswith("_"):
            return f"private attribute {attribute!r} of {_type_name(obj)} is not available"
        allowed = sorted(_allowed_attributes(obj))
        listed = f" (it has: {', '.join(allowed)})" if allowed else ""
        return f"attribute {attribute!r} of {_type_name(obj)} is not available{listed}"

    def getattr(self, obj: Any, attribute: str) -> Any:
        """An allowed attribute, else (Jinja's rule) an item of that name (``g.name`` on a
        dict), else an error; the attribute is checked before it is read."""
        if isinstance(obj, Undefined):
            return obj[attribute]  # StrictUndefined: "'name' is undefined"
        if isinstance(obj, FunctionSet):
            if attribute.startswith("_"):
                raise SandboxError(self._refusal(obj, attribute))
            return obj.function(attribute)
        if isinstance(obj, Namespace) and not attribute.startswith("_"):
            try:  # only what the template stored in it
                return getattr(obj, attribute)
            except AttributeError:
                return self.undefined(obj=obj, name=attribute)
        if not attribute.startswith("_"):
            if attribute in _allowed_attributes(obj) and hasattr(obj, attribute):
                value = getattr(obj, attribute)
                if self.is_safe_attribute(obj, attribute, value):
                    return value
            try:
                return obj[attribute]
            except (TypeError, LookupError, ValueError):
                pass
        if isinstance(obj, Mapping) and not attribute.startswith("_"):
            return self.undefined(obj=obj, name=attribute)
        raise SandboxError(self._refusal(obj, attribute))

    def getitem(self, obj: Any, argument: Any) -> Any:
        """``obj[argument]``, fancy indexing sized first; a string that is not a key is an
        attribute (:meth:`getattr`)."""
        budget = active()
        if isinstance(obj, np.ndarray):
            fancy_index_check(obj, argument, budget.limits)
        try:
            value = obj[argument]
        except (TypeError, LookupError):
            if isinstance(argument, str):
                return self.getattr(obj, argument)
            return self.undefined(obj=obj, name=argument)
        if isinstance(value, np.ndarray):  # fancy indexing copies
            budget.charge(steps_for(int(value.size)))
        return value

    def call(self, context: Context, obj: Any, /, *args: Any, **kwargs: Any) -> Any:
        """Calls: one step plus the arrays they touch; arguments and result sized; an array
        method gets no array argument (no ``out=``)."""
        if getattr(obj, "__self__", None) is self:  # a konum_* callback: it counts itself
            return context.call(obj, *args, **kwargs)
        budget = active()
        limits = budget.limits
        touched = sum(measure(v, limits, "an argument") for v in (*args, *kwargs.values()))
        if not self.is_safe_callable(obj):
            raise SandboxError(f"{_type_name(obj)} {obj!r} cannot be called in a template")
        owner = getattr(obj, "__self__", None)
        if isinstance(owner, (np.ndarray, np.generic)) and any(
            isinstance(v, np.ndarray) for v in (*args, *kwargs.values())
        ):  # out= (or a positional out) would write into another array
            raise SandboxError(f"array methods take no array arguments, as {obj.__name__}() did")
        result = context.call(obj, *args, **kwargs)
        budget.charge(steps_for(touched + measure(result, limits, "a call's result")))
        return result

    def call_binop(self, context: Context, operator: str, left: Any, right: Any) -> Any:
        """``+ - * / // % **`` with their results sized before they are built."""
        budget = active()
        limits = budget.limits
        if operator == "%" and isinstance(left, str):
            raise SandboxError("'%' does not format strings in a template: use fmt()")
        broadcast_check(left, right, limits)
        touched = measure(left, limits, "an operand") + measure(right, limits, "an operand")
        if operator == "*":
            for seq, times in ((left, right), (right, left)):
                if isinstance(seq, (str, list, tuple)) and isinstance(times, numbers.Integral):
                    count = deep_size(seq, limits.items) * max(0, int(times))
                    check_count(count, "a repeated sequence", limits)
        if (
            operator == "**"
            and isinstance(left, int)
            and isinstance(right, int)
            and right > 0
            and abs(left) > 1
        ):
            bits = left.bit_length() * right
            if bits > limits.int_bits:
                raise SandboxError(
                    f"{left} ** {right} has about {bits:,} bits: at most {limits.int_bits:,}"
                )
        result = self.binop_table[operator](left, right)
        budget.charge(steps_for(touched + measure(result, limits, "an operation's result")))
        return result


@functools.lru_cache(maxsize=1)
def sandbox() -> Sandbox:
    """The one sandbox every template text is rendered in (lesson pages, computed prompts,
    the exports' prompt rewriting): :class:`Sandbox` with :func:`fmt` as its one global;
    whatever else a text sees is the values it is rendered with."""
    env = Sandbox()
    env.globals["fmt"] = fmt
    return env
