"""The hotspot example (examples/hotspot, issue 43): a question type konum does not have,
given by the site's own plugin file, through every stage.

``hotspot.py`` beside the example's ``mkdocs.yml`` gives ``type: hotspot`` (click the region
of a picture): its class, its template, its printed answer space and its front-end part. The
site builds with MkDocs and Zensical, its quiz page carries the part (and no other page
does), ``konum quiz`` lists the regions by name, the Anki deck's back shows the right region,
the printed exam shows the picture and its key the region, and Moodle, GIFT and QTI hold it
as a choice over the regions' names. No engine file names the type.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import pytest

from tests.miniproject import konum

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = REPO / "examples" / "hotspot"
BIN = Path(sys.executable).parent


def project_in(where: Path) -> Path:
    """A copy of the example in ``where``, without anything a build left in it."""
    target = where / "hotspot"
    shutil.copytree(
        EXAMPLE, target, ignore=shutil.ignore_patterns("site", "exports", "__pycache__")
    )
    return target


def test_no_engine_file_names_the_type() -> None:
    """``git grep -i hotspot generator/konum templates`` finds nothing."""
    files = [*(REPO / "generator" / "konum").rglob("*"), *(REPO / "templates").rglob("*")]
    named = [
        str(path.relative_to(REPO))
        for path in files
        if path.is_file() and b"hotspot" in path.read_bytes().lower()
    ]
    assert named == []


def test_konum_check_reads_it_with_the_sites_plugin(tmp_path: Path) -> None:
    project = project_in(tmp_path)
    result = konum(project, "check")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "1 bank, 2 questions: all good"
    bank = project / "banks" / "heatmaps.yml"
    bank.write_text(bank.read_text().replace("answer: Column B", "answer: Column E"))
    result = konum(project, "check")
    assert result.returncode == 1
    [line, _] = result.stderr.splitlines()
    assert line.endswith(
        "[fastest-column] answer: not one of the regions: expected one of Column A, Column B, "
        "Column C, Column D, found 'Column E'"
    )


@pytest.mark.parametrize("tool", ["mkdocs", "zensical"])
def test_the_site_builds_and_only_the_quiz_page_carries_the_part(tmp_path: Path, tool: str) -> None:
    project = project_in(tmp_path)
    command = [str(BIN / tool), "build", "--strict" if tool == "mkdocs" else "--clean"]
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    result = subprocess.run(
        command, cwd=project, env=env, capture_output=True, text=True, timeout=900, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr
    page = (project / "site" / "heatmaps.html").read_text(encoding="utf-8")
    assert page.count('data-type="hotspot"') == 2
    assert page.count('class="konum-hotspot-region"') == 9  # 4 + 5 regions
    assert page.count('data-konum-asset="part-hotspot"') == 1
    assert page.index('data-konum-asset="quiz"') < page.index('data-konum-asset="part-hotspot"')
    assert "Column B" in page and "konumQuiz.define(" in page
    home = (project / "site" / "index.html").read_text(encoding="utf-8")
    assert "part-hotspot" not in home and "konumQuiz.define(" not in home


def test_konum_quiz_lists_the_regions_by_name(tmp_path: Path) -> None:
    project = project_in(tmp_path)
    answers = "1\n2\n4\n"
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    result = subprocess.run(
        [sys.executable, "-m", "konum", "quiz", "heatmaps"], cwd=project, env=env,
        input=answers, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    said = result.stdout
    assert "(1) Column A (2) Column B (3) Column C (4) Column D" in said
    assert "(1) First (2) Second (3) Third (4) Fourth (5) Fifth" in said
    assert said.split("> 1", 1)[1].lstrip().startswith("Not quite. Try another option.")
    assert said.split("> 2", 1)[1].lstrip().startswith("Correct.")
    assert said.split("> 4", 1)[1].lstrip().startswith("Correct.")


def test_a_built_page_is_taken_with_the_sites_plugin(tmp_path: Path) -> None:
    """``konum quiz`` on a built page grades its plugin type with the plugins of the site's
    mkdocs.yml; without a configuration at hand it says what it lacks, in one line."""
    project = project_in(tmp_path)
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    built = subprocess.run(
        [str(BIN / "mkdocs"), "build", "--strict"], cwd=project, env=env,
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert built.returncode == 0, built.stderr
    page = str(project / "site" / "heatmaps.html")
    command = [sys.executable, "-m", "konum", "quiz", page]
    taken = subprocess.run(
        command, cwd=project, env=env, input="2\nquit\n", capture_output=True, text=True,
        timeout=300, check=False,
    )  # fmt: skip
    assert taken.returncode == 0, taken.stderr
    assert taken.stdout.split("> 2", 1)[1].lstrip().startswith("Correct.")
    elsewhere = subprocess.run(
        command, cwd=tmp_path, env=env, input="2\n", capture_output=True, text=True,
        timeout=300, check=False,
    )  # fmt: skip
    assert elsewhere.returncode == 1
    [line] = elsewhere.stderr.splitlines()
    assert line.startswith(f"konum: {page}:") and line.endswith(
        ": question fastest-column: unknown question type 'hotspot' (a plugin's type? run "
        "where its site's mkdocs.yml is, or name it with -f)"
    )


def test_the_anki_decks_back_shows_the_right_region(tmp_path: Path) -> None:
    from anki.collection import Collection

    from tests.test_exports import import_apkg

    project = project_in(tmp_path)
    result = konum(project, "export", "anki", "-o", str(tmp_path / "heat.apkg"))
    assert result.returncode == 0, result.stderr
    folder = tmp_path / "anki"
    folder.mkdir()
    col = Collection(str(folder / "collection.anki2"))
    try:
        import_apkg(col, tmp_path / "heat.apkg")
        backs = {}
        for note_id in col.find_notes(""):
            card = col.get_note(note_id).cards()[0]
            backs[re.sub(r"<[^>]+>", " ", card.question())] = card.answer()
    finally:
        col.close()
    [(front, back)] = [(f, b) for f, b in backs.items() if "fastest" in f]
    assert "Column A, Column B, Column C, Column D" in front
    words = re.sub(r"<svg.*?</svg>|<[^>]+>", " ", back, flags=re.S)
    assert "Column B" in words
    outline = re.search(r'<rect x="(\d+)" y="2" [^>]*stroke="#e53935"', back)
    assert outline is not None and int(outline.group(1)) == 1 * 40 + 2  # the second column


def test_the_printed_exam_shows_the_picture_and_the_key_names_the_region(tmp_path: Path) -> None:
    project = project_in(tmp_path)
    result = konum(project, "exam", "-o", str(tmp_path / "exam"))
    assert result.returncode == 0, result.stderr
    paper = (tmp_path / "exam" / "version-1.html").read_text(encoding="utf-8")
    key = (tmp_path / "exam" / "version-1-key.html").read_text(encoding="utf-8")
    assert paper.count('class="konum-hotspot-map"') == 2
    assert "<li>Column A</li>" in paper and "<li>Fifth</li>" in paper
    assert "<strong>Column B</strong>" in key and "<strong>Fourth</strong>" in key


def test_moodle_gift_and_qti_hold_it_as_a_choice_over_the_regions(tmp_path: Path) -> None:
    project = project_in(tmp_path)
    for kind, name in (("moodle", "m.xml"), ("gift", "g.txt"), ("qti", "q.zip")):
        result = konum(project, "export", kind, "-o", str(tmp_path / name))
        assert result.returncode == 0, result.stderr
        assert "wrote 2 of 2 questions" in result.stderr + result.stdout
    moodle = ET.parse(tmp_path / "m.xml").getroot()
    [fastest] = [q for q in moodle.iter("question") if q.findtext("name/text") == "fastest-column"]
    assert fastest.get("type") == "multichoice"
    fractions = {a.findtext("text"): a.get("fraction") for a in fastest.iter("answer")}
    assert fractions == {"Column A": "0", "Column B": "100", "Column C": "0", "Column D": "0"}
    gift = (tmp_path / "g.txt").read_text(encoding="utf-8")
    assert "  =Column B\n" in gift and "  ~Column A\n" in gift
    with zipfile.ZipFile(tmp_path / "q.zip") as package:
        items = "".join(package.read(n).decode() for n in package.namelist() if n.endswith(".xml"))
    assert "multiple_choice_question" in items and "Column B" in items and "Fourth" in items
