"""Killed mid-game with SIGKILL, the unit never leaves a half transaction or loses a committed one."""

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from firmware_sim.crash_player import check_after_kill, reported_ids

ROOT = Path(__file__).resolve().parents[2]


def play_and_kill(path: Path, seed: int, after: float) -> str:
    """Start a player, wait for its first promised transaction (however slowly a loaded machine starts Python),
    then kill it ``after`` seconds later, mid-game. Returns all it promised."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "firmware_sim.crash_player", str(path), str(seed)],
                            stdout=subprocess.PIPE, env=env, text=True, cwd=ROOT)
    first = []
    for line in proc.stdout:  # the player flushes each line as it commits
        first.append(line)
        if line.startswith("tx "):
            break
    time.sleep(after)
    proc.send_signal(signal.SIGKILL)
    out, _ = proc.communicate()
    return "".join(first) + out


def test_sigkill_never_leaves_a_half_transaction(tmp_path):
    rng = random.Random(7)
    path = tmp_path / "ledger.db"
    reported: set[int] = set()
    for run in range(10):
        reported |= reported_ids(play_and_kill(path, seed=run, after=rng.random() * 0.8))
        lost, doubled = check_after_kill(str(path), reported)
        assert (lost, doubled) == (0, 0)
    assert len(reported) > 20, "the game did not get going before the kills"
