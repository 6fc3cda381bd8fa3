"""``banker sim`` says at once, on stderr, what its first slow seconds are spent on; a headless run says nothing."""

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

pytest.importorskip("pygame")

from banker_cli.sim import STARTING, sim_command  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
HEADLESS = {"SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}


def test_a_window_s_start_says_at_once_what_it_is_doing(tmp_path):
    """The first line on stderr, before the window's slow first steps (and before its demo game is said)."""
    unit = subprocess.Popen([sys.executable, "-m", "banker_cli.sim", "--db", str(tmp_path / "new.db"), "--mute"],
                            cwd=ROOT, env={**os.environ, **HEADLESS}, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    guard = threading.Timer(120, unit.kill)  # a window that never says anything must not hang the tests
    guard.start()
    try:
        said = [unit.stderr.readline().rstrip("\n"), unit.stderr.readline().rstrip("\n")]
    finally:
        guard.cancel()
        unit.kill()  # the window would play on until closed
        unit.wait(timeout=60)
        unit.stderr.close()
    assert said[0] == STARTING
    assert "the first start can take several seconds" in said[0]
    assert said[1].startswith("banker: a new ledger: a demo game")


def test_a_headless_screenshot_run_says_nothing_of_a_window(tmp_path, monkeypatch):
    for name, value in HEADLESS.items():
        monkeypatch.setenv(name, value)
    play = tmp_path / "play.kps"
    play.write_text("enrol Alice\n")
    result = CliRunner().invoke(sim_command, ["--script", str(play), "--screenshot", str(tmp_path / "end.png")])
    assert result.exit_code == 0, result.output
    assert "starting the simulator window" not in result.output
