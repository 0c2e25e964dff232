"""konum: self-checking quizzes and flashcards from YAML question banks, for MkDocs and Zensical.

As a Markdown extension (``markdown_extensions: [konum]`` in ``mkdocs.yml``), ``konum`` turns
on its three parts together, each of which a site may also use alone:

* ``konum.quiz`` (:mod:`konum.quiz`): the ``/// quiz``, ``/// study``, ``/// progress`` and
  ``/// explorer`` blocks;
* ``konum.values`` (:mod:`konum.values`): ``{{ }}`` expressions computed at build time;
* ``konum.math`` (:mod:`konum.math`): ``$...$`` as MathML.

As a library, the API (semantic versioning from 1.0)::

    from konum import load_course, render_quiz, build_cards

    course = load_course(options_from({"banks": "docs/banks", "plugins": ["physics"]}))
    html = render_quiz(course.concretes(course.banks[:1]), "lesson-1",
                       plugins=course.plugins, images=course.images)
    cards = build_cards(course.banks, course.concretes(), plugins=course.plugins,
                        store=course.images)

Imported on use, so that ``import konum`` stays light. The stages are described in
ARCHITECTURE.md.
"""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"

_API = {
    "options_from": "konum.config",
    "Options": "konum.config",
    "load_course": "konum.course",
    "course_for": "konum.course",
    "Course": "konum.course",
    "check_banks": "konum.check",
    "load_banks": "konum.check",
    "render_quiz": "konum.render",
    "build_cards": "konum.exports.cards",
    "export": "konum.exports",
    "build_moodle": "konum.exports.moodle",
    "build_gift": "konum.exports.gift",
    "load_plugins": "konum.plugins",
    "BankError": "konum.problems",
    "KonumError": "konum.errors",
}

__all__ = ["__version__", "makeExtension", *_API]


def __getattr__(name: str) -> Any:
    module = _API.get(name)
    if module is None:
        raise AttributeError(f"module 'konum' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)


def makeExtension(**kwargs: Any) -> Any:
    """Python-Markdown's entry point for ``konum``: ``konum.quiz``, ``konum.values`` and
    ``konum.math`` with the same options, the progress marks on every page."""
    from markdown import Extension, Markdown

    from konum.math import MathExtension
    from konum.quiz import QuizExtension
    from konum.values import ValuesExtension

    class KonumExtension(Extension):
        """Values, math, the quiz, study and explorer blocks and their assets."""

        def __init__(self) -> None:
            super().__init__()
            self.parts: list[Extension] = [
                ValuesExtension(**kwargs),
                MathExtension(),
                QuizExtension(default_progress=True, **kwargs),
            ]

        def extendMarkdown(self, md: Markdown) -> None:
            md.registerExtensions(self.parts, {})

    return KonumExtension()
