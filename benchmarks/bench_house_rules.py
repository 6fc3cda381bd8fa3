"""Benchmark of the house rules and game modes (issue 21): what they add to the fold, a tick and a payment.

Three figures, CPU time (``time.process_time``, best of ``--repeat`` runs:
this machine is shared) with the Pi Zero 2 estimate (CPU x14 central, x20 pessimistic):

- the fold: 100k ordinary transactions replayed (rows/s); the time-limit
  check sits in its hottest function, so this is run on the tree before
  issue 21 too (``results-issue21.txt``: ``--fold-only`` was run there with
  this file's first version, which had its own copies of ``common``'s
  ``best_cpu`` and ``four_players``);
- a tick of the unit's run loop, without a time limit and in a time-limit
  game (where each tick asks the play clock, and one a minute writes);
- amount + ``M`` on the pure core (step and fold, no store), sums off and
  shown.

    python benchmarks/bench_house_rules.py [--rows 100000] [--repeat 5] [--fold-only]
"""

from __future__ import annotations

import argparse

from common import Report, best_cpu, four_players

from banker.fold.game import replay
from banker.journal.records import GameSettings, Posting, Transaction
from cards import load_edition

EDITIONS = {"us": load_edition("us")}


def fold(report: Report, rows: int, repeat: int) -> None:
    game = four_players(GameSettings(allow_negative=True))
    records = [Transaction("transfer", (Posting(1 + i % 4, 1 + (i + 1) % 4, 1_000, "transfer"),), "x",
                           id=game.next_tx + i, game=game.id) for i in range(rows)]
    seconds = best_cpu(lambda: replay(records, editions=EDITIONS, start=game), repeat)
    report.figure(f"fold of {rows:,} transactions", rows / seconds, "rows/s", digits=0)
    report.zero2(f"fold of {rows:,} transactions", seconds)


def ticks(report: Report, repeat: int) -> None:
    from banker.unit.events import Tick
    from banker.unit.panel import Panel
    from banker.unit.step import step

    for label, settings in (("no time limit", GameSettings()), ("a time-limit game", GameSettings(time_limit=86_400))):
        game = four_players(settings)

        def run(game=game) -> None:
            panel, g = Panel(sleep_after=1e9), game
            for i in range(6_000):  # 25 minutes of 250 ms ticks
                out = step(panel, g, Tick(i * 0.25))
                panel, g = out.panel, (out.folded[1] if out.folded else g)

        seconds = best_cpu(run, repeat) / 6_000
        report.figure(f"a tick, {label}", seconds * 1e6, "us")
        report.zero2(f"a tick, {label}", seconds)


def payment(report: Report, repeat: int) -> None:
    from banker.unit.events import CardPlaced, KeyDown
    from banker.unit.panel import Panel
    from banker.unit.step import step

    for label, settings in (("sums off", GameSettings()), ("sums shown", GameSettings(sums="show"))):
        game = four_players(settings)
        panel = step(Panel(), game, CardPlaced("right", "A0", 0.0)).panel
        panel = step(panel, game, KeyDown("1", 0.1)).panel

        def run(game=game, panel=panel) -> None:
            for i in range(2_000):
                out = step(panel, game, KeyDown("M", 1.0 + i, salt=b"x" * 16, wall=1.0))
                assert out.record is not None and out.panel.message is not None

        seconds = best_cpu(run, repeat) / 2_000
        report.figure(f"amount + M on the core, {label}", seconds * 1e6, "us")
        report.zero2(f"amount + M on the core, {label}", seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--fold-only", action="store_true", help="only the fold (runs on the tree before issue 21)")
    args = parser.parse_args()
    report = Report("house rules and game modes (issue 21)")
    report.section("the fold")
    fold(report, args.rows, args.repeat)
    if not args.fold_only:
        report.section("the run loop's tick")
        ticks(report, args.repeat)
        report.section("a payment on the pure core")
        payment(report, args.repeat)
    report.summary()


if __name__ == "__main__":
    main()
