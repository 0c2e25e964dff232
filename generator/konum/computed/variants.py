"""Seeded variants of computed questions: the numbers a reader sees for one site seed.

Variant ``i`` of question ``q`` draws from ``rng_for(seed, q.id, i)``; when a draw cannot give
enough distinct options (at the precision shown) it retries with
``rng_for(seed, q.id, i, attempt)``. So a question's numbers depend only on the site seed, its
id and the variant index, never on other questions.

The choice form shows the answer and ``options - 1`` distractors (in the generator's order of
preference, skipping any too close to the answer or to one already picked, see
:func:`apart`), shuffled by the same generator, so the correct option's position is uniform
over the slots.
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Literal, TypeGuard, cast

import numpy as np

from konum import limits, paths
from konum.computed.base import (
    Distractor,
    Generated,
    Generator,
    GeneratorError,
    GeneratorFailure,
    GeneratorTimeout,
    SpeakingGenerator,
    _show,
    hidden_answer,
    lattice,
    places,
    shown_values,
)
from konum.computed.constraints import check_constraint
from konum.computed.expression import FormulaError, parse
from konum.formatting import did_you_mean, format_number, localize_numbers
from konum.model import Choices, ConcreteOption, ParamConstraint, Variant
from konum.sandbox import SandboxedTemplate, SandboxError, sandbox
from konum.seeding import rng_for

#: Shown options of a rounded answer differ by at least this many units of the last decimal
#: (0.9998 / 0.9999 / 1.0000 would ask the reader to round, not to know) ...
MIN_GAP_UNITS = 2
#: ... and by at least this fraction of the larger of the two (3.1416 / 3.1419 likewise).
MIN_RELATIVE_GAP = 0.02


class PromptTemplateError(ValueError):
    """A computed question's prompt is not a valid Jinja template for the drawn values."""


def apart(a: str, b: str, decimals: int, *, exact: bool) -> bool:
    """Whether two shown options ``a`` and ``b`` (numbers as text) are far enough apart.

    Exact answers (integers by nature: a column, a bucket, a count) need only differ: a
    count off by one row is the mistake the option stands for. Rounded answers need
    :data:`MIN_GAP_UNITS` units of the last decimal and :data:`MIN_RELATIVE_GAP` of the
    larger magnitude between them.
    """
    if exact:
        return a != b
    x, y = float(a), float(b)
    gap = abs(x - y)
    needed = max(MIN_GAP_UNITS * 10.0**-decimals, MIN_RELATIVE_GAP * max(abs(x), abs(y)))
    return gap >= needed * (1 - 1e-9)


def pick_distractors(generated: Generated, needed: int) -> tuple[Distractor, ...] | None:
    """The first ``needed`` distractors that show :func:`apart` from the answer and from each
    other at ``generated.decimals``; None when there are not enough (the caller redraws)."""
    decimals, exact = generated.decimals, generated.tolerance == 0
    shown = [format_number(generated.answer, decimals)]
    picked: list[Distractor] = []
    for distractor in generated.distractors:
        text = format_number(distractor.value, decimals)
        if not all(apart(text, other, decimals, exact=exact) for other in shown):
            continue
        shown.append(text)
        picked.append(distractor)
        if len(picked) == needed:
            return tuple(picked)
    return None


def draw_variant(
    generator: Generator,
    params: Mapping[str, ParamConstraint],
    *,
    form: Literal["numeric", "choice"],
    options: int,
    decimals: int | None,
    rng: np.random.Generator,
    language: str = "en",
    unit: str | None = None,
) -> tuple[Generated, tuple[ConcreteOption, ...] | None]:
    """One drawing and, for the choice form, its shuffled options (None: not enough options;
    the numeric form has none).

    The generator words it in ``language`` when it can (:func:`speaks`), in English
    otherwise; the draw is the same in every language. ``unit`` (the question's) replaces
    the generator's; the options show it after the number, as :func:`format_number` does.

    Raises:
        GeneratorError: the constraints leave no usable draw.
    """
    seconds = limits.GENERATOR_SECONDS
    try:
        late = f"{generator.name}: one drawing took longer than {seconds} s"
        with limits.time_limit(seconds, late):
            if language != "en" and speaks(generator):
                generated = generator.generate(rng, params, decimals, language=language)
            else:
                generated = generator.generate(rng, params, decimals)
    except limits.TimeLimitError as exc:
        raise GeneratorTimeout(f"{exc} (a loop that never ends?)") from None
    generated = replace(generated, unit=unit or generated.unit)
    if form != "choice":
        return generated, ()
    picked = pick_distractors(generated, options - 1)
    if picked is None:
        return generated, None
    shown_answer = format_number(generated.answer, generated.decimals, generated.unit, language)
    choices = [ConcreteOption(text=shown_answer, correct=True)] + [
        ConcreteOption(
            text=format_number(d.value, generated.decimals, generated.unit, language),
            correct=False,
            feedback=localize_numbers(d.feedback, language),
            misconception=d.misconception,
        )
        for d in picked
    ]
    order = rng.permutation(len(choices))
    return generated, tuple([choices[i] for i in order.tolist()])


def speaks(generator: Generator) -> TypeGuard[SpeakingGenerator]:
    """True when ``generator.generate`` takes a ``language`` (the course's generators do;
    a user's generator written before languages existed words everything in English)."""
    try:
        return "language" in inspect.signature(generator.generate).parameters
    except (TypeError, ValueError):
        return False


class WhereError(GeneratorError):
    """No drawing of a generator met the question's ``where``."""


class Conditioned:
    """A plugin's generator whose drawings must meet a question's ``where`` (a condition
    over its numeric params, :func:`konum.computed.expression.parse`): a drawing that
    breaks it is drawn again, at most :data:`konum.limits.GENERATOR_DRAWS` times.

    Raises (when made):
        FormulaError: the condition does not parse (a name that is not a numeric param).
    """

    def __init__(self, generator: Generator, where: str) -> None:
        self.inner = generator
        self.name, self.title, self.params = generator.name, generator.title, generator.params
        self.default_decimals = generator.default_decimals
        self.misconceptions = generator.misconceptions
        numeric = [n for n, spec in generator.params.items() if spec.kind in ("int", "float")]
        self.where = parse(where, tuple(numeric), condition=True)

    def generate(
        self,
        rng: np.random.Generator,
        constraints: Mapping[str, ParamConstraint],
        decimals: int | None = None,
        language: str = "en",
    ) -> Generated:
        """A drawing of the generator that meets the condition.

        Raises:
            WhereError: none did in :data:`~konum.limits.GENERATOR_DRAWS` drawings.
        """
        for _ in range(limits.GENERATOR_DRAWS):
            if language != "en" and speaks(self.inner):
                generated = self.inner.generate(rng, constraints, decimals, language=language)
            else:
                generated = self.inner.generate(rng, constraints, decimals)
            values = cast(Mapping[str, float], generated.values)
            try:
                if self.where.evaluate(values):
                    return generated
            except FormulaError as exc:
                shown = shown_values(values, list(self.where.names))
                raise WhereError(f"'{self.where.text}' fails for {shown}: {exc.reason}") from None
        raise WhereError(
            f"no drawing of {self.name} meets '{self.where.text}' "
            f"({limits.GENERATOR_DRAWS} tried): widen "
            "the params or loosen the condition"
        )


@dataclass(frozen=True)
class Recipe:
    """What draws the variants of one computed question: its id (the seeds' key), its
    generator (a plugin's, or a formula's), the constraints on its params, the answer form,
    the options of the choice form, the decimals asked for (None: the generator's), the
    author's prompt template (empty: the generator's own prompt) and unit (None: the
    generator's), and how params are written (``symbols``: LaTeX by name, which a prompt
    reads as ``{{ symbol.xbar }}``)."""

    qid: str
    generator: Generator
    params: Mapping[str, ParamConstraint]
    form: Literal["numeric", "choice"] = "numeric"
    options: int = 4
    decimals: int | None = None
    prompt: str = ""
    unit: str | None = None
    symbols: Mapping[str, str] = field(default_factory=dict)


@lru_cache(maxsize=1024)
def _compiled(prompt: str) -> SandboxedTemplate:
    """``prompt`` compiled once (templates render any number of times) in the sandbox, where
    it sees the drawn values and ``fmt``.

    Raises:
        SandboxError: a syntax error, a refused tag, or more tags than
            :data:`konum.limits.TEMPLATE_TAGS` (counted before compiling, which takes time
            in proportion to them), with its line in the prompt.
    """
    past = limits.tags_past_limit(prompt)
    if past is not None:
        count, line = past
        raise SandboxError(
            f"it holds {count:,} {{{{ ... }}}} and {{% ... %}} tags, more than the "
            f"{limits.TEMPLATE_TAGS:,} a prompt may hold",
            line,
        )
    return sandbox().from_string(prompt)


def computed_variants(
    recipe: Recipe, seed: int, count: int = limits.DEFAULT_VARIANTS, language: str = "en"
) -> tuple[Variant, ...]:
    """``count`` variants of ``recipe``'s question for the site ``seed``, worded in
    ``language``.

    The numbers depend on the seed, the question id and the variant only: every language
    draws the same values, answers and option order; ``language`` changes the words and
    the decimal mark of the shown numbers (:func:`konum.formatting.localize_numbers`).
    The variants are distinct: a drawing with the values of an earlier variant is drawn
    again, as one without enough options is.

    Raises:
        GeneratorError: the generator cannot produce the question from its params (not
            enough distinct distractors, or no values unlike the earlier variants', in
            :data:`konum.limits.VARIANT_DRAWS` draws); names the question.
        PromptTemplateError: the prompt is not a valid template for the values.
    """
    qid, generator = recipe.qid, recipe.generator
    template = None
    if recipe.prompt.strip():
        try:
            template = _compiled(recipe.prompt)
        except SandboxError as exc:
            raise PromptTemplateError(
                f"question {qid}: the prompt is not a valid Jinja template: {exc}"
            ) from exc
    variants = []
    seen: set[str] = set()
    for index in range(count):
        for attempt in range(limits.VARIANT_DRAWS):
            rng = rng_for(seed, qid, index) if attempt == 0 else rng_for(seed, qid, index, attempt)
            try:
                generated, options = draw_variant(
                    generator,
                    recipe.params,
                    form=recipe.form,
                    options=recipe.options,
                    decimals=recipe.decimals,
                    rng=rng,
                    language=language,
                    unit=recipe.unit,
                )
            except GeneratorError as exc:
                raise GeneratorError(f"question {qid}: {exc}") from exc
            key = repr(tuple(generated.values.items()))
            if options is not None and key not in seen:
                seen.add(key)
                break
        else:
            why = (
                f"gave fewer than {recipe.options - 1} distractors that differ at the "
                "precision shown"
                if options is None
                else f"drew no values unlike those of the {index} variants before"
            )
            raise GeneratorError(
                f"question {qid}: {generator.name} {why} in {limits.VARIANT_DRAWS} draws; ask for "
                "fewer options or variants, more decimals or wider params"
            )
        prompt = generated.prompt
        if template is not None:
            try:
                symbols = {"symbol": dict(recipe.symbols)} if recipe.symbols else {}
                prompt = template.render({**generated.values, **symbols})
            except SandboxError as exc:
                raise PromptTemplateError(
                    f"question {qid}: the prompt template failed for variant {index}: "
                    f"{exc} (available values: {', '.join(sorted(generated.values))})"
                ) from exc
        variants.append(
            Variant(
                index=index,
                values=generated.values,
                prompt=localize_numbers(prompt, language),
                answer=generated.answer,
                shown_answer=format_number(generated.answer, generated.decimals, language=language),
                decimals=generated.decimals,
                tolerance=generated.tolerance,
                unit=generated.unit,
                solution=localize_numbers(generated.solution, language),
                options=options,
            )
        )
    return tuple(variants)


#: Drawings (with a fixed seed) that check that the params really give usable questions ...
PROBE_DRAWINGS = 24
#: ... and, of a value that gave no options in two of them or more, drawings with it held.
HELD_DRAWINGS = 12


def possible_draws(recipe: Recipe) -> int:
    """How many different drawings ``recipe``'s params allow at most: the product of the
    parameters' counts of values (a generator's dependent bounds and redrawn cases allow
    fewer)."""
    count = 1
    for name, spec in recipe.generator.params.items():
        c = recipe.params.get(name, spec.default)
        count *= (
            len({repr(v) for v in c.values}) if isinstance(c, Choices) else lattice(spec, c).count
        )
    return count


def check_generator(recipe: Recipe) -> list[tuple[str, str]]:
    """Problems with a computed question that names a generator, as ``(field path,
    message)`` pairs (``params.<name>``, ``params`` for the combination, ``options``,
    ``decimals``).

    Every param must be declared (with a suggestion) and its constraint of the right kind,
    not empty and inside the allowed bounds; the choice form's options must not outnumber
    the generator's misconceptions plus the answer. When nothing else is wrong,
    :data:`PROBE_DRAWINGS` drawings are made with a fixed seed: the params must leave usable
    draws whose answers show at the decimals asked (:func:`hidden_answer`) and, for the
    choice form, enough distinct distractors, for every value a parameter is drawn with (a
    value that never gives them is one no reader sees).
    """
    gen = recipe.generator
    problems: list[tuple[str, str]] = []
    for name, constraint in recipe.params.items():
        spec = gen.params.get(name)
        if spec is None:
            problems.append(
                (
                    f"params.{name}",
                    f"unknown parameter {name!r} of {gen.name}{did_you_mean(name, gen.params)} "
                    f"(parameters: {', '.join(gen.params)})",
                )
            )
            continue
        message = check_constraint(spec, constraint)
        if message:
            problems.append((f"params.{name}", message))
    kinds = len(gen.misconceptions)
    if recipe.form == "choice" and recipe.options - 1 > kinds:
        problems.append(
            (
                "options",
                f"{gen.name} can produce at most {kinds} distinct distractor"
                f"{'s' if kinds != 1 else ''} ({', '.join(gen.misconceptions)}), so a choice "
                f"question takes at most {kinds + 1} options; found {recipe.options}",
            )
        )
    if problems:
        return problems
    names = list(gen.params)
    try:
        drawn = _drawings(recipe, recipe.params, PROBE_DRAWINGS, "")
        hidden = [
            hidden_answer(g.answer, g.decimals, shown_values(g.values, names)) for g, _ in drawn
        ]
        some = any(ok for _, ok in drawn)
        never = _never_gives(recipe, drawn) if some and not any(hidden) else None
    except GeneratorTimeout as exc:
        return [("generator", str(exc))]
    except WhereError as exc:
        return [("where", str(exc))]
    except GeneratorFailure as exc:
        at = f"{exc.where}, for {exc.values}"
        if isinstance(exc.error, ValueError):  # the subject's code refused a drawn combination
            return [("params", f"the generator rejects values these params allow: {exc.error}{at}")]
        return [("generator", f"the generator check failed ({exc.detail}){at}")]
    except GeneratorError as exc:
        return [("params", str(exc))]
    except ValueError as exc:  # a generator of its own kind (not a BaseGenerator) refused them
        return [("params", f"the generator rejects values these params allow: {exc}")]
    if any(hidden):
        return [("decimals", next(h for h in hidden if h))]
    shown = places(gen.default_decimals if recipe.decimals is None else recipe.decimals)
    wanted = (
        f"{recipe.options - 1} distractors that differ from the answer and each other at {shown}"
    )
    if not some:
        try:
            own = _always_the_answer(_drawings(recipe, {}, HELD_DRAWINGS, "own"))
        except GeneratorError:  # its own defaults draw nothing: nothing to compare with
            own = []
        same = [key for key in _always_the_answer(drawn) if key in own]
        if same:
            return [
                (
                    "generator",
                    f"{gen.name}'s distractor for the misconception '{same[0]}' equals the answer "
                    f"on every drawing checked, with these params and with its own defaults: a "
                    f"mistake in the generator{raised_in(gen)}, not in the bank's options",
                )
            ]
        return [
            (
                "options",
                f"with these params {gen.name} cannot give {wanted}; ask for fewer options, "
                "more decimals or wider params",
            )
        ]
    if never is not None:
        name, values = never
        them = "them" if " or " in values else "it"
        return [
            (
                f"params.{name}" if name in recipe.params else "options",
                f"with {name} = {values}, {gen.name} never gave {wanted} ({HELD_DRAWINGS} "
                f"drawings or more each), so no reader sees {them}: leave {them} (and any "
                f"like {them}) out of params.{name}, ask for fewer options or show more decimals",
            )
        ]
    return []


def _always_the_answer(drawn: list[tuple[Generated, bool]]) -> list[str]:
    """The misconceptions whose distractor shows as the answer in every one of ``drawn``."""
    keys: list[str] | None = None
    for generated, _ in drawn:
        answer = format_number(generated.answer, generated.decimals)
        equal = [
            d.misconception
            for d in generated.distractors
            if format_number(d.value, generated.decimals) == answer
        ]
        keys = equal if keys is None else [k for k in keys if k in equal]
    return keys or []


def raised_in(generator: Generator) -> str:
    """`` (generators/stats.py)``: the file of ``generator``'s class, when it has one."""
    try:
        file = inspect.getsourcefile(type(generator))
    except TypeError:
        return ""
    return f" ({paths.shown(Path(file), Path.cwd())})" if file else ""


def _drawings(
    recipe: Recipe, params: Mapping[str, ParamConstraint], count: int, salt: str
) -> list[tuple[Generated, bool]]:
    """``count`` drawings of ``recipe``'s generator under ``params`` (fixed seeds, keyed by
    ``salt``), each with whether it gives the options asked."""
    found = []
    for index in range(count):
        generated, options = draw_variant(
            recipe.generator,
            params,
            form=recipe.form,
            options=recipe.options,
            decimals=recipe.decimals,
            rng=rng_for(0, "konum-validate", recipe.generator.name, salt, index),
        )
        found.append((generated, options is not None))
    return found


def _never_gives(recipe: Recipe, drawn: list[tuple[Generated, bool]]) -> tuple[str, str] | None:
    """The first parameter with values that gave no options in two of ``drawn`` or more,
    nor in :data:`HELD_DRAWINGS` more with each held, and those values (as text)."""
    if recipe.form != "choice":
        return None
    for name in recipe.generator.params:
        tried: dict[str, tuple[object, list[bool]]] = {}
        for generated, ok in drawn:
            value = generated.values.get(name)
            tried.setdefault(repr(value), (value, []))[1].append(ok)
        never = []
        for value, oks in tried.values():
            if value is None or len(oks) < 2 or any(oks):
                continue
            held = {**recipe.params, name: Choices((value,))}
            try:
                again = _drawings(recipe, held, HELD_DRAWINGS, name)
            except GeneratorError:  # held, the value leaves no usable draw at all
                continue
            if not any(ok for _, ok in again):
                never.append(_show(value))
        if never:
            return name, " or ".join([", ".join(never[:-1]), never[-1]] if never[1:] else never)
    return None
