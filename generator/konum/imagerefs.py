"""Images in bank text: found, resolved, checked, and replaced by references to the checks.

How an author writes an image, in any Markdown field of a question or a flashcard (prompt,
options and their feedback, explanation, hint, matching items on the left, a formula
misconception's feedback, a flashcard's front and back)::

    ![A battery and two resistors in series](images/series.svg)
    ![A battery and two resistors in series](images/series.svg "Figure 1")
    ![Alt text](<images/a file with spaces.png>)
    <img src="images/series.svg" alt="A battery and two resistors in series">

Reference-style images (``![alt][label]``) are not read. Alt text is required: it is what a
screen reader says, what a card shows when the image cannot load, and what an export without
images falls back on.

**Where a path starts.** Like a link in a Markdown page, which is relative to the page, an
image path is relative to the folder of the bank file that names it: ``images/series.svg``
beside the bank. It may climb with ``..`` to share the lessons' images
(``../images/series.svg`` from ``docs/banks/`` is ``docs/images/series.svg``;
``../docs/images/series.svg`` from a ``banks/`` folder beside ``docs/``), as long as the
file, after links are followed, lies inside the project (the folder of ``mkdocs.yml``) or
inside the bank's own folder. One rule, and no search order: a file added in one folder
never silently replaces another's.

**What is refused**, each at its line with the question id and field: a missing alt text;
no such file; a file that is not a PNG, JPEG, GIF, WebP or SVG image, or one too large
(:mod:`konum.images`), or an SVG with scripts or external references
(:mod:`konum.svgsafe`); an absolute path, a path that leaves the project, a link out of it;
``data:`` and other schemes; and remote images (``https://...``): konum could not check or
clean them, a page would load them from another site (and lose them when it moves them), and
the Anki, Moodle and printed exports could not carry them. Download the file beside the bank
instead. Images are not allowed in a bank's title, a unit, or a matching question's choices
(the right-hand items and distractors, shown in a drop-down list that holds text only).

:func:`localise` returns the text with each image path replaced by the checked image's
reference (``konum-image/<name>``, see :mod:`konum.images`), which is what the loaded
question holds and what every output understands.
"""

from __future__ import annotations

import html
import os
import re
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote

from konum import images
from konum.formatting import did_you_mean
from konum.markup import MarkupError, Spot, position, render_text, strip_code_and_math

_MD_IMAGE = re.compile(
    r"""
    (?<!\\)!\[(?P<alt>(?:[^\[\]\\]|\\.|\[(?:[^\[\]\\]|\\.)*\])*)\]  # ![alt], one [] deep
    \(\s*
    (?: <(?P<angle>[^<>\n]*)>                                  # <destination>
      | (?P<bare>(?:[^\s()<>"']|\([^\s()]*\))(?:[^()<>\n"']|\([^()\n]*\))*?)  # or bare
    )
    (?:\s+(?:"[^"]*"|'[^']*'|\([^()]*\)))?                     # "title"
    \s*\)
    """,
    re.VERBOSE,
)
_SRC = re.compile(
    r"""\bsrc\s*=\s*(?:"(?P<dq>[^"]*)"|'(?P<sq>[^']*)'|(?P<uq>[^\s"'=<>`]+))""",
    re.IGNORECASE,
)
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*):")
_BACKSLASH_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")

#: Why an image cannot go in a field, by the field's last part.
_NO_IMAGES_IN = {
    "title": "a bank's title is plain text in menus and deck names",
    "unit": "a unit is written after a number on one line",
    "right": "a matching question's choices are shown in a drop-down list, which holds text only",
    "distractors": (
        "a matching question's choices are shown in a drop-down list, which holds text only"
    ),
}


@dataclass(frozen=True)
class ImageRef:
    """An image written in bank text.

    Attributes:
        at: index in the text where the image is written (its ``!`` or ``<``).
        start: index of its source (the path, with its ``<>`` in the Markdown form).
        end: index just after its source.
        src: the source as a browser would read it (escapes and entities undone).
        alt: its alt text, None when there is no alt attribute.
        raw: True for an ``<img>`` tag, False for ``![alt](path)``.
    """

    at: int
    start: int
    end: int
    src: str
    alt: str | None
    raw: bool


class _ImgTags(HTMLParser):
    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.starts = [0]
        for line in text.split("\n"):
            self.starts.append(self.starts[-1] + len(line) + 1)
        self.found: list[ImageRef] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag != "img":
            return
        line, offset = self.getpos()
        at = self.starts[line - 1] + offset
        raw = self.get_starttag_text() or ""
        m = _SRC.search(raw)
        alt = next((value or "" for name, value in attrs if name == "alt"), None)
        if m is None:
            self.found.append(ImageRef(at, at, at, "", alt, True))
            return
        group = next(g for g in ("dq", "sq", "uq") if m.group(g) is not None)
        start, src = at + m.start(group), m.group(group)
        self.found.append(ImageRef(at, start, start + len(src), html.unescape(src), alt, True))


def find_images(text: str) -> list[ImageRef]:
    """Every image written in ``text`` (outside code and math), in order."""
    visible = strip_code_and_math(text)
    found: list[ImageRef] = []
    for m in _MD_IMAGE.finditer(visible):
        group = "angle" if m.group("angle") is not None else "bare"
        start, end = m.span(group)
        if group == "angle":
            start, end = start - 1, end + 1
        src = _BACKSLASH_ESCAPE.sub(r"\1", m.group(group))
        alt = _BACKSLASH_ESCAPE.sub(r"\1", text[m.start("alt") : m.end("alt")])
        found.append(ImageRef(m.start(), start, end, src, alt, False))
    if "<" in visible:
        parser = _ImgTags(visible)
        try:
            parser.feed(visible)
            parser.close()
        except (AssertionError, ValueError):  # pragma: no cover - malformed markup
            pass
        found += parser.found
    return sorted(found, key=lambda ref: ref.at)


def image_spans(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of each Markdown image in ``text`` (for scans that skip them)."""
    visible = strip_code_and_math(text)
    return [m.span() for m in _MD_IMAGE.finditer(visible)]


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def _shown(path: Path, project: Path) -> str:
    try:
        return path.relative_to(project).as_posix()
    except ValueError:
        return str(path)


class ImagePathError(ValueError):
    """An image source that does not name a usable file; the message says why."""


def resolve(src: str, folder: Path, project: Path) -> Path:
    """The file an image source names, by the rule of this module's docstring.

    Args:
        src: the source as written (escapes undone).
        folder: the bank file's folder, absolute.
        project: the project folder (that of ``mkdocs.yml``), absolute.

    Raises:
        ImagePathError: the source is empty, remote, a ``data:`` or other URL, absolute,
            leaves the project or names nothing.
    """
    src = src.strip()
    example = "expected a path relative to the bank file's folder, such as images/circuit.svg"
    if not src:
        raise ImagePathError(f"the image has no path: {example}")
    if re.match(r"(?:https?:)?//", src, re.IGNORECASE):
        raise ImagePathError(
            f"remote images are not allowed ({src[:60]}): download the file beside the bank"
            " and write its path (konum checks and carries only its own files: the Anki,"
            " Moodle and printed exports could not carry a link)"
        )
    scheme = _SCHEME.match(src)
    if scheme and len(scheme.group(1)) > 1:
        name = scheme.group(1).lower()
        if name == "data":
            raise ImagePathError(
                f"a data: URL is not allowed as an image: save the image as a file; {example}"
            )
        raise ImagePathError(f"a '{scheme.group(1)}:' image source is not allowed: {example}")
    if src.startswith(("/", "\\", "~")) or scheme:
        raise ImagePathError(f"an absolute path is not allowed ({src}): {example}")
    if "\\" in src:
        raise ImagePathError(
            f"write '/' between folders: expected a path like images/a.png, found {src}"
        )
    if "?" in src or "#" in src:
        raise ImagePathError(f"expected the path of a file, found a query or fragment in {src}")
    if "\0" in unquote(src):  # no file name holds one; the system refuses to look it up
        shown = src.replace("\0", "\\0")
        raise ImagePathError(f"an image path cannot hold a NUL character (\\0 or %00): {shown}")
    target = Path(os.path.normpath(folder / unquote(src)))
    if not (_inside(target, project) or _inside(target, folder)):
        raise ImagePathError(
            f"the path {src} leaves the project: expected a file inside {project}, found {target}"
        )
    real = target.resolve()
    if target.exists() and not (
        _inside(real, project.resolve()) or _inside(real, folder.resolve())
    ):
        raise ImagePathError(
            f"{src} is a link to {real}, outside the project: copy the image into the project"
        )
    if not target.exists():
        try:
            names = [p.name for p in target.parent.iterdir()]
        except OSError:
            names = []
        raise ImagePathError(
            f"no such image file: {src} (looked for {_shown(target, project)})"
            + did_you_mean(target.name, names)
        )
    if not target.is_file():
        found = "a folder" if target.is_dir() else "something that is not a regular file"
        raise ImagePathError(f"expected an image file, found {found}: {src}")
    return target


def _no_images_reason(field: str) -> str | None:
    return _NO_IMAGES_IN.get(re.sub(r"\[\d+\]$", "", field.rsplit(".", 1)[-1]))


def localise(
    text: str, field: str, folder: Path, project: Path
) -> tuple[str, list[Spot], list[tuple[Path, images.Image]]]:
    """``text`` with each image's path replaced by the reference of the checked image, a
    problem for each image that cannot be used, and the images it shows with their files.

    Args:
        text: bank text as written.
        field: the field's path (``prompt``, ``options[1].text``, ``title``...).
        folder: the bank file's folder, absolute.
        project: the project folder, absolute.

    Returns:
        The text (images that failed keep their path), the problems, each at the
        image's place in ``text``, and the images read.
    """
    refs = find_images(text)
    problems: list[Spot] = []
    if refs and (reason := _no_images_reason(field)):
        where = position(text, refs[0].at)
        return text, [Spot(*where, f"images are not allowed here: {reason}")], []
    out, cursor = [], 0
    found: list[tuple[Path, images.Image]] = []
    for ref in refs:
        where = position(text, ref.at)
        if not (ref.alt or "").strip():
            written = '<img src="..." alt="what it shows">' if ref.raw else "![what it shows](path)"
            problems.append(
                Spot(*where, f"an image needs alt text that says what it shows: expected {written}")
            )
        try:
            file = resolve(ref.src, folder, project)
            image = images.read_image(file)
        except (ImagePathError, images.ImageError) as exc:
            message = str(exc)
            if isinstance(exc, images.ImageError):
                message = f"image {ref.src}: {message}"
            problems.append(Spot(*where, message))
            continue
        out += [text[cursor : ref.start], image.reference]
        found.append((file, image))
        cursor = ref.end
    localised = "".join(out) + text[cursor:]
    if not problems and "<img" in (rendered := _rendered(localised)):
        unread = [src for src in _rendered_sources(rendered) if not images.is_reference(src)]
        if unread:
            problems.append(
                Spot(
                    1,
                    0,
                    f"an image konum cannot read ({unread[0][:60] or 'no source'}): write it as"
                    ' ![what it shows](path) or <img src="path" alt="what it shows">'
                    " (reference-style images, ![alt][label], are not read)",
                )
            )
    return localised, problems, found


def _rendered(text: str) -> str:
    try:
        return render_text(text).source
    except MarkupError:  # reported by the HTML check
        return ""


class _Sources(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.sources: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "img":
            self.sources.append(next((v or "" for k, v in attrs if k == "src"), ""))


def _rendered_sources(markup: str) -> list[str]:
    parser = _Sources()
    parser.feed(markup)
    parser.close()
    return parser.sources
