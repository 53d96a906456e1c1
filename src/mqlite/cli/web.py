"""The web server's control commands, IBM's names: ``strmqweb``, ``endmqweb``, ``dspmqweb`` and
``setmqweb properties -k NAME -v VALUE`` (``-d`` puts a property back to its default).

The server is its own process (``python -m mqlite.web``, see ``mqlite.web.server``), started
detached; its files are under ``$MQLITE_HOME/web/``: the settings (``web.json``), the pid file, the
endpoints it bound (``endpoints.json``: port 0 means the system picks) and its log.
"""

from __future__ import annotations

import dataclasses
import os
import signal
import subprocess
import sys
import time

import click

from mqlite.cli.common import fail
from mqlite.cli.state import process_alive
from mqlite.web import config as web_config

SERVER = "mqweb"
START_TIMEOUT = 60.0
END_TIMEOUT = 60.0


def running_pid() -> int | None:
    pid = web_config.read_pid()
    return pid if pid is not None and process_alive(pid) else None


@click.command()
def strmqweb() -> None:
    """Start the web server (the REST API) as its own process, detached."""
    pid = running_pid()
    if pid is not None:
        click.echo(f"Server {SERVER} is already running with process ID {pid}.")
        return
    directory = web_config.web_dir()
    directory.mkdir(parents=True, exist_ok=True)
    for stale in (web_config.pid_path(), web_config.endpoints_path()):
        stale.unlink(missing_ok=True)
    click.echo(f"Starting server {SERVER}.")
    with open(web_config.log_path(), "ab") as log:
        child = subprocess.Popen([sys.executable, "-m", "mqlite.web"], stdin=subprocess.DEVNULL, stdout=log,
                                 stderr=log, start_new_session=True, close_fds=True)
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if web_config.read_endpoints().get("pid") == child.pid:
            click.echo(f"Server {SERVER} started with process ID {child.pid}.")
            return
        if child.poll() is not None:
            break
        time.sleep(0.05)
    else:
        child.terminate()
    tail = web_config.log_path().read_text(errors="replace").splitlines()[-5:]
    fail("\n".join([f"Server {SERVER} could not start (see {web_config.log_path()}):", *tail]), 1)


@click.command()
def endmqweb() -> None:
    """End the web server: SIGTERM, then wait until its process is gone."""
    pid = running_pid()
    if pid is None:
        click.echo(f"Server {SERVER} is not running.")
        return
    click.echo(f"Stopping server {SERVER}.")
    os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + END_TIMEOUT
    while process_alive(pid):
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            deadline = float("inf")
        time.sleep(0.05)
    if web_config.read_pid() == pid:  # killed before it could remove its files
        web_config.pid_path().unlink(missing_ok=True)
        web_config.endpoints_path().unlink(missing_ok=True)
    click.echo(f"Server {SERVER} stopped.")


@click.group(invoke_without_command=True)
@click.pass_context
def dspmqweb(ctx: click.Context) -> None:
    """Show whether the web server runs, and its URLs (``dspmqweb properties -a``: its settings)."""
    if ctx.invoked_subcommand is not None:
        return
    pid = running_pid()
    endpoints = web_config.read_endpoints()
    if pid is None or not endpoints:
        click.echo(f"Server {SERVER} is not running.")
        ctx.exit(1)
    base = str(endpoints.get("url", "")).removesuffix("v2/")
    click.echo(f"Server {SERVER} is running.")
    click.echo("URLS:")
    click.echo(f"  {base}")


@dspmqweb.command("properties")
@click.option("-a", "show_all", is_flag=True, help="Every property, set or default.")
def dspmqweb_properties(show_all: bool) -> None:
    """The web server's properties (those set, or with -a all of them)."""
    current = dataclasses.asdict(web_config.load())
    defaults = dataclasses.asdict(web_config.WebConfig())
    click.echo(f"Server {SERVER} is configured with the following property settings:")
    for key, value in current.items():
        if show_all or value != defaults[key]:
            click.echo(f'  {key}="{value}"')


@click.group()
def setmqweb() -> None:
    """Change the web server's settings (read when it starts: restart it with endmqweb/strmqweb)."""


@setmqweb.command("properties")
@click.option("-k", "key", required=True, metavar="NAME",
              help="httpHost, httpPort, httpsPort, keyRepository, certLabel, maxRequestBodySize, ...")
@click.option("-v", "value", default=None, metavar="VALUE", help="The new value.")
@click.option("-d", "delete", is_flag=True, help="Put the property back to its default.")
def setmqweb_properties(key: str, value: str | None, delete: bool) -> None:
    """Set one property: ``setmqweb properties -k httpPort -v 9080``."""
    if delete == (value is not None):
        fail("Give either -v VALUE or -d.", 2)
    current = web_config.load()
    try:
        if delete:
            default = getattr(web_config.WebConfig(), key) if key in web_config.KEYS else None
            if default is None:
                raise ValueError(f"unknown property {key!r}; known: {', '.join(web_config.KEYS)}")
            changed = web_config.with_property(current, key, str(default))
        else:
            assert value is not None
            changed = web_config.with_property(current, key, value)
    except ValueError as e:
        fail(f"MQWB1100E: {e}", 1)
    web_config.save(changed)
    click.echo(f"MQWB1100I: The property {key} was {'reset' if delete else 'set'}"
               + ("" if running_pid() is None else "; it takes effect when the server is restarted") + ".")
