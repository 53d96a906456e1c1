"""PCF ESCAPE: an MQSC command carried as text (MQIACF_ESCAPE_TYPE MQET_MQSC, MQCACF_ESCAPE_TEXT),
run by the one executor as runmqsc runs it, and answered as IBM's command server answers it: one
response a runmqsc message (its AMQ line and the lines under it), each with MQIACF_ESCAPE_TYPE and
that message as MQCACF_ESCAPE_TEXT. The command's own failure is in its text, as in runmqsc; a
request that is not an MQSC escape fails with MQRCCF_ESCAPE_TYPE_ERROR."""

from __future__ import annotations

import re

from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.mqsc.commands import AdminAPI
from mqlite.mqsc.commands import execute as run_text
from mqlite.mqsc.pcf_commands import Params, Reply, Request
from mqlite.mqsc.pcf_table import ParameterError

__all__ = ["execute", "messages"]

_MESSAGE = re.compile(r"^\s*AMQ\d{4}[A-Z]?\b")


def execute(admin: AdminAPI, request: Request) -> Reply:
    kind = request.integer(C.MQIACF_ESCAPE_TYPE)
    if kind is None:
        raise MQError(C.MQRCCF_PARM_COUNT_TOO_SMALL, "MQIACF_ESCAPE_TYPE is required")
    if kind != C.MQET_MQSC:
        raise ParameterError(C.MQRCCF_ESCAPE_TYPE_ERROR, f"MQIACF_ESCAPE_TYPE {kind}", C.MQIACF_ESCAPE_TYPE)
    text = request.string(C.MQCACF_ESCAPE_TEXT, required=True)
    request.done()
    objects: list[Params] = [[(C.MQIACF_ESCAPE_TYPE, C.MQET_MQSC), (C.MQCACF_ESCAPE_TEXT, message)]
                             for message in messages(run_text(admin, text or ""))]
    return Reply(objects)


def messages(lines: list[str]) -> list[str]:
    """runmqsc's output as its messages: an AMQ line and the lines that follow it, one text each."""
    out: list[str] = []
    for line in lines:
        if out and not _MESSAGE.match(line):
            out[-1] += "\n" + line
        else:
            out.append(line)
    return out
