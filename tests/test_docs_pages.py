"""The tool's documentation is committed Markdown that the code keeps current.

``content/plugin-api.md`` and the generated parts of ``content/authoring.md`` are what
``python -m tests.docs_pages`` writes from the docstrings and the course's plugin; the
tool's pages read the same on a code host as on the site (no Jinja shows on either).
"""

from __future__ import annotations

import re
import typing

import pytest
from markdown import Markdown

from konum.computed.base import Kind
from konum.types import TYPES
from konum.values import ValuesExtension
from tests import docs_pages
from tests.docs_pages import RAW, REPO

STALE = "out of date: run python -m tests.docs_pages and commit what it writes"
TOOL_PAGES = ("authoring.md", "own-site.md", "plugin-api.md")


def test_the_plugin_api_page_is_the_docstrings() -> None:
    assert docs_pages.API_PAGE.read_text(encoding="utf-8") == docs_pages.plugin_api(), STALE


def test_the_authoring_tables_are_the_course_s_generators_and_figures() -> None:
    assert docs_pages.AUTHORING.read_text(encoding="utf-8") == docs_pages.authoring(), STALE


@pytest.mark.parametrize("name", TOOL_PAGES)
def test_a_tool_page_shows_on_the_site_what_a_code_host_shows(name: str) -> None:
    text = (REPO / "content" / name).read_text(encoding="utf-8")
    assert text.startswith(RAW[0]) and text.endswith(RAW[1])
    inner = text[len(RAW[0]) : -len(RAW[1])]
    assert "{% raw %}" not in inner and "{% endraw %}" not in inner
    md = Markdown(extensions=[ValuesExtension()])
    rendered = md.preprocessors["konum_values"].run(text.split("\n"))
    expected = text.replace("{% raw %}", "").replace("{% endraw %}", "")
    assert "\n".join(rendered) == expected


def test_the_type_table_names_every_type() -> None:
    guide = docs_pages.AUTHORING.read_text(encoding="utf-8")
    (row,) = [line for line in guide.splitlines() if line.startswith("| `type` | yes |")]
    assert set(re.findall(r"\[`(\w+)`\]", row)) == set(TYPES)
    for kind in TYPES:  # each type has its section, which the row links to
        assert re.search(rf"^### `{kind}`: ", guide, re.MULTILINE), kind


def test_the_api_page_names_what_a_plugin_imports() -> None:
    page = docs_pages.API_PAGE.read_text(encoding="utf-8")
    for module, name in (("konum.computed", "param"), ("konum.computed", "BaseGenerator")):
        assert f"from {module} import {name}\n" in page
    kinds = ", ".join(f'"{kind}"' for kind in typing.get_args(Kind))
    assert f"Kind = Literal[{kinds}]" in page
