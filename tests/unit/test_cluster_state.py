"""core/network/clusters/service.py: ClusterState, several queue managers' repositories joined by an
in-memory network of encoded repository messages (sans-IO): who learns what, when, and what is
stored (B:R-CLU-10, R-CLU-11, R-CLU-12, R-CLQ-1..4; decisions A-20, A-21, A-49)."""

from __future__ import annotations

import contextlib
import json
from collections import deque
from collections.abc import Iterator
from typing import Any

import msgpack
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.core.network.clusters.protocol import (
    ClusterMessage,
    ClusterProtocolError,
    Publish,
    Query,
    Remove,
    decode,
    encode,
)
from mqlite.core.network.clusters.repository import DAY, ClusterRecord
from mqlite.core.network.clusters.service import STORE_KIND, SUBS_KIND, ClusterState
from mqlite.core.outbox import Outbox
from mqlite.store.tx import DELETE_RECORD, PUT_RECORD, StoreTx

CL = "DEMO"
SENDS_TO = {"FR1": "FR2", "FR2": "FR1", "QM3": "FR1", "QM4": "FR2", "QM5": "FR1"}  # each one's manual CLUSSDR
QDefs = dict[str, tuple[str, dict[str, Any]]]


class Net:
    """Queue managers and the repository messages between them, delivered in order of sending.
    A message to a queue manager in ``down`` is lost (B:R-CLU-9: the others carry on)."""

    def __init__(self) -> None:
        self.now = [1_700_000_000.0]
        self.states: dict[str, ClusterState] = {}
        self.qdefs: dict[str, QDefs] = {}
        self.namelists: dict[str, tuple[str, ...]] = {}
        self.wire: deque[tuple[str, str, bytes]] = deque()  # sender, target, encoded message
        self.delivered: list[tuple[str, str, ClusterMessage]] = []
        self.down: set[str] = set()
        self.answers: list[tuple[str, str]] = []  # (queue manager, name) of each on_answer

    def namelist(self, name: str) -> tuple[str, ...]:
        return self.namelists[name]  # KeyError when missing, as the namelist service

    def add(self, name: str, full: bool = False, sender_to: str = "") -> ClusterState:
        channels = {f"{CL}.{name}": {"CHLTYPE": "CLUSRCVR", "CLUSTER": CL, "CONNAME": f"{name.lower()}(1414)"}}
        if sender_to:  # the manual cluster-sender, named after the partner's receiver (IBM's habit)
            channels[f"{CL}.{sender_to}"] = {"CHLTYPE": "CLUSSDR", "CLUSTER": CL,
                                             "CONNAME": f"{sender_to.lower()}(1414)"}
        qmgr_attrs: dict[str, Any] = {"QMID": f"{name}_1"} | ({"REPOS": CL} if full else {})
        self.qdefs[name] = {}
        state = ClusterState(name, qmgr_attrs, self.qdefs[name], channels, Outbox(), lambda: self.now[0],
                             self.namelist)
        self.wire_up(state)
        self.states[name] = state
        return state

    def wire_up(self, state: ClusterState) -> None:
        def send(target: str, cluster: str, message: ClusterMessage, via: str) -> None:
            assert cluster == CL
            self.wire.append((state.name, target or self.at_end_of(state, via), encode(message)))

        state.send = send
        state.on_answer = lambda name: self.answers.append((state.name, name))

    def at_end_of(self, state: ClusterState, channel: str) -> str:
        conname = state.channels[channel]["CONNAME"]
        [partner] = [s.name for s in self.states.values() for attrs in s.channels.values()
                     if attrs["CHLTYPE"] == "CLUSRCVR" and attrs["CONNAME"] == conname]
        return partner

    def pump(self) -> None:
        for _ in range(10_000):
            if not self.wire:
                return
            sender, target, data = self.wire.popleft()
            if target in self.down:
                continue
            message = decode(data)
            self.delivered.append((sender, target, message))
            self.states[target].receive(message)
        raise AssertionError("the repository messages never stop")

    def define(self, qmgr: str, queue: str, qtype: str = "QLOCAL", **attrs: Any) -> None:
        self.qdefs[qmgr][queue] = (qtype, {"CLUSTER": CL, **attrs})
        self.states[qmgr].changed(queue=queue)
        self.pump()

    def delete(self, qmgr: str, queue: str) -> None:
        del self.qdefs[qmgr][queue]
        self.states[qmgr].changed(queue=queue)
        self.pump()

    def lookup(self, qmgr: str, queue: str) -> int:
        asked = self.states[qmgr].query("QUEUE", queue)
        self.pump()
        return asked


def owners(state: ClusterState, kind: str, name: str | None = None) -> set[str]:
    return {r.owner for r in state.live(kind, name=name, cluster=CL)}


def stored(tx: StoreTx) -> dict[str, dict[str, Any]]:
    """The store records a tx leaves behind, by kind and key (puts and deletes in order)."""
    tables: dict[str, dict[str, Any]] = {}
    for op, rows in tx.runs:
        for row in rows:
            assert op in (PUT_RECORD, DELETE_RECORD), f"unexpected store op {op}: {row}"
            if op == PUT_RECORD:
                tables.setdefault(row[0], {})[row[1]] = msgpack.unpackb(row[2])
            else:
                tables.get(row[0], {}).pop(row[1], None)
    return tables


@pytest.fixture
def net() -> Iterator[Net]:
    """Two full repositories (each with a manual sender to the other) and three partial ones
    (QM3 and QM5 sending to FR1 first, QM4 to FR2), each started as the repository manager starts
    it: its records computed (changed), then join_all."""
    network = Net()
    for name, partner in SENDS_TO.items():
        network.add(name, full=name.startswith("FR"), sender_to=partner)
    for state in network.states.values():
        state.changed()
        state.join_all()
    network.pump()
    yield network


@pytest.fixture
def q1(net: Net) -> Net:
    """Q1 on QM3, looked up by QM4 (which is then subscribed to Q1 and to QM3 at both full ones)."""
    net.define("QM3", "Q1", DEFBIND="NOTFIXED")
    net.lookup("QM4", "Q1")
    return net


def test_members_join_through_their_manual_senders(net: Net) -> None:
    """B:R-CLU-12: every full repository holds every member; each partial one learns the full
    repositories (its way into the cluster) and nothing of the other partial ones yet."""
    everyone = {"FR1", "FR2", "QM3", "QM4", "QM5"}
    for full in ("FR1", "FR2"):
        assert owners(net.states[full], "QMGR") == everyone
        record = net.states[full].qmgr_record("QM4")
        assert record is not None and record.attrs["CONNAME"] == "qm4(1414)" and record.attrs["CHANNEL"] == "DEMO.QM4"
        assert record.attrs["QMID"] == "QM4_1" and record.attrs["REPOS"] is False
    for partial in ("QM3", "QM4", "QM5"):
        state = net.states[partial]
        assert state.full_repositories(CL) - {partial}
        assert state.full_repositories(CL) == {"FR1", "FR2"}
        assert owners(state, "QMGR") == {"FR1", "FR2", partial}


def test_a_cluster_queue_goes_to_the_full_repositories_only_until_asked_for(net: Net) -> None:
    """B:R-CLU-12, R-CLQ-2, R-CLQ-4 (A-49): a new cluster queue is pushed to the full
    repositories; a partial repository gets it (and its host's membership) when it asks."""
    net.define("QM3", "Q1", DEFBIND="NOTFIXED", MAXDEPTH=5)
    for full in ("FR1", "FR2"):
        [record] = net.states[full].live("QUEUE", name="Q1")
        assert (record.owner, record.cluster, record.attrs) == ("QM3", CL, {"QTYPE": "QLOCAL", "DEFBIND": "NOTFIXED"})
    for partial in ("QM4", "QM5"):
        assert net.states[partial].live("QUEUE", name="Q1") == []
    assert {t for _, t, m in net.delivered if isinstance(m, Publish) and any(r.kind == "QUEUE" for r in m.records)} \
        == {"FR1", "FR2"}
    assert net.lookup("QM4", "Q1") == 2  # both full repositories asked
    qm4 = net.states["QM4"]
    assert owners(qm4, "QUEUE", "Q1") == {"QM3"}
    host = qm4.qmgr_record("QM3", [CL])
    assert host is not None and host.attrs["CHANNEL"] == "DEMO.QM3"  # the way to the instance
    assert ("QM4", "Q1") in net.answers
    assert net.states["QM5"].live("QUEUE", name="Q1") == []


def test_a_queue_named_in_a_cluster_namelist_is_published_in_the_clusters_shared(net: Net) -> None:
    """B:R-CLQ-1: CLUSNL advertises a queue in each named cluster this queue manager is in; a
    namelist deleted under the queue leaves it in no cluster."""
    net.namelists["NL1"] = (CL, "OTHER")  # QM3 has no receiver in OTHER: not published there
    net.define("QM3", "Q5", CLUSTER="", CLUSNL="NL1")
    net.define("QM3", "Q6", CLUSTER="", CLUSNL="GONE")
    fr1 = net.states["FR1"]
    assert [(r.cluster, r.owner) for r in fr1.live("QUEUE", name="Q5")] == [(CL, "QM3")]
    assert fr1.live("QUEUE", name="Q6") == [] and net.states["QM3"].live("QUEUE", name="Q6") == []


def test_a_queue_defined_after_the_question_reaches_the_asker(net: Net) -> None:
    """R-CLQ-4 (A-49): asking subscribes; a queue defined later is passed to the subscriber."""
    net.lookup("QM4", "Q2")
    assert ("QM4", "Q2") in net.answers  # answered, with nothing
    assert net.states["QM4"].live("QUEUE", name="Q2") == []
    net.answers.clear()
    net.define("QM5", "Q2")
    assert owners(net.states["QM4"], "QUEUE", "Q2") == {"QM5"}
    assert net.answers == []  # pushed, not the answer to a new question
    assert net.states["QM3"].live("QUEUE", name="Q2") == []  # not subscribed: nothing


def test_alter_reaches_the_subscriber_and_delete_withdraws_it(net: Net) -> None:
    """B:R-CLU-12, R-CLQ-4: ALTER and DELETE of a cluster queue reach who asked for it."""
    net.lookup("QM4", "Q2")
    net.define("QM5", "Q2")
    net.define("QM5", "Q2", PUT="DISABLED", CLWLRANK=3)  # ALTER
    for name in ("FR1", "FR2", "QM4"):
        [record] = net.states[name].live("QUEUE", name="Q2")
        assert (record.attrs["PUT"], record.attrs["CLWLRANK"]) == ("DISABLED", 3), name
    net.delete("QM5", "Q2")
    for name in ("FR1", "FR2", "QM4", "QM5"):
        assert net.states[name].live("QUEUE", name="Q2") == [], name
        assert net.states[name].live("QUEUE") == [], name
    withdrawal = net.states["QM4"].cache[("QUEUE", CL, "Q2", "QM5")]
    assert withdrawal.deleted  # kept as a withdrawal, so an older copy arriving late stays dead


def test_the_newest_copy_wins_whatever_the_order_of_arrival(net: Net) -> None:
    """B:R-CLU-11: stamps, not arrival, decide; an older copy after a newer changes nothing."""
    old = ClusterRecord("QUEUE", CL, "QX", "QM9", (100.0, 1), {"DEFBIND": "OPEN"})
    new = ClusterRecord("QUEUE", CL, "QX", "QM9", (100.0, 2), {"DEFBIND": "NOTFIXED"})
    for name, order in (("QM4", (new, old)), ("QM5", (old, new))):
        state = net.states[name]
        for record in order:
            state.receive(decode(encode(Publish("FR1", (record,)))))
        [held] = state.live("QUEUE", name="QX")
        assert held.stamp == (100.0, 2) and held.attrs == {"DEFBIND": "NOTFIXED"}, name
    gone = ClusterRecord("QUEUE", CL, "QX", "QM9", (101.0, 3), deleted=True)
    qm4 = net.states["QM4"]
    qm4.receive(Publish("FR1", (gone,)))
    qm4.receive(Publish("FR1", (new,)))  # late, older than the withdrawal
    assert qm4.live("QUEUE", name="QX") == []


def test_a_queue_manager_name_joining_again_with_another_qmid_is_reported(net: Net) -> None:
    """Conflicting definitions are reported, never a crash (issue 16 item 6): a membership record
    for a name already held with another QMID (a queue manager deleted and made again without
    leaving) is taken, as the newer, and AMQ9875E names both QMIDs for RESET CLUSTER."""
    fr1 = net.states["FR1"]
    first = ClusterRecord("QMGR", CL, "QM9", "QM9", (100.0, 1), {"CHANNEL": "DEMO.QM9", "QMID": "QM9_old"})
    again = ClusterRecord("QMGR", CL, "QM9", "QM9", (200.0, 1), {"CHANNEL": "DEMO.QM9", "QMID": "QM9_new"})
    fr1.receive(Publish("FR2", (first,)))
    assert not [line for line in fr1.log if "AMQ9875E" in line]
    fr1.receive(Publish("FR2", (again,)))
    [warning] = [line for line in fr1.log if "AMQ9875E" in line]
    assert "QM9_new" in warning and "QM9_old" in warning
    assert fr1.qmgr_record("QM9") is not None and fr1.qmgr_record("QM9").attrs["QMID"] == "QM9_new"  # type: ignore[union-attr]


def test_suspend_and_resume_reach_a_member_using_the_queue_manager(q1: Net) -> None:
    """SUSPEND QMGR CLUSTER: the membership record says so and is passed to the partial
    repositories subscribed to that queue manager (QM4 looked up QM3's Q1); RESUME clears it."""
    qm3 = q1.states["QM3"]
    for suspended in (True, False):
        qm3.suspend([CL], suspended)
        q1.pump()
        for name in ("FR1", "FR2", "QM4"):
            record = q1.states[name].qmgr_record("QM3", [CL])
            assert record is not None and record.attrs["SUSPEND"] is suspended, (name, suspended)
        assert q1.states["QM5"].qmgr_record("QM3") is None  # never asked: never told
    with pytest.raises(MQError) as unknown:
        qm3.suspend(["OTHER"], True)
    assert unknown.value.reason == C.MQRC_UNKNOWN_OBJECT_NAME


def test_one_full_repository_down_the_other_answers(net: Net) -> None:
    """B:R-CLU-8/9: with FR1 unreachable, a new queue and a lookup go through FR2."""
    net.down.add("FR1")
    net.define("QM5", "Q3")
    assert net.lookup("QM4", "Q3") == 2  # FR1 is asked too: its answer never comes
    assert owners(net.states["QM4"], "QUEUE", "Q3") == {"QM5"}
    assert ("QM4", "Q3") in net.answers
    assert owners(net.states["FR2"], "QUEUE", "Q3") == {"QM5"}
    assert net.states["FR1"].live("QUEUE", name="Q3") == []


def test_force_remove_is_told_to_the_other_full_repository_and_the_subscribers(q1: Net) -> None:
    """RESET CLUSTER ACTION(FORCEREMOVE) at FR1: QM3 is forgotten there, at FR2 and at QM4."""
    assert q1.states["FR1"].force_remove(CL, "QM3") == 2  # its membership and Q1
    q1.pump()
    removes = {t for _, t, m in q1.delivered if isinstance(m, Remove) and m.qmgr == "QM3"}
    assert {"FR2", "QM4"} <= removes and "QM3" not in removes
    for name in ("FR1", "FR2", "QM4"):
        state = q1.states[name]
        assert not [r for r in state.cache.values() if r.owner == "QM3" and not r.deleted], name
        assert state.qmgr_record("QM3") is None
    assert owners(q1.states["FR2"], "QMGR") == {"FR1", "FR2", "QM4", "QM5"}


def test_force_remove_reaches_members_subscribed_only_at_the_other_full_repository(net: Net) -> None:
    """QM4 asked for Q1 while FR1 was down (subscribed at FR2 only); RESET CLUSTER at FR1."""
    net.define("QM3", "Q1")
    net.down.add("FR1")
    net.lookup("QM4", "Q1")
    net.down.clear()
    net.states["FR1"].force_remove(CL, "QM3")
    net.pump()
    assert net.states["QM4"].live("QUEUE", name="Q1") == []


def test_refresh_at_a_partial_keeps_the_full_repositories_and_republishes(q1: Net) -> None:
    """A-21 (B:R-CLU-17): REFRESH CLUSTER drops what others said, except the full repositories'
    memberships (the way back); this queue manager's records are sent again; asking re-learns."""
    qm4 = q1.states["QM4"]
    q1.define("QM4", "Q4")
    assert qm4.refresh(CL) == 2  # QM3's membership and Q1
    assert qm4.live("QUEUE", name="Q1") == [] and qm4.qmgr_record("QM3") is None
    assert {r.owner for r in qm4.cache.values() if r.owner != "QM4"} == {"FR1", "FR2"}
    assert qm4.full_repositories(CL) == {"FR1", "FR2"}
    republished = {(t, r.kind, r.name) for s, t, data in q1.wire if s == "QM4"
                   for r in getattr(decode(data), "records", ())}
    assert republished == {(t, k, n) for t in ("FR1", "FR2") for k, n in (("QMGR", "QM4"), ("QUEUE", "Q4"))}
    q1.pump()
    q1.lookup("QM4", "Q1")
    assert owners(qm4, "QUEUE", "Q1") == {"QM3"}


def test_refresh_repos_yes_at_a_partial_learns_the_full_repositories_again(net: Net) -> None:
    """A-21: REFRESH CLUSTER REPOS(YES) forgets the full repositories too and re-learns them
    (through the manual cluster-sender, as when it first joined)."""
    qm4 = net.states["QM4"]
    qm4.refresh(CL, forget_full=True)
    assert qm4.full_repositories(CL) == set()
    net.pump()
    assert qm4.full_repositories(CL) == {"FR1", "FR2"}


def test_refresh_at_a_full_repository_learns_the_members_again(q1: Net) -> None:
    """A-21: what a full repository forgets is re-learnt from the other full repository."""
    fr1 = q1.states["FR1"]
    fr1.refresh(CL)
    q1.pump()
    assert owners(fr1, "QMGR") == {"FR1", "FR2", "QM3", "QM4", "QM5"}
    assert owners(fr1, "QUEUE", "Q1") == {"QM3"}


def test_subscriptions_a_refresh_forgets_stay_forgotten_after_a_restart(q1: Net) -> None:
    """A-21: the subscriptions a full repository drops at REFRESH CLUSTER are dropped in the store too."""
    fr1 = q1.states["FR1"]
    fr1.refresh(CL)
    restarted = Net().add("FR1", full=True, sender_to=SENDS_TO["FR1"])
    tables = stored(fr1.outbox.tx)
    restarted.restore(tables[STORE_KIND], tables.get(SUBS_KIND, {}))
    assert fr1.subscribers[CL].get(("QUEUE", "Q1"), set()) == set()
    assert restarted.subscribers[CL].get(("QUEUE", "Q1"), set()) == set()


def test_records_not_refreshed_are_warned_about_then_dropped(q1: Net) -> None:
    """A-20 (B:R-CLU-10): one AMQ9456W line per record at 27 days of silence, the record dropped
    at 90 days (AMQ9457I); this queue manager's own records never age."""
    qm4 = q1.states["QM4"]
    start = q1.now[0]
    q1.now[0] = start + 27 * DAY
    qm4.age()
    about_q1 = [line for line in qm4.log if line.startswith("AMQ9456W") and "record of Q1 " in line]
    assert len(about_q1) == 1 and "queue manager QM3" in about_q1[0] and "27 days" in about_q1[0]
    qm4.age()  # the same day again: not again
    assert len([line for line in qm4.log if "record of Q1 " in line]) == 1
    assert owners(qm4, "QUEUE", "Q1") == {"QM3"}  # still usable
    q1.now[0] = start + 90 * DAY
    qm4.age()
    assert qm4.live("QUEUE", name="Q1") == [] and qm4.qmgr_record("QM3") is None
    assert any(line.startswith("AMQ9457I") and "record of Q1 " in line for line in qm4.log)
    assert ("QMGR", CL, "QM4", "QM4") in qm4.cache  # its own membership stays
    assert not [line for line in qm4.log if "queue manager QM4 " in line]
    assert f"QUEUE|{CL}|Q1|QM3" not in stored(qm4.outbox.tx)[STORE_KIND]


def test_the_owners_republication_keeps_a_subscribers_copy_fresh(q1: Net) -> None:
    """A-20: the host republishes well inside 27 days; then no member warns about its records."""
    start = q1.now[0]
    for day in (10, 20):  # the repository manager's REPUBLISH_EVERY is 10 days
        q1.now[0] = start + day * DAY
        for state in q1.states.values():
            state.republish()
        q1.pump()
    q1.now[0] = start + 30 * DAY
    qm4 = q1.states["QM4"]
    qm4.age()
    assert not [line for line in qm4.log if "AMQ9456W" in line]


def test_what_is_stored_restores_the_same_repository(q1: Net) -> None:
    """Cached records (kind "cluster") and subscriptions (kind "clussub") go into the caller's
    store transaction; a queue manager restarted from them knows and publishes the same."""
    q1.lookup("QM4", "Q2")
    q1.define("QM5", "Q2", PUT="DISABLED")
    q1.delete("QM5", "Q2")
    q1.states["QM3"].suspend([CL], True)
    q1.pump()

    def snapshot(state: ClusterState) -> dict[Any, Any]:
        return {k: (r.stamp, dict(r.attrs), r.deleted, r.refreshed) for k, r in state.cache.items()}

    for name in ("FR1", "QM3", "QM4"):
        before = q1.states[name]
        tables = stored(before.outbox.tx)
        assert tables[STORE_KIND] and set(tables) <= {STORE_KIND, SUBS_KIND}
        restarted = Net()
        after = restarted.add(name, full=name.startswith("FR"), sender_to=SENDS_TO[name])
        restarted.qdefs[name].update(q1.qdefs[name])
        after.restore(tables[STORE_KIND], tables.get(SUBS_KIND, {}))
        assert snapshot(after) == snapshot(before), name
        assert after.subscribers == before.subscribers and after.suspended == before.suspended, name
        for kind in ("QMGR", "QUEUE"):
            assert after.live(kind) == before.live(kind)
        after.changed()  # nothing differs from what was published before the restart
        assert not restarted.wire, name
    assert q1.states["FR1"].subscribers[CL][("QUEUE", "Q1")] == {"QM4"}
    assert q1.states["QM3"].suspended == {CL}
    qm3 = Net().add("QM3", sender_to=SENDS_TO["QM3"])
    qm3.restore(stored(q1.states["QM3"].outbox.tx)[STORE_KIND], {})
    qm3.changed()  # its counter goes on from the stored stamps: a change is newer than anything sent
    newest = max(r.stamp for r in q1.states["QM3"].cache.values() if r.owner == "QM3")
    assert qm3.cache[("QMGR", CL, "QM3", "QM3")].stamp > newest


# -- the repository messages on the wire ---------------------------------------------------------------
def body(**fields: Any) -> bytes:
    return json.dumps({"v": 1, "sender": "QM1", **fields}).encode()


def record_body(**fields: Any) -> dict[str, Any]:
    return {"kind": "QUEUE", "cluster": CL, "name": "Q1", "owner": "QM3", "stamp": [1.0, 1], "attrs": {},
            **fields}


@pytest.mark.parametrize("data", [
    b"not json", b"\xff\xfe", b"[1, 2]",
    json.dumps({"v": 2, "sender": "QM1", "op": "query", "kind": "QUEUE", "name": "Q1"}).encode(),
    body(op="gossip"), body(op="query", kind="QUEUE", name="Q" * 49), body(op="query", kind="CHANNEL", name="Q1"),
    body(op="publish", records=[record_body(stamp="yesterday")]),
    body(op="publish", records=[record_body(stamp=[1.0])]),
    body(op="publish", records=[record_body(stamp=[1.0, True])]),
    body(op="publish", records=[record_body(stamp=[1.0, 1.5])]),
    body(op="publish", records=[record_body(attrs=["PUT", "DISABLED"])]),
    body(op="publish", records=[record_body(attrs={"PUT": {"nested": 1}})]),
    body(op="publish", records=[record_body(deleted="yes")]),
    body(op="publish", records=[record_body(owner="")]), body(op="publish", records={}),
    body(op="remove", cluster=CL, qmgr="Q" * 49), body(op="remove", cluster=CL),
], ids=lambda data: data.decode(errors="replace")[:60])
def test_malformed_repository_messages_are_format_errors(data: bytes) -> None:
    with pytest.raises(ClusterProtocolError) as error:
        decode(data)
    assert isinstance(error.value, MQError) and error.value.reason == C.MQRC_FORMAT_ERROR == 2110


def crashes(name: str, data: bytes, raises: type[BaseException], why: str) -> Any:
    """Inputs that once escaped ``decode`` as ``raises`` or were taken (``why``): now format errors."""
    return pytest.param(data, id=name)


def stamp(value: str) -> bytes:
    return body(op="publish", records=[record_body(stamp=[0, 1])]).replace(b"[0, 1]", f"[{value}, 1]".encode())


@pytest.mark.parametrize("data", [
    crashes("deep-nesting", b"[" * 100_000, RecursionError, "json.loads raises RecursionError, not caught by decode"),
    crashes("huge-stamp", stamp("1" + "0" * 400), OverflowError, "float(stamp[0]) overflows, not caught by decode"),
    crashes("infinite-stamp", stamp("Infinity"), pytest.fail.Exception, "a stamp of Infinity is accepted: that "
            "copy would beat every later ALTER or DELETE of its owner (B:R-CLU-11)"),
    crashes("nan-stamp", stamp("NaN"), pytest.fail.Exception, "a NaN stamp is accepted (it compares as neither "
            "older nor newer)"),
])
def test_malformed_beyond_json_limits_is_a_format_error_too(data: bytes) -> None:
    """decode promises ClusterProtocolError for every malformed message, never another exception."""
    with pytest.raises(ClusterProtocolError):
        decode(data)


names = st.text(st.characters(exclude_categories=("C", "Z")), min_size=1, max_size=48)  # printable
kinds = st.sampled_from(["QMGR", "QUEUE", "TOPIC"])
ints64 = st.integers(-(2**63), 2**63 - 1)  # what the store (msgpack) holds
texts = st.text(st.characters(exclude_categories=("Cs",)), max_size=8)  # no lone surrogates
attr_values = st.one_of(st.none(), st.booleans(), ints64, st.floats(allow_nan=False), texts,
                        st.lists(st.one_of(ints64, texts), max_size=3))
records = st.builds(ClusterRecord, kind=kinds, cluster=names, name=names, owner=names,
                    stamp=st.tuples(st.floats(allow_nan=False, allow_infinity=False), st.integers(0, 2**63 - 1)),
                    attrs=st.dictionaries(texts, attr_values, max_size=4), deleted=st.booleans())
messages = st.one_of(
    st.builds(Publish, sender=names, records=st.lists(records, max_size=3).map(tuple),
              answer_to=st.text(st.characters(exclude_categories=("C", "Z")), max_size=48)),
    st.builds(Query, sender=names, cluster=st.text(st.characters(exclude_categories=("C", "Z")), max_size=48),
              kind=kinds, name=names),
    st.builds(Remove, sender=names, cluster=names, qmgr=names))


@given(messages)
def test_decode_reverses_encode(message: ClusterMessage) -> None:
    assert decode(encode(message)) == message


def decodes_or_format_error(data: bytes) -> None:
    with contextlib.suppress(ClusterProtocolError):
        decode(data)


@given(st.binary(max_size=300))
def test_arbitrary_bytes_decode_or_raise_a_format_error(data: bytes) -> None:
    decodes_or_format_error(data)


json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-(2**63), 2**63), st.floats(allow_nan=False), st.text(max_size=50)),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3), max_leaves=8)
record_fields = st.dictionaries(st.sampled_from(["kind", "cluster", "name", "owner", "stamp", "attrs", "deleted"]),
                                json_values | st.sampled_from(["QUEUE", "QMGR", CL, "Q1"]))


@given(st.fixed_dictionaries({"v": st.sampled_from([1, 1, 2, "1"]), "op": st.sampled_from(["publish", "query",
                                                                                           "remove", "x"])},
                             optional={"sender": json_values | names, "records": st.lists(record_fields, max_size=2)
                                       | json_values, "answer_to": json_values, "kind": json_values | kinds,
                                       "name": json_values | names, "cluster": json_values | names,
                                       "qmgr": json_values | names}))
def test_near_miss_messages_decode_or_raise_a_format_error(fields: dict[str, Any]) -> None:
    """Structured inputs reach the checks past the JSON parser (numbers stay within ±2**63: a
    larger stamp is a case above)."""
    decodes_or_format_error(json.dumps(fields).encode())
