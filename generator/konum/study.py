"""The study and progress blocks' contents: every card of a course, and its overview.

:func:`render_study` is the ``/// study`` block (the course's cards, one at a time, for
``flashcards.js``), :func:`render_progress` the ``/// progress`` block (each lesson's score
and cards due, for ``overview.js``); :func:`card_banks` leaves out the questions only exams
show, for them and for the downloads.
"""

from __future__ import annotations

from dataclasses import replace

from konum.course import Course
from konum.exports.cards import Card, build_cards
from konum.exports.text import cards_json
from konum.render import environment, script_json
from konum.types import Bank, Concrete


def study_concretes(course: Course) -> list[Concrete]:
    """The course's questions as the study page and the overview count them: a computed
    question once, by its first variant. One card to schedule per question (five cards of
    the same question with other numbers would be reviewed as five facts); the Anki deck
    and the other exports carry every variant."""
    return [replace(c, variants=c.variants[:1]) for c in course.concretes()]


def card_banks(course: Course, leave_out: frozenset[str]) -> list[Bank]:
    """The course's banks as its cards show them: without the questions in ``leave_out``."""
    return [
        replace(bank, questions=tuple(q for q in bank.questions if q.id not in leave_out))
        for bank in course.banks
    ]


def study_cards(course: Course, leave_out: frozenset[str]) -> list[Card]:
    """The cards the study and progress blocks show: one per question of ``course`` but
    those in ``leave_out`` (:func:`study_concretes`), math as MathML, in the course's language.

    Raises:
        konum.errors.ExportError: a question cannot be made into a card.
    """
    return build_cards(
        card_banks(course, leave_out),
        study_concretes(course),
        math="mathml",
        language=course.language,
        plugins=course.plugins,
        store=course.images,
    )


def render_study(
    course: Course, language: str = "en", leave_out: frozenset[str] = frozenset()
) -> str:
    """The study block: every card of ``course`` (but the questions in ``leave_out``) as
    JSON inside the page, for ``flashcards.js``. The JSON sits in a ``<script
    type="application/json">`` inside a ``<template>``, out of reach of Material's instant
    navigation (which re-creates scripts without their type). Without JavaScript the block says so.

    Raises:
        konum.errors.ExportError: a question cannot be made into a card.
    """
    cards = study_cards(course, leave_out)
    template = environment(language).get_template("quiz/study.html.j2")
    return template.render(data=script_json(cards_json(cards))).strip() + "\n"


def render_progress(
    course: Course, language: str = "en", leave_out: frozenset[str] = frozenset()
) -> str:
    """The course overview block: the lessons of ``course`` in its order as JSON for
    ``overview.js``: ``{"lessons": [{"bank", "title", "questions": [question ids], "points":
    [their points], "cards": [card keys]}]}``, with no card for the questions in
    ``leave_out``. The scores and due cards are the learner's, so the browser adds them;
    without JavaScript the block says so.

    Raises:
        konum.errors.ExportError: a question cannot be made into a card.
    """
    keys: dict[str, list[str]] = {}
    cards = study_cards(course, leave_out)
    for card in cards:
        keys.setdefault(card.bank, []).append(card.key)
    lessons = [
        {
            "bank": bank.id,
            "title": bank.title,
            "questions": [q.id for q in bank.questions],
            "points": [q.points for q in bank.questions],
            "cards": keys.get(bank.id, []),
        }
        for bank in course.banks
    ]
    template = environment(language).get_template("quiz/progress.html.j2")
    return template.render(data=script_json({"lessons": lessons})).strip() + "\n"
