"""No event source dies silently: card slots, card readers, the keypad scanner and the serial test port are
each made to raise, and each goes on (or is started again) and says so.

Threads are real here (they are what fails); every wait has a generous timeout.
"""

from __future__ import annotations

import logging
import queue
import threading
import time

import pytest
from gpiozero.pins.mock import MockFactory

from banker.unit.events import CardPlaced, KeyDown, KeyUp, ReaderFault, ReaderRecovered
from drivers.card_slots import CardSlots, ReaderNotFound
from drivers.keypad import MatrixKeypad
from drivers.rfid_uart import Rdm6300Reader, encode_frame
from drivers.serial_port import SerialTestPort
from drivers.supervised import Supervised
from firmware_sim.keypad_sim import KeypadMatrix
from firmware_sim.serial_backend import CoreTarget
from runtime.shell import Shell
from tests.hw.threads import WAIT, scanning



def take(posted: queue.SimpleQueue, kind: type, *, within: float = WAIT):
    """The next posted event of ``kind`` (earlier ones of other kinds are skipped)."""
    deadline = time.monotonic() + within
    while True:
        event = posted.get(timeout=max(0.01, deadline - time.monotonic()))
        if isinstance(event, kind):
            return event


class Flaky:
    """A card reader that returns ``uid``, or raises whatever ``error`` holds (a bug, not only a ReaderError)."""

    def __init__(self, uid: str | None = None) -> None:
        self.uid, self.error = uid, None

    def poll(self) -> str | None:
        if self.error is not None:
            raise self.error
        return self.uid


# --- the card slots ---------------------------------------------------------------------
def test_a_reader_that_raises_anything_is_a_fault_and_polling_goes_on():
    posted: queue.SimpleQueue = queue.SimpleQueue()
    plus, minus = Flaky("DEADBEEF"), Flaky()
    with CardSlots({"left": plus, "right": minus}, removal_after_s=0.01) as slots:
        slots.start(posted.put, interval_s=0.001)
        assert take(posted, CardPlaced).uid == "DEADBEEF"
        plus.error = ZeroDivisionError("a bug in a driver")
        assert take(posted, ReaderFault) == ReaderFault("left", "not-answering", slots.slots["left"]._faulty_at)
        minus.uid = "CAFEF00D"                   # the other reader still reads meanwhile
        assert take(posted, CardPlaced).reader == "right"
        plus.error = None
        assert take(posted, ReaderRecovered).reader == "left"
        placed = take(posted, CardPlaced)  # seen again: its time is the poll's (later polls move _last_seen on)
        assert (placed.reader, placed.uid) == ("left", "DEADBEEF") and placed.t <= slots.slots["left"]._last_seen
        assert slots.restarts == 0


def test_a_polling_thread_that_fails_is_started_again_and_says_so(caplog):
    posted: queue.SimpleQueue = queue.SimpleQueue()
    plus = Flaky("DEADBEEF")
    slots = CardSlots({"left": plus}, removal_after_s=0.01)
    real_poll, failures = slots.poll, [RuntimeError("the debouncer broke")]

    def poll(**kwargs):
        if failures:
            raise failures.pop()
        return real_poll(**kwargs)

    slots.poll = poll
    with caplog.at_level(logging.ERROR, logger="banker.threads"), slots:
        slots.start(posted.put, interval_s=0.001)
        assert take(posted, ReaderFault).fault == "not-answering"
        back = take(posted, ReaderRecovered)
        assert back.restarted and back.reader == "left"
        assert take(posted, CardPlaced).uid == "DEADBEEF"   # read anew after the restart
        assert slots.restarts == 1
    assert "card-slots failed; starting it again" in caplog.text


def test_the_unit_says_a_reader_was_restarted(ledger):
    from runtime.shell import Shell

    shell = Shell(ledger)
    slots = CardSlots({"left": Flaky()})
    real_poll, failures = slots.poll, [RuntimeError("the debouncer broke")]

    def poll(**kwargs):
        if failures:
            raise failures.pop()
        return real_poll(**kwargs)

    slots.poll = poll
    with slots:
        slots.start(shell.post, interval_s=0.001)
        deadline = time.monotonic() + WAIT
        while "Reader + restarted" not in " ".join(shell.screen.lines) and time.monotonic() < deadline:
            time.sleep(0.005)
            shell.pump()
    assert "Reader + restarted" in " ".join(shell.screen.lines)


def test_an_rdm6300_whose_port_fails_is_a_fault_and_its_port_is_opened_again():
    reader = Rdm6300Reader("loop://")
    try:
        reader.port.write(encode_frame("0A1B2C3D4E"))
        assert reader.poll() == "0A1B2C3D4E"
        broken = reader.port
        reader.port = BrokenPort(OSError(5, "Input/output error"))   # the USB adapter is pulled
        slots = CardSlots({"right": reader})
        assert [type(e) for e in slots.poll()] == [ReaderFault]
        assert isinstance(slots.errors["right"], ReaderNotFound)
        assert slots.poll() == [] and reader.port is not broken    # opened anew; it reads again
        assert reader.poll() is None
    finally:
        reader.close()


# --- the keypad scanner ------------------------------------------------------------------
def test_a_keypad_scan_that_raises_is_logged_once_and_scanning_goes_on(caplog):
    factory = MockFactory()
    matrix = KeypadMatrix(factory)
    posted: queue.SimpleQueue = queue.SimpleQueue()
    with MatrixKeypad(pin_factory=factory, debounce=0.0, scan_interval=0.001) as keypad:
        real, failures = keypad.read_matrix, [OSError(5, "GPIO read failed")] * 20

        def read_matrix():
            if failures:
                raise failures.pop()
            return real()

        keypad.read_matrix = read_matrix
        with caplog.at_level(logging.ERROR, logger="banker.keypad"):
            keypad.start(posted.put)
            scanning(keypad)                      # the failures are spent and a good scan was taken in
            matrix.press("5")
            assert take(posted, KeyDown).key == "5"
        assert keypad.scan_errors == 20 and keypad.restarts == 0
    assert caplog.text.count("keypad scan failed") == 1


def test_a_keypad_whose_sink_fails_logs_it_and_keeps_scanning():
    factory = MockFactory()
    matrix = KeypadMatrix(factory)
    posted: queue.SimpleQueue = queue.SimpleQueue()
    calls = []

    def post(event):
        calls.append(event)
        if len(calls) == 1:
            raise RuntimeError("the queue is gone")
        posted.put(event)

    with MatrixKeypad(pin_factory=factory, debounce=0.0, scan_interval=0.001) as keypad:
        keypad.start(post)
        scanning(keypad)
        matrix.press("7")
        deadline = time.monotonic() + WAIT
        while not keypad.scan_errors and time.monotonic() < deadline:
            time.sleep(0.005)
        matrix.release("7")
        assert take(posted, KeyUp).key == "7"     # "7" read up before "8" goes down
        matrix.press("8")
        assert take(posted, KeyDown).key == "8"
        assert keypad.scan_errors == 1


# --- the serial test port ---------------------------------------------------------------
class BrokenPort:
    """A pyserial-like port whose every read raises ``error``."""

    def __init__(self, error: BaseException) -> None:
        self.error, self.closed = error, False

    @property
    def in_waiting(self) -> int:
        raise self.error

    def read(self, size: int = 1) -> bytes:
        raise self.error

    def write(self, data: bytes) -> int:
        return len(data)

    def flush(self) -> None:
        pass

    def close(self) -> None:
        self.closed = True


@pytest.mark.parametrize("error", [OSError(5, "I/O error"), ValueError("a driver bug")])
def test_a_serial_test_port_that_raises_never_stops_the_unit(ledger, error):
    port = SerialTestPort("test://", CoreTarget(ledger), port=BrokenPort(error))
    assert port.poll() == 0 and port.poll() == 0
    assert port.failed and port.errors == 2
    stop = threading.Event()
    shell = Shell(ledger)
    server = threading.Thread(target=shell.run, args=(stop,), kwargs={"poll": (port.poll,)}, daemon=True)
    server.start()
    time.sleep(0.05)
    assert server.is_alive() and port.errors > 2  # the one run loop keeps polling it
    stop.set()
    server.join(WAIT)
    assert not server.is_alive()


# --- the supervisor itself -----------------------------------------------------------------
def test_a_loop_that_returns_by_itself_counts_as_failed_and_runs_again():
    runs, failures = [], []

    def body(stop):
        runs.append(1)
        if len(runs) < 3:
            return                                # gave up without being asked
        stop.wait()

    worker = Supervised("test-loop", body, on_failure=failures.append, backoff_s=0.001)
    worker.start()
    deadline = time.monotonic() + WAIT
    while len(runs) < 3 and time.monotonic() < deadline:
        time.sleep(0.005)
    worker.stop()
    assert len(runs) == 3 and worker.restarts == 2 and len(failures) == 2
