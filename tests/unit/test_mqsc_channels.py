"""Channel objects in MQSC against the core (issue 6: DEFINE CHANNEL(...) CHLTYPE(MQTT)).

What a running channel does is tested with real queue managers in
tests/integration/test_mqtt_channels.py; here the definitions: IBM's attributes and defaults
for telemetry channels, persistence across a restart, and the refusals with their reasons.
"""

from __future__ import annotations

from pathlib import Path

from mqlite.core.channels import SYSTEM_CHANNELS
from mqlite.core.qmgr import QueueManager
from mqlite.mqsc.commands import execute, run_mqsc
from mqlite.store.sqlite import Store


def make_qmgr() -> QueueManager:
    qm = QueueManager("QM1")
    qm.bootstrap()
    return qm


def test_define_mqtt_channel_with_ibm_defaults() -> None:
    qm = make_qmgr()
    assert execute(qm, "DEFINE CHANNEL(MQTT) CHLTYPE(MQTT) TRPTYPE(TCP) PORT(1883)") == [
        "AMQ8014I: WebSphere MQ channel created."]
    text = "\n".join(execute(qm, "DISPLAY CHANNEL(MQTT) ALL"))
    for item in ("CHANNEL(MQTT)", "CHLTYPE(MQTT)", "PORT(1883)", "BACKLOG(4096)", "TRPTYPE(TCP)",
                 "PROTOCOL(MQTTV311,MQTTV3,MQTTV5,HTTP)", "USECLTID(NO)", "SSLCAUTH(NEVER)", "MCAUSER( )",
                 "CHCKCLNT(OPTIONAL)", "ALTDATE("):
        assert item in text
    assert "_RUNNING" not in text


def test_alter_keeps_type_and_checks_values() -> None:
    qm = make_qmgr()
    execute(qm, "DEFINE CHANNEL(M1) CHLTYPE(MQTT)")
    assert execute(qm, "ALTER CHANNEL(M1) CHLTYPE(MQTT) PORT(1884) PROTOCOL(HTTP)") == [
        "AMQ8016I: WebSphere MQ channel changed."]
    assert qm.channels["M1"]["PORT"] == 1884 and qm.channels["M1"]["PROTOCOL"] == ["HTTP"]
    assert "MQRCCF_CHANNEL_TYPE_ERROR (3034)" in execute(qm, "ALTER CHANNEL(M1) CHLTYPE(SVRCONN)")[0]
    assert "MQRCCF_PARM_VALUE_ERROR (3229)" in execute(qm, "ALTER CHANNEL(M1) PROTOCOL(MQTTV9)")[0]
    assert "MQRCCF_PARM_VALUE_ERROR (3229)" in execute(qm, "ALTER CHANNEL(M1) SSLCIPH(ANY_TLS12)")[0]
    assert qm.channels["M1"]["PROTOCOL"] == ["HTTP"]  # a refused ALTER changes nothing


def test_refusals_have_reasons() -> None:
    qm = make_qmgr()
    result = run_mqsc(qm, "\n".join([
        "DEFINE CHANNEL(A) PORT(1)",  # no CHLTYPE
        "DEFINE CHANNEL(TO.QM2) CHLTYPE(AMQP)",  # not served
        "DEFINE CHANNEL(NAME.LONGER.THAN.20.CHARS) CHLTYPE(MQTT)",
        "DEFINE CHANNEL(B) CHLTYPE(MQTT) PORT(70000)",
        "DEFINE CHANNEL(B) CHLTYPE(MQTT) USECLTID(MAYBE)",
        "DEFINE CHANNEL(C) CHLTYPE(MQTT)",
        "DEFINE CHANNEL(C) CHLTYPE(MQTT)",
        "DELETE CHANNEL(NONE)",
        "START CHANNEL(NONE)",
        "START CHANNEL(C) CHLTYPE(SDR)",
        "START CHANNEL(C)",  # no server in this process
    ]))
    text = "\n".join(result.lines)
    assert "MQRCCF_CHANNEL_TYPE_ERROR (3034) has occurred: DEFINE CHANNEL needs CHLTYPE" in text
    assert "MQRC_FUNCTION_NOT_SUPPORTED (2298)" in text
    assert "MQRCCF_OBJECT_NAME_ERROR (4008)" in text
    assert "out of range 0-65535" in text
    assert "AMQ8405I" in text  # USECLTID(MAYBE) is a syntax error
    assert "AMQ8150E: WebSphere MQ object already exists." in text
    assert text.count("AMQ8147E: WebSphere MQ object NONE not found.") == 2
    assert "MQRCCF_CHL_SYSTEM_NOT_ACTIVE (3168)" in text
    assert result.failed + result.syntax_errors == 10  # all but the first DEFINE of C


def test_chstatus_summary_of_a_stopped_channel() -> None:
    qm = make_qmgr()
    assert execute(qm, "DISPLAY CHSTATUS(*)") == ["AMQ8420I: Channel Status not found."]
    execute(qm, "DEFINE CHANNEL(MQTT.A) CHLTYPE(MQTT)")
    lines = execute(qm, "DISPLAY CHSTATUS(MQTT.*) CHLTYPE(MQTT)")
    assert lines[0] == "AMQ8417I: Display Channel Status details."
    assert "CONNECTIONS(0)" in "\n".join(lines) and "STATUS(STOPPED)" in "\n".join(lines)
    assert "AMQ8405I" in execute(qm, "DISPLAY CHSTATUS(*) CLIENTID(X) SUMMARY")[0]


def test_display_filters_on_chltype_and_like_copies() -> None:
    qm = make_qmgr()
    execute(qm, "DEFINE CHANNEL(BASE) CHLTYPE(MQTT) PORT(2000) MCAUSER('app')")
    assert execute(qm, "DEFINE CHANNEL(COPY) LIKE(BASE) PORT(2001)") == ["AMQ8014I: WebSphere MQ channel created."]
    assert qm.channels["COPY"]["MCAUSER"] == "app" and qm.channels["COPY"]["PORT"] == 2001
    assert len([line for line in execute(qm, "DISPLAY CHANNEL(*) CHLTYPE(MQTT)") if "CHANNEL(" in line]) == 2
    assert execute(qm, "DISPLAY CHANNEL(*) CHLTYPE(AMQP)") == ["AMQ8147E: WebSphere MQ object * not found."]


def test_definitions_survive_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "qm.db"
    store = Store(path)
    qm = QueueManager("QM1")
    qm.bootstrap()
    execute(qm, "DEFINE CHANNEL(KEPT) CHLTYPE(MQTT) PORT(1999) PROTOCOL(MQTTV311,HTTP)")
    execute(qm, "DEFINE CHANNEL(GONE) CHLTYPE(MQTT)")
    execute(qm, "DELETE CHANNEL(GONE)")
    store.write(qm.take_effects().tx)
    store.close()

    store = Store(path)
    qm2 = QueueManager("QM1")
    qm2.restore(store.load_records("object"), {})
    assert set(qm2.channels) == {"KEPT", *SYSTEM_CHANNELS}  # the system client channels too
    assert qm2.channels["KEPT"]["PROTOCOL"] == ["MQTTV311", "HTTP"]
    assert qm2.channels_to_start() == []
    store.close()
