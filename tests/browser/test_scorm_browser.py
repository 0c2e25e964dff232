"""konum's SCORM package played by an LMS in Chromium: scorm-again (npm) gives the page the
SCORM 1.2 and 2004 APIs, as an LMS's player does, around the package's SCO in a frame.

Answering the page's questions reports the score the page shows, one interaction per check
and the status; the suspend data brings the answers back when the LMS opens the SCO again;
a question whose answer was shown reports no credit.
"""

from __future__ import annotations

import json
import re
import shutil
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import serve_folder
from playwright.sync_api import FrameLocator, Page, expect

from tests.miniproject import konum, make_project
from tests.nodetools import node_tool

pytestmark = pytest.mark.browser

LMS = Path(__file__).resolve().parents[1] / "scorm"
PLAYER = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>LMS</title>
<link rel="icon" href="data:,">
<script src="{script}"></script>
<script>
  window.{name} = new {api}({{ autocommit: false, logLevel: 5 }});
  var saved = sessionStorage.getItem("cmi");
  if (saved) window.{name}.loadFromJSON(JSON.parse(saved));
  window.keep = function () {{
    sessionStorage.setItem("cmi", JSON.stringify(window.{name}.cmi.toJSON()));
  }};
</script></head>
<body><iframe id="sco" src="{sco}" style="width:100%;height:900px"></iframe></body></html>
"""
VERSIONS = {
    "1.2": ("scorm12.min.js", "API", "Scorm12API", "cmi.core.score", "cmi.core.lesson_status"),
    "2004": (
        "scorm2004.min.js",
        "API_1484_11",
        "Scorm2004API",
        "cmi.score",
        "cmi.completion_status",
    ),
}


@pytest.fixture(scope="module")
def player(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """Both packages of the mini project, unzipped beside an LMS page each; their URLs."""
    root = tmp_path_factory.mktemp("scorm")
    project = make_project(root)
    npm = root / "lms-tools"
    npm.mkdir()
    node_tool(LMS, (), npm)
    urls = {}
    with serve_folder(root) as base:
        for version, (script, name, api, _, _) in VERSIONS.items():
            package = root / f"package-{version}.zip"
            made = konum(project, "export", "scorm", "--version", version, "-o", str(package))
            assert made.returncode == 0, made.stderr
            folder = root / f"lms-{version}"
            with zipfile.ZipFile(package) as archive:
                archive.extractall(folder)
            shutil.copy(npm / "node_modules" / "scorm-again" / "dist" / script, folder / script)
            page = PLAYER.format(script=script, name=name, api=api, sco="lessons/quiz.html")
            (folder / "lms.html").write_text(page, encoding="utf-8")
            urls[version] = f"{base}lms-{version}/lms.html"
        yield urls


@pytest.fixture
def lms(browser: Any) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1100, "height": 1000})
    page = context.new_page()
    try:
        yield page
    finally:
        context.close()


def cmi(page: Page, name: str, key: str) -> Any:
    return page.evaluate(f"() => window.{name}.cmi.{key.removeprefix('cmi.')}")


def interactions(page: Page, name: str) -> list[dict[str, Any]]:
    """The interactions the SCO reported, in order (the LMS's own record of them: SCORM
    makes them write-only for the SCO)."""
    record = json.loads(
        page.evaluate(f"() => JSON.stringify(window.{name}.cmi.interactions.toJSON())")
    )
    return [record[k] for k in sorted(record, key=int)]


def score_line(sco: FrameLocator) -> float:
    text = sco.locator(".konum-score").first.inner_text()
    return float(re.match(r"([\d.]+)", text).group(1))  # type: ignore[union-attr]


@pytest.mark.parametrize("version", sorted(VERSIONS))
def test_the_lms_gets_the_score_the_page_shows_and_a_return_resumes(
    lms: Page, player: dict[str, str], version: str
) -> None:
    _, name, _, score, status = VERSIONS[version]
    lms.goto(player[version])
    sco = lms.frame_locator("#sco")
    expect(sco.locator("[data-konum-mounted]")).to_have_count(3)
    choice = sco.locator('[data-question-id="mini-choice"]')
    choice.get_by_label("cosine").check()
    choice.get_by_role("button", name="Check").click()
    choice.get_by_label("sine", exact=True).check()
    choice.get_by_role("button", name="Check").click()
    expect(choice.locator(".konum-feedback")).to_have_text("Correct.")
    fill = sco.locator('[data-question-id="mini-fill"]')
    fill.get_by_role("textbox").fill("2")
    fill.get_by_role("button", name="Check").click()
    expect(fill.locator(".konum-feedback")).to_have_text("Correct.")
    assert float(cmi(lms, name, f"{score}.raw")) == score_line(sco) == 2
    assert float(cmi(lms, name, f"{score}.max")) == 3
    assert float(cmi(lms, name, f"{score}.min")) == 0
    if version == "2004":
        assert float(cmi(lms, name, "cmi.score.scaled")) == pytest.approx(2 / 3, abs=1e-3)
    results = [i["result"] for i in interactions(lms, name)]
    wrong = "wrong" if version == "1.2" else "incorrect"
    assert results == [wrong, "correct", "correct"]
    assert [i["type"] for i in interactions(lms, name)] == [
        "choice",
        "choice",
        "fill-in",
    ]
    assert cmi(lms, name, status) == "incomplete"  # one question is not answered yet
    # The LMS keeps what the SCO said; it opens the SCO again with it, in a fresh browser.
    lms.evaluate("() => window.keep()")
    saved = lms.evaluate("() => sessionStorage.getItem('cmi')")
    lms.evaluate("() => localStorage.clear()")
    lms.reload()
    sco = lms.frame_locator("#sco")
    expect(sco.locator("[data-konum-mounted]")).to_have_count(3)
    assert saved and json.loads(saved)["suspend_data"]
    expect(sco.locator('[data-question-id="mini-fill"]').get_by_role("textbox")).to_have_value("2")
    assert score_line(sco) == 2


def test_a_shown_answer_reports_no_credit(lms: Page, player: dict[str, str]) -> None:
    lms.goto(player["1.2"])
    sco = lms.frame_locator("#sco")
    expect(sco.locator("[data-konum-mounted]")).to_have_count(3)
    fill = sco.locator('[data-question-id="mini-fill"]')
    fill.get_by_role("button", name=re.compile("Show answer")).click()
    fill.get_by_role("textbox").fill("2")
    fill.get_by_role("button", name="Check").click()
    expect(fill.locator(".konum-feedback")).to_contain_text("no points")
    assert float(cmi(lms, "API", "cmi.core.score.raw")) == score_line(sco) == 0
    assert [i["result"] for i in interactions(lms, "API")] == ["neutral"]
