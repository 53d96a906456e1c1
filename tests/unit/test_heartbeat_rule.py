"""The heartbeat rule of client channels (server/native/heartbeat.decide, SVRCONN HBINT): a pure
function of the clock, when the client was last heard, when our heartbeat went and whether a
get is waiting; and the frames both ends exchange (protocol/native, client/session)."""

from __future__ import annotations

import pytest

from mqlite.client.session import Session
from mqlite.core.network.channels.channel import receive_timeout
from mqlite.protocol import native
from mqlite.server.native.heartbeat import Beat, decide


@pytest.mark.parametrize(("hbint", "timeout"), [(1, 2), (30, 60), (59, 118), (60, 120), (300, 360)])
def test_receive_timeout_is_ibms(hbint: int, timeout: int) -> None:
    assert receive_timeout(hbint) == timeout  # 2 x HBINT below 60 s, else HBINT + 60


@pytest.mark.parametrize(("now", "heard", "sent", "hbint", "waiting", "beat"), [
    (100.0, 99.5, 0.0, 1, True, Beat.NONE),  # heard within HBINT
    (100.0, 99.0, 0.0, 1, True, Beat.SEND),  # HBINT of silence while a get waits
    (100.0, 50.0, 0.0, 1, False, Beat.NONE),  # no waiting get: no heartbeat (KAINT's job)
    (100.0, 50.0, 0.0, 0, True, Beat.NONE),  # HBINT(0): none
    (100.0, 97.0, 98.5, 1, True, Beat.NONE),  # sent 1.5 s ago, unanswered, within 2 x HBINT
    (100.0, 97.0, 98.0, 1, True, Beat.TIMED_OUT),  # unanswered for 2 x HBINT
    (100.0, 99.5, 98.5, 1, True, Beat.NONE),  # answered (heard after it was sent): silence counts again
    (100.0, 99.0, 98.5, 1, True, Beat.SEND),  # answered, then HBINT of silence: the next one
    (500.0, 100.0, 141.0, 300, True, Beat.NONE),  # HBINT 300: 360 s to answer
    (500.0, 100.0, 139.0, 300, True, Beat.TIMED_OUT),
])
def test_decide(now: float, heard: float, sent: float, hbint: int, waiting: bool, beat: Beat) -> None:
    assert decide(now, heard, sent, hbint, waiting) is beat


def test_the_heartbeat_frames_cross_the_codecs() -> None:
    client = native.NativeConnection(native.Role.CLIENT)
    client.receive_data(native.encode_push_heartbeat())
    push = client.next_event()
    assert isinstance(push, native.Push) and push.kind is native.Op.PUSH_HEARTBEAT and push.args == []
    answer = Session().on_push(push)  # the client answers at once, whatever it was doing
    assert answer == native.encode_heartbeat()
    server = native.NativeConnection(native.Role.SERVER)
    server.receive_data(answer)
    request = server.next_event()
    assert isinstance(request, native.Request) and request.op is native.Op.HEARTBEAT and request.req_id == 0


def test_other_pushes_need_no_answer() -> None:
    client = native.NativeConnection(native.Role.CLIENT)
    client.receive_data(native.encode_push_error(3, 2053))
    push = client.next_event()
    assert isinstance(push, native.Push)
    assert Session().on_push(push) is None
