"""The MQTT codec (issue 6 scope 1): every packet both ways in 3.1.1 and 5.0, the specifications'
byte layouts, the malformed and protocol-error cases, and fuzzing."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mqlite.protocol.mqtt import (
    NEED_DATA,
    V5,
    V31,
    V311,
    Auth,
    ConnAck,
    Connect,
    Disconnect,
    MqttError,
    MqttStream,
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
    codec,
    decode,
    encode,
    wire,
)
from mqlite.protocol.mqtt import properties as P
from mqlite.protocol.mqtt import reasons as R
from mqlite.protocol.mqtt.codec import publish_qos0
from mqlite.protocol.mqtt.wire import utf8 as topic_field
from mqlite.protocol.mqtt.wire import varint


def roundtrip(packet: Any, version: int) -> Any:
    data = encode(packet, version)
    length, pos, shift = 0, 1, 0
    while True:
        byte = data[pos]
        length |= (byte & 0x7F) << shift
        pos += 1
        if not byte & 0x80:
            break
        shift += 7
    assert len(data) == pos + length  # the Remaining Length is right
    return decode(data[0], data[pos:], version)


ALL_V5_PUBLISH_PROPERTIES = {
    "payload_format_indicator": 1, "message_expiry_interval": 3600, "content_type": "application/json",
    "response_topic": "replies/1", "correlation_data": b"\x00\x01", "subscription_identifier": [7, 268_435_455],
    "topic_alias": 3, "user_property": [("a", "1"), ("a", "2"), ("ünï", "çødé")],
}

PACKETS_BOTH = [
    Publish("price/IBM", b"150", qos=0),
    Publish("price/IBM", b"", qos=1, packet_id=1, retain=True, dup=True),
    Publish("a/b", b"x" * 300, qos=2, packet_id=65535),
    PubAck(10), PubRec(11), PubRel(12), PubComp(13),
    Subscribe(5, [Subscription("a/+", 0), Subscription("b/#", 1), Subscription("c", 2)]),
    SubAck(5, [0, 1, 2, 0x80]),
    Unsubscribe(6, ["a/+", "b/#"]),
    PingReq(), PingResp(), Disconnect(),
    ConnAck(session_present=True, reason=0),
]

PACKETS_V5 = [
    Publish("t", b"p", qos=1, packet_id=9, properties=ALL_V5_PUBLISH_PROPERTIES),
    Publish("", b"aliased", properties={"topic_alias": 2}),
    PubAck(10, R.NO_MATCHING_SUBSCRIBERS), PubRec(11, R.QUOTA_EXCEEDED, {"reason_string": "full"}),
    PubRel(12, R.PACKET_IDENTIFIER_NOT_FOUND), PubComp(13, 0, {"user_property": [("k", "v")]}),
    Subscribe(5, [Subscription("a/+", 1, no_local=True, retain_as_published=True, retain_handling=2)],
              {"subscription_identifier": [42], "user_property": [("x", "y")]}),
    SubAck(5, [R.GRANTED_QOS_1, R.SHARED_SUBSCRIPTIONS_NOT_SUPPORTED], {"reason_string": "no"}),
    Unsubscribe(6, ["a"], {"user_property": [("x", "y")]}),
    UnsubAck(6, [R.SUCCESS, R.NO_SUBSCRIPTION_EXISTED], {"reason_string": "r"}),
    Disconnect(R.SESSION_TAKEN_OVER, {"reason_string": "another connection", "session_expiry_interval": 0}),
    Disconnect(R.DISCONNECT_WITH_WILL),
    Auth(R.CONTINUE_AUTHENTICATION, {"authentication_method": "SCRAM", "authentication_data": b"\x01"}),
    ConnAck(False, R.BAD_USER_NAME_OR_PASSWORD),
    ConnAck(True, 0, {
        "session_expiry_interval": 60, "assigned_client_identifier": "auto-1", "server_keep_alive": 30,
        "response_information": "r/", "server_reference": "other", "reason_string": "ok",
        "receive_maximum": 100, "topic_alias_maximum": 10, "maximum_qos": 1, "retain_available": 1,
        "maximum_packet_size": 1 << 20, "wildcard_subscription_available": 1,
        "subscription_identifier_available": 1, "shared_subscription_available": 0,
        "authentication_method": "m", "authentication_data": b"d", "user_property": [("a", "b")]}),
]


@pytest.mark.parametrize("packet", PACKETS_BOTH, ids=lambda p: type(p).__name__)
@pytest.mark.parametrize("version", [V311, V5])
def test_every_packet_round_trips(packet: Any, version: int) -> None:
    assert roundtrip(packet, version) == packet


@pytest.mark.parametrize("packet", PACKETS_V5, ids=lambda p: type(p).__name__)
def test_every_v5_packet_with_properties_and_reasons_round_trips(packet: Any) -> None:
    assert roundtrip(packet, V5) == packet


@pytest.mark.parametrize("connect", [
    Connect("c1"),
    Connect("", V311, clean_start=True, keep_alive=0),
    Connect("c2", V31, clean_start=False, username="u", password=b"p"),
    Connect("c3", V311, will=Will("last/words", b"bye", qos=1, retain=True), username="u", password=b"\x00\xff"),
    Connect("c4", V5, clean_start=False, keep_alive=65535, password=b"no user name is fine in 5.0",
            will=Will("w", b"", 2, False, {"will_delay_interval": 5, "message_expiry_interval": 9,
                                           "content_type": "text/plain", "payload_format_indicator": 1}),
            properties={"session_expiry_interval": 0xFFFFFFFF, "receive_maximum": 20, "maximum_packet_size": 4096,
                        "topic_alias_maximum": 5, "request_response_information": 1,
                        "request_problem_information": 0, "user_property": [("app", "x")]}),
], ids=lambda c: c.client_id or "empty")
def test_connect_round_trips(connect: Connect) -> None:
    stream = MqttStream(server=True)
    stream.receive_data(encode(connect, connect.protocol_level))
    assert stream.next_event() == connect
    assert stream.version == connect.protocol_level


def test_the_specifications_byte_layouts() -> None:
    """MQTT 3.1.1 section 3.1.2.10's CONNECT variable header, and the fixed two-byte packets."""
    connect = Connect("", V311, clean_start=True, keep_alive=10, username="u", password=b"p",
                      will=Will("t", b"m", qos=1))
    assert encode(connect, V311)[2:12] == bytes([0, 4, ord("M"), ord("Q"), ord("T"), ord("T"), 4, 0xCE, 0, 10])
    assert encode(PingReq(), V311) == b"\xc0\x00" and encode(PingResp(), V5) == b"\xd0\x00"
    assert encode(Disconnect(), V311) == b"\xe0\x00" and encode(Disconnect(), V5) == b"\xe0\x00"
    assert encode(PubRel(1), V311) == b"\x62\x02\x00\x01"  # PUBREL's reserved flags are 0010
    assert encode(PubAck(1, R.SUCCESS), V5) == b"\x40\x02\x00\x01"  # success with no properties: short form
    # A 3.1.1 client hears the 3.1.1 return code for a refusal.
    assert encode(ConnAck(False, R.BAD_USER_NAME_OR_PASSWORD), V311) == b"\x20\x02\x00\x04"
    assert encode(ConnAck(False, R.UNSUPPORTED_PROTOCOL_VERSION), V311) == b"\x20\x02\x00\x01"


@pytest.mark.parametrize(("value", "encoded"), [
    (0, b"\x00"), (127, b"\x7f"), (128, b"\x80\x01"), (16_383, b"\xff\x7f"), (16_384, b"\x80\x80\x01"),
    (2_097_151, b"\xff\xff\x7f"), (2_097_152, b"\x80\x80\x80\x01"), (268_435_455, b"\xff\xff\xff\x7f"),
])
def test_variable_byte_integers_of_the_specification_table(value: int, encoded: bytes) -> None:
    assert varint(value) == encoded


def packet_bytes(kind: int, flags: int, body: bytes) -> bytes:
    return bytes((kind << 4 | flags,)) + varint(len(body)) + body


def utf8(text: bytes) -> bytes:
    return len(text).to_bytes(2, "big") + text


CONNECT_V5 = encode(Connect("c", V5), V5)
CONNECT_V3 = encode(Connect("c", V311), V311)


def stream_after(connect: bytes) -> MqttStream:
    stream = MqttStream(server=True)
    stream.receive_data(connect)
    assert isinstance(stream.next_event(), Connect)
    return stream


def props(*items: bytes) -> bytes:
    body = b"".join(items)
    return varint(len(body)) + body


@pytest.mark.parametrize(("connect", "data", "reason"), [
    (CONNECT_V3, packet_bytes(P.PUBLISH, 0b0110, utf8(b"t") + b"\x00\x01"), R.MALFORMED_PACKET),  # QoS 3
    (CONNECT_V3, packet_bytes(P.PUBLISH, 0b1000, utf8(b"t")), R.MALFORMED_PACKET),  # DUP on QoS 0
    (CONNECT_V3, packet_bytes(P.PUBLISH, 0, utf8(b"a/+")), R.TOPIC_NAME_INVALID),
    (CONNECT_V3, packet_bytes(P.PUBLISH, 0, utf8(b"a/#")), R.TOPIC_NAME_INVALID),
    (CONNECT_V3, packet_bytes(P.PUBLISH, 0, utf8(b"a\x00b")), R.MALFORMED_PACKET),  # U+0000
    (CONNECT_V3, packet_bytes(P.PUBLISH, 0, utf8(b"\xff\xfe")), R.MALFORMED_PACKET),  # not UTF-8
    (CONNECT_V3, packet_bytes(P.PUBLISH, 0, utf8(b"\xed\xa0\x80")), R.MALFORMED_PACKET),  # a surrogate
    (CONNECT_V3, packet_bytes(P.PUBLISH, 0, utf8(b"")), R.PROTOCOL_ERROR),  # empty topic, no alias in 3.1.1
    (CONNECT_V3, packet_bytes(P.PUBLISH, 0b0010, utf8(b"t") + b"\x00\x00"), R.MALFORMED_PACKET),  # packet id 0
    (CONNECT_V3, packet_bytes(P.PUBACK, 0b0001, b"\x00\x01"), R.MALFORMED_PACKET),  # reserved flags
    (CONNECT_V3, packet_bytes(P.PUBREL, 0, b"\x00\x01"), R.MALFORMED_PACKET),  # PUBREL needs 0010
    (CONNECT_V3, packet_bytes(P.SUBSCRIBE, 0b0010, b"\x00\x01"), R.PROTOCOL_ERROR),  # no filter
    (CONNECT_V3, packet_bytes(P.SUBSCRIBE, 0b0010, b"\x00\x01" + utf8(b"a") + b"\x04"), R.MALFORMED_PACKET),
    (CONNECT_V3, packet_bytes(P.SUBSCRIBE, 0b0010, b"\x00\x01" + utf8(b"a") + b"\x03"), R.MALFORMED_PACKET),
    (CONNECT_V3, packet_bytes(P.UNSUBSCRIBE, 0b0010, b"\x00\x01"), R.PROTOCOL_ERROR),
    (CONNECT_V3, packet_bytes(P.PINGREQ, 0, b"\x00"), R.MALFORMED_PACKET),  # bytes after the last field
    (CONNECT_V3, packet_bytes(P.AUTH, 0, b""), R.MALFORMED_PACKET),  # no AUTH in 3.1.1
    (CONNECT_V3, packet_bytes(0, 0, b""), R.MALFORMED_PACKET),  # type 0 is reserved
    (CONNECT_V3, packet_bytes(P.CONNACK, 0, b"\x00\x00"), R.PROTOCOL_ERROR),  # a server's packet
    (CONNECT_V3, packet_bytes(P.SUBACK, 0, b"\x00\x01\x00"), R.PROTOCOL_ERROR),
    (CONNECT_V3, CONNECT_V3, R.PROTOCOL_ERROR),  # a second CONNECT
    (CONNECT_V3, b"\x30\xff\xff\xff\xff\x01", R.MALFORMED_PACKET),  # a five-byte Remaining Length
    (CONNECT_V5, packet_bytes(P.PUBLISH, 0, utf8(b"t") + props(b"\x01\x01", b"\x01\x00")), R.PROTOCOL_ERROR),
    (CONNECT_V5, packet_bytes(P.PUBLISH, 0, utf8(b"t") + props(b"\x01\x02")), R.PROTOCOL_ERROR),  # format 2
    (CONNECT_V5, packet_bytes(P.PUBLISH, 0, utf8(b"t") + props(b"\x23\x00\x00")), R.PROTOCOL_ERROR),  # alias 0
    (CONNECT_V5, packet_bytes(P.PUBLISH, 0, utf8(b"t") + props(b"\x7f\x00")), R.MALFORMED_PACKET),  # unknown
    (CONNECT_V5, packet_bytes(P.PUBLISH, 0, utf8(b"t") + props(b"\x11\x00\x00\x00\x01")),
     R.PROTOCOL_ERROR),  # session expiry is not a PUBLISH property
    (CONNECT_V5, packet_bytes(P.PUBLISH, 0, utf8(b"t") + b"\x05\x01"), R.MALFORMED_PACKET),  # length past the end
    (CONNECT_V5, packet_bytes(P.PUBLISH, 0, utf8(b"") + props()), R.PROTOCOL_ERROR),  # empty topic, no alias
    (CONNECT_V5, packet_bytes(P.SUBSCRIBE, 0b0010, b"\x00\x01" + props(b"\x0b\x00") + utf8(b"a") + b"\x00"),
     R.PROTOCOL_ERROR),  # subscription identifier 0
    (CONNECT_V5, packet_bytes(P.SUBSCRIBE, 0b0010, b"\x00\x01" + props(b"\x0b\x01", b"\x0b\x02") + utf8(b"a")
                              + b"\x00"), R.PROTOCOL_ERROR),  # two subscription identifiers
    (CONNECT_V5, packet_bytes(P.SUBSCRIBE, 0b0010, b"\x00\x01" + props() + utf8(b"a") + b"\x30"),
     R.MALFORMED_PACKET),  # retain handling 3
    (CONNECT_V5, packet_bytes(P.SUBSCRIBE, 0b0010, b"\x00\x01" + props() + utf8(b"a") + b"\x40"),
     R.MALFORMED_PACKET),  # reserved option bit
], ids=lambda v: v.hex()[:24] if isinstance(v, bytes) else str(v))
def test_malformed_packets_and_protocol_errors_have_their_reason(connect: bytes, data: bytes, reason: int) -> None:
    stream = stream_after(connect)
    stream.receive_data(data)
    with pytest.raises(MqttError) as caught:
        stream.next_event()
    assert caught.value.reason == reason, caught.value


def connect_bytes(flags: int, level: int = 4, name: bytes = b"MQTT", rest: bytes = b"") -> bytes:
    return packet_bytes(P.CONNECT, 0, utf8(name) + bytes((level, flags)) + b"\x00\x3c" + rest)


@pytest.mark.parametrize(("data", "reason"), [
    (packet_bytes(P.PUBLISH, 0, utf8(b"t")), R.PROTOCOL_ERROR),  # not CONNECT first
    (packet_bytes(P.PINGREQ, 0, b""), R.PROTOCOL_ERROR),
    (connect_bytes(0x02, level=6), R.UNSUPPORTED_PROTOCOL_VERSION),
    (connect_bytes(0x02, level=3), R.UNSUPPORTED_PROTOCOL_VERSION),  # level 3 is "MQIsdp"
    (connect_bytes(0x02, name=b"MQTX"), R.PROTOCOL_ERROR),
    (connect_bytes(0x03, rest=utf8(b"c")), R.MALFORMED_PACKET),  # reserved flag
    (connect_bytes(0x18 | 0x02, rest=utf8(b"c")), R.MALFORMED_PACKET),  # will QoS 3
    (connect_bytes(0x20 | 0x02, rest=utf8(b"c")), R.MALFORMED_PACKET),  # will retain without a will
    (connect_bytes(0x40 | 0x02, rest=utf8(b"c") + utf8(b"p")), R.MALFORMED_PACKET),  # 3.1.1: password alone
    (connect_bytes(0x02, rest=utf8(b"c") + b"extra"), R.MALFORMED_PACKET),
    (connect_bytes(0x02, level=5, rest=props(b"\x21\x00\x00") + utf8(b"c")), R.PROTOCOL_ERROR),  # receive max 0
    (connect_bytes(0x02, level=5, rest=props(b"\x27\x00\x00\x00\x00") + utf8(b"c")), R.PROTOCOL_ERROR),
    (connect_bytes(0x02, level=5, rest=props(b"\x11\x00\x00\x00\x01", b"\x11\x00\x00\x00\x02") + utf8(b"c")),
     R.PROTOCOL_ERROR),  # a property twice
    (connect_bytes(0x04 | 0x02, rest=utf8(b"c") + utf8(b"w/+") + utf8(b"m")), R.TOPIC_NAME_INVALID),
])
def test_bad_connects_have_their_reason(data: bytes, reason: int) -> None:
    stream = MqttStream(server=True)
    stream.receive_data(data)
    with pytest.raises(MqttError) as caught:
        stream.next_event()
    assert caught.value.reason == reason, caught.value


def test_oversize_packets_are_refused_from_the_fixed_header_alone() -> None:
    stream = MqttStream(server=True, max_packet_size=1024)
    stream.receive_data(CONNECT_V5)
    stream.next_event()
    stream.receive_data(b"\x30" + varint(10_000))  # no body sent yet: refused on the header
    with pytest.raises(MqttError) as caught:
        stream.next_event()
    assert caught.value.reason == R.PACKET_TOO_LARGE


def test_packets_split_anywhere_come_out_whole_and_in_order() -> None:
    packets = [Publish(f"t/{i}", bytes(i), qos=1, packet_id=i + 1) for i in range(20)] + [PingReq(), Disconnect()]
    data = CONNECT_V3 + b"".join(encode(p, V311) for p in packets)
    stream = MqttStream(server=True)
    got = []
    for i in range(0, len(data), 3):
        stream.receive_data(data[i:i + 3])
        while (event := stream.next_event()) is not NEED_DATA:
            got.append(event)
    assert got[1:] == packets and isinstance(got[0], Connect)


# -- generated packets and bytes --------------------------------------------------------------
texts = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\0"), max_size=20)
topics = texts.filter(lambda t: t and "+" not in t and "#" not in t)
pairs = st.lists(st.tuples(texts, texts), max_size=3)
packet_ids = st.integers(1, 65535)


@st.composite
def publishes(draw: Any, v5: bool) -> Publish:
    qos = draw(st.integers(0, 2))
    properties: dict[str, Any] = {}
    if v5:
        properties = draw(st.fixed_dictionaries({}, optional={
            "payload_format_indicator": st.integers(0, 1), "message_expiry_interval": st.integers(0, 2**32 - 1),
            "content_type": texts, "response_topic": topics, "correlation_data": st.binary(max_size=20),
            "subscription_identifier": st.lists(st.integers(1, 268_435_455), min_size=1, max_size=3),
            "topic_alias": st.integers(1, 65535), "user_property": pairs.filter(bool)}))
    return Publish(draw(topics), draw(st.binary(max_size=100)), qos, draw(st.booleans()),
                   draw(st.booleans()) if qos else False, draw(packet_ids) if qos else None, properties)


@st.composite
def subscribes(draw: Any, v5: bool) -> Subscribe:
    subscriptions = draw(st.lists(st.builds(
        Subscription, texts, st.integers(0, 2),
        st.booleans() if v5 else st.just(False), st.booleans() if v5 else st.just(False),
        st.integers(0, 2) if v5 else st.just(0)), min_size=1, max_size=4))
    properties = {"subscription_identifier": [draw(st.integers(1, 1000))]} if v5 and draw(st.booleans()) else {}
    return Subscribe(draw(packet_ids), subscriptions, properties)


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_generated_packets_round_trip(data: Any) -> None:
    version = data.draw(st.sampled_from([V311, V5]))
    v5 = version == V5
    packet = data.draw(st.one_of(
        publishes(v5), subscribes(v5),
        st.builds(Unsubscribe, packet_ids, st.lists(texts, min_size=1, max_size=4)),
        st.builds(PubAck, packet_ids, st.integers(0, 255) if v5 else st.just(0)),
        st.builds(PubRel, packet_ids, st.integers(0, 255) if v5 else st.just(0)),
    ))
    assert roundtrip(packet, version) == packet


@settings(max_examples=400, deadline=None)
@given(st.sampled_from([CONNECT_V3, CONNECT_V5, b""]), st.binary(max_size=200))
def test_random_bytes_give_packets_or_mqtt_errors_only(connect: bytes, garbage: bytes) -> None:
    """Whatever arrives, the decoder answers with packets, NEED_DATA or an MqttError carrying a
    reason code the specification defines, never another exception."""
    stream = MqttStream(server=True, max_packet_size=4096)
    stream.receive_data(connect + garbage)
    try:
        for _ in range(100):
            if stream.next_event() is NEED_DATA:
                break
    except MqttError as error:
        assert error.reason >= 0x80


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_mutated_valid_packets_never_crash_the_decoder(data: Any) -> None:
    v5 = data.draw(st.booleans())
    version = V5 if v5 else V311
    packet = data.draw(st.one_of(publishes(v5), subscribes(v5)))
    raw = bytearray(encode(packet, version))
    for _ in range(data.draw(st.integers(1, 4))):
        raw[data.draw(st.integers(0, len(raw) - 1))] = data.draw(st.integers(0, 255))
    stream = stream_after(CONNECT_V5 if v5 else CONNECT_V3)
    stream.receive_data(bytes(raw))
    try:
        stream.next_event()
    except MqttError as error:
        assert error.reason >= 0x80


@given(st.text(min_size=1, max_size=300).filter(lambda t: "\x00" not in t and "+" not in t and "#" not in t),
       st.binary(max_size=70_000), st.booleans())
def test_the_qos0_fast_path_makes_the_bytes_encode_makes(topic: str, payload: bytes, retain: bool) -> None:
    assert publish_qos0(topic_field(topic), payload, retain) == encode(Publish(topic, payload, 0, retain), V311)


def _outcome(call: Any) -> Any:
    try:
        packet = call()
    except MqttError as error:
        return ("error", error.reason)
    return ("packet", packet)


@settings(max_examples=400)
@given(st.one_of(st.binary(max_size=40),
                 st.builds(lambda t, p: len(t).to_bytes(2, "big") + t + p,
                           st.text(max_size=20).map(str.encode), st.binary(max_size=20))),
       st.booleans())
def test_the_qos0_decoding_fast_path_agrees_with_the_general_one(body: bytes, retain: bool) -> None:
    """Same packet or the same reason code, for any body (3.1.1 QoS 0 PUBLISH)."""
    header = 0x30 | retain
    fast = _outcome(lambda: decode(header, body, V311))
    general = _outcome(lambda: codec._publish(wire.Reader(body), header & 0x0F, V311))
    assert fast == general


@settings(max_examples=400)
@given(st.binary(max_size=8), st.one_of(st.binary(max_size=40),
                                        st.builds(lambda t, p: len(t).to_bytes(2, "big") + t + p,
                                                  st.text(max_size=20).map(str.encode), st.binary(max_size=20))),
       st.binary(max_size=8), st.booleans())
def test_the_qos0_publish_read_in_place_agrees_with_the_general_decoder(before: bytes, body: bytes, after: bytes,
                                                                         retain: bool) -> None:
    """``publish_qos0_in`` reads a body where it lies in a larger buffer: the same packet or the
    same reason code as the general decoder gives for that body alone."""
    fast = _outcome(lambda: codec.publish_qos0_in(before + body + after, len(before), len(before) + len(body), retain))
    general = _outcome(lambda: codec._publish(wire.Reader(body), retain, V311))
    assert fast == general


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(publishes(False), st.just(PingReq())), min_size=1, max_size=12),
       st.lists(st.integers(1, 300), min_size=1, max_size=20))
def test_a_311_stream_cut_anywhere_gives_what_decoding_each_packet_gives(packets: list[Any], cuts: list[int]) -> None:
    """The stream's in-place QoS 0 path and its buffering: chunks of any size give the packets
    ``decode`` makes of each one, in order."""
    frames = [encode(p, V311) for p in packets]
    expected = []
    for frame in frames:
        stream = stream_after(CONNECT_V3)
        stream.receive_data(frame)
        expected.append(stream.next_event())
    data = b"".join(frames)
    stream = stream_after(CONNECT_V3)
    got: list[Any] = []
    i = 0
    while i < len(data):
        size = cuts[len(got) % len(cuts)]
        stream.receive_data(data[i:i + size])
        i += size
        while (event := stream.next_event()) is not NEED_DATA:
            got.append(event)
    assert got == expected == packets
    assert all(type(p.payload) is bytes for p in got if isinstance(p, Publish))


def test_a_large_publish_in_small_chunks_comes_out_whole() -> None:
    payload = bytes(range(256)) * 4000  # ~1 MB in 1,000-byte chunks: joined once, at the end
    data = encode(Publish("big/one", payload, 0, False), V311) + encode(Publish("t", b"after", 0, True), V311)
    stream = stream_after(CONNECT_V3)
    got: list[Any] = []
    for i in range(0, len(data), 1000):
        stream.receive_data(data[i:i + 1000])
        while (event := stream.next_event()) is not NEED_DATA:
            got.append(event)
    assert got == [Publish("big/one", payload, 0, False), Publish("t", b"after", 0, True)]


@pytest.mark.parametrize("remaining", [3, 127, 128, 129, 16_383, 16_384, 16_385, 2_097_151, 2_097_152])
@pytest.mark.parametrize("retain", [False, True])
def test_the_qos0_fast_path_at_each_remaining_length_size(remaining: int, retain: bool) -> None:
    field = topic_field("a")  # 3 bytes
    payload = b"p" * (remaining - len(field))
    assert publish_qos0(field, payload, retain) == encode(Publish("a", payload, 0, retain), V311)
