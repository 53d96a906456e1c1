"""pymqi's module-level names that its programs and its own test suite use (issue 32, item 6):
the build flags, the lower-case structure names, and reason names of PCF commands in
``MQMIError``'s string, as pymqi spells them."""

from __future__ import annotations

import mqlite
import mqlite.client as client
from mqlite import pymqi_run


def test_build_flags() -> None:
    # pymqi's test_setup asks __mqbuild__ whether to connect in bindings mode ("server") or as a
    # client: every mqlite connection is the client protocol's
    assert mqlite.__mqbuild__ == "client"
    assert client.__mqbuild__ == "client"
    assert "8.0" in mqlite.__mqlevels__ and isinstance(mqlite.__mqlevels__, tuple)
    assert pymqi_run.install().__mqbuild__ == "client"


def test_lower_case_structure_names() -> None:
    assert (mqlite.gmo, mqlite.pmo, mqlite.od, mqlite.md, mqlite.cd, mqlite.sco) == (
        mqlite.GMO, mqlite.PMO, mqlite.OD, mqlite.MD, mqlite.CD, mqlite.SCO)
    assert mqlite.makeQDesc is mqlite.make_q_desc
    assert mqlite.QueueManager.connectTCPClient is mqlite.QueueManager.connect_tcp_client
    assert mqlite.QueueManager.getHandle is mqlite.QueueManager.get_handle


def test_pcf_reasons_are_named_like_pymqi() -> None:
    # pymqi looks a reason up in CMQC's MQRC_ names, then in CMQCFC's MQRCCF_ names
    failed = mqlite.MQMIError(mqlite.CMQC.MQCC_FAILED, mqlite.CMQC.MQRCCF_CFH_COMMAND_ERROR)
    assert str(failed) == "MQI Error. Comp: 2, Reason 3007: FAILED: MQRCCF_CFH_COMMAND_ERROR"
    assert mqlite.MQMIError(2, 2033).errorAsString() == "FAILED: MQRC_NO_MSG_AVAILABLE"
    assert mqlite.MQMIError(1, 9999).errorAsString() == "WARNING: Error code 9999 not defined"


def test_bytes_helpers() -> None:
    assert mqlite.ensure_bytes("DEV.QUEUE.1") == b"DEV.QUEUE.1"
    assert mqlite.ensure_bytes(b"raw") == b"raw" and mqlite.ensure_bytes(7) == 7
    assert mqlite.ensure_bytes("é", "utf-8") == "é".encode()
    assert mqlite.is_unicode("x") and not mqlite.is_unicode(b"x")
    try:
        mqlite.ensure_not_unicode("text")
    except TypeError:
        pass
    else:
        raise AssertionError("a str where bytes are wanted is a TypeError")


def test_constants_pymqi_programs_read() -> None:
    cmqcfc, cmqxc = mqlite.CMQCFC, mqlite.CMQXC
    # statistics and accounting messages, read with PCFExecute.unpack (IBM's cmqcfc.h values)
    assert (cmqcfc.MQCMD_STATISTICS_Q, cmqcfc.MQCMD_ACCOUNTING_Q) == (165, 168)
    assert (cmqcfc.MQGACF_COMMAND_DATA, cmqcfc.MQGACF_Q_STATISTICS_DATA) == (8002, 8011)
    assert (cmqcfc.MQIAMO_PUTS, cmqcfc.MQIAMO_Q_MIN_DEPTH, cmqcfc.MQIAMO64_AVG_Q_TIME) == (735, 740, 703)
    assert (cmqcfc.MQCAMO_START_DATE, cmqcfc.MQCAMO_START_TIME) == (2711, 2712)
    assert (cmqcfc.MQCACH_SSL_CIPHER_SPEC, cmqcfc.MQIACH_SSL_CLIENT_AUTH) == (3544, 1568)
    assert (cmqxc.MQSCA_REQUIRED, cmqxc.MQSCA_OPTIONAL, cmqxc.MQSCA_NEVER_REQUIRED) == (0, 1, 2)
    # the MQ 8 names: connection authentication in an MQCSP
    assert mqlite.CMQC.MQCSP_AUTH_USER_ID_AND_PWD == 1 and mqlite.CMQC.MQCNO_VERSION_5 == 5
    assert (mqlite.CMQC.MQDC_MANAGED, mqlite.CMQC.MQDC_PROVIDED) == (1, 2)


def test_mqopts_is_the_structures_base() -> None:
    assert issubclass(mqlite.MD, mqlite.MQOpts) and issubclass(mqlite.RFH2, mqlite.MQOpts)
