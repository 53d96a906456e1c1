"""The REST API over real HTTP: ``mqlite strmqweb`` starts the web server as its own process in
a temporary MQLITE_HOME (port 0, the bound port read from ``web/endpoints.json``), real queue
managers behind it, every call made as a user of their users files; ended by pid at the end."""

from __future__ import annotations

import json
import os
import signal
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from helpers.credentials import ADMIN, APP, add_user
from helpers.module_qmgrs import started
from helpers.mqsc import RunCli
from helpers.waiting import wait_until
from mqlite.cli.state import process_alive

CSRF = {"ibm-mq-rest-csrf-token": "x"}
BODY_LIMIT = 65536


def start_web(home: Path, run_cli: RunCli, **properties: str) -> tuple[str, int]:
    """strmqweb on port 0 (plus ``properties``): (the REST API's base URL, the server's pid)."""
    for key, value in {"httpHost": "127.0.0.1", "httpPort": "0", **properties}.items():
        result = run_cli("setmqweb", "properties", "-k", key, "-v", value)
        assert result.returncode == 0, result.stdout + result.stderr
    result = run_cli("strmqweb")
    assert result.returncode == 0, result.stdout + result.stderr
    endpoints = json.loads((home / "web" / "endpoints.json").read_text())
    return endpoints["url"].removesuffix("v2/"), int(endpoints["pid"])


def end_web(run_cli: RunCli, pid: int) -> None:
    result = run_cli("endmqweb")
    if process_alive(pid):  # endmqweb failed: end it by its pid
        os.kill(pid, signal.SIGKILL)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    home = tmp_path_factory.mktemp("web") / "home"
    with started(home, ["QM1"]) as (_, run_cli):
        add_user(home, "QM1", ADMIN)
        assert run_cli("crtmqm", "QM2").returncode == 0  # never started: listed as ended
        add_user(home, "QM2", ADMIN)
        script = "DEFINE QLOCAL(WEB.Q)\nDEFINE QLOCAL(WEB.GET)\nDEFINE QLOCAL(WEB.PUB)\nDEFINE QLOCAL(WEB.RAW)\n"
        assert run_cli("runmqsc", "QM1", input=script).returncode == 0
        base, pid = start_web(home, run_cli, maxRequestBodySize=str(BODY_LIMIT))
        state = {"base": base, "pid": pid, "home": home, "run_cli": run_cli}
        try:
            yield state
        finally:
            end_web(run_cli, state["pid"])


@pytest.fixture
def admin(web: dict[str, Any]) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=web["base"], auth=(ADMIN.user, ADMIN.password), timeout=60) as client:
        yield client


def test_dspmqweb_shows_the_server_and_its_url(web: dict[str, Any]) -> None:
    shown = web["run_cli"]("dspmqweb")
    assert shown.returncode == 0
    assert shown.stdout.splitlines()[:2] == ["Server mqweb is running.", "URLS:"]
    assert web["base"] in shown.stdout
    unknown = web["run_cli"]("setmqweb", "properties", "-k", "noSuchProperty", "-v", "1")
    assert unknown.returncode == 1 and "MQWB1100E" in unknown.stderr + unknown.stdout
    props = web["run_cli"]("dspmqweb", "properties", "-a")
    assert 'httpPort="0"' in props.stdout and f'maxRequestBodySize="{BODY_LIMIT}"' in props.stdout


def test_installation_and_queue_managers(admin: httpx.Client) -> None:
    installation = admin.get("v2/admin/installation")
    assert installation.status_code == 200
    assert installation.json()["installation"][0]["name"] == "Installation1"
    listed = admin.get("v2/admin/qmgr").json()["qmgr"]
    assert {"name": "QM1", "state": "running"} in listed
    assert {"name": "QM2", "state": "ended"} in listed
    assert admin.get("v2/admin/qmgr/QM2").json() == {"qmgr": [{"name": "QM2", "state": "ended"}]}
    one = admin.get("v2/admin/qmgr/QM1", params={"status": "*", "attributes": "general"}).json()["qmgr"][0]
    assert one["state"] == "running" and one["status"]["state"] == "running"
    assert one["general"]["platform"] == "unix"
    ended = admin.get("v2/admin/qmgr/QM2/queue")  # QM2 is not running
    assert ended.status_code == 503
    assert (ended.json()["error"][0]["msgId"], ended.json()["error"][0]["reasonCode"]) == ("MQWB0004E", 2059)
    missing = admin.get("v2/admin/qmgr/NOSUCH")
    assert missing.status_code == 404
    assert (missing.json()["error"][0]["msgId"], missing.json()["error"][0]["reasonCode"]) == ("MQWB0009E", 2058)
    assert missing.json()["error"][0]["message"] == "MQWB0009E: Could not query the queue manager 'NOSUCH'."


def test_queues_with_attributes_status_and_name(admin: httpx.Client) -> None:
    plain = admin.get("v2/admin/qmgr/QM1/queue", params={"name": "WEB.*"}).json()["queue"]
    assert {"name": "WEB.Q", "type": "local"} in plain
    assert all(q["name"].startswith("WEB.") for q in plain)
    chosen = admin.get("v2/admin/qmgr/QM1/queue/WEB.Q",
                       params={"attributes": "storage.maximumDepth,general", "status": "status.currentDepth"})
    assert chosen.status_code == 200
    queue = chosen.json()["queue"][0]
    assert queue["storage"] == {"maximumDepth": 5000}
    assert queue["general"]["inhibitPut"] is False
    assert queue["status"] == {"currentDepth": 0}
    everything = admin.get("v2/admin/qmgr/QM1/queue/WEB.Q", params={"attributes": "*"}).json()["queue"][0]
    assert {"general", "storage", "applicationDefaults", "timestamps"} <= set(everything)
    assert admin.get("v2/admin/qmgr/QM1/queue", params={"name": "NONE.LIKE.THIS*"}).json() == {"queue": []}
    missing = admin.get("v2/admin/qmgr/QM1/queue/NOT.THERE")
    assert missing.status_code == 404 and missing.json()["error"][0]["reasonCode"] == 2085
    assert missing.json()["error"][0]["msgId"] == "MQWB0037E"
    bad = admin.get("v2/admin/qmgr/QM1/queue", params={"attributes": "no.such.thing.here"})
    assert bad.status_code == 400 and bad.json()["error"][0]["msgId"] == "MQWB0302E"


def test_mqsc_run_command_and_json(admin: httpx.Client) -> None:
    url = "v2/admin/action/qmgr/QM1/mqsc"
    made = admin.post(url, headers=CSRF, json={"type": "runCommand",
                                               "parameters": {"command": "DEFINE QLOCAL(WEB.MADE) MAXDEPTH(7)"}})
    assert made.status_code == 200
    assert made.json()["overallCompletionCode"] == 0
    assert made.json()["commandResponse"][0]["text"] == ["AMQ8006I: WebSphere MQ queue created."]
    shown = admin.post(url, headers=CSRF, json={"type": "runCommandJSON", "command": "display", "qualifier": "qlocal",
                                                "name": "WEB.MADE", "responseParameters": ["maxdepth", "descr"]})
    item = shown.json()["commandResponse"][0]
    assert item["completionCode"] == 0 and item["parameters"]["maxdepth"] == 7
    altered = admin.post(url, headers=CSRF, json={"type": "runCommandJSON", "command": "alter", "qualifier": "qlocal",
                                                  "name": "WEB.MADE", "parameters": {"descr": "Mixed Case (kept)"}})
    assert altered.json()["overallCompletionCode"] == 0, altered.json()
    queue = admin.get("v2/admin/qmgr/QM1/queue/WEB.MADE", params={"attributes": "general.description"}).json()
    assert queue["queue"][0]["general"] == {"description": "Mixed Case (kept)"}
    again = admin.post(url, headers=CSRF, json={"type": "runCommand",
                                                "parameters": {"command": "DEFINE QLOCAL(WEB.MADE)"}}).json()
    assert again["overallCompletionCode"] == 2 and again["overallReasonCode"] == 3008
    assert again["commandResponse"][0]["completionCode"] == 2


def test_put_browse_and_get_with_headers(admin: httpx.Client) -> None:
    url = "v2/messaging/qmgr/QM1/queue/WEB.Q/message"
    put = admin.post(url, content="hello from REST", headers={
        **CSRF, "content-type": "text/plain;charset=utf-8", "ibm-mq-md-correlationId": "ab" * 24,
        "ibm-mq-md-persistence": "persistent", "ibm-mq-md-expiry": "600000", "ibmmq-reply-to": "REPLY.Q@QM1"})
    assert put.status_code == 201, put.text
    message_id = put.headers["ibm-mq-md-messageId"]
    assert len(message_id) == 48
    browsed = admin.get(url)
    assert browsed.status_code == 200 and browsed.text == "hello from REST"
    assert browsed.headers["ibm-mq-md-correlationId"] == "ab" * 24
    assert browsed.headers["ibm-mq-md-persistence"] == "persistent"
    assert browsed.headers["ibm-mq-md-replyTo"] == "REPLY.Q@QM1"
    assert browsed.headers["ibm-mq-md-messageId"] == message_id
    depth = admin.get("v2/admin/qmgr/QM1/queue/WEB.Q", params={"status": "status.currentDepth"}).json()
    assert depth["queue"][0]["status"]["currentDepth"] == 1  # browse left it
    other = admin.delete(url, headers=CSRF, params={"correlationId": "cd" * 24})
    assert other.status_code == 204  # no message with that correlation id
    got = admin.delete(url, headers=CSRF, params={"correlationId": "ab" * 24})
    assert got.status_code == 200 and got.text == "hello from REST"
    assert admin.delete(url, headers=CSRF).status_code == 204


def test_get_waits_for_a_message(admin: httpx.Client, web: dict[str, Any]) -> None:
    url = "v2/messaging/qmgr/QM1/queue/WEB.GET/message"
    result: dict[str, httpx.Response] = {}

    def getter() -> None:
        with httpx.Client(base_url=web["base"], auth=(ADMIN.user, ADMIN.password), timeout=120) as client:
            result["got"] = client.delete(url, headers=CSRF, params={"wait": "60000"})

    thread = threading.Thread(target=getter)
    thread.start()
    # the getter's MQGET is waiting once the queue shows an input handle open
    wait_until(lambda: admin.get("v2/admin/qmgr/QM1/queue/WEB.GET", params={"status": "*"})
               .json()["queue"][0]["status"]["openInputCount"] == 1, "the REST get waiting on WEB.GET")
    assert admin.post(url, content="late", headers={**CSRF, "content-type": "text/plain"}).status_code == 201
    thread.join(120)
    assert result["got"].status_code == 200 and result["got"].text == "late"


def test_publish_on_a_topic(admin: httpx.Client) -> None:
    mqsc = admin.post("v2/admin/action/qmgr/QM1/mqsc", headers=CSRF, json={
        "type": "runCommand", "parameters": {"command": "DEFINE SUB('web.sub') TOPICSTR('web/news') DEST(WEB.PUB)"}})
    assert mqsc.json()["overallCompletionCode"] == 0, mqsc.json()
    subs = admin.get("v2/admin/qmgr/QM1/subscription", params={"attributes": "destination"}).json()["subscription"]
    sub = next(s for s in subs if s["name"] == "web.sub")
    assert sub["resolvedTopicString"] == "web/news" and sub["destination"]["queueName"] == "WEB.PUB"
    one = admin.get("v2/admin/qmgr/QM1/subscription/web.sub").json()["subscription"]
    assert [s["name"] for s in one] == ["web.sub"]
    published = admin.post("v2/messaging/qmgr/QM1/topic/web%2Fnews/message", content="extra!",
                           headers={**CSRF, "content-type": "text/plain"})
    assert published.status_code == 201, published.text
    got = admin.delete("v2/messaging/qmgr/QM1/queue/WEB.PUB/message", headers=CSRF, params={"wait": "5000"})
    assert got.status_code == 200 and got.text == "extra!"


def test_channels_with_status(admin: httpx.Client) -> None:
    channels = admin.get("v2/admin/qmgr/QM1/channel", params={"status": "status.state",
                                                               "attributes": "general.description"})
    assert channels.status_code == 200
    app_channel = next(c for c in channels.json()["channel"] if c["name"] == "DEV.APP.SVRCONN")
    assert app_channel["type"] == "serverConnection"
    assert app_channel["status"] == [{"state": "inactive"}]


def test_authentication_failures(web: dict[str, Any]) -> None:
    with httpx.Client(base_url=web["base"], timeout=60) as anonymous:
        none = anonymous.get("v2/admin/qmgr")
        assert none.status_code == 401 and none.headers["www-authenticate"].startswith("Basic")
        assert none.json()["error"][0]["msgId"] == "MQWB0104E"
        wrong = anonymous.get("v2/admin/qmgr/QM1/queue", auth=(ADMIN.user, "not-the-password"))
        assert wrong.status_code == 401 and wrong.json()["error"][0]["msgId"] == "MQWB0104E"
        assert anonymous.get("v2/admin/installation", auth=("nobody", "x")).status_code == 401
    with httpx.Client(base_url=web["base"], timeout=60, cookies={"LtpaToken2": "not-a-token"}) as lapsed_token:
        lapsed = lapsed_token.get("v2/admin/qmgr")  # a token the server did not issue, or has forgotten
        assert lapsed.status_code == 401 and lapsed.json()["error"][0]["msgId"] == "MQWB0112E"


def test_a_user_without_authority_gets_403_with_2035(web: dict[str, Any]) -> None:
    with httpx.Client(base_url=web["base"], auth=(APP.user, APP.password), timeout=60) as app:
        refused = app.get("v2/admin/qmgr/QM1/queue/WEB.Q")  # app may put and get, not display
        assert refused.status_code == 403, refused.text
        error = refused.json()["error"][0]
        assert (error["reasonCode"], error["completionCode"]) == (2035, 2)
        assert error["msgId"] == "MQWB0103E" and error["message"].startswith("MQWB0103E: Not authorized")
        # the messaging calls its authority allows work as that user
        put = app.post("v2/messaging/qmgr/QM1/queue/WEB.RAW/message", content="as app",
                       headers={**CSRF, "content-type": "text/plain"})
        assert put.status_code == 201
        assert app.delete("v2/messaging/qmgr/QM1/queue/WEB.RAW/message", headers=CSRF).text == "as app"


def test_token_login_and_logout(web: dict[str, Any]) -> None:
    with httpx.Client(base_url=web["base"], timeout=60) as client:
        bad = client.post("v1/login", headers=CSRF, json={"username": ADMIN.user, "password": "wrong"})
        assert bad.status_code == 401
        logged = client.post("v1/login", headers=CSRF, json={"username": ADMIN.user, "password": ADMIN.password})
        assert logged.status_code == 204 and "LtpaToken2" in client.cookies
        assert client.get("v1/login").json()["user"][0]["name"] == ADMIN.user
        assert client.get("v2/admin/qmgr/QM1/queue/WEB.Q").status_code == 200
        assert client.delete("v1/login", headers=CSRF).status_code == 204
        assert client.get("v2/admin/qmgr/QM1/queue/WEB.Q").status_code == 401


def test_bad_input_gets_ibm_errors_and_harms_nothing(admin: httpx.Client, web: dict[str, Any]) -> None:
    url = "v2/admin/action/qmgr/QM1/mqsc"
    no_csrf = admin.post(url, json={"type": "runCommand", "parameters": {"command": "DISPLAY QMGR"}})
    assert no_csrf.status_code == 403 and no_csrf.json()["error"][0]["msgId"] == "MQWB0100E"
    malformed = admin.post(url, headers={**CSRF, "content-type": "application/json"}, content=b"{not json")
    assert malformed.status_code == 400 and malformed.json()["error"][0]["msgId"] == "MQWB2004E"
    wrong_shape = admin.post(url, headers=CSRF, json={"type": "runCommand", "parameters": {"command": "A\nB"}})
    assert wrong_shape.status_code == 400
    media = admin.post(url, headers={**CSRF, "content-type": "text/plain"}, content=b"DISPLAY QMGR")
    assert media.status_code == 415
    huge = admin.post("v2/messaging/qmgr/QM1/queue/WEB.RAW/message", headers={**CSRF, "content-type": "text/plain"},
                      content=b"x" * (BODY_LIMIT + 1))
    assert huge.status_code == 413 and huge.json()["error"][0]["msgId"] == "MQWB2004E"
    chunked = admin.post("v2/messaging/qmgr/QM1/queue/WEB.RAW/message",
                         headers={**CSRF, "content-type": "text/plain"},
                         content=(b"y" * 16384 for _ in range(BODY_LIMIT // 16384 + 2)))  # no Content-Length
    assert chunked.status_code == 413 and chunked.json()["error"][0]["msgId"] == "MQWB2004E"
    unknown = admin.get("v2/no/such/resource")
    assert unknown.status_code == 404 and unknown.json()["error"][0]["msgId"] == "MQWB0000E"
    method = admin.put("v2/admin/qmgr", headers=CSRF)
    assert method.status_code == 405 and method.json()["error"][0]["msgId"] == "MQWB2005E"
    bad_header = admin.post("v2/messaging/qmgr/QM1/queue/WEB.RAW/message", content="x",
                            headers={**CSRF, "content-type": "text/plain", "ibm-mq-md-persistence": "sometimes"})
    assert bad_header.status_code == 400 and bad_header.json()["error"][0]["msgId"] == "MQWB0302E"
    bad_name = admin.get("v2/admin/qmgr/QM1/queue/BAD')NAME")
    assert bad_name.status_code == 400
    no_queue = admin.post("v2/messaging/qmgr/QM1/queue/NO.SUCH.Q/message", content="x",
                          headers={**CSRF, "content-type": "text/plain"})
    assert no_queue.status_code == 404, no_queue.text
    assert (no_queue.json()["error"][0]["msgId"], no_queue.json()["error"][0]["reasonCode"]) == ("MQWB0037E", 2085)
    media = admin.post("v2/messaging/qmgr/QM1/queue/WEB.RAW/message", content="x",
                       headers={**CSRF, "content-type": "image/png"})
    assert media.status_code == 415 and media.json()["error"][0]["msgId"] == "MQWB0306E"
    assert admin.get("v2/messaging/qmgr/QM1/queue/WEB.RAW/message").status_code == 204  # nothing was put
    # the queue manager is still there, and so is the web server
    assert {"name": "QM1", "state": "running"} in admin.get("v2/admin/qmgr").json()["qmgr"]
    assert process_alive(web["pid"])


def test_endmqweb_and_strmqweb_again(web: dict[str, Any]) -> None:
    """Last in the module: the server ends by endmqweb and starts again on a new port."""
    run_cli = web["run_cli"]
    end_web(run_cli, web["pid"])
    wait_until(lambda: not process_alive(web["pid"]), "the web server's process gone")
    assert run_cli("dspmqweb").stdout.strip() == "Server mqweb is not running."
    assert not (web["home"] / "web" / "endpoints.json").exists()
    base, pid = start_web(web["home"], run_cli)
    web["pid"] = pid
    with httpx.Client(base_url=base, auth=(ADMIN.user, ADMIN.password), timeout=60) as client:
        assert client.get("v2/admin/qmgr/QM1").json()["qmgr"][0]["state"] == "running"
