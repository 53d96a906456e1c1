"""The console in a real headless Chromium (Debian's ``chromium``, driven by Playwright with
``executable_path``: no browser download): two queue managers, the web server started by
``mqlite strmqweb`` and ended by ``endmqweb`` (by pid if that fails). The browser logs in, creates
a queue, puts and browses a message, sees the depth chart move, runs MQSC, and sees a sender
channel go from INACTIVE to RUNNING on the network picture. Every wait is for a condition."""

from __future__ import annotations

import json
import os
import shutil
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from helpers.credentials import ADMIN, add_user
from helpers.module_qmgrs import started
from helpers.mqsc import RunCli
from mqlite.cli.state import process_alive

playwright_api = pytest.importorskip("playwright.sync_api")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (make tools installs it)")
WAIT_MS = 30_000  # an upper bound on each condition, not a pause
playwright_api.expect.set_options(timeout=WAIT_MS)


def start_web(home: Path, run_cli: RunCli) -> tuple[str, int]:
    for key, value in {"httpHost": "127.0.0.1", "httpPort": "0"}.items():
        result = run_cli("setmqweb", "properties", "-k", key, "-v", value)
        assert result.returncode == 0, result.stdout + result.stderr
    result = run_cli("strmqweb")
    assert result.returncode == 0, result.stdout + result.stderr
    endpoints = json.loads((home / "web" / "endpoints.json").read_text())
    base = endpoints["url"].split("/ibmmq/")[0]
    return base, int(endpoints["pid"])


@pytest.fixture(scope="module")
def console(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    home = tmp_path_factory.mktemp("console") / "home"
    before = os.environ.get("MQLITE_CONSOLE_SAMPLE_SECONDS")
    os.environ["MQLITE_CONSOLE_SAMPLE_SECONDS"] = "1"  # the web server samples the charts every second
    try:
        with started(home, ["QM1", "QM2"]) as (qmgrs, run_cli):
            for name in qmgrs:
                add_user(home, name, ADMIN)
            receiver = ("DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(RCVR)\n"
                        "SET CHLAUTH(QM1.TO.QM2) TYPE(QMGRMAP) QMNAME(QM1) USERSRC(CHANNEL)\n")
            assert run_cli("runmqsc", "QM2", input=receiver).returncode == 0
            sender = ("DEFINE QLOCAL(QM2) USAGE(XMITQ)\n"
                      f"DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(SDR) CONNAME('127.0.0.1({qmgrs['QM2'].port})') XMITQ(QM2)\n")
            assert run_cli("runmqsc", "QM1", input=sender).returncode == 0
            base, pid = start_web(home, run_cli)
            try:
                yield {"base": base, "run_cli": run_cli}
            finally:
                result = run_cli("endmqweb")
                if process_alive(pid):
                    os.kill(pid, signal.SIGKILL)
                assert result.returncode == 0, result.stdout + result.stderr
    finally:
        if before is None:
            os.environ.pop("MQLITE_CONSOLE_SAMPLE_SECONDS", None)
        else:
            os.environ["MQLITE_CONSOLE_SAMPLE_SECONDS"] = before


@pytest.fixture(scope="module")
def browser(console: dict[str, Any]) -> Iterator[Any]:
    with playwright_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            yield chromium
        finally:
            chromium.close()  # ends the browser's processes


def log_in(page: Any, base: str, password: str = ADMIN.password) -> None:
    page.get_by_label("User").fill(ADMIN.user)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()


@pytest.fixture(scope="module")
def page(console: dict[str, Any], browser: Any) -> Iterator[Any]:
    """A logged-in tab."""
    context = browser.new_context()
    tab = context.new_page()
    tab.set_default_timeout(WAIT_MS)
    tab.goto(console["base"] + "/console/login")
    log_in(tab, console["base"])
    playwright_api.expect(tab.get_by_role("heading", name="Queue managers")).to_be_visible()
    yield tab
    context.close()


def test_login_then_the_queue_managers(console: dict[str, Any], browser: Any) -> None:
    expect = playwright_api.expect
    context = browser.new_context()
    page = context.new_page()
    page.goto(console["base"] + "/console/qmgr")
    expect(page.get_by_role("heading", name="Log in")).to_be_visible()  # no session: the login page
    log_in(page, console["base"], "wrong")
    expect(page.get_by_role("alert")).to_contain_text("Login failed")
    log_in(page, console["base"])
    expect(page.get_by_role("heading", name="Queue managers")).to_be_visible()
    table = page.get_by_role("table", name="Queue managers of the installation")
    expect(table.get_by_role("row", name="QM1 RUNNING")).to_be_visible()
    expect(table.get_by_role("row", name="QM2 RUNNING")).to_be_visible()
    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_role("heading", name="Log in")).to_be_visible()
    page.goto(console["base"] + "/console/qmgr")
    expect(page.get_by_role("heading", name="Log in")).to_be_visible()  # the session is gone
    context.close()


def test_create_a_queue_put_browse_and_the_depth_chart(console: dict[str, Any], page: Any) -> None:
    expect = playwright_api.expect
    page.goto(console["base"] + "/console/qmgr/QM1")
    page.get_by_label("Queue name").fill("CONSOLE.Q")
    page.get_by_role("button", name="Create queue").click()
    expect(page.get_by_role("navigation", name="Pages of queues")).to_contain_text("Queues 1-")
    page.get_by_role("link", name="CONSOLE.Q").click()
    expect(page.get_by_role("heading", name="Queue CONSOLE.Q on QM1")).to_be_visible()
    depth = page.get_by_label("Depth of CONSOLE.Q latest")
    expect(depth).to_have_text("0")  # sampled before the put
    page.get_by_label("Message text").fill("hello from the console")
    page.get_by_role("button", name="Put message").click()
    messages = page.get_by_role("table", name="Messages on CONSOLE.Q (browsed, at most 50)")
    expect(messages).to_contain_text("hello from the console")
    page.get_by_role("button", name="Browse first message").click()
    expect(page.get_by_role("status", name="Message")).to_have_text("hello from the console")
    expect(depth).to_have_text("1")  # the chart moved
    page.get_by_role("button", name="Get first message").click()
    expect(page.get_by_role("status", name="Message")).to_have_text("hello from the console")
    expect(messages).to_contain_text("The queue is empty.")
    expect(depth).to_have_text("0")


def test_a_channel_goes_from_inactive_to_running_on_the_network_picture(console: dict[str, Any], page: Any) -> None:
    expect = playwright_api.expect
    page.goto(console["base"] + "/console/network")
    edge = page.locator('g.edge[data-channel="QM1.TO.QM2"]')
    expect(edge).to_have_attribute("data-status", "INACTIVE")
    expect(edge).to_have_attribute("data-target", "QM2")
    page.goto(console["base"] + "/console/qmgr/QM1/mqsc")
    page.get_by_role("textbox", name="MQSC command").fill("START CHANNEL(QM1.TO.QM2)")
    page.get_by_role("button", name="Run").click()
    expect(page.get_by_role("status", name="Command output")).to_contain_text("AMQ")
    page.goto(console["base"] + "/console/network")
    edge = page.locator('g.edge[data-channel="QM1.TO.QM2"]')
    expect(edge).to_have_attribute("data-status", "RUNNING")  # the picture is polled until it shows it
    expect(page.get_by_role("img", name="channel QM1.TO.QM2 from QM1 to QM2: RUNNING")).to_be_visible()
    page.goto(console["base"] + "/console/qmgr/QM1/channels")
    expect(page.get_by_role("table", name="Channels of QM1").get_by_role("row", name="QM1.TO.QM2")).to_contain_text(
        "RUNNING")


def test_topics_page(console: dict[str, Any], page: Any) -> None:
    expect = playwright_api.expect
    page.goto(console["base"] + "/console/qmgr/QM1/mqsc")
    for command, done in [("DEFINE QLOCAL(CONSOLE.NEWS)", "AMQ8006I"),
                          ("DEFINE SUB(CONSOLE.SUB) TOPICSTR('console/news') DEST(CONSOLE.NEWS)", "AMQ8094I")]:
        page.get_by_role("textbox", name="MQSC command").fill(command)
        page.get_by_role("button", name="Run").click()
        expect(page.get_by_role("status", name="Command output")).to_contain_text(done)
    page.goto(console["base"] + "/console/qmgr/QM1/topics")
    expect(page.get_by_role("table", name="Subscriptions")).to_contain_text("console/news")
    expect(page.get_by_role("table", name="Topic tree")).to_contain_text("console/news")


def test_events_are_shown_readably(console: dict[str, Any], page: Any) -> None:
    expect = playwright_api.expect
    page.goto(console["base"] + "/console/qmgr/QM1/mqsc")
    commands = [("ALTER QMGR CONFIGEV(ENABLED)", "AMQ8005I"), ("DEFINE QLOCAL(CONSOLE.EVENTFUL)", "AMQ8006I")]
    for command, done in commands:
        page.get_by_role("textbox", name="MQSC command").fill(command)
        page.get_by_role("button", name="Run").click()
        expect(page.get_by_role("status", name="Command output")).to_contain_text(done)
    page.get_by_role("link", name="Events").click()
    config = page.get_by_role("region", name="Events on SYSTEM.ADMIN.CONFIG.EVENT")
    expect(config).to_contain_text("Create object")
    expect(config).to_contain_text("CONSOLE.EVENTFUL")
