"""The message channel protocol (``mqlite.protocol.channel``): a whole session driven through a
sender and a receiver passing bytes, every illegal transition both ways, framing split at every
byte, sequence numbers and their wrap, negotiation, oversize and malformed frames, broken
connections. No sockets, no sleeps."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgpack
import pytest

from mqlite import cmqc as C
from mqlite.protocol import native
from mqlite.protocol.channel import (
    DEFAULT_MAX_FRAME,
    HELLO_DEFAULTS,
    NEED_DATA,
    SEQUENCE_ERROR,
    TRANSITIONS,
    Accept,
    ChannelConnection,
    Close,
    Confirm,
    EndBatch,
    Event,
    Heartbeat,
    HeartbeatAck,
    Hello,
    Kind,
    LocalProtocolError,
    Msg,
    Ping,
    ProtocolError,
    Refuse,
    Role,
    State,
    Status,
    StatusReply,
    encode_frame,
    is_channel_start,
    negotiate,
    next_seq,
)

S, R = Role.SENDER, Role.RECEIVER
LUW1 = b"LUW-0001"
LUW2 = b"LUW-0002-ABCDEF"
LUW3 = b"LUW-0003"
PING_DATA = bytes(range(64))
HELLO_FIELDS: dict[str, Any] = {"channel": "QM1.TO.QM2", "type": "SDR", "qmgr": "QM1", "pipeline": 2}
HELLO = Hello(HELLO_FIELDS)
ACCEPT = Accept({"qmgr": "QM2", **(negotiate(HELLO_FIELDS, {"pipeline": 2}) or {})})
HANDSHAKE: list[tuple[Role, Event]] = [(S, HELLO), (R, ACCEPT), (S, Status(0, None)), (R, StatusReply(0, None))]


def msg(seq: int, persistent: bool = True) -> Msg:
    return Msg(seq, persistent, [1, "MQSTR   ", b"\x00" * 24], {"usr.colour": "blue"}, b"body %d" % seq)


# One way to reach each state (both ends agree on it).
PREFIX: dict[State, list[tuple[Role, Event]]] = {
    State.HELLO: [],
    State.ACCEPTING: HANDSHAKE[:1],
    State.STATUS: HANDSHAKE[:2],
    State.STATUS_REPLY: HANDSHAKE[:3],
    State.RUNNING: HANDSHAKE,
    State.IN_BATCH: [*HANDSHAKE, (S, msg(1))],
    State.CONFIRMING: [*HANDSHAKE, (S, msg(1)), (S, EndBatch(1, LUW1))],
    State.IN_BATCH_CONFIRMING: [*HANDSHAKE, (S, msg(1)), (S, EndBatch(1, LUW1)), (S, msg(2))],
    State.CONFIRMING_TWO: [*HANDSHAKE, (S, msg(1)), (S, EndBatch(1, LUW1)), (S, msg(2)), (S, EndBatch(2, LUW2))],
    State.HEARTBEAT_ACK: [*HANDSHAKE, (S, Heartbeat())],
    State.PINGING: [*HANDSHAKE[:2], (S, Ping(PING_DATA))],
    State.CLOSED: [(S, Close(0, "bye"))],
}

# A well-formed frame of each kind (legal somewhere; the illegal-transition tests send it everywhere else).
SAMPLES: dict[Kind, Event] = {
    Kind.HELLO: HELLO,
    Kind.ACCEPT: ACCEPT,
    Kind.REFUSE: Refuse(C.MQRC_UNEXPECTED_ERROR, "no"),
    Kind.STATUS: Status(0, None),
    Kind.STATUS_REPLY: StatusReply(0, None),
    Kind.MSG: msg(1),
    Kind.END_BATCH: EndBatch(1, LUW1),
    Kind.CONFIRM: Confirm(1, LUW1),
    Kind.HEARTBEAT: Heartbeat(),
    Kind.HEARTBEAT_ACK: HeartbeatAck(),
    Kind.CLOSE: Close(0, "bye"),
    Kind.PING: Ping(PING_DATA),
}


def other(role: Role) -> Role:
    return R if role is S else S


def normalized(event: Event) -> Event:
    """What the peer decodes: a HELLO comes out with its defaults filled in."""
    return Hello({**HELLO_DEFAULTS, **event.fields}) if isinstance(event, Hello) else event


def transfer(conns: dict[Role, ChannelConnection], by: Role, event: Event) -> Event:
    """``by`` sends ``event``; the other end decodes exactly it, and both ends agree on the state."""
    src, dst = conns[by], conns[other(by)]
    dst.receive_data(src.send(event))
    got = dst.next_event()
    assert got == normalized(event)
    assert dst.next_event() is NEED_DATA
    assert src.state is dst.state
    return got


def connections(steps: Sequence[tuple[Role, Event]] = ()) -> dict[Role, ChannelConnection]:
    conns = {S: ChannelConnection(S), R: ChannelConnection(R)}
    for by, event in steps:
        transfer(conns, by, event)
    return conns


def running(hello: dict[str, Any] | None = None, local: dict[str, Any] | None = None) -> dict[Role, ChannelConnection]:
    """Two ends in RUNNING after a handshake with these HELLO fields and receiver attributes."""
    fields = {**HELLO_FIELDS, **(hello or {})}
    negotiated = negotiate(fields, local or {})
    assert negotiated is not None
    return connections([(S, Hello(fields)), (R, Accept({"qmgr": "QM2", **negotiated})),
                        (S, Status(0, None)), (R, StatusReply(0, None))])


def frame(items: Any) -> bytes:
    payload = msgpack.packb(items, use_bin_type=True)
    return len(payload).to_bytes(4, "big") + payload


# ---------------------------------------------------------------------------
# The session and the state table.


def test_transition_table_is_the_specified_one() -> None:
    legal = {
        (S, State.HELLO, Kind.HELLO): State.ACCEPTING,
        (R, State.ACCEPTING, Kind.ACCEPT): State.STATUS,
        (R, State.ACCEPTING, Kind.REFUSE): State.CLOSED,
        (S, State.STATUS, Kind.STATUS): State.STATUS_REPLY,
        (R, State.STATUS_REPLY, Kind.STATUS_REPLY): State.RUNNING,
        (S, State.RUNNING, Kind.MSG): State.IN_BATCH,
        (S, State.IN_BATCH, Kind.MSG): State.IN_BATCH,
        (S, State.IN_BATCH, Kind.END_BATCH): State.CONFIRMING,
        (R, State.CONFIRMING, Kind.CONFIRM): State.RUNNING,
        (S, State.CONFIRMING, Kind.MSG): State.IN_BATCH_CONFIRMING,
        (S, State.IN_BATCH_CONFIRMING, Kind.MSG): State.IN_BATCH_CONFIRMING,
        (S, State.IN_BATCH_CONFIRMING, Kind.END_BATCH): State.CONFIRMING_TWO,
        (R, State.IN_BATCH_CONFIRMING, Kind.CONFIRM): State.IN_BATCH,
        (R, State.CONFIRMING_TWO, Kind.CONFIRM): State.CONFIRMING,
        (S, State.RUNNING, Kind.HEARTBEAT): State.HEARTBEAT_ACK,
        (R, State.HEARTBEAT_ACK, Kind.HEARTBEAT_ACK): State.RUNNING,
        (S, State.STATUS, Kind.PING): State.PINGING,
        (R, State.PINGING, Kind.PING): State.STATUS,
    }
    legal.update({(role, state, Kind.CLOSE): State.CLOSED for role in Role for state in State
                  if state is not State.CLOSED})
    assert dict(TRANSITIONS) == legal


SESSION: list[tuple[Role, Event, State]] = [
    (S, HELLO, State.ACCEPTING),
    (R, ACCEPT, State.STATUS),
    (S, Status(0, None), State.STATUS_REPLY),
    (R, StatusReply(0, None), State.RUNNING),
    (S, Heartbeat(), State.HEARTBEAT_ACK),
    (R, HeartbeatAck(), State.RUNNING),
    (S, msg(1), State.IN_BATCH),
    (S, msg(2, persistent=False), State.IN_BATCH),
    (S, msg(3), State.IN_BATCH),
    (S, EndBatch(3, LUW1), State.CONFIRMING),
    (R, Confirm(3, LUW1), State.RUNNING),
    (S, Heartbeat(), State.HEARTBEAT_ACK),
    (R, HeartbeatAck(), State.RUNNING),
    (S, msg(4), State.IN_BATCH),
    (S, EndBatch(4, LUW2), State.CONFIRMING),
    (R, Confirm(4, LUW2), State.RUNNING),
    (S, Close(0, "channel stopped"), State.CLOSED),
]


def test_whole_session_passes_every_frame_unchanged_and_keeps_both_ends_in_step() -> None:
    """B:R-CHN-4: each batch's messages arrive in order, and a batch ends only when confirmed."""
    conns = connections()
    received = []
    for by, event, state in SESSION:
        received.append(transfer(conns, by, event))
        assert conns[S].state is conns[R].state is state
    assert [e.seq for e in received if isinstance(e, Msg)] == [1, 2, 3, 4]
    assert conns[S].hello == conns[R].hello == {**HELLO_DEFAULTS, **HELLO_FIELDS}
    assert conns[S].negotiated == conns[R].negotiated == ACCEPT.fields


@pytest.mark.parametrize(("status", "reply"), [
    (Status(0, None), StatusReply(0, None)),
    (Status(41, None), StatusReply(41, LUW1)),
    (Status(41, {"luwid": LUW2, "seq": 50}), StatusReply(50, LUW2)),  # the in-doubt batch was committed
    (Status(41, {"luwid": LUW2, "seq": 50}), StatusReply(41, LUW1)),  # ... or was not
], ids=["fresh", "in-step", "indoubt-committed", "indoubt-not-committed"])
def test_status_exchange_with_and_without_an_indoubt_batch(status: Status, reply: StatusReply) -> None:
    conns = connections(PREFIX[State.STATUS])
    transfer(conns, S, status)
    transfer(conns, R, reply)
    assert conns[S].state is State.RUNNING


def test_status_without_indoubt_key_means_none() -> None:
    conns = connections(PREFIX[State.STATUS])
    conns[R].receive_data(frame([int(Kind.STATUS), {"seq": 3}]))
    assert conns[R].next_event() == Status(3, None)


def test_unknown_hello_keys_are_dropped_and_missing_optional_ones_get_defaults() -> None:
    receiver = ChannelConnection(R)
    receiver.receive_data(frame([int(Kind.HELLO), {**HELLO_FIELDS, "hbint": 60, "future": [1]}]))
    assert receiver.next_event() == Hello({**HELLO_DEFAULTS, **HELLO_FIELDS, "hbint": 60})


def test_receiver_refuses_a_hello_whose_seqwrap_differs() -> None:
    conns = connections(PREFIX[State.ACCEPTING])
    assert negotiate(conns[R].hello or {}, {"seqwrap": 1000}) is None
    got = transfer(conns, R, Refuse(C.MQRC_UNEXPECTED_ERROR, "sequence wrap values differ"))
    assert got == Refuse(C.MQRC_UNEXPECTED_ERROR, "sequence wrap values differ")
    assert conns[S].state is conns[R].state is State.CLOSED


@pytest.mark.parametrize("state", [s for s in State if s is not State.CLOSED])
@pytest.mark.parametrize("by", list(Role))
def test_either_end_may_close_in_any_state_before_closed(state: State, by: Role) -> None:
    conns = connections(PREFIX[state])
    transfer(conns, by, Close(C.MQRC_UNEXPECTED_ERROR, "error end"))
    assert conns[S].state is conns[R].state is State.CLOSED


# The conversation's frames (REQUEST comes before a conversation, outside this table).
CONVERSATION_KINDS = [kind for kind in Kind if kind is not Kind.REQUEST]
ILLEGAL = [(by, state, kind) for by in Role for state in State for kind in CONVERSATION_KINDS
           if (by, state, kind) not in TRANSITIONS]


def _illegal_id(case: tuple[Role, State, Kind]) -> str:
    return f"{case[0].name}-{case[1].name}-{case[2].name}"


@pytest.mark.parametrize("case", ILLEGAL, ids=_illegal_id)
def test_sending_an_illegal_frame_raises_local_error_and_changes_nothing(case: tuple[Role, State, Kind]) -> None:
    by, state, kind = case
    conns = connections(PREFIX[state])
    with pytest.raises(LocalProtocolError) as e:
        conns[by].send(SAMPLES[kind])
    assert (e.value.reason, e.value.fatal) == (C.MQRC_UNEXPECTED_ERROR, False)
    assert e.value.text == f"unexpected {kind.name} from the {by.value} in state {state.name}"
    assert conns[by].state is state
    if state is State.RUNNING:  # still usable
        transfer(conns, S, msg(1))


@pytest.mark.parametrize("case", ILLEGAL, ids=_illegal_id)
def test_receiving_an_illegal_frame_is_fatal(case: tuple[Role, State, Kind]) -> None:
    by, state, kind = case
    receiver = connections(PREFIX[state])[other(by)]
    receiver.receive_data(encode_frame(SAMPLES[kind].as_list()))
    with pytest.raises(ProtocolError) as e:
        receiver.next_event()
    assert (e.value.reason, e.value.fatal) == (C.MQRC_UNEXPECTED_ERROR, True)
    assert e.value.text.startswith(f"unexpected {kind.name} from the {by.value}")


# ---------------------------------------------------------------------------
# Framing.


@pytest.mark.parametrize("kind", CONVERSATION_KINDS, ids=lambda k: k.name)
def test_every_frame_decodes_when_split_at_every_byte(kind: Kind) -> None:
    by, state = next((by, state) for (by, state, k) in TRANSITIONS if k is kind and state in PREFIX)
    event = SAMPLES[kind]
    data = encode_frame(event.as_list())
    for cut in range(len(data)):
        receiver = connections(PREFIX[state])[other(by)]
        receiver.receive_data(data[:cut])
        assert receiver.next_event() is NEED_DATA
        receiver.receive_data(data[cut:])
        assert receiver.next_event() == normalized(event)
        assert receiver.buffered == 0


def test_a_stream_of_frames_split_at_every_byte_decodes_in_order() -> None:
    """B:R-CHN-4: the receiver sees the batch's messages in the order they were sent."""
    batch: list[Event] = [msg(1), msg(2, persistent=False), msg(3), EndBatch(3, LUW1)]
    sender = connections(HANDSHAKE)[S]
    data = b"".join(sender.send(e) for e in batch)
    for cut in [*range(len(data)), -1]:
        receiver = connections(HANDSHAKE)[R]
        got: list[Any] = []
        chunks = [data[i:i + 1] for i in range(len(data))] if cut == -1 else [data[:cut], data[cut:]]
        for chunk in chunks:  # -1: one byte at a time
            receiver.receive_data(chunk)
            while (event := receiver.next_event()) is not NEED_DATA:
                got.append(event)
        assert got == batch
        assert receiver.state is State.CONFIRMING


def test_is_channel_start_tells_a_hello_from_a_native_connect() -> None:
    hello = ChannelConnection(S).send(HELLO)
    connect = native.encode_request(native.Op.CONNECT, 1, ["QM2", None, None, "app", 1234, {}])
    assert is_channel_start(hello)
    assert is_channel_start(hello[:6])
    assert not is_channel_start(connect)
    assert not is_channel_start(frame([int(Kind.STATUS), {"seq": 0}]))
    assert not is_channel_start(b"\x00\x00\x00\x02\xcc\x64")  # a lone uint8 100, not an array
    for short in range(6):
        assert not is_channel_start(hello[:short])


def test_oversize_prefix_is_fatal_2218_as_soon_as_four_bytes_are_seen() -> None:
    receiver = ChannelConnection(R, max_frame=100)
    prefix = (101).to_bytes(4, "big")
    receiver.receive_data(prefix[:3])
    assert receiver.next_event() is NEED_DATA
    receiver.receive_data(prefix[3:])
    with pytest.raises(ProtocolError) as e:
        receiver.next_event()
    assert (e.value.reason, e.value.fatal) == (C.MQRC_MSG_TOO_BIG_FOR_CHANNEL, True)
    assert receiver.state is State.CLOSED


def test_default_frame_limit_is_100mb_plus_64k() -> None:
    assert DEFAULT_MAX_FRAME == 104_857_600 + 65536
    at_limit, above = ChannelConnection(R), ChannelConnection(R)
    at_limit.receive_data(DEFAULT_MAX_FRAME.to_bytes(4, "big"))
    assert at_limit.next_event() is NEED_DATA
    above.receive_data((DEFAULT_MAX_FRAME + 1).to_bytes(4, "big"))
    with pytest.raises(ProtocolError, match="exceeds"):
        above.next_event()


def test_sending_a_frame_above_max_frame_raises_2218_and_changes_nothing() -> None:
    small = ChannelConnection(S, max_frame=200)
    for by, event in HANDSHAKE:
        if by is S:
            small.send(event)
        else:
            small.receive_data(encode_frame(event.as_list()))
            small.next_event()
    with pytest.raises(LocalProtocolError) as e:
        small.send(Msg(1, True, [], {}, b"x" * 300))
    assert (e.value.reason, e.value.fatal) == (C.MQRC_MSG_TOO_BIG_FOR_CHANNEL, False)
    assert small.state is State.RUNNING
    small.send(msg(1))  # still usable


# ---------------------------------------------------------------------------
# Sequence numbers and batches.


@pytest.mark.parametrize(("seq", "seqwrap", "after"), [
    (0, 100, 1), (1, 100, 2), (99, 100, 100), (100, 100, 1), (999_999_998, 999_999_999, 999_999_999),
    (999_999_999, 999_999_999, 1),
])
def test_next_seq_wraps_to_1_after_seqwrap(seq: int, seqwrap: int, after: int) -> None:
    assert next_seq(seq, seqwrap) == after


def test_sequence_wraps_after_seqwrap_within_a_batch() -> None:
    """B:R-CHN-4: numbering continues across the wrap, nothing skipped: 99, 100, 1."""
    conns = running({"seqwrap": 100}, {"seqwrap": 100})
    batch: list[Event] = [msg(99), msg(100), msg(1), EndBatch(1, LUW1)]
    for event in batch:
        transfer(conns, S, event)
    transfer(conns, R, Confirm(1, LUW1))
    assert conns[R].state is State.RUNNING


def test_first_msg_of_a_batch_may_have_any_seq() -> None:
    conns = running()
    transfer(conns, S, msg(12345))
    transfer(conns, S, msg(12346))


@pytest.mark.parametrize(("seqs", "end"), [
    ([5, 7], None),  # a gap: a message would be lost
    ([5, 5], None),  # a repeat: a message would be duplicated
    ([5, 4], None),  # out of order
    ([5, 6], 5),  # END_BATCH that is not the last MSG
    ([5], 6),
], ids=["gap", "repeat", "backwards", "end-before-last", "end-after-last"])
def test_sequence_errors_are_amq9526e(seqs: list[int], end: int | None) -> None:
    """B:R-CHN-4: no message lost or duplicated and order kept, so any break in the numbering is fatal."""
    events: list[Event] = [msg(s) for s in seqs]
    if end is not None:
        events.append(EndBatch(end, LUW1))
    *good, bad = events
    conns = running()
    for event in good:
        transfer(conns, S, event)
    with pytest.raises(LocalProtocolError) as local:
        conns[S].send(bad)
    assert local.value.text.startswith(SEQUENCE_ERROR)
    assert conns[S].state is State.IN_BATCH  # nothing changed: the right frame still goes
    conns[R].receive_data(encode_frame(bad.as_list()))
    with pytest.raises(ProtocolError) as e:
        conns[R].next_event()
    assert (e.value.reason, e.value.fatal) == (C.MQRC_UNEXPECTED_ERROR, True)
    assert e.value.text.startswith(SEQUENCE_ERROR)


def test_msg_seq_above_seqwrap_is_amq9526e() -> None:
    conns = running({"seqwrap": 100}, {"seqwrap": 100})
    conns[R].receive_data(encode_frame(msg(101).as_list()))
    with pytest.raises(ProtocolError, match=r"^AMQ9526E"):
        conns[R].next_event()


def test_batch_longer_than_negotiated_batchsz_is_refused() -> None:
    conns = running({"batchsz": 10}, {"batchsz": 2})
    transfer(conns, S, msg(1))
    transfer(conns, S, msg(2))
    with pytest.raises(LocalProtocolError, match="BATCHSZ 2"):
        conns[S].send(msg(3))
    conns[R].receive_data(encode_frame(msg(3).as_list()))
    with pytest.raises(ProtocolError, match="BATCHSZ 2"):
        conns[R].next_event()


@pytest.mark.parametrize("confirm", [Confirm(2, LUW1), Confirm(1, LUW2)], ids=["seq", "luwid"])
def test_confirm_must_name_the_open_batch(confirm: Confirm) -> None:
    conns = connections(PREFIX[State.CONFIRMING])  # END_BATCH(1, LUW1)
    with pytest.raises(LocalProtocolError, match="does not match"):
        conns[R].send(confirm)
    conns[S].receive_data(encode_frame(confirm.as_list()))
    with pytest.raises(ProtocolError, match="does not match"):
        conns[S].next_event()


PIPELINED: list[tuple[Role, Event, State]] = [
    (S, msg(1), State.IN_BATCH),
    (S, EndBatch(1, LUW1), State.CONFIRMING),
    (S, msg(2), State.IN_BATCH_CONFIRMING),  # the next batch before the last one's CONFIRM
    (R, Confirm(1, LUW1), State.IN_BATCH),
    (S, msg(3), State.IN_BATCH),
    (S, EndBatch(3, LUW2), State.CONFIRMING),
    (S, msg(4), State.IN_BATCH_CONFIRMING),
    (S, EndBatch(4, LUW3), State.CONFIRMING_TWO),  # two batches await CONFIRM: no third
    (R, Confirm(3, LUW2), State.CONFIRMING),
    (R, Confirm(4, LUW3), State.RUNNING),
]


def test_with_pipeline_2_the_next_batch_goes_before_the_last_ones_confirm() -> None:
    """Two batches may await CONFIRM (IBM's PipeLineLength=2); they are confirmed in order."""
    conns = connections(HANDSHAKE)
    assert conns[S].pipeline == conns[R].pipeline == 2
    for by, event, state in PIPELINED:
        transfer(conns, by, event)
        assert conns[S].state is conns[R].state is state


def test_with_pipeline_1_a_msg_before_the_confirm_is_refused() -> None:
    conns = running({}, {"pipeline": 1})  # the receiver allows one batch at a time
    assert conns[S].pipeline == 1
    transfer(conns, S, msg(1))
    transfer(conns, S, EndBatch(1, LUW1))
    with pytest.raises(LocalProtocolError, match="PIPELINE 1"):
        conns[S].send(msg(2))
    conns[R].receive_data(encode_frame(msg(2).as_list()))
    with pytest.raises(ProtocolError, match="PIPELINE 1") as e:
        conns[R].next_event()
    assert e.value.fatal


def test_a_batch_sent_before_the_last_ones_confirm_continues_its_numbers() -> None:
    conns = connections(PREFIX[State.CONFIRMING])  # batch 1 ended, awaiting CONFIRM
    conns[R].receive_data(encode_frame(msg(5).as_list()))
    with pytest.raises(ProtocolError, match=r"^AMQ9526E.*expected 2"):
        conns[R].next_event()


def test_confirms_come_in_the_order_of_the_batches() -> None:
    conns = connections(PREFIX[State.CONFIRMING_TWO])  # END_BATCH(1, LUW1) then END_BATCH(2, LUW2)
    with pytest.raises(LocalProtocolError, match="does not match the oldest"):
        conns[R].send(Confirm(2, LUW2))
    conns[S].receive_data(encode_frame(Confirm(2, LUW2).as_list()))
    with pytest.raises(ProtocolError, match="does not match the oldest"):
        conns[S].next_event()


def test_ping_channel_is_hello_accept_and_the_data_echoed() -> None:
    """PING CHANNEL: no STATUS, no sequence number; the receiver sends the data back, then the
    sender closes."""
    conns = connections(HANDSHAKE[:2])
    transfer(conns, S, Ping(PING_DATA))
    assert conns[S].state is State.PINGING
    transfer(conns, R, Ping(PING_DATA))
    transfer(conns, S, Close(0, "ping complete"))
    assert conns[S].state is conns[R].state is State.CLOSED


@pytest.mark.parametrize("size", [15, 32769])
def test_ping_data_is_16_to_32768_bytes(size: int) -> None:
    conns = connections(HANDSHAKE[:2])
    with pytest.raises(LocalProtocolError, match="malformed PING"):
        conns[S].send(Ping(b"x" * size))
    conns[R].receive_data(frame([int(Kind.PING), b"x" * size]))
    with pytest.raises(ProtocolError, match="malformed PING"):
        conns[R].next_event()


# ---------------------------------------------------------------------------
# Negotiation.


@pytest.mark.parametrize(("offer", "local", "expected"), [
    ({}, {}, {"batchsz": 50, "maxmsgl": 4_194_304, "hbint": 300, "npmspeed": "FAST", "seqwrap": 999_999_999,
              "pipeline": 1}),
    ({"pipeline": 2}, {"pipeline": 2}, {"pipeline": 2}),
    ({"pipeline": 2}, {}, {"pipeline": 1}),  # a receiver that does not pipeline (or predates it)
    ({"pipeline": 1}, {"pipeline": 2}, {"pipeline": 1}),
    ({"batchsz": 50}, {"batchsz": 10}, {"batchsz": 10}),
    ({"batchsz": 10}, {"batchsz": 50}, {"batchsz": 10}),
    ({"maxmsgl": 1000}, {"maxmsgl": 2000}, {"maxmsgl": 1000}),
    ({"maxmsgl": 1000}, {"maxmsgl": 0}, {"maxmsgl": 1000}),
    ({"maxmsgl": 0}, {"maxmsgl": 2000}, {"maxmsgl": 2000}),
    ({"maxmsgl": 0}, {"maxmsgl": 0}, {"maxmsgl": 0}),
    ({"hbint": 300}, {"hbint": 60}, {"hbint": 300}),
    ({"hbint": 0}, {"hbint": 60}, {"hbint": 60}),
    ({"npmspeed": "FAST"}, {"npmspeed": "NORMAL"}, {"npmspeed": "NORMAL"}),
    ({"npmspeed": "NORMAL"}, {"npmspeed": "FAST"}, {"npmspeed": "NORMAL"}),
    ({"seqwrap": 1000}, {"seqwrap": 1000}, {"seqwrap": 1000}),
])
def test_negotiate_takes_lower_batchsz_and_maxmsgl_higher_hbint_and_fast_only_if_both(
        offer: dict[str, Any], local: dict[str, Any], expected: dict[str, Any]) -> None:
    result = negotiate({**HELLO_FIELDS, **offer}, local)
    assert result is not None
    assert result.items() >= expected.items()
    conns = running(offer, local)  # both ends take what negotiate computes
    assert conns[S].negotiated == {"qmgr": "QM2", **result}


@pytest.mark.parametrize(("offer", "local"), [({"seqwrap": 1000}, {}), ({}, {"seqwrap": 100})])
def test_negotiate_returns_none_when_seqwrap_differs(offer: dict[str, Any], local: dict[str, Any]) -> None:
    assert negotiate({**HELLO_FIELDS, **offer}, local) is None


@pytest.mark.parametrize(("change", "problem"), [
    ({"seqwrap": 1000}, "seqwrap differs"),
    ({"batchsz": 51}, "batchsz above the offer"),
    ({"maxmsgl": 4_194_305}, "maxmsgl above the offer"),
    ({"hbint": 299}, "hbint below the offer"),
])
def test_accept_that_breaks_the_negotiation_rules_is_refused(change: dict[str, Any], problem: str) -> None:
    bad = Accept({**ACCEPT.fields, **change})
    conns = connections(PREFIX[State.ACCEPTING])
    with pytest.raises(LocalProtocolError, match=problem):
        conns[R].send(bad)
    conns[S].receive_data(encode_frame(bad.as_list()))
    with pytest.raises(ProtocolError, match=problem) as e:
        conns[S].next_event()
    assert e.value.fatal


def test_accept_of_pipeline_2_when_1_was_offered_is_refused() -> None:
    conns = connections([(S, Hello({**HELLO_FIELDS, "pipeline": 1}))])
    with pytest.raises(LocalProtocolError, match="pipeline above the offer"):
        conns[R].send(ACCEPT)


def test_an_accept_without_pipeline_means_one_batch_at_a_time() -> None:
    conns = connections(PREFIX[State.ACCEPTING])
    fields = {k: v for k, v in ACCEPT.fields.items() if k != "pipeline"}
    conns[S].receive_data(frame([int(Kind.ACCEPT), fields]))
    assert isinstance(conns[S].next_event(), Accept)
    assert conns[S].pipeline == 1


def test_accept_of_fast_when_normal_was_offered_is_refused() -> None:
    conns = connections([(S, Hello({**HELLO_FIELDS, "npmspeed": "NORMAL"}))])
    with pytest.raises(LocalProtocolError, match="npmspeed FAST not offered"):
        conns[R].send(ACCEPT)


# ---------------------------------------------------------------------------
# Malformed frames and broken connections.

GOOD_MSG = [int(Kind.MSG), 1, True, [], {}, b"x"]
INDOUBT = {"luwid": LUW1, "seq": 2}
MALFORMED: list[tuple[str, State, Role, bytes]] = [
    # (name, state, receiving end, the frame)
    ("not-msgpack", State.HELLO, R, b"\x00\x00\x00\x01\xc1"),
    ("empty-payload", State.HELLO, R, b"\x00\x00\x00\x00"),
    ("trailing-bytes", State.RUNNING, R, b"\x00\x00\x00\x03\x91\x6c\x00"),
    ("not-an-array", State.HELLO, R, frame({"kind": 100})),
    ("empty-array", State.HELLO, R, frame([])),
    ("kind-not-int", State.HELLO, R, frame(["HELLO", HELLO_FIELDS])),
    ("unknown-kind", State.HELLO, R, frame([111])),
    ("native-kind", State.HELLO, R, frame([1, 1, "QM1"])),
    ("hello-extra-item", State.HELLO, R, frame([100, HELLO_FIELDS, 1])),
    ("hello-fields-not-map", State.HELLO, R, frame([100, ["QM1.TO.QM2"]])),
    ("hello-int-key", State.HELLO, R, frame([100, {**HELLO_FIELDS, 1: 2}])),
    ("hello-no-channel", State.HELLO, R, frame([100, {"type": "SDR", "qmgr": "QM1"}])),
    ("hello-bytes-channel", State.HELLO, R, frame([100, {**HELLO_FIELDS, "channel": b"QM1.TO.QM2"}])),
    ("hello-long-channel", State.HELLO, R, frame([100, {**HELLO_FIELDS, "channel": "C" * 21}])),
    ("hello-empty-qmgr", State.HELLO, R, frame([100, {**HELLO_FIELDS, "qmgr": ""}])),
    ("hello-long-qmgr", State.HELLO, R, frame([100, {**HELLO_FIELDS, "qmgr": "Q" * 49}])),
    ("hello-bad-type", State.HELLO, R, frame([100, {**HELLO_FIELDS, "type": "SVRCONN"}])),
    ("hello-batchsz-0", State.HELLO, R, frame([100, {**HELLO_FIELDS, "batchsz": 0}])),
    ("hello-batchsz-bool", State.HELLO, R, frame([100, {**HELLO_FIELDS, "batchsz": True}])),
    ("hello-batchsz-str", State.HELLO, R, frame([100, {**HELLO_FIELDS, "batchsz": "50"}])),
    ("hello-maxmsgl-negative", State.HELLO, R, frame([100, {**HELLO_FIELDS, "maxmsgl": -1}])),
    ("hello-hbint-too-big", State.HELLO, R, frame([100, {**HELLO_FIELDS, "hbint": 1_000_000}])),
    ("hello-npmspeed", State.HELLO, R, frame([100, {**HELLO_FIELDS, "npmspeed": "SLOW"}])),
    ("hello-seqwrap-99", State.HELLO, R, frame([100, {**HELLO_FIELDS, "seqwrap": 99}])),
    ("hello-version-0", State.HELLO, R, frame([100, {**HELLO_FIELDS, "version": 0}])),
    ("accept-missing-hbint", State.ACCEPTING, S,
     frame([101, {k: v for k, v in ACCEPT.fields.items() if k != "hbint"}])),
    ("refuse-no-text", State.ACCEPTING, S, frame([102, 2195])),
    ("refuse-bytes-text", State.ACCEPTING, S, frame([102, 2195, b"no"])),
    ("status-seq-negative", State.STATUS, R, frame([103, {"seq": -1, "indoubt": None}])),
    ("status-indoubt-extra-key", State.STATUS, R, frame([103, {"seq": 1, "indoubt": {**INDOUBT, "x": 0}}])),
    ("status-indoubt-luwid-7", State.STATUS, R, frame([103, {"seq": 1, "indoubt": {**INDOUBT, "luwid": b"L" * 7}}])),
    ("status-indoubt-seq-0", State.STATUS, R, frame([103, {"seq": 1, "indoubt": {**INDOUBT, "seq": 0}}])),
    ("status-reply-str-luwid", State.STATUS_REPLY, S, frame([104, {"seq": 0, "luwid": "LUW-0001"}])),
    ("status-reply-long-luwid", State.STATUS_REPLY, S, frame([104, {"seq": 0, "luwid": b"L" * 17}])),
    ("msg-too-few", State.RUNNING, R, frame(GOOD_MSG[:-1])),
    ("msg-seq-0", State.RUNNING, R, frame([105, 0, *GOOD_MSG[2:]])),
    ("msg-seq-str", State.RUNNING, R, frame([105, "1", *GOOD_MSG[2:]])),
    ("msg-persistent-int", State.RUNNING, R, frame([105, 1, 1, [], {}, b"x"])),
    ("msg-md-map", State.RUNNING, R, frame([105, 1, True, {}, {}, b"x"])),
    ("msg-props-int-key", State.RUNNING, R, frame([105, 1, True, [], {1: "x"}, b"x"])),
    ("msg-body-str", State.RUNNING, R, frame([105, 1, True, [], {}, "x"])),
    ("end-batch-short-luwid", State.IN_BATCH, R, frame([106, 1, b"1234567"])),
    ("confirm-no-luwid", State.CONFIRMING, S, frame([107, 1])),
    ("heartbeat-extra-item", State.RUNNING, R, frame([108, 0])),
    ("heartbeat-ack-extra-item", State.HEARTBEAT_ACK, S, frame([109, 0])),
    ("close-reason-str", State.RUNNING, S, frame([110, "0", "bye"])),
]


@pytest.mark.parametrize(("state", "receiver", "data"), [c[1:] for c in MALFORMED], ids=[c[0] for c in MALFORMED])
def test_malformed_frames_are_fatal_2195(state: State, receiver: Role, data: bytes) -> None:
    conn = connections(PREFIX[state])[receiver]
    conn.receive_data(data)
    with pytest.raises(ProtocolError) as e:
        conn.next_event()
    assert (e.value.reason, e.value.fatal) == (C.MQRC_UNEXPECTED_ERROR, True)
    assert e.value.text.startswith("malformed")
    assert conn.state is State.CLOSED


@pytest.mark.parametrize("event", [
    Hello({"type": "SDR", "qmgr": "QM1"}),
    Hello({**HELLO_FIELDS, "batchsz": 10_000}),
    Msg(1, True, [{1, 2}], {}, b"x"),  # a set cannot be encoded
    Msg(1, True, [], {"n": 2**64}, b"x"),  # nor an int above 64 bits
], ids=["hello-no-channel", "hello-batchsz", "msg-set", "msg-huge-int"])
def test_sending_a_malformed_event_raises_local_error_and_changes_nothing(event: Event) -> None:
    conns = connections(HANDSHAKE if isinstance(event, Msg) else [])
    state = conns[S].state
    with pytest.raises(LocalProtocolError) as e:
        conns[S].send(event)
    assert (e.value.reason, e.value.fatal) == (C.MQRC_UNEXPECTED_ERROR, False)
    assert conns[S].state is state
    transfer(conns, S, msg(1) if isinstance(event, Msg) else HELLO)


def test_a_msg_with_a_str_body_is_refused_and_changes_nothing() -> None:
    """Compiled (mypyc checks the annotations) the Msg cannot be made; pure Python, sending it
    raises the local error."""
    conns = connections(HANDSHAKE)
    state = conns[S].state
    with pytest.raises((TypeError, LocalProtocolError)) as e:
        conns[S].send(Msg(1, True, [], {}, "text"))  # type: ignore[arg-type]
    if isinstance(e.value, LocalProtocolError):
        assert (e.value.reason, e.value.fatal) == (C.MQRC_UNEXPECTED_ERROR, False)
    assert conns[S].state is state
    transfer(conns, S, msg(1))


@pytest.mark.parametrize("data", [
    frame([111]),
    (DEFAULT_MAX_FRAME + 1).to_bytes(4, "big"),
    encode_frame(msg(1).as_list()) + encode_frame(msg(3).as_list()),
], ids=["malformed", "oversize", "sequence"])
def test_after_a_fatal_error_every_call_raises_the_same_error(data: bytes) -> None:
    conns = running()
    conn = conns[R]
    conn.receive_data(data)
    with pytest.raises(ProtocolError) as first:
        while conn.next_event() is not NEED_DATA:
            pass
    error = first.value
    assert error.fatal and conn.error is error and conn.state is State.CLOSED
    for call in (conn.next_event, lambda: conn.receive_data(b"more"), lambda: conn.send(Close(0, "bye"))):
        with pytest.raises(ProtocolError) as again:
            call()
        assert again.value is error


def test_a_requesters_request_frame() -> None:
    """RQSTR to SVR: the REQUEST frame comes before the conversation and opens the connection."""
    from mqlite.protocol.channel import decode_request, encode_request

    data = encode_request("QM1.SVR", "QM2")
    assert is_channel_start(data)
    assert decode_request(data[:3]) is None and decode_request(data[:-1]) is None
    assert decode_request(data + b"rest") == ({"channel": "QM1.SVR", "qmgr": "QM2"}, len(data))
    for bad in (encode_frame([111, {"channel": 5, "qmgr": "QM2"}]), encode_frame([111]),
                (10_000).to_bytes(4, "big") + b"x"):
        with pytest.raises(ProtocolError) as caught:
            decode_request(bad)
        assert caught.value.fatal
    receiver = ChannelConnection(Role.RECEIVER)  # inside a conversation it is no frame at all
    receiver.receive_data(data)
    with pytest.raises(ProtocolError):
        receiver.next_event()
