"""Channel events (IBM's "Channel Started", "Channel Stopped", "Channel Stopped By User") on
SYSTEM.ADMIN.CHANNEL.EVENT, as the queue manager's CHLEV says (IBM's ChannelEvent):

- DISABLED: none;
- EXCEPTION: Channel Stopped with ReasonQualifier MQRQ_CHANNEL_STOPPED_ERROR, _RETRY or
  _DISABLED, Channel Stopped By User (and the other exceptions: Channel Blocked...);
- ENABLED: all of those, and Channel Started and Channel Stopped with MQRQ_CHANNEL_STOPPED_OK.

A Channel Stopped is issued only by a channel instance that issued a Channel Started. Client
connections (SVRCONN) produce neither, as at IBM.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from mqlite import cmqc as C
from mqlite.core.security.events import event_message
from mqlite.message import Message
from mqlite.protocol import pcf

CHANNEL_EVENT_QUEUE = "SYSTEM.ADMIN.CHANNEL.EVENT"
SENDING_TYPES = frozenset({"SDR", "SVR", "CLUSSDR", "CLUSRCVR"})  # the types whose events name the XmitQName
_AMQ = re.compile(r"AMQ(\d{4})")


def reported(chlev: str, reason: int, qualifier: int = 0) -> bool:
    """Whether CHLEV(``chlev``) reports this channel event."""
    if chlev == "ENABLED":
        return True
    if chlev != "EXCEPTION":
        return False
    if reason == C.MQRC_CHANNEL_STARTED:
        return False
    return not (reason == C.MQRC_CHANNEL_STOPPED and qualifier == C.MQRQ_CHANNEL_STOPPED_OK)


def stop_qualifier(status: str, error: bool) -> int:
    """Channel Stopped's ReasonQualifier from the state the channel ends in: RETRYING, STOPPED,
    or ended with an error, or ended well."""
    if status == "RETRYING":
        return C.MQRQ_CHANNEL_STOPPED_RETRY
    if status == "STOPPED":
        return C.MQRQ_CHANNEL_STOPPED_DISABLED
    return C.MQRQ_CHANNEL_STOPPED_ERROR if error else C.MQRQ_CHANNEL_STOPPED_OK


def error_identifier(text: str) -> int:
    """IBM's ErrorIdentifier of an AMQnnnn message: its message number (AMQ9202 is 0x20009202)."""
    found = _AMQ.search(text)
    return 0x20000000 | int(found.group(1), 16) if found else 0


def started(qmgr_name: str, channel: str, xmitq: str, conname: str) -> list[tuple[int, pcf.Value]]:
    """Channel Started's data: QMgrName, ChannelName, XmitQName (sending channels), ConnectionName."""
    params: list[tuple[int, pcf.Value]] = [(C.MQCA_Q_MGR_NAME, qmgr_name), (C.MQCACH_CHANNEL_NAME, channel)]
    if xmitq:
        params.append((C.MQCACH_XMIT_Q_NAME, xmitq))
    return [*params, (C.MQCACH_CONNECTION_NAME, conname)]


def stopped(qmgr_name: str, channel: str, qualifier: int, xmitq: str, conname: str,
            error: int = 0, text: str = "") -> list[tuple[int, pcf.Value]]:
    """Channel Stopped's data in IBM's order: QMgrName, ReasonQualifier, ChannelName,
    ErrorIdentifier, AuxErrorDataInt1/2, AuxErrorDataStr1/2/3, XmitQName, ConnectionName."""
    params: list[tuple[int, pcf.Value]] = [
        (C.MQCA_Q_MGR_NAME, qmgr_name), (C.MQIACF_REASON_QUALIFIER, qualifier), (C.MQCACH_CHANNEL_NAME, channel),
        (C.MQIACF_ERROR_IDENTIFIER, error), (C.MQIACF_AUX_ERROR_DATA_INT_1, 0),
        (C.MQIACF_AUX_ERROR_DATA_INT_2, 0), (C.MQCACF_AUX_ERROR_DATA_STR_1, text[:48]),
        (C.MQCACF_AUX_ERROR_DATA_STR_2, ""), (C.MQCACF_AUX_ERROR_DATA_STR_3, "")]
    if xmitq:
        params.append((C.MQCACH_XMIT_Q_NAME, xmitq))
    return [*params, (C.MQCACH_CONNECTION_NAME, conname)]


def stopped_by_user(qmgr_name: str, channel: str) -> list[tuple[int, pcf.Value]]:
    """Channel Stopped By User's data: QMgrName, ReasonQualifier (MQRQ_CHANNEL_STOPPED_DISABLED),
    ChannelName."""
    return [(C.MQCA_Q_MGR_NAME, qmgr_name), (C.MQIACF_REASON_QUALIFIER, C.MQRQ_CHANNEL_STOPPED_DISABLED),
            (C.MQCACH_CHANNEL_NAME, channel)]


class ChannelEvents:
    """Puts a message channel's events, as CHLEV says. The agents call ``started`` when a
    channel instance reaches RUNNING and ``ended`` when it ends."""

    def __init__(self, qmgr_name: str, qmgr_attrs: dict[str, Any], put: Callable[[str, Message], bool],
                 clock: Callable[[], float]) -> None:
        self.qmgr_name = qmgr_name
        self.qmgr_attrs = qmgr_attrs
        self.put = put
        self.clock = clock

    def _emit(self, reason: int, params: list[tuple[int, pcf.Value]], qualifier: int = 0) -> bool:
        if not reported(str(self.qmgr_attrs.get("CHLEV", "DISABLED")), reason, qualifier):
            return False
        message = event_message(self.qmgr_name, params, self.clock(), reason, C.MQCMD_CHANNEL_EVENT)
        return self.put(CHANNEL_EVENT_QUEUE, message)

    def started(self, channel: str, chltype: str, xmitq: str, conname: str) -> bool:
        xmitq = xmitq if chltype in SENDING_TYPES else ""
        return self._emit(C.MQRC_CHANNEL_STARTED, started(self.qmgr_name, channel, xmitq, conname))

    def ended(self, channel: str, chltype: str, xmitq: str, conname: str, status: str, error_text: str = "",
              by_user: bool = False) -> None:
        """A channel instance that issued Channel Started ended: Channel Stopped By User when an
        operator stopped it, then Channel Stopped with the qualifier of the state it ends in."""
        xmitq = xmitq if chltype in SENDING_TYPES else ""
        if by_user:
            self._emit(C.MQRC_CHANNEL_STOPPED_BY_USER, stopped_by_user(self.qmgr_name, channel))
            status = "STOPPED"
        qualifier = stop_qualifier(status, bool(error_text))
        self._emit(C.MQRC_CHANNEL_STOPPED, stopped(self.qmgr_name, channel, qualifier, xmitq, conname,
                                                   error_identifier(error_text), error_text), qualifier)
