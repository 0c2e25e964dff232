"""Commands import what they use: ``konum --help`` and ``konum check`` of one bank start
without the site build's machinery (MkDocs' build, the renderer, the exports, ruamel.yaml)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

#: Runs konum's command line with the arguments given, then prints the modules imported.
PROBE = """
import json, sys
from konum.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print(json.dumps(sorted(sys.modules)))
"""

#: What only a site build (or an export) needs.
BUILD_ONLY = (
    "konum.build",
    "konum.driver",
    "konum.publish",
    "konum.render",
    "konum.quiz",
    "konum.exports",
    "konum.record",
    "konum.translate",
    "genanki",
    "ruamel.yaml",
    "material",
    "mkdocs.commands",
    "mkdocs.config",
)
#: And what the check of a bank needs besides.
CHECK = ("konum.check", "konum.course", "markdown", "jinja2", "numpy", "yaml", "nh3")


def imported(cwd: Path, *args: str) -> set[str]:
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert proc.stdout.strip(), proc.stderr
    return set(json.loads(proc.stdout.strip().splitlines()[-1]))


def test_help_and_a_banks_check_import_what_they_use(tmp_path: Path) -> None:
    helped = imported(tmp_path, "--help")
    assert "konum.cli" in helped
    assert sorted(m for m in (*BUILD_ONLY, *CHECK) if m in helped) == []
    bank = REPO / "tests" / "fixtures" / "miniproject" / "content" / "banks" / "mini.yml"
    (tmp_path / "mini.yml").write_bytes(bank.read_bytes())
    checked = imported(tmp_path, "check", "mini.yml")
    assert "konum.check" in checked
    assert sorted(m for m in BUILD_ONLY if m in checked) == []
