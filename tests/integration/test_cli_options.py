"""The CLI's option handling without a queue manager: connection targets, names, authorities."""

from __future__ import annotations

from pathlib import Path

import pytest

from mqlite import paths
from mqlite.cli.common import CliError
from mqlite.cli.connection import parse_conn_info, resolve_target
from mqlite.cli.security import is_authority


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("127.0.0.1:1414", ("127.0.0.1", 1414)),
        ("localhost(1415)", ("localhost", 1415)),
        (" host.example.com(1) ", ("host.example.com", 1)),
        ("[::1]:1416", ("::1", 1416)),
    ],
)
def test_conn_info_forms(text: str, expected: tuple[str, int]) -> None:
    assert parse_conn_info(text) == expected


@pytest.mark.parametrize("text", ["localhost", "host:", "host:99999", "host(x)", ""])
def test_bad_conn_info(text: str) -> None:
    with pytest.raises(CliError):
        parse_conn_info(text)


def test_local_target_uses_the_default(mqlite_home: Path) -> None:
    with pytest.raises(CliError) as info:
        resolve_target(None, None, None)
    assert "MQRC_Q_MGR_NAME_ERROR (2058)" in info.value.message
    paths.qmgr_dir("QMD").mkdir(parents=True)
    paths.write_config("QMD", {"name": "QMD", "port": None, "created": "now"})
    paths.set_default_qmgr("QMD")
    target = resolve_target(None, None, None)
    assert target.qmgr == "QMD" and target.host is None


def test_client_target_from_option_and_mqserver(
    mqlite_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = resolve_target("QM1", "127.0.0.1:1500", None)
    assert (target.qmgr, target.host, target.port) == ("QM1", "127.0.0.1", 1500)
    monkeypatch.setenv("MQSERVER", "APP.SVRCONN/TCP/10.0.0.1(1600)")
    target = resolve_target(None, None, None)
    assert (target.host, target.port, target.channel) == ("10.0.0.1", 1600, "APP.SVRCONN")
    assert resolve_target(None, "h:1", None).host == "h"  # -c wins over MQSERVER
    monkeypatch.setenv("MQSERVER", "APP.SVRCONN/LU62/x")
    with pytest.raises(CliError):
        resolve_target(None, None, None)


def test_password_from_environment(mqlite_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MQLITE_PASSWORD", "s3cret")
    target = resolve_target("QM1", "127.0.0.1:1500", "alice")
    assert (target.user, target.password) == ("alice", "s3cret")


def test_authority_tokens() -> None:
    assert is_authority("+pub") and is_authority("-sub") and is_authority("+CTRLX")
    assert not is_authority("-p") and not is_authority("-m") and not is_authority("+nonsense")
