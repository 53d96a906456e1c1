"""MQTT throughput and idle-connection memory: mqlite beside Mosquitto (Debian) and amqtt (PyPI),
on other ports, in the same run, with the same load generator (Mosquitto's C clients).

For each broker: QoS 0 and QoS 1, 1 -> 1 and 1 -> 50 fan-out, 256-byte messages (255 bytes and
the line end ``mosquitto_pub -l`` strips: 255-byte payloads). The subscribers (``mosquitto_sub
-C N``) subscribe first; the clock runs from the first publication to the last subscriber having
all N. Then the broker's resident memory with 10,000 idle connections (CONNECT, no keep-alive)
against its memory before. Prints one JSON line; ``--plot FILE`` also draws the figures.

amqtt runs from its own virtualenv (``.venv-peers``, made on first use) so that its
dependencies stay out of mqlite's. Brokers that cannot be started are reported as missing.

Usage: ``python bench/mqtt.py [--count 100000] [--quick] [--plot docs/mqtt.svg]``; to compare
changes, ``--brokers mosquitto,mqlite --cases qos0_1_to_1 --repeat 3 --no-memory`` runs only that
case, three times on each broker (the figures are the median run's, every run is listed).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PEERS = ROOT / ".venv-peers"
PAYLOAD = b"x" * 255 + b"\n"
FAN_OUT = 50
IDLE_CONNECTIONS = 10_000


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def wait_for_port(port: int, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise TimeoutError(f"nothing listens on port {port}")


# -- brokers ---------------------------------------------------------------------------------
@contextmanager
def mosquitto(work: Path) -> Iterator[tuple[int, int]]:
    port = free_port()
    conf = work / "mosquitto.conf"
    conf.write_text(f"listener {port} 127.0.0.1\nallow_anonymous true\nmax_queued_messages 0\n"
                    "max_inflight_messages 20\nmax_connections -1\n")
    proc = subprocess.Popen(["mosquitto", "-c", str(conf)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for_port(port)
        yield port, proc.pid
    finally:
        proc.terminate()
        proc.wait(10)


@contextmanager
def amqtt(work: Path) -> Iterator[tuple[int, int]]:
    if not (PEERS / "bin" / "amqtt").exists():
        subprocess.run([sys.executable, "-m", "venv", str(PEERS)], check=True)
        subprocess.run([str(PEERS / "bin" / "pip"), "install", "-q", "amqtt"], check=True)
    port = free_port()
    conf = work / "amqtt.yaml"
    conf.write_text(f"listeners:\n  default:\n    type: tcp\n    bind: 127.0.0.1:{port}\n"
                    "plugins:\n  amqtt.plugins.authentication.AnonymousAuthPlugin:\n    allow_anonymous: true\n")
    proc = subprocess.Popen([str(PEERS / "bin" / "amqtt"), "-c", str(conf)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        wait_for_port(port)
        yield port, proc.pid
    finally:
        proc.terminate()
        proc.wait(10)


@contextmanager
def mqlite_broker(work: Path) -> Iterator[tuple[int, int]]:
    port = free_port()
    home = Path(tempfile.mkdtemp(prefix="mqlite-", dir=work))  # a broker named twice gets two
    env = {**os.environ, "MQLITE_HOME": str(home)}
    cli = [sys.executable, "-m", "mqlite.cli.main"]
    subprocess.run([*cli, "crtmqm", "--mqtt-port", str(port), "BENCH.MQTT"], env=env, check=True,
                   stdout=subprocess.DEVNULL)
    subprocess.run([*cli, "strmqm", "BENCH.MQTT"], env=env, check=True, stdout=subprocess.DEVNULL)
    # Clients that give no user name run as ``mqtt``, which has no authority until granted what
    # IBM asks of an MQTT identity (a new queue manager lets in only its creator and mqm).
    for grant in (("-t", "qmgr", "+connect"), ("-t", "topic", "-n", "SYSTEM.BASE.TOPIC", "+pub", "+sub"),
                  ("-t", "queue", "-n", "SYSTEM.MQTT.**", "+put")):
        subprocess.run([*cli, "setmqaut", "-m", "BENCH.MQTT", "-p", "mqtt", *grant], env=env, check=True,
                       stdout=subprocess.DEVNULL)
    pid = int((home / "qmgrs" / "BENCH.MQTT" / "qmgr.pid").read_text().split()[0])
    try:
        wait_for_port(port)
        yield port, pid
    finally:
        subprocess.run([*cli, "endmqm", "-i", "BENCH.MQTT"], env=env, stdout=subprocess.DEVNULL)


BROKERS = {"mosquitto": mosquitto, "amqtt": amqtt, "mqlite": mqlite_broker}
CASES = ("qos0_1_to_1", "qos0_1_to_50", "qos1_1_to_1", "qos1_1_to_50")  # the order they run in


# -- load ------------------------------------------------------------------------------------
async def publish_qos1(port: int, topic: str, count: int, window: int = 100) -> None:
    """``count`` QoS 1 publications with up to ``window`` unacknowledged, from pre-encoded frames.
    (``mosquitto_pub -l`` at QoS 1 exits at the end of its input with publications still queued:
    only ~34,000 of 100,000 arrived, even at Mosquitto.)"""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    client_id = b"bench-pub"
    body = b"\x00\x04MQTT\x04\x02\x00\x3c" + len(client_id).to_bytes(2, "big") + client_id
    writer.write(bytes([0x10, len(body)]) + body)
    await reader.readexactly(4)  # CONNACK
    name = topic.encode()
    head = len(name).to_bytes(2, "big") + name
    payload = PAYLOAD[:-1]

    def frame(pid: int) -> bytes:
        rest = head + pid.to_bytes(2, "big") + payload
        return bytes([0x32]) + _varint(len(rest)) + rest

    sent = acked = 0
    pending = b""
    while acked < count:
        burst = []
        while sent < count and sent - acked < window:
            burst.append(frame(sent % 65535 + 1))
            sent += 1
        if burst:
            writer.write(b"".join(burst))
        data = pending + await reader.read(65536)
        if not data:
            raise ConnectionError("the broker closed the connection")
        whole = len(data) - len(data) % 4
        acked += whole // 4  # the broker sends nothing but 4-byte PUBACKs here
        pending = data[whole:]
    writer.write(b"\xe0\x00")  # DISCONNECT
    await writer.drain()
    writer.close()


def _varint(value: int) -> bytes:
    out = bytearray()
    while True:
        byte, value = value & 0x7F, value >> 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def throughput(port: int, qos: int, subscribers: int, count: int, lines: Path, timeout: float) -> dict[str, Any]:
    """Messages per second from one publisher (``mosquitto_pub -l`` for QoS 0, ``publish_qos1``
    for QoS 1) to ``subscribers`` mosquitto_subs."""
    topic = f"bench/{qos}/{subscribers}/{time.monotonic_ns()}"
    subs = [subprocess.Popen(["mosquitto_sub", "-p", str(port), "-t", topic, "-q", str(qos), "-C", str(count)],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for _ in range(subscribers)]
    time.sleep(1.0 + subscribers * 0.02)  # every subscriber has subscribed
    began = time.perf_counter()
    if qos:
        asyncio.run(asyncio.wait_for(publish_qos1(port, topic, count), timeout))
    else:
        with lines.open("rb") as source:
            subprocess.run(["mosquitto_pub", "-p", str(port), "-t", topic, "-q", "0", "-l"], stdin=source,
                           check=True, timeout=timeout)
    published = time.perf_counter() - began
    complete = True
    for sub in subs:
        try:
            sub.wait(max(1.0, timeout - (time.perf_counter() - began)))
        except subprocess.TimeoutExpired:
            complete = False
            sub.kill()
    elapsed = time.perf_counter() - began
    result: dict[str, Any] = {"msgs_per_s": round(count / elapsed), "deliveries_per_s": round(count * subscribers
                                                                                              / elapsed),
                              "publish_msgs_per_s": round(count / published)}
    if not complete:
        result["incomplete"] = True  # some subscriber did not get all of them in time
    return result


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


async def idle_connections(port: int, count: int) -> list[asyncio.StreamWriter]:
    """``count`` MQTT 3.1.1 connections that CONNECT (keep-alive 0) and then say nothing."""
    writers = []
    for i in range(count):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        client_id = f"idle-{i}".encode()
        body = b"\x00\x04MQTT\x04\x02\x00\x00" + len(client_id).to_bytes(2, "big") + client_id
        writer.write(bytes([0x10, len(body)]) + body)
        await writer.drain()
        await reader.readexactly(4)  # CONNACK
        writers.append(writer)
    return writers


def memory(port: int, pid: int, count: int) -> dict[str, Any]:
    before = rss_kib(pid)

    async def run() -> int:
        writers = await idle_connections(port, count)
        await asyncio.sleep(2.0)
        after = rss_kib(pid)
        for writer in writers:
            writer.close()
        return after

    after = asyncio.run(run())
    return {"idle_connections": count, "rss_before_mib": round(before / 1024, 1),
            "rss_after_mib": round(after / 1024, 1), "kib_per_connection": round((after - before) / count, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100_000, help="messages per run (amqtt: a tenth)")
    parser.add_argument("--quick", action="store_true", help="10,000 messages, 1,000 idle connections")
    parser.add_argument("--brokers", default="mosquitto,amqtt,mqlite")
    parser.add_argument("--plot", type=Path, help="draw the throughput figures into this SVG file")
    parser.add_argument("--cases", default=",".join(CASES), help="which of " + ", ".join(CASES))
    parser.add_argument("--repeat", type=int, default=1, help="runs of each case (the median's figures)")
    parser.add_argument("--no-memory", action="store_true", help="skip the idle-connection memory")
    args = parser.parse_args()
    cases = [c for c in CASES if c in args.cases.split(",")]
    count = 10_000 if args.quick else args.count
    idle = 1_000 if args.quick else IDLE_CONNECTIONS
    work = Path(tempfile.mkdtemp(prefix="mqlite-bench-mqtt-"))
    figures: dict[str, Any] = {"bench": "mqtt", "messages": count, "payload_bytes": len(PAYLOAD) - 1,
                               "cpus": os.cpu_count()}
    try:
        for name in args.brokers.split(","):
            if name != "amqtt" and shutil.which("mosquitto_pub") is None:
                figures[name] = "missing: mosquitto-clients"
                continue
            n = max(1_000, count // 10) if name == "amqtt" else count
            lines = work / f"lines-{n}.txt"
            if not lines.exists():
                lines.write_bytes(PAYLOAD * n)
            try:
                with BROKERS[name](work) as (port, pid):
                    # Memory first, on the fresh broker: after the throughput runs its heap has room
                    # that new connections would reuse without growing.
                    result: dict[str, Any] = {"messages": n}
                    if not args.no_memory:
                        result["memory"] = memory(port, pid, idle)
                    limit = 60 + n / 500  # seconds: generous even for amqtt
                    fan_n = max(200, n // 10)
                    fan_lines = work / f"lines-{fan_n}.txt"
                    if not fan_lines.exists():
                        fan_lines.write_bytes(PAYLOAD * fan_n)
                    for case in cases:
                        qos, subscribers = int(case[3]), int(case.rsplit("_", 1)[1])
                        runs = [throughput(port, qos, subscribers, n if subscribers == 1 else fan_n,
                                           lines if subscribers == 1 else fan_lines, limit)
                                for _ in range(max(1, args.repeat))]
                        runs.sort(key=lambda r: r["deliveries_per_s"])
                        case_result: dict[str, Any] = {} if subscribers == 1 else {"messages": fan_n}
                        case_result.update(runs[len(runs) // 2])
                        if len(runs) > 1:
                            case_result["runs_deliveries_per_s"] = [r["deliveries_per_s"] for r in runs]
                        result[case] = case_result
                    figures[name] = result
            except (OSError, subprocess.SubprocessError, TimeoutError) as error:
                figures[name] = f"missing: {error}"
            print(json.dumps({name: figures[name]}), file=sys.stderr, flush=True)
        add_ratios(figures)
        if args.plot:
            plot(figures, args.plot)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(json.dumps(figures))


def add_ratios(figures: dict[str, Any]) -> None:
    """The issue's targets: QoS 0 >= 0.5 x Mosquitto and >= 10 x amqtt, QoS 1 >= 0.3 x Mosquitto."""
    ours, mosq, peer = (figures.get(k) for k in ("mqlite", "mosquitto", "amqtt"))
    if not isinstance(ours, dict):
        return
    ratios: dict[str, float] = {}
    for case in ("qos0_1_to_1", "qos1_1_to_1", "qos0_1_to_50", "qos1_1_to_50"):
        key = "deliveries_per_s"
        if case not in ours:
            continue
        if isinstance(mosq, dict) and case in mosq:
            ratios[f"{case}_over_mosquitto"] = round(ours[case][key] / mosq[case][key], 2)
        if isinstance(peer, dict) and case in peer:
            ratios[f"{case}_over_amqtt"] = round(ours[case][key] / peer[case][key], 1)
    figures["ratios"] = ratios


def plot(figures: dict[str, Any], target: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    brokers = [b for b in ("mosquitto", "mqlite", "amqtt") if isinstance(figures.get(b), dict)]
    cases = [c for c in ("qos0_1_to_1", "qos1_1_to_1", "qos0_1_to_50", "qos1_1_to_50")
             if all(c in figures[b] for b in brokers)]
    fig, ax = plt.subplots(figsize=(8, 4))
    width = 0.8 / max(1, len(brokers))
    for i, broker in enumerate(brokers):
        values = [figures[broker][c]["deliveries_per_s"] for c in cases]
        ax.bar([x + i * width for x in range(len(cases))], values, width, label=broker)
    ax.set_xticks([x + width * (len(brokers) - 1) / 2 for x in range(len(cases))], [c.replace("_", " ") for c in cases])
    ax.set_ylabel("deliveries per second")
    ax.set_title(f"MQTT, {figures['payload_bytes']} B messages, {figures['cpus']} cores")
    ax.legend()
    fig.tight_layout()
    fig.savefig(target)


if __name__ == "__main__":
    main()
