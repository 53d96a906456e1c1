"""A queue manager inside the calling process, on its own thread and event loop.

``with mqlite.embedded("QM1", home=tmp) as qm: ...`` creates the queue manager if needed,
starts it, and ends it on exit; ``mqlite.connect("QM1")`` reaches it meanwhile. Tests,
notebooks and the Spark demo use it; it runs the same code as ``strmqm``.
"""

from __future__ import annotations

import asyncio
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from mqlite import paths
from mqlite.server.host import QueueManagerHost
from mqlite.server.os_identity import current_user


class EmbeddedQueueManager:
    """A handle on an embedded queue manager: its name, home, TCP ports, and ``stop``."""

    def __init__(self, name: str, home: Path, port: int | None, mqtt_port: int | None = None) -> None:
        self.name = name
        self.home = home
        self.port = port
        self.mqtt_port = mqtt_port
        self._host: QueueManagerHost | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._error: BaseException | None = None

    @property
    def host(self) -> QueueManagerHost | None:
        """The running host (its connections, runtime and store), for inspection."""
        return self._host

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name=f"mqlite-{self.name}", daemon=True)
        self._thread.start()
        self._ready.wait()
        if self._error is not None:
            raise self._error

    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        self._loop = loop
        try:
            loop.run_until_complete(self._serve())
        except BaseException as error:  # reported to the starting thread
            self._error = error
            self._ready.set()
        finally:
            loop.close()

    async def _serve(self) -> None:
        # The calling process's user administers an embedded queue manager, whoever created it.
        host = QueueManagerHost(self.name, self.port, bind="127.0.0.1", mqtt_port=self.mqtt_port,
                                creator=current_user())
        self._host = host
        await host.start()
        self.port, self.mqtt_port = host.port, host.mqtt_port
        self._ready.set()
        await host.ended.wait()

    def stop(self, immediate: bool = False) -> None:
        host, loop = self._host, self._loop
        if host is None or loop is None or loop.is_closed():
            return
        future = asyncio.run_coroutine_threadsafe(host.stop(immediate), loop)
        future.result(timeout=60)
        if self._thread is not None:
            self._thread.join(timeout=60)


@contextmanager
def embedded(
    name: str, home: str | os.PathLike[str] | None = None, port: int | None = None, mqtt_port: int | None = None,
) -> Iterator[EmbeddedQueueManager]:
    """Run queue manager ``name`` in this process (``port=0``: a TCP port chosen by the OS;
    ``mqtt_port``: an MQTT listener too, 0 for one the OS chooses)."""
    previous = os.environ.get("MQLITE_HOME")
    if home is not None:
        os.environ["MQLITE_HOME"] = str(home)
    try:
        directory = paths.qmgr_dir(name)
        if not directory.is_dir():
            directory.mkdir(parents=True)
            paths.write_config(name, {"name": name, "port": port, "created": time.time(), "creator": current_user()})
        qm = EmbeddedQueueManager(name, paths.home(), port, mqtt_port)
        qm.start()
        try:
            yield qm
        finally:
            qm.stop()
    finally:
        if home is not None:
            if previous is None:
                os.environ.pop("MQLITE_HOME", None)
            else:
                os.environ["MQLITE_HOME"] = previous
