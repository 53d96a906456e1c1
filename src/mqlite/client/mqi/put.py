"""What MQPUT, MQPUT1 and a publication share: the message built from pymqi structures and
keywords, sent synchronously or as an asynchronous put (MQPMO_ASYNC_RESPONSE)."""

from __future__ import annotations

from typing import Any

from mqlite import cmqc
from mqlite.client import common
from mqlite.client.handles import properties_of
from mqlite.client.session import Call, Send, Session
from mqlite.client.structs import MD, PMO, text
from mqlite.protocol import native
from mqlite.protocol.native import Op

__all__ = ["keyword_split", "put_properties", "put_step"]

_MSG_ID = 9  # position in the wire MQMD


def put_properties(properties: dict[str, Any] | None, pmo: PMO | None) -> dict[str, Any]:
    """The properties a put sends: the PMO's message handle's, then the ``properties`` keyword's."""
    props = properties_of(pmo.OriginalMsgHandle) if pmo is not None and pmo.OriginalMsgHandle else {}
    if properties:
        props.update({text(k) if isinstance(k, bytes) else k: v for k, v in properties.items()})
    return props


def put_step(conn: Session, op: Op, target: list[Any], msg: bytes | str, md: MD | None, pmo: PMO | None,
             bytes_encoding: str, default_ccsid: int, properties: dict[str, Any] | None, syncpoint: bool | None,
             asynchronous: bool | None, md_fields: dict[str, Any], more_options: int = 0,
             extra: tuple[Any, ...] = ()) -> tuple[Call | Send, MD | None]:
    """A put from pymqi's (msg, md, pmo) and the Pythonic keywords (see ``Queue.put``): the step
    that sends ``[*target, md, options, props, body, *extra]``, and the MD to complete with the
    reply (a ``str`` body makes one). The step is a request, or for an asynchronous put a frame
    without a reply, its MsgId made here, as IBM's client does, and given to the MD at once.
    A failure of an earlier asynchronous put on the connection is raised here, before anything
    is sent."""
    conn.async_puts.raise_pending()
    if md is not None:
        md.check_version()
    if pmo is not None:
        pmo.check_version()
    body, md = common.encode_body(msg, md, bytes_encoding, default_ccsid)
    wire = common.put_md(md, conn.ccsid, **md_fields) if md_fields else common.put_md(md, conn.ccsid)
    options = common.put_options(pmo, syncpoint=syncpoint, asynchronous=asynchronous) | more_options
    props = put_properties(properties, pmo) if properties or pmo is not None else {}
    if options & cmqc.MQPMO_ASYNC_RESPONSE:
        options = common.prepare_async(wire, options, conn.async_puts)
        if md is not None:
            md.MsgId = wire[_MSG_ID]
        if op is Op.PUT:  # most asynchronous puts: the direct encoder
            return Send((native.encode_put(0, target[0], wire, options, props, body), True)), md
        return Send((native.encode_request(op, 0, [*target, wire, options, props, body, *extra]), True)), md
    return Call((op, [*target, wire, options, props, body, *extra])), md


def keyword_split(keywords: dict[str, Any]) -> tuple[dict[str, Any] | None, bool | None, bool | None, dict[str, Any]]:
    """(properties, syncpoint, asynchronous, MQMD keywords) of ``put1``'s keywords."""
    md_fields = dict(keywords)
    return (md_fields.pop("properties", None), md_fields.pop("syncpoint", None),
            md_fields.pop("asynchronous", None), md_fields)
