"""A register-level model of the NXP MFRC522 reader chip over SPI, with ISO 14443-A cards in its field.

The model answers the bytes a Raspberry Pi clocks over SPI as the datasheet
(NXP MFRC522 rev. 3.9) describes: address byte ``1aaaaaa0`` to read,
``0aaaaaa0`` to write, bursts allowed (8.1.2). It keeps simulated time in a
shared :class:`SimClock`: every transfer costs ``bits / spi_hz`` seconds, RF
frames cost their 106 kbit/s air time, cards answer after the ISO 14443-3
frame delay time, and the timer unit counts in simulated time (8.5). It
records every SPI transfer so that tests and benchmarks can count bus use.
What it models and what it leaves out: ``docs/fidelity.md``.
"""

from __future__ import annotations

import heapq
from itertools import count
from collections.abc import Callable

from .mfrc522_regs import *  # noqa: F403  (the datasheet's register map, named as the datasheet names it)
from .mfrc522_regs import _READ_ONLY, _RESET_VALUES
from .mfrc522_rf import RfSide
from .mfrc522_timer import TimerUnit
from .picc import BIT_S, CARRIER_HZ, Picc, PiccState, SimClock, crc_a, frame_bits, frame_delay_s, superpose  # noqa: F401
from .recent_log import RecentLog

KEEP = 4096  # SPI transfers and air frames each chip's log keeps (an hour's polling makes a million)


class Mfrc522Chip(RfSide):
    """One MFRC522 as its SPI bus sees it, with the cards lying in its antenna field.

    Wiring modelled: SDA/NSS on a chip select (CE0/CE1), SCK/MOSI/MISO on SPI0, NRSTPD on a GPIO
    (``set_reset_line``; low = hard power-down, no answer; the rising edge resets the chip, which then needs
    ``startup_s`` plus the datasheet's 37.74 us before it answers). ``transfers`` logs the MOSI byte strings clocked
    to it, even in reset (a :class:`RecentLog`: the last :data:`KEEP`, all counted; ``transfer_bytes`` their bytes),
    ``bus_time_s`` the SPI clock time they took at ``spi_hz``.

    Cards hear a frame only when the field is on (TxControlReg Tx1RFEn or Tx2RFEn), the drivers take the internal
    encoder (TxSelReg), modulation is 100 % ASK (TxASKReg Force100ASK) and both directions run at 106 kBd; the air
side is :class:`firmware_sim.mfrc522_rf.RfSide`.

    Example::

        chip = Mfrc522Chip()
        chip.place(Picc.from_hex("DEADBEEF"))
        chip.transfer([0x37 << 1 | 0x80, 0])   # -> [0, 0x92]
    """

    def __init__(self, clock: SimClock | None = None, *, spi_hz: int = 1_000_000,
                 startup_s: float = CRYSTAL_STARTUP_S) -> None:
        self.clock = clock or SimClock()
        self.spi_hz = spi_hz
        self.startup_s = startup_s
        self.cards: list[Picc] = []
        self.transfers, self.air_frames = RecentLog(KEEP), RecentLog(KEEP)  # bounded: a long run stays flat
        self.transfer_bytes, self.bus_time_s = 0, 0.0
        self.in_reset = False
        self._disturb: list[str] = []
        self._events: list[tuple[float, int, Callable[[float], None]]] = []
        self._order = count()
        self._ready_at = self.clock.now              # powered long ago: ready now
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

    def disturb(self, kind: str, count: int = 1) -> None:
        """Spoil the next ``count`` card answers: ``parity`` (a wrong parity bit), ``crc`` (a corrupted byte)
        or ``sof`` (no valid start of frame)."""
        if kind not in DISTURBANCES:
            raise ValueError(f"unknown disturbance {kind!r}: use one of {', '.join(DISTURBANCES)}")
        self._disturb.extend([kind] * count)

    def set_reset_line(self, level: int) -> None:
        """Drive NRSTPD: low holds the chip in hard power-down; a rising edge resets it (8.6.1, 8.8.3)."""
        if not level and not self.in_reset:
            self.in_reset = True
            self._field_off()
        elif level and self.in_reset:
            self.in_reset = False
            self._power_on_reset()
            self._ready_at = self.clock.now + self.startup_s + T_DELAY_S

    @property
    def transfer_count(self) -> int:
        return len(self.transfers)

    @property
    def field_on(self) -> bool:
        return not self.in_reset and not self._soft_power_down and bool(self.regs[TX_CONTROL] & 0x03)

    @property
    def ready(self) -> bool:
        """Out of reset and past the oscillator's start-up: it answers SPI."""
        return not self.in_reset and self.clock.now >= self._ready_at

    # --- SPI ---------------------------------------------------------------
    def transfer(self, mosi: list[int] | bytes) -> list[int]:
        """Clock ``mosi`` through the chip's SPI port; return the MISO bytes."""
        mosi = bytes(mosi)
        self.transfers.append(mosi)
        self.transfer_bytes += len(mosi)
        self.bus_time_s += (seconds := len(mosi) * 8 / self.spi_hz)
        self.clock.advance(seconds)
        if not mosi or not self.ready:
            return [0] * len(mosi)
        self._sync()
        if mosi[0] & 0x80:                       # read: each byte names the next address
            return [0] + [self._read((a >> 1) & 0x3F) for a in mosi[:-1]]
        addr = (mosi[0] >> 1) & 0x3F             # write: all data bytes to one address
        for value in mosi[1:]:
            self._write(addr, value)
        return [0] * len(mosi)

    # --- time ----------------------------------------------------------------
    def _at(self, when: float, action: Callable[[float], None]) -> None:
        heapq.heappush(self._events, (when, next(self._order), action))

    def _sync(self) -> None:
        """Let simulated time catch up: frames end, the timer counts down, in the order they happen."""
        now = self.clock.now
        while True:
            due = self._events[0][0] if self._events else None
            fire = self.timer.fires_at()
            if fire is not None and fire <= now and (due is None or fire <= due):
                self._irq(IRQ_TIMER)
                self.timer.underflow(fire)
            elif due is not None and due <= now:
                when, _, action = heapq.heappop(self._events)
                action(when)
            else:
                return

    # --- registers ---------------------------------------------------------
    def _power_on_reset(self) -> None:
        self.regs = [0] * 64
        for addr, value in _RESET_VALUES.items():
            self.regs[addr] = value
        self.fifo: list[int] = []
        self._events.clear()
        self.timer = TimerUnit(self.regs)
        self._crc: list[int] | None = None
        self._soft_power_down = False
        self._wake_at = 0.0
        self._modem = 0                          # Status2Reg ModemState
        self._receiving_until: float | None = None
        self._alerts = self._alert_levels()
        self._field_off()

    def _field_off(self) -> None:
        for card in self.cards:
            card.power_off()

    def _irq(self, bits: int) -> None:
        self.regs[COM_IRQ] |= bits

    def _error(self, bits: int) -> None:
        self.regs[ERROR] |= bits
        self._irq(IRQ_ERR)

    def _alert_levels(self) -> tuple[bool, bool]:
        water = self.regs[WATER_LEVEL] & 0x3F
        return FIFO_SIZE - len(self.fifo) <= water, len(self.fifo) <= water

    def _fifo_changed(self) -> None:
        """HiAlertIRq/LoAlertIRq store the moment Status1Reg's HiAlert/LoAlert become true (9.3.1.5)."""
        hi, lo = self._alert_levels()
        if hi and not self._alerts[0]:
            self._irq(IRQ_HI_ALERT)
        if lo and not self._alerts[1]:
            self._irq(IRQ_LO_ALERT)
        self._alerts = (hi, lo)

    def _read(self, addr: int) -> int:
        if addr == FIFO_DATA:
            value = self.fifo.pop(0) if self.fifo else 0
            self._fifo_changed()
            return value
        if addr == FIFO_LEVEL:
            return len(self.fifo)
        if addr == STATUS1:
            return self._status1()
        if addr == STATUS2:
            return self.regs[STATUS2] & 0xF8 | self._modem
        if addr == COMMAND:
            return self._command_reg()
        if addr in (T_COUNTER_H, T_COUNTER_L):
            value = self.timer.value(self.clock.now)
            return value >> 8 if addr == T_COUNTER_H else value & 0xFF
        if addr == CONTROL:
            return self.regs[CONTROL] & 0x07 | 0x10   # TStopNow/TStartNow read 0
        return self.regs[addr]

    def _command_reg(self) -> int:
        """CommandReg as read: PowerDown reads 1 until the oscillator runs again after a wake-up (8.6.2)."""
        waking = self._soft_power_down or self.clock.now < self._wake_at
        return self.regs[COMMAND] & ~POWER_DOWN | (POWER_DOWN if waking else 0)

    def _status1(self) -> int:
        value = 0
        if self._crc is not None or self.regs[COMMAND] & 0x0F != CMD_CALC_CRC:
            value |= 0x20                        # CRCReady
            if self.regs[CRC_RESULT_H] == self.regs[CRC_RESULT_L] == 0:
                value |= 0x40                    # CRCOk: the result is zero
        if self.timer.running:
            value |= 0x08
        if self.regs[COM_IRQ] & self.regs[COM_IEN] & 0x7F or self.regs[DIV_IRQ] & self.regs[DIV_IEN] & 0x1F:
            value |= 0x10
        hi, lo = self._alert_levels()
        return value | (0x02 if hi else 0) | (0x01 if lo else 0)

    def _write(self, addr: int, value: int) -> None:
        """A write: the registers whose writing does something (datasheet section 9) in ``_WRITES``, else stored."""
        if (write := _WRITES.get(addr)) is not None:
            write(self, addr, value)
        elif addr not in _READ_ONLY:
            self.regs[addr] = value

    def _set_or_clear_irq(self, addr: int, value: int) -> None:
        """ComIrqReg, DivIrqReg: bit 7 chooses set (1) or clear (0) of the marked bits."""
        if value & 0x80:
            self.regs[addr] |= value & 0x7F
        else:
            self.regs[addr] &= ~value & 0x7F

    def _write_fifo(self, addr: int, value: int) -> None:
        if self._receiving_until is not None:
            self._error(ERR_WR)                  # written between the last bit sent and the last received
        self._push_fifo(value)

    def _flush_fifo(self, addr: int, value: int) -> None:
        """FIFOLevelReg's FlushBuffer: the FIFO empties and BufferOvfl clears."""
        if value & 0x80:
            self.fifo.clear()
            self.regs[ERROR] &= ~ERR_BUFFER_OVFL
            self._fifo_changed()

    def _write_bit_framing(self, addr: int, value: int) -> None:
        """BitFramingReg: StartSend starts a Transceive's sending."""
        self.regs[addr] = value & 0x7F
        if value & 0x80 and self.regs[COMMAND] & 0x0F == CMD_TRANSCEIVE and not self._soft_power_down:
            self._send(receive=True)

    def _write_control(self, addr: int, value: int) -> None:
        """ControlReg: TStartNow, TStopNow."""
        if value & 0x40:
            self.timer.start(self.clock.now)
        if value & 0x80:
            self.timer.stop(self.clock.now)

    def _write_tx_control(self, addr: int, value: int) -> None:
        """TxControlReg: the field going off powers the cards down."""
        was_on = self.field_on
        self.regs[addr] = value
        if was_on and not self.field_on:
            self._field_off()

    def _write_status2(self, addr: int, value: int) -> None:
        self.regs[addr] = value & 0x08 & self.regs[addr] | value & 0xC0

    def _write_water_level(self, addr: int, value: int) -> None:
        self.regs[addr] = value & 0x3F
        self._fifo_changed()

    def _push_fifo(self, value: int) -> None:
        if self.regs[COMMAND] & 0x0F == CMD_CALC_CRC and self._crc is not None:
            self._crc.append(value)              # CalcCRC keeps eating FIFO input
            self._store_crc()
        elif len(self.fifo) >= FIFO_SIZE:
            self._error(ERR_BUFFER_OVFL)
        else:
            self.fifo.append(value)
            self._fifo_changed()

    # --- commands (10.3) ---------------------------------------------------
    def _command(self, value: int) -> None:
        cmd = value & 0x0F
        if value & POWER_DOWN and cmd != CMD_SOFT_RESET:
            self._enter_power_down()
        elif self._soft_power_down:
            self._wake_up()
        if cmd == CMD_NO_CHANGE:
            self.regs[COMMAND] = self.regs[COMMAND] & 0x0F | value & 0x20
            return
        if self._soft_power_down and cmd not in (CMD_IDLE, CMD_SOFT_RESET):
            return                               # no clock: no command runs
        self.regs[COMMAND] = value & 0x2F
        self._events.clear()                     # a new command aborts the running one
        self._receiving_until, self._modem = None, 0
        self._crc = None
        self._start(cmd)

    def _start(self, cmd: int) -> None:
        """What the command ``cmd`` does once it starts (10.3.1)."""
        if cmd == CMD_SOFT_RESET:
            waking = self._wake_at
            self._power_on_reset()
            self._wake_at = waking
        elif cmd == CMD_CALC_CRC:
            self._crc = list(self.fifo)
            self.fifo.clear()
            self._fifo_changed()
            self._store_crc()
        elif cmd == CMD_TRANSMIT:
            self._send(receive=False)
        elif cmd == CMD_TRANSCEIVE:
            self._modem = 1                      # waiting for StartSend
        elif cmd == CMD_AUTHENT:
            self._authenticate()
        elif cmd not in (CMD_IDLE, CMD_RECEIVE):
            self._finish()                       # Mem, RandomID, unknown: done at once

    def _enter_power_down(self) -> None:
        """Soft power-down (8.6.2): the oscillator and the field stop, the registers keep their values."""
        self._soft_power_down = True
        self._field_off()

    def _wake_up(self) -> None:
        self._soft_power_down = False
        self._wake_at = self.clock.now + self.startup_s + T_DELAY_S

    def _finish(self) -> None:
        self.regs[COMMAND] &= 0x20
        self._modem = 0
        self._irq(IRQ_IDLE)

    def _store_crc(self) -> None:
        preset = (0x0000, 0x6363, 0xA671, 0xFFFF)[self.regs[MODE] & 0x03]
        low, high = crc_a(self._crc or [], preset)
        self.regs[CRC_RESULT_L], self.regs[CRC_RESULT_H] = low, high
        self.regs[DIV_IRQ] |= DIV_IRQ_CRC

    def _authenticate(self) -> None:
        """MFAuthent, minimal: succeeds when an ACTIVE card's UID is the one in the FIFO."""
        data, self.fifo = bytes(self.fifo), []
        self._fifo_changed()
        uid = data[8:12]
        if self.field_on and any(c.state == PiccState.ACTIVE and c.uid[:4] == uid for c in self.cards):
            self.regs[STATUS2] |= 0x08
            self._finish()
        elif self.regs[T_MODE] & T_AUTO:
            self.timer.start(self.clock.now)


_WRITES: dict[int, Callable[[Mfrc522Chip, int, int], None]] = {
    COMMAND: lambda chip, _addr, value: chip._command(value),
    COM_IRQ: Mfrc522Chip._set_or_clear_irq, DIV_IRQ: Mfrc522Chip._set_or_clear_irq,
    FIFO_DATA: Mfrc522Chip._write_fifo, FIFO_LEVEL: Mfrc522Chip._flush_fifo,
    BIT_FRAMING: Mfrc522Chip._write_bit_framing, CONTROL: Mfrc522Chip._write_control,
    TX_CONTROL: Mfrc522Chip._write_tx_control, STATUS2: Mfrc522Chip._write_status2,
    WATER_LEVEL: Mfrc522Chip._write_water_level,
}
