"""Questions written in the page (``/// question``): a site with no bank file at all, its
questions checked at the page's lines, shown, numbered, studied, exported and printed like a
bank's, and each edition's page carrying its own text."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.miniproject import konum

SPEED = """\
# Speed

Read this first.

/// question
id: speed
type: numeric
prompt: A car covers 100 m in 5 s. What is its speed in m/s?
answer: 20
explanation: Speed is distance over time, 100 / 5 = 20.
///

/// question
id: unit
type: choice
prompt: Which unit is a speed's?
options:
  - text: m/s
    correct: true
  - text: kg
explanation: Distance over time.
///
"""


def _site(folder: Path, page: str = SPEED, config: str = "") -> Path:
    (folder / "docs" / "lessons").mkdir(parents=True)
    (folder / "docs" / "lessons" / "speed.md").write_text(page, encoding="utf-8")
    (folder / "docs" / "index.md").write_text(
        "# Home\n\n/// quiz | lessons-speed\n    questions: unit\n///\n", encoding="utf-8"
    )
    (folder / "mkdocs.yml").write_text(
        f"site_name: 'İstatistik: Olasılık'\nmarkdown_extensions:\n  - konum{config}\n",
        encoding="utf-8",
    )
    return folder


def test_a_site_needs_no_bank_file(tmp_path: Path) -> None:
    site = _site(tmp_path)
    checked = konum(site, "check")
    assert checked.returncode == 0, checked.stderr
    assert checked.stdout.strip() == "1 bank, 2 questions: all good"
    built = konum(site, "build")
    assert built.returncode == 0, built.stderr
    page = (site / "site" / "lessons" / "speed" / "index.html").read_text(encoding="utf-8")
    assert re.findall(r'data-question-id="([\w-]+)"', page) == ["speed", "unit"]
    assert "Read this first." in page and "id: speed" not in page  # the YAML is not shown
    home = (site / "site" / "index.html").read_text(encoding="utf-8")
    assert re.findall(r'data-question-id="([\w-]+)"', home) == ["unit"]
    downloads = sorted(p.name for p in (site / "site" / "downloads").iterdir())
    assert "istatistik-olasilik.apkg" in downloads
    cards = (site / "site" / "downloads" / "istatistik-olasilik.csv").read_text(encoding="utf-8")
    assert "100 m in 5 s" in cards and "Which unit" in cards
    moodle = konum(site, "export", "moodle")
    assert "wrote 2 of 2 questions" in moodle.stdout, moodle.stderr
    exam = konum(site, "exam")
    assert exam.returncode == 0 and "of 2 questions" in exam.stdout, exam.stderr


@pytest.mark.parametrize(
    ("change", "line"),
    [
        (("answer: 20", "answr: 20"), "docs/lessons/speed.md:9:1: [speed] answr: unknown key"),
        (("id: unit", "id: speed"), "docs/lessons/speed.md:14:5: [speed] id: duplicate id"),
        (("answer: 20", "answer: [20"), "docs/lessons/speed.md:10:12: YAML syntax error"),
    ],
    ids=["key", "duplicate", "yaml"],
)
def test_a_page_question_s_problem_is_at_the_page_s_line(
    tmp_path: Path, change: tuple[str, str], line: str
) -> None:
    site = _site(tmp_path, SPEED.replace(*change))
    checked = konum(site, "check")
    assert checked.returncode == 1 and "Traceback" not in checked.stderr
    first = checked.stderr.splitlines()[0]
    assert first.replace(f"{site}/", "").startswith(line), first
    built = konum(site, "build")
    assert built.returncode == 1 and "speed.md:" in built.stderr, built.stderr


def test_a_malformed_question_block_is_a_page_problem(tmp_path: Path) -> None:
    site = _site(tmp_path, SPEED.replace("/// question\nid: unit", "/// question | unit\nid: u"))
    checked = konum(site, "check")
    assert checked.returncode == 1
    assert (
        "docs/lessons/speed.md:13:1: '/// question | unit': a question block takes nothing"
        in checked.stderr
    ), checked.stderr


def test_each_edition_s_page_carries_its_own_text(tmp_path: Path) -> None:
    site = _site(
        tmp_path, config=":\n      translations: tr-banks\n      editions: [mkdocs.tr.yml]"
    )
    (site / "tr-banks").mkdir()
    turkish = SPEED.replace("# Speed", "# Hız").replace(
        "A car covers 100 m in 5 s. What is its speed in m/s?",
        "Bir araba 5 s'de 100 m gidiyor. Hızı kaç m/s?",
    )
    (site / "docs-tr" / "lessons").mkdir(parents=True)
    (site / "docs-tr" / "lessons" / "speed.md").write_text(turkish, encoding="utf-8")
    (site / "docs-tr" / "index.md").write_text("# Ana sayfa\n", encoding="utf-8")
    (site / "mkdocs.tr.yml").write_text(
        "INHERIT: mkdocs.yml\ndocs_dir: docs-tr\nsite_dir: site/tr\nmarkdown_extensions:\n"
        "  - konum:\n      language: tr\n      translations: tr-banks\n",
        encoding="utf-8",
    )
    checked = konum(site, "check")
    assert checked.returncode == 0, checked.stderr
    built = konum(site, "build")
    assert built.returncode == 0, built.stderr
    page = (site / "site" / "tr" / "lessons" / "speed" / "index.html").read_text("utf-8")
    assert "Hızı kaç m/s?" in page and "What is its speed" not in page
    assert re.findall(r'data-question-id="([\w-]+)"', page) == ["speed", "unit"]
    english = (site / "site" / "lessons" / "speed" / "index.html").read_text("utf-8")
    assert "What is its speed" in english


def test_an_edition_s_pages_inside_the_main_pages_are_its_own(tmp_path: Path) -> None:
    """An edition whose docs_dir lies inside the main one's (``docs/tr`` in ``docs``, as this
    course has ``content/tr``): its page questions are its own, not the main edition's too
    (they were, and their ids clashed with the main page's)."""
    site = _site(
        tmp_path,
        config=":\n      translations: tr-banks\n      editions: [mkdocs.tr.yml]\n"
        "exclude_docs: |\n  tr/\n",
    )
    (site / "tr-banks").mkdir()
    turkish = SPEED.replace("A car covers 100 m in 5 s. What is its speed in m/s?", "Hızı kaç?")
    (site / "docs" / "tr" / "lessons").mkdir(parents=True)
    (site / "docs" / "tr" / "lessons" / "speed.md").write_text(turkish, encoding="utf-8")
    (site / "docs" / "tr" / "index.md").write_text("# Ana sayfa\n", encoding="utf-8")
    (site / "mkdocs.tr.yml").write_text(
        "INHERIT: mkdocs.yml\ndocs_dir: docs/tr\nsite_dir: site/tr\nexclude_docs: ''\n"
        "markdown_extensions:\n  - konum:\n      language: tr\n      translations: tr-banks\n",
        encoding="utf-8",
    )
    checked = konum(site, "check")
    assert checked.returncode == 0, checked.stderr
    assert checked.stdout.strip() == "1 bank, 2 questions: all good"
    built = konum(site, "build")
    assert built.returncode == 0, built.stderr
    cards = (site / "site" / "downloads" / "istatistik-olasilik.csv").read_text(encoding="utf-8")
    assert "100 m in 5 s" in cards and "Hızı kaç?" not in cards
    page = (site / "site" / "tr" / "lessons" / "speed" / "index.html").read_text("utf-8")
    assert "Hızı kaç?" in page


def test_an_inner_edition_s_quizzes_do_not_decide_the_main_edition_s_cards(
    tmp_path: Path,
) -> None:
    """A question the main edition shows only in an exam stays off its cards, though the
    inner edition's page (``docs/tr``) quizzes it for practice: that page is the inner
    edition's, not the main one's."""
    site = _site(
        tmp_path,
        config=":\n      translations: tr-banks\n      editions: [mkdocs.tr.yml]\n"
        "exclude_docs: |\n  tr/\n",
    )
    index = site / "docs" / "index.md"
    index.write_text(
        index.read_text(encoding="utf-8").replace(
            "questions: unit", "questions: unit\n    mode: exam"
        ),
        encoding="utf-8",
    )
    (site / "tr-banks").mkdir()
    (site / "docs" / "tr" / "lessons").mkdir(parents=True)
    (site / "docs" / "tr" / "lessons" / "speed.md").write_text(SPEED, encoding="utf-8")
    (site / "docs" / "tr" / "index.md").write_text(
        "# Ana sayfa\n\n/// quiz | lessons-speed\n    questions: unit\n///\n", encoding="utf-8"
    )
    (site / "mkdocs.tr.yml").write_text(
        "INHERIT: mkdocs.yml\ndocs_dir: docs/tr\nsite_dir: site/tr\nexclude_docs: ''\n"
        "markdown_extensions:\n  - konum:\n      language: tr\n      translations: tr-banks\n",
        encoding="utf-8",
    )
    built = konum(site, "build")
    assert built.returncode == 0, built.stderr
    cards = (site / "site" / "downloads" / "istatistik-olasilik.csv").read_text(encoding="utf-8")
    assert "100 m in 5 s" in cards and "Which unit" not in cards


def test_a_computed_question_in_a_page_keeps_its_own_values(tmp_path: Path) -> None:
    """The page's {{ }} are computed at build time; a question's are its own, per variant."""
    page = (
        "# Doubling\n\nTwo and three make {{ 2 + 3 }}.\n\n/// question\nid: double\n"
        "type: computed\nparams:\n  n: {min: 1, max: 9}\nformula: 2 * n\n"
        "prompt: 'Twice {{ n }}?'\nexplanation: Doubling.\n///\n"
    )
    site = _site(tmp_path, page)
    (site / "docs" / "index.md").write_text("# Home\n", encoding="utf-8")
    built = konum(site, "build")
    assert built.returncode == 0, built.stderr
    html = (site / "site" / "lessons" / "speed" / "index.html").read_text(encoding="utf-8")
    assert "Two and three make 5." in html
    assert re.search(r"Twice \d\?", html) and "{{" not in html


def test_the_course_follows_an_edited_page(tmp_path: Path) -> None:
    """A page is a bank: editing its question gives a new course (konum serve's reload)."""
    from konum.config import options_from
    from konum.course import course_for

    site = _site(tmp_path)
    options = options_from({"pages": "docs", "banks": "docs/banks"}, root=site)
    before = course_for(options).by_id["lessons-speed"].questions[0]
    page = site / "docs" / "lessons" / "speed.md"
    page.write_text(page.read_text("utf-8").replace("100 m in 5 s", "200 m in 10 s"), "utf-8")
    after = course_for(options).by_id["lessons-speed"].questions[0]
    assert "100 m in 5 s" in before.prompt and "200 m in 10 s" in after.prompt
