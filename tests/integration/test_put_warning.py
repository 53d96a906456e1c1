"""MQPUT warnings reach the application as MQCC_WARNING, as pymqi reports them."""

from __future__ import annotations

from pathlib import Path

import pytest

import mqlite
from mqlite import cmqc as C


def test_priority_above_maxprty_warns_2049_and_the_message_is_put(tmp_path: Path) -> None:
    with mqlite.embedded("WARN.QM", home=tmp_path):
        qm = mqlite.connect("WARN.QM")
        assert qm.mqsc("DEFINE QLOCAL(W.Q)\n")[0] == 0
        q = mqlite.Queue(qm, "W.Q")
        with pytest.raises(mqlite.MQMIError) as info:
            q.put(b"urgent", mqlite.MD(Priority=12))
        assert (info.value.comp, info.value.reason) == (C.MQCC_WARNING, C.MQRC_PRIORITY_EXCEEDS_MAXIMUM)
        message = q.get(wait=1.0)
        assert (bytes(message), message.md.Priority) == (b"urgent", 12)
        qm.disconnect()
