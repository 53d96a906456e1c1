"""The TLS rules of a channel for one connection, shared by client channels (at CONNECT) and
receiving message channels (at HELLO): SSLCIPH both ways, SSLCAUTH, SSLPEER, and what DISPLAY
CHSTATUS shows of the session. Refusals are one error-log line each, IBM's AMQ96xx numbers."""

from __future__ import annotations

import logging
import ssl
from collections.abc import Mapping
from typing import Any, NoReturn

from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.protocol import dn
from mqlite.protocol import tls as cipherspecs

log = logging.getLogger("mqlite.server")


def peer_certificate(transport: Any) -> tuple[str, str]:
    """The client certificate's subject and issuer in IBM's display form ("" when none)."""
    tls = transport.get_extra_info("ssl_object") if transport is not None else None
    certificate = tls.getpeercert() if tls is not None else None
    if not certificate:
        return "", ""
    names: dict[str, Any] = dict(certificate)
    return (dn.format_dn(dn.from_certificate(names.get("subject", ()))),
            dn.format_dn(dn.from_certificate(names.get("issuer", ()))))


def peer_matches(peer_filter: str, subject: str) -> bool:
    """Whether a certificate's subject passes an SSLPEER filter (an invalid filter passes nothing)."""
    try:
        return dn.matches(peer_filter, subject)
    except dn.DNError:
        return False


def check_channel(transport: Any, channel: str, attrs: Mapping[str, Any], peer: str) -> None:
    """Whether this connection may use ``channel`` as far as TLS goes; raises MQError (with one
    error-log line) when not. ``transport`` is the connection's asyncio transport."""
    tls: ssl.SSLObject | None = transport.get_extra_info("ssl_object")
    wanted = str(attrs.get("SSLCIPH") or "").strip()
    if not wanted:
        if tls is not None:
            _refuse("AMQ9641E", f"TLS connection from {peer} to channel {channel}, which has no SSLCIPH")
        return
    if tls is None:
        _refuse("AMQ9639E", f"plain-text connection from {peer} to channel {channel}, which needs SSLCIPH({wanted})")
    negotiated = tls.cipher()
    spec = cipherspecs.lookup(wanted)
    suite, version = (negotiated[0], negotiated[1]) if negotiated else ("", "")
    if spec is None or not spec.accepts(suite, version):
        _refuse("AMQ9631E", f"the CipherSpec {suite} ({version}) negotiated by {peer} does not match "
                            f"SSLCIPH({wanted}) of channel {channel}")
    subject, _ = peer_certificate(transport)
    if not subject:
        if str(attrs.get("SSLCAUTH") or "REQUIRED") == "REQUIRED":
            _refuse("AMQ9637E", f"channel {channel} is lacking a certificate: {peer} sent none, SSLCAUTH(REQUIRED)")
        if str(attrs.get("SSLPEER") or "").strip():
            _refuse("AMQ9636E", f"channel {channel} has SSLPEER but {peer} sent no certificate",
                    C.MQRC_NOT_AUTHORIZED)
        return
    peer_filter = str(attrs.get("SSLPEER") or "")
    if not peer_matches(peer_filter, subject):
        _refuse("AMQ9636E", f"the distinguished name {subject!r} of {peer} does not match "
                            f"SSLPEER({peer_filter}) of channel {channel}", C.MQRC_NOT_AUTHORIZED)


def status(transport: Any) -> dict[str, str]:
    """DISPLAY CHSTATUS's TLS fields of a connection: SECPROT (TLSV12, TLSV13 or NONE), and the
    client certificate's SSLPEER and SSLCERTI when it sent one."""
    tls: ssl.SSLObject | None = transport.get_extra_info("ssl_object")
    if tls is None:
        return {"SECPROT": "NONE"}
    subject, issuer = peer_certificate(transport)
    return {"SECPROT": str(tls.version() or "").replace("v", "V").replace(".", "").upper(),
            "SSLPEER": subject, "SSLCERTI": issuer}


def _refuse(message: str, text: str, reason: int = C.MQRC_SSL_INITIALIZATION_ERROR) -> NoReturn:
    log.warning("%s: %s", message, text)
    raise MQError(reason, text)
