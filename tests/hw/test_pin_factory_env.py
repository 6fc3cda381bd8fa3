"""``GPIOZERO_PIN_FACTORY`` picks the Pi backend's pin factory the way gpiozero documents it; a bad name is a clear
line in ``banker doctor`` and ``banker run``, never a traceback."""

import pytest
from gpiozero import Device as GpioDevice
from gpiozero.pins.mock import MockFactory

from banker.errors import ConfigError
from drivers.errors import DriverLibraryMissing
from runtime.device import PiHardware
from tests.cli.support import banker

MOCK = {"GPIOZERO_PIN_FACTORY": "mock", "GPIOZERO_MOCK_PIN_CLASS": "mockpwmpin"}  # the buzzer needs PWM


def test_the_environment_names_the_factory_and_the_global_one_is_left_alone(monkeypatch):
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "MOCK")  # gpiozero's lookup: as given, then lower-cased
    before = GpioDevice.pin_factory
    with PiHardware() as hw:
        factory = hw.pin_factory()
        assert isinstance(factory, MockFactory) and hw.pin_factory() is factory
    assert GpioDevice.pin_factory is before


def test_doctor_opens_the_keypad_and_buzzer_on_the_factory_the_environment_names():
    without = banker("doctor", env={"GPIOZERO_PIN_FACTORY": None})
    assert "FAIL  keypad" in without.output  # this machine is no Pi: lgpio has no pins here
    result = banker("doctor", env=MOCK)
    assert "ok    keypad" in result.output and "ok    buzzer" in result.output, result.output
    assert "FAIL  readers" in result.output  # their SPI bus is still this machine's: there is none


def test_a_bad_name_is_named_with_the_factories_there_are(monkeypatch):
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "pigpoi")
    with pytest.raises(ConfigError, match=r"GPIOZERO_PIN_FACTORY='pigpoi' names no gpiozero pin factory: "
                                          r"the installed ones are .*mock.*pigpio"):
        PiHardware().pin_factory()


def test_a_bad_name_is_a_line_in_doctor_and_run_not_a_traceback(tmp_path):
    env = {"GPIOZERO_PIN_FACTORY": "nosuch"}
    doctor = banker("doctor", env=env)
    assert doctor.exit_code == 1 and "FAIL  keypad            GPIOZERO_PIN_FACTORY='nosuch' names no" in doctor.output
    run = banker("run", "--db", tmp_path / "l.db", env=env)
    assert run.exit_code == 3 and "keypad: GPIOZERO_PIN_FACTORY='nosuch' names no gpiozero pin factory" in run.output
    for result in (doctor, run):
        assert isinstance(result.exception, SystemExit) and "Traceback" not in result.output  # an exit, said


def test_a_factory_whose_library_is_missing_says_what_to_install(monkeypatch):
    try:
        import pigpio  # noqa: F401
        pytest.skip("pigpio is installed here")
    except ImportError:
        pass
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "pigpio")
    with pytest.raises(DriverLibraryMissing, match="GPIOZERO_PIN_FACTORY=pigpio: No module named 'pigpio'"):
        PiHardware().pin_factory()
