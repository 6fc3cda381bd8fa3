"""A spy: a shell wrapped so that every event, record and effect that passes it is written down (pyserial's ``spy://``).

:class:`SpyShell` has the shell's interface and is used in its place (the
``spy:NAME`` backends build their unit over one); the shell inside is not
touched. Records are the ones the event's step committed, read back from
the ledger's store.

Example::

    shell = SpyShell(Shell(ledger), spy_to(sys.stderr))
    shell.handle(KeyDown("5", 1.0))   # spy event  KeyDown(...), then its records and effects
"""

from __future__ import annotations

import sys
from typing import TextIO
from collections.abc import Callable

from banker.unit.events import Effect, Event

from .shell import Shell

Write = Callable[[str, object], None]


def spy_to(stream: TextIO | None = None) -> Write:
    """A spy's pen: ``spy KIND value`` lines, one per event, record and effect, on ``stream`` (default stderr)."""
    def write(kind: str, value: object) -> None:
        print(f"spy {kind:<6} {value!r}", file=stream or sys.stderr, flush=True)
    return write


class SpyShell:
    """``shell`` with a spy: the same interface, each event, its records and its effects written with ``write``."""

    def __init__(self, shell: Shell, write: Write) -> None:
        self._shell = shell
        self._write = write

    def handle(self, event: Event) -> list[Effect]:
        self._write("event", event)
        store = self._shell.ledger.store
        before = store.last_seq()
        effects = self._shell.handle(event)
        for record in store.records(before) if store.last_seq() != before else ():
            self._write("record", record)
        for effect in effects:
            self._write("effect", effect)
        return effects

    def pump(self) -> int:
        """Step through every queued event now, through the spy."""
        return Shell.pump(self)  # type: ignore[arg-type]

    def run(self, *args, **kwargs) -> None:
        """The one run loop, its events through the spy."""
        Shell.run(self, *args, **kwargs)  # type: ignore[arg-type]

    def __getattr__(self, name: str):
        return getattr(self._shell, name)
