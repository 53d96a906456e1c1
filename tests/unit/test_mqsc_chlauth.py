"""SET CHLAUTH and DISPLAY CHLAUTH against the core: IBM's default records, ACTION(ADD, REPLACE,
REMOVE, REMOVEALL) with IBM's checks, the display layouts, MATCH(RUNCHECK), ALTER QMGR CHLAUTH,
and records surviving a restart through the store. Connections over TCP are in
tests/integration/test_chlauth.py."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from mqlite import cmqc as C
from mqlite.core.qmgr import QueueManager
from mqlite.core.security.chlauth import Connecting
from mqlite.mqsc.commands import execute


def make_qmgr() -> QueueManager:
    qm = QueueManager("QM1", creator="mqadmin")
    qm.bootstrap()
    return qm


def test_new_queue_manager_has_ibm_default_records_and_chlauth_enabled() -> None:
    qm = make_qmgr()
    lines = execute(qm, "DISPLAY CHLAUTH(*)")
    assert lines == [
        "AMQ8878I: Display channel authentication record details.",
        "   CHLAUTH(DEV.ADMIN.SVRCONN)              TYPE(BLOCKUSER)",
        "   USERLIST(nobody)",
        "AMQ8878I: Display channel authentication record details.",
        "   CHLAUTH(SYSTEM.ADMIN.SVRCONN)           TYPE(ADDRESSMAP)",
        "   ADDRESS(*)                              USERSRC(CHANNEL)",
        "AMQ8878I: Display channel authentication record details.",
        "   CHLAUTH(SYSTEM.*)                       TYPE(ADDRESSMAP)",
        "   ADDRESS(*)                              USERSRC(NOACCESS)",
        "AMQ8878I: Display channel authentication record details.",
        "   CHLAUTH(*)                              TYPE(BLOCKUSER)",
        "   USERLIST(*MQADMIN)",
    ]
    assert "CHLAUTH(ENABLED)" in "\n".join(execute(qm, "DISPLAY QMGR CHLAUTH"))


def test_display_all_shows_ibm_attribute_order() -> None:
    qm = make_qmgr()
    lines = execute(qm, "DISPLAY CHLAUTH(SYSTEM.*) MATCH(EXACT) ALL")
    assert lines[0] == "AMQ8878I: Display channel authentication record details."
    assert lines[1] == "   CHLAUTH(SYSTEM.*)                       TYPE(ADDRESSMAP)"
    assert lines[2] == "   DESCR(Default rule to disable all SYSTEM channels)"
    assert lines[3] == "   CUSTOM( )                               ADDRESS(*)"
    assert lines[4] == "   USERSRC(NOACCESS)                       WARN(NO)"
    assert lines[5].startswith("   ALTDATE(") and "ALTTIME(" in lines[5]


def test_set_chlauth_add_then_add_again_is_refused_and_replace_works() -> None:
    qm = make_qmgr()
    cmd = "SET CHLAUTH('APP.*') TYPE(ADDRESSMAP) ADDRESS('192.168.1-20.*') USERSRC(MAP) MCAUSER('app')"
    assert execute(qm, cmd) == ["AMQ8877I: WebSphere MQ channel authentication record set."]
    assert execute(qm, cmd) == ["AMQ8883E: Channel authentication record already exists."]
    assert execute(qm, cmd.replace("'app'", "'app2'") + " ACTION(REPLACE)") == [
        "AMQ8877I: WebSphere MQ channel authentication record set."]
    assert execute(qm, "DISPLAY CHLAUTH(APP.*)")[1:] == [
        "   CHLAUTH(APP.*)                          TYPE(ADDRESSMAP)",
        "   ADDRESS(192.168.1-20.*)                 USERSRC(MAP)",
        "   MCAUSER(app2)"]


def test_blockuser_add_appends_replace_replaces_remove_takes_out() -> None:
    qm = make_qmgr()
    execute(qm, "SET CHLAUTH(APP.SVRCONN) TYPE(BLOCKUSER) USERLIST('guest')")
    execute(qm, "SET CHLAUTH(APP.SVRCONN) TYPE(BLOCKUSER) USERLIST('anon', 'guest')")
    assert "USERLIST(guest,anon)" in execute(qm, "DISPLAY CHLAUTH(APP.SVRCONN) USERLIST")[2]
    execute(qm, "SET CHLAUTH(APP.SVRCONN) TYPE(BLOCKUSER) USERLIST('guest') ACTION(REMOVE)")
    assert "USERLIST(anon)" in execute(qm, "DISPLAY CHLAUTH(APP.SVRCONN) USERLIST")[2]
    execute(qm, "SET CHLAUTH(APP.SVRCONN) TYPE(BLOCKUSER) USERLIST('x','y') ACTION(REPLACE)")
    assert "USERLIST(x,y)" in execute(qm, "DISPLAY CHLAUTH(APP.SVRCONN) USERLIST")[2]
    execute(qm, "SET CHLAUTH(APP.SVRCONN) TYPE(BLOCKUSER) ACTION(REMOVEALL)")
    assert execute(qm, "DISPLAY CHLAUTH(APP.SVRCONN)") == ["AMQ8884E: Channel authentication record not found."]


def test_remove_needs_the_identifying_values_and_removeall_takes_every_mapping() -> None:
    qm = make_qmgr()
    execute(qm, "SET CHLAUTH(A.*) TYPE(USERMAP) CLNTUSER('bob') USERSRC(MAP) MCAUSER('app')")
    execute(qm, "SET CHLAUTH(A.*) TYPE(USERMAP) CLNTUSER('eve') USERSRC(NOACCESS)")
    assert execute(qm, "SET CHLAUTH(A.*) TYPE(USERMAP) CLNTUSER('zed') ACTION(REMOVE)") == [
        "AMQ8884E: Channel authentication record not found."]
    assert execute(qm, "SET CHLAUTH(A.*) TYPE(USERMAP) CLNTUSER('bob') ACTION(REMOVE)")[0].startswith("AMQ8877I")
    assert len(qm.chlauth_rows("A.*")) == 1
    execute(qm, "SET CHLAUTH(A.*) TYPE(USERMAP) ACTION(REMOVEALL)")
    assert qm.chlauth_rows("A.*") == []


@pytest.mark.parametrize(("command", "reason"), [
    ("SET CHLAUTH(APP) TYPE(BLOCKADDR) ADDRLIST('1.2.3.4')", C.MQRCCF_CHLAUTH_NAME_ERROR),
    ("SET CHLAUTH(APP) TYPE(ADDRESSMAP) USERSRC(CHANNEL)", C.MQRCCF_PARM_MISSING),
    ("SET CHLAUTH(APP) TYPE(ADDRESSMAP) ADDRESS('*')", C.MQRCCF_CHLAUTH_USERSRC_ERROR),  # MAP needs MCAUSER
    ("SET CHLAUTH(APP) TYPE(ADDRESSMAP) ADDRESS('*') USERSRC(NOACCESS) MCAUSER(x)", C.MQRCCF_WRONG_CHLAUTH_USERSRC),
    ("SET CHLAUTH(APP) TYPE(ADDRESSMAP) ADDRESS('host.example.com') USERSRC(CHANNEL)", C.MQRCCF_ADDRESS_ERROR),
    ("SET CHLAUTH(APP) TYPE(ADDRESSMAP) ADDRESS('1.2.9-3.*') USERSRC(CHANNEL)", C.MQRCCF_IPADDR_RANGE_ERROR),
    ("SET CHLAUTH(APP) TYPE(BLOCKUSER) USERLIST(x) CLNTUSER(y)", C.MQRCCF_WRONG_CHLAUTH_TYPE),
    ("SET CHLAUTH(APP) TYPE(QMGRMAP) QMNAME(Q) USERSRC(CHANNEL) CHCKCLNT(REQUIRED)", C.MQRCCF_WRONG_CHLAUTH_TYPE),
    ("SET CHLAUTH(APP) TYPE(ADDRESSMAP) ADDRESS('*') USERSRC(CHANNEL) CHCKCLNT(NONE)", C.MQRCCF_CHLAUTH_CHKCLI_ERROR),
    ("SET CHLAUTH(APP) TYPE(ADDRESSMAP) ADDRESS('*') USERSRC(CHANNEL) WARN(YES)", C.MQRCCF_CHLAUTH_WARN_ERROR),
    ("SET CHLAUTH(APP) TYPE(ADDRESSMAP) ADDRESS('*') MCAUSER(x) ACTION(REMOVE)", C.MQRCCF_WRONG_CHLAUTH_ACTION),
    ("SET CHLAUTH(APP) TYPE(ADDRESSMAP) ADDRESS('*') ACTION(REMOVEALL)", C.MQRCCF_WRONG_CHLAUTH_ACTION),
    ("SET CHLAUTH(APP) TYPE(ADDRESSMAP) ADDRESS('*') USERSRC(CHANNEL) ACTION(MERGE)", C.MQRCCF_CHLAUTH_ACTION_ERROR),
    ("SET CHLAUTH(APP) TYPE(OTHERMAP) ADDRESS('*')", C.MQRCCF_CHLAUTH_TYPE_ERROR),
    ("SET CHLAUTH('A.VERY.LONG.CHANNEL.NAME') TYPE(BLOCKUSER) USERLIST(x)", C.MQRCCF_CHLAUTH_NAME_ERROR),
])
def test_set_chlauth_refusals_carry_ibm_reasons(command: str, reason: int) -> None:
    qm = make_qmgr()
    lines = execute(qm, command)
    assert len(lines) == 1 and f"({reason})" in lines[0], lines
    assert len(qm.chlauth_rows("*")) == 4  # nothing was added


def test_unknown_keyword_is_a_syntax_error() -> None:
    lines = execute(make_qmgr(), "SET CHLAUTH(APP) TYPE(ADDRESSMAP) ADDRESS('*') BOGUS(1)")
    assert lines[0].startswith("AMQ8405I")
    assert execute(make_qmgr(), "DISPLAY CHLAUTH(*) WHERE(BOGUS EQ 1)")[0].startswith("AMQ8405I")


def test_display_where_filters_records() -> None:
    qm = make_qmgr()
    lines = execute(qm, "DISPLAY CHLAUTH(*) WHERE(TYPE EQ BLOCKUSER)")
    assert [line for line in lines if "CHLAUTH(" in line] == [
        "   CHLAUTH(DEV.ADMIN.SVRCONN)              TYPE(BLOCKUSER)",
        "   CHLAUTH(*)                              TYPE(BLOCKUSER)"]
    lines = execute(qm, "DISPLAY CHLAUTH(*) WHERE(USERSRC EQ NOACCESS)")
    assert lines[1:] == ["   CHLAUTH(SYSTEM.*)                       TYPE(ADDRESSMAP)",
                         "   ADDRESS(*)                              USERSRC(NOACCESS)"]
    assert execute(qm, "DISPLAY CHLAUTH(*) WHERE(USERLIST CT 'nobody')")[1].startswith("   CHLAUTH(DEV.ADMIN")


def test_runcheck_shows_the_record_a_connection_would_match() -> None:
    qm = make_qmgr()
    blocked = execute(qm, "DISPLAY CHLAUTH(SYSTEM.DEF.SVRCONN) MATCH(RUNCHECK) ADDRESS('10.1.1.1') CLNTUSER('bob')")
    assert blocked[:4] == ["AMQ8878I: Display channel authentication record details.",
                           "   CHLAUTH(SYSTEM.*)                       TYPE(ADDRESSMAP)",
                           "   DESCR(Default rule to disable all SYSTEM channels)",
                           "   CUSTOM( )                               ADDRESS(*)"]
    admin = execute(qm, "DISPLAY CHLAUTH(DEV.APP.SVRCONN) MATCH(RUNCHECK) ADDRESS('10.1.1.1') CLNTUSER('mqadmin') "
                        "USERLIST")
    assert admin[1:] == ["   CHLAUTH(*)                              TYPE(BLOCKUSER)", "   USERLIST(*MQADMIN)"]
    assert execute(qm, "DISPLAY CHLAUTH(DEV.APP.SVRCONN) MATCH(RUNCHECK) ADDRESS('10.1.1.1') CLNTUSER('bob')") == [
        "AMQ9783I: Channel will run using MCAUSER('bob')."]
    execute(qm, "SET CHLAUTH(DEV.APP.SVRCONN) TYPE(USERMAP) CLNTUSER('bob') USERSRC(MAP) MCAUSER('app')")
    mapped = execute(qm, "DISPLAY CHLAUTH(DEV.APP.SVRCONN) MATCH(RUNCHECK) ALL ADDRESS('10.1.1.1') CLNTUSER('bob')")
    assert "TYPE(USERMAP)" in mapped[1] and "CLNTUSER(bob)" in "".join(mapped) and "MCAUSER(app)" in "".join(mapped)


@pytest.mark.parametrize("command", [
    "DISPLAY CHLAUTH(DEV.*) MATCH(RUNCHECK) ADDRESS('10.1.1.1') CLNTUSER('bob')",
    "DISPLAY CHLAUTH(DEV.APP.SVRCONN) MATCH(RUNCHECK) CLNTUSER('bob')",
    "DISPLAY CHLAUTH(DEV.APP.SVRCONN) MATCH(RUNCHECK) ADDRESS('10.1.*') CLNTUSER('bob')",
])
def test_runcheck_needs_specific_values(command: str) -> None:
    assert f"({C.MQRCCF_CHLAUTH_RUNCHECK_ERROR})" in execute(make_qmgr(), command)[0]


def test_display_match_generic_exact_and_all() -> None:
    qm = make_qmgr()
    shown = {row["CHLAUTH"] for row in qm.chlauth_rows("SYSTEM.*")}
    assert shown == {"SYSTEM.*", "SYSTEM.ADMIN.SVRCONN"}
    assert {row["CHLAUTH"] for row in qm.chlauth_rows("SYSTEM.*", match="EXACT")} == {"SYSTEM.*"}
    applying = {row["CHLAUTH"] for row in qm.chlauth_rows("SYSTEM.DEF.SVRCONN", match="ALL")}
    assert applying == {"SYSTEM.*", "*"}
    assert {row["TYPE"] for row in qm.chlauth_rows("*", kind="BLOCKUSER")} == {"BLOCKUSER"}


def test_alter_qmgr_chlauth_disabled_turns_the_check_off() -> None:
    qm = make_qmgr()
    conn = Connecting("SYSTEM.DEF.SVRCONN", "10.1.1.1", "bob")
    assert not qm.check_channel(conn).allowed
    assert execute(qm, "ALTER QMGR CHLAUTH(DISABLED)") == ["AMQ8005I: WebSphere MQ queue manager changed."]
    assert qm.check_channel(conn).allowed
    assert execute(qm, "DISPLAY CHLAUTH(SYSTEM.*)")[0].startswith("AMQ8878I")  # the records stay
    runcheck = execute(qm, "DISPLAY CHLAUTH(SYSTEM.DEF.SVRCONN) MATCH(RUNCHECK) ADDRESS('1.2.3.4') CLNTUSER(bob)")
    assert f"({C.MQRCCF_CHLAUTH_DISABLED})" in runcheck[0]


def test_mqadmin_uses_the_groups_the_server_supplies() -> None:
    qm = make_qmgr()
    conn = Connecting("DEV.APP.SVRCONN", "10.1.1.1", "carol")
    assert qm.check_channel(conn).allowed
    qm.chlauth.groups_of = lambda user: frozenset({"mqm"}) if user == "carol" else frozenset()
    assert qm.check_channel(conn).qualifier == C.MQRQ_CHANNEL_BLOCKED_USERID
    assert not qm.check_channel(Connecting("DEV.APP.SVRCONN", "10.1.1.1", "mqadmin")).allowed  # the creator


def test_records_survive_a_restart(store_mq: Any, recover: Callable[[], Any]) -> None:
    qm = store_mq.qm
    execute(qm, "SET CHLAUTH(APP.*) TYPE(ADDRESSMAP) ADDRESS('10.*') USERSRC(MAP) MCAUSER('app') DESCR('lan')")
    execute(qm, "SET CHLAUTH(SYSTEM.*) TYPE(ADDRESSMAP) ADDRESS('*') ACTION(REMOVE)")
    execute(qm, "ALTER QMGR CHLAUTH(DISABLED)")
    store_mq.flush()
    again = recover().qm
    assert again.chlauth_rows("*") == qm.chlauth_rows("*")
    assert {row["CHLAUTH"] for row in again.chlauth_rows("*")} >= {"APP.*"}
    assert "SYSTEM.*" not in {row["CHLAUTH"] for row in again.chlauth_rows("*")}
    assert again.attrs["CHLAUTH"] == "DISABLED"


def test_a_queue_manager_older_than_chlauth_gets_the_defaults_and_removals_stick(store_mq: Any, store: Any,
                                                                                recover: Callable[[], Any]) -> None:
    from mqlite.core.security.chlauth_service import MARKER_KEY, STORE_KIND
    from mqlite.store.tx import StoreTx

    qm = store_mq.qm
    tx = StoreTx()  # as a store written before channel authentication existed: no records, no marker
    for key in [*store.load_records(STORE_KIND)]:
        tx.delete_record(STORE_KIND, key)
    store.write(tx)
    upgraded = recover()
    assert len(upgraded.qm.chlauth_rows("*")) == 4
    upgraded.flush()
    assert MARKER_KEY in store.load_records(STORE_KIND)
    for row in qm.chlauth_rows("*"):  # the administrator removes every record: none come back
        execute(upgraded.qm, f"SET CHLAUTH('{row['CHLAUTH']}') TYPE({row['TYPE']}) ACTION(REMOVEALL)")
    upgraded.flush()
    assert recover().qm.chlauth_rows("*") == []
