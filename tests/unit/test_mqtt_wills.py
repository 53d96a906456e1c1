"""A delayed will as the persistent message that keeps it across restarts (server.mqtt.wills)."""

from __future__ import annotations

import pytest

from mqlite.protocol.mqtt import Will
from mqlite.server.mqtt.wills import decode_will, encode_will


def test_a_will_and_its_properties_come_back_as_they_were() -> None:
    props = {"will_delay_interval": 30, "correlation_data": b"\x00\xffid", "content_type": "text/plain",
             "user_property": [("a", "1"), ("a", "2")], "message_expiry_interval": 60}
    will = Will("status/dev1", b"offline", 1, True, props)
    text = encode_will("dev1", 1700000000.25, will, "app1")
    assert decode_will(text, b"offline") == ("dev1", 1700000000.25, will, "app1")


@pytest.mark.parametrize("text", ["", "{}", "[1]", '{"c": "x", "d": "soon"}', "not json"])
def test_what_is_not_a_will_is_refused(text: str) -> None:
    with pytest.raises(ValueError):
        decode_will(text, b"")
