"""The real site: every lesson has what issue 5 asks for, and both builders accept it."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from konum.types import ChoiceQuestion, MatchingQuestion
from tests.helpers import load_banks

REPO = Path(__file__).resolve().parent.parent
LESSONS = sorted((REPO / "content" / "lessons").glob("*.md"))
QUESTION = re.compile(r'data-question-id="(?P<id>[^"]+)"\s+data-type="(?P<type>[a-z]+)"')


def _page(site: Path, source: Path) -> str:
    return (site / "lessons" / source.with_suffix(".html").name).read_text(encoding="utf-8")


def test_there_are_eight_lessons() -> None:
    assert len(LESSONS) >= 8


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.stem)
def test_lesson_has_prose_math_code_exercise_figure_and_quiz(
    built_site: Path, lesson: Path
) -> None:
    html = _page(built_site, lesson)
    assert html.count("<math") >= 3, "math rendered to MathML"
    assert '<div class="highlight">' in html, "a numpy code block"
    assert 'class="konum-figure"' in html and "<svg" in html, "a figure drawn from the core"
    assert "<details" in html, "a collapsible example solution"
    types = Counter(m.group("type") for m in QUESTION.finditer(html))
    assert sum(types.values()) >= 8, types
    assert set(types) >= {"choice", "fill", "matching", "numeric", "computed"}, types
    assert types["computed"] >= 3, types


PAGES = [*LESSONS, *(REPO / "content" / name for name in ("index.md", "summary.md", "glossary.md"))]
TYPED_RESULT = re.compile(r"(?<![\w.^_{])-?\d+\.\d{3,}(?![\w.])")


def test_bank_texts_state_no_hand_typed_results() -> None:
    """Prompts, options, feedback, explanations and cards state no computed result by hand:
    numbers a reader must compute come from computed questions."""
    for bank in load_banks(REPO / "content" / "banks"):
        texts = [(card.id, card.front + " " + card.back) for card in bank.flashcards]
        for q in bank.questions:
            parts = [q.prompt, q.explanation, q.hint or ""]
            if isinstance(q, ChoiceQuestion):
                parts += [o.text + " " + (o.feedback or "") for o in q.options]
            if isinstance(q, MatchingQuestion):
                parts += [p.left + " " + p.right for p in q.pairs]
            texts.append((q.id, " ".join(parts)))
        for ident, text in texts:
            assert TYPED_RESULT.findall(text) == [], f"{bank.id}/{ident}"


def test_prompts_leave_select_all_that_apply_to_the_quiz() -> None:
    """The quiz and the flashcards say "Select all that apply" for a question with several
    correct options; a prompt that says it too shows it twice."""
    for bank in load_banks(REPO / "content" / "banks"):
        for q in bank.questions:
            if isinstance(q, ChoiceQuestion) and q.multiple:
                assert "all that apply" not in q.prompt.lower(), f"{bank.id}/{q.id}"


@pytest.mark.parametrize("lesson", PAGES, ids=lambda p: p.stem)
def test_lesson_states_no_hand_typed_results(lesson: Path) -> None:
    """Decimal results must come from {{ ... }} expressions, not be typed into the prose.

    Results are shown to three or more decimals; hyperparameters such as ``std=0.02`` or
    ``rotary_pct = 0.25`` are settings a lesson may state, and have fewer.
    """
    text = lesson.read_text(encoding="utf-8")
    text = re.sub(r"\{\{.*?\}\}|\{%.*?%\}", "", text, flags=re.DOTALL)
    typed = TYPED_RESULT.findall(text)
    assert typed == [], f"numbers typed by hand in {lesson.name}: {typed}"


def test_every_bank_appears_on_a_page(built_site: Path) -> None:
    html = "".join(p.read_text(encoding="utf-8") for p in built_site.rglob("*.html"))
    shown = {m.group("id") for m in QUESTION.finditer(html)}
    for bank in load_banks(REPO / "content" / "banks"):
        assert {q.id for q in bank.questions} <= shown, bank.id


def test_pages_without_a_quiz_load_no_konum_quiz_assets(built_site: Path) -> None:
    for page in ("index.html", "glossary.html"):
        html = (built_site / page).read_text(encoding="utf-8")
        assert 'data-konum-asset="quiz"' not in html and "konumQuiz" not in html, page
        assert html.count('data-konum-asset="progress"') == 1, page  # the nav's marks


def test_the_summary_ends_with_an_exam_mode_review(built_site: Path) -> None:
    for page in ("summary.html",):  # the Turkish site (mkdocs.tr.yml) shows the same block
        html = (built_site / page).read_text(encoding="utf-8")
        assert html.count('<section class="konum-quiz"') == 1 and 'data-mode="exam"' in html, page
        assert 'data-draw="8"' in html and 'data-time-limit="900"' in html, page
        assert "window.konumExam" in html, page  # quiz-exam.js, on this page only


def test_site_needs_no_outside_host(built_site: Path) -> None:
    for page in built_site.rglob("*.html"):
        html = page.read_text(encoding="utf-8")
        assert "fonts.googleapis" not in html and "cdn.jsdelivr" not in html, page
        # A canonical link names the published address; it is not a request.
        fetched = re.sub(r'<link rel="(?:canonical|alternate)"[^>]*>', "", html)
        assert not re.search(r'<(?:script|link|img)[^>]+(?:src|href)="https?://', fetched), page


def test_home_glossary_summary_and_flashcards_exist(built_site: Path) -> None:
    for page in (
        "index.html",
        "glossary.html",
        "summary.html",
        "flashcards.html",
        "authoring.html",
    ):
        assert (built_site / page).is_file(), page


@pytest.mark.slow
def test_plain_mkdocs_build_strict(tmp_path: Path) -> None:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    mkdocs = shutil.which("mkdocs", path=str(Path(os.sys.executable).parent))
    assert mkdocs is not None
    result = subprocess.run(
        [mkdocs, "build", "--strict", "-d", str(tmp_path / "plain")],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "data-konum-quiz" in (tmp_path / "plain" / "lessons" / "02-sinusoidal.html").read_text()
    # Quizzes are rendered in place, so Material's search plugin parses them; they stay out
    # of the index (data-search-exclude).
    index = (tmp_path / "plain" / "search" / "search_index.json").read_text(encoding="utf-8")
    assert "lessons/02-sinusoidal.html" in index and "Question 1 of" not in index


@pytest.mark.slow
def test_zensical_builds_the_same_config(tmp_path: Path) -> None:
    zensical = shutil.which("zensical", path=str(Path(os.sys.executable).parent))
    assert zensical is not None, "zensical is a test dependency"
    # Both editions at once (Zensical's build is mostly one process waiting on another),
    # each in its own copy: the English build cleans site/, site/tr included.
    editions = {"mkdocs.yml": tmp_path / "en", "mkdocs.tr.yml": tmp_path / "tr"}
    for project in editions.values():
        shutil.copytree(
            REPO,
            project,
            # Only what the build reads: no virtualenvs (the oldest Python's too), caches or git.
            ignore=shutil.ignore_patterns(
                ".venv*",
                "site",
                ".git",
                ".site-*",
                "__pycache__",
                "*_cache",
                "node_modules",
                "bench",
            ),
        )
    runs = {
        name: subprocess.Popen(
            [zensical, "build", "-f", name],
            cwd=project,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        for name, project in editions.items()
    }
    for name, run in runs.items():
        output, _ = run.communicate(timeout=900)
        assert run.returncode == 0, (name, output)
    site = editions["mkdocs.yml"] / "site"
    page = next(site.rglob("02-sinusoidal*/index.html"), None) or next(
        site.rglob("02-sinusoidal*.html")
    )
    html = page.read_text(encoding="utf-8")
    assert "data-konum-quiz" in html and "<math" in html
    # The Turkish edition: its own nav only (Zensical's INHERIT appends inherited lists, so
    # the lists an edition sets live in its own file), Turkish texts for the quiz's script.
    turkish_site = editions["mkdocs.tr.yml"] / "site" / "tr"
    turkish = next(turkish_site.rglob("02-sinusoidal*.html")).read_text(encoding="utf-8")
    assert "data-konum-quiz" in turkish and "Yeni sayılar" in turkish
    assert '<html lang="tr"' in turkish
    assert "Use konum in your own site" not in turkish and "Sinüs kodlaması" in turkish


def test_every_computed_question_gets_new_numbers_with_a_new_seed() -> None:
    from konum.types import ComputedQuestion
    from tests.helpers import make_concrete

    for bank in load_banks(REPO / "content" / "banks"):
        for question in bank.questions:
            if not isinstance(question, ComputedQuestion):
                continue
            first = make_concrete(question, 42).variants
            second = make_concrete(question, 43).variants
            assert [v.values for v in first] != [v.values for v in second], question.id
            assert [v.prompt for v in first] != [v.prompt for v in second], question.id


def test_authoring_page_documents_every_generator(built_site: Path) -> None:
    from tests.helpers import GENERATORS

    html = (built_site / "authoring.html").read_text(encoding="utf-8")
    for name in GENERATORS:
        assert f"<code>{name}</code>" in html, name
