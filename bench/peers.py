"""Issue 34, "Peers, same run": mqlite beside RabbitMQ, NATS JetStream and Mosquitto.

Every server runs here, on loopback, with a temporary data directory and a port of its own, and
every client in its own process; 256-byte messages; each scenario's rounds alternate between the
systems so that this VM's drift hits them all alike. Per system: the median of the rounds and each
round; per peer, ``mqlite_over_<peer>``: the median of the rounds' ratios mqlite/peer.

- ``np_stream_1x1``: non-persistent, 1 producer -> 1 consumer, first put to last get. mqlite:
  MQPMO_ASYNC_RESPONSE puts, a read-ahead queue. RabbitMQ: transient messages on a non-durable
  queue, no confirms; the consumer with prefetch 1000 and a multiple ack every 100. NATS:
  JetStream with *memory* storage, core publishes into the stream (no ack), an ordered push
  consumer (no acks).
- ``p_confirmed_1`` and ``p_confirmed_8``: 1 and 8 producer processes, each waiting for every
  message to be confirmed, no consumers. mqlite: persistent MQPUT, synchronous. RabbitMQ: a durable
  classic queue, persistent messages, publisher confirms waited per message. NATS: JetStream *file*
  storage, ``js.publish`` waiting for each PubAck.
- ``sync_pairs``: a requester process sends a request and waits for the reply from a responder
  process, one at a time (round trips/s), non-persistent. mqlite: MQPUT to a request queue, MQGET
  with wait on a reply queue; RabbitMQ: two queues, no-ack consumers; NATS: core request/reply.
- ``mqtt_qos{0,1}_1_to_{1,50}``: mqlite's MQTT listener beside Mosquitto, with ``bench/mqtt.py``'s
  brokers and load (deliveries/s).

Who fsyncs before confirming: see ``DURABILITY`` (printed with the figures). Needs ``apt-get install
rabbitmq-server nats-server mosquitto mosquitto-clients strace`` and ``.venv/bin/pip install pika
nats-py``; a peer whose server or client library is missing is skipped with what to install, and
the run goes on.

Usage: ``python bench/peers.py [--quick] [--rounds 5] [--only NAME] [--systems mqlite,rabbitmq,nats]
[--out docs/peers/peers.json] [--plots docs/peers] [--no-strace]``. Prints one JSON line per scenario,
then all. Unless ``--no-strace``, the persistent scenarios (and MQTT QoS 1, 1 -> 1) run once more
with strace counting each server's fsync-family calls per message, apart from the timed rounds.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import multiprocessing as mp
import os
import queue as queue_module
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import mqtt as mqtt_bench
import p2p
import peers_clients as clients
from fsync_rate import fsync_rate

ROOT = Path(__file__).resolve().parent.parent
RABBIT_BIN = Path("/usr/lib/rabbitmq/bin")  # Debian's; its /usr/sbin wrappers su to the rabbitmq user

DURABILITY = {
    "mqlite": "fsyncs before it confirms: SQLite WAL with synchronous=FULL, one fsync per commit, "
              "concurrent synchronous callers sharing a commit; an MQTT QoS 1 publication is a "
              "persistent message (its PUBACK after the commit, shared by the publications in flight)",
    "rabbitmq": "fsyncs before it confirms: a publisher confirm for a persistent message on a durable "
                "queue is sent once the message store has synced it, in batches across publishers",
    "nats": "does NOT fsync per message: JetStream's file store acknowledges a write in the OS's "
            "buffers and syncs on a timer (sync_interval, default 2 min in NATS's docs; Debian's "
            "2.9.10 has no setting to sync every write)",
    "mosquitto": "does NOT fsync: QoS 1 messages live in memory (persistence off here; even on, "
                 "it saves on an autosave interval, not per message)",
}


# -- running clients -----------------------------------------------------------------------------
Worker = tuple[Callable[..., None], tuple[Any, ...], bool]  # target, its args, whether it reports the end


def _gather(source: Any, count: int, procs: list[Any], timeout: float) -> list[Any]:
    """``count`` items from ``source``, failing early if a worker dies instead of waiting out ``timeout``."""
    items: list[Any] = []
    deadline = time.monotonic() + timeout
    while len(items) < count:
        try:
            items.append(source.get(timeout=0.5))
        except queue_module.Empty:
            dead = [p.exitcode for p in procs if p.exitcode not in (None, 0)]
            if dead:
                raise RuntimeError(f"a client process failed (exit {dead[0]})") from None
            if time.monotonic() > deadline:
                raise TimeoutError(f"clients did not finish in {timeout:.0f} s") from None
    return items


def timed(workers: list[Worker], timeout: float = 300.0) -> float:
    """Fork the workers; each connects, calls ``start.wait()`` (it says it is ready, then waits for
    the go), works, and those that report put their end time. Seconds from the go to the last end."""
    ctx = mp.get_context("fork")
    start = clients.Start(ctx)
    results: Any = ctx.Queue()
    procs = [ctx.Process(target=target, args=(*args, start, results) if reports else (*args, start))
             for target, args, reports in workers]
    for proc in procs:
        proc.start()
    try:
        _gather(start.ready, len(procs), procs, 60.0)
        began = time.perf_counter()
        start.go.set()
        ends = _gather(results, sum(1 for w in workers if w[2]), procs, timeout)
        return float(max(ends)) - began
    finally:
        for proc in procs:
            proc.join(10)
            if proc.is_alive():
                proc.kill()
                proc.join()


# -- servers ---------------------------------------------------------------------------------
def _version(args: list[str]) -> str:
    try:
        done = subprocess.run(args, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return (done.stdout or done.stderr).strip().splitlines()[0] if (done.stdout or done.stderr) else "unknown"


@contextmanager
def mqlite_server(work: Path) -> Iterator[dict[str, Any]]:
    """A queue manager process as ``bench/p2p.py`` starts it, with this bench's queues."""
    home = tempfile.mkdtemp(prefix="mqlite-", dir=work)
    proc = p2p.start_qmgr(home)
    try:
        p2p.mqsc("DEFINE QLOCAL(STREAM.RA) MAXDEPTH(1000000) DEFREADA(YES)\n"
                 "DEFINE QLOCAL(DURABLE.Q) MAXDEPTH(1000000)\n"
                 "DEFINE QLOCAL(REQ.Q) MAXDEPTH(1000000)\nDEFINE QLOCAL(REPLY.Q) MAXDEPTH(1000000)\n")
        yield {"pid": proc.pid}
    finally:
        p2p.stop_qmgr(proc)


@contextmanager
def rabbitmq_server(work: Path) -> Iterator[dict[str, Any]]:
    """``rabbitmq-server`` with its own node name, ports, epmd, Erlang cookie (HOME) and data."""
    home = Path(tempfile.mkdtemp(prefix="rabbitmq-", dir=work))
    port, dist, epmd = mqtt_bench.free_port(), mqtt_bench.free_port(), mqtt_bench.free_port()
    node = f"peers{os.getpid()}@localhost"
    (home / "enabled_plugins").write_text("[].\n")
    (home / "rabbitmq.conf").write_text("")
    env = {**os.environ, "HOME": str(home), "RABBITMQ_MNESIA_BASE": str(home / "mnesia"),
           "RABBITMQ_LOG_BASE": str(home / "log"), "RABBITMQ_NODENAME": node, "RABBITMQ_NODE_PORT": str(port),
           "RABBITMQ_NODE_IP_ADDRESS": "127.0.0.1", "RABBITMQ_DIST_PORT": str(dist), "ERL_EPMD_PORT": str(epmd),
           "RABBITMQ_ENABLED_PLUGINS_FILE": str(home / "enabled_plugins"),
           "RABBITMQ_CONFIG_FILE": str(home / "rabbitmq.conf"),
           "RABBITMQ_ADVANCED_CONFIG_FILE": str(home / "advanced.config"), "RABBITMQ_PID_FILE": str(home / "pid"),
           # idle schedulers sleep instead of spinning: they would take CPU from the other systems
           "RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS": "+sbwt none +sbwtdcpu none +sbwtdio none"}
    log = (home / "server.log").open("wb")
    proc = subprocess.Popen([str(RABBIT_BIN / "rabbitmq-server")], env=env, stdout=log, stderr=subprocess.STDOUT,
                            cwd=home)
    try:
        # `rabbitmqctl wait`: the pid file, then the node's applications running (a condition, not a sleep)
        subprocess.run([str(RABBIT_BIN / "rabbitmqctl"), "-n", node, "wait", str(home / "pid"), "--timeout", "120"],
                       env=env, check=True, capture_output=True, timeout=150)
        clients.rabbit_admin(port)
        yield {"port": port, "pid": int((home / "pid").read_text().split()[0])}
    finally:
        subprocess.run([str(RABBIT_BIN / "rabbitmqctl"), "-n", node, "stop"], env=env, capture_output=True,
                       timeout=120, check=False)
        try:
            proc.wait(60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        # the epmd this node started on its own port, and only that one
        subprocess.run(["epmd", "-port", str(epmd), "-kill"], env=env, capture_output=True, check=False)
        log.close()


@contextmanager
def nats_server(work: Path) -> Iterator[dict[str, Any]]:
    port = mqtt_bench.free_port()
    store = tempfile.mkdtemp(prefix="nats-", dir=work)
    proc = subprocess.Popen(["nats-server", "-a", "127.0.0.1", "-p", str(port), "-js", "-sd", store],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        mqtt_bench.wait_for_port(port)
        clients.nats_admin(port)
        yield {"port": port, "pid": proc.pid}
    finally:
        proc.terminate()
        proc.wait(30)


SYNC_CALLS = "fsync,fdatasync,sync_file_range,syncfs,msync"


@contextmanager
def syncs_counted(pid: int, work: Path) -> Iterator[dict[str, int]]:
    """The server's fsync-family system calls (all its threads) while the block runs, by strace."""
    counts: dict[str, int] = {}
    out, log = work / f"strace-{pid}.txt", work / f"strace-{pid}.log"
    with log.open("wb") as err:
        tracer = subprocess.Popen(["strace", "-f", "-c", "-e", f"trace={SYNC_CALLS}", "-o", str(out), "-p", str(pid)],
                                  stdout=subprocess.DEVNULL, stderr=err)
    deadline = time.monotonic() + 30
    while b"attached" not in log.read_bytes():  # strace says so once it traces the process
        if tracer.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"strace did not attach: {log.read_text()[-200:]}")
        time.sleep(0.05)
    try:
        yield counts
    finally:
        tracer.send_signal(signal.SIGINT)
        tracer.wait(60)
    counts.update(strace_counts(out.read_text()))


def strace_counts(summary: str) -> dict[str, int]:
    """The calls per sync system call in ``strace -c``'s table ("% time seconds usecs/call calls
    [errors] syscall"), the total row and the others left out."""
    counts: dict[str, int] = {}
    for line in summary.splitlines():
        fields = line.split()
        if len(fields) >= 5 and fields[-1] in SYNC_CALLS.split(",") and fields[3].isdigit():
            counts[fields[-1]] = int(fields[3])
    return counts


def fsyncs_per_message(pid: int, work: Path, measure: Callable[[], int]) -> dict[str, float] | str:
    """``measure()`` (it returns how many messages it moved) once more under strace: the server's
    sync calls per message. It runs apart from the timed rounds, as strace slows what it traces."""
    if shutil.which("strace") is None:
        return "skipped: no strace (apt-get install strace)"
    try:
        with syncs_counted(pid, work) as counts:
            messages = measure()
    except Exception as error:  # e.g. ptrace not permitted, or the extra round failed
        return f"skipped: {error}"
    return {call: round(calls / messages, 3) for call, calls in sorted(counts.items())} or {"none": 0.0}


def missing(name: str) -> str | None:
    """Why a system cannot run here, with what to install; None when it can."""
    if name == "rabbitmq":
        if not (RABBIT_BIN / "rabbitmq-server").exists():
            return "skipped: no rabbitmq-server (apt-get install rabbitmq-server)"
        if importlib.util.find_spec("pika") is None:
            return "skipped: no pika (.venv/bin/pip install pika)"
    if name == "nats":
        if shutil.which("nats-server") is None:
            return "skipped: no nats-server (apt-get install nats-server)"
        if importlib.util.find_spec("nats") is None:
            return "skipped: no nats-py (.venv/bin/pip install nats-py)"
    if name == "mosquitto" and (shutil.which("mosquitto") is None or shutil.which("mosquitto_pub") is None):
        return "skipped: no mosquitto (apt-get install mosquitto mosquitto-clients)"
    return None


SERVERS = {"mqlite": mqlite_server, "rabbitmq": rabbitmq_server, "nats": nats_server}
VERSIONS = {"rabbitmq": ["dpkg-query", "-W", "-f", "${Version}", "rabbitmq-server"],
            "nats": ["nats-server", "--version"], "mosquitto": ["dpkg-query", "-W", "-f", "${Version}", "mosquitto"]}


# -- scenarios -------------------------------------------------------------------------------
def workers(scenario: str, system: str, info: dict[str, Any], n: int) -> tuple[list[Worker], int]:
    """The client processes of one round, and how many messages (or round trips) they time."""
    port = info.get("port", 0)
    if scenario == "np_stream_1x1":
        return {
            "mqlite": [(p2p.consumer, ("STREAM.RA", n, True), True),
                       (p2p.producer, ("STREAM.RA", n, 256, False, True), False)],
            "rabbitmq": [(clients.rabbit_consumer, (port, "stream", n), True),
                         (clients.rabbit_producer, (port, "stream", n, False), False)],
            "nats": [(clients.nats_consumer, (port, "np.s", n), True),
                     (clients.nats_producer, (port, "np.s", n, False), False)],
        }[system], n
    if scenario.startswith("p_confirmed_"):
        producers = int(scenario.rsplit("_", 1)[1])
        per = n // producers
        target: Worker = {
            "mqlite": (p2p.producer, ("DURABLE.Q", per, 256, True, False), True),
            "rabbitmq": (clients.rabbit_producer, (port, "durable", per, True), True),
            "nats": (clients.nats_producer, (port, "dur.s", per, True), True),
        }[system]
        return [target] * producers, per * producers
    if scenario == "sync_pairs":
        return {
            "mqlite": [(clients.mqlite_responder, (n,), False), (clients.mqlite_requester, (n,), True)],
            "rabbitmq": [(clients.rabbit_responder, (port, n), False), (clients.rabbit_requester, (port, n), True)],
            "nats": [(clients.nats_responder, (port, n), False), (clients.nats_requester, (port, n), True)],
        }[system], n
    raise ValueError(scenario)


def clear(system: str, info: dict[str, Any]) -> None:
    """Empty the queues and streams between rounds (the 'last' markers, the durable backlog)."""
    if system == "mqlite":
        p2p.mqsc("".join(f"CLEAR QLOCAL({q})\n" for q in ("STREAM.RA", "DURABLE.Q", "REQ.Q", "REPLY.Q")))
    elif system == "rabbitmq":
        clients.rabbit_admin(info["port"], purge=True)
    elif system == "nats":
        clients.nats_admin(info["port"], purge=True)


SCENARIOS: dict[str, tuple[str, int]] = {  # name: (title, messages in a default run)
    "np_stream_1x1": ("non-persistent streaming, 1 producer -> 1 consumer (msgs/s)", 40_000),
    "p_confirmed_1": ("persistent, 1 producer waiting for each confirm (msgs/s)", 3_000),
    "p_confirmed_8": ("persistent, 8 producer processes waiting for each confirm (msgs/s)", 12_000),
    "sync_pairs": ("synchronous request/reply, one at a time (round trips/s)", 8_000),
}
MQTT_CASES = ("qos0_1_to_1", "qos1_1_to_1", "qos0_1_to_50", "qos1_1_to_50")


def summarise(rates: dict[str, list[float | None]]) -> dict[str, Any]:
    """Medians and rounds per system, and per peer the median of the rounds' ratios mqlite/peer."""
    out: dict[str, Any] = {}
    for system, rounds in rates.items():
        good = [r for r in rounds if r is not None]
        out[system] = {"median": round(statistics.median(good)) if good else None,
                       "rounds": [None if r is None else round(r) for r in rounds]}
    ours = rates.get("mqlite", [])
    for system, rounds in rates.items():
        if system == "mqlite":
            continue
        ratios = [a / b for a, b in zip(ours, rounds, strict=False) if a and b]
        if ratios:
            out[f"mqlite_over_{system}"] = round(statistics.median(ratios), 2)
    return out


def _one_round(scenario: str, system: str, info: dict[str, Any], n: int) -> int:
    group, count = workers(scenario, system, info, n)
    timed(group)
    clear(system, info)
    return count


def run_queues(work: Path, systems: list[str], scale: float, rounds: int, only: str | None, fsyncs: bool,
               figures: dict[str, Any]) -> None:
    wanted = [s for s in SCENARIOS if only is None or only in s]
    if not wanted:
        return
    with ExitStack() as stack:
        running: dict[str, dict[str, Any]] = {}
        for system in systems:
            reason = missing(system)
            if reason is None:
                try:
                    running[system] = stack.enter_context(SERVERS[system](work))
                except Exception as error:  # whatever a peer's start raises skips that peer, not the run
                    reason = f"skipped: it did not start ({error!r})"
            if reason is not None:
                figures["skipped"][system] = reason
                print(json.dumps({system: reason}), file=sys.stderr, flush=True)
        for scenario in wanted:
            title, default_n = SCENARIOS[scenario]
            n = max(200, int(default_n * scale))
            rates: dict[str, list[float | None]] = {s: [] for s in running}
            errors: dict[str, str] = {}
            for _ in range(rounds):
                for system, info in running.items():
                    try:
                        group, count = workers(scenario, system, info, n)
                        rates[system].append(count / timed(group))
                        clear(system, info)
                    except Exception as error:  # a failed round counts as none; the others go on
                        rates[system].append(None)
                        errors[system] = repr(error)
            result = {"scenario": scenario, "title": title, "messages": n, **summarise(rates)}
            if errors:
                result["errors"] = errors
            if fsyncs and scenario.startswith("p_confirmed_"):
                result["sync_calls_per_message"] = {
                    system: fsyncs_per_message(info["pid"], work, partial(_one_round, scenario, system, info, n))
                    for system, info in running.items()}
            figures["scenarios"][scenario] = result
            print(json.dumps(result), flush=True)


def _mqtt_once(port: int, n: int, lines: Path) -> int:
    mqtt_bench.throughput(port, 1, 1, n, lines, 60 + n / 200)
    return n


def run_mqtt(work: Path, scale: float, rounds: int, only: str | None, fsyncs: bool,
             figures: dict[str, Any]) -> None:
    cases = [c for c in MQTT_CASES if only is None or only in f"mqtt_{c}"]
    if not cases:
        return
    brokers = {"mqlite": mqtt_bench.mqlite_broker, "mosquitto": mqtt_bench.mosquitto}
    with ExitStack() as stack:
        ports: dict[str, int] = {}
        pids: dict[str, int] = {}
        for name, broker in brokers.items():
            reason = missing("mosquitto")  # both need mosquitto's clients for the QoS 0 load and subscribers
            if reason is None:
                try:
                    ports[name], pids[name] = stack.enter_context(broker(work))
                except Exception as error:  # a broker that does not start is skipped, not the run
                    reason = f"skipped: it did not start ({error!r})"
            if reason is not None:
                figures["skipped"][f"mqtt_{name}"] = reason
        for case in cases:
            qos, subscribers = int(case[3]), int(case.rsplit("_", 1)[1])
            n = max(200, int((40_000 if subscribers == 1 else 2_000) * scale))
            lines = work / f"lines-{n}.txt"
            if not lines.exists():
                lines.write_bytes(mqtt_bench.PAYLOAD * n)
            rates: dict[str, list[float | None]] = {name: [] for name in ports}
            incomplete: list[str] = []
            for _ in range(rounds):
                for name, port in ports.items():
                    try:
                        got = mqtt_bench.throughput(port, qos, subscribers, n, lines, 60 + n / 200)
                    except Exception as error:  # a failed round counts as none; the others go on
                        rates[name].append(None)
                        incomplete.append(f"{name}: {error!r}")
                        continue
                    rates[name].append(got["deliveries_per_s"])
                    if got.get("incomplete"):
                        incomplete.append(name)
            result = {"scenario": f"mqtt_{case}", "title": f"MQTT QoS {qos}, 1 -> {subscribers} (deliveries/s)",
                      "messages": n, **summarise(rates)}
            if incomplete:
                result["incomplete"] = sorted(set(incomplete))
            if fsyncs and qos == 1 and subscribers == 1:
                result["sync_calls_per_message"] = {
                    name: fsyncs_per_message(pids[name], work, partial(_mqtt_once, port, n, lines))
                    for name, port in ports.items()}
            figures["scenarios"][f"mqtt_{case}"] = result
            print(json.dumps(result), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run: a tenth of the messages, 1 round")
    parser.add_argument("--rounds", type=int, help="rounds per scenario (default 5; --quick 1)")
    parser.add_argument("--only", help="only scenarios whose name contains this (e.g. mqtt, p_confirmed)")
    parser.add_argument("--systems", default="mqlite,rabbitmq,nats", help="the queueing systems (MQTT: always "
                                                                          "mqlite and mosquitto)")
    parser.add_argument("--no-strace", action="store_true", help="no extra round under strace counting the "
                                                                    "servers' fsyncs per persistent message")
    parser.add_argument("--out", type=Path, help="also write all figures to this JSON file")
    parser.add_argument("--plots", type=Path, help="draw a PNG per scenario into this directory")
    args = parser.parse_args()
    unknown = set(args.systems.split(",")) - set(SERVERS)
    if unknown:
        parser.error(f"unknown systems {sorted(unknown)}: choose from {', '.join(SERVERS)}")
    scale = 0.1 if args.quick else 1.0
    rounds = args.rounds or (1 if args.quick else 5)
    work = Path(tempfile.mkdtemp(prefix="mqlite-peers-"))
    figures: dict[str, Any] = {
        "bench": "peers", "command": " ".join(["python", "bench/peers.py", *sys.argv[1:]]),
        "cpus": os.cpu_count(), "payload_bytes": 256, "rounds": rounds, "python": sys.version.split()[0],
        "load_average_before": [round(x, 2) for x in os.getloadavg()],
        "fsync_per_s": round(fsync_rate(work, 1.0)),
        "versions": {name: _version(cmd) for name, cmd in VERSIONS.items() if missing(name) is None},
        "durability": DURABILITY, "skipped": {}, "scenarios": {}}
    began = time.monotonic()
    try:
        run_queues(work, [s for s in args.systems.split(",") if s], scale, rounds, args.only, not args.no_strace,
                   figures)
        run_mqtt(work, scale, rounds, args.only, not args.no_strace, figures)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    figures["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    figures["seconds"] = round(time.monotonic() - began)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(figures, indent=1) + "\n")
    if args.plots:
        import peers_plot
        peers_plot.plot_all(figures, args.plots)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
