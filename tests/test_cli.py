"""The konum command: help, version, and one clear line for every kind of nonsense."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest

from konum import __version__
from tests.miniproject import konum, make_project


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_project(tmp_path_factory.mktemp("cli"))


def test_version_and_help(project: Path) -> None:
    result = konum(project, "--version")
    assert result.returncode == 0 and __version__ in result.stdout
    result = konum(project, "--help")
    assert result.returncode == 0
    for command in ("check", "preview", "build", "serve", "export"):
        assert command in result.stdout


def test_check_passes_on_good_banks(project: Path) -> None:
    result = konum(project, "check")
    assert result.returncode == 0, result.stdout + result.stderr


def test_check_json_on_good_banks(project: Path) -> None:
    import json

    result = konum(project, "check", "--format", "json")
    assert result.returncode == 0
    assert json.loads(result.stdout) in ([], {"problems": []}) or "problems" in json.loads(
        result.stdout
    )


def test_preview_prints_variants(project: Path) -> None:
    result = konum(project, "preview", "mini-entry", "--seed", "3", "--variants", "2")
    assert result.returncode == 0, result.stderr
    assert "mini-entry" in result.stdout or "sinusoidal" in result.stdout.lower()


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("build", "--seed", "abc"), "--seed"),
        (("build", "--seed", "-3"), "--seed"),
        (("build", "--frobnicate"), "--frobnicate"),
        (("nonsense",), "nonsense"),
        (("check", "no/such/bank.yml"), "no/such/bank.yml"),
        (("preview", "no-such-question"), "no-such-question"),
        (("preview", "mini-choice"), "computed"),
        (("export", "pdf"), "pdf"),
        (("export", "csv", "-o", "/proc/konum.csv"), "/proc/konum.csv"),
        (("export", "anki", "-o", "/no/such/dir/x.apkg"), "/no/such/dir"),
        (("build", "-f", "missing.yml"), "missing.yml"),
        (("build", "-d", "/proc/site"), "/proc"),
    ],
)
def test_nonsense_gets_one_clear_line(project: Path, args: tuple[str, ...], needle: str) -> None:
    result = konum(project, *args)
    assert result.returncode != 0
    assert "Traceback" not in result.stderr + result.stdout
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    # check reports each problem on its line, then a summary; everything else is one line.
    assert len(lines) == (2 if args[0] == "check" else 1), result.stderr
    assert needle in lines[0]


def test_export_writes_each_kind(project: Path, tmp_path: Path) -> None:
    for kind, name in (("anki", "x.apkg"), ("text", "x.txt"), ("csv", "x.csv")):
        out = tmp_path / name
        result = konum(project, "export", kind, "--seed", "4", "-o", str(out))
        assert result.returncode == 0, result.stderr
        assert out.is_file() and out.stat().st_size > 0


@pytest.mark.parametrize(
    ("line", "needle"),
    [
        ("seed: abc", "expected a whole number, found 'abc'"),
        ("seed: -5", "from 0 to"),
        ("seed: 123456789012345678901234567890", "from 0 to"),
        ("sed: 5", "no option 'sed'; did you mean 'seed'?"),
        ("variants: 100000", "from 1 to 50"),
        ("variants: true", "expected a whole number, found True"),
    ],
)
@pytest.mark.parametrize("command", [("build",), ("check",), ("export", "csv"), ("serve",)])
def test_a_bad_option_in_mkdocs_yml_gets_one_clear_line(
    tmp_path: Path, line: str, needle: str, command: tuple[str, ...]
) -> None:
    """The extension's options are checked once, the same for every command and for what
    the command line gives: one line naming the option, exit 1, nothing built."""
    project = make_project(tmp_path)
    config = project / "mkdocs.yml"
    key = line.split(":")[0]
    text = config.read_text(encoding="utf-8")
    replaced = re.sub(
        rf"^      {'seed' if key == 'sed' else key}: .*$", f"      {line}", text, flags=re.M
    )
    assert replaced != text
    config.write_text(replaced, encoding="utf-8")
    result = konum(project, *command)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr + result.stdout
    lines = [x for x in result.stderr.splitlines() if x.strip()]
    assert len(lines) == 1 and needle in lines[0], result.stderr
    assert not (project / "site").exists()


def test_a_full_disk_names_where_space_ran_out() -> None:
    """shutil's copies name the source first and the target second: the message names the
    target, where the space ran out."""
    import errno

    from konum.errors import os_error as _os_error

    full = OSError(errno.ENOSPC, "No space left on device", "content/assets/x.png", None)
    full.filename2 = "/srv/site/.site-tmp-1/assets/x.png"
    assert _os_error(full) == (
        "no space left on the device while writing /srv/site/.site-tmp-1/assets/x.png"
    )
    written = OSError(errno.ENOSPC, "No space left on device", "/srv/site/konum.apkg")
    assert _os_error(written).endswith("while writing /srv/site/konum.apkg")
    other = OSError(errno.EACCES, "Permission denied", "/srv/site")
    assert _os_error(other) == "Permission denied: /srv/site"


def test_the_order_option_puts_decks_in_the_course_order(tmp_path: Path) -> None:
    """Banks follow the extension's ``order`` in every export and the study page; a bank
    it names that does not exist is one clear line."""
    project = make_project(tmp_path)
    banks = project / "content" / "banks"
    text = (banks / "mini.yml").read_text(encoding="utf-8")
    other = text.replace("bank: mini", "bank: alpha").replace("id: mini-", "id: alpha-")
    (banks / "alpha.yml").write_text(other.replace("Mini bank", "Alpha bank"), encoding="utf-8")
    config = project / "mkdocs.yml"
    base = config.read_text(encoding="utf-8")
    config.write_text(base.replace("      seed: 42", "      order: [mini]\n      seed: 42"))
    out = tmp_path / "cards.txt"
    assert konum(project, "export", "text", "-o", str(out)).returncode == 0
    with out.open(encoding="utf-8", newline="") as handle:
        rows = [r for r in csv.reader(handle, delimiter="\t") if not r[0].startswith("#")]
    decks = [row[2] for row in rows]
    assert decks[0].endswith("::01 Mini bank") and decks[-1].endswith("::02 Alpha bank")
    config.write_text(base.replace("      seed: 42", "      order: [mini, minni]\n      seed: 42"))
    result = konum(project, "export", "text", "-o", str(out))
    assert result.returncode == 1
    lines = [x for x in result.stderr.splitlines() if x.strip()]
    assert len(lines) == 1 and "'minni', which does not exist; did you mean 'mini'?" in lines[0]


@pytest.mark.parametrize("config", ["mkdocs.yml", "mkdocs.tr.yml"])
def test_serve_with_a_seed_gives_it_to_the_extension(config: str, tmp_path: Path) -> None:
    """``konum serve --seed N`` builds each preview with the configuration as written and
    konum's options given the seed (the Turkish edition's language kept), with no file
    written beside the configuration."""
    from konum.driver import serve_config

    repo = Path(__file__).resolve().parent.parent
    before = sorted(p.name for p in repo.iterdir())
    loaded = serve_config(repo / config, tmp_path, 7)
    assert sorted(p.name for p in repo.iterdir()) == before
    options = loaded["mdx_configs"]["konum"]
    assert options["seed"] == 7
    assert options["banks"] == "content/banks"
    assert options.get("language", "en") == ("tr" if "tr" in config else "en")
    assert loaded["site_dir"] == str(tmp_path)
    assert serve_config(repo / config, tmp_path, None)["mdx_configs"]["konum"]["seed"] == 42


@pytest.mark.parametrize(
    ("block", "message"),
    [
        ("/// quiz | gas\n///\n", "lessons/bad.md:3:"),
        ("/// quiz | mini\n    draw: 40\n///\n", "lessons/bad.md:3:"),
        ("/// quiz | mini\n    mode: quick\n///\n", "mode: expected practice or exam"),
    ],
    ids=["unknown-bank", "draw-beyond-pool", "bad-option"],
)
def test_check_reads_the_pages_blocks_as_the_build_does(
    tmp_path: Path, block: str, message: str
) -> None:
    """A page's quiz block that the build would refuse is a problem for konum check too, at
    the page and line, with the build's words."""
    project = make_project(tmp_path)
    (project / "content" / "lessons" / "bad.md").write_text("# Bad\n\n" + block, encoding="utf-8")
    built = konum(project, "build")
    checked = konum(project, "check")
    assert built.returncode == 1 and checked.returncode == 1, checked.stdout + checked.stderr
    assert message in checked.stderr, checked.stderr
    assert "Traceback" not in checked.stderr
    words = checked.stderr.split(": ", 3)[-1].strip().splitlines()[0]
    assert words.split(": ")[-1][:30] in built.stderr, (words, built.stderr)


def test_a_build_that_publishes_the_bank_files_says_so(tmp_path: Path) -> None:
    """Bank files inside docs_dir go into the site as they are, answers and all, unless
    exclude_docs leaves them out: the build says so, naming the line that would."""
    project = make_project(tmp_path)
    config = project / "mkdocs.yml"
    text = config.read_text(encoding="utf-8")
    config.write_text(text.replace("exclude_docs: |\n  banks/\n", ""), encoding="utf-8")
    result = konum(project, "build")
    assert result.returncode == 0, result.stderr
    assert any((project / "site" / "banks").glob("*.yml"))
    assert result.stderr.splitlines() == [
        "konum: warning: the bank files in content/banks/ are published with the site,"
        " answers and all; to keep them out, add to mkdocs.yml:",
        "  exclude_docs: |",
        "    banks/",
    ]
    config.write_text(text, encoding="utf-8")  # the mini project keeps them out
    result = konum(project, "build")
    assert result.returncode == 0 and result.stderr == "", result.stderr
    assert not (project / "site" / "banks").exists()


_TWINS = """\
bank: twins
title: Twins
questions:
  - id: twin
    type: choice
    prompt: One?
    explanation: One.
    options:
      - text: a
        correct: true
      - text: b
  - id: twin
    type: choice
    prompt: Two?
    explanation: Two.
    options:
      - text: a
        correct: true
      - text: b
      - text: c
"""


@pytest.mark.parametrize("translated", [False, True], ids=["bank", "bank-with-translation"])
def test_a_duplicate_id_is_one_line_naming_both(tmp_path: Path, translated: bool) -> None:
    """Two questions with one id (the second with more options than the first) are one
    problem naming both lines, never a traceback from mixing their texts."""
    (tmp_path / "docs" / "banks").mkdir(parents=True)
    (tmp_path / "docs" / "banks" / "twins.yml").write_text(_TWINS, encoding="utf-8")
    (tmp_path / "docs" / "index.md").write_text("# Twins\n", encoding="utf-8")
    more = "      translations: tr\n" if translated else ""
    if translated:
        (tmp_path / "tr").mkdir()
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: Twins\nexclude_docs: |\n  banks/\nmarkdown_extensions:\n"
        f"  - konum:\n      banks: docs/banks\n{more}",
        encoding="utf-8",
    )
    result = konum(tmp_path, "check")
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
    bank = tmp_path / "docs" / "banks" / "twins.yml"
    assert result.stderr.splitlines() == [
        f"{bank}:12:9: [twin] id: duplicate id 'twin': already used at line 4",
        "1 problem in 1 of 1 bank",
    ]


def _starts(lines: list[str], starts: list[str]) -> bool:
    return len(lines) == len(starts) and all(map(str.startswith, lines, starts))


def test_every_bad_block_is_reported_at_its_own_page(tmp_path: Path) -> None:
    """Three bad blocks on one page are three lines at that page, in check and build alike;
    the study page, which reads every page for its exams, is not blamed for them."""
    project = make_project(tmp_path)
    lessons = project / "content" / "lessons"
    (lessons / "normal.md").write_text(
        "# Normal\n\n/// quiz | mini\n  draw: 2\n///\n\n/// quiz | minni\n///\n\n"
        "/// quiz | mini\n    mode: test\n///\n",
        encoding="utf-8",
    )
    (lessons / "cards.md").write_text("# Cards\n\n/// study\n///\n", encoding="utf-8")
    expected = [
        "content/lessons/normal.md:4: /// quiz | mini: option 'draw' is indented 2 spaces",
        "content/lessons/normal.md:7: /// quiz | minni: names bank 'minni', which does not",
        "content/lessons/normal.md:11: /// quiz | mini: mode: expected practice or exam",
    ]
    checked = konum(project, "check")
    assert checked.returncode == 1
    lines = [re.sub(r"^([^:]+:\d+):1:", r"\1:", line) for line in checked.stderr.splitlines()]
    assert [
        line[: len(want)] for line, want in zip(lines[:3], expected, strict=True)
    ] == expected, lines
    assert lines[3:] == ["3 problems in 1 page"]
    built = konum(project, "build")
    assert built.returncode == 1 and "cards.md" not in built.stderr, built.stderr
    said = built.stderr.replace("ERROR - ", "").splitlines()
    errors = [line for line in said if line.startswith("content/")]
    assert [line[: len(want)] for line, want in zip(errors, expected, strict=True)] == expected, (
        errors
    )


def test_the_order_option_is_blamed_on_the_configuration(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    config = project / "mkdocs.yml"
    text = config.read_text(encoding="utf-8").replace(
        "      variants: 3\n", "      variants: 3\n      order: [mini, nope]\n"
    )
    config.write_text(text, encoding="utf-8")
    line = text.splitlines().index("      order: [mini, nope]") + 1
    checked = konum(project, "check")
    assert checked.returncode == 1
    assert checked.stderr.splitlines()[0] == (
        f"mkdocs.yml:{line}:1: option 'order' of konum names bank 'nope', which does not exist"
        " (banks: mini)"
    )
    assert ".md" not in checked.stderr


def test_check_warns_about_bank_files_the_site_publishes(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    config = project / "mkdocs.yml"
    text = config.read_text(encoding="utf-8")
    config.write_text(text.replace("exclude_docs: |\n  banks/\n", ""), encoding="utf-8")
    checked = konum(project, "check")
    assert checked.returncode == 0, checked.stderr
    assert checked.stderr.splitlines()[-3:] == [
        "konum: warning: the bank files in content/banks/ are published with the site,"
        " answers and all; to keep them out, add to mkdocs.yml:",
        "  exclude_docs: |",
        "    banks/",
    ]


def test_a_translation_problem_is_one_line_said_once(tmp_path: Path) -> None:
    """A problem in an edition's translations is its one line (issue 48): not again, with
    its line breaks escaped, at each page of the edition whose course it stops."""
    project = make_project(tmp_path)
    config = project / "mkdocs.yml"
    text = config.read_text(encoding="utf-8")
    config.write_text(
        text.replace("      variants: 3\n", "      variants: 3\n      editions: [mkdocs.tr.yml]\n"),
        encoding="utf-8",
    )
    (project / "mkdocs.tr.yml").write_text(
        text.replace("site_dir: site\n", "site_dir: site/tr\n").replace(
            "      variants: 3\n", "      variants: 3\n      translations: tr\n"
        ),
        encoding="utf-8",
    )
    (project / "tr").mkdir()
    (project / "tr" / "mini.yml").write_text("bank: mini\ntitle: Mini\n", encoding="utf-8")
    checked = konum(project, "check")
    assert checked.returncode == 1 and "Traceback" not in checked.stderr, checked.stderr
    lines = checked.stderr.splitlines()
    assert "\\n" not in checked.stderr and not any(".md" in line for line in lines), lines
    assert len(lines) == len(set(lines)), lines
    assert lines[0].startswith(f"{project / 'tr' / 'mini.yml'}:"), lines
