"""pymqi's MQI structures (MD, GMO, PMO, OD, CD, SD, ...) and their conversion to the wire.

pymqi programs build structures by keyword (``MD(Format=CMQC.MQFMT_STRING)``), attribute
(``md.MsgId``) and item (``md["MsgId"]``), and read character fields back as blank-padded
``bytes``. mqlite's queue manager speaks trimmed ``str`` and exact-size ``bytes`` ids, so
this module is where the two meet: ``*_to_wire`` accept ``bytes`` or ``str`` and trim;
``md_from_wire`` pads like MQ does. Fields without meaning to mqlite (pointers, exits) are
kept so that pymqi code setting them still runs.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any, ClassVar

from mqlite import cmqc
from mqlite.client.errors import MQMIError
from mqlite.message import BYTE_FIELDS, MD_FIELDS, MessageDescriptor

__all__ = [
    "CD", "CMHO", "GMO", "IMPO", "MD", "OD", "PD", "PMO", "SCO", "SD", "SMPO", "SRO", "STS",
    "CharField", "MQOpts", "core_descriptor", "gmo_to_wire", "md_fill", "md_to_wire", "od_fill",
    "od_to_wire", "sd_fill", "sd_to_wire",
]

# IBM's lengths of the MQMD character fields, for blank padding on the way back.
MD_CHAR_LENGTHS: dict[str, int] = {
    "Format": 8, "ReplyToQ": 48, "ReplyToQMgr": 48, "UserIdentifier": 12, "ApplIdentityData": 32,
    "PutApplName": 28, "PutDate": 8, "PutTime": 8, "ApplOriginData": 4,
}
ID_LENGTHS: dict[str, int] = {"MsgId": 24, "CorrelId": 24, "GroupId": 24, "AccountingToken": 32}


class CharField(bytes):
    """A blank-padded MQCHAR field as pymqi returns it (``b"MQSTR   "``).

    It also compares equal to the same text as ``str``, because mqlite's ``CMQC`` spells
    formats and names as ``str`` (``CMQC.MQFMT_STRING == "MQSTR   "``) and pymqi programs
    write ``md.Format == CMQC.MQFMT_STRING``. Hashing is that of ``bytes``.
    """

    def __eq__(self, other: object) -> bool:
        if isinstance(other, str):
            return bytes.__eq__(self, other.encode("utf-8"))
        return bytes.__eq__(self, other) is True

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    __hash__ = bytes.__hash__

    def text(self) -> str:
        """The value as trimmed ``str``."""
        return self.decode("utf-8", "replace").rstrip(" \0")


def text(value: object) -> str:
    """A character field as the wire wants it: ``str`` without trailing blanks or NULs."""
    if isinstance(value, bytes | bytearray):
        return bytes(value).decode("utf-8", "replace").rstrip(" \0")
    if isinstance(value, str):
        return value.rstrip(" \0")
    raise TypeError(f"expected bytes or str, got {type(value).__name__}")


def ident(value: object, size: int) -> bytes:
    """A binary id as the wire wants it: exactly ``size`` bytes, NUL padded (pymqi's ``24s``)."""
    if isinstance(value, str):
        value = value.encode("utf-8")
    if not isinstance(value, bytes | bytearray):
        raise TypeError(f"expected bytes, got {type(value).__name__}")
    raw = bytes(value)
    return raw[:size] if len(raw) >= size else raw + bytes(size - len(raw))


def padded(value: str, size: int) -> CharField:
    return CharField(value.encode("utf-8").ljust(size))


class MQOpts:
    """Base of the structures: fields with defaults, keyword/attribute/item access."""

    _fields: ClassVar[tuple[tuple[str, Any], ...]] = ()
    _names: ClassVar[frozenset[str]] = frozenset()

    _defaults: ClassVar[dict[str, Any]] = {}
    _list_fields: ClassVar[tuple[str, ...]] = ()
    # (lowest, highest Version IBM's MQI takes, the reason for any other): see check_version.
    _versions: ClassVar[tuple[int, int, int] | None] = None

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        cls._names = frozenset(name for name, _ in cls._fields)
        # Built once per class: a new structure is then one dict update, not a loop of setattr.
        cls._defaults = dict(cls._fields)
        cls._list_fields = tuple(name for name, default in cls._fields if isinstance(default, list))

    def __init__(self, **kw: Any) -> None:
        fields = self.__dict__
        fields.update(self._defaults)
        for name in self._list_fields:
            fields[name] = list(fields[name])
        fields["_vs"] = {}
        if kw:
            self.set(**kw)

    def __getattr__(self, name: str) -> Any:  # only reached for names that are not fields
        raise AttributeError(f"{type(self).__name__} has no field {name!r}")

    def __setattr__(self, name: str, value: Any) -> None:  # declared so that fields type as Any
        object.__setattr__(self, name, value)

    def set(self, **kw: Any) -> None:
        """Set fields by keyword; an unknown name raises ``AttributeError`` (as pymqi)."""
        for name, value in kw.items():
            if name not in self._names:
                raise AttributeError(f"{type(self).__name__} has no field {name!r}")
            setattr(self, name, value)

    def __setitem__(self, key: str, value: Any) -> None:
        self.set(**{key: value})

    def __getitem__(self, key: str) -> Any:
        if key not in self._names:
            raise KeyError(key)
        return getattr(self, key)

    def get(self) -> dict[str, Any]:
        """Every field as a dict (pymqi's ``get``)."""
        return {name: getattr(self, name) for name, _ in self._fields}

    def __str__(self) -> str:
        return "\n".join(f"{name}: {getattr(self, name)}" for name, _ in self._fields)

    def __repr__(self) -> str:
        changed = [(k, getattr(self, k)) for k, default in self._fields if getattr(self, k) != default]
        return f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in changed)})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MQOpts) and type(other) is type(self) and self.get() == other.get()

    __hash__ = None  # type: ignore[assignment]

    def set_vs(self, vs_name: str, vs_value: bytes | str | None = None, vs_offset: int = 0,
               vs_buffer_size: int = 0, vs_ccsid: int = 0) -> None:
        """Set a variable-length string (MQCHARV) such as ``ObjectString`` or ``SubName``."""
        name = vs_name.removesuffix("VSPtr")
        self._vs[name] = vs_value
        length = len(vs_value) if vs_value is not None else 0
        for suffix, value in (("VSOffset", vs_offset), ("VSBufSize", vs_buffer_size),
                              ("VSLength", length), ("VSCCSID", vs_ccsid)):
            if name + suffix in self._names:
                setattr(self, name + suffix, value)

    def fill_vs(self, name: str, value: str, cut: bool = True) -> None:
        """An output MQCHARV (spec C R-PUB-5, R-PROP-8): VSLength is always the whole length; with a
        VSBufSize smaller than that, ``cut`` keeps its first VSBufSize characters (ResObjectString,
        no NUL added) and otherwise the buffer is left as it was (SelectionString on MQSO_RESUME).
        No VSBufSize at all (mqlite's Python convenience) returns the whole string."""
        size = int(getattr(self, name + "VSBufSize", 0) or 0)
        if size and len(value) > size:
            if cut:
                self._vs[name] = value[:size]
        else:
            self._vs[name] = value
        if name + "VSLength" in self._names:
            setattr(self, name + "VSLength", len(value))

    def get_vs(self, vs_name: str) -> bytes | str | None:
        value: bytes | str | None = self._vs.get(vs_name.removesuffix("VSPtr"))
        return value

    def vs_text(self, name: str) -> str:
        """A variable-length string as ``str`` (empty when unset)."""
        value = self._vs.get(name)
        return "" if value is None else text(value)

    def check_version(self) -> None:
        """Refuse a ``Version`` this structure does not have in IBM's MQI, with IBM's reason for
        the structure (MQRC_MD_ERROR, MQRC_GMO_ERROR, MQRC_PMO_ERROR, MQRC_SD_ERROR). The MQOD's goes to the
        queue manager, which decides with it (a topic needs version 4); PubLevel counts from
        MQPMO version 3 (``Topic.pub``)."""
        if self._versions is not None:
            low, high, reason = self._versions
            version = self.__dict__["Version"]
            if type(version) is not int or not low <= version <= high:
                raise MQMIError(cmqc.MQCC_FAILED, reason,
                                text=f"{type(self).__name__} version {version!r} is not {low} to {high}")

    def pack(self) -> bytes:
        """pymqi packs a C structure here; mqlite has none, so this is a stable textual form."""
        return repr(self).encode("utf-8")


def _vs(name: str) -> list[tuple[str, Any]]:
    return [(name + "VSPtr", 0), (name + "VSOffset", 0), (name + "VSBufSize", 0),
            (name + "VSLength", 0), (name + "VSCCSID", 0)]


class MD(MQOpts):
    """MQMD, pymqi's defaults (empty ids mean "none"; CodedCharSetId 0 is the queue manager's)."""

    _versions = (1, cmqc.MQMD_CURRENT_VERSION, cmqc.MQRC_MD_ERROR)
    _fields = (
        ("StrucId", b"MD  "), ("Version", cmqc.MQMD_VERSION_1), ("Report", cmqc.MQRO_NONE),
        ("MsgType", cmqc.MQMT_DATAGRAM), ("Expiry", cmqc.MQEI_UNLIMITED), ("Feedback", cmqc.MQFB_NONE),
        ("Encoding", cmqc.MQENC_NATIVE), ("CodedCharSetId", cmqc.MQCCSI_Q_MGR), ("Format", b""),
        ("Priority", cmqc.MQPRI_PRIORITY_AS_Q_DEF), ("Persistence", cmqc.MQPER_PERSISTENCE_AS_Q_DEF),
        ("MsgId", b""), ("CorrelId", b""), ("BackoutCount", 0), ("ReplyToQ", b""), ("ReplyToQMgr", b""),
        ("UserIdentifier", b""), ("AccountingToken", b""), ("ApplIdentityData", b""),
        ("PutApplType", cmqc.MQAT_NO_CONTEXT), ("PutApplName", b""), ("PutDate", b""), ("PutTime", b""),
        ("ApplOriginData", b""), ("GroupId", b""), ("MsgSeqNumber", 1), ("Offset", 0),
        ("MsgFlags", cmqc.MQMF_NONE), ("OriginalLength", cmqc.MQOL_UNDEFINED),
    )


class GMO(MQOpts):
    """MQGMO; ``MsgHandle`` is a ``MessageHandle.msg_handle`` that receives the properties."""

    _versions = (1, cmqc.MQGMO_CURRENT_VERSION, cmqc.MQRC_GMO_ERROR)
    _fields = (
        ("StrucId", b"GMO "), ("Version", cmqc.MQGMO_VERSION_1), ("Options", cmqc.MQGMO_NO_WAIT),
        ("WaitInterval", 0), ("Signal1", 0), ("Signal2", 0), ("ResolvedQName", b""),
        ("MatchOptions", cmqc.MQMO_MATCH_MSG_ID | cmqc.MQMO_MATCH_CORREL_ID),
        ("GroupStatus", cmqc.MQGS_NOT_IN_GROUP), ("SegmentStatus", cmqc.MQSS_NOT_A_SEGMENT),
        ("Segmentation", cmqc.MQSEG_INHIBITED), ("Reserved1", b" "), ("MsgToken", b""),
        ("ReturnedLength", cmqc.MQRL_UNDEFINED), ("Reserved2", 0), ("MsgHandle", 0),
    )


class PMO(MQOpts):
    """MQPMO; ``OriginalMsgHandle`` is a ``MessageHandle.msg_handle`` whose properties are sent."""

    _versions = (1, cmqc.MQPMO_CURRENT_VERSION, cmqc.MQRC_PMO_ERROR)
    _fields = (
        ("StrucId", b"PMO "), ("Version", cmqc.MQPMO_VERSION_1), ("Options", cmqc.MQPMO_NONE),
        ("Timeout", -1), ("Context", 0), ("KnownDestCount", 0), ("UnknownDestCount", 0),
        ("InvalidDestCount", 0), ("ResolvedQName", b""), ("ResolvedQMgrName", b""), ("RecsPresent", 0),
        ("PutMsgRecFields", 0), ("PutMsgRecOffset", 0), ("ResponseRecOffset", 0), ("PutMsgRecPtr", 0),
        ("ResponseRecPtr", 0), ("OriginalMsgHandle", 0), ("NewMsgHandle", 0), ("Action", 0),
        ("PubLevel", 9),
    )


class OD(MQOpts):
    """MQOD; ``ObjectString``/``SelectionString`` are set with ``set_vs`` as in pymqi."""

    _fields = (
        ("StrucId", b"OD  "), ("Version", cmqc.MQOD_VERSION_1), ("ObjectType", cmqc.MQOT_Q),
        ("ObjectName", b""), ("ObjectQMgrName", b""), ("DynamicQName", b"AMQ.*"), ("AlternateUserId", b""),
        ("RecsPresent", 0), ("KnownDestCount", 0), ("UnknownDestCount", 0), ("InvalidDestCount", 0),
        ("ObjectRecOffset", 0), ("ResponseRecOffset", 0), ("ObjectRecPtr", 0), ("ResponseRecPtr", 0),
        ("AlternateSecurityId", b""), ("ResolvedQName", b""), ("ResolvedQMgrName", b""),
        *_vs("ObjectString"), *_vs("SelectionString"), *_vs("ResObjectString"), ("ResolvedType", -3),
    )


class CD(MQOpts):
    """MQCD (client connection channel); mqlite reads ChannelName, ConnectionName, QMgrName,
    MaxMsgLength, HeartbeatInterval, KeepAliveInterval and SharingConversations."""

    _fields = (
        ("ChannelName", b""), ("Version", 6), ("ChannelType", cmqc.MQCHT_CLNTCONN),
        ("TransportType", cmqc.MQXPT_TCP), ("Desc", b""), ("QMgrName", b""), ("XmitQName", b""),
        ("ShortConnectionName", b""), ("MCAName", b""), ("ModeName", b""), ("TpName", b""),
        ("BatchSize", 50), ("DiscInterval", 6000), ("ShortRetryCount", 10), ("ShortRetryInterval", 60),
        ("LongRetryCount", 999999999), ("LongRetryInterval", 1200), ("SecurityExit", b""),
        ("MsgExit", b""), ("SendExit", b""), ("ReceiveExit", b""), ("SeqNumberWrap", 999999999),
        ("MaxMsgLength", 4194304), ("PutAuthority", 1), ("DataConversion", 0),
        ("SecurityUserData", b""), ("MsgUserData", b""), ("SendUserData", b""), ("ReceiveUserData", b""),
        ("UserIdentifier", b""), ("Password", b""), ("MCAUserIdentifier", b""), ("MCAType", 1),
        ("ConnectionName", b""), ("RemoteUserIdentifier", b""), ("RemotePassword", b""),
        ("MsgRetryExit", b""), ("MsgRetryUserData", b""), ("MsgRetryCount", 10),
        ("MsgRetryInterval", 1000), ("HeartbeatInterval", 300), ("BatchInterval", 0),
        ("NonPersistentMsgSpeed", cmqc.MQNPMS_FAST), ("StrucLength", 0), ("ExitNameLength", 128),
        ("ExitDataLength", 32), ("MsgExitsDefined", 0), ("SendExitsDefined", 0),
        ("ReceiveExitsDefined", 0), ("MsgExitPtr", 0), ("MsgUserDataPtr", 0), ("SendExitPtr", 0),
        ("SendUserDataPtr", 0), ("ReceiveExitPtr", 0), ("ReceiveUserDataPtr", 0), ("ClusterPtr", 0),
        ("ClustersDefined", 0), ("NetworkPriority", 0), ("LongMCAUserIdLength", 0),
        ("LongRemoteUserIdLength", 0), ("LongMCAUserIdPtr", 0), ("LongRemoteUserIdPtr", 0),
        ("MCASecurityId", b""), ("RemoteSecurityId", b""), ("SSLCipherSpec", b""), ("SSLPeerNamePtr", 0),
        ("SSLPeerNameLength", 0), ("SSLClientAuth", 0), ("KeepAliveInterval", -1), ("LocalAddress", b""),
        ("BatchHeartbeat", 0), ("HdrCompList", [0, -1]), ("MsgCompList", [0] + 15 * [-1]),
        ("CLWLChannelRank", 0), ("CLWLChannelPriority", 0), ("CLWLChannelWeight", 50),
        ("ChannelMonitoring", 0), ("ChannelStatistics", 0), ("SharingConversations", 10),
        ("PropertyControl", 0), ("MaxInstances", 999999999), ("MaxInstancesPerClient", 999999999),
        ("ClientChannelWeight", 0), ("ConnectionAffinity", 1), ("BatchDataLimit", 5000), ("UseDLQ", 2),
        ("DefReconnect", 0), ("CertificateLabel", b""), ("SPLProtection", 0),
        ("SSLPeerName", b""),  # what IBM's C structure reaches through SSLPeerNamePtr
    )


class CSP(MQOpts):
    """MQCSP (security parameters): the user and password of MQCONNX (pymqi's ``csp=``)."""

    _fields = (
        ("StrucId", b"CSP "), ("Version", 1), ("AuthenticationType", cmqc.MQCSP_AUTH_NONE),
        ("Reserved1", b""), ("CSPUserId", b""), ("CSPPassword", b""),
    )


def cd_fields(cd: CD) -> tuple[tuple[str, int], ...]:
    """What a CD asks the queue manager for, as the CONNECT request's channel map carries it."""
    return tuple((name, int(getattr(cd, name))) for name in
                 ("MaxMsgLength", "HeartbeatInterval", "KeepAliveInterval", "SharingConversations"))


class SCO(MQOpts):
    """MQSCO (TLS options): mqlite reads KeyRepository (a key repository directory, see
    ``mqlite.keyrepo``) and CertificateLabel (a CD's CertificateLabel comes first)."""

    _fields = (
        ("StrucId", b"SCO "), ("Version", 5), ("KeyRepository", b""), ("CryptoHardware", b""),
        ("AuthInfoRecCount", 0), ("AuthInfoRecOffset", 0), ("AuthInfoRecPtr", 0), ("KeyResetCount", 0),
        ("FipsRequired", 0), ("EncryptionPolicySuiteB", [1, 0, 0, 0]), ("CertificateValPolicy", 0),
        ("CertificateLabel", b""),
    )


class SD(MQOpts):
    """MQSD (subscription descriptor)."""

    _versions = (1, cmqc.MQSD_CURRENT_VERSION, cmqc.MQRC_SD_ERROR)
    _fields = (
        ("StrucId", b"SD  "), ("Version", cmqc.MQSD_VERSION_1), ("Options", cmqc.MQSO_NON_DURABLE),
        ("ObjectName", b""), ("AlternateUserId", b""), ("AlternateSecurityId", bytes(40)),
        ("SubExpiry", cmqc.MQEI_UNLIMITED), *_vs("ObjectString"), *_vs("SubName"), *_vs("SubUserData"),
        ("SubCorrelId", bytes(24)), ("PubPriority", cmqc.MQPRI_PRIORITY_AS_PUBLISHED),
        ("PubAccountingToken", bytes(32)), ("PubApplIdentityData", b""), *_vs("SelectionString"),
        ("SubLevel", 1), *_vs("ResObjectString"),
    )


def sd_to_wire(sd: SD) -> dict[str, Any]:
    """An MQSD as the SUB request carries it; SubName None means "not initialised" (spec C §3.2)."""
    name = sd.get_vs("SubName")
    return {
        "Options": int(sd.Options), "ObjectName": text(sd.ObjectName), "ObjectString": sd.vs_text("ObjectString"),
        "SubName": None if name is None else text(name), "SubUserData": sd.vs_text("SubUserData"),
        "SubCorrelId": ident(sd.SubCorrelId or b"", 24), "PubPriority": int(sd.PubPriority),
        "PubAccountingToken": ident(sd.PubAccountingToken or b"", 32),
        "PubApplIdentityData": text(sd.PubApplIdentityData), "SelectionString": sd.vs_text("SelectionString"),
        "SubLevel": int(sd.SubLevel), "SubExpiry": int(sd.SubExpiry), "AlternateUserId": text(sd.AlternateUserId),
    }


def sd_fill(sd: SD, out: dict[str, Any]) -> None:
    """What MQSUB returns in the MQSD: the resolved topic, the SubCorrelId, the stored values."""
    sd.fill_vs("ResObjectString", str(out["ResObjectString"]))
    sd.SubCorrelId = bytes(out["SubCorrelId"])
    if sd.Options & (cmqc.MQSO_RESUME | cmqc.MQSO_ALTER):
        sd.fill_vs("SelectionString", str(out["SelectionString"]), cut=False)
        sd.SubExpiry = int(out["SubExpiry"])
        # what kind of subscription was resumed (durable, a managed queue), as IBM returns it: pymqi
        # programs resume one by name and then decide from Options whether to delete its queue
        stored = out.get("Options")
        if isinstance(stored, int):
            sd.Options = int(sd.Options) | (stored & (cmqc.MQSO_DURABLE | cmqc.MQSO_MANAGED))


class SRO(MQOpts):
    _fields = (
        ("StrucId", b"SRO "), ("Version", 1), ("Options", cmqc.MQSRO_FAIL_IF_QUIESCING), ("NumPubs", 0),
    )


class CMHO(MQOpts):
    _fields = (("StrucId", b"CMHO"), ("Version", 1), ("Options", cmqc.MQCMHO_DEFAULT_VALIDATION))


class PD(MQOpts):
    _fields = (
        ("StrucId", b"PD  "), ("Version", 1), ("Options", cmqc.MQPD_NONE),
        ("Support", cmqc.MQPD_SUPPORT_OPTIONAL), ("Context", cmqc.MQPD_NO_CONTEXT), ("CopyOptions", 22),
    )


class SMPO(MQOpts):
    _fields = (
        ("StrucId", b"SMPO"), ("Version", 1), ("Options", cmqc.MQSMPO_SET_FIRST),
        ("ValueEncoding", cmqc.MQENC_NATIVE), ("ValueCCSID", cmqc.MQCCSI_APPL),
    )


class IMPO(MQOpts):
    _fields = (
        ("StrucId", b"IMPO"), ("Version", 1), ("Options", cmqc.MQIMPO_INQ_FIRST),
        ("RequestedEncoding", cmqc.MQENC_NATIVE), ("RequestedCCSID", cmqc.MQCCSI_APPL),
        ("ReturnedEncoding", cmqc.MQENC_NATIVE), ("ReturnedCCSID", 0), ("Reserved1", 0),
        *_vs("ReturnedName"), ("TypeString", b""),
    )


class STS(MQOpts):
    """MQSTS, what ``QueueManager.stat()`` returns: the asynchronous-put counts since last asked."""

    _fields = (
        ("StrucId", b"STAT"), ("Version", 1), ("CompCode", cmqc.MQCC_OK), ("Reason", cmqc.MQRC_NONE),
        ("PutSuccessCount", 0), ("PutWarningCount", 0), ("PutFailureCount", 0),
        ("ObjectType", cmqc.MQOT_Q), ("ObjectName", b""), ("ObjectQMgrName", b""),
        ("ResolvedObjectName", b""), ("ResolvedQMgrName", b""),
    )


# ---------------------------------------------------------------------------
# Conversion to and from the wire.

_DEFAULT_MD = MessageDescriptor()
_WIRE_KINDS: tuple[tuple[str, str, int], ...] = tuple(
    (name, "id" if name in ID_LENGTHS else "text" if isinstance(getattr(_DEFAULT_MD, name), str) else "int",
     ID_LENGTHS.get(name, MD_CHAR_LENGTHS.get(name, 0)))
    for name in MD_FIELDS
)


# Character fields take few distinct values (blanks, a format name, a queue name): converting
# each one once and remembering it keeps MQPUT/MQGET from re-encoding 14 strings per message.
_TEXT_CACHE: dict[object, str] = {}
_PAD_CACHE: dict[tuple[str, int], CharField] = {}
_CACHE_LIMIT = 4096


def _cached_text(value: object) -> str:
    try:
        return _TEXT_CACHE[value]
    except (KeyError, TypeError):
        result = text(value)
        if len(_TEXT_CACHE) < _CACHE_LIMIT and isinstance(value, str | bytes):
            _TEXT_CACHE[value] = result
        return result


def _cached_padded(value: str, size: int) -> CharField:
    key = (value, size)
    field = _PAD_CACHE.get(key)
    if field is None:
        field = padded(value, size)
        if len(_PAD_CACHE) < _CACHE_LIMIT:
            _PAD_CACHE[key] = field
    return field


_md_fields = attrgetter(*MD_FIELDS)
_TEXT_AT = tuple(i for i, (_, kind, _) in enumerate(_WIRE_KINDS) if kind == "text")
_ID_AT = tuple((i, size) for i, (_, kind, size) in enumerate(_WIRE_KINDS) if kind == "id")
_NO_ID = {24: bytes(24), 32: bytes(32)}  # an empty id (pymqi's default b"") is all zeros
_INT_AT = tuple(i for i, (_, kind, _) in enumerate(_WIRE_KINDS) if kind == "int")


def md_to_wire(md: MD, ccsid: int = 1208) -> list[Any]:
    """An MD as the wire's list; CodedCharSetId 0 (queue manager's) becomes ``ccsid``."""
    out: list[Any] = list(_md_fields(md))
    cache = _TEXT_CACHE
    for i in _TEXT_AT:
        value = out[i]
        converted = cache.get(value) if isinstance(value, str | bytes) else None
        out[i] = converted if converted is not None else _cached_text(value)
    for i, size in _ID_AT:
        value = out[i]
        if type(value) is bytes and len(value) == size:
            continue
        out[i] = _NO_ID[size] if not value else ident(value, size)
    for i in _INT_AT:
        if type(out[i]) is not int:
            out[i] = int(out[i])
    if out[5] == cmqc.MQCCSI_Q_MGR:
        out[5] = ccsid
    return out


def md_fill(md: MD, wire: list[Any]) -> MD:
    """Fill ``md`` in place from the wire's list, with pymqi's blank-padded bytes."""
    fields = md.__dict__  # plain attributes: write them directly, as MQOpts.__setattr__ would
    for (name, kind, size), value in zip(_WIRE_KINDS, wire, strict=True):
        fields[name] = _cached_padded(value, size) if kind == "text" else value
    return md


def od_to_wire(od: OD) -> dict[str, Any]:
    """An MQOD as OPEN and PUT1 carry it; its Version goes too (a topic needs 4, spec C A-27)."""
    return {
        "Version": int(od.Version), "ObjectType": int(od.ObjectType), "ObjectName": text(od.ObjectName),
        "ObjectQMgrName": text(od.ObjectQMgrName), "DynamicQName": text(od.DynamicQName),
        "AlternateUserId": text(od.AlternateUserId), "ObjectString": od.vs_text("ObjectString"),
        "SelectionString": od.vs_text("SelectionString"),
    }


def od_fill(od: OD, resolved_q: str, resolved_qmgr: str, dynamic: bool = False) -> None:
    """What MQOPEN returns in the OD: the resolved queue and queue manager names, and (opening a
    model queue) the name of the dynamic queue it created in ObjectName, as pymqi programs read it."""
    if dynamic:
        od.ObjectName = padded(resolved_q, 48)
    od.ResolvedQName = padded(resolved_q, 48)
    od.ResolvedQMgrName = padded(resolved_qmgr, 48)


def gmo_to_wire(gmo: GMO) -> dict[str, int]:
    return {"Options": int(gmo.Options), "WaitInterval": int(gmo.WaitInterval),
            "MatchOptions": int(gmo.MatchOptions)}


def core_descriptor(md: Any) -> MessageDescriptor:
    """The client's MD (blank-padded ``bytes`` character fields, as pymqi) in core's terms."""
    values = {}
    for name in MD_FIELDS:
        value = getattr(md, name)
        if name in BYTE_FIELDS:
            value = bytes(value)
        elif isinstance(value, bytes):
            value = value.decode("utf-8", "replace").rstrip(" \0")
        elif isinstance(value, str):
            value = value.rstrip(" \0")
        values[name] = value
    return MessageDescriptor(**values)
