"""The queue manager's side of TLS: server contexts built from a key repository and an IBM
CipherSpec, shared by the native listener (``server/native/tls.py``) and telemetry channels.

:class:`ServerTls` holds the queue manager's native TLS: the repository QMGR SSLKEYR names
(blank: ``$MQLITE_HOME/qmgrs/<QM>/ssl/key``), the certificate QMGR CERTLABL names (blank: IBM's
``ibmwebspheremq<qmname>``), and a context per channel CERTLABL, chosen during the handshake
from the channel name the client sends in SNI. Contexts are built when first needed and again
after REFRESH SECURITY TYPE(SSL) (:meth:`ServerTls.refresh`).
"""

from __future__ import annotations

import logging
import ssl
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from mqlite import paths
from mqlite.keyrepo import KeyRepository, KeyRepositoryError, default_label
from mqlite.protocol import tls as cipherspecs

log = logging.getLogger("mqlite.server")


def server_context() -> ssl.SSLContext:
    """A server context as mqlite wants every one: TLS 1.2 at least, no compression or
    renegotiation (OpenSSL's defaults), session tickets for quick reconnection."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    return context


def apply_cipher(context: ssl.SSLContext, name: str) -> None:
    """An IBM CipherSpec name (or, for telemetry channels as before, an OpenSSL cipher list)."""
    spec = cipherspecs.lookup(name)
    if spec is not None:
        cipherspecs.configure(context, spec)
    else:
        context.set_ciphers(name)


class ServerTls:
    """The queue manager's TLS for native client connections."""

    def __init__(self, qmgr: str, qmgr_attrs: Mapping[str, Any],
                 channel_attrs: Callable[[str], Mapping[str, Any] | None]) -> None:
        self.qmgr = qmgr
        self.qmgr_attrs = qmgr_attrs  # the live QMGR attributes: ALTER QMGR SSLKEYR takes effect at refresh
        self.channel_attrs = channel_attrs
        self._repository: KeyRepository | None = None
        self._contexts: dict[str, ssl.SSLContext] = {}  # by certificate label

    @property
    def repository_path(self) -> Path:
        return Path(str(self.qmgr_attrs.get("SSLKEYR") or "") or paths.key_repository(self.qmgr))

    @property
    def label(self) -> str:
        return str(self.qmgr_attrs.get("CERTLABL") or "") or default_label(self.qmgr)

    def refresh(self) -> None:
        """REFRESH SECURITY TYPE(SSL): read the key repository again at the next handshake."""
        self._repository = None
        self._contexts.clear()
        log.info("AMQ9797I: TLS key repository %s will be read again", self.repository_path)

    def context(self) -> ssl.SSLContext:
        """The context a new TLS connection starts with (KeyRepositoryError: TLS is unusable)."""
        return self._context_for(self.label)

    def _context_for(self, label: str) -> ssl.SSLContext:
        context = self._contexts.get(label)
        if context is None:
            if self._repository is None:
                self._repository = KeyRepository.read(self.repository_path)
            context = server_context()
            self._repository.load_personal(context, label)
            if self._repository.load_signers(context):
                # Every client may offer a certificate; each channel's SSLCAUTH decides at CONNECT
                # whether it needed one. A certificate offered is always checked.
                context.verify_mode = ssl.CERT_OPTIONAL
            context.sni_callback = self._server_name
            self._contexts[label] = context
        return context

    def client_context(self, cipher: str, label: str = "") -> ssl.SSLContext:
        """The context a sending message channel connects with: the queue manager's certificate
        (the channel's CERTLABL, else the queue manager's) for the partner's SSLCAUTH, the
        repository's signers to check the partner's, and the channel's CipherSpec. The partner's
        name is checked by SSLPEER, as IBM does, not by host name."""
        if self._repository is None:
            self._repository = KeyRepository.read(self.repository_path)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        context.minimum_version = ssl.TLSVersion.TLSv1_2
        context.check_hostname = False
        self._repository.load_personal(context, label or self.label)
        self._repository.load_signers(context)
        context.verify_mode = ssl.CERT_REQUIRED
        apply_cipher(context, cipher)
        return context

    def _server_name(self, connection: ssl.SSLObject | ssl.SSLSocket, name: str | None,
                     context: ssl.SSLContext) -> int | None:
        """The client named its channel (SNI): present that channel's CERTLABL if it has one."""
        channel = cipherspecs.channel_from_sni(name)
        attrs = self.channel_attrs(channel) if channel else None
        label = str(attrs.get("CERTLABL") or "") if attrs else ""
        if label and label != self.label:
            try:
                connection.context = self._context_for(label)
            except KeyRepositoryError as error:
                log.error("AMQ9637E: channel %s: CERTLABL(%s): %s", channel, label, error)
                return ssl.ALERT_DESCRIPTION_INTERNAL_ERROR
        return None
