"""Draw the soak test's RSS samples (``MQLITE_SOAK_RSS_CSV`` files) as one SVG.

    python bench/soak_plot.py docs/soak.svg after.csv=fixed before.csv="before the fixes"

Each argument after the output is ``CSV=LABEL``; the CSV has ``seconds,rss_mb`` lines.
"""

from __future__ import annotations

import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt


def read(path: str) -> tuple[list[float], list[float]]:
    with open(path) as f:
        rows = list(csv.DictReader(f))
    return [float(r["seconds"]) / 60 for r in rows], [float(r["rss_mb"]) for r in rows]


def main() -> None:
    out, *series = sys.argv[1:]
    fig, ax = plt.subplots(figsize=(8, 4))
    for item in series:
        path, _, label = item.partition("=")
        minutes, rss = read(path)
        ax.plot(minutes, rss, label=label or path, linewidth=1.2)
    ax.set_xlabel("minutes")
    ax.set_ylabel("queue manager RSS (MB)")
    ax.set_title("Soak: mixed put/get, publish/subscribe, MQTT and reconnect churn")
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(out)


if __name__ == "__main__":
    main()
