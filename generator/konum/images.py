"""A teacher's own images: read and checked once, kept by content, carried by every output.

An image named in bank text (``![alt](images/circuit.svg)``) is read by :func:`read_image`
when its bank is loaded (:mod:`konum.imagerefs` finds and resolves the paths): its
type from its first bytes (PNG, JPEG, GIF, WebP or SVG, whatever its name says), a raster
opened by Pillow, an SVG rebuilt from an allow-list (:func:`konum.svgsafe.sanitise_svg`),
at most :data:`konum.limits.IMAGE_BYTES` and :data:`konum.limits.IMAGE_SIDE` pixels a side.
The checked bytes are kept
under a flat name, ``<stem>-<hash>.<ext>`` (:func:`flat_name`: Anki's media folder has no
subfolders, and two files called ``circuit.svg`` in two folders differ in their hash), and
the path in the bank text is replaced by a reference, ``konum-image/<name>``
(:data:`PREFIX`), that each output turns into what it can carry:

- pages and the study page (:func:`konum.markup.render_markdown`): a ``data:`` URI, so the
  HTML needs no file beside it in any MkDocs or Zensical site, and every variant of a
  computed question carries its image;
- the Anki package: a media file with the flat name; Anki text and CSV: ``<img src=NAME>``,
  the name the package gives the file (:mod:`konum.exports.cards`);
- Moodle XML: a base64 ``<file>`` beside the text and ``@@PLUGINFILE@@/NAME``
  (:mod:`konum.exports.moodle`); GIFT carries no files (:mod:`konum.exports.gift`).

A course keeps the images its check stage read (:attr:`konum.course.Course.images`, by flat
name): only a reference to one of them becomes an image (the sanitiser drops any other
``<img>`` source, and an output drops a reference its course did not check), so nothing that
was not checked can reach a page or a card.
"""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import html
import io
import re
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from konum import limits
from konum.formatting import slugify
from konum.svgsafe import SvgError, sanitise_svg

#: How a reference to a checked image starts, in bank text and in rendered HTML.
PREFIX = "konum-image/"

#: The image types konum reads: the flat name's extension and the MIME type.
TYPES: dict[str, tuple[str, str]] = {
    "PNG": ("png", "image/png"),
    "JPEG": ("jpg", "image/jpeg"),
    "GIF": ("gif", "image/gif"),
    "WEBP": ("webp", "image/webp"),
    "SVG": ("svg", "image/svg+xml"),
}
_NOT_IMAGES = (
    (b"%PDF", "a PDF document"),
    (b"PK\x03\x04", "a ZIP archive (an office document?)"),
    (b"BM", "a BMP image (save it as PNG)"),
    (b"II*\x00", "a TIFF image (save it as PNG)"),
    (b"MM\x00*", "a TIFF image (save it as PNG)"),
)
_REFERENCE = re.compile(re.escape(PREFIX) + r"([a-z0-9-]+-[0-9a-f]{12}\.(?:png|jpg|gif|webp|svg))")
_IMG = re.compile(r"<img\b[^>]*>", re.IGNORECASE)
_ATTRIBUTE = re.compile(r'([^\s"\'<>/=]+)(?:\s*=\s*"([^"]*)")?')
#: Attributes an image keeps when an output writes it again, in this order.
_KEPT = ("alt", "title", "width", "height", "align")


class ImageError(ValueError):
    """A file that konum cannot use as an image; the message says why."""


@dataclass(frozen=True)
class Image:
    """A checked image.

    Attributes:
        name: the flat file name, ``<stem>-<12 hex digits of the SHA-256>.<ext>``.
        mime: its MIME type.
        data: the bytes every output carries (an SVG's as rebuilt by the sanitiser).
    """

    name: str
    mime: str
    data: bytes = dataclasses.field(repr=False)

    @property
    def reference(self) -> str:
        """How bank text and rendered HTML name this image: ``konum-image/<name>``."""
        return PREFIX + self.name

    @property
    def data_uri(self) -> str:
        """The image as a ``data:`` URI (base64)."""
        return _data_uri(self)


@lru_cache(maxsize=256)
def _data_uri(image: Image) -> str:
    return f"data:{image.mime};base64,{base64.b64encode(image.data).decode('ascii')}"


#: The checked images a course's texts show, by flat name (:attr:`konum.course.Course.images`).
Images = Mapping[str, Image]


def flat_name(stem: str, data: bytes, kind: str) -> str:
    """``<stem>-<hash>.<ext>``: the stem as a slug (:func:`konum.formatting.slugify`, at
    most 40 characters, ``image`` when nothing is left), the first 12 hex digits of the
    SHA-256 of ``data``, the extension of ``kind`` (a key of :data:`TYPES`)."""
    slug = slugify(stem, limit=40)
    return f"{slug or 'image'}-{hashlib.sha256(data).hexdigest()[:12]}.{TYPES[kind][0]}"


def _size(count: int) -> str:
    return f"{count / 1024:,.0f} KiB" if count < 1024 * 1024 else f"{count / 2**20:,.1f} MiB"


def sniff(data: bytes) -> str | None:
    """The type of ``data`` from its first bytes: a key of :data:`TYPES`, or None. Text that
    starts with ``<`` (after a byte order mark and spaces) counts as SVG, for the SVG
    parser to judge."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "PNG"
    if data.startswith(b"\xff\xd8\xff"):
        return "JPEG"
    if data[:6] in (b"GIF87a", b"GIF89a"):
        return "GIF"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "WEBP"
    if data.removeprefix(b"\xef\xbb\xbf").lstrip()[:1] == b"<":
        return "SVG"
    return None


def _what(data: bytes) -> str:
    for magic, what in _NOT_IMAGES:
        if data.startswith(magic):
            return what
    if data[4:12] in (b"ftypheic", b"ftypheix", b"ftypmif1"):
        return "a HEIC photo (save it as JPEG)"
    if not data:
        return "an empty file"
    try:
        data[:512].decode("utf-8")
    except UnicodeDecodeError:
        return "a file of another kind"
    return "text"


def _check_raster(data: bytes, kind: str) -> None:
    from PIL import Image as Pillow
    from PIL import UnidentifiedImageError

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Pillow.DecompressionBombWarning)
            with Pillow.open(io.BytesIO(data)) as picture:
                found, (width, height) = picture.format, picture.size
                picture.verify()
    except (Pillow.DecompressionBombWarning, Pillow.DecompressionBombError):
        raise ImageError(
            f"the {kind} image has too many pixels: expected at most {limits.IMAGE_SIDE:,} "
            "pixels a side"
        ) from None
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as exc:
        raise ImageError(f"the file starts like a {kind} image but is not one ({exc})") from None
    if found != kind:
        raise ImageError(f"the file starts like a {kind} image but reads as {found}")
    if max(width, height) > limits.IMAGE_SIDE:
        raise ImageError(
            f"the image is too large: expected at most {limits.IMAGE_SIDE:,} pixels a side, found "
            f"{width:,} × {height:,}"
        )


def check_image(data: bytes, stem: str) -> Image:
    """``data`` checked as an image and named; the image is not stored.

    Raises:
        ImageError: too large, not one of :data:`TYPES`, a broken raster, or an SVG that is
            not well-formed or holds something active (each problem named).
    """
    if len(data) > limits.IMAGE_BYTES:
        raise _too_large(len(data))
    kind = sniff(data)
    if kind is None:
        raise ImageError(f"not an image: expected PNG, JPEG, GIF, WebP or SVG, found {_what(data)}")
    if kind == "SVG":
        try:
            data = sanitise_svg(data)
        except SvgError as exc:
            raise ImageError(f"the SVG cannot be used: {exc}") from None
    else:
        _check_raster(data, kind)
    return Image(flat_name(stem, data, kind), TYPES[kind][1], data)


def _too_large(size: int, more: bool = False) -> ImageError:
    found = _size(size) if _size(size) != _size(limits.IMAGE_BYTES) else f"{size:,} bytes"
    return ImageError(
        f"the image is too large: expected at most {_size(limits.IMAGE_BYTES)}, found "
        f"{'more than ' if more else ''}{found} (each page that shows it carries it: make it"
        " smaller)"
    )


@lru_cache(maxsize=256)
def _read(path: Path, stamp: tuple[int, int]) -> Image:
    try:
        with open(path, "rb") as handle:
            data = handle.read(limits.IMAGE_BYTES + 1)
    except OSError as exc:
        raise ImageError(f"cannot read the file: {exc.strerror or exc}") from None
    if len(data) > limits.IMAGE_BYTES:  # it grew since it was measured
        raise _too_large(limits.IMAGE_BYTES, more=True)
    return check_image(data, path.stem)


def read_image(path: Path) -> Image:
    """The image in file ``path``, checked (:func:`check_image`), read again only when the
    file's modification time or size changes.

    Raises:
        ImageError: the file cannot be read or is not an image konum can use.
    """
    try:
        stat = path.stat()
    except OSError as exc:
        raise ImageError(f"cannot read the file: {exc.strerror or exc}") from None
    if stat.st_size > limits.IMAGE_BYTES:
        raise _too_large(stat.st_size)
    return _read(path, (stat.st_mtime_ns, stat.st_size))


# --- in rendered HTML ---------------------------------------------------------------------


def is_reference(src: str) -> bool:
    """True when ``src`` is a reference to an image (``konum-image/<name>``); an output
    shows it only when its course checked an image of that name."""
    return _REFERENCE.fullmatch(src) is not None


def _attributes(tag: str) -> dict[str, str]:
    inner = tag[4:-1].rstrip("/")
    return {m.group(1).lower(): html.unescape(m.group(2) or "") for m in _ATTRIBUTE.finditer(inner)}


def img_tag(src: str, attributes: Mapping[str, str]) -> str:
    """An ``<img>`` element with ``src`` and the kept attributes of ``attributes``."""
    parts = [f'src="{html.escape(src, quote=True)}"']
    parts += [f'{k}="{html.escape(attributes[k], quote=True)}"' for k in _KEPT if k in attributes]
    return f"<img {' '.join(parts)}>"


def substitute(markup: str, store: Images, write: Callable[[Image, dict[str, str]], str]) -> str:
    """``markup`` (sanitised HTML) with each ``<img>`` of an image of ``store`` replaced by
    what ``write(image, attributes)`` returns, and each that names no image of ``store``
    dropped (its alt text kept); other elements are left as they are."""
    if PREFIX not in markup:
        return markup

    def one(match: re.Match[str]) -> str:
        attributes = _attributes(match.group(0))
        m = _REFERENCE.fullmatch(attributes.get("src", ""))
        if m is None:
            return match.group(0)
        image = store.get(m.group(1))
        if image is None:  # not checked by this course: never shown
            return html.escape(attributes.get("alt", ""), quote=False)
        return write(image, attributes)

    return _IMG.sub(one, markup)


def inline(markup: str, store: Images) -> str:
    """``markup`` with each image's source a ``data:`` URI (pages, the study page)."""
    return substitute(markup, store, lambda image, attrs: img_tag(image.data_uri, attrs))


def images_in(markup: str, store: Images) -> list[Image]:
    """The images of ``store`` that ``markup`` shows, in order, each once."""
    found: dict[str, Image] = {}

    def note(image: Image, attributes: dict[str, str]) -> str:
        found.setdefault(image.name, image)
        return ""

    substitute(markup, store, note)
    return list(found.values())


def mentions_images(value: object) -> bool:
    """True when a text anywhere in ``value`` (a string, or a dataclass such as a question,
    with its tuples and nested dataclasses) refers to a checked image."""
    if isinstance(value, str):
        return PREFIX in value and _REFERENCE.search(value) is not None
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return any(mentions_images(getattr(value, f.name)) for f in dataclasses.fields(value))
    if isinstance(value, (tuple, list)):
        return any(mentions_images(item) for item in value)
    return False
