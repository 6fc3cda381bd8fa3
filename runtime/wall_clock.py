"""Whether the system's wall clock is known to be right: the kernel's own flag, set while network time keeps it.

A Raspberry Pi has no clock chip: after a boot without network its clock
is wherever ``fake-hwclock`` left it. The kernel knows whether a time
daemon (systemd-timesyncd, chrony, ntpd) has synchronised the clock:
``adjtimex(2)`` with no change asked returns ``TIME_ERROR`` (5) while it
is not. The unit only offers to end a time-limit game at an hour when the
clock is synchronised (:attr:`banker.unit.events.KeyDown.day`); a duration
needs no wall clock at all (:mod:`banker.unit.play_clock`).
"""

from __future__ import annotations

import ctypes
import functools
import sys
import time

#: adjtimex's state when the clock is not synchronised.
TIME_ERROR = 5
#: Bytes of a ``struct timex`` (208 on 64-bit Linux), with room to spare.
_TIMEX_BYTES = 512


@functools.cache
def _adjtimex():
    if not sys.platform.startswith("linux"):
        return None
    try:
        return ctypes.CDLL(None).adjtimex  # libc, already loaded: nothing opened or run to find it
    except (OSError, AttributeError):
        return None


def clock_synced() -> bool:
    """True while the kernel says the wall clock is synchronised to network time (False when it can't say)."""
    call = _adjtimex()
    if call is None:
        return False
    buffer = ctypes.create_string_buffer(_TIMEX_BYTES)  # modes = 0: only read the state
    state = call(buffer)
    return 0 <= state != TIME_ERROR


def time_of_day() -> float | None:
    """The local time of day in seconds since midnight while the clock is synchronised; None while it isn't."""
    if not clock_synced():
        return None
    now = time.localtime()
    return float(now.tm_hour * 3600 + now.tm_min * 60 + now.tm_sec)
