"""The unit's wiring in one table: which header pin each line of each device takes by default.

:data:`WIRES` is the one place the default wiring is written down. The
defaults of :mod:`runtime.config` (the GPIO numbers below) are read from it,
and ``docs/make_diagrams.py`` draws the pictures of docs/wiring.md and writes
its tables from it, so the docs, the diagrams and the code can't drift apart
(``tests/house/test_docs_diagrams.py`` fails when a committed picture is stale).

Pins are the physical pins of the 40-pin header (1-40); a GPIO is its BCM
number, found through :data:`HEADER`.

>>> gpio_of("keypad", "row 1"), header_pin(5)
(5, 29)
>>> [w.pin for w in wires_of("buzzer") if w.terminal == "signal"]
[12]
"""

from __future__ import annotations

from dataclasses import dataclass

from banker.errors import ConfigError

#: The 40-pin header of every Raspberry Pi since the B+ (Zero 2 W, 3, 4, 5): physical pin -> what it is.
HEADER: dict[int, str] = {
    1: "3V3", 2: "5V", 3: "GPIO2", 4: "5V", 5: "GPIO3", 6: "GND", 7: "GPIO4", 8: "GPIO14", 9: "GND", 10: "GPIO15",
    11: "GPIO17", 12: "GPIO18", 13: "GPIO27", 14: "GND", 15: "GPIO22", 16: "GPIO23", 17: "3V3", 18: "GPIO24",
    19: "GPIO10", 20: "GND", 21: "GPIO9", 22: "GPIO25", 23: "GPIO11", 24: "GPIO8", 25: "GND", 26: "GPIO7",
    27: "GPIO0", 28: "GPIO1", 29: "GPIO5", 30: "GND", 31: "GPIO6", 32: "GPIO12", 33: "GPIO13", 34: "GND",
    35: "GPIO19", 36: "GPIO16", 37: "GPIO26", 38: "GPIO20", 39: "GND", 40: "GPIO21",
}
#: What some GPIOs also are (the buses the unit uses).
ALTERNATE: dict[int, str] = {
    2: "I2C1 SDA", 3: "I2C1 SCL", 7: "SPI0 CE1", 8: "SPI0 CE0", 9: "SPI0 MISO", 10: "SPI0 MOSI", 11: "SPI0 SCLK",
    14: "UART TXD", 15: "UART RXD", 18: "PWM0", 0: "ID EEPROM", 1: "ID EEPROM",
}


@dataclass(frozen=True)
class Wire:
    """One wire: the ``device``'s ``terminal`` goes to header ``pin``; ``via`` is a part on the way."""

    device: str
    terminal: str
    pin: int
    via: str = ""

    @property
    def gpio(self) -> int | None:
        """The BCM GPIO number of the pin, or None for a power or ground pin."""
        name = HEADER[self.pin]
        return int(name[4:]) if name.startswith("GPIO") else None

    @property
    def line(self) -> str:
        """What the pin is: ``GPIO8 (SPI0 CE0)``, ``3V3``, ``GND``."""
        gpio = self.gpio
        if gpio is None:
            return HEADER[self.pin]
        return f"GPIO{gpio} ({ALTERNATE[gpio]})" if gpio in ALTERNATE else f"GPIO{gpio}"


#: The devices in the order the docs show them; "rdm6300" is the 125 kHz reader fitted instead of the "+" RC522.
DEVICES = ("+ reader", "- reader", "display", "keypad", "buzzer", "rdm6300")
#: A device's long name for headings and diagrams.
TITLES = {
    "+ reader": "+ card reader (left, receives): RC522",
    "- reader": "- card reader (right, pays): RC522",
    "display": "Display: SSD1306 / SH1106 OLED, I2C",
    "keypad": "Keypad: 4x4 matrix",
    "buzzer": "Buzzer: passive, through an NPN transistor",
    "rdm6300": "125 kHz reader instead: RDM6300 (5 V)",
}

WIRES: tuple[Wire, ...] = (
    # the two RC522 readers share SPI0; each has its own chip select and reset
    Wire("+ reader", "SDA (SS)", 24),
    Wire("+ reader", "SCK", 23),
    Wire("+ reader", "MOSI", 19),
    Wire("+ reader", "MISO", 21),
    Wire("+ reader", "RST", 22),
    Wire("+ reader", "3.3V", 17, "10 uF + 100 nF to GND at the reader"),
    Wire("+ reader", "GND", 20),
    Wire("- reader", "SDA (SS)", 26),
    Wire("- reader", "SCK", 23, "shared with the + reader"),
    Wire("- reader", "MOSI", 19, "shared with the + reader"),
    Wire("- reader", "MISO", 21, "shared with the + reader"),
    Wire("- reader", "RST", 18),
    Wire("- reader", "3.3V", 1, "10 uF + 100 nF to GND at the reader"),
    Wire("- reader", "GND", 25),
    # the OLED on I2C1
    Wire("display", "SDA", 3),
    Wire("display", "SCL", 5),
    Wire("display", "VCC", 1, "spliced with the - reader's 3.3V"),
    Wire("display", "GND", 9),
    # the keypad's 8-pin ribbon, rows 1-4 then columns 1-4 (looking at its face)
    Wire("keypad", "row 1 (1 2 3 M)", 29),
    Wire("keypad", "row 2 (4 5 6 K)", 31),
    Wire("keypad", "row 3 (7 8 9 C)", 33),
    Wire("keypad", "row 4 (. 0 GO FN)", 35),
    Wire("keypad", "column 1", 32),
    Wire("keypad", "column 2", 36),
    Wire("keypad", "column 3", 38),
    Wire("keypad", "column 4", 40),
    # the buzzer: the GPIO switches an NPN transistor, which sinks the buzzer's current
    Wire("buzzer", "signal", 12, "1 kOhm to the transistor's base"),
    Wire("buzzer", "+ terminal", 4, "68 Ohm in series; 1N4148 across the buzzer for a magnetic one"),
    Wire("buzzer", "emitter", 14),
    # instead of the + RC522: a 5 V RDM6300, its TX through a divider (the Pi's pins take 3.3 V at most)
    Wire("rdm6300", "TX", 10, "1 kOhm from TX; 2 kOhm from GPIO15 to GND (5 V -> 3.3 V)"),
    Wire("rdm6300", "5V", 2),
    Wire("rdm6300", "GND", 6),
)


def wires_of(device: str) -> tuple[Wire, ...]:
    """The wires of ``device`` in the table's order."""
    found = tuple(w for w in WIRES if w.device == device)
    if not found:
        raise KeyError(f"no device {device!r} in the wiring table (known: {', '.join(DEVICES)})")
    return found


def gpio_of(device: str, terminal: str) -> int:
    """The GPIO that ``device``'s ``terminal`` goes to (a terminal is matched by its first word(s))."""
    for wire in wires_of(device):
        if wire.terminal == terminal or wire.terminal.startswith(terminal + " "):
            if wire.gpio is None:
                raise ValueError(f"{device} {terminal} goes to {HEADER[wire.pin]}, not a GPIO")
            return wire.gpio
    raise KeyError(f"{device} has no terminal {terminal!r}")


def header_pin(gpio: int) -> int:
    """The physical pin of BCM ``gpio``."""
    return next(pin for pin, name in HEADER.items() if name == f"GPIO{gpio}")


# -- the defaults runtime.config takes ---------------------------------------------------------

#: The readers' RST lines by slot (the + reader is "left").
READER_RESET = {"left": gpio_of("+ reader", "RST"), "right": gpio_of("- reader", "RST")}
#: The readers' SPI chip selects by slot: CE0 is device 0, CE1 device 1.
READER_DEVICE = {
    slot: {8: 0, 7: 1}[gpio_of(device, "SDA")] for slot, device in (("left", "+ reader"), ("right", "- reader"))
}
KEYPAD_ROWS = tuple(gpio_of("keypad", f"row {n}") for n in range(1, 5))
KEYPAD_COLUMNS = tuple(gpio_of("keypad", f"column {n}") for n in range(1, 5))
BUZZER = gpio_of("buzzer", "signal")
#: The OLED's I2C bus and address (0x3D when the module's address jumper is moved).
DISPLAY_I2C_PORT, DISPLAY_ADDRESS = 1, 0x3C
#: An SPI display's D/C and RST lines: only for a build with one reader (the readers hold both chip selects).
DISPLAY_SPI_DC, DISPLAY_SPI_RESET = 23, 27
#: The serial port an RDM6300 reads from.
RDM6300_PORT = "/dev/serial0"

# -- the voice through an I2S amplifier (docs/voice.md) ------------------------------------------

#: The GPIOs the Pi's I2S (PCM) takes as one block: BCLK 18, LRCLK 19, DIN 20 (unused by an amplifier), DOUT 21.
#: They can't move to other pins, and the default wiring has the buzzer and three keypad lines there.
I2S_GPIOS = (18, 19, 20, 21)
#: A MAX98357A I2S amplifier on the header; SD is left open (the board's pull-up: left and right mixed).
I2S_WIRES: tuple[Wire, ...] = (
    Wire("amplifier", "BCLK", 12),
    Wire("amplifier", "LRC", 35),
    Wire("amplifier", "DIN", 40),
    Wire("amplifier", "VIN", 2, "5 V: up to 3 W into 4 Ohm"),
    Wire("amplifier", "GND", 39),
)
#: Where the lines that sat on GPIO 18-21 go in a build with the amplifier: free pins (the ``[keypad]`` rows and
#: columns and ``[buzzer] pin`` settings, docs/voice.md).
I2S_MOVED: tuple[Wire, ...] = (
    Wire("keypad", "row 4 (. 0 GO FN)", 37),
    Wire("keypad", "column 3", 11),
    Wire("keypad", "column 4", 15),
    Wire("buzzer", "signal", 13, "software PWM (the hardware PWM pins are 12, 13, 18, 19)"),
)


def i2s_clash(uses: list[tuple[int, str]]) -> str | None:
    """Why an I2S amplifier (``[voice] output = "i2s"``) can't be wired beside the GPIOs in ``uses`` (GPIO, the
    setting that takes it): every setting on GPIO 18-21 named; None when they are free.

    >>> i2s_clash([(19, "keypad.rows"), (18, "buzzer.pin"), (5, "keypad.rows")])
    'voice.output "i2s" takes GPIO 18-21 (pins 12, 35, 38, 40), but buzzer.pin has GPIO18 and keypad.rows GPIO19: \
move them to free pins (docs/voice.md, "Rewiring for the amplifier")'
    """
    taken: dict[str, list[int]] = {}
    for gpio, holder in sorted(uses):
        if gpio in I2S_GPIOS:
            taken.setdefault(holder, []).append(gpio)
    if not taken:
        return None
    named = [f"{holder} {'has ' * (n == 0)}GPIO{' and '.join(map(str, gpios))}"
             for n, (holder, gpios) in enumerate(taken.items())]
    pins = ", ".join(str(header_pin(g)) for g in I2S_GPIOS)
    return (f'voice.output "i2s" takes GPIO 18-21 (pins {pins}), but {", ".join(named[:-1]) + " and " if len(named) > 1 else ""}'
            f'{named[-1]}: move them to free pins (docs/voice.md, "Rewiring for the amplifier")')


def pin_clash(uses: list[tuple[int, str]]) -> str | None:
    """Why the GPIOs in ``uses`` (GPIO, the setting that takes it) can't all be wired, naming both holders of the
    lowest GPIO taken twice; None when each is taken once.

    >>> pin_clash([(5, "keypad.rows"), (12, "buzzer.pin"), (5, "buzzer.pin")])
    'GPIO5 is given to two devices: keypad.rows and buzzer.pin'
    >>> pin_clash([(6, "keypad.rows"), (6, "keypad.rows")])
    'GPIO6 is given to two devices: keypad.rows twice'
    """
    holders: dict[int, list[str]] = {}
    for gpio, holder in uses:
        holders.setdefault(gpio, []).append(holder)
    taken = sorted(gpio for gpio, names in holders.items() if len(names) > 1)
    if not taken:
        return None
    names = holders[taken[0]]
    both = f"{names[0]} twice" if len(set(names)) == 1 else " and ".join(list(dict.fromkeys(names))[:2])
    return f"GPIO{taken[0]} is given to two devices: {both}"


def no_pin_twice(config) -> None:
    """Refuse (ConfigError) a GPIO pin a :class:`runtime.config.Config` gives to two devices, naming both by
    their keys; with the voice on I2S, the pins I2S takes too."""
    used = _claimed_pins(config)
    clash = (i2s_clash(used) if config.voice.enabled and config.voice.output == "i2s" else None) or pin_clash(used)
    if clash:
        raise ConfigError(clash)


def _claimed_pins(config) -> list[tuple[int, str]]:
    """The GPIO pins ``config`` gives its devices, each with its key: the keypad's, the MFRC522 reset lines, an
    SPI display's D/C and reset, the buzzer's."""
    used = [(pin, "keypad.rows") for pin in config.keypad.rows] + [(p, "keypad.columns") for p in config.keypad.columns]
    used += [(r.reset_pin, f"readers.{r.slot}.reset_pin") for r in config.readers] if config.reader_kind == "mfrc522" else []
    used += [(config.display.dc_pin, "display.dc_pin"), (config.display.reset_pin, "display.reset_pin")
             ] if config.display.bus == "spi" else []
    return used + ([(config.buzzer_pin, "buzzer.pin")] if config.buzzer_pin is not None else [])

#: The Pi's GPIO header: BCM 0-27.
GPIO_PINS = range(0, 28)
#: 7-bit I2C addresses a device may have (0x00-0x02 and 0x78-0x7F are reserved).
I2C_ADDRESSES = range(0x03, 0x78)
#: The serial speeds a UART or pyserial port can be set to.
BAUD_RATES = (50, 75, 110, 134, 150, 200, 300, 600, 1200, 1800, 2400, 4800, 9600, 19200, 38400, 57600, 115200,
              230400, 460800, 500000, 576000, 921600, 1000000, 1152000, 1500000, 2000000, 2500000, 3000000,
              3500000, 4000000)
