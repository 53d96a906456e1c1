"""The queued publish/subscribe daemon (IBM's amqfqpub): system-queue servers reading
SYSTEM.BROKER.CONTROL.QUEUE and the stream queues, each command message in a unit of work with
its effects and its response (spec D §1, §3.7, §15).

- PSMODE(ENABLED) serves; under COMPAT or DISABLED the messages wait on their queues and are
  served, in order, when it is ENABLED again (R-PSM-3, A-44, D:S-25).
- The queues follow the two namelists: read at start and whenever one is altered (R-NL-1);
  a stream without a topic object of its name is not read (logged, D §15 step 1).
- ``core.pubsub.queued`` decides; here the response goes to ReplyToQ at ReplyToQMgr when R-RSP-1
  says so. A response that cannot be put (R-RSP-5): a Publish's goes to the dead-letter queue
  and the publication stands; another command's goes there too when it is persistent or
  PSNPRES is NORMAL or SAFE, is dropped under DISCARD, and under KEEP (or when the dead-letter
  queue refuses it) the command is backed out and tried again.
- A command refused with no response to carry the refusal goes to the dead-letter queue with
  its reason, so nothing is lost silently (D:S-03 (e): not left on the queue).
- A command that fails (a copy no queue takes under PMSGDLV(ALL), a store failure) is backed
  out and tried again, PSRTYCNT times in all; then it goes to the dead-letter queue (discarded
  with MQRO_DISCARD_MSG) and a negative response is sent if one was asked for (D §1.2).
  Deviation: IBM's SAFE and KEEP retry "at intervals" for ever; here they stop at PSRTYCNT too,
  so that one message cannot stop the queue.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.core.handles import Connection, GetResult
from mqlite.core.pubsub.queued import Outcome
from mqlite.core.queued import responses
from mqlite.core.queued.commands import Refusal
from mqlite.message import Message, MessageDescriptor
from mqlite.server.system_queue import DEAD_LETTER, DISCARD, RETRY, SystemQueueServer

if TYPE_CHECKING:
    from collections.abc import Callable

    from mqlite.server.runtime import Runtime

log = logging.getLogger("mqlite.server")
APPL_NAME = "amqfqpub"
BATCH = 20  # command messages that arrived together share a unit of work


class _Undelivered(MQError):
    """The response could not be put and the command is to be tried again."""


class QueuedDaemon:
    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime
        self.core = runtime.core
        self.interface = runtime.core.queued
        self.servers: dict[str, SystemQueueServer] = {}
        self.core.on_queued_change = self.changed
        self.interface.reload()  # the namelists as recovered (R-NL-1: read at start)
        self.changed()

    @property
    def running(self) -> bool:
        return bool(self.core.attrs.get("PSMODE", "ENABLED") == "ENABLED")

    def changed(self) -> None:
        """PSMODE or a namelist changed: serve the queues the interface monitors now."""
        wanted = [queue for queue in self.interface.monitored() if queue in self.core.queues]
        for queue in [q for q in self.servers if q not in wanted]:
            self.servers.pop(queue).close()
        for queue in wanted:
            if queue not in self.servers:
                try:
                    self.servers[queue] = SystemQueueServer(
                        self.runtime, queue, APPL_NAME, self._handler(queue), self._failed(queue),
                        paused=lambda: not self.running, batch=BATCH)
                except MQError as error:  # (an application holds it for exclusive input)
                    log.error("AMQ5807E: queued publish/subscribe cannot read %s: %s", queue, error.text or error)
        for server in self.servers.values():
            server.interrupt()

    def stop(self) -> None:
        for server in self.servers.values():
            server.stop()

    # -- one command message -----------------------------------------------------------------------
    def _handler(self, queue: str) -> Callable[[Connection, GetResult], None]:
        def handle(conn: Connection, result: GetResult) -> None:
            message = result.message
            outcome = self.interface.process(conn, queue, message)
            if responses.response_required(message.md, outcome.completion):
                self._respond(conn, message.md, outcome)
            elif outcome.completion == C.MQPSCR_ERROR:
                reason = _reason(outcome)
                log.warning("AMQ5813W: command message on %s from %s refused (%d) with no response asked for: "
                            "to the dead-letter queue", queue, message.md.UserIdentifier.strip() or "?", reason)
                if not self.core.dead_letter(message, reason, queue):
                    log.error("AMQ9544E: refused command message from %s lost: no dead-letter queue", queue)

        return handle

    def _respond(self, conn: Connection, command: MessageDescriptor, outcome: Outcome) -> None:
        ccsid = int(self.core.attrs.get("CCSID", 1208))
        md = responses.response_md(command, self.core.name, ccsid)
        if outcome.version == 1:  # a version 6 command is answered with an MQRFH (D Annex A)
            md.Format = C.MQFMT_RF_HEADER
            data = responses.response_data_rfh1(outcome.pscr, outcome.pairs, ccsid)
        else:
            data = responses.response_data(outcome.pscr, outcome.psc, ccsid, outcome.described)
        queue, qmgr = command.ReplyToQ.strip(), command.ReplyToQMgr.strip()
        options = C.MQPMO_SYNCPOINT | C.MQPMO_SET_ALL_CONTEXT
        if not command.Report & C.MQRO_PASS_MSG_ID:
            options |= C.MQPMO_NEW_MSG_ID
        try:
            if not queue:
                raise MQError(C.MQRC_MISSING_REPLY_TO_Q, "the command has no ReplyToQ")
            self.core.mqi.put_to_qmgr(conn, qmgr, queue, md, options, {}, data)
            return
        except MQError as error:
            reason = error.reason
        persistent = md.Persistence == C.MQPER_PERSISTENT
        mode = str(self.core.attrs.get("PSNPRES", "NORMAL"))
        if outcome.command != "Publish" and not persistent and mode == "DISCARD":
            log.warning("AMQ5814W: response to %s not delivered (%d): discarded (PSNPRES(DISCARD))", queue, reason)
            return
        if outcome.command == "Publish" or persistent or mode in ("NORMAL", "SAFE"):
            if self.core.dead_letter(Message(md, data), reason, queue, qmgr):
                log.warning("AMQ5815W: response to %s not delivered (%d): dead-lettered", queue, reason)
                return
            if outcome.command == "Publish" or (not persistent and mode == "NORMAL"):
                log.error("AMQ5816E: response to %s lost (%d): the dead-letter queue refused it", queue, reason)
                return
        raise _Undelivered(reason, f"the response to {queue} could not be delivered")

    def _failed(self, queue: str) -> Callable[[GetResult, MQError], str]:
        def failed(result: GetResult, error: MQError) -> str:
            md = result.message.md
            tries = md.BackoutCount + 1
            limit = int(self.core.attrs.get("PSRTYCNT", 5))
            if tries <= limit:
                return RETRY
            log.error("AMQ5817E: command message on %s not processed after %d attempts (%d): %s", queue, tries,
                      error.reason, error.text or error)
            if responses.response_required(md, C.MQPSCR_ERROR) and md.ReplyToQ.strip():
                outcome = Outcome(responses.error(Refusal(C.MQRCCF_COMMAND_FAILED)))
                ccsid = int(self.core.attrs.get("CCSID", 1208))
                data = responses.response_data(outcome.pscr, None, ccsid)
                try:
                    self.core.mqi.put_to_qmgr(self.servers[queue].conn, md.ReplyToQMgr.strip(), md.ReplyToQ.strip(),
                                              responses.response_md(md, self.core.name, ccsid),
                                              C.MQPMO_NO_SYNCPOINT | C.MQPMO_SET_ALL_CONTEXT | C.MQPMO_NEW_MSG_ID,
                                              {}, data)
                except MQError as put_error:
                    log.error("AMQ5816E: negative response to %s lost (%d)", md.ReplyToQ.strip(), put_error.reason)
            return DISCARD if md.Report & C.MQRO_DISCARD_MSG else DEAD_LETTER

        return failed


def _reason(outcome: Outcome) -> int:
    response = outcome.pscr.child(C.MQPSCR_RESPONSE)
    text = response.get(C.MQPSCR_REASON) if response is not None else None
    return int(text) if text and text.isdigit() else C.MQRCCF_COMMAND_FAILED


def start(runtime: Runtime) -> QueuedDaemon:
    return QueuedDaemon(runtime)
