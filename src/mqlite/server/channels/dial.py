"""Dialling a sending channel's partner: CONNAME, TLS with the channel's SSLCIPH and CERTLABL,
and the sending end's SSLPEER check of the partner queue manager's certificate. Shared by the
sender agent and PING CHANNEL, which start a conversation the same way."""

from __future__ import annotations

import asyncio
import ssl
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from mqlite import cmqc as C
from mqlite.keyrepo import KeyRepositoryError
from mqlite.protocol import channel as wire
from mqlite.protocol import tls as cipherspecs
from mqlite.server import tls_rules
from mqlite.server.channels.agent_base import FINAL, ChannelFailed, HostUnavailable, parse_conname

if TYPE_CHECKING:
    from mqlite.server.tls import ServerTls

CONNECT_TIMEOUT = 20.0


async def dial(name: str, attrs: Mapping[str, Any], tls: ServerTls | None,
               timeout: float = CONNECT_TIMEOUT) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A connection to the partner of channel ``name``, TLS and SSLPEER checked;
    ``ChannelFailed`` (stop=True) for what retrying cannot cure, ``HostUnavailable`` (AMQ9202E)
    when the partner cannot be reached."""
    host, port = parse_conname(str(attrs.get("CONNAME", "")))
    cipher = str(attrs.get("SSLCIPH") or "").strip()
    context = _tls_context(name, tls, cipher, str(attrs.get("CERTLABL") or "")) if cipher else None
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection(
            host, port, ssl=context, server_hostname=cipherspecs.sni_for_channel(name) if context else None), timeout)
    except ssl.SSLError:
        raise
    except OSError as error:  # refused, unreachable, timed out: IBM's AMQ9202E
        raise HostUnavailable(name, host, port, error) from None
    if context is not None:
        subject, _ = tls_rules.peer_certificate(writer.transport)
        wanted = str(attrs.get("SSLPEER") or "")
        if not tls_rules.peer_matches(wanted, subject):
            writer.close()
            raise ChannelFailed(f"AMQ9636E: the partner's certificate {subject!r} does not match SSLPEER({wanted}) "
                                f"of channel '{name}'", C.MQRC_SSL_PEER_NAME_MISMATCH, stop=True)
    return reader, writer


def _tls_context(name: str, tls: ServerTls | None, cipher: str, label: str) -> ssl.SSLContext:
    if tls is None:
        raise ChannelFailed("no TLS key repository in this process", C.MQRC_SSL_INITIALIZATION_ERROR, stop=True)
    try:
        return tls.client_context(cipher, label)
    except (KeyRepositoryError, ssl.SSLError, ValueError) as error:
        raise ChannelFailed(f"AMQ9635E: channel '{name}': TLS: {error}", C.MQRC_SSL_INITIALIZATION_ERROR,
                            stop=True) from None


async def expect(connection: wire.ChannelConnection, reader: asyncio.StreamReader, kind: type[Any],
                 timeout: float, received: Callable[[int], None] | None = None) -> Any:
    """The partner's next frame, which must be ``kind`` (a REFUSE or CLOSE ends the channel);
    ``received`` counts the bytes read."""
    while True:
        event = connection.next_event()
        if event is wire.NEED_DATA:
            # A partner silent for the receive timeout is gone (a network that died without a reset).
            data = await asyncio.wait_for(reader.read(65536), timeout)
            if not data:
                raise EOFError("the partner closed the connection")
            if received is not None:
                received(len(data))
            connection.receive_data(data)
            continue
        if isinstance(event, wire.Refuse | wire.Close):
            raise ChannelFailed(f"the partner ended the channel: {event.text} (reason {event.reason})",
                                event.reason, stop=isinstance(event, wire.Refuse) and event.reason in FINAL)
        if isinstance(event, kind):
            return event
        raise ChannelFailed(f"unexpected {type(event).__name__} from the partner", C.MQRC_UNEXPECTED_ERROR)
