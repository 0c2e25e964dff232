"""Exported cards under MathJax, as Anki renders them: no formula a bank can write becomes a
live link, a style, a class, an id or data on a card.

Anki's cards carry the LaTeX itself between ``\\( \\)`` and ``\\[ \\]``, and Anki's MathJax
(3.x) renders it, ``\\href`` and ``\\style`` included. konum rejects such commands in banks;
these tests render what the exports really hold with MathJax 3 itself (``tests/mathjax``,
installed from the npm registry once per session and run with Node.js) and read the MathML it
makes: first for every card of the two shipped courses, then for payloads written to get past
the check, each of which must be either refused at its file and line or harmless on the card.
MathJax's default ``skipHtmlTags`` (code, pre, ...) apply, as in Anki, which keeps them.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from konum.build import read_site_config
from konum.course import course_for
from konum.problems import BankError
from tests.helpers import build_cards, load_banks, make_concrete
from tests.nodetools import node_tool

REPO = Path(__file__).resolve().parent.parent
READER = Path(__file__).resolve().parent / "mathjax"

#: Attributes MathJax writes only when a formula asks for them (\href, \style, \class,
#: \cssId, \htmlData, \bbox, \mmlToken's attributes): on a card each would be live.
LIVE = re.compile(r"\s(href|style|class|id|data-(?!mjx-)[\w-]+|on\w+)=", re.IGNORECASE)


@pytest.fixture(scope="session")
def mathjax(tmp_path_factory: pytest.TempPathFactory):
    """``mathjax(fields)``: for each HTML field, the MathML of every formula MathJax finds."""
    folder = tmp_path_factory.mktemp("mathjax")
    node = node_tool(READER, ("render.js",), folder)

    def render(fields: list[str]) -> list[list[str]]:
        result = subprocess.run(
            [node, str(folder / "render.js")],
            input=json.dumps(fields),
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        assert result.returncode == 0, result.stderr
        return json.loads(result.stdout)

    return render


def _fields(cards) -> list[str]:
    return [text for card in cards for text in (card.front, card.back)]


@pytest.mark.external
@pytest.mark.slow
def test_the_detector_sees_a_live_link(mathjax) -> None:
    """The check below can fail: raw payloads do come out live."""
    found = mathjax([r"<p>\(\href{javascript:alert(1)}{x}\)</p>", r"\[\style{top:0}{y}\]"])
    assert all(LIVE.search(formula) for field in found for formula in field)
    assert sum(map(len, found)) == 2


@pytest.mark.external
@pytest.mark.slow
@pytest.mark.parametrize("config", ["mkdocs.yml", "examples/physics/mkdocs.yml"])
def test_every_card_of_the_courses_renders_in_mathjax_without_live_markup(
    mathjax, config: str
) -> None:
    settings = read_site_config(REPO / config)
    course = course_for(settings.options)
    cards = build_cards(course.banks, course.concretes(), math="anki")
    rendered = mathjax(_fields(cards))
    formulas = [formula for field in rendered for formula in field]
    assert formulas, "the course's cards should hold math"
    live = [f for f in formulas if LIVE.search(f)]
    assert not live, live[:3]
    broken = [f for f in formulas if "<merror" in f]
    assert not broken, broken[:3]  # a formula the site shows but Anki's MathJax cannot


#: Ways a bank text might carry MathJax's outward-reaching commands onto a card.
PAYLOADS = [
    r"$\href{javascript:alert(1)}{x}$",
    r"$$\href{javascript:alert(1)}{x}$$",
    r"$\style{position:fixed;top:0}{x}$",
    r"$\class{konum-feedback}{x}$",
    r"$\cssId{main}{x}$",
    r"$\htmlData{a=b}{x}$",
    r"$\require{html}\href{javascript:alert(1)}{x}$",
    r"$\bbox[background:url(https://example.org/t)]{x}$",
    r"$\mmlToken{mi}[href='javascript:alert(1)']{x}$",
    r"$\def\a{\hr}\a{x}$",
    r"$\newcommand{\a}{\style}\a{top:0}{x}$",
    r"$\texttip{x}{javascript:alert(1)}$",
    r"\\(\href{javascript:alert(1)}{x}\\)",
    r"\\[\style{position:fixed}{x}\\]",
    r"&#92;(\href{javascript:alert(1)}{x}&#92;)",
    r"&bsol;(\style{position:fixed}{x}&bsol;)",
    r"<span>\</span>(\href{javascript:alert(1)}{x}\)",
    r"`\(\href{javascript:alert(1)}{x}\)`",
    r"""```
\(\href{javascript:alert(1)}{x}\)
```""",
    r"$x$ and \\(\class{konum-buttons}{y}\\)",
]


@pytest.mark.external
@pytest.mark.slow
@pytest.mark.parametrize("payload", PAYLOADS)
def test_a_payload_is_refused_at_its_line_or_harmless_on_the_card(
    mathjax, tmp_path: Path, payload: str
) -> None:
    bank = tmp_path / "hostile.yml"
    body = json.dumps(payload)  # a YAML double-quoted scalar
    bank.write_text(
        "bank: hostile\ntitle: Hostile\nquestions:\n"
        "  - id: q1\n    type: numeric\n"
        f"    prompt: {body}\n    answer: 1\n    explanation: {body}\n",
        encoding="utf-8",
    )
    try:
        banks = load_banks(bank)
    except BankError as exc:
        assert any(p.line is not None and p.file.endswith("hostile.yml") for p in exc.problems), (
            exc.problems
        )
        return
    concretes = [make_concrete(q, 42, 1) for b in banks for q in b.questions]
    cards = build_cards(banks, concretes, math="anki")
    formulas = [f for field in mathjax(_fields(cards)) for f in field]
    live = [f for f in formulas if LIVE.search(f)]
    assert not live, (payload, live)
