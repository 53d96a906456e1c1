"""IBM MQ constants: values against IBM's documented numbers, and reason names."""

from __future__ import annotations

import pytest

import mqlite.cmqc as CMQC
from mqlite.reasons import reason_name, reason_text

# Reason codes as documented by IBM (IBM MQ reference, "API reason codes").
DOCUMENTED_REASONS = {
    "MQRC_NONE": 0,
    "MQRC_ALIAS_BASE_Q_TYPE_ERROR": 2001,
    "MQRC_BACKED_OUT": 2003,
    "MQRC_BUFFER_LENGTH_ERROR": 2005,
    "MQRC_CONNECTION_BROKEN": 2009,
    "MQRC_DATA_LENGTH_ERROR": 2010,
    "MQRC_DYNAMIC_Q_NAME_ERROR": 2011,
    "MQRC_EXPIRY_ERROR": 2013,
    "MQRC_GET_INHIBITED": 2016,
    "MQRC_HCONN_ERROR": 2018,
    "MQRC_HOBJ_ERROR": 2019,
    "MQRC_SYNCPOINT_LIMIT_REACHED": 2024,
    "MQRC_MD_ERROR": 2026,
    "MQRC_MSG_TOO_BIG_FOR_Q": 2030,
    "MQRC_MSG_TOO_BIG_FOR_Q_MGR": 2031,
    "MQRC_NO_MSG_AVAILABLE": 2033,
    "MQRC_NO_MSG_UNDER_CURSOR": 2034,
    "MQRC_NOT_AUTHORIZED": 2035,
    "MQRC_NOT_OPEN_FOR_BROWSE": 2036,
    "MQRC_NOT_OPEN_FOR_INPUT": 2037,
    "MQRC_NOT_OPEN_FOR_INQUIRE": 2038,
    "MQRC_NOT_OPEN_FOR_OUTPUT": 2039,
    "MQRC_NOT_OPEN_FOR_SET": 2040,
    "MQRC_OBJECT_CHANGED": 2041,
    "MQRC_OBJECT_IN_USE": 2042,
    "MQRC_OBJECT_TYPE_ERROR": 2043,
    "MQRC_OD_ERROR": 2044,
    "MQRC_OPTIONS_ERROR": 2046,
    "MQRC_PERSISTENCE_ERROR": 2047,
    "MQRC_PRIORITY_ERROR": 2050,
    "MQRC_PUT_INHIBITED": 2051,
    "MQRC_Q_DELETED": 2052,
    "MQRC_Q_FULL": 2053,
    "MQRC_Q_NOT_EMPTY": 2055,
    "MQRC_Q_TYPE_ERROR": 2057,
    "MQRC_Q_MGR_NAME_ERROR": 2058,
    "MQRC_Q_MGR_NOT_AVAILABLE": 2059,
    "MQRC_SELECTOR_ERROR": 2067,
    "MQRC_STORAGE_NOT_AVAILABLE": 2071,
    "MQRC_TRUNCATED_MSG_ACCEPTED": 2079,
    "MQRC_TRUNCATED_MSG_FAILED": 2080,
    "MQRC_UNKNOWN_OBJECT_NAME": 2085,
    "MQRC_UNKNOWN_REMOTE_Q_MGR": 2087,
    "MQRC_WAIT_INTERVAL_ERROR": 2090,
    "MQRC_OBJECT_ALREADY_EXISTS": 2100,
    "MQRC_RESOURCE_PROBLEM": 2102,
    "MQRC_FORMAT_ERROR": 2110,
    "MQRC_NOT_CONVERTED": 2119,
    "MQRC_CONVERTED_MSG_TOO_BIG": 2120,
    "MQRC_OBJECT_NAME_ERROR": 2152,
    "MQRC_Q_MGR_QUIESCING": 2161,
    "MQRC_Q_MGR_STOPPING": 2162,
    "MQRC_PMO_ERROR": 2173,
    "MQRC_GMO_ERROR": 2186,
    "MQRC_STORAGE_MEDIUM_FULL": 2192,
    "MQRC_UNEXPECTED_ERROR": 2195,
    "MQRC_MSG_TOO_BIG_FOR_CHANNEL": 2218,
    "MQRC_CALL_IN_PROGRESS": 2219,
    "MQRC_SD_ERROR": 2424,
    "MQRC_TOPIC_STRING_ERROR": 2425,
    "MQRC_NO_SUBSCRIPTION": 2428,
    "MQRC_SUB_ALREADY_EXISTS": 2432,
    "MQRC_NO_RETAINED_MSG": 2437,
    "MQRC_PROPERTY_NAME_ERROR": 2442,
    "MQRC_PROPERTY_NOT_AVAILABLE": 2471,
    "MQRC_PUBLICATION_FAILURE": 2502,
    "MQRC_SELECTION_STRING_ERROR": 2519,
    "MQRC_ASYNC_XA_CONFLICT": 2530,
    "MQRC_NO_SUBS_MATCHED": 2550,
}

# A sample of other constants, with IBM's values.
DOCUMENTED_OTHERS = {
    "MQCC_OK": 0,
    "MQCC_WARNING": 1,
    "MQCC_FAILED": 2,
    "MQOO_INPUT_AS_Q_DEF": 0x1,
    "MQOO_INPUT_SHARED": 0x2,
    "MQOO_INPUT_EXCLUSIVE": 0x4,
    "MQOO_BROWSE": 0x8,
    "MQOO_OUTPUT": 0x10,
    "MQOO_INQUIRE": 0x20,
    "MQOO_SET": 0x40,
    "MQOO_FAIL_IF_QUIESCING": 0x2000,
    "MQGMO_WAIT": 0x1,
    "MQGMO_NO_WAIT": 0x0,
    "MQGMO_SYNCPOINT": 0x2,
    "MQGMO_NO_SYNCPOINT": 0x4,
    "MQGMO_BROWSE_FIRST": 0x10,
    "MQGMO_BROWSE_NEXT": 0x20,
    "MQGMO_ACCEPT_TRUNCATED_MSG": 0x40,
    "MQGMO_MSG_UNDER_CURSOR": 0x100,
    "MQGMO_LOCK": 0x200,
    "MQGMO_BROWSE_MSG_UNDER_CURSOR": 0x800,
    "MQGMO_SYNCPOINT_IF_PERSISTENT": 0x1000,
    "MQGMO_FAIL_IF_QUIESCING": 0x2000,
    "MQGMO_CONVERT": 0x4000,
    "MQGMO_NO_PROPERTIES": 0x04000000,
    "MQGMO_PROPERTIES_IN_HANDLE": 0x08000000,
    "MQMO_MATCH_MSG_ID": 1,
    "MQMO_MATCH_CORREL_ID": 2,
    "MQPMO_SYNCPOINT": 0x2,
    "MQPMO_NO_SYNCPOINT": 0x4,
    "MQPMO_DEFAULT_CONTEXT": 0x20,
    "MQPMO_NEW_MSG_ID": 0x40,
    "MQPMO_NEW_CORREL_ID": 0x80,
    "MQPMO_NO_CONTEXT": 0x4000,
    "MQPMO_ASYNC_RESPONSE": 0x10000,
    "MQPMO_SYNC_RESPONSE": 0x20000,
    "MQPMO_RETAIN": 0x200000,
    "MQCO_NONE": 0,
    "MQCO_DELETE": 1,
    "MQCO_DELETE_PURGE": 2,
    "MQPER_NOT_PERSISTENT": 0,
    "MQPER_PERSISTENT": 1,
    "MQPER_PERSISTENCE_AS_Q_DEF": 2,
    "MQPRI_PRIORITY_AS_Q_DEF": -1,
    "MQMT_REQUEST": 1,
    "MQMT_REPLY": 2,
    "MQMT_DATAGRAM": 8,
    "MQMT_REPORT": 4,
    "MQEI_UNLIMITED": -1,
    "MQWI_UNLIMITED": -1,
    "MQENC_NATIVE": 546,
    "MQCCSI_Q_MGR": 0,
    "MQOT_Q": 1,
    "MQOT_Q_MGR": 5,
    "MQOT_TOPIC": 8,
    "MQQT_LOCAL": 1,
    "MQQT_MODEL": 2,
    "MQQT_ALIAS": 3,
    "MQQT_REMOTE": 6,
    "MQQDT_PERMANENT_DYNAMIC": 2,
    "MQQDT_TEMPORARY_DYNAMIC": 3,
    "MQIA_CURRENT_Q_DEPTH": 3,
    "MQIA_MAX_Q_DEPTH": 15,
    "MQIA_INHIBIT_GET": 9,
    "MQIA_INHIBIT_PUT": 10,
    "MQIA_MAX_MSG_LENGTH": 13,
    "MQCA_Q_NAME": 2016,
    "MQCA_Q_MGR_NAME": 2015,
    "MQQA_GET_INHIBITED": 1,
    "MQRL_UNDEFINED": -1,
    "MQDLH_VERSION_1": 1,
    "MQTYPE_STRING": 1024,
    "MQCHT_SVRCONN": 7,
}


@pytest.mark.parametrize(("name", "value"), sorted({**DOCUMENTED_REASONS, **DOCUMENTED_OTHERS}.items()))
def test_documented_value(name: str, value: int) -> None:
    assert getattr(CMQC, name) == value


def test_strings_and_ids() -> None:
    assert CMQC.MQFMT_STRING == "MQSTR   "
    assert CMQC.MQFMT_NONE == " " * 8
    assert all(len(v) == 8 for k, v in vars(CMQC).items() if k.startswith("MQFMT_"))
    assert CMQC.MQMI_NONE == b"\0" * 24
    assert CMQC.MQCI_NONE == b"\0" * 24
    assert CMQC.MQDLH_STRUC_ID == "DLH "


@pytest.mark.parametrize(("name", "value"), sorted(DOCUMENTED_REASONS.items()))
def test_reason_name_round_trips(name: str, value: int) -> None:
    assert reason_name(value) == name


def test_every_reason_name_round_trips() -> None:
    for name, value in vars(CMQC).items():
        if name.startswith("MQRC_") and name not in {
            "MQRC_TRUNCATED",
            "MQRC_PAGESET_FULL",
            "MQRC_APPL_FIRST",
            "MQRC_APPL_LAST",
        }:
            assert reason_name(value) == name


def test_unknown_reason() -> None:
    assert reason_name(2999) == "MQRC_2999"
    assert reason_text(2999) == "MQRC_2999"


def test_reason_text() -> None:
    assert "not authorized" in reason_text(CMQC.MQRC_NOT_AUTHORIZED)
    assert reason_text(CMQC.MQRC_BRIDGE_STARTED) == "MQRC_BRIDGE_STARTED"
