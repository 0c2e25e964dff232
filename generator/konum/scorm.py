"""``konum export scorm``: the site's quiz pages as a SCORM package, each page a SCO.

The site is built as ``konum build`` builds it (into a scratch folder, the published site
untouched), and every page with a quiz becomes a SCO: the page itself, with its styles,
scripts, figures and math, working offline in the LMS's frame, plus ``konum-scorm/sco.js``
(templates/assets/scorm.js) loaded first in its head. That script finds the LMS's API as the
standards say (the window's parents, then the opener's), reports what konum's
``konum:submit`` event says (the documented event every check sends) as the score, the
status and one interaction per check, and keeps the learner's saved answers in suspend data
so a return resumes. A page opened outside an LMS finds no API and works as on the site.

SCORM 1.2 (the default, which every LMS imports) is ADL's SCORM 1.2 content packaging
(IMS CP 1.1.2 with ADL's ``adlcp`` extensions); 2004 is SCORM 2004 4th Edition (IMS CP 1.1.4,
``adlcp_v1p3``, IMS Simple Sequencing for the mastery score and the attempt limit).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
import zipfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fnmatch import fnmatch
from html import unescape
from pathlib import Path
from typing import TYPE_CHECKING, Any
from xml.etree import ElementTree

import click

from konum.errors import ExportError
from konum.paths import TEMPLATES_DIR

if TYPE_CHECKING:
    from konum.course import Course
    from konum.siteconfig import SiteConfig

VERSIONS = ("1.2", "2004")
#: The runtime script's place in the package.
SCRIPT = "konum-scorm/sco.js"
#: Files of a built site that a SCORM package leaves out: the downloads hold every answer,
#: and source maps serve no learner (the sitemap stays: Material's instant navigation reads it).
LEFT_OUT = ("downloads/", ".konum-site")
LEFT_OUT_KINDS = (".map",)
_QUIZ = re.compile(r'<section class="konum-quiz"[^>]*data-quiz-id="([^"]+)"([^>]*)>')
_DATA = re.compile(r'class="konum-data">(\{.*?\})</script>', re.S)
_LOADED = re.compile(
    r"<(?:script|img|iframe|audio|video|source|embed)\b[^>]*\bsrc=[\"']?(?:https?:)?//[^\"'\s>]*"
    r"|url\(\s*[\"']?(?:https?:)?//[^)]*|@import\s+[\"']?(?:https?:)?//\S*",
    re.I,
)
_LINK = re.compile(r"<link\b[^>]*>", re.I)
#: Material's links to Google's fonts (unless ``theme: font: false``): a package leaves them
#: out, and its pages fall back to the system's fonts, as with ``font: false``.
_GOOGLE_FONTS = re.compile(
    r"<link\b[^>]*\bhref=[\"']?https://fonts\.(?:googleapis|gstatic)\.com[^>]*>\n?", re.I
)
#: The links a browser fetches (a canonical or alternate link is only an address).
_FETCHED_LINKS = {"stylesheet", "icon", "preload", "modulepreload", "prefetch", "manifest"}


def _fetched(text: str) -> str | None:
    """The first thing in ``text`` (HTML or CSS) a browser would load from another site."""
    found = _LOADED.search(text)
    if found:
        return found.group(0)
    for link in _LINK.findall(text):
        rel = re.search(r"\brel=[\"']?([^\"'>]+)", link, re.I)
        href = re.search(r"\bhref=[\"']?((?:https?:)?//[^\"'\s>]*)", link, re.I)
        if href and rel and _FETCHED_LINKS & set(rel.group(1).lower().split()):
            return href.group(1)
    return None


_H1 = re.compile(r"<h1\b[^>]*>(.*?)</h1>", re.S)


@dataclass(frozen=True)
class Sco:
    """A quiz page as a SCO: its path in the package, title, the most points its quizzes
    can give, and how many questions a reader is shown."""

    href: str
    title: str
    max_points: float
    questions: int


def _page_sco(href: str, html: str) -> Sco | None:
    """The SCO of the built page ``html`` (None without a quiz)."""
    quizzes = list(_QUIZ.finditer(html))
    if not quizzes:
        return None
    total, count = 0.0, 0
    for i, quiz in enumerate(quizzes):
        end = quizzes[i + 1].start() if i + 1 < len(quizzes) else len(html)
        worths = [
            float(json.loads(d).get("worth", 1)) for d in _DATA.findall(html, quiz.end(), end)
        ]
        draw = re.search(r'data-draw="(\d+)"', quiz.group(2))
        shown = min(int(draw.group(1)), len(worths)) if draw else len(worths)
        # A pool with unequal points: the most a draw can give.
        total += sum(sorted(worths, reverse=True)[:shown])
        count += shown
    heading = _H1.search(html)
    title = re.sub(r"<[^>]+>", "", heading.group(1)) if heading else href
    return Sco(href, " ".join(unescape(title).replace("¶", "").split()), total, count)


def _inject(html: str, href: str, config: Mapping[str, object]) -> str:
    """``html`` with the SCO's settings and runtime first in its head, before any script of
    the page reads the learner's saved answers."""
    up = "../" * href.count("/")
    payload = json.dumps(config, ensure_ascii=False).replace("</", "<\\/")
    tags = (
        f'<script type="application/json" id="konum-scorm">{payload}</script>'
        f'<script src="{up}{SCRIPT}"></script>'
    )
    head = re.search(r"<head[^>]*>", html)
    if head is None:
        raise ExportError(f"{href}: a built page without <head>")
    return html[: head.end()] + tags + html[head.end() :]


def _chosen(scos: list[Sco], pages: tuple[str, ...]) -> list[Sco]:
    if not pages:
        return scos
    chosen = [s for s in scos if any(fnmatch(s.href, p) for p in pages)]
    if not chosen:
        listed = ", ".join(s.href for s in scos)
        raise ExportError(
            f"--pages {' '.join(pages)} names no quiz page (the quiz pages: {listed})"
        )
    return chosen


#: Each version's namespaces (the package's, ADL's), schema version and SCO attribute.
_FORMS = {
    "1.2": (
        "http://www.imsproject.org/xsd/imscp_rootv1p1p2",
        "http://www.adlnet.org/xsd/adlcp_rootv1p2",
        "1.2",
        "scormtype",
    ),
    "2004": (
        "http://www.imsglobal.org/xsd/imscp_v1p1",
        "http://www.adlnet.org/xsd/adlcp_v1p3",
        "2004 4th Edition",
        "scormType",
    ),
}
_IMSSS = "http://www.imsglobal.org/xsd/imsss"
_SCHEMAS_12 = (
    "http://www.imsproject.org/xsd/imscp_rootv1p1p2 imscp_rootv1p1p2.xsd "
    "http://www.adlnet.org/xsd/adlcp_rootv1p2 adlcp_rootv1p2.xsd"
)


def _manifest(
    version: str,
    name: str,
    course: str,
    scos: list[Sco],
    files: list[str],
    mastery: int | None,
    attempts: int | None,
) -> str:
    """``imsmanifest.xml``: one organization (the course), an item and a SCO resource per
    page, and one asset resource with every other file, on which each SCO depends. The
    mastery score is 1.2's ``adlcp:masteryscore``, 2004's primary objective satisfied by
    measure; the attempt limit is 2004's ``limitConditions``."""
    cp, adl, schema_version, kind = _FORMS[version]
    ElementTree.register_namespace("", cp)
    ElementTree.register_namespace("adlcp", adl)
    ElementTree.register_namespace("imsss", _IMSSS)
    ElementTree.register_namespace("xsi", "http://www.w3.org/2001/XMLSchema-instance")

    def el(
        parent: ElementTree.Element | None, tag: str, text: str = "", **attrs: str
    ) -> ElementTree.Element:
        node = (
            ElementTree.Element(tag, attrs)
            if parent is None
            else ElementTree.SubElement(parent, tag, attrs)
        )
        node.text = text or None
        return node

    root = el(None, f"{{{cp}}}manifest", identifier=name, version="1.0")
    if version == "1.2":
        root.set("{http://www.w3.org/2001/XMLSchema-instance}schemaLocation", _SCHEMAS_12)
    metadata = el(root, f"{{{cp}}}metadata")
    el(metadata, f"{{{cp}}}schema", "ADL SCORM")
    el(metadata, f"{{{cp}}}schemaversion", schema_version)
    organization = el(
        el(root, f"{{{cp}}}organizations", default="course"),
        f"{{{cp}}}organization",
        identifier="course",
    )
    el(organization, f"{{{cp}}}title", course)
    resources = el(root, f"{{{cp}}}resources")
    for n, sco in enumerate(scos, start=1):
        item = el(organization, f"{{{cp}}}item", identifier=f"item-{n}", identifierref=f"sco-{n}")
        el(item, f"{{{cp}}}title", sco.title)
        if version == "1.2" and mastery is not None:
            el(item, f"{{{adl}}}masteryscore", str(mastery))
        elif version == "2004" and (mastery is not None or attempts):
            sequencing = el(item, f"{{{_IMSSS}}}sequencing")
            if attempts:
                el(sequencing, f"{{{_IMSSS}}}limitConditions", attemptLimit=str(attempts))
            if mastery is not None:
                objectives = el(sequencing, f"{{{_IMSSS}}}objectives")
                primary = el(
                    objectives,
                    f"{{{_IMSSS}}}primaryObjective",
                    objectiveID="mastery",
                    satisfiedByMeasure="true",
                )
                el(primary, f"{{{_IMSSS}}}minNormalizedMeasure", f"{mastery / 100:g}")
        resource = el(
            resources, f"{{{cp}}}resource", identifier=f"sco-{n}", type="webcontent", href=sco.href
        )
        resource.set(f"{{{adl}}}{kind}", "sco")
        el(resource, f"{{{cp}}}file", href=sco.href)
        el(resource, f"{{{cp}}}dependency", identifierref="common")
    common = el(resources, f"{{{cp}}}resource", identifier="common", type="webcontent")
    common.set(f"{{{adl}}}{kind}", "asset")
    for file in files:
        el(common, f"{{{cp}}}file", href=file)
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        + ElementTree.tostring(root, encoding="unicode")
        + "\n"
    )


def package(
    site: Path,
    out: Path,
    *,
    name: str,
    course: str,
    version: str,
    mastery: int | None = None,
    attempts: int | None = None,
    pages: tuple[str, ...] = (),
    leave_out: tuple[str, ...] = (),
) -> list[Sco]:
    """Write the SCORM package of the built site ``site`` to ``out`` (a zip, written
    atomically); the SCOs, in page order.

    Args:
        site: a site ``konum build`` made (its ``downloads/`` are left out).
        out: the zip to write.
        name: the package's identifier (a slug).
        course: the course's title, in the site's language.
        version: ``"1.2"`` or ``"2004"``.
        mastery: the score (0-100) at or above which a SCO is passed, else failed; None:
            completed once every question is checked.
        attempts: SCORM 2004's limit of attempts per SCO (1.2 has none).
        pages: glob patterns of the pages to take (``lessons/02-*.html``); none: every page
            with a quiz.
        leave_out: folders of the site not to package (the other editions': ``("tr/",)``).

    Raises:
        ExportError: no page with a quiz, --pages matching none, a page that loads something
            from another site (but Material's Google fonts, which are left out), or
            --attempts with SCORM 1.2.
    """
    if attempts is not None and version == "1.2":
        raise ExportError("--attempts needs --version 2004: SCORM 1.2 has no attempt limit")
    files = sorted(
        p.relative_to(site).as_posix()
        for p in site.rglob("*")
        if p.is_file()
        and not p.relative_to(site).as_posix().startswith((*LEFT_OUT, *leave_out))
        and not p.name.endswith(LEFT_OUT_KINDS)
    )
    scos = [
        sco
        for href in files
        if href.endswith(".html")
        and (sco := _page_sco(href, (site / href).read_text(encoding="utf-8"))) is not None
    ]
    if not scos:
        raise ExportError(f"{site}: no page of the site has a quiz")
    scos = _chosen(scos, pages)

    def text(href: str) -> str:  # a page or a style sheet, without Google's fonts
        return _GOOGLE_FONTS.sub("", (site / href).read_text(encoding="utf-8", errors="replace"))

    for href in files:
        if href.endswith((".html", ".css")):
            found = _fetched(text(href))
            if found:
                raise ExportError(
                    f"{href} loads {found!r} from another site, which an LMS package must "
                    "not: make the site carry it, or leave it out of the page"
                )
    sco_files = {s.href: s for s in scos}
    shared = [f for f in files if f not in sco_files] + [SCRIPT]
    manifest = _manifest(version, name, course, scos, shared, mastery, attempts)
    out.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=out.parent, prefix=f".{out.name}.")
    try:
        with (
            os.fdopen(handle, "wb") as raw,
            zipfile.ZipFile(raw, "w", zipfile.ZIP_DEFLATED) as archive,
        ):
            archive.writestr("imsmanifest.xml", manifest)
            archive.write(TEMPLATES_DIR / "assets" / "scorm.js", SCRIPT)
            for href in files:
                if href in sco_files:
                    sco = sco_files[href]
                    config = {
                        "version": version,
                        "mastery": mastery,
                        "max": sco.max_points,
                        "questions": sco.questions,
                    }
                    archive.writestr(href, _inject(text(href), href, config))
                elif href.endswith(".html"):
                    archive.writestr(href, text(href))
                else:
                    archive.write(site / href, href)
        Path(temporary).replace(out)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return scos


def export_scorm(
    config_file: str | Path,
    out: Path,
    *,
    seed: int | None,
    version: str,
    mastery: int | None,
    attempts: int | None,
    pages: tuple[str, ...],
) -> tuple[list[Sco], str]:
    """Build the site of ``config_file`` (its main edition: ``-f mkdocs.tr.yml`` makes the
    Turkish package) into a scratch folder and package it (see :func:`package`); the SCOs
    and the course's title."""
    from konum.build import build_site
    from konum.siteconfig import read_site_config

    settings = read_site_config(config_file)
    scratch = Path(tempfile.mkdtemp(prefix="konum-scorm-"))
    try:
        built = build_site(
            settings.config_file, seed=seed, site_dir=scratch / "site", downloads=False
        )
        name = re.sub(r"[^A-Za-z0-9_.-]+", "-", settings.deck).strip("-") or "konum"
        scos = package(
            scratch / "site",
            out,
            name=name,
            course=settings.deck,
            version=version,
            mastery=mastery,
            attempts=attempts,
            pages=pages,
            leave_out=tuple(f"{folder}/" for folder in built.editions),
        )
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return scos, settings.deck


def scorm_options(command: Any) -> Any:
    """``konum export scorm``'s own options, on the export command."""
    for option in reversed((
        click.option("--version", "scorm_version", type=click.Choice(VERSIONS),
                     default="1.2", show_default=True, help="scorm: the SCORM version."),
        click.option("--mastery", type=click.IntRange(0, 100), default=None,
                     help="scorm: the score in % to pass (default: none, completed when done)."),
        click.option("--attempts", type=click.IntRange(1, 100), default=None,
                     help="scorm: attempts per page (SCORM 2004 only)."),
        click.option("--pages", multiple=True, metavar="GLOB",
                     help="scorm: only these pages (lessons/02-*.html; repeat it)."),
    )):  # fmt: skip
        command = option(command)
    return command


def run_export(
    settings: SiteConfig,
    course: Course,
    output: str | None,
    *,
    choose: Callable[[SiteConfig, Course, str | None, Path], Path],
    seed: int | None,
    scorm_version: str,
    mastery: int | None,
    attempts: int | None,
    pages: tuple[str, ...],
) -> str:
    """``konum export scorm``: the package written where ``choose`` says (``-o``, else
    ``exports/NAME-scorm12.zip``); the line that says so."""
    from konum.exports import file_names

    stem = Path(file_names(settings.deck)["csv"]).stem
    default = (
        settings.config_file.parent
        / "exports"
        / f"{stem}-scorm{scorm_version.replace('.', '')}.zip"
    )
    path = choose(settings, course, output, default)
    scos, title = export_scorm(
        settings.config_file, path, seed=seed, version=scorm_version, mastery=mastery,
        attempts=attempts, pages=pages,
    )  # fmt: skip
    count = f"{len(scos)} page" + ("s" if len(scos) != 1 else "")
    return f"konum: wrote {count} of {title} as SCORM {scorm_version} to {path}"
