"""Publications between the queued interface and the engine, as pure functions (spec D §9).

``from_command``: a Publish command message to what the engine publishes: its MQRFH2 folders
``mcd``, ``jms`` and ``usr`` become message properties (``mcd.Msd``, ``jms.Dst``, ``Price``),
so that an MQI subscriber on the same topic sees them (D §13); PubTime and SeqNum become
MQPubTime and MQPubSeqNum (D §16.2); QName and QMgrName the publication's ReplyToQ and
ReplyToQMgr (D §16.2); the body is what follows the first MQRFH2, described by its Format,
Encoding and CCSID. Other folders of the first MQRFH2 (a vendor's) stay with the body, in an
MQRFH2 of their own.

``rfh2_copy``: a subscriber's copy in the MQRFH2 form (PSPROP(RFH2), and PSPROP(COMPAT), whose
publications are never PCF here): a Publish command message whose psc holds the one topic in the
subscriber's namespace, its SubPoint, IsRetainedPub when it asked for it (InformIfRet), the
publisher's PubTime, SeqNum, QMgrName and QName (D §9.1, A-27); the properties go back to their
folders. For a subscription the queued interface registered, the MQMD is D §9.2's.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from mqlite import cmqc as C
from mqlite.message import Message, MessageDescriptor, Properties, PropertyValue
from mqlite.protocol.rfh2 import Decoded, Rfh1Header, Rfh2Header, encode_header, encode_rfh1, in_encoder_order
from mqlite.protocol.rfh2_folders import Element, Folder, folder_properties, properties_folder

from .commands import Publish
from .names import DEFAULT_STREAM, subscriber_topic
from .registration import Registration

PUT_APPL_NAME_LENGTH = 28
PROPERTY_FOLDERS = (C.MQRFH2_MSG_CONTENT_FOLDER, "jms")  # as ``<folder>.<name>`` properties
PUB_TIME, PUB_SEQ_NUM = "MQPubTime", "MQPubSeqNum"
# The engine's publish/subscribe properties: psc fields or nothing in the MQRFH2 form.
_ENGINE_PROPERTIES = frozenset({"MQTopicString", "MQSubUserData", "MQIsRetained", "MQPubOptions", "MQPubLevel",
                                PUB_TIME, PUB_SEQ_NUM, "MQPubStrIntData", "MQPubFormat"})
_MQMD_ONLY = ("mqps.", "mqpse.", "ibm.")
_PERSISTENCE = {C.MQPSC_NON_PERSISTENT: C.MQPER_NOT_PERSISTENT, C.MQPSC_PERSISTENT: C.MQPER_PERSISTENT}


@dataclass(frozen=True, slots=True)
class Publication:
    """What the engine publishes for one Publish command (the same for each of its topics)."""

    properties: dict[str, PropertyValue]
    body: bytes
    format: str
    encoding: int
    ccsid: int
    reply_to_q: str
    reply_to_qmgr: str


def _number(text: str) -> PropertyValue:
    try:
        return int(text.strip())
    except ValueError:
        return text


def from_command(decoded: Decoded, data: bytes, md: MessageDescriptor, command: Publish,
                 given: Properties | None = None) -> Publication:
    """The engine's publication of a Publish command message (``data`` its whole message data,
    ``decoded`` its MQRFH2 chain)."""
    first = decoded.headers[0]
    # Properties the get gave beside the body (an MQRFH2's property folders, or set with a handle).
    properties: dict[str, PropertyValue] = dict(given or {})
    kept: list[Folder] = []
    for folder in first.folders:
        if folder.name in (C.MQRFH2_PUBSUB_CMD_FOLDER, C.MQRFH2_PUBSUB_RESP_FOLDER):
            continue  # a pscr in a received message is ignored (D §2.6)
        if folder.name == C.MQRFH2_USER_FOLDER:
            properties.update(folder_properties(folder))
        elif folder.name in PROPERTY_FOLDERS:
            properties.update((f"{folder.name}.{element.name}", element.text) for element in folder.children
                              if not element.children)
        else:
            kept.append(folder)
    if command.pub_time is not None:
        properties[PUB_TIME] = command.pub_time
    if command.seq_num is not None:
        properties[PUB_SEQ_NUM] = _number(command.seq_num)
    after = data[first.struc_length:]
    ccsid = md.CodedCharSetId if first.ccsid == C.MQCCSI_INHERIT else first.ccsid
    body, fmt, encoding = after, first.format, first.encoding
    if kept:  # a vendor's folders stay in front of the body, in an MQRFH2 of their own
        header = Rfh2Header(tuple(kept), first.encoding, first.ccsid, first.format, first.flags, first.name_value_ccsid)
        body = encode_header(header, md.Encoding, md.CodedCharSetId) + after
        fmt, encoding, ccsid = C.MQFMT_RF_HEADER_2.strip(), md.Encoding, md.CodedCharSetId
    identity = command.identity
    reply_q = identity.q_name
    return Publication(properties, body, fmt, encoding, ccsid, reply_q, identity.qmgr_name if reply_q else "")


def _folders(properties: Properties) -> tuple[list[Folder], list[tuple[str, PropertyValue]]]:
    """Properties back in their folders: ``mcd.``/``jms.`` names to those folders (as strings),
    the others (valid usr names) to usr; the engine's own and MQMD-only ones are left out."""
    grouped: dict[str, list[Element]] = {}
    user: list[tuple[str, PropertyValue]] = []
    for name, value in properties.items():
        if name in _ENGINE_PROPERTIES or name.startswith(_MQMD_ONLY):
            continue
        folder, dot, leaf = name.partition(".")
        if dot and folder in PROPERTY_FOLDERS:
            grouped.setdefault(folder, []).append(Element(leaf, "" if value is None else str(value)))
        elif ":" not in name and "." not in name:
            user.append((name, value))
    return [Folder(name, tuple(grouped[name])) for name in PROPERTY_FOLDERS if name in grouped], user


@functools.lru_cache(maxsize=1024)  # a topic's copies repeat their header: built and encoded once
def _header(psc: tuple[tuple[str, str], ...], folders: tuple[Folder, ...], encoding: int, body_ccsid: int,
            body_format: str, ccsid: int) -> bytes:
    """The copy's MQRFH2: the property folders (mcd, jms), the psc, usr, in the encoder's order."""
    command = Folder.of(C.MQRFH2_PUBSUB_CMD_FOLDER, *psc)
    header = Rfh2Header(in_encoder_order((*folders, command)), encoding, body_ccsid, body_format)
    return encode_header(header, C.MQENC_NATIVE, ccsid)


def rfh2_copy(copy: Message, topic: str, retained: bool, qmgr_name: str, put_date: str, put_time: str,
              registration: Registration | None = None, queue_persistent: bool = False, ccsid: int = 1208) -> Message:
    """A subscriber's copy (``copy``, as the engine made it) in the MQRFH2 form: a Publish command
    message. ``registration``: the queued interface's subscription (its MQMD then follows D §9.2);
    ``queue_persistent``: the subscriber queue's DEFPSIST(YES), for PersAsQueue."""
    md = copy.md
    properties = copy.properties
    folders, user = _folders(properties)
    psc: list[tuple[str, str]] = [(C.MQPSC_COMMAND, C.MQPSC_PUBLISH)]
    if registration is not None:
        psc.append((C.MQPSC_TOPIC, subscriber_topic(topic, registration.prefix, None)))
        if registration.sub_point:
            psc.append((C.MQPSC_SUBSCRIPTION_POINT, registration.sub_point))
    else:
        psc.append((C.MQPSC_TOPIC, topic))
    if retained and (registration is None or registration.has(C.MQPSC_INFORM_IF_RETAINED)):
        psc.append((C.MQPSC_PUBLICATION_OPTION, C.MQPSC_IS_RETAINED_PUB))
    for prop, tag in ((PUB_TIME, C.MQPSC_PUBLISH_TIMESTAMP), (PUB_SEQ_NUM, C.MQPSC_SEQUENCE_NUMBER)):
        value = properties.get(prop)
        if value is not None:
            psc.append((tag, str(value)))
    if md.ReplyToQ.strip():
        psc.extend([(C.MQPSC_Q_MGR_NAME, md.ReplyToQMgr.strip()), (C.MQPSC_Q_NAME, md.ReplyToQ.strip())])
    if user:
        folders.append(properties_folder(user))
    data = _header(tuple(psc), tuple(folders), md.Encoding, md.CodedCharSetId, md.Format.strip(), ccsid) + copy.body
    out_md = md.copy()
    out_md.Format, out_md.Encoding, out_md.CodedCharSetId = C.MQFMT_RF_HEADER_2, C.MQENC_NATIVE, ccsid
    out = Message(out_md, data, {})
    if registration is None:
        return out
    return _queued_md(out, registration, qmgr_name, put_date, put_time, queue_persistent)


def rfh1_copy(copy: Message, topic: str, retained: bool, qmgr_name: str, put_date: str, put_time: str,
              registration: Registration, queue_persistent: bool = False) -> Message:
    """A version 6 subscriber's copy (D §9.1: "in the format of the subscription"): an MQRFH
    whose NameValueString is a Publish in its stream (MQPSStreamName) with the topic under the
    stream's prefix, IsRetainedPub when it asked (InformIfRet), the publisher's PubTime, SeqNum,
    QMgrName, QName and its string or integer data (MQPubStrIntData); the MQMD of D §9.2."""
    md = copy.md
    properties = copy.properties
    pairs = [("MQPSCommand", C.MQPSC_PUBLISH), ("MQPSStreamName", registration.stream or DEFAULT_STREAM),
             ("MQPSTopic", subscriber_topic(topic, registration.prefix, None))]
    if retained and registration.has(C.MQPSC_INFORM_IF_RETAINED):
        pairs.append(("MQPSPubOpts", C.MQPSC_IS_RETAINED_PUB))
    for prop, tag in ((PUB_TIME, "MQPSPubTime"), (PUB_SEQ_NUM, "MQPSSeqNum")):
        if properties.get(prop) is not None:
            pairs.append((tag, str(properties[prop])))
    if md.ReplyToQ.strip():
        pairs += [("MQPSQMgrName", md.ReplyToQMgr.strip()), ("MQPSQName", md.ReplyToQ.strip())]
    data = properties.get("MQPubStrIntData")
    if data is not None:
        pairs.append(("MQPSIntData" if isinstance(data, int) else "MQPSStringData", str(data)))
    header = Rfh1Header(tuple(pairs), md.Encoding, md.CodedCharSetId, md.Format.strip())
    out_md = md.copy()
    out_md.Format, out_md.Encoding = C.MQFMT_RF_HEADER, C.MQENC_NATIVE
    wrapped = Message(out_md, encode_rfh1(header, C.MQENC_NATIVE, md.CodedCharSetId) + copy.body, {})
    return _queued_md(wrapped, registration, qmgr_name, put_date, put_time, queue_persistent)


def _queued_md(message: Message, registration: Registration, qmgr_name: str, put_date: str, put_time: str,
               queue_persistent: bool) -> Message:
    """The MQMD of a publication the queued interface delivers (D §9.2), set in ``message``'s
    own MQMD (a copy made for this delivery)."""
    md = message.md
    persistence = _PERSISTENCE.get(registration.persistence, md.Persistence)
    if registration.persistence == C.MQPSC_PERSISTENT_AS_Q:
        persistence = C.MQPER_PERSISTENT if queue_persistent else C.MQPER_NOT_PERSISTENT
    md.Report, md.MsgType, md.Persistence, md.ReplyToQ, md.ReplyToQMgr = (
        C.MQRO_NONE, C.MQMT_DATAGRAM, persistence, "", qmgr_name)
    md.AccountingToken, md.ApplIdentityData, md.ApplOriginData = (
        registration.accounting_token, registration.appl_identity, "")
    md.PutApplType, md.PutApplName, md.PutDate, md.PutTime = (
        C.MQAT_BROKER, qmgr_name[:PUT_APPL_NAME_LENGTH], put_date, put_time)
    return message


def delete_command(full_topic: str) -> bytes:
    """A DeletePub with DelOpt Local of one full topic, as the queue manager sends it to its
    neighbours for a global DeletePub (D §8 DECISION): put to their default stream."""
    psc = Folder.of(C.MQRFH2_PUBSUB_CMD_FOLDER, (C.MQPSC_COMMAND, C.MQPSC_DELETE_PUBLICATION),
                    (C.MQPSC_TOPIC, full_topic), (C.MQPSC_DELETE_OPTION, C.MQPSC_LOCAL))
    return encode_header(Rfh2Header((psc,), C.MQENC_NATIVE, C.MQCCSI_INHERIT, ""))
