"""A simulated SSD1306 / SH1106 OLED controller: a byte-stream decoder behind luma's serial interface and an I2C bus.

:class:`OledChip` stands where luma's ``i2c`` / ``spi`` / ``noop`` interface stands (``command(*cmd)``,
``data(data)``, ``cleanup()``), so the real driver (:class:`drivers.display.OledDisplay`) and luma's own device
classes talk to it unchanged; :class:`I2cBus` puts it on an I2C bus for clients that frame the bytes themselves
(luma's ``i2c`` over SMBus block writes, Adafruit's CircuitPython driver over ``busio.I2C``-style writes with a
control byte before each command).

Commands are decoded as a stream, as the controller does (SSD1306 datasheet rev. 1.1 section 10, SH1106 datasheet
V2.3 "Commands"): a command's arguments may come in later transactions, and each chip knows only its own command
set; what it lacks is recorded in :attr:`OledChip.unsupported` and ignored, and the bytes that follow are read as
commands, as the real chip would. The picture (:meth:`OledChip.image`) follows the display RAM through segment
remap, COM scan direction, display start line and offset, the multiplex ratio, inversion and entire-display-on.
Bytes and I2C transactions are counted, with the time on a 400 kHz bus: each byte is 9 bit-times (8 data bits and
the ACK), each transaction adds a START, the address byte and a STOP. What is left out: ``docs/fidelity.md``.

Example::

    chip = OledChip("ssd1306")
    display = OledDisplay(chip="ssd1306", interface=chip)
    display.show(screen)
    chip.image()          # the 128x64 picture the panel shows
    chip.wire_bytes       # what crossed the bus
"""

from __future__ import annotations

import errno
from dataclasses import dataclass

from PIL import Image, ImageChops

from .oled_commands import COMMAND_SETS, FUNDAMENTAL, SCROLL

WIDTH, HEIGHT, PAGES = 128, 64, 8
I2C_HZ = 400_000
BITS_PER_BYTE = 9          # 8 data bits + ACK
START_STOP_BITS = 2        # START and STOP conditions, about one bit-time each
LUMA_SMBUS2_BLOCK = 4096   # luma's managed smbus2 path sends data in blocks of up to 4 KB
CHIPS = ("ssd1306", "sh1106")



@dataclass
class Counters:
    """Bus traffic since the counters were last reset."""

    transactions: int = 0
    command_bytes: int = 0
    data_bytes: int = 0
    wire_bytes: int = 0      # payload + address (and control) bytes of every transaction

    @property
    def payload_bytes(self) -> int:
        return self.command_bytes + self.data_bytes

    def i2c_seconds(self, hz: int = I2C_HZ) -> float:
        """Modelled time on an I2C bus at ``hz``."""
        return (self.wire_bytes * BITS_PER_BYTE + self.transactions * START_STOP_BITS) / hz


class OledChip:
    """An SSD1306 or SH1106 controller behind a recording serial interface (luma's ``command``/``data``/``cleanup``).

    ``fail_next(n)`` makes the next ``n`` transfers raise ``OSError(EREMOTEIO)``
    (a NACK, as smbus2 reports a glitch or a loose wire); ``unplug()`` makes
    every transfer fail until ``plug()``. A failed transfer changes nothing.
    ``block_size`` is how luma splits data: 4096 with smbus2 (managed), 32 with
    an injected SMBus. The panel is wired as on the common 128x64 modules:
    upright with segment remap on and COM scan reversed (A1, C8), as every
    driver sets them.
    """

    def __init__(self, chip: str = "ssd1306", *, address: int = 0x3C, block_size: int = LUMA_SMBUS2_BLOCK) -> None:
        if chip not in CHIPS:
            raise ValueError(f"unknown OLED controller {chip!r}")
        self.chip = chip
        self.address = address
        self.block_size = block_size
        self.ram_width = 132 if chip == "sh1106" else 128
        self.column_offset = (self.ram_width - WIDTH) // 2
        self.ram = bytearray(PAGES * self.ram_width)
        self.counters = Counters()
        self.log: list[tuple[str, bytes]] = []
        self.commands: list[tuple[int, ...]] = []
        self.unsupported: list[int] = []           # command bytes this controller does not have
        self.cleaned_up = False
        self._fail = 0
        self._unplugged = False
        self._reset()

    def _reset(self) -> None:
        """The state after power-on reset (SSD1306 8.9, SH1106 "Power on and reset")."""
        self.on = False
        self.contrast: int | None = None
        self.mode = 2                              # page addressing
        self.page = 0
        self.column = 0
        self.window = (0, WIDTH - 1, 0, PAGES - 1)
        self.segment_remap = False
        self.com_reversed = False
        self.start_line = 0
        self.display_offset = 0
        self.multiplex = HEIGHT
        self.inverted = False
        self.entire_on = False
        self.scrolling = False
        self._pending: list[int] = []              # a command waiting for its arguments
        self._wanted = 0

    # -- faults ------------------------------------------------------------------------

    def fail_next(self, count: int = 1) -> None:
        """Make the next ``count`` transfers fail with an I/O error."""
        self._fail += count

    def unplug(self) -> None:
        self._unplugged = True

    def plug(self) -> None:
        self._unplugged = False

    def _transfer(self) -> None:
        if self._unplugged or self._fail:
            self._fail = max(0, self._fail - 1)
            raise OSError(errno.EREMOTEIO, f"Remote I/O error (no ACK from 0x{self.address:02X})")

    # -- luma's serial interface ---------------------------------------------------------

    def command(self, *cmd: int) -> None:
        """One transaction of command bytes (luma: control byte 0x00, then the bytes)."""
        self._transfer()
        self.counters.transactions += 1
        self.counters.command_bytes += len(cmd)
        self.counters.wire_bytes += len(cmd) + 2
        self.log.append(("command", bytes(cmd)))
        for byte in cmd:
            self._command_byte(byte)

    def data(self, data) -> None:
        """Display data, ``block_size`` bytes a transaction (luma: control byte 0x40, then the bytes)."""
        data = bytes(data)
        for start in range(0, len(data), self.block_size):
            self._transfer()
            block = data[start:start + self.block_size]
            self.counters.transactions += 1
            self.counters.data_bytes += len(block)
            self.counters.wire_bytes += len(block) + 2
            self.log.append(("data", block))
            self._write_run(block)

    def cleanup(self) -> None:
        self.cleaned_up = True

    # -- the I2C protocol (SSD1306 8.1.5, SH1106 "I2C interface") ----------------------------

    def i2c_write(self, payload: bytes) -> None:
        """One I2C write after the address byte: control bytes (Co, D/C#) and the bytes they announce."""
        self._transfer()
        payload = bytes(payload)
        self.counters.transactions += 1
        self.counters.wire_bytes += len(payload) + 1
        i = 0
        while i < len(payload):
            control = payload[i]
            is_data, last = bool(control & 0x40), not control & 0x80   # Co = 0: the rest is one stream
            body = payload[i + 1:] if last else payload[i + 1:i + 2]
            i += 1 + len(body)
            self.log.append(("data" if is_data else "command", body))
            if is_data:
                self.counters.data_bytes += len(body)
                self._write_run(body)
            else:
                self.counters.command_bytes += len(body)
                for byte in body:
                    self._command_byte(byte)

    # -- the controller ------------------------------------------------------------------

    def _command_byte(self, byte: int) -> None:
        if self._wanted:
            self._pending.append(byte)
            self._wanted -= 1
            if not self._wanted:
                op, *args = self._pending
                self._pending = []
                self._run(op, args)
            return
        wanted = COMMAND_SETS[self.chip].get(byte)
        if wanted is None:
            self.unsupported.append(byte)          # not this chip's command: ignored
            self.commands.append((byte,))
            return
        if wanted:
            self._pending, self._wanted = [byte], wanted
        else:
            self._run(byte, [])

    def _run(self, op: int, args: list[int]) -> None:
        """One whole command, by the datasheet's command tables (SSD1306 9, SH1106 "Commands")."""
        self.commands.append((op, *args))
        if op <= 0x22 or 0xB0 <= op <= 0xB7:
            self._address(op, args)
        elif op in SCROLL:
            self.scrolling = op == 0x2F if op in (0x2E, 0x2F) else self.scrolling
        elif op in FUNDAMENTAL:
            self._fundamental(op, args)
        else:
            self._hardware(op, args)

    def _address(self, op: int, args: list[int]) -> None:
        """Addressing: the memory mode, the column and page window, and page mode's page and column."""
        if op == 0x20:
            self.mode = args[0] & 0x03 if args[0] & 0x03 != 3 else self.mode
        elif op == 0x21:
            self.window = (args[0] & 0x7F, args[1] & 0x7F, self.window[2], self.window[3])
            self.column = self.window[0]
        elif op == 0x22:
            self.window = (self.window[0], self.window[1], args[0] & 0x07, args[1] & 0x07)
            self.page = self.window[2]
        elif self.mode == 2:                       # SSD1306: page addressing mode only
            self._page_mode_address(op)

    def _page_mode_address(self, op: int) -> None:
        """B0-B7 set the page, 00-0F the column's low nibble, 10-1F its high one."""
        if op >= 0xB0:
            self.page = op & 0x07
        elif op <= 0x0F:
            self.column = (self.column & 0xF0) | op
        else:
            self.column = ((self.column & 0x0F) | ((op & 0x0F) << 4)) % self.ram_width

    def _fundamental(self, op: int, args: list[int]) -> None:
        """On and off, contrast, entire display on, inverse."""
        if op in (0xAE, 0xAF):
            self.on = op == 0xAF
        elif op == 0x81:
            self.contrast = args[0]
        elif op in (0xA4, 0xA5):
            self.entire_on = op == 0xA5
        else:
            self.inverted = op == 0xA7

    def _hardware(self, op: int, args: list[int]) -> None:
        """Start line, segment remap, multiplex, offset, COM scan; the rest (charge pump, clock ...) shows nothing."""
        if 0x40 <= op <= 0x7F:
            self.start_line = op & 0x3F
        elif op in (0xA0, 0xA1):
            self.segment_remap = op == 0xA1
        elif op == 0xA8:
            self.multiplex = max(16, (args[0] & 0x3F) + 1)
        elif op == 0xD3:
            self.display_offset = args[0] & 0x3F
        elif 0xC0 <= op <= 0xCF:
            self.com_reversed = bool(op & 0x08)

    def _write_run(self, data: bytes) -> None:
        """Display data into RAM as :meth:`_write` writes it byte by byte, a run along a row a slice at a time; each
        slice's last byte goes through :meth:`_write`, which moves the address on (and wraps it) as ever."""
        i, n, width = 0, len(data), self.ram_width
        while i < n:
            end = self.window[1] + 1 if self.chip == "ssd1306" and self.mode == 0 else width
            count = 0 if self.chip == "ssd1306" and self.mode == 1 else min(n - i, end - self.column)
            if count < 2 or end > width:           # vertical mode, outside the RAM or window, a lone byte
                self._write(data[i])
                i += 1
                continue
            at = self.page * width + self.column
            self.ram[at:at + count - 1] = data[i:i + count - 1]
            self.column += count - 1
            self._write(data[i + count - 1])
            i += count

    def _write(self, byte: int) -> None:
        if self.column < self.ram_width:
            self.ram[self.page * self.ram_width + self.column] = byte
        c0, c1, p0, p1 = self.window
        if self.chip == "ssd1306" and self.mode == 0:          # horizontal: across, then down
            self.column += 1
            if self.column > c1:
                self.column = c0
                self.page = p0 if self.page >= p1 else self.page + 1
        elif self.chip == "ssd1306" and self.mode == 1:        # vertical: down, then across
            self.page += 1
            if self.page > p1:
                self.page = p0
                self.column = c0 if self.column >= c1 else self.column + 1
        else:
            self.column = (self.column + 1) % self.ram_width   # page mode: wraps within the page

    # -- what a test reads ---------------------------------------------------------------

    @property
    def wire_bytes(self) -> int:
        return self.counters.wire_bytes

    def reset_counters(self) -> Counters:
        """Return the traffic so far and start counting afresh."""
        done, self.counters = self.counters, Counters()
        return done

    def ram_image(self) -> Image.Image:
        """Display RAM as a picture, column by column, page row 0 at the top (no display settings applied)."""
        ram = Image.new("1", (self.ram_width, HEIGHT), 0)
        for page in range(PAGES):
            row = bytes(self.ram[page * self.ram_width:(page + 1) * self.ram_width])
            strip = Image.frombytes("1", (8, self.ram_width), row)     # a byte a row, bit 0 at the right
            strip = strip.transpose(Image.Transpose.FLIP_LEFT_RIGHT).transpose(Image.Transpose.TRANSPOSE)
            ram.paste(strip, (0, page * 8))
        return ram

    def image(self) -> Image.Image:
        """The 128x64 mode-"1" picture the panel shows while it is on."""
        if self.entire_on:
            return _ones(Image.new("1", (WIDTH, HEIGHT), 1))
        ram = self.ram_image()
        if self.segment_remap:                     # column ram_width-1 drives SEG0: upright on the modules
            ram = ram.crop((self.column_offset, 0, self.column_offset + WIDTH, HEIGHT))
        else:
            ram = ram.transpose(Image.Transpose.FLIP_LEFT_RIGHT).crop(
                (self.column_offset, 0, self.column_offset + WIDTH, HEIGHT))
        picture = Image.new("1", (WIDTH, HEIGHT), 0)
        for line in range(self.multiplex):         # the rows the multiplex ratio scans
            row = (line + self.start_line + self.display_offset) % HEIGHT
            com = self.multiplex - 1 - line if self.com_reversed else line
            picture.paste(ram.crop((0, row, WIDTH, row + 1)), (0, self._viewer_row(com)))
        if self.inverted:
            picture = ImageChops.invert(picture.convert("L")).convert("1")
        return _ones(picture)

    def _viewer_row(self, com: int) -> int:
        """The modules mount the panel upside down: COM0 is the bottom row as the player sees it."""
        return HEIGHT - 1 - com

    def lit(self) -> Image.Image:
        """What a person sees: the picture when the panel is on, black when it sleeps."""
        return self.image() if self.on else Image.new("1", (WIDTH, HEIGHT), 0)


def _ones(picture: Image.Image) -> Image.Image:
    """Lit pixels as 1, as luma's canvas leaves them (so ``ImageChops.difference`` with a rendered frame is exact)."""
    return picture.point(lambda v: 1 if v else 0)


class I2cBus:
    """An I2C bus with ``chips`` at their addresses, for clients that speak I2C themselves.

    SMBus style (``write_i2c_block_data``), for luma's real ``i2c`` class:
    ``luma.core.interface.serial.i2c(bus=I2cBus(chip))`` runs luma's own I2C
    code (32-byte blocks, its EIO -> ``DeviceNotFoundError`` translation).
    ``busio.I2C`` style (``try_lock``/``writeto``/``unlock``/``scan``), for
    Adafruit's CircuitPython drivers through ``adafruit_bus_device``.
    """

    def __init__(self, *chips: OledChip) -> None:
        self.chips = {chip.address: chip for chip in chips}
        self._locked = False

    def _chip(self, address: int) -> OledChip:
        chip = self.chips.get(address)
        if chip is None:
            raise OSError(errno.EREMOTEIO, "Remote I/O error")
        return chip

    # SMBus
    def write_i2c_block_data(self, address: int, register: int, data: list[int]) -> None:
        if register not in (0x00, 0x40):
            raise OSError(errno.EINVAL, f"control byte 0x{register:02X} is neither command nor data")
        self._chip(address).i2c_write(bytes((register,)) + bytes(data))

    # busio.I2C
    def try_lock(self) -> bool:
        if self._locked:
            return False
        self._locked = True
        return True

    def unlock(self) -> None:
        self._locked = False

    def scan(self) -> list[int]:
        return sorted(self.chips)

    def writeto(self, address: int, buffer, *, start: int = 0, end: int | None = None) -> None:
        chip = self._chip(address)
        payload = bytes(buffer[start:end])
        if payload:                                # an empty write is a probe: the ACK is enough
            chip.i2c_write(payload)

    def readfrom_into(self, address: int, buffer, *, start: int = 0, end: int | None = None) -> None:
        self._chip(address)
        for i in range(start, len(buffer) if end is None else end):
            buffer[i] = 0                          # status byte: on, nothing busy

    def close(self) -> None:
        pass


#: The name the luma tests knew it by.
SmbusBus = I2cBus
