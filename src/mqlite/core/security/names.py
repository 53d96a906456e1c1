"""IBM's names for authorities and object types, as MQSC (SET AUTHREC AUTHADD(PUT), OBJTYPE(QUEUE))
and the control commands (setmqaut +put -t queue) write them, and which authorities each object
type has."""

from __future__ import annotations

from mqlite import cmqc as C

# In the order dspmqaut and DISPLAY AUTHREC list them.
AUTHORITIES: tuple[tuple[str, int], ...] = (
    ("GET", C.MQZAO_INPUT), ("BROWSE", C.MQZAO_BROWSE), ("PUT", C.MQZAO_OUTPUT),
    ("INQ", C.MQZAO_INQUIRE), ("SET", C.MQZAO_SET), ("CONNECT", C.MQZAO_CONNECT),
    ("ALTUSR", C.MQZAO_ALTERNATE_USER_AUTHORITY), ("PASSID", C.MQZAO_PASS_IDENTITY_CONTEXT),
    ("PASSALL", C.MQZAO_PASS_ALL_CONTEXT), ("SETID", C.MQZAO_SET_IDENTITY_CONTEXT),
    ("SETALL", C.MQZAO_SET_ALL_CONTEXT), ("PUB", C.MQZAO_PUBLISH), ("SUB", C.MQZAO_SUBSCRIBE),
    ("RESUME", C.MQZAO_RESUME), ("CRT", C.MQZAO_CREATE), ("DLT", C.MQZAO_DELETE), ("CHG", C.MQZAO_CHANGE),
    ("DSP", C.MQZAO_DISPLAY), ("CTRL", C.MQZAO_CONTROL), ("CTRLX", C.MQZAO_CONTROL_EXTENDED),
    ("CLR", C.MQZAO_CLEAR), ("SYSTEM", C.MQZAO_SYSTEM),
)
AUTHORITY_BITS = dict(AUTHORITIES)
# Names for several at once: what the object type has of them (see ``VALID``).
COLLECTIVE = {"ALL": C.MQZAO_ALL, "ALLADM": C.MQZAO_ALL_ADMIN,
              "ALLMQI": C.MQZAO_ALL_MQI, "NONE": C.MQZAO_NONE}

# MQSC OBJTYPE(...) values, and setmqaut's -t values (with their short forms).
OBJTYPES = {
    "QUEUE": C.MQOT_Q, "QMGR": C.MQOT_Q_MGR, "TOPIC": C.MQOT_TOPIC, "CHANNEL": C.MQOT_CHANNEL,
    "CLNTCONN": C.MQOT_CLNTCONN_CHANNEL, "NAMELIST": C.MQOT_NAMELIST, "PROCESS": C.MQOT_PROCESS,
    "AUTHINFO": C.MQOT_AUTH_INFO, "LISTENER": C.MQOT_LISTENER, "SERVICE": C.MQOT_SERVICE,
    "COMMINFO": C.MQOT_COMM_INFO, "RQMNAME": C.MQOT_REMOTE_Q_MGR_NAME,
}
OBJTYPE_NAMES = {value: key for key, value in OBJTYPES.items()}

_DCD = C.MQZAO_DISPLAY | C.MQZAO_CHANGE | C.MQZAO_DELETE
_CONTEXT = (C.MQZAO_PASS_IDENTITY_CONTEXT | C.MQZAO_PASS_ALL_CONTEXT | C.MQZAO_SET_IDENTITY_CONTEXT
            | C.MQZAO_SET_ALL_CONTEXT)
# The authorities each object type has (setmqaut refuses others; ALL means these).
VALID = {
    C.MQOT_Q_MGR: (C.MQZAO_ALTERNATE_USER_AUTHORITY | C.MQZAO_CONNECT | C.MQZAO_INQUIRE | C.MQZAO_SET
                   | C.MQZAO_SET_ALL_CONTEXT | C.MQZAO_SET_IDENTITY_CONTEXT | C.MQZAO_CREATE | _DCD
                   | C.MQZAO_CONTROL | C.MQZAO_SYSTEM),
    C.MQOT_Q: (C.MQZAO_BROWSE | C.MQZAO_INPUT | C.MQZAO_OUTPUT | C.MQZAO_INQUIRE | C.MQZAO_SET | _CONTEXT
               | _DCD | C.MQZAO_CLEAR),
    C.MQOT_TOPIC: (C.MQZAO_PUBLISH | C.MQZAO_SUBSCRIBE | C.MQZAO_RESUME | _CONTEXT | _DCD | C.MQZAO_CLEAR
                   | C.MQZAO_CONTROL),
    C.MQOT_CHANNEL: _DCD | C.MQZAO_CONTROL | C.MQZAO_CONTROL_EXTENDED,
    C.MQOT_CLNTCONN_CHANNEL: _DCD,
    C.MQOT_NAMELIST: _DCD | C.MQZAO_INQUIRE,
    C.MQOT_PROCESS: _DCD | C.MQZAO_INQUIRE,
    C.MQOT_AUTH_INFO: _DCD | C.MQZAO_INQUIRE,
    C.MQOT_LISTENER: _DCD | C.MQZAO_CONTROL,
    C.MQOT_SERVICE: _DCD | C.MQZAO_CONTROL,
    C.MQOT_COMM_INFO: _DCD,
    C.MQOT_REMOTE_Q_MGR_NAME: C.MQZAO_OUTPUT,
}


def authority_mask(names: list[str], objtype: int) -> int:
    """The bits ``names`` (GET, ALLMQI, ...) stand for on ``objtype``; ValueError names one that is
    not an authority, or not one this object type has."""
    valid = VALID.get(objtype, C.MQZAO_ALL)
    mask = 0
    for name in names:
        key = name.strip().upper()
        if key in COLLECTIVE:
            mask |= COLLECTIVE[key] & valid
        elif key in AUTHORITY_BITS:
            bit = AUTHORITY_BITS[key]
            if not bit & valid:
                raise ValueError(f"{key} is not an authority of object type {OBJTYPE_NAMES.get(objtype, objtype)}")
            mask |= bit
        else:
            raise ValueError(f"{name} is not an authority")
    return mask


def authority_names(mask: int) -> list[str]:
    """The names of the bits of ``mask``, in IBM's order; ["NONE"] for none."""
    return [name for name, bit in AUTHORITIES if mask & bit] or ["NONE"]
