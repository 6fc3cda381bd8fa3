"""Long commands say how far they are on a terminal, and never in a pipe (a test's captured output)."""

from __future__ import annotations

import io
import sys

from banker_cli.progress import SHOW_FROM, progress_bar


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_bar_on_a_terminal_for_a_long_read(monkeypatch):
    monkeypatch.setattr(sys, "stderr", Terminal())
    with progress_bar("showing", 2 * SHOW_FROM) as advance:
        advance(SHOW_FROM)
        advance(2 * SHOW_FROM)
    assert "showing" in sys.stderr.getvalue() and "100%" in sys.stderr.getvalue()


def test_the_total_may_come_with_the_first_step_from_another_thread(monkeypatch):
    import threading

    monkeypatch.setattr(sys, "stderr", Terminal())
    with progress_bar("reading the ledger") as advance:
        worker = threading.Thread(target=advance, args=(SHOW_FROM, 2 * SHOW_FROM))
        worker.start()
        worker.join()
    assert "reading the ledger" in sys.stderr.getvalue()


def test_nothing_in_a_pipe_nor_for_a_short_read(monkeypatch):
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    with progress_bar("showing", 10 * SHOW_FROM) as advance:
        advance(SHOW_FROM)
    assert sys.stderr.getvalue() == ""
    monkeypatch.setattr(sys, "stderr", Terminal())
    with progress_bar("showing", SHOW_FROM - 1) as advance:
        advance(SHOW_FROM - 1)
    assert sys.stderr.getvalue() == ""
