"""Screenshots of the console for docs/console/*.png, taken with the browser the tests use
(Debian's chromium driven by Playwright): two queue managers in a temporary MQLITE_HOME, a
sender/receiver pair running between them, a few queues with messages, the web server started
by ``mqlite strmqweb`` on port 0; everything started here is ended by pid at the end.

    .venv/bin/python examples/console_screenshots.py [--out docs/console]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

MQLITE = str(Path(sys.executable).with_name("mqlite"))
USER, PASSWORD = "mqadmin", "console-pass-1"


def run(*args: str, stdin: str | None = None, env: dict[str, str] | None = None) -> str:
    done = subprocess.run([MQLITE, *args], input=stdin, capture_output=True, text=True, check=False,
                          env={**os.environ, **(env or {})})
    if done.returncode != 0:
        raise SystemExit(f"mqlite {' '.join(args)} failed: {done.stdout}{done.stderr}")
    return done.stdout


def port_of(home: Path, qmgr: str) -> int:
    return int(json.loads((home / "qmgrs" / qmgr / "listeners.json").read_text())["tcp"])


def server_pid(home: Path, qmgr: str) -> int | None:
    try:
        return int((home / "qmgrs" / qmgr / "qmgr.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def setup(home: Path) -> None:
    for qmgr in ("QM1", "QM2"):
        run("crtmqm", "-p", "0", qmgr)
        run("strmqm", qmgr)
        run("passwd", "-m", qmgr, "-g", "mqm", USER, env={"MQLITE_PASSWORD": PASSWORD})
    run("runmqsc", "QM2", stdin="DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(RCVR)\n"
                                "SET CHLAUTH(QM1.TO.QM2) TYPE(QMGRMAP) QMNAME(QM1) USERSRC(CHANNEL)\n"
                                "DEFINE QLOCAL(APP.PAYMENTS)\n")
    run("runmqsc", "QM1", stdin="DEFINE QLOCAL(QM2) USAGE(XMITQ)\n"
                                f"DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(SDR) CONNAME('127.0.0.1({port_of(home, 'QM2')})') "
                                "XMITQ(QM2)\nDEFINE QREMOTE(PAYMENTS) RNAME(APP.PAYMENTS) RQMNAME(QM2)\n"
                                "DEFINE QLOCAL(APP.ORDERS) DESCR('Orders from the shop')\nDEFINE QLOCAL(APP.REPLIES)\n"
                                "DEFINE SUB(NEWS) TOPICSTR('news/#') DEST(APP.REPLIES)\n"
                                "ALTER QMGR CONFIGEV(ENABLED)\nDEFINE QLOCAL(APP.AUDIT)\n"
                                "START CHANNEL(QM1.TO.QM2)\n")
    for i in range(1, 6):
        run("put", "-m", "QM1", "APP.ORDERS", stdin=f"order {i}\n")
    run("put", "-m", "QM1", "PAYMENTS", stdin="payment 1\n")


def start_web(home: Path) -> tuple[str, int]:
    run("setmqweb", "properties", "-k", "httpHost", "-v", "127.0.0.1")
    run("setmqweb", "properties", "-k", "httpPort", "-v", "0")
    run("strmqweb")
    endpoints = json.loads((home / "web" / "endpoints.json").read_text())
    return endpoints["url"].split("/ibmmq/")[0], int(endpoints["pid"])


def shoot(base: str, out: Path) -> None:
    from playwright.sync_api import expect, sync_playwright

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        raise SystemExit("Debian's chromium is needed (apt-get install chromium)")
    expect.set_options(timeout=30_000)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": 1100, "height": 760})
            page.goto(base + "/console/login")
            page.screenshot(path=str(out / "login.png"))
            page.get_by_label("User").fill(USER)
            page.get_by_label("Password").fill(PASSWORD)
            page.get_by_role("button", name="Log in").click()
            expect(page.get_by_role("heading", name="Queue managers")).to_be_visible()
            page.screenshot(path=str(out / "qmgrs.png"))
            page.goto(base + "/console/qmgr/QM1")
            page.screenshot(path=str(out / "queues.png"), full_page=True)
            page.goto(base + "/console/qmgr/QM1/queue/APP.ORDERS")
            expect(page.get_by_label("Depth of APP.ORDERS latest")).to_have_text("5")
            for i in range(7, 12):  # a few more through the command line
                run("put", "-m", "QM1", "APP.ORDERS", stdin=f"order {i}\n")
            page.get_by_label("Message text").fill("order 6")
            page.get_by_role("button", name="Put message").click()
            expect(page.get_by_label("Depth of APP.ORDERS latest")).to_have_text("11")
            page.get_by_role("button", name="Browse first message").click()
            expect(page.get_by_role("status", name="Message")).to_have_text("order 1")
            page.screenshot(path=str(out / "queue.png"))
            page.goto(base + "/console/qmgr/QM1/channels")
            page.screenshot(path=str(out / "channels.png"))
            page.goto(base + "/console/network")
            expect(page.locator('g.edge[data-channel="QM1.TO.QM2"]')).to_have_attribute("data-status", "RUNNING")
            page.screenshot(path=str(out / "network.png"))
            page.goto(base + "/console/qmgr/QM1/mqsc")
            page.get_by_role("textbox", name="MQSC command").fill("DISPLAY CHSTATUS(QM1.TO.QM2) STATUS MSGS")
            page.get_by_role("button", name="Run").click()
            expect(page.get_by_role("status", name="Command output")).to_contain_text("RUNNING")
            page.screenshot(path=str(out / "mqsc.png"))
            page.goto(base + "/console/qmgr/QM1/events")
            page.screenshot(path=str(out / "events.png"), full_page=False)
        finally:
            browser.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent.parent / "docs" / "console")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="mqlite-console-") as tmp:
        home = Path(tmp) / "home"
        home.mkdir()
        os.environ["MQLITE_HOME"] = str(home)
        os.environ["MQLITE_CONSOLE_SAMPLE_SECONDS"] = "1"
        web_pid = None
        try:
            setup(home)
            base, web_pid = start_web(home)
            shoot(base, args.out)
        finally:
            pids = [pid for qmgr in ("QM1", "QM2") if (pid := server_pid(home, qmgr))]
            subprocess.run([MQLITE, "endmqweb"], capture_output=True, check=False)
            for qmgr in ("QM1", "QM2"):
                subprocess.run([MQLITE, "endmqm", "-i", qmgr], capture_output=True, check=False)
            for pid in [p for p in [web_pid, *pids] if p]:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
    print(f"screenshots in {args.out}")


if __name__ == "__main__":
    main()
