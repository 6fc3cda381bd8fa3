"""The MFRC522's register map, commands, interrupt and error bits, and timing constants (NXP MFRC522 rev. 3.9).

Only what the chip model (:mod:`firmware_sim.mfrc522_chip`) uses; section
numbers are the datasheet's.
"""

from __future__ import annotations

from .picc import BIT_S

# Registers (datasheet section 9) and bits used by the model.
COMMAND, COM_IEN, DIV_IEN, COM_IRQ, DIV_IRQ, ERROR, STATUS1, STATUS2 = range(1, 9)
FIFO_DATA, FIFO_LEVEL, WATER_LEVEL, CONTROL, BIT_FRAMING, COLL = range(9, 15)
MODE, TX_MODE, RX_MODE, TX_CONTROL, TX_ASK, TX_SEL = 0x11, 0x12, 0x13, 0x14, 0x15, 0x16
DEMOD, MF_RX = 0x19, 0x1D
CRC_RESULT_H, CRC_RESULT_L = 0x21, 0x22
T_MODE, T_PRESCALER, T_RELOAD_H, T_RELOAD_L, T_COUNTER_H, T_COUNTER_L = range(0x2A, 0x30)
VERSION = 0x37

CMD_IDLE, CMD_CALC_CRC, CMD_TRANSMIT = 0x0, 0x3, 0x4
CMD_NO_CHANGE, CMD_RECEIVE, CMD_TRANSCEIVE, CMD_AUTHENT, CMD_SOFT_RESET = 0x7, 0x8, 0xC, 0xE, 0xF
POWER_DOWN = 0x10                                # CommandReg bit 4 (8.6.2)

IRQ_TX, IRQ_RX, IRQ_IDLE, IRQ_HI_ALERT, IRQ_LO_ALERT, IRQ_ERR, IRQ_TIMER = 0x40, 0x20, 0x10, 0x08, 0x04, 0x02, 0x01
DIV_IRQ_CRC = 0x04
ERR_WR, ERR_BUFFER_OVFL, ERR_COLL, ERR_CRC, ERR_PARITY, ERR_PROTOCOL = 0x80, 0x10, 0x08, 0x04, 0x02, 0x01
COLL_VALUES_AFTER, COLL_POS_NOT_VALID = 0x80, 0x20
FORCE_100_ASK = 0x40                             # TxASKReg bit 6
CRC_EN = 0x80                                    # TxModeReg / RxModeReg bit 7
RX_NO_ERR, RX_MULTIPLE = 0x08, 0x04              # RxModeReg bits 3 and 2
T_AUTO, T_AUTO_RESTART, T_PRESCAL_EVEN = 0x80, 0x10, 0x10

CHIP_VERSION = 0x92  # MFRC522 version 2.0
FIFO_SIZE = 64
RF_BIT_S = BIT_S                   # one bit at 106 kbit/s
#: Internal delay once the clock is stable, before the chip can be addressed (8.8.3: 1024 / 27 MHz).
T_DELAY_S = 1024 / 27_000_000
#: The crystal's start-up time after power-down: 8.8.3 leaves it to the crystal; a few microseconds
#: were measured on the sister MFRC523. A model parameter (``startup_s``).
CRYSTAL_STARTUP_S = 5e-6
#: Answer faults a test can inject (:meth:`Mfrc522Chip.disturb`).
DISTURBANCES = ("parity", "crc", "sof")

_RESET_VALUES = {
    COMMAND: 0x20, COM_IEN: 0x80, COM_IRQ: 0x14, STATUS1: 0x21, WATER_LEVEL: 0x08,
    CONTROL: 0x10, COLL: 0xA0, MODE: 0x3F, TX_CONTROL: 0x80, TX_SEL: 0x10, 0x17: 0x84,
    0x18: 0x84, DEMOD: 0x4D, 0x1C: 0x62, MF_RX: 0x00, 0x1F: 0xEB, CRC_RESULT_H: 0xFF, CRC_RESULT_L: 0xFF,
    0x24: 0x26, 0x26: 0x48, 0x27: 0x88, 0x28: 0x20, 0x29: 0x20, VERSION: CHIP_VERSION,
}
_READ_ONLY = {ERROR, STATUS1, VERSION, CRC_RESULT_H, CRC_RESULT_L, T_COUNTER_H, T_COUNTER_L, COLL}
