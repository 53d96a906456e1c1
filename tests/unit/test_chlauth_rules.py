"""Channel authentication: IBM's patterns, each record type and each precedence case, as the
pure decision applies them (mqlite.core.security.chlauth). The spec has no CHLAUTH IDs; each
test names the IBM rule it holds (IBM MQ Security, "Channel authentication records")."""

from __future__ import annotations

import pytest

from mqlite.cmqc import security as S
from mqlite.core.security.chlauth import (
    ADDRESSMAP,
    BLOCKADDR,
    BLOCKUSER,
    DEFAULT_RECORDS,
    QMGRMAP,
    SSLPEERMAP,
    USERMAP,
    ChlauthRecord,
    Connecting,
    decide,
    refusal_message,
    sort_key,
)
from mqlite.core.security.chlauth_patterns import (
    AddressPatternError,
    address_matches,
    dn_matches,
    generic_matches,
    parse_address,
)

ADMINS = {"mqm", "root"}


def is_admin(user: str) -> bool:
    return user in ADMINS


def conn(channel: str = "APP.SVRCONN", address: str = "192.168.1.10", user: str = "alice", **kw: str) -> Connecting:
    return Connecting(channel, address, user, **kw)


# -- patterns ----------------------------------------------------------------------------------
@pytest.mark.parametrize(("pattern", "name", "hit"), [
    ("*", "ANY.CHANNEL", True), ("SYSTEM.*", "SYSTEM.DEF.SVRCONN", True), ("SYSTEM.*", "DEV.APP", False),
    ("*.SVRCONN", "DEV.APP.SVRCONN", True), ("DEV.*.SVRCONN", "DEV.APP.SVRCONN", True),
    ("DEV.*.SVRCONN", "DEV.APP.CONN", False), ("A*B*C", "AxxBxxC", True), ("EXACT", "EXACT", True),
    ("EXACT", "EXACT2", False),
])
def test_profile_asterisk_in_any_position(pattern: str, name: str, hit: bool) -> None:
    assert generic_matches(pattern, name) is hit


@pytest.mark.parametrize(("pattern", "address", "hit"), [
    ("*", "10.1.2.3", True), ("*", "::1", True),
    ("192.168.1.10", "192.168.1.10", True), ("192.168.1.10", "192.168.1.11", False),
    ("192.168.1.*", "192.168.1.77", True), ("192.168.*", "192.168.200.1", True), ("192.168.*", "192.169.0.1", False),
    ("192.168.1-20.*", "192.168.20.5", True), ("192.168.1-20.*", "192.168.21.5", False),
    ("192.168.1.1-8", "192.168.1.8", True), ("192.168.1.1-8", "192.168.1.9", False),
    ("10.*.0.1", "10.99.0.1", True), ("10.*.0.1", "10.99.0.2", False),
    ("127.0.0.1", "::ffff:127.0.0.1", True),  # an IPv4-mapped IPv6 peer is its IPv4 address
    ("127.0.0.1", "::1", False),
    ("::1", "::1", True), ("::1", "0:0:0:0:0:0:0:1", True), ("2001:db8:*", "2001:db8::5", True),
    ("2001:db8:*", "2001:db9::5", False), ("2001:db8:0-ff:*", "2001:db8:a0::1", True),
    ("fe80:*", "192.168.1.1", False),
])
def test_ibm_generic_ip_addresses(pattern: str, address: str, hit: bool) -> None:
    assert address_matches(pattern, address) is hit


@pytest.mark.parametrize("pattern", ["192.168.1", "192.168.300.1", "192.168.9-2.*", "1.2.3.4.5",
                                     "myhost.example.com", "192.168.1*", "2001:db8:zz:*"])
def test_bad_address_patterns_are_refused(pattern: str) -> None:
    with pytest.raises(AddressPatternError):
        parse_address(pattern)


def test_address_specificity_exact_beats_range_beats_wildcard() -> None:
    exact, narrow, wide, star = (parse_address(p).specificity for p in
                                 ("192.168.1.5", "192.168.1.1-9", "192.168.1.1-200", "192.168.1.*"))
    assert exact > narrow > wide > star > parse_address("192.168.*").specificity > parse_address("*").specificity


@pytest.mark.parametrize(("pattern", "dn", "hit"), [
    ("CN=TEST,OU=Test Group", "CN=TEST,OU=Test Group,O=IBM,C=GB", True),
    ("CN=test", "CN=TEST,O=IBM", True),  # values are not case-sensitive
    ("CN=TEST,O=Other", "CN=TEST,O=IBM", False),
    ("CN=app*", "CN=app42,O=IBM", True), ("CN=*42", "CN=app42", True), ("CN=app*", "CN=web1", False),
    ("OU=A,OU=B", "CN=x,OU=A,OU=B,OU=C", True),  # repeated attributes match in order
    ("OU=B,OU=A", "CN=x,OU=A,OU=B,OU=C", False),
    ("CN=a\\,b", "CN=a\\,b,O=x", True),
])
def test_sslpeer_dn_filters(pattern: str, dn: str, hit: bool) -> None:
    assert dn_matches(pattern, dn) is hit


# -- each record type -------------------------------------------------------------------------
def test_no_records_runs_as_the_asserted_user_or_the_channel_mcauser() -> None:
    assert decide([], conn(), is_admin).user == "alice"
    assert decide([], conn(mcauser="app"), is_admin).user == "app"


def test_blockaddr_refuses_the_address_before_anything_else() -> None:
    records = [ChlauthRecord("*", BLOCKADDR, addrlist=("10.0.0.*", "192.168.1.10")),
               ChlauthRecord("APP.*", ADDRESSMAP, address="*", usersrc="MAP", mcauser="app")]
    decision = decide(records, conn(), is_admin)
    assert not decision.allowed and decision.qualifier == S.MQRQ_CHANNEL_BLOCKED_ADDRESS
    assert decision.record == records[0]
    assert decide(records, conn(address="192.168.1.11"), is_admin).allowed
    assert refusal_message(decision, conn()).startswith("AMQ9782E")


def test_addressmap_map_noaccess_and_channel() -> None:
    mapped = [ChlauthRecord("APP.*", ADDRESSMAP, address="192.168.1.*", usersrc="MAP", mcauser="appuser")]
    assert decide(mapped, conn(), is_admin).user == "appuser"
    assert decide(mapped, conn(address="10.0.0.1"), is_admin).user == "alice"  # no match: as CHANNEL
    noaccess = [ChlauthRecord("APP.*", ADDRESSMAP, address="*", usersrc="NOACCESS")]
    decision = decide(noaccess, conn(), is_admin)
    assert not decision.allowed and decision.qualifier == S.MQRQ_CHANNEL_BLOCKED_NOACCESS
    assert refusal_message(decision, conn()).startswith("AMQ9777E: Channel was blocked.")
    channel = [ChlauthRecord("APP.*", ADDRESSMAP, address="*", usersrc="CHANNEL")]
    assert decide(channel, conn(mcauser="chl"), is_admin).user == "chl"


def test_usermap_maps_the_asserted_user_on_client_channels_only() -> None:
    records = [ChlauthRecord("*", USERMAP, clntuser="alice", usersrc="MAP", mcauser="appuser")]
    assert decide(records, conn(), is_admin).user == "appuser"
    assert decide(records, conn(user="bob"), is_admin).user == "bob"
    assert decide(records, conn(chltype="RCVR"), is_admin).user == "alice"


def test_qmgrmap_applies_to_message_channels_only() -> None:
    records = [ChlauthRecord("*", QMGRMAP, qmname="QM*", usersrc="MAP", mcauser="partner")]
    assert decide(records, conn(chltype="RCVR", qmname="QM2"), is_admin).user == "partner"
    assert decide(records, conn(qmname="QM2"), is_admin).user == "alice"


def test_sslpeermap_maps_a_certificate_dn_and_checks_the_issuer() -> None:
    records = [ChlauthRecord("*", SSLPEERMAP, sslpeer="CN=app1,O=IBM", sslcerti="CN=Test CA", usersrc="MAP",
                             mcauser="app1")]
    tls = conn(sslpeer="CN=app1,OU=x,O=IBM", sslcerti="CN=Test CA,O=IBM")
    assert decide(records, tls, is_admin).user == "app1"
    other_issuer = conn(sslpeer="CN=app1,O=IBM", sslcerti="CN=Evil CA")
    assert decide(records, other_issuer, is_admin).user == "alice"
    assert decide(records, conn(), is_admin).user == "alice"  # no certificate, no match


def test_blockuser_blocks_listed_users_and_mqadmin_blocks_administrators() -> None:
    records = [ChlauthRecord("*", BLOCKUSER, userlist=("guest", "*MQADMIN"))]
    assert decide(records, conn(user="guest"), is_admin).qualifier == S.MQRQ_CHANNEL_BLOCKED_USERID
    decision = decide(records, conn(user="mqm"), is_admin)
    assert not decision.allowed and decision.qualifier == S.MQRQ_CHANNEL_BLOCKED_USERID
    assert refusal_message(decision, conn(user="mqm")).startswith("AMQ9776E: Channel was blocked by userid.")
    assert decide(records, conn(), is_admin).allowed


def test_blockuser_applies_to_client_channels_only() -> None:
    records = [ChlauthRecord("*", BLOCKUSER, userlist=("*MQADMIN",))]
    assert decide(records, conn(user="mqm", chltype="RCVR"), is_admin).allowed


def test_warn_yes_lets_the_connection_through_and_reports_it() -> None:
    records = [ChlauthRecord("*", BLOCKUSER, userlist=("*MQADMIN",), warn=True),
               ChlauthRecord("APP.*", ADDRESSMAP, address="*", usersrc="NOACCESS", warn=True)]
    decision = decide(records, conn(user="mqm"), is_admin)
    assert decision.allowed and decision.user == "mqm"
    assert [q for q, _ in decision.warnings] == [S.MQRQ_CHANNEL_BLOCKED_NOACCESS, S.MQRQ_CHANNEL_BLOCKED_USERID]


def test_chckclnt_of_the_mapping_used_overrides_the_queue_manager() -> None:
    records = [ChlauthRecord("APP.*", ADDRESSMAP, address="*", usersrc="CHANNEL", chckclnt="REQUIRED")]
    assert decide(records, conn(), is_admin).chckclnt == "REQUIRED"
    records = [ChlauthRecord("APP.*", ADDRESSMAP, address="*", usersrc="CHANNEL")]
    assert decide(records, conn(), is_admin).chckclnt is None


def test_disabled_turns_every_rule_off() -> None:
    decision = decide(DEFAULT_RECORDS, conn("SYSTEM.DEF.SVRCONN", user="mqm"), is_admin, enabled=False)
    assert decision.allowed and decision.user == "mqm" and decision.record is None


# -- precedence -------------------------------------------------------------------------------
def test_most_specific_channel_profile_wins_over_type() -> None:
    records = [ChlauthRecord("*", USERMAP, clntuser="alice", usersrc="MAP", mcauser="generic"),
               ChlauthRecord("APP.SVRCONN", ADDRESSMAP, address="*", usersrc="MAP", mcauser="specific")]
    assert decide(records, conn(), is_admin).user == "specific"


def test_leftmost_literal_is_more_specific() -> None:
    records = [ChlauthRecord("*.SVRCONN", ADDRESSMAP, address="*", usersrc="MAP", mcauser="suffix"),
               ChlauthRecord("APP.*", ADDRESSMAP, address="*", usersrc="MAP", mcauser="prefix")]
    assert decide(records, conn(), is_admin).user == "prefix"


def test_within_a_profile_sslpeermap_then_usermap_then_addressmap() -> None:
    address = ChlauthRecord("*", ADDRESSMAP, address="*", usersrc="MAP", mcauser="by_address")
    user = ChlauthRecord("*", USERMAP, clntuser="alice", usersrc="MAP", mcauser="by_user")
    peer = ChlauthRecord("*", SSLPEERMAP, sslpeer="CN=app1", usersrc="MAP", mcauser="by_peer")
    assert decide([address, user], conn(), is_admin).user == "by_user"
    assert decide([address, user, peer], conn(sslpeer="CN=app1,O=x"), is_admin).user == "by_peer"
    assert decide([address], conn(), is_admin).user == "by_address"


def test_within_a_type_the_most_specific_address_wins() -> None:
    records = [ChlauthRecord("*", ADDRESSMAP, address="192.168.*", usersrc="MAP", mcauser="wide"),
               ChlauthRecord("*", ADDRESSMAP, address="192.168.1.1-20", usersrc="MAP", mcauser="range"),
               ChlauthRecord("*", ADDRESSMAP, address="192.168.1.10", usersrc="MAP", mcauser="exact")]
    assert decide(records, conn(), is_admin).user == "exact"
    assert decide(records, conn(address="192.168.1.11"), is_admin).user == "range"
    assert decide(records, conn(address="192.168.2.1"), is_admin).user == "wide"


def test_usermap_with_an_address_beats_one_without() -> None:
    records = [ChlauthRecord("*", USERMAP, clntuser="alice", usersrc="MAP", mcauser="anywhere"),
               ChlauthRecord("*", USERMAP, clntuser="alice", address="192.168.1.*", usersrc="MAP", mcauser="lan")]
    assert decide(records, conn(), is_admin).user == "lan"


def test_blockuser_applies_after_mapping_to_the_mapped_user() -> None:
    block = ChlauthRecord("*", BLOCKUSER, userlist=("*MQADMIN",))
    to_app = ChlauthRecord("APP.*", ADDRESSMAP, address="*", usersrc="MAP", mcauser="appuser")
    assert decide([block, to_app], conn(user="mqm"), is_admin).user == "appuser"  # an admin's client, mapped
    to_admin = ChlauthRecord("APP.*", USERMAP, clntuser="alice", usersrc="MAP", mcauser="mqm")
    decision = decide([block, to_admin], conn(), is_admin)  # an ordinary user mapped to an admin
    assert decision.qualifier == S.MQRQ_CHANNEL_BLOCKED_USERID and decision.user == "mqm"


def test_most_specific_blockuser_profile_replaces_the_generic_one() -> None:
    records = list(DEFAULT_RECORDS)
    assert decide(records, conn("DEV.ADMIN.SVRCONN", user="mqm"), is_admin).allowed
    assert not decide(records, conn("DEV.ADMIN.SVRCONN", user="nobody"), is_admin).allowed
    assert decide(records, conn("DEV.APP.SVRCONN", user="mqm"), is_admin).qualifier == S.MQRQ_CHANNEL_BLOCKED_USERID


def test_ibm_defaults_system_channels_no_access_except_system_admin_svrconn() -> None:
    decision = decide(DEFAULT_RECORDS, conn("SYSTEM.DEF.SVRCONN"), is_admin)
    assert decision.qualifier == S.MQRQ_CHANNEL_BLOCKED_NOACCESS and decision.record == DEFAULT_RECORDS[1]
    allowed = decide(DEFAULT_RECORDS, conn("SYSTEM.ADMIN.SVRCONN"), is_admin)
    assert allowed.allowed and allowed.record == DEFAULT_RECORDS[0]
    assert not decide(DEFAULT_RECORDS, conn("SYSTEM.ADMIN.SVRCONN", user="root"), is_admin).allowed
    assert decide(DEFAULT_RECORDS, conn("DEV.APP.SVRCONN"), is_admin).allowed


def test_display_order_is_most_specific_profile_first() -> None:
    ordered = sorted(DEFAULT_RECORDS, key=sort_key)
    assert [r.profile for r in ordered] == ["DEV.ADMIN.SVRCONN", "SYSTEM.ADMIN.SVRCONN", "SYSTEM.*", "*"]
