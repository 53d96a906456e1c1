"""crtmqm --dev's pieces without a queue manager: the MQSC it runs, the passwords it takes, and
``mqlite.pymqi_run``'s names (tests/integration/test_dev_config.py runs them for real)."""

from __future__ import annotations

import sys

import pytest

import mqlite
from mqlite import pymqi_run
from mqlite.cli import devconfig
from mqlite.cli.common import CliError
from mqlite.client.structs import OD, od_fill
from mqlite.mqsc.lexer import split_script
from mqlite.mqsc.parser import parse


def _commands(app_password: bool) -> list[tuple[str, str, str | None, dict[str, object]]]:
    items = [item for item in split_script(devconfig.mqsc(app_password)) if item.kind == "command"]
    return [(c.verb, c.objtype, c.name, dict(c.attrs)) for c in (parse(item.text) for item in items)]


def test_the_mqsc_is_ibms_developer_configuration() -> None:
    commands = _commands(app_password=True)
    defined = {(verb, objtype, name) for verb, objtype, name, _ in commands}
    for queue in ("DEV.QUEUE.1", "DEV.QUEUE.2", "DEV.QUEUE.3", "DEV.DEAD.LETTER.QUEUE"):
        assert ("DEFINE", "QLOCAL", queue) in defined
    assert ("DEFINE", "QMODEL", "DEV.APP.MODEL.QUEUE") in defined
    topic = next(attrs for verb, objtype, name, attrs in commands if objtype == "TOPIC")
    assert topic["TOPICSTR"] == "dev/"
    authinfo = next(attrs for verb, objtype, name, attrs in commands if objtype == "AUTHINFO")
    assert (authinfo["CHCKCLNT"], authinfo["CHCKLOCL"], authinfo["ADOPTCTX"]) == ("REQDADM", "OPTIONAL", "YES")
    grants = [attrs for verb, objtype, name, attrs in commands if (verb, objtype) == ("SET", "AUTHREC")]
    assert len(grants) == 4 and all(g["GROUP"] == "mqclient" for g in grants)
    assert {str(g.get("PROFILE", "")) for g in grants} == {"", "DEV.**", "DEV.APP.MODEL.QUEUE"}


def test_the_app_channel_requires_a_password_once_app_has_one() -> None:
    def app_rule_and_channel(app_password: bool) -> tuple[object, object]:
        commands = _commands(app_password)
        rule = next(attrs for verb, objtype, name, attrs in commands
                    if objtype == "CHLAUTH" and name == "DEV.APP.SVRCONN")
        channel = next(attrs for verb, objtype, name, attrs in commands
                       if objtype == "CHANNEL" and name == "DEV.APP.SVRCONN")
        return rule["CHCKCLNT"], channel["MCAUSER"]

    assert app_rule_and_channel(True) == ("REQUIRED", "")
    assert app_rule_and_channel(False) == ("ASQMGR", "app")  # IBM's image until MQ_APP_PASSWORD is set
    # Then everyone runs as app, so IBM's *MQADMIN rule would not see admin: a rule of its own.
    admin_rules = [attrs for verb, objtype, name, attrs in _commands(False)
                   if objtype == "CHLAUTH" and name == "DEV.APP.SVRCONN" and attrs.get("TYPE") == "USERMAP"]
    assert [(r["CLNTUSER"], r["USERSRC"]) for r in admin_rules] == [("admin", "NOACCESS")]
    assert not any(objtype == "CHLAUTH" and attrs.get("TYPE") == "USERMAP" and name == "DEV.APP.SVRCONN"
                   for verb, objtype, name, attrs in _commands(True))


def test_passwords_from_ibms_variables() -> None:
    assert devconfig.passwords({}) == (None, None)
    assert devconfig.passwords({"MQ_ADMIN_PASSWORD": "  ", "MQ_APP_PASSWORD": ""}) == (None, None)
    assert devconfig.passwords({"MQ_ADMIN_PASSWORD": "admin-pw", "MQ_APP_PASSWORD": "app-pass"}) == (
        "admin-pw", "app-pass")
    with pytest.raises(CliError, match="MQ_APP_PASSWORD must be at least 8 characters"):
        devconfig.passwords({"MQ_APP_PASSWORD": "seven77"})


def test_pymqi_run_installs_mqlite_as_pymqi() -> None:
    ours = ("pymqi", "ibmmq")
    saved = {name: sys.modules.pop(name) for name in list(sys.modules) if name.split(".")[0] in ours}
    try:
        assert pymqi_run.install() is mqlite
        import ibmmq  # type: ignore[import-not-found]
        import pymqi  # type: ignore[import-not-found]
        import pymqi.CMQC  # type: ignore[import-not-found]
        from pymqi import CMQXC  # type: ignore[import-not-found]

        assert pymqi is mqlite and pymqi.CMQC is mqlite.CMQC and CMQXC is mqlite.CMQXC
        assert ibmmq is mqlite and sys.modules["ibmmq.CMQCFC"] is mqlite.CMQCFC
    finally:
        for name in [n for n in sys.modules if n.split(".")[0] in ours]:
            del sys.modules[name]
        sys.modules.update(saved)


def test_opening_a_model_queue_names_the_dynamic_queue_in_the_od() -> None:
    od = OD(ObjectName=b"DEV.APP.MODEL.QUEUE", DynamicQName=b"APP.REPLIES.*")
    od_fill(od, "APP.REPLIES.0001", "QM1", dynamic=True)
    assert od.ObjectName.strip() == od.ResolvedQName.strip() == b"APP.REPLIES.0001"
    alias = OD(ObjectName=b"MY.ALIAS")
    od_fill(alias, "MY.BASE", "QM1")
    assert alias.ObjectName == b"MY.ALIAS" and alias.ResolvedQName.strip() == b"MY.BASE"
