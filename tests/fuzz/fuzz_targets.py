"""The fuzz targets: one function per decoder, each asserting the decoder's contract.

A target takes bytes (what arrives from outside), feeds them to one decoder and checks that it
either returns a value or raises the error type it documents, carrying a reason code (an MQ
reason, an MQTT reason, a WebSocket close code, an MQSC syntax error); where the module has an
encoder, what was decoded is encoded and decoded again and must come back the same. Any other
exception escapes and fails the run. ``test_fuzz_decoders.py`` drives these with hypothesis in
``make test``; ``atheris_main.py`` runs them coverage-guided behind the ``fuzz`` marker.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import msgpack

from mqlite import cmqc as C
from mqlite.cli import dmpfile
from mqlite.core.attributes import attributes
from mqlite.core.errors import MQError
from mqlite.core.qmgr import QueueManager
from mqlite.core.selectors import compile_selector
from mqlite.message import Message, MessageDescriptor
from mqlite.mqsc.commands import run_mqsc
from mqlite.mqsc.lexer import MqscSyntaxError, split_script
from mqlite.mqsc.lexer import tokenize as mqsc_tokenize
from mqlite.mqsc.parser import Command, parse
from mqlite.protocol import dlh, native, native_results, pcf, rfh2, websocket, xqh
from mqlite.protocol.fields import HeaderError
from mqlite.protocol.mqtt import (
    V5,
    V31,
    V311,
    ConnAck,
    Connect,
    Disconnect,
    MqttError,
    MqttStream,
    Publish,
    Subscribe,
    Subscription,
    codec,
)
from mqlite.protocol.mqtt import reasons as mqtt_reasons
from mqlite.protocol.mqtt.session import Limits, ServerSession, SessionState
from mqlite.protocol.mqtt.stream import NEED_DATA as MQTT_NEED_DATA
from mqlite.protocol.rfh2_folders import Rfh2Error, folder_properties

NATIVE_REASONS = frozenset({native.MQRC_UNEXPECTED_ERROR, native.MQRC_MSG_TOO_BIG_FOR_CHANNEL,
                            native.MQRC_FUNCTION_NOT_SUPPORTED})
# MQTT 5.0 error reasons a decoder may close with (section 2.4: 0x80 and above are errors).
MQTT_ERRORS = frozenset(v for k, v in vars(mqtt_reasons).items() if k.isupper() and isinstance(v, int) and v >= 0x80)
WEBSOCKET_CLOSE_CODES = frozenset({websocket.PROTOCOL_ERROR, websocket.UNSUPPORTED_DATA, websocket.INVALID_DATA,
                                   websocket.TOO_BIG})
MAX_FRAME = 1 << 16  # small limits, so that the oversize paths are reached too
MAX_PACKET = 1 << 16


def _chunks(data: bytes, cut: int) -> list[bytes]:
    """``data`` in pieces of ``cut`` bytes (0: in one piece): decoders must not care."""
    if cut <= 0:
        return [data]
    return [data[i:i + cut] for i in range(0, len(data), cut)]


def _same(a: Any, b: Any) -> bool:
    """Equal, with NaN equal to itself (a float property may be NaN)."""
    if isinstance(a, float) and isinstance(b, float):
        return a == b or (math.isnan(a) and math.isnan(b))
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return bool(a == b)


# -- the native protocol --------------------------------------------------------------------------
def native_server(data: bytes, cut: int = 0) -> list[Any]:
    """Bytes a client sends, read by the server's codec: requests, or ProtocolError with a reason.

    Every request's arguments are of the shape its op documents, and re-encoding a request
    gives one the decoder reads back the same."""
    conn = native.NativeConnection(native.Role.SERVER, max_frame=MAX_FRAME)
    out: list[Any] = []
    for piece in _chunks(data, cut):
        try:
            conn.receive_data(piece)
        except native.ProtocolError as error:
            assert error.fatal and error.reason == native.MQRC_MSG_TOO_BIG_FOR_CHANNEL
            return out
        while True:
            try:
                event = conn.next_event()
            except native.ProtocolError as error:
                assert error.reason in NATIVE_REASONS, error
                assert isinstance(error.text, str) and error.text
                out.append(error)
                if error.fatal:
                    return out
                continue
            if event is native.NEED_DATA:
                break
            assert isinstance(event, native.Request), event
            assert event.op in native.REQUEST_OPS and type(event.req_id) is int and event.req_id >= 0
            assert len(event.args) == len(native.REQUEST_SHAPES[event.op])
            again = native.decode_payload(native.Role.SERVER,
                                          native.encode_request(event.op, event.req_id, event.args)[4:])
            assert _same(again, event), (again, event)
            out.append(event)
    return out


def native_client(data: bytes, cut: int = 0) -> list[Any]:
    """Bytes a server sends, read by the client's codec; a reply's result then checked against
    every op's result shape (``native_results``), as the client does."""
    conn = native.NativeConnection(native.Role.CLIENT, max_frame=MAX_FRAME)
    out: list[Any] = []
    for piece in _chunks(data, cut):
        try:
            conn.receive_data(piece)
        except native.ProtocolError as error:
            assert error.fatal
            return out
        while True:
            try:
                event = conn.next_event()
            except native.ProtocolError as error:
                assert error.reason in NATIVE_REASONS, error
                if error.fatal:
                    return out
                continue
            if event is native.NEED_DATA:
                break
            if isinstance(event, native.Reply):
                for op in native_results.RESULT_SHAPES:
                    try:
                        native_results.check_result(op, event.result)
                    except native.ProtocolError as error:
                        assert error.reason == native.MQRC_UNEXPECTED_ERROR
            else:
                assert isinstance(event, native.Push) and event.kind in native.PUSH_KINDS, event
            out.append(event)
    return out


def native_payload(data: bytes) -> None:
    """One frame's msgpack payload, without the length prefix, as each side reads it."""
    for role in native.Role:
        try:
            native.decode_payload(role, data)
        except native.ProtocolError as error:
            assert error.reason in NATIVE_REASONS, error


def native_items(items: list[Any]) -> None:
    """A msgpack array built from values (past msgpack, into the shape checks)."""
    try:
        payload = msgpack.packb(items, use_bin_type=True)
    except (OverflowError, ValueError, TypeError):
        return  # not something a peer could send
    native_payload(payload)


# -- MQTT -----------------------------------------------------------------------------------------
def mqtt_stream(data: bytes, cut: int = 0, server: bool = True, version: int = V311) -> list[Any]:
    """Bytes on an MQTT connection: packets, or MqttError with an error reason (>= 0x80), after
    which the connection closes. Each packet encodes to bytes that decode to the same packet."""
    stream = MqttStream(server=server, max_packet_size=MAX_PACKET, version=version)
    out: list[Any] = []
    for piece in _chunks(data, cut):
        stream.receive_data(piece)
        while True:
            try:
                packet = stream.next_event()
            except MqttError as error:
                assert error.reason in MQTT_ERRORS, error
                return out
            if packet is MQTT_NEED_DATA:
                break
            encoded = codec.encode(packet, stream.version)  # type: ignore[arg-type]
            body_start = 1
            while encoded[body_start] & 0x80:
                body_start += 1
            again = codec.decode(encoded[0], encoded[body_start + 1:], stream.version)
            assert again == packet, (again, packet)
            out.append(packet)
    return out


def mqtt_packet(header: int, body: bytes, version: int) -> None:
    """One packet's first byte and body, straight into the codec at a protocol level."""
    try:
        packet = codec.decode(header, body, version)
    except MqttError as error:
        assert error.reason in MQTT_ERRORS, error
        return
    level = packet.protocol_level if header >> 4 == 1 else version  # type: ignore[union-attr]
    encoded = codec.encode(packet, level)
    body_start = 1
    while encoded[body_start] & 0x80:
        body_start += 1
    assert codec.decode(encoded[0], encoded[body_start + 1:], level) == packet


MQTT_VERSIONS = (V31, V311, V5)


def mqtt_session(data: bytes, cut: int = 0) -> list[Any]:
    """A client's bytes through the stream and the sans-IO server session (QoS flows, topic
    aliases, Receive Maximum): each packet gives an event and a reply, or MqttError with an
    error reason; every reply, and the deliveries the server sends between packets, encode."""
    stream = MqttStream(server=True, max_packet_size=MAX_PACKET)
    session: ServerSession | None = None
    out: list[Any] = []
    seq = 0
    for piece in _chunks(data, cut):
        stream.receive_data(piece)
        while True:
            try:
                packet = stream.next_event()
                if packet is MQTT_NEED_DATA:
                    break
                if isinstance(packet, Connect):
                    session = ServerSession(packet, SessionState(), Limits(receive_maximum=4, topic_alias_maximum=4))
                    codec.encode(session.connack(False), stream.version)
                    continue
                assert session is not None
                event, reply = session.receive(packet)  # type: ignore[arg-type]
                if isinstance(event, Publish):
                    assert event.topic  # an alias resolved
                    reply = session.acknowledge(event, 0) or reply
                for answer in (reply, *(session.resume() if isinstance(event, Disconnect) else [])):
                    if answer is not None:
                        codec.encode(answer, stream.version)
                seq += 1
                qos = seq % 3
                if session.room() > 0 or not qos:
                    delivery = session.publication("a/b", b"x" * (seq % 7), qos, False, {}, seq, seq)
                    if delivery is not None:
                        codec.encode(delivery, stream.version)
                out.append(event)
            except MqttError as error:
                assert error.reason in MQTT_ERRORS, error
                return out
    return out


# -- WebSocket ------------------------------------------------------------------------------------
HANDSHAKE = (b"GET /mqtt HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
             b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
             b"Sec-WebSocket-Protocol: mqtt\r\n\r\n")


def websocket_server(data: bytes, cut: int = 0, handshake: bool = False) -> bytes:
    """Bytes from a WebSocket client (after a good handshake when ``handshake``): application
    data, or the connection ended with an HTTP refusal or a close frame with the RFC's code."""
    ws = websocket.WebSocketServer(max_payload=MAX_PACKET)
    app = b""
    if handshake:
        assert ws.receive_data(HANDSHAKE) == b"" and ws.open and not ws.closed
    for piece in _chunks(data, cut):
        app += ws.receive_data(piece)
    if ws.closed:
        last = ws.outgoing[-1]
        if ws.open:
            assert last[0] == 0x88 and ws.close_code is not None, (last, ws.close_code)
            if ws.close_code in WEBSOCKET_CLOSE_CODES:
                assert last[2:4] == ws.close_code.to_bytes(2, "big")
        else:
            assert last.startswith(b"HTTP/1.1 4"), last
    return app


def websocket_frame(opcode: int, payload: bytes, mask: bytes, fin: bool = True) -> bytes:
    """A client's frame, masked as RFC 6455 requires."""
    n = len(payload)
    head = bytes((0x80 * fin | opcode,))
    if n < 126:
        head += bytes((0x80 | n,))
    elif n < 65536:
        head += bytes((0x80 | 126,)) + n.to_bytes(2, "big")
    else:
        head += bytes((0x80 | 127,)) + n.to_bytes(8, "big")
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


# -- MQSC -----------------------------------------------------------------------------------------
def mqsc_script(text: str) -> list[Command]:
    """A runmqsc script: each command parses, or fails with MqscSyntaxError naming where."""
    commands = []
    for item in split_script(text):
        assert item.kind in ("command", "comment", "blank")
        if item.kind != "command":
            continue
        try:
            mqsc_tokenize(item.text)
            commands.append(parse(item.text))
        except MqscSyntaxError as error:
            assert error.message and 0 <= error.pos <= len(item.text)
            assert isinstance(error.segment, str)
    return commands


def _catalogue_words() -> tuple[list[str], list[str]]:
    """Every attribute keyword and value token of the attribute catalogue (for generators)."""
    names: set[str] = set()
    tokens: set[str] = set()
    for objtype in ("QLOCAL", "QALIAS", "QREMOTE", "QMODEL", "TOPIC", "SUB", "CHANNEL", "QMGR"):
        for attr in attributes(objtype):
            names.update((attr.name, *attr.aliases, *((attr.negative,) if attr.negative else ())))
            tokens.update(attr.tokens)
    return sorted(names), sorted(tokens)


ATTRIBUTE_NAMES, ATTRIBUTE_TOKENS = _catalogue_words()


def mqsc_against_core(text: str) -> list[str]:
    """A script run by the real executor over a fresh queue manager engine (no store): every
    command succeeds or fails with an MQ or MQSC message, never the executor's "internal error"
    (the runner's catch-all for an exception that escaped)."""
    qm = QueueManager("QM1")
    qm.bootstrap()
    result = run_mqsc(qm, text)
    internal = [line for line in result.lines if "internal error" in line]
    assert not internal, (text, internal)
    return result.lines


# -- selectors ------------------------------------------------------------------------------------
_SELECTOR_REASONS = frozenset({C.MQRC_SELECTOR_SYNTAX_ERROR, C.MQRC_SELECTION_STRING_ERROR})
_MESSAGES: list[tuple[dict[str, Any], MessageDescriptor]] = [
    ({}, MessageDescriptor()),
    ({"a": 1, "b": "x", "c": 2.5, "d": True, "e": b"\x01", "f": None, "JMSType": "t",
      "x": 10**18, "y": -1, "s": "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"},
     MessageDescriptor(Priority=9, Persistence=1, PutDate="20250101", PutTime="12000000", Expiry=100)),
    ({"a": 1.7976931348623157e308, "b": "", "c": -0.0, "x": 0, "s": "%_"}, MessageDescriptor(PutDate="bad")),
]


def selector(text: str) -> None:
    """A selection string: it compiles, or MQError 2459/2519; a compiled one selects or not
    (a bool) for any message, never raising."""
    try:
        compiled = compile_selector(text)
    except MQError as error:
        assert error.reason in _SELECTOR_REASONS, error
        return
    for properties, md in _MESSAGES:
        assert compiled(properties, md) in (True, False)


# -- dmpmqmsg files -------------------------------------------------------------------------------
def dmpmqmsg_file(text: str) -> None:
    """A dmpmqmsg file: messages, or DumpFormatError naming the line; the messages read back
    from their own encoding are the same."""
    lines = text.splitlines(keepends=True)
    try:
        messages = list(dmpfile.decode(lines))
    except dmpfile.DumpFormatError as error:
        assert 1 <= error.line_no <= len(lines), error
        return
    try:
        encoded = "".join(dmpfile.encode(messages, "QM1", "Q"))
    except ValueError:
        return  # a property name the format cannot write (blanks): refused, as documented
    again = list(dmpfile.decode(encoded.splitlines(keepends=True)))
    assert len(again) == len(messages)
    for a, b in zip(again, messages, strict=True):
        assert a.md == b.md and a.body == b.body and _same(a.properties, b.properties)


# -- IBM's binary headers -------------------------------------------------------------------------
def transmission_header(data: bytes) -> None:
    """MQXQH (with its MQMD v1): decoded, or HeaderError 2260 / 2026."""
    try:
        header, body = xqh.unwrap(data)
    except HeaderError as error:
        assert error.reason in (C.MQRC_XQH_ERROR, C.MQRC_MD_ERROR), error
        return
    assert body == data[xqh.LENGTH:]
    again, rest = xqh.unwrap(xqh.wrap(header.remote_q_name, header.remote_q_mgr_name, header.md, body))
    assert (rest == body and again.md == header.md) or "\ufffd" in repr(header)


def message_descriptor_v1(data: bytes) -> None:
    """An MQMD version 1 on its own: decoded, or HeaderError 2026."""
    try:
        md = xqh.decode_md1(data)
    except HeaderError as error:
        assert error.reason == C.MQRC_MD_ERROR, error
        return
    assert xqh.decode_md1(xqh.encode_md1(md)) == md or "\ufffd" in repr(md)


def dead_letter_header(data: bytes) -> None:
    """MQDLH: decoded, or HeaderError 2141."""
    try:
        header, body = dlh.decode(data)
    except HeaderError as error:
        assert error.reason == C.MQRC_DLH_ERROR, error
        return
    assert body == data[dlh.LENGTH:]
    again, rest = dlh.decode(dlh.encode(header) + body)
    assert rest == body and (again == header or "\ufffd" in repr(header))


def pcf_message(data: bytes) -> None:
    """A PCF message (event messages): decoded, or PcfError with an MQRCCF_* reason; what decodes
    encodes back to the same parameters, in both byte orders."""
    for little in (True, False):
        try:
            message = pcf.decode(data, little)
        except pcf.PcfError as error:
            assert 3001 <= error.reason <= 3999, error
            continue
        again = pcf.decode(pcf.encode(message, little), little)
        assert again.header.Reason == message.header.Reason
        assert again.parameters == message.parameters or "\ufffd" in repr(message.parameters)


def _format_name(value: str) -> bool:
    return len(value) <= 8 and " " not in value and "\0" not in value


def rfh2_chain(data: bytes) -> None:
    """A chain of MQRFH2s in both byte orders: decoded, or Rfh2Error 2334; the folder rules and
    the usr properties pass or raise their reason; what decodes encodes back to the same headers
    and body (unless a Format read leniently is no format name)."""
    for encoding in (C.MQENC_NATIVE, C.MQENC_NORMAL):
        try:
            decoded = rfh2.decode(data, C.MQFMT_RF_HEADER_2, encoding, 1208)
        except Rfh2Error as error:
            assert error.reason == C.MQRC_RFH_ERROR, error
            continue
        for header in decoded.headers:  # the folder rules, and the usr folder as properties: pass or 2334/2421
            try:
                rfh2.check_folders(header.folders)
                usr = header.folder(C.MQRFH2_USER_FOLDER)
                if usr is not None:
                    folder_properties(usr)
            except Rfh2Error as error:
                assert error.reason in (C.MQRC_RFH_ERROR, C.MQRC_RFH_FORMAT_ERROR), error
        if not all(_format_name(header.format) for header in decoded.headers):
            continue
        again = rfh2.decode(rfh2.encode(decoded.headers, decoded.body, encoding, 1208), C.MQFMT_RF_HEADER_2,
                            encoding, 1208)
        assert again.headers == decoded.headers and again.body == decoded.body
        assert (again.format, again.encoding, again.ccsid) == (decoded.format, decoded.encoding, decoded.ccsid)


def rfh1_header(data: bytes) -> None:
    """An MQRFH version 1: decoded, or Rfh2Error 2334 / 2335; the pairs encode back to themselves."""
    try:
        header, rest = rfh2.decode_rfh1(data)
    except Rfh2Error as error:
        assert error.reason in (C.MQRC_RFH_ERROR, C.MQRC_RFH_STRING_ERROR), error
        return
    if _format_name(header.format):
        again, tail = rfh2.decode_rfh1(rfh2.encode_rfh1(header) + rest)
        assert again == header and tail == rest


# Every bytes-in target by name, for the coverage-guided runner.
BYTE_TARGETS: dict[str, Callable[[bytes], object]] = {
    "native_server": native_server,
    "native_client": native_client,
    "native_payload": native_payload,
    "mqtt_server": mqtt_stream,
    "mqtt_server_v5": lambda data: mqtt_stream(MQTT_V5_CONNECT + data),
    "mqtt_client": lambda data: mqtt_stream(data, server=False, version=V5),
    "mqtt_session": mqtt_session,
    "mqtt_session_v5": lambda data: mqtt_session(MQTT_V5_CONNECT + data),
    "mqtt_packet": lambda data: [mqtt_packet(data[0], data[2:], MQTT_VERSIONS[data[1] % 3]) if len(data) > 1 else 0],
    "websocket": websocket_server,
    "websocket_open": lambda data: websocket_server(data, handshake=True),
    "mqsc": lambda data: mqsc_script(data.decode("utf-8", "replace")),
    "mqsc_core": lambda data: mqsc_against_core(data.decode("utf-8", "replace")),
    "selector": lambda data: selector(data.decode("utf-8", "replace")),
    "dmpmqmsg": lambda data: dmpmqmsg_file(data.decode("utf-8", "replace")),
    "xqh": transmission_header,
    "md1": message_descriptor_v1,
    "dlh": dead_letter_header,
    "pcf": pcf_message,
    "rfh2": rfh2_chain,
    "rfh1": rfh1_header,
}
MQTT_V5_CONNECT = codec.encode(Connect("fuzz", V5), V5)


def seeds() -> dict[str, list[bytes]]:
    """A few valid inputs per target, where the coverage-guided runs start from."""
    md = MessageDescriptor().to_list()
    native_requests = [
        native.encode_request(native.Op.CONNECT, 1, ["QM1", None, None, "app", 1, {"ChannelName": "CH"}]),
        native.encode_request(native.Op.OPEN, 2, [{"ObjectName": "Q"}, 16]),
        native.encode_put(3, 1, md, 0, {"a": 1}, b"body"),
        native.encode_get(4, 1, [md[9], md[10]], {"Options": 1, "WaitInterval": 100, "MatchOptions": 0}, 1000),
        native.encode_request(native.Op.SUB, 5, [{"ObjectString": "a/b", "Options": 2}, 0]),
        native.encode_request(native.Op.MQSC, 6, ["DISPLAY QLOCAL(*)"]),
    ]
    publish = Publish("a/b", b"x", 1, packet_id=1)
    subscribe = Subscribe(2, [Subscription("a/#", 1)])
    mqtt_311 = codec.encode(Connect("c"), V311) + codec.encode(publish, V311) + codec.encode(subscribe, V311)
    mqtt_5 = codec.encode(publish, V5) + codec.encode(subscribe, V5)
    message = Message(MessageDescriptor(Format="MQSTR"), b"hello\x00world", {"p": "v", "n": 1})
    return {
        "native_server": [b"".join(native_requests), *native_requests],
        "native_client": [native.encode_reply(1, 0, 0, {"qmgr": "QM1"}), native.encode_push_msg(1, md, {}, b"x"),
                          native.encode_reply(2, 0, 0, [1, "Q", "QM1", False])],
        "native_payload": [r[4:] for r in native_requests],
        "mqtt_server": [mqtt_311],
        "mqtt_server_v5": [mqtt_5],
        "mqtt_session": [mqtt_311],
        "mqtt_session_v5": [mqtt_5 + codec.encode(Publish("", b"x", 1, packet_id=3, properties={"topic_alias": 1}),
                                                  V5)],
        "mqtt_client": [codec.encode(ConnAck(), V5) + codec.encode(publish, V5)],
        "mqtt_packet": [bytes((0x32, 1)) + codec.encode(publish, V311)[2:],
                        bytes((0x82, 2)) + codec.encode(subscribe, V5)[2:]],
        "websocket": [HANDSHAKE + websocket_frame(2, mqtt_311, b"abcd")],
        "websocket_open": [websocket_frame(2, mqtt_311, b"abcd") + websocket_frame(9, b"", b"\0\0\0\0")],
        "mqsc": [b"DEFINE QLOCAL('A.Q') MAXDEPTH(10) +\n  DESCR('x''y')\nDIS QL(*) WHERE(CURDEPTH GT 0)\n* c\n"],
        "mqsc_core": [b"DEFINE QLOCAL(A) MAXDEPTH(5) DEFPSIST(YES)\nDEFINE TOPIC(T) TOPICSTR('a/b')\n"
                      b"DEFINE SUB(S) TOPICSTR('a/#') DEST(A)\nDEFINE QALIAS(AL) TARGET(A)\nDIS QSTATUS(*)\n"
                      b"ALTER QMGR DESCR('x')\nDEFINE CHANNEL(C) CHLTYPE(MQTT) PORT(0)\nDIS SUB(*) ALL\n"],
        "selector": [b"a = 1 AND b LIKE 'x%' ESCAPE '!' OR c BETWEEN 1 AND 2.5 OR d IN ('a','b') OR e IS NULL"],
        "dmpmqmsg": ["".join(dmpfile.encode([message], "QM1", "Q")).encode()],
        "xqh": [xqh.wrap("Q", "QM2", MessageDescriptor(), b"body")],
        "md1": [xqh.encode_md1(MessageDescriptor())],
        "dlh": [dlh.encode(dlh.DeadLetterHeader(2053, "Q", "QM1", 546, 1208, "MQSTR", 6, "app", "20250101",
                                                "12000000")) + b"body"],
        "rfh2": [rfh2.encode([rfh2.Rfh2Header((rfh2.Folder.of("psc", ("Command", "Publish"), ("Topic", "a b")),),
                                               format="MQHRF2"),
                              rfh2.Rfh2Header((rfh2.Folder.of("usr", ("n", "1")), rfh2.Folder("pscr", (
                                  rfh2.Element("Response", children=(rfh2.Element("Reason", "3083", "i4"),)),))),
                                  ccsid=819, format="MQSTR", name_value_ccsid=1200)], b"body")],
        "rfh1": [rfh2.encode_rfh1(rfh2.Rfh1Header((("MQPSCommand", "Publish"), ("MQPSTopic", 'a "b"')),
                                                  format="MQSTR")) + b"body"],
        "pcf": [pcf.encode(pcf.PcfMessage(pcf.MQCFH(Reason=2035), [
            (C.MQCA_Q_MGR_NAME, "QM1"), (C.MQIACF_REASON_QUALIFIER, 17), (C.MQIACF_SUB_OPTIONS, 8202),
            (C.MQCACF_ADMIN_TOPIC_NAMES, ["FRUIT", "SYSTEM.BASE.TOPIC"]), (7001, b"tok"), (1, [1, 2]),
            (2, pcf.Group([(3, "x")]))]))],
    }
