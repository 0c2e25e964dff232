"""``type: choice``: options to choose from, one right (radio buttons) or several (checkboxes).

In a bank::

    - id: sin-why-pairs
      type: choice
      prompt: Why do sine and cosine come in pairs?
      options:
        - text: So that a shift is a rotation of each pair.
          correct: true
        - text: To double the model dimension.
          feedback: The dimension is fixed; the pairs share it.
        - text: None of the above.
          pin: true          # stays last when the others are shuffled
      shuffle: true          # the default

quiz.js's grader ``choice`` marks option ``i`` (in the order shown) right when
``answer_hash(salt, "o", i)`` is in the data's ``right``. Partial credit with several right
options: a share per right option ticked, less one per wrong one (the authoring page).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from markupsafe import Markup

from konum import limits, seal
from konum.fields import Reader, norm
from konum.formatting import typeset_number
from konum.lms import MAX_SHARES, GiftWriter, MoodleDocument, answer, multichoice
from konum.model import ConcreteOption
from konum.qti_items import QtiDocument
from konum.seeding import rng_for
from konum.types import base
from konum.types.base import answer_line, letter
from konum.yamlsource import Mark, YMap

OPTION_FIELDS = ("text", "correct", "feedback", "pin")


@dataclass(frozen=True)
class Option:
    """One option. ``pin`` keeps it in place when the others are shuffled ("all of the
    above" options are pinned last by their authors); ``feedback`` says why it is wrong (or
    right), shown after checking."""

    text: str
    correct: bool
    feedback: str | None = None
    pin: bool = False


def option_order(question: ChoiceQuestion, seed: int) -> tuple[int, ...]:
    """Display order of a choice question's options (indices): pinned options keep their
    place, the others are shuffled by seed unless the question says ``shuffle: false``."""
    count = len(question.options)
    if not question.shuffle:
        return tuple(range(count))
    free = [i for i, option in enumerate(question.options) if not option.pin]
    shuffled = [free[i] for i in rng_for(seed, question.id, "options").permutation(len(free))]
    return tuple(i if option.pin else shuffled.pop(0) for i, option in enumerate(question.options))


# --- what computed questions' choice form shares ---------------------------------------------


def option_views(
    options: Sequence[ConcreteOption], dom_id: str, page: base.Page
) -> list[dict[str, Any]]:
    """The options of a choice (authored or computed) for ``_macros.html.j2``."""
    return [
        {
            "index": i,
            "id": f"{dom_id}-opt-{i}",
            "text": Markup(typeset_number(page.md(o.text, inline=True))),
            "correct": o.correct,
            "feedback": page.md(o.feedback) if o.feedback else None,
        }
        for i, o in enumerate(options)
    ]


def choice_data(options: Sequence[ConcreteOption], salt: str) -> dict[str, Any]:
    """How quiz.js checks a choice: option ``i`` (in display order) is right when
    ``answer_hash(salt, "o", i)`` is in ``right``."""
    return {
        "count": len(options),
        "multiple": sum(o.correct for o in options) > 1,
        "right": seal.hashes(salt, [f"o\x1f{i}" for i, o in enumerate(options) if o.correct]),
    }


def grade_choice(spec: Mapping[str, Any], check: base.Check) -> base.Graded:
    """quiz.js's ``gradeChoice``: ``check.values`` are the options' ticks in display order.
    Several right options earn a share per right one ticked, less one per wrong one."""
    say, picked = check.say, {i for i, on in enumerate(check.values) if on}
    right = {
        i for i in range(spec["count"]) if seal.answer_hash(check.salt, "o", i) in spec["right"]
    }
    if not picked:
        return base.Graded(False, say("quiz.choose_first"), retry=True)
    wrong, missing = len(picked - right), len(right - picked)
    if not wrong and not missing:
        return base.Graded(True, say("quiz.correct"), share=1.0)
    if not spec["multiple"]:
        return base.Graded(
            False, say("quiz.wrong_noted" if picked & check.noted else "quiz.wrong_try")
        )
    parts = [say("quiz.choices_wrong", n=wrong)] if wrong else []
    parts += [say("quiz.options_missing", n=missing)] if missing else []
    text = say("quiz.wrong_parts", parts=say("quiz.list_separator").join(parts))
    return base.Graded(False, text, share=max(0.0, (len(picked & right) - wrong) / len(right)))


def right_texts(options: list[dict[str, Any]]) -> list[Markup]:
    """The texts of the right options, for the answer box."""
    return [o["text"] for o in options if o["correct"]]


@dataclass(frozen=True)
class ChoiceQuestion(base.Question):
    """Multiple choice; one correct option renders as radio buttons, several as checkboxes."""

    options: tuple[Option, ...] = ()
    shuffle: bool = True

    type: ClassVar[str] = "choice"
    FIELDS: ClassVar[tuple[str, ...]] = ("options", "shuffle")
    TEXTS: ClassVar[tuple[str, ...]] = ("options[].text", "options[].feedback")

    @property
    def multiple(self) -> bool:
        return sum(o.correct for o in self.options) > 1

    @classmethod
    def read(cls, r: Reader, node: YMap, common: dict[str, Any]) -> ChoiceQuestion | None:
        shuffle = r.boolean(node, "shuffle", "", True)
        seq = r.sequence(node, "options", "", required=True)
        if seq is None:
            return None
        options: list[Option] = []
        any_correct = False
        first: dict[str, tuple[int, Mark]] = {}
        says = (
            "each option must be a mapping such as "
            "'- text: ...' with optional correct, feedback and pin"
        )
        for j, path, item in r.mappings(seq, "options", says):
            r.check_keys(item, path, OPTION_FIELDS)
            text = r.text(item, "text", path, required=True, markdown=True)
            correct = r.boolean(item, "correct", path, False)
            feedback = r.text(item, "feedback", path, required=False, markdown=True)
            pin = r.boolean(item, "pin", path, False)
            any_correct = any_correct or correct or r.meant(item, "correct")
            if text is None:
                continue
            mark = (item.get("text") or item).mark
            earlier = first.setdefault(norm(text), (j, mark))
            if earlier[0] != j:
                r.problem(
                    mark,
                    f"{path}.text",
                    f"duplicate option: the same text as options[{earlier[0]}] "
                    f"(line {earlier[1].line})",
                )
            options.append(Option(text, correct, feedback, pin))
        enough = base.enough_items(r, seq, "options", limits.MIN_OPTIONS, "too few options")
        if enough and not any_correct:
            r.problem(
                seq.mark,
                "options",
                "no option is marked 'correct: true'",
                expected="at least one correct option",
                found="none",
            )
        return cls(**common, options=tuple(options), shuffle=shuffle)

    def concrete(self, draw: base.Draw) -> base.Concrete:
        return base.Concrete(self, draw.seed, option_order=option_order(self, draw.seed))

    def shown(self, concrete: base.Concrete) -> list[Option]:
        order = concrete.option_order or tuple(range(len(self.options)))
        return [self.options[i] for i in order]

    def view(self, concrete: base.Concrete, page: base.Page) -> dict[str, Any]:
        opts = [ConcreteOption(o.text, o.correct, o.feedback) for o in self.shown(concrete)]
        options = option_views(opts, page.dom_id, page)
        return {
            "multiple": self.multiple,
            "options": options,
            "answers": right_texts(options),
            "data": {"type": "choice", **choice_data(opts, page.salt)},
        }

    @classmethod
    def grade(cls, spec: Mapping[str, Any], check: base.Check) -> base.Graded:
        return grade_choice(spec, check)

    def cards(self, concrete: base.Concrete, ctx: base.Cards) -> list[base.Card]:
        hint = f"<p><em>{ctx.say('cards.choose_all')}</em></p>" if self.multiple else ""
        order = concrete.option_order or option_order(self, concrete.seed)
        shown = [self.options[i] for i in order]
        front = ctx.md(self.prompt) + hint + ctx.options([o.text for o in shown])
        correct = [(i, o) for i, o in enumerate(shown) if o.correct]
        label = ctx.say("cards.answers" if len(correct) > 1 else "cards.answer")
        answers = "; ".join(f"{letter(i)}. {ctx.md(o.text, inline=True)}" for i, o in correct)
        return [ctx.card(self, front, answer_line(label, answers) + ctx.explanation(self))]

    def moodle_problem(self) -> str | None:
        right = sum(o.correct for o in self.options)
        wrong = len(self.options) - right
        if right > MAX_SHARES or (self.multiple and wrong > MAX_SHARES):
            return (
                f"Moodle's grades split a mark in at most {MAX_SHARES} shares: expected at most "
                f"{MAX_SHARES} right and {MAX_SHARES} wrong options, found {right} and {wrong}"
            )
        return None

    def moodle(self, doc: MoodleDocument, concrete: base.Concrete) -> None:
        """``multichoice``: one right option is ``single``; several share 100 % (each right
        one ``100/k``) and each wrong one takes as much away (``-100/k``), as the site
        scores it: (right ticks − wrong ticks) ÷ right options, never below 0. Pinned
        options or ``shuffle: false``: written in konum's order for the seed with
        shuffling off."""
        right = [o for o in self.options if o.correct]
        fixed = not self.shuffle or any(o.pin for o in self.options)
        order = concrete.option_order or tuple(range(len(self.options)))
        element = doc.question("multichoice", self, text=doc.html(self.prompt))
        multichoice(element, single=not self.multiple, shuffle=not fixed)
        for index in order if fixed else range(len(self.options)):
            option = self.options[index]
            fraction = (
                1 / len(right) if option.correct else (-1 / len(right) if self.multiple else 0)
            )
            feedback = doc.html(option.feedback) if option.feedback else ""
            answer(element, fraction, doc.html(option.text, inline=True), feedback)

    def gift_problem(self) -> str | None:
        if not self.shuffle or any(o.pin for o in self.options):
            return (
                "its options keep their places (shuffle: false or a pinned option), and "
                "Moodle shuffles the options of GIFT questions"
            )
        right = sum(o.correct for o in self.options)
        if right > MAX_SHARES or (self.multiple and len(self.options) - right > MAX_SHARES):
            return f"Moodle's grades split a mark in at most {MAX_SHARES} shares"
        return None

    def gift(self, w: GiftWriter, concrete: base.Concrete) -> None:
        """``=right#feedback ~wrong#feedback``; with several right options, weights
        ``~%50%right`` (each right one ``100/k``) and ``~%-50%wrong`` (each wrong one
        ``-100/k``: the site's rule), as in the Moodle XML export."""
        right = sum(o.correct for o in self.options)
        lines = []
        for option in self.options:
            text = w.part(w.html(option.text, inline=True))
            if not self.multiple:
                mark = "=" if option.correct else "~"
            elif option.correct:
                mark = f"~%{w.weight(1 / right)}%"
            else:
                mark = f"~%{w.weight(-1 / right)}%"
            lines.append(f"  {mark}{text}{w.feedback(option.feedback)}")
        body = "\n".join(lines)
        w.add(f"{w.head(self.id, w.html(self.prompt))}{{\n{body}{w.general(self)}\n}}")

    def qti(self, doc: QtiDocument, concrete: base.Concrete) -> None:
        """``multiple_choice_question`` (``multiple_answers_question`` with several right
        options, which Canvas scores as the site does: each right tick ``1/k`` of the points,
        each wrong one ``-1/k``, never below 0), feedback per option, in konum's order for the
        seed; pinned options (every option with ``shuffle: false``) marked to stay in place,
        and then the bank's quiz does not shuffle answers."""
        kind = "multiple_answers_question" if self.multiple else "multiple_choice_question"
        options = [
            (o.text, o.correct, o.feedback, o.pin or not self.shuffle) for o in self.shown(concrete)
        ]
        doc.item(kind, self, doc.html(self.prompt)).choice(options)
        doc.keeps_order = doc.keeps_order or any(option[3] for option in options)

    def printed(self, ctx: base.Print) -> base.PrintedQuestion:
        order = option_order(self, ctx.seed)
        options = tuple(ctx.md(self.options[i].text, inline=True) for i in order)
        right = [
            Markup("<strong>{}</strong> {}").format(letter(k), options[k])
            for k, i in enumerate(order)
            if self.options[i].correct
        ]
        return ctx.printed(self, Markup("; ").join(right), options=options, multiple=self.multiple)
