"""Benchmark of the display bus: bytes sent to the OLED per key press while typing an amount, against full frames.

Runs the unit and shell with the real display driver on the simulated SSD1306
(and SH1106) recording bus: a card on the + reader, then "1.2345" and M.
Prints each key's traffic and the means. Target: on average <= 40 % of a
full frame's bytes per key press; the modelled I2C time per frame is at
400 kHz (9 bits a byte, address and control byte and START/STOP per
transaction). Also the CPU time of each key press (step, frame, driver) and
its Pi Zero 2 estimate (CPU x14 central and x20 pessimistic, benchmarks/common.py).

    python benchmarks/bench_display.py [--rounds 20]
"""

from __future__ import annotations

import argparse
import statistics
import time

import common
from common import Report, median

from banker.unit.events import CardPlaced, KeyDown, KeyUp

KEYS = list("1.2345") + ["M"]
TARGET_SHARE = 0.40


def per_key(chip_name: str, partial: bool, digits: str = "normal") -> list[dict]:
    """Traffic and CPU time of each key press of the typing run."""
    from drivers.display import OledDisplay
    from firmware_sim.display_sim import I2C_HZ, OledChip
    from runtime.ledger import open_ledger
    from runtime.shell import Shell

    chip = OledChip(chip_name)
    rows = []
    with open_ledger(":memory:") as ledger, OledDisplay(chip=chip_name, interface=chip, partial=partial,
                                                                 digits=digits) as display:
        ledger.enrol("Alice", "A1")
        shell = Shell(ledger, display=display)
        t = 1.0
        shell.handle(CardPlaced("left", "A1", t))
        for key in KEYS:
            chip.reset_counters()
            t += 0.2
            cpu0 = time.process_time()
            shell.handle(KeyDown(key, t))
            shell.handle(KeyUp(key, t + 0.05))
            cpu = time.process_time() - cpu0
            sent = chip.reset_counters()
            rows.append({"key": key, "wire_bytes": sent.wire_bytes, "data_bytes": sent.data_bytes,
                         "transactions": sent.transactions, "i2c_ms": sent.i2c_seconds(I2C_HZ) * 1000, "cpu": cpu})
        game = ledger.game()
        assert game.balance(game.card_by_name("Alice").id) == 16_234_500
    return rows


def report_chip(report: Report, chip_name: str, rounds: int, digits: str = "normal") -> None:
    runs = [per_key(chip_name, True, digits) for _ in range(rounds)]
    partial, full = runs[-1], per_key(chip_name, False, digits)
    shares = [p["wire_bytes"] / f["wire_bytes"] for p, f in zip(partial, full)]
    report.section(f"{chip_name}: typing {''.join(KEYS)} on the + reader's card")
    report.figure("full frame: bytes on the wire", full[0]["wire_bytes"], "bytes")
    report.figure("full frame: I2C time", full[0]["i2c_ms"], "ms")
    for p, s in zip(partial, shares):
        cpu = median([run[KEYS.index(p["key"])]["cpu"] for run in runs])
        report.note(f"key {p['key']:<2} {p['wire_bytes']:>5} bytes in {p['transactions']} transactions,"
                    f" {s:6.1%} of a full frame, {p['i2c_ms']:.2f} ms on the bus, CPU {cpu * 1000:.2f} ms")
    report.figure("mean bytes per key", statistics.mean(p["wire_bytes"] for p in partial), "bytes")
    report.figure("mean share of a full frame", statistics.mean(shares), "", target=TARGET_SHARE, digits=3)
    report.figure("mean I2C time per key", statistics.mean(p["i2c_ms"] for p in partial), "ms")
    cpu = median([statistics.mean(r["cpu"] for r in run) for run in runs])
    report.figure("CPU per key press (step, frame, driver): median", cpu * 1000, "ms")
    report.zero2("CPU per key press", cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20, help="typing runs timed (median CPU)")
    parser.add_argument("--quick", action="store_true", help="one round: proves the benchmark runs")
    parser.add_argument("--digits", choices=("normal", "large"), default="normal",
                        help="the config's [display] digits (large: the balance as tall as the screen fits)")
    args = parser.parse_args()
    rounds = 1 if args.quick else args.rounds
    report = Report(f"bench_display: bytes to the OLED per key press, digits {args.digits}, tree {common.ROOT}")
    for chip in ("ssd1306", "sh1106"):
        report_chip(report, chip, rounds, args.digits)
    report.summary()


if __name__ == "__main__":
    main()
