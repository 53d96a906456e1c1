"""The attribute catalogue: defaults, validation, synonyms, selectors (core and MQSC rely on it)."""

from __future__ import annotations

import pytest

from mqlite.core import attributes as A
from mqlite.core.errors import MQError


def test_object_types_cover_queues_qmgr_topic() -> None:
    assert {"QMGR", "QLOCAL", "QALIAS", "QMODEL", "QREMOTE", "TOPIC"} <= set(A.OBJECT_TYPES)


def test_qlocal_defaults_are_ibm_defaults() -> None:
    d = A.defaults("QLOCAL")
    assert d["MAXDEPTH"] == 5000
    assert d["MAXMSGL"] == 4194304
    assert d["DEFPRTY"] == 0 and d["BOTHRESH"] == 0
    assert d["PUT"] == "ENABLED" and d["GET"] == "ENABLED"
    assert d["DEFPSIST"] == "NO" and d["DEFSOPT"] == "SHARED" and d["MSGDLVSQ"] == "PRIORITY"
    assert d["SHARE"] is True and d["HARDENBO"] is False and d["TRIGGER"] is False
    assert d["USAGE"] == "NORMAL" and d["DEFTYPE"] == "PREDEFINED"
    assert d["DESCR"] == "" and d["CLUSTER"] == ""
    assert d["DEFREADA"] == "NO" and d["DEFPRESP"] == "SYNC" and d["DEFBIND"] == "OPEN"
    for name in ("TRIGTYPE", "TRIGDPTH", "INITQ", "PROCESS", "RETINTVL", "QDEPTHHI", "QDEPTHLO",
                 "CLUSNL", "PROPCTL", "NPMCLASS", "MONQ", "STATQ", "ACCTQ", "SCOPE", "DISTL",
                 "CLWLPRTY", "CLWLRANK", "CLWLUSEQ", "BOQNAME"):
        assert name in d
    assert "CURDEPTH" not in d and "QUEUE" not in d


def test_defaults_is_a_fresh_dict() -> None:
    a = A.defaults("QLOCAL")
    a["MAXDEPTH"] = 1
    assert A.defaults("QLOCAL")["MAXDEPTH"] == 5000


def test_qmodel_qalias_qremote_defaults() -> None:
    assert A.defaults("QMODEL")["DEFTYPE"] == "TEMPDYN"
    assert "CLUSTER" not in A.defaults("QMODEL")
    alias = A.defaults("QALIAS")
    assert alias["TARGTYPE"] == "QUEUE" and alias["TARGET"] == ""
    remote = A.defaults("QREMOTE")
    assert {"RNAME", "RQMNAME", "XMITQ", "PUT", "DEFPRTY"} <= set(remote)
    assert "GET" not in remote


def test_qmgr_defaults() -> None:
    d = A.defaults("QMGR")
    assert d["MAXPRTY"] == 9 and d["CCSID"] == 1208 and d["CMDLEVEL"] == 700
    assert d["PLATFORM"] == "UNIX" and d["TREELIFE"] == 1800  # TV-TT-05
    assert d["PSMODE"] == "ENABLED" and d["PSRTYCNT"] == 5 and d["PSNPMSG"] == "DISCARD"
    assert d["PSNPRES"] == "NORMAL" and d["PSSYNCPT"] == "IFPER"
    assert d["MAXHANDS"] == 256 and d["MAXUMSGS"] == 10000 and d["MAXPROPL"] == "NOLIMIT"
    assert d["STRSTPEV"] == "ENABLED" and d["AUTHOREV"] == "DISABLED"
    assert d["DEADQ"] == "" and d["REPOS"] == "" and d["PARENT"] == ""
    assert "QMNAME" not in d


def test_topic_defaults_and_base_topic() -> None:
    d = A.defaults("TOPIC")
    assert d["DURSUB"] == "ASPARENT" and d["WILDCARD"] == "PASSTHRU" and d["DEFPRTY"] == "ASPARENT"
    base = A.SYSTEM_BASE_TOPIC  # TV-SB-*
    assert base["DURSUB"] == "YES" and base["PUB"] == "ENABLE" and base["NPMSGDLV"] == "ALLAVAIL"
    assert base["MDURMDL"] == "SYSTEM.DURABLE.MODEL.QUEUE" and base["DEFPERSIST"] == "NO"
    assert set(base) <= set(d)


def test_validate_types_values_and_folds_case() -> None:
    got = A.validate("QLOCAL", {"maxdepth": "100", "put": "disabled", "DESCR": "My queue ",
                                "DEFPRTY": 3, "NOSHARE": True, "HARDENBO": True})
    assert got == {"MAXDEPTH": 100, "PUT": "DISABLED", "DESCR": "My queue", "DEFPRTY": 3,
                   "SHARE": False, "HARDENBO": True}


def test_synonyms() -> None:
    assert A.canonical("QALIAS", "targq") == "TARGET"
    assert A.validate("QALIAS", {"TARGQ": "Q1"}) == {"TARGET": "Q1"}
    assert A.canonical("QLOCAL", "NOTRIGGER") == "TRIGGER"
    assert A.validate("QMGR", {"PSMODE": "ENABLE"}) == {"PSMODE": "ENABLED"}  # SC-112
    topic = A.validate("TOPIC", {"DEFPSIST": "yes", "PUB": "ENABLED"})
    assert topic == {"DEFPERSIST": "YES", "PUB": "ENABLE"}
    assert A.validate("QMGR", {"MAXPROPL": "nolimit"}) == {"MAXPROPL": "NOLIMIT"}
    assert A.validate("QREMOTE", {"RNAME": " "}) == {"RNAME": ""}  # spec B A-62: ' ' is blank


@pytest.mark.parametrize(
    ("objtype", "attrs", "syntax", "named"),
    [
        ("QLOCAL", {"MAXDEPTH": "-1"}, False, "MAXDEPTH"),
        ("QLOCAL", {"MAXDEPTH": 1_000_000_000}, False, "MAXDEPTH"),
        ("QLOCAL", {"DEFPRTY": "10"}, False, "DEFPRTY"),
        ("QLOCAL", {"MAXDEPTH": "lots"}, True, "MAXDEPTH"),
        ("QLOCAL", {"PUT": "MAYBE"}, True, "PUT"),
        ("QLOCAL", {"FOO": "1"}, True, "FOO"),
        ("QLOCAL", {"CURDEPTH": "1"}, True, "CURDEPTH"),
        ("QLOCAL", {"SHARE": "YES"}, True, "SHARE"),
        ("QLOCAL", {"CLUSTER": True}, True, "CLUSTER"),
        ("QLOCAL", {"DESCR": "x" * 65}, False, "DESCR"),
        ("QLOCAL", {"DEFTYPE": "PERMDYN"}, True, "DEFTYPE"),
        ("QLOCAL", {"SHARE": True, "NOSHARE": True}, True, "NOSHARE"),
        ("QMGR", {"MAXPRTY": "5"}, True, "MAXPRTY"),
        ("QMGR", {"TREELIFE": "604001"}, False, "TREELIFE"),
        ("QREMOTE", {"GET": "ENABLED"}, True, "GET"),
    ],
)
def test_validate_rejects_naming_the_attribute(objtype: str, attrs: dict[str, object],
                                               syntax: bool, named: str) -> None:
    with pytest.raises(A.InvalidAttribute) as info:
        A.validate(objtype, attrs)
    err = info.value
    assert isinstance(err, MQError)
    assert named in err.text and err.keyword.upper() == named
    assert err.syntax is syntax
    assert err.reason == (A.MQRCCF_PARM_SYNTAX_ERROR if syntax else A.MQRCCF_PARM_VALUE_ERROR)


def test_allow_readonly_for_the_core() -> None:
    assert A.validate("QLOCAL", {"DEFTYPE": "PERMDYN"}, allow_readonly=True) == {"DEFTYPE": "PERMDYN"}


def test_status_attributes() -> None:
    assert {"CURDEPTH", "IPPROCS", "OPPROCS", "ALTDATE", "ALTTIME", "CRDATE", "CRTIME"} <= set(
        A.status_attributes("QLOCAL"))
    assert set(A.status_attributes("QALIAS")) == {"ALTDATE", "ALTTIME"}
    assert "QMID" in A.status_attributes("QMGR")


def test_selectors_round_trip() -> None:
    assert A.selector("QLOCAL", "CURDEPTH") == 3
    assert A.selector("QLOCAL", "MAXDEPTH") == 15
    assert A.selector("QLOCAL", "DESCR") == 2013
    assert A.selector("QLOCAL", "GET") == 9 and A.selector("QLOCAL", "PUT") == 10
    assert A.selector("QMGR", "DESCR") == 2014
    assert A.selector("QLOCAL", "NOSUCH") is None
    for selector, name in [(3, "CURDEPTH"), (15, "MAXDEPTH"), (2013, "DESCR"), (9, "GET"),
                           (10, "PUT"), (2016, "QUEUE"), (2015, "QMNAME"), (183, "TREELIFE"),
                           (20, "TYPE"), (2002, "TARGET")]:
        assert A.attribute_for_selector(selector) == name
    assert A.attribute_for_selector(99999) is None


def test_selectors_unique_per_type() -> None:
    for objtype in A.OBJECT_TYPES:
        sels = [a.selector for a in A.attributes(objtype) if a.selector is not None]
        assert len(sels) == len(set(sels)), objtype


def test_mq_integer_values() -> None:
    assert A.to_mq("QLOCAL", "PUT", "DISABLED") == 1  # MQQA_PUT_INHIBITED
    assert A.to_mq("QLOCAL", "DEFSOPT", "EXCL") == 4  # MQOO_INPUT_EXCLUSIVE
    assert A.to_mq("QLOCAL", "SHARE", True) == 1
    assert A.to_mq("QLOCAL", "MAXDEPTH", 10) == 10
    assert A.to_mq("QMGR", "MAXPROPL", "NOLIMIT") == -1
    assert A.from_mq("QLOCAL", "PUT", 1) == "DISABLED"
    assert A.from_mq("QLOCAL", "TRIGGER", 1) is True
    assert A.from_mq("TOPIC", "DEFPRTY", -2) == "ASPARENT"
    assert A.from_mq("TOPIC", "DEFPRTY", 4) == 4
    with pytest.raises(MQError):
        A.from_mq("QLOCAL", "PUT", 7)
    with pytest.raises(MQError):
        A.to_mq("QLOCAL", "NOSUCH", 1)


def test_every_default_validates() -> None:
    for objtype in A.OBJECT_TYPES:
        d = A.defaults(objtype)
        assert A.validate(objtype, d, allow_readonly=True) == d


def test_spec_and_name_key() -> None:
    share = A.spec("QLOCAL", "noshare")
    assert share is not None and share.keyword(False) == "NOSHARE" and share.keyword(True) == "SHARE"
    assert A.name_key("QLOCAL") == "QUEUE" and A.name_key("QMGR") == "QMNAME"
    assert A.name_key("TOPIC") == "TOPIC"
    assert A.spec("QUEUE", "RNAME") is not None  # union for DISPLAY QUEUE
    with pytest.raises(MQError):
        A.defaults("NOSUCHTYPE")


def test_check_name_and_generic_match() -> None:
    assert A.check_name("QLOCAL", "APP.IN_1/%") == "APP.IN_1/%"
    assert A.check_name("TOPIC", "St. Helens") == "St. Helens"  # TV-MC-04
    for bad in ("", "x" * 49, "has space", " lead"):
        with pytest.raises(MQError):
            A.check_name("QLOCAL", bad)
    assert A.generic_match("*", "ANY") and A.generic_match("APP*", "APP.IN")
    assert not A.generic_match("APP*", "XAPP") and A.generic_match("Q1", "Q1")
