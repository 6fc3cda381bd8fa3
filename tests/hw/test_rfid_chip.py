"""The MFRC522 chip model behaves like the datasheet, and the mfrc522 package's own code reads cards from it."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from firmware_sim.fake_rpi import FakeRfidBoard, installed, two_reader_board
from firmware_sim.mfrc522_chip import (
    CHIP_VERSION, CRYSTAL_STARTUP_S, T_DELAY_S, Mfrc522Chip, Picc, PiccState, SimClock, crc_a,
)

READ, COMMAND, COM_IRQ, DIV_IRQ, ERROR, FIFO_DATA, FIFO_LEVEL = 0x80, 0x01, 0x04, 0x05, 0x06, 0x09, 0x0A
BIT_FRAMING, TX_CONTROL, TX_ASK, CRC_L, CRC_H, T_MODE, T_PRESCALER, T_RELOAD_L, VERSION = (
    0x0D, 0x14, 0x15, 0x22, 0x21, 0x2A, 0x2B, 0x2D, 0x37)


def write(chip: Mfrc522Chip, register: int, *values: int) -> None:
    chip.transfer([register << 1, *values])


def read(chip: Mfrc522Chip, register: int) -> int:
    return chip.transfer([register << 1 | READ, 0])[1]


def powered_chip() -> Mfrc522Chip:
    chip = Mfrc522Chip(SimClock())
    write(chip, T_MODE, 0x80)                    # TAuto, prescaler 0x0A9: 25 us per tick
    write(chip, T_PRESCALER, 0xA9)
    write(chip, T_RELOAD_L, 39)                  # 40 ticks: 1 ms
    write(chip, TX_ASK, 0x40)                    # Force100ASK, as ISO 14443-A wants
    write(chip, TX_CONTROL, 0x83)                # antenna on
    return chip


def transceive(chip: Mfrc522Chip, frame: bytes, last_bits: int = 0, wait: float = 0.002) -> tuple[int, bytes]:
    write(chip, COMMAND, 0x00)
    write(chip, COM_IRQ, 0x7F)
    write(chip, FIFO_LEVEL, 0x80)
    write(chip, FIFO_DATA, *frame)
    write(chip, BIT_FRAMING, last_bits)
    write(chip, COMMAND, 0x0C)
    write(chip, BIT_FRAMING, 0x80 | last_bits)
    chip.clock.sleep(wait)
    irq = read(chip, COM_IRQ)
    level = read(chip, FIFO_LEVEL)
    data = bytes(chip.transfer([FIFO_DATA << 1 | READ] * level + [0])[1:])
    return irq, data


def select_frame(card: Picc) -> bytes:
    bcc = card.uid[0] ^ card.uid[1] ^ card.uid[2] ^ card.uid[3]
    frame = bytes((0x93, 0x70)) + card.uid + bytes((bcc,))
    return frame + crc_a(frame)


# --- the register file over SPI --------------------------------------------
def test_version_register_reads_0x92_with_the_spi_address_format():
    chip = Mfrc522Chip()
    assert chip.transfer([VERSION << 1 | READ, 0]) == [0, CHIP_VERSION]
    write(chip, VERSION, 0x00)                   # read-only
    assert read(chip, VERSION) == 0x92


def test_a_burst_read_returns_one_register_per_address_byte():
    chip = Mfrc522Chip()
    write(chip, T_PRESCALER, 0x3E)
    miso = chip.transfer([VERSION << 1 | READ, T_PRESCALER << 1 | READ, VERSION << 1 | READ, 0])
    assert miso == [0, 0x92, 0x3E, 0x92]


def test_fifo_keeps_bytes_in_order_counts_them_and_flushes():
    chip = Mfrc522Chip()
    write(chip, FIFO_DATA, 1, 2, 3)              # a burst write fills the FIFO
    assert read(chip, FIFO_LEVEL) == 3
    assert [read(chip, FIFO_DATA) for _ in range(2)] == [1, 2]
    write(chip, FIFO_LEVEL, 0x80)
    assert read(chip, FIFO_LEVEL) == 0


def test_fifo_overflow_sets_buffer_overflow_error():
    chip = Mfrc522Chip()
    write(chip, FIFO_DATA, *range(65))
    assert read(chip, FIFO_LEVEL) == 64
    assert read(chip, ERROR) & 0x10


def test_irq_registers_set_and_clear_marked_bits_by_bit_7():
    chip = Mfrc522Chip()
    write(chip, COM_IRQ, 0x7F)                   # Set1 = 0: clear all
    assert read(chip, COM_IRQ) & 0x7F == 0
    write(chip, COM_IRQ, 0x81)                   # Set1 = 1: set TimerIRq
    assert read(chip, COM_IRQ) & 0x7F == 0x01


def test_every_transfer_is_recorded_with_its_bus_time():
    chip = Mfrc522Chip(spi_hz=1_000_000)
    read(chip, VERSION)
    write(chip, FIFO_DATA, 1, 2, 3)
    assert chip.transfers == [bytes((VERSION << 1 | READ, 0)), bytes((FIFO_DATA << 1, 1, 2, 3))]
    assert chip.bus_time_s == pytest.approx(48e-6)
    assert chip.clock() == pytest.approx(48e-6)


# --- CRC_A -----------------------------------------------------------------
def _crc_a_bitwise(data: bytes) -> int:
    crc = 0x6363
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0x8408 if crc & 1 else crc >> 1
    return crc


def test_crc_a_matches_iso_14443_examples():
    assert crc_a(b"\x50\x00") == b"\x57\xCD"    # HLTA
    assert crc_a(b"\x00\x00") == b"\xA0\x1E"


@given(st.binary(max_size=40))
def test_calc_crc_command_computes_crc_a(data):
    chip = Mfrc522Chip()
    write(chip, 0x11, 0x3D)                      # ModeReg: CRC preset 0x6363, as CRC_A wants
    write(chip, DIV_IRQ, 0x04)
    if data:
        write(chip, FIFO_DATA, *data)
    write(chip, COMMAND, 0x03)
    assert read(chip, DIV_IRQ) & 0x04
    value = read(chip, CRC_H) << 8 | read(chip, CRC_L)
    assert value == _crc_a_bitwise(data) == int.from_bytes(crc_a(data), "little")


# --- cards and the RF protocol ---------------------------------------------
def test_no_card_sets_timer_irq_after_the_modelled_timeout_not_before():
    chip = powered_chip()
    irq, data = transceive(chip, b"\x26", last_bits=7, wait=0.0005)
    assert irq & 0x40 and not irq & 0x21         # sent, no answer, timer still running
    chip.clock.sleep(0.001)
    assert read(chip, COM_IRQ) & 0x01
    assert data == b""


def test_reqa_is_answered_only_by_an_idle_card_and_wupa_wakes_a_halted_one():
    chip = powered_chip()
    card = chip.place(Picc.from_hex("DEADBEEF"))
    irq, atqa = transceive(chip, b"\x26", last_bits=7)
    assert irq & 0x20 and atqa == b"\x04\x00" and card.state == PiccState.READY
    irq, uid = transceive(chip, b"\x93\x20")
    assert uid == bytes.fromhex("DEADBEEF22")
    _, sak = transceive(chip, select_frame(card))
    assert sak == b"\x08" + crc_a(b"\x08") and card.state == PiccState.ACTIVE
    transceive(chip, b"\x50\x00" + crc_a(b"\x50\x00"))
    assert card.state == PiccState.HALT
    irq, _ = transceive(chip, b"\x26", last_bits=7)
    assert irq & 0x01 and not irq & 0x20         # halted cards ignore REQA
    _, atqa = transceive(chip, b"\x52", last_bits=7)
    assert atqa == b"\x04\x00" and card.state == PiccState.READY


def test_a_card_taken_away_and_put_back_is_idle_again():
    chip = powered_chip()
    card = chip.place(Picc.from_hex("DEADBEEF"))
    transceive(chip, b"\x26", last_bits=7)
    transceive(chip, b"\x93\x20")
    transceive(chip, select_frame(card))
    transceive(chip, b"\x50\x00" + crc_a(b"\x50\x00"))
    chip.take(card)
    chip.place(card)
    assert card.state == PiccState.IDLE
    assert transceive(chip, b"\x26", last_bits=7)[1] == b"\x04\x00"


def test_two_different_cards_collide_during_anticollision():
    chip = powered_chip()
    chip.place(Picc.from_hex("DEADBEEF"))
    chip.place(Picc.from_hex("DEADBE0F"))
    irq, _ = transceive(chip, b"\x26", last_bits=7)
    assert irq & 0x20 and not irq & 0x02         # same ATQA: no collision yet
    irq, _ = transceive(chip, b"\x93\x20")
    assert irq & 0x02 and read(chip, ERROR) & 0x08
    assert read(chip, 0x0E) & 0x1F == 30         # CollReg: bit 6 of byte 4 (1-based) differs first


def test_switching_the_antenna_off_resets_the_cards():
    chip = powered_chip()
    card = chip.place(Picc.from_hex("DEADBEEF"))
    transceive(chip, b"\x26", last_bits=7)
    write(chip, TX_CONTROL, 0x80)
    assert card.state == PiccState.IDLE
    irq, _ = transceive(chip, b"\x26", last_bits=7)
    assert not irq & 0x20


def test_a_chip_held_in_reset_answers_nothing_and_comes_back_reset_after_its_start_up():
    chip = powered_chip()
    chip.set_reset_line(0)
    assert chip.transfer([VERSION << 1 | READ, 0]) == [0, 0]
    chip.set_reset_line(1)                       # the oscillator starts, then 1024 / 27 MHz (8.8.3)
    assert read(chip, VERSION) == 0 and not chip.ready
    write(chip, T_PRESCALER, 0x3E)               # lost: nobody is listening yet
    chip.clock.sleep(CRYSTAL_STARTUP_S + T_DELAY_S)
    assert read(chip, VERSION) == 0x92 and read(chip, T_PRESCALER) == 0


def test_seven_byte_uid_card_answers_the_cascade():
    chip = powered_chip()
    card = chip.place(Picc.from_hex("04112233445566"))
    assert transceive(chip, b"\x52", last_bits=7)[1] == b"\x44\x00"
    _, cl1 = transceive(chip, b"\x93\x20")
    assert cl1[:4] == bytes.fromhex("88041122")
    frame = b"\x93\x70" + cl1
    _, sak = transceive(chip, frame + crc_a(frame))
    assert sak[0] & 0x04                         # UID not complete
    _, cl2 = transceive(chip, b"\x95\x20")
    assert cl2[:4] == bytes.fromhex("33445566") and card.state == PiccState.READY


# --- the mfrc522 package's own code against the model ------------------------
# Fidelity tests: the only place fake spidev/RPi.GPIO modules go into sys.modules
# (firmware_sim.fake_rpi.installed), so that a third-party client's unchanged code
# checks the chip model. The driver itself takes its SPI device and RST output as arguments.
@pytest.fixture
def board_with_card():
    board = FakeRfidBoard()
    chip = board.add_reader(device=0, reset_pin=25)
    card = chip.place(Picc.from_hex("DEADBEEF"))
    with installed(board):
        from mfrc522 import MFRC522
        yield MFRC522(bus=0, device=0, pin_mode=11, pin_rst=25), chip, card


def test_package_request_anticoll_and_select_read_the_card(board_with_card):
    reader, chip, card = board_with_card
    status, bits = reader.MFRC522_Request(reader.PICC_REQIDL)
    assert (status, bits) == (reader.MI_OK, 16)
    status, uid = reader.MFRC522_Anticoll()
    assert status == reader.MI_OK and bytes(uid) == bytes.fromhex("DEADBEEF22")
    assert reader.MFRC522_SelectTag(uid) == 0x08
    assert card.state == PiccState.ACTIVE


def test_package_reads_block_0_after_authenticating(board_with_card):
    reader, chip, card = board_with_card
    reader.MFRC522_Request(reader.PICC_REQIDL)
    _, uid = reader.MFRC522_Anticoll()
    reader.MFRC522_SelectTag(uid)
    assert reader.MFRC522_Auth(reader.PICC_AUTHENT1A, 0, [0xFF] * 6, uid) == reader.MI_OK
    assert bytes(reader.MFRC522_Read(0)[:5]) == bytes.fromhex("DEADBEEF22")


def test_package_request_without_a_card_spins_about_2000_register_reads(board_with_card):
    reader, chip, card = board_with_card
    chip.take(card)
    before = chip.transfer_count
    status, _ = reader.MFRC522_Request(reader.PICC_REQIDL)
    assert status == reader.MI_ERR
    assert chip.transfer_count - before > 2000   # why the driver polls at register level


def test_package_anticoll_with_two_cards_reports_an_error_not_a_wrong_uid(board_with_card):
    reader, chip, card = board_with_card
    chip.place(Picc.from_hex("12345678"))
    reader.MFRC522_Request(reader.PICC_REQIDL)
    status, _ = reader.MFRC522_Anticoll()
    assert status == reader.MI_ERR


def test_fake_modules_route_each_chip_select_to_its_own_chip():
    board = two_reader_board()
    board.chips[(0, 1)].place(Picc.from_hex("CAFEF00D"))
    with installed(board):
        from mfrc522 import MFRC522
        minus = MFRC522(bus=0, device=1, pin_mode=11, pin_rst=24)
        assert minus.MFRC522_Request(minus.PICC_REQIDL)[0] == minus.MI_OK
        assert bytes(minus.MFRC522_Anticoll()[1][:4]) == bytes.fromhex("CAFEF00D")
    assert board.chips[(0, 0)].air_frames == []
    assert board.gpio.history[-1][1:] == (24, 1)    # the package raised RST on GPIO24


def test_the_package_raising_rst_brings_a_pulled_down_chip_out_of_reset():
    board = FakeRfidBoard(reset_idle_level=0)    # nothing drives RST: the chip sleeps
    chip = board.add_reader(device=0, reset_pin=25)
    assert chip.in_reset
    with installed(board):
        from mfrc522 import MFRC522
        reader = MFRC522(bus=0, device=0, pin_mode=11, pin_rst=25)
        assert not chip.in_reset and reader.Read_MFRC522(VERSION) == CHIP_VERSION
        assert board.reset_lines[25].function == "output"   # RPi.GPIO and gpiozero drive one simulated pin
        board.gpio.cleanup(25)
        assert chip.in_reset                     # released: back to the pull-down


def test_installed_modules_are_removed_afterwards():
    import sys
    before = {name: sys.modules.get(name) for name in ("spidev", "RPi", "RPi.GPIO", "mfrc522")}
    with installed(two_reader_board()):
        import spidev
        assert hasattr(spidev, "SpiDev")
        assert sys.modules["spidev"] is not before["spidev"]
    assert {name: sys.modules.get(name) for name in before} == before


# --- the datasheet's timer (8.5, TModeReg/ControlReg/TCounterValReg) -------------------
T_COUNTER_H, T_COUNTER_L, DEMOD, STATUS1, STATUS2, CONTROL, COLL = 0x2E, 0x2F, 0x19, 0x07, 0x08, 0x0C, 0x0E
RX_MODE, TX_MODE, TX_SEL, WATER_LEVEL = 0x13, 0x12, 0x16, 0x0B
TICK = 339 / 13_560_000                          # prescaler 0xA9: 25 us


def counter(chip: Mfrc522Chip) -> int:
    return read(chip, T_COUNTER_H) << 8 | read(chip, T_COUNTER_L)


def start_send(chip: Mfrc522Chip, frame: bytes, last_bits: int = 0) -> None:
    write(chip, COMMAND, 0x00)
    write(chip, COM_IRQ, 0x7F)
    write(chip, FIFO_LEVEL, 0x80)
    write(chip, FIFO_DATA, *frame)
    write(chip, COMMAND, 0x0C)
    write(chip, BIT_FRAMING, 0x80 | last_bits)


def test_tauto_starts_the_timer_at_the_end_of_sending_not_at_startsend():
    chip = powered_chip()
    start_send(chip, b"\x93\x20")                # 20 bits on air: about 189 us
    assert not read(chip, STATUS1) & 0x08        # still sending: not running yet
    chip.clock.sleep(0.0002)
    assert read(chip, STATUS1) & 0x08 and counter(chip) < 39       # running since the frame ended
    chip.clock.sleep(0.0011)
    assert read(chip, COM_IRQ) & 0x01 and counter(chip) == 0 and not read(chip, STATUS1) & 0x08


def test_the_fifth_received_bit_stops_the_timer_and_tcounterval_keeps_the_rest():
    chip = powered_chip()
    chip.place(Picc.from_hex("DEADBEEF"))
    start_send(chip, b"\x52", last_bits=7)
    chip.clock.sleep(0.002)
    irq = read(chip, COM_IRQ)
    assert irq & 0x20 and not irq & 0x01         # answered; the timer never ran out
    left = counter(chip)
    assert 30 <= left < 39                       # stopped about 138 us (5-6 ticks) after sending
    chip.clock.sleep(0.01)
    assert counter(chip) == left


def test_a_timeout_shorter_than_the_cards_answer_runs_out_before_the_answer():
    """ISO 14443-3: a card answers WUPA ~91 us after the reader's frame; 5 bits later the timer would stop."""
    chip = powered_chip()
    write(chip, T_RELOAD_L, 3)                   # 4 ticks: 100 us
    chip.place(Picc.from_hex("DEADBEEF"))
    start_send(chip, b"\x52", last_bits=7)
    chip.clock.sleep(9 * 128 / 13_560_000 + 0.000105)
    irq = read(chip, COM_IRQ)
    assert irq & 0x01 and not irq & 0x20         # a driver looking now sees "no card"
    chip.clock.sleep(0.001)
    assert read(chip, COM_IRQ) & 0x20            # the answer still arrives afterwards


def test_without_tauto_the_timer_does_not_run_and_tstartnow_starts_it():
    chip = powered_chip()
    write(chip, T_MODE, 0x00)
    start_send(chip, b"\x26", last_bits=7)
    chip.clock.sleep(0.01)
    assert not read(chip, COM_IRQ) & 0x01
    write(chip, CONTROL, 0x40)                   # TStartNow
    chip.clock.sleep(40 * TICK + 1e-6)
    assert read(chip, COM_IRQ) & 0x01


def test_tautorestart_reloads_and_tprescaleven_lengthens_the_tick():
    chip = powered_chip()
    write(chip, T_MODE, 0x10)                    # TAutoRestart, prescaler 0x0A9
    write(chip, CONTROL, 0x40)
    chip.clock.sleep(40 * TICK + 1e-6)
    write(chip, COM_IRQ, 0x01)
    chip.clock.sleep(40 * TICK)
    assert read(chip, COM_IRQ) & 0x01 and read(chip, STATUS1) & 0x08    # fired again, still running
    write(chip, CONTROL, 0x80)                   # TStopNow
    assert not read(chip, STATUS1) & 0x08
    write(chip, DEMOD, 0x4D | 0x10)              # TPrescalEven: 13.56 MHz / (2 * 169 + 2)
    write(chip, T_MODE, 0x00)
    write(chip, 0x2C, 0x03)
    write(chip, T_RELOAD_L, 0xE8)                # 1001 ticks: 25.03 ms odd, 25.10 ms even
    write(chip, COM_IRQ, 0x01)
    write(chip, CONTROL, 0x40)
    chip.clock.sleep(0.02505)
    assert not read(chip, COM_IRQ) & 0x01
    chip.clock.sleep(0.0001)
    assert read(chip, COM_IRQ) & 0x01


# --- RF settings that a card needs -------------------------------------------------------
@pytest.mark.parametrize("register, value, why", [
    (TX_ASK, 0x00, "no Force100ASK: type A cards need 100 % ASK"),
    (TX_CONTROL, 0x80, "antenna off"),
    (TX_SEL, 0x00, "drivers 3-state"),
    (TX_MODE, 0x10, "sending at 212 kBd"),
    (RX_MODE, 0x20, "receiving at 424 kBd"),
])
def test_a_card_hears_nothing_without_the_rf_settings_iso_14443_a_needs(register, value, why):
    chip = powered_chip()
    chip.place(Picc.from_hex("DEADBEEF"))
    write(chip, register, value)
    irq, data = transceive(chip, b"\x52", last_bits=7)
    assert not irq & 0x20 and data == b"", why


def test_txcrcen_appends_crc_a_and_rxcrcen_checks_it():
    chip = powered_chip()
    card = chip.place(Picc.from_hex("04112233445566"))
    transceive(chip, b"\x52", last_bits=7)
    _, cl1 = transceive(chip, b"\x93\x20")
    write(chip, TX_MODE, 0x80)                   # the chip adds CRC_A to what it sends
    write(chip, RX_MODE, 0x80)                   # and checks the answer's
    irq, sak = transceive(chip, b"\x93\x70" + cl1)
    assert card.frames_heard[-1] == b"\x93\x70" + cl1 + crc_a(b"\x93\x70" + cl1)
    assert irq & 0x20 and not read(chip, ERROR) & 0x04 and sak[0] == 0x04
    write(chip, TX_MODE, 0x00)                   # anticollision frames carry no CRC ...
    irq, _ = transceive(chip, b"\x95\x20")       # ... nor do their answers: CRCErr
    assert irq & 0x02 and read(chip, ERROR) & 0x04


# --- start-up, power-down --------------------------------------------------------------
def test_soft_power_down_stops_the_field_and_waking_takes_the_oscillator_start_up():
    chip = powered_chip()
    card = chip.place(Picc.from_hex("DEADBEEF"))
    transceive(chip, b"\x52", last_bits=7)
    write(chip, COMMAND, 0x10)                   # PowerDown
    assert not chip.field_on and card.state == PiccState.IDLE
    assert read(chip, COMMAND) & 0x10
    write(chip, COMMAND, 0x00)                   # wake up: reads 1 until the oscillator is stable
    assert read(chip, COMMAND) & 0x10
    chip.clock.sleep(CRYSTAL_STARTUP_S + T_DELAY_S)
    assert not read(chip, COMMAND) & 0x10 and chip.field_on


# --- interrupt and status bits -------------------------------------------------------
def test_lo_and_hi_alert_irqs_store_the_fifo_crossing_its_water_level():
    chip = powered_chip()
    write(chip, COM_IRQ, 0x7F)
    write(chip, WATER_LEVEL, 4)
    write(chip, FIFO_DATA, *range(60))           # 4 bytes left: HiAlert
    assert read(chip, COM_IRQ) & 0x08 and read(chip, STATUS1) & 0x02
    write(chip, COM_IRQ, 0x08)
    assert not read(chip, COM_IRQ) & 0x08 and read(chip, STATUS1) & 0x02   # the IRQ stored, the level stays
    chip.transfer([FIFO_DATA << 1 | READ] * 56 + [0])                   # down to 4: LoAlert
    assert read(chip, COM_IRQ) & 0x04 and read(chip, STATUS1) & 0x01


def test_transmit_ends_with_tx_and_idle_irqs_and_transceive_stays_active():
    chip = powered_chip()
    write(chip, COM_IRQ, 0x7F)
    write(chip, FIFO_DATA, 0x50, 0x00, *crc_a(b"\x50\x00"))
    write(chip, COMMAND, 0x04)
    assert read(chip, STATUS2) & 0x07 == 3       # ModemState: transmitting
    chip.clock.sleep(0.001)
    assert read(chip, COM_IRQ) & 0x50 == 0x50 and read(chip, COMMAND) & 0x0F == 0
    irq, _ = transceive(chip, b"\x26", last_bits=7)
    assert not irq & 0x10 and read(chip, COMMAND) & 0x0F == 0x0C


def test_writing_the_fifo_while_an_answer_arrives_is_a_wrerr():
    chip = powered_chip()
    chip.place(Picc.from_hex("DEADBEEF"))
    start_send(chip, b"\x52", last_bits=7)
    chip.clock.sleep(0.00025)                    # the ATQA is on air
    write(chip, FIFO_DATA, 0x00)
    assert read(chip, ERROR) & 0x80 and read(chip, COM_IRQ) & 0x02


# --- collisions and errors ---------------------------------------------------------------
def test_collreg_gives_the_first_collided_bit_and_clears_collposnotvalid():
    chip = powered_chip()
    chip.place(Picc.from_hex("DEADBEEF"))
    chip.place(Picc.from_hex("04A1B2C3D4E5F6"))  # ATQA 0x0004 against 0x0044: bit 7 collides
    irq, data = transceive(chip, b"\x52", last_bits=7)
    assert irq & 0x22 == 0x22 and read(chip, ERROR) & 0x08
    assert read(chip, COLL) == 0x80 | 7          # ValuesAfterColl, CollPosNotValid clear, bit 7
    irq, _ = transceive(chip, b"\x52", last_bits=7)
    transceive(chip, b"\x50\x00" + crc_a(b"\x50\x00"))
    chip.cards.pop()
    transceive(chip, b"\x52", last_bits=7)
    assert read(chip, COLL) & 0x20 and not read(chip, ERROR) & 0x08   # no collision: not valid again


def test_values_after_coll_zero_clears_the_bits_after_the_collision():
    chip = powered_chip()
    chip.place(Picc.from_hex("DEADBEEF"))
    chip.place(Picc.from_hex("DEADBE0F"))
    transceive(chip, b"\x52", last_bits=7)
    write(chip, COLL, 0x00)                      # ValuesAfterColl = 0
    chip.regs[COLL] = 0x00                       # (the model keeps CollReg read-only otherwise)
    irq, data = transceive(chip, b"\x93\x20")
    assert read(chip, COLL) & 0x1F == 30
    assert data[:3] == bytes.fromhex("DEADBE") and data[3] == 0xEF & 0x1F and data[4] == 0


@pytest.mark.parametrize("kind, bit", [("parity", 0x02), ("sof", 0x01)])
def test_a_spoilt_answer_sets_parity_or_protocol_error_and_errirq(kind, bit):
    chip = powered_chip()
    chip.place(Picc.from_hex("DEADBEEF"))
    chip.disturb(kind)
    irq, _ = transceive(chip, b"\x52", last_bits=7)
    assert irq & 0x22 == 0x22 and read(chip, ERROR) & bit
    irq, _ = transceive(chip, b"\x52", last_bits=7)          # the next answer is clean again
    assert not read(chip, ERROR) & 0x1F


def test_rxnoerr_ignores_a_frame_without_a_valid_start():
    chip = powered_chip()
    chip.place(Picc.from_hex("DEADBEEF"))
    write(chip, RX_MODE, 0x08)
    chip.disturb("sof")
    irq, _ = transceive(chip, b"\x52", last_bits=7)
    assert not irq & 0x20 and irq & 0x01         # nothing received: the timer runs out


def test_a_card_answers_after_iso_14443_3s_frame_delay_which_depends_on_the_last_bit():
    from firmware_sim.picc import frame_delay_s

    assert frame_delay_s(b"\x26", 7) == pytest.approx(1172 / 13_560_000)   # REQA ends in a 0
    assert frame_delay_s(b"\x52", 7) == pytest.approx(1236 / 13_560_000)   # WUPA ends in a 1
    assert frame_delay_s(b"\x93\x20") == pytest.approx(1172 / 13_560_000)  # 0x20's (odd) parity bit is 0
