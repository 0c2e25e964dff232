"""The functions a formula may call: what each computes and how a textbook writes it.

Every function takes and returns float64 values. The arithmetic and trigonometric ones are
numpy's; counting (``comb``, ``perm``, ``factorial``) and the special functions (``gamma``,
``lgamma``, ``erf``, ``erfc``) are Python's :mod:`math`, exact on whole numbers; the
distributions (``norm_*``, ``binom_*``, ``poisson_*``, ``t_*``, ``chi2_*``) are
:mod:`scipy.stats`, named as it names them (``norm_cdf(x, mu, sigma)`` is
``scipy.stats.norm.cdf(x, loc=mu, scale=sigma)``). SciPy is the optional extra
``konum[stats]``: a formula that calls a distribution without it is refused when parsed.

Bounds: counting refuses arguments that are not whole numbers, and refuses before computing
any result beyond a float (``factorial(10**9)``, ``comb(10**6, 500000)``), so no call builds
a huge integer. An argument outside a function's domain (``binom_pmf(k, n, 1.5)``) raises
:class:`ArgumentError` saying what the function takes.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from konum import limits
from konum.computed.base import sig

Value = np.float64
#: The extra that installs SciPy, as ``pip`` writes it.
STATS_EXTRA = "konum[stats]"

# Binding strength of a LaTeX piece: sums 1, products 2, unary minus 3, powers 4, atoms 5.
_ATOM = 5


class ArgumentError(ValueError):
    """A function's argument outside its domain; the message says what it takes."""


class MissingExtra(ImportError):
    """A formula calls a distribution and SciPy is not installed."""


@dataclass(frozen=True)
class Tex:
    """A piece of LaTeX and how tightly it binds (see ``_ATOM``)."""

    text: str
    strength: int


def wrap(text: str) -> str:
    return f"\\left({text}\\right)"


def atomic(tex: Tex) -> str:
    """``tex`` as an operand that must not come apart: bracketed unless it is an atom."""
    return tex.text if tex.strength == _ATOM else wrap(tex.text)


def _term(tex: Tex) -> str:
    """``tex`` after a minus sign: bracketed when it is a sum or starts with a minus."""
    return wrap(tex.text) if tex.strength in (1, 3) else tex.text


def _factor(tex: Tex) -> str:
    """``tex`` as a factor of a product."""
    return wrap(tex.text) if tex.strength in (1, 3) else tex.text


def _listed(args: list[Tex]) -> str:
    return ", ".join(a.text for a in args)


@dataclass(frozen=True)
class Function:
    """An allowed function: its implementation, arity, LaTeX form and whether Moodle's
    calculated questions have it.

    ``arity`` is ``(fewest, most)``, ``most`` None for any number; ``latex`` writes the call
    from its arguments' LaTeX (a :class:`Tex` when it is not an atom); ``scipy`` marks the
    distributions, which need the extra :data:`STATS_EXTRA`.
    """

    call: Callable[..., Any]
    arity: tuple[int, int | None]
    latex: Callable[[list[Tex]], str | Tex]
    doc: str
    moodle: bool = True
    scipy: bool = False


def _named(name: str) -> Callable[[list[Tex]], str]:
    return lambda args: f"\\{name}\\left({_listed(args)}\\right)"


def _operator(name: str) -> Callable[[list[Tex]], str]:
    return lambda args: f"\\operatorname{{{name}}}\\left({_listed(args)}\\right)"


def _one(name: str, call: Callable[..., Value], doc: str) -> Function:
    return Function(call, (1, 1), _named(name), doc)


def _round(x: Value, places: Value | None = None) -> Value:
    """Halves away from zero, as people round (numpy and Python round halves to even)."""
    scale = 10.0 ** int(places or 0)
    rounded = np.sign(x) * np.floor(np.abs(x) * scale + 0.5) / scale
    return Value(rounded)  # type: ignore[no-any-return,unused-ignore]  # numpy stubs, 3.10


#: The arithmetic and trigonometric functions, by name. Angles are in radians.
ARITHMETIC: dict[str, Function] = {
    "sqrt": Function(np.sqrt, (1, 1), lambda a: f"\\sqrt{{{a[0].text}}}", "square root"),
    "exp": _one("exp", np.exp, "e to the power x"),
    "log": _one("ln", np.log, "natural logarithm"),
    "log10": Function(
        np.log10, (1, 1), lambda a: f"\\log_{{10}}\\left({a[0].text}\\right)", "base-10 logarithm"
    ),
    "log2": Function(
        np.log2, (1, 1), lambda a: f"\\log_{{2}}\\left({a[0].text}\\right)", "base-2 logarithm"
    ),
    "sin": _one("sin", np.sin, "sine"),
    "cos": _one("cos", np.cos, "cosine"),
    "tan": _one("tan", np.tan, "tangent"),
    "arcsin": _one("arcsin", np.arcsin, "inverse sine"),
    "arccos": _one("arccos", np.arccos, "inverse cosine"),
    "arctan": _one("arctan", np.arctan, "inverse tangent"),
    "arctan2": Function(
        np.arctan2, (2, 2), _operator("arctan2"), "angle of the point (x, y), as arctan2(y, x)"
    ),
    "sinh": _one("sinh", np.sinh, "hyperbolic sine"),
    "cosh": _one("cosh", np.cosh, "hyperbolic cosine"),
    "tanh": _one("tanh", np.tanh, "hyperbolic tangent"),
    "hypot": Function(
        np.hypot,
        (2, 2),
        lambda a: f"\\sqrt{{{{{atomic(a[0])}}}^{{2}} + {{{atomic(a[1])}}}^{{2}}}}",
        "length of the vector (x, y)",
    ),
    "radians": Function(
        np.radians,
        (1, 1),
        lambda a: f"\\frac{{\\pi}}{{180}} \\cdot {atomic(a[0])}",
        "degrees to radians",
    ),
    "degrees": Function(
        np.degrees,
        (1, 1),
        lambda a: f"\\frac{{180}}{{\\pi}} \\cdot {atomic(a[0])}",
        "radians to degrees",
    ),
    "abs": Function(np.abs, (1, 1), lambda a: f"\\left|{a[0].text}\\right|", "absolute value"),
    "floor": Function(
        np.floor, (1, 1), lambda a: f"\\left\\lfloor {a[0].text} \\right\\rfloor", "round down"
    ),
    "ceil": Function(
        np.ceil, (1, 1), lambda a: f"\\left\\lceil {a[0].text} \\right\\rceil", "round up"
    ),
    "round": Function(
        _round, (1, 2), _operator("round"), "round(x) or round(x, places), halves away from zero"
    ),
    "min": Function(lambda *xs: Value(min(xs)), (2, None), _named("min"), "smallest argument"),
    "max": Function(lambda *xs: Value(max(xs)), (2, None), _named("max"), "largest argument"),
}


# --- counting and special functions (math) ------------------------------------------------


def _whole(x: float, what: str, high: int = limits.FLOAT_WHOLE, why: str = "") -> int:
    if not (math.isfinite(x) and float(x).is_integer() and 0 <= x <= high):
        raise ArgumentError(
            f"{what} must be a whole number from 0 to {high:,}{why}, found {sig(x)}"
        )
    return int(x)


def _fits(log_value: float) -> None:
    """Refuse a result whose natural log is ``log_value`` when it is beyond a float (the
    callers pass it a hair low: a result the rounded logarithms let through is refused
    exactly when it is converted to a float)."""
    if log_value > math.log(np.finfo(np.float64).max):
        raise OverflowError("overflow")


def comb(n: float, k: float) -> float:
    """``n`` choose ``k``: whole ``n, k >= 0``; 0 when ``k > n`` (as scipy's ``comb``)."""
    a, b = _whole(n, "comb(n, k): n"), _whole(k, "comb(n, k): k")
    if b > a:
        return 0.0
    _fits(math.lgamma(a + 1) - math.lgamma(b + 1) - math.lgamma(a - b + 1) - 1e-9)
    return float(math.comb(a, b))


def perm(n: float, k: float) -> float:
    """Ordered choices of ``k`` of ``n``: ``n! / (n - k)!``; 0 when ``k > n``."""
    a, b = _whole(n, "perm(n, k): n"), _whole(k, "perm(n, k): k")
    if b > a:
        return 0.0
    _fits(math.lgamma(a + 1) - math.lgamma(a - b + 1) - 1e-9)
    return float(math.perm(a, b))


def factorial(n: float) -> float:
    """``n!`` for a whole ``n`` from 0 to :data:`konum.limits.FACTORIAL_N`."""
    why = " (beyond, n! is too large for a float)"
    return float(math.factorial(_whole(n, "factorial(n): n", limits.FACTORIAL_N, why)))


def _gamma(call: Callable[[float], float], name: str) -> Callable[[float], float]:
    def apply(x: float) -> float:
        if float(x).is_integer() and x <= 0:
            raise ArgumentError(f"{name}(x) is undefined at 0 and the negative whole numbers")
        return call(float(x))

    return apply


# --- distributions (scipy.stats) ----------------------------------------------------------


def stats_module() -> Any:
    """:mod:`scipy.stats`.

    Raises:
        MissingExtra: SciPy is not installed; the message names the extra.
    """
    try:
        import scipy.stats
    except ImportError:
        raise MissingExtra(
            f"needs SciPy, which konum installs as the extra {STATS_EXTRA}: "
            f"pip install '{STATS_EXTRA}'"
        ) from None
    return scipy.stats


def _distribution(
    name: str,
    method: str,
    domain: str,
    order: Callable[..., tuple[tuple[Any, ...], dict[str, Any]]],
) -> Callable[..., float]:
    """``scipy.stats.<name>.<method>`` with the arguments ``order`` makes of a formula's,
    and one clear error when the result is undefined (nan) or infinite."""

    def apply(*values: float) -> float:
        args, kwargs = order(*(float(v) for v in values))
        with np.errstate(all="ignore"):
            result = float(getattr(getattr(stats_module(), name), method)(*args, **kwargs))
        if not math.isfinite(result):
            raise ArgumentError(f"{domain}; found {', '.join(sig(v) for v in values)}")
        return result

    return apply


def _located(
    x: float, mu: float = 0.0, sigma: float = 1.0
) -> tuple[tuple[Any, ...], dict[str, Any]]:
    return (x,), {"loc": mu, "scale": sigma}


def _plain(*values: float) -> tuple[tuple[Any, ...], dict[str, Any]]:
    return values, {}


def _standard(args: list[Tex]) -> str:
    """The standardised value ``(x - mu) / sigma`` of a call's arguments."""
    x = args[0].text
    if len(args) == 1:
        return x
    centred = f"{x} - {_term(args[1])}"
    return f"\\frac{{{centred}}}{{{args[2].text}}}" if len(args) == 3 else centred


def _norm_pdf(args: list[Tex]) -> str | Tex:
    phi = f"\\varphi\\left({_standard(args)}\\right)"
    return Tex(f"\\frac{{1}}{{{args[2].text}}} {phi}", 2) if len(args) == 3 else phi


def _norm_ppf(args: list[Tex]) -> str | Tex:
    quantile = f"\\Phi^{{-1}}\\left({args[0].text}\\right)"
    if len(args) == 1:
        return quantile
    scaled = f"{_factor(args[2])} \\cdot {quantile}" if len(args) == 3 else quantile
    return Tex(f"{args[1].text} + {scaled}", 1)


def _binom_term(n: Tex, k: Tex, p: Tex) -> str:
    power = f"{{{atomic(p)}}}^{{{k.text}}}"
    rest = f"{{\\left(1 - {_term(p)}\\right)}}^{{{n.text} - {_term(k)}}}"
    return f"\\binom{{{n.text}}}{{{k.text}}} {power} {rest}"


def _poisson_term(k: str, lam: Tex, factorial_of: str) -> str:
    return f"\\frac{{{{{atomic(lam)}}}^{{{k}}} e^{{-{_term(lam)}}}}}{{{factorial_of}!}}"


_INDEX = Tex("i", _ATOM)


def _sum_to(k: Tex, term: str) -> Tex:
    return Tex(f"\\sum_{{i=0}}^{{{k.text}}} {term}", 1)


def _upper(bound: str, df: Tex, x: Tex) -> str:
    return f"P\\left({bound}_{{{df.text}}} \\le {x.text}\\right)"


STATISTICS: dict[str, Function] = {
    "comb": Function(
        comb, (2, 2), lambda a: f"\\binom{{{a[0].text}}}{{{a[1].text}}}", "n choose k", False
    ),
    "perm": Function(
        perm, (2, 2), lambda a: f"P\\left({_listed(a)}\\right)", "ordered choices of k of n", False
    ),
    "factorial": Function(
        factorial, (1, 1), lambda a: Tex(f"{atomic(a[0])}!", 4), "n! (n from 0 to 170)", False
    ),
    "gamma": Function(
        _gamma(math.gamma, "gamma"), (1, 1), _named("Gamma"), "the gamma function", False
    ),
    "lgamma": Function(
        _gamma(math.lgamma, "lgamma"),
        (1, 1),
        lambda a: f"\\ln \\Gamma\\left({a[0].text}\\right)",
        "the natural logarithm of |gamma(x)|",
        False,
    ),
    "erf": Function(math.erf, (1, 1), _operator("erf"), "the error function", False),
    "erfc": Function(math.erfc, (1, 1), _operator("erfc"), "1 - erf(x)", False),
}

_NORMAL = "norm_{}(x, mu, sigma) needs sigma > 0"
_DISTRIBUTIONS: list[tuple[str, Callable[[list[Tex]], str | Tex], tuple[int, int], str, str]] = [
    ("norm_pdf", _norm_pdf, (1, 3), _NORMAL.format("pdf"), "normal density at x"),
    (
        "norm_cdf",
        lambda a: f"\\Phi\\left({_standard(a)}\\right)",
        (1, 3),
        _NORMAL.format("cdf"),
        "P(X <= x), X normal (mu 0, sigma 1 unless given)",
    ),
    (
        "norm_ppf",
        _norm_ppf,
        (1, 3),
        "norm_ppf(q, mu, sigma) needs 0 < q < 1 and sigma > 0",
        "the x with P(X <= x) = q",
    ),
    (
        "binom_pmf",
        lambda a: Tex(_binom_term(a[1], a[0], a[2]), 2),
        (3, 3),
        "binom_pmf(k, n, p) needs a whole n >= 0 and 0 <= p <= 1",
        "P(X = k), X binomial with n trials of probability p",
    ),
    (
        "binom_cdf",
        lambda a: _sum_to(a[0], _binom_term(a[1], _INDEX, a[2])),
        (3, 3),
        "binom_cdf(k, n, p) needs a whole n >= 0 and 0 <= p <= 1",
        "P(X <= k), X binomial",
    ),
    (
        "poisson_pmf",
        lambda a: _poisson_term(a[0].text, a[1], atomic(a[0])),
        (2, 2),
        "poisson_pmf(k, lam) needs lam >= 0",
        "P(X = k), X Poisson with mean lam",
    ),
    (
        "poisson_cdf",
        lambda a: _sum_to(a[0], _poisson_term("i", a[1], "i")),
        (2, 2),
        "poisson_cdf(k, lam) needs lam >= 0",
        "P(X <= k), X Poisson",
    ),
    (
        "t_cdf",
        lambda a: _upper("T", a[1], a[0]),
        (2, 2),
        "t_cdf(x, df) needs df > 0",
        "P(T <= x), T Student's t with df degrees of freedom",
    ),
    (
        "t_ppf",
        lambda a: f"t_{{{a[0].text},\\,{a[1].text}}}",
        (2, 2),
        "t_ppf(q, df) needs 0 < q < 1 and df > 0",
        "the t with P(T <= t) = q (a critical value)",
    ),
    (
        "chi2_cdf",
        lambda a: _upper("\\chi^{2}", a[1], a[0]),
        (2, 2),
        "chi2_cdf(x, df) needs df > 0",
        "P(X <= x), X chi-squared with df degrees of freedom",
    ),
    (
        "chi2_ppf",
        lambda a: f"\\chi^{{2}}_{{{a[0].text},\\,{a[1].text}}}",
        (2, 2),
        "chi2_ppf(q, df) needs 0 < q < 1 and df > 0",
        "the x with P(X <= x) = q (a critical value)",
    ),
]


def _distribution_function(
    name: str,
    latex: Callable[[list[Tex]], str | Tex],
    arity: tuple[int, int],
    domain: str,
    doc: str,
) -> Function:
    family, _, method = name.rpartition("_")
    order = _located if family == "norm" else _plain
    call = _distribution(family, method, domain, order)
    return Function(call, arity, latex, doc, moodle=False, scipy=True)


#: Every function a formula may call, by name.
FUNCTIONS: dict[str, Function] = {
    **ARITHMETIC,
    **STATISTICS,
    **{entry[0]: _distribution_function(*entry) for entry in _DISTRIBUTIONS},
}
