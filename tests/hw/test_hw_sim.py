"""The hw-sim backend: every keypad script gives the same result through the real drivers on simulated chips.

Also ``banker run``, ``banker doctor`` and the device config, on simulated
chips and (for the clear failures) on this machine, which is not a Pi.
"""

import json
import threading
from pathlib import Path

import pytest

from runtime.config import parse_config
from banker.errors import ConfigError
from banker.script.syntax import parse
from banker.script.run import run
from runtime.ledger import SqliteLedger
from runtime.script_shell import CoreBackend
from firmware_sim.hw_sim_backend import HwSimBackend
from tests.cli.support import banker

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = sorted((ROOT / "tests" / "scripts").glob("*.kps")) + sorted((ROOT / "examples").glob("*.kps"))


def outcome(backend_class, path):
    with SqliteLedger(":memory:") as ledger:
        backend = backend_class(ledger)
        try:
            failure = run(parse(path.read_text()), backend)
            return str(failure), ledger.game().balances_by_name(), backend.screen_lines(), ledger.game().id
        finally:
            getattr(backend, "close", lambda: None)()


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.name)
def test_every_script_gives_the_same_result_through_the_drivers(path):
    core = outcome(CoreBackend, path)
    hw = outcome(HwSimBackend, path)
    assert hw == core
    assert hw[0] == "None"



def test_script_backend_option_and_json():
    result = banker("script", ROOT / "examples" / "first-game.kps", "--backend", "hw-sim", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output.splitlines()[-1])["balances"]["Bob"] == 16_940_000


def test_the_display_on_the_bus_shows_what_the_unit_shows():
    from render import render_image
    from PIL import ImageChops

    with SqliteLedger(":memory:") as ledger:
        hw = HwSimBackend(ledger)
        try:
            hw.enrol("Alice", "DEADBEEF")
            hw.insert("left", "Alice")
            for key in "1.5":
                hw.press(key)
            panel = hw.hw.oled.image().convert("1")
            assert ImageChops.logical_xor(panel, render_image(hw.shell.screen)).getbbox() is None
            hw.press("M")
            hw.device.buzzer.drain()
            assert hw.hw.piezo.notes()  # the buzzer played
        finally:
            hw.close()


def test_doctor_on_simulated_chips_finds_every_device():
    result = banker("doctor", "--backend", "hw-sim")
    assert result.exit_code == 0, result.output
    for part in ("readers", "keypad", "display", "buzzer"):
        assert f"ok    {part}" in result.output


def test_doctor_and_run_off_a_pi_say_what_is_missing(tmp_path):
    result = banker("doctor")
    assert result.exit_code == 1
    assert "FAIL  readers" in result.output and "I2C" in result.output
    result = banker("run", "--db", tmp_path / "l.db")
    assert result.exit_code == 3
    assert "the unit can't start" in result.output


def test_run_on_simulated_chips_starts_and_stops(tmp_path):
    result = banker("run", "--backend", "hw-sim", "--seconds", "0.5", "--db", tmp_path / "l.db")
    assert result.exit_code == 0, result.output
    assert "running on hw-sim" in result.output and "stopped" in result.output


def test_a_one_reader_build(tmp_path):
    config = tmp_path / "one.toml"
    config.write_text("[readers.right]\ndevice = 0\nreset_pin = 25\n")
    script = tmp_path / "s.kps"
    script.write_text("enrol Bob\ninsert right Bob\npress 1 M\nexpect balance Bob 14M\n")
    result = banker("script", script, "--backend", "hw-sim", "--config", config)
    assert result.exit_code == 0, result.output
    script.write_text("enrol Bob\ninsert left Bob\n")
    result = banker("script", script, "--backend", "hw-sim", "--config", config)
    assert result.exit_code == 2 and "no left reader" in result.output


@pytest.mark.parametrize(
    "text, message",
    [("[display\n", "not valid TOML"), ("[speaker]\n", "unknown section [speaker]"),
     ("[display]\nchip = 'ili9341'\n", "display.chip must be one of"), ("[keypad]\nrows = [1, 2]\n", "keypad.rows"),
     ("[buzzer]\npin = 5\n", "GPIO5 is given to two devices"), ("[unit]\nsleep_after = 'soon'\n", "unit.sleep_after"),
     ("[readers]\nkind = 'rdm6300'\n", "readers.left.url is needed"), ("[display]\nbrightness = 3\n", "unknown setting display.brightness"),
     ("[house_rules]\nstart_balance = 'lots'\n", "house_rules.start_balance")],
)
def test_bad_configs_are_named(text, message):
    with pytest.raises(ConfigError, match=message.replace("[", r"\[").replace("]", r"\]")):
        parse_config(text)


def test_a_bad_config_exits_2_on_the_command_line(tmp_path):
    config = tmp_path / "c.toml"
    config.write_text("[display]\nchip = 'ili9341'\n")
    result = banker("doctor", "--config", config)
    assert result.exit_code == 2 and "display.chip" in result.output
    assert banker("doctor", "--config", tmp_path / "missing.toml").exit_code == 2


def test_the_example_config_is_valid():
    config = parse_config((ROOT / "docs" / "banker.example.toml").read_text())
    assert config.display.chip == "sh1106" and [r.slot for r in config.readers] == ["left", "right"]


def test_script_over_the_serial_test_port():
    """``banker script --port``: the client in another thread, the device's unit owned by this one."""
    import time

    from drivers.serial_port import SerialTestPort
    from firmware_sim.serial_backend import CoreTarget, NullModem

    with SqliteLedger(":memory:") as ledger, NullModem() as cable, \
            SerialTestPort(cable.device_url, CoreTarget(ledger)) as device:
        result = {}
        worker = threading.Thread(target=lambda: result.update(
            r=banker("script", ROOT / "examples" / "first-game.kps", "--port", cable.client_url)))
        worker.start()
        deadline = time.monotonic() + 60
        while worker.is_alive() and time.monotonic() < deadline:
            device.poll()
            time.sleep(0.0005)
        worker.join(1)
        assert ledger.game().balances_by_name()["Bob"] == 16_940_000
    assert result["r"].exit_code == 0, result["r"].output


@pytest.mark.parametrize("name", ["rules-buy.kps", "rules-mortgages.kps", "two-cards.kps"])
def test_rules_scripts_over_the_serial_test_port(name):
    """Deed steps, ``stack`` and expectations travel over the port too."""
    import time

    from drivers.serial_port import SerialTestPort
    from firmware_sim.serial_backend import CoreTarget, NullModem

    with SqliteLedger(":memory:") as ledger, NullModem() as cable, \
            SerialTestPort(cable.device_url, CoreTarget(ledger)) as device:
        result = {}
        worker = threading.Thread(target=lambda: result.update(
            r=banker("script", ROOT / "tests" / "scripts" / name, "--port", cable.client_url)))
        worker.start()
        deadline = time.monotonic() + 60
        while worker.is_alive() and time.monotonic() < deadline:
            device.poll()
            time.sleep(0.0005)
        worker.join(1)
    assert result["r"].exit_code == 0, result["r"].output


def test_two_cards_laid_through_the_chips_show_and_pay_nothing_until_taken_away():
    """``stack`` lays both tags in the chip model's field: the real driver meets the collision itself."""
    with SqliteLedger(":memory:") as ledger:
        hw = HwSimBackend(ledger)
        try:
            hw.enrol("Alice", "DEADBEEF")
            hw.enrol("Bob", "04A1B2C3D4E5F6")
            hw.insert("left", "Alice")
            hw.stack("left", "Bob")
            assert len(hw.hw.chips["left"].cards) == 2
            assert "Two cards on +" in " ".join(hw.screen_lines())
            for key in "5M":
                hw.press(key)
            assert ledger.game().balances_by_name() == {"Alice": 15_000_000, "Bob": 15_000_000}
            hw.remove("left")
            assert hw.hw.chips["left"].cards == [] and hw.shell.panel.faults == ()   # the reader reads again
            hw.insert("left", "Alice")
            for key in "C5M":
                hw.press(key)
            assert ledger.game().balances_by_name()["Alice"] == 20_000_000
        finally:
            hw.close()


def test_a_reader_chip_that_stops_answering_is_shown_and_reads_again_when_it_is_back():
    with SqliteLedger(":memory:") as ledger:
        hw = HwSimBackend(ledger)
        try:
            hw.enrol("Alice", "DEADBEEF")
            hw.insert("left", "Alice")
            hw.hw.chips["left"].set_reset_line(0)         # its RST wire comes loose
            hw.wait(0.2)
            assert "Reader + not answering" in " ".join(hw.screen_lines())
            hw.hw.chips["left"].set_reset_line(1)         # and back: the driver sets the chip up again
            hw.wait(0.5)
            assert "Alice" in " ".join(hw.screen_lines())
            for key in "2M":
                hw.press(key)
            assert ledger.game().balances_by_name()["Alice"] == 17_000_000
        finally:
            hw.close()
