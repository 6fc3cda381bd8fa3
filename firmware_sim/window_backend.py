"""The keypad-script backend of the desktop simulator: each step becomes the window's own mouse events.

A press is a click on the key (down, 50 ms, up), a hold keeps the mouse
button down, ``insert`` drags the card's tile from the tray onto the slot
(or, for a card that already lies on the other reader, types its hotkey),
``remove`` drags it back to the tray, and ``wait`` advances the window's
frozen clock in 100 ms ticks. So a script exercises the same code paths as a
player at the window, in simulated time.

A script's card named ``new-card`` that nobody enrolled is the window's blank
"New card" tile (any other unknown name gets a grey tile of its own).

Given a ``speed``, the script plays at a pace a person can follow
(``banker sim --script FILE --speed 1``): each frame is shown, simulated time
passes ``speed`` times as fast as real time (a long ``wait`` or ``hold`` is
shortened to :data:`LONGEST_PAUSE` real seconds), a card glides to its slot,
and after each key and each card the window pauses (:data:`KEY_PAUSE`,
:data:`CARD_PAUSE`) with the clock stopped, so the script's timings, and so
its outcome, are the same at every speed. Closing the window stops the script
(:class:`WindowClosed`).
"""

from __future__ import annotations

from firmware_sim.desktop.window import FPS, HOTKEYS, TICK_SECONDS, DesktopSim  # first: says how to install pygame

import time  # noqa: E402
from collections.abc import Callable  # noqa: E402

import pygame  # noqa: E402

from banker.errors import BankerError  # noqa: E402

from firmware_sim.desktop.layout import centre  # noqa: E402
from banker.script.driver import ScriptDriver  # noqa: E402

PRESS_SECONDS = 0.05
BLANK_CARD_NAME = "new-card"
#: Real seconds (at speed 1) the window pauses after a key, and after a card is laid down or taken away.
KEY_PAUSE = 0.25
CARD_PAUSE = 0.6
#: Real seconds (at speed 1) a card takes to glide onto its slot.
DRAG_SECONDS = 0.3
#: The longest a ``wait`` or ``hold`` takes in real seconds (at speed 1), however long it is in the script.
LONGEST_PAUSE = 3.0


class WindowClosed(BankerError):
    """The window was closed while a script played in it."""


class WindowHands:
    """The window backend's hands: the window's own mouse and keyboard events on ``sim``, whose clock it freezes and steps.

    ``speed`` (None: as fast as it goes, nothing shown) plays it watchably;
    ``sleep`` waits real seconds (a test gives its own).
    """

    def __init__(self, sim: DesktopSim, *, speed: float | None = None,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        if speed is not None and speed <= 0:
            raise ValueError(f"speed must be positive, not {speed}")
        self.sim = sim
        self.speed = speed
        self.sleep = sleep
        sim.clock.freeze()

    @property
    def watched(self) -> bool:
        """Whether the script plays at a watchable pace (every frame shown)."""
        return self.speed is not None

    def _show(self) -> None:
        """One frame, drawn when watched; watched, :class:`WindowClosed` once the window has been closed."""
        self.sim.frame(show=self.watched)
        if self.watched and not self.sim.running:
            raise WindowClosed("the window was closed")

    def pause(self, seconds: float) -> None:
        """Watched: keep showing the window for ``seconds`` / speed real seconds, the unit's clock stopped."""
        if not self.watched:
            return
        left = seconds / self.speed
        while left > 1e-9:
            step = min(left, 1 / FPS)
            self.sleep(step)
            self._show()
            left -= step

    # -- the window's events ---------------------------------------------------------------------

    def _send(self, kind: int, **attributes) -> None:
        pygame.event.post(pygame.event.Event(kind, **attributes))
        self._show()

    def advance(self, seconds: float) -> None:
        """Let ``seconds`` of simulated time pass, a frame each 100 ms tick."""
        self._advance(seconds)

    def _advance(self, seconds: float) -> None:
        left = seconds
        real = min(seconds, LONGEST_PAUSE) / seconds if self.watched and seconds > 0 else 0.0
        while left > 1e-9:
            step = min(TICK_SECONDS, left)
            self.sim.clock.advance(step)
            if self.watched:
                self.sleep(step * real / self.speed)
            self._show()
            left -= step

    def click_down(self, pos: tuple[int, int]) -> None:
        self._send(pygame.MOUSEBUTTONDOWN, pos=pos, button=1)

    def click_up(self, pos: tuple[int, int]) -> None:
        self._send(pygame.MOUSEBUTTONUP, pos=pos, button=1)

    def move_to(self, pos: tuple[int, int], *, held: bool = True) -> None:
        """Move the mouse to ``pos`` (with the left button down when ``held``)."""
        self._send(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(1 if held else 0, 0, 0))

    def drag(self, start: tuple[int, int], end: tuple[int, int]) -> None:
        """Press on ``start``, move to ``end`` (gliding, when watched) and let go there."""
        self.click_down(start)
        if self.watched:
            steps = max(1, round(DRAG_SECONDS * FPS))
            for n in range(1, steps):
                self.move_to((start[0] + (end[0] - start[0]) * n // steps, start[1] + (end[1] - start[1]) * n // steps))
                self.sleep(DRAG_SECONDS / steps / self.speed)
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

    def hotkey(self, number: int, shift: bool, *, alt: bool = False) -> None:
        """F<number> (Shift: onto the ``-`` reader; Alt: on top of the card there): toggle the tray's card ``number``."""
        key = next(k for k, n in HOTKEYS.items() if n == number)
        mod = (pygame.KMOD_LSHIFT if shift else 0) | (pygame.KMOD_LALT if alt else 0)
        self._send(pygame.KEYDOWN, key=key, mod=mod, unicode="", scancode=0)
        self._advance(PRESS_SECONDS)
        self.key_up(key)

    # -- the hands of the script driver (banker.script.hands.Hands) ------------------------------------------------------

    def blank_uid(self, name: str) -> str | None:
        """The blank "New card" tile's UID for a script's ``new-card`` that nobody enrolled; else None."""
        if name.casefold() == BLANK_CARD_NAME:
            return next(t.uid for t in self.sim.tiles() if t.blank)
        return None

    def _loose(self, name: str, uid: str) -> None:
        """A card nobody enrolled gets a grey tile of its own, labelled with the script's name for it."""
        if self.sim.ledger.game().card_by_uid(uid) is None and name.casefold() != BLANK_CARD_NAME:
            self.sim.table.add_loose(name, uid)

    def insert(self, reader: str, uid: str, name: str = "") -> None:
        self._advance(PRESS_SECONDS)
        self._loose(name or uid, uid)
        elsewhere = self.sim.table.reader_of(uid)
        numbers = {t.uid: n for n, t in enumerate(self.sim.tiles(), start=1)}
        if reader in elsewhere:
            return
        if uid not in numbers:  # more cards than the tray shows: laid down without a tile
            self.sim.post(self.sim.table.place(uid, reader, self.sim.clock()))
            self._show()
        elif elsewhere:
            self.hotkey(numbers[uid], shift=reader == "right")
        else:
            self.drag(centre(self.sim.tile_rect(uid)), centre(self.sim.layout.slot(reader)))
        self.pause(CARD_PAUSE)

    def stack(self, reader: str, uid: str, name: str = "") -> None:
        """Lay card ``uid`` on top of the one on ``reader`` (Alt and its F key; one without a tile, by hand)."""
        if self.sim.table.on[reader] is None:
            return self.insert(reader, uid, name)
        self._advance(PRESS_SECONDS)
        self._loose(name or uid, uid)
        if reader in self.sim.table.reader_of(uid):
            raise BankerError(f"card {name or uid} already lies on the {reader} reader: a card can't be stacked on itself")
        numbers = {t.uid: n for n, t in enumerate(self.sim.tiles(), start=1)}
        if uid in numbers and numbers[uid] <= len(HOTKEYS):
            self.hotkey(numbers[uid], shift=reader == "right", alt=True)
        else:
            self.sim.post(self.sim.table.stack(uid, reader, self.sim.clock()))
            self._show()
        self.pause(CARD_PAUSE)

    def remove(self, reader: str) -> None:
        self._advance(PRESS_SECONDS)
        uid = self.sim.table.on[reader]
        if self.sim.table.stacked[reader]:  # a hand sweeps every card off at once
            self.sim.post(self.sim.table.take(reader, self.sim.clock()))
            self._show()
            self.pause(CARD_PAUSE)
        elif uid is not None:
            x, y, w, h = self.sim.layout.tray
            self.drag(centre(self.sim.tile_rect(uid, reader)), (x + w // 2, y + 4 * self.sim.layout.scale))
            self.pause(CARD_PAUSE)

    def hold(self, key: str, seconds: float) -> None:
        self._advance(PRESS_SECONDS)
        where = centre(self.sim.layout.key(key))
        self.click_down(where)
        self._advance(seconds)
        self.click_up(where)
        self.pause(KEY_PAUSE)

    def wait(self, seconds: float) -> None:
        self._advance(seconds)


class WindowBackend(ScriptDriver):
    """The ``window`` keypad-script backend: the script driver with :class:`WindowHands` on ``sim``.

    ``speed``, ``sleep``: as on the hands (whose ``drag``, ``hotkey``,
    ``keystroke`` ... it answers for too); ``pin``: the banker's PIN for
    ``enrol`` and ``enrol-deed``; ``wrap`` (a spy) wraps the window's shell.
    """

    def __init__(self, sim: DesktopSim, *, speed: float | None = None, sleep: Callable[[float], None] = time.sleep,
                 pin: str | None = None, wrap=None) -> None:
        hands = WindowHands(sim, speed=speed, sleep=sleep)
        if wrap is not None:
            sim.shell = wrap(sim.shell)  # the window steps its shell through the wrapper from now on
        super().__init__(sim.shell, hands, pin=pin, unknown_uid=hands.blank_uid)


def open_window_backend(ledger, *, scale: int = 3, speed: float | None = None, pin: str | None = None,
                        wrap=None, language: str | None = None) -> WindowBackend:
    """A window backend over ``ledger``: the simulator's window, silent (SDL's dummy drivers off a display);
    ``language``: the config's ``[unit] language``."""
    import os

    from firmware_sim.desktop import DesktopSim

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    return WindowBackend(DesktopSim(ledger, scale=scale, sound=False, language=language), speed=speed, pin=pin,
                         wrap=wrap)
