"""``type: computed``: numbers drawn from a seed, the answer computed, never typed.

A computed question names a plugin's generator, or writes its own formula::

    - id: orbit-period
      type: computed
      generator: orbit_period             # a plugin's (konum.plugins)
      params: {r: {min: 1, max: 50}, mass: [1, 2]}
      answer: choice                      # or numeric (the default)
      options: 4

    - id: newton-force
      type: computed
      formula: "m * a"                    # konum.computed.formula
      params: {m: {min: 2, max: 20}, a: {min: 0.5, max: 5, step: 0.5}}
      prompt: "A {{ m }} kg cart accelerates at {{ a }} m/s². What net force acts on it?"
      unit: N
      misconceptions:
        - {formula: "m / a", feedback: Force is mass times acceleration, not divided by it.}

Each question ships ``variants`` drawings (:func:`konum.computed.computed_variants`); "New
numbers" moves to the next. quiz.js's grader ``computed`` checks the variant shown as a
numeric or a choice question, with that variant's salt (:func:`variant_salt`, which the
page does not spell out).
"""

from __future__ import annotations

import html
import textwrap
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, Literal, cast

from markupsafe import Markup

from konum import limits
from konum.computed import FormulaGenerator, Generator, Recipe, check_formula
from konum.computed.base import places
from konum.computed.formula import DEFAULT_DECIMALS
from konum.computed.variants import (
    PromptTemplateError,
    check_generator,
    computed_variants,
    possible_draws,
)
from konum.fields import Reader
from konum.fields import num as message_number
from konum.formatting import typeset_number, with_unit
from konum.htmlcheck import scan_generated
from konum.lms import GiftWriter, MoodleDocument
from konum.model import Misconception, ParamConstraint, Variant
from konum.plugins import Plugins
from konum.qti_items import QtiDocument
from konum.types import computed_lms
from konum.types.base import (
    Card,
    Cards,
    Check,
    Concrete,
    Draw,
    Finding,
    Graded,
    Page,
    Print,
    PrintedQuestion,
    Probe,
    Question,
    answer_line,
    letter,
    section,
)
from konum.types.choice import choice_data, grade_choice, option_views, right_texts
from konum.types.numeric import grade_numeric, sealed_interval, tolerance_text
from konum.yamlsource import YMap

#: How a computed question is answered: a typed number, or a choice among computed options.
COMPUTED_ANSWERS = ("numeric", "choice")
#: The fields only a formula question (``formula:`` instead of ``generator:``) has.
FORMULA_ONLY_FIELDS = ("misconceptions", "tolerance")
MISCONCEPTION_FIELDS = ("formula", "feedback")


def variant_salt(salt: str, k: int) -> str:
    """The salt of variant ``k``'s hashes and sealed interval: the question's ``salt``,
    U+001F and ``k`` (quiz.js makes it the same way)."""
    return f"{salt}\x1f{k}"


@dataclass(frozen=True)
class ComputedQuestion(Question):
    """Numbers drawn from a seed, the answer computed: by a named generator or a formula.

    Exactly one of ``generator`` and ``formula`` is set. A generator (a plugin's,
    :mod:`konum.plugins`) declares its parameters, prompt, solution and misconceptions;
    ``params`` constrains them. A formula question (:mod:`konum.computed.formula`) declares
    its own: ``params`` names every value the ``formula`` uses, ``misconceptions`` are
    wrong formulas whose values are the distractors, and ``tolerance`` is the author's
    (absolute; None means half a unit of the last decimal plus slack). ``unit`` (None: a
    generator's own) is shown after the number, a non-breaking space between them.

    ``prompt`` may be empty for a generator question: the generator's own prompt is used.
    When given it is a Jinja template rendered with the drawn values. ``answer`` asks for a
    typed number or a choice among computed options (the answer and misconception
    distractors). ``decimals`` overrides the default precision (a generator's own, 2 for a
    formula).
    """

    generator: str = ""
    params: Mapping[str, ParamConstraint] = field(default_factory=dict)
    answer: Literal["numeric", "choice"] = "numeric"
    decimals: int | None = None
    options: int = 4
    formula: str | None = None
    misconceptions: tuple[Misconception, ...] = ()
    unit: str | None = None
    tolerance: float | None = None

    type: ClassVar[str] = "computed"
    FIELDS: ClassVar[tuple[str, ...]] = (
        "generator",
        "formula",
        "params",
        "answer",
        "options",
        "decimals",
        "misconceptions",
        "unit",
        "tolerance",
    )
    TEXTS: ClassVar[tuple[str, ...]] = ("unit", "misconceptions[].feedback")
    PROMPT_REQUIRED: ClassVar[bool] = False

    # --- load -------------------------------------------------------------------------------

    @classmethod
    def read(cls, r: Reader, node: YMap, common: dict[str, Any]) -> ComputedQuestion | None:
        formula = "formula" in node.entries
        generator = None
        if formula:
            text = r.text(node, "formula", "", required=True)
            if "generator" in node.entries:
                r.problem(
                    node.entries["generator"].key_mark,
                    "generator",
                    "give either 'generator' or 'formula', not both",
                )
            if "params" not in node.entries:
                r.missing(
                    node, "", "params", "a mapping of the formula's names to ranges or values"
                )
            if not common["prompt"]:
                wanted = "text that shows the drawn values as {{ name }}"
                prompt = node.get("prompt")
                if prompt is None:
                    r.missing(node, "", "prompt", wanted)
                else:
                    r.problem(prompt.mark, "prompt", "is empty", expected=wanted, found="nothing")
        else:
            text = None
            generator = r.text(node, "generator", "", required=False)
            if generator is None and "generator" not in node.entries:
                r.missing(node, "", "generator", "a generator's name (or a formula)")
            for key in FORMULA_ONLY_FIELDS:
                if key in node.entries:
                    r.problem(
                        node.entries[key].key_mark,
                        key,
                        f"'{key}' is for formula questions (with 'formula:'); the generator "
                        f"{generator or ''} gives its own".replace("  ", " "),
                    )
        params = r.params(node)
        form = cast(
            Literal["numeric", "choice"],
            r.choice(node, "answer", COMPUTED_ANSWERS, "numeric", "answer form"),
        )
        options = r.integer(node, "options", "", limits.COMPUTED_OPTIONS)
        if options is not None and form != "choice":
            r.problem(
                node.entries["options"].key_mark,
                "options",
                "'options' only applies with 'answer: choice'",
            )
        decimals = r.integer(node, "decimals", "", limits.DECIMALS)
        unit = r.text(node, "unit", "", required=False, markdown=True)
        if not formula:
            return cls(
                **common,
                generator=generator or "",
                params=params,
                answer=form,
                decimals=decimals,
                options=options or 4,
                unit=unit,
            )
        tolerance = _formula_tolerance(r, node, decimals)
        misconceptions = _misconceptions(r, node)
        wrong = len(misconceptions)
        if form == "choice" and "misconceptions" not in node.entries:
            r.missing(
                node, "", "misconceptions", "wrong formulas, whose values are the wrong options"
            )
        if form == "choice" and options is not None and wrong and options > wrong + 1:
            r.problem(
                node.entries["options"].value.mark,
                "options",
                f"{wrong} misconception{'s' if wrong != 1 else ''} give at most {wrong + 1} "
                "options (the answer and one per misconception)",
                expected=f"at most {wrong + 1}",
                found=str(options),
            )
        return cls(
            **common,
            params=params,
            answer=form,
            decimals=decimals,
            options=options or max(2, min(limits.COMPUTED_OPTIONS[1], wrong + 1)),
            formula=text,
            misconceptions=misconceptions,
            unit=unit,
            tolerance=tolerance,
        )

    # --- check, draw -----------------------------------------------------------------------

    def recipe(self, plugins: Plugins) -> Recipe:
        """What draws the question's variants.

        Raises:
            konum.plugins.UnknownGeneratorError: no plugin's generator of that name.
            konum.computed.FormulaError: the formula does not parse.
        """
        generator: Generator
        if self.formula is not None:
            generator = FormulaGenerator(
                self.id, self.formula, self.params, self.misconceptions, self.unit, self.tolerance
            )
        else:
            generator = plugins.generator(self.generator)
        return Recipe(
            self.id,
            generator,
            self.params,
            self.answer,
            self.options,
            self.decimals,
            self.prompt,
            self.unit,
        )

    def probe(self, ctx: Probe) -> tuple[list[Finding], ComputedQuestion]:
        """The generator exists and its params give questions (or the formulas hold on many
        drawings), they allow ``ctx.variants`` different variants, and the prompt template
        renders for a variant."""
        if self.formula is not None:
            found = [
                Finding(p.field, p.message, p.offset)
                for p in check_formula(
                    self.id,
                    self.formula,
                    self.params,
                    self.misconceptions,
                    choice=self.answer == "choice",
                    options=self.options,
                    decimals=self.decimals,
                )
            ]
        elif self.generator not in ctx.plugins.generators:
            return [Finding("generator", ctx.plugins.unknown_generator(self.generator))], self
        else:
            try:
                found = [Finding(p, m) for p, m in check_generator(self.recipe(ctx.plugins))]
            except Exception as exc:  # the generator's own bug must still not hide the bank
                message = f"the generator check failed ({type(exc).__name__}: {exc})"
                return [Finding("generator", message)], self
        if found:
            return found, self
        recipe = self.recipe(ctx.plugins)
        most = possible_draws(recipe)
        if most < ctx.variants:
            message = (
                f"the params ({', '.join(recipe.generator.params)}) allow at most {most} "
                f"different variant{'s' if most != 1 else ''}, fewer than the {ctx.variants} "
                "the site draws of each computed question: widen a range or add values (or "
                "lower the site's 'variants')"
            )
            return [Finding("params", message)], self
        if not self.prompt:
            return found, self
        try:
            (variant,) = computed_variants(recipe, 0, 1)
        except PromptTemplateError as exc:
            return [Finding("prompt", str(exc))], self
        except Exception as exc:  # a generator failure must still not hide the bank
            field = "formula" if self.formula is not None else "generator"
            return [Finding(field, f"drawing a variant failed ({type(exc).__name__}: {exc})")], self
        return [
            Finding("prompt", f"{issue.message} (in the text the template wrote)")
            for issue in scan_generated(self.prompt, variant.prompt)
        ], self

    def concrete(self, draw: Draw) -> Concrete:
        """``draw.variants`` variants, worded in ``draw.language`` (the same numbers in
        every language).

        Raises:
            ValueError: the generator or the prompt fails for the seed.
        """
        variants = computed_variants(
            self.recipe(draw.plugins), draw.seed, draw.variants, draw.language
        )
        return Concrete(self, draw.seed, variants=variants)

    # --- outputs -------------------------------------------------------------------------

    def view(self, concrete: Concrete, page: Page) -> dict[str, Any]:
        if not concrete.variants:
            raise ValueError("a computed question needs at least one variant")
        variants = []
        data_variants = []
        for k, v in enumerate(concrete.variants):
            vid = f"{page.dom_id}-v{k}"
            form = "choice" if v.options else "numeric"
            options = option_views(v.options, vid, page)
            variants.append(
                {
                    "index": k,
                    "id": vid,
                    "form": form,
                    "prompt": page.md(v.prompt),
                    "options": options,
                    "answers": right_texts(options),
                    "multiple": sum(o.correct for o in v.options) > 1,
                    "unit": v.unit,
                    "decimals": v.decimals,
                    "shown": typeset_number(v.shown_answer),
                    "solution": page.md(v.solution),
                }
            )
            vsalt = variant_salt(page.salt, k)
            entry: dict[str, Any] = {"form": form}
            if form == "choice":
                entry.update(choice_data(v.options, vsalt))
            else:
                entry["interval"] = sealed_interval(vsalt, v.answer, v.tolerance)
            data_variants.append(entry)
        first = _form_shape(variants[0])
        for view in variants[1:]:
            view["like_first"] = _form_shape(view) == first
        return {"variants": variants, "data": {"type": "computed", "variants": data_variants}}

    @classmethod
    def grade(cls, spec: Mapping[str, Any], check: Check) -> Graded:
        """The variant shown, as a choice or a numeric question, under its own salt."""
        variant = spec["variants"][check.variant]
        grader = grade_choice if variant["form"] == "choice" else grade_numeric
        return grader(variant, replace(check, salt=variant_salt(check.salt, check.variant)))

    def cards(self, concrete: Concrete, ctx: Cards) -> list[Card]:
        """One card per variant, keyed ``question:<id>:variant:<i>``."""
        cards = []
        for v in concrete.variants:
            front = ctx.md(v.prompt)
            shown = html.escape(with_unit(v.shown_answer, v.unit), quote=False)
            if v.options:
                front += ctx.options([o.text for o in v.options])
                letters = [letter(i) for i, o in enumerate(v.options) if o.correct]
                shown = f"{', '.join(letters)}. {shown}" if letters else shown
            back = (
                answer_line(ctx.say("cards.answer"), shown)
                + section(
                    "konum-solution", ctx.md(v.solution), heading=ctx.say("cards.worked_solution")
                )
                + ctx.explanation(self)
            )
            key = f"question:{self.id}:variant:{v.index}"
            cards.append(ctx.card(self, front, back, key=key, tags=("computed",)))
        return cards

    def moodle(self, doc: MoodleDocument, concrete: Concrete) -> None:
        """:func:`konum.types.computed_lms.moodle`: ``calculated``, or one question per variant."""
        computed_lms.moodle(self, doc, concrete)

    def gift(self, w: GiftWriter, concrete: Concrete) -> None:
        """:func:`konum.types.computed_lms.gift`: one question per variant, in a category."""
        computed_lms.gift(self, w, concrete)

    def qti(self, doc: QtiDocument, concrete: Concrete) -> None:
        """:func:`konum.types.computed_lms.qti`: a question group of the variants."""
        computed_lms.qti(self, doc, concrete)

    def printed(self, ctx: Print) -> PrintedQuestion:
        """The version's variant, drawn in the paper's language (its prompt, solution,
        options and shown answer already have the language's decimal mark)."""
        variant = ctx.variant(self)
        shown = typeset_number(with_unit(variant.shown_answer, variant.unit))
        prompt, figure = ctx.md(variant.prompt), ctx.figure(self.figure)
        solution = ctx.md(variant.solution)
        explanation = ctx.md(self.explanation) if self.explanation.strip() else None
        if variant.options:
            options = tuple(
                Markup(typeset_number(ctx.md(o.text, inline=True))) for o in variant.options
            )
            right = next(letter(k) for k, o in enumerate(variant.options) if o.correct)
            return PrintedQuestion(
                ctx.number,
                self.id,
                "choice",
                prompt,
                Markup("<strong>{}</strong> {}").format(right, shown),
                figure=figure,
                options=options,
                solution=solution,
                explanation=explanation,
            )
        answer_html = Markup("<strong>{}</strong> (± {})").format(
            shown, tolerance_text(variant.tolerance, ctx.language)
        )
        return PrintedQuestion(
            ctx.number,
            self.id,
            "numeric",
            prompt,
            answer_html,
            figure=figure,
            unit=variant.unit,
            solution=solution,
            explanation=explanation,
        )

    def preview(self, concrete: Concrete, plugins: Plugins) -> str | None:
        return format_preview(self, concrete.variants, plugins)


# --- reading ---------------------------------------------------------------------------------


def _formula_tolerance(r: Reader, node: YMap, decimals: int | None) -> float | None:
    value_node = node.get("tolerance")
    tolerance = r.tolerance(node, "tolerance")
    if tolerance is None or value_node is None:
        return None
    shown = DEFAULT_DECIMALS if decimals is None else decimals
    half = 0.5 * 10.0**-shown
    if tolerance < half * (1 - 1e-9):
        r.problem(
            value_node.mark,
            "tolerance",
            f"tolerance {message_number(tolerance)} is less than half a unit of the last "
            f"decimal (at {places(shown)}), so an answer rounded correctly could be refused",
            expected=f"tolerance >= {message_number(half)}",
            found=message_number(tolerance),
        )
        return None
    return tolerance


def _misconceptions(r: Reader, node: YMap) -> tuple[Misconception, ...]:
    seq = r.sequence(node, "misconceptions", "", required=False)
    found: list[Misconception] = []
    says = "each misconception must be a mapping such as '- formula: m / a' with 'feedback: ...'"
    for _, path, item in r.mappings(seq, "misconceptions", says):
        r.check_keys(item, path, MISCONCEPTION_FIELDS)
        formula = r.text(item, "formula", path, required=True)
        feedback = r.text(item, "feedback", path, required=True, markdown=True)
        if formula is not None and feedback is not None:
            found.append(Misconception(formula, feedback))
    if seq is not None and not seq.items:
        r.problem(
            seq.mark,
            "misconceptions",
            "no misconceptions listed",
            expected="at least one wrong formula (or leave the field out)",
            found="an empty list",
        )
    return tuple(found)


# --- outputs' helpers ------------------------------------------------------------------------


def _form_shape(variant: dict[str, Any]) -> tuple[object, ...]:
    """What a variant's form is made of besides its prompt and option texts: two variants
    of the same shape differ only in those (and in their ids)."""
    if variant["form"] == "choice":
        return ("choice", len(variant["options"]), variant["multiple"])
    return ("numeric", variant["unit"], variant["decimals"])


# --- konum preview -----------------------------------------------------------------------------

_INDENT = "    "


def _shown_value(x: object) -> str:
    """A drawn value as the bank writes it (``true``), a number as a prompt's ``{{ x }}``
    shows it (``2.25``, not ``2.250000``)."""
    if isinstance(x, bool):
        return "true" if x else "false"
    return str(x)


def _block(text: str) -> str:
    return textwrap.indent(text.strip("\n"), _INDENT)


def format_preview(
    question: ComputedQuestion, variants: tuple[Variant, ...], plugins: Plugins
) -> str:
    """A terminal-friendly description of ``variants`` of ``question`` (``konum preview``):
    per variant the drawn values, the prompt, the answer with its tolerance, the options
    with the misconception behind each distractor (as the generator describes it), and the
    worked solution, as Markdown source."""
    described = question.recipe(plugins).generator.misconceptions
    source = (
        f"formula {question.formula}"
        if question.formula is not None
        else f"generator {question.generator}"
    )
    header = (
        f"{question.id}  (bank {question.bank}, {source}, answer {question.answer}"
        + (f", {question.options} options" if question.answer == "choice" else "")
        + f", {len(variants)} variant{'s' if len(variants) != 1 else ''})"
    )
    lines = [header, "=" * min(len(header), 100)]
    for variant in variants:
        lines += ["", f"--- variant {variant.index} ---", "values:"]
        values = ", ".join(f"{k}={_shown_value(v)}" for k, v in variant.values.items())
        lines.append(_block(textwrap.fill(values, 92)))
        lines += ["prompt:", _block(variant.prompt)]
        lines.append(
            f"answer: {with_unit(variant.shown_answer, variant.unit)}   (exact "
            f"{variant.answer!r}, tolerance +/- {variant.tolerance:.3g}, "
            f"{places(variant.decimals)})"
        )
        if variant.options:
            lines.append("options:")
            for i, option in enumerate(variant.options):
                if option.correct:
                    lines.append(f"{_INDENT}{letter(i)}) {option.text}   <- correct")
                    continue
                key = option.misconception or "authored"
                about = described.get(key, "")
                lines.append(f"{_INDENT}{letter(i)}) {option.text}   [{key}] {about}".rstrip())
                if option.feedback and option.feedback != about:
                    lines.append(textwrap.indent(option.feedback, _INDENT * 2 + "feedback: "))
        lines += ["solution:", _block(variant.solution)]
    return "\n".join(lines) + "\n"
