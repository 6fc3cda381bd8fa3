"""The whole unit from a config: card readers, keypad, buzzer, display and test port, opened and checked.

:func:`open_device` builds every configured device through a :class:`Hardware`
(the real Pi: :class:`PiHardware`; simulated chips:
``firmware_sim.hw_sim.SimulatedHardware``) and either returns a
:class:`Device` or raises with one clear line per device that failed.
:func:`doctor` opens each device on its own and says in a sentence what it
found (``banker doctor`` prints it).
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import Any, Protocol
from collections.abc import Callable, Iterator

from runtime.config import Config, ReaderConfig
from banker.errors import BankerError, ConfigError


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
    """The Raspberry Pi's own buses: gpiozero's lgpio (Pi 5, and Pi 4) or RPi.GPIO pin factory, real SPI/I2C.

    ``$GPIOZERO_PIN_FACTORY`` picks the pin factory instead, the way gpiozero documents it (:func:`named_pin_factory`:
    ``pigpio`` with ``$PIGPIO_ADDR``/``$PIGPIO_PORT`` for a remote Pi's pins, ``mock`` for none at all); it
    drives the keypad, the buzzer and the readers' RST lines (the readers' SPI and the display stay on this Pi).
    """

    name = "pi"
    clock = staticmethod(time.monotonic)
    sleep = staticmethod(time.sleep)

    def __init__(self) -> None:
        self._factory = None

    def pin_factory(self):
        if self._factory is None:
            if os.environ.get(PIN_FACTORY_ENV) is not None:
                self._factory = named_pin_factory()
                return self._factory
            failures = {}
            for module, cls in (("gpiozero.pins.lgpio", "LGPIOFactory"), ("gpiozero.pins.rpigpio", "RPiGPIOFactory")):
                try:
                    self._factory = getattr(__import__(module, fromlist=[cls]), cls)()
                    break
                except Exception as exc:  # each library fails in its own way off a Pi
                    failures[cls] = exc
            else:
                raise gpio_unavailable(failures)
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
        if self._factory is not None:
            factory, self._factory = self._factory, None
            factory.close()  # its pins (and a pigpio daemon's connection) given back


#: The environment variable gpiozero reads its pin factory's name from.
PIN_FACTORY_ENV = "GPIOZERO_PIN_FACTORY"


def named_pin_factory():
    """The pin factory ``$GPIOZERO_PIN_FACTORY`` names, found as gpiozero finds it: its own lookup
    (``Device._default_pin_factory``: the ``gpiozero_pin_factories`` entry points, the name as given and then
    lower-cased), so a factory another package registers works too; the global ``Device.pin_factory`` is left
    alone. A name no package registers, a library that isn't installed or a factory that can't start (no pigpio
    daemon at ``$PIGPIO_ADDR``:``$PIGPIO_PORT``) is a clear error naming the variable, not a traceback.
    """
    from gpiozero import Device as GpioDevice
    from gpiozero.exc import BadPinFactory

    from drivers.errors import DeviceMissing, DriverLibraryMissing

    name = os.environ[PIN_FACTORY_ENV]
    try:
        return GpioDevice._default_pin_factory()
    except BadPinFactory:
        raise ConfigError(f"{PIN_FACTORY_ENV}={name!r} names no gpiozero pin factory: the installed ones are "
                          f"{', '.join(installed_pin_factories())} (docs/config.md, \"The pin factory\")") from None
    except ImportError as exc:
        raise DriverLibraryMissing(f"{PIN_FACTORY_ENV}={name}: {exc} (install it into the unit's venv, or unset "
                                   f"{PIN_FACTORY_ENV}; docs/config.md)") from None
    except Exception as exc:  # each factory fails in its own way: pigpio's daemon away, a bad PIGPIO_PORT
        raise DeviceMissing(f"{PIN_FACTORY_ENV}={name}: the pin factory can't start: {exc or type(exc).__name__}"
                            + (f" (PIGPIO_ADDR={os.environ.get('PIGPIO_ADDR', 'localhost')}, PIGPIO_PORT="
                               f"{os.environ.get('PIGPIO_PORT', '8888')})" if name.lower() == "pigpio" else "")
                            ) from None


def installed_pin_factories() -> list[str]:
    """The names gpiozero's ``gpiozero_pin_factories`` entry points give (``lgpio``, ``mock``, ``pigpio``...)."""
    from importlib.metadata import entry_points

    return sorted({ep.name for ep in entry_points(group="gpiozero_pin_factories")})


def gpio_unavailable(failures: dict[str, Exception]) -> Exception:
    """The error that says why no GPIO pin factory opened, naming the real cause first.

    lgpio is the library installed (the ``pi`` extra); RPi.GPIO is only a
    fallback, so its absence is not news. gpiozero finding no Pi revision means
    the machine isn't a Pi (or a chroot without its /proc/device-tree); lgpio
    failing to open a gpiochip means the device is missing or not allowed.
    """
    from drivers.errors import DeviceMissing, DriverLibraryMissing

    lgpio = failures.get("LGPIOFactory")
    others = _fallback_failures(failures)
    if isinstance(lgpio, ModuleNotFoundError) and lgpio.name == "lgpio":
        return DriverLibraryMissing("the lgpio library is not installed: run deploy/install.sh (docs/install-pi.md)"
                                    + "".join(f"; {o}" for o in others))
    text = str(lgpio)
    if "Pi revision" in text:
        return DeviceMissing("not a Raspberry Pi: gpiozero found no Pi revision in /proc/device-tree or /proc/cpuinfo "
                             "(a desktop or a chroot? try --backend hw-sim)")
    if "gpiochip" in text:
        return DeviceMissing(f"lgpio can't open /dev/gpiochip*: {text} (missing, or this user isn't in the gpio group: "
                             "sudo banker doctor; docs/install-pi.md)")
    return DeviceMissing(f"no GPIO library works here: LGPIOFactory: {text}" + "".join(f"; {o}" for o in others))


def _fallback_failures(failures: dict[str, Exception]) -> list[str]:
    """How the factories other than lgpio's failed, as ``Factory: error``; RPi.GPIO not installed left out."""
    return [f"{cls}: {exc}" for cls, exc in failures.items() if cls != "LGPIOFactory"
            and not (isinstance(exc, ModuleNotFoundError) and exc.name in ("RPi", "RPi.GPIO"))]


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
    voice: Any = None
    problems: list[str] = field(default_factory=list)

    def close(self) -> None:
        for part in (self.serial_port, self.voice, self.slots, self.keypad, self.buzzer, self.display):
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
                        clock=hw.clock, debounce=k.debounce, press_confirm=k.press_confirm)


def open_buzzer(config: Config, hw: Hardware):
    from drivers.buzzer import PwmBuzzer

    return PwmBuzzer(config.buzzer_pin, pin_factory=hw.pin_factory(), sleep=getattr(hw, "buzzer_sleep", hw.sleep))


def open_display(config: Config, hw: Hardware):
    from drivers.display import OledDisplay

    d = config.display
    return OledDisplay(chip=d.chip, interface=hw.display_interface(config), bus=d.bus, port=d.port, address=d.address,
                       spi_device=d.spi_device, gpio_dc=d.dc_pin, gpio_reset=d.reset_pin, contrast=d.contrast,
                       rotate=d.rotate, digits=d.digits)


PARTS: dict[str, Callable[[Config, Hardware], Any]] = {
    "readers": open_readers, "keypad": open_keypad, "buzzer": open_buzzer, "display": open_display,
}
#: How a device that is missing or misconfigured fails to open (anything else is a programming error).
OPEN_ERRORS = (BankerError, OSError, ValueError, ImportError)


def wanted(config: Config) -> list[str]:
    names = ["readers", "keypad", "display"]
    return names + (["buzzer"] if config.buzzer_pin is not None else [])


def open_device(config: Config, hw: Hardware) -> Device:
    """Open every configured device; :class:`BankerError` listing each one that failed (the rest closed)."""
    device = Device()
    for name in wanted(config):
        try:
            setattr(device, "slots" if name == "readers" else name, PARTS[name](config, hw))
        except OPEN_ERRORS as exc:
            device.problems.append(f"{name}: {exc}")
    if device.problems:
        device.close()
        raise BankerError("the unit can't start:\n  " + "\n  ".join(device.problems))
    return device


def doctor(config: Config, hw: Hardware, *, simulated: bool = False) -> Iterator[tuple[str, bool, str]]:
    """Open each configured device on its own and say in a sentence what was found: (device, ok, sentence).

    ``banker doctor`` prints these lines; docs/troubleshooting.md names them. ``simulated``: ``hw`` is the
    simulated chips (``--backend hw-sim``), so the voice asks for no sound card.
    """
    for name in wanted(config):
        try:
            part = PARTS[name](config, hw)
        except OPEN_ERRORS as exc:
            yield name, False, _sentence_of(exc)
            continue
        try:
            yield name, True, _found(name, part, config)
        finally:
            part.close()
    from runtime.speaker import doctor_line

    yield "voice", *doctor_line(config.voice, simulated=simulated)  # off (the default): says so, and is fine
    if not config.serial_url:
        yield "serial test port", True, "Off: no [serial_test_port] url is configured."
        return
    from drivers.serial_port import open_serial

    try:
        open_serial(config.serial_url, baudrate=config.serial_baudrate, serial_for_url=hw.serial_for_url()).close()
        yield "serial test port", True, f"{config.serial_url} opens at {config.serial_baudrate} baud."
    except OPEN_ERRORS as exc:
        yield "serial test port", False, _sentence_of(exc)


def _found(name: str, part: Any, config: Config) -> str:
    if name == "readers":
        kind = "MFRC522 (13.56 MHz)" if config.reader_kind == "mfrc522" else "RDM6300 (125 kHz)"
        cards = part.cards() if hasattr(part, "cards") else {}
        slots = [f"{'left (+)' if r.slot == 'left' else 'right (-)'} "
                 + (f"holds card {cards[r.slot]}" if cards.get(r.slot) else "is empty") for r in config.readers]
        counted = _count(len(config.readers), kind + " reader")
        return f"{counted[0].upper()}{counted[1:]} answer{'s' * (len(slots) == 1)}: {' and '.join(slots)}."
    if name == "display":
        return f"The {config.display.chip.upper()} display answers on {part.where}."
    if name == "keypad":
        k = config.keypad
        return (f"The 4x4 keypad is set up on rows GPIO {', '.join(map(str, k.rows))} and columns GPIO "
                f"{', '.join(map(str, k.columns))} (press a key on the running unit to try it).")
    return f"The buzzer is set up on GPIO {config.buzzer_pin}."


def _sentence_of(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?", ")")) else text + "."


def _count(n: int, what: str) -> str:
    words = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}
    return f"{words.get(n, n)} {what}{'s' * (n != 1)}"
