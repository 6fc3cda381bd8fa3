"""Simulated MFRC522 boards on a Pi's SPI bus and RST lines, and fake ``spidev``/``RPi.GPIO`` modules.

:class:`FakeRfidBoard` solders :class:`~firmware_sim.mfrc522_chip.Mfrc522Chip`
models to chip selects and to RST lines that are pins of a gpiozero
``MockFactory``: the driver gets ``board.spi(bus, device)`` (a
:class:`FakeSpiDev`) and a ``DigitalOutputDevice`` on ``board.pin_factory``,
and each chip follows the level of its pin. Nothing is swapped into
``sys.modules`` for that.

``installed(board)`` and ``broken_imports()`` are for fidelity tests only:
tests that run a third-party client's own code (the ``mfrc522`` and
``pi-rc522`` packages) against the chip model, or show what a missing library looks like.
``installed`` puts the board's fake ``spidev``/``RPi.GPIO`` into
``sys.modules`` (and takes them out again, with any ``mfrc522`` or
``pirc522`` module imported meanwhile); its ``RPi.GPIO`` drives the same
simulated RST pins.
"""

from __future__ import annotations

import errno
import importlib.abc
import sys
from contextlib import contextmanager
from types import ModuleType
from collections.abc import Iterator

from gpiozero.pins.mock import MockFactory, MockPin, MockPWMPin

from firmware_sim.mfrc522_chip import Mfrc522Chip, SimClock

#: BOARD (physical header) pin -> BCM GPIO number, for the pins a reset line can use.
BOARD_TO_BCM = {
    3: 2, 5: 3, 7: 4, 8: 14, 10: 15, 11: 17, 12: 18, 13: 27, 15: 22, 16: 23, 18: 24,
    19: 10, 21: 9, 22: 25, 23: 11, 24: 8, 26: 7, 27: 0, 28: 1, 29: 5, 31: 6, 32: 12,
    33: 13, 35: 19, 36: 16, 37: 26, 38: 20, 40: 21,
}
_MODULES = ("spidev", "RPi", "RPi.GPIO")
#: Third-party MFRC522 clients whose modules ``installed`` forgets afterwards (they bind spidev at import).
_VENDOR_PREFIXES = ("mfrc522", "pirc522")


class _ResetLineMixin:
    """A mock pin wired to the NRSTPD input of simulated chips: each change of level reaches them."""

    def __init__(self, factory, info) -> None:
        super().__init__(factory, info)
        self.chips: list[Mfrc522Chip] = []

    def _change_state(self, value) -> bool:
        changed = super()._change_state(value)
        if changed:
            for chip in self.chips:
                chip.set_reset_line(1 if value else 0)
        return changed

    def close(self) -> None:
        """Released (the output device closed): the line floats to its pull resistor, without a PWM glitch."""
        self.when_changed = None
        self.function = "input"


class ResetLinePin(_ResetLineMixin, MockPin):
    """An RST line on a ``MockFactory()``."""


class ResetLinePWMPin(_ResetLineMixin, MockPWMPin):
    """An RST line on a ``MockFactory(pin_class=MockPWMPin)`` (gpiozero insists a pin's class matches)."""


class FakeRfidBoard:
    """A Raspberry Pi with MFRC522 readers on its SPI bus, as the drivers (and the fakes) see it.

    Wiring (the default the drivers document): the ``+`` (left) reader on
    SPI0 CE0 with NRSTPD on GPIO25 (header pin 22), the ``-`` (right) reader on
    SPI0 CE1 with NRSTPD on GPIO24 (pin 18). The RST lines are pins of
    ``pin_factory`` (a gpiozero ``MockFactory``, made here if not given); a
    line that nothing drives sits at ``reset_idle_level`` (the usual modules
    pull it up). ``spi_enabled=False`` models a Pi without ``dtparam=spi=on``:
    no ``/dev/spidev*`` nodes exist.

    Example::

        board = FakeRfidBoard()
        chip = board.add_reader(device=0, reset_pin=25)
        reader = Mfrc522Reader(board.spi(0, 0), reset_output(25, pin_factory=board.pin_factory),
                               sleep=board.clock.sleep, clock=board.clock)
    """

    def __init__(self, *, clock: SimClock | None = None, pin_factory: MockFactory | None = None,
                 spi_enabled: bool = True, reset_idle_level: int = 1) -> None:
        self.clock = clock or SimClock()
        self.pin_factory = pin_factory if pin_factory is not None else MockFactory()
        self.spi_enabled = spi_enabled
        self.reset_idle_level = reset_idle_level
        self.chips: dict[tuple[int, int], Mfrc522Chip] = {}
        self.reset_pins: dict[tuple[int, int], int] = {}
        self.reset_lines: dict[int, ResetLinePin | ResetLinePWMPin] = {}
        self.gpio = FakeGpio(self)

    def add_reader(self, *, bus: int = 0, device: int = 0, reset_pin: int = 25) -> Mfrc522Chip:
        """Solder a simulated MFRC522 to ``bus``/``device`` with NRSTPD on BCM ``reset_pin``."""
        chip = Mfrc522Chip(self.clock)
        self.chips[(bus, device)] = chip
        self.reset_pins[(bus, device)] = reset_pin
        line = self.reset_line(reset_pin)
        line.chips.append(chip)
        chip.set_reset_line(self.gpio.level(reset_pin))
        return chip

    def reset_line(self, pin: int) -> ResetLinePin | ResetLinePWMPin:
        """The mock pin of RST line BCM ``pin`` (made on first use, pulled to ``reset_idle_level``)."""
        line = self.reset_lines.get(pin)
        if line is None:
            cls = ResetLinePWMPin if issubclass(self.pin_factory.pin_class, MockPWMPin) else ResetLinePin
            line = self.pin_factory.pin(pin, pin_class=cls)
            if not isinstance(line, _ResetLineMixin):
                raise ValueError(f"GPIO{pin} is already wired to something other than a reset line")
            line.pull = "up" if self.reset_idle_level else "down"
            self.reset_lines[pin] = line
        return line

    def spi(self, bus: int = 0, device: int = 0, *, max_speed_hz: int = 1_000_000) -> FakeSpiDev:
        """An opened :class:`FakeSpiDev` on ``/dev/spidev{bus}.{device}``, as ``spidev.SpiDev().open()`` gives."""
        spi = FakeSpiDev(self)
        spi.open(bus, device)
        spi.max_speed_hz = max_speed_hz
        return spi

    def modules(self) -> dict[str, ModuleType]:
        """Fresh ``spidev``, ``RPi`` and ``RPi.GPIO`` module objects bound to this board (fidelity tests only)."""
        spidev = ModuleType("spidev", "Fake spidev routing transfers to simulated chips.")
        board = self

        class SpiDev(FakeSpiDev):
            def __init__(self, bus: int | None = None, device: int | None = None) -> None:
                super().__init__(board)
                if bus is not None and device is not None:
                    self.open(bus, device)

        spidev.SpiDev = SpiDev
        gpio = ModuleType("RPi.GPIO", "Fake RPi.GPIO recording pin levels.")
        for name in ("BCM", "BOARD", "OUT", "IN", "HIGH", "LOW", "PUD_OFF", "PUD_UP", "PUD_DOWN",
                     "RISING", "FALLING", "BOTH"):
            setattr(gpio, name, getattr(FakeGpio, name))
        for name in ("setmode", "getmode", "setwarnings", "setup", "output", "input", "cleanup",
                     "add_event_detect", "remove_event_detect"):
            setattr(gpio, name, getattr(self.gpio, name))
        rpi = ModuleType("RPi", "Fake RPi package.")
        rpi.__path__ = []
        rpi.GPIO = gpio
        return {"spidev": spidev, "RPi": rpi, "RPi.GPIO": gpio}


class FakeSpiDev:
    """The ``spidev.SpiDev`` of a :class:`FakeRfidBoard`: transfers go to the chip on the opened CE."""

    def __init__(self, board: FakeRfidBoard) -> None:
        self._board = board
        self._where: tuple[int, int] | None = None
        self.mode = 0
        self.bits_per_word = 8
        self._speed = 500_000

    def open(self, bus: int, device: int) -> None:
        if not self._board.spi_enabled:
            raise FileNotFoundError(errno.ENOENT, "No such file or directory")
        self._where = (bus, device)
        self.max_speed_hz = self._speed

    @property
    def max_speed_hz(self) -> int:
        return self._speed

    @max_speed_hz.setter
    def max_speed_hz(self, hz: int) -> None:
        self._speed = int(hz)
        chip = self._board.chips.get(self._where) if self._where else None
        if chip is not None:
            chip.spi_hz = self._speed

    def xfer2(self, data: list[int]) -> list[int]:
        if self._where is None:
            raise OSError(errno.EBADF, "Bad file descriptor")
        chip = self._board.chips.get(self._where)
        if chip is None:                      # nothing soldered on this chip select: MISO reads low
            self._board.clock.advance(len(data) * 8 / self._speed)
            return [0] * len(data)
        return chip.transfer(list(data))

    xfer = xfer3 = xfer2

    def writebytes(self, data: list[int]) -> None:
        self.xfer2(data)

    def readbytes(self, count: int) -> list[int]:
        return self.xfer2([0] * count)

    def close(self) -> None:
        self._where = None


class FakeGpio:
    """The ``RPi.GPIO`` of a :class:`FakeRfidBoard` (fidelity tests): records every level written, by BCM number.

    A pin that is one of the board's RST lines is driven on its mock pin, so
    the chips see what the vendor package does to it.
    """

    BCM, BOARD, OUT, IN, HIGH, LOW = 11, 10, 0, 1, 1, 0
    PUD_OFF, PUD_DOWN, PUD_UP = 20, 21, 22
    RISING, FALLING, BOTH = 31, 32, 33

    def __init__(self, board: FakeRfidBoard) -> None:
        self._board = board
        self.mode: int | None = None
        self.driven: dict[int, int] = {}             # BCM pin -> level, for pins set up as outputs
        self.history: list[tuple[float, int, int]] = []
        self.edge_detects: dict[int, tuple[int, object]] = {}

    def _bcm(self, pin: int) -> int:
        if self.mode is None:
            raise RuntimeError("Please set pin numbering mode using GPIO.setmode(GPIO.BOARD) or GPIO.setmode(GPIO.BCM)")
        return BOARD_TO_BCM[pin] if self.mode == self.BOARD else pin

    def level(self, bcm_pin: int) -> int:
        line = self._board.reset_lines.get(bcm_pin)
        if line is not None:
            return 1 if line.state else 0
        return self.driven.get(bcm_pin, self._board.reset_idle_level)

    def setmode(self, mode: int) -> None:
        if self.mode is not None and mode != self.mode:
            raise ValueError("A different mode has already been set!")
        self.mode = mode

    def getmode(self) -> int | None:
        return self.mode

    def setwarnings(self, flag: bool) -> None:
        pass

    def setup(self, pin: int, direction: int, pull_up_down: int = 20, initial: int = -1) -> None:
        bcm = self._bcm(pin)
        if direction == self.OUT:
            self._drive(bcm, 0 if initial == -1 else initial)
        else:
            self._release(bcm)

    def output(self, pin: int, value: int) -> None:
        bcm = self._bcm(pin)
        if bcm not in self.driven:
            raise RuntimeError("The GPIO channel has not been set up as an OUTPUT")
        self._drive(bcm, 1 if value else 0)

    def input(self, pin: int) -> int:
        return self.level(self._bcm(pin))

    def add_event_detect(self, pin: int, edge: int, callback=None, bouncetime: int = 0) -> None:
        """Recorded only: the boards' IRQ lines are not wired (the chip model has no IRQ pin)."""
        self.edge_detects[self._bcm(pin)] = (edge, callback)

    def remove_event_detect(self, pin: int) -> None:
        self.edge_detects.pop(self._bcm(pin), None)

    def cleanup(self, pins: int | list[int] | None = None) -> None:
        if pins is None:
            released = list(self.driven)
            self.mode = None
        else:
            released = [self._bcm(p) for p in ([pins] if isinstance(pins, int) else pins)]
        for bcm in released:
            self._release(bcm)

    def _drive(self, bcm: int, level: int) -> None:
        self.driven[bcm] = level
        self.history.append((self._board.clock.now, bcm, level))
        line = self._board.reset_lines.get(bcm)
        if line is not None:
            line.function = "output"
            line.state = level

    def _release(self, bcm: int) -> None:
        self.driven.pop(bcm, None)
        line = self._board.reset_lines.get(bcm)
        if line is not None:
            line.function = "input"                  # back to the module's pull resistor


def two_reader_board(*, clock: SimClock | None = None, pin_factory: MockFactory | None = None) -> FakeRfidBoard:
    """The unit's wiring: ``+`` reader on CE0 (reset GPIO25), ``-`` reader on CE1 (reset GPIO24)."""
    board = FakeRfidBoard(clock=clock, pin_factory=pin_factory)
    board.add_reader(device=0, reset_pin=25)
    board.add_reader(device=1, reset_pin=24)
    return board


def _forget_vendor_modules() -> dict[str, ModuleType]:
    gone = {}
    for name in list(sys.modules):
        if name in _MODULES or any(name == p or name.startswith(p + ".") for p in _VENDOR_PREFIXES):
            gone[name] = sys.modules.pop(name)
    return gone


@contextmanager
def _swapped(modules: dict[str, ModuleType | None], finder: importlib.abc.MetaPathFinder | None = None):
    saved = _forget_vendor_modules()
    others = {name: sys.modules[name] for name in modules if name in sys.modules}
    sys.modules.update(modules)
    if finder is not None:
        sys.meta_path.insert(0, finder)
    try:
        yield
    finally:
        if finder is not None:
            sys.meta_path.remove(finder)
        _forget_vendor_modules()
        for name in modules:
            sys.modules.pop(name, None)
        sys.modules.update(others)
        sys.modules.update(saved)


@contextmanager
def installed(board: FakeRfidBoard) -> Iterator[FakeRfidBoard]:
    """Install the board's fake ``spidev``/``RPi.GPIO`` into ``sys.modules`` for the block.

    For fidelity tests that run a third-party client's own code (the
    ``mfrc522`` package) against the chip model; the drivers take a
    :meth:`FakeRfidBoard.spi` and a gpiozero output instead.
    """
    with _swapped(dict(board.modules())):
        yield board


class _FailingFinder(importlib.abc.MetaPathFinder):
    def __init__(self, failures: dict[str, BaseException]) -> None:
        self.failures = failures

    def find_spec(self, name, path=None, target=None):
        if name in self.failures:
            raise self.failures[name]
        return None


@contextmanager
def broken_imports(failures: dict[str, BaseException | None]) -> Iterator[None]:
    """Make ``import NAME`` fail for the block: ``None`` means not installed, an exception is raised as is.

    For tests that show what a driver says when its vendor library is missing.

    Example: ``broken_imports({"RPi.GPIO": RuntimeError("This module can only be run on a Raspberry Pi!")})``
    """
    missing: dict[str, ModuleType | None] = {n: None for n, e in failures.items() if e is None}
    raising = {n: e for n, e in failures.items() if e is not None}
    if "RPi.GPIO" in raising:
        rpi = ModuleType("RPi")
        rpi.__path__ = []
        missing["RPi"] = rpi
    with _swapped(missing, _FailingFinder(raising) if raising else None):
        yield
