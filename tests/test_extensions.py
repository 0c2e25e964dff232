"""konum's three Markdown extensions, each on its own, as pymdownx's are.

A site that writes its math with ``pymdownx.arithmatex`` (Material's documented MathJax setup)
uses ``konum.quiz`` alone: its ``$...$`` stays arithmatex's, its quizzes work, and a page with
no konum syntax comes out exactly as it does without konum. ``- konum:`` still means all
three.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from mkdocs.commands.build import build
from mkdocs.config import load_config

from tests.miniproject import make_project

MATH_PAGE = """\
# Angles

The angle is $\\theta = p / 10000^{2k/d}$, and on a line of its own:

$$
\\sin(\\theta)
$$

/// quiz | mini
///
"""

PLAIN_PAGE = """\
# Plain

Text with a [link](angles.md), a table and code:

| a | b |
|---|---|
| 1 | 2 |

```python
print("$x$ stays code")
```
"""


def _site(tmp_path: Path, name: str, extensions: str) -> Path:
    project = make_project(tmp_path / name)
    lessons = project / "content" / "lessons"
    (lessons / "quiz.md").unlink()
    (lessons / "angles.md").write_text(MATH_PAGE, encoding="utf-8")
    (lessons / "plain.md").write_text(PLAIN_PAGE, encoding="utf-8")
    (project / "content" / "index.md").write_text("# Home\n\nNo konum here.\n", encoding="utf-8")
    config = (project / "mkdocs.yml").read_text(encoding="utf-8")
    head = config.split("markdown_extensions:")[0]
    (project / "mkdocs.yml").write_text(head + "markdown_extensions:\n" + extensions)
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(project)  # relative options start from where MkDocs runs
        build(load_config("mkdocs.yml"))
    return project / "site"


ARITHMATEX = """\
  - pymdownx.arithmatex:
      generic: true
  - pymdownx.superfences
"""
QUIZ = """\
  - konum.quiz:
      banks: content/banks
      plugins: [pe]
"""


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    where = tmp_path_factory.mktemp("extensions")
    return {
        "quiz": _site(where, "quiz", QUIZ + ARITHMATEX),
        "none": _site(where, "none", ARITHMATEX),
        "all": _site(
            where,
            "all",
            "  - konum:\n      banks: content/banks\n      plugins: [pe]\n"
            "  - pymdownx.superfences\n",
        ),
    }


def _main(page: Path) -> str:
    text = page.read_text(encoding="utf-8")
    found = re.search(r"<article[^>]*>(.*)</article>", text, re.S)
    assert found is not None
    return found.group(1)


def test_arithmatex_keeps_its_math_beside_konum_quiz(sites: dict[str, Path]) -> None:
    page = _main(sites["quiz"] / "lessons" / "angles.html")
    assert '<span class="arithmatex">\\(\\theta = p / 10000^{2k/d}\\)</span>' in page
    assert '<div class="arithmatex">\\[\n\\sin(\\theta)\n\\]</div>' in page
    assert page.count('class="konum-quiz"') == 1
    # The page's own math is arithmatex's; konum's MathML is only inside the quiz.
    before_quiz = page.split('class="konum-quiz"')[0]
    assert "<math" not in before_quiz


def test_a_page_without_konum_syntax_is_unchanged(sites: dict[str, Path]) -> None:
    for page in ("index.html", "lessons/plain.html"):
        assert (sites["quiz"] / page).read_text() == (sites["none"] / page).read_text(), page


def test_konum_alone_turns_on_all_three(sites: dict[str, Path]) -> None:
    page = _main(sites["all"] / "lessons" / "angles.html")
    assert "arithmatex" not in page
    assert page.count('class="konum-quiz"') == 1
    assert 'alttext="\\sin(\\theta)" display="block"' in page.split('class="konum-quiz"')[0]
