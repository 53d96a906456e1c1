"""``mqlite mkcert`` and ``mqlite addcert``: certificates in a key repository (``mqlite.keyrepo``),
in the spirit of IBM's ``runmqakm -cert -create`` / ``-cert -sign`` / ``-cert -add``.

``mkcert -m QM1 --dn "CN=QM1,O=mqlite"`` makes the queue manager's self-signed certificate under
its default label; ``--ca LABEL --ca-repository DIR`` has the personal certificate LABEL of DIR
sign it instead, and copies LABEL's certificate into the repository as a signer. ``-r DIR``
works on any directory (a client's MQSSLKEYR). ``addcert`` copies the certificates of a PEM file
(never its key) into a repository as a signer, so a client can trust a self-signed queue manager.
Certificates are made with the ``cryptography`` package (``pip install 'mqlite[tls]'``).
"""

from __future__ import annotations

import datetime
import os
import re
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from mqlite import paths
from mqlite.cli.common import fail
from mqlite.keyrepo import KeyRepository, KeyRepositoryError, default_label, label_file, user_label

if TYPE_CHECKING:
    from cryptography import x509

_CERTS = re.compile(r"-----BEGIN CERTIFICATE-----.+?-----END CERTIFICATE-----\s*", re.S)


def _repository(qmgr: str | None, directory: str | None) -> tuple[Path, str]:
    """The repository directory (made private if new) and its owner's default label."""
    if directory is not None:
        return _made(Path(directory)), user_label()
    name = qmgr or paths.default_qmgr()
    if not name or not paths.config_path(name).is_file():
        fail("AMQ7048: The queue manager name is either not valid or not known.", 72)
    return _made(paths.key_repository(name)), default_label(name)


def _made(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    return path


@click.command()
@click.option("-m", "qmgr", default=None, help="The queue manager's key repository (its default SSLKEYR).")
@click.option("-r", "directory", default=None, help="A key repository directory (a client's MQSSLKEYR).")
@click.option("--label", default=None, help="Certificate label (default ibmwebspheremq<qmgr or user>).")
@click.option("--dn", required=True, help='Subject distinguished name, e.g. "CN=QM1,O=mqlite".')
@click.option("--ca", "ca_label", default=None, help="Sign with this personal certificate (default: self-signed).")
@click.option("--ca-repository", default=None, help="Where the signing certificate is (default: the same).")
@click.option("--days", default=365, show_default=True, help="Days the certificate is valid.")
@click.option("--expired", is_flag=True, help="Valid only in the past (for tests of refusals).")
@click.option("--key-type", type=click.Choice(["rsa", "ec"]), default="rsa", show_default=True,
              help="rsa suits the ECDHE_RSA_* CipherSpecs, ec the ECDHE_ECDSA_* ones; TLS 1.3 takes both.")
def mkcert(qmgr: str | None, directory: str | None, label: str | None, dn: str, ca_label: str | None,
           ca_repository: str | None, days: int, expired: bool, key_type: str) -> None:
    """Create a key and certificate in a key repository, self-signed or signed by a CA."""
    try:
        from cryptography import x509
        from cryptography.hazmat.primitives import hashes, serialization
        from cryptography.hazmat.primitives.asymmetric import ec, rsa
    except ImportError:
        fail("mkcert needs the cryptography package: pip install 'mqlite[tls]'")
    target, default = _repository(qmgr, directory)
    label = label or default
    try:
        subject = x509.Name.from_rfc4514_string(dn)
    except ValueError as error:
        fail(f"AMQ9642E: distinguished name {dn!r} is not valid: {error}")
    key: Any = rsa.generate_private_key(65537, 2048) if key_type == "rsa" else ec.generate_private_key(ec.SECP256R1())
    now = datetime.datetime.now(datetime.UTC)
    start, end = (now - datetime.timedelta(days=30), now - datetime.timedelta(days=1)) if expired else \
        (now - datetime.timedelta(minutes=5), now + datetime.timedelta(days=days))
    issuer, signing_key, chain = subject, key, ""
    if ca_label is not None:
        ca_dir = Path(ca_repository) if ca_repository else target
        issuer, signing_key, chain = _signer(ca_dir, ca_label)
    builder = (x509.CertificateBuilder().subject_name(subject).issuer_name(issuer).public_key(key.public_key())
               .serial_number(x509.random_serial_number()).not_valid_before(start).not_valid_after(end)
               .add_extension(x509.BasicConstraints(ca=ca_label is None, path_length=None), critical=True))
    certificate = builder.sign(signing_key, hashes.SHA256())
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption()).decode()
    pem += certificate.public_bytes(serialization.Encoding.PEM).decode() + chain
    _write(_file(target, label), pem, private=True)
    if ca_label is not None and chain and not _file(target, ca_label).exists():
        _write(_file(target, ca_label), chain, private=False)  # trust the signer too
    click.echo(f"Certificate {label} ({certificate.subject.rfc4514_string()}) created in {target}.")


def _signer(directory: Path, label: str) -> tuple[x509.Name, Any, str]:
    """The issuer name, key and certificate PEM of personal certificate ``label``."""
    from cryptography import x509
    from cryptography.hazmat.primitives import serialization

    try:
        repository = KeyRepository.read(directory)
    except KeyRepositoryError as error:
        fail(f"AMQ9657E: {error}")
    file = repository.personal.get(label)
    if file is None:
        fail(f"AMQ9657E: no personal certificate labelled {label!r} in {directory}")
    text = file.read_text()
    certs = _CERTS.findall(text)
    key = serialization.load_pem_private_key(text.encode(), password=None)
    return x509.load_pem_x509_certificate(certs[0].encode()).subject, key, certs[0]


@click.command()
@click.option("-m", "qmgr", default=None, help="The queue manager's key repository.")
@click.option("-r", "directory", default=None, help="A key repository directory (a client's MQSSLKEYR).")
@click.option("--label", required=True, help="Label of the signer certificate.")
@click.option("--file", "source", required=True, type=click.Path(exists=True, dir_okay=False),
              help="A PEM file: its certificates are copied, never its key.")
def addcert(qmgr: str | None, directory: str | None, label: str, source: str) -> None:
    """Add the certificates of a PEM file to a key repository as a trusted signer."""
    certs = _CERTS.findall(Path(source).read_text(errors="replace"))
    if not certs:
        fail(f"AMQ9657E: {source} holds no certificate")
    target, _ = _repository(qmgr, directory)
    _write(_file(target, label), certs[0] if len(certs) == 1 else "".join(certs), private=False)
    click.echo(f"Signer certificate {label} added to {target}.")


def _file(directory: Path, label: str) -> Path:
    try:
        return label_file(directory, label)
    except KeyRepositoryError as error:
        fail(f"AMQ9657E: {error}")


def _write(path: Path, text: str, private: bool) -> None:
    """Whole or not at all; a private key readable by its owner only."""
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=".cert.")
    try:
        with os.fdopen(fd, "w") as handle:
            handle.write(text)
        os.chmod(temporary, 0o600 if private else 0o644)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise
