"""A simulated SSD1306 / SH1106 OLED on a recording bus: luma's serial-interface seam, with the chip's RAM modelled.

:class:`OledChip` stands where luma's ``i2c`` / ``spi`` / ``noop`` interface
stands (``command(*cmd)``, ``data(data)``, ``cleanup()``), so the real driver
(:class:`drivers.display.OledDisplay`) and luma's own device classes talk to
it unchanged. It decodes what they send the way the controller does (page,
column and window commands; horizontal and page addressing; display on/off;
contrast) into the 8 pages x 128 (SH1106: 132) columns of display RAM, and
counts the bytes and I2C transactions, modelling the time on a 400 kHz bus:
each byte is 9 bit-times (8 data bits and the ACK), each transaction adds
a START, the address byte, the control byte and a STOP.

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

from PIL import Image

WIDTH, HEIGHT, PAGES = 128, 64, 8
I2C_HZ = 400_000
BITS_PER_BYTE = 9          # 8 data bits + ACK
START_STOP_BITS = 2        # START and STOP conditions, about one bit-time each
LUMA_SMBUS2_BLOCK = 4096   # luma's managed smbus2 path sends data in blocks of up to 4 KB

#: Commands followed by N argument bytes (the rest take none).
_ARGS = {0x81: 1, 0x20: 1, 0x21: 2, 0x22: 2, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1,
         0xDA: 1, 0xDB: 1, 0x8D: 1, 0xAD: 1}
_SH1106_NO_ARGS = {0x20}   # SH1106 has no memory-mode command: luma sends 0x20 alone


@dataclass
class Counters:
    """Bus traffic since the counters were last reset."""

    transactions: int = 0
    command_bytes: int = 0
    data_bytes: int = 0
    wire_bytes: int = 0      # payload + address and control byte of every transaction

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
    an injected SMBus.
    """

    def __init__(self, chip: str = "ssd1306", *, address: int = 0x3C, block_size: int = LUMA_SMBUS2_BLOCK) -> None:
        if chip not in ("ssd1306", "sh1106"):
            raise ValueError(f"unknown OLED controller {chip!r}")
        self.chip = chip
        self.address = address
        self.block_size = block_size
        self.ram_width = 132 if chip == "sh1106" else 128
        self.column_offset = 2 if chip == "sh1106" else 0
        self.ram = bytearray(PAGES * self.ram_width)
        self.on = False
        self.contrast: int | None = None
        self.mode = 2                      # page addressing after reset
        self.page = 0
        self.column = 0
        self.window = (0, WIDTH - 1, 0, PAGES - 1)
        self.counters = Counters()
        self.log: list[tuple[str, bytes]] = []
        self.commands: list[tuple[int, ...]] = []
        self.cleaned_up = False
        self._fail = 0
        self._unplugged = False

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
        self._transfer()
        self.counters.transactions += 1
        self.counters.command_bytes += len(cmd)
        self.counters.wire_bytes += len(cmd) + 2
        self.log.append(("command", bytes(cmd)))
        self._decode_commands(list(cmd))

    def data(self, data) -> None:
        data = bytes(data)
        for start in range(0, len(data), self.block_size):
            self._transfer()
            block = data[start:start + self.block_size]
            self.counters.transactions += 1
            self.counters.data_bytes += len(block)
            self.counters.wire_bytes += len(block) + 2
            self.log.append(("data", block))
            for byte in block:
                self._write(byte)

    def cleanup(self) -> None:
        self.cleaned_up = True

    # -- the controller ------------------------------------------------------------------

    def _decode_commands(self, cmd: list[int]) -> None:
        i = 0
        while i < len(cmd):
            op = cmd[i]
            n = 0 if (self.chip == "sh1106" and op in _SH1106_NO_ARGS) else _ARGS.get(op, 0)
            args = cmd[i + 1:i + 1 + n]
            self.commands.append((op, *args))
            self._apply(op, args)
            i += 1 + n

    def _apply(self, op: int, args: list[int]) -> None:
        if op == 0xAE:
            self.on = False
        elif op == 0xAF:
            self.on = True
        elif op == 0x81 and args:
            self.contrast = args[0]
        elif op == 0x20 and args and self.chip == "ssd1306":
            self.mode = args[0] & 0x03
        elif op == 0x21 and len(args) == 2:
            self.window = (args[0], args[1], self.window[2], self.window[3])
            self.column = args[0]
        elif op == 0x22 and len(args) == 2:
            self.window = (self.window[0], self.window[1], args[0], args[1])
            self.page = args[0]
        elif 0xB0 <= op <= 0xB7:
            self.page = op & 0x07
        elif op <= 0x0F:
            self.column = (self.column & 0xF0) | op
        elif op <= 0x1F:
            self.column = (self.column & 0x0F) | ((op & 0x0F) << 4)

    def _write(self, byte: int) -> None:
        if self.column < self.ram_width:
            self.ram[self.page * self.ram_width + self.column] = byte
        if self.chip == "ssd1306" and self.mode == 0:
            c0, c1, p0, p1 = self.window
            self.column += 1
            if self.column > c1:
                self.column = c0
                self.page = p0 if self.page >= p1 else self.page + 1
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

    def image(self) -> Image.Image:
        """The 128x64 mode-"1" picture held in display RAM (what the panel shows when on)."""
        image = Image.new("1", (WIDTH, HEIGHT), 0)
        pixels = image.load()
        for page in range(PAGES):
            row = page * self.ram_width + self.column_offset
            for x in range(WIDTH):
                byte = self.ram[row + x]
                if byte:
                    for bit in range(8):
                        if byte >> bit & 1:
                            pixels[x, page * 8 + bit] = 1
        return image

    def lit(self) -> Image.Image:
        """What a person sees: the RAM's picture when the panel is on, black when it sleeps."""
        return self.image() if self.on else Image.new("1", (WIDTH, HEIGHT), 0)


class SmbusBus:
    """An SMBus-like bus (``write_i2c_block_data``) with ``chips`` at their addresses, for luma's real ``i2c`` class.

    ``luma.core.interface.serial.i2c(bus=SmbusBus(chip))`` then runs luma's
    own I2C code (32-byte blocks, its EIO -> ``DeviceNotFoundError``
    translation) against the simulated controller.
    """

    def __init__(self, *chips: OledChip) -> None:
        self.chips = {chip.address: chip for chip in chips}

    def write_i2c_block_data(self, address: int, register: int, data: list[int]) -> None:
        chip = self.chips.get(address)
        if chip is None:
            raise OSError(errno.EREMOTEIO, "Remote I/O error")
        if register == 0x00:
            chip.command(*data)
        elif register == 0x40:
            chip.data(data)
        else:
            raise OSError(errno.EINVAL, f"control byte 0x{register:02X} is neither command nor data")

    def close(self) -> None:
        pass
