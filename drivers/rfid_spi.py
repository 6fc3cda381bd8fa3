"""The MFRC522 (RC522) 13.56 MHz card reader on SPI, polled cheaply for the card slots.

The driver talks to the chip's registers itself over any object with
``spidev.SpiDev``'s ``xfer2()``/``close()``, and raises its RST line through
any gpiozero-style output (``on()``/``off()``/``close()``); it imports no
hardware library. :func:`open_mfrc522` builds one on a Raspberry Pi from
``spidev`` (imported only then) and a gpiozero ``DigitalOutputDevice``.
A poll lets the chip's own timer decide "no card" (0.3 ms after sending,
well past ISO 14443-3's latest answer) and looks at the IRQ register once:
7 SPI transfers per empty poll (the ``mfrc522`` package's ``MFRC522_ToCard``
spins on ~2,000 register reads instead).
"""

from __future__ import annotations

import time
from typing import Any, Protocol
from collections.abc import Callable

from banker.errors import ConfigError
from drivers.card_slots import ReaderError, ReaderLibraryMissing, ReaderNotFound, TwoCards
from drivers.reset_line import SharedReset, reset_output  # noqa: F401  (the readers' RST outputs)

# MFRC522 registers, commands and bits (datasheet section 9).
_COMMAND, _COM_IRQ, _ERROR, _FIFO_DATA, _FIFO_LEVEL, _BIT_FRAMING = 0x01, 0x04, 0x06, 0x09, 0x0A, 0x0D
_MODE, _TX_MODE, _RX_MODE, _TX_CONTROL, _TX_ASK = 0x11, 0x12, 0x13, 0x14, 0x15
_T_MODE, _T_PRESCALER, _T_RELOAD_H, _T_RELOAD_L, _VERSION = 0x2A, 0x2B, 0x2C, 0x2D, 0x37
_IDLE, _TRANSMIT, _TRANSCEIVE, _SOFT_RESET = 0x00, 0x04, 0x0C, 0x0F
_POWER_DOWN = 0x10                               # CommandReg: still waking up (8.6.2)
_IRQ_TX, _IRQ_RX, _IRQ_ERR, _IRQ_TIMER = 0x40, 0x20, 0x02, 0x01
_ERR_COLL, _ERR_FRAME = 0x08, 0x17              # collision; buffer overflow, CRC, parity, protocol
_WUPA, _SEL_CL1, _SEL_CL2, _CASCADE_TAG = 0x52, 0x93, 0x95, 0x88
#: VersionReg values of MFRC522 chips and the common clones (FM17522, counterfeit 0x12/0xB2).
KNOWN_VERSIONS = frozenset({0x88, 0x90, 0x91, 0x92, 0x12, 0xB2})
_FC = 13_560_000                                 # the carrier
_TIMER_PRESCALER = 169                           # 13.56 MHz / (2 * 169 + 1): one tick = 25 us (8.5)
_TICK_S = (2 * _TIMER_PRESCALER + 1) / _FC
_RF_BIT_S = 128 / _FC                            # one bit on air at 106 kbit/s
_MAX_SPI_HZ = 10_000_000                         # datasheet 8.1.2: up to 10 Mbit/s
#: ISO/IEC 14443-3 6.2.1.1: a card answers REQA/WUPA/ANTICOLLISION/SELECT (n = 9) at most
#: (9 * 128 + 84) / fc after the reader's last pause; the timer (TAuto) stops at the answer's 5th bit.
FRAME_DELAY_MAX_S = (9 * 128 + 84) / _FC
#: The shortest response timeout that still hears a card: the latest 5th bit, plus one timer tick.
MIN_RESPONSE_TIMEOUT_S = FRAME_DELAY_MAX_S + 5 * _RF_BIT_S + _TICK_S
#: The longest the timer can count at 25 us a tick (TReloadReg is 16 bits).
MAX_RESPONSE_TIMEOUT_S = 65_536 * _TICK_S
_STARTUP_S = 0.05                                # waiting for the oscillator after a reset, at most (8.8.3)


def _crc_a(data: bytes) -> bytes:
    crc = 0x6363
    for byte in data:
        byte ^= crc & 0xFF
        byte = (byte ^ (byte << 4)) & 0xFF
        crc = ((crc >> 8) ^ (byte << 8) ^ (byte << 3) ^ (byte >> 4)) & 0xFFFF
    return bytes((crc & 0xFF, crc >> 8))


def _air_bits(frame_len: int, last_bits: int = 0) -> int:
    """Bits on air: start, 9 per whole byte (8 data + parity), a short last byte's bits, end."""
    return 1 + (frame_len - 1) * 9 + last_bits + 1 if last_bits else 1 + frame_len * 9 + 1


_HLTA = bytes((0x50, 0x00)) + _crc_a(bytes((0x50, 0x00)))


class SpiPort(Protocol):
    """What the driver needs of its bus: ``spidev.SpiDev``'s full-duplex transfer and close."""

    def xfer2(self, data: list[int]) -> list[int]: ...
    def close(self) -> None: ...


class ResetLine(Protocol):
    """What the driver needs of its RST (NRSTPD) line: a gpiozero-style digital output."""

    def on(self) -> None: ...
    def off(self) -> None: ...
    def close(self) -> None: ...


def wiring(bus: int, device: int, reset_pin: int) -> str:
    """How a reader's place is named in messages: ``SPI0 CE1 (/dev/spidev0.1), reset on GPIO24``."""
    return f"SPI{bus} CE{device} (/dev/spidev{bus}.{device}), reset on GPIO{reset_pin}"


class Mfrc522Reader:
    """One MFRC522 reader; ``poll()`` returns the UID (upper-case hex) of the card on it, or None.

    ``spi`` is the reader's SPI device (``spidev.SpiDev`` opened in mode 0,
    or a simulated one), ``reset`` the output on its RST pin (a gpiozero
    ``DigitalOutputDevice``); the reader owns both and closes them when it is
    closed or fails to open. ``where`` names the place in messages.

    Wiring (3.3 V only): SDA/NSS -> CE0 (GPIO8, pin 24) for ``/dev/spidev0.0``
    or CE1 (GPIO7, pin 26) for ``/dev/spidev0.1``; SCK -> GPIO11 (pin 23);
    MOSI -> GPIO10 (pin 19); MISO -> GPIO9 (pin 21); RST -> any GPIO (the
    unit uses GPIO25/pin 22 for the ``+`` reader and GPIO24/pin 18 for the
    ``-`` reader); IRQ unconnected. Enable SPI with ``dtparam=spi=on``.

    Opening raises RST, waits for the chip's oscillator, soft-resets it,
    checks VersionReg, sets the timer, 100 % ASK and the antenna. Each poll
    wakes every card with WUPA, so a card that was read and halted keeps
    answering while it lies there; it reads the UID by anticollision
    (cascade level 2 for 7-byte UIDs) and halts the card again.

    The waits come from the chip: the timer starts when a frame has been
    sent and stops at the 5th bit of an answer (TAuto), so after StartSend
    the driver sleeps until the expected answer has ended or the timer has
    run out (``response_timeout_s``, between :data:`MIN_RESPONSE_TIMEOUT_S`
    from ISO 14443-3's frame delay and the timer's range), whichever is
    later, and reads the IRQ register once. The HLTA that ends a read goes on
    air while the poll returns; the next exchange waits for its end.

    Faults: two cards on the reader raise :class:`~drivers.card_slots.TwoCards`
    (``collisions`` counts them); a chip that stops answering, or whose
    timer no longer runs (it was reset), raises ``ReaderNotFound``, and the
    next poll sets the chip up afresh. ``sleep`` and ``clock`` are how the
    driver waits and tells time; pass a simulated clock's in tests.

    Example (on a Pi; :func:`open_mfrc522` does the same in one call)::

        import spidev
        from gpiozero import DigitalOutputDevice
        spi = spidev.SpiDev()
        spi.open(0, 0)
        spi.max_speed_hz, spi.mode = 1_000_000, 0
        with Mfrc522Reader(spi, DigitalOutputDevice(25, initial_value=True), where="SPI0 CE0") as plus:
            print(plus.poll())      # 'DEADBEEF' or None

    Off a Pi, on the chip model (``firmware_sim.fake_rpi``)::

        board = FakeRfidBoard()
        board.add_reader(device=0, reset_pin=25)
        reset = reset_output(25, pin_factory=board.pin_factory)
        with Mfrc522Reader(board.spi(0, 0), reset, sleep=board.clock.sleep, clock=board.clock) as plus:
            print(plus.poll())      # None: no card on it
    """

    def __init__(self, spi: SpiPort, reset: ResetLine, *, where: str = "SPI",
                 response_timeout_s: float = 0.0003, sleep: Callable[[float], None] = time.sleep,
                 clock: Callable[[], float] = time.monotonic, irq_reads: int = 3) -> None:
        self.where = where
        self._spi: SpiPort | None = spi
        self._reset = reset
        self._sleep, self._clock, self._irq_reads = sleep, clock, max(1, irq_reads)
        self.collisions = 0
        self.errors = 0                          # answers spoilt by parity, CRC or framing errors
        self._on_air_until = float("-inf")
        try:
            if not MIN_RESPONSE_TIMEOUT_S <= response_timeout_s <= MAX_RESPONSE_TIMEOUT_S:
                raise ConfigError(f"response_timeout_s must lie between {MIN_RESPONSE_TIMEOUT_S * 1e3:.2f} ms "
                                  f"(ISO 14443-3's latest answer) and {MAX_RESPONSE_TIMEOUT_S:.2f} s "
                                  "(the timer's range)")
            self._reload = max(1, round(response_timeout_s / _TICK_S) - 1)
            self._timeout_s = (self._reload + 1) * _TICK_S
            reset.on()
            self.version = self._wait_for_version(_STARTUP_S)
            self._configure()
        except BaseException:
            self._release(antenna_off=False)
            raise
        self._needs_setup = False

    # --- public ------------------------------------------------------------
    def poll(self) -> str | None:
        """Return the UID (upper-case hex) of the one card on the reader, or None.

        Raises ``TwoCards`` when several cards answer, ``ReaderNotFound`` when the chip does not.
        """
        if self._spi is None:
            raise ReaderError(f"the reader on {self.where} is closed")
        try:
            if self._needs_setup:
                self.version = self._wait_for_version(0.0)
                self._configure()
                self._needs_setup = False
            try:
                if self._transceive(bytes((_WUPA,)), last_bits=7, answer_len=2) is None:
                    return None
            except TwoCards:
                self._halt()                     # READY cards answer no WUPA: send them back to IDLE
                raise
            try:
                return self._read_uid()
            finally:
                self._halt()
        except TwoCards:
            self.collisions += 1
            raise
        except ReaderNotFound:
            self._needs_setup = True
            raise

    def close(self) -> None:
        """Switch the antenna off, release the SPI device and the reset output."""
        self._release(antenna_off=True)

    def __enter__(self) -> Mfrc522Reader:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # --- opening and closing ---------------------------------------------------
    def _wait_for_version(self, patience_s: float) -> int:
        """VersionReg once the chip answers (it reads 0 while its oscillator starts, 8.8.3)."""
        waited, step = 0.0, 0.0001
        while True:
            version = self._read(_VERSION)
            if version in KNOWN_VERSIONS or waited >= patience_s:
                break
            self._sleep(step)
            waited, step = waited + step, min(step * 2, 0.005)
        if version not in KNOWN_VERSIONS:
            raise ReaderNotFound(
                f"no MFRC522 answers on {self.where} (VersionReg reads 0x{version:02X}): check the "
                f"wiring, the 3.3 V supply and that RST is on {_pin_name(self._reset)} and not held low")
        return version

    def _configure(self) -> None:
        """Soft-reset the chip, wait until it is awake, set the timer, 100 % ASK and the antenna."""
        self._write(_COMMAND, _SOFT_RESET)
        waited, step = 0.0, 0.0001
        while self._read(_COMMAND) & _POWER_DOWN and waited < _STARTUP_S:   # still waking (8.6.2)
            self._sleep(step)
            waited, step = waited + step, min(step * 2, 0.005)
        self._write(_T_MODE, 0x80 | _TIMER_PRESCALER >> 8)   # TAuto: runs from the end of sending
        self._write(_T_PRESCALER, _TIMER_PRESCALER & 0xFF)
        self._write(_T_RELOAD_H, self._reload >> 8)
        self._write(_T_RELOAD_L, self._reload & 0xFF)
        self._write(_TX_ASK, 0x40)               # 100 % ASK modulation, as ISO 14443-A wants
        self._write(_MODE, 0x3D)                 # CRC preset 0x6363 (CRC_A)
        self._write(_TX_CONTROL, self._read(_TX_CONTROL) | 0x03)  # antenna on: TX1 and TX2
        self._on_air_until = float("-inf")

    def _release(self, *, antenna_off: bool) -> None:
        if self._spi is None:
            return
        try:
            if antenna_off:                      # TX1/TX2 off: the cards in the field lose power
                self._write(_TX_CONTROL, self._read(_TX_CONTROL) & ~0x03)
        except ReaderError:
            pass                                 # the chip is gone: nothing to switch off
        finally:
            spi, reset, self._spi, self._reset = self._spi, self._reset, None, None
            try:
                spi.close()
            finally:
                reset.close()

    # --- the ISO 14443-3 exchanges -----------------------------------------
    def _read_uid(self) -> str | None:
        part = self._anticollision(_SEL_CL1)
        if part is None:
            return None
        if part[0] != _CASCADE_TAG:
            return part[:4].hex().upper()
        frame = bytes((_SEL_CL1, 0x70)) + part
        sak = self._transceive(frame + _crc_a(frame), reply_len=3)
        if sak is None or _crc_a(sak[:1]) != sak[1:] or not sak[0] & 0x04:
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
        self._write(_COMMAND, _IDLE)
        self._write(_FIFO_LEVEL, 0x80)
        self._burst_write(_FIFO_DATA, _HLTA)
        self._write(_COMMAND, _TRANSMIT)
        self._on_air_until = self._clock() + _air_bits(len(_HLTA)) * _RF_BIT_S

    # --- register level ------------------------------------------------------
    def _transceive(self, frame: bytes, *, last_bits: int = 0, reply_len: int = 0,
                    answer_len: int | None = None) -> bytes | None:
        """Send ``frame``; return the answer (``reply_len`` bytes), None if no card answered well.

        ``answer_len`` is how long the expected answer is (default ``reply_len``), for the wait.
        Raises ``TwoCards`` if several cards answered differently.
        """
        write = self._write
        pending = self._on_air_until - self._clock()
        if pending > 0:
            self._sleep(pending)                # the last HLTA is still on air: let it end
        write(_COMMAND, _IDLE)              # stop whatever ran before
        write(_COM_IRQ, 0x7F)               # clear every interrupt bit
        write(_FIFO_LEVEL, 0x80)            # flush the FIFO
        self._burst_write(_FIFO_DATA, frame)
        write(_COMMAND, _TRANSCEIVE)
        write(_BIT_FRAMING, 0x80 | last_bits)   # StartSend, with the last byte's bits
        sent = _air_bits(len(frame), last_bits) * _RF_BIT_S
        answered = FRAME_DELAY_MAX_S + _air_bits(answer_len if answer_len is not None else reply_len) * _RF_BIT_S
        self._sleep(sent + max(answered, self._timeout_s))   # the answer has ended, or the timer ran out
        if not self._answered_well(self._irq_after_exchange()):
            return None
        if not reply_len:
            return b""
        level, *data = self._burst_read([_FIFO_LEVEL] + [_FIFO_DATA] * reply_len)
        return bytes(data) if level == reply_len else None

    def _irq_after_exchange(self) -> int:
        """The interrupt bits once the exchange is over (read again while a longer answer is still coming)."""
        irq = 0
        for attempt in range(self._irq_reads):
            irq = self._read(_COM_IRQ)
            if irq & (_IRQ_RX | _IRQ_TIMER) or not irq & _IRQ_TX:
                break
            if attempt + 1 < self._irq_reads:
                self._sleep(self._timeout_s)
        return irq

    def _answered_well(self, irq: int) -> bool:
        """Whether a card answered well (not: no card, a damaged frame); raises for a lost chip or a collision."""
        if not irq & _IRQ_TX:
            raise ReaderNotFound(f"the MFRC522 on {self.where} stopped answering (IRQ register 0x{irq:02X})")
        if not irq & (_IRQ_RX | _IRQ_TIMER):
            raise ReaderNotFound(f"the MFRC522 on {self.where} lost its settings (its timer does not run): "
                                 "was it reset?")
        if not irq & _IRQ_RX:
            return False                    # the timer ran out: no card
        if irq & _IRQ_ERR:
            error = self._read(_ERROR)
            if error & _ERR_COLL:
                raise TwoCards(f"two cards or more lie on the reader on {self.where}")
            if error & _ERR_FRAME:
                self.errors += 1
                return False
        return True

    def _xfer(self, data: list[int]) -> list[int]:
        """One SPI transfer; the address byte is ``0aaaaaa0`` to write, ``1aaaaaa0`` to read (datasheet 8.1.2.3)."""
        try:
            return self._spi.xfer2(data)
        except OSError as exc:
            raise ReaderNotFound(f"the SPI device of the MFRC522 on {self.where} failed: {exc}") from exc

    def _write(self, register: int, value: int) -> None:
        self._xfer([(register << 1) & 0x7E, value])

    def _read(self, register: int) -> int:
        return self._xfer([((register << 1) & 0x7E) | 0x80, 0])[1]

    def _burst_write(self, register: int, data: bytes) -> None:
        """Write all of ``data`` to one register in a single SPI transfer."""
        self._xfer([(register << 1) & 0x7E] + list(data))

    def _burst_read(self, registers: list[int]) -> list[int]:
        """Read several registers in a single SPI transfer."""
        return self._xfer([((r << 1) & 0x7E) | 0x80 for r in registers] + [0])[1:]


def _pin_name(reset: Any) -> str:
    pin = getattr(reset, "pin", None)
    return str(pin) if pin is not None else "its reset output"


def open_mfrc522(bus: int = 0, device: int = 0, reset_pin: int = 25, spi_hz: int = 1_000_000, *,
                 pin_factory: Any = None, sleep: Callable[[float], None] = time.sleep,
                 clock: Callable[[], float] = time.monotonic, **options: Any) -> Mfrc522Reader:
    """The reader on ``/dev/spidev{bus}.{device}`` at ``spi_hz`` (mode 0) with RST on BCM ``reset_pin``.

    ``pin_factory`` is gpiozero's, for the RST output; ``options`` go to
    :class:`Mfrc522Reader`. Needs the ``spidev`` package (the ``pi`` extra).

    Example::

        with open_mfrc522(0, 1, reset_pin=24) as minus:
            print(minus.poll())
    """
    if not 10_000 <= spi_hz <= _MAX_SPI_HZ:
        raise ConfigError(f"spi_hz must lie between 10 kHz and 10 MHz for the MFRC522, not {spi_hz}")
    where = wiring(bus, device, reset_pin)
    try:
        import spidev
    except ImportError as exc:
        raise ReaderLibraryMissing(
            f"the MFRC522 reader needs the 'spidev' package on a Raspberry Pi (pip install spidev, or the "
            f"'pi' extra) ({type(exc).__name__}: {exc}); off a Pi use the hw-sim backend") from exc
    spi = spidev.SpiDev()
    try:
        spi.open(bus, device)
        spi.max_speed_hz = spi_hz
        spi.mode = 0
    except OSError as exc:
        spi.close()
        raise ReaderNotFound(f"cannot open {where}: {exc}; is SPI enabled (dtparam=spi=on)?") from exc
    try:
        reset = reset_output(reset_pin, pin_factory=pin_factory)
    except BaseException:
        spi.close()
        raise
    return Mfrc522Reader(spi, reset, where=where, sleep=sleep, clock=clock, **options)
