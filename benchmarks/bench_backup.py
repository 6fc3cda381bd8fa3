"""Benchmark of backups: the bytes one backup writes, and a new game with its backup, at 1k, 10k and 100k transactions.

For each ledger size a private copy of the cached ledger (benchmarks/ledgers.py) is opened as the unit opens it
(a writer, backups on). First the backup folder is filled as in a unit's first minutes: :data:`store.backups.KEEP`
backups, a few transactions apart ("the first backups"). Then, steady state: ``--plays`` transactions (a few
minutes of play), then one interval backup, ``--trials`` times ("per backup"). Then a new game: its record, the
shell's upkeep and the backup it starts ("per new game"). Bytes are the process's own count of bytes passed to
write() (``wchar`` of /proc/self/io, the backup thread's included), beside the ledger file's size, and their time
at an SD card's sustained write speed (``--sd-mb-s``). The CPU time of one backup is printed at a Pi Zero 2's
speed too (it runs on its own thread, off the commit path).

    python benchmarks/bench_backup.py [--sizes 1000,10000,100000] [--plays 50] [--trials 3] [--sd-mb-s 10]
"""

from __future__ import annotations

import argparse
import time

import common
import ledgers
from common import Report, median


def post(ledger, count: int, start: int) -> int:
    ids = [card.id for card in ledger.game().cards]
    for i in range(count):
        ledger.post(ledgers.transfer(start + i, ids))
    return start + count


def backup_bytes(ledger) -> tuple[int, float]:
    """One interval backup made now, on this thread: (bytes written, CPU seconds)."""
    written, cpu = common.written_bytes(), time.process_time()
    ledger.store.backups.take("interval")
    return common.written_bytes() - written, time.process_time() - cpu


def measure(report: Report, size: int, plays: int, trials: int, sd_mb_s: float) -> None:
    from runtime.ledger import open_ledger
    from store.backups import KEEP

    with ledgers.ledger_copy(size, progress=True) as path:
        ledger_bytes = path.stat().st_size
        report.section(f"ledger of {size:,} transactions ({ledger_bytes / 1e6:.2f} MB)")
        with open_ledger(path) as ledger:
            done = 0
            first = []
            for _ in range(KEEP):
                done = post(ledger, 5, done)
                first.append(backup_bytes(ledger)[0])
            steady, cpus = [], []
            for _ in range(trials):
                done = post(ledger, plays, done)
                written, cpu = backup_bytes(ledger)
                steady.append(written)
                cpus.append(cpu)
            written = common.written_bytes()
            ledger.new_game()
            ledger.maintain()
            ledger.store.backups.wait()
            new_game = common.written_bytes() - written
            error = ledger.backup_error
    report.figure(f"the first {KEEP} backups (filling the folder): bytes each, median", median(first), "bytes")
    report.figure(f"per backup after {plays} transactions: bytes, median", median(steady), "bytes")
    report.figure("  as a share of the ledger file", 100 * median(steady) / ledger_bytes, "%")
    report.figure(f"  at an SD card's {sd_mb_s:g} MB/s", median(steady) / (sd_mb_s * 1e6) * 1000, "ms")
    report.zero2("CPU of that backup (its own thread)", median(cpus))
    report.figure("per new game (its record, upkeep, its backup): bytes", new_game, "bytes")
    report.figure("  as a share of the ledger file", 100 * new_game / ledger_bytes, "%")
    if error:
        report.note(f"backup error: {error}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000", help="ledger sizes, in transactions")
    parser.add_argument("--plays", type=int, default=50, help="transactions between two measured backups")
    parser.add_argument("--trials", type=int, default=3)
    parser.add_argument("--sd-mb-s", type=float, default=10.0, help="an SD card's sustained write speed (MB/s)")
    parser.add_argument("--quick", action="store_true", help="a tiny run: proves the benchmark runs")
    args = parser.parse_args()
    sizes = [200] if args.quick else [int(s) for s in args.sizes.split(",")]
    report = Report(f"bench_backup: bytes written per backup and per new game, tree {common.ROOT}")
    for size in sizes:
        measure(report, size, 5 if args.quick else args.plays, 1 if args.quick else args.trials, args.sd_mb_s)
    report.summary()


if __name__ == "__main__":
    main()
