"""The limits every entry point checks, in one table.

The bank validator (:mod:`konum.load`), the computed-question checks
(:mod:`konum.computed.variants`), the command line and the Markdown extension's config all
read these, so a value one of them accepts is accepted by every other. Ranges are inclusive
``(low, high)`` pairs of ints.
"""

from __future__ import annotations

import contextlib
import itertools
import re
import signal
import threading
from collections.abc import Iterator

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

#: Variants drawn per computed question (site config and command line), and how many when
#: the site does not say.
VARIANTS = (1, 50)
DEFAULT_VARIANTS = 5

#: Worker processes for the check (site config and ``--jobs``): 0 means one per core.
JOBS = (0, 256)

#: The site seed: a non-negative 64-bit signed integer, so that every tool stores it.
SEED = (0, 2**63 - 1)

#: Largest magnitude of a number written in a bank (answers, tolerances, range bounds,
#: parameter values, figure parameters). It stays below 2**53, past which a double (the
#: reader's browser's numbers) no longer holds every integer; longer numbers are typos.
MAX_NUMBER = 10**15

#: Questions a quiz block may draw (``draw:``), and its longest exam (``time_limit``, seconds).
MAX_DRAW = 200
TIME_LIMIT = 6 * 60 * 60

#: Largest YAML file konum reads (a bank, a translation, ``mkdocs.yml`` and every
#: configuration it inherits or names), its deepest nesting, and the most values its
#: aliases may expand to (:mod:`konum.yamlsource`).
YAML_BYTES = 1_000_000
YAML_DEPTH = 40
YAML_NODES = 50_000

#: ``{{ ... }}`` and ``{% ... %}`` tags one page or one computed question's prompt may hold,
#: counted before it is compiled (:func:`tags_past_limit`): compiling takes time in
#: proportion to them, and a lesson prints a table or a vector with one tag.
TEMPLATE_TAGS = 10_000

#: The opening of a template tag: ``{{`` (an expression) or ``{%`` (a statement).
_TAG = re.compile(r"\{[{%]")


def tags_past_limit(text: str) -> tuple[int, int] | None:
    """``(tags, line)`` when ``text`` holds more than :data:`TEMPLATE_TAGS` template tags:
    how many, and the line (1-based) of the first one past the limit; None otherwise."""
    beyond = next(itertools.islice(_TAG.finditer(text), TEMPLATE_TAGS, None), None)
    if beyond is None:
        return None
    return sum(1 for _ in _TAG.finditer(text)), text.count("\n", 0, beyond.start()) + 1


#: Seconds a plugin's module may take to import, and one drawing of a generator to finish.
PLUGIN_IMPORT_SECONDS = 30
GENERATOR_SECONDS = 10

#: How many times a generator (:meth:`konum.computed.BaseGenerator.generate`) draws again
#: before giving up on its constraints: drawings of numbers, not :data:`MAX_DRAW`'s questions.
GENERATOR_DRAWS = 200

#: Draws tried per variant of a computed question before giving up (the first is
#: ``rng_for(seed, id, i)``): drawings of numbers, not :data:`ATTEMPTS`' checks.
VARIANT_DRAWS = 50

#: Longest formula, in characters (checked before the text is parsed).
FORMULA_CHARS = 1000

#: Most operations inside one another (``sqrt(1 + (2 * (3 ...)))``; ``a + b + c`` is two).
FORMULA_DEPTH = 64

#: Most nodes (numbers, names, operations) in one formula.
FORMULA_NODES = 400

#: Most values one parameter's range may hold (beyond it, ``step`` is surely a typo).
RANGE_VALUES = 10**12

#: Largest ``n`` whose ``n!`` a float holds.
FACTORIAL_N = 170

#: Largest whole number a float holds exactly.
FLOAT_WHOLE = 2**53

#: Largest image file: each page that shows an image carries it (base64, a third larger).
IMAGE_BYTES = 512 * 1024

#: Widest or highest raster image, in pixels.
IMAGE_SIDE = 8192

#: The longest id made from a name; a slug is cut at a hyphen before it.
IMPORTED_ID_CHARS = 48

#: Characters of one Markdown text of a bank.
TEXT_CHARS = 5_000

#: Levels of nested lists and quotes, of open ``[`` and ``(``, and of HTML elements in one
#: Markdown text.
TEXT_NESTING = 20

#: HTML tags in one Markdown text.
TEXT_TAGS = 200

#: Decimals a page's template may print a number with (:func:`konum.sandbox.fmt` and the
#: lessons' helpers): more than :data:`DECIMALS`, which bounds what a reader is asked to type.
TEMPLATE_DECIMALS = 15

#: How deep an image's elements may nest (drawings from editors nest a few dozen levels;
#: the cleaner and the serialiser recurse, one level per element).
SVG_DEPTH = 100

#: Numbers one vec() or table() may print: more is no longer a sentence or a table.
PRINTED_NUMBERS = 100_000

#: Deepest nesting of elements in a page (konum's pages nest a few dozen deep).
PAGE_DEPTH = 200


class TimeLimitError(Exception):
    """Code of a plugin ran past its :func:`time_limit`."""


@contextlib.contextmanager
def time_limit(seconds: float, message: str) -> Iterator[None]:
    """Raise :class:`TimeLimitError` (``message``) in the block once it has run ``seconds``.

    A plugin's code runs in konum's process, so a loop that never ends would hang the build;
    the alarm (``SIGALRM``) interrupts Python code, between bytecodes. It works on POSIX in
    the main thread (every command, MkDocs' and Zensical's builds); elsewhere, and inside
    another time limit, the block runs unbounded.
    """
    main = threading.current_thread() is threading.main_thread()
    if not hasattr(signal, "setitimer") or not main:
        yield
        return
    if signal.getitimer(signal.ITIMER_REAL)[0] > 0:  # an outer limit is running
        yield
        return

    def expired(signum: int, frame: object) -> None:
        raise TimeLimitError(message)

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
