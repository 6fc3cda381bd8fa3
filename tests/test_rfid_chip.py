"""The MFRC522 chip model behaves like the datasheet, and the mfrc522 package's own code reads cards from it."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from firmware_sim.fake_rpi import FakeRfidBoard, installed, two_reader_board
from firmware_sim.mfrc522_chip import (
    CHIP_VERSION, Mfrc522Chip, Picc, PiccState, SimClock, crc_a,
)

READ, COMMAND, COM_IRQ, DIV_IRQ, ERROR, FIFO_DATA, FIFO_LEVEL = 0x80, 0x01, 0x04, 0x05, 0x06, 0x09, 0x0A
BIT_FRAMING, TX_CONTROL, CRC_L, CRC_H, T_MODE, T_PRESCALER, T_RELOAD_L, VERSION = (
    0x0D, 0x14, 0x22, 0x21, 0x2A, 0x2B, 0x2D, 0x37)


def write(chip: Mfrc522Chip, register: int, *values: int) -> None:
    chip.transfer([register << 1, *values])


def read(chip: Mfrc522Chip, register: int) -> int:
    return chip.transfer([register << 1 | READ, 0])[1]


def powered_chip() -> Mfrc522Chip:
    chip = Mfrc522Chip(SimClock())
    write(chip, T_MODE, 0x80)                    # TAuto, prescaler 0x0A9: 25 us per tick
    write(chip, T_PRESCALER, 0xA9)
    write(chip, T_RELOAD_L, 39)                  # 40 ticks: 1 ms
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


def test_a_chip_held_in_reset_answers_nothing_and_comes_back_reset():
    chip = powered_chip()
    chip.set_reset_line(0)
    assert chip.transfer([VERSION << 1 | READ, 0]) == [0, 0]
    chip.set_reset_line(1)
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
