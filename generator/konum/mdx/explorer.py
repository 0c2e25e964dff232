"""The ``/// explorer | NAME`` block: an interactive figure in a lesson, over the core's own.

Syntax (pymdownx Blocks; every option is optional and sets the explorer's starting value)::

    /// explorer | t5-buckets
        num_buckets: 32
        max_distance: 128
    ///

The block renders ``templates/explorers/explorer.html.j2``: a container with
``data-explorer="NAME"`` and ``data-explorer-params`` (JSON: the starting ``values`` and the
``limits`` of every control), holding the core's static figure for those values (for
``rope-layouts``, the core's permutation as a table). Without JavaScript the reader sees that
figure; ``templates/assets/explorers/NAME.js`` replaces it with the live explorer, whose
arithmetic is a port of :mod:`konum.pe` (the browser tests compare the two).

Each explorer answers one question (see :data:`EXPLORERS`). Options are checked with the
computed generators' parameter specs (:func:`konum.computed.base.check_constraint`), so a bad
value reads "expected an even int in 2..64, found 7"; ``alt`` and ``caption`` replace the
fallback figure's text. Every text of an explorer, the fallback's included, comes from the
interface catalogue's section ``explorer`` (:mod:`konum.messages`) in the extension's
``language``.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as etree
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import yaml
from markdown import Markdown
from markupsafe import Markup
from pymdownx.blocks import BlocksExtension, BlocksProcessor
from pymdownx.blocks.block import Block, type_any

from konum import pe
from konum.computed.base import ParamSpec, check_constraint, param, specs
from konum.formatting import did_you_mean, format_number
from konum.model import Choices, Range

try:  # MkDocs prints a BuildError as one clean line; Zensical and plain Markdown need no base.
    from mkdocs.exceptions import BuildError as _Base
except ImportError:  # pragma: no cover - without MkDocs
    _Base = Exception  # type: ignore[misc,assignment]

__all__ = ["EXPLORERS", "Explorer", "ExplorerError", "explorer_assets", "render_explorer"]

Values = dict[str, Any]


class ExplorerError(_Base):
    """An explorer block that is malformed, names an unknown explorer or option, or gives an
    option a value outside its range; the message names the block and the option."""


@dataclass(frozen=True)
class Explorer:
    """One explorer: the question it answers, its options (the controls' starting values and
    limits), the rule they must satisfy together, and what is shown without JavaScript.

    ``check(values)`` returns why the values do not fit together, or ``None``. The fallback
    is ``figure(values)``, ``(figure name, figure parameters, alt key, alt fields)`` for
    :func:`konum.figures.render_svg` (the alt text is the catalogue's ``explorer.<alt key>``
    with the fields filled in), or, when ``figure`` is ``None``, the template's table of
    ``table(values)`` (rows of numbers from the core).
    """

    name: str
    question: str
    params: Mapping[str, ParamSpec]
    check: Callable[[Values], str | None]
    figure: Callable[[Values], tuple[str, dict[str, Any], str, dict[str, Any]]] | None = None
    table: Callable[[Values], list[tuple[int, ...]]] | None = None


def _below(name: str, value: int, limit_name: str, limit: int) -> str | None:
    if value < limit:
        return None
    return f"option {name!r}: expected a value below {limit_name} = {limit}, found {value}"


def _sinusoidal_check(v: Values) -> str | None:
    if abs(v["offset"]) >= v["n"]:
        return (
            f"option 'offset': expected an offset from -{v['n'] - 1} to {v['n'] - 1} "
            f"(|offset| < n), found {v['offset']}"
        )
    return _below("position", v["position"], "n", v["n"]) or _below(
        "column", v["column"], "d", v["d"]
    )


def _shift_check(v: Values) -> str | None:
    if v["position"] + v["offset"] < 0:
        return (
            "option 'offset': expected an offset to a position from 0 on "
            f"(offset >= -position = {-v['position']}), found {v['offset']}"
        )
    return _below("pair", v["pair"], "d/2", v["d"] // 2)


def _t5_check(v: Values) -> str | None:
    try:
        pe.t5_bucket(
            0,
            bidirectional=v["direction"] == "bidirectional",
            num_buckets=v["num_buckets"],
            max_distance=v["max_distance"],
        )
    except ValueError as exc:  # the core names the option and what it allows
        return str(exc)
    return None


def _alibi_check(v: Values) -> str | None:
    if v["head"] > v["num_heads"]:
        return (
            f"option 'head': expected a head from 1 to num_heads = {v['num_heads']}, "
            f"found {v['head']}"
        )
    return _below("query", v["query"], "n", v["n"])


def _pair_check(v: Values) -> str | None:
    return _below("pair", v["pair"], "d/2", v["d"] // 2)


def _layouts_table(v: Values) -> list[tuple[int, ...]]:
    """(interleaved dimension i, half-layout dimension perm[i], pair) for each i."""
    half = v["d"] // 2
    return [(i, int(j), int(j) % half) for i, j in enumerate(pe.rope_layout_permutation(v["d"]))]


_BASES = Choices((100.0, 1000.0, 10000.0, 100000.0, 500000.0))

#: The explorers, by block name.
EXPLORERS: dict[str, Explorer] = {
    explorer.name: explorer
    for explorer in (
        Explorer(
            "sinusoidal",
            "What does each cell of the sinusoidal table hold, and why does PE[p] · PE[p + o] "
            "depend on the offset o alone?",
            specs(
                param("n", "int", 32, Range(2, 64), "number of positions (rows)"),
                param("d", "int", 32, Range(2, 64, 2), "model dimension (columns)"),
                param("base", "float", 10000.0, _BASES, "the 10000 of the formula"),
                param("position", "int", 5, Range(0, 63), "the position p read out (< n)"),
                param("column", "int", 6, Range(0, 63), "the column j read out (< d)"),
                param("offset", "int", 3, Range(-63, 63), "the offset o of PE[p] · PE[p + o]"),
            ),
            _sinusoidal_check,
            figure=lambda v: (
                "pe_heatmap",
                {"n": v["n"], "d": v["d"], "base": v["base"]},
                "sin_alt",
                {"n": v["n"], "d": v["d"]},
            ),
        ),
        Explorer(
            "shift-rotation",
            "Why is moving by o positions a rotation, and why does RoPE's score depend on "
            "n - m only?",
            specs(
                param("d", "int", 8, Range(2, 128, 2), "model (or head) dimension"),
                param("pair", "int", 0, Range(0, 63), "the pair shown (< d/2)"),
                param("position", "int", 3, Range(0, 200), "the position p (the query's m)"),
                param("offset", "int", 2, Range(-50, 50), "the offset o (the key's n = p + o)"),
            ),
            _shift_check,
            figure=lambda v: (
                "rope_rotation",
                {
                    "m_values": (v["position"], v["position"] + v["offset"]),
                    "k": v["pair"],
                    "d": v["d"],
                },
                "shift_alt",
                {
                    "pair": v["pair"],
                    "p": v["position"],
                    "q": v["position"] + v["offset"],
                    "o": v["offset"],
                },
            ),
        ),
        Explorer(
            "rope-layouts",
            "How do RoPE's half and interleaved layouts pair a head's dimensions, and why do "
            "they give the same score once the weights are permuted?",
            specs(
                param("d", "int", 8, Range(4, 16, 2), "head dimension"),
                param("pair", "int", 1, Range(0, 7), "the pair highlighted (< d/2)"),
                param("m", "int", 5, Range(0, 100), "the query's position"),
                param("n", "int", 2, Range(0, 100), "the key's position"),
            ),
            _pair_check,
            table=_layouts_table,
        ),
        Explorer(
            "t5-buckets",
            "Which bucket does each relative distance fall into, where do the exact buckets "
            "end, and from which distance on is everything in the last bucket?",
            specs(
                param("num_buckets", "int", 32, Range(4, 128, 2), "total buckets"),
                param("max_distance", "int", 128, Range(4, 1024), "distance of the last bucket"),
                param(
                    "direction",
                    "str",
                    "bidirectional",
                    Choices(("bidirectional", "causal")),
                    "bidirectional (encoder) or causal (decoder)",
                ),
                param("relative", "int", -20, Range(-1024, 1024), "key - query read out"),
                param("tokens", "int", 24, Range(4, 48), "tokens in the query-by-key matrix"),
            ),
            _t5_check,
            figure=lambda v: (
                "t5_buckets",
                {
                    "num_buckets": v["num_buckets"],
                    "max_distance": v["max_distance"],
                    "span": max(16, v["max_distance"] + v["max_distance"] // 4),
                },
                "t5_alt",
                {"buckets": v["num_buckets"], "distance": v["max_distance"]},
            ),
        ),
        Explorer(
            "alibi",
            "What slope does each head get, for any head count, and what does the softmax do "
            "to a row as the slope grows?",
            specs(
                param("num_heads", "int", 8, Range(1, 64), "number of heads"),
                param("head", "int", 1, Range(1, 64), "the head shown, from 1 (<= num_heads)"),
                param("n", "int", 12, Range(2, 32), "sequence length"),
                param("query", "int", 11, Range(0, 31), "the query row of the softmax (< n)"),
            ),
            _alibi_check,
            figure=lambda v: (
                "alibi_matrices",
                {"n": v["n"], "heads": (v["head"],), "num_heads": v["num_heads"]},
                "alibi_alt",
                {"head": v["head"], "heads": v["num_heads"], "n": v["n"]},
            ),
        ),
        Explorer(
            "context-extension",
            "How long is each RoPE pair's wavelength under position interpolation, NTK-aware "
            "scaling and Llama 3, against the original context?",
            specs(
                param("d", "int", 128, Range(8, 256, 2), "head dimension"),
                param("base", "float", 10000.0, _BASES, "RoPE base (rope_theta)"),
                param("factor", "float", 4.0, Choices((2.0, 4.0, 8.0, 16.0, 32.0)), "factor"),
                param(
                    "original",
                    "int",
                    4096,
                    Choices((2048, 4096, 8192, 32768)),
                    "original context length",
                ),
                param("pair", "int", 48, Range(0, 127), "the pair read out (< d/2)"),
            ),
            _pair_check,
            figure=lambda v: (
                "rope_frequencies_scaled",
                {
                    "d": v["d"],
                    "base": v["base"],
                    "factor": v["factor"],
                    "original_max": v["original"],
                },
                "ctx_alt",
                {
                    "d": v["d"],
                    "base": format_number(v["base"]),
                    "factor": format_number(v["factor"]),
                    "original": v["original"],
                },
            ),
        ),
    )
}

#: Options every explorer takes besides its own: the fallback figure's text.
TEXT_OPTIONS = ("alt", "caption")


def _plain(spec: ParamSpec, value: Any) -> Any:
    if spec.kind == "int":
        return int(value)
    if spec.kind == "float":
        return float(value)
    return value


def _limits(spec: ParamSpec) -> dict[str, Any]:
    allowed = spec.allowed
    if isinstance(allowed, Choices):
        return {"choices": [_plain(spec, v) for v in allowed.values]}
    return {"min": allowed.low, "max": allowed.high, "step": allowed.step or 1}


def explorer_values(name: str, given: Mapping[str, Any]) -> Values:
    """The starting values of explorer ``name``: its defaults, updated with ``given``.

    Raises:
        ExplorerError: an unknown explorer or option, a value outside its spec, or values
            that do not fit together (``position`` beyond ``n``).
    """
    where = f"/// explorer | {name}"
    explorer = EXPLORERS.get(name)
    if explorer is None:
        raise ExplorerError(
            f"{where}: no such explorer{did_you_mean(name, EXPLORERS)} "
            f"(explorers: {', '.join(EXPLORERS)})"
        )
    values: Values = {}
    for key, spec in explorer.params.items():
        default = spec.default
        assert isinstance(default, Choices)
        values[key] = default.values[0]
    for key, value in given.items():
        given_spec = explorer.params.get(key)
        if given_spec is None:
            known = [*explorer.params, *TEXT_OPTIONS]
            raise ExplorerError(
                f"{where}: unknown option {key!r}{did_you_mean(key, known)} "
                f"(options: {', '.join(known)})"
            )
        problem = check_constraint(given_spec, Choices((value,)))
        if problem:
            raise ExplorerError(f"{where}: option {key!r}: {problem}")
        values[key] = _plain(given_spec, value)
    problem = explorer.check(values)
    if problem:
        raise ExplorerError(f"{where}: {problem}")
    return values


def render_explorer(
    name: str,
    given: Mapping[str, Any],
    alt: str | None = None,
    caption: str | None = None,
    language: str = "en",
) -> str:
    """The HTML of an explorer block: the container the JS mounts, with the fallback inside.

    Args:
        name: A key of :data:`EXPLORERS`.
        given: Options from the block (starting values); the others keep their defaults.
        alt: The fallback figure's text alternative (default: one made from the values).
        caption: The fallback figure's visible caption (default: none).
        language: The language of the fallback's texts (one of
            :data:`konum.messages.LANGUAGES`); the figure's own labels follow it too.

    Raises:
        ExplorerError: see :func:`explorer_values`.
    """
    from konum.figures import render_svg
    from konum.messages import message
    from konum.render import environment

    values = explorer_values(name, given)
    explorer = EXPLORERS[name]
    svg = table = None
    if explorer.figure is not None:
        figure_name, figure_params, alt_key, alt_fields = explorer.figure(values)
        alt = alt or message(language, f"explorer.{alt_key}", **alt_fields)
        svg = Markup(render_svg(figure_name, alt, caption, language=language, **figure_params))
    elif explorer.table is not None:
        table = explorer.table(values)
    data = {
        "values": values,
        "limits": {key: _limits(spec) for key, spec in explorer.params.items()},
    }
    template = environment(language).get_template("explorers/explorer.html.j2")
    html: str = template.render(name=name, data=data, svg=svg, table=table, caption=caption)
    return html.strip() + "\n"


# --- the block, and the lines pymdownx would silently leave as text ---------------------------

_HEADER = re.compile(r"^ {0,3}///\s*explorer\b(?P<rest>.*)$")
_WELL_FORMED = re.compile(r"^ *\| *(?P<name>\S+) *$")
_OPTION = re.compile(r"^ {4}(?P<key>[^\s:#][^:]*?)\s*:")


def _text_problem(key: str, value: object) -> str | None:
    if value is None or (isinstance(value, str) and value.strip()):
        return None
    return f"option {key!r}: expected text, found {value!r}"


def check_header(lines: list[str], index: int) -> None:
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
    explorer = EXPLORERS.get(name)
    if explorer is None:
        raise ExplorerError(
            f"line {number}: {where}: no such explorer{did_you_mean(name, EXPLORERS)} "
            f"(explorers: {', '.join(EXPLORERS)})"
        )
    known = [*explorer.params, *TEXT_OPTIONS]
    block: list[str] = []
    keys: dict[str, int] = {}  # option name -> its line number in the page
    for line in lines[index + 1 :]:
        if not line.startswith("    ") or not line.strip():
            break
        option = _OPTION.match(line)
        if option:
            key = option.group("key")
            keys[key] = number + 1 + len(block)
            if key not in known:
                raise ExplorerError(
                    f"line {keys[key]}: {where}: unknown option {key!r}"
                    f"{did_you_mean(key, known)} (options: {', '.join(known)})"
                )
        block.append(line[4:])
    try:
        given = yaml.safe_load("\n".join(block)) if block else {}
    except yaml.YAMLError as exc:
        # Only a MarkedYAMLError has a problem; a ReaderError (a control character) has not.
        problem = exc.problem if isinstance(exc, yaml.MarkedYAMLError) else str(exc)
        raise ExplorerError(
            f"line {number + 1}: {where}: the options are not YAML ({problem})"
        ) from None
    if not isinstance(given, dict):
        raise ExplorerError(
            f"line {number + 1}: {where}: expected options as 'name: value' lines, "
            f"found {block[0].strip()!r}"
        )
    for key in TEXT_OPTIONS:
        problem = _text_problem(key, given.pop(key, None))
        if problem:
            raise ExplorerError(f"line {keys[key]}: {where}: {problem}")
    try:
        explorer_values(name, given)
    except ExplorerError as exc:  # on the line of the first option the message names
        named = [
            (found.start(), key)
            for key in keys
            if (found := re.search(rf"(?<!\w){re.escape(key)}(?!\w)", str(exc)))
        ]
        at = keys[min(named)[1]] if named else number
        raise ExplorerError(f"line {at}: {exc}") from None


class ExplorerBlock(Block):  # type: ignore[misc]  # pymdownx ships no type hints
    """``/// explorer | NAME`` with the explorer's options (see :data:`EXPLORERS`)."""

    NAME = "explorer"
    ARGUMENT = True
    OPTIONS: ClassVar[dict[str, tuple[Any, Any]]] = dict.fromkeys(
        sorted({key for e in EXPLORERS.values() for key in e.params} | set(TEXT_OPTIONS)),
        (None, type_any),
    )

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
        self.html = render_explorer(
            name,
            given,
            self.options["alt"],
            self.options["caption"],
            language=self.config["language"],
        )
        return True

    def on_create(self, parent: etree.Element) -> etree.Element:
        return etree.SubElement(parent, "div", {"class": "konum-explorer-host"})

    def on_end(self, block: etree.Element) -> None:
        for child in list(block):  # the block has no Markdown content of its own
            block.remove(child)
        block.text = self.md.htmlStash.store(self.html)


class ExplorerExtension(BlocksExtension):  # type: ignore[misc]
    """Registers ``/// explorer``, its texts in ``language``."""

    def __init__(self, language: str = "en") -> None:
        super().__init__()
        self.language = language

    def extendMarkdownBlocks(self, md: Markdown, block_mgr: BlocksProcessor) -> None:
        block_mgr.register(ExplorerBlock, {"language": self.language})


# --- the files a page needs ---------------------------------------------------------------------

_USED = re.compile(r'data-explorer="([a-z0-9-]+)"')


def explorer_assets(html: str, asset: Callable[[str], str]) -> str:
    """The ``<style>`` and ``<script>`` elements for the explorers ``html`` shows.

    The shared ``explorers.css`` and ``explorers.js`` once, then each explorer's own script
    once, in the order of first appearance; ``""`` for a page without an explorer.

    Args:
        html: The page's HTML.
        asset: Reads a file under ``templates/assets/`` by relative name.
    """
    names = [n for n in dict.fromkeys(_USED.findall(html)) if n in EXPLORERS]
    if not names:
        return ""
    parts = [
        f'<style data-konum-asset="explorers">{asset("explorers/explorers.css")}</style>',
        f'<script data-konum-asset="explorers">{asset("explorers/explorers.js")}</script>',
    ]
    parts += [
        f'<script data-konum-asset="explorer-{n}">{asset(f"explorers/{n}.js")}</script>'
        for n in names
    ]
    return "\n".join(parts) + "\n"
