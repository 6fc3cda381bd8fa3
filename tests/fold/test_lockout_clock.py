"""A PIN lockout is bounded whatever the clock does (a Raspberry Pi has no real-time clock).

Wrong PINs tried while the clock ran years ahead once locked PIN entry for
years after the clock was corrected. Now a wrong try stamped in the future
counts as made now (turning the clock back forgives nothing), but only a try
stamped at or before now starts a lock, and no lock outlasts ``LONGEST``.
"""

import pytest
from click.testing import CliRunner

from banker.fold.authority import Grant, NotAuthorised, hash_pin
from banker.fold.lockout import LONGEST, LOCKOUT_SECONDS, MAX_TRIES, recent, seconds_locked
from banker.journal.records import PinChange, PinFailure
from banker_cli.main import cli
from firmware_sim.memory_store import MemoryStore
from runtime.ledger import Ledger, SqliteLedger
from tests.conftest import Table

YEARS = 94_608_000.0  # three years: the clock ran this far ahead
NOW = 1_800_000_000.0


class Clock:
    """A wall clock a test sets by hand (a Pi's, before and after the network corrects it)."""

    def __init__(self, t: float) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


def test_a_try_stamped_in_the_future_counts_as_now_but_starts_no_lock():
    ahead = (NOW + YEARS, NOW + YEARS + 1, NOW + YEARS + 2)
    assert seconds_locked(ahead, now=NOW) == 0  # the lock they started ran on a clock since turned back
    assert 59 <= seconds_locked(ahead + (NOW,), now=NOW + 1) <= 2 * LOCKOUT_SECONDS  # the 4th try: they count
    assert recent(ahead, NOW) == (NOW,) * 4  # folded after a later try: made no later than it


@pytest.mark.parametrize("stamps, now, locked", [
    (tuple(float(i) for i in range(16)), 100.0, 15 + int(LONGEST) - 100 + 1),   # 16 tries: the longest, from the last
    ((0.0,) * 16, 0.0, int(LONGEST)),                    # never more than the longest, even rounded up
    ((1e308,) * 16 + (0.0,), 0.0, int(LONGEST)),         # tries from a clock far ahead count, as made now ...
    ((1e308,) * 16, 0.0, 0),                             # ... but only one made by now starts a lock
    ((-1e308, 0.0, 1e308, 0.0, 0.0), 1e9, 0),            # an hour later, all forgotten
])
def test_no_lock_outlasts_the_longest(stamps, now, locked):
    assert seconds_locked(stamps, now) == locked


def test_the_keypad_after_the_clock_jumps_forward_then_back():
    clock = Clock(NOW + YEARS)
    with Ledger(MemoryStore(clock=clock)) as ledger:
        ledger.commit(PinChange(hash_pin("2468", b"0123456789abcdef")))
        table = Table(ledger)
        table.hands.shell.wall_clock = clock
        for _ in range(MAX_TRIES):  # wrong PINs while the clock runs three years ahead
            table.keys("FN", ".")
            table.type("1111M")
        table.keys("FN", ".")
        table.type("2468M")
        assert "PIN locked" in table.shown  # locked, on the clock of the moment
        clock.t = NOW  # the network corrects the clock
        assert seconds_locked(ledger.game().pin_failures, NOW) == 0  # every try so far stamped ahead
        table.keys("FN", ".")
        table.type("2468M")
        assert "PIN locked" not in table.shown  # not locked for three years
        table.keys("C")
        with pytest.raises(NotAuthorised, match="wrong banker PIN"):
            ledger.authorise(Grant("1111", "keypad", NOW))  # the tries made ahead still count ...
        with pytest.raises(NotAuthorised, match=r"locked for 6[01] s"):
            ledger.authorise(Grant("2468", "keypad", NOW))  # ... so this one locks for longer
        ledger.authorise(Grant("2468", "keypad", NOW + LONGEST))  # and never beyond the longest


def test_the_cli_after_the_clock_jumps_forward_then_back(tmp_path):
    import time

    db = tmp_path / "ledger.db"
    ahead = Clock(time.time() + YEARS)
    with SqliteLedger(db, clock=ahead) as ledger:
        ledger.commit(PinChange(hash_pin("2468", b"0123456789abcdef")))
        for _ in range(MAX_TRIES):
            with pytest.raises(NotAuthorised):
                ledger.authorise(Grant("1111", "cli", ahead.t))
        assert [type(r) for r in ledger.store.records()].count(PinFailure) == MAX_TRIES

    def banker(*args):
        return CliRunner().invoke(cli, [*args, "--db", str(db)])

    done = banker("pin", "set", "--new", "1357", "--pin", "2468")  # today's clock: three years behind
    assert done.exit_code == 0, done.output
    refused = banker("pin", "set", "--new", "2468", "--pin", "0000")
    assert refused.exit_code == 4 and "wrong banker PIN" in refused.output
    locked = banker("pin", "set", "--new", "2468", "--pin", "1357")
    assert locked.exit_code == 4 and "locked for" in locked.output
    seconds = int(locked.output.split("locked for ")[1].split()[0])
    assert 0 < seconds <= 2 * LOCKOUT_SECONDS
