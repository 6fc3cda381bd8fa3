"""The whole unit from a config: card readers, keypad, buzzer, display and test port, opened and checked.

:func:`open_device` builds every configured device through a :class:`Hardware`
(the real Pi: :class:`PiHardware`; simulated chips:
``firmware_sim.hw_sim.SimulatedHardware``) and either returns a
:class:`Device` or raises with one clear line per device that failed.
:func:`doctor` opens each device on its own and reports what it found.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Protocol
from collections.abc import Callable

from runtime.config import Config, ReaderConfig
from banker.errors import BankerError


class Hardware(Protocol):
    """Where the drivers find their buses and pins."""

    name: str
    clock: Callable[[], float]
    sleep: Callable[[float], None]

    def pin_factory(self) -> Any: ...
    def display_interface(self, config: Config) -> Any | None: ...
    def serial_for_url(self) -> Callable | None: ...
    def mfrc522(self, reader: ReaderConfig) -> Any: ...


class PiHardware:
    """The Raspberry Pi's own buses: gpiozero's lgpio (Pi 5, and Pi 4) or RPi.GPIO pin factory, real SPI/I2C."""

    name = "pi"
    clock = staticmethod(time.monotonic)
    sleep = staticmethod(time.sleep)

    def __init__(self) -> None:
        self._factory = None

    def pin_factory(self):
        if self._factory is None:
            errors = []
            for module, cls in (("gpiozero.pins.lgpio", "LGPIOFactory"), ("gpiozero.pins.rpigpio", "RPiGPIOFactory")):
                try:
                    self._factory = getattr(__import__(module, fromlist=[cls]), cls)()
                    break
                except Exception as exc:  # each library fails in its own way off a Pi
                    errors.append(f"{cls}: {exc}")
            else:
                from drivers.errors import DriverLibraryMissing

                raise DriverLibraryMissing("no GPIO library works here (install lgpio on a Pi: docs/install-pi.md): "
                                           + "; ".join(errors))
        return self._factory

    def mfrc522(self, reader: ReaderConfig):
        """The MFRC522 on ``/dev/spidev{bus}.{device}``, RST through this Pi's gpiozero pin factory."""
        from drivers.rfid_spi import open_mfrc522

        return open_mfrc522(reader.bus, reader.device, reader.reset_pin, reader.spi_hz,
                            pin_factory=self.pin_factory(), sleep=self.sleep)

    def display_interface(self, config: Config):
        return None

    def serial_for_url(self):
        return None

    def __enter__(self) -> PiHardware:
        return self

    def __exit__(self, *exc) -> None:
        return None


def pi_hardware(config: Config | None = None) -> PiHardware:
    """``banker run --backend pi``: the Pi's own buses (the backend table's factory; ``config`` is not needed)."""
    return PiHardware()


@dataclass
class Device:
    """The opened devices of one unit; ``close()`` releases them all."""

    slots: Any = None
    keypad: Any = None
    buzzer: Any = None
    display: Any = None
    serial_port: Any = None
    problems: list[str] = field(default_factory=list)

    def close(self) -> None:
        for part in (self.serial_port, self.slots, self.keypad, self.buzzer, self.display):
            if part is not None:
                try:
                    part.close()
                except Exception:  # closing must release the rest whatever one part does
                    pass

    def __enter__(self) -> Device:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def open_readers(config: Config, hw: Hardware):
    """The configured card readers as :class:`CardSlots`; MFRC522s come from ``hw.mfrc522(reader_config)``.

    If one reader fails to open, the ones already open are closed.
    """
    from drivers.card_slots import CardSlots

    readers = {}
    try:
        for r in config.readers:
            if config.reader_kind == "mfrc522":
                readers[r.slot] = hw.mfrc522(r)
            else:
                from drivers.rfid_uart import Rdm6300Reader

                port = None
                if hw.serial_for_url() is not None:
                    port = hw.serial_for_url()(r.url, baudrate=r.baudrate, timeout=0)
                readers[r.slot] = Rdm6300Reader(r.url, baudrate=r.baudrate, clock=hw.clock, port=port)
    except BaseException:
        for reader in readers.values():
            reader.close()
        raise
    return CardSlots(readers, clock=hw.clock, removal_after_s=config.removal_after)


def open_keypad(config: Config, hw: Hardware):
    from drivers.keypad import MatrixKeypad

    k = config.keypad
    return MatrixKeypad(pin_factory=hw.pin_factory(), rows=k.rows, columns=k.columns, keymap=k.keys,
                        clock=hw.clock, debounce=k.debounce)


def open_buzzer(config: Config, hw: Hardware):
    from drivers.buzzer import PwmBuzzer

    return PwmBuzzer(config.buzzer_pin, pin_factory=hw.pin_factory(), sleep=getattr(hw, "buzzer_sleep", hw.sleep))


def open_display(config: Config, hw: Hardware):
    from drivers.display import OledDisplay

    d = config.display
    return OledDisplay(chip=d.chip, interface=hw.display_interface(config), bus=d.bus, port=d.port, address=d.address,
                       spi_device=d.spi_device, gpio_dc=d.dc_pin, gpio_reset=d.reset_pin, contrast=d.contrast,
                       rotate=d.rotate)


PARTS: dict[str, Callable[[Config, Hardware], Any]] = {
    "readers": open_readers, "keypad": open_keypad, "buzzer": open_buzzer, "display": open_display,
}


def _describe(name: str, part: Any, config: Config) -> str:
    if name == "readers":
        return f"{config.reader_kind} reader(s) on slot(s) {', '.join(r.slot for r in config.readers)}; cards now: {part.cards()}"
    if name == "display":
        return f"{config.display.chip} on {part.where}"
    if name == "keypad":
        return f"4x4 keypad, rows GPIO{list(config.keypad.rows)}, columns GPIO{list(config.keypad.columns)}"
    return f"buzzer on GPIO{config.buzzer_pin}"


def wanted(config: Config) -> list[str]:
    names = ["readers", "keypad", "display"]
    return names + (["buzzer"] if config.buzzer_pin is not None else [])


def open_device(config: Config, hw: Hardware) -> Device:
    """Open every configured device; :class:`BankerError` listing each one that failed (the rest closed)."""
    device = Device()
    for name in wanted(config):
        try:
            setattr(device, "slots" if name == "readers" else name, PARTS[name](config, hw))
        except (BankerError, OSError, ValueError, ImportError) as exc:
            device.problems.append(f"{name}: {exc}")
    if device.problems:
        device.close()
        raise BankerError("the unit can't start:\n  " + "\n  ".join(device.problems))
    return device


def doctor(config: Config, hw: Hardware) -> list[tuple[str, bool, str]]:
    """Open each configured device alone and say what was found: (device, ok, what)."""
    report = []
    for name in wanted(config):
        try:
            part = PARTS[name](config, hw)
        except (BankerError, OSError, ValueError, ImportError) as exc:
            report.append((name, False, str(exc)))
            continue
        try:
            report.append((name, True, _describe(name, part, config)))
        finally:
            part.close()
    if config.serial_url:
        try:
            from drivers.serial_port import open_serial

            port = open_serial(config.serial_url, baudrate=config.serial_baudrate, serial_for_url=hw.serial_for_url())
            port.close()
            report.append(("serial test port", True, f"{config.serial_url} opens"))
        except (BankerError, OSError, ValueError, ImportError) as exc:
            report.append(("serial test port", False, str(exc)))
    else:
        report.append(("serial test port", True, "off (not configured)"))
    return report
