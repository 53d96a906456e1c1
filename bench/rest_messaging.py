"""``rest_messaging`` (``bench/rest.py --case rest_messaging``): the messaging REST API's put and
get rates beside the native client's in the same run (issue 33's benchmark).

One queue manager, the web server ``mqlite strmqweb`` starts beside it, one user of the queue
manager's users file. A round puts ``--messages`` text messages of 100 bytes (non-persistent)
and then gets them: through REST (``POST .../messaging/qmgr/{qm}/queue/{q}/message``, then
``DELETE`` on the same path, one keep-alive HTTP/1.1 connection, basic authentication, the CSRF
header), or through the native client (MQPUT, then MQGET, one connection). Rounds alternate;
each rate is the median of its rounds, and the ratio REST over native is the median of the
rounds' ratios. The queue manager's and the web server's CPU time during the REST rounds, per
REST call, is less sensitive than the rates to other work on the machine.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from p2p import QM, mqsc, start_qmgr, stop_qmgr

import mqlite
from mqlite import cmqc as C

QUEUE = "APP.REST"
USER, PASSWORD = "benchrest", "bench-rest-pw-1"
BODY = "x" * 100


def _mqlite(home: str, *args: str, env: dict[str, str] | None = None) -> None:
    command = str(Path(sys.executable).with_name("mqlite"))
    subprocess.run([command, *args], env={**os.environ, "MQLITE_HOME": home, **(env or {})}, check=True,
                   capture_output=True)


def _web(home: str) -> tuple[str, int]:
    """``mqlite strmqweb`` on a port the system picks: (the REST base URL, the server's pid)."""
    _mqlite(home, "setmqweb", "properties", "-k", "httpHost", "-v", "127.0.0.1")
    _mqlite(home, "setmqweb", "properties", "-k", "httpPort", "-v", "0")
    _mqlite(home, "strmqweb")
    endpoints = json.loads((Path(home) / "web" / "endpoints.json").read_text())
    return f"http://127.0.0.1:{endpoints['port']}/ibmmq/rest/v2", int(endpoints["pid"])


def _rest_round(client: httpx.Client, base: str, count: int) -> tuple[float, float]:
    url = f"{base}/messaging/qmgr/{QM}/queue/{QUEUE}/message"
    began = time.perf_counter()
    for _ in range(count):
        response = client.post(url, content=BODY, headers={"Content-Type": "text/plain;charset=utf-8"})
        if response.status_code not in (200, 201):
            raise SystemExit(f"REST put: {response.status_code} {response.text}")
    put = time.perf_counter() - began
    began = time.perf_counter()
    for _ in range(count):
        response = client.delete(url)
        if response.status_code != 200 or response.text != BODY:
            raise SystemExit(f"REST get: {response.status_code} {response.text[:200]}")
    return count / put, count / (time.perf_counter() - began)


def _cpu_seconds(pid: int) -> float:
    """A process's user and system CPU time so far (Linux's /proc/PID/stat), in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _native_round(queue: mqlite.Queue, count: int) -> tuple[float, float]:
    data = BODY.encode()
    began = time.perf_counter()
    for _ in range(count):
        queue.put(data, mqlite.MD(Format=C.MQFMT_STRING.encode()))
    put = time.perf_counter() - began
    began = time.perf_counter()
    for _ in range(count):
        queue.get(None, mqlite.MD(), mqlite.GMO(Options=C.MQGMO_NO_SYNCPOINT))
    return count / put, count / (time.perf_counter() - began)


def rest_messaging(count: int, rounds: int) -> dict[str, object]:
    home = tempfile.mkdtemp(prefix="mqlite-bench-rest-")
    proc = start_qmgr(home)
    web_pid: int | None = None
    try:
        mqsc(f"DEFINE QLOCAL({QUEUE}) MAXDEPTH(999999999)\n"
             f"SET AUTHREC PROFILE('{QUEUE}') OBJTYPE(QUEUE) PRINCIPAL('{USER}') AUTHADD(PUT,GET,INQ,BROWSE)\n"
             f"SET AUTHREC OBJTYPE(QMGR) PRINCIPAL('{USER}') AUTHADD(CONNECT,INQ)\n")
        _mqlite(home, "passwd", "-m", QM, "-g", "benchrest", USER, env={"MQLITE_PASSWORD": PASSWORD})
        base, web_pid = _web(home)
        rates: dict[str, list[tuple[float, float]]] = {"rest": [], "native": []}
        cpu = {"qmgr": 0.0, "web": 0.0}  # during the REST rounds: less sensitive to a busy machine than rates
        with httpx.Client(auth=(USER, PASSWORD), headers={"ibm-mq-rest-csrf-token": "bench"}, timeout=60) as client, \
                mqlite.connect(QM) as qm, mqlite.Queue(qm, QUEUE, C.MQOO_OUTPUT | C.MQOO_INPUT_SHARED) as queue:
            _rest_round(client, base, 50)  # the connections made, the first login checked
            for round_ in range(rounds):
                order = ("rest", "native") if round_ % 2 == 0 else ("native", "rest")
                for way in order:
                    if way == "native":
                        rates[way].append(_native_round(queue, count))
                        continue
                    before = _cpu_seconds(proc.pid), _cpu_seconds(web_pid)
                    rates[way].append(_rest_round(client, base, count))
                    cpu["qmgr"] += _cpu_seconds(proc.pid) - before[0]
                    cpu["web"] += _cpu_seconds(web_pid) - before[1]
    finally:
        if web_pid is not None:
            _mqlite(home, "endmqweb")
        stop_qmgr(proc)

    def median(way: str, index: int) -> int:
        return round(statistics.median(r[index] for r in rates[way]))

    return {"bench": "rest", "case": "rest_messaging", "messages": count, "rounds": rounds, "bytes": len(BODY),
            "rest_puts_per_s": median("rest", 0), "rest_gets_per_s": median("rest", 1),
            "native_puts_per_s": median("native", 0), "native_gets_per_s": median("native", 1),
            "put_rest_over_native": round(statistics.median(
                r[0] / n[0] for r, n in zip(rates["rest"], rates["native"], strict=True)), 3),
            "get_rest_over_native": round(statistics.median(
                r[1] / n[1] for r, n in zip(rates["rest"], rates["native"], strict=True)), 3),
            # CPU microseconds per REST call (puts and gets together) of each process
            "rest_qmgr_cpu_us_per_call": round(cpu["qmgr"] / (2 * count * rounds) * 1e6),
            "rest_web_cpu_us_per_call": round(cpu["web"] / (2 * count * rounds) * 1e6)}
