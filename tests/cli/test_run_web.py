"""``banker run --web``: the unit serves the table page beside itself; the token stays off its log."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from runtime.ledger import SqliteLedger
from web.tokens import token_path

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_the_running_unit_serves_the_page_and_logs_no_token(tmp_path):
    db = tmp_path / "ledger.db"
    with SqliteLedger(db) as ledger:
        ledger.enrol("Alice", "A1")
    port = free_port()
    config = tmp_path / "banker.toml"
    config.write_text(f'[web]\nenabled = true\nhost = "127.0.0.1"\nport = {port}\n')
    unit = subprocess.Popen([str(Path(sys.executable).parent / "banker"), "run", "--backend", "hw-sim", "--config",
                             str(config), "--db", str(db), "--seconds", "4"], cwd=ROOT,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"}, stderr=subprocess.PIPE, text=True)
    try:
        line = ""
        deadline = time.monotonic() + 20
        while "table page" not in line:
            assert time.monotonic() < deadline and unit.poll() is None, "no table page"
            line = unit.stderr.readline()
        assert f"http://127.0.0.1:{port}/" in line and "t=" not in line
        token = token_path(db).read_text().strip()
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state?t={token}", timeout=5) as response:
            assert json.load(response)["balances"] == {"Alice": 15_000_000}
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=5)
            raise AssertionError("served without the token")
        except urllib.error.HTTPError as exc:
            assert exc.code == 401
    finally:
        out, err = unit.communicate(timeout=30)
    assert unit.returncode == 0, err
    assert token not in err


def test_the_simulator_serves_the_page_for_its_game(tmp_path):
    db = tmp_path / "ledger.db"
    with SqliteLedger(db) as ledger:
        ledger.enrol("Alice", "A1")
    port = free_port()
    config = tmp_path / "banker.toml"
    config.write_text(f'[web]\nport = {port}\n')
    script = tmp_path / "look.kps"
    script.write_text("insert left Alice\npress 1 M\nexpect balance Alice 16M\n")
    sim = subprocess.run([str(Path(sys.executable).parent / "banker"), "sim", "--web", "--config", str(config),
                          "--db", str(db), "--script", str(script), "--screenshot", str(tmp_path / "shot.png")],
                         cwd=ROOT, env={**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"},
                         capture_output=True, text=True, timeout=60)
    assert sim.returncode == 0, sim.stderr
    assert f"the table page: http://127.0.0.1:{port}/?t=" in sim.stderr
