"""The data source's options (``mqlite.spark.datasource`` has the list), parsed and checked once on
the driver, and the connections they describe: to the queue manager named, to the identity that
discovers a cluster's instances, and to each instance of a cluster queue."""

from __future__ import annotations

import contextlib
import dataclasses
import getpass
import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

ADMIN_CHANNEL = "DEV.ADMIN.SVRCONN"  # remote administration (DISPLAY over TCP) is for administrators
NOT_AUTHORIZED = 2035  # MQRC_NOT_AUTHORIZED


class Refused(PermissionError):
    """A queue manager refused the job's user (MQRC_NOT_AUTHORIZED): which queue manager, which
    user, what, in one line (it is what Spark shows of a failed task, without the client's frames)."""

    reason = NOT_AUTHORIZED
_TRUE = ("true", "yes", "1")
_FALSE = ("", "false", "no", "0")


@dataclass(frozen=True)
class Options:
    """The data source's options, checked once on the driver (a bad one fails the query at start)."""

    qmgr: str | None
    host: str | None
    port: int | None
    channel: str | None
    user: str | None
    password: str | None
    queue: str | None
    topic: str | None
    home: str | None  # MQLITE_HOME where the local queue manager lives (default: the environment's)
    subscription: str | None = None  # streaming from a topic: the durable subscription's name
    max_per_trigger: int | None = None
    partition_size: int = 10_000
    topic_column: str | None = None  # writing: the column holding each row's topic string
    retain: bool = False  # writing to topics: retained publications
    selector: str | None = None  # reading a topic: the subscription's selection string
    # Reading a cluster queue from every instance: None (off), "" (any cluster), or a cluster's name.
    cluster: str | None = None
    admin_user: str | None = None  # who runs the DISPLAY commands that find the instances
    admin_password: str | None = None
    admin_channel: str | None = None

    @classmethod
    def parse(cls, options: dict[str, str], writing: bool = False) -> Options:
        get = {k.lower(): v for k, v in options.items()}.get
        port = get("port")
        limit = get("maxmessagespertrigger")
        parsed = cls(get("qmgr"), get("host"), int(port) if port else None, get("channel"), get("user"),
                     get("password"), get("queue"), get("topic"), get("home"), get("subscription"),
                     int(limit) if limit else None, int(get("partitionsize") or 10_000), get("topic_column"),
                     (get("retain") or "false").lower() in _TRUE, get("selector"), _cluster(get("cluster")),
                     get("adminuser"), get("adminpassword"), get("adminchannel"))
        if parsed.selector and not parsed.topic:
            raise ValueError("mqlite: option 'selector' filters a topic's publications: give 'topic'")
        if parsed.host is None and parsed.qmgr is None:
            raise ValueError("mqlite: give option 'qmgr' (a local queue manager) or 'host' and 'port'")
        if parsed.host is not None and parsed.port is None:
            raise ValueError("mqlite: option 'host' needs 'port'")
        if parsed.partition_size < 1:
            raise ValueError("mqlite: option 'partitionSize' must be at least 1")
        targets = [t for t in (parsed.queue, parsed.topic, parsed.topic_column if writing else None) if t]
        if len(targets) != 1:
            wanted = "'queue', 'topic' and 'topic_column'" if writing else "'queue' and 'topic'"
            raise ValueError(f"mqlite: give exactly one of the options {wanted}")
        if parsed.cluster is not None and (writing or parsed.queue is None):
            raise ValueError("mqlite: option 'cluster' reads a cluster queue ('queue') from every instance; "
                             "a write to a cluster queue goes through any member, which spreads it")
        return parsed

    def connect(self) -> Any:
        from mqlite.client import public as mqlite

        with self.refusals():
            if self.host is not None:
                return mqlite.connect(self.qmgr, self.channel, f"{self.host}({self.port})", self.user, self.password)
            if self.home is not None:  # Spark's Python workers may not share the driver's environment
                os.environ["MQLITE_HOME"] = self.home
            return mqlite.connect(self.qmgr, user=self.user, password=self.password)

    @contextlib.contextmanager
    def refusals(self, what: str = "connect", qmgr: str | None = None, user: str | None = None) -> Iterator[None]:
        """A refusal (MQRC_NOT_AUTHORIZED, 2035) in the block becomes ``Refused``: one line that
        names the queue manager, the user and ``what`` was refused (its connection, by default)."""
        from mqlite.client.errors import MQMIError

        try:
            yield
        except MQMIError as error:
            if error.reason != NOT_AUTHORIZED:
                raise
            where = qmgr or self.qmgr or (f"at {self.host}({self.port})" if self.host else "(the default)")
            who = user or self.user or (getpass.getuser() if self.host is None else "")
            text = f"mqlite: queue manager {where} refused user '{who}': {what}, MQRC_NOT_AUTHORIZED ({NOT_AUTHORIZED})"
            raise Refused(text) from None

    def connect_admin(self) -> Any:
        """The connection that finds a cluster queue's instances: as ``adminUser`` when given
        (over TCP through ``adminChannel``, DEV.ADMIN.SVRCONN by default), else as ``user``."""
        if self.admin_user is None:
            return self.connect()
        channel = self.admin_channel or (ADMIN_CHANNEL if self.host is not None else self.channel)
        return dataclasses.replace(self, user=self.admin_user, password=self.admin_password,
                                   channel=channel).connect()

    def connect_instance(self, qmgr: str, conname: str) -> Any:
        """A client connection to queue manager ``qmgr`` at ``conname`` (its CONNAME, as the
        cluster publishes it), as ``user`` through ``channel``; a different queue manager there
        answers MQRC_Q_MGR_NAME_ERROR (2058)."""
        from mqlite.client import public as mqlite

        with self.refusals(qmgr=qmgr):
            return mqlite.connect(qmgr, self.channel, conname, self.user, self.password)


def _cluster(value: str | None) -> str | None:
    if value is None or value.strip().lower() in _FALSE:
        return None
    return "" if value.strip().lower() in _TRUE else value.strip()
