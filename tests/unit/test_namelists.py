"""NAMELIST objects in the core (core/namelists.py, routed by core/admin.py): IBM's rules for
DEFINE (REPLACE, LIKE, defaults from SYSTEM.DEFAULT.NAMELIST), ALTER, DELETE and DISPLAY rows,
the limits on NAMES, the system namelists, restore from the store, ``names`` for the services
that read a namelist, and the authority each admin command needs. MQSC's view of them is in
test_mqsc_namelists.py."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from mqlite import cmqc as C
from mqlite.core import attributes
from mqlite.core.errors import MQError
from mqlite.core.namelists import DEFAULT_NAMELIST, MAX_NAMES, QPUBSUB_NAMELIST, SYSTEM_NAMELISTS, Namelists
from mqlite.core.outbox import Outbox
from mqlite.core.qmgr import QueueManager
from mqlite.core.security.principal import Principal
from mqlite.core.security.records import PRINCIPAL
from mqlite.store.sqlite import Store, decode_value
from mqlite.store.tx import StoreTx

STREAMS = ("SYSTEM.BROKER.DEFAULT.STREAM", "SYSTEM.BROKER.ADMIN.STREAM")


@pytest.fixture
def nl(qm: QueueManager) -> Namelists:
    return qm.admin.namelists


def reason(call: Callable[[], Any]) -> int:
    with pytest.raises(MQError) as info:
        call()
    return info.value.reason


def records(qm: QueueManager) -> dict[str, Any]:
    """The namelist records the last calls wrote (None: deleted)."""
    tx = qm.take_effects().tx
    assert tx is not None
    out: dict[str, Any] = {}
    for _op, rows in tx.runs:
        for row in rows:
            if row[0] == "object" and str(row[1]).startswith("NAMELIST/"):
                out[row[1]] = decode_value(row[2]) if len(row) > 2 else None
    return out


# -- the system namelists ------------------------------------------------------------------------
def test_a_new_queue_manager_has_ibms_system_namelists(nl: Namelists) -> None:
    assert set(nl.namelists) == set(SYSTEM_NAMELISTS)
    assert nl.names(DEFAULT_NAMELIST) == ()
    assert nl.names(QPUBSUB_NAMELIST) == STREAMS
    row = nl.rows(QPUBSUB_NAMELIST)[0]
    assert row["NAMCOUNT"] == 2 and row["NLTYPE"] == "NONE"
    assert row["DESCR"] == "A list of queues for the queued Pub/Sub interface to monitor"


def test_the_system_namelists_are_written_to_the_store() -> None:
    qm = QueueManager("QM1")
    qm.bootstrap()
    written = records(qm)
    assert written[f"NAMELIST/{QPUBSUB_NAMELIST}"]["NAMES"] == list(STREAMS)
    assert f"NAMELIST/{DEFAULT_NAMELIST}" in written


# -- DEFINE ------------------------------------------------------------------------------------
def test_define_with_ibm_defaults_and_alteration_time(qm: QueueManager, nl: Namelists, clock: Any) -> None:
    qm.define("NAMELIST", "CLUSTERS", {"NAMES": ["CL1", "CL2"], "DESCR": "my clusters"})
    row = qm.objects("NAMELIST", "CLUSTERS")[0]
    date, time_ = attributes.date_and_time(clock.now)
    assert row == {"NAMELIST": "CLUSTERS", "NAMCOUNT": 2, "NAMES": ["CL1", "CL2"], "DESCR": "my clusters",
                   "NLTYPE": "NONE", "ALTDATE": date, "ALTTIME": time_}
    assert records(qm)["NAMELIST/CLUSTERS"]["NAMES"] == ["CL1", "CL2"]
    assert "NAMCOUNT" not in nl.namelists["CLUSTERS"]  # derived, never stored


def test_mqsc_spellings_are_taken(qm: QueueManager, nl: Namelists) -> None:
    qm.define("NAMELIST", "Q.LIST", {"NAMES": "A, B,C", "NLTYPE": "q"})
    assert nl.names("Q.LIST") == ("A", "B", "C") and nl.namelists["Q.LIST"]["NLTYPE"] == "QUEUE"
    qm.define("NAMELIST", "EMPTY", {"NAMES": ""})  # NAMES() is valid: an empty list
    assert nl.names("EMPTY") == ()


def test_define_of_an_existing_one_needs_replace(qm: QueueManager, nl: Namelists) -> None:
    qm.define("NAMELIST", "N", {"NAMES": ["A"], "DESCR": "first"})
    assert reason(lambda: qm.define("NAMELIST", "N", {"NAMES": ["B"]})) == C.MQRC_OBJECT_ALREADY_EXISTS
    assert nl.names("N") == ("A",)
    # REPLACE defines it afresh: what is not given comes from SYSTEM.DEFAULT.NAMELIST, not from N
    qm.define("NAMELIST", "N", {"NAMES": ["B"]}, replace=True)
    assert nl.names("N") == ("B",) and nl.namelists["N"]["DESCR"] == ""
    qm.define("NAMELIST", "FRESH", {}, replace=True)  # REPLACE of none defines it
    assert nl.names("FRESH") == ()


def test_defaults_come_from_system_default_namelist(qm: QueueManager, nl: Namelists) -> None:
    qm.alter("NAMELIST", DEFAULT_NAMELIST, {"DESCR": "site default", "NAMES": ["SITE.CLUSTER"]})
    qm.define("NAMELIST", "N", {})
    assert nl.namelists["N"]["DESCR"] == "site default" and nl.names("N") == ("SITE.CLUSTER",)
    qm.delete("NAMELIST", DEFAULT_NAMELIST)  # gone: the catalogue's defaults
    qm.define("NAMELIST", "M", {})
    assert nl.namelists["M"]["DESCR"] == "" and nl.names("M") == ()


def test_define_like_copies_the_model(qm: QueueManager, nl: Namelists) -> None:
    qm.define("NAMELIST", "MODEL", {"NAMES": ["A", "B"], "DESCR": "model", "NLTYPE": "CLUSTER"})
    qm.define("NAMELIST", "COPY", {"DESCR": "copy"}, like="MODEL")
    assert nl.names("COPY") == ("A", "B") and nl.namelists["COPY"]["NLTYPE"] == "CLUSTER"
    assert nl.namelists["COPY"]["DESCR"] == "copy"
    qm.alter("NAMELIST", "MODEL", {"NAMES": ["Z"]})
    assert nl.names("COPY") == ("A", "B")  # a copy, not the model's list
    assert reason(lambda: qm.define("NAMELIST", "X", {}, like="NO.SUCH")) == C.MQRC_UNKNOWN_OBJECT_NAME
    assert "X" not in nl.namelists


@pytest.mark.parametrize("name", ["", "x" * 49, "has space", " LEAD", "BAD*"])
def test_namelist_names_are_object_names(qm: QueueManager, name: str) -> None:
    assert reason(lambda: qm.define("NAMELIST", name, {})) == C.MQRCCF_OBJECT_NAME_ERROR


def test_names_limits(qm: QueueManager, nl: Namelists) -> None:
    qm.define("NAMELIST", "FULL", {"NAMES": [f"N{i}" for i in range(MAX_NAMES)]})  # IBM's 256
    assert nl.rows("FULL")[0]["NAMCOUNT"] == MAX_NAMES
    too_many = [f"N{i}" for i in range(MAX_NAMES + 1)]
    assert reason(lambda: qm.define("NAMELIST", "OVER", {"NAMES": too_many})) == C.MQRCCF_PARM_VALUE_ERROR
    assert reason(lambda: qm.alter("NAMELIST", "FULL", {"NAMES": too_many})) == C.MQRCCF_PARM_VALUE_ERROR
    assert nl.rows("FULL")[0]["NAMCOUNT"] == MAX_NAMES  # a refused ALTER changes nothing
    qm.define("NAMELIST", "LONGEST", {"NAMES": ["X" * 48]})
    assert reason(lambda: qm.define("NAMELIST", "LONG", {"NAMES": ["X" * 49]})) == C.MQRCCF_PARM_VALUE_ERROR
    assert reason(lambda: qm.define("NAMELIST", "SPACE", {"NAMES": ["A B"]})) == C.MQRCCF_PARM_VALUE_ERROR
    assert "OVER" not in nl.namelists and "LONG" not in nl.namelists and "SPACE" not in nl.namelists


def test_namcount_is_not_settable_and_unknown_attributes_are_refused(qm: QueueManager) -> None:
    for attrs in ({"NAMCOUNT": 3}, {"MAXDEPTH": 5}, {"NLTYPE": "TOPIC"}, {"DESCR": "d" * 65}):
        with pytest.raises(attributes.InvalidAttribute):
            qm.define("NAMELIST", "N", attrs)


# -- ALTER / DELETE / DISPLAY / names ------------------------------------------------------------
def test_alter_changes_what_it_names_only(qm: QueueManager, nl: Namelists, clock: Any) -> None:
    qm.define("NAMELIST", "N", {"NAMES": ["A"], "DESCR": "kept"})
    qm.take_effects()
    clock.advance(3600)
    qm.alter("NAMELIST", "N", {"NAMES": ["A", "B"]})
    assert nl.names("N") == ("A", "B") and nl.namelists["N"]["DESCR"] == "kept"
    assert (nl.namelists["N"]["ALTDATE"], nl.namelists["N"]["ALTTIME"]) == attributes.date_and_time(clock.now)
    assert records(qm)["NAMELIST/N"]["NAMES"] == ["A", "B"]
    assert reason(lambda: qm.alter("NAMELIST", "NONE", {"DESCR": "x"})) == C.MQRC_UNKNOWN_OBJECT_NAME


def test_delete(qm: QueueManager, nl: Namelists) -> None:
    qm.define("NAMELIST", "N", {"NAMES": ["A"]})
    qm.take_effects()
    qm.delete("NAMELIST", "N")
    assert "N" not in nl.namelists
    assert records(qm) == {"NAMELIST/N": None}
    assert reason(lambda: qm.delete("NAMELIST", "N")) == C.MQRC_UNKNOWN_OBJECT_NAME


def test_rows_by_generic_name(qm: QueueManager) -> None:
    qm.define("NAMELIST", "APP.ONE", {"NAMES": ["A"]})
    qm.define("NAMELIST", "APP.TWO", {})
    assert [row["NAMELIST"] for row in qm.objects("NAMELIST", "APP.*")] == ["APP.ONE", "APP.TWO"]
    assert [row["NAMELIST"] for row in qm.objects("NAMELIST", "*")] == ["APP.ONE", "APP.TWO", *sorted(SYSTEM_NAMELISTS)]
    assert qm.objects("NAMELIST", "NOTHING.*") == []
    assert reason(lambda: qm.objects("NAMELIST", "NOTHING")) == C.MQRC_UNKNOWN_OBJECT_NAME
    row = qm.objects("NAMELIST", "APP.ONE")[0]
    row["NAMES"].append("CHANGED")  # a row is a copy
    assert qm.objects("NAMELIST", "APP.ONE")[0]["NAMES"] == ["A"]


def test_names_of_an_unknown_namelist(nl: Namelists) -> None:
    assert reason(lambda: nl.names("NO.SUCH.NAMELIST")) == C.MQRC_UNKNOWN_OBJECT_NAME


# -- restore -------------------------------------------------------------------------------------
def test_definitions_survive_a_restart(store_mq: Any, recover: Callable[[], Any]) -> None:
    qm = store_mq.qm
    qm.define("NAMELIST", "KEPT", {"NAMES": ["CL1", "CL2"], "DESCR": "kept", "NLTYPE": "CLUSTER"})
    qm.define("NAMELIST", "GONE", {})
    qm.delete("NAMELIST", "GONE")
    qm.alter("NAMELIST", QPUBSUB_NAMELIST, {"NAMES": [*STREAMS, "SYSTEM.FTE"]})
    before = qm.objects("NAMELIST", "*")
    store_mq.flush()
    again = recover().qm  # as the server recovers at start
    assert again.objects("NAMELIST", "*") == before
    assert again.admin.namelists.names("KEPT") == ("CL1", "CL2")
    assert again.admin.namelists.names(QPUBSUB_NAMELIST) == (*STREAMS, "SYSTEM.FTE")


def test_restore_keeps_a_deleted_system_namelist_deleted(store_mq: Any, recover: Callable[[], Any]) -> None:
    store_mq.qm.delete("NAMELIST", QPUBSUB_NAMELIST)
    store_mq.flush()
    assert set(recover().qm.admin.namelists.namelists) == {DEFAULT_NAMELIST, "SYSTEM.QPUBSUB.SUBPOINT.NAMELIST"}


def test_a_queue_manager_from_before_namelists_gets_the_system_ones(store: Store) -> None:
    qm = QueueManager("QM1")
    qm.bootstrap()
    tx = qm.take_effects().tx
    assert tx is not None
    store.write(tx)
    for name in SYSTEM_NAMELISTS:  # as a store written before namelists existed holds none
        store.write(_deleting(name))
    assert not [key for key in store.load_records("object") if key.startswith("NAMELIST/")]
    again = QueueManager("QM1")
    again.restore(store.load_records("object"), {})
    assert again.admin.namelists.names(QPUBSUB_NAMELIST) == STREAMS
    assert DEFAULT_NAMELIST in again.admin.namelists.namelists


def _deleting(name: str) -> StoreTx:
    tx = StoreTx()
    tx.delete_record("object", f"NAMELIST/{name}")
    return tx


def test_the_service_alone() -> None:
    """Namelists needs only a clock and an outbox (what core.qmgr gives it)."""
    outbox = Outbox()
    service = Namelists(lambda: 0.0, outbox)
    service.bootstrap()
    service.bootstrap()  # idempotent
    assert service.names(QPUBSUB_NAMELIST) == STREAMS
    service.restore("R", {"NAMES": ["X"], "DESCR": "", "NLTYPE": "NONE"})
    assert service.names("R") == ("X",)


# -- authority (IBM: crt on the queue manager + dsp on SYSTEM.DEFAULT.NAMELIST or the LIKE one;
#    chg to ALTER or to DEFINE REPLACE an existing one; dlt; dsp) ----------------------------------
BOB = Principal("bob")
NL, QM = C.MQOT_NAMELIST, C.MQOT_Q_MGR
Grant = tuple[int, str, int]
COMMANDS: list[tuple[str, Callable[[Any], Any], list[Grant]]] = [
    ("define", lambda a: a.define("NAMELIST", "NEW", {}),
     [(QM, "QM1", C.MQZAO_CREATE), (NL, DEFAULT_NAMELIST, C.MQZAO_DISPLAY)]),
    ("define like", lambda a: a.define("NAMELIST", "NEW", {}, like="APP.NL"),
     [(QM, "QM1", C.MQZAO_CREATE), (NL, "APP.NL", C.MQZAO_DISPLAY)]),
    ("define replace", lambda a: a.define("NAMELIST", "APP.NL", {}, replace=True),
     [(NL, "APP.NL", C.MQZAO_CHANGE), (NL, DEFAULT_NAMELIST, C.MQZAO_DISPLAY)]),
    ("alter", lambda a: a.alter("NAMELIST", "APP.NL", {"DESCR": "x"}), [(NL, "APP.NL", C.MQZAO_CHANGE)]),
    ("delete", lambda a: a.delete("NAMELIST", "APP.NL"), [(NL, "APP.NL", C.MQZAO_DELETE)]),
    ("display", lambda a: a.objects("NAMELIST", "APP.NL"), [(NL, "APP.NL", C.MQZAO_DISPLAY)]),
]


def _checked(grants: list[Grant], command: Callable[[Any], Any]) -> bool:
    """Whether bob, with ``grants``, is let through."""
    qm = QueueManager("QM1", creator="owner")
    qm.bootstrap()
    qm.define("NAMELIST", "APP.NL", {"NAMES": ["A"]})
    for objtype, name, authority in grants:
        qm.security.set_authority(objtype, name, "bob", PRINCIPAL, add=authority)
    try:
        command(qm.admin_for(BOB))
    except MQError as error:
        assert error.reason == C.MQRC_NOT_AUTHORIZED, error
        return False
    return True


@pytest.mark.parametrize(("command", "needs"), [(c, n) for _, c, n in COMMANDS], ids=[i for i, _, _ in COMMANDS])
def test_every_namelist_command_is_checked(command: Callable[[Any], Any], needs: list[Grant]) -> None:
    assert not _checked([], command)
    assert _checked(needs, command)
    for missing in range(len(needs)):
        assert not _checked(needs[:missing] + needs[missing + 1:], command)


def test_delete_takes_the_namelists_authority_records_and_display_shows_what_may_be_seen() -> None:
    qm = QueueManager("QM1", creator="owner")
    qm.bootstrap()
    for name in ("APP.A", "APP.B"):
        qm.define("NAMELIST", name, {})
    qm.security.set_authority(NL, "APP.A", "bob", PRINCIPAL, add=C.MQZAO_DISPLAY | C.MQZAO_DELETE)
    admin = qm.admin_for(BOB)
    assert [row["NAMELIST"] for row in admin.objects("NAMELIST", "APP.*")] == ["APP.A"]
    admin.delete("NAMELIST", "APP.A")
    assert not [r for r in qm.security.records() if r.objtype == NL and r.profile == "APP.A"]
