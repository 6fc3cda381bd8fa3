"""The device's configuration: a TOML file read into plain records, every mistake named by its key.

Each option is documented once, in docs/config.md; docs/banker.example.toml is
a whole file. Every section is optional and takes the defaults of
docs/wiring.md. Pin numbers are BCM GPIO numbers. Every value is checked
for its type and range when the file is read, so a config that parses
never crashes ``banker run`` or ``banker doctor`` later.
"""

from __future__ import annotations

import math
import os
import re
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from .pins import (BAUD_RATES, BUZZER, DISPLAY_ADDRESS, DISPLAY_SPI_DC, DISPLAY_SPI_RESET, GPIO_PINS, I2C_ADDRESSES,
                   KEYPAD_COLUMNS, KEYPAD_ROWS, READER_DEVICE, READER_RESET, no_pin_twice)
from banker.errors import AmountError, ConfigError
from banker.text.i18n import LANGUAGES
from banker.money import MAX_AMOUNT, parse_amount

from .config_file import checked_toml

DEFAULT_KEYS = (("1", "2", "3", "M"), ("4", "5", "6", "K"), ("7", "8", "9", "C"), (".", "0", "GO", "FN"))


@dataclass(frozen=True)
class ReaderConfig:
    slot: str
    bus: int = 0
    device: int = 0
    reset_pin: int = READER_RESET["left"]
    spi_hz: int = 1_000_000
    url: str | None = None
    baudrate: int = 9600


@dataclass(frozen=True)
class DisplayConfig:
    chip: str = "ssd1306"
    bus: str = "i2c"
    port: int = 1
    address: int = DISPLAY_ADDRESS
    spi_device: int = 0
    dc_pin: int = DISPLAY_SPI_DC
    reset_pin: int = DISPLAY_SPI_RESET
    contrast: int = 0xCF
    rotate: int = 0
    #: ``"large"``: a balance or an amount drawn as tall as the panel fits (render/large.py); ``"normal"``: double size.
    digits: str = "normal"


@dataclass(frozen=True)
class KeypadConfig:
    rows: tuple[int, ...] = KEYPAD_ROWS
    columns: tuple[int, ...] = KEYPAD_COLUMNS
    keys: tuple[tuple[str, ...], ...] = DEFAULT_KEYS
    debounce: float = 0.02
    press_confirm: float = 0.002


@dataclass(frozen=True)
class WebConfig:
    """The table page (docs/web.md): off unless ``enabled``; ``host`` is the address it listens on."""

    enabled: bool = False
    host: str = "127.0.0.1"
    port: int = 8080


@dataclass(frozen=True)
class VoiceConfig:
    """``[voice]``, the unit speaking (docs/voice.md): off unless ``enabled``."""

    enabled: bool = False
    language: str = "en"
    device: str = "default"
    speed: int = 160
    output: str = "usb"


VOICE_OUTPUTS, VOICE_SPEEDS = ("usb", "hdmi", "i2s"), range(80, 451)  # espeak-ng's -s: 80-450 words a minute


@dataclass(frozen=True)
class Config:
    sleep_after: float = 60.0
    db: str | None = None
    reader_kind: str = "mfrc522"
    readers: tuple[ReaderConfig, ...] = (ReaderConfig("left", 0, READER_DEVICE["left"], READER_RESET["left"]),
                                         ReaderConfig("right", 0, READER_DEVICE["right"], READER_RESET["right"]))
    poll_interval: float = 0.01
    removal_after: float = 0.25
    display: DisplayConfig = field(default_factory=DisplayConfig)
    keypad: KeypadConfig = field(default_factory=KeypadConfig)
    buzzer_pin: int | None = BUZZER
    serial_url: str | None = None
    serial_baudrate: int = 115_200
    start_balance: int = 15_000_000
    go_salary: int = 2_000_000
    allow_negative: bool = False
    web: WebConfig = field(default_factory=WebConfig)
    #: ``[backups] second_folder``: a second place the backups go too (a USB stick's folder; docs/backups.md).
    backups_second_folder: str | None = None
    #: ``[auction] seconds``: how long a timed auction's countdown runs, from its start and from each bid.
    auction_seconds: float = 10.0
    voice: VoiceConfig = field(default_factory=VoiceConfig)  #: ``[voice]``: the unit speaks (docs/voice.md)
    language: str | None = None  #: ``[unit] language``: the screens' language while a game has chosen none
    edition: str = "us"  #: ``[unit] edition``: the board of a new ledger's first game (cards/editions)


SECTIONS = {"unit", "readers", "display", "keypad", "buzzer", "serial_test_port", "house_rules", "web", "backups",
            "auction", "voice"}
#: The shortest and longest countdown of a timed auction (``[auction] seconds``): time for "going once, going twice".
AUCTION_SECONDS = (3.0, 600.0)

#: The MFRC522's SPI clock: at most 10 MHz (its data sheet).
MAX_SPI_HZ = 10_000_000


class _Section:
    """Reads one table of the file, remembering the keys it used so unknown ones can be named."""

    def __init__(self, data: dict, name: str) -> None:
        if not isinstance(data, dict):
            raise ConfigError(f"[{name}] must be a table")
        self.data, self.name, self.used = data, name, set()
        read = _SECTIONS_READ.get()
        if read is not None:
            read.append(self)

    def get(self, key: str, default: Any, kind: type | tuple = int) -> Any:
        self.used.add(key)
        if key not in self.data:
            return default
        value = self.data[key]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if isinstance(value, bool) and bool not in kinds or not isinstance(value, kinds):
            names = " or ".join(k.__name__ for k in kinds)
            raise ConfigError(f"{self.name}.{key} must be {names}, not {_shown(value)}")
        return value

    def fail(self, key: str, must: str, value: Any) -> ConfigError:
        return ConfigError(f"{self.name}.{key} must be {must}, not {_shown(value)}")

    def number(self, key: str, default: int, allowed: range, must: str) -> int:
        """An integer in ``allowed``; ``must`` says what it is (``"a GPIO number 0-27"``)."""
        value = self.get(key, default)
        if value not in allowed:
            raise self.fail(key, must, value)
        return value

    def gpio(self, key: str, default: int) -> int:
        return self.number(key, default, GPIO_PINS, "a GPIO number 0-27")

    def baud(self, key: str, default: int) -> int:
        value = self.get(key, default)
        if value not in BAUD_RATES:
            raise self.fail(key, "a standard baud rate (9600, 19200, 38400, 57600, 115200...)", value)
        return value

    def seconds(self, key: str, default: float, most: float | None = None) -> float:
        """A finite number of seconds above 0 (and at most ``most``)."""
        value = self.get(key, default, (int, float))
        if isinstance(value, int) and abs(value) > 10**9 or not math.isfinite(value) or value <= 0 or (
                most is not None and value > most):
            limit = f" and at most {most:g}" if most is not None else ""
            raise self.fail(key, f"a number of seconds above 0{limit}", value)
        return float(value)

    def text(self, key: str, default: str | None) -> str | None:
        """A string with something in it and no control characters (a path or a URL)."""
        value = self.get(key, default, str)
        if value is not None and (not value.strip() or any(ord(ch) < 32 or ord(ch) == 127 for ch in value)):
            raise self.fail(key, "a non-empty text without control characters", value)
        return value

    def choice(self, key: str, default: str | None, choices: tuple[str, ...]) -> str | None:
        value = self.get(key, default, str)
        if value not in choices and value is not default:
            raise ConfigError(f"{self.name}.{key} must be one of {', '.join(choices)}, not {_shown(value)}")
        return value

    def amount(self, key: str, default: int) -> int:
        """An amount of dollars above 0 (``"15M"`` or ``15000000``), at most :data:`banker.money.MAX_AMOUNT`."""
        value = self.get(key, default, (int, str))
        try:
            value = parse_amount(value) if isinstance(value, str) else value
        except AmountError as exc:
            raise ConfigError(f"{self.name}.{key}: {exc}") from None
        if not 0 < value <= MAX_AMOUNT:
            raise self.fail(key, f"an amount above 0 and at most {MAX_AMOUNT:,} dollars", value)
        return value

    def done(self, *subtables: str) -> None:
        unknown = set(self.data) - self.used - set(subtables)
        if unknown:
            raise unknown_setting(self.name, sorted(unknown)[0], self.used | set(subtables))


#: The sections read while :func:`known_settings` reads an empty config (None otherwise).
_SECTIONS_READ: ContextVar[list[_Section] | None] = ContextVar("sections_read", default=None)


def known_settings() -> list[str]:
    """Every setting this module's readers take, as ``section.key``, found by reading an empty config: a key a
    reader takes is known here the day it is added."""
    token = _SECTIONS_READ.set([])
    try:
        _build({})
        return sorted(f"{section.name}.{key}" for section in _SECTIONS_READ.get() or () for key in section.used)
    finally:
        _SECTIONS_READ.reset(token)


def unknown_setting(section: str, key: str, beside: set[str]) -> ConfigError:
    """The error for ``key``, which no reader of ``[section]`` takes (``section`` empty: a section of its own),
    naming the nearest known setting: one of ``beside`` (the section's own keys), else the same or a close key
    in another section (``[unit] start_balance`` is ``house_rules.start_balance``), else where they are listed."""
    from banker.text.words import nearest

    prefix = f"{section}." if section else ""
    close = [prefix + name for name in nearest(key, beside)]
    close = close or _in_other_sections(key, prefix + key)
    hint = (f" (did you mean {' or '.join(repr(c) for c in close)}?)" if close
            else " (docs/config.md lists every setting)")
    return ConfigError(f"unknown setting {prefix}{key}{hint}" if section else f"unknown section [{key}]{hint}")


def _in_other_sections(key: str, given: str) -> list[str]:
    """Up to three settings elsewhere named ``key`` (or, without one, close to it), ``given`` itself left out."""
    from banker.text.words import nearest

    everywhere = known_settings()
    keys = {name.rsplit(".", 1)[-1] for name in everywhere}
    names = {key} if key in keys else set(nearest(key, keys))
    return [name for name in everywhere if name.rsplit(".", 1)[-1] in names and name != given][:3]


def _shown(value: Any) -> str:
    """``value`` as the message quotes it (cut short: a config line can be long)."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _pins(section: _Section, key: str, default: tuple[int, ...]) -> tuple[int, ...]:
    value = section.get(key, list(default), list)
    if len(value) != 4 or not all(isinstance(p, int) and not isinstance(p, bool) and p in GPIO_PINS for p in value):
        raise section.fail(key, "four GPIO numbers 0-27", value)
    return tuple(value)


def _keys(section: _Section) -> tuple[tuple[str, ...], ...]:
    """The keypad's 4 rows of 4 key names: the unit's names or a stock keypad's legends, each key once."""
    from drivers.keypad import parse_keymap

    keys = section.get("keys", [list(r) for r in DEFAULT_KEYS], list)
    named = all(isinstance(r, list) and len(r) == 4 and all(isinstance(x, str) and x.strip() for x in r) for r in keys)
    if len(keys) != 4 or not named:
        raise ConfigError("keypad.keys must be 4 rows of 4 key names")
    parse_keymap(keys, shape=(4, 4), name="keypad.keys")  # the one check of a keymap: the driver's
    return tuple(tuple(r) for r in keys)


def _web(data: dict) -> WebConfig:
    w = _Section(data.get("web", {}), "web")
    web = WebConfig(w.get("enabled", False, bool), w.get("host", "127.0.0.1", str), w.get("port", 8080))
    if not 1 <= web.port <= 65535:
        raise ConfigError(f"web.port must be a TCP port 1-65535, not {web.port}")
    if not web.host.strip():
        raise ConfigError("web.host must name an address, e.g. \"0.0.0.0\" for every network")
    w.done()
    return web


def _auction_seconds(data: dict) -> float:
    a = _Section(data.get("auction", {}), "auction")
    shortest, longest = AUCTION_SECONDS
    seconds = a.seconds("seconds", 10.0, most=longest)
    if seconds < shortest:
        raise a.fail("seconds", f"a number of seconds from {shortest:g} to {longest:g}", seconds)
    a.done()
    return seconds


def _voice(data: dict) -> VoiceConfig:
    v = _Section(data.get("voice", {}), "voice")
    voice = VoiceConfig(v.get("enabled", False, bool), v.text("language", "en"), v.text("device", "default"),
                        v.number("speed", 160, VOICE_SPEEDS, "words a minute, 80-450"),
                        v.choice("output", "usb", VOICE_OUTPUTS))
    if not re.fullmatch(r"[a-z]{2,3}(-[a-z0-9]+)*", voice.language):
        raise v.fail("language", "an espeak-ng voice such as \"en\", \"en-us\" or \"de\"", voice.language)
    v.done()
    return voice


def _second_folder(data: dict) -> str | None:
    b = _Section(data.get("backups", {}), "backups")
    folder = b.text("second_folder", None)
    if folder is not None and not os.path.isabs(os.path.expanduser(folder)):
        raise b.fail("second_folder", "an absolute path (e.g. \"/media/banker-stick/banker\")", folder)
    b.done()
    return folder


def parse_config(text: str, source: str = "config") -> Config:
    """The configuration in TOML ``text``; :class:`ConfigError` naming the first bad key.

    Too large or too deeply nested: refused before the TOML parser sees it
    (:func:`runtime.config_file.checked_toml`).
    """
    data = checked_toml(text, source)
    unknown = set(data) - SECTIONS
    if unknown:
        raise ConfigError(f"{source}: {unknown_setting('', sorted(unknown)[0], SECTIONS)}")
    try:
        return _build(data)
    except ConfigError as exc:
        raise ConfigError(f"{source}: {exc}") from None


def _build(data: dict) -> Config:
    from cards import available_editions

    unit = _Section(data.get("unit", {}), "unit")
    sleep_after = unit.seconds("sleep_after", 60.0)
    db, language = unit.text("db", None), unit.choice("language", None, LANGUAGES)
    edition = unit.choice("edition", "us", available_editions())
    unit.done()
    kind, slots, poll, removal = _readers(_Section(data.get("readers", {}), "readers"))
    display = _display(_Section(data.get("display", {}), "display"))
    k = _Section(data.get("keypad", {}), "keypad")
    keypad = KeypadConfig(_pins(k, "rows", KEYPAD_ROWS), _pins(k, "columns", KEYPAD_COLUMNS), _keys(k),
                          k.seconds("debounce", 0.02, most=1.0), k.seconds("press_confirm", 0.002, most=1.0))
    k.done()
    b = _Section(data.get("buzzer", {}), "buzzer")
    pin = b.gpio("pin", BUZZER)
    buzzer_pin = pin if b.get("enabled", True, bool) else None
    b.done()
    p = _Section(data.get("serial_test_port", {}), "serial_test_port")
    serial_url, serial_baud = p.text("url", None), p.baud("baudrate", 115_200)
    p.done()
    h = _Section(data.get("house_rules", {}), "house_rules")
    config = Config(sleep_after, db, kind, tuple(slots), poll, removal, display, keypad, buzzer_pin, serial_url,
                    serial_baud, h.amount("start_balance", 15_000_000), h.amount("go_salary", 2_000_000),
                    h.get("allow_negative", False, bool), _web(data), _second_folder(data), _auction_seconds(data),
                    _voice(data), language, edition)
    h.done()
    no_pin_twice(config)
    return config


def _readers(readers: _Section) -> tuple[str, list[ReaderConfig], float, float]:
    """``[readers]``: their kind, each slot's reader (a one-reader build names only the slot it serves), the
    poll interval and how long a card is missed before it counts as removed."""
    kind = readers.choice("kind", "mfrc522", ("mfrc522", "rdm6300"))
    poll = readers.seconds("poll_interval", 0.01, most=1.0)
    removal = readers.seconds("removal_after", 0.25, most=10.0)
    if removal < poll:
        raise ConfigError(f"readers.removal_after ({removal:g} s) must be at least readers.poll_interval ({poll:g} s)")
    named = [slot for slot in ("left", "right") if slot in readers.data]
    slots = [_reader(readers, slot, kind) for slot in (named or ("left", "right"))]
    readers.done("left", "right")
    return kind, slots, poll, removal


def _reader(readers: _Section, slot: str, kind: str) -> ReaderConfig:
    s = _Section(readers.data.get(slot, {}), f"readers.{slot}")
    reader = ReaderConfig(
        slot, s.number("bus", 0, range(0, 7), "an SPI bus number 0-6"),
        s.number("device", READER_DEVICE[slot], range(0, 3), "an SPI chip select 0-2 (CE0-CE2)"),
        s.gpio("reset_pin", READER_RESET[slot]),
        s.number("spi_hz", 1_000_000, range(1, MAX_SPI_HZ + 1), f"an SPI clock in Hz, 1-{MAX_SPI_HZ} (the MFRC522 "
                 "runs at up to 10 MHz)"),
        s.text("url", None), s.baud("baudrate", 9600),
    )
    s.done()
    if kind == "rdm6300" and reader.url is None:
        raise ConfigError(f"readers.{slot}.url is needed for an rdm6300 reader (e.g. \"/dev/serial0\")")
    return reader


def _display(d: _Section) -> DisplayConfig:
    display = DisplayConfig(
        d.choice("chip", "ssd1306", ("ssd1306", "sh1106")), d.choice("bus", "i2c", ("i2c", "spi")),
        d.number("port", 1, range(0, 32), "a bus number 0-31 (/dev/i2c-N)"),
        d.number("address", DISPLAY_ADDRESS, I2C_ADDRESSES, "an I2C address 0x03-0x77 (most displays: 0x3C or 0x3D)"),
        d.number("spi_device", 0, range(0, 3), "an SPI chip select 0-2"), d.gpio("dc_pin", DISPLAY_SPI_DC), d.gpio("reset_pin", DISPLAY_SPI_RESET),
        d.number("contrast", 0xCF, range(0, 256), "0-255"), d.number("rotate", 0, range(0, 4), "0-3 quarter turns"),
        d.choice("digits", "normal", ("normal", "large")),
    )
    d.done()
    return display
