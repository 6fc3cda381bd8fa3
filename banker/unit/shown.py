"""What the unit shows: the screen of a panel over a game (what the shell draws), and the table page's live view.

Both are pure functions of the panel and the game: :func:`screen` is what
``render`` turns into the OLED's pixels (the step's voice reads a refusal's
screen out, and the shell then draws that one), :func:`live` what the table
page shows of a flow that runs on time.
"""

from __future__ import annotations


from banker.frozen import replace
from banker.fold.game import Game
from banker.text.i18n import ENGLISH, Tr, localized
from banker.unit import views
from banker.unit.flows.home import HOME
from banker.unit.modes.base import Ctx, Mode
from banker.unit.panel import NEW_GAME_HOLD, Panel
from banker.unit.screen import Screen


def screen(panel: Panel, game: Game, tr: Tr = ENGLISH) -> Screen:
    """What the display shows for ``panel`` over ``game``, in the language of ``tr`` (the catalog of
    ``game.language``, which the runtime loads: :mod:`banker.text.i18n`); pure."""
    if panel.asleep:
        return views.ASLEEP
    if panel.faults:
        shown = views.reader_fault(*panel.faults[0])
    elif holding_c(panel):
        shown = views.holding_c((panel.now - panel.c_down_at) / NEW_GAME_HOLD)
    else:
        shown = panel.message or active_mode(panel).screen(Ctx(panel, game))
    return replace(shown, lines=localized(shown.lines, tr), left=panel.left is not None, right=panel.right is not None,
                   volume=game.volume)


def active_mode(panel: Panel) -> Mode:
    """The mode that owns the keys: the one open, else the home screen."""
    return panel.mode if panel.mode is not None else HOME


def live(panel: Panel, game: Game) -> dict | None:
    """The active flow's live view for the table page (a mode with ``live(ctx)``: a timed auction), else None."""
    view = getattr(panel.mode, "live", None)
    return None if view is None or panel.asleep else view(Ctx(panel, game))


#: Seconds ``C`` is held before the new-game bar shows (a quick ``C`` only clears).
HOLD_CUE_AFTER = 0.3


def holding_c(panel: Panel) -> bool:
    """Whether the hold of ``C`` that starts a new game is under way and long enough to show."""
    return (panel.c_down_at is not None and not panel.c_hold_done and not panel.cards_down
            and panel.now - panel.c_down_at >= HOLD_CUE_AFTER)
