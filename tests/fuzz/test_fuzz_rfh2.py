"""The MQRFH2 codec fuzzed with hypothesis: chains of headers encode and decode to themselves
(D:R-RFH-P1, D:R-RFH-E2, D:R-RFH-E3, D:R-RFH-M1), usr folders and message properties map both
ways, and random or mutated bytes decode or raise ``Rfh2Error`` with its reason, nothing else
(the contract of ``fuzz_targets.rfh2_chain`` and ``rfh1_header``)."""

from __future__ import annotations

import string

import fuzz_targets as T
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mutations import mutated

from mqlite import cmqc as C
from mqlite.protocol import rfh2 as R
from mqlite.protocol.rfh2_folders import Element, Folder, folder_properties, parse, properties_folder, serialize

FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
# Besides the length fields' extremes, the bytes that make or break a folder's XML: blank, <, >.
RFH2_EXTREMES = (0x00, 0x20, 0x3C, 0x3E, 0x7F, 0x80, 0xFF)

int32 = st.integers(-(2**31), 2**31 - 1)
names = st.builds(lambda head, tail: head + tail, st.sampled_from(string.ascii_letters + "_é"),
                  st.text(alphabet=string.ascii_letters + string.digits + "._-·é", max_size=8))
bmp = st.characters(max_codepoint=0xFFFF, exclude_categories=("Cs",))
attributes = st.dictionaries(names.filter(lambda n: n != "dt"), st.text(bmp, max_size=6), max_size=2).map(
    lambda d: tuple(d.items()))
dts = st.one_of(st.none(), st.sampled_from(["i4", "i8", "r8", "boolean", "bin.hex", "string"]),
                st.text(bmp, max_size=4))
leaves = st.builds(Element, names, st.text(bmp, max_size=12), dts, st.just(()), attributes)
elements = st.recursive(leaves, lambda inner: st.builds(
    lambda name, children, dt, attrs: Element(name, "", dt, tuple(children), attrs),
    names, st.lists(inner, min_size=1, max_size=3), dts, attributes), max_leaves=8)
folders = st.builds(lambda name, children, attrs: Folder(name, tuple(children), attrs),
                    names, st.lists(elements, max_size=4), attributes)
formats = st.text(alphabet=string.ascii_uppercase + string.digits, max_size=8)


@st.composite
def chains(draw: st.DrawFn) -> list[R.Rfh2Header]:
    count = draw(st.integers(1, 3))
    headers = []
    for index in range(count):
        headers.append(R.Rfh2Header(
            tuple(draw(st.lists(folders, max_size=3))),
            draw(st.one_of(st.sampled_from([C.MQENC_NATIVE, C.MQENC_NORMAL, 0, C.MQENC_S390]), int32)),
            draw(st.sampled_from([C.MQCCSI_INHERIT, 819, 500, 1208, 37])),
            "MQHRF2" if index < count - 1 else draw(formats),
            draw(int32),
            draw(st.sampled_from(sorted(R.NAME_VALUE_CCSIDS))),
        ))
    return headers


@FUZZ
@given(chains(), st.binary(max_size=16), st.sampled_from([C.MQENC_NATIVE, C.MQENC_NORMAL]),
       st.sampled_from([1208, 819, 500]))
def test_rfh2_chain_round_trip(headers: list[R.Rfh2Header], body: bytes, encoding: int, ccsid: int) -> None:
    data = R.encode(headers, body, encoding, ccsid)
    decoded = R.decode(data, C.MQFMT_RF_HEADER_2, encoding, ccsid)
    assert decoded.headers == headers and decoded.body == body
    assert (decoded.format, decoded.encoding) == (headers[-1].format, headers[-1].encoding)
    for header in decoded.headers:
        assert header.struc_length % 4 == 0  # D:R-RFH-P1


@FUZZ
@given(folders)
def test_folder_text_round_trip(folder: Folder) -> None:
    assert parse(serialize(folder)) == folder


properties = st.dictionaries(names, st.one_of(
    st.none(), st.booleans(), st.integers(-(2**63), 2**63 - 1), st.floats(allow_nan=False), st.text(max_size=10),
    st.binary(max_size=8)), max_size=6)


@FUZZ
@given(properties)
def test_usr_properties_round_trip(props: dict[str, object]) -> None:
    folder = properties_folder(props)  # type: ignore[arg-type]
    assert folder_properties(parse(serialize(folder))) == props


@FUZZ
@given(mutated(st.builds(R.encode, chains(), st.binary(max_size=8)), RFH2_EXTREMES))
def test_rfh2_mutated(data: bytes) -> None:
    T.rfh2_chain(data)


@FUZZ
@given(st.binary(max_size=300))
def test_rfh2_random_bytes(data: bytes) -> None:
    T.rfh2_chain(data)
    T.rfh2_chain(b"RFH \x02\x00\x00\x00" + data)
    T.rfh1_header(data)
    T.rfh1_header(b"RFH \x01\x00\x00\x00" + data)


@FUZZ
@given(st.builds(R.Rfh1Header, st.lists(st.tuples(st.text(max_size=6), st.text(max_size=6)), max_size=4).map(
    lambda pairs: tuple((a.replace("\0", ""), b.replace("\0", "")) for a, b in pairs)), int32, int32, formats, int32),
    st.binary(max_size=8))
def test_rfh1_round_trip(header: R.Rfh1Header, body: bytes) -> None:
    again, rest = R.decode_rfh1(R.encode_rfh1(header) + body)
    assert again == header and rest == body
    T.rfh1_header(R.encode_rfh1(header) + body)
