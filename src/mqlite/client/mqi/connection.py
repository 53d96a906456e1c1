"""The calls of a connection as a whole (pymqi's ``QueueManager``): units of work, MQPUT1,
MQINQ on the queue manager, MQSTAT, MQSC, and the offsets calls of stream readers."""

from __future__ import annotations

from typing import Any

from mqlite import cmqc
from mqlite.client.common import ReceivedMessage
from mqlite.client.errors import MQMIError
from mqlite.client.mqi.put import keyword_split, put_step
from mqlite.client.session import Plan, Session, call, raise_for
from mqlite.client.structs import MD, OD, PMO, STS, CharField, md_fill, od_to_wire, text
from mqlite.protocol import native_shapes
from mqlite.protocol.native import Op

__all__ = ["QueueManagerCore", "inquired_value", "make_q_desc"]

# IBM's lengths of character attributes, so MQINQ values come back blank-padded like pymqi's.
_CHAR_ATTR_LENGTHS = {
    getattr(cmqc, name): length for name, length in (
        ("MQCA_Q_MGR_NAME", 48), ("MQCA_Q_NAME", 48), ("MQCA_Q_DESC", 64), ("MQCA_Q_MGR_DESC", 64),
        ("MQCA_BASE_Q_NAME", 48), ("MQCA_REMOTE_Q_NAME", 48), ("MQCA_REMOTE_Q_MGR_NAME", 48),
        ("MQCA_XMIT_Q_NAME", 48), ("MQCA_DEAD_LETTER_Q_NAME", 48), ("MQCA_BACKOUT_REQ_Q_NAME", 48),
        ("MQCA_CREATION_DATE", 12), ("MQCA_CREATION_TIME", 8), ("MQCA_ALTERATION_DATE", 12),
        ("MQCA_ALTERATION_TIME", 8), ("MQCA_INITIATION_Q_NAME", 48), ("MQCA_PROCESS_NAME", 48),
        ("MQCA_TRIGGER_DATA", 64), ("MQCA_CLUSTER_NAME", 48), ("MQCA_Q_MGR_IDENTIFIER", 48),
        ("MQCA_DEF_XMIT_Q_NAME", 48), ("MQCA_COMMAND_INPUT_Q_NAME", 48),
    )
}


def make_q_desc(q_desc: OD | str | bytes) -> OD:
    """An OD from a queue name, or the OD itself (pymqi's ``make_q_desc``)."""
    return OD(ObjectName=q_desc) if isinstance(q_desc, str | bytes) else q_desc


def inquired_value(selector: int, value: int | str) -> Any:
    """An MQINQ value as pymqi gives it: an integer, or blank-padded ``bytes``."""
    if isinstance(value, str):
        return CharField(value.encode("utf-8").ljust(_CHAR_ATTR_LENGTHS.get(selector, 0)))
    return value


class QueueManagerCore:
    """The state and calls of a connection handle; the blocking and asyncio ``QueueManager``
    add how they connect and run these plans."""

    bytes_encoding = "utf8"
    default_ccsid = 1208
    _qmobj: int | None = None  # the queue manager object, opened for MQINQ on first use

    def plan_commit(self, conn: Session) -> Plan[None]:
        """MQCMIT. If an asynchronous put of this unit of work failed, it is backed out instead
        and MQRC_BACKED_OUT (2003) raised: committing part of what was sent would lose messages."""
        puts = conn.async_puts
        if puts.in_syncpoint:
            yield from call(Op.PING, [])  # every PUSH_ERROR sent before the reply has now been read
            puts.in_syncpoint = False
            if puts.failures:
                yield from call(Op.BACKOUT, [])
                count = len(puts.failures)
                puts.failures.clear()
                raise MQMIError(cmqc.MQCC_FAILED, cmqc.MQRC_BACKED_OUT, failures=count)
        yield from call(Op.COMMIT, [])

    def plan_backout(self, conn: Session) -> Plan[None]:
        conn.async_puts.in_syncpoint = False
        yield from call(Op.BACKOUT, [])

    def plan_put1(self, conn: Session, q_desc: OD | str | bytes, msg: bytes | str, md: MD | None,
                  pmo: PMO | None, keywords: dict[str, Any]) -> Plan[None]:
        """MQPUT1: open, put one message, close, in one call; keywords as ``Queue.put``."""
        properties, syncpoint, asynchronous, md_fields = keyword_split(keywords)
        step, md = put_step(conn, Op.PUT1, [od_to_wire(make_q_desc(q_desc))], msg, md, pmo, self.bytes_encoding,
                            self.default_ccsid, properties, syncpoint, asynchronous, md_fields)
        reply = yield step
        if reply is not None:
            cc, reason, result = reply
            raise_for(cc, reason, result)
            if md is not None:
                md_fill(md, result)

    def plan_inquire(self, conn: Session, attribute: int) -> Plan[Any]:
        """MQINQ on the queue manager object."""
        if self._qmobj is None:
            od = {**native_shapes.OD_DEFAULTS, "ObjectType": cmqc.MQOT_Q_MGR}
            self._qmobj = (yield from call(Op.OPEN, [od, cmqc.MQOO_INQUIRE]))[0]
        values = yield from call(Op.INQ, [self._qmobj, [int(attribute)]])
        return inquired_value(attribute, values[0])

    def forget_qmgr_object(self) -> None:
        self._qmobj = None

    def plan_stat(self, conn: Session) -> Plan[STS]:
        """MQSTAT(MQSTAT_TYPE_ASYNC_ERROR): asynchronous-put outcomes since last asked.

        Reading the status also clears the failures the client would otherwise raise on the
        next put: they have been reported."""
        result = yield from call(Op.STAT, [])
        conn.async_puts.failures.clear()
        comp = (cmqc.MQCC_FAILED if result["put_failure"] else
                cmqc.MQCC_WARNING if result["put_warning"] else cmqc.MQCC_OK)
        return STS(CompCode=comp, Reason=result["reason"], PutSuccessCount=result["put_success"],
                   PutWarningCount=result["put_warning"], PutFailureCount=result["put_failure"])

    def plan_mqsc(self, conn: Session, command_text: str) -> Plan[tuple[int, list[str]]]:
        """MQSC commands run by the queue manager: (exit code 0/10/20, runmqsc's lines)."""
        code, lines = yield from call(Op.MQSC, [command_text])
        return int(code), list(lines)

    def plan_ping(self, conn: Session) -> Plan[None]:
        yield from call(Op.PING, [])

    # -- offsets (an mqlite addition, for stream readers such as the Spark source) --------------
    def plan_queue_offsets(self, conn: Session, queue: str) -> Plan[tuple[int, int]]:
        oldest, newest = yield from call(Op.OFFSETS, [queue])
        return int(oldest), int(newest)

    def plan_browse_range(self, conn: Session, queue: str, after: int, through: int, limit: int
                          ) -> Plan[list[tuple[int, ReceivedMessage]]]:
        items = yield from call(Op.BROWSE_RANGE, [queue, int(after), int(through), int(limit)])
        return [(int(seq), ReceivedMessage(body, None, props, len(body), md)) for seq, md, props, body in items]

    def plan_remove_through(self, conn: Session, queue: str, through: int) -> Plan[int]:
        return int((yield from call(Op.REMOVE_THROUGH, [queue, int(through)])))


def attribute_argument(value: Any) -> int | str:
    """An MQSET value as the wire carries it."""
    return text(value) if isinstance(value, bytes | str) else int(value)
