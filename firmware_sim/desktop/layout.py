"""Where everything sits in the simulator's window, in OLED pixels times ``scale``, and its colours.

The window is four columns: the unit itself (two card slots, the OLED in
its bezel, the 4x4 keypad), the tray of player cards, the ledger (balances
and the last transactions) and the estate (who owns which deed, its
buildings and mortgage). Every size is a whole multiple of ``scale``, the
size of one OLED pixel on the desktop, so the OLED is drawn pixel-crisp and
the frame can be read back exactly (:func:`oled_frame`). The scales offered
(:data:`SCALES`) are those at which the smallest text is still at least
:data:`MIN_TEXT_PX` desktop pixels high.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image

from banker.unit.events import KEYS, READERS
from render import HEIGHT, WIDTH

Rect = tuple[int, int, int, int]  # x, y, width, height

# -- colours (RGB) ------------------------------------------------------------------------
BACKGROUND = (32, 36, 44)
CASE = (18, 20, 24)
CASE_EDGE = (70, 76, 88)
BEZEL = (6, 6, 8)
OLED_LIT = (150, 215, 255)  # an SSD1306's pixels: blue-white on black
OLED_DARK = (4, 8, 14)
KEY_FACE = (222, 224, 228)
KEY_PRESSED = (150, 154, 162)
KEY_SHADOW = (90, 94, 102)
KEY_TEXT = (20, 22, 26)
KEY_ACCENTS = {"M": (214, 231, 255), "K": (214, 231, 255), "C": (255, 220, 210), "GO": (214, 245, 214), "FN": (240, 232, 200)}
SLOT_COLOURS = {"left": (40, 170, 80), "right": (210, 50, 50)}
PANEL = (245, 245, 240)
PANEL_TEXT = (25, 25, 30)
PANEL_DIM = (110, 110, 120)
PANEL_RULE = (215, 215, 208)
HINT = (255, 214, 102)  # the sleeping screen's hint under the bezel
#: The board's colour groups (the estate panel's swatches).
GROUP_COLOURS = {
    "brown": (149, 84, 54), "light-blue": (120, 200, 240), "pink": (217, 58, 150), "orange": (247, 148, 29),
    "red": (237, 27, 36), "yellow": (240, 220, 0), "green": (31, 178, 90), "dark-blue": (0, 114, 187),
    "railroad": (40, 40, 40), "utility": (160, 160, 150),
}
TRAY = (48, 54, 64)
#: Card colours by tile number: the board's colour groups, then greys.
CARD_COLOURS = (
    (149, 84, 54), (120, 200, 240), (217, 58, 150), (247, 148, 29),
    (237, 27, 36), (240, 220, 0), (31, 178, 90), (0, 114, 187),
)
BLANK_CARD = (236, 236, 236)
UNKNOWN_CARD = (150, 150, 150)

TRAY_COLUMNS, TRAY_ROWS = 2, 6
MAX_TILES = TRAY_COLUMNS * TRAY_ROWS

#: Font heights in OLED pixels (times ``scale`` on the desktop).
FONT_UNITS = {"key": 10, "text": 9, "small": 7, "title": 10}
#: The smallest text height, in desktop pixels, that stays legible.
MIN_TEXT_PX = 14
#: The scales the window is offered at (``banker sim --scale``): the smallest text is legible at each.
SCALES = tuple(s for s in range(1, 9) if min(FONT_UNITS.values()) * s >= MIN_TEXT_PX)
#: The scale of screenshots and of a window when the desktop is large enough.
DEFAULT_SCALE = 3


@dataclass(frozen=True)
class Layout:
    """The window's geometry for OLED pixels drawn ``scale`` desktop pixels wide (1-8)."""

    scale: int = DEFAULT_SCALE

    def __post_init__(self) -> None:
        if self.scale not in SCALES:
            raise ValueError(f"scale must be {SCALES[0]} to {SCALES[-1]}, not {self.scale}")

    def _u(self, *values: int) -> tuple[int, ...]:
        return tuple(v * self.scale for v in values)

    # -- the unit --------------------------------------------------------------------------

    @property
    def case(self) -> Rect:
        """The unit's body."""
        return self._u(6, 6, 148, 206)

    @property
    def oled(self) -> Rect:
        """The OLED's 128x64 pixels, each ``scale`` x ``scale``."""
        x, y, _, _ = self._u(16, 60, 0, 0)
        return (x, y, WIDTH * self.scale, HEIGHT * self.scale)

    @property
    def bezel(self) -> Rect:
        x, y, w, h = self.oled
        b = 4 * self.scale
        return (x - b, y - b, w + 2 * b, h + 2 * b)

    def slot(self, reader: str) -> Rect:
        """The card slot of ``reader``: ``left`` is the ``+`` reader, ``right`` the ``-`` one."""
        index = READERS.index(reader)
        return self._u(12 + index * 72, 12, 64, 38)

    def key(self, key: str) -> Rect:
        """The face of keypad key ``key``, in the layout of docs/keypad.md."""
        row, column = divmod(KEYS.index(key), 4)
        return self._u(12 + column * 36, 140 + row * 17, 28, 13)

    @property
    def tile_size(self) -> tuple[int, int]:
        return self._u(48, 28)[:2]  # type: ignore[return-value]

    def slot_tile(self, reader: str) -> Rect:
        """Where a card lying on ``reader`` is drawn: centred in its slot, below the slot's label."""
        x, y, w, h = self.slot(reader)
        tw, th = self.tile_size
        return (x + (w - tw) // 2, y + h - th - 3 * self.scale, tw, th)

    # -- the tray and the panel --------------------------------------------------------------

    @property
    def tray(self) -> Rect:
        return self._u(160, 6, 108, 206)

    def tray_tile(self, index: int) -> Rect:
        """Where tile ``index`` (0-based) waits in the tray."""
        row, column = divmod(index, TRAY_COLUMNS)
        x, y, _, _ = self.tray
        tw, th = self.tile_size
        return (x + (4 + column * 52) * self.scale, y + (16 + row * 31) * self.scale, tw, th)

    @property
    def panel(self) -> Rect:
        """The ledger: balances and the last transactions."""
        return self._u(274, 6, 128, 206)

    @property
    def estate(self) -> Rect:
        """Who owns which deed, with its buildings and mortgage."""
        return self._u(408, 6, 116, 206)

    @property
    def hint(self) -> tuple[int, int]:
        """Where the line under the bezel is centred (the maker's name, or the sleeping screen's hint)."""
        x, y, w, h = self.bezel
        return (x + w // 2, y + h + 2 * self.scale)

    @property
    def size(self) -> tuple[int, int]:
        return self._u(530, 218)[:2]  # type: ignore[return-value]

    def font_px(self, kind: str) -> int:
        """Font heights in desktop pixels: ``key`` legends, ``text`` in the panels and on tiles, ``small``, ``title``."""
        return FONT_UNITS[kind] * self.scale


#: Room on the desktop that the window can't use (its title bar, a task bar), in desktop pixels.
DESKTOP_MARGIN = (40, 100)


def fit_scale(desktop: tuple[int, int] | None, wanted: int = DEFAULT_SCALE) -> int:
    """The largest offered scale up to ``wanted`` whose window fits ``desktop`` (width, height); the smallest if none."""
    if not desktop or not all(desktop):
        return wanted
    room = (desktop[0] - DESKTOP_MARGIN[0], desktop[1] - DESKTOP_MARGIN[1])
    fitting = [s for s in SCALES if s <= wanted and all(a <= b for a, b in zip(Layout(s).size, room))]
    return fitting[-1] if fitting else SCALES[0]


def inside(rect: Rect, pos: tuple[int, int]) -> bool:
    x, y, w, h = rect
    return x <= pos[0] < x + w and y <= pos[1] < y + h


def centre(rect: Rect) -> tuple[int, int]:
    x, y, w, h = rect
    return (x + w // 2, y + h // 2)


def oled_frame(window: Image.Image, layout: Layout) -> Image.Image:
    """Read the 128x64 1-bit frame back from a screenshot of the window.

    Raises ValueError when the OLED area is not pixel-crisp (an OLED pixel's
    ``scale`` x ``scale`` block not all one colour, or a colour that is
    neither lit nor dark).
    """
    x, y, w, h = layout.oled
    area = window.convert("RGB").crop((x, y, x + w, y + h))
    frame = area.resize((WIDTH, HEIGHT), Image.NEAREST)
    if frame.resize(area.size, Image.NEAREST).tobytes() != area.tobytes():
        raise ValueError("the OLED area is not drawn pixel-crisp")
    colours = {colour for _, colour in frame.getcolors(WIDTH * HEIGHT)}
    if not colours <= {OLED_LIT, OLED_DARK}:
        raise ValueError(f"the OLED area holds colours other than lit and dark: {sorted(colours)[:4]}")
    return frame.convert("L").point(lambda v: 255 if v > 128 else 0).convert("1")
