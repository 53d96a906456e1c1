"""Control commands: crtmqm, strmqm, endmqm, dltmqm, dspmq (IBM names, options and return codes).

A queue manager is one foreground process, ``python -m mqlite.server QM``; these commands create
its directory, start it detached and wait until it accepts connections, signal it to end and
wait until it is gone, and read its state from its files (see ``state``).
"""

from __future__ import annotations

import contextlib
import datetime
import os
import pwd
import shutil
import signal
import subprocess
import sys
import time

import click

from mqlite import paths
from mqlite.cli import devconfig, state
from mqlite.cli.common import (
    RC_EXISTS,
    RC_NOT_AVAILABLE,
    RC_NOT_EXIST,
    RC_RUNNING,
    RC_UNEXPECTED,
    check_qmgr_name,
    fail,
)

NOT_EXIST = "AMQ8118: WebSphere MQ queue manager does not exist."
NOT_AVAILABLE = "AMQ8146: WebSphere MQ queue manager not available."
RUNNING = "AMQ7005: The queue manager is running."
SERVER_LOCKED_EXIT = 3  # the server's exit code when another instance holds the lock
SERVER_REPORTED_EXIT = 4  # it could not start and said why (details in its error log)


def _existing(name: str) -> str:
    check_qmgr_name(name)
    if not state.exists(name):
        fail(NOT_EXIST, RC_NOT_EXIST)
    return name


QM_INI = """\
# qm.ini of queue manager {qmgr}: read when the queue manager starts (IBM's stanza format:
# a "Name:" line, then indented Key=Value lines). Every line below is a comment; remove the
# '#' of a stanza and its keys to use them.
#
# Exactly-once writers (the Spark sink): drop a message whose MsgId was committed again within
# this many seconds.
#Mqlite:
#   DuplicateWindow=600
#
# Message channels: batches a sender may have awaiting confirmation at once (1 or 2; 2 by default).
#CHANNELS:
#   PipeLineLength=2
#
# The publish exit (an importable module or a .py file, the callable in it, its ExitData).
#PublishSubscribe:
#   PublishExitPath=/path/to/exit.py
#   PublishExitFunction=publish_exit
#   PublishExitData=
"""


@click.command()
@click.option("-p", "port", type=click.IntRange(0, 65535), default=None,
              help="TCP listener port (omitted: local connections only; 0: one the system picks at each "
                   "start, written to listeners.json in the queue manager's directory).")
@click.option("-q", "make_default", is_flag=True, help="Make it the default queue manager.")
@click.option("--mqtt-port", type=click.IntRange(0, 65535), default=None,
              help="TCP port of an MQTT (3.1.1 and 5.0) listener on the topic tree (0: the system picks).")
@click.option("--dev", "dev", is_flag=True,
              help="IBM's developer configuration: users admin and app (passwords from MQ_ADMIN_PASSWORD and "
                   "MQ_APP_PASSWORD), DEV.* queues, topic and channels, CHLAUTH rules and authorities.")
@click.argument("qmgr")
def crtmqm(qmgr: str, port: int | None, make_default: bool, mqtt_port: int | None, dev: bool) -> None:
    """Create queue manager QMGR."""
    check_qmgr_name(qmgr)
    directory = paths.qmgr_dir(qmgr)
    if directory.exists():
        fail("AMQ8110: WebSphere MQ queue manager already exists.", RC_EXISTS)
    admin_password, app_password = devconfig.passwords() if dev else (None, None)
    directory.mkdir(parents=True)
    directory.chmod(0o711)  # others reach the socket in it, not the files (private, 0600)
    created = datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
    # The creator is an administrator of the queue manager, like the mqm group (secure by default).
    creator = pwd.getpwuid(os.getuid()).pw_name
    config: dict[str, object] = {"name": qmgr, "port": port, "created": created, "mqtt_port": mqtt_port,
                                 "creator": creator}
    (directory / "qm.ini").write_text(QM_INI.format(qmgr=qmgr))
    click.echo("WebSphere MQ queue manager created.")
    click.echo(f"Directory '{directory}' created.")
    click.echo(f"Creating or replacing default objects for {qmgr}.")
    if dev:
        _apply_dev(qmgr, config, admin_password, app_password)
    paths.write_config(qmgr, config)
    if make_default:
        paths.set_default_qmgr(qmgr)
    click.echo("Completing setup.")
    click.echo("Setup completed.")
    if dev:
        for line in devconfig.summary(qmgr, admin_password, app_password):
            click.echo(line)


def _apply_dev(qmgr: str, config: dict[str, object], admin_password: str | None,
               app_password: str | None) -> None:
    """Start the new queue manager for local connections only (no port is taken), apply the
    developer configuration as its creator, end it; a failure deletes the queue manager."""
    paths.write_config(qmgr, {**config, "port": None, "mqtt_port": None})
    try:
        devconfig.add_users(qmgr, admin_password, app_password)
        process = _spawn_server(qmgr)
        try:
            _wait_started(qmgr, process, 30.0)
            devconfig.apply(qmgr, app_password is not None)
        finally:
            _end_spawned(qmgr, process)
    except BaseException:
        shutil.rmtree(paths.qmgr_dir(qmgr), ignore_errors=True)
        raise


def _wait_started(qmgr: str, process: subprocess.Popen[bytes], timeout: float) -> None:
    """Until the queue manager this command started accepts connections (fails if it ends)."""
    deadline = time.monotonic() + timeout
    while not paths.accepts_connections(qmgr):
        code = process.poll()
        if code is not None:
            if code == SERVER_LOCKED_EXIT:
                fail(f"WebSphere MQ queue manager '{qmgr}' running.", RC_RUNNING)
            said = state.tail(state.startup_log_path(qmgr), 20)
            if code == SERVER_REPORTED_EXIT and said:  # IBM's messages only: the details are in AMQERR01.LOG
                fail("\n".join([*said, f"AMQ8101: WebSphere MQ queue manager '{qmgr}' could not be started; "
                                        f"details in {paths.error_log_path(qmgr)}."]), RC_UNEXPECTED)
            _startup_failed(qmgr, f"the queue manager process ended with exit code {code}")
        if time.monotonic() >= deadline:
            _stop_spawned(process)
            _startup_failed(qmgr, f"it did not accept connections within {timeout:g} seconds")
        time.sleep(0.05)


def _end_spawned(qmgr: str, process: subprocess.Popen[bytes]) -> None:
    """A controlled end of the queue manager this command started, waited for."""
    if process.poll() is None:
        _stop_spawned(process, grace=60.0)  # SIGTERM: endmqm's controlled end
    _wait_ended(qmgr, process.pid, 5.0)


@click.command()
@click.option("--timeout", type=float, default=30.0, show_default=True, hidden=True,
              help="Seconds to wait for the queue manager to accept connections.")
@click.argument("qmgr")
def strmqm(qmgr: str, timeout: float) -> None:
    """Start queue manager QMGR in the background; return once it accepts connections."""
    _existing(qmgr)
    if state.is_running(qmgr):
        fail(f"WebSphere MQ queue manager '{qmgr}' running.", RC_RUNNING)
    click.echo(f"WebSphere MQ queue manager '{qmgr}' starting.")
    process = _spawn_server(qmgr)
    _wait_started(qmgr, process, timeout)
    click.echo(f"WebSphere MQ queue manager '{qmgr}' started.")


def _spawn_server(qmgr: str) -> subprocess.Popen[bytes]:
    """Start the server detached: own session, no terminal, output to the startup log.

    MQLITE_HOME is passed as an absolute path and the working directory is the queue manager's
    own, so the server does not depend on where strmqm was run from.
    """
    env = dict(os.environ)
    env["MQLITE_HOME"] = str(paths.home().resolve())
    directory = paths.qmgr_dir(qmgr).resolve()
    with open(state.startup_log_path(qmgr), "wb") as log:
        return subprocess.Popen(
            [sys.executable, "-m", "mqlite.server", qmgr],
            stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
            cwd=directory, env=env, start_new_session=True, close_fds=True,
        )


def _stop_spawned(process: subprocess.Popen[bytes], grace: float = 5.0) -> None:
    """End a server this command started (SIGTERM, then SIGKILL after ``grace`` seconds)."""
    process.terminate()
    try:
        process.wait(grace)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(5)


def _startup_failed(qmgr: str, why: str) -> None:
    lines = [f"AMQ8101: WebSphere MQ queue manager '{qmgr}' could not be started: {why}."]
    startup = state.tail(state.startup_log_path(qmgr), 20)
    if startup:
        lines += [f"--- {state.startup_log_path(qmgr)} (last lines) ---", *startup]
    errors = state.tail(paths.error_log_path(qmgr), 10)
    if errors:
        lines += [f"--- {paths.error_log_path(qmgr)} (last lines) ---", *errors]
    fail("\n".join(lines), RC_UNEXPECTED)


@click.command()
@click.option("-c", "mode", flag_value="controlled", default=True,
              help="Controlled (quiesced) end: the default.")
@click.option("-w", "mode", flag_value="controlled", help="Controlled end, waiting (the default).")
@click.option("-i", "mode", flag_value="immediate", help="Immediate end.")
@click.option("-p", "mode", flag_value="preemptive",
              help="Preemptive end: immediate, then killed if it has not ended in 10 seconds.")
@click.option("--timeout", type=float, default=60.0, show_default=True, hidden=True,
              help="Seconds to wait for the queue manager to end.")
@click.argument("qmgr")
def endmqm(qmgr: str, mode: str, timeout: float) -> None:
    """End queue manager QMGR; return once it has stopped."""
    _existing(qmgr)
    if not state.is_running(qmgr):
        fail(NOT_AVAILABLE, RC_NOT_AVAILABLE)
    pid = state.wait_for_pid(qmgr, 5.0)
    if pid is None:
        fail(f"AMQ8146: WebSphere MQ queue manager '{qmgr}' has no pid file; cannot end it.",
             RC_UNEXPECTED)
    if mode == "controlled":
        click.echo("Quiesce request accepted. The queue manager will stop when all outstanding "
                   "work is complete.")
        _signal(pid, signal.SIGTERM)
        click.echo(f"Waiting for queue manager '{qmgr}' to end.")
    else:
        click.echo(f"WebSphere MQ queue manager '{qmgr}' ending.")
        _signal(pid, signal.SIGINT)
    if mode == "preemptive" and not _wait_ended(qmgr, pid, min(timeout, 10.0)):
        _signal(pid, signal.SIGKILL)
        if _wait_ended(qmgr, pid, 5.0):
            paths.pid_path(qmgr).unlink(missing_ok=True)
            state.status_path(qmgr).write_text("Ended preemptively\n")
    if not _wait_ended(qmgr, pid, timeout):
        fail(f"WebSphere MQ queue manager '{qmgr}' did not end within {timeout:g} seconds.",
             RC_UNEXPECTED)
    click.echo(f"WebSphere MQ queue manager '{qmgr}' ended.")


def _signal(pid: int, sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, sig)


def _wait_ended(qmgr: str, pid: int, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while state.process_alive(pid) or state.lock_held(qmgr):
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.05)
    return True


@click.command()
@click.argument("qmgr")
def dltmqm(qmgr: str) -> None:
    """Delete stopped queue manager QMGR and everything in it."""
    import fcntl

    _existing(qmgr)
    was_default = paths.default_qmgr() == qmgr
    lock = state.lock_path(qmgr)
    # Hold the queue manager's lock while deleting, so that no strmqm can start it meanwhile.
    if state.is_running(qmgr):
        fail(RUNNING, RC_RUNNING)
    fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            fail(RUNNING, RC_RUNNING)
        shutil.rmtree(paths.qmgr_dir(qmgr))
    finally:
        os.close(fd)
    if was_default:
        paths.set_default_qmgr(None)
    click.echo(f"WebSphere MQ queue manager '{qmgr}' deleted.")


@click.command()
@click.option("-m", "qmgr", default=None, help="Show only this queue manager.")
def dspmq(qmgr: str | None) -> None:
    """Display queue managers and their status."""
    if qmgr is not None:
        _existing(qmgr)
        names = [qmgr]
    else:
        names = paths.installed_qmgrs()
    for name in names:
        # IBM pads QMNAME(...) to the width of the longest possible name.
        click.echo(f"{'QMNAME(' + name + ')':<57} STATUS({state.status(name)})")
