"""Command messages of version 6 applications: an MQRFH (version 1) NameValueString (spec D
Annex A), read as the same commands as the MQRFH2 psc folder, and answered in kind.

``to_psc`` turns the pairs into a psc folder (``MQPSTopic`` is ``Topic``, ``MQPSRegOpts`` one
``RegOpt`` per option, whether the application wrote the strings or the integer MQREGO_*,
MQPUBO_*, MQDELO_* bits) so that ``commands.parse`` applies D §3.6's checks unchanged, and takes
out what the psc has no tag for: the stream (``MQPSStreamName``, D §11, R-WMB-2) and the
publication's string and integer data (the MQPubStrIntData property, D §16.2). Register and
Deregister Publisher are accepted and do nothing (D §7.5, S-28). ``response_pairs`` is the
broker response's NameValueString: MQPSCompCode, then per reason MQPSReason, MQPSReasonText and
the properties that caused it (``MQPSTopic`` ...), then the command's own pairs on a refusal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mqlite import cmqc as C
from mqlite.message import PropertyValue
from mqlite.protocol.rfh2_folders import Element, Folder

from .commands import Refusal

STREAM_NAME = "MQPSStreamName"
STRING_DATA, INT_DATA = "MQPSStringData", "MQPSIntData"
REGISTER_PUBLISHER, DEREGISTER_PUBLISHER = "RegPub", "DeregPub"
WILDCARDS = ("*", "?")  # the character scheme of version 6 subscriptions (D §3.5, A-12)

# NameValueString tag -> psc tag (D Annex A and §3.1 share the vocabulary)
TAGS = {
    "MQPSCommand": C.MQPSC_COMMAND, "MQPSTopic": C.MQPSC_TOPIC, "MQPSRegOpts": C.MQPSC_REGISTRATION_OPTION,
    "MQPSPubOpts": C.MQPSC_PUBLICATION_OPTION, "MQPSDelOpts": C.MQPSC_DELETE_OPTION,
    "MQPSQMgrName": C.MQPSC_Q_MGR_NAME, "MQPSQName": C.MQPSC_Q_NAME, "MQPSPubTime": C.MQPSC_PUBLISH_TIMESTAMP,
    "MQPSSeqNum": C.MQPSC_SEQUENCE_NUMBER, "MQPSSubName": C.MQPSC_SUBSCRIPTION_NAME,
    "MQPSSubIdentity": C.MQPSC_SUBSCRIPTION_IDENTITY, "MQPSSubUserData": C.MQPSC_SUBSCRIPTION_USER_DATA,
    "MQPSCorrelId": C.MQPSC_CORREL_ID, "MQPSFilter": C.MQPSC_FILTER,
}
PSC_TAGS = {psc: tag for tag, psc in TAGS.items()}

# cmqcfc.h's option bits and the strings they mean
_REG_OPTIONS = (
    (0x00000001, C.MQPSC_CORREL_ID_AS_IDENTITY), (0x00000004, C.MQPSC_LOCAL),
    (0x00000010, C.MQPSC_NEW_PUBS_ONLY), (0x00000020, C.MQPSC_PUB_ON_REQUEST_ONLY),
    (0x00000040, C.MQPSC_DEREGISTER_ALL), (0x00000100, C.MQPSC_INFORM_IF_RETAINED),
    (0x00000200, C.MQPSC_DUPLICATES_OK), (0x00000400, C.MQPSC_NON_PERSISTENT), (0x00000800, C.MQPSC_PERSISTENT),
    (0x00001000, C.MQPSC_PERSISTENT_AS_PUBLISH), (0x00002000, C.MQPSC_PERSISTENT_AS_Q),
    (0x00004000, C.MQPSC_ADD_NAME), (0x00008000, C.MQPSC_NO_ALTERATION), (0x00010000, C.MQPSC_FULL_RESPONSE),
    (0x00020000, C.MQPSC_JOIN_SHARED), (0x00040000, C.MQPSC_JOIN_EXCLUSIVE), (0x00080000, C.MQPSC_LEAVE_ONLY),
    (0x00100000, C.MQPSC_VARIABLE_USER_ID), (0x00200000, C.MQPSC_LOCKED),
)
_PUB_OPTIONS = ((0x00000001, C.MQPSC_CORREL_ID_AS_IDENTITY), (0x00000002, C.MQPSC_RETAIN_PUB),
                (0x00000004, C.MQPSC_OTHER_SUBS_ONLY), (0x00000010, C.MQPSC_IS_RETAINED_PUB))
_DEL_OPTIONS = ((0x00000004, C.MQPSC_LOCAL),)
_BITS = {C.MQPSC_REGISTRATION_OPTION: _REG_OPTIONS, C.MQPSC_PUBLICATION_OPTION: _PUB_OPTIONS,
         C.MQPSC_DELETE_OPTION: _DEL_OPTIONS}
# MQPUBO_NO_REGISTRATION (8), MQREGO_ANONYMOUS (2), DIRECT_REQUESTS (8), INCLUDE_STREAM_NAME (0x80):
# v6 publisher registration and stream naming, which v7 has no use for (D §16.3): accepted, ignored.
_IGNORED_BITS = {C.MQPSC_REGISTRATION_OPTION: 0x0000008A, C.MQPSC_PUBLICATION_OPTION: 0x00000008,
                 C.MQPSC_DELETE_OPTION: 0}
_REASON_NAMES = {value: name for name, value in vars(C).items()
                 if isinstance(value, int) and (name.startswith("MQRCCF_") or name.startswith("MQRC_"))}


@dataclass(frozen=True, slots=True)
class Rfh1Command:
    psc: Folder  # for ``commands.parse``
    stream: str | None  # MQPSStreamName, when given
    properties: dict[str, PropertyValue]  # MQPubStrIntData
    no_op: bool = False  # Register / Deregister Publisher


def _options(tag: str, value: str) -> list[str] | Refusal:
    """An option value: a string constant as the psc has it, or MQxxO_* bits (several options)."""
    text = value.strip()
    if not text.lstrip("-").isdigit():
        return [text]
    bits = int(text)
    known = 0
    names: list[str] = []
    for bit, name in _BITS[tag]:
        if bits & bit:
            names.append(name)
            known |= bit
    if bits & ~(known | _IGNORED_BITS[tag]):
        reason = {C.MQPSC_REGISTRATION_OPTION: C.MQRCCF_REG_OPTIONS_ERROR,
                  C.MQPSC_PUBLICATION_OPTION: C.MQRCCF_PUB_OPTIONS_ERROR}.get(tag, C.MQRCCF_DEL_OPTIONS_ERROR)
        return Refusal(reason, (Element(tag, text),))
    return names


def to_psc(pairs: Sequence[tuple[str, str]]) -> Rfh1Command | Refusal:
    """The command of an MQRFH's pairs, as a psc folder and what the psc has no tag for."""
    children: list[Element] = []
    stream: str | None = None
    properties: dict[str, PropertyValue] = {}
    command = next((value for name, value in pairs if name == "MQPSCommand"), None)
    for name, value in pairs:
        if name == STREAM_NAME:
            stream = value.strip()
        elif name == STRING_DATA:
            properties["MQPubStrIntData"] = value
        elif name == INT_DATA:
            properties["MQPubStrIntData"] = int(value) if value.strip().lstrip("-").isdigit() else value
        elif name in TAGS:
            tag = TAGS[name]
            if tag in _BITS:
                options = _options(tag, value)
                if isinstance(options, Refusal):
                    return options
                children.extend(Element(tag, option) for option in options)
            else:
                children.append(Element(tag, value))
        else:
            children.append(Element(name, value))  # unknown: 2337 from the parser (its name echoed)
    no_op = command in (REGISTER_PUBLISHER, DEREGISTER_PUBLISHER)
    return Rfh1Command(Folder(C.MQRFH2_PUBSUB_CMD_FOLDER, tuple(children)), stream, properties, no_op)


def has_wildcards(topic: str) -> bool:
    return any(char in topic for char in WILDCARDS)


def response_pairs(completion: str, responses: Sequence[Element], command: Sequence[tuple[str, str]]
                   ) -> list[tuple[str, str]]:
    """The broker response's NameValueString (D Annex A): MQPSCompCode (0, 1 or 2), each
    reason with its name and the tags that caused it, and on a refusal the command's pairs."""
    code = {C.MQPSCR_OK: C.MQCC_OK, C.MQPSCR_WARNING: C.MQCC_WARNING}.get(completion, C.MQCC_FAILED)
    pairs = [("MQPSCompCode", str(code))]
    for response in responses:
        reason = int(response.get(C.MQPSCR_REASON) or 0)
        pairs += [("MQPSReason", str(reason)), ("MQPSReasonText", _REASON_NAMES.get(reason, str(reason)))]
        pairs += [(PSC_TAGS.get(child.name, child.name), child.text) for child in response.children
                  if child.name != C.MQPSCR_REASON]
    if code != C.MQCC_OK:
        pairs += list(command)
    return pairs
