"""Benchmark: the CPU one payment costs, through ``banker script``, before and after in one run.

A payment here is what the issue measured: three keys (``1 0 K``: six
events, each key down and up, and the ticks the script's hands let pass)
with the payer's card on the ``-`` reader and the payee's on ``+``. The
figure is the CPU (user + system) of a ``banker script`` process playing
``--payments`` of them, less that of the same script with one payment (the
start-up, the enrolments and the cards), divided by the payments between:
in memory (no ``--db``), and on a ledger file (``--db``: the script is
rehearsed on a copy first, then played on the file, every commit fsynced,
as a user's script is: each payment is played twice). Then the unit's own
path, one pass: the one Shell over a ledger file, the keys down and up and
a tick after each payment (the upkeep), each frame drawn by the Pi's
display driver on the recording I2C bus; the unit's thread's CPU
(``time.thread_time``) per payment, the OLED model's own Python left out
(the chip's work, not the Pi's; its I2C bytes are bench_commit's). The least of ``--repeats`` runs of each (noise on a shared machine only adds).

Before and after: the same commands run on this tree and on a checkout of
``--before`` (a git revision, default the last commit before issue 33's
work on the core; unpacked by ``common.checkout``), each first
on the path of its own processes. Printed here, and at a Pi Zero 2's speed
(CPU x14 central and x20 pessimistic, benchmarks/common.py). Target (issue
33): at most 0.6 ms a payment on this machine, on a ledger file and on the
unit's own path.

    python benchmarks/bench_payment.py [--payments 1200] [--repeats 5] [--before REV]
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

import common
from common import ROOT, Report

from banker.money import format_amount

TARGET_MS = 0.6
PAYMENT = "press 1 0 K"
RUN = "import sys; from banker_cli.main import cli; sys.argv[0] = 'banker'; cli()"
#: The unit's own path in a child of a tree: the one Shell over a ledger file, each payment's keys down and up and
#: a tick after it (the upkeep: snapshots, backups' start, the anchor), drawn by the Pi's display driver on the
#: recording I2C bus. Prints the unit's thread's CPU per payment (a backup's thread is not the unit's), and of it
#: the OLED model's own Python (the chip's work, not the Pi's: left out of the figure, as bench_latency does).
UNIT = """
import sys, tempfile, time
from pathlib import Path
from banker.unit.events import CardPlaced, KeyDown, KeyUp, Tick
from drivers.display import OledDisplay
from firmware_sim.display_sim import OledChip
from runtime.ledger import open_ledger
from runtime.shell import Shell
payments = int(sys.argv[1])
model = [0.0]
def measured(real):
    def call(*args, **kwargs):
        start = time.thread_time()
        try:
            return real(*args, **kwargs)
        finally:
            model[0] += time.thread_time() - start
    return call
OledChip.command, OledChip.data = measured(OledChip.command), measured(OledChip.data)
with tempfile.TemporaryDirectory() as folder, open_ledger(Path(folder) / "ledger.db") as ledger:
    ledger.enrol("Alice", "A1")
    ledger.enrol("Bob", "B2")
    display = OledDisplay(chip="ssd1306", interface=OledChip("ssd1306"))
    unit, t = Shell(ledger, display=display, sleep_after=1e9), 1.0
    unit.handle(CardPlaced("right", "A1", t))
    unit.handle(CardPlaced("left", "B2", t))
    def pay():
        global t
        for key in ("1", "0", "K"):
            t += 0.2
            unit.handle(KeyDown(key, t))
            unit.handle(KeyUp(key, t + 0.05))
        t += 0.2
        unit.handle(Tick(t))
    for _ in range(20):
        pay()
    start, model[0] = time.thread_time(), 0.0
    for _ in range(payments):
        pay()
    print((time.thread_time() - start) / payments, model[0] / payments)
    display.close()
"""


def script(folder: Path, payments: int) -> Path:
    """Alice (on ``-``) pays Bob (on ``+``) 10K ``payments`` times; the balance checked at the end."""
    lines = ["enrol Alice", "enrol Bob", "insert right Alice", "insert left Bob", *[PAYMENT] * payments,
             f"expect balance Bob {format_amount(15_000_000 + 10_000 * payments)}"]
    path = folder / f"pay{payments}.kps"
    path.write_text("\n".join(lines) + "\n")
    return path


def cpu_of(tree: Path, path: Path, db: Path | None, keys: Path) -> tuple[float, float]:
    """CPU seconds (user, system) of one ``banker script`` process of ``tree``."""
    env = dict(common.env(), PYTHONPATH=str(tree), BANKER_KEY_DIR=str(keys))
    if db is not None:
        for leftover in db.parent.glob(db.name + "*"):
            leftover.unlink()
    argv = [sys.executable, "-c", RUN, "script", str(path), "--quiet", *(["--db", str(db)] if db else [])]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(argv, env=env, cwd=tree, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(f"{tree}: banker script exited {done.returncode}: {done.stderr.strip()[-1500:]}")
    return after.ru_utime - before.ru_utime, after.ru_stime - before.ru_stime


def one_run(tree: Path, folder: Path, payments: int, on_file: bool, n: int) -> tuple[float, float]:
    """Seconds of CPU (user, system) a payment cost in one run of ``tree``: the long script less the
    one-payment script, per payment."""
    long, short = script(folder, payments), script(folder, 1)
    db = folder / "ledger.db" if on_file else None
    keys = folder / f"keys-{n}"
    (u1, s1), (u0, s0) = cpu_of(tree, long, db, keys), cpu_of(tree, short, db, keys)
    return (u1 - u0) / (payments - 1), (s1 - s0) / (payments - 1)


def unit_path(tree: Path, payments: int) -> float:
    """Seconds of the unit's thread's CPU a payment costs on the unit's own path (:data:`UNIT`) in ``tree``, the
    OLED model's left out."""
    with tempfile.TemporaryDirectory() as keys:
        env = dict(common.env(), PYTHONPATH=str(tree), BANKER_KEY_DIR=keys)
        done = subprocess.run([sys.executable, "-c", UNIT, str(payments)], env=env, cwd=tree, capture_output=True,
                              text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{tree}: the unit's path failed: {done.stderr.strip()[-1500:]}")
    total, model = (float(x) for x in done.stdout.split()[-2:])
    return total - model


def measure(trees: list[tuple[str, Path]], scratch: Path, payments: int, repeats: int) -> dict:
    """(tree's label, on a file) -> the run of least CPU (user, system): the trees taken in turn, run by run, so
    the machine's load falls on both alike (noise on a shared machine only adds)."""
    runs: dict[tuple[str, bool], list[tuple[float, float]]] = {}
    for n in range(repeats):
        for on_file in (False, True):
            for label, tree in trees:
                folder = scratch / f"{len(label)}-{on_file}"
                folder.mkdir(exist_ok=True)
                runs.setdefault((label, on_file), []).append(one_run(tree, folder, payments, on_file, n))
        for label, tree in trees:
            runs.setdefault((label, "unit"), []).append((unit_path(tree, payments), 0.0))
    return {key: min(found, key=sum) for key, found in runs.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--payments", type=int, default=1200, help="at most 1,400 (Alice has 15M)")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--before", default=common.BEFORE_ISSUE33, help="the git revision to compare with ('' for none)")
    parser.add_argument("--quick", action="store_true", help="a few payments, no before: proves it runs")
    args = parser.parse_args()
    if args.quick:
        args.payments, args.repeats, args.before = 50, 1, ""
    report = Report(f"bench_payment: CPU per payment ({PAYMENT!r}) through banker script, tree {ROOT}", width=66)
    trees = [("after (this tree)", ROOT)]
    with tempfile.TemporaryDirectory() as scratch:
        if args.before:
            trees.insert(0, (f"before ({args.before})", common.checkout(args.before, Path(scratch))))
        found = measure(trees, Path(scratch), args.payments, args.repeats)
    for label, _tree in trees:
        report.section(f"{label}: {args.payments:,} payments, the least of {args.repeats} runs")
        for on_file, where in ((False, "in memory"), (True, "on a ledger file (--db)")):
            user, system = found[(label, on_file)]
            report.figure(f"of which the kernel's (system time: the fsyncs), {where}", system * 1000, "ms", digits=3)
            report.figure(f"CPU per payment here, {where}", (user + system) * 1000, "ms",
                          target=TARGET_MS if on_file else None, digits=3)
            for _label, factor in common.ZERO2_FACTORS:
                report.figure(f"{common.zero2_label(factor)}: CPU per payment, {where}",
                              common.zero2(user + system, factor) * 1000, "ms",
                              target=TARGET_MS * factor if on_file else None,
                              target_text=f"<= {TARGET_MS * factor:g} ms (0.6 ms here)")
        unit = found[(label, "unit")][0]
        report.figure("CPU per payment here, the unit's own path (one pass, the Pi's display)", unit * 1000, "ms",
                      target=TARGET_MS, digits=3)
        for _label, factor in common.ZERO2_FACTORS:
            report.figure(f"{common.zero2_label(factor)}: CPU per payment, the unit's own path",
                          common.zero2(unit, factor) * 1000, "ms", target=TARGET_MS * factor,
                          target_text=f"<= {TARGET_MS * factor:g} ms (0.6 ms here)")
    report.summary()


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    main()
