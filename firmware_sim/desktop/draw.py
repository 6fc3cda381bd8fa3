"""Drawing the simulator's window with pygame: the unit's case, slots, OLED, keypad, card tiles and panels.

Text uses pygame's bundled default font, rendered onto an opaque background,
so a screenshot is the same on every machine. The OLED is the
:func:`drivers.render.render_image` frame scaled by whole pixels. Every word
around it is a ``sim`` text of the catalogs (:mod:`.words`), drawn in the
language of the catalog :meth:`Painter.begin` is given, and cut (``~``) to
the box it is drawn in, never beyond it.
"""

from __future__ import annotations

import pygame
from PIL import Image

from banker.unit.events import KEYS, READERS
from banker.text.i18n import ENGLISH, Tr
from banker.unit.screen import Screen
from render import render_image

from . import layout as L  # noqa: N812  (the layout's measures, read as L.MARGIN, L.TILE...)
from .cards import BLANK_LABEL, STRAY_LABEL, Tile
from .layout import Layout, Rect
from .panel import OwnedDeed, PanelText
from .words import pgettext, say

#: Each card slot's reader sign and what the card there does.
SLOT_LABELS = {
    # Translators: the simulator's + card slot: the card laid there receives
    "left": ("+", pgettext("sim", "receives")),
    # Translators: the simulator's - card slot: the card laid there pays
    "right": ("-", pgettext("sim", "pays")),
}
#: Under a dark screen: the unit is asleep, not broken.
SLEEP_HINT = pgettext("sim", "Asleep: a key or a card wakes it")
#: The maker's name under the bezel, while the unit is awake.
# Translators: the simulator's unit: the maker's name printed under the screen, in capitals
MAKER = pgettext("sim", "MONOPOLY  BANK")
#: Over the tray of player cards: how to use them.
TRAY_HINT = pgettext("sim", "Cards: drag onto a slot")
#: Under the ledger: the keyboard's keys for the unit's (whose names, printed on the unit, are never translated).
# Translators: the simulator's key help: G, F and Shift are keys of the computer's keyboard; 0-9 . M K C GO FN the unit's
KEY_HELP = (pgettext("sim", "Keys: 0-9 . M K C, G = GO, F = FN"),
            pgettext("sim", "F1-F12: card on +, Shift: on -, Alt: on top"),
            pgettext("sim", "Ctrl+Q quits"))


def oled_surface(screen: Screen | None, scale: int, *, digits: str = "normal") -> pygame.Surface:
    """The OLED frame of ``screen`` (None: panel off) as a surface, each pixel ``scale`` x ``scale``;
    ``digits`` is the config's ``[display] digits``."""
    frame = render_image(screen, digits=digits) if screen is not None else Image.new("1", (128, 64), 0)
    rgb = Image.new("RGB", frame.size, L.OLED_DARK)
    rgb.paste(L.OLED_LIT, mask=frame)
    rgb = rgb.resize((frame.width * scale, frame.height * scale), Image.NEAREST)
    return pygame.image.frombytes(rgb.tobytes(), rgb.size, "RGB")


def _ink_for(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    r, g, b = colour
    return (20, 20, 24) if 0.299 * r + 0.587 * g + 0.114 * b > 140 else (250, 250, 250)


class Painter:
    """Draws every part of the window on ``surface``; remembers where it wrote the panel's text."""

    def __init__(self, surface: pygame.Surface, layout: Layout) -> None:
        self.surface = surface
        self.layout = layout
        self.fonts = {kind: pygame.font.Font(None, layout.font_px(kind)) for kind in ("key", "text", "small", "title")}
        self.texts: list[tuple[str, pygame.Rect]] = []  # panel text drawn in the last frame, with where
        self.hint: str | None = None  # the hint under the bezel in the last frame, if any
        self.drawn: list[str] = []  # every text drawn in the last frame, as drawn
        self.cut: list[tuple[str, str]] = []  # (text, as drawn) for each text cut to its box in the last frame
        self.tr: Tr = ENGLISH  # the catalog of the words drawn (:meth:`begin`)
        self._panels: tuple | None = None  # the PanelText last drawn, the drawings of its panels, their texts

    def begin(self, tr: Tr = ENGLISH) -> None:
        """Start a frame whose words are in the language of ``tr``."""
        self.tr = tr
        self.drawn, self.cut = [], []

    def say(self, message: str, **fields: object) -> str:
        """The ``sim`` text ``message`` in the frame's language (:func:`.words.say`)."""
        return say(self.tr, message, **fields)

    def text(self, text: str, pos: tuple[int, int], *, kind: str = "text", colour=L.PANEL_TEXT,
             background=L.PANEL, anchor: str = "topleft", width: int | None = None, record: bool = False) -> pygame.Rect:
        """Write ``text`` (cut to ``width`` pixels) at ``pos``; ``anchor`` is a pygame.Rect attribute."""
        font = self.fonts[kind]
        whole = text
        while width is not None and len(text) > 1 and font.size(text)[0] > width:
            text = text[:-2] + "~"
        self.drawn.append(text)
        if text != whole:
            self.cut.append((whole, text))
        image = font.render(text, True, colour, background)
        rect = image.get_rect(**{anchor: pos})
        self.surface.blit(image, rect)
        if record:
            self.texts.append((text, rect))
        return rect

    def _u(self, n: int) -> int:
        return n * self.layout.scale

    # -- the unit ----------------------------------------------------------------------------

    def case(self, *, asleep: bool = False) -> None:
        """The unit's body and the OLED's bezel; under it the maker's name, or (``asleep``) how to wake the unit."""
        self.surface.fill(L.BACKGROUND)
        pygame.draw.rect(self.surface, L.CASE, self.layout.case, border_radius=self._u(8))
        pygame.draw.rect(self.surface, L.CASE_EDGE, self.layout.case, width=max(1, self._u(1)), border_radius=self._u(8))
        pygame.draw.rect(self.surface, L.BEZEL, self.layout.bezel, border_radius=self._u(2))
        self.hint = self.say(SLEEP_HINT) if asleep else None
        width = self.layout.case[2] - self._u(8)
        if asleep:
            self.text(self.hint, self.layout.hint, kind="small", colour=L.HINT, background=L.CASE, anchor="midtop",
                      width=width)
        else:
            self.text(self.say(MAKER), self.layout.hint, kind="small", colour=(200, 200, 205), background=L.CASE,
                      anchor="midtop", width=width)

    def slots(self) -> None:
        for reader in READERS:
            rect = self.layout.slot(reader)
            colour = L.SLOT_COLOURS[reader]
            pygame.draw.rect(self.surface, (10, 11, 13), rect, border_radius=self._u(3))
            pygame.draw.rect(self.surface, colour, rect, width=self._u(1), border_radius=self._u(3))
            x, y, w, _ = rect
            sign, word = SLOT_LABELS[reader]
            self.text(f"{sign}  {self.say(word)}", (x + self._u(4), y + self._u(2)), kind="small", colour=colour,
                      background=(10, 11, 13), width=w - self._u(8))

    def oled(self, frame: pygame.Surface) -> None:
        self.surface.blit(frame, self.layout.oled[:2])

    def keys(self, pressed: set[str]) -> None:
        for key in KEYS:
            x, y, w, h = self.layout.key(key)
            face = pygame.Rect(x, y, w, h)
            if key in pressed:
                face.move_ip(0, self._u(1))
                colour = L.KEY_PRESSED
            else:
                pygame.draw.rect(self.surface, L.KEY_SHADOW, face.move(0, self._u(1)), border_radius=self._u(2))
                colour = L.KEY_ACCENTS.get(key, L.KEY_FACE)
            pygame.draw.rect(self.surface, colour, face, border_radius=self._u(2))
            self.text(key, face.center, kind="key", colour=L.KEY_TEXT, background=colour, anchor="center")

    # -- cards -------------------------------------------------------------------------------

    def tray(self, note: str | None = None) -> None:
        """The tray, headed by how to use it, or by ``note`` (a script has finished) in the hint's colour."""
        pygame.draw.rect(self.surface, L.TRAY, self.layout.tray, border_radius=self._u(4))
        x, y, w, _ = self.layout.tray
        self.text(note or self.say(TRAY_HINT), (x + w // 2, y + self._u(4)), kind="small",
                  colour=L.HINT if note else (220, 220, 225), background=L.TRAY, anchor="midtop", width=w - self._u(6))

    def tile(self, tile: Tile, number: int, rect: Rect, *, lifted: bool = False) -> None:
        """Card ``tile``, the ``number``-th of the tray (its hotkey F<number>), drawn at ``rect``."""
        if tile.blank:
            colour = L.BLANK_CARD
        elif not tile.enrolled:
            colour = L.UNKNOWN_CARD
        else:
            colour = L.CARD_COLOURS[(number - 1) % len(L.CARD_COLOURS)]
        ink = _ink_for(colour)
        card = pygame.Rect(rect)
        if lifted:
            pygame.draw.rect(self.surface, (0, 0, 0), card.move(self._u(2), self._u(2)), border_radius=self._u(3))
        pygame.draw.rect(self.surface, colour, card, border_radius=self._u(3))
        pygame.draw.rect(self.surface, (30, 30, 30), card, width=max(1, self.layout.scale // 2), border_radius=self._u(3))
        chip = pygame.Rect(card.x + self._u(4), card.y + self._u(12), self._u(8), self._u(6))
        pygame.draw.rect(self.surface, (212, 175, 55), chip, border_radius=self._u(1))
        if number <= 12:
            self.text(f"F{number}", (card.right - self._u(3), card.y + self._u(2)), kind="small", colour=ink,
                      background=colour, anchor="topright")
        self.text(self._label(tile), (card.x + self._u(4), card.y + self._u(3)), kind="text", colour=ink,
                  background=colour, width=card.width - self._u(16))
        if tile.enrolled:
            note = tile.uid
        else:
            # Translators: the simulator's card tiles: under a blank card, and under a card the ledger doesn't know
            note = self.tr.pgettext("sim", "FN enrols it") if tile.blank else self.tr.pgettext("sim", "not enrolled")
        self.text(note, (card.x + self._u(4), card.bottom - self._u(3)), kind="small", colour=ink,
                  background=colour, anchor="bottomleft", width=card.width - self._u(6))

    def _label(self, tile: Tile) -> str:
        """What is written on ``tile``: a player's name, a script's name for a card, or the window's words."""
        if tile.blank:
            return self.say(BLANK_LABEL)
        return self.say(STRAY_LABEL, uid=tile.uid) if tile.stray else tile.label

    # -- the ledger and estate panels ----------------------------------------------------------

    def panels(self, text: PanelText) -> None:
        """The ledger and the estate, drawn again only when ``text`` changed (else the last drawing is reused)."""
        if self._panels is not None and self._panels[0] is text:
            _, images, texts, drawn, cut = self._panels
            for rect, image in images:
                self.surface.blit(image, rect)
            self.texts = list(texts)
            self.drawn += drawn
            self.cut += cut
            return
        self.texts = []
        drawn, cut = len(self.drawn), len(self.cut)
        self.panel(text)
        self.estate(text)
        images = [(rect, self.surface.subsurface(rect).copy()) for rect in (self.layout.panel, self.layout.estate)]
        self._panels = (text, images, list(self.texts), self.drawn[drawn:], self.cut[cut:])

    def _box(self, rect: Rect, title: str) -> tuple[int, int, int]:
        """Draw a panel's card and title; (left, right, y below the title)."""
        box = pygame.Rect(rect)
        pygame.draw.rect(self.surface, L.PANEL, box, border_radius=self._u(4))
        left, right = box.x + self._u(4), box.right - self._u(4)
        y = self.text(title, (left, box.y + self._u(3)), kind="title", record=True, width=right - left).bottom
        return left, right, y

    def panel(self, text: PanelText) -> None:
        """The ledger: the game, every balance, the last transactions (the amount of each always whole)."""
        rect = pygame.Rect(self.layout.panel)
        left, right, y = self._box(rect, self.tr.pgettext("sim", "Ledger"))
        width = right - left
        y = self.text(text.game, (left, y), kind="small", colour=L.PANEL_DIM, width=width, record=True).bottom + self._u(3)
        y = self.text(self.tr.pgettext("sim", "Balances"), (left, y), kind="title", record=True,
                      width=width).bottom + self._u(1)
        for mark, name, amount in text.balances:
            self.text(mark, (left, y), record=True)
            amount_rect = self.text(amount, (right, y), anchor="topright", record=True)
            self.text(name, (left + self._u(8), y), width=amount_rect.x - left - self._u(12), record=True)
            y = amount_rect.bottom + self._u(1)
        y += self._u(3)
        y = self.text(self.tr.pgettext("sim", "Last transactions"), (left, y), kind="title", record=True,
                      width=width).bottom + self._u(1)
        bottom = rect.bottom - self._u(20)
        small = self.fonts["small"]
        for line in text.history:
            if y + small.get_linesize() > bottom:
                break
            amount_rect = self.text(line.amount, (right, y), kind="small", anchor="topright", record=True)
            self.text(f"{line.number} {line.text}", (left, y), kind="small", record=True,
                      width=amount_rect.x - left - self._u(3))
            y = amount_rect.bottom + self._u(1)
        y = rect.bottom - self._u(18)
        for line in KEY_HELP:
            y = self.text(self.say(line), (left, y), kind="small", colour=L.PANEL_DIM, width=width, record=True).bottom

    def estate(self, text: PanelText) -> None:
        """Who owns what: each owner's deeds in board order, a swatch of the colour group, houses, mortgages."""
        rect = pygame.Rect(self.layout.estate)
        left, right, y = self._box(rect, self.tr.pgettext("sim", "Estate"))
        small = self.fonts["small"]
        line = small.get_linesize()
        bottom = rect.bottom - self._u(12)
        if not text.estate:
            self.text(self.tr.pgettext("sim", "No deed sold yet"), (left, y + self._u(2)), kind="small",
                      colour=L.PANEL_DIM, record=True, width=right - left)
        y += self._u(2)
        left_out = sum(len(deeds) for _, deeds in text.estate)
        for owner, deeds in text.estate:
            if y + self.fonts["text"].get_linesize() > bottom:
                break
            y = self.text(owner, (left, y), record=True, width=right - left).bottom
            y, drawn = self._deeds(deeds, left, right, y, bottom)
            left_out -= drawn
            y += line + self._u(2)
        if left_out > 0:
            # Translators: the simulator's estate panel: the deeds there was no room for
            self.text(self.tr.pgettext("sim", "... {n} more").format(n=left_out), (left, bottom - line), kind="small",
                      colour=L.PANEL_DIM, record=True, width=right - left)
        self.text(text.bank, (left, rect.bottom - self._u(3)), kind="small", colour=L.PANEL_DIM, anchor="bottomleft",
                  width=right - left, record=True)

    def _deeds(self, deeds: tuple[OwnedDeed, ...], left: int, right: int, y: int, bottom: int) -> tuple[int, int]:
        """One owner's deeds from ``y``, wrapped between ``left`` and ``right`` until ``bottom``: the last line's
        top and how many deeds were drawn."""
        small = self.fonts["small"]
        line = small.get_linesize()
        x, drawn = left, 0
        for deed in deeds:
            marks = deed.marks(self.tr)
            words = deed.short + (f" {marks}" if marks else "")
            w = self._u(6) + small.size(words)[0]
            if x > left and x + w > right:
                x, y = left, y + line
            if y + line > bottom:
                break
            self._swatch(deed, (x, y + (line - self._u(4)) // 2))
            colour = L.PANEL_DIM if deed.mortgaged else L.PANEL_TEXT
            self.text(words, (x + self._u(6), y), kind="small", colour=colour, record=True, width=right - x - self._u(6))
            x += w + self._u(4)
            drawn += 1
        return y, drawn

    def _swatch(self, deed: OwnedDeed, pos: tuple[int, int]) -> None:
        """The deed's colour group as a small square: filled, or only outlined when it is mortgaged."""
        box = pygame.Rect(pos[0], pos[1], self._u(4), self._u(4))
        colour = L.GROUP_COLOURS.get(deed.group, L.PANEL_DIM)
        pygame.draw.rect(self.surface, colour, box, width=max(1, self.layout.scale // 2) if deed.mortgaged else 0)
