"""The large-digits layout (``[display] digits = "large"``): a balance or an amount as tall as the frame fits.

A screen whose big line is money (a balance, an amount, an amount being
typed: digits with ``.``, ``,``, ``K``, ``M``, ``-``, the cursor ``_``) is
drawn without the status bar: its first line (the name and sign, or what the
amount is for) small at the top, then the money line in Pillow's 6x11 bitmap
font, its digit rows (7 rows, 9 with a comma's tail) scaled by whole pixels,
nearest-neighbour: the same pixels on every machine. The width factor is the
largest that fits 126 pixels; the height factor the largest that fits the
rows left, at most twice the width factor (tall, not spindly). An amount
being typed keeps one size, the one the longest entry fits (5 digits, the
point and the cursor), and starts at the left, so a key press sends only the
columns of the new digit to the panel. The line under the money is kept, small at the bottom, only while an amount is being typed
(the hint, or the payer's balance: read by whoever types); under a balance it
is left out: the money takes its rows. That line is not always a repeat of
the top one (``Bank pays Alice`` is; ``Bought Oriental Av`` under ``Alice
-1M`` is not): the one place the frame shows less than the screen model
(tests/keypad/test_frames.py). A screen with more lines under its
figure (the worth screen), a refusal, a QR code or a progress bar is not
drawn here (:func:`applies` is False) but as usual.

Heights, for a balance: up to 5 characters (``15M``, ``16.5M``, ``-500K``)
49 px; 6-7 characters (``14.151M``, ``-99.99M``) 42 px; 8-10 characters
(``15,001,234``, ``-12.345M``) 28 px; an amount being typed 35 px.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from banker.money import MAX_DIGITS
from banker.unit.screen import Screen

#: The longest amount the keypad takes, as the screen shows it while typing: the digits, the point, the cursor.
WIDEST_TYPED = "8" * MAX_DIGITS + "._"
#: Characters a money line is made of: the core's amounts (banker.money), its cut mark ``~``, the cursor.
MONEY_CHARS = frozenset("0123456789.,KM-~_")
#: The rows of the 11-row font cell the digits use (2-8); a comma's tail adds rows 9 and 10.
DIGIT_TOP, DIGIT_ROWS, COMMA_ROWS = 2, 7, 9
CELL = 6
#: Pixels kept dark at each side, and the rows of the frame the money may use (under the top line; above the hint).
SIDE = 1
MONEY_TOP = 12
MONEY_BOTTOM = 63          # a balance: rows 12-62
MONEY_BOTTOM_TYPING = 52   # an amount being typed: rows 12-51, the hint below
HINT_TOP = 52


def applies(screen: Screen) -> bool:
    """True when ``screen`` is drawn with large digits: its big line is money, with at most one line above and
    one below it, and it is no refusal, QR code or progress bar."""
    if screen.big is None or screen.error or screen.qr is not None or screen.progress is not None:
        return False
    if not 0 <= screen.big <= 1 or len(screen.lines) - screen.big > 2:
        return False
    return _is_money(screen.lines[screen.big] if screen.big < len(screen.lines) else "")


def _is_money(text: str) -> bool:
    """Whether ``text`` is money as the large digits draw it: their characters only, with a digit or the blank
    of an amount being typed."""
    return bool(text) and set(text) <= MONEY_CHARS and any(ch.isdigit() or ch == "_" for ch in text)


def typing(screen: Screen) -> bool:
    """An amount being typed: the money line ends with the cursor."""
    return screen.lines[screen.big].endswith("_")


def money_at(text: str, top: int, rows: int, width: int = 128) -> tuple[int, int, Image.Image]:
    """Where the money ``text`` goes in ``rows`` rows from ``top`` of a frame ``width`` wide, and its pixels
    (mode "1"): an amount being typed from the left, a balance centred; centred in its rows."""
    money = money_image(text, rows)
    x = SIDE if text.endswith("_") else (width - money.width) // 2
    return x, top + (rows - money.height) // 2, money


def scales(text: str, rows: int, width: int = 128 - 2 * SIDE) -> tuple[int, int, int]:
    """The width factor, height factor and gap (pixels between glyphs that would touch) for ``text`` in
    ``rows`` rows and ``width`` pixels: the largest width factor that fits, a gap only where it still fits."""
    band = COMMA_ROWS if "," in text else DIGIT_ROWS
    tallest = max(1, rows // band)
    for sx in range(tallest, 0, -1):
        sy = min(tallest, 2 * sx)
        for gap in (max(1, sx // 3), 0):
            if _composed(text, sx, sy, gap).width <= width:
                return sx, sy, gap
    return 1, 1, 0


def money_image(text: str, rows: int) -> Image.Image:
    """``text`` as tall as ``rows`` rows and the frame's width let it be (mode "1"): a balance cropped to its
    ink's width; an amount being typed at the size of the longest entry, glyphs in fixed cells from the left."""
    if text.endswith("_"):
        sx, sy, _ = scales(WIDEST_TYPED, rows)
        return _composed(text, sx, sy, 0, crop=False)
    return _composed(text, *scales(text, rows))


def digit_height(text: str, rows: int) -> int:
    """How tall the digits of ``text`` are drawn in ``rows`` rows (7 source rows times the height factor)."""
    return DIGIT_ROWS * scales(WIDEST_TYPED if text.endswith("_") else text, rows)[1]


@lru_cache(maxsize=1)
def _font() -> ImageFont.ImageFont:
    return ImageFont.load_default_imagefont()


@lru_cache(maxsize=64)
def _glyph(ch: str) -> Image.Image:
    """One character's digit band (rows 2-10 of its cell; the cursor is a bar on the digits' baseline)."""
    cell = Image.new("1", (CELL, 11), 0)
    draw = ImageDraw.Draw(cell)
    if ch == "_":
        draw.line((0, DIGIT_TOP + DIGIT_ROWS - 1, CELL - 1, DIGIT_TOP + DIGIT_ROWS - 1), fill=1)
    else:
        draw.text((0, 0), ch, font=_font(), fill=1)
    return cell.crop((0, DIGIT_TOP, CELL, DIGIT_TOP + COMMA_ROWS))


def _touches(left: str, right: str) -> bool:
    """Whether two neighbouring glyphs' ink meets (``1`` and ``4`` fill their whole cell): they get a gap."""
    a, b = _glyph(left).getbbox(), _glyph(right).getbbox()
    return a is not None and b is not None and a[2] == CELL and b[0] == 0


@lru_cache(maxsize=256)
def _composed(text: str, sx: int, sy: int, gap: int, crop: bool = True) -> Image.Image:
    band = COMMA_ROWS if "," in text else DIGIT_ROWS
    gaps = [gap if i and _touches(text[i - 1], ch) else 0 for i, ch in enumerate(text)]
    out = Image.new("1", (len(text) * CELL * sx + sum(gaps), band * sy), 0)
    x = 0
    for ch, before in zip(text, gaps):
        x += before
        glyph = _glyph(ch).crop((0, 0, CELL, band))
        out.paste(glyph.resize((CELL * sx, band * sy), Image.NEAREST), (x, 0))
        x += CELL * sx
    box = out.getbbox() if crop else None
    return out.crop((box[0], 0, box[2], out.height)) if box else out
