"""The PCF commands of subscriptions, publish/subscribe and cluster status, entity authority,
channel resolution and ping, and ESCAPE, each on the one MQSC executor (``mqsc.pcf_objects``):
the same objects as the MQSC command shows, IBM's integers, IBM's reasons with the parameter at
fault (MQIACF_PARAMETER_ID)."""

from __future__ import annotations

import struct

import pytest

from mqlite import cmqc as C
from mqlite.core.qmgr import QueueManager
from mqlite.mqsc.commands import execute as mqsc
from mqlite.mqsc.pcf_commands import error_response, parse_records, responses
from mqlite.mqsc.pcf_lengths import LENGTHS
from mqlite.mqsc.pcf_objects import execute
from mqlite.protocol import pcf
from mqlite.protocol.pcf import Value


@pytest.fixture
def qm() -> QueueManager:
    qm = QueueManager("QM1")
    qm.bootstrap()
    mqsc(qm, "DEFINE QLOCAL(SUB.Q)")
    return qm


def _one(qm: QueueManager, command: int, params: list[tuple[int, Value]]) -> dict[int, Value]:
    reply = execute(qm, command, params)
    assert reply.comp_code == C.MQCC_OK, reply
    (obj,) = reply.objects
    return dict(obj)


def test_subscription_lifecycle_matches_define_sub(qm: QueueManager) -> None:
    created = execute(qm, C.MQCMD_CREATE_SUBSCRIPTION, [
        (C.MQCACF_SUB_NAME, "FRUIT"), (C.MQCA_TOPIC_STRING, "prices/fruit"), (C.MQCACF_DESTINATION, "SUB.Q"),
        (C.MQIACF_EXPIRY, 100), (C.MQIACF_VARIABLE_USER_ID, C.MQVU_FIXED_USER),
        (C.MQCACF_SUB_USER_DATA, "for the till")])
    assert created.comp_code == C.MQCC_OK, created
    shown = parse_records(mqsc(qm, "DISPLAY SUB(FRUIT) ALL"))[0][0]
    assert (shown["EXPIRY"], shown["VARUSER"], shown["USERDATA"]) == ("100", "FIXED", "for the till")
    sub = _one(qm, C.MQCMD_INQUIRE_SUBSCRIPTION, [(C.MQCACF_SUB_NAME, "FRUIT")])
    assert sub[C.MQIACF_EXPIRY] == 100 and sub[C.MQIACF_VARIABLE_USER_ID] == C.MQVU_FIXED_USER
    assert sub[C.MQIACF_DESTINATION_CLASS] == C.MQDC_PROVIDED and sub[C.MQIACF_REQUEST_ONLY] == C.MQRU_PUBLISH_ALL
    assert sub[C.MQBACF_SUB_ID] == bytes.fromhex(shown["SUBID"])

    assert execute(qm, C.MQCMD_CHANGE_SUBSCRIPTION, [(C.MQBACF_SUB_ID, sub[C.MQBACF_SUB_ID]),
                                                     (C.MQIACF_EXPIRY, C.MQEI_UNLIMITED)]).comp_code == C.MQCC_OK
    assert parse_records(mqsc(qm, "DISPLAY SUB(FRUIT) EXPIRY"))[0][0]["EXPIRY"] == "UNLIMITED"
    copied = execute(qm, C.MQCMD_COPY_SUBSCRIPTION, [(C.MQCACF_FROM_SUB_NAME, "FRUIT"), (C.MQCACF_TO_SUB_NAME, "VEG"),
                                                     (C.MQCA_TOPIC_STRING, "prices/veg")])
    assert copied.comp_code == C.MQCC_OK, copied
    veg = parse_records(mqsc(qm, "DISPLAY SUB(VEG) ALL"))[0][0]
    assert (veg["TOPICSTR"], veg["DEST"], veg["USERDATA"]) == ("prices/veg", "SUB.Q", "for the till")
    assert execute(qm, C.MQCMD_DELETE_SUBSCRIPTION, [(C.MQCACF_SUB_NAME, "VEG")]).comp_code == C.MQCC_OK
    assert "not found" in mqsc(qm, "DISPLAY SUB(VEG)")[0]


@pytest.mark.parametrize(("command", "params", "reason", "parameter"), [
    (C.MQCMD_DELETE_SUBSCRIPTION, [], C.MQRCCF_SUB_NAME_ERROR, None),
    (C.MQCMD_CREATE_SUBSCRIPTION, [(C.MQCACF_SUB_NAME, "S"), (C.MQCA_TOPIC_STRING, "t"),
                                   (C.MQIACF_DESTINATION_CLASS, 9)], C.MQRCCF_PARM_VALUE_ERROR,
     C.MQIACF_DESTINATION_CLASS),
    (C.MQCMD_CREATE_SUBSCRIPTION, [(C.MQCACF_SUB_NAME, "S"), (C.MQCA_TOPIC_STRING, 5)], C.MQRCCF_CFIN_PARM_ID_ERROR,
     C.MQCA_TOPIC_STRING),
    (C.MQCMD_CHANGE_SUBSCRIPTION, [(C.MQBACF_SUB_ID, "not bytes")], C.MQRCCF_CFST_PARM_ID_ERROR, C.MQBACF_SUB_ID),
    (C.MQCMD_INQUIRE_PUBSUB_STATUS, [(C.MQIACF_PS_STATUS_TYPE, 9)], C.MQRCCF_PARM_VALUE_ERROR,
     C.MQIACF_PS_STATUS_TYPE),
    (C.MQCMD_ESCAPE, [(C.MQIACF_ESCAPE_TYPE, 2), (C.MQCACF_ESCAPE_TEXT, "PING QMGR")], C.MQRCCF_ESCAPE_TYPE_ERROR,
     C.MQIACF_ESCAPE_TYPE),
    (C.MQCMD_ESCAPE, [(C.MQCACF_ESCAPE_TEXT, "PING QMGR")], C.MQRCCF_PARM_COUNT_TOO_SMALL, None),
    (C.MQCMD_RESOLVE_CHANNEL, [(C.MQCACH_CHANNEL_NAME, "SYSTEM.DEF.SENDER"), (C.MQIACH_IN_DOUBT, 5)],
     C.MQRCCF_INDOUBT_VALUE_ERROR, C.MQIACH_IN_DOUBT),
    (C.MQCMD_RESOLVE_CHANNEL, [(C.MQCACH_CHANNEL_NAME, "SYSTEM.DEF.SENDER"), (C.MQIACH_IN_DOUBT, C.MQIDO_COMMIT)],
     C.MQRCCF_INDOUBT_VALUE_ERROR, None),  # (nothing in doubt: RESOLVE CHANNEL's own answer)
    (C.MQCMD_PING_CHANNEL, [(C.MQCACH_CHANNEL_NAME, "SYSTEM.DEF.SENDER"), (C.MQIACH_DATA_COUNT, 3)],
     C.MQRCCF_PING_DATA_COUNT_ERROR, C.MQIACH_DATA_COUNT),
    (C.MQCMD_INQUIRE_ENTITY_AUTH, [(C.MQIACF_OBJECT_TYPE, C.MQOT_Q)], C.MQRCCF_ENTITY_NAME_MISSING, None),
    (C.MQCMD_INQUIRE_ENTITY_AUTH, [(C.MQCACF_ENTITY_NAME, "app")], C.MQRCCF_OBJECT_TYPE_MISSING, None),
    (C.MQCMD_INQUIRE_Q, [(C.MQCA_Q_NAME, "A"), (4242, 1)], C.MQRCCF_CFIN_PARM_ID_ERROR, 4242),
])
def test_bad_requests_name_the_parameter(qm: QueueManager, command: int, params: list[tuple[int, Value]],
                                         reason: int, parameter: int | None) -> None:
    reply = execute(qm, command, params)
    assert (reply.comp_code, reply.reason) == (C.MQCC_FAILED, reason)
    assert reply.error_parameters == ([(C.MQIACF_PARAMETER_ID, parameter)] if parameter is not None else [])


def test_inquire_pubsub_status_is_display_pubsub(qm: QueueManager) -> None:
    shown = parse_records(mqsc(qm, "DISPLAY PUBSUB ALL"))[0][0]
    status = _one(qm, C.MQCMD_INQUIRE_PUBSUB_STATUS, [(C.MQIACF_PS_STATUS_TYPE, C.MQPSST_LOCAL)])
    assert status[C.MQCA_Q_MGR_NAME] == shown["QMNAME"] == "QM1"
    assert status[C.MQIACF_PS_STATUS_TYPE] == C.MQPSST_LOCAL and shown["TYPE"] == "LOCAL"
    assert status[C.MQIACF_PUBSUB_STATUS] == C.MQPS_STATUS_ACTIVE and shown["STATUS"] == "ACTIVE"
    assert status[C.MQIA_SUB_COUNT] == int(shown["SUBCOUNT"])
    assert status[C.MQIA_TOPIC_NODE_COUNT] == int(shown["TPCOUNT"])


def test_inquire_cluster_q_mgr_outside_clusters(qm: QueueManager) -> None:
    reply = execute(qm, C.MQCMD_INQUIRE_CLUSTER_Q_MGR, [(C.MQCA_CLUSTER_Q_MGR_NAME, "*")])
    assert "not found" in mqsc(qm, "DISPLAY CLUSQMGR(*)")[0]
    assert (reply.comp_code, reply.reason) == (C.MQCC_FAILED, C.MQRC_UNKNOWN_OBJECT_NAME)


def test_inquire_entity_auth_is_display_entauth(qm: QueueManager) -> None:
    mqsc(qm, "SET AUTHREC PROFILE(SUB.Q) OBJTYPE(QUEUE) PRINCIPAL('app') AUTHADD(PUT,INQ)")
    shown = parse_records(mqsc(qm, "DISPLAY ENTAUTH PRINCIPAL('app') OBJTYPE(QUEUE) OBJNAME(SUB.Q)"))[0][0]
    held = _one(qm, C.MQCMD_INQUIRE_ENTITY_AUTH, [
        (C.MQCACF_ENTITY_NAME, "app"), (C.MQIACF_ENTITY_TYPE, C.MQZAET_PRINCIPAL), (C.MQIACF_OBJECT_TYPE, C.MQOT_Q),
        (C.MQCACF_OBJECT_NAME, "SUB.Q")])
    assert held[C.MQCACF_OBJECT_NAME] == shown["OBJECT"] == "SUB.Q"
    assert held[C.MQIACF_OBJECT_TYPE] == C.MQOT_Q and held[C.MQIACF_ENTITY_TYPE] == C.MQZAET_PRINCIPAL
    assert set(held[C.MQIACF_AUTHORIZATION_LIST]) == {C.MQAUTH_OUTPUT, C.MQAUTH_INQUIRE}  # type: ignore[arg-type]
    assert shown["AUTHLIST"].replace(" ", "") in ("INQ,PUT", "PUT,INQ")


def test_escape_runs_mqsc_and_answers_each_message(qm: QueueManager) -> None:
    reply = execute(qm, C.MQCMD_ESCAPE, [(C.MQIACF_ESCAPE_TYPE, C.MQET_MQSC),
                                         (C.MQCACF_ESCAPE_TEXT, "DISPLAY QLOCAL(SUB.Q) MAXDEPTH")])
    assert reply.comp_code == C.MQCC_OK
    assert [dict(o)[C.MQCACF_ESCAPE_TEXT] for o in reply.objects] == [
        "\n".join(mqsc(qm, "DISPLAY QLOCAL(SUB.Q) MAXDEPTH"))]
    assert all(dict(o)[C.MQIACF_ESCAPE_TYPE] == C.MQET_MQSC for o in reply.objects)
    defined = execute(qm, C.MQCMD_ESCAPE, [(C.MQIACF_ESCAPE_TYPE, C.MQET_MQSC),
                                           (C.MQCACF_ESCAPE_TEXT, "DEFINE QLOCAL(ESC.Q) MAXDEPTH(7)")])
    assert [dict(o)[C.MQCACF_ESCAPE_TEXT] for o in defined.objects] == ["AMQ8006I: WebSphere MQ queue created."]
    assert parse_records(mqsc(qm, "DISPLAY QLOCAL(ESC.Q) MAXDEPTH"))[0][0]["MAXDEPTH"] == "7"
    missing = execute(qm, C.MQCMD_ESCAPE, [(C.MQIACF_ESCAPE_TYPE, C.MQET_MQSC),
                                           (C.MQCACF_ESCAPE_TEXT, "DISPLAY QLOCAL(NOT.THERE)")])
    assert [dict(o)[C.MQCACF_ESCAPE_TEXT] for o in missing.objects] == mqsc(qm, "DISPLAY QLOCAL(NOT.THERE)")


def _raw_strings(body: bytes) -> dict[int, bytes]:
    """Each MQCFST of an encoded message as it is on the wire (StringLength bytes)."""
    out, offset = {}, 36
    while offset < len(body):
        kind, length, parameter = struct.unpack_from("<3i", body, offset)
        if kind == C.MQCFT_STRING:
            (size,) = struct.unpack_from("<i", body, offset + 16)
            out[parameter] = body[offset + 20:offset + 20 + size]
        offset += length
    return out


def test_response_strings_are_blank_padded_to_ibm_lengths(qm: QueueManager) -> None:
    """IBM's command server pads each MQCFST to its field: MQCA_Q_NAME to MQ_Q_NAME_LENGTH (48),
    MQCA_Q_DESC to 64, dates to 12; a topic string is variable and goes as it is."""
    mqsc(qm, "DEFINE QLOCAL(PAD.Q) DESCR('short')")
    mqsc(qm, "DEFINE TOPIC(PAD.T) TOPICSTR('pad/t')")
    request = pcf.MQCFH(Type=C.MQCFT_COMMAND, Command=C.MQCMD_INQUIRE_Q)
    (message,) = responses(request, execute(qm, C.MQCMD_INQUIRE_Q, [(C.MQCA_Q_NAME, "PAD.Q")]))
    raw = _raw_strings(pcf.encode(message, widths=LENGTHS))
    assert raw[C.MQCA_Q_NAME] == b"PAD.Q".ljust(C.MQ_Q_NAME_LENGTH)
    assert raw[C.MQCA_Q_DESC] == b"short".ljust(C.MQ_Q_DESC_LENGTH)
    assert len(raw[C.MQCA_CREATION_DATE]) == C.MQ_CREATION_DATE_LENGTH
    decoded = dict(pcf.decode(pcf.encode(message, widths=LENGTHS)).parameters)
    assert decoded[C.MQCA_Q_NAME] == "PAD.Q"  # (readers strip IBM's padding)
    (topic,) = responses(pcf.MQCFH(Type=C.MQCFT_COMMAND, Command=C.MQCMD_INQUIRE_TOPIC),
                         execute(qm, C.MQCMD_INQUIRE_TOPIC, [(C.MQCA_TOPIC_NAME, "PAD.T")]))
    raw = _raw_strings(pcf.encode(topic, widths=LENGTHS))
    assert raw[C.MQCA_TOPIC_STRING] == b"pad/t" and raw[C.MQCA_TOPIC_NAME] == b"PAD.T".ljust(48)
    (names,) = responses(pcf.MQCFH(Type=C.MQCFT_COMMAND, Command=C.MQCMD_INQUIRE_Q_NAMES),
                         execute(qm, C.MQCMD_INQUIRE_Q_NAMES, [(C.MQCA_Q_NAME, "PAD.*")]))
    body = pcf.encode(names, widths=LENGTHS)
    assert b"PAD.Q".ljust(48) in body and struct.unpack_from("<i", body, 36 + 20)[0] == 48  # MQCFSL StringLength


def test_error_response_names_the_parameter(qm: QueueManager) -> None:
    request = pcf.MQCFH(Type=C.MQCFT_COMMAND, Command=C.MQCMD_INQUIRE_Q)
    (failed,) = responses(request, execute(qm, C.MQCMD_INQUIRE_Q, [(C.MQCA_Q_NAME, "A"), (C.MQIA_Q_TYPE, 77)]))
    assert (failed.header.CompCode, failed.header.Reason) == (C.MQCC_FAILED, C.MQRCCF_PARM_VALUE_ERROR)
    assert failed.parameters == [(C.MQIACF_PARAMETER_ID, C.MQIA_Q_TYPE)]
    bad = pcf.encode(pcf.PcfMessage(request, [(C.MQCA_Q_NAME, "A")]))
    bad = bad[:40] + struct.pack("<i", 19) + bad[44:]  # the MQCFST's StrucLength: not a multiple of 4
    with pytest.raises(pcf.PcfError) as refused:
        pcf.decode_request(bad)
    (answer,) = error_response(request, refused.value.reason, refused.value.parameter)
    assert answer.header.Reason == C.MQRCCF_MSG_LENGTH_ERROR
    assert answer.parameters == [(C.MQIACF_PARAMETER_ID, C.MQCA_Q_NAME)]


@pytest.mark.parametrize(("psmode", "status"), [("ENABLED", C.MQPS_STATUS_ACTIVE), ("COMPAT", C.MQPS_STATUS_COMPAT),
                                                 ("DISABLED", C.MQPS_STATUS_INACTIVE)])
def test_pubsub_status_follows_psmode(qm: QueueManager, psmode: str, status: int) -> None:
    """D:R-PSM-4: PSMODE changes the status DISPLAY PUBSUB reports, and INQUIRE_PUBSUB_STATUS's
    MQIACF_PUBSUB_STATUS (MQPS_STATUS_*) with it: ACTIVE, COMPAT (the engine only), INACTIVE."""
    mqsc(qm, f"ALTER QMGR PSMODE({psmode})")
    shown = parse_records(mqsc(qm, "DISPLAY PUBSUB TYPE(LOCAL)"))[0][0]
    inquired = _one(qm, C.MQCMD_INQUIRE_PUBSUB_STATUS, [(C.MQIACF_PS_STATUS_TYPE, C.MQPSST_LOCAL)])
    assert inquired[C.MQIACF_PUBSUB_STATUS] == status
    assert shown["STATUS"] == {C.MQPS_STATUS_ACTIVE: "ACTIVE", C.MQPS_STATUS_COMPAT: "COMPAT",
                               C.MQPS_STATUS_INACTIVE: "INACTIVE"}[status]
