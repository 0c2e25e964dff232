"""SVG files from a teacher, rebuilt from an allow-list so that only a passive drawing is left.

A bank's SVG reaches readers' pages (as a ``data:`` image), Anki decks and Moodle. Inside an
``<img>`` a browser runs no script and loads nothing else, but Anki and Moodle may show the
file in other ways, so the file itself is cleaned. :func:`sanitise_svg` parses it with
defusedxml (no entity declarations, no external entities: no "billion laughs", no reading of
local files), then rebuilds it keeping only:

- elements of the SVG namespace in :data:`ELEMENTS` (shapes, text, paint servers, clipping,
  masks, markers, filters, ``<style>``, embedded raster ``<image>``);
- attributes in :data:`ATTRIBUTES` (geometry, presentation, filter parameters), ``href`` and
  ``xlink:href`` (written back as ``href``), ``xml:space`` and ``xml:lang``.

What would make the drawing active or reach outside it is a problem (:class:`SvgError`), told to
the author (``konum check``) rather than dropped in silence: the elements in
:data:`FORBIDDEN` (``<script>``, ``<foreignObject>``, links, animations, frames), event
handler attributes (``on*``), references that are not inside the file (``href`` other than
``#id``, except a PNG, JPEG, GIF or WebP ``data:`` URI on ``<image>``), and CSS (``<style>``,
``style=`` and the presentation attributes) beyond an allow-list, read with tinycss2: only
the properties in :data:`CSS_PROPERTIES`, values made of words, numbers, lengths, colours,
strings and the functions in :data:`CSS_FUNCTIONS` (``url(#id)`` the only ``url``), rules
without at-rules and no escapes (``\\``, which could spell anything). So ``@import``,
``image-set()``, ``-webkit-image-set()``, a ``cursor``, ``expression()`` or a ``url()`` to
anything outside the file is refused, and so is whatever CSS adds next that can fetch.
Everything else outside the allow-lists, such as an editor's own elements and attributes
(``inkscape:*``, ``sodipodi:*``, ``<metadata>``), comments and processing instructions, is
dropped silently: it never changes the picture.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import defusedxml
import defusedxml.ElementTree as SafeET
import tinycss2
import tinycss2.ast

from konum import limits

SVG_NS = "http://www.w3.org/2000/svg"
XLINK_NS = "http://www.w3.org/1999/xlink"
XML_NS = "http://www.w3.org/XML/1998/namespace"

#: SVG elements kept (in the SVG namespace).
ELEMENTS = frozenset(
    """svg g defs symbol use switch title desc
    path rect circle ellipse line polyline polygon text tspan textPath
    linearGradient radialGradient stop pattern clipPath mask marker image style
    filter feBlend feColorMatrix feComponentTransfer feComposite feConvolveMatrix
    feDiffuseLighting feDisplacementMap feDistantLight feDropShadow feFlood feFuncA feFuncB
    feFuncG feFuncR feGaussianBlur feImage feMerge feMergeNode feMorphology feOffset
    fePointLight feSpecularLighting feSpotLight feTile feTurbulence""".split()  # noqa: SIM905
)
#: Elements that are active or load something (any namespace): a problem, never dropped
#: in silence.
FORBIDDEN = frozenset(
    """script foreignObject a animate animateMotion animateTransform animateColor set mpath
    discard iframe embed object audio video canvas handler listener""".split()  # noqa: SIM905
)
#: Elements whose ``href`` may hold an embedded raster image.
_RASTER_HREF = frozenset({"image", "feImage"})
_DATA_RASTER = re.compile(r"data:image/(?:png|jpeg|gif|webp);base64,[A-Za-z0-9+/=\s]*\Z")
#: CSS properties a drawing may set (in ``style=`` and ``<style>``): SVG's presentation
#: attributes, which paint and place and never fetch but through ``url(#id)``, and the
#: sizes a drawing's root says it is drawn at (konum's own figures and editors write them).
CSS_PROPERTIES = frozenset(
    """alignment-baseline baseline-shift clip clip-path clip-rule color color-interpolation
    color-interpolation-filters color-rendering direction display dominant-baseline fill
    fill-opacity fill-rule filter flood-color flood-opacity font font-family font-size
    font-size-adjust font-stretch font-style font-variant font-weight image-rendering
    isolation letter-spacing lighting-color marker marker-end marker-mid marker-start mask
    mix-blend-mode opacity overflow paint-order pointer-events shape-rendering stop-color
    stop-opacity stroke stroke-dasharray stroke-dashoffset stroke-linecap stroke-linejoin
    stroke-miterlimit stroke-opacity stroke-width text-anchor text-decoration
    text-rendering transform transform-origin unicode-bidi vector-effect visibility
    white-space word-spacing writing-mode width height min-width max-width min-height
    max-height""".split()  # noqa: SIM905
)
#: CSS functions a value may call: colours, transforms and arithmetic, none of which fetch.
CSS_FUNCTIONS = frozenset(
    """rgb rgba hsl hsla hwb calc min max clamp matrix translate translatex translatey
    scale scalex scaley rotate skew skewx skewy""".split()  # noqa: SIM905
)
#: Attributes kept (without a namespace), on any kept element: geometry, filter parameters
#: and the presentation attributes (:data:`CSS_PROPERTIES`).
ATTRIBUTES = CSS_PROPERTIES | frozenset(
    """id class style lang x y x1 y1 x2 y2 cx cy r rx ry fx fy fr width height d points
    pathLength viewBox preserveAspectRatio version dx dy rotate textLength lengthAdjust
    startOffset method spacing side gradientUnits gradientTransform spreadMethod offset
    patternUnits patternContentUnits patternTransform clipPathUnits maskUnits
    maskContentUnits markerUnits markerWidth markerHeight refX refY orient filterUnits
    primitiveUnits in in2 result mode type values operator k1 k2 k3 k4 stdDeviation edgeMode
    order kernelMatrix divisor bias targetX targetY preserveAlpha surfaceScale
    diffuseConstant specularConstant specularExponent kernelUnitLength scale
    xChannelSelector yChannelSelector radius baseFrequency numOctaves seed stitchTiles
    azimuth elevation pointsAtX pointsAtY pointsAtZ limitingConeAngle tableValues slope
    intercept amplitude exponent requiredExtensions systemLanguage""".split()  # noqa: SIM905
)
#: Tokens a CSS value may hold besides functions and ``url(#id)``.
_CSS_TOKENS = (
    tinycss2.ast.WhitespaceToken,
    tinycss2.ast.Comment,
    tinycss2.ast.IdentToken,
    tinycss2.ast.NumberToken,
    tinycss2.ast.PercentageToken,
    tinycss2.ast.DimensionToken,
    tinycss2.ast.HashToken,
    tinycss2.ast.StringToken,
)
_SCHEME = re.compile(r"\s*([A-Za-z][A-Za-z0-9+.-]*):")


class SvgError(ValueError):
    """An SVG that cannot be used; the message says why, naming each construct."""


def _local(name: str) -> tuple[str, str]:
    """``(namespace, local name)`` of an ElementTree tag or attribute name."""
    if name.startswith("{"):
        namespace, _, local = name[1:].partition("}")
        return namespace, local
    return "", name


def _value_problem(tokens: list[tinycss2.ast.Node]) -> str | None:
    """Why the CSS value ``tokens`` is not on the allow-list (None when it is)."""
    for token in tokens:
        if isinstance(token, _CSS_TOKENS) or (
            isinstance(token, tinycss2.ast.LiteralToken) and token.value in ",/+-*"
        ):
            continue
        if isinstance(token, tinycss2.ast.URLToken):
            target = token.value.strip()
        elif isinstance(token, tinycss2.ast.FunctionBlock) and token.lower_name == "url":
            words = [t for t in token.arguments if not isinstance(t, tinycss2.ast.WhitespaceToken)]
            string = len(words) == 1 and isinstance(words[0], tinycss2.ast.StringToken)
            target = words[0].value.strip() if string else tinycss2.serialize(token.arguments)
        elif isinstance(token, tinycss2.ast.FunctionBlock):
            if token.lower_name not in CSS_FUNCTIONS:
                return f"'{token.name}(' in CSS"
            problem = _value_problem(token.arguments)
            if problem:
                return problem
            continue
        elif isinstance(token, tinycss2.ast.ParseError):
            return f"CSS konum cannot read ({token.message})"
        else:
            return f"'{tinycss2.serialize([token])[:40]}' in CSS"
        if not target.startswith("#"):
            return f"url({target[:40]}) (only url(#id) is allowed)"
    return None


def _declarations_problem(nodes: list[tinycss2.ast.Node]) -> str | None:
    """Why the CSS declarations ``nodes`` are not on the allow-list (None when they are)."""
    for node in nodes:
        if isinstance(node, tinycss2.ast.Declaration):
            if node.lower_name not in CSS_PROPERTIES:
                return f"the CSS property '{node.name}'"
            problem = _value_problem(node.value)
        elif isinstance(node, tinycss2.ast.AtRule):
            problem = f"'@{node.at_keyword}' in CSS"
        elif isinstance(node, tinycss2.ast.ParseError):
            problem = f"CSS konum cannot read ({node.message})"
        else:
            problem = f"'{tinycss2.serialize([node])[:40]}' in CSS"
        if problem:
            return problem
    return None


def css_problem(css: str, *, sheet: bool = False, value: bool = False) -> str | None:
    """Why ``css`` is not on the CSS allow-list, or None when it is: a ``<style>`` element's
    text (``sheet``), a presentation attribute's value (``value``) or a ``style`` attribute's
    declarations."""
    if "\\" in css:
        return "a CSS escape ('\\')"
    if value:
        return _value_problem(tinycss2.parse_component_value_list(css, skip_comments=True))
    if not sheet:
        return _declarations_problem(
            tinycss2.parse_blocks_contents(css, skip_whitespace=True, skip_comments=True)
        )
    for rule in tinycss2.parse_stylesheet(css, skip_whitespace=True, skip_comments=True):
        if isinstance(rule, tinycss2.ast.QualifiedRule):
            contents = tinycss2.parse_blocks_contents(
                rule.content, skip_whitespace=True, skip_comments=True
            )
            problem = _declarations_problem(contents)
        else:
            problem = _declarations_problem([rule])
        if problem:
            return problem
    return None


def _href_problem(element: str, value: str) -> str | None:
    value = value.strip()
    if value.startswith("#"):
        return None
    if element in _RASTER_HREF and _DATA_RASTER.match(value):
        return None
    scheme = _SCHEME.match(value)
    if scheme and scheme.group(1).lower() == "data":
        return f"an embedded '{value[:30]}...' on <{element}> (only PNG, JPEG, GIF and WebP)"
    return f"a reference to '{value[:60]}' outside the file on <{element}>"


class _Cleaner:
    def __init__(self) -> None:
        self.problems: list[str] = []

    def problem(self, text: str) -> None:
        if text not in self.problems:
            self.problems.append(text)

    def element(self, source: ET.Element) -> ET.Element | None:
        namespace, name = _local(source.tag) if isinstance(source.tag, str) else ("", "")
        if name in FORBIDDEN:
            self.problem(f"<{name}>")
            return None
        if namespace != SVG_NS or name not in ELEMENTS:
            for child in source.iter():  # dropped, but what it holds must not hide a script
                inner = _local(child.tag)[1] if isinstance(child.tag, str) else ""
                if child is not source and inner in FORBIDDEN:
                    self.problem(f"<{inner}> inside <{name}>")
            return None
        clean = ET.Element(name)  # unqualified: the root's xmlns puts it in SVG's namespace
        for key, value in source.attrib.items():
            self.attribute(name, key, value, clean)
        if name == "style":
            problem = css_problem(source.text or "", sheet=True)
            if problem:
                self.problem(f"{problem} in a <style> element")
            clean.text = source.text
            return clean
        clean.text = source.text
        for child in source:
            kept = self.element(child)
            if kept is not None:
                kept.tail = child.tail
                clean.append(kept)
            elif child.tail:  # keep text that followed a dropped element
                if len(clean):
                    clean[-1].tail = (clean[-1].tail or "") + child.tail
                else:
                    clean.text = (clean.text or "") + child.tail
        return clean

    def attribute(self, element: str, key: str, value: str, clean: ET.Element) -> None:
        namespace, name = _local(key)
        if name.lower().startswith("on"):
            self.problem(f"the event handler '{name}' on <{element}>")
            return
        if name == "href" and namespace in ("", XLINK_NS):
            problem = _href_problem(element, value)
            if problem:
                self.problem(problem)
            else:
                clean.set("href", value)
            return
        if namespace == XML_NS and name in ("space", "lang"):
            clean.set(key, value)
            return
        if namespace or name not in ATTRIBUTES:
            return  # an editor's attribute, or one that draws nothing
        if name == "style" or name in CSS_PROPERTIES or "url(" in value.lower():
            problem = css_problem(value, value=name != "style")
            if problem:
                self.problem(f"{problem} in the attribute '{name}' on <{element}>")
                return
        clean.set(name, value)


def _depth(root: ET.Element) -> int:
    """The deepest nesting below ``root`` (1: no children), found without recursion."""
    deepest, stack = 0, [(root, 1)]
    while stack:
        element, level = stack.pop()
        deepest = max(deepest, level)
        if level <= limits.SVG_DEPTH:  # past the limit, how much deeper does not matter
            stack.extend((child, level + 1) for child in element)
    return deepest


def sanitise_svg(data: bytes) -> bytes:
    """``data`` (an SVG file) rebuilt with only the allow-listed elements and attributes.

    Returns:
        UTF-8 SVG with the SVG namespace as its default namespace and no XML declaration.

    Raises:
        SvgError: the file is not well-formed XML, declares entities, has no ``<svg>`` root
            element, or holds something active or external (each listed).
    """
    try:
        root = SafeET.fromstring(data)
    except defusedxml.DefusedXmlException:
        raise SvgError(
            "it declares XML entities (<!ENTITY>), which konum does not read: export it again"
            " as plain SVG"
        ) from None
    except ET.ParseError as exc:
        raise SvgError(f"it is not well-formed XML ({exc})") from None
    if root.tag != f"{{{SVG_NS}}}svg":
        namespace, name = _local(root.tag)
        where = f"in the namespace {namespace!r}" if namespace else "without a namespace"
        raise SvgError(
            f'expected an <svg> root element with xmlns="{SVG_NS}", found <{name}> {where}'
        )
    depth = _depth(root)
    if depth > limits.SVG_DEPTH:
        raise SvgError(
            f"it nests elements more than {limits.SVG_DEPTH} deep, deeper than an image may"
        )
    cleaner = _Cleaner()
    clean = cleaner.element(root)
    if cleaner.problems or clean is None:
        raise SvgError(
            f"it holds {', '.join(cleaner.problems)}, which an image may not have: remove"
            f" {'it' if len(cleaner.problems) == 1 else 'them'} from the file"
        )
    clean.set("xmlns", SVG_NS)
    text = ET.tostring(clean, encoding="unicode")
    return text.encode("utf-8")
