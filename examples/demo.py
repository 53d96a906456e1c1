"""`make demo`: create and start real queue managers, script them with MQSC, and move messages.

Everything runs for real: queue manager processes on Unix sockets and loopback TCP ports, their
SQLite stores in a temporary MQLITE_HOME, the `mqlite` command line and the Python client. The
last parts link three queue managers with message channels (a payment put on DEMO.QM crosses
DEMO.QM2 to DEMO.QM3, once and once only), make DEMO.QM3 the child of DEMO.QM2 in a
publish/subscribe hierarchy (a publication on the parent reaches a subscriber on the child), and
join four in a cluster, where a queue defined on two of them is reached from a third with nothing
defined there, a publication on one member reaches a subscriber on another through a cluster
topic, and a route with a selector lets only some of a topic's messages from one member to
another.

Its MQLITE_HOME is a new directory (under $MQLITE_HOME when that is set), removed with the queue
managers it started when the demo ends, also on a failure or Ctrl-C (examples/demo_home.py).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from demo_home import demo_home
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
        lines = stdin.rstrip().splitlines()
        shown = lines if len(lines) <= 6 else [*lines[:3], f"... ({len(lines) - 4} more lines)", lines[-1]]
        console.print("[dim]" + "\n".join(shown) + "\nEOF[/]", highlight=False)
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


def wait_until(condition: Callable[[], bool], failure: str, timeout: float = 30.0) -> None:
    """Poll ``condition`` until it holds; end the demo with ``failure`` when ``timeout`` passes."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise SystemExit(failure)
        time.sleep(0.2)


def wait_for_depth(qmgr: str, queue: str, want: int, timeout: float = 30.0) -> int:
    deadline = time.monotonic() + timeout
    while True:
        done = subprocess.run([MQLITE, "runmqsc", qmgr], input=f"DISPLAY QLOCAL({queue}) CURDEPTH\n",
                              capture_output=True, text=True, check=False)
        depth = int(done.stdout.split("CURDEPTH(")[1].split(")")[0]) if "CURDEPTH(" in done.stdout else -1
        if depth >= want or time.monotonic() > deadline:
            return depth


def network(port1: int) -> None:
    """Three queue managers in a line: DEMO.QM -> DEMO.QM2 -> DEMO.QM3, by sender/receiver channels."""
    port2, port3 = free_port(), free_port()
    console.print(Panel(f"DEMO.QM ({port1}) --DEMO.TO.QM2--> DEMO.QM2 ({port2}) --QM2.TO.QM3--> DEMO.QM3 ({port3})",
                        title="queue managers linked by channels"))
    for name, port in (("DEMO.QM2", port2), ("DEMO.QM3", port3)):
        run("crtmqm", "-p", str(port), "-q", name)
        run("strmqm", name)
    run("runmqsc", "DEMO.QM", stdin=(
        "DEFINE QLOCAL(DEMO.QM2) USAGE(XMITQ) DESCR('to DEMO.QM2')\n"
        f"DEFINE CHANNEL(DEMO.TO.QM2) CHLTYPE(SDR) CONNAME('127.0.0.1({port2})') XMITQ(DEMO.QM2)\n"
        "DEFINE QREMOTE(PAYMENTS) RNAME(APP.PAYMENTS) RQMNAME(DEMO.QM3) XMITQ(DEMO.QM2)\n"
        "DEFINE QREMOTE(DEMO.QM3) RNAME(' ') RQMNAME(DEMO.QM3) XMITQ(DEMO.QM2) DESCR('DEMO.QM3 is through DEMO.QM2')\n"
    ))
    run("runmqsc", "DEMO.QM2", stdin=(
        "DEFINE CHANNEL(DEMO.TO.QM2) CHLTYPE(RCVR)\n"
        "SET CHLAUTH(DEMO.TO.QM2) TYPE(QMGRMAP) QMNAME(DEMO.QM) USERSRC(CHANNEL) DESCR('DEMO.QM may send')\n"
        "DEFINE QLOCAL(DEMO.QM3) USAGE(XMITQ) DESCR('to DEMO.QM3: messages for it pass through')\n"
        f"DEFINE CHANNEL(QM2.TO.QM3) CHLTYPE(SDR) CONNAME('127.0.0.1({port3})') XMITQ(DEMO.QM3)\n"
    ))
    run("runmqsc", "DEMO.QM3", stdin="DEFINE CHANNEL(QM2.TO.QM3) CHLTYPE(RCVR)\nDEFINE QLOCAL(APP.PAYMENTS)\n"
                                      "SET CHLAUTH(QM2.TO.QM3) TYPE(QMGRMAP) QMNAME(DEMO.QM2) USERSRC(CHANNEL)\n")
    payments = "".join(f"payment {i}: {i * 10} EUR\n" for i in range(1, 101))
    run("put", "-m", "DEMO.QM", "PAYMENTS", "--persistent", stdin=payments)
    run("put", "-m", "DEMO.QM", "APP.PAYMENTS", "-t", "DEMO.QM3", "--persistent", stdin="named by queue manager\n")
    console.print("[bold cyan]>>> the senders start by themselves when their transmission queues fill[/]")
    depth = wait_for_depth("DEMO.QM3", "APP.PAYMENTS", 101)
    console.print(f"APP.PAYMENTS on DEMO.QM3 holds {depth} messages")
    for name, channel in (("DEMO.QM", "DEMO.TO.QM2"), ("DEMO.QM2", "*"), ("DEMO.QM3", "QM2.TO.QM3")):
        run("runmqsc", name, stdin=f"DISPLAY CHSTATUS({channel}) CHLTYPE STATUS MSGS LSTSEQNO RQMNAME\n")
    import mqlite

    with mqlite.connect("DEMO.QM3") as qm, mqlite.Queue(qm, "APP.PAYMENTS") as queue:
        first = [queue.get().decode() for _ in range(3)]
    console.print(f"the first three on DEMO.QM3, in the order they were put on DEMO.QM: {first}")
    hierarchy(port2)
    for name in ("DEMO.QM3", "DEMO.QM2"):
        run("endmqm", name)


def hierarchy(port2: int) -> None:
    """DEMO.QM3 becomes DEMO.QM2's child: with a channel back to DEMO.QM2 (their channels both
    ways), ALTER QMGR PARENT; a subscription on the child reaches the parent as a proxy
    subscription, and the parent's publication crosses to it."""
    console.print(Panel("DEMO.QM2 (parent) <--QM3.TO.QM2 / QM2.TO.QM3--> DEMO.QM3 (child): a subscriber on "
                        "DEMO.QM3, a publisher on DEMO.QM2", title="a publish/subscribe hierarchy"))
    run("runmqsc", "DEMO.QM2", stdin="DEFINE CHANNEL(QM3.TO.QM2) CHLTYPE(RCVR)\n"
                                      "SET CHLAUTH(QM3.TO.QM2) TYPE(QMGRMAP) QMNAME(DEMO.QM3) USERSRC(CHANNEL)\n")
    run("runmqsc", "DEMO.QM3", stdin=(
        "DEFINE QLOCAL(DEMO.QM2) USAGE(XMITQ) DESCR('to DEMO.QM2, the parent')\n"
        f"DEFINE CHANNEL(QM3.TO.QM2) CHLTYPE(SDR) CONNAME('127.0.0.1({port2})') XMITQ(DEMO.QM2)\n"
        "DEFINE QLOCAL(NEWS.IN)\n"
        "DEFINE SUB(NEWS) TOPICSTR('news/#') DEST(NEWS.IN)\n"
        "ALTER QMGR PARENT(DEMO.QM2)\n"
    ))
    wait_until(lambda: "news/#" in run_quiet("DEMO.QM2", "DISPLAY SUB(*) SUBTYPE(PROXY) TOPICSTR\n"),
               "DEMO.QM2 did not get the child's proxy subscription")
    run("runmqsc", "DEMO.QM2", stdin="DISPLAY PUBSUB TYPE(ALL)\nDISPLAY SUB(*) SUBTYPE(PROXY) TOPICSTR\n")
    run("pub", "-m", "DEMO.QM2", "news/today", stdin="published on the parent, DEMO.QM2\n")
    wait_for_depth("DEMO.QM3", "NEWS.IN", 1)
    run("get", "-m", "DEMO.QM3", "NEWS.IN", "-w", "0")


def cluster() -> None:
    """A cluster of four: DEMO.FR is its full repository; DEMO.QM, CLUS.A and CLUS.B partial ones.
    INVOICES lives on CLUS.A and CLUS.B; DEMO.QM puts to it with no definition of its own, and
    the workload algorithm spreads the messages; SUSPEND QMGR takes CLUS.B out of the choice."""
    ports = {name: free_port() for name in ("DEMO.FR", "CLUS.A", "CLUS.B")}
    console.print(Panel("DEMO.FR (full repository) <- DEMO.QM, CLUS.A, CLUS.B (partial repositories); "
                        "INVOICES on CLUS.A and CLUS.B", title="a cluster"))
    for name, port in ports.items():
        run("crtmqm", "-p", str(port), name)
        run("strmqm", name)
    for name in ("DEMO.FR", "DEMO.QM", "CLUS.A", "CLUS.B"):
        run("runmqsc", name, stdin=("ALTER QMGR REPOS(DEMO)\n" if name == "DEMO.FR" else "")
            + f"DEFINE CHANNEL(DEMO.{name}) CHLTYPE(CLUSRCVR) CLUSTER(DEMO) DESCR('my address: my own port')\n"
              "SET CHLAUTH('DEMO.*') TYPE(QMGRMAP) QMNAME('*') USERSRC(CHANNEL) DESCR('the cluster may send')\n"
            + ("" if name == "DEMO.FR" else
               f"DEFINE CHANNEL(DEMO.DEMO.FR) CHLTYPE(CLUSSDR) CONNAME('127.0.0.1({ports['DEMO.FR']})') "
               "CLUSTER(DEMO)\n"))
    for name in ("CLUS.A", "CLUS.B"):
        run("runmqsc", name, stdin="DEFINE QLOCAL(INVOICES) CLUSTER(DEMO) DEFBIND(NOTFIXED)\n")
    wait_until(lambda: run_quiet("DEMO.FR", "DISPLAY QCLUSTER(INVOICES)\n").count("QUEUE(INVOICES)") >= 2,
               "the full repository did not learn INVOICES")
    run("put", "-m", "DEMO.QM", "INVOICES", "--persistent", stdin="".join(f"invoice {i}\n" for i in range(10)))
    counts = [wait_for_depth(name, "INVOICES", 5) for name in ("CLUS.A", "CLUS.B")]
    console.print(f"INVOICES: {counts[0]} on CLUS.A, {counts[1]} on CLUS.B (round robin, nothing defined on DEMO.QM)")
    run("runmqsc", "DEMO.QM", stdin="DISPLAY CLUSQMGR(*) QMTYPE DEFTYPE STATUS\nDISPLAY QCLUSTER(INVOICES)\n")
    run("runmqsc", "CLUS.B", stdin="SUSPEND QMGR CLUSTER(DEMO)\n")
    wait_until(lambda: "SUSPEND(YES)" in run_quiet("DEMO.QM", "DISPLAY CLUSQMGR(CLUS.B) SUSPEND\n"),
               "DEMO.QM did not hear of the suspension")
    run("put", "-m", "DEMO.QM", "INVOICES", "--persistent", stdin="".join(f"late invoice {i}\n" for i in range(4)))
    counts = [wait_for_depth(name, "INVOICES", want) for name, want in (("CLUS.A", 9), ("CLUS.B", 5))]
    console.print(f"after SUSPEND QMGR on CLUS.B: {counts[0]} on CLUS.A, {counts[1]} on CLUS.B")
    cluster_pubsub()
    route()
    for name in ("CLUS.B", "CLUS.A", "DEMO.FR"):
        run("endmqm", name)


def cluster_pubsub() -> None:
    """A cluster topic: PRICES, defined on DEMO.FR with CLUSTER(DEMO), reaches every member; a
    subscription on CLUS.A puts its proxy subscription on the others, and CLUS.B's publication
    crosses the cluster straight to CLUS.A (DIRECT routing)."""
    console.print(Panel("TOPIC(PRICES) 'Prices' CLUSTER(DEMO) on DEMO.FR; a subscriber on CLUS.A, a publisher "
                        "on CLUS.B", title="a publication crossing the cluster"))
    run("runmqsc", "DEMO.FR", stdin="DEFINE TOPIC(PRICES) TOPICSTR('Prices') CLUSTER(DEMO)\n")
    wait_until(lambda: "PRICES" in run_quiet("CLUS.A", "DISPLAY TOPIC(*) TYPE(CLUSTER)\n"),
               "CLUS.A did not learn the cluster topic")
    run("runmqsc", "CLUS.A", stdin="DEFINE QLOCAL(PRICES.IN)\nDEFINE SUB(PRICES.SUB) TOPICSTR('Prices/#') "
                                  "DEST(PRICES.IN)\n")
    wait_until(lambda: "Prices/#" in run_quiet("CLUS.B", "DISPLAY SUB(*) SUBTYPE(PROXY) TOPICSTR DESTQMGR\n"),
               "CLUS.B did not get the proxy subscription")
    run("runmqsc", "CLUS.B", stdin="DISPLAY SUB(*) SUBTYPE(PROXY) TOPICSTR DESTQMGR\n")
    run("pub", "-m", "CLUS.B", "Prices/apples", stdin="1.20\n")
    wait_for_depth("CLUS.A", "PRICES.IN", 1)
    run("browse", "-m", "CLUS.A", "PRICES.IN")


def route() -> None:
    """A route in the style of TIBCO EMS between CLUS.A and CLUS.B (it rides on the cluster's
    channels): 'orders' is GLOBAL on both; CLUS.A lets only the west's orders over the route."""
    console.print(Panel("CLUS.A configured from EMS's own files (topics.conf, routes.conf: mqlite emsconf), "
                        "CLUS.B with MQSC (ROUTE(CLUS.A)); a subscriber to 'orders' on CLUS.B",
                        title="a route with a selector"))
    conf = Path(os.environ["MQLITE_HOME"]) / "ems"  # removed with the demo's home
    conf.mkdir()
    (conf / "topics.conf").write_text("# name  properties\norders  global,maxmsgs=10000,overflowPolicy=discardOld\n")
    (conf / "routes.conf").write_text("[CLUS.B]\nzone_name=default_mhop_zone\nzone_type=mhop\n"
                                      "outgoing_topic=orders selector=\"region = 'west'\"\n")
    for name in ("topics.conf", "routes.conf"):
        console.print(f"[dim]{name}:\n{(conf / name).read_text().rstrip()}[/]", highlight=False)
    run("emsconf", "-m", "CLUS.A", "--topics", str(conf / "topics.conf"), "--routes", str(conf / "routes.conf"))
    run("runmqsc", "CLUS.B", stdin="DEFINE TOPIC(ORDERS) TOPICSTR('orders') GLOBAL(YES)\nDEFINE ROUTE(CLUS.A)\n"
                                  "DEFINE QLOCAL(ORDERS.WEST)\n"
                                  "DEFINE SUB(ORDERS.SUB) TOPICSTR('orders') DEST(ORDERS.WEST)\n")
    wait_until(lambda: "STATUS(ACTIVE)" in run_quiet("CLUS.A", "DISPLAY RTSTATUS(CLUS.B) STATUS\n")
               and "orders" in run_quiet("CLUS.A", "DISPLAY SUB('SYSTEM.ROUTE.*') SUBTYPE(PROXY) TOPICSTR\n"),
               "the route did not come up")
    import mqlite

    with mqlite.connect("CLUS.A") as qm:
        orders = mqlite.Topic(qm, topic_string="orders")
        for body, region in ((b"order 1 (west)", "west"), (b"order 2 (east)", "east"), (b"order 3 (west)", "west")):
            orders.pub(body, properties={"region": region}, persistent=True)
    wait_for_depth("CLUS.B", "ORDERS.WEST", 2)
    run("browse", "-m", "CLUS.B", "ORDERS.WEST")
    run("runmqsc", "CLUS.A", stdin="DISPLAY RTSTATUS(*) STATUS CONFIG ISUBS FWDMSGS STORED\n")


def run_quiet(qmgr: str, script: str) -> str:
    done = subprocess.run([MQLITE, "runmqsc", qmgr], input=script, capture_output=True, text=True, check=False)
    return done.stdout


def main() -> None:
    under = os.environ.get("MQLITE_HOME")
    with demo_home("mqlite-demo-") as home:
        port = free_port()
        console.print(Panel(f"MQLITE_HOME={home} ({'a new directory in your MQLITE_HOME' if under else 'new'}, "
                            f"removed at the end)\nqueue manager DEMO.QM on TCP port {port}", title="mqlite demo"))
        demo(port)
    console.print(Panel("Done, and its queue managers and directory are gone. Try it yourself: export "
                        "MQLITE_HOME=... and mqlite crtmqm / strmqm / runmqsc (README.md).", title="mqlite demo"))


def demo(port: int) -> None:
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
        network(port)
        cluster()
        run("dspmq")
    finally:
        run("endmqm", "DEMO.QM")
    run("dspmq")


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:  # Ctrl-C: demo_home has ended its queue managers and removed its home
        raise SystemExit(130) from None
