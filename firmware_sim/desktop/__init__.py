"""The desktop simulator: the banker unit in a pygame window, over the real ledger.

It looks like the device: the OLED frame exactly as the Pi renders it
(:func:`drivers.render.render_image`, scaled by whole pixels), the 4x4
keypad (click it or type), the ``+`` and ``-`` card slots with the player
cards as tiles to drag (or F1-F12, Shift for ``-``), the buzzer's tones, and
side panels with the ledger's balances and last transactions and the estate
(who owns which deed, its buildings and mortgage).

Why pygame directly and not luma.emulator: luma.emulator's pygame device
shows a luma frame in a window of its own and owns the event loop's
drawing, with nothing around the panel; the simulator needs its own widgets
(keypad, slots, card tiles, ledger panel) laid around the OLED, mouse and
keyboard input, drag and drop, and the mixer for the buzzer. So it draws
the frame that :mod:`drivers.render` produces with luma's dummy device (the
same pixels as the panel) into its own pygame window, and luma.emulator is
not needed at all.

Modules: :mod:`.layout` (geometry, colours, reading the OLED back from a
screenshot), :mod:`.cards` (which card lies where), :mod:`.panel` (the
panels' text), :mod:`.words` (the window's own words in the game's language,
from the unit's catalogs), :mod:`.sound` (the buzzer), :mod:`.draw`,
:mod:`.window` (:class:`DesktopSim`), :mod:`.demo` (the demo game of a fresh
ledger).

pygame is the ``sim`` extra (the device needs no desktop library): without
it, importing this package raises :class:`SimulatorMissing`, which says how
to install it.
"""

import os

from banker.errors import BankerError

#: How to get the simulator's one dependency.
INSTALL_HINT = "pip install 'monopoly-banker[sim]' (in a checkout: .venv/bin/pip install -e '.[sim]')"


class SimulatorMissing(BankerError, ImportError):
    """pygame, which draws the simulator's window and plays its buzzer, is not installed."""


os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
try:
    import pygame  # noqa: F401
except ImportError:
    raise SimulatorMissing(f"the simulator needs pygame, which is not installed: {INSTALL_HINT}") from None

from .demo import DEMO_PLAYERS, seed_demo  # noqa: E402  (only once pygame is known to be there)
from .layout import Layout, oled_frame  # noqa: E402
from .window import DesktopSim, NoDisplay, SimClock, display_problem  # noqa: E402

__all__ = ["DEMO_PLAYERS", "INSTALL_HINT", "SimulatorMissing", "DesktopSim", "Layout", "NoDisplay", "SimClock", "display_problem", "oled_frame", "seed_demo"]
