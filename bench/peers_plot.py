"""``bench/peers.py``'s plots: a PNG per scenario, a bar per system at its median with each round
as a dot. ``python bench/peers_plot.py docs/peers/peers.json docs/peers`` redraws them from a run's
figures and prints the tables for docs/PERFORMANCE.md."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

COLOURS = {"mqlite": "#1f77b4", "rabbitmq": "#ff7f0e", "nats": "#2ca02c", "mosquitto": "#9467bd"}
NOT_FSYNCED = ("nats", "mosquitto")  # they confirm before the disk has it (peers.DURABILITY)


def plot_all(figures: dict[str, Any], directory: Path) -> list[Path]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name, result in figures["scenarios"].items():
        systems = [s for s in COLOURS if isinstance(result.get(s), dict) and result[s]["median"] is not None]
        if not systems:
            continue
        fig, ax = plt.subplots(figsize=(6, 3.6))
        for x, system in enumerate(systems):
            ax.bar(x, result[system]["median"], 0.6, color=COLOURS[system], alpha=0.8)
            dots = [r for r in result[system]["rounds"] if r is not None]
            ax.plot([x] * len(dots), dots, "o", color="black", markersize=4)
        persistent = name.startswith("p_") or "qos1" in name
        labels = [f"{s}\n(no fsync)" if persistent and s in NOT_FSYNCED else s for s in systems]
        ax.set_xticks(range(len(systems)), labels)
        ax.set_title(f"{result['title']}\n{result['messages']:,} x {figures['payload_bytes']} B, "
                     f"{figures['rounds']} rounds, {figures['cpus']} cores, load {figures['load_average_before'][0]}"
                     f"-{figures.get('load_average_after', ['?'])[0]}",
                     fontsize=9)
        ax.set_ylabel("per second (bar: median; dots: rounds)", fontsize=8)
        fig.tight_layout()
        target = directory / f"{name}.png"
        fig.savefig(target, dpi=100)
        plt.close(fig)
        written.append(target)
    return written


def tables(figures: dict[str, Any], links: str = "peers") -> str:
    """The figures as docs/PERFORMANCE.md's tables: a table per scenario, its plot linked."""
    out = []
    for name, result in figures["scenarios"].items():
        systems = [s for s in COLOURS if isinstance(result.get(s), dict)]
        out.append(f"**{name}**: {result['title']}, {result['messages']:,} messages a round "
                   f"([plot]({links}/{name}.png))\n")
        out.append("| system | median | rounds | mqlite / system (median of the rounds' ratios) |")
        out.append("|---|---:|---|---:|")
        for system in systems:
            rounds = ", ".join("-" if r is None else f"{r:,}" for r in result[system]["rounds"])
            median = result[system]["median"]
            ratio = result.get(f"mqlite_over_{system}", "")
            fsync = " (no fsync)" if (name.startswith("p_") or "qos1" in name) and system in NOT_FSYNCED else ""
            out.append(f"| {system}{fsync} | {'-' if median is None else f'{median:,}'} | {rounds} | {ratio} |")
        out.append("")
    return "\n".join(out)


if __name__ == "__main__":
    figures = json.loads(Path(sys.argv[1]).read_text())
    for path in plot_all(figures, Path(sys.argv[2])):
        print(path, file=sys.stderr)
    print(tables(figures))
