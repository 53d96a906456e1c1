"""Is a queue manager running? What did it end like? Answered from its files, without connecting.

The server holds an exclusive lock on ``qmgr.lock`` for its whole life, so "lock held" is the
reliable test: a pid file can outlive a killed server and its pid can be reused. The pid file
is still read, to know whom to signal. Both ``flock`` and POSIX (``lockf``) locks are probed,
so the answer does not depend on which kind the server takes.
"""

from __future__ import annotations

import errno
import fcntl
import os
import time
from pathlib import Path

from mqlite import paths

LOCK_FILE = "qmgr.lock"
STATUS_FILE = "status"
STARTUP_LOG = "strmqm.log"


def lock_path(name: str) -> Path:
    return paths.qmgr_dir(name) / LOCK_FILE


def status_path(name: str) -> Path:
    return paths.qmgr_dir(name) / STATUS_FILE


def startup_log_path(name: str) -> Path:
    return paths.qmgr_dir(name) / STARTUP_LOG


def exists(name: str) -> bool:
    return paths.config_path(name).is_file()


def read_pid(name: str) -> int | None:
    try:
        text = paths.pid_path(name).read_text().strip()
        return int(text) if text else None
    except (OSError, ValueError):
        return None


def process_alive(pid: int) -> bool:
    """True while ``pid`` exists and is not a zombie (an unreaped zombie has ended)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    # The state follows the parenthesised command name, which may itself hold spaces.
    return stat[stat.rfind(")") + 2 :][:1] != "Z"


def lock_held(name: str) -> bool:
    """True when some process holds the queue manager's lock (that is: it is running)."""
    try:
        fd = os.open(lock_path(name), os.O_RDWR)
    except OSError:
        return False
    try:
        for take in (fcntl.flock, fcntl.lockf):  # BSD and POSIX locks are separate on Linux
            try:
                take(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as e:
                if e.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                    return True
                raise
            take(fd, fcntl.LOCK_UN)
        return False
    finally:
        os.close(fd)


def is_running(name: str) -> bool:
    if lock_path(name).exists():
        return lock_held(name)
    pid = read_pid(name)
    return pid is not None and process_alive(pid)


def status(name: str) -> str:
    """dspmq's STATUS: Running, else how it last ended.

    The server removes the status file when it starts and writes it (and removes its pid file)
    when it ends cleanly. So a pid file left behind, or no status file after the queue manager
    has run (its lock file exists), means it did not end cleanly. A queue manager never
    started shows "Ended normally", as IBM's dspmq does right after crtmqm.
    """
    if is_running(name):
        return "Running"
    if paths.pid_path(name).exists():
        return "Ended unexpectedly"
    try:
        text = status_path(name).read_text().strip()
    except OSError:
        text = ""
    if text:
        return text
    return "Ended unexpectedly" if lock_path(name).exists() else "Ended normally"


def wait_for_pid(name: str, timeout: float) -> int | None:
    """The pid from the pid file, waiting up to ``timeout`` for a starting server to write it."""
    deadline = time.monotonic() + timeout
    while True:
        pid = read_pid(name)
        if pid is not None or time.monotonic() >= deadline:
            return pid
        time.sleep(0.05)


def tail(path: Path, lines: int) -> list[str]:
    try:
        with open(path, errors="replace") as f:
            return f.read().splitlines()[-lines:]
    except OSError:
        return []
