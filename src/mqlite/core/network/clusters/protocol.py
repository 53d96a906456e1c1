"""The repository messages cluster members exchange, as values and bytes (sans-IO).

IBM's repository managers talk through SYSTEM.CLUSTER.COMMAND.QUEUE in an internal format; mqlite's
are persistent messages of format ``MQCLUS  `` on the same queue, carried by the cluster channels
like any other message (so a stopped channel delays them and nothing is lost). Three kinds:

- ``Publish``: records (``repository.ClusterRecord``) an owner publishes or a full repository
  passes on; ``answer_to``, when set, names the query it answers (the asker's name for it);
- ``Query``: a member asks a full repository about a name (a cluster queue it references, a
  queue manager it must reach) and subscribes to its changes (B:R-CLQ-4, R-CLU-12);
- ``Remove``: RESET CLUSTER ACTION(FORCEREMOVE) at a full repository: forget a member.

``decode`` checks everything it reads: a malformed message raises ``ClusterProtocolError`` (the
repository manager logs it and puts it aside), never a crash.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.core.network.clusters.repository import ClusterRecord

__all__ = ["FORMAT", "VERSION", "ClusterMessage", "ClusterProtocolError", "Publish", "Query", "Remove", "decode",
           "encode"]

FORMAT = "MQCLUS  "
VERSION = 1
_KINDS = frozenset({"QMGR", "QUEUE", "TOPIC"})


class ClusterProtocolError(MQError):
    def __init__(self, text: str) -> None:
        super().__init__(C.MQRC_FORMAT_ERROR, f"AMQ9430E: malformed repository message: {text}")


@dataclass(frozen=True)
class Publish:
    sender: str
    records: tuple[ClusterRecord, ...]
    answer_to: str = ""  # the query's name when this answers one
    # the owners' unchanged republication, relayed by a full repository: the copies are refreshed
    # copies a full repository sends from its cache (welcome, REFRESH CLUSTER) are not
    refresh: bool = False


@dataclass(frozen=True)
class Query:
    sender: str
    cluster: str
    kind: str
    name: str


@dataclass(frozen=True)
class Remove:
    sender: str
    cluster: str
    qmgr: str


ClusterMessage = Publish | Query | Remove


def encode(message: ClusterMessage) -> bytes:
    if isinstance(message, Publish):
        body: dict[str, Any] = {"op": "publish", "records": [_record_out(r) for r in message.records],
                                "answer_to": message.answer_to}
        if message.refresh:
            body["refresh"] = True
    elif isinstance(message, Query):
        body = {"op": "query", "cluster": message.cluster, "kind": message.kind, "name": message.name}
    else:
        body = {"op": "remove", "cluster": message.cluster, "qmgr": message.qmgr}
    body.update(v=VERSION, sender=message.sender)
    return json.dumps(body, separators=(",", ":"), sort_keys=True).encode()


def decode(data: bytes) -> ClusterMessage:
    try:
        body = json.loads(data)
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        raise ClusterProtocolError(f"not JSON ({error})") from None
    if not isinstance(body, dict):
        raise ClusterProtocolError("not an object")
    if body.get("v") != VERSION:
        raise ClusterProtocolError(f"version {body.get('v')!r}, not {VERSION}")
    sender = _text(body, "sender", required=True)
    op = body.get("op")
    if op == "publish":
        records = body.get("records")
        if not isinstance(records, list):
            raise ClusterProtocolError("records is not a list")
        return Publish(sender, tuple(_record_in(item) for item in records), _text(body, "answer_to"),
                       body.get("refresh") is True)
    if op == "query":
        kind = _text(body, "kind", required=True)
        if kind not in _KINDS:
            raise ClusterProtocolError(f"kind {kind!r}")
        return Query(sender, _text(body, "cluster"), kind, _text(body, "name", required=True))
    if op == "remove":
        return Remove(sender, _text(body, "cluster", required=True), _text(body, "qmgr", required=True))
    raise ClusterProtocolError(f"operation {op!r}")


def _record_out(record: ClusterRecord) -> dict[str, Any]:
    return {"kind": record.kind, "cluster": record.cluster, "name": record.name, "owner": record.owner,
            "stamp": list(record.stamp), "attrs": dict(record.attrs), "deleted": record.deleted}


def _record_in(item: Any) -> ClusterRecord:
    if not isinstance(item, dict):
        raise ClusterProtocolError("a record is not an object")
    kind = _text(item, "kind", required=True)
    if kind not in _KINDS:
        raise ClusterProtocolError(f"record kind {kind!r}")
    stamp = item.get("stamp")
    if (not isinstance(stamp, list) or len(stamp) != 2 or not isinstance(stamp[0], (int, float))
            or not isinstance(stamp[1], int) or isinstance(stamp[1], bool) or not 0 <= stamp[1] < 2**63):
        raise ClusterProtocolError(f"record stamp {str(stamp)[:64]}")
    try:  # a stamp beyond every later change (Infinity, 1e400) or none (NaN) would never be replaced
        when = float(stamp[0])
    except OverflowError:
        raise ClusterProtocolError("record stamp out of range") from None
    if not math.isfinite(when):
        raise ClusterProtocolError("record stamp is not finite")
    attrs = item.get("attrs", {})
    if not isinstance(attrs, Mapping) or not all(isinstance(k, str) for k in attrs):
        raise ClusterProtocolError("record attrs is not an object")
    for key, value in attrs.items():
        _check_value(key, nested=True)
        _check_value(value, nested=False)
    deleted = item.get("deleted", False)
    if not isinstance(deleted, bool):
        raise ClusterProtocolError("record deleted is not a boolean")
    return ClusterRecord(kind, _text(item, "cluster", required=True), _text(item, "name", required=True),
                         _text(item, "owner", required=True), (when, int(stamp[1])), dict(attrs), deleted)


def _check_value(value: Any, nested: bool) -> None:
    """An attribute value the store can hold: text, a 64-bit integer, a finite float, a flag, or
    (one level) a list of those."""
    if isinstance(value, list) and not nested:
        for item in value:
            _check_value(item, nested=True)
    elif isinstance(value, int) and not isinstance(value, bool):
        if not -(2**63) <= value < 2**63:
            raise ClusterProtocolError("record attribute out of range")
    elif isinstance(value, str):
        try:
            value.encode()
        except UnicodeEncodeError:  # a lone surrogate: no store or wire can hold it
            raise ClusterProtocolError("record attribute is not text") from None
    elif not isinstance(value, (float, bool)) and value is not None:
        raise ClusterProtocolError(f"record attribute of type {type(value).__name__}")


def _text(body: Mapping[str, Any], key: str, required: bool = False) -> str:
    value = body.get(key, "")
    if not isinstance(value, str) or len(value) > 48 or (required and not value):
        raise ClusterProtocolError(f"{key} {str(value)[:64]!r}")
    if not value.isprintable():  # lone surrogates and control characters: no object is named so
        raise ClusterProtocolError(f"{key} is not printable text")
    return value
