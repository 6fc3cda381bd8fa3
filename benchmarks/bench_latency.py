"""Benchmark: card tap to new frame on the display, through the real drivers on the simulated chips.

For each tap a card is laid on a reader at a random moment of the polling
cycle; the latency is the wait for the next poll + the poll's modelled SPI
time and the chip's answer/timeout waits (both readers are polled) + the CPU
time of the drivers, the unit and the frame on this machine (an upper bound:
it includes the chip simulator's own Python) + the frame's bytes on a
400 kHz I2C bus. Target: p95 <= 50 ms. Prints JSON.

    python benchmarks/bench_latency.py [--taps 400]
"""

from __future__ import annotations

import argparse
import json
import random
import time

from runtime.config import Config
from runtime.device import open_device
from runtime.ledger import SqliteLedger
from runtime.shell import Shell
from firmware_sim.hw_sim import SimulatedHardware
from firmware_sim.mfrc522_chip import Picc


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--taps", type=int, default=400)
    args = parser.parse_args()
    rng = random.Random(3)
    config = Config()
    interval = config.poll_interval
    totals, waits, bus, cpu, i2c = [], [], [], [], []
    with SimulatedHardware(config) as hw, SqliteLedger(":memory:") as ledger:
        uids = {"left": "DEADBEEF", "right": "CAFEF00D"}
        ledger.enrol("Alice", uids["left"])
        ledger.enrol("Bob", uids["right"])
        device = open_device(config, hw)
        shell = Shell(ledger, now=hw.clock(, sleep_after=1e9), display=device.display, clock=hw.clock)
        next_poll = hw.clock()

        def poll() -> float:
            """One polling round; returns the CPU seconds it took."""
            start = time.perf_counter()
            for event in device.slots.poll():
                shell.handle(event)
            return time.perf_counter() - start

        for tap in range(args.taps):
            reader = "left" if tap % 2 else "right"
            placed = next_poll - rng.random() * interval  # a random moment of the cycle before the next poll
            wait = next_poll - placed
            card = hw.chips[reader].place(Picc.from_hex(uids[reader]))
            hw.oled.reset_counters()
            sim_before = hw.clock()
            cpu_s = poll()
            bus_s = hw.clock() - sim_before
            frame = hw.oled.reset_counters()
            assert frame.wire_bytes > 0, "no new frame after the tap"
            waits.append(wait)
            bus.append(bus_s)
            cpu.append(cpu_s)
            i2c.append(frame.i2c_seconds())
            totals.append(wait + bus_s + cpu_s + frame.i2c_seconds())
            hw.chips[reader].take(card)
            for _ in range(12):  # let the removal register before the next tap
                hw.clock.advance(interval)
                poll()
            next_poll = hw.clock() + interval
        device.close()
    ms = lambda s: round(s * 1000, 2)  # noqa: E731
    result = {
        "taps": len(totals),
        "poll_interval_ms": ms(interval),
        "latency_p50_ms": ms(percentile(totals, 0.5)),
        "latency_p95_ms": ms(percentile(totals, 0.95)),
        "latency_max_ms": ms(max(totals)),
        "parts_p95_ms": {"wait_for_poll": ms(percentile(waits, 0.95)), "spi_and_chip_waits": ms(percentile(bus, 0.95)),
                         "cpu_drivers_unit_render": ms(percentile(cpu, 0.95)), "i2c_frame": ms(percentile(i2c, 0.95))},
        "target_p95_le_50ms": percentile(totals, 0.95) <= 0.050,
    }
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
