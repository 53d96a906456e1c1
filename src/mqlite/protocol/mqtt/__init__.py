"""MQTT 3.1.1 and 5.0, sans-IO: packets (``packets``), their bytes (``codec``), a connection's
stream with its order rules (``stream``), 5.0 properties and reason codes."""

from mqlite.protocol.mqtt.codec import decode, encode
from mqlite.protocol.mqtt.packets import (
    V5,
    V31,
    V311,
    Auth,
    ConnAck,
    Connect,
    Disconnect,
    Packet,
    PingReq,
    PingResp,
    PubAck,
    PubComp,
    Publish,
    PubRec,
    PubRel,
    SubAck,
    Subscribe,
    Subscription,
    UnsubAck,
    Unsubscribe,
    Will,
)
from mqlite.protocol.mqtt.reasons import MqttError
from mqlite.protocol.mqtt.stream import NEED_DATA, MqttStream

__all__ = [
    "NEED_DATA", "V5", "V31", "V311", "Auth", "ConnAck", "Connect", "Disconnect", "MqttError", "MqttStream",
    "Packet", "PingReq", "PingResp", "PubAck", "PubComp", "PubRec", "PubRel", "Publish", "SubAck", "Subscribe",
    "Subscription", "UnsubAck", "Unsubscribe", "Will", "decode", "encode",
]
