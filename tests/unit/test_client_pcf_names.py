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


def test_64_bit_structures_and_groups_pack_as_ibm_lays_them_out() -> None:
    """MQCFIN64 and MQCFIL64 are 8-byte integers (Types 23 and 25), an MQCFGR packs alone with
    the ParameterCount it was given; a message of them decodes into the group."""
    from mqlite.protocol import pcf

    cfin64 = pymqi.CFIN64(Parameter=C.MQIAMO_Q_MIN_DEPTH, Value=1 << 40).pack()
    assert (len(cfin64), int.from_bytes(cfin64[:4], "little")) == (C.MQCFIN64_STRUC_LENGTH, C.MQCFT_INTEGER64)
    cfil64 = pymqi.CFIL64(Parameter=C.MQIAMO64_AVG_Q_TIME, Values=[1, 2]).pack()
    assert (len(cfil64), int.from_bytes(cfil64[:4], "little")) == (16 + 16, C.MQCFT_INTEGER64_LIST)
    group = pymqi.CFGR(Parameter=C.MQGACF_Q_STATISTICS_DATA, ParameterCount=2).pack()
    header = pymqi.CFH(Type=C.MQCFT_USER, ParameterCount=1).pack()
    decoded = pcf.decode(header + group + cfin64 + cfil64)
    assert decoded.parameters == [(C.MQGACF_Q_STATISTICS_DATA,
                                   pcf.Group([(C.MQIAMO_Q_MIN_DEPTH, 1 << 40), (C.MQIAMO64_AVG_Q_TIME, [1, 2])]))]
