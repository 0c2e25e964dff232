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

from tests.miniproject import REPO, konum, make_project, tree_digest

pytestmark = pytest.mark.slow
EPOCH = {"SOURCE_DATE_EPOCH": "1767225600"}


@pytest.fixture
def built(tmp_path: Path) -> Path:
    """A mini project with a first site already built (seed 1)."""
    project = make_project(tmp_path)
    result = konum(project, "build", "--seed", "1", env=EPOCH)
    assert result.returncode == 0, result.stderr
    return project


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
    for name in ("konum.apkg", "konum-anki.txt", "konum.csv", "cards.json"):
        assert (site / "downloads" / name).is_file(), name
    assert leftovers(built) == []


def test_build_reports_what_it_published(built: Path, tmp_path: Path) -> None:
    result = konum(built, "build", "--seed", "3", "-d", str(tmp_path / "out"), env=EPOCH)
    assert result.returncode == 0, result.stderr
    line = result.stdout.strip()
    assert line.startswith("konum: built 3 pages (1 bank, 3 questions, seed 3) into ")
    assert str(tmp_path / "out") in line


def test_konum_assets_only_on_quiz_pages(built: Path) -> None:
    index = (built / "site" / "index.html").read_text()
    quiz_page = (built / "site" / "lessons" / "quiz.html").read_text()
    assert "assets/konum/quiz.js" not in index and "assets/konum/quiz.css" not in index
    assert "assets/konum/quiz.js" in quiz_page and "assets/konum/quiz.css" in quiz_page


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


def _wait_for_staging(project: Path, proc: subprocess.Popen[str], timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        staging = [p for p in project.glob(".site-tmp-*") if any(p.iterdir())]
        if staging:
            return
        if proc.poll() is not None:
            _, error = proc.communicate()
            pytest.fail(f"the build ended before it could be killed: {error}")
        time.sleep(0.01)
    pytest.fail("the build never started writing its staging folder")


def _lengthen(project: Path, pages: int = 150) -> None:
    """Give MkDocs pages enough to write that a build is still running well over a second
    after its staging folder appears (the mini project's alone finish in about 0.4 s: a
    signal sent on a loaded machine could arrive after the build)."""
    lessons = project / "content" / "lessons"
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
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT])
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

    real = build._fill_quizzes

    def fill(*args: Any, **kwargs: Any) -> None:
        Finaliser()  # made and finalised at once, late in the build
        real(*args, **kwargs)

    monkeypatch.setattr(build, "_fill_quizzes", fill)
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


def test_banks_validated_by_the_build_are_not_loaded_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """konum build loads the banks once; the quiz blocks reuse them (relative path or not)."""
    import konum.banks
    from konum.banks import load_banks
    from konum.mdx import quiz

    project = make_project(tmp_path)
    banks = load_banks(project / "content" / "banks")
    quiz.prime_banks(project / "content" / "banks", banks)

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("banks loaded a second time")

    monkeypatch.setattr(konum.banks, "load_banks", refuse)
    monkeypatch.chdir(project)
    assert set(quiz._CACHE.banks(Path("content/banks"))) == {"mini"}


def test_quiz_blocks_load_the_banks_again_when_a_bank_file_changes(tmp_path: Path) -> None:
    """konum serve rebuilds in one process: an edit of the same size (only its modification
    time differs), a new bank file and a removed one each make the next block load again."""
    from konum.banks import load_banks
    from konum.mdx import quiz

    project = make_project(tmp_path)
    folder = project / "content" / "banks"
    bank = folder / "mini.yml"
    quiz.prime_banks(folder, load_banks(folder))
    first = quiz._CACHE.banks(folder)
    assert quiz._CACHE.banks(folder) is first  # nothing changed: the same banks

    text = bank.read_text(encoding="utf-8")
    bank.write_text(text.replace("Which function fills", "Which fun(ct)ion fil", 1))
    assert bank.stat().st_size == len(text.encode("utf-8"))
    stat = bank.stat()
    os.utime(bank, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
    second = quiz._CACHE.banks(folder)
    assert second is not first
    assert "Which fun(ct)ion fil" in second["mini"].questions[0].prompt

    other = text.replace("bank: mini", "bank: more").replace("id: mini-", "id: more-")
    (folder / "more.yml").write_text(other, encoding="utf-8")
    third = quiz._CACHE.banks(folder)
    assert set(third) == {"mini", "more"}
    (folder / "more.yml").unlink()
    assert set(quiz._CACHE.banks(folder)) == {"mini"}


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


@pytest.mark.parametrize("parallel", [True, False], ids=["child-process", "in-process"])
def test_failed_downloads_fail_the_build_and_keep_the_site(
    built: Path, parallel: bool, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    """The downloads are written beside the pages (by a child process where fork exists); if
    they fail, the build fails with their message and nothing is published or left over."""
    import konum.exports
    from konum import build, workers
    from konum.errors import BuildError, ExportError

    def broken(*args: object, **kwargs: object) -> None:
        raise ExportError("cannot write konum.apkg: No space left on device")

    monkeypatch.setattr(workers, "can_fork", lambda: parallel)
    monkeypatch.setattr(konum.exports, "write_downloads", broken)
    monkeypatch.setenv("NO_MKDOCS_2_WARNING", "1")
    before = tree_digest(built / "site")
    with pytest.raises((BuildError, ExportError), match="No space left on device"):
        build.build_site(built / "mkdocs.yml", seed=9)
    capfd.readouterr()
    assert tree_digest(built / "site") == before
    assert leftovers(built) == []


def test_the_preparation_child_dies_with_a_killed_build(tmp_path: Path) -> None:
    """SIGKILL cannot be caught, so the child that validates, renders and writes downloads
    is told by the kernel (PR_SET_PDEATHSIG) to die with its parent."""
    script = tmp_path / "killed.py"
    script.write_text(
        "import os, signal, sys, time\n"
        "from pathlib import Path\n"
        "from konum import workers\n"
        "prep = workers.Preparation(\n"
        "    load=lambda: time.sleep(120), work=str, folder=Path(sys.argv[1]),\n"
        ")\n"
        "print(prep._child.pid, flush=True)\n"
        "time.sleep(0.5)\n"
        "os.kill(os.getpid(), signal.SIGKILL)\n"
    )
    proc = subprocess.run(
        [sys.executable, str(script), str(tmp_path / "out")],
        capture_output=True, text=True, timeout=60, check=False,
        cwd=Path(__file__).resolve().parent.parent,
    )  # fmt: skip
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    child = int(proc.stdout.strip())

    def alive(pid: int) -> bool:
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except FileNotFoundError:
            return False
        return stat.rsplit(")", 1)[1].split()[0] != "Z"  # a zombie has died

    deadline = time.monotonic() + 20
    while alive(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(child), f"preparation child {child} outlived its killed build"


def test_quizzes_rendered_ahead_give_the_same_site(
    built: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    """The pages take whole-bank quizzes rendered ahead (by the child, or by this process
    once MkDocs is done), byte for byte what they would have rendered themselves; so are
    the downloads made from each bank's cards."""
    from konum import build, workers

    served: list[str] = []
    real_results = workers.Preparation.results

    def spy(self: workers.Preparation[build.BankOutput]) -> list[build.BankOutput]:
        outputs = real_results(self)
        served.extend(b.id for b, o in zip(self.banks(), outputs, strict=True) if o.quiz)
        return outputs

    monkeypatch.setattr(workers.Preparation, "results", spy)
    for key, value in {**EPOCH, "NO_MKDOCS_2_WARNING": "1"}.items():
        monkeypatch.setenv(key, value)
    digests = []
    for parallel in (True, False):
        monkeypatch.setattr(workers, "can_fork", lambda parallel=parallel: parallel)
        out = tmp_path / f"site-{parallel}"
        build.build_site(built / "mkdocs.yml", seed=4, site_dir=out)
        digests.append(tree_digest(out))
        assert [p.name for p in tmp_path.iterdir() if "-tmp-" in p.name] == []
    capfd.readouterr()
    assert served == ["mini", "mini"]
    assert digests[0] == digests[1]
    assert any(name.startswith("downloads/") for name in digests[0])


def test_konum_build_writes_the_pages_plain_mkdocs_writes(built: Path, tmp_path: Path) -> None:
    """konum build leaves a marker for each whole-bank quiz and fills it in once MkDocs has
    written the pages: pages and search index are byte for byte those of ``mkdocs build``
    rendering every quiz in place (a bank on two pages, a second and a partial block too)."""
    lessons = built / "content" / "lessons"
    (lessons / "again.md").write_text(
        "# Again\n\n/// quiz | mini\n///\n\nBetween.\n\n/// quiz | mini\n///\n\n"
        "/// quiz | mini\n    questions: mini-choice\n///\n",
        encoding="utf-8",
    )
    env = {**os.environ, **EPOCH, "NO_MKDOCS_2_WARNING": "1", "KONUM_SEED": "4"}
    result = konum(built, "build", "--seed", "4", "-d", str(tmp_path / "k"), env=EPOCH)
    assert result.returncode == 0, result.stderr
    subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "-q", "-d", str(tmp_path / "m")],
        cwd=built, env=env, check=True, capture_output=True,
    )  # fmt: skip
    ours = {k: v for k, v in tree_digest(tmp_path / "k").items() if not k.startswith("downloads")}
    assert ours == tree_digest(tmp_path / "m")
    page = (tmp_path / "k" / "lessons" / "again.html").read_text(encoding="utf-8")
    assert page.count("data-konum-quiz") == 3 and "data-konum-pending" not in page
    assert page.count('data-question-id="mini-choice"') == 3


def test_a_quiz_that_cannot_be_rendered_ahead_fails_on_the_page_that_shows_it(
    built: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    """A bank whose quiz fails to render ahead is rendered again for the page that shows it,
    and the build fails naming the block and the problem; nothing is published."""
    from konum import build, render, workers
    from konum.errors import BuildError

    def broken(*args: object, **kwargs: object) -> str:
        raise render.RenderError("cannot render the math")

    monkeypatch.setattr(workers, "can_fork", lambda: True)
    monkeypatch.setattr(build, "render_bank_quiz", broken)
    monkeypatch.setenv("NO_MKDOCS_2_WARNING", "1")
    with pytest.raises(BuildError, match=r"/// quiz \| mini: cannot render the math"):
        build.build_site(built / "mkdocs.yml", seed=4, site_dir=tmp_path / "pub" / "out")
    capfd.readouterr()
    assert [p.name for p in (tmp_path / "pub").iterdir()] == [".out-lock"]


def _with_fork_then_without(
    built: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, log: Path
) -> tuple[dict[str, str], list[str], dict[str, str]]:
    """Build ``built`` (seed 4, ``SOURCE_DATE_EPOCH`` set) with the child process, then in
    one process: the two sites' digests, and the lines ``log`` gained in the first build."""
    from konum import build, workers

    for key, value in {**EPOCH, "NO_MKDOCS_2_WARNING": "1"}.items():
        monkeypatch.setenv(key, value)
    digests, lines = [], []
    for parallel in (True, False):
        monkeypatch.setattr(workers, "can_fork", lambda parallel=parallel: parallel)
        log.write_text("", encoding="utf-8")
        out = tmp_path / f"site-{parallel}"
        build.build_site(built / "mkdocs.yml", seed=4, site_dir=out)
        digests.append(tree_digest(out))
        lines.append(log.read_text(encoding="utf-8").splitlines())
    return digests[0], lines[0], digests[1]


def test_banks_shared_between_the_processes_give_the_same_site(
    built: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    """With the child slowed down, this process takes banks from the last one back: the
    site and downloads are byte for byte those of a build done in one process."""
    from konum import build

    banks = built / "content" / "banks"
    shown = []
    for source in sorted((REPO / "content" / "banks").glob("*.yml")):
        shutil.copy(source, banks / source.name)
        shown.append(f"/// quiz | {source.stem}\n///\n")
    (built / "content" / "lessons" / "all.md").write_text(
        "# All banks\n\n" + "\n".join(shown), encoding="utf-8"
    )
    log = tmp_path / "who.txt"
    parent = os.getpid()
    real = build._bank_output

    def slow_in_the_child(bank: Any, *args: Any) -> Any:
        if os.getpid() != parent:
            time.sleep(0.4)
        with open(log, "a", encoding="utf-8") as out:
            out.write(f"{bank.id} {os.getpid()}\n")
        return real(bank, *args)

    monkeypatch.setattr(build, "_bank_output", slow_in_the_child)
    forked, lines, single = _with_fork_then_without(built, tmp_path, monkeypatch, log)
    capfd.readouterr()
    done = [line.split() for line in lines]
    assert sorted(bank for bank, _pid in done) == sorted(
        [*(p.stem for p in banks.glob("*.yml"))]
    )  # each bank once
    pids = {pid for _bank, pid in done}
    assert str(parent) in pids and len(pids) == 2, done  # both processes took banks
    assert forked == single
    page = (tmp_path / "site-True" / "lessons" / "all.html").read_text(encoding="utf-8")
    assert page.count("data-konum-quiz") == len(shown) and "data-konum-pending" not in page


@pytest.mark.parametrize("child_fails", [False, True], ids=["child-writes", "child-fails"])
def test_a_child_that_made_every_bank_writes_the_downloads_meanwhile(
    built: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capfd: pytest.CaptureFixture[str],
    child_fails: bool,
) -> None:
    """On a small site the child has made every bank's output while MkDocs still builds the
    pages: it writes the downloads then. Should it fail, this process writes them. Either
    way the site and downloads are byte for byte those of a build done in one process."""
    from konum import build, exports

    log = tmp_path / "writers.txt"
    parent = os.getpid()
    real_write, real_mkdocs = exports.write_downloads, build._mkdocs_build

    def write_downloads(*args: Any, **kwargs: Any) -> Any:
        with open(log, "a", encoding="utf-8") as out:
            out.write(f"{os.getpid()} {' '.join(sorted(kwargs.get('files', ['all'])))}\n")
        if child_fails and "files" not in kwargs and os.getpid() != parent:
            raise OSError(28, "No space left on device")  # the preparing child's, all files
        return real_write(*args, **kwargs)

    def slow_mkdocs(*args: Any, **kwargs: Any) -> None:
        real_mkdocs(*args, **kwargs)
        time.sleep(1.0)  # the child is done with every bank meanwhile

    monkeypatch.setattr(exports, "write_downloads", write_downloads)
    monkeypatch.setattr(build, "_mkdocs_build", slow_mkdocs)
    forked, lines, single = _with_fork_then_without(built, tmp_path, monkeypatch, log)
    capfd.readouterr()
    writers = [line.split(" ", 1) for line in lines]
    assert writers[0][0] != str(parent) and writers[0][1] == "all"  # the child, all files
    if child_fails:  # then each file once more, here or in another child
        assert sorted(files for _pid, files in writers[1:]) == ["anki", "csv", "json", "text"]
    else:
        assert len(writers) == 1
    assert forked == single
    assert any(name.startswith("downloads/") for name in forked)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="renameat2 is Linux's")
def test_publishing_swaps_the_folders_in_one_step(tmp_path: Path) -> None:
    """The new site and the old one change places with renameat2(RENAME_EXCHANGE), found
    in the process's own C library without asking ldconfig."""
    from unittest import mock

    from konum.build import _exchange
    from konum.libc import libc

    new, old = tmp_path / "new", tmp_path / "site"
    new.mkdir()
    old.mkdir()
    (new / "page.html").write_text("new", encoding="utf-8")
    (old / "page.html").write_text("old", encoding="utf-8")
    libc.cache_clear()  # loaded afresh under the patch, not taken from an earlier test
    with mock.patch("ctypes.util.find_library", side_effect=AssertionError("searched")):
        assert _exchange(new, old) is True
    assert (old / "page.html").read_text(encoding="utf-8") == "new"
    assert (new / "page.html").read_text(encoding="utf-8") == "old"
