"""The OLED display driver: the core's screen model on a 128x64 SSD1306 or SH1106 through luma.oled (I2C or SPI).

Implements the :class:`banker.ports.Display` port. Frames are drawn with
:func:`drivers.render.draw_screen` (the same pixels as the simulator and the
reference PNGs). Only what changed is sent: luma.oled 3.16's ``ssd1306`` and
``sh1106`` accept a ``framebuffer`` argument but ignore it (only its colour
and greyscale devices diff frames), so this driver keeps the page bytes it
last sent and writes just the runs of changed columns of the changed pages
(two runs closer than a run's own cost in command and address bytes are
sent as one), or on the SSD1306 one column/page window around every change
when that costs fewer bytes (the SH1106 has page addressing only). A digit
typed on the amount line costs a fifth of a full frame on the bus.

A bus error during a frame (``OSError``, or luma's ``DeviceNotFoundError``
for an I2C NACK) never reaches the unit: :attr:`OledDisplay.failed` is set,
the error is logged once per run of failures, and the next frame is sent
whole (the panel's RAM is then unknown); :meth:`OledDisplay.retry` resends
the last screen without waiting for a change.
"""

from __future__ import annotations

import functools
import logging
import os
import re
from typing import Any

from PIL import Image, ImageDraw

from banker.unit.screen import Screen

from .errors import DeviceMissing, DriverLibraryMissing
from render import DIGITS, HEIGHT, WIDTH, draw_screen

log = logging.getLogger("banker.display")

CHIPS = ("ssd1306", "sh1106")
PAGES = HEIGHT // 8
FRAME_BYTES = WIDTH * PAGES
#: Bytes on the wire for one I2C transaction beyond its payload: the address and the control byte.
_TRANSACTION = 2
#: Command bytes that place a run of columns on one page: COLUMNADDR + PAGEADDR (SSD1306, horizontal addressing),
#: or the page and the column's two nibbles (SH1106, page addressing).
_PLACE = {"ssd1306": 6, "sh1106": 3}


def frame_pages(image: Image.Image) -> bytes:
    """A mode-"1" 128x64 image as the controller's 8 pages of 128 column bytes (bit 0 = top row of the page).

    One rotation does it all: turned a quarter clockwise, each row of the image is one column of the panel
    from the bottom up, packed eight pixels a byte with the bottom pixel in the high bit, so byte ``7 - page``
    of each row is that column's byte of ``page``."""
    raw = image.transpose(Image.Transpose.ROTATE_270).tobytes()
    return b"".join(raw[PAGES - 1 - page::PAGES] for page in range(PAGES))


def screen_image(screen: Screen, *, digits: str = "normal") -> Image.Image:
    """The 128x64 frame for ``screen`` (what :func:`render.render_image` gives, without a luma device)."""
    image = Image.new("1", (WIDTH, HEIGHT), 0)
    draw_screen(ImageDraw.Draw(image), screen, image, digits=digits)
    return image


def changed_runs(old: bytes, new: bytes, *, bridge: int = 0) -> dict[int, list[tuple[int, int]]]:
    """For each page that differs: the runs of changed columns, ``(first, last)``, in order; two runs at most
    ``bridge`` unchanged columns apart are sent as one (sending those columns again costs less than a new run)."""
    diff = (int.from_bytes(old, "big") ^ int.from_bytes(new, "big")).to_bytes(FRAME_BYTES, "big")
    gap = _gap(bridge)
    runs: dict[int, list[tuple[int, int]]] = {}
    for page in range(PAGES):
        strip = diff[page * WIDTH:(page + 1) * WIDTH]
        last = len(strip.rstrip(b"\0")) - 1
        if last < 0:
            continue
        start, found = WIDTH - len(strip.lstrip(b"\0")), []
        for unchanged in gap.finditer(strip, start, last):
            found.append((start, unchanged.start() - 1))
            start = unchanged.end()
        found.append((start, last))
        runs[page] = found
    return runs


@functools.lru_cache(maxsize=4)
def _gap(bridge: int) -> re.Pattern[bytes]:
    """Unchanged columns (zero bytes of the difference) too many to send again: more than ``bridge``."""
    return re.compile(rb"\x00{%d,}" % (bridge + 1))


def run_cost(chip: str) -> int:
    """Wire bytes a run of columns costs beyond its own data: a command transaction to place it, and the data
    transaction's own address and control bytes (START and STOP are about a bit each, left out)."""
    return _PLACE[chip] + 2 * _TRANSACTION


def _bus_errors() -> tuple[type[BaseException], ...]:
    try:
        from luma.core.error import Error as LumaError
    except ImportError:  # pragma: no cover - luma is a declared dependency
        return (OSError,)
    return (OSError, LumaError)


class OledDisplay:
    """A 128x64 SSD1306 or SH1106 OLED showing the unit's screens.

    Wiring (I2C, the default; enable it with ``raspi-config``): SDA to GPIO2
    (header pin 3), SCL to GPIO3 (pin 5), VCC to 3.3 V, GND; address 0x3C
    (0x3D when the module's address pad is moved). SPI modules: SPI0 MOSI
    GPIO10, SCLK GPIO11, CS on CE ``spi_device``, D/C on ``gpio_dc``, RES on
    ``gpio_reset`` (BCM numbers; defaults 23 and 27 leave 24/25 to the card
    readers' reset lines, but the readers also use both SPI0 chip selects, so
    with two MFRC522s keep the display on I2C).

    ``interface`` injects luma's serial interface (``i2c``, ``spi``, ``noop``
    or :class:`firmware_sim.display_sim.OledChip`); without it one is opened
    on ``bus``. ``contrast`` is 0-255. ``partial=False`` sends every frame whole. ``digits="large"`` draws a
    balance or an amount as tall as the panel fits (:mod:`render.large`).

    Example::

        with OledDisplay(chip="sh1106", port=1, address=0x3C) as display:
            display.show(Screen(lines=("Monopoly Bank", "Insert a card")))
            display.power(False)      # sleep: the panel off, RAM kept
    """

    def __init__(self, *, chip: str = "ssd1306", interface: Any = None, bus: str = "i2c",
                 port: int = 1, address: int = 0x3C, spi_device: int = 0,
                 gpio_dc: int = 23, gpio_reset: int = 27, contrast: int = 0xCF,
                 rotate: int = 0, partial: bool = True, digits: str = "normal") -> None:
        if chip not in CHIPS:
            raise ValueError(f"unknown OLED controller {chip!r}: use one of {', '.join(CHIPS)}")
        if digits not in DIGITS:
            raise ValueError(f"digits must be one of {', '.join(DIGITS)}, not {digits!r}")
        if not 0 <= contrast <= 255:
            raise ValueError(f"contrast must be 0-255, not {contrast}")
        self.chip = chip
        self.partial = partial
        self.digits = digits
        self.where = (f"I2C bus {port} at 0x{address:02X}" if bus == "i2c"
                      else f"SPI{port} CE{spi_device} (D/C GPIO{gpio_dc}, RES GPIO{gpio_reset})")
        if interface is None:
            interface = _open_interface(bus, port, address, spi_device, gpio_dc, gpio_reset)
        else:
            self.where = f"the {type(interface).__name__} interface" + (
                f" at 0x{interface.address:02X}" if isinstance(getattr(interface, "address", None), int) else "")
        self.interface = interface
        self.failed = False
        self.errors = 0
        self.last_error: BaseException | None = None
        self._errors = _bus_errors()
        self._screen: Screen | None = None
        self._sent: bytes | None = None
        self._on = True
        self._power_pending = False
        try:
            device_class = _device_class(chip)
            self.device = device_class(interface, width=WIDTH, height=HEIGHT, rotate=rotate)
            self.device.contrast(contrast)
        except self._errors as exc:
            raise DeviceMissing(
                f"no {chip} display answers on {self.where}: check its wiring and power"
                + (f", and the address with `i2cdetect -y {port}`" if bus == "i2c" else "")
                + f" ({exc})") from exc
        self._column_offset = getattr(self.device, "_page_address_offset", 0)
        self._sent = bytes(FRAME_BYTES)   # luma's start-up cleared the panel's RAM

    # -- the Display port ----------------------------------------------------------------

    def show(self, screen: Screen) -> None:
        """Draw ``screen``; a bus error is recorded (``failed``) and the next frame resends it all."""
        self._screen = screen
        image = screen_image(screen, digits=self.digits)
        try:
            if self._power_pending:
                self._set_power(self._on)
            self._send(image)
        except self._errors as exc:
            self._sent = None
            self._report(exc)
        else:
            self._recovered()

    def power(self, on: bool) -> None:
        """Wake (luma's ``show()``: display on) or sleep (``hide()``: display off, RAM kept)."""
        self._on = on
        try:
            self._set_power(on)
        except self._errors as exc:
            self._power_pending = True
            self._report(exc)
        else:
            self._recovered()

    def contrast(self, level: int) -> None:
        """Set the panel's contrast (0-255); a bus error is recorded like a failed frame."""
        if not 0 <= level <= 255:
            raise ValueError(f"contrast must be 0-255, not {level}")
        try:
            self.device.contrast(level)
        except self._errors as exc:
            self._report(exc)

    def retry(self) -> bool:
        """After a failure, resend the power state and the last screen; True when the display is fine again."""
        if self.failed:
            if self._screen is not None:
                self.show(self._screen)           # sends a pending power state first
            elif self._power_pending:
                self.power(self._on)
        return not self.failed

    # -- sending -------------------------------------------------------------------------

    def _set_power(self, on: bool) -> None:
        self.device.show() if on else self.device.hide()
        self._power_pending = False

    def _send(self, image: Image.Image) -> None:
        pages = frame_pages(self.device.preprocess(image))
        if self._sent is None or not self.partial:
            self._sent = None
            self.device.display(image)           # luma's own full-frame path
            self._sent = pages
            return
        runs = changed_runs(self._sent, pages, bridge=run_cost(self.chip))
        if not runs:
            return
        self._sent = None                         # unknown until every write has gone through
        if self.chip == "ssd1306" and self._window_is_cheaper(runs):
            self._send_window(pages, runs)
        else:
            self._send_runs(pages, runs)
        self._sent = pages

    def _window_is_cheaper(self, runs: dict[int, list[tuple[int, int]]]) -> bool:
        """One column x page window around every change, against each run sent on its own (wire bytes)."""
        p0, p1 = min(runs), max(runs)
        c0, c1 = min(r[0][0] for r in runs.values()), max(r[-1][1] for r in runs.values())
        window = run_cost(self.chip) + (c1 - c0 + 1) * (p1 - p0 + 1)
        apart = sum(run_cost(self.chip) + last - first + 1 for found in runs.values() for first, last in found)
        return window <= apart

    def _send_window(self, pages: bytes, runs: dict[int, list[tuple[int, int]]]) -> None:
        """SSD1306 horizontal addressing: one column x page window around every change."""
        p0, p1 = min(runs), max(runs)
        c0, c1 = min(r[0][0] for r in runs.values()), max(r[-1][1] for r in runs.values())
        self.device.command(0x21, c0, c1, 0x22, p0, p1)
        self.device.data(b"".join(pages[p * WIDTH + c0:p * WIDTH + c1 + 1] for p in range(p0, p1 + 1)))

    def _send_runs(self, pages: bytes, runs: dict[int, list[tuple[int, int]]]) -> None:
        """Each run of changed columns on its own: placed, then written."""
        for page, found in sorted(runs.items()):
            for first, last in found:
                if self.chip == "ssd1306":
                    self.device.command(0x21, first, last, 0x22, page, page)
                else:
                    column = first + self._column_offset
                    self.device.command(0xB0 | page, column & 0x0F, 0x10 | column >> 4)
                self.device.data(pages[page * WIDTH + first:page * WIDTH + last + 1])

    def _report(self, exc: BaseException) -> None:
        self.errors += 1
        self.last_error = exc
        if not self.failed:
            log.warning("display on %s: %s; retrying on the next frame", self.where, exc)
        self.failed = True

    def _recovered(self) -> None:
        if self.failed and not self._power_pending and self._sent is not None:
            log.info("display on %s is answering again", self.where)
            self.failed = False

    # -- lifetime ------------------------------------------------------------------------

    def close(self) -> None:
        """Blank and switch off the panel and release the bus (errors ignored: the panel may be gone)."""
        try:
            self.device.cleanup()
        except self._errors:
            pass

    def __enter__(self) -> OledDisplay:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _device_class(chip: str):
    try:
        from luma.oled import device
    except ImportError as exc:
        raise DriverLibraryMissing("the display needs luma.oled: pip install luma.oled") from exc
    return getattr(device, chip)


def _open_interface(bus: str, port: int, address: int, spi_device: int, gpio_dc: int, gpio_reset: int):
    """Open luma's I2C or SPI interface, with a clear message when the bus is not there."""
    if bus == "i2c":
        path = f"/dev/i2c-{port}"
        if not os.path.exists(path):
            raise DeviceMissing(f"no I2C bus {path}: enable I2C (sudo raspi-config, Interface Options, I2C) and reboot")
        try:
            import smbus2  # noqa: F401  (luma's i2c imports it; fail here with a useful message)
            from luma.core.interface.serial import i2c
        except ImportError as exc:
            raise DriverLibraryMissing(f"the I2C display needs smbus2 and luma.core: pip install smbus2 ({exc})") from exc
        return _luma_open(lambda: i2c(port=port, address=address), path)
    if bus == "spi":
        path = f"/dev/spidev{port}.{spi_device}"
        if not os.path.exists(path):
            raise DeviceMissing(f"no SPI device {path}: enable SPI (sudo raspi-config, Interface Options, SPI) and reboot")
        try:
            from luma.core.interface.serial import spi
        except ImportError as exc:  # pragma: no cover
            raise DriverLibraryMissing(f"the SPI display needs luma.core ({exc})") from exc
        return _luma_open(lambda: spi(port=port, device=spi_device, gpio_DC=gpio_dc, gpio_RST=gpio_reset), path)
    raise ValueError(f"display bus must be i2c or spi, not {bus!r}")


def _luma_open(opener, path: str):
    try:
        return opener()
    except _bus_errors() as exc:
        raise DeviceMissing(f"cannot open {path}: {exc}") from exc
