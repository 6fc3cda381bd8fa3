"""The screen model: what the unit shows, as data, before anything is drawn.

A renderer (``render``) turns a :class:`Screen` into the 128x64
pixels of the OLED; tests and keypad scripts read its text.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Characters that fit on the one line drawn in the double-size font.
BIG_WIDTH = 10
#: Characters that fit on a line beside a QR code.
QR_LINE_WIDTH = 10
#: Rows of text under the status bar: a line takes one, the double-size line two.
ROWS = 4
#: Rows of text in the whole panel: a screen that needs more than ``ROWS`` is drawn without the status bar.
ALL_ROWS = 5


@dataclass(frozen=True)
class Screen:
    """Everything the display shows at one moment.

    ``lines`` are the text lines under the status bar; the line at index
    ``big`` (if any) is drawn double size (a balance, an amount) and takes
    two rows of the four (``ROWS``). Lines that need five rows (``ALL_ROWS``)
    are drawn over the whole panel, without the status bar; no screen needs
    more (tests/keypad/test_frames.py draws every one).
    ``left`` / ``right`` say whether a card lies on the ``+`` / ``-`` reader,
    ``volume`` is 0-3, ``error`` marks a refusal (drawn inverted), and
    ``asleep`` means the panel is off; ``qr`` is text drawn as a QR code on
    the left 64x64 pixels (the lines then go to its right, 10 characters
    wide); ``progress`` (0-1) is a bar along the bottom (the hold of ``C``).
    """

    lines: tuple[str, ...] = ()
    big: int | None = None
    left: bool = False
    right: bool = False
    volume: int = 2
    error: bool = False
    asleep: bool = False
    qr: str | None = None
    progress: float | None = None

    @property
    def rows(self) -> int:
        """The rows of the panel the lines take: one each, two for the double-size line."""
        return len(self.lines) + (self.big is not None and 0 <= self.big < len(self.lines))

    @property
    def text(self) -> str:
        """The lines joined by newlines (what ``expect screen`` searches)."""
        return "\n".join(self.lines)

    def shows(self, needle: str) -> bool:
        """True when ``needle`` appears on one line, or across the lines joined by spaces."""
        if any(needle in line for line in self.lines):
            return True
        return needle in " ".join(self.lines)
