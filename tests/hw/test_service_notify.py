"""``banker run`` as systemd's ``Type=notify`` service: READY=1 once up, WATCHDOG=1 fed from the run loop itself (a
hung loop stops feeding it, so systemd restarts the unit), STOPPING=1 on the way out; nothing off systemd.

Each test plays systemd: it binds the notification socket, sets ``$NOTIFY_SOCKET`` and ``$WATCHDOG_USEC``, and
reads what the unit sends.
"""

import os
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from banker.unit.events import KeyDown
from runtime.ledger import SqliteLedger
from runtime.sd_notify import hold, service_notifier
from runtime.shell import Shell

WATCHDOG_USEC = 200_000  # systemd's WatchdogSec=0.2s: the unit pings every 0.1 s


class Systemd:
    """The service manager's end of the notification socket: what the unit said, in order."""

    def __init__(self, address: str) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind("\0" + address[1:] if address.startswith("@") else address)
        self.env = {"NOTIFY_SOCKET": address, "WATCHDOG_USEC": str(WATCHDOG_USEC)}

    def next(self, timeout: float = 20.0) -> str | None:
        """The next notification, or None when none comes within ``timeout`` seconds."""
        self.sock.settimeout(timeout)
        try:
            return self.sock.recv(4096).decode()
        except TimeoutError:
            return None

    def until(self, wanted: str, timeout: float = 20.0) -> list[str]:
        said = []
        while wanted not in said:
            state = self.next(timeout)
            assert state is not None, f"no {wanted} from the unit; it said {said}"
            said.append(state)
        return said

    def drain(self) -> list[str]:
        said = []
        while (state := self.next(0.0001)) is not None:
            said.append(state)
        return said


@pytest.fixture
def systemd(tmp_path):
    path = tmp_path / "notify"
    manager = Systemd(str(path) if len(str(path)) < 100 else f"@banker-test-{os.getpid()}")
    yield manager
    manager.sock.close()


@pytest.fixture
def abstract_systemd():
    manager = Systemd(f"@banker-test-notify-{os.getpid()}")
    yield manager
    manager.sock.close()


def test_banker_run_is_ready_then_fed_then_stopping(systemd, tmp_path):
    """The real ``banker run --backend hw-sim``, as the service starts it; SIGTERM as ``systemctl stop`` sends."""
    banker = Path(sys.executable).parent / "banker"
    unit = subprocess.Popen([str(banker), "run", "--backend", "hw-sim", "--db", str(tmp_path / "ledger.db")],
                            env={**os.environ, **systemd.env}, stderr=subprocess.PIPE, text=True)
    try:
        said = systemd.until("READY=1", timeout=60)
        assert said == ["READY=1"]  # nothing before it
        assert [systemd.next() for _ in range(3)] == ["WATCHDOG=1"] * 3
    finally:
        unit.send_signal(signal.SIGTERM)
        _, err = unit.communicate(timeout=60)
    assert unit.returncode == 0, err
    assert "STOPPING=1" in systemd.drain() and "stopped" in err


class StallingDisplay:
    """A display whose bus hangs on the next frame once ``stall`` is set (a wedged I2C bus), until ``free``."""

    def __init__(self) -> None:
        self.stall, self.stalled, self.free = threading.Event(), threading.Event(), threading.Event()
        self.frames = 0

    def show(self, screen) -> None:
        self.frames += 1
        if self.stall.is_set():
            self.stalled.set()
            self.free.wait()

    def power(self, on: bool) -> None:
        pass


def test_a_hung_run_loop_stops_feeding_the_watchdog(abstract_systemd, monkeypatch):
    monkeypatch.setenv("NOTIFY_SOCKET", abstract_systemd.env["NOTIFY_SOCKET"])  # an abstract socket, '@...'
    monkeypatch.setenv("WATCHDOG_USEC", str(WATCHDOG_USEC))
    display, stop = StallingDisplay(), threading.Event()
    with SqliteLedger(":memory:") as ledger:
        shell = Shell(ledger, display=display)
        assert display.frames == 1  # the first frame is drawn before the loop says it is ready
        loop = threading.Thread(target=shell.run, args=(stop,), kwargs={"service": service_notifier()})
        loop.start()
        try:
            assert abstract_systemd.until("READY=1") == ["READY=1"]
            assert [abstract_systemd.next() for _ in range(3)] == ["WATCHDOG=1"] * 3
            display.stall.set()
            shell.post(KeyDown("1", shell.clock()))  # a key: a new frame, and the display's bus hangs
            assert display.stalled.wait(20)
            abstract_systemd.drain()  # what it sent before the hang
            assert abstract_systemd.next(timeout=1.0) is None  # five half-intervals and not one ping: systemd acts
            display.stall.clear()
            display.free.set()
            assert abstract_systemd.next() == "WATCHDOG=1"  # the loop is back, and so are the pings
        finally:
            display.free.set()
            stop.set()
            loop.join(20)
    assert "STOPPING=1" in abstract_systemd.drain()


def test_no_watchdog_is_fed_for_another_process_and_nothing_is_sent_off_systemd(systemd, monkeypatch):
    monkeypatch.setenv("NOTIFY_SOCKET", systemd.env["NOTIFY_SOCKET"])
    monkeypatch.setenv("WATCHDOG_USEC", str(WATCHDOG_USEC))
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid() + 1))  # the watchdog is meant for another process
    stop = threading.Event()
    with SqliteLedger(":memory:") as ledger:
        Shell(ledger).run(stop, until=0.0, service=service_notifier())  # one turn: ready, then stopping
        assert systemd.drain() == ["READY=1", "STOPPING=1"]
        monkeypatch.delenv("NOTIFY_SOCKET")
        assert service_notifier() is None  # a desktop, a script: no notifier, nothing sent
        Shell(ledger).run(stop, until=0.0, service=service_notifier())
    assert systemd.drain() == []


def test_a_unit_that_only_shows_a_refusal_is_up_and_fed_until_stopped(systemd, monkeypatch):
    """``banker run`` refusing a ledger keeps the refusal on its screen until stopped: ready and alive meanwhile."""
    monkeypatch.setenv("NOTIFY_SOCKET", systemd.env["NOTIFY_SOCKET"])
    monkeypatch.setenv("WATCHDOG_USEC", str(WATCHDOG_USEC))
    stop = threading.Event()
    waiting = threading.Thread(target=hold, args=(stop,))
    waiting.start()
    try:
        assert systemd.until("READY=1") == ["READY=1"]
        assert [systemd.next() for _ in range(3)] == ["WATCHDOG=1"] * 3
    finally:
        stop.set()
        waiting.join(20)
    assert systemd.drain()[-1] == "STOPPING=1"
