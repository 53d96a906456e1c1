"""A pymqi ``Queue`` dropped while open is closed, as pymqi's ``Queue.__del__`` closes it:
programs (and pymqi's own test suite, which deletes its queue right after) open a ``Queue``
in a function and never call ``close()``."""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import mqlite as pymqi
from helpers.qmgrs import QMgr

CMQC = pymqi.CMQC
QUEUE = "TEST.DROPPED"


@pytest.fixture
def qmgr(qmgr_factory: Callable[..., QMgr], run_cli: Callable[..., Any]) -> Iterator[pymqi.QueueManager]:
    started = qmgr_factory("QM1", port=False)
    defined = run_cli("runmqsc", started.name, input=f"DEFINE QLOCAL({QUEUE})\n")
    assert defined.returncode == 0, defined.stdout
    qmgr = pymqi.connect("QM1")  # bindings mode, as the user who created it
    yield qmgr
    qmgr.disconnect()


def _open_and_drop(qmgr: pymqi.QueueManager) -> None:
    queue = pymqi.Queue(qmgr, QUEUE, CMQC.MQOO_INPUT_EXCLUSIVE)
    assert queue.is_open


def test_a_dropped_queue_is_closed_before_the_next_call(qmgr: pymqi.QueueManager) -> None:
    _open_and_drop(qmgr)
    gc.collect()
    # exclusive input again: refused with MQRC_OBJECT_IN_USE while the first handle stays open
    again = pymqi.Queue(qmgr, QUEUE, CMQC.MQOO_INPUT_EXCLUSIVE)
    again.close()
    code, lines = qmgr.mqsc(f"DELETE QLOCAL({QUEUE}) PURGE")
    assert code == 0, lines


def test_an_implicitly_opened_queue_too(qmgr: pymqi.QueueManager) -> None:
    queue = pymqi.Queue(qmgr, QUEUE)
    queue.put(b"x")
    assert queue.get() == b"x"
    del queue
    gc.collect()
    code, lines = qmgr.mqsc(f"DELETE QLOCAL({QUEUE})")  # refused (in use) while a handle is open
    assert code == 0, lines


def test_a_closed_queue_closes_nothing_more(qmgr: pymqi.QueueManager) -> None:
    queue = pymqi.Queue(qmgr, QUEUE, CMQC.MQOO_OUTPUT)
    queue.put(b"kept")
    queue.close()
    other = pymqi.Queue(qmgr, QUEUE, CMQC.MQOO_INPUT_AS_Q_DEF)
    del queue
    gc.collect()
    assert other.get() == b"kept"  # the handle numbers of the first are not closed again
    other.close()
