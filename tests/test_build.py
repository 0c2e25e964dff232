"""konum build: atomic publication, kill safety, the lock, reproducibility, bad input."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.miniproject import konum, make_project, tree_digest

pytestmark = pytest.mark.slow
EPOCH = {"SOURCE_DATE_EPOCH": "1767225600"}


@pytest.fixture(scope="module")
def _built_once(tmp_path_factory: pytest.TempPathFactory) -> Path:
    project = make_project(tmp_path_factory.mktemp("built"))
    result = konum(project, "build", "--seed", "1", env=EPOCH)
    assert result.returncode == 0, result.stderr
    return project


@pytest.fixture
def built(_built_once: Path, tmp_path: Path) -> Path:
    """A mini project with a first site already built (seed 1): a copy of one built once
    for the module, each test's own."""
    return Path(shutil.copytree(_built_once, tmp_path / "project", symlinks=True))


def add_edition(project: Path) -> None:
    """A Turkish edition of the mini project, as the course has one: ``mkdocs.yml`` names
    it (``editions: [mkdocs.tr.yml]``), ``mkdocs.tr.yml`` INHERITs ``mkdocs.yml``, its pages
    are in ``content/tr`` and it publishes into ``site/tr``; the main site gets an address,
    which the edition's follows."""
    config = project / "mkdocs.yml"
    text = config.read_text(encoding="utf-8").replace("  banks/\n", "  banks/\n  tr/\n")
    text = text.replace("      seed: 42\n", "      seed: 42\n      editions: [mkdocs.tr.yml]\n")
    config.write_text("site_url: https://example.org/mini/\n" + text, encoding="utf-8")
    content = project / "content"
    shutil.copytree(content / "lessons", content / "tr" / "lessons")
    shutil.copy(content / "index.md", content / "tr" / "index.md")
    (project / "mkdocs.tr.yml").write_text(
        "INHERIT: mkdocs.yml\nsite_name: konum mini tr\ndocs_dir: content/tr\n"
        "site_dir: site/tr\ntheme:\n  language: tr\nmarkdown_extensions:\n  - konum:\n"
        "      banks: content/banks\n      plugins: [pe]\n      seed: 42\n      variants: 3\n"
        "      language: tr\n"
        "  - admonition\n  - pymdownx.details\n  - pymdownx.superfences\n",
        encoding="utf-8",
    )


@pytest.fixture(scope="module")
def _edition_once(tmp_path_factory: pytest.TempPathFactory) -> Path:
    project = make_project(tmp_path_factory.mktemp("edition"))
    add_edition(project)
    result = konum(project, "build", "--seed", "1", env=EPOCH)
    assert result.returncode == 0, result.stderr
    return project


@pytest.fixture
def edition(_edition_once: Path, tmp_path: Path) -> Path:
    """A mini project with a Turkish edition, both built (seed 1): each test's own copy."""
    return Path(shutil.copytree(_edition_once, tmp_path / "project", symlinks=True))


def leftovers(project: Path) -> list[str]:
    return sorted(
        p.name for p in project.iterdir() if p.name.startswith((".site-tmp-", ".site-old-"))
    )


def test_build_publishes_pages_and_downloads(built: Path) -> None:
    site = built / "site"
    assert (site / "index.html").is_file()
    quiz_page = (site / "lessons" / "quiz.html").read_text()
    assert 'data-question-id="mini-entry"' in quiz_page
    assert "<math" in quiz_page
    for name in ("konum-mini.apkg", "konum-mini-anki.txt", "konum-mini.csv"):  # the site's name
        assert (site / "downloads" / name).is_file(), name
    assert (site / ".konum-site").is_file()
    assert leftovers(built) == []


def test_build_reports_what_it_published(built: Path, tmp_path: Path) -> None:
    result = konum(built, "build", "--seed", "3", "-d", str(tmp_path / "out"), env=EPOCH)
    assert result.returncode == 0, result.stderr
    line = result.stdout.strip()
    assert line.startswith("konum: built 3 pages (1 bank, 3 questions, seed 3) into ")
    assert str(tmp_path / "out") in line


def test_build_publishes_every_edition_together(edition: Path) -> None:
    """The Turkish edition in ``site/tr``, in its language, with its own downloads and the
    main address with ``tr/`` after it; the report names it."""
    site = edition / "site"
    page = (site / "tr" / "lessons" / "quiz.html").read_text(encoding="utf-8")
    assert '<html lang="tr"' in page and "Denetle" in page
    assert '<html lang="en"' in (site / "lessons" / "quiz.html").read_text(encoding="utf-8")
    for name in ("konum-mini-tr.apkg", "konum-mini-tr-anki.txt", "konum-mini-tr.csv"):
        assert (site / "tr" / "downloads" / name).is_file(), name
    sitemap = (site / "tr" / "sitemap.xml").read_text(encoding="utf-8")
    assert "<loc>https://example.org/mini/tr/lessons/quiz.html</loc>" in sitemap
    assert "<loc>https://example.org/mini/lessons/quiz.html</loc>" in (
        site / "sitemap.xml"
    ).read_text(encoding="utf-8")
    result = konum(edition, "build", "--seed", "2", env=EPOCH)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("konum: built 6 pages (1 bank, 3 questions, seed 2) into ")
    assert "site/, site/tr/ in " in result.stdout
    assert leftovers(edition) == []


def test_an_edition_builds_alone_and_replaces_only_its_folder(edition: Path) -> None:
    english = {k: v for k, v in tree_digest(edition / "site").items() if not k.startswith("tr/")}
    turkish = tree_digest(edition / "site" / "tr")
    result = konum(edition, "build", "-f", "mkdocs.tr.yml", "--seed", "8", env=EPOCH)
    assert result.returncode == 0, result.stderr
    after = tree_digest(edition / "site")
    # Its lock file sits beside its folder, as site's does beside site.
    assert {k: v for k, v in after.items() if not k.startswith("tr/")} == {
        **english,
        ".tr-lock": tree_digest(edition / "site")[".tr-lock"],
    }
    assert tree_digest(edition / "site" / "tr") != turkish
    assert not list((edition / "site").glob(".tr-*-*"))  # no staging left


def test_a_config_that_inherits_but_publishes_elsewhere_is_no_edition(edition: Path) -> None:
    """A configuration the editions option does not name is not read; one it names that
    publishes outside the site, or that does not exist, is refused with one line."""
    (edition / "mkdocs.preview.yml").write_text(
        "INHERIT: mkdocs.yml\nsite_dir: preview\n", encoding="utf-8"
    )
    result = konum(edition, "build", env=EPOCH)
    assert result.returncode == 0, result.stderr
    assert not (edition / "preview").exists()
    assert "preview" not in result.stdout
    # Named as an edition, it is refused: an edition publishes inside the site.
    config = edition / "mkdocs.yml"
    text = config.read_text(encoding="utf-8")
    config.write_text(text.replace("[mkdocs.tr.yml]", "[mkdocs.tr.yml, mkdocs.preview.yml]"))
    before = tree_digest(edition / "site")
    result = konum(edition, "build", env=EPOCH)
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        f"konum: {edition / 'mkdocs.preview.yml'}: an edition publishes inside the site's "
        "folder (site/tr, say), not into preview; give it that site_dir, or take it out of "
        "the editions option"
    ]
    assert tree_digest(edition / "site") == before and not (edition / "preview").exists()
    config.write_text(text.replace("[mkdocs.tr.yml]", "[mkdocs.tr.yml, mkdocs.gone.yml]"))
    result = konum(edition, "build", env=EPOCH)
    assert result.stderr.splitlines() == [
        f"konum: {config}: option 'editions' of konum names mkdocs.gone.yml, which is not a file"
    ]


def test_a_failing_edition_keeps_every_edition(edition: Path) -> None:
    before = tree_digest(edition / "site")
    page = edition / "content" / "tr" / "lessons" / "quiz.md"
    page.write_text(page.read_text(encoding="utf-8") + "\n[kırık](hicbir-yer.md)\n")
    result = konum(edition, "build", env=EPOCH)
    assert result.returncode == 1
    assert "hicbir-yer.md" in result.stderr and "Traceback" not in result.stderr
    assert tree_digest(edition / "site") == before
    assert leftovers(edition) == []


def test_konum_assets_only_on_quiz_pages(built: Path) -> None:
    index = (built / "site" / "index.html").read_text()
    quiz_page = (built / "site" / "lessons" / "quiz.html").read_text()
    assert 'data-konum-asset="quiz"' not in index and "window.konumQuiz" not in index
    assert index.count('data-konum-asset="progress"') == 1  # every page: the nav's marks
    assert quiz_page.count('data-konum-asset="quiz"') == 1
    assert quiz_page.count("window.konumQuiz") >= 1


def test_same_seed_and_epoch_rebuild_byte_for_byte(built: Path, tmp_path: Path) -> None:
    other = tmp_path / "again"
    result = konum(built, "build", "--seed", "1", "-d", str(other), env=EPOCH)
    assert result.returncode == 0, result.stderr
    assert tree_digest(other) == tree_digest(built / "site")


def test_another_seed_changes_computed_numbers(built: Path, tmp_path: Path) -> None:
    other = tmp_path / "seed2"
    assert konum(built, "build", "--seed", "2", "-d", str(other), env=EPOCH).returncode == 0
    first = (built / "site" / "lessons" / "quiz.html").read_text()
    second = (other / "lessons" / "quiz.html").read_text()
    assert first != second


def test_broken_bank_stops_the_build_and_keeps_the_site(built: Path) -> None:
    before = tree_digest(built / "site")
    bank = built / "content" / "banks" / "mini.yml"
    bank.write_text(bank.read_text().replace("type: fill", "type: filll"))
    result = konum(built, "build", env=EPOCH)
    assert result.returncode == 1
    assert "mini.yml:" in result.stderr and "[mini-fill]" in result.stderr
    assert "Traceback" not in result.stderr
    # The banks are validated while MkDocs starts; its own error lines stay out of the way.
    assert "ERROR" not in result.stderr and "Error reading page" not in result.stderr
    assert tree_digest(built / "site") == before
    assert leftovers(built) == []


def test_strict_warning_keeps_the_site(built: Path) -> None:
    before = tree_digest(built / "site")
    page = built / "content" / "lessons" / "quiz.md"
    page.write_text(page.read_text() + "\n[a broken link](nowhere.md)\n")
    result = konum(built, "build", env=EPOCH)
    assert result.returncode == 1
    assert "nowhere.md" in result.stderr
    assert "Traceback" not in result.stderr
    assert tree_digest(built / "site") == before
    assert leftovers(built) == []


def _plain_mkdocs_build(project: Path) -> subprocess.CompletedProcess[str]:
    """``mkdocs build --strict`` of ``project``, as a site built without konum's CLI is."""
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict"],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )


def _start_build(project: Path, *args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", **EPOCH}
    return subprocess.Popen(
        [sys.executable, "-m", "konum", "build", *args],
        cwd=project,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _wait_for_staging(
    project: Path, proc: subprocess.Popen[str], inside: str = "", timeout: float = 120
) -> None:
    """Wait until the build writes into its staging folder (into its ``inside`` folder, the
    place of an edition, when given)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        folders = [p / inside for p in project.glob(".site-tmp-*")]
        staging = [p for p in folders if p.is_dir() and any(p.iterdir())]
        if staging:
            return
        if proc.poll() is not None:
            _, error = proc.communicate()
            pytest.fail(f"the build ended before it could be killed: {error}")
        time.sleep(0.01)
    pytest.fail("the build never started writing its staging folder")


def _lengthen(project: Path, pages: int = 150, docs: str = "content") -> None:
    """Give MkDocs pages enough to write (in the docs folder ``docs``) that a build is still
    running well over a second after its staging folder appears (the mini project's alone
    finish in about 0.4 s: a signal sent on a loaded machine could arrive after the build)."""
    lessons = project / docs / "lessons"
    for n in range(pages):
        (lessons / f"extra-{n:03d}.md").write_text(
            f"# Extra page {n}\n\n$PE_{{{n}, 0}} = \\sin({n})$. " + "Words. " * 200 + "\n",
            encoding="utf-8",
        )


@pytest.fixture
def sigint_default() -> Iterator[None]:
    """Ctrl-C handled as Python does by default, here and in the builds started meanwhile,
    whatever this test run inherited: a shell without job control starts background
    commands with SIGINT ignored, a disposition every process they start keeps (Python
    then installs no KeyboardInterrupt handler, and a build ignores the test's SIGINT)."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


@pytest.mark.usefixtures("sigint_default")
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT, signal.SIGTERM])
def test_killed_build_leaves_the_site_intact(built: Path, sig: signal.Signals) -> None:
    before = tree_digest(built / "site")
    _lengthen(built)
    proc = _start_build(built, "--seed", "5")
    _wait_for_staging(built, proc)
    proc.send_signal(sig)
    proc.communicate(timeout=60)
    assert proc.returncode != 0
    assert tree_digest(built / "site") == before
    # The next build cleans up whatever the killed one left and publishes normally.
    result = konum(built, "build", "--seed", "5", env=EPOCH)
    assert result.returncode == 0, result.stderr
    assert leftovers(built) == []
    assert tree_digest(built / "site") != before


@pytest.mark.usefixtures("sigint_default")
def test_a_build_killed_in_an_edition_leaves_every_edition_intact(edition: Path) -> None:
    """Killed while it writes the Turkish edition (the English one staged already), the
    build publishes neither: both stay as they were. (How each signal ends a build is the
    test above's; here the kill is the harshest.)"""
    sig = signal.SIGKILL
    before = tree_digest(edition / "site")
    _lengthen(edition, docs="content/tr")
    proc = _start_build(edition, "--seed", "5")
    _wait_for_staging(edition, proc, inside="tr")
    proc.send_signal(sig)
    proc.communicate(timeout=60)
    assert proc.returncode != 0
    assert tree_digest(edition / "site") == before
    result = konum(edition, "build", "--seed", "5", env=EPOCH)
    assert result.returncode == 0, result.stderr
    assert leftovers(edition) == []
    assert (edition / "site" / "tr" / "lessons" / "extra-000.html").is_file()


@pytest.mark.usefixtures("sigint_default")
def test_an_interrupt_lost_in_a_finaliser_still_stops_the_build(
    built: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    """Python drops a KeyboardInterrupt raised while a finaliser runs (a ``__del__``, or a
    generator the garbage collector closes) with a warning: the build remembers the Ctrl-C
    anyway and publishes nothing."""
    from konum import build

    before = tree_digest(built / "site")
    lost: list[type[BaseException] | None] = []
    monkeypatch.setattr(sys, "unraisablehook", lambda report: lost.append(report.exc_type))

    class Finaliser:
        def __del__(self) -> None:
            os.kill(os.getpid(), signal.SIGINT)
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline:  # the handler runs here, in the finaliser
                pass

    import konum.exports

    real = konum.exports.write_downloads

    def write(*args: Any, **kwargs: Any) -> Any:
        Finaliser()  # made and finalised at once, late in the build
        return real(*args, **kwargs)

    monkeypatch.setattr(konum.exports, "write_downloads", write)
    for key, value in {**EPOCH, "NO_MKDOCS_2_WARNING": "1"}.items():
        monkeypatch.setenv(key, value)
    with pytest.raises(KeyboardInterrupt):
        build.build_site(built / "mkdocs.yml", seed=5)
    capfd.readouterr()
    assert lost == [KeyboardInterrupt]  # the interrupt was indeed dropped on its way
    assert tree_digest(built / "site") == before
    assert leftovers(built) == []


def test_two_builds_at_once_do_not_corrupt_the_site(built: Path, tmp_path: Path) -> None:
    procs = [_start_build(built, "--seed", seed) for seed in ("7", "8")]
    for proc in procs:
        _, stderr = proc.communicate(timeout=300)
        assert proc.returncode == 0, stderr
    published = tree_digest(built / "site")
    references = []
    for seed in ("7", "8"):
        ref = tmp_path / f"ref{seed}"
        assert konum(built, "build", "--seed", seed, "-d", str(ref), env=EPOCH).returncode == 0
        references.append(tree_digest(ref))
    assert published in references
    assert leftovers(built) == []


def test_bad_latex_in_a_bank_names_file_line_and_question(built: Path) -> None:
    before = tree_digest(built / "site")
    bank = built / "content" / "banks" / "mini.yml"
    bank.write_text(bank.read_text().replace(r"Even columns hold $\sin$", r"Even $\frac{1}{$ hold"))
    result = konum(built, "build", env=EPOCH)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert "mini.yml:" in result.stderr and "[mini-choice]" in result.stderr
    assert "cannot render the math" in result.stderr
    assert tree_digest(built / "site") == before
    assert leftovers(built) == []


def test_bad_expression_in_a_lesson_names_the_page(built: Path) -> None:
    before = tree_digest(built / "site")
    page = built / "content" / "index.md"
    page.write_text(page.read_text() + "\n{{ pe.sinusoidal(2, 3, layout='diagonal') }}\n")
    result = konum(built, "build", env=EPOCH)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert "index.md" in result.stderr and "layout" in result.stderr
    assert tree_digest(built / "site") == before


def test_a_course_is_loaded_once_and_again_when_a_bank_file_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every quiz block of a build shares one course; konum serve rebuilds in one process, so
    an edit of the same size (only its modification time differs), a new bank file and a
    removed one each make the next block load the folder again."""
    import konum.course
    from konum.config import options_from
    from konum.course import course_for

    project = make_project(tmp_path)
    folder = project / "content" / "banks"
    options = options_from({"banks": "content/banks", "plugins": ["pe"]}, root=project)
    loads: list[Path] = []
    real = konum.course.check_banks

    def counted(path: Any, **options: Any) -> Any:
        loads.append(path)
        return real(path, **options)

    monkeypatch.setattr(konum.course, "check_banks", counted)
    first = course_for(options)
    assert course_for(options) is first and len(loads) == 1  # nothing changed: the same

    bank = folder / "mini.yml"
    text = bank.read_text(encoding="utf-8")
    bank.write_text(text.replace("Which function fills", "Which fun(ct)ion fil", 1))
    assert bank.stat().st_size == len(text.encode("utf-8"))
    stat = bank.stat()
    os.utime(bank, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
    second = course_for(options)
    assert second is not first
    assert "Which fun(ct)ion fil" in second.by_id["mini"].questions[0].prompt

    other = text.replace("bank: mini", "bank: more").replace("id: mini-", "id: more-")
    (folder / "more.yml").write_text(other, encoding="utf-8")
    assert set(course_for(options).by_id) == {"mini", "more"}
    (folder / "more.yml").unlink()
    assert set(course_for(options).by_id) == {"mini"}


def test_a_build_checks_each_editions_banks_once(
    edition: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """konum build loads every edition's course before it writes anything (to report every
    bank problem at once); the pages MkDocs then converts find that same course, so the
    banks are checked once per edition, not once more by the build's quiz blocks."""
    import konum.course
    from konum import build

    loads: list[Path] = []
    real = konum.course.check_banks

    def counted(path: Any, **options: Any) -> Any:
        loads.append(path)
        return real(path, **options)

    konum.course._course.cache_clear()
    monkeypatch.setattr(konum.course, "check_banks", counted)
    monkeypatch.chdir(edition)
    build.build_site(edition / "mkdocs.yml", seed=3)
    assert len(loads) == 2, loads  # the main edition and the Turkish one


@pytest.mark.parametrize(
    ("block", "needle"),
    [
        ("/// quiz | nosuchbank\n///\n", "'nosuchbank'"),
        ("/// quiz | mini\n    questions: mini-choice, mini-nope\n///\n", "'mini-nope'"),
    ],
)
def test_quiz_block_naming_what_does_not_exist_fails_clearly(
    built: Path, block: str, needle: str
) -> None:
    before = tree_digest(built / "site")
    page = built / "content" / "lessons" / "quiz.md"
    page.write_text(page.read_text() + "\n" + block)
    result = konum(built, "build", env=EPOCH)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert needle in result.stderr and "lessons/quiz.md" in result.stderr
    assert tree_digest(built / "site") == before


def test_failed_downloads_fail_the_build_and_keep_the_site(
    built: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    """If the downloads fail, the build fails with their message and nothing is published
    or left over."""
    import konum.exports
    from konum import build
    from konum.errors import ExportError

    def broken(*args: object, **kwargs: object) -> None:
        raise ExportError("cannot write konum.apkg: No space left on device")

    monkeypatch.setattr(konum.exports, "write_downloads", broken)
    monkeypatch.setenv("NO_MKDOCS_2_WARNING", "1")
    before = tree_digest(built / "site")
    with pytest.raises(ExportError, match="No space left on device"):
        build.build_site(built / "mkdocs.yml", seed=9)
    capfd.readouterr()
    assert tree_digest(built / "site") == before
    assert leftovers(built) == []


def test_konum_build_writes_the_pages_plain_mkdocs_writes(built: Path, tmp_path: Path) -> None:
    """Pages and search index are byte for byte those of ``mkdocs build`` (a bank on two
    pages, a second and a partial block too): there is one rendering path."""
    lessons = built / "content" / "lessons"
    (lessons / "again.md").write_text(
        "# Again\n\n/// quiz | mini\n///\n\nBetween.\n\n/// quiz | mini\n///\n\n"
        "/// quiz | mini\n    questions: mini-choice\n///\n",
        encoding="utf-8",
    )
    env = {**os.environ, **EPOCH, "NO_MKDOCS_2_WARNING": "1"}
    config = built / "mkdocs.yml"
    config.write_text(config.read_text().replace("seed: 42", "seed: 4"))
    result = konum(built, "build", "-d", str(tmp_path / "k"), env=EPOCH)
    assert result.returncode == 0, result.stderr
    subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "-q", "-d", str(tmp_path / "m")],
        cwd=built, env=env, check=True, capture_output=True,
    )  # fmt: skip
    ours = {
        k: v
        for k, v in tree_digest(tmp_path / "k").items()
        if not k.startswith("downloads") and k != ".konum-site"
    }
    assert ours == tree_digest(tmp_path / "m")
    page = (tmp_path / "k" / "lessons" / "again.html").read_text(encoding="utf-8")
    assert page.count('class="konum-quiz"') == 3
    assert page.count('data-question-id="mini-choice"') == 3


def test_a_swap_killed_between_its_renames_is_put_back(tmp_path: Path) -> None:
    """The swap sets the old site aside, then moves the new one in: a build killed between
    the two leaves the old site in ``.site-old-*``, and the next build restores it first."""
    from konum.publish import recover

    site = tmp_path / "site"
    aside = tmp_path / ".site-old-abc"
    (aside / "site").mkdir(parents=True)
    (aside / "site" / "page.html").write_text("old", encoding="utf-8")
    (tmp_path / ".site-tmp-def").mkdir()
    (tmp_path / ".site-tmp-ghi").write_text("a stray file", encoding="utf-8")
    recover(site)
    assert (site / "page.html").read_text(encoding="utf-8") == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]


# --- where a build may publish (issue: ``konum build -d .`` deleted the project) ------------


def _git(folder: Path) -> None:
    subprocess.run(["git", "init", "-q", str(folder)], check=True, capture_output=True)


@pytest.mark.parametrize(
    "target",
    [".", "content", "content/banks", "content/lessons/deeper", "..", "../..", "HOME"],
)
def test_refuses_to_publish_over_the_project(built: Path, target: str) -> None:
    """An output folder that is, holds or lies inside the sources is refused, nothing touched."""
    _git(built)
    before = tree_digest(built)
    parent_before = sorted(p.name for p in built.parent.iterdir())
    folder = str(Path.home()) if target == "HOME" else target
    result = konum(built, "build", "-d", folder, env=EPOCH)
    assert result.returncode == 1, result.stdout
    assert result.stderr.startswith("konum: refusing to publish into "), result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr
    assert tree_digest(built) == before
    assert sorted(p.name for p in built.parent.iterdir()) == parent_before


@pytest.mark.parametrize("kind", ["file", "not-konums", "git", "symlink"])
def test_refuses_a_target_konum_did_not_make(built: Path, tmp_path: Path, kind: str) -> None:
    """Only an empty folder or one with konum's marker is replaced: a file, someone's folder
    with files in it, a git work tree or a link are left as they are."""
    target = tmp_path / "out"
    if kind == "file":
        target.write_text("notes", encoding="utf-8")
    elif kind == "symlink":
        (tmp_path / "real").mkdir()
        target.symlink_to(tmp_path / "real")
    else:
        target.mkdir()
        (target / "notes.txt").write_text("mine", encoding="utf-8")
        if kind == "git":
            _git(target)
            (target / ".konum-site").write_text("", encoding="utf-8")
    before = sorted(str(p) for p in tmp_path.rglob("*"))
    result = konum(built, "build", "-d", str(target), env=EPOCH)
    assert result.returncode == 1
    assert "konum: refusing to publish into" in result.stderr, result.stderr
    assert sorted(str(p) for p in tmp_path.rglob("*")) == before
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".out-tmp-")]


@pytest.mark.parametrize("extra", [None, "notes.md", ".git/HEAD"])
def test_replaces_what_mkdocs_built_and_nothing_more(
    built: Path, tmp_path: Path, extra: str | None
) -> None:
    """A folder `mkdocs build` wrote (the order the docs' steps lead to) is replaced; the
    same folder with something a person wrote in it (a Markdown file, a git folder) is not."""
    target = tmp_path / "made-by-mkdocs"
    made = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "-q", "-d", str(target)],
        cwd=built,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
        check=False,
    )
    assert made.returncode == 0, made.stderr
    assert (target / "sitemap.xml").is_file() and not (target / ".konum-site").exists()
    if extra is not None:
        (target / extra).parent.mkdir(parents=True, exist_ok=True)
        (target / extra).write_text("mine", encoding="utf-8")
    result = konum(built, "build", "-d", str(target), env=EPOCH)
    if extra is None:
        assert result.returncode == 0, result.stderr
        assert (target / ".konum-site").is_file()
    else:
        assert result.returncode == 1 and "refusing to publish into" in result.stderr
        assert (target / extra).read_text(encoding="utf-8") == "mine"


def test_replaces_an_empty_folder_and_its_own_site(built: Path, tmp_path: Path) -> None:
    target = tmp_path / "empty"
    target.mkdir()
    assert konum(built, "build", "-d", str(target), env=EPOCH).returncode == 0
    assert (target / ".konum-site").is_file() and (target / "index.html").is_file()
    assert konum(built, "build", "-d", str(target), "--seed", "3", env=EPOCH).returncode == 0


def test_plain_mkdocs_refuses_a_page_outside_the_project_where_konum_reads_the_pages(
    tmp_path: Path,
) -> None:
    """Under plain ``mkdocs build`` the study block reads the pages (for the questions only
    exams show): a page there that links outside the project is refused, named, not read."""
    project = make_project(tmp_path)
    outside = tmp_path / "outside.md"
    outside.write_text("# Not the project's\n", encoding="utf-8")
    (project / "content" / "secret.md").symlink_to(outside)
    index = project / "content" / "index.md"
    index.write_text(index.read_text(encoding="utf-8") + "\n/// study\n///\n", encoding="utf-8")
    config = project / "mkdocs.yml"
    config.write_text(
        config.read_text(encoding="utf-8").replace(
            "      seed: 42\n", "      seed: 42\n      pages: content\n"
        ),
        encoding="utf-8",
    )
    result = _plain_mkdocs_build(project)
    assert result.returncode == 1
    assert (
        "content/secret.md: not read: the site file is a link to a file outside the project"
        in result.stderr
    ), result.stderr
    assert not (project / "site" / "secret.html").exists()


def test_plain_mkdocs_names_a_wrong_konum_option_at_its_line_without_a_traceback(
    tmp_path: Path,
) -> None:
    """``mkdocs build`` makes konum's extension while it checks mkdocs.yml, where a failure
    is printed with a traceback: konum says a misspelt option when it converts a page
    instead, at the line of mkdocs.yml that writes it, with the spelling hint."""
    project = make_project(tmp_path)
    config = project / "mkdocs.yml"
    config.write_text(
        config.read_text(encoding="utf-8").replace("      seed: 42\n", "      sed: 7\n"),
        encoding="utf-8",
    )
    result = _plain_mkdocs_build(project)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr and 'File "' not in result.stderr, result.stderr
    assert (
        "ERROR   -  mkdocs.yml:19: markdown_extensions: konum has no option 'sed'; did you mean"
        " 'seed'?" in result.stderr
    ), result.stderr


def test_the_build_hands_each_edition_the_course_it_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pages of a build draw from the course the build loaded and checked, handed to
    the extension with its options: nothing looks it up again (course_for's cache keyed
    on options that must equal the extension's)."""
    import konum.quiz
    from konum.build import build_site

    project = make_project(tmp_path)
    add_edition(project)

    def no_lookup(options: object) -> None:
        raise AssertionError("a page looked the course up instead of using the one handed")

    monkeypatch.setattr(konum.quiz, "_course", no_lookup)
    monkeypatch.chdir(project)
    result = build_site(project / "mkdocs.yml", seed=1, downloads=False)
    assert result.editions == ("tr",)
    assert 'data-question-id="mini-entry"' in (
        project / "site" / "lessons" / "quiz.html"
    ).read_text(encoding="utf-8")
