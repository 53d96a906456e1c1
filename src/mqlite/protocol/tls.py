"""IBM MQ CipherSpec names (a channel's SSLCIPH, a client's SSLCipherSpec) and what each means
in TLS terms: the protocol version and, for a specific CipherSpec, the one cipher suite (OpenSSL's
name, as ``ssl.SSLObject.cipher()`` reports it). The ``ANY_*`` names allow any suite of a range
of versions. Both ends use the table: the client to configure its offer, the queue manager to
check that the suite a connection negotiated is the one its channel asks for (AMQ9631E).
"""

from __future__ import annotations

import ctypes
import ssl
from dataclasses import dataclass

TLS12 = "TLSv1.2"
TLS13 = "TLSv1.3"


@dataclass(frozen=True, slots=True)
class CipherSpec:
    name: str
    versions: tuple[str, ...]  # the TLS versions it allows
    suite: str | None = None  # OpenSSL's name of its one cipher suite; None: any suite

    @property
    def minimum(self) -> str:
        return self.versions[0]

    @property
    def maximum(self) -> str:
        return self.versions[-1]

    def accepts(self, suite: str, version: str) -> bool:
        """Whether a connection that negotiated ``suite`` over ``version`` satisfies this spec."""
        return version in self.versions and (self.suite is None or self.suite == suite)


_TLS13_SUITES = ("TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384", "TLS_CHACHA20_POLY1305_SHA256",
                 "TLS_AES_128_CCM_SHA256", "TLS_AES_128_CCM_8_SHA256")
_TLS12_SUITES = {
    "ECDHE_RSA_AES_128_GCM_SHA256": "ECDHE-RSA-AES128-GCM-SHA256",
    "ECDHE_RSA_AES_256_GCM_SHA384": "ECDHE-RSA-AES256-GCM-SHA384",
    "ECDHE_RSA_AES_128_CBC_SHA256": "ECDHE-RSA-AES128-SHA256",
    "ECDHE_RSA_AES_256_CBC_SHA384": "ECDHE-RSA-AES256-SHA384",
    "ECDHE_RSA_CHACHA20_POLY1305_SHA256": "ECDHE-RSA-CHACHA20-POLY1305",
    "ECDHE_ECDSA_AES_128_GCM_SHA256": "ECDHE-ECDSA-AES128-GCM-SHA256",
    "ECDHE_ECDSA_AES_256_GCM_SHA384": "ECDHE-ECDSA-AES256-GCM-SHA384",
    "ECDHE_ECDSA_AES_128_CBC_SHA256": "ECDHE-ECDSA-AES128-SHA256",
    "ECDHE_ECDSA_AES_256_CBC_SHA384": "ECDHE-ECDSA-AES256-SHA384",
    "ECDHE_ECDSA_CHACHA20_POLY1305_SHA256": "ECDHE-ECDSA-CHACHA20-POLY1305",
    "TLS_RSA_WITH_AES_128_GCM_SHA256": "AES128-GCM-SHA256",
    "TLS_RSA_WITH_AES_256_GCM_SHA384": "AES256-GCM-SHA384",
    "TLS_RSA_WITH_AES_128_CBC_SHA256": "AES128-SHA256",
    "TLS_RSA_WITH_AES_256_CBC_SHA256": "AES256-SHA256",
}

CIPHER_SPECS: dict[str, CipherSpec] = {
    "ANY": CipherSpec("ANY", (TLS12, TLS13)),
    "ANY_TLS12": CipherSpec("ANY_TLS12", (TLS12,)),
    "ANY_TLS12_OR_HIGHER": CipherSpec("ANY_TLS12_OR_HIGHER", (TLS12, TLS13)),
    "ANY_TLS13": CipherSpec("ANY_TLS13", (TLS13,)),
    "ANY_TLS13_OR_HIGHER": CipherSpec("ANY_TLS13_OR_HIGHER", (TLS13,)),
    **{name: CipherSpec(name, (TLS13,), name) for name in _TLS13_SUITES},
    **{name: CipherSpec(name, (TLS12,), suite) for name, suite in _TLS12_SUITES.items()},
}


def lookup(name: str) -> CipherSpec | None:
    """The CipherSpec IBM calls ``name`` (case ignored), or None for a name IBM does not have."""
    return CIPHER_SPECS.get(name.strip().upper())


_VERSIONS = {TLS12: ssl.TLSVersion.TLSv1_2, TLS13: ssl.TLSVersion.TLSv1_3}


def configure(context: ssl.SSLContext, spec: CipherSpec) -> None:
    """Limit ``context`` to what ``spec`` allows: its TLS versions and its one suite."""
    context.minimum_version = _VERSIONS[spec.minimum]
    context.maximum_version = _VERSIONS[spec.maximum]
    if spec.suite is None:
        return
    if spec.minimum == TLS12:
        context.set_ciphers(spec.suite)
    else:
        _set_tls13_suites(context, spec.suite)


def _set_tls13_suites(context: ssl.SSLContext, suites: str) -> bool:
    """OpenSSL's SSL_CTX_set_ciphersuites, which Python's ssl module does not offer before 3.14:
    without it a client asking for one TLS 1.3 suite would offer all three and the queue manager
    would rightly refuse the one negotiated. Reaches the SSL_CTX behind the context (the first
    field after the object header, checked by comparing the options it reports) and returns
    False, leaving the context as it was, where that is not possible."""
    try:
        import _ssl

        lib = ctypes.CDLL(_ssl.__file__)
        pointer = ctypes.c_void_p.from_address(id(context) + object.__basicsize__).value
        lib.SSL_CTX_get_options.restype = ctypes.c_uint64
        lib.SSL_CTX_get_options.argtypes = [ctypes.c_void_p]
        if not pointer or lib.SSL_CTX_get_options(pointer) != int(context.options):
            return False
        lib.SSL_CTX_set_ciphersuites.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
        return bool(lib.SSL_CTX_set_ciphersuites(pointer, suites.encode()))
    except (OSError, AttributeError, ImportError):
        return False


# The channel a TLS client asks for travels in the handshake's Server Name Indication, as IBM MQ
# sends it, so the queue manager can present the channel's own certificate (CERTLABL) before
# CONNECT names the channel: upper-case letters become lower case, every other character but
# a-z and 0-9 its hexadecimal code and a hyphen ("TO.QM1" -> "to2e-qm1.chl.mq.ibm.com").
SNI_SUFFIX = ".chl.mq.ibm.com"


def sni_for_channel(channel: str) -> str:
    out = []
    for char in channel.lower():
        out.append(char if char.isascii() and char.isalnum() else f"{ord(char):x}-")
    return "".join(out) + SNI_SUFFIX


def channel_from_sni(name: str | None) -> str | None:
    """The channel name an SNI names (upper case, as channel names are written), or None."""
    if not name or not name.lower().endswith(SNI_SUFFIX):
        return None
    *encoded, last = name[: -len(SNI_SUFFIX)].lower().split("-")
    try:  # every hyphen ends a character's two hexadecimal digits
        chars = [part[:-2] + chr(int(part[-2:], 16)) for part in encoded if len(part) >= 2]
    except ValueError:
        return None
    if len(chars) != len(encoded):
        return None
    return ("".join(chars) + last).upper()
