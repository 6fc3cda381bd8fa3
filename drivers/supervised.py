"""A background thread that is started again when it fails, so no event source dies silently.

The card slots, the keypad scanner and the serial test port each run their
loop through :class:`Supervised`: if the loop raises, the error is logged
with its traceback (once per run of failures, for the log only, never on the
screen), ``on_failure(exc)`` lets the source tell the unit (the card slots
post a reader fault), and after a short pause a new thread runs the loop
again, calling ``on_restart()`` first (the card slots post
``ReaderRecovered(restarted=True)``).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

log = logging.getLogger("banker.threads")


class Supervised:
    """Runs ``body(stop)`` on a daemon thread named ``name`` until ``stop`` is set; restarts it when it raises.

    ``body`` should return only when ``stop`` is set. The pause before a
    restart doubles from ``backoff_s`` up to ``max_backoff_s`` while the loop
    keeps failing, and drops back once a run lasted longer than the pause.

    Example::

        def loop(stop):
            while not stop.is_set():
                poll_once()
                stop.wait(0.05)

        worker = Supervised("card-slots", loop, on_failure=tell_the_unit)
        worker.start()
        ...
        worker.stop()
    """

    def __init__(self, name: str, body: Callable[[threading.Event], None], *,
                 on_failure: Callable[[BaseException], None] | None = None,
                 on_restart: Callable[[], None] | None = None,
                 backoff_s: float = 0.05, max_backoff_s: float = 5.0) -> None:
        self.name = name
        self.body = body
        self.on_failure = on_failure
        self.on_restart = on_restart
        self.backoff_s, self.max_backoff_s = backoff_s, max_backoff_s
        self.restarts = 0
        self.last_error: BaseException | None = None
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._pause = backoff_s

    @property
    def running(self) -> bool:
        """A thread is running the loop (or about to start it again)."""
        thread = self._thread
        return thread is not None and thread.is_alive()

    def start(self) -> None:
        """Start the loop on its thread."""
        with self._lock:
            if self.running:
                raise RuntimeError(f"{self.name} is already started")
            self._stop.clear()
            self._spawn(restarted=False)

    def _spawn(self, *, restarted: bool) -> None:
        self._thread = threading.Thread(target=self._run, args=(restarted,), name=self.name, daemon=True)
        self._thread.start()

    def _run(self, restarted: bool) -> None:
        try:
            if restarted and self.on_restart is not None:
                self.on_restart()
            self.body(self._stop)
        except Exception as exc:
            self._failed(exc)
        else:
            if not self._stop.is_set():          # the loop gave up on its own: that is a failure too
                self._failed(RuntimeError(f"{self.name} stopped by itself"))

    def _failed(self, exc: BaseException) -> None:
        if self.last_error is None or type(exc) is not type(self.last_error):
            log.error("%s failed; starting it again", self.name, exc_info=exc)
        self.last_error = exc
        if self.on_failure is not None:
            try:
                self.on_failure(exc)
            except Exception:
                log.exception("%s: reporting the failure failed too", self.name)
        if self._stop.wait(self._pause):
            return
        self._pause = min(self._pause * 2, self.max_backoff_s)
        with self._lock:
            if self._stop.is_set():
                return
            self.restarts += 1
            self._spawn(restarted=True)

    def settled(self) -> None:
        """The loop did useful work again: the next failure pauses only ``backoff_s``."""
        self._pause = self.backoff_s
        self.last_error = None

    def stop(self, timeout: float | None = 5.0) -> None:
        """Set the stop flag and wait for the current thread to end."""
        self._stop.set()
        with self._lock:
            thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)
        self._thread = None
