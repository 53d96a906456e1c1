"""Loading user exits named in qm.ini: the server imports the user's code, core gets a callable.

``PublishSubscribe:`` (spec C §8.2): ``PublishExitPath`` is an importable module or a ``.py``
file, ``PublishExitFunction`` the callable in it, ``PublishExitData`` the exit's MQPSXP.ExitData.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Mapping
from pathlib import Path

from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.core.pubsub.publish_exit import ExitFunction
from mqlite.core.qmgr import QueueManager


def load_publish_exit(path: str, function: str) -> ExitFunction:
    """Import ``function`` from ``path`` (a module name or a .py file); MQError 2531 if it fails
    (spec C R-PX-12: pub/sub is inhibited until the exit can be loaded)."""
    try:
        if path.endswith(".py") or "/" in path:
            spec = importlib.util.spec_from_file_location(Path(path).stem, path)
            if spec is None or spec.loader is None:
                raise ImportError(path)
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
        else:
            module = importlib.import_module(path)
        found = getattr(module, function)
    except Exception as error:  # any failure of the user's module
        raise MQError(C.MQRC_PUBSUB_INHIBITED, f"publish exit {path}:{function} cannot be loaded: {error}") from None
    if not callable(found):
        raise MQError(C.MQRC_PUBSUB_INHIBITED, f"publish exit {path}:{function} is not callable")
    return found  # type: ignore[no-any-return]


def configure_publish_exit(core: QueueManager, stanza: Mapping[str, str]) -> MQError | None:
    """Give core the exit of a ``PublishSubscribe:`` stanza; when it cannot be loaded, pub/sub
    is inhibited (2531) and the error is returned for the log."""
    path = stanza.get("PublishExitPath")
    if not path:
        return None
    try:
        function = load_publish_exit(path, stanza.get("PublishExitFunction", ""))
    except MQError as error:
        core.inhibit_pubsub(error.text)
        return error
    core.set_publish_exit(function, stanza.get("PublishExitData", ""))
    return None
