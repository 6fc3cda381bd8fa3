"""The OLED driver on a simulated SSD1306 / SH1106: what reaches the panel, how many bytes it costs, and bus faults."""

from __future__ import annotations

import pytest
from luma.core.interface.serial import i2c, noop
from PIL import ImageChops

from banker.errors import BankerError
from banker.events import CardPlaced, KeyDown
from banker.screen import Screen
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
