"""MQTT publications as MQI publications and back, IBM's mapping.

Publications from MQTT are published as MQI publications: QoS 0 non-persistent, QoS 1 and 2
persistent, the QoS kept in property ``mqtt.QoS`` so a subscriber gets the lower of it and its
subscription's; an MQI publication counts as QoS 2 when persistent, 0 when not. MQTT 5 user
properties become message properties and back, the other 5.0 publication fields ride in
``mqtt.*`` properties, and Message Expiry Interval is the MQMD's Expiry.
"""

from __future__ import annotations

import itertools
import uuid
from collections import OrderedDict
from typing import Any

from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.core.qmgr import QueueManager
from mqlite.message import Message, MessageDescriptor
from mqlite.protocol.mqtt import reasons as R

OPEN_TOPICS = 256  # topic handles kept open per connection for publishing
# MQTT 5 publication fields kept as message properties (and given back to MQTT subscribers).
FIELD_PROPERTIES = {"content_type": "mqtt.ContentType", "response_topic": "mqtt.ResponseTopic",
                    "correlation_data": "mqtt.CorrelationData", "payload_format_indicator": "mqtt.PayloadFormat"}
_HIDDEN_PREFIXES = ("MQ", "mqps.", "mqtt.")  # properties that are not the publisher's own
# The QoS an MQTT client published with; an MQI publication counts as QoS 2 when persistent.
QOS_PROPERTY = "mqtt.QoS"
# Which publication a copy is of (5.0 publishers): a client whose subscriptions overlap gets one
# PUBLISH carrying every matching subscription's identifier (MQTT 5.0 3.3.4), not one per copy.
PUBLICATION_PROPERTY = "mqtt.Pub"
_RUN = uuid.uuid4().hex[:12]  # so a publication of this run is never taken for one of an earlier run
_publications = itertools.count(1)

# MQI reasons as MQTT 5.0 reason codes.
MQTT_REASONS = {
    C.MQRC_NOT_AUTHORIZED: R.NOT_AUTHORIZED,
    C.MQRC_PUT_INHIBITED: R.IMPLEMENTATION_SPECIFIC_ERROR,
    C.MQRC_PUBLICATION_FAILURE: R.IMPLEMENTATION_SPECIFIC_ERROR,
    C.MQRC_Q_FULL: R.QUOTA_EXCEEDED,
    C.MQRC_MSG_TOO_BIG_FOR_Q: R.PACKET_TOO_LARGE,
    C.MQRC_TOPIC_STRING_ERROR: R.TOPIC_NAME_INVALID,
    C.MQRC_Q_MGR_STOPPING: R.SERVER_SHUTTING_DOWN,
}


def publish_on(core: QueueManager, conn: Any, topics: OrderedDict[str, int] | None, topic: str, payload: bytes,
               qos: int, retain: bool, props: dict[str, Any], marked: bool = False) -> int:
    """Publish an MQTT message through ``conn`` (keeping topic handles open in ``topics``, if
    given): the MQTT 5.0 reason code for the outcome. ``marked``: its copies say which
    publication they are of (``PUBLICATION_PROPERTY``)."""
    if retain and not payload:  # MQTT: an empty retained message clears the retained one, for a publisher
        try:
            core.close(conn, core.open(conn, {"ObjectType": C.MQOT_TOPIC, "ObjectString": topic},
                                       C.MQOO_OUTPUT | C.MQOO_FAIL_IF_QUIESCING).hobj, 0)
        except MQError as error:
            return MQTT_REASONS.get(error.reason, R.UNSPECIFIED_ERROR)
        core.clear_retained(topic)
        return R.SUCCESS
    hobj = topics.get(topic) if topics is not None else None
    try:
        if hobj is None:
            handle = core.open(conn, {"ObjectType": C.MQOT_TOPIC, "ObjectString": topic},
                               C.MQOO_OUTPUT | C.MQOO_FAIL_IF_QUIESCING)
            hobj = handle.hobj
            if topics is not None:
                topics[topic] = hobj
                if len(topics) > OPEN_TOPICS:
                    _, oldest = topics.popitem(last=False)
                    core.close(conn, oldest, 0)
        elif topics is not None:
            topics.move_to_end(topic)
        if props:  # 5.0 properties; a 3.1.1 publication has none and skips all this
            md = MessageDescriptor(Persistence=1 if qos else 0,
                                   Format="MQSTR" if props.get("payload_format_indicator") == 1 else "")
            expiry = props.get("message_expiry_interval")
            if expiry is not None:
                md.Expiry = min(int(expiry) * 10, 0x7FFFFFFF)
            properties: dict[str, Any] = {name: value for name, value in props.get("user_property", [])}
            for key, name in FIELD_PROPERTIES.items():
                if key in props:
                    properties[name] = props[key]
        else:
            md = MessageDescriptor()
            md.Persistence = 1 if qos else 0
            properties = {}
        properties[QOS_PROPERTY] = qos
        if marked:
            properties[PUBLICATION_PROPERTY] = f"{_RUN}{next(_publications)}"
        options = C.MQPMO_NO_SYNCPOINT | C.MQPMO_FAIL_IF_QUIESCING | (C.MQPMO_RETAIN if retain else 0)
        core.put(conn, hobj, md, options, properties, payload)
    except MQError as error:
        return MQTT_REASONS.get(error.reason, R.UNSPECIFIED_ERROR)
    return R.NO_MATCHING_SUBSCRIBERS if conn.warning == C.MQRC_NO_SUBS_MATCHED else R.SUCCESS


def v5_properties(message: Message, sub: dict[str, Any]) -> dict[str, Any]:
    """The 5.0 PUBLISH properties of a delivery: the publisher's fields and user properties,
    what is left of its expiry, and the subscription identifiers (``sub["id"]``: one or a list)."""
    props = message.properties
    out: dict[str, Any] = {}
    for key, name in FIELD_PROPERTIES.items():
        if name in props:
            out[key] = props[name]
    identifier = sub.get("id")
    if identifier:
        out["subscription_identifier"] = [int(i) for i in identifier] if isinstance(identifier, list) \
            else [int(identifier)]
    expiry = message.md.Expiry
    if expiry != C.MQEI_UNLIMITED:
        out["message_expiry_interval"] = max(0, int(expiry) // 10)
    users = [(str(k), text(v)) for k, v in props.items() if not str(k).startswith(_HIDDEN_PREFIXES)]
    if users:
        out["user_property"] = users
    return out


def delivery_qos(wanted: Any, published: Any, persistent: bool) -> int:
    """The QoS of a delivery: the lower of the subscription's and the publication's (an MQI
    publication, without ``mqtt.QoS``, counts as 2 when persistent). Either may have been set by
    an MQI application to anything."""
    if published.__class__ is not int or wanted.__class__ is not int:
        wanted, published = qos_value(wanted, 0), qos_value(published, 2 * persistent)
    return min(wanted, published) if published >= 0 else 0


def qos_value(value: Any, default: int) -> int:
    """A QoS from a property or SubUserData an MQI application could have set to anything."""
    try:
        return max(0, min(2, int(value)))
    except (TypeError, ValueError):
        return default


def int_or_zero(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0


def text(value: Any) -> str:
    """A message property as a 5.0 user property's value."""
    if isinstance(value, bytes):
        return value.hex()
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
