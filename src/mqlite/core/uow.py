"""Units of work: what a connection did under syncpoint, undone or made final together."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from mqlite.core.queues import Entry, LocalQueue


@dataclass(slots=True)
class UnitOfWork:
    """Puts become visible and gets final at commit; at backout puts vanish and gets return."""

    puts: list[tuple[LocalQueue, Entry]] = field(default_factory=list)
    gets: list[tuple[LocalQueue, Entry]] = field(default_factory=list)
    after_commit: list[Callable[[], None]] = field(default_factory=list)  # e.g. retaining a publication
    started: float = 0.0  # when its first put or get was made (DISPLAY CONN's UOWSTDA/UOWSTTI)

    def __len__(self) -> int:
        return len(self.puts) + len(self.gets)

    def __bool__(self) -> bool:
        return bool(self.puts or self.gets or self.after_commit)

    def add_put(self, queue: LocalQueue, entry: Entry, now: float) -> None:
        self.started = self.started or now
        self.puts.append((queue, entry))

    def add_get(self, queue: LocalQueue, entry: Entry, now: float) -> None:
        self.started = self.started or now
        self.gets.append((queue, entry))

    def take(self) -> tuple[list[tuple[LocalQueue, Entry]], list[tuple[LocalQueue, Entry]]]:
        puts, gets = self.puts, self.gets
        self.puts, self.gets = [], []
        self.started = 0.0
        return puts, gets

    def take_after_commit(self) -> list[Callable[[], None]]:
        actions, self.after_commit = self.after_commit, []
        return actions
