"""The queue manager process: ``python -m mqlite.server QM`` (what ``strmqm`` starts).

One queue manager is one process with one event loop. An exclusive lock on the queue
manager's directory makes a second instance refuse to start; SIGTERM ends it controlled,
SIGINT immediately. The error log is ``AMQERR01.LOG`` in the queue manager's directory.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import gc
import logging
import os
import signal
import sys
import time
from logging.handlers import RotatingFileHandler
from pathlib import Path

from mqlite import paths
from mqlite.server.cpu_placement import CpuPlacement
from mqlite.server.host import QueueManagerHost

log = logging.getLogger("mqlite.server")

EXIT_OK = 0
EXIT_NOT_FOUND = 2
EXIT_RUNNING = 3
EXIT_START_FAILED = 4  # it could not start, and said why on stderr (strmqm prints just that)
STATUS_FILE = "status"
LOCK_FILE = "qmgr.lock"


def configure_logging(name: str) -> None:
    handler = RotatingFileHandler(paths.error_log_path(name), maxBytes=2 * 1024 * 1024, backupCount=2)
    handler.setFormatter(logging.Formatter(
        f"%(asctime)s - Process({os.getpid()}) QMgr({name})\n%(message)s\n", datefmt="%m/%d/%Y %I:%M:%S %p"
    ))
    root = logging.getLogger("mqlite")
    root.addHandler(handler)
    root.setLevel(logging.INFO)


async def serve(name: str, port: int | None) -> str:
    placement = CpuPlacement.from_environment(time.monotonic, paths.qmgrs_dir())
    host = QueueManagerHost(name, port)
    try:
        await host.start()
    except Exception as error:  # the details go to the error log, the operator gets IBM's message
        text = str(error) if str(error).startswith("AMQ") else (
            f"AMQ6109E: An internal WebSphere MQ error has occurred: {type(error).__name__}: {error}")
        log.error("AMQ8101E: queue manager %s could not start: %s", name, text, exc_info=True)
        raise StartFailed(text) from error
    if placement is not None and host.runtime is not None:  # after start: the store's writer is placed too
        placement.start(host.store.writer_thread_id if host.store is not None else None)
        host.runtime.tick_hooks.append(placement.tick)
    tune_gc()
    loop = asyncio.get_running_loop()
    ending: list[asyncio.Task[None]] = []

    def end(immediate: bool) -> None:
        ending.append(loop.create_task(host.stop(immediate)))

    loop.add_signal_handler(signal.SIGTERM, end, False)
    loop.add_signal_handler(signal.SIGINT, end, True)
    await host.ended.wait()
    return host.end_mode


class StartFailed(Exception):
    """The queue manager could not start; the message is what strmqm prints."""


def tune_gc() -> None:
    """Fewer, cheaper cyclic collections: a queue manager allocates a few objects per message and
    keeps queue entries for a long time, so the default thresholds collect far too often and each
    full collection walks every queued message. Reference counting still frees messages at once."""
    gc.collect()
    gc.freeze()  # what start-up built (definitions, recovered queue entries) is not scanned again
    gc.set_threshold(50_000, 50, 100)


def make_private(directory: Path) -> None:
    """The queue manager's data files (store, config, users, logs, keys) for its owner alone;
    the directory only traversable by others, so local users reach the socket in it and nothing
    else. What the process creates from now on is private too (umask)."""
    os.umask(0o077)
    directory.chmod(0o711)
    for entry in directory.iterdir():
        if entry.is_symlink() or entry.is_socket():
            continue
        entry.chmod(0o700 if entry.is_dir() else 0o600)


def run(name: str) -> int:
    directory = paths.qmgr_dir(name)
    if not directory.is_dir():
        print(f"AMQ7048E: queue manager {name} does not exist", file=sys.stderr)
        return EXIT_NOT_FOUND
    make_private(directory)
    lock = open(directory / LOCK_FILE, "w")  # noqa: SIM115 - held for the life of the process
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        print(f"AMQ8041E: queue manager {name} is already running", file=sys.stderr)
        return EXIT_RUNNING
    configure_logging(name)
    # Written as soon as the lock is held, so it is there whenever strmqm has returned.
    paths.pid_path(name).write_text(str(os.getpid()))
    config = paths.read_config(name)
    port = config.get("port")
    with contextlib.suppress(FileNotFoundError):
        (directory / STATUS_FILE).unlink()
    try:
        import uvloop

        asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    except ImportError:
        pass
    try:
        mode = asyncio.run(serve(name, port if isinstance(port, int) else None))  # 0: the system picks
    except StartFailed as failed:
        print(failed, file=sys.stderr)
        return EXIT_START_FAILED
    finally:
        with contextlib.suppress(FileNotFoundError):
            paths.pid_path(name).unlink()
    (directory / STATUS_FILE).write_text(mode)
    return EXIT_OK


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m mqlite.server QMGR", file=sys.stderr)
        return 1
    return run(args[0])
