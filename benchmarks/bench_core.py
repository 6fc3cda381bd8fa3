"""Benchmark of the core: events through the unit drawn on the Pi's display path, and durable commits to the ledger.

Events (cards placed and taken away, amounts typed and cleared: no commit
among them) go through the one Shell, which draws each changed screen with
the Pi's own display driver (drivers.display.OledDisplay: luma's device,
the frame conversion and the partial update) on a recording I2C bus
(firmware_sim.display_sim.OledChip). Per event: wall and CPU time
(``time.process_time``), and the Pi Zero 2 estimate (CPU x14 central and x20 pessimistic,
benchmarks/common.py). Commits: durable commits per second to a file on
this disk (real fsync) and the bytes passed to write() per transaction.

Targets on the 2-core dev machine: p95 per event <= 1 ms; >= 2,000 events/s;
<= 16 KB written per committed transaction (issue 11 asks <= 6 KB: see
bench_scale.py's bytes figure).

    python benchmarks/bench_core.py [--events 20000] [--commits 500]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import common
from common import Report, median, percentile

from banker.unit.events import CardPlaced, CardRemoved, KeyDown, KeyUp


def typing_events(n: int):
    """Cards placed and taken away, amounts typed and cleared: no commit among them."""
    t = 0.0
    cycle = [("place", "left", "A1"), ("place", "right", "B2")] + [("key", k) for k in "1.2345"] + [("key", "C")]
    cycle += [("remove", "right"), ("remove", "left")]
    made = 0
    while True:
        for item in cycle:
            t += 0.01
            if item[0] == "place":
                events = [CardPlaced(item[1], item[2], t)]
            elif item[0] == "remove":
                events = [CardRemoved(item[1], t)]
            else:
                events = [KeyDown(item[1], t), KeyUp(item[1], t + 0.01)]
                t += 0.01
            for event in events:
                if made == n:
                    return
                made += 1
                yield event


def bench_events(report: Report, n: int) -> None:
    from runtime.ledger import open_ledger
    from runtime.shell import Shell

    report.section(f"{n:,} events through the Shell, drawn on the Pi's display path (no commit)")
    with open_ledger(":memory:") as ledger:
        ledger.enrol("Alice", "A1")
        ledger.enrol("Bob", "B2")
        display, bus = common.pi_display()
        unit = Shell(ledger, display=display, sleep_after=1e9)
        walls, cpus = [], []
        start, cpu_start = time.perf_counter(), time.process_time()
        for event in typing_events(n):
            w0, c0 = time.perf_counter(), time.process_time()
            unit.handle(event)
            walls.append(time.perf_counter() - w0)
            cpus.append(time.process_time() - c0)
        elapsed, cpu_total = time.perf_counter() - start, time.process_time() - cpu_start
        frames = bus.reset_counters()
        display.close()
    ms = 1000.0
    report.figure("events", len(walls), "")
    report.figure("events/s with the frame drawn", len(walls) / elapsed, "/s", target=2000, at_most=False)
    report.figure("per event, wall p50", median(walls) * ms, "ms", digits=4)
    report.figure("per event, wall p95", percentile(walls, 0.95) * ms, "ms", target=1.0, digits=4)
    report.figure("per event, CPU mean", cpu_total / len(walls) * ms, "ms", digits=4)
    report.figure("per event, CPU p95", percentile(cpus, 0.95) * ms, "ms", digits=4)
    report.zero2("per event, CPU mean", cpu_total / len(walls))
    report.zero2("per event, CPU p95", percentile(cpus, 0.95))
    report.figure("I2C bytes per event (partial frames)", frames.wire_bytes / len(walls), "bytes")


def bench_commits(report: Report, n: int) -> None:
    from banker.journal.records import BANK, Posting, Transaction
    from runtime.ledger import open_ledger

    report.section(f"{n:,} durable commits to a ledger file (real fsync here, backups on)")
    with tempfile.TemporaryDirectory() as folder:
        with open_ledger(Path(folder) / "ledger.db") as ledger:
            a, b = ledger.enrol("Alice", "A1"), ledger.enrol("Bob", "B2")
            for _ in range(20):  # warm up: the file and the WAL exist
                ledger.post(Transaction("collect", (Posting(BANK, a.id, 1, "collect"),)))
            written0 = common.written_bytes()
            start, cpu0 = time.perf_counter(), time.process_time()
            for i in range(n):
                payer, payee = (a.id, b.id) if i % 2 else (b.id, a.id)
                ledger.post(Transaction("transfer", (Posting(payer, payee, 1_000 + i, "transfer"),), "bench"))
            elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu0
            written = common.written_bytes() - written0
            ledger.check()
    report.figure("durable commits/s", n / elapsed, "/s")
    report.figure("CPU per commit", cpu / n * 1000, "ms")
    report.zero2("CPU per commit (fsync not included)", cpu / n)
    report.figure("bytes written per transaction", written / n, "bytes", target=16 * 1024)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=20_000)
    parser.add_argument("--commits", type=int, default=500)
    parser.add_argument("--quick", action="store_true", help="a few hundred events and commits: proves it runs")
    args = parser.parse_args()
    if args.quick:
        args.events, args.commits = 300, 30
    report = Report(f"bench_core: the unit's events and commits, tree {common.ROOT}")
    bench_events(report, args.events)
    bench_commits(report, args.commits)
    report.summary()


if __name__ == "__main__":
    main()
