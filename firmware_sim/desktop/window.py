"""The simulator's window: pygame input becomes the unit's events, the Shell runs in the window's loop.

One thread (the one that calls :meth:`DesktopSim.frame` or :meth:`DesktopSim.run`)
owns the unit: each frame turns the window's mouse and keyboard events into
key and card events, posts a :class:`~banker.unit.events.Tick` every 100 ms,
pumps the :class:`~drivers.shell.Shell`, and draws: the unit's words in the
game's language (its ``FN 8`` choice, else the config's ``[unit] language``),
as the unit's own screen, and a new choice from the frame it is made in.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # noqa: E402

from banker.errors import BankerError  # noqa: E402
from banker.unit.events import KEYS, READERS, Event, KeyDown, KeyUp, Tick  # noqa: E402
from banker.text.i18n import Tr  # noqa: E402
from banker.unit.screen import Screen  # noqa: E402
from render import DIGITS  # noqa: E402
from runtime.shell import Shell  # noqa: E402

from . import draw  # noqa: E402
from .cards import CardTable, Tile  # noqa: E402
from .layout import DEFAULT_SCALE, MAX_TILES, Layout, Rect, fit_scale, inside  # noqa: E402
from .panel import PanelSource  # noqa: E402
from .sound import ToneBuzzer, desktop_voice  # noqa: E402
from .words import pgettext, say, words_of  # noqa: E402

TICK_SECONDS = 0.1
#: The window's title.
CAPTION = pgettext("sim", "Monopoly Banker: simulator")
#: What the window says when the script it plays has ended and the person at it plays on.
SCRIPT_STOPPED = pgettext("sim", "Script stopped at line {line}: play on")
SCRIPT_FINISHED = pgettext("sim", "Script finished: play on")
FPS = 30
HEADLESS_DRIVERS = ("dummy", "offscreen")
#: Keyboard keys of the unit (besides the digits): hold one to hold the key.
KEYBOARD = {
    pygame.K_PERIOD: ".", pygame.K_KP_PERIOD: ".", pygame.K_COMMA: ".",
    pygame.K_m: "M", pygame.K_k: "K", pygame.K_c: "C", pygame.K_BACKSPACE: "C",
    pygame.K_g: "GO", pygame.K_RIGHT: "GO", pygame.K_f: "FN",
    **{getattr(pygame, f"K_{n}"): str(n) for n in range(10)},
    **{getattr(pygame, f"K_KP{n}"): str(n) for n in range(10)},
}
HOTKEYS = {getattr(pygame, f"K_F{n}"): n for n in range(1, 13)}


class NoDisplay(BankerError, RuntimeError):
    """There is no screen to open the simulator's window on."""


def display_problem(environ=os.environ, platform: str = sys.platform) -> str | None:
    """Why no window can be opened here (Linux with neither X nor Wayland), or None."""
    driver = environ.get("SDL_VIDEODRIVER", "")
    if driver or not platform.startswith("linux"):
        return None
    if environ.get("DISPLAY") or environ.get("WAYLAND_DISPLAY"):
        return None
    return ("no display for the simulator's window (DISPLAY and WAYLAND_DISPLAY are not set): "
            "run it on a desktop, or headless with --screenshot PNG (and --script FILE)")


def _desktop_size() -> tuple[int, int] | None:
    """The size of the first desktop, where SDL tells it."""
    try:
        sizes = pygame.display.get_desktop_sizes()
    except (pygame.error, AttributeError):
        return None
    return tuple(sizes[0]) if sizes else None  # type: ignore[return-value]


class SimClock:
    """The window's time in seconds: the real monotonic clock, or frozen and stepped by a script."""

    def __init__(self, real: Callable[[], float] = time.monotonic) -> None:
        self._real = real
        self._offset = 0.0
        self._frozen: float | None = None

    def __call__(self) -> float:
        return self._frozen if self._frozen is not None else self._real() + self._offset

    def freeze(self) -> None:
        self._frozen = self()

    def advance(self, seconds: float) -> None:
        if self._frozen is None:
            raise RuntimeError("only a frozen clock can be advanced")
        self._frozen += seconds

    def thaw(self) -> None:
        """Run on in real time from where the frozen clock stands."""
        if self._frozen is not None:
            self._offset = self._frozen - self._real()
            self._frozen = None


class OledView:
    """The Display port of the window: keeps the frame the Shell last sent, dark while powered off."""

    def __init__(self, scale: int, digits: str = "normal") -> None:
        self.scale = scale
        self.digits = digits
        self.screen: Screen | None = None
        self.on = True
        self.dark = draw.oled_surface(None, scale)
        self.frame = self.dark

    def show(self, screen: Screen) -> None:
        self.screen = screen
        self.frame = draw.oled_surface(screen, self.scale, digits=self.digits)

    def power(self, on: bool) -> None:
        self.on = on

    def surface(self) -> pygame.Surface:
        return self.frame if self.on else self.dark


class DesktopSim:
    """The unit in a window over ``ledger``: click or type the keys, drag the cards, hear the tones.

    ``clock`` gives event times (a :class:`SimClock`; a script freezes it);
    ``sound=False`` keeps the buzzer silent; ``scale=None`` picks the largest
    scale up to the default whose window fits the desktop; ``digits`` is the
    config's ``[display] digits`` (``"large"``: balances as tall as fit); ``auction_seconds`` its
    ``[auction] seconds`` (None: the default). Raises
    :class:`NoDisplay` where no window can be opened. Use it as a context
    manager, or call :meth:`close`.

    >>> sim = DesktopSim(ledger)            # doctest: +SKIP
    >>> sim.run()                           # until the window is closed
    """

    def __init__(self, ledger, *, scale: int | None = DEFAULT_SCALE, clock: SimClock | None = None,
                 sound: bool = True, digits: str = "normal", auction_seconds: float | None = None,
                 voice=None, language: str | None = None) -> None:
        if digits not in DIGITS:
            raise ValueError(f"digits must be one of {', '.join(DIGITS)}, not {digits!r}")
        problem = display_problem()
        if problem:
            raise NoDisplay(problem)
        try:
            pygame.display.init()
            pygame.font.init()
            driver = pygame.display.get_driver()
            if driver in HEADLESS_DRIVERS and os.environ.get("SDL_VIDEODRIVER", "") not in HEADLESS_DRIVERS:
                raise NoDisplay(f"no display for the simulator's window (SDL found only its {driver!r} driver)")
            if scale is None:
                scale = DEFAULT_SCALE if driver in HEADLESS_DRIVERS else fit_scale(_desktop_size())
            self.layout = Layout(scale)
            self.surface = pygame.display.set_mode(self.layout.size)
        except pygame.error as exc:
            pygame.display.quit()
            raise NoDisplay(f"cannot open the simulator's window: {exc}") from None
        self.ledger = ledger
        self.clock = clock or SimClock()
        self.oled = OledView(self.layout.scale, digits)
        self.buzzer = ToneBuzzer(audible=sound)
        timing = {} if auction_seconds is None else {"auction_seconds": auction_seconds}  # the config's [auction]
        timing["language"] = language  # the config's [unit] language
        self.voice = desktop_voice(self.buzzer, voice)  # the config's [voice], through the desktop's audio
        self.shell = Shell(ledger, display=self.oled, buzzer=self.buzzer, clock=self.clock, now=self.clock(),
                           voice=self.voice, **timing)
        self.table = CardTable()
        self.panel_source = PanelSource(ledger)
        self.painter = draw.Painter(self.surface, self.layout)
        self.pressed: dict[str, str] = {}  # unit key -> what holds it down ("mouse" or a keyboard key)
        self.drag: dict | None = None  # the tile being dragged: uid, origin, grab offset, position
        self.running = True
        self.note: tuple | None = None  # a line for the person at the window (a script has ended): (text, fields)
        self.caption = ""  # the title bar as last set
        self._title()
        self.draws = 0  # frames actually drawn (an idle frame draws nothing)
        self._drawn: tuple | None = None  # the scene last drawn
        self._last_state: tuple = (None, object())
        self._next_tick = self.clock() + TICK_SECONDS

    # -- the loop ----------------------------------------------------------------------------

    def run(self) -> None:
        """Play until the window is closed (or Ctrl+Q)."""
        timer = pygame.time.Clock()
        while self.running:
            self.frame()
            timer.tick(FPS)

    def frame(self, *, show: bool = True) -> None:
        """One turn of the loop: window events in, a tick when due, the unit stepped, and (``show``) a redraw.

        The window is drawn again only when something it shows changed (or a window event came): an idle
        frame costs next to nothing.
        """
        events = pygame.event.get()
        for event in events:
            self.handle(event)
        now = self.clock()
        if now >= self._next_tick - 1e-9:
            self.shell.post(Tick(now))
            self._next_tick = max(self._next_tick + TICK_SECONDS, now)
        self.shell.pump()
        if show:
            scene = self._scene()
            if events or self._drawn is None or any(a is not b for a, b in zip(scene, self._drawn)):
                self.draw()
                pygame.display.flip()
                self.draws += 1
                self._drawn = scene

    def _scene(self) -> tuple:
        """What the window shows, as objects compared by identity: a new one of any means a redraw."""
        return (self.oled.surface(), self.ledger.game(), self.panel_source.text(self.table.on, self.words()),
                self._state_key(), self.note)

    def words(self) -> Tr:
        """The catalog of the window's words: the game's language, as the unit's screen is drawn in."""
        return words_of(self.ledger.game(), self.shell.language)

    def tell(self, message: str | None, **fields: object) -> None:
        """Say the ``sim`` text ``message`` (None: nothing) to the person at the window, over the tray and in the
        title bar, in the game's language (so in a new one when the language changes)."""
        self.note = None if message is None else (message, tuple(sorted(fields.items())))
        self._title()

    def _note(self) -> str | None:
        """The note in the game's language, or None."""
        return None if self.note is None else say(self.words(), self.note[0], **dict(self.note[1]))

    def _title(self) -> None:
        """The title bar in the game's language (and the note, if any), set only when it changes."""
        title = say(self.words(), CAPTION)
        note = self._note()
        caption = f"{title}: {note}" if note else title
        if caption != self.caption:
            pygame.display.set_caption(caption)
            self.caption = caption

    def _state_key(self) -> object:
        """The window's own state (keys held, cards laid, a drag), one object per distinct state."""
        drag = None if self.drag is None else (self.drag["uid"], self.drag["origin"], tuple(self.drag["pos"]))
        stacked = tuple(tuple(cards) for cards in self.table.stacked.values())
        key = (tuple(sorted(self.pressed)), tuple(self.table.on.values()), stacked, len(self.table.loose), drag)
        if key != self._last_state[0]:
            self._last_state = (key, object())
        return self._last_state[1]

    def post(self, events: list[Event]) -> None:
        for event in events:
            self.shell.post(event)

    # -- input -------------------------------------------------------------------------------

    def handle(self, event: pygame.event.Event) -> None:
        """Turn one pygame event into the unit's events (or a drag, or quitting)."""
        t = self.clock()
        if event.type == pygame.QUIT:
            self.running = False
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self._mouse_down(event.pos, t)
        elif event.type == pygame.MOUSEMOTION and self.drag is not None:
            self.drag["pos"] = event.pos
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            self._mouse_up(event.pos, t)
        elif event.type == pygame.KEYDOWN:
            self._keyboard_down(event, t)
        elif event.type == pygame.KEYUP:
            self._keyboard_up(event, t)

    def _press(self, key: str, by: str, t: float) -> None:
        if key not in self.pressed:
            self.pressed[key] = by
            self.shell.post(KeyDown(key, t))

    def _release(self, key: str, by: str, t: float) -> None:
        if self.pressed.get(key) == by:
            del self.pressed[key]
            self.shell.post(KeyUp(key, t))

    def _mouse_down(self, pos: tuple[int, int], t: float) -> None:
        key = next((k for k in KEYS if inside(self.layout.key(k), pos)), None)
        if key is not None:
            self._press(key, "mouse", t)
            return
        for uid, origin, rect in reversed(self.placed_tiles()):
            if inside(rect, pos):
                self.drag = {"uid": uid, "origin": origin, "grab": (pos[0] - rect[0], pos[1] - rect[1]), "pos": pos}
                return

    def _mouse_up(self, pos: tuple[int, int], t: float) -> None:
        for key in list(self.pressed):
            self._release(key, "mouse", t)
        if self.drag is not None:
            target = next((r for r in READERS if inside(self.layout.slot(r), pos)), None)
            on_top = bool(pygame.key.get_mods() & pygame.KMOD_CTRL)  # Ctrl: onto the card lying there
            self.post(self.table.drop(self.drag["uid"], self.drag["origin"], target, t, on_top=on_top))
            self.drag = None

    def _keyboard_down(self, event: pygame.event.Event, t: float) -> None:
        if event.key == pygame.K_q and event.mod & pygame.KMOD_CTRL:
            self.running = False
        elif event.key in KEYBOARD:
            self._press(KEYBOARD[event.key], f"kb{event.key}", t)
        elif event.key in HOTKEYS:
            tiles = self.tiles()
            number = HOTKEYS[event.key]
            if number <= len(tiles):
                reader = "right" if event.mod & pygame.KMOD_SHIFT else "left"
                on_top = bool(event.mod & pygame.KMOD_ALT)  # Alt: onto the card lying there
                self.post(self.table.toggle(tiles[number - 1].uid, reader, t, on_top=on_top))
        elif event.key == pygame.K_ESCAPE:
            self.drag = None

    def _keyboard_up(self, event: pygame.event.Event, t: float) -> None:
        if event.key in KEYBOARD:
            self._release(KEYBOARD[event.key], f"kb{event.key}", t)

    # -- what is where -------------------------------------------------------------------------

    def tiles(self) -> list[Tile]:
        """The cards on the table in tray order (hotkey F1 is the first)."""
        return self.table.tiles(self.ledger.game().cards)

    def placed_tiles(self) -> list[tuple[str, str | None, Rect]]:
        """Every drawn tile as (uid, where: a reader or None for the tray, rect), bottom to top."""
        placed = []
        for index, tile in enumerate(self.tiles()[:MAX_TILES]):
            if not self.table.reader_of(tile.uid):
                placed.append((tile.uid, None, self.layout.tray_tile(index)))
        for reader in READERS:
            uid = self.table.on[reader]
            if uid is not None:
                placed.append((uid, reader, self.layout.slot_tile(reader)))
            for n, on_top in enumerate(self.table.stacked[reader], start=1):  # askew on the card below
                x, y, w, h = self.layout.slot_tile(reader)
                placed.append((on_top, reader, (x + 5 * n * self.layout.scale, y - 2 * n * self.layout.scale, w, h)))
        return placed

    def tile_rect(self, uid: str, where: str | None = None) -> Rect:
        """Where card ``uid`` is drawn (on reader ``where``, or in the tray)."""
        return next(rect for u, origin, rect in self.placed_tiles() if u == uid and origin == where)

    # -- drawing -------------------------------------------------------------------------------

    def draw(self) -> None:
        p = self.painter
        tr = self.words()
        p.begin(tr)
        self._title()
        p.case(asleep=not self.oled.on)
        p.slots()
        p.oled(self.oled.surface())
        p.keys(set(self.pressed))
        p.tray(self._note())
        tiles = self.tiles()
        numbers = {tile.uid: n for n, tile in enumerate(tiles, start=1)}
        by_uid = {tile.uid: tile for tile in tiles}
        dragged = None
        for uid, origin, rect in self.placed_tiles():
            if self.drag is not None and (uid, origin) == (self.drag["uid"], self.drag["origin"]):
                dragged = (uid, rect)
                continue
            p.tile(by_uid[uid], numbers[uid], rect)
        if dragged is not None:
            uid, rect = dragged
            x, y = self.drag["pos"][0] - self.drag["grab"][0], self.drag["pos"][1] - self.drag["grab"][1]
            p.tile(by_uid[uid], numbers[uid], (x, y, rect[2], rect[3]), lifted=True)
        p.panels(self.panel_source.text(self.table.on, tr))

    def screenshot(self, path=None):
        """The window as a PIL image (drawn fresh); saved as PNG to ``path`` when given."""
        from PIL import Image

        self.draw()
        image = Image.frombytes("RGB", self.surface.get_size(), pygame.image.tobytes(self.surface, "RGB"))
        if path is not None:
            image.save(path)
        return image

    # -- lifetime ------------------------------------------------------------------------------

    def close(self) -> None:
        if self.voice is not None:
            self.voice.close()
        self.buzzer.close()
        pygame.display.quit()

    def __enter__(self) -> DesktopSim:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
