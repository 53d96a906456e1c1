"""Key repositories and ``mqlite mkcert`` / ``addcert``: personal certificates by label, signers
trusted, keys never copied, an expired certificate for refusal tests."""

from __future__ import annotations

import datetime
import ssl
from pathlib import Path

import pytest
from click.testing import CliRunner

from mqlite.cli.main import cli
from mqlite.keyrepo import KeyRepository, KeyRepositoryError, default_label, label_file

x509 = pytest.importorskip("cryptography.x509", reason="mkcert needs the cryptography package")


def _run(*args: str) -> str:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def test_a_ca_signs_a_client_certificate_and_becomes_its_signer(tmp_path: Path) -> None:
    ca, client = tmp_path / "ca", tmp_path / "client"
    _run("mkcert", "-r", str(ca), "--label", "ca", "--dn", "CN=Test CA,O=mqlite")
    out = _run("mkcert", "-r", str(client), "--label", "app", "--dn", "CN=app,O=mqlite", "--ca", "ca",
               "--ca-repository", str(ca))
    assert "CN=app,O=mqlite" in out
    repository = KeyRepository.read(client)
    assert set(repository.personal) == {"app"}  # ca.pem holds no key: a signer
    assert "PRIVATE KEY" not in (client / "ca.pem").read_text()
    assert (client / "app.pem").stat().st_mode & 0o077 == 0
    leaf = x509.load_pem_x509_certificate((client / "app.pem").read_bytes())
    assert leaf.issuer.rfc4514_string() == "CN=Test CA,O=mqlite"
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    assert repository.load_personal(context, "app") and repository.load_signers(context)
    assert not repository.load_personal(context, "other", required=False)
    with pytest.raises(KeyRepositoryError, match="no personal certificate labelled 'other'"):
        repository.load_personal(context, "other")


def test_expired_certificates_and_addcert_copies_no_key(tmp_path: Path) -> None:
    _run("mkcert", "-r", str(tmp_path / "a"), "--label", "old", "--dn", "CN=old", "--expired")
    cert = x509.load_pem_x509_certificate((tmp_path / "a" / "old.pem").read_bytes())
    assert cert.not_valid_after_utc < datetime.datetime.now(datetime.UTC)
    _run("addcert", "-r", str(tmp_path / "b"), "--label", "old", "--file", str(tmp_path / "a" / "old.pem"))
    assert "PRIVATE KEY" not in (tmp_path / "b" / "old.pem").read_text()
    assert KeyRepository.read(tmp_path / "b").signers


def test_labels_and_missing_repositories() -> None:
    assert default_label("QM1") == "ibmwebspheremqqm1"
    with pytest.raises(KeyRepositoryError, match="certificate label"):
        label_file("/tmp", "../x")
    with pytest.raises(KeyRepositoryError, match="not a directory"):
        KeyRepository.read("/nonexistent/key")
