"""The shapes of the native protocol's reply results, which the client checks.

The server trusts nothing a client sends (``native`` validates every request); the client,
in turn, checks a reply's result before turning it into MQI structures, so a confused peer
raises MQRC_UNEXPECTED_ERROR instead of a ``KeyError`` deep in the client.
"""

from __future__ import annotations

from typing import Any, Final

from mqlite.protocol.native import MQRC_UNEXPECTED_ERROR, Op, ProtocolError
from mqlite.protocol.native_shapes import (
    Bad,
    Checker,
    bool_arg,
    bytes_arg,
    check_args,
    check_md,
    check_messages,
    check_props,
    int_arg,
    str_arg,
)

__all__ = ["RESULT_SHAPES", "check_result"]


def _any(v: Any) -> Any:
    return v


def _none(v: Any) -> None:
    if v is not None:
        raise Bad("expected nil")


def _fields(**kinds: type | tuple[type, ...]) -> Checker:
    def check(v: Any) -> dict[str, Any]:
        if type(v) is not dict:
            raise Bad("expected a map")
        for key, kind in kinds.items():
            if not isinstance(v.get(key), kind):
                raise Bad(f"field {key!r} missing or of the wrong type")
        return v

    return check


def _tuple(*shape: Checker) -> Checker:
    def check(v: Any) -> list[Any]:
        if type(v) is not list:
            raise Bad("expected a list")
        return check_args(shape, v, "result")

    return check


def _inq_values(v: Any) -> list[int | str]:
    if type(v) is not list or any(type(x) not in (int, str) for x in v):
        raise Bad("expected a list of int or str")
    return v


def _lines(v: Any) -> list[str]:
    if type(v) is not list or any(type(x) is not str for x in v):
        raise Bad("expected a list of str")
    return v


RESULT_SHAPES: Final[dict[Op, Checker]] = {
    Op.CONNECT: _fields(qmgr=str, user=str, conn_id=str, maxmsgl=int, ccsid=int),
    Op.DISCONNECT: _none,
    # hobj, the resolved queue name (a topic's resolved string), the resolved queue manager name,
    # read-ahead granted, and whether the open created a dynamic queue (from a model queue: MQOPEN
    # returns its name in the MQOD's ObjectName)
    Op.OPEN: _tuple(int_arg, str_arg, str_arg, bool_arg, bool_arg),
    Op.CLOSE: _none,
    Op.PUT: check_md,
    Op.PUT1: check_md,
    Op.GET: _tuple(check_md, check_props, bytes_arg, int_arg),
    Op.COMMIT: _none,
    Op.BACKOUT: _none,
    Op.INQ: _inq_values,
    Op.SET: _none,
    Op.MQSC: _tuple(int_arg, _lines),
    Op.STAT: _fields(put_success=int, put_warning=int, put_failure=int, reason=int),
    Op.PING: _none,
    Op.PUBLISH: check_md,
    Op.SUB: _tuple(int_arg, int_arg, str_arg, _fields(ResObjectString=str, SubCorrelId=bytes, SubName=str,
                                            SelectionString=str, SubExpiry=int, SubLevel=int, SubId=bytes)),
    Op.SUBRQ: int_arg,
    Op.OFFSETS: _tuple(int_arg, int_arg),
    Op.BROWSE_RANGE: check_messages,
    Op.REMOVE_THROUGH: int_arg,
}


def check_result(op: Op, result: Any) -> Any:
    """Validate a reply's result for ``op`` (only meaningful when cc != MQCC_FAILED,
    except GET's 2080 which carries one too). Raises ``ProtocolError`` (2195)."""
    checker = RESULT_SHAPES.get(op, _any)
    try:
        return checker(result)
    except Bad as e:
        raise ProtocolError(MQRC_UNEXPECTED_ERROR, f"bad {op.name} result: {e}") from None
