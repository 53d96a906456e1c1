"""README.md runs as written: every ```sh and ```python block of it, taken from the file now.

How (tests/helpers/readme.py reads the blocks):

- One test per ``##`` section. Its blocks (its ``###`` subsections' too) run in README order in
  one temporary MQLITE_HOME and one temporary working directory, as a reader following the page
  in one terminal: a block may use the queue managers an earlier block of its section made.
- Shell blocks run in ``bash -e -o pipefail`` (a failing command or pipe fails the block), Python
  blocks in this interpreter, each in a new session (process group) with this venv's ``bin`` first
  on PATH; when the section ends, each group is ended by its id (TERM, then KILL), which ends what
  a block left in the background (``mosquitto_sub ... &``), and every queue manager started from
  the section's home (or a home a block made under its working directory) is ended
  (``helpers.qmgrs.reap``). Nothing else is touched.
- Before a block runs, the test rewrites three things in it: the README's example ports
  (``EXAMPLE_PORTS``: 1414, 1883, ...) become free ports picked now, each example port the same
  free port throughout its section; ``export MQLITE_HOME=...`` exports the temporary home; and
  ``/tmp/`` becomes the temporary working directory. Any other port number in a block fails
  ``test_readme_ports_are_examples`` (add it to ``EXAMPLE_PORTS``).
- A block passes when it exits 0 and everything its ``<!-- readme-test: expect TEXT -->`` (and
  ``expect-line TEXT``: a whole line) markers name has appeared in its output (background
  processes' too; waited for, not slept for). A ``<!-- readme-test: skip, REASON -->`` marker
  keeps a block from running (``make test`` itself)."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from helpers.ports import unused_port
from helpers.qmgrs import reap
from helpers.readme import Block, sections
from helpers.waiting import wait_until

README = Path(__file__).resolve().parents[2] / "README.md"
EXAMPLE_PORTS = (1414, 1415, 1416, 1417, 1418, 1419, 1883)
RUNNABLE = ("sh", "python")
BLOCK_TIMEOUT = 300.0  # a block that hangs (a README loop waiting in vain) fails its test
# Where a port number stands in the README's commands and code.
_PORT_USES = re.compile(r"(?:-p|--mqtt-port|PORT\(|port=|127\.0\.0\.1\(|localhost\()\s*(\d+)")

_SECTIONS = sections(README.read_text())
_RUN = {name: [b for b in found if b.language in RUNNABLE and b.skip is None]
        for name, found in _SECTIONS.items()}



def rewrite(code: str, home: Path, work: Path, ports: dict[int, int]) -> str:
    """The block as the test runs it: its own home, working directory and ports."""
    code = code.replace("/tmp/", f"{work}/")  # first: the paths put in below are under /tmp/ too
    code = re.sub(r"(?m)^(\s*export MQLITE_HOME=)\S+", lambda m: f"{m.group(1)}{home}", code)
    for example, port in ports.items():
        code = re.sub(rf"\b{example}\b", str(port), code)
    return code


def _end_group(pgid: int) -> None:
    """End process group ``pgid`` (one block's): TERM, then KILL what is left after 10 s."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(pgid, sig)
        except ProcessLookupError:
            return
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                os.killpg(pgid, 0)
            except ProcessLookupError:
                return
            time.sleep(0.05)


@pytest.fixture
def groups() -> Iterator[list[int]]:
    """The process groups the blocks ran in, ended after the test."""
    started: list[int] = []
    yield started
    for pgid in started:
        _end_group(pgid)


def run_block(block: Block, code: str, env: dict[str, str], work: Path, out: Path,
              groups: list[int]) -> None:
    command = ["bash", "-e", "-o", "pipefail", "-c", code] if block.language == "sh" else [
        sys.executable, "-c", code]
    where = f"README.md line {block.line} ({block.heading})"
    with out.open("wb") as sink:
        process = subprocess.Popen(command, cwd=work, env=env, stdin=subprocess.DEVNULL, stdout=sink,
                                   stderr=subprocess.STDOUT, start_new_session=True)
    groups.append(process.pid)
    try:
        code_ = process.wait(timeout=BLOCK_TIMEOUT)
    except subprocess.TimeoutExpired:
        raise AssertionError(f"{where} did not end:\n{code}\n--- output:\n{out.read_text()}") from None
    assert code_ == 0, f"{where} exited {code_}:\n{code}\n--- output:\n{out.read_text()}"
    with contextlib.suppress(AssertionError):  # what a block left in the background may still write
        wait_until(lambda: block.met(out.read_text(errors="replace")), "its expected output is written")
    assert block.met(out.read_text(errors="replace")), (
        f"{where}: not all of {block.expect + block.expect_lines} appeared in its output:\n{out.read_text()}")


@pytest.mark.parametrize("section", [name for name, found in _RUN.items() if found],
                         ids=lambda name: name or "top")
def test_readme_section_runs(section: str, tmp_path: Path, groups: list[int]) -> None:
    home, work = tmp_path / "mqhome", tmp_path / "work"
    home.mkdir()
    work.mkdir()
    text = "".join(b.code for b in _RUN[section])
    ports = {p: unused_port() for p in EXAMPLE_PORTS if re.search(rf"\b{p}\b", text)}
    env = {k: v for k, v in os.environ.items() if k not in ("MQSERVER", "MQLITE_PASSWORD")}
    env.update(MQLITE_HOME=str(home), PATH=f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}")
    try:
        for n, block in enumerate(_RUN[section]):
            run_block(block, rewrite(block.code, home, work, ports), env, work, tmp_path / f"block{n}.out",
                      groups)
    finally:
        for pgid in groups:
            _end_group(pgid)
        reap(home)
        for other in work.rglob("qmgrs"):  # a home a block named itself (under its /tmp/)
            reap(other.parent)


def test_readme_ports_are_examples() -> None:
    """Every port a README block names is one the test replaces (or 0: the system's choice)."""
    for found in _SECTIONS.values():
        for block in found:
            for port in _PORT_USES.findall(block.code):
                assert int(port) in (0, *EXAMPLE_PORTS), (
                    f"README.md line {block.line}: port {port} is not in EXAMPLE_PORTS")


def test_readme_skips_are_few() -> None:
    """Skipping is for what cannot run here: every skipped block gives its reason."""
    skipped = [b for found in _SECTIONS.values() for b in found if b.skip is not None]
    assert all(b.skip for b in skipped)
    assert len(skipped) <= 3, [f"line {b.line}: {b.skip}" for b in skipped]
