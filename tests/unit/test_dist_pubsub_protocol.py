"""core/network/pubsub/protocol.py: the control messages of distributed publish/subscribe as bytes —
each message type round-trips, and anything malformed is refused with ControlProtocolError (2110)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.core.network.pubsub.protocol import (
    HIERARCHY,
    ControlMessage,
    ControlProtocolError,
    Deregister,
    Proxies,
    Register,
    Registered,
    decode,
    encode,
)


def body(**fields: Any) -> bytes:
    return json.dumps({"v": 1, **fields}).encode()


def proxies(**fields: Any) -> bytes:
    return body(**{"op": "proxies", "origin": "QM2", "qmid": "QMID.2", "link": HIERARCHY, "add": ["a/b"], **fields})


def nested(depth: int) -> bytes:
    return b'{"v":1,"op":"deregister","child":' + b"[" * depth + b"]" * depth + b"}"


@pytest.mark.parametrize("message", [
    Register("QM2", "QMID.2"),
    Registered("QM1", "QMID.1"),
    Deregister("QM2"),
    Proxies("QM2", "QMID.2", HIERARCHY, add=("Sport/#", "News/UK"), cancel=("Weather",), forced=("Sport/#",)),
    Proxies("QM2", "QMID.2", "CL1", resync=True),
], ids=["register", "registered", "deregister", "proxies-add-cancel-forced", "proxies-resync-empty-set"])
def test_each_message_round_trips(message: ControlMessage) -> None:
    """B:R-PXY-15, B:R-PXY-12, B:A-08, B:R-FRC-5, B:R-HIE-6, B:A-27, B:R-CHN-2."""
    data = encode(message)
    assert isinstance(data, bytes)
    assert decode(data) == message


def test_limits_are_inclusive() -> None:
    """B:R-PXY-15, B:R-HIE-6: a 48-character name and a 10240-character topic string are accepted."""
    name, topic = "Q" * 48, "t" * 10_240
    assert decode(encode(Deregister(name))) == Deregister(name)
    assert decode(proxies(add=[topic])).add == (topic,)


@pytest.mark.parametrize("data", [
    pytest.param(b"not json", id="not-json"),
    pytest.param(b"[1, 2]", id="array-not-object"),
    pytest.param(b'"register"', id="string-not-object"),
    pytest.param(json.dumps({"op": "deregister", "child": "QM2"}).encode(), id="no-version"),
    pytest.param(body(v=2, op="deregister", child="QM2"), id="wrong-version"),
    pytest.param(body(op="subscribe", child="QM2"), id="unknown-op"),
    pytest.param(body(op="deregister"), id="missing-name"),
    pytest.param(body(op="register", child="", qmid="QMID.2"), id="empty-name"),
    pytest.param(body(op="registered", parent="   ", qmid="QMID.1"), id="blank-name"),
    pytest.param(body(op="deregister", child="Q" * 49), id="name-too-long"),
    pytest.param(body(op="deregister", child=7), id="name-not-text"),
    pytest.param(body(op="register", child="QM2", qmid=["QMID.2"]), id="qmid-not-text"),
    pytest.param(proxies(link=""), id="proxies-empty-link"),
    pytest.param(proxies(add="a/b"), id="topics-not-a-list"),
    pytest.param(proxies(cancel=[1]), id="topic-not-text"),
    pytest.param(proxies(add=[""]), id="empty-topic"),
    pytest.param(proxies(add=["t" * 10_241]), id="topic-too-long"),
    pytest.param(proxies(forced=["c/d"]), id="forced-not-among-added"),
    pytest.param(proxies(resync=1), id="resync-not-a-bool"),
    pytest.param(b'{"v":1,"op":"deregister","child":"QM\xff"}', id="not-utf8"),
    pytest.param(nested(100_000), id="deeply-nested"),
])
def test_malformed_input_is_control_protocol_error_2110(data: bytes) -> None:
    """B:R-CHN-2, B:R-HIE-6, B:R-PXY-15 (what a control message carries); decode raises
    ControlProtocolError (MQRC_FORMAT_ERROR, 2110) and nothing else."""
    with pytest.raises(ControlProtocolError) as refused:
        decode(data)
    assert isinstance(refused.value, MQError)
    assert refused.value.reason == C.MQRC_FORMAT_ERROR == 2110


def test_a_boolean_version_is_refused() -> None:
    """B:R-CHN-2, B:A-27: "v": true is not version 1."""
    with pytest.raises(ControlProtocolError):
        decode(body(v=True, op="deregister", child="QM2"))


def test_lone_surrogates_in_names_and_topics_are_refused() -> None:
    """B:R-PXY-15, B:R-HIE-6: names and topic strings must be valid text (UTF-8 encodable)."""
    accepted = []
    for data in (body(op="deregister", child="QM\ud800"), proxies(add=["a/\udc00"])):
        try:
            decode(data)
        except ControlProtocolError:
            continue
        accepted.append(data)
    assert accepted == []
