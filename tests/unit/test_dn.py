"""SSLPEER distinguished-name matching, rule by rule (IBM MQ's "rules for SSLPEER values"), and
the CipherSpec table."""

from __future__ import annotations

import pytest

from mqlite.protocol import tls as cipherspecs
from mqlite.protocol.dn import DNError, format_dn, from_certificate, matches, parse

CERT = "CN=John Smith,OU=Test,OU=Dev,O=IBM,L=Hursley,ST=Hampshire,C=GB"


def test_comma_or_semicolon_separate_and_spaces_around_them_are_ignored() -> None:
    assert parse("CN=John Smith , O=IBM ;OU=Test,  C=GB") == (
        ("CN", "John Smith"), ("O", "IBM"), ("OU", "Test"), ("C", "GB"))


def test_only_named_attributes_are_checked_and_their_order_does_not_matter() -> None:
    assert matches("C=GB, O=IBM", CERT)
    assert matches("O=IBM; CN=John Smith", CERT)
    assert not matches("O=IBM, CN=Jane Smith", CERT)
    assert not matches("UID=jsmith", CERT)  # named but absent


def test_values_match_whatever_their_case() -> None:
    assert matches("CN=JOHN SMITH,O=ibm", CERT)
    assert matches("CN=john smith", CERT)


def test_asterisk_at_the_start_end_or_both() -> None:
    assert matches("CN=John*", CERT)
    assert matches("CN=*Smith", CERT)
    assert matches("CN=*n Sm*", CERT)
    assert matches("CN=*", CERT)
    assert not matches("CN=Jane*", CERT)
    assert not matches("CN=*Jones", CERT)
    with pytest.raises(DNError, match="start or the end"):
        matches("CN=Jo*Smith", CERT)


def test_quoted_values_keep_separators_spaces_and_asterisks() -> None:
    assert matches('CN="John Smith"', CERT)
    assert matches('O="Acme, Inc."', 'CN=x,O="Acme, Inc."')
    assert not matches('CN="John*"', CERT)  # in quotes the asterisk is a character
    assert matches('CN="a*b"', 'CN="a*b"')


def test_repeated_types_match_in_order_and_the_dn_may_have_more() -> None:
    assert matches("OU=Test", CERT)
    assert matches("OU=Test, OU=Dev", CERT)
    assert not matches("OU=Dev, OU=Test", CERT)
    assert not matches("OU=Test, OU=Dev, OU=More", CERT)


def test_st_sp_and_s_name_the_same_attribute_and_e_is_mail() -> None:
    assert matches("SP=Hampshire", CERT)
    assert matches("S=Hamp*", CERT)
    assert matches("MAIL=a@b.c", "E=a@b.c,CN=x")


def test_types_must_be_upper_case_known_and_unspaced() -> None:
    with pytest.raises(DNError, match="upper case"):
        parse("cn=x")
    with pytest.raises(DNError, match="unknown attribute type"):
        parse("XX=1")
    with pytest.raises(DNError, match="no spaces"):
        parse("CN =x")
    with pytest.raises(DNError, match="not TYPE=value"):
        parse("CN=x, O")
    with pytest.raises(DNError, match="not closed"):
        parse('CN="x')
    with pytest.raises(DNError, match="after the last separator"):
        parse("CN=x,")


def test_an_empty_filter_passes_everything() -> None:
    assert matches("", CERT)
    assert matches("  ", ())


def test_certificate_subject_reads_most_specific_first() -> None:
    subject = ((("countryName", "GB"),), (("organizationName", "IBM"),), (("commonName", "QM1"),))
    dn = from_certificate(subject)
    assert dn == (("CN", "QM1"), ("O", "IBM"), ("C", "GB"))
    assert format_dn(dn) == "CN=QM1,O=IBM,C=GB"
    assert format_dn((("O", "Acme, Inc."),)) == 'O="Acme, Inc."'
    assert matches("CN=QM*, C=GB", dn)


def test_cipher_specs_name_a_version_and_suite() -> None:
    spec = cipherspecs.lookup("tls_aes_128_gcm_sha256")
    assert spec is not None and spec.accepts("TLS_AES_128_GCM_SHA256", "TLSv1.3")
    assert not spec.accepts("TLS_AES_256_GCM_SHA384", "TLSv1.3")
    tls12 = cipherspecs.lookup("ECDHE_RSA_AES_256_GCM_SHA384")
    assert tls12 is not None and tls12.accepts("ECDHE-RSA-AES256-GCM-SHA384", "TLSv1.2")
    any12 = cipherspecs.lookup("ANY_TLS12")
    assert any12 is not None and any12.accepts("ECDHE-RSA-AES128-GCM-SHA256", "TLSv1.2")
    assert not any12.accepts("TLS_AES_128_GCM_SHA256", "TLSv1.3")
    higher = cipherspecs.lookup("ANY_TLS12_OR_HIGHER")
    assert higher is not None and higher.accepts("TLS_AES_128_GCM_SHA256", "TLSv1.3")
    assert cipherspecs.lookup("NULL_MD5") is None


def test_the_channel_name_travels_in_sni_as_ibm_encodes_it() -> None:
    assert cipherspecs.sni_for_channel("TO.QM1") == "to2e-qm1.chl.mq.ibm.com"
    for name in ("DEV.APP.SVRCONN", "A_B/C%D", "X"):
        assert cipherspecs.channel_from_sni(cipherspecs.sni_for_channel(name)) == name
    assert cipherspecs.channel_from_sni("example.com") is None
    assert cipherspecs.channel_from_sni("zz-q.chl.mq.ibm.com") is None


def test_svrconn_sslciph_and_sslpeer_are_checked_when_entered() -> None:
    from mqlite.core.qmgr import QueueManager
    from mqlite.mqsc.commands import execute

    qm = QueueManager("QM1")
    qm.bootstrap()
    assert "(4092)" in execute(qm, "DEFINE CHANNEL(X) CHLTYPE(SVRCONN) SSLCIPH(NULL_MD5)")[0]
    assert "(4093)" in execute(qm, "DEFINE CHANNEL(X) CHLTYPE(SVRCONN) SSLPEER('cn=lower')")[0]
    assert "(4093)" in execute(qm, "DEFINE CHANNEL(X) CHLTYPE(SVRCONN) SSLPEER('CN=a*b')")[0]
    assert execute(qm, "DEFINE CHANNEL(X) CHLTYPE(SVRCONN) SSLCIPH(tls_aes_128_gcm_sha256) SSLPEER('CN=a*')") == [
        "AMQ8014I: WebSphere MQ channel created."]
    assert "(4092)" in execute(qm, "ALTER CHANNEL(X) CHLTYPE(SVRCONN) SSLCIPH(RC4_MD5_US)")[0]
