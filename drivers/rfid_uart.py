"""The RDM6300-style 125 kHz card reader on a serial port: frame parsing apart from I/O, presence by timeout.

The reader sends ``0x02``, 10 ASCII hex data characters (version byte + 4-byte
card number), 2 ASCII hex checksum characters (XOR of the 5 data bytes) and
``0x03``, again and again while a card lies on it, and nothing when none does.
"""

from __future__ import annotations

import time
from typing import Any
from collections.abc import Callable

from banker.errors import ConfigError
from drivers.card_slots import ReaderError, ReaderLibraryMissing, ReaderNotFound
from drivers.serial_port import read_waiting

STX, ETX = 0x02, 0x03
_BODY_LEN = 12                       # 10 data + 2 checksum characters
_HEX = frozenset(b"0123456789ABCDEFabcdef")


def encode_frame(uid_hex: str) -> bytes:
    """The frame an RDM6300 sends for the 10-hex-digit card ``uid_hex`` (for tests and simulators)."""
    data = bytes.fromhex(uid_hex)
    if len(data) != 5:
        raise ValueError("an RDM6300 card number has 5 bytes (10 hex digits)")
    checksum = 0
    for byte in data:
        checksum ^= byte
    return bytes((STX,)) + (data.hex() + f"{checksum:02x}").upper().encode("ascii") + bytes((ETX,))


class Rdm6300FrameParser:
    """Turns a byte stream into card numbers; pure, no I/O.

    Bytes before a start byte are skipped; a start byte inside a frame starts
    over (resynchronisation); a frame with a non-hex character, a wrong length
    or a bad checksum is dropped and counted in ``rejected``.

    Example::

        parser = Rdm6300FrameParser()
        parser.feed(b"noise" + encode_frame("0A1B2C3D4E"))   # -> ['0A1B2C3D4E']
    """

    def __init__(self) -> None:
        self._body: bytearray | None = None
        self.rejected = 0

    def feed(self, data: bytes) -> list[str]:
        """Take the next bytes from the port; return the card numbers of the frames they complete."""
        uids: list[str] = []
        for byte in data:
            if byte == STX:
                if self._body:
                    self.rejected += 1           # a frame cut short by a new start
                self._body = bytearray()
            elif self._body is None:
                continue                         # garbage between frames
            elif byte == ETX:
                uid = self._decode(bytes(self._body))
                self._body = None
                if uid is None:
                    self.rejected += 1
                else:
                    uids.append(uid)
            elif len(self._body) >= _BODY_LEN or byte not in _HEX:
                self.rejected += 1
                self._body = None
            else:
                self._body.append(byte)
        return uids

    @staticmethod
    def _decode(body: bytes) -> str | None:
        if len(body) != _BODY_LEN:
            return None
        values = bytes.fromhex(body.decode("ascii"))
        checksum = 0
        for byte in values[:5]:
            checksum ^= byte
        return values[:5].hex().upper() if checksum == values[5] else None


class Rdm6300Reader:
    """An RDM6300 on a serial port; ``poll()`` returns the card number (10 upper-case hex digits) or None.

    Wiring: the module's TX -> the Pi's RXD (GPIO15, pin 10) through a
    5 V -> 3.3 V divider (the module runs on 5 V), GND common; 9600 baud 8N1.
    Enable the UART (``enable_uart=1``) and free it from the login console.
    ``url`` is anything ``serial.serial_for_url`` takes: ``/dev/serial0``,
    ``loop://`` for tests, ``spy:///dev/serial0`` to log traffic. ``port``
    injects an already open serial object instead.

    A card counts as present while a good frame arrived within
    ``presence_timeout_s``; the module repeats frames every ~100 ms or so while a
    card lies on it. Feed ``poll()`` into :class:`~drivers.card_slots.CardSlots`.

    Example::

        with Rdm6300Reader("/dev/serial0") as minus:
            slots = CardSlots({"right": minus})
    """

    def __init__(self, url: str = "/dev/serial0", *, baudrate: int = 9600, presence_timeout_s: float = 0.3,
                 clock: Callable[[], float] = time.monotonic, port: Any = None) -> None:
        if presence_timeout_s <= 0:
            raise ConfigError("presence_timeout_s must be positive")
        self.url = url
        self.presence_timeout_s = presence_timeout_s
        self.clock = clock
        self.parser = Rdm6300FrameParser()
        self._uid: str | None = None
        self._seen_at = float("-inf")
        self.baudrate = baudrate
        self._owns_port = port is None
        self._broken: BaseException | None = None
        self.port = port if port is not None else self._open()

    def _open(self) -> Any:
        try:
            import serial
        except ImportError as exc:
            raise ReaderLibraryMissing(f"the RDM6300 reader needs pyserial ({exc}): pip install pyserial") from exc
        try:
            return serial.serial_for_url(self.url, baudrate=self.baudrate, timeout=0)
        except (serial.SerialException, OSError, ValueError) as exc:
            raise ReaderNotFound(f"cannot open the card reader's serial port {self.url!r}: {exc}; "
                                 "is the UART enabled and free of the login console?") from exc

    def poll(self) -> str | None:
        """Read what the port has, without blocking; return the card present, or None.

        A port that fails raises ``ReaderNotFound``; the next poll tries again,
        and a port this reader opened itself is first closed and opened anew
        (a USB adapter pulled and put back).
        """
        if self.port is None:
            raise ReaderError(f"the reader on {self.url!r} is closed")
        if self._broken is not None and self._owns_port:
            self.port = self._open()
            self.parser = Rdm6300FrameParser()
        self._broken = None
        try:
            data = read_waiting(self.port)      # socket:// too: what has come, in one read
        except OSError as exc:                   # SerialException is an OSError (IOError)
            self._broken = exc
            if self._owns_port:
                try:
                    self.port.close()
                except OSError:
                    pass
            self._uid = None
            raise ReaderNotFound(f"the card reader's serial port {self.url!r} failed: {exc}") from exc
        uids = self.parser.feed(data)
        now = self.clock()
        if uids:
            self._uid, self._seen_at = uids[-1], now
        if self._uid is not None and now - self._seen_at > self.presence_timeout_s:
            self._uid = None
        return self._uid

    def close(self) -> None:
        """Close the serial port."""
        if self.port is not None:
            port, self.port = self.port, None
            port.close()

    def __enter__(self) -> Rdm6300Reader:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
