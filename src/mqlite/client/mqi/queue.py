"""The calls of a queue (pymqi's ``Queue``): MQOPEN when first needed, MQPUT, MQGET with the
read-ahead buffer, MQINQ, MQSET, MQCLOSE."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mqlite import cmqc
from mqlite.client import common
from mqlite.client.common import ReceivedMessage
from mqlite.client.errors import PYIFError
from mqlite.client.mqi.connection import QueueManagerCore, attribute_argument, inquired_value, make_q_desc
from mqlite.client.mqi.put import put_step
from mqlite.client.session import DRAIN, READ_AHEAD_WINDOW, Call, Plan, ReadAhead, Send, Session, call, raise_for
from mqlite.client.structs import GMO, MD, OD, PMO, md_fill, od_fill, od_to_wire, text
from mqlite.protocol import native
from mqlite.protocol.native import SENT_AHEAD, Op

__all__ = ["HandleSet", "QueueCore"]

_BROWSE_GMO = cmqc.MQGMO_BROWSE_FIRST | cmqc.MQGMO_BROWSE_NEXT | cmqc.MQGMO_BROWSE_MSG_UNDER_CURSOR

_INPUT_OPTIONS = cmqc.MQOO_INPUT_AS_Q_DEF | cmqc.MQOO_INPUT_SHARED | cmqc.MQOO_INPUT_EXCLUSIVE
# Which handle serves which need: puts, reads (get and browse share a handle, so a browse
# cursor and MQGMO_MSG_UNDER_CURSOR work together), inquire, set.
_ROLES = {cmqc.MQOO_OUTPUT: "out", cmqc.MQOO_INPUT_AS_Q_DEF: "in", cmqc.MQOO_BROWSE: "in",
          cmqc.MQOO_INQUIRE: "inq", cmqc.MQOO_SET: "set"}


@dataclass
class HandleSet:
    """The MQOPEN handles behind one ``Queue``.

    Opened with explicit options, a queue has one handle and never re-opens (pymqi). Opened
    implicitly, it opens one handle per need on first use (MQOO_OUTPUT for put,
    MQOO_INPUT_AS_Q_DEF for get...), so a put after a get never closes the handle a get may be
    waiting on; only the read handle re-opens, to add browse to input or the reverse.
    """

    explicit: int | None = None  # the one handle of an explicit open
    handles: dict[str, tuple[int, int]] = field(default_factory=dict)  # role -> (hobj, options)

    def plan(self, needed: int) -> tuple[int | None, int | None, int]:
        """(hobj ready to use or None, hobj to close first or None, options to open with)."""
        if self.explicit is not None:
            return self.explicit, None, 0
        role = _ROLES[needed]
        entry = self.handles.get(role)
        if entry is None:
            return None, None, needed
        hobj, options = entry
        have_input = bool(options & _INPUT_OPTIONS)
        if (needed & _INPUT_OPTIONS and not have_input) or needed & ~_INPUT_OPTIONS & ~options:
            return None, hobj, options | needed
        return hobj, None, 0

    def opened(self, hobj: int, options: int) -> None:
        for role in {_ROLES[bit] for bit in _ROLES if options & bit}:
            self.handles[role] = (hobj, options)

    def forget(self, hobj: int) -> None:
        if self.explicit == hobj:
            self.explicit = None
        for role, (old, _) in list(self.handles.items()):
            if old == hobj:
                del self.handles[role]

    def all(self) -> list[int]:
        """Every open handle, the first opened first."""
        seen: list[int] = [] if self.explicit is None else [self.explicit]
        for hobj, _ in self.handles.values():
            if hobj not in seen:
                seen.append(hobj)
        return seen


class QueueCore:
    """The state and calls of a queue; the blocking and asyncio ``Queue`` run these plans.

    With explicit open options there is one handle and a call it does not allow fails with the
    queue manager's reason (e.g. MQRC_NOT_OPEN_FOR_INPUT), as in pymqi. Opened implicitly, the
    queue opens a handle per need on first use (see ``HandleSet``), so ``q.put(...)`` then
    ``q.get()`` just works. A call first gets its handle (``ready_handle``, else
    ``plan_handle``), then runs its plan with it: the asyncio queue opens one handle at a time.
    """

    _qm: QueueManagerCore

    def __init__(self, qmgr: QueueManagerCore, q_desc: OD | str | bytes | None, open_opts: int | None,
                 read_ahead_window: int = READ_AHEAD_WINDOW) -> None:
        self._qm = qmgr
        self._od: OD | None = make_q_desc(q_desc) if q_desc is not None else None
        self._handles = HandleSet()
        self._window = read_ahead_window
        self._open_options = open_opts if q_desc is not None else None  # an explicit open still to make
        self._ready: dict[int, int] = {}  # MQOO_* need -> its handle, while the handles stay as they are

    @property
    def name(self) -> str:
        return text(self._od.ObjectName) if self._od is not None else ""

    @property
    def is_open(self) -> bool:
        return bool(self._handles.all())

    # -- handles ------------------------------------------------------------------------------
    def plan_open(self, conn: Session, options: int) -> Plan[int]:
        """MQOPEN with ``options``; the OD gets the resolved names, read-ahead starts if granted."""
        if self._od is None:
            raise PYIFError("The Queue Descriptor has not been set.")
        hobj, resolved_q, resolved_qmgr, read_ahead, dynamic = yield from call(
            Op.OPEN, [od_to_wire(self._od), int(options)])
        od_fill(self._od, resolved_q, resolved_qmgr, dynamic)
        if read_ahead and options & _INPUT_OPTIONS:
            yield from conn.start_read_ahead(hobj, self._window)
        return int(hobj)

    def plan_open_explicit(self, conn: Session, q_desc: OD | str | bytes | None, open_opts: int) -> Plan[None]:
        """Open now with ``open_opts``: one handle, never re-opened."""
        if self.is_open:
            raise PYIFError("The Queue is already open")
        if q_desc is not None:
            self._od = make_q_desc(q_desc)
        hobj = yield from self.plan_open(conn, open_opts)
        self._open_options = None  # (an open that failed is tried again, explicitly, by the next call)
        self._ready.clear()
        self._handles.explicit = hobj

    def ready_handle(self, needed: int) -> int | None:
        """The open handle that serves ``needed`` (an MQOO_* option), or None if one must be opened."""
        hobj = self._ready.get(needed)
        if hobj is None and self._open_options is None:
            hobj = self._handles.plan(needed)[0]
            if hobj is not None:
                self._ready[needed] = hobj
        return hobj

    def plan_handle(self, conn: Session, needed: int) -> Plan[int]:
        """The handle for ``needed``, opening (or re-opening, to add an option) one if need be."""
        if self._open_options is not None:
            yield from self.plan_open_explicit(conn, None, self._open_options)
        hobj, stale, options = self._handles.plan(needed)
        if hobj is not None:
            return hobj
        old = conn.read_ahead.get(stale) if stale is not None else None
        if stale is not None:
            yield from self._plan_close_one(conn, stale, cmqc.MQCO_NONE)
        hobj = yield from self.plan_open(conn, options)
        self._ready.clear()
        self._handles.opened(hobj, options)
        if old is not None and old.messages:  # already delivered to this application: keep them
            buffer = conn.read_ahead.setdefault(hobj, ReadAhead(self._window))
            buffer.messages.extendleft(reversed(old.messages))
        return hobj

    def plan_close(self, conn: Session, options: int) -> Plan[None]:
        """MQCLOSE (every handle); read-ahead messages not yet got are discarded, as IBM does."""
        handles = self._handles.all()
        if not handles:
            raise PYIFError("not open")
        for hobj in handles:
            yield from self._plan_close_one(conn, hobj, options)

    def _plan_close_one(self, conn: Session, hobj: int, options: int) -> Plan[None]:
        self._ready.clear()
        self._handles.forget(hobj)
        conn.close_handle(hobj)
        yield from call(Op.CLOSE, [hobj, int(options)])

    def get_handle(self) -> int | None:
        """The (first) MQOPEN handle, or None when the queue is not open."""
        handles = self._handles.all()
        return handles[0] if handles else None

    def set_handle(self, queue_handle: int) -> None:
        self._ready.clear()
        self._handles.explicit = queue_handle

    # -- messages -------------------------------------------------------------------------------
    # MQPUT is the hot path (thousands of asynchronous puts a second), so it is not a plan but a
    # step and its completion: the connection performs the step in between, no generator made.
    def put_step(self, conn: Session, hobj: int, msg: bytes | str, md: MD | None, pmo: PMO | None,
                 properties: dict[str, Any] | None, syncpoint: bool | None, asynchronous: bool | None,
                 md_fields: dict[str, Any]) -> tuple[Call | Send, MD | None]:
        """MQPUT on ``hobj``: the step that sends it, and the MD for ``put_done``."""
        qm = self._qm
        return put_step(conn, Op.PUT, [hobj], msg, md, pmo, qm.bytes_encoding, qm.default_ccsid,
                        properties, syncpoint, asynchronous, md_fields)

    def put_done(self, md: MD | None, reply: tuple[int, int, Any] | None, pmo: PMO | None) -> None:
        """After the put's step: ``md`` is completed in place (MsgId, PutDate...) and ``pmo`` gets
        the resolved queue and queue manager names, for a synchronous and an asynchronous put alike."""
        if reply is not None:
            cc, reason, result = reply
            if cc:
                raise_for(cc, reason, result)
            if md is not None:
                md_fill(md, result)
        if pmo is not None and self._od is not None:
            pmo.ResolvedQName = self._od.ResolvedQName
            pmo.ResolvedQMgrName = self._od.ResolvedQMgrName

    @staticmethod
    def get_request(conn: Session, md: MD | None, gmo: GMO | None, wait: float | None, msg_id: bytes | None,
                    correl_id: bytes | None, syncpoint: bool | None) -> tuple[list[Any], dict[str, int], int]:
        """A get's wire MQMD and GMO, and the MQOO_* option its handle needs (browse or input)."""
        md_wire, gmo_wire = common.get_request(md, gmo, wait=wait, msg_id=msg_id, correl_id=correl_id,
                                               syncpoint=syncpoint, ccsid=conn.ccsid)
        # With a message handle (mqlite's own get, no GMO: properties on the ReceivedMessage) or
        # without (IBM's MQGET puts properties in an MQRFH2 or drops them, as PROPCTL says); a GMO
        # below version 4 has no MsgHandle and still gets what stays beside the body on its message.
        if gmo is None or gmo.MsgHandle:
            gmo_wire["Options"] |= native.GMO_MSG_HANDLE
        elif int(gmo.Version) >= cmqc.MQGMO_VERSION_4:
            gmo_wire["Options"] |= native.GMO_NO_MSG_HANDLE
        else:
            gmo_wire["Options"] |= native.GMO_NO_MSG_HANDLE | native.GMO_MSG_HANDLE
        needed = cmqc.MQOO_BROWSE if gmo_wire["Options"] & _BROWSE_GMO else cmqc.MQOO_INPUT_AS_Q_DEF
        return md_wire, gmo_wire, needed

    def get_step(self, conn: Session, hobj: int, md_wire: list[Any], gmo_wire: dict[str, int],
                 max_length: int | None, md: MD | None, gmo: GMO | None) -> Call | ReceivedMessage | None:
        """MQGET is a hot path, so its common forms make no plan: on a handle without read-ahead a
        get is one request (``get_done`` reads its reply); from a read-ahead buffer that has a
        message for it, and no credit to grant, the message. Otherwise (None) ``plan_get``."""
        buffer = conn.read_ahead.get(hobj)
        if buffer is None:
            return Call((Op.GET, [hobj, common.match_ids(md_wire), gmo_wire,
                                  -1 if max_length is None else int(max_length)]))
        if not common.read_ahead_eligible(gmo_wire, md_wire):
            return None
        item = buffer.take_if_no_credit_due()
        if item is None:
            return None
        reply, _ = self._from_buffer(hobj, buffer, item, common.max_length_of(max_length), gmo_wire["Options"])
        return common.finish_get(*reply, md, gmo)

    @staticmethod
    def get_done(reply: tuple[int, int, Any], md: MD | None, gmo: GMO | None) -> ReceivedMessage:
        cc, reason, result = reply
        return common.finish_get(cc, reason, result, md, gmo)

    def plan_get(self, conn: Session, hobj: int, md_wire: list[Any], gmo_wire: dict[str, int],
                 max_length: int | None, md: MD | None, gmo: GMO | None) -> Plan[ReceivedMessage]:
        """MQGET: from the read-ahead buffer when it may serve this get, else the queue manager;
        a message pushed while the queue manager answered 2033 wins over the 2033."""
        length = common.max_length_of(max_length)
        options = gmo_wire["Options"]
        buffer = conn.read_ahead.get(hobj)
        local = buffer is not None and common.read_ahead_eligible(gmo_wire, md_wire)
        if buffer is not None and local:
            if not buffer.messages:
                yield DRAIN
            item = buffer.take()
            if item is not None:
                reply, credit = self._from_buffer(hobj, buffer, item, length, options)
                if credit is not None:
                    yield credit
                return common.finish_get(*reply, md, gmo)
        waiting = bool(options & cmqc.MQGMO_WAIT) and gmo_wire["WaitInterval"] != 0
        for _ in range(3):
            cc, reason, result = yield Call((Op.GET, [hobj, common.match_ids(md_wire), gmo_wire, length]))
            if buffer is not None and local and reason == cmqc.MQRC_NONE and buffer.messages:
                # Sent ahead while our get was on its way: the queue manager took those off the
                # queue before this one (the stream keeps its order), so they come first.
                buffer.messages.append([result[0], result[1], result[2]])
                buffer.taken -= 1  # (taking the reply's message later is no credit: it was not sent ahead)
                item = buffer.take()
                assert item is not None
                reply, credit = self._from_buffer(hobj, buffer, item, length, options)
                if credit is not None:
                    yield credit
                return common.finish_get(*reply, md, gmo)
            if buffer is None or not local or reason != cmqc.MQRC_NO_MSG_AVAILABLE:
                break
            if not buffer.messages:
                # Messages released by a credit grant may follow this reply in the stream;
                # a round trip brings in everything the queue manager sent before it.
                yield from call(Op.PING, [])
            item = buffer.take()  # pushed while our get waited
            if item is not None:
                reply, credit = self._from_buffer(hobj, buffer, item, length, options)
                if credit is not None:
                    yield credit
                return common.finish_get(*reply, md, gmo)
            if not waiting or result != SENT_AHEAD:
                break
            # The queue manager answered at once because it had sent messages ahead since our
            # last get (they might have been in flight); none was for us, so now wait for real.
        return common.finish_get(cc, reason, result, md, gmo)

    @staticmethod
    def _from_buffer(hobj: int, buffer: ReadAhead, item: list[Any], max_length: int, options: int
                     ) -> tuple[tuple[int, int, Any], Send | None]:
        """A buffered message as a GET reply would carry it, and the credit grant due, if any."""
        reply = common.from_buffer(item, max_length, options)
        if reply[0] == cmqc.MQCC_FAILED:  # too long and not accepted truncated: it stays first
            buffer.messages.appendleft(item)
            buffer.taken -= 1
        due = buffer.credit_due()
        return reply, (Send((native.encode_credit(hobj, due), False)) if due else None)

    # -- attributes -------------------------------------------------------------------------------
    def plan_inquire(self, conn: Session, hobj: int, attribute: int) -> Plan[Any]:
        """MQINQ: an integer, or a blank-padded ``bytes`` for character attributes (pymqi)."""
        values = yield from call(Op.INQ, [hobj, [int(attribute)]])
        return inquired_value(attribute, values[0])

    def plan_set(self, conn: Session, hobj: int, attribute: int, value: Any) -> Plan[None]:
        """MQSET: one attribute (the inhibit switches and trigger attributes, as MQ allows)."""
        yield from call(Op.SET, [hobj, {int(attribute): attribute_argument(value)}])
