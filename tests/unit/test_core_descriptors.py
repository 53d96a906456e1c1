"""MQI structures checked by their version, as IBM checks them (spec C R-PUB-1, decision A-27)."""

from __future__ import annotations

from typing import Any

import pytest

from mqlite import cmqc as C
from mqlite.core.descriptors import check_object_descriptor
from mqlite.core.errors import MQError


@pytest.mark.parametrize("version", [C.MQOD_VERSION_1, C.MQOD_VERSION_2, C.MQOD_VERSION_3])
def test_a_topic_below_mqod_version_4_is_an_od_error(version: int) -> None:  # C:SC-PUB-05
    with pytest.raises(MQError) as error:
        check_object_descriptor({"Version": version, "ObjectType": C.MQOT_TOPIC, "ObjectString": "a/b"})
    assert error.value.reason == C.MQRC_OD_ERROR


@pytest.mark.parametrize("od", [
    {"Version": C.MQOD_VERSION_4, "ObjectType": C.MQOT_TOPIC, "ObjectString": "a/b"},
    {"ObjectType": C.MQOT_TOPIC, "ObjectString": "a/b"},  # no Version: a current descriptor
    {"Version": C.MQOD_VERSION_1, "ObjectType": C.MQOT_Q, "ObjectName": "Q1"},
    {"Version": C.MQOD_VERSION_3, "ObjectType": C.MQOT_Q_MGR},
])
def test_descriptors_that_have_what_they_use_pass(od: dict[str, Any]) -> None:
    check_object_descriptor(od)  # raises nothing


@pytest.mark.parametrize("version", [0, -1, C.MQOD_CURRENT_VERSION + 1])
def test_an_unknown_mqod_version_is_an_od_error(version: int) -> None:
    with pytest.raises(MQError) as error:
        check_object_descriptor({"Version": version, "ObjectType": C.MQOT_Q, "ObjectName": "Q1"})
    assert error.value.reason == C.MQRC_OD_ERROR
