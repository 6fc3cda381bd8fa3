"""The MFRC522 (RC522) 13.56 MHz card reader on SPI, polled cheaply for the card slots.

The driver talks to the chip's registers itself over any object with
``spidev.SpiDev``'s ``xfer2()``/``close()``, and raises its RST line through
any gpiozero-style output (``on()``/``off()``/``close()``); it imports no
hardware library. :func:`open_mfrc522` builds one on a Raspberry Pi from
``spidev`` (imported only then) and a gpiozero ``DigitalOutputDevice``.
A poll lets the chip's own timer decide "no card" after 1 ms and looks at
the IRQ register once: 8 SPI transfers per empty poll (the ``mfrc522``
package's ``MFRC522_ToCard`` spins on ~2,000 register reads instead).
"""

from __future__ import annotations

import threading
import time
from typing import Any, Callable, Protocol

from banker.errors import ConfigError
from drivers.card_slots import ReaderError, ReaderLibraryMissing, ReaderNotFound

# MFRC522 registers, commands and bits (datasheet section 9).
_COMMAND, _COM_IRQ, _ERROR, _FIFO_DATA, _FIFO_LEVEL, _BIT_FRAMING = 0x01, 0x04, 0x06, 0x09, 0x0A, 0x0D
_MODE, _TX_CONTROL, _TX_ASK = 0x11, 0x14, 0x15
_T_MODE, _T_PRESCALER, _T_RELOAD_H, _T_RELOAD_L, _VERSION = 0x2A, 0x2B, 0x2C, 0x2D, 0x37
_IDLE, _TRANSMIT, _TRANSCEIVE, _SOFT_RESET = 0x00, 0x04, 0x0C, 0x0F
_POWER_DOWN = 0x10                               # CommandReg: still in (soft) power-down
_IRQ_TX, _IRQ_RX, _IRQ_ERR, _IRQ_TIMER = 0x40, 0x20, 0x02, 0x01
_ERR_COLL, _ERR_FRAME = 0x08, 0x17              # collision; buffer overflow, CRC, parity, protocol
_WUPA, _SEL_CL1, _SEL_CL2, _CASCADE_TAG = 0x52, 0x93, 0x95, 0x88
#: VersionReg values of MFRC522 chips and the common clones (FM17522, counterfeit 0x12/0xB2).
KNOWN_VERSIONS = frozenset({0x88, 0x90, 0x91, 0x92, 0x12, 0xB2})
_TIMER_PRESCALER = 169                           # 13.56 MHz / (2 * 169 + 1): one tick = 25 us
_RF_BIT_S = 128 / 13_560_000                     # one bit on air at 106 kbit/s
_MAX_SPI_HZ = 10_000_000                         # datasheet 8.1.2: up to 10 Mbit/s


def _crc_a(data: bytes) -> bytes:
    crc = 0x6363
    for byte in data:
        byte ^= crc & 0xFF
        byte = (byte ^ (byte << 4)) & 0xFF
        crc = ((crc >> 8) ^ (byte << 8) ^ (byte << 3) ^ (byte >> 4)) & 0xFFFF
    return bytes((crc & 0xFF, crc >> 8))


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


class _Collision(Exception):
    """Two or more cards answered at once."""


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

    Opening raises RST, soft-resets the chip, checks VersionReg and switches
    the antenna on. Each poll wakes every card with WUPA, so a card that was
    read and halted keeps answering while it lies there; it reads the UID by
    anticollision (cascade level 2 for 7-byte UIDs) and halts the card again.
    Two cards on one reader collide: the poll returns None (``collisions``
    counts them) rather than guess. ``sleep`` is how the poll waits for the
    chip's timer; pass a simulated clock's ``sleep`` in tests.

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
        with Mfrc522Reader(board.spi(0, 0), reset, sleep=board.clock.sleep) as plus:
            print(plus.poll())      # None: no card on it
    """

    def __init__(self, spi: SpiPort, reset: ResetLine, *, where: str = "SPI",
                 response_timeout_s: float = 0.001, sleep: Callable[[float], None] = time.sleep,
                 irq_reads: int = 3) -> None:
        self.where = where
        self._spi: SpiPort | None = spi
        self._reset = reset
        self._sleep, self._irq_reads, self._timeout_s = sleep, max(1, irq_reads), response_timeout_s
        self.collisions = 0
        try:
            if not 0.0001 <= response_timeout_s <= 1.0:
                raise ConfigError("response_timeout_s must lie between 0.1 ms and 1 s")
            reset.on()
            self.version = self._power_up()
        except BaseException:
            self._release(antenna_off=False)
            raise

    # --- public ------------------------------------------------------------
    def poll(self) -> str | None:
        """Return the UID (upper-case hex) of the one card on the reader, or None."""
        if self._spi is None:
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
        """Switch the antenna off, release the SPI device and the reset output."""
        self._release(antenna_off=True)

    def __enter__(self) -> "Mfrc522Reader":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # --- opening and closing ---------------------------------------------------
    def _power_up(self) -> int:
        """Soft-reset the chip, check that it is an MFRC522, set the timer, switch the antenna on."""
        self._write(_COMMAND, _SOFT_RESET)
        for _ in range(10):                      # the oscillator restarts: up to 50 ms (datasheet 8.8.2)
            self._sleep(0.005)
            if not self._read(_COMMAND) & _POWER_DOWN:
                break
        version = self._read(_VERSION)
        if version not in KNOWN_VERSIONS:
            raise ReaderNotFound(
                f"no MFRC522 answers on {self.where} (VersionReg reads 0x{version:02X}): check the "
                f"wiring, the 3.3 V supply and that RST is on {_pin_name(self._reset)} and not held low")
        reload = max(1, round(self._timeout_s * 13_560_000 / (2 * _TIMER_PRESCALER + 1)) - 1)
        self._write(_T_MODE, 0x80 | _TIMER_PRESCALER >> 8)   # TAuto: the timer starts when a frame is sent
        self._write(_T_PRESCALER, _TIMER_PRESCALER & 0xFF)
        self._write(_T_RELOAD_H, reload >> 8)
        self._write(_T_RELOAD_L, reload & 0xFF)
        self._write(_TX_ASK, 0x40)               # 100 % ASK modulation, as ISO 14443-A wants
        self._write(_MODE, 0x3D)                 # CRC preset 0x6363 (CRC_A)
        self._write(_TX_CONTROL, self._read(_TX_CONTROL) | 0x03)  # antenna on: TX1 and TX2
        return version

    def _release(self, *, antenna_off: bool) -> None:
        if self._spi is None:
            return
        try:
            if antenna_off:                      # TX1/TX2 off: the cards in the field lose power
                self._write(_TX_CONTROL, self._read(_TX_CONTROL) & ~0x03)
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
        self._write(_COMMAND, _IDLE)
        self._write(_FIFO_LEVEL, 0x80)
        self._burst_write(_FIFO_DATA, _HLTA)
        self._write(_COMMAND, _TRANSMIT)
        self._sleep((len(_HLTA) * 9 + 2) * _RF_BIT_S)

    # --- register level ------------------------------------------------------
    def _transceive(self, frame: bytes, *, last_bits: int = 0, reply_len: int = 0) -> bytes | None:
        """Send ``frame``; return the answer (``reply_len`` bytes), None if no card answered well.

        Raises ``_Collision`` if several cards answered differently.
        """
        write, read = self._write, self._read
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


# --- the RST line, shared by the readers wired to it ---------------------------
class _SharedOutput:
    def __init__(self, output: Any) -> None:
        self.output, self.users = output, 0


#: (id of the pin factory, BCM pin) -> the one gpiozero output on that RST line and how many readers hold it
#: (the output keeps its factory alive, so the id is not reused while the entry exists).
#: gpiozero refuses a second device on a pin, so readers wired to one RST line share one output,
#: which is closed when the last of them is.
_reset_pin_users: dict[tuple[Any, int], _SharedOutput] = {}
_reset_lock = threading.Lock()


class SharedReset:
    """One reader's hold on an RST output that other readers may share; ``close()`` lets go of it once."""

    def __init__(self, key: tuple[Any, int]) -> None:
        self._key: tuple[Any, int] | None = key

    @property
    def pin(self) -> Any:
        return _reset_pin_users[self._key].output.pin if self._key is not None else None

    def on(self) -> None:
        self._output().on()

    def off(self) -> None:
        self._output().off()

    def _output(self) -> Any:
        if self._key is None:
            raise ReaderError("this reset line was let go of")
        return _reset_pin_users[self._key].output

    def close(self) -> None:
        with _reset_lock:
            key, self._key = self._key, None
            if key is None:
                return
            shared = _reset_pin_users[key]
            shared.users -= 1
            if shared.users:
                return
            del _reset_pin_users[key]
        shared.output.close()


def reset_output(reset_pin: int, *, pin_factory: Any = None) -> SharedReset:
    """The RST line on BCM ``reset_pin`` as a gpiozero output (driven high at once), shared per pin.

    Example: ``reset_output(25, pin_factory=MockFactory()).on()``.
    """
    key = (id(pin_factory), reset_pin)
    with _reset_lock:
        if key not in _reset_pin_users:
            from gpiozero import DigitalOutputDevice
            from gpiozero.exc import BadPinFactory, GPIOZeroError

            try:
                output = DigitalOutputDevice(reset_pin, initial_value=True, pin_factory=pin_factory)
            except BadPinFactory as exc:
                raise ReaderLibraryMissing(f"no GPIO library can drive the MFRC522's RST on GPIO{reset_pin} "
                                           f"({exc}); install lgpio on a Pi: docs/install-pi.md") from exc
            except GPIOZeroError as exc:
                raise ReaderError(f"cannot drive the MFRC522's RST on GPIO{reset_pin}: {exc}") from exc
            _reset_pin_users[key] = _SharedOutput(output)
        _reset_pin_users[key].users += 1
    return SharedReset(key)


def open_mfrc522(bus: int = 0, device: int = 0, reset_pin: int = 25, spi_hz: int = 1_000_000, *,
                 pin_factory: Any = None, sleep: Callable[[float], None] = time.sleep,
                 **options: Any) -> Mfrc522Reader:
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
    return Mfrc522Reader(spi, reset, where=where, sleep=sleep, **options)
