"""Channel authentication with real queue managers: SET/DISPLAY CHLAUTH through runmqsc (IBM's
output), MATCH(RUNCHECK), records and the QMGR CHLAUTH switch surviving a restart, and the rules
at a TCP client's CONNECT (2035 and one error-log line for a blocked connection, a mapped user as
the connection's identity). The spec has no CHLAUTH IDs; each test names IBM's rule."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import mqlite.client as mqlite
from helpers.credentials import ADMIN, APP, Credentials, add_user
from helpers.qmgrs import QMgr
from mqlite import cmqc as C
from mqlite import paths

RunCli = Callable[..., Any]


def _mqsc(run_cli: RunCli, qmgr: Any, text: str) -> str:
    result = run_cli("runmqsc", qmgr.name, input=text)
    assert result.returncode == 0, result.stdout + result.stderr
    return str(result.stdout)


def test_ibm_default_records_on_a_new_queue_manager(qmgr: Any, run_cli: RunCli) -> None:
    out = _mqsc(run_cli, qmgr, "DISPLAY CHLAUTH(*)\nDISPLAY QMGR CHLAUTH\n")
    records = out.split("AMQ8878I: Display channel authentication record details.\n")[1:]
    assert [r.split("\n", 1)[0].split()[0] for r in records] == [
        "CHLAUTH(DEV.ADMIN.SVRCONN)", "CHLAUTH(SYSTEM.ADMIN.SVRCONN)", "CHLAUTH(SYSTEM.*)", "CHLAUTH(*)"]
    assert "   ADDRESS(*)                              USERSRC(NOACCESS)\n" in out
    assert "   USERLIST(*MQADMIN)\n" in out
    assert "CHLAUTH(ENABLED)" in out


def test_set_runcheck_and_survival_across_restart(qmgr: Any, run_cli: RunCli) -> None:
    out = _mqsc(run_cli, qmgr, "\n".join([
        "SET CHLAUTH('APP.*') TYPE(ADDRESSMAP) ADDRESS('192.168.1-20.*') USERSRC(MAP) MCAUSER('app') +",
        "    DESCR('LAN applications')",
        "SET CHLAUTH('APP.*') TYPE(BLOCKUSER) USERLIST('guest')",
        "SET CHLAUTH(SYSTEM.ADMIN.SVRCONN) TYPE(ADDRESSMAP) ADDRESS('*') ACTION(REMOVE)",
        "DISPLAY CHLAUTH(APP.SVRCONN) MATCH(RUNCHECK) ADDRESS('192.168.7.1') CLNTUSER('bob') MCAUSER",
        "DISPLAY CHLAUTH(APP.SVRCONN) MATCH(RUNCHECK) ADDRESS('10.0.0.1') CLNTUSER('bob')",
        "DISPLAY CHLAUTH(APP.SVRCONN) MATCH(RUNCHECK) ADDRESS('10.0.0.1') CLNTUSER('guest') USERLIST",
        "ALTER QMGR CHLAUTH(DISABLED)", ""]))
    assert out.count("AMQ8877I: WebSphere MQ channel authentication record set.") == 3
    assert ("AMQ8878I: Display channel authentication record details.\n"
            "   CHLAUTH(APP.*)                          TYPE(ADDRESSMAP)\n"
            "   ADDRESS(192.168.1-20.*)                 USERSRC(MAP)\n"
            "   MCAUSER(app)\n") in out
    assert "AMQ9783I: Channel will run using MCAUSER('bob').\n" in out
    assert "   CHLAUTH(APP.*)                          TYPE(BLOCKUSER)\n   USERLIST(guest)\n" in out

    assert run_cli("endmqm", qmgr.name).returncode == 0
    assert run_cli("strmqm", qmgr.name).returncode == 0
    result = run_cli("runmqsc", qmgr.name, input="DISPLAY CHLAUTH(APP.*) ALL\n"
                                                 "DISPLAY CHLAUTH(SYSTEM.ADMIN.SVRCONN)\nDISPLAY QMGR CHLAUTH\n")
    after = result.stdout
    assert result.returncode == 10, after  # the removed record is not found
    assert "DESCR(LAN applications)" in after and "USERLIST(guest)" in after
    assert "AMQ8884E: Channel authentication record not found." in after
    assert "CHLAUTH(DISABLED)" in after
    runcheck = run_cli("runmqsc", qmgr.name,
                       input="DIS CHLAUTH(APP.X) MATCH(RUNCHECK) ADDRESS('1.2.3.4') CLNTUSER(b)\n")
    assert "MQRCCF_CHLAUTH_DISABLED (3357)" in runcheck.stdout  # nothing is matched while disabled


def test_bad_set_chlauth_fails_with_ibm_reason(qmgr: Any, run_cli: RunCli) -> None:
    result = run_cli("runmqsc", qmgr.name, input="SET CHLAUTH(APP) TYPE(BLOCKADDR) ADDRLIST('10.*')\n"
                                                 "SET CHLAUTH('*') TYPE(BLOCKADDR) ADDRLIST('10.1-300.*')\n")
    assert result.returncode == 10
    assert "MQRCCF_CHLAUTH_NAME_ERROR (3349)" in result.stdout
    assert "MQRCCF_IPADDR_RANGE_ERROR (3346)" in result.stdout


# -- over TCP: the rules at a client's CONNECT --------------------------------------------------
OTHER = Credentials("other", "other-pass-1", "mqclient")  # an ordinary user besides APP


def connect(qmgr: QMgr, channel: str = "DEV.APP.SVRCONN", creds: Credentials = APP) -> mqlite.QueueManager:
    return mqlite.connect(qmgr.name, channel, f"127.0.0.1({qmgr.port})", creds.user, creds.password)


def refused(qmgr: QMgr, channel: str = "DEV.APP.SVRCONN", creds: Credentials = APP) -> int:
    with pytest.raises(mqlite.MQMIError) as error:
        connect(qmgr, channel, creds)
    assert error.value.comp == C.MQCC_FAILED
    return error.value.reason


def error_log(qmgr: QMgr) -> str:
    return paths.error_log_path(qmgr.name).read_text(errors="replace")


def test_system_def_svrconn_has_no_access_by_default(qmgr: QMgr) -> None:
    assert refused(qmgr, "SYSTEM.DEF.SVRCONN") == C.MQRC_NOT_AUTHORIZED
    log = error_log(qmgr)
    assert log.count("AMQ9777E: Channel was blocked.") == 1
    assert "The inbound channel 'SYSTEM.DEF.SVRCONN' was blocked from address '127.0.0.1'" in log
    with connect(qmgr) as qm:  # DEV.APP.SVRCONN serves on
        qm.ping()


def test_administrator_blocked_on_app_channel_by_mqadmin(qmgr: QMgr) -> None:
    add_user(qmgr.home, qmgr.name, ADMIN)
    assert refused(qmgr, creds=ADMIN) == C.MQRC_NOT_AUTHORIZED
    log = error_log(qmgr)
    assert log.count("AMQ9776E: Channel was blocked by userid.") == 1
    assert f"MCAUSER({ADMIN.user}) CLNTUSER({ADMIN.user})" in log
    with connect(qmgr, "DEV.ADMIN.SVRCONN", ADMIN) as qm:  # its BLOCKUSER lists only 'nobody'
        assert qm.get_handle().user == ADMIN.user


def test_blocked_user_and_blocked_address(qmgr: QMgr, run_cli: RunCli) -> None:
    _mqsc(run_cli, qmgr, "SET CHLAUTH(DEV.APP.SVRCONN) TYPE(BLOCKUSER) USERLIST('app')\n")
    assert refused(qmgr) == C.MQRC_NOT_AUTHORIZED
    assert "AMQ9776E" in error_log(qmgr)
    _mqsc(run_cli, qmgr, "SET CHLAUTH(DEV.APP.SVRCONN) TYPE(BLOCKUSER) ACTION(REMOVEALL)\n"
                         "SET CHLAUTH('*') TYPE(BLOCKADDR) ADDRLIST('10.*', '127.0.0.1-9')\n")
    # BLOCKADDR acts at the listener, before a byte is read: the client sees its socket dropped
    assert refused(qmgr) == C.MQRC_CONNECTION_BROKEN
    assert "AMQ9782E: Remote connection blocked. A connection from IP address '127.0.0.1'" in error_log(qmgr)
    _mqsc(run_cli, qmgr, "SET CHLAUTH('*') TYPE(BLOCKADDR) ADDRLIST('127.0.0.1-9') ACTION(REMOVE)\n")
    with connect(qmgr) as qm:
        qm.ping()


def test_usermap_and_addressmap_set_the_identity(qmgr: QMgr, run_cli: RunCli) -> None:
    add_user(qmgr.home, qmgr.name, OTHER)
    _mqsc(run_cli, qmgr, "SET CHLAUTH(DEV.APP.SVRCONN) TYPE(USERMAP) CLNTUSER('other') USERSRC(MAP) MCAUSER('app')\n")
    with connect(qmgr, creds=OTHER) as qm:  # authenticated as other, runs as app
        assert qm.get_handle().user == APP.user
        assert "MCAUSER(app)" in _mqsc(run_cli, qmgr, "DISPLAY CHSTATUS(DEV.APP.SVRCONN) MCAUSER\n")
    with connect(qmgr) as qm:  # app itself: no USERMAP for it, runs as itself
        assert qm.get_handle().user == APP.user
    _mqsc(run_cli, qmgr, "SET CHLAUTH(DEV.APP.SVRCONN) TYPE(USERMAP) CLNTUSER('other') ACTION(REMOVE)\n"
                         "SET CHLAUTH(DEV.APP.SVRCONN) TYPE(ADDRESSMAP) ADDRESS('127.0.0.*') USERSRC(MAP) "
                         "MCAUSER('other')\n")
    with connect(qmgr) as qm:  # every client from 127.0.0.* runs as other
        assert qm.get_handle().user == OTHER.user


def test_chlauth_disabled_turns_the_rules_off_and_records_survive_restart(qmgr: QMgr, run_cli: RunCli) -> None:
    add_user(qmgr.home, qmgr.name, ADMIN)
    _mqsc(run_cli, qmgr, "SET CHLAUTH(DEV.APP.SVRCONN) TYPE(BLOCKUSER) USERLIST('app')\n")
    assert run_cli("endmqm", qmgr.name).returncode == 0
    assert run_cli("strmqm", qmgr.name).returncode == 0
    assert refused(qmgr) == C.MQRC_NOT_AUTHORIZED  # the record came back with the queue manager
    _mqsc(run_cli, qmgr, "ALTER QMGR CHLAUTH(DISABLED)\n")
    with connect(qmgr) as qm:
        qm.ping()
    with connect(qmgr, "SYSTEM.DEF.SVRCONN") as qm:
        qm.ping()
    with connect(qmgr, creds=ADMIN) as qm:
        assert qm.get_handle().user == ADMIN.user
    _mqsc(run_cli, qmgr, "ALTER QMGR CHLAUTH(ENABLED)\n")
    assert refused(qmgr, "SYSTEM.DEF.SVRCONN") == C.MQRC_NOT_AUTHORIZED


def test_chckclnt_of_the_matching_record_overrides_the_authinfo(qmgr: QMgr, run_cli: RunCli) -> None:
    _mqsc(run_cli, qmgr, "ALTER AUTHINFO(SYSTEM.DEFAULT.AUTHINFO.IDPWOS) AUTHTYPE(IDPWOS) CHCKCLNT(OPTIONAL)\n"
                         "REFRESH SECURITY TYPE(CONNAUTH)\n"
                         "ALTER CHANNEL(DEV.APP.SVRCONN) CHLTYPE(SVRCONN) MCAUSER('app')\n")
    with mqlite.connect(qmgr.name, "DEV.APP.SVRCONN", f"127.0.0.1({qmgr.port})") as qm:  # no password: OPTIONAL
        assert qm.get_handle().user == APP.user
    _mqsc(run_cli, qmgr, "SET CHLAUTH(DEV.APP.SVRCONN) TYPE(ADDRESSMAP) ADDRESS('127.0.0.1') USERSRC(CHANNEL) "
                         "CHCKCLNT(REQUIRED)\n")
    with pytest.raises(mqlite.MQMIError) as error:
        mqlite.connect(qmgr.name, "DEV.APP.SVRCONN", f"127.0.0.1({qmgr.port})")
    assert error.value.reason == C.MQRC_NOT_AUTHORIZED
    assert "no password given where one is required" in error_log(qmgr)
    with connect(qmgr) as qm:  # with a password it passes
        assert qm.get_handle().user == APP.user


def test_blocked_channels_are_channel_blocked_events_with_chlev(qmgr: QMgr, run_cli: RunCli) -> None:
    """IBM's Channel Blocked event (MQRC_CHANNEL_BLOCKED, or _WARNING for WARN(YES)) on
    SYSTEM.ADMIN.CHANNEL.EVENT while CHLEV is ENABLED or EXCEPTION; none while DISABLED (the default)."""
    _mqsc(run_cli, qmgr, "SET CHLAUTH(DEV.APP.SVRCONN) TYPE(BLOCKUSER) USERLIST('app')\n")
    assert refused(qmgr) == C.MQRC_NOT_AUTHORIZED  # CHLEV(DISABLED): no event
    _mqsc(run_cli, qmgr, "ALTER QMGR CHLEV(EXCEPTION)\n")
    assert refused(qmgr) == C.MQRC_NOT_AUTHORIZED
    _mqsc(run_cli, qmgr, "SET CHLAUTH(DEV.APP.SVRCONN) TYPE(BLOCKUSER) ACTION(REMOVEALL)\n"
                         "SET CHLAUTH('*') TYPE(BLOCKADDR) ADDRLIST('127.0.0.1')\n")
    assert refused(qmgr) == C.MQRC_CONNECTION_BROKEN  # (dropped at the listener)
    _mqsc(run_cli, qmgr, "SET CHLAUTH('*') TYPE(BLOCKADDR) ACTION(REMOVEALL)\n"
                         "SET CHLAUTH(DEV.APP.SVRCONN) TYPE(BLOCKUSER) USERLIST('app') WARN(YES)\n")
    with connect(qmgr) as qm:  # WARN(YES): let through, with a warning event
        qm.ping()
    printed = run_cli("amqsevt", "-m", qmgr.name, "-q", "SYSTEM.ADMIN.CHANNEL.EVENT", "-w", "1")
    assert printed.returncode == 0, printed.stderr
    events = [e for e in printed.stdout.split("**** Message #") if e.strip()]
    assert len(events) == 3, printed.stdout
    user, address, warning = events
    assert "Channel Event [46]" in user and "MQRC_CHANNEL_BLOCKED [2577]" in user
    assert "MQRQ_CHANNEL_BLOCKED_USERID" in user and "ChannelName                    : DEV.APP.SVRCONN" in user
    assert "UserIdentifier                 : app" in user and "ConnName                       : 127.0.0.1" in user
    assert "MQRQ_CHANNEL_BLOCKED_ADDRESS" in address
    fields = [line.split(":")[0].strip() for line in address.splitlines() if line.startswith("  ")]
    # blocked at the listener, before the client sent its channel, its user or anything else
    assert "ChannelName" not in fields and "UserIdentifier" not in fields and "ClientUserIdentifier" not in fields
    assert "ConnName" in fields, address
    assert "MQRC_CHANNEL_BLOCKED_WARNING [2578]" in warning and "MQRQ_CHANNEL_BLOCKED_USERID" in warning
