"""The SSD1306 and SH1106 command sets: each controller's command bytes and how many argument bytes follow them.

From the SSD1306 datasheet rev. 1.1 section 9 and the SH1106 datasheet V2.3
"Commands"; the decoder is :class:`firmware_sim.display_sim.OledChip`.
"""

_COMMON = {0x81: 1, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1}
_SINGLE_COMMON = {*range(0x00, 0x20), *range(0x40, 0x80), 0xA0, 0xA1, 0xA4, 0xA5, 0xA6, 0xA7,
                  0xAE, 0xAF, *range(0xB0, 0xB8), 0xE3}
#: Each controller's commands and how many argument bytes follow them.
COMMAND_SETS: dict[str, dict[int, int]] = {
    "ssd1306": {**{op: 0 for op in _SINGLE_COMMON}, **_COMMON,
                0x20: 1, 0x21: 2, 0x22: 2, 0x8D: 1, 0xAD: 1,       # addressing, charge pump, IREF
                0x26: 6, 0x27: 6, 0x29: 5, 0x2A: 5, 0xA3: 2,       # scroll set-up (skipped)
                0x2E: 0, 0x2F: 0, 0xD6: 1,                         # scroll off/on, zoom
                **{op: 0 for op in range(0xC0, 0xD0) if op & 0x07 == 0}},
    "sh1106": {**{op: 0 for op in _SINGLE_COMMON}, **_COMMON,
               0x30: 0, 0x31: 0, 0x32: 0, 0x33: 0, 0xAD: 1,        # pump voltage, DC-DC
               0xE0: 0, 0xEE: 0,                                   # read-modify-write
               **{op: 0 for op in range(0xC0, 0xD0)}},
}
#: Scrolling (SSD1306 9, table 2): set up, stopped and started; only on/off shows.
SCROLL = {0x26, 0x27, 0x29, 0x2A, 0xA3, 0x2E, 0x2F}
#: The fundamental commands (SSD1306 9, table 1): on/off, contrast, entire display on, inverse.
FUNDAMENTAL = {0xAE, 0xAF, 0x81, 0xA4, 0xA5, 0xA6, 0xA7}
