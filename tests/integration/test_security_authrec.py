"""Authority records on real queue manager processes: secure by default at connect, setmqaut /
dspmqaut / dmpmqaut and the MQSC forms surviving a restart, IBM's precedence of the most specific
generic profile, REFRESH SECURITY, remote administration only for administrators (spec C A-31).

A user who is not an administrator connects over TCP with a user name (and a password from the
users file, which ``mqlite passwd`` writes); the tests' own OS user created the queue manager
and is its administrator."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from typing import Any

import pytest

import mqlite
from helpers.qmgrs import QMgr
from mqlite import cmqc as C

RunCli = Callable[..., "subprocess.CompletedProcess[str]"]
PASSWORD = "s3cret-pw"


def ok(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def add_user(run_cli: RunCli, qmgr: QMgr, user: str, groups: str = "") -> None:
    ok(run_cli("passwd", "-m", qmgr.name, *(["-g", groups] if groups else []), user,
               input=f"{PASSWORD}\n{PASSWORD}\n", env={"MQLITE_PASSWORD": PASSWORD}))


def connect_as(qmgr: QMgr, user: str) -> Any:
    return mqlite.connect(qmgr.name, host="127.0.0.1", port=qmgr.port, user=user, password=PASSWORD)


def refused_reason(qmgr: QMgr, user: str) -> int:
    try:
        connect_as(qmgr, user).disconnect()
    except mqlite.MQMIError as error:
        return int(error.reason)
    return 0



def test_secure_by_default_connect_needs_connect_authority(qmgr: QMgr, run_cli: RunCli) -> None:  # C A-31
    add_user(run_cli, qmgr, "bob")
    assert refused_reason(qmgr, "bob") == C.MQRC_NOT_AUTHORIZED
    assert "AMQ8077W: Entity 'bob' has insufficient authority" in qmgr.error_log()
    assert "completed successfully" in ok(run_cli("setmqaut", "-m", qmgr.name, "-t", "qmgr", "-p", "bob",
                                                  "+connect"))
    qm = connect_as(qmgr, "bob")
    qm.disconnect()
    ok(run_cli("setmqaut", "-m", qmgr.name, "-t", "qmgr", "-p", "bob", "-connect"))
    assert refused_reason(qmgr, "bob") == C.MQRC_NOT_AUTHORIZED
    local = mqlite.connect(qmgr.name)  # the creator, over the Unix socket: an administrator
    local.disconnect()


def test_authority_granted_to_a_group(qmgr: QMgr, run_cli: RunCli) -> None:
    add_user(run_cli, qmgr, "carol", groups="apps")
    assert refused_reason(qmgr, "carol") == C.MQRC_NOT_AUTHORIZED
    ok(run_cli("setmqaut", "-m", qmgr.name, "-t", "qmgr", "-g", "apps", "+connect"))
    assert refused_reason(qmgr, "carol") == 0


def test_records_round_trip_and_survive_a_restart(qmgr: QMgr, run_cli: RunCli) -> None:
    ok(run_cli("setmqaut", "-m", qmgr.name, "-t", "q", "-n", "APP.**", "-p", "bob", "+put", "+get", "+browse"))
    ok(run_cli("setmqaut", "-m", qmgr.name, "-t", "queue", "-n", "APP.**", "-p", "bob", "-browse", "+inq"))
    ok(run_cli("setmqaut", "-m", qmgr.name, "-t", "topic", "-n", "SPORTS", "-g", "fans", "+sub"))
    expected_dsp = "Entity bob has the following authorizations for object APP.Q1:\n\tget\n\tput\n\tinq\n"
    expected_dump = ("profile:     APP.**\nobject type: queue\nentity:      bob\nentity type: principal\n"
                     "authority:   get, put, inq\n- - - - - - - - - - - - - - - - - \n")
    for _ in range(2):
        assert ok(run_cli("dspmqaut", "-m", qmgr.name, "-t", "q", "-n", "APP.Q1", "-p", "bob")) == expected_dsp
        assert ok(run_cli("dmpmqaut", "-m", qmgr.name, "-t", "q", "-p", "bob")) == expected_dump
        assert "entity:      fans\nentity type: group\nauthority:   sub\n" in ok(run_cli("dmpmqaut", "-m", qmgr.name))
        assert ok(run_cli("dmpmqaut", "-m", qmgr.name, "-n", "SPORTS", "-t", "topic", "-a")) == (
            f"setmqaut -m {qmgr.name} -n 'SPORTS' -t topic -g fans +sub\n")
        ok(run_cli("endmqm", qmgr.name))
        ok(run_cli("strmqm", qmgr.name))


def test_the_most_specific_generic_profile_wins(qmgr: QMgr, run_cli: RunCli) -> None:
    # IBM's example (Profile priorities): AB.C* is more specific than AB.* for queue AB.CD
    ok(run_cli("setmqaut", "-m", qmgr.name, "-t", "q", "-n", "AB.*", "-p", "fred", "+put"))
    ok(run_cli("setmqaut", "-m", qmgr.name, "-t", "q", "-n", "AB.C*", "-p", "fred", "+get"))
    for name, held in (("AB.CD", "\tget"), ("AB.XY", "\tput")):
        assert ok(run_cli("dspmqaut", "-m", qmgr.name, "-t", "q", "-n", name, "-p", "fred")).splitlines()[1:] == [held]
    dump = ok(run_cli("dmpmqaut", "-m", qmgr.name, "-n", "AB.CD", "-t", "q", "-p", "fred", "-l"))  # not grant_app's
    assert dump == "profile: AB.*, type: queue\nprofile: AB.C*, type: queue\n"


def test_mqsc_authrec_commands_and_refresh_security(qmgr: QMgr, run_cli: RunCli) -> None:
    out = ok(run_cli("runmqsc", qmgr.name, input=(
        "SET AUTHREC PROFILE('PAY.*') OBJTYPE(QUEUE) GROUP('payroll') AUTHADD(PUT,INQ)\n"
        "DISPLAY AUTHREC PROFILE('PAY.IN') OBJTYPE(QUEUE)\n"
        "REFRESH SECURITY\n"
        "DELETE AUTHREC PROFILE('PAY.*') OBJTYPE(QUEUE) GROUP('payroll')\n")))
    assert "AMQ8862I: WebSphere MQ authority record set." in out
    assert "   PROFILE(PAY.*)                          ENTITY(payroll)" in out
    assert "   AUTHLIST(PUT,INQ)" in out
    assert "AMQ8560I: WebSphere MQ security cache refreshed." in out
    assert "AMQ8863I: WebSphere MQ authority record deleted." in out
    assert "No matching authority records." in ok(run_cli("dmpmqaut", "-m", qmgr.name, "-g", "payroll"))


def test_delete_keeps_the_objects_authority_records_with_authrec_no(qmgr: QMgr, run_cli: RunCli) -> None:
    """DELETE QLOCAL ... AUTHREC(NO) keeps the records of the queue's own name (a queue defined
    again has them); IBM's default AUTHREC(YES) deletes them with the object; other values are
    a syntax error."""
    show = "DISPLAY AUTHREC PROFILE(PAY.IN) OBJTYPE(QUEUE)\n"
    ok(run_cli("runmqsc", qmgr.name, input="DEFINE QLOCAL(PAY.IN)\n"
               "SET AUTHREC PROFILE(PAY.IN) OBJTYPE(QUEUE) GROUP('payroll') AUTHADD(PUT)\n"
               "DELETE QLOCAL(PAY.IN) AUTHREC(NO)\n"))
    assert "ENTITY(payroll)" in ok(run_cli("runmqsc", qmgr.name, input=show))
    bad = run_cli("runmqsc", qmgr.name, input="DEFINE QLOCAL(PAY.IN)\nDELETE QLOCAL(PAY.IN) AUTHREC(MAYBE)\n")
    assert bad.returncode != 0 and "AUTHREC" in bad.stdout
    ok(run_cli("runmqsc", qmgr.name, input="DELETE QLOCAL(PAY.IN)\n"))
    assert "ENTITY(payroll)" not in run_cli("runmqsc", qmgr.name, input=show).stdout


def test_remote_administration_only_for_administrators(qmgr: QMgr, run_cli: RunCli) -> None:
    add_user(run_cli, qmgr, "bob")
    ok(run_cli("setmqaut", "-m", qmgr.name, "-t", "qmgr", "-p", "bob", "+connect", "+dsp", "+chg"))
    result = run_cli("runmqsc", "-c", qmgr.conn, "-u", "bob", qmgr.name, input="DISPLAY QMGR\n",
                     env={"MQLITE_PASSWORD": PASSWORD})
    assert result.returncode == 20
    assert "AMQ8135" in result.stdout + result.stderr


@pytest.mark.parametrize("args", [
    ("setmqaut", "-t", "q", "-n", "Q1", "+put"),  # no entity
    ("setmqaut", "-t", "q", "-n", "Q1", "-p", "bob"),  # no authorities
    ("setmqaut", "-t", "q", "-p", "bob", "+put"),  # no profile
    ("setmqaut", "-t", "q", "-n", "Q1", "-p", "bob", "+connect"),  # not an authority of a queue
    ("dspmqaut", "-t", "q", "-n", "Q1"),
])
def test_bad_arguments_are_refused(qmgr: QMgr, run_cli: RunCli, args: tuple[str, ...]) -> None:
    result = run_cli(*args[:1], "-m", qmgr.name, *args[1:])
    assert result.returncode != 0
    assert result.stderr.strip(), "a refusal says why"
