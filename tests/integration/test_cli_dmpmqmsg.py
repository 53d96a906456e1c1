"""dmpmqmsg through the real `mqlite` command: unload, load, copy; MQMD fields survive."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from helpers.credentials import APP, client_env

RunCli = Callable[..., Any]


def _setup(run_cli: RunCli, qmgr: str, *queues: str, lines: str = "one\ntwo\nthree\n") -> None:
    mqsc = "".join(f"DEFINE QLOCAL({q})\n" for q in queues)
    assert run_cli("runmqsc", qmgr, input=mqsc).returncode == 0
    assert run_cli("put", "-m", qmgr, queues[0], input=lines).returncode == 0


def _records(path: Path) -> list[str]:
    """The file without its comment header: what must be identical after a round trip."""
    return [line for line in path.read_text().splitlines() if not line.startswith("*")]


def test_unload_browse_then_load_round_trip(qmgr: Any, run_cli: RunCli, tmp_path: Path) -> None:
    _setup(run_cli, qmgr.name, "SRC.Q", "DST.Q")
    dump = tmp_path / "src.dmp"
    unload = run_cli("dmpmqmsg", "-m", qmgr.name, "-i", "SRC.Q", "-f", str(dump))
    assert unload.returncode == 0, unload.stderr
    assert "Messages:         3" in unload.stdout
    text = dump.read_text()
    assert text.startswith("* Dmpmqmsg Version:")
    assert [line for line in text.splitlines() if line == "N"] == ["N"] * 3
    assert 'S "two"' in text and "A FMT MQSTR" in text
    # -i browses: the source queue still holds its messages.
    assert run_cli("browse", "-m", qmgr.name, "SRC.Q").stdout == "one\ntwo\nthree\n"

    load = run_cli("dmpmqmsg", "-m", qmgr.name, "-o", "DST.Q", "-f", str(dump))
    assert load.returncode == 0, load.stderr
    assert run_cli("browse", "-m", qmgr.name, "DST.Q").stdout == "one\ntwo\nthree\n"

    again = tmp_path / "dst.dmp"
    assert run_cli("dmpmqmsg", "-m", qmgr.name, "-i", "DST.Q", "-f", str(again)).returncode == 0
    # Every MQMD field (ids, put date and time, user, application) survived the trip.
    assert _records(again) == _records(dump)


def test_destructive_unload_empties_the_queue(qmgr: Any, run_cli: RunCli, tmp_path: Path) -> None:
    _setup(run_cli, qmgr.name, "SRC.Q", lines="".join(f"message {i}\n" for i in range(250)))
    dump = tmp_path / "all.dmp"
    result = run_cli("dmpmqmsg", "-m", qmgr.name, "-I", "SRC.Q", "-f", str(dump), "-t", "100")
    assert result.returncode == 0, result.stderr
    assert "Messages:       250" in result.stdout
    assert run_cli("browse", "-m", qmgr.name, "SRC.Q").stdout == ""
    assert dump.read_text().count("\nN\n") == 250


def test_existing_file_needs_capital_f(qmgr: Any, run_cli: RunCli, tmp_path: Path) -> None:
    _setup(run_cli, qmgr.name, "SRC.Q")
    dump = tmp_path / "exists.dmp"
    dump.write_text("keep me\n")
    refused = run_cli("dmpmqmsg", "-m", qmgr.name, "-i", "SRC.Q", "-f", str(dump))
    assert refused.returncode != 0
    assert dump.read_text() == "keep me\n"
    forced = run_cli("dmpmqmsg", "-m", qmgr.name, "-i", "SRC.Q", "-F", str(dump))
    assert forced.returncode == 0, forced.stderr
    assert "N" in dump.read_text().splitlines()


def test_stdout_unload_and_stdin_load(qmgr: Any, run_cli: RunCli) -> None:
    _setup(run_cli, qmgr.name, "SRC.Q", "DST.Q")
    unload = run_cli("dmpmqmsg", "-m", qmgr.name, "-i", "SRC.Q")
    assert unload.returncode == 0, unload.stderr
    assert unload.stdout.startswith("* Dmpmqmsg Version:")
    assert "Messages:" in unload.stderr  # the summary keeps out of the data
    load = run_cli("dmpmqmsg", "-m", qmgr.name, "-o", "DST.Q", input=unload.stdout)
    assert load.returncode == 0, load.stderr
    assert run_cli("browse", "-m", qmgr.name, "DST.Q").stdout == "one\ntwo\nthree\n"


def test_queue_to_queue_copy(qmgr: Any, run_cli: RunCli) -> None:
    _setup(run_cli, qmgr.name, "SRC.Q", "DST.Q")
    result = run_cli("dmpmqmsg", "-m", qmgr.name, "-i", "SRC.Q", "-o", "DST.Q")
    assert result.returncode == 0, result.stderr
    assert run_cli("browse", "-m", qmgr.name, "DST.Q").stdout == "one\ntwo\nthree\n"
    assert run_cli("browse", "-m", qmgr.name, "SRC.Q").stdout == "one\ntwo\nthree\n"


def test_damaged_file_loads_nothing(qmgr: Any, run_cli: RunCli, tmp_path: Path) -> None:
    _setup(run_cli, qmgr.name, "DST.Q", lines="")
    bad = tmp_path / "bad.dmp"
    bad.write_text('N\nS "fine"\nN\nA PRI seven\n')
    result = run_cli("dmpmqmsg", "-m", qmgr.name, "-o", "DST.Q", "-f", str(bad))
    assert result.returncode != 0
    assert "line 4" in result.stderr
    assert run_cli("browse", "-m", qmgr.name, "DST.Q").stdout == ""


def test_client_mode(qmgr: Any, run_cli: RunCli, tmp_path: Path) -> None:
    _setup(run_cli, qmgr.name, "SRC.Q")
    dump = tmp_path / "client.dmp"
    result = run_cli("dmpmqmsg", "-c", qmgr.conn, "-u", APP.user, "-i", "SRC.Q", "-f", str(dump), env=client_env())
    assert result.returncode == 0, result.stderr
    assert dump.read_text().count("\nN\n") == 3


def test_properties_and_descriptor_fields_survive(
    qmgr: Any, run_cli: RunCli, tmp_path: Path
) -> None:
    import mqlite

    assert run_cli("runmqsc", qmgr.name, input="DEFINE QLOCAL(SRC.Q)\nDEFINE QLOCAL(DST.Q)\n"
                   ).returncode == 0
    props = {"colour": "red", "count": 7, "ratio": 0.5, "urgent": True, "blob": b"\x00\x01"}
    qm = mqlite.connect(qmgr.name)
    try:
        md = mqlite.MD(Format=mqlite.CMQC.MQFMT_STRING, Priority=8,
                       Persistence=mqlite.CMQC.MQPER_PERSISTENT, MsgId=b"M" * 24,
                       CorrelId=b"C" * 24, ReplyToQ="REPLY.Q", ReplyToQMgr="QMR")
        mqlite.Queue(qm, "SRC.Q").put(b"\x00binary\xffbody", md, properties=props)
    finally:
        qm.disconnect()

    dump = tmp_path / "props.dmp"
    assert run_cli("dmpmqmsg", "-m", qmgr.name, "-i", "SRC.Q", "-f", str(dump)).returncode == 0
    assert "P colour string \"red\"" in dump.read_text()
    load = run_cli("dmpmqmsg", "-m", qmgr.name, "-o", "DST.Q", "-f", str(dump))
    assert load.returncode == 0, load.stderr

    qm = mqlite.connect(qmgr.name)
    try:
        original = mqlite.Queue(qm, "SRC.Q").get(wait=1)
        copy = mqlite.Queue(qm, "DST.Q").get(wait=1)
    finally:
        qm.disconnect()
    assert bytes(copy) == bytes(original) == b"\x00binary\xffbody"
    assert copy.properties == original.properties == props
    for field in ("MsgId", "CorrelId", "Format", "Priority", "Persistence", "ReplyToQ",
                  "ReplyToQMgr", "PutDate", "PutTime", "UserIdentifier", "PutApplName"):
        assert getattr(copy.md, field) == getattr(original.md, field), field
