"""PING CHANNEL: dial a sending channel's partner as a start would (address, TLS, SSLPEER, the
partner's definition and channel authentication), send DATALEN bytes, and check that the same
bytes come back. No sequence number changes and no message moves (``protocol.channel``)."""

from __future__ import annotations

import contextlib
import logging
import os
from typing import TYPE_CHECKING

from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.mqsc import display
from mqlite.mqsc.commands import Outcome, PingRequest, Status
from mqlite.protocol import channel as wire
from mqlite.server.channels.agent_base import ChannelFailed, HostUnavailable
from mqlite.server.channels.dial import dial, expect

if TYPE_CHECKING:
    from mqlite.server.tls import ServerTls

log = logging.getLogger("mqlite.server")
PING_TIMEOUT = 30.0  # seconds for the whole exchange once connected


async def ping(request: PingRequest, qmgr: str, tls: ServerTls | None) -> Outcome:
    """The outcome runmqsc prints: AMQ8020I, or the reason the ping failed."""
    name, attrs = request.channel, request.attrs
    try:
        await _exchange(name, attrs, qmgr, tls, os.urandom(request.datalen))
    except MQError as error:
        log.warning("AMQ9999E: PING CHANNEL(%s) failed: %s", name, error.text)
        return Outcome(Status.FAILED, display.mq_error(error, name))
    return Outcome(Status.OK, ["AMQ8020I: Ping WebSphere MQ channel complete."])


async def _exchange(name: str, attrs: dict[str, object], qmgr: str, tls: ServerTls | None, data: bytes) -> None:
    try:
        reader, writer = await dial(name, attrs, tls)
    except ChannelFailed as error:
        raise MQError(error.reason, error.text) from None
    except HostUnavailable as error:
        log.error("%s", error.explanation)
        raise MQError(C.MQRCCF_ALLOCATE_FAILED, str(error)) from None
    except OSError as error:  # TLS refused before the conversation started
        raise MQError(C.MQRCCF_ALLOCATE_FAILED, f"AMQ9202E: channel {name}: {error}") from None
    connection = wire.ChannelConnection(wire.Role.SENDER)
    try:
        writer.write(connection.send(wire.Hello({"channel": name, "type": attrs["CHLTYPE"], "qmgr": qmgr})))
        await expect(connection, reader, wire.Accept, PING_TIMEOUT)
        writer.write(connection.send(wire.Ping(data)))
        echoed = await expect(connection, reader, wire.Ping, PING_TIMEOUT)
        if echoed.data != data:
            raise MQError(C.MQRCCF_PING_DATA_COMPARE_ERROR, f"the partner of {name} sent back other data")
        writer.write(connection.send(wire.Close(0, "ping complete")))
    except ChannelFailed as error:
        raise MQError(error.reason if error.reason != C.MQRC_CONNECTION_BROKEN else C.MQRCCF_PING_ERROR,
                      f"AMQ9999E: {error.text}") from None
    except (OSError, EOFError, TimeoutError, wire.ProtocolError) as error:
        raise MQError(C.MQRCCF_PING_ERROR, f"AMQ9999E: ping of channel {name} failed: "
                      f"{type(error).__name__}: {error}") from None
    finally:
        with contextlib.suppress(OSError):
            writer.close()
