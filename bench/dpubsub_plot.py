"""The picture of ``bench/dpubsub.py``'s figures: DIRECT against TOPICHOST by cluster size, one
panel per question seed 000 raises (channels opened, proxy subscriptions held, publications/s end
to end, hops per publication).

``python bench/dpubsub_plot.py RESULTS.jsonl docs/dpubsub.svg`` draws from the JSON lines a run
printed; ``bench/dpubsub.py --plot docs/dpubsub.svg`` draws at the end of a run.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

COLOURS = {"DIRECT": "tab:blue", "TOPICHOST": "tab:orange"}


def _series(results: list[dict[str, Any]], routing: str, value: Any) -> tuple[list[int], list[float]]:
    rows = sorted((r for r in results if r["routing"] == routing and not r.get("timed_out")),
                  key=lambda r: r["queue_managers"])
    return [r["queue_managers"] for r in rows], [value(r) for r in rows]


def plot(results: list[dict[str, Any]], target: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    panels = (
        ("cluster-sender channels defined", lambda r: r["knowledge"]["cluster_senders_defined"]),
        ("proxy subscriptions held (all members)", lambda r: r["knowledge"]["proxies_held"]),
        ("publications/s end to end", lambda r: r["throughput"]["publications_per_s"]),
        ("hops (channel messages) per publication", lambda r: r["hops"]["per_publication"]),
    )
    fig, axes = plt.subplots(1, 4, figsize=(18, 4.4))
    sizes = sorted({r["queue_managers"] for r in results})
    for ax, (title, value) in zip(axes, panels, strict=True):
        for routing, colour in COLOURS.items():
            xs, ys = _series(results, routing, value)
            if xs:
                ax.plot(xs, ys, marker="o", color=colour, label=routing)
                for x, y in zip(xs, ys, strict=True):
                    ax.annotate(f"{y:,.0f}" if y >= 10 else f"{y:g}", (x, y), textcoords="offset points",
                                xytext=(0, 6), ha="center", fontsize=7, color=colour)
        if title.startswith("cluster-sender"):  # a full mesh: every member to every other
            ax.plot(sizes, [n * (n - 1) for n in sizes], linestyle="dotted", color="grey", label="N(N-1): full mesh")
        ax.set_title(title, fontsize=10)
        ax.set_xlabel("queue managers in the cluster (N)")
        ax.set_xticks(sizes)
        ax.legend(fontsize=8)
    subscribers = {str(r.get("subscriber_set", "all")) for r in results}
    fig.suptitle("Publish/subscribe cluster routing, DIRECT against TOPICHOST (bench/dpubsub.py; "
                 f"subscribers: {', '.join(sorted(subscribers))}; one queue manager process per member)", fontsize=11)
    fig.tight_layout()
    fig.savefig(target)
    plt.close(fig)


def load(path: Path) -> list[dict[str, Any]]:
    """The result lines of a run's output (other lines are skipped)."""
    found = []
    for line in path.read_text().splitlines():
        line = line.strip()
        if line.startswith("{"):
            row = json.loads(line)
            if "routing" in row and "queue_managers" in row:
                found.append(row)
    return found


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: python bench/dpubsub_plot.py RESULTS.jsonl OUT.svg")
    plot(load(Path(sys.argv[1])), Path(sys.argv[2]))
