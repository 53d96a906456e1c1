"""Authority on the topic tree and authority events with a real queue manager (spec C R-SEC-13,
A-36, SC-SEC-FRUIT over MQTT): a refused MQTT subscription and publication leave Not Authorized
events on SYSTEM.ADMIN.QMGR.EVENT while AUTHOREV(ENABLED), and ``mqlite amqsevt`` prints them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mqtt_clients import V5, Client, MqttQMgr


def mqsc(run_cli: Any, qm: MqttQMgr, text: str) -> str:
    result = run_cli("runmqsc", qm.name, input=text)
    assert result.returncode == 0, result.stdout + result.stderr
    return str(result.stdout)


def setmqaut(run_cli: Any, qm: MqttQMgr, *args: str) -> None:
    result = run_cli("setmqaut", "-m", qm.name, *args)
    assert result.returncode == 0, result.stdout + result.stderr


def test_refused_mqtt_subscription_and_publication_are_authority_events(
    mqtt_qmgr: MqttQMgr, client: Callable[..., Client], run_cli: Any,
) -> None:  # C:SC-SEC-FRUIT b, l over MQTT; C:R-SEC-13
    mqsc(run_cli, mqtt_qmgr, "DEFINE TOPIC(FRUIT) TOPICSTR('Price/Fruit')\n"
                             "DEFINE TOPIC(VEG) TOPICSTR('Price/Vegetables')\nALTER QMGR AUTHOREV(ENABLED)\n")
    for user in ("USER1", "USER2"):  # what IBM asks of an MQTT identity, but the topic grants
        setmqaut(run_cli, mqtt_qmgr, "-t", "qmgr", "-p", user, "+connect")
        setmqaut(run_cli, mqtt_qmgr, "-t", "queue", "-n", "SYSTEM.MQTT.**", "-p", user, "+put")
    setmqaut(run_cli, mqtt_qmgr, "-t", "topic", "-n", "FRUIT", "-p", "USER1", "+sub")
    user1 = client("fruit-1", username="USER1")
    user1.subscribe("Price/Fruit", 1)
    assert user1.granted[0].value == 1
    user2 = client("fruit-2", username="USER2", version=V5)  # 5.0: refusals come back as reason codes
    user2.subscribe("Price/Fruit", 1)
    assert user2.granted[0].value == 0x87  # SUBACK: Not authorized
    user2.publish("Price/Vegetables", "carrots", qos=0)  # refused at its MQOPEN: an event, no delivery
    user2.publish("Price/Fruit", "apples", qos=1)  # USER2 may not publish there either (PUBACK 0x87)
    assert user1.nothing_more(via=client("fruit-fence"), topic="Price/Fruit")  # "mqtt" may publish there

    printed = run_cli("amqsevt", "-m", mqtt_qmgr.name, "-w", "1")
    assert printed.returncode == 0, printed.stderr
    events = [e for e in printed.stdout.split("**** Message #")  # (the start event: STRSTPEV is IBM's ENABLED)
              if e.strip() and "Queue Manager Active" not in e]
    assert len(events) == 3, printed.stdout
    subscribe, *opens = events
    assert "MQRC_NOT_AUTHORIZED [2035] Not Authorized (type 5)" in subscribe
    fields = _fields(subscribe)
    assert fields["ReasonQualifier"] == "MQRQ_SUB_NOT_AUTHORIZED (17)"
    assert fields["UserIdentifier"] == "USER2" and fields["ApplName"] == "MQTT fruit-2"
    assert fields["TopicString"] == "Price/Fruit"
    assert fields["AdminTopicNames"] == ["FRUIT", "SYSTEM.BASE.TOPIC"]
    assert [_fields(e)["TopicString"] for e in opens] == ["Price/Vegetables", "Price/Fruit"]
    assert all("Not Authorized (type 2)" in e and "MQOO_OUTPUT" in e for e in opens)
    assert _fields(opens[0])["AdminTopicNames"] == ["VEG", "SYSTEM.BASE.TOPIC"]
    again = run_cli("amqsevt", "-m", mqtt_qmgr.name)  # amqsevt took them off the queue
    assert again.returncode == 0 and "Message #" not in again.stdout


def _fields(event: str) -> dict[str, Any]:
    """An amqsevt event's fields; a list's later members are continuation lines."""
    fields: dict[str, Any] = {}
    last = ""
    for line in event.splitlines()[1:]:
        if line.startswith("  ") and ":" in line and line[2] != " ":
            last, value = (part.strip() for part in line.split(":", 1))
            fields[last] = value
        elif line.strip() and last:
            fields[last] = [fields[last]] if isinstance(fields[last], str) else fields[last]
            fields[last].append(line.strip())
    return fields
