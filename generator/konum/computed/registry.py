"""The registry of computed-question generators, by name: the course's own and the user's.

Banks name a generator (``generator: sinusoidal_entry``); :func:`get_generator` looks it up
and suggests the closest name for a typo. Generators are Python objects: nothing in a bank is
evaluated as Python code.

Where generators come from, all through :func:`generators_of` (so a user's generator is held
exactly as the course's own are):

* konum's own families (:data:`FAMILIES`), the :data:`GENERATORS` of this module;
* installed packages, through the ``konum.generators`` entry-point group: each entry point
  names a module with a ``GENERATORS`` list, or the list itself::

      [project.entry-points."konum.generators"]
      chemistry = "konum_chemistry.generators"

* the site's own, the extension's ``generators`` option: module names (imported with the
  folder of ``mkdocs.yml`` on ``sys.path``) or ``.py`` files (relative to it), each with a
  module-level ``GENERATORS`` list.

:func:`registry_for` puts together the generators of one configuration; whoever loads a
course for it (:func:`konum.course.course_for`, ``konum check``) makes that registry the one
in force with :func:`use_generators` while banks are validated and variants drawn. Outside
such a block, :func:`active` is the built-in and installed generators.
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
from contextvars import ContextVar
from functools import lru_cache
from importlib import metadata
from pathlib import Path
from types import ModuleType

from konum import limits
from konum.computed import alibi, attention, images, relative, rope, sinusoidal
from konum.computed.base import Generator, ParamSpec
from konum.errors import ConfigError
from konum.formatting import did_you_mean

#: The entry-point group installed packages register their generator modules in.
ENTRY_POINT_GROUP = "konum.generators"
#: konum's own generator modules, loaded like any other.
FAMILIES = (sinusoidal, rope, alibi, relative, images, attention)
#: A generator's name, as banks write it.
NAME = re.compile(r"[a-z][a-z0-9_]*")


class GeneratorLoadError(ConfigError):
    """A generator module that does not import, lists no generators, or lists one that is
    not a generator or whose name another already has."""


class UnknownGeneratorError(KeyError):
    """A bank names a generator that does not exist."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0])


class Registry(Mapping[str, Generator]):
    """Generators by name, each with where it came from (its *origin*: a module name, a
    file, or an entry point). Hashed by identity: :func:`registry_for` gives the same
    object for the same configuration while its files stay as they are."""

    def __init__(self, generators: Mapping[str, Generator], origins: Mapping[str, str]) -> None:
        self._generators = dict(generators)
        self._origins = dict(origins)

    def __getitem__(self, name: str) -> Generator:
        return self._generators[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._generators)

    def __len__(self) -> int:
        return len(self._generators)

    __hash__ = object.__hash__

    def __eq__(self, other: object) -> bool:
        return self is other

    def origin(self, name: str) -> str:
        """Where the generator ``name`` came from."""
        return self._origins[name]

    def extended(self, found: Iterable[tuple[Generator, str]]) -> Registry:
        """This registry with more ``(generator, origin)`` pairs.

        Raises:
            GeneratorLoadError: a name that another generator already has.
        """
        generators, origins = dict(self._generators), dict(self._origins)
        for generator, origin in found:
            earlier = generators.get(generator.name)
            if earlier is not None and earlier is not generator:
                raise GeneratorLoadError(
                    f"generator {generator.name!r} of {origin} has the name of a generator of "
                    f"{origins[generator.name]}; rename one of them"
                )
            generators[generator.name] = generator
            origins[generator.name] = origin
        return Registry(generators, origins)


def _problem(generator: object) -> str | None:
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


def generators_of(source: object, origin: str) -> list[tuple[Generator, str]]:
    """The generators a module (its ``GENERATORS``) or a list of generators contributes,
    each with ``origin``.

    Raises:
        GeneratorLoadError: no ``GENERATORS`` list, or an item of it is not a generator.
    """
    listed = getattr(source, "GENERATORS", source) if isinstance(source, ModuleType) else source
    if isinstance(source, ModuleType) and not hasattr(source, "GENERATORS"):
        raise GeneratorLoadError(
            f"{origin} defines no GENERATORS: list its generators in a module-level "
            "GENERATORS = [...]"
        )
    if isinstance(listed, (str, bytes, Mapping)) or not isinstance(listed, (Sequence, set)):
        raise GeneratorLoadError(
            f"{origin}: GENERATORS must be a list of generators, found {type(listed).__name__}"
        )
    found: list[tuple[Generator, str]] = []
    for index, generator in enumerate(listed):
        problem = _problem(generator)
        if problem:
            raise GeneratorLoadError(f"{origin}: GENERATORS[{index}] is not a generator: {problem}")
        found.append((generator, origin))
    return found


#: The course's own generators, loaded as a user's are.
GENERATORS: Registry = Registry({}, {}).extended(
    pair for family in FAMILIES for pair in generators_of(family, family.__name__)
)


def _failure(what: str, exc: BaseException, file: Path | None = None) -> GeneratorLoadError:
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
    return GeneratorLoadError(
        f"konum option 'generators': {what} does not import: {type(exc).__name__}: {message}{where}"
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
    name = f"konum_user_generators.{re.sub(r'[^0-9A-Za-z_]', '_', path.stem)}_{digest}_{stamp[0]}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:  # pragma: no cover - a .py path always has one
        raise GeneratorLoadError(f"konum option 'generators': {shown} cannot be imported")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses and pickling look their module up there
    try:
        with _on_path(path.parent):  # so the file can import its neighbours
            spec.loader.exec_module(module)
    except BaseException as exc:  # SystemExit too: a module must not end konum
        del sys.modules[name]
        if isinstance(exc, KeyboardInterrupt):
            raise
        raise _failure(shown, exc, path) from None
    return module


def _import_module(name: str, root: Path) -> ModuleType:
    if not all(part.isidentifier() for part in name.split(".")):
        raise GeneratorLoadError(
            f"konum option 'generators': {name!r} is neither a module name nor a .py file"
        )
    try:
        with _on_path(root):
            return importlib.import_module(name)
    except BaseException as exc:
        if isinstance(exc, KeyboardInterrupt):
            raise
        raise _failure(name, exc) from None


def _shown(path: Path, root: Path) -> str:
    return str(path.relative_to(root)) if path.is_relative_to(root) else str(path)


def _stamp(path: Path) -> tuple[int, int] | None:
    try:
        stat = path.stat()
    except OSError:
        return None
    return (stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=1)
def installed() -> Registry:
    """The course's generators and those of installed packages (the entry-point group).

    Raises:
        GeneratorLoadError: an entry point that does not load, or a name clash.
    """
    found: list[tuple[Generator, str]] = []
    for entry in metadata.entry_points(group=ENTRY_POINT_GROUP):
        origin = f"entry point {entry.name!r} ({entry.value}) of {ENTRY_POINT_GROUP}"
        try:
            loaded = entry.load()
        except BaseException as exc:
            if isinstance(exc, KeyboardInterrupt):
                raise
            raise GeneratorLoadError(
                f"{origin} does not load: {type(exc).__name__}: {exc}"
            ) from None
        found.extend(generators_of(loaded, origin))
    return GENERATORS.extended(found)


@lru_cache(maxsize=8)
def _registry(
    entries: tuple[str, ...], root: Path, stamps: tuple[tuple[int, int] | None, ...]
) -> Registry:
    found: list[tuple[Generator, str]] = []
    for entry, stamp in zip(entries, stamps, strict=True):
        if entry.endswith(".py"):
            path = Path(entry)
            shown = _shown(path, root)
            if stamp is None:
                raise GeneratorLoadError(f"konum option 'generators': no such file {shown}")
            module = _import_file(path, shown, stamp)
            found.extend(generators_of(module, shown))
        else:
            found.extend(generators_of(_import_module(entry, root), entry))
    return installed().extended(found)


def registry_for(entries: Sequence[str], root: Path) -> Registry:
    """The generators a configuration sees: konum's, the installed packages', and those of
    ``entries`` (the ``generators`` option: module names, or ``.py`` files as absolute
    paths). The same object comes back while no listed file changes.

    Raises:
        GeneratorLoadError: an entry that does not import (one line naming it and the
            exception's message), defines no generators, or clashes with another's name.
    """
    entries = tuple(entries)
    stamps = tuple(_stamp(Path(e)) if e.endswith(".py") else None for e in entries)
    return _registry(entries, Path(root), stamps)


_ACTIVE: ContextVar[Registry | None] = ContextVar("konum_generators", default=None)


def active() -> Registry:
    """The registry in force: the one :func:`use_generators` set, else :func:`installed`."""
    registry = _ACTIVE.get()
    return installed() if registry is None else registry


@contextlib.contextmanager
def use_generators(registry: Registry) -> Iterator[Registry]:
    """Make ``registry`` the one in force inside the block (per thread and task)."""
    token = _ACTIVE.set(registry)
    try:
        yield registry
    finally:
        _ACTIVE.reset(token)


def unknown_generator_message(name: str) -> str:
    """``unknown generator 'x'; did you mean 'y'?`` plus the list of known names."""
    known = active()
    hint = did_you_mean(name, known)
    return f"unknown generator {name!r}{hint} (known: {', '.join(sorted(known))})"


def get_generator(name: str) -> Generator:
    """The generator called ``name`` in the registry in force.

    Raises:
        UnknownGeneratorError: no such generator; the message suggests the closest name.
    """
    try:
        return active()[name]
    except KeyError:
        raise UnknownGeneratorError(unknown_generator_message(name)) from None
