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
from typing import Any, ClassVar, Literal

from markupsafe import Markup

from konum.computed import FormulaError, FormulaGenerator, Generator, Recipe, check_formula
from konum.computed.base import places
from konum.computed.variants import (
    Conditioned,
    PromptTemplateError,
    check_generator,
    computed_variants,
    possible_draws,
)
from konum.fields import Reader
from konum.formatting import typeset_number, with_unit
from konum.htmlcheck import scan_generated
from konum.lms import (
    GiftWriter,
    MoodleDocument,
    answer,
    category_path,
    literal,
    multichoice,
    numerical_answer,
    plain_number,
    units,
)
from konum.messages import message
from konum.model import Misconception, ParamConstraint, Variant
from konum.plugins import Plugins
from konum.qti_items import QtiDocument
from konum.types import base
from konum.types.base import answer_line, letter, section
from konum.types.choice import choice_data, grade_choice, option_views, right_texts
from konum.types.computed_moodle import moodle_lacks, wildcard_prompt, write_calculated
from konum.types.computed_read import read_fields
from konum.types.numeric import grade_numeric, sealed_interval, tolerance_text
from konum.yamlsource import YMap


def variant_salt(salt: str, k: int) -> str:
    """The salt of variant ``k``'s hashes and sealed interval: the question's ``salt``,
    U+001F and ``k`` (quiz.js makes it the same way)."""
    return f"{salt}\x1f{k}"


@dataclass(frozen=True)
class ComputedQuestion(base.Question):
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
    symbols: Mapping[str, str] = field(default_factory=dict)
    where: str | None = None

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
        "where",
    )
    TEXTS: ClassVar[tuple[str, ...]] = ("unit", "misconceptions[].feedback")
    PROMPT_REQUIRED: ClassVar[bool] = False

    # --- load -------------------------------------------------------------------------------

    @classmethod
    def read(cls, r: Reader, node: YMap, common: dict[str, Any]) -> ComputedQuestion | None:
        return cls(**common, **read_fields(r, node, common))

    # --- check, draw -----------------------------------------------------------------------

    def recipe(self, plugins: Plugins) -> Recipe:
        """What draws the question's variants.

        Raises:
            konum.plugins.UnknownGeneratorError: no plugin's generator of that name.
            konum.computed.FormulaError: the formula (or the ``where``) does not parse.
        """
        generator: Generator
        if self.formula is not None:
            generator = FormulaGenerator(
                self.id,
                *(self.formula, self.params, self.misconceptions, self.unit, self.tolerance),
                symbols=self.symbols,
                where=self.where,
            )
        elif self.where:
            generator = Conditioned(plugins.generator(self.generator), self.where)
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
            self.symbols,
        )

    def probe(self, ctx: base.Probe) -> tuple[list[base.Finding], ComputedQuestion]:
        """The generator exists and its params give questions (or the formulas hold on many
        drawings), they allow ``ctx.variants`` different variants, and the prompt template
        renders for a variant."""
        if self.formula is not None:
            found = [
                base.Finding(p.field, p.message, p.offset)
                for p in check_formula(
                    self.id,
                    self.formula,
                    self.params,
                    self.misconceptions,
                    choice=self.answer == "choice",
                    options=self.options,
                    decimals=self.decimals,
                    where=self.where,
                )
            ]
        elif self.generator not in ctx.plugins.generators:
            return [base.Finding("generator", ctx.plugins.unknown_generator(self.generator))], self
        else:
            try:
                recipe = self.recipe(ctx.plugins)
            except FormulaError as exc:  # the where: the generator itself was found
                return [base.Finding("where", exc.reason, exc.offset)], self
            try:
                found = [base.Finding(p, m) for p, m in check_generator(recipe)]
            except Exception as exc:  # the generator's own bug must still not hide the bank
                message = f"the generator check failed ({type(exc).__name__}: {exc})"
                return [base.Finding("generator", message)], self
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
            return [base.Finding("params", message)], self
        if not self.prompt:
            return found, self
        try:
            (variant,) = computed_variants(recipe, 0, 1)
        except PromptTemplateError as exc:
            return [base.Finding("prompt", str(exc))], self
        except Exception as exc:  # a generator failure must still not hide the bank
            field = "formula" if self.formula is not None else "generator"
            return [
                base.Finding(field, f"drawing a variant failed ({type(exc).__name__}: {exc})")
            ], self
        return [
            base.Finding("prompt", f"{issue.message} (in the text the template wrote)")
            for issue in scan_generated(self.prompt, variant.prompt)
        ], self

    def concrete(self, draw: base.Draw) -> base.Concrete:
        """``draw.variants`` variants, worded in ``draw.language`` (the same numbers in
        every language).

        Raises:
            ValueError: the generator or the prompt fails for the seed.
        """
        variants = computed_variants(
            self.recipe(draw.plugins), draw.seed, draw.variants, draw.language
        )
        return base.Concrete(self, draw.seed, variants=variants)

    # --- outputs -------------------------------------------------------------------------

    def view(self, concrete: base.Concrete, page: base.Page) -> dict[str, Any]:
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
    def grade(cls, spec: Mapping[str, Any], check: base.Check) -> base.Graded:
        """The variant shown, as a choice or a numeric question, under its own salt."""
        variant = spec["variants"][check.variant]
        grader = grade_choice if variant["form"] == "choice" else grade_numeric
        return grader(variant, replace(check, salt=variant_salt(check.salt, check.variant)))

    def cards(self, concrete: base.Concrete, ctx: base.Cards) -> list[base.Card]:
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

    def moodle(self, doc: MoodleDocument, concrete: base.Concrete) -> None:
        """A formula question as ``calculated`` (``calculatedmulti`` for the choice form):
        the formula in Moodle's syntax (``{m} * {a}``), one private dataset per parameter
        whose items are the variants konum drew, the tolerance (the largest of the
        variants') and the decimals shown; written one question per variant instead when
        Moodle cannot reproduce its prompt or options. A generator question: a category of
        its own holding one ``numerical`` (or ``multichoice``) question per variant, after
        the bank's questions, so that a quiz's "random question from category" gives each
        student other numbers."""
        text = calculated_form(self, concrete)
        if text is not None:
            self._calculated(doc, concrete, text)
        else:
            doc.later.append(lambda: self._per_variant(doc, concrete))

    def _per_variant(self, doc: MoodleDocument, concrete: base.Concrete) -> None:
        n = len(concrete.variants)
        said = message(doc.language, "cards.variants_category", question=self.id, n=n)
        doc.category(
            category_path(doc.deck, doc.bank_title, self.id),
            f"konum:{doc.bank_id}:{self.id}",
            f"<p>{html.escape(said)}</p>",
        )
        for variant in concrete.variants:
            number = variant.index + 1
            element = doc.question(
                "multichoice" if variant.options else "numerical",
                self,
                name=f"{self.id} #{number}",
                idnumber=f"konum:{self.id}:{number}",
                text=doc.html(variant.prompt),
                feedback=_variant_feedback(
                    doc.html, self, variant, message(doc.language, "cards.worked_solution")
                ),
            )
            if variant.options:
                multichoice(element, single=True, shuffle=True)
                for option in variant.options:
                    feedback = doc.html(option.feedback) if option.feedback else ""
                    text = doc.html(option.text, inline=True)
                    answer(element, 1.0 if option.correct else 0.0, text, feedback)
            else:
                numerical_answer(element, variant.answer, variant.tolerance)
                units(element, variant.unit)

    def _calculated(self, doc: MoodleDocument, concrete: base.Concrete, text: str) -> None:
        assert self.formula is not None
        multi = self.answer == "choice"
        element = doc.question(
            "calculatedmulti" if multi else "calculated",
            self,
            text=text,
            feedback=literal(doc.explanation(self)),
            literal_text=True,
        )
        write_calculated(
            element,
            formula=self.formula,
            misconceptions=self.misconceptions if multi else (),
            params=self.params,
            unit=doc.html(self.unit, inline=True) if self.unit else None,
            variants=concrete.variants,
            html=doc.html,
        )

    def gift(self, w: GiftWriter, concrete: base.Concrete) -> None:
        """A category of its own (``.../<bank title>/<question id>``) after the bank's
        questions, with one numeric (or choice) question per variant, as in the Moodle XML
        export."""
        w.later.append(lambda: self._gift_variants(w, concrete))

    def _gift_variants(self, w: GiftWriter, concrete: base.Concrete) -> None:
        w.category(w.deck, w.bank_title, self.id)
        for variant in concrete.variants:
            heading = message(w.language, "cards.worked_solution")
            solution = f"<p><strong>{heading}</strong></p>{w.html(variant.solution)}"
            head = w.head(f"{self.id} #{variant.index + 1}", w.html(variant.prompt))
            if variant.options:
                lines = [
                    f"  {'=' if o.correct else '~'}{w.part(w.html(o.text, inline=True))}"
                    f"{w.feedback(o.feedback)}"
                    for o in variant.options
                ]
                body = "\n".join(lines)
                w.add(f"{head}{{\n{body}{w.general(self, solution)}\n}}")
            else:
                shown = f"#{plain_number(variant.answer)}:{plain_number(variant.tolerance)}"
                # Moodle shows text after the answer after a blank: "_____ kPa".
                unit = f" {w.escape(w.html(variant.unit, inline=True))}" if variant.unit else ""
                w.add(f"{head}{{{shown}{w.general(self, solution)}\n}}{unit}")

    def qti(self, doc: QtiDocument, concrete: base.Concrete) -> None:
        """A question group of its variants, of which Canvas gives each student one ("pick
        1"), worth the question's points: each variant a ``numerical_question`` (or a
        ``multiple_choice_question`` with the misconceptions' feedback), its worked solution
        and the explanation as its general feedback. Formula and generator questions alike."""
        group, heading = doc.group(self), message(doc.language, "cards.worked_solution")
        for v in concrete.variants:
            feedback = _variant_feedback(doc.html, self, v, heading)
            kind = "multiple_choice_question" if v.options else "numerical_question"
            item = group.item(kind, self, doc.html(v.prompt), v.index + 1, feedback)
            if v.options:
                item.choice([(o.text, o.correct, o.feedback, False) for o in v.options])
            else:
                item.numeric(v.answer, v.tolerance, v.unit)

    def printed(self, ctx: base.Print) -> base.PrintedQuestion:
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
            return base.PrintedQuestion(
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
        return base.PrintedQuestion(
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

    def preview(self, concrete: base.Concrete, plugins: Plugins) -> str | None:
        return format_preview(self, concrete.variants, plugins)


# --- outputs' helpers ------------------------------------------------------------------------


def _form_shape(variant: dict[str, Any]) -> tuple[object, ...]:
    """What a variant's form is made of besides its prompt and option texts: two variants
    of the same shape differ only in those (and in their ids)."""
    if variant["form"] == "choice":
        return ("choice", len(variant["options"]), variant["multiple"])
    return ("numeric", variant["unit"], variant["decimals"])


def _variant_feedback(md: Any, q: ComputedQuestion, variant: Variant, heading: str) -> str:
    explanation = md(q.explanation) if q.explanation.strip() else ""
    return f"<p><strong>{heading}</strong></p>{md(variant.solution)}" + explanation


def _multi_ready(q: ComputedQuestion, concrete: base.Concrete) -> bool:
    """Every variant shows the answer and one option per misconception, nothing else."""
    wanted = {m.formula for m in q.misconceptions}
    for variant in concrete.variants:
        shown = [o.misconception for o in variant.options if not o.correct]
        if len(shown) != len(wanted) or set(shown) != wanted:
            return False
    return True


def calculated_form(q: ComputedQuestion, concrete: base.Concrete) -> str | None:
    """The prompt with wildcards when ``q`` is written as a calculated question (a formula
    question whose prompt and options Moodle can reproduce), else None."""
    from konum.lms import lms_html

    if q.formula is None or not concrete.variants:
        return None
    if moodle_lacks([q.formula, *(m.formula for m in q.misconceptions)]):
        return None
    if q.answer == "choice" and not _multi_ready(q, concrete):
        return None
    return wildcard_prompt(q.prompt, q.params, q.symbols, concrete.variants, lms_html)


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
