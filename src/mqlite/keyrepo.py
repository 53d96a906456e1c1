"""Key repositories: where a queue manager (QMGR SSLKEYR) or a client (MQSSLKEYR, the SCO's
KeyRepository) keeps its certificates.

IBM's key repository is a CMS database of labelled certificates; mqlite's is a directory of PEM
files, one per label: ``<label>.pem`` holding a private key with its certificate (and the chain
above it) is a *personal* certificate, the one a queue manager or client presents when its
CERTLABL names it; a ``<label>.pem`` with certificates only is a *signer* (CA) certificate, trusted
to sign the peer's certificate. A queue manager's default repository is
``$MQLITE_HOME/qmgrs/<QM>/ssl/key`` and its default label ``ibmwebspheremq<qmname lower case>``,
a client's default label ``ibmwebspheremq<user id lower case>``, as IBM's.
"""

from __future__ import annotations

import getpass
import re
import ssl
from dataclasses import dataclass
from pathlib import Path

DEFAULT_LABEL_PREFIX = "ibmwebspheremq"
_KEY = re.compile(r"-----BEGIN (?:[A-Z]+ )?PRIVATE KEY-----")
_CERT = re.compile(r"-----BEGIN CERTIFICATE-----.+?-----END CERTIFICATE-----\s*", re.S)
_LABEL = re.compile(r"^[A-Za-z0-9._@ -]{1,64}$")


class KeyRepositoryError(Exception):
    """A key repository that cannot be used; the text says why."""


def default_label(name: str) -> str:
    """IBM's default certificate label for a queue manager or user ``name``."""
    return DEFAULT_LABEL_PREFIX + name.lower()


def user_label() -> str:
    """A client's default label: ``ibmwebspheremq`` and the user id it runs as."""
    try:
        user = getpass.getuser()
    except (OSError, KeyError):  # no login name, no passwd entry (a bare container)
        user = ""
    return default_label(user)


def label_file(directory: str | Path, label: str) -> Path:
    if not _LABEL.match(label):
        raise KeyRepositoryError(f"certificate label {label!r}: 1 to 64 letters, digits, spaces and ._@-")
    return Path(directory) / f"{label}.pem"


@dataclass(frozen=True)
class KeyRepository:
    """A key repository read at one moment (REFRESH SECURITY TYPE(SSL) reads it again)."""

    path: Path
    personal: dict[str, Path]  # label -> PEM file with a key
    signers: str  # the signer certificates, PEM concatenated

    @classmethod
    def read(cls, path: str | Path) -> KeyRepository:
        directory = Path(path)
        if not directory.is_dir():
            raise KeyRepositoryError(f"key repository {str(directory)!r} is not a directory")
        personal: dict[str, Path] = {}
        signers: list[str] = []
        for file in sorted(directory.glob("*.pem")):
            try:
                text = file.read_text()
            except (OSError, UnicodeDecodeError) as error:
                raise KeyRepositoryError(f"{file}: {error}") from None
            if _KEY.search(text):
                personal[file.stem] = file
            else:
                signers.extend(_CERT.findall(text))
        return cls(directory, personal, "".join(signers))

    def load_personal(self, context: ssl.SSLContext, label: str, required: bool = True) -> bool:
        """Give ``context`` the certificate ``label``; False when there is none (and not required)."""
        file = self.personal.get(label)
        if file is None:
            if required:
                raise KeyRepositoryError(f"no personal certificate labelled {label!r} in {self.path}")
            return False
        try:
            context.load_cert_chain(file)
        except (OSError, ssl.SSLError, ValueError) as error:
            raise KeyRepositoryError(f"certificate {label!r} in {self.path}: {error}") from None
        return True

    def load_signers(self, context: ssl.SSLContext) -> bool:
        """Trust the signer certificates (False: the repository has none)."""
        if not self.signers:
            return False
        try:
            context.load_verify_locations(cadata=self.signers)
        except (ssl.SSLError, ValueError) as error:
            raise KeyRepositoryError(f"signer certificates in {self.path}: {error}") from None
        return True
