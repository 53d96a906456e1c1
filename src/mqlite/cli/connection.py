"""How a command reaches a queue manager: local (-m, or the default) or client (-c / MQSERVER).

Every messaging command takes the same three options, so they are declared once here
(``connection_options``) and turned into a connection by ``connect``. Failures become IBM
reasons: no queue manager name and no default is MQRC_Q_MGR_NAME_ERROR (2058), as MQCONN says.
"""

from __future__ import annotations

import dataclasses
import os
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

import click

from mqlite import paths
from mqlite.cli.common import CliError, mqi_failure

if TYPE_CHECKING:
    from mqlite.client.pymqi_api import QueueManager

MQRC_Q_MGR_NAME_ERROR = 2058
MQRC_Q_MGR_NOT_AVAILABLE = 2059
DEFAULT_CHANNEL = "DEV.APP.SVRCONN"  # -c without MQSERVER: IBM's developer channel for applications
ADMIN_CHANNEL = "DEV.ADMIN.SVRCONN"  # runmqsc -c: the administrators' channel

F = TypeVar("F", bound=Callable[..., Any])

# MQSERVER=CHANNEL/TCP/host(port), IBM's variable for client-mode samples.
_MQSERVER = re.compile(r"(?P<channel>[^/]+)/(?P<trp>[^/]+)/(?P<conn>.+)")


@dataclass(frozen=True, slots=True)
class Target:
    """Where to connect: ``host is None`` means the local queue manager ``qmgr``."""

    qmgr: str
    host: str | None = None
    port: int | None = None
    channel: str = DEFAULT_CHANNEL
    user: str | None = None
    password: str | None = None
    tls: dict[str, str | None] | None = None  # mqlite.connect's TLS keywords, client mode only


def connection_options(function: F) -> F:
    """Add -m QMGR, -c HOST:PORT, -u USER and the TLS options to a command (as ``qmgr``,
    ``client``, ``user``, ``cipher``, ``keyr``, ``certlabl``, ``sslpeer``)."""
    function = tls_options(function)
    function = click.option(
        "-u", "user", default=None, metavar="USER",
        help="Authenticate as USER (password from MQLITE_PASSWORD, else asked on the terminal, never read "
             "from standard input).",
    )(function)
    function = click.option(
        "-c", "client", default=None, metavar="HOST:PORT",
        help="Client mode: connect over TCP (also HOST(PORT); default from MQSERVER).",
    )(function)
    function = click.option(
        "-m", "qmgr", default=None, metavar="QMGR",
        help="Queue manager name (default: the default queue manager).",
    )(function)
    return function


_TLS_OPTIONS = (
    ("cipher", "MQLITE_SSLCIPH", "Client mode over TLS with this CipherSpec, the channel's SSLCIPH "
                                 "(e.g. ANY_TLS12_OR_HIGHER; also MQLITE_SSLCIPH)."),
    ("keyr", "MQSSLKEYR", "TLS key repository directory (default MQSSLKEYR)."),
    ("certlabl", "MQCERTLABL", "Label of the client's certificate (default MQCERTLABL, else ibmwebspheremq<user>)."),
    ("sslpeer", None, "Distinguished-name filter the queue manager's certificate must match."),
)


def tls_options(function: F) -> F:
    """Add --cipher, --keyr, --certlabl and --sslpeer: TLS in client mode."""
    for name, envvar, text in reversed(_TLS_OPTIONS):
        function = click.option(f"--{name}", name, default=None, envvar=envvar, metavar=name.upper(),
                                help=text)(function)
    return function


def tls_from_options(options: dict[str, Any]) -> dict[str, str | None]:
    return {key: options.get(key) for key, _, _ in _TLS_OPTIONS}


def parse_conn_info(text: str) -> tuple[str, int]:
    """``host:port``, ``host(port)`` or ``[v6addr]:port`` -> (host, port)."""
    text = text.strip()
    match = re.fullmatch(r"(?P<host>[^()]+)\((?P<port>\d+)\)", text) or re.fullmatch(
        r"\[?(?P<host>[^\[\]]+?)\]?:(?P<port>\d+)", text
    )
    if not match or not 0 < int(match["port"]) < 65536:
        raise CliError(f"Connection '{text}' is not of the form HOST:PORT or HOST(PORT).", 2)
    return match["host"], int(match["port"])


def resolve_target(qmgr: str | None, client: str | None, user: str | None,
                   tls: dict[str, str | None] | None = None, channel: str = DEFAULT_CHANNEL,
                   password_first_line: bool = False) -> Target:
    """Decide local or client mode and which queue manager, from options and environment;
    ``-c`` goes through ``channel``, MQSERVER through the channel it names. ``password_first_line``:
    without a terminal, ``-u``'s password is the first line of standard input (IBM's runmqsc)."""
    password = _password(user, password_first_line) if user else None
    conn = client
    if conn is None and os.environ.get("MQSERVER"):
        named = mqserver()
        if named is None:
            raise CliError("MQSERVER must be CHANNEL/TCP/host(port).", 2)
        channel, conn = named
    if conn is not None:
        host, port = parse_conn_info(conn)
        return Target(qmgr or "", host, port, channel, user, password, tls if tls and tls.get("cipher") else None)
    return dataclasses.replace(local_target(qmgr), user=user, password=password)


def mqserver() -> tuple[str, str] | None:
    """The channel and connection name MQSERVER (``CHANNEL/TCP/host(port)``) names, or None when
    it is unset or not of that form."""
    match = _MQSERVER.fullmatch(os.environ.get("MQSERVER", "").strip())
    if not match or match["trp"].upper() != "TCP":
        return None
    return match["channel"], match["conn"]


def local_target(qmgr: str | None) -> Target:
    """The local queue manager ``qmgr`` (or the default one), whatever MQSERVER says: IBM's
    control commands (setmqaut, dspmqaut, dmpmqaut, runswchl) always work on a local one."""
    name = qmgr or paths.default_qmgr()
    if not name or not paths.config_path(name).is_file():
        raise mqi_failure(MQRC_Q_MGR_NAME_ERROR)
    return Target(name)


def _password(user: str, first_line: bool = False) -> str:
    """MQLITE_PASSWORD, else a prompt on the terminal (/dev/tty), never standard input: that may
    be carrying the messages (``echo hi | mqlite put -u app``). With neither, a clear error; but
    runmqsc (``first_line``) reads it as the first line of its input, as IBM's does."""
    password = os.environ.get("MQLITE_PASSWORD")
    if password is not None:
        return password
    try:  # getpass falls back to reading stdin when there is no terminal: look first
        os.close(os.open("/dev/tty", os.O_RDWR | os.O_NOCTTY))
    except OSError:
        if first_line:
            return sys.stdin.readline().rstrip("\r\n")
        raise CliError(f"No password for user '{user}': set MQLITE_PASSWORD (there is no terminal to ask on, "
                       "and standard input is not read for a password: it may be carrying messages).", 2) from None
    import getpass

    return getpass.getpass(f"Enter password for {user}: ")


@contextmanager
def connect(target: Target, failure: Callable[[int], CliError] = mqi_failure
            ) -> Iterator[QueueManager]:
    """A connection to ``target`` for the length of the block.

    MQI failures become the CliError that ``failure(reason)`` makes: by default the reason
    printed IBM's way; runmqsc passes its own, which prints AMQ messages and exits 20.
    """
    from mqlite.client import MQMIError
    from mqlite.client import public as mqlite

    try:
        if target.host is None:
            qm = mqlite.connect(target.qmgr, user=target.user, password=target.password)
        else:
            tls = target.tls or {}
            qm = mqlite.connect(
                target.qmgr, host=target.host, port=target.port, channel=target.channel,
                user=target.user, password=target.password, ssl_cipher_spec=tls.get("cipher"),
                key_repository=tls.get("keyr"), cert_label=tls.get("certlabl"), ssl_peer_name=tls.get("sslpeer"),
            )
    except MQMIError as e:
        raise failure(e.reason) from None
    except OSError:
        raise failure(MQRC_Q_MGR_NOT_AVAILABLE) from None
    try:
        yield qm
    except MQMIError as e:
        raise failure(e.reason) from None
    finally:
        with suppress(MQMIError, OSError):
            qm.disconnect()


def target_from_options(options: dict[str, Any]) -> Target:
    return resolve_target(options.get("qmgr"), options.get("client"), options.get("user"),
                          tls_from_options(options))
