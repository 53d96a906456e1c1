"""The PCF decoder (event messages) fuzzed with hypothesis: random bytes and valid messages
mutated; the contract is ``fuzz_targets.pcf_message`` (a message that encodes back to itself, or
PcfError with an MQRCCF_* reason, nothing else)."""

from __future__ import annotations

import fuzz_targets as T
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mqlite.protocol import pcf

FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))

int32 = st.integers(-(2**31), 2**31 - 1)
# IBM pads character fields with blanks: trailing blanks and NULs are not part of a value.
texts = st.text(max_size=20).map(lambda s: s.rstrip(" \0"))
scalar = st.one_of(int32, texts, st.binary(max_size=20), st.lists(int32, max_size=4),
                   st.lists(st.text(alphabet="ABC. ", max_size=8).map(str.rstrip), max_size=4))
values = st.recursive(scalar, lambda inner: st.lists(st.tuples(int32, inner), max_size=3).map(pcf.Group),
                      max_leaves=6)
messages = st.builds(lambda reason, params: pcf.PcfMessage(pcf.MQCFH(Reason=reason), params),
                     int32, st.lists(st.tuples(int32, values), max_size=6))


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    data = bytearray(pcf.encode(draw(messages), draw(st.booleans())))
    for _ in range(draw(st.integers(0, 4))):
        at = draw(st.integers(0, max(0, len(data) - 1)))
        kind = draw(st.sampled_from(["flip", "cut", "splice", "extreme"]))
        if kind == "flip" and data:
            data[at] ^= 1 << draw(st.integers(0, 7))
        elif kind == "cut":
            del data[at:]
        elif kind == "splice":
            data[at:at] = draw(st.binary(max_size=12))
        elif data:
            data[at] = draw(st.sampled_from([0x00, 0x7F, 0x80, 0xFF]))
    return bytes(data)


@FUZZ
@given(messages, st.booleans())
def test_pcf_round_trip(message: pcf.PcfMessage, little: bool) -> None:
    assert pcf.decode(pcf.encode(message, little), little).parameters == message.parameters


@FUZZ
@given(mutated())
def test_pcf_mutated(data: bytes) -> None:
    T.pcf_message(data)


@FUZZ
@given(st.binary(max_size=300))
def test_pcf_random_bytes(data: bytes) -> None:
    T.pcf_message(data)
