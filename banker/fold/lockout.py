"""How long wrong banker's PINs lock PIN entry, from the wrong tries the journal holds (:class:`~banker.journal.records.PinFailure`).

Wrong tries are journal records stamped with the wall clock, so the count
holds on every path (keypad, CLI, keypad scripts, the serial port) and in
every process, and neither a restart nor a script's simulated ``wait``
lifts it. The rule: of the wrong tries in the last :data:`WINDOW` seconds,
the :data:`MAX_TRIES`-th locks PIN entry for :data:`LOCKOUT_SECONDS` after
it, and each further one doubles that, up to :data:`LONGEST`. A right PIN
does not wipe the count: only time does.

The clock can be wrong (a Raspberry Pi has no real-time clock: it may run
ahead until the network corrects it). So:

- a wrong try stamped in the future (after ``now``, or after a later try in
  the journal) counts as made *now*: turning the clock back never forgives
  it, and the next wrong try locks for longer;
- a lock runs only from a wrong try stamped at or before ``now``: a lock that
  started on a clock since turned back has no knowable end, and holding it
  until the clock caught up again is how PIN entry once stayed locked for
  three years. So no lock ever lasts longer than :data:`LONGEST`, whatever
  the clock does.
"""

from __future__ import annotations

#: Wrong PINs within the window before PIN entry stops for a while.
MAX_TRIES = 3
#: The first lockout, in seconds; each further wrong try doubles it.
LOCKOUT_SECONDS = 30.0
#: The longest lockout, in seconds: no lock outlasts it, whatever the clock does.
LONGEST = 3600.0
#: Wrong tries older than this (seconds before the newest) no longer count.
WINDOW = 3600.0
#: How many recent wrong tries the game keeps (enough to reach the longest lockout).
KEPT = 16


def recent(failures: tuple[float, ...], at: float) -> tuple[float, ...]:
    """The wrong tries' times that still count after one at ``at`` (kept in the game).

    A try stamped after ``at`` was made before it (the journal is in order):
    its clock ran ahead, and it counts as made at ``at``.
    """
    return tuple(min(t, at) for t in failures + (at,) if at - t < WINDOW)[-KEPT:]


def lock_seconds(tries: int) -> float:
    """How long the ``tries``-th wrong try in the window locks PIN entry (0.0: not at all)."""
    if tries < MAX_TRIES:
        return 0.0
    return min(LONGEST, LOCKOUT_SECONDS * 2 ** min(tries - MAX_TRIES, 32))


def seconds_locked(failures: tuple[float, ...], now: float) -> int:
    """Whole seconds (rounded up) until PIN entry opens again at wall-clock ``now``; 0 when open.

    Never more than :data:`LONGEST`: tries stamped after ``now`` count as
    made now, but only a try stamped at or before ``now`` starts a lock.
    """
    counted = [t for t in failures if now - t < WINDOW]  # one stamped in the future counts as now
    past = [t for t in counted if t <= now]
    if not past:
        return 0
    left = max(past) + lock_seconds(len(counted)) - now  # at most LONGEST: max(past) <= now
    return min(int(left) + 1, int(LONGEST)) if left > 0 else 0
