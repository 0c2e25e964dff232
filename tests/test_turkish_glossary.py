"""The Turkish edition speaks with one glossary: ``content/tr/terms.yml``.

Each entry names a concept (``en``), its one Turkish term (``tr``) and the variants no
Turkish text may use (``forbidden``, regular expressions matched case-insensitively; a
mapping ``{pattern, in}`` limits one to some files). The tests read what a reader reads as
Turkish prose, never code: fenced blocks, HTML comments and ``{{ }}``/``{% %}`` expressions
become ``X``; the ``///`` lines that open a block and the ``{ #id }`` attribute
lists are blanked; ``inline code`` becomes ``KOD``, ``$math$`` becomes ``MAT``, a link keeps its
text and loses its target, and a catalogue's ``{field}`` becomes ``X``. Each line keeps its
number, so a finding names ``file:line``.

Held to it: every Turkish page (``content/tr/**/*.md``), every interface catalogue
(``templates/messages/tr/*.yml`` and the course plugin's ``generator/konum_pe/messages/tr``)
and every bank translation (``content/tr/banks/*.yml``, each string read with its line). The
bank translations and the plugin's catalogue are other parts' files (issue 44): one that
still breaks the glossary is an expected failure that lists its lines, until it follows the
glossary. The glossary page defines every bold entry under the
name the file gives it.
"""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest
import yaml
from test_turkish_pages import _turkish_nav

REPO = Path(__file__).resolve().parent.parent
TURKISH = REPO / "content" / "tr"
TERMS = TURKISH / "terms.yml"
CATALOGUES = REPO / "templates" / "messages" / "tr"
#: The course plugin's Turkish catalogue: its explorers', figures' and generators' texts.
PLUGIN_CATALOGUES = REPO / "generator" / "konum_pe" / "messages" / "tr"

FENCE = re.compile(r"^( *)(`{3,}|~{3,})[^\n]*\n.*?^\1\2 *$", re.MULTILINE | re.DOTALL)
COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
EXPRESSION = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.DOTALL)
CODE = re.compile(r"(`+)(?!`).+?(?<!`)\1(?!`)", re.DOTALL)
MATH = re.compile(r"\$\$.+?\$\$|(?<![\\\w])\$(?!\s).+?(?<![\s\\])\$", re.DOTALL)
LINK_TARGET = re.compile(r"\]\([^)\s]*(?:\s+\"[^\"]*\")?\)")
BLOCK_HEADER = re.compile(r"^ {0,3}///.*$", re.MULTILINE)
ATTRIBUTES = re.compile(r"\{:? *[#.][^{}\n]*\}")
FIELD = re.compile(r"\{\w+(?:[^{}]*)\}")
BOLD_ENTRY = re.compile(r"^\*\*(.+?)\.\*\*$", re.MULTILINE)
GLOSS = re.compile(r"\(([^()]*)\)")


@dataclass(frozen=True)
class Rule:
    """One forbidden variant: its pattern, the files it applies to (all when empty), and the
    term it stands against."""

    pattern: re.Pattern[str]
    files: tuple[str, ...]
    term: str
    en: str
    allowed: tuple[re.Pattern[str], ...]

    def applies_to(self, path: str) -> bool:
        return not self.files or any(fnmatch.fnmatch(path, glob) for glob in self.files)


@cache
def _terms() -> list[dict[str, object]]:
    data = yaml.safe_load(TERMS.read_text(encoding="utf-8"))
    return list(data["terms"])


@cache
def _rules() -> list[Rule]:
    rules = []
    for entry in _terms():
        allowed = tuple(
            re.compile(p, re.IGNORECASE | re.MULTILINE)
            for p in entry.get("allowed", [])  # type: ignore[attr-defined]
        )
        for variant in entry.get("forbidden", []):  # type: ignore[attr-defined]
            pattern, files = (
                (variant, ()) if isinstance(variant, str) else (variant["pattern"], variant["in"])
            )
            rules.append(
                Rule(
                    re.compile(pattern, re.IGNORECASE | re.MULTILINE),
                    tuple(files),
                    str(entry["tr"]),
                    str(entry["en"]),
                    allowed,
                )
            )
    return rules


def _blank(match: re.Match[str], placeholder: str = "") -> str:
    """``placeholder`` in place of ``match``, with its line breaks kept."""
    return placeholder + "\n" * match.group(0).count("\n")


def prose(text: str) -> str:
    """The Turkish prose of Markdown ``text``, line for line (see the module docstring)."""
    text = FENCE.sub(_blank, text)
    text = COMMENT.sub(_blank, text)
    text = EXPRESSION.sub(lambda m: _blank(m, "X"), text)
    text = BLOCK_HEADER.sub(_blank, text)
    text = ATTRIBUTES.sub(_blank, text)
    text = CODE.sub(lambda m: _blank(m, "KOD"), text)
    text = MATH.sub(lambda m: _blank(m, "MAT"), text)
    text = LINK_TARGET.sub(lambda m: _blank(m, "]("), text)
    return text


def findings(path: str, text: str, first_line: int = 1) -> list[str]:
    """Each forbidden variant in prose ``text`` of the file at ``path`` (relative to the
    repository) as ``path:line: 'found' (use 'term': concept)``; ``first_line`` is the
    line of the file the text starts on."""
    found = []
    for rule in _rules():
        if not rule.applies_to(path):
            continue
        checked = text
        for allowed in rule.allowed:
            checked = allowed.sub(lambda m: _blank(m, " "), checked)
        for match in rule.pattern.finditer(checked):
            line = first_line + checked.count("\n", 0, match.start())
            found.append(f"{path}:{line}: '{match.group(0)}' (use '{rule.term}': {rule.en})")
    return found


def _page_findings(page: Path) -> list[str]:
    path = page.relative_to(REPO).as_posix()
    return findings(path, prose(page.read_text(encoding="utf-8")))


def _yaml_findings(file: Path, markdown: bool, fields: bool = True) -> list[str]:
    """The findings in every string value of a YAML file, each read from its line (a block
    scalar's text starts on the line after its indicator); ``markdown``: the values are
    Markdown, ``fields``: they hold ``{field}`` places."""
    path = file.relative_to(REPO).as_posix()
    found: list[str] = []

    def walk(node: yaml.Node) -> None:
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                if isinstance(key, yaml.ScalarNode) and key.value in {"id", "en", "bank"}:
                    continue
                walk(value)
        elif isinstance(node, yaml.SequenceNode):
            for item in node.value:
                walk(item)
        elif isinstance(node, yaml.ScalarNode) and node.tag.endswith(":str"):
            text = FIELD.sub("X", node.value) if fields else node.value
            first = node.start_mark.line + 1 + (1 if node.style in {"|", ">"} else 0)
            if node.style == ">":  # folded: the value's lines are not the file's
                text = text.replace("\n", " ")
            found.extend(findings(path, prose(text) if markdown else text, first))

    root = yaml.compose(file.read_text(encoding="utf-8"))
    if root is not None:
        walk(root)
    return found


PAGES = sorted(TURKISH.rglob("*.md"))
BANKS = sorted((TURKISH / "banks").glob("*.yml"))


def test_the_terms_file_is_well_formed() -> None:
    """Every entry has its concept and term, every pattern compiles and every file a
    variant is limited to exists."""
    entries = _terms()
    assert entries
    for entry in entries:
        assert isinstance(entry.get("en"), str) and isinstance(entry.get("tr"), str), entry
        assert set(entry) <= {"en", "tr", "forbidden", "allowed", "why"}, entry
    for rule in _rules():
        for glob in rule.files:
            assert list(REPO.glob(glob)), (rule.term, glob)
    concepts = [str(entry["en"]) for entry in entries]
    assert len(concepts) == len(set(concepts))


def test_the_checker_reads_prose_and_not_code() -> None:
    text = "İki `başvuru kodu` ve $başvuru$ yok.\n```\nbaşvuru\n```\nAma başvuru kodu var."
    assert findings("x.md", prose(text)) == [
        "x.md:5: 'başvuru' (use 'referans (referans kod, referans uygulama, referans çıktı)':"
        " reference (code, implementation, output))"
    ]
    assert findings("x.md", prose("[Sözlük](glossary.md) sözlükten")) == [
        "x.md:1: 'sözlükten' (use 'sözcük dağarcığı': vocabulary)"
    ]
    # A variant limited to some files applies only there.
    assert findings("content/tr/lessons/03-learned.md", "kırpmak")
    assert not findings("content/tr/lessons/04-relative.md", "kırpmak")


def _turkish_lower(text: str) -> str:
    return text.replace("I", "ı").replace("İ", "i").lower()


def test_the_glossary_page_defines_each_entry_under_its_term() -> None:
    """Each bold entry of the glossary page (its Turkish name, before the English one in
    parentheses) is a term of the file, or one of a term's comma-separated names."""
    terms = set()
    for entry in _terms():
        term = _turkish_lower(str(entry["tr"]))
        terms |= {term, *term.split(", ")}
    page = (TURKISH / "glossary.md").read_text(encoding="utf-8")
    entries = BOLD_ENTRY.findall(page)
    assert len(entries) > 40
    names = [_turkish_lower(MATH.sub("", e.split(" (")[0]).strip()) for e in entries]
    assert [name for name in names if name not in terms] == []


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(TURKISH).as_posix())
def test_a_turkish_page_uses_the_glossary(page: Path) -> None:
    assert _page_findings(page) == []


@pytest.mark.parametrize("file", sorted(CATALOGUES.glob("*.yml")), ids=lambda p: p.name)
def test_the_turkish_interface_uses_the_glossary(file: Path) -> None:
    assert _yaml_findings(file, markdown=False) == []


@pytest.mark.parametrize("file", sorted(PLUGIN_CATALOGUES.glob("*.yml")), ids=lambda p: p.name)
def test_the_plugins_turkish_texts_use_the_glossary(file: Path) -> None:
    assert _yaml_findings(file, markdown=True) == []


@pytest.mark.parametrize("bank", BANKS, ids=lambda p: p.name)
def test_a_bank_translation_uses_the_glossary(bank: Path) -> None:
    assert _yaml_findings(bank, markdown=True, fields=False) == []


def _glosses() -> set[str]:
    """The English names the glossary page gives its entries in parentheses, the lower-case
    ones (a gloss; "RoPE" and "T5" are names, written as they are)."""
    page = (TURKISH / "glossary.md").read_text(encoding="utf-8")
    names = set()
    for entry in BOLD_ENTRY.findall(page):
        last = GLOSS.findall(entry)
        if last:
            names |= {name.strip() for name in last[-1].split(", ") if name[:1].islower()}
    return names


def test_a_term_is_glossed_once() -> None:
    """A term's English name follows it in parentheses once, at its first use in reading
    order (the nav of mkdocs.tr.yml), as a textbook glosses a term; the glossary page
    gives them all."""
    glosses = _glosses()
    assert {"token", "attention", "learned table"} <= glosses
    first: dict[str, str] = {}
    repeated = []
    for page in _turkish_nav():
        if page == "glossary.md":
            continue
        text = prose((TURKISH / page).read_text(encoding="utf-8"))
        for match in GLOSS.finditer(text):
            name = " ".join(match.group(1).split())
            if name not in glosses:
                continue
            where = f"content/tr/{page}:{text.count(chr(10), 0, match.start()) + 1}"
            if name in first:
                repeated.append(f"{where}: ({name}), first at {first[name]}")
            else:
                first[name] = where
    assert repeated == []


def test_the_pages_were_read() -> None:
    """The lessons and pages are all there to be read, so a moved folder does not pass
    unseen."""
    names = {page.relative_to(TURKISH).as_posix() for page in PAGES}
    assert {"index.md", "glossary.md", "summary.md", "lessons/05-rope.md"} <= names
    assert len(BANKS) == 8
