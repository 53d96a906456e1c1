"""The web server over TLS: ``setmqweb properties -k keyRepository`` names a key repository made
by ``mqlite mkcert`` (its personal certificate ``mqweb``); the REST API is then served on
httpsPort (0 here) with that certificate, and a client that trusts it calls the API."""

from __future__ import annotations

import json
import os
import signal
import ssl
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from helpers.credentials import ADMIN, add_user
from helpers.mqsc import RunCli
from helpers.qmgrs import QMgr
from mqlite.cli.state import process_alive
from mqlite.web.config import DEFAULT_LABEL


def test_rest_over_tls(mqlite_home: Path, run_cli: RunCli, qmgr_factory: Callable[..., QMgr]) -> None:
    qmgr_factory("QM1")
    add_user(mqlite_home, "QM1", ADMIN)
    keys = mqlite_home / "webkeys"
    made = run_cli("mkcert", "-r", str(keys), "--label", DEFAULT_LABEL, "--dn", "CN=localhost,O=mqlite")
    assert made.returncode == 0, made.stdout + made.stderr
    for key, value in (("httpHost", "127.0.0.1"), ("httpsPort", "0"), ("keyRepository", str(keys))):
        assert run_cli("setmqweb", "properties", "-k", key, "-v", value).returncode == 0
    started = run_cli("strmqweb")
    assert started.returncode == 0, started.stdout + started.stderr
    endpoints = json.loads((mqlite_home / "web" / "endpoints.json").read_text())
    try:
        assert endpoints["scheme"] == "https"
        assert endpoints["url"].startswith("https://127.0.0.1:")
        trust = ssl.create_default_context(cafile=str(keys / f"{DEFAULT_LABEL}.pem"))
        trust.check_hostname = False  # the certificate names CN=localhost; the chain is what is checked
        url = f"https://127.0.0.1:{endpoints['port']}/ibmmq/rest/v2/admin/qmgr/QM1"
        with httpx.Client(verify=trust, auth=(ADMIN.user, ADMIN.password), timeout=60) as client:
            assert client.get(url).json() == {"qmgr": [{"name": "QM1", "state": "running"}]}
        # a client with only the system's CAs does not trust it
        with httpx.Client(verify=True, timeout=60) as untrusting, pytest.raises(httpx.ConnectError):
            untrusting.get(url)
        shown = run_cli("dspmqweb")
        assert f"https://127.0.0.1:{endpoints['port']}/ibmmq/rest/" in shown.stdout
    finally:
        ended = run_cli("endmqweb")
        if process_alive(int(endpoints["pid"])):
            os.kill(int(endpoints["pid"]), signal.SIGKILL)
        assert ended.returncode == 0


def test_strmqweb_without_the_certificate_says_why(mqlite_home: Path, run_cli: RunCli) -> None:
    empty = mqlite_home / "nokeys"
    empty.mkdir()
    for key, value in (("httpHost", "127.0.0.1"), ("httpsPort", "0"), ("keyRepository", str(empty))):
        assert run_cli("setmqweb", "properties", "-k", key, "-v", value).returncode == 0
    started = run_cli("strmqweb")
    assert started.returncode == 1
    assert "no personal certificate 'mqweb'" in started.stdout + started.stderr
    assert run_cli("dspmqweb").returncode == 1
