"""Benchmark of a long game: amount + ``M`` to "Paid", every WAL checkpoint, backup and garbage collection counted.

A fresh unit (no backups yet) plays ``--hours`` of simulated time on a ``--size``-payment ledger, a payment every
``--gap`` seconds on average (drawn from half to one and a half times it), the old way and the new way in one run:

- OLD: SQLite's automatic checkpoint (every 1,000 WAL pages, inside the commit that reaches them); backups begin
  at the first clock tick they are due, whatever the table does; the first :data:`store.KEEP` are whole copies by
  SQLite's online backup, flushed at once at their end.
- NEW (store/upkeep.py): no checkpoint in a commit, PASSIVE ones from the upkeep once the unit is quiet (or past
  the ceiling); backups begin once quiet; whole copies made in steps, each flushed, a step only while quiet.

Each payment is bench_commit's trial (the real keypad driver on the simulated matrix, the one Shell, the real
display driver over a 400 kHz bus, the garbage collector as the run loop keeps it: runtime.collector), on the
simulated clock. What is modelled is the SD card: one queue that every durable write goes through in the order
the unit makes them, each fsync drawn from ``--fsync-ms`` (a card's published spread), the bytes at ``--sd-mb-s``.
A commit waits for what is ahead of it on the card (a backup's flush, a checkpoint), then its own fsync. The bytes
and the steps are the real ones (the process's ``wchar``); the fsyncs per operation are SQLite's: a commit 1, a
checkpoint 2 (the log, the ledger), an incremental backup 5 (the issue's count: journal, header, file, folder), a
whole copy 2 (the file, its folder), a step of one 1. Backups run on this thread between two key presses and their
CPU is kept out of the key's; their card time is placed where the unit would make it (OLD: an incremental one when
begun, a whole copy's flush once its copy's CPU at x14 has passed; NEW: step by step from the quiet tick, a step
begun up to one tick after a key still finishing in the key's way).

The key's time: keypad scan + debounce (simulated) + the unit's CPU (``thread_time``; here, x14, x20) + its wait
on the card + the frame's time on the bus. Figures: p50, p95, p100 of every payment of the game, and the verdicts
(issue 33): p100 <= 100 ms at x14; Paid p95 <= 30 ms at x14 (the CPU side is other work's; reported here).

    python benchmarks/bench_long_game.py [--hours 4] [--gap 12] [--size 100000] [--fsync-ms 1-18] [--sd-mb-s 10]
"""

from __future__ import annotations

import argparse
import gc
import random
import time
from dataclasses import dataclass, field

import common
import ledgers
from bench_commit import TICK_SECONDS, Unit, fsync_model, trial
from common import Report, median, percentile, zero2
from store.upkeep import wal_frames

TARGET_P100_MS = 100.0
TARGET_P95_MS = 30.0
TYPING = 0.3  # seconds from the first key of a payment to its M, about (the trial's three taps)
IDLE_AFTER = 2.0  # store.upkeep.IDLE_AFTER: quiet from here
FSYNCS = {"commit": 1, "checkpoint": 2, "incremental": 5, "whole": 2, "step": 1}


@dataclass
class Card:
    """The SD card: one queue of work in simulated seconds; each fsync drawn from the card's spread."""

    seconds: float
    spread: tuple[float, float] | None
    mb_s: float
    rng: random.Random
    free_at: float = 0.0
    busy: dict[str, float] = field(default_factory=dict)  # card seconds by kind of work

    def fsync(self) -> float:
        if self.spread is None:
            return self.seconds
        low, high = self.spread
        if self.rng.random() < 0.75:
            return self.rng.uniform(low, low + (high - low) * 0.2)
        return self.rng.uniform(low + (high - low) * 0.2, high)

    def work(self, kind: str, written: int, fsyncs: int | None = None) -> float:
        seconds = written / (self.mb_s * 1e6) + sum(self.fsync() for _ in range(FSYNCS[kind] if fsyncs is None
                                                                                   else fsyncs))
        self.busy[kind] = self.busy.get(kind, 0.0) + seconds
        return seconds

    def submit(self, at: float, seconds: float) -> float:
        """Queue ``seconds`` of work at ``at``: when it is done."""
        self.free_at = max(at, self.free_at) + seconds
        return self.free_at


class Game:
    """One mode's game on one ledger: the store's writes routed through the card model."""

    def __init__(self, ledger, unit: Unit, card: Card, new: bool) -> None:
        self.ledger, self.unit, self.card, self.new = ledger, unit, card, new
        self.store = store = ledger.store
        self.pending: list[float] = []  # NEW: card seconds of the steps of a whole copy not yet made
        self.commit_card = 0.0  # the card time (wait + own) of the commits in the trial under way
        self.background_cpu = 0.0
        self.trial_commits = 0
        self.counts = {"commits": 0, "auto checkpoints (in a commit)": 0, "checkpoints from the upkeep": 0,
                       "whole copies": 0, "incremental backups": 0, "steps of whole copies": 0}
        store.backups.clock = unit.hw.clock  # the interval on the game's clock
        store.backups.last = unit.hw.clock()
        store.backups.start = self.backup  # made here, on this thread, its card time placed by the model
        real_append = store.append

        def append(record):
            at, written, frames = unit.hw.clock(), common.written_bytes(), wal_frames(store.path) or 0
            done = real_append(record)
            written = common.written_bytes() - written
            self.counts["commits"] += 1
            self.trial_commits += 1
            seconds = self.card.work("commit", written)
            if (wal_frames(store.path) or 0) < frames:  # the log folded into the ledger inside this commit
                self.counts["auto checkpoints (in a commit)"] += 1
                seconds += self.card.work("checkpoint", 0)
            self.commit_card += self.card.submit(at, seconds) - at
            return done

        store.append = append
        if new:
            real_checkpoint = store.wal.checkpoint

            def checkpoint(why):
                written = common.written_bytes()
                found = real_checkpoint(why)
                self.counts["checkpoints from the upkeep"] += 1
                self.card.submit(unit.hw.clock(), self.card.work("checkpoint", common.written_bytes() - written))
                return found

            store.wal.checkpoint = checkpoint
        else:
            store.wal = None
            store._conn.execute("PRAGMA wal_autocheckpoint=1000")  # SQLite's default, as before
            ledger.note_quiet = lambda seconds: None  # as before: no word of quiet, every tick alike
            ledger._quiet_for = None
            store.quiet.watched = False  # so backups begin when due, a snapshot when due, copies never wait
            store.backups.gate = None

    def backup(self, reason: str, seq: int | None = None, after=None) -> bool:
        """In place of Backups.start: the backup made now, its CPU kept apart, its card work queued or pending."""
        from store.backups import is_kept_copy, list_backups
        from store import KEEP

        backups = self.store.backups
        backups.last, backups.seq = backups.clock(), seq
        whole = len([b for b in list_backups(self.store.path) if not is_kept_copy(b)]) < KEEP
        marks: list[int] = []
        if self.new:
            backups.gate = lambda: marks.append(common.written_bytes())
        cpu, written = time.thread_time(), common.written_bytes()
        backups.take(reason)
        written, cpu = common.written_bytes() - written, time.thread_time() - cpu
        self.background_cpu += cpu
        now = self.unit.hw.clock()
        if whole and self.new and marks:
            self.counts["whole copies"] += 1
            ends = marks[1:] + [marks[0] + written]
            self.counts["steps of whole copies"] += len(marks)
            self.pending += [self.card.work("step", end - start) for start, end in zip(marks, ends)]
            self.pending.append(self.card.work("whole", 0))
        else:
            self.counts["whole copies" if whole else "incremental backups"] += 1  # a whole copy flushed at its end
            self.card.submit(now + (zero2(cpu) if whole else 0.0),
                             self.card.work("whole" if whole else "incremental", written))
        if after is not None:
            after()
        return True

    def quiet_window(self, start: float, end: float) -> None:
        """NEW: the pending steps made from ``start`` while the unit is quiet (a step may begin until the tick after
        the key at ``end``)."""
        at = max(start, self.card.free_at)
        while self.pending and at < end + TICK_SECONDS:
            at = self.card.submit(at, self.pending.pop(0))


def play(report: Report, path, args, new: bool) -> list[dict]:
    from banker.unit.events import Tick
    from runtime.collector import Collector
    from runtime.ledger import open_ledger

    rng = random.Random(args.seed)
    seconds, spread = fsync_model(args.fsync_ms)
    card = Card(seconds, spread, args.sd_mb_s, random.Random(args.seed))

    class NoSleep:  # trial()'s fsync argument: the card model does the waiting here
        appends, seconds, slept = 0, 0.0, 0.0

    pauses: list[tuple[int, float]] = []  # (generation, CPU seconds) of each collection inside a payment
    began = [0.0]
    in_trial = [False]

    def collected(phase: str, info: dict) -> None:
        if phase == "start":
            began[0] = time.thread_time()
        elif in_trial[0]:
            pauses.append((info["generation"], time.thread_time() - began[0]))

    gc.callbacks.append(collected)
    with open_ledger(path) as ledger:
        unit = Unit(ledger)
        game = Game(ledger, unit, card, new)
        unit.shell.collector = Collector(clock=unit.hw.clock)
        unit.shell.collector.start()
        results = []
        try:
            trial(unit, NoSleep, rng)  # warm up, as bench_commit does: the first payment's lazy imports not counted
            payments = int(args.hours * 3600 / args.gap)
            for i in range(payments):
                game.commit_card, game.background_cpu, game.trial_commits = 0.0, 0.0, 0
                first_key = unit.hw.clock()
                if new:
                    game.quiet_window(game.quiet_from, first_key) if i else None
                in_trial[0] = True
                r = trial(unit, NoSleep, rng)
                in_trial[0] = False
                r["cpu"] -= game.background_cpu
                r["card"], r["commits"] = game.commit_card, game.trial_commits
                results.append(r)
                gap, paid = rng.uniform(args.gap * 0.5, args.gap * 1.5), unit.hw.clock()
                game.quiet_from = paid + IDLE_AFTER  # from the first tick the unit is quiet at
                for _ in range(int(gap - TYPING)):  # the clock's ticks meanwhile, one a second: the upkeep's moments
                    unit.hw.clock.advance(1.0)
                    unit.shell.handle(Tick(unit.hw.clock()))
                unit.hw.clock.advance(max(0.0, paid + gap - TYPING - unit.hw.clock()))
        finally:
            unit.close()
            gc.callbacks.remove(collected)
        error = ledger.backup_error
    label = "NEW" if new else "OLD"
    report.section(f"{label}: {len(results)} payments over {args.hours:g} simulated hours, fsync "
                   f"{args.fsync_ms} ms, {args.sd_mb_s:g} MB/s")
    for name, count in game.counts.items():
        report.figure(f"{label} {name}", count, "", digits=0)
    for kind, busy in sorted(card.busy.items()):
        report.figure(f"{label} card time: {kind}", busy, "s")
    report.figure(f"{label} a commit's wait on the card (its own fsync in): max",
                  max(r["card"] for r in results) * 1000, "ms")
    worst = max(results, key=lambda r: r["wait"] + zero2(r["scans"] + r["cpu"]) + r["card"] + r["i2c"])
    report.note(f"{label} the slowest payment at x14 (number {results.index(worst) + 1}): CPU here {(worst['scans'] + worst['cpu']) * 1000:.2f} ms, card "
                f"{worst['card'] * 1000:.2f} ms, {worst['commits']} commit(s) in it")
    for generation in (0, 1, 2):
        times = [p for g, p in pauses if g == generation]
        report.note(f"{label} collections of generation {generation} inside a payment: {len(times)}, the longest "
                    f"{max(times, default=0.0) * 1000:.2f} ms here")
    if error:
        report.note(f"backup error: {error}")
    return results


def latencies(results: list[dict], factor: float | None) -> list[float]:
    scale = (lambda s: s) if factor is None else (lambda s: zero2(s, factor))
    return [r["wait"] + scale(r["scans"] + r["cpu"]) + r["card"] + r["i2c"] for r in results]


def verdicts(report: Report, label: str, results: list[dict]) -> None:
    ms = 1000.0
    here = latencies(results, None)
    report.section(f"{label}: amount + M to 'Paid', every checkpoint, backup and collection counted")
    for name, pick in (("p50", median), ("p95", lambda v: percentile(v, 0.95)), ("p100", max)):
        report.figure(f"{label} here: {name}", pick(here) * ms, "ms")
    for _name, factor in common.ZERO2_FACTORS:
        values = latencies(results, factor)
        central = factor == common.ZERO2_CPU_FACTOR
        report.figure(f"{label} {common.zero2_label(factor)}: p50", median(values) * ms, "ms")
        report.figure(f"{label} {common.zero2_label(factor)}: p95", percentile(values, 0.95) * ms, "ms",
                      target=TARGET_P95_MS if central else None)
        report.figure(f"{label} {common.zero2_label(factor)}: p100", max(values) * ms, "ms",
                      target=TARGET_P100_MS if central else None)
        report.figure(f"{label} {common.zero2_label(factor)}: p100 less the CPU (the card's share)",
                      max(r["wait"] + r["card"] + r["i2c"] for r in results) * ms, "ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hours", type=float, default=4.0, help="simulated hours of play")
    parser.add_argument("--gap", type=float, default=12.0, help="seconds between payments, on average")
    parser.add_argument("--size", type=int, default=100_000, help="payments already in the ledger")
    parser.add_argument("--fsync-ms", default="1-18", help="a card's fsync: a figure (10) or a spread (1-18)")
    parser.add_argument("--sd-mb-s", type=float, default=10.0, help="the card's sustained write speed (MB/s)")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="a tiny run: proves the benchmark runs")
    args = parser.parse_args()
    if args.quick:
        args.hours, args.size = 0.1, 500
    report = Report(f"bench_long_game: a long game's key-to-Paid, checkpoints and backups counted, tree {common.ROOT}")
    report.note(f"ledger of {args.size:,} payments; a fresh unit (no backups yet); a payment every ~{args.gap:g} s")
    runs = {}
    for new in (False, True):
        with ledgers.ledger_copy(args.size, progress=True) as path:
            runs["NEW" if new else "OLD"] = play(report, path, args, new)
    for label, results in runs.items():
        verdicts(report, label, results)
    report.summary()


if __name__ == "__main__":
    main()
