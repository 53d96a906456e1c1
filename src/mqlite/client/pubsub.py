"""Publish/subscribe for applications: pymqi's ``Topic`` and ``Subscription``, plus the Pythonic
forms of DESIGN 3 (``Topic(qm, topic_string=...).pub(b"1.20", retain=True)``,
``Subscription(qm, "price/#", name="desk1", durable=True).get(wait=1.0)``).

A ``Topic`` is MQOPEN of a topic object and/or string, published to with MQPUT. A
``Subscription`` is MQSUB; the queue its publications arrive on is a ``Queue`` (the managed one
the queue manager made, or the application's own), so ``get`` behaves exactly as ``Queue.get``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from types import TracebackType
from typing import Any

from mqlite import cmqc
from mqlite.client.common import ReceivedMessage
from mqlite.client.errors import MQMIError, PYIFError
from mqlite.client.mqi.put import put_step
from mqlite.client.pymqi_api import Queue, QueueManager
from mqlite.client.session import READ_AHEAD_WINDOW, raise_for
from mqlite.client.structs import MD, OD, PMO, SD, md_fill, od_to_wire, sd_fill, sd_to_wire
from mqlite.protocol.native import Op

__all__ = ["Subscription", "Topic"]

_DEFAULT_PUB_LEVEL = 9


def _topic_od(topic_name: Any, topic_string: Any, topic_desc: OD | None) -> OD:
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


class Topic:
    """A topic to publish on (MQOPEN with MQOT_TOPIC). pymqi's signature; opened at once when
    ``open_opts`` is given, else on the first ``pub``."""

    def __init__(self, queue_manager: QueueManager, topic_name: str | bytes | None = None,
                 topic_string: str | bytes | None = None, topic_desc: OD | None = None,
                 open_opts: int | None = None) -> None:
        self.queue_manager = queue_manager
        self.topic_name = topic_name
        self.topic_string = topic_string
        self.topic_desc = topic_desc
        self._hobj: int | None = None
        self.resolved_topic_string = ""
        if open_opts is not None:
            self.open(open_opts=open_opts)

    def open(self, topic_name: str | bytes | None = None, topic_string: str | bytes | None = None,
             topic_desc: OD | None = None, open_opts: int | None = None) -> None:
        if self._hobj is not None:
            raise PYIFError("The Topic is already open")
        self.topic_name = topic_name if topic_name is not None else self.topic_name
        self.topic_string = topic_string if topic_string is not None else self.topic_string
        self.topic_desc = topic_desc if topic_desc is not None else self.topic_desc
        od = _topic_od(self.topic_name, self.topic_string, self.topic_desc)
        options = open_opts if open_opts is not None else cmqc.MQOO_OUTPUT
        conn = self.queue_manager.get_handle()
        hobj, resolved, _, _ = conn.call(Op.OPEN, [od_to_wire(od), int(options)])
        self._hobj = int(hobj)
        self.resolved_topic_string = str(resolved)
        od.fill_vs("ResObjectString", self.resolved_topic_string)

    def pub(self, msg: bytes | str, md: MD | None = None, pmo: PMO | None = None, *,
            retain: bool = False, properties: dict[str, Any] | None = None, syncpoint: bool | None = None,
            asynchronous: bool | None = None, suppress_reply_to: bool = False, warn_if_no_subs: bool = False,
            not_own_subs: bool = False, pub_level: int | None = None, **md_fields: Any) -> None:
        """MQPUT a publication. Keywords as ``Queue.put`` (``persistent``, ``priority``,
        ``expiry``, ``correl_id`` ...) plus ``retain``, ``suppress_reply_to``,
        ``warn_if_no_subs`` (MQRC_NO_SUBS_MATCHED 2550 comes back as a warning, raised as
        ``MQMIError`` with comp 1, as pymqi raises warnings), ``not_own_subs`` and ``pub_level``."""
        if self._hobj is None:
            self.open()
        assert self._hobj is not None
        qm = self.queue_manager
        conn = qm.get_handle()
        more_options = 0
        for flag, option in ((retain, cmqc.MQPMO_RETAIN), (suppress_reply_to, cmqc.MQPMO_SUPPRESS_REPLYTO),
                             (warn_if_no_subs, cmqc.MQPMO_WARN_IF_NO_SUBS_MATCHED),
                             (not_own_subs, cmqc.MQPMO_NOT_OWN_SUBS)):
            if flag:
                more_options |= option
        if pub_level is None:  # PubLevel counts from MQPMO version 3, as in MQ
            pub_level = int(pmo.PubLevel) if pmo is not None and pmo.Version >= 3 else _DEFAULT_PUB_LEVEL
        op, extra = (Op.PUT, ()) if pub_level == _DEFAULT_PUB_LEVEL else (Op.PUBLISH, (int(pub_level),))
        step, md = put_step(conn, op, [self._hobj], msg, md, pmo, qm.bytes_encoding, qm.default_ccsid,
                            properties, syncpoint, asynchronous, md_fields, more_options, extra)
        reply = conn.perform(step)
        if reply is not None:
            cc, reason, result = reply
            if md is not None and isinstance(result, list):
                md_fill(md, result)  # also with MQRC_NO_SUBS_MATCHED's warning
            raise_for(cc, reason, result)

    def close(self, options: int = cmqc.MQCO_NONE) -> None:
        if self._hobj is None:
            raise PYIFError("not open")
        hobj, self._hobj = self._hobj, None
        self.queue_manager.get_handle().call(Op.CLOSE, [hobj, int(options)])

    @property
    def is_open(self) -> bool:
        return self._hobj is not None

    def __enter__(self) -> Topic:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self._hobj is not None:
            with contextlib.suppress(MQMIError, PYIFError):
                self.close()

    def __repr__(self) -> str:
        return f"<Topic {self.resolved_topic_string or self.topic_string or self.topic_name!r}>"


class Subscription:
    """A subscription (MQSUB). pymqi: ``Subscription(qm, sub_desc=None, sub_name=None,
    sub_queue=None, sub_opts=None, topic_name=None, topic_string=None)`` then ``.sub()``.

    Pythonic: ``Subscription(qm, "price/#", name="desk1", durable=True)`` subscribes at once
    (managed, and for a durable one create-or-resume, so that running the program again picks
    up what was published meanwhile). Keywords: ``selector``, ``user_data``, ``wildcard``
    ("topic" or "char"), ``new_publications_only``, ``publications_on_request``, ``level``,
    ``expiry`` (seconds), ``correl_id``, ``queue`` (an application ``Queue``: unmanaged),
    ``read_ahead``, ``topic_name`` (a topic object).
    """

    def __init__(self, queue_manager: QueueManager, sub_desc: SD | str | None = None,
                 sub_name: str | bytes | None = None, sub_queue: Queue | None = None,
                 sub_opts: int | None = None, topic_name: str | bytes | None = None,
                 topic_string: str | bytes | None = None, *, name: str | None = None, durable: bool = False,
                 selector: str | None = None, user_data: str | None = None, wildcard: str = "topic",
                 new_publications_only: bool = False, publications_on_request: bool = False,
                 level: int | None = None, expiry: float | None = None, correl_id: bytes | None = None,
                 queue: Queue | None = None, read_ahead: bool = False) -> None:
        self.queue_manager = queue_manager
        self.sub_desc: SD | None = sub_desc if isinstance(sub_desc, SD) else None
        self.sub_name = sub_name if sub_name is not None else name
        self.sub_queue: Queue | None = sub_queue if sub_queue is not None else queue
        self.sub_opts = sub_opts
        self.topic_name = topic_name
        self.topic_string = topic_string
        self._hsub: int | None = None
        self.sub_correl_id = b""
        if isinstance(sub_desc, str):  # the Pythonic form: subscribe now
            options = cmqc.MQSO_CREATE | (cmqc.MQSO_RESUME | cmqc.MQSO_DURABLE if durable else 0)
            options |= cmqc.MQSO_WILDCARD_CHAR if wildcard == "char" else cmqc.MQSO_WILDCARD_TOPIC
            if self.sub_queue is None:
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
            sd.set_vs("ObjectString", sub_desc)
            if self.sub_name is not None or durable or not self.sub_queue:
                sd.set_vs("SubName", self.sub_name or "")
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
            self.sub(sub_desc=sd)

    # -- MQSUB -------------------------------------------------------------------------------------
    def sub(self, sub_desc: SD | None = None, sub_queue: Queue | None = None, sub_name: str | bytes | None = None,
            sub_opts: int | None = None, topic_name: str | bytes | None = None,
            topic_string: str | bytes | None = None) -> None:
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
        conn = self.queue_manager.get_handle()
        if queue is not None:
            queue_handle = queue.get_handle()
            hobj = queue_handle if queue_handle is not None else queue._handle(conn, cmqc.MQOO_INPUT_AS_Q_DEF)
        hsub, returned, returned_name, out = conn.call(Op.SUB, [sd_to_wire(sd), hobj])
        self._hsub = int(hsub)
        sd_fill(sd, out)
        self.sub_correl_id = bytes(out["SubCorrelId"])
        if returned:
            queue = Queue(self.queue_manager)
            queue._od = OD(ObjectName=str(returned_name))
            queue.set_handle(int(returned))
            if out.get("ReadAhead"):
                conn.run(conn.start_read_ahead(int(returned), READ_AHEAD_WINDOW))
        self.sub_queue = queue

    @property
    def resolved_topic_string(self) -> str:
        return self.sub_desc.vs_text("ResObjectString") if self.sub_desc is not None else ""

    def get_sub_queue(self) -> Queue | None:
        return self.sub_queue

    def get(self, max_length: int | None = None, md: MD | None = None, gmo: Any = None,
            **get_options: Any) -> ReceivedMessage:
        """MQGET from the subscription's queue (as ``Queue.get``: ``wait=`` seconds, 2033 if none)."""
        if self.sub_queue is None:
            raise PYIFError("not subscribed")
        return self.sub_queue.get(max_length, md, gmo, **get_options)

    def messages(self, wait: float | None = None) -> Iterator[ReceivedMessage]:
        """Publications until none arrives within ``wait`` seconds."""
        if self.sub_queue is None:
            raise PYIFError("not subscribed")
        return self.sub_queue.messages(wait=wait)

    def __iter__(self) -> Iterator[ReceivedMessage]:
        return self.messages()

    def request_update(self) -> int:
        """MQSUBRQ: send the retained publications now; how many were sent (2437 if none)."""
        if self._hsub is None:
            raise PYIFError("not subscribed")
        return int(self.queue_manager.get_handle().call(Op.SUBRQ, [self._hsub, cmqc.MQSR_ACTION_PUBLICATION]))

    def close(self, sub_close_options: int = cmqc.MQCO_NONE, close_sub_queue: bool = False,
              close_sub_queue_options: int = cmqc.MQCO_NONE) -> None:
        """MQCLOSE of the subscription (MQCO_KEEP_SUB / MQCO_REMOVE_SUB) and, if asked, of its queue."""
        if self._hsub is None:
            raise PYIFError("not subscribed")
        hsub, self._hsub = self._hsub, None
        self.queue_manager.get_handle().call(Op.CLOSE, [hsub, int(sub_close_options)])
        if close_sub_queue and self.sub_queue is not None and self.sub_queue.is_open:
            self.sub_queue.close(close_sub_queue_options)

    @property
    def is_open(self) -> bool:
        return self._hsub is not None

    def __enter__(self) -> Subscription:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 tb: TracebackType | None) -> None:
        """A durable subscription is kept, a non-durable one removed; a managed queue closed."""
        if self._hsub is None:
            return
        managed = self.sub_desc is not None and bool(self.sub_desc.Options & cmqc.MQSO_MANAGED)
        with contextlib.suppress(MQMIError, PYIFError):
            self.close(close_sub_queue=managed)

    def __repr__(self) -> str:
        return f"<Subscription {self.sub_name or ''!r} on {self.resolved_topic_string!r}>"
