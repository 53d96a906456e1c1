"""IBM's sample programs by their names, arguments and output, for scripts and runbooks that call them.

``amqsput Q [QM]``, ``amqsget Q [QM]``, ``amqsbcg Q [QM] [PropOption]``, ``amqspub TOPIC [QM]`` and
``amqssub TOPIC [QM]`` connect locally, as IBM's server-bound samples do; the ``c`` variants
(``amqsputc``...) connect as clients through ``MQSERVER=CHANNEL/TCP/host(port)``. Both take the
user from ``MQSAMP_USER_ID``; IBM's samples then prompt for the password, these read it from
``MQLITE_PASSWORD`` first (as the mqlite command does) and prompt only without it.

Output, return codes and error lines are IBM's (``MQOPEN ended with reason code 2085``; a failed
connect ends with the reason as the exit code, a failed open ends the sample normally, with 0).
amqsget waits 15 s for each message and amqssub 30 s, as IBM's do; ``MQLITE_SAMPLE_WAIT``
(seconds) changes both, for tests and impatient scripts. Message bodies are written as bytes,
as the C samples print them.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from typing import IO, TYPE_CHECKING, Any

import click

from mqlite import cmqc, paths
from mqlite.cli.common import CliError
from mqlite.cli.sample_format import BUFFER_LENGTH, body_text, md_text, properties_text, summary_text

if TYPE_CHECKING:
    from mqlite.client.pymqi_api import QueueManager

MQRC_NONE = 0
MQRC_NO_MSG_AVAILABLE = 2033
MQRC_Q_MGR_NAME_ERROR = 2058
MQRC_Q_MGR_NOT_AVAILABLE = 2059
MQRC_HOST_NOT_AVAILABLE = 2538
RC_MISSING = 99  # IBM's samples: "Required parameter missing"
GET_BUFFER = 65535  # amqsget's buffer: a longer message fails with 2080 and stays on the queue
WAIT_ENV = "MQLITE_SAMPLE_WAIT"


class Output:
    """stdout as bytes: the samples print message bodies as they are."""

    def __init__(self, stream: IO[bytes] | None = None) -> None:
        self.stream = stream or sys.stdout.buffer

    def __call__(self, text: str | bytes) -> None:
        self.stream.write(text.encode() if isinstance(text, str) else text)
        self.stream.flush()


def _wait(default: float) -> float:
    try:
        return max(0.0, float(os.environ[WAIT_ENV]))
    except (KeyError, ValueError):
        return default


def connect(qmgr: str, client: bool) -> tuple[QueueManager | None, int]:
    """MQCONNX as the samples make it: locally, or (``client``) through MQSERVER; the user from
    MQSAMP_USER_ID. Returns the connection, or None and the reason."""
    from mqlite.cli.connection import mqserver, parse_conn_info
    from mqlite.client import MQMIError
    from mqlite.client import public as mqlite

    user = os.environ.get("MQSAMP_USER_ID") or None
    password = None
    if user:
        password = os.environ.get("MQLITE_PASSWORD")
        if password is None:
            password = _prompt(user)
    try:
        if client:
            named = mqserver()
            if named is None:
                return None, MQRC_Q_MGR_NAME_ERROR  # no channel definition to use
            channel, conn = named
            try:
                host, port = parse_conn_info(conn)
            except CliError:
                return None, MQRC_HOST_NOT_AVAILABLE
            return mqlite.connect(qmgr, host=host, port=port, channel=channel, user=user,
                                  password=password), MQRC_NONE
        name = qmgr or paths.default_qmgr()
        if not name or not paths.config_path(name).is_file():
            return None, MQRC_Q_MGR_NAME_ERROR
        return mqlite.connect(name, user=user, password=password), MQRC_NONE
    except MQMIError as error:
        return None, int(error.reason)
    except OSError:
        return None, MQRC_HOST_NOT_AVAILABLE if client else MQRC_Q_MGR_NOT_AVAILABLE


def _prompt(user: str) -> str:
    """IBM's prompt, on the terminal only: standard input carries the messages (without a terminal
    the password is empty, which the queue manager refuses, as IBM's refuses one)."""
    try:  # getpass falls back to reading stdin when there is no terminal: look first
        os.close(os.open("/dev/tty", os.O_RDWR | os.O_NOCTTY))
    except OSError:
        print(f"No password for user '{user}': set MQLITE_PASSWORD (there is no terminal to ask on, and "
              "standard input is not read for a password).", file=sys.stderr)
        return ""
    import getpass

    return getpass.getpass("Enter password: ")


def _disconnect(qm: QueueManager, out: Output) -> None:
    from mqlite.client import MQMIError

    try:
        qm.disconnect()
    except MQMIError as error:
        out(f"MQDISC ended with reason code {error.reason}\n")
    except OSError:
        pass


def _close(handle: Any, out: Output, options: int = cmqc.MQCO_NONE) -> None:
    from mqlite.client import MQMIError

    try:
        handle.close(options)
    except MQMIError as error:
        out(f"MQCLOSE ended with reason code {error.reason}\n")


def _lines(stream: IO[bytes]) -> Any:
    """stdin lines without their ends, until an empty line or the end, as amqsput reads them."""
    for raw in stream:
        line = raw.rstrip(b"\n").rstrip(b"\r")
        if not line:
            return
        yield line


def _number(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        return 0  # C's atoi


# -- amqsput ----------------------------------------------------------------------------------
def run_put(args: Sequence[str], client: bool = False, stdin: IO[bytes] | None = None,
            out: Output | None = None) -> int:
    """amqsput Q [QM [OpenOptions [CloseOptions [TargetQM]]]]: each line of stdin one message."""
    from mqlite.client import MQMIError
    from mqlite.client import public as mqlite

    out = out or Output()
    stdin = stdin or sys.stdin.buffer
    out("Sample AMQSPUT0 start\n")
    if not args:
        out("Required parameter missing - queue name\n")
        return RC_MISSING
    qm, reason = connect(args[1] if len(args) > 1 else "", client)
    if qm is None:
        out(f"MQCONNX ended with reason code {reason}\n")
        return reason
    out(f"target queue is {args[0]}\n")
    od = mqlite.OD(ObjectName=args[0].encode())
    if len(args) > 4:
        od.ObjectQMgrName = args[4].encode()
        out(f"target queue manager is {args[4]}\n")
    options = cmqc.MQOO_OUTPUT | cmqc.MQOO_FAIL_IF_QUIESCING
    if len(args) > 2:
        options = _number(args[2])
        out(f"open  options are {options}\n")
    try:
        queue = mqlite.Queue(qm, od, options)
    except MQMIError as error:
        out(f"MQOPEN ended with reason code {error.reason}\n")
        out("unable to open queue for output\n")
        queue = None
    if queue is not None:
        for line in _lines(stdin):
            try:
                queue.put(line, mqlite.MD(Format=cmqc.MQFMT_STRING))
            except MQMIError as error:
                out(f"MQPUT ended with reason code {error.reason}\n")
                break
        close = cmqc.MQCO_NONE
        if len(args) > 3:
            close = _number(args[3])
            out(f"close options are {close}\n")
        _close(queue, out, close)
    _disconnect(qm, out)
    out("Sample AMQSPUT0 end\n")
    return 0


# -- amqsget ----------------------------------------------------------------------------------
def run_get(args: Sequence[str], client: bool = False, out: Output | None = None) -> int:
    """amqsget Q [QM [OpenOptions [CloseOptions]]]: get and print each message until none
    comes for 15 seconds."""
    from mqlite.client import MQMIError
    from mqlite.client import public as mqlite

    out = out or Output()
    out("Sample AMQSGET0 start\n")
    if not args:
        out("Required parameter missing - queue name\n")
        return RC_MISSING
    qm, reason = connect(args[1] if len(args) > 1 else "", client)
    if qm is None:
        out(f"MQCONNX ended with reason code {reason}\n")
        return reason
    options = cmqc.MQOO_INPUT_AS_Q_DEF | cmqc.MQOO_FAIL_IF_QUIESCING
    if len(args) > 2:
        options = _number(args[2])
        out(f"open  options are {options}\n")
    try:
        queue = mqlite.Queue(qm, args[0], options)
    except MQMIError as error:
        out(f"MQOPEN ended with reason code {error.reason}\n")
        out("unable to open queue for input\n")
        queue = None
    if queue is not None:
        wait_ms = int(_wait(15.0) * 1000)
        while True:
            gmo = mqlite.GMO(Options=cmqc.MQGMO_WAIT | cmqc.MQGMO_NO_SYNCPOINT | cmqc.MQGMO_CONVERT,
                             WaitInterval=wait_ms)
            try:
                body = queue.get(GET_BUFFER, mqlite.MD(), gmo)
            except MQMIError as error:
                out("no more messages\n" if error.reason == MQRC_NO_MSG_AVAILABLE
                    else f"MQGET ended with reason code {error.reason}\n")
                break
            out(b"message <" + bytes(body) + b">\n")
        close = cmqc.MQCO_NONE
        if len(args) > 3:
            close = _number(args[3])
            out(f"close options are {close}\n")
        _close(queue, out, close)
    _disconnect(qm, out)
    out("Sample AMQSGET0 end\n")
    return 0


# -- amqsbcg ----------------------------------------------------------------------------------
def run_browse(args: Sequence[str], client: bool = False, out: Output | None = None) -> int:
    """amqsbcg Q [QM [PropOption]]: browse every message, its MQMD and a hex dump of its body."""
    from mqlite.client import MQMIError
    from mqlite.client import public as mqlite

    out = out or Output()
    out("\nAMQSBCG0 - starts here\n**********************\n ")
    usage = "\n  Usage: amqsbcg QName [ QMgrName ] [ PropOption ]\n"
    if not args:
        out("Required parameter missing - queue name\n" + usage + "\n")
        return 4
    prop_option = _number(args[2]) if len(args) > 2 else 0
    if not 0 <= prop_option <= 4:
        out(f'PropOption "{prop_option}" invalid - specify 0-4\n' + usage + "\n")
        return 4
    qm, reason = connect(args[1] if len(args) > 1 else "", client)
    if qm is None:
        out(f"\n MQCONNX failed with CompCode:2, Reason:{reason}\n")
        return cmqc.MQCC_FAILED
    code, lengths = cmqc.MQCC_OK, []
    out(f"\n MQOPEN - '{args[0]}'")
    try:
        queue = mqlite.Queue(qm, args[0], cmqc.MQOO_BROWSE)
    except MQMIError as error:
        out(f"\n MQOPEN failed with CompCode:{error.comp}, Reason:{error.reason}")
        queue, code = None, cmqc.MQCC_FAILED
    if queue is not None:
        if prop_option == 1:
            out("\n MQCRTMH")
        out("\n ")
        lines_printed, number = 0, 0
        options = cmqc.MQGMO_NO_WAIT | cmqc.MQGMO_ACCEPT_TRUNCATED_MSG | cmqc.MQGMO_BROWSE_NEXT
        while True:
            number += 1
            if number == 1:
                lines_printed = 29
            else:
                out("\n ")
                lines_printed = 22
            md = mqlite.MD()
            try:
                body = queue.get(None, md, mqlite.GMO(Options=options))
            except MQMIError as error:
                if error.reason == MQRC_NO_MSG_AVAILABLE:
                    out("\n \n \n No more messages ")
                else:
                    out(f"\n MQGET {number}, failed with CompCode:{error.comp} Reason:{error.reason}")
                    code = cmqc.MQCC_FAILED
                break
            data = bytes(body)
            lengths.append(len(data))
            truncated = len(data) > BUFFER_LENGTH  # IBM's sample took 64 KB of it: a warning
            out(f"\n \n MQGET of message number {number}, CompCode:{int(truncated)} Reason:{2079 if truncated else 0}")
            out(md_text(md))
            if prop_option == 1:
                out(properties_text(dict(getattr(body, "properties", {}) or {})))
            text, lines_printed = body_text(data, lines_printed)
            out(text.encode("latin-1"))
    out(summary_text(lengths))
    if queue is not None:
        if prop_option == 1:
            out("\n MQDLTMH")
        out("\n MQCLOSE")
        queue.close()
    out("\n MQDISC")
    try:
        qm.disconnect()
    except (MQMIError, OSError) as error:
        out(f"\n  failed with CompCode:2, Reason:{getattr(error, 'reason', MQRC_Q_MGR_NOT_AVAILABLE)}")
    out("\n")
    return code


# -- amqspub / amqssub ------------------------------------------------------------------------
def run_pub(args: Sequence[str], client: bool = False, stdin: IO[bytes] | None = None,
            out: Output | None = None) -> int:
    """amqspub TOPIC [QM]: each line of stdin published on the topic string."""
    from mqlite.client import MQMIError
    from mqlite.client import public as mqlite

    out = out or Output()
    stdin = stdin or sys.stdin.buffer
    out("Sample AMQSPUB0 start\n")
    if not args:
        out("Required parameter missing - topic string\n")
        return RC_MISSING
    out(f"target topic is {args[0]}\n")
    qm, reason = connect(args[1] if len(args) > 1 else "", client)
    if qm is None:
        out(f"MQCONNX ended with reason code {reason}\n")
        return reason
    try:
        topic = mqlite.Topic(qm, topic_string=args[0], open_opts=cmqc.MQOO_OUTPUT | cmqc.MQOO_FAIL_IF_QUIESCING)
    except MQMIError as error:
        out(f"MQOPEN ended with reason code {error.reason}\n")
        out("unable to open topic for publish\n")
        topic = None
    if topic is not None:
        for line in _lines(stdin):
            try:
                topic.pub(line, mqlite.MD(Format=cmqc.MQFMT_STRING))
            except MQMIError as error:
                out(f"MQPUT ended with reason code {error.reason}\n")
                break
        _close(topic, out)
    _disconnect(qm, out)
    out("Sample AMQSPUB0 end\n")
    return 0


def run_sub(args: Sequence[str], client: bool = False, out: Output | None = None) -> int:
    """amqssub TOPIC [QM]: a managed non-durable subscription; print each publication until
    none comes for 30 seconds."""
    from mqlite.client import MQMIError
    from mqlite.client import public as mqlite

    out = out or Output()
    out("Sample AMQSSUB0 start\n")
    if not args:
        out("Required parameter missing - topic string\n")
        return RC_MISSING
    qm, reason = connect(args[1] if len(args) > 1 else "", client)
    if qm is None:
        out(f"MQCONNX ended with reason code {reason}\n")
        return reason
    try:
        subscription = mqlite.Subscription(qm, args[0])
    except MQMIError as error:
        out(f"MQSUB ended with reason code {error.reason}\n")
        subscription = None
    if subscription is not None:
        wait = _wait(30.0)
        while True:
            out(f"Calling MQGET : {wait:g} seconds wait time\n")
            try:
                message = subscription.get(wait=wait) if wait else subscription.get()
            except MQMIError as error:
                out("no more messages\n" if error.reason == MQRC_NO_MSG_AVAILABLE
                    else f"MQGET ended with reason code {error.reason}\n")
                break
            out(b"message <" + bytes(message.body) + b">\n")
        try:
            subscription.close(cmqc.MQCO_REMOVE_SUB, close_sub_queue=True)
        except MQMIError as error:
            out(f"MQCLOSE ended with reason code {error.reason}\n")
    _disconnect(qm, out)
    out("Sample AMQSSUB0 end\n")
    return 0


# -- entry points: console scripts and mqlite subcommands -------------------------------------
def _main(run: Callable[..., int], client: bool) -> Callable[[], None]:
    def entry() -> None:
        try:
            code = run(sys.argv[1:], client)
        except KeyboardInterrupt:
            code = 130
        except BrokenPipeError:
            code = 1
        sys.exit(code)

    entry.__doc__ = run.__doc__
    return entry


amqsput, amqsputc = _main(run_put, False), _main(run_put, True)
amqsget, amqsgetc = _main(run_get, False), _main(run_get, True)
amqsbcg, amqsbcgc = _main(run_browse, False), _main(run_browse, True)
amqspub, amqspubc = _main(run_pub, False), _main(run_pub, True)
amqssub, amqssubc = _main(run_sub, False), _main(run_sub, True)


def _command(name: str, run: Callable[..., int], client: bool) -> click.Command:
    @click.command(name=name, context_settings={"ignore_unknown_options": True, "help_option_names": []},
                   help=("As a client, through MQSERVER: " if client else "") + (run.__doc__ or "").split("\n")[0])
    @click.argument("args", nargs=-1, type=click.UNPROCESSED)
    def command(args: tuple[str, ...]) -> None:
        click.get_current_context().exit(run(list(args), client))

    return command


COMMANDS: tuple[click.Command, ...] = tuple(
    _command(name + suffix, run, suffix == "c")
    for name, run in (("amqsput", run_put), ("amqsget", run_get), ("amqsbcg", run_browse),
                      ("amqspub", run_pub), ("amqssub", run_sub))
    for suffix in ("", "c")
)
