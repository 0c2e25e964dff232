"""The ``konum`` Markdown extension: values from the core, math, quizzes, the study page and
the explorers.

One line in ``mkdocs.yml`` turns everything on (options: :mod:`konum.config`)::

    markdown_extensions:
      - konum:
          banks: docs/banks

It is a Markdown extension rather than a MkDocs plugin, so the same ``mkdocs.yml`` builds
with MkDocs and with Zensical (which runs Markdown extensions but not MkDocs plugins). Pages
that hold a quiz, the study block or the course overview get konum's CSS and JavaScript
inline, at the end of the page; every page gets the small script and style of the progress
marks in the navigation (progress.js): no theme override and no file to copy. A page with an
explorer gets the explorers' shared files and the script of each explorer it shows. The
scripts sit in the page content, which Material's instant navigation re-runs on every page
change (they are idempotent); formulas get the name of a math font that stretches brackets.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from markdown import Extension, Markdown
from markdown.postprocessors import Postprocessor
from markdown.preprocessors import Preprocessor
from markdown.treeprocessors import Treeprocessor

from konum.config import DEFAULTS, check_names, options_from
from konum.errors import ConfigError

#: Browsers stretch brackets, bars and radicals only with a font that has an OpenType MATH
#: table, and the generic ``math`` family does not always find one (Chromium on Linux).
#: A formula wider than its line scrolls in its own box (phones): a display one in its
#: <div>, an inline one as an inline block that keeps its baseline (where browsers can; the
#: padding keeps fraction bars and scripts from being clipped). An inline formula keeps the
#: punctuation after it on its line (:func:`konum.mdx.math.bind_punctuation`).
MATH_FONTS = (
    '<style>math{font-family:"STIX Two Math","Cambria Math","Latin Modern Math",'
    '"DejaVu Math TeX Gyre","Noto Sans Math",math}'
    ".konum-math{overflow-x:auto;overflow-y:hidden}.konum-nobreak{white-space:nowrap}"
    "@supports (baseline-source:first){math:not([display=block]){display:inline-block;"
    "max-width:100%;overflow-x:auto;overflow-y:hidden;baseline-source:first;padding:.4em 0;"
    "margin:-.4em 0}.konum-nobreak>math{max-width:calc(100% - 1em)}}</style>"
)


@lru_cache(maxsize=32)
def asset(name: str) -> str:
    """``templates/assets/NAME`` as pages carry it: minified (comments and spaces out), since
    it travels inline in every page that uses it and is not cached between pages."""
    import rcssmin
    import rjsmin

    from konum.render import TEMPLATES_DIR

    text = (TEMPLATES_DIR / "assets" / name).read_text(encoding="utf-8")
    return str(rjsmin.jsmin(text) if name.endswith(".js") else rcssmin.cssmin(text))


def assets_html(widget: str, *, exam: bool = False) -> str:
    """The inline ``<style>`` and ``<script>`` of ``widget`` (``quiz`` or ``flashcards``);
    with ``exam``, ``quiz-exam.js`` before the quiz's script (which calls it)."""
    css, js = asset(f"{widget}.css"), asset(f"{widget}.js")
    before = f"<script>{asset('quiz-exam.js')}</script>\n" if exam else ""
    return f'<style data-konum-asset="{widget}">{css}</style>\n{before}<script>{js}</script>\n'


class PageTreeprocessor(Treeprocessor):
    """Marks that the tree is done, so the next postprocessor run is the page's. The toc
    extension runs every postprocessor on each heading's HTML before that (for its names
    and ids), where the page's styles and scripts must not go."""

    def run(self, root: Any) -> None:
        self.md.konum_page = True  # type: ignore[attr-defined]


def messages_html(language: str, sections: list[str]) -> str:
    """The interface texts of ``sections`` for the page's scripts: JSON in a ``<template>``
    (out of reach of instant navigation, like the quiz data), and ``messages.js``, which
    reads them for every konum script after it (``window.konumText``)."""
    from konum.messages import page_messages
    from konum.render import script_json

    data = script_json(page_messages(language, sections))
    script = f'<script type="application/json">{data}</script>'
    reader = f"<script>{asset('messages.js')}</script>"
    return f"<template data-konum-messages>{script}</template>\n{reader}\n"


#: What a quiz in exam mode carries (konum.render's wrapper): such a page gets quiz-exam.js.
_EXAM_MARK = 'data-mode="exam"'


class AssetsPostprocessor(Postprocessor):
    """Adds the quiz's, the study page's or the explorers' files to a page that shows one,
    with the interface texts they use in the extension's language."""

    def __init__(self, md: Markdown, language: str = "en") -> None:
        super().__init__(md)
        self.language = language

    def run(self, text: str) -> str:
        if not getattr(self.md, "konum_page", False):
            return text  # a heading's HTML, rendered for the table of contents
        self.md.konum_page = False  # type: ignore[attr-defined]
        from konum.mdx.explorer import explorer_assets

        if "<math" in text:
            from konum.mdx.math import bind_punctuation

            text = MATH_FONTS + "\n" + bind_punctuation(text)
        sections = [
            section
            for section, mark in (
                ("quiz", "data-konum-quiz"),
                ("exam", _EXAM_MARK),
                ("study", "data-konum-study"),
                ("overview", "data-konum-overview"),
                ("explorer", "data-explorer="),
            )
            if mark in text
        ]
        # Every page gets the navigation's progress marks (progress.js, small).
        text += "\n" + messages_html(self.language, [*sections, "progress"])
        if "data-konum-quiz" in text:
            text += assets_html("quiz", exam=_EXAM_MARK in text)
        if "data-konum-study" in text:
            text += "\n" + assets_html("flashcards")
        if "data-konum-overview" in text:
            text += "\n" + assets_html("overview")
        text += "\n" + assets_html("progress")
        if "data-explorer=" in text:
            text += "\n" + explorer_assets(text, asset)
        return text


# A line that starts like a block of konum's, and the forms pymdownx reads as one: a quiz
# names its bank after a bar, the study block takes nothing (explorers: explorer.py).
_BLOCK_START = re.compile(r"^ {0,3}///\s*(quiz|study|progress)\b")
_WELL_FORMED = re.compile(r"^ {0,3}/// (?:quiz *\| *\S.*|study *|progress *)$")
_QUIZ_START = re.compile(r"^ {0,3}/// quiz\b")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


class MalformedBlockPreprocessor(Preprocessor):
    """A quiz or explorer line that pymdownx would leave as text is an error naming its line."""

    def run(self, lines: list[str]) -> list[str]:
        from konum.mdx.explorer import check_header

        fence: str | None = None
        quizzes: list[int] = []  # each quiz block's line, for its errors (konum.mdx.quiz)
        self.md.konum_quiz_lines = quizzes  # type: ignore[attr-defined]
        for number, line in enumerate(lines, start=1):
            opened = _FENCE.match(line)
            if opened:
                mark = opened.group(1)
                if fence is None:
                    fence = mark
                elif mark.startswith(fence[0]) and len(mark) >= len(fence):
                    fence = None
                continue
            if fence is None and _QUIZ_START.match(line) and _WELL_FORMED.match(line):
                quizzes.append(number)
            if fence is None and _BLOCK_START.match(line) and not _WELL_FORMED.match(line):
                from konum.mdx.quiz import QuizError

                raise QuizError(
                    f"line {number}: {line.strip()!r} is not a quiz block; "
                    "write '/// quiz | BANK' (a bar before the bank) and end it with '///'"
                )
            if fence is None:
                check_header(lines, number - 1)
        return lines


class KonumExtension(Extension):
    """Values, math, the quiz, study and explorer blocks and their assets, for one course."""

    def __init__(self, **kwargs: Any) -> None:
        try:
            check_names(kwargs)
        except ConfigError as exc:
            from konum.mdx.quiz import QuizError

            raise QuizError(str(exc)) from None
        self.config = {name: list(value) for name, value in DEFAULTS.items()}
        super().__init__(**kwargs)

    def extendMarkdown(self, md: Markdown) -> None:
        from konum.mdx.explorer import ExplorerExtension
        from konum.mdx.math import MathExtension
        from konum.mdx.quiz import QuizError, QuizExtension
        from konum.mdx.values import ValuesExtension

        try:
            options = options_from(self.getConfigs())
        except ConfigError as exc:
            raise QuizError(str(exc)) from None
        md.registerExtensions(
            [
                ValuesExtension(options.language),
                MathExtension(),
                QuizExtension(options),
                ExplorerExtension(options.language),
            ],
            {},
        )
        md.preprocessors.register(MalformedBlockPreprocessor(md), "konum_malformed", 31)
        md.treeprocessors.register(PageTreeprocessor(md), "konum_page", -100)
        md.postprocessors.register(AssetsPostprocessor(md, options.language), "konum_assets", 0)


def makeExtension(**kwargs: Any) -> KonumExtension:
    return KonumExtension(**kwargs)
