"""The simulated unit: the real drivers, unchanged, on simulated chips, for ``banker run``/``doctor`` and scripts.

:class:`SimulatedHardware` solders the simulators where the config puts the
devices: MFRC522 chip models on simulated SPI devices and RST pins, the
keypad matrix and the piezo, all on one gpiozero ``MockFactory``, the OLED
on a recording bus. ``banker run --backend hw-sim`` runs the unit on it in
real time (:func:`realtime_hardware`); the ``hw-sim`` keypad-script backend
(``firmware_sim.hw_sim_backend``) lays tags and fingers on it.
"""

from __future__ import annotations

import time
from typing import Any

from runtime.config import Config, ReaderConfig
from firmware_sim.mfrc522_chip import SimClock


class SimulatedHardware:
    """Every chip of ``config``'s unit, simulated, on one gpiozero ``MockFactory``; a context manager.

    The MFRC522 models sit on the factory's RST pins and behind
    :class:`~firmware_sim.fake_rpi.FakeSpiDev` objects that :meth:`mfrc522`
    hands to the real driver: no module is swapped into ``sys.modules``.
    """

    name = "hw-sim"

    def __init__(self, config: Config, *, realtime: bool = False) -> None:
        from gpiozero.pins.mock import MockFactory, MockPWMPin

        from firmware_sim.buzzer_sim import PiezoSim
        from firmware_sim.display_sim import OledChip
        from firmware_sim.fake_rpi import FakeRfidBoard
        from firmware_sim.keypad_sim import KeypadMatrix

        self.config = config
        self.clock = SimClock()
        self.factory = MockFactory(pin_class=MockPWMPin)
        self.board = FakeRfidBoard(clock=self.clock, pin_factory=self.factory)
        self.chips = {}
        for r in config.readers:
            self.chips[r.slot] = self.board.add_reader(bus=r.bus, device=r.device, reset_pin=r.reset_pin)
        self.matrix = KeypadMatrix(self.factory, rows=config.keypad.rows, columns=config.keypad.columns,
                                   keymap=config.keypad.keys)
        self.piezo = PiezoSim(self.factory, pin=config.buzzer_pin) if config.buzzer_pin is not None else None
        self.oled = OledChip(config.display.chip, address=config.display.address)
        self.sleep = self.clock.sleep  # the drivers' waits pass on the chips' clock, at once
        self.buzzer_sleep = self.piezo.sleep if self.piezo is not None else self.sleep
        if realtime:  # ``banker run --backend hw-sim``: the unit keeps wall-clock time
            self.clock = time.monotonic

    def pin_factory(self) -> Any:
        return self.factory

    def mfrc522(self, reader: ReaderConfig) -> Any:
        """The real MFRC522 driver on the simulated chip that ``reader`` names, RST on the mock factory."""
        from drivers.rfid_spi import Mfrc522Reader, reset_output, wiring

        spi = self.board.spi(reader.bus, reader.device, max_speed_hz=reader.spi_hz)
        try:
            reset = reset_output(reader.reset_pin, pin_factory=self.factory)
        except BaseException:
            spi.close()
            raise
        return Mfrc522Reader(spi, reset, where=wiring(reader.bus, reader.device, reader.reset_pin), sleep=self.sleep,
                             clock=self.board.clock)

    def display_interface(self, config: Config) -> Any:
        return self.oled

    def serial_for_url(self):
        return None

    def __enter__(self) -> SimulatedHardware:
        return self

    def __exit__(self, *exc) -> None:
        self.factory.reset()


def realtime_hardware(config: Config) -> SimulatedHardware:
    """``banker run --backend hw-sim``: the simulated chips, keeping wall-clock time."""
    return SimulatedHardware(config, realtime=True)
