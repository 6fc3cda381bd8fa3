"""The MFRC522 (RC522) 13.56 MHz card reader on the Raspberry Pi's SPI bus, polled cheaply for the card slots.

Built on the ``mfrc522`` package (its constructor, reset-pin handling and
``Write_MFRC522``/``Read_MFRC522``), imported only when a reader is made.
Its ``MFRC522_ToCard`` spins on ~2,000 register reads when no card answers;
``Mfrc522Reader.poll`` instead lets the chip's own timer decide "no card"
after 1 ms and looks at the IRQ register once: 8 SPI transfers per empty poll.
"""

from __future__ import annotations

import time
from typing import Callable

from banker.errors import ConfigError
from drivers.card_slots import ReaderError, ReaderLibraryMissing, ReaderNotFound

# MFRC522 registers, commands and bits (datasheet section 9).
_COMMAND, _COM_IRQ, _ERROR, _FIFO_DATA, _FIFO_LEVEL, _BIT_FRAMING = 0x01, 0x04, 0x06, 0x09, 0x0A, 0x0D
_T_MODE, _T_PRESCALER, _T_RELOAD_H, _T_RELOAD_L, _VERSION = 0x2A, 0x2B, 0x2C, 0x2D, 0x37
_IDLE, _TRANSMIT, _TRANSCEIVE = 0x00, 0x04, 0x0C
_IRQ_TX, _IRQ_RX, _IRQ_ERR, _IRQ_TIMER = 0x40, 0x20, 0x02, 0x01
_ERR_COLL, _ERR_FRAME = 0x08, 0x17              # collision; buffer overflow, CRC, parity, protocol
_WUPA, _SEL_CL1, _SEL_CL2, _CASCADE_TAG = 0x52, 0x93, 0x95, 0x88
#: VersionReg values of MFRC522 chips and the common clones (FM17522, counterfeit 0x12/0xB2).
KNOWN_VERSIONS = frozenset({0x88, 0x90, 0x91, 0x92, 0x12, 0xB2})
_TIMER_PRESCALER = 169                           # 13.56 MHz / (2 * 169 + 1): one tick = 25 us
_RF_BIT_S = 128 / 13_560_000                     # one bit on air at 106 kbit/s

_reset_pin_users: dict[tuple[int, int], int] = {}


def _crc_a(data: bytes) -> bytes:
    crc = 0x6363
    for byte in data:
        byte ^= crc & 0xFF
        byte = (byte ^ (byte << 4)) & 0xFF
        crc = ((crc >> 8) ^ (byte << 8) ^ (byte << 3) ^ (byte >> 4)) & 0xFFFF
    return bytes((crc & 0xFF, crc >> 8))


_HLTA = bytes((0x50, 0x00)) + _crc_a(bytes((0x50, 0x00)))


class _Collision(Exception):
    """Two or more cards answered at once."""


class Mfrc522Reader:
    """One MFRC522 reader on SPI; ``poll()`` returns the UID (upper-case hex) of the card on it, or None.

    Wiring (3.3 V only): SDA/NSS -> CE0 (GPIO8, pin 24) for ``device=0`` or
    CE1 (GPIO7, pin 26) for ``device=1``; SCK -> GPIO11 (pin 23); MOSI ->
    GPIO10 (pin 19); MISO -> GPIO9 (pin 21); RST -> ``reset_pin`` (BCM
    numbering; the unit uses GPIO25/pin 22 for the ``+`` reader and GPIO24/pin
    18 for the ``-`` reader); IRQ unconnected. Enable SPI with
    ``dtparam=spi=on``. Pin numbering is BCM (set here if nobody set it).

    Each poll wakes every card with WUPA, so a card that was read and halted
    keeps answering while it lies there; it reads the UID by anticollision
    (cascade level 2 for 7-byte UIDs) and halts the card again. Two cards
    on one reader collide: the poll returns None (``collisions`` counts
    them) rather than guess. ``sleep`` is how the poll waits for the chip's
    timer; pass a simulated clock's ``sleep`` in tests.

    Example::

        with Mfrc522Reader(bus=0, device=0, reset_pin=25) as plus:
            print(plus.poll())      # 'DEADBEEF' or None
    """

    def __init__(self, bus: int = 0, device: int = 0, reset_pin: int = 25, spi_speed_hz: int = 1_000_000,
                 *, response_timeout_s: float = 0.001, sleep: Callable[[float], None] = time.sleep,
                 irq_reads: int = 3) -> None:
        if not 0.0001 <= response_timeout_s <= 1.0:
            raise ConfigError("response_timeout_s must lie between 0.1 ms and 1 s")
        self.where = f"SPI{bus} CE{device} (/dev/spidev{bus}.{device}), reset on GPIO{reset_pin}"
        try:
            import RPi.GPIO as gpio
            import spidev  # noqa: F401  (the mfrc522 package needs it; fail here with a clear message)
            from mfrc522 import MFRC522
        except (ImportError, RuntimeError) as exc:
            raise ReaderLibraryMissing(
                f"the MFRC522 reader needs the 'mfrc522', 'spidev' and 'RPi.GPIO' packages on a "
                f"Raspberry Pi ({type(exc).__name__}: {exc}); off a Pi use the simulator backend") from exc
        if gpio.getmode() is None:
            gpio.setmode(gpio.BCM)
        elif gpio.getmode() != gpio.BCM:
            raise ConfigError("RPi.GPIO is in BOARD numbering; the card readers expect BCM pin numbers")
        self._gpio, self._sleep, self._irq_reads = gpio, sleep, max(1, irq_reads)
        self._pin_key = (id(gpio), reset_pin)
        self._timeout_s = response_timeout_s
        self.collisions = 0
        self._chip = None
        _reset_pin_users[self._pin_key] = _reset_pin_users.get(self._pin_key, 0) + 1
        try:
            self._chip = MFRC522(bus=bus, device=device, spd=spi_speed_hz, pin_mode=gpio.BCM, pin_rst=reset_pin)
        except OSError as exc:
            self._release_pin()
            raise ReaderNotFound(f"cannot open {self.where}: {exc}; is SPI enabled (dtparam=spi=on)?") from exc
        version = self._chip.Read_MFRC522(_VERSION)
        if version not in KNOWN_VERSIONS:
            self.close()
            raise ReaderNotFound(
                f"no MFRC522 answers on {self.where} (VersionReg reads 0x{version:02X}): check the "
                f"wiring, the 3.3 V supply and that RST is on GPIO{reset_pin} and not held low")
        self.version = version
        reload = max(1, round(response_timeout_s * 13_560_000 / (2 * _TIMER_PRESCALER + 1)) - 1)
        write = self._chip.Write_MFRC522
        write(_T_MODE, 0x80 | _TIMER_PRESCALER >> 8)   # TAuto: the timer starts when a frame is sent
        write(_T_PRESCALER, _TIMER_PRESCALER & 0xFF)
        write(_T_RELOAD_H, reload >> 8)
        write(_T_RELOAD_L, reload & 0xFF)

    # --- public ------------------------------------------------------------
    def poll(self) -> str | None:
        """Return the UID (upper-case hex) of the one card on the reader, or None."""
        if self._chip is None:
            raise ReaderError(f"the reader on {self.where} is closed")
        if self._transceive(bytes((_WUPA,)), last_bits=7) is None:
            return None
        try:
            uid = self._read_uid()
        except _Collision:
            self.collisions += 1
            uid = None
        self._halt()
        return uid

    def close(self) -> None:
        """Switch the antenna off, release the SPI device and (if no other reader shares it) the reset pin."""
        if self._chip is None:
            return
        chip, self._chip = self._chip, None
        try:
            chip.AntennaOff()
            chip.spi.close()
        finally:
            self._release_pin()

    def __enter__(self) -> "Mfrc522Reader":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # --- the ISO 14443-3 exchanges -----------------------------------------
    def _read_uid(self) -> str | None:
        part = self._anticollision(_SEL_CL1)
        if part is None:
            return None
        if part[0] != _CASCADE_TAG:
            return part[:4].hex().upper()
        frame = bytes((_SEL_CL1, 0x70)) + part
        sak = self._transceive(frame + _crc_a(frame), reply_len=3)
        if sak is None or not sak[0] & 0x04:
            return None
        rest = self._anticollision(_SEL_CL2)
        return None if rest is None else (part[1:4] + rest[:4]).hex().upper()

    def _anticollision(self, level: int) -> bytes | None:
        reply = self._transceive(bytes((level, 0x20)), reply_len=5)
        if reply is None or reply[0] ^ reply[1] ^ reply[2] ^ reply[3] != reply[4]:
            return None
        return reply

    def _halt(self) -> None:
        """Send HLTA (Transmit: no answer expected) so the card answers only WUPA from now on."""
        self._chip.Write_MFRC522(_COMMAND, _IDLE)
        self._chip.Write_MFRC522(_FIFO_LEVEL, 0x80)
        self._burst_write(_FIFO_DATA, _HLTA)
        self._chip.Write_MFRC522(_COMMAND, _TRANSMIT)
        self._sleep((len(_HLTA) * 9 + 2) * _RF_BIT_S)

    # --- register level ------------------------------------------------------
    def _transceive(self, frame: bytes, *, last_bits: int = 0, reply_len: int = 0) -> bytes | None:
        """Send ``frame``; return the answer (``reply_len`` bytes), None if no card answered well.

        Raises ``_Collision`` if several cards answered differently.
        """
        write, read = self._chip.Write_MFRC522, self._chip.Read_MFRC522
        write(_COMMAND, _IDLE)              # stop whatever ran before
        write(_COM_IRQ, 0x7F)               # clear every interrupt bit
        write(_FIFO_LEVEL, 0x80)            # flush the FIFO
        self._burst_write(_FIFO_DATA, frame)
        write(_BIT_FRAMING, last_bits)
        write(_COMMAND, _TRANSCEIVE)
        write(_BIT_FRAMING, 0x80 | last_bits)   # StartSend
        tx_bits = (len(frame) - 1) * 9 + (last_bits or 8) + 2
        self._sleep(tx_bits * _RF_BIT_S + self._timeout_s * 1.2)
        irq = 0
        for attempt in range(self._irq_reads):
            irq = read(_COM_IRQ)
            if irq & (_IRQ_RX | _IRQ_TIMER):
                break
            if attempt + 1 < self._irq_reads:
                self._sleep(self._timeout_s / 2)
        if not irq & _IRQ_TX:
            raise ReaderNotFound(f"the MFRC522 on {self.where} stopped answering (IRQ register 0x{irq:02X})")
        if not irq & _IRQ_RX:
            return None                     # the timer ran out: no card
        if irq & _IRQ_ERR:
            error = read(_ERROR)
            if error & _ERR_COLL:
                raise _Collision()
            if error & _ERR_FRAME:
                return None
        if not reply_len:
            return b""
        level, *data = self._burst_read([_FIFO_LEVEL] + [_FIFO_DATA] * reply_len)
        return bytes(data) if level == reply_len else None

    def _burst_write(self, register: int, data: bytes) -> None:
        """Write all of ``data`` to one register in a single SPI transfer (datasheet 8.1.2.3)."""
        self._chip.spi.xfer2([(register << 1) & 0x7E] + list(data))

    def _burst_read(self, registers: list[int]) -> list[int]:
        """Read several registers in a single SPI transfer."""
        return self._chip.spi.xfer2([((r << 1) & 0x7E) | 0x80 for r in registers] + [0])[1:]

    def _release_pin(self) -> None:
        users = _reset_pin_users.get(self._pin_key, 0) - 1
        if users > 0:
            _reset_pin_users[self._pin_key] = users
            return
        _reset_pin_users.pop(self._pin_key, None)
        self._gpio.cleanup(self._pin_key[1])
