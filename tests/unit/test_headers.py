"""IBM's binary headers: MQDLH (dead letter) and MQXQH (transmission queue), round trips."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mqlite.message import MessageDescriptor
from mqlite.protocol import dlh, xqh

names = st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._", max_size=48)


@given(reason=st.integers(0, 2**31 - 1), queue=names, qmgr=names, body=st.binary(max_size=64))
def test_dead_letter_header_round_trip(reason: int, queue: str, qmgr: str, body: bytes) -> None:
    header = dlh.DeadLetterHeader(reason, queue, qmgr, 546, 1208, "MQSTR", 7, "mqlite", "20261122", "22000000")
    data = dlh.encode(header) + body
    assert len(data) == dlh.LENGTH + len(body) == 172 + len(body)  # IBM's MQDLH v1 is 172 bytes
    assert dlh.decode(data) == (header, body)


@given(queue=names, qmgr=names, body=st.binary(max_size=64), priority=st.integers(0, 9))
def test_transmission_header_round_trip(queue: str, qmgr: str, body: bytes, priority: int) -> None:
    md = MessageDescriptor(Priority=priority, Persistence=1, MsgId=bytes(range(24)), Format="MQSTR",
                           ReplyToQ="REPLY.Q", ReplyToQMgr="QM1", UserIdentifier="alice")
    header, rest = xqh.unwrap(xqh.wrap(queue, qmgr, md, body))
    assert (header.remote_q_name, header.remote_q_mgr_name, rest) == (queue, qmgr, body)
    assert header.md.to_list()[:22] == md.to_list()[:22]  # MQMD v1 carries the first 22 fields


@pytest.mark.parametrize("decode", [dlh.decode, xqh.unwrap])
def test_garbage_is_not_a_header(decode: Any) -> None:
    with pytest.raises(ValueError):
        decode(b"not a header at all")
