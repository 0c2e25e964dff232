"""The interface's words in each language: one catalogue per language, for templates and scripts.

konum's own texts are ``templates/messages/<language>/<section>.yml`` (``quiz``, ``study``,
...), a plugin's are in its own ``MESSAGES`` folder of the same shape
(:mod:`konum.plugins`): ``name: text`` entries, known by the key ``section.name``. The
languages are the folders there (:data:`LANGUAGES`), named by their CLDR codes (``de``,
``pt``, ``zh``). A text may name fields in braces (``{total}``), filled in by the code. A
text that counts (the field ``n``) and reads differently by the count is a mapping of CLDR
plural categories (``zero``, ``one``, ``two``, ``few``, ``many``, ``other``) to texts::

    questions: {one: "{n} pytanie", few: "{n} pytania", many: "{n} pytań", other: "{n} pytania"}

``other`` is required; a category the language's numbers fall into but the text leaves out
reads as ``other``; the rules (which category 2, 5 or 22 takes) are CLDR's, through Babel
here and ``Intl.PluralRules`` in the page's scripts. A plugin's text missing from a
language is its English one. Templates call :func:`message` (as ``t``); the page's scripts
get the sections they use as JSON (:func:`page_messages`) and fill fields the same way.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType

import yaml
from babel import Locale

from konum.errors import ConfigError
from konum.paths import TEMPLATES_DIR

#: konum's own texts.
OWN = TEMPLATES_DIR / "messages"
#: The languages konum's interface is written in (its catalogue folders); the first is the
#: default.
LANGUAGES = ("en", *sorted(p.name for p in OWN.iterdir() if p.is_dir() and p.name != "en"))
#: A catalogue's text: one for every count, or one per CLDR plural category.
Text = str | Mapping[str, str]


@lru_cache(maxsize=64)
def _locale(language: str) -> Locale:
    return Locale.parse(language)


def plural_categories(language: str) -> frozenset[str]:
    """The CLDR plural categories of ``language`` (``other`` always among them)."""
    return frozenset(_locale(language).plural_form.tags) | {"other"}


def plural_category(language: str, n: float) -> str:
    """The CLDR plural category of the count ``n`` in ``language`` (``few`` for 2 in ``pl``)."""
    return str(_locale(language).plural_form(n))


def _text(language: str, path: Path, name: str, value: object) -> Text:
    if not isinstance(value, dict):
        return str(value)
    forms = {str(k): str(v) for k, v in value.items()}
    wrong = sorted(set(forms) - plural_categories(language))
    if wrong or "other" not in forms:
        raise ConfigError(
            f"{path}: {name}: expected plural forms among "
            f"{', '.join(sorted(plural_categories(language)))} with 'other', found "
            f"{', '.join(sorted(forms))}"
        )
    return MappingProxyType(forms)


@lru_cache(maxsize=64)
def catalogue(language: str, folders: tuple[Path, ...] = ()) -> Mapping[str, Text]:
    """The texts of ``language`` by ``section.name`` key: konum's own, then those of each of
    ``folders`` (plugins' message folders; a later one's key replaces an earlier one's, and
    a folder without ``language`` gives its English).

    Raises:
        KeyError: ``language`` is not one of :data:`LANGUAGES`.
        ConfigError: a text's plural forms are not the language's CLDR categories.
    """
    if language not in LANGUAGES:
        raise KeyError(language)
    files = []
    for i, folder in enumerate((OWN, *folders)):
        # konum's own catalogues are complete (a test); a plugin's English fills its gaps.
        for j, lang in enumerate([language] if i == 0 else dict.fromkeys(("en", language))):
            files += [(path.stem, i, j, lang, path) for path in (folder / lang).glob("*.yml")]
    texts: dict[str, Text] = {}
    for stem, _, _, lang, path in sorted(files):  # by section, konum's first, English first
        section = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        texts.update({f"{stem}.{k}": _text(lang, path, k, v) for k, v in section.items()})
    return MappingProxyType(texts)


def fill(text: Text, language: str, **fields: object) -> str:
    """A catalogue text with ``fields`` filled in; a text with plural forms gives the form
    of ``language``'s CLDR category for the field ``n`` (``other`` without one)."""
    if not isinstance(text, str):
        n = fields.get("n")
        category = plural_category(language, n) if isinstance(n, (int, float)) else "other"
        text = text.get(category, text["other"])
    return text.format(**fields) if fields else text


def message(language: str, key: str, **fields: object) -> str:
    """konum's own text ``key`` in ``language`` with ``fields`` filled in (see :func:`fill`).

    Raises:
        KeyError: an unknown language or key.
    """
    return fill(catalogue(language)[key], language, **fields)


#: The quiz texts only the templates write (at build time, into the markup and the parts
#: shown later), which no script reads: a page does not carry them.
BUILD_ONLY = frozenset(
    f"quiz.{name}"
    for name in """answer explanation hint_title worked_solution select_all choices choose
    order_label blank_label blank_pattern your_answer your_answer_decimals output_label
    output_prints output_solution""".split()  # noqa: SIM905
)


def page_messages(
    language: str,
    sections: Iterable[str],
    folders: tuple[Path, ...] = (),
    leave_out: tuple[str, ...] = (),
) -> dict[str, Text]:
    """The texts of ``sections`` (``quiz``, ``study``, ...) for a page's scripts, unfilled
    (plural forms as an object), but for :data:`BUILD_ONLY` and those whose full key
    starts with one of ``leave_out`` (``explorer.sin_``)."""
    prefixes = tuple(f"{section}." for section in sections)
    texts = catalogue(language, folders)
    return {
        key: text if isinstance(text, str) else dict(text)
        for key, text in texts.items()
        if key.startswith(prefixes)
        and key not in BUILD_ONLY
        and not (leave_out and key.startswith(leave_out))
    }
