"""runmqsc at a terminal: each command runs when it is complete, numbered as one session."""

from __future__ import annotations

import os
import pty
import select
import sys
import time
from pathlib import Path

import pytest

import mqlite
from mqlite.cli.admin import run_interactive

QM = "TTY.QM"


def test_commands_run_one_by_one_with_session_numbering(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with mqlite.embedded(QM, home=tmp_path):
        qm = mqlite.connect(QM)
        code = run_interactive(qm, iter([
            "* a comment\n",
            "DEFINE QLOCAL(T.Q) +\n",
            "  DESCR('typed at a terminal')\n",
            "DISPLAY QLOCAL(T.Q) DESCR\n",
            "DEFINE QLOCAL(T.Q)\n",  # exists: fails
            "END\n",
            "DELETE QLOCAL(T.Q)\n",  # after END: never runs
        ]))
        out = capsys.readouterr().out.splitlines()
        assert code == 10
        assert out[0].startswith("     1 : DEFINE QLOCAL(T.Q)")
        assert "AMQ8006I: WebSphere MQ queue created." in out
        assert any(line.startswith("     2 : DISPLAY QLOCAL(T.Q)") for line in out)
        assert any("DESCR(typed at a terminal)" in line for line in out)
        assert any(line.startswith("     3 : DEFINE QLOCAL(T.Q)") for line in out)
        assert out[-3:] == ["3 MQSC commands read.", "No commands have a syntax error.",
                            "One valid MQSC command could not be processed."]
        assert qm.mqsc("DISPLAY QLOCAL(T.Q)\n")[0] == 0  # the DELETE after END did not run
        qm.disconnect()


def test_runmqsc_on_a_real_terminal(tmp_path: Path) -> None:
    """The real command on a pseudo-terminal answers each command before the next is typed."""
    mqlite_bin = Path(sys.executable).with_name("mqlite")
    with mqlite.embedded(QM, home=tmp_path):
        pid, fd = pty.fork()
        if pid == 0:  # the child: runmqsc with the terminal as stdin
            os.execve(str(mqlite_bin), [str(mqlite_bin), "runmqsc", QM], {**os.environ, "MQLITE_HOME": str(tmp_path)})
        try:
            def read_until(marker: str, timeout: float = 20.0) -> str:
                seen = ""
                deadline = time.monotonic() + timeout
                while marker not in seen and time.monotonic() < deadline:
                    if select.select([fd], [], [], 0.2)[0]:
                        try:
                            seen += os.read(fd, 65536).decode(errors="replace")
                        except OSError:
                            break
                return seen

            assert "Starting MQSC" in read_until("Starting MQSC")
            os.write(fd, b"DEFINE QLOCAL(PTY.Q)\n")
            assert "AMQ8006I" in read_until("AMQ8006I")  # answered before anything else is typed
            os.write(fd, b"END\n")
            assert "1 MQSC commands read." in read_until("commands read.")
        finally:
            _, status = os.waitpid(pid, 0)
            os.close(fd)
        assert os.waitstatus_to_exitcode(status) == 0


