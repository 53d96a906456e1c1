"""Distributed publish/subscribe: hierarchies, proxy subscriptions, publish/subscribe clusters
(DIRECT and TOPICHOST), publications forwarded between queue managers with loop detection."""
