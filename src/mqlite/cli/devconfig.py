"""``crtmqm --dev``: IBM's developer configuration, made with the queue manager's own commands.

What IBM's MQ developer container image sets up at its first start (mq-container's
``10-dev.mqsc.tpl`` and docs/developer-config.md), so that programs and tutorials written for
that image run unchanged: users ``admin`` (group ``mqm``) and ``app`` (group ``mqclient``),
DEV.QUEUE.1-3, DEV.DEAD.LETTER.QUEUE as the dead-letter queue, the model queue
DEV.APP.MODEL.QUEUE, topic DEV.BASE.TOPIC (``dev/``), connection authentication DEV.AUTHINFO
(CHCKCLNT(REQDADM): administrators always give a password), the two channels with IBM's CHLAUTH
rules, and the authority records of group ``mqclient`` on ``DEV.**``.

Nothing here bypasses the security model: the users go into the queue manager's users file as
``mqlite passwd`` writes it, and everything else is ordinary MQSC, run by crtmqm over a local
connection as the queue manager's creator (an administrator) while the queue manager runs for
that purpose. Where mqlite differs from IBM's image, and why:

- No password is made up. IBM's older images gave ``admin`` the well-known ``passw0rd``; IBM MQ
  9.4 creates ``admin`` only when a password is given, and so does mqlite: without
  ``MQ_ADMIN_PASSWORD`` there is no user ``admin`` (the creator and ``mqm`` remain administrators
  locally). As IBM documents, a password has at least 8 characters.
- DEV.APP.SVRCONN has IBM's ``MCAUSER('app')`` only while ``app`` has no password. In mqlite a
  channel's MCAUSER decides who a connection runs as even after a password was checked
  (server/native/handshake.py), where IBM's ADOPTCTX(YES) runs it as the user it authenticated.
  So once ``MQ_APP_PASSWORD`` is set (the rule then says CHCKCLNT(REQUIRED), as IBM's image
  does) the channel has no MCAUSER: a connection runs as the user it proved, and an
  administrator is refused by IBM's default ``*MQADMIN`` BLOCKUSER rule, as at IBM. Without
  it, anyone gets in as ``app`` without a password (IBM: ``CHCKCLNT(ASQMGR)`` on the rule, and
  REQDADM asks administrators only); ``admin`` is kept off it by a rule of mqlite's (a USERMAP
  with USERSRC(NOACCESS)), and another administrator who gives its password there runs as
  ``app`` (IBM's image refuses it); ``app`` is in the users file with a password nobody knows,
  so its group gives it its authority.
- The admin channel's USERMAP rule asks for a password itself (``CHCKCLNT(REQUIRED)``), where
  IBM relies on REQDADM finding ``admin`` an administrator: the same for ``admin``, and no
  weaker if the users file is changed by hand.
- IBM's image listens on 1414 through DEV.LISTENER.TCP; mqlite's ``crtmqm -p`` names the port.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping

from mqlite import paths
from mqlite.cli.common import fail
from mqlite.cli.users import write_users
from mqlite.users import User, UsersFileError, hash_password, parse, render

ADMIN_USER, ADMIN_GROUP = "admin", "mqm"
APP_USER, APP_GROUP = "app", "mqclient"
ADMIN_PASSWORD_VARIABLE = "MQ_ADMIN_PASSWORD"
APP_PASSWORD_VARIABLE = "MQ_APP_PASSWORD"
MIN_PASSWORD = 8  # IBM: "Must be at least 8 characters long."
RC_BAD_PASSWORD = 1

_MQSC = """\
* IBM MQ's developer configuration (mq-container 10-dev.mqsc), as crtmqm --dev applies it
DEFINE QLOCAL('DEV.QUEUE.1') REPLACE
DEFINE QLOCAL('DEV.QUEUE.2') REPLACE
DEFINE QLOCAL('DEV.QUEUE.3') REPLACE
DEFINE QLOCAL('DEV.DEAD.LETTER.QUEUE') REPLACE
DEFINE QMODEL('DEV.APP.MODEL.QUEUE') REPLACE
ALTER QMGR DEADQ('DEV.DEAD.LETTER.QUEUE')
DEFINE TOPIC('DEV.BASE.TOPIC') TOPICSTR('dev/') REPLACE
DEFINE AUTHINFO('DEV.AUTHINFO') AUTHTYPE(IDPWOS) CHCKCLNT(REQDADM) CHCKLOCL(OPTIONAL) ADOPTCTX(YES) REPLACE
ALTER QMGR CONNAUTH('DEV.AUTHINFO')
REFRESH SECURITY TYPE(CONNAUTH)
DEFINE CHANNEL('DEV.ADMIN.SVRCONN') CHLTYPE(SVRCONN) REPLACE
DEFINE CHANNEL('DEV.APP.SVRCONN') CHLTYPE(SVRCONN) MCAUSER('{mcauser}') REPLACE
SET CHLAUTH('*') TYPE(ADDRESSMAP) ADDRESS('*') USERSRC(NOACCESS) +
    DESCR('Back-stop rule - Blocks everyone') ACTION(REPLACE)
SET CHLAUTH('DEV.APP.SVRCONN') TYPE(ADDRESSMAP) ADDRESS('*') USERSRC(CHANNEL) CHCKCLNT({chckclnt}) +
    DESCR('Allows connection via APP channel') ACTION(REPLACE)
{admin_off_app}SET CHLAUTH('DEV.ADMIN.SVRCONN') TYPE(BLOCKUSER) USERLIST('nobody') +
    DESCR('Allows admins on ADMIN channel') ACTION(REPLACE)
SET CHLAUTH('DEV.ADMIN.SVRCONN') TYPE(USERMAP) CLNTUSER('admin') USERSRC(CHANNEL) CHCKCLNT(REQUIRED) +
    DESCR('Allows admin user to connect via ADMIN channel') ACTION(REPLACE)
SET AUTHREC OBJTYPE(QMGR) GROUP('mqclient') AUTHADD(CONNECT,INQ)
SET AUTHREC PROFILE('DEV.**') OBJTYPE(QUEUE) GROUP('mqclient') AUTHADD(BROWSE,GET,INQ,PUT)
SET AUTHREC PROFILE('DEV.**') OBJTYPE(TOPIC) GROUP('mqclient') AUTHADD(PUB,SUB)
SET AUTHREC PROFILE('DEV.APP.MODEL.QUEUE') OBJTYPE(QUEUE) GROUP('mqclient') AUTHADD(BROWSE,DSP,GET,INQ,PUT)
"""

# While DEV.APP.SVRCONN runs everyone as app (MCAUSER), IBM's *MQADMIN rule sees app, not admin.
_ADMIN_OFF_APP = """\
SET CHLAUTH('DEV.APP.SVRCONN') TYPE(USERMAP) CLNTUSER('admin') USERSRC(NOACCESS) +
    DESCR('Keeps admin off the APP channel') ACTION(REPLACE)
"""


def passwords(environ: Mapping[str, str] = os.environ) -> tuple[str | None, str | None]:
    """(admin's, app's) password from IBM's variables, each None when not set (or blank); one
    shorter than IBM's 8 characters ends crtmqm before anything is created."""
    found = []
    for variable in (ADMIN_PASSWORD_VARIABLE, APP_PASSWORD_VARIABLE):
        value = environ.get(variable, "").strip() and environ[variable]  # blank: as IBM, not set
        if value and len(value) < MIN_PASSWORD:
            fail(f"{variable} must be at least {MIN_PASSWORD} characters long (IBM's rule); "
                 "no queue manager was created.", RC_BAD_PASSWORD)
        found.append(value or None)
    return found[0], found[1]


def mqsc(app_password: bool) -> str:
    """The configuration's MQSC: once app has a password DEV.APP.SVRCONN's rule requires one and
    connections run as the user they proved; until then they run as app."""
    return _MQSC.format(chckclnt="REQUIRED" if app_password else "ASQMGR", mcauser="" if app_password else APP_USER,
                        admin_off_app="" if app_password else _ADMIN_OFF_APP)


def add_users(qmgr: str, admin_password: str | None, app_password: str | None) -> None:
    """``admin`` (when it has a password) and ``app`` in the users file, as ``mqlite passwd``
    writes them; ``app`` without one gets a password nobody knows (no password is asked of it)."""
    path = paths.users_path(qmgr)
    try:
        users = parse(path.read_text()) if path.exists() else {}
    except UsersFileError as error:
        fail(f"AMQ5542E: users file {path} cannot be read: {error}")
    if admin_password is not None:
        users[ADMIN_USER] = User(ADMIN_USER, hash_password(admin_password), [ADMIN_GROUP])
    users[APP_USER] = User(APP_USER, hash_password(app_password or secrets.token_urlsafe(32)), [APP_GROUP])
    write_users(path, render(users))


def apply(qmgr: str, app_password: bool) -> None:
    """Run the MQSC on the running queue manager over a local connection (as its creator), even
    where MQSERVER would send the CLI's commands elsewhere."""
    from mqlite.cli.connection import Target, connect

    with connect(Target(qmgr)) as qm:
        code, lines = qm.mqsc(mqsc(app_password))
    if code:
        failed = [line for line in lines if line.startswith("AMQ") and not line.startswith("AMQ8")]
        fail("AMQ8101: the developer configuration could not be applied:\n" + "\n".join(failed or lines))


def summary(qmgr: str, admin_password: str | None, app_password: str | None) -> list[str]:
    """What crtmqm says it made, and what is missing."""
    lines = ["Developer configuration applied: DEV.QUEUE.1, DEV.QUEUE.2, DEV.QUEUE.3, "
             "DEV.DEAD.LETTER.QUEUE (the dead-letter queue), DEV.APP.MODEL.QUEUE, DEV.BASE.TOPIC (dev/), "
             "DEV.APP.SVRCONN, DEV.ADMIN.SVRCONN."]
    if admin_password is not None:
        lines.append(f"User {ADMIN_USER} (group {ADMIN_GROUP}) set from {ADMIN_PASSWORD_VARIABLE}: "
                     "DEV.ADMIN.SVRCONN lets it in with its password.")
    else:
        lines.append(f"{ADMIN_PASSWORD_VARIABLE} is not set: no user {ADMIN_USER} was created, and "
                     f"DEV.ADMIN.SVRCONN lets nobody in until `mqlite passwd -m {qmgr} -g {ADMIN_GROUP} "
                     f"{ADMIN_USER}`.")
    if app_password is not None:
        lines.append(f"User {APP_USER} (group {APP_GROUP}) set from {APP_PASSWORD_VARIABLE}: "
                     "DEV.APP.SVRCONN requires its password.")
    else:
        lines.append(f"{APP_PASSWORD_VARIABLE} is not set: DEV.APP.SVRCONN lets clients in without a "
                     f"password, as user {APP_USER} (group {APP_GROUP}).")
    return lines
