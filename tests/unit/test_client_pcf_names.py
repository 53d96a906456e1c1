"""pymqi's PCFExecute names kept for old programs (issue 32 item 6): ``stringifyKeys`` is
``stringify_keys``, which names a response's parameter ids as cmqc does (pymqi's own
test_disconnect, in tests/pymqi_suite, checks that disconnect forgets the reply queue's name)."""

from __future__ import annotations

import mqlite as pymqi
from mqlite import cmqc as C


def test_stringify_keys_names_parameter_ids() -> None:
    assert pymqi.PCFExecute.stringifyKeys is pymqi.PCFExecute.stringify_keys
    named = pymqi.PCFExecute.stringify_keys({C.MQCA_Q_NAME: b"Q1", C.MQIA_CURRENT_Q_DEPTH: 3, 999_999: 1})
    assert named == {"MQCA_Q_NAME": b"Q1", "MQIA_CURRENT_Q_DEPTH": 3, 999_999: 1}
