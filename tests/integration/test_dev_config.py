"""``crtmqm --dev``: IBM's developer configuration, and pymqi programs written for IBM's developer
container running against it unchanged (``python -m mqlite.pymqi_run``).

Two queue managers for the module: QMDEV with both of IBM's password variables set
(MQ_ADMIN_PASSWORD, MQ_APP_PASSWORD), QMOPEN with neither (no admin user, and DEV.APP.SVRCONN
asks ``app`` for no password, as IBM's image does until MQ_APP_PASSWORD is set). Each test
connects as a TCP client through the developer channels, as the programs do; refusals are IBM's
MQRC_NOT_AUTHORIZED (2035) with the AMQ message of who refused in the error log.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import mqlite
from helpers import ibm_programs
from helpers.module_qmgrs import started
from helpers.qmgrs import QMgr, run_mqlite
from helpers.waiting import wait_until
from mqlite.cli.control import QM_INI
from mqlite.server import qm_ini

ADMIN_PASSWORD = "admin-passw0rd"
APP_PASSWORD = "app-passw0rd"
PASSWORDS = {"MQ_ADMIN_PASSWORD": ADMIN_PASSWORD, "MQ_APP_PASSWORD": APP_PASSWORD}
NO_PASSWORDS = {"MQ_ADMIN_PASSWORD": "", "MQ_APP_PASSWORD": ""}  # set but empty: as if not set


def _crtmqm_dev(home: Path, name: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    home.mkdir(parents=True, exist_ok=True)
    return run_mqlite(("crtmqm", "--dev", "-p", "0", name), home, env=env)


@pytest.fixture(scope="module")
def dev(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[QMgr, QMgr, str]]:
    """QMDEV (passwords set) and QMOPEN (none), created with crtmqm --dev and started; and what
    crtmqm printed for QMDEV."""
    home = tmp_path_factory.mktemp("dev") / "mqhome"
    created = _crtmqm_dev(home, "QMDEV", PASSWORDS)
    assert created.returncode == 0, created.stdout + created.stderr
    opened = _crtmqm_dev(home, "QMOPEN", NO_PASSWORDS)
    assert opened.returncode == 0, opened.stdout + opened.stderr
    with started(home, []) as (_, run_cli):
        for name in ("QMDEV", "QMOPEN"):
            result = run_cli("strmqm", name)
            assert result.returncode == 0, result.stdout + result.stderr
        yield QMgr("QMDEV", home), QMgr("QMOPEN", home), created.stdout + opened.stdout


def _mqsc(qmgr: QMgr, script: str) -> str:
    result = run_mqlite(("runmqsc", qmgr.name), qmgr.home, input=script)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def _refused(connect: object, *args: object, **kwargs: object) -> int:
    """The reason an MQI call fails with (the test fails if it succeeds)."""
    assert callable(connect)
    with pytest.raises(mqlite.MQMIError) as refused:
        connect(*args, **kwargs)
    assert refused.value.comp == mqlite.CMQC.MQCC_FAILED
    return int(refused.value.reason)


def _conn_info(qmgr: QMgr) -> str:
    return f"127.0.0.1({qmgr.port})"


def _run_program(tmp_path: Path, text: str, qmgr: QMgr, **env: str) -> subprocess.CompletedProcess[str]:
    """Write ``text`` to a file and run it as ``python -m mqlite.pymqi_run FILE`` with the
    environment IBM's samples read their settings from."""
    program = tmp_path / "program.py"
    program.write_text(text)
    full_env = {**os.environ, "QMGR": qmgr.name, "HOST": "127.0.0.1", "PORT": str(qmgr.port), **env}
    return subprocess.run([sys.executable, "-m", "mqlite.pymqi_run", str(program)], env=full_env,
                          capture_output=True, text=True, timeout=120, check=False)


# -- what crtmqm --dev made ----------------------------------------------------------------------
def test_dev_config_has_ibms_objects(dev: tuple[QMgr, QMgr, str]) -> None:
    qmgr, _, printed = dev
    assert "User admin (group mqm) set from MQ_ADMIN_PASSWORD" in printed
    assert "MQ_APP_PASSWORD is not set: DEV.APP.SVRCONN lets clients in without a password" in printed
    assert "MQ_ADMIN_PASSWORD is not set: no user admin was created" in printed
    out = _mqsc(qmgr, "DISPLAY QLOCAL('DEV.*')\nDISPLAY QMODEL(DEV.APP.MODEL.QUEUE)\n"
                      "DISPLAY QMGR DEADQ CONNAUTH\nDISPLAY TOPIC(DEV.BASE.TOPIC) TOPICSTR\n"
                      "DISPLAY AUTHINFO(DEV.AUTHINFO) CHCKCLNT CHCKLOCL ADOPTCTX\n"
                      "DISPLAY CHANNEL('DEV.*') CHLTYPE\nDISPLAY CHLAUTH('*') ALL\n"
                      "DISPLAY AUTHREC GROUP('mqclient')\n")
    for expected in ("QUEUE(DEV.QUEUE.1)", "QUEUE(DEV.QUEUE.2)", "QUEUE(DEV.QUEUE.3)",
                     "QUEUE(DEV.DEAD.LETTER.QUEUE)", "QUEUE(DEV.APP.MODEL.QUEUE)",
                     "DEADQ(DEV.DEAD.LETTER.QUEUE)", "CONNAUTH(DEV.AUTHINFO)", "TOPICSTR(dev/)",
                     "CHCKCLNT(REQDADM)", "CHCKLOCL(OPTIONAL)", "ADOPTCTX(YES)",
                     "CHANNEL(DEV.APP.SVRCONN)", "CHANNEL(DEV.ADMIN.SVRCONN)",
                     "Back-stop rule - Blocks everyone", "Allows connection via APP channel",
                     "Allows admins on ADMIN channel", "CLNTUSER(admin)", "USERLIST(*MQADMIN)",
                     "AUTHLIST(INQ,CONNECT)", "AUTHLIST(PUB,SUB)", "AUTHLIST(GET,BROWSE,PUT,INQ)"):
        assert expected in out, expected
    users = run_mqlite(("passwd", "-m", qmgr.name, "-l"), qmgr.home).stdout
    assert "USER(admin)  GROUPS(mqm)" in users and "USER(app)  GROUPS(mqclient)" in users
    # MQ_APP_PASSWORD set: the application channel's rule requires a password.
    assert "CHCKCLNT(REQUIRED)" in _mqsc(qmgr, "DISPLAY CHLAUTH(DEV.APP.SVRCONN) ALL\n")
    assert "MCAUSER( )" in _mqsc(qmgr, "DISPLAY CHANNEL(DEV.APP.SVRCONN) MCAUSER\n")
    assert "MCAUSER(app)" in _mqsc(dev[1], "DISPLAY CHANNEL(DEV.APP.SVRCONN) MCAUSER\n")


def test_qm_ini_is_written_with_examples_the_server_reads(dev: tuple[QMgr, QMgr, str]) -> None:
    qmgr, _, _ = dev
    text = (qmgr.home / "qmgrs" / qmgr.name / "qm.ini").read_text()
    assert text == QM_INI.format(qmgr=qmgr.name)
    assert qm_ini.parse(text) == {}  # every example is a comment
    # Each example, its '#' removed, is a stanza the server acts on.
    example = re.compile(r"#(\w+:|\s+\w+=.*)$")  # a stanza's line, or one of its keys
    uncommented = qm_ini.parse("\n".join(line[1:] if example.match(line) else line for line in text.splitlines()))
    assert uncommented["Mqlite"] == {"DuplicateWindow": "600"}
    assert uncommented["CHANNELS"] == {"PipeLineLength": "2"}
    assert set(uncommented["PublishSubscribe"]) == {"PublishExitPath", "PublishExitFunction", "PublishExitData"}
    # The queue manager started with it and said nothing of it.
    assert "qm.ini" not in qmgr.error_log()


def test_short_password_creates_nothing(tmp_path: Path) -> None:
    home = tmp_path / "mqhome"
    result = _crtmqm_dev(home, "QMSHORT", {"MQ_ADMIN_PASSWORD": "short", "MQ_APP_PASSWORD": APP_PASSWORD})
    assert result.returncode != 0
    assert "MQ_ADMIN_PASSWORD must be at least 8 characters" in result.stderr
    assert not (home / "qmgrs" / "QMSHORT").exists()


# -- programs written for IBM's developer container ------------------------------------------------
def test_tutorial_put_get_program_runs_unchanged(dev: tuple[QMgr, QMgr, str], tmp_path: Path) -> None:
    qmgr, _, _ = dev
    result = _run_program(tmp_path, ibm_programs.PUT_GET, qmgr, APP_PASSWORD=APP_PASSWORD)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.splitlines() == ["Put: Hello from Python!", "Got: Hello from Python!"]


def test_dev_patterns_program_runs_unchanged(dev: tuple[QMgr, QMgr, str], tmp_path: Path) -> None:
    """MQCONNX with an MQCD, SCO and MQCSP; a queue, and a durable subscription on ``dev/``: the
    grant on DEV.BASE.TOPIC covers its topic string (C:R-SEC-4 by group, C:R-SEC-8, C:R-SEC-19)."""
    qmgr, _, _ = dev
    result = _run_program(tmp_path, ibm_programs.DEV_PATTERNS, qmgr, APP_PASSWORD=APP_PASSWORD)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.splitlines() == ['Got from queue: [{"Greeting": "Hello from Python!"}]',
                                          'Got publication: {"Price": 42}']


def test_ibmmq_program_runs_unchanged(dev: tuple[QMgr, QMgr, str], tmp_path: Path) -> None:
    qmgr, _, _ = dev
    result = _run_program(tmp_path, ibm_programs.IBMMQ_PUT1, qmgr, APP_PASSWORD=APP_PASSWORD)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.splitlines() == ["Hello from Python!", "Done."]


def test_request_reply_program_runs_unchanged(dev: tuple[QMgr, QMgr, str], tmp_path: Path) -> None:
    """A dynamic reply queue from DEV.APP.MODEL.QUEUE: MQOPEN returns its name in the OD."""
    qmgr, _, _ = dev
    result = _run_program(tmp_path, ibm_programs.REQUEST_REPLY, qmgr, APP_PASSWORD=APP_PASSWORD)
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Reply queue: APP.REPLIES.") and lines[1] == 'Reply: {"square": 49}'


def test_program_without_the_password_is_refused(dev: tuple[QMgr, QMgr, str], tmp_path: Path) -> None:
    """The tutorial's own default password is not app's here: the program reports 2035."""
    qmgr, _, _ = dev
    result = _run_program(tmp_path, ibm_programs.PUT_GET, qmgr)
    assert result.returncode == 1
    assert "Reason 2035: FAILED: MQRC_NOT_AUTHORIZED" in result.stdout


# -- who is refused ------------------------------------------------------------------------------
def test_app_is_refused_on_the_admin_channel(dev: tuple[QMgr, QMgr, str]) -> None:
    qmgr, _, _ = dev
    reason = _refused(mqlite.connect, qmgr.name, "DEV.ADMIN.SVRCONN", _conn_info(qmgr), "app", APP_PASSWORD)
    assert reason == mqlite.CMQC.MQRC_NOT_AUTHORIZED
    wait_until(lambda: any("AMQ9777E" in line and "'DEV.ADMIN.SVRCONN'" in line and "CLNTUSER(app)" in line
                           for line in qmgr.error_log().splitlines()), "the back-stop rule's refusal in the error log")


def test_admin_is_refused_on_the_app_channel(dev: tuple[QMgr, QMgr, str]) -> None:
    """IBM's default *MQADMIN BLOCKUSER rule keeps administrators off DEV.APP.SVRCONN."""
    qmgr, _, _ = dev
    reason = _refused(mqlite.connect, qmgr.name, "DEV.APP.SVRCONN", _conn_info(qmgr), "admin", ADMIN_PASSWORD)
    assert reason == mqlite.CMQC.MQRC_NOT_AUTHORIZED
    wait_until(lambda: any("AMQ9776E" in line and "'DEV.APP.SVRCONN'" in line and "MCAUSER(admin)" in line
                           for line in qmgr.error_log().splitlines()), "the blocked user's AMQ9776E in the error log")


def test_no_password_is_refused_once_app_has_one(dev: tuple[QMgr, QMgr, str]) -> None:
    qmgr, _, _ = dev
    # No user and no password; a user with an empty password (pymqi itself refuses None).
    for credentials in ((), ("app", "")):
        reason = _refused(mqlite.connect, qmgr.name, "DEV.APP.SVRCONN", _conn_info(qmgr), *credentials)
        assert reason == mqlite.CMQC.MQRC_NOT_AUTHORIZED
    assert _refused(mqlite.connect, qmgr.name, "DEV.APP.SVRCONN", _conn_info(qmgr), "app",
                    "wrong-password") == mqlite.CMQC.MQRC_NOT_AUTHORIZED


def test_app_reaches_only_dev_objects(dev: tuple[QMgr, QMgr, str]) -> None:
    """Queues outside DEV.** and topics outside DEV.BASE.TOPIC's subtree are refused at MQOPEN
    (C:R-SEC-3: checked at open; C:R-SEC-19: publishing walks the tree to SYSTEM.BASE.TOPIC)."""
    qmgr, _, _ = dev
    with mqlite.connect(qmgr.name, "DEV.APP.SVRCONN", _conn_info(qmgr), "app", APP_PASSWORD) as qm:
        mqlite.Queue(qm, "DEV.QUEUE.3", mqlite.CMQC.MQOO_OUTPUT).close()
        for queue in ("SYSTEM.DEFAULT.LOCAL.QUEUE", "SYSTEM.ADMIN.COMMAND.QUEUE"):
            assert _refused(mqlite.Queue, qm, queue, mqlite.CMQC.MQOO_OUTPUT) == mqlite.CMQC.MQRC_NOT_AUTHORIZED
        topic = mqlite.Topic(qm, topic_string="prices/apples")
        assert _refused(topic.open, open_opts=mqlite.CMQC.MQOO_OUTPUT) == mqlite.CMQC.MQRC_NOT_AUTHORIZED
        mqlite.Topic(qm, topic_name="DEV.BASE.TOPIC").pub(b"allowed")
        # Administration is for administrators: app's MQSC is refused.
        assert _refused(qm.mqsc, "DISPLAY QMGR\n") == mqlite.CMQC.MQRC_NOT_AUTHORIZED


def test_admin_administers_through_the_admin_channel(dev: tuple[QMgr, QMgr, str]) -> None:
    qmgr, _, _ = dev
    for credentials in ((), ("admin", "")):  # a password is required
        assert _refused(mqlite.connect, qmgr.name, "DEV.ADMIN.SVRCONN", _conn_info(qmgr),
                        *credentials) == mqlite.CMQC.MQRC_NOT_AUTHORIZED
    with mqlite.connect(qmgr.name, "DEV.ADMIN.SVRCONN", _conn_info(qmgr), "admin", ADMIN_PASSWORD) as qm:
        code, lines = qm.mqsc("DISPLAY QMGR DEADQ\n")
    assert code == 0 and any("DEADQ(DEV.DEAD.LETTER.QUEUE)" in line for line in lines)


def test_without_passwords_clients_run_as_app_and_there_is_no_admin(dev: tuple[QMgr, QMgr, str]) -> None:
    """IBM's image until MQ_APP_PASSWORD is set: DEV.APP.SVRCONN (MCAUSER('app'), CHCKCLNT ASQMGR,
    DEV.AUTHINFO's REQDADM asking administrators only) lets a client in without a password as
    ``app``; no admin user exists, so DEV.ADMIN.SVRCONN lets nobody in."""
    _, qmgr, _ = dev
    with mqlite.connect(qmgr.name, "DEV.APP.SVRCONN", _conn_info(qmgr)) as qm:
        queue = mqlite.Queue(qm, "DEV.QUEUE.1")
        queue.put(b"no password")
        assert queue.get(wait=5) == b"no password"
        queue.close()
        assert _refused(mqlite.Queue, qm, "SYSTEM.DEFAULT.LOCAL.QUEUE",
                        mqlite.CMQC.MQOO_OUTPUT) == mqlite.CMQC.MQRC_NOT_AUTHORIZED  # it runs as app
    # A password given is checked: app's is one nobody knows.
    assert _refused(mqlite.connect, qmgr.name, "DEV.APP.SVRCONN", _conn_info(qmgr), "app",
                    APP_PASSWORD) == mqlite.CMQC.MQRC_NOT_AUTHORIZED
    # admin is kept off the channel whatever it gives (mqlite's USERMAP rule: AMQ9777E).
    for password in ("", ADMIN_PASSWORD):
        assert _refused(mqlite.connect, qmgr.name, "DEV.APP.SVRCONN", _conn_info(qmgr), "admin",
                        password) == mqlite.CMQC.MQRC_NOT_AUTHORIZED
    wait_until(lambda: "CLNTUSER(admin)" in qmgr.error_log(), "admin's refusal in the error log")
    assert "USER(admin)" not in run_mqlite(("passwd", "-m", qmgr.name, "-l"), qmgr.home).stdout
    assert _refused(mqlite.connect, qmgr.name, "DEV.ADMIN.SVRCONN", _conn_info(qmgr), "admin",
                    ADMIN_PASSWORD) == mqlite.CMQC.MQRC_NOT_AUTHORIZED


# -- python -m mqlite.pymqi_run --------------------------------------------------------------------
def test_pymqi_run_gives_pymqis_names_argv_and_exit_status(tmp_path: Path) -> None:
    program = tmp_path / "names.py"
    program.write_text("import sys\nimport pymqi\nimport pymqi.CMQC\nfrom pymqi import CMQC, CMQXC, CMQCFC\n"
                       "assert pymqi.CMQC.MQRC_NOT_AUTHORIZED == CMQC.MQRC_NOT_AUTHORIZED == 2035\n"
                       "assert CMQXC.MQCHT_CLNTCONN == 6 and pymqi.QueueManager and pymqi.MQMIError\n"
                       f"print(__name__, sys.argv[1:], sys.path[0] == {str(tmp_path)!r})\nsys.exit(3)\n")
    result = subprocess.run([sys.executable, "-m", "mqlite.pymqi_run", str(program), "a", "b"],
                            capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 3, result.stderr
    assert result.stdout == "__main__ ['a', 'b'] True\n"
    usage = subprocess.run([sys.executable, "-m", "mqlite.pymqi_run"], capture_output=True, text=True,
                           timeout=60, check=False)
    assert usage.returncode == 2 and "usage:" in usage.stderr
