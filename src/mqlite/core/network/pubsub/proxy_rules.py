"""The rules of distributed publish/subscribe as pure decisions (B §2-§5, §14, A-05, A-16, A-34).

Nothing here holds state: each function takes what a queue manager knows and returns a decision,
so every rule is a microsecond unit test.

- ``subscription_scope_all``: a subscription's effective scope (B:R-SCO-4, A-30).
- ``proxy_topic``: the topic string a subscription's proxy carries (character wildcards become
  ``#``, B:R-WCP-1, A-16).
- ``wants_proxy``: whether queue manager X should hold a proxy subscription for topic t at
  neighbour N, given X's interest sources for t (its own subscriptions, the proxies it holds from
  other neighbours) and the links between them (B:R-PXY-3, R-PXY-6: split horizon, hierarchy
  links carry everything, cluster links only cluster topics, no cluster-to-cluster gateway).
- ``forward_to``: whether X passes a publication on to N, given where the publication came from
  and the proxies X holds from N (B:R-FWD-1, R-FWD-7).
- ``looped`` / ``fingerprinted``: the routing fingerprints (``ibm.Rfp``) a publication collects on
  its way (B:R-LOOP-2, R-LOOP-5).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from mqlite import cmqc as C

__all__ = [
    "CHILD", "CLUSTER", "LOCAL", "PARENT", "RFP_PROPERTY", "Link", "TopicRoute", "fingerprinted",
    "forward_to", "is_hierarchy", "looped", "proxy_topic", "subscription_scope_all", "wanted_links",
    "wants_proxy",
]

PARENT = "PARENT"
CHILD = "CHILD"
CLUSTER = "CLUSTER"
DIRECT = "DIRECT"
TOPICHOST = "TOPICHOST"

# A link to a neighbour: (PARENT | CHILD, "") or (CLUSTER, cluster name). Two queue managers can
# be neighbours over several links (B §0.2).
Link = tuple[str, str]
# The source of interest or of a publication that is this queue manager itself.
LOCAL: frozenset[Link] = frozenset()

RFP_PROPERTY = "ibm.Rfp"  # the routing fingerprints, as IBM names the folder's tag (B:R-LOOP-4, A-34)
_RFP_SEPARATOR = ","  # QMIDs never contain one (queue manager names cannot)


@dataclass(frozen=True, slots=True)
class TopicRoute:
    """What a topic string resolves to at this queue manager, as far as distribution cares: its
    effective SUBSCOPE and PUBSCOPE, and the cluster topic object it falls under ('' none) with
    that object's CLROUTE and topic hosts (B §7, §8, §11)."""

    subscope_all: bool = True
    pubscope_all: bool = True
    cluster: str = ""
    clroute: str = DIRECT
    hosts: frozenset[str] = frozenset()


def subscription_scope_all(options: int, topic_subscope: object) -> bool:
    """Whether a subscription is global (B:R-SCO-4, A-30): MQSO_SCOPE_QMGR keeps it local,
    MQSO_SCOPE_ALL makes it global even under SUBSCOPE(QMGR), neither leaves the topic's SUBSCOPE."""
    if options & C.MQSO_SCOPE_QMGR:
        return False
    return bool(options & C.MQSO_SCOPE_ALL) or topic_subscope != "QMGR"


def is_hierarchy(link: Link) -> bool:
    return link[0] in (PARENT, CHILD)


def proxy_topic(pattern: str, char_scheme: bool) -> str:
    """The topic string of the proxy a subscription to ``pattern`` makes (B:R-WCP-1, A-16): a
    character-scheme pattern is cut at the start of the level holding its first ``*`` or ``?``
    (``%`` escapes) and ends in ``#``; one with no wildcard names one topic string (its escapes
    undone); a topic-scheme pattern goes as is."""
    if not char_scheme:
        return pattern
    escaped = False
    level_start = 0
    literal = []
    for index, char in enumerate(pattern):
        if escaped:
            escaped = False
        elif char == "%":
            escaped = True
            continue
        elif char == "/":
            level_start = index + 1
        elif char in "*?":
            return pattern[:level_start] + "#"
        literal.append(char)
    return "".join(literal)  # no wildcard: the topic string it names, escapes undone


def _source_passes(source: frozenset[Link], link: Link, neighbour: str, topic: TopicRoute) -> bool:
    """Whether interest from ``source`` (LOCAL, or the links a proxy came over) is passed on to
    ``neighbour`` over ``link`` (B:R-PXY-6, the A-05 table)."""
    from_hierarchy = any(is_hierarchy(s) for s in source)
    if is_hierarchy(link):
        if source is LOCAL or not source:
            return True
        if from_hierarchy:
            return topic.subscope_all
        # interest from cluster members reaches the hierarchy for DIRECT cluster topics only
        return topic.subscope_all and bool(topic.cluster) and topic.clroute == DIRECT
    if topic.cluster != link[1]:  # a cluster link carries only the cluster's own topics (R-PXY-8)
        return False
    if not source:
        return topic.clroute == DIRECT or neighbour in topic.hosts
    if from_hierarchy:  # never for TOPICHOST: its flows do not span a hierarchy (R-RTE-12)
        return topic.subscope_all and topic.clroute == DIRECT
    return False  # subscriptions are not passed from one cluster to another (R-OVL-1)


def wants_proxy(neighbour: str, links: Iterable[Link], local: bool, origins: dict[str, frozenset[Link]],
                topic: TopicRoute) -> bool:
    """Whether this queue manager should hold a proxy for the topic at ``neighbour`` (reached over
    ``links``): some interest source other than the neighbour itself passes the link rules.
    ``local``: a local subscription of scope ALL (or a PROXYSUB(FORCE) object) wants the topic;
    ``origins``: the neighbours this queue manager holds a proxy from, with the links they came over."""
    return bool(wanted_links(neighbour, links, local, origins, topic))


def wanted_links(neighbour: str, links: Iterable[Link], local: bool, origins: dict[str, frozenset[Link]],
                 topic: TopicRoute) -> frozenset[Link]:
    """The links to ``neighbour`` over which it should hold the proxy (``wants_proxy``, per link:
    a neighbour in a hierarchy and a cluster may want it over one and not the other)."""
    wanted = set()
    for link in links:
        if local and _source_passes(LOCAL, link, neighbour, topic):
            wanted.add(link)
            continue
        if any(origin != neighbour and _source_passes(source, link, neighbour, topic)
               for origin, source in origins.items()):
            wanted.add(link)
    return frozenset(wanted)


def forward_to(neighbour: str, links: Iterable[Link], source: str, source_links: frozenset[Link],
               topic: TopicRoute) -> bool:
    """Whether a publication that came from ``source`` (this queue manager's own name for a local
    publisher, over ``source_links`` otherwise) goes to ``neighbour``, which holds a matching proxy
    here and is reached over ``links`` (B:R-FWD-1, R-FWD-7; never back where it came from, A-11;
    PUBSCOPE(QMGR) here stops it, R-FWD-6)."""
    if neighbour == source or not topic.pubscope_all:
        return False
    local = not source_links
    from_hierarchy = any(is_hierarchy(s) for s in source_links)
    topichost = bool(topic.cluster) and topic.clroute == TOPICHOST
    for link in links:
        if is_hierarchy(link):
            # from a cluster member: on to the hierarchy for DIRECT cluster topics only
            if local or from_hierarchy or (topic.cluster and not topichost):
                return True
        elif local or (from_hierarchy and not topichost):  # never from one cluster member to another
            return True
    return False


def looped(fingerprints: str, own: str) -> bool:
    """Whether a publication arriving with these fingerprints has already passed this queue
    manager (B:R-LOOP-2): it went round a loop."""
    return bool(fingerprints) and own in fingerprints.split(_RFP_SEPARATOR)


def fingerprinted(fingerprints: str, own: str) -> str:
    """The fingerprints a publication leaves with: its own, then this queue manager's (R-LOOP-5)."""
    return f"{fingerprints}{_RFP_SEPARATOR}{own}" if fingerprints else own


def fingerprint_list(fingerprints: str) -> list[str]:
    return fingerprints.split(_RFP_SEPARATOR) if fingerprints else []
