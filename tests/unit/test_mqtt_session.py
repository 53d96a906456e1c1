"""The sans-IO MQTT server session (mqlite.protocol.mqtt.session): packets in, events and packets
out, no sockets and no queue manager. Section numbers are MQTT 5.0's (3.1.1's where noted)."""

from __future__ import annotations

from typing import Any

import pytest

from mqlite.protocol.mqtt import (
    V5,
    V311,
    Auth,
    Connect,
    Disconnect,
    MqttError,
    PingReq,
    PingResp,
    PubAck,
    PubComp,
    Publish,
    PubRec,
    PubRel,
    Subscribe,
    Subscription,
)
from mqlite.protocol.mqtt import reasons as R
from mqlite.protocol.mqtt.session import (
    OUTBOUND_FLOW,
    WAIT_PUBACK,
    WAIT_PUBCOMP,
    WAIT_PUBREC,
    Acknowledged,
    Limits,
    ServerSession,
    SessionState,
    granted_keep_alive,
    keep_alive_deadline,
)


def session(version: int = V5, keep_alive: int = 60, state: SessionState | None = None,
            limits: Limits | None = None, **props: Any) -> ServerSession:
    connect = Connect("c", version, True, keep_alive, properties=props)
    return ServerSession(connect, state or SessionState(), limits or Limits())


def deliver(s: ServerSession, qos: int, seq: int, token: object = None, topic: str = "t",
            payload: bytes = b"x") -> Publish:
    packet = s.publication(topic, payload, qos, False, {}, seq, token)
    assert packet is not None
    return packet


# -- packet identifiers ------------------------------------------------------------------------
def test_packet_ids_count_up_wrap_after_65535_and_skip_those_in_flight() -> None:
    state = SessionState(next_packet_id=65534)
    s = session(state=state)
    assert [deliver(s, 1, n).packet_id for n in (1, 2, 3)] == [65534, 65535, 1]
    state.next_packet_id = 65534  # 65534 and 65535 are still in flight
    assert deliver(s, 1, 4).packet_id == 2


def test_no_free_packet_id_is_an_error_not_a_reuse() -> None:
    state = SessionState()
    s = session(state=state, limits=Limits(send_window=70_000))
    for n in range(65535):
        deliver(s, 1, n + 1)
    with pytest.raises(MqttError):
        deliver(s, 1, 70_000)


# -- deliveries towards the client ---------------------------------------------------------------
def test_the_outbound_flow_table_is_the_specifications() -> None:
    """4.3.2 / 4.3.3: QoS 1 ends at PUBACK; QoS 2 is the client's at PUBREC (answered with
    PUBREL) and ends at PUBCOMP."""
    assert OUTBOUND_FLOW[(WAIT_PUBACK, PubAck)] == (None, True, None)
    assert OUTBOUND_FLOW[(WAIT_PUBREC, PubRec)] == (WAIT_PUBCOMP, True, PubRel)
    assert OUTBOUND_FLOW[(WAIT_PUBCOMP, PubComp)] == (None, False, None)
    assert (WAIT_PUBACK, PubRec) not in OUTBOUND_FLOW and (WAIT_PUBREC, PubComp) not in OUTBOUND_FLOW


def test_a_qos1_delivery_is_done_at_puback() -> None:
    s = session()
    pid = deliver(s, 1, 1, token="entry").packet_id
    assert pid is not None and s.room() == 99
    assert s.receive(PubAck(pid)) == (Acknowledged("entry"), None)
    assert s.state.inflight == {} and s.room() == 100


def test_a_qos2_delivery_is_the_clients_at_pubrec_and_done_at_pubcomp() -> None:
    s = session()
    pid = deliver(s, 2, 1, token="entry").packet_id
    assert pid is not None
    assert s.receive(PubAck(pid)) == (None, None)  # the wrong acknowledgement: ignored
    event, reply = s.receive(PubRec(pid))
    assert event == Acknowledged("entry") and reply == PubRel(pid)
    assert s.receive(PubRec(pid)) == (None, None)  # already released
    assert s.room() == 99  # still counted until PUBCOMP (Receive Maximum, 4.9)
    assert s.receive(PubComp(pid)) == (Acknowledged(None), None)
    assert s.room() == 100


def test_a_pubrec_for_an_unknown_packet_id_gets_pubrel_0x92() -> None:
    assert session().receive(PubRec(7)) == (None, PubRel(7, R.PACKET_IDENTIFIER_NOT_FOUND))


def test_the_clients_receive_maximum_is_the_window() -> None:
    """3.3.4-7: no more unacknowledged QoS 1 and 2 deliveries than the client's Receive Maximum."""
    s = session(receive_maximum=2)
    deliver(s, 1, 1)
    deliver(s, 2, 2)
    assert s.room() == 0
    assert deliver(s, 0, 3).packet_id is None and s.room() == 0  # QoS 0 does not count


def test_a_resend_has_dup_and_a_new_delivery_does_not() -> None:
    state = SessionState()
    s = session(state=state)
    first = deliver(s, 1, 5)
    assert not first.dup and state.sent_through == 5
    again = session(state=state)  # the client came back before acknowledging
    assert again.resume() == [] and state.inflight == {}
    assert deliver(again, 1, 5).dup and not deliver(again, 1, 6).dup


def test_resuming_sends_pubrel_for_released_qos2_deliveries_and_forgets_the_rest() -> None:
    state = SessionState()
    s = session(state=state)
    released = deliver(s, 2, 1).packet_id
    deliver(s, 2, 2)
    deliver(s, 1, 3)
    assert released is not None
    s.receive(PubRec(released))
    again = session(state=state)
    assert again.resume() == [PubRel(released)]
    assert list(state.inflight) == [released]


def test_a_delivery_larger_than_the_clients_maximum_packet_size_is_not_made() -> None:
    """3.1.2-25: the server does not send a packet larger than the client's Maximum Packet Size."""
    s = session(maximum_packet_size=30)
    assert s.publication("t", b"x" * 40, 1, False, {}, 1, "entry") is None
    assert s.state.inflight == {} and s.state.next_packet_id == 1  # nothing held, no id used
    assert s.publication("t", b"x" * 10, 1, False, {}, 2, "entry") is not None


def test_outbound_topic_aliases_when_the_client_allows_them() -> None:
    s = session(topic_alias_maximum=1)
    first, second = deliver(s, 0, 1, topic="a/b"), deliver(s, 0, 2, topic="a/b")
    assert (first.topic, first.properties["topic_alias"]) == ("a/b", 1)
    assert (second.topic, second.properties["topic_alias"]) == ("", 1)
    assert "topic_alias" not in deliver(session(V311), 0, 1).properties


# -- from the client -------------------------------------------------------------------------------
def test_inbound_topic_aliases_are_resolved_and_checked() -> None:
    s = session()
    event, _ = s.receive(Publish("x/y", b"1", properties={"topic_alias": 3}))
    assert isinstance(event, Publish) and event.topic == "x/y"
    event, _ = s.receive(Publish("", b"2", properties={"topic_alias": 3}))
    assert isinstance(event, Publish) and event.topic == "x/y"
    with pytest.raises(MqttError) as unknown:
        s.receive(Publish("", b"3", properties={"topic_alias": 4}))
    assert unknown.value.reason == R.PROTOCOL_ERROR
    with pytest.raises(MqttError) as too_high:
        s.receive(Publish("z", b"4", properties={"topic_alias": 101}))
    assert too_high.value.reason == R.TOPIC_ALIAS_INVALID


def test_an_inbound_qos2_publication_is_taken_once_and_released_by_pubrel() -> None:
    """4.3.3: a resend of a QoS 2 PUBLISH not yet released is acknowledged, not published again."""
    s = session()
    p = Publish("t", b"x", 2, packet_id=9)
    assert s.receive(p) == (p, None)
    assert s.acknowledge(p, R.SUCCESS) == PubRec(9)
    assert s.receive(Publish("t", b"x", 2, dup=True, packet_id=9)) == (None, PubRec(9))
    assert s.receive(PubRel(9)) == (None, PubComp(9))
    assert s.receive(PubRel(9)) == (None, PubComp(9, R.PACKET_IDENTIFIER_NOT_FOUND))


def test_a_refused_qos2_publication_is_not_held() -> None:
    s = session()
    p = Publish("t", b"x", 2, packet_id=4)
    assert s.acknowledge(p, R.NOT_AUTHORIZED) == PubRec(4, R.NOT_AUTHORIZED)
    assert 4 not in s.state.awaiting_rel
    assert s.acknowledge(Publish("t", b"x", 1, packet_id=5), R.SUCCESS) == PubAck(5)
    assert s.acknowledge(Publish("t", b"x"), R.SUCCESS) is None


def test_more_unreleased_qos2_publications_than_receive_maximum_is_0x93() -> None:
    """3.3.4-9."""
    s = session(limits=Limits(receive_maximum=2))
    for pid in (1, 2):
        p = Publish("t", b"x", 2, packet_id=pid)
        s.receive(p)
        s.acknowledge(p, R.SUCCESS)
    with pytest.raises(MqttError) as error:
        s.receive(Publish("t", b"x", 2, packet_id=3))
    assert error.value.reason == R.RECEIVE_MAXIMUM_EXCEEDED


def test_ping_subscribe_and_auth() -> None:
    s = session()
    assert s.receive(PingReq()) == (None, PingResp())
    sub = Subscribe(1, [Subscription("a/#")])
    assert s.receive(sub) == (sub, None)
    with pytest.raises(MqttError):
        s.receive(Auth())


def test_disconnect_may_shorten_the_session_expiry_but_not_give_one() -> None:
    """3.14.2-2: a session that had no expiry interval cannot be given one at DISCONNECT."""
    s = session(session_expiry_interval=60)
    bye = Disconnect(properties={"session_expiry_interval": 0})
    assert s.receive(bye) == (bye, None) and s.session_expiry == 0
    with pytest.raises(MqttError) as error:
        session().receive(Disconnect(properties={"session_expiry_interval": 10}))
    assert error.value.reason == R.PROTOCOL_ERROR


# -- CONNACK and keep-alive ------------------------------------------------------------------------
def test_connack_announces_the_limits_and_a_lowered_keep_alive() -> None:
    """3.2.2.3: Receive Maximum, Maximum Packet Size, Topic Alias Maximum; Server Keep Alive only
    when the client asked for more than the server grants."""
    ack = session(keep_alive=120).connack(False, "assigned-id")
    assert ack.properties["server_keep_alive"] == 60
    assert ack.properties["receive_maximum"] == 100 and ack.properties["topic_alias_maximum"] == 100
    assert ack.properties["maximum_packet_size"] == Limits().maximum_packet_size
    assert ack.properties["assigned_client_identifier"] == "assigned-id"
    assert "server_keep_alive" not in session(keep_alive=30).connack(True).properties
    assert session(V311, keep_alive=120).connack(True).properties == {}  # 3.1.1 has none of this


def test_keep_alive_granted_and_its_deadline() -> None:
    assert granted_keep_alive(V5, 120, 60) == 60
    assert granted_keep_alive(V5, 0, 60) == 0  # none asked: none imposed
    assert granted_keep_alive(V311, 120, 60) == 120  # 3.1.1 cannot be told
    assert keep_alive_deadline(10) == 15  # 3.1.1 3.1.2.10: one and a half intervals
