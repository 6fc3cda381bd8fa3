"""How long wrong banker's PINs lock PIN entry, from the wrong tries the journal holds (:class:`~banker.records.PinFailure`).

Wrong tries are journal records stamped with the wall clock, so the count
holds on every path (keypad, CLI, keypad scripts, the serial port) and in
every process, and neither a restart nor a script's simulated ``wait``
lifts it. The rule: of the wrong tries in the last :data:`WINDOW` seconds,
the :data:`MAX_TRIES`-th locks PIN entry for :data:`LOCKOUT_SECONDS` after
it, and each further one doubles that, up to :data:`LONGEST`. A right PIN
does not wipe the count: only time does.
"""

from __future__ import annotations

#: Wrong PINs within the window before PIN entry stops for a while.
MAX_TRIES = 3
#: The first lockout, in seconds; each further wrong try doubles it.
LOCKOUT_SECONDS = 30.0
#: The longest lockout, in seconds.
LONGEST = 3600.0
#: Wrong tries older than this (seconds before the newest) no longer count.
WINDOW = 3600.0
#: How many recent wrong tries the game keeps (enough to reach the longest lockout).
KEPT = 16


def recent(failures: tuple[float, ...], at: float) -> tuple[float, ...]:
    """The wrong tries' times that still count after one at ``at`` (kept in the game)."""
    return tuple(t for t in failures + (at,) if at - t < WINDOW)[-KEPT:]


def locked_until(failures: tuple[float, ...]) -> float:
    """The wall-clock time until which PIN entry is locked (0.0: not locked) after these wrong tries."""
    if len(failures) < MAX_TRIES:
        return 0.0
    return failures[-1] + min(LONGEST, LOCKOUT_SECONDS * 2 ** (len(failures) - MAX_TRIES))


def seconds_locked(failures: tuple[float, ...], now: float) -> int:
    """Whole seconds (rounded up) until PIN entry opens again at wall-clock ``now``; 0 when open."""
    left = locked_until(tuple(t for t in failures if now - t < WINDOW)) - now
    return int(left) + 1 if left > 0 else 0
