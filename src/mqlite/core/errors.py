"""The one exception the core raises: an MQ failure with IBM's reason code."""

from __future__ import annotations

MQCC_OK = 0
MQCC_WARNING = 1
MQCC_FAILED = 2


class MQError(Exception):
    """An MQI or admin call failed (or warned) with an IBM reason code."""

    def __init__(self, reason: int, text: str = "", comp: int = MQCC_FAILED) -> None:
        super().__init__(reason, text)
        self.reason = reason
        self.comp = comp
        self.text = text

    def __str__(self) -> str:
        from mqlite.reasons import reason_name

        name = reason_name(self.reason)
        suffix = f": {self.text}" if self.text else ""
        return f"{name} ({self.reason}){suffix}"


class ClusterLookup(MQError):
    """MQRC_UNKNOWN_OBJECT_NAME (2085) for a queue name the cluster's full repositories may know:
    the server asks them and opens again once they answered (B:R-CLQ-4)."""

    def __init__(self, name: str, kind: str = "QUEUE") -> None:
        what = "queue" if kind == "QUEUE" else "queue manager"
        super().__init__(2085 if kind == "QUEUE" else 2087, f"{what} {name} is not defined here nor known in a cluster")
        self.name = name
        self.kind = kind  # QUEUE, or QMGR (a queue manager named in the object descriptor)
