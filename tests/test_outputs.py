"""Outputs that cannot destroy: every export and the exam are written beside their target and
renamed into place, and ``-o`` refuses what the site is made from and what is not a file.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from konum.errors import ExportError
from konum.files import FOLDER_MARK, atomic_folder, check_target, write_atomically
from tests.miniproject import konum, make_project


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_project(tmp_path_factory.mktemp("outputs"))


def _full_disk(*args: object, **kwargs: object) -> None:
    raise OSError(28, "No space left on device")


@pytest.mark.parametrize(
    ("kind", "name"), [("anki", "old.apkg"), ("text", "old.txt"), ("csv", "old.csv")]
)
def test_a_failed_export_keeps_the_earlier_file(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str, name: str
) -> None:
    target = tmp_path / name
    assert konum(project, "export", kind, "-o", str(target)).returncode == 0
    before = target.read_bytes()
    monkeypatch.setattr("konum.files.os.replace", _full_disk)
    result = konum(project, "export", kind, "-o", str(target))
    assert result.returncode == 1 and "No space left on device" in result.stderr
    assert "Traceback" not in result.stderr
    assert target.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == [name]  # no temporary file left


def test_an_export_that_fails_while_writing_keeps_the_earlier_file(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "cards.csv"
    target.write_text("front,back,tags\nold,card,\n", encoding="utf-8")
    real = __import__("csv").writer

    def half_then_full(handle: object, **options: object) -> object:
        writer = real(handle, **options)

        class Writer:
            def writerow(self, row: object) -> None:
                writer.writerow(row)
                raise OSError(28, "No space left on device")

        return Writer()

    monkeypatch.setattr("konum.exports.text.csv.writer", half_then_full)
    result = konum(project, "export", "csv", "-o", str(target))
    assert result.returncode == 1 and "No space left" in result.stderr
    assert target.read_text(encoding="utf-8") == "front,back,tags\nold,card,\n"
    assert [p.name for p in tmp_path.iterdir()] == ["cards.csv"]


@pytest.mark.parametrize(
    ("kind", "target", "why"),
    [
        ("csv", "content/banks/mini.yml", "which the site is made from"),
        ("gift", "mkdocs.yml", "which the site is made from"),
        ("anki", "content/lessons/quiz.md", "which the site is made from"),
        ("moodle", "content/new.xml", "which the site is made from"),
        ("text", ".git/config", "which the site is made from"),
        ("moodle", "/dev/null", "not a regular file"),
        ("csv", "content", "is a directory"),
    ],
)
def test_export_refuses_the_sites_sources_and_what_is_not_a_file(
    project: Path, kind: str, target: str, why: str
) -> None:
    (project / ".git").mkdir(exist_ok=True)
    (project / ".git" / "config").write_text("[core]\n", encoding="utf-8")
    before = {p: p.read_bytes() for p in project.rglob("*") if p.is_file()}
    device = os.stat("/dev/null")
    result = konum(project, "export", kind, "-o", target)
    assert result.returncode != 0, result.stdout
    assert why in result.stderr and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert {p: p.read_bytes() for p in project.rglob("*") if p.is_file()} == before
    assert (
        stat.S_ISCHR(os.stat("/dev/null").st_mode)
        and os.stat("/dev/null").st_rdev == device.st_rdev
    )


def test_export_refuses_konums_own_code(project: Path) -> None:
    import konum as package

    target = Path(package.__file__).parent / "cli.py"
    before = target.read_bytes()
    result = konum(project, "export", "csv", "-o", str(target))
    assert result.returncode == 1 and "which the site is made from" in result.stderr
    assert target.read_bytes() == before


def test_export_refuses_a_link_to_a_source(project: Path, tmp_path: Path) -> None:
    link = tmp_path / "innocent.csv"
    link.symlink_to(project / "content" / "banks" / "mini.yml")
    before = (project / "content" / "banks" / "mini.yml").read_bytes()
    result = konum(project, "export", "csv", "-o", str(link))
    assert result.returncode == 1 and "which the site is made from" in result.stderr
    assert (project / "content" / "banks" / "mini.yml").read_bytes() == before


def test_the_exam_refuses_the_docs_folder_and_a_folder_of_other_files(
    project: Path, tmp_path: Path
) -> None:
    inside = konum(project, "exam", "-o", "content/lessons")
    assert inside.returncode == 1 and "which the site is made from" in inside.stderr
    assert sorted(p.name for p in (project / "content" / "lessons").iterdir()) == ["quiz.md"]
    theirs = tmp_path / "notes"
    theirs.mkdir()
    (theirs / "mine.txt").write_text("keep me", encoding="utf-8")
    refused = konum(project, "exam", "-o", str(theirs))
    assert refused.returncode == 1 and "holds files konum did not write" in refused.stderr
    assert [p.name for p in theirs.iterdir()] == ["mine.txt"]


def test_an_exam_appears_whole_or_not_at_all(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "exam"
    monkeypatch.setenv("PATH", str(tmp_path / "no-chromium"))
    assert konum(project, "exam", "--versions", "2", "-o", str(out)).returncode == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    assert FOLDER_MARK in before and len(before) == 5

    def fail_late(page: object, *args: object, **kwargs: object) -> object:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("konum.exam.Path.write_text", fail_late)
    result = konum(project, "exam", "--versions", "2", "--seed", "9", "-o", str(out))
    assert result.returncode == 1 and "No space left" in result.stderr
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["exam"]  # no staging folder left


def test_a_failed_print_leaves_no_profile_or_part_file(tmp_path: Path) -> None:
    from konum.exam import print_pdf

    chromium = tmp_path / "chromium"
    chromium.write_text(
        "#!/bin/sh\nfor a; do case $a in --print-to-pdf=*) echo half > ${a#--print-to-pdf=};;"
        " --user-data-dir=*) echo $a > " + str(tmp_path / "profile") + ";; esac; done\nexit 3\n"
    )
    chromium.chmod(0o755)
    page = tmp_path / "page.html"
    page.write_text("<p>x</p>", encoding="utf-8")
    with pytest.raises(ExportError, match=r"could not print page\.html"):
        print_pdf(str(chromium), page, tmp_path / "page.pdf")
    profile = (tmp_path / "profile").read_text().strip().split("=", 1)[1]
    assert not Path(profile).exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["chromium", "page.html", "profile"]


def test_check_target_accepts_new_names_and_regular_files(tmp_path: Path) -> None:
    source = tmp_path / "docs"
    source.mkdir()
    (tmp_path / "old.csv").write_text("x", encoding="utf-8")
    assert check_target(tmp_path / "new.csv", [source]) == tmp_path / "new.csv"
    assert check_target(tmp_path / "old.csv", [source]) == tmp_path / "old.csv"
    with pytest.raises(ExportError, match="that is a folder"):
        check_target(tmp_path, [source])
    with pytest.raises(ExportError, match="inside"):
        check_target(source / "a.csv", [source])


def test_write_atomically_and_atomic_folder_keep_the_earlier_on_failure(tmp_path: Path) -> None:
    target = tmp_path / "file.txt"
    write_atomically(target, "first")
    folder = tmp_path / "out"
    with atomic_folder(folder) as staging:
        (staging / "a.html").write_text("one", encoding="utf-8")
    with pytest.raises(RuntimeError), atomic_folder(folder) as staging:
        (staging / "a.html").write_text("two", encoding="utf-8")
        raise RuntimeError("stopped")
    assert (folder / "a.html").read_text(encoding="utf-8") == "one"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file.txt", "out"]


def test_a_killed_exams_staging_folder_is_removed_by_the_next_run(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A run killed while filling its staging folder leaves it; the next run removes it (its
    maker is gone) and leaves one another run is filling."""
    import subprocess

    gone = subprocess.Popen(["true"])
    gone.wait()
    out = tmp_path / "exam"
    stale, busy = tmp_path / ".exam.killed1", tmp_path / ".exam.running"
    for folder, pid in ((stale, gone.pid), (busy, os.getpid())):
        folder.mkdir()
        (folder / ".konum-maker").write_text(str(pid), encoding="utf-8")
        (folder / "version-1.html").write_text("half", encoding="utf-8")
    monkeypatch.setenv("PATH", str(tmp_path / "no-chromium"))
    assert konum(project, "exam", "-o", str(out)).returncode == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == [".exam.running", "exam"]
    assert ".konum-maker" not in {p.name for p in out.iterdir()}


@pytest.mark.parametrize("kind", ["csv", "moodle"])
def test_a_read_only_target_or_a_folder_name_is_one_line(
    project: Path, tmp_path: Path, kind: str
) -> None:
    locked = tmp_path / "locked.out"
    locked.write_text("keep me", encoding="utf-8")
    locked.chmod(0o444)
    refused = konum(project, "export", kind, "-o", str(locked))
    assert refused.returncode == 1 and "Traceback" not in refused.stderr
    assert f"-o {locked}: the file is read-only" in refused.stderr
    assert locked.read_text(encoding="utf-8") == "keep me"
    slash = f"{tmp_path / 'out'}/"
    refused = konum(project, "export", kind, "-o", slash)
    assert refused.returncode == 1 and f"-o {slash}: that names a folder" in refused.stderr
    assert not (tmp_path / "out").exists()


def test_a_read_only_file_is_never_replaced(tmp_path: Path) -> None:
    """A bank --record would write, a translation --update-hashes would, an export: a file
    whose owner took its write permission stays as it is, said in one line."""
    locked = tmp_path / "bank.yml"
    locked.write_text("keep me", encoding="utf-8")
    locked.chmod(0o444)
    with pytest.raises(ExportError, match=r"bank\.yml: the file is read-only, so konum leaves"):
        write_atomically(locked, "replaced")
    assert locked.read_text(encoding="utf-8") == "keep me"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bank.yml"]
