"""Chip models checked by code nobody here wrote: pi-rc522 reads cards from the MFRC522 model, Adafruit's
CircuitPython SSD1306 driver draws on the OLED model, and the decoded pixels equal its own framebuffer.

Each client's unchanged code runs against the same fake buses the drivers use. The
fake modules they import (``spidev``/``RPi.GPIO`` for pi-rc522, ``micropython`` for
Adafruit's driver) go into ``sys.modules`` in these tests alone and are taken out
afterwards. A disagreement between a client and a model fails the build: the
packages are test dependencies (``pi-rc522``, ``adafruit-circuitpython-ssd1306``
with its ``framebuf`` and ``busdevice`` packages), never skipped.
"""

from __future__ import annotations

import sys
from types import ModuleType

import pytest
from PIL import Image

from drivers.rfid_spi import Mfrc522Reader, reset_output
from firmware_sim.display_sim import I2cBus, OledChip
from firmware_sim.fake_rpi import FakeRfidBoard, installed, two_reader_board
from firmware_sim.mfrc522_chip import Picc, PiccState


# --- pi-rc522 on the MFRC522 model ----------------------------------------------------
@pytest.fixture
def pirc522_board():
    """A board with the + reader (CE0, RST on GPIO25 = header pin 22, pi-rc522's default) and pi-rc522 on it."""
    board = FakeRfidBoard()
    chip = board.add_reader(device=0, reset_pin=25)
    with installed(board):
        from pirc522 import RFID
        yield RFID(bus=0, device=0, pin_irq=None), chip, board


def test_pirc522_reads_a_four_byte_uid(pirc522_board):
    rfid, chip, _ = pirc522_board
    chip.place(Picc.from_hex("DEADBEEF"))
    assert rfid.read_id() == list(bytes.fromhex("DEADBEEF"))


def test_pirc522_reads_a_seven_byte_uid_through_the_cascade(pirc522_board):
    rfid, chip, _ = pirc522_board
    card = chip.place(Picc.from_hex("04A1B2C3D4E5F6"))
    assert rfid.read_id() == list(bytes.fromhex("04A1B2C3D4E5F6"))
    assert card.state == PiccState.READY         # it selected cascade level 1 and read level 2


def test_pirc522_sees_no_card_when_none_lies_there(pirc522_board):
    rfid, chip, _ = pirc522_board
    assert rfid.read_id() is None
    assert chip.air_frames[-1] == b"\x26"        # it asked with REQA and heard nothing


def test_pirc522_selects_authenticates_and_halts_like_on_a_card(pirc522_board):
    rfid, chip, _ = pirc522_board
    card = chip.place(Picc.from_hex("CAFEF00D"))
    assert rfid.request() == (False, 16)         # ATQA: 16 bits
    error, uid = rfid.anticoll()
    assert not error and bytes(uid) == bytes.fromhex("CAFEF00D") + bytes((0xCA ^ 0xFE ^ 0xF0 ^ 0x0D,))
    assert rfid.select_tag(uid) is False and card.state == PiccState.ACTIVE
    assert rfid.card_auth(rfid.auth_a, 0, [0xFF] * 6, uid) is False
    assert rfid.read(0)[1][:4] == list(bytes.fromhex("CAFEF00D"))
    rfid.halt()                                  # pi-rc522 2.3.0 computes HLTA's CRC but does not send it:
    assert chip.air_frames[-1] == b"\x50\x00"    # the card takes a broken frame, and ISO 14443-3 sends it
    assert card.state == PiccState.IDLE          # back to IDLE, not HALT ...
    assert rfid.read_id() == list(bytes.fromhex("CAFEF00D"))   # ... so it answers REQA again, as a real card does


def test_pirc522_reports_two_cards_as_an_error_not_a_wrong_uid(pirc522_board):
    rfid, chip, _ = pirc522_board
    chip.place(Picc.from_hex("DEADBEEF"))
    chip.place(Picc.from_hex("04A1B2C3D4E5F6"))  # their ATQAs collide already
    assert rfid.read_id() is None


def test_pirc522_and_the_driver_read_the_same_uids_from_the_same_chips():
    board = two_reader_board()
    board.chips[(0, 0)].place(Picc.from_hex("04112233445566"))
    board.chips[(0, 1)].place(Picc.from_hex("CAFEF00D"))
    with installed(board):
        from pirc522 import RFID
        theirs = [bytes(RFID(bus=0, device=d, pin_rst=pin, pin_irq=None).read_id()).hex().upper()
                  for d, pin in ((0, 22), (1, 18))]  # header pins 22 and 18: GPIO25 and GPIO24
    ours = []
    for device, pin in ((0, 25), (1, 24)):
        with Mfrc522Reader(board.spi(0, device), reset_output(pin, pin_factory=board.pin_factory),
                           sleep=board.clock.sleep, clock=board.clock) as reader:
            ours.append(reader.poll())
    assert theirs == ours == ["04112233445566", "CAFEF00D"]


def test_pirc522_without_100_percent_ask_reads_nothing():
    """A client that forgot Force100ASK reads nothing here, as on the device."""
    board = FakeRfidBoard()
    chip = board.add_reader(device=0, reset_pin=25)
    chip.place(Picc.from_hex("DEADBEEF"))
    with installed(board):
        from pirc522 import RFID
        rfid = RFID(bus=0, device=0, pin_irq=None)
        rfid.dev_write(0x15, 0x00)               # TxASKReg: no Force100ASK
        assert rfid.read_id() is None
        rfid.dev_write(0x15, 0x40)
        assert rfid.read_id() == list(bytes.fromhex("DEADBEEF"))


# --- Adafruit's CircuitPython SSD1306 driver on the OLED model ------------------------
@pytest.fixture
def adafruit_ssd1306(monkeypatch):
    """``adafruit_ssd1306`` imported with fake ``micropython``/``busio``/``digitalio`` modules, for this test alone."""
    fakes = {name: ModuleType(name, "Fake for Adafruit's driver, in this test alone (no Blinka).")
             for name in ("micropython", "busio", "digitalio", "circuitpython_typing")}
    fakes["micropython"].const = lambda value: value          # what Blinka's micropython module gives
    fakes["busio"].I2C = I2cBus                               # the bus the driver is handed
    fakes["busio"].SPI = object                               # (only named in annotations)
    fakes["digitalio"].DigitalInOut = object                  # no reset pin is wired
    fakes["circuitpython_typing"].ReadableBuffer = fakes["circuitpython_typing"].WriteableBuffer = bytes
    for name, module in fakes.items():
        monkeypatch.setitem(sys.modules, name, module)
    for name in ("adafruit_ssd1306", "adafruit_framebuf", "adafruit_bus_device",
                 "adafruit_bus_device.i2c_device", "adafruit_bus_device.spi_device"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    import adafruit_ssd1306
    yield adafruit_ssd1306
    for name in ("adafruit_ssd1306", "adafruit_framebuf"):
        sys.modules.pop(name, None)


def framebuffer_image(display) -> Image.Image:
    """The Adafruit driver's own framebuffer as a picture (its ``pixel()`` reads it back)."""
    picture = Image.new("1", (display.width, display.height), 0)
    for y in range(display.height):
        for x in range(display.width):
            if display.pixel(x, y):
                picture.putpixel((x, y), 1)
    return picture


def wrong_pixels(a: Image.Image, b: Image.Image) -> int:
    return sum(1 for pa, pb in zip(a.convert("1").tobytes(), b.convert("1").tobytes()) for bit in range(8)
               if (pa ^ pb) >> bit & 1)


def draw_test_card(display) -> None:
    display.fill(0)
    display.rect(0, 0, 128, 64, 1)
    display.fill_rect(4, 4, 30, 12, 1)
    display.line(0, 63, 127, 0, 1)
    for x in range(40, 120, 3):
        display.pixel(x, 20 + x % 17, 1)
    display.hline(10, 40, 100, 1)
    display.vline(64, 2, 60, 1)


def test_adafruit_draws_and_the_decoded_pixels_equal_its_framebuffer(adafruit_ssd1306):
    chip = OledChip("ssd1306")
    display = adafruit_ssd1306.SSD1306_I2C(128, 64, I2cBus(chip), addr=0x3C)
    assert chip.on and chip.unsupported == []    # every byte it sent is an SSD1306 command
    draw_test_card(display)
    display.show()
    assert wrong_pixels(chip.image(), framebuffer_image(display)) == 0
    assert chip.image().getbbox() is not None


def test_adafruit_sends_commands_one_per_transaction_and_the_model_keeps_their_arguments(adafruit_ssd1306):
    chip = OledChip("ssd1306")
    display = adafruit_ssd1306.SSD1306_I2C(128, 64, I2cBus(chip))
    commands = [body for kind, body in chip.log if kind == "command"]
    assert all(len(body) == 1 for body in commands)      # 0x80 control byte, one command byte
    assert (0x81, 0xFF) in chip.commands and (0xA8, 63) in chip.commands   # arguments from later writes
    display.contrast(0x20)
    assert chip.contrast == 0x20


def test_adafruit_invert_rotate_and_power_reach_the_picture(adafruit_ssd1306):
    chip = OledChip("ssd1306")
    display = adafruit_ssd1306.SSD1306_I2C(128, 64, I2cBus(chip))
    draw_test_card(display)
    display.show()
    expected = framebuffer_image(display)
    display.invert(True)
    assert wrong_pixels(chip.image(), expected.point(lambda v: 0 if v else 1)) == 0
    display.invert(False)
    display.rotate(False)                        # A0 and C0: the module shows it upside down
    assert wrong_pixels(chip.image(), expected.rotate(180)) == 0
    display.rotate(True)
    assert wrong_pixels(chip.image(), expected) == 0
    display.poweroff()
    assert chip.lit().getbbox() is None
    display.poweron()
    assert wrong_pixels(chip.lit(), expected) == 0


def test_luma_and_adafruit_agree_on_the_same_picture(adafruit_ssd1306):
    from luma.core.interface.serial import i2c
    from luma.oled.device import ssd1306

    theirs, ours = OledChip("ssd1306"), OledChip("ssd1306")
    display = adafruit_ssd1306.SSD1306_I2C(128, 64, I2cBus(theirs))
    draw_test_card(display)
    display.show()
    picture = framebuffer_image(display)
    device = ssd1306(i2c(bus=I2cBus(ours), address=0x3C), width=128, height=64)
    device.display(picture.convert("1"))
    assert wrong_pixels(theirs.image(), ours.image()) == 0
