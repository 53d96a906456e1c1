"""dmpmqcfg: a richly configured queue manager dumped, the dump replayed by runmqsc into a fresh
queue manager, and that one dumped: the two dumps are the same (but for the header's name and date
lines), and the new queue manager works as the old one did: it joins the cluster, its authority
records let a user in where they let him in before and keep him out elsewhere."""

from __future__ import annotations

import re
from collections.abc import Callable

from helpers.cluster import receive
from helpers.credentials import ADMIN, Credentials, add_user, client_env
from helpers.mqsc import RunCli, mqsc
from helpers.qmgrs import QMgr
from helpers.waiting import wait_until

CLERK = Credentials("clerk", "clerk-pass-1", "clerks")

RICH = """\
ALTER QMGR REPOS(DEMO) DESCR('Rich (test) queue manager') DEADQ(APP.DLQ) MAXUMSGS(5000)
ALTER QLOCAL(SYSTEM.DEFAULT.LOCAL.QUEUE) MAXDEPTH(9000)
DEFINE QLOCAL(APP.DLQ) MAXDEPTH(5000)
DEFINE QLOCAL(APP.IN) DEFPSIST(YES) DESCR('it''s the input, (really)') NOSHARE TRIGGER TRIGTYPE(EVERY) +
       INITQ(SYSTEM.DEFAULT.INITIATION.QUEUE)
DEFINE QLOCAL(FR) USAGE(XMITQ) DESCR('to FR')
DEFINE QREMOTE(APP.REMOTE) RNAME(APP.IN) RQMNAME(FR) XMITQ(FR)
DEFINE QALIAS(APP.ALIAS) TARGET(APP.IN) DEFPSIST(YES)
DEFINE QMODEL(APP.MODEL) DEFTYPE(PERMDYN) MAXDEPTH(100)
DEFINE QLOCAL(ORDERS) CLUSTER(DEMO) DEFBIND(NOTFIXED)
DEFINE TOPIC(PRICES) TOPICSTR('price/fruit') DURSUB(YES) DESCR('Fruit prices')
DEFINE SUB(APPLES) TOPICSTR('price/fruit/apples') DEST(APP.IN)
DEFINE SUB(PEARS) TOPICSTR('price/fruit/pears') DESTCLAS(MANAGED)
DEFINE NAMELIST(CLUSTERS) NAMES(DEMO,OTHER) DESCR('two clusters')
DEFINE LISTENER(SPARE) TRPTYPE(TCP) PORT(0) CONTROL(MANUAL)
DEFINE CHANNEL(DEMO.QMS) CHLTYPE(CLUSRCVR) CLUSTER(DEMO) CLWLWGHT(80)
DEFINE CHANNEL(DEMO.FR) CHLTYPE(CLUSSDR) CONNAME('127.0.0.1({fr_port})') CLUSTER(DEMO)
DEFINE CHANNEL(QMS.TO.FR) CHLTYPE(SDR) CONNAME('127.0.0.1({fr_port})') XMITQ(FR) BATCHSZ(20)
DEFINE CHANNEL(FR.TO.QMS) CHLTYPE(RCVR) PUTAUT(CTX)
DEFINE CHANNEL(APP.SVRCONN) CHLTYPE(SVRCONN) MCAUSER('app') SHARECNV(1)
DEFINE CHANNEL(QMS.SERVER) CHLTYPE(SVR) XMITQ(FR) DESCR('served, not started')
DEFINE CHANNEL(QMS.ASKS) CHLTYPE(RQSTR) CONNAME('127.0.0.1({fr_port})')
DEFINE CHANNEL(QMS.MQTT) CHLTYPE(MQTT) PORT(0) PROTOCOL(MQTTV311,MQTTV5)
DEFINE AUTHINFO(MY.IDPW) AUTHTYPE(IDPWOS) CHCKCLNT(OPTIONAL) DESCR('unused')
DEFINE ROUTE(WEST) ZONE(REGIONS) OUTGOING('orders selector="region = ''west''"','other')
SET CHLAUTH('DEMO.*') TYPE(QMGRMAP) QMNAME('*') USERSRC(CHANNEL)
SET CHLAUTH('APP.SVRCONN') TYPE(ADDRESSMAP) ADDRESS('127.0.0.1') USERSRC(MAP) MCAUSER('app')
SET CHLAUTH('APP.SVRCONN') TYPE(BLOCKUSER) USERLIST('bad1','bad2')
SET AUTHREC OBJTYPE(QMGR) GROUP('clerks') AUTHADD(CONNECT,INQ)
SET AUTHREC PROFILE('APP.**') OBJTYPE(QUEUE) GROUP('clerks') AUTHADD(PUT,INQ)
SET AUTHREC PROFILE('PRICES') OBJTYPE(TOPIC) PRINCIPAL('clerk') AUTHADD(PUB,SUB)
"""


def _body(dump: str) -> list[str]:
    """A dump without its header (the comment block naming the queue manager and the time)."""
    lines = dump.splitlines()
    assert lines[0] == "*" * 79 and lines[7] == "*" * 79, lines[:8]
    return lines[8:]


def _dump(run_cli: RunCli, qmgr: QMgr, *args: str) -> str:
    result = run_cli("dmpmqcfg", "-m", qmgr.name, *args)
    assert result.returncode == 0, result.stdout + result.stderr
    return str(result.stdout)


def test_a_dump_replayed_makes_the_same_queue_manager(run_cli: RunCli, qmgr_factory: Callable[..., QMgr]) -> None:
    fr = qmgr_factory("FR")
    receive(run_cli, fr, "DEMO", repos=True)
    qms = qmgr_factory("QMS")
    add_user(qms.home, "QMS", CLERK)
    mqsc(run_cli, qms, RICH.replace("{fr_port}", str(fr.port)))
    mqsc(run_cli, fr, f"DEFINE CHANNEL(DEMO.QMS) CHLTYPE(CLUSSDR) CONNAME('127.0.0.1({qms.port})') CLUSTER(DEMO)\n")
    wait_until(lambda: "QMS" in mqsc(run_cli, fr, "DISPLAY QCLUSTER(ORDERS) CLUSQMGR\n", ok=False),
               "FR knows QMS's cluster queue", timeout=60)

    first = _dump(run_cli, qms)
    assert "* Queue manager name: QMS" in first and "* Queue manager command level: (700/700)" in first
    body = "\n".join(_body(first))
    # IBM's shapes: ALTER QMGR ... FORCE, DEFINE ... REPLACE behind '+', one-line SET commands
    assert re.search(r"^ALTER QMGR \+\n(   \S.* \+\n)+   FORCE$", body, re.M)
    assert "DEFINE QLOCAL('APP.IN') +\n" in body and "   DESCR('it''s the input, (really)') +\n" in body
    assert "   NOSHARE +\n" in body and "   TRIGGER +\n" in body and "CURDEPTH" not in body and "CRDATE" not in body
    assert "SET CHLAUTH('APP.SVRCONN') TYPE(BLOCKUSER) USERLIST('bad1','bad2') WARN(NO) ACTION(REPLACE)" in body
    assert "SET AUTHREC OBJTYPE(QMGR) GROUP('clerks') AUTHADD(CONNECT,INQ)" in body
    assert "SET AUTHREC PROFILE('APP.**') OBJTYPE(QUEUE) GROUP('clerks') AUTHADD(INQ,PUT)" in body
    # the altered default object comes first and whole; a queue shows where it differs from it
    assert body.index("DEFINE QLOCAL('SYSTEM.DEFAULT.LOCAL.QUEUE')") < body.index("DEFINE QLOCAL('APP.DLQ')")
    assert "DEFINE QLOCAL('APP.DLQ') +\n   MAXDEPTH(5000) +\n   REPLACE" in body
    # what the queue manager made for itself is not configuration
    assert "SYSTEM.MANAGED" not in body and "QMID" not in body and "DESTQMGR" not in body
    assert "DEFINE CHANNEL('QMS.MQTT') +\n   CHLTYPE(MQTT) +\n   PORT(0) +\n   PROTOCOL(MQTTV311,MQTTV5) +\n" in body
    assert "ibmwebspheremqqms" not in body  # crtmqm's certificate label of QMS: QMT keeps its own

    run_cli("endmqm", "-i", "QMS")  # QMS is gone; QMT takes its place, from the dump
    qmt = qmgr_factory("QMT")
    add_user(qmt.home, "QMT", CLERK)
    replay = run_cli("runmqsc", "QMT", input=first)
    assert replay.returncode == 0, replay.stdout
    assert "All valid MQSC commands were processed." in replay.stdout

    second = _dump(run_cli, qmt)
    assert "* Queue manager name: QMT" in second
    assert _body(second) == _body(first)

    # it works: QMT is a member of DEMO (FR has its membership and its cluster queue) ...
    wait_until(lambda: "QMT" in mqsc(run_cli, fr, "DISPLAY QCLUSTER(ORDERS) CLUSQMGR\n", ok=False),
               "FR knows QMT's instance of ORDERS", timeout=60)
    assert "CLUSQMGR(QMT)" in mqsc(run_cli, fr, "DISPLAY CLUSQMGR(QMT)\n", ok=False)
    # ... and its authority records let the clerk put to APP.* queues, and only there
    allowed = run_cli("put", "-c", qmt.conn, "-u", CLERK.user, "APP.IN", input="hello\n", env=client_env(CLERK))
    assert allowed.returncode == 0, allowed.stderr
    refused = run_cli("put", "-c", qmt.conn, "-u", CLERK.user, "ORDERS", input="hello\n", env=client_env(CLERK))
    assert refused.returncode != 0 and "2035" in refused.stderr


def test_one_line_filters_and_all_attributes(run_cli: RunCli, qmgr: QMgr) -> None:
    mqsc(run_cli, qmgr, "DEFINE QLOCAL(APP.ONE) MAXDEPTH(7) DESCR('one')\n"
                        "SET AUTHREC PROFILE('APP.ONE') OBJTYPE(QUEUE) PRINCIPAL('app') AUTHADD(GET)\n")
    lines = _body(_dump(run_cli, qmgr, "-o", "1line", "-t", "qlocal", "-n", "APP.ONE"))
    assert lines == ["DEFINE QLOCAL('APP.ONE') DESCR('one') MAXDEPTH(7) REPLACE"]
    everything = _body(_dump(run_cli, qmgr, "-a", "-o", "1line", "-t", "qlocal", "-n", "APP.ONE"))
    assert len(everything) == 1 and "MAXMSGL(4194304)" in everything[0] and "BOQNAME(' ')" in everything[0]
    records = _body(_dump(run_cli, qmgr, "-x", "authrec"))
    assert "SET AUTHREC PROFILE('APP.ONE') OBJTYPE(QUEUE) PRINCIPAL('app') AUTHADD(GET)" in records
    assert all(line.startswith("SET AUTHREC") for line in records)
    as_setmqaut = _body(_dump(run_cli, qmgr, "-x", "authrec", "-o", "setmqaut"))
    assert "setmqaut -m QM1 -n 'APP.ONE' -t queue -p app +get" in as_setmqaut
    assert "setmqaut -m QM1 -t qmgr -g mqclient +connect +inq" in as_setmqaut  # the fixture's grant
    objects = "\n".join(_body(_dump(run_cli, qmgr, "-x", "object")))
    assert "ALTER QMGR" in objects and "SET AUTHREC" not in objects and "SET CHLAUTH" not in objects


def test_client_mode_through_the_admin_channel(run_cli: RunCli, qmgr: QMgr) -> None:
    add_user(qmgr.home, qmgr.name, ADMIN)
    remote = run_cli("dmpmqcfg", "-c", qmgr.conn, "-u", ADMIN.user, env=client_env(ADMIN))
    assert remote.returncode == 0, remote.stderr
    assert _body(remote.stdout) == _body(_dump(run_cli, qmgr))
    refused = run_cli("dmpmqcfg", "-c", qmgr.conn, "-u", "app", env=client_env())  # not an administrator
    assert refused.returncode != 0 and "2035" in refused.stderr


def test_no_queue_manager(run_cli: RunCli, mqlite_home: object) -> None:
    result = run_cli("dmpmqcfg", "-m", "NOSUCH")
    assert result.returncode == 20 and "AMQ8118: WebSphere MQ queue manager does not exist." in result.stderr
    assert run_cli("crtmqm", "STOPPED").returncode == 0
    result = run_cli("dmpmqcfg", "-m", "STOPPED")
    assert result.returncode == 20 and "AMQ8146: WebSphere MQ queue manager not available." in result.stderr
