"""core/network/routes/protocol.py: the control messages of routes as bytes (B §23) — Hello and
Interest round-trip, and anything malformed is refused with ControlProtocolError (2110), never
any other exception."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.core.network.pubsub.protocol import ControlProtocolError
from mqlite.core.network.routes.protocol import Hello, Interest, RouteMessage, decode, encode
from mqlite.core.network.routes.rules import MHOP, ONEHOP, Rule

HELLO = Hello("QM2", "QM2_2024-01-01_00.00.00", True, "Z1", ONEHOP,
              (Rule("orders", "region = 'west'"), Rule("prices/#", "")), reply=True)
INTEREST = Interest("QM2", add=("T1", "orders/#"), cancel=("old/+",))


def body(**fields: Any) -> bytes:
    return json.dumps({"v": 1, **fields}).encode()


def hello(**fields: Any) -> bytes:
    return body(**{"op": "hello", "origin": "QM2", "qmid": "QMID.2", "active": True, "zone": "Z1",
                   "zonetype": MHOP, "incoming": [["orders", "amount > 0"]], "reply": False, **fields})


def interest(**fields: Any) -> bytes:
    return body(**{"op": "interest", "origin": "QM2", "add": ["T1"], "cancel": [], "resync": False, **fields})


@pytest.mark.parametrize("message", [
    HELLO,
    Hello("QM3", "", False, "DEFAULT_MHOP_ZONE", MHOP),
    INTEREST,
    Interest("QM2", cancel=("T1",)),
    Interest("QM2", add=("a/b", "c/#"), resync=True),
    Interest("QM2", resync=True),
], ids=["hello-incoming-reply", "hello-passive-no-rules", "interest-add-cancel", "interest-cancel",
        "interest-resync", "interest-resync-empty-set"])
def test_each_message_round_trips(message: RouteMessage) -> None:
    """B:R-EMS-2 (interest), B:A-56 (active), B:R-EMS-11 (incoming rules), B:A-60 (zones)."""
    data = encode(message)
    assert isinstance(data, bytes)
    assert decode(data) == message


def test_hello_carries_the_incoming_rules_in_order() -> None:
    """B:R-EMS-11, B:R-EMS-12: the receiver applies the sender's INCOMING rules before sending."""
    decoded = decode(encode(HELLO))
    assert isinstance(decoded, Hello)
    assert decoded.incoming == (Rule("orders", "region = 'west'"), Rule("prices/#", ""))
    assert decoded.zone_type == ONEHOP and decoded.active and decoded.reply


def test_limits_are_inclusive() -> None:
    """B:R-EMS-2, B:A-60: a 48-character name, a 10240-character topic and selector are accepted."""
    name, topic, selector = "Q" * 48, "t" * 10_240, "s" * 10_240
    assert decode(interest(origin=name, add=[topic])) == Interest(name, add=(topic,))
    decoded = decode(hello(incoming=[[topic, selector]], qmid="i" * 256, zone="z" * 256))
    assert isinstance(decoded, Hello) and decoded.incoming == (Rule(topic, selector),)


def test_defaults_of_optional_fields() -> None:
    """B:A-56: a Hello without 'active', 'reply' or 'incoming' is passive, wants no reply, has no rules."""
    data = body(op="hello", origin="QM2", zonetype=MHOP)
    assert decode(data) == Hello("QM2", "", False, "", MHOP, (), False)
    assert decode(body(op="interest", origin="QM2")) == Interest("QM2")


def nested(depth: int) -> bytes:
    return b'{"v":1,"op":"interest","origin":"QM2","add":' + b"[" * depth + b"]" * depth + b"}"


@pytest.mark.parametrize("data", [
    pytest.param(b"not json", id="not-json"),
    pytest.param(b"", id="empty"),
    pytest.param(b'{"v":1,"op":"hello"', id="truncated"),
    pytest.param(b"[1, 2]", id="array-not-object"),
    pytest.param(b'"hello"', id="string-not-object"),
    pytest.param(b"null", id="null-not-object"),
    pytest.param(json.dumps({"op": "interest", "origin": "QM2"}).encode(), id="no-version"),
    pytest.param(interest(v=2), id="wrong-version"),
    pytest.param(interest(v=True), id="boolean-version"),
    pytest.param(interest(v="1"), id="string-version"),
    pytest.param(interest(v=1.0), id="float-version"),
    pytest.param(interest(op="subscribe"), id="unknown-op"),
    pytest.param(interest(op=None), id="null-op"),
    pytest.param(body(origin="QM2"), id="no-op"),
    pytest.param(hello(zonetype="2HOP"), id="bad-zonetype"),
    pytest.param(hello(zonetype="mhop"), id="lowercase-zonetype"),
    pytest.param(hello(zonetype=None), id="null-zonetype"),
    pytest.param(hello(zonetype=["MHOP"]), id="list-zonetype"),
    pytest.param(body(op="hello", origin="QM2"), id="missing-zonetype"),
    pytest.param(hello(active="yes"), id="active-not-a-bool"),
    pytest.param(hello(active=1), id="active-is-an-int"),
    pytest.param(hello(reply="false"), id="reply-not-a-bool"),
    pytest.param(interest(resync=1), id="resync-not-a-bool"),
    pytest.param(interest(resync=None), id="resync-null"),
    pytest.param(interest(origin=""), id="empty-origin"),
    pytest.param(interest(origin="   "), id="blank-origin"),
    pytest.param(hello(origin="Q" * 49), id="origin-too-long"),
    pytest.param(interest(origin=7), id="origin-not-text"),
    pytest.param(body(op="interest"), id="missing-origin"),
    pytest.param(hello(qmid=["QMID"]), id="qmid-not-text"),
    pytest.param(hello(qmid="i" * 257), id="qmid-too-long"),
    pytest.param(hello(zone=5), id="zone-not-text"),
    pytest.param(hello(zone="z" * 257), id="zone-too-long"),
    pytest.param(interest(add="a/b"), id="topics-not-a-list"),
    pytest.param(interest(add={"a": 1}), id="topics-an-object"),
    pytest.param(interest(add=[1]), id="topic-not-text"),
    pytest.param(interest(cancel=[None]), id="cancel-topic-null"),
    pytest.param(interest(add=[""]), id="empty-topic"),
    pytest.param(interest(cancel=["t" * 10_241]), id="topic-too-long"),
    pytest.param(hello(incoming="orders"), id="incoming-not-a-list"),
    pytest.param(hello(incoming=None), id="incoming-null"),
    pytest.param(hello(incoming=["orders"]), id="rule-not-a-pair"),
    pytest.param(hello(incoming=[["orders"]]), id="rule-one-part"),
    pytest.param(hello(incoming=[["orders", "a = 1", "x"]]), id="rule-three-parts"),
    pytest.param(hello(incoming=[[1, "a = 1"]]), id="rule-topic-not-text"),
    pytest.param(hello(incoming=[["orders", None]]), id="rule-selector-null"),
    pytest.param(hello(incoming=[["", "a = 1"]]), id="rule-empty-topic"),
    pytest.param(hello(incoming=[["t" * 10_241, ""]]), id="rule-topic-too-long"),
    pytest.param(hello(incoming=[["orders", "s" * 10_241]]), id="rule-selector-too-long"),
    pytest.param(hello(incoming=[{"topic": "orders", "selector": ""}]), id="rule-an-object"),
    pytest.param(hello(incoming=[["orders", ""], "prices"]), id="second-rule-bad"),
    pytest.param(b'{"v":1,"op":"interest","origin":"QM\xff"}', id="not-utf8"),
    pytest.param(nested(100_000), id="deeply-nested"),
])
def test_malformed_input_is_control_protocol_error_2110(data: bytes) -> None:
    """B:R-EMS-2, B:A-56, B:A-60 (what a route control message carries); decode raises
    ControlProtocolError (MQRC_FORMAT_ERROR, 2110) and nothing else."""
    with pytest.raises(ControlProtocolError) as refused:
        decode(data)
    assert isinstance(refused.value, MQError)
    assert refused.value.reason == C.MQRC_FORMAT_ERROR == 2110


@pytest.mark.parametrize("data", [
    pytest.param(interest(origin="QM\ud800"), id="origin"),
    pytest.param(interest(add=["a/\udc00"]), id="added-topic"),
    pytest.param(interest(cancel=["\udfff"]), id="cancelled-topic"),
    pytest.param(hello(qmid="QMID\ud800"), id="qmid"),
    pytest.param(hello(zone="Z\udc00"), id="zone"),
    pytest.param(hello(incoming=[["orders/\ud800", ""]]), id="rule-topic"),
    pytest.param(hello(incoming=[["orders", "region = '\udc00'"]]), id="rule-selector"),
    pytest.param("{\"v\":1,\"op\":\"interest\",\"origin\":\"QM\ud800\"}".encode("utf-16-le", "surrogatepass"),
                 id="utf16-lone-surrogate"),
])
def test_lone_surrogates_are_refused(data: bytes) -> None:
    """B:R-EMS-2, B:A-60: names, topics and selectors must be valid text (UTF-8 encodable)."""
    with pytest.raises(ControlProtocolError) as refused:
        decode(data)
    assert refused.value.reason == 2110


# -- fuzz -----------------------------------------------------------------------------------------

_VALID = [encode(HELLO), encode(INTEREST), encode(Interest("QM9", resync=True)), hello(), interest()]
_JUNK: list[Any] = [None, True, False, 0, -1, 1, 2, 1.5, 10**30, "", " ", "x", "MHOP", "1HOP", "hello", "interest",
                    "\ud800", "Q" * 49, "t" * 10_241, [], [""], [1], [[]], [["a"]], [["a", "b"]], [["a", 1]], {},
                    {"v": 1}, ["a", None]]


def _mutate_bytes(rng: random.Random, data: bytes) -> bytes:
    out = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        choice = rng.randrange(4)
        if choice == 0 and out:
            out[rng.randrange(len(out))] = rng.randrange(256)
        elif choice == 1 and out:
            start = rng.randrange(len(out))
            del out[start:start + rng.randint(1, 8)]
        elif choice == 2:
            position = rng.randrange(len(out) + 1)
            out[position:position] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 4)))
        else:
            out = out[: rng.randrange(len(out) + 1)]
    return bytes(out)


def _mutate_fields(rng: random.Random, data: bytes) -> bytes:
    fields = json.loads(data)
    keys = [*fields, "v", "op", "origin", "qmid", "active", "zone", "zonetype", "incoming", "reply", "add",
            "cancel", "resync"]
    for _ in range(rng.randint(1, 3)):
        key = rng.choice(keys)
        if rng.random() < 0.2:
            fields.pop(key, None)
        else:
            fields[key] = rng.choice(_JUNK)
    return json.dumps(fields).encode()


def _decodes_or_refuses(data: bytes) -> RouteMessage | None:
    try:
        message = decode(data)
    except ControlProtocolError as error:
        assert error.reason == 2110
        return None
    assert isinstance(message, Hello | Interest)
    assert decode(encode(message)) == message  # what decode accepts, encode writes back
    return message


def test_fuzz_decode_only_ever_raises_control_protocol_error() -> None:
    """B:R-EMS-2, B:A-60: random bytes, mutated bodies and junk field values (seeded): decode
    returns a message that round-trips or raises ControlProtocolError (2110), nothing else."""
    rng = random.Random(20_231_114)
    accepted = refused = 0
    cases: list[bytes] = []
    cases += [bytes(rng.randrange(256) for _ in range(rng.randrange(64))) for _ in range(300)]
    cases += [_mutate_bytes(rng, rng.choice(_VALID)) for _ in range(300)]
    cases += [_mutate_fields(rng, rng.choice(_VALID)) for _ in range(300)]
    for data in cases:
        if _decodes_or_refuses(data) is None:
            refused += 1
        else:
            accepted += 1
    assert accepted + refused == 900
    assert refused > 300 and accepted > 0  # the corpus reaches both outcomes
