"""The REST API's object resources over real HTTP (IBM's v2 POST/PATCH/DELETE of queues and
subscriptions, channels' 405), CORS, and the queue handles the web server keeps between messaging
calls: ``mqlite strmqweb`` as its own process (port 0), a real queue manager behind it, every
call as a user of its users file; ended by pid at the end."""

from __future__ import annotations

import json
import os
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from helpers.credentials import ADMIN, APP, add_user
from helpers.module_qmgrs import started
from helpers.mqsc import RunCli
from mqlite.cli.state import process_alive

CSRF = {"ibm-mq-rest-csrf-token": "x"}
LISTED = "https://console.example"
QUEUES = "v2/admin/qmgr/QM1/queue"
SUBS = "v2/admin/qmgr/QM1/subscription"


def start_web(home: Path, run_cli: RunCli, **properties: str) -> tuple[str, int]:
    for key, value in {"httpHost": "127.0.0.1", "httpPort": "0", **properties}.items():
        result = run_cli("setmqweb", "properties", "-k", key, "-v", value)
        assert result.returncode == 0, result.stdout + result.stderr
    result = run_cli("strmqweb")
    assert result.returncode == 0, result.stdout + result.stderr
    endpoints = json.loads((home / "web" / "endpoints.json").read_text())
    return endpoints["url"].removesuffix("v2/"), int(endpoints["pid"])


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    home = tmp_path_factory.mktemp("webobj") / "home"
    with started(home, ["QM1"]) as (_, run_cli):
        add_user(home, "QM1", ADMIN)
        assert run_cli("runmqsc", "QM1", input="DEFINE QLOCAL(OBJ.DEST)\n").returncode == 0
        base, pid = start_web(home, run_cli, mqRestCorsAllowedOrigins=f"{LISTED},https://other.example",
                              mqRestCorsMaxAgeInSeconds="600")
        try:
            yield {"base": base, "pid": pid, "home": home, "run_cli": run_cli}
        finally:
            result = run_cli("endmqweb")
            if process_alive(pid):
                os.kill(pid, signal.SIGKILL)
            assert result.returncode == 0, result.stdout + result.stderr


@pytest.fixture
def admin(web: dict[str, Any]) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=web["base"], auth=(ADMIN.user, ADMIN.password), timeout=60) as client:
        yield client


def mqsc_display(run_cli: RunCli, command: str) -> str:
    result = run_cli("runmqsc", "QM1", input=command + "\n")
    return str(result.stdout)


def error_of(response: httpx.Response) -> dict[str, Any]:
    item: dict[str, Any] = response.json()["error"][0]
    return item


def test_queue_create_change_delete(admin: httpx.Client, web: dict[str, Any]) -> None:
    made = admin.post(QUEUES, headers=CSRF, json={
        "name": "OBJ.LOCAL", "type": "local", "general": {"description": "Made by REST", "inhibitPut": False},
        "storage": {"maximumDepth": 77, "messageDeliverySequence": "fifo"},
        "applicationDefaults": {"persistent": True, "sharedInput": True}})
    assert made.status_code == 201, made.text
    assert made.headers["location"].endswith("/ibmmq/rest/v2/admin/qmgr/QM1/queue/OBJ.LOCAL")
    shown = admin.get(f"{QUEUES}/OBJ.LOCAL", params={"attributes": "*"}).json()["queue"][0]
    assert shown["general"]["description"] == "Made by REST"
    assert shown["storage"]["maximumDepth"] == 77 and shown["storage"]["messageDeliverySequence"] == "fifo"
    assert shown["applicationDefaults"]["persistent"] is True
    assert "MAXDEPTH(77)" in mqsc_display(web["run_cli"], "DISPLAY QLOCAL(OBJ.LOCAL) MAXDEPTH")
    changed = admin.patch(f"{QUEUES}/OBJ.LOCAL", headers=CSRF,
                          json={"storage": {"maximumDepth": 5}, "general": {"inhibitGet": True}})
    assert changed.status_code == 204, changed.text
    shown = admin.get(f"{QUEUES}/OBJ.LOCAL", params={"attributes": "storage,general"}).json()["queue"][0]
    assert shown["storage"]["maximumDepth"] == 5 and shown["general"]["inhibitGet"] is True
    assert "GET(DISABLED)" in mqsc_display(web["run_cli"], "DISPLAY QLOCAL(OBJ.LOCAL) GET")
    # an alias, a remote and a model queue, and a copy of the local one (like=)
    for body in ({"name": "OBJ.ALIAS", "type": "alias", "alias": {"targetName": "OBJ.LOCAL"}},
                 {"name": "OBJ.REMOTE", "type": "remote",
                  "remote": {"queueName": "Q", "qmgrName": "QM9", "transmissionQueueName": "OBJ.DEST"}},
                 {"name": "OBJ.MODEL", "type": "model", "model": {"type": "permanentDynamic"}}):
        assert admin.post(QUEUES, headers=CSRF, json=body).status_code == 201, body
    alias = admin.get(f"{QUEUES}/OBJ.ALIAS", params={"attributes": "alias"}).json()["queue"][0]
    assert alias["type"] == "alias" and alias["alias"]["targetName"] == "OBJ.LOCAL"
    remote = admin.get(f"{QUEUES}/OBJ.REMOTE", params={"attributes": "remote"}).json()["queue"][0]
    assert remote["remote"] == {"queueName": "Q", "qmgrName": "QM9", "transmissionQueueName": "OBJ.DEST"}
    assert admin.get(f"{QUEUES}/OBJ.MODEL", params={"attributes": "model"}).json()["queue"][0]["model"] == {
        "type": "permanentDynamic"}
    copied = admin.post(QUEUES, headers=CSRF, params={"like": "OBJ.LOCAL"}, json={"name": "OBJ.COPY"})
    assert copied.status_code == 201
    assert admin.get(f"{QUEUES}/OBJ.COPY", params={"attributes": "storage"}).json()["queue"][0][
        "storage"]["maximumDepth"] == 5
    no_model = admin.post(QUEUES, headers=CSRF, params={"like": "OBJ.NONE"}, json={"name": "OBJ.COPY2"})
    assert no_model.status_code == 404 and "OBJ.NONE" in error_of(no_model)["message"]
    exists = admin.post(QUEUES, headers=CSRF, params={"noReplace": ""}, json={"name": "OBJ.COPY"})
    assert exists.status_code == 400 and error_of(exists)["reasonCode"] == 4001
    # DELETE: NOPURGE unless ?purge; a queue with a message stays
    put = admin.post("v2/messaging/qmgr/QM1/queue/OBJ.COPY/message", content="x",
                     headers={**CSRF, "content-type": "text/plain"})
    assert put.status_code == 201
    kept = admin.delete(f"{QUEUES}/OBJ.COPY", headers=CSRF)
    assert kept.status_code == 400 and error_of(kept)["reasonCode"] == 2055  # MQRC_Q_NOT_EMPTY
    assert admin.delete(f"{QUEUES}/OBJ.COPY", headers=CSRF, params={"purge": "", "keepAuthorityRecords": ""}
                        ).status_code == 204
    for name in ("OBJ.ALIAS", "OBJ.REMOTE", "OBJ.MODEL", "OBJ.LOCAL"):
        assert admin.delete(f"{QUEUES}/{name}", headers=CSRF).status_code == 204, name
    gone = admin.get(f"{QUEUES}/OBJ.LOCAL")
    assert gone.status_code == 404 and error_of(gone)["reasonCode"] == 2085
    assert "AMQ8147E" in mqsc_display(web["run_cli"], "DISPLAY QLOCAL(OBJ.LOCAL)")
    missing = admin.delete(f"{QUEUES}/OBJ.LOCAL", headers=CSRF)
    assert missing.status_code == 404 and error_of(missing)["reasonCode"] == 2085
    assert admin.patch(f"{QUEUES}/OBJ.LOCAL", headers=CSRF, json={}).status_code == 404


def test_subscription_create_change_delete(admin: httpx.Client, web: dict[str, Any]) -> None:
    made = admin.post(SUBS, headers=CSRF, json={
        "name": "obj sub", "topicString": "obj/news", "destination": {"queueName": "OBJ.DEST"},
        "user": {"data": "first"}})
    assert made.status_code == 201, made.text
    assert made.headers["location"].endswith("/subscription/obj%20sub")
    shown = admin.get(f"{SUBS}/obj sub", params={"attributes": "*"}).json()["subscription"][0]
    assert shown["topicString"] == "obj/news" and shown["destination"]["queueName"] == "OBJ.DEST"
    assert shown["user"]["data"] == "first"
    changed = admin.patch(f"{SUBS}/obj sub", headers=CSRF, json={"user": {"data": "second"}})
    assert changed.status_code == 204, changed.text
    assert "USERDATA(second)" in mqsc_display(web["run_cli"], "DISPLAY SUB('obj sub') USERDATA")
    cannot = admin.patch(f"{SUBS}/obj sub", headers=CSRF, json={"topicString": "other"})
    assert cannot.status_code == 400 and error_of(cannot)["msgId"] == "MQWB2004E"
    assert admin.delete(f"{SUBS}/obj sub", headers=CSRF).status_code == 204
    assert admin.get(f"{SUBS}/obj sub").status_code == 404
    assert "AMQ8147E" in mqsc_display(web["run_cli"], "DISPLAY SUB('obj sub')")


@pytest.mark.parametrize(("body", "names"), [
    ({"name": "OBJ.BAD", "storage": {"noSuchThing": 1}}, "storage.noSuchThing"),  # unknown attribute
    ({"name": "OBJ.BAD", "noSuchGroup": {}}, "noSuchGroup"),
    ({"name": "OBJ.BAD", "storage": {"maximumDepth": "deep!"}}, "storage.maximumDepth"),  # wrong type
    ({"name": "OBJ.BAD", "general": {"inhibitPut": "yes"}}, "general.inhibitPut"),
    ({"name": "OBJ.BAD", "storage": 5}, "storage"),
    ({"type": "local"}, "name"),  # missing name
    ({"name": "Q" * 49}, "48"),  # name too long
    ({"name": "BAD'NAME"}, "name"),
    ({"name": "OBJ.BAD", "type": "cluster"}, "type"),
])
def test_bad_queue_bodies_get_400(admin: httpx.Client, body: dict[str, Any], names: str) -> None:
    refused = admin.post(QUEUES, headers=CSRF, json=body)
    assert refused.status_code == 400, refused.text
    assert error_of(refused)["msgId"] == "MQWB2004E" and names in error_of(refused)["explanation"]
    assert admin.get(f"{QUEUES}/OBJ.BAD").status_code == 404  # nothing was made


def test_bad_values_the_queue_manager_refuses_keep_its_reason(admin: httpx.Client) -> None:
    refused = admin.post(QUEUES, headers=CSRF, json={"name": "OBJ.BAD", "storage": {"maximumDepth": -5}})
    assert refused.status_code == 400, refused.text
    error = error_of(refused)
    assert error["msgId"] == "MQWB0004E" and error["completionCode"] == 2 and error["reasonCode"] > 0
    keyword = admin.post(QUEUES, headers=CSRF, json={"name": "OBJ.BAD",
                                                     "storage": {"messageDeliverySequence": "sideways"}})
    assert keyword.status_code == 400 and error_of(keyword)["reasonCode"] > 0
    assert admin.get(f"{QUEUES}/OBJ.BAD").status_code == 404
    no_topic = admin.post(SUBS, headers=CSRF, json={"name": "s"})
    assert no_topic.status_code == 400 and error_of(no_topic)["msgId"] == "MQWB2004E"
    not_json = admin.post(QUEUES, headers={**CSRF, "content-type": "application/json"}, content=b"[1, 2]")
    assert not_json.status_code == 400


def test_channels_have_get_only(admin: httpx.Client) -> None:
    for method in ("POST", "PATCH", "DELETE"):
        path = "v2/admin/qmgr/QM1/channel" + ("" if method == "POST" else "/DEV.APP.SVRCONN")
        refused = admin.request(method, path, headers=CSRF, json={"name": "X"})
        assert refused.status_code == 405 and error_of(refused)["msgId"] == "MQWB2005E", method
        assert "GET" in refused.headers["allow"]


def test_no_authority_is_403_with_2035(web: dict[str, Any]) -> None:
    with httpx.Client(base_url=web["base"], auth=(APP.user, APP.password), timeout=60) as app:
        for refused in (app.post(QUEUES, headers=CSRF, json={"name": "OBJ.APP"}),
                        app.patch(f"{QUEUES}/OBJ.DEST", headers=CSRF, json={"storage": {"maximumDepth": 1}}),
                        app.delete(f"{QUEUES}/OBJ.DEST", headers=CSRF),
                        app.post(SUBS, headers=CSRF, json={"name": "app sub", "topicString": "a"})):
            assert refused.status_code == 403, refused.text
            assert (error_of(refused)["reasonCode"], error_of(refused)["completionCode"]) == (2035, 2)
            assert error_of(refused)["msgId"] == "MQWB0103E"
            assert error_of(refused)["message"].startswith("MQWB0103E: Not authorized to ")


def test_missing_csrf_header_is_403(admin: httpx.Client) -> None:
    for refused in (admin.post(QUEUES, json={"name": "OBJ.CSRF"}),
                    admin.patch(f"{QUEUES}/OBJ.DEST", json={}),
                    admin.delete(f"{QUEUES}/OBJ.DEST"),
                    admin.delete(f"{SUBS}/x")):
        assert refused.status_code == 403 and error_of(refused)["msgId"] == "MQWB0100E"
    assert admin.get(f"{QUEUES}/OBJ.DEST").status_code == 200  # still there


def test_cors_for_listed_and_unlisted_origins(admin: httpx.Client, web: dict[str, Any]) -> None:
    ask = {"access-control-request-method": "POST",
           "access-control-request-headers": "content-type, ibm-mq-rest-csrf-token, authorization"}
    listed = httpx.options(f"{web['base']}{QUEUES}", headers={"origin": LISTED, **ask})
    assert listed.status_code == 200
    assert listed.headers["access-control-allow-origin"] == LISTED
    assert listed.headers["access-control-allow-credentials"] == "true"
    assert "ibm-mq-rest-csrf-token" in listed.headers["access-control-allow-headers"]
    assert "PATCH" in listed.headers["access-control-allow-methods"]
    assert listed.headers["access-control-max-age"] == "600"
    unlisted = httpx.options(f"{web['base']}{QUEUES}", headers={"origin": "https://evil.example", **ask})
    assert not any(k.startswith("access-control-") for k in unlisted.headers)
    got = admin.get(f"{QUEUES}/OBJ.DEST", headers={"origin": LISTED})
    assert got.headers["access-control-allow-origin"] == LISTED
    assert "ibm-mq-md-messageId" in got.headers["access-control-expose-headers"]
    other = admin.get(f"{QUEUES}/OBJ.DEST", headers={"origin": "https://evil.example"})
    assert other.status_code == 200 and "access-control-allow-origin" not in other.headers
    props = web["run_cli"]("dspmqweb", "properties", "-a").stdout
    assert f'mqRestCorsAllowedOrigins="{LISTED},https://other.example"' in props
    assert 'mqRestCorsMaxAgeInSeconds="600"' in props


def test_config_event_of_a_rest_create(admin: httpx.Client) -> None:
    events = f"{QUEUES}/SYSTEM.ADMIN.CONFIG.EVENT"

    def depth() -> int:
        value: int = admin.get(events, params={"status": "status.currentDepth"}).json()["queue"][0][
            "status"]["currentDepth"]
        return value

    mqsc = "v2/admin/action/qmgr/QM1/mqsc"
    assert admin.post(mqsc, headers=CSRF, json={"type": "runCommand", "parameters": {
        "command": "ALTER QMGR CONFIGEV(ENABLED)"}}).json()["overallCompletionCode"] == 0
    try:
        before = depth()
        assert admin.post(QUEUES, headers=CSRF, json={"name": "OBJ.EVENT"}).status_code == 201
        assert depth() == before + 1  # Create object (MQRC_CONFIG_CREATE_OBJECT)
        browsed = admin.get("v2/admin/qmgr/QM1/queue/OBJ.EVENT").status_code
        assert browsed == 200
    finally:
        admin.post(mqsc, headers=CSRF, json={"type": "runCommand", "parameters": {
            "command": "ALTER QMGR CONFIGEV(DISABLED)"}})
        admin.delete(f"{QUEUES}/OBJ.EVENT", headers=CSRF)


def test_kept_queue_handle_after_the_queue_is_deleted(admin: httpx.Client, web: dict[str, Any]) -> None:
    assert admin.post(QUEUES, headers=CSRF, json={"name": "OBJ.KEPT"}).status_code == 201
    url = "v2/messaging/qmgr/QM1/queue/OBJ.KEPT/message"
    text = {**CSRF, "content-type": "text/plain"}
    for i in range(3):
        assert admin.post(url, content=f"m{i}", headers=text).status_code == 201
    status = admin.get(f"{QUEUES}/OBJ.KEPT", params={"status": "*"}).json()["queue"][0]["status"]
    assert status["currentDepth"] == 3 and status["openOutputCount"] == 1  # one handle, kept
    deleted = admin.post("v2/admin/action/qmgr/QM1/mqsc", headers=CSRF, json={
        "type": "runCommand", "parameters": {"command": "DELETE QLOCAL(OBJ.KEPT) PURGE"}})
    assert deleted.json()["overallCompletionCode"] == 0, deleted.json()
    gone = admin.post(url, content="m3", headers=text)
    assert gone.status_code == 404 and error_of(gone)["reasonCode"] == 2085
    assert admin.post(QUEUES, headers=CSRF, json={"name": "OBJ.KEPT"}).status_code == 201
    assert admin.post(url, content="again", headers=text).status_code == 201
    got = admin.delete(url, headers=CSRF)
    assert got.status_code == 200 and got.text == "again"
    # runmqsc is another application: the idle connection's handles hold the queue open, as IBM's
    assert "AMQ8148E" in mqsc_display(web["run_cli"], "DELETE QLOCAL(OBJ.KEPT)")
    assert admin.delete(f"{QUEUES}/OBJ.KEPT", headers=CSRF).status_code == 204  # its kept handles let go


def test_a_connection_keeps_at_most_16_queue_handles(admin: httpx.Client, web: dict[str, Any]) -> None:
    names = [f"OBJ.MANY.{i:02d}" for i in range(17)]
    script = "".join(f"DEFINE QLOCAL({name})\n" for name in names)
    assert web["run_cli"]("runmqsc", "QM1", input=script).returncode == 0
    for name in names:  # one caller, one request at a time: one connection
        put = admin.post(f"v2/messaging/qmgr/QM1/queue/{name}/message", content="x",
                         headers={**CSRF, "content-type": "text/plain"})
        assert put.status_code == 201

    def output_count(name: str) -> int:
        count: int = admin.get(f"{QUEUES}/{name}", params={"status": "status.openOutputCount"}).json()[
            "queue"][0]["status"]["openOutputCount"]
        return count

    assert output_count(names[0]) == 0 and output_count(names[1]) == 1 and output_count(names[-1]) == 1
    for name in names:
        assert admin.delete(f"{QUEUES}/{name}", headers=CSRF, params={"purge": ""}).status_code == 204


def test_an_alias_handle_is_not_kept(admin: httpx.Client, web: dict[str, Any]) -> None:
    """An open alias may be deleted or retargeted: its REST puts open and close it each time, so
    the next put after a runmqsc DELETE QALIAS finds it gone."""
    assert admin.post(QUEUES, headers=CSRF, json={"name": "OBJ.AL", "type": "alias",
                                                  "alias": {"targetName": "OBJ.DEST"}}).status_code == 201
    url = "v2/messaging/qmgr/QM1/queue/OBJ.AL/message"
    text = {**CSRF, "content-type": "text/plain"}
    assert admin.post(url, content="a", headers=text).status_code == 201
    status = admin.get(f"{QUEUES}/OBJ.DEST", params={"status": "*"}).json()["queue"][0]["status"]
    assert status["openOutputCount"] == 0
    assert "AMQ8007I" in mqsc_display(web["run_cli"], "DELETE QALIAS(OBJ.AL)")
    gone = admin.post(url, content="b", headers=text)
    assert gone.status_code == 404 and error_of(gone)["reasonCode"] == 2085
    got = admin.delete("v2/messaging/qmgr/QM1/queue/OBJ.DEST/message", headers=CSRF)
    assert got.status_code == 200 and got.text == "a"
