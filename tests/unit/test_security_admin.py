"""Every admin command is checked against the caller's authority, as IBM's OAM checks MQSC
commands (DEFINE crt on the queue manager and dsp on the default or LIKE object, ALTER chg,
DELETE dlt, CLEAR clr, DISPLAY dsp, START/STOP CHANNEL ctrl, authority records chg/dsp on the
queue manager): a user with no authority is refused each command, the authority a command needs
lets it through, and no other authority does. Also the MQSC commands of authority records."""

from __future__ import annotations

from typing import Any

import pytest

from helpers.core_security import Security
from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.core.qmgr import QueueManager
from mqlite.core.security.names import VALID, authority_names
from mqlite.core.security.principal import Principal
from mqlite.core.security.records import PRINCIPAL
from mqlite.mqsc.commands import run_mqsc

BOB = Principal("bob")
QM, Q, T, CH = C.MQOT_Q_MGR, C.MQOT_Q, C.MQOT_TOPIC, C.MQOT_CHANNEL
DEFAULT_Q = "SYSTEM.DEFAULT.LOCAL.QUEUE"
Grant = tuple[int, str, int]

# (command, the authorities it needs: (object type, object name, MQZAO_*))
COMMANDS: list[tuple[str, list[Grant]]] = [
    ("DEFINE QLOCAL(NEW.Q)", [(QM, "QM1", C.MQZAO_CREATE), (Q, DEFAULT_Q, C.MQZAO_DISPLAY)]),
    ("DEFINE QLOCAL(NEW.Q) LIKE(APP.Q)", [(QM, "QM1", C.MQZAO_CREATE), (Q, "APP.Q", C.MQZAO_DISPLAY)]),
    ("DEFINE QLOCAL(APP.Q) REPLACE", [(Q, "APP.Q", C.MQZAO_CHANGE), (Q, DEFAULT_Q, C.MQZAO_DISPLAY)]),
    ("DEFINE QALIAS(NEW.A) TARGET(APP.Q)", [(QM, "QM1", C.MQZAO_CREATE),
                                            (Q, "SYSTEM.DEFAULT.ALIAS.QUEUE", C.MQZAO_DISPLAY)]),
    ("ALTER QLOCAL(APP.Q) DESCR('x')", [(Q, "APP.Q", C.MQZAO_CHANGE)]),
    ("DELETE QLOCAL(APP.Q)", [(Q, "APP.Q", C.MQZAO_DELETE)]),
    ("CLEAR QLOCAL(APP.Q)", [(Q, "APP.Q", C.MQZAO_CLEAR)]),
    ("DISPLAY QLOCAL(APP.Q)", [(Q, "APP.Q", C.MQZAO_DISPLAY)]),
    ("DISPLAY QUEUE(APP.Q)", [(Q, "APP.Q", C.MQZAO_DISPLAY)]),
    ("DISPLAY QSTATUS(APP.Q)", [(Q, "APP.Q", C.MQZAO_DISPLAY)]),
    ("ALTER QMGR DESCR('x')", [(QM, "QM1", C.MQZAO_CHANGE)]),
    ("DISPLAY QMGR", [(QM, "QM1", C.MQZAO_DISPLAY)]),
    ("DEFINE TOPIC(NEW.T) TOPICSTR('new')", [(QM, "QM1", C.MQZAO_CREATE)]),
    ("ALTER TOPIC(APP.T) DESCR('x')", [(T, "APP.T", C.MQZAO_CHANGE)]),
    ("DELETE TOPIC(APP.T)", [(T, "APP.T", C.MQZAO_DELETE)]),
    ("DISPLAY TOPIC(APP.T)", [(T, "APP.T", C.MQZAO_DISPLAY)]),
    ("CLEAR TOPICSTR('app/news')", [(T, "APP.T", C.MQZAO_CLEAR)]),
    ("DISPLAY TPSTATUS('app')", [(QM, "QM1", C.MQZAO_DISPLAY)]),
    ("DISPLAY PUBSUB", [(QM, "QM1", C.MQZAO_DISPLAY)]),
    # DEFINE SUB: and put on the destination as the administrator (spec C R-SEC-22, no SUBUSER)
    ("DEFINE SUB(NEW.S) TOPICSTR('app/x') DEST(APP.Q)", [(QM, "QM1", C.MQZAO_CHANGE), (Q, "APP.Q", C.MQZAO_OUTPUT)]),
    ("DELETE SUB(APP.S)", [(QM, "QM1", C.MQZAO_CHANGE)]),
    ("DISPLAY SUB(APP.S)", [(QM, "QM1", C.MQZAO_DISPLAY)]),
    ("DISPLAY SBSTATUS(APP.S)", [(QM, "QM1", C.MQZAO_DISPLAY)]),
    ("DEFINE CHANNEL(NEW.CH) CHLTYPE(MQTT) PORT(0)", [(QM, "QM1", C.MQZAO_CREATE)]),
    ("ALTER CHANNEL(APP.CH) CHLTYPE(MQTT) PORT(0)", [(CH, "APP.CH", C.MQZAO_CHANGE)]),
    ("DELETE CHANNEL(APP.CH)", [(CH, "APP.CH", C.MQZAO_DELETE)]),
    ("DISPLAY CHANNEL(APP.CH)", [(CH, "APP.CH", C.MQZAO_DISPLAY)]),
    ("DISPLAY CHSTATUS(APP.CH)", [(CH, "APP.CH", C.MQZAO_DISPLAY)]),
    ("START CHANNEL(APP.CH)", [(CH, "APP.CH", C.MQZAO_CONTROL)]),
    ("STOP CHANNEL(APP.CH)", [(CH, "APP.CH", C.MQZAO_CONTROL)]),
    ("SET AUTHREC PROFILE('X.**') OBJTYPE(QUEUE) PRINCIPAL('carol') AUTHADD(PUT)", [(QM, "QM1", C.MQZAO_CHANGE)]),
    ("DELETE AUTHREC PROFILE('OLD.**') OBJTYPE(QUEUE) PRINCIPAL('carol')", [(QM, "QM1", C.MQZAO_CHANGE)]),
    ("DISPLAY AUTHREC", [(QM, "QM1", C.MQZAO_DISPLAY)]),
    ("DISPLAY ENTAUTH OBJNAME('APP.Q') OBJTYPE(QUEUE) PRINCIPAL('carol')", [(QM, "QM1", C.MQZAO_DISPLAY)]),
    ("REFRESH SECURITY", [(QM, "QM1", C.MQZAO_CHANGE)]),
    ("SET CHLAUTH('APP.*') TYPE(BLOCKUSER) USERLIST('mallory')", [(QM, "QM1", C.MQZAO_CHANGE)]),
    ("DISPLAY CHLAUTH(*)", [(QM, "QM1", C.MQZAO_DISPLAY)]),
    ("DISPLAY CHLAUTH('DEV.APP.SVRCONN') MATCH(RUNCHECK) ADDRESS('10.1.1.1') CLNTUSER('bob')",
     [(QM, "QM1", C.MQZAO_DISPLAY)]),
]


def queue_manager() -> QueueManager:
    qm = QueueManager("QM1", creator="owner")
    qm.bootstrap()
    result = run_mqsc(qm.admin_for(Principal("owner")), """
        DEFINE QLOCAL(APP.Q)
        DEFINE TOPIC(APP.T) TOPICSTR('app')
        DEFINE SUB(APP.S) TOPICSTR('app/s') DEST(APP.Q)
        DEFINE CHANNEL(APP.CH) CHLTYPE(MQTT) PORT(0)
        SET AUTHREC PROFILE('OLD.**') OBJTYPE(QUEUE) PRINCIPAL('carol') AUTHADD(GET)
    """)
    assert result.failed == 0, result.lines
    qm.take_effects()
    return qm


def refused(qm: QueueManager, command: str, grants: list[Grant]) -> bool:
    for objtype, name, authority in grants:
        qm.security.set_authority(objtype, name, "bob", PRINCIPAL, add=authority)
    lines = run_mqsc(qm.admin_for(BOB), command).lines
    return "AMQ8135E: Not authorized." in lines


@pytest.mark.parametrize(("command", "needs"), COMMANDS, ids=[c for c, _ in COMMANDS])
def test_every_admin_command_is_checked(command: str, needs: list[Grant]) -> None:
    assert refused(queue_manager(), command, []), "a user with no authority is refused"
    assert not refused(queue_manager(), command, needs), "the authority it needs lets it through"
    for missing in range(len(needs)):  # every authority it needs is needed
        assert refused(queue_manager(), command, needs[:missing] + needs[missing + 1:])
    for objtype, name, authority in needs:  # and no other authority on those objects will do
        others = VALID[objtype] & ~authority
        rest = [g for g in needs if g != (objtype, name, authority)]
        assert refused(queue_manager(), command, [*rest, (objtype, name, others)]), authority_names(others)


# The PCF command each refusal names in its "Not Authorized (type 4)" event (spec C R-SEC-13).
EVENT_COMMANDS = {
    "DEFINE QLOCAL": C.MQCMD_CREATE_Q, "DEFINE QALIAS": C.MQCMD_CREATE_Q, "ALTER QLOCAL": C.MQCMD_CHANGE_Q,
    "DELETE QLOCAL": C.MQCMD_DELETE_Q, "CLEAR QLOCAL": C.MQCMD_CLEAR_Q, "DISPLAY QLOCAL": C.MQCMD_INQUIRE_Q,
    "DISPLAY QUEUE": C.MQCMD_INQUIRE_Q, "DISPLAY QSTATUS": C.MQCMD_INQUIRE_Q_STATUS,
    "ALTER QMGR": C.MQCMD_CHANGE_Q_MGR, "DISPLAY QMGR": C.MQCMD_INQUIRE_Q_MGR,
    "DEFINE TOPIC": C.MQCMD_CREATE_TOPIC, "ALTER TOPIC": C.MQCMD_CHANGE_TOPIC, "DELETE TOPIC": C.MQCMD_DELETE_TOPIC,
    "DISPLAY TOPIC": C.MQCMD_INQUIRE_TOPIC, "CLEAR TOPICSTR": C.MQCMD_CLEAR_TOPIC_STRING,
    "DISPLAY TPSTATUS": C.MQCMD_INQUIRE_TOPIC_STATUS, "DISPLAY PUBSUB": C.MQCMD_INQUIRE_PUBSUB_STATUS,
    "DEFINE SUB": C.MQCMD_CREATE_SUBSCRIPTION, "DELETE SUB": C.MQCMD_DELETE_SUBSCRIPTION,
    "DISPLAY SUB": C.MQCMD_INQUIRE_SUBSCRIPTION, "DISPLAY SBSTATUS": C.MQCMD_INQUIRE_SUB_STATUS,
    "DEFINE CHANNEL": C.MQCMD_CREATE_CHANNEL, "ALTER CHANNEL": C.MQCMD_CHANGE_CHANNEL,
    "DELETE CHANNEL": C.MQCMD_DELETE_CHANNEL, "DISPLAY CHANNEL": C.MQCMD_INQUIRE_CHANNEL,
    "DISPLAY CHSTATUS": C.MQCMD_INQUIRE_CHANNEL_STATUS, "START CHANNEL": C.MQCMD_START_CHANNEL,
    "STOP CHANNEL": C.MQCMD_STOP_CHANNEL, "SET AUTHREC": C.MQCMD_SET_AUTH_REC,
    "DELETE AUTHREC": C.MQCMD_DELETE_AUTH_REC, "DISPLAY AUTHREC": C.MQCMD_INQUIRE_AUTH_RECS,
    "DISPLAY ENTAUTH": C.MQCMD_INQUIRE_ENTITY_AUTH, "REFRESH SECURITY": C.MQCMD_REFRESH_SECURITY,
    "SET CHLAUTH": C.MQCMD_SET_CHLAUTH_REC, "DISPLAY CHLAUTH": C.MQCMD_INQUIRE_CHLAUTH_RECS,
}


def _verb_and_type(command: str) -> str:
    return " ".join(command.replace("(", " ").split()[:2])


@pytest.mark.parametrize("command", [c for c, _ in COMMANDS])
def test_a_refused_command_is_a_type_4_authority_event(command: str) -> None:  # C:R-SEC-13
    qm = queue_manager()
    security = Security(qm)  # AUTHOREV(ENABLED)
    assert refused(qm, command, [])
    event = security.one_event()
    assert event[C.MQIACF_REASON_QUALIFIER] == C.MQRQ_CMD_NOT_AUTHORIZED
    assert event[C.MQIACF_COMMAND] == EVENT_COMMANDS[_verb_and_type(command)]
    assert event[C.MQCACF_USER_IDENTIFIER] == "bob"
    assert set(event) == {"Reason", C.MQCA_Q_MGR_NAME, C.MQIACF_REASON_QUALIFIER, C.MQIACF_COMMAND,
                          C.MQCACF_USER_IDENTIFIER}  # IBM's type 4 fields, no more


def test_no_event_while_authority_events_are_disabled() -> None:
    qm = queue_manager()
    security = Security(qm, events=False)
    assert refused(qm, "DELETE QLOCAL(APP.Q)", [])
    assert security.events() == []


def test_a_generic_display_shows_only_what_the_caller_may_display() -> None:
    qm = queue_manager()
    run_mqsc(qm, "DEFINE QLOCAL(APP.Q2)\nDEFINE QLOCAL(OTHER.Q)")
    qm.security.set_authority(Q, "APP.*", "bob", PRINCIPAL, add=C.MQZAO_DISPLAY)
    lines = run_mqsc(qm.admin_for(BOB), "DISPLAY QLOCAL(*)").lines
    shown = [line.split()[0] for line in lines if line.startswith("   QUEUE(")]
    assert shown == ["QUEUE(APP.Q)", "QUEUE(APP.Q2)"]


def test_remote_administration_is_for_administrators_only() -> None:
    qm = queue_manager()
    qm.security.set_authority(QM, "QM1", "bob", PRINCIPAL, add=C.MQZAO_ALL & VALID[QM])
    with pytest.raises(MQError) as refusal:
        qm.admin_for(BOB, remote=True)
    assert refusal.value.reason == C.MQRC_NOT_AUTHORIZED
    assert qm.admin_for(Principal("ops", frozenset({"mqm"})), remote=True).principal.user == "ops"


def mqsc(qm: QueueManager, text: str) -> list[str]:
    return run_mqsc(qm.admin_for(Principal("owner")), text).lines


def test_set_display_and_delete_authrec() -> None:
    qm = queue_manager()
    assert "AMQ8862I: WebSphere MQ authority record set." in mqsc(
        qm, "SET AUTHREC PROFILE('APP.**') OBJTYPE(QUEUE) GROUP('apps') AUTHADD(PUT,GET,BROWSE,INQ)")
    mqsc(qm, "SET AUTHREC PROFILE('APP.**') OBJTYPE(QUEUE) GROUP('apps') AUTHRMV(BROWSE)")
    lines = mqsc(qm, "DISPLAY AUTHREC PROFILE('APP.Q') OBJTYPE(QUEUE) GROUP('apps')")
    assert lines[1:5] == [
        "AMQ8864I: Display authority record details.",
        "   PROFILE(APP.**)                         ENTITY(apps)",
        "   ENTTYPE(GROUP)                          OBJTYPE(QUEUE)",
        "   AUTHLIST(GET,PUT,INQ)",
    ]
    assert "AMQ8147E" in mqsc(qm, "DISPLAY AUTHREC PROFILE('APP.Q') MATCH(EXACT) GROUP('apps')")[1]
    assert "AMQ8863I: WebSphere MQ authority record deleted." in mqsc(
        qm, "DELETE AUTHREC PROFILE('APP.**') OBJTYPE(QUEUE) GROUP('apps')")
    assert not [r for r in qm.security.records() if r.entity == "apps"]


def test_display_authrec_membership_shows_a_principals_groups() -> None:
    qm = queue_manager()
    qm.security.groups_of = lambda user: frozenset({"apps"}) if user == "dave" else frozenset()
    mqsc(qm, "SET AUTHREC PROFILE('APP.*') OBJTYPE(QUEUE) GROUP('apps') AUTHADD(PUT)\n"
             "SET AUTHREC PROFILE('APP.Q') OBJTYPE(QUEUE) PRINCIPAL('dave') AUTHADD(GET)")
    own = mqsc(qm, "DISPLAY AUTHREC OBJTYPE(QUEUE) PRINCIPAL('dave')")
    both = mqsc(qm, "DISPLAY AUTHREC OBJTYPE(QUEUE) PRINCIPAL('dave') MATCH(MEMBERSHIP)")
    assert [line for line in own if "ENTITY(" in line] == ["   PROFILE(APP.Q)                          ENTITY(dave)"]
    assert len([line for line in both if "ENTITY(" in line]) == 2
    lines = mqsc(qm, "DISPLAY ENTAUTH OBJNAME('APP.Q') OBJTYPE(QUEUE) PRINCIPAL('dave')")
    assert "   AUTHLIST(GET,PUT)" in lines  # its own record and its group's, as a check sees them


@pytest.mark.parametrize(("command", "reason"), [
    ("SET AUTHREC PROFILE('Q') OBJTYPE(QUEUE) PRINCIPAL('x') AUTHADD(CONNECT)", "MQRCCF_AUTH_VALUE_ERROR"),
    ("SET AUTHREC PROFILE('Q') OBJTYPE(QUEUE) PRINCIPAL('x') AUTHADD(FLY)", "MQRCCF_AUTH_VALUE_ERROR"),
    ("SET AUTHREC PROFILE('Q') OBJTYPE(QUEUE) PRINCIPAL('x')", "MQRCCF_AUTH_VALUE_MISSING"),
    ("SET AUTHREC PROFILE('A.**.B.**') OBJTYPE(QUEUE) PRINCIPAL('x') AUTHADD(PUT)", "MQRCCF_PROFILE_NAME_ERROR"),
])
def test_bad_authority_records_are_refused(command: str, reason: str) -> None:
    qm = queue_manager()
    before = qm.security.records()
    lines = mqsc(qm, command)
    assert any(reason in line for line in lines), lines
    assert qm.security.records() == before


@pytest.mark.parametrize("command", [
    "SET AUTHREC PROFILE('Q') OBJTYPE(QUEUE) AUTHADD(PUT)",  # no entity
    "SET AUTHREC PROFILE('Q') OBJTYPE(QUEUE) PRINCIPAL('a') GROUP('b') AUTHADD(PUT)",
    "SET AUTHREC PROFILE('Q') PRINCIPAL('a') AUTHADD(PUT)",  # no OBJTYPE
    "SET AUTHREC PROFILE('Q') OBJTYPE(PLANE) PRINCIPAL('a') AUTHADD(PUT)",
    "DISPLAY AUTHREC MATCH(MEMBERSHIP)",
])
def test_malformed_authrec_commands_are_syntax_errors(command: str) -> None:
    lines: Any = mqsc(queue_manager(), command)
    assert "AMQ8405I" in lines[1], lines


def test_qmgr_profile_defaults_to_the_queue_manager_and_refresh_security() -> None:
    qm = queue_manager()
    mqsc(qm, "SET AUTHREC OBJTYPE(QMGR) PRINCIPAL('bob') AUTHADD(CONNECT)")
    assert qm.security.allowed(BOB, QM, "QM1", C.MQZAO_CONNECT)
    assert mqsc(qm, "REFRESH SECURITY")[1] == "AMQ8560I: WebSphere MQ security cache refreshed."


def test_the_checked_admin_offers_every_admin_call_with_the_same_parameters() -> None:
    """MQSC runs on ``CheckedAdmin`` whatever the executor's protocols grow: each of their calls
    must be there, taking what the unchecked one takes (a new parameter missed here would fail
    only at run time)."""
    import inspect

    from mqlite.core.admin_checks import CheckedAdmin
    from mqlite.mqsc import chlauth, cluster, commands, security

    checked = queue_manager().admin_for(Principal("owner"))
    for protocol in (commands.AdminAPI, commands.ChannelAdmin, security.RefreshAdmin, chlauth.ChlauthAdmin,
                     security.SecurityAdmin, cluster.ClusterAdmin):
        assert isinstance(checked, protocol), protocol
        for name, member in vars(protocol).items():
            if callable(member) and not name.startswith("_"):
                wanted = list(inspect.signature(member).parameters)
                assert list(inspect.signature(getattr(CheckedAdmin, name)).parameters) == wanted, name


def test_delete_takes_the_objects_own_authority_records_with_it() -> None:  # IBM's AUTHREC(YES)
    qm = queue_manager()
    mqsc(qm, "SET AUTHREC PROFILE('APP.Q') OBJTYPE(QUEUE) PRINCIPAL('bob') AUTHADD(PUT)\n"
             "SET AUTHREC PROFILE('APP.Q') OBJTYPE(QUEUE) GROUP('apps') AUTHADD(GET)\n"
             "SET AUTHREC PROFILE('APP.*') OBJTYPE(QUEUE) GROUP('apps') AUTHADD(GET)")
    assert "AMQ8007I: WebSphere MQ queue deleted." in mqsc(qm, "DELETE QLOCAL(APP.Q)")
    assert [r.profile for r in qm.security.records() if r.objtype == Q] == ["APP.*", "OLD.**"]  # generic stay
