"""The web application's own rules, in process (no queue manager is reached): the extra-routes
hook, IBM's error bodies for unknown paths and methods, the CSRF header, the body limit, the
settings of ``setmqweb`` and the OpenAPI document's paths against the routes."""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from mqlite.web import config, openapi
from mqlite.web.app import create_app
from mqlite.web.config import WebConfig

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


async def hello(request: Request) -> Response:
    return PlainTextResponse("hello")


@pytest.fixture
def client(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    monkeypatch.setenv("MQLITE_HOME", str(tmp_path))  # an installation with no queue managers
    app = create_app(WebConfig(maxRequestBodySize=100), extra_routes=[Route("/extra", hello, methods=["GET", "POST"])])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with TestClient(app) as test_client:
            yield test_client


def test_extra_routes_are_served(client: TestClient) -> None:
    assert client.get("/extra").text == "hello"


def test_unknown_paths_and_methods_get_ibm_errors(client: TestClient) -> None:
    missing = client.get("/nothing/here")
    assert missing.status_code == 404 and missing.json()["error"][0]["msgId"] == "MQWB0000E"
    method = client.patch("/ibmmq/rest/v2/admin/qmgr", headers={"ibm-mq-rest-csrf-token": "1"})
    assert method.status_code == 405 and method.json()["error"][0]["msgId"] == "MQWB2005E"


def test_csrf_header_and_body_limit(client: TestClient) -> None:
    refused = client.post("/extra")
    assert refused.status_code == 403 and refused.json()["error"][0]["msgId"] == "MQWB0100E"
    assert client.post("/extra", headers={"ibm-mq-rest-csrf-token": ""}).text == "hello"  # any value
    big = client.post("/ibmmq/rest/v1/login", headers={"ibm-mq-rest-csrf-token": "1"}, content=b"x" * 101)
    assert big.status_code == 413 and big.json()["error"][0]["msgId"] == "MQWB2004E"


def test_no_queue_manager_means_no_login(client: TestClient) -> None:
    login = client.post("/ibmmq/rest/v1/login", headers={"ibm-mq-rest-csrf-token": "1"},
                        json={"username": "u", "password": "p"})
    assert login.status_code == 401
    assert client.get("/ibmmq/rest/v2/admin/qmgr", auth=("u", "p")).status_code == 401


def test_settings() -> None:
    cfg = config.with_property(WebConfig(), "httpPort", "0")
    assert cfg.port == 0 and not cfg.tls
    tls = config.with_property(cfg, "keyRepository", "/some/dir")
    assert tls.tls and tls.port == config.DEFAULT_HTTPS_PORT
    for key, value in (("httpPort", "70000"), ("nope", "1"), ("maxRequestBodySize", "0"), ("httpsPort", "x")):
        with pytest.raises(ValueError):
            config.with_property(WebConfig(), key, value)


def test_openapi_paths_are_the_routes(client: TestClient) -> None:
    served = client.get("/ibmmq/rest/v2/openapi.json").json()
    assert served == openapi.document()
    app_paths = {re.sub(r"\{[^}:]+(:path)?\}", "{}", r.path) for r in client.app.routes  # type: ignore[attr-defined]
                 if r.path.startswith("/ibmmq/rest/")}
    doc_paths = {re.sub(r"\{[^}]+\}", "{}", p) for p in served["paths"]}
    assert doc_paths == app_paths
