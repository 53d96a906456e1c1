"""A queue read by sequence numbers, as stream readers use it: a range of messages browsed into
Arrow record batches (``read_range``), a range cut into partitions (``slices``)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from mqlite.spark.schema import to_batch

# Messages per browse call and per Arrow batch: small enough that Spark works on one batch while
# the next is fetched, large enough that per-batch costs vanish.
CHUNK = 2_000


def read_range(qm: Any, queue: str, after: int, through: int, columns: Sequence[str],
               qmgr: str | None = None) -> Iterator[Any]:
    """The available messages of ``queue`` with ``after < seq <= through``, browsed (nothing is
    removed) as Arrow record batches of ``columns``; the same range gives the same messages."""
    from mqlite.protocol.native import Op

    call = qm.get_handle().call  # the wire form: rows straight from the MQMD lists
    while after < through:
        batch = call(Op.BROWSE_RANGE, [queue, after, through, CHUNK])
        if not batch:
            return
        # One Arrow record batch per browse: Spark takes it without pickling each row.
        yield to_batch([(md, props, body) for _, md, props, body in batch], columns, qmgr)
        after = batch[-1][0]


def slices(after: int, through: int, size: int) -> list[tuple[int, int]]:
    """``after < seq <= through`` as consecutive ranges of at most ``size`` sequence numbers."""
    return [(start, min(start + size, through)) for start in range(after, through, size)]
