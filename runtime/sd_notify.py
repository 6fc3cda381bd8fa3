"""systemd's service notifications for ``banker run``: READY=1, WATCHDOG=1 fed by the run loop, STOPPING=1.

The protocol of ``sd_notify(3)``: each state is one datagram of ``KEY=value``
lines sent to the Unix socket ``$NOTIFY_SOCKET`` (an abstract socket when
the name starts with ``@``). ``$WATCHDOG_USEC`` is the watchdog's interval
(``WatchdogSec=``) and ``$WATCHDOG_PID`` the process it is meant for; a unit
fed less often than that is killed and, with ``Restart=on-failure``,
started again. Without ``$NOTIFY_SOCKET`` (a desktop, a script, a test run)
:func:`service_notifier` gives None and nothing is ever sent.

:meth:`runtime.shell.Shell.run` calls :meth:`ServiceNotifier.alive` from
the loop itself, at every turn, and it sends WATCHDOG=1 at most every half
interval: a loop that hangs (a display bus that stalls, a handler that never
returns) stops feeding it, and systemd restarts the unit. Never from a
thread of its own, which would go on pinging while the loop hangs.

Written on the standard library, not a package: systemd documents this
protocol as a stable interface, and it is one ``sendto`` on a datagram
socket. ``python-systemd``'s ``systemd.daemon.notify`` would need
libsystemd's headers and a C compiler on the Pi (and is no help on a
desktop); the ``sdnotify`` package (unreleased since 2017) covers only the
send, connects once at start, and swallows every error silently, and would
still leave ``$WATCHDOG_USEC`` and ``$WATCHDOG_PID`` to read here.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Mapping

log = logging.getLogger("banker.service")

#: The sd_notify(3) environment variables.
SOCKET_ENV, WATCHDOG_ENV, WATCHDOG_PID_ENV = "NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID"


class ServiceNotifier:
    """Tells systemd, through the socket ``address``, that the unit is ready, alive and stopping.

    ``watchdog`` is systemd's watchdog interval in seconds (None: no
    watchdog asked for); :meth:`alive` feeds it every ``watchdog / 2``
    seconds of ``clock``. A send that fails is logged once and never
    raises: the unit plays on whatever the service manager does.
    """

    def __init__(self, address: str, watchdog: float | None = None, *,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.address = "\0" + address[1:] if address.startswith("@") else address
        self.watchdog = watchdog
        self.clock = clock
        self._next_ping: float | None = None
        self._failed = False
        import socket  # only under systemd (a $NOTIFY_SOCKET): a command or a script opens none

        self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)

    def send(self, state: str) -> bool:
        """Send one notification (``"READY=1"``); False when it could not be sent (logged the first time)."""
        try:
            self._socket.sendto(state.encode("utf-8"), self.address)
            return True
        except OSError as exc:
            if not self._failed:
                log.warning("cannot tell systemd %s through %s: %s", state, self.address.replace("\0", "@"), exc)
            self._failed = True
            return False

    def ready(self) -> None:
        """The unit is up (its devices open, its first frame drawn): READY=1, and the watchdog's first ping."""
        self.send("READY=1")
        if self.watchdog is not None:
            self.send("WATCHDOG=1")
            self._next_ping = self.clock() + self.watchdog / 2

    def alive(self) -> None:
        """Called from the run loop at every turn: WATCHDOG=1 when half the watchdog's interval has passed."""
        if self._next_ping is None or self.clock() < self._next_ping:
            return
        self.send("WATCHDOG=1")
        self._next_ping = self.clock() + self.watchdog / 2

    def stopping(self) -> None:
        """The unit is shutting down: STOPPING=1 (systemd then waits for it, not the watchdog)."""
        self._next_ping = None
        self.send("STOPPING=1")

    def hold(self, stop: threading.Event, seconds: float | None = None) -> None:
        """Ready, then wait for ``stop`` (or ``seconds``) feeding the watchdog, then stopping: the unit that
        shows a refusal on its screen and does nothing else is up and alive to systemd too."""
        self.ready()
        end = None if seconds is None else self.clock() + seconds
        try:
            while not stop.is_set():
                left = None if end is None else end - self.clock()
                if left is not None and left <= 0:
                    return
                waits = [w for w in (left, self.watchdog / 2 if self.watchdog is not None else None) if w is not None]
                stop.wait(min(waits) if waits else None)
                self.alive()
        finally:
            self.stopping()

    def close(self) -> None:
        self._socket.close()


def service_notifier(environ: Mapping[str, str] = os.environ) -> ServiceNotifier | None:
    """The notifier systemd's environment asks for (``$NOTIFY_SOCKET``; ``$WATCHDOG_USEC`` when meant for this
    process), or None when the unit doesn't run under a ``Type=notify`` service: then nothing is sent."""
    address = environ.get(SOCKET_ENV, "")
    if not address or not address.startswith(("/", "@")):
        return None  # unset, or a vsock address this unit has no use for
    return ServiceNotifier(address, watchdog_seconds(environ))


def watchdog_seconds(environ: Mapping[str, str] = os.environ) -> float | None:
    """``$WATCHDOG_USEC`` in seconds, when set, above 0 and (``$WATCHDOG_PID``) meant for this process; else None."""
    try:
        usec = int(environ.get(WATCHDOG_ENV, ""))
        pid = int(environ.get(WATCHDOG_PID_ENV, os.getpid()))
    except ValueError:
        return None
    return usec / 1e6 if usec > 0 and pid == os.getpid() else None


def hold(stop: threading.Event, seconds: float | None = None) -> None:
    """Wait for ``stop`` (or ``seconds``), telling systemd the unit is up and alive meanwhile when it runs as a
    ``Type=notify`` service (:meth:`ServiceNotifier.hold`); a plain wait otherwise."""
    service = service_notifier()
    if service is None:
        stop.wait(seconds)
        return
    try:
        service.hold(stop, seconds)
    finally:
        service.close()
