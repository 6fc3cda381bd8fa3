"""Garbage-collection pauses over a long game: every collection timed, those behind a key apart (issue 33).

A unit on a big ledger (``--size``, 5,000 payments by default, opened as the
unit opens it: writer, backups on) plays ``--payments`` payments through the
``core`` backend's shell (cards on, an amount, ``K``, cards off), ``--every``
simulated seconds apart with the clock ticking between (the shell's upkeep
runs on each tick, as on the unit). Every collection CPython runs is timed
with ``gc.callbacks``; a collection that ran inside the runtime's idle
:class:`runtime.collector.Collector` is idle, every other one ran in
whatever was being handled, a key's path included.

Two modes, the same game each: ``default`` (CPython's collector as it comes,
the unit before issue 33) and ``collector`` (the unit's policy: the start-up
heap frozen, full collections only after 2 s idle, a minute apart). Printed:
the collections of each generation, the longest pause on a key's path and
the longest anywhere (the p100), here and at a Pi Zero 2 (CPU x14, x20;
a collection is all CPU), the CPU per payment, and what a full collection
of the frozen heap finds after the game (cycles that freezing would leak).

    python benchmarks/bench_gc.py [--size 5000] [--payments 1200] [--every 12] [--quick]

1,200 payments 12 s apart is a 4-hour game at a payment every 12 s.
"""

from __future__ import annotations

import argparse
import gc
import time

import common
import ledgers
from common import Report


def play(path, payments: int, every: float, *, policy: bool) -> dict:
    """The game on a copy of the ledger at ``path``; the collections' pauses, by where they ran."""
    from runtime.collector import Collector
    from runtime.ledger import open_ledger
    from runtime.script_shell import CoreBackend

    pauses: list[tuple[int, float, bool]] = []  # (generation, seconds, idle)
    state = {"start": 0.0, "idle": False}

    def timed(phase: str, info: dict) -> None:  # the collection's CPU (a preempted one is not longer on a Pi)
        if phase == "start":
            state["start"] = time.thread_time()
        else:
            pauses.append((info["generation"], time.thread_time() - state["start"], state["idle"]))

    with open_ledger(path) as ledger:
        unit = CoreBackend(ledger, sleep_after=1e9)
        collector = None
        if policy:
            collector = Collector(clock=unit.hands.clock)
            real = collector._collect

            def idle_collect() -> None:
                state["idle"] = True
                try:
                    real()
                finally:
                    state["idle"] = False

            collector._collect = idle_collect
            unit.shell.collector = collector
            collector.start()
        gc.callbacks.append(timed)
        cpu0 = time.process_time()
        try:
            for i in range(payments):
                payer, payee = ("Alice", "Bob") if i % 2 else ("Bob", "Alice")
                unit.insert("left", payee)
                unit.insert("right", payer)
                for key in ("1", "0", "K"):
                    unit.press(key)
                unit.remove("left")
                unit.remove("right")
                unit.wait(every)
            cpu = time.process_time() - cpu0
        finally:
            gc.callbacks.remove(timed)
        start = time.thread_time()
        gc.collect()  # what a full collection costs at the end of the game: all of it, or (frozen) what is new
        full = time.thread_time() - start
        leaked = 0
        if policy:
            gc.unfreeze()
            leaked = gc.collect()
    return {"pauses": pauses, "cpu": cpu, "leaked": leaked, "full": full, "objects": len(gc.get_objects())}


def report_mode(report: Report, name: str, result: dict, payments: int) -> None:
    pauses = result["pauses"]
    report.section(f"{name}: {payments:,} payments")
    for generation in (0, 1, 2):
        times = [p for g, p, _ in pauses if g == generation]
        report.note(f"generation {generation}: {len(times):5d} collections, longest {max(times, default=0) * 1e3:7.2f} ms"
                    f" here")
    on_path = [p for _, p, idle in pauses if not idle]
    anywhere = [p for _, p, _ in pauses]
    report.figure("longest collection on a key's path here", max(on_path, default=0) * 1e3, "ms")
    report.zero2("longest collection on a key's path", max(on_path, default=0), target_ms=20.0)
    report.zero2("longest collection anywhere (p100)", max(anywhere, default=0))
    report.zero2("a full collection at the game's end (not frozen: the whole heap)" if name == "default" else
                 "a full collection at the game's end (what is new since the last freeze)", result["full"])
    report.figure("objects the collector tracks at the end", result["objects"], "objects", digits=0)
    report.figure("CPU per payment here (six events, the waits' ticks)", result["cpu"] / payments * 1e3, "ms")
    if name == "collector":
        report.figure("cycles a full collection of the frozen heap finds after", result["leaked"], "objects", digits=0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=5000, help="payments already in the ledger")
    parser.add_argument("--payments", type=int, default=1200, help="payments played")
    parser.add_argument("--every", type=float, default=12.0, help="simulated seconds between two payments")
    parser.add_argument("--modes", default="default,collector")
    parser.add_argument("--quick", action="store_true", help="a tiny run: proves the benchmark runs")
    args = parser.parse_args()
    if args.quick:
        args.size, args.payments, args.every = 200, 30, 3.0
    report = Report(f"bench_gc: garbage-collection pauses over a game, tree {common.ROOT}")
    report.note(f"a {args.size:,}-payment ledger, {args.payments:,} payments {args.every:g} s apart "
                f"({args.payments * args.every / 3600:.1f} h of play)")
    for mode in args.modes.split(","):
        with ledgers.ledger_copy(args.size, progress=True) as path:
            gc.collect()
            report_mode(report, mode, play(path, args.payments, args.every, policy=mode == "collector"), args.payments)
    report.summary()


if __name__ == "__main__":
    main()
