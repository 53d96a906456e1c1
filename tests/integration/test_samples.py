"""IBM's sample programs (amqsput, amqsget, amqsbcg, amqspub, amqssub and their client variants) as
console scripts against a real queue manager: their output line for line, their return codes.

No clock: amqsget and amqssub wait ``MQLITE_SAMPLE_WAIT`` seconds for a message, 0 here where a
test wants them to end (everything was put before they start); a subscriber that must wait is
read until it reports it is waiting, and ended by the test when it has what it needs."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import mqlite.client as mqlite
from helpers.credentials import APP
from helpers.mqsc import RunCli
from helpers.qmgrs import MQLITE, QMgr

BIN = MQLITE.parent
NOW = {"MQLITE_SAMPLE_WAIT": "0"}


def sample(home: Path, name: str, *args: str, input: str = "", env: dict[str, str] | None = None,
           ) -> subprocess.CompletedProcess[str]:
    full = {k: v for k, v in os.environ.items() if k not in ("MQSERVER", "MQSAMP_USER_ID", "MQLITE_PASSWORD")}
    full.update({"MQLITE_HOME": str(home), **(env or {})})
    # a session of its own: no terminal to prompt on for a password, wherever the tests run
    return subprocess.run([str(BIN / name), *args], input=input, capture_output=True, text=True, timeout=60,
                          env=full, check=False, start_new_session=True)


def client_env(qmgr: QMgr, user: bool = True) -> dict[str, str]:
    env = {"MQSERVER": f"DEV.APP.SVRCONN/TCP/127.0.0.1({qmgr.port})", **NOW}
    if user:
        env.update(MQSAMP_USER_ID=APP.user, MQLITE_PASSWORD=APP.password)
    return env


def test_put_then_get(qmgr: QMgr) -> None:
    put = sample(qmgr.home, "amqsput", "SYSTEM.DEFAULT.LOCAL.QUEUE", "QM1", input="hello\nworld\n\nnot put\n")
    assert put.returncode == 0
    assert put.stdout == ("Sample AMQSPUT0 start\ntarget queue is SYSTEM.DEFAULT.LOCAL.QUEUE\n"
                          "Sample AMQSPUT0 end\n")
    got = sample(qmgr.home, "amqsget", "SYSTEM.DEFAULT.LOCAL.QUEUE", "QM1", env=NOW)
    assert got.returncode == 0
    assert got.stdout == ("Sample AMQSGET0 start\nmessage <hello>\nmessage <world>\nno more messages\n"
                          "Sample AMQSGET0 end\n")


def test_the_default_queue_manager_and_the_mqlite_subcommand(run_cli: RunCli) -> None:
    created = run_cli("crtmqm", "-q", "QMD")
    assert created.returncode == 0, created.stderr
    assert run_cli("strmqm", "QMD").returncode == 0
    put = run_cli("amqsput", "SYSTEM.DEFAULT.LOCAL.QUEUE", input="one\n")  # no QM: the default one
    assert put.returncode == 0 and put.stdout.startswith("Sample AMQSPUT0 start\n"), put.stdout
    got = run_cli("amqsget", "SYSTEM.DEFAULT.LOCAL.QUEUE", env=NOW)
    assert "message <one>\nno more messages\n" in got.stdout


def test_failures_as_ibm_prints_them(qmgr: QMgr) -> None:
    missing = sample(qmgr.home, "amqsput")
    assert missing.returncode == 99
    assert missing.stdout == "Sample AMQSPUT0 start\nRequired parameter missing - queue name\n"
    unknown = sample(qmgr.home, "amqsput", "NO.SUCH.QUEUE", "QM1", input="x\n")
    assert unknown.returncode == 0  # IBM's amqsput ends normally after a failed MQOPEN
    assert unknown.stdout == ("Sample AMQSPUT0 start\ntarget queue is NO.SUCH.QUEUE\n"
                              "MQOPEN ended with reason code 2085\nunable to open queue for output\n"
                              "Sample AMQSPUT0 end\n")
    gone = sample(qmgr.home, "amqsget", "NO.SUCH.QUEUE", "QM1", env=NOW)
    assert "MQOPEN ended with reason code 2085\nunable to open queue for input\n" in gone.stdout
    no_qmgr = sample(qmgr.home, "amqsget", "Q", "NOSUCH")
    assert no_qmgr.stdout == "Sample AMQSGET0 start\nMQCONNX ended with reason code 2058\n"
    assert no_qmgr.returncode == 2058 % 256  # exit(reason), as the C sample: the low byte
    browse = sample(qmgr.home, "amqsbcg", "NO.SUCH.QUEUE", "QM1")
    assert browse.returncode == 2
    assert browse.stdout.endswith(" MQOPEN - 'NO.SUCH.QUEUE'\n MQOPEN failed with CompCode:2, Reason:2085\n MQDISC\n")


def test_browse_shows_the_descriptor_and_a_hex_dump(qmgr: QMgr) -> None:
    body = "hello, world: 20 b!"  # 19 bytes: two dump lines
    assert sample(qmgr.home, "amqsput", "SYSTEM.DEFAULT.LOCAL.QUEUE", "QM1", input=body + "\n").returncode == 0
    with mqlite.connect("QM1") as conn:
        mqlite.Queue(conn, "SYSTEM.DEFAULT.LOCAL.QUEUE").put(b"hi", properties={"colour": "red", "size": 3})
    browse = sample(qmgr.home, "amqsbcg", "SYSTEM.DEFAULT.LOCAL.QUEUE", "QM1")
    assert browse.returncode == 0, browse.stdout
    lines = browse.stdout.split("\n")
    assert lines[:5] == ["", "AMQSBCG0 - starts here", "**********************", " ",
                         " MQOPEN - 'SYSTEM.DEFAULT.LOCAL.QUEUE'"]
    for expected in (" MQGET of message number 1, CompCode:0 Reason:0", "****Message descriptor****",
                     "  StrucId  : 'MD  '  Version : 2", "  Report   : 0  MsgType : 8",
                     "  Expiry   : -1  Feedback : 0", "  Format : 'MQSTR   '", "  ** Identity Context",
                     "  PutApplName    : 'amqsput                     '", "****   Message      ****",
                     " length - 19 of 19 bytes",
                     "00000000:  6865 6C6C 6F2C 2077 6F72 6C64 3A20 3230       'hello, world: 20'",
                     "00000010:  2062 21                                       ' b!             '",
                     " MQGET of message number 2, CompCode:0 Reason:0", " length - 2 of 2 bytes",
                     " No more messages ", "****   Summary      ****", " 2 messages browsed.",
                     " Smallest message 2 bytes.", " Largest message 19 bytes.", " Average message 10 bytes.",
                     " MQCLOSE", " MQDISC"):
        assert expected in lines, expected
    assert any(line.startswith("  MsgId : X'414D5120514D3120") and len(line) == 61 for line in lines)
    with_properties = sample(qmgr.home, "amqsbcg", "SYSTEM.DEFAULT.LOCAL.QUEUE", "QM1", "1").stdout.split("\n")
    assert " MQCRTMH" in with_properties and "****Message properties****" in with_properties
    assert "  colour : 'red'" in with_properties and "  size : 3" in with_properties
    assert "  None" in with_properties  # the first message has none
    # a browse leaves the messages where they were
    got = sample(qmgr.home, "amqsget", "SYSTEM.DEFAULT.LOCAL.QUEUE", "QM1", env=NOW)
    assert f"message <{body}>\nmessage <hi>\nno more messages\n" in got.stdout


def test_a_message_longer_than_the_samples_buffer(qmgr: QMgr) -> None:
    with mqlite.connect("QM1") as conn:
        mqlite.Queue(conn, "SYSTEM.DEFAULT.LOCAL.QUEUE").put(b"z" * 70000)
    browse = sample(qmgr.home, "amqsbcg", "SYSTEM.DEFAULT.LOCAL.QUEUE", "QM1").stdout.split("\n")
    assert " MQGET of message number 1, CompCode:1 Reason:2079" in browse  # truncated, accepted
    assert " length - 65536 of 70000 bytes" in browse
    got = sample(qmgr.home, "amqsget", "SYSTEM.DEFAULT.LOCAL.QUEUE", "QM1", env=NOW)
    assert got.stdout == "Sample AMQSGET0 start\nMQGET ended with reason code 2080\nSample AMQSGET0 end\n"
    with mqlite.connect("QM1") as conn:  # amqsget left it where it was
        assert len(mqlite.Queue(conn, "SYSTEM.DEFAULT.LOCAL.QUEUE").get()) == 70000


def test_publish_to_a_subscriber(qmgr: QMgr) -> None:
    env = {k: v for k, v in os.environ.items() if k != "MQSERVER"}
    env.update(MQLITE_HOME=str(qmgr.home), MQLITE_SAMPLE_WAIT="120")
    with subprocess.Popen([str(BIN / "amqssub"), "price/fruit/+", "QM1"], stdout=subprocess.PIPE,
                          text=True, env=env) as subscriber:
        assert subscriber.stdout is not None
        try:
            assert subscriber.stdout.readline() == "Sample AMQSSUB0 start\n"
            assert subscriber.stdout.readline() == "Calling MQGET : 120 seconds wait time\n"  # subscribed
            published = sample(qmgr.home, "amqspub", "price/fruit/apples", "QM1", input="1.20\n0.95\n")
            assert published.returncode == 0
            assert published.stdout == ("Sample AMQSPUB0 start\ntarget topic is price/fruit/apples\n"
                                        "Sample AMQSPUB0 end\n")
            assert [subscriber.stdout.readline() for _ in range(3)] == [
                "message <1.20>\n", "Calling MQGET : 120 seconds wait time\n", "message <0.95>\n"]
        finally:
            subscriber.terminate()  # it would wait two minutes for a third publication
    quiet = sample(qmgr.home, "amqssub", "price/#", "QM1", env=NOW)
    assert quiet.returncode == 0
    assert quiet.stdout == ("Sample AMQSSUB0 start\nCalling MQGET : 0 seconds wait time\nno more messages\n"
                            "Sample AMQSSUB0 end\n")


def test_client_samples_through_mqserver(qmgr: QMgr) -> None:
    put = sample(qmgr.home, "amqsputc", "SYSTEM.DEFAULT.LOCAL.QUEUE", "QM1", input="from afar\n",
                 env=client_env(qmgr))
    assert put.returncode == 0 and "target queue is SYSTEM.DEFAULT.LOCAL.QUEUE\n" in put.stdout, put.stdout
    browse = sample(qmgr.home, "amqsbcgc", "SYSTEM.DEFAULT.LOCAL.QUEUE", "QM1", env=client_env(qmgr))
    assert "  UserIdentifier : 'app         '" in browse.stdout.split("\n")
    got = sample(qmgr.home, "amqsgetc", "SYSTEM.DEFAULT.LOCAL.QUEUE", "QM1", env=client_env(qmgr))
    assert got.stdout == ("Sample AMQSGET0 start\nmessage <from afar>\nno more messages\n"
                          "Sample AMQSGET0 end\n")
    pub = sample(qmgr.home, "amqspubc", "news", "QM1", input="x\n", env=client_env(qmgr))
    assert pub.returncode == 0 and "MQ" not in pub.stdout.replace("AMQSPUB0", ""), pub.stdout
    sub = sample(qmgr.home, "amqssubc", "news", "QM1", env=client_env(qmgr))
    assert sub.returncode == 0 and "no more messages\n" in sub.stdout
    # without MQSAMP_USER_ID there is no password, and the queue manager wants one (CHCKCLNT(REQUIRED))
    anonymous = sample(qmgr.home, "amqsputc", "SYSTEM.DEFAULT.LOCAL.QUEUE", "QM1", input="x\n",
                       env=client_env(qmgr, user=False))
    assert anonymous.stdout == "Sample AMQSPUT0 start\nMQCONNX ended with reason code 2035\n"
    assert anonymous.returncode == 2035 % 256
    no_password = client_env(qmgr)
    del no_password["MQLITE_PASSWORD"]  # and no terminal: the message line is not taken for one
    unasked = sample(qmgr.home, "amqsputc", "SYSTEM.DEFAULT.LOCAL.QUEUE", "QM1", input="secret?\n", env=no_password)
    assert unasked.stdout == "Sample AMQSPUT0 start\nMQCONNX ended with reason code 2035\n"
    assert "set MQLITE_PASSWORD" in unasked.stderr
    no_server = sample(qmgr.home, "amqsgetc", "SYSTEM.DEFAULT.LOCAL.QUEUE", "QM1", env=NOW)
    assert no_server.stdout == "Sample AMQSGET0 start\nMQCONNX ended with reason code 2058\n"
