"""The disk cache of work done once per installed version (``konum.diskcache``), and the
minified scripts and styles it keeps (``konum.render.asset``)."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import jinja2
import pytest

from konum import diskcache, render
from konum.paths import TEMPLATES_DIR


class Maker:
    """A ``make`` that counts its calls."""

    def __init__(self, text: str) -> None:
        self.text, self.calls = text, 0

    def __call__(self) -> str:
        self.calls += 1
        return self.text


def test_a_text_is_made_once_then_read(tmp_path: Path) -> None:
    make = Maker("minified ü")
    first = diskcache.cached_text("asset", b"source", make, "1.0", folder=tmp_path)
    second = diskcache.cached_text("asset", b"source", make, "1.0", folder=tmp_path)
    assert first == second == "minified ü" and make.calls == 1
    entries = list((tmp_path / "asset").iterdir())
    assert len(entries) == 1 and entries[0].name.endswith(".txt")


def test_the_key_holds_the_source_and_what_it_depends_on(tmp_path: Path) -> None:
    make = Maker("out")
    diskcache.cached_text("asset", b"source", make, "1.0", folder=tmp_path)
    diskcache.cached_text("asset", b"source edited", make, "1.0", folder=tmp_path)
    diskcache.cached_text("asset", b"source", make, "2.0", folder=tmp_path)  # the minifier's
    assert make.calls == 3
    key = diskcache.cache_key("asset", b"source", "1.0")
    assert diskcache.version("konum") in ("source", diskcache.version("konum"))
    assert key != diskcache.cache_key("style", b"source", "1.0")


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: data[: len(data) // 2],  # cut short
        lambda data: data.replace(b"kept", b"kepT"),  # a byte changed
        lambda data: b"",  # empty
        lambda data: b"\xff\xfe not a header\n kept",
    ],
)
def test_a_corrupt_entry_is_made_again(tmp_path: Path, damage: object) -> None:
    make = Maker("kept text")
    diskcache.cached_text("asset", b"s", make, folder=tmp_path)
    (entry,) = (tmp_path / "asset").iterdir()
    entry.write_bytes(damage(entry.read_bytes()))  # type: ignore[operator]
    assert diskcache.cached_text("asset", b"s", make, folder=tmp_path) == "kept text"
    assert make.calls == 2
    assert diskcache.cached_text("asset", b"s", make, folder=tmp_path) == "kept text"
    assert make.calls == 2  # the good entry was written back


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux's /proc")
def test_an_unwritable_folder_is_no_error() -> None:
    make = Maker("text")
    folder = Path("/proc/self/konum-cache")  # no one may make a folder there, root neither
    assert diskcache.cached_text("asset", b"s", make, folder=folder) == "text"
    assert diskcache.cached_text("asset", b"s", make, folder=folder) == "text"
    assert make.calls == 2


def test_a_cache_path_that_is_a_file_is_no_error(tmp_path: Path) -> None:
    blocker = tmp_path / "cache"
    blocker.write_text("a file where the folder should be", encoding="utf-8")
    make = Maker("text")
    assert diskcache.cached_text("asset", b"s", make, folder=blocker) == "text"
    assert diskcache.cached_text("asset", b"s", make, folder=blocker / "deeper") == "text"
    assert make.calls == 2 and blocker.read_text(encoding="utf-8").startswith("a file")


def test_the_folder_is_the_users_cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert diskcache.cache_folder() == tmp_path / "konum"


def test_minified_assets_come_from_the_cache(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A second process (a new build) reads the minified script instead of parsing it."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    render.asset.cache_clear()
    made: list[str] = []
    real = render._minified

    def counting(text: str, suffix: str) -> str:
        made.append(suffix)
        return real(text, suffix)

    monkeypatch.setattr(render, "_minified", counting)
    try:
        first = render.asset("quiz.js"), render.asset("quiz.css")
        render.asset.cache_clear()  # as a new process starts with an empty memory cache
        second = render.asset("quiz.js"), render.asset("quiz.css")
    finally:
        render.asset.cache_clear()
    assert first == second and made == [".js", ".css"]
    assert len(list((tmp_path / "konum" / "asset").iterdir())) == 2


def test_a_corrupt_cache_folder_does_not_change_the_assets(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    render.asset.cache_clear()
    try:
        good = render.asset("quiz.js")
        for entry in (tmp_path / "konum" / "asset").iterdir():
            entry.write_bytes(entry.read_bytes()[:-40] + b"garbage")
        render.asset.cache_clear()
        assert render.asset("quiz.js") == good
    finally:
        render.asset.cache_clear()


def _environment(folder: Path, compiled: list[str]) -> jinja2.Environment:
    """A fresh environment (as a new process makes one) on the quiz templates, counting
    what it compiles."""

    class Counting(jinja2.Environment):
        def compile(self, source: Any, name: Any = None, *args: Any, **kwargs: Any) -> Any:
            compiled.append(str(name))
            return super().compile(source, name, *args, **kwargs)

    return Counting(
        loader=jinja2.FileSystemLoader(TEMPLATES_DIR),
        bytecode_cache=diskcache.TemplateCache("options", folder=folder),
        extensions=["jinja2.ext.do"],
    )


def test_templates_are_compiled_once(tmp_path: Path) -> None:
    compiled: list[str] = []
    first = _environment(tmp_path, compiled).get_template("quiz/choice.html.j2")
    assert compiled == ["quiz/choice.html.j2"]
    second = _environment(tmp_path, compiled).get_template("quiz/choice.html.j2")
    assert compiled == ["quiz/choice.html.j2"]  # read, not compiled
    assert first.root_render_func.__code__ == second.root_render_func.__code__
    other = diskcache.TemplateCache("other options", folder=tmp_path)  # another folder
    folders = {p.parent for p in (tmp_path / "templates").rglob("*.bin")}
    environment = _environment(tmp_path, compiled)
    environment.bytecode_cache = other
    environment.get_template("quiz/choice.html.j2")
    assert len(compiled) == 2
    assert len({p.parent for p in (tmp_path / "templates").rglob("*.bin")} - folders) == 1


def test_a_damaged_compiled_template_is_compiled_again(tmp_path: Path) -> None:
    compiled: list[str] = []
    _environment(tmp_path, compiled).get_template("quiz/choice.html.j2")
    (entry,) = (tmp_path / "templates").rglob("*.bin")
    data = entry.read_bytes()
    entry.write_bytes(data[:-10] + b"0123456789")
    _environment(tmp_path, compiled).get_template("quiz/choice.html.j2")
    assert len(compiled) == 2
    # An entry whose checksum holds but whose contents Jinja cannot read: compiled again.
    body = b"not Jinja's bytecode"
    entry.write_bytes(diskcache.HEADER + hashlib.sha256(body).hexdigest().encode() + b"\n" + body)
    _environment(tmp_path, compiled).get_template("quiz/choice.html.j2")
    assert len(compiled) == 3


def test_an_unwritable_template_cache_is_no_error(tmp_path: Path) -> None:
    blocker = tmp_path / "cache"
    blocker.write_text("a file where the folder should be", encoding="utf-8")
    compiled: list[str] = []
    for _ in range(2):
        template = _environment(blocker, compiled).get_template("quiz/choice.html.j2")
        assert template is not None
    assert len(compiled) == 2
