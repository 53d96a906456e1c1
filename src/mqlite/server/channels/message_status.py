"""DISPLAY CHSTATUS of a message channel: what its agent counts while it runs, IBM's keywords."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from mqlite.core import attributes


@dataclass(eq=False)
class ChannelStatus:
    """One message channel's current status (a sender's, or one receiving connection's)."""

    channel: str
    chltype: str
    conname: str = ""
    xmitq: str = ""
    rqmname: str = ""  # the partner queue manager
    status: str = "STARTING"  # BINDING, STARTING, RUNNING, RETRYING, STOPPED, INACTIVE
    substate: str = ""
    msgs: int = 0
    batches: int = 0
    cur_seq: int = 0  # CURSEQNO: the last sequence number sent or received
    last_seq: int = 0  # LSTSEQNO: the last sequence number committed
    indoubt: bool = False
    cur_msgs: int = 0  # CURMSGS: messages of the batch in progress
    bytes_sent: int = 0
    bytes_received: int = 0
    last_message: float = 0.0
    started: float = field(default_factory=time.time)
    retries_left: tuple[int, int] = (0, 0)  # SHORTRTS, LONGRTS
    error: str = ""  # why it is RETRYING or STOPPED, for the error log and tests
    xqmsgsa: int = 0  # messages available on the transmission queue (filled in by the agent)
    tls: dict[str, str] = field(default_factory=dict)  # SECPROT, SSLPEER, SSLCERTI (server.tls_rules.status)

    def row(self) -> dict[str, Any]:
        date, clock = attributes.date_and_time(self.started)
        row: dict[str, Any] = {
            "CHANNEL": self.channel, "CHLTYPE": self.chltype, "CONNAME": self.conname, "CURRENT": True,
            "STATUS": self.status, "SUBSTATE": self.substate, "MSGS": self.msgs, "BATCHES": self.batches,
            "CURSEQNO": self.cur_seq, "LSTSEQNO": self.last_seq, "INDOUBT": "YES" if self.indoubt else "NO",
            "CURMSGS": self.cur_msgs, "BYTSSENT": self.bytes_sent, "BYTSRCVD": self.bytes_received,
            "RQMNAME": self.rqmname, "CHSTADA": date, "CHSTATI": clock,
            "SHORTRTS": self.retries_left[0], "LONGRTS": self.retries_left[1],
        }
        row.update(self.tls)
        if self.last_message:
            row["LSTMSGDA"], row["LSTMSGTI"] = attributes.date_and_time(self.last_message)
        if self.chltype in ("SDR", "SVR", "CLUSSDR"):
            row["XMITQ"] = self.xmitq
            row["XQMSGSA"] = self.xqmsgsa
        return row
