"""Queued publish/subscribe from tests: command messages put as a v6 program puts them (an
MQRFH2 with a psc folder, MQMD fields set by hand, the user's identity context), and their
responses and publications read back and decoded."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import mqlite as pymqi
from mqlite import cmqc as C
from mqlite.protocol import rfh2
from mqlite.protocol.rfh2_folders import Folder, parse

CONTROL = "SYSTEM.BROKER.CONTROL.QUEUE"
DEFAULT_STREAM = "SYSTEM.BROKER.DEFAULT.STREAM"


def command_data(psc: str, body: bytes = b"", body_format: str = C.MQFMT_STRING, *extra: str) -> bytes:
    """An MQRFH2 holding ``psc`` (XML text) and ``extra`` folders, then ``body``."""
    folders = tuple(parse(text) for text in (*extra, psc))
    header = rfh2.Rfh2Header(rfh2.in_encoder_order(folders), C.MQENC_NATIVE, C.MQCCSI_INHERIT,
                             body_format.strip())
    return rfh2.encode([header], body)


def put_command(qm: Any, queue: str, psc: str, body: bytes = b"", *, user: str = "", msg_type: int = C.MQMT_REQUEST,
                report: int = 0, reply_q: str = "SUB.Q", reply_qmgr: str = "", correl_id: bytes = C.MQCI_NONE,
                persistence: int = C.MQPER_NOT_PERSISTENT, priority: int = 0, expiry: int = C.MQEI_UNLIMITED,
                extra: tuple[str, ...] = (), data: bytes | None = None, fmt: str = C.MQFMT_RF_HEADER_2) -> bytes:
    """Put one command message (as ``user``, with set identity context) and return its MsgId."""
    md = pymqi.MD(Format=fmt.encode(), MsgType=msg_type, Report=report, ReplyToQ=reply_q.encode(),
                  ReplyToQMgr=reply_qmgr.encode(), CorrelId=correl_id, Persistence=persistence, Priority=priority,
                  Expiry=expiry, UserIdentifier=user.encode())
    pmo = pymqi.PMO(Options=C.MQPMO_NO_SYNCPOINT | C.MQPMO_NEW_MSG_ID | (C.MQPMO_SET_IDENTITY_CONTEXT if user else 0))
    options = C.MQOO_OUTPUT | (C.MQOO_SET_IDENTITY_CONTEXT if user else 0)
    with pymqi.Queue(qm, queue, options) as q:
        q.put(command_data(psc, body, C.MQFMT_STRING, *extra) if data is None else data, md, pmo)
    return bytes(md.MsgId)


@dataclass
class Got:
    md: Any
    data: bytes
    decoded: rfh2.Decoded

    @property
    def psc(self) -> Folder | None:
        return self.decoded.command()

    @property
    def pscr(self) -> Folder | None:
        return self.decoded.command(C.MQRFH2_PUBSUB_RESP_FOLDER)

    @property
    def completion(self) -> str | None:
        return self.pscr.get("Completion") if self.pscr is not None else None

    @property
    def reasons(self) -> list[int]:
        assert self.pscr is not None
        return [int(r.get("Reason") or 0) for r in self.pscr.children if r.name == "Response"]

    @property
    def folders(self) -> list[Folder]:
        return list(self.decoded.headers[0].folders)


def get(qm: Any, queue: str, wait_ms: int = 30_000, correl_id: bytes | None = None) -> Got:
    """The next message on ``queue`` (waiting up to ``wait_ms`` for it to come), decoded."""
    md = pymqi.MD()
    gmo = pymqi.GMO(Options=C.MQGMO_WAIT | C.MQGMO_NO_SYNCPOINT, WaitInterval=wait_ms)
    if correl_id is not None:
        md.CorrelId = correl_id
        gmo.MatchOptions = C.MQMO_MATCH_CORREL_ID
    with pymqi.Queue(qm, queue) as q:
        data = q.get(None, md, gmo)
    return Got(md, data, rfh2.decode(data, md.Format.decode(), md.Encoding, md.CodedCharSetId))


def nothing_on(qm: Any, queue: str) -> bool:
    """True when ``queue`` holds no message now."""
    with pymqi.Queue(qm, queue, C.MQOO_INQUIRE) as q:
        return int(q.inquire(C.MQIA_CURRENT_Q_DEPTH)) == 0


def put_rfh1(qm: Any, queue: str, pairs: list[tuple[str, str]], body: bytes = b"", *, user: str = "",
             reply_q: str = "REPLY.Q", msg_type: int = C.MQMT_REQUEST, correl_id: bytes = C.MQCI_NONE) -> bytes:
    """A version 6 command: an MQRFH whose NameValueString is ``pairs``, then ``body``."""
    data = rfh2.encode_rfh1(rfh2.Rfh1Header(tuple(pairs), C.MQENC_NATIVE, C.MQCCSI_INHERIT, C.MQFMT_STRING.strip()))
    return put_command(qm, queue, "", user=user, reply_q=reply_q, msg_type=msg_type, correl_id=correl_id,
                       data=data + body, fmt=C.MQFMT_RF_HEADER)


@dataclass
class GotRfh1:
    md: Any
    header: rfh2.Rfh1Header
    body: bytes


def get_rfh1(qm: Any, queue: str, correl_id: bytes | None = None) -> GotRfh1:
    md = pymqi.MD()
    gmo = pymqi.GMO(Options=C.MQGMO_WAIT | C.MQGMO_NO_SYNCPOINT, WaitInterval=30_000)
    if correl_id is not None:
        md.CorrelId = correl_id
        gmo.MatchOptions = C.MQMO_MATCH_CORREL_ID
    with pymqi.Queue(qm, queue) as q:
        data = q.get(None, md, gmo)
    assert md.Format.decode().strip() == C.MQFMT_RF_HEADER.strip(), md.Format
    header, body = rfh2.decode_rfh1(data, md.Encoding, md.CodedCharSetId)
    return GotRfh1(md, header, body)
