"""The statistics course's own generator: the margin of error of a confidence interval.

A generator in Python, for what a one-line formula cannot say: the worked solution goes step
by step (the degrees of freedom, the critical value, the standard error), and each wrong
answer comes from a named mistake. The critical value is SciPy's, as the formulas' are.

konum loads this file because ``mkdocs.yml`` lists it under the extension's ``plugins``
option; banks use it as ``generator: mean_interval``.
"""

from __future__ import annotations

import math

from scipy import stats

from konum.computed import BaseGenerator, Distractor, Generated, Values, param, sig, specs
from konum.model import Choices, Range


class MeanInterval(BaseGenerator):
    """Margin of error ``t * s / sqrt(n)`` of the t interval for a mean, ``t`` the critical
    value with ``1 - alpha / 2`` below it and ``n - 1`` degrees of freedom."""

    name = "mean_interval"
    title = "The margin of error of a confidence interval for a mean"
    params = specs(
        param("n", "int", Range(6, 30), Range(2, 1000), "How many readings."),
        param("s", "float", Range(2, 10, 0.5), Range(0.1, 1000), "Their standard deviation."),
        param("level", "float", Choices((0.9, 0.95, 0.99)), Range(0.5, 0.999), "The level."),
    )
    default_decimals = 2
    misconceptions = {
        "z_for_t": "uses the normal's z where the estimated deviation needs Student's t",
        "no_sqrt": "divides s by n, not by the square root of n",
        "alpha_not_halved": "puts all of alpha in one tail",
        "variance_for_sd": "uses the variance s² where the deviation s belongs",
    }

    def build(self, v: Values, decimals: int) -> Generated | None:
        n, s, level = v["n"], v["s"], v["level"]
        df, upper = n - 1, (1 + level) / 2
        t = float(stats.t.ppf(upper, df))
        error = s / math.sqrt(n)
        answer = t * error
        distractors = [
            Distractor(
                float(stats.norm.ppf(upper)) * error,
                "z_for_t",
                f"This uses $z = {sig(stats.norm.ppf(upper), 4)}$. The deviation is estimated "
                f"from the readings, so the critical value is Student's $t = {sig(t, 4)}$.",
            ),
            Distractor(
                t * s / n, "no_sqrt", "The standard error of a mean is $s / \\sqrt{n}$."
            ),
            Distractor(
                float(stats.t.ppf(level, df)) * error,
                "alpha_not_halved",
                "A two-sided interval leaves $\\alpha / 2$ in each tail.",
            ),
            Distractor(
                t * s**2 / math.sqrt(n),
                "variance_for_sd",
                "The margin uses the standard deviation $s$, not the variance $s^2$.",
            ),
        ]
        prompt = (
            f"{n} readings have a standard deviation of {s}. What is the margin of error of "
            f"the {sig(100 * level)} % confidence interval for their mean?"
        )
        solution = (
            f"With $n - 1 = {df}$ degrees of freedom, $t_{{{sig(upper)},\\,{df}}} = "
            f"{sig(t, 5)}$, and the standard error is "
            f"$\\frac{{s}}{{\\sqrt{{n}}}} = \\frac{{{s}}}{{\\sqrt{{{n}}}}} = {sig(error, 5)}$.\n\n"
            f"$$t \\cdot \\frac{{s}}{{\\sqrt{{n}}}} = {sig(t, 5)} \\cdot {sig(error, 5)} "
            f"\\approx {sig(answer, 5)}$$\n"
        )
        return self.make(
            v,
            prompt=prompt,
            answer=answer,
            decimals=decimals,
            solution=solution,
            distractors=distractors,
        )


GENERATORS = [MeanInterval()]
