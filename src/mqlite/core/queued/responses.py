"""The Queue Manager Response of the queued publish/subscribe interface (spec D §3.7): the
``<pscr>`` folder for ok, warning and error (R-RSP-2..4), the response's MQRFH2 with the
command's psc copied as its second folder, its MQMD, and whether a response is sent at all
given the command's MsgType and Report PAN/NAN (R-RSP-1, the table of D §3.3)."""

from __future__ import annotations

from collections.abc import Sequence

from mqlite import cmqc as C
from mqlite.message import MessageDescriptor
from mqlite.protocol.rfh2 import Rfh1Header, Rfh2Header, encode_header, encode_rfh1
from mqlite.protocol.rfh2_folders import Element, Folder, serialize

from . import rfh1
from .commands import Refusal
from .registration import Registration

UTF8 = 1208
PUT_APPL_NAME_LENGTH = 28


def _response(reason: int, echo: Sequence[Element]) -> Element:
    """One ``<Response>``: ``<Reason>`` first, then the psc properties naming the cause (R-RSP-3)."""
    return Element(C.MQPSCR_RESPONSE, children=(Element(C.MQPSCR_REASON, str(reason)), *echo))


def ok() -> Folder:
    """``<pscr><Completion>ok</Completion></pscr>``: no Response (R-RSP-4; D:TV-3)."""
    return Folder.of(C.MQRFH2_PUBSUB_RESP_FOLDER, (C.MQPSCR_COMPLETION, C.MQPSCR_OK))


def error(refusal: Refusal) -> Folder:
    """``error`` with exactly one Response, the first error's (R-RSP-2; D:TV-4)."""
    return Folder.of(C.MQRFH2_PUBSUB_RESP_FOLDER, (C.MQPSCR_COMPLETION, C.MQPSCR_ERROR),
                     _response(refusal.reason, refusal.echo))


def warning(warnings: Sequence[Refusal]) -> Folder:
    """``warning`` with one Response per warning, in order (R-RSP-2)."""
    if not warnings:
        raise ValueError("a warning response has at least one Response")
    return Folder.of(C.MQRFH2_PUBSUB_RESP_FOLDER, (C.MQPSCR_COMPLETION, C.MQPSCR_WARNING),
                     *(_response(item.reason, item.echo) for item in warnings))


def completion(pscr: Folder) -> str:
    return pscr.get(C.MQPSCR_COMPLETION) or ""


def response_required(md: MessageDescriptor, outcome: str) -> bool:
    """R-RSP-1 (D §3.3): a REQUEST is always answered; any other MsgType (DATAGRAM, and REPLY or
    REPORT by the DECISION) by its Report: PAN for ok, NAN for error, either for a warning."""
    if md.MsgType == C.MQMT_REQUEST:
        return True
    pan, nan = bool(md.Report & C.MQRO_PAN), bool(md.Report & C.MQRO_NAN)
    if outcome == C.MQPSCR_OK:
        return pan
    if outcome == C.MQPSCR_ERROR:
        return nan
    return pan or nan


def response_header(pscr: Folder) -> Rfh2Header:
    """The response's MQRFH2 (D §3.7 DECISION): Encoding 546, CodedCharSetId -2, Format
    MQFMT_NONE, NameValueCCSID 1208; its folders are the pscr (the psc, if any, is added as
    bytes by ``response_data``)."""
    return Rfh2Header((pscr,), C.MQENC_NATIVE, C.MQCCSI_INHERIT, C.MQFMT_NONE, C.MQRFH_NONE, UTF8)


def response_data(pscr: Folder, psc: bytes | None = None, ccsid: int = UTF8, described: Folder | None = None) -> bytes:
    """The response's message data: one MQRFH2 whose first NameValueData is ``pscr`` and, for a
    warning or an error, the second the command's psc NameValueData as it arrived (``psc``, a byte
    copy, D §3.7); no body. ``ccsid`` is the MQMD's (the queue manager's). ``described``: an ok
    FullResp's subscription (``full_response``), the second folder instead."""
    header = response_header(pscr)
    raw = [serialize(pscr).encode("utf-8")]
    if psc is not None and completion(pscr) != C.MQPSCR_OK:
        raw.append(psc)
    elif described is not None:
        raw.append(serialize(described).encode("utf-8"))
    return encode_header(header, C.MQENC_NATIVE, ccsid, raw_folders=raw)


def response_md(command: MessageDescriptor, qmgr_name: str, ccsid: int = UTF8) -> MessageDescriptor:
    """The response's MQMD (D §3.7, D:S-21): MsgType REPLY, Report 0, Format MQHRF2; MsgId the
    command's with MQRO_PASS_MSG_ID, else MQMI_NONE (a new one at the put); CorrelId the command's
    with MQRO_PASS_CORREL_ID, else its MsgId; Priority, Persistence and Expiry the command's;
    PutApplType MQAT_BROKER, PutApplName the queue manager's name (28 characters); identity
    context copied. Addressed to the command's ReplyToQ/ReplyToQMgr."""
    msg_id = command.MsgId if command.Report & C.MQRO_PASS_MSG_ID else C.MQMI_NONE
    correl_id = command.CorrelId if command.Report & C.MQRO_PASS_CORREL_ID else command.MsgId
    return MessageDescriptor(
        Report=C.MQRO_NONE, MsgType=C.MQMT_REPLY, Format=C.MQFMT_RF_HEADER_2,
        Encoding=C.MQENC_NATIVE, CodedCharSetId=ccsid, MsgId=msg_id, CorrelId=correl_id,
        Priority=command.Priority, Persistence=command.Persistence, Expiry=command.Expiry,
        PutApplType=C.MQAT_BROKER, PutApplName=qmgr_name[:PUT_APPL_NAME_LENGTH],
        UserIdentifier=command.UserIdentifier, AccountingToken=command.AccountingToken,
        ApplIdentityData=command.ApplIdentityData,
    )


def full_response(registration: Registration, user_data_given: bool = True) -> Folder:
    """FullResp's description of a subscription (D §5.4, A-21): a psc with Command RegSub, its
    Topic, SubPoint and Filter, one RegOpt per option set (the effective persistence option
    among them), QMgrName, QName, SubName, SubUserData and one SubIdentity per member."""
    children: list[tuple[str, str] | Element] = [(C.MQPSC_COMMAND, C.MQPSC_REGISTER_SUBSCRIBER),
                                                 (C.MQPSC_TOPIC, registration.topic)]
    if registration.sub_point:
        children.append((C.MQPSC_SUBSCRIPTION_POINT, registration.sub_point))
    if registration.filter:
        children.append((C.MQPSC_FILTER, registration.filter))
    for option in [*sorted(registration.options), registration.persistence]:
        children.append((C.MQPSC_REGISTRATION_OPTION, option))
    children += [(C.MQPSC_Q_MGR_NAME, registration.identity.qmgr_name),
                 (C.MQPSC_Q_NAME, registration.identity.q_name)]
    if registration.sub_name:
        children.append((C.MQPSC_SUBSCRIPTION_NAME, registration.sub_name))
    if registration.user_data and user_data_given:
        children.append((C.MQPSC_SUBSCRIPTION_USER_DATA, registration.user_data))
    children += [(C.MQPSC_SUBSCRIPTION_IDENTITY, member) for member in registration.members]
    return Folder.of(C.MQRFH2_PUBSUB_CMD_FOLDER, *children)


def response_data_rfh1(pscr: Folder, command: Sequence[tuple[str, str]], ccsid: int = UTF8) -> bytes:
    """A version 6 command's response: an MQRFH whose NameValueString says what ``pscr`` says
    (``rfh1.response_pairs``), no body."""
    pairs = rfh1.response_pairs(completion(pscr), [c for c in pscr.children if c.name == C.MQPSCR_RESPONSE],
                                command)
    return encode_rfh1(Rfh1Header(tuple(pairs), C.MQENC_NATIVE, C.MQCCSI_INHERIT, C.MQFMT_NONE), C.MQENC_NATIVE,
                       ccsid)
