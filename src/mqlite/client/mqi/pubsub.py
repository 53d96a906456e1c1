"""The calls of publish/subscribe (pymqi's ``Topic`` and ``Subscription``): MQOPEN of a topic and
publishing on it, MQSUB, MQSUBRQ and closing, with the Pythonic descriptor of DESIGN 3."""

from __future__ import annotations

from typing import Any

from mqlite import cmqc
from mqlite.client.errors import PYIFError
from mqlite.client.mqi.connection import QueueManagerCore
from mqlite.client.mqi.put import put_step
from mqlite.client.mqi.queue import QueueCore
from mqlite.client.session import READ_AHEAD_WINDOW, Call, Plan, Send, Session, call, raise_for
from mqlite.client.structs import MD, OD, PMO, SD, md_fill, od_to_wire, sd_fill, sd_to_wire
from mqlite.protocol.native import Op

__all__ = ["SubscriptionCore", "TopicCore", "pythonic_sd", "topic_od"]

_DEFAULT_PUB_LEVEL = 9


def topic_od(topic_name: Any, topic_string: Any, topic_desc: OD | None) -> OD:
    """The application's OD (its Version as it is: the queue manager refuses one below 4), or one
    of version 4 naming the topic object and string, as pymqi's ``Topic`` makes it."""
    if topic_desc is not None:
        od = topic_desc
    else:
        od = OD(Version=cmqc.MQOD_VERSION_4, ObjectType=cmqc.MQOT_TOPIC)
        if topic_name:
            od.ObjectName = topic_name
        if topic_string:
            od.set_vs("ObjectString", topic_string)
    od.ObjectType = cmqc.MQOT_TOPIC
    return od


class TopicCore:
    """The state and calls of a topic opened to publish on; the blocking and asyncio ``Topic``
    run these plans."""

    def __init__(self, queue_manager: QueueManagerCore, topic_name: str | bytes | None,
                 topic_string: str | bytes | None, topic_desc: OD | None) -> None:
        self.queue_manager = queue_manager
        self.topic_name = topic_name
        self.topic_string = topic_string
        self.topic_desc = topic_desc
        self._hobj: int | None = None
        self.resolved_topic_string = ""

    @property
    def is_open(self) -> bool:
        return self._hobj is not None

    def plan_open(self, conn: Session, topic_name: str | bytes | None, topic_string: str | bytes | None,
                  topic_desc: OD | None, open_opts: int | None) -> Plan[None]:
        if self._hobj is not None:
            raise PYIFError("The Topic is already open")
        self.topic_name = topic_name if topic_name is not None else self.topic_name
        self.topic_string = topic_string if topic_string is not None else self.topic_string
        self.topic_desc = topic_desc if topic_desc is not None else self.topic_desc
        od = topic_od(self.topic_name, self.topic_string, self.topic_desc)
        options = open_opts if open_opts is not None else cmqc.MQOO_OUTPUT
        hobj, resolved, *_ = yield from call(Op.OPEN, [od_to_wire(od), int(options)])
        self._hobj = int(hobj)
        self.resolved_topic_string = str(resolved)
        od.fill_vs("ResObjectString", self.resolved_topic_string)

    # Publishing is a hot path: like MQPUT, a step and its completion rather than a plan.
    def pub_step(self, conn: Session, msg: bytes | str, md: MD | None, pmo: PMO | None,
                 properties: dict[str, Any] | None, syncpoint: bool | None, asynchronous: bool | None,
                 retain: bool, suppress_reply_to: bool, warn_if_no_subs: bool, not_own_subs: bool,
                 pub_level: int | None, md_fields: dict[str, Any]) -> tuple[Call | Send, MD | None]:
        """The step that publishes on the open topic (see ``Topic.pub``), and the MD for ``pub_done``."""
        if self._hobj is None:
            raise PYIFError("not open")
        more_options = 0
        for flag, option in ((retain, cmqc.MQPMO_RETAIN), (suppress_reply_to, cmqc.MQPMO_SUPPRESS_REPLYTO),
                             (warn_if_no_subs, cmqc.MQPMO_WARN_IF_NO_SUBS_MATCHED),
                             (not_own_subs, cmqc.MQPMO_NOT_OWN_SUBS)):
            if flag:
                more_options |= option
        if pub_level is None:  # PubLevel counts from MQPMO version 3, as in MQ
            pub_level = int(pmo.PubLevel) if pmo is not None and pmo.Version >= 3 else _DEFAULT_PUB_LEVEL
        action = int(pmo.Action) if pmo is not None and pmo.Version >= 3 else cmqc.MQACTP_NEW
        op, extra = (Op.PUT, ()) if pub_level == _DEFAULT_PUB_LEVEL and action == cmqc.MQACTP_NEW else (
            Op.PUBLISH, (int(pub_level), action))
        qm = self.queue_manager
        return put_step(conn, op, [self._hobj], msg, md, pmo, qm.bytes_encoding, qm.default_ccsid,
                        properties, syncpoint, asynchronous, md_fields, more_options, extra)

    @staticmethod
    def pub_done(md: MD | None, reply: tuple[int, int, Any] | None) -> None:
        if reply is not None:
            cc, reason, result = reply
            if md is not None and isinstance(result, list):
                md_fill(md, result)  # also with MQRC_NO_SUBS_MATCHED's warning
            raise_for(cc, reason, result)

    def plan_close(self, conn: Session, options: int) -> Plan[None]:
        if self._hobj is None:
            raise PYIFError("not open")
        hobj, self._hobj = self._hobj, None
        yield from call(Op.CLOSE, [hobj, int(options)])

    def __repr__(self) -> str:
        return f"<Topic {self.resolved_topic_string or self.topic_string or self.topic_name!r}>"


def pythonic_sd(topic_string: str, *, name: str | bytes | None, durable: bool, managed: bool, selector: str | None,
                user_data: str | None, wildcard: str, new_publications_only: bool, publications_on_request: bool,
                level: int | None, expiry: float | None, correl_id: bytes | None, read_ahead: bool,
                topic_name: str | bytes | None) -> SD:
    """The MQSD of ``Subscription(qm, "price/#", name=..., durable=...)``: managed unless a queue
    is given, and for a durable one create-or-resume, so that running the program again picks up
    what was published meanwhile."""
    options = cmqc.MQSO_CREATE | (cmqc.MQSO_RESUME | cmqc.MQSO_DURABLE if durable else 0)
    options |= cmqc.MQSO_WILDCARD_CHAR if wildcard == "char" else cmqc.MQSO_WILDCARD_TOPIC
    if managed:
        options |= cmqc.MQSO_MANAGED
    for flag, option in ((new_publications_only, cmqc.MQSO_NEW_PUBLICATIONS_ONLY),
                         (publications_on_request, cmqc.MQSO_PUBLICATIONS_ON_REQUEST),
                         (correl_id is not None, cmqc.MQSO_SET_CORREL_ID),
                         (read_ahead, cmqc.MQSO_READ_AHEAD)):
        if flag:
            options |= option
    sd = SD(Options=options)
    if topic_name:
        sd.ObjectName = topic_name
    sd.set_vs("ObjectString", topic_string)
    if name is not None or durable or managed:
        sd.set_vs("SubName", name or "")
    if selector:
        sd.set_vs("SelectionString", selector)
    if user_data:
        sd.set_vs("SubUserData", user_data)
    if level is not None:
        sd.SubLevel = level
    if expiry is not None:
        sd.SubExpiry = max(1, round(expiry * 10))
    if correl_id is not None:
        sd.SubCorrelId = correl_id
    return sd


class SubscriptionCore:
    """The state and calls of a subscription; the blocking and asyncio ``Subscription`` run these
    plans. Publications arrive on ``sub_queue``, a queue of the subclass's ``queue_type``."""

    queue_type: type[QueueCore]

    def __init__(self, queue_manager: QueueManagerCore, sub_desc: SD | None, sub_name: str | bytes | None,
                 sub_queue: QueueCore | None, sub_opts: int | None, topic_name: str | bytes | None,
                 topic_string: str | bytes | None) -> None:
        self.queue_manager = queue_manager
        self.sub_desc = sub_desc
        self.sub_name = sub_name
        self.sub_queue = sub_queue
        self.sub_opts = sub_opts
        self.topic_name = topic_name
        self.topic_string = topic_string
        self._hsub: int | None = None
        self.sub_correl_id = b""

    @property
    def is_open(self) -> bool:
        return self._hsub is not None

    @property
    def resolved_topic_string(self) -> str:
        return self.sub_desc.vs_text("ResObjectString") if self.sub_desc is not None else ""

    def plan_sub(self, conn: Session, sub_desc: SD | None, sub_queue: QueueCore | None, sub_name: str | bytes | None,
                 sub_opts: int | None, topic_name: str | bytes | None, topic_string: str | bytes | None
                 ) -> Plan[None]:
        """MQSUB, as pymqi: with no ``sub_desc`` one is built from the other arguments
        (pymqi's default options: MQSO_CREATE | MQSO_NON_DURABLE | MQSO_MANAGED)."""
        if self._hsub is not None:
            raise PYIFError("The Subscription is already open")
        sd = sub_desc or self.sub_desc
        queue = sub_queue if sub_queue is not None else self.sub_queue
        if sd is None:
            opts = sub_opts if sub_opts is not None else self.sub_opts
            sd = SD(Options=opts if opts is not None else
                    cmqc.MQSO_CREATE | cmqc.MQSO_NON_DURABLE | (0 if queue is not None else cmqc.MQSO_MANAGED))
            name = sub_name if sub_name is not None else self.sub_name
            if name is not None:
                sd.set_vs("SubName", name)
            object_name = topic_name if topic_name is not None else self.topic_name
            if object_name:
                sd.ObjectName = object_name
            string = topic_string if topic_string is not None else self.topic_string
            if string:
                sd.set_vs("ObjectString", string)
        sd.check_version()
        self.sub_desc = sd
        hobj = 0
        if queue is not None:
            queue_handle = queue.get_handle()
            hobj = queue_handle if queue_handle is not None else (
                yield from queue.plan_handle(conn, cmqc.MQOO_INPUT_AS_Q_DEF))
        hsub, returned, returned_name, out = yield from call(Op.SUB, [sd_to_wire(sd), hobj])
        self._hsub = int(hsub)
        sd_fill(sd, out)
        self.sub_correl_id = bytes(out["SubCorrelId"])
        if returned:
            queue = self.queue_type(self.queue_manager, OD(ObjectName=str(returned_name)), None)
            queue.set_handle(int(returned))
            if out.get("ReadAhead"):
                yield from conn.start_read_ahead(int(returned), READ_AHEAD_WINDOW)
        self.sub_queue = queue

    def plan_request_update(self, conn: Session) -> Plan[int]:
        """MQSUBRQ: send the retained publications now; how many were sent (2437 if none)."""
        if self._hsub is None:
            raise PYIFError("not subscribed")
        return int((yield from call(Op.SUBRQ, [self._hsub, cmqc.MQSR_ACTION_PUBLICATION])))

    def plan_close(self, conn: Session, sub_close_options: int, close_sub_queue: bool,
                   close_sub_queue_options: int) -> Plan[None]:
        """MQCLOSE of the subscription (MQCO_KEEP_SUB / MQCO_REMOVE_SUB) and, if asked, of its queue."""
        if self._hsub is None:
            raise PYIFError("not subscribed")
        hsub, self._hsub = self._hsub, None
        yield from call(Op.CLOSE, [hsub, int(sub_close_options)])
        if close_sub_queue and self.sub_queue is not None and self.sub_queue.is_open:
            yield from self.sub_queue.plan_close(conn, close_sub_queue_options)

    def closes_managed_queue(self) -> bool:
        """What leaving a ``with`` block closes: a managed queue with its subscription."""
        return self.sub_desc is not None and bool(self.sub_desc.Options & cmqc.MQSO_MANAGED)

    def __repr__(self) -> str:
        return f"<Subscription {self.sub_name or ''!r} on {self.resolved_topic_string!r}>"

