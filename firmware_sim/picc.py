"""ISO 14443-A cards in a reader's field, their air timing, and the simulated clock the chip model keeps its time on.

Timing (ISO/IEC 14443-2 and -3, type A at 106 kbit/s): one bit is 128
carrier periods (fc = 13.56 MHz); a standard frame is a start bit, 8 data
bits and an odd parity bit per byte, and an end of communication; a short
frame (REQA, WUPA) has 7 data bits and no parity. A card starts its answer
``n * 128 + 84`` carrier periods after the reader's last pause when the
reader's last bit was 1, ``n * 128 + 20`` when it was 0, with n = 9 for
REQA, WUPA, ANTICOLLISION and SELECT (ISO/IEC 14443-3, 6.2.1.1).
"""

from __future__ import annotations

from enum import Enum
from functools import reduce
from operator import or_, xor

CARRIER_HZ = 13_560_000
BIT_S = 128 / CARRIER_HZ                          # one bit at 106 kbit/s, about 9.44 us


def odd_parity(byte: int) -> int:
    """The parity bit ISO 14443-3 sends after ``byte``: the byte and its parity hold an odd number of ones."""
    return 1 - bin(byte).count("1") % 2


def frame_bits(frame: bytes, last_bits: int = 0) -> int:
    """Bits on air for ``frame``: start, 9 per whole byte (data + parity), the last byte's ``last_bits``, end."""
    if not frame:
        return 0
    if last_bits:
        return 1 + (len(frame) - 1) * 9 + last_bits + 1
    return 1 + len(frame) * 9 + 1


def last_bit(frame: bytes, last_bits: int = 0) -> int:
    """The last bit the reader sends: the last data bit of a short frame, else the last byte's parity bit."""
    if last_bits:
        return frame[-1] >> (last_bits - 1) & 1
    return odd_parity(frame[-1])


def frame_delay_s(frame: bytes, last_bits: int = 0, n: int = 9) -> float:
    """ISO 14443-3 frame delay time from the reader's last pause to the card's start bit."""
    return (n * 128 + (84 if last_bit(frame, last_bits) else 20)) / CARRIER_HZ


#: The longest a card may wait before answering REQA/WUPA/ANTICOLLISION/SELECT (the last bit a 1).
FDT_MAX_S = (9 * 128 + 84) / CARRIER_HZ


def superpose(answers: list[bytes], *, clear_after: bool) -> tuple[list[int], int | None]:
    """What the receiver decodes when ``answers`` arrive at once, and the 1-based data bit of the first collision.

    A bit the cards send differently collides (Manchester coding: both halves
    modulated); a bit only one card sends does not. With ``clear_after``
    (CollReg ValuesAfterColl = 0) the colliding bit and all after it read 0.
    """
    size = max(len(a) for a in answers)
    data, first = [], None
    for i in range(size):
        sent = [a[i] for a in answers if i < len(a)]
        merged = reduce(or_, sent, 0)
        if first is None and (bit := _first_differing_bit(sent)):
            first = i * 8 + bit
        if clear_after and first is not None:
            keep = max(0, first - 1 - i * 8)     # bits before the collision stay
            merged &= (1 << min(keep, 8)) - 1
        data.append(merged)
    return data, first


def _first_differing_bit(sent: list[int]) -> int:
    """The 1-based bit (LSB first) where the bytes ``sent`` at once first differ, 0 when they agree."""
    differs = reduce(or_, (byte ^ sent[0] for byte in sent), 0)
    return (differs & -differs).bit_length()

class SimClock:
    """Simulated monotonic time in seconds; call it to read, ``sleep``/``advance`` to move it.

    Pass ``clock`` where a driver wants ``time.monotonic`` and ``clock.sleep``
    where it wants ``time.sleep``: a test then runs an evening of polls in
    milliseconds.
    """

    def __init__(self, start: float = 0.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("time only moves forward")
        self.now += seconds

    sleep = advance


def crc_a(data: bytes | list[int], preset: int = 0x6363) -> bytes:
    """ISO 14443-3 CRC_A of ``data``, low byte first, as sent on air."""
    crc = preset
    for byte in data:
        byte ^= crc & 0xFF
        byte = (byte ^ (byte << 4)) & 0xFF
        crc = ((crc >> 8) ^ (byte << 8) ^ (byte << 3) ^ (byte >> 4)) & 0xFFFF
    return bytes((crc & 0xFF, crc >> 8))


def _bcc(data: bytes) -> int:
    return reduce(xor, data, 0)


def _is_hlta(frame: bytes) -> bool:
    """HLTA: 50 00 and its CRC_A."""
    return len(frame) == 4 and frame[:2] == bytes((Picc.HLTA, 0)) and crc_a(frame[:2]) == frame[2:]


def _is_select(frame: bytes) -> bool:
    """ANTICOLLISION or SELECT: a cascade level's SEL byte and at least NVB."""
    return len(frame) >= 2 and frame[0] in (Picc.SEL_CL1, Picc.SEL_CL2)


def _is_read(frame: bytes) -> bool:
    """A MIFARE READ: 30, the block number and their CRC_A."""
    return len(frame) == 4 and frame[0] == 0x30 and crc_a(frame[:2]) == frame[2:]


class PiccState(Enum):
    """ISO 14443-3 card states (HALT* paths are tracked by ``Picc.woken_from_halt``)."""

    IDLE = "idle"
    READY = "ready"
    ACTIVE = "active"
    HALT = "halt"


class Picc:
    """A MIFARE-like ISO 14443-A card (PICC) with a 4- or 7-byte UID.

    Example: ``chip.place(Picc.from_hex("DEADBEEF"))`` lays a card on the
    reader; ``chip.take(card)`` lifts it (the card loses power and will be
    back in IDLE when put down again).
    """

    REQA, WUPA, HLTA = 0x26, 0x52, 0x50
    SEL_CL1, SEL_CL2 = 0x93, 0x95

    def __init__(self, uid: bytes) -> None:
        if len(uid) not in (4, 7):
            raise ValueError("a card UID has 4 or 7 bytes")
        if len(uid) == 4 and uid[0] == 0x88:
            raise ValueError("0x88 is the cascade tag, not a valid first UID byte")
        self.uid = bytes(uid)
        self.atqa = bytes((0x04, 0x00)) if len(uid) == 4 else bytes((0x44, 0x00))
        self.sak = 0x08 if len(uid) == 4 else 0x00   # Classic 1K / Ultralight
        self.state = PiccState.IDLE
        self.woken_from_halt = False
        self.level = 1
        self.frames_heard: list[bytes] = []

    @classmethod
    def from_hex(cls, uid_hex: str) -> Picc:
        return cls(bytes.fromhex(uid_hex))

    @property
    def uid_hex(self) -> str:
        return self.uid.hex().upper()

    def power_off(self) -> None:
        """The card left the field (or the field went off): back to IDLE when powered again."""
        self.state, self.woken_from_halt, self.level = PiccState.IDLE, False, 1

    def _level_bytes(self, level: int) -> bytes:
        if len(self.uid) == 4:
            return self.uid
        return bytes((0x88,)) + self.uid[:3] if level == 1 else self.uid[3:]

    def _error(self) -> None:
        """An unexpected frame: back to IDLE, or to HALT if woken from there."""
        self.state = PiccState.HALT if self.woken_from_halt else PiccState.IDLE
        self.level = 1

    def hear(self, frame: bytes, last_bits: int) -> bytes | None:
        """React to a frame from the reader; return the answer, or None for silence."""
        self.frames_heard.append(bytes(frame))
        if last_bits == 7 and len(frame) == 1:
            return self._hear_short(frame[0] & 0x7F)
        if self.state in (PiccState.IDLE, PiccState.HALT):
            return None                                      # sleeping cards ignore full frames
        if _is_hlta(frame):
            self._halt()
            return None
        if self.state == PiccState.READY and _is_select(frame):
            return self._select(frame)
        if self.state == PiccState.ACTIVE and _is_read(frame):
            block = bytes(16) if frame[1] else self.uid[:4] + bytes((_bcc(self.uid[:4]),)) + bytes(11)
            return block + crc_a(block)                      # READ: block 0 holds the UID
        self._error()
        return None

    def _hear_short(self, cmd: int) -> bytes | None:
        """A short frame: REQA wakes an IDLE card, WUPA an IDLE or HALTed one; anything else is an error."""
        if cmd == self.REQA and self.state == PiccState.IDLE or \
                cmd == self.WUPA and self.state in (PiccState.IDLE, PiccState.HALT):
            self.woken_from_halt = self.state == PiccState.HALT
            self.state, self.level = PiccState.READY, 1
            return self.atqa
        if self.state != PiccState.HALT:
            self._error()
        return None

    def _halt(self) -> None:
        """HLTA: an ACTIVE card halts; in READY it is an unexpected frame."""
        if self.state == PiccState.ACTIVE:
            self.state = PiccState.HALT
        else:
            self._error()

    def _select(self, frame: bytes) -> bytes | None:
        """ANTICOLLISION or SELECT at cascade level 1 or 2 (ISO 14443-3, 6.5.3); the answer, or None."""
        level = 1 if frame[0] == self.SEL_CL1 else 2
        if level != self.level:
            self._error()
            return None
        part = self._level_bytes(level)
        if frame[1] == 0x20 and len(frame) == 2:             # anticollision, no known bits
            return part + bytes((_bcc(part),))
        if frame[1] == 0x70 and len(frame) == 9 and crc_a(frame[:7]) == frame[7:]:
            if frame[2:7] != part + bytes((_bcc(part),)):
                return None                                  # another card is being selected
            return self._selected(level)
        self._error()
        return None

    def _selected(self, level: int) -> bytes:
        """The SAK for a SELECT of this card at ``level``: the cascade bit while a 7-byte UID has a level to go."""
        if len(self.uid) == 7 and level == 1:
            self.level, sak = 2, 0x04                        # cascade bit: UID not complete
        else:
            self.state, sak = PiccState.ACTIVE, self.sak
        return bytes((sak,)) + crc_a(bytes((sak,)))
