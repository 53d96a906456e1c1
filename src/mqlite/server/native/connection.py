"""One client connection (a socket): bytes in, native-protocol events, frames out.

The socket carries one conversation (an Hconn, ``server.native.conversation``), or several
when its SVRCONN channel shares conversations (SHARECNV above 1): it hands each request to the
conversation its frame names. It owns what belongs to the socket: flow control, the password
check in progress, heartbeats, and the channel instance its conversations share (one instance
counts once against MAXINST and MAXINSTC however many conversations it carries).

Only a byte stream that is out of step (an oversize frame) closes the connection; everything
else ends as a reply with its reason code. The queue manager keeps serving everyone else.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import time
from typing import TYPE_CHECKING, Final, cast

from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.core.security.principal import Principal
from mqlite.protocol import channel as channel_wire
from mqlite.protocol import native
from mqlite.server import tls_rules
from mqlite.server.channels.svrconn import Instance
from mqlite.server.native.chlauth_gate import refused_at_accept
from mqlite.server.native.conversation import Conversation, ConversationSink
from mqlite.server.native.handshake import Admitted, Gate, Hello
from mqlite.server.os_identity import peer_principal
from mqlite.server.runtime import Round, Session
from mqlite.server.tcp import keep_alive

if TYPE_CHECKING:
    from mqlite.server.runtime import Runtime

log = logging.getLogger("mqlite.server")
Op = native.Op
ROUND_OUTPUT_LIMIT: Final = 1 << 20  # bytes of replies one round may produce before it yields
# Requests one round takes before the loop serves others: a client streaming asynchronous puts
# must not hold the loop for a whole 256 KB read (~30 ms) while a channel's turn waits behind it.
ROUND_REQUEST_LIMIT: Final = 64
BUFFERED_INPUT_LIMIT: Final = 1 << 18  # bytes of requests read ahead of the rounds: then reading pauses


class ClientConnection(asyncio.Protocol):
    """The server side of one native-protocol connection."""

    def __init__(self, runtime: Runtime, gate: Gate, registry: set[ClientConnection] | None = None) -> None:
        self.runtime = runtime
        self.gate = gate
        # where the host finds its connections again to close them at the end (a set of its own,
        # not a subclass: compiled, an interpreted subclass's every attribute goes through a dict)
        self.registry = registry
        if registry is not None:
            registry.add(self)
        self.instance: Instance | None = None  # the SVRCONN channel instance its conversations share
        self.login: asyncio.Task[None] | None = None  # a CONNECT's password check in progress
        self.codec = native.NativeConnection(native.Role.SERVER)
        self.transport: asyncio.Transport | None = None
        self.first: Conversation | None = None  # conversation 0, the one plain frames belong to
        self.shared: dict[int, Conversation] = {}  # the others, by number (SHARECNV)
        self.os_principal: Principal | None = None  # a local connection's OS user and groups
        self.local = False  # over the Unix socket
        self.writing_paused = False
        self.input_paused = False  # BUFFERED_INPUT_LIMIT reached: reading waits for the rounds
        self._process_soon = False  # a _process is scheduled
        self.heard = time.monotonic()  # when the client last sent anything (heartbeats, HBINT)
        self.beat_sent = 0.0  # when our last heartbeat went, if unanswered since
        self._opening: bytes | None = b""  # the first bytes, until they tell a client from a channel

    # -- transport events -----------------------------------------------------------------
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # uvloop's transports do not derive from asyncio.Transport; they behave like one.
        self.transport = cast(asyncio.Transport, transport)
        sock = transport.get_extra_info("socket")
        self.local = sock is not None and sock.family == socket.AF_UNIX
        if not self.local and refused_at_accept(self.runtime.core, self.address()):
            self.transport.abort()  # (connection_lost follows: nothing was set up)
            self.runtime.finish(Round())  # the event message
            return
        self.first = Conversation(self, 0, self.transport)
        self.runtime.readers.add(self.transport)
        if self.runtime.reading_paused:
            self.transport.pause_reading()
        self.os_principal = peer_principal(transport)
        if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def conversations(self) -> list[Conversation]:
        return ([self.first] if self.first is not None else []) + list(self.shared.values())

    def pause_writing(self) -> None:
        """The client is not reading its replies: stop reading its requests until it does, so a
        client that only writes cannot fill the queue manager's memory with unsent replies."""
        self.writing_paused = True
        if self.transport is not None:
            self.transport.pause_reading()

    def resume_writing(self) -> None:
        self.writing_paused = False
        if self.transport is None or self.transport.is_closing():
            return
        if self._may_read():
            self.transport.resume_reading()
        if self.codec.buffered and not self._process_soon:
            self._process_soon = True
            asyncio.get_running_loop().call_soon(self._process)  # requests that waited for us

    def connection_lost(self, exc: Exception | None) -> None:
        if self.registry is not None:
            self.registry.discard(self)
        self.gate.beating.discard(self)
        if self.instance is not None:
            self.gate.clients.discard(self.instance)
            self.instance = None
        if self.login is not None:
            self.login.cancel()
        if self.transport is not None:
            self.runtime.readers.discard(self.transport)
        for conversation in self.conversations():
            conversation.ended()

    def data_received(self, data: bytes) -> None:
        self.runtime.busy_poll.touch()
        self.heard = time.monotonic()
        if self._opening is not None:  # one listener for clients and message channels
            data = self._opening + data
            if len(data) < 6 and _may_open_a_channel(data):
                self._opening = data
                return
            self._opening = None
            acceptor = self.runtime.channel_acceptor
            if acceptor is not None and not self.local and channel_wire.is_channel_start(data):
                transport = self.transport
                assert transport is not None
                self.connection_lost(None)  # no longer a client connection (tracked, read-paused...)
                acceptor(transport, data)
                return
        try:
            self.codec.receive_data(data)
        except native.ProtocolError:
            return
        if self._process_soon:  # earlier requests wait for the loop's next turn: these join them
            assert self.transport is not None
            self._pace_input(self.transport)
            return
        self._process()

    def _process(self) -> None:
        """Handle the requests buffered so far, as rounds. A round stops taking requests once
        its replies pass ROUND_OUTPUT_LIMIT; the rest wait in the codec until the client has read
        them (``resume_writing``), so a few bytes of requests cannot make megabytes of replies.
        It also stops after ROUND_REQUEST_LIMIT requests: the rest are served in the loop's next
        turn, after whatever else is ready (a channel, a durable round's replies)."""
        self._process_soon = False
        codec = self.codec
        round_ = Round()
        more = False
        taken = 0
        while not self.writing_paused and self.login is None:  # requests after a CONNECT wait for it
            if round_.size > ROUND_OUTPUT_LIMIT or taken == ROUND_REQUEST_LIMIT:
                more = True
                break
            taken += 1
            try:
                event = codec.next_event()
            except native.ProtocolError as error:
                self._protocol_error(round_, error)
                if error.fatal:
                    self.runtime.finish(round_)
                    self._end_after()
                    return
                continue
            if event is native.NEED_DATA:
                break
            assert isinstance(event, native.Request)
            number = codec.conversation
            if number == 0:
                assert self.first is not None
                self.first.handle(round_, event)
            else:
                self._handle_shared(round_, number, event)
        self.runtime.finish(round_)
        transport = self.transport
        if transport is None or transport.is_closing():
            return
        if more and not self.writing_paused and not self._process_soon:
            self._process_soon = True
            asyncio.get_running_loop().call_soon(self._process)
        self._pace_input(transport)

    def _pace_input(self, transport: asyncio.Transport) -> None:
        """Pause reading while more than BUFFERED_INPUT_LIMIT of requests wait for their rounds.
        Only whole requests waiting for the loop's next turn count: the rest of a large message
        still to come must be read (a frame bigger than the limit would wait for ever)."""
        buffered = self.codec.buffered if self._process_soon else 0
        if not self.input_paused and buffered > BUFFERED_INPUT_LIMIT:
            self.input_paused = True
            transport.pause_reading()
        elif self.input_paused and buffered <= BUFFERED_INPUT_LIMIT // 2:
            self.input_paused = False
            if self._may_read():
                transport.resume_reading()

    def _may_read(self) -> bool:
        """Nothing holds reading back: not this client's unread replies, not its requests waiting
        for their rounds, not the store's backlog (``Runtime._pause_reading``)."""
        return not (self.writing_paused or self.input_paused or self.runtime.reading_paused)

    def _handle_shared(self, round_: Round, number: int, request: native.Request) -> None:
        """A request of a shared conversation; a CONNECT under a new number starts one."""
        conversation = self.shared.get(number)
        if conversation is None:
            assert self.transport is not None
            conversation = Conversation(self, number, ConversationSink(self.transport, number))
            if request.op is Op.CONNECT:
                self.shared[number] = conversation  # ended again below if the CONNECT fails
        conversation.handle(round_, request)
        refused = request.op is Op.CONNECT and not conversation.connected and self.login is None
        if refused or request.op is Op.DISCONNECT:
            self.shared.pop(number, None)

    def _protocol_error(self, round_: Round, error: native.ProtocolError) -> None:
        log.warning("AMQ9504E: protocol error from %s: %s", self.peer(), error)
        if error.req_id:
            round_.add(self._output(self.codec.conversation), native.encode_reply(
                error.req_id, 2, error.reason, str(error.text)))
        if error.fatal and self.transport is not None:
            self.transport.pause_reading()  # the stream is out of step: read no more

    def _output(self, number: int) -> Session:
        conversation = self.shared.get(number) if number else self.first
        if conversation is None:  # a number nobody started: answer it all the same
            assert self.transport is not None
            conversation = Conversation(self, number, ConversationSink(self.transport, number))
        return conversation.session

    def _end_after(self) -> None:
        """Close once the replies owed for the requests before a fatal frame (the round just
        finished, or earlier ones waiting for the disk) have been written."""
        transport = self.transport
        if transport is None:
            return
        waiting = [c.session for c in self.conversations() if c.session.pending]
        if not waiting:
            transport.close()
            return
        left = len(waiting)

        def drained() -> None:
            nonlocal left
            left -= 1
            if not left:
                transport.close()

        for session in waiting:
            session.on_drained = drained

    def peer(self) -> str:
        if self.transport is None:
            return "?"
        peer = self.transport.get_extra_info("peername")
        return str(peer) if peer else "local"

    def address(self) -> str:
        """The client's IP address (CONNAME), or "" for a local connection."""
        if self.transport is None or self.local:
            return ""
        peer = self.transport.get_extra_info("peername")
        return str(peer[0]) if isinstance(peer, tuple) and peer else ""

    # -- what conversations ask of their socket -----------------------------------------------------
    def pause_for(self, task: asyncio.Task[None]) -> None:
        """A conversation awaits something before it answers (a password check at CONNECT, the
        cluster's full repositories at MQOPEN): read nothing more until it answered."""
        transport = self.transport
        assert transport is not None
        transport.pause_reading()
        self.login = task

        def done(_: asyncio.Task[None]) -> None:
            self.login = None
            if transport.is_closing():
                return
            for number, conversation in list(self.shared.items()):  # a refused sharer ends
                if not conversation.connected:
                    del self.shared[number]
            if not self.runtime.reading_paused and not self.writing_paused:
                transport.resume_reading()
            if self.codec.buffered:
                self._process()

        task.add_done_callback(done)

    def sharing_with(self, conversation: Conversation) -> Instance | None:
        """The channel instance a conversation other than the first joins (None for the first).
        Raises MQError 2537 unless the instance shares conversations and has room for one more."""
        if conversation is self.first:
            return None
        instance = self.instance
        if instance is None or instance.sharecnv <= 1:
            raise MQError(C.MQRC_CHANNEL_NOT_AVAILABLE,
                          "this connection shares no conversations (its first is not connected, or SHARECNV < 2)")
        if instance.conversations >= instance.sharecnv:
            raise MQError(C.MQRC_CHANNEL_NOT_AVAILABLE,
                          f"channel '{instance.channel}': SHARECNV({instance.sharecnv}) conversations "
                          "already share this instance")
        return instance

    def join_instance(self, conversation: Conversation, hello: Hello, admitted: Admitted,
                      principal: Principal) -> None:
        """A conversation connected through a channel: the first makes the socket an instance of
        it; the others are counted in its CURSHCNV."""
        if self.instance is not None:
            self.instance.conversations += 1
            return
        if self.transport is None:
            return
        self.instance = Instance(admitted.channel, hello.address, principal.user, hello.appl_name,
                                 admitted.maxmsgl, admitted.hbint, admitted.kaint, admitted.sharecnv,
                                 self.transport.close, tls=tls_rules.status(self.transport))
        self.gate.clients.add(self.instance)
        keep_alive(self.transport, admitted.kaint)
        if admitted.hbint > 0:
            self.gate.beating.add(self)

    def leave_instance(self, conversation: Conversation) -> None:
        """A conversation disconnected: the instance ends with the last one."""
        instance = self.instance
        if instance is None:
            return
        instance.conversations -= 1
        if instance.conversations <= 0:
            self.gate.clients.discard(instance)
            self.gate.beating.discard(self)
            self.instance = None

    # -- heartbeats (server/native/heartbeat.Beating) -------------------------------------------
    def heartbeat_interval(self) -> int:
        return self.instance.hbint if self.instance is not None else 0

    def waiting(self) -> bool:
        return any(c.session.waiters for c in self.conversations())

    def send_heartbeat(self, frame: bytes) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(frame)

    def timed_out(self, text: str) -> None:
        """The client did not answer a heartbeat: end the connection (its waiting gets are
        cancelled and its units of work backed out, as for any broken connection)."""
        channel = self.instance.channel if self.instance is not None else ""
        log.error("AMQ9271E: Channel '%s' timed out: %s (%s)", channel, text, self.peer())
        self.gate.beating.discard(self)
        if self.transport is not None:
            self.transport.abort()  # not close(): a dead peer never takes what is buffered for it


def _may_open_a_channel(start: bytes) -> bool:
    """Whether the first bytes (fewer than a HELLO needs to be told apart) could still begin a
    message channel's HELLO: a short frame that is a msgpack array. Anything else is a client's."""
    if len(start) >= 4 and int.from_bytes(start[:4], "big") > 65536:
        return False
    return len(start) < 5 or 0x90 <= start[4] <= 0x9F
