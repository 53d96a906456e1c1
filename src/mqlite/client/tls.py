"""The client's side of TLS: what a connection asks for (the CD's SSLCipherSpec and SSLPeerName,
the SCO's KeyRepository and CertificateLabel, or IBM's MQSSLKEYR and MQCERTLABL variables) and
the socket it gets.

The client presents the personal certificate its label names (default
``ibmwebspheremq<user id>``, as IBM's; none when the repository has no such label), trusts the
signer certificates of its key repository, names its channel in SNI as IBM's client does (so the
queue manager can present that channel's certificate) and, with a peer name, checks the queue
manager's distinguished name against it (``mqlite.protocol.dn``). Failures are IBM's reasons:
2381 key repository, 2393 TLS initialization (handshake, CipherSpec), 2398 peer name mismatch.
"""

from __future__ import annotations

import os
import select
import socket
import ssl
from dataclasses import dataclass
from typing import Any

from mqlite import cmqc
from mqlite.client.errors import MQMIError
from mqlite.client.tls_stream import TlsStream, handshake
from mqlite.keyrepo import KeyRepository, KeyRepositoryError, user_label
from mqlite.protocol import dn
from mqlite.protocol import tls as cipherspecs


@dataclass(frozen=True, slots=True)
class TlsOptions:
    """TLS for a client connection; ``cipher_spec`` is an IBM CipherSpec name."""

    cipher_spec: str
    key_repository: str | None = None  # a key repository directory; None: MQSSLKEYR
    cert_label: str | None = None  # None: MQCERTLABL, else ibmwebspheremq<user id>
    peer_name: str | None = None  # an SSLPEER-style filter for the queue manager's certificate

    def repository(self) -> str:
        path = self.key_repository or os.environ.get("MQSSLKEYR")
        if not path:
            raise MQMIError(cmqc.MQCC_FAILED, cmqc.MQRC_KEY_REPOSITORY_ERROR,
                            text="TLS needs a key repository: key_repository=, the SCO's KeyRepository or MQSSLKEYR")
        return path

    def label(self) -> str:
        return self.cert_label or os.environ.get("MQCERTLABL") or user_label()


def tls_options(cipher_spec: Any = None, key_repository: Any = None, cert_label: Any = None,
                peer_name: Any = None) -> TlsOptions | None:
    """TlsOptions from the values a caller gave (bytes or str; blank means not given), or None
    when no CipherSpec asks for TLS."""
    def text(value: Any) -> str | None:
        value = value.decode() if isinstance(value, bytes) else value
        value = str(value).strip().rstrip("\0").strip() if value is not None else ""
        return value or None

    spec = text(cipher_spec)
    if spec is None:
        return None
    return TlsOptions(spec, text(key_repository), text(cert_label), text(peer_name))


# Contexts by what they were built from, the key repository's files included: building one
# (reading and parsing certificates) costs more than a TLS handshake's own work on the client.
_CONTEXTS: dict[tuple[Any, ...], ssl.SSLContext] = {}
_CONTEXTS_KEPT = 16


def context(options: TlsOptions) -> ssl.SSLContext:
    """The client context for ``options`` (MQMIError 2393 for an unknown CipherSpec, 2381 for
    a key repository that cannot be read), built again when the repository's files change."""
    repository = options.repository()
    try:
        files = tuple(sorted((entry.name, entry.stat().st_mtime_ns, entry.stat().st_size)
                             for entry in os.scandir(repository) if entry.name.endswith(".pem")))
    except OSError:
        files = ()
    key = (options.cipher_spec, repository, options.label(), files)
    built = _CONTEXTS.get(key)
    if built is None:
        built = _build(options, repository)
        if len(_CONTEXTS) >= _CONTEXTS_KEPT:
            _CONTEXTS.clear()
        _CONTEXTS[key] = built
    return built


def _build(options: TlsOptions, path: str) -> ssl.SSLContext:
    spec = cipherspecs.lookup(options.cipher_spec)
    if spec is None:
        raise MQMIError(cmqc.MQCC_FAILED, cmqc.MQRC_SSL_INITIALIZATION_ERROR,
                        text=f"{options.cipher_spec!r} is not a CipherSpec")
    result = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    result.check_hostname = False  # IBM checks the peer's DN (SSLPeerName), not a host name
    result.verify_mode = ssl.CERT_REQUIRED
    cipherspecs.configure(result, spec)
    try:
        repository = KeyRepository.read(path)
        repository.load_signers(result)
        repository.load_personal(result, options.label(), required=False)
    except KeyRepositoryError as error:
        raise MQMIError(cmqc.MQCC_FAILED, cmqc.MQRC_KEY_REPOSITORY_ERROR, text=str(error)) from None
    return result


def server_name(channel: str) -> str:
    return cipherspecs.sni_for_channel(channel)


def check_peer(tls: ssl.SSLSocket | ssl.SSLObject, options: TlsOptions) -> None:
    """The session against what was asked: the CipherSpec negotiated (2393 when the TLS library
    could not be limited to it) and the queue manager's certificate against the peer name (2398
    when it does not match)."""
    spec = cipherspecs.lookup(options.cipher_spec)
    negotiated = tls.cipher()
    if spec is not None and negotiated is not None and not spec.accepts(negotiated[0], negotiated[1]):
        raise MQMIError(cmqc.MQCC_FAILED, cmqc.MQRC_SSL_INITIALIZATION_ERROR,
                        text=f"negotiated {negotiated[0]} ({negotiated[1]}), not {options.cipher_spec}")
    if not options.peer_name:
        return
    certificate: dict[str, Any] = dict(tls.getpeercert() or {})
    subject = dn.format_dn(dn.from_certificate(certificate.get("subject", ())))
    try:
        accepted = dn.matches(options.peer_name, subject)
    except dn.DNError as error:
        raise MQMIError(cmqc.MQCC_FAILED, cmqc.MQRC_SSL_PEER_NAME_ERROR, text=str(error)) from None
    if not accepted:
        raise MQMIError(cmqc.MQCC_FAILED, cmqc.MQRC_SSL_PEER_NAME_MISMATCH,
                        text=f"the queue manager's certificate {subject!r} does not match {options.peer_name!r}")


def wrap(sock: socket.socket, options: TlsOptions, channel: str) -> TlsStream:
    """TLS over a connected socket (blocking handshake), checked against the peer name."""
    try:
        stream = handshake(sock, context(options), server_name(channel))
    except MQMIError:
        sock.close()
        raise
    except (ssl.SSLError, OSError) as error:
        sock.close()
        raise MQMIError(cmqc.MQCC_FAILED, cmqc.MQRC_SSL_INITIALIZATION_ERROR, text=f"TLS handshake: {error}") from None
    try:
        check_peer(stream.tls, options)
    except MQMIError:
        stream.close()
        raise
    return stream


def broken_reason(error: BaseException) -> int:
    """What a failed read or write means: a TLS alert (the queue manager refused our certificate
    after the handshake, as TLS 1.3 lets it) is 2393, anything else a broken connection."""
    return cmqc.MQRC_SSL_INITIALIZATION_ERROR if isinstance(error, ssl.SSLError) else cmqc.MQRC_CONNECTION_BROKEN


def connect_failure(error: MQMIError, tls: TlsOptions | None) -> MQMIError:
    """A TLS connection the queue manager ends before answering CONNECT was refused by its
    certificate checks (TLS 1.3 lets the server refuse a client certificate after the client's
    handshake is done, and the alert may be lost to the reset): 2393, as IBM's client reports."""
    if tls is None or error.reason != cmqc.MQRC_CONNECTION_BROKEN:
        return error
    return MQMIError(cmqc.MQCC_FAILED, cmqc.MQRC_SSL_INITIALIZATION_ERROR,
                     text=f"the queue manager ended the TLS connection before CONNECT ({getattr(error, 'text', '')});"
                          " its error log says why")


def readable(sock: socket.socket | TlsStream) -> bool:
    """Input is waiting: bytes TLS has already decrypted, or bytes on the socket."""
    if isinstance(sock, TlsStream):
        if sock.pending():
            return True
        sock = sock.sock
    return bool(select.select([sock], [], [], 0)[0])
