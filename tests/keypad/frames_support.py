"""Holding a frame against its screen model: each model line drawn alone, with the font, where the layout says.

:func:`disagreements` lists what of ``screen.lines`` the 128x64 frame does
not show truly: a line the layout gives no place, a line whose ink would
fall outside the frame, a place whose pixels are not that line's (another
line, the status bar, a progress bar drawn over it). The line alone is
drawn here with Pillow and the unit's font, not with the frame's code;
only the large digits' money is composed by :mod:`render.large` (its
pixels are measured by tests/keypad/test_large_digits.py).
"""

from __future__ import annotations

from PIL import Image, ImageChops, ImageDraw, ImageFont

from banker.unit.screen import Screen
from render import HEIGHT, WIDTH, render_image
from render.frame import _qr_modules, in_font
from render.large import money_at
from render.layout import Placed, layout

#: Room around the frame where a line drawn alone may land, so ink outside the frame shows.
MARGIN = 32
FONT = ImageFont.load_default_imagefont()


def alone(text: str, placed: Placed) -> Image.Image:
    """The model line ``text`` drawn alone on a dark canvas MARGIN pixels larger than the frame on each side."""
    canvas = Image.new("1", (WIDTH + 2 * MARGIN, HEIGHT + 2 * MARGIN), 0)
    at = (placed.x + MARGIN, placed.y + MARGIN)
    if placed.kind == "money":
        x, y, money = money_at(text, placed.y, placed.rows, WIDTH)
        canvas.paste(1, (x + MARGIN, y + MARGIN), money)
    elif placed.scale == 1:
        ImageDraw.Draw(canvas).text(at, text, font=FONT, fill=1)
    else:
        small = Image.new("1", (max(1, 6 * len(text)), 11), 0)
        ImageDraw.Draw(small).text((0, 0), text, font=FONT, fill=1)
        canvas.paste(1, at, small.resize((small.width * placed.scale, 11 * placed.scale), Image.NEAREST))
    return canvas


def placements(screen: Screen, digits: str = "normal") -> tuple[Placed, ...]:
    modules = len(_qr_modules(screen.qr)) if screen.qr is not None else 0
    return layout(in_font(screen), digits=digits, qr_modules=modules).lines


def disagreements(screen: Screen, digits: str = "normal", frame: Image.Image | None = None) -> list[str]:
    """What the frame of ``screen`` fails to show of its lines; empty when every line is drawn truly."""
    if screen.asleep:
        return []
    frame = render_image(screen, digits=digits) if frame is None else frame
    drawn = in_font(screen).lines
    placed = {p.line: p for p in placements(screen, digits)}
    problems = []
    for index, line in enumerate(screen.lines):
        p = placed.get(index)
        if p is None:
            problems.append(f"line {index + 1} {line!r} is not drawn")
            continue
        problems += _held(screen, frame, drawn[index], p, f"line {index + 1} {line!r}")
    return problems


def _held(screen: Screen, frame: Image.Image, text: str, placed: Placed, name: str) -> list[str]:
    """Whether ``text``'s ink, drawn alone at ``placed``, lies inside the frame and the frame shows just it there."""
    canvas = alone(text, placed)
    ink = canvas.getbbox()
    if ink is None:
        return []
    left, top, right, bottom = (ink[0] - MARGIN, ink[1] - MARGIN, ink[2] - MARGIN, ink[3] - MARGIN)
    if left < 0 or top < 0 or right > WIDTH or bottom > HEIGHT:
        return [f"{name} falls outside the frame (its ink spans x {left}-{right - 1}, y {top}-{bottom - 1})"]
    width, height = placed.size
    box = (max(0, placed.x), max(0, placed.y), min(WIDTH, placed.x + width), min(HEIGHT, placed.y + height))
    expected = canvas.crop((box[0] + MARGIN, box[1] + MARGIN, box[2] + MARGIN, box[3] + MARGIN))
    if screen.error and screen.qr is None:  # a refusal: dark letters on the lit area
        expected = ImageChops.invert(expected.convert("L")).convert("1")
    shown = frame.crop(box).convert("1")
    wrong = ImageChops.logical_xor(shown, expected).getbbox()
    if wrong is not None:
        return [f"{name}: the frame's pixels at {box} are not the line's ({wrong} differ)"]
    return []
