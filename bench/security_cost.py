"""What authority checking costs: the same MQI work as an administrator and as a user whose
every permission comes from authority records (part of ``bench/security.py``).

An administrator (the queue manager's creator, or a member of ``mqm``) holds every authority, so
the queue manager looks nothing up for it: that run is the "security off" figure. The other run
connects as a second OS user over the Unix socket (the identity comes from SO_PEERCRED), with
1,000 authority records on the queue manager and a topic tree 8 levels deep that has a topic
object at every level and the user's grants only at the top one, so every topic check walks all
8 objects before it finds the grant. Each scenario runs in a child process that becomes that OS
user before it connects. Needs root (to create the user and switch to it); otherwise it says so
and measures nothing.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import pwd
import subprocess
import time
from collections.abc import Callable

import mqlite
from mqlite import cmqc as C

BENCH_USER = "mqlitebench"
RECORDS = 1_000
DEPTH = 8
TOPIC = "/".join(f"L{level}" for level in range(1, DEPTH + 1))  # L1/L2/.../L8


def ensure_os_user() -> tuple[int, int] | None:
    """(uid, gid) of the bench's second OS user, created when missing; None without root."""
    try:
        entry = pwd.getpwnam(BENCH_USER)
    except KeyError:
        if os.geteuid() != 0:
            return None
        subprocess.run(["useradd", "--no-create-home", "--shell", "/usr/sbin/nologin", BENCH_USER],
                       check=True, capture_output=True)
        entry = pwd.getpwnam(BENCH_USER)
    return entry.pw_uid, entry.pw_gid


def setup_script(user: str) -> str:
    """MQSC for the records and the topic tree: 1,000 queue profiles granted to ``user`` and a
    group (one exact and generic ones), topic objects L1..L8, ``pub``/``sub`` at L1 only."""
    lines = ["DEFINE QLOCAL(SEC.Q) MAXDEPTH(1000000)",
             f"SET AUTHREC OBJTYPE(QMGR) PRINCIPAL('{user}') AUTHADD(CONNECT, INQ)",
             f"SET AUTHREC PROFILE(SEC.Q) OBJTYPE(QUEUE) PRINCIPAL('{user}') AUTHADD(PUT, GET, INQ)"]
    for i in range(RECORDS - 1):
        profile = f"APP.{i // 100}.Q{i:04d}" if i % 3 else f"APP.{i // 100}.*"
        entity = f"PRINCIPAL('{user}')" if i % 2 else "GROUP('benchgrp')"
        lines.append(f"SET AUTHREC PROFILE({profile}) OBJTYPE(QUEUE) {entity} AUTHADD(BROWSE)")
    for level in range(1, DEPTH + 1):
        path = "/".join(f"L{n}" for n in range(1, level + 1))
        lines.append(f"DEFINE TOPIC(SEC.T{level}) TOPICSTR('{path}')")
    lines.append(f"SET AUTHREC PROFILE(SEC.T1) OBJTYPE(TOPIC) PRINCIPAL('{user}') AUTHADD(PUB, SUB)")
    return "\n".join(lines) + "\n"


# -- scenarios (each in a child process, as the OS user it is given) ------------------------------
def open_close(qm: mqlite.QueueManager, count: int) -> float:
    began = time.perf_counter()
    for _ in range(count):
        mqlite.Queue(qm, "SEC.Q", C.MQOO_OUTPUT).close()
    return count / (time.perf_counter() - began)


def put_get(qm: mqlite.QueueManager, count: int) -> float:
    q = mqlite.Queue(qm, "SEC.Q", C.MQOO_OUTPUT | C.MQOO_INPUT_SHARED)
    md = mqlite.MD(Persistence=C.MQPER_NOT_PERSISTENT)
    gmo = mqlite.GMO(Options=C.MQGMO_NO_WAIT)
    began = time.perf_counter()
    for _ in range(count):
        md.MsgId = C.MQMI_NONE
        q.put(b"x" * 256, md)
        q.get(None, mqlite.MD(), gmo)
    elapsed = time.perf_counter() - began
    q.close()
    return count / elapsed


def publish(qm: mqlite.QueueManager, count: int) -> float:
    topic = mqlite.Topic(qm, topic_string=TOPIC)
    topic.open(open_opts=C.MQOO_OUTPUT)
    md = mqlite.MD(Persistence=C.MQPER_NOT_PERSISTENT)
    began = time.perf_counter()
    for _ in range(count):
        md.MsgId = C.MQMI_NONE
        topic.pub(b"x" * 256, md)
    elapsed = time.perf_counter() - began
    topic.close()
    return count / elapsed


def open_topic(qm: mqlite.QueueManager, count: int) -> float:
    began = time.perf_counter()
    for _ in range(count):
        topic = mqlite.Topic(qm, topic_string=TOPIC)
        topic.open(open_opts=C.MQOO_OUTPUT)
        topic.close()
    return count / (time.perf_counter() - began)


def subscribe(qm: mqlite.QueueManager, count: int) -> float:
    began = time.perf_counter()
    for _ in range(count):
        mqlite.Subscription(qm, TOPIC).close()
    return count / (time.perf_counter() - began)


def connect(qm_name: str, count: int) -> float:
    began = time.perf_counter()
    for _ in range(count):
        mqlite.connect(qm_name).disconnect()
    return count / (time.perf_counter() - began)


SCENARIOS: dict[str, tuple[Callable[[mqlite.QueueManager, int], float], int]] = {
    "put_get": (put_get, 5_000),
    "open_close_queue": (open_close, 3_000),
    "open_close_topic_depth8": (open_topic, 3_000),
    "publish_depth8": (publish, 10_000),
    "subscribe_close_depth8": (subscribe, 2_000),
}


def _child(qm_name: str, ids: tuple[int, int] | None, name: str, count: int,
           out: mp.Queue[float | str]) -> None:
    try:
        if ids is not None:  # become the second OS user: the queue manager sees it by SO_PEERCRED
            os.setgid(ids[1])
            os.setuid(ids[0])
        if name == "connect_disconnect":
            out.put(connect(qm_name, count))
            return
        scenario, _ = SCENARIOS[name]
        qm = mqlite.connect(qm_name)
        try:
            out.put(scenario(qm, count))
        finally:
            qm.disconnect()
    except Exception as error:  # reported to the parent, which stops the run
        out.put(f"{name} as uid {os.getuid()}: {error!r}")


def run_as(qm_name: str, ids: tuple[int, int] | None, name: str, count: int) -> float:
    ctx = mp.get_context("fork")
    out: mp.Queue[float | str] = ctx.Queue()
    child = ctx.Process(target=_child, args=(qm_name, ids, name, count, out))
    child.start()
    result = out.get(timeout=600)
    child.join()
    if isinstance(result, str):
        raise RuntimeError(result)
    return result


def measure(qm_name: str, ids: tuple[int, int], scale: float, rounds: int = 3) -> dict[str, object]:
    """Each scenario as the administrator and as the recorded user, interleaved ``rounds`` times;
    the best of each (the least disturbed by other work on the machine)."""
    figures: dict[str, object] = {}
    names = [*SCENARIOS, "connect_disconnect"]
    for name in names:
        count = max(int((SCENARIOS[name][1] if name in SCENARIOS else 1_000) * scale), 50)
        offs, ons = [], []
        for _ in range(rounds):  # interleaved: a slow spell of the machine touches both alike
            offs.append(run_as(qm_name, None, name, count))
            ons.append(run_as(qm_name, ids, name, count))
        off, on = max(offs), max(ons)
        figures[f"{name}_admin"] = round(off)
        figures[f"{name}_recorded_user"] = round(on)
        figures[f"{name}_slowdown_pct"] = round((off - on) / off * 100, 1)
    return figures
