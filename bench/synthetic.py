"""Synthetic question banks and projects for the benchmarks.

A synthetic bank cycles through every question type with one question in three computed
(the pattern ``computed, choice, fill, computed, matching, numeric`` repeats), so 600
questions hold 200 computed, 100 of each other type. Computed questions rotate over several
generators of the catalogue and alternate between ``answer: numeric`` and ``answer: choice``.
Prompts carry a little inline math and code, like the real banks, and every text differs by
its index so no cache can fold questions together.

:func:`write_project` lays out a whole konum project (``mkdocs.yml`` with the one-line
``konum`` extension, pages that show one bank each through ``/// quiz``) that ``konum build``
can build in a temporary folder: nothing is copied, konum's CSS and JS come inline with each
quiz page. Nothing here imports konum itself, so the bench can
write projects even while parts of ``generator/`` are being worked on.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

#: The repeating pattern of types: a third computed, the other four types equally often.
PATTERN: tuple[str, ...] = ("computed", "choice", "fill", "computed", "matching", "numeric")

#: (generator, params) pairs the computed questions rotate over; params stay inside the
#: catalogue's declared bounds.
COMPUTED: tuple[tuple[str, dict[str, object]], ...] = (
    ("sinusoidal_entry", {"pos": {"min": 1, "max": 50}, "d": [8, 16, 32]}),
    ("sinusoidal_angle", {"pos": {"min": 1, "max": 40}, "d": [16, 64]}),
    ("rope_angle", {"m": {"min": 1, "max": 30}, "d": [8, 64]}),
    ("alibi_slope", {"heads": [12, 16]}),
    # Not 8 and below: there T5's mistakes give fewer than three other buckets to choose from.
    ("t5_bucket", {"relative_position": {"min": 9, "max": 60}}),
    ("shaw_index", {"max_distance": [2, 4]}),
)


def _q(text: str) -> str:
    """A YAML double-quoted scalar (JSON strings are valid YAML)."""
    return json.dumps(text, ensure_ascii=False)


@dataclass(frozen=True)
class Question:
    """One synthetic question in a form both konum and mkdocs-quiz can be written from."""

    id: str
    type: str
    index: int


def question_types(count: int, *, types: tuple[str, ...] = PATTERN) -> list[str]:
    """The type of each of ``count`` questions, cycling through ``types``."""
    return [types[i % len(types)] for i in range(count)]


def question_yaml(qid: str, qtype: str, i: int) -> str:
    """One question of type ``qtype`` as a YAML list item (indented for ``questions:``)."""
    head = f"  - id: {qid}\n    type: {qtype}\n"
    why = f"Question {i}: pair $k$ turns at " + "$\\omega_k$ per step."
    explanation = f"    explanation: {_q(why)}\n"
    if qtype == "choice":
        return (
            head
            + f"    prompt: {_q(f'Question {i}: which column of $PE_{{{i}}}$ holds a sine?')}\n"
            + "    options:\n"
            + f"      - text: {_q(f'Column {2 * (i % 7)} (even)')}\n        correct: true\n"
            + f"      - text: {_q(f'Column {2 * (i % 7) + 1} (odd)')}\n"
            + f"        feedback: {_q('Odd columns hold the cosines.')}\n"
            + f"      - text: {_q(f'Column {i + 1000}')}\n"
            + "      - text: None of these\n        pin: true\n"
            + explanation
            + f"    hint: {_q('Count from zero.')}\n"
        )
    if qtype == "fill":
        return (
            head
            + f"    prompt: {_q(f'Question {i}: in `PE[:, 0::____]` the step is the ____ of {i}.')}\n"  # noqa: E501
            + "    blanks:\n"
            + '      - answers: ["2", "two"]\n'
            + f"      - answers: [{_q(f'pair{i}')}]\n"
            + explanation
        )
    if qtype == "matching":
        return (
            head
            + f"    prompt: {_q(f'Question {i}: match each slice of $PE$ with its values.')}\n"
            + "    pairs:\n"
            + f'      - left: "`PE[0, 0::2]`"\n        right: {_q(f"all 0 (case {i})")}\n'
            + f'      - left: "`PE[0, 1::2]`"\n        right: {_q(f"all 1 (case {i})")}\n'
            + f'      - left: "`PE[{i}, 0]`"\n        right: {_q(f"sin({i})")}\n'
            + f"    distractors: [{_q(f'all -1 (case {i})')}]\n"
            + explanation
        )
    if qtype == "numeric":
        return (
            head
            + f"    prompt: {_q(f'Question {i}: how many columns does $PE$ have for $d = {2 * i}$?')}\n"  # noqa: E501
            + f"    answer: {2 * i}\n    tolerance: 0\n    unit: columns\n"
            + explanation
        )
    if qtype == "computed":
        name, params = COMPUTED[(i // 3) % len(COMPUTED)]
        lines = [head, f"    generator: {name}\n"]
        if params:
            lines.append(f"    params: {json.dumps(params)}\n")
        lines.append(f"    answer: {'choice' if (i // 18) % 2 else 'numeric'}\n")
        lines.append(explanation)
        return "".join(lines)
    raise ValueError(f"question type: expected one of {PATTERN}, received {qtype!r}")


def bank_yaml(bank_id: str, count: int, *, start: int = 0, types: tuple[str, ...] = PATTERN) -> str:
    """A bank file of ``count`` questions numbered from ``start`` (ids unique across banks)."""
    parts = [f"bank: {bank_id}\ntitle: {_q(f'Synthetic bank {bank_id}')}\nquestions:\n"]
    for i in range(start, start + count):
        qtype = types[i % len(types)]
        parts.append(question_yaml(f"q{i}-{qtype}", qtype, i))
    return "".join(parts)


def split(total: int, per_page: int) -> list[int]:
    """``total`` questions as page sizes of at most ``per_page`` (the last may be shorter)."""
    sizes = [per_page] * (total // per_page)
    if total % per_page:
        sizes.append(total % per_page)
    return sizes


def write_banks(
    folder: Path, total: int, per_page: int, *, types: tuple[str, ...] = PATTERN
) -> list[str]:
    """Write ``total`` questions as banks of ``per_page`` into ``folder``; the bank ids."""
    folder.mkdir(parents=True, exist_ok=True)
    ids: list[str] = []
    start = 0
    for n, size in enumerate(split(total, per_page)):
        bank_id = f"bank-{n:03d}"
        (folder / f"{bank_id}.yml").write_text(
            bank_yaml(bank_id, size, start=start, types=types), encoding="utf-8"
        )
        ids.append(bank_id)
        start += size
    return ids


MKDOCS_YML = """\
site_name: konum bench
docs_dir: content
site_dir: site
use_directory_urls: false
exclude_docs: |
  banks/
theme:
  name: material
  font: false
  features:
    - navigation.instant
plugins:
  - search
markdown_extensions:
  - konum:
      banks: content/banks
      plugins: [pe]
      seed: 42
      variants: 5
  - admonition
  - pymdownx.details
  - pymdownx.superfences
"""


def page_text(bank_id: str, title: str) -> str:
    """A quiz page: a heading, a paragraph and the bank's quiz."""
    return (
        f"# {title}\n\nA synthetic page for the benchmark; row 1 of $PE$ for $d = 4$ "
        f"has two pairs.\n\n/// quiz | {bank_id}\n///\n"
    )


def write_project(
    root: Path, total: int, per_page: int = 100, *, types: tuple[str, ...] = PATTERN
) -> Path:
    """A buildable konum project with ``total`` questions, ``per_page`` on each page.

    Returns:
        The project folder (``root``), holding ``mkdocs.yml`` and ``content/`` (an index
        page without a quiz, ``lessons/page-NNN.md``, ``banks/bank-NNN.yml``).
    """
    root.mkdir(parents=True, exist_ok=True)
    content = root / "content"
    ids = write_banks(content / "banks", total, per_page, types=types)
    lessons = content / "lessons"
    lessons.mkdir(parents=True, exist_ok=True)
    for bank_id in ids:
        (lessons / f"page-{bank_id[5:]}.md").write_text(
            page_text(bank_id, f"Quiz {bank_id}"), encoding="utf-8"
        )
    (content / "index.md").write_text(
        "# Synthetic course\n\nA page without a quiz.\n", encoding="utf-8"
    )
    (root / "mkdocs.yml").write_text(MKDOCS_YML, encoding="utf-8")
    return root


def iter_questions(total: int, *, types: tuple[str, ...] = PATTERN) -> Iterator[Question]:
    """The synthetic questions as (id, type, index), in bank order."""
    for i in range(total):
        qtype = types[i % len(types)]
        yield Question(f"q{i}-{qtype}", qtype, i)
