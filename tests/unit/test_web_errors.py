"""The REST API's error ids are IBM's: each situation's (HTTP status, msgId), pinned.

Sources (IBM MQ 9.x documentation, ibm.com/docs):
  M00  "MQWB00xx: REST API messages"  .../SSFKSJ_9.1.0/com.ibm.mq.ref.doc/mqwb00.html
  M01  "MQWB01xx: REST API messages"  .../SSFKSJ_9.2.0/com.ibm.mq.ref.doc/mqwb01.html
  M03  "MQWB03xx: REST API messages"  https://www.ibm.com/docs/en/ibm-mq/9.3.x?topic=messages-mqwb03xx-rest-api
  M2x  "IBM MQ Console messages" (MQWB2xxx) https://www.ibm.com/docs/en/ibm-mq/9.0.x?topic=messages-mqwb2xxx-mq-console
  EH   "REST API error handling" https://www.ibm.com/docs/en/ibm-mq/9.0.x?topic=api-rest-error-handling
       (examples MQWB0009E for a queue manager that does not exist, MQWB0037E for a queue)
  RS   each resource's "Response status codes" (400 invalid data, 401 not authenticated, 403 not
       authorized, 404 not found, 503 queue manager not running)
  OBS  bodies of IBM's mqweb quoted in public clients' tests and tutorials: MQWB0112E (401, token
       cookie failed verification), MQWB0309E (501, a message that is not text), MQWB0004E with
       the reason code for an MQ failure.
"""

from __future__ import annotations

import pytest

from mqlite.web.errors import (
    MESSAGES,
    SITUATIONS,
    error_body,
    from_reason,
    refuse,
    refused_command,
)

# situation -> (status, IBM msgId, source); "closest" where IBM's own id was not found
TABLE = {
    "unexpected": (500, "MQWB0000E", "M00"),
    "unknown_resource": (404, "MQWB0000E", "M00 closest"),
    "method_not_allowed": (405, "MQWB2005E", "M2x closest"),
    "bad_body": (400, "MQWB2004E", "M2x, RS"),
    "body_too_large": (413, "MQWB2004E", "M2x closest"),
    "bad_query": (400, "MQWB0302E", "M03 closest"),
    "bad_header": (400, "MQWB0302E", "M03"),
    "unsupported_media": (415, "MQWB0306E", "M03"),
    "bad_charset": (415, "MQWB0305E", "M03"),
    "body_not_charset": (400, "MQWB0305E", "M03"),
    "not_text_message": (501, "MQWB0309E", "OBS"),
    "csrf_missing": (403, "MQWB0100E", "M01"),
    "not_authenticated": (401, "MQWB0104E", "M01, RS"),
    "token_failed": (401, "MQWB0112E", "OBS"),
    "not_authorized": (403, "MQWB0103E", "M01, RS"),
    "qmgr_unknown": (404, "MQWB0009E", "EH"),
    "qmgr_not_running": (503, "MQWB0004E", "M00 closest, RS"),
    "queue_unknown": (404, "MQWB0037E", "EH"),
    "object_unknown": (404, "MQWB0004E", "M00 closest"),
    "mq_failed": (400, "MQWB0004E", "M00, OBS"),
}


def test_the_situations_are_the_pinned_table() -> None:
    pinned = {situation: (status, msg_id) for situation, (status, msg_id, _) in TABLE.items()}
    assert pinned == SITUATIONS


@pytest.mark.parametrize("situation", sorted(TABLE))
def test_each_situation_answers_its_status_and_id(situation: str) -> None:
    status, msg_id, _ = TABLE[situation]
    error = refuse(situation, "A", "B", "C")
    item = error.body()["error"][0]
    assert (error.status, item["msgId"], item["type"]) == (status, msg_id, "rest")
    assert item["message"].startswith(f"{msg_id}: ") and item["explanation"] and item["action"]


def test_ibms_texts_with_their_inserts() -> None:
    def message(msg_id: str, *inserts: object) -> str:
        return str(error_body(msg_id, inserts)["error"][0]["message"])

    assert message("MQWB0009E", "QM1") == "MQWB0009E: Could not query the queue manager 'QM1'."
    assert message("MQWB0037E", "missingQueue", 3312, "MQRCCF_UNKNOWN_OBJECT_NAME") == (
        "MQWB0037E: Could not find the queue 'missingQueue' - the queue manager reason code is 3312 : "
        "'MQRCCF_UNKNOWN_OBJECT_NAME'")
    assert message("MQWB0004E", 2543, "MQRC_STANDBY_Q_MGR") == (
        "MQWB0004E: An internal error occurred while communicating with the queue manager. The root MQ "
        "reason code was 2543 : MQRC_STANDBY_Q_MGR.")
    assert message("MQWB0100E", "ibm-mq-rest-csrf-token") == (
        "MQWB0100E: The CSRF header 'ibm-mq-rest-csrf-token' was omitted from the request.")
    assert message("MQWB0103E", "put to", "Q1") == "MQWB0103E: Not authorized to put to 'Q1'."
    assert message("MQWB0103E") == "MQWB0103E: Not authorized."
    assert message("MQWB0104E") == "MQWB0104E: The REST API request is not authenticated."
    assert message("MQWB0112E", "LtpaToken2") == (
        "MQWB0112E: The 'LtpaToken2' authentication token cookie failed verification.")
    assert message("MQWB0306E") == "MQWB0306E: The media type is unsupported for this type of request."
    assert message("MQWB2005E", "PUT", "/x") == (
        "MQWB2005E: The PUT HTTP method is not allowed for the /x resource request.")
    assert all(msg_id[:4] == "MQWB" and msg_id[-1] == "E" for msg_id in MESSAGES)


def test_detail_goes_to_the_explanation_not_the_message() -> None:
    item = refuse("bad_body", detail="storage.noSuchThing is not an attribute").body()["error"][0]
    assert item["message"] == "MQWB2004E: The body of the request could not be parsed."
    assert item["explanation"].endswith(" storage.noSuchThing is not an attribute.")
    assert (item["completionCode"], item["reasonCode"]) == (0, 0)  # as IBM's servers send them


def test_mq_failures_keep_their_reason() -> None:
    running = from_reason(2059, "QM1")
    assert (running.status, running.msg_id, running.reason) == (503, "MQWB0004E", 2059)
    assert "2059 : MQRC_Q_MGR_NOT_AVAILABLE" in running.body()["error"][0]["message"]
    assert (from_reason(2035, "QM1").status, from_reason(2035, "QM1").msg_id) == (403, "MQWB0103E")
    other = from_reason(2053, "QM1")  # MQRC_Q_FULL
    assert (other.status, other.msg_id, other.body()["error"][0]["completionCode"]) == (400, "MQWB0004E", 2)


def test_refused_commands_name_the_verb_and_the_object() -> None:
    denied = refused_command(2035, "QM1", "Q1", "DEFINE QLOCAL(Q1)", "AMQ8135E: Not authorized.")
    assert (denied.status, denied.body()["error"][0]["message"]) == (403, "MQWB0103E: Not authorized to create 'Q1'.")
    queue = refused_command(2085, "QM1", "Q1", "DISPLAY QUEUE(Q1) TYPE", "AMQ8147E: object Q1 not found.")
    assert (queue.status, queue.msg_id) == (404, "MQWB0037E")
    channel = refused_command(3008, "QM1", "C1", "DISPLAY CHANNEL(C1)", "AMQ8147E: object C1 not found.",
                              not_found=True)
    assert (channel.status, channel.msg_id) == (404, "MQWB0004E")
    failed = refused_command(4001, "QM1", "Q1", "DEFINE QLOCAL(Q1)", "AMQ8150E: object already exists.")
    assert (failed.status, failed.msg_id, failed.reason) == (400, "MQWB0004E", 4001)
    assert "AMQ8150E" in failed.body()["error"][0]["explanation"]
