"""Benchmark of the core: events through the unit with rendering, and durable commits to the ledger.

Prints one JSON object. Targets on the 2-core dev machine: p95 per event
(state machine + render, no commit) <= 1 ms; >= 2,000 events/s with
rendering; <= 16 KB written to disk per committed transaction.

    python benchmarks/bench_core.py [--events 20000] [--commits 500]
"""

from runtime.shell import Shell
from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

from banker.events import CardPlaced, CardRemoved, KeyDown, KeyUp
from banker.records import BANK, Posting, Transaction
from runtime.ledger import SqliteLedger
from render import render_image


def typing_events(n: int):
    """Cards placed and taken away, amounts typed and cleared: no commit among them."""
    t = 0.0
    cycle = [("place", "left", "A1"), ("place", "right", "B2")] + [("key", k) for k in "1.2345"] + [("key", "C")]
    cycle += [("remove", "right"), ("remove", "left")]
    i = 0
    while i < n:
        for item in cycle:
            t += 0.01
            if item[0] == "place":
                yield CardPlaced(item[1], item[2], t)
            elif item[0] == "remove":
                yield CardRemoved(item[1], t)
            else:
                yield KeyDown(item[1], t)
                t += 0.01
                yield KeyUp(item[1], t)
            i += 1


def bench_events(n: int) -> dict:
    ledger = SqliteLedger(":memory:")
    ledger.enrol("Alice", "A1")
    ledger.enrol("Bob", "B2")
    unit = Shell(ledger, sleep_after=1e9)
    times = []
    start = time.perf_counter()
    for event in typing_events(n):
        t0 = time.perf_counter_ns()
        unit.handle(event)
        render_image(unit.screen)
        times.append(time.perf_counter_ns() - t0)
    elapsed = time.perf_counter() - start
    times.sort()
    return {
        "events": len(times),
        "events_per_second_with_render": round(len(times) / elapsed),
        "p50_ms_per_event": round(times[len(times) // 2] / 1e6, 4),
        "p95_ms_per_event": round(times[int(len(times) * 0.95)] / 1e6, 4),
        "mean_ms_per_event": round(statistics.fmean(times) / 1e6, 4),
    }


def _written_bytes() -> tuple[int, int]:
    """(bytes passed to write(), bytes sent to the storage layer) by this process so far."""
    fields = dict(line.split(": ") for line in Path("/proc/self/io").read_text().splitlines())
    return int(fields["wchar"]), int(fields["write_bytes"])


def bench_commits(n: int) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        ledger = SqliteLedger(Path(folder) / "ledger.db")
        a, b = ledger.enrol("Alice", "A1"), ledger.enrol("Bob", "B2")
        for _ in range(20):  # warm up: the file and the WAL exist
            ledger.post(Transaction("collect", (Posting(BANK, a.id, 1, "collect"),)))
        wchar0, disk0 = _written_bytes()
        start = time.perf_counter()
        for i in range(n):
            payer, payee = (a.id, b.id) if i % 2 else (b.id, a.id)
            ledger.post(Transaction("transfer", (Posting(payer, payee, 1_000 + i, "transfer"),), "bench"))
        elapsed = time.perf_counter() - start
        wchar1, disk1 = _written_bytes()
        ledger.check()
        ledger.close()
    return {
        "commits": n,
        "durable_commits_per_second": round(n / elapsed, 1),
        "bytes_written_per_transaction": round((wchar1 - wchar0) / n),
        "bytes_to_disk_per_transaction": round((disk1 - disk0) / n),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=20_000)
    parser.add_argument("--commits", type=int, default=500)
    args = parser.parse_args()
    result = {**bench_events(args.events), **bench_commits(args.commits)}
    result["targets_met"] = {
        "p95_le_1ms": result["p95_ms_per_event"] <= 1.0,
        "events_per_second_ge_2000": result["events_per_second_with_render"] >= 2000,
        "bytes_per_transaction_le_16KB": result["bytes_written_per_transaction"] <= 16 * 1024,
    }
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
