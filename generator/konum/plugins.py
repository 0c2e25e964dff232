"""Plugins: what a subject's own package adds to konum, found by name.

A plugin gives any of these, each optional:

* ``GENERATORS``: computed-question generators (:class:`konum.computed.Generator`), a list;
* ``FIGURES``: figures a page or a question may show (:class:`konum.figures.LessonFigure`);
* ``EXPLORERS``: interactive figures for ``/// explorer`` blocks
  (:class:`konum.explorers.Explorer`);
* ``VALUES``: names a page's ``{{ }}`` expressions see (functions and numbers), a mapping;
* ``MESSAGES``: a folder of ``<language>/<section>.yml`` texts (the plugin's own words,
  read with :func:`konum.messages.catalogue`);
* ``TYPES``: question types, a list of :class:`konum.types.Question` subclasses, each with
  its ``TEMPLATES`` folder (``quiz/<type>.html.j2``, and ``exam/<type>.html.j2`` for a
  printed exam's answer space) and its front-end part ``SCRIPT`` (a ``.js`` file calling
  ``konumQuiz.define("<type>", {...})``); :func:`konum.types.site_types` adds them to the
  built-in types for the site that names the plugin.

A site names its plugins in the extension's ``plugins`` option (``generators`` is its older
name), each entry one of:

* the name of an installed package's entry point in the groups :data:`GROUPS`
  (``konum.generators``, ``konum.figures``, ``konum.explorers``, ``konum.values``,
  ``konum.messages``, ``konum.types``); each names a module holding the list (or the list itself)::

      [project.entry-points."konum.generators"]
      chemistry = "konum_chemistry"

* a module name, imported with the folder of ``mkdocs.yml`` on ``sys.path``;
* a ``.py`` file (relative to ``mkdocs.yml``), imported afresh when it changes.

A module names its parts as module-level attributes (``GENERATORS = [...]``). Installed
plugins are used only where a site names them, so a course installed beside konum (this
repository's own is one) stays out of every other site.

:func:`load_plugins` returns the same :class:`Plugins` object while no listed file changes;
nothing here is global: every stage is handed the object it uses.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import importlib.util
import re
import sys
import traceback
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import metadata
from pathlib import Path
from types import ModuleType
from typing import Any

from konum import limits, paths
from konum.computed.base import Generator, ParamSpec
from konum.errors import ConfigError
from konum.explorers import Explorer
from konum.figures.base import FigureError, LessonFigure
from konum.formatting import did_you_mean

#: The parts a plugin may give: the module attribute and the entry-point group of each.
GROUPS = {
    "generators": ("GENERATORS", "konum.generators"),
    "figures": ("FIGURES", "konum.figures"),
    "explorers": ("EXPLORERS", "konum.explorers"),
    "values": ("VALUES", "konum.values"),
    "messages": ("MESSAGES", "konum.messages"),
    "types": ("TYPES", "konum.types"),
}
#: A generator's name, as banks write it.
NAME = re.compile(r"[a-z][a-z0-9_]*")


class PluginError(ConfigError):
    """A plugin that does not import, or gives something konum cannot use."""


#: The older name, kept for the generator modules written against it.
GeneratorLoadError = PluginError


class UnknownGeneratorError(KeyError):
    """A bank names a generator that does not exist."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0])


@dataclass(frozen=True, eq=False)
class Plugins:
    """What a site's plugins give, merged: every name once.

    ``origins`` says where each generator, figure, explorer and question type came from (a
    module, a file or an entry point); ``messages`` are the plugins' text folders, in the
    order named; ``types`` the question types by the name banks write (checked against the
    built-in ones by :func:`konum.types.site_types`).
    Compared by identity: :func:`load_plugins` gives the same object for the same entries.
    """

    generators: Mapping[str, Generator] = field(default_factory=dict)
    figures: Mapping[str, LessonFigure] = field(default_factory=dict)
    explorers: Mapping[str, Explorer] = field(default_factory=dict)
    values: Mapping[str, object] = field(default_factory=dict)
    messages: tuple[Path, ...] = ()
    origins: Mapping[str, str] = field(default_factory=dict)
    #: The plugins' own files and package folders (an output must never overwrite them).
    sources: tuple[Path, ...] = ()
    types: Mapping[str, type] = field(default_factory=dict)

    def origin(self, name: str) -> str:
        """Where the generator, figure or explorer ``name`` came from."""
        return self.origins[name]

    def generator(self, name: str) -> Generator:
        """The generator ``name``.

        Raises:
            UnknownGeneratorError: none of that name; the message suggests the closest.
        """
        try:
            return self.generators[name]
        except KeyError:
            raise UnknownGeneratorError(self.unknown_generator(name)) from None

    def unknown_generator(self, name: str) -> str:
        """``unknown generator 'x'; did you mean 'y'?`` and the names there are."""
        known = ", ".join(sorted(self.generators)) or "none: the site names no plugin"
        return f"unknown generator {name!r}{did_you_mean(name, self.generators)} (known: {known})"

    def figure(self, name: object) -> LessonFigure:
        """The figure ``name``.

        Raises:
            FigureError: none of that name; the message suggests the closest.
        """
        if isinstance(name, str) and name in self.figures:
            return self.figures[name]
        names = sorted(self.figures)
        hint = did_you_mean(name, names, cutoff=0.5) if isinstance(name, str) else ""
        known = ", ".join(names) or "none: the site names no plugin with figures"
        raise FigureError(f"unknown figure {name!r}{hint} (known figures: {known})")


NONE = Plugins()


# --- checking what a plugin gives ------------------------------------------------------------


def _generator_problem(generator: object) -> str | None:
    """What makes ``generator`` unusable as a generator (None when nothing)."""
    name = getattr(generator, "name", None)
    if not isinstance(name, str) or not NAME.fullmatch(name):
        return f"a 'name' of lowercase letters, digits and _ is needed, found {name!r}"
    if not isinstance(getattr(generator, "title", None), str):
        return "a 'title' (text) is needed"
    params = getattr(generator, "params", None)
    if not isinstance(params, Mapping) or not all(
        isinstance(spec, ParamSpec) and spec.name == key for key, spec in params.items()
    ):
        return "'params' must map each parameter's name to its ParamSpec (see specs())"
    decimals = getattr(generator, "default_decimals", None)
    low, high = limits.DECIMALS
    if isinstance(decimals, bool) or not isinstance(decimals, int) or not low <= decimals <= high:
        return f"'default_decimals' must be a whole number from {low} to {high}, found {decimals!r}"
    misconceptions = getattr(generator, "misconceptions", None)
    if not isinstance(misconceptions, Mapping) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in misconceptions.items()
    ):
        return (
            "'misconceptions' must map each misconception's key to a one-line description, "
            f"found {type(misconceptions).__name__}"
        )
    if not callable(getattr(generator, "generate", None)):
        return "a generate(rng, constraints, decimals) method is needed (see BaseGenerator)"
    return None


def _problem(part: str, item: object) -> str | None:
    if part == "generators":
        return _generator_problem(item)
    if part == "figures" and not isinstance(item, LessonFigure):
        return f"a LessonFigure (konum.figures) is needed, found {type(item).__name__}"
    if part == "explorers" and not isinstance(item, Explorer):
        return f"an Explorer (konum.explorers) is needed, found {type(item).__name__}"
    if part == "types":
        return _type_problem(item)
    return None


def _type_problem(kind: object) -> str | None:
    """What makes ``kind`` unusable as a question type (None when nothing): its class, name,
    template and front-end part. That it is a :class:`konum.types.Question` is checked where
    the types are (:func:`konum.types.site_types`)."""
    if not isinstance(kind, type):
        return f"a question type's class is needed, found {type(kind).__name__}"
    name = getattr(kind, "type", None)
    if not isinstance(name, str) or not NAME.fullmatch(name):
        return f"a 'type' of lowercase letters, digits and _ is needed, found {name!r}"
    folder = getattr(kind, "TEMPLATES", None)
    template = Path(folder) / "quiz" / f"{name}.html.j2" if folder else None
    if template is None or not template.is_file():
        where = f": no file {template}" if template else " (TEMPLATES, a folder)"
        return f"type {name!r} lacks its template quiz/{name}.html.j2{where}"
    script = getattr(kind, "SCRIPT", None)
    if not script or not Path(script).is_file() or Path(script).suffix != ".js":
        where = f": no file {script}" if script else " (SCRIPT, a .js file)"
        return f"type {name!r} lacks its front-end part{where}"
    return None


def _items(part: str, given: object, origin: str) -> list[Any]:
    """The items of one part of a plugin (a list; ``values``: a mapping's items; ``messages``:
    one folder), checked.

    Raises:
        PluginError: the part is not of the form its name asks.
    """
    attribute = GROUPS[part][0]
    if part == "values":
        if not isinstance(given, Mapping) or not all(isinstance(k, str) for k in given):
            raise PluginError(f"{origin}: {attribute} must map names to values")
        return list(given.items())
    if part == "messages":
        if not isinstance(given, (str, Path)) or not Path(given).is_dir():
            raise PluginError(f"{origin}: {attribute} must be a folder, found {given!r}")
        return [Path(given)]
    if isinstance(given, (str, bytes, Mapping)) or not isinstance(given, (Sequence, set)):
        raise PluginError(f"{origin}: {attribute} must be a list, found {type(given).__name__}")
    items = list(given)
    for index, item in enumerate(items):
        problem = _problem(part, item)
        if problem:
            raise PluginError(f"{origin}: {attribute}[{index}] is not usable: {problem}")
    return items


def _merge(found: Iterable[tuple[str, str, Any]]) -> Plugins:
    """One :class:`Plugins` from ``(part, origin, item)`` triples.

    Raises:
        PluginError: two generators, figures or explorers of one name from two places.
    """
    parts: dict[str, dict[str, Any]] = {
        "generators": {},
        "figures": {},
        "explorers": {},
        "types": {},
    }
    values: dict[str, object] = {}
    messages: list[Path] = []
    sources: list[Path] = []
    origins: dict[str, str] = {}
    for part, origin, item in found:
        if part == "source":
            sources.append(item)
            continue
        if part == "values":
            values[item[0]] = item[1]
            continue
        if part == "messages":
            messages.append(item)
            continue
        name = item.type if part == "types" else item.name
        earlier = parts[part].get(name)
        if earlier is not None and earlier is not item:
            raise PluginError(
                f"{part[:-1]} {name!r} of {origin} has the name of one of {origins[name]}; "
                "rename one of them"
            )
        parts[part][name] = item
        origins[name] = origin
    return Plugins(
        parts["generators"],
        parts["figures"],
        parts["explorers"],
        values,
        tuple(dict.fromkeys(messages)),
        origins,
        tuple(dict.fromkeys(sources)),
        parts["types"],
    )


def _source(module: object, origin: str) -> list[tuple[str, str, Any]]:
    """A module's file as a ``source`` triple: its package's folder for a package."""
    file = getattr(module, "__file__", None)
    if not file:
        return []
    path = Path(file).resolve()
    return [("source", origin, path.parent if path.name == "__init__.py" else path)]


def plugin_parts(source: object, origin: str) -> list[tuple[str, str, Any]]:
    """The ``(part, origin, item)`` triples a module gives (its :data:`GROUPS` attributes).

    Raises:
        PluginError: it gives none of them, or one is not of the form its name asks.
    """
    found: list[tuple[str, str, Any]] = []
    for part, (attribute, _) in GROUPS.items():
        if hasattr(source, attribute):
            found += [
                (part, origin, item) for item in _items(part, getattr(source, attribute), origin)
            ]
    if not found:
        names = ", ".join(attribute for attribute, _ in GROUPS.values())
        raise PluginError(f"{origin} gives nothing konum uses: define one of {names}")
    return found


# --- importing -----------------------------------------------------------------------------------


def _import_limit() -> contextlib.AbstractContextManager[None]:
    seconds = limits.PLUGIN_IMPORT_SECONDS
    return limits.time_limit(seconds, f"it ran longer than {seconds} s (a loop that never ends?)")


def _failure(what: str, exc: BaseException, file: Path | None = None) -> PluginError:
    """``exc`` raised while importing ``what`` as one line: the exception and, for a file,
    the line of it that raised."""
    where = ""
    if file is not None and not isinstance(exc, SyntaxError):
        lines = [
            f.lineno for f in traceback.extract_tb(exc.__traceback__) if f.filename == str(file)
        ]
        if lines:
            where = f" (line {lines[-1]})"
    message = str(exc) or "no message"
    if isinstance(exc, limits.TimeLimitError):
        return PluginError(f"konum option 'plugins': {what} does not import: {message}{where}")
    return PluginError(
        f"konum option 'plugins': {what} does not import: {type(exc).__name__}: {message}{where}"
    )


@contextlib.contextmanager
def _on_path(folder: Path) -> Iterator[None]:
    sys.path.insert(0, str(folder))
    try:
        yield
    finally:
        with contextlib.suppress(ValueError):
            sys.path.remove(str(folder))


@lru_cache(maxsize=32)
def _import_file(path: Path, shown: str, stamp: tuple[int, int]) -> ModuleType:
    """The module in the file ``path``, imported afresh whenever ``stamp`` changes."""
    digest = hashlib.blake2b(str(path).encode(), digest_size=4).hexdigest()
    name = f"konum_site_plugins.{re.sub(r'[^0-9A-Za-z_]', '_', path.stem)}_{digest}_{stamp[0]}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:  # pragma: no cover - a .py path always has one
        raise PluginError(f"konum option 'plugins': {shown} cannot be imported")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses and pickling look their module up there
    try:
        with _on_path(path.parent), _import_limit():  # the file may import its neighbours
            spec.loader.exec_module(module)
    except BaseException as exc:  # SystemExit too: a module must not end konum
        del sys.modules[name]
        if isinstance(exc, KeyboardInterrupt):
            raise
        raise _failure(shown, exc, path) from None
    return module


def _import_module(name: str, root: Path) -> ModuleType:
    try:
        with _on_path(root), _import_limit():
            return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name.split(".")[0]:  # the module is there; something it imports is not
            raise _failure(name, exc) from None
        installed = ", ".join(installed_plugins()) or "none"
        raise PluginError(
            f"konum option 'plugins': no plugin {name!r}{did_you_mean(name, installed_plugins())}"
            f": not an installed plugin's name (installed: {installed}), a module beside "
            "mkdocs.yml or a .py file"
        ) from None
    except BaseException as exc:
        if isinstance(exc, KeyboardInterrupt):
            raise
        raise _failure(name, exc) from None


def _entry_points(name: str) -> list[tuple[str, str, Any]]:
    """The parts the installed entry points called ``name`` give, one group each."""
    found: list[tuple[str, str, Any]] = []
    for part, (attribute, group) in GROUPS.items():
        for entry in metadata.entry_points(group=group, name=name):
            origin = f"entry point {entry.name!r} ({entry.value}) of {group}"
            try:
                with _import_limit():
                    loaded = entry.load()
            except BaseException as exc:
                if isinstance(exc, KeyboardInterrupt):
                    raise
                raise PluginError(f"{origin} does not load: {type(exc).__name__}: {exc}") from None
            given = getattr(loaded, attribute) if isinstance(loaded, ModuleType) else loaded
            found += [(part, origin, item) for item in _items(part, given, origin)]
            found += _source(loaded if isinstance(loaded, ModuleType) else None, origin)
    return found


def installed_plugins() -> list[str]:
    """The names of the plugins installed packages register (every group)."""
    names = {
        entry.name for _, group in GROUPS.values() for entry in metadata.entry_points(group=group)
    }
    return sorted(names)


def _stamp(path: Path) -> tuple[int, int] | None:
    try:
        stat = path.stat()
    except OSError:
        return None
    return (stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=16)
def _load(
    entries: tuple[str, ...], root: Path, stamps: tuple[tuple[int, int] | None, ...]
) -> Plugins:
    found: list[tuple[str, str, Any]] = []
    for entry, stamp in zip(entries, stamps, strict=True):
        if entry.endswith(".py"):
            path = Path(entry)
            shown = str(paths.shown(path, root))
            if stamp is None:
                raise PluginError(f"konum option 'plugins': no such file {shown}")
            found += plugin_parts(_import_file(path, shown, stamp), shown)
            found.append(("source", shown, path.resolve()))
            continue
        if not all(part.isidentifier() for part in entry.split(".")):
            raise PluginError(
                f"konum option 'plugins': {entry!r} is neither a plugin's name, a module name "
                "nor a .py file"
            )
        registered = _entry_points(entry)
        if registered:
            found += registered
        else:
            module = _import_module(entry, root)
            found += plugin_parts(module, entry) + _source(module, entry)
    return _merge(found)


def load_plugins(entries: Sequence[str], root: Path) -> Plugins:
    """The plugins of a site (the ``plugins`` option: entry-point names, module names, or
    ``.py`` files as absolute paths), merged. The same object comes back while no listed
    file changes.

    Raises:
        PluginError: an entry that does not import (one line naming it and the exception's
            message), gives nothing, or clashes with another's name.
    """
    entries = tuple(entries)
    stamps = tuple(_stamp(Path(e)) if e.endswith(".py") else None for e in entries)
    return _load(entries, Path(root), stamps)
