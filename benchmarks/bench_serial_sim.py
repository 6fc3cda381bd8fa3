"""The serial test port over ``socket://`` and a long ``hw-sim`` run: a 256-byte line's time, an hour's memory.

**Serial.** The unit's serial test port (:class:`drivers.serial_port.SerialTestPort`,
the core unit behind it) on one end of a
:class:`firmware_sim.serial_backend.NullModem`, polled every
``runtime.shell.POLL_SECONDS`` as the run loop polls it; a client at the
other end sends one 256-byte line (255 characters and its line end, the
longest the port takes) and waits for the answer. Printed: the polls and
the seconds from sending to the answer (median of ``--lines``). Before issue
19 a ``socket://`` port read one byte per poll.

**hw-sim for an hour.** ``banker run --backend hw-sim``'s hands
(:class:`firmware_sim.hw_sim_backend.HwSimBackend`: the real drivers polling the
simulated MFRC522s, the keypad scanned) let an hour of simulated time pass
on the chips' fast clock, idle as a unit on a table; the process RSS is
printed at the start and every ten simulated minutes. Flat is the target
(at most 5 MiB more at the end than after the first ten minutes).

    python benchmarks/bench_serial_sim.py [--lines 5] [--minutes 60]
"""

from __future__ import annotations

import argparse
import statistics
import time

from common import Report, rss_mib

#: MiB the hour may add after its first ten minutes (the chips' logs bounded: nothing grows with time).
FLAT_MIB = 5.0


def one_line(ledger) -> tuple[int, float]:
    """(polls, seconds) from a client sending one 256-byte line to its answer arriving."""
    from serial import serial_for_url

    from drivers.serial_port import MAX_LINE, SerialTestPort
    from firmware_sim.serial_backend import CoreTarget, NullModem
    from runtime.shell import POLL_SECONDS

    with NullModem() as cable, SerialTestPort(cable.device_url, CoreTarget(ledger)) as device:
        client = serial_for_url(cable.client_url, timeout=0)
        try:
            line = ("worth? " + "A" * (MAX_LINE - 8)).encode() + b"\n"
            assert len(line) == MAX_LINE
            device.poll()
            answer, polls = b"", 0
            started = time.perf_counter()
            client.write(line)
            client.flush()
            while b"\n" not in answer:
                device.poll()
                polls += 1
                time.sleep(POLL_SECONDS)
                answer += client.read(4096)
            return polls, time.perf_counter() - started
        finally:
            client.close()


def serial_figures(report: Report, lines: int) -> None:
    from runtime.ledger import SqliteLedger

    report.section("serial test port over socket:// (NullModem), polled every 5 ms as the run loop polls it")
    with SqliteLedger(":memory:") as ledger:
        runs = [one_line(ledger) for _ in range(lines)]
    report.figure(f"256-byte line: device polls until answered (median of {lines})",
                  statistics.median(p for p, _ in runs), "polls", digits=0)
    report.figure(f"256-byte line: seconds until answered (median of {lines})",
                  statistics.median(s for _, s in runs), "s", digits=3)


def hw_sim_figures(report: Report, minutes: int) -> None:
    from firmware_sim.hw_sim_backend import HwSimBackend
    from runtime.ledger import SqliteLedger

    report.section(f"banker run --backend hw-sim for {minutes} simulated minutes (idle, fast clock)")
    with SqliteLedger(":memory:") as ledger:
        sim = HwSimBackend(ledger)
        try:
            start = rss_mib()
            report.figure("RSS at the start", start, "MiB", digits=1)
            cpu = time.process_time()
            after_ten = None
            for minute in range(10, minutes + 1, 10):
                sim.wait(600)
                now = rss_mib()
                after_ten = now if after_ten is None else after_ten
                report.figure(f"RSS after {minute} simulated minutes", now, "MiB", digits=1)
            chips = sim.hands.hw.chips
            kept = sum(len(list(c.transfers)) for c in chips.values())
            report.note(f"SPI transfers: {sum(c.transfer_count for c in chips.values()):,} counted, {kept:,} kept "
                        f"(in {time.process_time() - cpu:.1f} s of CPU)")
            report.figure("RSS growth after the first ten minutes", rss_mib() - after_ten, "MiB", target=FLAT_MIB,
                          digits=1)
        finally:
            sim.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=5, help="256-byte lines sent (the median is shown)")
    parser.add_argument("--minutes", type=int, default=60, help="simulated minutes of hw-sim (a multiple of 10)")
    args = parser.parse_args()
    report = Report("serial over socket://, hw-sim's memory over time")
    serial_figures(report, args.lines)
    hw_sim_figures(report, args.minutes)
    report.summary()


if __name__ == "__main__":
    main()
