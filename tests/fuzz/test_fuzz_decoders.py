"""Every decoder fuzzed with hypothesis: random bytes, and valid input mutated (bit flips, cuts,
splices, changed length fields). The contract each target asserts is in ``fuzz_targets``: a
value, or the decoder's own error carrying a reason code, and a round trip where there is an
encoder. "The server never dies on bad input" (DESIGN.md section 4): no other exception.

A bounded number of examples per target keeps this part of ``make test``; ``test_atheris.py``
runs the same targets coverage-guided for longer (``pytest -m fuzz``).
"""

from __future__ import annotations

import string
from typing import Any

import fuzz_targets as T
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mutations import mutated

from mqlite.cli import dmpfile
from mqlite.message import Message, MessageDescriptor
from mqlite.protocol import dlh, native, native_shapes, xqh
from mqlite.protocol.mqtt import (
    V5,
    V311,
    Connect,
    Disconnect,
    PingReq,
    PubAck,
    PubComp,
    Publish,
    PubRec,
    PubRel,
    Subscribe,
    Subscription,
    Unsubscribe,
    Will,
    codec,
)

FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))


# -- mutations of valid input ---------------------------------------------------------------------

cuts = st.sampled_from([0, 1, 2, 3, 7, 64])

# -- the native protocol --------------------------------------------------------------------------
scalars = st.one_of(st.none(), st.booleans(), st.integers(-(2**63), 2**64 - 1), st.floats(),
                    st.text(max_size=12), st.binary(max_size=30))
keys = st.one_of(st.text(max_size=8), st.integers(-(2**63), 2**63 - 1))
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=5), st.dictionaries(keys, inner, max_size=4)), max_leaves=12)
md_lists = st.builds(MessageDescriptor.to_list,
                     st.builds(MessageDescriptor, Priority=st.integers(0, 9), Persistence=st.integers(0, 2),
                               MsgId=st.binary(min_size=24, max_size=24), Format=st.text(max_size=8)))
props = st.dictionaries(st.text(max_size=8), scalars, max_size=4)
od = st.fixed_dictionaries({}, optional={k: st.just(v) if not isinstance(v, str) else st.text(max_size=20)
                                         for k, v in native_shapes.OD_DEFAULTS.items()})
gmo = st.fixed_dictionaries({}, optional={k: st.integers(-1, 2**31) for k in native_shapes.GMO_DEFAULTS})
# Requests as a real client sends them, each op with arguments of its shape.
ints32 = st.integers(-(2**31), 2**31)
_ARGS: dict[native.Op, st.SearchStrategy[list[Any]]] = {
    native.Op.CONNECT: st.tuples(st.text(max_size=48), st.none() | st.text(max_size=12),
                                 st.none() | st.text(max_size=12), st.text(max_size=28), ints32,
                                 st.fixed_dictionaries({}, optional={"ChannelName": st.text(max_size=20),
                                                                     "MaxMsgLength": ints32})).map(list),
    native.Op.OPEN: st.tuples(od, ints32).map(list),
    native.Op.PUT: st.tuples(st.integers(0, 9), md_lists, ints32, props, st.binary(max_size=64)).map(list),
    native.Op.GET: st.tuples(st.integers(0, 9), st.lists(st.binary(min_size=24, max_size=24), min_size=2, max_size=2),
                             gmo, ints32).map(list),
    native.Op.INQ: st.tuples(st.integers(0, 9), st.lists(st.integers(0, 3000), max_size=4)).map(list),
    native.Op.SET: st.tuples(st.integers(0, 9),
                             st.dictionaries(st.integers(0, 3000), ints32 | st.text(), max_size=3)).map(list),
    native.Op.MQSC: st.tuples(st.text(max_size=40)).map(list),
    native.Op.SUB: st.tuples(st.fixed_dictionaries({}, optional={"Options": ints32,
                                                                 "ObjectString": st.text(max_size=20)}),
                             st.integers(0, 9)).map(list),
    native.Op.BROWSE_RANGE: st.tuples(st.text(max_size=10), *[st.integers(-1, 2**40)] * 3).map(list),
}


@st.composite
def requests(draw: st.DrawFn) -> bytes:
    op = draw(st.sampled_from(sorted(native.REQUEST_OPS)))
    args = draw(_ARGS.get(op, st.just([])))
    return native.encode_request(op, draw(st.integers(0, 2**32)), args)


request_streams = st.lists(requests(), min_size=1, max_size=4).map(b"".join)


@FUZZ
@given(st.binary(max_size=400), cuts)
def test_native_server_random_bytes(data: bytes, cut: int) -> None:
    T.native_server(data, cut)


@FUZZ
@given(mutated(request_streams), cuts)
def test_native_server_mutated_requests(data: bytes, cut: int) -> None:
    T.native_server(data, cut)


@FUZZ
@given(request_streams)
def test_native_server_valid_requests_all_decode(data: bytes) -> None:
    events = T.native_server(data)
    assert events and all(isinstance(e, native.Request | native.ProtocolError) for e in events)


@FUZZ
@given(st.lists(values, max_size=7), st.integers(0, 80))
def test_native_payload_any_array(items: list[Any], op: int) -> None:
    T.native_items([op, *items])
    T.native_items(items)


@FUZZ
@given(st.binary(max_size=200))
def test_native_payload_random_msgpack(data: bytes) -> None:
    T.native_payload(data)


replies = st.builds(native.encode_reply, st.integers(0, 2**32), st.integers(0, 2), st.integers(0, 3000), values)
pushes = st.one_of(
    st.builds(native.encode_push_msg, st.integers(0, 9), md_lists, props, st.binary(max_size=20)),
    st.builds(native.encode_push_error, st.integers(0, 9), st.integers(0, 3000)))


@FUZZ
@given(mutated(st.lists(replies | pushes, min_size=1, max_size=3).map(b"".join)), cuts)
def test_native_client_mutated_replies(data: bytes, cut: int) -> None:
    T.native_client(data, cut)


# -- MQTT -----------------------------------------------------------------------------------------
topics = st.text(alphabet="ab/+#$\u00e9 ", min_size=1, max_size=12)  # valid: mutations make the rest
topic_names = st.text(alphabet="ab/$\u00e9 ", min_size=1, max_size=12)
names = st.text(st.characters(blacklist_characters="\0", blacklist_categories=["Cs"]), max_size=10)
mqtt_props = st.fixed_dictionaries({}, optional={"user_property": st.lists(st.tuples(names, names), max_size=2)})


def _client_packets(version: int) -> st.SearchStrategy[Any]:
    v5 = version == V5
    p = mqtt_props if v5 else st.just({})
    return st.one_of(
        st.builds(Publish, topic_names, st.binary(max_size=20), st.just(0), st.booleans(), properties=p),
        st.builds(lambda t, b, q, i, pr: Publish(t, b, q, packet_id=i, properties=pr),
                  topic_names, st.binary(max_size=20), st.integers(1, 2), st.integers(1, 65535), p),
        st.builds(PubAck, st.integers(1, 65535)), st.builds(PubRec, st.integers(1, 65535)),
        st.builds(PubRel, st.integers(1, 65535), st.sampled_from([0, 0x92]) if v5 else st.just(0)),
        st.builds(Subscribe, st.integers(1, 65535),
                  st.lists(st.builds(Subscription, topics, st.integers(0, 2)), min_size=1, max_size=3), p),
        st.builds(Unsubscribe, st.integers(1, 65535), st.lists(topics, min_size=1, max_size=3), p),
        st.just(PingReq()), st.builds(Disconnect, st.sampled_from([0, 4]) if v5 else st.just(0), p),
    )


@st.composite
def mqtt_sessions(draw: st.DrawFn) -> bytes:
    """A client's bytes: a CONNECT, then packets of its level."""
    version = draw(st.sampled_from([V311, V5]))
    will = draw(st.none() | st.builds(Will, topic_names, st.binary(max_size=8), st.integers(0, 2), st.booleans()))
    connect = Connect(draw(names), version, draw(st.booleans()), draw(st.integers(0, 65535)),
                      draw(st.none() | names), draw(st.none() | st.binary(max_size=6)), will)
    if connect.password is not None and connect.username is None and version != V5:
        connect.username = "u"
    packets = draw(st.lists(_client_packets(version), max_size=5))
    return codec.encode(connect, version) + b"".join(codec.encode(x, version) for x in packets)


@FUZZ
@given(st.binary(max_size=300), cuts)
def test_mqtt_server_random_bytes(data: bytes, cut: int) -> None:
    T.mqtt_stream(data, cut)


@FUZZ
@given(mutated(mqtt_sessions()), cuts)
def test_mqtt_server_mutated_sessions(data: bytes, cut: int) -> None:
    T.mqtt_stream(data, cut)


@FUZZ
@given(mqtt_sessions())
def test_mqtt_server_valid_sessions_round_trip(data: bytes) -> None:
    packets = T.mqtt_stream(data)
    assert packets and isinstance(packets[0], Connect)


@FUZZ
@given(st.integers(0, 255), st.binary(max_size=60), st.sampled_from(T.MQTT_VERSIONS))
def test_mqtt_packet_any_header(header: int, body: bytes, version: int) -> None:
    T.mqtt_packet(header, body, version)


@FUZZ
@given(mutated(st.lists(_client_packets(V5), min_size=1, max_size=4).map(
    lambda ps: b"".join(codec.encode(p, V5) for p in ps))), cuts)
def test_mqtt_server_v5_mutated_packets(data: bytes, cut: int) -> None:
    T.mqtt_stream(T.MQTT_V5_CONNECT + data, cut)


@FUZZ
@given(mutated(mqtt_sessions()), cuts)
def test_mqtt_server_session_mutated(data: bytes, cut: int) -> None:
    T.mqtt_session(data, cut)


aliased = st.builds(lambda a, t, q: Publish(t, b"p", q, packet_id=q or None, properties={"topic_alias": a}),
                    st.integers(1, 6), st.sampled_from(["", "a/b"]), st.integers(0, 2))
acks = st.one_of(*(st.builds(k, st.integers(1, 8)) for k in (PubAck, PubRec, PubRel, PubComp)))


@FUZZ
@given(st.lists(aliased | acks | _client_packets(V5), max_size=12))
def test_mqtt_server_session_v5_flows(packets: list[Any]) -> None:
    """Topic aliases set and used, acknowledgements of unknown and known ids, QoS 2 resends."""
    T.mqtt_session(T.MQTT_V5_CONNECT + b"".join(codec.encode(p, V5) for p in packets))


@FUZZ
@given(mutated(st.binary(max_size=100)), st.sampled_from([V311, V5]))
def test_mqtt_client_side_random_bytes(data: bytes, version: int) -> None:
    T.mqtt_stream(data, server=False, version=version)


# -- WebSocket ------------------------------------------------------------------------------------
masks = st.binary(min_size=4, max_size=4)
frames = st.builds(T.websocket_frame, st.sampled_from([0, 1, 2, 3, 8, 9, 10, 11]), st.binary(max_size=140),
                   masks, st.booleans())


@FUZZ
@given(mutated(st.just(T.HANDSHAKE)), cuts)
def test_websocket_handshake_mutated(data: bytes, cut: int) -> None:
    T.websocket_server(data, cut)


@FUZZ
@given(mutated(st.lists(frames, max_size=4).map(b"".join)), cuts)
def test_websocket_frames_mutated(data: bytes, cut: int) -> None:
    T.websocket_server(data, cut, handshake=True)


@FUZZ
@given(st.lists(st.binary(max_size=300), min_size=1, max_size=4), masks, cuts)
def test_websocket_binary_message_round_trip(parts: list[bytes], mask: bytes, cut: int) -> None:
    """A message in any number of fragments arrives whole, in order (RFC 6455 5.4)."""
    data = b"".join(T.websocket_frame(2 if i == 0 else 0, part, mask, fin=i == len(parts) - 1)
                    for i, part in enumerate(parts))
    assert T.websocket_server(data, cut, handshake=True) == b"".join(parts)


# -- MQSC -----------------------------------------------------------------------------------------
mqsc_words = st.sampled_from(["DEFINE", "DEF", "ALTER", "DISPLAY", "DIS", "DELETE", "CLEAR", "START", "STOP",
                              "END", "QLOCAL", "QL", "QALIAS", "TOPIC", "SUB", "CHANNEL", "QMGR", "QSTATUS",
                              "CHLTYPE", "MQTT", "TARGET", "TOPICSTR", "MAXDEPTH", "DESCR", "WHERE", "LIKE",
                              "REPLACE", "ALL", "TYPE", "PURGE", "GT", "EQ", "LK", "NL", "CURDEPTH", "X*", "*"])
mqsc_pieces = st.one_of(mqsc_words, st.sampled_from(["(", ")", "'", "''", '"', ",", " ", "+\n", "-\n", "\n", "\n*",
                                                     ";", "\t", "\n  "]),
                        st.text(alphabet=string.ascii_letters + string.digits + ".*/#_", max_size=8))


@FUZZ
@given(st.lists(mqsc_pieces, max_size=30).map(" ".join))
def test_mqsc_scripts_from_tokens(text: str) -> None:
    T.mqsc_script(text)


@FUZZ
@given(st.text(max_size=200))
def test_mqsc_any_text(text: str) -> None:
    T.mqsc_script(text)


object_names = st.sampled_from(["A", "B", "T", "S", "C", "SYSTEM.DEFAULT.LOCAL.QUEUE", "SYSTEM.BASE.TOPIC", "A*", "*"])
mqsc_values = st.one_of(object_names, st.sampled_from(T.ATTRIBUTE_TOKENS), st.integers(-(2**40), 2**40).map(str),
                   st.text(alphabet="ab/#+*' ", max_size=8).map(lambda t: "'" + t.replace("'", "''") + "'"))


@st.composite
def mqsc_commands(draw: st.DrawFn) -> str:
    verb = draw(st.sampled_from(["DEFINE", "ALTER", "DELETE", "DISPLAY", "CLEAR", "START", "STOP"]))
    noun = draw(st.sampled_from(["QLOCAL", "QALIAS", "QREMOTE", "QMODEL", "TOPIC", "SUB", "CHANNEL", "QMGR",
                                 "QSTATUS", "SBSTATUS", "TPSTATUS", "CHSTATUS", "PUBSUB", "TOPICSTR", "QUEUE"]))
    head = f"{verb} {noun}" + ("" if noun == "QMGR" else f"({draw(object_names)})")
    parts = [f"{draw(st.sampled_from([*T.ATTRIBUTE_NAMES, 'LIKE', 'REPLACE', 'ALL', 'TYPE', 'WHERE']))}"
             f"({draw(mqsc_values)})" for _ in range(draw(st.integers(0, 4)))]
    return " ".join([head, *parts])


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(mqsc_commands(), min_size=1, max_size=6).map("\n".join))
def test_mqsc_commands_against_core(script: str) -> None:
    T.mqsc_against_core(script)


# -- selectors ------------------------------------------------------------------------------------
selector_pieces = st.one_of(
    st.sampled_from(["a", "b", "c", "s", "x", "JMSPriority", "JMSType", "Root.MQMD.Priority", "AND", "OR", "NOT",
                     "BETWEEN", "IN", "LIKE", "ESCAPE", "IS", "NULL", "TRUE", "FALSE", "=", "<>", "<", ">", "<=",
                     ">=", "+", "-", "*", "/", "(", ")", ",", "'a%'", "'_'", "'%'", "'!'", "x'0A'", "1", "2.5",
                     "1e308", "99999999999999999999999", "0", "1L", ".5F"]),
    st.text(alphabet="ab%_'!\\", max_size=6).map(lambda t: "'" + t.replace("'", "''") + "'"))


@FUZZ
@given(st.lists(selector_pieces, min_size=1, max_size=25).map(" ".join))
def test_selectors_from_tokens(text: str) -> None:
    T.selector(text)


@FUZZ
@given(st.text(max_size=120))
def test_selectors_any_text(text: str) -> None:
    T.selector(text)


# -- dmpmqmsg files -------------------------------------------------------------------------------
property_values = st.one_of(st.none(), st.booleans(), st.integers(-(2**63), 2**63 - 1), st.floats(),
                            st.binary(max_size=10), st.text(max_size=10))
md_values = st.builds(MessageDescriptor, Priority=st.integers(0, 9), Expiry=st.integers(-1, 2**31 - 1),
                      MsgId=st.binary(min_size=24, max_size=24), PutApplName=st.text(
                          alphabet=string.ascii_letters + " .", max_size=28).map(str.strip),
                      ApplIdentityData=st.text(alphabet=string.ascii_letters, max_size=32))
messages = st.builds(Message, md_values, st.binary(max_size=100),
                     st.dictionaries(st.text(alphabet=string.ascii_letters + ".", min_size=1, max_size=8),
                                     property_values, max_size=4))
dump_files = st.lists(messages, max_size=3).map(lambda ms: "".join(dmpfile.encode(ms, "QM1", "Q")))


@FUZZ
@given(dump_files.map(str.encode).flatmap(lambda b: mutated(st.just(b))))
def test_dmpmqmsg_mutated_files(data: bytes) -> None:
    T.dmpmqmsg_file(data.decode("utf-8", "replace"))


@FUZZ
@given(st.lists(messages, max_size=3))
def test_dmpmqmsg_messages_round_trip(ms: list[Message]) -> None:
    text = "".join(dmpfile.encode(ms, "QM1", "Q"))
    back = list(dmpfile.decode(text.splitlines(keepends=True)))
    assert [(m.md, m.body) for m in back] == [(m.md, m.body) for m in ms]
    assert all(T._same(a.properties, b.properties) for a, b in zip(back, ms, strict=True))


@FUZZ
@given(st.lists(st.one_of(st.sampled_from(["N", "A ", "P ", "S ", "X ", "* ", ""]).flatmap(
    lambda k: st.text(max_size=30).map(lambda rest: k + rest)),
    st.sampled_from(["A PRI 99999999999999", "A MSI 00", "A AIX FF", "P a i8 1", "P a string [[[[[[[",
                     "P a string " + "[" * 3000, "P a r8 nan", "S \"\"", "X 0"])), max_size=8).map("\n".join))
def test_dmpmqmsg_lines(text: str) -> None:
    T.dmpmqmsg_file(text)


# -- IBM's binary headers -------------------------------------------------------------------------
ascii_field = st.text(alphabet=string.ascii_uppercase + ".", max_size=8)
dlh_headers = st.builds(dlh.DeadLetterHeader, st.integers(-(2**31), 2**31 - 1), ascii_field, ascii_field,
                        st.integers(0, 2**31 - 1), st.integers(0, 65535), ascii_field, st.integers(0, 40),
                        ascii_field, ascii_field, ascii_field)


@FUZZ
@given(mutated(st.builds(lambda h, b: dlh.encode(h) + b, dlh_headers, st.binary(max_size=10))))
def test_dead_letter_header_mutated(data: bytes) -> None:
    T.dead_letter_header(data)


@FUZZ
@given(mutated(st.builds(xqh.wrap, ascii_field, ascii_field, md_values, st.binary(max_size=10))))
def test_transmission_header_mutated(data: bytes) -> None:
    T.transmission_header(data)
    T.message_descriptor_v1(data[xqh.LENGTH - 324:])


@FUZZ
@given(st.binary(max_size=600))
def test_headers_random_bytes(data: bytes) -> None:
    T.transmission_header(data)
    T.message_descriptor_v1(data)
    T.dead_letter_header(data)


@pytest.mark.parametrize("name", sorted(T.BYTE_TARGETS))
def test_every_byte_target_takes_empty_and_short_input(name: str) -> None:
    """The coverage-guided runner's entry points (atheris starts from nothing)."""
    for data in (b"", b"\0", b"\xff" * 5, b"\x10\x00"):
        T.BYTE_TARGETS[name](data)
