"""Everything the top-level ``mqlite`` package re-exports from the client.

``mqlite/__init__.py`` star-imports this module, so ``import mqlite as pymqi`` finds pymqi's
names (``connect``, ``QueueManager``, ``Queue``, ``MD``, ``GMO``, ``MQMIError``, ``CMQC``...)
and the Pythonic helpers (``ReceivedMessage``) at the top level.
"""

from __future__ import annotations

from mqlite import cmqc as CMQC
from mqlite.client import cmqxc as CMQXC
from mqlite.client.common import ReceivedMessage
from mqlite.client.errors import Error, MQMIError, PYIFError
from mqlite.client.handles import MessageHandle
from mqlite.client.pcf_execute import (
    CFBF,
    CFBS,
    CFGR,
    CFH,
    CFIF,
    CFIL,
    CFIL64,
    CFIN,
    CFIN64,
    CFSF,
    CFSL,
    CFST,
    ByteString,
    ByteStringFilter,
    Filter,
    IntegerFilter,
    PCFExecute,
    StringFilter,
)
from mqlite.client.pubsub import Subscription, Topic
from mqlite.client.pymqi_api import Queue, QueueManager, connect, make_q_desc
from mqlite.client.rfh2 import RFH2
from mqlite.client.rfh2_chain import ensure_bytes, ensure_not_unicode, is_unicode
from mqlite.client.structs import CD, CMHO, CSP, GMO, IMPO, MD, OD, PD, PMO, SCO, SD, SMPO, SRO, STS, MQOpts

# CMQCFC: mqlite's cmqc carries the few admin constants it has; pymqi code naming CMQCFC finds them.
CMQCFC = CMQC
CMQZC = CMQC  # pymqi's CMQZC (MQZAO_*, MQZAET_*, ...) is in the same namespace

# pymqi's build flags (its C module's): every mqlite connection goes through the client protocol,
# as a pymqi built against IBM's MQ client ("client"; a "server" build connects in bindings
# mode only). The MQI levels: those whose calls and structures the client takes, up to MQ 8.0's
# MQCSP user and password (the queue manager's command level, CMDLEVEL, is its own: 700).
__mqbuild__ = "client"
__mqlevels__ = ("5.0", "5.1", "5.2", "5.3", "6.0", "7.0", "7.0.1", "7.1", "7.5", "8.0")

# pymqi's lower-case names of its structures, kept by pymqi for programs written before 1.0
gmo, pmo, od, md, cd, sco = GMO, PMO, OD, MD, CD, SCO
makeQDesc = make_q_desc

__all__ = [
    "CD",
    "CFBF",
    "CFBS",
    "CFGR",
    "CFH",
    "CFIF",
    "CFIL",
    "CFIL64",
    "CFIN",
    "CFIN64",
    "CFSF",
    "CFSL",
    "CFST",
    "CMHO",
    "CMQC",
    "CMQCFC",
    "CMQXC",
    "CMQZC",
    "CSP",
    "GMO",
    "IMPO",
    "MD",
    "OD",
    "PD",
    "PMO",
    "RFH2",
    "SCO",
    "SD",
    "SMPO",
    "SRO",
    "STS",
    "ByteString",
    "ByteStringFilter",
    "Error",
    "Filter",
    "IntegerFilter",
    "MQMIError",
    "MQOpts",
    "MessageHandle",
    "PCFExecute",
    "PYIFError",
    "Queue",
    "QueueManager",
    "ReceivedMessage",
    "StringFilter",
    "Subscription",
    "Topic",
    "__mqbuild__",
    "__mqlevels__",
    "cd",
    "connect",
    "ensure_bytes",
    "ensure_not_unicode",
    "gmo",
    "is_unicode",
    "makeQDesc",
    "make_q_desc",
    "md",
    "od",
    "pmo",
    "sco",
]
