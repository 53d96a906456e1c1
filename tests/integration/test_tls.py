"""TLS for native client connections, over real TLS on loopback (issue 14, items 8 and 9): one
port for plain and TLS, certificates from ``mqlite mkcert`` in key repositories, a client
channel's rules at CONNECT (SSLCIPH both ways: 2393; the negotiated CipherSpec, AMQ9631E;
SSLCAUTH(REQUIRED) without a client certificate, AMQ9637E; SSLPEER, AMQ9636E and 2035), a
certificate mapped to a user by CHLAUTH SSLPEERMAP, a channel's CERTLABL chosen through SNI,
REFRESH SECURITY TYPE(SSL); every refusal with its reason code and one error-log line, and the
queue manager serving others after each."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import mqlite
from helpers.credentials import ADMIN, APP, add_user, client_env, grant_app
from helpers.qmgrs import QMgr
from helpers.waiting import wait_until
from mqlite import aio

pytest.importorskip("cryptography", reason="mkcert needs the cryptography package")

ANY = "ANY_TLS12_OR_HIGHER"
CHANNELS = """\
DEFINE CHANNEL(TLS.SVRCONN) CHLTYPE(SVRCONN) SSLCIPH(ANY_TLS12_OR_HIGHER) SSLCAUTH(REQUIRED)
DEFINE CHANNEL(TLS13.SVRCONN) CHLTYPE(SVRCONN) SSLCIPH(TLS_AES_128_GCM_SHA256) SSLCAUTH(OPTIONAL)
DEFINE CHANNEL(PEER.SVRCONN) CHLTYPE(SVRCONN) SSLCIPH(ANY_TLS12_OR_HIGHER) SSLPEER('CN=app*, O=mqlite')
DEFINE CHANNEL(CERT.SVRCONN) CHLTYPE(SVRCONN) SSLCIPH(ANY_TLS12_OR_HIGHER) SSLCAUTH(REQUIRED)
SET CHLAUTH(CERT.SVRCONN) TYPE(SSLPEERMAP) SSLPEER('CN=mapped, O=mqlite') USERSRC(MAP) MCAUSER('app')
"""


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

    def mqsc(self, text: str) -> str:
        done = self.run("runmqsc", self.qmgr.name, input=text)
        assert done.returncode == 0, done.stdout
        return str(done.stdout)

    def errors(self, code: str) -> list[str]:
        log = self.qmgr.home / "qmgrs" / self.qmgr.name / "AMQERR01.LOG"
        return [line for line in log.read_text(errors="replace").splitlines() if line.startswith(code)]

    def connect(self, repository: Path | None, channel: str = "TLS.SVRCONN", **kwargs: Any) -> Any:
        """A client connection over TLS (``ssl_cipher_spec=None``: in plain text) as ``APP``."""
        options: dict[str, Any] = {"ssl_cipher_spec": ANY, "cert_label": "app", **APP.kwargs,
                                   "key_repository": str(repository) if repository else None}
        options.update(kwargs)
        return mqlite.connect("QM1", channel, f"127.0.0.1({self.qmgr.port})", **options)

    def refused(self, repository: Path | None, channel: str = "TLS.SVRCONN", **kwargs: Any) -> int:
        with pytest.raises(mqlite.MQMIError) as error:
            self.connect(repository, channel, **kwargs).disconnect()
        return int(error.value.reason)


@pytest.fixture
def pki(qmgr_factory: Callable[..., QMgr], run_cli: Callable[..., Any], tmp_path: Path) -> Pki:
    run_cli("crtmqm", "-p", "0", "QM1")
    add_user(tmp_path / "mqhome", "QM1", APP)
    pki = Pki(QMgr("QM1", tmp_path / "mqhome"), tmp_path / "pki", run_cli)
    pki.mkcert("-r", str(pki.root / "ca"), "--label", "ca", "--dn", "CN=Test CA,O=mqlite")
    pki.mkcert("-m", "QM1", "--dn", "CN=QM1,O=mqlite", "--ca", "ca", "--ca-repository", str(pki.root / "ca"))
    started = run_cli("strmqm", "QM1")
    assert started.returncode == 0, started.stdout + started.stderr
    grant_app(tmp_path / "mqhome", "QM1")
    pki.mqsc(CHANNELS)
    return pki


def _round_trip(qm: Any, text: bytes) -> None:
    with mqlite.Queue(qm, "SYSTEM.DEFAULT.LOCAL.QUEUE") as q:
        q.put(text)
        assert q.get() == text


def _still_serving(pki: Pki, repository: Path) -> None:
    """After a refusal the queue manager serves others, over TLS and in plain text."""
    with pki.connect(repository) as qm:
        _round_trip(qm, b"after, over TLS")
    with pki.connect(None, "DEV.APP.SVRCONN", ssl_cipher_spec=None) as qm:
        _round_trip(qm, b"after, in plain text")


def test_tls_client_puts_and_gets_on_the_port_plain_clients_use(pki: Pki) -> None:
    good = pki.client("good", "CN=app,O=mqlite")
    for spec in (ANY, "TLS_AES_128_GCM_SHA256", "TLS_CHACHA20_POLY1305_SHA256", "ECDHE_RSA_AES_256_GCM_SHA384"):
        with pki.connect(good, ssl_cipher_spec=spec) as qm:
            _round_trip(qm, f"over {spec}".encode())
    with pki.connect(None, "DEV.APP.SVRCONN", ssl_cipher_spec=None) as plain:
        _round_trip(plain, b"plain text on the same port")


def test_asyncio_client_over_tls(pki: Pki) -> None:
    good = pki.client("good", "CN=app,O=mqlite")

    async def main() -> bytes:
        qm = await aio.connect("QM1", "TLS.SVRCONN", f"127.0.0.1({pki.qmgr.port})", ssl_cipher_spec=ANY,
                               key_repository=str(good), cert_label="app", **APP.kwargs)
        async with qm, aio.Queue(qm, "SYSTEM.DEFAULT.LOCAL.QUEUE") as q:
            await q.put(b"async over TLS")
            return bytes(await q.get())

    assert asyncio.run(main()) == b"async over TLS"


def test_pymqi_cd_and_sco_ask_for_tls(pki: Pki) -> None:
    good = pki.client("good", "CN=app,O=mqlite")
    cd = mqlite.CD(ChannelName=b"TLS.SVRCONN", ConnectionName=f"127.0.0.1({pki.qmgr.port})".encode(),
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
    with mqlite.connect("QM1", "TLS.SVRCONN", f"127.0.0.1({pki.qmgr.port})", ssl_cipher_spec=ANY,
                        **APP.kwargs) as qm:
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


def test_tls_channel_puts_and_gets(pki: Pki) -> None:
    good = pki.client("good", "CN=app,O=mqlite")
    with pki.connect(good) as qm, mqlite.Queue(qm, "SYSTEM.DEFAULT.LOCAL.QUEUE") as q:
        q.put(b"over TLS")
        assert q.get() == b"over TLS"
        assert qm.get_handle().user == APP.user


def test_plain_client_on_a_tls_channel_is_2393(pki: Pki) -> None:
    assert pki.refused(None, ssl_cipher_spec=None) == mqlite.CMQC.MQRC_SSL_INITIALIZATION_ERROR
    assert len(wait_until(lambda: pki.errors("AMQ9639E"), "the refusal is logged")) == 1
    _still_serving(pki, pki.client("good", "CN=app,O=mqlite"))


def test_tls_client_on_a_plain_channel_is_2393(pki: Pki) -> None:
    good = pki.client("good", "CN=app,O=mqlite")
    assert pki.refused(good, "DEV.APP.SVRCONN") == mqlite.CMQC.MQRC_SSL_INITIALIZATION_ERROR
    assert len(wait_until(lambda: pki.errors("AMQ9641E"), "the refusal is logged")) == 1
    _still_serving(pki, good)


def test_cipher_spec_must_be_the_channels(pki: Pki) -> None:
    good = pki.client("good", "CN=app,O=mqlite")
    with pki.connect(good, "TLS13.SVRCONN", ssl_cipher_spec="TLS_AES_128_GCM_SHA256") as qm:
        qm.ping()
    for other in ("TLS_AES_256_GCM_SHA384", "ECDHE_RSA_AES_128_GCM_SHA256"):
        assert pki.refused(good, "TLS13.SVRCONN", ssl_cipher_spec=other) == mqlite.CMQC.MQRC_SSL_INITIALIZATION_ERROR
    assert len(wait_until(lambda: len(pki.errors("AMQ9631E")) == 2 and pki.errors("AMQ9631E"),
                          "both refusals are logged")) == 2
    _still_serving(pki, good)


def test_sslcauth_required_needs_a_client_certificate(pki: Pki) -> None:
    anonymous = pki.root / "anonymous"
    done = pki.run("addcert", "-r", str(anonymous), "--label", "ca", "--file", str(pki.root / "ca" / "ca.pem"))
    assert done.returncode == 0, done.stderr
    assert pki.refused(anonymous) == mqlite.CMQC.MQRC_SSL_INITIALIZATION_ERROR
    assert len(wait_until(lambda: pki.errors("AMQ9637E"), "the refusal is logged")) == 1
    with pki.connect(anonymous, "TLS13.SVRCONN", ssl_cipher_spec="TLS_AES_128_GCM_SHA256") as qm:  # OPTIONAL
        qm.ping()


def test_sslpeer_filters_the_client_certificate(pki: Pki) -> None:
    with pki.connect(pki.client("match", "CN=application,O=MQLite"), "PEER.SVRCONN") as qm:
        qm.ping()
    stranger = pki.client("stranger", "CN=someone,O=mqlite")
    assert pki.refused(stranger, "PEER.SVRCONN") == mqlite.CMQC.MQRC_NOT_AUTHORIZED
    lines = wait_until(lambda: pki.errors("AMQ9636E"), "the refusal is logged")
    assert len(lines) == 1 and "CN=someone,O=mqlite" in lines[0]
    _still_serving(pki, pki.client("good", "CN=app,O=mqlite"))


def test_certificate_mapped_to_a_user_by_sslpeermap(pki: Pki) -> None:
    # Certificates instead of passwords, as IBM configures it: CONNAUTH asks for a password only
    # when one is given (CHCKCLNT(OPTIONAL)), CHLAUTH maps the certificate's DN to a user.
    pki.mqsc("ALTER AUTHINFO(SYSTEM.DEFAULT.AUTHINFO.IDPWOS) AUTHTYPE(IDPWOS) CHCKCLNT(OPTIONAL)\n"
             "REFRESH SECURITY TYPE(CONNAUTH)\n")
    mapped = pki.client("mapped", "CN=mapped,O=mqlite")
    with pki.connect(mapped, "CERT.SVRCONN", user=None, password=None) as qm, \
            mqlite.Queue(qm, "SYSTEM.DEFAULT.LOCAL.QUEUE") as q:
        assert qm.get_handle().user == "app"
        q.put(b"as the certificate's user")
        assert q.get().md.UserIdentifier.strip() in (b"app", "app")


def test_channel_certlabl_is_presented_to_clients_naming_that_channel(pki: Pki) -> None:
    pki.mkcert("-m", "QM1", "--label", "other", "--dn", "CN=OTHER,O=mqlite", "--ca", "ca",
               "--ca-repository", str(pki.root / "ca"))
    pki.mqsc("DEFINE CHANNEL(OTHER.SVRCONN) CHLTYPE(SVRCONN) SSLCIPH(ANY_TLS12_OR_HIGHER) CERTLABL('other')\n")
    good = pki.client("good", "CN=app,O=mqlite")
    with pki.connect(good, "OTHER.SVRCONN", ssl_peer_name="CN=OTHER") as qm:
        qm.ping()
    with pki.connect(good, ssl_peer_name="CN=QM1") as qm:  # the queue manager's own
        qm.ping()


def test_refresh_security_type_ssl_rereads_the_key_repository(pki: Pki) -> None:
    good = pki.client("good", "CN=app,O=mqlite")
    with pki.connect(good, ssl_peer_name="CN=QM1") as qm:
        qm.ping()
    pki.mkcert("-m", "QM1", "--dn", "CN=QM1 renewed,O=mqlite", "--ca", "ca",
               "--ca-repository", str(pki.root / "ca"))
    with pki.connect(good, ssl_peer_name="CN=QM1") as qm:  # not read again yet
        qm.ping()
    assert "AMQ8560I" in pki.mqsc("REFRESH SECURITY TYPE(SSL)\n")
    with pki.connect(good, ssl_peer_name="CN=QM1 renewed") as qm:
        qm.ping()


def test_chstatus_shows_the_security_protocol_and_the_client_certificate(pki: Pki) -> None:
    good = pki.client("good", "CN=app,O=mqlite")
    with pki.connect(good, ssl_cipher_spec="ANY_TLS13"), pki.connect(None, "DEV.APP.SVRCONN", ssl_cipher_spec=None):
        shown = pki.mqsc("DISPLAY CHSTATUS(TLS.SVRCONN) ALL\nDISPLAY CHSTATUS(DEV.APP.SVRCONN) ALL\n")
    tls_row, plain_row = shown.split("DISPLAY CHSTATUS(DEV.APP.SVRCONN)")
    for item in ("SECPROT(TLSV13)", "SSLPEER(CN=app,O=mqlite)", "SSLCERTI(CN=Test CA,O=mqlite)"):
        assert item in tls_row
    assert "SECPROT(NONE)" in plain_row


def test_garbage_and_silence_on_the_port_leave_the_queue_manager_serving(pki: Pki) -> None:
    with socket.create_connection(("127.0.0.1", pki.qmgr.port)):
        pass  # connects and says nothing: closed quietly
    with socket.create_connection(("127.0.0.1", pki.qmgr.port)) as sock:
        sock.sendall(b"\x16\x03\x01\x00\x05hello")  # a TLS record header and no ClientHello
        sock.settimeout(30)
        while sock.recv(4096):  # the queue manager answers with an alert and closes
            pass
    assert len(wait_until(lambda: pki.errors("AMQ9665E"), "the failed handshake is logged")) == 1
    _still_serving(pki, pki.client("good", "CN=app,O=mqlite"))


def test_command_line_over_tls_with_options_and_ibm_variables(pki: Pki) -> None:
    good = pki.client("good", "CN=app,O=mqlite")
    add_user(pki.qmgr.home, "QM1", ADMIN)
    pki.mqsc("ALTER CHANNEL(DEV.ADMIN.SVRCONN) CHLTYPE(SVRCONN) SSLCIPH(ANY_TLS13) SSLCAUTH(REQUIRED)\n"
             "ALTER CHANNEL(DEV.APP.SVRCONN) CHLTYPE(SVRCONN) SSLCIPH(ANY_TLS12_OR_HIGHER)\n")  # -c's channels
    conn = f"127.0.0.1:{pki.qmgr.port}"
    tls = ("--cipher", ANY, "--keyr", str(good), "--certlabl", "app", "--sslpeer", "CN=QM1")
    put = pki.run("put", "-c", conn, "-u", APP.user, *tls, "SYSTEM.DEFAULT.LOCAL.QUEUE", input="by the CLI\n",
                  env={**client_env(APP), "MQSERVER": ""})
    assert put.returncode == 0, put.stderr
    # MQSERVER names the channel; IBM's MQSSLKEYR and MQCERTLABL (and mqlite's MQLITE_SSLCIPH) the rest.
    env = {**client_env(APP), "MQSERVER": f"TLS.SVRCONN/TCP/127.0.0.1({pki.qmgr.port})", "MQSSLKEYR": str(good),
           "MQCERTLABL": "app", "MQLITE_SSLCIPH": ANY}
    got = pki.run("get", "-u", APP.user, "SYSTEM.DEFAULT.LOCAL.QUEUE", env=env)
    assert got.returncode == 0 and got.stdout.strip() == "by the CLI", got.stderr
    plain = pki.run("get", "-c", conn, "-u", APP.user, "--cipher", ANY, "--keyr", str(good), "--certlabl", "app",
                    "--sslpeer", "CN=QM2", "SYSTEM.DEFAULT.LOCAL.QUEUE", env=client_env(APP))
    assert plain.returncode != 0 and "MQRC_SSL_PEER_NAME_MISMATCH (2398)" in plain.stderr
    admin = pki.run("runmqsc", "-c", conn, "-u", ADMIN.user, "--cipher", "ANY_TLS13", "--keyr", str(good),
                    "--certlabl", "app", input="DISPLAY QMGR CERTLABL\n", env=client_env(ADMIN))
    assert admin.returncode == 0 and "CERTLABL(ibmwebspheremqqm1)" in admin.stdout, admin.stdout + admin.stderr


def test_client_refuses_an_expired_queue_manager_certificate(pki: Pki) -> None:
    good = pki.client("good", "CN=app,O=mqlite")
    pki.mkcert("-m", "QM1", "--dn", "CN=QM1,O=mqlite", "--ca", "ca", "--ca-repository", str(pki.root / "ca"),
               "--expired")
    pki.mqsc("REFRESH SECURITY TYPE(SSL)\n")
    with pytest.raises(mqlite.MQMIError) as refused:
        pki.connect(good)
    assert refused.value.reason == mqlite.CMQC.MQRC_SSL_INITIALIZATION_ERROR
    assert "expired" in str(getattr(refused.value, "text", ""))
    assert len(wait_until(lambda: pki.errors("AMQ9665E"), "the failed handshake is logged")) == 1


def test_qmgr_sslkeyr_and_certlabl_name_another_repository_and_certificate(pki: Pki) -> None:
    good = pki.client("good", "CN=app,O=mqlite")
    elsewhere = pki.root / "qm-elsewhere"
    pki.mkcert("-r", str(elsewhere), "--label", "moved", "--dn", "CN=QM1 moved,O=mqlite", "--ca", "ca",
               "--ca-repository", str(pki.root / "ca"))
    pki.mqsc(f"ALTER QMGR SSLKEYR('{elsewhere}') CERTLABL('moved')\nREFRESH SECURITY TYPE(SSL)\n")
    with pki.connect(good, ssl_peer_name="CN=QM1 moved") as qm:
        _round_trip(qm, b"from the repository SSLKEYR names")


def test_conversations_share_one_tls_session_full_duplex(pki: Pki) -> None:
    """SHARECNV over TLS (issue 14 item 2): a second connection is a new conversation on the
    first one's TLS session (no second handshake), and one thread's waiting get reads for both
    while the other sends: the TLS layer must allow a reader and a writer at once."""
    import threading

    from mqlite import cmqc as C

    good = pki.client("good", "CN=app,O=mqlite")
    with pki.connect(good) as waiter, pki.connect(good) as worker:
        assert worker.get_handle().conversation == 1
        got: list[bytes] = []

        def wait_for_one() -> None:
            gmo = mqlite.GMO(Options=C.MQGMO_WAIT, WaitInterval=120_000)
            with mqlite.Queue(waiter, "SYSTEM.DEFAULT.LOCAL.QUEUE", C.MQOO_INPUT_SHARED) as q:
                got.append(q.get(None, mqlite.MD(), gmo))

        thread = threading.Thread(target=wait_for_one)
        thread.start()
        pki.mqsc("DEFINE QLOCAL(TLS.BUSY)\n")
        with mqlite.Queue(worker, "TLS.BUSY", C.MQOO_OUTPUT | C.MQOO_INPUT_SHARED) as busy:
            for i in range(300):
                busy.put(b"%d" % i)
                assert busy.get() == b"%d" % i
        with mqlite.Queue(worker, "SYSTEM.DEFAULT.LOCAL.QUEUE") as q:
            q.put(b"for the waiting get")
        thread.join(120)
        assert got == [b"for the waiting get"]
        shown = pki.mqsc("DISPLAY CHSTATUS(TLS.SVRCONN) CURSHCNV\n")
        assert "CURSHCNV(2)" in shown
