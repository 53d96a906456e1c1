"""core/network/clusters/channels.py: auto-defined cluster-sender channels (B:R-CXQ-7, B:SC-79)."""

from __future__ import annotations

from mqlite.core.network.clusters.channels import auto_sender, deftype


def test_an_auto_defined_sender_is_named_and_addressed_after_the_partners_receiver() -> None:
    """B:SC-79: QM1's CLUSRCVR SALES.QM1 becomes QM2's auto-defined CLUSSDR SALES.QM1."""
    published = {"CONNAME": "host1(1414)", "CLUSTER": "SALES", "BATCHSZ": 100, "CLWLWGHT": 80, "NETPRTY": 3,
                 "SSLCIPH": "ANY_TLS12_OR_HIGHER", "MCAUSER": "secret", "SHORTRTY": 1}
    local = {"SHORTRTY": 10, "SHORTTMR": 60, "LONGRTY": 999_999_999, "LONGTMR": 1200, "BATCHSZ": 50}
    sender = auto_sender("SALES.QM1", published, local)
    assert sender["CHLTYPE"] == "CLUSSDR" and sender["CHANNEL"] == "SALES.QM1" and sender["AUTODEF"]
    assert (sender["CONNAME"], sender["CLUSTER"], sender["BATCHSZ"], sender["CLWLWGHT"], sender["NETPRTY"],
            sender["SSLCIPH"]) == ("host1(1414)", "SALES", 100, 80, 3, "ANY_TLS12_OR_HIGHER")
    assert "MCAUSER" not in sender  # the receiving end's identity is its own business
    assert sender["SHORTRTY"] == 10  # retries are the sending end's own


def test_deftype_tells_manual_automatic_and_both() -> None:
    assert [deftype(True, False), deftype(False, True), deftype(True, True)] == ["CLUSSDR", "CLUSSDRA", "CLUSSDRB"]
