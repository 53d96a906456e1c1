"""TLS on message channels (issue 15 item 5): SSLCIPH on both ends, each queue manager presenting
its own certificate from its key repository, SSLPEER filtering the partner, SSLPEERMAP admitting
it, and a refusal with IBM's message when one end speaks TLS and the other does not."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from helpers.mqsc import depth, mqsc
from helpers.qmgrs import QMgr
from helpers.waiting import wait_until
from mqlite import paths

pytest.importorskip("cryptography", reason="mkcert needs the cryptography package")

RunCli = Callable[..., Any]
CIPHER = "ANY_TLS12_OR_HIGHER"






@pytest.fixture
def certified(qmgr_factory: Callable[..., QMgr], run_cli: RunCli, tmp_path: Path) -> tuple[QMgr, QMgr]:
    """QM1 and QM2, each with a certificate signed by one CA both trust."""
    qm1, qm2 = qmgr_factory("QM1"), qmgr_factory("QM2")
    ca = tmp_path / "pki" / "ca"
    for args in (("-r", str(ca), "--label", "ca", "--dn", "CN=Test CA,O=mqlite"),
                 ("-m", "QM1", "--dn", "CN=QM1,O=mqlite", "--ca", "ca", "--ca-repository", str(ca)),
                 ("-m", "QM2", "--dn", "CN=QM2,O=mqlite", "--ca", "ca", "--ca-repository", str(ca))):
        done = run_cli("mkcert", *args)
        assert done.returncode == 0, done.stdout + done.stderr
    return qm1, qm2


def link(run_cli: RunCli, qm1: QMgr, qm2: QMgr, sender_tls: str, receiver_tls: str) -> None:
    mqsc(run_cli, qm1, f"DEFINE QLOCAL(QM2) USAGE(XMITQ)\n"
                       f"DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(SDR) CONNAME('127.0.0.1({qm2.port})') XMITQ(QM2) "
                       f"SHORTRTY(0) {sender_tls}\n"
                       "DEFINE QREMOTE(TO.APP.IN) RNAME(APP.IN) RQMNAME(QM2) XMITQ(QM2)\n")
    mqsc(run_cli, qm2, f"DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(RCVR) {receiver_tls}\nDEFINE QLOCAL(APP.IN)\n"
                       # the partner is admitted by its certificate, not by the name it gives
                       "SET CHLAUTH(QM1.TO.QM2) TYPE(SSLPEERMAP) SSLPEER('CN=QM1,O=mqlite') USERSRC(CHANNEL)\n")


def test_messages_cross_a_tls_channel_and_each_end_checks_the_other(certified: tuple[QMgr, QMgr],
                                                                   run_cli: RunCli) -> None:
    qm1, qm2 = certified
    link(run_cli, qm1, qm2, f"SSLCIPH({CIPHER}) SSLPEER('CN=QM2')",
         f"SSLCIPH({CIPHER}) SSLCAUTH(REQUIRED) SSLPEER('CN=QM1')")
    run_cli("put", "-m", "QM1", "TO.APP.IN", "--persistent", input="over TLS\nand again\n")
    wait_until(lambda: depth(run_cli, qm2, "APP.IN") == 2, "both across over TLS", timeout=60)
    received = mqsc(run_cli, qm2, "DISPLAY CHSTATUS(QM1.TO.QM2) ALL\n")
    assert "SSLPEER(CN=QM1,O=mqlite)" in received and re.search(r"SECPROT\(TLSV1[23]\)", received), received
    sent = mqsc(run_cli, qm1, "DISPLAY CHSTATUS(QM1.TO.QM2) ALL\n")
    assert "SSLPEER(CN=QM2,O=mqlite)" in sent, sent


def test_tls_on_one_end_only_is_refused_with_ibms_message(certified: tuple[QMgr, QMgr], run_cli: RunCli) -> None:
    qm1, qm2 = certified
    link(run_cli, qm1, qm2, "", f"SSLCIPH({CIPHER})")  # a plain sender, a TLS receiver
    run_cli("put", "-m", "QM1", "TO.APP.IN", input="in plain text\n")
    wait_until(lambda: "AMQ9639E" in paths.error_log_path(qm2.name).read_text(), "QM2 refuses plain text")
    assert depth(run_cli, qm2, "APP.IN") == 0
    mqsc(run_cli, qm1, f"STOP CHANNEL(QM1.TO.QM2)\nALTER CHANNEL(QM1.TO.QM2) CHLTYPE(SDR) SSLCIPH({CIPHER}) "
                       "SSLPEER('CN=SOMEONE ELSE')\nSTART CHANNEL(QM1.TO.QM2)\n")
    wait_until(lambda: "AMQ9636E" in paths.error_log_path(qm1.name).read_text(), "QM1 refuses QM2's certificate")
    assert "STATUS(STOPPED)" in mqsc(run_cli, qm1, "DISPLAY CHSTATUS(QM1.TO.QM2)\n", ok=False)
    mqsc(run_cli, qm1, "ALTER CHANNEL(QM1.TO.QM2) CHLTYPE(SDR) SSLPEER('CN=QM2')\nSTART CHANNEL(QM1.TO.QM2)\n")
    wait_until(lambda: depth(run_cli, qm2, "APP.IN") == 1, "through once both ends agree", timeout=60)
