"""The NameValueData of an MQRFH2: one folder, written in IBM's XML-like syntax (spec D §2.5, §2.6).

A folder is one root element (``<psc>``, ``<mcd>``, ``<usr>``, ``<jms>``, a vendor's) whose
children are elements with a text value or, for groups (``<Response>`` in ``<pscr>``), children
of their own. ``parse`` reads the text of one NameValueData, ``serialize`` writes it; both are
pure and know nothing of bytes or CCSIDs (``rfh2.py`` does those). The usr folder's elements are
also message properties: ``folder_properties`` and ``properties_folder`` map between them as
IBM's MQRFH2 <-> property mapping does (the ``dt`` attribute gives the type).

The parser is deliberately small: no DTDs, comments or processing instructions (a NameValueData
never has them), the five XML entities and character references, CDATA sections in values.
Whitespace-only text between elements is dropped, a leaf's text is kept verbatim (R-RFH-P2);
spaces, NULs and line ends after the root's closing tag are padding. Anything else raises
``Rfh2Error`` with MQRC_RFH_ERROR (2334).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from mqlite import cmqc as C
from mqlite.message import PropertyValue
from mqlite.protocol.fields import HeaderError

MAX_DEPTH = 64  # nesting of elements in one folder: IBM's folders are two or three deep


class Rfh2Error(HeaderError):
    """Bytes that are not a valid MQRFH/MQRFH2 (or a folder in one): ``reason`` is IBM's reason,
    MQRC_RFH_ERROR (2334) for the structure and its folders, MQRC_RFH_STRING_ERROR (2335) for an
    MQRFH version 1 NameValueString."""

    def __init__(self, text: str, reason: int = C.MQRC_RFH_ERROR) -> None:
        super().__init__(reason, text)


class _Children:
    """Look-ups by name over ``children``, shared by elements (groups) and folders."""

    __slots__ = ()
    children: tuple[Element, ...]

    def get(self, name: str, default: str | None = None) -> str | None:
        """The text of the first child called ``name``."""
        for child in self.children:
            if child.name == name:
                return child.text
        return default

    def values(self, name: str) -> list[str]:
        """The texts of every child called ``name``, in order (repeated options)."""
        return [child.text for child in self.children if child.name == name]

    def child(self, name: str) -> Element | None:
        for child in self.children:
            if child.name == name:
                return child
        return None


@dataclass(frozen=True, slots=True)
class Element(_Children):
    """One element of a folder: a leaf (``text``) or a group (``children``); ``dt`` is its
    datatype attribute (None: a string), ``attributes`` any others in order (``xsi:nil``)."""

    name: str
    text: str = ""
    dt: str | None = None
    children: tuple[Element, ...] = ()
    attributes: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class Folder(_Children):
    """One NameValueData: the root element's name, its children in order, its attributes."""

    name: str
    children: tuple[Element, ...] = ()
    attributes: tuple[tuple[str, str], ...] = ()

    @classmethod
    def of(cls, name: str, *children: tuple[str, str] | Element) -> Folder:
        """A folder from ``(name, text)`` pairs or elements: ``Folder.of("psc", ("Command", "Publish"))``."""
        return cls(name, tuple(c if isinstance(c, Element) else Element(c[0], c[1]) for c in children))


# -- serialising ----------------------------------------------------------------------------------
# An XML name: a first character of [A-Za-z_:\u00c0-\ufffd], then [-A-Za-z0-9._:\u00b7\u00c0-\ufffd]*,
# written as the complements of those classes (the same sets: re builds a positive class reaching
# \ufffd as a 64K bitmap, 10 ms at every start of every process that imports this module).
_NAME = re.compile(r"[^\x00-\x39\x3b-\x40\x5b-\x5e\x60\x7b-\xbf\ufffe-\U0010ffff]"
                   r"[^\x00-\x2c\x2f\x3b-\x40\x5b-\x5e\x60\x7b-\xb6\xb8-\xbf\ufffe-\U0010ffff]*")
_TEXT_ESCAPE = re.compile(r"[&<>\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
_ATTR_ESCAPE = re.compile(r"[&<>'\"\x00-\x1f\ufffe\uffff]")
_ENTITY = {"&": "&amp;", "<": "&lt;", ">": "&gt;", "'": "&apos;", '"': "&quot;"}


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    return _ENTITY.get(char) or f"&#x{ord(char):x};"


def _checked_name(name: str) -> str:
    if not _NAME.fullmatch(name):
        raise Rfh2Error(f"{name!r} is not an element name")
    return name


def _open_tag(name: str, dt: str | None, attributes: tuple[tuple[str, str], ...]) -> str:
    parts = [_checked_name(name)]
    pairs = attributes if dt is None else (("dt", dt), *attributes)
    for key, value in pairs:
        parts.append(f"{_checked_name(key)}='{_ATTR_ESCAPE.sub(_escape, value)}'")
    return "<" + " ".join(parts) + ">"


def _write(element: Element | Folder, out: list[str], depth: int) -> None:
    if depth > MAX_DEPTH:
        raise Rfh2Error(f"elements nested deeper than {MAX_DEPTH}")
    dt = element.dt if isinstance(element, Element) else None
    out.append(_open_tag(element.name, dt, element.attributes))
    if element.children:
        for child in element.children:
            _write(child, out, depth + 1)
    elif isinstance(element, Element):
        out.append(_TEXT_ESCAPE.sub(_escape, element.text))
    out.append(f"</{element.name}>")


def serialize(folder: Folder) -> str:
    """The folder as NameValueData text, compact (no whitespace between elements): ``&``, ``<``,
    ``>`` and control characters escaped in values, attributes single-quoted."""
    out: list[str] = []
    _write(folder, out, 0)
    return "".join(out)


# -- parsing --------------------------------------------------------------------------------------
_TAG = re.compile(r"<(/?)(" + _NAME.pattern + r")((?:\s+" + _NAME.pattern
                  + r"""\s*=\s*(?:'[^'<]*'|"[^"<]*"))*)\s*(/?)>""")
_ATTR = re.compile(r"(" + _NAME.pattern + r""")\s*=\s*(?:'([^'<]*)'|"([^"<]*)")""")
_REF = re.compile(r"&(?:#x([0-9A-Fa-f]{1,6})|#([0-9]{1,7})|(lt|gt|amp|quot|apos));")
_NAMED = {"lt": "<", "gt": ">", "amp": "&", "quot": '"', "apos": "'"}
_PADDING = " \t\r\n\0"
_CDATA_OPEN = "<![CDATA["


def _unescape(text: str) -> str:
    if "&" not in text:
        return text
    out: list[str] = []
    at = 0
    while (amp := text.find("&", at)) >= 0:
        out.append(text[at:amp])
        ref = _REF.match(text, amp)
        if ref is None:
            raise Rfh2Error(f"bad entity reference at {text[amp:amp + 10]!r}")
        hexa, decimal, named = ref.groups()
        if named:
            out.append(_NAMED[named])
        else:
            code = int(hexa, 16) if hexa else int(decimal)
            if code > 0x10FFFF or 0xD800 <= code <= 0xDFFF:
                raise Rfh2Error(f"bad character reference {ref.group()!r}")
            out.append(chr(code))
        at = ref.end()
    out.append(text[at:])
    return "".join(out)


def _attributes(raw: str) -> tuple[str | None, tuple[tuple[str, str], ...]]:
    dt: str | None = None
    others: list[tuple[str, str]] = []
    seen: set[str] = set()
    for match in _ATTR.finditer(raw):
        key = match.group(1)
        if key in seen:
            raise Rfh2Error(f"attribute {key!r} repeated")
        seen.add(key)
        value = _unescape(match.group(2) if match.group(2) is not None else match.group(3))
        if key == "dt":
            dt = value
        else:
            others.append((key, value))
    return dt, tuple(others)


class _Open:
    __slots__ = ("attributes", "children", "dt", "name", "text")

    def __init__(self, name: str, dt: str | None, attributes: tuple[tuple[str, str], ...]) -> None:
        self.name = name
        self.dt = dt
        self.attributes = attributes
        self.children: list[Element] = []
        self.text: list[str] = []

    def close(self) -> Element:
        text = "".join(self.text)
        if self.children:
            if text.strip(" \t\r\n"):
                raise Rfh2Error(f"element {self.name!r} mixes text and elements")
            text = ""
        return Element(self.name, text, self.dt, tuple(self.children), self.attributes)


def parse(text: str) -> Folder:
    """One NameValueData's text as a folder; ``Rfh2Error`` (2334) when it is not one."""
    start = len(text) - len(text.lstrip(" \t\r\n"))
    end = len(text.rstrip(_PADDING))
    if start >= end or text[start] != "<":
        raise Rfh2Error("NameValueData does not start with an element")
    stack: list[_Open] = []
    root: Element | None = None
    at = start
    while at < end:
        if root is not None:
            raise Rfh2Error(f"data after the folder's closing tag at offset {at}")
        lt = text.find("<", at, end)
        if lt < 0:
            lt = end
        if lt > at:
            if not stack:
                raise Rfh2Error(f"text outside the folder at offset {at}")
            stack[-1].text.append(_unescape(text[at:lt]))
            at = lt
            continue
        if text.startswith(_CDATA_OPEN, at):
            close = text.find("]]>", at, end)
            if close < 0 or not stack:
                raise Rfh2Error("bad CDATA section")
            stack[-1].text.append(text[at + len(_CDATA_OPEN):close])
            at = close + 3
            continue
        tag = _TAG.match(text, at, end)
        if tag is None:
            raise Rfh2Error(f"bad tag at offset {at}: {text[at:at + 20]!r}")
        closing, name, raw_attributes, empty = tag.groups()
        at = tag.end()
        if closing:
            if raw_attributes or empty or not stack or stack[-1].name != name:
                raise Rfh2Error(f"unexpected closing tag </{name}>")
            element = stack.pop().close()
        else:
            if len(stack) >= MAX_DEPTH:
                raise Rfh2Error(f"elements nested deeper than {MAX_DEPTH}")
            dt, attributes = _attributes(raw_attributes)
            opened = _Open(name, dt, attributes)
            if not empty:
                stack.append(opened)
                continue
            element = opened.close()
        if stack:
            stack[-1].children.append(element)
        else:
            root = element
    if root is None or stack:
        raise Rfh2Error("folder not closed")
    if root.dt is not None:
        root = Element(root.name, root.text, None, root.children, (("dt", root.dt), *root.attributes))
    if root.text.strip(" \t\r\n"):
        raise Rfh2Error(f"folder {root.name!r} has text, not elements")
    return Folder(root.name, root.children, root.attributes)  # whitespace-only text: an empty folder


# -- usr folder elements <-> message properties ---------------------------------------------------
NIL = ("xsi:nil", "true")  # IBM's null property: <name xsi:nil='true'></name>
_INT_RANGES = {"i1": 8, "i2": 16, "i4": 32, "i8": 64, "int": 64}
_TRUE = frozenset({"1", "true", "TRUE", "True"})
_FALSE = frozenset({"0", "false", "FALSE", "False"})


def element_value(element: Element) -> PropertyValue:
    """A leaf element as a property value by its ``dt``: i1/i2/i4/i8/int ``int`` (in range),
    r4/r8 ``float``, boolean ``bool`` (1/0, true/false), bin.hex ``bytes``, string (or none)
    ``str``; ``xsi:nil='true'`` (or ``dt='null'``) is None. Anything else raises ``Rfh2Error``
    with MQRC_RFH_FORMAT_ERROR (2421), IBM's reason for an MQRFH2 whose properties are wrong."""
    if element.children:
        raise Rfh2Error(f"{element.name!r} is a group, not a property", C.MQRC_RFH_FORMAT_ERROR)
    dt, text = element.dt, element.text
    if NIL in element.attributes or dt == "null":
        return None
    try:
        if dt is None or dt == "string":
            return text
        if dt in _INT_RANGES:
            value = int(text.strip(), 10)
            bits = _INT_RANGES[dt]
            if not -(1 << (bits - 1)) <= value < 1 << (bits - 1):
                raise ValueError(f"{value} out of range for {dt}")
            return value
        if dt in ("r4", "r8"):
            number = float(text.strip())
            return number
        if dt == "boolean":
            flag = text.strip()
            if flag in _TRUE:
                return True
            if flag in _FALSE:
                return False
            raise ValueError(f"{flag!r} is not a boolean")
        if dt == "bin.hex":
            return bytes.fromhex(text.strip())
    except ValueError as error:
        raise Rfh2Error(f"{element.name!r}: {error}", C.MQRC_RFH_FORMAT_ERROR) from None
    raise Rfh2Error(f"{element.name!r}: unknown datatype {dt!r}", C.MQRC_RFH_FORMAT_ERROR)


def value_element(name: str, value: PropertyValue) -> Element:
    """A property as a usr element: ``str`` untyped, ``bool`` boolean (1/0), ``int`` i8 (past 64
    bits MQRC_PROPERTY_TYPE_ERROR), ``float`` r8 (repr, exact), ``bytes`` bin.hex (upper case),
    None ``xsi:nil='true'``."""
    if value is None:
        return Element(name, "", None, (), (NIL,))
    if isinstance(value, bool):
        return Element(name, "1" if value else "0", "boolean")
    if isinstance(value, int):
        if not -(1 << 63) <= value < 1 << 63:
            raise Rfh2Error(f"{name!r}: {value} does not fit an i8", C.MQRC_PROPERTY_TYPE_ERROR)
        return Element(name, str(value), "i8")
    if isinstance(value, float):
        text = repr(value) if math.isfinite(value) else {"inf": "INF", "-inf": "-INF"}.get(repr(value), "NaN")
        return Element(name, text, "r8")
    if isinstance(value, bytes):
        return Element(name, value.hex().upper(), "bin.hex")
    return Element(name, value)


def folder_properties(folder: Folder) -> dict[str, PropertyValue]:
    """The usr folder's elements as message properties, in order (R-RFH usr rules: simple
    elements only, each at most once)."""
    properties: dict[str, PropertyValue] = {}
    for element in folder.children:
        if element.name in properties:
            raise Rfh2Error(f"usr property {element.name!r} repeated", C.MQRC_RFH_FORMAT_ERROR)
        properties[element.name] = element_value(element)
    return properties


def properties_folder(properties: Mapping[str, PropertyValue] | Iterable[tuple[str, PropertyValue]],
                      name: str = C.MQRFH2_USER_FOLDER) -> Folder:
    """Message properties as a usr folder (names must be XML names without a colon)."""
    pairs = properties.items() if isinstance(properties, Mapping) else properties
    children = []
    for key, value in pairs:
        if ":" in key or not _NAME.fullmatch(key):
            raise Rfh2Error(f"{key!r} cannot be a usr element", C.MQRC_PROPERTY_NAME_ERROR)
        children.append(value_element(key, value))
    return Folder(name, tuple(children))


# -- the folder rules of spec D §2.6 ---------------------------------------------------------------
MCD_DOMAINS = frozenset({"mrm", "xmlnsc", "xmlns", "xml", "mime", "idoc", "none", "jms_none", "jms_text",
                         "jms_bytes", "jms_map", "jms_stream", "jms_object"})
JMS_FIELDS = frozenset({"Dst", "Dlv", "Exp", "Pri", "Tms", "Cid", "Rto"})


def check_folders(folders: Iterable[Folder]) -> None:
    """The rules of one MQRFH2's folders (D §2.6): at most one psc, one pscr, one usr; usr
    elements simple and not repeated, without a colon; an mcd with Msd mrm or idoc names its Set,
    Type and Fmt. The decoder does not apply them (it is lenient); the queued interface does,
    and an MQRFH2 that breaks one is MQRC_RFH_ERROR (2334). Unknown mcd domains and jms fields
    pass: other products write their own."""
    seen: set[str] = set()
    for folder in folders:
        if folder.name in (C.MQRFH2_PUBSUB_CMD_FOLDER, C.MQRFH2_PUBSUB_RESP_FOLDER, C.MQRFH2_USER_FOLDER):
            if folder.name in seen:
                raise Rfh2Error(f"more than one {folder.name} folder in one MQRFH2")
            seen.add(folder.name)
        if folder.name == C.MQRFH2_USER_FOLDER:
            names: set[str] = set()
            for element in folder.children:
                if element.children or ":" in element.name or element.name in names:
                    raise Rfh2Error(f"usr element {element.name!r} is a group, has a colon or is repeated")
                names.add(element.name)
        elif folder.name == C.MQRFH2_MSG_CONTENT_FOLDER and folder.get("Msd") in ("mrm", "idoc"):
            missing = [tag for tag in ("Set", "Type", "Fmt") if folder.get(tag) is None]
            if missing:
                raise Rfh2Error(f"mcd domain {folder.get('Msd')} without {', '.join(missing)}")


# -- message properties <-> every folder of an MQRFH2 (IBM's property name mapping) ----------------
# Folders whose elements are message properties by name (IBM's reserved folders, and the publish/
# subscribe ones of spec C §5.1); any other folder holds properties only when its root says
# content='properties'. psc and pscr (D §2.6) are commands, never properties.
PROPERTY_FOLDERS = frozenset({C.MQRFH2_USER_FOLDER, "jms", C.MQRFH2_MSG_CONTENT_FOLDER, "mqext", "mqps", "mqpse"})
CONTENT_PROPERTIES = ("content", "properties")


def is_property_folder(folder: Folder) -> bool:
    """Whether a folder's elements are message properties (usr, jms, mcd, mqext, mqps, mqpse, or
    a folder with content='properties'); psc, pscr and other folders are not."""
    return folder.name in PROPERTY_FOLDERS or CONTENT_PROPERTIES in folder.attributes


def property_path(name: str) -> tuple[str, ...] | None:
    """Where property ``name`` lives in an MQRFH2: (folder, element) or (folder, group, ...,
    element). A name without a dot is in usr (``x`` and ``usr.x`` are one property, as IBM has
    them); None when a part cannot be an element name (empty, a colon, a blank...)."""
    parts = tuple(name.split("."))
    if len(parts) == 1:
        parts = (C.MQRFH2_USER_FOLDER, *parts)
    if any(":" in part or not _NAME.fullmatch(part) for part in parts):
        return None
    return parts


def property_folders(properties: Iterable[tuple[str, PropertyValue]]) -> list[Folder]:
    """Message properties as MQRFH2 folders, each property where ``property_path`` puts it (groups
    for deeper names), folders in the order first named, elements in the order given; folders
    outside ``PROPERTY_FOLDERS`` say content='properties'. ``Rfh2Error`` MQRC_PROPERTY_NAME_ERROR
    for a name with no path or one that is both a value and a group, MQRC_PROPERTY_TYPE_ERROR for
    a value no element holds (``value_element``)."""
    trees: dict[str, dict[str, object]] = {}
    for name, value in properties:
        path = property_path(name)
        if path is None:
            raise Rfh2Error(f"{name!r} cannot be an MQRFH2 element", C.MQRC_PROPERTY_NAME_ERROR)
        node = trees.setdefault(path[0], {})
        for part in path[1:-1]:
            child = node.setdefault(part, {})
            if not isinstance(child, dict):
                raise Rfh2Error(f"{name!r}: {part!r} is a value and a group", C.MQRC_PROPERTY_NAME_ERROR)
            node = child
        if path[-1] in node:
            raise Rfh2Error(f"{name!r}: named twice, or a value and a group", C.MQRC_PROPERTY_NAME_ERROR)
        node[path[-1]] = value_element(path[-1], value)

    def elements(node: dict[str, object]) -> tuple[Element, ...]:
        return tuple(child if isinstance(child, Element) else Element(key, children=elements(child))  # type: ignore[arg-type]
                     for key, child in node.items())

    return [Folder(name, elements(tree), () if name in PROPERTY_FOLDERS else (CONTENT_PROPERTIES,))
            for name, tree in trees.items()]


def folder_property_values(folder: Folder) -> dict[str, PropertyValue]:
    """A property folder's elements as message properties: usr's by their own names, any other
    folder's as ``folder.element`` (``folder.group.element`` for groups), typed by ``dt``
    (``element_value``). A name found twice is MQRC_RFH_FORMAT_ERROR (2421)."""
    found: dict[str, PropertyValue] = {}

    def walk(prefix: str, children: tuple[Element, ...]) -> None:
        for element in children:
            name = prefix + element.name
            if element.children:
                walk(name + ".", element.children)
                continue
            if name in found:
                raise Rfh2Error(f"property {name!r} repeated", C.MQRC_RFH_FORMAT_ERROR)
            found[name] = element_value(element)

    walk("" if folder.name == C.MQRFH2_USER_FOLDER else folder.name + ".", folder.children)
    return found
