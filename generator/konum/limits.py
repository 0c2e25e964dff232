"""The limits every entry point checks, in one table.

The bank validator (:mod:`konum.load`), the computed-question checks
(:mod:`konum.computed.variants`), the command line and the Markdown extension's config all
read these, so a value one of them accepts is accepted by every other. Ranges are inclusive
``(low, high)`` pairs of ints.
"""

from __future__ import annotations

#: Decimals a numeric or computed answer is asked to. Past 8 the digits are float noise for
#: the generators' answers (and the tolerance nears a double's spacing); no reader types them.
DECIMALS = (0, 8)

#: Options of a computed choice question: the answer and up to five distractors.
COMPUTED_OPTIONS = (2, 6)

#: Fewest options of a choice question, and fewest pairs of a matching question.
MIN_OPTIONS = 2
MIN_PAIRS = 2

#: Fewest items of an ordering question (two items have only one wrong order).
MIN_ITEMS = 3

#: Checks a question or quiz may allow with ``attempts``.
ATTEMPTS = (1, 20)

#: Largest ``points`` a question may be worth.
MAX_POINTS = 100

#: A question's optional difficulty.
DIFFICULTY = (1, 3)

#: Variants drawn per computed question (site config and command line).
VARIANTS = (1, 50)

#: The site seed: a non-negative 64-bit signed integer, so that every tool stores it.
SEED = (0, 2**63 - 1)

#: Largest magnitude of a number written in a bank (answers, tolerances, range bounds,
#: parameter values, figure parameters). It stays below 2**53, past which a double (the
#: reader's browser's numbers) no longer holds every integer; longer numbers are typos.
MAX_NUMBER = 10**15

#: Questions a quiz block may draw (``draw:``), and its longest exam (``time_limit``, seconds).
MAX_DRAW = 200
TIME_LIMIT = 6 * 60 * 60
