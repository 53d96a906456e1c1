"""`make demo`: create and start a real queue manager, script it with MQSC, and move messages.

Everything runs for real: a queue manager process on a Unix socket and a loopback TCP port,
its SQLite store in a temporary MQLITE_HOME, the `mqlite` command line and the Python client.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.panel import Panel

console = Console()
MQLITE = str(Path(sys.executable).with_name("mqlite"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def run(*args: str, stdin: str | None = None) -> str:
    console.print(f"[bold cyan]$ mqlite {' '.join(args)}[/]" + (" <<EOF" if stdin else ""))
    if stdin:
        console.print(f"[dim]{stdin.rstrip()}\nEOF[/]")
    done = subprocess.run([MQLITE, *args], input=stdin, capture_output=True, text=True, check=False)
    out = (done.stdout + done.stderr).rstrip()
    if out:
        console.print(out, highlight=False, markup=False)
    if done.returncode not in (0, 10):
        raise SystemExit(f"mqlite {args[0]} failed with exit code {done.returncode}")
    return done.stdout


def pubsub() -> None:
    """Publish/subscribe: a topic object, a retained price, a durable subscriber and a selector."""
    import mqlite

    run("runmqsc", "DEMO.QM", stdin=(
        "DEFINE TOPIC(PRICES) TOPICSTR('price') DESCR('Shop prices')\n"
        "DEFINE QLOCAL(EXPENSIVE)\n"
        "DEFINE SUB(EXPENSIVE.FRUIT) TOPICSTR('price/fruit/#') DEST(EXPENSIVE) SELECTOR('Price > 1.0')\n"
    ))
    run("pub", "-m", "DEMO.QM", "price/fruit/apples", "--retain", stdin="1.20\n")
    console.print("[bold cyan]>>> Python client (local binding): a durable subscription and priced publications[/]")
    qm = mqlite.connect("DEMO.QM")  # as this OS user, like the command line: it may resume DESK1 too
    desk = mqlite.Subscription(qm, "price/#", name="DESK1", durable=True)
    first = desk.get(wait=1.0)
    console.print(f"DESK1 got the retained {first.properties['MQTopicString']} = {first.text} "
                  f"(MQIsRetained={first.properties['MQIsRetained']})")
    fruit = mqlite.Topic(qm, topic_name="PRICES", topic_string="fruit/pears")
    for price in (0.9, 1.1):
        fruit.pub(f"{price:.2f}", properties={"Price": price})
    console.print(f"DESK1 then got {[m.text for m in desk.messages(wait=0.5)]}")
    desk.close()  # durable: kept, publications keep arriving while nobody listens
    mqlite.Topic(qm, topic_string="price/fruit/plums").pub(b"1.30", properties={"Price": 1.3})
    qm.disconnect()
    run("get", "-m", "DEMO.QM", "EXPENSIVE", "-w", "0")  # what the selector let through
    run("sub", "-m", "DEMO.QM", "price/#", "--durable", "DESK1", "-w", "0.5")
    run("runmqsc", "DEMO.QM", stdin="DISPLAY SBSTATUS(*) SUBTYPE(ALL)\n"
                                     "DISPLAY TPSTATUS('price/#') RETAINED\n")


def main() -> None:
    home = tempfile.mkdtemp(prefix="mqlite-demo-")
    os.environ["MQLITE_HOME"] = home
    port = free_port()
    console.print(Panel(f"MQLITE_HOME={home}\nqueue manager DEMO.QM on TCP port {port}", title="mqlite demo"))
    run("crtmqm", "-p", str(port), "-q", "DEMO.QM")
    # TCP clients authenticate: a user in the queue manager's users file (not an administrator).
    os.environ["MQLITE_PASSWORD"] = "demo-password"
    run("passwd", "-m", "DEMO.QM", "-g", "mqclient", "app")
    run("strmqm", "DEMO.QM")
    try:
        # Secure by default: the application group may connect and use the APP.* queues.
        run("setmqaut", "-m", "DEMO.QM", "-t", "qmgr", "-g", "mqclient", "+connect", "+inq")
        run("setmqaut", "-m", "DEMO.QM", "-t", "q", "-n", "APP.**", "-g", "mqclient", "+put", "+get", "+browse",
            "+inq")
        run("runmqsc", "DEMO.QM", stdin=(
            "DEFINE QLOCAL(APP.ORDERS) DEFPSIST(YES) MAXDEPTH(100000) DESCR('Orders from the shop')\n"
            "DEFINE QALIAS(ORDERS) TARGET(APP.ORDERS)\n"
            "DISPLAY QLOCAL(APP.ORDERS) CURDEPTH DEFPSIST MAXDEPTH DESCR\n"
        ))
        run("put", "-m", "DEMO.QM", "ORDERS", stdin="order 1: 3 apples\norder 2: 1 pear\norder 3: 12 plums\n")
        run("browse", "-m", "DEMO.QM", "APP.ORDERS")

        import mqlite

        console.print("[bold cyan]>>> Python client over TCP: 10,000 persistent messages[/]")
        qm = mqlite.connect("DEMO.QM", host="127.0.0.1", port=port, user="app", password="demo-password")
        queue = mqlite.Queue(qm, "APP.ORDERS")
        started = time.perf_counter()
        for i in range(1_000):
            queue.put(f"order {i + 4}".encode())  # each one durable before put returns
        sync_seconds = time.perf_counter() - started
        started = time.perf_counter()
        for i in range(9_000):  # MQPMO_ASYNC_RESPONSE: IBM's way to stream persistent messages
            queue.put(f"order {i + 1_004}".encode(), asynchronous=True)
        queue.put(b"last order")  # a synchronous put returns once everything before it is durable
        async_seconds = time.perf_counter() - started
        started = time.perf_counter()
        count = 0
        for _message in queue.messages(wait=1.0, syncpoint=True):
            count += 1
            if count % 100 == 0:
                qm.commit()  # one disk write for a hundred gets
        qm.commit()
        get_seconds = time.perf_counter() - started
        queue.close()
        qm.disconnect()
        console.print(f"1,000 synchronous persistent puts: {1_000 / sync_seconds:,.0f}/s "
                      "(each on disk before it returned)")
        console.print(f"9,001 asynchronous persistent puts: {9_001 / async_seconds:,.0f}/s "
                      "(durable when the last returned)")
        console.print(f"{count:,} gets under syncpoint, committed every 100: {count / get_seconds:,.0f}/s")
        run("runmqsc", "DEMO.QM", stdin="DISPLAY QSTATUS(APP.ORDERS) CURDEPTH IPPROCS OPPROCS\n")
        pubsub()
        run("dspmq")
    finally:
        run("endmqm", "DEMO.QM")
    run("dspmq")
    console.print(Panel("Done. Try it yourself: export MQLITE_HOME=... and mqlite crtmqm / strmqm / runmqsc.",
                        title="mqlite demo"))


if __name__ == "__main__":
    main()
