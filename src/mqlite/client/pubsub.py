"""Publish/subscribe for applications: pymqi's ``Topic`` and ``Subscription``, plus the Pythonic
forms of DESIGN 3 (``Topic(qm, topic_string=...).pub(b"1.20", retain=True)``,
``Subscription(qm, "price/#", name="desk1", durable=True).get(wait=1.0)``).

A ``Topic`` is MQOPEN of a topic object and/or string, published to with MQPUT. A
``Subscription`` is MQSUB; the queue its publications arrive on is a ``Queue`` (the managed one
the queue manager made, or the application's own), so ``get`` behaves exactly as ``Queue.get``.
The calls are ``mqlite.client.mqi.pubsub``'s (shared with ``mqlite.aio``), run here blocking.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from types import TracebackType
from typing import Any

from mqlite import cmqc
from mqlite.client.common import ReceivedMessage
from mqlite.client.errors import MQMIError, PYIFError
from mqlite.client.mqi.pubsub import SubscriptionCore, TopicCore, pythonic_sd
from mqlite.client.pymqi_api import Queue, QueueManager
from mqlite.client.rfh2_chain import headers_argument, pack_chain
from mqlite.client.structs import MD, OD, PMO, SD

__all__ = ["Subscription", "Topic"]


class Topic(TopicCore):
    """A topic to publish on (MQOPEN with MQOT_TOPIC). pymqi's signature; opened at once when
    ``open_opts`` is given, else on the first ``pub``."""

    queue_manager: QueueManager

    def __init__(self, queue_manager: QueueManager, topic_name: str | bytes | None = None,
                 topic_string: str | bytes | None = None, topic_desc: OD | None = None,
                 open_opts: int | None = None) -> None:
        super().__init__(queue_manager, topic_name, topic_string, topic_desc)
        if open_opts is not None:
            self.open(open_opts=open_opts)

    def open(self, topic_name: str | bytes | None = None, topic_string: str | bytes | None = None,
             topic_desc: OD | None = None, open_opts: int | None = None) -> None:
        conn = self.queue_manager.get_handle()
        conn.run(self.plan_open(conn, topic_name, topic_string, topic_desc, open_opts))

    def pub(self, msg: bytes | str, md: MD | None = None, pmo: PMO | None = None, *,
            retain: bool = False, properties: dict[str, Any] | None = None, syncpoint: bool | None = None,
            asynchronous: bool | None = None, suppress_reply_to: bool = False, warn_if_no_subs: bool = False,
            not_own_subs: bool = False, pub_level: int | None = None, **md_fields: Any) -> None:
        """MQPUT a publication. Keywords as ``Queue.put`` (``persistent``, ``priority``,
        ``expiry``, ``correl_id`` ...) plus ``retain``, ``suppress_reply_to``,
        ``warn_if_no_subs`` (MQRC_NO_SUBS_MATCHED 2550 comes back as a warning, raised as
        ``MQMIError`` with comp 1, as pymqi raises warnings), ``not_own_subs`` and ``pub_level``."""
        conn = self.queue_manager.get_handle()
        if not self.is_open:
            conn.run(self.plan_open(conn, None, None, None, None))
        step, md = self.pub_step(conn, msg, md, pmo, properties, syncpoint, asynchronous, retain,
                                 suppress_reply_to, warn_if_no_subs, not_own_subs, pub_level, md_fields)
        self.pub_done(md, conn.perform(step))

    def pub_rfh2(self, msg: bytes, *opts: Any) -> None:
        """pymqi's ``pub_rfh2(msg, md, pmo, [rfh2, ...])``: ``pub`` with the RFH2 headers packed
        in front of ``msg`` (``mqlite.client.rfh2_chain``)."""
        headers = headers_argument(opts)
        if headers is None:
            self.pub(msg, *opts[:2])
            return
        self.pub(pack_chain(msg, opts[0], headers), *opts[:2])

    def close(self, options: int = cmqc.MQCO_NONE) -> None:
        conn = self.queue_manager.get_handle()
        conn.run(self.plan_close(conn, options))

    def __enter__(self) -> Topic:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self.is_open:
            with contextlib.suppress(MQMIError, PYIFError):
                self.close()


class Subscription(SubscriptionCore):
    """A subscription (MQSUB). pymqi: ``Subscription(qm, sub_desc=None, sub_name=None,
    sub_queue=None, sub_opts=None, topic_name=None, topic_string=None)`` then ``.sub()``.

    Pythonic: ``Subscription(qm, "price/#", name="desk1", durable=True)`` subscribes at once
    (managed, and for a durable one create-or-resume, so that running the program again picks
    up what was published meanwhile). Keywords: ``selector``, ``user_data``, ``wildcard``
    ("topic" or "char"), ``new_publications_only``, ``publications_on_request``, ``level``,
    ``expiry`` (seconds), ``correl_id``, ``queue`` (an application ``Queue``: unmanaged),
    ``read_ahead``, ``topic_name`` (a topic object).
    """

    queue_manager: QueueManager
    sub_queue: Queue | None
    queue_type = Queue

    def __init__(self, queue_manager: QueueManager, sub_desc: SD | str | None = None,
                 sub_name: str | bytes | None = None, sub_queue: Queue | None = None,
                 sub_opts: int | None = None, topic_name: str | bytes | None = None,
                 topic_string: str | bytes | None = None, *, name: str | None = None, durable: bool = False,
                 selector: str | None = None, user_data: str | None = None, wildcard: str = "topic",
                 new_publications_only: bool = False, publications_on_request: bool = False,
                 level: int | None = None, expiry: float | None = None, correl_id: bytes | None = None,
                 queue: Queue | None = None, read_ahead: bool = False) -> None:
        super().__init__(queue_manager, sub_desc if isinstance(sub_desc, SD) else None,
                         sub_name if sub_name is not None else name, sub_queue if sub_queue is not None else queue,
                         sub_opts, topic_name, topic_string)
        if isinstance(sub_desc, str):  # the Pythonic form: subscribe now
            self.sub(sub_desc=pythonic_sd(
                sub_desc, name=self.sub_name, durable=durable,
                managed=self.sub_queue is None, selector=selector, user_data=user_data, wildcard=wildcard,
                new_publications_only=new_publications_only, publications_on_request=publications_on_request,
                level=level, expiry=expiry, correl_id=correl_id, read_ahead=read_ahead, topic_name=topic_name))

    def sub(self, sub_desc: SD | None = None, sub_queue: Queue | None = None, sub_name: str | bytes | None = None,
            sub_opts: int | None = None, topic_name: str | bytes | None = None,
            topic_string: str | bytes | None = None) -> None:
        """MQSUB, as pymqi: with no ``sub_desc`` one is built from the other arguments
        (pymqi's default options: MQSO_CREATE | MQSO_NON_DURABLE | MQSO_MANAGED)."""
        conn = self.queue_manager.get_handle()
        conn.run(self.plan_sub(conn, sub_desc, sub_queue, sub_name, sub_opts, topic_name, topic_string))

    def get_sub_queue(self) -> Queue | None:
        return self.sub_queue

    def get(self, max_length: int | None = None, md: MD | None = None, gmo: Any = None,
            **get_options: Any) -> ReceivedMessage:
        """MQGET from the subscription's queue (as ``Queue.get``: ``wait=`` seconds, 2033 if none)."""
        if self.sub_queue is None:
            raise PYIFError("not subscribed")
        return self.sub_queue.get(max_length, md, gmo, **get_options)

    def get_rfh2(self, max_length: int | None = None, *opts: Any) -> bytes:
        """pymqi's ``get_rfh2`` (as ``Queue.get_rfh2``) on the subscription's queue."""
        if self.sub_queue is None:
            raise PYIFError("not subscribed")
        return self.sub_queue.get_rfh2(max_length, *opts)

    def messages(self, wait: float | None = None) -> Iterator[ReceivedMessage]:
        """Publications until none arrives within ``wait`` seconds."""
        if self.sub_queue is None:
            raise PYIFError("not subscribed")
        return self.sub_queue.messages(wait=wait)

    def __iter__(self) -> Iterator[ReceivedMessage]:
        return self.messages()

    def request_update(self) -> int:
        """MQSUBRQ: send the retained publications now; how many were sent (2437 if none)."""
        conn = self.queue_manager.get_handle()
        return conn.run(self.plan_request_update(conn))

    def close(self, sub_close_options: int = cmqc.MQCO_NONE, close_sub_queue: bool = False,
              close_sub_queue_options: int = cmqc.MQCO_NONE) -> None:
        """MQCLOSE of the subscription (MQCO_KEEP_SUB / MQCO_REMOVE_SUB) and, if asked, of its queue."""
        conn = self.queue_manager.get_handle()
        conn.run(self.plan_close(conn, sub_close_options, close_sub_queue, close_sub_queue_options))

    def __enter__(self) -> Subscription:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 tb: TracebackType | None) -> None:
        """A durable subscription is kept, a non-durable one removed; a managed queue closed."""
        if self.is_open:
            with contextlib.suppress(MQMIError, PYIFError):
                self.close(close_sub_queue=self.closes_managed_queue())
