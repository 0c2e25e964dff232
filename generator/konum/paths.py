"""Where konum's own files are (the templates, the front end and the interface's texts), and
how a path is shown to the reader."""

from __future__ import annotations

from pathlib import Path

_HERE = Path(__file__).resolve().parent
#: The Jinja templates, scripts, styles and messages: inside the installed package
#: (``konum/templates``), or beside the source folder in a checkout (``templates/``).
TEMPLATES_DIR = next(p for p in (_HERE / "templates", _HERE.parents[1] / "templates") if p.is_dir())


def shown(path: Path, root: Path) -> Path:
    """``path`` relative to ``root`` when inside it (as the reader names it), else as it is."""
    return path.relative_to(root) if path.is_relative_to(root) else path
