"""pymqi's PCF names: ``PCFExecute`` and the PCF structures ``CFH``, ``CFST``, ``CFIN``, ``CFSL``,
``CFIL``, ``CFBS``, ``CFGR``, ``CFIF``, ``CFSF``, ``CFBF``, ``CFIN64``, ``CFIL64``, ``ByteString``
and the filters (``Filter(selector).like(b'APP.*')``), over ``protocol.pcf``.

As pymqi does, ``PCFExecute(qmgr)`` opens a reply queue from SYSTEM.DEFAULT.MODEL.QUEUE and each
``pcf.MQCMD_INQUIRE_Q(args, filters)`` puts an MQCFT_COMMAND_XR request (MQCFH version 3,
MQFMT_ADMIN) on SYSTEM.ADMIN.COMMAND.QUEUE, gets the responses by CorrelId until MQCFC_LAST and
returns a list of dicts keyed by parameter id (strings as ``bytes``, integers as ``int``); a
response with a completion code other than MQCC_OK raises ``MQMIError`` with its codes. ``args``
is a dict ``{parameter: value}`` (``bytes``/``str`` MQCFST, ``int`` MQCFIN, or MQCFIL for an
``*_ATTRS`` selector, ``list`` MQCFIL/MQCFSL, ``ByteString`` MQCFBS) or a list of structures.
Strings come back without IBM's blank padding (pymqi gives them padded to their field length).
"""

from __future__ import annotations

import struct
from typing import Any

from mqlite import cmqc
from mqlite.client.errors import MQMIError, PYIFError
from mqlite.client.pymqi_api import Queue, QueueManager
from mqlite.client.structs import GMO, MD, OD, PMO, MQOpts
from mqlite.protocol import pcf

__all__ = ["CFBF", "CFBS", "CFGR", "CFH", "CFIF", "CFIL", "CFIL64", "CFIN", "CFIN64", "CFSF", "CFSL", "CFST",
           "ByteString", "ByteStringFilter", "Filter", "IntegerFilter", "PCFExecute", "StringFilter"]

_ATTRS_SELECTORS = frozenset(v for k, v in vars(cmqc).items()
                             if (k.startswith(("MQIACF_", "MQIACH_"))) and k.endswith("_ATTRS") and isinstance(v, int))


def _text(value: Any) -> str:
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)


class ByteString:
    """A byte-string parameter value (MQCFBS) in an args dict."""

    def __init__(self, value: bytes | str) -> None:
        self.value = value.encode("utf-8") if isinstance(value, str) else value


class _Parameter(MQOpts):
    """A PCF structure: ``value()`` is what ``protocol.pcf`` encodes for it."""

    def value(self) -> pcf.Value:
        raise NotImplementedError

    def pack(self, encoding: int = cmqc.MQENC_NATIVE) -> bytes:
        little = pcf.little_endian(encoding)
        return pcf.encode(pcf.PcfMessage(pcf.MQCFH(), [(int(self.Parameter), self.value())]), little)[36:]


class CFH(MQOpts):
    _fields = (("Type", cmqc.MQCFT_COMMAND), ("StrucLength", cmqc.MQCFH_STRUC_LENGTH), ("Version", 1),
               ("Command", 0), ("MsgSeqNumber", 1), ("Control", cmqc.MQCFC_LAST), ("CompCode", 0), ("Reason", 0),
               ("ParameterCount", 0))

    def pack(self, encoding: int = cmqc.MQENC_NATIVE) -> bytes:
        header = pcf.MQCFH(Type=self.Type, Command=self.Command, Version=self.Version, MsgSeqNumber=self.MsgSeqNumber,
                           Control=self.Control, CompCode=self.CompCode, Reason=self.Reason)
        data = bytearray(pcf.encode(pcf.PcfMessage(header, []), pcf.little_endian(encoding)))
        data[32:36] = int(self.ParameterCount).to_bytes(4, "little" if pcf.little_endian(encoding) else "big")
        return bytes(data)


class CFST(_Parameter):
    _fields = (("Parameter", 0), ("CodedCharSetId", 0), ("String", b""))

    def value(self) -> pcf.Value:
        return _text(self.String)


class CFIN(_Parameter):
    _fields = (("Parameter", 0), ("Value", 0))

    def value(self) -> pcf.Value:
        return int(self.Value)


class CFIN64(CFIN):
    """MQCFIN64: packed as IBM lays it out (Type MQCFT_INTEGER64, a reserved word, 8 bytes of value)."""

    def pack(self, encoding: int = cmqc.MQENC_NATIVE) -> bytes:
        order = "<" if pcf.little_endian(encoding) else ">"
        return struct.pack(order + "4iq", cmqc.MQCFT_INTEGER64, cmqc.MQCFIN64_STRUC_LENGTH, int(self.Parameter), 0,
                           int(self.Value))


class CFSL(_Parameter):
    _fields = (("Parameter", 0), ("CodedCharSetId", 0), ("Strings", []))

    def value(self) -> pcf.Value:
        return [_text(s) for s in self.Strings]


class CFIL(_Parameter):
    _fields = (("Parameter", 0), ("Values", []))

    def value(self) -> pcf.Value:
        return [int(v) for v in self.Values]


class CFIL64(CFIL):
    """MQCFIL64: packed as IBM lays it out (Type MQCFT_INTEGER64_LIST, 8 bytes a value)."""

    def pack(self, encoding: int = cmqc.MQENC_NATIVE) -> bytes:
        order = "<" if pcf.little_endian(encoding) else ">"
        values = [int(v) for v in self.Values]
        return struct.pack(order + f"4i{len(values)}q", cmqc.MQCFT_INTEGER64_LIST,
                           cmqc.MQCFIL64_STRUC_LENGTH_FIXED + 8 * len(values), int(self.Parameter), len(values),
                           *values)


class CFBS(_Parameter):
    _fields = (("Parameter", 0), ("String", b""))

    def value(self) -> pcf.Value:
        return self.String.encode("utf-8") if isinstance(self.String, str) else bytes(self.String)


class CFGR(_Parameter):
    """A group: its ``ParameterCount`` structures follow it in the list."""

    _fields = (("Parameter", 0), ("ParameterCount", 0))

    def value(self) -> pcf.Value:
        return pcf.Group([])

    def pack(self, encoding: int = cmqc.MQENC_NATIVE) -> bytes:
        """The MQCFGR alone, its ParameterCount as set: the members are packed after it (pymqi)."""
        order = "<" if pcf.little_endian(encoding) else ">"
        return struct.pack(order + "4i", cmqc.MQCFT_GROUP, cmqc.MQCFGR_STRUC_LENGTH, int(self.Parameter),
                           int(self.ParameterCount))


class CFIF(_Parameter):
    _fields = (("Parameter", 0), ("Operator", cmqc.MQCFOP_EQUAL), ("FilterValue", 0))

    def value(self) -> pcf.Value:
        return pcf.IntegerFilter(int(self.Operator), int(self.FilterValue))


class CFSF(_Parameter):
    _fields = (("Parameter", 0), ("Operator", cmqc.MQCFOP_EQUAL), ("CodedCharSetId", 0), ("FilterValue", b""))

    def value(self) -> pcf.Value:
        return pcf.StringFilter(int(self.Operator), _text(self.FilterValue))


class CFBF(_Parameter):
    _fields = (("Parameter", 0), ("Operator", cmqc.MQCFOP_EQUAL), ("FilterValue", b""))

    def value(self) -> pcf.Value:
        return pcf.ByteStringFilter(int(self.Operator), bytes(self.FilterValue))


class _Filter:
    """pymqi's ``Filter(selector).equal(value)``: becomes an MQCFIF, MQCFSF or MQCFBF."""

    kind = ""

    def __init__(self, selector: int, value: Any, operator: int) -> None:
        self.selector, self.value, self.operator = selector, value, operator

    def structure(self) -> _Parameter:
        if isinstance(self.value, int):
            return CFIF(Parameter=self.selector, Operator=self.operator, FilterValue=self.value)
        if isinstance(self.value, ByteString):
            return CFBF(Parameter=self.selector, Operator=self.operator, FilterValue=self.value.value)
        return CFSF(Parameter=self.selector, Operator=self.operator, FilterValue=self.value)


class StringFilter(_Filter):
    kind = "string"


class IntegerFilter(_Filter):
    kind = "integer"


class ByteStringFilter(_Filter):
    kind = "bytestring"


class _FilterOperator:
    def __init__(self, selector: int, operator: int) -> None:
        self.selector, self.operator = selector, operator

    def __call__(self, value: Any) -> _Filter:
        kind = IntegerFilter if isinstance(value, int) else ByteStringFilter if isinstance(value, ByteString) \
            else StringFilter
        return kind(self.selector, value, self.operator)


class Filter:
    """``Filter(pymqi.CMQC.MQCA_Q_DESC).like(b'pay*')``, ``.greater(10)`` ... as pymqi has them."""

    _OPERATORS = {"less": cmqc.MQCFOP_LESS, "equal": cmqc.MQCFOP_EQUAL, "greater": cmqc.MQCFOP_GREATER,
                  "not_less": cmqc.MQCFOP_NOT_LESS, "not_equal": cmqc.MQCFOP_NOT_EQUAL,
                  "not_greater": cmqc.MQCFOP_NOT_GREATER, "like": cmqc.MQCFOP_LIKE, "not_like": cmqc.MQCFOP_NOT_LIKE,
                  "contains": cmqc.MQCFOP_CONTAINS, "excludes": cmqc.MQCFOP_EXCLUDES,
                  "contains_gen": cmqc.MQCFOP_CONTAINS_GEN, "excludes_gen": cmqc.MQCFOP_EXCLUDES_GEN}

    def __init__(self, selector: int) -> None:
        self.selector = selector

    def __getattr__(self, name: str) -> _FilterOperator:
        if name in self._OPERATORS:
            return _FilterOperator(self.selector, self._OPERATORS[name])
        raise AttributeError(name)


def _parameters(args: Any, filters: list[Any]) -> list[tuple[int, pcf.Value]]:
    """An args dict or list of structures, and filters, as ``protocol.pcf`` parameters."""
    out: list[tuple[int, pcf.Value]] = []
    if isinstance(args, dict):
        for key, value in args.items():
            if isinstance(value, bytes | str):
                out.append((key, _text(value)))
            elif isinstance(value, ByteString):
                out.append((key, value.value))
            elif isinstance(value, int):
                out.append((key, [value] if key in _ATTRS_SELECTORS else value))
            elif isinstance(value, list) and value and isinstance(value[0], int):
                out.append((key, [int(v) for v in value]))
            elif isinstance(value, list):
                out.append((key, [_text(v) for v in value]))
            else:
                raise PYIFError(f"unsupported value for parameter {key}: {value!r}")
    elif isinstance(args, list):
        structures = list(args)
        while structures:
            out.append(_structure(structures))
    elif args is not None:
        raise PYIFError("PCF arguments are a dict or a list of PCF structures")
    for item in filters:
        structure = item.structure() if isinstance(item, _Filter) else item
        out.append((int(structure.Parameter), structure.value()))
    return out


def _structure(structures: list[Any]) -> tuple[int, pcf.Value]:
    first = structures.pop(0)
    if not isinstance(first, _Parameter):
        raise PYIFError(f"not a PCF structure: {first!r}")
    if isinstance(first, CFGR):
        members = [_structure(structures) for _ in range(int(first.ParameterCount)) if structures]
        return int(first.Parameter), pcf.Group(members)
    return int(first.Parameter), first.value()


def _result(parameters: list[tuple[int, pcf.Value]]) -> dict[int, Any]:
    result: dict[int, Any] = {}
    for parameter, value in parameters:
        kind = type(value)
        if kind is int:  # (most of them)
            result[parameter] = value
        elif kind is str:
            result[parameter] = value.encode("utf-8")  # type: ignore[union-attr]
        elif isinstance(value, pcf.Group):
            result.setdefault(parameter, []).append(_result(value.parameters))
        elif isinstance(value, str):
            result[parameter] = value.encode("utf-8")
        elif isinstance(value, list):
            result[parameter] = [v.encode("utf-8") if isinstance(v, str) else v for v in value]
        else:
            result[parameter] = value
    return result


class _Method:
    def __init__(self, owner: PCFExecute, name: str) -> None:
        self.owner, self.name = owner, name

    def __call__(self, *args: Any) -> list[dict[int, Any]]:
        command = getattr(cmqc, self.name, None)
        if not isinstance(command, int):
            raise AttributeError(f"{self.name} is not a PCF command")
        params, filters = (*args, None, [])[:2]
        return self.owner.execute(command, _parameters(params, list(filters or [])))


# Parameter ids by their cmqc names, for stringify_keys (the first name of each id, by prefix order).
_PARAMETER_NAMES: dict[int, str] = {}
for _prefix in ("MQCA_", "MQIA_", "MQCACF_", "MQIACF_", "MQCACH_", "MQIACH_", "MQBACF_", "MQGACF_"):
    for _name, _value in vars(cmqc).items():
        if _name.startswith(_prefix) and isinstance(_value, int) and not isinstance(_value, bool):
            _PARAMETER_NAMES.setdefault(_value, _name)


class PCFExecute(QueueManager):
    """pymqi's PCFExecute: ``pcf = PCFExecute(qmgr)`` then ``pcf.MQCMD_INQUIRE_Q({...})``."""

    def __init__(self, name: Any = None, model_queue_name: bytes | str = b"SYSTEM.DEFAULT.MODEL.QUEUE",
                 reply_queue_name: bytes | str | None = None, dynamic_queue_name: bytes | str = b"PYMQPCF.*",
                 command_queue_name: bytes | str = b"SYSTEM.ADMIN.COMMAND.QUEUE", command_queue: Queue | None = None,
                 response_wait_interval: int = 5000, convert: bool = True) -> None:
        if isinstance(name, QueueManager):
            super().__init__(None)
            self.qm: QueueManager = name
        else:
            super().__init__(name)
            self.qm = self
        self.command_queue_name = command_queue_name
        self._command_queue = command_queue
        self.response_wait_interval = 60 * 60 * 1000 if response_wait_interval < 0 else response_wait_interval
        self.convert = convert
        od = OD(ObjectName=reply_queue_name or model_queue_name, DynamicQName=dynamic_queue_name)
        # Its own dynamic queue, read alone: responses stream in (read-ahead) and are matched here,
        # where a named reply queue others may share is read by CorrelId, as pymqi does.
        self._own_queue = reply_queue_name is None
        options = cmqc.MQOO_INPUT_EXCLUSIVE | (cmqc.MQOO_READ_AHEAD if self._own_queue else 0)
        self.reply_queue: Queue | None = Queue(self.qm, od, options)
        self.reply_queue_name = od.ObjectName.strip() if isinstance(od.ObjectName, bytes) else od.ObjectName

    def __getattr__(self, name: str) -> _Method:
        if name.startswith("MQCMD_"):
            return _Method(self, name)
        raise AttributeError(name)

    def execute(self, command: int, parameters: list[tuple[int, pcf.Value]]) -> list[dict[int, Any]]:
        """Send one PCF command and collect its responses (pymqi's loop)."""
        if self.reply_queue is None:
            raise PYIFError("PCFExecute is disconnected")
        header = pcf.MQCFH(Type=cmqc.MQCFT_COMMAND_XR, Version=cmqc.MQCFH_VERSION_3, Command=command)
        message = pcf.encode(pcf.PcfMessage(header, parameters))
        queue = self._command_queue or Queue(self.qm, self.command_queue_name, cmqc.MQOO_OUTPUT)
        put_md = MD(Format=cmqc.MQFMT_ADMIN, MsgType=cmqc.MQMT_REQUEST, ReplyToQ=self.reply_queue_name,
                    Feedback=cmqc.MQFB_NONE, Expiry=(self.response_wait_interval // 100) * 3,
                    Report=cmqc.MQRO_PASS_DISCARD_AND_EXPIRY | cmqc.MQRO_DISCARD_MSG)
        queue.put(message, put_md, PMO(Options=cmqc.MQPMO_NO_SYNCPOINT))
        if self._command_queue is None:
            queue.close()
        gmo = GMO(Options=cmqc.MQGMO_NO_SYNCPOINT | cmqc.MQGMO_FAIL_IF_QUIESCING | cmqc.MQGMO_WAIT,
                  Version=cmqc.MQGMO_VERSION_2,
                  MatchOptions=cmqc.MQMO_NONE if self._own_queue else cmqc.MQMO_MATCH_CORREL_ID,
                  WaitInterval=self.response_wait_interval)
        results: list[dict[int, Any]] = []
        md = MD(CorrelId=b"" if self._own_queue else put_md.MsgId)  # (each get fills it in again)
        while True:
            body = self.reply_queue.get(None, md, gmo)
            if md.CorrelId != put_md.MsgId:
                continue  # an earlier command's, answered after its caller stopped waiting
            response = self.unpack(body)
            res, cfh = response
            if cfh.Type not in (cmqc.MQCFT_XR_MSG, cmqc.MQCFT_XR_SUMMARY) and res:
                results.append(res)
            if cfh.Control == cmqc.MQCFC_LAST:
                return results

    @staticmethod
    def unpack(message: bytes) -> tuple[dict[int, Any], CFH]:
        """A response as (dict of its parameters, its CFH); MQMIError when it failed."""
        decoded = pcf.decode(message)
        h = decoded.header
        cfh = CFH(Type=h.Type, Version=h.Version, Command=h.Command, MsgSeqNumber=h.MsgSeqNumber, Control=h.Control,
                  CompCode=h.CompCode, Reason=h.Reason, ParameterCount=h.ParameterCount)
        if h.CompCode != cmqc.MQCC_OK:
            raise MQMIError(h.CompCode, h.Reason)
        return _result(decoded.parameters), cfh

    @staticmethod
    def stringify_keys(raw_dict: dict[int, Any]) -> dict[int | str, Any]:
        """pymqi's ``stringify_keys``: a copy of a response with each parameter id replaced by its
        cmqc name (``MQCA_Q_NAME``); ids with no name stay as they are."""
        return {_PARAMETER_NAMES.get(key, key) if isinstance(key, int) else key: value
                for key, value in raw_dict.items()}

    stringifyKeys = stringify_keys  # pymqi's old name

    def disconnect(self) -> None:
        """Close the reply queue; the connection ends only when PCFExecute made it."""
        try:
            if self.reply_queue is not None:
                self.reply_queue.close()
        except MQMIError:
            pass
        finally:
            self.reply_queue = None
            self.reply_queue_name = None
        if self.qm is self:
            super().disconnect()
