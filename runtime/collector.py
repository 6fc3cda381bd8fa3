"""The garbage collector kept off the key's path: the start-up heap frozen, full collections only when idle.

CPython's cyclic collector runs when allocations pass its thresholds, in
whatever is running then: a key's step. Its young collections touch only
the objects made since the last one (a fraction of a millisecond here), but
a full one walks every object alive, and a unit holds a whole ledger's fold:
on a 5,000-payment ledger one full collection paused the unit 17 ms here,
about 240 ms at a Pi Zero 2's x14 (benchmarks/bench_gc.py).

So the unit's run loop (``banker run``) uses a :class:`Collector`:

- :meth:`start`, once the ledger is open and the first frame drawn: one full
  collection, then :func:`gc.freeze`: everything alive then (the modules,
  the fold of the ledger) moves to the permanent generation, which no later
  collection walks;
- :meth:`idle`, from the shell's upkeep after each tick's frame: once the
  unit has been idle for :data:`IDLE_AFTER` seconds (no key or card) and
  :data:`EVERY` seconds have passed since the last, a full collection of
  what was made since, then freeze again. Its pause stays that of a minute's
  play (under a millisecond here), and when it runs nobody is pressing.

What freezing costs: a reference cycle that was alive when frozen and dies
later is never collected. The unit's objects are dataclasses and tuples freed
by their reference counts; ``bench_gc.py`` counts what a full collection of
the frozen heap finds after a long game (0 after 6,000 payments) so a change
that starts to leak shows there.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from dataclasses import dataclass, field

#: Seconds without a key or card before a full collection may run.
IDLE_AFTER = 2.0
#: Seconds between two full collections at most once each.
EVERY = 60.0


@dataclass
class Collector:
    """When the unit's full collections run (see the module). ``clock``: the shell's clock (seconds);
    ``timer``: what measures a collection's pause (this thread's CPU time)."""

    clock: Callable[[], float] = time.monotonic
    idle_after: float = IDLE_AFTER
    every: float = EVERY
    timer: Callable[[], float] = time.thread_time
    last: float | None = None
    #: The pauses of the collections this ran (seconds), for the benchmark and the log.
    pauses: list[float] = field(default_factory=list)

    def start(self) -> None:
        """The start-up heap collected once and frozen: no collection walks it again (once: a run loop entered
        again, as a keypad script's ``wait`` does, changes nothing)."""
        if self.last is None:
            self._collect()

    def idle(self, last_activity: float) -> bool:
        """A full collection of what was made since the last freeze, if the unit has been idle long enough since
        ``last_activity`` (the shell's clock) and the last one is :attr:`every` seconds ago. True if it ran."""
        now = self.clock()
        if now - last_activity < self.idle_after:
            return False
        if self.last is not None and now - self.last < self.every:
            return False
        self._collect()
        return True

    def _collect(self) -> None:
        started = self.timer()
        gc.collect()
        gc.freeze()
        self.pauses.append(self.timer() - started)
        self.last = self.clock()
