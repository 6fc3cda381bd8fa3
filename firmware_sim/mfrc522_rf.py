"""The MFRC522's RF side: the FIFO sent on air, the cards' answers decoded back into it (NXP MFRC522 rev. 3.9, 8.4).

A part of :class:`firmware_sim.mfrc522_chip.Mfrc522Chip`, kept apart so that
the register file and the air each read on their own: it works on the chip's
registers, FIFO, timer and event queue, as the chip's own RF interface does.
"""

from __future__ import annotations

from .mfrc522_regs import (
    BIT_FRAMING, CMD_RECEIVE, CMD_TRANSCEIVE, COLL, COLL_POS_NOT_VALID, COLL_VALUES_AFTER, COMMAND, CONTROL, CRC_EN,
    ERR_COLL, ERR_CRC, ERR_PARITY, ERR_PROTOCOL, ERROR, FORCE_100_ASK, IRQ_RX, IRQ_TX, RF_BIT_S, RX_MODE,
    RX_MULTIPLE, RX_NO_ERR, T_AUTO, T_MODE, TX_ASK, TX_MODE, TX_SEL,
)
from .picc import crc_a, frame_bits, frame_delay_s, superpose


class RfSide:
    """The chip's RF interface: what :class:`Mfrc522Chip` does between StartSend and the last bit received."""

    def _cards_understand(self) -> bool:
        """Type A cards decode only 100 % ASK from the internal encoder at 106 kBd (ISO 14443-2, 8.4)."""
        return (self.field_on and bool(self.regs[TX_ASK] & FORCE_100_ASK) and self.regs[TX_SEL] & 0x30 == 0x10
                and not self.regs[TX_MODE] & 0x78 and not self.regs[RX_MODE] & 0x70)

    def _send(self, *, receive: bool) -> None:
        """Send the FIFO on air; with ``receive`` collect the cards' answers (Transceive)."""
        frame, self.fifo = bytes(self.fifo), []
        self._fifo_changed()
        last_bits = self.regs[BIT_FRAMING] & 0x07
        if frame and self.regs[TX_MODE] & CRC_EN:
            frame += crc_a(frame)
        tx_end = self.clock.now + frame_bits(frame, last_bits) * RF_BIT_S
        self._modem = 3
        self._at(tx_end, lambda t: self._transmitted(t, frame, last_bits, receive))

    def _transmitted(self, now: float, frame: bytes, last_bits: int, receive: bool) -> None:
        self._irq(IRQ_TX)
        self.air_frames.append(frame)
        if self.regs[T_MODE] & T_AUTO:           # TAuto: the timer starts at the end of sending
            self.timer.start(now)
        answers = self._answers(frame, last_bits)
        if not receive:
            self._finish()
            return
        self._modem = 5
        self._receiver_start()
        if answers:
            self._expect(now, frame, last_bits, answers)

    def _answers(self, frame: bytes, last_bits: int) -> list[bytes]:
        """What the cards in the field answer to ``frame``, if they could hear it at all."""
        if not (self._cards_understand() and frame):
            return []
        return [a for a in (c.hear(frame, last_bits) for c in list(self.cards)) if a is not None]

    def _expect(self, now: float, frame: bytes, last_bits: int, answers: list[bytes]) -> None:
        """The answers come in: their start after the frame delay time, their 5th bit, their end."""
        disturbance = self._disturb.pop(0) if self._disturb else None
        start = now + frame_delay_s(frame, last_bits)
        size = max(len(a) for a in answers)
        end = start + frame_bits(bytes(size)) * RF_BIT_S
        self._receiving_until = end
        self._at(start, lambda t: setattr(self, "_modem", 6))
        if self.regs[T_MODE] & T_AUTO and not self.regs[RX_MODE] & RX_MULTIPLE and disturbance != "sof":
            self._at(start + 5 * RF_BIT_S, self.timer.stop)     # the 5th bit (start + 4 data) stops it
        self._at(end, lambda t: self._received(answers, disturbance))

    def _receiver_start(self) -> None:
        """The receiver's start-up phase clears CollErr, CRCErr, ParityErr and ProtocolErr (9.3.1.7)."""
        self.regs[ERROR] &= ~(ERR_COLL | ERR_CRC | ERR_PARITY | ERR_PROTOCOL)
        self.regs[COLL] = self.regs[COLL] & COLL_VALUES_AFTER | COLL_POS_NOT_VALID

    def _received(self, answers: list[bytes], disturbance: str | None) -> None:
        self._receiving_until, self._modem = None, 5 if self.regs[COMMAND] & 0x0F == CMD_TRANSCEIVE else 0
        if disturbance == "sof":                 # no valid start of frame: nothing decoded
            if not self.regs[RX_MODE] & RX_NO_ERR:
                self._error(ERR_PROTOCOL)
                self._irq(IRQ_RX)
            return
        data, collision = superpose(answers, clear_after=not self.regs[COLL] & COLL_VALUES_AFTER)
        if disturbance == "crc" and data:
            data[-1] ^= 0x01                     # a flipped bit with its parity flipped too
        for byte in data:
            self._push_fifo(byte)
        self.regs[CONTROL] = self.regs[CONTROL] & 0xF8   # whole bytes: RxLastBits = 0
        self._answer_errors(data, collision, disturbance)
        self._irq(IRQ_RX)
        if self.regs[COMMAND] & 0x0F == CMD_RECEIVE:
            self._finish()

    def _answer_errors(self, data: list[int], collision: int | None, disturbance: str | None) -> None:
        """What the decoded answer leaves in ErrorReg and CollReg: a collision, a parity or a CRC error."""
        if collision is not None:
            self.regs[COLL] = self.regs[COLL] & COLL_VALUES_AFTER | (
                collision % 32 if collision <= 32 else COLL_POS_NOT_VALID)
            self._error(ERR_COLL)
        if disturbance == "parity":
            self._error(ERR_PARITY)
        if self.regs[RX_MODE] & CRC_EN and (len(data) < 2 or crc_a(data[:-2]) != bytes(data[-2:])):
            self._error(ERR_CRC)
