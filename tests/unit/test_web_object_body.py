"""The REST API's create and change bodies read as MQSC (web.object_body) and its CORS decisions
(web.cors), pure: no queue manager, no HTTP."""

from __future__ import annotations

from typing import Any

import pytest

from mqlite.web import cors, object_body, shapes
from mqlite.web.config import WebConfig, with_property
from mqlite.web.object_body import BodyError


def test_a_queue_body_is_a_define() -> None:
    name, command = object_body.define_queue({
        "name": "Q.A", "type": "local", "general": {"description": "It's mine", "inhibitPut": True,
                                                   "isTransmissionQueue": False},
        "storage": {"maximumDepth": 9, "messageDeliverySequence": "fifo"},
        "applicationDefaults": {"putResponse": "synchronous", "sharedInput": False, "persistent": True},
        "events": {"depthHighEnabled": True}, "extended": {"backoutThreshold": 3, "maxfsize": 10}})
    assert name == "Q.A"
    assert command == ("DEFINE QLOCAL('Q.A') DESCR('It''s mine') PUT(DISABLED) USAGE(NORMAL) MAXDEPTH(9) "
                       "MSGDLVSQ(FIFO) DEFPRESP(SYNC) DEFSOPT(EXCL) DEFPSIST(YES) QDPHIEV(ENABLED) BOTHRESH(3) "
                       "MAXFSIZE(10) REPLACE")


def test_like_no_replace_and_the_other_types() -> None:
    assert object_body.define_queue({"name": "C"}, like="Q.A", replace=False)[1] == \
        "DEFINE QLOCAL('C') LIKE('Q.A') NOREPLACE"
    assert object_body.define_queue({"name": "M", "type": "model", "model": {"type": "temporaryDynamic"}})[1] == \
        "DEFINE QMODEL('M') DEFTYPE(TEMPDYN) REPLACE"
    assert object_body.define_queue({"name": "A", "type": "alias", "alias": {"targetName": "Q.A",
                                                                            "targetType": "queue"}})[1] == \
        "DEFINE QALIAS('A') TARGET('Q.A') TARGTYPE(QUEUE) REPLACE"


def test_every_shown_queue_attribute_but_status_can_be_set() -> None:
    """GET's groups read back: each (group, name) of shapes.QUEUE outside status is settable."""
    shown = {(c, n) for k, (c, n, _) in shapes.QUEUE.items() if c != "status"}
    assert shown == set(object_body.QUEUE)


@pytest.mark.parametrize(("body", "says"), [
    ({"name": "Q", "storage": {"nope": 1}}, "storage.nope"),
    ({"name": "Q", "status": {"currentDepth": 1}}, "status"),
    ({"name": "Q", "storage": {"maximumDepth": True}}, "integer"),
    ({"name": "Q", "storage": {"maximumDepth": "12 "}}, "integer"),
    ({"name": "Q", "general": {"inhibitGet": 1}}, "true or false"),
    ({"name": "Q", "general": {"description": 5}}, "string"),
    ({"name": "Q", "general": {"description": "a\nb"}}, "control"),
    ({"name": "Q", "applicationDefaults": {"putResponse": "sometimes"}}, "asynchronous"),
    ({"name": "Q", "storage": {"messageDeliverySequence": "f i f o"}}, "keyword"),
    ({"name": "Q", "general": []}, "JSON object"),
    ({}, "name is required"),
    ({"name": 7}, "string"),
    ({"name": "Q" * 49}, "48"),
    ({"name": "Q*"}, "not a queue name"),
    ({"name": "Q", "type": "cluster"}, "type"),
])
def test_bad_queue_bodies(body: dict[str, Any], says: str) -> None:
    with pytest.raises(BodyError, match=says):
        object_body.define_queue(body)


def test_alter_and_delete_of_a_queue() -> None:
    assert object_body.alter_queue("Q", "QLOCAL", {"name": "Q", "type": "local", "storage": {"maximumDepth": 1}}) \
        == "ALTER QLOCAL('Q') MAXDEPTH(1)"
    with pytest.raises(BodyError, match="type"):
        object_body.alter_queue("Q", "QALIAS", {"type": "local"})
    with pytest.raises(BodyError, match="name"):
        object_body.alter_queue("Q", "QLOCAL", {"name": "R"})
    assert object_body.delete_queue("Q", "QLOCAL", purge=False, keep_authority_records=False) == \
        "DELETE QLOCAL('Q') NOPURGE"
    assert object_body.delete_queue("Q", "QLOCAL", purge=True, keep_authority_records=True) == \
        "DELETE QLOCAL('Q') PURGE AUTHREC(NO)"
    assert object_body.delete_queue("A", "QALIAS", purge=True, keep_authority_records=False) == "DELETE QALIAS('A')"


def test_subscription_bodies() -> None:
    name, command = object_body.define_sub({"name": "my sub", "topicString": "a/b",
                                            "destination": {"queueName": "D", "qmgrName": "QM1"},
                                            "user": {"data": "x"}, "general": {"expiry": 10}})
    assert name == "my sub"
    assert command == ("DEFINE SUB('my sub') TOPICSTR('a/b') DEST('D') DESTQMGR('QM1') USERDATA('x') EXPIRY(10) "
                       "REPLACE")
    assert object_body.alter_sub("my sub", {"user": {"data": "y"}}) == "ALTER SUB('my sub') USERDATA('y')"
    for bad, says in (({"name": "s"}, "topicString"), ({"name": "s", "topicString": "t", "id": "1"}, "id"),
                      ({"name": "s", "topicString": "t", "general": {"durable": True}}, "durable"),
                      ({"name": "s" * 10241, "topicString": "t"}, "10240")):
        with pytest.raises(BodyError, match=says):
            object_body.define_sub(bad)
    with pytest.raises(BodyError, match="cannot be changed"):
        object_body.alter_sub("s", {"topicString": "other"})


def test_the_reason_of_a_refused_command() -> None:
    assert object_body.refused_reason(["AMQ8143E: WebSphere MQ queue Q not empty."], 3008) == 2055
    assert object_body.refused_reason(["AMQ8101E: WebSphere MQ error MQRCCF_PARM_VALUE_ERROR (3026) has "
                                       "occurred: MAXDEPTH"], 3008) == 3026
    assert object_body.refused_reason(["AMQ8405E: Syntax error detected at or near end of command segment."],
                                      3008) == 3008


def test_cors_decisions() -> None:
    origins = with_property(WebConfig(), "mqRestCorsAllowedOrigins", "https://a, https://b/").cors_origins
    assert origins == {"https://a", "https://b"}
    assert cors.allowed("https://a", origins) and cors.allowed("https://b", origins)
    assert not cors.allowed("https://c", origins) and not cors.allowed(None, origins)
    assert not cors.allowed("null", origins)
    assert cors.allowed("https://any", frozenset({"*"}))
    answer = cors.preflight_headers("https://a", "Content-Type, ibm-mq-rest-csrf-token", 1800)
    assert answer["Access-Control-Allow-Origin"] == "https://a"
    assert answer["Access-Control-Allow-Credentials"] == "true"
    assert answer["Access-Control-Allow-Headers"] == "content-type, ibm-mq-rest-csrf-token"
    assert answer["Access-Control-Max-Age"] == "1800"
    odd = cors.preflight_headers("https://a", "x-other", -1)
    assert "x-other" not in odd["Access-Control-Allow-Headers"] and "Access-Control-Max-Age" not in odd
    assert "Location" in cors.response_headers("https://a")["Access-Control-Expose-Headers"]
    with pytest.raises(ValueError):
        with_property(WebConfig(), "mqRestCorsMaxAgeInSeconds", "-2")
