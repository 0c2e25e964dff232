"""konum serve's rebuilds load, check and draw again only what a save changed
(``konum.course.Kept``): which files were checked, and which variants drawn, after each
edit (never a time)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from konum.course import Course, Kept, load_course
from konum.problems import BankError
from konum.siteconfig import read_site_config
from tests.miniproject import make_project

BANKS = 3


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """The mini project with ``BANKS`` more banks (its own, renamed), each on a page."""
    project = make_project(tmp_path)
    banks = project / "content" / "banks"
    mini = (banks / "mini.yml").read_text(encoding="utf-8")
    for n in range(BANKS):
        text = mini.replace("bank: mini", f"bank: extra{n}").replace("id: mini-", f"id: x{n}-")
        (banks / f"extra{n}.yml").write_text(text, encoding="utf-8")
    return project


def course(project: Path, kept: Kept) -> Course:
    cwd = os.getcwd()
    os.chdir(project)
    try:
        return load_course(read_site_config(project / "mkdocs.yml").options, kept=kept)
    finally:
        os.chdir(cwd)


def checked(kept: Kept) -> list[str]:
    return sorted(Path(file).name for file in kept.check.checked)


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")
    stat = path.stat()  # a save within the clock's tick still counts as a change
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))


def test_a_saved_bank_is_the_only_one_checked_and_drawn_again(project: Path) -> None:
    kept = Kept()
    first = course(project, kept)
    assert checked(kept) == ["extra0.yml", "extra1.yml", "extra2.yml", "mini.yml"]
    drawn = {q.id: first.concrete(q) for bank in first.banks for q in bank.questions}

    again = course(project, kept)  # nothing saved: nothing checked, the same variants
    assert checked(kept) == []
    assert all(again.concrete(q) is drawn[q.id] for b in again.banks for q in b.questions)

    edit(project / "content" / "banks" / "extra1.yml", "Which function", "Which one")
    edited = course(project, kept)
    assert checked(kept) == ["extra1.yml"]
    for bank in edited.banks:
        for q in bank.questions:
            same = edited.concrete(q) is drawn[q.id]
            assert same == (bank.id != "extra1"), q.id
    assert "Which one" in edited.by_id["extra1"].questions[0].prompt


def test_a_saved_page_checks_no_bank(project: Path) -> None:
    kept = Kept()
    course(project, kept)
    edit(project / "content" / "index.md", "#", "# Edited:")
    course(project, kept)
    assert checked(kept) == []


def test_questions_written_in_a_page_are_checked_again_with_their_page(project: Path) -> None:
    page = project / "content" / "lessons" / "asked.md"
    page.write_text(
        "# Asked\n\n/// question\nid: asked-fill\ntype: fill\nprompt: 'Two: ____'\n"
        "blanks:\n  - answers: ['2']\nexplanation: Two.\n///\n",
        encoding="utf-8",
    )
    kept = Kept()
    course(project, kept)
    assert "asked.md" in checked(kept)
    edit(page, "Two: ____", "Two, again: ____")
    later = course(project, kept)
    assert checked(kept) == ["asked.md"]
    assert any("again" in q.prompt for b in later.banks for q in b.questions)


def test_a_broken_save_says_every_problem_and_its_fix_is_checked_alone(project: Path) -> None:
    kept = Kept()
    course(project, kept)
    bank = project / "content" / "banks" / "extra2.yml"
    edit(bank, "correct: true", "correct: maybe")
    with pytest.raises(BankError) as raised:
        course(project, kept)
    assert checked(kept) == ["extra2.yml"]
    problems = raised.value.problems
    assert {(Path(p.file).name, p.question_id) for p in problems} == {("extra2.yml", "x2-choice")}
    edit(bank, "correct: maybe", "correct: true")
    course(project, kept)
    assert checked(kept) == ["extra2.yml"]
