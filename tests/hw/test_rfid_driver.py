"""The MFRC522 driver and the slot debouncer, on the simulated chips: what a player at the table notices.

The driver gets its SPI device (a ``FakeSpiDev`` on the chip model) and its
RST output (a gpiozero ``DigitalOutputDevice`` on ``MockFactory`` pins the
chips follow) as arguments, as it does on the Pi; nothing is faked in
``sys.modules`` except where a test shows a library missing.
"""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from banker.errors import BankerError, ConfigError
from banker.unit.events import CardPlaced, CardRemoved, ReaderFault, ReaderRecovered
from drivers.card_slots import CardSlot, CardSlots, ReaderError, ReaderLibraryMissing, ReaderNotFound, TwoCards
from drivers.rfid_spi import (
    MAX_RESPONSE_TIMEOUT_S, MIN_RESPONSE_TIMEOUT_S, Mfrc522Reader, open_mfrc522, reset_output, wiring,
)
from firmware_sim.fake_rpi import FakeRfidBoard, broken_imports, two_reader_board
from firmware_sim.mfrc522_chip import Picc, PiccState, crc_a

POLL_S = 0.05                                    # the unit's main loop polls every 50 ms


@pytest.fixture
def board():
    return two_reader_board()


def reader(board: FakeRfidBoard, device: int = 0, *, reset_pin: int | None = None, **options) -> Mfrc522Reader:
    """The reader on SPI0 CE``device``, wired as the unit is (RST on GPIO25 for CE0, GPIO24 for CE1)."""
    pin = reset_pin if reset_pin is not None else (25 if device == 0 else 24)
    return Mfrc522Reader(board.spi(0, device), reset_output(pin, pin_factory=board.pin_factory),
                         where=wiring(0, device, pin), sleep=board.clock.sleep, clock=board.clock, **options)


def run(board: FakeRfidBoard, slots: CardSlots, polls: int) -> list:
    events = []
    for _ in range(polls):
        board.clock.sleep(POLL_S)
        events.extend(slots.poll())
    return events


# --- reading cards -----------------------------------------------------------
def test_a_card_placed_is_read_with_its_uid(board):
    board.chips[(0, 0)].place(Picc.from_hex("DEADBEEF"))
    with reader(board) as plus:
        assert plus.poll() == "DEADBEEF"
        assert plus.poll() == "DEADBEEF"         # still there: it answers WUPA again


def test_a_card_halted_by_an_earlier_read_still_answers(board):
    card = board.chips[(0, 0)].place(Picc.from_hex("DEADBEEF"))
    card.state = PiccState.HALT                  # e.g. another program read it and sent HLTA
    with reader(board) as plus:
        assert plus.poll() == "DEADBEEF"         # WUPA wakes halted cards, REQA would not


def test_each_chip_select_reads_its_own_slot(board):
    board.chips[(0, 1)].place(Picc.from_hex("CAFEF00D"))
    with reader(board, 0) as plus, reader(board, 1) as minus:
        assert (plus.poll(), minus.poll()) == (None, "CAFEF00D")


def test_a_seven_byte_uid_is_read_whole(board):
    board.chips[(0, 0)].place(Picc.from_hex("04A1B2C3D4E5F6"))
    with reader(board) as plus:
        assert plus.poll() == "04A1B2C3D4E5F6"


def test_no_card_gives_none(board):
    with reader(board) as plus:
        assert [plus.poll() for _ in range(3)] == [None, None, None] and plus.collisions == 0


def test_opening_checks_the_version_and_switches_the_antenna_on(board):
    chip = board.chips[(0, 0)]
    with reader(board) as plus:
        assert plus.version == 0x92 and chip.field_on
        assert bytes((0x37 << 1 | 0x80, 0)) in chip.transfers   # VersionReg read: address byte 0xEE


def test_an_empty_poll_is_seven_spi_transfers_with_the_datasheet_address_bytes(board):
    chip = board.chips[(0, 0)]
    with reader(board) as plus:
        before = chip.transfer_count
        assert plus.poll() is None
        assert [t.hex(" ") for t in chip.transfers[before:]] == [
            "02 00",      # CommandReg <- Idle
            "08 7f",      # ComIrqReg: clear every bit
            "14 80",      # FIFOLevelReg: flush
            "12 52",      # FIFODataReg <- WUPA
            "02 0c",      # CommandReg <- Transceive
            "1a 87",      # BitFramingReg: StartSend, 7 bits
            "88 00",      # read ComIrqReg: the timer ran out, no card
        ]


def test_a_card_removed_is_noticed(board):
    chip = board.chips[(0, 0)]
    card = chip.place(Picc.from_hex("DEADBEEF"))
    with reader(board) as plus:
        slots = CardSlots({"left": plus}, clock=board.clock)
        assert [type(e) for e in run(board, slots, 3)] == [CardPlaced]
        chip.take(card)
        events = run(board, slots, 10)
        assert [type(e) for e in events] == [CardRemoved]
        assert events[0].t - 3 * POLL_S <= 0.35   # noticed within about a third of a second


def test_a_card_lying_there_never_flickers_across_1000_polls(board):
    chip = board.chips[(0, 0)]
    card = chip.place(Picc.from_hex("DEADBEEF"))
    with reader(board) as plus:
        slots = CardSlots({"left": plus}, clock=board.clock)
        events = []
        for i in range(1000):
            if i % 97 == 50:                     # the card is nudged: it loses power for one poll
                chip.take(card)
                events += run(board, slots, 1)
                chip.place(card)
            events += run(board, slots, 1)
    assert [(type(e), e.uid) for e in events] == [(CardPlaced, "DEADBEEF")]


def test_a_quick_tap_registers_placed_then_removed(board):
    chip = board.chips[(0, 1)]
    with reader(board, 1) as minus:
        slots = CardSlots({"right": minus}, clock=board.clock)
        card = chip.place(Picc.from_hex("CAFEF00D"))
        tap = run(board, slots, 1)
        chip.take(card)
        events = tap + run(board, slots, 10)
    assert [(type(e), e.reader) for e in events] == [(CardPlaced, "right"), (CardRemoved, "right")]


def test_a_different_card_swapped_in_gives_removed_then_placed(board):
    chip = board.chips[(0, 0)]
    first = chip.place(Picc.from_hex("DEADBEEF"))
    with reader(board) as plus:
        slots = CardSlots({"left": plus}, clock=board.clock)
        run(board, slots, 2)
        chip.take(first)
        chip.place(Picc.from_hex("CAFEF00D"))
        events = run(board, slots, 2)
    assert [type(e) for e in events] == [CardRemoved, CardPlaced]
    assert events[1].uid == "CAFEF00D"


def test_two_cards_on_one_reader_raise_two_cards_never_a_wrong_uid(board):
    chip = board.chips[(0, 0)]
    chip.place(Picc.from_hex("DEADBEEF"))
    chip.place(Picc.from_hex("DEADBE0F"))
    with reader(board) as plus:
        for _ in range(20):
            with pytest.raises(TwoCards):
                plus.poll()
        assert plus.collisions == 20


def test_a_four_and_a_seven_byte_card_collide_already_in_their_atqa(board):
    chip = board.chips[(0, 0)]
    chip.place(Picc.from_hex("DEADBEEF"))
    chip.place(Picc.from_hex("04A1B2C3D4E5F6"))
    with reader(board) as plus:
        with pytest.raises(TwoCards, match="two cards"):
            plus.poll()
        board.clock.sleep(0.001)
        chip.transfer([0x37 << 1 | 0x80, 0])     # (the model catches up with the air at a transfer)
        assert chip.air_frames[-2:] == [b"\x52", bytes((0x50, 0x00)) + crc_a(b"\x50\x00")]  # WUPA, then HLTA


def test_a_second_card_laid_on_is_a_fault_and_taking_it_away_reads_the_first_again(board):
    chip = board.chips[(0, 0)]
    chip.place(Picc.from_hex("DEADBEEF"))
    with reader(board) as plus:
        slots = CardSlots({"left": plus}, clock=board.clock)
        events = run(board, slots, 2)
        intruder = chip.place(Picc.from_hex("04A1B2C3D4E5F6"))
        events += run(board, slots, 10)
        chip.take(intruder)
        events += run(board, slots, 10)
    assert [(type(e).__name__, getattr(e, "uid", getattr(e, "fault", None))) for e in events] == [
        ("CardPlaced", "DEADBEEF"), ("ReaderFault", "two-cards"), ("ReaderRecovered", None),
        ("CardPlaced", "DEADBEEF")]


def test_a_spoilt_answer_is_a_missed_read_that_never_flickers(board):
    chip = board.chips[(0, 0)]
    chip.place(Picc.from_hex("04A1B2C3D4E5F6"))
    with reader(board) as plus:
        slots = CardSlots({"left": plus}, clock=board.clock)
        events = run(board, slots, 2)
        for kind in ("parity", "crc", "sof", "parity"):
            chip.disturb(kind)
            events += run(board, slots, 2)
        assert plus.errors >= 3
    assert [type(e) for e in events] == [CardPlaced]


def test_a_new_card_is_read_in_under_2_ms_of_modelled_time(board):
    """Issue 11: the waits come from the chip's timer and the answer's length, not a fixed 1.2 x timeout."""
    chip = board.chips[(0, 0)]
    with reader(board) as plus:
        card = chip.place(Picc.from_hex("DEADBEEF"))
        start = board.clock()
        assert plus.poll() == "DEADBEEF"
        assert board.clock() - start < 0.002
        chip.take(card)
        start = board.clock()
        assert plus.poll() is None               # the HLTA still on air is waited for, then the timer
        assert board.clock() - start < 0.001


def test_a_driver_that_forgot_100_percent_ask_would_read_nothing(board):
    chip = board.chips[(0, 0)]
    chip.place(Picc.from_hex("DEADBEEF"))
    with reader(board) as plus:
        chip.regs[0x15] = 0x00                   # TxASKReg without Force100ASK
        assert plus.poll() is None
        chip.regs[0x15] = 0x40
        assert plus.poll() == "DEADBEEF"


# --- timeouts --------------------------------------------------------------------
@pytest.mark.parametrize("timeout_s", [0.0003, 0.001, 0.005])
def test_an_empty_poll_waits_about_the_response_timeout_for_the_chips_timer(board, timeout_s):
    with reader(board, response_timeout_s=timeout_s) as plus:
        start = board.clock()
        assert plus.poll() is None
        assert timeout_s < board.clock() - start < timeout_s + 0.0006   # + sending, the bus, at most an ATQA


@pytest.mark.parametrize("timeout_s", [MIN_RESPONSE_TIMEOUT_S, 0.001, 0.005, 0.05])
def test_a_card_is_read_whatever_the_response_timeout(board, timeout_s):
    board.chips[(0, 0)].place(Picc.from_hex("04A1B2C3D4E5F6"))
    with reader(board, response_timeout_s=timeout_s) as plus:
        assert plus.poll() == "04A1B2C3D4E5F6"


def test_the_timeout_bounds_come_from_iso_14443_3s_frame_delay_and_the_timers_range():
    assert MIN_RESPONSE_TIMEOUT_S == pytest.approx((1236 + 5 * 128 + 339) / 13_560_000)   # ~163 us
    assert MAX_RESPONSE_TIMEOUT_S == pytest.approx(65_536 * 339 / 13_560_000)             # ~1.64 s


@pytest.mark.parametrize("timeout_s", [0.0001, 2.0])
def test_a_timeout_out_of_range_is_a_config_error_and_gives_the_pins_back(board, timeout_s):
    with pytest.raises(ConfigError, match="response_timeout_s"):
        reader(board, response_timeout_s=timeout_s)
    assert board.reset_lines[25].function == "input"
    with reader(board) as plus:                  # nothing was left holding GPIO25
        assert plus.poll() is None


# --- wiring faults and missing software ----------------------------------------
def test_a_reader_held_in_reset_gives_a_clear_error():
    board = FakeRfidBoard(reset_idle_level=0)    # RST wired to GPIO25, pulled low
    board.add_reader(device=0, reset_pin=25)
    with pytest.raises(ReaderNotFound, match="VersionReg reads 0x00.*RST is on GPIO24"):
        reader(board, 0, reset_pin=24)           # the config names the wrong pin
    assert board.chips[(0, 0)].in_reset
    assert board.pin_factory.pin(24).function == "input"   # the pin it took was given back


def test_an_absent_reader_gives_a_clear_error():
    board = FakeRfidBoard()
    board.add_reader(device=0)
    with pytest.raises(ReaderNotFound, match="no MFRC522 answers on SPI0 CE1"):
        reader(board, 1)


def test_a_reader_that_stops_answering_mid_game_raises_and_is_set_up_again_when_it_is_back(board):
    chip = board.chips[(0, 0)]
    chip.place(Picc.from_hex("DEADBEEF"))
    with reader(board) as plus:
        chip.set_reset_line(0)                   # e.g. a loose RST wire
        with pytest.raises(ReaderNotFound, match="stopped answering"):
            plus.poll()
        chip.set_reset_line(1)                   # back, with every register at its reset value
        board.clock.sleep(POLL_S)
        assert plus.poll() == "DEADBEEF"         # soft reset, timer, ASK and antenna set again


def test_a_chip_that_was_reset_behind_the_drivers_back_is_noticed_and_set_up_again(board):
    chip = board.chips[(0, 0)]
    chip.place(Picc.from_hex("DEADBEEF"))
    with reader(board) as plus:
        chip.set_reset_line(0)
        chip.set_reset_line(1)                   # a brown-out: antenna off, no timer
        board.clock.sleep(POLL_S)
        with pytest.raises(ReaderNotFound, match="lost its settings"):
            plus.poll()
        assert plus.poll() == "DEADBEEF"


def test_a_reset_pin_another_device_holds_is_refused_clearly(board):
    from gpiozero import DigitalOutputDevice

    with DigitalOutputDevice(25, pin_factory=board.pin_factory):   # e.g. a keypad row on GPIO25
        with pytest.raises(ReaderError, match="RST on GPIO25"):
            reader(board)


def test_open_mfrc522_without_spidev_names_the_package():
    with broken_imports({"spidev": None}):
        with pytest.raises(ReaderLibraryMissing, match="'spidev' package") as caught:
            open_mfrc522(0, 0, 25, 1_000_000)
    assert isinstance(caught.value, BankerError) and isinstance(caught.value, ImportError)


def test_open_mfrc522_without_the_spi_device_node_says_to_enable_spi():
    pytest.importorskip("spidev")                # the real one: no Pi has a /dev/spidev99.0
    from gpiozero.pins.mock import MockFactory

    with pytest.raises(ReaderNotFound, match=r"/dev/spidev99\.0.*dtparam=spi=on"):
        open_mfrc522(99, 0, 25, 1_000_000, pin_factory=MockFactory())


def test_open_mfrc522_refuses_an_spi_clock_the_chip_cannot_take():
    with pytest.raises(ConfigError, match="10 MHz"):
        open_mfrc522(0, 0, 25, 20_000_000)


def test_importing_the_driver_needs_no_hardware_library(monkeypatch):
    import importlib
    import sys
    monkeypatch.delitem(sys.modules, "drivers.rfid_spi")     # put back afterwards
    with broken_imports({"RPi.GPIO": None, "spidev": None, "mfrc522": None}):
        assert importlib.import_module("drivers.rfid_spi").Mfrc522Reader


# --- closing and the reset line ---------------------------------------------------
def test_closing_turns_the_antenna_off_and_releases_spi_and_the_reset_pin(board):
    chip, line = board.chips[(0, 0)], board.reset_lines[25]
    with reader(board) as plus:
        assert (line.function, line.state) == ("output", True)
    assert not chip.field_on and line.function == "input" and not chip.in_reset   # the module's pull-up
    with pytest.raises(ReaderError, match="closed"):
        plus.poll()
    plus.close()                                 # twice is fine


def test_readers_sharing_a_reset_pin_keep_it_until_both_are_closed():
    board = FakeRfidBoard()
    board.add_reader(device=0, reset_pin=25)
    board.add_reader(device=1, reset_pin=25)
    line = board.reset_lines[25]
    plus, minus = reader(board, 0, reset_pin=25), reader(board, 1, reset_pin=25)   # gpiozero allows one output
    plus.close()
    assert line.function == "output" and minus.poll() is None
    minus.close()
    assert line.function == "input"


def test_a_reader_config_opens_through_the_hardware_and_a_failure_closes_the_rest():
    from runtime.config import parse_config
    from runtime.device import open_readers

    class Bench:                                 # a Hardware whose MFRC522s are the board's
        def __init__(self, board):
            self.board, self.clock, self.sleep = board, board.clock, board.clock.sleep

        def mfrc522(self, r):
            return reader(self.board, r.device, reset_pin=r.reset_pin)

    board = FakeRfidBoard()
    board.add_reader(device=0, reset_pin=25)     # the - reader (CE1) is not soldered
    with pytest.raises(ReaderNotFound, match="SPI0 CE1"):
        open_readers(parse_config(""), Bench(board))
    assert board.reset_lines[25].function == "input"   # the + reader was closed again
    board = two_reader_board()
    board.chips[(0, 1)].place(Picc.from_hex("CAFEF00D"))
    with open_readers(parse_config(""), Bench(board)) as slots:
        assert [(type(e), e.reader) for e in slots.poll()] == [(CardPlaced, "right")]


# --- the debouncer alone ---------------------------------------------------------
class Script:
    """A reader that returns scripted poll results, and the clock that moves with it."""

    def __init__(self, results: list[str | None]) -> None:
        self.results, self.now = list(results), 0.0

    def poll(self) -> str | None:
        self.now += POLL_S
        return self.results.pop(0)

    def __call__(self) -> float:
        return self.now


def debounce(results: list[str | None], slot: str = "left", **options) -> list:
    source = Script(results)
    slots = CardSlots({slot: source}, clock=source, **options)
    return [e for _ in range(len(results)) for e in slots.poll()]


def test_one_missed_read_is_not_a_removal():
    assert debounce(["A", "A", None, "A", None, None, "A"]) == [CardPlaced("left", "A", POLL_S)]


def test_removal_needs_both_the_misses_and_the_time_window():
    fast = ["A", None, None, None, None, None, None]
    assert [type(e) for e in debounce(fast, removal_misses=3, removal_after_s=0.25)] == [CardPlaced, CardRemoved]
    assert debounce(fast, removal_misses=3, removal_after_s=0.25)[1].t == pytest.approx(6 * POLL_S)
    assert len(debounce(fast, removal_misses=3, removal_after_s=1.0)) == 1
    assert debounce(fast, removal_misses=1, removal_after_s=0)[1].t == pytest.approx(2 * POLL_S)


def test_one_reader_mode_serves_the_chosen_slot():
    events = debounce(["A", None, None, None, None, None, None], slot="right")
    assert [e.reader for e in events] == ["right", "right"]


def test_an_unknown_slot_name_is_a_config_error():
    with pytest.raises(ConfigError, match="left, right"):
        CardSlots({"middle": Script([])})
    with pytest.raises(ConfigError):
        CardSlot("left", removal_misses=0)


@given(st.lists(st.booleans(), min_size=1, max_size=300))
def test_a_card_that_is_missed_at_most_twice_in_a_row_is_placed_once_and_never_removed(reads):
    results = ["A"] + ["A" if ok else None for ok in reads]
    for i in range(len(results) - 2):            # at most two misses in a row
        if results[i:i + 3] == [None, None, None]:
            results[i + 2] = "A"
    assert debounce(results) == [CardPlaced("left", "A", POLL_S)]


# --- the card slots as the core's event source --------------------------------
class Hand:
    """A reader whose card a test lays down and lifts; it can also break."""

    def __init__(self) -> None:
        self.uid: str | None = None
        self.broken = False
        self.closed = False

    def poll(self) -> str | None:
        if self.broken:
            raise ReaderNotFound("loose wire")
        return self.uid

    def close(self) -> None:
        self.closed = True


def test_started_slots_post_events_from_a_background_thread():
    import queue
    posted: queue.SimpleQueue = queue.SimpleQueue()
    plus, minus = Hand(), Hand()
    with CardSlots({"left": plus, "right": minus}, removal_after_s=0.01) as slots:
        slots.start(posted.put, interval_s=0.001)
        minus.uid = "CAFEF00D"
        placed = posted.get(timeout=5)
        assert (type(placed), placed.reader, placed.uid) == (CardPlaced, "right", "CAFEF00D")
        minus.broken = True                      # the reader fails: a fault, its card counts as gone
        fault = posted.get(timeout=5)
        assert (type(fault), fault.reader, fault.fault) == (ReaderFault, "right", "not-answering")
        assert isinstance(slots.errors["right"], ReaderNotFound)
        minus.broken = False                     # it answers again, the card still on it
        assert isinstance(posted.get(timeout=5), ReaderRecovered)
        assert posted.get(timeout=5).uid == "CAFEF00D"
    assert plus.closed and minus.closed


def test_a_reader_error_in_a_direct_poll_is_a_fault_not_an_exception():
    broken = Hand()
    broken.broken = True
    slots = CardSlots({"left": broken})
    events = slots.poll()
    assert [(type(e), e.fault) for e in events] == [(ReaderFault, "not-answering")]
    assert slots.poll() == [] and slots.faults() == {"left": "not-answering"}   # posted once
