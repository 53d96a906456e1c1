"""The authority service: administrators, secure by default, the union of a user's and its
groups' authority, the cache and its invalidation, records in the store (spec C A-31)."""

from __future__ import annotations

import pytest

from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.core.qmgr import QueueManager
from mqlite.core.security.principal import Principal
from mqlite.core.security.records import GROUP, PRINCIPAL
from mqlite.core.security.service import STORE_KIND, AuthorityService
from mqlite.store.sqlite import Store
from mqlite.store.tx import StoreTx

BOB = Principal("bob", frozenset({"apps"}))
CAROL = Principal("carol", frozenset({"staff", "apps"}))


class Holder:
    def __init__(self) -> None:
        self.tx = StoreTx()


def service(creator: str = "owner") -> AuthorityService:
    return AuthorityService("QM1", Holder(), creator)


def test_administrators_hold_everything_and_nobody_else_anything() -> None:  # C A-31
    auth = service()
    for admin in (Principal("owner"), Principal("anyone", frozenset({"mqm"}))):
        assert auth.allowed(admin, C.MQOT_Q, "ANY.QUEUE", C.MQZAO_ALL)
        assert auth.allowed(admin, C.MQOT_Q_MGR, "QM1", C.MQZAO_CONNECT)
    assert not auth.allowed(BOB, C.MQOT_Q_MGR, "QM1", C.MQZAO_CONNECT)  # secure by default
    assert not auth.allowed(BOB, C.MQOT_Q, "Q1", C.MQZAO_INQUIRE)


def test_a_user_holds_the_union_of_its_own_and_its_groups_authority() -> None:
    auth = service()
    auth.set_authority(C.MQOT_Q, "APP.**", "bob", PRINCIPAL, add=C.MQZAO_OUTPUT)
    auth.set_authority(C.MQOT_Q, "APP.*", "apps", GROUP, add=C.MQZAO_INPUT)
    assert auth.held(BOB, C.MQOT_Q, "APP.Q1") == C.MQZAO_OUTPUT | C.MQZAO_INPUT
    assert auth.allowed(BOB, C.MQOT_Q, "APP.Q1", C.MQZAO_OUTPUT | C.MQZAO_INPUT)
    assert not auth.allowed(BOB, C.MQOT_Q, "APP.Q1", C.MQZAO_OUTPUT | C.MQZAO_BROWSE)  # all bits needed
    assert auth.held(CAROL, C.MQOT_Q, "APP.Q1") == C.MQZAO_INPUT
    assert auth.held(BOB, C.MQOT_TOPIC, "APP.Q1") == C.MQZAO_NONE  # records are per object type


def test_queue_types_share_the_queue_records() -> None:
    auth = service()
    auth.set_authority(C.MQOT_LOCAL_Q, "Q1", "bob", PRINCIPAL, add=C.MQZAO_BROWSE)
    assert auth.allowed(BOB, C.MQOT_Q, "Q1", C.MQZAO_BROWSE)
    assert auth.allowed(BOB, C.MQOT_ALIAS_Q, "Q1", C.MQZAO_BROWSE)


def test_every_change_and_refresh_empties_the_cache() -> None:
    auth = service()
    assert not auth.allowed(BOB, C.MQOT_Q, "Q1", C.MQZAO_OUTPUT)  # remembered as nothing
    auth.set_authority(C.MQOT_Q, "Q1", "apps", GROUP, add=C.MQZAO_OUTPUT | C.MQZAO_INPUT)
    assert auth.allowed(BOB, C.MQOT_Q, "Q1", C.MQZAO_OUTPUT)
    auth.set_authority(C.MQOT_Q, "Q1", "apps", GROUP, remove=C.MQZAO_OUTPUT)
    assert not auth.allowed(BOB, C.MQOT_Q, "Q1", C.MQZAO_OUTPUT)
    assert auth.allowed(BOB, C.MQOT_Q, "Q1", C.MQZAO_INPUT)
    assert auth.delete_authority(C.MQOT_Q, "Q1", "apps", GROUP)
    assert not auth.allowed(BOB, C.MQOT_Q, "Q1", C.MQZAO_INPUT)
    assert not auth.delete_authority(C.MQOT_Q, "Q1", "apps", GROUP)
    auth._cache[(BOB, C.MQOT_Q, "Q1")] = C.MQZAO_ALL  # a stale decision...
    auth.refresh()  # ... REFRESH SECURITY forgets
    assert not auth.allowed(BOB, C.MQOT_Q, "Q1", C.MQZAO_INPUT)


def test_records_go_to_the_store_and_come_back(store: Store) -> None:
    holder = Holder()
    auth = AuthorityService("QM1", holder, "owner")
    auth.set_authority(C.MQOT_Q_MGR, "QM1", "bob", PRINCIPAL, add=C.MQZAO_CONNECT | C.MQZAO_INQUIRE)
    auth.set_authority(C.MQOT_Q, "APP.**", "apps", GROUP, add=C.MQZAO_OUTPUT)
    auth.set_authority(C.MQOT_Q, "GONE", "apps", GROUP, add=C.MQZAO_OUTPUT)
    auth.delete_authority(C.MQOT_Q, "GONE", "apps", GROUP)
    store.write(holder.tx)
    restored = service()
    restored.restore(store.load_records(STORE_KIND).values())
    assert restored.records() == auth.records()
    assert restored.allowed(BOB, C.MQOT_Q_MGR, "QM1", C.MQZAO_CONNECT)
    assert restored.allowed(BOB, C.MQOT_Q, "APP.X", C.MQZAO_OUTPUT)
    assert not restored.allowed(BOB, C.MQOT_Q, "GONE", C.MQZAO_OUTPUT)


def test_the_queue_manager_facade_has_the_service() -> None:
    qm = QueueManager("QM1", creator="owner")
    assert qm.security.allowed(Principal("owner"), C.MQOT_Q_MGR, "QM1", C.MQZAO_CONNECT)
    conn = qm.connect(Principal("owner", frozenset({"staff"})), "app.py", 7)
    assert conn.user == "owner" and conn.principal.groups == {"staff"}


def test_connect_needs_connect_authority_on_the_queue_manager() -> None:  # secure by default
    qm = QueueManager("QM1", creator="owner")
    qm.bootstrap()
    with pytest.raises(MQError) as refused:
        qm.connect(BOB, "app.py", 1)
    assert refused.value.reason == C.MQRC_NOT_AUTHORIZED
    assert "AMQ8077W" in refused.value.text and "'bob'" in refused.value.text
    assert not qm.connections
    assert qm.connect(Principal("owner"), "admin.py", 2).user == "owner"  # the creator
    assert qm.connect(Principal("ops", frozenset({"mqm"})), "admin.py", 3).user == "ops"  # group mqm
    qm.security.set_authority(C.MQOT_Q_MGR, "QM1", "apps", GROUP, add=C.MQZAO_CONNECT)
    assert qm.connect(BOB, "app.py", 1).principal == BOB  # granted through its group
    qm.security.set_authority(C.MQOT_Q_MGR, "QM1", "apps", GROUP, remove=C.MQZAO_CONNECT)
    with pytest.raises(MQError):
        qm.connect(BOB, "app.py", 1)
