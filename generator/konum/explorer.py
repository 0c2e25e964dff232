"""The ``/// explorer | NAME`` block (part of ``konum.quiz``): a plugin's interactive figure.

Syntax (pymdownx Blocks; every option is optional and sets the explorer's starting value)::

    /// explorer | orbits
        planets: 3
        eccentricity: 0.2
    ///

The explorers come from the site's plugins (:class:`konum.explorers.Explorer`). The block
renders ``templates/explorers/explorer.html.j2``: a container with ``data-explorer="NAME"``
and ``data-explorer-params`` (JSON: the starting ``values`` and the ``limits`` of every
control), holding the plugin's static figure for those values (or a table). Without
JavaScript the reader sees that; the explorer's script (after konum's shared
``explorers.js``) replaces it with the live explorer.

Options are checked with the parameter specs of generators
(:func:`konum.computed.base.check_constraint`), so a bad value reads "expected an even int in
2..64, found 7"; ``alt`` and ``caption`` replace the fallback figure's text. Every text of an
explorer, the fallback's included, comes from the ``explorer`` section of the plugin's
messages in the extension's ``language``.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as etree
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from pymdownx.blocks.block import Block, type_any

from konum.blocks import block_options, check_closed
from konum.explorers import (
    TEXT_OPTIONS,
    Explorer,
    ExplorerError,
    explorer_values,
    limits,
    plugin_call,
)
from konum.formatting import did_you_mean, localize_numbers
from konum.messages import catalogue, fill
from konum.model import FigureRef
from konum.plugins import Plugins
from konum.render import asset, environment, figure_html

__all__ = ["ExplorerBlock", "check_header", "explorer_assets", "render_explorer", "unshown_texts"]


def render_explorer(
    plugins: Plugins,
    name: str,
    given: Mapping[str, Any],
    alt: str | None = None,
    caption: str | None = None,
    language: str = "en",
) -> str:
    """The HTML of an explorer block: the container the JS mounts, with the fallback inside.

    Args:
        plugins: The site's plugins, whose explorer ``name`` is.
        given: Options from the block (starting values); the others keep their defaults.
        alt: The fallback figure's text alternative (default: one made from the values).
        caption: The fallback figure's visible caption (default: none).
        language: The language of the fallback's texts (one of
            :data:`konum.messages.LANGUAGES`); the figure's own labels follow it too.

    Raises:
        ExplorerError: see :func:`konum.explorers.explorer_values`.
    """
    values = explorer_values(plugins.explorers, name, given)
    explorer = plugins.explorers[name]
    texts = catalogue(language, plugins.messages)

    def say(key: str, **fields: object) -> str:
        return fill(texts[f"explorer.{key}"], language, **fields)

    svg = table = None
    if explorer.figure is not None:
        found = plugin_call(name, explorer.figure, values)
        figure_name, figure_params, alt_key, alt_fields = found
        alt = alt or localize_numbers(say(alt_key, **alt_fields), language)
        svg = figure_html(FigureRef(figure_name, alt, caption, figure_params), plugins, language)
    elif explorer.table is not None:
        table_caption, headers, rows = plugin_call(name, explorer.table, values, say)
        table = {"caption": caption or table_caption, "headers": headers, "rows": rows}
    data = {
        "values": values,
        "limits": {key: limits(spec) for key, spec in explorer.params.items()},
    }
    template = environment(language).get_template("explorers/explorer.html.j2")
    html: str = template.render(name=name, data=data, svg=svg, table=table, caption=caption)
    return html.strip() + "\n"


# --- the block, and the lines pymdownx would silently leave as text ---------------------------

_HEADER = re.compile(r"^ {0,3}///\s*explorer\b(?P<rest>.*)$")
_WELL_FORMED = re.compile(r"^ *\| *(?P<name>\S+) *$")


def _text_problem(key: str, value: object) -> str | None:
    if value is None or (isinstance(value, str) and value.strip()):
        return None
    return f"option {key!r}: expected text, found {value!r}"


def check_header(
    explorers_of: Callable[[], Mapping[str, Explorer]], lines: list[str], index: int
) -> None:
    """Check the explorer block opening at ``lines[index]`` and its options.

    pymdownx leaves a block with a malformed header or an unknown option as plain text, and
    knows no line numbers; this names the line of what is wrong. The options are the lines
    indented by four spaces after the header, read as YAML as pymdownx reads them.

    Raises:
        ExplorerError: a header without ``| NAME``, an unknown explorer or option, options
            that are not YAML, or a value outside its range (see :func:`explorer_values`).
    """
    number = index + 1
    header = _HEADER.match(lines[index])
    if header is None:
        return
    shape = _WELL_FORMED.match(header.group("rest"))
    if shape is None:
        raise ExplorerError(
            f"line {number}: {lines[index].strip()!r} is not an explorer block; write "
            "'/// explorer | NAME' (a bar before the name) and end it with '///'"
        )
    name = shape.group("name")
    where = f"/// explorer | {name}"
    explorers = explorers_of()  # the site's plugins, loaded where a page shows an explorer
    explorer = explorers.get(name)
    if explorer is None:
        known_names = ", ".join(explorers) or "none: the site names no plugin with explorers"
        raise ExplorerError(
            f"line {number}: {where}: no such explorer{did_you_mean(name, explorers)} "
            f"(explorers: {known_names})"
        )
    known = [*explorer.params, *TEXT_OPTIONS]
    given, keys = block_options(lines, index, where, known, ExplorerError)
    check_closed(lines, index, where, ExplorerError)
    for key in TEXT_OPTIONS:
        problem = _text_problem(key, given.pop(key, None))
        if problem:
            raise ExplorerError(f"line {keys[key]}: {where}: {problem}")
    try:
        explorer_values(explorers, name, given)
    except ExplorerError as exc:  # on the line of the first option the message names
        named = [
            (found.start(), key)
            for key in keys
            if (found := re.search(rf"(?<!\w){re.escape(key)}(?!\w)", str(exc)))
        ]
        at = keys[min(named)[1]] if named else number
        raise ExplorerError(f"line {at}: {exc}") from None


class ExplorerBlock(Block):  # type: ignore[misc]  # pymdownx ships no type hints
    """``/// explorer | NAME`` with the explorer's options. pymdownx leaves a block with an
    option it does not know as text, so a block takes the options of the site's explorers."""

    NAME = "explorer"
    ARGUMENT = True
    OPTIONS: ClassVar[dict[str, tuple[Any, Any]]] = dict.fromkeys(TEXT_OPTIONS, (None, type_any))

    def on_init(self) -> None:
        explorers = self.config["extension"].plugins().explorers
        for key in {key for e in explorers.values() for key in e.params}:
            self.option_spec.setdefault(key, (None, type_any))

    def on_validate(self, parent: etree.Element) -> bool:
        # The header and the options were checked, with their lines, by check_header; a
        # block it did not see (inside a list, say) is checked here, without a line.
        name = str(self.argument or "").strip()
        given = {
            key: value
            for key, value in self.options.items()
            if value is not None and key not in (*TEXT_OPTIONS, "attrs")
        }
        for key in TEXT_OPTIONS:
            problem = _text_problem(key, self.options[key])
            if problem:
                raise ExplorerError(f"/// explorer | {name}: {problem}")
        extension = self.config["extension"]
        self.html = render_explorer(
            extension.plugins(),
            name,
            given,
            self.options["alt"],
            self.options["caption"],
            language=extension.options.language,
        )
        return True

    def on_create(self, parent: etree.Element) -> etree.Element:
        return etree.SubElement(parent, "div", {"class": "konum-explorer-host"})

    def on_end(self, block: etree.Element) -> None:
        for child in list(block):  # the block has no Markdown content of its own
            block.remove(child)
        block.text = self.md.htmlStash.store(self.html)


# --- the files a page needs ---------------------------------------------------------------------

_USED = re.compile(r'data-explorer="([a-z0-9-]+)"')


def unshown_texts(explorers: Mapping[str, Explorer], html: str) -> tuple[str, ...]:
    """The starts of the interface-text keys (``explorer.sin_``) of the explorers that
    ``html`` does not show: its page need not carry them."""
    shown = set(_USED.findall(html))
    return tuple(
        f"explorer.{explorer.texts}"
        for name, explorer in explorers.items()
        if explorer.texts and name not in shown
    )


def explorer_assets(explorers: Mapping[str, Explorer], html: str) -> str:
    """The ``<style>`` and ``<script>`` elements for the explorers ``html`` shows.

    The shared ``explorers.css`` and ``explorers.js`` once, then each explorer's own script
    once, in the order of first appearance; ``""`` for a page without an explorer.
    """
    names = [n for n in dict.fromkeys(_USED.findall(html)) if n in explorers]
    if not names:
        return ""
    parts = [
        f'<style data-konum-asset="explorers">{asset("explorers/explorers.css")}</style>',
        f'<script data-konum-asset="explorers">{asset("explorers/explorers.js")}</script>',
    ]
    parts += [
        f'<script data-konum-asset="explorer-{n}">{asset(explorers[n].script)}</script>'
        for n in names
    ]
    return "\n".join(parts) + "\n"
