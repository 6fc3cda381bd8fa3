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
from common import Report, median, percentile


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


def copy_steps(path) -> tuple[list[int], int, float]:
    """A whole copy made in steps (store.upkeep), the bytes of each step; and a whole copy made at once (the online
    backup): its bytes and CPU seconds."""
    from store.backups import copy_database

    marks: list[int] = []
    target = path.with_name("steps.db")
    written = common.written_bytes()
    copy_database(path, target, gate=lambda: marks.append(common.written_bytes()))
    ends = marks[1:] + [common.written_bytes()]
    steps = [end - start for start, end in zip(marks, ends)]
    target.unlink()
    written, cpu = common.written_bytes(), time.thread_time()
    copy_database(path, target)
    whole, cpu = common.written_bytes() - written, time.thread_time() - cpu
    target.unlink()
    return steps, whole, cpu


def simulate(policy: str, works: list[float], start_delay: float, rng, card, gap: float, every: float) -> tuple:
    """One backup among payments (first key every ``gap`` s on average, M 0.3 s later, quiet 2 s after it), its
    card work ``works`` (seconds each, in order) made by ``policy``: 'at once' (all at ``start_delay`` after it
    began), 'throttled' (one every ``every`` s), 'quiet' (one after another while quiet, a step begun up to one tick
    after a key). Returns (the waits of the commits made meanwhile behind it, seconds to finish)."""
    began, key, waits, pending, at = rng.uniform(0, gap), 0.0, [], list(works), 0.0
    card.free_at = 0.0
    if policy == "at once":
        card.submit(began + start_delay, sum(pending))
        pending = []
    next_at = began
    while True:
        quiet_from = key + 0.3 + 2.0  # the last payment's M, then two quiet seconds
        key += rng.uniform(gap * 0.5, gap * 1.5)
        if policy == "throttled":
            while pending and next_at < key + 0.3:
                card.submit(next_at, pending.pop(0))
                next_at += every
        elif policy == "quiet":
            at = max(began, quiet_from, card.free_at)
            while pending and at < key + 0.1:
                at = card.submit(at, pending.pop(0))
        done = not pending and card.free_at <= key + 0.3
        if key + 0.3 > began:
            waits.append(max(0.0, card.free_at - (key + 0.3)))
        if done:
            return waits, max(card.free_at, began) - began
        card.submit(key + 0.3, card.fsync())


def flush_policies(report: Report, size: int, sd_mb_s: float, fsync_ms: str, gap: float, runs: int) -> None:
    """What a commit waits for on the card while a whole copy or an incremental backup is made, by policy."""
    import random

    from bench_commit import fsync_model
    from bench_long_game import Card

    seconds, spread = fsync_model(fsync_ms)
    with ledgers.ledger_copy(size, progress=True) as path:
        steps, whole, cpu = copy_steps(path)
    card = Card(seconds, spread, sd_mb_s, random.Random(1))
    report.section(f"flushing a whole copy of a {size:,} ledger ({whole / 1e6:.1f} MB at once, {len(steps)} steps in "
                   f"steps), payments every ~{gap:g} s, fsync {fsync_ms} ms, {sd_mb_s:g} MB/s")
    plans = {"whole": [card.work("whole", whole)], "steps": [card.work("step", b) for b in steps]
             + [card.work("whole", 0)], "incremental": [card.work("incremental", 30_000)]}
    choices = [("whole copy, flushed at once (before)", "at once", "whole", 0.0),
               ("whole copy, steps throttled every 0.25 s", "throttled", "steps", 0.25),
               ("whole copy, steps throttled every 1 s", "throttled", "steps", 1.0),
               ("whole copy, steps only while quiet (chosen)", "quiet", "steps", 0.0),
               ("incremental, at once when due (before)", "at once", "incremental", 0.0),
               ("incremental, begun when quiet (chosen)", "quiet", "incremental", 0.0)]
    for name, policy, plan, every in choices:
        waits, finish = [], []
        for run in range(runs):
            w, f = simulate(policy, plans[plan], common.zero2(cpu) if plan == "whole" else 0.0,
                            random.Random(run), card, gap, every)
            waits += w
            finish.append(f)
        report.figure(f"{name}: a commit's wait p95", percentile(waits, 0.95) * 1000, "ms")
        report.figure(f"{name}: a commit's wait max", max(waits) * 1000, "ms")
        report.figure(f"{name}: done after, median", median(finish), "s")
    report.note("ionice / another I/O class: not in Python's standard library (os has no ioprio_set; only ctypes' "
                "syscall), honoured only by the BFQ scheduler (the Pi's card queue runs mq-deadline or none), and "
                "not measurable here without the card: not chosen")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000", help="ledger sizes, in transactions")
    parser.add_argument("--plays", type=int, default=50, help="transactions between two measured backups")
    parser.add_argument("--trials", type=int, default=3)
    parser.add_argument("--sd-mb-s", type=float, default=10.0, help="an SD card's sustained write speed (MB/s)")
    parser.add_argument("--fsync-ms", default="1-18", help="a card's fsync: a figure (10) or a spread (1-18)")
    parser.add_argument("--gap", type=float, default=12.0, help="seconds between payments, on average")
    parser.add_argument("--runs", type=int, default=300, help="backups simulated per flush policy")
    parser.add_argument("--policy-size", type=int, default=100_000, help="ledger size of the flush policies (0: skip)")
    parser.add_argument("--quick", action="store_true", help="a tiny run: proves the benchmark runs")
    args = parser.parse_args()
    sizes = [200] if args.quick else [int(s) for s in args.sizes.split(",")]
    report = Report(f"bench_backup: bytes written per backup and per new game, tree {common.ROOT}")
    for size in sizes:
        measure(report, size, 5 if args.quick else args.plays, 1 if args.quick else args.trials, args.sd_mb_s)
    if args.policy_size:
        flush_policies(report, 200 if args.quick else args.policy_size, args.sd_mb_s, args.fsync_ms, args.gap,
                       20 if args.quick else args.runs)
    report.summary()


if __name__ == "__main__":
    main()
