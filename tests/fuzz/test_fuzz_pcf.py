"""The PCF decoder (event messages) fuzzed with hypothesis: random bytes and valid messages
mutated; the contract is ``fuzz_targets.pcf_message`` (a message that encodes back to itself, or
PcfError with an MQRCCF_* reason, nothing else). PCF commands too: requests with filters round
trip, and the command server's translation answers any request, well formed or not; a request
with one count or length field set wrong (issue 32 item 7: the MQCFH's ParameterCount, a
structure's StrucLength, an MQCFST's StringLength, an MQCFIL's or MQCFSL's Count ...) is refused
with its MQRCCF_* reason, the answer naming the parameter where it could be read, or decodes."""

from __future__ import annotations

import struct

import fuzz_targets as T
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mutations import mutated

from mqlite import cmqc as C
from mqlite.core.qmgr import QueueManager
from mqlite.mqsc import pcf_commands, pcf_objects
from mqlite.protocol import pcf

FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))

int32 = st.integers(-(2**31), 2**31 - 1)
# IBM pads character fields with blanks: trailing blanks and NULs are not part of a value.
texts = st.text(max_size=20).map(lambda s: s.rstrip(" \0"))
scalar = st.one_of(int32, texts, st.binary(max_size=20), st.lists(int32, max_size=4),
                   st.lists(st.text(alphabet="ABC. ", max_size=8).map(str.rstrip), max_size=4))
values = st.recursive(scalar, lambda inner: st.lists(st.tuples(int32, inner), max_size=3).map(pcf.Group),
                      max_leaves=6)
PCF_EXTREMES = (0x00, 0x7F, 0x80, 0xFF)
messages = st.builds(lambda reason, params: pcf.PcfMessage(pcf.MQCFH(Reason=reason), params),
                     int32, st.lists(st.tuples(int32, values), max_size=6))


@FUZZ
@given(messages, st.booleans())
def test_pcf_round_trip(message: pcf.PcfMessage, little: bool) -> None:
    assert pcf.decode(pcf.encode(message, little), little).parameters == message.parameters


@FUZZ
@given(mutated(st.builds(pcf.encode, messages, st.booleans()), PCF_EXTREMES))
def test_pcf_mutated(data: bytes) -> None:
    T.pcf_message(data)


@FUZZ
@given(st.binary(max_size=300))
def test_pcf_random_bytes(data: bytes) -> None:
    T.pcf_message(data)


# -- PCF commands for the command server: requests with filters, and what the server makes of them
filters = st.one_of(st.builds(pcf.IntegerFilter, int32, int32), st.builds(pcf.StringFilter, int32, texts),
                    st.builds(pcf.ByteStringFilter, int32, st.binary(max_size=12)))
_PARAMETERS = [C.MQCA_Q_NAME, C.MQIA_Q_TYPE, C.MQIACF_Q_ATTRS, C.MQIA_MAX_Q_DEPTH, C.MQCA_Q_DESC, C.MQIACF_ALL,
               C.MQCACH_CHANNEL_NAME, C.MQIACH_CHANNEL_TYPE, C.MQCA_TOPIC_NAME, C.MQCACF_SUB_NAME,
               C.MQIA_DEF_PERSISTENCE, C.MQIACF_REPLACE, C.MQIACF_PURGE, C.MQCACF_FROM_Q_NAME, C.MQCACF_TO_Q_NAME,
               C.MQIACF_Q_STATUS_TYPE, C.MQIA_CURRENT_Q_DEPTH, C.MQCACF_AUTH_PROFILE_NAME, C.MQIACF_OBJECT_TYPE,
               C.MQIACF_AUTH_ADD_AUTHS, C.MQCACF_PRINCIPAL_ENTITY_NAMES, C.MQCA_TOPIC_STRING, C.MQCA_NAMES,
               C.MQIACF_ESCAPE_TYPE, C.MQCACF_ESCAPE_TEXT, C.MQCACF_ENTITY_NAME, C.MQIACF_ENTITY_TYPE,
               C.MQCACF_OBJECT_NAME, C.MQIACH_DATA_COUNT, C.MQIACH_IN_DOUBT, C.MQCA_CLUSTER_Q_MGR_NAME,
               C.MQCA_CLUSTER_NAME, C.MQIACF_PS_STATUS_TYPE, C.MQCACF_FROM_SUB_NAME, C.MQCACF_TO_SUB_NAME,
               C.MQBACF_SUB_ID, C.MQCACF_DESTINATION, C.MQIACF_EXPIRY, C.MQIACF_DESTINATION_CLASS]
_COMMANDS = [C.MQCMD_INQUIRE_Q, C.MQCMD_INQUIRE_Q_NAMES, C.MQCMD_INQUIRE_Q_MGR, C.MQCMD_INQUIRE_Q_STATUS,
             C.MQCMD_CREATE_Q, C.MQCMD_CHANGE_Q, C.MQCMD_COPY_Q, C.MQCMD_DELETE_Q, C.MQCMD_INQUIRE_CHANNEL,
             C.MQCMD_INQUIRE_CHANNEL_NAMES, C.MQCMD_INQUIRE_CHANNEL_STATUS, C.MQCMD_INQUIRE_TOPIC,
             C.MQCMD_INQUIRE_SUBSCRIPTION, C.MQCMD_PING_Q_MGR, C.MQCMD_RESET_Q_STATS, C.MQCMD_CREATE_TOPIC,
             C.MQCMD_CHANGE_CHANNEL, C.MQCMD_COPY_LISTENER, C.MQCMD_DELETE_NAMELIST, C.MQCMD_CHANGE_Q_MGR,
             C.MQCMD_INQUIRE_AUTH_RECS, C.MQCMD_SET_AUTH_REC, C.MQCMD_INQUIRE_SUB_STATUS, C.MQCMD_INQUIRE_TOPIC_STATUS,
             C.MQCMD_CREATE_SUBSCRIPTION, C.MQCMD_CHANGE_SUBSCRIPTION, C.MQCMD_COPY_SUBSCRIPTION,
             C.MQCMD_DELETE_SUBSCRIPTION, C.MQCMD_INQUIRE_PUBSUB_STATUS, C.MQCMD_INQUIRE_CLUSTER_Q_MGR,
             C.MQCMD_PING_CHANNEL, C.MQCMD_RESOLVE_CHANNEL, C.MQCMD_INQUIRE_ENTITY_AUTH, C.MQCMD_ESCAPE]
names = st.sampled_from(["FUZZ.A", "FUZZ.*", "*", "", "SYSTEM.DEF*", "NOPE"])
request_value = st.one_of(scalar, filters, names)
requests = st.builds(
    lambda command, xr, params: pcf.PcfMessage(pcf.MQCFH(Type=C.MQCFT_COMMAND_XR if xr else C.MQCFT_COMMAND,
                                                         Command=command, Version=3 if xr else 1), params),
    st.one_of(st.sampled_from(_COMMANDS), int32), st.booleans(),
    st.lists(st.tuples(st.one_of(st.sampled_from(_PARAMETERS), int32), request_value), max_size=5))


@FUZZ
@given(requests, st.booleans())
def test_pcf_requests_round_trip(message: pcf.PcfMessage, little: bool) -> None:
    decoded = pcf.decode_request(pcf.encode(message, little), little)
    assert (decoded.header.Type, decoded.header.Command) == (message.header.Type, message.header.Command)
    assert decoded.parameters == message.parameters


@FUZZ
@given(st.one_of(requests.map(pcf.encode), mutated(requests.map(pcf.encode), PCF_EXTREMES)))
def test_command_server_answers_any_request(data: bytes) -> None:
    """What the command server does with a message: a PcfError with an MQRCCF_* reason (answered
    with it), or a command run to a reply whose responses encode, whatever the parameters."""
    qm = QueueManager("QMFUZZ")
    qm.bootstrap()
    try:
        request = pcf.decode_request(data)
    except pcf.PcfError as error:
        assert 3001 <= error.reason <= 3999, error
        answer = pcf_commands.error_response(pcf.peek_header(data), error.reason)
    else:
        reply = pcf_objects.execute(qm, request.header.Command, request.parameters)
        assert reply.comp_code in (C.MQCC_OK, C.MQCC_FAILED) and (reply.comp_code == C.MQCC_OK) == (reply.reason == 0)
        answer = pcf_commands.responses(request.header, reply)
    assert answer[-1].header.Control == C.MQCFC_LAST
    for message in answer:
        pcf.decode(pcf.encode(message))


# -- one count or length field of a request set wrong ------------------------------------------------
# (offset in the structure, what it is) of each structure's count and length fields
_FIELDS = {C.MQCFT_INTEGER: (4,), C.MQCFT_STRING: (4, 16), C.MQCFT_BYTE_STRING: (4, 12),
           C.MQCFT_INTEGER_LIST: (4, 12), C.MQCFT_STRING_LIST: (4, 16, 20), C.MQCFT_GROUP: (4, 12),
           C.MQCFT_INTEGER_FILTER: (4,), C.MQCFT_STRING_FILTER: (4, 20), C.MQCFT_BYTE_STRING_FILTER: (4, 16),
           C.MQCFT_INTEGER64: (4,), C.MQCFT_INTEGER64_LIST: (4, 12)}
wrong_numbers = st.one_of(st.sampled_from([-1, 0, 1, 3, 4, 8, 12, 16, 20, 24, 2**31 - 1, -(2**31)]), int32)


def _count_and_length_fields(data: bytes, little: bool) -> list[int]:
    """The offsets of every count and length field of an encoded message (the MQCFH's first)."""
    order = "<" if little else ">"
    fields, offset = [4, 32], 36  # MQCFH StrucLength, ParameterCount
    while offset + 12 <= len(data):
        kind, length = struct.unpack_from(order + "2i", data, offset)
        fields.extend(offset + f for f in _FIELDS.get(kind, (4,)))
        offset += C.MQCFGR_STRUC_LENGTH if kind == C.MQCFT_GROUP else max(length, 12)
    return fields


@st.composite
def wrong_field_requests(draw: st.DrawFn) -> tuple[bytes, bool]:
    little = draw(st.booleans())
    data = bytearray(pcf.encode(draw(requests), little))
    at = draw(st.sampled_from(_count_and_length_fields(bytes(data), little)))
    data[at:at + 4] = draw(wrong_numbers).to_bytes(4, "little" if little else "big", signed=True)
    return bytes(data), little


@FUZZ
@given(wrong_field_requests())
def test_requests_with_wrong_counts_and_lengths(case: tuple[bytes, bool]) -> None:
    """Refused with an MQRCCF_* reason (answered as the command server answers it, with
    MQIACF_PARAMETER_ID where the parameter could be read), or decoded and answered."""
    data, little = case
    try:
        request = pcf.decode_request(data, little)
    except pcf.PcfError as error:
        assert 3001 <= error.reason <= 3999, error
        (answer,) = pcf_commands.error_response(pcf.peek_header(data, little), error.reason, error.parameter)
        assert (answer.header.CompCode, answer.header.Reason) == (C.MQCC_FAILED, error.reason)
        assert answer.parameters == ([] if error.parameter is None else [(C.MQIACF_PARAMETER_ID, error.parameter)])
        pcf.decode(pcf.encode(answer, little), little)
        return
    qm = QueueManager("QMFUZZ")
    qm.bootstrap()
    reply = pcf_objects.execute(qm, request.header.Command, request.parameters)
    assert (reply.comp_code == C.MQCC_OK) == (reply.reason == 0)
    for message in pcf_commands.responses(request.header, reply):
        pcf.decode(pcf.encode(message, little), little)
