"""Benchmark of the timed auction (issue 20, item 1): what a tick costs the pure core while an auction runs.

CPU time (``time.process_time``, best of ``--repeat`` runs: this machine is
shared) per tick of 250 ms, with the Pi Zero 2 estimate (CPU x14 central, x20 pessimistic): idle (no
flow: every event also asks whether a live view changed), a deed chosen (a
flow without ticks), and an auction (each tick asks the auction, and the
live view for the table page is built before and after, twice a tick).
Target: a tick during an auction under 1 ms on a Pi Zero 2 (the run loop
ticks every 100 ms).

    python benchmarks/bench_auction.py [--repeat 5]
"""

from __future__ import annotations

import argparse
from dataclasses import replace

from common import Report, best_cpu, four_players

from cards import load_edition

EDITIONS = {"us": load_edition("us")}
TICKS = 4_000


def ticks(report: Report, repeat: int) -> None:
    from banker.unit.events import Tick
    from banker.unit.flows.auction import Auction
    from banker.unit.flows.deed import DeedMode
    from banker.unit.panel import Panel
    from banker.unit.step import step

    game = four_players()
    # an auction whose countdown never ends within the run (each bid restarts it: here it is long)
    modes = (("idle", None), ("a deed chosen", DeedMode("boardwalk")),
             ("an auction", Auction("boardwalk", ends_at=1e9, left=10, high=1_500_000, bidder=1)))
    for label, mode in modes:
        def run(mode=mode) -> None:
            panel = replace(Panel(sleep_after=1e9), mode=mode)
            for i in range(TICKS):
                panel = step(panel, game, Tick(i * 0.25)).panel

        seconds = best_cpu(run, repeat) / TICKS
        report.figure(f"a tick, {label}", seconds * 1e6, "us")
        report.zero2(f"a tick, {label}", seconds, target_ms=1.0 if mode is not None else None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    report = Report("timed auctions (issue 20, item 1)")
    report.section("the run loop's tick on the pure core")
    ticks(report, args.repeat)
    report.summary()


if __name__ == "__main__":
    main()
