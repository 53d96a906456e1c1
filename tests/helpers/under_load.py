"""Run a command with every core busy: the proof that a test holds on a loaded machine too.

    .venv/bin/python tests/helpers/under_load.py [--hogs N] [--pids-file PATH] -- COMMAND...

starts N CPU hogs (``python -c 'while 1: pass'``, default one per core), runs COMMAND, then ends
the hogs by their pids (also when COMMAND fails, or on Ctrl-C or SIGTERM) and exits with
COMMAND's code. ``--pids-file`` writes the hogs' pids there, one a line, before COMMAND starts
(its unit test checks by them that the hogs are gone). ``make test-loaded`` runs ``make test``'s
pytest this way. A test that passes here and on an idle machine depends on no clock.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import Iterator, Sequence
from types import FrameType

HOG = "while 1: pass"


def cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


@contextlib.contextmanager
def hogs(count: int) -> Iterator[list[int]]:
    """``count`` CPU-hog processes for the ``with`` block; their pids."""
    started: list[subprocess.Popen[bytes]] = []
    try:
        for _ in range(count):
            started.append(subprocess.Popen([sys.executable, "-c", HOG], stdin=subprocess.DEVNULL))
        yield [hog.pid for hog in started]
    finally:
        for hog in started:  # by pid, each one this script started, never by name
            with contextlib.suppress(ProcessLookupError):
                hog.kill()
        for hog in started:
            hog.wait()


def _terminated(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt  # unwinds through hogs(), which ends them


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     usage="%(prog)s [--hogs N] [--pids-file PATH] -- COMMAND...")
    parser.add_argument("--hogs", type=int, default=cores(), help="CPU hogs to start (default: one per core)")
    parser.add_argument("--pids-file", help="write the hogs' pids here, one a line")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("no COMMAND given")
    signal.signal(signal.SIGTERM, _terminated)
    with hogs(max(0, args.hogs)) as pids:
        if args.pids_file:
            with open(args.pids_file, "w") as out:
                out.write("".join(f"{pid}\n" for pid in pids))
        print(f"under_load: {len(pids)} CPU hogs (pids {' '.join(map(str, pids))})", file=sys.stderr, flush=True)
        try:
            child = subprocess.Popen(command)
        except OSError as error:  # no such command: the hogs still end
            print(f"under_load: {error}", file=sys.stderr)
            return 127
        try:
            return child.wait()
        except KeyboardInterrupt:
            child.send_signal(signal.SIGINT)  # the command ends first, then the hogs
            try:
                child.wait(timeout=30)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()
            return 130


if __name__ == "__main__":
    sys.exit(main())
