"""Channel authentication with real queue managers: SET/DISPLAY CHLAUTH through runmqsc (IBM's
output), MATCH(RUNCHECK), records and the QMGR CHLAUTH switch surviving a restart. The spec has
no CHLAUTH IDs; each test names IBM's rule."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

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
