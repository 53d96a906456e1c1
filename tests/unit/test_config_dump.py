"""dmpmqcfg's sans-IO part: DISPLAY output read into records, records turned into MQSC."""

from __future__ import annotations

from mqlite.cli import config_dump
from mqlite.cli.config_dump import Dump, Flag, quote, records, render
from mqlite.core import attributes
from mqlite.core.attribute_spec import Role

DISPLAY = """\
     1 : DISPLAY QUEUE(*) ALL
AMQ8409I: Display Queue details.
   QUEUE(SYSTEM.DEFAULT.LOCAL.QUEUE)       TYPE(QLOCAL)
   CURDEPTH(0)                             DESCR( )
   MAXDEPTH(5000)                          SHARE
   NOTRIGGER                               DEFPSIST(NO)
AMQ8409I: Display Queue details.
   QUEUE(APP.IN)                           TYPE(QLOCAL)
   CURDEPTH(3)                             DESCR(it's (really) in)
   MAXDEPTH(5000)                          NOSHARE
   NOTRIGGER                               DEFPSIST(YES)
   CRDATE(2026-12-01)                      DEFTYPE(PREDEFINED)
AMQ8409I: Display Queue details.
   QUEUE(SYSTEM.MANAGED.DURABLE.1)         TYPE(QLOCAL)
   DEFTYPE(PERMDYN)
     2 : DISPLAY NAMELIST(*)
AMQ8550I: Display namelist details.
   NAMELIST(CLUSTERS)                      NAMCOUNT(2)
   NAMES(DEMO
        ,OTHER)
   DESCR(two)
AMQ8147E: WebSphere MQ object X not found.
3 MQSC commands read.
"""


def test_records_read_values_flags_and_multi_line_names() -> None:
    found = records(DISPLAY.splitlines())
    assert [r.get("QUEUE", r.get("NAMELIST")) for r in found] == [
        "SYSTEM.DEFAULT.LOCAL.QUEUE", "APP.IN", "SYSTEM.MANAGED.DURABLE.1", "CLUSTERS"]
    app = found[1]
    assert app["DESCR"] == "it's (really) in"
    assert app["SHARE"] == Flag("NOSHARE") and app["TRIGGER"] == Flag("NOTRIGGER")
    assert found[0]["DESCR"] == "" and found[3]["NAMES"] == "DEMO,OTHER"


def test_quote() -> None:
    assert [quote(v) for v in ("YES", "5000", "-1", "APP.IN", "it's", "", "price/#")] == [
        "YES", "5000", "-1", "'APP.IN'", "'it''s'", "' '", "'price/#'"]


def test_queues_against_their_default_object() -> None:
    dump = Dump("QM1")
    dump.add_queues(records(DISPLAY.splitlines()))
    lines = list(render(dump.commands))
    # the default object first and whole (SYSTEM.*), the managed queue left out, APP.IN as it differs
    assert lines[0] == "DEFINE QLOCAL('SYSTEM.DEFAULT.LOCAL.QUEUE') +"
    assert "   MAXDEPTH(5000) +" in lines[:8]
    app = lines[lines.index("DEFINE QLOCAL('APP.IN') +"):]
    assert app == ["DEFINE QLOCAL('APP.IN') +", "   DEFPSIST(YES) +", "   DESCR('it''s (really) in') +",
                   "   NOSHARE +", "   REPLACE"]
    assert not any("MANAGED" in line for line in lines)
    every = Dump("QM1", all_attributes=True)
    every.add_queues(records(DISPLAY.splitlines()))
    one = list(render(every.commands, one_line=True))
    assert one[1] == ("DEFINE QLOCAL('APP.IN') DEFPSIST(YES) DESCR('it''s (really) in') MAXDEPTH(5000) NOSHARE "
                      "NOTRIGGER REPLACE")


def test_namelists_routes_qmgr_subs_and_security() -> None:
    dump = Dump("QM1")
    dump.add_objects("NAMELIST", records(DISPLAY.splitlines())[3:])
    dump.add_objects("ROUTE", [{"ROUTE": "WEST", "OUTGOING": "orders selector=\"a = 'b,c'\",other", "DESCR": ""}])
    dump.add_qmgr({"QMNAME": "QM1", "CERTLABL": "ibmwebspheremqqm1", "CMDLEVEL": "700", "DEADQ": "DLQ",
                   "SYNCPT": Flag("SYNCPT"), "ALTDATE": "2026-12-01"})
    dump.add_subs([{"SUB": "S1", "SUBID": "414D", "DESTCORL": "414D", "DESTQMGR": "QM1", "DEST": "SYSTEM.MANAGED.X",
                    "DESTCLAS": "MANAGED", "TOPICSTR": "a/b", "SUBTYPE": "ADMIN", "PUBACCT": "0" * 64},
                   {"SUB": "API", "SUBTYPE": "API"}])
    dump.add_chlauth([{"CHLAUTH": "APP.*", "TYPE": "BLOCKUSER", "USERLIST": "a,b", "CUSTOM": "", "DESCR": ""}])
    dump.add_authrecs([{"PROFILE": "QM1", "ENTITY": "app", "ENTTYPE": "PRINCIPAL", "OBJTYPE": "QMGR",
                        "AUTHLIST": "INQ,CONNECT"},
                       {"PROFILE": "X", "ENTITY": "g", "ENTTYPE": "GROUP", "OBJTYPE": "QUEUE", "AUTHLIST": "NONE"}])
    assert list(render(dump.commands, one_line=True)) == [
        "DEFINE NAMELIST('CLUSTERS') DESCR('two') NAMES(DEMO,OTHER) REPLACE",
        "DEFINE ROUTE('WEST') OUTGOING('orders selector=\"a = ''b,c''\"','other') REPLACE",
        "ALTER QMGR DEADQ(DLQ) FORCE",
        "DEFINE SUB('S1') DESTCLAS(MANAGED) TOPICSTR('a/b') REPLACE",
        "SET CHLAUTH('APP.*') TYPE(BLOCKUSER) USERLIST('a','b') ACTION(REPLACE)",
        "SET AUTHREC OBJTYPE(QMGR) PRINCIPAL('app') AUTHADD(CONNECT,INQ)",
    ]


def test_every_attribute_no_command_sets_is_left_out() -> None:
    """The catalogue's status and read-only attributes of each type are in the skip lists (a new
    one added to the catalogue must be added there, or the dump would not replay)."""
    families = {"QLOCAL": "QUEUE", "QMODEL": "QUEUE", "QALIAS": "QUEUE", "QREMOTE": "QUEUE"}
    for objtype in attributes.OBJECT_TYPES:
        skipped = config_dump._SKIP[families.get(objtype, objtype)]
        for attr in attributes.attributes(objtype):
            if attr.role is not Role.CONFIG or attr.readonly:
                assert attr.name in skipped or (objtype, attr.name) == ("QLOCAL", "DEFTYPE"), (objtype, attr.name)


def test_the_fixed_defaults_are_the_catalogues() -> None:
    """The defaults a DEFINE of a channel, topic, listener, subscription or route starts from, as
    DISPLAY shows them: what dmpmqcfg leaves out without -a."""
    from mqlite.core.channel_attributes import TYPE_DEFAULTS
    from mqlite.mqsc.display import format_value

    for objtype, fixed in config_dump._FIXED_DEFAULTS.items():
        shown = {k: format_value(v).strip() for k, v in attributes.defaults(objtype).items()
                 if k not in ("CHLTYPE", "DURABLE", "SUBTYPE")}
        assert dict(fixed) == shown, objtype
    assert {t for t, d in TYPE_DEFAULTS.items() if d.get("SSLCAUTH") == "REQUIRED"} == config_dump._SSLCAUTH_REQUIRED
    assert all(set(d) <= {"SSLCAUTH"} for d in TYPE_DEFAULTS.values())


def test_channels_and_topics_against_the_fixed_defaults() -> None:
    dump = Dump("QM1")
    dump.add_channels([{"CHANNEL": "TO.QM2", "CHLTYPE": "SDR", "CONNAME": "host(1414)", "XMITQ": "QM2",
                        "BATCHSZ": "50", "SSLCAUTH": "NEVER", "DESCR": ""},
                       {"CHANNEL": "IN", "CHLTYPE": "RCVR", "SSLCAUTH": "REQUIRED", "PUTAUT": "CTX"}])
    dump.add_objects("TOPIC", [{"TOPIC": "T", "TYPE": "LOCAL", "TOPICSTR": "a/b", "DURSUB": "ASPARENT",
                                "WILDCARD": "BLOCK"}])
    assert list(render(dump.commands, one_line=True)) == [
        "DEFINE CHANNEL('IN') CHLTYPE(RCVR) PUTAUT(CTX) REPLACE",
        "DEFINE CHANNEL('TO.QM2') CHLTYPE(SDR) CONNAME('host(1414)') XMITQ(QM2) REPLACE",
        "DEFINE TOPIC('T') TOPICSTR('a/b') WILDCARD(BLOCK) REPLACE",
    ]


def test_values_read_back_as_display_printed_them() -> None:
    """Whatever DISPLAY prints, unquoted, is read back: parentheses that do not balance, quotes,
    values long enough to stand alone on a line, ones that look like the next item."""
    from mqlite.mqsc.display import record

    values = ["a (b", "x) y(", "it's", "(", ")", "Default rule to allow MQ Explorer access", "A" * 39 + " B(",
              "ends with MAXDEPTH(5)", "two  spaces", "x" * 64]
    for value in values:
        row = {"QUEUE": "Q", "TYPE": "QLOCAL", "DESCR": value, "MAXDEPTH": 7, "SHARE": False, "BOQNAME": ""}
        lines = record("QLOCAL", row, ("QUEUE", "TYPE"), ("DESCR", "MAXDEPTH", "SHARE", "BOQNAME"))
        (found,) = records(lines)
        assert found["DESCR"] == value, (value, lines)
        assert found["MAXDEPTH"] == "7" and found["SHARE"] == Flag("NOSHARE") and found["BOQNAME"] == ""
