"""The field lengths of IBM's character parameters (cmqc.h's MQ_*_LENGTH): IBM's command server
answers with each MQCFST (and each string of an MQCFSL) blank padded to its parameter's length,
MQCA_Q_NAME to MQ_Q_NAME_LENGTH (48), and pymqi programs ``.strip()`` what they get; ``padded``
lays a response's parameters out the same way. Parameters of variable length (topic strings,
subscription names, selectors, escape text) are not in the table and go as they are."""

from __future__ import annotations

from mqlite import cmqc as C
from mqlite.protocol.pcf import Value

__all__ = ["LENGTHS", "padded"]

# (length, parameters): a list, for many lengths are equal (48 is a queue's, a queue manager's ...)
_BY_LENGTH: list[tuple[int, tuple[int, ...]]] = [
    (C.MQ_Q_NAME_LENGTH, (
        C.MQCA_Q_NAME, C.MQCA_BASE_OBJECT_NAME, C.MQCA_COMMAND_INPUT_Q_NAME, C.MQCA_DEAD_LETTER_Q_NAME,
        C.MQCA_INITIATION_Q_NAME, C.MQCA_REMOTE_Q_NAME, C.MQCA_BACKOUT_REQ_Q_NAME, C.MQCA_XMIT_Q_NAME,
        C.MQCA_DEF_XMIT_Q_NAME, C.MQCACH_XMIT_Q_NAME, C.MQCA_MODEL_DURABLE_Q, C.MQCA_MODEL_NON_DURABLE_Q,
        C.MQCACF_Q_NAMES, C.MQCA_COMMAND_REPLY_Q_NAME)),
    (C.MQ_Q_MGR_NAME_LENGTH, (C.MQCA_Q_MGR_NAME, C.MQCA_REMOTE_Q_MGR_NAME, C.MQCA_CLUSTER_Q_MGR_NAME,
                             C.MQCACF_DESTINATION_Q_MGR)),
    (C.MQ_Q_MGR_IDENTIFIER_LENGTH, (C.MQCA_Q_MGR_IDENTIFIER,)),
    (C.MQ_Q_DESC_LENGTH, (C.MQCA_Q_DESC, C.MQCA_Q_MGR_DESC, C.MQCA_NAMELIST_DESC, C.MQCA_TOPIC_DESC, C.MQCACH_DESC,
                         C.MQCACH_LISTENER_DESC, C.MQCA_AUTH_INFO_DESC)),
    (C.MQ_PROCESS_NAME_LENGTH, (C.MQCA_PROCESS_NAME,)),
    (C.MQ_NAMELIST_NAME_LENGTH, (C.MQCA_NAMELIST_NAME, C.MQCA_CLUSTER_NAMELIST, C.MQCA_REPOSITORY_NAMELIST,
                                C.MQCACF_NAMELIST_NAMES, C.MQCA_SSL_CRL_NAMELIST)),
    (C.MQ_OBJECT_NAME_LENGTH, (C.MQCA_NAMES, C.MQCA_PARENT, C.MQCA_CONN_AUTH, C.MQCACF_OBJECT_NAME)),
    (C.MQ_CLUSTER_NAME_LENGTH, (C.MQCA_CLUSTER_NAME, C.MQCA_REPOSITORY_NAME)),
    (C.MQ_CHANNEL_NAME_LENGTH, (C.MQCACH_CHANNEL_NAME, C.MQCACH_CHANNEL_NAMES)),
    (C.MQ_TOPIC_NAME_LENGTH, (C.MQCA_TOPIC_NAME, C.MQCACF_TOPIC_NAMES)),
    (C.MQ_LISTENER_NAME_LENGTH, (C.MQCACH_LISTENER_NAME,)),
    (C.MQ_AUTH_INFO_NAME_LENGTH, (C.MQCA_AUTH_INFO_NAME,)),
    (C.MQ_CREATION_DATE_LENGTH, (C.MQCA_CREATION_DATE, C.MQCA_ALTERATION_DATE, C.MQCA_CLUSTER_DATE,
                                C.MQCACF_LAST_PUT_DATE, C.MQCACF_LAST_GET_DATE, C.MQCACF_Q_MGR_START_DATE,
                                C.MQCACH_CHANNEL_START_DATE)),
    (C.MQ_CREATION_TIME_LENGTH, (C.MQCA_CREATION_TIME, C.MQCA_ALTERATION_TIME, C.MQCA_CLUSTER_TIME,
                                C.MQCACF_LAST_PUT_TIME, C.MQCACF_LAST_GET_TIME, C.MQCACF_Q_MGR_START_TIME,
                                C.MQCACH_CHANNEL_START_TIME)),
    (C.MQ_TRIGGER_DATA_LENGTH, (C.MQCA_TRIGGER_DATA,)),
    (C.MQ_CONN_NAME_LENGTH, (C.MQCACH_CONNECTION_NAME,)),
    (C.MQ_MCA_USER_ID_LENGTH, (C.MQCACH_MCA_USER_ID,)),
    (C.MQ_USER_ID_LENGTH, (C.MQCACF_SUB_USER_ID,)),
    (C.MQ_EXIT_NAME_LENGTH, (C.MQCA_CLUSTER_WORKLOAD_EXIT, C.MQCA_CHANNEL_AUTO_DEF_EXIT)),
    (C.MQ_EXIT_DATA_LENGTH, (C.MQCA_CLUSTER_WORKLOAD_DATA,)),
    (C.MQ_SSL_KEY_REPOSITORY_LENGTH, (C.MQCA_SSL_KEY_REPOSITORY,)),
    (C.MQ_CERT_LABEL_LENGTH, (C.MQCA_CERT_LABEL,)),
    (C.MQ_PROCESS_APPL_ID_LENGTH, (C.MQCA_APPL_ID,)),
    (C.MQ_PROCESS_DESC_LENGTH, (C.MQCA_PROCESS_DESC,)),
    (C.MQ_PROCESS_ENV_DATA_LENGTH, (C.MQCA_ENV_DATA,)),
    (C.MQ_PROCESS_USER_DATA_LENGTH, (C.MQCA_USER_DATA,)),
    (C.MQ_APPL_TAG_LENGTH, (C.MQCACF_APPL_TAG,)),
]
#: parameter id -> IBM's field length
LENGTHS: dict[int, int] = {parameter: length for length, parameters in _BY_LENGTH for parameter in parameters}


def padded(parameters: list[tuple[int, Value]]) -> list[tuple[int, Value]]:
    """``parameters`` with each string of a fixed-length parameter blank padded to its length
    (a longer one, which IBM's fields could not hold, goes as it is)."""
    out: list[tuple[int, Value]] = []
    lengths = LENGTHS
    for parameter, value in parameters:
        length = lengths.get(parameter)
        if length is not None:
            if isinstance(value, str):
                value = value.ljust(length)
            elif isinstance(value, list) and value and isinstance(value[0], str):
                value = [str(v).ljust(length) for v in value]
        out.append((parameter, value))
    return out
