"""Users the tests connect over TCP as: a queue manager authenticates every client connection
(CONNAUTH's CHCKCLNT(REQUIRED)), so a test gives a user and password that ``mqlite passwd``
put in the queue manager's users file, never a way around the check.

- ``APP``: the application user of IBM's developer configuration (``app``), not an
  administrator; ``add_user(home, qmgr)`` adds it (any other user with arguments).
- ``ADMIN``: an administrator (group ``mqm``), for DEV.ADMIN.SVRCONN (``runmqsc -c``).
- ``client_env(creds)``: the environment that makes the CLI's ``-u`` read the password.
- ``grant_app(home, qmgr)``: what the application group (``mqclient``) needs: a new queue
  manager grants nobody but its administrators anything (secure by default).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from helpers.qmgrs import run_mqlite


@dataclass(frozen=True)
class Credentials:
    user: str
    password: str
    groups: str = ""

    @property
    def kwargs(self) -> dict[str, str]:
        """``mqlite.connect(..., **creds.kwargs)``."""
        return {"user": self.user, "password": self.password}


APP = Credentials("app", "app-pass-1", "mqclient")
ADMIN = Credentials("mqadmin", "admin-pass-1", "mqm")  # an administrator (group mqm)


def add_user(home: Path, qmgr: str, creds: Credentials = APP) -> Credentials:
    """Put ``creds`` in queue manager ``qmgr``'s users file with ``mqlite passwd``."""
    result = run_mqlite(("passwd", "-m", qmgr, "-g", creds.groups, creds.user), home,
                        env={"MQLITE_PASSWORD": creds.password})
    assert result.returncode == 0, result.stdout + result.stderr
    return creds


def client_env(creds: Credentials = APP) -> dict[str, str]:
    """The CLI reads ``-u USER``'s password from MQLITE_PASSWORD."""
    return {"MQLITE_PASSWORD": creds.password}


def grant_app(home: Path, qmgr: str, group: str = APP.groups) -> None:
    """What IBM's developer configuration grants its application group, on the (running) queue
    manager: ``connect`` and ``inq`` on it, put/get/browse/inq on queues and pub/sub on topics
    (IBM limits these to DEV.** queues and the DEV.BASE.TOPIC subtree; the tests name any queue
    and topic, so here every queue and SYSTEM.BASE.TOPIC)."""
    # One runmqsc for the three grants (setmqaut would start the CLI three times per queue manager).
    script = (f"SET AUTHREC OBJTYPE(QMGR) GROUP('{group}') AUTHADD(CONNECT, INQ)\n"
              f"SET AUTHREC PROFILE('**') OBJTYPE(QUEUE) GROUP('{group}') AUTHADD(PUT, GET, BROWSE, INQ)\n"
              f"SET AUTHREC PROFILE(SYSTEM.BASE.TOPIC) OBJTYPE(TOPIC) GROUP('{group}') AUTHADD(PUB, SUB)\n")
    result = run_mqlite(("runmqsc", qmgr), home, input=script)
    assert result.returncode == 0, result.stdout + result.stderr
