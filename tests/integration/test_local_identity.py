"""Local connections (issue 14 items 1, 4 and 5): a Unix-socket connection runs as its OS user
(SO_PEERCRED); the socket is reachable by every local user while the queue manager's data files
stay private to its owner; CHCKLOCL(REQUIRED) makes local connections give a password too.

The two-user tests create a second OS user (useradd, as root) and run a client as that user in a
forked process (setgid/setuid, so it needs nothing but the already imported client); where the
machine forbids that they are skipped with the reason.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import pwd
import shutil
import stat
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import mqlite.client as mqlite
from helpers.credentials import APP, add_user
from helpers.qmgrs import QMgr, reap, run_mqlite
from mqlite import cmqc as C
from mqlite import paths

OTHER_USER = "mqlitet2"  # the second OS user the tests create


def test_data_files_are_private_and_the_socket_open(qmgr: QMgr) -> None:
    directory = qmgr.home / "qmgrs" / qmgr.name
    assert stat.S_IMODE(directory.stat().st_mode) == 0o711  # others may pass through to the socket
    for name in ("store.sqlite", "qm.json", "users", "AMQERR01.LOG", "qmgr.pid"):
        assert stat.S_IMODE((directory / name).stat().st_mode) == 0o600, name
    assert stat.S_IMODE((directory / "qmgr.sock").stat().st_mode) == 0o666


def test_chcklocl_required_needs_a_password_locally(qmgr: QMgr, run_cli: Callable[..., Any]) -> None:
    done = run_cli("runmqsc", qmgr.name, input="ALTER AUTHINFO(SYSTEM.DEFAULT.AUTHINFO.IDPWOS) AUTHTYPE(IDPWOS) "
                                                "CHCKLOCL(REQUIRED)\nREFRESH SECURITY TYPE(CONNAUTH)\n")
    assert done.returncode == 0, done.stdout
    with pytest.raises(mqlite.MQMIError) as refused:
        mqlite.connect(qmgr.name)
    assert refused.value.reason == C.MQRC_NOT_AUTHORIZED
    with mqlite.connect(qmgr.name, **APP.kwargs) as qm:  # ADOPTCTX(YES): runs as the user it proved
        assert qm.get_handle().user == APP.user
    assert "AMQ5534E" in paths.error_log_path(qmgr.name).read_text()


# -- two OS users ---------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def other_user() -> Iterator[pwd.struct_passwd]:
    """A second OS user, created for these tests and removed after them."""
    if os.geteuid() != 0:
        pytest.skip("creating a second OS user needs root")
    if shutil.which("useradd") is None:
        pytest.skip("this machine has no useradd")
    created = False
    try:
        pwd.getpwnam(OTHER_USER)
    except KeyError:
        made = subprocess.run(["useradd", "--no-create-home", "--shell", "/usr/sbin/nologin", OTHER_USER],
                              capture_output=True, text=True, check=False)
        if made.returncode != 0:
            pytest.skip(f"useradd refused to create a test user: {made.stderr.strip()}")
        created = True
    yield pwd.getpwnam(OTHER_USER)
    if created:
        subprocess.run(["userdel", OTHER_USER], capture_output=True, check=False)


@pytest.fixture
def shared_qmgr(monkeypatch: pytest.MonkeyPatch) -> Iterator[QMgr]:
    """A queue manager under a home the other user can pass through (pytest's temporary
    directories are private to root), created and started by this (root) user."""
    home = Path(tempfile.mkdtemp(prefix="mqlite-users-", dir="/tmp"))
    home.chmod(0o711)
    monkeypatch.setenv("MQLITE_HOME", str(home))
    try:
        for args in (("crtmqm", "QMU"), ("strmqm", "QMU")):
            done = run_mqlite(args, home)
            assert done.returncode == 0, done.stdout + done.stderr
        (home / "qmgrs").chmod(0o711)
        yield QMgr("QMU", home)
    finally:
        reap(home)
        shutil.rmtree(home, ignore_errors=True)


def _as_user(uid: int, gid: int, home: str, results: Any) -> None:
    """In the forked child: become the other user, then try the queue manager and its files."""
    os.setgroups([])
    os.setgid(gid)
    os.setuid(uid)
    os.environ["MQLITE_HOME"] = home
    outcome: dict[str, Any] = {}
    for name in ("store.sqlite", "users", "qm.json", "AMQERR01.LOG"):
        try:
            with open(Path(home) / "qmgrs" / "QMU" / name, "rb"):
                outcome[name] = "read"
        except PermissionError:
            outcome[name] = "denied"
    try:
        with mqlite.connect("QMU") as qm:
            outcome["user"] = qm.get_handle().user
    except mqlite.MQMIError as error:
        outcome["reason"] = error.reason
    except Exception as error:  # (anything else: shown by the test, not lost with the child)
        outcome["error"] = repr(error)
    results.put(outcome)


def run_as(user: pwd.struct_passwd, qmgr: QMgr) -> dict[str, Any]:
    context = multiprocessing.get_context("fork")
    results = context.Queue()
    child = context.Process(target=_as_user, args=(user.pw_uid, user.pw_gid, str(qmgr.home), results))
    child.start()
    try:
        outcome: dict[str, Any] = results.get(timeout=60)
    finally:
        child.join(timeout=30)
        with contextlib.suppress(ProcessLookupError):
            if child.is_alive():
                child.kill()
    return outcome


def test_another_local_user_reaches_the_socket_not_the_files(other_user: pwd.struct_passwd,
                                                             shared_qmgr: QMgr) -> None:
    add_user(shared_qmgr.home, shared_qmgr.name, APP)  # a users file exists: it must stay private
    outcome = run_as(other_user, shared_qmgr)
    assert {outcome[n] for n in ("store.sqlite", "users", "qm.json", "AMQERR01.LOG")} == {"denied"}, outcome
    # It reached the socket and was answered as its own OS user (SO_PEERCRED): not an administrator
    # and granted nothing, so refused (the grant: test_another_local_user_needs_connect_authority).
    assert outcome.get("reason") == C.MQRC_NOT_AUTHORIZED, outcome


# It failed after the grant in 3 of 6 full `make test` runs while xdist's groups were ignored
# (fixed in eaaaa78): this module's two tests then ran on two workers at once, each with the
# module's OS user, and the first to end deleted the user the other was using, so the queue
# manager could no longer name the client's uid and refused it. One worker per module now.
def test_another_local_user_needs_connect_authority(other_user: pwd.struct_passwd, shared_qmgr: QMgr) -> None:
    """Secure by default (spec C A-31): a local user who is not an administrator is refused at
    connect until it is granted connect; then it runs as itself."""
    add_user(shared_qmgr.home, shared_qmgr.name, APP)  # run_as looks at the users file too
    assert run_as(other_user, shared_qmgr).get("reason") == C.MQRC_NOT_AUTHORIZED
    done = run_mqlite(("setmqaut", "-m", shared_qmgr.name, "-t", "qmgr", "-p", OTHER_USER, "+connect"),
                      shared_qmgr.home)
    assert done.returncode == 0, done.stdout + done.stderr
    # The grant holds from setmqaut's return; a loaded machine may still fail one connection
    # attempt of the forked child for other reasons, so what it saw is shown and tried again.
    outcomes = [run_as(other_user, shared_qmgr)]
    while outcomes[-1].get("user") != OTHER_USER and len(outcomes) < 3:
        outcomes.append(run_as(other_user, shared_qmgr))
    log = shared_qmgr.error_log()
    seen = [(o.get("user"), o.get("reason"), o.get("error")) for o in outcomes]
    assert outcomes[-1].get("user") == OTHER_USER, f"{seen}; the log ends: {log[-1500:]}"
    assert all(o.get("reason") != C.MQRC_NOT_AUTHORIZED for o in outcomes), seen  # never refused again
    assert f"AMQ8077W: Entity '{OTHER_USER}' has insufficient authority" in log
