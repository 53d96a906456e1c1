"""TLS for native client connections, over real TLS on loopback: one port for plain and TLS,
certificates from ``mqlite mkcert`` in key repositories, every refusal with its reason code and
one error-log line, and the queue manager serving others after each refusal (issue 14, items 8
and 9)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import mqlite
from helpers.credentials import APP, add_user
from helpers.qmgrs import QMgr
from helpers.waiting import wait_until
from mqlite import aio

pytest.importorskip("cryptography", reason="mkcert needs the cryptography package")

ANY = "ANY_TLS12_OR_HIGHER"


@dataclass(frozen=True)
class Pki:
    """A CA, a queue manager certificate it signed, and client key repositories."""

    qmgr: QMgr
    root: Path
    run: Callable[..., Any]

    def client(self, name: str, dn: str, *extra: str, ca: str = "ca") -> Path:
        """A client key repository with personal certificate ``app`` signed by ``ca``."""
        directory = self.root / name
        self.mkcert("-r", str(directory), "--label", "app", "--dn", dn, "--ca", ca,
                    "--ca-repository", str(self.root / ca), *extra)
        return directory

    def mkcert(self, *args: str) -> None:
        done = self.run("mkcert", *args)
        assert done.returncode == 0, done.stdout + done.stderr

    def errors(self, code: str) -> list[str]:
        log = self.qmgr.home / "qmgrs" / self.qmgr.name / "AMQERR01.LOG"
        return [line for line in log.read_text(errors="replace").splitlines() if line.startswith(code)]

    def connect(self, repository: Path | None, **kwargs: Any) -> Any:
        options: dict[str, Any] = {"ssl_cipher_spec": ANY, "cert_label": "app"}
        options.update(kwargs)
        return mqlite.connect("QM1", host="127.0.0.1", port=self.qmgr.port,
                              key_repository=str(repository) if repository else None, **APP.kwargs, **options)


@pytest.fixture
def pki(qmgr_factory: Callable[..., QMgr], run_cli: Callable[..., Any], tmp_path: Path) -> Pki:
    run_cli("crtmqm", "-p", "0", "QM1")
    add_user(tmp_path / "mqhome", "QM1", APP)
    pki = Pki(QMgr("QM1", tmp_path / "mqhome"), tmp_path / "pki", run_cli)
    pki.mkcert("-r", str(pki.root / "ca"), "--label", "ca", "--dn", "CN=Test CA,O=mqlite")
    pki.mkcert("-m", "QM1", "--dn", "CN=QM1,O=mqlite", "--ca", "ca", "--ca-repository", str(pki.root / "ca"))
    started = run_cli("strmqm", "QM1")
    assert started.returncode == 0, started.stdout + started.stderr
    return pki


def _round_trip(qm: Any, text: bytes) -> None:
    with mqlite.Queue(qm, "SYSTEM.DEFAULT.LOCAL.QUEUE") as q:
        q.put(text)
        assert q.get() == text


def _still_serving(pki: Pki, repository: Path) -> None:
    """After a refusal the queue manager serves others, over TLS and in plain text."""
    with pki.connect(repository) as qm:
        _round_trip(qm, b"after, over TLS")
    with mqlite.connect("QM1", host="127.0.0.1", port=pki.qmgr.port, **APP.kwargs) as qm:
        _round_trip(qm, b"after, in plain text")


def test_tls_client_puts_and_gets_on_the_port_plain_clients_use(pki: Pki) -> None:
    good = pki.client("good", "CN=app,O=mqlite")
    for spec in (ANY, "TLS_AES_128_GCM_SHA256", "TLS_CHACHA20_POLY1305_SHA256", "ECDHE_RSA_AES_256_GCM_SHA384"):
        with pki.connect(good, ssl_cipher_spec=spec) as qm:
            _round_trip(qm, f"over {spec}".encode())
    with mqlite.connect("QM1", host="127.0.0.1", port=pki.qmgr.port, **APP.kwargs) as plain:
        _round_trip(plain, b"plain text on the same port")


def test_asyncio_client_over_tls(pki: Pki) -> None:
    good = pki.client("good", "CN=app,O=mqlite")

    async def main() -> bytes:
        qm = await aio.connect("QM1", host="127.0.0.1", port=pki.qmgr.port, ssl_cipher_spec=ANY,
                               key_repository=str(good), cert_label="app", **APP.kwargs)
        async with qm, aio.Queue(qm, "SYSTEM.DEFAULT.LOCAL.QUEUE") as q:
            await q.put(b"async over TLS")
            return bytes(await q.get())

    assert asyncio.run(main()) == b"async over TLS"


def test_pymqi_cd_and_sco_ask_for_tls(pki: Pki) -> None:
    good = pki.client("good", "CN=app,O=mqlite")
    cd = mqlite.CD(ChannelName=b"DEV.APP.SVRCONN", ConnectionName=f"127.0.0.1({pki.qmgr.port})".encode(),
                   SSLCipherSpec=b"TLS_AES_256_GCM_SHA384", SSLPeerName=b"CN=QM1")
    sco = mqlite.SCO(KeyRepository=str(good).encode(), CertificateLabel=b"app")
    qm = mqlite.QueueManager(None)
    qm.connect_with_options("QM1", cd, sco, **APP.kwargs)
    try:
        _round_trip(qm, b"pymqi style")
    finally:
        qm.disconnect()


def test_expired_client_certificate_is_refused_with_one_log_line(pki: Pki) -> None:
    expired = pki.client("expired", "CN=old,O=mqlite", "--expired")
    with pytest.raises(mqlite.MQMIError) as refused, pki.connect(expired) as qm:
        _round_trip(qm, b"never")
    assert refused.value.reason == mqlite.CMQC.MQRC_SSL_INITIALIZATION_ERROR
    lines = wait_until(lambda: pki.errors("AMQ9633E"), "the refusal is in the error log")
    assert len(lines) == 1 and "expired" in lines[0]
    _still_serving(pki, pki.client("good", "CN=app,O=mqlite"))


def test_certificate_from_an_untrusted_ca_is_refused(pki: Pki) -> None:
    pki.mkcert("-r", str(pki.root / "rogue"), "--label", "rogue", "--dn", "CN=Rogue CA")
    untrusted = pki.client("untrusted", "CN=app,O=mqlite", ca="rogue")
    # the client trusts the queue manager's CA; the queue manager does not trust rogue
    done = pki.run("addcert", "-r", str(untrusted), "--label", "ca", "--file", str(pki.root / "ca" / "ca.pem"))
    assert done.returncode == 0, done.stderr
    with pytest.raises(mqlite.MQMIError) as refused, pki.connect(untrusted) as qm:
        _round_trip(qm, b"never")
    assert refused.value.reason == mqlite.CMQC.MQRC_SSL_INITIALIZATION_ERROR
    assert len(wait_until(lambda: pki.errors("AMQ9633E"), "the refusal is in the error log")) == 1
    _still_serving(pki, pki.client("good", "CN=app,O=mqlite"))


def test_client_that_does_not_trust_the_queue_manager_refuses_it(pki: Pki) -> None:
    lonely = pki.root / "lonely"
    pki.mkcert("-r", str(lonely), "--label", "app", "--dn", "CN=app")  # self-signed, trusts nobody else
    with pytest.raises(mqlite.MQMIError) as refused:
        pki.connect(lonely)
    assert refused.value.reason == mqlite.CMQC.MQRC_SSL_INITIALIZATION_ERROR
    assert len(wait_until(lambda: pki.errors("AMQ9665E"), "the failed handshake is in the error log")) == 1
    _still_serving(pki, pki.client("good", "CN=app,O=mqlite"))


def test_ssl_peer_name_checks_the_queue_managers_certificate(pki: Pki) -> None:
    good = pki.client("good", "CN=app,O=mqlite")
    with pki.connect(good, ssl_peer_name="CN=QM*, O=MQLITE") as qm:
        _round_trip(qm, b"the right queue manager")
    with pytest.raises(mqlite.MQMIError) as refused:
        pki.connect(good, ssl_peer_name="CN=QM2")
    assert refused.value.reason == mqlite.CMQC.MQRC_SSL_PEER_NAME_MISMATCH


def test_missing_key_repository_and_unknown_cipher_spec(pki: Pki, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MQSSLKEYR", raising=False)
    with pytest.raises(mqlite.MQMIError) as no_repository:
        pki.connect(None)
    assert no_repository.value.reason == mqlite.CMQC.MQRC_KEY_REPOSITORY_ERROR
    with pytest.raises(mqlite.MQMIError) as bad_spec:
        pki.connect(pki.client("good", "CN=app"), ssl_cipher_spec="NULL_MD5")
    assert bad_spec.value.reason == mqlite.CMQC.MQRC_SSL_INITIALIZATION_ERROR


def test_mqsslkeyr_and_mqcertlabl_name_the_repository_and_label(pki: Pki, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MQSSLKEYR", str(pki.client("env", "CN=app")))
    monkeypatch.setenv("MQCERTLABL", "app")
    with mqlite.connect("QM1", host="127.0.0.1", port=pki.qmgr.port, ssl_cipher_spec=ANY, **APP.kwargs) as qm:
        _round_trip(qm, b"from the environment")


def test_queue_manager_without_a_certificate_refuses_tls(qmgr: QMgr, tmp_path: Path,
                                                         run_cli: Callable[..., Any]) -> None:
    pki = Pki(qmgr, tmp_path / "pki", run_cli)
    pki.mkcert("-r", str(pki.root / "ca"), "--label", "ca", "--dn", "CN=Test CA")
    good = pki.client("good", "CN=app")
    with pytest.raises(mqlite.MQMIError) as refused:
        pki.connect(good)
    assert refused.value.reason == mqlite.CMQC.MQRC_SSL_INITIALIZATION_ERROR
    assert len(wait_until(lambda: pki.errors("AMQ9657E"), "the refusal is in the error log")) == 1
    with mqlite.connect("QM1", host="127.0.0.1", port=qmgr.port, **APP.kwargs) as plain:
        _round_trip(plain, b"plain text still works")
