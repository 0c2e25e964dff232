"""Printable exams: pdftotext of the PDFs shows each version's own numbers and its key's
answers as konum computes them; the same seed gives the same text; bad input is one line;
the Turkish edition's exam is Turkish throughout (its words, numbers and figures).

The PDFs come from ``konum exam`` run on the physics example (formula and generator
questions, choice, fill, matching and numeric); the expected numbers come from konum's
own API (variant ``v - 1`` of each computed question for the seed, the version's option
order), never from the exam's files.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from markupsafe import escape

from konum.build import read_site_config
from konum.config import override
from konum.course import Course, course_for
from konum.exam import ExamError, build_versions, render_pages, select_questions, write_exam
from konum.formatting import format_number, typeset_number, with_unit
from konum.messages import catalogue, message
from konum.seeding import derive_seed
from konum.types import (
    Blank,
    ChoiceQuestion,
    ComputedQuestion,
    FillQuestion,
    MatchingQuestion,
    NumericQuestion,
    OrderingQuestion,
)
from konum.types.choice import option_order
from tests.helpers import PE, all_texts, forms, make_concrete
from tests.miniproject import konum as run_konum

REPO = Path(__file__).resolve().parent.parent
PHYSICS = REPO / "examples" / "physics"
SEED = 7
IMAGE = re.compile(r"!\[[^\]]*\]\([^)]*\)")

pytestmark = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs pdftotext")


def konum(
    *args: str, cwd: Path = PHYSICS, path: str | None = None
) -> subprocess.CompletedProcess[str]:
    return run_konum(cwd, *args, env={"PATH": path} if path is not None else None)


def pdf_text(path: Path) -> str:
    result = subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True
    )
    return result.stdout


def flat(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture(scope="module")
def course() -> Course:
    return course_for(override(read_site_config(PHYSICS / "mkdocs.yml").options, seed=SEED))


@pytest.fixture(scope="module")
def printed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("exam") / "out"
    result = konum("exam", "--seed", str(SEED), "--versions", "2", "-o", str(folder))
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert result.stdout.strip() == (
        f"konum: wrote 2 versions of 12 questions (seed {SEED}, 8 files) to {folder}"
    )
    return folder


def sections(text: str) -> dict[int, str]:
    """Question number -> its text, from a page's text."""
    parts = re.split(r"^\s*Question (\d+)\b", text, flags=re.MULTILINE)
    return {int(number): flat(body) for number, body in zip(parts[1::2], parts[2::2], strict=True)}


def letter(index: int) -> str:
    return chr(ord("A") + index)


@pytest.mark.external
@pytest.mark.slow
def test_each_version_shows_its_numbers_and_its_key_the_answers(
    printed: Path, course: Course
) -> None:
    questions = [q for bank in course.banks for q in bank.questions]
    drawn = {
        q.id: q.concrete(course.draw(SEED, 2)) for q in questions if isinstance(q, ComputedQuestion)
    }
    prompts_by_version = []
    for version in (1, 2):
        exam = sections(pdf_text(printed / f"version-{version}.pdf"))
        key = sections(pdf_text(printed / f"version-{version}-key.pdf"))
        assert sorted(exam) == sorted(key) == list(range(1, len(questions) + 1))
        number_of = {}
        for number, body in key.items():
            (qid,) = [q.id for q in questions if body.startswith(q.id + " ")]
            number_of[qid] = number
        assert sorted(number_of) == sorted(q.id for q in questions)
        prompts = {}
        for q in questions:
            number = number_of[q.id]
            exam_body, key_body = exam[number], key[number]
            if isinstance(q, ComputedQuestion):
                variant = drawn[q.id].variants[version - 1]
                prompt = variant.prompt
                if "konum-image/" in prompt:  # an image prints as its drawing
                    assert "R₁ R₂" in exam_body, (version, q.id)  # parallel.svg's labels
                    prompt = IMAGE.sub("", prompt)
                opening = flat(prompt.split("$")[0])  # the numbers come before any math
                assert opening in exam_body, (version, q.id)
                prompts[q.id] = opening
                # A real minus sign, as the quiz pages show it; the unit after a no-break space.
                shown = flat(typeset_number(with_unit(variant.shown_answer, variant.unit)))
                if variant.options:
                    right = next(i for i, o in enumerate(variant.options) if o.correct)
                    text = flat(typeset_number(variant.options[right].text))
                    assert f"{letter(right)}. {text}" in exam_body
                    assert key_body.startswith(f"{q.id} {letter(right)} {shown}")
                else:
                    assert key_body.startswith(f"{q.id} {shown} (± ")
                assert "Worked solution" in key_body
            elif isinstance(q, ChoiceQuestion):
                order = option_order(q, derive_seed(SEED, "exam", version))
                right = [k for k, i in enumerate(order) if q.options[i].correct]
                for k, i in enumerate(order):
                    assert f"{letter(k)}. {flat(q.options[i].text)}" in exam_body
                assert key_body.startswith(f"{q.id} {letter(right[0])} ")
            elif isinstance(q, NumericQuestion):
                assert key_body.startswith(f"{q.id} {q.answer:g} (± 0)")
            elif isinstance(q, FillQuestion):
                assert "(1)" in exam_body
                assert key_body.startswith(f"{q.id} (1) {q.blanks[0].answers[0]} (also ")
            elif isinstance(q, MatchingQuestion):
                for k, pair in enumerate(q.pairs, start=1):
                    assert re.search(rf"{k} → [A-D] {pair.right}", key_body), (k, pair.right)
        prompts_by_version.append(prompts)
    assert prompts_by_version[0] != prompts_by_version[1]  # other numbers


@pytest.mark.external
@pytest.mark.slow
def test_the_same_seed_gives_the_same_pdfs_text(printed: Path, tmp_path: Path) -> None:
    again = tmp_path / "again"
    result = konum("exam", "--seed", str(SEED), "--versions", "2", "-o", str(again))
    assert result.returncode == 0, result.stderr
    names = sorted(p.name for p in printed.iterdir())
    assert names == sorted(p.name for p in again.iterdir())
    assert len(names) == 9 and ".konum-output" in names  # the 8 files and konum's mark
    for name in names:
        if name.endswith(".pdf"):
            assert pdf_text(again / name) == pdf_text(printed / name), name
        else:
            assert (again / name).read_bytes() == (printed / name).read_bytes(), name
    # Versions differ in order too, and the cover has a page of its own.
    first, second = (pdf_text(printed / f"version-{v}.pdf") for v in (1, 2))
    assert first != second
    cover = first.split("\f")[0]
    assert "Version 1" in cover and "Name" in cover and "Question 1" not in cover


@pytest.mark.external
@pytest.mark.slow
def test_pages_are_print_ready(printed: Path) -> None:
    page = (printed / "version-1.html").read_text(encoding="utf-8")
    for control in ("<input", "<button", "<select", "<textarea", "<script", "<form"):
        assert control not in page
    assert "<math" in page  # the projectile prompt's g = 9.81 as MathML
    assert "break-after: page" in page and "break-inside: avoid" in page
    assert "@page" in page


def test_without_chromium_the_html_is_still_written(tmp_path: Path) -> None:
    out = tmp_path / "html-only"
    bare = str(Path(sys.executable).parent)  # python, no browser
    result = konum(
        "exam",
        "-f",
        str(REPO / "mkdocs.yml"),
        "--versions",
        "1",
        "--questions",
        "alibi",
        "-o",
        str(out),
        cwd=tmp_path,
        path=bare,
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr.strip() == (
        "konum: no Chromium found (chromium, chromium-browser or google-chrome on PATH): "
        "wrote the HTML only, no PDF"
    )
    assert sorted(p.name for p in out.iterdir()) == [
        ".konum-output",
        "version-1-key.html",
        "version-1.html",
    ]
    page = (out / "version-1.html").read_text(encoding="utf-8")
    assert "<svg" in page  # the alibi bank's figure, inline
    assert '<html lang="en">' in page


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--versions", "0"], "konum: --versions: expected 1 to 50, found 0"),
        (["--count", "13"], "konum: --count: expected 1 to 12 (the questions picked), found 13"),
        (
            ["--questions", "mechanic"],
            "konum: --questions 'mechanic': no bank or tag of that name; did you mean "
            "'mechanics'? (banks: circuits, mechanics, units)",
        ),
    ],
)
def test_bad_input_is_one_line(args: list[str], message: str, tmp_path: Path) -> None:
    result = konum("exam", *args, "-o", str(tmp_path / "out"))
    assert result.returncode == 1
    assert result.stderr.strip() == message
    assert not (tmp_path / "out").exists()


def test_questions_by_bank_tag_and_count(course: Course) -> None:
    mechanics = [q.id for q in course.by_id["mechanics"].questions]
    assert [q.id for q in select_questions(course, ["mechanics"], None, SEED)] == mechanics
    tagged = select_questions(course, ["circuits", "mechanics"], 3, SEED)
    assert len(tagged) == 3
    assert [q.id for q in select_questions(course, ["circuits", "mechanics"], 3, SEED)] == [
        q.id for q in tagged
    ]
    every = [q.id for bank in course.banks for q in bank.questions]
    assert [q.id for q in tagged] == [i for i in every if i in {q.id for q in tagged}]
    with pytest.raises(ExamError, match="expected 1 to 5"):
        select_questions(course, ["mechanics"], 0, SEED)


def test_questions_by_tag() -> None:
    own = course_for(read_site_config(REPO / "mkdocs.yml").options)
    every = [q for bank in own.banks for q in bank.questions]
    tagged = [q.id for q in every if "computed" in q.tags]
    assert tagged and len(tagged) < len(every)
    assert [q.id for q in select_questions(own, ["computed"], None, SEED)] == tagged
    both = {q.id for q in every if "computed" in q.tags or q.bank == "rope"}
    assert {q.id for q in select_questions(own, ["computed", "rope"], None, SEED)} == both


def test_an_ordering_question_prints_lettered_items_and_its_key_the_order() -> None:
    from konum.types.ordering import item_order

    own = course_for(read_site_config(REPO / "mkdocs.yml").options)
    q = next(q for b in own.banks for q in b.questions if isinstance(q, OrderingQuestion))
    (version,) = build_versions(own, [q], seed=SEED, versions=1)
    (printed,) = version.questions
    order = item_order(q, derive_seed(SEED, "exam", 1))
    assert printed.kind == "ordering" and len(printed.options) == len(q.items)
    assert (
        printed.answer
        == "<strong>" + ", ".join(letter(order.index(p)) for p in range(len(q.items))) + "</strong>"
    )
    exam, key = render_pages(version, title="Course")
    assert "Order (letters, first to last)" in exam and str(printed.answer) in key


# --- the Turkish edition ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def turkish_course() -> Course:
    return course_for(override(read_site_config(REPO / "mkdocs.tr.yml").options, seed=SEED))


@pytest.fixture(scope="module")
def turkish(turkish_course: Course, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    """Version 1 of an exam of every question of the Turkish edition: the exam page and the
    key page, as ``konum exam -f mkdocs.tr.yml`` writes them (HTML only)."""
    out = tmp_path_factory.mktemp("turkish")
    write_exam(turkish_course, out, seed=SEED, versions=1, title="konum")
    exam, key = (out / f"version-1{end}.html" for end in ("", "-key"))
    return exam.read_text(encoding="utf-8"), key.read_text(encoding="utf-8")


def by_question(page: str) -> dict[str, str]:
    """A key page's questions by id: each one's section, HTML."""
    found = {}
    for section in page.split('<section class="konum-exam-question"')[1:]:
        match = re.search(r'<span class="konum-exam-id">([^<]+)</span>', section)
        assert match, section[:200]
        found[match.group(1)] = section
    return found


def visible(page: str) -> str:
    """The words a reader sees on ``page`` (its <title> too), without its math and code,
    which are the same in every language."""
    page = re.sub(r"<(style|math|code|pre)\b.*?</\1>", " ", page, flags=re.S)
    return flat(re.sub(r"<[^>]+>", " ", page))


def test_a_turkish_exam_is_worded_from_the_turkish_catalogue(
    turkish: tuple[str, str], turkish_course: Course
) -> None:
    exam, key = turkish
    count = turkish_course.questions

    def tr(name: str, **fields: object) -> str:
        return str(escape(message("tr", f"print.{name}", **fields)))

    assert exam.startswith('<!DOCTYPE html>\n<html lang="tr">')
    assert key.startswith('<!DOCTYPE html>\n<html lang="tr">')
    assert f"<title>{tr('exam_title', course='konum', number=1)}</title>" in exam
    assert f"<title>{tr('key_title', course='konum', number=1)}</title>" in key
    for text in (
        f"<h1>{tr('exam')}</h1>",
        f">{tr('version', number=1)}</p>",
        f"<dt>{tr('name')}</dt>",
        f"<dt>{tr('student_number')}</dt>",
        f"<dt>{tr('date')}</dt>",
        f"{tr('questions', n=count)}.",
        tr("instructions"),
        f">{tr('seed_version', seed=SEED, number=1)}</p>",
        f"<h2>{tr('question', number=1)}</h2>",
        f">{tr('choose_all')}</p>",
        f">{tr('order')} <span",
        f">{tr('answer')} <span",
    ):
        assert text in exam, text
    for text in (
        f"<h1>{tr('key', number=1)}</h1>",
        f">{tr('key_meta', seed=SEED, number=1, n=count)}</p>",
        f"<h2>{tr('question', number=1)} <span",
        f"<strong>{tr('worked_solution')}</strong>",
        f"<strong>{tr('prints')}</strong>",
        f", {tr('case_matters')}",
        message("tr", "print.also", answers="<code>1</code>"),
    ):
        assert text in key, text
    # Every text of the section shows somewhere (print.matching: see the next test).
    shown = exam + key
    for name, text in catalogue("tr", PE.messages).items():
        if name.startswith("print.") and name != "print.matching":
            for piece in re.split(r"\{\w+\}", text):
                assert str(escape(piece.strip())) in shown, (name, piece)


def test_a_turkish_key_words_every_kind_of_blank(turkish_course: Course) -> None:
    fill = next(
        q
        for b in turkish_course.banks
        for q in b.questions
        if isinstance(q, FillQuestion) and len(q.blanks) == 1
    )
    blanks = (
        Blank(("a", "b"), regex="a+", case_sensitive=True),
        Blank((), regex="[0-9]+"),
    )
    prompt = "____ ve ____"
    q = replace(fill, prompt=prompt, blanks=blanks)
    (version,) = build_versions(turkish_course, [q], seed=SEED, versions=1)
    _, key = render_pages(version, title="konum")
    first = "<strong>(1)</strong> <code>a</code> {} {}, {}".format(
        message("tr", "print.also", answers="<code>b</code>"),
        message("tr", "print.or_matching", pattern="<code>a+</code>"),
        message("tr", "print.case_matters"),
    )
    # A regex alone shows a text it matches first.
    second = "<strong>(2)</strong> <code>0</code> " + message(
        "tr", "print.or_matching", pattern="<code>[0-9]+</code>"
    )
    assert f"{first}<br>{second}" in key


def test_a_turkish_key_writes_numbers_with_a_decimal_comma(
    turkish: tuple[str, str], turkish_course: Course
) -> None:
    from konum.types.numeric import tolerance_text

    assert tolerance_text(0.0055) == "0.0055" and tolerance_text(6e-05) == "0.00006"
    assert tolerance_text(0.0055, "tr") == "0,0055"
    _, key = turkish
    sections = by_question(key)
    english = course_for(override(read_site_config(REPO / "mkdocs.yml").options, seed=SEED))
    checked = []
    for bank in english.banks:
        for q in bank.questions:
            if isinstance(q, NumericQuestion) and q.decimals:
                value, decimals, tolerance = q.answer, q.decimals, q.tolerance
            elif isinstance(q, ComputedQuestion):
                (variant,) = make_concrete(q, SEED, 1).variants
                if variant.options or not variant.decimals:
                    continue
                value, decimals = variant.answer, variant.decimals
                tolerance = variant.tolerance
            else:
                continue
            point = format_number(value, decimals)
            comma = typeset_number(format_number(value, decimals, language="tr"))
            assert "," in comma and "-" not in comma
            assert re.fullmatch(r"−?\d{1,3}(?:\.\d{3})*,\d+", comma.split()[0]), comma
            answer = re.search(r'<p class="konum-exam-key-answer">(.*?)</p>', sections[q.id])
            assert answer, q.id
            assert answer.group(1).startswith(f"<strong>{comma}"), (q.id, answer.group(1))
            assert point not in answer.group(1), q.id
            if isinstance(q, ComputedQuestion):
                assert f"(± {tolerance_text(tolerance, 'tr')})" in answer.group(1), q.id
            checked.append(q.id)
    assert len(checked) > 5


def test_a_key_writes_negative_numbers_with_a_minus_sign(course: Course) -> None:
    """A negative answer in the key has U+2212, as the quiz pages show it, not a hyphen."""
    q = next(q for b in course.banks for q in b.questions if isinstance(q, NumericQuestion))
    for answer, shown in ((-0.25, "\u22120.25"), (0.25, "0.25")):
        negative = replace(q, answer=answer, decimals=2, unit=None)
        (version,) = build_versions(course, [negative], seed=SEED, versions=1)
        (printed,) = version.questions
        assert printed.answer.startswith(f"<strong>{shown}</strong> (± "), printed.answer


def test_a_turkish_exam_has_no_english_interface_words(turkish: tuple[str, str]) -> None:
    turkish_texts = all_texts("tr")
    english = {"Question", "Version", "Answer key", "Student number", "Seed"}
    for name, text in catalogue("en", PE.messages).items():
        if name.startswith("print."):
            for form in forms(text):
                for piece in re.split(r"\{\w+\}", form):
                    piece = piece.strip(" .,:;()")
                    if re.search(r"[A-Za-z]{3}", piece) and piece not in turkish_texts:
                        english.add(piece)
    assert {"Exam", "Worked solution", "case matters"} <= english
    for page in turkish:
        text = visible(page)
        assert "Soru 1" in text
        for piece in sorted(english):
            assert not re.search(rf"(?<![\w-]){re.escape(piece)}(?![\w-])", text), piece


def test_a_turkish_exam_draws_its_figures_in_turkish(
    turkish: tuple[str, str], turkish_course: Course
) -> None:
    from tests.helpers import render_svg

    exam, _ = turkish
    refs = [q.figure for b in turkish_course.banks for q in b.questions if q.figure]
    assert refs
    for ref in refs:
        drawn = {
            language: render_svg(ref.name, ref.alt, ref.caption, language=language, **ref.params)
            for language in ("tr", "en")
        }
        assert drawn["tr"] != drawn["en"]
        assert drawn["tr"] in exam and drawn["en"] not in exam
