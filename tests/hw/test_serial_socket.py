"""The serial test port over ``socket://`` takes a whole line per poll, and hw-sim's chips keep bounded logs."""

from __future__ import annotations

import time

from serial import serial_for_url

from drivers.serial_port import MAX_LINE, SerialTestPort
from firmware_sim.mfrc522_chip import KEEP, Mfrc522Chip
from firmware_sim.serial_backend import CoreTarget, NullModem, SerialBackend
from runtime.ledger import SqliteLedger


def test_a_256_byte_line_over_socket_is_answered_within_a_few_polls():
    with SqliteLedger(":memory:") as ledger, NullModem() as cable, \
            SerialTestPort(cable.device_url, CoreTarget(ledger)) as device:
        client = serial_for_url(cable.client_url, timeout=0)
        try:
            line = ("worth? " + "A" * (MAX_LINE - 8)).encode() + b"\n"
            assert len(line) == MAX_LINE
            client.write(line)
            client.flush()
            time.sleep(0.05)  # the whole line is across the cable
            polls, answer = 0, b""
            while b"\n" not in answer and polls < 50:
                polls += 1
                device.poll()
                time.sleep(0.005)
                answer += client.read(4096)
            assert b'"ok"' in answer and polls <= 3
        finally:
            client.close()


def test_a_line_over_the_limit_is_still_refused_over_socket():
    with SqliteLedger(":memory:") as ledger, NullModem() as cable, \
            SerialTestPort(cable.device_url, CoreTarget(ledger)) as device:
        client = serial_for_url(cable.client_url, timeout=0)
        try:
            client.write(b"A" * (3 * MAX_LINE) + b"\nhello?\n")
            time.sleep(0.05)
            answer = b""
            for _ in range(20):
                device.poll()
                time.sleep(0.005)
                answer += client.read(4096)
            assert b"line too long" in answer and b'"protocol"' in answer  # refused, then the next line answered
        finally:
            client.close()


def test_the_client_backend_reads_its_answers_whole_over_socket():
    import threading

    seen = {}

    def client(url: str) -> None:
        with SerialBackend(url) as unit:
            unit.enrol("Alice", "04A1B2C3")
            seen["balances"] = unit.balances()

    with SqliteLedger(":memory:") as ledger, NullModem() as cable, \
            SerialTestPort(cable.device_url, CoreTarget(ledger)) as device:
        asking = threading.Thread(target=client, args=(cable.client_url,))
        asking.start()
        while asking.is_alive():  # the unit's run loop: the port polled from the ledger's own thread
            device.poll()
            time.sleep(0.002)
        asking.join()
    assert seen["balances"] == {"Alice": 15_000_000}


def test_a_chip_keeps_its_newest_transfers_and_counts_them_all():
    chip = Mfrc522Chip()
    for n in range(KEEP + 10):
        chip.transfer([0x37 << 1 | 0x80, n % 256])
    assert chip.transfer_count == KEEP + 10 and chip.transfer_bytes == 2 * (KEEP + 10)
    assert len(list(chip.transfers)) == KEEP
    assert chip.transfers[-1] == bytes((0x37 << 1 | 0x80, (KEEP + 9) % 256))
    before = chip.transfer_count
    chip.transfer([0x02, 0x00])
    assert chip.transfers[before:] == [bytes((0x02, 0x00))]  # what came since, as a test reads it
