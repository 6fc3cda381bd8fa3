"""The keypad-script backend of the desktop simulator: each step becomes the window's own mouse events.

A press is a click on the key (down, 50 ms, up), a hold keeps the mouse
button down, ``insert`` drags the card's tile from the tray onto the slot
(or, for a card that already lies on the other reader, types its hotkey),
``remove`` drags it back to the tray, and ``wait`` advances the window's
frozen clock in 100 ms ticks. So a script exercises the same code paths as a
player at the window, in simulated time.

A script's card named ``new-card`` that nobody enrolled is the window's blank
"New card" tile (any other unknown name gets a grey tile of its own).
"""

from __future__ import annotations

import pygame

from banker.script import made_up_uid
from firmware_sim.core_backend import CoreBackend
from firmware_sim.desktop.layout import centre
from firmware_sim.desktop.window import HOTKEYS, TICK_SECONDS, DesktopSim

PRESS_SECONDS = 0.05
#: The rules' expectations (deeds, buildings, worth) read only the ledger: the core backend's serve.
LEDGER_QUERIES = ("enrol_deed", "owner", "houses", "mortgaged", "bank_buildings", "worth")
BLANK_CARD_NAME = "new-card"


class WindowBackend:
    """Runs script steps on ``sim`` (a :class:`DesktopSim`), whose clock it freezes and steps."""

    def __init__(self, sim: DesktopSim) -> None:
        self.sim = sim
        self.ledger = sim.ledger
        sim.clock.freeze()

    def __getattr__(self, name: str):
        if name in LEDGER_QUERIES and hasattr(CoreBackend, name):
            return getattr(CoreBackend, name).__get__(self)
        raise AttributeError(name)

    # -- the window's events ---------------------------------------------------------------------

    def _send(self, kind: int, **attributes) -> None:
        pygame.event.post(pygame.event.Event(kind, **attributes))
        self.sim.frame(show=False)

    def advance(self, seconds: float) -> None:
        """Let ``seconds`` of simulated time pass, a frame each 100 ms tick."""
        self._advance(seconds)

    def _advance(self, seconds: float) -> None:
        left = seconds
        while left > 1e-9:
            step = min(TICK_SECONDS, left)
            self.sim.clock.advance(step)
            self.sim.frame(show=False)
            left -= step

    def click_down(self, pos: tuple[int, int]) -> None:
        self._send(pygame.MOUSEBUTTONDOWN, pos=pos, button=1)

    def click_up(self, pos: tuple[int, int]) -> None:
        self._send(pygame.MOUSEBUTTONUP, pos=pos, button=1)

    def move_to(self, pos: tuple[int, int], *, held: bool = True) -> None:
        """Move the mouse to ``pos`` (with the left button down when ``held``)."""
        self._send(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(1 if held else 0, 0, 0))

    def drag(self, start: tuple[int, int], end: tuple[int, int]) -> None:
        """Press on ``start``, move to ``end`` and let go there."""
        self.click_down(start)
        self.move_to(end)
        self.click_up(end)

    def key_down(self, key: int, *, shift: bool = False, ctrl: bool = False) -> None:
        """A keyboard key (a pygame ``K_`` code) goes down."""
        mod = (pygame.KMOD_LSHIFT if shift else 0) | (pygame.KMOD_LCTRL if ctrl else 0)
        self._send(pygame.KEYDOWN, key=key, mod=mod, unicode="", scancode=0)

    def key_up(self, key: int) -> None:
        self._send(pygame.KEYUP, key=key, mod=pygame.KMOD_NONE, unicode="", scancode=0)

    def keystroke(self, key: int, *, shift: bool = False, seconds: float = PRESS_SECONDS) -> None:
        """Type keyboard key ``key``, held down ``seconds``."""
        self.key_down(key, shift=shift)
        self._advance(seconds)
        self.key_up(key)

    def hotkey(self, number: int, shift: bool) -> None:
        """F<number> (Shift: onto the ``-`` reader): toggle the tray's card ``number`` on a reader."""
        self.keystroke(next(k for k, n in HOTKEYS.items() if n == number), shift=shift)

    # -- the Backend protocol of banker.script ---------------------------------------------------

    def uid_of(self, name: str) -> str:
        card = self.sim.ledger.card_by_name(name)
        if card is not None:
            return card.uid
        if name.casefold() == BLANK_CARD_NAME:
            return next(t.uid for t in self.sim.tiles() if t.blank)
        tags = self.ledger.deed_tags() if hasattr(self.ledger, "deed_tags") else {}
        return next((uid for uid, slug in tags.items() if slug == name.lower()), made_up_uid(name))

    def enrol(self, name: str, uid: str) -> None:
        if self.sim.ledger.card_by_name(name) is None:
            self.sim.ledger.enrol(name, uid)

    def insert(self, reader: str, name: str) -> None:
        self._advance(PRESS_SECONDS)
        uid = self.uid_of(name)
        if self.sim.ledger.card_by_name(name) is None and name.casefold() != BLANK_CARD_NAME:
            self.sim.table.add_loose(name, uid)
        elsewhere = self.sim.table.reader_of(uid)
        numbers = {t.uid: n for n, t in enumerate(self.sim.tiles(), start=1)}
        if reader in elsewhere:
            return
        if uid not in numbers:  # more cards than the tray shows: laid down without a tile
            self.sim.post(self.sim.table.place(uid, reader, self.sim.clock()))
            self.sim.frame(show=False)
        elif elsewhere:
            self.hotkey(numbers[uid], shift=reader == "right")
        else:
            self.drag(centre(self.sim.tile_rect(uid)), centre(self.sim.layout.slot(reader)))

    def remove(self, reader: str) -> None:
        self._advance(PRESS_SECONDS)
        uid = self.sim.table.on[reader]
        if uid is not None:
            x, y, w, h = self.sim.layout.tray
            self.drag(centre(self.sim.tile_rect(uid, reader)), (x + w // 2, y + 4 * self.sim.layout.scale))

    def press(self, key: str) -> None:
        self.hold(key, PRESS_SECONDS)

    def hold(self, key: str, seconds: float) -> None:
        self._advance(PRESS_SECONDS)
        where = centre(self.sim.layout.key(key))
        self.click_down(where)
        self._advance(seconds)
        self.click_up(where)

    def wait(self, seconds: float) -> None:
        self._advance(seconds)

    def balance(self, name: str) -> int | None:
        card = self.sim.ledger.card_by_name(name)
        return None if card is None else self.sim.ledger.balance(card.id)

    def screen_lines(self) -> list[str]:
        return list(self.sim.shell.screen.lines)


def open_window_backend(ledger, *, scale: int = 3) -> WindowBackend:
    """A window backend over ``ledger``: the simulator's window, silent (SDL's dummy drivers off a display)."""
    import os

    from firmware_sim.desktop import DesktopSim

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    return WindowBackend(DesktopSim(ledger, scale=scale, sound=False))
