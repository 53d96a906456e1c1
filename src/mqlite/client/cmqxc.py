"""A few constants of IBM's ``cmqxc.h`` (channel definitions), for pymqi's ``CMQXC``.

Only what pymqi programs commonly touch when filling an MQCD; the rest of IBM's channel
exit interface has no meaning in mqlite.
"""

from __future__ import annotations

from mqlite.cmqc import MQCHT_CLNTCONN, MQCHT_SVRCONN, MQXPT_TCP

__all__ = [
    "MQCD_CURRENT_VERSION", "MQCD_VERSION_1", "MQCD_VERSION_6", "MQCD_VERSION_7", "MQCD_VERSION_11",
    "MQCHT_CLNTCONN", "MQCHT_SVRCONN", "MQSCA_NEVER_REQUIRED", "MQSCA_OPTIONAL", "MQSCA_REQUIRED", "MQXPT_TCP",
]

MQCD_VERSION_1 = 1
MQCD_VERSION_2 = 2
MQCD_VERSION_3 = 3
MQCD_VERSION_4 = 4
MQCD_VERSION_5 = 5
MQCD_VERSION_6 = 6
MQCD_VERSION_7 = 7
MQCD_VERSION_8 = 8
MQCD_VERSION_9 = 9
MQCD_VERSION_10 = 10
MQCD_VERSION_11 = 11
MQCD_CURRENT_VERSION = 11

# SSL client authentication (MQCD's SSLClientAuth, a channel's SSLCAUTH)
MQSCA_REQUIRED = 0
MQSCA_OPTIONAL = 1
MQSCA_NEVER_REQUIRED = 2
