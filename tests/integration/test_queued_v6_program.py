"""A queued publish/subscribe program written the way a version 6 program is: it builds its
MQRFH2 command messages byte by byte (struct, no helper of mqlite's), puts them with plain
MQPUT to SYSTEM.BROKER.CONTROL.QUEUE and SYSTEM.BROKER.DEFAULT.STREAM, and reads the broker's
responses and its publication back by parsing the bytes itself. It runs unchanged under
``python -m mqlite.pymqi_run`` beside an MQI subscriber (mqlite's own API) on the same topic,
which gets the same publication with its usr folder as properties (D §13)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import mqlite
from helpers.qmgrs import QMgr
from mqlite import cmqc as C

V6_PROGRAM = r'''
import struct
import sys

import pymqi

QMGR = sys.argv[1]
MQRFH_STRUC_ID = b"RFH "
MQFMT_RF_HEADER_2 = b"MQHRF2  "
MQFMT_STRING = b"MQSTR   "
MQENC_NATIVE = 546  # little-endian integers (x86)


def folder(xml):
    data = xml.encode("utf-8")
    data += b" " * (-len(data) % 4)  # each NameValueData a multiple of 4 bytes
    return struct.pack("<i", len(data)) + data


def rfh2(folders, body_format=MQFMT_STRING):
    variable = b"".join(folder(f) for f in folders)
    return struct.pack("<4s i i i i 8s i i", MQRFH_STRUC_ID, 2, 36 + len(variable), MQENC_NATIVE, -2,
                       body_format, 0, 1208) + variable


def folders_of(data):
    length = struct.unpack_from("<i", data, 8)[0]
    at, found = 36, []
    while at < length:
        size = struct.unpack_from("<i", data, at)[0]
        found.append(data[at + 4:at + 4 + size].decode("utf-8").rstrip(" "))
        at += 4 + size
    return found, data[length:]


qmgr = pymqi.connect(QMGR)
reply = pymqi.Queue(qmgr, "V6.REPLY.Q")

# Register as a subscriber; my subscriber queue is my reply-to queue.
md = pymqi.MD()
md.Format = MQFMT_RF_HEADER_2
md.MsgType = pymqi.CMQC.MQMT_REQUEST
md.ReplyToQ = b"V6.REPLY.Q"
control = pymqi.Queue(qmgr, "SYSTEM.BROKER.CONTROL.QUEUE")
control.put(rfh2(["<psc><Command>RegSub</Command><Topic>Results/Soccer/#</Topic></psc>"]), md)
response_md = pymqi.MD()
response_md.CorrelId = md.MsgId
gmo = pymqi.GMO(Options=pymqi.CMQC.MQGMO_WAIT, WaitInterval=30000, MatchOptions=pymqi.CMQC.MQMO_MATCH_CORREL_ID)
response, _ = folders_of(reply.get(None, response_md, gmo))
print("regsub:", response[0])

# Publish a result with a usr property; then read the publication back from my queue.
md = pymqi.MD()
md.Format = MQFMT_RF_HEADER_2
md.MsgType = pymqi.CMQC.MQMT_DATAGRAM
stream = pymqi.Queue(qmgr, "SYSTEM.BROKER.DEFAULT.STREAM")
stream.put(rfh2(["<psc><Command>Publish</Command><Topic>Results/Soccer/Final</Topic></psc>",
                 "<usr><Home>2</Home><Away>1</Away></usr>"]) + b"2-1", md)
publication_md = pymqi.MD()
gmo = pymqi.GMO(Options=pymqi.CMQC.MQGMO_WAIT, WaitInterval=30000)
data = reply.get(None, publication_md, gmo)
found, body = folders_of(data)
print("format:", publication_md.Format.decode().strip())
print("folders:", " ".join(found))
print("body:", body.decode())
qmgr.disconnect()
'''


def test_v6_program_beside_an_mqi_subscriber(qmgr: QMgr, tmp_path: Path) -> None:
    qm = mqlite.connect(qmgr.name)
    code, lines = qm.mqsc("DEFINE QLOCAL(V6.REPLY.Q)\n")
    assert code == 0, lines
    sub = mqlite.Subscription(qm)
    sub.sub(topic_string="Results/Soccer/Final", sub_opts=C.MQSO_CREATE | C.MQSO_NON_DURABLE | C.MQSO_MANAGED)
    program = tmp_path / "v6_results.py"
    program.write_text(V6_PROGRAM)
    result = subprocess.run([sys.executable, "-m", "mqlite.pymqi_run", str(program), qmgr.name],
                            env=dict(os.environ), capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr
    printed = dict(line.split(": ", 1) for line in result.stdout.splitlines())
    assert printed["regsub"] == "<pscr><Completion>ok</Completion></pscr>"  # D:TV-3
    assert printed["format"] == "MQHRF2"
    assert "<Command>Publish</Command>" in printed["folders"]
    assert "<Topic>Results/Soccer/Final</Topic>" in printed["folders"]
    assert "<Home" in printed["folders"] and printed["body"] == "2-1"
    handle = mqlite.MessageHandle(qm)
    md = mqlite.MD()
    gmo = mqlite.GMO(Options=C.MQGMO_WAIT | C.MQGMO_NO_SYNCPOINT | C.MQGMO_PROPERTIES_IN_HANDLE,
                     WaitInterval=30_000, MsgHandle=handle.msg_handle)
    assert sub.get(None, md, gmo) == b"2-1"
    assert handle.properties.get("Home") == "2" and handle.properties.get("Away") == "1"
    sub.close(sub_close_options=C.MQCO_REMOVE_SUB)
    qm.disconnect()
