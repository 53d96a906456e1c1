"""The web server's costs (issue 33). Two cases:

- ``metrics_cost``: the native client's put rate (one producer, synchronous MQPUTs of 1 KB
  messages, non-persistent and persistent) with and without a ``/metrics`` scrape every second,
  over HTTP from the web server ``mqlite strmqweb`` starts (``--via collector``: a
  ``mqlite.web.metrics.Collector`` in the scraping process instead, as the web server runs it: one
  MQSC script of DISPLAYs, the resource monitoring publications that arrived since the last
  scrape, a browse of each non-empty one), against a queue manager with ``--queues`` application
  queues besides the one put to; ``cost_pct`` is the put rate lost (target: under 2%). The
  collector's subscriptions stay through both rounds of a pair (the queue manager publishes every
  10 s whether or not anyone scrapes), so the pairs compare scraping; what the publications cost
  is ``bench/monitor_cost.py``'s.

- ``console_first_load`` (``--case console_first_load``): the console's queue list page
  (``/console/qmgr/{qm}``) of a queue manager with ``--queues`` queues (10,000 by default for
  this case) loaded in Debian's chromium (Playwright, headless), logged in through the console's
  login page: the navigation's load time from the browser's own timing (navigation start to the
  load event), the median of ``--rounds`` loads after one not counted (target: under 1 s), with
  the time to its first byte (the server's DISPLAY and rendering) beside it.

- ``rest_messaging`` (``--case rest_messaging``): the messaging REST API's put and get rates
  beside the native client's, rounds alternating (``bench/rest_messaging.py``).

Rounds come in pairs, without and with the scrapes (the order alternating), and the cost is the
median of the pairs' ratios, since the machine's other load moves both rounds of a pair; beside
it, what a scrape costs in CPU, the queue manager's and the web server's (measured with nothing
else running), steadier than a rate on a shared machine.

Usage: ``python bench/rest.py [--case metrics_cost|console_first_load|rest_messaging] [--quick]
[--messages N] [--pairs N] [--seconds S]
[--queues N] [--via http|collector] [--rounds N]``;
prints one JSON line.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import multiprocessing.synchronize
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from p2p import QM, mqsc, start_qmgr, stop_qmgr
from rest_messaging import rest_messaging

import mqlite
from mqlite import cmqc as C
from mqlite.web.metrics import Collector

QUEUE = "APP.BENCH"


def scraper(home: str, url: str, every: float, active: mp.synchronize.Event, quit_: mp.synchronize.Event,
            out: mp.Queue[tuple[int, float, float, int]]) -> None:
    """While ``active``, a collection every ``every`` seconds (a GET of ``url``, or without one a
    ``Collector`` of this process's own); at ``quit_``, reports (scrapes, their wall seconds, their
    CPU seconds in this process, bytes of the last)."""
    os.environ["MQLITE_HOME"] = home
    collector = Collector(qmgrs=lambda: [QM])

    def scrape() -> str:
        if not url:
            return collector.text()
        with urllib.request.urlopen(url, timeout=60) as answer:
            return str(answer.read().decode())

    scrape()  # connected before the first round
    out.put((0, 0.0, 0.0, 0))
    count, wall, cpu, size = 0, 0.0, 0.0, 0
    while not quit_.is_set():
        if not active.wait(0.05):
            continue
        next_at = time.monotonic()
        while active.is_set():
            started, started_cpu = time.monotonic(), time.process_time()
            size = len(scrape())
            wall += time.monotonic() - started
            cpu += time.process_time() - started_cpu
            count += 1
            next_at += every
            while active.is_set() and time.monotonic() < next_at:
                time.sleep(min(0.01, max(0.0, next_at - time.monotonic())))
    collector.close()
    out.put((count, wall, cpu, size))


def put_rate(seconds: float, persistent: bool) -> float:
    """Synchronous puts for ``seconds``: messages a second."""
    with mqlite.connect(QM) as qm, mqlite.Queue(qm, QUEUE, C.MQOO_OUTPUT) as queue:
        md = mqlite.MD(Persistence=C.MQPER_PERSISTENT if persistent else C.MQPER_NOT_PERSISTENT)
        pmo = mqlite.PMO(Options=C.MQPMO_NO_SYNCPOINT)
        body = b"x" * 1024
        count = 0
        started = time.perf_counter()
        deadline = started + seconds
        while True:
            for _ in range(20):
                md.MsgId = C.MQMI_NONE
                queue.put(body, md, pmo)
            count += 20
            now = time.perf_counter()
            if now >= deadline:
                return count / (now - started)


def cpu_seconds(pid: int) -> float:
    """User and system CPU of process ``pid`` so far (/proc)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start_web(home: str) -> tuple[str, int]:
    """``mqlite strmqweb`` on a port the system picks: (the /metrics URL, the server's pid)."""
    env = {**os.environ, "MQLITE_HOME": home}
    mqlite_cmd = str(Path(sys.executable).with_name("mqlite"))
    for args in (["setmqweb", "properties", "-k", "httpHost", "-v", "127.0.0.1"],
                 ["setmqweb", "properties", "-k", "httpPort", "-v", "0"], ["strmqweb"]):
        subprocess.run([mqlite_cmd, *args], env=env, check=True, capture_output=True)
    endpoints = json.loads((Path(home) / "web" / "endpoints.json").read_text())
    return f"http://127.0.0.1:{endpoints['port']}/metrics", int(endpoints["pid"])


def cpu_state(pid: int) -> str:
    with open(f"/proc/{pid}/stat") as f:
        return f.read().rsplit(")", 1)[1].split()[0]


def metrics_cost(home: str, url: str, qmgr_pid: int, web_pid: int | None, pairs: int, seconds: float,
                 persistent: bool) -> dict[str, object]:
    """``pairs`` pairs of rounds, without and with the scrapes, the order alternating pair by
    pair; the cost is the median of the pairs' ratios (each pair close in time: the machine's
    other load moves both)."""
    ctx = mp.get_context("spawn")
    active, quit_ = ctx.Event(), ctx.Event()
    out: mp.Queue[tuple[int, float, float, int]] = ctx.Queue()
    proc = ctx.Process(target=scraper, args=(home, url, 1.0, active, quit_, out))
    proc.start()
    try:
        out.get(timeout=60)  # connected
        put_rate(min(seconds, 3.0), persistent)  # warm-up, not counted
        plain: list[float] = []
        scraped: list[float] = []
        for n in range(pairs):
            for with_scrapes in ((False, True) if n % 2 == 0 else (True, False)):
                mqsc(f"CLEAR QLOCAL({QUEUE})\n")
                if with_scrapes:
                    active.set()
                rate = put_rate(seconds, persistent)
                active.clear()
                (scraped if with_scrapes else plain).append(rate)
        # the queue manager's CPU for one scrape, with nothing else running
        before, wall_before = cpu_seconds(qmgr_pid), time.monotonic()
        web_before = cpu_seconds(web_pid) if web_pid else 0.0
        active.set()
        time.sleep(10.5)  # ten or eleven scrapes, a second apart
        active.clear()
        qmgr_cpu, idle_wall = cpu_seconds(qmgr_pid) - before, time.monotonic() - wall_before
        web_cpu = cpu_seconds(web_pid) - web_before if web_pid else None
    finally:
        active.clear()
        quit_.set()
    count, wall, cpu, size = out.get(timeout=60)
    proc.join(60)
    ratios = [on / off for on, off in zip(scraped, plain, strict=True)]
    idle_scrapes = max(1, round(idle_wall))
    return {"puts_per_s_without": round(statistics.median(plain)), "puts_per_s_with": round(statistics.median(scraped)),
            "cost_pct": round((1 - statistics.median(ratios)) * 100, 2),
            "pair_ratios": [round(r, 3) for r in ratios],
            "scrapes": count, "scrape_ms": round(wall / count * 1000, 1) if count else None,
            "scraper_cpu_ms_per_scrape": round(cpu / count * 1000, 1) if count else None,
            "qmgr_cpu_ms_per_scrape": round(qmgr_cpu / idle_scrapes * 1000, 1),
            "qmgr_cpu_pct_at_one_scrape_a_second": round(qmgr_cpu / idle_wall * 100, 2),
            "web_server_cpu_ms_per_scrape": None if web_cpu is None else round(web_cpu / idle_scrapes * 1000, 1),
            "scrape_bytes": size}


CONSOLE_USER, CONSOLE_PASSWORD = "benchadmin", "bench-pass-1"


def console_first_load(home: str, base: str, queues: int, rounds: int) -> dict[str, object]:
    """The queue list page of QM with ``queues`` queues, loaded ``rounds`` times in chromium."""
    import shutil

    from playwright.sync_api import expect, sync_playwright

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        raise SystemExit("console_first_load needs Debian's chromium (make tools installs it)")
    loads: list[float] = []
    first_bytes: list[float] = []
    size = rows = 0
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        try:
            page = browser.new_page()
            page.set_default_timeout(120_000)
            page.goto(base + "/console/login")
            page.get_by_label("User").fill(CONSOLE_USER)
            page.get_by_label("Password").fill(CONSOLE_PASSWORD)
            page.get_by_role("button", name="Log in").click()
            expect(page.get_by_role("heading", name="Queue managers")).to_be_visible(timeout=60_000)
            for n in range(rounds + 1):
                page.goto(f"{base}/console/qmgr/{QM}", wait_until="load")
                timing = page.evaluate("""() => { const t = performance.getEntriesByType("navigation")[0];
                    return [t.loadEventEnd - t.startTime, t.responseStart - t.requestStart, t.transferSize]; }""")
                if n:  # the first warms the connection and the caches
                    loads.append(timing[0] / 1000)
                    first_bytes.append(timing[1] / 1000)
                size = int(timing[2])
            rows = page.locator("table tbody tr").count()
        finally:
            browser.close()
    return {"queues": queues, "rows_shown": rows, "page_bytes": size, "rounds": rounds,
            "load_s": round(statistics.median(loads), 3), "load_s_all": [round(x, 3) for x in loads],
            "first_byte_s": round(statistics.median(first_bytes), 3), "target_s": 1.0}


def console_main(queues: int, rounds: int) -> None:
    home = tempfile.mkdtemp(prefix="mqlite-bench-")
    proc = start_qmgr(home)
    web_pid: int | None = None
    try:
        mqlite_cmd = str(Path(sys.executable).with_name("mqlite"))
        subprocess.run([mqlite_cmd, "passwd", "-m", QM, "-g", "mqm", CONSOLE_USER], check=True, capture_output=True,
                       env={**os.environ, "MQLITE_HOME": home, "MQLITE_PASSWORD": CONSOLE_PASSWORD})
        for start in range(0, queues, 1000):
            mqsc("".join(f"DEFINE QLOCAL(APP.Q.{n:05d})\n" for n in range(start, min(queues, start + 1000))))
        url, web_pid = start_web(home)
        figures = {"bench": "rest", "case": "console_first_load", "python": sys.version.split()[0],
                   "cpus": os.cpu_count(), **console_first_load(home, url.removesuffix("/metrics"), queues, rounds)}
    finally:
        if web_pid is not None:
            os.kill(web_pid, signal.SIGTERM)
            while os.path.exists(f"/proc/{web_pid}") and cpu_state(web_pid) != "Z":
                time.sleep(0.05)
        stop_qmgr(proc)
    print(json.dumps(figures))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one short pair of rounds (a smoke run)")
    parser.add_argument("--pairs", type=int, default=10, help="pairs of rounds (without, with), alternating")
    parser.add_argument("--seconds", type=float, default=5.0, help="the length of a round")
    parser.add_argument("--queues", type=int, default=100, help="application queues besides the one put to")
    parser.add_argument("--via", choices=("http", "collector"), default="http",
                        help="scrape the web server (mqlite strmqweb), or run the collector in the scraping process")
    parser.add_argument("--case", choices=("metrics_cost", "console_first_load", "rest_messaging"),
                        default="metrics_cost")
    parser.add_argument("--messages", type=int, default=2000, help="rest_messaging: messages a round")
    parser.add_argument("--rounds", type=int, default=5, help="console_first_load: page loads counted")
    args = parser.parse_args()
    if args.case == "rest_messaging":
        print(json.dumps(rest_messaging(200 if args.quick else args.messages, 2 if args.quick else args.rounds)))
        return
    if args.case == "console_first_load":
        queues = 10_000 if "--queues" not in sys.argv else args.queues
        console_main(queues, 2 if args.quick else args.rounds)
        return
    pairs, seconds = (1, 3.0) if args.quick else (args.pairs, args.seconds)
    home = tempfile.mkdtemp(prefix="mqlite-bench-")
    proc = start_qmgr(home)
    web_pid: int | None = None
    try:
        mqsc(f"DEFINE QLOCAL({QUEUE}) MAXDEPTH(999999999)\n"
             + "".join(f"DEFINE QLOCAL(APP.IDLE.{n:04d})\n" for n in range(args.queues)))
        with mqlite.connect(QM) as qm, mqlite.Queue(qm, "APP.IDLE.0000") as queue:
            queue.put(b"a message for the oldest-message browse")
        url, web_pid = start_web(home) if args.via == "http" else ("", None)
        figures: dict[str, object] = {"bench": "rest", "case": "metrics_cost", "python": sys.version.split()[0],
                                      "cpus": os.cpu_count(), "queues": args.queues + 1, "round_seconds": seconds,
                                      "scrape_every_s": 1.0, "via": args.via}
        figures["non_persistent"] = metrics_cost(home, url, proc.pid, web_pid, pairs, seconds, False)
        figures["persistent"] = metrics_cost(home, url, proc.pid, web_pid, pairs, seconds, True)
    finally:
        if web_pid is not None:
            os.kill(web_pid, signal.SIGTERM)
            while os.path.exists(f"/proc/{web_pid}") and cpu_state(web_pid) != "Z":
                time.sleep(0.05)
        stop_qmgr(proc)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
