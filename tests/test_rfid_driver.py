"""The MFRC522 driver and the slot debouncer, on the simulated chips: what a player at the table notices."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from banker.errors import BankerError, ConfigError
from banker.events import CardPlaced, CardRemoved
from drivers.card_slots import CardSlot, CardSlots, ReaderError, ReaderLibraryMissing, ReaderNotFound
from firmware_sim.fake_rpi import FakeRfidBoard, broken_imports, installed, two_reader_board
from firmware_sim.mfrc522_chip import Picc, PiccState

POLL_S = 0.05                                    # the unit's main loop polls every 50 ms


@pytest.fixture
def board():
    board = two_reader_board()
    with installed(board):
        yield board


def reader(board: FakeRfidBoard, device: int = 0, **options):
    from drivers.rfid_spi import Mfrc522Reader
    return Mfrc522Reader(0, device, 25 if device == 0 else 24, sleep=board.clock.sleep, **options)


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


def test_an_empty_poll_uses_at_most_20_spi_transfers(board):
    chip = board.chips[(0, 0)]
    with reader(board) as plus:
        before = chip.transfer_count
        assert plus.poll() is None
        assert chip.transfer_count - before <= 20


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


def test_two_cards_on_one_reader_never_give_a_wrong_uid(board):
    chip = board.chips[(0, 0)]
    chip.place(Picc.from_hex("DEADBEEF"))
    chip.place(Picc.from_hex("DEADBE0F"))
    with reader(board) as plus:
        results = {plus.poll() for _ in range(20)}
        assert results == {None} and plus.collisions == 20


def test_a_second_card_added_then_taken_away_leaves_the_first_read_again(board):
    chip = board.chips[(0, 0)]
    chip.place(Picc.from_hex("DEADBEEF"))
    with reader(board) as plus:
        slots = CardSlots({"left": plus}, clock=board.clock)
        run(board, slots, 2)
        intruder = chip.place(Picc.from_hex("12345678"))
        events = run(board, slots, 10)
        chip.take(intruder)
        events += run(board, slots, 2)
    assert all(e.uid == "DEADBEEF" for e in events if isinstance(e, CardPlaced))


# --- wiring faults and missing software ----------------------------------------
def test_a_reader_held_in_reset_gives_a_clear_error():
    board = FakeRfidBoard(reset_idle_level=0)    # RST wired to GPIO25, pulled low
    board.add_reader(device=0, reset_pin=25)
    with installed(board):
        from drivers.rfid_spi import Mfrc522Reader
        with pytest.raises(ReaderNotFound, match="VersionReg reads 0x00.*GPIO24"):
            Mfrc522Reader(0, 0, reset_pin=24, sleep=board.clock.sleep)   # the config names the wrong pin
    assert board.gpio.driven == {}               # the pin it took was given back


def test_an_absent_reader_gives_a_clear_error():
    board = FakeRfidBoard()
    board.add_reader(device=0)
    with installed(board):
        with pytest.raises(ReaderNotFound, match="no MFRC522 answers on SPI0 CE1"):
            reader(board, 1)


def test_spi_not_enabled_gives_a_clear_error():
    board = FakeRfidBoard(spi_enabled=False)
    with installed(board):
        with pytest.raises(ReaderNotFound, match="dtparam=spi=on"):
            reader(board)


def test_a_reader_that_stops_answering_mid_game_raises(board):
    with reader(board) as plus:
        board.chips[(0, 0)].set_reset_line(0)    # e.g. a loose RST wire
        with pytest.raises(ReaderNotFound, match="stopped answering"):
            plus.poll()


@pytest.mark.parametrize("failures", [
    {"RPi.GPIO": RuntimeError("This module can only be run on a Raspberry Pi!")},
    {"spidev": None},
    {"mfrc522": None},
])
def test_missing_or_failing_libraries_give_a_clear_error(failures):
    with broken_imports(failures):
        from drivers.rfid_spi import Mfrc522Reader
        with pytest.raises(ReaderLibraryMissing, match="Raspberry Pi") as caught:
            Mfrc522Reader()
    assert isinstance(caught.value, BankerError) and isinstance(caught.value, ImportError)


def test_importing_the_driver_needs_no_hardware_library():
    import importlib
    import sys
    with broken_imports({"RPi.GPIO": None, "spidev": None, "mfrc522": None}):
        sys.modules.pop("drivers.rfid_spi", None)
        assert importlib.import_module("drivers.rfid_spi").Mfrc522Reader


def test_gpio_in_board_numbering_is_refused_with_a_clear_error(board):
    board.gpio.setmode(board.gpio.BOARD)
    with pytest.raises(ConfigError, match="BCM"):
        reader(board)


# --- closing -------------------------------------------------------------------
def test_closing_turns_the_antenna_off_and_releases_the_reset_pin(board):
    chip = board.chips[(0, 0)]
    with reader(board) as plus:
        assert board.gpio.driven == {25: 1}
    assert not chip.field_on and board.gpio.driven == {}
    with pytest.raises(ReaderError, match="closed"):
        plus.poll()
    plus.close()                                 # twice is fine


def test_readers_sharing_a_reset_pin_keep_it_until_both_are_closed():
    board = FakeRfidBoard()
    board.add_reader(device=0, reset_pin=25)
    board.add_reader(device=1, reset_pin=25)
    with installed(board):
        from drivers.rfid_spi import Mfrc522Reader
        plus = Mfrc522Reader(0, 0, 25, sleep=board.clock.sleep)
        minus = Mfrc522Reader(0, 1, 25, sleep=board.clock.sleep)
        plus.close()
        assert board.gpio.driven == {25: 1} and minus.poll() is None
        minus.close()
        assert board.gpio.driven == {}


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
        minus.broken = True                      # the reader fails: its card counts as gone
        assert isinstance(posted.get(timeout=5), CardRemoved)
        assert isinstance(slots.errors["right"], ReaderNotFound)
    assert plus.closed and minus.closed


def test_a_reader_error_propagates_from_a_direct_poll():
    broken = Hand()
    broken.broken = True
    with pytest.raises(ReaderNotFound):
        CardSlots({"left": broken}).poll()
