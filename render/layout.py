"""Where each line of the screen model goes in the 128x64 frame: the one layout the drawing and the tests share.

:func:`layout` answers, for a :class:`~banker.unit.screen.Screen`, which of its
lines are drawn, where, and how large: a tuple of :class:`Placed`, one per
line drawn, in the frame's pixels. :mod:`render.frame` draws exactly these
placements and nothing else of the lines, so a line the layout does not
place is not on the OLED; :func:`left_out` names those lines. A test can
then hold the frame against the model: every line placed, inside the frame,
and the pixels there those of that line alone (tests/keypad/test_frames.py).

The normal layout follows :mod:`banker.unit.screen`'s rows: under the 10-pixel
status bar and its rule, four rows of 13 pixels, a small line (Pillow's
6x11 bitmap font) taking one, a big line (the font doubled, 12x22) two;
lines that need five rows (a worth screen: its name, the worth big, the
cash and the end value) take the status bar's rows as well, from the
frame's top. Beside a QR code four short lines; with ``digits="large"`` a
balance or an amount as tall as fits (:mod:`render.large`).
"""

from __future__ import annotations

from dataclasses import dataclass

from banker.unit.screen import ROWS, Screen

from . import large

WIDTH, HEIGHT = 128, 64
STATUS_HEIGHT = 10
#: The first row under the status bar's rule.
TEXT_TOP = 12
#: Rows from one small line to the next; the font's cell is 11 rows tall and 6 pixels wide.
SMALL_PITCH = 13
CELL_WIDTH, CELL_HEIGHT = 6, 11
BIG_SCALE = 2
#: Rows left under a big line before the next one.
BIG_GAP = 2
#: Where the lines beside a QR code start (the top of the first one's cell).
QR_TEXT_TOP = 1
QR_QUIET = 3


@dataclass(frozen=True)
class Placed:
    """One line of the model as the frame draws it: ``line`` its index in ``screen.lines``, ``text`` what is
    drawn (the line in the font's letters), the glyph cell's top left at ``x``, ``y``, ``scale`` 1 (small) or 2
    (big); ``kind`` ``"text"`` (the bitmap font) or ``"money"`` (the large digits, ``rows`` tall at most)."""

    line: int
    text: str
    x: int
    y: int
    scale: int = 1
    kind: str = "text"
    rows: int = 0

    @property
    def size(self) -> tuple[int, int]:
        """The cell's width and height in the frame (for ``"money"``: the frame's width, the rows it may use)."""
        if self.kind == "money":
            return WIDTH, self.rows
        return len(self.text) * CELL_WIDTH * self.scale, CELL_HEIGHT * self.scale


def qr_side(modules: int) -> int:
    """The width of the lit square a QR code of ``modules`` modules a side is drawn on (quiet zone included)."""
    scale = max(1, (HEIGHT - 2 * QR_QUIET) // modules)
    return modules * scale + 2 * QR_QUIET


@dataclass(frozen=True)
class Layout:
    """A frame's plan: ``lines`` the placements, ``status_bar`` whether the status bar is drawn, ``top`` the first
    row of the lines' area (where a refusal's lit area starts)."""

    lines: tuple[Placed, ...] = ()
    status_bar: bool = False
    top: int = 0


def layout(screen: Screen, *, digits: str = "normal", qr_modules: int = 0, can_paste: bool = True) -> Layout:
    """``screen`` (its lines already in the font's letters) as the frame draws it. ``qr_modules``: the side of
    its QR code in modules, when it has one; ``can_paste``: a big line can be drawn (the frame's image is at
    hand: a luma canvas always has it). Lines that need more rows than the status bar leaves (``ROWS``) take
    its rows too: the status bar is then left out."""
    if screen.asleep:
        return Layout()
    if screen.qr is not None:
        x = qr_side(qr_modules) + 2
        return Layout(tuple(Placed(i, line, x, QR_TEXT_TOP + i * SMALL_PITCH) for i, line in enumerate(screen.lines)))
    if digits == "large" and can_paste and large.applies(screen):
        return Layout(_large(screen))
    top = TEXT_TOP if screen.rows <= ROWS else 0
    return Layout(_normal(screen, can_paste, top), status_bar=top > 0, top=top)


def _normal(screen: Screen, can_paste: bool, top: int) -> tuple[Placed, ...]:
    placed = []
    for index, line in enumerate(screen.lines):
        if index == screen.big:
            width = len(line) * CELL_WIDTH * BIG_SCALE
            if can_paste and top + 1 + CELL_HEIGHT * BIG_SCALE <= HEIGHT:
                placed.append(Placed(index, line, max(0, (WIDTH - width) // 2), top + 1, BIG_SCALE))
            top += CELL_HEIGHT * BIG_SCALE + BIG_GAP
        else:
            if top + CELL_HEIGHT > HEIGHT:
                break
            placed.append(Placed(index, line, 1, top))
            top += SMALL_PITCH
    return tuple(placed)


def _large(screen: Screen) -> tuple[Placed, ...]:
    """The large-digits layout: the top line small, the money, and while typing the hint at the bottom."""
    placed = []
    if screen.big == 1:
        placed.append(Placed(0, screen.lines[0], 1, 0))  # row 0: an accent over a capital stays on the panel
    typing = large.typing(screen)
    bottom = large.MONEY_BOTTOM_TYPING if typing else large.MONEY_BOTTOM
    placed.append(Placed(screen.big, screen.lines[screen.big], 0, large.MONEY_TOP, kind="money",
                         rows=bottom - large.MONEY_TOP))
    if typing and len(screen.lines) > screen.big + 1:
        placed.append(Placed(screen.big + 1, screen.lines[screen.big + 1], 1, large.HINT_TOP - 1))
    return tuple(placed)


def left_out(screen: Screen, **how) -> tuple[int, ...]:
    """The indexes of the lines of ``screen`` the frame does not draw (``how``: as for :func:`layout`)."""
    drawn = {placed.line for placed in layout(screen, **how).lines}
    return tuple(i for i in range(len(screen.lines)) if i not in drawn)
