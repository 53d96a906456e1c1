"""How many of this queue manager's subscriptions want each topic pattern. Proxy subscriptions
and routes' interest change only with the first subscription to a pattern and the last: one
message to a neighbour however many subscribers (B:R-PXY-1, R-PXY-2, R-EMS-2)."""

from __future__ import annotations

__all__ = ["LocalInterest"]


class LocalInterest(dict[str, int]):
    """pattern -> subscriptions wanting it; ``counted`` says which pattern each counts for."""

    def __init__(self) -> None:
        super().__init__()
        self.counted: dict[bytes, str] = {}

    def add(self, sub_id: bytes, pattern: str) -> int:
        """A subscription counts for ``pattern``; the count now (1: the first)."""
        self.counted[sub_id] = pattern
        count = self[pattern] = self.get(pattern, 0) + 1
        return count

    def remove(self, sub_id: bytes) -> tuple[str, int] | None:
        """A subscription ended: its pattern and the count now (0: the last), or None when it
        did not count."""
        pattern = self.counted.pop(sub_id, None)
        if pattern is None:
            return None
        count = self[pattern] - 1
        if count:
            self[pattern] = count
        else:
            del self[pattern]
        return pattern, count

    def reset(self) -> None:
        self.clear()
        self.counted.clear()
