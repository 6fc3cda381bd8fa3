"""The time-limit game's clock: play time counted from the events' own monotonic times, journalled each minute.

A Raspberry Pi has no clock chip: its wall clock may be hours wrong until
the network sets it, and jumps when it does. So a time-limit game never
reads it: each event brings the monotonic time ``t``, and the panel keeps
where this process started counting (:attr:`banker.unit.panel.Panel.clock`:
the game, the play time journalled then, the ``t`` then). On a tick,
:func:`clock_tick` gives the :class:`~banker.journal.records.PlayClock` record
to write at each new whole minute of play, at each warning, and at the
end; the fold (:func:`banker.fold.house_rules.play_clock`) ends the game there.
A restart counts on from the last record (losing at most a minute); time
with the unit off is not play.
"""

from __future__ import annotations

from dataclasses import dataclass

from banker.frozen import replace
from banker.fold.game import Game
from banker.text.i18n import _
from banker.unit.panel import Panel
from banker.journal.records import PlayClock

#: Seconds of play between two play-clock records.
EVERY = 60.0
#: Seconds left at which the buzzer warns (each once, when the game is longer than that).
WARNINGS = (300.0, 60.0)
#: Seconds in a day: an hour to end at is at most this far ahead.
DAY = 24 * 3600


@dataclass(frozen=True)
class ClockTick:
    """What a tick of a time-limit game asks for: the panel counting on, at most one record, and whether it is a
    warning (``warned``: the seconds left it crossed) or the end."""

    panel: Panel
    record: PlayClock | None = None
    warned: float | None = None
    ended: bool = False


def played_now(panel: Panel, game: Game, t: float) -> tuple[Panel, float]:
    """The seconds ``game`` has been played at ``t``, and the panel that counts it (started now if it wasn't)."""
    base = panel.clock
    if base is None or base[0] != game.id or base[1] + (t - base[2]) < game.played:
        panel = replace(panel, clock=(game.id, game.played, t))  # a restart, another game, or the journal ahead
        return panel, game.played
    return panel, base[1] + max(0.0, t - base[2])


def clock_tick(panel: Panel, game: Game, t: float) -> ClockTick:
    """The play clock at ``t`` for a time-limit game still running: the record due, if any."""
    limit = game.settings.time_limit
    panel, now = played_now(panel, game, t)
    now = min(now, float(limit))
    left_then, left_now = limit - game.played, limit - now
    warned = next((w for w in WARNINGS if left_now <= w < left_then and limit > w), None)
    ended = now >= limit
    if not ended and warned is None and int(now // EVERY) == int(game.played // EVERY):
        return ClockTick(panel)
    return ClockTick(panel, PlayClock(game.id, now), None if ended else warned, ended)


def seconds_until(hour: int, minute: int, day: float) -> int:
    """The seconds from ``day`` (the time of day: seconds since midnight) to ``hour:minute``, today or tomorrow
    (tomorrow when it is past, or now): a game ending at an hour (``21.30 K`` on the keypad, ``--end-at 21:30``).

    >>> seconds_until(21, 30, 20 * 3600 + 15 * 60), seconds_until(1, 0, 23 * 3600)
    (4500, 7200)
    """
    seconds = int(hour * 3600 + minute * 60 - day)
    return seconds if seconds > 0 else seconds + DAY


def time_left_line(seconds: float | None, time_up: bool, *, left: bool = True) -> str | None:
    """The idle screen's line for a time-limit game: ``42 min left``, ``1h 25m left`` (``left=False``: ``42 min``,
    ``1h 25m``); None without a limit."""
    if time_up:
        return _("Time is up")
    if seconds is None:
        return None
    minutes = -(-int(seconds) // 60)
    if minutes >= 60:
        hours, mins = minutes // 60, f"{minutes % 60:02d}"
        return _("{hours}h {minutes}m left", hours=hours, minutes=mins) if left else _("{hours}h {minutes}m", hours=hours,
                                                                                         minutes=mins)
    return _("{minutes} min left", minutes=minutes) if left else _("{minutes} min", minutes=minutes)
