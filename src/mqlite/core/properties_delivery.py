"""What form a got message's properties take: beside the body (the message handle), as an MQRFH2
in front of the body, or dropped (IBM's MQGET property options and the PROPCTL queue attribute).

Two pure steps. ``form(options, propctl, has_handle)`` reads the MQGMO_PROPERTIES_* option (one at
most: two are MQRC_OPTIONS_ERROR; MQGMO_PROPERTIES_IN_HANDLE without a handle MQRC_HMSG_ERROR) and,
for MQGMO_PROPERTIES_AS_Q_DEF, the queue's PROPCTL, as IBM documents them:

==============================  =========================  ==================================
option                          with a message handle      without one
==============================  =========================  ==================================
PROPERTIES_IN_HANDLE            the handle                 MQRC_HMSG_ERROR (2460)
NO_PROPERTIES                   dropped                    dropped
PROPERTIES_FORCE_MQRFH2         MQRFH2 (handle ignored)    MQRFH2
PROPERTIES_COMPATIBILITY        as without one             MQRFH2 if any property is mcd./jms./
                                                           usr./mqext., else dropped
AS_Q_DEF, PROPCTL(FORCE)        MQRFH2 (handle ignored)    MQRFH2
AS_Q_DEF, PROPCTL(ALL)          the handle                 MQRFH2
AS_Q_DEF, PROPCTL(COMPAT)       the handle                 as PROPERTIES_COMPATIBILITY
AS_Q_DEF, PROPCTL(NONE)         the handle                 dropped
AS_Q_DEF, PROPCTL(V6COMPAT)     the handle; an MQRFH2 the  as COMPAT; an MQRFH2 the
                                application put stays      application put stays
==============================  =========================  ==================================

``deliver(message, form)`` then shapes the message. Properties are the message's own (set with a
message handle at MQPUT, ``Message.properties``) and those in the property folders of an MQRFH2
the application put in the body (usr, jms, mcd, mqext, mqps, mqpse, any folder with
content='properties'; never psc or pscr, D §2.6), since IBM's queue manager treats both alike:

- the handle: the body's property folders become properties, the MQRFH2 goes (a header left with
  other folders stays, re-encoded without them), the MQMD's Format/Encoding/CCSID are the body's;
- MQRFH2: the message's properties become one MQRFH2 (``protocol.rfh2``, byte-exact: folders in
  the encoder's order, usr for a name without a dot, ``folder.name`` in that folder) in front of
  the body; MQMD Format MQHRF2, the header's Format/Encoding/CCSID the original body's (D §2.1,
  R-RFH-M1); an MQRFH2 already in the body follows it, unchanged;
- dropped: the message's properties go, and the property folders of an MQRFH2 in the body.

A malformed MQRFH2 in the body is never an error (IBM fails only a bad MQPUT of one with 2334;
mqlite stores any bytes, and at MQGET returns the body as it was put, with no warning: the
application sees what was put, and no message becomes impossible to get). A property that no
MQRFH2 element can hold (a name with a colon or a blank, an integer past 64 bits) is left out of
the MQRFH2.

mqlite differences: a get "without a message handle" is a client's MQGET with a GMO whose
MsgHandle is MQHM_NONE, or that is below version 4 (the wire says so:
``protocol.native.GMO_NO_MSG_HANDLE``); mqlite's own API (no GMO) counts as having one
(``GMO_MSG_HANDLE``: the properties come back on the ReceivedMessage). A GMO below version 4 has
both: it gets IBM's forms without a handle (PROPCTL FORCE and NONE, the property options, 2460 for
MQGMO_PROPERTIES_IN_HANDLE), except that where PROPCTL COMPAT, ALL or V6COMPAT would write the
message's own properties in an MQRFH2 it gets the message as put, properties on the
ReceivedMessage (``form(..., beside=True)``), so the programs and commands that read
``message.properties`` with such a GMO see them as before. The queue manager's own gets (neither
bit: its servers, channel agents, MQTT) are not shaped at all. Messages sent ahead (read-ahead)
are shaped as for a get with a handle and no property option, and the client's buffer serves any
get; IBM fixes their form by the first MQGET's options and fails a later get that changes them
(MQRC_OPTIONS_CHANGED).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import replace
from typing import Final

from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.message import Message, MessageDescriptor, Properties, PropertyValue
from mqlite.protocol import rfh2
from mqlite.protocol.rfh2_folders import (
    Folder,
    Rfh2Error,
    folder_property_values,
    is_property_folder,
    property_folders,
    property_path,
)

__all__ = ["PROPERTY_OPTIONS", "Form", "deliver", "form", "in_reserved_folder", "rfh2_of"]

PROPERTY_OPTIONS: Final = (C.MQGMO_PROPERTIES_FORCE_MQRFH2 | C.MQGMO_NO_PROPERTIES | C.MQGMO_PROPERTIES_IN_HANDLE
                    | C.MQGMO_PROPERTIES_COMPATIBILITY)
FORMAT_RFH2: Final = rfh2.FORMAT_RFH2  # "MQHRF2", trimmed as MessageDescriptor keeps formats
# The folders whose properties make PROPCTL(COMPAT) return an MQRFH2 (IBM: "a prefix of mcd.,
# jms., usr. or mqext."; a name without a dot is usr's).
RESERVED_FOLDERS = frozenset({C.MQRFH2_USER_FOLDER, "jms", C.MQRFH2_MSG_CONTENT_FOLDER, "mqext"})
# Publish/subscribe properties by their MQINQMP names and their MQRFH2 names (spec C §5.1, R-PROP-1):
# in an MQRFH2 they are written under the MQRFH2 name (MQTopicString in <mqps><Top>).
RFH2_NAMES = {
    "MQTopicString": "mqps.Top", "MQSubUserData": "mqps.Sud", "MQIsRetained": "mqps.Ret",
    "MQPubOptions": "mqps.Pub", "MQPubLevel": "mqps.Pbl", "MQPubTime": "mqpse.Pts",
    "MQPubSeqNum": "mqpse.Seq", "MQPubStrIntData": "mqpse.Sid", "MQPubFormat": "mqpse.Pfmt",
}
_PROPCTL_VALUES = frozenset({"COMPAT", "NONE", "ALL", "FORCE", "V6COMPAT"})


class Form(enum.Enum):
    """What happens to a got message's properties."""

    HANDLE = "handle"  # beside the body (the message handle); an MQRFH2's property folders too
    MQRFH2 = "mqrfh2"  # an MQRFH2 in front of the body
    NONE = "none"  # dropped, with the body MQRFH2's property folders
    COMPAT = "compat"  # MQRFH2 when one is in a reserved folder (mcd, jms, usr, mqext), else NONE
    V6COMPAT_HANDLE = "v6compat-handle"  # the message's own beside the body; the body as put
    V6COMPAT = "v6compat"  # the message's own as COMPAT; the body as put


def form(options: int, propctl: str, has_handle: bool, beside: bool = False) -> Form:
    """The form MQGET's ``options`` and the queue's ``propctl`` (COMPAT, NONE, ALL, FORCE or
    V6COMPAT; anything else reads as COMPAT, the default) give, with or without a message handle
    (the table in the module's docstring). ``beside``: a get without a handle that still takes
    the message's properties beside the body (mqlite's ReceivedMessage.properties, for a GMO below
    version 4): with no property option and PROPCTL COMPAT, ALL or V6COMPAT it gets the message as
    it was put (V6COMPAT_HANDLE) where IBM would write its properties in an MQRFH2."""
    chosen = options & PROPERTY_OPTIONS
    if chosen & (chosen - 1):
        raise MQError(C.MQRC_OPTIONS_ERROR, "more than one MQGMO_PROPERTIES_* option")
    if chosen == C.MQGMO_PROPERTIES_IN_HANDLE:
        if not has_handle:
            raise MQError(C.MQRC_HMSG_ERROR, "MQGMO_PROPERTIES_IN_HANDLE without a message handle")
        return Form.HANDLE
    if chosen == C.MQGMO_NO_PROPERTIES:
        return Form.NONE
    if chosen == C.MQGMO_PROPERTIES_FORCE_MQRFH2:
        return Form.MQRFH2
    if chosen == C.MQGMO_PROPERTIES_COMPATIBILITY:
        return Form.COMPAT
    if propctl not in _PROPCTL_VALUES:
        propctl = "COMPAT"
    if propctl == "FORCE":
        return Form.MQRFH2
    if has_handle:
        return Form.V6COMPAT_HANDLE if propctl == "V6COMPAT" else Form.HANDLE
    if beside and propctl != "NONE":
        return Form.V6COMPAT_HANDLE
    return {"ALL": Form.MQRFH2, "COMPAT": Form.COMPAT, "NONE": Form.NONE, "V6COMPAT": Form.V6COMPAT}[propctl]


def _rfh2_name(name: str) -> str:
    return RFH2_NAMES.get(name, name)


def in_reserved_folder(names: Iterable[str]) -> bool:
    """Whether a property of these names is in mcd, jms, usr or mqext (COMPAT's test)."""
    for name in names:
        path = property_path(_rfh2_name(name))
        if path is not None and path[0] in RESERVED_FOLDERS:
            return True
    return False


def rfh2_of(properties: Properties, md: MessageDescriptor) -> rfh2.Rfh2Header | None:
    """The MQRFH2 that carries ``properties`` in front of a body ``md`` describes (its Format,
    Encoding and CCSID are the body's), or None when no property can be written in one."""
    pairs = [(_rfh2_name(name), value) for name, value in properties.items()]
    try:
        folders = property_folders(pairs)
    except Rfh2Error:  # some property no element holds: leave those out, one by one
        kept: list[tuple[str, PropertyValue]] = []
        for pair in pairs:
            try:
                property_folders([*kept, pair])
            except Rfh2Error:
                continue
            kept.append(pair)
        folders = property_folders(kept)
    if not folders:
        return None
    return rfh2.Rfh2Header(rfh2.in_encoder_order(folders), md.Encoding, md.CodedCharSetId, md.Format)


class _Body:
    """An MQRFH2 chain in a body, split into its properties and what stays."""

    __slots__ = ("decoded", "kept", "properties")

    def __init__(self, decoded: rfh2.Decoded) -> None:
        self.decoded = decoded
        self.properties: dict[str, PropertyValue] = {}
        self.kept: list[rfh2.Rfh2Header] = []  # headers with folders that are not properties
        for header in decoded.headers:
            others: list[Folder] = []
            for folder in header.folders:
                if is_property_folder(folder):
                    self.properties.update(folder_property_values(folder))
                else:
                    others.append(folder)
            if others:
                self.kept.append(replace(header, folders=tuple(others)))

    def has_property_folders(self) -> bool:
        return any(is_property_folder(folder) for header in self.decoded.headers for folder in header.folders)

    def reserved(self) -> bool:
        return any(folder.name in RESERVED_FOLDERS and folder.children
                   for header in self.decoded.headers for folder in header.folders)

    def stripped(self, md: MessageDescriptor) -> tuple[MessageDescriptor, bytes]:
        """The MQMD and body without the property folders (and without headers left empty)."""
        decoded = self.decoded
        md = md.copy()
        if not self.kept:
            md.Format, md.Encoding, md.CodedCharSetId = decoded.format, decoded.encoding, decoded.ccsid
            return md, decoded.body
        last = replace(self.kept[-1], format=decoded.format, encoding=decoded.encoding, ccsid=decoded.ccsid)
        return md, rfh2.encode([*self.kept[:-1], last], decoded.body, md.Encoding, md.CodedCharSetId)


def _body_rfh2(message: Message) -> _Body | None:
    """The body's MQRFH2 chain, or None when it has none or it is malformed (then the body is
    returned as it was put)."""
    md = message.md
    if md.Format != FORMAT_RFH2:
        return None
    try:
        return _Body(rfh2.decode(message.body, md.Format, md.Encoding, md.CodedCharSetId))
    except Rfh2Error:
        return None


def _with_rfh2(message: Message) -> Message:
    header = rfh2_of(message.properties, message.md) if message.properties else None
    if header is None:
        return Message(message.md, message.body, {}) if message.properties else message
    md = message.md.copy()
    md.Format = FORMAT_RFH2
    try:
        data = rfh2.encode_header(header, md.Encoding, md.CodedCharSetId)
    except Rfh2Error:  # a Format no MQRFH2 can name (blanks inside): the properties stay beside
        return message
    return Message(md, data + message.body, {})


def _dropped(message: Message, body: _Body | None) -> Message:
    if body is not None and body.has_property_folders():
        md, data = body.stripped(message.md)
        return Message(md, data, {})
    return Message(message.md, message.body, {}) if message.properties else message


def deliver(message: Message, shape: Form) -> Message:
    """``message`` as the getter receives it in form ``shape``: the same object when nothing
    changes (a message with no properties and no MQRFH2 always), else a new one (the stored
    message is never changed)."""
    if not message.properties and message.md.Format != FORMAT_RFH2:
        return message
    if shape is Form.V6COMPAT_HANDLE:
        return message
    if shape is Form.MQRFH2:
        return _with_rfh2(message)
    if shape is Form.V6COMPAT:
        return _with_rfh2(message) if in_reserved_folder(message.properties) else _dropped(message, None)
    body = _body_rfh2(message)
    if shape is Form.HANDLE:
        if body is None or not body.has_property_folders():
            return message
        md, data = body.stripped(message.md)
        return Message(md, data, {**body.properties, **message.properties})
    if shape is Form.COMPAT and (in_reserved_folder(message.properties) or (body is not None and body.reserved())):
        return _with_rfh2(message)
    return _dropped(message, body)
