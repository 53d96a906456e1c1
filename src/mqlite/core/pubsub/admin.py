"""Administration of publish/subscribe: topic objects, administrative subscriptions and the
status displays (DISPLAY SBSTATUS, TPSTATUS, PUBSUB), for MQSC over the queue manager.

Attributes arrive canonical and typed from the attribute catalogue (``core.attributes``): TOPIC
with spec A §12's names, SUB with MQSC's (TOPICSTR, TOPICOBJ, DEST, DESTCLAS, SELECTOR, ...).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mqlite import cmqc as C
from mqlite.core import attributes
from mqlite.core.errors import MQError
from mqlite.core.handles import Connection
from mqlite.core.objects import ObjectDefinitions
from mqlite.core.pubsub.delivery import CopyDelivery
from mqlite.core.pubsub.registry import Subscriptions
from mqlite.core.pubsub.subscribe import Subscriber
from mqlite.core.pubsub.subscription import Subscription
from mqlite.core.security.events import Caller
from mqlite.core.security.principal import Principal
from mqlite.core.topics.tree import BASE_TOPIC, TopicTree
from mqlite.message import NULL_ID

_TOPIC_STATUS_TYPES = ("TOPIC", "SUB", "PUB")
_SUBTYPE = {C.MQSUBTYPE_API: "API", C.MQSUBTYPE_ADMIN: "ADMIN", C.MQSUBTYPE_PROXY: "PROXY"}
_PSPROP = {"NONE": C.MQPSPROP_NONE, "COMPAT": C.MQPSPROP_COMPAT, "RFH2": C.MQPSPROP_RFH2,
           "MSGPROP": C.MQPSPROP_MSGPROP}
_PUBPRTY = {"ASPUB": C.MQPRI_PRIORITY_AS_PUBLISHED, "ASQDEF": C.MQPRI_PRIORITY_AS_Q_DEF}


class PubSubAdmin:
    """DEFINE/ALTER/DELETE/DISPLAY of TOPIC and SUB, and the pub/sub status displays."""

    def __init__(self, objects: ObjectDefinitions, subscriptions: Subscriptions, subscriber: Subscriber,
                 delivery: CopyDelivery, connections: dict[str, Connection]) -> None:
        self.name = objects.name
        self.attrs = objects.attrs
        self.qdefs = objects.qdefs
        self.outbox = objects.outbox
        self.clock: Callable[[], float] = objects.clock
        self.subscriptions = subscriptions
        self.tree: TopicTree = subscriptions.tree
        self.subs_by_id = subscriptions.subs_by_id
        self.subs_by_name = subscriptions.subs_by_name
        self.subscriber = subscriber
        self.delivery = delivery
        self.connections = connections
        # The proxy subscriptions other queue managers hold here (distributed publish/subscribe).
        self.proxy_subscriptions: Callable[[], list[Subscription]] = list

    # -- topic objects ----------------------------------------------------------------------
    def define_topic(self, name: str, attrs: dict[str, Any], like: str | None = None, replace: bool = False) -> None:
        existing = self.tree.objects.get(name)
        if existing is not None and not replace:
            raise MQError(C.MQRC_OBJECT_ALREADY_EXISTS, f"topic object {name} already exists")
        if like is not None:
            model = self.tree.objects.get(like)
            if model is None:
                raise MQError(C.MQRC_UNKNOWN_OBJECT_NAME, f"LIKE topic {like} not found")
            base = dict(model)
        else:
            base = attributes.defaults("TOPIC")
        for key in ("CRDATE", "CRTIME", "ALTDATE", "ALTTIME", "TOPICSTR"):
            base.pop(key, None)
        base.update(attrs)
        if existing is not None:  # REPLACE keeps the topic string (spec A R-ATO-7, A-24)
            base["TOPICSTR"] = existing.get("TOPICSTR", "")
        topic = str(base.get("TOPICSTR", ""))
        if not topic and name != BASE_TOPIC:
            raise MQError(C.MQRC_ADMIN_TOPIC_STRING_ERROR, "TOPICSTR is required (spec A A-27)")
        holder = self.tree.object_for_topic(topic)
        if holder is not None and holder != name and holder in self.tree.objects:
            raise MQError(C.MQRC_OBJECT_ALREADY_EXISTS, f"topic string {topic!r} belongs to topic {holder}")
        now = self.clock()
        crdate, crtime = attributes.date_and_time(now)
        base["CRDATE"] = existing.get("CRDATE", crdate) if existing else crdate
        base["CRTIME"] = existing.get("CRTIME", crtime) if existing else crtime
        base["ALTDATE"], base["ALTTIME"] = crdate, crtime
        if existing is not None:
            self.tree.dissociate(name, now)
        self.tree.associate(name, base, now)
        self.outbox.tx.put_record("object", f"TOPIC/{name}", base)

    def alter_topic(self, name: str, attrs: dict[str, Any]) -> None:
        current = self.tree.objects.get(name)
        if current is None:
            raise MQError(C.MQRC_UNKNOWN_OBJECT_NAME, f"topic object {name} not found")
        if "TOPICSTR" in attrs and attrs["TOPICSTR"] != current.get("TOPICSTR"):
            raise MQError(C.MQRC_TOPIC_NOT_ALTERABLE, "TOPICSTR cannot be altered: DELETE and DEFINE again")
        _check_clroute(current, attrs)
        current.update(attrs)
        now = self.clock()
        current["ALTDATE"], current["ALTTIME"] = attributes.date_and_time(now)
        self.tree.changed(now)  # ASPARENT values below it change at once (spec A R-ATO-4)
        self.outbox.tx.put_record("object", f"TOPIC/{name}", current)

    def delete_topic(self, name: str) -> None:
        if name not in self.tree.objects:
            raise MQError(C.MQRC_UNKNOWN_OBJECT_NAME, f"topic object {name} not found")
        self.tree.dissociate(name, self.clock())
        self.outbox.tx.delete_record("object", f"TOPIC/{name}")

    def topic_rows(self, generic: str) -> list[dict[str, Any]]:
        """DISPLAY TOPIC: the local objects (TYPE LOCAL) and the cached cluster copies (TYPE
        CLUSTER, with CLUSQMGR) whose names match, by name, the local one first; MQSC shows the
        TYPE asked for (B:R-DSP-4, A-47)."""
        rows = [{"TOPIC": name, "TYPE": "LOCAL", **attrs} for name, attrs in sorted(self.tree.objects.items())
                if attributes.generic_match(generic, name)]
        rows = sorted([*rows, *self.tree.cluster_topic_rows(generic)], key=lambda row: row["TOPIC"])
        if not rows and "*" not in generic:
            raise MQError(C.MQRC_UNKNOWN_OBJECT_NAME, f"topic object {generic} not found")
        return rows

    # -- administrative subscriptions ----------------------------------------------------------
    def define_sub(self, name: str, attrs: dict[str, Any], like: str | None = None, replace: bool = False,
                   principal: Principal | None = None) -> None:
        """DEFINE SUB: a durable subscription of type ADMIN (spec A A-35, spec C R-FAC-1..3).
        ``principal``: who issues the command; its destination is then checked (R-SEC-22)."""
        existing = self._sub_named(name)
        if like is not None:
            model = self._sub_named(like)
            if model is None:
                raise MQError(C.MQRC_UNKNOWN_OBJECT_NAME, f"LIKE subscription {like} not found")
            attrs = {**self.sub_attrs(model), **attrs}
        if existing is not None:
            if not replace:
                raise MQError(C.MQRC_SUB_ALREADY_EXISTS, f"subscription {name} already exists")
            # REPLACE keeps the topic (spec A TV-IN-18): the rest is altered
            kept = {k: v for k, v in attrs.items() if k not in ("TOPICSTR", "TOPICOBJ", "WSCHEMA")}
            self.alter_sub(name, kept, principal)
            return
        topic, _ = self.subscriptions.resolve_topic(str(attrs.get("TOPICOBJ", "")), str(attrs.get("TOPICSTR", "")))
        char_scheme = attrs.get("WSCHEMA", "TOPIC") == "CHAR"
        managed = attrs.get("DESTCLAS", "PROVIDED") == "MANAGED"
        dest = str(attrs.get("DEST", "")).strip()
        if not managed:
            if not dest:
                raise MQError(C.MQRC_UNKNOWN_OBJECT_NAME, "DEST is required unless DESTCLAS(MANAGED)")
            if dest not in self.qdefs and not attrs.get("DESTQMGR"):
                raise MQError(C.MQRC_UNKNOWN_OBJECT_NAME, f"destination queue {dest} is not defined")
        options = C.MQSO_DURABLE | (C.MQSO_MANAGED if managed else 0)
        options |= C.MQSO_WILDCARD_CHAR if char_scheme else C.MQSO_WILDCARD_TOPIC
        if attrs.get("REQONLY") in (True, "YES"):
            options |= C.MQSO_PUBLICATIONS_ON_REQUEST
        if attrs.get("VARUSER", "ANY") == "ANY":
            options |= C.MQSO_ANY_USERID
        if attrs.get("SUBSCOPE") == "QMGR":  # ALL only leaves the topic's scope (spec B A-30)
            options |= C.MQSO_SCOPE_QMGR
        correl = attrs.get("DESTCORL")
        if correl:
            options |= C.MQSO_SET_CORREL_ID
        user = str(attrs.get("SUBUSER") or "").strip() or "mqm"
        if principal is not None:  # no topic check: the command's authority suffices (R-SEC-22)
            user = self._sub_user(principal, attrs, None)
            if not managed:
                self._check_destination(principal, user, dest, options | C.MQSO_CREATE, topic, name)
        sub = self.subscriber.new_subscription(
            topic, char_scheme, True, name, user,
            level=int(attrs.get("SUBLEVEL", 1)), options=options, selection=str(attrs.get("SELECTOR", "")),
            correl_id=bytes.fromhex(str(correl)) if correl else NULL_ID,
            pub_priority=_pub_priority(attrs.get("PUBPRTY", "ASPUB")), user_data=str(attrs.get("USERDATA", "")),
            expiry=_expiry(attrs.get("EXPIRY", "UNLIMITED")), sub_type=C.MQSUBTYPE_ADMIN,
        )
        info = sub.info
        info.object_name = str(attrs.get("TOPICOBJ", ""))
        info.object_string = str(attrs.get("TOPICSTR", ""))
        info.dest_qmgr = str(attrs.get("DESTQMGR", ""))
        info.ps_properties = _PSPROP.get(str(attrs.get("PSPROP", "MSGPROP")), C.MQPSPROP_MSGPROP)
        if attrs.get("PUBACCT"):
            info.pub_accounting_token = bytes.fromhex(str(attrs["PUBACCT"])).ljust(32, b"\0")[:32]
        info.pub_appl_identity = str(attrs.get("PUBAPPID", ""))
        if managed:
            model = self.tree.resolved(self.tree.owner_of_pattern(topic, char_scheme)).get("MDURMDL", "")
            self.subscriber.make_managed_queue(sub, str(model))
        else:
            sub.dest = dest
        self.subscriptions.add(sub)
        self.delivery.send_retained(None, sub)  # "including the currently retained publication" (R-FAC-1)

    def alter_sub(self, name: str, attrs: dict[str, Any], principal: Principal | None = None) -> None:
        """ALTER SUB; with ``principal`` (who issues it) the destination is checked as the
        user of R-SEC-22's table, which becomes the subscription's SUBUSER (A-39)."""
        sub = self._sub_named(name)
        if sub is None:
            raise MQError(C.MQRC_NO_SUBSCRIPTION, f"subscription {name} not found")
        for fixed in ("TOPICSTR", "TOPICOBJ", "WSCHEMA", "DESTCLAS", "SUBLEVEL", "SELECTOR", "SUBSCOPE"):
            if fixed in attrs and attrs[fixed] != self.sub_attrs(sub).get(fixed):
                raise MQError(C.MQRC_TOPIC_NOT_ALTERABLE if fixed.startswith("TOPIC") else C.MQRC_OPTIONS_ERROR,
                              f"{fixed} of subscription {name} cannot be altered")
        dest = str(attrs["DEST"]).strip() if "DEST" in attrs else sub.dest
        if "DEST" in attrs and dest not in self.qdefs:
            raise MQError(C.MQRC_UNKNOWN_OBJECT_NAME, f"destination queue {dest} is not defined")
        if principal is not None:
            user = self._sub_user(principal, attrs, sub)
            if not sub.managed:
                self._check_destination(principal, user, dest, sub.options | C.MQSO_ALTER, sub.topic, name)
            sub.user = user
        sub.dest = dest
        if "USERDATA" in attrs:
            sub.user_data = str(attrs["USERDATA"])
        if "PUBPRTY" in attrs:
            sub.pub_priority = _pub_priority(attrs["PUBPRTY"])
        if "EXPIRY" in attrs:
            sub.expiry = _expiry(attrs["EXPIRY"])
            sub.expires_at = self.clock() + sub.expiry / 10 if sub.expiry > 0 else 0.0
            self.subscriptions.schedule_expiry(sub)
        if "DESTCORL" in attrs:
            sub.correl_id = bytes.fromhex(str(attrs["DESTCORL"])) if attrs["DESTCORL"] else sub.sub_id
        info = sub.info
        if "PSPROP" in attrs:
            info.ps_properties = _PSPROP.get(str(attrs["PSPROP"]), C.MQPSPROP_MSGPROP)
        if "PUBAPPID" in attrs:
            info.pub_appl_identity = str(attrs["PUBAPPID"])
        info.altered = self.clock()
        if sub.durable:
            self.outbox.tx.put_record("sub", sub.sub_id.hex(), sub.to_record())

    @staticmethod
    def _sub_user(principal: Principal, attrs: dict[str, Any], sub: Subscription | None) -> str:
        """R-SEC-22's table: SUBUSER given and not blank is that user; given blank, or not given
        on DEFINE, the administrator's; not given on ALTER, the subscription's own."""
        if "SUBUSER" in attrs:
            return str(attrs["SUBUSER"]).strip() or principal.user
        return principal.user if sub is None else sub.user

    def _check_destination(self, principal: Principal, user: str, dest: str, options: int, topic: str,
                           name: str) -> None:
        """put on the destination queue as ``user`` (type 6 event on refusal)."""
        access = self.subscriber.access
        checked = principal if user == principal.user else access.principal_of(user)
        access.destination(checked, Caller(user, "runmqsc"), dest, C.MQZAO_OUTPUT, options, topic, name)

    def delete_sub(self, name: str) -> None:
        sub = self._sub_named(name)
        if sub is None:
            raise MQError(C.MQRC_NO_SUBSCRIPTION, f"subscription {name} not found")
        self.subscriptions.remove(sub)

    def _sub_named(self, name: str) -> Subscription | None:
        named = self.subs_by_name.get(name)
        if named:
            return named[0]
        try:  # SUBID(hex) names a subscription too
            return self.subs_by_id.get(bytes.fromhex(name))
        except ValueError:
            return None

    def sub_rows(self, generic: str) -> list[dict[str, Any]]:
        """DISPLAY SUB: every subscription with a name matching ``generic``."""
        rows = [self.sub_attrs(s) for s in self._subs_matching(generic)]
        if not rows and "*" not in generic:
            raise MQError(C.MQRC_NO_SUBSCRIPTION, f"subscription {generic} not found")
        return rows

    def sub_status_rows(self, generic: str, subtype: str = "USER") -> list[dict[str, Any]]:
        """DISPLAY SBSTATUS: durable ones always, non-durable ones while they exist (spec A R-NDUR-2)."""
        wanted = {"ALL": None, "USER": (C.MQSUBTYPE_API, C.MQSUBTYPE_ADMIN), "API": (C.MQSUBTYPE_API,),
                  "ADMIN": (C.MQSUBTYPE_ADMIN,), "PROXY": (C.MQSUBTYPE_PROXY,)}.get(subtype.upper())
        rows = []
        for sub in self._subs_matching(generic):
            if wanted is not None and sub.sub_type not in wanted:
                continue
            holder = sub.holder_conn
            rows.append({
                "SUB": sub.name, "SUBID": sub.sub_id.hex().upper(), "DURABLE": "YES" if sub.durable else "NO",
                "SUBTYPE": _SUBTYPE.get(sub.sub_type, "API"), "SUBUSER": sub.user,
                "ACTCONN": holder.conn_id.rjust(48, "0") if holder is not None else "0" * 48,
                "NUMMSGS": sub.messages, "RESMDATE": attributes.date_and_time(sub.resumed or sub.created)[0],
                "RESMTIME": attributes.date_and_time(sub.resumed or sub.created)[1],
                "LMSGDATE": attributes.date_and_time(sub.last_message)[0] if sub.last_message else "",
                "LMSGTIME": attributes.date_and_time(sub.last_message)[1] if sub.last_message else "",
                "TOPICSTR": sub.topic, "DEST": sub.dest,
            })
        if not rows and "*" not in generic:
            raise MQError(C.MQRC_NO_SUBSCRIPTION, f"subscription {generic} not found")
        return rows

    def _subs_matching(self, generic: str) -> list[Subscription]:
        subs = sorted(self.subs_by_id.values(), key=lambda s: (s.name, s.sub_id))
        return [s for s in subs if attributes.generic_match(generic, s.name or s.sub_id.hex().upper())]

    def sub_attrs(self, sub: Subscription) -> dict[str, Any]:
        info = sub.view
        crdate, crtime = attributes.date_and_time(sub.created)
        altdate, alttime = attributes.date_and_time(info.altered or sub.created)
        return {
            "SUB": sub.name, "SUBID": sub.sub_id.hex().upper(), "TOPICSTR": info.object_string or sub.topic,
            "TOPICOBJ": info.object_name, "DEST": sub.dest, "DESTQMGR": info.dest_qmgr or self.name,
            "DESTCLAS": "MANAGED" if sub.managed else "PROVIDED",
            "DESTCORL": sub.correl_id.hex().upper(), "DURABLE": "YES" if sub.durable else "NO",
            "EXPIRY": "UNLIMITED" if sub.expiry < 0 else sub.expiry,
            "PSPROP": {v: k for k, v in _PSPROP.items()}.get(info.ps_properties, "MSGPROP"),
            "PUBACCT": info.pub_accounting_token.hex().upper(), "PUBAPPID": info.pub_appl_identity,
            "PUBPRTY": {v: k for k, v in _PUBPRTY.items()}.get(sub.pub_priority, sub.pub_priority),
            "REQONLY": "YES" if sub.options & C.MQSO_PUBLICATIONS_ON_REQUEST else "NO",
            "SELECTOR": sub.selection_string, "SUBLEVEL": sub.level,
            "SUBSCOPE": "QMGR" if sub.options & C.MQSO_SCOPE_QMGR else "ALL",
            "SUBTYPE": _SUBTYPE.get(sub.sub_type, "API"), "SUBUSER": sub.user, "USERDATA": sub.user_data,
            "VARUSER": "ANY" if sub.options & C.MQSO_ANY_USERID else "FIXED",
            "WSCHEMA": "CHAR" if sub.char_scheme else "TOPIC", "RESOLVED": sub.topic,
            "CRDATE": crdate, "CRTIME": crtime, "ALTDATE": altdate, "ALTTIME": alttime,
        }

    # -- topic status ------------------------------------------------------------------------
    def topic_status_rows(self, pattern: str, status_type: str = "TOPIC") -> list[dict[str, Any]]:
        """DISPLAY TPSTATUS(pattern) TYPE(TOPIC|SUB|PUB): ``pattern`` is a topic-scheme pattern over
        the existing nodes (spec A A-13); '#' lists the whole tree but what a WILDCARD(BLOCK)
        topic below the pattern's literal prefix holds ($SYS/MQ: name it, '$SYS/MQ/#', to see it)."""
        status_type = status_type.upper()
        if status_type not in _TOPIC_STATUS_TYPES:
            raise MQError(C.MQRC_OPTIONS_ERROR, "TYPE must be TOPIC, SUB or PUB")
        nodes = list(self.tree.matching(pattern, blocks=True)) if pattern else []
        rows: list[dict[str, Any]] = []
        for node in nodes:
            topic = node.topic
            if status_type == "TOPIC":
                resolved = self.tree.resolved(node)
                rows.append({
                    "TOPICSTR": topic, "ADMIN": self.tree.admin_name(node) or "",
                    "RETAINED": "YES" if node.retained else "NO",
                    "PUBCOUNT": node.publishers, "SUBCOUNT": node.subscribers,
                    **{k: resolved[k] for k in ("CLUSTER", "DEFPRESP", "DEFPERSIST", "DEFPRTY", "DURSUB",
                                                "MDURMDL", "MNDURMDL", "NPMSGDLV", "PMSGDLV", "PUB", "SUB",
                                                "PUBSCOPE", "SUBSCOPE")},
                })
            elif status_type == "SUB":  # and the proxies other queue managers hold here (issue 17)
                for sub in [*self.subs_by_id.values(), *self.proxy_subscriptions()]:
                    if sub.topic == topic:
                        holder = sub.holder_conn
                        rows.append({"TOPICSTR": topic, "SUBID": sub.sub_id.hex().upper(), "SUBUSER": sub.user,
                                     "DURABLE": "YES" if sub.durable else "NO",
                                     "DESTQMGR": sub.view.dest_qmgr or self.name,
                                     "SUBTYPE": _SUBTYPE.get(sub.sub_type, "API"),
                                     "ACTCONN": holder.conn_id.rjust(48, "0") if holder else "0" * 48,
                                     "NUMMSGS": sub.messages})
            else:
                for conn in self.connections.values():
                    for handle in conn.handles.values():
                        if handle.topic is node:
                            rows.append({"TOPICSTR": topic, "ACTCONN": conn.conn_id.rjust(48, "0"),
                                         "USERID": conn.user, "APPLTAG": conn.appl_name})
        if not rows and not any(c in pattern for c in "#+") and status_type == "TOPIC":
            raise MQError(C.MQRC_UNKNOWN_OBJECT_NAME, f"topic {pattern!r} not found")
        return rows

    def pubsub_status(self) -> list[dict[str, Any]]:
        """DISPLAY PUBSUB: this queue manager's publish/subscribe engine."""
        mode = self.attrs.get("PSMODE", "ENABLED")
        status = {"DISABLED": "INACTIVE", "COMPAT": "COMPAT"}.get(mode, "ACTIVE")  # spec D: COMPAT = engine only
        return [{"QMNAME": self.name, "TYPE": "LOCAL", "STATUS": status,
                 "SUBCOUNT": len(self.subs_by_id), "TPCOUNT": sum(1 for _ in self.tree.walk())}]


def _check_clroute(current: dict[str, Any], attrs: dict[str, Any]) -> None:
    """CLROUTE cannot be altered while CLUSTER is set (B:R-RTE-13, A-24, SC-50); an ALTER that
    also clears CLUSTER may."""
    if "CLROUTE" not in attrs or attrs["CLROUTE"] == current.get("CLROUTE", "DIRECT"):
        return
    if str(current.get("CLUSTER") or "").strip() and str(attrs.get("CLUSTER", current["CLUSTER"]) or "").strip():
        raise MQError(C.MQRCCF_CLROUTE_NOT_ALTERABLE,
                      f"CLROUTE cannot be altered while CLUSTER({str(current['CLUSTER']).strip()}) is set: "
                      "ALTER CLUSTER('') first")


def _pub_priority(value: Any) -> int:
    if isinstance(value, int):
        return value
    text = str(value).upper()
    return _PUBPRTY[text] if text in _PUBPRTY else int(text)


def _expiry(value: Any) -> int:
    if isinstance(value, int):
        return value
    return C.MQEI_UNLIMITED if str(value).upper() == "UNLIMITED" else int(value)
