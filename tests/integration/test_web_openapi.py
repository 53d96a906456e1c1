"""The OpenAPI document the web server serves, checked against the server itself with
schemathesis: each operation called with generated requests (a few examples each, so the module
stays well under a minute), every response checked for its documented status, media type and
schema, and no request answered with a server error. A real queue manager and the real web
server process (``mqlite strmqweb``) are behind it."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.config._operations import OperationConfig, OperationsConfig
from schemathesis.specs.openapi.checks import ignored_auth, positive_data_acceptance

from helpers.credentials import ADMIN, add_user
from helpers.module_qmgrs import started
from mqlite.cli.state import process_alive
from mqlite.web import openapi


@pytest.fixture(scope="module")
def web_base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    home = tmp_path_factory.mktemp("webapi") / "home"
    with started(home, ["QM1"]) as (_, run_cli):
        add_user(home, "QM1", ADMIN)
        assert run_cli("runmqsc", "QM1", input="DEFINE QLOCAL(WEB.Q)\n").returncode == 0
        for key, value in (("httpHost", "127.0.0.1"), ("httpPort", "0")):
            assert run_cli("setmqweb", "properties", "-k", key, "-v", value).returncode == 0
        result = run_cli("strmqweb")
        assert result.returncode == 0, result.stdout + result.stderr
        endpoints = json.loads((home / "web" / "endpoints.json").read_text())
        try:
            yield f"{endpoints['scheme']}://127.0.0.1:{endpoints['port']}"
        finally:
            run_cli("endmqweb")
            assert not process_alive(int(endpoints["pid"]))


@pytest.fixture(scope="module")
def api_schema(web_base: str) -> Any:
    served = httpx.get(f"{web_base}/ibmmq/rest/v2/openapi.json", timeout=60).json()
    assert served == openapi.document()
    schema = schemathesis.openapi.from_dict(served)
    schema.config.base_url = web_base
    # the coverage phase makes a case of every attribute of a create or change body (about 500 for
    # a queue): the generated examples are enough for the object operations, and keep the module
    # within its budget
    schema.config.operations = OperationsConfig(operations=[OperationConfig.from_dict({
        "include-name-regex": r"^(POST|PATCH|DELETE) /ibmmq/rest/v2/admin/qmgr/\{qmgrName\}/(queue|subscription)",
        "phases": {"coverage": {"enabled": False}}})])
    return schema


schema = schemathesis.pytest.from_fixture("api_schema")


@schema.parametrize()
@settings(max_examples=6, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
def test_the_server_keeps_its_documented_contract(case: Any, web_base: str) -> None:
    if case.query and "wait" in case.query:
        with contextlib.suppress(TypeError, ValueError):  # generated waits could be hours
            case.query["wait"] = min(int(case.query["wait"]), 50)
    response = case.call(base_url=web_base, auth=(ADMIN.user, ADMIN.password))
    # ignored_auth sends its own bad credentials, which the auth= given here replaces; what wrong or
    # missing credentials get is tested in test_web_rest.py
    excluded = [ignored_auth]
    if case.method in ("POST", "PATCH") and "/admin/qmgr/" in case.path:
        # a schema-valid create or change can still be refused (400): a value out of the queue
        # manager's range, a body name that is not the URL's; test_web_rest_objects.py has those
        excluded.append(positive_data_acceptance)
    case.validate_response(response, excluded_checks=excluded)
    assert response.status_code < 500, response.text


def test_the_queue_manager_is_unharmed(web_base: str) -> None:
    """After every generated request (module order: this runs last), the queue manager still runs
    and answers through the web server."""
    with httpx.Client(base_url=web_base, auth=(ADMIN.user, ADMIN.password), timeout=60) as client:
        assert client.get("/ibmmq/rest/v2/admin/qmgr/QM1").json() == {"qmgr": [{"name": "QM1", "state": "running"}]}
        depth = client.get("/ibmmq/rest/v2/admin/qmgr/QM1/queue/WEB.Q", params={"status": "*"})
        assert depth.status_code == 200
