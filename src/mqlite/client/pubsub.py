"""Publish/subscribe classes: placeholders until the queue manager has a topic tree.

TODO(pub/sub issue): ``Topic.open/pub/sub`` over MQOPEN(MQOT_TOPIC)+MQPUT and
``Subscription.sub/get/close`` over MQSUB, with pymqi's signatures and the Pythonic form
``Subscription(qm, "price/#", name="desk1", durable=True)``. Until then every call raises
MQRC_FUNCTION_NOT_SUPPORTED (2298), so programs fail loudly rather than silently.
"""

from __future__ import annotations

from typing import Any, NoReturn

from mqlite import cmqc
from mqlite.client.errors import MQMIError

__all__ = ["Subscription", "Topic"]


def _not_yet(what: str) -> NoReturn:
    raise MQMIError(cmqc.MQCC_FAILED, cmqc.MQRC_FUNCTION_NOT_SUPPORTED,
                    text=f"{what}: publish/subscribe is not built yet")


class Topic:
    """pymqi's ``Topic(queue_manager, topic_name=None, topic_string=None, topic_desc=None,
    open_opts=None)``. TODO: publish/subscribe."""

    def __init__(self, queue_manager: Any, topic_name: Any = None, topic_string: Any = None,
                 topic_desc: Any = None, open_opts: int | None = None) -> None:
        self.queue_manager = queue_manager
        self.topic_name = topic_name
        self.topic_string = topic_string
        self.topic_desc = topic_desc
        if open_opts is not None:
            _not_yet("Topic.open")

    def open(self, *args: Any, **kwargs: Any) -> None:
        _not_yet("Topic.open")

    def pub(self, msg: Any, *args: Any, **kwargs: Any) -> None:
        _not_yet("Topic.pub")

    def sub(self, *args: Any, **kwargs: Any) -> Subscription:
        _not_yet("Topic.sub")

    def close(self, options: int = cmqc.MQCO_NONE) -> None:
        _not_yet("Topic.close")


class Subscription:
    """pymqi's ``Subscription(queue_manager, sub_desc=None, sub_name=None, sub_queue=None,
    sub_opts=None, topic_name=None, topic_string=None)``. TODO: publish/subscribe."""

    def __init__(self, queue_manager: Any, *args: Any, **kwargs: Any) -> None:
        self.queue_manager = queue_manager
        if args or any(value is not None for value in kwargs.values()):
            _not_yet("Subscription")

    def sub(self, *args: Any, **kwargs: Any) -> None:
        _not_yet("Subscription.sub")

    def get(self, *args: Any, **kwargs: Any) -> bytes:
        _not_yet("Subscription.get")

    def close(self, *args: Any, **kwargs: Any) -> None:
        _not_yet("Subscription.close")
