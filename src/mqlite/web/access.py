"""How the web server reaches queue managers: through the client only, as the caller.

Every request connects to its queue manager locally (the Unix socket) with the caller's user and
password, so CONNAUTH checks the password and the connection runs as that user (ADOPTCTX): the
queue manager's own authority checks apply to every MQSC command, put and get. A connection a
request finished with cleanly is kept for that caller's next request (``connected``), so a run of
REST puts does not pay a connect and a CONNAUTH check each; the queues its requests opened stay
open with it (``with_queue``: one handle per queue and open options), so neither does it pay an
MQOPEN and an MQCLOSE each. The client is
blocking; handlers run these functions in Starlette's thread pool, so a slow queue manager holds
one worker thread, never the event loop.

Which queue managers exist is read from ``$MQLITE_HOME/qmgrs`` (``mqlite.paths``); whether one runs
is whether its socket accepts a connection. A wrong password and a refused connect both come back
from MQCONN as 2035; the users file (``mqlite.users``, read only) tells the two apart, so a wrong
password is 401 and a user the queue manager does not let connect is 403. The password is checked
against the users file before connecting, and a connection that does not run as the caller (a
queue manager with CHCKLOCL(NONE) or ADOPTCTX(NO) would run it as the web server's own user) is
refused: the web server never lends its identity.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import TypeVar

from mqlite import cmqc, paths, users
from mqlite.client import MQMIError
from mqlite.client import public as mq
from mqlite.client.pymqi_api import Queue, QueueManager
from mqlite.client.structs import OD, text
from mqlite.reasons import reason_name
from mqlite.web.errors import (
    MQRC_NOT_AUTHORIZED,
    MQRC_Q_MGR_NOT_AVAILABLE,
    WRONG_PASSWORD,
    from_reason,
    refuse,
)


@dataclass(frozen=True, slots=True)
class Caller:
    """Who makes a request: the user and password of basic authentication or of a login token."""

    user: str
    password: str


def qmgr_names() -> list[str]:
    """The queue managers of this installation (MQLITE_HOME), in name order."""
    return paths.installed_qmgrs()


def exists(name: str) -> bool:
    return bool(name) and "/" not in name and name not in (".", "..") and paths.config_path(name).is_file()


def running(name: str) -> bool:
    """True while the queue manager's socket accepts connections."""
    return paths.accepts_connections(name, timeout=2.0)


def password_valid(qmgr: str, caller: Caller) -> bool:
    """Does the queue manager's users file hold ``caller`` with this password?"""
    try:
        stat = paths.users_path(qmgr).stat()
    except OSError:
        return False
    return _password_valid(str(paths.users_path(qmgr)), stat.st_mtime_ns, caller.user, caller.password)


@lru_cache(maxsize=256)
def _password_valid(path: str, mtime: int, user: str, password: str) -> bool:
    try:
        with open(path) as f:
            known = users.parse(f.read())
    except (OSError, users.UsersFileError):
        return False
    entry = known.get(user)
    return entry is not None and users.verify_password(entry.password_hash, password)


def authenticated_anywhere(caller: Caller) -> bool:
    """Is ``caller`` a user (with this password) of some queue manager of the installation? The
    check of the requests that name no queue manager (login, the installation, the list)."""
    return any(password_valid(name, caller) for name in qmgr_names())


def open_qmgr(name: str, caller: Caller) -> QueueManager:
    """A connection to ``name`` as ``caller``; RestError (IBM's shape and status) when refused."""
    if not exists(name):
        raise refuse("qmgr_unknown", name, reason=2058)
    if not password_valid(name, caller):
        raise refuse("not_authenticated", detail=WRONG_PASSWORD)
    try:
        qm = mq.connect(name, user=caller.user, password=caller.password)
    except MQMIError as e:
        raise from_reason(e.reason, name, caller.user) from None
    except OSError:
        raise from_reason(MQRC_Q_MGR_NOT_AVAILABLE, name) from None
    if qm.get_handle().user != caller.user:
        # CHCKLOCL(NONE) or ADOPTCTX(NO): the connection would run as the web server's own user
        with contextlib.suppress(MQMIError, OSError):
            qm.disconnect()
        raise refuse("not_authorized", reason=MQRC_NOT_AUTHORIZED,
                     detail=f"The connection would not run as {caller.user}")
    return qm


# Connections a request finished with cleanly, kept for the next request of the same caller to
# the same queue manager (a connect and its CONNAUTH check cost more than a put): at most
# IDLE_PER_CALLER each, taken by one request at a time.
IDLE_PER_CALLER = 4
_idle: dict[tuple[str, Caller], list[QueueManager]] = {}
_idle_lock = threading.Lock()


def _take(name: str, caller: Caller) -> QueueManager | None:
    with _idle_lock:
        kept = _idle.get((name, caller))
        return kept.pop() if kept else None


def _give_back(name: str, caller: Caller, qm: QueueManager) -> None:
    with _idle_lock:
        kept = _idle.setdefault((name, caller), [])
        if len(kept) < IDLE_PER_CALLER:
            kept.append(qm)
            return
    _disconnect(qm)


def forget_connections() -> None:
    """End every kept connection (the web server ends)."""
    with _idle_lock:
        kept = [qm for connections in _idle.values() for qm in connections]
        _idle.clear()
    for qm in kept:
        _disconnect(qm)


@contextlib.contextmanager
def connected(name: str, caller: Caller) -> Iterator[QueueManager]:
    """A connection as ``caller`` for the length of the block (a kept one if there is one: the
    password is checked against the users file all the same); an MQI failure inside becomes its
    RestError, and that connection is ended rather than kept."""
    qm = _take(name, caller) if password_valid(name, caller) else None
    if qm is None:
        qm = open_qmgr(name, caller)
    try:
        yield qm
    except MQMIError as e:
        _disconnect(qm)
        raise from_reason(e.reason, name, caller.user) from None
    except OSError:
        _disconnect(qm)
        raise from_reason(MQRC_Q_MGR_NOT_AVAILABLE, name) from None
    except BaseException:
        _disconnect(qm)
        raise
    _give_back(name, caller, qm)


def _disconnect(qm: QueueManager) -> None:
    """End a connection; its kept queue handles end with it (MQDISC closes them)."""
    with _idle_lock:
        _handles.pop(id(qm), None)
    with contextlib.suppress(MQMIError, OSError):
        qm.disconnect()


# The queues a connection's requests opened, kept open with it: connection (by id, removed when
# it is ended) -> (queue name, open options) -> the open queue. A connection serves one request
# at a time, so its own dict is never used by two threads at once.
_handles: dict[int, dict[tuple[str, int], Queue]] = {}
HANDLES_PER_CONNECTION = 16  # a caller that puts to many queues does not hold them all open
MQRC_HOBJ_ERROR = 2019
MQRC_Q_DELETED = 2052
MQRC_UNKNOWN_OBJECT_NAME = 2085
_STALE = frozenset({MQRC_HOBJ_ERROR, MQRC_Q_DELETED, MQRC_UNKNOWN_OBJECT_NAME})
T = TypeVar("T")


def with_queue(qm: QueueManager, qmgr: str, queue_name: str, options: int, call: Callable[[Queue], T]) -> T:
    """``call`` with ``queue_name`` open on ``qm`` (a connection to ``qmgr``) with ``options``:
    the handle an earlier request of this connection left open, else a new one, kept for the next
    when it resolved to the local queue of that name. An alias, a remote queue or a model is
    closed after the call, as before: its handle would go on resolving to what the definition
    said when it was opened, and the queue manager lets an open alias be deleted or retargeted. A
    kept handle the queue manager no longer knows (2052, 2085, 2019) is closed and the queue opened
    again, once."""
    with _idle_lock:
        kept = _handles.setdefault(id(qm), {})
    key = (queue_name, options)
    queue = kept.get(key)
    if queue is not None:
        try:
            return call(queue)
        except MQMIError as e:
            if e.reason not in _STALE:
                raise
            kept.pop(key, None)
            with contextlib.suppress(MQMIError, OSError):
                queue.close()
    od = OD(ObjectName=queue_name)
    try:
        queue = Queue(qm, od, options)
    except MQMIError as e:
        if e.reason == MQRC_NOT_AUTHORIZED:  # IBM's MQWB0103E names the verb and the queue
            verb = ("put to" if options & cmqc.MQOO_OUTPUT else "browse from" if options & cmqc.MQOO_BROWSE
                    else "get from")
            raise refuse("not_authorized", verb, queue_name, reason=e.reason) from None
        if e.reason == MQRC_UNKNOWN_OBJECT_NAME:
            raise refuse("queue_unknown", queue_name, e.reason, reason_name(e.reason), reason=e.reason) from None
        raise
    if text(od.ResolvedQName) != queue_name or text(od.ResolvedQMgrName) not in ("", qmgr):
        try:
            return call(queue)
        finally:
            with contextlib.suppress(MQMIError, OSError):
                queue.close()
    if len(kept) >= HANDLES_PER_CONNECTION:  # the least recently opened goes
        with contextlib.suppress(MQMIError, OSError):
            kept.pop(next(iter(kept))).close()
    kept[key] = queue
    return call(queue)


def drop_queue_handles(qmgr: str, queue_name: str | None = None, current: QueueManager | None = None) -> None:
    """Close the handles idle connections to ``qmgr`` (and ``current``, the caller's own) keep on
    ``queue_name`` (None: on every queue), before the web server deletes or clears a queue: an
    open handle would make the queue manager refuse (MQRC_OBJECT_IN_USE). Connections in use by
    other requests keep theirs."""
    with _idle_lock:
        taken = [(key, qm) for key, connections in _idle.items() if key[0] == qmgr for qm in connections]
        for key, connections in _idle.items():
            if key[0] == qmgr:
                connections.clear()
    if current is not None:
        _close_handles(current, queue_name)  # a failure here is the request's own
    for (name, caller), qm in taken:
        try:
            _close_handles(qm, queue_name)
        except (MQMIError, OSError):
            _disconnect(qm)
        else:
            _give_back(name, caller, qm)


def _close_handles(qm: QueueManager, queue_name: str | None) -> None:
    kept = _handles.get(id(qm), {})
    for handle_key in [k for k in kept if queue_name is None or k[0] == queue_name]:
        kept.pop(handle_key).close()
