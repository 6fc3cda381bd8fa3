"""A register-level model of the NXP MFRC522 reader chip over SPI, with ISO 14443-A cards in its field.

The model answers the bytes a Raspberry Pi clocks over SPI exactly as the
datasheet describes (address byte ``1aaaaaa0`` to read, ``0aaaaaa0`` to
write, bursts allowed), keeps simulated time in a shared :class:`SimClock`
(every transfer costs ``bits / spi_hz`` seconds, RF frames cost their 106 kbit/s
air time, the chip's timer fires in simulated time) and records every SPI
transfer so that tests and benchmarks can count bus use.
"""

from __future__ import annotations

from functools import reduce
from operator import or_
from typing import Callable

from .picc import Picc, PiccState, SimClock, crc_a  # noqa: F401  (the model's cards and clock)

# Registers (datasheet section 9) and bits used by the model.
COMMAND, COM_IEN, DIV_IEN, COM_IRQ, DIV_IRQ, ERROR, STATUS1, STATUS2 = range(1, 9)
FIFO_DATA, FIFO_LEVEL, WATER_LEVEL, CONTROL, BIT_FRAMING, COLL = range(9, 15)
MODE, TX_CONTROL = 0x11, 0x14
CRC_RESULT_H, CRC_RESULT_L = 0x21, 0x22
T_MODE, T_PRESCALER, T_RELOAD_H, T_RELOAD_L = 0x2A, 0x2B, 0x2C, 0x2D
VERSION = 0x37

CMD_IDLE, CMD_CALC_CRC, CMD_TRANSMIT = 0x0, 0x3, 0x4
CMD_NO_CHANGE, CMD_RECEIVE, CMD_TRANSCEIVE, CMD_AUTHENT, CMD_SOFT_RESET = 0x7, 0x8, 0xC, 0xE, 0xF

IRQ_TX, IRQ_RX, IRQ_IDLE, IRQ_ERR, IRQ_TIMER, DIV_IRQ_CRC = 0x40, 0x20, 0x10, 0x02, 0x01, 0x04
ERR_BUFFER_OVFL, ERR_COLL = 0x10, 0x08

CHIP_VERSION = 0x92  # MFRC522 version 2.0
FIFO_SIZE = 64
CARRIER_HZ = 13_560_000
RF_BIT_S = 128 / CARRIER_HZ        # one bit at 106 kbit/s
FRAME_DELAY_S = 1172 / CARRIER_HZ  # PCD end of frame to PICC start of answer (FDT)

_RESET_VALUES = {
    COMMAND: 0x20, COM_IEN: 0x80, COM_IRQ: 0x14, STATUS1: 0x21, WATER_LEVEL: 0x08,
    CONTROL: 0x10, COLL: 0xA0, MODE: 0x3F, TX_CONTROL: 0x80, 0x16: 0x10, 0x17: 0x84,
    0x18: 0x84, 0x19: 0x4D, 0x1C: 0x62, 0x1F: 0xEB, CRC_RESULT_H: 0xFF, CRC_RESULT_L: 0xFF,
    0x24: 0x26, 0x26: 0x48, 0x27: 0x88, 0x28: 0x20, 0x29: 0x20, VERSION: CHIP_VERSION,
}


class Mfrc522Chip:
    """One MFRC522 as its SPI bus sees it, with the cards lying in its antenna field.

    Wiring modelled: SDA/NSS on a chip select (CE0/CE1), SCK/MOSI/MISO on SPI0,
    NRSTPD on a GPIO (``set_reset_line``; low = hard power-down, no answer).
    ``transfers`` holds every MOSI byte string clocked to it (even while in
    reset), ``bus_time_s`` the SPI clock time they took at ``spi_hz``.

    Example::

        chip = Mfrc522Chip()
        chip.place(Picc.from_hex("DEADBEEF"))
        chip.transfer([0x37 << 1 | 0x80, 0])   # -> [0, 0x92]
    """

    def __init__(self, clock: SimClock | None = None, *, spi_hz: int = 1_000_000) -> None:
        self.clock = clock or SimClock()
        self.spi_hz = spi_hz
        self.cards: list[Picc] = []
        self.transfers: list[bytes] = []
        self.bus_time_s = 0.0
        self.in_reset = False
        self.air_frames: list[bytes] = []
        self._events: list[tuple[float, Callable[[float], None]]] = []
        self._power_on_reset()

    # --- the outside world -------------------------------------------------
    def place(self, card: Picc) -> Picc:
        """Lay ``card`` on the reader (it powers up in IDLE)."""
        card.power_off()
        self.cards.append(card)
        return card

    def take(self, card: Picc) -> None:
        """Lift ``card`` off the reader."""
        self.cards.remove(card)
        card.power_off()

    def set_reset_line(self, level: int) -> None:
        """Drive NRSTPD: low holds the chip in hard power-down; a rising edge resets it."""
        if not level and not self.in_reset:
            self.in_reset = True
            self._field_off()
        elif level and self.in_reset:
            self.in_reset = False
            self._power_on_reset()

    @property
    def transfer_count(self) -> int:
        return len(self.transfers)

    @property
    def field_on(self) -> bool:
        return not self.in_reset and bool(self.regs[TX_CONTROL] & 0x03)

    # --- SPI ---------------------------------------------------------------
    def transfer(self, mosi: list[int] | bytes) -> list[int]:
        """Clock ``mosi`` through the chip's SPI port; return the MISO bytes."""
        mosi = bytes(mosi)
        self.transfers.append(mosi)
        seconds = len(mosi) * 8 / self.spi_hz
        self.bus_time_s += seconds
        self.clock.advance(seconds)
        if self.in_reset or not mosi:
            return [0] * len(mosi)
        self._sync()
        if mosi[0] & 0x80:                       # read: each byte names the next address
            return [0] + [self._read((a >> 1) & 0x3F) for a in mosi[:-1]]
        addr = (mosi[0] >> 1) & 0x3F             # write: all data bytes to one address
        for value in mosi[1:]:
            self._write(addr, value)
        return [0] * len(mosi)

    # --- registers ---------------------------------------------------------
    def _power_on_reset(self) -> None:
        self.regs = [0] * 64
        for addr, value in _RESET_VALUES.items():
            self.regs[addr] = value
        self.fifo: list[int] = []
        self._events.clear()
        self._timer_deadline: float | None = None
        self._crc: list[int] | None = None
        self._field_off()

    def _field_off(self) -> None:
        for card in self.cards:
            card.power_off()

    def _sync(self) -> None:
        """Let simulated time catch up: deliver due frames, fire the timer."""
        now = self.clock.now
        while self._events and self._events[0][0] <= now:
            when, action = self._events.pop(0)
            action(when)
        if self._timer_deadline is not None and self._timer_deadline <= now:
            self._timer_deadline = None
            self.regs[COM_IRQ] |= IRQ_TIMER

    def _read(self, addr: int) -> int:
        if addr == FIFO_DATA:
            return self.fifo.pop(0) if self.fifo else 0
        if addr == FIFO_LEVEL:
            return len(self.fifo)
        if addr == STATUS1:
            return self._status1()
        return self.regs[addr]                   # (TCounterValueReg is not modelled: reads 0)

    def _status1(self) -> int:
        value = 0x20 if self._crc is not None or self.regs[COMMAND] & 0x0F != CMD_CALC_CRC else 0
        if self._timer_deadline is not None:
            value |= 0x08
        if self.regs[COM_IRQ] & self.regs[COM_IEN] & 0x7F or self.regs[DIV_IRQ] & self.regs[DIV_IEN] & 0x1F:
            value |= 0x10
        if FIFO_SIZE - len(self.fifo) <= self.regs[WATER_LEVEL]:
            value |= 0x02
        if len(self.fifo) <= self.regs[WATER_LEVEL]:
            value |= 0x01
        return value

    def _timer_period(self) -> float:
        prescaler = (self.regs[T_MODE] & 0x0F) << 8 | self.regs[T_PRESCALER]
        reload = self.regs[T_RELOAD_H] << 8 | self.regs[T_RELOAD_L]
        return (2 * prescaler + 1) * (reload + 1) / CARRIER_HZ

    def _write(self, addr: int, value: int) -> None:
        if addr == COMMAND:
            self._command(value)
        elif addr in (COM_IRQ, DIV_IRQ):         # bit 7 chooses set (1) or clear (0) of the marked bits
            if value & 0x80:
                self.regs[addr] |= value & 0x7F
            else:
                self.regs[addr] &= ~value & 0x7F
        elif addr == FIFO_DATA:
            self._push_fifo(value)
        elif addr == FIFO_LEVEL:
            if value & 0x80:
                self.fifo.clear()
                self.regs[ERROR] &= ~ERR_BUFFER_OVFL
        elif addr == BIT_FRAMING:
            self.regs[addr] = value
            if value & 0x80 and self.regs[COMMAND] & 0x0F == CMD_TRANSCEIVE:
                self._send(receive=True)
        elif addr == CONTROL:
            if value & 0x40:
                self._timer_deadline = self.clock.now + self._timer_period()
            if value & 0x80:
                self._timer_deadline = None
        elif addr == TX_CONTROL:
            was_on = self.field_on
            self.regs[addr] = value
            if was_on and not self.field_on:
                self._field_off()
        elif addr == STATUS2:
            self.regs[addr] = value & 0x08 & self.regs[addr] | value & 0xC0
        elif addr in (ERROR, STATUS1, VERSION, CRC_RESULT_H, CRC_RESULT_L):
            pass                                 # read-only
        else:
            self.regs[addr] = value

    def _push_fifo(self, value: int) -> None:
        if self.regs[COMMAND] & 0x0F == CMD_CALC_CRC and self._crc is not None:
            self._crc.append(value)              # CalcCRC keeps eating FIFO input
            self._store_crc()
        elif len(self.fifo) >= FIFO_SIZE:
            self.regs[ERROR] |= ERR_BUFFER_OVFL
        else:
            self.fifo.append(value)

    # --- commands ----------------------------------------------------------
    def _command(self, value: int) -> None:
        cmd = value & 0x0F
        if cmd == CMD_NO_CHANGE:
            self.regs[COMMAND] = self.regs[COMMAND] & 0x0F | value & 0x30
            return
        self.regs[COMMAND] = value & 0x3F
        self._events.clear()                     # a new command aborts the running one
        self._crc = None
        if cmd == CMD_SOFT_RESET:
            self._power_on_reset()
        elif cmd == CMD_CALC_CRC:
            self._crc = list(self.fifo)
            self.fifo.clear()
            self._store_crc()
        elif cmd == CMD_TRANSMIT:
            self._send(receive=False)
        elif cmd == CMD_AUTHENT:
            self._authenticate()
        elif cmd not in (CMD_IDLE, CMD_RECEIVE, CMD_TRANSCEIVE):
            self._finish()                       # Mem, RandomID, unknown: done at once

    def _finish(self) -> None:
        self.regs[COMMAND] &= 0x30
        self.regs[COM_IRQ] |= IRQ_IDLE

    def _store_crc(self) -> None:
        preset = (0x0000, 0x6363, 0xA671, 0xFFFF)[self.regs[MODE] & 0x03]
        low, high = crc_a(self._crc or [], preset)
        self.regs[CRC_RESULT_L], self.regs[CRC_RESULT_H] = low, high
        self.regs[DIV_IRQ] |= DIV_IRQ_CRC

    def _send(self, *, receive: bool) -> None:
        """Send the FIFO on air; with ``receive`` collect the cards' answers (Transceive)."""
        frame, self.fifo = bytes(self.fifo), []
        last_bits = self.regs[BIT_FRAMING] & 0x07
        self.regs[ERROR] &= ERR_BUFFER_OVFL
        tx_bits = (len(frame) - 1) * 9 + (last_bits or 8) + 2 if frame else 0
        tx_end = self.clock.now + tx_bits * RF_BIT_S
        self._events.append((tx_end, lambda t: self._transmitted(t, frame, last_bits, receive)))

    def _transmitted(self, now: float, frame: bytes, last_bits: int, receive: bool) -> None:
        self.regs[COM_IRQ] |= IRQ_TX
        self.air_frames.append(frame)
        answers = [a for a in (c.hear(frame, last_bits) for c in list(self.cards)) if a is not None] \
            if self.field_on and frame else []
        if not receive:
            self._finish()
            return
        if not answers:
            if self.regs[T_MODE] & 0x80:         # TAuto: timer runs from end of transmission
                self._timer_deadline = now + self._timer_period()
            return
        self._timer_deadline = None              # the answer's start stops the timer
        size = max(len(a) for a in answers)
        merged = bytes(reduce(or_, (a[i] if i < len(a) else 0 for a in answers)) for i in range(size))
        collided = any(a != answers[0] for a in answers)
        rx_end = now + FRAME_DELAY_S + (size * 9 + 2) * RF_BIT_S
        self._events.append((rx_end, lambda t: self._received(merged, collided, answers)))

    def _received(self, data: bytes, collided: bool, answers: list[bytes]) -> None:
        for byte in data:
            self._push_fifo(byte)
        self.regs[CONTROL] = self.regs[CONTROL] & 0xF8  # whole bytes: RxLastBits = 0
        self.regs[COM_IRQ] |= IRQ_RX
        if collided:
            first = next(i * 8 + bit for i in range(len(data)) for bit in range(8)
                         if len({a[i] >> bit & 1 if i < len(a) else 0 for a in answers}) > 1)
            self.regs[COLL] = (first + 1) & 0x1F
            self.regs[ERROR] |= ERR_COLL
            self.regs[COM_IRQ] |= IRQ_ERR

    def _authenticate(self) -> None:
        """MFAuthent, minimal: succeeds when an ACTIVE card's UID is the one in the FIFO."""
        data, self.fifo = bytes(self.fifo), []
        uid = data[8:12]
        if self.field_on and any(c.state == PiccState.ACTIVE and c.uid[:4] == uid for c in self.cards):
            self.regs[STATUS2] |= 0x08
            self._finish()
        elif self.regs[T_MODE] & 0x80:
            self._timer_deadline = self.clock.now + self._timer_period()

