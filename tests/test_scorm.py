"""``konum export scorm``: the package's manifest against ADL's and IMS's SCORM 1.2 schemas
(``tests/fixtures/scorm12``), every file it names in the zip and nothing fetched from
another site, both versions' settings, the Turkish edition's titles, and the mistakes a
teacher can make, each one line with nothing written. The package in an LMS (scorm-again,
in Chromium) is tests/browser/test_scorm_browser.py's."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path
from xml.etree import ElementTree

import pytest
import xmlschema

from tests.miniproject import konum, make_project

REPO = Path(__file__).resolve().parent.parent
SCHEMAS = Path(__file__).resolve().parent / "fixtures" / "scorm12"
CP12 = "{http://www.imsproject.org/xsd/imscp_rootv1p1p2}"
CP2004 = "{http://www.imsglobal.org/xsd/imscp_v1p1}"
#: Anything a browser would fetch: scripts, styles, images, frames, fonts, imports, and the
#: links it loads (a canonical link is only an address).
FETCHED = re.compile(
    r"""<(?:script|img|iframe|source|audio|video|embed)\b[^>]*\bsrc=["']?(?:https?:)?//"""
    r"""|<link\b(?=[^>]*\brel=["']?(?:stylesheet|icon|preload|modulepreload|prefetch|manifest))"""
    r"""[^>]*\bhref=["']?(?:https?:)?//|url\(\s*["']?(?:https?:)?//|@import\s+["']?(?:https?:)?//""",
    re.I,
)


def schema_12() -> xmlschema.XMLSchema:
    return xmlschema.XMLSchema(
        str(SCHEMAS / "imscp_rootv1p1p2.xsd"),
        locations={"http://www.adlnet.org/xsd/adlcp_rootv1p2": str(SCHEMAS / "adlcp_rootv1p2.xsd")},
    )


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_project(tmp_path_factory.mktemp("scorm"))


def export(project: Path, out: Path, *args: str) -> zipfile.ZipFile:
    result = konum(project, "export", "scorm", "-o", str(out), *args)
    assert result.returncode == 0, result.stderr
    assert f"as SCORM {args[1] if args[:1] == ('--version',) else '1.2'} to {out}" in result.stdout
    return zipfile.ZipFile(out)


def test_a_scorm_12_package_is_valid_whole_and_offline(project: Path, tmp_path: Path) -> None:
    archive = export(project, tmp_path / "p.zip", "--mastery", "80")
    manifest = archive.read("imsmanifest.xml").decode("utf-8")
    schema_12().validate(manifest)
    root = ElementTree.fromstring(manifest)
    named = {f.get("href") for f in root.iter(f"{CP12}file")}
    held = set(archive.namelist()) - {"imsmanifest.xml"}
    assert named == held  # every file the manifest names is there, and nothing else
    assert not any(n.startswith("downloads/") for n in held)  # the decks hold every answer
    scos = [
        r
        for r in root.iter(f"{CP12}resource")
        if r.get("{http://www.adlnet.org/xsd/adlcp_rootv1p2}scormtype") == "sco"
    ]
    assert [r.get("href") for r in scos] == ["lessons/quiz.html"]
    items = list(root.iter(f"{CP12}item"))
    assert [i.find(f"{CP12}title").text for i in items] == ["A quiz"]  # type: ignore[union-attr]
    assert [
        i.findtext("{http://www.adlnet.org/xsd/adlcp_rootv1p2}masteryscore") for i in items
    ] == ["80"]
    for name in held:
        if name.endswith((".html", ".css", ".js")) and not name.endswith(".min.js"):
            assert not FETCHED.search(archive.read(name).decode("utf-8", "replace")), name
    page = archive.read("lessons/quiz.html").decode("utf-8")
    head = page[page.index("<head") : page.index("</head>")]
    # The runtime comes before any script of the page reads the saved answers.
    assert head.index('src="../konum-scorm/sco.js"') < head.index(
        "<script", head.index("sco.js") + 10
    )
    assert '"version": "1.2", "mastery": 80, "max": 3.0, "questions": 3' in page


def test_a_scorm_2004_package_says_its_mastery_and_attempts(project: Path, tmp_path: Path) -> None:
    archive = export(
        project, tmp_path / "p.zip", "--version", "2004", "--mastery", "75", "--attempts", "2"
    )
    root = ElementTree.fromstring(archive.read("imsmanifest.xml"))
    assert root.findtext(f"{CP2004}metadata/{CP2004}schemaversion") == "2004 4th Edition"
    sss = "{http://www.imsglobal.org/xsd/imsss}"
    item = next(root.iter(f"{CP2004}item"))
    assert item.find(f"{sss}sequencing/{sss}limitConditions").get("attemptLimit") == "2"  # type: ignore[union-attr]
    measure = item.findtext(
        f"{sss}sequencing/{sss}objectives/{sss}primaryObjective/{sss}minNormalizedMeasure"
    )
    assert measure == "0.75"
    named = {f.get("href") for f in root.iter(f"{CP2004}file")}
    assert named == set(archive.namelist()) - {"imsmanifest.xml"}


MISTAKES = {
    "attempts-in-12": (("--attempts", "2"), "--attempts needs --version 2004"),
    "no-such-page": (
        ("--pages", "chapters/*.html"),
        "names no quiz page (the quiz pages: lessons/quiz.html)",
    ),
}


@pytest.mark.parametrize("case", sorted(MISTAKES))
def test_a_mistake_is_one_line_and_writes_nothing(project: Path, tmp_path: Path, case: str) -> None:
    args, said = MISTAKES[case]
    out = tmp_path / "p.zip"
    result = konum(project, "export", "scorm", "-o", str(out), *args)
    assert result.returncode == 1 and said in result.stderr and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert not out.exists() and not list(tmp_path.iterdir())
    assert not (project / "site").exists()  # the published site is not the export's business


def test_material_s_google_fonts_stay_out_and_other_sites_are_refused(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    config = project / "mkdocs.yml"
    config.write_text(config.read_text(encoding="utf-8").replace("  font: false\n", ""), "utf-8")
    archive = export(project, tmp_path / "p.zip")
    page = archive.read("lessons/quiz.html").decode("utf-8")
    assert "fonts.googleapis.com" not in page and "fonts.gstatic.com" not in page
    (project / "content" / "lessons" / "quiz.md").write_text(
        "# A quiz\n\n![A logo](https://example.org/logo.png)\n\n/// quiz | mini\n///\n", "utf-8"
    )
    result = konum(project, "export", "scorm", "-o", str(tmp_path / "q.zip"))
    assert result.returncode == 1 and "from another site" in result.stderr
    assert "https://example.org/logo.png" in result.stderr and not (tmp_path / "q.zip").exists()


@pytest.mark.slow
def test_the_turkish_edition_makes_a_turkish_package(tmp_path: Path) -> None:
    result = konum(REPO, "export", "scorm", "-f", "mkdocs.tr.yml", "-o", str(tmp_path / "tr.zip"))
    assert result.returncode == 0, result.stderr
    archive = zipfile.ZipFile(tmp_path / "tr.zip")
    root = ElementTree.fromstring(archive.read("imsmanifest.xml"))
    schema_12().validate(archive.read("imsmanifest.xml").decode("utf-8"))
    titles = [i.findtext(f"{CP12}title") for i in root.iter(f"{CP12}item")]
    tr_titles = [
        re.search(r"^# (.+?)(?: \{[^}]*\})?$", p.read_text(encoding="utf-8"), re.M).group(1)  # type: ignore[union-attr]
        for p in sorted((REPO / "content" / "tr" / "lessons").glob("*.md"))
    ]
    assert titles[: len(tr_titles)] == tr_titles
    assert '<html lang="tr"' in archive.read("lessons/02-sinusoidal.html").decode("utf-8")
