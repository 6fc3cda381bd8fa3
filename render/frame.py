"""Draw the core's screen model into the 128x64 1-bit frame of the OLED, with luma.core's canvas.

The same drawing serves the real panel (:func:`draw_screen` on a luma device),
the desktop simulator and the reference images of the tests
(:func:`render_image`, on luma's dummy device).

A 10-pixel status bar (the ``+`` and ``-`` readers, filled when a card lies
on them; the volume as up to three bars), then the lines in Pillow's 6x11
bitmap font (21 characters), one of them doubled (10 characters, 12x22) for
a balance or an amount, each where :func:`render.layout.layout` places it
(the tests hold the frame against the same layout). A refusal is drawn
inverted. With ``digits="large"`` a balance or an amount is drawn as tall as
the frame fits instead (:mod:`render.large`).
"""

from __future__ import annotations

import unicodedata
from dataclasses import replace
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from banker.unit.screen import Screen

from . import large
from .layout import BIG_SCALE, HEIGHT, QR_QUIET, STATUS_HEIGHT, WIDTH, Placed, layout, qr_side

#: How a balance or an amount is drawn: ``[display] digits`` of the config (docs/config.md).
DIGITS = ("normal", "large")


@lru_cache(maxsize=1)
def font() -> ImageFont.ImageFont:
    """Pillow's built-in bitmap font: the same pixels on every machine."""
    return ImageFont.load_default_imagefont()


#: Letters the bitmap font lacks (it has Latin-1) that don't decompose to one it has: drawn as these.
_NEAREST = str.maketrans({"Ł": "L", "ł": "l", "Đ": "D", "đ": "d", "Ħ": "H", "ħ": "h", "ı": "i", "Œ": "OE",
                          "œ": "oe", "ŋ": "n", "Ŧ": "T", "ŧ": "t", "ſ": "s", "\u2019": "'", "\u2013": "-"})


@lru_cache(maxsize=256)
def drawable(text: str) -> str:
    """``text`` in the letters the bitmap font has (Latin-1): a letter outside it as its base letter
    (``Ż`` -> ``Z``, ``Ł`` -> ``L``), anything else as ``?``. A player's name may be in any script; the
    screen must still draw (the table page and the journal keep the name as typed)."""
    if all(ord(ch) < 256 for ch in text):
        return text
    out = []
    for ch in text.translate(_NEAREST):
        if ord(ch) < 256:
            out.append(ch)
            continue
        base = "".join(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c))
        out.append(base if base and all(ord(c) < 256 for c in base) else "?")
    return "".join(out)


@lru_cache(maxsize=512)
def _text(text: str) -> Image.Image:
    """``text`` in the bitmap font, as a mask to paste: a line drawn once is pasted from here after (a frame
    has five or six lines, most of them the same as the frame before's)."""
    width = max(1, int(font().getlength(text)))
    small = Image.new("1", (width, 11), 0)
    ImageDraw.Draw(small).text((0, 0), text, font=font(), fill=1)
    return small


@lru_cache(maxsize=256)
def _big_text(text: str) -> Image.Image:
    """``text`` in the bitmap font scaled up by whole pixels (crisp, never smoothed)."""
    small = _text(text)
    return small.resize((small.width * BIG_SCALE, 11 * BIG_SCALE), Image.NEAREST)


def _draw_status(draw: ImageDraw.ImageDraw, screen: Screen, image: Image.Image | None = None) -> None:
    """The status bar: pasted whole from :func:`_status_bar` where the frame's image is at hand, else drawn."""
    if image is not None:
        image.paste(1, (0, 0), _status_bar(bool(screen.left), bool(screen.right), screen.volume))
    else:
        _draw_status_bar(draw, bool(screen.left), bool(screen.right), screen.volume)


@lru_cache(maxsize=32)
def _status_bar(left: bool, right: bool, volume: int) -> Image.Image:
    """The status bar drawn once for each state of the readers and the volume, as a mask to paste."""
    bar = Image.new("1", (WIDTH, STATUS_HEIGHT + 2), 0)
    _draw_status_bar(ImageDraw.Draw(bar), left, right, volume)
    return bar


def _draw_status_bar(draw: ImageDraw.ImageDraw, left: bool, right: bool, volume: int) -> None:
    """The readers' boxes (filled while a card lies there), the volume's bars, the rule below."""
    for x, sign, occupied in ((0, "+", left), (14, "-", right)):
        draw.rectangle((x, 0, x + 11, STATUS_HEIGHT - 1), outline=1, fill=1 if occupied else 0)
        draw.text((x + 3, -1), sign, font=font(), fill=0 if occupied else 1)
    for bar in range(3):
        x = WIDTH - 15 + bar * 5
        top = STATUS_HEIGHT - 1 - 3 * (bar + 1)
        if bar < volume:
            draw.rectangle((x, top, x + 3, STATUS_HEIGHT - 1), fill=1)
        else:
            draw.line((x, STATUS_HEIGHT - 1, x + 3, STATUS_HEIGHT - 1), fill=1)
    draw.line((0, STATUS_HEIGHT + 1, WIDTH - 1, STATUS_HEIGHT + 1), fill=1)


PROGRESS_HEIGHT = 4


@lru_cache(maxsize=8)
def _qr_modules(text: str) -> tuple[tuple[bool, ...], ...]:
    """The dark/light modules of the smallest QR code holding ``text`` (segno; low error correction)."""
    import segno

    code = segno.make(text, error="l", micro=False, boost_error=True)
    return tuple(tuple(bool(m) for m in row) for row in code.matrix)


def _draw_qr(draw: ImageDraw.ImageDraw, screen: Screen) -> None:
    """The code on a lit square at the left (dark modules on light, as cameras expect; its quiet zone,
    ``QR_QUIET`` pixels, is the margin a phone's camera needs); the lines go beside it."""
    modules = _qr_modules(screen.qr)
    size = len(modules)
    side = qr_side(size)
    scale = (side - 2 * QR_QUIET) // size
    top = (HEIGHT - side) // 2
    draw.rectangle((0, top, side - 1, top + side - 1), fill=1)
    for y, row in enumerate(modules):
        for x, dark in enumerate(row):
            if dark:
                left, upper = QR_QUIET + x * scale, top + QR_QUIET + y * scale
                draw.rectangle((left, upper, left + scale - 1, upper + scale - 1), fill=0)


def _draw_progress(draw: ImageDraw.ImageDraw, progress: float) -> None:
    top = HEIGHT - PROGRESS_HEIGHT
    draw.rectangle((0, top, WIDTH - 1, HEIGHT - 1), outline=1, fill=0)
    filled = round((WIDTH - 2) * max(0.0, min(1.0, progress)))
    if filled:
        draw.rectangle((1, top + 1, filled, HEIGHT - 2), fill=1)


def _draw_surround(draw: ImageDraw.ImageDraw, screen: Screen, plan, image: Image.Image | None = None) -> int:
    """Draw what surrounds the lines: the QR code, or (with no money on large digits) the status bar and a
    refusal's lit field. Returns the ink the lines take: 0 on that field, else 1."""
    if screen.qr is not None:
        _draw_qr(draw, screen)
        return 1
    if any(placed.kind == "money" for placed in plan.lines):
        return 1
    if plan.status_bar:
        _draw_status(draw, screen, image)
    if screen.error:
        draw.rectangle((0, plan.top, WIDTH - 1, HEIGHT - 1), fill=1)
        return 0
    return 1


def draw_screen(draw: ImageDraw.ImageDraw, screen: Screen, image: Image.Image | None = None, *,
                digits: str = "normal") -> None:
    """Draw ``screen`` with ``draw`` (a luma canvas); ``image`` is needed for the double-size line and for
    ``digits="large"`` (a balance or an amount as tall as it fits; see :mod:`render.large`). The lines go
    where :func:`render.layout.layout` places them, and only those."""
    if digits not in DIGITS:
        raise ValueError(f"digits must be one of {', '.join(DIGITS)}, not {digits!r}")
    if screen.asleep:
        return
    screen = in_font(screen)
    modules = len(_qr_modules(screen.qr)) if screen.qr is not None else 0
    plan = layout(screen, digits=digits, qr_modules=modules, can_paste=image is not None)
    ink = _draw_surround(draw, screen, plan, image)
    for placed in plan.lines:
        _draw_line(draw, image, placed, ink)
    if screen.progress is not None and screen.qr is None:
        _draw_progress(draw, screen.progress)


def in_font(screen: Screen) -> Screen:
    """``screen`` with its lines in the letters the font has (:func:`drawable`), as the frame draws them."""
    if any(type(line) is not str or not line.isascii() for line in screen.lines):  # Pillow measures plain str only
        return replace(screen, lines=tuple(drawable(str(line)) for line in screen.lines))
    return screen


def _draw_line(draw: ImageDraw.ImageDraw, image: Image.Image | None, placed: Placed, ink: int) -> None:
    if placed.kind == "money":
        x, y, money = large.money_at(placed.text, placed.y, placed.rows, WIDTH)
        image.paste(ink, (x, y), money)
    elif placed.scale == 1 and image is None:
        draw.text((placed.x, placed.y), placed.text, font=font(), fill=ink)
    elif placed.scale == 1:
        image.paste(ink, (placed.x, placed.y), _text(placed.text))
    else:
        image.paste(ink, (placed.x, placed.y), _big_text(placed.text))


def show(device, screen: Screen, *, digits: str = "normal") -> None:
    """Send ``screen`` to a luma ``device`` (real panel or dummy) as one frame."""
    from luma.core.render import canvas

    frame = canvas(device)
    with frame as draw:
        draw_screen(draw, screen, frame.image, digits=digits)


@lru_cache(maxsize=1)
def _dummy():
    """One luma dummy device for every frame: luma's atexit hook keeps each device it made alive."""
    from luma.core.device import dummy

    return dummy(width=WIDTH, height=HEIGHT, mode="1")


def render_image(screen: Screen, *, digits: str = "normal") -> Image.Image:
    """The 128x64 mode-"1" frame for ``screen``, drawn exactly as the panel draws it (on luma's dummy device);
    ``digits`` is the config's ``[display] digits`` (``"normal"`` or ``"large"``)."""
    device = _dummy()
    show(device, screen, digits=digits)
    return device.image.copy()
