"""A reader that closes the pipe early (``banker deeds list | head -1``) ends the command quietly, exit 0."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.cli.support import a_ledger

#: Run the installed entry point (``banker = banker_cli.entry:main``) in a process of its own.
ENTRY = "import sys\nfrom banker_cli.entry import main\nsys.argv[0] = 'banker'\nmain()\n"

WRITERS_TO_STDOUT = [
    ["deeds", "list"], ["deeds", "list", "--json"], ["cards", "list"], ["game", "list"], ["game", "show"],
    ["game", "show", "--json"], ["ledger", "show"], ["ledger", "export", "--format", "csv"],
    ["ledger", "export", "--format", "json"], ["ledger", "verify"], ["key", "export", "--qr"], ["--help"],
    ["cards", "--help"],
]


@pytest.fixture
def home(tmp_path):
    """An environment whose home and XDG folders are in ``tmp_path``, with a ledger there."""
    env = {k: v for k, v in os.environ.items() if k not in ("BANKER_DB", "BANKER_CONFIG", "BANKER_PIN")}
    for name, sub in (("HOME", "home"), ("XDG_DATA_HOME", "data"), ("XDG_CONFIG_HOME", "config"),
                      ("XDG_STATE_HOME", "state"), ("XDG_CACHE_HOME", "cache")):
        env[name] = str(tmp_path / sub)
    env["BANKER_DB"] = str(a_ledger(tmp_path))
    return env


def _into_closed_pipe(args: list[str], env: dict) -> subprocess.CompletedProcess:
    """``banker ARGS`` whose stdout is a pipe its reader has already closed."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return subprocess.run([sys.executable, "-c", ENTRY, *args], stdout=write_end, stderr=subprocess.PIPE,
                              env=env, text=True, timeout=120)
    finally:
        os.close(write_end)


@pytest.mark.parametrize("args", WRITERS_TO_STDOUT, ids=" ".join)
def test_a_reader_that_closed_the_pipe_is_a_quiet_exit_0(args, home):
    run = _into_closed_pipe(args, home)
    assert run.stderr == ""  # never "ledger.db: Broken pipe", nor Python's "Exception ignored"
    assert run.returncode == 0


def test_head_reading_one_line_ends_it_quietly(home):
    unit = subprocess.Popen([sys.executable, "-c", ENTRY, "key", "export", "--qr"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=home)
    first = unit.stdout.readline()
    unit.stdout.close()  # as head -1 does
    assert unit.wait(timeout=120) == 0
    assert unit.stderr.read() == b""
    unit.stderr.close()
    assert first.strip()


def test_a_closed_pipe_does_not_hide_a_failing_command(home):
    run = _into_closed_pipe(["ledger", "show", "--game", "9"], home)
    assert run.returncode == 1
    assert "no game 9" in run.stderr


def test_only_stdout_s_reader_going_away_counts(tmp_path, monkeypatch):
    from banker_cli.common import reader_gone

    with open(tmp_path / "out.txt", "w") as healthy:
        monkeypatch.setattr(sys, "stdout", healthy)
        assert not reader_gone(BrokenPipeError(32, "Broken pipe"))  # a socket's or a device's broken pipe
    read_end, write_end = os.pipe()
    os.close(read_end)
    with open(write_end, "w") as closed:
        monkeypatch.setattr(sys, "stdout", closed)
        assert reader_gone(BrokenPipeError(32, "Broken pipe"))
        assert not reader_gone(OSError(5, "Input/output error"))
