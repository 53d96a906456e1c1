"""Message properties and the MQRFH2 at MQGET, through a queue manager process (``strmqm``) and
the client over TCP, as pymqi programs use them: MQGMO_PROPERTIES_FORCE_MQRFH2 returns the
properties set with a message handle as an MQRFH2 usr folder in front of the body (spec D §2,
R-RFH-M1: its Format the body's); a message put with an MQRFH2 usr folder is got with a message
handle as properties; PROPCTL on the queue for gets without a property option; IBM's reasons for
property options that cannot go together (2046) and MQGMO_PROPERTIES_IN_HANDLE without a handle
(2460)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import mqlite.client as pymqi
from helpers.credentials import APP
from helpers.module_qmgrs import started
from helpers.qmgrs import QMgr

CMQC = pymqi.CMQC
QUEUES = {"PROP.COMPAT": "COMPAT", "PROP.FORCE": "FORCE", "PROP.NONE": "NONE", "PROP.ALL": "ALL"}


@pytest.fixture(scope="module")
def qmgr_process(tmp_path_factory: pytest.TempPathFactory) -> Iterator[QMgr]:
    """One queue manager process for the module (crtmqm -p 0, strmqm; ended by pid after)."""
    with started(tmp_path_factory.mktemp("props") / "mqhome", ["QMPROP"]) as (qmgrs, run_cli):
        script = "".join(f"DEFINE QLOCAL({name}) PROPCTL({propctl})\n" for name, propctl in QUEUES.items())
        done = run_cli("runmqsc", "QMPROP", input=script)
        assert done.returncode == 0, done.stdout + done.stderr
        yield qmgrs["QMPROP"]


@pytest.fixture
def qmgr(qmgr_process: QMgr) -> Iterator[pymqi.QueueManager]:
    qmgr = pymqi.QueueManager(None)
    qmgr.connect_tcp_client("QMPROP", pymqi.CD(), "DEV.APP.SVRCONN", f"127.0.0.1({qmgr_process.port})", APP.user,
                            APP.password)
    yield qmgr
    for name in QUEUES:  # each test starts from empty queues
        queue = pymqi.Queue(qmgr, name)
        while True:
            try:
                queue.get()
            except pymqi.MQMIError:
                break
        queue.close()
    qmgr.disconnect()


def put_with_handle(qmgr: pymqi.QueueManager, queue_name: str, body: bytes, **props: Any) -> pymqi.MD:
    handle = pymqi.MessageHandle(qmgr, pymqi.CMHO())
    for name, value in props.items():
        handle.properties.set(name, value)
    pmo = pymqi.PMO(Version=CMQC.MQPMO_CURRENT_VERSION)
    pmo.OriginalMsgHandle = handle.msg_handle
    md = pymqi.MD(Version=CMQC.MQMD_CURRENT_VERSION, Format=CMQC.MQFMT_STRING)
    queue = pymqi.Queue(qmgr, queue_name, CMQC.MQOO_OUTPUT)
    queue.put(body, md, pmo)
    queue.close()
    return md


def get(qmgr: pymqi.QueueManager, queue_name: str, options: int = 0, msg_handle: int = 0,
        version: int = CMQC.MQGMO_CURRENT_VERSION) -> tuple[bytes, pymqi.MD]:
    queue = pymqi.Queue(qmgr, queue_name, CMQC.MQOO_INPUT_AS_Q_DEF)
    md = pymqi.MD()
    gmo = pymqi.GMO(Version=version, Options=CMQC.MQGMO_NO_WAIT | options)
    gmo.MsgHandle = msg_handle
    try:
        return bytes(queue.get(None, md, gmo)), md
    finally:
        queue.close()


def usr_of(message: bytes) -> pymqi.RFH2:
    rfh2 = pymqi.RFH2()
    rfh2.unpack(message)
    return rfh2


def test_force_mqrfh2_gets_the_handles_properties_in_a_usr_folder(qmgr: pymqi.QueueManager) -> None:
    put_with_handle(qmgr, "PROP.COMPAT", b"hello", colour="red", count=5)
    message, md = get(qmgr, "PROP.COMPAT", CMQC.MQGMO_PROPERTIES_FORCE_MQRFH2)
    assert md.Format == CMQC.MQFMT_RF_HEADER_2.encode()
    rfh2 = usr_of(message)
    assert rfh2.get_folders() == ["usr"]
    usr = b"<usr><colour>red</colour><count dt='i8'>5</count></usr>"
    assert rfh2["usr"] == usr + b" " * (-len(usr) % 4)  # padded with spaces to a multiple of 4 (R-RFH-P1)
    assert rfh2.Format == CMQC.MQFMT_STRING.encode() and rfh2.CodedCharSetId == 1208
    assert rfh2.StrucLength == 36 + 4 + len(rfh2["usr"]) and message[rfh2.StrucLength:] == b"hello"


def test_an_mqrfh2_usr_folder_put_in_the_body_is_got_as_properties(qmgr: pymqi.QueueManager) -> None:
    rfh2 = pymqi.RFH2(Format=CMQC.MQFMT_STRING, CodedCharSetId=1208)
    rfh2.add_folder(b"<usr><colour>blue</colour><n dt='i4'>7</n></usr>")
    rfh2.add_folder(b"<psc><Command>Publish</Command></psc>")  # a command, not properties: it stays
    md = pymqi.MD(Format=CMQC.MQFMT_RF_HEADER_2)
    queue = pymqi.Queue(qmgr, "PROP.COMPAT", CMQC.MQOO_OUTPUT)
    queue.put(rfh2.pack() + b"payload", md)
    queue.put(rfh2.pack() + b"as put", md)
    queue.close()
    handle = pymqi.MessageHandle(qmgr, pymqi.CMHO())
    message, got_md = get(qmgr, "PROP.COMPAT", CMQC.MQGMO_PROPERTIES_IN_HANDLE, handle.msg_handle)
    assert handle.properties.get("colour") == "blue" and handle.properties.get("n") == 7
    assert got_md.Format == CMQC.MQFMT_RF_HEADER_2.encode()  # the psc folder's MQRFH2 stays
    kept = usr_of(message)
    assert kept.get_folders() == ["psc"] and message[kept.StrucLength:] == b"payload"
    # No handle, PROPCTL(COMPAT): a usr folder, so the MQRFH2 comes as it was put.
    message, got_md = get(qmgr, "PROP.COMPAT")
    assert message == rfh2.pack() + b"as put"


def test_propctl_decides_for_gets_without_a_property_option(qmgr: pymqi.QueueManager) -> None:
    for name in QUEUES:
        put_with_handle(qmgr, name, b"x", colour="red")
    forced, md = get(qmgr, "PROP.FORCE", msg_handle=pymqi.MessageHandle(qmgr).msg_handle)
    assert md.Format == CMQC.MQFMT_RF_HEADER_2.encode() and usr_of(forced).get_folders() == ["usr"]
    dropped, md = get(qmgr, "PROP.NONE")
    assert (dropped, md.Format) == (b"x", CMQC.MQFMT_STRING.encode())
    everything, md = get(qmgr, "PROP.ALL")
    assert md.Format == CMQC.MQFMT_RF_HEADER_2.encode() and everything.endswith(b"x")
    handle = pymqi.MessageHandle(qmgr)
    kept, md = get(qmgr, "PROP.COMPAT", msg_handle=handle.msg_handle)
    assert kept == b"x" and handle.properties.get("colour") == "red"


def test_compat_without_a_handle_drops_properties_outside_the_reserved_folders(qmgr: pymqi.QueueManager) -> None:
    put_with_handle(qmgr, "PROP.COMPAT", b"pub", **{"mqps.Top": "sport/tennis"})
    put_with_handle(qmgr, "PROP.COMPAT", b"jms", **{"jms.Dlv": 2})
    assert get(qmgr, "PROP.COMPAT")[0] == b"pub"
    jms = get(qmgr, "PROP.COMPAT")[0]
    assert usr_of(jms).get_folders() == ["jms"] and jms.endswith(b"jms")


def test_a_version_1_gmo_gets_a_put_mqrfh2_as_it_was_put(qmgr: pymqi.QueueManager) -> None:
    # pymqi's default GMO (version 1, no MsgHandle): IBM returns the header as put (PROPCTL COMPAT,
    # an mcd folder); mqlite leaves the message's own properties on the ReceivedMessage
    rfh2 = pymqi.RFH2(Format=CMQC.MQFMT_STRING)
    for folder in (b"<psc><Command>Publish</Command></psc>", b"<testFolder><x>1</x></testFolder>",
                   b"<mcd><Msd>xmlnsc</Msd></mcd>"):
        rfh2.add_folder(folder)
    queue = pymqi.Queue(qmgr, "PROP.COMPAT", CMQC.MQOO_OUTPUT)
    queue.put(rfh2.pack() + b"data", pymqi.MD(Format=CMQC.MQFMT_RF_HEADER_2))
    queue.close()
    put_with_handle(qmgr, "PROP.FORCE", b"forced", colour="red")
    message, md = get(qmgr, "PROP.COMPAT", version=CMQC.MQGMO_VERSION_1)
    assert message == rfh2.pack() + b"data" and md.Format == CMQC.MQFMT_RF_HEADER_2.encode()
    forced, md = get(qmgr, "PROP.FORCE", version=CMQC.MQGMO_VERSION_1)
    assert usr_of(forced).get_folders() == ["usr"] and forced.endswith(b"forced")


def test_mqlites_own_get_keeps_properties_on_the_message(qmgr: pymqi.QueueManager) -> None:
    put_with_handle(qmgr, "PROP.COMPAT", b"mine", colour="green")
    message = pymqi.Queue(qmgr, "PROP.COMPAT").get()
    assert (bytes(message), message.properties["colour"]) == (b"mine", "green")


@pytest.mark.parametrize(("options", "reason"), [
    (CMQC.MQGMO_PROPERTIES_FORCE_MQRFH2 | CMQC.MQGMO_NO_PROPERTIES, CMQC.MQRC_OPTIONS_ERROR),
    (CMQC.MQGMO_PROPERTIES_IN_HANDLE | CMQC.MQGMO_PROPERTIES_COMPATIBILITY, CMQC.MQRC_OPTIONS_ERROR),
    (CMQC.MQGMO_PROPERTIES_IN_HANDLE, CMQC.MQRC_HMSG_ERROR),
])
def test_property_options_refused_as_ibm_refuses_them(qmgr: pymqi.QueueManager, options: int, reason: int) -> None:
    put_with_handle(qmgr, "PROP.COMPAT", b"stays", colour="red")
    with pytest.raises(pymqi.MQMIError) as error:
        get(qmgr, "PROP.COMPAT", options)
    assert error.value.reason == reason
    assert get(qmgr, "PROP.COMPAT", CMQC.MQGMO_NO_PROPERTIES)[0] == b"stays"  # nothing was taken


def test_bindings_mode_gets_the_same_forms(qmgr_process: QMgr) -> None:
    """Bindings mode (the Unix socket) gets the same forms as a client over TCP."""
    local = pymqi.QueueManager("QMPROP")
    try:
        put_with_handle(local, "PROP.FORCE", b"local", colour="red")
        message, md = get(local, "PROP.FORCE", CMQC.MQGMO_PROPERTIES_IN_HANDLE, pymqi.MessageHandle(local).msg_handle)
        assert (message, md.Format) == (b"local", CMQC.MQFMT_STRING.encode())
    finally:
        local.disconnect()
