"""The web server's pure parts: runmqsc output read back, IBM's JSON shapes and selections,
runCommandJSON's MQSC, the messaging headers, basic authentication, the error body."""

from __future__ import annotations

import base64
import re

import pytest

from mqlite.web import admin, message_headers, mqsc_text, shapes
from mqlite.web.errors import RestError, error_body, status_for_reason
from mqlite.web.security import TokenStore, basic_credentials

DISPLAY = [
    "     1 : DISPLAY QUEUE(Q1) ALL",
    "AMQ8409I: Display Queue details.",
    "   QUEUE(Q1)                               TYPE(QLOCAL)",
    "   DESCR(a (b) c)                          MAXDEPTH(5000)",
    "   PUT(DISABLED)                           NOTRIGGER",
    "   CRDATE(2026-12-02)                      CRTIME(01.01.58)",
    "   CUSTOM(x)",
    "AMQ8409I: Display Queue details.",
    "   QUEUE(Q2)                               TYPE(QALIAS)",
    "   TARGET(Q1)",
    "1 MQSC commands read.",
    "No commands have a syntax error.",
    "All valid MQSC commands were processed.",
]


def test_display_records_are_read_back() -> None:
    out = mqsc_text.parse(DISPLAY)
    assert out.errors == [] and out.reason == 0
    assert out.records[0]["DESCR"] == "a (b) c"
    assert out.records[0]["NOTRIGGER"] == ""
    assert out.records[1] == {"QUEUE": "Q2", "TYPE": "QALIAS", "TARGET": "Q1"}


def test_display_lines_are_cut_at_runmqscs_columns() -> None:
    """A value may hold blanks and parentheses of any kind: the line is cut where the right column
    begins (mqsc.display.pairs's layout), not at blanks or the first closing parenthesis."""
    from mqlite.mqsc.display import pairs as laid_out

    items = ["DESCR(x" + "y" * 30 + ")", "CONNAME(host(1414))", "DESCR(a (b)  c ((d)", "NOTRIGGER",
             "DESCR(" + "w " * 30 + ")", "TYPE(QLOCAL)"]
    lines = laid_out(items)
    assert lines[0][3 + 39] == " " and lines[0][3 + 40] == "C"  # a 39-character left item: one blank
    read = [mqsc_text.pairs(line) for line in lines]
    assert read[0] == {"DESCR": "x" + "y" * 30, "CONNAME": "host(1414)"}
    assert read[1] == {"DESCR": "a (b)  c ((d", "NOTRIGGER": ""}
    assert read[2] == {"DESCR": ("w " * 30).strip()} and read[3] == {"TYPE": "QLOCAL"}


def test_failures_carry_ibm_reasons() -> None:
    assert mqsc_text.parse(["AMQ8147E: WebSphere MQ object X not found."], 10).reason == 2085
    assert mqsc_text.parse(["AMQ8135E: Not authorized."], 10).reason == 2035
    assert mqsc_text.parse(["AMQ8420I: Channel Status not found."], 10).not_found
    assert mqsc_text.parse(["AMQ8405I: Syntax error detected"], 10).reason == 3008
    assert mqsc_text.parse([], 20).errors  # nothing ran


def test_queue_shape_and_selections() -> None:
    record = mqsc_text.parse(DISPLAY).records[0]
    assert shapes.queue(record, None, [], []) == {"name": "Q1", "type": "local"}
    chosen = shapes.queue(record, None, ["storage.maximumDepth", "general"], [])
    assert chosen["storage"] == {"maximumDepth": 5000}
    assert chosen["general"] == {"description": "a (b) c", "inhibitPut": True}
    everything = shapes.queue(record, None, ["*"], [])
    assert everything["timestamps"] == {"created": "2026-12-02T01:01:58.000Z"}
    assert everything["extended"]["custom"] == "x"
    status = shapes.queue(record, {"QUEUE": "Q1", "CURDEPTH": "3", "UNCOM": "NO", "MSGAGE": ""}, [], ["*"])
    assert status["status"] == {"currentDepth": 3, "uncommittedMessages": 0, "oldestMessageAge": -1}
    with pytest.raises(ValueError):
        shapes.queue(record, None, ["nosuchcategory"], [])
    with pytest.raises(ValueError):
        shapes.queue(record, None, [], ["general"])
    with pytest.raises(ValueError):
        shapes.selection("storage..x")
    assert shapes.selection("storage.maximumDepth,general") == ["storage.maximumDepth", "general"]
    with pytest.raises(ValueError):
        shapes.selection(" general")  # exactly what the OpenAPI document's pattern takes
    assert re.fullmatch(shapes.selection_pattern(shapes.QUEUE_CATEGORIES), "storage.maximumDepth,general,*")
    assert not re.fullmatch(shapes.selection_pattern(shapes.QUEUE_CATEGORIES), "nosuch")


def test_channel_and_qmgr_shapes() -> None:
    channel = shapes.channel({"CHANNEL": "TO.QM2", "CHLTYPE": "SDR", "CONNAME": "h(1)"},
                             [{"CHANNEL": "TO.QM2", "STATUS": "RUNNING", "MSGS": "4"}], ["connection"], ["*"])
    assert channel == {"name": "TO.QM2", "type": "sender", "connection": {"name": "h(1)"},
                       "status": [{"state": "running", "messages": 4}]}
    assert shapes.channel({"CHANNEL": "C", "CHLTYPE": "RCVR"}, [], [], ["status.state"])["status"] == [
        {"state": "inactive"}]
    assert shapes.qmgr("QM9", False, None, None, [], ["*"]) == {"name": "QM9", "state": "ended",
                                                                 "status": {"state": "ended"}}


def test_run_command_json_builds_mqsc() -> None:
    command = admin.json_command({"type": "runCommandJSON", "command": "define", "qualifier": "qlocal",
                                  "name": "lower.q", "parameters": {"descr": "it's", "maxdepth": 7,
                                                                   "defpsist": True, "clusnl": ["A", "b"]}})
    assert command == "DEFINE QLOCAL('lower.q') DESCR('it''s') MAXDEPTH(7) DEFPSIST(YES) CLUSNL('A','b')"
    display = admin.json_command({"command": "display", "qualifier": "queue", "name": "*"})
    assert display == "DISPLAY QUEUE('*') ALL"
    for body in ({"command": "display"}, {"command": "x y", "qualifier": "q"},
                 {"command": "alter", "qualifier": "qlocal", "name": "Q", "parameters": {"descr": "a\nDELETE"}},
                 {"command": "alter", "qualifier": "qlocal", "parameters": {"de scr": "a"}},
                 {"command": "display", "qualifier": "q", "responseParameters": "all"}):
        with pytest.raises(RestError) as caught:
            admin.json_command(body)
        assert caught.value.status == 400


def test_command_response_shapes() -> None:
    ok = admin.command_response(DISPLAY, 0, as_json=True)
    assert ok["overallCompletionCode"] == 0
    assert ok["commandResponse"][0]["parameters"]["maxdepth"] == 5000
    failed = admin.command_response(["     1 : DEFINE QLOCAL(Q)", "AMQ8150E: WebSphere MQ object already exists."],
                                    10, as_json=False)
    assert failed["overallCompletionCode"] == 2 and failed["overallReasonCode"] == 3008
    assert failed["commandResponse"] == [{"completionCode": 2, "reasonCode": 4001,
                                          "text": ["AMQ8150E: WebSphere MQ object already exists."]}]


def test_message_headers() -> None:
    assert message_headers.parse_id("ab" * 24) == bytes.fromhex("ab" * 24)
    assert message_headers.parse_id("0x" + "01" * 24) == b"\x01" * 24
    assert message_headers.parse_id("abc") == b"abc" + b"\0" * 21
    assert message_headers.format_id(b"abc") == "616263" + "00" * 21
    with pytest.raises(message_headers.HeaderError):
        message_headers.parse_id("x" * 25)
    assert message_headers.parse_persistence("nonPersistent") == 0
    assert message_headers.parse_persistence("persistent") == 1
    with pytest.raises(message_headers.HeaderError):
        message_headers.parse_persistence("PERSISTENT")  # IBM's two spellings only
    assert message_headers.parse_expiry("unlimited") == -1
    assert message_headers.parse_expiry("150") == 2  # tenths, rounded up
    assert message_headers.format_expiry(2) == "200"
    for bad in ("0", "-5", "soon"):
        with pytest.raises(message_headers.HeaderError):
            message_headers.parse_expiry(bad)
    assert message_headers.parse_reply_to("R.Q@QM1") == ("R.Q", "QM1")
    assert message_headers.parse_reply_to("R.Q") == ("R.Q", "")
    with pytest.raises(message_headers.HeaderError):
        message_headers.parse_reply_to("bad name@")
    assert message_headers.header({"ibmmq-correlation-id": "x"}, "correlationId") == ("ibmmq-correlation-id", "x")
    assert message_headers.charset("text/plain") == "utf-8"
    assert message_headers.charset('text/plain; charset="ISO-8859-1"') == "iso-8859-1"
    assert message_headers.charset("application/octet-stream") is None
    assert message_headers.parse_wait(None) == 0
    with pytest.raises(message_headers.HeaderError):
        message_headers.parse_wait("-1")


def test_basic_credentials_and_tokens() -> None:
    token = base64.b64encode(b"app:pa:ss").decode()
    caller = basic_credentials(f"Basic {token}")
    assert caller is not None and (caller.user, caller.password) == ("app", "pa:ss")
    for header in (None, "", "Bearer x", "Basic !!!", "Basic " + base64.b64encode(b"nocolon").decode()):
        assert basic_credentials(header) is None
    store = TokenStore()
    issued = store.issue(caller)
    assert store.lookup(issued) == caller and store.lookup("other") is None
    store.revoke(issued)
    assert store.lookup(issued) is None
    lapsed = TokenStore(lifetime=-1.0)
    assert lapsed.lookup(lapsed.issue(caller)) is None


def test_error_body_is_ibms_shape() -> None:
    body = error_body("MQWB0103E", ("put to", "APP.Q"), 2035)
    item = body["error"][0]
    assert item["type"] == "rest" and item["msgId"] == "MQWB0103E"
    assert item["message"] == "MQWB0103E: Not authorized to put to 'APP.Q'."
    assert error_body("MQWB0103E")["error"][0]["message"] == "MQWB0103E: Not authorized."
    assert (item["completionCode"], item["reasonCode"], item["reasonName"]) == (2, 2035, "MQRC_NOT_AUTHORIZED")
    assert {"explanation", "action"} <= set(item)
    assert [status_for_reason(r) for r in (2035, 2085, 2059, 2053)] == [403, 404, 503, 400]
