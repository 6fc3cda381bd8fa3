"""Benchmark: card tap to new frame on the OLED, through the real drivers on the simulated chips, at a Pi Zero 2's speed.

For each tap a card is laid on a reader at a random moment of the polling
cycle (the interval, and an idle round with its CPU at Zero 2 speed: the
polling thread waits the interval after a round ends); the latency is the
wait for the next poll (simulated) + the poll's
modelled SPI time and the chip's answer/timeout waits, both readers polled
(simulated) + the CPU time (``time.process_time``) of the drivers, the
unit and the frame on the Pi's own display path (drivers.display.OledDisplay:
luma's device, the frame conversion, the partial update) + the frame's
bytes on a 400 kHz I2C bus (firmware_sim.display_sim.OledChip). The CPU
time of the chip models' own Python (firmware_sim's MFRC522 and OLED, which
stand for silicon, not for code on the Pi) is measured apart and left out;
in its place each SPI transfer costs the kernel's spidev time on a Pi
(:data:`SPIDEV_US`: 30 us a transfer at the central estimate, 50 us at the
pessimistic one, unscaled: a Pi figure). Both ways are printed: with the
models' CPU counted as the Pi's (the old upper bound) and without.

Printed: p50 / p95 / max here, and at a Pi Zero 2's speed (the CPU part
x14 and x20, benchmarks/common.py; the waits and the bus unscaled). Targets:
p95 <= 50 ms here; p95 <= 22 ms at Zero 2 speed (issue 33: half the distance
to the floor), and issue 19's 35 ms (issue 11 set 40 ms).

Then what polling costs while nothing happens, at the default interval
(``[readers] poll_interval``, 10 ms since issue 19) and at 20 ms: two
readers with no card polled ``--idle-polls`` times, the SPI transfers and
bytes counted by the chip model (as benchmarks/bench_rfid.py counts them),
per second; the CPU of a polling round here and x14 and x20 (the drivers' Python
and the chip model's: an upper bound), as a share of one Zero 2 core; and
the kernel's spidev cost, 10-50 us a transfer on a Pi (bench_rfid.py's
figure), per second.

    python benchmarks/bench_latency.py [--taps 400] [--idle-polls 500]
"""

from __future__ import annotations

import argparse
import random
import time

import common
from common import Report, median, percentile, zero2

TARGET_HERE_MS = 50.0
TARGET_ZERO2_MS = 35.0   # issue 19 (issue 11: 40 ms)
TARGET_FLOOR_MS = 22.0   # issue 33: half the distance to the physical floor
SPIDEV_US = (10, 50)     # the kernel's cost of one spidev transfer on a Pi (bench_rfid.py)
#: The spidev cost per transfer taken at each Zero 2 factor (central, pessimistic), seconds.
SPIDEV_AT = {14: 30e-6, 20: 50e-6}


class ModelCpu:
    """The CPU time spent inside the chip models (the MFRC522's SPI transfers, the OLED's commands and data),
    and the SPI transfers made: what the silicon does, not the Pi."""

    def __init__(self) -> None:
        from firmware_sim.display_sim import OledChip
        from firmware_sim.mfrc522_chip import Mfrc522Chip

        self.seconds, self.transfers, self._inside = 0.0, 0, False
        self._undo = [self._wrap(Mfrc522Chip, "transfer", spi=True)]
        self._undo += [self._wrap(OledChip, name) for name in ("command", "data")]

    def _wrap(self, cls, name: str, *, spi: bool = False):
        real = getattr(cls, name)
        meter = self

        def measured(*args, **kwargs):
            if meter._inside:
                return real(*args, **kwargs)
            meter._inside, start = True, time.process_time()
            try:
                return real(*args, **kwargs)
            finally:
                meter.seconds += time.process_time() - start
                meter.transfers += spi
                meter._inside = False

        setattr(cls, name, measured)
        return lambda: setattr(cls, name, real)

    def close(self) -> None:
        for undo in self._undo:
            undo()


def idle_polling(interval: float, polls: int) -> dict:
    """Two readers, no card, polled ``polls`` times every ``interval``: what one round costs the bus and the CPU."""
    from dataclasses import replace

    from firmware_sim.hw_sim import SimulatedHardware
    from runtime.config import Config
    from runtime.device import open_device

    config = replace(Config(), poll_interval=interval)
    with SimulatedHardware(config) as hw:
        device = open_device(config, hw)
        try:
            for _ in range(20):  # the readers' start-up
                device.slots.poll()
            chips = list(hw.chips.values())
            transfers, nbytes = sum(c.transfer_count for c in chips), sum(c.transfer_bytes for c in chips)
            meter = ModelCpu()
            cpu, sim = time.process_time(), 0.0
            for _ in range(polls):
                hw.clock.advance(interval)
                before = hw.clock()
                device.slots.poll()
                sim += hw.clock() - before
            meter.close()
            return {"interval": interval, "cpu": (time.process_time() - cpu) / polls, "sim": sim / polls,
                    "model": meter.seconds / polls,
                    "transfers": (sum(c.transfer_count for c in chips) - transfers) / polls,
                    "bytes": (sum(c.transfer_bytes for c in chips) - nbytes) / polls}
        finally:
            device.close()


def shorter_intervals(report: Report, idle: dict, moments: list[float], pi, waits: list[float]) -> None:
    """What a shorter poll interval would give: the same taps at the same moments of a shorter cycle (the
    wait for the poll is the only part that changes), against what idle polling then costs a core."""
    report.section("the poll interval's trade: the same taps with a shorter interval (x14), and what polling costs")
    for every in (0.010, 0.005, 0.003):
        cycle = every + idle["sim"] + zero2(idle["cpu"] - idle["model"]) + idle["transfers"] * SPIDEV_AT[14]
        tap = [t - w + m * cycle for t, w, m in zip(pi(14), waits, moments)]
        share = (zero2(idle["cpu"] - idle["model"]) + idle["transfers"] * SPIDEV_AT[14]) / every * 100
        report.figure(f"every {every * 1000:g} ms: tap to frame p95 (x14)", percentile(tap, 0.95) * 1000, "ms",
                      target=TARGET_FLOOR_MS)
        report.figure(f"every {every * 1000:g} ms: idle polling's share of one core (x14, spidev counted)", share, "%",
                      digits=1)


def print_idle(report: Report, idle: dict, polls: int) -> None:
    rate = 1 / idle["interval"]
    report.section(f"idle polling every {idle['interval'] * 1000:g} ms, two readers, no card ({polls} rounds)")
    report.figure("SPI transfers per round", idle["transfers"], digits=1)
    report.figure("SPI transfers per second", idle["transfers"] * rate, "/s", digits=0)
    report.figure("SPI bytes per second", idle["bytes"] * rate, "B/s", digits=0)
    report.figure("SPI and chip waits per round (simulated)", idle["sim"] * 1e3, "ms")
    report.figure("CPU per round here", idle["cpu"] * 1e6, "us", digits=1)
    for _name, factor in common.ZERO2_FACTORS:
        report.figure(f"{common.zero2_label(factor)}: CPU per round", zero2(idle["cpu"], factor) * 1e3, "ms")
        report.figure(f"{common.zero2_label(factor)}: share of one core", zero2(idle["cpu"], factor) * rate * 100, "%",
                      digits=1)
    low, high = (idle["transfers"] * rate * us / 1e4 for us in SPIDEV_US)
    report.figure("spidev in the kernel, 10-50 us a transfer: share of one core", f"{low:.1f}-{high:.1f}", "%")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--taps", type=int, default=400)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--idle-polls", type=int, default=500, help="polling rounds with no card, per interval")
    parser.add_argument("--quick", action="store_true", help="a few taps: proves the benchmark runs")
    args = parser.parse_args()
    if args.quick:
        args.taps, args.idle_polls = 6, 10
    from firmware_sim.hw_sim import SimulatedHardware
    from firmware_sim.mfrc522_chip import Picc
    from runtime.config import Config
    from runtime.device import open_device
    from runtime.ledger import open_ledger
    from runtime.shell import Shell

    report = Report(f"bench_latency: card tap to new frame, {args.taps} taps, tree {common.ROOT}")
    rng = random.Random(args.seed)
    config = Config()
    interval = config.poll_interval
    idle = {every: idle_polling(every, args.idle_polls) for every in sorted({interval, 0.02})}
    # the polling thread waits the interval after each round ends: a cycle is the interval and an idle round
    # (its SPI and chip waits, and its CPU at Zero 2 speed); a card laid at a random moment of it waits for the next
    cycle = interval + idle[interval]["sim"] + zero2(idle[interval]["cpu"])
    waits, bus, cpu, i2c, models, transfers = [], [], [], [], [], []
    meter = ModelCpu()
    with SimulatedHardware(config) as hw, open_ledger(":memory:") as ledger:
        uids = {"left": "DEADBEEF", "right": "CAFEF00D"}
        ledger.enrol("Alice", uids["left"])
        ledger.enrol("Bob", uids["right"])
        device = open_device(config, hw)
        shell = Shell(ledger, display=device.display, clock=hw.clock, now=hw.clock(), sleep_after=1e9)

        def poll() -> float:
            """One polling round; the CPU seconds it took."""
            start = time.process_time()
            for event in device.slots.poll():
                shell.handle(event)
            return time.process_time() - start

        for tap in range(args.taps + 1):  # the first tap warms the caches up: not counted
            reader = "left" if tap % 2 else "right"
            wait = rng.random() * cycle  # laid at a random moment of the cycle before the next poll
            card = hw.chips[reader].place(Picc.from_hex(uids[reader]))
            hw.oled.reset_counters()
            sim_before = hw.clock()
            model_before, transfers_before = meter.seconds, meter.transfers
            cpu_s = poll()
            bus_s = hw.clock() - sim_before
            frame = hw.oled.reset_counters()
            assert frame.wire_bytes > 0, "no new frame after the tap"
            if tap:
                waits.append(wait)
                bus.append(bus_s)
                cpu.append(cpu_s)
                i2c.append(frame.i2c_seconds())
                models.append(meter.seconds - model_before)
                transfers.append(meter.transfers - transfers_before)
            hw.chips[reader].take(card)
            for _ in range(int(config.removal_after / interval) + 4):  # let the removal register before the next tap
                hw.clock.advance(interval)
                poll()
        device.close()
    meter.close()
    here = [w + b + c + i for w, b, c, i in zip(waits, bus, cpu, i2c)]

    def upper_bound(factor: float) -> list[float]:
        """The chip models' Python counted as the Pi's CPU (the figure before issue 33)."""
        return [w + b + zero2(c, factor) + i for w, b, c, i in zip(waits, bus, cpu, i2c)]

    def pi(factor: float) -> list[float]:
        """The Pi's own CPU scaled; each SPI transfer the kernel's spidev time in place of the model's Python."""
        return [w + b + zero2(c - m, factor) + n * SPIDEV_AT[factor] + i
                for w, b, c, m, n, i in zip(waits, bus, cpu, models, transfers, i2c)]

    ms = 1000.0
    report.figure("poll interval", interval * ms, "ms")
    report.figure("poll cycle: the interval + an idle round (Zero 2)", cycle * ms, "ms")
    for name, values in (("wait for the poll (simulated)", waits), ("SPI and chip waits (simulated)", bus),
                         ("CPU: drivers, unit, Pi display path", cpu),
                         ("  of it, the chip models' own Python", models), ("frame on the I2C bus (400 kHz)", i2c)):
        report.note(f"{name:<44} median {median(values) * ms:7.2f} ms  p95 {percentile(values, 0.95) * ms:7.2f} ms")
    report.figure("tap to frame here: p50", median(here) * ms, "ms")
    report.figure("tap to frame here: p95", percentile(here, 0.95) * ms, "ms", target=TARGET_HERE_MS)
    report.figure("tap to frame here: max", max(here) * ms, "ms")
    report.figure("CPU per tap here: p95", percentile(cpu, 0.95) * ms, "ms")
    report.figure("SPI transfers per tap: median", median(transfers), digits=0)
    report.section("before: the chip models' Python counted as the Pi's CPU")
    report.zero2_series("tap to frame", upper_bound)
    report.section("after: the Pi's CPU alone, and the kernel's spidev time for each transfer (30 us at x14, 50 at x20)")
    report.zero2_series("tap to frame", pi, target_p95_ms=TARGET_FLOOR_MS)
    for _label, factor in common.ZERO2_FACTORS:
        report.figure(f"{common.zero2_label(factor)}: tap to frame p95, issue 19's target", percentile(pi(factor), 0.95)
                      * ms, "ms", target=TARGET_ZERO2_MS)
    shorter_intervals(report, idle[interval], [w / cycle for w in waits], pi, waits)
    for every in sorted(idle):
        print_idle(report, idle[every], args.idle_polls)
    report.summary()


if __name__ == "__main__":
    main()
