"""The pure pieces of the client's calls: where to connect, and requests and replies.

Resolving a queue manager name to a socket address (local Unix socket, ``host(port)``,
``MQSERVER``), building the PUT and GET arguments from pymqi structures and Pythonic keywords,
and turning GET replies (or read-ahead messages) into ``ReceivedMessage`` objects. The calls
that use them are in ``mqlite.client.mqi``; the connection state in ``mqlite.client.session``.
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass
from typing import Any

from mqlite import cmqc, paths
from mqlite.client.errors import MQMIError
from mqlite.client.session import AsyncPuts, raise_for
from mqlite.client.structs import GMO, MD, PMO, gmo_to_wire, ident, md_fill, md_to_wire, text
from mqlite.client.tls import TlsOptions
from mqlite.message import MD_FIELDS, MessageDescriptor

DEFAULT_PORT = 1414
DEFAULT_CHANNEL = "DEV.APP.SVRCONN"  # as IBM's developer configuration: for applications

# GET options that need the queue manager itself: browsing, cursors, locks, marks, syncpoint.
_SERVER_ONLY_GMO = (
    cmqc.MQGMO_BROWSE_FIRST | cmqc.MQGMO_BROWSE_NEXT | cmqc.MQGMO_BROWSE_MSG_UNDER_CURSOR
    | cmqc.MQGMO_MSG_UNDER_CURSOR | cmqc.MQGMO_LOCK | cmqc.MQGMO_UNLOCK | cmqc.MQGMO_SYNCPOINT
    | cmqc.MQGMO_SYNCPOINT_IF_PERSISTENT | cmqc.MQGMO_MARK_BROWSE_HANDLE | cmqc.MQGMO_MARK_BROWSE_CO_OP
    | cmqc.MQGMO_UNMARK_BROWSE_CO_OP | cmqc.MQGMO_UNMARK_BROWSE_HANDLE | cmqc.MQGMO_UNMARKED_BROWSE_MSG
    | cmqc.MQGMO_LOGICAL_ORDER | cmqc.MQGMO_ALL_MSGS_AVAILABLE
)
_MSG_ID, _CORREL_ID, _GROUP_ID = 9, 10, 22  # positions in MD_FIELDS
_NULL_ID = bytes(24)


# ---------------------------------------------------------------------------
# Where to connect.


@dataclass(frozen=True)
class Endpoint:
    """One address to try: a Unix socket path (``unix``) or a TCP ``host``/``port``."""

    unix: str | None = None
    host: str | None = None
    port: int = DEFAULT_PORT

    def __str__(self) -> str:
        return f"{self.host}({self.port})" if self.unix is None else f"local {self.unix!r}"


@dataclass(frozen=True)
class Target:
    """A queue manager to reach: the name sent in CONNECT and the addresses to try in order."""

    qmgr: str
    endpoints: tuple[Endpoint, ...]
    channel: str = DEFAULT_CHANNEL
    tls: TlsOptions | None = None  # TLS to the channel (client mode only)
    cd_fields: tuple[tuple[str, int], ...] = ()  # what a CD asked for (MaxMsgLength, ...)

    @property
    def local(self) -> bool:
        return bool(self.endpoints) and self.endpoints[0].unix is not None

    def channel_definition(self) -> dict[str, Any]:
        """The CONNECT request's channel map: the SVRCONN channel named (none when local) and
        the CD's values the queue manager negotiates with its channel's."""
        return {**dict(self.cd_fields), "ChannelName": "" if self.local else self.channel}


_CONN_NAME = re.compile(r"^\s*\[?([^()\[\]]+?)\]?\s*(?:\((\d+)\))?\s*$")


def parse_conn_info(conn_info: str) -> tuple[Endpoint, ...]:
    """IBM's CONNAME: ``host(port)``, a comma-separated list of them; also ``host:port``."""
    endpoints = []
    for item in conn_info.split(","):
        item = item.strip()
        if not item:
            continue
        if "(" not in item and item.count(":") == 1:
            host, _, port = item.partition(":")
            endpoints.append(Endpoint(host=host, port=int(port)))
            continue
        match = _CONN_NAME.match(item)
        if match is None:
            raise MQMIError(cmqc.MQCC_FAILED, cmqc.MQRC_HOST_NOT_AVAILABLE, text=f"bad CONNAME {item!r}")
        endpoints.append(Endpoint(host=match[1], port=int(match[2] or DEFAULT_PORT)))
    if not endpoints:
        raise MQMIError(cmqc.MQCC_FAILED, cmqc.MQRC_HOST_NOT_AVAILABLE, text="empty CONNAME")
    return tuple(endpoints)


def parse_mqserver(value: str) -> tuple[str, tuple[Endpoint, ...]]:
    """IBM's ``MQSERVER=CHANNEL/TCP/host(port)``: the channel and the addresses."""
    parts = value.split("/", 2)
    if len(parts) != 3 or parts[1].strip().upper() != "TCP":
        raise MQMIError(cmqc.MQCC_FAILED, cmqc.MQRC_HOST_NOT_AVAILABLE, text=f"bad MQSERVER {value!r}")
    return parts[0].strip(), parse_conn_info(parts[2])


def resolve_target(qmgr_name: str | bytes | None, *, host: str | None = None, port: int | None = None,
                   channel: str | bytes | None = None, conn_info: str | bytes | None = None,
                   tls: TlsOptions | None = None) -> Target:
    """Decide where ``connect`` goes, in this order:

    1. ``host``/``port`` or ``conn_info`` given: client mode over TCP;
    2. ``qmgr_name`` is a queue manager of this machine (``$MQLITE_HOME``): its Unix socket;
    3. no name and a default queue manager exists (``crtmqm -q``): its Unix socket;
    4. ``MQSERVER`` is set: client mode to the address it names;
    5. otherwise MQRC_Q_MGR_NAME_ERROR (2058), as IBM's MQCONN for an unknown name.

    ``tls`` applies to client mode (a local connection does not leave the machine).
    """
    name = text(qmgr_name) if qmgr_name is not None else ""
    chan = text(channel) if channel is not None else ""
    if conn_info is not None:
        return Target(name, parse_conn_info(text(conn_info)), chan or DEFAULT_CHANNEL, tls=tls)
    if host is not None or port is not None:
        return Target(name, (Endpoint(host=host or "127.0.0.1", port=port or DEFAULT_PORT),),
                      chan or DEFAULT_CHANNEL, tls=tls)
    local = name or paths.default_qmgr() or ""
    if local and paths.qmgr_dir(local).is_dir():
        return Target(local, (Endpoint(unix=paths.socket_address(local)),))
    mqserver = os.environ.get("MQSERVER")
    if mqserver:
        mq_channel, endpoints = parse_mqserver(mqserver)
        return Target(name, endpoints, chan or mq_channel, tls=tls)
    raise MQMIError(cmqc.MQCC_FAILED, cmqc.MQRC_Q_MGR_NAME_ERROR,
                    text=f"no queue manager {name!r} here" if name else "no default queue manager")


def appl_name() -> str:
    """PutApplName as MQ sets it: the program's file name, at most 28 characters."""
    program = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else "python"
    return program[-28:]


# ---------------------------------------------------------------------------
# Replies.


# Publish/subscribe property names and their MQRFH2 synonyms (spec C §5.1, R-PROP-1).
PROPERTY_SYNONYMS = {
    "MQTopicString": "mqps.Top", "MQSubUserData": "mqps.Sud", "MQIsRetained": "mqps.Ret",
    "MQPubOptions": "mqps.Pub", "MQPubLevel": "mqps.Pbl", "MQPubTime": "mqpse.Pts",
    "MQPubSeqNum": "mqpse.Seq", "MQPubStrIntData": "mqpse.Sid", "MQPubFormat": "mqpse.Pfmt",
}
_SYNONYM = {**PROPERTY_SYNONYMS, **{v: k for k, v in PROPERTY_SYNONYMS.items()}}


class Properties(dict[str, Any]):
    """A message's properties: a dict where a pub/sub property answers to its MQRFH2 name too
    ('mqps.Top' and 'MQTopicString' are the same property, as MQINQMP takes either)."""

    def __missing__(self, key: str) -> Any:
        other = _SYNONYM.get(key)
        if other is not None and dict.__contains__(self, other):
            return dict.__getitem__(self, other)
        raise KeyError(key)

    def __contains__(self, key: object) -> bool:
        return dict.__contains__(self, key) or (isinstance(key, str) and dict.__contains__(self, _SYNONYM.get(key)))

    def get(self, key: str, default: Any = None) -> Any:
        try:
            return self[key]
        except KeyError:
            return default


class ReceivedMessage(bytes):
    """What ``get`` returns: the body as ``bytes`` (pymqi), plus ``md`` and ``properties``."""

    data_length: int
    _md: MD | None
    _md_wire: list[Any] | None
    _properties: dict[str, Any]

    def __new__(cls, body: bytes, md: MD | None, properties: dict[str, Any], data_length: int | None = None,
                md_wire: list[Any] | None = None) -> ReceivedMessage:
        self = super().__new__(cls, body)
        self._md = md
        self._md_wire = md_wire  # the MD is built from it when first asked for
        self._properties = properties  # wrapped (synonyms) when first asked for
        self.data_length = len(body) if data_length is None else data_length
        return self

    @property
    def properties(self) -> Properties:
        props = self._properties
        if not isinstance(props, Properties):
            props = self._properties = Properties(props)
        return props

    @property
    def md(self) -> MD:
        if self._md is None:
            md = MD()
            if self._md_wire is not None:
                md_fill(md, self._md_wire)
            self._md = md
        return self._md

    @property
    def body(self) -> bytes:
        return bytes(self)

    @property
    def text(self) -> str:
        """The body decoded as UTF-8 (mqlite's CCSID 1208)."""
        return self.decode("utf-8")

    @property
    def msg_id(self) -> bytes:
        return bytes(self.md.MsgId)

    @property
    def correl_id(self) -> bytes:
        return bytes(self.md.CorrelId)

    def __repr__(self) -> str:
        return f"ReceivedMessage({bytes(self)!r}, properties={self.properties!r})"


# ---------------------------------------------------------------------------
# Building requests.

_DEFAULT_MD: list[Any] = MessageDescriptor().to_list()
_CCSID = MD_FIELDS.index("CodedCharSetId")
_GET_FIELDS = tuple((MD_FIELDS.index(n), n) for n in ("MsgId", "CorrelId", "GroupId", "Encoding", "CodedCharSetId"))
_ID_POSITIONS = frozenset({_MSG_ID, _CORREL_ID, _GROUP_ID})
_FIELD = {name: i for i, name in enumerate(
    ("Report", "MsgType", "Expiry", "Feedback", "Encoding", "CodedCharSetId", "Format", "Priority",
     "Persistence", "MsgId", "CorrelId", "BackoutCount", "ReplyToQ", "ReplyToQMgr"))}


def put_md(md: MD | None, ccsid: int, *, persistent: bool | None = None, priority: int | None = None,
           expiry: float | None = None, msg_id: bytes | None = None, correl_id: bytes | None = None,
           format: str | None = None, reply_to: str | None = None, reply_to_qmgr: str | None = None,
           msg_type: int | None = None) -> list[Any]:
    """The wire MQMD of a put: the caller's MD (or the default) with the keyword overrides.

    ``expiry`` is in seconds (MQ counts tenths); ``persistent`` maps to MQPER_*.
    """
    wire = md_to_wire(md, ccsid) if md is not None else list(_DEFAULT_MD)
    if md is None and ccsid != wire[5]:
        wire[5] = ccsid
    if persistent is not None:
        wire[_FIELD["Persistence"]] = cmqc.MQPER_PERSISTENT if persistent else cmqc.MQPER_NOT_PERSISTENT
    if priority is not None:
        wire[_FIELD["Priority"]] = int(priority)
    if expiry is not None:
        wire[_FIELD["Expiry"]] = max(1, round(expiry * 10))
    if msg_id is not None:
        wire[_MSG_ID] = ident(msg_id, 24)
    if correl_id is not None:
        wire[_CORREL_ID] = ident(correl_id, 24)
    if format is not None:
        wire[_FIELD["Format"]] = text(format)
    if reply_to is not None:
        wire[_FIELD["ReplyToQ"]] = text(reply_to)
    if reply_to_qmgr is not None:
        wire[_FIELD["ReplyToQMgr"]] = text(reply_to_qmgr)
    if msg_type is not None:
        wire[_FIELD["MsgType"]] = int(msg_type)
    return wire


def put_options(pmo: PMO | None, *, syncpoint: bool | None = None, asynchronous: bool | None = None) -> int:
    options = int(pmo.Options) if pmo is not None else cmqc.MQPMO_NONE
    if syncpoint is not None:
        options &= ~(cmqc.MQPMO_SYNCPOINT | cmqc.MQPMO_NO_SYNCPOINT)
        options |= cmqc.MQPMO_SYNCPOINT if syncpoint else cmqc.MQPMO_NO_SYNCPOINT
    if asynchronous is not None:
        options &= ~(cmqc.MQPMO_ASYNC_RESPONSE | cmqc.MQPMO_SYNC_RESPONSE)
        options |= cmqc.MQPMO_ASYNC_RESPONSE if asynchronous else cmqc.MQPMO_SYNC_RESPONSE
    return options


def prepare_async(wire: list[Any], options: int, puts: AsyncPuts) -> int:
    """Give an asynchronous put its MsgId here (IBM's client does too); returns the options."""
    if wire[_MSG_ID] == _NULL_ID or options & cmqc.MQPMO_NEW_MSG_ID:
        wire[_MSG_ID] = puts.new_msg_id()
        options &= ~cmqc.MQPMO_NEW_MSG_ID
    if options & cmqc.MQPMO_SYNCPOINT:
        puts.in_syncpoint = True
    return options


def encode_body(msg: bytes | str, md: MD | None, encoding: str, ccsid: int) -> tuple[bytes, MD | None]:
    """pymqi's rule: a ``str`` body is encoded and marked MQFMT_STRING with the default CCSID."""
    if isinstance(msg, bytes | bytearray | memoryview):
        return bytes(msg), md
    if isinstance(msg, str):
        md = md if md is not None else MD()
        md.Format = cmqc.MQFMT_STRING
        md.CodedCharSetId = ccsid
        return msg.encode(encoding), md
    raise TypeError(f"Message type is {type(msg)}. Convert to bytes.")


def get_request(md: MD | None, gmo: GMO | None, *, wait: float | None = None,
                msg_id: bytes | None = None, correl_id: bytes | None = None,
                syncpoint: bool | None = None, ccsid: int = 1208) -> tuple[list[Any], dict[str, int]]:
    """The wire MQMD (match fields) and GMO of a get; ``wait`` in seconds (``None``: the
    GMO's own wait; negative or infinite: unlimited)."""
    md_wire = list(_DEFAULT_MD)
    if gmo is not None:
        gmo.check_version()
    if md is not None:  # a get reads only the match ids (and conversion's CCSID and encoding)
        md.check_version()
        for position, name in _GET_FIELDS:
            value = getattr(md, name)
            if position in _ID_POSITIONS:
                if value:
                    md_wire[position] = ident(value, 24)
            else:
                md_wire[position] = int(value) if value or position != _CCSID else ccsid
    gmo_wire = gmo_to_wire(gmo) if gmo is not None else {
        "Options": cmqc.MQGMO_NO_WAIT, "WaitInterval": 0,
        "MatchOptions": cmqc.MQMO_MATCH_MSG_ID | cmqc.MQMO_MATCH_CORREL_ID}
    if wait is not None:
        if wait < 0 or wait == float("inf"):
            gmo_wire["Options"] |= cmqc.MQGMO_WAIT
            gmo_wire["WaitInterval"] = cmqc.MQWI_UNLIMITED
        elif wait > 0:
            gmo_wire["Options"] |= cmqc.MQGMO_WAIT
            gmo_wire["WaitInterval"] = max(1, round(wait * 1000))
        else:
            gmo_wire["Options"] &= ~cmqc.MQGMO_WAIT
            gmo_wire["WaitInterval"] = 0
    if msg_id is not None:
        md_wire[_MSG_ID] = ident(msg_id, 24)
        gmo_wire["MatchOptions"] |= cmqc.MQMO_MATCH_MSG_ID
    if correl_id is not None:
        md_wire[_CORREL_ID] = ident(correl_id, 24)
        gmo_wire["MatchOptions"] |= cmqc.MQMO_MATCH_CORREL_ID
    if syncpoint is not None:
        gmo_wire["Options"] &= ~(cmqc.MQGMO_SYNCPOINT | cmqc.MQGMO_NO_SYNCPOINT)
        gmo_wire["Options"] |= cmqc.MQGMO_SYNCPOINT if syncpoint else cmqc.MQGMO_NO_SYNCPOINT
    return md_wire, gmo_wire


def match_ids(md_wire: list[Any]) -> list[bytes]:
    """What a GET request carries of its wire MQMD: the ids the queue manager may match on."""
    return [md_wire[_MSG_ID], md_wire[_CORREL_ID]]


def read_ahead_eligible(gmo_wire: dict[str, int], md_wire: list[Any]) -> bool:
    """A get the local buffer may satisfy: destructive, outside syncpoint, matching nothing."""
    if gmo_wire["Options"] & _SERVER_ONLY_GMO:
        return False
    match = gmo_wire["MatchOptions"]
    if match & cmqc.MQMO_MATCH_MSG_ID and md_wire[_MSG_ID] != _NULL_ID:
        return False
    if match & cmqc.MQMO_MATCH_CORREL_ID and md_wire[_CORREL_ID] != _NULL_ID:
        return False
    return not (match & cmqc.MQMO_MATCH_GROUP_ID and md_wire[_GROUP_ID] != _NULL_ID)


def max_length_of(max_length: int | None) -> int:
    """pymqi's ``maxLength=None`` means "the whole message": the wire's -1."""
    return -1 if max_length is None else int(max_length)


def from_buffer(item: list[Any], max_length: int, options: int) -> tuple[int, int, list[Any]]:
    """A read-ahead message as a GET reply would carry it (truncation included)."""
    md_wire, props, body = item
    size = len(body)
    if 0 <= max_length < size:
        if options & cmqc.MQGMO_ACCEPT_TRUNCATED_MSG:
            truncated = [md_wire, props, body[:max_length], size]
            return cmqc.MQCC_WARNING, cmqc.MQRC_TRUNCATED_MSG_ACCEPTED, truncated
        return cmqc.MQCC_FAILED, cmqc.MQRC_TRUNCATED_MSG_FAILED, [md_wire, props, b"", size]
    return cmqc.MQCC_OK, cmqc.MQRC_NONE, [md_wire, props, body, size]


def finish_get(cc: int, reason: int, result: Any, md: MD | None, gmo: GMO | None) -> ReceivedMessage:
    """Turn a GET reply into the message, filling ``md`` (and the GMO's message handle) in
    place as pymqi does; warnings and failures raise ``MQMIError`` like pymqi (a truncated
    message rides on the error as ``message`` and ``original_length``)."""
    if cc == cmqc.MQCC_FAILED and not isinstance(result, list):
        raise_for(cc, reason, result)
    md_wire, props, body, data_length = result
    if cc != cmqc.MQCC_FAILED:
        if md is not None:
            md_fill(md, md_wire)
        if gmo is not None:
            gmo.ReturnedLength = len(body)
            if gmo.MsgHandle:
                from mqlite.client.handles import deliver_properties

                deliver_properties(int(gmo.MsgHandle), props)
    # With no MD given, the MD is built only if the application looks at it.
    message = ReceivedMessage(body, md, props, data_length, md_wire if cc != cmqc.MQCC_FAILED else None)
    if cc != cmqc.MQCC_OK:
        raise MQMIError(cc, reason, message=message, original_length=data_length)
    return message
