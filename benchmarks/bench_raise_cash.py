"""Benchmark of raising cash (issue 20, item 3): a short payment's refusal, the plan, and the raise-cash screen.

CPU time (``time.process_time``, best of ``--repeat`` runs: this machine is
shared) with the Pi Zero 2 estimate (CPU x14 central, x20 pessimistic):

- amount + ``M`` refused for a shortfall on the pure core (step and fold,
  no store): the refusal now keeps the payment and offers ``0``; this figure
  runs on the tree before issue 20 too (``--refusal-only``);
- :func:`banker.rules.raising.raising_plan` on the largest estate (every
  deed, every building of the bank: 12 hotels, 32 houses; each step worked
  out by the rules);
- the raise-cash screen over that estate (drawn after each step: the plan
  and a trial fold of the payment), with a target of 50 ms on a Pi Zero 2,
  well under a key's feel.

    python benchmarks/bench_raise_cash.py [--repeat 5] [--refusal-only]
"""

from __future__ import annotations

import argparse

from common import Report, best_cpu, four_players

from banker.unit.events import CardPlaced, KeyDown
from banker.fold.game import apply
from banker.unit.panel import Panel
from banker.journal.records import BANK, HousesChange, OwnerChange, Posting, Transaction
from banker.unit.step import step
from cards import load_edition

EDITIONS = {"us": load_edition("us")}


def refusal(report: Report, repeat: int) -> None:
    game = four_players()
    panel = step(Panel(), game, CardPlaced("right", "A0", 0.0)).panel
    for key in "20":
        panel = step(panel, game, KeyDown(key, 0.1)).panel

    def run() -> None:
        for i in range(2_000):
            out = step(panel, game, KeyDown("M", 1.0 + i, salt=b"x" * 16, wall=1.0))
            assert out.record is None and out.panel.mode is not None or out.panel.message is not None

    seconds = best_cpu(run, repeat) / 2_000
    report.figure("amount + M refused (short) on the core", seconds * 1e6, "us")
    report.zero2("amount + M refused (short) on the core", seconds)


def _alice_owns_the_board():
    """Alice owns every deed: the bank's 12 hotels and 32 houses on her streets (hotels first, 4 houses a lot)."""
    game = four_players()
    alice = game.card_by_name("Alice").id
    streets = [d for d in game.edition.deeds if d.is_street]
    changes = tuple(OwnerChange(d.slug, None, alice) for d in game.edition.deeds)
    changes += tuple(HousesChange(d.slug, 0, 5 if i < 12 else 4) for i, d in enumerate(streets[:20]))
    cost = 15_000_000 - 500_000
    return apply(game, game.numbered(Transaction("setup", (Posting(alice, BANK, cost, "x"),), "x",
                                                 changes=changes))), alice


def plan_and_screen(report: Report, repeat: int) -> None:
    from banker.unit.flows.raise_cash import RaiseCash
    from banker.unit.modes.base import Ctx, Shortfall
    from banker.rules.raising import raising_plan

    game, alice = _alice_owns_the_board()
    plan = raising_plan(game, player=alice, shortfall=50_000_000)
    report.note(f"the plan: {len(plan.steps)} steps, {plan.total:,} raised in all")
    seconds = best_cpu(lambda: [raising_plan(game, player=alice, shortfall=50_000_000) for _ in range(20)], repeat) / 20
    report.figure("raising_plan, every deed and building", seconds * 1e3, "ms")
    report.zero2("raising_plan, every deed and building", seconds)
    card = game.card_by_name("Alice")
    record = game.numbered(Transaction("pay", (Posting(alice, BANK, 30_000_000, "pay"),), "Alice paid bank"))
    flow = RaiseCash(Shortfall(record, lambda after: None, card, 29_500_000))
    ctx = Ctx(Panel(), game)
    seconds = best_cpu(lambda: [flow.screen(ctx) for _ in range(20)], repeat) / 20
    report.figure("the raise-cash screen, every deed and building", seconds * 1e3, "ms")
    report.zero2("the raise-cash screen, every deed and building", seconds, target_ms=50)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--refusal-only", action="store_true", help="only the refusal (runs on the tree before)")
    args = parser.parse_args()
    report = Report("raising cash (issue 20, item 3)")
    report.section("a short payment's refusal on the pure core")
    refusal(report, args.repeat)
    if not args.refusal_only:
        report.section("the plan and its screen")
        plan_and_screen(report, args.repeat)
    report.summary()


if __name__ == "__main__":
    main()
