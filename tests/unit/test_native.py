"""The native protocol codec: round trips, framing at every byte boundary, rejects, fuzz."""

from __future__ import annotations

from typing import Any

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mqlite.message import MessageDescriptor
from mqlite.protocol import native, native_results
from mqlite.protocol.native import (
    NEED_DATA,
    NativeConnection,
    Op,
    ProtocolError,
    Push,
    Reply,
    Request,
    Role,
)
from mqlite.protocol.native_shapes import CD_DEFAULTS, GMO_DEFAULTS, OD_DEFAULTS

MD = MessageDescriptor(Format="MQSTR", MsgId=b"\x01" * 24).to_list()
OD = {"ObjectName": "APP.IN", "ObjectType": 1}
GMO = {"Options": 1, "WaitInterval": 1000, "MatchOptions": 0}

REQUESTS: list[tuple[Op, list[Any]]] = [
    (Op.CONNECT, ["QM1", "alice", "secret", "app", 42, {"ChannelName": "DEV.APP.SVRCONN", "MaxMsgLength": 1024}]),
    (Op.CONNECT, ["QM1", None, None, "app", 42, {}]),
    (Op.DISCONNECT, []),
    (Op.OPEN, [OD, 8208]),
    (Op.CLOSE, [7, 0]),
    (Op.PUT, [7, MD, 4, {"a": 1, "b": "x", "c": 1.5, "d": True, "e": b"\0", "f": None}, b"body"]),
    (Op.PUT1, [OD, MD, 0, {}, b""]),
    (Op.GET, [7, [b"m" * 24, bytes(24)], GMO, -1]),
    (Op.COMMIT, []),
    (Op.BACKOUT, []),
    (Op.INQ, [7, [3, 20, 2016]]),
    (Op.SET, [7, {9: 1, 2016: "text"}]),
    (Op.MQSC, ["DEFINE QLOCAL(A)"]),
    (Op.STAT, []),
    (Op.CREDIT, [7, 200]),
    (Op.PING, []),
]


def _normalised(op: Op, args: list[Any]) -> list[Any]:
    """What the server sees: OD, GMO and CD maps completed with their defaults."""
    out = list(args)
    if op is Op.CONNECT:
        out[5] = {**CD_DEFAULTS, **args[5]}
    if op in (Op.OPEN, Op.PUT1):
        out[0] = {**OD_DEFAULTS, **args[0]}
    if op is Op.GET:
        out[2] = {**GMO_DEFAULTS, **args[2]}
    return out


@pytest.mark.parametrize(("op", "args"), REQUESTS, ids=lambda x: str(x)[:20])
def test_every_request_round_trips(op: Op, args: list[Any]) -> None:
    client, server = NativeConnection(Role.CLIENT), NativeConnection(Role.SERVER)
    req_id = 0 if op is Op.CREDIT else 17
    server.receive_data(client.send_request(op, req_id, args))
    event = server.next_event()
    assert event == Request(op, req_id, _normalised(op, args))
    assert isinstance(event, Request) and event.op is op
    assert server.next_event() is NEED_DATA


REPLIES: list[Any] = [
    {"qmgr": "QM1", "user": "alice", "conn_id": "c1", "maxmsgl": 4194304, "ccsid": 1208},
    None,
    [5, "APP.IN", "QM1", True],
    MD,
    [MD, {"p": 1}, b"hello", 5],
    [7, 99],
    [0, ["AMQ8006I: created"]],
    {"put_success": 1, "put_warning": 0, "put_failure": 2, "reason": 2053},
]


@pytest.mark.parametrize("result", REPLIES, ids=lambda x: str(x)[:20])
def test_replies_round_trip(result: Any) -> None:
    client, server = NativeConnection(Role.CLIENT), NativeConnection(Role.SERVER)
    client.receive_data(server.send_reply(3, 1, 2079, result))
    assert client.next_event() == Reply(3, 1, 2079, result)


def test_result_shapes_are_checked() -> None:
    assert native_results.check_result(Op.OPEN, [1, "Q", "QM", False, False]) == [1, "Q", "QM", False, False]
    native_results.check_result(Op.GET, [MD, {}, b"", 10])
    with pytest.raises(ProtocolError) as e:
        native_results.check_result(Op.OPEN, [1, "Q"])
    assert e.value.reason == 2195
    with pytest.raises(ProtocolError):
        native_results.check_result(Op.CONNECT, {"qmgr": "QM1"})


def test_pushes_round_trip() -> None:
    client, server = NativeConnection(Role.CLIENT), NativeConnection(Role.SERVER)
    client.receive_data(server.send_push(Op.PUSH_MSG, [4, MD, {"k": "v"}, b"ahead"]))
    client.receive_data(native.encode_push_error(4, 2053))
    assert client.next_event() == Push(Op.PUSH_MSG, [4, MD, {"k": "v"}, b"ahead"])
    assert client.next_event() == Push(Op.PUSH_ERROR, [4, 2053])
    assert client.next_event() is NEED_DATA
    batch = [[4, MD, {}, b"one"], [5, MD, {"k": 1}, b"two"]]
    client.receive_data(native.encode_push_msgs(batch))
    assert client.next_event() == Push(Op.PUSH_MSGS, [batch])
    client.receive_data(native.encode_push_msgs([[4, MD, {}, "not bytes"]]))  # type: ignore[list-item]
    with pytest.raises(ProtocolError):
        client.next_event()


def test_hot_path_encoders_match_the_generic_ones() -> None:
    props: dict[str, Any] = {"x": 1}
    put = native.encode_request(Op.PUT, 0, [3, MD, 0, props, b"b"])
    assert native.encode_put(0, 3, MD, 0, props, b"b") == put
    ids = [b"m" * 24, bytes(24)]
    assert native.encode_get(9, 3, ids, GMO, 100) == native.encode_request(Op.GET, 9, [3, ids, GMO, 100])
    assert native.encode_credit(3, 50) == native.encode_request(Op.CREDIT, 0, [3, 50])
    assert native.encode_push_msg(3, MD, props, b"b") == NativeConnection(Role.SERVER).send_push(
        Op.PUSH_MSG, [3, MD, props, b"b"])


def test_put_frame_is_one_flat_array() -> None:
    frame = native.encode_put(0, 3, MD, 0, {}, b"abc")
    assert int.from_bytes(frame[:4], "big") == len(frame) - 4
    assert msgpack.unpackb(frame[4:]) == [Op.PUT, 0, 3, MD, 0, {}, b"abc"]


def test_every_split_point_yields_the_same_events() -> None:
    stream = b"".join(NativeConnection(Role.CLIENT).send_request(op, 0 if op is Op.CREDIT else i + 1, args)
                      for i, (op, args) in enumerate(REQUESTS))
    expected = NativeConnection(Role.SERVER)
    expected.receive_data(stream)
    want = expected.events()
    assert len(want) == len(REQUESTS)
    for cut in range(len(stream) + 1):
        server = NativeConnection(Role.SERVER)
        got = []
        for piece in (stream[:cut], stream[cut:]):
            server.receive_data(piece)
            got += server.events()
        assert got == want, cut


def test_byte_at_a_time() -> None:
    frame = NativeConnection(Role.SERVER).send_reply(1, 0, 0, [MD, {}, b"x" * 300, 300])
    client = NativeConnection(Role.CLIENT)
    for i, byte in enumerate(frame):
        assert client.next_event() is NEED_DATA
        client.receive_data(bytes([byte]))
        if i < len(frame) - 1:
            assert client.next_event() is NEED_DATA
    assert isinstance(client.next_event(), Reply)
    assert client.buffered == 0


def test_input_is_copied_from_a_reused_buffer() -> None:
    """The client reads into one buffer (``recv_into``) and hands the codec a view of it: the
    codec must copy, since the next read overwrites the buffer before a frame is complete."""
    frame = NativeConnection(Role.SERVER).send_reply(1, 0, 0, [MD, {}, b"x" * 300, 300])
    client = NativeConnection(Role.CLIENT)
    buffer = bytearray(64)
    view = memoryview(buffer)
    for start in range(0, len(frame), len(buffer)):
        chunk = frame[start:start + len(buffer)]
        buffer[:len(chunk)] = chunk
        client.receive_data(view[:len(chunk)])
        buffer[:] = bytes(len(buffer))  # the next read would overwrite it
    event = client.next_event()
    assert isinstance(event, Reply) and event.result[2] == b"x" * 300


def test_oversize_frame_is_rejected_from_the_prefix_alone() -> None:
    server = NativeConnection(Role.SERVER, max_frame=1000)
    server.receive_data((1001).to_bytes(4, "big"))
    with pytest.raises(ProtocolError) as e:
        server.next_event()
    assert e.value.reason == 2218 and e.value.fatal
    with pytest.raises(ProtocolError):  # the connection stays broken
        server.receive_data(b"more")
    assert server.buffered == 0


def test_frame_of_exactly_max_frame_is_accepted() -> None:
    frame = native.encode_put(1, 1, MD, 0, {}, b"x" * 2000)
    server = NativeConnection(Role.SERVER, max_frame=len(frame) - 4)
    server.receive_data(frame)
    assert isinstance(server.next_event(), Request)


def _raw(items: Any) -> bytes:
    payload = msgpack.packb(items, use_bin_type=True)
    return len(payload).to_bytes(4, "big") + payload


@pytest.mark.parametrize(("frame", "reason", "req_id"), [
    (b"\0\0\0\x01\xc1", 2195, None),                         # 0xc1 is never valid msgpack
    (b"\0\0\0\0", 2195, None),                               # empty frame
    (_raw({"op": 1}), 2195, None),                           # not an array
    (_raw([]), 2195, None),
    (_raw(["PUT", 1]), 2195, None),                          # op not an int
    (_raw([Op.PUT, "x"]), 2195, None),                       # req_id not an int
    (_raw([Op.PUT, -1, 1, MD, 0, {}, b""]), 2195, None),
    (_raw([63, 5]), 2298, 5),                                # unknown op
    (_raw([Op.REPLY, 5, 0, 0, None]), 2195, None),           # replies do not go to servers
    (_raw([Op.PUSH_MSG, 5, MD, {}, b""]), 2195, None),
    (_raw([Op.PUT, 5, 1, MD, 0, {}]), 2195, 5),              # missing body
    (_raw([Op.PUT, 5, 1, MD, 0, {}, "text"]), 2195, 5),      # body must be bin
    (_raw([Op.PUT, 5, 1, MD[:-1], 0, {}, b""]), 2195, 5),    # short MQMD
    (_raw([Op.PUT, 5, 1, [*MD[:9], b"short", *MD[10:]], 0, {}, b""]), 2195, 5),
    (_raw([Op.PUT, 5, 1, [*MD[:6], b"MQSTR", *MD[7:]], 0, {}, b""]), 2195, 5),
    (_raw([Op.PUT, 5, 1, MD, 0, {"p": [1]}, b""]), 2195, 5),  # nested property
    (_raw([Op.PUT, 5, 1, MD, 0, {1: 1}, b""]), 2195, 5),
    (_raw([Op.OPEN, 5, {"Bogus": 1}, 0]), 2195, 5),
    (_raw([Op.OPEN, 5, {"ObjectName": 1}, 0]), 2195, 5),
    (_raw([Op.GET, 5, 1, [bytes(24), bytes(24)], {"Options": "x"}, -1]), 2195, 5),
    (_raw([Op.GET, 0, 1, [bytes(24), bytes(24)], {}, -1]), 2195, 0),  # a GET must want its reply
    (_raw([Op.GET, 5, 1, MD, {}, -1]), 2195, 5),             # a whole MQMD: a GET sends its match ids
    (_raw([Op.GET, 5, 1, [bytes(24), bytes(23)], {}, -1]), 2195, 5),  # a CorrelId one byte short
    (_raw([Op.SET, 5, 1, {"9": 1}]), 2195, 5),
    (_raw([Op.INQ, 5, 1, [1, "a"]]), 2195, 5),
    (_raw([Op.CONNECT, 5, "QM1", 1, None, "app", 1, {}]), 2195, 5),
    (_raw([Op.CONNECT, 5, "QM1", None, None, "app", 1, {"ChannelName": 7}]), 2195, 5),
    (_raw([Op.CONNECT, 5, "QM1", None, None, "app", 1, {"Bogus": ""}]), 2195, 5),
    (_raw([Op.CONNECT, 5, "QM1", None, None, "app", 1]), 2195, 5),  # no channel map
    (_raw([Op.PING, 5, "extra"]), 2195, 5),
    (_raw([Op.PING, 5]) + b"\x00", None, None),              # trailing byte is only a partial prefix
])
def test_malformed_frames_are_rejected_and_the_stream_stays_usable(
        frame: bytes, reason: int | None, req_id: int | None) -> None:
    server = NativeConnection(Role.SERVER)
    server.receive_data(frame + _raw([Op.PING, 99]))
    if reason is None:
        assert server.next_event() == Request(Op.PING, 5, [])
        return
    with pytest.raises(ProtocolError) as e:
        server.next_event()
    assert (e.value.reason, e.value.req_id, e.value.fatal) == (reason, req_id, False)
    assert server.next_event() == Request(Op.PING, 99, [])


def test_extra_bytes_inside_a_frame_are_rejected() -> None:
    payload = msgpack.packb([Op.PING, 1]) + b"\x01"
    server = NativeConnection(Role.SERVER)
    server.receive_data(len(payload).to_bytes(4, "big") + payload)
    with pytest.raises(ProtocolError):
        server.next_event()


def test_client_rejects_requests_and_bad_pushes() -> None:
    client = NativeConnection(Role.CLIENT)
    client.receive_data(_raw([Op.PING, 1]))
    with pytest.raises(ProtocolError):
        client.next_event()
    client.receive_data(_raw([Op.PUSH_ERROR, 1]))
    with pytest.raises(ProtocolError):
        client.next_event()
    client.receive_data(_raw([Op.REPLY, "1", 0, 0, None]))
    with pytest.raises(ProtocolError):
        client.next_event()
    client.receive_data(_raw([120, 1]))
    with pytest.raises(ProtocolError) as e:
        client.next_event()
    assert e.value.reason == 2298


def test_send_checks_direction_and_shape() -> None:
    client, server = NativeConnection(Role.CLIENT), NativeConnection(Role.SERVER)
    with pytest.raises(ProtocolError):
        server.send_request(Op.PING, 1, [])
    with pytest.raises(ProtocolError):
        client.send_reply(1, 0, 0, None)
    with pytest.raises(ProtocolError):
        client.send_push(Op.PUSH_ERROR, [1, 2])
    with pytest.raises(ProtocolError):
        server.send_push(Op.PUT, [])
    with pytest.raises(ProtocolError):
        client.send_request(Op.PUT, 1, [1, MD, 0, {}])
    with pytest.raises(ProtocolError):
        client.send_request(Op.PUSH_MSG, 1, [])


def test_op_numbers_are_stable() -> None:
    # These numbers are the wire format: changing one breaks every deployed client.
    assert [int(op) for op in Op] == [0, *range(1, 23), 64, 65, 66, 67]  # 22 HEARTBEAT, 67 PUSH_HEARTBEAT: added


@settings(max_examples=400, deadline=None)
@given(st.binary(max_size=200), st.sampled_from([Role.CLIENT, Role.SERVER]))
def test_fuzz_arbitrary_bytes(data: bytes, role: Role) -> None:
    conn = NativeConnection(role, max_frame=150)
    conn.receive_data(data)
    for _ in range(len(data) + 1):
        try:
            event = conn.next_event()
        except ProtocolError as e:
            if e.fatal:
                return
            continue
        if event is NEED_DATA:
            return
        assert isinstance(event, Request | Reply | Push)


_leaf = st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.floats() | st.text(max_size=5) \
    | st.binary(max_size=30)
_keys = st.text(max_size=3) | st.integers(0, 9)
_values = st.recursive(
    _leaf, lambda inner: st.lists(inner, max_size=8) | st.dictionaries(_keys, inner, max_size=4),
    max_leaves=40)


@settings(max_examples=400, deadline=None)
@given(st.lists(_values, max_size=8), st.integers(0, 70), st.sampled_from([Role.CLIENT, Role.SERVER]))
def test_fuzz_well_framed_arrays(items: list[Any], op: int, role: Role) -> None:
    # Well-framed msgpack with a plausible op: only ProtocolError or a validated event.
    conn = NativeConnection(role)
    conn.receive_data(_raw([op, *items]))
    try:
        event = conn.next_event()
    except ProtocolError as e:
        assert not e.fatal
        assert conn.next_event() is NEED_DATA
        return
    if isinstance(event, Request):
        assert len(event.args) == len(native.REQUEST_SHAPES[event.op])


# -- shared conversations (SHARECNV) ---------------------------------------------------------------
def test_conversation_zero_frames_are_plain() -> None:
    frame = native.encode_request(native.Op.PING, 1, [])
    assert native.in_conversation(0, frame) is frame


def test_shared_frames_carry_their_conversation_number() -> None:
    two = native.encode_request(native.Op.PING, 1, []) + native.encode_request(native.Op.COMMIT, 2, [])
    shared = native.in_conversation(7, two)
    assert len(shared) == len(two) + 8  # each header grows by the 4-byte number
    assert int.from_bytes(shared[:4], "big") & native.CONVERSATION_FLAG
    codec = native.NativeConnection(native.Role.SERVER)
    codec.receive_data(shared + native.encode_request(native.Op.PING, 3, []))
    seen = []
    while (event := codec.next_event()) is not native.NEED_DATA:
        assert isinstance(event, native.Request)
        seen.append((codec.conversation, event.op, event.req_id))
    assert seen == [(7, native.Op.PING, 1), (7, native.Op.COMMIT, 2), (0, native.Op.PING, 3)]


def test_a_shared_header_split_across_reads_waits_for_the_rest() -> None:
    shared = native.in_conversation(3, native.encode_request(native.Op.PING, 1, []))
    codec = native.NativeConnection(native.Role.SERVER)
    codec.receive_data(shared[:6])
    assert codec.next_event() is native.NEED_DATA
    codec.receive_data(shared[6:])
    assert codec.next_event() == native.Request(native.Op.PING, 1, []) and codec.conversation == 3


@pytest.mark.parametrize("number", [0, 0x8000_0000])
def test_a_flagged_frame_must_name_a_conversation_above_zero(number: int) -> None:
    payload = native.encode_request(native.Op.PING, 1, [])[4:]
    frame = (native.CONVERSATION_FLAG | len(payload)).to_bytes(4, "big") + number.to_bytes(4, "big") + payload
    codec = native.NativeConnection(native.Role.SERVER)
    codec.receive_data(frame)
    with pytest.raises(native.ProtocolError) as error:
        codec.next_event()
    assert error.value.fatal and error.value.reason == native.MQRC_UNEXPECTED_ERROR
