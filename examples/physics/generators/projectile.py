"""The physics course's own generator: how far a projectile flies on level ground.

A generator in Python, for what a one-line formula cannot say: the launch angle is drawn in
degrees but never 45 (where the complementary-angle mistake would give the answer), the
worked solution goes step by step, and each wrong answer comes from a named mistake.

konum loads this file because ``mkdocs.yml`` lists it under the extension's ``generators``
option; banks use it as ``generator: projectile_range``.
"""

from __future__ import annotations

import math

from konum.computed import BaseGenerator, Distractor, Generated, Values, param, sig, specs
from konum.model import Range

#: Standard gravity, m/s².
G = 9.81


class ProjectileRange(BaseGenerator):
    """Range ``R = v**2 * sin(2 * theta) / g`` of a launch from ground level, no drag."""

    name = "projectile_range"
    title = "The range of a projectile launched from level ground"
    params = specs(
        param("v", "int", Range(5, 30), Range(1, 300), "Launch speed in m/s."),
        param("angle", "int", Range(15, 75, 5), Range(1, 89), "Launch angle in degrees."),
    )
    default_decimals = 1
    misconceptions = {
        "angle_not_doubled": "uses sin(theta) where the range needs sin(2 theta)",
        "degrees_as_radians": "feeds the angle in degrees to a sine that expects radians",
        "height_for_range": "gives the greatest height v² sin²(theta) / (2 g) instead",
        "speed_not_squared": "divides v, not v², by g",
    }

    def build(self, v: Values, decimals: int) -> Generated | None:
        speed, angle = v["v"], v["angle"]
        if angle == 45:  # sin(2 theta) = 1: too easy, and 90 - theta is the same launch
            return None
        theta = math.radians(angle)
        answer = speed**2 * math.sin(2 * theta) / G
        distractors = [
            Distractor(
                speed**2 * math.sin(theta) / G,
                "angle_not_doubled",
                "The range has $\\sin 2\\theta$: the time of flight brings one $\\sin\\theta$ "
                "and the horizontal speed a $\\cos\\theta$, and $2\\sin\\theta\\cos\\theta = "
                "\\sin 2\\theta$.",
            ),
            Distractor(
                speed**2 * math.sin(2 * angle) / G,
                "degrees_as_radians",
                f"This takes the sine of {2 * angle} radians. Convert degrees to radians first.",
            ),
            Distractor(
                (speed * math.sin(theta)) ** 2 / (2 * G),
                "height_for_range",
                "That is the greatest height, not the distance along the ground.",
            ),
            Distractor(
                speed * math.sin(2 * theta) / G,
                "speed_not_squared",
                "Check the units: $v / g$ is a time. The range needs $v^2 / g$.",
            ),
        ]
        prompt = (
            f"A ball leaves the ground at {speed} m/s, {angle}° above the horizontal. "
            "Ignoring air resistance, how far away does it land, in metres ($g = 9.81$ m/s²)?"
        )
        solution = (
            f"$$R = \\frac{{v^2 \\sin 2\\theta}}{{g}} = \\frac{{{speed}^2 \\cdot "
            f"\\sin {2 * angle}^\\circ}}{{9.81}} = \\frac{{{speed**2} \\cdot "
            f"{sig(math.sin(2 * theta), 4)}}}{{9.81}} \\approx {sig(answer, 5)}$$\n"
        )
        return self.make(
            v,
            prompt=prompt,
            answer=answer,
            decimals=decimals,
            solution=solution,
            distractors=distractors,
            unit="m",
        )


GENERATORS = [ProjectileRange()]
