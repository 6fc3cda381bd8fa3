"""The device's configuration: a TOML file read into plain records, every mistake named by its key.

Each option is documented once, in docs/config.md; docs/banker.example.toml is
a whole file. Every section is optional and takes the defaults of
docs/wiring.md. Pin numbers are BCM GPIO numbers.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from typing import Any

from banker.errors import AmountError, ConfigError
from banker.money import parse_amount

DEFAULT_KEYS = (("1", "2", "3", "M"), ("4", "5", "6", "K"), ("7", "8", "9", "C"), (".", "0", "GO", "FN"))


@dataclass(frozen=True)
class ReaderConfig:
    slot: str
    bus: int = 0
    device: int = 0
    reset_pin: int = 25
    spi_hz: int = 1_000_000
    url: str | None = None
    baudrate: int = 9600


@dataclass(frozen=True)
class DisplayConfig:
    chip: str = "ssd1306"
    bus: str = "i2c"
    port: int = 1
    address: int = 0x3C
    spi_device: int = 0
    dc_pin: int = 23
    reset_pin: int = 27
    contrast: int = 0xCF
    rotate: int = 0


@dataclass(frozen=True)
class KeypadConfig:
    rows: tuple[int, ...] = (5, 6, 13, 19)
    columns: tuple[int, ...] = (12, 16, 20, 21)
    keys: tuple[tuple[str, ...], ...] = DEFAULT_KEYS
    debounce: float = 0.02


@dataclass(frozen=True)
class WebConfig:
    """The table page (docs/web.md): off unless ``enabled``; ``host`` is the address it listens on."""

    enabled: bool = False
    host: str = "127.0.0.1"
    port: int = 8080


@dataclass(frozen=True)
class Config:
    sleep_after: float = 60.0
    db: str | None = None
    reader_kind: str = "mfrc522"
    readers: tuple[ReaderConfig, ...] = (ReaderConfig("left", 0, 0, 25), ReaderConfig("right", 0, 1, 24))
    poll_interval: float = 0.02
    removal_after: float = 0.25
    display: DisplayConfig = field(default_factory=DisplayConfig)
    keypad: KeypadConfig = field(default_factory=KeypadConfig)
    buzzer_pin: int | None = 18
    serial_url: str | None = None
    serial_baudrate: int = 115_200
    start_balance: int = 15_000_000
    go_salary: int = 2_000_000
    allow_negative: bool = False
    web: WebConfig = field(default_factory=WebConfig)


SECTIONS = {"unit", "readers", "display", "keypad", "buzzer", "serial_test_port", "house_rules", "web"}


class _Section:
    """Reads one table of the file, remembering the keys it used so unknown ones can be named."""

    def __init__(self, data: dict, name: str) -> None:
        if not isinstance(data, dict):
            raise ConfigError(f"[{name}] must be a table")
        self.data, self.name, self.used = data, name, set()

    def get(self, key: str, default: Any, kind: type | tuple = int) -> Any:
        self.used.add(key)
        if key not in self.data:
            return default
        value = self.data[key]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if isinstance(value, bool) and bool not in kinds or not isinstance(value, kinds):
            names = " or ".join(k.__name__ for k in kinds)
            raise ConfigError(f"{self.name}.{key} must be {names}, not {value!r}")
        return value

    def choice(self, key: str, default: str, choices: tuple[str, ...]) -> str:
        value = self.get(key, default, str)
        if value not in choices:
            raise ConfigError(f"{self.name}.{key} must be one of {', '.join(choices)}, not {value!r}")
        return value

    def amount(self, key: str, default: int) -> int:
        value = self.get(key, default, (int, str))
        try:
            return parse_amount(value) if isinstance(value, str) else value
        except AmountError as exc:
            raise ConfigError(f"{self.name}.{key}: {exc}") from None

    def done(self, *subtables: str) -> None:
        unknown = set(self.data) - self.used - set(subtables)
        if unknown:
            raise ConfigError(f"unknown setting {self.name}.{sorted(unknown)[0]}")


def _pins(section: _Section, key: str, default: tuple[int, ...]) -> tuple[int, ...]:
    value = section.get(key, list(default), list)
    if len(value) != 4 or not all(isinstance(p, int) and not isinstance(p, bool) and 0 <= p <= 27 for p in value):
        raise ConfigError(f"{section.name}.{key} must be four GPIO numbers 0-27, not {value!r}")
    return tuple(value)


def _web(data: dict) -> WebConfig:
    w = _Section(data.get("web", {}), "web")
    web = WebConfig(w.get("enabled", False, bool), w.get("host", "127.0.0.1", str), w.get("port", 8080))
    if not 1 <= web.port <= 65535:
        raise ConfigError(f"web.port must be a TCP port 1-65535, not {web.port}")
    if not web.host.strip():
        raise ConfigError("web.host must name an address, e.g. \"0.0.0.0\" for every network")
    w.done()
    return web


def parse_config(text: str, source: str = "config") -> Config:
    """The configuration in TOML ``text``; :class:`ConfigError` naming the first bad key."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{source}: not valid TOML ({exc})") from None
    unknown = set(data) - SECTIONS
    if unknown:
        raise ConfigError(f"{source}: unknown section [{sorted(unknown)[0]}]")
    try:
        return _build(data)
    except ConfigError as exc:
        raise ConfigError(f"{source}: {exc}") from None


def _build(data: dict) -> Config:
    unit = _Section(data.get("unit", {}), "unit")
    sleep_after = float(unit.get("sleep_after", 60, (int, float)))
    if sleep_after <= 0:
        raise ConfigError("unit.sleep_after must be positive")
    db = unit.get("db", None, str)
    unit.done()

    readers = _Section(data.get("readers", {}), "readers")
    kind = readers.choice("kind", "mfrc522", ("mfrc522", "rdm6300"))
    poll = float(readers.get("poll_interval", 0.02, (int, float)))
    removal = float(readers.get("removal_after", 0.25, (int, float)))
    slots = []
    for slot, device, reset in (("left", 0, 25), ("right", 1, 24)):
        if slot not in readers.data and ("left" in readers.data or "right" in readers.data):
            continue  # a one-reader build names only the slot it serves
        s = _Section(readers.data.get(slot, {}), f"readers.{slot}")
        slots.append(ReaderConfig(
            slot, s.get("bus", 0), s.get("device", device), s.get("reset_pin", reset), s.get("spi_hz", 1_000_000),
            s.get("url", None, str), s.get("baudrate", 9600),
        ))
        s.done()
        if kind == "rdm6300" and slots[-1].url is None:
            raise ConfigError(f"readers.{slot}.url is needed for an rdm6300 reader (e.g. \"/dev/serial0\")")
    readers.done("left", "right")

    d = _Section(data.get("display", {}), "display")
    display = DisplayConfig(
        d.choice("chip", "ssd1306", ("ssd1306", "sh1106")), d.choice("bus", "i2c", ("i2c", "spi")), d.get("port", 1),
        d.get("address", 0x3C), d.get("spi_device", 0), d.get("dc_pin", 23), d.get("reset_pin", 27),
        d.get("contrast", 0xCF), d.get("rotate", 0),
    )
    if not 0 <= display.contrast <= 255 or display.rotate not in (0, 1, 2, 3):
        raise ConfigError("display.contrast must be 0-255 and display.rotate 0-3")
    d.done()

    k = _Section(data.get("keypad", {}), "keypad")
    keys = k.get("keys", [list(r) for r in DEFAULT_KEYS], list)
    if len(keys) != 4 or not all(isinstance(r, list) and len(r) == 4 and all(isinstance(x, str) for x in r) for r in keys):
        raise ConfigError("keypad.keys must be 4 rows of 4 key names")
    keypad = KeypadConfig(_pins(k, "rows", (5, 6, 13, 19)), _pins(k, "columns", (12, 16, 20, 21)),
                          tuple(tuple(r) for r in keys), float(k.get("debounce", 0.02, (int, float))))
    k.done()

    b = _Section(data.get("buzzer", {}), "buzzer")
    buzzer_pin = b.get("pin", 18) if b.get("enabled", True, bool) else None
    b.done()

    p = _Section(data.get("serial_test_port", {}), "serial_test_port")
    serial_url, serial_baud = p.get("url", None, str), p.get("baudrate", 115_200)
    p.done()

    h = _Section(data.get("house_rules", {}), "house_rules")
    config = Config(sleep_after, db, kind, tuple(slots), poll, removal, display, keypad, buzzer_pin, serial_url,
                    serial_baud, h.amount("start_balance", 15_000_000), h.amount("go_salary", 2_000_000),
                    h.get("allow_negative", False, bool), _web(data))
    h.done()
    used = [p for r in config.readers for p in (r.reset_pin,)] + list(keypad.rows) + list(keypad.columns)
    used += [buzzer_pin] if buzzer_pin is not None else []
    clash = sorted({p for p in used if used.count(p) > 1})
    if clash and kind == "mfrc522":
        raise ConfigError(f"GPIO{clash[0]} is given to two devices")
    return config
