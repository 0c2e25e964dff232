"""The build on every core (``konum.parallel``): the same bytes as on one, the same errors.

The builds run as processes of their own: the workers are forked only from a process with
one thread, and a pytest-xdist worker has more.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.miniproject import konum, make_project, tree_digest
from tests.test_build import add_edition

EPOCH = {"SOURCE_DATE_EPOCH": "1767225600"}
BANKS = 5


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The mini project with ``BANKS`` banks more (its own, renamed), each on a page."""
    project = make_project(tmp_path_factory.mktemp("parallel"))
    banks = project / "content" / "banks"
    mini = (banks / "mini.yml").read_text(encoding="utf-8")
    for n in range(BANKS):
        text = mini.replace("bank: mini", f"bank: extra{n}").replace("id: mini-", f"id: x{n}-")
        (banks / f"extra{n}.yml").write_text(text, encoding="utf-8")
        (project / "content" / "lessons" / f"extra{n}.md").write_text(
            f"# Extra {n}\n\n/// quiz | extra{n}\n///\n", encoding="utf-8"
        )
    return project


def test_every_core_builds_the_bytes_one_core_builds(project: Path, tmp_path: Path) -> None:
    one = konum(project, "build", "-j", "1", "-d", str(tmp_path / "one"), env=EPOCH, process=True)
    assert one.returncode == 0, one.stderr
    every = konum(project, "build", "-j", "0", "-d", str(tmp_path / "all"), env=EPOCH, process=True)
    assert every.returncode == 0, every.stderr
    digest = tree_digest(tmp_path / "one")
    assert len([f for f in digest if f.endswith(".html")]) >= BANKS + 2
    assert any(f.startswith("downloads/") for f in digest)
    assert tree_digest(tmp_path / "all") == digest
    assert "7 banks" not in one.stdout and f"{BANKS + 1} banks" in one.stdout


def test_editions_build_at_once_into_the_bytes_one_after_the_other_makes(
    tmp_path: Path,
) -> None:
    """Each edition builds in a worker of its own; the site is the one built edition after
    edition, and no staging folder is left."""
    project = make_project(tmp_path / "edition")
    add_edition(project)
    sites = {}
    for jobs in ("1", "0"):
        site = tmp_path / f"site-{jobs}"
        result = konum(project, "build", "-j", jobs, "-d", str(site), env=EPOCH, process=True)
        assert result.returncode == 0, result.stderr
        assert "site-" + jobs + "/tr/" in result.stdout
        sites[jobs] = tree_digest(site)
    assert {"tr/lessons/quiz.html", "tr/.konum-site", ".konum-site"} <= set(sites["1"])
    assert any(f.startswith("tr/downloads/") for f in sites["1"])
    assert sites["0"] == sites["1"]
    left = [p.name for p in tmp_path.iterdir() if p.name.startswith(".")]
    assert [name for name in left if not name.endswith("-lock")] == []
    # Each edition built as if alone: the Turkish one's search, left to its theme's language,
    # in Turkish (in one process, MkDocs kept the English edition's search plugin).
    search = json.loads((tmp_path / "site-1" / "tr" / "search" / "search_index.json").read_text())
    assert search["config"]["lang"] == ["tr"]


def _in_a_process(code: str, cwd: Path) -> dict[str, object]:
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def test_the_check_runs_in_workers_and_reports_the_same(project: Path) -> None:
    """Two workers check the banks (each in its own process) and report what one does,
    in the same order; the texts they converted are handed back, not converted again."""
    found = _in_a_process(
        """
import json, os
from pathlib import Path
from konum import check, parallel
from konum.markup import render_text
from konum.plugins import load_plugins

pe = load_plugins(("pe",), Path.cwd())

pids = parallel.ordered_map(lambda c, i: (c, os.getpid()), "ctx", [1, 2, 3, 4], 2)
one = check.check_banks(Path("content/banks"), plugins=pe, jobs=1)
render_text.cache_clear()
import markdown
converted = []
real = markdown.Markdown.convert
markdown.Markdown.convert = lambda md, text: converted.append(text) or real(md, text)
two = check.check_banks(Path("content/banks"), plugins=pe, jobs=2)
again = [render_text(q.explanation) for b in two.banks for q in b.questions]
print(json.dumps({
    "pids": [p for _, p in pids], "me": os.getpid(), "ctx": [c for c, _ in pids],
    "same": one == two, "banks": [b.id for b in two.banks],
    "converted": len(converted), "again": len(again), "problems": len(two.problems),
}))
""",
        project,
    )
    pids = found["pids"]
    assert isinstance(pids, list) and pids and found["me"] not in pids
    assert found["ctx"] == ["ctx"] * 4
    assert found["same"] is True and found["problems"] == 0
    assert found["banks"] == [*(f"extra{n}" for n in range(BANKS)), "mini"]
    assert found["again"] == 6 * 3 and found["converted"] == 0  # converted in the workers


BROKEN = """\
bank: broken
title: Broken
questions:
  - id: broken-choice
    type: choice
    prompt: Which?
    options:
      - text: this one
        correct: true
      - text: "that one, ![a plot](missing.png)"
    explanation: The first.
"""


def test_a_broken_bank_checked_by_a_worker_is_one_line(project: Path, tmp_path: Path) -> None:
    (project / "content" / "banks" / "broken.yml").write_text(BROKEN, encoding="utf-8")
    try:
        result = konum(project, "build", "-j", "2", "-d", str(tmp_path / "site"), process=True)
    finally:
        (project / "content" / "banks" / "broken.yml").unlink()
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    first = result.stderr.splitlines()[0]  # found by the check, in a worker
    assert "content/banks/broken.yml:10:" in first, result.stderr
    assert "[broken-choice] options[1].text:" in first and "missing.png" in first
    assert not (tmp_path / "site").exists()


def test_jobs_is_an_option_and_checked(project: Path, tmp_path: Path) -> None:
    config = project / "mkdocs.yml"
    written = config.read_text(encoding="utf-8")
    try:
        config.write_text(written.replace("seed: 42", "seed: 42\n      jobs: many"), "utf-8")
        result = konum(project, "build", "-d", str(tmp_path / "site"))
    finally:
        config.write_text(written, encoding="utf-8")
    assert result.returncode != 0 and "Traceback" not in result.stderr
    assert "option 'jobs' of konum" in result.stderr and "expected a whole number" in result.stderr
