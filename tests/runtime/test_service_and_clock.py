"""systemd's notify socket gone or its watchdog variables garbled: the unit plays on, warning once; the wall clock
says 'not synchronised' wherever the kernel can't be asked (the schedule then waits)."""

from __future__ import annotations

import logging
import socket
import threading

import pytest

import runtime.wall_clock as wall_clock
from runtime.sd_notify import ServiceNotifier, watchdog_seconds


def test_a_notify_socket_that_is_gone_is_warned_about_once_and_never_raises(tmp_path, caplog):
    notifier = ServiceNotifier(str(tmp_path / "gone.sock"), watchdog=10.0, clock=lambda: 0.0)
    with caplog.at_level(logging.WARNING, logger="banker.service"):
        assert notifier.send("READY=1") is False
        notifier.ready()
        notifier.stopping()
    notifier.close()
    warned = [r.getMessage() for r in caplog.records]
    assert len(warned) == 1 and warned[0].startswith(f"cannot tell systemd READY=1 through {tmp_path / 'gone.sock'}")


def test_holding_for_a_time_ends_with_stopping(tmp_path):
    path = str(tmp_path / "notify.sock")
    systemd = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    systemd.bind(path)
    now = [0.0]

    def clock():
        now[0] += 1.0
        return now[0]
    notifier = ServiceNotifier(path, watchdog=None, clock=clock)
    notifier.hold(threading.Event(), seconds=0.5)  # the time is up at the first look
    notifier.close()
    systemd.settimeout(5)
    assert [systemd.recv(64) for _ in range(2)] == [b"READY=1", b"STOPPING=1"]
    systemd.close()


@pytest.mark.parametrize("environ, seconds", [({"WATCHDOG_USEC": "abc"}, None), ({"WATCHDOG_USEC": "2000000",
                                              "WATCHDOG_PID": "x"}, None), ({"WATCHDOG_USEC": "0"}, None),
                                              ({"WATCHDOG_USEC": "2000000"}, 2.0)])
def test_the_watchdog_interval_is_read_only_when_it_is_whole_and_ours(environ, seconds):
    assert watchdog_seconds(environ) == seconds


@pytest.fixture
def fresh_adjtimex():
    wall_clock._adjtimex.cache_clear()
    yield
    wall_clock._adjtimex.cache_clear()


def test_off_linux_the_clock_is_never_taken_for_synchronised(fresh_adjtimex, monkeypatch):
    monkeypatch.setattr(wall_clock.sys, "platform", "darwin")
    assert wall_clock.clock_synced() is False and wall_clock.time_of_day() is None


def test_a_libc_without_adjtimex_is_not_synchronised(fresh_adjtimex, monkeypatch):
    def no_libc(name):
        raise OSError("no libc")
    monkeypatch.setattr(wall_clock.ctypes, "CDLL", no_libc)
    assert wall_clock.clock_synced() is False


def test_a_synchronised_clock_gives_the_time_of_day(fresh_adjtimex, monkeypatch):
    monkeypatch.setattr(wall_clock, "_adjtimex", lambda: (lambda buffer: 0))
    assert 0 <= wall_clock.time_of_day() < 86_400
    monkeypatch.setattr(wall_clock, "_adjtimex", lambda: (lambda buffer: wall_clock.TIME_ERROR))
    assert wall_clock.time_of_day() is None
