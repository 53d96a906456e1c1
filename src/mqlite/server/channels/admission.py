"""Who a message channel's partner may be: channel authentication for receiving channels.

IBM's records apply as they do to client channels, with the message channels' own kinds:
BLOCKADDR, and the mapping records QMGRMAP (the partner's queue manager name), ADDRESSMAP and
SSLPEERMAP, whose USERSRC says NOACCESS (refused), CHANNEL (the channel's MCAUSER) or MAP (their
MCAUSER). BLOCKUSER is for client channels only, as IBM has it.

mqlite adds one rule, to be secure by default: a receiving channel with a blank MCAUSER would run
as the queue manager itself (IBM's MCA identity), so a partner gets in through it only when a
mapping record names it (or maps it to a user). Otherwise it is refused with 2035 and AMQ9777E,
like a USERSRC(NOACCESS) record. ``SET CHLAUTH(ch) TYPE(QMGRMAP) QMNAME(QM1) USERSRC(CHANNEL)``
lets QM1 in; an MCAUSER on the channel lets any partner in as that (unprivileged) user.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any

from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.core.qmgr import QueueManager
from mqlite.core.security.chlauth import Connecting, refusal_message
from mqlite.core.security.events import channel_blocked
from mqlite.core.security.principal import Principal
from mqlite.server.channels.agent_base import MCA_USER

log = logging.getLogger("mqlite.server")


def admit_partner(core: QueueManager, channel: str, attrs: Mapping[str, Any], address: str, partner_qmgr: str,
                  groups_of: Callable[[str], frozenset[str]], sslpeer: str = "", sslcerti: str = "") -> Principal:
    """The identity the channel's puts run as; MQError 2035 (with its log line and event) to refuse."""
    mcauser = str(attrs.get("MCAUSER") or "").strip()
    conn = Connecting(channel, address, "", sslpeer, sslcerti, qmname=partner_qmgr, mcauser=mcauser,
                      chltype=str(attrs["CHLTYPE"]))
    decision = core.check_channel(conn)

    def refuse(qualifier: int, line: str) -> MQError:
        core.authority_events.emit_channel(channel_blocked(core.name, qualifier, channel, address, decision.user,
                                                           sslpeer), C.MQRC_CHANNEL_BLOCKED)
        log.error("%s", line)
        return MQError(C.MQRC_NOT_AUTHORIZED, f"channel {channel} refused the partner {partner_qmgr} at {address}")

    if not decision.allowed:
        raise refuse(decision.qualifier, refusal_message(decision, conn))
    if decision.record is None and not mcauser and core.attrs.get("CHLAUTH", "ENABLED") == "ENABLED":
        raise refuse(C.MQRQ_CHANNEL_BLOCKED_NOACCESS, (
            f"AMQ9777E: Channel was blocked. The inbound channel '{channel}' was blocked from address '{address}' "
            f"(queue manager '{partner_qmgr}'): a receiving channel with a blank MCAUSER runs as the queue manager, "
            "so its partner must be named by a channel authentication record (QMGRMAP, ADDRESSMAP or SSLPEERMAP) "
            "or the channel given an MCAUSER."))
    user = decision.user if decision.record is not None and decision.record.usersrc == "MAP" else mcauser
    return Principal(user, groups_of(user)) if user else MCA_USER
