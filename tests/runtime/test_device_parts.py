"""The unit's devices as `banker doctor` and `banker run` open them: RDM6300 readers and the serial test port over
pyserial's loop://, a part that fails to close, and the sentences that say why no GPIO library works."""

from __future__ import annotations

from dataclasses import replace

import pytest
import serial

import runtime.device
from banker.errors import ConfigError
from drivers.errors import DeviceMissing
from firmware_sim.hw_sim import SimulatedHardware
from runtime.config import Config
from runtime.device import Device, PiHardware, doctor, gpio_unavailable, named_pin_factory, open_device


class LoopHardware(SimulatedHardware):
    """The simulated chips, with pyserial's own serial_for_url (loop://: what is written is read back)."""

    def serial_for_url(self):
        return serial.serial_for_url


def rdm6300(**changes) -> Config:
    base = Config()
    return replace(base, reader_kind="rdm6300", readers=tuple(replace(r, url="loop://") for r in base.readers),
                   **changes)


def test_rdm6300_readers_over_a_serial_url_answer_in_doctor():
    config = rdm6300()
    with LoopHardware(config) as hw:
        lines = {name: (ok, text) for name, ok, text in doctor(config, hw, simulated=True)}
    assert lines["readers"] == (True, "Two RDM6300 (125 kHz) readers answer: left (+) is empty and right (-) is empty.")


def test_the_unit_opens_with_rdm6300_readers_and_closes_them():
    config = rdm6300()
    with LoopHardware(config) as hw, open_device(config, hw) as device:
        assert device.slots is not None and device.problems == []


def test_the_serial_test_port_is_opened_and_a_bad_url_said_in_a_sentence():
    config = replace(Config(), serial_url="loop://")
    with LoopHardware(config) as hw:
        lines = {name: (ok, text) for name, ok, text in doctor(config, hw, simulated=True)}
    assert lines["serial test port"] == (True, "loop:// opens at 115200 baud.")
    config = replace(Config(), serial_url="nosuchscheme://x")
    with LoopHardware(config) as hw:
        ok, text = next((ok, text) for name, ok, text in doctor(config, hw, simulated=True)
                        if name == "serial test port")
    assert ok is False and text[0].isupper() and text.endswith((".", ")")) and "nosuchscheme" in text


def test_closing_the_unit_releases_every_part_whatever_one_does():
    closed = []

    class Part:
        def __init__(self, name, fails=False):
            self.name, self.fails = name, fails

        def close(self):
            closed.append(self.name)
            if self.fails:
                raise OSError("the bus went away")
    device = Device(slots=Part("slots", fails=True), keypad=Part("keypad"), display=Part("display", fails=True),
                    buzzer=Part("buzzer"))
    with device:
        pass
    assert closed == ["slots", "keypad", "buzzer", "display"]


def test_no_gpio_library_working_says_each_one_s_reason():
    error = gpio_unavailable({"LGPIOFactory": RuntimeError("some other failure"),
                              "RPiGPIOFactory": RuntimeError("no access")})
    assert isinstance(error, DeviceMissing)
    assert str(error).startswith("no GPIO library works here: LGPIOFactory: some other failure")


def test_the_first_pin_factory_that_starts_is_used(monkeypatch):
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    hw = PiHardware()

    class Started:
        pass
    real_import = __import__

    def fake_import(name, *args, **kwargs):
        if name == "gpiozero.pins.lgpio":
            module = type("module", (), {"LGPIOFactory": Started})
            return module
        return real_import(name, *args, **kwargs)
    monkeypatch.setattr("builtins.__import__", fake_import)
    assert isinstance(hw.pin_factory(), Started)
    assert hw.pin_factory() is hw.pin_factory()  # opened once
    assert hw.serial_for_url() is None and hw.display_interface(Config()) is None


@pytest.mark.parametrize("name, tail", [("pigpio", "(PIGPIO_ADDR=localhost, PIGPIO_PORT=8888)"), ("native", "")])
def test_a_named_pin_factory_that_cannot_start_is_named(monkeypatch, name, tail):
    from gpiozero import Device as GpioDevice

    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", name)
    monkeypatch.delenv("PIGPIO_ADDR", raising=False)
    monkeypatch.delenv("PIGPIO_PORT", raising=False)

    def refuses():
        raise OSError("connection refused")
    monkeypatch.setattr(GpioDevice, "_default_pin_factory", staticmethod(refuses))
    with pytest.raises(DeviceMissing) as raised:
        named_pin_factory()
    assert str(raised.value) == (f"GPIOZERO_PIN_FACTORY={name}: the pin factory can't start: connection refused"
                                 + (f" {tail}" if tail else ""))
    assert not isinstance(raised.value, ConfigError)
    assert runtime.device.PIN_FACTORY_ENV == "GPIOZERO_PIN_FACTORY"


def test_rdm6300_readers_open_their_own_port_where_the_hardware_gives_none():
    config = rdm6300()
    with SimulatedHardware(config) as hw, open_device(config, hw) as device:  # pyserial opens loop:// itself
        assert device.problems == []


def test_a_reader_that_cannot_open_is_named_and_the_one_open_closed():
    from banker.errors import BankerError

    base = rdm6300()
    config = replace(base, readers=(base.readers[0], replace(base.readers[1], url="nosuchscheme://x")))
    with LoopHardware(config) as hw:
        with pytest.raises(BankerError, match="the unit can't start:\n  readers: .*nosuchscheme"):
            open_device(config, hw)
