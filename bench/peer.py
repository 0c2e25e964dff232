"""The peer: mkdocs-quiz, installed into its own virtualenv, and the same questions for both.

mkdocs-quiz (PyPI ``mkdocs-quiz``) is a MkDocs plugin. Its syntax, read from the installed
package (``mkdocs_quiz/parsing.py`` and its README): a ``<quiz>`` ... ``</quiz>`` block holds
the question text, then ``- [x]`` / ``- [ ]`` answer lines (``x`` marks a correct one; a
``> text`` line right under an answer is that answer's feedback), then free Markdown shown
after answering. A fill-in question instead writes each blank as ``[[answer]]`` inside the
question text. The plugin inlines its CSS and JS (and a confetti library) into each page.

It is never a konum dependency: :func:`ensure_venv` installs it with MkDocs and Material
pinned to the versions konum's own virtualenv has, so both builds use the same MkDocs and
theme and differ only in how quizzes are made.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import venv
from dataclasses import dataclass
from pathlib import Path

from common import WORK, dist_version

PEER_VENV = WORK / "peer"
PEER_PYTHON = PEER_VENV / "bin" / "python"


def ensure_venv(*, upgrade: bool = False) -> Path:
    """Create ``bench/work/peer`` with mkdocs-quiz (latest) unless it is there already.

    MkDocs and Material are pinned to konum's versions. Returns the peer's python.
    """
    have = PEER_PYTHON.exists() and _peer_version("mkdocs_quiz") != "not installed"
    if have and not upgrade:
        return PEER_PYTHON
    if not PEER_PYTHON.exists():
        venv.EnvBuilder(with_pip=True, clear=True).create(PEER_VENV)
    pins = [
        f"mkdocs=={dist_version('mkdocs')}",
        f"mkdocs-material=={dist_version('mkdocs-material')}",
    ]
    subprocess.run(
        [str(PEER_PYTHON), "-m", "pip", "install", "--quiet", "--upgrade", "mkdocs-quiz", *pins],
        check=True,
        timeout=900,
    )
    return PEER_PYTHON


def _peer_version(dist: str) -> str:
    if not PEER_PYTHON.exists():
        return "not installed"
    proc = subprocess.run(
        [
            str(PEER_PYTHON),
            "-c",
            f"from importlib.metadata import version; print(version({dist!r}))",
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    return proc.stdout.strip() if proc.returncode == 0 else "not installed"


def peer_versions() -> dict[str, str]:
    """Versions in the peer's virtualenv."""
    return {name: _peer_version(name) for name in ("mkdocs_quiz", "mkdocs", "mkdocs-material")}


# --- the same questions, written for both -----------------------------------------------


@dataclass(frozen=True)
class SharedQuestion:
    """A choice or fill-in question both tools can express (plain text, no math)."""

    index: int
    type: str  # "choice" | "fill"
    prompt: str  # for fill: blanks written as {0}, {1}, ...
    options: tuple[tuple[str, bool, str | None], ...] = ()
    blanks: tuple[str, ...] = ()
    explanation: str = ""


def shared_questions(total: int) -> list[SharedQuestion]:
    """``total`` questions alternating choice and fill-in, every text distinct."""
    out = []
    for i in range(total):
        why = f"Question {i}: even columns hold sines, odd columns cosines, one pair per frequency."
        if i % 2 == 0:
            out.append(
                SharedQuestion(
                    i,
                    "choice",
                    f"Question {i}: which column of row {i} holds a sine?",
                    (
                        (f"Column {2 * (i % 7)}, an even one", True, None),
                        (
                            f"Column {2 * (i % 7) + 1}, an odd one",
                            False,
                            "Odd columns hold cosines.",
                        ),
                        (f"Column {i + 1000}, past the end", False, None),
                        ("None of these", False, None),
                    ),
                    explanation=why,
                )
            )
        else:
            out.append(
                SharedQuestion(
                    i,
                    "fill",
                    f"Question {i}: the sines of row {i} fill every {{0}}nd column, from column {{1}}.",  # noqa: E501
                    blanks=("2", "0"),
                    explanation=why,
                )
            )
    return out


def konum_bank(bank_id: str, questions: list[SharedQuestion]) -> str:
    """The questions as a konum bank file (options keep their order: the peer's do too)."""
    lines = [f"bank: {bank_id}", f"title: {json.dumps('Bank ' + bank_id)}", "questions:"]
    for q in questions:
        lines += [f"  - id: shared-{q.index}-{q.type}", f"    type: {q.type}"]
        if q.type == "choice":
            lines.append(f"    prompt: {json.dumps(q.prompt)}")
            lines.append("    shuffle: false")
            lines.append("    options:")
            for text, correct, feedback in q.options:
                lines.append(f"      - text: {json.dumps(text)}")
                if correct:
                    lines.append("        correct: true")
                if feedback:
                    lines.append(f"        feedback: {json.dumps(feedback)}")
        else:
            prompt = q.prompt.format(*(["____"] * len(q.blanks)))
            lines.append(f"    prompt: {json.dumps(prompt)}")
            lines.append("    blanks:")
            lines += [f"      - answers: [{json.dumps(b)}]" for b in q.blanks]
        lines.append(f"    explanation: {json.dumps(q.explanation)}")
    return "\n".join(lines) + "\n"


def peer_markdown(title: str, questions: list[SharedQuestion]) -> str:
    """The questions as one mkdocs-quiz page."""
    parts = [f"# {title}\n\nA synthetic page for the benchmark.\n\n<!-- mkdocs-quiz intro -->\n"]
    for q in questions:
        if q.type == "choice":
            body = [q.prompt, ""]
            for text, correct, feedback in q.options:
                body.append(f"- [{'x' if correct else ' '}] {text}")
                if feedback:
                    body.append(f"    > {feedback}")
            body += ["", q.explanation]
        else:
            body = [q.prompt.format(*(f"[[{b}]]" for b in q.blanks)), "", q.explanation]
        parts.append("<quiz>\n" + "\n".join(body) + "\n</quiz>\n")
    parts.append("<!-- mkdocs-quiz results -->\n")
    return "\n".join(parts)


PEER_MKDOCS_YML = """\
site_name: peer bench
docs_dir: docs
site_dir: site
use_directory_urls: false
theme:
  name: material
  font: false
  features:
    - navigation.instant
plugins:
  - search
  - mkdocs_quiz
"""


def write_pair(root: Path, total: int, per_page: int) -> tuple[Path, Path]:
    """Write the same ``total`` questions as a konum project and a mkdocs-quiz project.

    Returns:
        ``(konum_project, peer_project)``; both have ``index.md`` (no quiz) and
        ``lessons/page-NNN.md`` pages of ``per_page`` questions.
    """
    from synthetic import MKDOCS_YML, page_text, split

    questions = shared_questions(total)
    konum = root / "konum"
    peer = root / "peer"
    for folder in (konum, peer):
        if folder.exists():
            shutil.rmtree(folder)
    (konum / "content" / "banks").mkdir(parents=True)
    (konum / "content" / "lessons").mkdir(parents=True)
    (peer / "docs" / "lessons").mkdir(parents=True)
    start = 0
    for n, size in enumerate(split(total, per_page)):
        chunk = questions[start : start + size]
        start += size
        bank_id = f"bank-{n:03d}"
        (konum / "content" / "banks" / f"{bank_id}.yml").write_text(
            konum_bank(bank_id, chunk), encoding="utf-8"
        )
        (konum / "content" / "lessons" / f"page-{n:03d}.md").write_text(
            page_text(bank_id, f"Quiz {bank_id}").replace(
                "row 1 of $PE$ for $d = 4$ has two pairs", "sines and cosines come in pairs"
            ),
            encoding="utf-8",
        )
        (peer / "docs" / "lessons" / f"page-{n:03d}.md").write_text(
            peer_markdown(f"Quiz {bank_id}", chunk), encoding="utf-8"
        )
    index = "# Synthetic course\n\nA page without a quiz.\n"
    (konum / "content" / "index.md").write_text(index, encoding="utf-8")
    (peer / "docs" / "index.md").write_text(index, encoding="utf-8")
    # Choice and fill-in questions need no plugin: the site names none, as a teacher's would.
    no_plugins = MKDOCS_YML.replace("      plugins: [pe]\n", "")
    assert no_plugins != MKDOCS_YML
    (konum / "mkdocs.yml").write_text(no_plugins, encoding="utf-8")
    (peer / "mkdocs.yml").write_text(PEER_MKDOCS_YML, encoding="utf-8")
    return konum, peer
