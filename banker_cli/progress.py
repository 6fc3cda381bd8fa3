"""How far a long command has gone, as a bar on stderr: only on a terminal, never in a pipe or a test's output.

``banker ledger show`` and ``ledger export`` read a game's journal twice
(who undid what, then the rows), and ``banker web`` folds an old ledger's
game from its start when its snapshots carry no worth trail; each says how
far it is with :func:`progress_bar` once the work is long enough to wait for.
"""

from __future__ import annotations

import sys
import threading
from contextlib import contextmanager
from collections.abc import Callable, Iterator

import click

#: Steps (transactions read) from which a bar is worth showing.
SHOW_FROM = 5_000


@contextmanager
def progress_bar(label: str, total: int | None = None) -> Iterator[Callable[..., None]]:
    """Yields ``advance(done, total=None)``: ``done`` steps of ``total`` (given here or with the first call).

    On a terminal (stderr) and for at least :data:`SHOW_FROM` steps, a
    click progress bar follows it (from any thread); otherwise it does nothing.
    """
    if not sys.stderr.isatty():
        yield lambda done, total=None: None
        return
    state: dict = {"bar": None, "done": 0, "total": total}
    lock = threading.Lock()

    def advance(done: int, total: int | None = None) -> None:
        with lock:
            state["total"] = state["total"] or total
            if state["bar"] is None:
                if not state["total"] or state["total"] < SHOW_FROM:
                    return
                state["bar"] = click.progressbar(length=state["total"], label=label, file=sys.stderr)
                state["bar"].__enter__()
            state["bar"].update(max(0, done - state["done"]))
            state["done"] = max(done, state["done"])

    try:
        yield advance
    finally:
        if state["bar"] is not None:
            state["bar"].__exit__(None, None, None)
