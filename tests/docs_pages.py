"""The documentation that the code writes: the plugin API page and the authoring tables.

``content/plugin-api.md`` is konum's public plugin API, written from the docstrings of the
objects :data:`API` lists; ``content/authoring.md`` holds, between ``<!-- konum:NAME -->``
and ``<!-- konum:end -->``, the tables of the course's generators and figures, written from
the plugin ``pe``. Both are committed Markdown, so that they read the same on a code host as
on the site; ``tests/test_docs_pages.py`` fails when either is out of date, and

    python -m tests.docs_pages

writes them afresh. Docstrings are Google style with reST roles; :func:`markdown` turns
them into Markdown (roles as code, ``Args:``-style sections as lists, ``::`` blocks fenced).
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import re
import typing
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
API_PAGE = REPO / "content" / "plugin-api.md"
AUTHORING = REPO / "content" / "authoring.md"

#: The page's sections: a title, the module whose docstring opens it, and the objects shown,
#: each as ``(module to import it from, name)``; a method is ``Class.method``.
API: tuple[tuple[str, str, tuple[tuple[str, str], ...]], ...] = (
    ("Plugins", "konum.plugins", ()),
    (
        "Generators",
        "konum.computed.base",
        (
            ("konum.computed", "param"),
            ("konum.computed.base", "Kind"),
            ("konum.model", "Range"),
            ("konum.model", "Choices"),
            ("konum.model", "ParamConstraint"),
            ("konum.computed.base", "BOOL"),
            ("konum.computed", "specs"),
            ("konum.computed", "ParamSpec"),
            ("konum.computed", "BaseGenerator"),
            ("konum.computed", "BaseGenerator.build"),
            ("konum.computed", "BaseGenerator.bounds"),
            ("konum.computed", "BaseGenerator.make"),
            ("konum.computed", "BaseGenerator.generate"),
            ("konum.computed", "Generated"),
            ("konum.computed", "Distractor"),
            ("konum.computed", "GeneratorError"),
            ("konum.computed", "Generator"),
            ("konum.computed", "sig"),
            ("konum.computed", "num"),
            ("konum.computed", "tolerance_for"),
        ),
    ),
    (
        "Figures",
        "konum.figures.base",
        (
            ("konum.figures", "LessonFigure"),
            ("konum.figures", "LessonFigure.data"),
            ("konum.figures", "LessonFigure.draw"),
            ("konum.figures.base", "Label"),
            ("konum.figures", "FigureError"),
        ),
    ),
    (
        "Explorers",
        "konum.explorers",
        (("konum.explorers", "Explorer"), ("konum.explorers", "ExplorerError")),
    ),
    ("Values", "konum.values", (("konum.sandbox", "FunctionSet"),)),
)

_ROLE = re.compile(r":(?:func|class|mod|data|attr|meth|exc):`(~?)([\w.]+)`")
_SECTION = re.compile(r"^(Args|Attributes|Returns|Raises):\s*$")


def _roles(text: str) -> str:
    """reST roles (``~`` keeps the last name) and double backticks as Markdown code."""

    def role(match: re.Match[str]) -> str:
        name = match.group(2)
        return f"`{name.rsplit('.', 1)[-1] if match.group(1) else name}`"

    return _ROLE.sub(role, text).replace("``", "`")


def _literal(body: str) -> str:
    """The fence language of a ``::`` block: TOML, YAML or Python, by its first line."""
    first = body.split("\n", 1)[0]
    if "{{" in body or "{%" in body:
        return "markdown"
    if first.startswith("["):
        return "toml"
    if re.match(r"^[\w-]+:( |$)", first):
        return "yaml"
    return "python"


def markdown(doc: str) -> str:
    """A Google-style docstring as Markdown (see the module docstring)."""
    out: list[str] = []
    lines = doc.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        section = _SECTION.match(line)
        if section:
            out += [f"**{section.group(1)}**", ""]
            i += 1
            while i < len(lines) and (not lines[i].strip() or lines[i].startswith(" ")):
                item = lines[i].strip()
                deeper = len(lines[i]) - len(lines[i].lstrip()) > 4
                joined = deeper or (section.group(1) == "Returns" and out[-1].startswith("- "))
                if item and joined and out[-1].startswith("- "):
                    out[-1] += " " + _roles(item)
                elif item:
                    name, colon, rest = item.partition(": ")
                    out.append(f"- `{name}`: {_roles(rest)}" if colon else f"- {_roles(item)}")
                i += 1
            out.append("")
            continue
        if line.rstrip().endswith("::"):
            out.append(_roles(line.rstrip()[:-1]))
            i += 1
            block: list[str] = []
            while i < len(lines) and (not lines[i].strip() or lines[i].startswith("    ")):
                block.append(lines[i])
                i += 1
            body = inspect.cleandoc("\n".join(block))
            out += ["", f"```{_literal(body)}", body, "```", ""]
            continue
        out.append(_roles(re.sub(r"^(\s*)\* ", r"\1- ", line)))
        i += 1
    return re.sub(r"\n{3,}", "\n\n", "\n".join(out)).strip() + "\n"


def _annotation(value: object) -> str:
    text = value if isinstance(value, str) else inspect.formatannotation(value)
    text = re.sub(r"\bkonum\.[\w.]*\.(\w+)", r"\1", text)
    return text.replace("typing.", "").replace("collections.abc.", "")


def signature(obj: object, name: str) -> str:
    """``name(param: type = default, ...) -> type``, the types as the source writes them."""
    if getattr(obj, "_is_protocol", False):  # its attributes and methods, as it declares them
        members = [
            f"    {key}: {_annotation(v)}" for key, v in vars(obj)["__annotations__"].items()
        ]
        members += [
            f"    def {signature(f, key)}: ..."
            for key, f in vars(obj).items()
            if inspect.isfunction(f) and not key.startswith("_")
        ]
        return "\n".join([f"class {name}(Protocol):", *members])
    own_init = inspect.isclass(obj) and "__init__" in vars(obj)
    if inspect.isclass(obj) and not (dataclasses.is_dataclass(obj) or own_init):
        bases = [b.__name__ for b in obj.__bases__ if b is not object]
        return f"class {name}({', '.join(bases)})" if bases else f"class {name}"
    function = obj.__init__ if inspect.isclass(obj) else obj  # type: ignore[misc]
    found = inspect.signature(function)  # type: ignore[arg-type]
    parts = []
    for parameter in found.parameters.values():
        if parameter.name == "self":
            continue
        text = ("*" if parameter.kind is parameter.VAR_POSITIONAL else "") + parameter.name
        if parameter.annotation is not parameter.empty:
            text += f": {_annotation(parameter.annotation)}"
        if parameter.default is not parameter.empty:
            text += f" = {parameter.default!r}"
        parts.append(text)
    shown = f"{name}({', '.join(parts)})"
    if not inspect.isclass(obj) and found.return_annotation is not found.empty:
        shown += f" -> {_annotation(found.return_annotation)}"
    return shown


def _constant(module: str, name: str) -> str:
    """A module-level name with no docstring of its own: its value and its ``#:`` comment."""
    value = getattr(importlib.import_module(module), name)
    if typing.get_origin(value) is typing.Literal:
        shown = "Literal[" + ", ".join(f'"{v}"' for v in typing.get_args(value)) + "]"
    else:
        shown = _annotation(value) if typing.get_origin(value) else repr(value)
    source = Path(inspect.getfile(importlib.import_module(module))).read_text(encoding="utf-8")
    comment = re.search(rf"((?:^#:.*\n)*)^{re.escape(name)}\b", source, re.MULTILINE)
    assert comment is not None, f"{module}.{name} is not defined at the top of {module}"
    doc = " ".join(line[2:].strip() for line in comment.group(1).splitlines())
    code = f"```python\nfrom {module} import {name}\n\n{name} = {shown}\n```\n\n"
    return f"### `{name}`\n\n{code}" + (markdown(doc) if doc else "")


def entry(module: str, name: str) -> str:
    """One object's part of the page: its signature, where it is imported from, its doc."""
    obj: object = importlib.import_module(module)
    for part in name.split("."):
        obj = getattr(obj, part)
    generic = typing.get_origin(obj) is not None  # Callable[..., str] is a class on 3.10
    if generic or not (inspect.isclass(obj) or inspect.isfunction(obj)):
        return _constant(module, name)
    shown = signature(obj, name)
    head = (
        f"### `{name}`\n\n```python\nfrom {module} import {name.split('.')[0]}\n\n{shown}\n```\n\n"
    )
    doc = inspect.getdoc(obj) or ""
    body = markdown(doc)
    if dataclasses.is_dataclass(obj) and "Attributes:" not in doc:
        fields = [f"- `{f.name}: {_annotation(f.type)}`" for f in dataclasses.fields(obj)]
        body += "\n**Fields**\n\n" + "\n".join(fields) + "\n"
    return head + body


HEADER = """\
# Plugin API

What a subject's own Python adds to konum: generators for computed questions, figures,
explorers, page values and texts. A *plugin* is a `.py` file beside `mkdocs.yml` or an
installed package, named in the `plugins` option of the konum extension (see [Writing
questions](authoring.md#generators-of-your-own-in-python), which walks through a generator,
and `examples/physics/generators/projectile.py` in konum's repository, a whole plugin file).
Everything a plugin imports is below; the rest of konum may change between versions.

This page is written from konum's docstrings by `python -m tests.docs_pages`, and a test
fails when it is out of date.
"""
#: Around a page that shows konum's ``{{ }}`` syntax as it is written: the site's values
#: pass (:mod:`konum.values`) leaves what lies between as it is, and a code host shows no
#: trace of either line (HTML comments).
RAW = (
    "<!-- {% raw %} This page shows konum's {{ }} syntax as it is written. -->\n",
    "<!-- {% endraw %} -->\n",
)


def plugin_api() -> str:
    """The text of ``content/plugin-api.md``."""
    parts = [HEADER]
    for title, module, names in API:
        doc = inspect.getdoc(importlib.import_module(module)) or ""
        parts.append(f"## {title}\n\n{markdown(doc)}")
        parts += [entry(where, name) for where, name in names]
    return RAW[0] + "\n".join(parts) + RAW[1]


def _pe() -> object:
    from konum.plugins import load_plugins

    return load_plugins(("pe",), REPO)


def generators_table() -> str:
    """The course's generators, each with its parameters (``generator_catalogue``)."""
    from konum.values import generator_catalogue

    out = []
    for g in generator_catalogue(_pe()):  # type: ignore[arg-type]
        out += [
            f"#### `{g['name']}`",
            "",
            f"{g['title']}. Answers are rounded to {g['decimals']} decimals unless the "
            "question says otherwise.",
            "",
            "| parameter | what it is | default | allowed |",
            "|---|---|---|---|",
            *(
                f"| `{p['name']}` | {p['doc']} | `{p['default']}` | `{p['allowed']}` |"
                for p in g["params"]
            ),
            "",
        ]
    return "\n".join(out)


def figures_list() -> str:
    """The course's figures with their parameters (``figure_catalogue``)."""
    from konum.values import figure_catalogue

    def value(v: object) -> str:
        if isinstance(v, (list, tuple)):
            return "[" + ", ".join(value(x) for x in v) + "]"
        return f"{v:g}" if isinstance(v, float) else str(v)

    out = []
    for name, params in figure_catalogue(_pe()).items():  # type: ignore[arg-type]
        shown = ", ".join(
            f"`{p}` ({doc[:1].lower()}{doc[1:].rstrip('.')}, default `{value(default)}`)"
            for p, (default, doc) in params.items()
        )
        out.append(f"- `{name}`: {shown}")
    return "\n".join(out) + "\n"


#: The parts of ``content/authoring.md`` written from the code, by their marker's name.
AUTHORING_PARTS = {"figures": figures_list, "generators": generators_table}


def authoring() -> str:
    """``content/authoring.md`` with its generated parts written afresh."""
    text = AUTHORING.read_text(encoding="utf-8")
    for name, write in AUTHORING_PARTS.items():
        start, end = f"<!-- konum:{name} -->\n", "<!-- konum:end -->\n"
        assert text.count(start) == 1, f"authoring.md needs one {start.strip()}"
        before, rest = text.split(start)
        _old, after = rest.split(end, 1)
        text = f"{before}{start}\n{write()}\n{end}{after}"
    return text


def main() -> None:
    """Write both pages afresh."""
    API_PAGE.write_text(plugin_api(), encoding="utf-8")
    AUTHORING.write_text(authoring(), encoding="utf-8")
    print(f"wrote {API_PAGE.relative_to(REPO)} and {AUTHORING.relative_to(REPO)}")


if __name__ == "__main__":
    main()
