"""Arithmetic formulas written in banks: parsed against an allow-list, evaluated in float64.

A formula is a Python expression of a small kind::

    m * a
    0.5 * m * v**2
    sqrt(2 * g * h)
    v**2 * sin(2 * radians(theta)) / g

Allowed: numbers; names (the question's params and the constants :data:`CONSTANTS`);
``+ - * / // % **``; unary ``+`` and ``-``; parentheses; calls by name to
:data:`FUNCTIONS`, with positional arguments. Anything else (attribute access, subscripts,
strings, comparisons, conditionals, lambdas, comprehensions, keyword arguments, a call to
anything else) is refused when the formula is parsed, before a single value is computed.
Nothing is ever passed to ``eval``, ``exec`` or ``compile``: :func:`parse` reads the tree
that :func:`ast.parse` builds and turns it into closures over numpy operations.

Bounds, so that no formula can hang or exhaust memory: at most
:data:`konum.limits.FORMULA_CHARS` characters (checked before parsing),
:data:`konum.limits.FORMULA_DEPTH` levels of nesting and :data:`konum.limits.FORMULA_NODES`
nodes. Every value is a float64, so each operation takes the same time whatever its operands:
``10**10**10`` overflows at once instead of building a ten-billion-
digit integer. Overflow, division by zero and undefined results (``sqrt(-1)``, ``log(0)``)
raise :class:`FormulaError` naming the part of the formula that failed.

Why an allow-list over :mod:`ast` rather than ``simpleeval`` or ``asteval``: a formula needs
ten kinds of node, and listing what is allowed is shorter to audit than the deny-lists those
libraries keep. ``simpleeval`` computes with exact Python ints (only ``**`` is bounded, so
``9**999999 * ...`` chains still grow), allows attribute access to any name without a leading
underscore and accepts strings and comparisons; ``asteval`` interprets loops and function
definitions. Neither reports the column of a mistake, which bank messages need, and both
would add a dependency for less than this module does.
"""

from __future__ import annotations

import ast
import keyword
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import cast

import numpy as np

from konum import limits
from konum.computed.base import sig
from konum.computed.functions import (
    _ATOM,
    FUNCTIONS,
    ArgumentError,
    MissingExtra,
    stats_module,
)
from konum.computed.functions import Tex as _Tex
from konum.computed.functions import wrap as _wrap
from konum.formatting import did_you_mean

# numpy >= 2.3's stubs import typing.Self, which python_version 3.10 (mypy's target) lacks,
# so there Value(...) is Any; the ignore[no-any-return] comments below are for that.
Value = np.float64
Env = Mapping[str, Value]
Compiled = Callable[[Env], Value]


class FormulaError(ValueError):
    """A formula that cannot be parsed or evaluated.

    Attributes:
        reason: the message without location.
        offset: 0-based column in the formula text where the problem is, or None.
    """

    def __init__(self, reason: str, offset: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.offset = offset


def _number_tex(value: float) -> _Tex:
    text = sig(value)
    return _Tex(text, 3 if value < 0 else _ATOM)


#: Named constants a formula may use.
CONSTANTS: dict[str, tuple[float, str]] = {"pi": (math.pi, "\\pi"), "e": (math.e, "e")}

#: Names a parameter may not take: they mean a function or a constant in formulas.
RESERVED = frozenset(FUNCTIONS) | frozenset(CONSTANTS)

_GREEK = frozenset(
    (
        *("alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota"),
        *("kappa", "mu", "nu", "xi", "rho", "sigma", "tau", "upsilon", "phi", "chi", "psi"),
        *("omega", "Gamma", "Delta", "Theta", "Xi", "Sigma", "Phi", "Psi", "Omega"),
    )
)

_BINARY: dict[type[ast.operator], tuple[str, Callable[[Value, Value], Value]]] = {
    ast.Add: ("+", np.add),
    ast.Sub: ("-", np.subtract),
    ast.Mult: ("*", np.multiply),
    ast.Div: ("/", np.divide),
    ast.FloorDiv: ("//", np.floor_divide),
    ast.Mod: ("%", np.remainder),
    ast.Pow: ("**", np.power),
}

_REFUSED: dict[type[ast.AST], str] = {
    ast.Attribute: "attribute access",
    ast.Subscript: "indexing",
    ast.Compare: "a comparison",
    ast.BoolOp: "'and'/'or'",
    ast.IfExp: "a conditional (x if c else y)",
    ast.Lambda: "a lambda",
    ast.NamedExpr: "an assignment (:=)",
    ast.Tuple: "a tuple",
    ast.List: "a list",
    ast.Dict: "a dict",
    ast.Set: "a set",
    ast.ListComp: "a comprehension",
    ast.SetComp: "a comprehension",
    ast.DictComp: "a comprehension",
    ast.GeneratorExp: "a comprehension",
    ast.JoinedStr: "a string",
    ast.Starred: "unpacking (*)",
    ast.Await: "await",
    ast.Yield: "yield",
    ast.YieldFrom: "yield",
}


def valid_param_name(name: str) -> str | None:
    """Why ``name`` cannot be a formula parameter (None when it can)."""
    if not name.isidentifier() or not name.isascii() or name.startswith("_"):
        return "expected a name of letters, digits and _ that starts with a letter"
    if keyword.iskeyword(name):
        return f"{name!r} is a Python keyword and cannot be a name in a formula"
    if name in FUNCTIONS:
        return f"{name!r} is a function in formulas; choose another name"
    if name in CONSTANTS:
        return f"{name!r} is the constant {CONSTANTS[name][0]:.6g} in formulas; choose another name"
    return None


def name_latex(name: str) -> str:
    """A parameter's name in LaTeX: ``m``, ``v_{0}``, ``\\theta``, ``v_{\\mathrm{max}}``."""
    head, _, tail = name.partition("_")
    if not tail:
        letters = head.rstrip("0123456789")
        if letters and letters != head and len(letters) == 1:
            return f"{letters}_{{{head[len(letters) :]}}}"
    if head in _GREEK:
        base = f"\\{head}"
    elif len(head) == 1:
        base = head
    else:
        base = f"\\mathrm{{{head}}}"
    if not tail:
        return base
    sub = name_latex(tail) if len(tail) == 1 or tail in _GREEK else f"\\mathrm{{{tail}}}"
    return f"{base}_{{{sub}}}"


# --- the parsed formula -----------------------------------------------------------------


@dataclass(frozen=True)
class Formula:
    """A parsed formula: evaluate it, or write it in LaTeX with names or numbers.

    Attributes:
        text: the formula as written.
        names: the parameter names it uses, in order of first use.
    """

    text: str
    names: tuple[str, ...]
    _tree: ast.expr
    _compiled: Compiled

    def evaluate(self, values: Mapping[str, float]) -> float:
        """The formula's value for ``values`` (every name in :attr:`names`).

        Raises:
            FormulaError: division by zero, overflow or an undefined value, naming the part
                of the formula where it happened.
        """
        env = {name: Value(values[name]) for name in self.names}
        with np.errstate(all="raise", under="ignore"):
            result = self._compiled(env)
        return float(result)

    def latex(
        self, values: Mapping[str, float] | None = None, symbols: Mapping[str, str] | None = None
    ) -> str:
        """The formula in LaTeX: with its names (each as ``symbols`` writes it, else
        :func:`name_latex`), or with ``values`` put in their place."""
        return _latex(self._tree, values, symbols or {}).text


def _segment(text: str, node: ast.AST) -> str:
    return ast.get_source_segment(text, node) or ""


def _failure(text: str, node: ast.expr, exc: Exception) -> FormulaError:
    detail = str(exc)
    if "divide by zero" in detail or isinstance(exc, ZeroDivisionError):
        why = "division by zero"
    elif "overflow" in detail or isinstance(exc, OverflowError):
        why = "a value too large for a float (beyond 1.8e308)"
    elif "invalid value" in detail:
        why = "an undefined value (nan), such as the square root or logarithm of a negative number"
    else:
        why = detail
    return FormulaError(f"{why} in '{_segment(text, node)}'", node.col_offset)


def _check_shape(tree: ast.Expression) -> None:
    """Depth and size limits, walked without recursion (the tree may be deep)."""
    count = 0
    stack: list[tuple[ast.AST, int]] = [(tree.body, 1)]
    while stack:
        node, depth = stack.pop()
        count += 1
        if count > limits.FORMULA_NODES:
            raise FormulaError(f"the formula is too large: more than {limits.FORMULA_NODES} parts")
        if depth > limits.FORMULA_DEPTH:
            raise FormulaError(
                f"the formula is too deep: more than {limits.FORMULA_DEPTH} operations inside "
                "one another",
                getattr(node, "col_offset", None),
            )
        children = ast.iter_child_nodes(node)
        stack.extend((child, depth + 1) for child in children if isinstance(child, ast.expr))


def _refuse(text: str, node: ast.AST) -> FormulaError:
    what = _REFUSED.get(type(node), type(node).__name__)
    shown = _segment(text, node)
    shown = shown if len(shown) <= 40 else shown[:37] + "..."
    return FormulaError(
        f"{what} ('{shown}') is not allowed in a formula: use numbers, the params, "
        "+ - * / // % ** and the functions sqrt, exp, log, sin, ... (see the authoring page)",
        getattr(node, "col_offset", None),
    )


def _compile(text: str, node: ast.AST, params: frozenset[str], used: dict[str, None]) -> Compiled:
    """``node`` as a closure over float64 values; refuses whatever is not allowed."""
    if isinstance(node, ast.Constant):
        value = node.value
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            kind = "a string" if isinstance(value, str) else repr(value)
            if isinstance(value, complex):
                kind = "an imaginary number"
            raise FormulaError(
                f"{kind} is not allowed in a formula: only real numbers", node.col_offset
            )
        try:
            number = Value(float(value))
        except OverflowError:
            number = Value(math.inf)
        if not math.isfinite(number):
            raise FormulaError(
                f"the number {_segment(text, node)[:24]} is too large for a float", node.col_offset
            )
        return lambda env: number
    if isinstance(node, ast.Name):
        name = node.id
        if name in params:
            used.setdefault(name)
            return lambda env: env[name]
        if name in CONSTANTS:
            constant = Value(CONSTANTS[name][0])
            return lambda env: constant
        if name in FUNCTIONS:
            raise FormulaError(f"{name} is a function: call it, as in {name}(x)", node.col_offset)
        known = sorted(params) + sorted(CONSTANTS)
        listed = ", ".join(sorted(params)) or "none"
        factors = _factors(name, params)
        product = f"; a product is written with *: {' * '.join(factors)}" if factors else ""
        raise FormulaError(
            f"unknown name {name!r}{did_you_mean(name, known)} "
            f"(params: {listed}; constants: {', '.join(CONSTANTS)}){product}",
            node.col_offset,
        )
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        operand = _compile(text, node.operand, params, used)
        if isinstance(node.op, ast.UAdd):
            return operand
        return lambda env: -operand(env)
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        left = _compile(text, node.left, params, used)
        right = _compile(text, node.right, params, used)
        operation = _BINARY[type(node.op)][1]
        binary = node

        def apply(env: Env) -> Value:
            a, b = left(env), right(env)
            try:
                return Value(operation(a, b))  # type: ignore[no-any-return]  # see Value
            except (FloatingPointError, ZeroDivisionError, OverflowError) as exc:
                raise _failure(text, binary, exc) from None

        return apply
    if isinstance(node, ast.Call):
        return _compile_call(text, node, params, used)
    if isinstance(node, ast.BinOp):  # an operator outside the list: name it at its column
        start = node.left.end_col_offset or 0
        gap = text[start : node.right.col_offset]
        symbol = gap.strip(" ()")
        hint = "use ** for powers, as in x**2" if symbol == "^" else "use + - * / // % **"
        column = start + len(gap) - len(gap.lstrip(" ()"))
        raise FormulaError(f"'{symbol}' is not an operator of formulas: {hint}", column)
    raise _refuse(text, node)


def _compile_call(
    text: str, node: ast.Call, params: frozenset[str], used: dict[str, None]
) -> Compiled:
    if not isinstance(node.func, ast.Name):
        raise _refuse(text, node.func)
    name = node.func.id
    function = FUNCTIONS.get(name)
    if function is None:
        product = _product_hint(text, name, node, params)
        if name in params:
            raise FormulaError(f"{name} is a parameter, not a function{product}", node.col_offset)
        raise FormulaError(
            f"calling {name}() is not allowed"
            + (product or f": a formula may call only {', '.join(FUNCTIONS)}")
            + ("" if product else did_you_mean(name, FUNCTIONS)),
            node.col_offset,
        )
    if function.scipy:
        try:
            stats_module()
        except MissingExtra as exc:
            raise FormulaError(f"{name}() {exc}", node.col_offset) from None
    if node.keywords:
        raise FormulaError(f"{name}() takes no keyword arguments", node.col_offset)
    low, high = function.arity
    count = len(node.args)
    if count < low or (high is not None and count > high):
        wanted = str(low) if low == high else f"{low} or more" if high is None else f"{low}-{high}"
        raise FormulaError(
            f"{name}() takes {wanted} argument{'s' if wanted != '1' else ''}, found {count}",
            node.col_offset,
        )
    if name == "round" and count == 2:
        places = node.args[1]
        if not (
            isinstance(places, ast.Constant)
            and type(places.value) is int
            and 0 <= places.value <= 15
        ):
            raise FormulaError(
                "round(x, places): places must be a whole number from 0 to 15",
                places.col_offset,
            )
    args = [_compile(text, arg, params, used) for arg in node.args]
    call = function.call

    def apply(env: Env) -> Value:
        values = [arg(env) for arg in args]
        try:
            return Value(call(*values))  # type: ignore[no-any-return]  # see Value
        except (FloatingPointError, ZeroDivisionError, OverflowError, ArgumentError) as exc:
            raise _failure(text, node, exc) from None

    return apply


def _factors(name: str, params: frozenset[str]) -> list[str] | None:
    """``name`` as two or more param names written together (``np``: ``n``, ``p``), the
    longest names first; None when it is not."""
    for head in sorted((p for p in params if name.startswith(p)), key=len, reverse=True):
        rest = name[len(head) :]
        if rest in params:
            return [head, rest]
        tail = _factors(rest, params) if rest else None
        if tail:
            return [head, *tail]
    return None


def _product_hint(text: str, name: str, node: ast.Call, params: frozenset[str]) -> str:
    """``; did you mean n * p * (1 - p)?`` for ``np(1 - p)`` when ``n`` and ``p`` are
    params (or ``n * (1 - p)`` for ``n(1 - p)``), else nothing."""
    factors = [name] if name in params else _factors(name, params)
    if not factors or len(node.args) != 1 or node.keywords:
        return ""
    argument = _segment(text, node.args[0])
    return f"; did you mean {' * '.join(factors)} * ({argument})?"


def _binary_tex(
    node: ast.BinOp, values: Mapping[str, float] | None, symbols: Mapping[str, str]
) -> _Tex:
    left, right = _latex(node.left, values, symbols), _latex(node.right, values, symbols)
    op = type(node.op)
    if op is ast.Div:
        return _Tex(f"\\frac{{{left.text}}}{{{right.text}}}", _ATOM)
    if op is ast.FloorDiv:
        return _Tex(f"\\left\\lfloor \\frac{{{left.text}}}{{{right.text}}} \\right\\rfloor", _ATOM)
    if op is ast.Pow:
        base = left.text if left.strength == _ATOM else _wrap(left.text)
        return _Tex(f"{{{base}}}^{{{right.text}}}", 4)
    strength = 1 if op in (ast.Add, ast.Sub) else 2
    symbol = {ast.Add: "+", ast.Sub: "-", ast.Mult: "\\cdot", ast.Mod: "\\bmod"}[op]
    a = left.text if left.strength >= strength else _wrap(left.text)
    # The right operand also needs brackets when it binds as loosely (a - (b - c)) or
    # starts with a minus sign (a + (-b)).
    wrap_right = (
        right.strength < strength
        or right.strength == 3
        or (right.strength == strength and op is not ast.Add and op is not ast.Mult)
    )
    b = _wrap(right.text) if wrap_right else right.text
    return _Tex(f"{a} {symbol} {b}", strength)


def _latex(node: ast.AST, values: Mapping[str, float] | None, symbols: Mapping[str, str]) -> _Tex:
    if isinstance(node, ast.Constant):
        return _number_tex(float(cast(float, node.value)))  # parse() let only numbers through
    if isinstance(node, ast.Name):
        if node.id in CONSTANTS:
            return _Tex(CONSTANTS[node.id][1], _ATOM)
        if values is not None:
            return _number_tex(float(values[node.id]))
        symbol = symbols.get(node.id)
        return _Tex(f"{{{symbol}}}" if symbol else name_latex(node.id), _ATOM)
    if isinstance(node, ast.UnaryOp):
        operand = _latex(node.operand, values, symbols)
        if isinstance(node.op, ast.UAdd):
            return operand
        inner = operand.text if operand.strength >= 4 else _wrap(operand.text)
        return _Tex(f"-{inner}", 3)
    if isinstance(node, ast.BinOp):
        return _binary_tex(node, values, symbols)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        args = [_latex(arg, values, symbols) for arg in node.args]
        tex = FUNCTIONS[node.func.id].latex(args)
        return tex if isinstance(tex, _Tex) else _Tex(tex, _ATOM)
    raise AssertionError(f"unexpected node {type(node).__name__}")  # parse() refused it


_COMPARE: dict[type[ast.cmpop], Callable[[Value, Value], bool]] = {
    ast.Eq: lambda a, b: bool(a == b),
    ast.NotEq: lambda a, b: bool(a != b),
    ast.Lt: lambda a, b: bool(a < b),
    ast.LtE: lambda a, b: bool(a <= b),
    ast.Gt: lambda a, b: bool(a > b),
    ast.GtE: lambda a, b: bool(a >= b),
}


def _compile_condition(
    text: str, node: ast.AST, params: frozenset[str], used: dict[str, None]
) -> Compiled:
    """A condition (comparisons of formulas joined by ``and``, ``or``, ``not``) as a
    closure giving 1.0 when it holds, 0.0 when not."""
    if isinstance(node, ast.BoolOp):
        parts = [_compile_condition(text, v, params, used) for v in node.values]
        join = all if isinstance(node.op, ast.And) else any
        return lambda env: Value(join(part(env) for part in parts))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        inner = _compile_condition(text, node.operand, params, used)
        return lambda env: Value(not inner(env))
    if isinstance(node, ast.Compare) and all(type(op) in _COMPARE for op in node.ops):
        terms = [_compile(text, t, params, used) for t in (node.left, *node.comparators)]
        tests = [_COMPARE[type(op)] for op in node.ops]

        def holds(env: Env) -> Value:
            values = [term(env) for term in terms]
            pairs = zip(tests, values, values[1:], strict=False)
            return Value(all(t(a, b) for t, a, b in pairs))  # type: ignore[no-any-return]  # see Value

        return holds
    raise FormulaError(
        "a condition compares values (== != < <= > >=), joined by and, or, not: "
        f"such as 'x != mu', found '{_segment(text, node)[:40]}'",
        getattr(node, "col_offset", None),
    )


@lru_cache(maxsize=512)
def _parse(text: str, params: frozenset[str], condition: bool = False) -> Formula:
    if len(text) > limits.FORMULA_CHARS:
        raise FormulaError(
            f"the formula is too long: {len(text):,} characters, the limit is "
            f"{limits.FORMULA_CHARS:,}"
        )
    if not text.strip():
        raise FormulaError("the formula is empty")
    lead = len(text) - len(text.lstrip())
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as exc:
        offset = None
        if exc.offset is not None and (exc.lineno or 1) == 1:
            # Python gives offset 0 for a formula that ends too soon.
            offset = lead + (exc.offset - 1 if exc.offset else len(text.strip()))
        message = exc.msg.removesuffix(". Perhaps you forgot a comma?")
        if "forgot a comma" in exc.msg or "decimal literal" in exc.msg:
            message += " (write a product with *: 2 * m, not 2m or 2 m)"
        raise FormulaError(f"not a valid formula: {message}", offset) from None
    except (RecursionError, MemoryError):
        raise FormulaError(
            f"the formula is too deep: more than {limits.FORMULA_DEPTH} operations inside "
            "one another"
        ) from None
    stripped = text.strip()
    try:
        _check_shape(tree)
        used: dict[str, None] = {}
        compiled = (_compile_condition if condition else _compile)(
            stripped, tree.body, params, used
        )
    except FormulaError as exc:
        if exc.offset is not None and lead:
            raise FormulaError(exc.reason, exc.offset + lead) from None
        raise
    return Formula(stripped, tuple(used), tree.body, compiled)


def parse(
    text: str, params: frozenset[str] | set[str] | tuple[str, ...], *, condition: bool = False
) -> Formula:
    """Parse ``text`` as a formula over the names ``params`` (a ``condition``: comparisons
    of formulas joined by ``and``, ``or``, ``not``, whose value is 1.0 or 0.0).

    Raises:
        FormulaError: the text is too long, nests too deeply, is not valid syntax, or uses
            something outside the allow-list; ``offset`` points at it (0-based column,
            counted from the first non-blank character).
    """
    return _parse(text, frozenset(params), condition)
