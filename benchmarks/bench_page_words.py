"""Benchmark of the table page in the game's language (issue 22): what writing its words costs the page server.

For the demo game (four players, 21 transactions) in each language, CPU
time (``time.process_time``, best of ``--repeat`` runs of ``--times``
calls: this machine is shared) with the Pi Zero 2 estimate (CPU x14 central, x20 pessimistic):

- the state built with no journal entry written yet (``cold``: a page
  server's first state, or the first after a language change: each entry's
  sentence, its spoken words and each balance in words are written), and
  with them kept from the state before (``warm``: every commit after);
- its weight, the JSON the page receives;
- an auction's live view put in the game's language (each second of an
  auction), when this tree has :func:`web.view.live_view`.

Run from another tree (a copy of this file in its ``benchmarks/``) to
compare: ``results-issue22-page.txt`` holds the figures before and after.

    python benchmarks/bench_page_words.py [--times 200] [--repeat 5]
"""

from __future__ import annotations

import argparse
import json

from common import best_cpu, zero2

from banker.text.i18n import LANGUAGES, Text
from banker.journal.records import Setting
from runtime.ledger import SqliteLedger
from web import view
from web.demo import play_demo


def measure(code: str, times: int, repeat: int) -> dict:
    with SqliteLedger(":memory:") as ledger:
        play_demo(ledger)
        ledger.commit(Setting("language", code))
        game = ledger.game()
        journal = [tx for tx in ledger.transactions() if tx.game == game.id]
    history = view.WorthHistory.of(game, journal)

    def cold():
        for _ in range(times):
            view.state(game, journal, history, seq=1, entries=view.EntryCache())

    kept = view.EntryCache()
    view.state(game, journal, history, seq=1, entries=kept)

    def warm():
        for _ in range(times):
            view.state(game, journal, history, seq=1, entries=kept)

    body = json.dumps(view.state(game, journal, history, seq=1), separators=(",", ":"), ensure_ascii=False)
    figures = {"language": code, "transactions": len(journal), "state_bytes": len(body.encode())}
    runs = {"state_cold": cold, "state_warm": warm}
    live_view = getattr(view, "live_view", None)
    if live_view is not None:
        sold = {"kind": "auction", "state": "sold", "lot": "Boardwalk", "bidder": "Bob", "high": 1_500_000,
                "high_text": "1.5M", "seconds": 0, "call": None, "text": Text("Sold to {name} for {amount}",
                                                                              {"name": "Bob", "amount": "1.5M"})}

        def live():
            for _ in range(times):
                live_view(sold, game)

        runs["live_view"] = live
    for name, run in runs.items():
        cpu = best_cpu(run, repeat) / times
        figures[f"{name}_us"] = round(cpu * 1e6, 1)
        figures[f"{name}_zero2_ms"] = round(zero2(cpu) * 1e3, 2)
        figures[f"{name}_zero2_pessimistic_ms"] = round(zero2(cpu, 20) * 1e3, 2)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--times", type=int, default=200, help="calls per run")
    parser.add_argument("--repeat", type=int, default=5, help="runs (the least CPU time is the figure)")
    args = parser.parse_args()
    for code in LANGUAGES:
        print(json.dumps(measure(code, args.times, args.repeat)))


if __name__ == "__main__":
    main()
