"""Crash harness, the long run: play in a subprocess, SIGKILL it at random moments, verify the ledger each time.

Prints: runs, kills, transactions reported committed, lost, doubled,
torn (a half transaction or a half new game). Every figure but the first
three must be 0.

    python benchmarks/bench_crash.py [--kills 300] [--seed 1]
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import ROOT, Report

from firmware_sim.crash_player import check_after_kill, reported_ids


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--kills-per-ledger", type=int, default=25, help="start a fresh ledger file this often")
    parser.add_argument("--quick", action="store_true", help="three kills: proves the harness runs")
    args = parser.parse_args()
    if args.quick:
        args.kills = 3
    rng = random.Random(args.seed)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    reported: set[int] = set()
    total_reported = 0
    lost = doubled = torn = 0
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        for run in range(args.kills):
            path = Path(folder) / f"ledger-{run // args.kills_per_ledger}.db"
            if run % args.kills_per_ledger == 0:
                reported = set()
            proc = subprocess.Popen([sys.executable, "-m", "firmware_sim.crash_player", str(path), str(run)],
                                    stdout=subprocess.PIPE, env=env, text=True, cwd=ROOT)
            time.sleep(0.3 + rng.random() * 0.7)
            proc.send_signal(signal.SIGKILL)
            out, _ = proc.communicate()
            new = reported_ids(out)
            total_reported += len(new - reported)
            reported |= new
            try:
                run_lost, run_doubled = check_after_kill(str(path), reported)
            except AssertionError as exc:
                torn += 1
                print(f"run {run}: {exc}", file=sys.stderr)
                continue
            lost += run_lost
            doubled += run_doubled
    report = Report(f"bench_crash: {args.kills} SIGKILLs of a playing unit, tree {ROOT}")
    report.figure("runs (each killed once)", args.kills, "", digits=0)
    report.figure("transactions reported committed", total_reported, "", digits=0)
    for name, value in (("lost", lost), ("doubled", doubled), ("torn", torn)):
        report.figure(f"transactions {name}", value, "", target=0, digits=0)
    report.figure("seconds", time.perf_counter() - started, "s", digits=1)
    report.summary()

if __name__ == "__main__":
    main()
