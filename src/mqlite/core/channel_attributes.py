"""The catalogue's entries for channels and AUTHINFO objects.

One CHANNEL catalogue holds the attributes of every channel type mqlite serves (MQSC parses
DEFINE CHANNEL before it knows the type); ``TYPE_ATTRIBUTES`` says which of them each type has,
and ``TYPE_DEFAULTS`` where a type's default differs from the catalogue's, so a SVRCONN channel
shows only what IBM shows for one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from mqlite.core.attribute_spec import MAXINT, Attr, Kind
from mqlite.core.attribute_spec import enum_attr as _e
from mqlite.core.attribute_spec import int_attr as _i
from mqlite.core.attribute_spec import str_attr as _s

# MAXINST on an MQTT channel is mqlite's (IBM has it on SVRCONN channels): the most clients
# connected through it at once. CHCKCLNT on an MQTT channel is mqlite's too (IBM sets it on an
# AUTHINFO object): whether an MQTT client's user name and password are checked.
_CHLTYPE_TOKENS = "SDR=1 SVR=2 RCVR=3 RQSTR=4 CLNTCONN=6 SVRCONN=7 CLUSRCVR=8 CLUSSDR=9 MQTT=10 AMQP=11"
CHANNEL: Final[tuple[Attr, ...]] = (
    _e("CHLTYPE", "MQTT", _CHLTYPE_TOKENS, 1511),
    _e("TRPTYPE", "TCP", "LU62=1 TCP=2 NETBIOS=3 SPX=4", 1501),
    _s("DESCR", "", 3502, 64),
    _i("PORT", 1883, 1522, 0, 65535),  # MQIACH_PORT
    _s("LOCLADDR", "", 3520, 48),
    _i("BACKLOG", 4096),
    Attr("PROTOCOL", Kind.LIST, ["MQTTV311", "MQTTV3", "MQTTV5", "HTTP"], maxlen=8),
    _s("MCAUSER", "", 3527, 12),
    _e("USECLTID", "NO", "NO=0 YES=1"),
    _e("CHCKCLNT", "OPTIONAL", "NONE=0 OPTIONAL=1 REQUIRED=2"),
    _i("MAXINST", MAXINT, 1618),
    _i("MAXINSTC", MAXINT, 1619),
    _i("SHARECNV", 10, 1614),
    _i("HBINT", 300, 1563, 0, 999_999),
    _i("KAINT", "AUTO", 1566, 0, 99_999, "AUTO=-1"),
    _i("MAXMSGL", 4_194_304, 1510, 0, 104_857_600),
    _s("SSLCIPH", "", 3544, 128),
    _e("SSLCAUTH", "NEVER", "REQUIRED=0 OPTIONAL=1 NEVER=2", 1568),
    _s("SSLPEER", "", 3545, 1024),
    _s("CERTLABL", "", 2121, 64),
    _s("SSLKEYR", "", None, 256),
    _s("SSLKEYP", "", None, 256),
    _s("JAASCFG", "", None, 256),
    # Message channels (SDR, SVR, RCVR, RQSTR): IBM's attributes and defaults.
    _s("CONNAME", "", 3506, 264),
    _s("XMITQ", "", 3505, 48),
    _i("BATCHSZ", 50, 1502, 1, 9999),
    _i("BATCHINT", 0, 1564, 0, 999_999_999),
    _i("BATCHLIM", 5000, 1624, 0, 999_999),
    _i("BATCHHB", 0, 1567, 0, 999_999_999),
    _i("DISCINT", 6000, 1503, 0, 999_999),
    _i("SHORTRTY", 10, 1505, 0, 999_999_999),
    _i("SHORTTMR", 60, 1504, 0, 999_999_999),
    _i("LONGRTY", 999_999_999, 1507, 0, 999_999_999),
    _i("LONGTMR", 1200, 1506, 0, 999_999_999),
    _i("SEQWRAP", 999_999_999, 1509, 100, 999_999_999),
    _e("NPMSPEED", "FAST", "NORMAL=1 FAST=2", 1562),
    _e("PUTAUT", "DEF", "DEF=1 CTX=2 ONLYMCA=3 ALTMCA=4", 1508),
    _e("CONVERT", "NO", "NO=0 YES=1", 1515),
    _e("USEDLQ", "YES", "NO=1 YES=2"),
    _i("MRRTY", 10, 1544, 0, 999_999_999),  # message retry: how often a put that failed is tried again
    _i("MRTMR", 1000, 1545, 0, 999_999_999),  # and how many milliseconds apart
    # Channel statistics (core.statistics): QMGR takes the queue manager's STATCHL.
    _e("STATCHL", "QMGR", "QMGR=-3 OFF=0 LOW=17 MEDIUM=33 HIGH=65", 129),
    # Cluster channels (CLUSSDR, CLUSRCVR): the clusters they serve and the workload attributes a
    # cluster-receiver publishes for the senders its partners build from it.
    _s("CLUSTER", "", 2029, 48),
    _s("CLUSNL", "", 2030, 48),
    _i("NETPRTY", 0, 1565, 0, 9),
    _i("CLWLRANK", 0, 1578, 0, 9),
    _i("CLWLPRTY", 0, 1579, 0, 9),
    _i("CLWLWGHT", 50, 1580, 1, 99),
)

_COMMON = ("CHLTYPE", "TRPTYPE", "DESCR", "MCAUSER", "MAXINST", "SSLCIPH", "SSLCAUTH")
# What every message channel has; the sending end's batching and retry attributes; the
# receiving end's (IBM's lists per CHLTYPE).
_MESSAGE = ("CHLTYPE", "TRPTYPE", "DESCR", "MCAUSER", "HBINT", "KAINT", "MAXMSGL", "SEQWRAP", "NPMSPEED",
            "SSLCIPH", "SSLPEER", "CERTLABL", "BATCHSZ", "MRRTY", "MRTMR", "STATCHL")
_SENDING = ("CONNAME", "XMITQ", "BATCHINT", "BATCHLIM", "BATCHHB", "DISCINT", "SHORTRTY", "SHORTTMR",
            "LONGRTY", "LONGTMR", "LOCLADDR", "CONVERT")
_RECEIVING = ("PUTAUT", "USEDLQ", "SSLCAUTH")
_CLUSTERED = ("CLUSTER", "CLUSNL")
TYPE_ATTRIBUTES: Final[Mapping[str, frozenset[str]]] = {
    "MQTT": frozenset({*_COMMON, "PORT", "LOCLADDR", "BACKLOG", "PROTOCOL", "USECLTID", "CHCKCLNT",
                       "SSLKEYR", "SSLKEYP", "JAASCFG"}),
    "SVRCONN": frozenset({*_COMMON, "MAXINSTC", "SHARECNV", "HBINT", "KAINT", "MAXMSGL", "SSLPEER",
                          "CERTLABL"}),
    "SDR": frozenset({*_MESSAGE, *_SENDING}),
    "SVR": frozenset({*_MESSAGE, *_SENDING, "SSLCAUTH"}),
    "RCVR": frozenset({*_MESSAGE, *_RECEIVING}),
    "RQSTR": frozenset({*_MESSAGE, *_RECEIVING, "CONNAME", "LOCLADDR"}),
    # A cluster-sender has no XMITQ: its transmission queue is chosen (core.network.clusters.xmitq).
    "CLUSSDR": frozenset({*_MESSAGE, *(a for a in _SENDING if a != "XMITQ"), *_CLUSTERED}),
    "CLUSRCVR": frozenset({*_MESSAGE, *_RECEIVING, *(a for a in _SENDING if a != "XMITQ"), *_CLUSTERED,
                           "NETPRTY", "CLWLRANK", "CLWLPRTY", "CLWLWGHT"}),
}
_REQUIRED = {"SSLCAUTH": "REQUIRED"}  # IBM's default wherever a channel has SSLCAUTH
TYPE_DEFAULTS: Final[Mapping[str, Mapping[str, Any]]] = {
    "MQTT": {},
    "SVRCONN": _REQUIRED,
    "SDR": {}, "SVR": _REQUIRED, "RCVR": _REQUIRED, "RQSTR": _REQUIRED,
    "CLUSSDR": {}, "CLUSRCVR": _REQUIRED,
}
MESSAGE_TYPES: Final = ("SDR", "SVR", "RCVR", "RQSTR", "CLUSSDR", "CLUSRCVR")
SENDING_TYPES: Final = ("SDR", "SVR", "CLUSSDR")  # the ends that dial and send from a transmission queue

# AUTHINFO objects: connection authentication (AUTHTYPE(IDPWOS), passwords of the users file).
# The catalogue's defaults are those of mqlite's SYSTEM.DEFAULT.AUTHINFO.IDPWOS, as a DEFINE
# without LIKE takes its defaults from it at IBM. CHCKCLNT(REQUIRED), not IBM's REQDADM: nothing
# is reachable over TCP without a password in mqlite.
_CHECK = "OPTIONAL=0 NONE=1 REQDADM=2 REQUIRED=3"
AUTHINFO: Final[tuple[Attr, ...]] = (
    _e("AUTHTYPE", "IDPWOS", "CRLLDAP=1 OCSP=2 IDPWOS=3 IDPWLDAP=4", 66),
    _s("DESCR", "", 2046, 64),
    _e("CHCKLOCL", "OPTIONAL", _CHECK, 257),
    _e("CHCKCLNT", "REQUIRED", _CHECK, 258),
    _i("FAILDLAY", 1, 259, 0, 60),
    _e("ADOPTCTX", "YES", "NO=0 YES=1", 260),
)

# LISTENER objects (TRPTYPE(TCP) only): IBM's attributes and defaults; PORT(0) lets the system pick.
LISTENER: Final[tuple[Attr, ...]] = (
    _e("TRPTYPE", "TCP", "LU62=1 TCP=2 NETBIOS=3 SPX=4", 1501),
    # IBM's PCF ids (cmqcfc.h): MQCACH_LISTENER_DESC, MQIACH_PORT, MQCACH_IP_ADDRESS, MQIACH_BACKLOG,
    # MQIACH_LISTENER_CONTROL (MQSVC_CONTROL_Q_MGR=0, Q_MGR_START=1, MANUAL=2)
    _s("DESCR", "", 3555, 64),
    _i("PORT", 1414, 1522, 0, 65535),
    _s("IPADDR", "", 3552, 48),
    _i("BACKLOG", 0, 1602, 0, 999_999_999),
    _e("CONTROL", "MANUAL", "QMGR=0 STARTONLY=1 MANUAL=2", 1601),
)
