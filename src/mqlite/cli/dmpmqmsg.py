"""dmpmqmsg (formerly qload): unload a queue to a file, load a file into a queue, or copy queues.

    mqlite dmpmqmsg -m QM -i Q -f FILE     unload by browsing (the queue keeps its messages)
    mqlite dmpmqmsg -m QM -I Q -f FILE     unload destructively (the queue is emptied)
    mqlite dmpmqmsg -m QM -o Q -f FILE     load the file's messages onto Q
    mqlite dmpmqmsg -m QM -i Q1 -o Q2      copy (or with -I, move) between queues

Without -f the file is stdout (unload) or stdin (load). Loads keep every MQMD field, the
context included (MQPMO_SET_ALL_CONTEXT), and the message properties. A destructive unload
takes messages under syncpoint and commits only after the file is flushed to disk, so an
interrupted run loses nothing. The file format is in ``dmpfile``.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, Any

import click

from mqlite.cli import dmpfile, queues
from mqlite.cli.common import fail
from mqlite.cli.connection import connect, connection_options, target_from_options
from mqlite.message import Message

if TYPE_CHECKING:
    from mqlite.client.pymqi_api import Queue, QueueManager


@dataclass
class Counts:
    """What a run read and wrote, for the closing summary (IBM prints both lines)."""

    read_files: int = 0
    read_messages: int = 0
    read_bytes: int = 0
    written_files: int = 0
    written_messages: int = 0
    written_bytes: int = 0

    def lines(self) -> list[str]:
        return [
            f"Read    - Files: {self.read_files:3d}  Messages: {self.read_messages:9d}  "
            f"Bytes: {self.read_bytes:12d}",
            f"Written - Files: {self.written_files:3d}  Messages: {self.written_messages:9d}  "
            f"Bytes: {self.written_bytes:12d}",
        ]


@click.command()
@connection_options
@click.option("-i", "browse_queue", default=None, metavar="QUEUE",
              help="Input queue, browsed (messages stay).")
@click.option("-I", "get_queue", default=None, metavar="QUEUE",
              help="Input queue, read destructively (messages are removed).")
@click.option("-o", "output_queue", default=None, metavar="QUEUE", help="Output queue.")
@click.option("-f", "file", default=None, metavar="FILE",
              help="File to write (unload) or read (load); '-' or omitted: stdout/stdin.")
@click.option("-F", "force_file", default=None, metavar="FILE",
              help="Like -f, overwriting an existing file.")
@click.option("-t", "batch", type=click.IntRange(min=1), default=100, show_default=True,
              help="Messages per unit of work for a destructive unload.")
@click.option("-q", "quiet", is_flag=True, help="Quiet: no summary, no progress.")
@click.option("--progress/--no-progress", default=None,
              help="Show a progress bar (default: when stderr is a terminal).")
def dmpmqmsg(browse_queue: str | None, get_queue: str | None, output_queue: str | None,
             file: str | None, force_file: str | None, batch: int, quiet: bool,
             progress: bool | None, **options: Any) -> None:
    """Unload a queue to a file, load a file into a queue, or copy between queues."""
    if browse_queue and get_queue:
        fail("Specify only one of -i and -I.", 2)
    if file and force_file:
        fail("Specify only one of -f and -F.", 2)
    input_queue = browse_queue or get_queue
    path = force_file or file
    if not input_queue and not output_queue:
        fail("Specify an input queue (-i or -I) or an output queue (-o), or both.", 2)
    if input_queue and output_queue and path:
        fail("-f names a file: use it with -i/-I (unload) or with -o (load), not both.", 2)
    show = not quiet and (progress if progress is not None else sys.stderr.isatty())
    counts = Counts()
    target = target_from_options(options)
    with connect(target) as qm:
        if input_queue and output_queue:
            _copy(qm, input_queue, output_queue, get_queue is not None, batch, show, counts)
        elif input_queue:
            _unload(qm, target.qmgr or qm.name, input_queue, path, force_file is not None,
                    get_queue is not None, batch, show, counts)
        else:
            assert output_queue is not None
            _load(qm, output_queue, path, show, counts)
    if not quiet:
        # The summary goes to stdout unless stdout is carrying the file itself.
        to_stderr = input_queue is not None and not output_queue and path in (None, "-")
        for line in counts.lines():
            click.echo(line, err=to_stderr)


class _Progress:
    """A rich progress bar on stderr, or nothing at all when not wanted."""

    def __init__(self, show: bool, description: str, total: float | None) -> None:
        self._bar: Any = None
        if show:
            from rich.console import Console
            from rich.progress import Progress

            self._bar = Progress(console=Console(stderr=True), transient=False)
            self._task = self._bar.add_task(description, total=total)

    def __enter__(self) -> _Progress:
        if self._bar is not None:
            self._bar.start()
        return self

    def advance(self, amount: float = 1) -> None:
        if self._bar is not None:
            self._bar.advance(self._task, amount)

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.stop()


def _read_messages(q: Queue, destructive: bool) -> Iterator[Message]:
    if destructive:
        while (message := queues.get(q, syncpoint=True)) is not None:
            yield message
    else:
        yield from queues.browse_all(q)


def _open_input(qm: QueueManager, name: str, destructive: bool) -> Queue:
    return queues.open_queue(qm, name, input=destructive, browse=not destructive, inquire=True)


def _unload(qm: QueueManager, qmgr: str, queue: str, path: str | None, force: bool, destructive: bool,
            batch: int, show: bool, counts: Counts) -> None:
    to_stdout = path in (None, "-")
    if not to_stdout and os.path.exists(str(path)) and not force:
        fail(f"File '{path}' already exists; use -F to overwrite it.", 2)
    q = _open_input(qm, queue, destructive)
    out: IO[str] = (
        sys.stdout if to_stdout else open(str(path), "w", encoding="utf-8")  # noqa: SIM115
    )
    try:
        out.write(dmpfile.encode_header(qmgr, queue))
        pending = 0
        with _Progress(show, f"Unloading {queue}", queues.current_depth(q)) as bar:
            for message in _read_messages(q, destructive):
                out.write(dmpfile.encode_message(message))
                counts.read_messages += 1
                counts.read_bytes += len(message.body)
                pending += 1
                if destructive and pending >= batch:
                    _durable(out)
                    qm.commit()
                    pending = 0
                bar.advance()
        _durable(out)
        if destructive:
            qm.commit()
    except BaseException:
        if destructive:
            _backout(qm)
        raise
    finally:
        queues.close(q)
        if not to_stdout:
            out.close()
    counts.written_files = 1
    counts.written_messages = counts.read_messages
    counts.written_bytes = counts.read_bytes


def _durable(out: IO[str]) -> None:
    """Flush the file to disk before the gets it holds are committed."""
    out.flush()
    with contextlib.suppress(OSError, ValueError):  # a pipe or terminal: nothing more to do
        os.fsync(out.fileno())


def _backout(qm: QueueManager) -> None:
    with contextlib.suppress(Exception):
        qm.backout()


def _load(qm: QueueManager, queue: str, path: str | None, show: bool, counts: Counts) -> None:
    from_stdin = path in (None, "-")
    if not from_stdin:
        if not os.path.isfile(str(path)):
            fail(f"File '{path}' does not exist.", 2)
        _check_file(str(path))
    source: IO[str] = sys.stdin if from_stdin else open(str(path), encoding="utf-8")  # noqa: SIM115
    total = None if from_stdin else os.path.getsize(str(path))
    q = queues.open_queue(qm, queue, output=True, set_all_context=True)
    try:
        with _Progress(show, f"Loading {queue}", total) as bar:
            for message in dmpfile.decode(_counting(source, bar)):
                queues.put_message(q, message, set_all_context=True)
                counts.written_messages += 1
                counts.written_bytes += len(message.body)
    except dmpfile.DumpFormatError as e:
        fail(f"{path or 'stdin'}: {e} ({counts.written_messages} messages were loaded)", 1)
    finally:
        queues.close(q)
        if not from_stdin:
            source.close()
    counts.read_files = 1
    counts.read_messages = counts.written_messages
    counts.read_bytes = counts.written_bytes


def _check_file(path: str) -> None:
    """Read the whole file once first, so a damaged file loads nothing rather than half."""
    try:
        with open(path, encoding="utf-8") as f:
            for _ in dmpfile.decode(f):
                pass
    except dmpfile.DumpFormatError as e:
        fail(f"{path}: {e}; nothing was loaded.", 1)
    except UnicodeDecodeError as e:
        fail(f"{path}: not a UTF-8 text file ({e}); nothing was loaded.", 1)


def _counting(lines: IO[str], bar: _Progress) -> Iterator[str]:
    for line in lines:
        bar.advance(len(line))
        yield line


def _copy(qm: QueueManager, source: str, destination: str, destructive: bool, batch: int, show: bool,
          counts: Counts) -> None:
    q_in = _open_input(qm, source, destructive)
    q_out = queues.open_queue(qm, destination, output=True, set_all_context=True)
    pending = 0
    try:
        with _Progress(show, f"Copying {source}", queues.current_depth(q_in)) as bar:
            for message in _read_messages(q_in, destructive):
                queues.put_message(q_out, message, set_all_context=True, syncpoint=destructive)
                counts.read_messages += 1
                counts.read_bytes += len(message.body)
                pending += 1
                if destructive and pending >= batch:
                    qm.commit()
                    pending = 0
                bar.advance()
        if destructive:
            qm.commit()
    except BaseException:
        if destructive:
            _backout(qm)
        raise
    finally:
        queues.close(q_in)
        queues.close(q_out)
    counts.written_messages = counts.read_messages
    counts.written_bytes = counts.read_bytes
