"""Faults at the table, each with a defined outcome in which nothing is lost.

Cards go through the real MFRC522 driver and the slot debouncer on the
simulated chip, into the unit; the ledger is the real SQLite journal.
"""

import pytest

from banker.errors import LedgerError
from banker.journal.records import GameSettings
from drivers.card_slots import CardSlots
from runtime.ledger import SqliteLedger
from runtime.shell import Shell
from firmware_sim.fake_rpi import two_reader_board
from firmware_sim.mfrc522_chip import Picc

POLL = 0.05


class Bench:
    """Two simulated readers, the real driver and debouncer, the unit; keys typed straight in."""

    def __init__(self, board, ledger):
        from drivers.rfid_spi import Mfrc522Reader, reset_output, wiring

        self.board = board
        self.readers = [Mfrc522Reader(board.spi(0, d), reset_output(pin, pin_factory=board.pin_factory),
                                      where=wiring(0, d, pin), sleep=board.clock.sleep)
                        for d, pin in ((0, 25), (1, 24))]
        self.slots = CardSlots({"left": self.readers[0], "right": self.readers[1]}, clock=board.clock)
        self.shell = Shell(ledger, now=board.clock(), clock=board.clock)
        self.ledger = ledger

    def chip(self, reader):
        return self.board.chips[(0, 0 if reader == "left" else 1)]

    def polls(self, n=1):
        for _ in range(n):
            self.board.clock.sleep(POLL)
            for event in self.slots.poll():
                self.shell.handle(event)

    def keys(self, text):
        from banker.unit.events import KeyDown, KeyUp

        for key in text:
            self.shell.handle(KeyDown(key, self.board.clock()))
            self.board.clock.sleep(0.05)
            self.shell.handle(KeyUp(key, self.board.clock()))

    @property
    def shown(self):
        return " | ".join(self.shell.screen.lines)

    def close(self):
        for r in self.readers:
            r.close()


@pytest.fixture
def bench():
    board = two_reader_board()
    with SqliteLedger(":memory:") as ledger:
        ledger.enrol("Alice", "DEADBEEF")
        ledger.enrol("Bob", "CAFEF00D")
        b = Bench(board, ledger)
        yield b
        b.close()


def test_reader_flicker_does_not_cancel_an_entry(bench):
    alice = bench.chip("left").place(Picc.from_hex("DEADBEEF"))
    bench.polls(2)
    bench.keys("25")
    bench.chip("left").take(alice)       # the card is lost for a poll ...
    bench.polls(1)
    bench.chip("left").place(alice)      # ... and read again a few ms later
    bench.polls(2)
    bench.keys("M")
    assert bench.ledger.game().balances_by_name()["Alice"] == 40_000_000


def test_a_card_swapped_mid_entry_cancels_it(bench):
    chip = bench.chip("right")
    alice = chip.place(Picc.from_hex("DEADBEEF"))
    bench.polls(2)
    bench.keys("5")
    chip.take(alice)
    chip.place(Picc.from_hex("CAFEF00D"))
    bench.polls(8)
    assert "- Bob" in bench.shown or "Cancelled" in bench.shown
    bench.keys("M")
    assert bench.ledger.game().balances_by_name() == {"Alice": 15_000_000, "Bob": 15_000_000}


def test_two_cards_on_one_reader_read_as_no_card_and_post_nothing(bench):
    chip = bench.chip("right")
    chip.place(Picc.from_hex("DEADBEEF"))
    bench.polls(2)
    bench.keys("3")
    chip.place(Picc.from_hex("CAFEF00D"))   # a second card on the same reader: collision
    bench.polls(10)
    assert "Two cards on -" in bench.shown
    bench.keys("M")
    assert bench.ledger.game().balances_by_name() == {"Alice": 15_000_000, "Bob": 15_000_000}


def test_a_card_lying_on_a_reader_for_minutes_never_flickers(bench):
    bench.chip("left").place(Picc.from_hex("DEADBEEF"))
    bench.polls(2)
    bench.keys("7")
    bench.polls(20 * 50)  # 50 s of polls
    bench.keys("M")
    assert bench.ledger.game().balances_by_name()["Alice"] == 22_000_000


def test_power_loss_during_a_new_game_keeps_the_old_game_whole(tmp_path):
    """The new game's archive and every opening are one commit: a failure mid-way leaves the old game."""
    path = tmp_path / "ledger.db"
    with SqliteLedger(path, backups=False) as ledger:
        for n in range(8):
            ledger.enrol(f"P{n}", f"A{n}")
        old = ledger.game().id
        pages = ledger.store._conn.execute("PRAGMA page_count").fetchone()[0]
        ledger.store._conn.execute(f"PRAGMA max_page_count = {pages}")
        with pytest.raises(LedgerError):
            for _ in range(50):
                ledger.new_game(GameSettings())
        assert ledger.game().id >= old
        ledger.check()
    with SqliteLedger(path) as ledger:
        for game in ledger.games():
            assert len([t for t in ledger.transactions(game.id) if t.kind == "opening"]) == 8
        assert ledger.verify().ok


def test_the_display_failing_mid_game_loses_nothing_and_recovers():
    """An I2C error while drawing: the game goes on, and the panel catches up on the next tick."""
    from render import render_image
    from firmware_sim.hw_sim_backend import HwSimBackend

    with SqliteLedger(":memory:") as ledger:
        hw = HwSimBackend(ledger)
        try:
            hw.enrol("Alice", "DEADBEEF")
            hw.insert("left", "Alice")
            hw.hw.oled.unplug()  # the display's cable comes loose
            for key in "2M":
                hw.press(key)
            assert ledger.game().balances_by_name()["Alice"] == 17_000_000
            assert hw.device.display.failed
            hw.hw.oled.plug()
            hw.wait(0.3)
            assert not hw.device.display.failed
            assert hw.hw.oled.image().convert("1").tobytes() == render_image(hw.shell.screen).tobytes()
        finally:
            hw.close()
