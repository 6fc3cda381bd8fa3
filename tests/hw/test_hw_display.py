"""The OLED driver on a simulated SSD1306 / SH1106: what reaches the panel, how many bytes it costs, and bus faults."""

from __future__ import annotations

import pytest
from luma.core.interface.serial import i2c, noop
from PIL import Image, ImageChops

from banker.errors import BankerError
from banker.unit.events import CardPlaced, KeyDown
from banker.unit.screen import Screen
from drivers.display import FRAME_BYTES, OledDisplay
from drivers.errors import DeviceMissing
from runtime.ledger import SqliteLedger
from render import render_image
from runtime.shell import Shell
from firmware_sim.display_sim import OledChip, SmbusBus

CHIPS = ["ssd1306", "sh1106"]

IDLE = Screen(lines=("Monopoly Bank", "Insert a card", "+ left  - right"))
ALICE = Screen(lines=("+ Alice", "15M", "Bank pays Alice"), big=1, left=True)
REFUSED = Screen(lines=("Refused", "Bob short 500K", "Balance 1M"), error=True, right=True, volume=3)


def typing(amount: str) -> Screen:
    return Screen(lines=("Bank pays Alice", amount, "then M or K"), big=1, left=True)


def same_picture(chip: OledChip, screen: Screen) -> bool:
    return ImageChops.difference(chip.image(), render_image(screen)).getbbox() is None


@pytest.fixture(params=CHIPS)
def panel(request):
    chip = OledChip(request.param)
    with OledDisplay(chip=request.param, interface=chip) as display:
        yield chip, display


def test_start_up_switches_the_panel_on_blank_with_the_contrast(panel):
    chip, _ = panel
    assert chip.on
    assert chip.contrast == 0xCF
    assert chip.image().getbbox() is None


@pytest.mark.parametrize("screen", [IDLE, ALICE, REFUSED, typing("1.234")])
def test_the_bytes_on_the_bus_decode_back_to_the_rendered_frame(panel, screen):
    chip, display = panel
    display.show(screen)
    assert same_picture(chip, screen)


def test_a_sequence_of_screens_sent_as_changes_still_ends_in_the_right_picture(panel):
    chip, display = panel
    for screen in (IDLE, ALICE, typing("1"), typing("1."), typing("1.5"), REFUSED, ALICE):
        display.show(screen)
        assert same_picture(chip, screen)


def test_typing_a_digit_sends_far_fewer_bytes_than_a_full_frame(panel):
    chip, display = panel
    display.show(typing("1.2"))
    chip.reset_counters()
    display.show(typing("1.23"))
    sent = chip.reset_counters()
    assert sent.data_bytes < FRAME_BYTES * 0.3
    assert sent.wire_bytes < FRAME_BYTES * 0.3


def test_the_same_screen_again_sends_nothing(panel):
    chip, display = panel
    display.show(ALICE)
    chip.reset_counters()
    display.show(ALICE)
    assert chip.counters.transactions == 0


def test_sleep_sends_display_off_and_wake_shows_the_kept_picture(panel):
    chip, display = panel
    display.show(ALICE)
    chip.reset_counters()
    display.power(False)
    assert chip.log[-1] == ("command", bytes([0xAE]))
    assert chip.counters.payload_bytes == 1
    assert chip.lit().getbbox() is None
    display.power(True)
    assert chip.log[-1] == ("command", bytes([0xAF]))
    assert ImageChops.difference(chip.lit(), render_image(ALICE)).getbbox() is None


def test_contrast_reaches_the_panel(panel):
    chip, display = panel
    display.contrast(0x20)
    assert chip.contrast == 0x20
    with pytest.raises(ValueError):
        display.contrast(300)


def test_an_i2c_error_mid_game_is_survived_and_the_next_frame_repairs_the_panel(panel):
    chip, display = panel
    display.show(ALICE)
    chip.fail_next(1)
    display.show(typing("1"))                 # must not raise
    assert display.failed and display.errors == 1
    display.show(typing("1."))
    assert not display.failed
    assert same_picture(chip, typing("1."))


def test_retry_resends_the_last_screen_without_waiting_for_a_change(panel):
    chip, display = panel
    chip.unplug()
    display.show(REFUSED)
    display.power(False)
    assert display.failed
    chip.plug()
    assert display.retry()
    assert same_picture(chip, REFUSED)
    assert not chip.on                        # the sleep that failed was carried out too


def test_a_unit_keeps_running_through_a_loose_display_wire():
    chip = OledChip("ssd1306")
    with SqliteLedger(":memory:") as ledger, OledDisplay(interface=chip) as display:
        ledger.enrol("Alice", "A1")
        shell = Shell(ledger, display=display)
        shell.handle(CardPlaced("left", "A1", 1.0))
        chip.unplug()
        shell.handle(KeyDown("5", 2.0))          # the frame fails on the bus
        chip.plug()
        shell.handle(KeyDown("0", 3.0))
        assert display.failed is False
        assert same_picture(chip, shell.screen)
        assert shell.screen.shows("50")


def test_through_lumas_own_i2c_code_on_an_smbus_the_picture_and_faults_are_the_same():
    chip = OledChip("ssd1306")
    with OledDisplay(interface=i2c(bus=SmbusBus(chip), address=0x3C)) as display:
        display.show(ALICE)
        assert same_picture(chip, ALICE)
        chip.fail_next(1)
        display.show(REFUSED)                 # luma turns the EIO into DeviceNotFoundError
        assert display.failed
        display.show(IDLE)
        assert same_picture(chip, IDLE)


def test_lumas_noop_interface_works_for_a_headless_run():
    with OledDisplay(interface=noop()) as display:
        display.show(ALICE)
        display.power(False)
        assert not display.failed


def test_a_missing_i2c_bus_says_what_to_enable():
    with pytest.raises(DeviceMissing) as caught:
        OledDisplay(port=99)
    assert isinstance(caught.value, BankerError) and isinstance(caught.value, OSError)
    assert "/dev/i2c-99" in str(caught.value) and "raspi-config" in str(caught.value)


def test_a_display_that_does_not_answer_names_its_address():
    chip = OledChip("sh1106")
    chip.unplug()
    with pytest.raises(DeviceMissing, match="0x3C"):
        OledDisplay(chip="sh1106", interface=chip)


def test_close_blanks_and_switches_off_the_panel(panel):
    chip, display = panel
    display.show(ALICE)
    display.close()
    assert not chip.on and chip.cleaned_up
    assert chip.image().getbbox() is None


def test_an_unknown_controller_is_refused():
    with pytest.raises(ValueError, match="ssd1306"):
        OledDisplay(chip="st7735", interface=OledChip())


# --- the controller as a byte-stream decoder -------------------------------------------
def test_arguments_that_come_in_later_transactions_are_still_the_commands_arguments():
    chip = OledChip("ssd1306")
    for byte in (0x81, 0x40, 0x20, 0x00, 0x21, 0x10, 0x1F, 0x22, 0x02, 0x03):
        chip.command(byte)                       # one byte a transaction, as Adafruit's driver sends them
    assert chip.contrast == 0x40 and chip.mode == 0
    assert chip.window == (0x10, 0x1F, 2, 3) and chip.start_line == 0 and chip.unsupported == []


def test_scroll_commands_are_skipped_with_their_arguments():
    chip = OledChip("ssd1306")
    chip.command(0x26, 0x00, 0x00, 0x00, 0x07, 0x00, 0xFF, 0x2F)   # right scroll set-up, activate
    chip.command(0xA3, 0x00, 0x40, 0x2E)                             # vertical area, deactivate
    assert chip.start_line == 0 and chip.column == 0 and not chip.scrolling
    assert [c[0] for c in chip.commands] == [0x26, 0x2F, 0xA3, 0x2E]


def test_an_sh1106_reports_the_ssd1306_window_commands_it_lacks():
    chip = OledChip("sh1106")
    chip.command(0x21, 0x00, 0x7F)               # no such command: 0x00 and 0x7F are commands of their own
    assert chip.unsupported == [0x21]
    assert chip.start_line == 0x3F               # 0x7F: display start line 63, as the real chip would take it
    with OledDisplay(chip="sh1106", interface=OledChip("sh1106")) as display:
        display.show(ALICE)
        display.show(typing("1"))
        assert not {0x21, 0x22} & set(display.interface.unsupported)   # the driver pages it instead


def test_the_picture_follows_remap_scan_direction_start_line_offset_and_invert():
    chip = OledChip("ssd1306")
    with OledDisplay(interface=chip) as display:
        display.show(ALICE)
        upright = render_image(ALICE)
        chip.command(0xA0, 0xC0)                 # segment remap off, COM scan normal: upside down
        assert ImageChops.difference(chip.image(), upright.rotate(180)).getbbox() is None
        chip.command(0xA1, 0xC8, 0x48)           # upright again, start line 8: the picture moves up a page
        shifted = Image.new("1", (128, 64), 0)
        shifted.paste(upright.crop((0, 8, 128, 64)), (0, 0))
        shifted.paste(upright.crop((0, 0, 128, 8)), (0, 56))
        assert ImageChops.logical_xor(chip.image(), shifted).getbbox() is None
        chip.command(0x40, 0xD3, 8)              # the display offset does the same
        assert ImageChops.logical_xor(chip.image(), shifted).getbbox() is None
        chip.command(0xD3, 0, 0xA7)              # inverted
        assert ImageChops.logical_xor(chip.image(), upright).getbbox() == (0, 0, 128, 64)
        chip.command(0xA6, 0xA5)                 # entire display on ignores RAM
        assert chip.image().getextrema() == (1, 1)
        chip.command(0xA4)
        assert same_picture(chip, ALICE)


def test_vertical_addressing_fills_columns_top_to_bottom():
    chip = OledChip("ssd1306")
    chip.command(0x20, 0x01, 0x21, 0, 1, 0x22, 0, 7)
    chip.data(bytes(range(1, 17)))
    assert [chip.ram[p * 128] for p in range(8)] == list(range(1, 9))
    assert [chip.ram[p * 128 + 1] for p in range(8)] == list(range(9, 17))


@pytest.mark.parametrize("chip_name", ["ssd1306", "sh1106"])
def test_data_written_in_runs_lands_in_ram_as_it_would_byte_by_byte(chip_name):
    import random

    rng = random.Random(19)
    setups = [(0x20, 0x00, 0x21, 5, 20, 0x22, 1, 3), (0x20, 0x00, 0x21, 100, 127, 0x22, 6, 7),
              (0x20, 0x00, 0x21, 30, 10, 0x22, 5, 2),      # a window backwards: the chip's own odd walk
              (0x20, 0x02, 0xB3, 0x0E, 0x17), (0x20, 0x02, 0xB7, 0x03, 0x18),   # page mode, near the page's end
              (0x20, 0x02, 0xB2, 0x18, 0x0F),           # the SH1106's column 143: past its RAM
              (0x20, 0x01, 0x21, 0, 3, 0x22, 0, 7)]
    for setup in setups:
        by_runs, by_bytes = OledChip(chip_name), OledChip(chip_name)
        for chip in (by_runs, by_bytes):
            chip.command(*setup)
        for _ in range(6):
            data = bytes(rng.randrange(256) for _ in range(rng.choice([1, 7, 40, 200, 700])))
            by_runs.data(data)
            for byte in data:                     # the model's one-byte step, the reference
                by_bytes._write(byte)
            assert (by_runs.ram, by_runs.page, by_runs.column) == (by_bytes.ram, by_bytes.page, by_bytes.column)


def test_adafruit_style_i2c_framing_with_a_control_byte_before_each_command():
    from firmware_sim.display_sim import I2cBus

    chip = OledChip("ssd1306")
    bus = I2cBus(chip)
    for byte in (0x20, 0x00, 0x21, 0, 127, 0x22, 0, 7, 0xAF):
        bus.writeto(0x3C, bytes((0x80, byte)))   # Co = 1, D/C# = 0: one command byte
    bus.writeto(0x3C, bytes((0x40,)) + bytes([0xFF] * 128))   # Co = 0, D/C# = 1: a data stream
    assert chip.on and chip.ram[:128] == bytes([0xFF] * 128) and chip.counters.transactions == 10


def test_lumas_sh1106_start_up_sends_two_commands_the_sh1106_lacks_and_no_harm_comes_of_it():
    from luma.oled.device import sh1106

    chip = OledChip("sh1106")
    sh1106(chip)
    assert chip.unsupported == [0x20, 0x8D]      # SSD1306 memory mode and charge pump
    assert chip.on and chip.image().getbbox() is None
