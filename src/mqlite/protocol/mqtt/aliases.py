"""Topic aliases a server uses towards an MQTT 5.0 client (MQTT 5.0 3.3.2.3.4).

The client's CONNECT says how many it accepts (Topic Alias Maximum). The first PUBLISH on a
topic carries the topic and a new alias; later ones carry the alias and an empty topic. When
all aliases are taken, the least recently used one is given to the new topic (sent in full
again), so a client with many topics still saves on the ones it hears most.
"""

from __future__ import annotations

from collections import OrderedDict

from mqlite.protocol.mqtt.packets import Publish


class OutboundAliases:
    def __init__(self, maximum: int) -> None:
        self.maximum = maximum
        self._by_topic: OrderedDict[str, int] = OrderedDict()

    def apply(self, packet: Publish) -> None:
        """Give ``packet`` its alias: topic and a (re)assigned alias, or the alias alone."""
        topic = packet.topic
        alias = self._by_topic.get(topic)
        if alias is not None:
            self._by_topic.move_to_end(topic)
            packet.properties["topic_alias"] = alias
            packet.topic = ""
            return
        if len(self._by_topic) < self.maximum:
            alias = len(self._by_topic) + 1
        else:
            _, alias = self._by_topic.popitem(last=False)
        self._by_topic[topic] = alias
        packet.properties["topic_alias"] = alias
