"""Where konum's own files are: the templates, the front end and the interface's texts."""

from __future__ import annotations

from pathlib import Path

_HERE = Path(__file__).resolve().parent
#: The Jinja templates, scripts, styles and messages: inside the installed package
#: (``konum/templates``), or beside the source folder in a checkout (``templates/``).
TEMPLATES_DIR = next(p for p in (_HERE / "templates", _HERE.parents[1] / "templates") if p.is_dir())
