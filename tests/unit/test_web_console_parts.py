"""The console's pure parts: the network picture's edges and colours, the charts' ring buffer,
the pages' escaping and accessible names."""

from __future__ import annotations

from mqlite.web.console import network, pages
from mqlite.web.console.sampler import QmgrBuffer, Sampler, rows_of
from mqlite.web.metrics import Family


def test_a_sender_points_at_the_queue_manager_with_its_receiver() -> None:
    views = [
        network.QmgrView("QM1", True, channels=[{"CHANNEL": "QM1.TO.QM2", "CHLTYPE": "SDR", "XMITQ": "XQ"}],
                         chstatus=[{"CHANNEL": "QM1.TO.QM2", "STATUS": "RETRYING"}]),
        network.QmgrView("QM2", True, channels=[{"CHANNEL": "QM1.TO.QM2", "CHLTYPE": "RCVR"}]),
        network.QmgrView("QM3", False),
    ]
    g = network.graph(views)
    assert g.nodes == [("QM1", "running"), ("QM2", "running"), ("QM3", "ended")]
    assert g.edges == [network.Edge("channel", "QM1.TO.QM2", "QM1", "QM2", "RETRYING")]
    picture = network.svg(g)
    assert 'data-channel="QM1.TO.QM2"' in picture and 'data-status="RETRYING"' in picture
    assert network.TRANSIENT_COLOUR in picture
    assert 'aria-label="channel QM1.TO.QM2 from QM1 to QM2: RETRYING"' in picture


def test_without_status_a_sender_is_inactive_and_cluster_members_are_edges() -> None:
    views = [network.QmgrView("A", True, channels=[{"CHANNEL": "A.TO.X", "CHLTYPE": "SDR", "XMITQ": "X"}],
                              clusqmgrs=[{"CLUSQMGR": "A", "CLUSTER": "C"},
                                         {"CLUSQMGR": "B", "CLUSTER": "C", "STATUS": "RUNNING"}])]
    g = network.graph(views)
    assert network.Edge("channel", "A.TO.X", "A", "X", "INACTIVE") in g.edges  # the XMITQ names the partner
    assert network.Edge("cluster", "C", "A", "B", "RUNNING") in g.edges
    assert ("B", "unknown") in g.nodes
    assert [network.colour(s) for s in ("RUNNING", "BINDING", "STOPPED", "INACTIVE")] == [
        network.RUNNING_COLOUR, network.TRANSIENT_COLOUR, network.IDLE_COLOUR, network.IDLE_COLOUR]


def test_the_ring_buffer_keeps_depths_and_rates_for_its_window() -> None:
    buffer = QmgrBuffer(size=3)
    for t, depth, puts in [(0.0, 0, 0), (1.0, 2, 2), (2.0, 5, 5), (4.0, 5, 9)]:
        buffer.add(t, {"Q": (depth, puts, 0)})
    out = buffer.json("Q")["Q"]
    assert out["depth"] == [[1.0, 2.0], [2.0, 5.0], [4.0, 5.0]]  # the oldest dropped
    assert out["putRate"] == [[1.0, 2.0], [2.0, 3.0], [4.0, 2.0]]
    assert buffer.json("NOT.THERE") == {}


def test_samples_come_from_the_metrics_collection() -> None:
    depth = Family("ibmmq_queue_depth", "")
    depth.add({"qmgr": "QM1", "queue": "Q"}, 3)
    puts = Family("ibmmq_queue_mqput_mqput1_count", "")
    puts.add({"qmgr": "QM1", "queue": "Q"}, 7)
    assert rows_of([depth, puts]) == {"QM1": {"Q": (3, 7, 0)}}
    sampler = Sampler(collect=lambda: [depth, puts], every=1.0)
    sampler.sample_once()
    assert sampler.series("QM1", "Q")["queues"]["Q"]["depth"][0][1] == 3.0
    assert sampler.series("QM9")["queues"] == {}


def test_pages_escape_and_name_their_controls() -> None:
    html = pages.page("<Q>", pages.table("T", ["A"], [["<b>"]]) + pages.field("Queue name", "queue"), "QM&1", "u")
    assert "&lt;Q&gt;" in html and "&lt;b&gt;" in html and "<b>" not in html
    assert '<label for="f-queue">Queue name</label>' in html
    assert '<th scope="col">A</th>' in html and 'aria-label="Main"' in html
    assert pages.url("qmgr", "QM 1", "queue", "A/B") == "/console/qmgr/QM%201/queue/A%2FB"
