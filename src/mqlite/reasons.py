"""Names and short explanations of IBM MQ reason codes.

``reason_name(2085) == "MQRC_UNKNOWN_OBJECT_NAME"``; ``reason_text(2085)`` gives one line of English
for the common codes and the name otherwise. The name table is built once, by reverse-mapping the
``MQRC_*`` constants of :mod:`mqlite.cmqc`.
"""

from __future__ import annotations

from mqlite import cmqc

__all__ = ["reason_name", "reason_text"]

# Names that share a value with IBM's primary name; never chosen by reason_name.
_ALIASES = frozenset(
    {
        "MQRC_TRUNCATED",  # 2120, primary MQRC_CONVERTED_MSG_TOO_BIG
        "MQRC_PAGESET_FULL",  # 2192, primary MQRC_STORAGE_MEDIUM_FULL (z/OS spelling)
        "MQRC_APPL_FIRST",  # range markers, not reasons
        "MQRC_APPL_LAST",
    }
)


def _build_names() -> dict[int, str]:
    names: dict[int, str] = {}
    # cmqc defines constants in header order, and the primary name comes first in the header.
    for name, value in vars(cmqc).items():
        if not name.startswith("MQRC_") or name in _ALIASES or not isinstance(value, int):
            continue
        names.setdefault(value, name)
    return names


_NAMES: dict[int, str] = _build_names()

_TEXTS: dict[int, str] = {
    cmqc.MQRC_NONE: "The call completed normally.",
    cmqc.MQRC_ALIAS_BASE_Q_TYPE_ERROR: "The base object of the alias queue is not a local or remote queue.",
    cmqc.MQRC_BACKED_OUT: "The unit of work was backed out.",
    cmqc.MQRC_BUFFER_LENGTH_ERROR: "The buffer length is not valid.",
    cmqc.MQRC_CONNECTION_BROKEN: "The connection to the queue manager was lost.",
    cmqc.MQRC_DATA_LENGTH_ERROR: "The data length is not valid.",
    cmqc.MQRC_DYNAMIC_Q_NAME_ERROR: "The dynamic queue name is not valid.",
    cmqc.MQRC_EXPIRY_ERROR: "The expiry time is not valid.",
    cmqc.MQRC_GET_INHIBITED: "Gets are inhibited for the queue.",
    cmqc.MQRC_HCONN_ERROR: "The connection handle is not valid.",
    cmqc.MQRC_HOBJ_ERROR: "The object handle is not valid.",
    cmqc.MQRC_SYNCPOINT_LIMIT_REACHED: "The limit of uncommitted messages in one unit of work was reached.",
    cmqc.MQRC_MD_ERROR: "The message descriptor is not valid.",
    cmqc.MQRC_MSG_TOO_BIG_FOR_Q: "The message is longer than the queue's maximum message length.",
    cmqc.MQRC_MSG_TOO_BIG_FOR_Q_MGR: "The message is longer than the queue manager's maximum message length.",
    cmqc.MQRC_NO_MSG_AVAILABLE: "No message matching the request is available.",
    cmqc.MQRC_NO_MSG_UNDER_CURSOR: "The browse cursor is not on a message.",
    cmqc.MQRC_NOT_AUTHORIZED: "The user is not authorized for this operation.",
    cmqc.MQRC_NOT_OPEN_FOR_BROWSE: "The queue was not opened for browse.",
    cmqc.MQRC_NOT_OPEN_FOR_INPUT: "The queue was not opened for input.",
    cmqc.MQRC_NOT_OPEN_FOR_INQUIRE: "The object was not opened for inquire.",
    cmqc.MQRC_NOT_OPEN_FOR_OUTPUT: "The queue was not opened for output.",
    cmqc.MQRC_NOT_OPEN_FOR_SET: "The queue was not opened for set.",
    cmqc.MQRC_OBJECT_CHANGED: "The object definition changed since it was opened.",
    cmqc.MQRC_OBJECT_IN_USE: "The object is already open with conflicting options.",
    cmqc.MQRC_OBJECT_TYPE_ERROR: "The object type is not valid.",
    cmqc.MQRC_OD_ERROR: "The object descriptor is not valid.",
    cmqc.MQRC_OPTIONS_ERROR: "The options are not valid or not consistent.",
    cmqc.MQRC_PERSISTENCE_ERROR: "The persistence value is not valid.",
    cmqc.MQRC_PRIORITY_ERROR: "The message priority is not valid.",
    cmqc.MQRC_PUT_INHIBITED: "Puts are inhibited for the queue or topic.",
    cmqc.MQRC_Q_DELETED: "The queue was deleted since it was opened.",
    cmqc.MQRC_Q_FULL: "The queue already holds its maximum number of messages.",
    cmqc.MQRC_Q_NOT_EMPTY: "The queue contains messages or uncommitted work.",
    cmqc.MQRC_Q_TYPE_ERROR: "The queue type is not valid for this operation.",
    cmqc.MQRC_Q_MGR_NAME_ERROR: "The queue manager name is not valid or not known.",
    cmqc.MQRC_Q_MGR_NOT_AVAILABLE: "The queue manager is not available.",
    cmqc.MQRC_SELECTOR_ERROR: "An attribute selector is not valid.",
    cmqc.MQRC_STORAGE_NOT_AVAILABLE: "Not enough storage is available.",
    cmqc.MQRC_TRUNCATED_MSG_ACCEPTED: "The message was truncated to fit the buffer and removed.",
    cmqc.MQRC_TRUNCATED_MSG_FAILED: "The message is longer than the buffer; it was left on the queue.",
    cmqc.MQRC_UNKNOWN_OBJECT_NAME: "The object name is not known to the queue manager.",
    cmqc.MQRC_UNKNOWN_REMOTE_Q_MGR: "The remote queue manager is not known.",
    cmqc.MQRC_WAIT_INTERVAL_ERROR: "The wait interval is not valid.",
    cmqc.MQRC_OBJECT_ALREADY_EXISTS: "An object of that name and type already exists.",
    cmqc.MQRC_RESOURCE_PROBLEM: "The queue manager ran short of a system resource.",
    cmqc.MQRC_FORMAT_ERROR: "The message format is not valid.",
    cmqc.MQRC_NOT_CONVERTED: "The message data was not converted.",
    cmqc.MQRC_OBJECT_NAME_ERROR: "The object name is not valid.",
    cmqc.MQRC_Q_MGR_QUIESCING: "The queue manager is quiescing.",
    cmqc.MQRC_Q_MGR_STOPPING: "The queue manager is shutting down.",
    cmqc.MQRC_PMO_ERROR: "The put-message options are not valid.",
    cmqc.MQRC_GMO_ERROR: "The get-message options are not valid.",
    cmqc.MQRC_UNEXPECTED_ERROR: "An unexpected error occurred.",
    cmqc.MQRC_MSG_TOO_BIG_FOR_CHANNEL: "The message is longer than the channel's maximum message length.",
    cmqc.MQRC_CALL_IN_PROGRESS: "Another MQI call is already in progress on this connection.",
    cmqc.MQRC_SD_ERROR: "The subscription descriptor is not valid.",
    cmqc.MQRC_TOPIC_STRING_ERROR: "The topic string is not valid.",
    cmqc.MQRC_NO_SUBSCRIPTION: "The subscription does not exist.",
    cmqc.MQRC_SUB_ALREADY_EXISTS: "A subscription of that name already exists.",
    cmqc.MQRC_NO_RETAINED_MSG: "There is no retained publication for the topic.",
    cmqc.MQRC_PROPERTY_NAME_ERROR: "The property name is not valid.",
    cmqc.MQRC_PROPERTY_NOT_AVAILABLE: "The message property is not available.",
    cmqc.MQRC_PUBLICATION_FAILURE: "The publication could not be delivered to every subscriber.",
    cmqc.MQRC_SELECTION_STRING_ERROR: "The selection string is not valid.",
    cmqc.MQRC_NO_SUBS_MATCHED: "The publication matched no subscriptions.",
}


def reason_name(code: int) -> str:
    """IBM's name of a reason code, e.g. ``"MQRC_Q_FULL"`` for 2053; ``"MQRC_<code>"`` if unknown."""
    return _NAMES.get(code, f"MQRC_{code}")


def reason_text(code: int) -> str:
    """A short English explanation of a reason code; the reason name when there is none."""
    return _TEXTS.get(code, reason_name(code))
