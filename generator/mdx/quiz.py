"""The ``/// quiz`` block: a bank's questions, rendered into the page at build time.

Syntax (pymdownx Blocks)::

    /// quiz | sinusoidal
    ///

    /// quiz | sinusoidal
        questions: sin-entry, sin-why-pairs
    ///

The argument names a bank (``content/banks/<bank>.yml``); the optional ``questions`` option
keeps only those ids, in that order. The HTML comes from :func:`konum.render.render_quiz`
and is stashed, so Markdown never touches it.

Configuration (``markdown_extensions`` in ``mkdocs.yml``)::

    - konum.mdx.quiz:
        banks: content/banks     # folder of bank files, relative to the working directory
        seed: 42                 # the site seed; the KONUM_SEED environment variable wins
        variants: 5              # variants shipped per computed question

Banks are loaded once per build and loaded again when a bank file changes (``konum serve``).
"""

from __future__ import annotations

import contextlib
import os
import re
import xml.etree.ElementTree as etree
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from markdown import Markdown
from pymdownx.blocks import BlocksExtension, BlocksProcessor
from pymdownx.blocks.block import Block, type_any

from konum.model import Bank, Concrete
from konum.variants import make_concrete

try:  # MkDocs prints a BuildError as one clean line; Zensical and plain Markdown need no base.
    from mkdocs.exceptions import BuildError as _Base
except ImportError:  # pragma: no cover - without MkDocs
    _Base = Exception  # type: ignore[misc,assignment]

SEED_ENV = "KONUM_SEED"
VARIANTS_ENV = "KONUM_VARIANTS"


class QuizError(_Base):
    """A quiz block that names a bank or question that does not exist, or bad banks."""


@dataclass(frozen=True)
class _Settings:
    banks: Path
    seed: int
    variants: int


def settings_from(config: dict[str, Any]) -> _Settings:
    """Resolve the block's configuration, letting ``KONUM_SEED`` / ``KONUM_VARIANTS`` win."""
    seed_text = os.environ.get(SEED_ENV) or str(config.get("seed", 42))
    variants_text = os.environ.get(VARIANTS_ENV) or str(config.get("variants", 5))
    try:
        seed = int(seed_text)
        variants = int(variants_text)
    except ValueError as exc:
        raise QuizError(f"quiz seed and variants must be whole numbers: {exc}") from None
    if seed < 0 or not 1 <= variants <= 50:
        raise QuizError(f"quiz seed must be >= 0 and variants 1..50, got {seed} and {variants}")
    return _Settings(Path(str(config.get("banks", "content/banks"))), seed, variants)


class _BankCache:
    """Banks by folder, reloaded when any bank file's modification time or size changes."""

    def __init__(self) -> None:
        self._key: tuple[object, ...] | None = None
        self._banks: dict[str, Bank] = {}
        self._concrete: dict[tuple[str, int, int], Concrete] = {}
        self._supplier: Callable[[], tuple[Bank, ...]] | None = None

    @staticmethod
    def _key_of(folder: Path) -> tuple[object, ...]:
        # Asked by every quiz block (a bank may be edited while konum serve builds), so one
        # listing and one stat a file: the same *.yml files load_banks reads.
        stats = []
        with contextlib.suppress(FileNotFoundError), os.scandir(folder) as entries:
            for entry in entries:
                if entry.name.endswith(".yml"):
                    stat = entry.stat()
                    stats.append((entry.name, stat.st_mtime_ns, stat.st_size))
        return (str(folder.resolve()), *sorted(stats))

    def promise(self, folder: Path, supplier: Callable[[], tuple[Bank, ...]]) -> None:
        """Take the banks of ``folder`` from ``supplier`` when a quiz block first needs them
        (``konum build`` validates them beside MkDocs, which starts meanwhile). A
        ``BankError`` from the supplier fails the page that asked."""
        self._key = self._key_of(folder)
        self._banks = {}
        self._concrete = {}
        self._supplier = supplier

    def prime(self, folder: Path, banks: tuple[Bank, ...]) -> None:
        """Take banks just loaded from ``folder`` (``konum build`` validates them before
        MkDocs starts), so that the pages do not load them again."""
        self._key = self._key_of(folder)
        self._supplier = None
        self._banks = {bank.id: bank for bank in banks}
        self._concrete = {}

    def banks(self, folder: Path) -> dict[str, Bank]:
        from konum.banks import BankError, format_text, load_banks

        key = self._key_of(folder)
        supplier, self._supplier = self._supplier, None
        if supplier is not None and key == self._key:
            try:
                self._banks = {bank.id: bank for bank in supplier()}
            except BankError:
                raise QuizError("the question banks have problems") from None
        if key != self._key:
            try:
                loaded = load_banks(folder)
            except BankError as exc:
                raise QuizError(
                    "the question banks have problems:\n" + format_text(exc.problems)
                ) from None
            self._banks = {bank.id: bank for bank in loaded}
            self._concrete = {}
            self._key = key
        return self._banks

    def concrete(self, bank: Bank, question_id: str, seed: int, variants: int) -> Concrete:
        key = (question_id, seed, variants)
        if key not in self._concrete:
            self._concrete[key] = make_concrete(bank.question(question_id), seed, variants)
        return self._concrete[key]


_CACHE = _BankCache()


#: ``konum build``: the (seed, variants) of the whole-bank quizzes it fills in itself once
#: MkDocs has written the pages (see :func:`fill_pending`), or None.
_DEFERRED: tuple[int, int] | None = None

#: What a deferred quiz block leaves in the page: the ``data-konum-quiz`` the theme override
#: looks for (to load the quiz's files), and the bank whose quiz replaces it.
_PENDING = '<div class="konum-quiz" data-konum-quiz data-konum-pending="{}"></div>'
_PENDING_RE = re.compile(
    r'<div class="konum-quiz" data-konum-quiz data-konum-pending="([^"]*)"></div>'
)


def defer_whole_banks(seed: int, variants: int) -> None:
    """Let blocks showing a whole bank (all questions, bank order, first on the page) with
    ``seed`` and ``variants`` leave a marker that :func:`fill_pending` replaces by the quiz:
    ``konum build`` renders those quizzes beside MkDocs instead of in the middle of it."""
    global _DEFERRED
    _DEFERRED = (seed, variants)


def stop_deferring() -> None:
    """Render every quiz in the page again (the default)."""
    global _DEFERRED
    _DEFERRED = None


def fill_pending(html: str, quiz: Callable[[str], str]) -> str:
    """``html`` with each deferred quiz's marker replaced by ``quiz(bank_id)``: the page as
    a build that rendered the quizzes in place would have written it."""
    return _PENDING_RE.sub(lambda m: quiz(m.group(1)), html)


def has_pending(html: str) -> bool:
    """Whether ``html`` holds a deferred quiz's marker."""
    return 'data-konum-pending="' in html


def render_bank_quiz(bank: Bank, seed: int, variants: int) -> str:
    """A whole bank as one quiz (all questions in bank order, quiz id = bank id)."""
    from konum.render import render_quiz

    concretes = [_CACHE.concrete(bank, q.id, seed, variants) for q in bank.questions]
    return render_quiz(concretes, bank.id, title=bank.title)


def drawn_concretes(banks: tuple[Bank, ...], seed: int, variants: int) -> list[Concrete]:
    """Every question of ``banks`` with ``seed`` applied, reusing what the pages drew."""
    return [_CACHE.concrete(bank, q.id, seed, variants) for bank in banks for q in bank.questions]


def prime_banks(folder: Path, banks: tuple[Bank, ...]) -> None:
    """Hand banks already loaded from ``folder`` to the quiz blocks of this process."""
    _CACHE.prime(folder, banks)


def promise_banks(folder: Path, supplier: Callable[[], tuple[Bank, ...]]) -> None:
    """Let the quiz blocks of this process take the banks of ``folder`` from ``supplier``
    when the first of them needs them (``konum build``: the child that validates them)."""
    _CACHE.promise(folder, supplier)


class QuizBlock(Block):  # type: ignore[misc]  # pymdownx ships no type hints
    """``/// quiz | <bank id>`` with an optional ``questions`` option."""

    NAME = "quiz"
    ARGUMENT = True
    # Options are checked in on_validate so that a mistake is an error, not silent text.
    OPTIONS: ClassVar[dict[str, tuple[Any, Any]]] = {"questions": ("", type_any)}

    def on_validate(self, parent: etree.Element) -> bool:
        settings = settings_from(self.config)
        banks = _CACHE.banks(settings.banks)
        bank_id = str(self.argument).strip()
        if bank_id not in banks:
            known = ", ".join(sorted(banks)) or "none"
            raise QuizError(
                f"/// quiz names bank {bank_id!r}, which does not exist (banks: {known})"
            )
        bank = banks[bank_id]
        wanted = self.options["questions"]
        if isinstance(wanted, str):
            wanted = [part.strip() for part in wanted.split(",") if part.strip()]
        ids = [str(w) for w in wanted] if wanted else [q.id for q in bank.questions]
        in_bank = {q.id for q in bank.questions}
        missing = [i for i in ids if i not in in_bank]
        if missing:
            raise QuizError(
                f"/// quiz | {bank_id}: no question {', '.join(map(repr, missing))} in that bank"
            )
        self.bank, self.ids, self.settings = bank, ids, settings
        counts: dict[str, int] = self.tracker.setdefault("quiz_ids", {})
        counts[bank_id] = counts.get(bank_id, 0) + 1
        self.quiz_id = bank_id if counts[bank_id] == 1 else f"{bank_id}-{counts[bank_id]}"
        whole = self.quiz_id == bank_id and ids == [q.id for q in bank.questions]
        self.whole_as = (settings.seed, settings.variants) if whole else None
        return True

    def on_create(self, parent: etree.Element) -> etree.Element:
        return etree.SubElement(parent, "div", {"class": "konum-quiz-host"})

    def on_end(self, block: etree.Element) -> None:
        from konum.render import render_quiz

        html = None
        if _DEFERRED is not None and self.whole_as == _DEFERRED:
            html = _PENDING.format(self.bank.id)
        if html is None:
            seed, variants = self.settings.seed, self.settings.variants
            try:
                concretes = [_CACHE.concrete(self.bank, i, seed, variants) for i in self.ids]
            except ValueError as exc:  # a computed question whose generator or template fails
                raise QuizError(f"/// quiz | {self.bank.id}: {exc}") from None
            try:
                html = render_quiz(concretes, self.quiz_id, title=self.bank.title)
            except ValueError as exc:
                raise QuizError(str(exc)) from None
        for child in list(block):  # the block has no Markdown content of its own
            block.remove(child)
        block.text = self.md.htmlStash.store(html)


class QuizExtension(BlocksExtension):  # type: ignore[misc]
    """Registers ``/// quiz``; see the module docstring for its configuration."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.config = {
            "banks": ["content/banks", "folder of bank files"],
            "seed": [42, "site seed (KONUM_SEED overrides)"],
            "variants": [5, "variants per computed question (KONUM_VARIANTS overrides)"],
        }
        super().__init__(*args, **kwargs)

    def extendMarkdownBlocks(self, md: Markdown, block_mgr: BlocksProcessor) -> None:
        block_mgr.register(QuizBlock, self.getConfigs())


def makeExtension(*args: Any, **kwargs: Any) -> QuizExtension:
    return QuizExtension(*args, **kwargs)
