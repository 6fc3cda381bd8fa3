"""The ``hw-sim`` backend: the real drivers, unchanged, on simulated chips, for scripts, ``banker run`` and ``doctor``.

:class:`SimulatedHardware` solders the simulators where the config puts the
devices: MFRC522 chip models on simulated SPI devices and RST pins, the
keypad matrix and the piezo, all on one gpiozero ``MockFactory``, the OLED
on a recording bus. :class:`HwSimBackend` runs keypad scripts through it: a card
is a tag laid on a chip's antenna, a key is a finger on the matrix, and the
unit only learns of them by the drivers' polling, on a simulated clock
(:class:`ChipHands`, the script driver's hands, :class:`banker.script.hands.Hands`). A
``stack`` lays a second tag in the same chip's field, so the driver meets
the collision itself.
"""

from __future__ import annotations

import time
from typing import Any

from banker.script.driver import ScriptDriver
from runtime.config import Config, ReaderConfig
from banker.errors import ScriptError
from banker.unit.events import Tick
from runtime.ledger import Ledger
from runtime.device import Device, open_device
from runtime.shell import Shell
from firmware_sim.mfrc522_chip import Picc, SimClock

STEP = 0.005  # the simulated main loop's resolution (the keypad scan interval)


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


class ChipHands:
    """The hw-sim backend's hands: tags on the chips' antennas, fingers on the matrix, time on the chips' clock.

    The unit learns of them only through the real drivers, polled by a
    simulated main loop (:meth:`_run`); ``wrap`` (a spy) wraps the shell.
    """

    def __init__(self, ledger: Ledger, config: Config | None = None, *, wrap=None) -> None:
        self.hw = SimulatedHardware(config or Config())
        self.hw.__enter__()
        try:
            self.device: Device = open_device(self.hw.config, self.hw)
        except BaseException:
            self.hw.__exit__(None, None, None)
            raise
        shell = Shell(ledger, display=self.device.display, buzzer=self.device.buzzer, clock=self.hw.clock,
                      now=self.hw.clock(), sleep_after=self.hw.config.sleep_after,
                      auction_seconds=self.hw.config.auction_seconds, language=self.hw.config.language)
        self.shell = wrap(shell) if wrap is not None else shell
        self.cards_on: dict[str, list[Picc]] = {}
        self._was_stacked: dict[str, bool] = {}
        self._next_poll = self._next_tick = self.hw.clock()
        self._fine_until = 0.0
        self._run(0.05)  # the keypad's first scans: nothing is down at power-up

    # -- the simulated main loop: the chips' clock ------------------------------------------

    def _run(self, seconds: float) -> None:
        """Let ``seconds`` of simulated time pass: keypad scans, reader polls, clock ticks."""
        end = self.hw.clock() + seconds
        while self.hw.clock() < end - 1e-9:
            fine = self.hw.matrix.pressed or self.hw.clock() < self._fine_until
            step = STEP if fine else self.hw.config.poll_interval
            self.hw.clock.advance(min(step, end - self.hw.clock()))
            for event in self.device.keypad.scan_once():
                self.shell.handle(event)
            now = self.hw.clock()
            if now >= self._next_poll:
                for event in self.device.slots.poll():
                    self.shell.handle(event)
                self._next_poll = self.hw.clock() + self.hw.config.poll_interval
            if now >= self._next_tick:
                self.shell.handle(Tick(now))
                self._next_tick = now + 0.1

    def _chip(self, reader: str):
        chip = self.hw.chips.get(reader)
        if chip is None:
            raise ScriptError(0, f"this build has no {reader} reader")
        return chip

    def _card(self, uid: str) -> Picc:
        try:
            return Picc.from_hex(uid)
        except ValueError as exc:
            raise ScriptError(0, f"UID {uid} can't be on a real card (4 or 7 bytes): {exc}") from None

    def _take(self, reader: str) -> None:
        for card in self.cards_on.pop(reader, []):
            self._chip(reader).take(card)

    # -- the hands -------------------------------------------------------------------------

    def insert(self, reader: str, uid: str, name: str = "") -> None:
        card = self._card(uid)
        chip = self._chip(reader)
        self._take(reader)
        self.cards_on[reader] = [chip.place(card)]
        self._run(self.hw.config.removal_after + 0.2 if self._was_stacked.pop(reader, False) else 0.15)

    def stack(self, reader: str, uid: str, name: str = "") -> None:
        """Lay another card in the chip's field beside the ones there: the real driver sees them collide."""
        card = self._card(uid)
        chip = self._chip(reader)
        held = self.cards_on.setdefault(reader, [])
        if any(c.uid == card.uid for c in held):
            raise ScriptError(0, f"card {card.uid_hex} already lies on the {reader} reader: "
                                 "a card can't be stacked on itself")
        held.append(chip.place(card))
        if len(held) > 1:
            self._was_stacked[reader] = True
        self._run(0.15)

    def remove(self, reader: str) -> None:
        self._take(reader)
        self._was_stacked.pop(reader, None)
        self._run(self.hw.config.removal_after + 0.2)

    def hold(self, key: str, seconds: float) -> None:
        self.hw.matrix.press(key)
        self._run(max(seconds, 0.06))
        self.hw.matrix.release(key)
        self._fine_until = self.hw.clock() + 0.1
        self._run(0.06)

    def wait(self, seconds: float) -> None:
        self._run(seconds)

    def close(self) -> None:
        self.device.close()
        self.hw.__exit__(None, None, None)


class HwSimBackend(ScriptDriver):
    """The ``hw-sim`` keypad-script backend: the script driver with :class:`ChipHands`.

    ``hw`` (the chips) and ``device`` (the real drivers) are the hands'.
    ``pin``: the banker's PIN for the script's ``enrol`` and ``enrol-deed``.
    """

    def __init__(self, ledger: Ledger, config: Config | None = None, *, pin: str | None = None, wrap=None) -> None:
        hands = ChipHands(ledger, config, wrap=wrap)
        super().__init__(hands.shell, hands, pin=pin)


def realtime_hardware(config: Config) -> SimulatedHardware:
    """``banker run --backend hw-sim``: the simulated chips, keeping wall-clock time."""
    return SimulatedHardware(config, realtime=True)
